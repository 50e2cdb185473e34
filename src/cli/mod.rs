//! The command line: `serve` (the default), `mcp`, and the commands for people at a terminal —
//! `run`, `tools`, `sessions`, `replay`.
//!
//! Exit status of every command: 0 when it did what was asked (for `run` and `replay`: every URL
//! produced an answer), 1 when a run ended without an answer for every URL (a URL failed, the
//! run was cancelled or timed out), 2 for a usage or configuration mistake (including a request
//! the server rejects), 3 when the work could not be done (a server that cannot be reached, a
//! stream lost for good, a store that fails).

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use tracing_subscriber::fmt::writer::BoxMakeWriter;

use crate::app::{AppState, StartRefusal, shutdown_signal};
use crate::http::Application;
use crate::output::OutputFormat;
use crate::run::{PlannerChoice, StartError};
use crate::settings::{LogFormat, Settings};

mod crawl;
mod progress;
mod remote;
mod replay;
mod run;
mod sessions;
mod tools;
mod watch;

/// Command line.
#[derive(Debug, Parser)]
#[command(
    version,
    about = "Self-hostable scraping agent over Server-Sent Events",
    after_help = "Exit status: 0 success; 1 a URL failed (or the run was cancelled); \
                  2 bad usage or configuration; 3 the server or store could not be used."
)]
pub struct Cli {
    /// A TOML file layered over the embedded defaults.
    #[arg(long, global = true, env = "SCRAPE_AGENT_CONFIG")]
    config: Option<PathBuf>,
    /// Address to listen on when serving (overrides server.bind).
    #[arg(long)]
    bind: Option<SocketAddr>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the HTTP server (the default).
    Serve(ServeArgs),
    /// Serve the MCP tools on stdin/stdout, for MCP clients that launch a process.
    Mcp,
    /// Scrape URLs: in this process, or on a running server with `--server`.
    Run(RunArgs),
    /// List the extraction tools a plan (`run --tools`) can call.
    Tools(ToolsArgs),
    /// List recent sessions of the server's store (or of a running server with `--server`).
    Sessions(SessionsArgs),
    /// Print a stored run again: its steps on stderr, its answer on stdout.
    Replay(ReplayArgs),
    /// Scrape a whole site from URLs: its sitemaps' pages and the pages its links reach, each
    /// answered with the same instructions.
    Crawl(crawl::CrawlArgs),
    /// List a site's URLs (sitemaps, then a shallow walk of its links), without extracting.
    Map(crawl::MapArgs),
}

/// `scrape-agent serve`.
#[derive(Debug, Default, Args)]
struct ServeArgs {
    /// Address to listen on (overrides server.bind).
    #[arg(long)]
    bind: Option<SocketAddr>,
    #[command(flatten)]
    private: PrivateArgs,
}

/// `--allow-private`, for `serve` and `run`.
#[derive(Debug, Default, Clone, Args)]
struct PrivateArgs {
    /// Fetch loopback and private-network addresses too (a page on this machine or your LAN);
    /// the same as `fetch.allow_private_networks = true`
    /// (SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS=true). Keep it off on a public server.
    #[arg(long)]
    allow_private: bool,
}

/// Where a command finds sessions: a running server, or else the configured store.
#[derive(Debug, Clone, Args)]
struct ServerArgs {
    /// A running server's base URL (e.g. http://127.0.0.1:8080); without it the work is done
    /// in this process.
    #[arg(long, env = "SCRAPE_AGENT_SERVER")]
    server: Option<String>,
    /// API key for a server that requires one (sent as `Authorization: Bearer`).
    #[arg(long, env = "SCRAPE_AGENT_API_KEY", hide_env_values = true)]
    api_key: Option<String>,
}

/// `scrape-agent run`.
#[derive(Debug, Args)]
struct RunArgs {
    /// The pages to scrape, processed in order.
    #[arg(value_name = "URL", required = true)]
    urls: Vec<String>,
    /// What you want, in plain words ("the top 10 stories with title, link and points").
    #[arg(short, long, required_unless_present_any = ["tools", "markdown"])]
    instructions: Option<String>,
    /// How the answer is written.
    #[arg(short, long, value_enum, default_value_t = FormatArg::Json)]
    format: FormatArg,
    /// Shaping of the answer, e.g. "columns: title, url, points".
    #[arg(long)]
    output_instructions: Option<String>,
    /// A JSON file with an explicit plan (`[{"tool", "params", "reasoning"}]`, see
    /// `scrape-agent tools`); the planner is not asked.
    #[arg(long, value_name = "FILE")]
    tools: Option<PathBuf>,
    /// Write the answer to this file instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Print every event as one JSON line on stdout instead of the answer.
    #[arg(long)]
    json_events: bool,
    /// The page's main content (the article, without navigation and boilerplate) as Markdown:
    /// no instructions, no planner (the same as `GET /api/markdown`).
    #[arg(long, conflicts_with_all = ["instructions", "tools", "format", "output_instructions"])]
    markdown: bool,
    #[command(flatten)]
    private: PrivateArgs,
    /// No progress on stderr (errors are still printed).
    #[arg(short, long)]
    quiet: bool,
    /// Which planner decides.
    #[arg(long, value_enum, default_value_t = PlannerArg::Auto)]
    planner: PlannerArg,
    /// Model for the LLM planner.
    #[arg(long)]
    model: Option<String>,
    /// Tool calls allowed per URL.
    #[arg(long)]
    max_steps: Option<u32>,
    /// Pages of each URL's list to read through its pagination, its own included.
    #[arg(long)]
    max_pages: Option<u32>,
    /// Item pages each URL may open to read its records' details (0: none).
    #[arg(long)]
    max_detail_pages: Option<u32>,
    /// The session's id (`[A-Za-z0-9_-]{1,64}`); a new one when absent.
    #[arg(long)]
    session_id: Option<String>,
    /// Whether pages are rendered by the browser: `auto` decides per page (a `render` step says
    /// why), `never` reads the HTML only, `always` renders every page.
    #[arg(long, value_enum, default_value_t = RenderArg::Auto)]
    render: RenderArg,
    #[command(flatten)]
    server: ServerArgs,
    /// The crawl `scrape-agent crawl` asks for (no flag of `run`).
    #[arg(skip)]
    crawl: Option<crate::run::crawl::CrawlOptions>,
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    Json,
    Csv,
    Markdown,
    Text,
}

