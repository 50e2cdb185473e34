//! A crawl inside a run: the request's URLs are seeds, pages are discovered from the site's
//! sitemaps and from the links of every page read, and each is answered like a URL of the
//! request. This module holds the frontier (bounded in memory, the rest waiting in the store),
//! what was seen, and the rules that leave URLs out; the run (`session.rs`) reads the pages.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::hash::{DefaultHasher, Hash, Hasher};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use url::Url;

use super::map::SitemapMode;
use super::request::Rejection;
use super::site::{Scope, SkipRule, normalise};
use crate::events::{CrawlEnd, CrawlEndRule, CrawlPage, CrawlSkip, FoundBy};
use crate::fetch::Fetcher;
use crate::fetch::sitemap::{self, SitemapLimits};
use crate::read::links::PageLinks;
use crate::settings::CrawlSettings;
use crate::store::{FrontierEntry, Store};

/// The `crawl` object of a scrape request: read the whole site from the URLs given.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CrawlOptions {
    /// Pages read at most, seeds included (default `crawl.default_max_pages`, at most
    /// `crawl.max_pages`).
    #[serde(default)]
    pub max_pages: Option<u32>,
    /// Links followed from a seed at most (0: the seeds only; a sitemap's pages are at depth
    /// 1; default `crawl.default_max_depth`, at most `crawl.max_depth`).
    #[serde(default)]
    pub max_depth: Option<u32>,
    /// Path patterns (globs: `/docs/**`) a page must match one of.
    #[serde(default)]
    pub include: Vec<String>,
    /// Path patterns a page must match none of.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Whether the site's sitemaps are read: `include` (default), `only` (no link is
    /// followed), `skip`.
    #[serde(default)]
    pub sitemap: SitemapMode,
    /// Whether subdomains of a seed's site are part of the crawl.
    #[serde(default)]
    pub allow_subdomains: bool,
    /// Whether URLs that differ only in their query are one page.
    #[serde(default)]
    pub ignore_query: bool,
}

impl CrawlOptions {
    /// Checks the options against the settings.
    ///
    /// # Errors
    /// A [`Rejection`] (`invalid_crawl`) naming the option and its bound.
    pub fn check(&self, settings: &CrawlSettings) -> Result<(), Rejection> {
        let refuse =
            |message: String, details| Err(Rejection::new("invalid_crawl", message, details));
        match self.max_pages {
            Some(0) => return refuse("`crawl.max_pages` must be at least 1".into(), json!(null)),
            Some(n) if n > settings.max_pages => {
                return refuse(
                    format!(
                        "`crawl.max_pages` is {n}; at most {} is allowed (crawl.max_pages)",
                        settings.max_pages
                    ),
                    json!({"given": n, "max": settings.max_pages}),
                );
            }
            _ => {}
        }
        if let Some(n) = self.max_depth
            && n > settings.max_depth
        {
            return refuse(
                format!(
                    "`crawl.max_depth` is {n}; at most {} is allowed (crawl.max_depth)",
                    settings.max_depth
                ),
                json!({"given": n, "max": settings.max_depth}),
            );
        }
        if let Err(err) = Scope::new(&[], false, &self.include, &self.exclude, false) {
            return refuse(err.to_string(), json!({"pattern": err.pattern}));
        }
        Ok(())
    }
}

/// A page waiting to be read.
#[derive(Debug, Clone)]
pub(super) struct Candidate {
    pub url: String,
    pub depth: u32,
    pub found_on: Option<String>,
    pub found_by: FoundBy,
}

impl Candidate {
    pub(super) fn step(&self) -> CrawlPage {
        CrawlPage {
            to: self.url.clone(),
            depth: self.depth,
            found_on: self.found_on.clone(),
            found_by: self.found_by,
        }
    }
}

impl From<Candidate> for FrontierEntry {
    fn from(candidate: Candidate) -> Self {
        Self {
            url: candidate.url,
            depth: candidate.depth,
            found_on: candidate.found_on,
            found_by: candidate.found_by,
        }
    }
}

impl From<FrontierEntry> for Candidate {
    fn from(entry: FrontierEntry) -> Self {
        Self {
            url: entry.url,
            depth: entry.depth,
            found_on: entry.found_on,
            found_by: entry.found_by,
        }
    }
}

