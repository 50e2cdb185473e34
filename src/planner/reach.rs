//! How far a request reaches beyond the page it names, read from its words: more pages of the
//! list ("the first 3 pages", "all jobs (up to 200)"), and each item's own page ("… with their
//! SKU from each product page", "open each job and get its salary").

use std::sync::OnceLock;

use regex::Regex;

use super::intent::{count, number, words};

/// How many pages of a list the words ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PagesWanted {
    /// "the first 3 pages", "2 pages of results".
    Exactly(u32),
    /// "all pages", "every page", "across pages", "follow the pagination".
    All,
}

/// Reads a page count or "all pages" from the words.
pub fn pages(text: &str) -> Option<PagesWanted> {
    let words = words(text);
    for (i, word) in words.iter().enumerate() {
        if !matches!(word.as_str(), "page" | "pages") {
            continue;
        }
        let before = |k: usize| {
            i.checked_sub(k)
                .and_then(|j| words.get(j))
                .map(String::as_str)
        };
        // "3 pages", "first 3 pages", "3 result pages"
        if let Some(n) = before(1).and_then(number).or_else(|| {
            before(2)
                .and_then(number)
                .filter(|_| matches!(before(1), Some("result" | "results" | "more" | "listing")))
        }) && word == "pages"
            && n > 0
        {
            return Some(PagesWanted::Exactly(u32::try_from(n).unwrap_or(u32::MAX)));
        }
        // "pages 1-3", "pages 1 to 3"
        if word == "pages"
            && let Some(first) = words.get(i + 1)
        {
            if let Some((a, b)) = first.split_once('-')
                && let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>())
                && a <= b
            {
                return Some(PagesWanted::Exactly(b));
            }
            if words.get(i + 2).map(String::as_str) == Some("to")
                && let Some(b) = words.get(i + 3).and_then(|w| number(w))
            {
                return Some(PagesWanted::Exactly(u32::try_from(b).unwrap_or(u32::MAX)));
            }
        }
        if matches!(
            before(1),
            Some("all" | "every" | "each" | "across" | "next" | "following")
        ) || matches!(before(2), Some("all" | "every" | "across"))
        {
            return Some(PagesWanted::All);
        }
    }
    let joined = words.join(" ");
    [
        "paginat",
        "pagination",
        "whole catalog",
        "entire catalog",
        "every result",
    ]
    .iter()
    .any(|cue| joined.contains(cue))
    .then_some(PagesWanted::All)
}

/// The number of items wanted when it is a goal to collect toward: "up to 200", "until you
/// have 100 items", "at least 30", else a plain count ("the first 50 items").
pub fn item_target(text: &str) -> Option<usize> {
    static RE: OnceLock<Regex> = OnceLock::new();
    #[allow(clippy::expect_used)]
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:up to|until (?:you have|there are|we have|reaching)?|at least|a total of|no more than|at most|max(?:imum)?(?: of)?)\s*(\d{1,6})\b",
        )
        .expect("valid regex")
    });
    // "at least 50 comments", "with at least 2 bedrooms" bound each item's value; no goal.
    let (_, text) = super::bounds::read(text);
    let (_, text) = super::measures::read(&text);
    re.captures(&text)
        .and_then(|c| c.get(1)?.as_str().parse().ok())
        .filter(|n| *n > 0)
        .or_else(|| count(&text))
}

/// A request to read each item's own page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetailRequest {
    /// The fields to read there, in the user's words (empty: whatever the page shows).
    pub fields: Vec<String>,
    /// The words about the list itself, without the part about item pages, for planning the
    /// list page ("the products with their SKU from each product page" → "the products").
    pub list_instructions: String,
}

