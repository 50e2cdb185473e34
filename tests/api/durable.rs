//! Durable runs (issue #34): leases with epochs. A run is held under an epoch that grows with
//! every claim and a lease that expires on the database's clock; every write is fenced by the
//! epoch, and a holder that loses its lease stops at once.

use std::time::Duration;

use scrape_agent::events::{Event, EventType};
use scrape_agent::settings::DatabaseSettings;
use scrape_agent::store::{Store, StoreError};
use serde_json::json;

use crate::support::postgres::PgSchema;
use crate::support::{FixtureServer, FrameReader, TempDir, spawn_app_with};

async fn store_at(url: &str, lease: Duration) -> Store {
    Store::connect(&DatabaseSettings {
        url: url.to_owned(),
        max_connections: 2,
    })
    .await
    .unwrap()
    .with_lease(lease)
}

fn event(id: &str, seq: u64) -> Event {
    Event {
        kind: EventType::Init,
        session_id: id.to_owned(),
        seq,
        data: json!({}),
    }
}

/// A claim by another instance moves the epoch on: the first holder's renewal reports the
/// lease lost, and its next write is refused in the same statement that would have made it.
async fn a_lost_lease_refuses_every_write(url: &str) {
    let holder = store_at(url, Duration::from_secs(10)).await;
    holder
        .create_session("leased-1", &json!({"urls": []}), true)
        .await
        .unwrap();
    let (epoch, left) = holder.lease_of("leased-1").await.unwrap();
    assert_eq!(epoch, 1);
    let left = left.expect("a running session has a lease");
    assert!(left > 8.0 && left <= 10.5, "lease left {left}");
    assert_eq!(holder.lease_epoch("leased-1"), Some(1));
    holder.append_event(&event("leased-1", 1)).await.unwrap();
    assert_eq!(
        holder.renew_leases(&["leased-1".to_owned()]).await.unwrap(),
        Vec::<String>::new()
    );

    // Another instance closes it (its claim moves the epoch on).
    let other = store_at(url, Duration::from_secs(10)).await;
    let future = chrono::Utc::now() + chrono::Duration::seconds(5);
    assert_eq!(
        other.interrupt_running(Some(future)).await.unwrap(),
        ["leased-1"]
    );
    assert_eq!(other.lease_of("leased-1").await.unwrap(), (2, None));

    assert_eq!(
        holder.renew_leases(&["leased-1".to_owned()]).await.unwrap(),
        ["leased-1"]
    );
    assert!(!holder.holds_lease("leased-1"));
    let refused = holder.append_event(&event("leased-1", 2)).await;
    assert!(
        matches!(refused, Err(StoreError::NotOwner(_))),
        "{refused:?}"
    );
    let stored = other.events_after("leased-1", 0).await.unwrap();
    assert!(
        stored
            .iter()
            .all(|e| e.kind != EventType::Init || e.seq == 1),
        "nothing of the old holder after the claim: {stored:?}"
    );
    other.close().await;
    holder.close().await;
}

#[tokio::test]
async fn a_lost_lease_refuses_every_write_sqlite() {
    let dir = TempDir::new();
    a_lost_lease_refuses_every_write(&dir.sqlite_url()).await;
}

#[tokio::test]
async fn a_lost_lease_refuses_every_write_postgres() {
    let Some(schema) = PgSchema::create("a_lost_lease_refuses_every_write").await else {
        return;
    };
    a_lost_lease_refuses_every_write(&schema.url).await;
    schema.drop_schema().await;
}

/// A renewal pushes the expiry a whole lease past the database's now again.
async fn a_renewal_extends_the_lease(url: &str) {
    let store = store_at(url, Duration::from_secs(2)).await;
    store
        .create_session("renewed-1", &json!({"urls": []}), true)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let (_, left) = store.lease_of("renewed-1").await.unwrap();
    let left = left.unwrap();
    assert!(
        left < 1.0,
        "the lease runs down on the database clock: {left}"
    );
    assert!(
        store
            .renew_leases(&["renewed-1".to_owned()])
            .await
            .unwrap()
            .is_empty()
    );
    let (epoch, left) = store.lease_of("renewed-1").await.unwrap();
    let left = left.unwrap();
    assert_eq!(epoch, 1, "a renewal is no new claim");
    assert!(left > 1.5 && left <= 2.1, "renewed lease left {left}");
    store.close().await;
}

#[tokio::test]
async fn a_renewal_extends_the_lease_sqlite() {
    let dir = TempDir::new();
    a_renewal_extends_the_lease(&dir.sqlite_url()).await;
}

#[tokio::test]
async fn a_renewal_extends_the_lease_postgres() {
    let Some(schema) = PgSchema::create("a_renewal_extends_the_lease").await else {
        return;
    };
    a_renewal_extends_the_lease(&schema.url).await;
    schema.drop_schema().await;
}

/// A real server whose run is claimed elsewhere stops it at its next renewal (a third of the
/// lease), counted in `/metrics`, before its slow page would have let it write again.
#[tokio::test]
async fn a_server_stops_a_run_whose_lease_it_lost_postgres() {
    let Some(schema) = PgSchema::create("a_server_stops_a_run_whose_lease_it_lost").await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let url = schema.url.clone();
    let server = spawn_app_with(move |s| {
        s.database.url = url;
        s.runs.lease_secs = 3;
        // Only the renewal may notice the loss (no sweep of its own in the way).
        s.runs.stale_after_secs = 3600;
    })
    .await;
    let slow = fixtures.url("/delay/8000/news.html");
    let body = json!({"urls": [&slow], "instructions": "top 3 stories", "session_id": "lost-1"});
    assert_eq!(server.post("/api/scrape", &body).await.status(), 202);
    let mut follower = FrameReader::new(server.get("/api/scrape/lost-1/events").await);
    follower
        .until(|f| f.event == "url_start" && f.payload()["url"] == slow)
        .await;

    let other = store_at(&schema.url, Duration::from_secs(3)).await;
    let future = chrono::Utc::now() + chrono::Duration::seconds(5);
    assert_eq!(
        other.interrupt_running(Some(future)).await.unwrap(),
        ["lost-1"]
    );
    let claimed_at = std::time::Instant::now();
    let mut lost = false;
    while claimed_at.elapsed() < Duration::from_secs(4) {
        let metrics = server.get("/metrics").await.text().await.unwrap();
        if metrics
            .lines()
            .any(|line| line.starts_with("scrape_agent_lease_losses_total 1"))
        {
            lost = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        lost,
        "the lease loss was noticed within a renewal (1 s) plus slack"
    );
    let session = other.session("lost-1").await.unwrap();
    assert_eq!(session.status.as_str(), "interrupted");
    other.close().await;
    schema.drop_schema().await;
}
