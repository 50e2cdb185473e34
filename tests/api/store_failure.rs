//! A store that fails closed (issue 28): a SQLite file that stops taking writes mid-run, a
//! PostgreSQL connection killed under a run, and a second server on one SQLite file.
//!
//! What a client saw must be what the store holds, before and after the store recovers and
//! after a restart; while the store cannot write, the server says so (`/readyz` and new runs
//! answer 503 `store_unavailable`) instead of acting as if it could.
//!
//! Making a file read-only under a running server needs `chattr +i`, so root. Without it the
//! test says it was skipped, and fails instead when `SCRAPE_AGENT_REQUIRE_ROOT_TESTS` is set
//! (`.ci/run` sets it).

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::postgres::PgSchema;
use crate::support::{FixtureServer, Frame, FrameReader, Server, TempDir, read_stream};

/// Set by CI: the tests that need root may not skip.
const REQUIRE_ROOT: &str = "SCRAPE_AGENT_REQUIRE_ROOT_TESTS";

/// Whether this process may set the immutable attribute (root, with `chattr` installed); says
/// it skipped when it may not, and fails when that is required.
fn may_chattr(test: &str) -> bool {
    let root = std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0);
    let chattr = Command::new("chattr")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if root && chattr {
        return true;
    }
    assert!(
        std::env::var_os(REQUIRE_ROOT).is_none(),
        "{test} needs root and chattr (root: {root}, chattr: {chattr}) and {REQUIRE_ROOT} is set"
    );
    crate::support::skipped(
        test,
        &format!("needs root and chattr (root: {root}, chattr: {chattr}); .ci/run runs as root"),
    );
    false
}

/// Files made immutable (no write, even through descriptors already open) until dropped.
struct Immutable(Vec<PathBuf>);

impl Immutable {
    fn set(files: &[PathBuf]) -> Self {
        for file in files {
            chattr("+i", file);
        }
        Self(files.to_vec())
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        for file in &self.0 {
            chattr("-i", file);
        }
    }
}

fn chattr(flag: &str, file: &Path) {
    let status = Command::new("chattr")
        .arg(flag)
        .arg(file)
        .status()
        .expect("chattr runs");
    assert!(status.success(), "chattr {flag} {}", file.display());
}

/// `(seq, envelope)` of each frame: what a client can compare.
fn shown(frames: &[Frame]) -> Vec<(u64, Value)> {
    frames.iter().map(|f| (f.seq(), f.data.clone())).collect()
}

