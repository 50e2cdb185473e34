//! Sessions that survive (issue 5): replay after `Last-Event-ID`, cancel, detached runs,
//! listing, orphan grace, a SIGKILLed server, and two instances on one PostgreSQL.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::postgres::PgSchema;
use crate::support::{
    FixtureServer, Frame, FrameReader, Server, TempDir, TestApp, read_stream, spawn_app_with,
};

fn events(frames: &[Frame]) -> Vec<String> {
    frames.iter().map(|f| f.event.clone()).collect()
}

fn seqs(frames: &[Frame]) -> Vec<u64> {
    frames
        .iter()
        .map(|f| f.id.as_deref().unwrap().parse().unwrap())
        .collect()
}

fn is_url_start_of(url: &str) -> impl Fn(&Frame) -> bool + '_ {
    move |f: &Frame| f.event == "url_start" && f.payload()["url"] == url
}

/// Settings under which `/slow` (30 s) keeps a run busy instead of timing out after 3 s.
fn slow_fetches(settings: &mut scrape_agent::settings::Settings) {
    settings.fetch.timeout_secs = 40;
}

async fn json_of(response: reqwest::Response) -> Value {
    response.json().await.expect("JSON body")
}

/// Polls `GET /api/scrape/{id}` until the status leaves `running`.
async fn wait_finished(app: &TestApp, id: &str, within: Duration) -> Value {
    let deadline = Instant::now() + within;
    loop {
        let session = json_of(app.get(&format!("/api/scrape/{id}")).await).await;
        if session["status"] != "running" {
            return session;
        }
        assert!(Instant::now() < deadline, "{id} still running: {session}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Disconnects after `k` frames, then reattaches with `how(k)`; checks the second stream is
/// exactly frames k+1..end of the full replay.
async fn reconnect_after(k: usize, by_header: bool) {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|_| {}).await;
    let id = format!("reconnect-{k}-{by_header}");
    // The middle URL fails after the 3 s fetch timeout of the tests, so the reconnection
    // below happens while the run is still going: replay first, then live.
    let urls = [
        fixtures.url("/pages/news.html"),
        fixtures.url("/slow"),
        fixtures.url("/pages/shop.html"),
    ];
    let response = app
        .post(
            "/api/scrape/stream",
            &json!({"urls": urls, "instructions": "top 3 items", "session_id": id}),
        )
        .await;
    let first = crate::support::sse::read_frames(response, k).await;
    assert_eq!(seqs(&first), (1..=k as u64).collect::<Vec<_>>());
    let path = format!("/api/scrape/{id}/events");
    let response = if by_header {
        app.get_with(&path, &[("Last-Event-ID", &k.to_string())])
            .await
    } else {
        app.get(&format!("{path}?last_event_id={k}")).await
    };
    assert_eq!(response.status(), 200);
    let rest = read_stream(response).await;
    assert_eq!(rest.last().expect("frames").event, "complete");
    // A full replay of the finished session is the reference.
    let all = read_stream(app.get(&path).await).await;
    let n = all.len() as u64;
    assert_eq!(
        seqs(&all),
        (1..=n).collect::<Vec<_>>(),
        "no gap in the store"
    );
    assert_eq!(
        seqs(&rest),
        ((k as u64 + 1)..=n).collect::<Vec<_>>(),
        "exactly the events after {k}: no gap, no duplicate"
    );
    for (got, want) in rest.iter().zip(&all[k..]) {
        assert_eq!(got.data, want.data, "the replay is the same event");
    }
    for (got, want) in first.iter().zip(&all) {
        assert_eq!(got.data, want.data, "the live event was stored as sent");
    }
}

#[tokio::test]
async fn reconnect_with_last_event_id_header_gets_exactly_the_rest() {
    reconnect_after(5, true).await;
}

#[tokio::test]
async fn reconnect_with_last_event_id_query_gets_exactly_the_rest() {
    reconnect_after(11, false).await;
}

#[tokio::test]
async fn replay_of_a_finished_session_ends_and_honours_the_id() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|_| {}).await;
    let frames = app
        .stream(&json!({"urls": [fixtures.url("/pages/news.html")], "instructions": "top 3 stories", "session_id": "finished-1"}))
        .await;
    let n = frames.len() as u64;
    let replay = read_stream(
        app.get_with("/api/scrape/finished-1/events", &[("Last-Event-ID", "3")])
            .await,
    )
    .await;
    assert_eq!(seqs(&replay), (4..=n).collect::<Vec<_>>());
    let past_end = read_stream(
        app.get(&format!("/api/scrape/finished-1/events?last_event_id={n}"))
            .await,
    )
    .await;
    assert!(past_end.is_empty(), "nothing after the last event");
    let bad = app
        .get_with("/api/scrape/finished-1/events", &[("Last-Event-ID", "abc")])
        .await;
    assert_eq!(bad.status(), 400);
}

