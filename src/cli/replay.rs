//! `scrape-agent replay <id>`: a stored run shown again as `run` showed it — its steps on
//! stderr, its answer on stdout (or `--out`), or every event as JSON lines with `--json-events`.

use super::progress::Progress;
use super::remote::{Interrupt, Remote};
use super::sessions::{open_store, store_error};
use super::watch::Watch;
use super::{CliError, Exit, Interrupts, ReplayArgs};
use crate::run::request::valid_session_id;
use crate::settings::Settings;

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
    let mut watch = Watch::new(Progress::choose(args.quiet, false), args.json_events);
    match &args.server.server {
        Some(base) => {
            let remote = Remote::new(base, args.server.api_key.as_deref())?;
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
