//! Words of a request that may be a value of the items: "the professors", "pioneers born in
//! London", "what does DNS mean?", "shoes in stock", "posts that aren't pinned". Words alone
//! cannot tell "professors" (a role some members have) from "members" (the items) or "pls";
//! so every run of words the parser has no other use for is offered to the records engine
//! (`extract.records` `choose`), which keeps the records where the run is the whole value of
//! one column, and only when some records have it and some do not. Words that are no value on
//! the page choose nothing.
//!
//! Rules as data: the words that end a run ([`NOT_VALUES`], the order words of
//! [`super::matches`] and the parser's own tables), the
//! joining words a run may hold ([`JOINING`]), the cues that negate it ([`NEGATIONS`]), and the
//! other names of an item's state ([`STATES`]).

use crate::tools::extract::ValueChoice;
use crate::tools::extract::{FEE_NOUNS, INCLUDED_WORDS, allowed_thing, is_allowed_word};

/// Words that are never a value the items are chosen by: what people say around the value
/// (asking, pointing, counting, ordering, politeness) and the nouns for items in general.
pub(super) const NOT_VALUES: &[&str] = &[
    // Asking and pointing.
    "what's",
    "that's",
    "who's",
    "it's",
    "there's",
    "here's",
    "let's",
    "i'm",
    "what",
    "which",
    "who",
    "whose",
    "whom",
    "where",
    "when",
    "why",
    "how",
    "much",
    "many",
    "is",
    "are",
    // The same verb in the other languages the lexicon reads ("die nicht schwer sind").
    "ist",
    "sind",
    "sont",
    "est",
    "son",
    "was",
    "were",
    "be",
    "been",
    "do",
    "does",
    "did",
    "have",
    "has",
    "had",
    "can",
    "could",
    "would",
    "should",
    "will",
    "i",
    "me",
    "my",
    "we",
    "us",
    "our",
    "you",
    "your",
    "they",
    "them",
    "their",
    "it",
    "its",
    "this",
    "that",
    "these",
    "those",
    "there",
    "here",
    "list",
    "show",
    "give",
    "get",
    "find",
    "tell",
    "want",
    "need",
    "return",
    "extract",
    "scrape",
    "fetch",
    "pull",
    "grab",
    "collect",
    "see",
    "look",
    "say",
    "says",
    "include",
    "including",
    "please",
    "pls",
    "plz",
    "thanks",
    "just",
    "only",
    "also",
    "too",
    "some",
    "any",
    "all",
    "every",
    "each",
    "everything",
    "anything",
    "something",
    "stuff",
    "things",
    "thing",
    "ones",
    "one",
    "rest",
    "other",
    "others",
    "else",
    "page",
    "site",
    "website",
    "them",
    "both",
    "either",
    "now",
    "today",
    "right",
    "currently",
    "ok",
    "okay",
    "hey",
    "entry",
    "entries",
    "term",
    "terms",
    "definition",
    "meaning",
    "mean",
    "means",
    "explain",
    "lookup",
    "up",
    "glossary",
    "about",
    "like",
    "called",
    "named",
    "whole",
    "full",
    // A span the items fall in ("in Hall B over the two days", "during the week"): it ends
    // the value before it.
    "over",
    "during",
    "throughout",
    // Counting and ordering.
    "first",
    "last",
    "top",
    "bottom",
    "next",
    "previous",
    "latest",
    "newest",
    "oldest",
    "recent",
    "most",
    "least",
    "fewest",
    "best",
    "worst",
    "highest",
    "lowest",
    "cheapest",
    "priciest",
    "biggest",
    "smallest",
    "more",
    "less",
    "fewer",
    "than",
    "number",
    "count",
    "total",
    "amount",
    "first",
    "few",
    "rated",
    "reviewed",
    "commented",
    "discussed",
    "popular",
    "scoring",
    "rate",
    "rating",
    "ratings",
    "star",
    "stars",
    "liked",
    "upvoted",
    "paid",
    "paying",
    "pays",
    "expensive",
    "cheap",
    // Asking for columns.
    "field",
    "fields",
    "column",
    "columns",
    "details",
    "info",
    "information",
    "data",
    "value",
    "values",
    "text",
    "along",
];

