//! Webhooks for detached runs (issue #34, item 6): a signed POST when a run ends, sent from a
//! durable outbox in the store, retried with backoff, through the fetcher's address guard, and
//! accepted once — even when the instance that started sending it stops and another takes over.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use hmac::{Hmac, KeyInit, Mac};
use scrape_agent::events::{CompleteData, Event, EventType, RunMetrics, RunStatus};
use scrape_agent::run::webhooks::{DeliveryMetrics, Sender};
use scrape_agent::settings::{DatabaseSettings, Settings};
use scrape_agent::store::{DeliveryState, Store};
use scrape_agent::webhook::WebhookPayload;
use serde_json::{Value, json};
use sha2::Sha256;

use crate::support::postgres::PgSchema;
use crate::support::{FixtureServer, Server, TempDir, TestApp, error_code, spawn_app_with};

const SECRET: &str = "whsec-test-secret";

/// One POST the receiver got.
#[derive(Debug, Clone)]
struct Call {
    delivery: String,
    event: String,
    signature: String,
    body: Bytes,
    accepted: bool,
    at: Instant,
}

/// A local webhook receiver that answers 503 to its first `failures` POSTs (with
/// `Retry-After: <retry_after>` when given), then 200.
#[derive(Clone)]
struct Receiver {
    url: String,
    calls: Arc<Mutex<Vec<Call>>>,
}

