//! Orders and bounds on a measure the items print with its unit, not on money, a score or a
//! date: "the largest apartment", "the roomiest rental" (an area: "1,450 sq ft", "85 m²"),
//! "apartments with at least 2 bedrooms", "2+ bedroom rentals" ("3 beds"). The measure is
//! named (`size`, `bedrooms`) and read as a named field: the records engine's column counted
//! in its unit answers it (`tools::extract::columns`, rule `counted_in_its_unit`), and
//! `data.sort` / `data.filter` read the number before the unit.

use std::sync::OnceLock;

use regex::Regex;

use super::bounds::{self, Bound, BoundOp};
use crate::read::role::FieldRole;

/// The name a size order asks for: an area's name, which an area's unit answers.
pub const SIZE: &str = "size";

/// Words of an order by size, most first or least first.
const LARGEST: &[&str] = &[
    "largest",
    "biggest",
    "most spacious",
    "roomiest",
    "most space",
    "most room",
    "most square feet",
    "most square footage",
    "most square meters",
    "most square metres",
];
const SMALLEST: &[&str] = &[
    "smallest",
    "tiniest",
    "least spacious",
    "least space",
    "fewest square feet",
];

/// Nouns after "largest" that are no size ("the biggest discount", "the largest savings").
const NOT_A_SIZE: &[&str] = &[
    "discount",
    "discounts",
    "saving",
    "savings",
    "sale",
    "reduction",
    "drop",
    "selection",
];

/// Spaces let by their area, whose size an order by size is of ("the largest unit").
const SPACES: &[&str] = &["unit", "room", "suite", "office", "plot", "pitch"];

/// Words that order by how much of the thing named after them an item has: "the lowest
/// mileage", "the fewest miles", "the most bedrooms". "most" and "least" take a plural: "the
/// most popular" is no amount of anything.
const MORE_FIRST: &[&str] = &["highest", "greatest", "most"];
const LESS_FIRST: &[&str] = &["lowest", "fewest", "least"];

/// Words of an order by how long an item takes, most first or least first ("the trail that
/// takes the longest", "the quickest recipe"). A duration's column answers them.
const LONGEST_TIME: &[&str] = &[
    "takes the longest",
    "take the longest",
    "takes longest",
    "longest time",
    "longest duration",
    "most duration",
    "longest walking time",
    "longest cooking time",
    "most time",
    "most hours",
    "most time-consuming",
    "slowest",
];
const SHORTEST_TIME: &[&str] = &[
    "quickest",
    "fastest",
    "least time",
    "shortest time",
    "shortest duration",
    "least duration",
    "fewest hours",
    "least time-consuming",
];

/// Words of an order by how far an item is from a place, nearest first or farthest first
/// ("the 3 cottages closest to the beach", "nearest the station"). A distance's column
/// answers them.
const NEAREST: &[&str] = &[
    "closest",
    "nearest",
    "shortest walk",
    "shortest distance",
    "least far",
    "am nächsten",
    "plus proche",
    "plus proches",
    "más cerca",
    "más cercano",
    "más cercana",
    "más cercanos",
    "más cercanas",
];
const FARTHEST: &[&str] = &["farthest", "furthest"];

/// The name an order by how long an item is goes on ("the longest flight", "the shortest
/// trail"): a distance where the items show one, else how long they take
/// (`tools::extract::columns`, rules `length_as_a_distance` and `counted_in_its_unit`).
pub const LENGTH: &str = "length";

/// The name an order by how far items are is on: the records engine's `distance` column, or
/// one written in a distance's unit (`tools::extract::columns`).
pub const DISTANCE: &str = "distance";

/// An order by a measure: (descending, the measure's name), when the words ask for one and
/// the word after it is no other kind of value. A size ("the largest apartment") first, then
/// how long an item takes ("the quickest"), then the amount of a thing named ("the lowest
/// mileage").
pub fn order(lower: &str, other_value: impl Fn(&str) -> bool) -> Option<(bool, String)> {
    size_order(lower, &other_value)
        .or_else(|| duration_order(lower))
        .or_else(|| distance_order(lower))
        .or_else(|| length_order(lower, &other_value))
        .or_else(|| amount_order(lower, &other_value))
}

/// Whether one of `phrases` stands among the words, whole words in a row, and the word after
/// it ("" at the end) passes `next_ok`.
fn said(words: &[String], phrases: &[&str], next_ok: impl Fn(&str) -> bool) -> bool {
    phrases.iter().any(|phrase| {
        let phrase: Vec<&str> = phrase.split(' ').collect();
        words.windows(phrase.len()).enumerate().any(|(at, span)| {
            let next = words.get(at + phrase.len()).map_or("", String::as_str);
            span.iter().zip(&phrase).all(|(word, said)| word == said) && next_ok(next)
        })
    })
}

/// An order by how long an item takes: (descending, [`DURATION`]).
fn duration_order(lower: &str) -> Option<(bool, String)> {
    let words = super::intent::words(lower);
    let asks = |phrases: &[&str]| said(&words, phrases, |_| true);
    if asks(LONGEST_TIME) {
        Some((true, DURATION.to_owned()))
    } else if asks(SHORTEST_TIME) {
        Some((false, DURATION.to_owned()))
    } else if asks(&[
        "by time",
        "by duration",
        "by walking time",
        "by cooking time",
    ]) {
        // "the shortest walk by time", "longest trail by duration": the extreme says which end.
        let most_first = ["longest", "most", "top", "slowest"]
            .iter()
            .any(|w| words.iter().any(|word| word == w));
        Some((most_first, DURATION.to_owned()))
    } else {
        None
    }
}

/// An order by how far an item is: (descending, [`DISTANCE`]); "by distance" is nearest
/// first unless the farthest are asked.
fn distance_order(lower: &str) -> Option<(bool, String)> {
    let words = super::intent::words(lower);
    let asks = |phrases: &[&str]| said(&words, phrases, |_| true);
    if asks(FARTHEST) {
        Some((true, DISTANCE.to_owned()))
    } else if asks(NEAREST) || asks(&["by distance"]) {
        Some((false, DISTANCE.to_owned()))
    } else {
        None
    }
}

/// An order by how long the items named after "longest" or "shortest" are: (descending,
/// [`LENGTH`]). The word after must be an item's noun, no other value ("the longest flight",
/// not "the shortest price").
fn length_order(lower: &str, other_value: impl Fn(&str) -> bool) -> Option<(bool, String)> {
    let words = super::intent::words(lower);
    let extreme = |word: &str| match word {
        "longest" => Some(true),
        "shortest" => Some(false),
        _ => None,
    };
    // The noun may come first, as French and Spanish put it ("le vol le plus court", read
    // "the flight shortest"): then the superlative ends the words.
    let after_the_noun = match words.as_slice() {
        [.., noun, last] => extreme(last).map(|descending| (descending, noun.clone())),
        _ => None,
    };
    let before_the_noun = words
        .windows(2)
        .find_map(|pair| extreme(&pair[0]).map(|descending| (descending, pair[1].clone())));
    before_the_noun
        .or(after_the_noun)
        .and_then(|(descending, noun)| {
            let noun = noun.as_str();
            // The items' own noun ("the longest class") is no other value: a timetable's or
            // a route's items are long in time or in distance. A writing's length is its
            // words, which no column holds ("the longest post").
            let items_noun = super::intent::is_item_noun(noun) && !WRITINGS.contains(&noun);
            (noun.chars().all(char::is_alphabetic)
                && noun.chars().count() >= 3
                && !NOT_A_SIZE.contains(&noun)
                && (items_noun || !other_value(noun)))
            .then(|| (descending, LENGTH.to_owned()))
        })
}

