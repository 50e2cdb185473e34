//! The event path: each event stored (one transaction: counters + row) and then delivered to a
//! live subscriber, as the emitter does for every event of a run; and a replay from the store.
//!
//! SQLite always (a temp file, WAL); PostgreSQL too when `SCRAPE_AGENT_TEST_POSTGRES_URL` is
//! set (a private schema, dropped at the end).
//!
//! `cargo bench --bench events`; throughput is in events per second ("elem/s").
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use scrape_agent::events::{StepPayload, StepStatus, ToolCallDetails};
use scrape_agent::run::emitter::{Emitter, NewStep};
use scrape_agent::settings::DatabaseSettings;
use scrape_agent::store::Store;
use serde_json::json;
use sqlx::Connection;
use tokio::runtime::Runtime;
use tokio::sync::broadcast;

/// Events per measured run.
const EVENTS: u64 = 200;
/// Runs emitting at once in the parallel case.
const PARALLEL: u64 = 8;

/// A step about as large as a real `tool_call` step (~600 bytes of JSON).
fn step(n: u64) -> NewStep {
    NewStep {
        payload: StepPayload::ToolCall(ToolCallDetails {
            tool: "html.select".into(),
            tool_name: "html.select".into(),
            tool_description: Some("Select every element matching a CSS selector".into()),
            parameters: json!({"selector": "tr.athing .titleline > a", "limit": 30}),
            reasoning: Some("12 repeated items".into()),
            success: true,
            items: Some(2),
            result_preview: Some(
                "[{\"text\":\"Show HN: A tiny SQLite-backed job queue in Rust\"}, …]".into(),
            ),
            result: json!([{"text": "Show HN: A tiny SQLite-backed job queue in Rust", "href": "https://github.com/example/jobq"},
                           {"text": "The hidden cost of microservices at small scale", "href": "https://blog.example.org/x"}]),
            result_truncated: Some(false),
            error: None,
            duration_ms: Some(3),
            evidence: None,
        }),
        url: Some("https://news.example.com/".into()),
        status: StepStatus::Completed,
        message: format!("html.select matched {n} elements"),
        reward: 0.05,
        duration_ms: Some(3),
    }
}

/// One run's worth of events: stored, then received by a live subscriber. Returns the time
/// from the first emit to the subscriber receiving the last event.
async fn run_once(store: &Store) -> Duration {
    let id = uuid::Uuid::new_v4().to_string();
    store.create_session(&id, &json!({}), true).await.unwrap();
    let (live, mut receiver) = broadcast::channel(1024);
    let subscriber = tokio::spawn(async move {
        let mut received = 0;
        while received < EVENTS {
            if receiver.recv().await.is_ok() {
                received += 1;
            }
        }
    });
    let mut emitter = Emitter::new(id, store.clone(), live);
    let started = Instant::now();
    for n in 0..EVENTS {
        emitter.step(step(n)).await.unwrap();
    }
    subscriber.await.unwrap();
    started.elapsed()
}

fn bench_backend(c: &mut Criterion, rt: &Runtime, name: &str, store: &Store) {
    let mut group = c.benchmark_group(format!("events/{name}"));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(8));
    group.throughput(Throughput::Elements(EVENTS));
    group.bench_function("store_and_deliver", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    total += run_once(store).await;
                }
                total
            })
        });
    });
    group.throughput(Throughput::Elements(EVENTS * PARALLEL));
    group.bench_function(format!("store_and_deliver_{PARALLEL}_runs"), |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let started = Instant::now();
                for _ in 0..iters {
                    let runs: Vec<_> = (0..PARALLEL)
                        .map(|_| {
                            let store = store.clone();
                            tokio::spawn(async move { run_once(&store).await })
                        })
                        .collect();
                    for run in runs {
                        run.await.unwrap();
                    }
                }
                started.elapsed()
            })
        });
    });
    // Replay: what a reconnecting subscriber reads.
    let id = uuid::Uuid::new_v4().to_string();
    rt.block_on(async {
        store.create_session(&id, &json!({}), true).await.unwrap();
        let (live, _) = broadcast::channel(1);
        let mut emitter = Emitter::new(id.clone(), store.clone(), live);
        for n in 0..EVENTS {
            emitter.step(step(n)).await.unwrap();
        }
    });
    group.throughput(Throughput::Elements(EVENTS));
    group.bench_function("replay", |b| {
        b.iter(|| {
            rt.block_on(async {
                let events = store.events_after(&id, 0).await.unwrap();
                assert_eq!(events.len() as u64, EVENTS);
            })
        });
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let dir = std::env::temp_dir().join(format!("scrape-agent-bench-{}", uuid::Uuid::new_v4()));
    let sqlite = rt
        .block_on(Store::connect(&DatabaseSettings {
            url: format!("sqlite://{}/bench.db", dir.display()),
            max_connections: 8,
        }))
        .unwrap();
    bench_backend(c, &rt, "sqlite", &sqlite);
    rt.block_on(sqlite.close());
    let _ = std::fs::remove_dir_all(&dir);

    let Ok(base) = std::env::var("SCRAPE_AGENT_TEST_POSTGRES_URL") else {
        eprintln!("SKIPPED events/postgres: SCRAPE_AGENT_TEST_POSTGRES_URL is not set");
        return;
    };
    let schema = format!("bench_{}", uuid::Uuid::new_v4().simple());
    let admin = |sql: String| {
        let base = base.clone();
        rt.block_on(async move {
            let mut conn = sqlx::postgres::PgConnection::connect(&base).await.unwrap();
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .execute(&mut conn)
                .await
                .unwrap();
        });
    };
    admin(format!("CREATE SCHEMA {schema}"));
    let separator = if base.contains('?') { '&' } else { '?' };
    let postgres = rt
        .block_on(Store::connect(&DatabaseSettings {
            url: format!("{base}{separator}options=-c%20search_path%3D{schema}"),
            max_connections: 8,
        }))
        .unwrap();
    bench_backend(c, &rt, "postgres", &postgres);
    rt.block_on(postgres.close());
    admin(format!("DROP SCHEMA {schema} CASCADE"));
}

criterion_group!(event_path, benches);
criterion_main!(event_path);
