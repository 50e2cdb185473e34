//! The one error type of the HTTP API: every failure before a stream starts becomes
//! `{"error": {"code", "message", "details"}}` with a 4xx/5xx status.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::run::StartError;
use crate::run::request::Rejection;
use crate::store::StoreError;

/// An API error.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// Machine-readable code.
    pub code: &'static str,
    /// Human-readable message.
    pub message: String,
    /// Extra details.
    pub details: Value,
    /// Seconds for a `Retry-After` header.
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// An error with no details.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            details: Value::Null,
            retry_after: None,
        }
    }

    /// 404 for an unknown thing.
    pub fn not_found(what: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", what)
    }
}

/// The JSON body of every error response.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ErrorBody {
    /// What went wrong.
    pub error: ErrorDetail,
}

/// `error` of an [`ErrorBody`].
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ErrorDetail {
    /// Machine-readable code (`invalid_url`, `unauthorized`, `too_many_runs`, …).
    pub code: String,
    /// Human-readable message.
    pub message: String,
    /// Extra details (which URL, which limit), or null.
    pub details: Value,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code.to_owned(),
                message: self.message,
                details: self.details,
            },
        };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(secs) = self.retry_after
            && let Ok(value) = HeaderValue::from_str(&secs.to_string())
        {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        response
    }
}

impl From<Rejection> for ApiError {
    fn from(rejection: Rejection) -> Self {
        let status = match rejection.code {
            "too_many_urls" => StatusCode::PAYLOAD_TOO_LARGE,
            _ => StatusCode::BAD_REQUEST,
        };
        Self {
            status,
            code: rejection.code,
            message: rejection.message,
            details: rejection.details,
            retry_after: None,
        }
    }
}

impl From<StartError> for ApiError {
    fn from(err: StartError) -> Self {
        match err {
            StartError::Busy(_) => Self {
                retry_after: Some(5),
                ..Self::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "too_many_runs",
                    err.to_string(),
                )
            },
            StartError::KeyBusy(_) => Self {
                retry_after: Some(5),
                ..Self::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "too_many_runs_for_key",
                    err.to_string(),
                )
            },
            StartError::Duplicate(_) => {
                Self::new(StatusCode::CONFLICT, "duplicate_session", err.to_string())
            }
            StartError::ShuttingDown => Self {
                retry_after: Some(5),
                ..Self::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "shutting_down",
                    err.to_string(),
                )
            },
            // The session could not be stored, so the run did not start; the store may well
            // answer again in a moment (a full disk freed, a database restarted).
            StartError::Store(_) => {
                tracing::error!(%err, "a run could not start: the store failed");
                Self {
                    retry_after: Some(5),
                    details: serde_json::to_value(RetryDetails { retryable: true })
                        .unwrap_or(Value::Null),
                    ..Self::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "store_unavailable",
                        format!("the session store cannot take the run now: {err}"),
                    )
                }
            }
        }
    }
}

/// `details` of an error that says whether trying again later can work.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
pub struct RetryDetails {
    /// True when the same request may succeed later.
    pub retryable: bool,
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::NotFound(_) => Self::not_found(err.to_string()),
            StoreError::Duplicate(_) => {
                Self::new(StatusCode::CONFLICT, "duplicate_session", err.to_string())
            }
            StoreError::Database(_) | StoreError::NotOwner(_) | StoreError::Locked(_) => {
                tracing::error!(%err, "store failure");
                Self::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    "the session store failed",
                )
            }
        }
    }
}
