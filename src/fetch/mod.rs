//! The page fetcher: address guard, robots.txt, per-host politeness, retries, redirects
//! followed by hand (each hop checked), a streamed body cap and charset decoding.

pub mod charset;
pub mod guard;
#[cfg(test)]
mod guard_props;
pub mod robots;
pub mod sitemap;

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use futures::StreamExt;
use reqwest::header::{CONTENT_TYPE, LOCATION, RETRY_AFTER};
use reqwest::{Client, StatusCode};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use url::{Host, Url};

use crate::events::ErrorCode;
use crate::settings::FetchSettings;
use guard::{Guard, GuardedResolver, ResolveError, UrlRefusal};
use robots::RobotsCache;

/// Why a fetcher could not be built from its settings.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The HTTP client (TLS backend, proxy URL) could not be built.
    #[error("the HTTP client: {0}")]
    Client(#[from] reqwest::Error),
    /// A `[fetch]` setting is malformed.
    #[error("{0}")]
    Settings(String),
}

/// A fetched and decoded HTML page.
#[derive(Debug, Clone)]
pub struct FetchedPage {
    /// The URL that answered, after redirects.
    pub final_url: Url,
    /// HTTP status of the final response.
    pub status: u16,
    /// The response's Content-Type.
    pub content_type: String,
    /// The decoded document.
    pub html: String,
    /// Bytes received for the body.
    pub bytes: u64,
    /// The encoding the body was decoded from.
    pub encoding: &'static str,
    /// Redirect hops followed, in order.
    pub redirects: Vec<String>,
    /// Attempts made (1 when no retry was needed).
    pub attempts: u32,
}

/// A fetched document of any type, undecoded (see [`Fetcher::fetch_bytes`]).
#[derive(Debug, Clone)]
pub struct FetchedBody {
    /// The URL that answered, after redirects.
    pub final_url: Url,
    /// HTTP status of the final response.
    pub status: u16,
    /// The response's Content-Type.
    pub content_type: String,
    /// The body as received (at most `fetch.max_body_bytes`).
    pub body: Vec<u8>,
    /// Redirect hops followed, in order.
    pub redirects: Vec<String>,
    /// Attempts made (1 when no retry was needed).
    pub attempts: u32,
}

/// What a fetch accepts: an HTML page, or any document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Html,
    Any,
}

impl Want {
    fn accept(self) -> &'static str {
        match self {
            Self::Html => "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
            Self::Any => "application/xml,text/xml;q=0.9,*/*;q=0.5",
        }
    }
}

/// How an operator allows private addresses on purpose, said in every `blocked_address` error.
pub const ALLOW_PRIVATE_HINT: &str = "To fetch private and loopback addresses on purpose, start \
    the server (or `run`) with --allow-private, or set SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS=true \
    (fetch.allow_private_networks); to allow one host, list it in fetch.allowed_hosts";

/// Why a fetch failed; maps onto the contract's error codes.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum FetchError {
    /// Not http(s), unparsable, or without a host.
    #[error("{0}")]
    InvalidUrl(String),
    /// The target address is refused by the guard; the message says how to allow it.
    #[error("{0}. {ALLOW_PRIVATE_HINT}")]
    BlockedAddress(String),
    /// robots.txt disallows the path.
    #[error("robots.txt of {0} disallows this URL for our user agent")]
    BlockedByRobots(String),
    /// Connect or read took too long.
    #[error("timed out after {0} s (fetch.timeout_secs)")]
    Timeout(u64),
    /// The body passed the cap.
    #[error("the body is larger than the {0} byte limit (fetch.max_body_bytes)")]
    TooLarge(usize),
    /// Not an HTML document.
    #[error("the response is `{0}`, not HTML")]
    NotHtml(String),
    /// A non-success status.
    #[error("the server answered HTTP {0}")]
    Status(u16),
    /// Too many redirect hops.
    #[error("more than {0} redirects")]
    TooManyRedirects(usize),
    /// Connection-level failure.
    #[error("{0}")]
    Network(String),
}

