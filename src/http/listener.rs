//! The accept loop: HTTP/1.1 connections served by hyper with the limits `axum::serve` lacks.
//!
//! A client that opens connections and sends nothing must not be able to hold the server:
//! every connection has `server.header_read_timeout_secs` to send its request headers (also
//! the idle time of a kept-alive connection) and `server.body_read_timeout_secs` for a body, at most `server.max_connections` are open at
//! once (lowered to fit the open-file limit, which is first raised to its hard ceiling), and at
//! the cap the oldest connection with no request in flight is closed for the newcomer; only
//! when every connection is busy is the newcomer refused, with a JSON 503. HTTP/2 cleartext
//! (h2c) is not served: put a TLS proxy in front for HTTP/2.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::http::{Request, StatusCode};
use axum::response::IntoResponse;
use hyper::body::{Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;
use tower_http::timeout::DeadlineBody;

use super::ApiError;
use crate::settings::ServerSettings;

/// Open files kept for everything but client connections (store, fetches, robots, logs), as a
/// share of the open-file limit: a quarter, and never fewer than [`MIN_RESERVED_FILES`].
const RESERVED_FILES_SHARE: u64 = 4;
/// See [`RESERVED_FILES_SHARE`]: enough for the default 32 runs × 4 fetches, the store's
/// pool and the process's own files.
const MIN_RESERVED_FILES: u64 = 64;
/// How long a refusal may take (reading the request's head, writing the answer) before the
/// connection is dropped anyway.
const REFUSAL_WRITE_TIMEOUT: Duration = Duration::from_secs(1);
/// Refusals being answered at once at most.
const MAX_PENDING_REFUSALS: usize = 64;
/// Bytes of a refused request's head read at most before answering.
const REFUSAL_READ_MAX: usize = 16 * 1024;
/// Pause after `accept` fails (out of file descriptors): the error repeats until a connection
/// closes, and a busy loop would starve the tasks that close them.
const ACCEPT_ERROR_PAUSE: Duration = Duration::from_millis(50);

/// The connection limits in force.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Time to send a request's headers (and idle time between requests).
    pub header_read_timeout: Duration,
    /// Time to send a request's body, from the end of its headers.
    pub body_read_timeout: Duration,
    /// Open connections at most.
    pub max_connections: usize,
}

impl ConnectionLimits {
    /// The limits of `[server]`, with the connection cap lowered to what `open_files` (the soft
    /// open-file limit) leaves after the reserve.
    pub fn new(server: &ServerSettings, open_files: Option<u64>) -> Self {
        let fitting = open_files.map_or(usize::MAX, |limit| {
            let reserve = (limit / RESERVED_FILES_SHARE).max(MIN_RESERVED_FILES);
            usize::try_from(limit.saturating_sub(reserve)).unwrap_or(usize::MAX)
        });
        Self {
            header_read_timeout: Duration::from_secs(server.header_read_timeout_secs.max(1)),
            body_read_timeout: Duration::from_secs(server.body_read_timeout_secs.max(1)),
            max_connections: server.max_connections.min(fitting).max(1),
        }
    }
}

/// Raises the soft open-file limit to the hard one and returns the limit now in force (None
/// where the platform has no such limit).
pub fn raise_open_file_limit() -> Option<u64> {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => Some(limit),
        Err(err) => {
            tracing::warn!(%err, "cannot read or raise the open-file limit");
            rlimit::getrlimit(rlimit::Resource::NOFILE)
                .ok()
                .map(|(soft, _)| soft)
        }
    }
}

