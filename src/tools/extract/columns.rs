//! Fields the user named, as columns of the records the one list engine found: "name and
//! price", "title, author and link" are read from the same records as "every item", each field
//! filled from the column that matches it by an ordered table of named rules, and `null` where
//! the records have nothing for it — never dropped.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::page::dates::{clock_minutes, closing_time, normalise_date, round_the_clock, timestamp};
use crate::page::dom::{
    first_number, json_number, measure, minutes, number_before, number_range, singular, squashed,
};
use crate::page::money::is_price_text;
use crate::read::metadata::looks_like_person;
use crate::read::outline::is_rating_text;
use crate::read::records::{Column, ColumnKind, NameSource, RecordList};
pub use crate::read::role::FieldRole;

/// A field the user named.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WantedField {
    /// The key in the answer (the user's own word).
    pub name: String,
    /// What it is.
    #[serde(default = "text_role")]
    pub role: FieldRole,
    /// Column names that mean it (the planner's words for the role: `writer`, `byline`, `by`).
    #[serde(default)]
    pub words: Vec<String>,
    /// Values the request chooses items by in this field ("classes taught by Maya Patel":
    /// `Maya Patel`); a column no other rule names is found by holding one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub asked: Vec<String>,
}

fn text_role() -> FieldRole {
    FieldRole::Text
}

/// Which column filled a field, and by which rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldSource {
    /// The field.
    pub field: String,
    /// The column, or None when no column has it.
    pub column: Option<String>,
    /// The rule that chose it.
    pub rule: Option<&'static str>,
    /// Which of the facts a packed value holds answers it ("06:30–07:15 · 45 min": the
    /// third, the length); none when the whole value does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part: Option<Part>,
}

/// What of a packed value answers a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// One of the facts it holds ([`parts`]): the `index`-th (from 1) of `of`.
    Fact {
        /// Its place, from 1.
        index: usize,
        /// How many facts the value holds.
        of: usize,
    },
    /// How long the range of times it holds lasts: "09:00 – 09:45" is "45 min".
    LengthOfRange,
    /// The time a status line says a place closes: "Closes 19:30" is "19:30".
    ClosingTime,
}

impl Part {
    /// The part of `text` it names: the fact, when `text` holds as many; the length, when it
    /// holds a range of times.
    fn of_text(self, text: &str) -> Option<String> {
        match self {
            Self::Fact { index, of } => {
                let parts = parts(text);
                if parts.len() == of {
                    return Some(parts[index - 1].to_owned());
                }
                // Hours that never end ("Open 24 hours") among ranges of hours: open from the
                // day's start to its end.
                match (round_the_clock(text), index, of) {
                    (true, 1, 2) => Some("00:00".to_owned()),
                    (true, 2, 2) => Some("24:00".to_owned()),
                    _ => None,
                }
            }
            Self::LengthOfRange => range_minutes(text).map(|minutes| format!("{minutes} min")),
            Self::ClosingTime => closing_time(text),
        }
    }
}

/// The minutes between the two times of the first range of times of day a value holds
/// ("06:30–07:15 · 45 min" → 45; a range past midnight, "23:30–00:15", → 45).
fn range_minutes(text: &str) -> Option<i64> {
    let (start, end) = segments(text).into_iter().find_map(clock_range)?;
    #[allow(clippy::cast_possible_truncation, reason = "minutes of a day")]
    let (start, end) = (clock_minutes(start)? as i64, clock_minutes(end)? as i64);
    Some((end - start).rem_euclid(24 * 60))
}

/// What cards print between facts packed into one line ("06:30–07:15 · 45 min",
/// "Studio A | Beginner").
const PART_JOINS: &[&str] = &[" · ", " • ", " | "];

/// The facts a packed value holds, in the order printed: cut at the joins cards print between
/// facts, a range of times of day at its dash ("06:30–07:15 · 45 min" → "06:30", "07:15",
/// "45 min"), and a fact from its other reading in brackets after it ("5 × 5 ft (25 sq ft)"
/// → "5 × 5 ft", "25 sq ft"). One part when nothing is packed.
pub fn parts(text: &str) -> Vec<&str> {
    segments(text)
        .into_iter()
        .filter(|segment| !segment.is_empty())
        .flat_map(|segment| match (clock_range(segment), bracketed(segment)) {
            (Some((start, end)), _) | (None, Some((start, end))) => vec![start, end],
            (None, None) => vec![segment],
        })
        .collect()
}

/// A fact and the words in brackets after it, when both are there: "10 × 10 ft (100 sq ft)"
/// → ("10 × 10 ft", "100 sq ft").
fn bracketed(text: &str) -> Option<(&str, &str)> {
    let (fact, other) = text.strip_suffix(')')?.rsplit_once(" (")?;
    let (fact, other) = (fact.trim(), other.trim());
    (!fact.is_empty() && !other.is_empty() && !other.contains(['(', ')'])).then_some((fact, other))
}

/// A value cut at the joins cards print between facts.
fn segments(text: &str) -> Vec<&str> {
    let mut segments = vec![text.trim()];
    for join in PART_JOINS {
        segments = segments
            .into_iter()
            .flat_map(|segment| segment.split(join).map(str::trim))
            .collect();
    }
    segments
}

/// A range of times of day cut at its dash: "06:30–07:15" → ("06:30", "07:15").
fn clock_range(text: &str) -> Option<(&str, &str)> {
    ['–', '—', '-'].iter().find_map(|dash| {
        let (start, end) = text.split_once(*dash)?;
        let (start, end) = (start.trim(), end.trim());
        (clock_minutes(start).is_some() && clock_minutes(end).is_some()).then_some((start, end))
    })
}

/// Units an amount is counted in: a free field named by one ("model, price, miles") names
/// the amount, and keeps its plural.
const AMOUNT_UNITS: &[&str] = &[
    "miles",
    "kilometers",
    "kilometres",
    "hours",
    "minutes",
    "seconds",
    "days",
    "weeks",
    "months",
    "years",
];

/// A free field's name as a column is named, for the rules to compare: in the singular
/// ("cities" → "city"), but a unit an amount is counted in as said ("miles"). The answer keeps
/// the user's own word ("the stops" is the column `stops`).
fn as_a_column_is_named(name: &str) -> String {
    let last = name.rsplit(' ').next().unwrap_or(name);
    // "number of guests", "max guests", "sleeps": a count keeps the words it was asked in.
    let counted = [
        "number of ",
        "max ",
        "maximum ",
        "min ",
        "minimum ",
        "how many ",
        "total ",
    ]
    .iter()
    .any(|lead| name.starts_with(lead));
    // A measure's own name ("metres" climbed) is a kind of measure, named as said.
    let a_measure = MEASURE_KINDS
        .iter()
        .any(|(names, _)| names.contains(&normalised(name).as_str()));
    if AMOUNT_UNITS.contains(&name) || counted || a_measure || CAPACITY_NAMES.contains(&last) {
        name.to_owned()
    } else {
        singular(name)
    }
}

/// What a column is made of, for the rules.
struct ColumnView<'a> {
    column: &'a Column,
    /// The fact of a packed value it reads, with the whole column's name; none for the
    /// whole value.
    part: Option<(Part, &'a str)>,
    /// Its filled values, as text.
    values: Vec<String>,
    /// Among the columns of times of day ("06:10", "6:45 pm"), which this is, in the
    /// records' order; none when it is no such column.
    clock_rank: Option<usize>,
}

impl ColumnView<'_> {
    /// The column's name without the `_2` that tells repeated names apart.
    fn base_name(&self) -> &str {
        base_name(&self.column.name)
    }

    /// Whether most of its values pass `test`.
    fn mostly(&self, test: impl Fn(&str) -> bool) -> bool {
        !self.values.is_empty()
            && self.values.iter().filter(|v| test(v)).count() * 2 > self.values.len()
    }
}

