//! The publication and modification dates.

use scraper::Html;
use serde_json::{Map, Value};

use super::sources::{MetaTags, first_key, string_of};
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
pub(super) const MODIFIED_KEYS: &[&str] = &[
    "article:modified_time",
    "og:updated_time",
    "datemodified",
    "dc.date.modified",
    "dcterms.modified",
    "last-modified",
];

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
pub(super) fn published_at(
    doc: &Html,
    page: &Page,
    metas: &MetaTags,
    ld: &[Value],
    article: Option<&Map<String, Value>>,
    modified: Option<&str>,
    month_first: bool,
) -> Option<String> {
    let valid = |raw: String| normalise_date(&collapse_whitespace(&raw), month_first);
    // `article:published_time` and kin are kept by the CMS with the page; JSON-LD blocks are
    // more often generated apart from it (and stale), so the `<meta>` comes first.
    let in_meta = PUBLISHED_KEYS
        .iter()
        .find_map(|k| metas.first(&[k]).and_then(valid))
        .or_else(|| metas.vendor_published().into_iter().find_map(valid));
    let declared = in_meta
        .clone()
        .or_else(|| {
            article
                .and_then(|m| m.get("datePublished").or_else(|| m.get("dateCreated")))
                .and_then(string_of)
                .and_then(valid)
        })
        .or_else(|| {
            LOOSE_DATE_KEYS
                .iter()
                .find_map(|k| metas.first(&[k]).and_then(valid))
        })
        .or_else(|| {
            doc.select_checked(static_selector!(
                "[itemprop=datePublished], time[pubdate], [itemprop=dateCreated]"
            ))
            .find_map(|el| {
                el.value()
                    .attr("datetime")
                    .or_else(|| el.value().attr("content"))
                    .map(str::to_owned)
                    .or_else(|| Some(flat_text(el)))
                    .and_then(valid)
            })
        })
        .or_else(|| {
            ld.iter()
                .find_map(|item| first_key(item, "datePublished", 0))
                .and_then(string_of)
                .and_then(valid)
        });
    // Days the page's `<time datetime>` elements give in ISO form, wherever they stand (a
    // sidebar's link to this very article counts): witnesses for a numeric date that reads
    // two ways.
    let iso_times: Vec<String> = doc
        .select_checked(static_selector!("time[datetime]"))
        .filter_map(|t| t.value().attr("datetime"))
        .filter(|raw| is_iso_date(raw))
        .filter_map(|raw| valid(raw.to_owned()))
        .collect();
    let in_url = url_date(page);
    let witnesses: Vec<String> = [declared.clone(), in_url.clone()]
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
    let declared = match (declared, &in_body_time) {
        (Some(d), Some(t)) if !same_day(&d, t) && same_instant(&d, t) => Some(t.clone()),
        (declared, _) => declared,
    };
    // `09.10.2024` on a page that declares 2024-09-10 was written month first.
    let printed = super::byline::date(doc, month_first).map(|printed| {
        let agrees =
            |day: &str| witnessed(day) || in_body_time.as_deref().is_some_and(|t| same_day(t, day));
        match printed.other_reading {
            Some(other) if !agrees(&printed.day) && agrees(&other) => other,
            _ => printed.day,
        }
    });
    // A `<time datetime>` in the page that gives the declared day is a second witness for it.
    let declared_is_witnessed = in_meta.is_some()
        || matches!((&declared, &in_body_time), (Some(d), Some(t)) if same_day(d, t));
    match (printed, declared) {
        (Some(printed), Some(declared)) if !same_day(&printed, &declared) => {
            if declared_is_witnessed {
                Some(declared)
            } else {
                Some(printed)
            }
        }
        (printed, declared) => declared.or(printed),
    }
    .or(in_body_time)
    .or(in_url)
    .or_else(|| super::byline::named_date(doc, month_first))
    .or_else(|| modified.map(str::to_owned))
    // "Last updated: Nov 13, 2025" as a page's only date is the one a reader would quote.
    .or_else(|| {
        super::byline::labelled_date(doc, super::byline::DateLabel::Updated)
            .and_then(|found| normalise_date(&found, month_first))
    })
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