/// Serves `router` on `listener` until `stop` resolves, then stops accepting and lets open
/// connections finish their requests (the caller bounds how long).
///
/// # Errors
/// Never today; kept for the signature of a server.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    stop: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let table = Arc::new(ConnectionTable::new(limits.max_connections));
    let refusals = Arc::new(tokio::sync::Semaphore::new(MAX_PENDING_REFUSALS));
    let graceful = GracefulShutdown::new();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    let builder = Arc::new(builder);
    tokio::pin!(stop);
    loop {
        let (stream, _peer) = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    tracing::error!(%err, "accept failed");
                    tokio::time::sleep(ACCEPT_ERROR_PAUSE).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let Some(ticket) = table.admit() else {
            // Answered while few refusals are pending; past that, closed at once, so refusals
            // cannot hold the files the cap protects.
            if let Ok(permit) = refusals.clone().try_acquire_owned() {
                tokio::spawn(async move {
                    refuse(stream, limits.max_connections).await;
                    drop(permit);
                });
            }
            continue;
        };
        let busy = ticket.busy.clone();
        let router = router.clone();
        let body_timeout = limits.body_read_timeout;
        let service = hyper::service::service_fn(move |request: Request<Incoming>| {
            let guard = BusyGuard::enter(busy.clone());
            let router = router.clone();
            async move {
                // A deadline on the whole body, not on the pause between two of its bytes: a
                // client trickling one byte at a time must not hold a request forever.
                let request = request.map(|body| Body::new(DeadlineBody::new(body_timeout, body)));
                let response = router
                    .oneshot(request)
                    .await
                    .unwrap_or_else(|never: Infallible| match never {});
                Ok::<_, Infallible>(response.map(|body| Body::new(Guarded { body, guard })))
            }
        });
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            tokio::select! {
                served = connection => if let Err(err) = served {
                    tracing::debug!(%err, "connection ended with an error");
                },
                () = ticket.evicted.cancelled() => {
                    tracing::debug!("idle connection closed for a new one at the connection cap");
                },
            }
            drop(ticket);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// Answers a connection over the cap with a JSON 503 and closes it.
async fn refuse(mut stream: TcpStream, cap: usize) {
    let response = ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "too_many_connections",
        format!(
            "the server has {cap} connections open, all busy (server.max_connections); try again shortly"
        ),
    )
    .into_response();
    let body = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap_or_default();
    let head = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let write = async {
        // Read the request's head first: a client answered before it has sent its request
        // takes the answer for a broken connection, not for a refusal.
        let mut seen = Vec::new();
        let mut chunk = [0u8; 2048];
        while !seen.windows(4).any(|w| w == b"\r\n\r\n") && seen.len() < REFUSAL_READ_MAX {
            match stream.read(&mut chunk).await? {
                0 => break,
                n => seen.extend_from_slice(&chunk[..n]),
            }
        }
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(&body).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(REFUSAL_WRITE_TIMEOUT, write).await;
}

/// The open connections, oldest first, each with its count of requests in flight.
#[derive(Debug)]
struct ConnectionTable {
    cap: usize,
    next_id: AtomicU64,
    open: Mutex<BTreeMap<u64, Entry>>,
}

#[derive(Debug)]
struct Entry {
    busy: Arc<AtomicUsize>,
    evict: CancellationToken,
}

/// A connection's place in the table, given back when dropped.
#[derive(Debug)]
struct Ticket {
    id: u64,
    table: Arc<ConnectionTable>,
    busy: Arc<AtomicUsize>,
    evicted: CancellationToken,
}

impl ConnectionTable {
    fn new(cap: usize) -> Self {
        Self {
            cap,
            next_id: AtomicU64::new(0),
            open: Mutex::new(BTreeMap::new()),
        }
    }

    /// A place for a new connection: free, or taken from the oldest connection with no
    /// request in flight (a half-open or idle one), which is closed. None when all are busy.
    fn admit(self: &Arc<Self>) -> Option<Ticket> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if open.len() >= self.cap {
            let idle = open
                .iter()
                .find(|(_, entry)| entry.busy.load(Ordering::SeqCst) == 0)
                .map(|(id, _)| *id)?;
            if let Some(entry) = open.remove(&idle) {
                entry.evict.cancel();
            }
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let busy = Arc::new(AtomicUsize::new(0));
        let evicted = CancellationToken::new();
        open.insert(
            id,
            Entry {
                busy: busy.clone(),
                evict: evicted.clone(),
            },
        );
        Some(Ticket {
            id,
            table: self.clone(),
            busy,
            evicted,
        })
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.table
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.id);
    }
}

/// Counts a request in flight on its connection until its response body has been sent.
#[derive(Debug)]
struct BusyGuard(Arc<AtomicUsize>);

impl BusyGuard {
    fn enter(busy: Arc<AtomicUsize>) -> Self {
        busy.fetch_add(1, Ordering::SeqCst);
        Self(busy)
    }
}

impl Drop for BusyGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A response body that keeps its request counted as in flight while it streams (an SSE
/// stream is a busy connection, never an idle one to close).
struct Guarded {
    body: Body,
    guard: BusyGuard,
}

impl http_body::Body for Guarded {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

impl std::fmt::Debug for Guarded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guarded")
            .field("busy", &self.guard.0.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_the_cap_the_oldest_idle_connection_makes_room_and_busy_ones_never_do() {
        let table = Arc::new(ConnectionTable::new(2));
        let first = table.admit().unwrap();
        let second = table.admit().unwrap();
        let _serving = BusyGuard::enter(first.busy.clone());
        let third = table
            .admit()
            .expect("the idle second connection makes room");
        assert!(second.evicted.is_cancelled());
        assert!(!first.evicted.is_cancelled());
        let _also_serving = BusyGuard::enter(third.busy.clone());
        assert!(table.admit().is_none(), "all busy: refused");
        drop(second);
        assert_eq!(table.open.lock().unwrap().len(), 2);
    }

    #[test]
    fn the_cap_leaves_files_for_everything_else() {
        let mut server = crate::settings::Settings::defaults().server;
        server.max_connections = 10_000;
        assert_eq!(
            ConnectionLimits::new(&server, Some(1024)).max_connections,
            768
        );
        assert_eq!(
            ConnectionLimits::new(&server, Some(100)).max_connections,
            36
        );
        assert_eq!(
            ConnectionLimits::new(&server, Some(1 << 20)).max_connections,
            10_000
        );
        assert_eq!(ConnectionLimits::new(&server, None).max_connections, 10_000);
    }
}