/// A column's name without the `_2` that tells repeated names apart ("tag_2" → "tag").
pub fn base_name(name: &str) -> &str {
    match name.rsplit_once('_') {
        Some((base, n)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => base,
        _ => name,
    }
}

type Rule = fn(&WantedField, &ColumnView<'_>) -> bool;

/// The rules, in order: the first rule any unused column passes chooses it.
const RULES: &[(&str, Rule)] = &[
    // "start time", "when it ends": of a range of times packed in one value ("06:30–07:15 ·
    // 45 min"), the time asked is its first or its second, before any rule takes the whole
    // value by its name ("when"). A plain "time" keeps the whole range.
    ("end_of_a_range", |field, column| {
        column.part.is_some()
            && !TIME_NAMES.contains(&normalised(&field.name).as_str())
            && start_or_end_rank(field).is_some_and(|rank| column.clock_rank == Some(rank))
    }),
    // "closing time": where no range of hours is printed, the time a status line says the
    // place closes ("Closes 19:30", "Open until 21:00").
    ("closing_time_said", |field, column| {
        column
            .part
            .is_some_and(|(part, _)| part == Part::ClosingTime)
            && CLOSING_NAMES.contains(&normalised(&field.name).as_str())
    }),
    // "birthplace" is the column "Birth place": a name is the same written joined or apart.
    // "charge points" is asked in the singular here as every free name is ("charge point").
    ("same_name", |field, column| {
        let name = squashed(&field.name);
        squashed(&column.column.name) == name
            || field.name.contains(' ')
                && squashed(&singular(&column.column.name.replace('_', " "))) == name
    }),
    // "W", "Pts": the header as printed, where the column is named by what it stands for.
    ("printed_header", |field, column| {
        column
            .column
            .printed
            .as_deref()
            .is_some_and(|printed| squashed(printed) == squashed(&field.name))
    }),
    // "player count", "number of players", "player": the thing a free name counts, in the
    // singular or the plural, is the column of that name ("players").
    ("same_thing_counted", |field, column| {
        let name = normalised(&field.name);
        let mut things = name
            .split('_')
            .filter(|w| !w.is_empty() && !COUNTING_WORDS.contains(w));
        field.role == FieldRole::Text
            && things
                .next()
                .is_some_and(|thing| singular(thing) == singular(&normalised(column.base_name())))
            && things.next().is_none()
    }),
    ("word_for_the_role", |field, column| {
        let base = normalised(column.base_name());
        // A column named only by its kind ("text") whose values are "by …" lines is the
        // items' byline, not their text.
        let byline = field.role != FieldRole::Author
            && column.column.source == NameSource::Kind
            && column.mostly(|v| by_line(v).is_some());
        !byline && field.words.iter().any(|w| normalised(w) == base)
    }),
    ("value_kind", |field, column| match field.role {
        FieldRole::Url => column.column.kind == ColumnKind::Url && column.base_name() == "url",
        FieldRole::Image => column.column.kind == ColumnKind::Image,
        FieldRole::Date => {
            column.column.kind == ColumnKind::Date || column.mostly(|v| timestamp(v, 0).is_some())
        }
        FieldRole::Price => column.mostly(is_price_text),
        // The person behind an item is its author however the page names their part
        // ("courses by Ann Lee" are those of the instructor Ann Lee).
        FieldRole::Author => {
            column.mostly(|v| by_line(v).is_some())
                || crate::read::role::is_person_part(column.base_name())
        }
        // A shop's star rating ("★ 4.6") is its items' score, as the outline reads it.
        FieldRole::Score => {
            column.mostly(|v| counted(v, SCORE_UNITS).is_some() || is_rating_text(v))
        }
        FieldRole::Comments => column.mostly(|v| counted(v, COMMENT_UNITS).is_some()),
        FieldRole::Title => {
            column.column.kind == ColumnKind::Text
                && column.column.source == NameSource::Kind
                && column.base_name() == "title"
        }
        FieldRole::Description | FieldRole::Text => false,
    }),
    // "phone number": where no column is named for it, the one whose values are phone numbers.
    ("phone_by_its_shape", |field, column| {
        PHONE_NAMES.contains(&normalised(&field.name).as_str())
            && column.mostly(crate::read::contacts::is_phone_text)
    }),
    // "classes taught by Maya Patel": where no column is named for the person (or the free
    // field), the column that holds the name asked for is theirs, however the page titles it.
    ("holds_the_value_asked", |field, column| {
        matches!(field.role, FieldRole::Author | FieldRole::Text)
            && field.asked.iter().any(|asked| {
                let asked = asked.to_lowercase();
                column
                    .values
                    .iter()
                    .any(|v| contains_words(&v.to_lowercase(), &asked))
            })
    }),
    // "manual or automatic", "new or used": a field named by the values it takes is the
    // column that holds them.
    ("named_by_its_values", |field, column| {
        let values: Vec<&str> = field.name.split(" or ").map(str::trim).collect();
        field.role == FieldRole::Text
            && values.len() >= 2
            && values.iter().all(|value| {
                column
                    .values
                    .iter()
                    .any(|v| super::choose::same_value(v, value))
            })
    }),
    // "operator", "run by", "organiser": a line that names who does what its verb says
    // ("Operated by Q-Park", "Run by City Council", "Organised by the Friends of the Park")
    // answers the one who does it; the name after "by" is the value.
    ("agent_by_its_verb", |field, column| {
        field.role == FieldRole::Text
            && column
                .mostly(|v| agent_line(v).is_some_and(|(verb, _)| agent_of(&field.name, &verb)))
    }),
    // "salary", "pay": a free name for an amount of money is answered by the column of
    // amounts ("€60,000", labelled `price` by its value's kind).
    ("money_named", |field, column| {
        field.role == FieldRole::Text && is_money_name(&field.name) && column.mostly(is_price_text)
    }),
    // "venue", "where": an events list prints the place after the date ("December 3, 2026
    // at c-base", "14 Jan 2027 · Factory"); the place is the part after it.
    ("place_after_date", |field, column| {
        field.role == FieldRole::Text
            && PLACE_NAMES.contains(&normalised(&field.name).as_str())
            && column.mostly(|v| place_after_date(v).is_some())
    }),
    // "the longest trail": a length is a distance where the items show one ("12.4 km"); else
    // how long they take (`counted_in_its_unit`, "length" being a duration's name too).
    ("length_as_a_distance", |field, column| {
        field.role == FieldRole::Text
            && normalised(&field.name) == "length"
            && column.mostly(|v| {
                measure(v)
                    .or_else(|| measure(before_a_place(v)))
                    .is_some_and(|(_, unit)| DISTANCE_UNITS.contains(&unit.as_str()))
            })
    }),
    // "bedrooms", "number of bedrooms", "beds": a column of "3 beds" is counted in the unit
    // the field names; "size", "square footage": a column of "1,450 sq ft" is an area.
    ("counted_in_its_unit", |field, column| {
        field.role == FieldRole::Text
            && counted_thing(&field.name).is_some_and(|thing| {
                // A length of time may take two units ("2 hr 40 min"): read as minutes.
                let in_time = DURATION_NAMES.contains(&thing.as_str());
                column.mostly(|v| {
                    measure(v)
                        .or_else(|| measure(before_a_place(v)))
                        .is_some_and(|(_, unit)| unit_counts(&unit, &thing))
                        || in_time && minutes(v).is_some()
                })
            })
    }),
    // "dimensions", "size": a column of "10 × 15 ft", "2 x 3 m" holds how big each item is,
    // however it is titled (an area in a unit answers a size first, as it orders by size).
    ("dimensions_by_their_shape", |field, column| {
        field.role == FieldRole::Text
            && DIMENSION_NAMES.contains(&normalised(&field.name).as_str())
            && column.mostly(is_dimensions)
    }),
    // "stops", "number of changes": a journey's stops are the column of "Direct", "1 stop",
    // "2 changes", however the page titles it.
    ("stops_by_their_values", |field, column| {
        field.role == FieldRole::Text
            && counted_thing(&field.name).is_some_and(|thing| {
                super::STOP_NOUNS.contains(&thing.as_str())
                    || super::STOP_NOUNS.contains(&format!("{thing}s").as_str())
            })
            && column.mostly(|v| super::stops_shown(v).is_some())
    }),
    // "guests", "capacity", "how many it sleeps": how many an item takes is one count
    // however it is named ("Sleeps 4" is the column `sleeps`, "6 guests" counted in guests).
    ("capacity_named", |field, column| {
        field.role == FieldRole::Text
            && counted_thing(&field.name).is_some_and(|thing| is_capacity_name(&thing))
            && (CAPACITY_NAMES.contains(&column.base_name())
                || column.mostly(|v| {
                    measure(v).is_some_and(|(_, unit)| CAPACITY_NAMES.contains(&unit.as_str()))
                }))
    }),
    // "spots", "3 or more places", a party of three: what is left to book ("4 places left";
    // "Sold out" has none), after any column that counts the thing itself ("48 pitches").
    ("counted_as_left", |field, column| {
        // The thing alone, or counted ("number of places"), or beside the state it is
        // counted in ("free spaces", "spaces available"): a "meeting spot" is where.
        let name = normalised(&field.name);
        let words: Vec<&str> = name
            .split('_')
            .filter(|w| !w.is_empty() && !COUNTING_WORDS.contains(w))
            .collect();
        let (thing, in_a_state) = match words.as_slice() {
            [_] => (counted_thing(&field.name), false),
            [state, thing] | [thing, state] if is_left_state(state) => {
                (Some((*thing).to_owned()), true)
            }
            // "free study seats": the state, then the thing in two words.
            [state, _, thing] | [_, thing, state] if is_left_state(state) => {
                (Some((*thing).to_owned()), true)
            }
            _ => (None, false),
        };
        field.role == FieldRole::Text
            && thing.is_some_and(|thing| {
                let thing = if is_capacity_name(&thing) {
                    "places"
                } else {
                    thing.as_str()
                };
                column.mostly(|v| measure(v).is_some_and(|(_, unit)| is_left_of(&unit, thing)))
                    // A column named by the thing whose values say how many are left ("Study
                    // seats": "18 of 120 free").
                    || in_a_state
                        && names_the_thing(column.base_name(), thing)
                        && column.mostly(counts_what_is_left)
            })
    }),
    // "players", "how many people": a column of ranges of counts ("👥 2–4"), however the page
    // titles it ("Team size"), is how many an item takes.
    ("capacity_as_a_range", |field, column| {
        field.role == FieldRole::Text
            && counted_thing(&field.name).is_some_and(|thing| is_capacity_name(&thing))
            && column.mostly(|v| {
                number_range(v).is_some()
                    && v.split_whitespace().last().is_some_and(|unit| {
                        unit.ends_with(|c: char| c.is_ascii_digit() || c == '+')
                            || is_capacity_name(&unit.to_lowercase())
                    })
            })
    }),
    // "address", "where": one place word answers another's column ("location" is the column
    // `address`, as the card's markup names it).
    ("place_named", |field, column| {
        field.role == FieldRole::Text
            && PLACE_NAMES.contains(&last_word(&normalised(&field.name)))
            && PLACE_NAMES.contains(&column.base_name())
    }),
    // "booking code", "flight number", "reference": a name for an item's code is the column
    // of codes ("GX-1041", "TP1351"), however the page titles it.
    ("code_by_its_shape", |field, column| {
        let name = normalised(&field.name);
        let words: Vec<&str> = name.split('_').collect();
        field.role == FieldRole::Text
            && words.iter().any(|w| CODE_NAMES.contains(w))
            && !words.contains(&"of")
            && column.mostly(is_code)
    }),
    // "departure", "arrival", "start time": a journey prints when it leaves before when it
    // gets there, a timetable when a class starts before when it ends, so of the columns of
    // times of day the first is the start ("the time" of an item) and the second the end.
    ("start_then_end", |field, column| {
        start_or_end_rank(field).is_some_and(|rank| column.clock_rank == Some(rank))
    }),
    // "meeting point", "room", "where": a column of places named by their kind ("Harbour
    // Gate", "Market Hall", "Studio 2"), however the page titles it, is where an item is.
    ("place_by_its_kind", |field, column| {
        field.role == FieldRole::Text
            && is_place_name(&field.name)
            && !is_title_column(column)
            && column.mostly(names_a_place)
    }),
    // "guide", "instructor", "Führer": the person an item is led by is the column of
    // people's names ("Clara Lindqvist"), however the page titles it.
    ("person_by_their_name", |field, column| {
        matches!(field.role, FieldRole::Text | FieldRole::Author)
            && is_person_name(&field.name)
            && !is_title_column(column)
            && column.mostly(|v| looks_like_person(v, 2) && !names_a_place(v))
    }),
    ("any_link", |field, column| {
        field.role == FieldRole::Url && column.column.kind == ColumnKind::Url
    }),
    // "how big is each room": a room, a tent or a table that shows no area and no lengths is
    // as big as the people it takes ("Seats", "Capacity").
    ("size_as_capacity", |field, column| {
        field.role == FieldRole::Text
            && matches!(normalised(&field.name).as_str(), "size" | "sizes")
            && CAPACITY_NAMES.contains(&column.base_name())
    }),
    // "GD", "pts": a field asked by the short form of a column's name (a league table's
    // "goal difference", "points", spelled out by its header's `<abbr title>`): the initials
    // of its words, or its first letter and others of it in order.
    ("abbreviated_field", |field, column| {
        field.role == FieldRole::Text && abbreviates(&normalised(&field.name), column.base_name())
    }),
    // "power", "speed": a measure asked without the word a spec sheet qualifies it by ("Max
    // power", "Top speed", "Total price").
    ("qualified_name", |field, column| {
        const QUALIFIERS: &[&str] = &[
            "max", "maximum", "min", "minimum", "peak", "top", "rated", "total", "average", "avg",
        ];
        // "free", "available": a count in a state, asked without the time a live page
        // names it at ("Free now", "Available today").
        const TIMES: &[&str] = &["now", "today", "tonight", "currently"];
        // One state by its other names: "3 chargers available" are "Free now".
        const UNUSED: &[&str] = &["free", "available", "spare", "vacant"];
        let same_state = |a: &str, b: &str| a == b || UNUSED.contains(&a) && UNUSED.contains(&b);
        let name = normalised(&field.name);
        let base = normalised(column.base_name());
        field.role == FieldRole::Text
            && (base
                .split_once('_')
                .is_some_and(|(qualifier, rest)| QUALIFIERS.contains(&qualifier) && rest == name)
                || base
                    .rsplit_once('_')
                    .is_some_and(|(rest, time)| TIMES.contains(&time) && same_state(rest, &name)))
    }),
    // "departure", "arrival": a table's header may shorten the name ("Dep.", "Arr.").
    ("abbreviated_header", |field, column| {
        let header = column.base_name();
        column.column.source == NameSource::Header
            && header.chars().count() >= 3
            && header.chars().all(char::is_alphabetic)
            && normalised(&field.name)
                .split('_')
                .any(|word| word.len() > header.len() && word.starts_with(header))
    }),
];

/// Rules that may choose a column another field already took: one column holding two values.
/// They run after [`RULES`], for the fields still without a column.
const SHARED_RULES: &[(&str, Rule)] = &[
    // "★ 4.5 (1,203)": a shop prints how many rated an item in brackets after its stars, so
    // the one column answers "the rating" and "the most ratings".
    ("count_after_the_score", |field, column| {
        field.role == FieldRole::Comments
            && column.mostly(|v| is_rating_text(v) && count_after_the_score(v).is_some())
    }),
    // A table whose headers name no title ("Dep.", "Coach no.", "Fare"): its first column of
    // values that differ on every row and are no times, amounts or counts names its rows,
    // though a field asked by that column's name took it ("each train's number").
    ("a_tables_naming_column", |field, column| {
        field.role == FieldRole::Title
            && column.column.kind == ColumnKind::Text
            && column.column.source == NameSource::Header
            && column.values.len() >= 2
            && {
                let mut seen = std::collections::HashSet::new();
                column.values.iter().all(|v| seen.insert(v.as_str()))
            }
            && column.values.iter().all(|v| {
                v.chars().any(char::is_alphabetic)
                    && clock_minutes(v).is_none()
                    && !is_price_text(v)
                    && !v.starts_with(|c: char| c.is_ascii_digit())
            })
    }),
];

/// The count in brackets after a score: "★ 4.5 (1,203)" → 1203, "4.2/5 (860 ratings)" → 860.
fn count_after_the_score(text: &str) -> Option<f64> {
    let (score, rest) = text.trim().rsplit_once('(')?;
    let inside = rest.strip_suffix(')')?.trim();
    let digits = inside
        .split_whitespace()
        .next()
        .filter(|n| n.chars().all(|c| c.is_ascii_digit() || c == ','))?;
    let unit_ok = inside
        .split_whitespace()
        .nth(1)
        .is_none_or(|unit| COMMENT_UNITS.contains(&unit.to_lowercase().as_str()));
    (!score.trim().is_empty() && unit_ok)
        .then(|| digits.replace(',', "").parse().ok())
        .flatten()
}

/// Words that name an item's code ("booking code", "flight number", "référence").
const CODE_NAMES: &[&str] = &[
    "code",
    "codes",
    "ref",
    "reference",
    "references",
    "number",
    "numbers",
    "no",
    "id",
    "référence",
    "numéro",
    "nummer",
    "código",
    "número",
];

/// Whether a value is a code: one word of capitals and digits, both, that may carry a dash, a
/// slash or a leading `#` ("GX-1041", "TP1351", "#C1042"), or a capital prefix and a number
/// ("IB 3167"). Prices, counts and words are not.
fn is_code(value: &str) -> bool {
    let value = value.trim().trim_start_matches('#');
    let joined: String = match value.split_once(' ') {
        Some((prefix, number))
            if prefix.chars().all(|c| c.is_ascii_uppercase())
                && number.chars().all(|c| c.is_ascii_digit()) =>
        {
            format!("{prefix}{number}")
        }
        _ => value.to_owned(),
    };
    (3..=14).contains(&joined.chars().count())
        && joined
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || matches!(c, '-' | '/'))
        && joined.chars().any(|c| c.is_ascii_uppercase())
        && joined.chars().any(|c| c.is_ascii_digit())
}

/// Names of when an item starts (a journey leaves, a class begins; its time of day), and of
/// when it ends (a journey arrives). Names are read as `normalised` writes them.
pub(crate) const START_NAMES: &[&str] = &[
    "departure",
    "departs",
    "depart",
    "departing",
    "leaves",
    "take_off",
    "takeoff",
    "departure_time",
    "departure_times",
    "start",
    "starts",
    "start_time",
    "start_times",
    "starts_at",
    "starting_time",
    "begins",
    // A place's hours: when it opens (`planner::measures::OPENS`).
    "opening_time",
    "time",
    "times",
    "time_of_day",
    "heure",
    "uhrzeit",
    "hora",
];
/// Names of an item's time that say neither its start nor its end.
const TIME_NAMES: &[&str] = &["time", "times", "time_of_day", "heure", "uhrzeit", "hora"];

/// Which time of day a field asks by its name: the first printed (0, a start: "departure")
/// or the second (1, an end: "arrival"); none for other names.
fn start_or_end_rank(field: &WantedField) -> Option<usize> {
    let name = normalised(&field.name);
    if START_NAMES.contains(&name.as_str()) {
        Some(0)
    } else if END_NAMES.contains(&name.as_str()) {
        Some(1)
    } else {
        None
    }
}

/// Names of a phone number, as a field is named.
const PHONE_NAMES: &[&str] = &[
    "phone",
    "phones",
    "phone_number",
    "phone_numbers",
    "telephone",
    "telephone_number",
    "tel",
];

/// Names of the time a place closes, as a field is named (the planner's bound on it is
/// "closing time").
const CLOSING_NAMES: &[&str] = &[
    "closing_time",
    "closes",
    "closing",
    "close_time",
    "closing_hour",
];

const END_NAMES: &[&str] = &[
    "arrival",
    "arrives",
    "arrive",
    "arriving",
    "lands",
    "landing",
    "arrival_time",
    "arrival_times",
    "end",
    "ends",
    "end_time",
    "finish",
    "finishes",
    "finish_time",
    // A place's hours: when it closes (`planner::measures::CLOSES`).
    "closing_time",
];

/// Names of a pay: the money a job or a role earns. The planner reads money asked in these
/// words as a pay (`salary`), not a price.
pub const PAY_NAMES: &[&str] = &["salary", "salaries", "pay", "wage", "wages", "compensation"];

/// Other free field names that mean an amount of money, as a price does.
const OTHER_MONEY_NAMES: &[&str] = &["fee", "fees", "rent"];

/// Whether a free field's name means an amount of money ("salary", "pay"), also with a
/// word before it ("monthly rent", "base salary").
pub fn is_money_name(name: &str) -> bool {
    let name = normalised(name);
    [name.as_str(), last_word(&name)]
        .iter()
        .any(|n| PAY_NAMES.contains(n) || OTHER_MONEY_NAMES.contains(n))
}

/// The last word of a normalised name ("street_address" → `address`).
fn last_word(name: &str) -> &str {
    name.rsplit('_').next().unwrap_or(name)
}

/// Free field names that mean where an item takes place or is.
const PLACE_NAMES: &[&str] = &[
    "location", "venue", "place", "where", "city", "town", "address", "region", "area", "county",
    "province", "district",
];

/// Last words of a free name for where an item is met or held, besides [`PLACE_NAMES`]
/// ("meeting point", "room", "Treffpunkt").
const WHERE_NAMES: &[&str] = &[
    "point",
    "spot",
    "room",
    "studio",
    "meeting",
    "meet",
    "treffpunkt",
    "ort",
    "raum",
    "lieu",
    "salle",
    "rendez_vous",
    "lugar",
    "sala",
    "encuentro",
];

/// Whether a free name asks where an item is ("meeting place", "starting point", "room").
fn is_place_name(name: &str) -> bool {
    let name = normalised(name);
    let last = last_word(&name);
    PLACE_NAMES.contains(&last) || WHERE_NAMES.contains(&last)
}

/// Nouns that name a kind of place, as the last or any word of a place's name: "Harbour
/// Gate", "Main Square", "Old Bridge Pier", "Studio 2", "Lindvägen tram terminus".
const PLACE_KINDS: &[&str] = &[
    "street",
    "road",
    "lane",
    "avenue",
    "boulevard",
    "square",
    "plaza",
    "gate",
    "gates",
    "hall",
    "steps",
    "pier",
    "quay",
    "wharf",
    "harbour",
    "harbor",
    "marina",
    "port",
    "station",
    "terminus",
    "terminal",
    "park",
    "garden",
    "gardens",
    "bridge",
    "market",
    "church",
    "cathedral",
    "chapel",
    "abbey",
    "museum",
    "gallery",
    "library",
    "centre",
    "center",
    "theatre",
    "theater",
    "arena",
    "stadium",
    "room",
    "studio",
    "pool",
    "gym",
    "court",
    "house",
    "tower",
    "castle",
    "palace",
    "beach",
    "entrance",
    "lobby",
    "foyer",
    "reception",
    "office",
    "building",
    "campus",
    "school",
    "college",
    "hotel",
    "airport",
    "green",
    "fountain",
    "monument",
    "memorial",
    "platz",
    "straße",
    "strasse",
    "bahnhof",
    "rue",
    "place",
    "gare",
    "calle",
    "puerta",
    "estación",
];

/// Whether a value names a place by its kind: one of its words is a [`PLACE_KINDS`] noun.
pub(super) fn names_a_place(value: &str) -> bool {
    value
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| PLACE_KINDS.contains(&w.to_lowercase().as_str()))
}