/// Items whose length is their words: "the longest post" is ordered by no column.
const WRITINGS: &[&str] = &[
    "post",
    "posts",
    "article",
    "articles",
    "story",
    "stories",
    "comment",
    "comments",
    "review",
    "reviews",
    "answer",
    "answers",
    "thread",
    "threads",
    "message",
    "messages",
    "book",
    "books",
    "title",
    "titles",
    "word",
    "words",
    "page",
    "pages",
    "description",
    "descriptions",
];

/// An order by the amount of the thing named after "lowest", "most", … (see [`MORE_FIRST`]).
/// A state the things are counted in stays in the name, before them ("the most free study
/// seats", "the most empty spaces") or after ("the most places left").
fn amount_order(lower: &str, other_value: impl Fn(&str) -> bool) -> Option<(bool, String)> {
    let words = super::intent::words(lower);
    words.windows(2).enumerate().find_map(|(at, pair)| {
        let (cue, thing) = (pair[0].as_str(), pair[1].as_str());
        if (MORE_FIRST.contains(&cue) || LESS_FIRST.contains(&cue))
            && COUNTED_STATES.contains(&thing)
        {
            let plural = |w: &str| {
                w.ends_with('s')
                    && !w.ends_with("ss")
                    && w.chars().count() >= 4
                    && w.chars().all(char::is_alphabetic)
                    && !other_value(w)
            };
            let counted = match (words.get(at + 2), words.get(at + 3)) {
                (Some(first), Some(next)) if !plural(first) && compounds_with(first, next) => {
                    format!("{first} {next}")
                }
                (Some(first), _) if plural(first) => first.clone(),
                _ => return None,
            };
            return Some((MORE_FIRST.contains(&cue), format!("{thing} {counted}")));
        }
        // "the lowest nightly price": the period an amount is for is no thing.
        if super::intent::PERIOD_WORDS.contains(&thing) {
            return None;
        }
        let descending = if MORE_FIRST.contains(&cue) {
            true
        } else if LESS_FIRST.contains(&cue) {
            false
        } else {
            return None;
        };
        let plural = thing.ends_with('s') && !thing.ends_with("ss");
        // "the fewest charge points", "the most parking spaces": a noun before a plural one
        // names the thing counted with it.
        let compound = words
            .get(at + 2)
            .filter(|next| !plural && compounds_with(thing, next));
        let named = thing.chars().all(char::is_alphabetic)
            && thing.chars().count() >= 3
            && (plural || compound.is_some() || !matches!(cue, "most" | "least"))
            && !NOT_A_SIZE.contains(&thing)
            && !other_value(thing);
        // "the most places left": the state the things are counted in, after them.
        let state = words
            .get(at + if compound.is_some() { 3 } else { 2 })
            .filter(|next| {
                (plural || compound.is_some()) && COUNTED_STATES.contains(&next.as_str())
            });
        let counted = match compound {
            Some(next) => format!("{thing} {next}"),
            None => thing.to_owned(),
        };
        named.then(|| match state {
            Some(state) => (descending, format!("{counted} {state}")),
            None => (descending, counted),
        })
    })
}

/// Whether `first` and `next` are one noun counted ("charge points", "parking spaces"): the
/// second a plural of letters, the first no joining word, order word or adjective by its
/// ending ("most charge points", never "most recent posts" or "most expensive items").
fn compounds_with(first: &str, next: &str) -> bool {
    const ADJECTIVE_ENDINGS: &[&str] = &[
        "ed", "ive", "ous", "ful", "able", "ible", "al", "ent", "ant", "ic", "ular", "est",
    ];
    next.ends_with('s')
        && !next.ends_with("ss")
        && next.chars().count() >= 4
        && next.chars().all(char::is_alphabetic)
        && !super::values::JOINING.contains(&first)
        && !super::values::NOT_VALUES.contains(&first)
        && !ADJECTIVE_ENDINGS
            .iter()
            .any(|ending| first.ends_with(ending))
}

/// An order by size: (descending, [`SIZE`]).
fn size_order(lower: &str, other_value: impl Fn(&str) -> bool) -> Option<(bool, String)> {
    let words = super::intent::words(lower);
    let find = |phrases: &[&str]| {
        // "the largest unit": a space let by its area is what is sized, though its noun names
        // the items ("the biggest courses" are the most popular, no size).
        said(&words, phrases, |next| {
            !NOT_A_SIZE.contains(&next)
                && (SPACES.contains(&crate::page::dom::singular(next).as_str())
                    || !other_value(next))
        })
    };
    if find(LARGEST) {
        Some((true, SIZE.to_owned()))
    } else if find(SMALLEST) {
        Some((false, SIZE.to_owned()))
    } else {
        None
    }
}

/// Units a measure is written in, and the name of the measure a bound in that unit is on:
/// a unit says what it bounds as a currency does ("under 20k km", "less than 1,000 sq ft"),
/// no "with" needed. The names are the ones the records engine's columns answer in those
/// units (`tools::extract::columns`, rule `counted_in_its_unit`).
const UNIT_NAMES: &[(&[&str], &str)] = &[
    (
        &["mi", "mile", "miles", "meile", "meilen", "milla", "millas"],
        "miles",
    ),
    (
        &[
            "km",
            "kms",
            "kilometers",
            "kilometres",
            "kilometer",
            "kilometre",
        ],
        "km",
    ),
    (
        &[
            "sq ft",
            "sqft",
            "square feet",
            "square foot",
            "ft²",
            "m²",
            "sq m",
            "sqm",
            "square meters",
            "square metres",
        ],
        SIZE,
    ),
    (
        &[
            "min", "mins", "minute", "minutes", "hr", "hrs", "hour", "hours",
        ],
        DURATION,
    ),
    (&["m", "metres", "meters", "metre", "meter"], METRES),
    (&["gb", "gig", "gigs", "gigabyte", "gigabytes", "go"], DATA),
];

/// The name a bound in gigabytes is on ("at least 50GB"): a plan's allowance of data, which
/// the records engine's columns in GB answer.
pub const DATA: &str = "data";

/// The name a bound in metres is on ("climbing more than 500 m"): a height, which the
/// records engine's columns in metres answer.
pub const METRES: &str = "metres";

/// The name a bound in minutes or hours is on ("ready in under 45 minutes"): how long an
/// item takes, counted in minutes (`page::dom::minutes` reads "1 hr 10 min" as 70).
pub const DURATION: &str = "duration";

/// How a bound on a thing had is written. The cues are the bounds' own (`bounds::BEFORE`,
/// `bounds::AFTER`), and so is the amount.
#[derive(Clone, Copy)]
enum Form {
    /// Had, the cue before the amount or after the thing: "with at least 2 bedrooms", "that
    /// have 2 bedrooms or more". Without a cue it is a value ("with 2 bedrooms"), no bound.
    Had,
    /// Had, the cue between the amount and the thing: "with 2 or more bedrooms".
    HadCueInside,
    /// A plus after the amount: "2+ bedroom".
    Plus,
    /// A cue and an amount in a measure's unit, had or not: "under 20k km", "50,000 miles or
    /// less", "with fewer than 30,000 mi".
    InItsUnit,
    /// How many people an item takes, said by its verb or its people: "sleeps 6 or more",
    /// "serving at least four", "room for 8 or more", "at least six guests", "6 or more
    /// people" (`CAPACITY_VERBS`, `CAPACITY_NOUNS`).
    Capacity,
    /// An item that takes the amount of people asked: "games for 2 players", "supports two
    /// players", "two-player games", "just the two of us", "there are 3 of us", "playable by 2" (`HOLDS_CUES`,
    /// `HOLDS_COMPOUNDS`). A range of counts holds it, a single count is at least it.
    Holds,
}