impl From<FormatArg> for OutputFormat {
    fn from(format: FormatArg) -> Self {
        match format {
            FormatArg::Json => Self::Json,
            FormatArg::Csv => Self::Csv,
            FormatArg::Markdown => Self::Markdown,
            FormatArg::Text => Self::Text,
        }
    }
}

/// `--planner`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PlannerArg {
    Auto,
    Heuristic,
    Llm,
}

impl From<PlannerArg> for PlannerChoice {
    fn from(planner: PlannerArg) -> Self {
        match planner {
            PlannerArg::Auto => Self::Auto,
            PlannerArg::Heuristic => Self::Heuristic,
            PlannerArg::Llm => Self::Llm,
        }
    }
}

/// `--render`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RenderArg {
    Auto,
    Never,
    Always,
}

impl From<RenderArg> for crate::events::RenderMode {
    fn from(render: RenderArg) -> Self {
        match render {
            RenderArg::Auto => Self::Auto,
            RenderArg::Never => Self::Never,
            RenderArg::Always => Self::Always,
        }
    }
}

/// `scrape-agent tools`.
#[derive(Debug, Args)]
struct ToolsArgs {
    /// Only this tool (`namespace.action`), with its parameters.
    name: Option<String>,
    /// The catalog as JSON (as `GET /api/tools` serves it).
    #[arg(long)]
    json: bool,
}

/// `scrape-agent sessions`.
#[derive(Debug, Args)]
struct SessionsArgs {
    /// How many sessions, newest first (1 to 100).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100))]
    limit: u32,
    /// The listing as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    server: ServerArgs,
}

/// `scrape-agent replay`.
#[derive(Debug, Args)]
struct ReplayArgs {
    /// The session id (see `scrape-agent sessions`), or the start of one (`3f2a`) when only
    /// one recent session begins with it.
    id: String,
    /// Write the answer in this format instead of the run's own.
    #[arg(short, long, value_enum)]
    format: Option<FormatArg>,
    /// Print every event as one JSON line on stdout instead of the answer.
    #[arg(long)]
    json_events: bool,
    /// Write the answer to this file instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// No steps on stderr.
    #[arg(short, long)]
    quiet: bool,
    #[command(flatten)]
    server: ServerArgs,
}

/// How a command ended, as the process's exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// Done as asked.
    Success = 0,
    /// A run ended without an answer for every URL.
    UrlFailed = 1,
    /// A usage or configuration mistake, or a request the server rejects.
    Usage = 2,
    /// The server or the store could not be used.
    Unavailable = 3,
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> Self {
        ExitCode::from(exit as u8)
    }
}

/// Why a command could not do its work; printed as one line on stderr.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The caller's mistake (exit 2).
    #[error("{0}")]
    Usage(String),
    /// Something outside the caller's hands (exit 3).
    #[error("{0}")]
    Unavailable(String),
}

/// A request the agent would refuse (the same codes as the HTTP API's 4xx answers).
impl From<crate::run::request::Rejection> for CliError {
    fn from(rejection: crate::run::request::Rejection) -> Self {
        Self::Usage(format!("{}: {}", rejection.code, rejection.message))
    }
}

/// A run this process could not start: the caller's mistake (a request the agent refuses, a
/// session id already taken) or the store's.
impl From<StartRefusal> for CliError {
    fn from(refusal: StartRefusal) -> Self {
        match refusal {
            StartRefusal::Rejected(rejection) => rejection.into(),
            StartRefusal::NotStarted(err @ StartError::Duplicate(_)) => {
                Self::Usage(err.to_string())
            }
            StartRefusal::NotStarted(err) => Self::Unavailable(err.to_string()),
        }
    }
}

impl CliError {
    fn exit(&self) -> Exit {
        match self {
            Self::Usage(_) => Exit::Usage,
            Self::Unavailable(_) => Exit::Unavailable,
        }
    }
}

