//! Runs that always end well (issue 10): a panic inside a run, a store that fails mid-run, a
//! SIGTERM with runs in flight, a session taken over on PostgreSQL, orphan grace counted from
//! the last departure, and a client that leaves while its run is being created.

use std::time::{Duration, Instant};

use scrape_agent::run::fault::FaultPoint;
use scrape_agent::settings::DatabaseSettings;
use scrape_agent::store::Store;
use serde_json::{Value, json};

use crate::support::postgres::PgSchema;
use crate::support::{FixtureServer, Frame, FrameReader, Server, TempDir, TestApp, spawn_app_with};

/// Every remaining frame, failing the test if the stream does not end in `within` (a stream
/// that never ends still sends keep-alives, so a per-chunk timeout would not notice).
async fn rest_within(reader: &mut FrameReader, within: Duration) -> Vec<Frame> {
    tokio::time::timeout(within, reader.rest())
        .await
        .expect("the stream ends")
}

fn event_names(frames: &[Frame]) -> Vec<&str> {
    frames.iter().map(|f| f.event.as_str()).collect()
}

/// Waits until the app runs nothing any more.
async fn wait_idle(app: &TestApp, within: Duration) {
    let deadline = Instant::now() + within;
    while app.hub.live_count() > 0 {
        assert!(Instant::now() < deadline, "the hub still holds a run");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn session_json(app: &TestApp, id: &str) -> Value {
    app.get(&format!("/api/scrape/{id}"))
        .await
        .json()
        .await
        .expect("JSON")
}

/// A run that panics at `point` with two subscribers attached (the stream that started it and
/// a follower) ends `failed` with an `internal` error and a `complete`, both streams end, and
/// the hub forgets it.
async fn panic_ends_the_run(point: FaultPoint, id: &str) {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|_| {}).await;
    // The page arrives after a moment, so the follower is attached before the fault.
    let url = fixtures.url("/delay/700/news.html");
    let body = json!({
        "urls": [&url],
        "instructions": format!("top 3 stories {}", point.marker()),
        "session_id": id,
    });
    let mut starter = FrameReader::new(app.post("/api/scrape/stream", &body).await);
    let mut seen = starter.until(|f| f.event == "url_start").await;
    let mut follower = FrameReader::new(app.get(&format!("/api/scrape/{id}/events")).await);

    seen.extend(rest_within(&mut starter, Duration::from_secs(10)).await);
    let followed = rest_within(&mut follower, Duration::from_secs(10)).await;

    let names = event_names(&seen);
    assert_eq!(names[names.len() - 2..], ["error", "complete"], "{names:?}");
    let error = seen[seen.len() - 2].payload();
    assert_eq!(error["code"], "internal");
    assert_eq!(error["retryable"], false);
    let complete = seen.last().unwrap().payload();
    assert_eq!(complete["status"], "failed");
    assert_eq!(complete["extracted_data"][&url], Value::Null);
    assert!(
        complete["errors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["code"] == "internal"),
        "the internal error is counted in complete: {complete}"
    );
    // The follower replayed from the start and ended on the same complete.
    assert_eq!(followed.first().map(Frame::seq), Some(1));
    assert_eq!(
        followed.iter().map(Frame::seq).collect::<Vec<_>>(),
        (1..=seen.last().unwrap().seq()).collect::<Vec<_>>()
    );
    assert_eq!(followed.last().unwrap().data, seen.last().unwrap().data);

    let session = session_json(&app, id).await;
    assert_eq!(session["status"], "failed");
    assert_eq!(session["result"], *complete);
    wait_idle(&app, Duration::from_secs(2)).await;
}

#[tokio::test]
async fn a_panic_while_planning_ends_the_run_failed_and_every_stream_ends() {
    panic_ends_the_run(FaultPoint::Planning, "panic-planning-1").await;
}

#[tokio::test]
async fn a_panic_while_rendering_the_output_ends_the_run_failed_and_every_stream_ends() {
    panic_ends_the_run(FaultPoint::Output, "panic-output-1").await;
}

#[tokio::test]
async fn a_store_that_fails_mid_run_never_shows_an_event_it_does_not_hold() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|_| {}).await;
    let first = fixtures.url("/pages/news.html");
    let second = fixtures.url("/delay/800/news.html");
    let body = json!({
        "urls": [&first, &second],
        "instructions": "top 3 stories",
        "session_id": "store-fails-1",
    });
    let mut stream = FrameReader::new(app.post("/api/scrape/stream", &body).await);
    let mut seen = stream
        .until(|f| f.event == "url_start" && f.payload()["url"] == second)
        .await;
    // The second page is still on its way: the store goes away under the run.
    app.store.close().await;
    seen.extend(rest_within(&mut stream, Duration::from_secs(10)).await);
    assert_ne!(
        seen.last().unwrap().event,
        "complete",
        "a complete that could not be stored is not shown"
    );
    wait_idle(&app, Duration::from_secs(5)).await;

    // Everything the client saw is in the store, in order, and nothing else is.
    let store = Store::connect(&DatabaseSettings {
        url: app.db_url.clone(),
        max_connections: 1,
    })
    .await
    .unwrap();
    let stored = store.events_after("store-fails-1", 0).await.unwrap();
    let stored: Vec<(u64, Value)> = stored.into_iter().map(|e| (e.seq, e.data)).collect();
    let shown: Vec<(u64, Value)> = seen
        .iter()
        .map(|f| (f.seq(), f.payload().clone()))
        .collect();
    assert_eq!(shown, stored);
    assert_eq!(
        store
            .session("store-fails-1")
            .await
            .unwrap()
            .status
            .as_str(),
        "running"
    );
    store.close().await;

    // The next start resumes it after what was stored (its client went with the store):
    // the replay shows the same events, then a `resume` step, and the run goes on to its end.
    let db_url = app.db_url.clone();
    let next = spawn_app_with(move |s| s.database.url = db_url).await;
    let replay =
        crate::support::read_stream(next.get("/api/scrape/store-fails-1/events").await).await;
    assert_eq!(
        shown[..],
        replay[..seen.len()]
            .iter()
            .map(|f| (f.seq(), f.payload().clone()))
            .collect::<Vec<_>>()[..]
    );
    assert_eq!(
        replay[seen.len()].action(),
        "resume",
        "{:?}",
        event_names(&replay)
    );
    let complete = replay.last().unwrap().payload();
    assert_eq!(complete["status"], "completed", "{complete}");
    let answer = &complete["extracted_data"][&second];
    assert!(answer.is_array() || answer.is_object(), "{answer}");
}

