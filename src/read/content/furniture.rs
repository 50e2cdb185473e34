//! An article's furniture inside its content block: the headline, the byline and date lines
//! above the body, the "Related stories" / "Read next" lists and the author's box after it,
//! and (on any page) forms to fill in. A reader copying the article leaves them out; the
//! headline, byline and date have fields of their own. Plain text also leaves out photo
//! captions, which describe a picture it does not show.

use std::collections::{HashMap, HashSet};

use ego_tree::NodeId;
use ego_tree::iter::Edge;
use scraper::ElementRef;

use super::stats::Stats;
use crate::page::dates::date_pattern;
use crate::page::dom::flat_text;

/// A byline or date line is at most this long.
const MAX_LINE_CHARS: usize = 160;
/// The body starts at the first paragraph with this much text.
const BODY_PARAGRAPH_CHARS: usize = 120;
/// Above this share of link text a block is a listing, not an article.
const MAX_PROSE_LINK_SHARE: f64 = 0.2;
/// A block after a "Related" heading is a story list above this share of link text.
const TEASER_LINK_SHARE: f64 = 0.5;
/// An author box is a small part of the article: below this share of its text.
const AUTHOR_BOX_MAX_SHARE: f64 = 0.25;
/// An article has at most this many author boxes (one above, one below).
const MAX_AUTHOR_BOXES: usize = 2;
/// A form is an inset (newsletter, contact) below this share of the block's text; above
/// it, it wraps the page (ASP.NET pages put everything in one `<form>`).
const FORM_MAX_SHARE: f64 = 0.5;

/// Parts of a class or id that, beside "author", name a box about the author.
const AUTHOR_BOX_PARTS: &[&str] = &[
    "bio",
    "box",
    "about",
    "card",
    "profile",
    "info",
    "description",
];

/// Class and id parts that name byline and date furniture.
const BYLINE_NAMES: &[&str] = &[
    "byline",
    "author",
    "authors",
    "dateline",
    "date",
    "timestamp",
    "published",
    "posted",
    "updated",
    "meta",
    "entry-meta",
    "post-meta",
    "article-meta",
    "read-time",
    "reading-time",
    "readtime",
];

/// How headings of other stories' lists begin.
const TEASER_HEADINGS: &[&str] = &[
    "related",
    "read next",
    "read more",
    "more from",
    "more stories",
    "more articles",
    "more on",
    "most popular",
    "most read",
    "popular posts",
    "popular articles",
    "recent posts",
    "recent articles",
    "latest posts",
    "latest articles",
    "latest news",
    "you may also like",
    "you might also like",
    "you may be interested",
    "recommended",
    "trending",
    "also read",
    "keep reading",
    "up next",
    "don't miss",
    "further reading on",
    "share this",
    "share on",
];

/// Adds the furniture under `root` to `skip`: forms to fill in on any page; in prose, the
/// headline (when the page has one in the block), short byline/date lines before the first
/// real paragraph, teaser lists under a "Related …" heading, tables of contents and the
/// author's box.
pub(crate) fn skip_furniture(
    root: ElementRef<'_>,
    headline: Option<ElementRef<'_>>,
    stats: &HashMap<NodeId, Stats>,
    skip: &mut HashSet<NodeId>,
) {
    skip_entry_forms(root, stats, skip);
    if is_prose(root, stats) {
        if let Some(headline) = headline
            && headline.ancestors().any(|a| a.id() == root.id())
        {
            skip.insert(headline.id());
        }
        skip_lines_above_body(root, skip);
        skip_teaser_lists(root, stats, skip);
        skip_contents_and_placeholders(root, stats, skip);
        skip_author_boxes(root, stats, skip);
    }
}

/// Whether a container is prose (little of its text in links). Listings and forums are made
/// of short dated entries: only an article's prose has furniture around it.
pub(crate) fn is_prose(root: ElementRef<'_>, stats: &HashMap<NodeId, Stats>) -> bool {
    stats
        .get(&root.id())
        .is_some_and(|s| s.text > 0 && (s.link as f64) < MAX_PROSE_LINK_SHARE * s.text as f64)
}

/// Forms with a field to type in (newsletter sign-ups, contact and comment forms, search
/// boxes): their labels and consent text are what the reader fills in, not what the page
/// says. A form holding most of the block wraps the page itself and stays.
fn skip_entry_forms(
    root: ElementRef<'_>,
    stats: &HashMap<NodeId, Stats>,
    skip: &mut HashSet<NodeId>,
) {
    let total = stats.get(&root.id()).map_or(0, |s| s.text);
    for form in root
        .descendants()
        .filter_map(ElementRef::wrap)
        .filter(|el| el.value().name() == "form")
    {
        let text = stats.get(&form.id()).map_or(0, |s| s.text);
        if (text as f64) < FORM_MAX_SHARE * total as f64
            && has_entry_field(form)
            && !is_order_form(form)
        {
            skip.insert(form.id());
        }
    }
}

