//! `scrape-agent replay <id>`: a stored run shown again as `run` showed it — its steps on
//! stderr, its answer on stdout (or `--out`), or every event as JSON lines with `--json-events`.

use super::progress::Progress;
use super::remote::{Interrupt, Remote};
use super::sessions::{open_store, store_error};
use super::watch::Watch;
use super::{CliError, Exit, Interrupts, ReplayArgs};
use crate::run::request::valid_session_id;
use crate::settings::Settings;
use crate::store::SessionFilter;

/// Replays session `args.id` from a running server (`--server`, following it live if it is
/// still running) or from the configured store.
///
/// # Errors
/// An unknown session (exit 2), a server or store that cannot be read, or a session that has
/// not ended in the store (exit 3).
pub(super) async fn replay(settings: Settings, args: ReplayArgs) -> Result<Exit, CliError> {
    if !valid_session_id(&args.id) {
        return Err(CliError::Usage(format!(
            "`{}` is not a session id ([A-Za-z0-9_-]{{1,64}})",
            args.id
        )));
    }
    // A record, not a live run: plain lines even on a terminal.
    let mut watch = Watch::new(Progress::choose(args.quiet, false), args.json_events)
        .with_format(args.format.map(Into::into));
    let mut args = args;
    match &args.server.server {
        Some(base) => {
            let remote = Remote::new(base, args.server.api_key.as_deref())?;
            args.id = by_prefix(&remote.sessions(100).await?, &args.id)?;
            remote
                .follow(
                    &args.id,
                    &mut watch,
                    Interrupt::Leave,
                    &mut Interrupts::new(),
                )
                .await?;
        }
        None => {
            let Some(store) = open_store(&settings.database).await? else {
                return Err(CliError::Usage(format!(
                    "no session `{}`: the store {} does not exist",
                    args.id, settings.database.url
                )));
            };
            let recent = store
                .list_sessions(&SessionFilter {
                    limit: 100,
                    ..SessionFilter::default()
                })
                .await
                .map_err(store_error)?;
            let recent = serde_json::to_value(&recent).unwrap_or_default();
            args.id = by_prefix(&recent, &args.id)?;
            let session = store.session(&args.id).await.map_err(store_error)?;
            let events = store.events_after(&args.id, 0).await.map_err(store_error)?;
            store.close().await;
            for event in &events {
                watch.take(event)?;
            }
            if !watch.is_done() {
                return Err(CliError::Unavailable(format!(
                    "session {} is {} and has no answer yet; follow it with --server URL",
                    args.id,
                    session.status.as_str()
                )));
            }
        }
    }
    watch.finish(&args.id, args.out.as_deref())
}

/// The session `id` names in a listing of recent sessions: itself when a session has that id
/// or none begins with it (then the lookup says it is unknown), else the one session whose id
/// begins with it.
///
/// # Errors
/// Several recent sessions begin with `id`.
fn by_prefix(listing: &serde_json::Value, id: &str) -> Result<String, CliError> {
    let ids: Vec<&str> = listing["sessions"]
        .as_array()
        .map(|sessions| {
            sessions
                .iter()
                .filter_map(|session| session["id"].as_str())
                .collect()
        })
        .unwrap_or_default();
    if ids.contains(&id) {
        return Ok(id.to_owned());
    }
    let matching: Vec<&str> = ids.into_iter().filter(|s| s.starts_with(id)).collect();
    match matching.as_slice() {
        [] => Ok(id.to_owned()),
        [one] => Ok((*one).to_owned()),
        several => Err(CliError::Usage(format!(
            "`{id}` begins {} sessions ({}); give more of the id",
            several.len(),
            several.join(", ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_prefix_names_the_one_session_that_begins_with_it() {
        let listing = json!({"sessions": [{"id": "3f2a9c"}, {"id": "3f2b00"}, {"id": "3f"}]});
        assert_eq!(by_prefix(&listing, "3f2a").unwrap(), "3f2a9c");
        assert_eq!(by_prefix(&listing, "3f").unwrap(), "3f", "an exact id wins");
        assert_eq!(by_prefix(&listing, "zz").unwrap(), "zz");
        let err = by_prefix(&listing, "3f2").unwrap_err().to_string();
        assert!(err.contains("begins 2 sessions (3f2a9c, 3f2b00)"), "{err}");
    }
}
