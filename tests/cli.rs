//! The command line, run as a subprocess (the built binary) against a local fixture site: in
//! this process's own agent (no server) and against the real server started as a process,
//! including a stream cut mid-way that the client resumes with `Last-Event-ID`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

#[path = "api/support/fixtures.rs"]
#[allow(dead_code)]
mod fixtures;
#[path = "api/support/server.rs"]
#[allow(dead_code)]
mod server;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use assert_cmd::Command;
use fixtures::FixtureServer;
use scrape_agent::events::{Event, EventType};
use serde_json::{Value, json};
use server::Server;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::runtime::Runtime;

/// One runtime for the fixture site, the server's readiness check and the proxy; the tests
/// themselves are plain threads that block on the binary.
fn runtime() -> &'static Runtime {
    static RUNTIME: OnceLock<Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime")
    })
}

fn site() -> &'static FixtureServer {
    static SITE: OnceLock<FixtureServer> = OnceLock::new();
    SITE.get_or_init(|| runtime().block_on(FixtureServer::start()))
}

/// An empty directory of its own, removed at the end of the test.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        let path = std::env::temp_dir().join(format!("scrape-agent-cli-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&path).expect("temp dir");
        Self(path)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn entries(&self) -> Vec<String> {
        std::fs::read_dir(&self.0)
            .expect("read dir")
            .map(|entry| {
                entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The binary, run in `dir`, allowed to fetch the loopback fixture site, with nothing from the
/// caller's environment deciding where it goes.
fn cli(dir: &TempDir) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_scrape-agent"));
    command
        .current_dir(dir.path())
        .env("SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS", "true")
        .env("SCRAPE_AGENT__FETCH__RETRIES", "0")
        .env("RUST_LOG", "warn")
        .env_remove("SCRAPE_AGENT_SERVER")
        .env_remove("SCRAPE_AGENT_API_KEY")
        .env_remove("SCRAPE_AGENT_CONFIG")
        .env_remove("SCRAPE_AGENT__DATABASE__URL")
        .timeout(Duration::from_secs(120));
    command
}

struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Outcome {
    /// Asserts that stderr holds `text`, showing all of stderr when it does not.
    fn stderr_has(&self, text: &str) {
        assert!(self.stderr.contains(text), "{}", self.stderr);
    }
}

fn outcome(command: &mut Command) -> Outcome {
    let output = command.output().expect("the binary runs");
    Outcome {
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(output.stderr).expect("utf-8 stderr"),
    }
}

const TOP_3: &str = "the top 3 stories with title, link and points";

/// What the news fixture's top 3 stories are, read off the page by hand.
fn top_3_stories() -> Value {
    json!([
        {"title": "Show HN: A tiny SQLite-backed job queue in Rust",
         "link": "https://github.com/example/jobq", "points": 412},
        {"title": "The hidden cost of microservices at small scale",
         "link": "https://blog.example.org/microservices-cost", "points": 389},
        {"title": "Why our CI got 4x faster after switching to nextest",
         "link": "https://engineering.acme.io/ci-nextest", "points": 305},
    ])
}

/// Events printed by `--json-events`, one JSON line each.
fn event_lines(stdout: &str) -> Vec<Event> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("each line is an event"))
        .collect()
}

/// Every seq from 1 on, once each, in order: nothing lost, nothing twice.
fn assert_contiguous(events: &[Event]) {
    let seqs: Vec<u64> = events.iter().map(|event| event.seq).collect();
    let expected: Vec<u64> = (1..=events.len() as u64).collect();
    assert_eq!(seqs, expected);
}

#[test]
fn run_in_process_prints_the_records_as_json_and_leaves_no_files() {
    let dir = TempDir::new();
    let news = site().url("/pages/news.html");
    let out = outcome(cli(&dir).args(["run", &news, "--instructions", TOP_3]));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let answer: Value = serde_json::from_str(&out.stdout).expect("stdout is JSON");
    assert_eq!(answer, json!({ news.clone(): top_3_stories() }));
    // Not a terminal: one plain line per step, tagged with the URL's place in the run.
    out.stderr_has(&format!("[1/1] {news}\n"));
    out.stderr_has("[1/1] fetch: Fetched 14156 bytes (HTTP 200)\n");
    out.stderr_has("[1/1] done: 3 item(s) in ");
    out.stderr_has("completed: 1 URL(s) answered, 0 failed");
    // The run's store was a scratch file elsewhere, removed at the end.
    assert_eq!(dir.entries(), Vec::<String>::new());
}