/// Where the frontier waits past its bound in memory: the run's session in the store. While
/// any URL waits there, new ones go there too, so pages are read in the order found.
#[derive(Debug)]
pub(super) struct Spill {
    store: Store,
    session_id: String,
    /// URLs admitted since the last write, in order (written once per page's links).
    pending: Vec<FrontierEntry>,
    /// URLs waiting in the store.
    waiting: usize,
    /// URLs ever written: the next one's place in the order.
    written: u64,
}

impl Spill {
    /// The stored frontier of session `session_id`, emptied first: a crawl starting over
    /// after a takeover reads its own discoveries only.
    ///
    /// # Errors
    /// When the store cannot empty it (the session is not this instance's, the database fails).
    pub(super) async fn open(
        store: Store,
        session_id: String,
    ) -> Result<Self, crate::store::StoreError> {
        store.clear_frontier(&session_id).await?;
        Ok(Self {
            store,
            session_id,
            pending: Vec::new(),
            waiting: 0,
            written: 0,
        })
    }
}

/// The key of a normal form in the set of URLs seen: a 64-bit hash, so a URL waiting in the
/// store costs the run 8 bytes of memory, not its text (two of a million URLs share a hash
/// with odds of about 1 in 30 million; the crawl would then skip one as a duplicate).
fn seen_key(normal_form: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    normal_form.hash(&mut hasher);
    hasher.finish()
}

/// One crawl's state: scope, frontier, what was seen and read.
#[derive(Debug)]
pub(super) struct Crawl {
    options: CrawlOptions,
    scope: Scope,
    max_pages: u32,
    max_depth: u32,
    max_frontier: usize,
    max_spilled: usize,
    max_sitemaps: usize,
    /// The URLs to read first, at most `max_frontier`.
    frontier: VecDeque<Candidate>,
    /// The rest of the frontier, in the store (none: links past `max_frontier` are dropped).
    spill: Option<Spill>,
    /// URLs that went to the store.
    spilled: usize,
    /// Normal forms admitted (seeds, queued in memory or in the store, read) and the canonical
    /// URLs of pages read, by [`seen_key`].
    seen: HashSet<u64>,
    /// Content hashes of the pages read, and the first page that showed each.
    contents: HashMap<u64, String>,
    /// Pages read and answered, and the canonical URLs they named (at most twice `max_pages`).
    read_pages: HashSet<String>,
    /// Pages handed to the run (seeds included).
    pages: u32,
    skipped: BTreeMap<SkipRule, usize>,
    /// Trap rules shown in the stream already (each once).
    traps_shown: HashSet<SkipRule>,
}

impl Crawl {
    /// A crawl from `seeds` (validated by [`CrawlOptions::check`]).
    pub(super) fn new(options: &CrawlOptions, seeds: &[String], settings: &CrawlSettings) -> Self {
        let seed_urls: Vec<Url> = seeds.iter().filter_map(|s| Url::parse(s).ok()).collect();
        let scope = Scope::new(
            &seed_urls,
            options.allow_subdomains,
            &options.include,
            &options.exclude,
            options.ignore_query,
        )
        .unwrap_or_else(|_| {
            Scope::site(&seed_urls, options.allow_subdomains, options.ignore_query)
        });
        let seen = seed_urls
            .iter()
            .map(|u| seen_key(normalise(u, options.ignore_query).as_str()))
            .collect();
        Self {
            max_pages: options
                .max_pages
                .unwrap_or(settings.default_max_pages)
                .min(settings.max_pages),
            max_depth: options
                .max_depth
                .unwrap_or(settings.default_max_depth)
                .min(settings.max_depth),
            max_frontier: settings.max_frontier.max(1),
            max_spilled: settings.max_spilled,
            max_sitemaps: settings.max_sitemaps,
            options: options.clone(),
            scope,
            frontier: VecDeque::new(),
            spill: None,
            spilled: 0,
            seen,
            contents: HashMap::new(),
            read_pages: HashSet::new(),
            pages: u32::try_from(seeds.len()).unwrap_or(u32::MAX),
            skipped: BTreeMap::new(),
            traps_shown: HashSet::new(),
        }
    }

    /// The crawl with its frontier spilling to `spill` past `crawl.max_frontier`.
    pub(super) fn with_spill(mut self, spill: Spill) -> Self {
        self.spill = Some(spill);
        self
    }