type ReceiverState = (Arc<Mutex<Vec<Call>>>, usize, Option<&'static str>);

impl Receiver {
    async fn start(failures: usize) -> Self {
        Self::start_asking(failures, None).await
    }

    async fn start_asking(failures: usize, retry_after: Option<&'static str>) -> Self {
        let calls: Arc<Mutex<Vec<Call>>> = Arc::default();
        let shared: ReceiverState = (calls.clone(), failures, retry_after);
        let router = Router::new().route(
            "/hook",
            post(
                |State((calls, failures, retry_after)): State<ReceiverState>,
                 headers: HeaderMap,
                 body: Bytes| async move {
                    let header = |name: &str| {
                        headers
                            .get(name)
                            .and_then(|v| v.to_str().ok())
                            .unwrap_or_default()
                            .to_owned()
                    };
                    let mut calls = calls.lock().unwrap();
                    let accepted = calls.len() >= failures;
                    calls.push(Call {
                        delivery: header("x-scrape-agent-delivery"),
                        event: header("x-scrape-agent-event"),
                        signature: header("x-scrape-agent-signature"),
                        body,
                        accepted,
                        at: Instant::now(),
                    });
                    let mut answer = HeaderMap::new();
                    if let Some(wait) = retry_after.filter(|_| !accepted) {
                        answer.insert("retry-after", wait.parse().unwrap());
                    }
                    let status = if accepted {
                        StatusCode::OK
                    } else {
                        StatusCode::SERVICE_UNAVAILABLE
                    };
                    (status, answer)
                },
            ),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, router.with_state(shared)).await });
        Self {
            url: format!("http://{addr}/hook"),
            calls,
        }
    }

    fn calls(&self) -> Vec<Call> {
        self.calls.lock().unwrap().clone()
    }

    /// Waits until `done` holds for the calls received, or panics after `within`.
    async fn wait_for(&self, within: Duration, what: &str, done: impl Fn(&[Call]) -> bool) {
        let started = Instant::now();
        while !done(&self.calls()) {
            assert!(
                started.elapsed() < within,
                "{what} within {within:?}; calls: {:?}",
                self.calls()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// The receiver's own check of a signature header (`t=<ts>,v1=<hex>`), written here from the
/// documented scheme rather than with the server's helper.
fn signed_by_secret(header: &str, body: &[u8]) -> bool {
    let mut parts = header.split(',');
    let (Some(t), Some(v1)) = (
        parts.next().and_then(|p| p.strip_prefix("t=")),
        parts.next().and_then(|p| p.strip_prefix("v1=")),
    ) else {
        return false;
    };
    let Ok(timestamp) = t.parse::<i64>() else {
        return false;
    };
    if (chrono::Utc::now().timestamp() - timestamp).abs() > 300 {
        return false;
    }
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(SECRET.as_bytes()).unwrap();
    mac.update(format!("{timestamp}.").as_bytes());
    mac.update(body);
    hex::decode(v1).is_ok_and(|sig| mac.verify_slice(&sig).is_ok())
}

fn quick_webhooks(settings: &mut Settings) {
    settings.webhooks.secret = SECRET.into();
    settings.webhooks.backoff_ms = 100;
    settings.webhooks.poll_ms = 50;
    settings.webhooks.timeout_secs = 3;
}

/// A counter of the server's `/metrics` (0 when absent).
async fn metric(app: &TestApp, name: &str) -> f64 {
    let text = app.get("/metrics").await.text().await.unwrap();
    text.lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or(0.0)
}

async fn deliveries(app: &TestApp, id: &str) -> Vec<Value> {
    let response = app.get(&format!("/api/scrape/{id}/webhooks")).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    body["deliveries"].as_array().unwrap().clone()
}

/// A receiver that fails three times gets the run's end a fourth time and accepts it: exactly
/// one accepted delivery, every attempt the same delivery with a signature that verifies, a
/// typed body carrying the run's `complete`, and the outbox row marked delivered once.
#[tokio::test]
async fn a_receiver_that_fails_three_times_accepts_exactly_one_signed_delivery() {
    let fixtures = FixtureServer::start().await;
    let receiver = Receiver::start(3).await;
    let app = spawn_app_with(quick_webhooks).await;
    let page = fixtures.url("/pages/news.html");
    let body = json!({"urls": [&page], "instructions": "top 3 stories", "session_id": "hooked-1",
        "webhook": {"url": &receiver.url}});
    let response = app.post("/api/scrape", &body).await;
    assert_eq!(response.status(), 202, "{:?}", response.text().await);

    receiver
        .wait_for(Duration::from_secs(20), "an accepted delivery", |calls| {
            calls.iter().any(|c| c.accepted)
        })
        .await;
    // Time for a wrong extra attempt to show up.
    tokio::time::sleep(Duration::from_millis(600)).await;
    let calls = receiver.calls();
    assert_eq!(calls.len(), 4, "three refusals, one acceptance: {calls:?}");
    assert_eq!(calls.iter().filter(|c| c.accepted).count(), 1);
    assert!(
        calls
            .iter()
            .all(|c| c.delivery == calls[0].delivery && !c.delivery.is_empty()),
        "every attempt names the same delivery: {calls:?}"
    );
    for call in &calls {
        assert_eq!(call.event, "complete");
        assert!(
            signed_by_secret(&call.signature, &call.body),
            "signature {} does not verify",
            call.signature
        );
        assert!(
            !signed_by_secret(&call.signature, b"{}"),
            "a signature signs its body only"
        );
    }
    let payload: WebhookPayload = serde_json::from_slice(&calls[3].body).unwrap();
    let WebhookPayload::Complete {
        session_id,
        status,
        complete,
    } = payload
    else {
        panic!("a complete delivery: {:?}", calls[3].body);
    };
    assert_eq!(session_id, "hooked-1");
    assert_eq!(status, RunStatus::Completed);
    assert_eq!(complete.status, RunStatus::Completed);
    assert!(
        complete.extracted_data[&page].is_array() || complete.extracted_data[&page].is_object()
    );
    let stored = app
        .get("/api/scrape/hooked-1")
        .await
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(
        serde_json::to_value(&*complete).unwrap(),
        stored["result"],
        "the delivery carries the stored complete"
    );

    let listed = deliveries(&app, "hooked-1").await;
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["state"], "delivered");
    assert_eq!(listed[0]["attempts"], 4);
    assert_eq!(listed[0]["last_status"], 200);
    assert_eq!(listed[0]["id"].to_string(), calls[0].delivery);
    assert_eq!(
        metric(&app, "scrape_agent_webhook_deliveries_sent_total").await,
        1.0
    );
    assert_eq!(
        metric(&app, "scrape_agent_webhook_attempts_failed_total").await,
        3.0
    );
    assert_eq!(
        metric(&app, "scrape_agent_webhook_deliveries_failed_total").await,
        0.0
    );
}

/// A receiver that answers 503 with `Retry-After: 2` is left alone for two seconds, though
/// the backoff alone would have tried again after a tenth of one.
#[tokio::test]
async fn a_receiver_asking_to_wait_is_left_alone_that_long() {
    let fixtures = FixtureServer::start().await;
    let receiver = Receiver::start_asking(1, Some("2")).await;
    let app = spawn_app_with(quick_webhooks).await;
    let body = json!({"urls": [fixtures.url("/pages/news.html")], "instructions": "top 3 stories",
        "session_id": "hooked-wait", "webhook": {"url": &receiver.url}});
    assert_eq!(app.post("/api/scrape", &body).await.status(), 202);
    receiver
        .wait_for(Duration::from_secs(20), "an accepted delivery", |calls| {
            calls.iter().any(|c| c.accepted)
        })
        .await;
    let calls = receiver.calls();
    assert_eq!(calls.len(), 2, "{calls:?}");
    let gap = calls[1].at - calls[0].at;
    assert!(
        gap >= Duration::from_millis(1900) && gap < Duration::from_secs(5),
        "the second attempt came {gap:?} after the first"
    );
}

/// With `url_complete` asked for, each answered URL is announced with its answer, besides the
/// run's end: one delivery per event, in the outbox of the run.
#[tokio::test]
async fn url_complete_deliveries_carry_each_answer() {
    let fixtures = FixtureServer::start().await;
    let receiver = Receiver::start(0).await;
    let app = spawn_app_with(quick_webhooks).await;
    let urls = [
        fixtures.url("/pages/news.html"),
        fixtures.url("/pages/shop.html"),
    ];
    let body = json!({"urls": &urls, "instructions": "the title", "session_id": "hooked-2",
        "webhook": {"url": &receiver.url, "events": ["url_complete", "complete"]}});
    assert_eq!(app.post("/api/scrape", &body).await.status(), 202);
    receiver
        .wait_for(Duration::from_secs(20), "three deliveries", |calls| {
            calls.len() >= 3
        })
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let calls = receiver.calls();
    assert_eq!(calls.len(), 3, "{calls:?}");
    let mut announced = Vec::new();
    for call in &calls {
        assert!(signed_by_secret(&call.signature, &call.body));
        match serde_json::from_slice::<WebhookPayload>(&call.body).unwrap() {
            WebhookPayload::UrlComplete {
                session_id,
                url_complete,
                ..
            } => {
                assert_eq!(session_id, "hooked-2");
                announced.push(url_complete.url);
            }
            WebhookPayload::Complete { complete, .. } => {
                assert_eq!(complete.extracted_data.len(), 2);
            }
        }
    }
    announced.sort();
    let mut expected = urls.to_vec();
    expected.sort();
    assert_eq!(announced, expected);
    let listed = deliveries(&app, "hooked-2").await;
    assert_eq!(listed.len(), 3);
    assert!(
        listed.iter().all(|d| d["state"] == "delivered"),
        "{listed:?}"
    );
}

/// A webhook on an address the guard refuses is a 4xx before any run starts (an IP literal, or
/// a name that resolves to one), and the receiver is never called.
#[tokio::test]
async fn a_receiver_on_a_refused_address_is_never_called() {
    let receiver = Receiver::start(0).await;
    let port = receiver
        .url
        .split(':')
        .nth(2)
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    let app = spawn_app_with(|s| {
        quick_webhooks(s);
        s.fetch.allow_private_networks = false;
        s.fetch.resolve = vec!["hooks.example=127.0.0.1".into()];
    })
    .await;
    for hook in [
        receiver.url.clone(),
        format!("http://hooks.example:{port}/hook"),
        format!("http://localhost:{port}/hook"),
    ] {
        let body = json!({"urls": ["https://example.com/"], "instructions": "the title",
            "session_id": "refused-hook", "webhook": {"url": &hook}});
        let response = app.post("/api/scrape", &body).await;
        assert_eq!(response.status(), 400, "{hook}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(error["error"]["code"], "blocked_address", "{hook}: {error}");
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.contains("webhook"), "{message}");
    }
    assert_eq!(
        app.get("/api/scrape/refused-hook").await.status(),
        404,
        "no run started"
    );

    // Without a signing secret no webhook is taken at all.
    let unsigned = spawn_app_with(|_| {}).await;
    let body = json!({"urls": ["https://example.com/"], "instructions": "the title",
        "webhook": {"url": &receiver.url}});
    assert_eq!(
        error_code(unsigned.post("/api/scrape", &body).await).await,
        "webhooks_not_configured"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(receiver.calls().is_empty());
}

/// The guard holds at send time too (an address that changed since the run started): a
/// delivery whose receiver is refused is given up at once, its error kept, and nothing is sent.
#[tokio::test]
async fn a_delivery_refused_at_send_time_fails_with_its_error_and_sends_nothing() {
    let receiver = Receiver::start(0).await;
    let dir = TempDir::new();
    let store = Store::connect(&DatabaseSettings {
        url: dir.sqlite_url(),
        max_connections: 2,
    })
    .await
    .unwrap();
    finish_with_webhook(&store, "late-refusal", &receiver.url).await;
    let mut settings = Settings::defaults();
    quick_webhooks(&mut settings);
    let sender = Sender::new(
        store.clone(),
        scrape_agent::fetch::Fetcher::new(&settings.fetch).unwrap(),
        settings.webhooks.clone(),
        DeliveryMetrics::default(),
    );
    assert_eq!(sender.send_due().await.unwrap(), 1);
    let listed = store.deliveries("late-refusal").await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].state, DeliveryState::Failed);
    assert_eq!(listed[0].attempts, 1);
    let error = listed[0].last_error.clone().unwrap_or_default();
    assert!(error.contains("127.0.0.1"), "{error}");
    assert_eq!(
        sender.send_due().await.unwrap(),
        0,
        "a failed delivery is not claimed again"
    );
    assert!(receiver.calls().is_empty());
}

/// A session finished with a `complete` whose request names `hook`: its delivery is in the
/// outbox.
async fn finish_with_webhook(store: &Store, id: &str, hook: &str) {
    let request = json!({"urls": ["https://example.com/"], "webhook": {"url": hook}});
    store.create_session(id, &request, true).await.unwrap();
    let complete = CompleteData {
        session_id: id.to_owned(),
        status: RunStatus::Completed,
        extracted_data: serde_json::Map::new(),
        output: String::new(),
        output_format: "json".into(),
        total_steps: 0,
        total_reward: 0.0,
        duration_ms: 1,
        urls_processed: 0,
        urls_failed: 0,
        errors: Vec::new(),
        empty_fields: serde_json::Map::new(),
        metrics: RunMetrics::default(),
    };
    store
        .append_event(&Event {
            kind: EventType::Complete,
            session_id: id.to_owned(),
            seq: 1,
            data: serde_json::to_value(complete).unwrap(),
        })
        .await
        .unwrap();
}

/// Two senders on one database: a claimed delivery is leased, so the second finds nothing to
/// send until the first's claim runs out.
async fn a_claimed_delivery_is_not_claimed_twice(url: &str) {
    let connect = || async {
        Store::connect(&DatabaseSettings {
            url: url.to_owned(),
            max_connections: 2,
        })
        .await
        .unwrap()
    };
    let (one, two) = (connect().await, connect().await);
    finish_with_webhook(&one, "leased-hook", "http://hooks.example/").await;
    let lease = Duration::from_secs(1);
    let (a, b) = tokio::join!(
        one.claim_deliveries(8, lease),
        two.claim_deliveries(8, lease)
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a.len() + b.len(), 1, "one claimer: {a:?} {b:?}");
    assert!(two.claim_deliveries(8, lease).await.unwrap().is_empty());
    tokio::time::sleep(Duration::from_millis(1300)).await;
    let again = two.claim_deliveries(8, lease).await.unwrap();
    assert_eq!(again.len(), 1, "claimable again once its lease ran out");
    let first = a.into_iter().chain(b).next().unwrap();
    assert!(
        !one.finish_delivery(
            &first,
            &scrape_agent::store::DeliveryOutcome::Delivered { status: 200 }
        )
        .await
        .unwrap(),
        "an expired claim cannot mark the row"
    );
    assert!(
        two.finish_delivery(
            &again[0],
            &scrape_agent::store::DeliveryOutcome::Delivered { status: 200 }
        )
        .await
        .unwrap()
    );
    let listed = two.deliveries("leased-hook").await.unwrap();
    assert_eq!(listed[0].state, DeliveryState::Delivered);
    assert_eq!(listed[0].attempts, 1);
}

#[tokio::test]
async fn a_claimed_delivery_is_not_claimed_twice_sqlite() {
    let dir = TempDir::new();
    a_claimed_delivery_is_not_claimed_twice(&dir.sqlite_url()).await;
}

#[tokio::test]
async fn a_claimed_delivery_is_not_claimed_twice_postgres() {
    let Some(schema) = PgSchema::create("a_claimed_delivery_is_not_claimed_twice").await else {
        return;
    };
    a_claimed_delivery_is_not_claimed_twice(&schema.url).await;
    schema.drop_schema().await;
}

/// The instance sending a delivery is killed (SIGKILL) between two attempts: the next
/// instance on the same store sends the retries, and the receiver accepts the delivery once,
/// every attempt naming the same delivery and signed with the shared secret.
async fn a_delivery_outlives_the_instance_sending_it(db: &str) {
    let fixtures = FixtureServer::start().await;
    let receiver = Receiver::start(2).await;
    // Retries 1.5 s apart: the kill lands between the first attempt and the second.
    let env = [
        ("SCRAPE_AGENT__WEBHOOKS__SECRET", SECRET),
        ("SCRAPE_AGENT__WEBHOOKS__BACKOFF_MS", "1500"),
        ("SCRAPE_AGENT__WEBHOOKS__POLL_MS", "50"),
        ("SCRAPE_AGENT__WEBHOOKS__TIMEOUT_SECS", "1"),
    ];
    let mut first = Server::start_with(db, &env).await;
    let body = json!({"urls": [fixtures.url("/pages/news.html")], "instructions": "top 3 stories",
        "session_id": "hooked-killed", "webhook": {"url": &receiver.url}});
    let started = reqwest::Client::new()
        .post(format!("{}/api/scrape", first.base))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(started.status(), 202);
    receiver
        .wait_for(Duration::from_secs(20), "a first attempt", |calls| {
            !calls.is_empty()
        })
        .await;
    // Time to record the refused attempt (else its claim runs out first, timeout + 10 s).
    tokio::time::sleep(Duration::from_millis(300)).await;
    first.child.kill().expect("SIGKILL");
    first.child.wait().unwrap();
    assert_eq!(receiver.calls().len(), 1, "killed between attempts");

    let second = Server::start_with(db, &env).await;
    receiver
        .wait_for(Duration::from_secs(30), "an accepted delivery", |calls| {
            calls.iter().any(|c| c.accepted)
        })
        .await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    let calls = receiver.calls();
    assert_eq!(calls.len(), 3, "two refusals, one acceptance: {calls:?}");
    assert_eq!(calls.iter().filter(|c| c.accepted).count(), 1);
    for call in &calls {
        assert_eq!(call.delivery, calls[0].delivery, "one delivery: {calls:?}");
        assert!(signed_by_secret(&call.signature, &call.body));
    }
    let listed: Vec<Value> =
        reqwest::get(format!("{}/api/scrape/hooked-killed/webhooks", second.base))
            .await
            .unwrap()
            .json::<Value>()
            .await
            .unwrap()["deliveries"]
            .as_array()
            .cloned()
            .unwrap_or_default();
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["state"], "delivered");
    assert_eq!(listed[0]["attempts"], 3);
}