impl FetchError {
    /// The contract error code for this failure.
    pub fn code(&self) -> ErrorCode {
        match self {
            Self::InvalidUrl(_) => ErrorCode::InvalidUrl,
            Self::BlockedAddress(_) => ErrorCode::BlockedAddress,
            Self::BlockedByRobots(_) => ErrorCode::BlockedByRobots,
            Self::Timeout(_) => ErrorCode::Timeout,
            Self::TooLarge(_) => ErrorCode::TooLarge,
            Self::NotHtml(_) => ErrorCode::NotHtml,
            Self::Status(_) | Self::TooManyRedirects(_) | Self::Network(_) => {
                ErrorCode::FetchFailed
            }
        }
    }

    /// Whether the same fetch may succeed later.
    pub fn retryable(&self) -> bool {
        match self {
            Self::Timeout(_) | Self::Network(_) => true,
            Self::Status(code) => *code == 429 || *code >= 500,
            _ => false,
        }
    }
}

/// When each host may be asked next (`per_host_delay_ms`), for at most `cache_max_hosts` hosts.
type HostClock = quick_cache::unsync::Cache<String, Instant>;

/// The requests each host may have in flight (`per_host_concurrency`), for at most
/// `cache_max_hosts` hosts; a host with a request in flight or waiting is never evicted.
type HostSlots = quick_cache::unsync::Cache<
    String,
    Arc<Semaphore>,
    quick_cache::UnitWeighter,
    quick_cache::DefaultHashBuilder,
    InUse,
>;

/// Pins a host's semaphore while anyone holds or waits for one of its permits (each holds a
/// clone of the `Arc`): evicting it then would let a fresh semaphore admit more requests.
#[derive(Debug, Clone, Copy, Default)]
struct InUse;

impl quick_cache::Lifecycle<String, Arc<Semaphore>> for InUse {
    type RequestState = ();

    fn is_pinned(&self, _host: &String, slots: &Arc<Semaphore>) -> bool {
        Arc::strong_count(slots) > 1
    }
}

/// The shared fetcher; cheap to clone.
#[derive(Clone)]
pub struct Fetcher {
    client: Client,
    settings: Arc<FetchSettings>,
    guard: Arc<Guard>,
    /// Set when `fetch.proxy` is: the proxy connects, so every hop is resolved and checked
    /// here first.
    proxied: bool,
    robots: RobotsCache,
    last_hit: Arc<Mutex<HostClock>>,
    slots: Arc<Mutex<HostSlots>>,
}

impl std::fmt::Debug for Fetcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetcher")
            .field("guard", &self.guard)
            .field("proxied", &self.proxied)
            .field("robots", &self.robots)
            .finish_non_exhaustive()
    }
}