    /// Reads the sitemaps of every seed's origin (unless `sitemap: skip`) into the frontier,
    /// at depth 1. Returns the trap skips to show.
    pub(super) async fn read_sitemaps(
        &mut self,
        fetcher: &Fetcher,
        seeds: &[String],
    ) -> Vec<CrawlSkip> {
        let mut shown = Vec::new();
        if self.options.sitemap == SitemapMode::Skip {
            return shown;
        }
        let mut origins = Vec::new();
        for seed in seeds {
            if let Ok(url) = Url::parse(seed)
                && !origins.contains(&url.origin())
            {
                origins.push(url.origin());
                let read = sitemap::discover(
                    fetcher,
                    &url,
                    SitemapLimits {
                        max_sitemaps: self.max_sitemaps,
                        // All the frontier can hold, in memory and in the store.
                        max_urls: if self.spill.is_some() {
                            self.max_frontier.saturating_add(self.max_spilled)
                        } else {
                            self.max_frontier
                        },
                    },
                    |u| self.scope.on_site(u),
                )
                .await;
                for entry in read.pages {
                    if let Ok(page) = Url::parse(&entry.loc) {
                        shown.extend(self.offer(fetcher, &page, 1, None, FoundBy::Sitemap).await);
                    }
                }
            }
        }
        self.write_spill().await;
        shown
    }

    /// Offers the links of a page read at `depth` (unless the crawl reads sitemaps only, or
    /// the page asks robots not to follow its links). Returns the trap skips to show.
    pub(super) async fn offer_links(
        &mut self,
        fetcher: &Fetcher,
        page_url: &str,
        links: &PageLinks,
        depth: u32,
    ) -> Vec<CrawlSkip> {
        let mut shown = Vec::new();
        if self.options.sitemap == SitemapMode::Only || links.nofollow {
            return shown;
        }
        for link in &links.links {
            if let Ok(url) = Url::parse(link) {
                shown.extend(
                    self.offer(
                        fetcher,
                        &url,
                        depth + 1,
                        Some(page_url.to_owned()),
                        FoundBy::Link,
                    )
                    .await,
                );
            }
        }
        self.write_spill().await;
        shown
    }

    /// Admits `url` to the frontier or counts the rule that leaves it out; a trap rule firing
    /// for the first time is returned to be shown.
    async fn offer(
        &mut self,
        fetcher: &Fetcher,
        url: &Url,
        depth: u32,
        found_on: Option<String>,
        found_by: FoundBy,
    ) -> Option<CrawlSkip> {
        let key = normalise(url, self.options.ignore_query);
        let seen = seen_key(key.as_str());
        let rule = if self.seen.contains(&seen) {
            Some(SkipRule::Duplicate)
        } else if depth > self.max_depth {
            Some(SkipRule::TooDeep)
        } else {
            match self.scope.admit(url) {
                Err(rule) => Some(rule),
                Ok(_) if !fetcher.robots_allow(&key).await => Some(SkipRule::Robots),
                Ok(_) if !self.has_room() => Some(SkipRule::FrontierFull),
                Ok(_) => None,
            }
        };
        if let Some(rule) = rule {
            return self.skip(rule, key.into(), found_on);
        }
        self.seen.insert(seen);
        let candidate = Candidate {
            url: key.into(),
            depth,
            found_on,
            found_by,
        };
        match self.spill.as_mut() {
            Some(spill)
                if self.frontier.len() >= self.max_frontier
                    || spill.waiting + spill.pending.len() > 0 =>
            {
                spill.pending.push(candidate.into());
                self.spilled += 1;
            }
            _ => self.frontier.push_back(candidate),
        }
        None
    }

    /// Whether one more URL fits in the frontier (in memory, or in the store).
    fn has_room(&self) -> bool {
        self.frontier.len() < self.max_frontier
            || self
                .spill
                .as_ref()
                .is_some_and(|s| s.waiting + s.pending.len() < self.max_spilled)
    }

    /// Writes the URLs admitted to the store since the last write. URLs the store failed to
    /// take are dropped and counted as `frontier_full` (and may be offered again).
    async fn write_spill(&mut self) {
        let Some(spill) = self.spill.as_mut() else {
            return;
        };
        if spill.pending.is_empty() {
            return;
        }
        let entries = std::mem::take(&mut spill.pending);
        match spill
            .store
            .spill_frontier(&spill.session_id, spill.written, &entries)
            .await
        {
            Ok(added) => {
                spill.written += entries.len() as u64;
                spill.waiting += added;
            }
            Err(err) => {
                tracing::warn!(session_id = %spill.session_id, %err, dropped = entries.len(), "the crawl's frontier could not be written to the store");
                for entry in &entries {
                    self.seen.remove(&seen_key(&entry.url));
                }
                self.spilled -= entries.len();
                *self.skipped.entry(SkipRule::FrontierFull).or_default() += entries.len();
            }
        }
    }