/// A shop's order form: the product's options (radio buttons), a quantity, or a cart to
/// send it to. Its option names and prices are the product's, whatever else it asks for
/// (an engraving text, a gift message).
fn is_order_form(form: ElementRef<'_>) -> bool {
    let value = form.value();
    let to_cart = |s: &str| {
        let lower = s.to_ascii_lowercase();
        lower.contains("cart") || lower.contains("basket")
    };
    value.attr("action").is_some_and(to_cart)
        || value.id().into_iter().chain(value.classes()).any(to_cart)
        || form.descendants().filter_map(ElementRef::wrap).any(|el| {
            let v = el.value();
            v.name() == "input"
                && (v
                    .attr("type")
                    .is_some_and(|t| t.eq_ignore_ascii_case("radio"))
                    || v.attr("name").is_some_and(|n| {
                        let n = n.to_ascii_lowercase();
                        n.contains("qty") || n.contains("quantity")
                    }))
        })
}

/// Whether a form has a field a visitor types words into (not only buttons, choices and a
/// quantity, as a shop's "Add to cart" form around a product's details has).
fn has_entry_field(form: ElementRef<'_>) -> bool {
    form.descendants()
        .filter_map(ElementRef::wrap)
        .any(|el| match el.value().name() {
            "textarea" => true,
            "input" => matches!(
                el.value()
                    .attr("type")
                    .unwrap_or("text")
                    .to_ascii_lowercase()
                    .as_str(),
                "text" | "email" | "tel" | "search" | "url"
            ),
            _ => false,
        })
}

/// The box about the author (photo, name, biography, "More posts by"), above or below the
/// article: the byline has a field of its own and the biography is not the article. An
/// article has one or two; more are the author lines of a list of items, which stay.
fn skip_author_boxes(
    root: ElementRef<'_>,
    stats: &HashMap<NodeId, Stats>,
    skip: &mut HashSet<NodeId>,
) {
    let total = stats.get(&root.id()).map_or(0, |s| s.text);
    let mut boxes: Vec<NodeId> = Vec::new();
    // One walk; a box's inside is not looked at (a box within a box is the same box).
    let mut inside: Option<NodeId> = None;
    let mut ticker = crate::page::interrupt::Ticker::default();
    for edge in root.traverse() {
        if ticker.stop() {
            return;
        }
        match edge {
            Edge::Open(node) if inside.is_none() => {
                let Some(el) = ElementRef::wrap(node) else {
                    continue;
                };
                if names_author_box(el)
                    && stats
                        .get(&el.id())
                        .is_some_and(|s| (s.text as f64) < AUTHOR_BOX_MAX_SHARE * total as f64)
                {
                    boxes.push(el.id());
                    inside = Some(el.id());
                    if boxes.len() > MAX_AUTHOR_BOXES {
                        return;
                    }
                }
            }
            Edge::Close(node) if inside == Some(node.id()) => inside = None,
            _ => {}
        }
    }
    skip.extend(boxes);
}

/// `author-bio`, `about-the-author`, `post-author__box`, `authorbox`: a class or id with
/// an author word and a box word among its parts.
fn names_author_box(el: ElementRef<'_>) -> bool {
    let value = el.value();
    value.id().into_iter().chain(value.classes()).any(|name| {
        let lower = name.to_ascii_lowercase();
        let parts: Vec<&str> = lower.split(['-', '_']).filter(|p| !p.is_empty()).collect();
        let author = parts.iter().position(|p| {
            *p == "author"
                || *p == "authors"
                || p.strip_prefix("author")
                    .is_some_and(|rest| AUTHOR_BOX_PARTS.contains(&rest))
        });
        author.is_some_and(|at| {
            (parts[at] != "author" && parts[at] != "authors")
                || parts
                    .iter()
                    .enumerate()
                    .any(|(i, p)| i != at && AUTHOR_BOX_PARTS.contains(p))
        })
    })
}

/// Whether `el` is the caption of a photo (a `<figcaption>` of a figure showing an image
/// and no code or table): credits and descriptions of a picture plain text leaves out.
pub(crate) fn is_photo_caption(el: ElementRef<'_>) -> bool {
    if el.value().name() != "figcaption" {
        return false;
    }
    let Some(figure) = el
        .ancestors()
        .filter_map(ElementRef::wrap)
        .find(|a| a.value().name() == "figure")
    else {
        return false;
    };
    let mut image = false;
    for inner in figure.descendants().filter_map(ElementRef::wrap) {
        match inner.value().name() {
            "img" | "picture" | "video" => image = true,
            "pre" | "code" | "table" => return false,
            _ => {}
        }
    }
    image
}

