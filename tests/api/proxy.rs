//! The server behind real nginx and real Caddy, configured with exactly the files that
//! docs/deploy.md shows (docs/deploy/nginx.conf, docs/deploy/Caddyfile): only the ports and the
//! read timeout (1 h there, 3 s here, so a test can outlast it) are changed. Through each proxy:
//! events arrive one by one as the run produces them, keep-alive comments hold a quiet stream
//! open past the proxy's read timeout (and, without them, the proxy does cut it), and a reconnect
//! with `Last-Event-ID` resumes exactly.
//!
//! When `nginx` or `caddy` is not installed these tests say so and pass, unless
//! `SCRAPE_AGENT_REQUIRE_PROXIES` is set (`.ci/run` installs both and sets it).

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures::StreamExt;
use serde_json::{Value, json};

use crate::support::{FixtureServer, TempDir, TestApp, spawn_app_with};

/// The read timeout the test copies use instead of the documents' 1 h.
const PROXY_READ_TIMEOUT_SECS: u64 = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Nginx,
    Caddy,
}

impl Kind {
    fn binary(self) -> &'static str {
        match self {
            Self::Nginx => "nginx",
            Self::Caddy => "caddy",
        }
    }
}

/// A proxy process of its own, on a free loopback port, in front of one server.
struct Proxy {
    child: Child,
    base: String,
    dir: TempDir,
    kind: Kind,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The binary, looked up in PATH and in the sbin directories a non-root PATH may lack.
fn find_binary(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/local/sbin", "/sbin"].map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Replaces `from` by `to` in a document's configuration, and fails if `from` is not there
/// exactly once: a changed document must not leave the test running an unchanged copy.
fn substitute(text: &str, from: &str, to: &str) -> String {
    assert_eq!(
        text.matches(from).count(),
        1,
        "the deploy configuration should contain `{from}` once:\n{text}"
    );
    text.replacen(from, to, 1)
}

/// The document's configuration for `kind` with the test's ports and read timeout.
fn site_config(kind: Kind, listen_port: u16, upstream_port: u16) -> String {
    let (file, listen_from, listen_to, timeout_from, timeout_to) = match kind {
        Kind::Nginx => (
            "nginx.conf",
            "listen 80;",
            format!("listen 127.0.0.1:{listen_port};"),
            "proxy_read_timeout 1h;",
            format!("proxy_read_timeout {PROXY_READ_TIMEOUT_SECS}s;"),
        ),
        Kind::Caddy => (
            "Caddyfile",
            "\n:80 {",
            format!("\n:{listen_port} {{"),
            "read_timeout 1h",
            format!("read_timeout {PROXY_READ_TIMEOUT_SECS}s"),
        ),
    };
    let text = std::fs::read_to_string(repo().join("docs/deploy").join(file)).unwrap();
    let text = substitute(&text, listen_from, &listen_to);
    let text = substitute(
        &text,
        "127.0.0.1:8080",
        &format!("127.0.0.1:{upstream_port}"),
    );
    substitute(&text, timeout_from, &timeout_to)
}

/// Starts `kind` in front of `upstream` (an `http://127.0.0.1:PORT` base), or returns `None`
/// when it is not installed and not required.
async fn start_proxy(kind: Kind, upstream: &str) -> Option<Proxy> {
    let upstream_port: u16 = upstream.rsplit(':').next().unwrap().parse().unwrap();
    start_proxy_with(kind, |port| site_config(kind, port, upstream_port)).await
}

/// Starts `kind` with the site configuration `site` makes for its listening port, or returns
/// `None` when it is not installed and not required.
async fn start_proxy_with(kind: Kind, site: impl FnOnce(u16) -> String) -> Option<Proxy> {
    let Some(binary) = find_binary(kind.binary()) else {
        assert!(
            std::env::var_os("SCRAPE_AGENT_REQUIRE_PROXIES").is_none(),
            "{} is not installed and SCRAPE_AGENT_REQUIRE_PROXIES is set",
            kind.binary()
        );
        crate::support::skipped(
            &format!("proxy test behind {}", kind.binary()),
            &format!(
                "{} is not installed (apt-get install nginx caddy; .ci/run does)",
                kind.binary()
            ),
        );
        return None;
    };
    let port = free_port();
    let dir = TempDir::new();
    let site = site(port);
    let child = match kind {
        Kind::Nginx => {
            std::fs::write(dir.0.join("site.conf"), site).unwrap();
            // The main file a distribution would provide, kept inside the temp dir: one
            // process in the foreground (no user switch, no pid file elsewhere), logs and
            // temp files here, and the document's server block included as it stands.
            let d = dir.0.display();
            let main = format!(
                "daemon off;\nmaster_process off;\npid {d}/nginx.pid;\nerror_log {d}/error.log info;\n\
                 events {{ worker_connections 64; }}\n\
                 http {{\n    access_log {d}/access.log;\n    client_body_temp_path {d}/body;\n    \
                 proxy_temp_path {d}/proxy;\n    fastcgi_temp_path {d}/fastcgi;\n    \
                 uwsgi_temp_path {d}/uwsgi;\n    scgi_temp_path {d}/scgi;\n    \
                 include {d}/site.conf;\n}}\n"
            );
            std::fs::write(dir.0.join("nginx.conf"), main).unwrap();
            Command::new(&binary)
                .arg("-e")
                .arg(dir.0.join("error.log"))
                .arg("-p")
                .arg(&dir.0)
                .arg("-c")
                .arg(dir.0.join("nginx.conf"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("nginx starts")
        }
        Kind::Caddy => {
            std::fs::write(dir.0.join("site.Caddyfile"), site).unwrap();
            // Global options only: no admin endpoint (its port 2019 may be taken), loopback
            // only, state in the temp dir; the document's site block is imported as it stands.
            let main = format!(
                "{{\n\tadmin off\n\tauto_https off\n\tdefault_bind 127.0.0.1\n\tstorage file_system {}\n}}\n\
                 import {}\n",
                dir.0.join("storage").display(),
                dir.0.join("site.Caddyfile").display()
            );
            std::fs::write(dir.0.join("Caddyfile"), main).unwrap();
            Command::new(&binary)
                .args(["run", "--adapter", "caddyfile", "--config"])
                .arg(dir.0.join("Caddyfile"))
                .env("HOME", &dir.0)
                .env("XDG_DATA_HOME", dir.0.join("data"))
                .env("XDG_CONFIG_HOME", dir.0.join("config"))
                .stdout(Stdio::null())
                .stderr(std::fs::File::create(dir.0.join("caddy.log")).unwrap())
                .spawn()
                .expect("caddy starts")
        }
    };
    let mut proxy = Proxy {
        child,
        base: format!("http://127.0.0.1:{port}"),
        dir,
        kind,
    };
    // Ready when /healthz answers through it.
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(response) = client.get(format!("{}/healthz", proxy.base)).send().await
            && response.status() == 200
        {
            break;
        }
        if let Ok(Some(status)) = proxy.child.try_wait() {
            panic!("{kind:?} exited with {status}: {}", proxy.log());
        }
        assert!(
            Instant::now() < deadline,
            "{kind:?} answers /healthz in time: {}",
            proxy.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Some(proxy)
}

impl Proxy {
    fn log(&self) -> String {
        let file = match self.kind {
            Kind::Nginx => "error.log",
            Kind::Caddy => "caddy.log",
        };
        std::fs::read_to_string(self.dir.0.join(file)).unwrap_or_default()
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

/// One piece of the stream as the client saw it, with the moment it arrived.
#[derive(Debug)]
struct Arrival {
    at: Instant,
    /// `None` for a comment (keep-alive).
    frame: Option<(u64, String, Value)>,
}

impl Arrival {
    fn event(&self) -> &str {
        self.frame.as_ref().map_or(":", |(_, event, _)| event)
    }
}

/// How a stream ended.
#[derive(Debug, PartialEq, Eq)]
enum End {
    /// The connection closed cleanly (the server ended the response).
    Closed,
    /// The body broke off (a proxy cut it).
    Broken,
    /// `stop` accepted a frame and the reader stopped there.
    Stopped,
}

/// Reads SSE blocks as they arrive, keep-alive comments included, until the stream ends or
/// `stop` accepts a frame. A broken body is an outcome here, not a failure.
async fn read_arrivals(
    response: reqwest::Response,
    stop: impl Fn(&Arrival) -> bool,
) -> (Vec<Arrival>, End) {
    assert_eq!(response.status(), 200, "the stream starts");
    let mut body = response.bytes_stream();
    let mut buffer = String::new();
    let mut arrivals = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let chunk = tokio::time::timeout_at(deadline, body.next())
            .await
            .expect("the stream moves on in time");
        let bytes = match chunk {
            None => return (arrivals, End::Closed),
            Some(Err(_)) => return (arrivals, End::Broken),
            Some(Ok(bytes)) => bytes,
        };
        let at = Instant::now();
        buffer.push_str(&String::from_utf8_lossy(&bytes));
        while let Some(end) = buffer.find("\n\n") {
            let raw: String = buffer.drain(..end + 2).collect();
            let arrival = Arrival {
                at,
                frame: parse_block(&raw),
            };
            let done = stop(&arrival);
            arrivals.push(arrival);
            if done {
                return (arrivals, End::Stopped);
            }
        }
    }
}

fn parse_block(raw: &str) -> Option<(u64, String, Value)> {
    let (mut id, mut event, mut data) = (None, None, None);
    for line in raw.lines() {
        if let Some(value) = line.strip_prefix("id: ") {
            id = Some(value.parse::<u64>().expect("numeric id"));
        } else if let Some(value) = line.strip_prefix("event: ") {
            event = Some(value.to_owned());
        } else if let Some(value) = line.strip_prefix("data: ") {
            data = Some(serde_json::from_str(value).expect("data is JSON"));
        }
    }
    Some((id?, event?, data?))
}

fn names(arrivals: &[Arrival]) -> Vec<&str> {
    arrivals.iter().map(Arrival::event).collect()
}

async fn start_stream(proxy: &Proxy, body: &Value) -> reqwest::Response {
    reqwest::Client::new()
        .post(proxy.url("/api/scrape/stream"))
        .json(body)
        .send()
        .await
        .expect("request sent")
}

/// The server for these tests: keep-alives every second (the test default) and fetches allowed
/// to take longer than the quiet periods the tests make.
async fn app_with_keep_alive(secs: u64) -> TestApp {
    spawn_app_with(|settings| {
        settings.server.keep_alive_secs = secs;
        settings.fetch.timeout_secs = 30;
    })
    .await
}

/// Events reach the client while the run is still going: the first URL's steps arrive seconds
/// before the second URL (which answers after 3 s) lets the run finish.
async fn events_arrive_one_by_one(kind: Kind) {
    let fixtures = FixtureServer::start().await;
    let app = app_with_keep_alive(1).await;
    let Some(proxy) = start_proxy(kind, &app.base).await else {
        return;
    };
    let fast = fixtures.url("/pages/news.html");
    let slow = fixtures.url("/delay/3000/shop.html");
    let started = Instant::now();
    let response = start_stream(
        &proxy,
        &json!({"urls": [&fast, &slow], "instructions": "the top 3 stories with title and link"}),
    )
    .await;
    let (arrivals, end) = read_arrivals(response, |_| false).await;
    assert_eq!(end, End::Closed, "{kind:?}: {:?}", names(&arrivals));
    let frames: Vec<&Arrival> = arrivals.iter().filter(|a| a.frame.is_some()).collect();
    let first_step = frames.iter().find(|a| a.event() == "step").expect("a step");
    let first_done = frames
        .iter()
        .find(|a| a.event() == "url_complete")
        .expect("a url_complete");
    let complete = frames.last().unwrap();
    assert_eq!(
        complete.event(),
        "complete",
        "{kind:?}: {:?}",
        names(&arrivals)
    );
    let before_end = complete.at - first_step.at;
    eprintln!(
        "{kind:?}: first step after {:?}, first url_complete after {:?}, complete after {:?}",
        first_step.at - started,
        first_done.at - started,
        complete.at - started
    );
    // Buffered, everything would arrive together at the end; streamed, the fast URL's events
    // are there while the slow one is still being fetched.
    assert!(
        before_end >= Duration::from_millis(2000),
        "{kind:?}: the first step arrived only {before_end:?} before complete"
    );
    assert!(
        complete.at - first_done.at >= Duration::from_millis(2000),
        "{kind:?}: the first URL's url_complete arrived in a burst with complete"
    );
    // Each frame came in a chunk of its own: not every event in a handful of reads.
    let distinct_moments = {
        let mut moments: Vec<Instant> = frames.iter().map(|a| a.at).collect();
        moments.dedup();
        moments.len()
    };
    assert!(
        distinct_moments >= 3,
        "{kind:?}: {} events arrived at only {distinct_moments} moments",
        frames.len()
    );
    let data = &complete.frame.as_ref().unwrap().2["data"];
    assert_eq!(data["status"], "completed", "{data}");
    assert_eq!(data["extracted_data"][&fast].as_array().unwrap().len(), 3);
}

/// A run that is quiet for 5 s (its only page answers after 5 s) outlives a proxy read timeout
/// of 3 s because keep-alive comments arrive every second; without keep-alives inside that
/// timeout, the same run's stream is cut by the proxy.
async fn keep_alives_hold_a_quiet_stream(kind: Kind) {
    let fixtures = FixtureServer::start().await;
    let url = fixtures.url("/delay/5000/news.html");
    let body = json!({"urls": [&url], "instructions": "the top 3 stories"});

    let app = app_with_keep_alive(1).await;
    let Some(proxy) = start_proxy(kind, &app.base).await else {
        return;
    };
    let (arrivals, end) = read_arrivals(start_stream(&proxy, &body).await, |_| false).await;
    assert_eq!(end, End::Closed, "{kind:?}: {:?}", names(&arrivals));
    assert_eq!(names(&arrivals).last(), Some(&"complete"), "{kind:?}");
    let url_start = arrivals
        .iter()
        .position(|a| a.event() == "url_start")
        .unwrap();
    let next_event = url_start
        + 1
        + arrivals[url_start + 1..]
            .iter()
            .position(|a| a.frame.is_some())
            .unwrap();
    let quiet = arrivals[next_event].at - arrivals[url_start].at;
    let comments = arrivals[url_start + 1..next_event].len();
    eprintln!("{kind:?}: quiet for {quiet:?} with {comments} keep-alive comments");
    assert!(
        quiet > Duration::from_secs(PROXY_READ_TIMEOUT_SECS + 1),
        "{kind:?}: the run was quiet for only {quiet:?}, not past the proxy's read timeout"
    );
    assert!(
        comments >= 3,
        "{kind:?}: only {comments} keep-alive comments came through in {quiet:?}"
    );
    let complete = &arrivals.last().unwrap().frame.as_ref().unwrap().2["data"];
    assert_eq!(complete["status"], "completed", "{complete}");
    drop(proxy);

    // The control: keep-alives every 60 s, so nothing reaches the proxy for 5 s and its 3 s
    // read timeout ends the stream before the run's complete.
    let quiet_app = app_with_keep_alive(60).await;
    let proxy = start_proxy(kind, &quiet_app.base).await.unwrap();
    let started = Instant::now();
    let (arrivals, end) = read_arrivals(start_stream(&proxy, &body).await, |_| false).await;
    eprintln!(
        "{kind:?} without keep-alives: {:?} after {:?}, events {:?}",
        end,
        started.elapsed(),
        names(&arrivals)
    );
    assert!(
        !names(&arrivals).contains(&"complete"),
        "{kind:?}: a stream quiet past the read timeout was not cut, so the test proves nothing"
    );
}

/// A client that drops mid-run and reconnects to the events route with `Last-Event-ID` gets
/// exactly the events after that id: together they are the whole log, no gap, no repeat.
async fn last_event_id_resumes_exactly(kind: Kind) {
    let fixtures = FixtureServer::start().await;
    let app = app_with_keep_alive(1).await;
    let Some(proxy) = start_proxy(kind, &app.base).await else {
        return;
    };
    let id = format!("proxy-resume-{}", kind.binary());
    let fast = fixtures.url("/pages/news.html");
    let slow = fixtures.url("/delay/2000/shop.html");
    let response = start_stream(
        &proxy,
        &json!({"urls": [&fast, &slow], "instructions": "the top 3 items with title",
                "session_id": &id}),
    )
    .await;
    // Drop the connection after the first URL is done, while the second is being fetched.
    let (first, end) = read_arrivals(response, |a| a.event() == "url_complete").await;
    assert_eq!(end, End::Stopped, "{kind:?}: {:?}", names(&first));
    let first: Vec<(u64, String, Value)> = first.into_iter().filter_map(|a| a.frame).collect();
    let last_seen = first.last().unwrap().0;

    let client = reqwest::Client::new();
    let resumed = client
        .get(proxy.url(&format!("/api/scrape/{id}/events")))
        .header("Last-Event-ID", last_seen.to_string())
        .send()
        .await
        .unwrap();
    let (rest, end) = read_arrivals(resumed, |_| false).await;
    assert_eq!(end, End::Closed, "{kind:?}");
    let rest: Vec<(u64, String, Value)> = rest.into_iter().filter_map(|a| a.frame).collect();
    assert_eq!(
        rest.first().map(|f| f.0),
        Some(last_seen + 1),
        "{kind:?}: the resumed stream starts right after Last-Event-ID {last_seen}"
    );
    assert_eq!(rest.last().map(|f| f.1.as_str()), Some("complete"));

    let seqs: Vec<u64> = first.iter().chain(&rest).map(|f| f.0).collect();
    let expected: Vec<u64> = (1..=seqs.len() as u64).collect();
    assert_eq!(seqs, expected, "{kind:?}: no gap, no repeat");

    // And they are the very events of the session: a full replay through the proxy agrees.
    let replay = client
        .get(proxy.url(&format!("/api/scrape/{id}/events")))
        .send()
        .await
        .unwrap();
    let (replay, _) = read_arrivals(replay, |_| false).await;
    let replay: Vec<(u64, String, Value)> = replay.into_iter().filter_map(|a| a.frame).collect();
    let joined: Vec<&(u64, String, Value)> = first.iter().chain(&rest).collect();
    assert_eq!(replay.len(), joined.len(), "{kind:?}");
    for (a, b) in replay.iter().zip(joined) {
        assert_eq!(
            a, b,
            "{kind:?}: a resumed event differs from the stored one"
        );
    }
}

#[tokio::test]
async fn nginx_passes_events_one_by_one() {
    events_arrive_one_by_one(Kind::Nginx).await;
}

#[tokio::test]
async fn caddy_passes_events_one_by_one() {
    events_arrive_one_by_one(Kind::Caddy).await;
}

#[tokio::test]
async fn nginx_keeps_a_quiet_stream_open_with_keep_alives() {
    keep_alives_hold_a_quiet_stream(Kind::Nginx).await;
}

#[tokio::test]
async fn caddy_keeps_a_quiet_stream_open_with_keep_alives() {
    keep_alives_hold_a_quiet_stream(Kind::Caddy).await;
}

#[tokio::test]
async fn nginx_resumes_exactly_after_last_event_id() {
    last_event_id_resumes_exactly(Kind::Nginx).await;
}

#[tokio::test]
async fn caddy_resumes_exactly_after_last_event_id() {
    last_event_id_resumes_exactly(Kind::Caddy).await;
}

/// docs/deploy.md shows each configuration file whole, so what the tests run is what the
/// document says.
#[test]
fn the_deploy_document_shows_the_tested_configurations() {
    let doc = std::fs::read_to_string(repo().join("docs/deploy.md")).unwrap();
    for (file, fence) in [
        ("nginx.conf", "```nginx\n"),
        ("Caddyfile", "```caddyfile\n"),
    ] {
        let text = std::fs::read_to_string(repo().join("docs/deploy").join(file)).unwrap();
        assert!(
            doc.contains(&format!("{fence}{text}```\n")),
            "docs/deploy.md should show docs/deploy/{file} verbatim in a {fence:?} block"
        );
    }
}

/// The index of an instance whose `/metrics` show a run in progress (waits up to 10 s).
async fn instance_running_a_run(instances: &[crate::support::Server]) -> usize {
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        for (index, instance) in instances.iter().enumerate() {
            let text = match client
                .get(format!("{}/metrics", instance.base))
                .send()
                .await
            {
                Ok(response) => response.text().await.unwrap_or_default(),
                Err(_) => continue,
            };
            let active = text
                .lines()
                .find_map(|line| line.strip_prefix("scrape_agent_runs_active "))
                .and_then(|n| n.trim().parse::<f64>().ok())
                .unwrap_or(0.0);
            if active >= 1.0 {
                return index;
            }
        }
        assert!(Instant::now() < deadline, "no instance is running a run");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// docs/deploy/nginx-cluster.conf (the compose file's nginx) in front of three real instances
/// on one PostgreSQL, only its listening port and the instances' addresses changed: runs started
/// and followed through nginx all end `completed` with every URL answered, and each follower sees
/// every `seq` once, although the instance running some of them was killed (SIGKILL) mid-run —
/// its followers reconnect through nginx with `Last-Event-ID`, and a survivor resumes its runs.
#[tokio::test]
async fn nginx_in_front_of_three_instances_loses_no_run() {
    let Some(schema) = crate::support::postgres::PgSchema::create("nginx_three_instances").await
    else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let env = [("SCRAPE_AGENT__RUNS__LEASE_SECS", "3")];
    let mut instances = Vec::new();
    for _ in 0..3 {
        instances.push(crate::support::Server::start_with(&schema.url, &env).await);
    }
    let ports: Vec<String> = instances
        .iter()
        .map(|s| s.base.trim_start_matches("http://").to_owned())
        .collect();
    let Some(nginx) = start_proxy_with(Kind::Nginx, |port| {
        let text = std::fs::read_to_string(repo().join("docs/deploy/nginx-cluster.conf")).unwrap();
        let text = substitute(&text, "listen 80;", &format!("listen 127.0.0.1:{port};"));
        let text = substitute(&text, "app1:8080", &ports[0]);
        let text = substitute(&text, "app2:8080", &ports[1]);
        substitute(&text, "app3:8080", &ports[2])
    })
    .await
    else {
        return;
    };
    let mut runs = Vec::new();
    for run in 0..3 {
        let id = format!("through-nginx-{run}");
        let urls: Vec<String> = (0..5)
            .map(|n| fixtures.url(&format!("/delay/900/news.html?run={run}&n={n}")))
            .collect();
        crate::durable::post_run(&nginx.base, &id, &urls).await;
        let follower = tokio::spawn(crate::chaos::follow_across(
            vec![nginx.base.clone(); 3],
            id.clone(),
        ));
        runs.push((id, urls, follower));
    }
    // Round robin spreads the runs (the followers' requests take turns too): an instance
    // running one dies mid-run, once its runs are a second in.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let victim = instance_running_a_run(&instances).await;
    instances[victim].child.kill().expect("SIGKILL");
    let resumed = crate::chaos::every_run_completed(runs).await;
    assert!(resumed >= 1, "the killed instance's run was taken over");
    drop(nginx);
    drop(instances);
    schema.drop_schema().await;
}