    /// Brings URLs waiting in the store back to memory, oldest first, when fewer than `want`
    /// wait in memory.
    pub(super) async fn refill(&mut self, want: usize) {
        let room = self.max_frontier.saturating_sub(self.frontier.len());
        let Some(spill) = self.spill.as_mut() else {
            return;
        };
        if spill.waiting == 0 || self.frontier.len() >= want || room == 0 {
            return;
        }
        match spill.store.take_frontier(&spill.session_id, room).await {
            Ok(taken) => {
                spill.waiting = if taken.is_empty() {
                    0
                } else {
                    spill.waiting.saturating_sub(taken.len())
                };
                self.frontier.extend(taken.into_iter().map(Candidate::from));
            }
            Err(err) => {
                tracing::warn!(session_id = %spill.session_id, %err, lost = spill.waiting, "the crawl's frontier could not be read from the store");
                *self.skipped.entry(SkipRule::FrontierFull).or_default() += spill.waiting;
                spill.waiting = 0;
            }
        }
    }

    /// URLs waiting, in memory and in the store.
    fn queued(&self) -> usize {
        self.frontier.len()
            + self
                .spill
                .as_ref()
                .map_or(0, |s| s.waiting + s.pending.len())
    }

    fn skip(&mut self, rule: SkipRule, url: String, found_on: Option<String>) -> Option<CrawlSkip> {
        *self.skipped.entry(rule).or_default() += 1;
        (rule.is_trap() && self.traps_shown.insert(rule)).then_some(CrawlSkip {
            url,
            rule,
            found_on,
        })
    }

    /// The next page to read, while the page budget lasts.
    pub(super) fn next(&mut self) -> Option<Candidate> {
        if self.pages >= self.max_pages {
            return None;
        }
        let next = self.frontier.pop_front()?;
        self.pages += 1;
        Some(next)
    }

    /// Records a page read: None when it is new, else the skip that says it repeats a page
    /// read before (the same visible content, or a canonical URL seen already). A repeat is
    /// always shown (it is a page the run fetched and does not answer).
    pub(super) fn read(&mut self, url: &str, links: &PageLinks) -> Option<CrawlSkip> {
        if let Some(first) = self.contents.get(&links.content_hash) {
            if first != url {
                let first = first.clone();
                *self.skipped.entry(SkipRule::DuplicateContent).or_default() += 1;
                return Some(CrawlSkip {
                    url: url.to_owned(),
                    rule: SkipRule::DuplicateContent,
                    found_on: Some(first),
                });
            }
            return None;
        }
        if let Some(canonical) = links.canonical.as_deref().and_then(|c| Url::parse(c).ok()) {
            let canonical = normalise(&canonical, self.options.ignore_query).to_string();
            let own = Url::parse(url).map(|u| normalise(&u, self.options.ignore_query).to_string());
            if own.as_deref() != Ok(canonical.as_str()) {
                if self.read_pages.contains(&canonical) {
                    *self.skipped.entry(SkipRule::Duplicate).or_default() += 1;
                    return Some(CrawlSkip {
                        url: url.to_owned(),
                        rule: SkipRule::Duplicate,
                        found_on: Some(canonical),
                    });
                }
                // This page is its canonical one: that URL is not queued again.
                self.seen.insert(seen_key(&canonical));
                self.read_pages.insert(canonical);
            }
        }
        self.contents.insert(links.content_hash, url.to_owned());
        self.read_pages.insert(url.to_owned());
        None
    }

