//! One site's URLs, for `crawl` and `map`: one normal form per page (so duplicates meet), the
//! scope a walk stays in (the seed's site, its subdomains when asked, include/exclude path
//! patterns), and the trap rules that refuse URLs a site can generate without end.

use std::collections::HashMap;

use globset::{Glob, GlobSet, GlobSetBuilder};
use url::Url;

pub use crate::events::SkipRule;

/// Query parameters that only say where a visitor came from: dropped, so a page linked with and
/// without them is one page (the parameters Google Analytics and the large ad networks add).
const TRACKING_PARAMS: &[&str] = &[
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_term",
    "utm_content",
    "gclid",
    "fbclid",
    "msclkid",
    "mc_cid",
    "mc_eid",
];

/// The one form of a page's URL: fragment dropped, query pairs sorted and tracking parameters
/// dropped (the whole query when `ignore_query`), an empty query removed. Scheme and host are
/// lower-case and default ports gone already (the `url` crate does that when parsing).
pub fn normalise(url: &Url, ignore_query: bool) -> Url {
    let mut url = url.clone();
    url.set_fragment(None);
    if ignore_query {
        url.set_query(None);
        return url;
    }
    let mut pairs: Vec<(String, String)> = url
        .query_pairs()
        .filter(|(k, _)| !TRACKING_PARAMS.contains(&k.as_ref()))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    if pairs.is_empty() {
        url.set_query(None);
    } else {
        pairs.sort();
        url.query_pairs_mut().clear().extend_pairs(pairs);
    }
    url
}

/// The site a host belongs to for `allow_subdomains`: the host without a leading `www.`.
fn site_of(host: &str) -> &str {
    host.strip_prefix("www.").unwrap_or(host)
}

/// Query parameters one URL may carry before it reads as generated: real pages rarely pass six
/// (a search with filters and a page number), faceted-navigation traps stack them without end.
pub const MAX_QUERY_PARAMS: usize = 8;

/// Query length past which a URL reads as generated (the shortest URL limit browsers and CDNs
/// once had was 2 KB; 512 is four times the longest query in our corpora).
pub const MAX_QUERY_CHARS: usize = 512;

/// Times one path segment may occur in a path: `/a/b/a/b/a` is a relative-link loop.
pub const MAX_SEGMENT_REPEATS: usize = 2;

/// Dated variants of one page (its URL with every number made `#`, containing a year) a walk
/// reads: a calendar links a month to the next without end; a year of months is what a reader
/// of the site would go through.
pub const MAX_DATED_VARIANTS: usize = 12;

/// Where a walk may go: the seed's site, include/exclude path patterns, the trap rules.
#[derive(Debug)]
pub struct Scope {
    sites: Vec<String>,
    hosts: Vec<String>,
    allow_subdomains: bool,
    include: Option<GlobSet>,
    exclude: Option<GlobSet>,
    ignore_query: bool,
    dated: HashMap<String, usize>,
}

/// A path pattern that does not compile.
#[derive(Debug, Clone, thiserror::Error)]
#[error("path pattern `{pattern}`: {reason}")]
pub struct PatternError {
    /// The pattern as given.
    pub pattern: String,
    /// What is wrong with it.
    pub reason: String,
}

fn glob_set(patterns: &[String]) -> Result<Option<GlobSet>, PatternError> {
    if patterns.is_empty() {
        return Ok(None);
    }
    let mut builder = GlobSetBuilder::new();
    for pattern in patterns {
        let glob = Glob::new(pattern).map_err(|e| PatternError {
            pattern: pattern.clone(),
            reason: e.kind().to_string(),
        })?;
        builder.add(glob);
    }
    builder.build().map(Some).map_err(|e| PatternError {
        pattern: patterns.join(", "),
        reason: e.to_string(),
    })
}

impl Scope {
    /// The scope of a walk from `seeds`, with include/exclude path patterns.
    ///
    /// # Errors
    /// A [`PatternError`] for an include/exclude pattern that is not a glob.
    pub fn new(
        seeds: &[Url],
        allow_subdomains: bool,
        include: &[String],
        exclude: &[String],
        ignore_query: bool,
    ) -> Result<Self, PatternError> {
        let mut scope = Self::site(seeds, allow_subdomains, ignore_query);
        scope.include = glob_set(include)?;
        scope.exclude = glob_set(exclude)?;
        Ok(scope)
    }

    /// The scope of a walk from `seeds`: their sites, every path.
    pub fn site(seeds: &[Url], allow_subdomains: bool, ignore_query: bool) -> Self {
        let hosts: Vec<String> = seeds
            .iter()
            .filter_map(|u| u.host_str().map(str::to_owned))
            .collect();
        Self {
            sites: hosts.iter().map(|h| site_of(h).to_owned()).collect(),
            hosts,
            allow_subdomains,
            include: None,
            exclude: None,
            ignore_query,
            dated: HashMap::new(),
        }
    }

    /// Whether `url`'s host belongs to the walk (a sitemap on it may be read).
    pub fn on_site(&self, url: &Url) -> bool {
        let Some(host) = url.host_str() else {
            return false;
        };
        if self.hosts.iter().any(|h| h == host) {
            return true;
        }
        let site = site_of(host);
        self.sites
            .iter()
            .any(|s| s == site || self.allow_subdomains && host.ends_with(&format!(".{s}")))
    }

