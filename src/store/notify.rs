//! Wakes the followers of a run the moment its events are stored, on every instance sharing a
//! PostgreSQL database.
//!
//! A trigger on `events` sends `NOTIFY scrape_agent_events, '<seq> <session id>'` for every
//! stored row of a session a follower elsewhere marked watched in the last 10 s (migration
//! `20261126000020_event_notify.sql`: notifying serialises commits, so runs nobody follows from
//! another instance do not pay for it), delivered when the write commits.
//! Each process keeps one `LISTEN`ing connection of its own (outside the store's pool, so a
//! pool of one connection is never starved) and hands each notification to the followers of
//! that session in this process. Followers re-read the store when woken, so a notification is
//! only a hint: one that is lost (the listening connection dropped) is made up for by waking
//! every follower once the connection is back.
//!
//! The same connection listens for queued runs ([`super::queue::QUEUE_CHANNEL`]): an enqueue on
//! any instance wakes this process's queue claimer, and so does a reconnection.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use sqlx::postgres::{PgListener, PgPool, PgPoolOptions};
use tokio::sync::{Notify, watch};

/// The channel the trigger notifies (the same text as in the migration).
const CHANNEL: &str = "scrape_agent_events";
/// Wait before listening again after the listening connection could not be re-established
/// (the database is down); short enough that followers catch up soon after it is back.
const RELISTEN_WAIT: Duration = Duration::from_secs(1);
/// Value sent to every follower when notifications may have been lost: larger than any seq,
/// so each of them re-reads the store.
const RESYNC: u64 = u64::MAX;

type Followed = HashMap<String, watch::Sender<u64>>;

/// The sessions followed in this process, each with the last seq a notification named.
#[derive(Debug, Default)]
struct Wakers {
    sessions: Mutex<Followed>,
}

impl Wakers {
    fn lock(&self) -> MutexGuard<'_, Followed> {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Wakes the followers of the session a notification names (`<seq> <session id>`).
    fn notified(&self, payload: &str) {
        let Some((seq, id)) = payload.split_once(' ') else {
            tracing::warn!(payload, "unexpected event notification");
            return;
        };
        let Ok(seq) = seq.parse::<u64>() else {
            tracing::warn!(payload, "unexpected event notification");
            return;
        };
        if let Some(sender) = self.lock().get(id) {
            sender.send_replace(seq);
        }
    }

    /// Wakes every follower: notifications may have been lost.
    fn resync(&self) {
        for sender in self.lock().values() {
            sender.send_replace(RESYNC);
        }
    }

    /// Lets every follower go: the listener stopped for good (the store was closed).
    fn close(&self) {
        self.lock().clear();
    }

    /// A wake-up call for the followers of session `id`.
    fn follow(self: &Arc<Self>, id: &str) -> EventWatch {
        let receiver = self
            .lock()
            .entry(id.to_owned())
            .or_insert_with(|| watch::Sender::new(0))
            .subscribe();
        EventWatch {
            receiver,
            id: id.to_owned(),
            wakers: self.clone(),
        }
    }
}

/// One process's `LISTEN`ing connection and the followers it wakes.
#[derive(Debug)]
pub(super) struct EventListener {
    wakers: Arc<Wakers>,
    /// Woken when a run may have been queued (by any instance).
    queue: Arc<Notify>,
    /// The listening connection's own pool of one, closed by [`EventListener::close`].
    pool: PgPool,
}

impl EventListener {
    /// Connects to the database `store` uses, `LISTEN`s, and starts handing notifications to
    /// followers. Returns once `LISTEN` is in effect: every event stored after that is seen.
    pub(super) async fn start(store: &PgPool) -> Result<Self, sqlx::Error> {
        let options = (*store.connect_options()).clone();
        let pool = PgPoolOptions::new()
            .max_connections(1)
            .max_lifetime(None)
            .idle_timeout(None)
            .connect_with(options)
            .await?;
        let mut listener = PgListener::connect_with(&pool).await?;
        listener
            .listen_all([CHANNEL, super::queue::QUEUE_CHANNEL])
            .await?;
        let wakers = Arc::<Wakers>::default();
        let queue = Arc::new(Notify::new());
        tokio::spawn(listen(listener, wakers.clone(), queue.clone()));
        Ok(Self {
            wakers,
            queue,
            pool,
        })
    }