/// Sends SIGTERM to a child process.
fn sigterm(child: &std::process::Child) {
    let status = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
}

#[tokio::test]
async fn sigterm_refuses_new_runs_ends_every_run_with_complete_and_exits_in_time() {
    let fixtures = FixtureServer::start().await;
    let dir = TempDir::new();
    let db = dir.sqlite_url();
    let grace = 2;
    let drain = 2;
    let mut server = Server::start_with(
        &db,
        &[
            (
                "SCRAPE_AGENT__SERVER__SHUTDOWN_GRACE_SECS",
                &grace.to_string(),
            ),
            (
                "SCRAPE_AGENT__SERVER__SHUTDOWN_DRAIN_SECS",
                &drain.to_string(),
            ),
        ],
    )
    .await;
    let client = reqwest::Client::new();
    let slow = fixtures.url("/slow");
    let detached = json!({"urls": [&slow], "instructions": "x", "session_id": "term-detached"});
    let response = client
        .post(format!("{}/api/scrape", server.base))
        .json(&detached)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 202);
    let streamed = json!({"urls": [&slow], "instructions": "x", "session_id": "term-streamed"});
    let mut stream = FrameReader::new(
        client
            .post(format!("{}/api/scrape/stream", server.base))
            .json(&streamed)
            .send()
            .await
            .unwrap(),
    );
    stream.until(|f| f.event == "url_start").await;

    let signalled = Instant::now();
    sigterm(&server.child);
    // The signal is handled asynchronously: within a moment, new runs are refused.
    let refused = loop {
        let response = client
            .post(format!("{}/api/scrape", server.base))
            .json(&json!({"urls": [&slow], "instructions": "x"}))
            .send()
            .await
            .expect("the server still answers during the grace period");
        if response.status() != 202 {
            break response;
        }
        assert!(
            signalled.elapsed() < Duration::from_secs(1),
            "still taking runs"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(refused.status(), 503);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "shutting_down");

    let rest = rest_within(&mut stream, Duration::from_secs(grace + drain + 5)).await;
    let complete = rest.last().expect("frames after the signal");
    assert_eq!(complete.event, "complete");
    assert_eq!(complete.payload()["status"], "cancelled");
    assert!(
        signalled.elapsed() >= Duration::from_secs(grace),
        "runs get the grace period before they are cancelled"
    );

    let bound = Duration::from_secs(grace + 2 * drain + 3);
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(signalled.elapsed() < bound, "the process exits in time");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(status.success(), "exit status {status}");

    // Both runs stored their own end: nothing is left for a restart to interrupt.
    drop(server);
    let store = Store::connect(&DatabaseSettings {
        url: db,
        max_connections: 1,
    })
    .await
    .unwrap();
    for id in ["term-detached", "term-streamed"] {
        let session = store.session(id).await.unwrap();
        assert_eq!(session.status.as_str(), "cancelled", "{id}");
        let events = store.events_after(id, 0).await.unwrap();
        assert_eq!(events.last().unwrap().data["status"], "cancelled", "{id}");
    }
    store.close().await;
}

