//! The page outline: what a person would look at before deciding how to scrape a page.
//!
//! Title, headings, repeated blocks (with a selector that selects exactly them, a count,
//! sample text and the fields an item seems to have), tables, forms, JSON-LD types and link
//! counts. Built once per page; the heuristic planner chooses from it and the LLM planner
//! reads it as (untrusted) context.

use crate::page::money::is_price_text;
use std::collections::HashMap;

use scraper::{ElementRef, Html};
use serde::Serialize;

use crate::page::Page;
use crate::page::chrome::in_chrome;
use crate::page::dom::{
    is_css_ident, number_before, parse_selector, selector_covering, selector_for, shorten,
    shows_something, simple_selector, text_of,
};
use crate::page::interrupt::SelectChecked;
use crate::read::records::ListFound;
use crate::read::role::FieldRole;
use crate::read::structured::types_of;
use crate::static_selector;

/// The compact outline of a page.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Outline {
    /// `<title>` (or the first `<h1>`).
    pub title: Option<String>,
    /// `<html lang>`.
    pub lang: Option<String>,
    /// `<meta name=description>`.
    pub description: Option<String>,
    /// The first headings, in document order.
    pub headings: Vec<Heading>,
    /// Repeated blocks, best candidate for "the items" first.
    pub blocks: Vec<RepeatedBlock>,
    /// Data tables.
    pub tables: Vec<TableInfo>,
    /// Number of forms.
    pub forms: usize,
    /// Types of JSON-LD items (`Product`, `Article`, …), as `html.jsonld` reads them.
    pub jsonld_types: Vec<String>,
    /// Whether there is an `<article>` or `<main>` element.
    pub has_article: bool,
    /// Characters of text in paragraphs outside page chrome (how "article-like" the page is).
    pub paragraph_chars: usize,
    /// Links to the same host.
    pub internal_links: usize,
    /// Links to other hosts.
    pub external_links: usize,
    /// Short texts that some records of the page's content lists show and others do not ("In
    /// stock", "Professor", "Pinned"): the values items can be chosen by. Not serialised: the
    /// planner reads them, a model's prompt need not.
    #[serde(skip)]
    pub values: Vec<String>,
}

/// A heading.
#[derive(Debug, Clone, Serialize)]
pub struct Heading {
    /// 1 to 6.
    pub level: u8,
    /// Its text.
    pub text: String,
}

/// A group of sibling elements with the same shape: a list of items.
#[derive(Debug, Clone, Serialize)]
pub struct RepeatedBlock {
    /// A CSS selector matching exactly the items.
    pub selector: String,
    /// How many items.
    pub count: usize,
    /// Text of the first items, shortened.
    pub sample: Vec<String>,
    /// Whether the block sits in navigation, header, footer or a sidebar.
    pub in_chrome: bool,
    /// How much this looks like the page's content list (higher is better).
    pub score: f64,
    /// Fields an item seems to have, with a spec for `extract.fields`.
    pub fields: Vec<FieldCandidate>,
}

/// A field found in most items of a block.
#[derive(Debug, Clone, Serialize)]
pub struct FieldCandidate {
    /// What the field is: title, url, image, price, date, score, comments, author, description.
    pub role: FieldRole,
    /// The `extract.fields` spec, relative to the item.
    pub spec: String,
    /// The value in the first item.
    pub sample: String,
}

/// A data table.
#[derive(Debug, Clone, Serialize)]
pub struct TableInfo {
    /// A selector for it.
    pub selector: String,
    /// Rows (excluding the header).
    pub rows: usize,
    /// Header cells.
    pub headers: Vec<String>,
}

const MAX_HEADINGS: usize = 30;
/// A block's selector may match one more element of its items' shape per this many items,
/// and one at least (see `describe_block`): a forum post with a code block clusters apart
/// from the other posts though it has their tag and classes.
const COVERING_SHARE: usize = 4;
const MAX_BLOCKS: usize = 8;
const SAMPLE_CHARS: usize = 120;
/// An author is named in at most this many characters; longer is a user card around the name.
const MAX_AUTHOR_CHARS: usize = 40;