/// Words that may sit inside a value ("out of stock", "born in London" reads "London"), or
/// before one ("in stock", "on sale"), but are never one alone.
pub(super) const JOINING: &[&str] = &[
    "the", "a", "an", "of", "in", "on", "at", "to", "for", "from", "by", "with", "without", "and",
    "or", "as", "into", "de", "la", "le", "les", "el", "los", "las", "en", "der", "die", "das",
    "im", "am", "sur", "dans",
];

/// Joining words that may begin a state ("in stock", "on sale", "out of stock" reads whole).
const STATE_LEADS: &[&str] = &["in", "on", "at", "for"];

/// Words before a value that keep the items without it ("not pinned", "skip the sold out
/// ones", "everything but the pinned entries"), in the languages the lexicon reads.
const NEGATIONS: &[&str] = &[
    "not",
    "no",
    "never",
    "except",
    "excluding",
    "exclude",
    "without",
    "skip",
    "skipping",
    "but",
    "isn't",
    "aren't",
    "don't",
    "doesn't",
    "wasn't",
    "weren't",
    "non",
    "minus",
    "omit",
    "omitting",
    "ignore",
    "ignoring",
    "nicht",
    "ohne",
    "außer",
    "sans",
    "pas",
    "sauf",
    "sin",
    "excepto",
];

/// Other names of an item's state, tried after the words as written: a shop says "In stock"
/// where a person says "available", "Out of stock" where a person says "sold out".
const STATES: &[(&str, &str)] = &[
    ("available", "in stock"),
    ("in-stock", "in stock"),
    ("sold out", "out of stock"),
    ("unavailable", "out of stock"),
    ("out-of-stock", "out of stock"),
    ("on sale", "sale"),
    // What can be bought is in stock: "items I can actually buy".
    ("buy", "in stock"),
    ("auf lager", "in stock"),
    ("lieferbar", "in stock"),
    ("vorrätig", "in stock"),
    ("ausverkauft", "out of stock"),
    ("en stock", "in stock"),
    ("disponible", "in stock"),
    ("disponibles", "in stock"),
    ("épuisé", "out of stock"),
    ("épuisés", "out of stock"),
    ("agotado", "out of stock"),
    ("agotados", "out of stock"),
    // A pinned post in the other languages the lexicon reads.
    ("angeheftet", "pinned"),
    ("angehefteten", "pinned"),
    ("angeheftete", "pinned"),
    ("épinglé", "pinned"),
    ("épinglés", "pinned"),
    ("fijado", "pinned"),
    ("fijados", "pinned"),
];

/// Nouns that ask for columns alone ([`NOT_VALUES`]) but are the thing a value is said of
/// after its words: "unlimited data", "mobile data".
const HEAD_NOUNS: &[&str] = &["data"];

/// The periods an amount is for, after "per" or "a": "£8 per month", "what it costs a night".
const PERIODS: &[&str] = &["month", "week", "night", "day", "year", "hour"];

/// Endings that make a place a word of its own ("London-born", "Berlin-based").
const PLACE_SUFFIXES: &[&str] = &["-born", "-based"];

/// A run is at most this many words: a longer one is a sentence, not a value.
const RUN_WORDS: usize = 6;