/// GETs `/readyz`: its status and body.
async fn readyz(client: &reqwest::Client, base: &str) -> (u16, Value) {
    let response = client
        .get(format!("{base}/readyz"))
        .send()
        .await
        .expect("readyz answers");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Waits until `/readyz` answers `want`; returns its last body.
async fn readyz_becomes(
    client: &reqwest::Client,
    base: &str,
    want: u16,
    within: Duration,
) -> Value {
    let deadline = Instant::now() + within;
    loop {
        let (status, body) = readyz(client, base).await;
        if status == want {
            return body;
        }
        assert!(
            Instant::now() < deadline,
            "/readyz still answers {status} {body} after {within:?}, not {want}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Every stored event of a session, replayed through the API.
async fn replay(client: &reqwest::Client, base: &str, id: &str) -> Vec<Frame> {
    read_stream(
        client
            .get(format!("{base}/api/scrape/{id}/events"))
            .send()
            .await
            .expect("replay answers"),
    )
    .await
}

/// What a client saw is exactly the beginning of what the store holds, and the store's log is
/// whole: numbered from 1 without a gap or a repeat, ending with one `complete`.
fn assert_seen_is_stored(seen: &[Frame], stored: &[Frame]) {
    let stored_seqs: Vec<u64> = stored.iter().map(Frame::seq).collect();
    let n = stored.len() as u64;
    assert_eq!(
        stored_seqs,
        (1..=n).collect::<Vec<_>>(),
        "no gap, no reused seq"
    );
    let last = stored.last().expect("stored events");
    assert_eq!(last.event, "complete", "the stored log ends with complete");
    assert_eq!(
        stored.iter().filter(|f| f.event == "complete").count(),
        1,
        "one complete"
    );
    assert!(
        seen.len() <= stored.len(),
        "seen {} > stored {}",
        seen.len(),
        stored.len()
    );
    assert_eq!(
        shown(seen),
        shown(&stored[..seen.len()]),
        "every event a client saw is stored, the same, at the same seq"
    );
}

/// Starts a streamed run and reads it to its end in the background.
async fn follow(
    client: &reqwest::Client,
    base: &str,
    body: &Value,
    until: impl Fn(&Frame) -> bool + Send + 'static,
) -> tokio::task::JoinHandle<Vec<Frame>> {
    let response = client
        .post(format!("{base}/api/scrape/stream"))
        .json(body)
        .send()
        .await
        .expect("stream starts");
    let mut reader = FrameReader::new(response);
    let mut seen = reader.until(until).await;
    tokio::spawn(async move {
        seen.extend(reader.rest().await);
        seen
    })
}

/// A new run asked for while the store cannot write.
async fn start_detached(client: &reqwest::Client, base: &str, body: &Value) -> (u16, Value) {
    let response = client
        .post(format!("{base}/api/scrape"))
        .json(body)
        .send()
        .await
        .expect("start answers");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// A short run that must complete.
async fn run_completes(client: &reqwest::Client, base: &str, url: &str, id: &str) {
    let frames = read_stream(
        client
            .post(format!("{base}/api/scrape/stream"))
            .json(&json!({"urls": [url], "instructions": "top 3 stories", "session_id": id}))
            .send()
            .await
            .expect("stream starts"),
    )
    .await;
    let last = frames.last().expect("frames");
    assert_eq!(
        last.event,
        "complete",
        "{id}: {:?}",
        frames.iter().map(|f| &f.event).collect::<Vec<_>>()
    );
    assert_eq!(last.payload()["status"], "completed", "{id}");
}

/// The real server on `db`, its log in `log`, and a run of nine URLs (the last eight slow)
/// followed in the background from the moment its second URL starts.
struct LongRun {
    server: Server,
    client: reqwest::Client,
    base: String,
    /// A quick page of the fixture site.
    news: String,
    following: tokio::task::JoinHandle<Vec<Frame>>,
}

impl LongRun {
    async fn start(fixtures: &FixtureServer, db: &str, log: &Path, session_id: &str) -> Self {
        let server = Server::start_logging(db, &[], Some(log)).await;
        let client = reqwest::Client::new();
        let base = server.base.clone();
        let news = fixtures.url("/pages/news.html");
        let mut urls = vec![news.clone()];
        urls.extend((0..8).map(|i| fixtures.url(&format!("/delay/{}/news.html", 500 + i))));
        let body = json!({"urls": urls, "instructions": "top 3 stories", "session_id": session_id});
        let following = follow(&client, &base, &body, |f| {
            f.event == "url_start" && f.payload()["index"] == 1
        })
        .await;
        Self {
            server,
            client,
            base,
            news,
            following,
        }
    }
}

/// Kills the server, starts it again on `db`, and replays session `id` from it.
async fn replay_after_restart(
    mut server: Server,
    db: &str,
    client: &reqwest::Client,
    id: &str,
) -> (Server, Vec<Frame>) {
    server.child.kill().expect("SIGKILL");
    server.child.wait().expect("exits");
    let restarted = Server::start(db).await;
    let again = replay(client, &restarted.base, id).await;
    (restarted, again)
}

#[tokio::test]
async fn a_sqlite_file_that_turns_read_only_mid_run_fails_closed_and_loses_nothing() {
    if !may_chattr("a_sqlite_file_that_turns_read_only_mid_run_fails_closed_and_loses_nothing") {
        return;
    }
    let fixtures = FixtureServer::start().await;
    let dir = TempDir::new();
    let db = dir.sqlite_url();
    let file = dir.0.join("scrape-agent.db");
    let log = dir.0.join("server.log");
    let LongRun {
        server,
        client,
        base,
        news,
        following,
    } = LongRun::start(&fixtures, &db, &log, "ro-1").await;

    // The database and its write-ahead log stop taking writes under the running server.
    // (Not the -shm file: it is memory-mapped, and a write fault there is a SIGBUS.)
    let wal = PathBuf::from(format!("{}-wal", file.display()));
    let immutable = Immutable::set(&[file.clone(), wal]);
    let not_ready = readyz_becomes(&client, &base, 503, Duration::from_secs(10)).await;
    assert_eq!(
        not_ready["error"]["code"], "store_unavailable",
        "{not_ready}"
    );
    let (status, refused) = start_detached(
        &client,
        &base,
        &json!({"urls": [&news], "instructions": "x", "session_id": "ro-refused"}),
    )
    .await;
    assert_eq!(status, 503, "{refused}");
    assert_eq!(refused["error"]["code"], "store_unavailable", "{refused}");
    assert_eq!(refused["error"]["details"]["retryable"], true, "{refused}");
    // Long enough for the run's appends to give up: its log is broken now.
    tokio::time::sleep(Duration::from_secs(3)).await;
    drop(immutable);

    readyz_becomes(&client, &base, 200, Duration::from_secs(20)).await;
    let recovered_at = std::fs::metadata(&log).map_or(0, |m| m.len());
    let seen = tokio::time::timeout(Duration::from_secs(30), following)
        .await
        .expect("the broken run's stream ends once the store answers")
        .expect("reader");
    let stored = replay(&client, &base, "ro-1").await;
    assert_seen_is_stored(&seen, &stored);
    assert_eq!(stored.last().unwrap().payload()["status"], "interrupted");
    if seen.last().is_some_and(|f| f.event == "complete") {
        assert_eq!(seen.len(), stored.len());
    }

    // The store takes writes again, from every connection: runs at once all complete.
    let runs = (0..3).map(|i| {
        let (client, base, news) = (client.clone(), base.clone(), news.clone());
        async move { run_completes(&client, &base, &news, &format!("ro-after-{i}")).await }
    });
    futures::future::join_all(runs).await;
    let (status, body) = readyz(&client, &base).await;
    assert_eq!(status, 200, "{body}");

    // After a restart the store holds exactly what it showed before.
    let (restarted, again) = replay_after_restart(server, &db, &client, "ro-1").await;
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let after = text
        .get(usize::try_from(recovered_at).unwrap_or(0)..)
        .unwrap_or("");
    assert!(
        !after.contains("database is locked"),
        "after recovery: {after}"
    );
    assert_eq!(
        shown(&again),
        shown(&stored),
        "the restart lost or changed events"
    );
    assert_seen_is_stored(&seen, &again);
    for i in 0..3 {
        let frames = replay(&client, &restarted.base, &format!("ro-after-{i}")).await;
        assert_eq!(frames.last().unwrap().payload()["status"], "completed");
    }
}

/// Terminates every PostgreSQL backend of the app (they carry `application_name`).
async fn terminate_backends(admin: &sqlx::PgPool, application: &str) -> u64 {
    sqlx::query_scalar::<_, i64>(
        "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE application_name = $1) AS killed",
    )
    .bind(application)
    .fetch_one(admin)
    .await
    .map_or(0, |n| u64::try_from(n).unwrap_or(0))
}

#[tokio::test]
async fn postgres_connections_killed_mid_run_lose_nothing_a_client_saw_postgres() {
    let Some(schema) =
        PgSchema::create("postgres_connections_killed_mid_run_lose_nothing_a_client_saw").await
    else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let application = format!("scrape-agent-test-{}", uuid::Uuid::new_v4().simple());
    let url = format!("{}&application_name={application}", schema.url);
    let admin = sqlx::PgPool::connect(&std::env::var(crate::support::postgres::ENV).unwrap())
        .await
        .expect("admin connection");
    let server = Server::start(&url).await;
    let client = reqwest::Client::new();
    let base = server.base.clone();

    let news = fixtures.url("/pages/news.html");
    let mut urls = vec![news.clone()];
    urls.extend((0..8).map(|i| fixtures.url(&format!("/delay/{}/news.html", 300 + i))));
    let body = json!({"urls": urls, "instructions": "top 3 stories", "session_id": "pg-kill-1"});
    let following = follow(&client, &base, &body, |f| f.event == "url_start").await;

    // Kill the app's connections over and over while the run appends: some die between
    // statements, some in the middle of one.
    let mut killed = 0;
    for _ in 0..20 {
        killed += terminate_backends(&admin, &application).await;
        tokio::time::sleep(Duration::from_millis(70)).await;
    }
    assert!(killed > 0, "no backend of the app was found to kill");

    let seen = tokio::time::timeout(Duration::from_secs(60), following)
        .await
        .expect("the run's stream ends")
        .expect("reader");
    readyz_becomes(&client, &base, 200, Duration::from_secs(20)).await;
    // The run ends by itself (completed or failed) or is closed once the store answers.
    let deadline = Instant::now() + Duration::from_secs(30);
    let stored = loop {
        let stored = replay(&client, &base, "pg-kill-1").await;
        if stored.last().is_some_and(|f| f.event == "complete") {
            break stored;
        }
        assert!(Instant::now() < deadline, "the run never got its complete");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_seen_is_stored(&seen, &stored);
    run_completes(&client, &base, &news, "pg-kill-after").await;
    drop(server);
    admin.close().await;
    schema.drop_schema().await;
}

#[tokio::test]
async fn a_second_server_on_one_sqlite_file_is_refused_and_the_first_runs_on() {
    let fixtures = FixtureServer::start().await;
    let dir = TempDir::new();
    let db = dir.sqlite_url();
    let first = Server::start(&db).await;
    let client = reqwest::Client::new();
    let slow = fixtures.url("/delay/1500/news.html");
    let body = json!({"urls": [&slow], "instructions": "top 3 stories", "session_id": "first-1"});
    let following = follow(&client, &first.base, &body, |f| f.event == "url_start").await;

    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut second = Command::new(env!("CARGO_BIN_EXE_scrape-agent"))
        .args(["--bind", &format!("127.0.0.1:{port}")])
        .env("SCRAPE_AGENT__DATABASE__URL", &db)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = second.try_wait().unwrap() {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = second.kill();
            let _ = second.wait();
            panic!("the second server on {db} kept running");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let output = second.wait_with_output().expect("output");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        !status.success(),
        "the second server exits non-zero: {said}"
    );
    let lock = format!("{}.lock", dir.0.join("scrape-agent.db").display());
    assert!(
        said.contains(&lock),
        "the refusal names the lock file {lock}: {said}"
    );
    assert!(said.contains("another"), "the refusal says why: {said}");

    let seen = tokio::time::timeout(Duration::from_secs(30), following)
        .await
        .expect("the first server's run ends")
        .expect("reader");
    let last = seen.last().expect("frames");
    assert_eq!(last.event, "complete");
    assert_eq!(last.payload()["status"], "completed");
    let (status, body) = readyz(&client, &first.base).await;
    assert_eq!(status, 200, "{body}");
}

#[tokio::test]
async fn a_deleted_sqlite_file_gives_errors_not_a_fresh_empty_database() {
    let fixtures = FixtureServer::start().await;
    let dir = TempDir::new();
    let db = dir.sqlite_url();
    let file = dir.0.join("scrape-agent.db");
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let news = fixtures.url("/pages/news.html");
    run_completes(&client, &server.base, &news, "before-delete").await;

    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
    }
    // Every request, on whichever pooled connection it lands, says the store is unavailable;
    // none finds an empty database ("no such table") and none recreates the file.
    for i in 0..6 {
        let (status, body) = readyz(&client, &server.base).await;
        assert_eq!(status, 503, "{body}");
        assert_eq!(body["error"]["code"], "store_unavailable", "{body}");
        let (status, refused) = start_detached(
            &client,
            &server.base,
            &json!({"urls": [&news], "instructions": "x", "session_id": format!("gone-{i}")}),
        )
        .await;
        assert_eq!(status, 503, "{refused}");
        assert_eq!(refused["error"]["code"], "store_unavailable", "{refused}");
        assert!(!refused.to_string().contains("no such table"), "{refused}");
    }
    assert!(!file.exists(), "the server created a new database file");
}

/// A small tmpfs mounted for one test, unmounted (lazily, whatever holds it) when dropped.
struct SmallFilesystem(PathBuf);

impl SmallFilesystem {
    fn mount(at: PathBuf, size: &str) -> Self {
        std::fs::create_dir_all(&at).expect("mount point");
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&at)
            .status()
            .expect("mount runs");
        assert!(status.success(), "mount a tmpfs at {}", at.display());
        Self(at)
    }

    /// Writes a file until the filesystem is full; returns it.
    fn fill(&self) -> PathBuf {
        use std::io::Write;
        let filler = self.0.join("filler");
        let mut file = std::fs::File::create(&filler).expect("filler");
        let chunk = vec![0u8; 64 * 1024];
        while file.write_all(&chunk).is_ok() {}
        let _ = file.sync_all();
        filler
    }
}

impl Drop for SmallFilesystem {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

#[tokio::test]
async fn a_full_filesystem_under_a_run_loses_nothing_a_client_saw_and_the_server_lives() {
    let test = "a_full_filesystem_under_a_run_loses_nothing_a_client_saw_and_the_server_lives";
    // Root is what `mount` needs, as `chattr` does.
    if !may_chattr(test) {
        return;
    }
    let fixtures = FixtureServer::start().await;
    let dir = TempDir::new();
    let disk = SmallFilesystem::mount(dir.0.join("small"), "8m");
    let db = format!("sqlite://{}", disk.0.join("scrape-agent.db").display());
    let log = dir.0.join("server.log");
    let LongRun {
        mut server,
        client,
        base,
        news,
        following,
    } = LongRun::start(&fixtures, &db, &log, "full-1").await;
    let filler = disk.fill();
    // Appends go on while the write-ahead log has room, then fail; either way the server
    // must live through it.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(
        server.child.try_wait().expect("status").is_none(),
        "the server died on a full disk: {}",
        std::fs::read_to_string(&log).unwrap_or_default()
    );
    let (status, refused) = start_detached(
        &client,
        &base,
        &json!({"urls": [&news], "instructions": "x", "session_id": "full-refused"}),
    )
    .await;
    assert!(
        status == 202 || (status == 503 && refused["error"]["code"] == "store_unavailable"),
        "{status} {refused}"
    );
    eprintln!("while full: a new run got {status}");
    std::fs::remove_file(&filler).expect("space freed");

    readyz_becomes(&client, &base, 200, Duration::from_secs(20)).await;
    let seen = tokio::time::timeout(Duration::from_secs(60), following)
        .await
        .expect("the run's stream ends once the store answers")
        .expect("reader");
    let stored = replay(&client, &base, "full-1").await;
    assert_seen_is_stored(&seen, &stored);
    eprintln!(
        "the run ended {} after {} events",
        stored.last().unwrap().payload()["status"],
        stored.len()
    );
    run_completes(&client, &base, &news, "full-after").await;

    let (restarted, again) = replay_after_restart(server, &db, &client, "full-1").await;
    assert_eq!(
        shown(&again),
        shown(&stored),
        "the restart lost or changed events"
    );
    drop(restarted);
    drop(disk);
}