/// Verbs and phrases that say how many people an item takes, and the name of the count
/// each is (the records engine names a "Sleeps 4" column by its word; other names of the
/// count meet it in `tools::extract::columns::CAPACITY_NAMES`).
const CAPACITY_VERBS: &[(&str, &str)] = &[
    ("sleeps", "sleeps"),
    ("sleep", "sleeps"),
    ("sleeping", "sleeps"),
    ("serves", "serves"),
    ("serve", "serves"),
    ("serving", "serves"),
    ("seats", "seats"),
    ("seat", "seats"),
    ("seating", "seats"),
    ("accommodates", "guests"),
    ("accommodate", "guests"),
    ("accommodating", "guests"),
    ("room for", "guests"),
    ("space for", "guests"),
    // A room one books, by how many it fits: "rooms that fit 8 or more", "a capacity of 8".
    ("fit", "guests"),
    ("fits", "guests"),
    ("capacity of", "guests"),
    ("capacity", "guests"),
];

/// Nouns for the people an item takes, and the name of the count each is: a bound on them is
/// a bound on its capacity ("at least six guests"), and so are a game's players ("3 or more
/// players"), which the records engine names as the page does.
const CAPACITY_NOUNS: &[(&str, &str)] = &[
    ("guests", "guests"),
    ("people", "guests"),
    ("persons", "guests"),
    ("adults", "guests"),
    ("diners", "guests"),
    ("personen", "guests"),
    ("personnes", "guests"),
    ("personas", "guests"),
    ("players", "players"),
    ("joueurs", "players"),
    ("jugadores", "players"),
];

/// Words before an amount of people that ask for items taking that many: "games for 2
/// players", "a table with four people", "supports two players", "für 2 Spieler".
const HOLDS_CUES: &[&str] = &[
    "for",
    "with",
    "support",
    "supports",
    "supporting",
    "playable by",
    "für",
    "pour",
    "para",
];

/// Singular nouns that make an amount a kind of item by how many it takes: "two-player
/// games", "a 4-person tent"; each with the name of its count.
const HOLDS_COMPOUNDS: &[(&str, &str)] = &[("player", "players"), ("person", "guests")];

/// The name of the count a noun of people is (`CAPACITY_NOUNS`, `HOLDS_COMPOUNDS`).
fn count_named_by(noun: &str) -> Option<&'static str> {
    CAPACITY_NOUNS
        .iter()
        .chain(HOLDS_COMPOUNDS)
        .find(|(n, _)| *n == noun)
        .map(|(_, name)| *name)
}

fn forms() -> &'static [(Regex, Form); 7] {
    static FORMS: OnceLock<[(Regex, Form); 7]> = OnceLock::new();
    FORMS.get_or_init(|| {
        let had = r"\b(?:with|has|have|having)\s+";
        let amount = bounds::amount_pattern("amount");
        let before = bounds::alternatives(bounds::BEFORE);
        let after = bounds::alternatives(bounds::AFTER);
        let thing = r"(?P<thing>[a-z]{3,})\b";
        let units = UNIT_NAMES
            .iter()
            .flat_map(|(units, _)| units.iter())
            .map(|unit| regex::escape(unit).replace(' ', r"\s*"))
            .collect::<Vec<_>>()
            .join("|");
        let amount_ = bounds::amount_pattern("amount_");
        let amount_us = bounds::amount_pattern("amount_us");
        let amount_by = bounds::amount_pattern("amount_by");
        let verbs = CAPACITY_VERBS
            .iter()
            .map(|(verb, _)| verb.replace(' ', r"\s+"))
            .collect::<Vec<_>>()
            .join("|");
        let nouns = CAPACITY_NOUNS
            .iter()
            .map(|(noun, _)| *noun)
            .collect::<Vec<_>>()
            .join("|");
        let holds_cues = HOLDS_CUES
            .iter()
            .map(|cue| cue.replace(' ', r"\s+"))
            .collect::<Vec<_>>()
            .join("|");
        let compounds = HOLDS_COMPOUNDS
            .iter()
            .map(|(noun, _)| *noun)
            .collect::<Vec<_>>()
            .join("|");
        #[allow(clippy::expect_used)] // built from escaped constant phrases
        let compile = |pattern: String| Regex::new(&pattern).expect("valid measure pattern");
        [
            (
                compile(format!(
                    r"\b(?:{holds_cues})\s+{amount}\s+(?P<noun>{nouns})\b|\b{amount_}[-\s](?P<compound>{compounds})\b|\b(?:the|are)\s+{amount_us}\s+of\s+us\b|\bplayable\s+(?:by|with)\s+{amount_by}\b"
                )),
                Form::Holds,
            ),
            (
                compile(format!(
                    r"{had}(?:(?P<before>{before})\s+)?{amount}\s+{thing}(?:\s+(?P<after>{after})\b)?"
                )),
                Form::Had,
            ),
            (
                compile(format!(r"{had}{amount}\s+(?P<after>{after})\s+{thing}")),
                Form::HadCueInside,
            ),
            (compile(format!(r"\b{amount}\s*\+\s*{thing}")), Form::Plus),
            (
                compile(format!(
                    r"(?:\b(?P<before>{before}|within)\s+(?:{amount}\s*|(?P<joined>\d+(?:\.\d+)?)|(?P<half>half\s+an?)\s+|(?P<one>an?|une?|eine[mr]?|ein)\s+)(?P<unit>{units})|\b{amount_}\s*(?P<unit_>{units})\s+(?P<after>{after}))(?:$|[\s,.;:!?)])"
                )),
                Form::InItsUnit,
            ),
            (
                compile(format!(
                    r"\b(?P<verb>{verbs})\s+(?:(?P<before>{before})\s+)?{amount}(?:\s+(?P<after>{after}))?(?:\s+(?:{nouns}))?\b"
                )),
                Form::Capacity,
            ),
            (
                compile(format!(
                    r"(?:\b(?P<before>{before})\s+{amount}|\b(?:(?P<group>party|group|family|team)\s+of\s+)?{amount_}(?P<plus>\+)?(?:\s+(?P<after>{after}))?)(?:\s+(?P<noun>{nouns})\b|\b)(?:\s+(?P<after_>{after})\b)?"
                )),
                Form::Capacity,
            ),
        ]
    })
}

/// A bound on a counted thing the items have, read from `text` as written: the bound and the
/// thing's name, and the text without the bound's words. See [`bound`].
pub fn read(text: &str) -> (Option<(Bound, String)>, String) {
    match bound(&text.to_lowercase(), super::intent::is_no_measure) {
        Some((bound, thing, said)) => (Some((bound, thing)), without(text, &said)),
        None => (None, text.to_owned()),
    }
}