#[test]
fn csv_goes_to_the_out_file_and_stdout_stays_empty() {
    let dir = TempDir::new();
    let news = site().url("/pages/news.html");
    let out = outcome(cli(&dir).args([
        "run",
        &news,
        "-i",
        TOP_3,
        "--format",
        "csv",
        "--out",
        "answer.csv",
    ]));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout, "");
    let csv = std::fs::read_to_string(dir.path().join("answer.csv")).expect("the answer file");
    assert_eq!(
        csv,
        "title,link,points\n\
         Show HN: A tiny SQLite-backed job queue in Rust,https://github.com/example/jobq,412\n\
         The hidden cost of microservices at small scale,https://blog.example.org/microservices-cost,389\n\
         Why our CI got 4x faster after switching to nextest,https://engineering.acme.io/ci-nextest,305\n"
    );
    out.stderr_has("answer written to answer.csv");
}

#[test]
fn json_events_prints_every_event_from_init_to_complete() {
    let dir = TempDir::new();
    let news = site().url("/pages/news.html");
    let out = outcome(cli(&dir).args(["run", &news, "-i", TOP_3, "--json-events", "--quiet"]));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stderr, "", "--quiet prints nothing on success");
    let events = event_lines(&out.stdout);
    assert_contiguous(&events);
    let kinds: Vec<EventType> = events.iter().map(|event| event.kind).collect();
    assert_eq!(kinds.first(), Some(&EventType::Init));
    assert_eq!(kinds.get(1), Some(&EventType::UrlStart));
    assert_eq!(kinds[kinds.len() - 2], EventType::UrlComplete);
    assert_eq!(kinds.last(), Some(&EventType::Complete));
    let complete = &events.last().expect("events").data;
    assert_eq!(complete["extracted_data"][&news], top_3_stories());
    // The same session throughout.
    let session = &events[0].session_id;
    assert!(events.iter().all(|event| &event.session_id == session));
}

/// `--render` is the request's `render`: `never` is the `render` step's rule, and `always` on a
/// machine without the browser fails the URL with `render_unavailable`.
#[test]
fn render_is_a_flag_of_run() {
    let dir = TempDir::new();
    let news = site().url("/pages/news.html");
    let render_rules = |out: &Outcome| -> Vec<Value> {
        event_lines(&out.stdout)
            .iter()
            .filter(|event| event.data["action"] == "render")
            .map(|event| event.data["extracted_data"]["rule"].clone())
            .collect()
    };
    let never = outcome(cli(&dir).args([
        "run",
        &news,
        "-i",
        TOP_3,
        "--render",
        "never",
        "--json-events",
        "--quiet",
    ]));
    assert_eq!(never.code, Some(0), "{}", never.stderr);
    assert_eq!(render_rules(&never), [json!("never")]);
    let always = outcome(
        cli(&dir)
            .env("SCRAPE_AGENT__BROWSER__EXECUTABLE", "/nonexistent/chromium")
            .args(["run", &news, "-i", TOP_3, "--render", "always"]),
    );
    assert_eq!(always.code, Some(1), "{}", always.stderr);
    always.stderr_has("error render_unavailable");
}

#[test]
fn a_failed_url_exits_1_with_the_other_answers_printed() {
    let dir = TempDir::new();
    let news = site().url("/pages/news.html");
    let missing = site().url("/status/404");
    let out = outcome(cli(&dir).args(["run", &news, &missing, "-i", TOP_3]));
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let answer: Value = serde_json::from_str(&out.stdout).expect("stdout is JSON");
    assert_eq!(
        answer,
        json!({ news.clone(): top_3_stories(), missing.clone(): null })
    );
    out.stderr_has("[2/2] error fetch_failed: the server answered HTTP 404");
    out.stderr_has("partial: 1 URL(s) answered, 1 failed");
}