/// Free names of the person who leads, teaches or hosts an item, in the languages read.
const PERSON_NAMES: &[&str] = &[
    "guide",
    "instructor",
    "teacher",
    "tutor",
    "coach",
    "trainer",
    "host",
    "leader",
    "speaker",
    "presenter",
    "lecturer",
    "driver",
    "chef",
    "performer",
    "organiser",
    "organizer",
    "captain",
    "pilot",
    "doctor",
    "therapist",
    "agent",
    "contact",
    "führer",
    "reiseleiter",
    "leiter",
    "lehrer",
    "guía",
    "profesor",
    "monitor",
    "moniteur",
    "professeur",
    "animateur",
    "entraîneur",
    "entrenador",
];

/// Whether a free name is the person behind an item ("guide", "guide name", "tour guide",
/// "instructor").
fn is_person_name(name: &str) -> bool {
    let name = normalised(name);
    let words: Vec<&str> = name.split('_').filter(|w| *w != "name").collect();
    words.last().is_some_and(|last| {
        PERSON_NAMES.contains(last)
            || PERSON_NAMES.contains(&singular(last).as_str())
            || crate::read::role::is_person_part(last)
    })
}

/// Whether a column is the items' titles, which look like names and places alike.
fn is_title_column(column: &ColumnView<'_>) -> bool {
    column.base_name() == "title" || column.column.kind != ColumnKind::Text
}

/// Names of how many people an item takes (a cottage sleeps, a recipe serves, a car
/// seats, a game is played by), as a field or a column is named, and the units such counts
/// are written in.
pub const CAPACITY_NAMES: &[&str] = &[
    "players",
    "sleeps",
    "sleep",
    "serves",
    "servings",
    "serving",
    "portions",
    "seats",
    "capacity",
    "occupancy",
    "guests",
    "people",
    "persons",
    "diners",
    "accommodates",
    "personenzahl",
    "personen",
    "personnes",
    "personas",
];

/// Whether a name is one of [`CAPACITY_NAMES`], in the singular or the plural ("player").
fn is_capacity_name(name: &str) -> bool {
    let name = singular(name);
    CAPACITY_NAMES.iter().any(|c| singular(c) == name)
}

/// Whether `short` is a short form of the column name `name`: the initials of its words
/// ("gd" of `goal_difference`), or, for a name of one word, its first letter and three or
/// more of its letters in order ("pts" of `points`, "qty" of `quantity`).
fn abbreviates(short: &str, name: &str) -> bool {
    let name = normalised(name);
    let words: Vec<&str> = name.split('_').filter(|w| !w.is_empty()).collect();
    if short.contains('_') || short.chars().count() < 2 || short == name {
        return false;
    }
    if words.len() >= 2 {
        return words.len() == short.chars().count()
            && words
                .iter()
                .zip(short.chars())
                .all(|(w, c)| w.starts_with(c));
    }
    let mut letters = name.chars();
    short.chars().count() >= 3
        && short.chars().next() == name.chars().next()
        && short.chars().all(|c| letters.any(|l| l == c))
}

/// Words of a field's name that only say it is counted ("number of bedrooms", "bedroom
/// count", "how many beds").
const COUNTING_WORDS: &[&str] = &["number", "of", "count", "how", "many", "total", "the"];

/// Kinds of measure a field may name, each with the units its values are written in: a
/// field named by a kind's name is answered by a column of its units.
const MEASURE_KINDS: &[(&[&str], &[&str])] = &[
    (AREA_NAMES, AREA_UNITS),
    (DISTANCE_NAMES, DISTANCE_UNITS),
    (DURATION_NAMES, DURATION_UNITS),
    (HEIGHT_NAMES, HEIGHT_UNITS),
    (DATA_NAMES, DATA_UNITS),
];

/// Names of a phone or broadband plan's allowance of data, and its units: a bound in GB is on
/// `data` (`planner::measures`). A card's "30GB data" says its unit and then what it counts.
const DATA_NAMES: &[&str] = &["data", "data_allowance", "allowance", "gigs", "gb"];
const DATA_UNITS: &[&str] = &["gb", "gb data", "gigs", "gigabytes"];

/// Names of a height climbed or stood at (a trail's ascent, a peak's altitude), and its
/// units: a bound in metres is on `metres` (`planner::measures`).
const HEIGHT_NAMES: &[&str] = &[
    "metres",
    "meters",
    "ascent",
    "climb",
    "climbing",
    "elevation",
    "elevation_gain",
    "height_gain",
    "altitude",
    "descent",
];
const HEIGHT_UNITS: &[&str] = &["m", "metres", "meters", "metre", "meter"];

/// Names of how long a thing takes (a recipe, a course, a film), and its units: a bound in
/// minutes or hours is on the `duration` (`planner::measures`).
const DURATION_NAMES: &[&str] = &[
    "duration",
    "length",
    "cook_time",
    "cooking_time",
    "total_time",
    "prep_time",
    "running_time",
    "runtime",
    "how_long",
];
const DURATION_UNITS: &[&str] = &[
    "h", "hr", "hrs", "hour", "hours", "min", "mins", "minute", "minutes",
];

/// Names of a distance travelled or to travel (a car's mileage, a route's length), and its
/// units.
const DISTANCE_NAMES: &[&str] = &[
    "mileage",
    "miles",
    "mile",
    "odometer",
    "odometer_reading",
    "distance",
    "kilometers",
    "kilometer",
    "kilometres",
    "kilometre",
    "km",
];
const DISTANCE_UNITS: &[&str] = &["mi", "mile", "miles", "km", "kilometers", "kilometres"];

/// Names of how big an item is in its lengths.
const DIMENSION_NAMES: &[&str] = &["dimensions", "dimension", "measurements", "size", "sizes"];

/// Whether a text starts with two or three lengths joined by a times sign: "10 × 15 ft",
/// "2 x 3 m", "4' x 6'", "120 × 60 × 75 cm".
fn is_dimensions(text: &str) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    #[allow(clippy::expect_used)] // a constant pattern
    let re = RE.get_or_init(|| {
        let length = r"\d+(?:[.,]\d+)?\s*(?:'|′|ft|m|cm|mm|in)?";
        regex::Regex::new(&format!(
            r"(?i)^{length}\s*[×x]\s*{length}(?:\s*[×x]\s*{length})?(?:\s|$|\()"
        ))
        .expect("valid regex")
    });
    re.is_match(text.trim())
}

/// Names of an area, and the units areas are written in.
const AREA_NAMES: &[&str] = &[
    "area",
    "size",
    "sizes",
    "surface",
    "footage",
    "square_footage",
    "floor_area",
    "sqft",
    "space",
];
const AREA_UNITS: &[&str] = &[
    "sq ft",
    "sqft",
    "sq. ft",
    "ft²",
    "square feet",
    "m²",
    "m2",
    "sq m",
    "sqm",
    "square meters",
    "square metres",
];

/// The thing a field counts or measures: its name less the counting words ("number of
/// bedrooms" → `bedrooms`, "square footage" → `square_footage`).
fn counted_thing(name: &str) -> Option<String> {
    let name = normalised(name);
    if MEASURE_KINDS
        .iter()
        .any(|(names, _)| names.contains(&name.as_str()))
    {
        return Some(name);
    }
    name.split('_')
        .rfind(|w| !w.is_empty() && !COUNTING_WORDS.contains(w))
        .map(str::to_owned)
}