/// Reads "… from each product page", "open each item and get its SKU", "… from the detail
/// pages". "Each job's salary" names a field of the items, not their pages: the list answers
/// it, and the items' pages are read only when the list does not show it (the run's
/// `missing_on_list`).
pub fn details(text: &str) -> Option<DetailRequest> {
    static FROM_EACH: OnceLock<Regex> = OnceLock::new();
    static OPEN_EACH: OnceLock<Regex> = OnceLock::new();
    static CUE: OnceLock<Regex> = OnceLock::new();
    #[allow(clippy::expect_used)]
    let from_each = FROM_EACH.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:from|on|in|at|via)\s+(?:(?:each|every)(?:\s+(?:one|item|of\s+them))?(?:'s)?|their|its|the)\s+(?:own\s+)?(?:[a-z]+\s+){0,2}?(?:detail|details|item|product|job|listing)?\s*(?:page|pages|link|links)\b",
        )
        .expect("valid regex")
    });
    #[allow(clippy::expect_used)]
    let open_each = OPEN_EACH.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:open|visit|follow|click(?:\s+into)?)\s+(?:each|every)\s+(?:[a-z]+\s+){0,2}?(?:(?:and|to)\s+(?:get|read|extract|collect|bring back|take|grab|find|note|record|copy|pull|tell me|give me)|for)\s+(?:its|their|the)?\s*(.+?)(?:[.;!?]|$)",
        )
        .expect("valid regex")
    });
    #[allow(clippy::expect_used)]
    let cue = CUE.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:with|including|plus|get|read|extract|collect|and\s+(?:their|its|the))\b",
        )
        .expect("valid regex")
    });
    if let Some(found) = open_each.captures(text) {
        let whole = found.get(0)?;
        return Some(DetailRequest {
            fields: field_list(found.get(1)?.as_str()),
            list_instructions: join_outside(text, whole.start(), whole.end()),
        });
    }
    let anchor = from_each.find(text)?;
    // "the page" alone is the page the user gave, and "on every page" the pages of the list,
    // not each item's: require an item or detail word, or their/its.
    let said = anchor.as_str().to_lowercase();
    let bare = said
        .split_whitespace()
        .skip(1)
        .collect::<Vec<_>>()
        .join(" ");
    if matches!(
        bare.as_str(),
        "each page" | "every page" | "each pages" | "every pages" | "each link" | "every link"
    ) {
        return None;
    }
    if said.contains(" the ")
        && !["detail", "item", "product", "job", "listing", "own"]
            .iter()
            .any(|w| said.contains(w))
    {
        return None;
    }
    let (fields, start) = match cue_before(text, anchor.start(), cue) {
        Some(cue_start) => {
            let after_cue = cue.find_at(text, cue_start).map_or(cue_start, |m| m.end());
            (field_list(&text[after_cue..anchor.start()]), cue_start)
        }
        None => (Vec::new(), anchor.start()),
    };
    Some(DetailRequest {
        fields,
        list_instructions: join_outside(text, start, anchor.end()),
    })
}

/// Where the last field cue ("with", "including", "and their") before `end` starts, within
/// the same sentence.
fn cue_before(text: &str, end: usize, cue: &Regex) -> Option<usize> {
    let sentence_start = text[..end].rfind(['.', ';', '!', '?']).map_or(0, |i| i + 1);
    cue.find_iter(&text[sentence_start..end])
        .last()
        .map(|m| sentence_start + m.start())
}

/// The text around `start..end`, trimmed of joining words and punctuation.
fn join_outside(text: &str, start: usize, end: usize) -> String {
    let tidy = |s: &str| {
        s.trim()
            .trim_matches(|c: char| c == ',' || c == ';' || c == ':' || c == '-')
            .trim()
            .to_owned()
    };
    let mut before = tidy(&text[..start]);
    for tail in [" then", " and then", " and"] {
        if before.to_lowercase().ends_with(tail) {
            before.truncate(before.len() - tail.len());
            before = tidy(&before);
        }
    }
    let after = tidy(&text[end..]);
    match (before.is_empty(), after.is_empty()) {
        (_, true) => before,
        (true, false) => after,
        (false, false) => format!("{before} {after}"),
    }
}