#[tokio::test]
async fn a_live_owner_whose_session_was_taken_over_stops_writing_postgres() {
    let Some(schema) = PgSchema::create("a_live_owner_whose_session_was_taken_over").await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let url = schema.url.clone();
    // A's heartbeat is too slow to save it: another instance will find it stale.
    let owner = spawn_app_with(move |s| {
        s.database.url = url;
        s.runs.heartbeat_secs = 3600;
    })
    .await;
    let news = fixtures.url("/pages/news.html");
    let late = fixtures.url("/delay/1500/news.html");
    let body =
        json!({"urls": [&news, &late], "instructions": "top 3 stories", "session_id": "fenced-1"});
    assert_eq!(owner.post("/api/scrape", &body).await.status(), 202);
    let mut follower = FrameReader::new(owner.get("/api/scrape/fenced-1/events").await);
    follower
        .until(|f| f.event == "url_start" && f.payload()["url"] == late)
        .await;

    // Another instance takes the session over while its owner waits for the second page.
    let other = Store::connect(&DatabaseSettings {
        url: schema.url.clone(),
        max_connections: 2,
    })
    .await
    .unwrap();
    let future = chrono::Utc::now() + chrono::Duration::seconds(5);
    assert_eq!(
        other.interrupt_running(Some(future)).await.unwrap(),
        ["fenced-1"]
    );
    let closed = other.session("fenced-1").await.unwrap();

    // The owner's next append is refused: it stops and its follower's stream ends.
    rest_within(&mut follower, Duration::from_secs(10)).await;
    wait_idle(&owner, Duration::from_secs(10)).await;

    let session = other.session("fenced-1").await.unwrap();
    assert_eq!(session.status.as_str(), "interrupted");
    assert_eq!(
        session.event_count, closed.event_count,
        "nothing appended after the takeover"
    );
    let events = other.events_after("fenced-1", 0).await.unwrap();
    assert_eq!(
        events.iter().map(|e| e.seq).collect::<Vec<_>>(),
        (1..=session.event_count).collect::<Vec<_>>()
    );
    let last = events.last().unwrap();
    assert_eq!(last.kind.as_str(), "complete");
    assert_eq!(last.data["status"], "interrupted");
    assert_eq!(
        events
            .iter()
            .filter(|e| e.kind.as_str() == "complete")
            .count(),
        1
    );
    other.close().await;
    drop(owner);
    schema.drop_schema().await;
}