#[test]
fn mistakes_exit_2_with_one_line_on_stderr() {
    let dir = TempDir::new();
    let out = outcome(cli(&dir).args(["run", "not-a-url", "-i", "the title"]));
    assert_eq!(out.code, Some(2));
    assert_eq!(
        out.stderr,
        "scrape-agent: invalid_url: `not-a-url` is not a URL: relative URL without a base\n"
    );
    assert_eq!(out.stdout, "");
    let out = outcome(cli(&dir).args(["run", "https://example.com/"]));
    assert_eq!(
        out.code,
        Some(2),
        "instructions are required without a plan"
    );
    let out = outcome(cli(&dir).args(["tools", "no.such_tool"]));
    assert_eq!(out.code, Some(2));
    assert_eq!(
        out.stderr,
        "scrape-agent: no tool named `no.such_tool`; `scrape-agent tools` lists them\n"
    );
    let out = outcome(cli(&dir).args([
        "run",
        "https://example.com/",
        "-i",
        "the title",
        "--server",
        "ftp://example.com",
    ]));
    assert_eq!(out.code, Some(2));
    assert_eq!(
        out.stderr,
        "scrape-agent: --server `ftp://example.com` is not an http(s) URL\n"
    );
    // Nothing to reach: the server is not there (exit 3).
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a port")
        .local_addr()
        .expect("addr");
    let out = outcome(cli(&dir).args([
        "run",
        "https://example.com/",
        "-i",
        "the title",
        "--server",
        &format!("http://{closed}"),
    ]));
    assert_eq!(out.code, Some(3), "{}", out.stderr);
    assert!(
        out.stderr
            .starts_with(&format!("scrape-agent: cannot reach http://{closed}")),
        "{}",
        out.stderr
    );
}

#[test]
fn an_explicit_plan_from_a_file_runs_without_the_planner() {
    let dir = TempDir::new();
    let news = site().url("/pages/news.html");
    let plan = json!([
        {"tool": "html.select", "params": {"selector": "span.titleline > a"}, "reasoning": "story links"},
        {"tool": "extract.fields", "params": {"fields": {"title": "."}}, "reasoning": "their text"},
        {"tool": "extract.top_n", "params": {"n": 2}, "reasoning": "the first two"}
    ]);
    std::fs::write(dir.path().join("plan.json"), plan.to_string()).expect("plan file");
    let out = outcome(cli(&dir).args(["run", &news, "--tools", "plan.json", "-f", "text"]));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout
            .contains("Show HN: A tiny SQLite-backed job queue in Rust"),
        "{}",
        out.stdout
    );
    assert!(
        !out.stdout
            .contains("Why our CI got 4x faster after switching to nextest"),
        "only two records: {}",
        out.stdout
    );
    out.stderr_has("planner client");
}

