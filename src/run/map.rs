//! Map: a site's URLs (with titles where known), quickly and without extracting — its sitemaps
//! first, then a shallow walk of its links. Robots rules and the address guard hold for every
//! request (every fetch goes through the fetcher), URLs are normalised and deduplicated.

use std::collections::{BTreeMap, HashMap, VecDeque};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use url::Url;

use super::request::Rejection;
use super::site::{Scope, SkipRule, normalise};
pub use crate::events::FoundBy;
use crate::fetch::sitemap::{self, SitemapLimits};
use crate::fetch::{FetchError, Fetcher};
use crate::page::Page;
use crate::read::links::page_links;
use crate::settings::CrawlSettings;

/// Whether sitemaps are read: with the links (`include`, default), alone (`only`), or not
/// (`skip`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SitemapMode {
    /// Sitemaps and links.
    #[default]
    Include,
    /// Sitemaps only; no link is walked.
    Only,
    /// Links only.
    Skip,
}

/// The JSON body of `POST /api/map` and the arguments of the MCP `map` tool.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapRequest {
    /// The site to map (http or https): its origin's sitemaps and its links.
    pub url: String,
    /// URLs returned at most (default `crawl.map_default_limit`, at most `crawl.map_max_limit`).
    #[serde(default)]
    pub limit: Option<usize>,
    /// Words to rank by: URLs whose address or title holds more of them come first.
    #[serde(default)]
    pub search: Option<String>,
    /// Whether sitemaps are read.
    #[serde(default)]
    pub sitemap: SitemapMode,
    /// Whether subdomains of the site are part of it (`blog.example.com` for `example.com`).
    #[serde(default)]
    pub include_subdomains: bool,
}

/// One URL of the site.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MapLink {
    /// The URL, normalised.
    pub url: String,
    /// The page's `<title>`, for pages the walk fetched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The sitemap's `<lastmod>`, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lastmod: Option<String>,
    /// Where it was found first.
    pub found_by: FoundBy,
}

/// The answer of a map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MapResponse {
    /// The URL mapped.
    pub url: String,
    /// The site's URLs: ranked by `search` when given, else sorted.
    pub links: Vec<MapLink>,
    /// Sitemaps read.
    pub sitemaps: Vec<String>,
    /// Pages the link walk fetched.
    pub pages_fetched: usize,
    /// Whether `limit` (or a sitemap or walk bound) left URLs out.
    pub truncated: bool,
    /// URLs seen and left out, by the rule that left them out.
    pub skipped: BTreeMap<SkipRule, usize>,
    /// Time taken.
    pub duration_ms: u64,
}

/// A map request checked against the settings.
#[derive(Debug, Clone)]
pub struct ValidMap {
    url: Url,
    limit: usize,
    search: Vec<String>,
    sitemap: SitemapMode,
    include_subdomains: bool,
}

impl MapRequest {
    /// Checks the URL and the limit.
    ///
    /// # Errors
    /// A [`Rejection`] (`invalid_url`, `limit_exceeded`).
    pub fn validate(self, settings: &CrawlSettings) -> Result<ValidMap, Rejection> {
        let url = Url::parse(self.url.trim())
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
            .ok_or_else(|| {
                Rejection::new(
                    "invalid_url",
                    format!("`{}` is not an http(s) URL", self.url),
                    serde_json::json!({ "url": self.url }),
                )
            })?;
        let limit = self.limit.unwrap_or(settings.map_default_limit);
        if limit == 0 || limit > settings.map_max_limit {
            return Err(Rejection::new(
                "limit_exceeded",
                format!(
                    "limit must be between 1 and {} (crawl.map_max_limit)",
                    settings.map_max_limit
                ),
                serde_json::json!({ "limit": limit, "max": settings.map_max_limit }),
            ));
        }
        let search = self
            .search
            .unwrap_or_default()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        Ok(ValidMap {
            url,
            limit,
            search,
            sitemap: self.sitemap,
            include_subdomains: self.include_subdomains,
        })
    }
}

/// What a map has done so far, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapProgress {
    /// URLs found.
    pub found: usize,
    /// Sitemaps read.
    pub sitemaps: usize,
    /// Pages the walk fetched.
    pub pages: usize,
}