#[tokio::test]
async fn a_delivery_outlives_the_instance_sending_it_sqlite() {
    let dir = TempDir::new();
    a_delivery_outlives_the_instance_sending_it(&dir.sqlite_url()).await;
}

#[tokio::test]
async fn a_delivery_outlives_the_instance_sending_it_postgres() {
    let Some(schema) = PgSchema::create("a_delivery_outlives_the_instance_sending_it").await else {
        return;
    };
    a_delivery_outlives_the_instance_sending_it(&schema.url).await;
    schema.drop_schema().await;
}

/// Waits until nothing answers at `base` any more (the server's listener closed).
async fn wait_until_down(base: &str) {
    let started = Instant::now();
    let client = reqwest::Client::new();
    while client.get(format!("{base}/healthz")).send().await.is_ok() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{base} still answers"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// On PostgreSQL, the instance that began sending a delivery stops between two attempts; another
/// instance started on the same database sends the rest and the receiver accepts it once.
#[tokio::test]
async fn another_instance_delivers_what_a_stopped_one_began_postgres() {
    let Some(schema) = PgSchema::create("another_instance_delivers_what_a_stopped_one_began").await
    else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let receiver = Receiver::start(3).await;
    let settings = |url: String| {
        move |s: &mut Settings| {
            quick_webhooks(s);
            // Long enough between attempts to stop the first instance in between.
            s.webhooks.backoff_ms = 1500;
            s.database.url = url;
        }
    };
    let first = spawn_app_with(settings(schema.url.clone())).await;
    let body = json!({"urls": [fixtures.url("/pages/news.html")], "instructions": "top 3 stories",
        "session_id": "handed-hook", "webhook": {"url": &receiver.url}});
    assert_eq!(first.post("/api/scrape", &body).await.status(), 202);
    receiver
        .wait_for(Duration::from_secs(20), "a first attempt", |calls| {
            !calls.is_empty()
        })
        .await;
    let base = first.base.clone();
    drop(first);
    wait_until_down(&base).await;
    let tried_by_first = receiver.calls().len();
    assert!(
        tried_by_first < 4,
        "the first instance stopped before it was accepted"
    );

    let second = spawn_app_with(settings(schema.url.clone())).await;
    receiver
        .wait_for(Duration::from_secs(30), "an accepted delivery", |calls| {
            calls.iter().any(|c| c.accepted)
        })
        .await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    let calls = receiver.calls();
    assert_eq!(calls.len(), 4, "{calls:?}");
    assert_eq!(calls.iter().filter(|c| c.accepted).count(), 1);
    assert!(calls.iter().all(|c| c.delivery == calls[0].delivery));
    assert!(
        calls
            .iter()
            .all(|c| signed_by_secret(&c.signature, &c.body))
    );
    assert_eq!(
        metric(&second, "scrape_agent_webhook_deliveries_sent_total").await,
        1.0,
        "the second instance delivered it"
    );
    let listed = deliveries(&second, "handed-hook").await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["state"], "delivered");
    assert_eq!(listed[0]["attempts"], 4);
    drop(second);
    schema.drop_schema().await;
}
