//! Bounds on an item's value asked for in words: "under $20", "more than 100 points",
//! "4 stars or more", "between €10 and €50". Each becomes a `data.filter` on the answer; the
//! numbers they hold are not counts ("products under 20 dollars" asks for no 20 items).
//!
//! A bound is read only when its unit or the word before it says which value it bounds (a
//! currency, points, comments; "priced under 20", "rated above 4"): "over 20 pages" or "under
//! the heading" bound nothing.

use std::sync::OnceLock;

use regex::{Captures, Regex};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Observation;
use crate::page::locale::Locale;
use crate::page::money::parse_money;
use crate::read::role::FieldRole;
use crate::tools::data::{FilterOp, FilterParams};
use crate::tools::registry::ToolParams;

/// How an item's value compares with the amount for the item to be kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BoundOp {
    /// Strictly less ("under $20").
    Below,
    /// Less or equal ("up to $20", "$20 or less").
    AtMost,
    /// Strictly more ("over 100 points").
    Above,
    /// More or equal ("at least 4 stars", "4 stars or more").
    AtLeast,
    /// Takes the amount: a range of counts ("2–4 players") holds it, a single count ("Sleeps
    /// 6") is at least it ("games for 2 players", "a cottage for four people").
    Holds,
}

impl BoundOp {
    /// Its name in the `agent_decision` step's intent.
    pub const fn as_str(self) -> &'static str {
        match self {
            BoundOp::Below => "below",
            BoundOp::AtMost => "at_most",
            BoundOp::Above => "above",
            BoundOp::AtLeast => "at_least",
            BoundOp::Holds => "holds",
        }
    }

    /// The `data.filter` operation that keeps the items within the bound.
    pub const fn filter_op(self) -> FilterOp {
        match self {
            BoundOp::Below => FilterOp::Lt,
            BoundOp::AtMost => FilterOp::Lte,
            BoundOp::Above => FilterOp::Gt,
            BoundOp::AtLeast => FilterOp::Gte,
            BoundOp::Holds => FilterOp::Holds,
        }
    }
}

/// A bound on one value of each item.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Bound {
    /// The part of an item bounded.
    pub role: FieldRole,
    /// How the item's value compares with `amount`.
    pub op: BoundOp,
    /// The amount, in the unit the page shows (no currency is converted).
    pub amount: f64,
}

impl Bound {
    /// What `data.filter` compares with: the amount, or for a date the moment it names as
    /// a relative time ("24 hours ago"; the filter compares moments).
    pub fn filter_value(&self) -> Option<serde_json::Value> {
        match self.since() {
            Some(ago) => Some(serde_json::Value::from(ago)),
            None => serde_json::Number::from_f64(self.amount).map(serde_json::Value::Number),
        }
    }

    /// For a window of time, the moment it starts, as people write it: "24 hours ago".
    pub fn since(&self) -> Option<String> {
        if self.role != FieldRole::Date {
            return None;
        }
        #[allow(clippy::cast_possible_truncation)]
        let seconds = self.amount as i64;
        SPANS.iter().rev().find_map(|(span, size)| {
            let n = seconds / size;
            (seconds % size == 0 && n <= 9_999)
                .then(|| format!("{n} {span}{} ago", if n == 1 { "" } else { "s" }))
        })
    }

    /// The bound in words, for the plan's reasons: "below 20", "since 24 hours ago".
    pub fn describe(&self) -> String {
        match self.since() {
            Some(ago) => format!("since {ago}"),
            None => format!("{} {}", self.op.as_str().replace('_', " "), self.amount),
        }
    }
}

/// Why the items a request chose by a value or by words (a bound, a text match) are none,
/// read off a run's observations.
#[derive(Debug, Clone, PartialEq)]
pub enum FilterMiss {
    /// No item showed the value at all.
    NoValue {
        /// The field bounded.
        field: String,
    },
    /// Items showed it, none within the bound.
    NoneWithin {
        /// The field bounded.
        field: String,
        /// How many items had it.
        items: usize,
        /// The filter's comparison, as it was called.
        op: FilterOp,
        /// What it compared with: the amount, or the words.
        value: serde_json::Value,
    },
}

