//! The one error type of the HTTP API: every failure before a stream starts becomes
//! `{"error": {"code", "message", "details"}}` with a 4xx/5xx status.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::app::StartRefusal;
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

impl From<StartRefusal> for ApiError {
    fn from(refusal: StartRefusal) -> Self {
        match refusal {
            StartRefusal::Rejected(rejection) => rejection.into(),
            StartRefusal::NotStarted(err) => err.into(),
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

/// Bytes of a non-JSON error body read to carry its text into the JSON error's message.
const PLAIN_ERROR_TEXT_MAX: usize = 1024;

/// Gives every error response a JSON [`ErrorBody`]: the ones our handlers build have it
/// already; those made by the framework or a library (405 from routing, 413 from the body
/// limit, 408 from the body timeout, 415 from the MCP service) come as plain text or empty,
/// and are rewritten here with a code named after the status and their text as the message.
pub async fn json_errors(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, PLAIN_ERROR_TEXT_MAX)
        .await
        .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_owned())
        .unwrap_or_default();
    let reason = status.canonical_reason().unwrap_or("error");
    let message = if text.is_empty() {
        reason.to_owned()
    } else {
        text
    };
    let mut rewritten = ApiError::new(status, code_of_status(status), message).into_response();
    for (name, value) in &parts.headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            rewritten.headers_mut().insert(name.clone(), value.clone());
        }
    }
    rewritten
}

/// The error code of a response that came without one.
fn code_of_status(status: StatusCode) -> &'static str {
    match status {
        StatusCode::BAD_REQUEST => "bad_request",
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::NOT_ACCEPTABLE => "not_acceptable",
        StatusCode::REQUEST_TIMEOUT => "request_timeout",
        StatusCode::PAYLOAD_TOO_LARGE => "body_too_large",
        StatusCode::URI_TOO_LONG => "uri_too_long",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
        StatusCode::UNPROCESSABLE_ENTITY => "unprocessable",
        StatusCode::TOO_MANY_REQUESTS => "too_many_requests",
        StatusCode::SERVICE_UNAVAILABLE => "unavailable",
        s if s.is_client_error() => "bad_request",
        _ => "internal",
    }
}