/// Parses the command line and runs the command; the process's exit status.
pub async fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli
        .command
        .unwrap_or_else(|| Command::Serve(ServeArgs::default()));
    let mut settings = match Settings::load(cli.config.as_deref()) {
        Ok(settings) => settings,
        Err(err) => {
            eprintln!("scrape-agent: invalid configuration: {err}");
            return Exit::Usage.into();
        }
    };
    let bind = match &command {
        Command::Serve(serve) => serve.bind.or(cli.bind),
        _ => cli.bind,
    };
    if let Some(bind) = bind {
        settings.server.bind = bind;
    }
    let allow_private = match &command {
        Command::Serve(serve) => serve.private.allow_private,
        Command::Run(run) => run.private.allow_private,
        Command::Crawl(crawl) => crawl.private.allow_private,
        Command::Map(map) => map.private.allow_private,
        _ => false,
    };
    if allow_private {
        settings.fetch.allow_private_networks = true;
    }
    init_logs(&command, settings.log.format);
    let outcome = match command {
        Command::Serve(_) => serve(settings).await,
        Command::Mcp => serve_mcp_stdio(settings).await,
        Command::Run(args) => run::run(settings, args).await,
        Command::Tools(args) => tools::list(&args),
        Command::Sessions(args) => sessions::list(settings, args).await,
        Command::Replay(args) => replay::replay(settings, args).await,
        Command::Crawl(args) => run::run(settings, args.into_run()).await,
        Command::Map(args) => crawl::map(settings, args).await,
    };
    match outcome {
        Ok(exit) => exit.into(),
        Err(err) => {
            eprintln!("scrape-agent: {err}");
            err.exit().into()
        }
    }
}

/// Starts logging: to stdout when serving; to stderr otherwise (stdout is the MCP channel, or
/// the answer), as text or JSON lines. The terminal commands log warnings only unless
/// `RUST_LOG` says otherwise: their progress is the output.
fn init_logs(command: &Command, format: LogFormat) {
    let serving = matches!(command, Command::Serve(_));
    let (writer, ansi) = if serving {
        (
            BoxMakeWriter::new(std::io::stdout),
            std::io::stdout().is_terminal(),
        )
    } else {
        // Logs kept in files (an MCP client's stderr, `docker logs`): colours only on a terminal.
        (
            BoxMakeWriter::new(std::io::stderr),
            std::io::stderr().is_terminal(),
        )
    };
    let default_filter = match command {
        // The MCP SDK logs every message it handles at info.
        Command::Serve(_) | Command::Mcp => "info,tower_http=warn,rmcp=warn",
        _ => "warn",
    };
    let logs = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| default_filter.into()),
        )
        .with_writer(writer);
    match format {
        LogFormat::Text => logs.with_ansi(ansi).init(),
        LogFormat::Json => logs.json().with_current_span(true).init(),
    }
}

/// `scrape-agent serve`: listen until Ctrl-C or SIGTERM.
async fn serve(settings: Settings) -> Result<Exit, CliError> {
    let app = Application::build(settings)
        .await
        .map_err(|err| CliError::Unavailable(err.to_string()))?;
    match app.local_addr() {
        Ok(addr) => tracing::info!(%addr, "listening"),
        Err(err) => tracing::warn!(%err, "listening on an unknown address"),
    }
    app.run_until(shutdown_signal())
        .await
        .map_err(|err| CliError::Unavailable(err.to_string()))?;
    Ok(Exit::Success)
}

/// `scrape-agent mcp`: the same state as the server, without a listener.
async fn serve_mcp_stdio(settings: Settings) -> Result<Exit, CliError> {
    let state = AppState::build(settings)
        .await
        .map_err(|err| CliError::Unavailable(err.to_string()))?;
    crate::mcp::stdio::serve(state, shutdown_signal())
        .await
        .map_err(|err| CliError::Unavailable(err.to_string()))?;
    Ok(Exit::Success)
}

/// Writes `text` to stdout. A reader that went away (`| head`) is not an error: there is just
/// nobody left to tell.
///
/// # Errors
/// Any other failure to write.
fn write_stdout(text: &str) -> Result<(), CliError> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(err) if err.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::Unavailable(
            format!("cannot write to stdout: {err}"),
        )),
        _ => Ok(()),
    }
}

/// Ctrl-C, listened for from the moment this is made (not from the first wait, as with
/// `tokio::signal::ctrl_c`), so a Ctrl-C right after a run starts is never missed.
#[derive(Debug)]
struct Interrupts {
    #[cfg(unix)]
    signal: Option<tokio::signal::unix::Signal>,
}

impl Interrupts {
    fn new() -> Self {
        #[cfg(unix)]
        {
            let signal =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()).ok();
            Self { signal }
        }
        #[cfg(not(unix))]
        {
            Self {}
        }
    }

    /// The next Ctrl-C.
    async fn next(&mut self) {
        #[cfg(unix)]
        match &mut self.signal {
            Some(signal) => {
                signal.recv().await;
            }
            None => std::future::pending::<()>().await,
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