#[test]
fn tools_lists_the_registry_as_text_and_as_json() {
    let dir = TempDir::new();
    let json_out = outcome(cli(&dir).args(["tools", "--json"]));
    assert_eq!(json_out.code, Some(0));
    let catalog: Value = serde_json::from_str(&json_out.stdout).expect("JSON catalog");
    let names: Vec<&str> = catalog["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|tool| tool["name"].as_str().expect("name"))
        .collect();
    assert_eq!(catalog["count"], json!(names.len()));
    assert!(names.contains(&"extract.top_n") && names.contains(&"html.select"));
    let text = outcome(cli(&dir).arg("tools"));
    assert_eq!(text.code, Some(0));
    let listed: Vec<&str> = text
        .stdout
        .lines()
        .take_while(|line| !line.is_empty())
        .map(|line| line.split_whitespace().next().expect("a name"))
        .collect();
    assert_eq!(listed, names, "the text lists every tool, in catalog order");
    assert!(
        text.stdout.ends_with(&format!(
            "\n{} tools; `scrape-agent tools NAME` shows one with its parameters.\n",
            names.len()
        )),
        "{}",
        text.stdout
    );
    let one = outcome(cli(&dir).args(["tools", "extract.top_n", "--json"]));
    assert_eq!(one.code, Some(0));
    let tool: Value = serde_json::from_str(&one.stdout).expect("JSON tool");
    assert_eq!(tool["name"], "extract.top_n");
    assert_eq!(tool["params"]["type"], "object");
}

/// The real server as a process, on a SQLite file in `dir`.
fn start_server(dir: &TempDir) -> (Server, String) {
    let db_url = format!("sqlite://{}", dir.path().join("server.db").display());
    let server = runtime().block_on(Server::start(&db_url));
    (server, db_url)
}

#[test]
fn server_mode_runs_lists_and_replays_a_session() {
    let dir = TempDir::new();
    let (server, db_url) = start_server(&dir);
    let news = site().url("/pages/news.html");
    let out = outcome(cli(&dir).args([
        "run",
        &news,
        "-i",
        TOP_3,
        "--server",
        &server.base,
        "--session-id",
        "cli-remote-1",
    ]));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let answer: Value = serde_json::from_str(&out.stdout).expect("stdout is JSON");
    assert_eq!(answer, json!({ news.clone(): top_3_stories() }));
    out.stderr_has("session cli-remote-1: 1 URL(s)");

    // Listed by the server, and by the store the server writes.
    let listed = outcome(cli(&dir).args(["sessions", "--server", &server.base]));
    assert_eq!(listed.code, Some(0), "{}", listed.stderr);
    let row = listed
        .stdout
        .lines()
        .find(|line| line.starts_with("cli-remote-1 "))
        .unwrap_or_else(|| panic!("the session is listed: {}", listed.stdout));
    let columns: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(columns[1], "completed");
    assert_eq!(columns[4], "1", "one URL");
    assert!(row.ends_with(TOP_3), "{row}");
    let local = outcome(
        cli(&dir)
            .env("SCRAPE_AGENT__DATABASE__URL", &db_url)
            .args(["sessions", "--json"]),
    );
    assert_eq!(local.code, Some(0), "{}", local.stderr);
    let listing: Value = serde_json::from_str(&local.stdout).expect("JSON listing");
    assert_eq!(listing["sessions"][0]["id"], "cli-remote-1");
    assert_eq!(listing["sessions"][0]["status"], "completed");

    // Replayed from the server and from the store: the same answer, the same events.
    let from_server = outcome(cli(&dir).args([
        "replay",
        "cli-remote-1",
        "--server",
        &server.base,
        "--json-events",
    ]));
    assert_eq!(from_server.code, Some(0), "{}", from_server.stderr);
    let events = event_lines(&from_server.stdout);
    assert_contiguous(&events);
    assert_eq!(events.last().map(|e| e.kind), Some(EventType::Complete));
    let from_store = outcome(cli(&dir).env("SCRAPE_AGENT__DATABASE__URL", &db_url).args([
        "replay",
        "cli-remote-1",
        "--json-events",
    ]));
    assert_eq!(from_store.code, Some(0), "{}", from_store.stderr);
    assert_eq!(event_lines(&from_store.stdout), events);
    let answer_again = outcome(
        cli(&dir)
            .env("SCRAPE_AGENT__DATABASE__URL", &db_url)
            .args(["replay", "cli-remote-1"]),
    );
    assert_eq!(answer_again.code, Some(0));
    assert_eq!(
        answer_again.stdout, out.stdout,
        "the same answer as the run"
    );
    assert!(
        answer_again
            .stderr
            .contains("[1/1] tool_call: Tool extract.top_n: ok (3 item(s))"),
        "the steps are shown again: {}",
        answer_again.stderr
    );

    let unknown = outcome(cli(&dir).args(["replay", "no-such-session", "--server", &server.base]));
    assert_eq!(unknown.code, Some(2));
    assert_eq!(
        unknown.stderr,
        "scrape-agent: not_found: session `no-such-session` not found\n"
    );
    let unknown_here = outcome(
        cli(&dir)
            .env("SCRAPE_AGENT__DATABASE__URL", &db_url)
            .args(["replay", "no-such-session"]),
    );
    assert_eq!(unknown_here.code, Some(2));
    assert_eq!(
        unknown_here.stderr,
        "scrape-agent: no session `no-such-session`\n"
    );
    drop(server);
}

#[test]
fn server_mode_failed_url_exits_1() {
    let dir = TempDir::new();
    let (server, _) = start_server(&dir);
    let missing = site().url("/status/404");
    let out = outcome(cli(&dir).args([
        "run",
        &missing,
        "-i",
        TOP_3,
        "--server",
        &server.base,
        "-f",
        "csv",
    ]));
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    out.stderr_has("failed: 0 URL(s) answered, 1 failed");
    drop(server);
}

/// A TCP proxy in front of the server that cuts the first event stream it relays after
/// `cut_after` bytes of its response, and keeps what the client sent.
struct CuttingProxy {
    base: String,
    sent: Arc<Mutex<String>>,
    /// Set when a stream was chosen to be cut.
    claimed: Arc<AtomicBool>,
    /// Set when that stream was cut (it was longer than the cut).
    cut: Arc<AtomicBool>,
}

impl CuttingProxy {
    async fn start(upstream: SocketAddr, cut_after: usize) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind proxy");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let sent = Arc::new(Mutex::new(String::new()));
        let claimed = Arc::new(AtomicBool::new(false));
        let cut = Arc::new(AtomicBool::new(false));
        let flags = Flags {
            sent: sent.clone(),
            claimed: claimed.clone(),
            cut: cut.clone(),
        };
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                tokio::spawn(relay(client, upstream, cut_after, flags.clone()));
            }
        });
        Self {
            base,
            sent,
            claimed,
            cut,
        }
    }
}