/// The choices offered by the words the parser read (after bounds and text matches took
/// their own): one per run of words with no other use, each with its readings, longest first.
pub fn read(text: &str, not_values: impl Fn(&str) -> bool) -> Vec<ValueChoice> {
    let mut choices = Vec::new();
    let mut run: Vec<String> = Vec::new();
    let mut negated = false;
    let mut since_negation = usize::MAX;
    let close = |run: &mut Vec<String>, negated: bool, choices: &mut Vec<ValueChoice>| {
        if let Some(choice) = choice_of(run, negated) {
            choices.push(choice);
        }
        run.clear();
    };
    let text = things_included(text);
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let mut storey_read_at = None;
    for (at, token) in tokens.iter().copied().enumerate() {
        if storey_read_at == Some(at) {
            continue;
        }
        if token.starts_with('(') {
            close(&mut run, negated, &mut choices);
        }
        // "level 2", "2nd floor": a storey's two words are a value together, though one is
        // a number and the other a column's name ("level" of a course).
        // ("ground floor, 2 of them": a clause's end parts them).
        if let Some(next) = tokens.get(at + 1)
            && !token.ends_with([',', ';', '?', '!', ':', ')', '.'])
            && crate::tools::extract::storey(&format!("{token} {next}")).is_some()
        {
            if run.iter().all(|w| JOINING.contains(&w.as_str())) {
                negated = since_negation <= 3;
            }
            run.extend([token, next].map(|w| {
                w.trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase()
            }));
            storey_read_at = Some(at + 1);
            since_negation = since_negation.saturating_add(2);
            if next.ends_with([',', ';', '?', '!', ':', ')', '.']) {
                close(&mut run, negated, &mut choices);
                since_negation = usize::MAX;
            }
            continue;
        }
        let ends_clause = token.ends_with([',', ';', '?', '!', ':', ')', '.']);
        let bare = token.trim_matches(|c: char| !c.is_alphanumeric());
        // "Room A", "tell me about room a": a letter after a word of a name names the item
        // ("Building A", "Gate A"), as an article is neither written as a capital after a
        // word nor ends a phrase. Kept as a capital, which no joining word is.
        let letter = bare.eq_ignore_ascii_case("a")
            && run.last().is_some_and(|w| !JOINING.contains(&w.as_str()))
            && (bare == "A" || ends_clause || at + 1 == tokens.len());
        let word: String = if letter {
            "A".to_owned()
        } else {
            bare.to_lowercase().replace('’', "'")
        };
        // "each entry's", "the product's": the item's noun, whose words the tables know.
        let stem = word.strip_suffix("'s").unwrap_or(&word);
        // "floor = 2nd": a column and its value, written as a filter, are one run.
        if token == "=" && !run.is_empty() {
            continue;
        }
        if word.is_empty() {
            close(&mut run, negated, &mut choices);
            continue;
        }
        // "unlimited data": the noun after a value's words is the thing they are said of,
        // though alone it asks for columns ("scrape the data").
        if HEAD_NOUNS.contains(&word.as_str())
            && run.last().is_some_and(|w| {
                !JOINING.contains(&w.as_str()) && w.chars().all(char::is_alphabetic)
            })
        {
            run.push(word);
            close(&mut run, negated, &mut choices);
            since_negation = since_negation.saturating_add(1);
            continue;
        }
        // "price per month", "what it costs a month": the period an amount is for is no value.
        if PERIODS.contains(&word.as_str())
            && run.last().is_some_and(|w| {
                w == "per" || w == "a" && run.iter().all(|w| JOINING.contains(&w.as_str()))
            })
        {
            run.pop();
            close(&mut run, negated, &mut choices);
            since_negation = since_negation.saturating_add(1);
            continue;
        }
        let negation = NEGATIONS.contains(&word.as_str()) || word.ends_with("n't");
        // "one change", "2 stops": a count of a journey's stops is part of the value.
        let counts_stops = super::intent::number(&word).is_some()
            && tokens.get(at + 1).is_some_and(|next| {
                let next = next
                    .trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase();
                crate::tools::extract::STOP_NOUNS.contains(&next.as_str())
            });
        if counts_stops {
            if run.iter().all(|w| JOINING.contains(&w.as_str())) {
                negated = since_negation <= 3;
            }
            run.push(word);
            since_negation = since_negation.saturating_add(1);
            continue;
        }
        // "Remote-Jobs", "Bio-Produkte": a compound ending in the items' noun is the items
        // with the value its head names ("remote"), as German writes an adjective into it.
        if let Some((head, noun)) = word.rsplit_once('-')
            && !negation
            && !head.is_empty()
            && head.chars().all(|c| c.is_alphabetic() || c == '-')
            && noun.chars().any(char::is_alphabetic)
            // (The noun may be another language's: "Remote-Stellen".)
            && (not_values(noun) || not_values(&super::lexicon::canonical(noun)))
            && !head.split('-').all(|part| NOT_VALUES.contains(&part) || not_values(part))
        {
            if run.iter().all(|w| JOINING.contains(&w.as_str())) {
                negated = since_negation <= 3;
            }
            run.extend(head.split('-').map(str::to_owned));
            close(&mut run, negated, &mut choices);
            since_negation = since_negation.saturating_add(1);
            continue;
        }
        if negation {
            close(&mut run, negated, &mut choices);
            since_negation = 0;
        } else if JOINING.contains(&word.as_str()) {
            run.push(word);
        } else if word.chars().any(char::is_alphabetic)
            // "entry included": a noun before a word that includes it is the thing included,
            // though it names a kind of item elsewhere ("blog entries").
            && (!super::intent::is_item_noun(&word)
                || !tokens.get(at + 1).is_some_and(|next| {
                    let next = next
                        .trim_matches(|c: char| !c.is_alphanumeric())
                        .to_lowercase();
                    INCLUDED_WORDS.contains(&next.as_str())
                }))
            && (NOT_VALUES.contains(&word.as_str())
                // A compound of such words is one too: "lowest-rated", "best-paid".
                || word.contains('-') && word.split('-').all(|part| NOT_VALUES.contains(&part))
                || super::matches::ORDER_WORDS.contains(&word.as_str())
                    && !an_adjective_here(&word, tokens.get(at + 1).copied())
                    && !a_thing_had(at.checked_sub(1).and_then(|before| tokens.get(before)).copied())
                || not_values(&word)
                || stem != word && not_values(stem))
            // A number goes on a run of words ("Road Racer 3"); alone it is a count.
            || !word.chars().any(char::is_alphabetic)
                && !run.iter().any(|w| !JOINING.contains(&w.as_str()))
        {
            close(&mut run, negated, &mut choices);
        } else {
            if run.iter().all(|w| JOINING.contains(&w.as_str())) {
                // A run starts: it is negated when a cue came shortly before.
                negated = since_negation <= 3;
            }
            // "unpinned", "non-pinned": the items without "pinned", when the page says that.
            if let Some(rest) = word
                .strip_prefix("non-")
                .or_else(|| word.strip_prefix("un"))
                .filter(|r| r.len() >= 4)
            {
                choices.push(ValueChoice {
                    phrases: vec![rest.to_owned()],
                    negated: !negated,
                });
            }
            run.push(word);
        }
        since_negation = since_negation.saturating_add(1);
        if ends_clause {
            close(&mut run, negated, &mut choices);
            since_negation = usize::MAX;
        }
    }
    close(&mut run, negated, &mut choices);
    permissions(choices)
}