impl FilterMiss {
    /// The words of the `no_match` error.
    pub fn message(&self) -> String {
        match self {
            FilterMiss::NoValue { field } => {
                format!("this page shows no {field} for this request")
            }
            FilterMiss::NoneWithin {
                field,
                items,
                op,
                value,
            } => {
                let moment = value.as_str().is_some_and(|v| v.ends_with(" ago"));
                let comparison = match op {
                    FilterOp::Gt | FilterOp::Gte if moment => "is since",
                    FilterOp::Lt | FilterOp::Lte if moment => "is before",
                    FilterOp::Lt => "is below",
                    FilterOp::Lte => "is at most",
                    FilterOp::Gt => "is above",
                    FilterOp::Gte => "is at least",
                    _ => "holds",
                };
                let value = match value {
                    serde_json::Value::String(words) => format!(
                        "\"{}\"",
                        super::matches::words_of(words).unwrap_or_else(|| words.clone())
                    ),
                    // An amount as people write it: 3, not 3.0.
                    other => other
                        .as_f64()
                        .map_or_else(|| other.to_string(), |n| n.to_string()),
                };
                format!("no {field} of the {items} item(s) {comparison} {value}")
            }
        }
    }
}

/// Whether the last bound or text match filtered every item away, and why: its field was
/// missing from every item (the `exists` filter before it left none), or none was within it.
pub fn emptied(observations: &[Observation]) -> Option<FilterMiss> {
    let at = observations
        .iter()
        .rposition(|o| o.tool == FilterParams::TOOL)?;
    let last = &observations[at];
    let params: FilterParams = serde_json::from_value(last.params.clone()).ok()?;
    let value = params.value.clone()?;
    let comparison = matches!(
        params.op,
        FilterOp::Lt
            | FilterOp::Lte
            | FilterOp::Gt
            | FilterOp::Gte
            | FilterOp::Contains
            | FilterOp::Matches
    );
    if !comparison || !last.success || last.items > 0 {
        return None;
    }
    let had = at.checked_sub(1).map_or(0, |i| observations[i].items);
    Some(if had == 0 {
        FilterMiss::NoValue {
            field: params.field,
        }
    } else {
        FilterMiss::NoneWithin {
            field: params.field,
            items: had,
            op: params.op,
            value,
        }
    })
}

/// Words before an amount that bound it, longest first so "no more than" is not read as
/// "more than".
pub(super) const BEFORE: &[(&str, BoundOp)] = &[
    ("no more than", BoundOp::AtMost),
    ("not more than", BoundOp::AtMost),
    ("no less than", BoundOp::AtLeast),
    ("not less than", BoundOp::AtLeast),
    ("a maximum of", BoundOp::AtMost),
    ("a minimum of", BoundOp::AtLeast),
    ("cheaper than", BoundOp::Below),
    ("less than", BoundOp::Below),
    ("fewer than", BoundOp::Below),
    ("lower than", BoundOp::Below),
    ("more than", BoundOp::Above),
    ("greater than", BoundOp::Above),
    ("higher than", BoundOp::Above),
    ("upwards of", BoundOp::Above),
    ("at most", BoundOp::AtMost),
    ("at least", BoundOp::AtLeast),
    ("up to", BoundOp::AtMost),
    // A budget is the most one will pay: "my budget is £100", "a budget of $50".
    ("budget is", BoundOp::AtMost),
    ("budget", BoundOp::AtMost),
    ("maximum", BoundOp::AtMost),
    ("minimum", BoundOp::AtLeast),
    ("exceeding", BoundOp::Above),
    // A total got to: "who has reached 40 points".
    ("reached", BoundOp::AtLeast),
    // A length of time compared: "shorter than 45 minutes".
    ("shorter than", BoundOp::Below),
    ("longer than", BoundOp::Above),
    ("under", BoundOp::Below),
    ("below", BoundOp::Below),
    ("over", BoundOp::Above),
    ("above", BoundOp::Above),
    ("max", BoundOp::AtMost),
    ("min", BoundOp::AtLeast),
    // German, French and Spanish, the other languages the lexicon reads.
    ("weniger als", BoundOp::Below),
    ("mehr als", BoundOp::Above),
    ("bis zu", BoundOp::AtMost),
    ("höchstens", BoundOp::AtMost),
    ("mindestens", BoundOp::AtLeast),
    ("unter", BoundOp::Below),
    ("über", BoundOp::Above),
    ("inférieur à", BoundOp::Below),
    ("supérieur à", BoundOp::Above),
    ("moins de", BoundOp::Below),
    ("plus de", BoundOp::Above),
    ("au moins", BoundOp::AtLeast),
    ("au plus", BoundOp::AtMost),
    ("jusqu'à", BoundOp::AtMost),
    ("por debajo de", BoundOp::Below),
    ("menos de", BoundOp::Below),
    ("más de", BoundOp::Above),
    ("al menos", BoundOp::AtLeast),
    ("como máximo", BoundOp::AtMost),
    ("hasta", BoundOp::AtMost),
];