#[tokio::test]
async fn cancel_mid_run_completes_cancelled_within_a_second_with_partial_data() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(slow_fetches).await;
    let news = fixtures.url("/pages/news.html");
    let slow = fixtures.url("/slow");
    let mut stream = FrameReader::new(
        app.post(
            "/api/scrape/stream",
            &json!({"urls": [&news, &slow], "instructions": "top 3 stories", "session_id": "cancel-1"}),
        )
        .await,
    );
    stream.until(is_url_start_of(&slow)).await;
    let asked = Instant::now();
    let response = app.delete("/api/scrape/cancel-1").await;
    assert_eq!(response.status(), 202);
    assert_eq!(json_of(response).await["cancelled"], true);
    let rest = stream.rest().await;
    let waited = asked.elapsed();
    assert!(waited < Duration::from_secs(1), "cancel took {waited:?}");
    let done = rest.last().expect("frames");
    assert_eq!(done.event, "complete");
    assert_eq!(done.payload()["status"], "cancelled");
    assert_eq!(
        done.payload()["extracted_data"][&news]
            .as_array()
            .expect("news answer kept")
            .len(),
        3,
        "the partial data is carried"
    );
    let session = json_of(app.get("/api/scrape/cancel-1").await).await;
    assert_eq!(session["status"], "cancelled");
    assert_eq!(session["cancel_requested"], true);
    assert_eq!(session["result"]["status"], "cancelled");
    // Cancelling a finished session changes nothing.
    let again = app.delete("/api/scrape/cancel-1").await;
    assert_eq!(again.status(), 200);
    assert_eq!(json_of(again).await["cancelled"], false);
}

#[tokio::test]
async fn detached_run_result_is_fetched_later_by_id() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|_| {}).await;
    let url = fixtures.url("/pages/news.html");
    let response = app
        .post(
            "/api/scrape",
            &json!({"urls": [&url], "instructions": "top 3 stories"}),
        )
        .await;
    assert_eq!(response.status(), 202);
    let started = json_of(response).await;
    let id = started["session_id"].as_str().expect("id").to_owned();
    assert_eq!(started["status"], "running");
    assert_eq!(started["result_url"], format!("/api/scrape/{id}"));
    let session = wait_finished(&app, &id, Duration::from_secs(20)).await;
    assert_eq!(session["status"], "completed");
    assert_eq!(session["detached"], true);
    assert_eq!(
        session["result"]["extracted_data"][&url]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let replay = read_stream(app.get(started["events_url"].as_str().unwrap()).await).await;
    assert_eq!(session["event_count"], json!(replay.len()));
    assert_eq!(
        session["step_count"],
        json!(replay.iter().filter(|f| f.event == "step").count())
    );
    assert_eq!(replay.last().unwrap().payload(), &session["result"]);
}

