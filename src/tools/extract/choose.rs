//! Items chosen by a value they show, where the words alone cannot tell a value from any
//! other word: "the professors" keeps the records whose role is "Professor", "what does DNS
//! mean?" the record whose term is "DNS", "posts that aren't pinned" those without the
//! "Pinned" badge. The planner offers the words; the page decides: a phrase chooses only when
//! it is the whole value of some, not all, records in one column.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Words of the request that may be a value of the items, with the shorter readings to try
/// when the whole does not match ("born in london", then "in london", then "london").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ValueChoice {
    /// The readings, tried in order; the first that is a whole value of some records in one
    /// column chooses them.
    #[schemars(length(min = 1))]
    pub phrases: Vec<String>,
    /// Keep the records that do not show it ("not pinned", "skip the out of stock ones").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub negated: bool,
}

/// How one choice went, for the evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChoiceMade {
    /// The reading that chose, or the first reading when none did.
    pub phrase: String,
    /// The column whose values it is; `None` when no column of the records holds it.
    pub column: Option<String>,
    /// Whether the records without it were kept.
    pub negated: bool,
    /// Records kept, of those there were.
    pub kept: usize,
    /// Records before the choice.
    pub of: usize,
}

/// A value longer than this is a text, not a value to choose by.
const VALUE_CHARS: usize = 60;

/// Keeps the records each choice picks (all of them when it picks none, or every one: then
/// its words are not a value that tells records apart), and says how each went.
pub fn keep_chosen(
    mut records: Vec<Map<String, Value>>,
    choices: &[ValueChoice],
) -> (Vec<Map<String, Value>>, Vec<ChoiceMade>) {
    let mut made = Vec::with_capacity(choices.len());
    for choice in choices {
        let of = records.len();
        let found = choice
            .phrases
            .iter()
            .find_map(|phrase| column_holding(&records, phrase).map(|c| (phrase, c)));
        match found {
            Some((phrase, column)) => {
                records.retain(|r| holds(r.get(&column), phrase) != choice.negated);
                made.push(ChoiceMade {
                    phrase: phrase.clone(),
                    column: Some(column),
                    negated: choice.negated,
                    kept: records.len(),
                    of,
                });
            }
            None => made.push(ChoiceMade {
                phrase: choice.phrases.first().cloned().unwrap_or_default(),
                column: None,
                negated: choice.negated,
                kept: of,
                of,
            }),
        }
    }
    (records, made)
}

/// The first column, in the records' order, where `phrase` is the whole value of some
/// records but not of all.
fn column_holding(records: &[Map<String, Value>], phrase: &str) -> Option<String> {
    let first = records.first()?;
    first.keys().find_map(|column| {
        let holding = records
            .iter()
            .filter(|r| holds(r.get(column), phrase))
            .count();
        (holding > 0 && holding < records.len()).then(|| column.clone())
    })
}

/// Whether a value is the phrase: the same words, case and spacing aside, one of them
/// perhaps the other's plural ("Professor" is "professors").
fn holds(value: Option<&Value>, phrase: &str) -> bool {
    let Some(Value::String(value)) = value else {
        return false;
    };
    if value.chars().count() > VALUE_CHARS {
        return false;
    }
    same_value(value, phrase)
}

/// Whether a value on the page and words of a request are the same value: the same words,
/// case, spacing and punctuation aside, one perhaps the other's plural ("Professor" and
/// "professors").
pub fn same_value(value: &str, words: &str) -> bool {
    let (value, words) = (normal(value), normal(words));
    let same = |value: &str, words: &str| {
        !value.is_empty() && (value == words || plural_of(value, words) || plural_of(words, value))
    };
    same(&value, &words) || same(without_when(&value), without_when(&words))
}

