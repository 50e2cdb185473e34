//! Backpressure for detached work (issue #34, part 5): a detached run past the capacity of the
//! instance it reaches is queued in the store (`202`, `status: queued` and its position), not
//! refused; an instance with room claims queued runs oldest first. Streaming runs keep `429`.
//! `/metrics` shows the queue's depth and the claims.

use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Value, json};

use crate::support::postgres::PgSchema;
use crate::support::{FixtureServer, Frame, FrameReader, Server, error_code, spawn_app_with};

/// Where `POST /api/scrape` says a detached run stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Standing {
    Running,
    Queued,
}

/// The body of `POST /api/scrape`'s 202.
#[derive(Debug, Deserialize)]
struct Detached {
    session_id: String,
    status: Standing,
    position: Option<u64>,
    events_url: String,
    /// The body as sent, to check against the OpenAPI document.
    #[serde(skip)]
    raw: Value,
}

/// Posts a detached run of `urls` named `id` to the instance at `base`; its 202 body.
async fn post_detached(base: &str, id: &str, urls: &[String]) -> Detached {
    let body = json!({"urls": urls, "instructions": "top 3 stories", "session_id": id});
    let response = reqwest::Client::new()
        .post(format!("{base}/api/scrape"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 202, "{id}");
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    assert_eq!(location, format!("/api/scrape/{id}"));
    let raw: Value = response.json().await.unwrap();
    let detached = Detached {
        raw: raw.clone(),
        ..serde_json::from_value(raw).unwrap()
    };
    assert_eq!(detached.session_id, id);
    detached
}

/// The value of the unlabelled metric `name` on the instance at `base`.
async fn metric(base: &str, name: &str) -> Option<i64> {
    let text = reqwest::get(format!("{base}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines().find_map(|line| {
        let (key, value) = line.split_once(' ')?;
        (key == name).then(|| value.trim().parse().ok()).flatten()
    })
}

/// A session's stored record, read through the API.
async fn session(base: &str, id: &str) -> Value {
    reqwest::get(format!("{base}/api/scrape/{id}"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// Every frame of a run followed from its first event (even while it is queued) to its end.
async fn follow_from_start(base: &str, events_url: &str) -> FrameReader {
    let response = reqwest::get(format!("{base}{events_url}")).await.unwrap();
    assert_eq!(response.status(), 200);
    FrameReader::new(response)
}

/// The stream of a run that completed: each seq once from 1, `complete` last with status
/// `completed` and `url` answered.
fn check_completed(frames: &[Frame], url: &str) {
    let n = frames.len() as u64;
    assert_eq!(
        frames.iter().map(Frame::seq).collect::<Vec<_>>(),
        (1..=n).collect::<Vec<_>>()
    );
    assert_eq!(frames[0].event, "init");
    let complete = frames.last().unwrap();
    assert_eq!(complete.event, "complete");
    assert_eq!(complete.payload()["status"], "completed");
    let answer = &complete.payload()["extracted_data"][url];
    assert!(answer.is_array() || answer.is_object(), "{url}: {answer}");
}

/// One slot, three detached runs: the first runs, the other two wait in the queue at positions
/// 1 and 2, a streamed run is refused with 429 meanwhile, and the queued ones start one after the
/// other as the slot frees, each completing with its answer; the queue's depth seen in
/// `/metrics` goes 2 → 1 → 0.
async fn detached_runs_past_capacity_wait_in_the_queue(database: Option<String>) {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(move |s| {
        if let Some(url) = database {
            s.database.url = url;
        }
        s.limits.max_concurrent_runs = 1;
    })
    .await;
    let urls: Vec<String> = (1..=3)
        .map(|n| fixtures.url(&format!("/delay/700/news.html?run={n}")))
        .collect();
    let mut posted = Vec::new();
    for (n, url) in urls.iter().enumerate() {
        posted.push(
            post_detached(
                &app.base,
                &format!("queued-{}", n + 1),
                std::slice::from_ref(url),
            )
            .await,
        );
    }
    let standing: Vec<(Standing, Option<u64>)> =
        posted.iter().map(|d| (d.status, d.position)).collect();
    assert_eq!(
        standing,
        [
            (Standing::Running, None),
            (Standing::Queued, Some(1)),
            (Standing::Queued, Some(2)),
        ]
    );
    // Both answers are the one the OpenAPI document gives for a 202.
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    assert_eq!(
        doc["paths"]["/api/scrape"]["post"]["responses"]["202"]["content"]["application/json"]["schema"]
            ["$ref"],
        "#/components/schemas/DetachedRun"
    );
    let schema = json!({
        "$ref": "#/components/schemas/DetachedRun",
        "components": doc["components"],
    });
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    for detached in &posted {
        let errors: Vec<String> = validator
            .iter_errors(&detached.raw)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", detached.raw);
    }
    let waiting = session(&app.base, "queued-3").await;
    assert_eq!(
        (&waiting["status"], &waiting["position"]),
        (&json!("queued"), &json!(2))
    );
    // Followed from the start while it waits: the stream begins when the run does.
    let mut last = follow_from_start(&app.base, &posted[2].events_url).await;

    // A streamed run is not queued: 429 with Retry-After, as before.
    let streamed = app
        .post(
            "/api/scrape/stream",
            &json!({"urls": [fixtures.url("/pages/news.html")], "instructions": "top 3 stories"}),
        )
        .await;
    assert_eq!(streamed.status(), 429);
    assert!(streamed.headers().contains_key("retry-after"));
    assert_eq!(error_code(streamed).await, "too_many_runs");

    // The depth as /metrics shows it, until the queue is empty.
    let mut depths: Vec<i64> = Vec::new();
    let started = Instant::now();
    loop {
        let depth = metric(&app.base, "scrape_agent_queue_depth")
            .await
            .expect("the queue depth is exported");
        if depths.last() != Some(&depth) {
            depths.push(depth);
        }
        if depth == 0 && depths.contains(&1) {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the queue drains: {depths:?}"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(depths, [2, 1, 0], "the depth falls one run at a time");

    let frames = last.rest().await;
    check_completed(&frames, &urls[2]);
    for (n, url) in urls.iter().enumerate() {
        let id = format!("queued-{}", n + 1);
        let stored = session(&app.base, &id).await;
        assert_eq!(stored["status"], "completed", "{id}: {stored}");
        let answer = &stored["result"]["extracted_data"][url];
        assert!(answer.is_array() || answer.is_object(), "{id}: {answer}");
    }
    // The queued runs started in the order they came, each after the one before ended.
    let finished_at = |record: &Value| {
        chrono::DateTime::parse_from_rfc3339(record["finished_at"].as_str().unwrap()).unwrap()
    };
    let second = session(&app.base, "queued-2").await;
    let third = session(&app.base, "queued-3").await;
    assert!(finished_at(&second) < finished_at(&third));
    assert_eq!(
        metric(&app.base, "scrape_agent_runs_queued_total").await,
        Some(2)
    );
    assert_eq!(
        metric(&app.base, "scrape_agent_queue_claims_total").await,
        Some(2)
    );
    assert_eq!(
        metric(&app.base, "scrape_agent_runs_started_total").await,
        Some(3)
    );
    // Beside them, the takeovers and the lease losses (none here: one instance, no failure).
    for counter in [
        "scrape_agent_runs_resumed_total",
        "scrape_agent_lease_losses_total",
    ] {
        assert_eq!(metric(&app.base, counter).await, Some(0), "{counter}");
    }
}

#[tokio::test]
async fn detached_runs_past_capacity_wait_in_the_queue_sqlite() {
    detached_runs_past_capacity_wait_in_the_queue(None).await;
}

#[tokio::test]
async fn detached_runs_past_capacity_wait_in_the_queue_postgres() {
    let Some(schema) = PgSchema::create("detached_runs_past_capacity_wait_in_the_queue").await
    else {
        return;
    };
    detached_runs_past_capacity_wait_in_the_queue(Some(schema.url.clone())).await;
    schema.drop_schema().await;
}

/// A queued run cancelled before it starts ends at once, `cancelled`, its followers' stream
/// closed with `error` and `complete`; it never runs, and the queue is empty again.
#[tokio::test]
async fn a_queued_run_cancelled_before_it_starts_never_runs() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| {
        s.limits.max_concurrent_runs = 1;
        s.fetch.timeout_secs = 40;
    })
    .await;
    let busy = post_detached(&app.base, "holding", &[fixtures.url("/slow")]).await;
    assert_eq!(busy.status, Standing::Running);
    let url = fixtures.url("/pages/news.html");
    let waiting = post_detached(&app.base, "waiting", std::slice::from_ref(&url)).await;
    assert_eq!(
        (waiting.status, waiting.position),
        (Standing::Queued, Some(1))
    );
    let mut follower = follow_from_start(&app.base, &waiting.events_url).await;
    assert_eq!(app.delete("/api/scrape/waiting").await.status(), 202);
    let frames = follower.rest().await;
    let kinds: Vec<&str> = frames.iter().map(|f| f.event.as_str()).collect();
    assert_eq!(kinds, ["error", "complete"]);
    assert_eq!(frames[0].payload()["code"], "cancelled");
    let complete = frames[1].payload();
    assert_eq!(complete["status"], "cancelled");
    assert_eq!(complete["extracted_data"][&url], Value::Null);
    assert_eq!(session(&app.base, "waiting").await["status"], "cancelled");
    let listed: Value = app
        .get("/api/scrape?status=queued")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(listed["sessions"], json!([]));
    let started = Instant::now();
    while metric(&app.base, "scrape_agent_queue_depth").await != Some(0) {
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "depth back to 0"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(
        metric(&app.base, "scrape_agent_queue_claims_total").await,
        Some(0)
    );
    app.delete("/api/scrape/holding").await;
}

/// Two instances on one PostgreSQL, one slot each: a run queued on the busy one is claimed by
/// the other at once (woken by the enqueue's `NOTIFY`, well before a sweep), completes there,
/// and is followed to its end from the instance that queued it.
#[tokio::test]
async fn a_queued_run_is_taken_by_the_instance_with_room_postgres() {
    let Some(schema) = PgSchema::create("a_queued_run_is_taken_by_the_instance_with_room").await
    else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let one_slot = [("SCRAPE_AGENT__LIMITS__MAX_CONCURRENT_RUNS", "1")];
    let busy = Server::start_with(&schema.url, &one_slot).await;
    let idle = Server::start_with(&schema.url, &one_slot).await;
    let long: Vec<String> = (0..3)
        .map(|n| fixtures.url(&format!("/delay/1500/news.html?long={n}")))
        .collect();
    let holding = post_detached(&busy.base, "holding-pg", &long).await;
    assert_eq!(holding.status, Standing::Running);
    let url = fixtures.url("/delay/300/news.html?queued");
    let queued_at = Instant::now();
    let queued = post_detached(&busy.base, "moved-pg", std::slice::from_ref(&url)).await;
    assert_eq!(
        (queued.status, queued.position),
        (Standing::Queued, Some(1))
    );
    let mut follower = follow_from_start(&busy.base, &queued.events_url).await;
    let first = follower.next().await.expect("the queued run starts");
    let took = queued_at.elapsed();
    eprintln!("a queued run started on the instance with room {took:?} after it was queued");
    assert_eq!(first.event, "init");
    assert!(
        took < WOKEN_WITHIN,
        "woken by the enqueue, not found by a sweep: {took:?}"
    );
    let mut frames = vec![first];
    frames.extend(follower.rest().await);
    check_completed(&frames, &url);
    assert_eq!(
        metric(&idle.base, "scrape_agent_queue_claims_total").await,
        Some(1)
    );
    assert_eq!(
        metric(&busy.base, "scrape_agent_queue_claims_total").await,
        Some(0)
    );
    assert_eq!(
        metric(&busy.base, "scrape_agent_runs_queued_total").await,
        Some(1)
    );
    // The busy instance still runs its own: the queued one could only have gone elsewhere.
    assert_eq!(session(&idle.base, "holding-pg").await["status"], "running");
    drop(busy);
    drop(idle);
    schema.drop_schema().await;
}

/// How soon a run queued on one instance starts on another with room: well under the sweep
/// ([`scrape_agent::run::QUEUE_SWEEP`], 5 s), so only the `NOTIFY` can have woken it.
const WOKEN_WITHIN: Duration = Duration::from_millis(2500);
const _: () = assert!(WOKEN_WITHIN.as_millis() < scrape_agent::run::QUEUE_SWEEP.as_millis());

async fn store_at(url: &str) -> scrape_agent::store::Store {
    scrape_agent::store::Store::connect(&scrape_agent::settings::DatabaseSettings {
        url: url.to_owned(),
        max_connections: 2,
    })
    .await
    .unwrap()
}

/// The store's queue: positions count from the oldest, two claimers at the same moment each take
/// different runs (PostgreSQL: `FOR UPDATE SKIP LOCKED`), oldest first, under the first epoch and
/// with a lease; a run put back keeps its place.
async fn queued_runs_are_claimed_once_each_oldest_first(url: &str) {
    let queuing = store_at(url).await;
    let ids: Vec<String> = (1..=6).map(|n| format!("waiting-{n}")).collect();
    for (n, id) in ids.iter().enumerate() {
        let position = queuing
            .enqueue(id, &json!({"urls": ["https://example.com/"]}), true)
            .await
            .unwrap();
        assert_eq!(position, n as u64 + 1);
    }
    assert_eq!(queuing.queue_depth().await.unwrap(), 6);
    assert_eq!(queuing.queue_position("waiting-4").await.unwrap(), Some(4));
    let first = store_at(url).await;
    let second = store_at(url).await;
    let (a, b) = tokio::join!(first.claim_queued(2), second.claim_queued(2));
    let (a, b) = (a.unwrap(), b.unwrap());
    let mut claimed: Vec<&str> = a.iter().chain(&b).map(|c| c.id.as_str()).collect();
    claimed.sort_unstable();
    assert_eq!(
        claimed,
        ["waiting-1", "waiting-2", "waiting-3", "waiting-4"]
    );
    for (store, claims) in [(&first, &a), (&second, &b)] {
        let mine: Vec<&str> = claims.iter().map(|c| c.id.as_str()).collect();
        let mut sorted = mine.clone();
        sorted.sort_unstable();
        assert_eq!(mine, sorted, "oldest first");
        for claim in claims {
            assert_eq!(store.lease_epoch(&claim.id), Some(1));
            let (epoch, left) = store.lease_of(&claim.id).await.unwrap();
            assert_eq!(epoch, 1);
            assert!(left.is_some_and(|left| left > 5.0), "a fresh lease");
            assert_eq!(
                store.session(&claim.id).await.unwrap().status.as_str(),
                "running"
            );
        }
    }
    assert_eq!(queuing.queue_position("waiting-5").await.unwrap(), Some(1));
    assert_eq!(queuing.queue_position("waiting-1").await.unwrap(), None);
    // Put back before it wrote anything: the oldest again, and claimable.
    let back = &a[0].id;
    assert!(first.requeue(back).await.unwrap());
    assert!(!first.holds_lease(back));
    assert_eq!(queuing.queue_position(back).await.unwrap(), Some(1));
    let again = second.claim_queued(1).await.unwrap();
    assert_eq!(again.len(), 1);
    assert_eq!(&again[0].id, back);
    assert_eq!(second.lease_epoch(back), Some(2), "each claim a new epoch");
    assert_eq!(queuing.queue_depth().await.unwrap(), 2);
    for store in [queuing, first, second] {
        store.close().await;
    }
}

#[tokio::test]
async fn queued_runs_are_claimed_once_each_oldest_first_sqlite() {
    let dir = crate::support::TempDir::new();
    queued_runs_are_claimed_once_each_oldest_first(&dir.sqlite_url()).await;
}

#[tokio::test]
async fn queued_runs_are_claimed_once_each_oldest_first_postgres() {
    let Some(schema) = PgSchema::create("queued_runs_are_claimed_once_each_oldest_first").await
    else {
        return;
    };
    queued_runs_are_claimed_once_each_oldest_first(&schema.url).await;
    schema.drop_schema().await;
}

/// Firecrawl's batch scrape is detached work too: past capacity it waits in the queue (its
/// session says `queued`, Firecrawl's status `scraping`) and completes once the slot frees.
#[tokio::test]
async fn a_firecrawl_batch_past_capacity_waits_in_the_queue() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| s.limits.max_concurrent_runs = 1).await;
    let holding = post_detached(
        &app.base,
        "holding-fc",
        &[fixtures.url("/delay/1000/news.html")],
    )
    .await;
    assert_eq!(holding.status, Standing::Running);
    let started = app
        .post(
            "/v2/batch/scrape",
            &json!({"urls": [fixtures.url("/pages/news.html")]}),
        )
        .await;
    assert_eq!(started.status(), 200);
    let started: Value = started.json().await.unwrap();
    assert_eq!(started["success"], true);
    let id = started["id"].as_str().unwrap().to_owned();
    let waiting = session(&app.base, &id).await;
    assert_eq!(
        (&waiting["status"], &waiting["position"]),
        (&json!("queued"), &json!(1))
    );
    let path = format!("/v2/batch/scrape/{id}");
    let first: Value = app.get(&path).await.json().await.unwrap();
    assert_eq!(first["status"], "scraping", "{first:#}");
    let begun = Instant::now();
    let answer = loop {
        let answer: Value = app.get(&path).await.json().await.unwrap();
        if answer["status"] != "scraping" {
            break answer;
        }
        assert!(begun.elapsed() < Duration::from_secs(20), "{answer:#}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(answer["status"], "completed", "{answer:#}");
    assert!(!answer["data"].as_array().unwrap().is_empty(), "{answer:#}");
    assert_eq!(
        metric(&app.base, "scrape_agent_queue_claims_total").await,
        Some(1)
    );
}

/// The queue is rows in the store, not memory: a server killed (SIGKILL) with a run waiting
/// leaves it queued, and the next server on the same SQLite file starts it and completes it,
/// after the run that was executing, which it resumes first (it was cut off, not waiting).
#[tokio::test]
async fn a_queued_run_outlives_its_server_sqlite() {
    let fixtures = FixtureServer::start().await;
    let dir = crate::support::TempDir::new();
    let db = dir.sqlite_url();
    let one_slot = [("SCRAPE_AGENT__LIMITS__MAX_CONCURRENT_RUNS", "1")];
    let mut first = Server::start_with(&db, &one_slot).await;
    let late = fixtures.url("/delay/1500/news.html");
    let holding = post_detached(&first.base, "cut-off", std::slice::from_ref(&late)).await;
    assert_eq!(holding.status, Standing::Running);
    let url = fixtures.url("/pages/news.html");
    let waiting = post_detached(&first.base, "kept", std::slice::from_ref(&url)).await;
    assert_eq!(waiting.status, Standing::Queued);
    first.child.kill().expect("SIGKILL");
    first.child.wait().expect("the server is gone");
    drop(first);

    let second = Server::start_with(&db, &one_slot).await;
    let resumed = follow_from_start(&second.base, &holding.events_url)
        .await
        .rest()
        .await;
    check_completed(&resumed, &late);
    assert_eq!(
        resumed.iter().filter(|f| f.action() == "resume").count(),
        1,
        "resumed once"
    );
    let frames = follow_from_start(&second.base, &waiting.events_url)
        .await
        .rest()
        .await;
    check_completed(&frames, &url);
    assert!(
        !frames.iter().any(|f| f.action() == "resume"),
        "a queued run is started, not resumed"
    );
    // The one slot went to the run that was cut off first.
    let first_step = |frames: &[Frame]| {
        let step = frames.iter().find(|f| f.event == "step").expect("a step");
        chrono::DateTime::parse_from_rfc3339(step.payload()["timestamp"].as_str().unwrap()).unwrap()
    };
    assert!(first_step(&resumed) < first_step(&frames));
    assert_eq!(
        metric(&second.base, "scrape_agent_runs_resumed_total").await,
        Some(1)
    );
    assert_eq!(
        metric(&second.base, "scrape_agent_queue_claims_total").await,
        Some(1)
    );
    assert_eq!(
        metric(&second.base, "scrape_agent_queue_depth").await,
        Some(0)
    );
}