/// What the connections of a proxy share.
#[derive(Clone)]
struct Flags {
    sent: Arc<Mutex<String>>,
    claimed: Arc<AtomicBool>,
    cut: Arc<AtomicBool>,
}

/// Relays one connection; once this connection has carried a request for an event stream and
/// no stream was cut yet, its response is cut after `cut_after` bytes.
async fn relay(
    client: tokio::net::TcpStream,
    upstream: SocketAddr,
    cut_after: usize,
    flags: Flags,
) {
    let sent_log = flags.sent.clone();
    let server = tokio::net::TcpStream::connect(upstream)
        .await
        .expect("upstream");
    let (mut client_read, mut client_write) = client.into_split();
    let (mut server_read, mut server_write) = server.into_split();
    let this_connection = Arc::new(Mutex::new(String::new()));
    let requests = this_connection.clone();
    let upload = tokio::spawn(async move {
        let mut buffer = vec![0_u8; 8192];
        while let Ok(read) = client_read.read(&mut buffer).await {
            if read == 0 {
                break;
            }
            let text = String::from_utf8_lossy(&buffer[..read]).into_owned();
            requests.lock().expect("log").push_str(&text);
            sent_log.lock().expect("log").push_str(&text);
            if server_write.write_all(&buffer[..read]).await.is_err() {
                break;
            }
        }
    });
    let mut buffer = vec![0_u8; 512];
    let mut streamed = 0;
    let mut cutting = false;
    while let Ok(read) = server_read.read(&mut buffer).await {
        if read == 0 {
            break;
        }
        if !cutting
            && this_connection.lock().expect("log").contains("/events")
            && !flags.claimed.swap(true, Ordering::SeqCst)
        {
            cutting = true;
        }
        let chunk = &buffer[..read];
        if cutting {
            let room = cut_after - streamed;
            if chunk.len() >= room {
                let _ = client_write.write_all(&chunk[..room]).await;
                flags.cut.store(true, Ordering::SeqCst);
                break;
            }
            streamed += chunk.len();
        }
        if client_write.write_all(chunk).await.is_err() {
            break;
        }
    }
    upload.abort();
}