/// Builds the outline of a parsed page.
pub fn outline(page: &Page) -> Outline {
    let doc = &page.document;
    let title = doc
        .select_checked(static_selector!("title"))
        .next()
        .map(text_of)
        .filter(|t| !t.is_empty())
        .or_else(|| {
            doc.select_checked(static_selector!("h1"))
                .next()
                .map(text_of)
        });
    let lang = doc.root_element().value().attr("lang").map(str::to_owned);
    let description = doc
        .select_checked(static_selector!(
            r#"meta[name="description" i], meta[property="og:description"]"#
        ))
        .find_map(|m| m.value().attr("content"))
        .map(|s| shorten(s.trim(), 300));
    let headings = doc
        .select_checked(static_selector!("h1, h2, h3, h4, h5, h6"))
        .filter_map(|h| {
            let text = text_of(h);
            let level = h.value().name()[1..].parse().ok()?;
            (!text.is_empty()).then(|| Heading {
                level,
                text: shorten(&text, SAMPLE_CHARS),
            })
        })
        .take(MAX_HEADINGS)
        .collect();
    let (internal_links, external_links) = count_links(page);
    let lists = crate::read::records::lists(page, MAX_BLOCKS);
    let paragraph_chars = doc
        .select_checked(static_selector!("p"))
        .filter(|p| !in_chrome(*p))
        .map(|p| text_of(p).len())
        .sum();
    Outline {
        title: title.map(|t| shorten(&t, 200)),
        lang,
        description,
        headings,
        blocks: lists
            .iter()
            .filter_map(|list| describe_block(page, list))
            .collect(),
        values: item_values(page, &lists),
        tables: tables(doc),
        forms: doc.select_checked(static_selector!("form")).count(),
        jsonld_types: jsonld_types(page),
        has_article: doc
            .select_checked(static_selector!("article, main, [role=main]"))
            .next()
            .is_some(),
        paragraph_chars,
        internal_links,
        external_links,
    }
}

fn count_links(page: &Page) -> (usize, usize) {
    let host = page.url.host_str().unwrap_or_default();
    let mut internal = 0;
    let mut external = 0;
    for a in crate::page::interrupt::select_document(&page.document, static_selector!("a[href]")) {
        let Some(url) = a.value().attr("href").and_then(|h| page.url.join(h).ok()) else {
            continue;
        };
        if !matches!(url.scheme(), "http" | "https") {
            continue;
        }
        if url.host_str() == Some(host) {
            internal += 1;
        } else {
            external += 1;
        }
    }
    (internal, external)
}

/// The page's lists as blocks: the records engine's lists (the one list detector), each
/// described by a selector for its items (the first element of each record), its fields and
/// its score, the main list first. A list no selector selects (exactly, or with a few more
/// elements of its items' shape) is left out: the planner reads it through `extract.records`.
fn describe_block(page: &Page, list: &ListFound) -> Option<RepeatedBlock> {
    let doc = &page.document;
    let items: Vec<ElementRef<'_>> = list
        .records
        .iter()
        .filter_map(|record| record.first())
        .filter_map(|id| doc.tree.get(*id).and_then(ElementRef::wrap))
        .collect();
    // The items exactly; else with a few more of their shape the detector left out (a
    // featured card among the products), which are items to a reader too.
    let selector = selector_for(doc, &items)
        .or_else(|| selector_covering(doc, &items, (items.len() / COVERING_SHARE).max(1)))?;
    let items: Vec<ElementRef<'_>> = match parse_selector(&selector) {
        Ok(css) => doc.select(&css).filter(|el| shows_something(*el)).collect(),
        Err(_) => return None,
    };
    let fields = field_candidates(page, &items);
    Some(RepeatedBlock {
        selector,
        count: items.len(),
        sample: items
            .iter()
            .map(|el| text_of(*el))
            .filter(|t| !t.is_empty())
            .take(3)
            .map(|t| shorten(&t, SAMPLE_CHARS))
            .collect(),
        in_chrome: list.chrome,
        score: list.score,
        fields,
    })
}

