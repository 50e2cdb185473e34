//! The headline, author and date a reader sees at the top of an article, for pages that
//! declare them neither in JSON-LD nor in `<meta>` (many only print "By Jane Doe · May 2").
//!
//! Everything is read around the headline: the first visible `<h1>` outside page chrome.
//! Bylines elsewhere (author boxes in sidebars, "more by" lists) only count when nothing
//! follows the headline.

use scraper::node::Node;
use scraper::{ElementRef, Html};

use crate::page::chrome::is_hidden;
use crate::page::dates::{date_pattern, normalise_date, other_reading};
use crate::page::dom::collapse_whitespace;
use crate::page::dom::flat_text;
use crate::page::interrupt::SelectChecked;

/// A name is at most this long.
const MAX_NAME_CHARS: usize = 60;
/// A byline line ("By Jane Doe · Editor · 5 min read") is at most this long.
const MAX_BYLINE_CHARS: usize = 160;
/// How far after the headline a byline may sit, in elements.
const MAX_ELEMENTS_AFTER: usize = 400;
/// How much text after the headline is searched for the date.
const DATE_WINDOW_CHARS: usize = 400;
/// How much text just before the headline is searched for the date.
const DATE_WINDOW_BEFORE_CHARS: usize = 120;
/// How much of a page's text is searched for a labelled date ("Published on …").
const LABELLED_DATE_SCAN_CHARS: usize = 100_000;
/// How far before a date a "Published on" or "Posted by <name>," label may start, in bytes.
const LABEL_LOOKBACK_CHARS: usize = 80;
/// How far before a date an "Updated" label may sit, in characters.
const UPDATE_LABEL_CHARS: usize = 24;
/// How far before a date a forum's "last post by <name>" label may sit, in characters.
const ACTIVITY_LABEL_CHARS: usize = 48;
/// How many elements after an author's photo its name is looked for.
const PHOTO_NAME_WINDOW: usize = 12;

/// Paths of author pages: a link to one names the author.
const PROFILE_PATHS: &[&str] = &[
    "/author/",
    "/authors/",
    "/contributor/",
    "/contributors/",
    "/writer/",
    "/writers/",
    "/staff/",
    "/people/",
    "/profile/",
    "/profiles/",
];

/// Words that end a name inside a byline line.
const NAME_ENDS: &[&str] = &[
    "·",
    "⋅",
    "•",
    "●",
    "∙",
    "|",
    "—",
    "–",
    " - ",
    " on ",
    " updated",
    " published",
    " reviewed",
    " posted",
    " in ",
    "\u{a0}",
];

/// Words of page furniture that are never part of a name.
const NOT_NAMES: &[&str] = &[
    "by",
    "share",
    "comments",
    "comment",
    "menu",
    "home",
    "login",
    "log",
    "sign",
    "subscribe",
    "read",
    "more",
    "view",
    "all",
    "posts",
    "follow",
    "about",
    "search",
    "min",
    "minutes",
    "editor",
    "staff",
    "team",
    "contact",
    "privacy",
    "newsletter",
    "print",
];

/// The article's headline element: the first visible `<h1>` with text outside page chrome.
/// Some layouts wrap the article in a class named after the menu or the sidebar
/// (`under-menu`, `story-sidebar-mode`) or put its title in a page-level `<header>`: when no
/// `<h1>` is clear of chrome, the visible one outside navigation that matches the title the
/// page declares is the headline; on a page without any `<h1>`, the first `<h2>`, `<h3>` or
/// `<p>` that matches it.
pub(crate) fn headline(doc: &Html) -> Option<ElementRef<'_>> {
    let h1s = || doc.select_checked(crate::static_selector!("h1"));
    h1s()
        .find(|h| !in_site_chrome(*h) && !flat_text(*h).is_empty())
        .or_else(|| {
            let declared = declared_titles(doc, true);
            if declared.is_empty() {
                return None;
            }
            let is_title_of = |declared: &[String], h: &ElementRef<'_>| {
                let text = flat_text(*h);
                !text.is_empty()
                    && declared.iter().any(|d| same_title(&text, d))
                    && !std::iter::once(*h)
                        .chain(h.ancestors().filter_map(ElementRef::wrap))
                        .any(|a| is_hidden(a) || is_navigation(a))
            };
            h1s().find(|h| is_title_of(&declared, h)).or_else(|| {
                // Site builders (Framer, Webflow) often print the headline in a styled `<h2>`
                // or `<p>` and leave `<h1>` out. Matched against the whole `<title>`, not the
                // one without the site's name: that could be the logo's text.
                if h1s().any(|h| !flat_text(h).is_empty()) {
                    return None;
                }
                let whole = declared_titles(doc, false);
                doc.select_checked(crate::static_selector!("h2, h3, p"))
                    .find(|h| is_title_of(&whole, h))
            })
        })
}