/// Whether a unit counts the thing a field names: the same word ("beds", "bed"), a shortening
/// of it ("bed" of "bedrooms", "min" of "minutes"), or a unit of the kind of measure the
/// name is (an area's "sq ft" for `size`, a distance's "mi" for `mileage`).
fn unit_counts(unit: &str, thing: &str) -> bool {
    if let Some((_, units)) = MEASURE_KINDS
        .iter()
        .find(|(names, _)| names.contains(&thing))
    {
        return units.contains(&unit);
    }
    // "pitches" and "pitch": the -es of a word ending in a hiss goes too.
    let stem = |w: &str| {
        let w = w.trim_end_matches('s');
        ["ch", "sh", "x", "z"]
            .iter()
            .find_map(|end| w.strip_suffix('e').filter(|s| s.ends_with(end)))
            .unwrap_or(w)
            .to_owned()
    };
    let (unit, thing) = (stem(unit), stem(thing));
    !unit.contains(' ') && unit.chars().count() >= 3 && thing.starts_with(&unit)
}

/// Words after a count that say it is what is left to book: "4 places left".
const REMAINING_WORDS: &[&str] = &["left", "remaining", "available", "free", "open"];

/// Words a request says what is left of a thing with ("free spaces", "spaces available",
/// "empty spaces"): any of them asks the count a page prints with any of [`REMAINING_WORDS`].
fn is_left_state(word: &str) -> bool {
    REMAINING_WORDS.contains(&word) || ["empty", "vacant", "spare", "unused"].contains(&word)
}

/// Whether a column's name names `thing` (its last word, in the singular or the plural;
/// places, spots, seats to book are one thing): "study_seats" names "seats" and "places".
fn names_the_thing(column: &str, thing: &str) -> bool {
    let last = column.rsplit('_').next().unwrap_or(column);
    singular(last) == singular(thing) || is_space_noun(last) && is_space_noun(thing)
}

/// Whether a value counts what is left: a number first and a word of what is left after it
/// ("18 of 120 free", "3 left").
fn counts_what_is_left(value: &str) -> bool {
    value.starts_with(|c: char| c.is_ascii_digit())
        && value.split_whitespace().count() <= 5
        && value
            .split_whitespace()
            .any(|w| REMAINING_WORDS.contains(&w.to_lowercase().as_str()))
}

/// Nouns of a place one person books on a tour, a class or a trip: "3 places left", "2 spots
/// remaining", "5 seats available".
const SPACE_NOUNS: &[&str] = &["places", "spots", "spaces", "seats", "tickets"];

/// Whether a word is one of [`SPACE_NOUNS`], in the singular or the plural.
fn is_space_noun(word: &str) -> bool {
    let word = singular(word);
    SPACE_NOUNS.iter().any(|s| singular(s) == word)
}

/// Whether a unit is what is left of a thing asked as a count: "places left" of "spots" (places,
/// spots and seats to book are one count, however each side names them), "pitches available"
/// of "pitches".
fn is_left_of(unit: &str, thing: &str) -> bool {
    (singular(thing) != thing || is_space_noun(thing))
        && unit.split_once(' ').is_some_and(|(noun, left)| {
            REMAINING_WORDS.contains(&left)
                && (unit_counts(noun, thing) || is_space_noun(noun) && is_space_noun(thing))
        })
}

/// A distance without the place it is to or from: "0.3 miles to the beach" → "0.3 miles",
/// "1.2 km from the centre" → "1.2 km".
fn before_a_place(text: &str) -> &str {
    [" to ", " from ", " away"]
        .iter()
        .filter_map(|join| text.find(join))
        .min()
        .map_or(text, |at| &text[..at])
}

/// What joins a date to the place after it.
const PLACE_JOINS: &[&str] = &[" at ", " @ ", " · ", " | ", " — ", " – ", " - "];

/// The place in "<date> at <place>": the part after the last join whose start is a date.
fn place_after_date(text: &str) -> Option<&str> {
    PLACE_JOINS.iter().find_map(|join| {
        let (date, place) = text.rsplit_once(join)?;
        let place = place.trim();
        let words = place.split_whitespace().count();
        (timestamp(date.trim(), 0).is_some() && (1..=8).contains(&words)).then_some(place)
    })
}

/// Units after a number that make it a score ("412 points").
const SCORE_UNITS: &[&str] = &["point", "points", "vote", "votes", "like", "likes", "stars"];
/// Units after a number that make it a comment count ("96 comments"), or a count of reviews
/// or of ratings ("862 reviews", "412 ratings"), which an order by the number of reviews or
/// ratings reads as one.
const COMMENT_UNITS: &[&str] = &[
    "comment", "comments", "reply", "replies", "review", "reviews", "rating", "ratings",
];

fn normalised(name: &str) -> String {
    name.trim().to_lowercase().replace([' ', '-'], "_")
}

/// Whether `text` holds `words` as whole words ("with maya patel" holds "maya patel"; "ann"
/// is not in "joanna").
fn contains_words(text: &str, words: &str) -> bool {
    text.match_indices(words).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + words.len()..].chars().next();
        before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric())
    })
}

/// The verb and the name of a line that says who does a thing: "Operated by Q-Park" →
/// ("operated", "Q-Park"), "Run by City Council" → ("run", "City Council"). The verb is one
/// word in its past form; the name at most six words, and one fact (a packed line's other
/// facts are its other parts).
pub(super) fn agent_line(text: &str) -> Option<(String, &str)> {
    let (verb, name) = text.trim().split_once(" by ")?;
    let (verb, name) = (verb.to_lowercase(), name.trim());
    (verb.chars().count() >= 3
        && verb.chars().all(char::is_alphabetic)
        && (verb.ends_with("ed") || verb == "run")
        && !name.is_empty()
        && name.split_whitespace().count() <= 6
        && !PART_JOINS.iter().any(|join| name.contains(join)))
    .then_some((verb, name))
}

/// Whether a field names the one who does what a past verb says: the same stem ("operator"
/// of "operated", "organiser" of "organised", "publisher" of "published", "run by" of
/// "run"); one who runs a place is its operator, manager or company whichever verb the page
/// uses ("Run by", "Managed by", "Operated by").
fn agent_of(name: &str, verb: &str) -> bool {
    const RUNNING: &[&str] = &["operat", "run", "manag"];
    const ORGANISATIONS: &[&str] = &["company", "firm", "organisation", "organization"];
    let name = normalised(name);
    let name = name.strip_suffix("_by").unwrap_or(&name);
    let done = |word: &str| {
        word.strip_suffix("ed")
            .or_else(|| word.strip_suffix('d'))
            .unwrap_or(word)
            .to_owned()
    };
    let doer = ["ors", "ers", "or", "er"]
        .iter()
        .find_map(|end| name.strip_suffix(end))
        .map_or_else(|| done(name), str::to_owned);
    let verb = done(verb);
    !name.contains('_')
        && doer.chars().count() >= 3
        && (doer == verb
            || RUNNING.contains(&verb.as_str())
                && (RUNNING.contains(&doer.as_str()) || ORGANISATIONS.contains(&name)))
}

/// The name in a "by Ann Lee" line.
fn by_line(text: &str) -> Option<&str> {
    let rest = text
        .trim()
        .strip_prefix("by ")
        .or_else(|| text.trim().strip_prefix("By "))?;
    let name = rest.trim();
    (!name.is_empty() && name.split_whitespace().count() <= 5).then_some(name)
}

/// In a short text, the number one of `units` follows, wherever it stands ("96 comments",
/// "9.3 Superb · 862 reviews" → 862, "(1,204 reviews)").
fn counted(text: &str, units: &[&str]) -> Option<f64> {
    if text.chars().count() > 60 {
        return None;
    }
    number_before(text, units)
}

/// The facts of a text column whose values mostly pack as many ([`parts`]), each as a column
/// of its own named after the whole ("when_part_3"), and, where they mostly hold a range of
/// times, how long it lasts ("when_length"), with which part each is.
fn part_columns(column: &Column, values: &[String]) -> Vec<(Part, Column, Vec<String>)> {
    if column.kind != ColumnKind::Text {
        return Vec::new();
    }
    let mostly = |n: usize| n * 2 > values.len();
    let counts: Vec<usize> = values.iter().map(|v| parts(v).len()).collect();
    let of = counts
        .iter()
        .copied()
        .max_by_key(|n| {
            (
                counts.iter().filter(|c| *c == n).count(),
                std::cmp::Reverse(*n),
            )
        })
        .filter(|of| *of >= 2 && mostly(counts.iter().filter(|n| *n == of).count()));
    let facts = of.into_iter().flat_map(|of| {
        (1..=of).map(move |index| (Part::Fact { index, of }, format!("part_{index}")))
    });
    let length = (Part::LengthOfRange, "length".to_owned());
    let closes = (Part::ClosingTime, "closes".to_owned());
    facts
        .chain([length, closes])
        .filter_map(|(part, suffix)| {
            let values: Vec<String> = values.iter().filter_map(|v| part.of_text(v)).collect();
            if matches!(part, Part::LengthOfRange | Part::ClosingTime) && !mostly(values.len()) {
                return None;
            }
            let column = Column {
                name: format!("{}_{suffix}", column.name),
                kind: ColumnKind::Text,
                source: NameSource::Kind,
                filled: values.len(),
                printed: None,
            };
            Some((part, column, values))
        })
        .collect()
}

/// Chooses a column for each wanted field, each column used once.
pub fn choose(
    fields: &[WantedField],
    columns: &[Column],
    rows: &[Map<String, Value>],
) -> Vec<FieldSource> {
    let mut views: Vec<ColumnView<'_>> = columns
        .iter()
        .map(|column| ColumnView {
            column,
            part: None,
            values: rows
                .iter()
                .filter_map(|r| r.get(&column.name))
                .filter(|v| !v.is_null())
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect(),
            clock_rank: None,
        })
        .collect();
    // The facts of packed values, each a column after the whole ones, so a whole value that
    // answers a field is chosen before a part of it.
    let packed: Vec<(usize, Part, Column, Vec<String>)> = views
        .iter()
        .enumerate()
        .flat_map(|(at, view)| {
            part_columns(view.column, &view.values)
                .into_iter()
                .map(move |(part, column, values)| (at, part, column, values))
        })
        .collect();
    views.extend(packed.iter().map(|(at, part, column, values)| ColumnView {
        column,
        part: Some((*part, columns[*at].name.as_str())),
        values: values.clone(),
        clock_rank: None,
    }));
    // Times of day ranked in the order printed, a packed value's by its parts ("06:30–07:15":
    // a start, then an end).
    let mut clocks = 0;
    for at in 0..columns.len() {
        let own_parts: Vec<usize> = (columns.len()..views.len())
            .filter(|i| packed[i - columns.len()].0 == at)
            // A status line's closing time is no time of a range printed in order.
            .filter(|i| packed[i - columns.len()].1 != Part::ClosingTime)
            .collect();
        let clock_parts: Vec<usize> = own_parts
            .into_iter()
            .filter(|i| views[*i].mostly(|v| clock_minutes(v).is_some()))
            .collect();
        let ranked = if clock_parts.is_empty() {
            if views[at].mostly(|v| clock_minutes(v).is_some()) {
                vec![at]
            } else {
                Vec::new()
            }
        } else {
            clock_parts
        };
        for i in ranked {
            views[i].clock_rank = Some(clocks);
            clocks += 1;
        }
    }
    let mut used = vec![false; views.len()];
    let mut sources: Vec<FieldSource> = fields
        .iter()
        .map(|f| FieldSource {
            field: f.name.clone(),
            column: None,
            rule: None,
            part: None,
        })
        .collect();
    // The rules read a free name as a column is named; the answer keeps the user's word.
    let fields: Vec<WantedField> = fields
        .iter()
        .map(|f| match f.role {
            FieldRole::Text => WantedField {
                name: as_a_column_is_named(&f.name),
                ..f.clone()
            },
            _ => f.clone(),
        })
        .collect();
    // Rule by rule across every field, so a field's exact name is never taken by another
    // field's weaker match.
    let rules = RULES
        .iter()
        .map(|rule| (rule, false))
        .chain(SHARED_RULES.iter().map(|rule| (rule, true)));
    for ((rule_name, rule), shared) in rules {
        for (field, source) in fields.iter().zip(sources.iter_mut()) {
            if source.column.is_some() {
                continue;
            }
            // Of the columns a rule accepts, the one filled in most records (the first on a
            // tie): a headline present on every card beats one only the featured card has.
            if let Some(i) = (0..views.len())
                .filter(|i| (shared || !used[*i]) && rule(field, &views[*i]))
                .max_by_key(|i| (views[*i].values.len(), std::cmp::Reverse(*i)))
            {
                used[i] = true;
                let (part, column) = match views[i].part {
                    Some((part, whole)) => (Some(part), whole),
                    None => (None, views[i].column.name.as_str()),
                };
                source.column = Some(column.to_owned());
                source.part = part;
                source.rule = Some(rule_name);
            }
        }
    }
    sources
}