#[test]
fn server_mode_resumes_a_dropped_stream_with_last_event_id() {
    let dir = TempDir::new();
    let (server, _) = start_server(&dir);
    let upstream: SocketAddr = server
        .base
        .trim_start_matches("http://")
        .parse()
        .expect("server address");
    // The response head is about 200 bytes and each event several hundred: the cut falls
    // after a few events, in the middle of one.
    let proxy = runtime().block_on(CuttingProxy::start(upstream, 1_500));
    let news = site().url("/pages/news.html");
    let out = outcome(cli(&dir).args([
        "run",
        &news,
        "-i",
        TOP_3,
        "--server",
        &proxy.base,
        "--json-events",
    ]));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        proxy.claimed.load(Ordering::SeqCst),
        "the stream went through the proxy"
    );
    assert!(proxy.cut.load(Ordering::SeqCst), "the stream was cut");
    let events = event_lines(&out.stdout);
    assert_contiguous(&events);
    assert_eq!(events.last().map(|e| e.kind), Some(EventType::Complete));
    assert_eq!(
        events.last().expect("events").data["extracted_data"][&news],
        top_3_stories()
    );
    let resumed_after = out
        .stderr
        .lines()
        .find_map(|line| line.split("; resuming after event ").nth(1))
        .unwrap_or_else(|| panic!("the client says it resumes: {}", out.stderr));
    let resumed_after: u64 = resumed_after.parse().expect("a seq");
    assert!(resumed_after >= 1 && resumed_after < events.len() as u64);
    let sent = proxy.sent.lock().expect("log").to_ascii_lowercase();
    assert!(
        sent.contains(&format!("last-event-id: {resumed_after}\r\n")),
        "the resumed request names the last event: {sent}"
    );
    drop(server);
}

/// Runs the binary on a page that takes 30 s to answer, presses Ctrl-C (SIGINT) once its URL
/// has started, and waits for it to end.
#[cfg(unix)]
fn interrupted_run(dir: &TempDir, extra: &[&str]) -> Outcome {
    use std::io::{BufRead, BufReader, Read};
    let slow = site().url("/slow");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_scrape-agent"))
        .current_dir(dir.path())
        .env("SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS", "true")
        .env("RUST_LOG", "warn")
        .env_remove("SCRAPE_AGENT_SERVER")
        .args(["run", &slow, "-i", "the title"])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let (started_tx, started_rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        for line in BufReader::new(stderr).lines() {
            let line = line.expect("a line");
            if line.starts_with("[1/1] ") {
                let _ = started_tx.send(());
            }
            text.push_str(&line);
            text.push('\n');
        }
        text
    });
    started_rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the URL starts");
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut stdout)
        .expect("stdout");
    let code = child.wait().expect("the binary ends").code();
    Outcome {
        code,
        stdout,
        stderr: reader.join().expect("stderr reader"),
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_cancels_the_run_and_prints_what_it_gathered() {
    let dir = TempDir::new();
    let slow = site().url("/slow");
    let (server, _) = start_server(&dir);
    for extra in [&[][..], &["--server", server.base.as_str()][..]] {
        let started = std::time::Instant::now();
        let out = interrupted_run(&dir, extra);
        assert_eq!(out.code, Some(1), "{extra:?}: {}", out.stderr);
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the run did not wait for the page"
        );
        let answer: Value = serde_json::from_str(&out.stdout).expect("stdout is JSON");
        assert_eq!(answer, json!({ slow.clone(): null }));
        assert!(
            out.stderr
                .contains("cancelling (Ctrl-C again to quit at once)…\n"),
            "{extra:?}: {}",
            out.stderr
        );
        assert!(
            out.stderr
                .contains("\ncancelled: 0 URL(s) answered, 1 failed"),
            "{extra:?}: {}",
            out.stderr
        );
    }
    drop(server);
}

#[test]
fn sessions_and_replay_without_a_store_say_so_and_create_none() {
    let dir = TempDir::new();
    let listed = outcome(cli(&dir).arg("sessions"));
    assert_eq!(listed.code, Some(0), "{}", listed.stderr);
    assert_eq!(listed.stdout, "");
    assert!(
        listed
            .stderr
            .starts_with("no sessions: the store sqlite://data/scrape-agent.db does not exist yet"),
        "{}",
        listed.stderr
    );
    let replayed = outcome(cli(&dir).args(["replay", "some-session"]));
    assert_eq!(replayed.code, Some(2));
    assert_eq!(
        replayed.stderr,
        "scrape-agent: no session `some-session`: the store sqlite://data/scrape-agent.db does not exist\n"
    );
    assert_eq!(
        dir.entries(),
        Vec::<String>::new(),
        "no database was created"
    );
}