/// Menus, footers and sidebars by tag or role. A `banner` is not among them: the page-level
/// header some layouts put the headline in is one.
fn is_navigation(el: ElementRef<'_>) -> bool {
    let v = el.value();
    matches!(v.name(), "nav" | "footer" | "aside")
        || v.attr("role")
            .is_some_and(|r| matches!(r, "navigation" | "menu" | "menubar" | "contentinfo"))
}

/// The titles the page declares for machines: `og:title`, `twitter:title`, and `<title>`
/// (without the site's name when `without_site` is set).
fn declared_titles(doc: &Html, without_site: bool) -> Vec<String> {
    let metas = doc
        .select_checked(crate::static_selector!(
            "meta[property='og:title'], meta[name='twitter:title']"
        ))
        .filter_map(|m| m.value().attr("content"))
        .map(collapse_whitespace);
    let title = doc
        .select_checked(crate::static_selector!("title"))
        .next()
        .map(|t| {
            let title = flat_text(t);
            if without_site {
                super::title::clean_title(&title)
            } else {
                title
            }
        });
    metas.chain(title).filter(|t| !t.is_empty()).collect()
}

/// Whether two titles are the same headline: more than half the words of each are in the
/// other (a logo "Site Co." is in "Story | Site Co." but not the other way round).
fn same_title(a: &str, b: &str) -> bool {
    let (a, b) = (super::title::title_words(a), super::title::title_words(b));
    let covered = |x: &[String], y: &[String]| {
        !x.is_empty() && 2 * x.iter().filter(|w| y.contains(w)).count() > x.len()
    };
    covered(&a, &b) && covered(&b, &a)
}

/// Whether the element is hidden or sits in the site's navigation, banner, footer or a
/// sidebar. Narrower than `dom::in_chrome`: an article's own `<header class="entry-header">`
/// holds its headline and byline, so headers count only outside `<article>`/`<main>`.
fn in_site_chrome(el: ElementRef<'_>) -> bool {
    let mut chain: Vec<ElementRef<'_>> = el.ancestors().filter_map(ElementRef::wrap).collect();
    chain.reverse();
    chain.push(el);
    // Wrapper classes ("content-sidebar-wrap") and headers only count when no article or
    // main element sits between them and the element; an article's own header is content.
    let mut marked = false;
    let mut in_content = false;
    for a in chain {
        let v = a.value();
        if is_hidden(a) || matches!(v.name(), "nav" | "footer" | "aside") {
            return true;
        }
        if v.attr("role").is_some_and(|r| {
            matches!(
                r,
                "navigation" | "banner" | "contentinfo" | "menu" | "menubar" | "complementary"
            )
        }) {
            return true;
        }
        if matches!(v.name(), "article" | "main") || v.attr("role") == Some("main") {
            marked = false;
            in_content = true;
        }
        // Body classes describe the whole page ("transparent-header has-sidebar").
        if matches!(v.name(), "html" | "body") {
            continue;
        }
        // Utility classes with a variant or an arbitrary value
        // (`lg:mr-[--sidebar-width]`) style the element; they do not say what it is.
        let chrome_class = v.id().into_iter().chain(v.classes()).any(|name| {
            !name.contains([':', '['])
                && name.to_ascii_lowercase().split(['-', '_']).any(|t| {
                    matches!(
                        t,
                        "nav"
                            | "navbar"
                            | "menu"
                            | "footer"
                            | "sidebar"
                            | "breadcrumb"
                            | "breadcrumbs"
                            | "cookie"
                            | "masthead"
                    )
                })
        });
        if chrome_class || (v.name() == "header" && !in_content) {
            marked = true;
        }
    }
    marked
}

/// The author named near the headline (see the module docs), without "By"; far past it, only
/// an article's closing "Written by" line.
pub(crate) fn author(doc: &Html) -> Option<String> {
    let start = headline(doc);
    let mut before: Option<String> = None;
    let mut after_headline = false;
    let mut seen_after = 0;
    // Elements left in which a name counts as the one under an author's photo.
    let mut photo_window = 0;
    for node in doc.root_element().descendants() {
        let Some(el) = ElementRef::wrap(node) else {
            continue;
        };
        if Some(el) == start {
            after_headline = true;
            continue;
        }
        // Far from the headline only a signed ending counts: "Written by Ann Lee".
        let far = after_headline && seen_after > MAX_ELEMENTS_AFTER;
        if after_headline {
            seen_after += 1;
        }
        if far && (before.is_some() || !signs_off(el)) {
            if before.is_some() {
                break;
            }
            continue;
        }
        if is_author_photo(el) {
            photo_window = PHOTO_NAME_WINDOW;
            continue;
        }
        let beside_photo = if photo_window > 0 {
            photo_window -= 1;
            name_line(el)
        } else {
            None
        };
        let Some(name) = beside_photo.or_else(|| author_of(el)) else {
            continue;
        };
        // Comment forms label their fields `comment-form-author` ("Name *").
        if in_site_chrome(el)
            || el
                .ancestors()
                .any(|a| a.value().as_element().is_some_and(|e| e.name() == "form"))
        {
            continue;
        }
        if after_headline || start.is_none() {
            return Some(name);
        }
        before.get_or_insert(name);
    }
    before
}

