//! The egress proxy of one render: the browser sends every request through it (`CONNECT` for
//! https and WebSockets, absolute-form requests for plain http), and it applies the fetcher's
//! address guard, then connects to the very address it checked (no second lookup), and counts
//! the bytes that come back against the render's cap.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

use crate::fetch::guard::Guard;

/// Largest request head read from the browser.
const MAX_HEAD: usize = 64 * 1024;

/// What one render's proxy saw.
#[derive(Debug, Default)]
pub struct ProxyLog {
    /// Bytes received from the network for the page.
    pub bytes: AtomicU64,
    /// Connections opened upstream.
    pub connections: AtomicU64,
    /// Requests refused, each as `host: why`.
    pub refused: Mutex<Vec<String>>,
}

/// A running proxy; it stops when dropped.
#[derive(Debug)]
pub struct EgressProxy {
    /// Where the browser reaches it.
    pub addr: SocketAddr,
    /// What it saw.
    pub log: Arc<ProxyLog>,
    task: JoinHandle<()>,
}

impl Drop for EgressProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl EgressProxy {
    /// Starts a proxy on a loopback port that lets through what `guard` allows, up to
    /// `max_bytes` received.
    ///
    /// # Errors
    /// No loopback port could be bound.
    pub async fn start(guard: Arc<Guard>, max_bytes: u64) -> std::io::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        let log = Arc::new(ProxyLog::default());
        let task_log = log.clone();
        let task = tokio::spawn(async move {
            let mut connections = tokio::task::JoinSet::new();
            loop {
                tokio::select! {
                    accepted = listener.accept() => {
                        let Ok((stream, _)) = accepted else { continue };
                        let guard = guard.clone();
                        let log = task_log.clone();
                        connections.spawn(async move {
                            let _ = serve(stream, &guard, &log, max_bytes).await;
                        });
                    }
                    Some(_) = connections.join_next() => {}
                }
            }
        });
        Ok(Self { addr, log, task })
    }

    /// The `--proxy-server` value.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

/// The target of one proxied request.
#[derive(Debug, PartialEq, Eq)]
struct Target {
    connect: bool,
    host: String,
    port: u16,
    /// For plain http: the head to send upstream (origin-form, `Connection: close`).
    head: Vec<u8>,
}

/// Reads the request head of the browser.
async fn read_head(stream: &mut TcpStream) -> std::io::Result<(Vec<u8>, Vec<u8>)> {
    let mut buffer = Vec::with_capacity(2048);
    let mut chunk = [0u8; 4096];
    loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        buffer.extend_from_slice(&chunk[..n]);
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let rest = buffer.split_off(end + 4);
            return Ok((buffer, rest));
        }
        if buffer.len() > MAX_HEAD {
            return Err(std::io::ErrorKind::InvalidData.into());
        }
    }
}

/// Parses a proxy request head: `CONNECT host:port` or `METHOD http://host[:port]/path`.
fn parse(head: &[u8]) -> Option<Target> {
    let text = std::str::from_utf8(head).ok()?;
    let mut lines = text.split("\r\n");
    let first = lines.next()?;
    let mut parts = first.split(' ');
    let (method, target, version) = (parts.next()?, parts.next()?, parts.next()?);
    if method.eq_ignore_ascii_case("CONNECT") {
        let url = url::Url::parse(&format!("http://{target}")).ok()?;
        return Some(Target {
            connect: true,
            host: url.host_str()?.to_owned(),
            port: url.port().unwrap_or(443),
            head: Vec::new(),
        });
    }
    let url = url::Url::parse(target).ok()?;
    if url.scheme() != "http" {
        return None;
    }
    let mut path = url.path().to_owned();
    if let Some(query) = url.query() {
        path.push('?');
        path.push_str(query);
    }
    let mut upstream = format!("{method} {path} {version}\r\n");
    for line in lines.filter(|l| !l.is_empty()) {
        let name = line.split(':').next().unwrap_or("").trim();
        if [
            "proxy-connection",
            "connection",
            "keep-alive",
            "proxy-authorization",
        ]
        .iter()
        .any(|n| name.eq_ignore_ascii_case(n))
        {
            continue;
        }
        upstream.push_str(line);
        upstream.push_str("\r\n");
    }
    upstream.push_str("Connection: close\r\n\r\n");
    Some(Target {
        connect: false,
        host: url.host_str()?.to_owned(),
        port: url.port_or_known_default()?,
        head: upstream.into_bytes(),
    })
}

