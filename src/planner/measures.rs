//! Orders and bounds on a measure the items print with its unit, not on money, a score or a
//! date: "the largest apartment", "the roomiest rental" (an area: "1,450 sq ft", "85 m²"),
//! "apartments with at least 2 bedrooms", "2+ bedroom rentals" ("3 beds"). The measure is
//! named (`size`, `bedrooms`) and read as a named field: the records engine's column counted
//! in its unit answers it (`tools::extract::columns`, rule `counted_in_its_unit`), and
//! `data.sort` / `data.filter` read the number before the unit.

use std::sync::OnceLock;

use regex::Regex;

use super::bounds::{Bound, BoundOp};
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

/// An order by size: (descending, the measure's name), when the words ask for one and the
/// word after it is no other kind of value.
pub fn order(lower: &str, other_value: impl Fn(&str) -> bool) -> Option<(bool, &'static str)> {
    let find = |phrases: &[&str]| {
        phrases.iter().any(|phrase| {
            whole_word_positions(lower, phrase).any(|end| {
                let next = lower[end..]
                    .split(|c: char| !c.is_alphanumeric())
                    .find(|w| !w.is_empty())
                    .unwrap_or_default();
                !NOT_A_SIZE.contains(&next) && !other_value(next)
            })
        })
    };
    if find(LARGEST) {
        Some((true, SIZE))
    } else if find(SMALLEST) {
        Some((false, SIZE))
    } else {
        None
    }
}

/// Where `phrase` ends in `text`, for each place it stands as whole words.
fn whole_word_positions<'a>(text: &'a str, phrase: &'a str) -> impl Iterator<Item = usize> + 'a {
    text.match_indices(phrase).filter_map(move |(at, _)| {
        let end = at + phrase.len();
        let before = text[..at].chars().next_back();
        let after = text[end..].chars().next();
        (!before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric))
            .then_some(end)
    })
}

/// A bound on a counted thing the items have: "with at least 2 bedrooms", "that have 2
/// bedrooms or more", "with more than one bedroom", "2+ bedroom". The thing must be had
/// ("with", "has", "have", "having" before the bound) or the bound written `N+`, so "over 20
/// pages of results" or "up to 200 jobs" bound nothing; `not_a_measure` refuses nouns that
/// name the items or the pages. Returns the bound, the thing's name and the words said.
pub fn bound(lower: &str, not_a_measure: impl Fn(&str) -> bool) -> Option<(Bound, String, String)> {
    static HAD: OnceLock<Regex> = OnceLock::new();
    static PLUS: OnceLock<Regex> = OnceLock::new();
    static OR_MORE: OnceLock<Regex> = OnceLock::new();
    #[allow(clippy::expect_used)]
    let had = HAD.get_or_init(|| {
        Regex::new(
            r"\b(?:with|has|have|having)\s+(?:(at least|a minimum of|minimum of|no fewer than|mindestens|au moins|al menos|more than|over|fewer than|less than|under|at most|up to|no more than)\s+)?(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+([a-z]{3,})(?:\s+(or more|or fewer|or less|or over|or under|minimum|min|max|maximum))?\b",
        )
        .expect("valid regex")
    });
    #[allow(clippy::expect_used)]
    let plus =
        PLUS.get_or_init(|| Regex::new(r"\b(\d+)\s*\+\s*([a-z]{3,})\b").expect("valid regex"));
    // "with 2 or more bedrooms".
    #[allow(clippy::expect_used)]
    let or_more = OR_MORE.get_or_init(|| {
        Regex::new(
            r"\b(?:with|has|have|having)\s+(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(or more|or over|or fewer|or less)\s+([a-z]{3,})\b",
        )
        .expect("valid regex")
    });
    let read = |number: &str| {
        const WORDS: [&str; 10] = [
            "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        ];
        match WORDS.iter().position(|w| *w == number) {
            Some(i) => Some(i as f64 + 1.0),
            None => number.parse::<f64>().ok(),
        }
    };
    if let Some(caps) = had.captures(lower) {
        let before = caps.get(1).map(|m| m.as_str());
        let after = caps.get(4).map(|m| m.as_str());
        let op = match (before, after) {
            (
                Some(
                    "at least" | "a minimum of" | "minimum of" | "no fewer than" | "mindestens"
                    | "au moins" | "al menos",
                ),
                _,
            )
            | (None, Some("or more" | "or over" | "minimum" | "min")) => BoundOp::AtLeast,
            (Some("more than" | "over"), _) => BoundOp::Above,
            (Some("fewer than" | "less than" | "under"), _) => BoundOp::Below,
            (Some(_), _) | (None, Some(_)) => BoundOp::AtMost,
            // "with 2 bedrooms" is a value, not a bound.
            (None, None) => return None,
        };
        let thing = caps[3].to_owned();
        let amount = read(&caps[2])?;
        if !not_a_measure(&thing) {
            return Some((bound_of(op, amount), thing, caps[0].to_owned()));
        }
    }
    if let Some(caps) = or_more.captures(lower) {
        let op = match &caps[2] {
            "or more" | "or over" => BoundOp::AtLeast,
            _ => BoundOp::AtMost,
        };
        let thing = caps[3].to_owned();
        let amount = read(&caps[1])?;
        if !not_a_measure(&thing) {
            return Some((bound_of(op, amount), thing, caps[0].to_owned()));
        }
    }
    let caps = plus.captures(lower)?;
    let thing = caps[2].to_owned();
    let amount = read(&caps[1])?;
    (!not_a_measure(&thing)).then(|| {
        (
            bound_of(BoundOp::AtLeast, amount),
            thing,
            caps[0].to_owned(),
        )
    })
}

/// `text` without the words a bound was read from (`said`, as found in its lower case), its
/// case kept: the rest of the request is read on ("posts by Ann with at least 2 photos").
pub fn without(text: &str, said: &str) -> String {
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

fn bound_of(op: BoundOp, amount: f64) -> Bound {
    Bound {
        role: FieldRole::Text,
        op,
        amount,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_order_by_size_is_read_unless_the_next_word_is_another_value() {
        let none = |_: &str| false;
        assert_eq!(order("the largest apartment", none), Some((true, SIZE)));
        assert_eq!(
            order("which flat has the most space?", none),
            Some((true, SIZE))
        );
        assert_eq!(order("the roomiest rental", none), Some((true, SIZE)));
        assert_eq!(order("the smallest studio", none), Some((false, SIZE)));
        assert_eq!(order("the biggest discount", none), None);
        assert_eq!(order("the largest price", |w| w == "price"), None);
        assert_eq!(order("enlargest", none), None);
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
        assert_eq!(read("flats with 2 bedrooms"), None);
        assert_eq!(read("the first 3 of over 20 pages"), None);
        assert_eq!(read("sites with over 20 pages"), None);
        assert_eq!(read("up to 200 jobs"), None);
    }
}