/// The date printed near the headline, as ISO-8601 (`yyyy-mm-dd`): the first one after it
/// that is not an "Updated …" date, else the last one just before it (a kicker line, "Back to
/// all articles · May 2"), else an updated one. Without a headline, or with no date near it,
/// a date the page labels "Published on" / "Posted on" anywhere outside its chrome.
pub(crate) fn date(doc: &Html, month_first: bool) -> Option<PrintedDate> {
    let found = headline(doc).and_then(|start| near_headline(doc, start));
    let found = found.or_else(|| labelled_date(doc, DateLabel::Published))?;
    let day = normalise_date(&found, month_first)?
        .chars()
        .take(10)
        .collect();
    Some(PrintedDate {
        day,
        other_reading: other_reading(&found, month_first),
    })
}

/// A date as the page prints it near the headline, read as an ISO day.
pub(crate) struct PrintedDate {
    /// `YYYY-MM-DD`, read the way the page's language writes numeric dates.
    pub day: String,
    /// The other day an all-numeric date could be (`09.10.2024`), when it could be two.
    pub other_reading: Option<String>,
}

fn near_headline(doc: &Html, start: ElementRef<'_>) -> Option<String> {
    let mut before = String::new();
    let mut after = String::new();
    // Where `after` holds sentences: a date in a caption or the article's first paragraph
    // ("signed on August 12, 1898") is not when the page was published.
    let mut prose: Vec<std::ops::Range<usize>> = Vec::new();
    let mut after_headline = false;
    for edge in doc.root_element().traverse() {
        let ego_tree::iter::Edge::Close(node) = edge else {
            continue;
        };
        if !after_headline && node.id() == start.id() {
            after_headline = true;
            continue;
        }
        if let Node::Text(t) = node.value()
            && !node.ancestors().any(|a| {
                a.value()
                    .as_element()
                    .is_some_and(|e| matches!(e.name(), "script" | "style" | "noscript"))
            })
        {
            // Windows count what a reader sees: indentation between tags is not text.
            let t = collapse_whitespace(t);
            if t.is_empty() {
                continue;
            }
            if after_headline {
                if t.len() > MAX_BYLINE_CHARS {
                    prose.push(after.len()..after.len() + t.len());
                }
                after.push_str(&t);
                after.push(' ');
                if after.len() > DATE_WINDOW_CHARS {
                    break;
                }
            } else {
                before.push_str(&t);
                before.push(' ');
                if before.len() > 4 * DATE_WINDOW_BEFORE_CHARS {
                    let keep = before.len() - DATE_WINDOW_BEFORE_CHARS;
                    let cut = (keep..before.len())
                        .find(|i| before.is_char_boundary(*i))
                        .unwrap_or(0);
                    before.drain(..cut);
                }
            }
        }
    }
    let keep_from = before.len().saturating_sub(DATE_WINDOW_BEFORE_CHARS);
    let keep_from = (keep_from..before.len())
        .find(|i| before.is_char_boundary(*i))
        .unwrap_or(before.len());
    let before = &before[keep_from..];
    // "Updated Feb 27, 2025" is not when it was published, but when it is the only date
    // shown it is the one a reader would quote.
    // A forum thread's "last post by Ann Lee · Sep 26, 2024" is not when it was started
    // either; the poster's name sits between, so that label is looked for further back.
    let updated = |text: &str, m: &regex::Match<'_>| {
        let lead = text[..m.start()].trim_end().to_ascii_lowercase();
        let tail = |chars: usize| {
            let from = lead
                .char_indices()
                .rev()
                .nth(chars - 1)
                .map_or(0, |(i, _)| i);
            &lead[from..]
        };
        // A poster's profile beside the post ("Joined: Dec 11, 2021") dates the member.
        [
            "updated",
            "modified",
            "edited",
            "reviewed",
            "revised",
            "joined",
            "founded",
            "member since",
            "registered",
        ]
        .iter()
        .any(|w| tail(UPDATE_LABEL_CHARS).contains(w))
            || {
                // Only since the date before this one: that label was that date's.
                let wide = tail(ACTIVITY_LABEL_CHARS);
                let own = date_pattern()
                    .find_iter(wide)
                    .last()
                    .map_or(wide, |d| &wide[d.end()..]);
                ["last post", "last reply", "latest reply", "last activity"]
                    .iter()
                    .any(|w| own.contains(w))
            }
    };
    let in_prose = |m: &regex::Match<'_>| prose.iter().any(|r| r.contains(&m.start()));
    date_pattern()
        .find_iter(&after)
        .find(|m| !updated(&after, m) && !in_prose(m))
        .or_else(|| {
            date_pattern()
                .find_iter(before)
                .filter(|m| !updated(before, m))
                .last()
        })
        .or_else(|| date_pattern().find_iter(&after).find(|m| !in_prose(m)))
        .map(|m| m.as_str().to_owned())
}