#[tokio::test]
async fn orphan_grace_counts_from_the_last_departure() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| {
        s.fetch.timeout_secs = 40;
        s.runs.orphan_grace_secs = 1;
    })
    .await;
    let body =
        json!({"urls": [fixtures.url("/slow")], "instructions": "x", "session_id": "grace-1"});
    let mut first = FrameReader::new(app.post("/api/scrape/stream", &body).await);
    first.until(|f| f.event == "url_start").await;
    drop(first);
    let left = Instant::now();
    // Back after a while, then gone again shortly before the first grace period would end.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut second = FrameReader::new(app.get("/api/scrape/grace-1/events").await);
    second.until(|f| f.event == "url_start").await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    drop(second);
    let left_again = Instant::now();

    // Past one grace period after the first departure, the run still goes.
    tokio::time::sleep(Duration::from_millis(1_400).saturating_sub(left.elapsed())).await;
    assert_eq!(session_json(&app, "grace-1").await["status"], "running");
    // One grace period after the last departure, it is cancelled.
    let deadline = left_again + Duration::from_secs(3);
    loop {
        let session = session_json(&app, "grace-1").await;
        if session["status"] != "running" {
            assert_eq!(session["status"], "cancelled");
            assert!(left_again.elapsed() >= Duration::from_millis(900));
            break;
        }
        assert!(Instant::now() < deadline, "abandoned run still running");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_client_that_leaves_while_its_run_is_created_leaves_no_running_session() {
    use tokio::io::AsyncWriteExt;
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| {
        s.fetch.timeout_secs = 40;
        s.runs.orphan_grace_secs = 1;
    })
    .await;
    let body = json!({"urls": [fixtures.url("/slow")], "instructions": "x"}).to_string();
    let addr = app.base.trim_start_matches("http://");
    // Clients that send a request and hang up at once, without reading any answer.
    for _ in 0..5 {
        let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
        let request = format!(
            "POST /api/scrape/stream HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
        socket.write_all(request.as_bytes()).await.unwrap();
        drop(socket);
    }
    // Whatever got created is abandoned and ends after the grace period.
    tokio::time::sleep(Duration::from_millis(300)).await;
    wait_idle(&app, Duration::from_secs(5)).await;
    let running: Value = app
        .get("/api/scrape?status=running")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(running["sessions"], json!([]), "{running}");
}

/// Heartbeats refresh exactly the sessions named: `job_1` is not `jobA1` (`_` is a LIKE
/// wildcard in SQL).
async fn heartbeat_names_exact_sessions(url: &str) {
    let store = Store::connect(&DatabaseSettings {
        url: url.to_owned(),
        max_connections: 2,
    })
    .await
    .unwrap();
    for id in ["job_1", "jobA1"] {
        store
            .create_session(id, &json!({"urls": ["https://example.com/"]}), true)
            .await
            .unwrap();
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    let between = chrono::Utc::now();
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(store.heartbeat(&["jobA1".to_owned()]).await.unwrap(), 1);
    // Another instance closes the sessions whose last beat is older than `between`: only the
    // one not beaten.
    let other = Store::connect(&DatabaseSettings {
        url: url.to_owned(),
        max_connections: 2,
    })
    .await
    .unwrap();
    let closed = other.interrupt_running(Some(between)).await.unwrap();
    assert_eq!(closed, ["job_1"]);
    other.close().await;
    store.close().await;
}

#[tokio::test]
async fn a_heartbeat_refreshes_only_the_sessions_it_names_sqlite() {
    let dir = TempDir::new();
    heartbeat_names_exact_sessions(&dir.sqlite_url()).await;
}

#[tokio::test]
async fn a_heartbeat_refreshes_only_the_sessions_it_names_postgres() {
    let Some(schema) = PgSchema::create("a_heartbeat_refreshes_only_the_sessions_it_names").await
    else {
        return;
    };
    heartbeat_names_exact_sessions(&schema.url).await;
    schema.drop_schema().await;
}
