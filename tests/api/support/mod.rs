//! Test support: spawn the app, serve fixture pages, read SSE streams.

pub mod fixtures;
pub mod sse;

use std::net::SocketAddr;

use scrape_agent::app::Application;
use scrape_agent::settings::Settings;
use tokio::sync::oneshot;

pub use fixtures::FixtureServer;
pub use sse::{Frame, read_stream};

/// A running server.
pub struct TestApp {
    /// Base URL, e.g. `http://127.0.0.1:41234`.
    pub base: String,
    /// An HTTP client.
    pub client: reqwest::Client,
    /// Stops the server when sent (or dropped).
    _stop: oneshot::Sender<()>,
}

/// Settings for tests: port 0, private networks allowed (fixtures are on 127.0.0.1), no robots
/// delays, short timeouts.
pub fn test_settings() -> Settings {
    let mut settings = Settings::defaults();
    settings.server.bind = SocketAddr::from(([127, 0, 0, 1], 0));
    settings.server.keep_alive_secs = 1;
    settings.fetch.allow_private_networks = true;
    settings.fetch.timeout_secs = 3;
    settings.fetch.retries = 0;
    settings
}

/// Starts the app with the test settings.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// Starts the app with adjusted test settings.
pub async fn spawn_app_with(adjust: impl FnOnce(&mut Settings)) -> TestApp {
    let mut settings = test_settings();
    adjust(&mut settings);
    let app = Application::build(settings).await.expect("app builds");
    let addr = app.local_addr().expect("bound");
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(app.run_until(async {
        let _ = stopped.await;
    }));
    TestApp {
        base: format!("http://{addr}"),
        client: reqwest::Client::new(),
        _stop: stop,
    }
}

impl TestApp {
    /// POSTs a JSON body to a path.
    pub async fn post(&self, path: &str, body: &serde_json::Value) -> reqwest::Response {
        self.client
            .post(format!("{}{path}", self.base))
            .json(body)
            .send()
            .await
            .expect("request sent")
    }

    /// GETs a path.
    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("request sent")
    }

    /// Starts a streamed run and reads every frame until the stream ends.
    pub async fn stream(&self, body: &serde_json::Value) -> Vec<Frame> {
        let response = self.post("/api/scrape/stream", body).await;
        assert_eq!(
            response.status(),
            200,
            "stream should start: {:?}",
            response.text().await
        );
        read_stream(response).await
    }
}