/// Class and id parts of elements that print a post's date or byline.
const DATE_ELEMENT_NAMES: &[&str] = &[
    "date",
    "time",
    "datetime",
    "timestamp",
    "published",
    "posted",
    "postdate",
    "pubdate",
    "byline",
    "dateline",
    "author",
];

/// The first date printed in an element named as a date or a byline (`<span
/// class="post_date">`, `<p class="author">by Ann » Tue Aug 27, 2019</p>`, a `<time>`
/// without `datetime`), chrome aside: where pages without a headline (forum threads) print
/// when their first post was written.
pub(crate) fn named_date(doc: &Html, month_first: bool) -> Option<String> {
    let body = doc.select_checked(crate::static_selector!("body")).next()?;
    let mut skipping: Option<ego_tree::NodeId> = None;
    let mut ticker = crate::page::interrupt::Ticker::default();
    for edge in body.traverse() {
        if ticker.stop() {
            return None;
        }
        match edge {
            ego_tree::iter::Edge::Open(node) if skipping.is_none() => {
                let Some(el) = ElementRef::wrap(node) else {
                    continue;
                };
                if crate::page::chrome::is_junk_tag(el.value().name())
                    || crate::page::chrome::is_landmark(el)
                    || is_hidden(el)
                {
                    skipping = Some(node.id());
                    continue;
                }
                if !names_date(el) {
                    continue;
                }
                let found = line_of(el).and_then(|line| {
                    date_pattern()
                        .find(&line)
                        .and_then(|m| normalise_date(m.as_str(), month_first))
                });
                if let Some(date) = found {
                    return Some(date.chars().take(10).collect());
                }
            }
            ego_tree::iter::Edge::Close(node) if skipping == Some(node.id()) => skipping = None,
            _ => {}
        }
    }
    None
}

fn names_date(el: ElementRef<'_>) -> bool {
    let value = el.value();
    value.name() == "time"
        || value.id().into_iter().chain(value.classes()).any(|name| {
            name.to_ascii_lowercase()
                .split(['-', '_'])
                .any(|part| DATE_ELEMENT_NAMES.contains(&part))
        })
}

/// What a page's label says of the date after it.
#[derive(Clone, Copy)]
pub(crate) enum DateLabel {
    /// "Published on", "Posted on", "Published:", "Publish date", a poster's name ("Started
    /// by Ann Lee, June 4, 2024", "Posted by Ann on …"), a byline that ends an article
    /// ("Written by Ann Lee April 8, 2024").
    Published,
    /// "Last updated:", "Updated on", "Last modified:".
    Updated,
}

impl DateLabel {
    fn pattern(self) -> &'static regex::Regex {
        static PUBLISHED: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
        static UPDATED: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
        #[allow(
            clippy::expect_used,
            reason = "patterns in our source; the tests compile them"
        )]
        match self {
            Self::Published => PUBLISHED.get_or_init(|| {
                regex::Regex::new(
                    r"(?i)(?:(?:published|posted|publish(?:ed)? date|publication date|date published)(?: on(?: the)?)?\s*:?|(?:posted|started|submitted) by [^,»|\n]{1,40}(?:,| on| »| \|)|written by [^,»|\n.:]{1,40}?(?:,| on| »| \|)?)\s*$",
                )
                .expect("label pattern is valid")
            }),
            Self::Updated => UPDATED.get_or_init(|| {
                regex::Regex::new(r"(?i)(?:last )?(?:updated|modified|reviewed)(?: on)?\s*:?\s*$")
                    .expect("label pattern is valid")
            }),
        }
    }
}

