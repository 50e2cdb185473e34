//! The page fetcher: address guard, robots.txt, per-host politeness, retries, redirects
//! followed by hand (each hop checked), a streamed body cap and charset decoding.

pub mod charset;
pub mod guard;
pub mod robots;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use reqwest::header::{CONTENT_TYPE, LOCATION, RETRY_AFTER};
use reqwest::{Client, StatusCode};
use tokio::sync::Mutex;
use url::Url;

use crate::events::ErrorCode;
use crate::settings::FetchSettings;
use guard::{BLOCKED_RESOLUTION, GuardedResolver, UrlRefusal};
use robots::RobotsCache;

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

/// Why a fetch failed; maps onto the contract's error codes.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum FetchError {
    /// Not http(s), unparsable, or without a host.
    #[error("{0}")]
    InvalidUrl(String),
    /// The target address is refused by the guard.
    #[error("{0}")]
    BlockedAddress(String),
    /// robots.txt disallows the path.
    #[error("robots.txt of {0} disallows this URL for our user agent")]
    BlockedByRobots(String),
    /// Connect or read took too long.
    #[error("timed out after {0} s")]
    Timeout(u64),
    /// The body passed the cap.
    #[error("the body is larger than the {0} byte limit")]
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

/// The shared fetcher; cheap to clone.
#[derive(Debug, Clone)]
pub struct Fetcher {
    client: Client,
    settings: Arc<FetchSettings>,
    robots: RobotsCache,
    last_hit: Arc<Mutex<HashMap<String, Instant>>>,
}

impl Fetcher {
    /// Builds the HTTP client from settings.
    ///
    /// # Errors
    /// When the TLS backend cannot be initialised.
    pub fn new(settings: &FetchSettings) -> Result<Self, reqwest::Error> {
        let client = Client::builder()
            .user_agent(settings.user_agent.clone())
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(settings.connect_timeout_secs))
            .timeout(Duration::from_secs(settings.timeout_secs))
            .dns_resolver(Arc::new(GuardedResolver {
                allow_private: settings.allow_private_networks,
            }))
            .build()?;
        Ok(Self {
            robots: RobotsCache::new(client.clone(), settings.user_agent.clone()),
            client,
            settings: Arc::new(settings.clone()),
            last_hit: Arc::default(),
        })
    }

    /// Fetches an HTML page, following redirects and retrying transient failures.
    ///
    /// # Errors
    /// A [`FetchError`] saying why no page could be had.
    pub async fn fetch_html(&self, raw_url: &str) -> Result<FetchedPage, FetchError> {
        let url =
            Url::parse(raw_url).map_err(|e| FetchError::InvalidUrl(format!("`{raw_url}`: {e}")))?;
        let mut attempt = 0;
        loop {
            attempt += 1;
            match self.fetch_once(url.clone()).await {
                Ok(mut page) => {
                    page.attempts = attempt;
                    return Ok(page);
                }
                Err(err) if err.retryable() && attempt <= self.settings.retries => {
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

    async fn fetch_once(&self, mut url: Url) -> Result<FetchedPage, FetchError> {
        let mut redirects = Vec::new();
        loop {
            self.check(&url)?;
            if self.settings.respect_robots && !self.robots.allowed(&url).await {
                return Err(FetchError::BlockedByRobots(
                    url.origin().ascii_serialization(),
                ));
            }
            self.wait_for_host(&url).await;
            let response = self
                .client
                .get(url.clone())
                .header(
                    reqwest::header::ACCEPT,
                    "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
                )
                .send()
                .await
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
            return self.read_page(url, redirects, response).await;
        }
    }

    async fn read_page(
        &self,
        url: Url,
        redirects: Vec<String>,
        response: reqwest::Response,
    ) -> Result<FetchedPage, FetchError> {
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
        if !charset::is_html_content_type(&content_type) {
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
        let (html, encoding) = charset::decode(&body, &content_type);
        Ok(FetchedPage {
            final_url: url,
            status: status.as_u16(),
            content_type,
            html,
            bytes: body.len() as u64,
            encoding,
            redirects,
            attempts: 1,
        })
    }

    fn check(&self, url: &Url) -> Result<(), FetchError> {
        guard::check_url(url, self.settings.allow_private_networks).map_err(|refusal| match refusal
        {
            UrlRefusal::Invalid(msg) => FetchError::InvalidUrl(msg),
            UrlRefusal::Blocked(msg) => FetchError::BlockedAddress(msg),
        })
    }

    /// Keeps at least `per_host_delay_ms` between two requests to the same host.
    async fn wait_for_host(&self, url: &Url) {
        let delay = Duration::from_millis(self.settings.per_host_delay_ms);
        if delay.is_zero() {
            return;
        }
        let host = url.host_str().unwrap_or_default().to_owned();
        let wait = {
            let mut last = self.last_hit.lock().await;
            let now = Instant::now();
            let next_free = last.get(&host).map_or(now, |t| (*t + delay).max(now));
            last.insert(host, next_free);
            next_free - now
        };
        tokio::time::sleep(wait).await;
    }

    fn classify(&self, err: &reqwest::Error) -> FetchError {
        if err.is_timeout() {
            return FetchError::Timeout(self.settings.timeout_secs);
        }
        let chain = error_chain(err);
        if chain.contains(BLOCKED_RESOLUTION) {
            return FetchError::BlockedAddress(chain);
        }
        FetchError::Network(chain)
    }
}

/// The error and its sources in one line: reqwest's top-level message alone hides the cause.
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