/// A value is at most this long: longer is a text.
const VALUE_CHARS: usize = 60;
/// Values kept per list, at most.
const MAX_VALUES: usize = 200;

/// The short texts (an element's whole text) that some records of a content list show and
/// others do not, each once: what the items may be chosen by.
fn item_values(page: &Page, lists: &[ListFound]) -> Vec<String> {
    let doc = &page.document;
    let mut values: Vec<String> = Vec::new();
    for list in lists.iter().filter(|l| !l.chrome) {
        let mut holding: HashMap<String, usize> = HashMap::new();
        for record in &list.records {
            let mut seen: Vec<String> = Vec::new();
            for el in record
                .iter()
                .filter_map(|id| doc.tree.get(*id).and_then(ElementRef::wrap))
            {
                for part in std::iter::once(el).chain(el.descendants().filter_map(ElementRef::wrap))
                {
                    // An element's own words beside a child's are a value too: a spec line's
                    // "Manual" after its label ("<span>Transmission</span> Manual").
                    let own = part
                        .children()
                        .any(|c| c.value().is_element())
                        .then(|| crate::page::dom::own_text(part));
                    let text = crate::page::dom::text_capped(part, VALUE_CHARS + 1);
                    // A labelled line's value is a value too ("Hours: Open 24 hours"), as the
                    // records engine cuts the label off.
                    let labelled = after_label(&text).map(str::to_owned);
                    for text in std::iter::once(text).chain(own).chain(labelled) {
                        if !text.is_empty()
                            && text.chars().count() <= VALUE_CHARS
                            && !seen.contains(&text)
                        {
                            seen.push(text);
                        }
                    }
                }
            }
            for text in seen {
                *holding.entry(text).or_default() += 1;
            }
        }
        let mut some: Vec<String> = holding
            .into_iter()
            .filter(|(_, n)| *n < list.records.len())
            .map(|(text, _)| text)
            .collect();
        some.sort();
        some.truncate(MAX_VALUES);
        values.extend(
            some.into_iter()
                .filter(|v| !values.contains(v))
                .collect::<Vec<_>>(),
        );
    }
    values
}

/// The value of a line that starts with a short label and a colon ("Hours: Open 24 hours" →
/// "Open 24 hours"): a label is at most three words, without digits.
fn after_label(text: &str) -> Option<&str> {
    let (label, value) = text.split_once(": ")?;
    let value = value.trim();
    (!label.trim().is_empty()
        && label.split_whitespace().count() <= 3
        && !label.chars().any(|c| c.is_ascii_digit())
        && !value.is_empty())
    .then_some(value)
}