#[tokio::test]
async fn list_is_newest_first_paginated_and_filtered_by_status() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(slow_fetches).await;
    for n in 1..=3 {
        let body = json!({"urls": [fixtures.url("/pages/shop.html")], "instructions": "products", "session_id": format!("done-{n}")});
        assert_eq!(app.post("/api/scrape", &body).await.status(), 202);
        wait_finished(&app, &format!("done-{n}"), Duration::from_secs(20)).await;
    }
    let body = json!({"urls": [fixtures.url("/slow")], "instructions": "anything", "session_id": "busy-1"});
    assert_eq!(app.post("/api/scrape", &body).await.status(), 202);

    let ids = |page: &Value| -> Vec<String> {
        page["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_str().unwrap().to_owned())
            .collect()
    };
    let first = json_of(app.get("/api/scrape?limit=3").await).await;
    assert_eq!(ids(&first), ["busy-1", "done-3", "done-2"]);
    assert_eq!(first["sessions"][0]["status"], "running");
    assert!(
        first["sessions"][1].get("result").is_none(),
        "pages stay small"
    );
    let cursor = first["next_cursor"].as_str().expect("a next page");
    let second = json_of(
        app.get(&format!("/api/scrape?limit=3&cursor={cursor}"))
            .await,
    )
    .await;
    assert_eq!(ids(&second), ["done-1"]);
    assert_eq!(second["next_cursor"], Value::Null);

    let running = json_of(app.get("/api/scrape?status=running").await).await;
    assert_eq!(ids(&running), ["busy-1"]);
    let finished = json_of(app.get("/api/scrape?status=completed,cancelled").await).await;
    assert_eq!(ids(&finished), ["done-3", "done-2", "done-1"]);
    let both = json_of(
        app.get("/api/scrape?status=running&status=completed&limit=2")
            .await,
    )
    .await;
    assert_eq!(ids(&both), ["busy-1", "done-3"]);

    for bad in [
        "status=bogus",
        "limit=0",
        "limit=1000",
        "cursor=xyz",
        "page=2",
    ] {
        let response = app.get(&format!("/api/scrape?{bad}")).await;
        assert_eq!(response.status(), 400, "{bad}");
        assert_eq!(json_of(response).await["error"]["code"], "invalid_query");
    }
    assert_eq!(app.delete("/api/scrape/busy-1").await.status(), 202);
    let cancelled = wait_finished(&app, "busy-1", Duration::from_secs(2)).await;
    assert_eq!(cancelled["status"], "cancelled");
}

#[tokio::test]
async fn unknown_session_is_a_404_json_error_everywhere() {
    let app = spawn_app_with(|_| {}).await;
    for response in [
        app.get("/api/scrape/nope").await,
        app.get("/api/scrape/nope/events").await,
        app.delete("/api/scrape/nope").await,
    ] {
        assert_eq!(response.status(), 404);
        assert_eq!(json_of(response).await["error"]["code"], "not_found");
    }
}

#[tokio::test]
async fn abandoned_run_is_cancelled_after_the_grace_period_but_detached_ones_go_on() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| {
        slow_fetches(s);
        s.runs.orphan_grace_secs = 1;
    })
    .await;
    let slow = fixtures.url("/slow");
    let response = app
        .post(
            "/api/scrape/stream",
            &json!({"urls": [&slow], "instructions": "x", "session_id": "orphan-1"}),
        )
        .await;
    crate::support::sse::read_frames(response, 2).await; // init, url_start; then hang up
    let detached = json!({"urls": [&slow], "instructions": "x", "session_id": "kept-1"});
    assert_eq!(app.post("/api/scrape", &detached).await.status(), 202);

    let session = wait_finished(&app, "orphan-1", Duration::from_secs(4)).await;
    assert_eq!(session["status"], "cancelled");
    let errors = session["result"]["errors"].as_array().unwrap();
    assert!(
        errors
            .iter()
            .any(|e| e["message"].as_str().unwrap().contains("subscriber")),
        "{errors:?}"
    );
    let kept = json_of(app.get("/api/scrape/kept-1").await).await;
    assert_eq!(
        kept["status"], "running",
        "nobody listens, but it was detached"
    );
    assert_eq!(app.delete("/api/scrape/kept-1").await.status(), 202);
}

