//! Durable runs (issue #34): leases with epochs. A run is held under an epoch that grows with
//! every claim and a lease that expires on the database's clock; every write is fenced by the
//! epoch, and a holder that loses its lease stops at once. A run whose lease expired (or was
//! handed back at shutdown) is claimed by another instance and resumed where it stopped.

use std::time::Duration;

use scrape_agent::events::{Event, EventType};
use scrape_agent::settings::DatabaseSettings;
use scrape_agent::store::{Store, StoreError};
use serde_json::json;
use sqlx::Connection;

use crate::support::postgres::PgSchema;
use crate::support::{FixtureServer, Frame, FrameReader, Server, TempDir, spawn_app_with};

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

/// Every event write finds its session through the unique `id` index, however many sessions
/// are running: on a table without statistics yet, PostgreSQL had scanned every running
/// session's entry in `sessions_status_n` for each event (the events bench read 348 index
/// entries per event).
#[tokio::test]
async fn an_event_write_reads_its_own_session_only_postgres() {
    let Some(schema) = PgSchema::create("an_event_write_reads_its_own_session_only").await else {
        return;
    };
    const RUNNING: usize = 200;
    const EVENTS: u64 = 50;
    // One connection, so one backend makes every write and reports them together.
    let store = Store::connect(&DatabaseSettings {
        url: schema.url.clone(),
        max_connections: 1,
    })
    .await
    .unwrap();
    for n in 0..RUNNING {
        store
            .create_session(&format!("running-{n}"), &json!({}), true)
            .await
            .unwrap();
    }
    for seq in 1..EVENTS {
        store.append_event(&event("running-0", seq)).await.unwrap();
    }
    // A backend reports its statistics at the end of a transaction a second after its last
    // report (else ten seconds after going idle): the last write, a second later, sends them.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    store
        .append_event(&event("running-0", EVENTS))
        .await
        .unwrap();
    let mut conn = sqlx::postgres::PgConnection::connect(&schema.url)
        .await
        .unwrap();
    let (mut by_id, mut by_status) = (0_i64, 0_i64);
    for _ in 0..150 {
        (by_id, by_status) = sqlx::query_as(
            "SELECT COALESCE(SUM(idx_scan) FILTER (WHERE indexrelname = 'sessions_id_key'), 0)::bigint, \
             COALESCE(SUM(idx_tup_read) FILTER (WHERE indexrelname = 'sessions_status_n'), 0)::bigint \
             FROM pg_stat_user_indexes WHERE schemaname = current_schema()",
        )
        .fetch_one(&mut conn)
        .await
        .unwrap();
        if by_id >= i64::try_from(EVENTS).unwrap() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        by_id >= i64::try_from(EVENTS).unwrap(),
        "every write looked its session up by id ({by_id} lookups for {EVENTS} events)"
    );
    assert!(
        by_status < i64::try_from(RUNNING).unwrap(),
        "{EVENTS} writes read {by_status} entries of the status index over {RUNNING} running sessions"
    );
    store.close().await;
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

/// Two instances claim the runs whose leases expired at the same moment: each run goes to one
/// of them (`FOR UPDATE SKIP LOCKED`), under the next epoch and one more attempt, with what it
/// needs to resume (its stored events and answers), and the holder that let it expire can no
/// longer write to it.
#[tokio::test]
async fn expired_leases_are_claimed_once_each_postgres() {
    let Some(schema) = PgSchema::create("expired_leases_are_claimed_once_each").await else {
        return;
    };
    let gone = store_at(&schema.url, Duration::from_secs(1)).await;
    let ids: Vec<String> = (1..=6).map(|n| format!("expired-{n}")).collect();
    for id in &ids {
        gone.create_session(id, &json!({"urls": ["https://example.com/"]}), true)
            .await
            .unwrap();
        gone.append_event(&event(id, 1)).await.unwrap();
    }
    let first = store_at(&schema.url, Duration::from_secs(10)).await;
    let second = store_at(&schema.url, Duration::from_secs(10)).await;
    assert!(
        first.claim_expired(10, &[]).await.unwrap().is_empty(),
        "a lease that has not expired is not claimed"
    );
    tokio::time::sleep(Duration::from_millis(1300)).await;
    let (a, b) = tokio::join!(first.claim_expired(10, &[]), second.claim_expired(10, &[]));
    let (a, b) = (a.unwrap(), b.unwrap());
    let mut claimed: Vec<String> = a.iter().chain(&b).map(|c| c.id.clone()).collect();
    claimed.sort();
    assert_eq!(claimed, ids, "every expired run claimed exactly once");
    for claim in a.iter().chain(&b) {
        assert_eq!((claim.epoch, claim.attempts), (2, 2), "{}", claim.id);
        assert_eq!(claim.previous_owner.as_deref(), Some(gone.instance()));
        assert_eq!(
            claim.reason,
            scrape_agent::events::ResumeReason::LeaseExpired
        );
        assert_eq!(claim.events.len(), 1, "its stored events come with it");
    }
    for claim in &a {
        assert!(first.holds_lease(&claim.id) && !second.holds_lease(&claim.id));
    }
    let refused = gone.append_event(&event(&ids[0], 2)).await;
    assert!(
        matches!(refused, Err(StoreError::NotOwner(_))),
        "{refused:?}"
    );
    assert!(
        first.claim_expired(10, &[]).await.unwrap().is_empty()
            && second.claim_expired(10, &[]).await.unwrap().is_empty(),
        "claimed runs hold fresh leases"
    );
    // A lease handed back is free at once, and the next claim says so.
    let handed = a.first().or(b.first()).unwrap();
    let holder = if first.holds_lease(&handed.id) {
        &first
    } else {
        &second
    };
    assert_eq!(
        holder
            .hand_back(std::slice::from_ref(&handed.id))
            .await
            .unwrap(),
        1
    );
    assert!(!holder.holds_lease(&handed.id));
    assert!(
        gone.claim_expired(10, std::slice::from_ref(&handed.id))
            .await
            .unwrap()
            .is_empty(),
        "a run still executing in the claiming process is left alone"
    );
    let again = gone.claim_expired(10, &[]).await.unwrap();
    assert_eq!(again.len(), 1);
    assert_eq!(
        (again[0].reason, again[0].attempts),
        (scrape_agent::events::ResumeReason::HandedBack, 3)
    );
    for store in [gone, first, second] {
        store.close().await;
    }
    schema.drop_schema().await;
}

/// The frames of a run followed on `base` from its start to its end, and when the `resume`
/// step arrived.
async fn follow_to_end(
    base: &str,
    id: &str,
    act_after_urls: usize,
    act: impl FnOnce(),
) -> (Vec<Frame>, std::time::Instant, Option<std::time::Instant>) {
    let response = reqwest::Client::new()
        .get(format!("{base}/api/scrape/{id}/events"))
        .send()
        .await
        .expect("the follower connects");
    let mut reader = FrameReader::new(response);
    let mut frames = Vec::new();
    let mut act = Some(act);
    let mut acted_at = std::time::Instant::now();
    let mut resumed_at = None;
    let mut done = 0;
    while let Some(frame) = reader.next().await {
        if frame.event == "url_complete" {
            done += 1;
        }
        if frame.event == "step" && frame.action() == "resume" && resumed_at.is_none() {
            resumed_at = Some(std::time::Instant::now());
        }
        let last = frame.event == "complete";
        frames.push(frame);
        if done == act_after_urls
            && let Some(act) = act.take()
        {
            acted_at = std::time::Instant::now();
            act();
        }
        if last {
            break;
        }
    }
    (frames, acted_at, resumed_at)
}

/// What every takeover test checks of the stream a follower saw: each seq once, in order,
/// ending with `complete` of status `status`; each URL finished once when `completed`.
pub(crate) fn check_stream(frames: &[Frame], urls: &[String], status: &str) {
    let n = frames.len() as u64;
    assert_eq!(
        frames.iter().map(Frame::seq).collect::<Vec<_>>(),
        (1..=n).collect::<Vec<_>>(),
        "every seq once, in order: {:?}",
        frames.iter().map(|f| f.event.as_str()).collect::<Vec<_>>()
    );
    let complete = frames.last().unwrap();
    assert_eq!(complete.event, "complete");
    assert_eq!(
        complete.payload()["status"],
        status,
        "{}",
        complete.payload()
    );
    if status == "completed" {
        for url in urls {
            let finished = frames
                .iter()
                .filter(|f| f.event == "url_complete" && f.payload()["url"] == *url)
                .count();
            assert_eq!(finished, 1, "{url} finished once");
            let answer = &complete.payload()["extracted_data"][url];
            assert!(
                answer.is_array() || answer.is_object(),
                "{url} answered: {answer}"
            );
        }
    }
}

/// Starts a detached run of `urls` on the instance at `base`.
pub(crate) async fn post_run(base: &str, id: &str, urls: &[String]) {
    let body = json!({"urls": urls, "instructions": "top 3 stories", "session_id": id});
    let started = reqwest::Client::new()
        .post(format!("{base}/api/scrape"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(started.status(), 202);
}

/// Two instances on `db` (with `env`): a run of `urls` started on the first, followed on the
/// second, and the first killed (SIGKILL) once `after` URLs finished. The follower's frames,
/// when the kill happened, when a `resume` step arrived, and the surviving instance.
async fn kill_mid_run(
    db: &str,
    env: &[(&str, &str)],
    id: &str,
    urls: &[String],
    after: usize,
) -> (
    Vec<Frame>,
    std::time::Instant,
    Option<std::time::Instant>,
    Server,
) {
    let mut doomed = Server::start_with(db, env).await;
    let survivor = Server::start_with(db, env).await;
    post_run(&doomed.base, id, urls).await;
    let doomed_child = &mut doomed.child;
    let (frames, killed_at, resumed_at) = follow_to_end(&survivor.base, id, after, || {
        doomed_child.kill().expect("SIGKILL");
    })
    .await;
    drop(doomed);
    (frames, killed_at, resumed_at, survivor)
}

fn slow_urls(fixtures: &FixtureServer, count: usize) -> Vec<String> {
    (0..count)
        .map(|n| fixtures.url(&format!("/delay/700/news.html?n={n}")))
        .collect()
}

/// Two server processes on one PostgreSQL: the one running a run is killed (SIGKILL) mid-run;
/// the other claims it once its lease expires and resumes it from the first URL without a
/// stored answer. Its follower (on the survivor) sees every seq once, a `resume` step naming
/// both instances, and `complete` with every URL answered, each URL finished once.
#[tokio::test]
async fn a_run_of_a_killed_instance_is_resumed_by_another_postgres() {
    let Some(schema) = PgSchema::create("a_run_of_a_killed_instance_is_resumed").await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let lease = [("SCRAPE_AGENT__RUNS__LEASE_SECS", "3")];
    let urls = slow_urls(&fixtures, 6);
    let (frames, killed_at, resumed_at, survivor) =
        kill_mid_run(&schema.url, &lease, "killed-1", &urls, 2).await;
    check_stream(&frames, &urls, "completed");
    let resumed_at = resumed_at.expect("a resume step");
    let took = resumed_at - killed_at;
    eprintln!("resumed {took:?} after the kill (lease 3 s)");
    // The survivor claims the run at its first look after the lease ends; alone that is
    // 4–4.5 s, and the whole api suite running beside it has pushed it to 5.4 s.
    assert!(
        took <= Duration::from_secs(3 + 3),
        "resumed within the lease + 3 s: {took:?}"
    );
    let resumes: Vec<&Frame> = frames.iter().filter(|f| f.action() == "resume").collect();
    assert_eq!(resumes.len(), 1);
    let details = &resumes[0].payload()["extracted_data"];
    assert_eq!(details["reason"], "lease_expired");
    assert_eq!(details["attempt"], 2);
    assert_eq!(details["epoch"], 2);
    assert!(details["previous_instance"].is_string());
    assert_ne!(details["previous_instance"], details["instance"]);
    let answered = details["urls_answered"].as_u64().unwrap();
    assert!(
        answered >= 2,
        "URLs answered before the kill are kept: {details}"
    );
    assert_eq!(details["urls_left"].as_u64().unwrap(), 6 - answered);
    // Those URLs were not worked on again: one `url_start` each.
    for url in &urls[..2] {
        let starts = frames
            .iter()
            .filter(|f| f.event == "url_start" && f.payload()["url"] == *url)
            .count();
        assert_eq!(starts, 1, "{url} started once");
    }
    let metrics = reqwest::get(format!("{}/metrics", survivor.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("scrape_agent_runs_resumed_total 1"),
        "{metrics}"
    );
    drop(survivor);
    schema.drop_schema().await;
}

/// Graceful shutdown hands the runs back: another instance resumes them at once, well before
/// the (default, 10 s) lease would have run out.
#[tokio::test]
async fn a_graceful_shutdown_hands_its_runs_to_another_instance_postgres() {
    let Some(schema) = PgSchema::create("a_graceful_shutdown_hands_its_runs").await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let leaving = Server::start(&schema.url).await;
    let staying = Server::start(&schema.url).await;
    let urls = slow_urls(&fixtures, 5);
    post_run(&leaving.base, "handed-1", &urls).await;
    let (frames, stopped_at, resumed_at) = follow_to_end(&staying.base, "handed-1", 1, || {
        let status = std::process::Command::new("kill")
            .args(["-TERM", &leaving.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
    })
    .await;
    check_stream(&frames, &urls, "completed");
    let took = resumed_at.expect("a resume step") - stopped_at;
    eprintln!("resumed {took:?} after SIGTERM (lease 10 s)");
    assert!(
        took < Duration::from_secs(4),
        "resumed at once, not after the 10 s lease: {took:?}"
    );
    let resume = frames.iter().find(|f| f.action() == "resume").unwrap();
    assert_eq!(resume.payload()["extracted_data"]["reason"], "handed_back");
    drop(leaving);
    drop(staying);
    schema.drop_schema().await;
}

/// A run whose instances keep dying is not resumed forever: past `runs.max_attempts` claims it
/// is closed with the typed error `too_many_attempts`, its stored answers kept.
#[tokio::test]
async fn a_run_past_its_attempts_is_closed_with_a_typed_error_postgres() {
    let Some(schema) = PgSchema::create("a_run_past_its_attempts_is_closed").await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let env = [
        ("SCRAPE_AGENT__RUNS__LEASE_SECS", "2"),
        ("SCRAPE_AGENT__RUNS__MAX_ATTEMPTS", "1"),
    ];
    let urls = slow_urls(&fixtures, 4);
    let (frames, _, resumed_at, survivor) =
        kill_mid_run(&schema.url, &env, "tired-1", &urls, 1).await;
    assert!(resumed_at.is_none(), "not resumed");
    check_stream(&frames, &urls, "failed");
    let error = &frames[frames.len() - 2];
    assert_eq!(error.event, "error");
    assert_eq!(error.payload()["code"], "too_many_attempts");
    let complete = frames.last().unwrap().payload();
    let first = &complete["extracted_data"][&urls[0]];
    assert!(first.is_array() || first.is_object(), "kept: {first}");
    drop(survivor);
    schema.drop_schema().await;
}

/// A server on the SQLite file `db` (with `env`) runs `urls` detached, followed there until the
/// first `url_complete` is stored (a follower sees only stored events), and is then killed
/// (SIGKILL); a new server is started on the same file. The frames seen before the kill, and the
/// new server.
async fn kill_and_restart_sqlite(
    db: &str,
    env: &[(&str, &str)],
    id: &str,
    urls: &[String],
) -> (Vec<Frame>, Server) {
    let mut first = Server::start_with(db, env).await;
    post_run(&first.base, id, urls).await;
    let response = reqwest::get(format!("{}/api/scrape/{id}/events", first.base))
        .await
        .expect("the follower connects");
    let seen = FrameReader::new(response)
        .until(|f| f.event == "url_complete")
        .await;
    first.child.kill().expect("SIGKILL");
    first.child.wait().expect("the server is gone");
    drop(first);
    (seen, Server::start_with(db, env).await)
}

/// The rest of run `id` on `base`, after the last of the frames `seen` (`Last-Event-ID`), to
/// its `complete`: what a client that lost its connection with the dead server reads next.
async fn follow_after(base: &str, id: &str, seen: &[Frame]) -> Vec<Frame> {
    let last = seen.last().map_or(0, Frame::seq);
    let response = reqwest::Client::new()
        .get(format!("{base}/api/scrape/{id}/events"))
        .header("Last-Event-ID", last.to_string())
        .send()
        .await
        .expect("the follower connects");
    tokio::time::timeout(
        Duration::from_secs(60),
        FrameReader::new(response).until(|f| f.event == "complete"),
    )
    .await
    .expect("the run ends in time")
}

/// One server on a SQLite file, killed (SIGKILL) after the first URL of a detached run is
/// answered: the next server on the file resumes the run instead of closing it. Across both
/// processes a client sees every seq once, one `resume` step (reason `restarted`, attempt 2,
/// naming both servers), and `complete` with every URL answered; the URLs answered before the
/// kill were fetched once only.
#[tokio::test]
async fn a_run_cut_off_by_a_kill_is_resumed_at_the_next_start_sqlite() {
    let fixtures = FixtureServer::start().await;
    let dir = TempDir::new();
    let id = "restarted-1";
    let urls = slow_urls(&fixtures, 5);
    let (mut frames, second) = kill_and_restart_sqlite(&dir.sqlite_url(), &[], id, &urls).await;
    frames.extend(follow_after(&second.base, id, &frames).await);
    check_stream(&frames, &urls, "completed");
    let resumes: Vec<&Frame> = frames.iter().filter(|f| f.action() == "resume").collect();
    assert_eq!(resumes.len(), 1, "one resume step");
    let details = &resumes[0].payload()["extracted_data"];
    assert_eq!(details["reason"], "restarted", "{details}");
    assert_eq!(
        (&details["attempt"], &details["epoch"]),
        (&json!(2), &json!(2))
    );
    assert!(details["previous_instance"].is_string(), "{details}");
    assert_ne!(details["previous_instance"], details["instance"]);
    // What the dead server answered: the `url_complete`s stored before the resume step.
    let resumed_at = frames.iter().position(|f| f.action() == "resume").unwrap();
    let answered: Vec<&str> = frames[..resumed_at]
        .iter()
        .filter(|f| f.event == "url_complete")
        .filter_map(|f| f.payload()["url"].as_str())
        .collect();
    assert!(!answered.is_empty());
    assert_eq!(details["urls_answered"], answered.len(), "{details}");
    assert_eq!(
        details["urls_left"],
        urls.len() - answered.len(),
        "{details}"
    );
    for url in &urls {
        let hits = fixtures.hits(url);
        if answered.contains(&url.as_str()) {
            assert_eq!(
                hits, 1,
                "{url}, answered before the kill, is not fetched again"
            );
        } else {
            assert!(hits >= 1, "{url} fetched");
        }
    }
    let session: serde_json::Value = reqwest::get(format!("{}/api/scrape/{id}", second.base))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(session["status"], "completed", "{session}");
    drop(second);
}

/// On SQLite too a run is resumed at most `runs.max_attempts` times: with one attempt, the
/// run cut off by a kill is closed at the next start with `too_many_attempts`, its answers
/// kept, and never fetched again.
#[tokio::test]
async fn a_run_past_its_attempts_is_closed_at_the_next_start_sqlite() {
    let fixtures = FixtureServer::start().await;
    let dir = TempDir::new();
    let id = "tired-sqlite-1";
    let env = [("SCRAPE_AGENT__RUNS__MAX_ATTEMPTS", "1")];
    let urls = slow_urls(&fixtures, 4);
    let (mut frames, second) = kill_and_restart_sqlite(&dir.sqlite_url(), &env, id, &urls).await;
    let fetched: Vec<usize> = urls.iter().map(|url| fixtures.hits(url)).collect();
    frames.extend(follow_after(&second.base, id, &frames).await);
    check_stream(&frames, &urls, "failed");
    assert!(
        !frames.iter().any(|f| f.action() == "resume"),
        "not resumed"
    );
    let error = &frames[frames.len() - 2];
    assert_eq!(error.event, "error");
    assert_eq!(error.payload()["code"], "too_many_attempts");
    let complete = frames.last().unwrap().payload();
    let first = &complete["extracted_data"][&urls[0]];
    assert!(first.is_array() || first.is_object(), "kept: {first}");
    let after: Vec<usize> = urls.iter().map(|url| fixtures.hits(url)).collect();
    assert_eq!(after, fetched, "nothing fetched after the restart");
    drop(second);
}

/// A request as a server on `db` stores it: `body` (with instructions and an id added) run
/// there to its end.
async fn stored_request(db: &str, mut body: serde_json::Value) -> serde_json::Value {
    body["instructions"] = json!("top 3 stories");
    body["session_id"] = json!("template-1");
    let template = Server::start(db).await;
    let started = reqwest::Client::new()
        .post(format!("{}/api/scrape", template.base))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(started.status(), 202);
    follow_to_end(&template.base, "template-1", usize::MAX, || {}).await;
    drop(template);
    let store = store_at(db, Duration::from_secs(10)).await;
    let request = store.session("template-1").await.unwrap().request;
    store.close().await;
    request
}

/// Sessions of `request` as a server killed right after creating them leaves them: running,
/// held by nobody, without a single event. `runs`: (session id, detached).
async fn leave_running(db: &str, mut request: serde_json::Value, runs: &[(&str, bool)]) {
    let store = store_at(db, Duration::from_secs(10)).await;
    for (id, detached) in runs {
        request["session_id"] = json!(id);
        store.create_session(id, &request, *detached).await.unwrap();
    }
    store.close().await;
}

/// Runs a server on a SQLite file left running before it stored a single event (killed right
/// after creating their sessions) are resumed at the next start too: a detached one's log
/// starts with its `init`, then the `resume` step, and ends `completed`; a streaming one, whose
/// client went with the old server, runs to its end unfollowed, its answer kept in the session.
#[tokio::test]
async fn runs_left_before_their_first_event_are_resumed_from_the_start_sqlite() {
    let fixtures = FixtureServer::start().await;
    let dir = TempDir::new();
    let db = dir.sqlite_url();
    let url = fixtures.url("/pages/news.html");
    let request = stored_request(&db, json!({"urls": [&url]})).await;
    leave_running(
        &db,
        request,
        &[("bare-detached", true), ("bare-streaming", false)],
    )
    .await;

    let server = Server::start(&db).await;
    let (frames, _, _) = follow_to_end(&server.base, "bare-detached", usize::MAX, || {}).await;
    check_stream(&frames, std::slice::from_ref(&url), "completed");
    assert_eq!(frames[0].event, "init");
    assert_eq!(frames[1].action(), "resume");
    let details = &frames[1].payload()["extracted_data"];
    assert_eq!(details["reason"], "restarted");
    assert_eq!(details["urls_answered"], 0);
    let began = std::time::Instant::now();
    let streamed = loop {
        let session: serde_json::Value =
            reqwest::get(format!("{}/api/scrape/bare-streaming", server.base))
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
        if session["status"] != "running" {
            break session;
        }
        assert!(began.elapsed() < Duration::from_secs(30), "{session}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(streamed["status"], "completed", "{streamed}");
    let answer = &streamed["result"]["extracted_data"][&url];
    assert!(answer.is_array() || answer.is_object(), "{answer}");
    drop(server);
}

/// More runs left running than the next server has room for: it resumes as many as fit and
/// the rest as room frees, their followers waiting meanwhile; each run is resumed once and
/// ends `completed`, one after the other.
#[tokio::test]
async fn runs_past_the_room_are_resumed_as_room_frees_sqlite() {
    let fixtures = FixtureServer::start().await;
    let dir = TempDir::new();
    let db = dir.sqlite_url();
    let runs: Vec<(String, Vec<String>)> = (0..2)
        .map(|run| {
            let urls = (0..4)
                .map(|n| fixtures.url(&format!("/delay/700/news.html?run={run}&n={n}")))
                .collect();
            (format!("waiting-{run}"), urls)
        })
        .collect();
    // One URL fetched at a time: both runs are still going when the server is killed.
    let one_fetch = ("SCRAPE_AGENT__RUNS__FETCH_CONCURRENCY", "1");
    let mut first = Server::start_with(&db, &[one_fetch]).await;
    for (id, urls) in &runs {
        post_run(&first.base, id, urls).await;
    }
    let response = reqwest::get(format!("{}/api/scrape/{}/events", first.base, runs[1].0))
        .await
        .unwrap();
    FrameReader::new(response)
        .until(|f| f.event == "url_complete")
        .await;
    first.child.kill().expect("SIGKILL");
    first.child.wait().expect("the server is gone");
    drop(first);

    let one_slot = [
        ("SCRAPE_AGENT__LIMITS__MAX_CONCURRENT_RUNS", "1"),
        one_fetch,
    ];
    let second = Server::start_with(&db, &one_slot).await;
    let followers = runs
        .iter()
        .map(|(id, _)| follow_after(&second.base, id, &[]));
    let streams = futures::future::join_all(followers).await;
    let mut spans = Vec::new();
    for ((_, urls), frames) in runs.iter().zip(&streams) {
        check_stream(frames, urls, "completed");
        let resumes: Vec<&Frame> = frames.iter().filter(|f| f.action() == "resume").collect();
        assert_eq!(resumes.len(), 1);
        assert_eq!(
            resumes[0].payload()["extracted_data"]["reason"],
            "restarted"
        );
        // From the resume step to the run's last step: when it ran on the second server.
        let at = |frame: &Frame| {
            chrono::DateTime::parse_from_rfc3339(frame.payload()["timestamp"].as_str().unwrap())
                .unwrap()
        };
        let last_step = frames.iter().rev().find(|f| f.event == "step").unwrap();
        spans.push((at(resumes[0]), at(last_step)));
    }
    spans.sort();
    assert!(
        spans[0].1 <= spans[1].0,
        "one slot: the second run resumed after the first ended: {spans:?}"
    );
    drop(second);
}

/// The crawl rule holds on SQLite too: a crawl left running (its frontier was in the dead
/// server's memory) is not resumed at the next start but closed `interrupted`, saying why.
#[tokio::test]
async fn a_crawl_left_running_is_closed_not_resumed_at_the_next_start_sqlite() {
    let fixtures = FixtureServer::start().await;
    let dir = TempDir::new();
    let db = dir.sqlite_url();
    let url = fixtures.url("/pages/news.html");
    let request = stored_request(&db, json!({"urls": [&url], "crawl": {"max_pages": 2}})).await;
    assert!(request["crawl"].is_object(), "{request}");
    leave_running(&db, request, &[("bare-crawl", true)]).await;

    let server = Server::start(&db).await;
    let (frames, _, resumed_at) =
        follow_to_end(&server.base, "bare-crawl", usize::MAX, || {}).await;
    assert!(resumed_at.is_none(), "not resumed");
    check_stream(&frames, std::slice::from_ref(&url), "interrupted");
    let error = &frames[frames.len() - 2];
    assert_eq!(error.event, "error");
    let message = error.payload()["message"].as_str().unwrap_or_default();
    assert!(message.contains("a crawl is not resumed"), "{message}");
    assert_eq!(fixtures.hits(&url), 1, "fetched by the template run only");
    drop(server);
}