/// The address to connect to: checked by the guard, literal or resolved once.
async fn checked_address(guard: &Guard, host: &str, port: u16) -> Result<SocketAddr, String> {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = bare.parse::<std::net::IpAddr>() {
        return match guard.refusal(ip, None) {
            Some(why) => Err(why),
            None => Ok(SocketAddr::new(ip, port)),
        };
    }
    let lower = bare.to_ascii_lowercase();
    if (lower == "localhost" || lower.ends_with(".localhost"))
        && guard
            .check_url(&url::Url::parse(&format!("http://{lower}/")).map_err(|e| e.to_string())?)
            .is_err()
    {
        return Err(format!("`{lower}` is a loopback name"));
    }
    let kept = guard
        .resolve(bare, false)
        .await
        .map_err(|e| e.to_string())?;
    kept.first()
        .map(|addr| SocketAddr::new(addr.ip(), port))
        .ok_or_else(|| format!("{host} has no address"))
}

async fn serve(
    mut client: TcpStream,
    guard: &Guard,
    log: &ProxyLog,
    max_bytes: u64,
) -> std::io::Result<()> {
    let (head, rest) = read_head(&mut client).await?;
    let Some(target) = parse(&head) else {
        client
            .write_all(
                b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            )
            .await?;
        return Ok(());
    };
    let addr = match checked_address(guard, &target.host, target.port).await {
        Ok(addr) => addr,
        Err(why) => {
            tracing::info!(host = %target.host, %why, "render: request refused by the address guard");
            log.refused
                .lock()
                .await
                .push(format!("{}: {why}", target.host));
            client
                .write_all(
                    b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                )
                .await?;
            return Ok(());
        }
    };
    let mut upstream = match TcpStream::connect(addr).await {
        Ok(stream) => stream,
        Err(_) => {
            client
                .write_all(
                    b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                )
                .await?;
            return Ok(());
        }
    };
    log.connections.fetch_add(1, Ordering::Relaxed);
    if target.connect {
        client
            .write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n")
            .await?;
    } else {
        upstream.write_all(&target.head).await?;
    }
    upstream.write_all(&rest).await?;
    let (mut client_read, mut client_write) = client.into_split();
    let (mut upstream_read, mut upstream_write) = upstream.into_split();
    let up = async {
        let _ = tokio::io::copy(&mut client_read, &mut upstream_write).await;
        let _ = upstream_write.shutdown().await;
    };
    let down = copy_counted(&mut upstream_read, &mut client_write, log, max_bytes);
    tokio::join!(up, down);
    Ok(())
}

/// Copies `from` to `to`, counting into `log.bytes`, and stops past `max_bytes`.
async fn copy_counted<R: AsyncRead + Unpin, W: AsyncWrite + Unpin>(
    from: &mut R,
    to: &mut W,
    log: &ProxyLog,
    max_bytes: u64,
) {
    let mut buffer = vec![0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let total = log.bytes.fetch_add(n as u64, Ordering::Relaxed) + n as u64;
        if total > max_bytes || to.write_all(&buffer[..n]).await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connect_names_host_and_port() {
        let target =
            parse(b"CONNECT example.com:8443 HTTP/1.1\r\nHost: example.com:8443\r\n\r\n").unwrap();
        assert!(target.connect);
        assert_eq!((target.host.as_str(), target.port), ("example.com", 8443));
    }

    #[test]
    fn a_plain_request_goes_upstream_in_origin_form_and_closes() {
        let target = parse(
            b"GET http://10.0.0.1:8080/a?b=1 HTTP/1.1\r\nHost: 10.0.0.1:8080\r\nProxy-Connection: keep-alive\r\n\r\n",
        )
        .unwrap();
        assert_eq!((target.host.as_str(), target.port), ("10.0.0.1", 8080));
        let head = String::from_utf8(target.head).unwrap();
        assert!(head.starts_with("GET /a?b=1 HTTP/1.1\r\n"), "{head}");
        assert!(!head.to_ascii_lowercase().contains("proxy-connection"));
        assert!(head.ends_with("Connection: close\r\n\r\n"));
    }

    #[test]
    fn other_schemes_are_not_proxied() {
        assert_eq!(parse(b"GET ftp://x/ HTTP/1.1\r\n\r\n"), None);
    }

    #[tokio::test]
    async fn a_refused_address_is_answered_403_and_logged() {
        let guard = Arc::new(Guard::default());
        let proxy = EgressProxy::start(guard, 1000).await.unwrap();
        let mut stream = TcpStream::connect(proxy.addr).await.unwrap();
        stream
            .write_all(b"CONNECT 127.0.0.1:9 HTTP/1.1\r\n\r\n")
            .await
            .unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).await.unwrap();
        assert!(reply.starts_with("HTTP/1.1 403"), "{reply}");
        assert_eq!(proxy.log.refused.lock().await.len(), 1);
    }
}
