//! Chaos (issue #34): three server processes on one PostgreSQL, many runs started across them,
//! and two of the instances killed (SIGKILL) at random moments while the runs are under way.
//! Every run still ends `completed` with every URL answered, and each run's follower — attached
//! to the instance that started it, and re-attached to a survivor with `Last-Event-ID` when
//! that one dies — sees every `seq` exactly once, in order, ending with `complete`.
//!
//! The moments are drawn from a seed printed by the test (`SCRAPE_AGENT_CHAOS_SEED` replays
//! one).

use std::sync::Arc;
use std::time::Duration;

use crate::durable::{check_stream, post_run};
use crate::support::postgres::PgSchema;
use crate::support::{FixtureServer, Frame, FrameReader, Server};

/// A small deterministic generator (xorshift64*), so a failing draw can be replayed.
struct Draw(u64);

impl Draw {
    fn from_env_or_clock() -> Self {
        let seed = std::env::var("SCRAPE_AGENT_CHAOS_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
                    | 1
            });
        eprintln!("chaos seed: {seed} (SCRAPE_AGENT_CHAOS_SEED={seed} replays it)");
        Self(seed)
    }

    /// A number in `lo..hi`.
    fn between(&mut self, lo: u64, hi: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        lo + self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % (hi - lo)
    }
}

/// Follows run `id` on `bases[0]`; when that stream is cut (its instance died) before
/// `complete`, attaches to the next base with `Last-Event-ID` of the last frame seen.
pub(crate) async fn follow_across(bases: Vec<String>, id: String) -> Vec<Frame> {
    let client = reqwest::Client::new();
    let mut frames: Vec<Frame> = Vec::new();
    for base in &bases {
        let mut request = client.get(format!("{base}/api/scrape/{id}/events"));
        if let Some(last) = frames.last() {
            request = request.header("Last-Event-ID", last.seq().to_string());
        }
        let Ok(response) = request.send().await else {
            continue;
        };
        let mut reader = FrameReader::new(response);
        while let Some(frame) = reader.next().await {
            let last = frame.event == "complete";
            frames.push(frame);
            if last {
                return frames;
            }
        }
    }
    frames
}

/// A run started and followed: its id, its URLs, and its follower's task.
pub(crate) type FollowedRun = (String, Vec<String>, tokio::task::JoinHandle<Vec<Frame>>);

/// Waits for every follower and checks each stream (every seq once, `completed`, every URL
/// answered once); the number of `resume` steps they saw.
pub(crate) async fn every_run_completed(runs: Vec<FollowedRun>) -> usize {
    let mut resumed = 0;
    for (id, urls, follower) in runs {
        let frames = tokio::time::timeout(Duration::from_secs(120), follower)
            .await
            .unwrap_or_else(|_| panic!("{id} ends in time"))
            .unwrap();
        check_stream(&frames, &urls, "completed");
        resumed += frames
            .iter()
            .filter(|f| f.event == "step" && f.action() == "resume")
            .count();
    }
    resumed
}

#[tokio::test]
async fn runs_survive_two_of_three_instances_killed_at_random_postgres() {
    let Some(schema) = PgSchema::create("runs_survive_two_of_three_instances_killed").await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let env = [("SCRAPE_AGENT__RUNS__LEASE_SECS", "3")];
    let mut instances = Vec::new();
    for _ in 0..3 {
        instances.push(Server::start_with(&schema.url, &env).await);
    }
    let bases: Vec<String> = instances.iter().map(|s| s.base.clone()).collect();
    let mut draw = Draw::from_env_or_clock();

    const RUNS: usize = 6;
    const URLS: usize = 6;
    let mut runs = Vec::new();
    for run in 0..RUNS {
        let id = format!("chaos-{run}");
        let urls: Vec<String> = (0..URLS)
            .map(|n| fixtures.url(&format!("/delay/900/news.html?run={run}&n={n}")))
            .collect();
        let home = run % 3;
        post_run(&bases[home], &id, &urls).await;
        // Followed where it started, then on the others (the last one is never killed).
        let order: Vec<String> = (0..3).map(|k| bases[(home + k) % 3].clone()).collect();
        let order = if home == 2 {
            order
        } else {
            let mut rest: Vec<String> = order.into_iter().filter(|b| *b != bases[2]).collect();
            rest.push(bases[2].clone());
            rest
        };
        let follower = tokio::spawn(follow_across(order, id.clone()));
        runs.push((id, urls, follower));
    }

    // Instances 0 and 1 die at random moments while the runs are under way.
    let victims = Arc::new(tokio::sync::Mutex::new(
        instances.drain(..2).collect::<Vec<_>>(),
    ));
    for victim in 0..2 {
        let wait = Duration::from_millis(draw.between(500, 4000));
        eprintln!("instance {victim} is killed {wait:?} after the runs started");
        let victims = victims.clone();
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            victims.lock().await[victim].child.kill().expect("SIGKILL");
        });
    }

    let resumed = every_run_completed(runs).await;
    // The kills fell while runs were under way (each run reads its pages for longer than the
    // latest kill), so some were taken over: the test is not vacuous.
    assert!(resumed >= 1, "no run was resumed");
    let survivor = &instances[0];
    let metrics = reqwest::get(format!("{}/metrics", survivor.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    eprintln!(
        "{}",
        metrics
            .lines()
            .filter(|l| l.contains("resumed") || l.contains("lease"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    drop(victims);
    drop(instances);
    schema.drop_schema().await;
}
