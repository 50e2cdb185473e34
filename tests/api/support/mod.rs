//! Test support: spawn the app, serve fixture pages, read SSE streams.

pub mod browser;
pub mod fixtures;
pub mod openai;
pub mod postgres;
pub mod server;
pub mod sse;

use std::net::SocketAddr;
use std::path::PathBuf;

use scrape_agent::http::Application;
use scrape_agent::settings::Settings;
use tokio::sync::oneshot;

pub use fixtures::FixtureServer;
pub use server::Server;
pub use sse::{Frame, FrameReader, read_stream, tool_steps};

/// The `complete` payload of a run's frames, checking that it is the last one.
pub fn complete(frames: &[Frame]) -> &serde_json::Value {
    let last = frames.last().expect("frames");
    assert_eq!(last.event, "complete", "complete is last");
    last.payload()
}

/// The payloads of a run's `error` events.
pub fn errors(frames: &[Frame]) -> Vec<&serde_json::Value> {
    frames
        .iter()
        .filter(|f| f.event == "error")
        .map(Frame::payload)
        .collect()
}

/// The `error.code` of a JSON error response.
pub async fn error_code(response: reqwest::Response) -> String {
    let body: serde_json::Value = response.json().await.expect("a JSON error body");
    body["error"]["code"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// A running server.
pub struct TestApp {
    /// Base URL, e.g. `http://127.0.0.1:41234`.
    pub base: String,
    /// An HTTP client.
    pub client: reqwest::Client,
    /// The store of the app (to inspect or age rows).
    pub store: scrape_agent::store::Store,
    /// The app's runs (to check that none is left behind).
    pub hub: scrape_agent::run::Hub,
    /// The app's database URL (to open it again from outside the app).
    pub db_url: String,
    /// Stops the server when sent (or dropped).
    _stop: oneshot::Sender<()>,
    /// Removes the app's private database directory when the test ends.
    _dir: TempDir,
}

/// A directory under the system temp dir, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A fresh, empty directory.
    pub fn new() -> Self {
        let path = std::env::temp_dir()
            .join("scrape-agent-tests")
            .join(uuid::Uuid::new_v4().to_string());
        std::fs::create_dir_all(&path).expect("temp dir");
        Self(path)
    }

    /// A `sqlite://` URL of a database file inside.
    pub fn sqlite_url(&self) -> String {
        format!("sqlite://{}", self.0.join("scrape-agent.db").display())
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Settings for tests: port 0, private networks allowed (fixtures are on 127.0.0.1), no robots
/// delays, short timeouts, and a database of its own in `dir`.
pub fn test_settings_in(dir: &TempDir) -> Settings {
    let mut settings = test_settings();
    settings.database.url = dir.sqlite_url();
    settings
}

/// Settings for tests (see [`test_settings_in`]); the database URL is the default one and is
/// replaced by a private temp-dir SQLite file when the app is spawned.
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
    let dir = TempDir::new();
    let mut settings = test_settings_in(&dir);
    adjust(&mut settings);
    let app = Application::build(settings).await.expect("app builds");
    let addr = app.local_addr().expect("bound");
    let hub = app.state().hub.clone();
    let store = hub.store().clone();
    let db_url = app.state().settings.database.url.clone();
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(app.run_until(async {
        let _ = stopped.await;
    }));
    TestApp {
        base: format!("http://{addr}"),
        client: reqwest::Client::new(),
        store,
        hub,
        db_url,
        _stop: stop,
        _dir: dir,
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

    /// `POST /v2/scrape` with `body`, which must answer 200: the page's `markdown`.
    pub async fn v2_markdown(&self, body: serde_json::Value) -> String {
        let response = self.post("/v2/scrape", &body).await;
        assert_eq!(response.status(), 200, "{body}");
        let answer: serde_json::Value = response.json().await.expect("a JSON answer");
        answer["data"]["markdown"]
            .as_str()
            .unwrap_or_else(|| panic!("no markdown: {answer}"))
            .to_owned()
    }

    /// DELETEs a path.
    pub async fn delete(&self, path: &str) -> reqwest::Response {
        self.client
            .delete(format!("{}{path}", self.base))
            .send()
            .await
            .expect("request sent")
    }

    /// GETs a path with extra headers.
    pub async fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
        let mut request = self.client.get(format!("{}{path}", self.base));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await.expect("request sent")
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

/// Says that a test did not run and why, where `cargo test` shows it without `--nocapture`:
/// straight to the process's stderr (the test harness captures only `print!`/`eprint!`), as a
/// line of its own next to the harness's `test … ok` lines. `.ci/run` sets the
/// `SCRAPE_AGENT_REQUIRE_*` variables, which turn each of these skips into a failure.
pub fn skipped(test: &str, reason: &str) {
    use std::io::Write;
    let line = format!("\nSKIPPED (did not run) {test}: {reason}\n");
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(line.as_bytes());
    let _ = stderr.flush();
}