/// Whether the words before an amount end with a phrase that bounds it ("unter 10", "less
/// than 5", "moins de 20"): that number is no count of items ("a list of 10 books" is one).
pub(super) fn ends_with_a_bound_lead(before: &[String]) -> bool {
    BEFORE.iter().any(|(phrase, _)| {
        let lead: Vec<&str> = phrase.split(' ').collect();
        before.len() >= lead.len()
            && before[before.len() - lead.len()..]
                .iter()
                .zip(&lead)
                .all(|(word, lead)| word == lead)
    })
}

/// Words after an amount that bound it: "$20 or less", "4 stars and up".
pub(super) const AFTER: &[(&str, BoundOp)] = &[
    ("or less", BoundOp::AtMost),
    ("or fewer", BoundOp::AtMost),
    ("or under", BoundOp::AtMost),
    ("or below", BoundOp::AtMost),
    ("or cheaper", BoundOp::AtMost),
    ("and under", BoundOp::AtMost),
    ("and below", BoundOp::AtMost),
    ("or more", BoundOp::AtLeast),
    ("or over", BoundOp::AtLeast),
    ("or above", BoundOp::AtLeast),
    ("or higher", BoundOp::AtLeast),
    ("or better", BoundOp::AtLeast),
    ("and up", BoundOp::AtLeast),
    ("and above", BoundOp::AtLeast),
    ("and over", BoundOp::AtLeast),
];

/// Units that say which value an amount is. "pounds" is left out: it is as often a weight.
const UNITS: &[(&str, FieldRole)] = &[
    ("$", FieldRole::Price),
    ("£", FieldRole::Price),
    ("€", FieldRole::Price),
    ("¥", FieldRole::Price),
    ("usd", FieldRole::Price),
    ("eur", FieldRole::Price),
    ("gbp", FieldRole::Price),
    ("dollars", FieldRole::Price),
    ("dollar", FieldRole::Price),
    ("euros", FieldRole::Price),
    ("euro", FieldRole::Price),
    ("bucks", FieldRole::Price),
    ("quid", FieldRole::Price),
    ("points", FieldRole::Score),
    ("point", FieldRole::Score),
    ("pts", FieldRole::Score),
    ("upvotes", FieldRole::Score),
    ("votes", FieldRole::Score),
    ("stars", FieldRole::Score),
    ("star", FieldRole::Score),
    ("comments", FieldRole::Comments),
    ("replies", FieldRole::Comments),
];

/// Words just before a bound without a unit that say what it bounds: "priced under 20",
/// "a rating of at least 4", "costing less than 50".
const SUBJECTS: &[(&str, FieldRole)] = &[
    ("price", FieldRole::Price),
    ("prices", FieldRole::Price),
    ("priced", FieldRole::Price),
    ("cost", FieldRole::Price),
    ("costs", FieldRole::Price),
    ("costing", FieldRole::Price),
    ("salary", FieldRole::Price),
    ("salaries", FieldRole::Price),
    ("wage", FieldRole::Price),
    ("wages", FieldRole::Price),
    ("pay", FieldRole::Price),
    ("paying", FieldRole::Price),
    ("pays", FieldRole::Price),
    ("score", FieldRole::Score),
    ("scored", FieldRole::Score),
    ("scoring", FieldRole::Score),
    ("rated", FieldRole::Score),
    ("rating", FieldRole::Score),
    ("ratings", FieldRole::Score),
    ("scores", FieldRole::Score),
    ("points", FieldRole::Score),
    ("votes", FieldRole::Score),
];

/// Verbs that lead into a bound ("paying over €75,000"): part of the bound, not a field.
const LEADING_VERBS: &[&str] = &[
    "priced", "costing", "costs", "cost", "paying", "pays", "scored", "scoring", "rated", "selling",
];

/// Where a bound's words start: before the verb leading into it, if one does.
fn with_leading_verb(text: &str, start: usize) -> usize {
    let before = text[..start].trim_end();
    let word_start = before.rfind(|c: char| !c.is_alphabetic()).map_or(0, |i| {
        i + before[i..].chars().next().map_or(1, char::len_utf8)
    });
    if LEADING_VERBS.contains(&&before[word_start..]) {
        word_start
    } else {
        start
    }
}

const CURRENCY_SIGNS: &str = "[$£€¥]";

/// Spans of time a window is counted in, with their seconds (a month as 30 days, as the
/// relative times pages print are read).
const SPANS: &[(&str, i64)] = &[
    ("minute", 60),
    ("hour", 3_600),
    ("day", 86_400),
    ("week", 7 * 86_400),
    ("month", 30 * 86_400),
    ("year", 365 * 86_400),
];