    /// The normal form of `url` when the walk may go there, else the rule that says no. Trap
    /// rules count what they have seen, so call this once per candidate.
    ///
    /// # Errors
    /// The [`SkipRule`] that refuses it.
    pub fn admit(&mut self, url: &Url) -> Result<Url, SkipRule> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(SkipRule::NotHttp);
        }
        if !self.on_site(url) {
            return Err(SkipRule::OffSite);
        }
        let url = normalise(url, self.ignore_query);
        let path = url.path();
        if self.include.as_ref().is_some_and(|set| !set.is_match(path)) {
            return Err(SkipRule::NotIncluded);
        }
        if self.exclude.as_ref().is_some_and(|set| set.is_match(path)) {
            return Err(SkipRule::Excluded);
        }
        if repeats_segments(path) {
            return Err(SkipRule::RepeatingPath);
        }
        if growing_query(&url) {
            return Err(SkipRule::GrowingQuery);
        }
        if let Some(pattern) = dated_pattern(&url) {
            let seen = self.dated.entry(pattern).or_default();
            if *seen >= MAX_DATED_VARIANTS {
                return Err(SkipRule::Calendar);
            }
            *seen += 1;
        }
        Ok(url)
    }
}

fn repeats_segments(path: &str) -> bool {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    path.split('/').filter(|s| !s.is_empty()).any(|segment| {
        let n = counts.entry(segment).or_default();
        *n += 1;
        *n > MAX_SEGMENT_REPEATS
    })
}

fn growing_query(url: &Url) -> bool {
    let Some(query) = url.query() else {
        return false;
    };
    if query.len() > MAX_QUERY_CHARS {
        return true;
    }
    let keys: Vec<_> = url.query_pairs().map(|(k, _)| k.into_owned()).collect();
    let distinct: std::collections::HashSet<&String> = keys.iter().collect();
    keys.len() > MAX_QUERY_PARAMS || distinct.len() < keys.len()
}

/// `url` with every run of digits made `#`, when it carries a year (19xx or 20xx) in its path
/// or query: the shape every page of one calendar shares.
fn dated_pattern(url: &Url) -> Option<String> {
    let tail = match url.query() {
        Some(q) => format!("{}?{q}", url.path()),
        None => url.path().to_owned(),
    };
    let has_year = tail
        .split(|c: char| !c.is_ascii_digit())
        .any(|run| run.len() == 4 && (run.starts_with("19") || run.starts_with("20")));
    if !has_year {
        return None;
    }
    let mut pattern = String::with_capacity(tail.len());
    let mut in_digits = false;
    for c in tail.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                pattern.push('#');
            }
            in_digits = true;
        } else {
            pattern.push(c);
            in_digits = false;
        }
    }
    Some(format!("{}{pattern}", url.host_str().unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn u(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    fn scope(subdomains: bool) -> Scope {
        Scope::new(&[u("http://www.site.test/")], subdomains, &[], &[], false).unwrap()
    }

    #[test]
    fn normal_forms_meet() {
        let a = normalise(&u("HTTP://Site.test:80/a?b=2&a=1&utm_source=x#top"), false);
        let b = normalise(&u("http://site.test/a?a=1&b=2"), false);
        assert_eq!(a, b);
        assert_eq!(
            normalise(&u("http://site.test/a?"), false).as_str(),
            "http://site.test/a"
        );
        assert_eq!(
            normalise(&u("http://site.test/a?x=1"), true).as_str(),
            "http://site.test/a"
        );
    }

    #[test]
    fn off_site_and_subdomains() {
        assert_eq!(
            scope(false).admit(&u("http://other.test/")),
            Err(SkipRule::OffSite)
        );
        assert_eq!(
            scope(false).admit(&u("http://blog.site.test/")),
            Err(SkipRule::OffSite)
        );
        assert!(scope(true).admit(&u("http://blog.site.test/")).is_ok());
        assert!(scope(false).admit(&u("http://site.test/x")).is_ok());
        assert_eq!(
            scope(true).admit(&u("mailto:a@site.test")),
            Err(SkipRule::NotHttp)
        );
    }

    #[test]
    fn include_and_exclude_patterns_match_the_path() {
        let mut scope = Scope::new(
            &[u("http://site.test/")],
            false,
            &["/docs/**".into()],
            &["/docs/old/**".into()],
            false,
        )
        .unwrap();
        assert!(scope.admit(&u("http://site.test/docs/a")).is_ok());
        assert_eq!(
            scope.admit(&u("http://site.test/blog")),
            Err(SkipRule::NotIncluded)
        );
        assert_eq!(
            scope.admit(&u("http://site.test/docs/old/x")),
            Err(SkipRule::Excluded)
        );
        assert!(Scope::new(&[], false, &["a[".into()], &[], false).is_err());
    }

    #[test]
    fn each_trap_rule_fires() {
        let mut s = scope(false);
        assert_eq!(
            s.admit(&u("http://site.test/a/b/a/b/a/")),
            Err(SkipRule::RepeatingPath)
        );
        let long = format!(
            "http://site.test/s?{}",
            (0..9)
                .map(|i| format!("f{i}=1"))
                .collect::<Vec<_>>()
                .join("&")
        );
        assert_eq!(s.admit(&u(&long)), Err(SkipRule::GrowingQuery));
        assert_eq!(
            s.admit(&u("http://site.test/s?f=1&f=2")),
            Err(SkipRule::GrowingQuery)
        );
        for month in 0..MAX_DATED_VARIANTS {
            let url = format!("http://site.test/calendar?month=2024-{month:02}");
            assert!(s.admit(&u(&url)).is_ok(), "{url}");
        }
        assert_eq!(
            s.admit(&u("http://site.test/calendar?month=2025-01")),
            Err(SkipRule::Calendar)
        );
        // Numbered pages without a year are not a calendar.
        for n in 0..100 {
            assert!(s.admit(&u(&format!("http://site.test/item/{n}"))).is_ok());
        }
    }
}