/// A bound on a counted thing the items have: "with at least 2 bedrooms", "that have 2
/// bedrooms or more", "with more than one bedroom", "2+ bedroom". The thing must be had
/// ("with", "has", "have", "having" before the bound) or the bound written `N+`, so "over 20
/// pages of results" or "up to 200 jobs" bound nothing; `not_a_measure` refuses nouns that
/// name the items or the pages. Returns the bound, the thing's name and the words said.
fn bound(lower: &str, not_a_measure: impl Fn(&str) -> bool) -> Option<(Bound, String, String)> {
    if let Some(found) = clock_bound(lower).or_else(|| sign_bound(lower)) {
        return Some(found);
    }
    forms().iter().find_map(|(pattern, form)| {
        pattern.captures_iter(lower).find_map(|caps| {
            let cue = |name: &str, table: &[(&str, BoundOp)]| {
                bounds::op_of(table, caps.name(name)?.as_str())
            };
            let op = match form {
                // "within 1 km": no farther than the amount, in its unit.
                Form::InItsUnit if caps.name("before").is_some_and(|c| c.as_str() == "within") => {
                    Some(BoundOp::AtMost)
                }
                Form::Had | Form::InItsUnit => {
                    cue("before", bounds::BEFORE).or_else(|| cue("after", bounds::AFTER))
                }
                Form::HadCueInside => cue("after", bounds::AFTER),
                Form::Plus => Some(BoundOp::AtLeast),
                Form::Holds => Some(BoundOp::Holds),
                // Without a verb it is people: counted ("six guests"), or a party of them
                // ("a group of 6"), which needs as many places or more.
                Form::Capacity
                    if caps.name("verb").is_none()
                        && caps.name("noun").is_none()
                        && caps.name("group").is_none() =>
                {
                    None
                }
                Form::Capacity => cue("before", bounds::BEFORE)
                    .or_else(|| cue("after", bounds::AFTER))
                    .or_else(|| cue("after_", bounds::AFTER))
                    .or_else(|| {
                        (caps.name("plus").is_some() || caps.name("group").is_some())
                            .then_some(BoundOp::AtLeast)
                    }),
            }?;
            let thing = match form {
                Form::InItsUnit => {
                    let unit = caps.name("unit").or_else(|| caps.name("unit_"))?.as_str();
                    let unit = unit.split_whitespace().collect::<Vec<_>>().join(" ");
                    UNIT_NAMES
                        .iter()
                        .find(|(units, _)| units.contains(&unit.as_str()))
                        .map(|(_, name)| *name)?
                }
                Form::Capacity => match caps.name("verb") {
                    Some(verb) => {
                        let verb = verb
                            .as_str()
                            .split_whitespace()
                            .collect::<Vec<_>>()
                            .join(" ");
                        CAPACITY_VERBS
                            .iter()
                            .find(|(v, _)| *v == verb)
                            .map(|(_, name)| *name)?
                    }
                    None => caps
                        .name("noun")
                        .and_then(|noun| count_named_by(noun.as_str()))
                        .unwrap_or("guests"),
                },
                // "the two of us" are people; what is "playable by 2" takes players.
                Form::Holds => match caps.name("noun").or_else(|| caps.name("compound")) {
                    Some(noun) => count_named_by(noun.as_str())?,
                    None if caps.name("amount_by").is_some() => "players",
                    None => "guests",
                },
                _ => caps.name("thing")?.as_str(),
            };
            // "1km" written joined, "a kilometre" for one, "half an hour" for a half.
            let amount = match (caps.name("joined"), caps.name("one")) {
                (Some(joined), _) => joined.as_str().parse().ok()?,
                (None, Some(_)) => 1.0,
                (None, None) if caps.name("half").is_some() => 0.5,
                (None, None) => {
                    let amount = ["amount", "amount_", "amount_us", "amount_by"]
                        .iter()
                        .find_map(|name| caps.name(name))?;
                    bounds::amount(amount.as_str(), false)?
                }
            };
            // A length of time is bounded in minutes, as its values are read.
            let amount = match form {
                Form::InItsUnit if thing == DURATION => {
                    let unit = caps.name("unit").or_else(|| caps.name("unit_"))?.as_str();
                    crate::page::dom::TIME_UNITS
                        .iter()
                        .find(|(u, _)| *u == unit)
                        .map_or(amount, |(_, per)| amount * per)
                }
                _ => amount,
            };
            let said = caps[0].trim_end_matches([',', '.', ';', ':', '!', '?', ')']);
            let bound = Bound {
                role: FieldRole::Text,
                op,
                amount,
            };
            if !not_a_measure(thing) {
                return Some((bound, thing.to_owned(), said.trim_end().to_owned()));
            }
            // "at least 3 chargers free right now": items' noun counted in a state is the count
            // the items show of that state ("Free now"), not how many items to answer.
            let after = &lower[caps.get(0)?.end()..];
            let state = after
                .split_whitespace()
                .next()?
                .trim_matches(|c: char| !c.is_alphanumeric());
            COUNTED_STATES.contains(&state).then(|| {
                let said = format!("{} {state}", said.trim_end());
                (bound, state.to_owned(), said)
            })
        })
    })
}

/// States a count of things is in, said after the things ("3 chargers free", "2 rooms
/// left"): a live page counts them under that state's name ("Free now", "Rooms left").
const COUNTED_STATES: &[&str] = &[
    "free",
    "available",
    "left",
    "remaining",
    "spare",
    "vacant",
    "empty",
];

/// The name a bound on a time of day is on ("classes starting before 10am"): the items' time,
/// which the first of their columns of times of day answers (`tools::extract::columns`, rule
/// `start_then_end`).
pub const TIME: &str = "time";

/// The names a bound on a place's hours is on (`tools::extract::columns` reads them as the
/// end and the start of a range of times, "9:00 – 20:00"): "open after 8pm" and "closes
/// after 8" ask when it closes, "open before 9am" and "opens before 9" when it opens.
pub const CLOSES: &str = "closing time";
/// See [`CLOSES`].
pub const OPENS: &str = "opening time";

/// Words that say a place is open, in the languages the lexicon reads: a bound on its hours
/// past a time is on when it closes ("still open after 8pm", "nach 20 Uhr geöffnet"), before
/// a time on when it opens ("open before 9am").
const OPEN_WORDS: &[&str] = &[
    "open",
    "geöffnet",
    "offen",
    "ouvert",
    "ouverte",
    "ouverts",
    "ouvertes",
    "abierto",
    "abierta",
    "abiertos",
    "abiertas",
];
/// Words that say a place closes or opens, whatever the bound.
const CLOSING_WORDS: &[&str] = &[
    "close",
    "closes",
    "closing",
    "shut",
    "shuts",
    "schließt",
    "schließen",
    "ferme",
    "ferment",
    "cierra",
    "cierran",
];
const OPENING_WORDS: &[&str] = &[
    "opens", "opening", "öffnet", "öffnen", "ouvre", "ouvrent", "abre", "abren",
];

/// Cues of a bound that are one only on a place's hours: "open until 9pm" closes then or
/// later; "classes until 9pm" is no bound ("until" is as often when an item ends).
const UNTIL_CUES: &[&str] = &["until", "till", "bis", "jusqu'à", "hasta"];

/// Which of a place's times a bound of `op` is on, by the word just before its cue (which
/// starts at `start`) or just after its time (which ends at `end`): when it closes, when it
/// opens, or (no such word) the items' time. Also where the bound's words start and end with
/// that word, which is the bound's and no value to choose by.
fn hours_bounded(
    lower: &str,
    start: usize,
    end: usize,
    op: BoundOp,
) -> (&'static str, usize, usize) {
    let word = |w: &str| w.trim_matches(|c: char| !c.is_alphanumeric()).to_owned();
    let before = lower[..start].trim_end();
    let word_before = before
        .rsplit(char::is_whitespace)
        .next()
        .map(word)
        .unwrap_or_default();
    let after = lower[end..].trim_start();
    let raw_after = after
        .split(char::is_whitespace)
        .next()
        .unwrap_or_default()
        .trim_end_matches(|c: char| !c.is_alphanumeric());
    let word_after = word(raw_after);
    let thing_of = |w: &str| {
        if CLOSING_WORDS.contains(&w) {
            Some(CLOSES)
        } else if OPENING_WORDS.contains(&w) {
            Some(OPENS)
        } else if OPEN_WORDS.contains(&w) {
            Some(match op {
                BoundOp::Above | BoundOp::AtLeast => CLOSES,
                _ => OPENS,
            })
        } else {
            None
        }
    };
    if let Some(thing) = thing_of(&word_before) {
        let from = before.len()
            - before
                .rsplit(char::is_whitespace)
                .next()
                .map_or(0, str::len);
        return (thing, from, end);
    }
    if let Some(thing) = thing_of(&word_after) {
        let to = lower.len() - after.len() + raw_after.len();
        return (thing, start, to);
    }
    (TIME, start, end)
}