/// Maps the site of `request.url`.
///
/// # Errors
/// The site's address is refused by the guard (or its name does not resolve): nothing of it
/// can be read.
pub async fn map(
    fetcher: &Fetcher,
    settings: &CrawlSettings,
    request: ValidMap,
    mut progress: impl FnMut(MapProgress),
) -> Result<MapResponse, FetchError> {
    let started = std::time::Instant::now();
    fetcher.check_target(&request.url).await?;
    let ValidMap {
        url: seed,
        limit,
        search,
        sitemap: mode,
        include_subdomains,
    } = request;
    let mut scope = Scope::site(std::slice::from_ref(&seed), include_subdomains, false);
    let mut found = Found::default();
    let mut sitemaps = Vec::new();
    let mut truncated = false;
    // Bound on what is gathered before ranking: enough to rank well, never the whole site
    // when the limit is small.
    let gather = limit
        .saturating_mul(4)
        .max(limit)
        .min(settings.map_max_limit * 2);

    if let Ok(first) = scope.admit(&seed) {
        found.add(first, None, None, FoundBy::Seed);
    }
    if mode != SitemapMode::Skip {
        let read = sitemap::discover(
            fetcher,
            &seed,
            SitemapLimits {
                max_sitemaps: settings.max_sitemaps,
                max_urls: gather,
            },
            |u| scope.on_site(u),
        )
        .await;
        truncated |= read.truncated;
        sitemaps = read.read;
        for entry in read.pages {
            let Ok(url) = Url::parse(&entry.loc) else {
                continue;
            };
            match scope.admit(&url) {
                Ok(url) if fetcher.robots_allow(&url).await => {
                    found.add(url, None, entry.lastmod, FoundBy::Sitemap);
                }
                Ok(_) => found.skip(SkipRule::Robots),
                Err(rule) => found.skip(rule),
            }
        }
        progress(found.progress(sitemaps.len(), 0));
    }
    let mut pages_fetched = 0;
    if mode != SitemapMode::Only {
        let mut queue: VecDeque<(Url, u32)> = VecDeque::from([(normalise(&seed, false), 0)]);
        let mut walked = std::collections::HashSet::new();
        while let Some((page_url, depth)) = queue.pop_front() {
            if found.links.len() >= gather {
                truncated = true;
                break;
            }
            if pages_fetched >= settings.map_max_link_pages {
                truncated |= !queue.is_empty();
                break;
            }
            if !walked.insert(page_url.to_string()) {
                continue;
            }
            pages_fetched += 1;
            let Ok(fetched) = fetcher.fetch_html(page_url.as_str()).await else {
                continue;
            };
            let links = {
                let page = Page::parse(fetched.final_url.clone(), &fetched.html);
                page_links(&page)
            };
            found.title(&page_url, links.title.clone());
            if links.nofollow {
                continue;
            }
            for link in &links.links {
                let Ok(url) = Url::parse(link) else { continue };
                let key = normalise(&url, false);
                if found.has(&key) {
                    continue;
                }
                match scope.admit(&url) {
                    Ok(url) if fetcher.robots_allow(&url).await => {
                        found.add(url.clone(), None, None, FoundBy::Link);
                        if depth < settings.map_link_depth {
                            queue.push_back((url, depth + 1));
                        }
                    }
                    Ok(_) => found.skip(SkipRule::Robots),
                    Err(rule) => found.skip(rule),
                }
            }
            progress(found.progress(sitemaps.len(), pages_fetched));
        }
    }
    let mut links = found.links;
    if search.is_empty() {
        links.sort_by(|a, b| a.url.cmp(&b.url));
    } else {
        let score = |link: &MapLink| {
            let haystack = format!(
                "{} {}",
                link.url.to_lowercase(),
                link.title.as_deref().unwrap_or_default().to_lowercase()
            );
            search
                .iter()
                .filter(|w| haystack.contains(w.as_str()))
                .count()
        };
        // Stable: equal scores keep the order found (seed, sitemaps, links).
        links.sort_by_key(|link| std::cmp::Reverse(score(link)));
    }
    if links.len() > limit {
        truncated = true;
        links.truncate(limit);
    }
    Ok(MapResponse {
        url: seed.to_string(),
        links,
        sitemaps,
        pages_fetched,
        truncated,
        skipped: found.skipped,
        duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
    })
}

/// The URLs found, in order, once each.
#[derive(Debug, Default)]
struct Found {
    links: Vec<MapLink>,
    index: HashMap<String, usize>,
    skipped: BTreeMap<SkipRule, usize>,
}

impl Found {
    fn has(&self, url: &Url) -> bool {
        self.index.contains_key(url.as_str())
    }

    fn add(&mut self, url: Url, title: Option<String>, lastmod: Option<String>, by: FoundBy) {
        if let Some(&at) = self.index.get(url.as_str()) {
            let link = &mut self.links[at];
            link.lastmod = link.lastmod.take().or(lastmod);
            link.title = link.title.take().or(title);
            self.skip(SkipRule::Duplicate);
            return;
        }
        self.index.insert(url.to_string(), self.links.len());
        self.links.push(MapLink {
            url: url.into(),
            title,
            lastmod,
            found_by: by,
        });
    }

    fn title(&mut self, url: &Url, title: Option<String>) {
        if let (Some(&at), Some(title)) = (self.index.get(url.as_str()), title) {
            self.links[at].title = Some(title);
        }
    }

    fn skip(&mut self, rule: SkipRule) {
        *self.skipped.entry(rule).or_default() += 1;
    }

    fn progress(&self, sitemaps: usize, pages: usize) -> MapProgress {
        MapProgress {
            found: self.links.len(),
            sitemaps,
            pages,
        }
    }
}