pub(super) fn alternatives<T>(table: &[(&str, T)]) -> String {
    table
        .iter()
        .map(|(words, _)| regex::escape(words).replace(' ', r"\s+"))
        .collect::<Vec<_>>()
        .join("|")
}

/// A unit: a currency sign, or a unit word ending at a word boundary.
fn unit_pattern(name: &str) -> String {
    let words: Vec<String> = UNITS
        .iter()
        .filter(|(u, _)| u.chars().all(char::is_alphabetic))
        .map(|(u, _)| regex::escape(u))
        .collect();
    format!(
        r"(?P<{name}>{CURRENCY_SIGNS}|(?:{})\b|{POUNDS_A_SPAN})",
        words.join("|")
    )
}

/// Pounds by a span of time are money, a rent or a rate ("under 100 pounds a month", "80
/// pounds per night"); pounds alone are as often a weight.
const POUNDS_A_SPAN: &str = r"pounds\s+(?:a|an|per|each)\s+(?:hour|night|day|week|month|year)\b";

/// The role of a unit [`unit_pattern`] matched.
fn role_of_unit(unit: &str) -> Option<FieldRole> {
    if unit.starts_with("pounds") {
        return Some(FieldRole::Price);
    }
    UNITS
        .iter()
        .find(|(u, _)| *u == unit)
        .map(|(_, role)| *role)
}

/// An amount: digits with separators and a `k` for thousands, or a number word.
pub(super) fn amount_pattern(name: &str) -> String {
    let words: Vec<&str> = super::intent::NUMBER_WORDS
        .iter()
        .map(|(w, _)| *w)
        .collect();
    let words = words.join("|");
    format!(r"(?P<{name}>\d[\d,.]*k?\b|(?:(?:a|{words})\s+)?(?:hundred|thousand)\b|(?:{words})\b)")
}

/// How a pattern's match reads as bounds.
#[derive(Clone, Copy)]
enum Form {
    /// Two amounts: "between $10 and $50", "€20–€30".
    Range,
    /// A cue before the amount: "under $20".
    Before,
    /// A cue after it: "$20 or less".
    After,
    /// A plus after it: "100+ comments".
    Plus,
    /// A span of time back from now: "in the last 24 hours", "from the past week".
    Window,
}

fn patterns() -> &'static [(Regex, Form); 6] {
    static RES: OnceLock<[(Regex, Form); 6]> = OnceLock::new();
    RES.get_or_init(|| {
        let (amount, amount2) = (amount_pattern("amount"), amount_pattern("amount2"));
        let (unit, unit2) = (unit_pattern("unit"), unit_pattern("unit2"));
        let between = format!(
            r"(?:^|[^\p{{L}}\d])(?P<cue>between|from|zwischen|entre)\s+(?P<sign>{CURRENCY_SIGNS})?\s*{amount}(?:\s*{unit})?\s*(?:and|und|et|y|to|-|–)\s*(?P<sign2>{CURRENCY_SIGNS})?\s*{amount2}(?:\s*{unit2})?"
        );
        let dashed = format!(
            r"(?P<sign>{CURRENCY_SIGNS})?\s*{amount}(?:\s*{unit})?\s*[-–]\s*(?P<sign2>{CURRENCY_SIGNS})?\s*{amount2}(?:\s*{unit2})?"
        );
        let before = format!(
            r"(?:^|[^\p{{L}}\d])(?P<cue>{})\s+(?:of\s+)?(?P<sign>{CURRENCY_SIGNS})?\s*{amount}(?:\s*{unit})?",
            alternatives(BEFORE),
        );
        let after = format!(
            r"(?P<sign>{CURRENCY_SIGNS})?\s*{amount}(?:\s*{unit})?\s+(?P<cue>{})\b",
            alternatives(AFTER),
        );
        let plus = format!(r"(?P<sign>{CURRENCY_SIGNS})?\s*{amount}\+(?:\s*{unit})?");
        let spans: Vec<&str> = SPANS.iter().map(|(span, _)| *span).collect();
        let window = format!(
            r"(?:^|[^\p{{L}}\d])(?:(?:in|from|within|during|over|of)\s+)?(?:the\s+)?(?P<cue>last|past|previous)\s+(?:{amount}\s+)?(?P<span>{})s?\b",
            spans.join("|")
        );
        #[allow(clippy::expect_used)]
        let compile = |p: &str| Regex::new(p).expect("valid bound pattern");
        [
            (compile(&between), Form::Range),
            (compile(&dashed), Form::Range),
            (compile(&before), Form::Before),
            (compile(&after), Form::After),
            (compile(&plus), Form::Plus),
            (compile(&window), Form::Window),
        ]
    })
}

