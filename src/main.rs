//! The `scrape-agent` binary: parse the command line, load settings, serve.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, Subcommand};
use scrape_agent::app::{AppState, Application, shutdown_signal};
use scrape_agent::settings::{LogFormat, Settings};
use tracing_subscriber::fmt::writer::BoxMakeWriter;

/// Command line.
#[derive(Debug, Parser)]
#[command(
    version,
    about = "Self-hostable scraping agent over Server-Sent Events"
)]
struct Cli {
    /// A TOML file layered over the embedded defaults.
    #[arg(long, global = true, env = "SCRAPE_AGENT_CONFIG")]
    config: Option<PathBuf>,
    /// Address to listen on (overrides server.bind).
    #[arg(long, global = true)]
    bind: Option<SocketAddr>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the HTTP server (the default).
    Serve,
    /// Serve the MCP tools on stdin/stdout, for MCP clients that launch a process.
    Mcp,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let command = cli.command.unwrap_or(Command::Serve);
    let mut settings = match Settings::load(cli.config.as_deref()) {
        Ok(settings) => settings,
        Err(err) => {
            eprintln!("scrape-agent: invalid configuration: {err}");
            return std::process::ExitCode::from(2);
        }
    };
    if let Some(bind) = cli.bind {
        settings.server.bind = bind;
    }
    init_logs(&command, settings.log.format);
    if let Command::Mcp = command {
        return serve_mcp_stdio(settings).await;
    }
    let app = match Application::build(settings).await {
        Ok(app) => app,
        Err(err) => {
            eprintln!("scrape-agent: {err}");
            return std::process::ExitCode::FAILURE;
        }
    };
    match app.local_addr() {
        Ok(addr) => tracing::info!(%addr, "listening"),
        Err(err) => tracing::warn!(%err, "listening on an unknown address"),
    }
    if let Err(err) = app.run_until(shutdown_signal()).await {
        eprintln!("scrape-agent: {err}");
        return std::process::ExitCode::FAILURE;
    }
    std::process::ExitCode::SUCCESS
}

/// Starts logging: to stdout when serving, to stderr over stdio (stdout is the MCP channel
/// there: a log line would corrupt it), as text or JSON lines.
fn init_logs(command: &Command, format: LogFormat) {
    let (writer, ansi) = match command {
        // Logs kept in files (an MCP client's stderr, `docker logs`): colours only on a terminal.
        Command::Mcp => (
            BoxMakeWriter::new(std::io::stderr),
            std::io::stderr().is_terminal(),
        ),
        Command::Serve => (
            BoxMakeWriter::new(std::io::stdout),
            std::io::stdout().is_terminal(),
        ),
    };
    let logs = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                // The MCP SDK logs every message it handles at info.
                .unwrap_or_else(|_| "info,tower_http=warn,rmcp=warn".into()),
        )
        .with_writer(writer);
    match format {
        LogFormat::Text => logs.with_ansi(ansi).init(),
        LogFormat::Json => logs.json().with_current_span(true).init(),
    }
}

/// `scrape-agent mcp`: the same state as the server, without a listener.
async fn serve_mcp_stdio(settings: Settings) -> std::process::ExitCode {
    let state = match AppState::build(settings).await {
        Ok(state) => state,
        Err(err) => {
            eprintln!("scrape-agent: {err}");
            return std::process::ExitCode::FAILURE;
        }
    };
    if let Err(err) = scrape_agent::mcp::stdio::serve(state, shutdown_signal()).await {
        eprintln!("scrape-agent: {err}");
        return std::process::ExitCode::FAILURE;
    }
    std::process::ExitCode::SUCCESS
}