/// Words before a thing that say an item comes with it, as a request asks rather than as a
/// listing prints it: "tours that include entry", "which don't charge extra for entry". A
/// verb alone ("include") says so only after the items or a word that stands for them: after
/// a list's noun it is a cue for fields ("include the titles").
const INCLUDING_CUES: &[&[&str]] = &[
    &["include"],
    &["includes"],
    &["don't", "charge", "extra", "for"],
    &["do", "not", "charge", "extra", "for"],
    &["doesn't", "charge", "extra", "for"],
    &["does", "not", "charge", "extra", "for"],
    &["no", "extra", "charge", "for"],
    &["no", "extra", "cost", "for"],
    &["no", "extra", "fee", "for"],
];

/// Words that stand for the items before a verb: "the tours that include entry".
const ITEMS_PRONOUNS: &[&str] = &["that", "which", "who", "they"];

/// `text` with each thing an including cue asks for written as a listing prints it: "tours
/// that include entry" → "tours that entry included", "no extra entry charge" (a charge's
/// noun, [`FEE_NOUNS`]) → "entry included". The thing is the one or two words after the cue (an article skipped), up to a
/// joining word or the end of a clause.
fn things_included(text: &str) -> String {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let bare = |token: &str| {
        token
            .trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’')
            .to_lowercase()
            .replace('’', "'")
    };
    let words: Vec<String> = tokens.iter().map(|t| bare(t)).collect();
    let mut out: Vec<String> = Vec::with_capacity(tokens.len());
    let mut at = 0;
    while at < tokens.len() {
        // "no extra entry charge": the thing sits between the cue and the charge.
        if words[at] == "no"
            && words.get(at + 1).is_some_and(|w| w == "extra")
            && words
                .get(at + 3)
                .is_some_and(|w| FEE_NOUNS.contains(&w.as_str()))
            && words
                .get(at + 2)
                .is_some_and(|w| !JOINING.contains(&w.as_str()))
        {
            out.push(words[at + 2].clone());
            out.push(format!("included{}", trailing(tokens[at + 3])));
            at += 4;
            continue;
        }
        let cue = INCLUDING_CUES.iter().find(|cue| {
            words.len() >= at + cue.len()
                && words[at..at + cue.len()]
                    .iter()
                    .zip(cue.iter())
                    .all(|(w, c)| w == c)
                && (cue.len() > 1
                    || at > 0
                        && (super::intent::is_item_noun(&words[at - 1])
                            || ITEMS_PRONOUNS.contains(&words[at - 1].as_str())))
        });
        let Some(cue) = cue else {
            out.push(tokens[at].to_owned());
            at += 1;
            continue;
        };
        let mut start = at + cue.len();
        while words
            .get(start)
            .is_some_and(|w| matches!(w.as_str(), "the" | "a" | "an"))
        {
            start += 1;
        }
        let mut end = start;
        while end < tokens.len()
            && end < start + 2
            && !words[end].is_empty()
            && !JOINING.contains(&words[end].as_str())
        {
            end += 1;
            if !trailing(tokens[end - 1]).is_empty() {
                break;
            }
        }
        if end == start {
            out.push(tokens[at].to_owned());
            at += 1;
            continue;
        }
        out.extend(words[start..end].iter().cloned());
        out.push(format!("included{}", trailing(tokens[end - 1])));
        at = end;
    }
    out.join(" ")
}

