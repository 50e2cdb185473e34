//! The `scrape-agent` binary: everything is in [`scrape_agent::cli`].

#[tokio::main]
async fn main() -> std::process::ExitCode {
    scrape_agent::cli::main().await
}