/// The rows with exactly the wanted fields, in order, from the chosen columns (`null` where
/// none), each value read as its role reads: an author without its "by ", a date as ISO-8601
/// where the text holds one (`month_first` as the page's language writes dates), a score or
/// a comment count as its number.
pub fn project(
    fields: &[WantedField],
    sources: &[FieldSource],
    rows: Vec<Map<String, Value>>,
    month_first: bool,
) -> Vec<Map<String, Value>> {
    rows.into_iter()
        .map(|row| {
            fields
                .iter()
                .zip(sources)
                .map(|(field, source)| {
                    let mut value = source
                        .column
                        .as_ref()
                        .and_then(|c| row.get(c))
                        .cloned()
                        .unwrap_or(Value::Null);
                    if let Some(part) = source.part {
                        value = value
                            .as_str()
                            .and_then(|text| part.of_text(text))
                            .map_or(Value::Null, Value::String);
                    }
                    if source.rule == Some("place_after_date")
                        && let Some(place) = value.as_str().and_then(place_after_date)
                    {
                        value = Value::String(place.to_owned());
                    }
                    if source.rule == Some("agent_by_its_verb")
                        && let Some((_, name)) = value.as_str().and_then(agent_line)
                    {
                        value = Value::String(name.to_owned());
                    }
                    if source.rule == Some("count_after_the_score") {
                        value = value
                            .as_str()
                            .and_then(count_after_the_score)
                            .and_then(json_number)
                            .unwrap_or(Value::Null);
                    }
                    (field.name.clone(), typed(field.role, value, month_first))
                })
                .collect()
        })
        .collect()
}

/// A column's value as the field's role reads it; the text as it was when it does not read.
fn typed(role: FieldRole, value: Value, month_first: bool) -> Value {
    let Value::String(text) = &value else {
        return value;
    };
    let read = match role {
        FieldRole::Author => by_line(text).map(|name| Value::String(name.to_owned())),
        FieldRole::Date => normalise_date(text, month_first).map(Value::String),
        FieldRole::Score => first_number(text).and_then(json_number),
        // "9.3 Superb · 862 reviews": the count is the number before its unit.
        FieldRole::Comments => counted(text, COMMENT_UNITS)
            .or_else(|| first_number(text))
            .and_then(json_number),
        _ => None,
    };
    read.unwrap_or(value)
}

/// Least share of a list's records that must have the first wanted field for the list to be
/// the one asked for. Half: a list where most items lack what the user named first is another
/// list than theirs. Chosen by hand in session 13, not fitted.
const MIN_FIRST_FIELD_SHARE: f64 = 0.5;

/// How the list for named fields was chosen; its name is the evidence (`list_rule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ListRule {
    /// The records engine's main list, when most of its records have the first field.
    MainListHasTheFirstField,
    /// Otherwise the next list, in the engine's own order, that has it.
    NextListWithTheFirstField,
}

impl ListRule {
    const fn name(self) -> &'static str {
        match self {
            Self::MainListHasTheFirstField => "main_list_has_the_first_field",
            Self::NextListWithTheFirstField => "next_list_with_the_first_field",
        }
    }
}

/// The first list (the engine's order: main list first) whose records mostly have the first
/// wanted field, and the name of the rule that chose it; None when no list does.
pub fn list_with_the_fields(
    fields: &[WantedField],
    lists: Vec<RecordList>,
) -> Option<(RecordList, &'static str)> {
    lists.into_iter().enumerate().find_map(|(position, list)| {
        let sources = choose(fields, &list.columns, &list.records);
        if first_field_share(&sources, &list.records) < MIN_FIRST_FIELD_SHARE {
            return None;
        }
        let rule = if position == 0 {
            ListRule::MainListHasTheFirstField
        } else {
            ListRule::NextListWithTheFirstField
        };
        Some((list, rule.name()))
    })
}