/// The punctuation a token ends with ("entry?" → "?").
fn trailing(token: &str) -> &str {
    let kept = token.trim_end_matches(|c: char| !c.is_alphanumeric());
    &token[kept.len()..]
}

/// "dogs are allowed", "pets aren't permitted", "the kit is included": a thing and the word
/// that allows or includes it, apart because "is" ends a run, are one value ("kit included",
/// as a listing prints it), negated as the allowing word was.
fn permissions(choices: Vec<ValueChoice>) -> Vec<ValueChoice> {
    let mut out: Vec<ValueChoice> = Vec::with_capacity(choices.len());
    for choice in choices {
        let word = choice.phrases.first().map(String::as_str).unwrap_or("");
        let included = INCLUDED_WORDS.contains(&word);
        if let Some(thing) = out
            .last()
            .filter(|_| is_allowed_word(word) || included)
            .and_then(|last| {
                let thing = last.phrases.first()?;
                (!last.negated && (included || allowed_thing(thing).is_some()))
                    .then(|| thing.clone())
            })
        {
            out.pop();
            out.push(ValueChoice {
                phrases: vec![format!("{thing} {word}")],
                negated: choice.negated,
            });
        } else {
            out.push(choice);
        }
    }
    out
}

/// The readings of a run: the run as written (a joining word before it kept: "in stock"),
/// then its spans from longest to shortest that start and end with a word of its own, each
/// followed by its other state names; none when it holds no word of its own, or only
/// numbers.
fn choice_of(run: &[String], negated: bool) -> Option<ValueChoice> {
    let own = |w: &String| !JOINING.contains(&w.as_str());
    let end = run.iter().rposition(own)? + 1;
    let start = run.iter().position(own)?;
    if run[start..end]
        .iter()
        .filter(|w| own(w))
        .all(|w| !w.chars().any(char::is_alphabetic))
        || end - start > RUN_WORDS
    {
        return None;
    }
    let mut phrases: Vec<String> = Vec::new();
    let mut push = |phrase: String| {
        for (said, page) in STATES {
            if phrase == *said && !phrases.iter().any(|p| p == page) {
                phrases.push((*said).to_owned());
                phrases.push((*page).to_owned());
                return;
            }
        }
        // A word that is never a value alone is no reading of its own ("data" of "unlimited
        // data").
        if !phrases.contains(&phrase) && !NOT_VALUES.contains(&phrase.as_str()) {
            phrases.push(phrase);
        }
    };
    // Spans from the longest, each ending on a word of its own and starting on one, or on a
    // preposition that belongs to a state ("in stock", "on sale").
    let starts = |span: &[String]| {
        own(&span[0]) || STATE_LEADS.contains(&span[0].as_str()) && span.len() > 1 && own(&span[1])
    };
    let from = if start > 0 && STATE_LEADS.contains(&run[start - 1].as_str()) {
        start - 1
    } else {
        start
    };
    let words = &run[from..end];
    for len in (1..=words.len()).rev() {
        for span in words.windows(len) {
            if starts(span)
                && own(&span[len - 1])
                && span.iter().any(|w| w.chars().any(char::is_alphabetic))
            {
                push(span.join(" "));
            }
        }
    }
    // "manual-transmission ones": each word of a compound is a reading, after the whole.
    for word in words {
        if word.contains('-')
            && word
                .split('-')
                .all(|part| part.chars().all(char::is_alphabetic))
        {
            for part in word.split('-').filter(|part| part.chars().count() >= 3) {
                push(part.to_owned());
            }
        }
    }
    // "London-born", "Berlin-based": the place is the value a column shows.
    for word in words {
        if let Some(place) = PLACE_SUFFIXES
            .iter()
            .find_map(|suffix| word.strip_suffix(suffix))
            .filter(|place| place.chars().any(char::is_alphabetic))
        {
            push(place.to_owned());
        }
    }
    Some(ValueChoice { phrases, negated })
}