/// The number an amount's text stands for: `20`, `1,299.99`, `20k`, `twenty`, `one hundred`.
/// An amount of money is read by the one money reader (`19,99 €`, `75.000 €`).
pub(super) fn amount(text: &str, money: bool) -> Option<f64> {
    let text = text.trim_end_matches(['.', ',']);
    // A comma before one or two digits at the end is a decimal comma ("2,2 m", "19,99");
    // before three it separates thousands ("2,200").
    if let Some((whole, fraction)) = text.split_once(',')
        && !whole.is_empty()
        && whole.chars().all(|c| c.is_ascii_digit())
        && (1..=2).contains(&fraction.len())
        && fraction.chars().all(|c| c.is_ascii_digit())
    {
        return format!("{whole}.{fraction}").parse().ok();
    }
    if let Some(n) = super::intent::number(text) {
        return Some(n as f64);
    }
    // "one hundred", "a thousand", "two hundred".
    if let Some((times, scale)) = text.rsplit_once(' ') {
        let scale = match scale {
            "hundred" => 100.0,
            "thousand" => 1000.0,
            _ => return None,
        };
        let times = if times == "a" {
            1
        } else {
            super::intent::number(times)?
        };
        return Some(times as f64 * scale);
    }
    if money
        && !text.ends_with('k')
        && let Some(found) = parse_money(&format!("€{text}"), &Locale::default())
    {
        return Some(found.amount);
    }
    let (digits, thousands) = match text.strip_suffix('k') {
        Some(rest) => (rest, 1000.0),
        None => (text, 1.0),
    };
    // A comma followed by one or two digits at the end is a decimal comma ("19,99", "2,5k");
    // any other comma separates thousands.
    let plain = match digits.rsplit_once(',') {
        Some((whole, cents)) if (1..=2).contains(&cents.len()) && !digits.contains('.') => {
            format!("{}.{cents}", whole.replace(',', ""))
        }
        _ => digits.replace(',', ""),
    };
    plain.parse::<f64>().ok().map(|n| n * thousands)
}

/// What a bound without a unit bounds, from the two words before it.
fn role_of_subject(before: &str) -> Option<FieldRole> {
    super::intent::words(before)
        .iter()
        .rev()
        .take(2)
        .find_map(|w| SUBJECTS.iter().find(|(s, _)| s == w).map(|(_, role)| *role))
}

/// A cue's words with single spaces ("less  than" → "less than").
fn cue_words(cue: &str) -> String {
    cue.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(super) fn op_of(table: &[(&str, BoundOp)], cue: &str) -> Option<BoundOp> {
    let cue = cue_words(cue);
    table.iter().find(|(c, _)| *c == cue).map(|(_, op)| *op)
}

/// Which value a match bounds: its unit or currency sign, "cheaper", or the words before it.
fn role(captures: &Captures<'_>, text: &str, signs: &[&str], units: &[&str]) -> Option<FieldRole> {
    let named = |names: &[&str]| {
        names
            .iter()
            .filter_map(|n| captures.name(n))
            .find_map(|m| role_of_unit(m.as_str()))
    };
    named(signs)
        .or_else(|| named(units))
        .or_else(|| {
            captures
                .name("cue")
                .filter(|c| c.as_str().starts_with("cheaper"))
                .map(|_| FieldRole::Price)
        })
        .or_else(|| {
            let start = captures.get(0).map_or(0, |m| m.start());
            role_of_subject(&text[..start])
        })
        .or_else(|| bare_amount(captures, text).then_some(FieldRole::Price))
}

/// Whether a bound's amount stands bare, its value unnamed: no unit, nothing after it but the
/// end of a clause or a joining word ("teapots under 40 with their names", "anything below
/// 15?"). In a request for items that is their price, as shops are asked; a noun after it
/// ("over 20 pages", "up to 200 jobs") or a year ("after 1999") is no bound.
fn bare_amount(captures: &Captures<'_>, text: &str) -> bool {
    let Some(amount) = captures.name("amount") else {
        return false;
    };
    // "Up to 200", "no more than 50" cap how many items; "under 40" compares a value.
    let compares = captures.name("cue").is_some_and(|c| {
        matches!(
            cue_words(c.as_str()).as_str(),
            "under" | "below" | "over" | "above" | "less than"
        )
    });
    if captures.name("amount2").is_some() || !compares {
        return false;
    }
    let year = amount.as_str().len() == 4
        && amount
            .as_str()
            .parse::<u32>()
            .is_ok_and(|y| (1900..=2100).contains(&y));
    let end = captures.get(0).map_or(amount.end(), |m| m.end());
    let next = super::intent::words(&text[end..]);
    let closes = text[end..]
        .trim_start()
        .starts_with([',', '.', '?', '!', ';', ')']);
    !year
        && (closes
            || next.first().is_none_or(|w| {
                matches!(
                    w.as_str(),
                    "with" | "and" | "each" | "apiece" | "please" | "only"
                )
            }))
}

/// Pence are hundredths of a pound: "under 50p", "45 pence" are "£0.50", "£0.45" (a unit
/// price per kWh, per litre, per minute), read as money then.
fn pence_as_pounds(lower: &str) -> String {
    static PENCE: OnceLock<Regex> = OnceLock::new();
    #[allow(clippy::expect_used)]
    let pence = PENCE.get_or_init(|| {
        Regex::new(r"(?:^|\b)(\d{1,2}(?:\.\d+)?)\s*(?:p|pence)\b").expect("valid pence pattern")
    });
    pence
        .replace_all(lower, |captures: &Captures<'_>| {
            let amount: f64 = captures[1].parse().unwrap_or(0.0);
            format!("£{:.2}", amount / 100.0)
        })
        .into_owned()
}

