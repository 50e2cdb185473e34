//! robots.txt, fetched once per origin and cached for `fetch.robots_ttl_secs`, for at most
//! `fetch.cache_max_hosts` origins.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use reqwest::Client;
use texting_robots::Robot;
use url::Url;

/// What we know of one origin's robots.txt.
#[derive(Debug)]
enum Rules {
    /// No usable robots.txt (404, network error, unparsable): everything is allowed.
    AllowAll,
    /// Parsed rules.
    Parsed(Box<Robot>),
}

/// What robots.txt says about one URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the URL may be fetched.
    pub allowed: bool,
    /// The origin's `Crawl-delay` for our user agent, if it gives one.
    pub crawl_delay: Option<Duration>,
}

/// When the rules were read, and the rules.
type Entry = (Instant, Arc<Rules>);

/// A per-origin cache of robots.txt rules, bounded in size and age.
#[derive(Clone)]
pub struct RobotsCache {
    client: Client,
    user_agent: String,
    max_bytes: usize,
    ttl: Duration,
    origins: Arc<quick_cache::sync::Cache<String, Entry>>,
}

impl std::fmt::Debug for RobotsCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RobotsCache")
            .field("user_agent", &self.user_agent)
            .field("max_bytes", &self.max_bytes)
            .field("ttl", &self.ttl)
            .field("origins", &self.origins.len())
            .finish_non_exhaustive()
    }
}

impl RobotsCache {
    /// A cache that fetches with `client`, matches rules for `user_agent`, reads at most
    /// `max_bytes` of each robots.txt, and keeps at most `max_origins` origins (the least used
    /// go first) for `ttl` each.
    pub fn new(
        client: Client,
        user_agent: String,
        max_bytes: usize,
        max_origins: usize,
        ttl: Duration,
    ) -> Self {
        Self {
            client,
            user_agent,
            max_bytes,
            ttl,
            origins: Arc::new(quick_cache::sync::Cache::new(max_origins.max(1))),
        }
    }

    /// Origins remembered now.
    pub fn len(&self) -> usize {
        self.origins.len()
    }

    /// Whether no origin is remembered.
    pub fn is_empty(&self) -> bool {
        self.origins.is_empty()
    }

    /// Whether `url` may be fetched.
    pub async fn allowed(&self, url: &Url) -> bool {
        self.check(url).await.allowed
    }

    /// Whether `url` may be fetched, and the origin's `Crawl-delay` for our user agent.
    pub async fn check(&self, url: &Url) -> Verdict {
        let rules = self.rules(url.origin().ascii_serialization()).await;
        match rules.as_ref() {
            Rules::AllowAll => Verdict {
                allowed: true,
                crawl_delay: None,
            },
            Rules::Parsed(robot) => Verdict {
                allowed: robot.allowed(url.as_str()),
                // Seconds, possibly fractional; a negative or absurd value is ignored.
                crawl_delay: robot
                    .delay
                    .and_then(|secs| Duration::try_from_secs_f32(secs).ok()),
            },
        }
    }

    /// The `Sitemap:` lines of the robots.txt of `url`'s origin (none without one).
    pub async fn sitemaps(&self, url: &Url) -> Vec<String> {
        match self
            .rules(url.origin().ascii_serialization())
            .await
            .as_ref()
        {
            Rules::AllowAll => Vec::new(),
            Rules::Parsed(robot) => robot.sitemaps.clone(),
        }
    }

    async fn rules(&self, origin: String) -> Arc<Rules> {
        if let Some((read_at, rules)) = self.origins.get(&origin) {
            if read_at.elapsed() < self.ttl {
                return rules;
            }
            self.origins.remove(&origin);
        }
        // One load per origin at a time: concurrent fetches of a new origin wait for it.
        match self.origins.get_value_or_guard_async(&origin).await {
            Ok((_, rules)) => rules,
            Err(slot) => {
                let rules = Arc::new(self.load(&origin).await);
                let _ = slot.insert((Instant::now(), rules.clone()));
                rules
            }
        }
    }