#[tokio::test]
async fn retention_deletes_old_finished_sessions_only() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|_| {}).await;
    let body = |id: &str| json!({"urls": [fixtures.url("/pages/news.html")], "instructions": "top 3", "session_id": id});
    for id in ["old-1", "new-1"] {
        app.stream(&body(id)).await;
    }
    let long_ago = chrono::Utc::now() - chrono::Duration::days(40);
    app.store.backdate("old-1", long_ago).await.unwrap();
    assert_eq!(
        app.store.delete_older_than(0, 100).await.unwrap(),
        0,
        "0 keeps"
    );
    assert_eq!(app.store.delete_older_than(30, 100).await.unwrap(), 1);
    assert_eq!(app.get("/api/scrape/old-1").await.status(), 404);
    assert_eq!(app.get("/api/scrape/new-1").await.status(), 200);
}

/// A server killed (SIGKILL) mid-run loses nothing it stored: the next server on the SQLite
/// file replays the events seen before the kill unchanged, resumes the run (one `resume` step
/// after them), and the finished URL's answer, stored with its `url_complete`, is in the final
/// `complete` without that URL being fetched again.
#[tokio::test]
async fn sigkilled_server_leaves_a_session_whose_replay_keeps_what_was_seen_and_goes_on() {
    let fixtures = FixtureServer::start().await;
    let dir = TempDir::new();
    let db = dir.sqlite_url();
    let client = reqwest::Client::new();
    let news = fixtures.url("/pages/news.html");
    let late = fixtures.url("/delay/2000/news.html");

    let mut first = Server::start(&db).await;
    let response = client
        .post(format!("{}/api/scrape", first.base))
        .json(&json!({"urls": [&news, &late], "instructions": "top 3 stories", "session_id": "killed-1"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 202);
    // Follow until the late URL started: the run is now in the middle.
    let mut stream = FrameReader::new(
        client
            .get(format!("{}/api/scrape/killed-1/events", first.base))
            .send()
            .await
            .unwrap(),
    );
    let seen = stream.until(is_url_start_of(&late)).await;
    drop(stream);
    first.child.kill().expect("SIGKILL"); // std's kill is SIGKILL on Unix
    first.child.wait().unwrap();

    let second = Server::start(&db).await;
    let replay = read_stream(
        client
            .get(format!("{}/api/scrape/killed-1/events", second.base))
            .send()
            .await
            .unwrap(),
    )
    .await;
    let n = replay.len() as u64;
    assert_eq!(seqs(&replay), (1..=n).collect::<Vec<_>>());
    for (got, want) in replay.iter().zip(&seen) {
        assert_eq!(got.data, want.data, "stored events survived unchanged");
    }
    let resumes: Vec<usize> = (0..replay.len())
        .filter(|&i| replay[i].action() == "resume")
        .collect();
    assert_eq!(resumes.len(), 1, "{:?}", events(&replay));
    assert!(resumes[0] >= seen.len(), "after what was seen");
    let done = replay.last().unwrap().payload();
    assert_eq!(done["status"], "completed");
    assert_eq!(done["urls_processed"], 2, "counted over both servers");
    for url in [&news, &late] {
        let answer = &done["extracted_data"][url];
        assert!(answer.is_object() || answer.is_array(), "{url}: {answer}");
        assert_ne!(answer, &json!([]), "not an empty answer");
    }
    assert_eq!(
        fixtures.hits(&news),
        1,
        "answered before the kill: not fetched again"
    );
    let session: Value = client
        .get(format!("{}/api/scrape/killed-1", second.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(session["status"], "completed");
    assert!(session["finished_at"].is_string());
    assert_eq!(&session["result"], done);
    assert_eq!(session["event_count"], json!(n));
}

#[tokio::test]
async fn two_instances_on_one_postgres_start_on_a_follow_and_cancel_on_b() {
    let Some(schema) = PgSchema::create("two_instances_on_one_postgres").await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let url = schema.url.clone();
    let shared = move |s: &mut scrape_agent::settings::Settings| {
        slow_fetches(s);
        s.database.url = url.clone();
    };
    let a = spawn_app_with(shared.clone()).await;
    let news = fixtures.url("/pages/news.html");
    let slow = fixtures.url("/slow");
    let body =
        json!({"urls": [&news, &slow], "instructions": "top 3 stories", "session_id": "shared-1"});
    assert_eq!(a.post("/api/scrape", &body).await.status(), 202);
    // B starts while A's run is going: its start-up sweep must leave A's live session alone.
    let b = spawn_app_with(shared).await;

    let listed = json_of(b.get("/api/scrape?status=running").await).await;
    assert_eq!(listed["sessions"][0]["id"], "shared-1");
    let mut follow = FrameReader::new(b.get("/api/scrape/shared-1/events").await);
    let seen = follow.until(is_url_start_of(&slow)).await;
    assert_eq!(seqs(&seen), (1..=seen.len() as u64).collect::<Vec<_>>());

    let asked = Instant::now();
    let response = b.delete("/api/scrape/shared-1").await;
    assert_eq!(response.status(), 202);
    let rest = follow.rest().await;
    let waited = asked.elapsed();
    assert!(
        waited < Duration::from_secs(1),
        "cross-instance cancel took {waited:?}"
    );
    let done = rest.last().expect("frames");
    assert_eq!(done.event, "complete");
    assert_eq!(done.payload()["status"], "cancelled");
    assert_eq!(
        done.payload()["extracted_data"][&news]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let all = seqs(&seen.iter().chain(&rest).cloned().collect::<Vec<_>>());
    assert_eq!(
        all,
        (1..=all.len() as u64).collect::<Vec<_>>(),
        "followed without gap"
    );

    // Both instances see the same finished session, and B replays from a Last-Event-ID.
    for app in [&a, &b] {
        let session = json_of(app.get("/api/scrape/shared-1").await).await;
        assert_eq!(session["status"], "cancelled");
        assert_eq!(session["event_count"], json!(all.len()));
    }
    let replay = read_stream(
        b.get_with("/api/scrape/shared-1/events", &[("Last-Event-ID", "4")])
            .await,
    )
    .await;
    assert_eq!(seqs(&replay), (5..=all.len() as u64).collect::<Vec<_>>());
    drop((a, b));
    schema.drop_schema().await;
}

#[tokio::test]
async fn postgres_store_replays_exactly_like_sqlite() {
    let Some(schema) = PgSchema::create("postgres_store_replays_exactly_like_sqlite").await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let url = schema.url.clone();
    let app = spawn_app_with(move |s| s.database.url = url).await;
    let frames = app
        .stream(&json!({"urls": [fixtures.url("/pages/news.html"), fixtures.url("/status/404")], "instructions": "top 3 stories", "session_id": "pg-1"}))
        .await;
    let replay = read_stream(app.get("/api/scrape/pg-1/events").await).await;
    assert_eq!(replay.len(), frames.len());
    for (got, want) in replay.iter().zip(&frames) {
        assert_eq!(
            (&got.id, &got.event, &got.data),
            (&want.id, &want.event, &want.data)
        );
    }
    let session = json_of(app.get("/api/scrape/pg-1").await).await;
    assert_eq!(session["status"], "partial");
    let listed = json_of(app.get("/api/scrape?status=partial").await).await;
    assert_eq!(listed["sessions"][0]["id"], "pg-1");
    drop(app);
    schema.drop_schema().await;
}

#[tokio::test]
async fn a_run_followed_only_from_another_instance_is_not_abandoned() {
    let Some(schema) = PgSchema::create("a_run_followed_only_from_another_instance").await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let url = schema.url.clone();
    let shared = move |s: &mut scrape_agent::settings::Settings| {
        slow_fetches(s);
        s.runs.orphan_grace_secs = 1;
        s.database.url = url.clone();
    };
    let a = spawn_app_with(shared.clone()).await;
    let b = spawn_app_with(shared).await;
    let slow = fixtures.url("/slow");
    // Started streamed on A; the client hangs up there and follows from B instead (a load
    // balancer sending the reconnection elsewhere).
    let response = a
        .post(
            "/api/scrape/stream",
            &json!({"urls": [&slow], "instructions": "x", "session_id": "moved-1"}),
        )
        .await;
    let seen = crate::support::sse::read_frames(response, 2).await;
    let mut follow = FrameReader::new(
        b.get_with("/api/scrape/moved-1/events", &[("Last-Event-ID", "2")])
            .await,
    );
    tokio::time::sleep(Duration::from_secs(3)).await;
    let session = json_of(a.get("/api/scrape/moved-1").await).await;
    assert_eq!(
        session["status"], "running",
        "B's subscriber keeps it alive"
    );
    drop(follow);
    // With nobody left anywhere, A cancels it after the grace period.
    let session = wait_finished(&a, "moved-1", Duration::from_secs(8)).await;
    assert_eq!(session["status"], "cancelled");
    follow = FrameReader::new(
        b.get_with("/api/scrape/moved-1/events", &[("Last-Event-ID", "2")])
            .await,
    );
    let rest = follow.rest().await;
    assert_eq!(
        seqs(&rest)[0],
        3,
        "continues after the frames seen on A: {seen:?}"
    );
    assert_eq!(rest.last().unwrap().payload()["status"], "cancelled");
    drop((a, b));
    schema.drop_schema().await;
}

/// Two stores on one database stand for two instances: the sweep of one closes the other's
/// sessions only once their heartbeat is stale, exactly once, with a final `complete`.
async fn stale_sweep_on(url: &str) {
    use scrape_agent::settings::DatabaseSettings;
    use scrape_agent::store::Store;
    let settings = DatabaseSettings {
        url: url.to_owned(),
        max_connections: 2,
    };
    let dead = Store::connect(&settings).await.unwrap();
    let alive = Store::connect(&settings).await.unwrap();
    dead.create_session(
        "orphaned-1",
        &json!({"urls": ["https://example.com/"]}),
        true,
    )
    .await
    .unwrap();
    let init = scrape_agent::events::Event {
        kind: scrape_agent::events::EventType::Init,
        session_id: "orphaned-1".into(),
        seq: 1,
        data: json!({}),
    };
    dead.append_event(&init).await.unwrap();
    let recent = chrono::Utc::now() - chrono::Duration::seconds(30);
    assert!(
        alive
            .interrupt_running(Some(recent))
            .await
            .unwrap()
            .is_empty(),
        "fresh heartbeat"
    );
    let later = chrono::Utc::now() + chrono::Duration::seconds(1);
    assert_eq!(
        alive.interrupt_running(Some(later)).await.unwrap(),
        ["orphaned-1"]
    );
    assert!(
        alive
            .interrupt_running(Some(later))
            .await
            .unwrap()
            .is_empty(),
        "closed once"
    );
    assert!(
        dead.interrupt_running(Some(later))
            .await
            .unwrap()
            .is_empty()
    );
    let session = alive.session("orphaned-1").await.unwrap();
    assert_eq!(session.status.as_str(), "interrupted");
    assert_eq!(session.event_count, 3);
    let events = alive.events_after("orphaned-1", 1).await.unwrap();
    assert_eq!(events.iter().map(|e| e.seq).collect::<Vec<_>>(), [2, 3]);
    assert_eq!(events[1].data["status"], "interrupted");
    assert_eq!(
        events[1].data["extracted_data"]["https://example.com/"],
        Value::Null
    );
    dead.close().await;
    alive.close().await;
}

#[tokio::test]
async fn stale_sessions_of_a_dead_instance_are_closed_once_sqlite() {
    let dir = TempDir::new();
    stale_sweep_on(&dir.sqlite_url()).await;
}

#[tokio::test]
async fn stale_sessions_of_a_dead_instance_are_closed_once_postgres() {
    let Some(schema) = PgSchema::create("stale_sessions_of_a_dead_instance_postgres").await else {
        return;
    };
    stale_sweep_on(&schema.url).await;
    schema.drop_schema().await;
}

/// Two stores on one database stand for two instances: a URL's answer is stored with its
/// `url_complete` (fenced like the event), the sweep's rebuilt `complete` carries it, and the
/// dead instance can store neither an event nor an answer once its session was closed.
async fn stored_answers_on(url: &str) {
    use scrape_agent::events::{Event, EventType};
    use scrape_agent::settings::DatabaseSettings;
    use scrape_agent::store::{Store, StoreError, UrlAnswer};
    let settings = DatabaseSettings {
        url: url.to_owned(),
        max_connections: 2,
    };
    let dead = Store::connect(&settings).await.unwrap();
    let alive = Store::connect(&settings).await.unwrap();
    let (first, second) = ("https://example.com/a", "https://example.com/b");
    dead.create_session("answered-1", &json!({"urls": [first, second]}), true)
        .await
        .unwrap();
    let event = |seq: u64, kind: EventType, data: Value| Event {
        kind,
        session_id: "answered-1".into(),
        seq,
        data,
    };
    dead.append_event(&event(1, EventType::Init, json!({})))
        .await
        .unwrap();
    let answer = json!({"items": [{"title": "one"}, {"title": "two"}]});
    let done = |seq: u64, index: usize, url: &str| {
        event(
            seq,
            EventType::UrlComplete,
            json!({"url": url, "index": index, "status": "completed", "items": 2,
                   "error_code": null, "duration_ms": 5}),
        )
    };
    let stored = UrlAnswer {
        index: 0,
        url: first.into(),
        answer: answer.clone(),
    };
    dead.append_answered(&done(2, 0, first), Some(&stored))
        .await
        .unwrap();
    assert_eq!(dead.answers("answered-1").await.unwrap()[first], answer);

    let later = chrono::Utc::now() + chrono::Duration::seconds(1);
    assert_eq!(
        alive.interrupt_running(Some(later)).await.unwrap(),
        ["answered-1"]
    );
    let closing = alive.events_after("answered-1", 2).await.unwrap();
    let complete = &closing.last().unwrap().data;
    assert_eq!(complete["status"], "interrupted");
    assert_eq!(
        complete["extracted_data"][first], answer,
        "stored answer kept"
    );
    assert_eq!(
        complete["extracted_data"][second],
        Value::Null,
        "never finished"
    );
    assert_eq!(complete["urls_processed"], 1);

    // The instance that lost the session cannot add a late answer.
    let late = UrlAnswer {
        index: 1,
        url: second.into(),
        answer: json!({"items": []}),
    };
    let refused = dead.append_answered(&done(5, 1, second), Some(&late)).await;
    assert!(
        matches!(refused, Err(StoreError::NotOwner(_))),
        "{refused:?}"
    );
    let answers = alive.answers("answered-1").await.unwrap();
    assert_eq!(
        answers.len(),
        1,
        "no answer written by the fenced-off instance"
    );
    let session = alive.session("answered-1").await.unwrap();
    assert_eq!(session.status.as_str(), "interrupted");
    dead.close().await;
    alive.close().await;
}

#[tokio::test]
async fn finished_answers_are_stored_fenced_and_survive_the_sweep_sqlite() {
    let dir = TempDir::new();
    stored_answers_on(&dir.sqlite_url()).await;
}

#[tokio::test]
async fn finished_answers_are_stored_fenced_and_survive_the_sweep_postgres() {
    let Some(schema) = PgSchema::create("finished_answers_stored_postgres").await else {
        return;
    };
    stored_answers_on(&schema.url).await;
    schema.drop_schema().await;
}
