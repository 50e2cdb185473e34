//! The publication and modification dates.

use super::sources::{Sources, first_key, string_of};
use super::{Chosen, SourcesRule, first_rule};
use crate::page::Page;
use crate::page::dates::{normalise_date, other_reading};
use crate::page::dom::{collapse_whitespace, flat_text};
use crate::page::interrupt::SelectChecked;
use crate::static_selector;

/// `<meta>` names of the publication date, most specific first.
const PUBLISHED_KEYS: &[&str] = &[
    "article:published_time",
    "og:article:published_time",
    "published_time",
    "datepublished",
    "date_published",
    "parsely-pub-date",
    "sailthru.date",
    "publishdate",
    "publish_date",
    "publication_date",
    "pubdate",
    "citation_publication_date",
    "citation_date",
    "dc.date.issued",
    "dcterms.issued",
    "dc.date.created",
    "dcterms.created",
    "article.published",
];

/// `<meta>` names that may hold the publication date among others.
const LOOSE_DATE_KEYS: &[&str] = &["published", "date", "dc.date", "dcterms.date"];

/// `<meta>` names of the last modification.
const MODIFIED_KEYS: &[&str] = &[
    "article:modified_time",
    "og:updated_time",
    "datemodified",
    "dc.date.modified",
    "dcterms.modified",
    "last-modified",
];

/// The modification date's rules, tried in order. The first that reads a value decides: an
/// unreadable JSON-LD `dateModified` is not replaced by a `<meta>` one (as the reader answered
/// before its rules were data).
pub(super) const MODIFIED_RULES: &[SourcesRule<String>] = &[
    ("jsonld_date_modified", |s| s.article_text("dateModified")),
    ("meta_modified_time", |s| s.metas.first(MODIFIED_KEYS)),
];

/// The last modification date, ISO-8601, and the rule that read it.
pub(super) fn modified(sources: &Sources<'_>) -> Option<Chosen<String>> {
    let chosen = first_rule(MODIFIED_RULES, sources)?;
    Some(Chosen {
        value: normalise_date(&chosen.value, sources.month_first)?,
        rule: chosen.rule,
    })
}

/// What the page declares for machines as its publication date, most trusted first.
/// `article:published_time` and kin are kept by the CMS with the page; JSON-LD blocks are more
/// often generated apart from it (and stale), so the `<meta>` comes first.
pub(super) const DECLARED_RULES: &[SourcesRule<String>] = &[
    (META_PUBLISHED_TIME, |s| {
        PUBLISHED_KEYS
            .iter()
            .find_map(|k| s.metas.first(&[k]).and_then(|d| valid(s, &d)))
    }),
    (META_VENDOR_PUBLISHED, |s| {
        s.metas
            .vendor_published()
            .into_iter()
            .find_map(|d| valid(s, &d))
    }),
    ("jsonld_date_published", |s| {
        s.article()
            .and_then(|m| m.get("datePublished").or_else(|| m.get("dateCreated")))
            .and_then(string_of)
            .and_then(|d| valid(s, &d))
    }),
    ("meta_date", |s| {
        LOOSE_DATE_KEYS
            .iter()
            .find_map(|k| s.metas.first(&[k]).and_then(|d| valid(s, &d)))
    }),
    ("itemprop_date_published", itemprop_date_published),
    ("jsonld_nested_date_published", |s| {
        s.ld.iter()
            .find_map(|item| first_key(item, "datePublished", 0))
            .and_then(string_of)
            .and_then(|d| valid(s, &d))
    }),
];

/// `article:published_time` and kin.
const META_PUBLISHED_TIME: &str = "meta_published_time";
/// Vendors' own publication tags (`w-published-date`, `publish-time`).
const META_VENDOR_PUBLISHED: &str = "meta_vendor_published";

/// The publication date's rules, tried in order; see [`published`]. [`DECLARED`] stands for
/// the first of [`DECLARED_RULES`] that reads a date, and the answer names that rule.
pub(super) const PUBLISHED_RULES: &[PublishedRule] = &[
    (DECLARED, |p| p.declared_unless_contradicted()),
    ("printed_date", |p| p.printed.clone()),
    ("time_element", |p| p.in_body_time.clone()),
    ("url_date", |p| p.in_url.clone()),
    ("named_date", |p| {
        super::byline::named_date(p.sources.doc(), p.sources.month_first)
    }),
    ("modified_date", |p| p.modified.map(str::to_owned)),
    // "Last updated: Nov 13, 2025" as a page's only date is the one a reader would quote.
    ("last_updated_label", |p| {
        super::byline::labelled_date(p.sources.doc(), super::byline::DateLabel::Updated)
            .and_then(|found| normalise_date(&found, p.sources.month_first))
    }),
];