/// Words before a time of day that bound it, longest first so "no later than" is not read as
/// "later than". "from 6pm" keeps what starts then or later; "until" bounds only a place's
/// hours ([`UNTIL_CUES`]), as it is as often when an item ends ("classes until 10pm").
const CLOCK_CUES: &[(&str, BoundOp)] = &[
    ("no later than", BoundOp::AtMost),
    ("not later than", BoundOp::AtMost),
    ("no earlier than", BoundOp::AtLeast),
    ("not earlier than", BoundOp::AtLeast),
    ("not before", BoundOp::AtLeast),
    ("not after", BoundOp::AtMost),
    ("earlier than", BoundOp::Below),
    ("later than", BoundOp::Above),
    ("before", BoundOp::Below),
    ("after", BoundOp::Above),
    // "still open past eight"; not "half past eight", a time of its own.
    ("past", BoundOp::Above),
    ("until", BoundOp::AtLeast),
    ("till", BoundOp::AtLeast),
    ("bis", BoundOp::AtLeast),
    ("jusqu'à", BoundOp::AtLeast),
    ("hasta", BoundOp::AtLeast),
    ("from", BoundOp::AtLeast),
    // "I have to leave by 9am": at the latest; read only before a time written as one
    // ("9am", "09:00"), a bare "by 9" being as often something else.
    ("by", BoundOp::AtMost),
    // German, French and Spanish, the other languages the lexicon reads.
    ("vor", BoundOp::Below),
    ("nach", BoundOp::Above),
    ("ab", BoundOp::AtLeast),
    ("avant", BoundOp::Below),
    ("après", BoundOp::Above),
    ("à partir de", BoundOp::AtLeast),
    ("antes de", BoundOp::Below),
    ("después de", BoundOp::Above),
    ("a partir de", BoundOp::AtLeast),
];

/// Cues that say a time even before a bare hour ("classes after 6", "vor 12"): comparing
/// in time; "from 6" is as often a count.
const CLOCK_ONLY_CUES: &[&str] = &[
    "earlier than",
    "later than",
    "before",
    "after",
    "past",
    "until",
    "till",
    "bis",
    "jusqu'à",
    "hasta",
    "vor",
    "nach",
    "avant",
    "après",
    "antes de",
    "después de",
];

/// Words for noon and for midnight.
const NOON: &[&str] = &["noon", "midday", "midi", "mittag", "mediodía", "mediodia"];
const MIDNIGHT: &[&str] = &["midnight", "minuit", "mitternacht", "medianoche"];

/// A bound on when the items happen: "starting before 10am", "after 6:30 pm", "earlier
/// than 12:00", "before noon", "after 6 in the evening", "nach 18 Uhr", "avant midi",
/// "después de las 18:00". The amount is minutes after midnight, as `data.filter` reads a
/// time of day (`page::dates::clock_minutes`). A restated bound ("before 11 … make that
/// before 12") is read as last said.
fn clock_bound(lower: &str) -> Option<(Bound, String, String)> {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    let pattern = PATTERN.get_or_init(|| {
        let cues = bounds::alternatives(CLOCK_CUES);
        let noon = NOON.iter().chain(MIDNIGHT).copied().collect::<Vec<_>>().join("|");
        // The hours of a clock in words ("leave before nine"): the number words of one to
        // twelve.
        let hour_words = super::intent::NUMBER_WORDS
            .iter()
            .filter(|(word, n)| (1..=12).contains(n) && *word != "dozen")
            .map(|(word, _)| *word)
            .collect::<Vec<_>>()
            .join("|");
        #[allow(clippy::expect_used)] // built from constant phrases
        Regex::new(&format!(
            r"\b(?P<cue>{cues})\s+(?:(?:the|las?|les)\s+)?(?:(?P<noon>{noon})\b|(?P<h>2[0-3]|[01]?\d|{hour_words}\b)(?:[:h](?P<m>[0-5]\d))?(?P<digits>(?:\d|[.,]\d)[\d.,]*)?(?:\s*(?P<mer>[ap])\.?m\b\.?|\s*(?P<mark>h\b|uhr\b|o'?clock\b))?(?:\s+(?P<part>in\s+the\s+(?:morning|afternoon|evening)|tonight|at\s+night))?(?P<next>\s+[a-z]+)?)"
        ))
        .expect("valid clock bound pattern")
    });
    let mut found = None;
    for caps in pattern.captures_iter(lower) {
        let cue = caps["cue"].split_whitespace().collect::<Vec<_>>().join(" ");
        let op = bounds::op_of(CLOCK_CUES, &cue)?;
        // An hour of the morning said without "am" ("closing before six"), if it is one.
        let mut morning_unsaid = false;
        let (minutes, said) = if let Some(noon) = caps.name("noon") {
            let midnight = MIDNIGHT.contains(&noon.as_str());
            // "before midnight" is the whole day; "after midnight" its start.
            let minutes = match (midnight, op) {
                (false, _) => 720.0,
                (true, BoundOp::Below | BoundOp::AtMost) => 1440.0,
                (true, _) => 0.0,
            };
            (minutes, noon.end())
        } else {
            let marked = caps.name("m").is_some()
                || caps.name("mer").is_some()
                || caps.name("mark").is_some();
            // A bare hour is a time only after a cue that compares in time, and not when a
            // noun follows it ("after 6 months").
            let clock_cue = CLOCK_ONLY_CUES.contains(&cue.as_str());
            let bare_ok = clock_cue
                && (caps.name("part").is_some()
                    || caps.name("next").is_none_or(|next| {
                        matches!(
                            next.as_str().trim(),
                            "and" | "or" | "please" | "only" | "today" | "on" | "at"
                        )
                    }));
            // "after 60 days", "before 2026", "under 12.50": more digits make no time, and
            // "from 12h ago" is a while back, no time of day.
            if caps.name("digits").is_some()
                || caps
                    .name("next")
                    .is_some_and(|next| next.as_str().trim() == "ago")
            {
                continue;
            }
            if !marked && !bare_ok {
                continue;
            }
            let pm = caps.name("mer").is_some_and(|m| m.as_str() == "p")
                || caps.name("part").is_some_and(|p| {
                    ["afternoon", "evening", "tonight", "night"]
                        .iter()
                        .any(|w| p.as_str().ends_with(w))
                });
            let am = caps.name("mer").is_some_and(|m| m.as_str() == "a");
            // The one reader of a time of day says what it is ("6:00 pm" → 1080; "18:00 pm"
            // is none).
            let meridiem = if pm {
                " pm"
            } else if am {
                " am"
            } else {
                ""
            };
            // "before nine": an hour in words is its number.
            let Some(hour) = super::intent::number(&caps["h"]) else {
                continue;
            };
            let written = format!(
                "{hour}:{}{meridiem}",
                caps.name("m").map_or("00", |m| m.as_str())
            );
            let Some(minutes) = crate::page::dates::clock_minutes(&written) else {
                continue;
            };
            morning_unsaid = meridiem.is_empty() && (5..=11).contains(&hour);
            // The words said end where the word after the time begins ("6pm" whole).
            let end = match caps.name("next") {
                Some(next) => next.start(),
                None => caps.get(0).map_or(lower.len(), |whole| whole.end()),
            };
            (minutes, end)
        };
        let start = caps.get(0).map_or(0, |m| m.start());
        let before = &lower[..start];
        if cue == "past"
            && before
                .split_whitespace()
                .next_back()
                .is_some_and(|word| matches!(word, "half" | "quarter" | "minutes" | "mins"))
        {
            continue;
        }
        let (thing, start, said) = hours_bounded(lower, start, said, op);
        if UNTIL_CUES.contains(&cue.as_str()) && thing != CLOSES {
            continue;
        }
        // A place closes in the evening: "closing before six", "open until 9" are 18:00 and
        // 21:00. (Hours after midnight, "until 2", are left as said.)
        let minutes = if thing == CLOSES && morning_unsaid {
            minutes + 720.0
        } else {
            minutes
        };
        let bound = Bound {
            role: FieldRole::Text,
            op,
            amount: minutes,
        };
        let said = lower[start..said].trim_end_matches('.').to_owned();
        found = Some((bound, thing.to_owned(), said));
    }
    found
}