/// A state without the time it holds for: a booking site's "Fully booked tonight" and a
/// shop's "Available now" are the states "fully booked" and "available".
fn without_when(value: &str) -> &str {
    ["now", "today", "tonight"]
        .iter()
        .find_map(|when| value.strip_suffix(when)?.strip_suffix(' '))
        .unwrap_or(value)
}

fn normal(text: &str) -> String {
    text.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `plural` is `one`'s English plural (its last word's).
fn plural_of(one: &str, plural: &str) -> bool {
    plural
        .strip_prefix(one)
        .is_some_and(|tail| tail == "s" || tail == "es")
        || one
            .strip_suffix('y')
            .is_some_and(|stem| plural.strip_prefix(stem).is_some_and(|tail| tail == "ies"))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn rows(values: &[(&str, &str)]) -> Vec<Map<String, Value>> {
        values
            .iter()
            .map(|(name, role)| {
                let Value::Object(map) = json!({"name": name, "role": role, "born": 1900}) else {
                    unreachable!()
                };
                map
            })
            .collect()
    }

    fn choice(phrases: &[&str], negated: bool) -> ValueChoice {
        ValueChoice {
            phrases: phrases.iter().map(|p| (*p).to_owned()).collect(),
            negated,
        }
    }

    fn names(records: &[Map<String, Value>]) -> Vec<&str> {
        records.iter().filter_map(|r| r["name"].as_str()).collect()
    }

    #[test]
    fn a_plural_chooses_the_records_of_its_value() {
        let records = rows(&[
            ("Ada", "Analyst"),
            ("Edsger", "Professor"),
            ("Don", "Professor"),
        ]);
        let (kept, made) = keep_chosen(records, &[choice(&["professors"], false)]);
        assert_eq!(names(&kept), ["Edsger", "Don"]);
        assert_eq!(made[0].column.as_deref(), Some("role"));
        assert_eq!((made[0].kept, made[0].of), (2, 3));
    }

    #[test]
    fn a_shorter_reading_chooses_when_the_whole_does_not() {
        let records = rows(&[("Ada", "London"), ("Grace", "New York")]);
        let (kept, made) = keep_chosen(records, &[choice(&["born in london", "london"], false)]);
        assert_eq!(names(&kept), ["Ada"]);
        assert_eq!(made[0].phrase, "london");
    }

    #[test]
    fn a_negated_choice_keeps_the_others() {
        let records = rows(&[("Welcome", "Pinned"), ("Spring", ""), ("Summer", "")]);
        let (kept, _) = keep_chosen(records, &[choice(&["pinned"], true)]);
        assert_eq!(names(&kept), ["Spring", "Summer"]);
    }

    #[test]
    fn a_state_is_the_same_whenever_it_holds() {
        let records = rows(&[
            ("Olive", "Tables available tonight"),
            ("Saffron", "Fully booked tonight"),
        ]);
        let (kept, _) = keep_chosen(records.clone(), &[choice(&["tables available"], false)]);
        assert_eq!(names(&kept), ["Olive"]);
        let (kept, _) = keep_chosen(records, &[choice(&["fully booked"], true)]);
        assert_eq!(names(&kept), ["Olive"]);
        // The time alone is no state.
        assert!(!same_value("Tonight", "now"));
    }

    #[test]
    fn words_no_value_is_or_every_value_is_choose_nothing() {
        let records = rows(&[("Ada", "Professor"), ("Don", "Professor")]);
        for words in ["professors", "stuff", "pro"] {
            let (kept, made) = keep_chosen(records.clone(), &[choice(&[words], false)]);
            assert_eq!(kept.len(), 2, "{words}");
            assert_eq!(made[0].column, None, "{words}");
        }
    }

    #[test]
    fn long_texts_and_numbers_are_not_values() {
        let long = "a very long description that goes on and on well past any value a person types";
        let records = rows(&[("Ada", long), ("Don", "Professor")]);
        let (kept, _) = keep_chosen(records, &[choice(&[long], false)]);
        assert_eq!(kept.len(), 2);
    }
}