/// The bounds in a request, and the request's words with them blanked out (what is left is
/// read for a count and a goal).
pub fn read(text: &str) -> (Vec<Bound>, String) {
    let lower = pence_as_pounds(&text.to_lowercase());
    let mut bounds = Vec::new();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for (pattern, form) in patterns() {
        for captures in pattern.captures_iter(&lower) {
            let whole = captures.get(0).map_or((0, 0), |m| (m.start(), m.end()));
            if !spans.iter().all(|(a, b)| whole.1 <= *a || whole.0 >= *b) {
                continue;
            }
            if let Form::Window = form {
                let n = match captures.name("amount") {
                    Some(m) => match amount(m.as_str(), false) {
                        Some(n) if n >= 1.0 && n.fract() == 0.0 => n,
                        _ => continue,
                    },
                    None => 1.0, // "the past week"
                };
                let seconds = captures
                    .name("span")
                    .and_then(|m| SPANS.iter().find(|(span, _)| *span == m.as_str()))
                    .map_or(0, |(_, seconds)| *seconds);
                bounds.push(Bound {
                    role: FieldRole::Date,
                    op: BoundOp::AtLeast,
                    amount: n * seconds as f64,
                });
                spans.push(whole);
                continue;
            }
            let Some(role) = role(&captures, &lower, &["sign", "sign2"], &["unit", "unit2"]) else {
                continue;
            };
            let money = role == FieldRole::Price;
            let Some(first) = captures
                .name("amount")
                .and_then(|m| amount(m.as_str(), money))
            else {
                continue;
            };
            let found = match form {
                Form::Range => {
                    let Some(second) = captures
                        .name("amount2")
                        .and_then(|m| amount(m.as_str(), money))
                    else {
                        continue;
                    };
                    // "from" starts many phrases ("from page 2 to 5"): a range of money only.
                    let from = captures.name("cue").is_some_and(|c| c.as_str() == "from");
                    if from && !money || first > second {
                        continue;
                    }
                    vec![(BoundOp::AtLeast, first), (BoundOp::AtMost, second)]
                }
                Form::Before | Form::After => {
                    let table = if matches!(form, Form::Before) {
                        BEFORE
                    } else {
                        AFTER
                    };
                    let Some(op) = captures.name("cue").and_then(|c| op_of(table, c.as_str()))
                    else {
                        continue;
                    };
                    vec![(op, first)]
                }
                Form::Plus => vec![(BoundOp::AtLeast, first)],
                Form::Window => continue, // read above
            };
            bounds.extend(
                found
                    .into_iter()
                    .map(|(op, amount)| Bound { role, op, amount }),
            );
            spans.push((with_leading_verb(&lower, whole.0), whole.1));
        }
    }
    // The rest keeps the user's letters (fields keep their words) where lowercasing kept
    // every byte in place.
    let mut rest = if lower.len() == text.len() {
        text.to_owned()
    } else {
        lower
    };
    for (start, end) in spans {
        rest.replace_range(start..end, &" ".repeat(end - start));
    }
    (bounds, rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(text: &str) -> Vec<(FieldRole, BoundOp, f64)> {
        read(text)
            .0
            .into_iter()
            .map(|b| (b.role, b.op, b.amount))
            .collect()
    }

    #[test]
    fn pence_are_hundredths_of_a_pound() {
        use BoundOp::*;
        use FieldRole::*;
        assert_eq!(bounds("chargers under 50p per kWh"), [(Price, Below, 0.5)]);
        assert_eq!(bounds("at most 45 pence a litre"), [(Price, AtMost, 0.45)]);
        // A number with a "p" after it is pence wherever it stands; a code led by a "p" is
        // no amount.
        assert_eq!(pence_as_pounds("page 2p"), "page £0.02");
        assert_eq!(pence_as_pounds("the p50 model"), "the p50 model");
    }

    #[test]
    fn words_before_an_amount_bound_it() {
        use BoundOp::*;
        use FieldRole::*;
        assert_eq!(bounds("everything under $20"), [(Price, Below, 20.0)]);
        assert_eq!(bounds("products below 15 euros"), [(Price, Below, 15.0)]);
        assert_eq!(bounds("items cheaper than £9.99"), [(Price, Below, 9.99)]);
        assert_eq!(
            bounds("stories with more than 100 points"),
            [(Score, Above, 100.0)]
        );
        assert_eq!(
            bounds("posts with at least 50 comments"),
            [(Comments, AtLeast, 50.0)]
        );
        assert_eq!(
            bounds("who has reached 40 points?"),
            [(Score, AtLeast, 40.0)]
        );
        assert_eq!(
            bounds("laptops up to 1,299.99 USD"),
            [(Price, AtMost, 1299.99)]
        );
        assert_eq!(bounds("no more than €30 each"), [(Price, AtMost, 30.0)]);
        assert_eq!(bounds("jobs over $100k"), [(Price, Above, 100_000.0)]);
        assert_eq!(bounds("under twenty dollars"), [(Price, Below, 20.0)]);
        // A bare amount in a request for items is their price; a noun after it, or a
        // year, is no bound.
        assert_eq!(
            bounds("teapots under 40 with their names"),
            [(Price, Below, 40.0)]
        );
        assert_eq!(bounds("anything below 15?"), [(Price, Below, 15.0)]);
        assert_eq!(bounds("the first 3 of over 20 pages"), []);
        assert_eq!(bounds("up to 200 jobs"), []);
        assert_eq!(bounds("posts after 1999"), []);
        // The value's name before the cue, in the plural too.
        assert_eq!(
            bounds("job titles with salaries above 75k"),
            [(Price, Above, 75_000.0)]
        );
        assert_eq!(bounds("hotels with ratings above 4"), [(Score, Above, 4.0)]);
        // Pounds by a span of time are money; pounds alone may be a weight.
        assert_eq!(
            bounds("units under 100 pounds per month"),
            [(Price, Below, 100.0)]
        );
        assert_eq!(bounds("dogs under 20 pounds"), []);
        // A budget is the most one pays.
        assert_eq!(
            bounds("my budget is £100 a month"),
            [(Price, AtMost, 100.0)]
        );
        assert_eq!(bounds("a budget of $50"), [(Price, AtMost, 50.0)]);
    }

    #[test]
    fn words_after_an_amount_bound_it() {
        use BoundOp::*;
        use FieldRole::*;
        assert_eq!(bounds("books at $10 or less"), [(Price, AtMost, 10.0)]);
        assert_eq!(
            bounds("hotels rated 4 stars or more"),
            [(Score, AtLeast, 4.0)]
        );
        assert_eq!(
            bounds("anything 19,99 € and under"),
            [(Price, AtMost, 19.99)]
        );
    }

    #[test]
    fn a_comma_before_one_or_two_digits_is_a_decimal_comma_and_before_three_a_thousands_one() {
        assert_eq!(amount("2,2", false), Some(2.2));
        assert_eq!(amount("0,75", false), Some(0.75));
        assert_eq!(amount("2,200", false), Some(2_200.0));
        assert_eq!(amount("12,500,000", false), Some(12_500_000.0));
        assert_eq!(amount("2,5k", false), Some(2_500.0));
    }

    #[test]
    fn amounts_in_other_forms() {
        use BoundOp::*;
        use FieldRole::*;
        // Money is read by the one money reader: a decimal comma, a dot between thousands.
        assert_eq!(bounds("unter 19,99 €"), [(Price, Below, 19.99)]);
        assert_eq!(bounds("über 1.500 €"), [(Price, Above, 1_500.0)]);
        assert_eq!(
            bounds("more than one hundred comments"),
            [(Comments, Above, 100.0)]
        );
        assert_eq!(
            bounds("posts with 100+ comments"),
            [(Comments, AtLeast, 100.0)]
        );
        assert_eq!(bounds("moins de 30 euros"), [(Price, Below, 30.0)]);
        assert_eq!(
            bounds("teapots €20–€30"),
            [(Price, AtLeast, 20.0), (Price, AtMost, 30.0)]
        );
        assert_eq!(bounds("the 2023-2024 season"), []);
    }

    fn observed(tool: &str, params: serde_json::Value, items: usize) -> Observation {
        Observation {
            round: 0,
            tool: tool.to_owned(),
            params,
            success: true,
            items,
            error: None,
            preview: String::new(),
        }
    }

    #[test]
    fn a_choice_that_left_nothing_says_why() {
        use serde_json::json;
        let list = observed("extract.fields", json!({}), 6);
        let shown = |n| observed("data.filter", json!({"field": "price", "op": "exists"}), n);
        let below = |n| {
            observed(
                "data.filter",
                json!({"field": "price", "op": "lt", "value": 3.0}),
                n,
            )
        };
        let none_within = emptied(&[list.clone(), shown(6), below(0)]).unwrap();
        assert_eq!(
            none_within.message(),
            "no price of the 6 item(s) is below 3"
        );
        let no_value = emptied(&[list.clone(), shown(0), below(0)]).unwrap();
        assert_eq!(
            no_value.message(),
            "this page shows no price for this request"
        );
        let words = observed(
            "data.filter",
            json!({"field": "author", "op": "matches", "value": crate::planner::matches::pattern("zed")}),
            0,
        );
        assert_eq!(
            emptied(&[list.clone(), shown(12), words])
                .unwrap()
                .message(),
            "no author of the 12 item(s) holds \"zed\""
        );
        // Items left, or the last filter no choice (a tidy-up): nothing to say.
        assert_eq!(emptied(&[list.clone(), shown(6), below(2)]), None);
        let tidy = observed("data.filter", json!({"field": "title", "op": "exists"}), 0);
        assert_eq!(emptied(&[list, tidy]), None);
    }

    #[test]
    fn a_window_of_time_bounds_the_date() {
        let (found, rest) = read("stories from the last 24 hours");
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].role, found[0].op),
            (FieldRole::Date, BoundOp::AtLeast)
        );
        assert_eq!(found[0].since().as_deref(), Some("1 day ago"));
        assert_eq!(found[0].describe(), "since 1 day ago");
        assert!(!rest.contains("24"), "no count: {rest}");
        let week = read("jobs posted in the past week").0;
        assert_eq!(week[0].since().as_deref(), Some("1 week ago"));
        let hours = read("posts of the last 3 hours").0;
        assert_eq!(
            hours[0].filter_value(),
            Some(serde_json::json!("3 hours ago"))
        );
        // A count of items is no window.
        assert!(read("the last 5 posts").0.is_empty());
    }

    #[test]
    fn a_range_is_two_bounds() {
        use BoundOp::*;
        use FieldRole::*;
        assert_eq!(
            bounds("products between $10 and $50"),
            [(Price, AtLeast, 10.0), (Price, AtMost, 50.0)]
        );
        assert_eq!(
            bounds("from €5 to €8"),
            [(Price, AtLeast, 5.0), (Price, AtMost, 8.0)]
        );
        assert_eq!(bounds("from page 2 to 5"), []);
    }

    #[test]
    fn a_bound_without_a_unit_needs_the_word_before_it() {
        use BoundOp::*;
        use FieldRole::*;
        assert_eq!(bounds("phones priced under 300"), [(Price, Below, 300.0)]);
        assert_eq!(
            bounds("with a rating of at least 4.5"),
            [(Score, AtLeast, 4.5)]
        );
        assert_eq!(bounds("costing less than 50"), [(Price, Below, 50.0)]);
        assert_eq!(bounds("roles paying over 90k"), [(Price, Above, 90_000.0)]);
        assert_eq!(bounds("over 20 pages of results"), []);
        assert_eq!(bounds("the links under the heading"), []);
        assert_eq!(bounds("up to 200 jobs"), []);
        assert_eq!(bounds("at least 30 products"), []);
    }

    #[test]
    fn the_amounts_of_bounds_are_blanked_for_the_count() {
        let (_, rest) = read("the 5 cheapest products under 20 dollars");
        assert!(rest.contains('5'), "{rest}");
        let (_, rest) = read("Jobs paying over €75,000");
        assert_eq!(rest.trim(), "Jobs");
        assert!(!rest.contains("20"), "{rest}");
        assert!(!rest.contains("dollars"), "{rest}");
    }
}