/// Words that say a quantity is below or above zero, before it ("a negative goal
/// difference", "negativer Tordifferenz") or after it ("GD is negative", "a balance below
/// zero", "goal difference < 0"), in the languages the lexicon reads.
const SIGNS_BEFORE: &[(&str, BoundOp)] = &[
    ("negative", BoundOp::Below),
    ("negativer", BoundOp::Below),
    ("negativen", BoundOp::Below),
    ("negatives", BoundOp::Below),
    ("minus", BoundOp::Below),
    ("positive", BoundOp::Above),
    ("positiver", BoundOp::Above),
    ("positiven", BoundOp::Above),
];
const SIGNS_AFTER: &[(&str, BoundOp)] = &[
    ("negative", BoundOp::Below),
    ("négative", BoundOp::Below),
    ("négatif", BoundOp::Below),
    ("negativa", BoundOp::Below),
    ("negativo", BoundOp::Below),
    ("below zero", BoundOp::Below),
    ("under zero", BoundOp::Below),
    ("less than zero", BoundOp::Below),
    ("< 0", BoundOp::Below),
    ("<0", BoundOp::Below),
    ("positive", BoundOp::Above),
    ("positif", BoundOp::Above),
    ("positiva", BoundOp::Above),
    ("positivo", BoundOp::Above),
    ("above zero", BoundOp::Above),
    ("over zero", BoundOp::Above),
    ("more than zero", BoundOp::Above),
    ("> 0", BoundOp::Above),
    (">0", BoundOp::Above),
];

/// The last word of a quantity that has a sign: a difference, a change, a balance. Other
/// things are never below zero ("negative reviews" are reviews, not a count under zero).
const SIGNED_THINGS: &[&str] = &[
    "difference",
    "diff",
    "gd",
    "change",
    "balance",
    "growth",
    "return",
    "profit",
    "margin",
    "delta",
];

/// Words before a signed quantity that are not part of its name.
const BEFORE_THE_THING: &[&str] = &[
    "a", "an", "the", "whose", "their", "its", "with", "une", "un", "la", "le", "mit", "con",
];

/// A bound at zero on a quantity that has a sign: "teams with a negative goal difference"
/// (goal difference below 0), "whose GD is negative", "a balance above zero".
fn sign_bound(lower: &str) -> Option<(Bound, String, String)> {
    static PATTERNS: OnceLock<[Regex; 2]> = OnceLock::new();
    let [before, after] = PATTERNS.get_or_init(|| {
        let before = bounds::alternatives(SIGNS_BEFORE);
        let after = bounds::alternatives(SIGNS_AFTER);
        let thing = r"(?P<thing>[\p{L}]+(?:\s+[\p{L}]+)?)";
        #[allow(clippy::expect_used)] // built from escaped constant phrases
        let compile = |pattern: String| Regex::new(&pattern).expect("valid sign pattern");
        [
            compile(format!(r"\b(?P<sign>{before})\s+{thing}")),
            compile(format!(
                r"\b{thing}\s+(?:(?:is|are)\s+)?(?P<sign>{after})(?:$|[\s,.;:!?)])"
            )),
        ]
    });
    [(before, SIGNS_BEFORE), (after, SIGNS_AFTER)]
        .into_iter()
        .find_map(|(pattern, signs)| {
            pattern.captures_iter(lower).find_map(|caps| {
                let op = bounds::op_of(signs, &caps["sign"])?;
                let words: Vec<&str> = caps["thing"]
                    .split_whitespace()
                    .skip_while(|w| BEFORE_THE_THING.contains(w))
                    .collect();
                let last = words.last()?;
                if !SIGNED_THINGS.contains(last) {
                    return None;
                }
                let said = caps[0].trim_end_matches([',', '.', ';', ':', '!', '?', ')']);
                let bound = Bound {
                    role: FieldRole::Text,
                    op,
                    amount: 0.0,
                };
                Some((bound, words.join(" "), said.trim().to_owned()))
            })
        })
}

