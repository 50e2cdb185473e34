//! Headless Chromium driven over the W3C WebDriver protocol by Debian's `chromedriver`.
//!
//! The protocol is a handful of JSON requests, so the tests speak it with the `reqwest` client
//! they already have instead of a WebDriver crate; nothing downloads a browser of its own.
//! Without `chromium` and `chromedriver` the browser tests skip, unless
//! `SCRAPE_AGENT_REQUIRE_BROWSER=1` (CI) makes them fail.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{Value, json};

use super::TempDir;

/// The key under which WebDriver names an element in its answers.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Where the browser and its driver are, when both are installed.
fn installed() -> Option<(PathBuf, PathBuf)> {
    let pick = |variable: &str, candidates: &[&str]| -> Option<PathBuf> {
        std::env::var_os(variable)
            .map(PathBuf::from)
            .into_iter()
            .chain(candidates.iter().map(PathBuf::from))
            .find(|path| path.is_file())
    };
    let browser = pick(
        "SCRAPE_AGENT_CHROMIUM",
        &["/usr/bin/chromium", "/usr/bin/chromium-browser"],
    )?;
    let driver = pick("SCRAPE_AGENT_CHROMEDRIVER", &["/usr/bin/chromedriver"])?;
    Some((browser, driver))
}

/// A chromedriver process and one browser session in it; both end on drop.
pub struct Browser {
    driver: Child,
    base: String,
    session: String,
    client: reqwest::Client,
    _profile: TempDir,
    downloads: TempDir,
}

impl Browser {
    /// Starts headless Chromium, or returns None (after saying why) when it is not installed
    /// and not required.
    pub async fn start() -> Option<Self> {
        let Some((browser, driver)) = installed() else {
            let required = std::env::var("SCRAPE_AGENT_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
            assert!(
                !required,
                "SCRAPE_AGENT_REQUIRE_BROWSER=1 but chromium or chromedriver is missing \
                 (apt-get install chromium chromium-driver)"
            );
            super::skipped(
                "console browser test",
                "needs Debian's chromium and chromium-driver (apt-get install chromium \
                 chromium-driver; .ci/run does)",
            );
            return None;
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let base = format!("http://127.0.0.1:{port}");
        let client = reqwest::Client::new();
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let ready = match client.get(format!("{base}/status")).send().await {
                Ok(response) => response
                    .json::<Value>()
                    .await
                    .is_ok_and(|status| status["value"]["ready"] == true),
                Err(_) => false,
            };
            if ready {
                break;
            }
            assert!(Instant::now() < deadline, "chromedriver answers in time");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let profile = TempDir::new();
        let downloads = TempDir::new();
        let capabilities = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": browser,
                // Root in a container: no sandbox; no GPU; /dev/shm is small there.
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,1600",
                         format!("--user-data-dir={}", profile.0.display())],
                "prefs": {
                    "download.default_directory": downloads.0,
                    "download.prompt_for_download": false,
                },
            },
        }}});
        let answer: Value = client
            .post(format!("{base}/session"))
            .json(&capabilities)
            .send()
            .await
            .expect("new session")
            .json()
            .await
            .expect("session JSON");
        let session = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no browser session: {answer}"))
            .to_owned();
        Some(Self {
            driver,
            base,
            session,
            client,
            _profile: profile,
            downloads,
        })
    }

    /// One WebDriver command; its `value`, or a panic naming the driver's error.
    async fn command(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}/session/{}{path}", self.base, self.session);
        let mut request = self.client.request(method, url);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("WebDriver request");
        let status = response.status();
        let answer: Value = response.json().await.expect("WebDriver JSON");
        assert!(status.is_success(), "WebDriver {path} failed: {answer}");
        answer["value"].clone()
    }

    /// Opens a URL.
    pub async fn goto(&self, url: &str) {
        self.command(reqwest::Method::POST, "/url", Some(json!({"url": url})))
            .await;
    }

    /// Sets the window's size, as a phone's or a narrow window's screen.
    pub async fn set_window_size(&self, width: u32, height: u32) {
        self.command(
            reqwest::Method::POST,
            "/window/rect",
            Some(json!({"width": width, "height": height})),
        )
        .await;
    }

    /// Reloads the page, as the user's F5 does.
    pub async fn reload(&self) {
        self.command(reqwest::Method::POST, "/refresh", Some(json!({})))
            .await;
    }

    /// Runs a script in the page (`return …` gives its value back).
    pub async fn eval(&self, script: &str, args: Value) -> Value {
        self.command(
            reqwest::Method::POST,
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
        .await
    }

    /// The element matching a CSS selector (its WebDriver id).
    pub async fn find(&self, selector: &str) -> String {
        let found = self
            .command(
                reqwest::Method::POST,
                "/element",
                Some(json!({"using": "css selector", "value": selector})),
            )
            .await;
        found[ELEMENT_KEY]
            .as_str()
            .unwrap_or_else(|| panic!("no element {selector}: {found}"))
            .to_owned()
    }

    /// Clicks the element matching a selector, as a user does (it must be visible).
    pub async fn click(&self, selector: &str) {
        let element = self.find(selector).await;
        self.command(
            reqwest::Method::POST,
            &format!("/element/{element}/click"),
            Some(json!({})),
        )
        .await;
    }

    /// Types text into the element matching a selector, after clearing it.
    pub async fn type_into(&self, selector: &str, text: &str) {
        let element = self.find(selector).await;
        self.command(
            reqwest::Method::POST,
            &format!("/element/{element}/clear"),
            Some(json!({})),
        )
        .await;
        self.command(
            reqwest::Method::POST,
            &format!("/element/{element}/value"),
            Some(json!({"text": text})),
        )
        .await;
    }

    /// Polls a script until it returns something truthy (not null, false, 0 or ""), and
    /// returns that; panics with `what` after `within`.
    pub async fn wait_for(&self, what: &str, within: Duration, script: &str) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let value = self.eval(script, json!([])).await;
            let truthy = match &value {
                Value::Null | Value::Bool(false) => false,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return value;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The content of a file the page downloaded, once it is there whole.
    pub async fn downloaded(&self, name: &str, within: Duration) -> String {
        let path = self.downloads.0.join(name);
        let deadline = Instant::now() + within;
        loop {
            // Chromium writes `<name>.crdownload` and renames it when done; a small download
            // may also show as an empty `<name>` for a moment first (every file asked for here
            // has content), so an empty read is read again.
            if let Ok(text) = std::fs::read_to_string(&path)
                && !text.is_empty()
            {
                return text;
            }
            assert!(Instant::now() < deadline, "{name} was not downloaded");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Saves a PNG of the window.
    pub async fn screenshot(&self, path: &Path) {
        let encoded = self
            .command(reqwest::Method::GET, "/screenshot", None)
            .await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(encoded.as_str().expect("base64 text"))
            .expect("a PNG in base64");
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("artifact directory");
        }
        std::fs::write(path, png).expect("screenshot written");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Ending the session closes Chromium (killing the driver alone could leave it behind).
        // Drop cannot await, so the DELETE is written by hand on a blocking socket.
        if let Some(address) = self.base.strip_prefix("http://")
            && let Ok(mut stream) = std::net::TcpStream::connect(address)
        {
            use std::io::{Read, Write};
            let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
            let request = format!(
                "DELETE /session/{} HTTP/1.1\r\nHost: {address}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                self.session
            );
            if stream.write_all(request.as_bytes()).is_ok() {
                let mut answer = Vec::new();
                let _ = stream.read_to_end(&mut answer);
            }
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