/// A rule of the publication date, which reads what [`Published`] gathered.
type PublishedRule = (&'static str, fn(&Published<'_, '_>) -> Option<String>);

/// The rule of [`PUBLISHED_RULES`] that takes what the page declares.
const DECLARED: &str = "declared";

/// The publication date. What the page declares (`article:published_time` and kin, JSON-LD
/// `datePublished`, `itemprop=datePublished`, `<time pubdate>`) and the date printed near the
/// headline usually agree. When they do not, a `<meta>` publication tag wins: the CMS writes
/// it from the post's own record, while the printed date is often the last update ("Updated
/// Feb 27, 2025"). A date declared only elsewhere (JSON-LD, which is more often generated apart
/// from the page and stale, or the first draft's) gives way to the printed one, unless the
/// page's first `<time datetime>` gives the same day. A printed `09.10.2024` is read the way
/// another source (an ISO `<time>` anywhere on the page included) dates the page when one of
/// its two readings agrees. Then any
/// `<time datetime>` outside the page chrome, the URL's date (`/2024/05/31/`), the first date
/// printed in an element named as a date or a byline (a forum post's "by Ann » Tue Aug 27,
/// 2019"), and last the modification date: when that is all the page tells, it is the date a
/// reader would quote. Only real dates count: a duration (`PT7M`) or a bare year is skipped
/// for the next source.
pub(super) fn published(sources: &Sources<'_>, modified: Option<&str>) -> Option<Chosen<String>> {
    let published = Published::of(sources, modified);
    let chosen = first_rule(PUBLISHED_RULES, &published)?;
    Some(match (chosen.rule, published.declared) {
        (DECLARED, Some(declared)) => Chosen {
            value: chosen.value,
            rule: declared.rule,
        },
        _ => chosen,
    })
}

/// A publication date as the page declares or prints it: ISO-8601, or None when `raw` is no
/// real date (a duration, a bare year).
fn valid(sources: &Sources<'_>, raw: &str) -> Option<String> {
    normalise_date(&collapse_whitespace(raw), sources.month_first)
}

/// `itemprop=datePublished`, `<time pubdate>`, `itemprop=dateCreated`: the first that holds a
/// date in `datetime`, `content` or its text.
fn itemprop_date_published(sources: &Sources<'_>) -> Option<String> {
    sources
        .doc()
        .select_checked(static_selector!(
            "[itemprop=datePublished], time[pubdate], [itemprop=dateCreated]"
        ))
        .find_map(|el| {
            el.value()
                .attr("datetime")
                .or_else(|| el.value().attr("content"))
                .map(str::to_owned)
                .or_else(|| Some(flat_text(el)))
                .and_then(|d| valid(sources, &d))
        })
}

/// What the publication date's rules read, gathered once: the declared date, the printed
/// one, the page's first `<time>`, the URL's date and the modification date.
pub(super) struct Published<'s, 'p> {
    sources: &'s Sources<'p>,
    /// The first declared date, and its rule.
    declared: Option<Chosen<String>>,
    /// Whether a second source gives the declared day: a `<meta>` tag (the CMS's own record)
    /// or the page's first `<time datetime>` outside the chrome.
    declared_is_witnessed: bool,
    /// The date printed near the headline.
    printed: Option<String>,
    /// The first `<time datetime>` outside the page chrome.
    in_body_time: Option<String>,
    /// The date in the URL's path.
    in_url: Option<String>,
    /// The modification date.
    modified: Option<&'s str>,
}

impl<'s, 'p> Published<'s, 'p> {
    fn of(sources: &'s Sources<'p>, modified: Option<&'s str>) -> Self {
        let doc = sources.doc();
        let month_first = sources.month_first;
        let declared = first_rule(DECLARED_RULES, sources);
        // Days the page's `<time datetime>` elements give in ISO form, wherever they stand (a
        // sidebar's link to this very article counts): witnesses for a numeric date that reads
        // two ways.
        let iso_times: Vec<String> = doc
            .select_checked(static_selector!("time[datetime]"))
            .filter_map(|t| t.value().attr("datetime"))
            .filter(|raw| is_iso_date(raw))
            .filter_map(|raw| valid(sources, raw))
            .collect();
        let in_url = url_date(sources.page);
        let witnesses: Vec<String> = [declared.as_ref().map(|d| d.value.clone()), in_url.clone()]
            .into_iter()
            .flatten()
            .chain(iso_times)
            .collect();
        let witnessed = |day: &str| witnesses.iter().any(|d| same_day(d, day));
        // A numeric date that reads two ways is read the way another source dates the page.
        let read_numeric = |raw: &str| {
            let read = normalise_date(raw, month_first)?;
            match other_reading(raw, month_first) {
                Some(other) if !witnessed(&read) && witnessed(&other) => Some(other),
                _ => Some(read),
            }
        };
        let in_body_time = doc
            .select_checked(static_selector!("time[datetime]"))
            .filter(|t| !crate::page::chrome::in_chrome(*t))
            .find_map(|t| {
                t.value()
                    .attr("datetime")
                    .and_then(|raw| read_numeric(&collapse_whitespace(raw)))
            });
        // The page's `<time>` may write the declared moment in its own zone (`2025-12-18T19:05
        // -08:00` for `2025-12-19T03:05Z`): the day a reader sees is that zone's.
        let declared = declared.map(|d| match &in_body_time {
            Some(t) if !same_day(&d.value, t) && same_instant(&d.value, t) => Chosen {
                value: t.clone(),
                rule: d.rule,
            },
            _ => d,
        });
        // `09.10.2024` on a page that declares 2024-09-10 was written month first.
        let printed = super::byline::date(doc, month_first).map(|printed| {
            let agrees = |day: &str| {
                witnessed(day) || in_body_time.as_deref().is_some_and(|t| same_day(t, day))
            };
            match printed.other_reading {
                Some(other) if !agrees(&printed.day) && agrees(&other) => other,
                _ => printed.day,
            }
        });
        // A `<time datetime>` in the page that gives the declared day is a second witness for it.
        let declared_is_witnessed = declared.as_ref().is_some_and(|d| {
            [META_PUBLISHED_TIME, META_VENDOR_PUBLISHED].contains(&d.rule)
                || in_body_time
                    .as_deref()
                    .is_some_and(|t| same_day(&d.value, t))
        });
        Self {
            sources,
            declared,
            declared_is_witnessed,
            printed,
            in_body_time,
            in_url,
            modified,
        }
    }

    /// The declared date, unless the date printed near the headline gives another day and no
    /// second source witnesses the declared one.
    fn declared_unless_contradicted(&self) -> Option<String> {
        let declared = self.declared.as_ref()?;
        let contradicted = self
            .printed
            .as_deref()
            .is_some_and(|printed| !same_day(printed, &declared.value));
        (!contradicted || self.declared_is_witnessed).then(|| declared.value.clone())
    }
}

/// Whether two ISO-8601 date-times with offsets name the same moment.
fn same_instant(a: &str, b: &str) -> bool {
    match (
        chrono::DateTime::parse_from_rfc3339(a),
        chrono::DateTime::parse_from_rfc3339(b),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Whether `raw` starts as an ISO-8601 date does (`2025-12-02`), the one numeric form that
/// reads only one way.
fn is_iso_date(raw: &str) -> bool {
    let raw = raw.trim().as_bytes();
    raw.len() >= 10
        && raw[..10].iter().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
}

/// Whether two ISO-8601 dates (or date-times) fall on the same day as written.
fn same_day(a: &str, b: &str) -> bool {
    a.get(..10) == b.get(..10)
}

/// A date in the URL's path: `/2024/05/31/`, `/2024-05-31-title`, `/2023/october/03/`.
fn url_date(page: &Page) -> Option<String> {
    static PATTERN: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let pattern = PATTERN.get_or_init(|| {
        #[allow(
            clippy::expect_used,
            reason = "a pattern in our source; the tests compile it"
        )]
        regex::Regex::new(
            r"(?i)/((?:19|20)\d{2})[/-](0[1-9]|1[0-2]|[a-z]{3,9})[/-](0[1-9]|[12]\d|3[01])(?:/|-|$)",
        )
        .expect("URL date pattern is valid")
    });
    let caps = pattern.captures(page.url.path())?;
    let (year, month, day) = (&caps[1], &caps[2], &caps[3]);
    if month.starts_with(|c: char| c.is_ascii_digit()) {
        normalise_date(&format!("{year}-{month}-{day}"), false)
    } else {
        // `/2023/october/03/`: only a month's name reads as a date.
        normalise_date(&format!("{day} {month} {year}"), false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "https://news.example/rice";

    fn sources_rule(rules: &[SourcesRule<String>], name: &str, html: &str) -> Option<String> {
        let page = Page::parse(url::Url::parse(URL).unwrap(), html);
        let sources = Sources::of(&page);
        let (_, read) = rules.iter().find(|(rule, _)| *rule == name).unwrap();
        read(&sources)
    }

    /// What the publication rule called `name` reads on a page at `url`.
    fn published_rule(name: &str, html: &str, url: &str, modified: Option<&str>) -> Option<String> {
        let page = Page::parse(url::Url::parse(url).unwrap(), html);
        let sources = Sources::of(&page);
        let published = Published::of(&sources, modified);
        let (_, read) = PUBLISHED_RULES
            .iter()
            .find(|(rule, _)| *rule == name)
            .unwrap();
        read(&published)
    }

    fn chosen(html: &str) -> Option<Chosen<String>> {
        let page = Page::parse(url::Url::parse(URL).unwrap(), html);
        published(&Sources::of(&page), None)
    }

    #[test]
    fn each_declaration_has_a_rule() {
        let declared = |name: &str, html: &str| sources_rule(DECLARED_RULES, name, html);
        assert_eq!(
            declared(
                META_PUBLISHED_TIME,
                r#"<meta property="article:published_time" content="PT7M"><meta name="parsely-pub-date" content="2024-05-02T08:00:00Z">"#
            )
            .as_deref(),
            Some("2024-05-02T08:00:00Z")
        );
        assert_eq!(
            declared(
                META_VENDOR_PUBLISHED,
                r#"<meta name="w-published-date" content="2024-05-03">"#
            )
            .as_deref(),
            Some("2024-05-03")
        );
        assert_eq!(
            declared(
                "jsonld_date_published",
                r#"<script type="application/ld+json">{"@type":"BlogPosting","dateCreated":"2019-01-02"}</script>"#
            )
            .as_deref(),
            Some("2019-01-02")
        );
        assert_eq!(
            declared("meta_date", r#"<meta name="date" content="2023 Jan 7">"#).as_deref(),
            Some("2023-01-07")
        );
        assert_eq!(
            declared(
                "itemprop_date_published",
                r#"<span itemprop="datePublished" content="2022-02-03">Feb 3</span>"#
            )
            .as_deref(),
            Some("2022-02-03")
        );
        assert_eq!(
            declared(
                "jsonld_nested_date_published",
                r#"<script type="application/ld+json">{"@type":"WebSite","mainEntity":{"@type":"Thing","datePublished":"2021-04-05"}}</script>"#
            )
            .as_deref(),
            Some("2021-04-05")
        );
    }

    #[test]
    fn modification_rules_read_jsonld_then_meta() {
        let modified = |name: &str, html: &str| sources_rule(MODIFIED_RULES, name, html);
        assert_eq!(
            modified(
                "jsonld_date_modified",
                r#"<script type="application/ld+json">{"@type":"Article","dateModified":"2025-03-01"}</script>"#
            )
            .as_deref(),
            Some("2025-03-01")
        );
        assert_eq!(
            modified(
                "meta_modified_time",
                r#"<meta property="og:updated_time" content="2025-03-02">"#
            )
            .as_deref(),
            Some("2025-03-02")
        );
    }

    #[test]
    fn the_declared_rule_gives_way_to_a_printed_date_unless_witnessed() {
        let printed = r#"<article><h1>Ten ways to cook rice well</h1><p class="date">Updated March 1, 2025</p><p>Body text of the article that goes on.</p></article>"#;
        let ld = r#"<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2019-01-02"}</script>"#;
        let html = format!("{ld}{printed}");
        assert_eq!(published_rule(DECLARED, &html, URL, None), None);
        assert_eq!(
            published_rule("printed_date", &html, URL, None).as_deref(),
            Some("2025-03-01")
        );
        // A `<meta>` tag is the CMS's own record: it wins, and the answer names it.
        let meta =
            r#"<meta property="article:published_time" content="2019-01-02T08:00:00+00:00">"#;
        assert_eq!(
            chosen(&format!("{meta}{printed}")),
            Some(Chosen {
                value: "2019-01-02T08:00:00+00:00".to_owned(),
                rule: META_PUBLISHED_TIME
            })
        );
        assert_eq!(chosen(&html).unwrap().rule, "printed_date");
        assert_eq!(chosen(ld).unwrap().rule, "jsonld_date_published");
    }

    #[test]
    fn the_undeclared_rules_read_the_page_the_url_and_the_modification() {
        assert_eq!(
            published_rule(
                "time_element",
                r#"<p>x</p><time datetime="2021-06-07">June 7</time>"#,
                URL,
                None
            )
            .as_deref(),
            Some("2021-06-07")
        );
        assert_eq!(
            published_rule(
                "url_date",
                "<p>x</p>",
                "https://news.example/2020/05/31/story",
                None
            )
            .as_deref(),
            Some("2020-05-31")
        );
        assert_eq!(
            published_rule(
                "named_date",
                r#"<div class="post"><p class="author">by <strong>Outer Armatonis</strong> &raquo; Tue Aug 27, 2019 1:47 am</p></div>"#,
                URL,
                None
            )
            .as_deref(),
            Some("2019-08-27")
        );
        assert_eq!(
            published_rule("modified_date", "<p>x</p>", URL, Some("2025-03-01")).as_deref(),
            Some("2025-03-01")
        );
        assert_eq!(
            published_rule(
                "last_updated_label",
                r#"<div><p>Last updated: November 13, 2025</p></div>"#,
                URL,
                None
            )
            .as_deref(),
            Some("2025-11-13")
        );
    }
}