    /// Follows session `id`: the returned watch wakes when one of its events is stored.
    pub(super) fn follow(&self, id: &str) -> EventWatch {
        self.wakers.follow(id)
    }

    /// Resolves at the next notification of a queued run (or of a reconnection, after which
    /// some may have been missed); one that came while nobody waited is kept for the next call.
    pub(super) async fn queue_changed(&self) {
        self.queue.notified().await;
    }

    /// Stops listening; followers' [`EventWatch::stored_after`] answers false.
    pub(super) async fn close(&self) {
        self.pool.close().await;
        self.wakers.close();
    }
}

/// The listening loop; ends when the listener's pool is closed.
async fn listen(mut listener: PgListener, wakers: Arc<Wakers>, queue: Arc<Notify>) {
    loop {
        match listener.try_recv().await {
            Ok(Some(notification)) if notification.channel() == super::queue::QUEUE_CHANNEL => {
                queue.notify_one();
            }
            Ok(Some(notification)) => wakers.notified(notification.payload()),
            // The connection was lost and is back (sqlx reconnects and listens again before
            // answering): what was stored meanwhile was not announced.
            Ok(None) => {
                tracing::warn!("the event listener reconnected; followers re-read the store");
                wakers.resync();
                queue.notify_one();
            }
            Err(sqlx::Error::PoolClosed) => {
                wakers.close();
                return;
            }
            Err(err) => {
                tracing::warn!(%err, retry_in = ?RELISTEN_WAIT, "the event listener lost its connection");
                wakers.resync();
                queue.notify_one();
                tokio::time::sleep(RELISTEN_WAIT).await;
            }
        }
    }
}

/// A follower's wake-up call for one session (see [`crate::store::Store::watch_events`]).
#[derive(Debug)]
pub struct EventWatch {
    receiver: watch::Receiver<u64>,
    id: String,
    wakers: Arc<Wakers>,
}

impl EventWatch {
    /// Waits until an event numbered after `after` may be in the store: a notification named
    /// one, or notifications may have been lost. Created before the follower's first read of
    /// the store, so nothing stored after that read goes unannounced. False when the listener
    /// stopped (the store was closed): nothing more will wake it.
    pub async fn stored_after(&mut self, after: u64) -> bool {
        loop {
            if self.receiver.changed().await.is_err() {
                return false;
            }
            if *self.receiver.borrow_and_update() > after {
                return true;
            }
        }
    }
}

impl Drop for EventWatch {
    fn drop(&mut self) {
        let mut sessions = self.wakers.lock();
        // This watch's receiver is still alive here: it was the last one when the count is 1.
        if sessions
            .get(&self.id)
            .is_some_and(|sender| sender.receiver_count() <= 1)
        {
            sessions.remove(&self.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_notification_wakes_only_the_followers_of_its_session_past_their_seq() {
        let wakers = Arc::<Wakers>::default();
        let mut a = wakers.follow("run-a");
        let mut b = wakers.follow("run-b");
        wakers.notified("3 run-a");
        let woke = tokio::time::timeout(Duration::from_millis(50), a.stored_after(2)).await;
        assert_eq!(woke.ok(), Some(true));
        // Nothing for run-b; and run-a's follower already past seq 3 sleeps on.
        assert!(
            tokio::time::timeout(Duration::from_millis(50), b.stored_after(0))
                .await
                .is_err()
        );
        wakers.notified("3 run-a");
        assert!(
            tokio::time::timeout(Duration::from_millis(50), a.stored_after(3))
                .await
                .is_err()
        );
        // A lost connection wakes everyone; a closed listener answers false.
        wakers.resync();
        assert_eq!(
            tokio::time::timeout(Duration::from_millis(50), b.stored_after(7))
                .await
                .ok(),
            Some(true)
        );
        wakers.close();
        assert!(!b.stored_after(7).await);
        drop(a);
        drop(b);
        assert!(wakers.lock().is_empty());
    }

    #[test]
    fn the_last_follower_of_a_session_removes_its_entry() {
        let wakers = Arc::<Wakers>::default();
        let first = wakers.follow("run");
        let second = wakers.follow("run");
        drop(first);
        assert!(wakers.lock().contains_key("run"));
        drop(second);
        assert!(!wakers.lock().contains_key("run"));
    }
}
