//! `scrape-agent sessions`: recent sessions of the configured store, or of a running server.

use std::str::FromStr;

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;
use sqlx::sqlite::SqliteConnectOptions;

use super::remote::Remote;
use super::{CliError, Exit, SessionsArgs, write_stdout};
use crate::events::RunStatus;
use crate::page::dom::{collapse_whitespace, shorten};
use crate::settings::{DatabaseSettings, Settings};
use crate::store::{SessionFilter, Store, StoreError};

/// What the listing shows of a session (from `GET /api/scrape` or the store alike).
#[derive(Debug, Deserialize)]
struct SessionSummary {
    id: String,
    status: RunStatus,
    created_at: DateTime<Utc>,
    step_count: u64,
    request: RequestSummary,
}

/// The part of a stored request the listing shows.
#[derive(Debug, Default, Deserialize)]
struct RequestSummary {
    #[serde(default)]
    urls: Vec<String>,
    #[serde(default)]
    instructions: String,
}

/// A page of sessions, newest first.
#[derive(Debug, Deserialize)]
struct SessionList {
    sessions: Vec<SessionSummary>,
}

/// Lists sessions.
///
/// # Errors
/// When the server or the store cannot be read.
pub(super) async fn list(settings: Settings, args: SessionsArgs) -> Result<Exit, CliError> {
    let listing: Value = match &args.server.server {
        Some(base) => {
            Remote::new(base, args.server.api_key.as_deref())?
                .sessions(args.limit)
                .await?
        }
        None => {
            let Some(store) = open_store(&settings.database).await? else {
                eprintln!(
                    "no sessions: the store {} does not exist yet (sessions are kept by \
                     `scrape-agent serve`; see a running server's with --server URL)",
                    settings.database.url
                );
                return Ok(Exit::Success);
            };
            let filter = SessionFilter {
                limit: args.limit,
                ..SessionFilter::default()
            };
            let page = store.list_sessions(&filter).await.map_err(store_error)?;
            store.close().await;
            serde_json::to_value(&page).map_err(|err| {
                CliError::Unavailable(format!("unreadable session listing: {err}"))
            })?
        }
    };
    if args.json {
        let mut text = serde_json::to_string_pretty(&listing).unwrap_or_default();
        text.push('\n');
        write_stdout(&text)?;
        return Ok(Exit::Success);
    }
    let list: SessionList = serde_json::from_value(listing)
        .map_err(|err| CliError::Unavailable(format!("unreadable session listing: {err}")))?;
    write_stdout(&table(&list.sessions))?;
    Ok(Exit::Success)
}

/// The listing as aligned columns, one session a line.
fn table(sessions: &[SessionSummary]) -> String {
    if sessions.is_empty() {
        return "no sessions\n".to_owned();
    }
    let id_width = sessions
        .iter()
        .map(|s| s.id.len())
        .max()
        .unwrap_or(0)
        .max(2);
    let mut text = format!(
        "{:<id_width$}  {:<11}  {:<19}  {:>4}  {:>5}  INSTRUCTIONS\n",
        "ID", "STATUS", "CREATED (UTC)", "URLS", "STEPS"
    );
    for session in sessions {
        text.push_str(&format!(
            "{:<id_width$}  {:<11}  {:<19}  {:>4}  {:>5}  {}\n",
            session.id,
            session.status.as_str(),
            session.created_at.format("%Y-%m-%d %H:%M:%S"),
            session.request.urls.len(),
            session.step_count,
            shorten(&collapse_whitespace(&session.request.instructions), 60),
        ));
    }
    text
}

/// Opens the configured store to read it; `None` when it is a SQLite file that does not exist
/// (opening it would create an empty one where the user happens to be).
pub(super) async fn open_store(database: &DatabaseSettings) -> Result<Option<Store>, CliError> {
    let url = database.url.trim();
    if url.starts_with("sqlite:") {
        let options = SqliteConnectOptions::from_str(url).map_err(|err| {
            CliError::Usage(format!("database.url `{url}` is not a SQLite URL: {err}"))
        })?;
        if !options.get_filename().exists() {
            return Ok(None);
        }
    }
    Store::connect(database)
        .await
        .map(Some)
        .map_err(store_error)
}

/// A store failure, as one line.
pub(super) fn store_error(err: StoreError) -> CliError {
    match err {
        StoreError::NotFound(id) => CliError::Usage(format!("no session `{id}`")),
        other => CliError::Unavailable(format!("the session store failed: {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_instructions_are_cut_on_collapse_whitespace() {
        assert_eq!(
            shorten(&collapse_whitespace("the top\n 5   stories"), 60),
            "the top 5 stories"
        );
        assert_eq!(shorten("abcdefghij", 5), "abcd…");
    }
}