/// "SKU, price and full description" → ["SKU", "price", "full description"].
fn field_list(text: &str) -> Vec<String> {
    const NOT_FIELDS: &[&str] = &[
        "details",
        "detail",
        "everything",
        "all",
        "info",
        "information",
        "data",
        "more",
        "fields",
    ];
    // "how heavy it is (weight)": a word in brackets is a part of its own.
    text.split([',', '&', '/', '+', '(', ')'])
        .flat_map(|part| part.split(" and "))
        .flat_map(|part| part.split(" plus "))
        .map(|part| {
            let mut words: Vec<&str> = part.split_whitespace().collect();
            while words.first().is_some_and(|w| {
                matches!(
                    w.to_lowercase().as_str(),
                    "the" | "its" | "their" | "a" | "an" | "and" | "each" | "item's" | "own"
                )
            }) {
                words.remove(0);
            }
            words
                .join(" ")
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_owned()
        })
        .filter(|f| {
            !f.is_empty()
                && f.len() <= 40
                && f.split_whitespace().count() <= 3
                && !NOT_FIELDS.contains(&f.to_lowercase().as_str())
        })
        .fold(Vec::new(), |mut fields: Vec<String>, field| {
            if !fields.iter().any(|f| f.eq_ignore_ascii_case(&field)) {
                fields.push(field);
            }
            fields
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_counts_and_all_pages() {
        assert_eq!(
            pages("the jobs on the first 3 pages"),
            Some(PagesWanted::Exactly(3))
        );
        assert_eq!(
            pages("titles from 2 pages of results"),
            Some(PagesWanted::Exactly(2))
        );
        assert_eq!(
            pages("products on pages 1-4"),
            Some(PagesWanted::Exactly(4))
        );
        assert_eq!(
            pages("every product, across all pages"),
            Some(PagesWanted::All)
        );
        assert_eq!(
            pages("follow the pagination and list all posts"),
            Some(PagesWanted::All)
        );
        assert_eq!(pages("the title of the page"), None);
        assert_eq!(pages("list every item on this page"), None);
        assert_eq!(pages("top 10 stories"), None);
    }

    #[test]
    fn targets_to_collect_toward() {
        assert_eq!(item_target("all jobs (up to 200)"), Some(200));
        assert_eq!(
            item_target("keep going until you have 100 items"),
            Some(100)
        );
        assert_eq!(item_target("the first 50 items"), Some(50));
        assert_eq!(item_target("all products"), None);
        // Bounds on a value are no goal.
        assert_eq!(item_target("every story with at least 50 comments"), None);
        assert_eq!(item_target("apartments with at least 2 bedrooms"), None);
        assert_eq!(item_target("all products up to $200"), None);
    }

    #[test]
    fn detail_requests_in_their_common_wordings() {
        let found =
            details("the products with their SKU and description from each product page").unwrap();
        assert_eq!(found.fields, ["SKU", "description"]);
        assert_eq!(found.list_instructions, "the products");

        // A possessive names the items' fields; where they are read is the list's to say.
        assert_eq!(details("all jobs and each job's salary"), None);
        assert_eq!(details("each member's name, role and city"), None);

        let found =
            details("List the products, then open each product and get its SKU and weight.")
                .unwrap();
        assert_eq!(found.fields, ["SKU", "weight"]);
        assert_eq!(found.list_instructions, "List the products");

        let found = details("every listing, with details from the detail pages").unwrap();
        assert!(found.fields.is_empty(), "{found:?}");
        assert_eq!(found.list_instructions, "every listing");

        assert_eq!(details("the title of the page"), None);
        assert_eq!(details("all products on every page"), None);
        assert_eq!(details("all stories with title and points"), None);
        assert_eq!(details("the main text on the page"), None);
    }
}