#[test]
fn a_server_with_keys_takes_the_api_key_from_the_flag_or_the_environment() {
    let dir = TempDir::new();
    let db_url = format!("sqlite://{}", dir.path().join("server.db").display());
    let server = runtime().block_on(Server::start_with(
        &db_url,
        &[("SCRAPE_AGENT__AUTH__API_KEYS", "key-one")],
    ));
    let news = site().url("/pages/news.html");
    let run = |extra: &[&str], env_key: Option<&str>| {
        let mut command = cli(&dir);
        command.args(["run", &news, "-i", TOP_3, "-q", "--server", &server.base]);
        command.args(extra);
        if let Some(key) = env_key {
            command.env("SCRAPE_AGENT_API_KEY", key);
        }
        outcome(&mut command)
    };
    let refused = run(&[], None);
    assert_eq!(refused.code, Some(2));
    assert!(
        refused.stderr.starts_with("scrape-agent: unauthorized: "),
        "{}",
        refused.stderr
    );
    let wrong = run(&["--api-key", "key-two"], None);
    assert_eq!(wrong.code, Some(2), "{}", wrong.stderr);
    for (extra, env_key) in [
        (&["--api-key", "key-one"][..], None),
        (&[][..], Some("key-one")),
    ] {
        let out = run(extra, env_key);
        assert_eq!(out.code, Some(0), "{}", out.stderr);
        let answer: Value = serde_json::from_str(&out.stdout).expect("stdout is JSON");
        assert_eq!(answer, json!({ news.clone(): top_3_stories() }));
    }
    let listed = outcome(cli(&dir).env("SCRAPE_AGENT_API_KEY", "key-one").args([
        "sessions",
        "--server",
        &server.base,
        "--json",
    ]));
    assert_eq!(listed.code, Some(0), "{}", listed.stderr);
    let listing: Value = serde_json::from_str(&listed.stdout).expect("JSON listing");
    assert_eq!(listing["sessions"].as_array().map(Vec::len), Some(2));
    drop(server);
}

/// On a terminal (a pseudo-terminal from util-linux's `script`, part of every Debian system)
/// progress is drawn as bars: the URL bar's count, and the steps inside the URL's spinner line
/// rather than as lines of their own.
#[cfg(target_os = "linux")]
#[test]
fn on_a_terminal_progress_is_drawn_as_bars() {
    let dir = TempDir::new();
    let news = site().url("/pages/news.html");
    let command = format!(
        "'{}' run '{news}' -i 'the top 3 stories' --out answer.json",
        env!("CARGO_BIN_EXE_scrape-agent")
    );
    let mut script = Command::new("script");
    script
        .current_dir(dir.path())
        .env("SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS", "true")
        .env("RUST_LOG", "warn")
        .env("TERM", "xterm")
        .env_remove("SCRAPE_AGENT_SERVER")
        .args(["--quiet", "--return", "--command", &command, "/dev/null"])
        .timeout(Duration::from_secs(120));
    let out = outcome(&mut script);
    assert_eq!(out.code, Some(0), "{}", out.stdout);
    let screen = out.stdout;
    assert!(screen.contains("/1 URL(s) ["), "the URL bar: {screen}");
    assert!(
        screen.contains(&format!("[1/1] {news} ")),
        "the URL's spinner: {screen}"
    );
    assert!(
        !screen.contains("[1/1] fetch:"),
        "no plain step lines: {screen}"
    );
    assert!(
        screen.contains("completed: 1 URL(s) answered, 0 failed"),
        "{screen}"
    );
    // The finished URL's line is printed for good (above the bars, kept after the run), not
    // only drawn in its spinner.
    assert!(
        screen.contains(&format!("[1/1] {news}: done: 3 item(s) in ")),
        "the URL's line is kept: {screen}"
    );
    let answer: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("answer.json")).unwrap())
            .unwrap();
    assert_eq!(answer[&news].as_array().map(Vec::len), Some(3));
}