/// A date the page's text labels as `kind` (see [`DateLabel`]), chrome aside.
pub(crate) fn labelled_date(doc: &Html, kind: DateLabel) -> Option<String> {
    let label = kind.pattern();
    let body = doc.select_checked(crate::static_selector!("body")).next()?;
    let mut text = String::new();
    // One walk, skipping chrome subtrees whole: the page may be deep and large.
    let mut skipping: Option<ego_tree::NodeId> = None;
    let mut ticker = crate::page::interrupt::Ticker::default();
    for edge in body.traverse() {
        if ticker.stop() {
            break;
        }
        match edge {
            ego_tree::iter::Edge::Open(node) if skipping.is_none() => {
                if let Some(el) = ElementRef::wrap(node) {
                    if crate::page::chrome::is_junk_tag(el.value().name())
                        || crate::page::chrome::is_landmark(el)
                    {
                        skipping = Some(node.id());
                    }
                } else if let Node::Text(t) = node.value() {
                    text.push_str(t);
                    text.push(' ');
                    if text.len() > LABELLED_DATE_SCAN_CHARS {
                        break;
                    }
                }
            }
            ego_tree::iter::Edge::Close(node) if skipping == Some(node.id()) => skipping = None,
            _ => {}
        }
    }
    let text = collapse_whitespace(&text);
    date_pattern()
        .find_iter(&text)
        .find(|m| {
            // The label sits just before the date; matching only there keeps this linear.
            let from = (m.start().saturating_sub(LABEL_LOOKBACK_CHARS)..m.start())
                .find(|i| text.is_char_boundary(*i))
                .unwrap_or(m.start());
            label.is_match(&text[from..m.start()])
        })
        .map(|m| m.as_str().to_owned())
}

/// The author this element names, if it is a byline: an author-marked element, a link to
/// an author page, or a line that starts with "By".
fn author_of(el: ElementRef<'_>) -> Option<String> {
    let value = el.value();
    let marked = value
        .attr("rel")
        .is_some_and(|r| r.split_whitespace().any(|w| w == "author"))
        || value.attr("itemprop") == Some("author")
        || value.classes().any(|c| {
            let c = c.to_ascii_lowercase();
            c == "author"
                || c == "byline"
                || c.ends_with("-author")
                || c.ends_with("author-name")
                || c.ends_with("byline")
        });
    let profile_link = value.name() == "a"
        && value.attr("href").is_some_and(|href| {
            let href = href.to_ascii_lowercase();
            PROFILE_PATHS.iter().any(|p| href.contains(p))
        });
    if marked || profile_link {
        // A part that is exactly a name ("<a>Jane Doe</a><span>, Editor</span>", a card's
        // name line) beats a name cut from a longer line ("By Jane Doe · Editor").
        // Its own lines count too: `<p class="author">Ann Lee<br>4 August 2010</p>`.
        let own_lines = el.children().filter_map(|c| match c.value() {
            Node::Text(t) => Some(collapse_whitespace(t)).filter(|t| !t.is_empty()),
            _ => None,
        });
        // The parts first: `<p class="byline"><span>Rex Du, Ph.D.</span> <span>Director,
        // Advanced Analytics</span></p>` reads as one name-like line but holds a name and a role.
        let parts: Vec<String> = el
            .descendants()
            .filter_map(ElementRef::wrap)
            .skip(1)
            .chain(std::iter::once(el))
            .filter_map(line_of)
            .chain(own_lines)
            .collect();
        return parts
            .iter()
            .map(|t| strip_by(t))
            .find(|t| looks_like_name(t))
            .map(str::to_owned)
            .or_else(|| parts.iter().find_map(|t| name_in(strip_by(t))));
    }
    // "By Jane Doe" written out: the line starts with the word in its first text node.
    if !matches!(
        value.name(),
        "p" | "span" | "div" | "li" | "address" | "small" | "em" | "a"
    ) {
        return None;
    }
    let first = el.children().find_map(|c| match c.value() {
        Node::Text(t) if !t.trim().is_empty() => Some(t.trim().to_ascii_lowercase()),
        Node::Element(_) => Some(String::new()),
        _ => None,
    })?;
    if !(first.starts_with("by ") || first == "by" || first.starts_with("written by")) {
        return None;
    }
    let text = line_of(el)?;
    name_in(strip_by(&text))
}

/// Whether the element's text starts "Written by": the byline some sites put at an
/// article's end.
fn signs_off(el: ElementRef<'_>) -> bool {
    const SIGN_OFF: &str = "written by";
    el.children()
        .find_map(|c| match c.value() {
            Node::Text(t) if !t.trim().is_empty() => Some(
                t.trim_start()
                    .get(..SIGN_OFF.len())
                    .is_some_and(|start| start.eq_ignore_ascii_case(SIGN_OFF)),
            ),
            Node::Element(_) => Some(false),
            _ => None,
        })
        .unwrap_or(false)
}

/// An author box's photo (`<img class="author-image">`, `alt="Photo of author"`): its name
/// is the first name-like line after it, though that line carries no author markup.
fn is_author_photo(el: ElementRef<'_>) -> bool {
    let value = el.value();
    value.name() == "img"
        && (value
            .classes()
            .any(|c| c.to_ascii_lowercase().contains("author"))
            || value
                .attr("alt")
                .is_some_and(|alt| alt.to_ascii_lowercase().contains("author")))
}

/// A text-only element whose whole text looks like a name.
fn name_line(el: ElementRef<'_>) -> Option<String> {
    if el.children().any(|c| c.value().is_element()) {
        return None;
    }
    let line = line_of(el)?;
    let name = strip_by(&line);
    looks_like_name(name).then(|| name.to_owned())
}