/// Finds the fields most items share, as specs relative to the item.
fn field_candidates(page: &Page, items: &[ElementRef<'_>]) -> Vec<FieldCandidate> {
    let sample: Vec<ElementRef<'_>> = items.iter().take(12).copied().collect();
    let mut out: Vec<FieldCandidate> = Vec::new();
    let mut push = |role: FieldRole, spec: String, value: String| {
        if !out.iter().any(|f| f.role == role) {
            out.push(FieldCandidate {
                role,
                spec,
                sample: shorten(&value, SAMPLE_CHARS),
            });
        }
    };

    // Title: a heading inside the item, else the link with the longest text.
    if let Some(spec) = common_spec(&sample, |item| {
        item.select_checked(static_selector!("h1, h2, h3, h4, h5, h6"))
            .find(|h| !text_of(*h).is_empty())
    }) {
        let heading_link = format!("{spec} a[href]");
        let value = first_value(page, &sample, &spec, None);
        push(FieldRole::Title, spec.clone(), value);
        if let Some(link_value) = sample.iter().find_map(|i| {
            parse_selector(&heading_link)
                .ok()
                .and_then(|s| i.select(&s).next())
                .and_then(|a| a.value().attr("href"))
                .and_then(|h| page.absolute(h))
        }) {
            push(FieldRole::Url, format!("{heading_link}@href"), link_value);
        }
    }
    if let Some(spec) = common_spec(&sample, name_within_link) {
        let value = first_value(page, &sample, &spec, None);
        push(FieldRole::Title, spec, value);
    }
    // A link with the same words in every item ("Select", "View deal") is a button, not
    // the items' name: a name tells items apart.
    let names_items = |spec: &String| names_items_apart(&sample, spec);
    if let Some(spec) = common_spec(&sample, best_link).filter(names_items) {
        let value = first_value(page, &sample, &spec, None);
        push(FieldRole::Title, spec.clone(), value);
        let link = first_value(page, &sample, &spec, Some("href"));
        push(FieldRole::Url, format!("{spec}@href"), link);
    } else if sample
        .iter()
        .all(|i| i.value().name() == "a" && i.value().attr("href").is_some())
    {
        push(FieldRole::Title, ".".into(), text_of(sample[0]));
        push(
            FieldRole::Url,
            "@href".into(),
            first_value(page, &sample, ".", Some("href")),
        );
    } else if let Some(spec) = common_spec(&sample, first_link).filter(names_items) {
        // Rows whose longest link moves from cell to cell (a table of names per year) are
        // named by their first link, which stays in place.
        let value = first_value(page, &sample, &spec, None);
        push(FieldRole::Title, spec.clone(), value);
        let link = first_value(page, &sample, &spec, Some("href"));
        push(FieldRole::Url, format!("{spec}@href"), link);
    }

    if let Some(spec) = common_spec(&sample, |item| {
        item.select_checked(static_selector!("img")).next()
    }) {
        let attr = sample
            .iter()
            .filter_map(|i| i.select_checked(static_selector!("img")).next())
            .find_map(|img| {
                ["src", "data-src", "data-lazy-src"]
                    .into_iter()
                    .find(|a| img.value().attr(a).is_some_and(|v| !v.starts_with("data:")))
            })
            .unwrap_or("src");
        let value = first_value(page, &sample, &spec, Some(attr));
        push(FieldRole::Image, format!("{spec}@{attr}"), value);
    }

    if let Some(spec) = common_spec(&sample, |item| {
        item.select_checked(static_selector!("time")).next()
    }) {
        let has_datetime = sample
            .iter()
            .filter_map(|i| i.select_checked(static_selector!("time")).next())
            .any(|t| t.value().attr("datetime").is_some());
        let spec = if has_datetime {
            format!("{spec}@datetime")
        } else {
            spec
        };
        let (sel, attr) = spec
            .rsplit_once('@')
            .map_or((spec.as_str(), None), |(s, a)| (s, Some(a)));
        let value = first_value(page, &sample, sel, attr);
        push(FieldRole::Date, spec.clone(), value);
    }
    for (role, matcher) in TEXT_ROLES {
        if let Some((spec, value)) = text_role_spec(&sample, *matcher) {
            push(*role, spec, value);
        }
    }
    // When items do not agree on where the name sits in their user cards, the card itself
    // is the author field.
    if let Some(spec) =
        common_spec(&sample, author_name).or_else(|| common_spec(&sample, author_marked))
    {
        let value = first_value(page, &sample, &spec, None);
        push(FieldRole::Author, spec, value);
    } else if let Some((spec, value)) = second_row(&sample, author_marked) {
        // "by alicew" in the row under the title.
        push(FieldRole::Author, spec, value);
    }
    if let Some(spec) = common_spec(&sample, marked_body).or_else(|| {
        common_spec(&sample, |item| {
            item.descendants().filter_map(ElementRef::wrap).find(|el| {
                (el.value().name() == "p"
                    || el.value().classes().any(|c| {
                        let c = c.to_ascii_lowercase();
                        c.contains("desc")
                        || c.contains("summary")
                        || c.contains("excerpt")
                        || c.contains("snippet")
                        // A post's body: `msg_text`, `post-body`, `comment-content`.
                        || c
                            .split(['-', '_'])
                            .any(|w| matches!(w, "text" | "body" | "content" | "message"))
                    }))
                    && text_of(*el).len() > 30
            })
        })
    }) {
        let value = first_value(page, &sample, &spec, None);
        push(FieldRole::Description, spec, value);
    }
    out
}

/// A post's body as schema.org marks it (`itemprop=text` on forum posts and comments).
fn marked_body(item: ElementRef<'_>) -> Option<ElementRef<'_>> {
    item.descendants().filter_map(ElementRef::wrap).find(|el| {
        el.value()
            .attr("itemprop")
            .is_some_and(|p| matches!(p, "text" | "articleBody" | "reviewBody" | "commentText"))
    })
}

type TextMatcher = fn(&str) -> bool;

/// Roles recognised by what their text says.
const TEXT_ROLES: &[(FieldRole, TextMatcher)] = &[
    (FieldRole::Price, is_price_text),
    (FieldRole::Score, |t| {
        has_number_before(
            t,
            &[
                "point", "points", "pts", "votes", "vote", "likes", "upvotes", "stars",
            ],
        )
    }),
    // A shop's star rating: "★ 4.6", "4.6 out of 5", "4.5/5".
    (FieldRole::Score, is_rating_text),
    (FieldRole::Comments, |t| {
        has_number_before(t, &["comment", "comments", "replies", "answers"])
    }),
    (FieldRole::Date, looks_like_date),
];

/// A short text that is a rating: a number with star signs, or a number out of 5 or 10,
/// alone or followed by how many rated it, as shops and bookshops print it ("4.3/5 (1,204
/// ratings)", "4.5 out of 5 stars · 88 reviews"), or a review score with its verbal grade, as
/// booking and restaurant sites print it ("9.3 Superb · 862 reviews", "Scored 8.0 Very good"):
/// the rating is the first number. A grade needs a decimal score (or 10), so "4 Good reasons"
/// is no rating.
pub(crate) fn is_rating_text(text: &str) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    #[allow(clippy::expect_used)]
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r"(?i)^\s*(?:(?:rated\s+)?[★☆⭐]+\s*\d(?:[.,]\d)?|\d(?:[.,]\d)?\s*(?:[★☆⭐]+|/\s*(?:5|10)\b|out\s+of\s+(?:5|10)\b(?:\s+stars?)?)|(?:(?:rated|scored)\s+)?(?:10|\d[.,]\d)\s*[·:-]?\s*(?:exceptional|superb|fabulous|wonderful|excellent|very\s+good|good|pleasant|fair|okay|average|poor|disappointing))(?:\s*[(·,|-]?\s*\d[\d,.]*\s+(?:ratings?|reviews?|votes?)\)?|\s*\(\s*\d[\d,.]*\s*\))?\s*$",
        )
        .expect("valid regex")
    });
    text.chars().count() <= 40 && re.is_match(text)
}