    /// How the crawl ended.
    pub(super) fn end(&self, stopped: bool) -> CrawlEnd {
        let rule = if stopped {
            CrawlEndRule::Stopped
        } else if self.queued() == 0 {
            CrawlEndRule::SiteExhausted
        } else {
            CrawlEndRule::MaxPages
        };
        CrawlEnd {
            rule,
            pages: self.pages,
            queued: self.queued(),
            spilled: self.spilled,
            skipped: self.skipped.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::settings::Settings;

    /// A fetcher that never asks robots.txt (nothing here touches the network) and settings
    /// with a small frontier.
    fn parts(max_frontier: usize) -> (Fetcher, CrawlSettings) {
        let mut settings = Settings::defaults();
        settings.fetch.respect_robots = false;
        settings.crawl.max_frontier = max_frontier;
        (Fetcher::new(&settings.fetch).unwrap(), settings.crawl)
    }

    fn links(urls: &[&str]) -> PageLinks {
        PageLinks {
            links: urls.iter().map(|u| (*u).to_owned()).collect(),
            ..PageLinks::default()
        }
    }

    #[tokio::test]
    async fn the_frontier_never_holds_more_than_its_bound_and_counts_what_it_drops() {
        let (fetcher, settings) = parts(3);
        let seed = vec!["http://a.test/".to_owned()];
        let mut crawl = Crawl::new(&CrawlOptions::default(), &seed, &settings);
        let many: Vec<String> = (0..10).map(|i| format!("http://a.test/p{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        crawl
            .offer_links(&fetcher, "http://a.test/", &links(&many), 0)
            .await;
        assert_eq!(crawl.frontier.len(), 3);
        assert_eq!(crawl.skipped.get(&SkipRule::FrontierFull), Some(&7));
        // A URL dropped for room is not "seen": it may be offered again once there is room.
        assert!(!crawl.seen.contains(&seen_key("http://a.test/p9")));
    }

    #[tokio::test]
    async fn depth_and_page_budget_bound_the_crawl() {
        let (fetcher, settings) = parts(100);
        let seed = vec!["http://a.test/".to_owned()];
        let options = CrawlOptions {
            max_pages: Some(2),
            max_depth: Some(1),
            ..CrawlOptions::default()
        };
        let mut crawl = Crawl::new(&options, &seed, &settings);
        crawl
            .offer_links(
                &fetcher,
                "http://a.test/",
                &links(&["http://a.test/x", "http://a.test/y"]),
                0,
            )
            .await;
        crawl
            .offer_links(
                &fetcher,
                "http://a.test/x",
                &links(&["http://a.test/deep"]),
                1,
            )
            .await;
        assert_eq!(crawl.skipped.get(&SkipRule::TooDeep), Some(&1));
        assert_eq!(crawl.next().unwrap().url, "http://a.test/x");
        assert!(
            crawl.next().is_none(),
            "the seed and one page make max_pages 2"
        );
        assert_eq!(crawl.end(false).rule, CrawlEndRule::MaxPages);
    }

    #[test]
    fn a_repeat_by_content_or_canonical_is_not_answered_again() {
        let (_, settings) = parts(100);
        let seed = vec!["http://a.test/".to_owned()];
        let mut crawl = Crawl::new(&CrawlOptions::default(), &seed, &settings);
        let page = |hash, canonical: Option<&str>| PageLinks {
            content_hash: hash,
            canonical: canonical.map(str::to_owned),
            ..PageLinks::default()
        };
        assert!(crawl.read("http://a.test/", &page(1, None)).is_none());
        let repeat = crawl.read("http://a.test/copy", &page(1, None)).unwrap();
        assert_eq!(repeat.rule, SkipRule::DuplicateContent);
        assert_eq!(repeat.found_on.as_deref(), Some("http://a.test/"));
        assert!(
            crawl
                .read("http://a.test/b?ref=1", &page(2, Some("http://a.test/b")))
                .is_none()
        );
        let by_canonical = crawl
            .read("http://a.test/b?ref=2", &page(3, Some("/b")))
            .is_none();
        assert!(by_canonical, "an unparsable canonical is ignored");
        let again = crawl
            .read("http://a.test/b?ref=3", &page(4, Some("http://a.test/b")))
            .unwrap();
        assert_eq!(again.rule, SkipRule::Duplicate);
    }

    #[test]
    fn options_past_the_settings_are_refused_by_name() {
        let (_, settings) = parts(100);
        let refused = |options: CrawlOptions| options.check(&settings).unwrap_err().code;
        assert_eq!(
            refused(CrawlOptions {
                max_pages: Some(0),
                ..Default::default()
            }),
            "invalid_crawl"
        );
        assert_eq!(
            refused(CrawlOptions {
                max_depth: Some(settings.max_depth + 1),
                ..Default::default()
            }),
            "invalid_crawl"
        );
        assert!(CrawlOptions::default().check(&settings).is_ok());
    }
}