/// The element's text when it is short enough to be a byline.
fn line_of(el: ElementRef<'_>) -> Option<String> {
    let text = collapse_whitespace(&crate::page::dom::text_capped(el, MAX_BYLINE_CHARS + 1));
    (!text.is_empty() && text.chars().count() <= MAX_BYLINE_CHARS).then_some(text)
}

fn strip_by(text: &str) -> &str {
    let lower = text.to_ascii_lowercase();
    for prefix in ["written by", "by:", "by", "author:"] {
        if lower.starts_with(prefix) && text.is_char_boundary(prefix.len()) {
            let rest = &text[prefix.len()..];
            if rest.starts_with([' ', ':', '\u{a0}']) || prefix.ends_with(':') {
                return rest.trim_start_matches([' ', ':', '\u{a0}']);
            }
        }
    }
    text
}

/// The name a byline line starts with: cut at the first separator, then checked to look
/// like a person's (or a team's) name.
fn name_in(line: &str) -> Option<String> {
    let lower = line.to_ascii_lowercase();
    // A name has no digits: a date ("January 27, 2025") or "5 min read" after it ends it.
    let end = NAME_ENDS
        .iter()
        .filter_map(|sep| lower.find(sep))
        .chain(sentence_end(&lower))
        .chain(lower.find(|c: char| c.is_ascii_digit()))
        .chain(date_pattern().find(line).map(|m| m.start()))
        .min()
        .unwrap_or(line.len());
    let name = line.get(..end)?.trim().trim_end_matches([',', '.', ':']);
    looks_like_name(name).then(|| name.to_owned())
}

/// "Team", "Staff", "Editors": the last word of a team's name.
fn is_team_word(word: &str) -> bool {
    matches!(word.to_lowercase().as_str(), "team" | "staff" | "editors")
}

/// Where a sentence ends in a byline line: the first ". " that does not close an initial
/// ("A. J. Neal") or a title before a name ("Dr. Ann Lee").
fn sentence_end(lower: &str) -> Option<usize> {
    lower.match_indices(". ").map(|(i, _)| i).find(|&i| {
        let word = lower[..i]
            .rsplit(|c: char| !c.is_alphabetic())
            .next()
            .unwrap_or("");
        !(word.chars().count() == 1 || matches!(word, "dr" | "mr" | "mrs" | "ms" | "prof"))
    })
}