/// A page on this machine: refused by default with the flag and the variable that allow it,
/// read with `--allow-private`; `--markdown` prints its article as Markdown (issue 31).
#[test]
fn allow_private_and_markdown_read_a_local_article() {
    let dir = TempDir::new();
    let article = site().url("/pages/console-article.html");
    let refused = outcome(
        cli(&dir)
            .env_remove("SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS")
            .args(["run", &article, "--markdown"]),
    );
    assert_eq!(refused.code, Some(1), "{}", refused.stderr);
    refused.stderr_has("blocked_address");
    refused.stderr_has("--allow-private");
    refused.stderr_has("SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS=true");
    let read = outcome(
        cli(&dir)
            .env_remove("SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS")
            .args(["run", &article, "--markdown", "--allow-private"]),
    );
    assert_eq!(read.code, Some(0), "{}", read.stderr);
    assert!(
        read.stdout.starts_with("# Escaping in practice\n"),
        "{}",
        read.stdout
    );
    assert!(read.stdout.contains("A third paragraph ends the article"));
    assert!(
        !read.stdout.contains("Home"),
        "no navigation: {}",
        read.stdout
    );
}

/// `replay` takes the start of an id and writes the answer in another format (issue 31).
#[test]
fn replay_takes_an_id_prefix_and_a_format() {
    let dir = TempDir::new();
    let (server, db_url) = start_server(&dir);
    let news = site().url("/pages/news.html");
    let out = outcome(cli(&dir).args([
        "run",
        &news,
        "-i",
        TOP_3,
        "--server",
        &server.base,
        "--session-id",
        "prefix-check-7f3a",
    ]));
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    for remote in [true, false] {
        let mut command = cli(&dir);
        command.args(["replay", "prefix-check-7", "--format", "csv", "-q"]);
        if remote {
            command.args(["--server", &server.base]);
        } else {
            command.env("SCRAPE_AGENT__DATABASE__URL", &db_url);
        }
        let replayed = outcome(&mut command);
        assert_eq!(replayed.code, Some(0), "{}", replayed.stderr);
        assert_eq!(
            replayed.stdout,
            "title,link,points\n\
             Show HN: A tiny SQLite-backed job queue in Rust,https://github.com/example/jobq,412\n\
             The hidden cost of microservices at small scale,https://blog.example.org/microservices-cost,389\n\
             Why our CI got 4x faster after switching to nextest,https://engineering.acme.io/ci-nextest,305\n",
            "remote: {remote}"
        );
    }
    drop(server);
}

/// The README's first request: `scrape-agent serve --allow-private`, then
/// `curl 'http://…/api/markdown?url=<a page on this machine>'` (issue 31).
#[test]
fn serve_with_allow_private_answers_a_local_page_as_markdown() {
    let dir = TempDir::new();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let db_url = format!("sqlite://{}", dir.path().join("serve.db").display());
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_scrape-agent"))
        .args([
            "serve",
            "--allow-private",
            "--bind",
            &format!("127.0.0.1:{port}"),
        ])
        .env("SCRAPE_AGENT__DATABASE__URL", &db_url)
        .env("SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS", "false")
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let article = site().url("/pages/console-article.html");
    let base = format!("http://127.0.0.1:{port}");
    let result = runtime().block_on(async {
        let client = reqwest::Client::new();
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while client.get(format!("{base}/healthz")).send().await.is_err() {
            assert!(std::time::Instant::now() < deadline, "the server starts");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let response = client
            .get(format!(
                "{base}/api/markdown?url={}",
                url::form_urlencoded::byte_serialize(article.as_bytes()).collect::<String>()
            ))
            .send()
            .await
            .unwrap();
        (response.status().as_u16(), response.text().await.unwrap())
    });
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(result.0, 200, "{}", result.1);
    assert!(
        result.1.starts_with("# Escaping in practice\n"),
        "{}",
        result.1
    );
}
