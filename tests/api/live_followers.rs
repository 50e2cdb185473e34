//! Followers anywhere, live, on PostgreSQL (issue #34, part 4): a run started on one instance
//! is followed from another, woken by the store's `NOTIFY` rather than by polling, and a client
//! resuming there with `Last-Event-ID` gets the rest without a gap.

use std::time::Duration;

use scrape_agent::events::{Event, EventType};
use scrape_agent::settings::DatabaseSettings;
use scrape_agent::store::Store;
use serde_json::json;

use crate::support::postgres::PgSchema;
use crate::support::{FixtureServer, Frame, FrameReader, Server, TempDir};

fn seqs(frames: &[Frame]) -> Vec<u64> {
    frames.iter().map(Frame::seq).collect()
}

async fn follow(base: &str, id: &str, last_event_id: Option<u64>) -> FrameReader {
    let mut request = reqwest::Client::new().get(format!("{base}/api/scrape/{id}/events"));
    if let Some(last) = last_event_id {
        request = request.header("Last-Event-ID", last.to_string());
    }
    FrameReader::new(request.send().await.expect("the follower connects"))
}

#[tokio::test]
async fn a_run_started_on_one_instance_is_followed_live_from_another_postgres() {
    let Some(schema) = PgSchema::create("a_run_started_on_one_instance_is_followed_live").await
    else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let logs = TempDir::new();
    let follower_log = logs.0.join("follower.log");
    let owner = Server::start(&schema.url).await;
    let other = Server::start_logging(&schema.url, &[], Some(&follower_log)).await;

    let held = fixtures.url("/delay/1500/news.html");
    let urls = [
        fixtures.url("/pages/news.html"),
        held.clone(),
        fixtures.url("/delay/1500/news.html?again"),
    ];
    let body = json!({"urls": urls, "instructions": "top 3 stories", "session_id": "live-1"});
    let started = reqwest::Client::new()
        .post(format!("{}/api/scrape", owner.base))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(started.status(), 202);

    // Followed from the instance that does not run it, from the start.
    let mut whole = follow(&other.base, "live-1", None).await;
    let mut frames = whole
        .until(|f| f.event == "url_start" && f.payload()["url"] == held)
        .await;
    let resumed_after = frames.last().unwrap().seq();
    // The follower saw the held URL start while the run was still waiting for its page: the
    // run has not stored that URL's `url_complete` yet.
    let store = Store::connect(&DatabaseSettings {
        url: schema.url.clone(),
        max_connections: 2,
    })
    .await
    .unwrap();
    let stored_then = store.events_after("live-1", 0).await.unwrap();
    assert!(
        !stored_then
            .iter()
            .any(|e| e.kind == EventType::UrlComplete && e.data["url"] == held),
        "the follower on the other instance was told before the held page came back"
    );

    // A client resuming on that instance mid-run with Last-Event-ID gets the rest, gap-free.
    let mut resumed = follow(&other.base, "live-1", Some(resumed_after)).await;
    frames.extend(whole.rest().await);
    let resumed = resumed.rest().await;

    let events = store.events_after("live-1", 0).await.unwrap();
    let n = events.len() as u64;
    assert!(n >= 8, "a run of three pages has its events: {n}");
    assert_eq!(
        seqs(&frames),
        (1..=n).collect::<Vec<_>>(),
        "every event once, in order"
    );
    assert_eq!(
        frames.iter().map(|f| f.event.as_str()).collect::<Vec<_>>(),
        events.iter().map(|e| e.kind.as_str()).collect::<Vec<_>>(),
        "the follower saw what the store holds"
    );
    assert_eq!(frames.last().unwrap().event, "complete");
    assert_eq!(frames.last().unwrap().payload()["status"], "completed");
    assert_eq!(seqs(&resumed), (resumed_after + 1..=n).collect::<Vec<_>>());
    assert_eq!(resumed.last().unwrap().event, "complete");

    let log = std::fs::read_to_string(&follower_log).unwrap_or_default();
    assert!(
        !log.contains("following by polling"),
        "the other instance was woken by notifications: {log}"
    );
    store.close().await;
    drop(owner);
    drop(other);
    schema.drop_schema().await;
}

#[tokio::test]
async fn an_event_stored_by_one_instance_wakes_a_watch_on_another_postgres() {
    let Some(schema) = PgSchema::create("an_event_stored_by_one_instance_wakes_a_watch").await
    else {
        return;
    };
    let settings = DatabaseSettings {
        url: schema.url.clone(),
        max_connections: 1,
    };
    let owner = Store::connect(&settings).await.unwrap();
    let other = Store::connect(&settings).await.unwrap();
    owner
        .create_session("woken-1", &json!({"urls": ["https://example.com/"]}), true)
        .await
        .unwrap();
    // The watch has no timer of its own: only a notification from the database wakes it, sent
    // for sessions a follower marked watched.
    other.mark_watched("woken-1").await.unwrap();
    let mut watch = other
        .watch_events("woken-1")
        .await
        .expect("a PostgreSQL store can be listened to");
    let event = |seq| Event {
        kind: EventType::Init,
        session_id: "woken-1".into(),
        seq,
        data: json!({}),
    };
    owner.append_event(&event(1)).await.unwrap();
    let woke = tokio::time::timeout(Duration::from_secs(10), watch.stored_after(0)).await;
    assert_eq!(woke.ok(), Some(true), "the stored event woke the watch");
    assert_eq!(other.events_after("woken-1", 0).await.unwrap().len(), 1);

    // The listener uses a connection of its own: a pool of one still serves queries, and a
    // closed store lets its watches go.
    assert_eq!(other.events_after("woken-1", 0).await.unwrap().len(), 1);
    other.close().await;
    let ended = tokio::time::timeout(Duration::from_secs(10), watch.stored_after(1)).await;
    assert_eq!(ended.ok(), Some(false), "a closed store ends its watches");
    owner.close().await;
    schema.drop_schema().await;
}