fn looks_like_name(name: &str) -> bool {
    let words: Vec<&str> = name.split_whitespace().collect();
    if words.is_empty() || words.len() > 6 || name.chars().count() > MAX_NAME_CHARS {
        return false;
    }
    if !name.chars().next().is_some_and(char::is_uppercase)
        || name.chars().any(|c| c.is_ascii_digit())
    {
        return false;
    }
    // A team signs like a person ("The Upwork Team", "Marketing Team", "CNN Staff").
    let words = match words.split_last() {
        Some((last, rest)) if !rest.is_empty() && is_team_word(last) => rest.to_vec(),
        _ => words,
    };
    words.iter().all(|w| {
        let bare: String = w
            .chars()
            .filter(|c| c.is_alphabetic())
            .collect::<String>()
            .to_lowercase();
        !bare.is_empty()
            && !NOT_NAMES.contains(&bare.as_str())
            && (w
                .chars()
                .next()
                .is_some_and(|c| c.is_uppercase() || !c.is_alphabetic())
                || matches!(
                    bare.as_str(),
                    "and" | "de" | "van" | "von" | "der" | "da" | "la" | "le" | "du" | "del" | "di"
                ))
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn printed_day(doc: &Html, month_first: bool) -> Option<String> {
        date(doc, month_first).map(|printed| printed.day)
    }

    fn doc(body: &str) -> Html {
        Html::parse_document(&format!("<html><body>{body}</body></html>"))
    }

    #[test]
    fn headline_skips_the_logo_in_the_header() {
        let d = doc(
            "<header><h1>Site Co.</h1></header><main><h1 hidden>x</h1><h1>The Story</h1></main>",
        );
        assert_eq!(flat_text(headline(&d).unwrap()), "The Story");
        let wrapped = Html::parse_document(
            r#"<html><body class="has-header with-sidebar"><header role="banner"><h1>Site</h1></header>
            <div class="content-sidebar-wrap"><main><article><header class="entry-header">
            <h1>Tiny Houses</h1></header></article></main><div class="sidebar"><h1>Ads</h1></div></div></body></html>"#,
        );
        assert_eq!(flat_text(headline(&wrapped).unwrap()), "Tiny Houses");
    }

    #[test]
    fn by_line_after_the_headline() {
        let d = doc(r#"<aside><p>By Someone Else</p></aside><h1>Coffee</h1>
            <div class="meta"><p><time>Mar 24, 2025</time></p><p class="x">By Amy Wilhelm</p></div>"#);
        assert_eq!(author(&d).as_deref(), Some("Amy Wilhelm"));
        assert_eq!(printed_day(&d, true).as_deref(), Some("2025-03-24"));
    }

    #[test]
    fn profile_link_and_separators() {
        let d = doc(
            r#"<h1>Scooters</h1><div>By <a href="/author/chris-m">Chris McNamara</a> &sdot; Founder</div>"#,
        );
        assert_eq!(author(&d).as_deref(), Some("Chris McNamara"));
        let card = doc(
            r#"<h1>Coffee</h1><a class="byline-contributor" href="/contributor/Nathan-M/1">
            <div>Nathan Myhrvold</div><div>Dr. Nathan Myhrvold is chief executive officer of a firm that invents.</div></a>"#,
        );
        assert_eq!(author(&card).as_deref(), Some("Nathan Myhrvold"));
        let titled = doc(
            r#"<h1>Puppies</h1><div>By <a href="/author/x">Shelby Loos, DVM</a>. Reviewed by <a href="/author/y">Molly Price</a></div>"#,
        );
        assert_eq!(author(&titled).as_deref(), Some("Shelby Loos, DVM"));
    }

    #[test]
    fn initials_titles_and_dates_in_a_byline() {
        let initials = doc(
            r#"<h1>DC motors</h1><p>By <a href="https://m.example/contributor/a._j._neal">A. J. Neal</a>&nbsp;&nbsp; <a href="/digital"><img src="d.png" alt=""></a></p>"#,
        );
        assert_eq!(author(&initials).as_deref(), Some("A. J. Neal"));
        let sentence =
            doc("<h1>Puppies</h1><p>By Dr. Shelby Loos. She has been a vet for ten years.</p>");
        assert_eq!(author(&sentence).as_deref(), Some("Dr. Shelby Loos"));
        // A month that starts the byline's date is not a first name.
        let dated = doc(
            r#"<h1>Tax season</h1><div class="byline"><span class="byline__date">January 27, 2025</span></div>"#,
        );
        assert_eq!(author(&dated), None);
        // "by Ann Lee" written in the link itself.
        let linked = doc(
            r#"<h1>Zero waste</h1><div class="meta"><span><a href="/search?q=Meaghan+Weeden">by Meaghan Weeden</a></span><span>● December 23, 2025</span></div>"#,
        );
        assert_eq!(author(&linked).as_deref(), Some("Meaghan Weeden"));
        // A team signs like a person; the word alone is not a name.
        let team = doc(
            r#"<h1>Web developers</h1><div><a href="/authors/upwork-staff">The Upwork Team</a></div>"#,
        );
        assert_eq!(author(&team).as_deref(), Some("The Upwork Team"));
        // A byline of two parts: the name, then the role.
        let parts = doc(
            r#"<h1>Analytics</h1><p class="byline"><span class="name">Rex Du, Ph.D.</span> <span class="pos">Director, Advanced Analytics</span></p>"#,
        );
        assert_eq!(author(&parts).as_deref(), Some("Rex Du, Ph.D."));
        assert!(!looks_like_name("Team"));
    }

    #[test]
    fn name_beside_the_author_photo() {
        // An author box with no author markup on the name itself.
        let d = doc(
            r#"<h1>Espresso under $500</h1><div class="box"><div><img alt="Photo of author" src="a.jpg"></div>
            <div><p class="headline">Asser Christensen</p><div>Licensed Q Arabica Grader, M.A. Journalism</div></div></div>"#,
        );
        assert_eq!(author(&d).as_deref(), Some("Asser Christensen"));
        // A plain photo does not turn the next short line into an author.
        let plain =
            doc(r#"<h1>Espresso</h1><img alt="A red machine" src="m.jpg"><p>Gaggia Classic</p>"#);
        assert_eq!(author(&plain), None);
    }

    #[test]
    fn furniture_is_not_a_name() {
        let d = doc(
            r#"<h1>News</h1><p>By subscribing you agree to our terms.</p><a href="/authors/">View all authors</a><p>Read more</p>"#,
        );
        assert_eq!(author(&d), None);
        assert_eq!(printed_day(&d, true), None);
        let form = doc(
            r#"<h1>Post</h1><form><p class="comment-form-author"><label>Name *</label><input></p></form>"#,
        );
        assert_eq!(author(&form), None);
        assert!(!looks_like_name("Name *"));
    }

    #[test]
    fn published_date_beats_the_updated_one() {
        let d = doc("<h1>Guide</h1><p>Updated Feb. 27, 2025 · Published March 1, 2020</p>");
        assert_eq!(printed_day(&d, true).as_deref(), Some("2020-03-01"));
        let only = doc("<h1>Guide</h1><p>Ünïcödé ✓ updated May 6, 2025</p>");
        assert_eq!(printed_day(&only, true).as_deref(), Some("2025-05-06"));
    }

    #[test]
    fn a_headline_in_a_menu_named_wrapper_is_found_by_the_declared_title() {
        let d = Html::parse_document(
            r#"<html><head><title>Ten kettles for pour-over coffee | Brew Co</title></head><body>
            <header><h1>Brew Co</h1></header>
            <div class="section under-menu"><h1>Ten kettles for pour-over coffee</h1>
            <p>
                March 3, 2025
            </p><p>Body text.</p></div></body></html>"#,
        );
        assert_eq!(
            flat_text(headline(&d).unwrap()),
            "Ten kettles for pour-over coffee"
        );
        assert_eq!(printed_day(&d, true).as_deref(), Some("2025-03-03"));
        // The logo agrees with the title's site part only: no headline.
        let logo = Html::parse_document(
            r#"<html><head><title>Ten kettles | Brew Co</title></head><body>
            <header><h1>Brew Co</h1></header><p>Body.</p></body></html>"#,
        );
        assert!(headline(&logo).is_none());
    }

    #[test]
    fn utility_classes_do_not_make_chrome() {
        let d = doc(
            r#"<div class="w-full lg:max-2xl:mr-[--sidebar-container-width]"><h1>Eight clouds compared</h1>
            <a href="/blog/authors/emmanuel-oyibo"><span>Emmanuel Oyibo</span></a></div><p>Text.</p>"#,
        );
        assert_eq!(author(&d).as_deref(), Some("Emmanuel Oyibo"));
        // A class that names the sidebar still does.
        let side = doc(
            r#"<h1>Eight clouds</h1><p>Text.</p><div class="sidebar-widget"><a href="/authors/x">Ann Lee</a></div>"#,
        );
        assert_eq!(author(&side), None);
    }

    #[test]
    fn indentation_does_not_fill_the_date_window() {
        let pad = " ".repeat(300);
        let d = doc(&format!(
            "<div><span>5 min read</span>{pad}<span>{pad}February 6, 2026{pad}</span>{pad}</div><h1>Desks</h1><p>Text</p>"
        ));
        assert_eq!(printed_day(&d, true).as_deref(), Some("2026-02-06"));
    }

    #[test]
    fn the_name_line_of_an_author_element_with_a_date() {
        let d = doc(
            r#"<h1 class="small">The Go Blog</h1><h1>Defer, Panic, and Recover</h1>
            <p class="author">
                Andrew Gerrand<br>
                4 August 2010
            </p><p>Go has the usual mechanisms.</p>"#,
        );
        assert_eq!(author(&d).as_deref(), Some("Andrew Gerrand"));
        let line = doc("<h1>Desks</h1><p>By Ann Lee 5 min read</p>");
        assert_eq!(author(&line).as_deref(), Some("Ann Lee"));
    }

    #[test]
    fn a_threads_last_post_is_not_its_date() {
        let d = doc(
            "<h1>Beginner MTB?</h1><p>23 replies · last post by xJewishNinjax · Sep 26, 2024</p>\
             <div><span>Jan 3, 2024</span><p>Which bike should I buy?</p></div>",
        );
        assert_eq!(printed_day(&d, true).as_deref(), Some("2024-01-03"));
    }

    #[test]
    fn a_page_without_h1_prints_its_headline_in_a_paragraph() {
        let d = doc("<title>The Objective Dad - Top 5 HR tools in 2026</title>\
             <p>The Objective Dad</p><p>Top 5 HR tools in 2026</p><p>Feb 16, 2026</p><p>Body.</p>");
        assert_eq!(flat_text(headline(&d).unwrap()), "Top 5 HR tools in 2026");
        assert_eq!(printed_day(&d, true).as_deref(), Some("2026-02-16"));
    }

    #[test]
    fn a_posters_profile_does_not_date_the_post() {
        let d = doc("<title>View topic - Football season: MLS is back</title>\
             <h2>Football season: MLS is back</h2><div>Posts: 65703 Founded: Dec 11, 2021</div>\
             <p>by Ann » Tue Aug 27, 2019 1:47 am</p>");
        assert_eq!(printed_day(&d, true).as_deref(), Some("2019-08-27"));
    }

    #[test]
    fn a_threads_starter_dates_it() {
        let d = doc(
            "<h2>How is everyone using AI?</h2><p>Started by Biology Forums, June 04, 2024, 11:23:55 AM</p>\
             <p>Reply #3 on: July 1, 2024</p>",
        );
        assert_eq!(printed_day(&d, true).as_deref(), Some("2024-06-04"));
    }

    #[test]
    fn day_first_date_under_the_headline() {
        let d = doc("<h1>Lawn sizes</h1><span> 17.05.2021 </span><p>Before buying…</p>");
        assert_eq!(printed_day(&d, false).as_deref(), Some("2021-05-17"));
    }
}
