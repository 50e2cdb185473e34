//! What the measuring examples share: serving pages on a local port, and the server started
//! in-process to fetch them.

use std::error::Error;

use axum::Router;
use scrape_agent::http::Application;
use scrape_agent::settings::Settings;

/// Serves `pages` on a free local port; returns its base URL (`http://127.0.0.1:PORT`).
pub async fn serve_pages(pages: Router) -> Result<String, Box<dyn Error>> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let base = format!("http://{}", listener.local_addr()?);
    tokio::spawn(async move { axum::serve(listener, pages).await });
    Ok(base)
}

/// Serves one HTML page at `/page` on a free local port, each answer after `delay`; returns
/// the page's URL.
#[allow(
    dead_code,
    reason = "load and memory_worst_page use it; eval_planner includes this module too"
)]
pub async fn serve_one_page(
    html: impl Into<axum::body::Bytes>,
    delay: std::time::Duration,
) -> Result<String, Box<dyn Error>> {
    let html: axum::body::Bytes = html.into();
    let pages = Router::new().route(
        "/page",
        axum::routing::get(move || {
            let html = html.clone();
            async move {
                tokio::time::sleep(delay).await;
                (
                    [(axum::http::header::CONTENT_TYPE, "text/html; charset=utf-8")],
                    html,
                )
            }
        }),
    );
    Ok(format!("{}/page", serve_pages(pages).await?))
}

/// Starts the server on a free port, allowed to fetch local pages, without robots.txt, on a
/// throwaway database (measurements must not touch ./data or an earlier run's sessions).
/// `adjust` changes further settings. Returns the server's base URL.
pub async fn start_server(adjust: impl FnOnce(&mut Settings)) -> Result<String, Box<dyn Error>> {
    let mut settings = Settings::defaults();
    settings.server.bind = "127.0.0.1:0".parse()?;
    settings.fetch.allow_private_networks = true;
    settings.fetch.respect_robots = false;
    let db = std::env::temp_dir().join(format!(
        "scrape-agent-{}-{}.db",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    settings.database.url = format!("sqlite://{}", db.display());
    adjust(&mut settings);
    let app = Application::build(settings).await?;
    let base = format!("http://{}", app.local_addr()?);
    tokio::spawn(app.run_until(std::future::pending()));
    Ok(base)
}