    async fn load(&self, origin: &str) -> Rules {
        let Ok(response) = self.client.get(format!("{origin}/robots.txt")).send().await else {
            return Rules::AllowAll;
        };
        if !response.status().is_success() {
            return Rules::AllowAll;
        }
        // Streamed, and the connection dropped at the cap: a huge or endless robots.txt costs
        // `max_bytes`, not the whole body. The rest is ignored, as Google does past 500 KiB.
        let mut body = Vec::new();
        let mut stream = response.bytes_stream();
        while body.len() < self.max_bytes {
            match stream.next().await {
                Some(Ok(chunk)) => {
                    let take = chunk.len().min(self.max_bytes - body.len());
                    body.extend_from_slice(&chunk[..take]);
                }
                Some(Err(_)) => return Rules::AllowAll,
                None => break,
            }
        }
        drop(stream);
        let agent = self.user_agent.split('/').next().unwrap_or("scrape-agent");
        Robot::new(agent, &body).map_or(Rules::AllowAll, |robot| Rules::Parsed(Box::new(robot)))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use axum::Router;
    use axum::body::Body;
    use axum::routing::get;

    use super::*;

    /// A loopback server whose robots.txt disallows `/private` and then never ends; counts the
    /// robots.txt requests and the bytes it managed to send.
    async fn endless_robots() -> (String, Arc<AtomicUsize>, Arc<AtomicUsize>) {
        let hits = Arc::new(AtomicUsize::new(0));
        let sent = Arc::new(AtomicUsize::new(0));
        let (h, s) = (hits.clone(), sent.clone());
        let router = Router::new().route(
            "/robots.txt",
            get(move || {
                h.fetch_add(1, Ordering::SeqCst);
                let s = s.clone();
                let head = futures::stream::once(async {
                    Ok::<_, std::io::Error>(bytes_of("User-agent: *\nDisallow: /private\n"))
                });
                let tail = futures::stream::repeat_with(move || {
                    let line = format!("# filler {}\n", "x".repeat(1000));
                    s.fetch_add(line.len(), Ordering::SeqCst);
                    Ok(bytes_of(&line))
                });
                async move { Body::from_stream(head.chain(tail)) }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, router).await });
        (base, hits, sent)
    }

    fn bytes_of(s: &str) -> axum::body::Bytes {
        axum::body::Bytes::from(s.to_owned())
    }

    fn client() -> Client {
        Client::builder()
            .no_proxy()
            .timeout(Duration::from_secs(5))
            .build()
            .unwrap()
    }

    #[tokio::test]
    async fn endless_robots_txt_is_read_up_to_the_cap_only() {
        let (base, _, sent) = endless_robots().await;
        let cache = RobotsCache::new(
            client(),
            "scrape-agent/0.1".into(),
            64 * 1024,
            10,
            Duration::from_secs(60),
        );
        let started = Instant::now();
        let private = Url::parse(&format!("{base}/private/page")).unwrap();
        assert!(
            !cache.allowed(&private).await,
            "the rules before the cap apply"
        );
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "no wait for the body's end"
        );
        assert!(
            cache
                .allowed(&Url::parse(&format!("{base}/public")).unwrap())
                .await
        );
        // The server keeps writing into socket buffers for a moment; what it sent stays far
        // from unbounded.
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(sent.load(Ordering::SeqCst) < 16 * 1024 * 1024);
    }

    #[tokio::test]
    async fn robots_txt_is_trusted_for_its_ttl_only() {
        let (base, hits, _) = endless_robots().await;
        let url = Url::parse(&format!("{base}/private")).unwrap();
        let kept = RobotsCache::new(
            client(),
            "scrape-agent".into(),
            1024,
            10,
            Duration::from_secs(3600),
        );
        assert!(!kept.allowed(&url).await);
        assert!(!kept.allowed(&url).await);
        assert_eq!(hits.load(Ordering::SeqCst), 1, "read once within the TTL");
        let expired = RobotsCache::new(client(), "scrape-agent".into(), 1024, 10, Duration::ZERO);
        assert!(!expired.allowed(&url).await);
        assert!(!expired.allowed(&url).await);
        assert_eq!(hits.load(Ordering::SeqCst), 3, "read again once expired");
    }

    #[tokio::test]
    async fn the_cache_never_holds_more_origins_than_its_bound() {
        // A loopback port nobody listens on: every load fails at once and caches "allow all".
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let cache = RobotsCache::new(
            client(),
            "scrape-agent".into(),
            1024,
            8,
            Duration::from_secs(3600),
        );
        for i in 1..=100u8 {
            let url = Url::parse(&format!("http://127.0.0.{i}:{port}/")).unwrap();
            assert!(cache.allowed(&url).await);
            assert!(cache.len() <= 8, "{} origins after {i}", cache.len());
        }
        assert!(!cache.is_empty());
    }
}