impl Fetcher {
    /// Builds the HTTP client from settings. System proxy variables (`HTTP_PROXY`,
    /// `HTTPS_PROXY`, `ALL_PROXY`, …) are never read; `fetch.proxy` is the only proxy.
    ///
    /// # Errors
    /// When the TLS backend cannot be initialised, the proxy URL is invalid, or a
    /// `fetch.resolve` entry is malformed.
    pub fn new(settings: &FetchSettings) -> Result<Self, BuildError> {
        let guard = Arc::new(Guard::from_settings(settings).map_err(BuildError::Settings)?);
        let proxy = settings.proxy.trim();
        let mut builder = Client::builder()
            .user_agent(settings.user_agent.clone())
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(settings.connect_timeout_secs))
            .timeout(Duration::from_secs(settings.timeout_secs))
            // A proxy resolves names itself, past the guard: never take one from the environment.
            .no_proxy();
        let resolver_guard = if proxy.is_empty() {
            guard.clone()
        } else {
            let proxy_url = Url::parse(proxy)
                .map_err(|e| BuildError::Settings(format!("fetch.proxy `{proxy}`: {e}")))?;
            builder = builder.proxy(reqwest::Proxy::all(proxy_url.as_str())?);
            // Behind a proxy the client resolves only the proxy's own name, which the operator
            // chose; targets are resolved and checked in `check_resolved`.
            Arc::new(guard.allowing_name(proxy_url.host_str().unwrap_or_default()))
        };
        let client = builder
            .dns_resolver(Arc::new(GuardedResolver {
                guard: resolver_guard,
            }))
            .build()?;
        let max_hosts = settings.cache_max_hosts.max(1);
        Ok(Self {
            robots: RobotsCache::new(
                client.clone(),
                settings.user_agent.clone(),
                settings.robots_max_bytes,
                max_hosts,
                Duration::from_secs(settings.robots_ttl_secs),
            ),
            client,
            settings: Arc::new(settings.clone()),
            guard,
            proxied: !proxy.is_empty(),
            last_hit: Arc::new(Mutex::new(HostClock::new(max_hosts))),
            slots: Arc::new(Mutex::new(HostSlots::with(
                max_hosts,
                max_hosts as u64,
                quick_cache::UnitWeighter,
                quick_cache::DefaultHashBuilder::default(),
                InUse,
            ))),
        })
    }

    /// Fetches an HTML page, following redirects and retrying transient failures.
    ///
    /// # Errors
    /// A [`FetchError`] saying why no page could be had.
    pub async fn fetch_html(&self, raw_url: &str) -> Result<FetchedPage, FetchError> {
        let body = self.fetch(raw_url, Want::Html).await?;
        let (html, encoding) = charset::decode(&body.body, &body.content_type);
        Ok(FetchedPage {
            final_url: body.final_url,
            status: body.status,
            content_type: body.content_type,
            html,
            bytes: body.body.len() as u64,
            encoding,
            redirects: body.redirects,
            attempts: body.attempts,
        })
    }

    /// Fetches any document (a sitemap, XML or gzip) as bytes, with the same guard, robots
    /// rules, politeness, retries and body cap as a page.
    ///
    /// # Errors
    /// A [`FetchError`] saying why no document could be had.
    pub async fn fetch_bytes(&self, raw_url: &str) -> Result<FetchedBody, FetchError> {
        self.fetch(raw_url, Want::Any).await
    }

    /// The `Sitemap:` lines of the robots.txt of `url`'s origin (read through the same cache
    /// as its rules).
    pub async fn robots_sitemaps(&self, url: &Url) -> Vec<String> {
        self.robots.sitemaps(url).await
    }

    /// Whether the address guard lets us fetch `url` at all (its scheme, and every address
    /// its host name resolves to), without fetching it: for answers that must refuse a
    /// target before doing any work (a map).
    ///
    /// # Errors
    /// [`FetchError::InvalidUrl`], [`FetchError::BlockedAddress`], or
    /// [`FetchError::Network`] when the name does not resolve.
    pub async fn check_target(&self, url: &Url) -> Result<(), FetchError> {
        self.check(url)?;
        let Some(Host::Domain(name)) = url.host() else {
            return Ok(());
        };
        if self.guard.allows_private() {
            return Ok(());
        }
        match self.guard.resolve(name, self.proxied).await {
            Ok(_) => Ok(()),
            Err(err) if err.is_refusal() => Err(FetchError::BlockedAddress(err.to_string())),
            Err(err) => Err(FetchError::Network(format!("cannot resolve {name}: {err}"))),
        }
    }

    /// POSTs `body` to `raw_url` (a webhook delivery) through the same guarded client as every
    /// fetch: the URL is checked as a page's is, the connection goes only to addresses the guard
    /// allows (resolved once, by the client's guarded resolver), and a redirect is not followed.
    /// Returns the answer's status and `Retry-After`; its body is not read.
    ///
    /// # Errors
    /// [`FetchError::InvalidUrl`], [`FetchError::BlockedAddress`], [`FetchError::Timeout`] or
    /// [`FetchError::Network`].
    pub async fn post(
        &self,
        raw_url: &str,
        headers: reqwest::header::HeaderMap,
        body: Vec<u8>,
        timeout: Duration,
    ) -> Result<PostAnswer, FetchError> {
        let url =
            Url::parse(raw_url).map_err(|e| FetchError::InvalidUrl(format!("`{raw_url}`: {e}")))?;
        self.check(&url)?;
        self.check_resolved(&url).await?;
        let response = self
            .client
            .post(url)
            .headers(headers)
            .body(body)
            .timeout(timeout)
            .send()
            .await
            .map_err(|err| match self.classify(&err) {
                FetchError::Timeout(_) => FetchError::Timeout(timeout.as_secs()),
                other => other,
            })?;
        Ok(PostAnswer {
            status: response.status().as_u16(),
            retry_after: response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|value| value.to_str().ok())
                .and_then(|value| retry_after(value, chrono::Utc::now())),
        })
    }

    /// Whether robots.txt lets us fetch `url` (always, when `fetch.respect_robots` is off).
    pub async fn robots_allow(&self, url: &Url) -> bool {
        !self.settings.respect_robots || self.robots.allowed(url).await
    }

    async fn fetch(&self, raw_url: &str, want: Want) -> Result<FetchedBody, FetchError> {
        let url =
            Url::parse(raw_url).map_err(|e| FetchError::InvalidUrl(format!("`{raw_url}`: {e}")))?;
        let mut attempt = 0;
        let mut budget = NetworkBudget::new(self.settings.timeout_secs);
        loop {
            attempt += 1;
            match self.fetch_once(url.clone(), want, &mut budget).await {
                Ok(mut page) => {
                    page.attempts = attempt;
                    return Ok(page);
                }
                Err(err)
                    if err.retryable()
                        && attempt <= self.settings.retries
                        && !budget.is_spent() =>
                {
                    let backoff = self
                        .settings
                        .retry_backoff_ms
                        .saturating_mul(1 << (attempt - 1));
                    tracing::debug!(%url, attempt, %err, backoff, "retrying fetch");
                    tokio::time::sleep(Duration::from_millis(backoff)).await;
                }
                Err(err) => return Err(err),
            }
        }
    }

    async fn fetch_once(
        &self,
        mut url: Url,
        want: Want,
        budget: &mut NetworkBudget,
    ) -> Result<FetchedBody, FetchError> {
        let mut redirects = Vec::new();
        loop {
            self.check(&url)?;
            self.check_resolved(&url).await?;
            let mut crawl_delay = None;
            if self.settings.respect_robots {
                let verdict = self.robots.check(&url).await;
                if !verdict.allowed {
                    return Err(FetchError::BlockedByRobots(
                        url.origin().ascii_serialization(),
                    ));
                }
                crawl_delay = verdict.crawl_delay;
            }
            // Held until the body is read (or the hop redirected): at most
            // `per_host_concurrency` requests in flight to one host, across every run.
            let _slot = self.host_slot(&url).await;
            self.wait_for_host(&url, crawl_delay).await;
            let request = self
                .client
                .get(url.clone())
                .header(reqwest::header::ACCEPT, want.accept())
                .send();
            let response = budget
                .spend(request)
                .await?
                .map_err(|e| self.classify(&e))?;
            let status = response.status();
            if status.is_redirection() {
                let Some(next) = response
                    .headers()
                    .get(LOCATION)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|loc| url.join(loc).ok())
                else {
                    return Err(FetchError::Status(status.as_u16()));
                };
                if redirects.len() >= self.settings.max_redirects {
                    return Err(FetchError::TooManyRedirects(self.settings.max_redirects));
                }
                redirects.push(next.to_string());
                url = next;
                continue;
            }
            return budget
                .spend(self.read_page(url, want, redirects, response))
                .await?;
        }
    }

    async fn read_page(
        &self,
        url: Url,
        want: Want,
        redirects: Vec<String>,
        response: reqwest::Response,
    ) -> Result<FetchedBody, FetchError> {
        let status = response.status();
        if !status.is_success() {
            if status == StatusCode::TOO_MANY_REQUESTS {
                tracing::debug!(retry_after = ?response.headers().get(RETRY_AFTER), "rate limited");
            }
            return Err(FetchError::Status(status.as_u16()));
        }
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        if want == Want::Html && !charset::is_html_content_type(&content_type) {
            return Err(FetchError::NotHtml(content_type));
        }
        let cap = self.settings.max_body_bytes;
        if response
            .content_length()
            .is_some_and(|len| len > cap as u64)
        {
            return Err(FetchError::TooLarge(cap));
        }
        let mut body = Vec::new();
        let mut stream = response.bytes_stream();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| self.classify(&e))?;
            if body.len() + chunk.len() > cap {
                return Err(FetchError::TooLarge(cap));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(FetchedBody {
            final_url: url,
            status: status.as_u16(),
            content_type,
            body,
            redirects,
            attempts: 1,
        })
    }

    fn check(&self, url: &Url) -> Result<(), FetchError> {
        self.guard.check_url(url).map_err(|refusal| match refusal {
            UrlRefusal::Invalid(msg) => FetchError::InvalidUrl(msg),
            UrlRefusal::Blocked(msg) => FetchError::BlockedAddress(msg),
        })
    }

    /// Behind a proxy, resolves the hop's host name and refuses it when any address is refused
    /// (the proxy, not we, picks the address). Without a proxy the client's resolver does this.
    async fn check_resolved(&self, url: &Url) -> Result<(), FetchError> {
        if !self.proxied || self.guard.allows_private() {
            return Ok(());
        }
        let Some(Host::Domain(name)) = url.host() else {
            return Ok(()); // IP literals were checked by `check`
        };
        match self.guard.resolve(name, true).await {
            Ok(_) => Ok(()),
            Err(err) if err.is_refusal() => Err(FetchError::BlockedAddress(err.to_string())),
            Err(err) => Err(FetchError::Network(format!("cannot resolve {name}: {err}"))),
        }
    }

    /// Waits for one of the host's `per_host_concurrency` request slots.
    async fn host_slot(&self, url: &Url) -> Option<OwnedSemaphorePermit> {
        let host = url.host_str().unwrap_or_default().to_owned();
        let slots = {
            let mut hosts = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(slots) = hosts.get(&host) {
                slots.clone()
            } else {
                let slots = Arc::new(Semaphore::new(self.settings.per_host_concurrency.max(1)));
                hosts.insert(host, slots.clone());
                slots
            }
        };
        // The semaphore is never closed, so this fails only if it were; then no limit applies.
        slots.acquire_owned().await.ok()
    }

    /// Keeps at least `per_host_delay_ms` (or the robots.txt `Crawl-delay` when larger, capped
    /// at `max_crawl_delay_ms`) between the starts of two requests to the same host.
    async fn wait_for_host(&self, url: &Url, crawl_delay: Option<Duration>) {
        let crawl_delay = crawl_delay
            .unwrap_or_default()
            .min(Duration::from_millis(self.settings.max_crawl_delay_ms));
        let delay = Duration::from_millis(self.settings.per_host_delay_ms).max(crawl_delay);
        if delay.is_zero() {
            return;
        }
        let host = url.host_str().unwrap_or_default().to_owned();
        let wait = {
            let mut last = self.last_hit.lock().unwrap_or_else(PoisonError::into_inner);
            let now = Instant::now();
            let next_free = last.get(&host).map_or(now, |t| (*t + delay).max(now));
            last.insert(host, next_free);
            next_free - now
        };
        tokio::time::sleep(wait).await;
    }

    /// Hosts the politeness clock remembers now (at most `cache_max_hosts`).
    pub fn remembered_hosts(&self) -> usize {
        self.last_hit
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Hosts whose request slots are remembered now (at most `cache_max_hosts`, plus hosts
    /// with a request in flight when every remembered host has one).
    pub fn remembered_slot_hosts(&self) -> usize {
        self.slots
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    fn classify(&self, err: &reqwest::Error) -> FetchError {
        if err.is_timeout() {
            return FetchError::Timeout(self.settings.timeout_secs);
        }
        let chain = error_chain(err);
        if refused_by_guard(err) {
            return FetchError::BlockedAddress(chain);
        }
        FetchError::Network(chain)
    }
}

/// `fetch.timeout_secs` for one page, shared by its redirect hops and retries: only time on
/// the network counts (not waiting for the host's turn), and once it is spent the fetch ends
/// with [`FetchError::Timeout`] — so a page that trickles a byte a second costs the budget once,
/// not once per attempt, and the error says the time it really took.
#[derive(Debug)]
struct NetworkBudget {
    total_secs: u64,
    left: Duration,
}

impl NetworkBudget {
    fn new(total_secs: u64) -> Self {
        Self {
            total_secs,
            left: Duration::from_secs(total_secs),
        }
    }

    fn is_spent(&self) -> bool {
        self.left.is_zero()
    }

    /// Runs `work` within what is left, and takes its time off.
    async fn spend<T>(&mut self, work: impl Future<Output = T>) -> Result<T, FetchError> {
        let started = Instant::now();
        let outcome = tokio::time::timeout(self.left, work).await;
        self.left = self.left.saturating_sub(started.elapsed());
        outcome.map_err(|_| {
            self.left = Duration::ZERO;
            FetchError::Timeout(self.total_secs)
        })
    }
}

/// The error and its sources in one line: reqwest's top-level message alone hides the cause.
/// Whether the guarded resolver refused the name somewhere down an error's chain.
fn refused_by_guard(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut current = Some(err);
    while let Some(cause) = current {
        if cause
            .downcast_ref::<ResolveError>()
            .is_some_and(ResolveError::is_refusal)
        {
            return true;
        }
        current = cause.source();
    }
    false
}

fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// What a receiver answered a POST.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PostAnswer {
    /// The HTTP status.
    pub status: u16,
    /// How long it asked to be left alone before the next request (`Retry-After`).
    pub retry_after: Option<Duration>,
}

/// A `Retry-After` value as a wait from `now`: delay-seconds ("120") or an HTTP date ("Wed, 21
/// Oct 2015 07:28:00 GMT"; one already past is no wait). `None` when it reads as neither.
pub fn retry_after(value: &str, now: chrono::DateTime<chrono::Utc>) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    Some(
        (at.with_timezone(&chrono::Utc) - now)
            .to_std()
            .unwrap_or(Duration::ZERO),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        let now = chrono::DateTime::parse_from_rfc3339("2015-10-21T07:28:00Z")
            .unwrap()
            .with_timezone(&chrono::Utc);
        assert_eq!(
            super::retry_after("120", now),
            Some(Duration::from_secs(120))
        );
        assert_eq!(super::retry_after(" 0 ", now), Some(Duration::ZERO));
        assert_eq!(
            super::retry_after("Wed, 21 Oct 2015 07:30:30 GMT", now),
            Some(Duration::from_secs(150))
        );
        assert_eq!(
            super::retry_after("Wed, 21 Oct 2015 07:00:00 GMT", now),
            Some(Duration::ZERO),
            "a date already past is no wait"
        );
        assert_eq!(super::retry_after("soon", now), None);
        assert_eq!(super::retry_after("-5", now), None);
    }

    use std::sync::Mutex as StdMutex;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;
    use crate::settings::Settings;

    fn settings() -> FetchSettings {
        let mut settings = Settings::defaults().fetch;
        settings.retries = 0;
        settings.timeout_secs = 3;
        settings.connect_timeout_secs = 1;
        settings
    }

    #[tokio::test]
    async fn the_politeness_clock_never_holds_more_hosts_than_its_bound() {
        let mut settings = settings();
        settings.per_host_delay_ms = 1;
        settings.cache_max_hosts = 16;
        let fetcher = Fetcher::new(&settings).unwrap();
        for i in 0..200 {
            let url = Url::parse(&format!("http://h{i}.test/")).unwrap();
            fetcher.wait_for_host(&url, None).await;
            assert!(fetcher.remembered_hosts() <= 16, "after {i} hosts");
            drop(fetcher.host_slot(&url).await);
            assert!(fetcher.remembered_slot_hosts() <= 16, "after {i} hosts");
        }
        assert!(fetcher.remembered_hosts() > 0);
    }

    #[tokio::test]
    async fn a_host_gives_at_most_per_host_concurrency_slots_and_keeps_them_while_held() {
        let mut settings = settings();
        settings.per_host_concurrency = 2;
        settings.cache_max_hosts = 4;
        let fetcher = Fetcher::new(&settings).unwrap();
        let url = Url::parse("http://busy.test/").unwrap();
        let first = fetcher.host_slot(&url).await;
        let second = fetcher.host_slot(&url).await;
        assert!(first.is_some() && second.is_some());
        // A burst of other hosts cannot evict the busy host's semaphore.
        for i in 0..50 {
            drop(
                fetcher
                    .host_slot(&Url::parse(&format!("http://h{i}.test/")).unwrap())
                    .await,
            );
        }
        let third = tokio::time::timeout(Duration::from_millis(100), fetcher.host_slot(&url)).await;
        assert!(third.is_err(), "a third slot waits while two are held");
        drop(first);
        let third = tokio::time::timeout(Duration::from_millis(100), fetcher.host_slot(&url)).await;
        assert!(third.is_ok(), "a slot is free again once one is released");
    }

    /// A loopback HTTP proxy that records every request line and answers by path:
    /// `/robots.txt` 404, `/hop` a redirect to `http://loop.test/`, anything else a page.
    async fn recording_proxy() -> (String, Arc<StdMutex<Vec<String>>>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(StdMutex::new(Vec::new()));
        let log = seen.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let log = log.clone();
                tokio::spawn(async move {
                    let mut head = Vec::new();
                    let mut buf = [0u8; 1024];
                    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                        match socket.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => head.extend_from_slice(&buf[..n]),
                        }
                    }
                    let text = String::from_utf8_lossy(&head);
                    let line = text.lines().next().unwrap_or_default().to_owned();
                    log.lock().unwrap().push(line.clone());
                    let reply = if line.contains("/robots.txt") {
                        "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                            .to_owned()
                    } else if line.contains("/hop") {
                        "HTTP/1.1 302 Found\r\nlocation: http://loop.test/\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".to_owned()
                    } else {
                        let body = "<html><body><p>via proxy</p></body></html>";
                        format!(
                            "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                            body.len()
                        )
                    };
                    let _ = socket.write_all(reply.as_bytes()).await;
                });
            }
        });
        (url, seen)
    }

    #[tokio::test]
    async fn behind_a_proxy_every_hop_is_resolved_and_checked_first() {
        let (proxy, seen) = recording_proxy().await;
        let mut settings = settings();
        settings.proxy = proxy;
        // Never looked up in real DNS, and the only connection ever made is to the proxy.
        settings.resolve = vec![
            "loop.test=127.0.0.1".into(),
            "mixed.test=93.184.216.34".into(),
            "mixed.test=10.0.0.1".into(),
            "public.test=93.184.216.34".into(),
        ];
        let fetcher = Fetcher::new(&settings).unwrap();

        let err = fetcher.fetch_html("http://loop.test/").await.unwrap_err();
        assert!(matches!(err, FetchError::BlockedAddress(_)), "{err:?}");
        let err = fetcher.fetch_html("http://mixed.test/").await.unwrap_err();
        assert!(matches!(err, FetchError::BlockedAddress(_)), "{err:?}");
        assert!(err.to_string().contains("10.0.0.0/8"), "{err}");
        assert!(seen.lock().unwrap().is_empty(), "the proxy was never asked");

        let page = fetcher.fetch_html("http://public.test/page").await.unwrap();
        assert!(page.html.contains("via proxy"));
        let err = fetcher
            .fetch_html("http://public.test/hop")
            .await
            .unwrap_err();
        assert!(matches!(err, FetchError::BlockedAddress(_)), "{err:?}");
        let lines = seen.lock().unwrap().clone();
        assert!(
            lines.iter().all(|l| l.contains("http://public.test/")),
            "only public.test went to the proxy: {lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("GET http://public.test/page"))
        );
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("GET http://public.test/hop"))
        );
    }

    #[test]
    fn a_malformed_proxy_or_resolve_entry_stops_the_start() {
        let mut bad = settings();
        bad.proxy = "not a url".into();
        assert!(matches!(Fetcher::new(&bad), Err(BuildError::Settings(_))));
        let mut bad = settings();
        bad.resolve = vec!["a.test".into()];
        assert!(matches!(Fetcher::new(&bad), Err(BuildError::Settings(_))));
    }
}