/// A table of contents (a list of links to the article's own sections, which the body
/// repeats) and placeholder lines a script would have replaced ("Loading prices…").
fn skip_contents_and_placeholders(
    root: ElementRef<'_>,
    stats: &HashMap<NodeId, Stats>,
    skip: &mut HashSet<NodeId>,
) {
    for el in root.descendants().filter_map(ElementRef::wrap) {
        let value = el.value();
        let named_contents = value.id().into_iter().chain(value.classes()).any(|name| {
            let lower = name.to_ascii_lowercase();
            lower.contains("table-of-contents") || lower.split(['-', '_']).any(|part| part == "toc")
        });
        let linked = stats
            .get(&el.id())
            .is_some_and(|s| s.text > 0 && (s.link as f64) >= TEASER_LINK_SHARE * s.text as f64);
        if named_contents && linked {
            skip.insert(el.id());
            continue;
        }
        if matches!(value.name(), "p" | "div" | "span" | "li") && el.children().count() == 1 {
            let text = flat_text(el);
            let lower = text.to_lowercase();
            if text.chars().count() <= 60
                && lower.starts_with("loading")
                && (lower.ends_with('…') || lower.ends_with("..."))
            {
                skip.insert(el.id());
            }
        }
    }
}

/// Byline and date lines: short blocks above the body named or worded as such.
fn skip_lines_above_body(root: ElementRef<'_>, skip: &mut HashSet<NodeId>) {
    let mut ticker = crate::page::interrupt::Ticker::default();
    for el in root.descendants().filter_map(ElementRef::wrap) {
        if ticker.stop() {
            return;
        }
        let name = el.value().name();
        if name == "p" && flat_text(el).chars().count() >= BODY_PARAGRAPH_CHARS {
            return;
        }
        if skip.contains(&el.id()) || skipped_above(el, root, skip) {
            continue;
        }
        if !matches!(
            name,
            "p" | "div"
                | "span"
                | "time"
                | "address"
                | "small"
                | "li"
                | "ul"
                | "section"
                | "header"
        ) {
            continue;
        }
        let text = flat_text(el);
        let chars = text.chars().count();
        if chars == 0 || chars > MAX_LINE_CHARS {
            continue;
        }
        if named_as_byline(el) || worded_as_byline(&text) {
            skip.insert(el.id());
        }
    }
}

/// Whether an ancestor of `el` below `root` is already left out. The walk stops at the first
/// body paragraph, near the top of the block, so these chains stay short.
fn skipped_above(el: ElementRef<'_>, root: ElementRef<'_>, skip: &HashSet<NodeId>) -> bool {
    el.ancestors()
        .take_while(|a| a.id() != root.id())
        .any(|a| skip.contains(&a.id()))
}

fn named_as_byline(el: ElementRef<'_>) -> bool {
    let value = el.value();
    if value.name() == "time"
        || value
            .attr("itemprop")
            .is_some_and(|p| p == "author" || p.starts_with("date"))
    {
        return true;
    }
    value.id().into_iter().chain(value.classes()).any(|name| {
        let lower = name.to_ascii_lowercase();
        BYLINE_NAMES.iter().any(|b| {
            lower == *b
                || lower.split(['-', '_']).any(|part| part == *b)
                || lower.ends_with(&format!("-{b}"))
                || lower.ends_with(&format!("__{b}"))
        })
    })
}

/// "By Ann Lee", "Updated March 3, 2025", "5 min read", or a line that is mostly a date.
fn worded_as_byline(text: &str) -> bool {
    let lower = text.trim().to_lowercase();
    let opens = [
        "by ",
        "written by",
        "posted by",
        "posted on",
        "published",
        "updated",
        "last updated",
        "last modified",
    ];
    if opens.iter().any(|o| lower.starts_with(o)) {
        return true;
    }
    if lower.ends_with("min read")
        || lower.ends_with("minute read")
        || lower.ends_with("minutes read")
    {
        return true;
    }
    date_pattern()
        .find(&lower)
        .is_some_and(|m| m.as_str().chars().count() * 2 >= lower.chars().count())
}

/// A heading that announces other stories, and the link-heavy blocks that follow it.
fn skip_teaser_lists(
    root: ElementRef<'_>,
    stats: &HashMap<NodeId, Stats>,
    skip: &mut HashSet<NodeId>,
) {
    let headings: Vec<ElementRef<'_>> = root
        .descendants()
        .filter_map(ElementRef::wrap)
        .filter(|el| matches!(el.value().name(), "h2" | "h3" | "h4" | "h5" | "h6"))
        .filter(|el| {
            let text = flat_text(*el).to_lowercase();
            text.chars().count() <= 60 && TEASER_HEADINGS.iter().any(|t| text.starts_with(t))
        })
        .collect();
    for heading in headings {
        let mut followers = Vec::new();
        for sibling in heading.next_siblings().filter_map(ElementRef::wrap) {
            if matches!(sibling.value().name(), "h1" | "h2" | "h3") {
                break;
            }
            let Some(s) = stats.get(&sibling.id()) else {
                continue;
            };
            if s.text == 0 || (s.link as f64) < TEASER_LINK_SHARE * s.text as f64 {
                break;
            }
            followers.push(sibling.id());
        }
        // A heading with no story list after it is the article's own section.
        if followers.is_empty() {
            continue;
        }
        skip.insert(heading.id());
        skip.extend(followers);
    }
}