/// A short text (four words at most) with a number before one of `units` ("412 points").
fn has_number_before(text: &str, units: &[&str]) -> bool {
    text.split_whitespace().count() <= 4 && number_before(text, units).is_some()
}

fn looks_like_date(text: &str) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    #[allow(clippy::expect_used)]
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r"(?i)^(\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4}|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2},? \d{4}|\d{1,2} (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{4}|\d+ (minute|hour|day|week|month|year)s? ago)",
        )
        .expect("valid regex")
    });
    text.len() < 40 && re.is_match(text.trim())
}

/// The smallest element inside `item` (or in its next sibling) whose own text matches.
fn find_text_role<'a>(item: ElementRef<'a>, matcher: TextMatcher) -> Option<ElementRef<'a>> {
    item.descendants()
        .filter_map(ElementRef::wrap)
        .filter(|el| el.id() != item.id())
        // Prices and counts sit in small elements; reading the text of every large container
        // would make this quadratic in the item's size.
        .filter(|el| el.descendants().take(24).count() < 24)
        .filter(|el| matcher(&text_of(*el)))
        .last()
}

fn text_role_spec(sample: &[ElementRef<'_>], matcher: TextMatcher) -> Option<(String, String)> {
    if let Some(spec) = common_spec(sample, |item| find_text_role(item, matcher)) {
        let value = sample
            .iter()
            .find_map(|i| find_text_role(*i, matcher))
            .map(text_of)
            .unwrap_or_default();
        return Some((spec, value));
    }
    second_row(sample, |item| find_text_role(item, matcher))
}

/// Rows split in two (a title row, then a row of details, as on link aggregators): the spec
/// of what `find` finds in every item's next sibling, as `+spec`, and its first value.
fn second_row<'a>(
    sample: &[ElementRef<'a>],
    find: impl Fn(ElementRef<'a>) -> Option<ElementRef<'a>> + Copy,
) -> Option<(String, String)> {
    let siblings: Vec<ElementRef<'a>> = sample
        .iter()
        .filter_map(|i| i.next_siblings().find_map(ElementRef::wrap))
        .collect();
    if siblings.len() != sample.len() {
        return None;
    }
    let spec = common_spec(&siblings, find)?;
    let value = siblings
        .iter()
        .find_map(|i| find(*i))
        .map(text_of)
        .unwrap_or_default();
    Some((format!("+{spec}"), value))
}

/// An element whose class says it is the item's title or name (`card__title`, `product-name`).
fn named_title(item: ElementRef<'_>) -> Option<ElementRef<'_>> {
    item.descendants()
        .filter_map(ElementRef::wrap)
        .filter(|el| el.id() != item.id())
        .find(|el| {
            (el.value().classes().any(|c| {
                let c = c.to_ascii_lowercase();
                (c.contains("title")
                    || c.ends_with("name")
                    || c.contains("name_")
                    || c.contains("name-"))
                    && !c.contains("subtitle")
                    && !c.contains("brand")
                    && !c.contains("username")
            }) || labelled_name(*el))
                && {
                    // A rank cell ("10.") is not a name.
                    let text = text_of(*el);
                    (3..=200).contains(&text.chars().count())
                        && text.chars().any(char::is_alphabetic)
                }
        })
}

/// A `dd` whose `dt` label says it is the name (`<dt>Product Name</dt><dd>ST-5</dd>`): cards
/// that spell their fields out as a definition list, with no name class.
fn labelled_name(el: ElementRef<'_>) -> bool {
    el.value().name() == "dd"
        && el
            .prev_siblings()
            .find_map(ElementRef::wrap)
            .filter(|dt| dt.value().name() == "dt")
            .is_some_and(|dt| {
                let label = text_of(dt).to_lowercase();
                (label.contains("name") || label.contains("title"))
                    && !label.contains("brand")
                    && !label.contains("user")
            })
}

/// A name-classed element that is the item's link or inside it (`a > span.product-name` next
/// to a price and a blurb), or stands alone when the item has no link. A name-classed cell
/// that merely contains the link (`td.title > a`) leaves the choice to the link.
fn name_within_link(item: ElementRef<'_>) -> Option<ElementRef<'_>> {
    let named = named_title(item)?;
    match best_link(item) {
        None => Some(named),
        Some(link) => (named.id() == link.id() || named.ancestors().any(|a| a.id() == link.id()))
            .then_some(named),
    }
}

/// The item's first link that has a readable text and leads somewhere.
fn first_link(item: ElementRef<'_>) -> Option<ElementRef<'_>> {
    item.select_checked(static_selector!("a[href]")).find(|a| {
        a.value()
            .attr("href")
            .is_some_and(|h| !h.starts_with('#') && !h.starts_with("javascript:"))
            && text_of(*a).chars().count() >= 3
    })
}

/// The link that names the item: the one with the longest text, not a comment/vote link.
fn best_link(item: ElementRef<'_>) -> Option<ElementRef<'_>> {
    let links = std::iter::once(item)
        .filter(|i| i.value().name() == "a")
        .chain(item.select_checked(static_selector!("a[href]")));
    links
        .filter(|a| {
            a.value()
                .attr("href")
                .is_some_and(|h| !h.starts_with('#') && !h.starts_with("javascript:"))
        })
        .map(|a| (text_of(a).chars().count(), a))
        .filter(|(len, _)| *len >= 3)
        .max_by_key(|(len, _)| *len)
        .map(|(_, a)| a)
        .filter(|a| a.id() != item.id())
}

/// A spec (relative selector) that finds the element picked by `pick` in most sampled items.
fn common_spec<'a, F>(sample: &[ElementRef<'a>], pick: F) -> Option<String>
where
    F: Fn(ElementRef<'a>) -> Option<ElementRef<'a>>,
{
    let mut votes: HashMap<String, usize> = HashMap::new();
    for item in sample {
        let Some(target) = pick(*item) else { continue };
        if let Some(spec) = relative_selector(*item, target) {
            *votes.entry(spec).or_default() += 1;
        }
    }
    let (spec, count) = votes
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))?;
    // Most items must have it, and the spec must find the same kind of element in them.
    (count * 3 >= sample.len() * 2 || (sample.len() <= 3 && count * 2 >= sample.len()))
        .then_some(spec)
}

/// The element an item marks as its author (`itemprop=author`, an `author`/`byline`/`username`
/// class, `rel=author`, else a `data-username`).
fn author_marked(item: ElementRef<'_>) -> Option<ElementRef<'_>> {
    let mut elements = item.descendants().filter_map(ElementRef::wrap);
    let marked = elements
        .clone()
        .find(|el| crate::read::role::marks_author(el.value()));
    // Forum software may keep the poster's name only in the link's data (a quoted post's
    // `<aside data-username>` carries it too, so this comes last).
    marked.or_else(|| elements.find(|el| el.value().attr("data-username").is_some()))
}

/// The author's name: in a user card ("JGD 563 posts · Joined 2007") its first name-length
/// link or `itemprop=name`, else the marked element when it is name-length itself.
fn author_name(item: ElementRef<'_>) -> Option<ElementRef<'_>> {
    let marked = author_marked(item)?;
    let name_length =
        |el: ElementRef<'_>| (1..=MAX_AUTHOR_CHARS).contains(&text_of(el).chars().count());
    let inner = marked
        .descendants()
        .filter_map(ElementRef::wrap)
        .skip(1)
        .find(|el| {
            (el.value().name() == "a" || el.value().attr("itemprop") == Some("name"))
                && name_length(*el)
        });
    inner.or_else(|| name_length(marked).then_some(marked))
}

/// A short selector from `item` to `target`: the target's own shape, prefixed by its parent's
/// when that is needed to tell it apart.
fn relative_selector(item: ElementRef<'_>, target: ElementRef<'_>) -> Option<String> {
    if target.id() == item.id() {
        return None;
    }
    let own = shape_selector(target);
    let selector = parse_selector(&own).ok()?;
    if item.select(&selector).next().map(|e| e.id()) == Some(target.id()) {
        return Some(own);
    }
    let parent = target.parent().and_then(ElementRef::wrap)?;
    let with_parent = if parent.id() == item.id() {
        format!(":scope > {own}")
    } else {
        format!("{} > {own}", shape_selector(parent))
    };
    let selector = parse_selector(&with_parent).ok()?;
    if item.select(&selector).next().map(|e| e.id()) == Some(target.id()) {
        return Some(with_parent);
    }
    // Siblings of one shape (the third link of a row of links): tell them apart by position.
    let tag = target.value().name();
    let position = target
        .prev_siblings()
        .filter_map(ElementRef::wrap)
        .filter(|s| s.value().name() == tag)
        .count()
        + 1;
    let scope = if parent.id() == item.id() {
        ":scope".to_owned()
    } else {
        shape_selector(parent)
    };
    let by_position = format!("{scope} > {tag}:nth-of-type({position})");
    let selector = parse_selector(&by_position).ok()?;
    (item.select(&selector).next().map(|e| e.id()) == Some(target.id())).then_some(by_position)
}

/// `tag.class` without ids (ids differ between items).
fn shape_selector(el: ElementRef<'_>) -> String {
    let mut out = el.value().name().to_owned();
    for class in el.value().classes().filter(|c| is_css_ident(c)).take(2) {
        out.push('.');
        out.push_str(class);
    }
    out
}

/// Whether the texts `spec` finds in the sampled items differ: with three items or more, one
/// text in all of them names none ("Select", "Book now").
fn names_items_apart(sample: &[ElementRef<'_>], spec: &str) -> bool {
    let Ok(selector) = parse_selector(spec) else {
        return true;
    };
    let texts: Vec<String> = sample
        .iter()
        .filter_map(|item| item.select(&selector).next())
        .map(text_of)
        .collect();
    texts.len() < 3 || texts.iter().any(|t| *t != texts[0])
}

fn first_value(page: &Page, sample: &[ElementRef<'_>], spec: &str, attr: Option<&str>) -> String {
    let selector = match spec {
        "." | "" => None,
        css => parse_selector(css).ok(),
    };
    for item in sample {
        let el = match &selector {
            None => Some(*item),
            Some(sel) => item.select(sel).next(),
        };
        let Some(el) = el else { continue };
        let value = match attr {
            Some(a) => el.value().attr(a).map(|v| {
                if matches!(a, "href" | "src" | "data-src") {
                    page.absolute(v).unwrap_or_else(|| v.to_owned())
                } else {
                    v.to_owned()
                }
            }),
            None => Some(text_of(el)),
        };
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            return v;
        }
    }
    String::new()
}

fn tables(doc: &Html) -> Vec<TableInfo> {
    doc.select_checked(static_selector!("table"))
        .filter_map(|table| {
            let rows = table.select_checked(static_selector!("tr")).count();
            if rows < 2
                || table
                    .select_checked(static_selector!("table table"))
                    .next()
                    .is_some()
            {
                return None;
            }
            let headers: Vec<String> = table
                .select_checked(static_selector!("th"))
                .take(12)
                .map(text_of)
                .collect();
            let selector = table_selector(doc, table);
            Some(TableInfo {
                selector,
                rows: rows - usize::from(!headers.is_empty()),
                headers,
            })
        })
        .take(10)
        .collect()
}

fn table_selector(doc: &Html, table: ElementRef<'_>) -> String {
    let own = simple_selector(table);
    let same = parse_selector(&own)
        .map(|s| doc.select(&s).count())
        .unwrap_or(0);
    if same == 1 {
        return own;
    }
    let index = doc
        .select_checked(static_selector!("table"))
        .position(|t| t.id() == table.id())
        .unwrap_or(0);
    format!("table:nth-of-type({})", index + 1)
}

/// Most JSON-LD types listed.
const MAX_JSONLD_TYPES: usize = 20;

/// The `@type`s of the page's JSON-LD items as local names (`Product`, not
/// `http://schema.org/Product`), a run of one type once. Read by the one JSON-LD reader, the
/// one `html.jsonld` answers from, so the outline sees every item it finds (a block with
/// comments or trailing commas, one a head manager wrote into a `<meta>`).
fn jsonld_types(page: &Page) -> Vec<String> {
    let mut types: Vec<String> = crate::read::structured::json_ld(page)
        .iter()
        .filter_map(serde_json::Value::as_object)
        .flat_map(types_of)
        .collect();
    types.dedup();
    types.truncate(MAX_JSONLD_TYPES);
    types
}

#[cfg(test)]
mod tests;
