//! `scrape-agent run`: the agent in this process (no server to start), or on a running server
//! with `--server`.

use std::path::PathBuf;

use futures::StreamExt;

use super::progress::Progress;
use super::remote::{Interrupt, Remote};
use super::watch::Watch;
use super::{CliError, Exit, Interrupts, RunArgs};
use crate::app::{AppState, RunOrigin};
use crate::output::OutputFormat;
use crate::run::ScrapeRequest;
use crate::settings::Settings;
use crate::tools::ToolCall;

/// Runs the request of `args` and prints its answer.
///
/// # Errors
/// A request that cannot run (exit 2), or a server or store that cannot be used (exit 3).
pub(super) async fn run(settings: Settings, args: RunArgs) -> Result<Exit, CliError> {
    let request = scrape_request(&args)?;
    let mut watch = Watch::new(Progress::choose(args.quiet, true), args.json_events);
    let session_id = match &args.server.server {
        Some(base) => {
            let remote = Remote::new(base, args.server.api_key.as_deref())?;
            // Listening before the run starts: a Ctrl-C from then on cancels it.
            let mut interrupts = Interrupts::new();
            let started = remote.start(&request).await?;
            remote
                .follow(
                    &started.session_id,
                    &mut watch,
                    Interrupt::CancelRun,
                    &mut interrupts,
                )
                .await?;
            started.session_id
        }
        None => run_here(settings, request, &mut watch).await?,
    };
    watch.finish(&session_id, args.out.as_deref())
}

/// The request the flags describe (the same body `POST /api/scrape` takes).
fn scrape_request(args: &RunArgs) -> Result<ScrapeRequest, CliError> {
    if args.markdown {
        return Ok(ScrapeRequest {
            session_id: args.session_id.clone(),
            ..crate::app::markdown_request(args.urls.clone())
        });
    }
    let tools = args.tools.as_deref().map(read_plan).transpose()?;
    Ok(ScrapeRequest {
        urls: args.urls.clone(),
        instructions: args.instructions.clone().unwrap_or_default(),
        output_format: Some(OutputFormat::from(args.format).as_str().to_owned()),
        output_instructions: args.output_instructions.clone(),
        max_steps: args.max_steps,
        planner: args.planner.into(),
        model: args.model.clone(),
        tools,
        session_id: args.session_id.clone(),
        max_pages: args.max_pages,
        max_detail_pages: args.max_detail_pages,
        render: args.render.into(),
        crawl: args.crawl.clone(),
        webhook: None,
    })
}

/// Reads an explicit plan: a JSON list of `{"tool", "params", "reasoning", "save_as"?}`.
fn read_plan(path: &std::path::Path) -> Result<Vec<ToolCall>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|err| CliError::Usage(format!("cannot read --tools {}: {err}", path.display())))?;
    serde_json::from_str(&text).map_err(|err| {
        CliError::Usage(format!(
            "--tools {} is not a plan (a JSON list of {{\"tool\", \"params\", \"reasoning\"}}): {err}",
            path.display()
        ))
    })
}

/// A SQLite file of its own for one in-process run, removed when the run is over.
///
/// Not the configured database: that file belongs to the server (a SQLite store is owned by
/// one process, which closes whatever it finds running there at start), and two runs at once
/// would do the same to each other.
struct ScratchStore {
    dir: PathBuf,
}

impl ScratchStore {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!("scrape-agent-run-{}", uuid::Uuid::new_v4()));
        Self { dir }
    }

    fn url(&self) -> String {
        format!("sqlite://{}", self.dir.join("run.db").display())
    }
}

impl Drop for ScratchStore {
    fn drop(&mut self) {
        if let Err(err) = std::fs::remove_dir_all(&self.dir)
            && err.kind() != std::io::ErrorKind::NotFound
        {
            tracing::warn!(dir = %self.dir.display(), %err, "could not remove the run's scratch store");
        }
    }
}

/// Runs the request in this process, on the settings' fetcher, planners and limits.
async fn run_here(
    mut settings: Settings,
    request: ScrapeRequest,
    watch: &mut Watch,
) -> Result<String, CliError> {
    // Checked first: a mistake in the request needs no store. `start_run` checks it again
    // (the same pure check, so the same answer) as it does for every face.
    let valid = request.clone().validate(&settings.limits)?;
    if let Some(crawl) = &valid.crawl {
        crawl.check(&settings.crawl)?;
    }
    let scratch = ScratchStore::new();
    settings.database.url = scratch.url();
    settings.database.max_connections = settings.database.max_connections.clamp(1, 4);
    // Nothing is kept past the run: retention has nothing to sweep.
    settings.store.retention_days = 0;
    let state = AppState::build(settings).await.map_err(|err| match err {
        crate::app::StartupError::LlmRequired => CliError::Usage(err.to_string()),
        other => CliError::Unavailable(other.to_string()),
    })?;
    let mut interrupts = Interrupts::new();
    let id = state.start_run(request, RunOrigin::default()).await?;
    let mut events = std::pin::pin!(state.hub.subscribe(&id, 0));
    let mut cancelled = false;
    loop {
        tokio::select! {
            next = events.next() => {
                let Some(event) = next else { break };
                watch.take(&event)?;
                if watch.is_done() {
                    break;
                }
            }
            () = interrupts.next() => {
                if cancelled {
                    return Err(CliError::Unavailable(format!("interrupted; session {id} was being cancelled")));
                }
                cancelled = true;
                watch.note("cancelling (Ctrl-C again to quit at once)…");
                if let Err(err) = state.hub.cancel(&id).await {
                    return Err(CliError::Unavailable(format!("could not cancel session {id}: {err}")));
                }
            }
        }
    }
    // The hub's background tasks see the shutdown before their pool closes under them.
    state.hub.begin_shutdown();
    state.hub.store().close().await;
    drop(scratch);
    Ok(id)
}