/// Whether the word before an order word makes it a thing the items have: "rooms with group
/// lockers", "which libraries have group rooms", "offering group lessons". An order word as
/// a verb starts its clause ("group the jobs by city", "list products").
fn a_thing_had(before: Option<&str>) -> bool {
    const HAVING: &[&str] = &[
        "with", "have", "has", "having", "offer", "offers", "offering",
    ];
    before.is_some_and(|before| {
        HAVING.contains(
            &before
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
                .as_str(),
        )
    })
}

/// An order word that is an adjective unless its particle follows: "broken down by city"
/// orders, "the broken chargers" are out of order.
fn an_adjective_here(word: &str, next: Option<&str>) -> bool {
    const PARTICLES: &[&str] = &["down", "out", "up", "by", "into"];
    word == "broken"
        && !next.is_some_and(|next| {
            PARTICLES.contains(
                &next
                    .trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase()
                    .as_str(),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_plain(text: &str) -> Vec<(Vec<String>, bool)> {
        read(text, super::super::intent::is_request_word)
            .into_iter()
            .map(|c| (c.phrases, c.negated))
            .collect()
    }

    fn first_readings(text: &str) -> Vec<String> {
        read_plain(text)
            .into_iter()
            .map(|(p, _)| p[0].clone())
            .collect()
    }

    #[test]
    fn a_columns_noun_after_a_values_words_is_what_they_are_said_of() {
        // "data" alone is no reading: it asks for columns.
        assert_eq!(
            read_plain("which ones have unlimited data?")
                .into_iter()
                .find(|(_, negated)| !negated)
                .map(|(phrases, _)| phrases),
            Some(vec!["unlimited data".to_owned(), "unlimited".to_owned()])
        );
        assert!(read_plain("scrape the data").is_empty());
    }

    #[test]
    fn the_period_an_amount_is_for_is_no_value() {
        for text in [
            "each name and its price per month",
            "what does each one cost a month",
            "the rate per night",
        ] {
            assert!(
                !first_readings(text)
                    .iter()
                    .any(|p| ["month", "night", "per month", "per"].contains(&p.as_str())),
                "{text}"
            );
        }
        // A period said of a value stays with it ("7 days a week").
        assert!(
            first_readings("open seven days a week")
                .iter()
                .any(|p| p.contains("week"))
        );
    }

    #[test]
    fn broken_is_a_state_unless_an_order_breaks_the_items_down() {
        assert_eq!(first_readings("show me the broken chargers"), ["broken"]);
        assert!(
            !first_readings("the stations broken down by network")
                .iter()
                .any(|p| p.contains("broken"))
        );
        assert!(
            !first_readings("which ones have the fewest points").contains(&"fewest".to_owned())
        );
    }

    #[test]
    fn an_order_word_had_by_the_items_is_a_value() {
        assert_eq!(
            first_readings("which libraries have group rooms?"),
            ["libraries", "group rooms"]
        );
        assert!(
            !first_readings("group the jobs by city")
                .iter()
                .any(|p| p.contains("group"))
        );
    }

    #[test]
    fn runs_of_words_with_no_other_use_are_offered() {
        assert_eq!(
            first_readings("which members are professors?"),
            ["professors"]
        );
        assert_eq!(first_readings("what does DNS mean?"), ["dns"]);
        assert_eq!(
            read_plain("how much is the Road Racer 3?")[0].0,
            ["road racer 3", "road racer", "racer 3", "road", "racer"]
        );
        assert_eq!(
            first_readings("members with the role professor, name and city"),
            ["professor"]
        );
        // Each word of a compound is a reading after the whole.
        assert_eq!(
            read_plain("just the red-brick ones")[0].0,
            ["red-brick", "red", "brick"]
        );
        // A compound ending in a column's name is that column's value ("Transmission: Manual").
        assert_eq!(
            first_readings("just the manual-transmission ones"),
            ["manual"]
        );
    }

    #[test]
    fn a_noun_of_items_before_included_is_the_thing_included() {
        assert_eq!(
            first_readings("tours with entry included"),
            ["entry included"]
        );
        // Elsewhere it names the items, and is no value.
        assert!(first_readings("the latest entries with their dates").is_empty());
        assert_eq!(
            first_readings("classes where the kit is included"),
            ["kit included"]
        );
    }

    #[test]
    fn a_thing_an_including_cue_asks_for_reads_as_included() {
        assert_eq!(
            first_readings("Which tours include entry?"),
            ["entry included"]
        );
        assert_eq!(
            first_readings("tours with no extra entry charge"),
            ["entry included"]
        );
        assert_eq!(
            first_readings("which classes don't charge extra for the kit"),
            ["kit included"]
        );
        // After a list's noun "include" asks for fields, and no value is read from it.
        assert_eq!(
            things_included("include the titles and prices"),
            "include the titles and prices"
        );
    }

    #[test]
    fn a_thing_and_the_word_that_allows_it_are_one_permission() {
        assert_eq!(
            read_plain("campsites where dogs are not allowed"),
            [
                (vec!["campsites".to_owned()], false),
                (vec!["dogs allowed".to_owned()], true)
            ]
        );
        assert_eq!(
            first_readings("cabins where cats are welcome"),
            ["cabins", "cats welcome"]
        );
    }

    #[test]
    fn a_joining_word_before_a_state_is_part_of_it() {
        assert_eq!(
            read_plain("shoes in stock")[0].0,
            ["shoes in stock", "in stock", "shoes", "stock"]
        );
        // "born" names a column (the year born): the place is a run of its own.
        let choices = read_plain("pioneers born in London");
        let london = &choices
            .iter()
            .find(|(readings, _)| readings.iter().any(|r| r == "london"))
            .unwrap_or_else(|| panic!("{choices:?}"))
            .0;
        let at = |p: &str| london.iter().position(|r| r == p);
        assert!(
            at("in london") < at("london") && at("london").is_some(),
            "{london:?}"
        );
    }

    #[test]
    fn other_names_of_a_state_follow_the_words() {
        assert_eq!(
            read_plain("which products are available right now?")[0].0,
            ["available", "in stock"]
        );
        assert_eq!(
            read_plain("list everything that isn't sold out"),
            [(
                vec![
                    "sold out".to_owned(),
                    "out of stock".to_owned(),
                    "sold".to_owned(),
                    "out".to_owned()
                ],
                true
            )]
        );
    }

    #[test]
    fn what_can_be_bought_and_other_languages_states_are_in_stock() {
        for (text, state) in [
            ("shoes I can actually buy", "in stock"),
            ("Schuhe auf Lager", "in stock"),
            ("productos disponibles", "in stock"),
            ("produits épuisés", "out of stock"),
        ] {
            let choices = read_plain(text);
            assert!(
                choices
                    .iter()
                    .any(|(readings, _)| readings.iter().any(|r| r == state)),
                "{text}: {choices:?}"
            );
        }
    }

    #[test]
    fn a_place_before_born_or_based_is_a_value_of_its_own() {
        let readings = &read_plain("only the London-born pioneers")[0].0;
        assert!(readings.iter().any(|r| r == "london"), "{readings:?}");
        let readings = &read_plain("Berlin-based startups")[0].0;
        assert!(readings.iter().any(|r| r == "berlin"), "{readings:?}");
    }

    #[test]
    fn a_compound_ending_in_the_items_noun_offers_its_head() {
        let jobs = |w: &str| w == "jobs";
        let remote = read("Remote-Jobs", jobs);
        assert_eq!(remote[0].phrases, ["remote"]);
        assert!(!remote[0].negated);
        assert_eq!(read("not Teilzeit-Jobs", jobs)[0].phrases, ["teilzeit"]);
        assert_eq!(read("Remote-Stellen", jobs)[0].phrases, ["remote"]);
        assert!(read("not Teilzeit-Jobs", jobs)[0].negated);
        // A compound of request words only, or one whose end is no noun, is read whole first
        // (its words after it, tried only when the whole is no value).
        assert!(read("best-paid jobs", jobs).is_empty());
        assert_eq!(
            read("part-time", jobs)[0].phrases,
            ["part-time", "part", "time"]
        );
    }

    #[test]
    fn a_non_compound_keeps_the_items_without_its_value() {
        // As "unpinned": the value negated first, the word as written after it.
        assert_eq!(
            read_plain("non-pinned entries")[0],
            (vec!["pinned".to_owned()], true)
        );
    }

    #[test]
    fn negations_keep_the_others() {
        for text in [
            "all posts minus the pinned",
            "posts that aren't pinned",
            "all posts except the pinned ones",
            "skip pinned posts",
            "which posts are not pinned?",
            "everything but the pinned entries",
        ] {
            assert_eq!(
                read_plain(text),
                [(vec!["pinned".to_owned()], true)],
                "{text}"
            );
        }
        // "unpinned": the page may say "Unpinned", or show "Pinned" on the others.
        assert_eq!(
            read_plain("the unpinned posts"),
            [
                (vec!["pinned".to_owned()], true),
                (vec!["unpinned".to_owned()], false)
            ]
        );
    }

    #[test]
    fn a_count_of_stops_stays_with_its_noun() {
        let phrases = |text: &str| -> Vec<Vec<String>> {
            read_plain(text)
                .into_iter()
                .map(|(phrases, _)| phrases)
                .collect()
        };
        for (text, value) in [
            ("trains with one change", "one change"),
            ("flights with 2 stops", "2 stops"),
        ] {
            assert!(
                phrases(text).iter().flatten().any(|p| p == value),
                "{text}: {:?}",
                phrases(text)
            );
        }
    }

    #[test]
    fn a_letter_after_a_word_of_a_name_is_no_article() {
        for text in [
            "Show me Room A",
            "what does room A have?",
            "tell me about room a",
            "I want to book Room A, what's it like?",
        ] {
            let phrases: Vec<String> = read_plain(text)
                .into_iter()
                .flat_map(|(phrases, _)| phrases)
                .collect();
            assert!(phrases.iter().any(|p| p == "room A"), "{text}: {phrases:?}");
        }
        // An article before a noun stays one: "a room with a view" offers no letter.
        assert!(
            read_plain("a room with a view")
                .iter()
                .flat_map(|(p, _)| p)
                .all(|p| !p.contains('A')),
            "{:?}",
            read_plain("a room with a view")
        );
    }

    #[test]
    fn a_storeys_words_and_a_column_set_to_a_value_are_one_run() {
        let phrases = |text: &str| -> Vec<String> {
            read_plain(text)
                .into_iter()
                .flat_map(|(phrases, _)| phrases)
                .collect()
        };
        for (text, value) in [
            ("list the rooms up on level 2", "level 2"),
            ("rooms on the 2nd floor", "2nd floor"),
            ("rooms, floor = 2nd", "floor 2nd"),
        ] {
            assert!(
                phrases(text).iter().any(|p| p == value),
                "{text}: {:?}",
                phrases(text)
            );
        }
        // A clause's end parts a storey's words.
        assert!(
            phrases("rooms on the ground floor, 2 of them")
                .iter()
                .all(|p| p != "floor 2"),
            "{:?}",
            phrases("rooms on the ground floor, 2 of them")
        );
    }

    #[test]
    fn a_thing_and_the_word_that_includes_it_are_one_value() {
        for (text, value) in [
            ("classes where the kit is included", "kit included"),
            ("rooms where breakfast is included", "breakfast included"),
        ] {
            let read = read_plain(text);
            assert!(
                read.iter()
                    .any(|(phrases, negated)| phrases[0] == value && !negated),
                "{text}: {read:?}"
            );
            assert!(
                !read.iter().any(|(phrases, _)| phrases[0] == "included"),
                "{text}: {read:?}"
            );
        }
    }

    #[test]
    fn a_span_the_items_fall_in_ends_the_value_before_it() {
        let read = read_plain("the events in Hall B over the two days");
        assert!(
            read.iter().any(|(phrases, _)| phrases[0] == "in hall b"),
            "{read:?}"
        );
    }

    #[test]
    fn numbers_counts_and_asking_words_offer_nothing() {
        for text in [
            "what's on each entry's page?",
            "the product's price",
            "the 3 newest stories",
            "top 10 products by price",
            "give me everything please",
            "list all the members with name and city",
            "what is on this page?",
        ] {
            assert!(
                read_plain(text).is_empty(),
                "{text}: {:?}",
                read_plain(text)
            );
        }
    }
}