/// `text` without the words a bound was read from (`said`, as found in its lower case), its
/// case kept: the rest of the request is read on ("posts by Ann with at least 2 photos").
fn without(text: &str, said: &str) -> String {
    let lower = text.to_lowercase();
    match lower.find(said) {
        // Lower case has the same byte offsets where it changes no character's length.
        Some(at)
            if lower.len() == text.len()
                && text.is_char_boundary(at)
                && text.is_char_boundary(at + said.len()) =>
        {
            let mut kept = text.to_owned();
            kept.replace_range(at..at + said.len(), " ");
            kept
        }
        _ => lower.replacen(said, " ", 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_order_by_size_is_read_unless_the_next_word_is_another_value() {
        let none = |_: &str| false;
        let size = |descending| Some((descending, SIZE.to_owned()));
        assert_eq!(order("the largest apartment", none), size(true));
        assert_eq!(order("which flat has the most space?", none), size(true));
        assert_eq!(order("the roomiest rental", none), size(true));
        assert_eq!(order("the smallest studio", none), size(false));
        assert_eq!(order("the biggest discount", none), None);
        assert_eq!(order("the largest price", |w| w == "price"), None);
        assert_eq!(order("enlargest", none), None);
        // A space let by its area is sized though its noun names the items; other items'
        // nouns are no measure ("the biggest courses" are the most popular).
        let items = |w: &str| super::super::intent::is_no_measure(w);
        assert_eq!(order("which is the largest unit?", items), size(true));
        assert_eq!(order("the smallest rooms", items), size(false));
        assert_eq!(order("the three biggest courses", items), None);
    }

    #[test]
    fn an_order_by_how_long_an_item_takes_is_on_its_duration() {
        let none = |_: &str| false;
        let by = |descending| Some((descending, DURATION.to_owned()));
        assert_eq!(order("which trail takes the longest?", none), by(true));
        assert_eq!(order("the most time-consuming recipe", none), by(true));
        assert_eq!(order("the quickest walk", none), by(false));
        assert_eq!(order("the one that needs the least time", none), by(false));
        assert_eq!(order("Find the shortest walk by time", none), by(false));
        assert_eq!(order("longest trail by duration", none), by(true));
        assert_eq!(
            order("the longest trail", none),
            Some((true, LENGTH.to_owned()))
        );
        assert_eq!(
            order("the shortest flight", none),
            Some((false, LENGTH.to_owned()))
        );
        assert_eq!(order("the shortest price", |w| w == "price"), None);
        assert_eq!(
            order("the flight shortest", none),
            Some((false, LENGTH.to_owned()))
        );
    }

    #[test]
    fn an_order_by_how_far_an_item_is_is_on_its_distance() {
        let none = |_: &str| false;
        let by = |descending| Some((descending, DISTANCE.to_owned()));
        assert_eq!(
            order("the 3 cottages closest to the beach", none),
            by(false)
        );
        assert_eq!(
            order("which hotel is nearest the station?", none),
            by(false)
        );
        assert_eq!(
            order("three with the shortest walk to the beach", none),
            by(false)
        );
        assert_eq!(order("top three by distance to the beach", none), by(false));
        assert_eq!(order("the farthest campsite from town", none), by(true));
        assert_eq!(
            order("die drei Häuser, die dem Strand am nächsten sind", none),
            by(false)
        );
        assert_eq!(order("the closed shops", none), None);
    }

    #[test]
    fn an_order_by_the_amount_of_a_named_thing_takes_its_name() {
        let none = |_: &str| false;
        let by = |descending, name: &str| Some((descending, name.to_owned()));
        assert_eq!(
            order("the car with the lowest mileage", none),
            by(false, "mileage")
        );
        assert_eq!(
            order("which one has the fewest miles?", none),
            by(false, "miles")
        );
        assert_eq!(
            order("the cabin with the most bedrooms", none),
            by(true, "bedrooms")
        );
        assert_eq!(order("highest horsepower", none), by(true, "horsepower"));
        // A noun before a plural one is the thing counted with it.
        assert_eq!(
            order("which site has the fewest charge points?", none),
            by(false, "charge points")
        );
        assert_eq!(
            order("the car park with the most parking spaces", none),
            by(true, "parking spaces")
        );
        assert_eq!(order("the most recent posts", none), None);
        // The state the things are counted in stays in their name, before them or after.
        for (text, name) in [
            (
                "the library with the most free study seats",
                "free study seats",
            ),
            ("where are the most free seats right now", "free seats"),
            ("where are the most empty spaces", "empty spaces"),
            ("la bibliothèque avec the most places left", "places left"),
            (
                "which one has the most study spaces free",
                "study spaces free",
            ),
        ] {
            assert_eq!(order(text, none), by(true, name), "{text}");
        }
        assert_eq!(
            order("the fewest seats available", none),
            by(false, "seats available")
        );
        // "most" and "least" before no plural are no amount; a known value is not a measure.
        assert_eq!(order("the most popular car", none), None);
        assert_eq!(order("the least expensive car", none), None);
        assert_eq!(order("lowest price", |w| w == "price"), None);
        assert_eq!(order("the lowest nightly price", |w| w == "price"), None);
    }

    #[test]
    fn the_words_of_a_bound_leave_the_rest_of_the_request_as_written() {
        assert_eq!(
            without(
                "Flats by Keyhole with at least 2 bedrooms",
                "with at least 2 bedrooms"
            ),
            "Flats by Keyhole  "
        );
    }

    #[test]
    fn items_taking_an_amount_of_people_hold_it() {
        let read = |text: &str| bound(text, |_| false).map(|(b, thing, _)| (b.op, b.amount, thing));
        for (text, amount, thing) in [
            ("games for 2 players", 2.0, "players"),
            ("games I can play with 2 players", 2.0, "players"),
            ("which games work for two people?", 2.0, "guests"),
            ("list the games that support two players", 2.0, "players"),
            ("two-player games", 2.0, "players"),
            ("a 4-person tent", 4.0, "guests"),
            ("games playable by 3", 3.0, "players"),
            ("something for just the two of us", 2.0, "guests"),
            ("there are 3 of us, what can we book?", 3.0, "guests"),
            ("jeux pour 4 joueurs", 4.0, "players"),
        ] {
            assert_eq!(
                read(text),
                Some((BoundOp::Holds, amount, thing.into())),
                "{text}"
            );
        }
        // A cue before the amount is a bound, not a hold; a count of items holds nothing.
        assert_eq!(
            read("games for at least 3 players"),
            Some((BoundOp::AtLeast, 3.0, "players".into()))
        );
        assert_eq!(read("the first 2 games"), None);
        assert_eq!(read("games with 2 expansions"), None);
    }

    #[test]
    fn the_items_noun_counted_in_a_state_bounds_that_states_count() {
        let not = |w: &str| matches!(w, "chargers" | "jobs");
        let read = |text: &str| bound(text, not).map(|(b, thing, said)| (b.amount, thing, said));
        assert_eq!(
            read("stations with at least 3 chargers free right now"),
            Some((3.0, "free".into(), "with at least 3 chargers free".into()))
        );
        assert_eq!(
            read("somewhere with 3+ chargers available now"),
            Some((3.0, "available".into(), "3+ chargers available".into()))
        );
        // Without a state after them the items are counted, not bounded.
        assert_eq!(read("stations with at least 3 chargers"), None);
    }

    #[test]
    fn a_bound_on_a_thing_had_is_read_and_a_bound_on_pages_or_items_is_not() {
        let not = |w: &str| matches!(w, "pages" | "jobs" | "results");
        let read = |text: &str| bound(text, not).map(|(b, thing, _)| (b.op, b.amount, thing));
        assert_eq!(
            read("apartments with at least 2 bedrooms"),
            Some((BoundOp::AtLeast, 2.0, "bedrooms".into()))
        );
        assert_eq!(
            read("units that have 2 bedrooms or more"),
            Some((BoundOp::AtLeast, 2.0, "bedrooms".into()))
        );
        assert_eq!(
            read("places with more than one bedroom"),
            Some((BoundOp::Above, 1.0, "bedroom".into()))
        );
        assert_eq!(
            read("anything with a minimum of 2 beds"),
            Some((BoundOp::AtLeast, 2.0, "beds".into()))
        );
        assert_eq!(
            read("2+ bedroom rentals"),
            Some((BoundOp::AtLeast, 2.0, "bedroom".into()))
        );
        assert_eq!(
            read("cabins with under 3 steps"),
            Some((BoundOp::Below, 3.0, "steps".into()))
        );
        assert_eq!(
            read("flats with 2 or more bedrooms"),
            Some((BoundOp::AtLeast, 2.0, "bedrooms".into()))
        );
        assert_eq!(
            read("flats with two or more bedrooms"),
            Some((BoundOp::AtLeast, 2.0, "bedrooms".into()))
        );
        // A measure's unit says what it bounds, "with" or not.
        assert_eq!(
            read("cars under 50k miles"),
            Some((BoundOp::Below, 50_000.0, "miles".into()))
        );
        assert_eq!(
            read("bikes with less than 10,000 km on the clock"),
            Some((BoundOp::Below, 10_000.0, "km".into()))
        );
        assert_eq!(
            read("a flat of 800 sq ft or more"),
            Some((BoundOp::AtLeast, 800.0, SIZE.into()))
        );
        // A phone plan's data, in gigabytes however they are named.
        assert_eq!(
            read("plans with at least 50 gb"),
            Some((BoundOp::AtLeast, 50.0, DATA.into()))
        );
        assert_eq!(
            read("deals under 20 gigs"),
            Some((BoundOp::Below, 20.0, DATA.into()))
        );
        // A length of time is bounded in minutes.
        assert_eq!(
            read("recipes ready in under 45 minutes"),
            Some((BoundOp::Below, 45.0, DURATION.into()))
        );
        assert_eq!(
            read("courses shorter than 2 hours"),
            Some((BoundOp::Below, 120.0, DURATION.into()))
        );
        assert_eq!(
            read("trails that climb more than 500 metres"),
            Some((BoundOp::Above, 500.0, METRES.into()))
        );
        // How many people an item takes, by its verb or its people.
        for (text, op, amount, thing) in [
            (
                "cottages that sleep 6 or more",
                BoundOp::AtLeast,
                6.0,
                "sleeps",
            ),
            (
                "houses that sleep at least 6",
                BoundOp::AtLeast,
                6.0,
                "sleeps",
            ),
            (
                "places sleeping six or more people",
                BoundOp::AtLeast,
                6.0,
                "sleeps",
            ),
            (
                "recipes that serve at least four",
                BoundOp::AtLeast,
                4.0,
                "serves",
            ),
            ("cars that seat more than 5", BoundOp::Above, 5.0, "seats"),
            (
                "cottages with room for 6 or more",
                BoundOp::AtLeast,
                6.0,
                "guests",
            ),
            (
                "can take at least six guests",
                BoundOp::AtLeast,
                6.0,
                "guests",
            ),
            ("for 6 or more people", BoundOp::AtLeast, 6.0, "guests"),
            ("für mindestens 6 personen", BoundOp::AtLeast, 6.0, "guests"),
            (
                "somewhere for a group of 6+ people",
                BoundOp::AtLeast,
                6.0,
                "people",
            ),
            ("we're a party of six", BoundOp::AtLeast, 6.0, "guests"),
            (
                "which rooms fit 8 or more?",
                BoundOp::AtLeast,
                8.0,
                "guests",
            ),
            ("capacity of 8 or more", BoundOp::AtLeast, 8.0, "guests"),
            (
                "I have a team of eight, which rooms are big enough?",
                BoundOp::AtLeast,
                8.0,
                "guests",
            ),
            (
                "a cottage for a family of 4",
                BoundOp::AtLeast,
                4.0,
                "guests",
            ),
        ] {
            assert_eq!(read(text), Some((op, amount, thing.into())), "{text}");
        }
        // Without a cue it is how many, no bound: "a cottage that sleeps 4".
        assert_eq!(read("a cottage that sleeps 4"), None);
        // A quantity with a sign, below or above zero.
        for (text, op, thing) in [
            (
                "teams with a negative goal difference",
                BoundOp::Below,
                "goal difference",
            ),
            (
                "show me the teams whose gd is negative",
                BoundOp::Below,
                "gd",
            ),
            (
                "clubs with a goal difference below zero",
                BoundOp::Below,
                "goal difference",
            ),
            ("goal difference < 0", BoundOp::Below, "goal difference"),
            (
                "accounts with a positive balance",
                BoundOp::Above,
                "balance",
            ),
        ] {
            assert_eq!(read(text), Some((op, 0.0, thing.into())), "{text}");
        }
        // Things that are never below zero have no sign to bound.
        assert_eq!(read("products with negative reviews"), None);
        // "within" a distance, written joined or as "a" unit.
        for (text, op, amount) in [
            ("campsites within 1 km of the beach", BoundOp::AtMost, 1.0),
            (
                "which ones are at most 1km from the beach",
                BoundOp::AtMost,
                1.0,
            ),
            ("less than a kilometre from the beach", BoundOp::Below, 1.0),
            ("within a mile of the station", BoundOp::AtMost, 1.0),
            ("weniger als 1 meile entfernt", BoundOp::Below, 1.0),
            ("weniger als eine meile", BoundOp::Below, 1.0),
        ] {
            let read = read(text).map(|(op, amount, _)| (op, amount));
            assert_eq!(read, Some((op, amount)), "{text}");
        }
        // Half of a unit.
        assert_eq!(
            read("games that take less than half an hour"),
            Some((BoundOp::Below, 30.0, DURATION.into()))
        );
        assert_eq!(
            read("within half a mile of the beach"),
            Some((BoundOp::AtMost, 0.5, "miles".into()))
        );
        assert_eq!(read("under 20 kmh"), None);
        assert_eq!(read("flats with 2 bedrooms"), None);
        assert_eq!(read("the first 3 of over 20 pages"), None);
        assert_eq!(read("sites with over 20 pages"), None);
        assert_eq!(read("up to 200 jobs"), None);
    }

    #[test]
    fn a_bound_on_a_time_of_day_is_in_minutes_after_midnight() {
        let read = |text: &str| bound(text, |_| false).map(|(b, thing, _)| (b.op, b.amount, thing));
        for (text, op, amount) in [
            ("classes before 12:00", BoundOp::Below, 720.0),
            ("flights leaving before 10am", BoundOp::Below, 600.0),
            ("trains after 6:30 pm", BoundOp::Above, 1110.0),
            ("sessions starting earlier than 12pm", BoundOp::Below, 720.0),
            ("later than 6 pm", BoundOp::Above, 1080.0),
            ("no later than 9:15", BoundOp::AtMost, 555.0),
            ("what starts before noon", BoundOp::Below, 720.0),
            ("classes that start before 12", BoundOp::Below, 720.0),
            ("after 6 in the evening", BoundOp::Above, 1080.0),
            ("from 18h", BoundOp::AtLeast, 1080.0),
            ("kurse nach 18 uhr", BoundOp::Above, 1080.0),
            ("cours avant midi", BoundOp::Below, 720.0),
            ("clases después de las 18:00", BoundOp::Above, 1080.0),
            ("before midnight", BoundOp::Below, 1440.0),
            // An hour of the evening in 24-hour time is one number, not 2 and then digits.
            ("later than 20:00", BoundOp::Above, 1200.0),
            ("kurse nach 21 uhr", BoundOp::Above, 1260.0),
            ("posts after 3pm yesterday", BoundOp::Above, 900.0),
            // An hour in words, and a comma after a bare hour (no digits of a number).
            (
                "i need to leave before nine, what are my options?",
                BoundOp::Below,
                540.0,
            ),
            ("buses after six in the evening", BoundOp::Above, 1080.0),
            ("before 9, please", BoundOp::Below, 540.0),
            // "by" at the latest, before a time written as one.
            ("i have to leave by 9am", BoundOp::AtMost, 540.0),
            ("done by 18:00", BoundOp::AtMost, 1080.0),
            // A restated bound is read as last said.
            (
                "before 11:00 am... actually make that before 12:00",
                BoundOp::Below,
                720.0,
            ),
        ] {
            assert_eq!(read(text), Some((op, amount, TIME.to_owned())), "{text}");
        }
        // Counts, years, prices and bare numbers after a cue that is not only of time.
        for text in [
            "posts after 6 months",
            "films before 2020",
            "after 60 days",
            "from 12 shops",
            "items under 12.50",
            "stories from 12h ago",
            "after one of them",
            "before ten days",
            "sorted by 9",
            "written by 3 authors",
        ] {
            assert_ne!(
                read(text).map(|(_, _, thing)| thing),
                Some(TIME.to_owned()),
                "{text}"
            );
        }
        // A place's hours: open past a time is when it closes, open before one when it
        // opens; the word that says so is the bound's.
        for (text, op, amount, thing, rest) in [
            (
                "libraries open after 8pm",
                BoundOp::Above,
                1200.0,
                CLOSES,
                "libraries",
            ),
            (
                "which ones close after 8 pm",
                BoundOp::Above,
                1200.0,
                CLOSES,
                "which ones",
            ),
            (
                "still open past eight tonight",
                BoundOp::Above,
                1200.0,
                CLOSES,
                "still",
            ),
            ("open until 9pm", BoundOp::AtLeast, 1260.0, CLOSES, ""),
            (
                "haben nach 20 uhr geöffnet",
                BoundOp::Above,
                1200.0,
                CLOSES,
                "haben",
            ),
            (
                "abiertas después de las 20:00",
                BoundOp::Above,
                1200.0,
                CLOSES,
                "",
            ),
            (
                "shops open before 9am",
                BoundOp::Below,
                540.0,
                OPENS,
                "shops",
            ),
            (
                "cafés that open before 8",
                BoundOp::Below,
                480.0,
                OPENS,
                "cafés that",
            ),
            (
                "which opens after 10am",
                BoundOp::Above,
                600.0,
                OPENS,
                "which",
            ),
            // A place closes in the evening: a bare morning hour is the evening's.
            (
                "pharmacies closing before six",
                BoundOp::Below,
                1080.0,
                CLOSES,
                "pharmacies",
            ),
            ("open until 9", BoundOp::AtLeast, 1260.0, CLOSES, ""),
            (
                "which close before 6:30",
                BoundOp::Below,
                1110.0,
                CLOSES,
                "which",
            ),
        ] {
            assert_eq!(read(text), Some((op, amount, thing.to_owned())), "{text}");
            let (_, left) = super::read(text);
            assert_eq!(
                left.split_whitespace().collect::<Vec<_>>().join(" "),
                rest,
                "{text}"
            );
        }
        // "until" bounds only a place's hours, and "half past" is a time of its own.
        assert_eq!(read("classes until 9pm"), None);
        assert_eq!(read("meet at half past 8pm"), None);
        // The words of the time are taken whole, the rest read on.
        let (_, rest) = super::read("posts after 3pm yesterday");
        assert_eq!(
            rest.split_whitespace().collect::<Vec<_>>(),
            ["posts", "yesterday"]
        );
    }
}