/// Which share of the rows have the first wanted field: the field a user names first is the
/// one the items are (a list of products by "name and price", of stories by "title").
pub fn first_field_share(sources: &[FieldSource], rows: &[Map<String, Value>]) -> f64 {
    let Some(column) = sources.first().and_then(|s| s.column.as_ref()) else {
        return 0.0;
    };
    if rows.is_empty() {
        return 0.0;
    }
    let filled = rows
        .iter()
        .filter(|r| r.get(column).is_some_and(|v| !v.is_null()))
        .count();
    #[allow(clippy::cast_precision_loss, reason = "record counts are small")]
    let share = filled as f64 / rows.len() as f64;
    share
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn column(name: &str, kind: ColumnKind, source: NameSource) -> Column {
        Column {
            name: name.into(),
            kind,
            source,
            filled: 3,
            printed: None,
        }
    }

    fn rows(values: Value) -> Vec<Map<String, Value>> {
        values
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_object().unwrap().clone())
            .collect()
    }

    /// Asserts the column each field got and the rule that chose it.
    fn assert_chosen(
        fields: &[WantedField],
        columns: &[Column],
        data: &[Map<String, Value>],
        want: &[(Option<&str>, Option<&str>)],
    ) {
        let sources = choose(fields, columns, data);
        let chosen: Vec<(Option<&str>, Option<&str>)> = sources
            .iter()
            .map(|s| (s.column.as_deref(), s.rule))
            .collect();
        assert_eq!(chosen, want);
    }

    fn wanted(spec: &[(&str, FieldRole, &[&str])]) -> Vec<WantedField> {
        spec.iter()
            .map(|(name, role, words)| WantedField {
                name: (*name).into(),
                role: *role,
                words: words.iter().map(|w| (*w).to_owned()).collect(),
                asked: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn each_rule_chooses_its_column_and_a_field_without_one_is_null() {
        let columns = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("url", ColumnKind::Url, NameSource::Kind),
            column("text", ColumnKind::Text, NameSource::Kind),
            column("text_2", ColumnKind::Text, NameSource::Kind),
            column("score", ColumnKind::Text, NameSource::Class),
            column("link_2", ColumnKind::Url, NameSource::Kind),
        ];
        let data = rows(json!([
            {"title": "A", "url": "https://x/a", "text": "by Ann Lee", "text_2": "$4.99", "score": "3 points", "link_2": "https://x/u"},
            {"title": "B", "url": "https://x/b", "text": "by Bo", "text_2": "$7", "score": "5 points", "link_2": "https://x/v"},
        ]));
        let fields = wanted(&[
            ("name", FieldRole::Title, &["title", "name"]),
            ("writer", FieldRole::Author, &["author", "by"]),
            ("cost", FieldRole::Price, &["price", "cost"]),
            ("points", FieldRole::Score, &["points", "score"]),
            ("link", FieldRole::Url, &["url", "link"]),
            ("when", FieldRole::Date, &["date"]),
        ]);
        let sources = choose(&fields, &columns, &data);
        let chosen: Vec<(Option<&str>, Option<&str>)> = sources
            .iter()
            .map(|s| (s.column.as_deref(), s.rule))
            .collect();
        assert_eq!(
            chosen,
            vec![
                (Some("title"), Some("word_for_the_role")),
                (Some("text"), Some("value_kind")),
                (Some("text_2"), Some("value_kind")),
                (Some("score"), Some("word_for_the_role")),
                (Some("url"), Some("word_for_the_role")),
                (None, None),
            ]
        );
        let projected = project(&fields, &sources, data, false);
        assert_eq!(
            Value::Object(projected[0].clone()),
            json!({"name": "A", "writer": "Ann Lee", "cost": "$4.99", "points": 3, "link": "https://x/a", "when": null})
        );
    }

    #[test]
    fn a_byline_column_named_text_is_the_author_not_the_description() {
        let columns = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("text", ColumnKind::Text, NameSource::Kind),
            column("text_2", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"title": "A", "text": "by Ann Lee", "text_2": "What the harbour taught us."},
            {"title": "B", "text": "by Bo Jensen", "text_2": "Counting green things."},
        ]));
        let fields = wanted(&[
            ("title", FieldRole::Title, &["title"]),
            ("author", FieldRole::Author, &["author", "by"]),
            (
                "blurb",
                FieldRole::Description,
                &["description", "blurb", "text"],
            ),
        ]);
        let chosen: Vec<Option<String>> = choose(&fields, &columns, &data)
            .into_iter()
            .map(|s| s.column)
            .collect();
        assert_eq!(
            chosen,
            [Some("title"), Some("text"), Some("text_2")].map(|c| c.map(str::to_owned))
        );
    }

    #[test]
    fn a_field_named_by_its_values_is_the_column_holding_them() {
        let columns = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("text", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"title": "Mazda3", "text": "Manual"},
            {"title": "Civic", "text": "Automatic"},
        ]));
        let fields = wanted(&[("manual or automatic", FieldRole::Text, &[])]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].column.as_deref(), Some("text"));
        assert_eq!(sources[0].rule, Some("named_by_its_values"));
        let fields = wanted(&[("new or used", FieldRole::Text, &[])]);
        assert_eq!(choose(&fields, &columns, &data)[0].column, None);
    }

    #[test]
    fn a_distance_is_the_column_written_in_a_distance_unit() {
        let columns = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("text", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"title": "Civic", "text": "42,310 mi"},
            {"title": "Leaf", "text": "18,905 mi"},
        ]));
        for name in ["miles", "mileage", "odometer reading", "kilometers"] {
            let fields = wanted(&[(name, FieldRole::Text, &[])]);
            let sources = choose(&fields, &columns, &data);
            assert_eq!(sources[0].column.as_deref(), Some("text"), "{name}");
            assert_eq!(sources[0].rule, Some("counted_in_its_unit"), "{name}");
        }
        // A distance to or from a place is a distance too.
        let data = rows(json!([
            {"title": "Brook Cottage", "text": "0.3 miles to the beach"},
            {"title": "Hotel Lux", "text": "1.2 miles from the centre"},
        ]));
        for name in ["distance", "miles"] {
            let fields = wanted(&[(name, FieldRole::Text, &[])]);
            let sources = choose(&fields, &columns, &data);
            assert_eq!(sources[0].column.as_deref(), Some("text"), "{name}");
            assert_eq!(sources[0].rule, Some("counted_in_its_unit"), "{name}");
        }
    }

    #[test]
    fn how_many_an_item_takes_is_one_count_however_named() {
        let columns = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("sleeps", ColumnKind::Number, NameSource::Label),
            column("text", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"title": "Brook Cottage", "sleeps": 4, "text": "2 bedrooms"},
            {"title": "The Old Forge", "sleeps": 6, "text": "3 bedrooms"},
        ]));
        for name in [
            "guests",
            "max guests",
            "number of guests",
            "capacity",
            "how many it sleeps",
        ] {
            let fields = wanted(&[(name, FieldRole::Text, &[])]);
            let sources = choose(&fields, &columns, &data);
            assert_eq!(sources[0].column.as_deref(), Some("sleeps"), "{name}");
        }
        // Written as a count in its unit ("6 guests").
        let counted = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("text", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"title": "Brook Cottage", "text": "4 guests"},
            {"title": "The Old Forge", "text": "6 guests"},
        ]));
        let fields = wanted(&[("capacity", FieldRole::Text, &[])]);
        let sources = choose(&fields, &counted, &data);
        assert_eq!(sources[0].column.as_deref(), Some("text"));
        assert_eq!(sources[0].rule, Some("capacity_named"));
        // A count of something else is no capacity.
        let fields = wanted(&[("people", FieldRole::Text, &[])]);
        let data = rows(json!([{"title": "A", "text": "2 bedrooms"}]));
        assert_eq!(choose(&fields, &counted, &data)[0].column, None);
    }

    #[test]
    fn a_name_written_joined_or_apart_is_the_same_name() {
        let columns = vec![
            column("name", ColumnKind::Text, NameSource::Header),
            column("birth_place", ColumnKind::Text, NameSource::Header),
        ];
        let data = rows(json!([{"name": "Ada Lovelace", "birth_place": "London"}]));
        let fields = wanted(&[("birthplace", FieldRole::Text, &[])]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].column.as_deref(), Some("birth_place"));
        assert_eq!(sources[0].rule, Some("same_name"));
    }

    #[test]
    fn a_column_named_by_the_thing_whose_values_say_how_many_are_left_counts_them_in_a_state() {
        let columns = vec![
            column("library", ColumnKind::Text, NameSource::Header),
            column("study_seats", ColumnKind::Text, NameSource::Header),
        ];
        let data = rows(json!([
            {"library": "Central", "study_seats": "18 of 120 free"},
            {"library": "Harbour", "study_seats": "2 of 36 free"},
        ]));
        for name in [
            "free study seats",
            "free seats",
            "places left",
            "study spaces free",
        ] {
            let sources = choose(&wanted(&[(name, FieldRole::Text, &[])]), &columns, &data);
            assert_eq!(sources[0].column.as_deref(), Some("study_seats"), "{name}");
            assert_eq!(sources[0].rule, Some("counted_as_left"), "{name}");
        }
        // The state is asked: a column of totals ("120 seats") is no count of what is left.
        let data = rows(json!([
            {"library": "Central", "study_seats": "120 seats"},
            {"library": "Harbour", "study_seats": "36 seats"},
        ]));
        let sources = choose(
            &wanted(&[("free seats", FieldRole::Text, &[])]),
            &columns,
            &data,
        );
        assert_ne!(sources[0].rule, Some("counted_as_left"));
    }

    #[test]
    fn a_place_opens_at_the_start_of_its_hours_and_closes_at_their_end() {
        let columns = vec![
            column("library", ColumnKind::Text, NameSource::Header),
            column("open_today", ColumnKind::Text, NameSource::Header),
        ];
        let data = rows(json!([
            {"library": "Central", "open_today": "9:00 – 20:00"},
            {"library": "Riverside", "open_today": "Closed today"},
            {"library": "Harbour", "open_today": "9:00 – 21:00"},
            {"library": "Southmead", "open_today": "Open 24 hours"},
            {"library": "Eastgate", "open_today": "9:30 – 17:00"},
        ]));
        let fields = wanted(&[
            ("closing time", FieldRole::Text, &[]),
            ("opening time", FieldRole::Text, &[]),
        ]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].column.as_deref(), Some("open_today"));
        assert_eq!(sources[0].part, Some(Part::Fact { index: 2, of: 2 }));
        assert_eq!(sources[0].rule, Some("end_of_a_range"));
        assert_eq!(sources[1].part, Some(Part::Fact { index: 1, of: 2 }));
        // Hours that never end run from the day's start to its end.
        let read = project(&fields, &sources, data, false);
        assert_eq!(read[3]["closing time"], json!("24:00"));
        assert_eq!(read[3]["opening time"], json!("00:00"));
        assert_eq!(read[1]["closing time"], Value::Null);
    }

    #[test]
    fn the_first_time_of_day_is_the_departure_and_the_second_the_arrival() {
        let columns = vec![
            column("name", ColumnKind::Text, NameSource::Kind),
            column("text", ColumnKind::Text, NameSource::Kind),
            column("text_2", ColumnKind::Text, NameSource::Kind),
            column("text_3", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"name": "a", "text": "06:10", "text_2": "2h 35m", "text_3": "8:45 pm"},
            {"name": "b", "text": "19:45", "text_2": "5h 10m", "text_3": "00:55+1"},
        ]));
        let fields = wanted(&[
            ("arrives", FieldRole::Text, &[]),
            ("departure", FieldRole::Text, &[]),
        ]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].column.as_deref(), Some("text_3"));
        assert_eq!(sources[1].column.as_deref(), Some("text"));
        assert_eq!(sources[1].rule, Some("start_then_end"));
        // A class's start is its time, as a timetable's first column of times of day.
        let fields = wanted(&[("start time", FieldRole::Text, &[])]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].column.as_deref(), Some("text"));
    }

    #[test]
    fn a_code_is_the_column_of_codes_however_it_is_named() {
        let columns = vec![
            column("name", ColumnKind::Text, NameSource::Kind),
            column("text", ColumnKind::Text, NameSource::Kind),
            column("text_2", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"name": "Sunrise Yoga", "text": "Studio 1", "text_2": "GX-1041"},
            {"name": "Spin Express", "text": "Cycle Studio", "text_2": "GX-1042"},
            {"name": "Aqua Fit", "text": "Pool", "text_2": "#GX-1043"},
        ]));
        for name in [
            "booking code",
            "class code",
            "reference",
            "code de réservation",
        ] {
            let sources = choose(&wanted(&[(name, FieldRole::Text, &[])]), &columns, &data);
            assert_eq!(sources[0].column.as_deref(), Some("text_2"), "{name}");
            assert_eq!(sources[0].rule, Some("code_by_its_shape"), "{name}");
        }
        // A count is no code.
        let sources = choose(
            &wanted(&[("number of studios", FieldRole::Text, &[])]),
            &columns,
            &data,
        );
        assert_eq!(sources[0].column, None);
        for code in ["TP1351", "U28441", "IB 3167", "GX-1041"] {
            assert!(is_code(code), "{code}");
        }
        for other in ["£8", "Studio 1", "2h 35m", "A4", "1,203", "Kit hire +£2"] {
            assert!(!is_code(other), "{other}");
        }
    }

    #[test]
    fn a_person_asked_for_by_name_is_found_in_the_column_holding_the_name() {
        let columns = vec![
            column("name", ColumnKind::Text, NameSource::Kind),
            column("text", ColumnKind::Text, NameSource::Kind),
            column("text_2", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"name": "Sunrise Yoga", "text": "Studio 1", "text_2": "with Maya Patel"},
            {"name": "Spin Express", "text": "Cycle Studio", "text_2": "with Tom Reid"},
        ]));
        let mut fields = wanted(&[("author", FieldRole::Author, &[])]);
        assert_eq!(choose(&fields, &columns, &data)[0].column, None);
        fields[0].asked = vec!["Maya Patel".into()];
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].column.as_deref(), Some("text_2"));
        assert_eq!(sources[0].rule, Some("holds_the_value_asked"));
        // Whole words only: "Ann" is not in "Joanna".
        assert!(!contains_words("with joanna", "ann"));
        assert!(contains_words("with maya patel", "maya patel"));
    }

    #[test]
    fn a_timetables_short_headers_stops_and_naming_column_are_found() {
        let columns = vec![
            column("dep", ColumnKind::Text, NameSource::Header),
            column("coach_no", ColumnKind::Text, NameSource::Header),
            column("changes_2", ColumnKind::Text, NameSource::Header),
            column("plat", ColumnKind::Text, NameSource::Header),
        ];
        let data = rows(json!([
            {"dep": "06:15", "coach_no": "LX 101", "changes_2": "Direct", "plat": "Bay 4"},
            {"dep": "07:30", "coach_no": "LX 103", "changes_2": "1 stop", "plat": "Bay 2"},
            {"dep": "08:45", "coach_no": "LX 105", "changes_2": "Direct", "plat": "Bay 4"},
        ]));
        let fields = wanted(&[
            ("title", FieldRole::Title, &["title"]),
            ("platform", FieldRole::Text, &[]),
            ("stops", FieldRole::Text, &[]),
            ("number", FieldRole::Text, &[]),
        ]);
        let sources = choose(&fields, &columns, &data);
        let found: Vec<(Option<&str>, Option<&str>)> = sources
            .iter()
            .map(|s| (s.column.as_deref(), s.rule))
            .collect();
        assert_eq!(found[1], (Some("plat"), Some("abbreviated_header")));
        assert_eq!(found[2], (Some("changes_2"), Some("stops_by_their_values")));
        // The coach number names the rows, though another field asked for it.
        assert_eq!(found[0], (Some("coach_no"), Some("a_tables_naming_column")));
        // Times, amounts and values that repeat name no row.
        let times = vec![column("dep", ColumnKind::Text, NameSource::Header)];
        let sources = choose(&fields[..1], &times, &data);
        assert_eq!(sources[0].column, None);
    }

    #[test]
    fn places_left_are_a_count_of_places_and_what_a_party_needs() {
        let columns = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("text", ColumnKind::Text, NameSource::Kind),
            column("text_2", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"title": "Old Town Walk", "text": "Cathedral Steps", "text_2": "4 places left"},
            {"title": "River Trip", "text": "Old Bridge Pier", "text_2": "Sold out"},
            {"title": "Art Tour", "text": "Main Square", "text_2": "1 place left"},
        ]));
        for (name, rule) in [
            ("spots", "counted_as_left"),
            ("places", "counted_as_left"),
            ("guests", "counted_as_left"),
        ] {
            let sources = choose(&wanted(&[(name, FieldRole::Text, &[])]), &columns, &data);
            assert_eq!(sources[0].column.as_deref(), Some("text_2"), "{name}");
            assert_eq!(sources[0].rule, Some(rule), "{name}");
        }
        // One place is where an item is.
        let sources = choose(
            &wanted(&[("meeting place", FieldRole::Text, &[])]),
            &columns,
            &data,
        );
        assert_eq!(sources[0].column.as_deref(), Some("text"));
    }

    #[test]
    fn a_place_and_a_person_are_found_by_what_their_values_are() {
        let columns = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("text", ColumnKind::Text, NameSource::Kind),
            column("text_2", ColumnKind::Text, NameSource::Kind),
            column("text_3", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"title": "Old Town Walk", "text": "Clara Lindqvist", "text_2": "Cathedral Steps", "text_3": "8 stops"},
            {"title": "River Trip", "text": "Jonas Berg", "text_2": "Old Bridge Pier", "text_3": "1 stop"},
            {"title": "Art Tour", "text": "Priya Nair", "text_2": "Main Square", "text_3": "9 stops"},
        ]));
        let fields = wanted(&[
            ("meeting point", FieldRole::Text, &[]),
            ("tour guide", FieldRole::Text, &[]),
            ("treffpunkt", FieldRole::Text, &[]),
        ]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].column.as_deref(), Some("text_2"));
        assert_eq!(sources[0].rule, Some("place_by_its_kind"));
        assert_eq!(sources[1].column.as_deref(), Some("text"));
        assert_eq!(sources[1].rule, Some("person_by_their_name"));
        // One column answers one field: the German name finds none left.
        assert_eq!(sources[2].column, None);
        // Names of things that are no people or places are not theirs.
        let fields = wanted(&[
            ("host", FieldRole::Text, &[]),
            ("room", FieldRole::Text, &[]),
        ]);
        let titles_only = vec![column("title", ColumnKind::Text, NameSource::Kind)];
        let sources = choose(&fields, &titles_only, &data);
        assert!(sources.iter().all(|s| s.column.is_none()));
    }

    #[test]
    fn a_free_name_is_compared_as_a_column_is_named_and_answered_as_said() {
        assert_eq!(as_a_column_is_named("stops"), "stop");
        assert_eq!(as_a_column_is_named("cities"), "city");
        assert_eq!(as_a_column_is_named("miles"), "miles");
        assert_eq!(as_a_column_is_named("metres"), "metres");
        assert_eq!(as_a_column_is_named("number of guests"), "number of guests");
        let columns = vec![column("venue", ColumnKind::Text, NameSource::Label)];
        let data = rows(json!([{"venue": "c-base"}]));
        let sources = choose(
            &wanted(&[("venues", FieldRole::Text, &[])]),
            &columns,
            &data,
        );
        assert_eq!(sources[0].field, "venues");
        assert_eq!(sources[0].column.as_deref(), Some("venue"));
    }

    #[test]
    fn a_length_is_a_distance_where_the_items_show_one_else_how_long_they_take() {
        let fields = wanted(&[("length", FieldRole::Text, &[])]);
        let trails = vec![
            column("name", ColumnKind::Text, NameSource::Kind),
            column("text", ColumnKind::Text, NameSource::Kind),
            column("text_2", ColumnKind::Text, NameSource::Kind),
        ];
        let walks = rows(json!([
            {"name": "a", "text": "3 hr 10 min", "text_2": "12.4 km"},
            {"name": "b", "text": "45 min", "text_2": "3 km"},
        ]));
        let sources = choose(&fields, &trails, &walks);
        assert_eq!(sources[0].column.as_deref(), Some("text_2"));
        assert_eq!(sources[0].rule, Some("length_as_a_distance"));
        let flights = rows(json!([
            {"name": "a", "text": "2h 35m", "text_2": "Non-stop"},
            {"name": "b", "text": "7h 35m", "text_2": "1 stop"},
        ]));
        let sources = choose(&fields, &trails, &flights);
        assert_eq!(sources[0].column.as_deref(), Some("text"));
        assert_eq!(sources[0].rule, Some("counted_in_its_unit"));
    }

    #[test]
    fn a_counted_thing_named_in_the_singular_is_the_column_of_its_plural() {
        let columns = vec![
            column("name", ColumnKind::Text, NameSource::Kind),
            column("players", ColumnKind::Text, NameSource::Header),
        ];
        let data = rows(json!([{"name": "Fox & Hen", "players": "2"}]));
        for name in ["player count", "number of players", "player"] {
            let fields = wanted(&[(name, FieldRole::Text, &[])]);
            let sources = choose(&fields, &columns, &data);
            assert_eq!(sources[0].column.as_deref(), Some("players"), "{name}");
            assert_eq!(sources[0].rule, Some("same_thing_counted"), "{name}");
        }
        // A name with another word than a count's is no count of the column.
        let fields = wanted(&[("company name", FieldRole::Text, &[])]);
        assert_eq!(choose(&fields, &columns, &data)[0].column, None);
    }

    #[test]
    fn a_range_of_counts_answers_how_many_an_item_takes() {
        let columns = vec![
            column("name", ColumnKind::Text, NameSource::Kind),
            column("team_size", ColumnKind::Text, NameSource::Attribute),
            column("length", ColumnKind::Text, NameSource::Attribute),
        ];
        let data = rows(json!([
            {"name": "The Vault", "team_size": "👤 2–4", "length": "60 min"},
            {"name": "Sunken Lab", "team_size": "👤 3–6", "length": "45 min"},
            {"name": "The Heist", "team_size": "2-5 players", "length": "30 min"},
        ]));
        for name in ["players", "player count", "guests", "how many people"] {
            let fields = wanted(&[(name, FieldRole::Text, &[])]);
            let sources = choose(&fields, &columns, &data);
            assert_eq!(sources[0].column.as_deref(), Some("team_size"), "{name}");
            assert_eq!(sources[0].rule, Some("capacity_as_a_range"), "{name}");
        }
        // Ages in years are a range of another count.
        let ages = rows(json!([{"name": "a", "team_size": "8–12 years"}]));
        let fields = wanted(&[("players", FieldRole::Text, &[])]);
        assert_eq!(choose(&fields, &columns, &ages)[0].column, None);
    }

    #[test]
    fn a_count_in_brackets_after_a_score_answers_the_number_of_ratings() {
        let columns = vec![
            column("name", ColumnKind::Text, NameSource::Kind),
            column("stars", ColumnKind::Text, NameSource::Attribute),
        ];
        let data = rows(json!([
            {"name": "a", "stars": "★ 4.5 (1,203)"},
            {"name": "b", "stars": "★ 4.2 (860)"},
        ]));
        let fields = wanted(&[
            ("rating", FieldRole::Score, &[]),
            ("ratings", FieldRole::Comments, &[]),
        ]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].column.as_deref(), Some("stars"));
        assert_eq!(sources[1].column.as_deref(), Some("stars"));
        assert_eq!(sources[1].rule, Some("count_after_the_score"));
        let projected = project(&fields, &sources, data, true);
        assert_eq!(projected[0]["rating"], json!(4.5));
        assert_eq!(projected[0]["ratings"], json!(1203));
        assert_eq!(projected[1]["ratings"], json!(860));
        assert_eq!(count_after_the_score("4.2/5 (860 ratings)"), Some(860.0));
        assert_eq!(count_after_the_score("(860)"), None);
        assert_eq!(count_after_the_score("★ 4.2 (new)"), None);
    }

    #[test]
    fn a_field_that_counts_a_thing_is_the_column_counted_in_its_unit() {
        let columns = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("text", ColumnKind::Text, NameSource::Kind),
            column("text_2", ColumnKind::Text, NameSource::Kind),
            column("text_3", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"title": "Sunny 1BR", "text": "1 bed", "text_2": "1 bath", "text_3": "640 sq ft"},
            {"title": "Spacious 3BR", "text": "3 beds", "text_2": "2 baths", "text_3": "1,450 sq ft"},
            {"title": "Studio loft", "text": "Studio", "text_2": "1 bath", "text_3": "480 sq ft"},
        ]));
        for (name, expected) in [
            ("number of bedrooms", "text"),
            ("bedroom count", "text"),
            ("beds", "text"),
            ("bathrooms", "text_2"),
            ("square footage", "text_3"),
            ("size", "text_3"),
        ] {
            let fields = wanted(&[(name, FieldRole::Text, &[])]);
            let sources = choose(&fields, &columns, &data);
            assert_eq!(sources[0].column.as_deref(), Some(expected), "{name}");
            assert_eq!(sources[0].rule, Some("counted_in_its_unit"), "{name}");
        }
        // A plural in -es counts its thing too: "140 pitches" is the "pitch count".
        let pitches = rows(json!([
            {"title": "Les Dunes", "text": "140 pitches"},
            {"title": "Le Pré Vert", "text": "60 pitches"},
        ]));
        for name in ["pitch count", "pitches", "number of pitches"] {
            let fields = wanted(&[(name, FieldRole::Text, &[])]);
            let sources = choose(&fields, &columns[..2], &pitches);
            assert_eq!(sources[0].column.as_deref(), Some("text"), "{name}");
        }
        // A unit of two letters is too short to stand for a word: "ft" is no "fountain".
        let fields = wanted(&[("rooms", FieldRole::Text, &[])]);
        assert_eq!(choose(&fields, &columns, &data)[0].column, None);
        // A plan's data in GB, its unit written onto the number ("30GB data", "Unlimited").
        let plans = rows(json!([
            {"title": "Pebble 5GB", "text": "Unlimited texts", "text_2": "5GB data"},
            {"title": "Orbit 60GB", "text": "Unlimited texts", "text_2": "60GB data"},
            {"title": "Juno", "text": "Unlimited texts", "text_2": "Unlimited data"},
        ]));
        let fields = wanted(&[("data", FieldRole::Text, &[])]);
        let sources = choose(&fields, &columns[..3], &plans);
        assert_eq!(sources[0].column.as_deref(), Some("text_2"));
        assert_eq!(sources[0].rule, Some("counted_in_its_unit"));
    }

    #[test]
    fn one_place_word_answers_another_places_column_and_money_keeps_its_name_after_a_word() {
        let columns = vec![
            column("address", ColumnKind::Text, NameSource::Class),
            column("price", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([{"address": "412 Elm St", "price": "$1,850"}]));
        let fields = wanted(&[
            ("where", FieldRole::Text, &[]),
            ("monthly rent", FieldRole::Text, &[]),
        ]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].column.as_deref(), Some("address"));
        assert_eq!(sources[0].rule, Some("place_named"));
        assert_eq!(sources[1].column.as_deref(), Some("price"));
        assert_eq!(sources[1].rule, Some("money_named"));
        assert!(is_money_name("base salary") && !is_money_name("rental agent"));
    }

    #[test]
    fn a_star_rating_column_is_the_items_score() {
        let columns = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("rating", ColumnKind::Text, NameSource::Class),
        ];
        let data = rows(json!([
            {"title": "Trail runner", "rating": "★ 4.6"},
            {"title": "Road shoe", "rating": "4.1 out of 5"},
        ]));
        let fields = wanted(&[
            ("title", FieldRole::Title, &["title"]),
            ("score", FieldRole::Score, &["points", "score"]),
        ]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[1].column.as_deref(), Some("rating"));
        assert_eq!(sources[1].rule, Some("value_kind"));
        let projected = project(&fields, &sources, data, false);
        assert_eq!(projected[0]["score"], json!(4.6));
        assert_eq!(projected[1]["score"], json!(4.1));
    }

    #[test]
    fn a_count_of_reviews_is_the_number_before_its_unit_wherever_it_stands() {
        let columns = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("text_2", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"title": "Kiln", "text_2": "Scored 7.2 Good · 640 reviews"},
            {"title": "Nori", "text_2": "9.0 Superb (2,105 reviews)"},
        ]));
        let fields = wanted(&[
            ("title", FieldRole::Title, &["title"]),
            ("reviews", FieldRole::Comments, &["comments"]),
        ]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[1].column.as_deref(), Some("text_2"));
        let projected = project(&fields, &sources, data, false);
        assert_eq!(projected[0]["reviews"], json!(640));
        assert_eq!(projected[1]["reviews"], json!(2105));
        assert_eq!(counted("96 comments", COMMENT_UNITS), Some(96.0));
        assert_eq!(counted("9.3 Superb", COMMENT_UNITS), None);
    }

    #[test]
    fn money_and_place_names_are_answered_by_amounts_and_the_place_after_a_date() {
        let columns = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("price", ColumnKind::Text, NameSource::Kind),
            column("description", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"title": "Async night", "price": "€60,000", "description": "December 3, 2026 at c-base"},
            {"title": "Embedded", "price": "€70,000", "description": "14 Jan 2027 · Factory Görlitzer Park"},
        ]));
        let fields = wanted(&[
            ("title", FieldRole::Title, &["title"]),
            ("salary", FieldRole::Text, &["pay"]),
            ("venue", FieldRole::Text, &["location"]),
        ]);
        let sources = choose(&fields, &columns, &data);
        let rules: Vec<Option<&str>> = sources.iter().map(|s| s.rule).collect();
        assert_eq!(
            rules,
            [
                Some("same_name"),
                Some("money_named"),
                Some("place_after_date")
            ]
        );
        let projected = project(&fields, &sources, data, false);
        assert_eq!(projected[1]["venue"], json!("Factory Görlitzer Park"));
        assert_eq!(projected[0]["salary"], json!("€60,000"));
        // A sentence with "at" in it is no date and place.
        assert_eq!(place_after_date("Pinning, wakers at work"), None);
    }

    #[test]
    fn an_exact_name_wins_over_another_fields_weaker_match() {
        let columns = vec![
            column("url", ColumnKind::Url, NameSource::Kind),
            column("homepage", ColumnKind::Url, NameSource::Label),
        ];
        let data = rows(json!([{"url": "https://x/a", "homepage": "https://a.example"}]));
        let fields = wanted(&[
            ("link", FieldRole::Url, &["url", "link"]),
            ("homepage", FieldRole::Url, &[]),
        ]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].column.as_deref(), Some("url"));
        assert_eq!(sources[1].column.as_deref(), Some("homepage"));
        assert_eq!(sources[1].rule, Some("same_name"));
    }

    #[test]
    fn any_link_is_the_last_resort_for_a_link() {
        let columns = vec![column("link", ColumnKind::Url, NameSource::Kind)];
        let data = rows(json!([{"link": "https://x/a"}]));
        let fields = wanted(&[("address", FieldRole::Url, &[])]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].rule, Some("any_link"));
    }

    #[test]
    fn of_the_columns_a_rule_accepts_the_best_filled_one_wins() {
        let columns = vec![
            column("headline", ColumnKind::Text, NameSource::Class),
            column("headline_2", ColumnKind::Text, NameSource::Class),
        ];
        let data = rows(json!([
            {"headline": null, "headline_2": "A"},
            {"headline": "Featured", "headline_2": "B"},
            {"headline": null, "headline_2": "C"},
        ]));
        let fields = wanted(&[("title", FieldRole::Title, &["headline"])]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].column.as_deref(), Some("headline_2"));
    }

    #[test]
    fn values_are_read_as_their_role_reads_them() {
        assert_eq!(
            typed(FieldRole::Date, json!("December 3, 2026 at c-base"), false),
            json!("2026-12-03")
        );
        assert_eq!(
            typed(FieldRole::Date, json!("3/4/2026"), false),
            json!("2026-04-03")
        );
        assert_eq!(
            typed(FieldRole::Date, json!("3/4/2026"), true),
            json!("2026-03-04")
        );
        assert_eq!(
            typed(FieldRole::Date, json!("yesterday"), false),
            json!("yesterday")
        );
        assert_eq!(
            typed(FieldRole::Score, json!("1,412 points"), false),
            json!(1412)
        );
        assert_eq!(
            typed(FieldRole::Comments, json!("96 comments"), false),
            json!(96)
        );
        assert_eq!(
            typed(FieldRole::Comments, json!("discuss"), false),
            json!("discuss")
        );
        assert_eq!(
            typed(FieldRole::Author, json!("by Ann Lee"), false),
            json!("Ann Lee")
        );
        // A price stays as the page prints it; sorting reads it with the money reader.
        assert_eq!(
            typed(FieldRole::Price, json!("€24.50"), false),
            json!("€24.50")
        );
    }

    fn list(columns: Vec<Column>, records: Vec<Map<String, Value>>) -> RecordList {
        RecordList {
            selector: None,
            total: records.len(),
            records,
            elements_per_record: 1,
            columns,
            score: 1.0,
            alternatives: Vec::new(),
        }
    }

    #[test]
    fn the_list_for_named_fields_is_the_first_whose_records_mostly_have_the_first_field() {
        let fields = wanted(&[("price", FieldRole::Price, &["price"])]);
        let menu = list(
            vec![column("title", ColumnKind::Text, NameSource::Kind)],
            rows(json!([{"title": "Home"}, {"title": "Tea"}, {"title": "Cart"}])),
        );
        let products = list(
            vec![column("price", ColumnKind::Text, NameSource::Class)],
            rows(json!([{"price": "€1"}, {"price": "€2"}, {"price": null}])),
        );
        let (chosen, rule) =
            list_with_the_fields(&fields, vec![menu.clone(), products.clone()]).unwrap();
        assert_eq!(rule, "next_list_with_the_first_field");
        assert_eq!(chosen.columns[0].name, "price");
        let (_, rule) = list_with_the_fields(&fields, vec![products, menu.clone()]).unwrap();
        assert_eq!(rule, "main_list_has_the_first_field");
        assert!(list_with_the_fields(&fields, vec![menu]).is_none());
    }

    #[test]
    fn a_packed_value_is_its_parts_and_a_range_of_times_its_start_and_end() {
        assert_eq!(parts("06:30–07:15 · 45 min"), ["06:30", "07:15", "45 min"]);
        assert_eq!(parts("Studio A | Beginner"), ["Studio A", "Beginner"]);
        assert_eq!(parts("9.3 Superb"), ["9.3 Superb"]);
        // A dash between other things than times is no range.
        assert_eq!(parts("Mon-Fri"), ["Mon-Fri"]);
        // Its other reading in brackets after it is a fact of its own.
        assert_eq!(parts("5 × 5 ft (25 sq ft)"), ["5 × 5 ft", "25 sq ft"]);
        assert_eq!(parts("(25 sq ft)"), ["(25 sq ft)"]);
    }

    #[test]
    fn a_size_is_the_area_in_brackets_and_dimensions_the_lengths() {
        let columns = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("description", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"title": "Unit A-101", "description": "5 × 5 ft (25 sq ft)"},
            {"title": "Unit B-118", "description": "10 × 30 ft (300 sq ft)"},
        ]));
        let fields = wanted(&[
            ("size", FieldRole::Text, &[]),
            ("dimensions", FieldRole::Text, &[]),
        ]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].rule, Some("counted_in_its_unit"));
        assert_eq!(sources[0].part, Some(Part::Fact { index: 2, of: 2 }));
        assert_eq!(sources[1].rule, Some("dimensions_by_their_shape"));
        let row = &project(&fields, &sources, data, false)[1];
        assert_eq!(row["size"], json!("300 sq ft"));
        assert_eq!(row["dimensions"], json!("10 × 30 ft (300 sq ft)"));
        assert!(is_dimensions("4' x 6'") && is_dimensions("120 × 60 × 75 cm"));
        assert!(!is_dimensions("5 stars") && !is_dimensions("2 x espresso"));
    }

    #[test]
    fn a_column_is_asked_by_its_printed_abbreviation_or_a_short_form_of_its_name() {
        let mut won = column("won", ColumnKind::Number, NameSource::Header);
        won.printed = Some("W".into());
        let columns = vec![
            column("team", ColumnKind::Text, NameSource::Header),
            won,
            column("goal_difference", ColumnKind::Number, NameSource::Header),
            column("points", ColumnKind::Number, NameSource::Header),
        ];
        let data = rows(json!([
            {"team": "Ridge Hawks", "won": 7, "goal_difference": 41, "points": 14},
            {"team": "Hill Comets", "won": 1, "goal_difference": -57, "points": 2},
        ]));
        let fields = wanted(&[
            ("w", FieldRole::Text, &[]),
            ("gd", FieldRole::Text, &[]),
            ("pts", FieldRole::Text, &[]),
        ]);
        assert_chosen(
            &fields,
            &columns,
            &data,
            &[
                (Some("won"), Some("printed_header")),
                (Some("goal_difference"), Some("abbreviated_field")),
                (Some("points"), Some("abbreviated_field")),
            ],
        );
        assert!(abbreviates("qty", "quantity") && abbreviates("gf", "goals_for"));
        assert!(!abbreviates("pt", "points") && !abbreviates("gd", "goals"));
    }

    #[test]
    fn a_measure_is_asked_without_its_qualifier_and_a_count_in_the_singular() {
        let columns = vec![
            column("name", ColumnKind::Text, NameSource::Header),
            column("max_power", ColumnKind::Text, NameSource::Label),
            column("charge_points", ColumnKind::Number, NameSource::Label),
            column("free_now", ColumnKind::Number, NameSource::Label),
        ];
        let data = rows(json!([
            {"name": "Harbour Road", "max_power": "350 kW", "charge_points": 6, "free_now": 4},
            {"name": "Marketplace", "max_power": "7 kW", "charge_points": 2, "free_now": 0},
        ]));
        let fields = wanted(&[
            ("power", FieldRole::Text, &[]),
            ("charge points", FieldRole::Text, &[]),
            ("available", FieldRole::Text, &[]),
        ]);
        assert_chosen(
            &fields,
            &columns,
            &data,
            &[
                (Some("max_power"), Some("qualified_name")),
                (Some("charge_points"), Some("same_name")),
                (Some("free_now"), Some("qualified_name")),
            ],
        );
    }

    #[test]
    fn who_runs_an_item_is_the_name_after_its_verb_and_a_count_in_a_state_is_read_by_both_words() {
        let columns = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("byline", ColumnKind::Text, NameSource::Class),
            column("count", ColumnKind::Text, NameSource::Kind),
            column("count_2", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"title": "Riverside", "byline": "Operated by Q-Park · 0.2 miles from centre", "count": "0 spaces free", "count_2": "420 spaces in total"},
            {"title": "Castle Yard", "byline": "Run by City Council · 0.7 miles from centre", "count": "34 spaces free", "count_2": "80 spaces in total"},
            {"title": "Airport", "byline": "Operated by APCOA · 5.6 miles from centre", "count": "930 spaces free", "count_2": "1,200 spaces in total"},
        ]));
        let fields = wanted(&[
            ("operator", FieldRole::Text, &[]),
            ("free spaces", FieldRole::Text, &[]),
        ]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].rule, Some("agent_by_its_verb"));
        assert_eq!(sources[0].part, Some(Part::Fact { index: 1, of: 2 }));
        assert_eq!(sources[1].column.as_deref(), Some("count"));
        assert_eq!(sources[1].rule, Some("counted_as_left"));
        let projected = project(&fields, &sources, data, false);
        let operators: Vec<&Value> = projected.iter().map(|row| &row["operator"]).collect();
        assert_eq!(
            operators,
            [&json!("Q-Park"), &json!("City Council"), &json!("APCOA")]
        );
        // The state's other words and the count's other order read the same column.
        for name in ["spaces available", "empty spaces", "number of free spaces"] {
            let fields = wanted(&[(name, FieldRole::Text, &[])]);
            let columns = &columns;
            let sources = choose(
                &fields,
                columns,
                &rows(json!([
                    {"title": "A", "count": "0 spaces free", "count_2": "420 spaces in total"},
                    {"title": "B", "count": "34 spaces free", "count_2": "80 spaces in total"},
                ])),
            );
            assert_eq!(sources[0].column.as_deref(), Some("count"), "{name}");
        }
        // Who does a thing is named by the same stem, or as one who runs a place.
        assert!(agent_of("organiser", "organised") && agent_of("publisher", "published"));
        assert!(agent_of("operators", "run") && agent_of("company", "managed"));
        assert!(agent_of("run by", "operated") && !agent_of("author", "operated"));
        assert!(!agent_of("company", "published") && !agent_of("price", "priced"));
        assert_eq!(
            agent_line("Posted by Ann Lee"),
            Some(("posted".into(), "Ann Lee"))
        );
        assert_eq!(agent_line("by Ann Lee"), None);
        assert_eq!(
            agent_line("Closed by 9pm and reopens at dawn after the works are done"),
            None
        );
    }

    #[test]
    fn a_rooms_size_is_the_people_it_takes_where_no_area_is_shown() {
        let columns = vec![
            column("room", ColumnKind::Text, NameSource::Header),
            column("seats", ColumnKind::Number, NameSource::Header),
        ];
        let data = rows(json!([
            {"room": "Room A", "seats": 4},
            {"room": "The Loft", "seats": 20},
        ]));
        let fields = wanted(&[("size", FieldRole::Text, &[])]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].rule, Some("size_as_capacity"));
        assert_eq!(sources[0].column.as_deref(), Some("seats"));
        // An area, where there is one, answers first.
        let columns = vec![
            column("room", ColumnKind::Text, NameSource::Header),
            column("seats", ColumnKind::Number, NameSource::Header),
            column("area", ColumnKind::Text, NameSource::Header),
        ];
        let data = rows(json!([
            {"room": "Room A", "seats": 4, "area": "12 m²"},
            {"room": "The Loft", "seats": 20, "area": "60 m²"},
        ]));
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].column.as_deref(), Some("area"));
    }

    #[test]
    fn a_range_of_times_without_a_length_printed_answers_how_long_it_lasts() {
        let columns = vec![
            column("session", ColumnKind::Text, NameSource::Header),
            column("time", ColumnKind::Text, NameSource::Header),
        ];
        let data = rows(json!([
            {"session": "Keynote", "time": "09:00 – 09:45"},
            {"session": "Workshop", "time": "10:00 – 11:30"},
            {"session": "Late", "time": "23:30 – 00:15"},
        ]));
        let fields = wanted(&[("length", FieldRole::Text, &[])]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].part, Some(Part::LengthOfRange));
        let lengths: Vec<Value> = project(&fields, &sources, data, false)
            .into_iter()
            .map(|row| row["length"].clone())
            .collect();
        assert_eq!(lengths, [json!("45 min"), json!("90 min"), json!("45 min")]);
        // Where the length is printed, the printed one answers.
        let printed = rows(json!([
            {"session": "Spin", "time": "06:30–07:15 · 40 min"},
            {"session": "Yoga", "time": "09:30–10:30 · 60 min"},
        ]));
        let sources = choose(&fields, &columns, &printed);
        assert_eq!(sources[0].part, Some(Part::Fact { index: 3, of: 3 }));
    }

    #[test]
    fn the_parts_of_a_packed_column_answer_a_start_an_end_and_a_length() {
        let columns = vec![
            column("name", ColumnKind::Text, NameSource::Class),
            column("when", ColumnKind::Text, NameSource::Class),
        ];
        let data = rows(json!([
            {"name": "Spin", "when": "06:30–07:15 · 45 min"},
            {"name": "Yoga", "when": "09:30–10:30 · 60 min"},
            {"name": "Boxing", "when": "17:30–18:30 · 60 min"},
        ]));
        let fields = wanted(&[
            ("start_time", FieldRole::Date, &["when"]),
            ("end_time", FieldRole::Date, &[]),
            ("duration", FieldRole::Text, &[]),
            ("when", FieldRole::Text, &[]),
        ]);
        let sources = choose(&fields, &columns, &data);
        let rules: Vec<Option<&str>> = sources.iter().map(|s| s.rule).collect();
        assert_eq!(
            rules,
            [
                Some("end_of_a_range"),
                Some("end_of_a_range"),
                Some("counted_in_its_unit"),
                Some("same_name")
            ]
        );
        assert_eq!(sources[2].part, Some(Part::Fact { index: 3, of: 3 }));
        assert_eq!(sources[3].part, None);
        let projected = project(&fields, &sources, data, false);
        assert_eq!(
            Value::Object(projected[0].clone()),
            json!({"start_time": "06:30", "end_time": "07:15", "duration": "45 min", "when": "06:30–07:15 · 45 min"})
        );
    }

    #[test]
    fn a_status_line_says_when_a_place_closes_and_a_range_of_hours_answers_first() {
        let columns = vec![
            column("name", ColumnKind::Text, NameSource::Header),
            column("status", ColumnKind::Text, NameSource::Header),
        ];
        let data = rows(json!([
            {"name": "Riverside", "status": "Closes 19:30"},
            {"name": "Old Market", "status": "Open until 4:30 pm"},
            {"name": "Hilltop", "status": "Closed"},
        ]));
        let fields = wanted(&[("closing time", FieldRole::Text, &[])]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].rule, Some("closing_time_said"));
        assert_eq!(sources[0].part, Some(Part::ClosingTime));
        let closes: Vec<Value> = project(&fields, &sources, data, false)
            .into_iter()
            .map(|row| row["closing time"].clone())
            .collect();
        assert_eq!(closes, [json!("19:30"), json!("4:30 pm"), Value::Null]);
        // A range of today's hours beside the status line answers first.
        let columns = vec![
            column("name", ColumnKind::Text, NameSource::Header),
            column("status", ColumnKind::Text, NameSource::Header),
            column("today", ColumnKind::Text, NameSource::Header),
        ];
        let data = rows(json!([
            {"name": "Riverside", "status": "Closes 19:30", "today": "08:00–19:30"},
            {"name": "Old Market", "status": "Closes 16:30", "today": "09:00–16:30"},
        ]));
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].rule, Some("end_of_a_range"));
    }

    #[test]
    fn a_phone_number_is_the_column_of_phone_numbers_whatever_its_name() {
        let columns = vec![
            column("title", ColumnKind::Text, NameSource::Kind),
            column("text", ColumnKind::Text, NameSource::Kind),
            column("text_2", ColumnKind::Text, NameSource::Kind),
        ];
        let data = rows(json!([
            {"title": "Riverside", "text": "Closes 19:30", "text_2": "020 7946 0011"},
            {"title": "Old Market", "text": "Closes 16:30", "text_2": "020 7946 0012"},
            {"title": "Hilltop", "text": "Closes 18:00", "text_2": "Tel. 020 7946 0015"},
        ]));
        let fields = wanted(&[("phone number", FieldRole::Text, &[])]);
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].rule, Some("phone_by_its_shape"));
        assert_eq!(sources[0].column.as_deref(), Some("text_2"));
        // Prices, dates and counts are no phone numbers.
        let data = rows(json!([
            {"title": "Riverside", "text": "12.50", "text_2": "2026-05-01"},
            {"title": "Old Market", "text": "9.99", "text_2": "2026-05-02"},
        ]));
        let sources = choose(&fields, &columns, &data);
        assert_eq!(sources[0].column, None);
    }
}
