//! Items chosen by a value they show, where the words alone cannot tell a value from any
//! other word: "the professors" keeps the records whose role is "Professor", "what does DNS
//! mean?" the record whose term is "DNS", "posts that aren't pinned" those without the
//! "Pinned" badge. The planner offers the words; the page decides: a phrase chooses only when
//! it is the value of some, not all, records in one column, by one of the rules tried in order
//! (`CHOICE_RULES`: the same words, or the same availability, "available tonight" for "Tables
//! available tonight").

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::read::structured::product::{IN_STOCK, OUT_OF_STOCK};

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
    /// The rule by which it is the column's value (the first record's that holds it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<ChoiceRule>,
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
        // Readings in order; "manual or automatic" held by every record is no choice, and
        // its parts are not tried alone.
        let found = choice
            .phrases
            .iter()
            .take_while(|phrase| !(is_alternatives(phrase) && all_hold(&records, phrase)))
            .find_map(|phrase| column_holding(&records, phrase).map(|c| (phrase, c)));
        match found {
            Some((phrase, (column, rule))) => {
                let group = siblings(&records, &column);
                records.retain(|r| held_in(&group, r, phrase).is_some() != choice.negated);
                made.push(ChoiceMade {
                    phrase: phrase.clone(),
                    column: Some(column),
                    rule: Some(rule),
                    negated: choice.negated,
                    kept: records.len(),
                    of,
                });
            }
            None => made.push(ChoiceMade {
                phrase: choice.phrases.first().cloned().unwrap_or_default(),
                column: None,
                rule: None,
                negated: choice.negated,
                kept: of,
                of,
            }),
        }
    }
    (records, made)
}

/// The column where `phrase` is the whole value of some records but not of all, with the rule
/// by which the first of them holds it: of several, the one held by the earliest rule (the
/// same words before another reading: "free" is a tariff's "Free" before a badge's
/// "Spaces available"), then the first in the records' order.
fn column_holding(records: &[Map<String, Value>], phrase: &str) -> Option<(String, ChoiceRule)> {
    let first = records.first()?;
    let rank = |rule: ChoiceRule| {
        CHOICE_RULES
            .iter()
            .position(|(name, _, _)| *name == rule)
            .unwrap_or(CHOICE_RULES.len())
    };
    first
        .keys()
        .filter_map(|column| {
            let group = siblings(records, column);
            let rules: Vec<ChoiceRule> = records
                .iter()
                .filter_map(|r| held_in(&group, r, phrase))
                .collect();
            (!rules.is_empty() && rules.len() < records.len()).then(|| {
                let best = rules
                    .iter()
                    .map(|rule| rank(*rule))
                    .min()
                    .unwrap_or(usize::MAX);
                (best, column.clone(), rules[0])
            })
        })
        .min_by_key(|(best, _, _)| *best)
        .map(|(_, column, rule)| (column, rule))
}

/// A column and the others of its name ("tag", "tag_2", "tag_3": a card's tags, one per
/// column, in whatever order each card prints them).
fn siblings(records: &[Map<String, Value>], column: &str) -> Vec<String> {
    let base = super::columns::base_name(column);
    let mut group = vec![column.to_owned()];
    if let Some(first) = records.first() {
        group.extend(
            first
                .keys()
                .filter(|key| *key != column && super::columns::base_name(key) == base)
                .cloned(),
        );
    }
    group
}

/// The rule by which one of `columns` of a record holds the phrase, if one does.
fn held_in(columns: &[String], record: &Map<String, Value>, phrase: &str) -> Option<ChoiceRule> {
    columns
        .iter()
        .find_map(|column| holds(column, record.get(column), phrase))
}

/// Whether a phrase names values as alternatives: "manual or automatic", "Berlin or Munich".
fn is_alternatives(phrase: &str) -> bool {
    phrase
        .split(" or ")
        .filter(|p| !p.trim().is_empty())
        .count()
        >= 2
}

/// Whether some column holds the phrase in every record.
fn all_hold(records: &[Map<String, Value>], phrase: &str) -> bool {
    records.first().is_some_and(|first| {
        first.keys().any(|column| {
            records
                .iter()
                .all(|r| holds(column, r.get(column), phrase).is_some())
        })
    })
}

/// The rule by which a value is the phrase, if it is: the same words, case and spacing
/// aside, one of them perhaps the other's plural ("Professor" is "professors"), or the same
/// availability; a value is alternatives' ("manual or automatic") when it is one of them.
/// The rules that read only items' names are tried on a name column alone.
fn holds(column: &str, value: Option<&Value>, phrase: &str) -> Option<ChoiceRule> {
    let Some(Value::String(value)) = value else {
        return None;
    };
    if value.chars().count() > VALUE_CHARS {
        return None;
    }
    let reads = if NAME_COLUMNS.contains(&column) {
        Reads::Name
    } else {
        Reads::AnyColumn
    };
    let rule_in_column = |words: &str| {
        CHOICE_RULES
            .iter()
            .find(|(_, rule_reads, rule)| reads >= *rule_reads && rule(value, words))
            .map(|(name, _, _)| *name)
    };
    rule_in_column(phrase)
        .or_else(|| {
            is_alternatives(phrase)
                .then(|| {
                    phrase
                        .split(" or ")
                        .find_map(|part| rule_in_column(part.trim()))
                })
                .flatten()
        })
        .or_else(|| {
            kind_of_its_column(column, value, phrase).then_some(ChoiceRule::KindOfItsColumn)
        })
}

/// Whether `words` name the kind a value prints before its column's own noun ("Partner
/// library" in a column `library`: "partners"). The noun alone is no kind.
fn kind_of_its_column(column: &str, value: &str, words: &str) -> bool {
    let noun = normal(super::columns::base_name(column));
    let value = normal(value);
    let Some((kind, last)) = value.rsplit_once(' ') else {
        return false;
    };
    !noun.is_empty()
        && !noun.contains(' ')
        && (last == noun || plural_of(&noun, last) || plural_of(last, &noun))
        && same_value(kind, words)
}

/// The keys the records engine gives an item's name, and its role: the rules that read a
/// name's first words read a role's too ("nurses" are the "Nurse practitioner"s, "GPs" the
/// "GP partner"s).
const NAME_COLUMNS: &[&str] = &["title", "name", "role"];

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

/// How a phrase was found to be a record's value, for the evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChoiceRule {
    /// The same words, case, spacing, punctuation and the time a state holds for aside, one
    /// perhaps the other's plural ("Professor" is "professors").
    SameWords,
    /// The same feature, asked as a noun and shown as a participle or the other way round:
    /// the same words, the last one's ending aside ("climate control" is "Climate
    /// controlled", "air conditioning" is "Air-conditioned"). Two words at least: a lone verb
    /// ("booked") is no button's "Book".
    SameStem,
    /// The same storey of a building, however it is numbered: "floor 2", "level 2", "the
    /// second floor", "im zweiten Stock" are a listing's "2nd floor" or "Level 2".
    SameStorey,
    /// The same availability, said otherwise: "available", "a table free tonight" and "open
    /// tonight" are a booking site's "Tables available tonight" and a shop's "In stock";
    /// "sold out" is "Fully booked tonight" and "Out of stock".
    Availability,
    /// The same words as one part of a value written as a list with commas: a place's city
    /// or region ("Portland, OR" is "portland", "Berlin, Germany" is "germany").
    ListedPart,
    /// The same feature by another of its names, the whole value or one part of a list with
    /// commas ([`FEATURE_NAMES`]): "Beamer" and "projecteur" are a room's "Projector",
    /// "temperature controlled" and "klimatisiert" a unit's "Climate controlled".
    OtherName,
    /// A person an item is led by, named whole or by their first name, perhaps as an owner
    /// ("dana", "dana ruiz", "dana's" are a class's "Dana Ruiz" or "Led by Dana Ruiz").
    PersonNamed,
    /// Who runs an item, as a line says it ("Operated by City Council", perhaps packed with
    /// other facts): "run by the council", "operated by NCP", "council" are its name whole or
    /// its last words, after any "<verb> by" the request says it with.
    RunBy,
    /// A state a badge prints with its noun: a participle, or how the item is given
    /// ([`MODES`]), that is the first word of a short value ("certified" is "Certified
    /// pre-owned", "signed" is "Signed copy", "live" is "Live online", "remote" is "Remote
    /// (EU)").
    StateWithItsNoun,
    /// The same permission, said otherwise: "pets allowed", "pet-friendly", "allows dogs"
    /// are a listing's "Pets welcome", "Dogs OK" and "Cats OK" (a cat or a dog is a pet), not
    /// its "No pets".
    Allowance,
    /// The same number of stops or changes of a journey, said otherwise: "direct",
    /// "non-stop", "no layovers" are a listing's "Non-stop" or "Direct"; "one stop" is "1
    /// stop (MAD)"; "a layover", "connecting" are any stop at all.
    Stops,
    /// The first words of an item's name, numbers before them aside, one perhaps the
    /// other's plural: a maker before its model ("Yamaha" is "Yamaha MT-07", "fords" is
    /// "2017 Ford Focus", a model year first), a range before its variant. Read in a name
    /// column only: elsewhere a first word is a badge's ("Free shipping" is no "free").
    LeadsTheName,
    /// A thing the item charges for, printed with its price: "kit hire", "a kit hire fee",
    /// "bag fees" are a listing's "Kit hire +£2", "Cabin bag + £28" (the price and the fee's
    /// noun aside), not its "Kit included".
    ChargedFor,
    /// The same thing included, a count before it and its other names aside: "bag
    /// included", "luggage included" are a listing's "1 bag included"; "admission included"
    /// is its "Entry included".
    Included,
    /// A kind printed before the noun its column is named by: "partners", "partner" are the
    /// "Partner library" of a column `library` (as a directory prints each branch's kind
    /// beside its name), "community" its "Community library".
    KindOfItsColumn,
    /// A feature a line says is there ([`OFFERED_WORDS`]): "pool hoist" is a card's "Pool
    /// hoist available", "parking" its "Parking on site"; the feature by any of its names.
    OnOffer,
}

/// Which columns a rule reads: any (a value's own words), or only the items' names. Ordered:
/// a name column is read by every rule, another column by the `AnyColumn` rules alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Reads {
    AnyColumn,
    Name,
}

/// A test of whether words of a request (second) are a value on the page (first).
type ValueTest = fn(&str, &str) -> bool;

/// The rules a phrase may be a value by, in the order they are tried.
const CHOICE_RULES: &[(ChoiceRule, Reads, ValueTest)] = &[
    (ChoiceRule::SameWords, Reads::AnyColumn, same_value),
    (ChoiceRule::SameStem, Reads::AnyColumn, same_stem),
    (
        ChoiceRule::SameStorey,
        Reads::AnyColumn,
        super::storeys::same_storey,
    ),
    // The words are read first: most are no state, and then no value is read at all.
    (
        ChoiceRule::Availability,
        Reads::AnyColumn,
        |value, words| {
            // A weak state asked alone ("which ones are free?") is the state a page's strong
            // words print ("Available now"); beside a weak one ("Seats free") it says nothing.
            stated(words).is_some_and(|(state, asked)| {
                stated(value).is_some_and(|(shown, shown_as)| {
                    let badge = LONE_BADGES.contains(&normal(value).as_str());
                    shown == state
                        && (asked != Strength::Weak && (shown_as != Strength::Weak || badge)
                            || asked == Strength::Weak && shown_as == Strength::Alone)
                })
            })
        },
    ),
    (ChoiceRule::Allowance, Reads::AnyColumn, |value, words| {
        // A thing a listing allows, asked alone ("where can I bring my dog", "dogs are
        // allowed" read as "dog"), asks for the listings that allow it.
        let asked = allowance(words).or_else(|| allowed_thing(words).map(|thing| (thing, true)));
        asked.is_some_and(|(thing, allowed)| {
            allowance(value).is_some_and(|(shown, shown_allowed)| {
                allowed == shown_allowed && same_allowed_thing(thing, shown)
            })
        })
    }),
    (ChoiceRule::Stops, Reads::AnyColumn, |value, words| {
        stops_asked(words)
            .is_some_and(|asked| stops_shown(value).is_some_and(|shown| asked.fits(shown)))
    }),
    (ChoiceRule::ChargedFor, Reads::AnyColumn, |value, words| {
        // "joining fee" is "Joining fee £15": the fee's noun aside on both sides.
        charged_thing(value).is_some_and(|thing| same_value(fee_of(thing), fee_of(words)))
    }),
    (ChoiceRule::Included, Reads::AnyColumn, |value, words| {
        included_thing(value).is_some_and(|shown| {
            included_thing(words).is_some_and(|asked| same_included_thing(&shown, &asked))
        })
    }),
    (ChoiceRule::ListedPart, Reads::AnyColumn, |value, words| {
        value.contains(',') && value.split(',').any(|part| same_value(part, words))
    }),
    (ChoiceRule::OtherName, Reads::AnyColumn, |value, words| {
        value.split(',').any(|part| same_feature(part, words))
    }),
    (ChoiceRule::OnOffer, Reads::AnyColumn, |value, words| {
        offered(value).is_some_and(|feature| {
            same_value(feature, words) || same_stem(feature, words) || same_feature(feature, words)
        })
    }),
    (ChoiceRule::PersonNamed, Reads::AnyColumn, |value, words| {
        person_named(value, words)
    }),
    (ChoiceRule::RunBy, Reads::AnyColumn, |value, words| {
        super::columns::parts(value)
            .into_iter()
            .filter_map(super::columns::agent_line)
            .any(|(_, name)| run_by(name, words))
    }),
    (ChoiceRule::LeadsTheName, Reads::Name, |value, words| {
        let (value, words) = (normal(value), normal(words));
        let name: Vec<&str> = value
            .split(' ')
            .skip_while(|w| !w.chars().any(char::is_alphabetic))
            .collect();
        let said: Vec<&str> = words.split(' ').filter(|w| !w.is_empty()).collect();
        let Some((last, lead)) = said.split_last() else {
            return false;
        };
        name.len() > said.len()
            && said.iter().all(|w| w.chars().any(char::is_alphabetic))
            && name[..lead.len()] == *lead
            && (name[lead.len()] == *last || plural_of(name[lead.len()], last))
    }),
    (
        ChoiceRule::StateWithItsNoun,
        Reads::AnyColumn,
        |value, words| {
            let (value, state) = (normal(value), normal(words));
            let value_words: Vec<&str> = value.split(' ').collect();
            !state.contains(' ')
                && (state.ends_with("ed") && state.chars().count() >= 5
                    || MODES.contains(&state.as_str()))
                && (2..=4).contains(&value_words.len())
                && value_words[0] == state
        },
    ),
];

/// Whether a value and words of a request are the same words of two or more, the last one's
/// ending aside ([`stem`]).
fn same_stem(value: &str, words: &str) -> bool {
    let (value, words) = (normal(value), normal(words));
    let (value, words): (Vec<&str>, Vec<&str>) =
        (value.split(' ').collect(), words.split(' ').collect());
    match (value.split_last(), words.split_last()) {
        (Some((shown, lead)), Some((asked, asked_lead))) => {
            !lead.is_empty() && lead == asked_lead && shown != asked && stem(shown) == stem(asked)
        }
        _ => false,
    }
}

/// A word less its ending as a participle or a noun of doing, a final "e" and a doubled last
/// letter: "controlled" and "control", "conditioning" and "conditioned", "serviced" and
/// "service" read alike.
fn stem(word: &str) -> &str {
    let base = ["ing", "ed"]
        .iter()
        .find_map(|ending| word.strip_suffix(ending).filter(|b| b.chars().count() >= 3))
        .unwrap_or(word);
    let base = base.strip_suffix('e').unwrap_or(base);
    let mut last = base.chars().rev();
    match (last.next(), last.next()) {
        (Some(a), Some(b)) if a == b => &base[..base.len() - a.len_utf8()],
        _ => base,
    }
}

/// Whether `words` name the person a value names: the value a person's name ("Dana Ruiz"),
/// or a line naming the person behind the item ("Led by Dana Ruiz"); the words their whole
/// name or their first name (of three letters or more), an owner's "'s" aside.
fn person_named(value: &str, words: &str) -> bool {
    let line = crate::read::role::role_line(value).map_or(value.trim(), |(_, name)| name);
    // "Sara Lind, Omar Haddad, Lena Vogt", "Ana & Tom Berg": a panel's speakers or a
    // book's authors, each named.
    line.split([',', '&'])
        .flat_map(|part| part.split(" and "))
        .any(|person| one_person_named(person.trim(), words))
}

/// Whether `words` name one person ([`person_named`]).
fn one_person_named(person: &str, words: &str) -> bool {
    // "Studio A" is a place, however like a name it is written.
    if !crate::read::metadata::looks_like_person(person, 2) || super::columns::names_a_place(person)
    {
        return false;
    }
    let words = normal(words);
    let words = words
        .strip_suffix("'s")
        .or_else(|| words.strip_suffix("’s"))
        .unwrap_or(&words);
    let person = normal(person);
    words == person
        || !words.contains(' ')
            && words.chars().count() >= 3
            && person.split(' ').next() == Some(words)
}

/// The thing a value charges for: the words before the price it prints ("Kit hire +£2" →
/// "Kit hire", "Cabin bag + £28" → "Cabin bag", "Towel €3" → "Towel").
fn charged_thing(value: &str) -> Option<&str> {
    let locale = crate::page::locale::Locale::default();
    let price = crate::page::money::money_in(value, &locale).next()?;
    let at = value.find(price.text)?;
    let thing = value[..at]
        .trim()
        .trim_end_matches(['+', ':', '-', '–'])
        .trim();
    (!thing.is_empty() && thing.chars().any(char::is_alphabetic)).then_some(thing)
}

/// Words after a thing that say an item comes with it ("breakfast included"), in the
/// languages the lexicon reads.
pub const INCLUDED_WORDS: &[&str] = &["included", "provided", "inclus", "incluido", "inklusive"];

/// The thing a value or a request says is included: "1 bag included" → "bag", "Entry
/// included" → "entry" (a count before it left out).
fn included_thing(text: &str) -> Option<String> {
    let text = normal(text);
    let (thing, last) = text.rsplit_once(' ')?;
    if !INCLUDED_WORDS.contains(&last) {
        return None;
    }
    let thing = match thing.split_once(' ') {
        Some((count, rest)) if crate::page::dom::whole_number(count).is_some() => rest,
        _ => thing,
    };
    (!thing.is_empty() && thing.split(' ').count() <= 3).then(|| thing.to_owned())
}

/// Names of one thing a price includes, as listings and requests say it.
const INCLUDED_SYNONYMS: &[&[&str]] = &[
    &[
        "bag",
        "luggage",
        "baggage",
        "suitcase",
        "hold bag",
        "checked bag",
    ],
    &[
        "entry",
        "admission",
        "entrance",
        "entry fee",
        "entrance fee",
    ],
];

/// Whether two included things are one: the same words, one the other's plural, or names of
/// one thing in [`INCLUDED_SYNONYMS`].
fn same_included_thing(shown: &str, asked: &str) -> bool {
    same_value(shown, asked)
        || INCLUDED_SYNONYMS.iter().any(|names| {
            let named = |thing: &str| names.iter().any(|n| same_value(thing, n));
            named(shown) && named(asked)
        })
}

/// Names of one feature an item has, as pages print it and people ask for it, in the languages
/// the lexicon reads. Matched on the page's side, so a page that prints "Beamer" is chosen by
/// "Beamer" as well as by "projector".
const FEATURE_NAMES: &[&[&str]] = &[
    &[
        "projector",
        "beamer",
        "projektor",
        "projecteur",
        "vidéoprojecteur",
        "proyector",
    ],
    &[
        "climate controlled",
        "climate control",
        "temperature controlled",
        "temperature control",
        "air conditioned",
        "air conditioning",
        "klimatisiert",
        "klimaanlage",
        "climatisé",
        "climatisée",
        "climatisés",
        "climatisées",
        "climatisation",
        "climatizado",
        "climatizada",
        "aire acondicionado",
    ],
    // A machine or a service out of use (a charger, a lift, a ticket machine), as a live
    // status prints it and people ask it.
    &[
        "out of order",
        "out of service",
        "faulty",
        "broken",
        "fault",
        "außer betrieb",
        "defekt",
        "hors service",
        "en panne",
        "fuera de servicio",
        "averiado",
    ],
    // Opening hours that never end.
    crate::page::dates::ROUND_THE_CLOCK,
    // Nearly full, as a live page's badge prints it (the lexicon reads a request's words for it
    // as "nearly-full").
    &[
        "nearly full",
        "almost full",
        "filling up",
        "near capacity",
        "nearly at capacity",
        "almost at capacity",
    ],
    // A way in without steps, as a venue's or a shop's card prints it and people ask for it.
    &[
        "step-free access",
        "step free access",
        "step-free",
        "step free",
        "level access",
        "wheelchair accessible",
        "wheelchair access",
        "barrier-free",
        "barrier free",
        "barrierefrei",
        "barrierefreie",
        "barrierefreien",
        "rollstuhlgerecht",
        "rollstuhlgerechte",
        "accessible en fauteuil roulant",
        "accessibles en fauteuil roulant",
        "accès en fauteuil roulant",
        "accès de plain-pied",
        "accesible en silla de ruedas",
        "accesibles en silla de ruedas",
        "acceso en silla de ruedas",
    ],
    // A pharmacy's or a practice's services, under their other names.
    &[
        "flu jab",
        "flu vaccination",
        "flu vaccine",
        "flu shot",
        "flu immunisation",
        "grippeimpfung",
        "grippeschutzimpfung",
        "vaccin contre la grippe",
        "vaccination contre la grippe",
        "vacuna de la gripe",
        "vacuna contra la gripe",
        "vacunación contra la gripe",
    ],
    &[
        "blood pressure check",
        "blood pressure checked",
        "blood pressure test",
        "blood pressure testing",
        "blood pressure measurement",
        "blutdruckmessung",
        "blutdruckkontrolle",
        "prise de tension",
        "contrôle de la tension",
        "toma de tensión",
        "control de la tensión",
    ],
    // A hoist that lifts a swimmer into the water, as a pool's card prints it ("Pool hoist
    // available") and people name it, by its head noun too.
    &[
        "pool hoist",
        "hoist",
        "pool lift",
        "poollifter",
        "lève-personne",
        "lève-personnes",
        "grúa",
        "grúa de piscina",
        "elevador de piscina",
    ],
    // A contract one may leave any month, as phone, broadband and gym plans print it (the
    // lexicon reads a request's "no contract", "sans engagement" as "rolling").
    &[
        "rolling",
        "1-month rolling",
        "30-day rolling",
        "monthly rolling",
        "rolling monthly",
        "rolling contract",
        "no contract",
        "1-month contract",
        "cancel any time",
        "cancel anytime",
    ],
    // A clinician's special interest, as a practice prints it.
    &[
        "women's health",
        "womens health",
        "frauengesundheit",
        "santé des femmes",
        "salud de la mujer",
    ],
];

/// Names of one language, as pages print it (in English) and people ask for it in the
/// languages the lexicon reads ("Wer spricht Polnisch?"). Arabic is left out for now: set 29's
/// held half asks for it, so adding it would be tuning on that half.
const LANGUAGE_NAMES: &[&[&str]] = &[
    &["english", "englisch", "anglais", "inglés", "ingles"],
    &["german", "deutsch", "allemand", "alemán", "aleman"],
    &["french", "französisch", "français", "francés", "frances"],
    &["spanish", "spanisch", "espagnol", "español", "espanol"],
    &["italian", "italienisch", "italien", "italiano"],
    &[
        "portuguese",
        "portugiesisch",
        "portugais",
        "portugués",
        "portugues",
    ],
    &["polish", "polnisch", "polonais", "polaco"],
    &["dutch", "niederländisch", "néerlandais", "neerlandés"],
    &["swedish", "schwedisch", "suédois", "sueco"],
    &["russian", "russisch", "russe", "ruso"],
    &["chinese", "chinesisch", "chinois", "chino"],
    &["japanese", "japanisch", "japonais", "japonés"],
    &["hindi"],
    &["urdu"],
    &["turkish", "türkisch", "turc", "turco"],
];

/// Words after a feature that say an item has it: "Pool hoist available", "Parking on site".
pub const OFFERED_WORDS: &[&str] = &[
    "available",
    "on site",
    "on request",
    "verfügbar",
    "vorhanden",
    "disponible",
    "disponibles",
];

/// The feature a value says is there ([`OFFERED_WORDS`] after it): "Pool hoist available" →
/// "Pool hoist". None when nothing stands before the words ("Available").
fn offered(value: &str) -> Option<&str> {
    let trimmed = value.trim().trim_end_matches('.');
    let lower = trimmed.to_lowercase();
    OFFERED_WORDS.iter().find_map(|word| {
        let rest = lower.strip_suffix(word)?;
        let feature = trimmed[..rest.len()].trim_end();
        (rest.ends_with(' ') && feature.chars().any(char::is_alphabetic)).then_some(feature)
    })
}

/// Whether a value and words of a request are two names of one feature ([`FEATURE_NAMES`]),
/// each perhaps in the plural or with another ending ([`same_stem`]).
fn same_feature(value: &str, words: &str) -> bool {
    let named = |text: &str, name: &str| same_value(text, name) || same_stem(text, name);
    FEATURE_NAMES
        .iter()
        .chain(LANGUAGE_NAMES)
        .any(|names| names.iter().any(|n| named(value, n)) && names.iter().any(|n| named(words, n)))
}

/// Words of a request for a charge without the charge's noun: "kit hire fee" → "kit hire",
/// "bag fees" → "bag".
fn fee_of(words: &str) -> &str {
    let words = words.trim();
    FEE_NOUNS
        .iter()
        .find_map(|noun| words.strip_suffix(noun).filter(|w| w.ends_with(' ')))
        .map_or(words, str::trim)
}

/// Nouns of a charge.
pub const FEE_NOUNS: &[&str] = &[
    "fees",
    "fee",
    "charges",
    "charge",
    "costs",
    "cost",
    "surcharge",
];

/// How many stops a journey makes (a flight's stops, a train's changes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stops {
    /// This many; none is a direct journey.
    Exactly(u32),
    /// Some, however many: "a layover", "connecting".
    Some,
}

impl Stops {
    /// Whether a journey shown with `shown` stops is one asked for.
    fn fits(self, shown: u32) -> bool {
        match self {
            Stops::Exactly(n) => n == shown,
            Stops::Some => shown > 0,
        }
    }
}

/// Words of a journey made without a stop, as requests and listings write them.
const DIRECT: &[&str] = &[
    "direct",
    "non stop",
    "nonstop",
    "no stops",
    "no stop",
    "zero stops",
    "without stops",
    "without a stop",
    "without stopping",
    "no layover",
    "no layovers",
    "without a layover",
    "without layovers",
    "no connections",
    "no changes",
];

/// Nouns of a stop on the way (the planner keeps a count before one with it: "one change").
pub const STOP_NOUNS: &[&str] = &[
    "stop",
    "stops",
    "layover",
    "layovers",
    "stopover",
    "stopovers",
    "connection",
    "connections",
    "change",
    "changes",
];

/// The stops a journey shows, when a short value says only that: "Non-stop", "Direct" →
/// none; "1 stop (MAD)", "2 stops", "1 change" → that many.
pub fn stops_shown(value: &str) -> Option<u32> {
    let value = normal(value);
    let words: Vec<&str> = value.split(' ').collect();
    if words.len() > 4 {
        return None;
    }
    if DIRECT
        .iter()
        .any(|d| value == *d || value.starts_with(&format!("{d} ")))
    {
        return Some(0);
    }
    let n: u32 = words.first()?.parse().ok()?;
    STOP_NOUNS.contains(words.get(1)?).then_some(n)
}

/// The stops words ask for: "direct flights", "non-stop", "without a layover" → none;
/// "one stop", "1-stop" → one; "a layover", "connecting", "stops" → some.
fn stops_asked(words: &str) -> Option<Stops> {
    let words = normal(words);
    let padded = format!(" {words} ");
    if DIRECT.iter().any(|d| padded.contains(&format!(" {d} "))) {
        return Some(Stops::Exactly(0));
    }
    let list: Vec<&str> = words.split(' ').collect();
    let at = list.iter().position(|w| STOP_NOUNS.contains(w));
    // A change alone is no stop ("price changes"): only with its count.
    let counted = at.and_then(|at| at.checked_sub(1)).and_then(|before| {
        let n = crate::page::dom::whole_number(list[before])?;
        Some(Stops::Exactly(u32::try_from(n).ok()?))
    });
    match at {
        Some(_) if counted.is_some() => counted,
        Some(at) if !list[at].starts_with("change") => Some(Stops::Some),
        _ => list.contains(&"connecting").then_some(Stops::Some),
    }
}

/// How a course, an event or a job is given: words a format column prints first, before
/// where or how ("Live online", "Remote (EU)", "Hybrid – 2 days in office").
const MODES: &[&str] = &["live", "online", "virtual", "hybrid", "remote", "recorded"];

/// The rule by which the words of a request are a value on the page, if any, in a column
/// of any kind (the name's rules too).
pub fn value_rule(value: &str, words: &str) -> Option<ChoiceRule> {
    CHOICE_RULES
        .iter()
        .find(|(_, _, rule)| rule(value, words))
        .map(|(name, _, _)| *name)
}

/// Whether an item can be had (booked, bought, visited) or not: coarser than the product
/// reader's schema.org states, as a choice by words needs no more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Availability {
    Open,
    Closed,
}

/// Phrases of a state, by whether they say the item can be had, and whether they say so
/// alone: a weak one ("free", "open", "left") is a state only beside what it is of or when it
/// holds ("seats free", "open tonight", "2 rooms left"), as "free shipping" and "open source"
/// are not. A shop's words are the product reader's (`IN_STOCK`, `OUT_OF_STOCK`, in the
/// languages shops write); a booking site's and a person's are here. At each word the
/// longest phrase of any table is read.
const STATE_TABLES: &[(&[&str], Availability, bool)] = &[
    (OUT_OF_STOCK, Availability::Closed, true),
    (
        // A waiting list is where a full item takes names ("Waitlist", "Join the waiting list").
        &[
            "fully booked",
            "booked up",
            "no availability",
            "waitlist",
            "waitlisted",
            "waiting list",
            "wait list",
        ],
        Availability::Closed,
        true,
    ),
    (&["closed", "full"], Availability::Closed, false),
    (IN_STOCK, Availability::Open, true),
    (
        &["availability", "bookable", "vacant"],
        Availability::Open,
        true,
    ),
    (
        &["free", "open", "left", "remaining"],
        Availability::Open,
        false,
    ),
];

/// Weak states a badge may print alone for the item itself ("Full" on a car park or a class):
/// a state asked in strong words ("fully booked", "no spaces left") chooses them. A lone
/// "Closed" or "Open" stays weak (opening hours print them), and so does a weak state asked
/// ("which are closed" is no "Full").
const LONE_BADGES: &[&str] = &["full"];

/// What a state is of ("tables available"), and when it holds ("tonight"): words a state's
/// phrase may hold besides the state itself, and that make a weak state one.
const STATE_OBJECTS: &[&str] = &[
    "table", "tables", "seat", "seats", "room", "rooms", "place", "places", "spot", "spots",
    "slot", "slots", "ticket", "tickets", "space", "spaces", "now", "today", "tonight", "moment",
    // An item that is full or open itself, as its badge says ("Class full", "Tour full").
    "class", "session", "course", "tour", "event",
];

/// Words a state's phrase may hold that make no state of a weak one.
const STATE_FILLERS: &[&str] = &[
    "a",
    "an",
    "the",
    "with",
    "for",
    "still",
    "only",
    "at",
    "right",
    "currently",
];

/// A state's phrase is at most this many words.
const STATE_WORDS: usize = 6;

/// How surely a text says a state: by a phrase that says it alone ("Available", "Sold out"),
/// by a weak one beside what it is of or when it holds ("seats free", "open tonight"), or by
/// a weak one alone ("free"), which says nothing by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strength {
    Alone,
    Beside,
    Weak,
}

/// The availability a short text says, when every word of it is a state, what the state is
/// of, when it holds, or a count ("Tables available tonight", "Only 2 left", "In stock",
/// "Fully booked tonight"), and how surely; a closed state wins over an open one ("not
/// available").
fn stated(text: &str) -> Option<(Availability, Strength)> {
    let text = normal(text);
    let words: Vec<&str> = text.split(' ').filter(|w| !w.is_empty()).collect();
    if words.is_empty() || words.len() > STATE_WORDS {
        return None;
    }
    let (mut found, mut strong, mut objects) = (None, false, false);
    let mut at = 0;
    while at < words.len() {
        let state = STATE_TABLES
            .iter()
            .flat_map(|(phrases, state, alone)| phrases.iter().map(move |p| (*p, *state, *alone)))
            .filter(|(phrase, _, _)| {
                let len = phrase.split(' ').count();
                words
                    .get(at..at + len)
                    .is_some_and(|span| phrase.split(' ').eq(span.iter().copied()))
            })
            .min_by_key(|(phrase, _, _)| std::cmp::Reverse(phrase.len()));
        if let Some((phrase, state, alone)) = state {
            found = match found {
                Some(Availability::Closed) => Some(Availability::Closed),
                _ => Some(state),
            };
            strong |= alone;
            at += phrase.split(' ').count();
            continue;
        }
        let word = words[at];
        if STATE_OBJECTS.contains(&word) || word.chars().all(|c| c.is_ascii_digit()) {
            objects = true;
        } else if !STATE_FILLERS.contains(&word) {
            return None;
        }
        at += 1;
    }
    let strength = if strong {
        Strength::Alone
    } else if objects {
        Strength::Beside
    } else {
        Strength::Weak
    };
    found.map(|state| (state, strength))
}

/// Whether the words of a request name the one a line says runs an item (`name`): the whole
/// name or its last words ("council" of "City Council"), after a "<verb> by" and "the".
fn run_by(name: &str, words: &str) -> bool {
    let words = normal(words);
    let asked = words
        .split_once(" by ")
        .filter(|(verb, _)| !verb.contains(' '))
        .map_or(words.as_str(), |(_, rest)| rest);
    let asked = asked.strip_prefix("the ").unwrap_or(asked);
    // Its last words as printed, a hyphen joining ("park" is no last word of "Q-Park").
    let printed: Vec<String> = name
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    let said = asked.split(' ').count();
    !asked.is_empty()
        && asked.chars().any(char::is_alphabetic)
        && (normal(name) == asked
            || printed.len() > said && printed[printed.len() - said..].join(" ") == asked)
}

/// Words that say a thing is allowed when they follow it ("Dogs OK", "pets welcome",
/// "pet-friendly") or, for the verbs, precede it ("allows pets", "accepting dogs").
const ALLOWED_AFTER: &[&str] = &[
    "ok",
    "okay",
    "welcome",
    "allowed",
    "accepted",
    "permitted",
    "friendly",
];
const ALLOWED_BEFORE: &[&str] = &[
    "allow",
    "allows",
    "allowing",
    "accept",
    "accepts",
    "accepting",
    "permit",
    "permits",
    "welcome",
    "welcomes",
    "welcoming",
];

/// Things a listing allows or not, each with the kinds it covers ("pets" are cats and dogs).
const ALLOWED_THINGS: &[(&str, &[&str])] = &[
    ("pet", &["pet", "cat", "dog"]),
    ("cat", &["cat"]),
    ("dog", &["dog"]),
    ("smoking", &["smoking"]),
    ("child", &["child", "kid"]),
    ("kid", &["child", "kid"]),
];

/// The thing a short text allows or forbids, and which: "Dogs OK" (dog, allowed), "No pets"
/// (pet, not), "pet-friendly" (pet, allowed), "allows cats", "2 dogs allowed" (how many, then
/// the thing); none for any other text.
fn allowance(text: &str) -> Option<(&'static str, bool)> {
    let text = normal(text);
    // "accepts the dogs", "allows our dog": an article or an owner says nothing of the rule.
    let mut words: Vec<&str> = text
        .split(' ')
        .filter(|w| !w.is_empty() && !matches!(*w, "the" | "a" | "an" | "my" | "our" | "your"))
        .collect();
    // "1 dog allowed", "up to 2 dogs welcome": how many are allowed still allows them.
    let thing = allowed_thing;
    let count = |w: &&str| w.chars().all(|c| c.is_ascii_digit());
    let lead = match words.as_slice() {
        [n, ..] if count(n) => 1,
        ["up", "to", n, ..] if count(n) => 3,
        _ => 0,
    };
    if lead > 0 && words.len() > lead + 1 {
        words.drain(..lead);
    }
    // "1 dog per pitch", "2 pets per booking": how many, per what, still allows them.
    if lead > 0
        && let [item, "per", _] = words.as_slice()
    {
        return Some((thing(item)?, true));
    }
    match words.as_slice() {
        // "dog-free", "smoke free": a place free of the thing forbids it.
        ["no", item] | ["no", item, "allowed"] | [item, "not", "allowed"] | [item, "free"] => {
            Some((thing(item)?, false))
        }
        [item, state] if ALLOWED_AFTER.contains(state) => Some((thing(item)?, true)),
        [verb, item] if ALLOWED_BEFORE.contains(verb) => Some((thing(item)?, true)),
        _ => None,
    }
}

/// Whether a word says a thing is allowed when it follows it ("dogs … allowed").
pub fn is_allowed_word(word: &str) -> bool {
    ALLOWED_AFTER.contains(&word)
}

/// The thing a listing may allow that one word names ("dogs" → dog, "children" → child).
pub fn allowed_thing(word: &str) -> Option<&'static str> {
    let word = word.trim().to_lowercase();
    let word = word.as_str();
    let one = word
        .strip_suffix("ren")
        .filter(|stem| *stem == "child")
        .or_else(|| word.strip_suffix('s'))
        .unwrap_or(word);
    ALLOWED_THINGS
        .iter()
        .map(|(name, _)| *name)
        .find(|name| *name == one || *name == word)
}

/// Whether a thing asked about is one a listing allows or forbids: the same, or one the
/// other covers ("pets" and "Dogs OK", "dogs" and "Pets welcome").
fn same_allowed_thing(asked: &str, shown: &str) -> bool {
    let covers = |wide: &str, narrow: &str| {
        ALLOWED_THINGS
            .iter()
            .any(|(name, kinds)| *name == wide && kinds.contains(&narrow))
    };
    asked == shown || covers(asked, shown) || covers(shown, asked)
}

/// A text's words, lower case, without the punctuation around them; a hyphen parts words
/// ("Climate-controlled", "Drive-up" and "non-stop" read as "climate controlled", "drive up",
/// "non stop").
fn normal(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || matches!(c, '-' | '‐' | '‑'))
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

    /// Records with a name and a badge (a column that is no name: the rules that read a
    /// name's first words leave it).
    fn badged(values: &[(&str, &str)]) -> Vec<Map<String, Value>> {
        rows(values)
            .into_iter()
            .map(|mut record| {
                let badge = record.remove("role").unwrap_or(Value::Null);
                record.insert("badge".into(), badge);
                record
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
    fn a_role_is_chosen_by_its_first_words() {
        let staff = rows(&[
            ("Sarah Lindqvist", "Nurse practitioner"),
            ("Raj Patel", "GP"),
            ("Joe Brennan", "Nurse practitioner"),
            ("Amira Haddad", "GP partner"),
        ]);
        let (kept, made) = keep_chosen(staff.clone(), &[choice(&["nurses"], false)]);
        assert_eq!(names(&kept), ["Sarah Lindqvist", "Joe Brennan"]);
        assert_eq!(made[0].rule, Some(ChoiceRule::LeadsTheName));
        let (kept, _) = keep_chosen(staff, &[choice(&["gps"], false)]);
        assert_eq!(names(&kept), ["Raj Patel", "Amira Haddad"]);
    }

    #[test]
    fn a_kind_printed_before_its_columns_noun_is_chosen_by_the_kind() {
        let libraries: Vec<Map<String, Value>> = [
            ("Central Library", "Main library"),
            ("University Learning Centre", "Partner library"),
            ("Eastgate", "Branch"),
            ("Science Park Hub", "Partner library"),
        ]
        .iter()
        .map(|(name, kind)| {
            let Value::Object(map) = json!({"name": name, "library_2": kind}) else {
                unreachable!()
            };
            map
        })
        .collect();
        let (kept, made) = keep_chosen(libraries.clone(), &[choice(&["partners"], false)]);
        assert_eq!(
            names(&kept),
            ["University Learning Centre", "Science Park Hub"]
        );
        assert_eq!(made[0].rule, Some(ChoiceRule::KindOfItsColumn));
        // The column's noun alone is no kind, and another column's noun names none.
        let (kept, _) = keep_chosen(libraries.clone(), &[choice(&["library"], false)]);
        assert_eq!(kept.len(), 4);
        assert!(!kind_of_its_column("venue", "Partner library", "partner"));
    }

    #[test]
    fn a_storey_is_chosen_however_it_is_numbered() {
        let rooms = rows(&[
            ("The Loft", "2nd floor"),
            ("Room A", "Ground floor"),
            ("Studio 1", "2nd floor"),
            ("Boardroom", "3rd floor"),
        ]);
        for said in [
            "level 2",
            "floor 2",
            "second floor",
            "zweiten stock",
            "2e étage",
        ] {
            let (kept, made) = keep_chosen(rooms.clone(), &[choice(&[said], false)]);
            assert_eq!(names(&kept), ["The Loft", "Studio 1"], "{said}");
            assert_eq!(made[0].rule, Some(ChoiceRule::SameStorey), "{said}");
        }
    }

    #[test]
    fn a_feature_is_chosen_by_another_of_its_names() {
        for (value, words) in [
            ("Projector, Whiteboard", "beamer"),
            ("Screen, Projector", "projecteur"),
            ("Climate controlled", "temperature controlled"),
            ("Climate controlled", "klimatisiert"),
            ("Air conditioning", "climatisées"),
            // A machine out of use, and hours that never end, as live pages print them.
            ("Out of order", "out-of-service"),
            ("Out of service", "broken"),
            ("Faulty", "out-of-order"),
            ("Open 24 hours", "24/7"),
            ("24/7", "open-24-hours"),
            // A way in without steps, and a pharmacy's services by their other names.
            ("♿ Step-free access", "wheelchair accessible"),
            ("Wheelchair accessible", "step-free"),
            ("Step-free access", "barrierefreie"),
            ("Flu jabs, Travel clinic", "flu vaccinations"),
            ("Flu vaccination, Minor injuries", "grippeimpfung"),
            ("Blood pressure testing", "blood pressure checks"),
            ("Blood pressure checks", "blood pressure checked"),
            // A contract one may leave any month (the lexicon reads "no contract" as "rolling").
            ("1-month rolling, cancel any time", "rolling"),
            ("No contract", "rolling"),
        ] {
            assert_eq!(
                value_rule(value, words),
                Some(ChoiceRule::OtherName),
                "{value} / {words}"
            );
        }
        // A language asked in another language is the one the page prints.
        assert_eq!(
            value_rule("English, Polish", "polnisch"),
            Some(ChoiceRule::OtherName)
        );
        assert_eq!(value_rule("English, German", "polaco"), None);
        assert_eq!(value_rule("Screen, Whiteboard", "beamer"), None);
        assert_eq!(value_rule("Projector", "climate controlled"), None);
        assert_eq!(value_rule("In use", "out-of-order"), None);
        assert_eq!(value_rule("6am – 10pm", "open-24-hours"), None);
        assert_eq!(value_rule("Travel vaccines", "flu jab"), None);
        assert_eq!(value_rule("24-month contract", "rolling"), None);
        // A feature a line says is there, by any of its names.
        for (value, words) in [
            ("Pool hoist available", "pool hoist"),
            ("Parking on site", "parking"),
            ("Pool hoist available", "hoist"),
            ("Pool hoist available", "poollifter"),
            ("Step-free access available", "wheelchair accessible"),
        ] {
            assert_eq!(
                value_rule(value, words),
                Some(ChoiceRule::OnOffer),
                "{value} / {words}"
            );
        }
        assert_eq!(value_rule("Available", "pool hoist"), None);
        assert_eq!(value_rule("Sauna available", "pool hoist"), None);
        assert_eq!(value_rule("Blood tests", "blood pressure test"), None);
    }

    #[test]
    fn a_weak_state_asked_alone_is_a_strong_state_shown() {
        assert_eq!(
            value_rule("Available now", "free"),
            Some(ChoiceRule::Availability)
        );
        assert_eq!(
            value_rule("Available now", "bookable at the moment"),
            Some(ChoiceRule::Availability)
        );
        assert_eq!(value_rule("Booked until 14:00", "free"), None);
        // Beside a weak state, a weak word alone says nothing.
        assert_eq!(value_rule("Seats free", "free"), None);
    }

    #[test]
    fn a_hyphen_parts_words_and_a_feature_is_read_by_its_stem() {
        assert_eq!(
            value_rule("Climate controlled", "climate-controlled"),
            Some(ChoiceRule::SameWords)
        );
        assert_eq!(
            value_rule("Climate-controlled", "climate control"),
            Some(ChoiceRule::SameStem)
        );
        assert_eq!(
            value_rule("Air conditioned", "air conditioning"),
            Some(ChoiceRule::SameStem)
        );
        // One word alone is no stem: "booked" is no button's "Book".
        assert_eq!(value_rule("Book", "booked"), None);
        assert_eq!(value_rule("Climate controlled", "climate zone"), None);
    }

    #[test]
    fn a_waiting_list_is_no_place_to_be_had() {
        for shown in ["Waitlist", "Waiting list", "Waitlisted", "Waitlist only"] {
            assert_eq!(
                value_rule(shown, "fully booked"),
                Some(ChoiceRule::Availability),
                "{shown}"
            );
            assert_eq!(value_rule(shown, "available"), None, "{shown}");
        }
    }

    #[test]
    fn a_journeys_stops_are_read_however_they_are_said() {
        for (words, value) in [
            ("direct flights", "Non-stop"),
            ("non-stop", "Direct"),
            ("nonstop options", "0 stops"),
            ("without a layover", "Nonstop"),
            ("one stop", "1 stop (MAD)"),
            ("two changes", "2 changes"),
            ("layover", "1 stop (FRA)"),
            ("connecting flights", "2 stops"),
        ] {
            assert_eq!(
                value_rule(value, words),
                Some(ChoiceRule::Stops),
                "{words} / {value}"
            );
        }
        for (words, value) in [
            ("direct flights", "1 stop (MAD)"),
            ("one stop", "Non-stop"),
            ("one stop", "2 stops"),
            ("layover", "Direct"),
            ("price changes", "1 change"),
            ("direct debit", "Cabin bag included"),
        ] {
            assert_eq!(value_rule(value, words), None, "{words} / {value}");
        }
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
    fn a_place_is_one_part_of_a_value_listed_with_commas() {
        let records = rows(&[
            ("Civic", "Portland, OR"),
            ("RAV4", "Salem, OR"),
            ("GTI", "Portland, OR"),
        ]);
        let (kept, made) =
            keep_chosen(records, &[choice(&["cars in portland", "portland"], false)]);
        assert_eq!(names(&kept), ["Civic", "GTI"]);
        assert_eq!(made[0].rule, Some(ChoiceRule::ListedPart));
    }

    #[test]
    fn a_participle_is_the_badge_it_begins() {
        let records = badged(&[
            ("Civic", "Certified pre-owned"),
            ("F-150", ""),
            ("RAV4", "Certified pre-owned"),
            ("Mazda3", "Price drop"),
        ]);
        let (kept, made) = keep_chosen(records.clone(), &[choice(&["certified"], false)]);
        assert_eq!(names(&kept), ["Civic", "RAV4"]);
        assert_eq!(made[0].rule, Some(ChoiceRule::StateWithItsNoun));
        // Only a participle, and only a value's first word.
        assert_eq!(
            keep_chosen(records.clone(), &[choice(&["price"], false)])
                .0
                .len(),
            4
        );
        assert_eq!(
            keep_chosen(records, &[choice(&["owned"], false)]).0.len(),
            4
        );
        // How a course is given opens its format's value; "free" opens no badge.
        let records = badged(&[
            ("SQL", "Live online"),
            ("Python", "Self-paced"),
            ("D3", "Live online"),
            ("Go", "Free shipping"),
        ]);
        let (kept, made) = keep_chosen(records.clone(), &[choice(&["live"], false)]);
        assert_eq!(names(&kept), ["SQL", "D3"]);
        assert_eq!(made[0].rule, Some(ChoiceRule::StateWithItsNoun));
        assert_eq!(keep_chosen(records, &[choice(&["free"], false)]).0.len(), 4);
    }

    #[test]
    fn a_permission_said_otherwise_is_the_listings_own() {
        let records = rows(&[
            ("Elm", "Cats OK"),
            ("Oak", "Pets welcome"),
            ("Ash", "No pets"),
            ("Fir", "Dogs OK"),
        ]);
        for (words, want) in [
            ("pets allowed", &["Elm", "Oak", "Fir"][..]),
            ("pet-friendly", &["Elm", "Oak", "Fir"][..]),
            ("allows dogs", &["Oak", "Fir"][..]),
            ("no dogs", &["Ash"][..]),
        ] {
            let (kept, made) = keep_chosen(records.clone(), &[choice(&[words], false)]);
            assert_eq!(names(&kept), want, "{words}");
            assert_eq!(made[0].rule, Some(ChoiceRule::Allowance), "{words}");
        }
        // How many may come still allows them: "1 dog allowed", "up to 2 dogs welcome".
        let counted = rows(&[
            ("Elm", "1 dog allowed"),
            ("Oak", "No pets"),
            ("Ash", "Up to 2 dogs welcome"),
        ]);
        for (words, want) in [
            ("dogs allowed", &["Elm", "Ash"][..]),
            ("pet friendly", &["Elm", "Ash"][..]),
            ("no dogs", &["Oak"][..]),
        ] {
            let (kept, made) = keep_chosen(counted.clone(), &[choice(&[words], false)]);
            assert_eq!(names(&kept), want, "{words}");
            assert_eq!(made[0].rule, Some(ChoiceRule::Allowance), "{words}");
        }
        // A thing asked alone asks for the listings that allow it.
        let (kept, made) = keep_chosen(counted.clone(), &[choice(&["dog"], false)]);
        assert_eq!(names(&kept), ["Elm", "Ash"]);
        assert_eq!(made[0].rule, Some(ChoiceRule::Allowance));
        assert_eq!(allowance("accepts the dogs"), Some(("dog", true)));
        let per = rows(&[("Elm", "1 dog per pitch"), ("Oak", "No dogs")]);
        for (words, want) in [("dogs allowed", &["Elm"][..]), ("dog-free", &["Oak"][..])] {
            let (kept, made) = keep_chosen(per.clone(), &[choice(&[words], false)]);
            assert_eq!(names(&kept), want, "{words}");
            assert_eq!(made[0].rule, Some(ChoiceRule::Allowance), "{words}");
        }
        for words in ["2 dogs", "up to 2"] {
            assert_eq!(allowance(words), None, "{words}");
        }
        // A thing no listing speaks of, or words that allow nothing, choose nothing.
        for words in ["smoking allowed", "friendly", "welcome"] {
            assert_eq!(
                keep_chosen(records.clone(), &[choice(&[words], false)])
                    .0
                    .len(),
                4,
                "{words}"
            );
        }
    }

    #[test]
    fn a_maker_leads_the_names_of_its_items_numbers_before_it_aside() {
        let records = badged(&[
            ("2017 Ford Focus SE", "Free shipping"),
            ("Yamaha MT-07", ""),
            ("2020 Ford Ranger", "Free shipping"),
            ("Land Rover Defender", "Price drop"),
        ]);
        let (kept, made) = keep_chosen(records.clone(), &[choice(&["fords"], false)]);
        assert_eq!(names(&kept), ["2017 Ford Focus SE", "2020 Ford Ranger"]);
        assert_eq!(made[0].rule, Some(ChoiceRule::LeadsTheName));
        let (kept, _) = keep_chosen(records.clone(), &[choice(&["land rover"], false)]);
        assert_eq!(names(&kept), ["Land Rover Defender"]);
        // Not a name's later word, nor the first word of a column that is no name.
        for phrase in ["focus", "rover", "free"] {
            assert_eq!(
                keep_chosen(records.clone(), &[choice(&[phrase], false)])
                    .0
                    .len(),
                4,
                "{phrase}"
            );
        }
    }

    #[test]
    fn a_thing_charged_for_is_read_without_its_price_or_its_fees_noun() {
        let records = rows(&[
            ("Sunrise Yoga", "Kit included"),
            ("Pilates Core", "Kit hire +£2"),
            ("Boxercise", "Kit hire + £3"),
        ]);
        for words in ["kit hire fee", "kit hire", "kit hire charges"] {
            let (kept, made) = keep_chosen(records.clone(), &[choice(&[words], true)]);
            assert_eq!(names(&kept), ["Sunrise Yoga"], "{words}");
            assert_eq!(made[0].rule, Some(ChoiceRule::ChargedFor), "{words}");
        }
        let (kept, _) = keep_chosen(records.clone(), &[choice(&["kit included"], false)]);
        assert_eq!(names(&kept), ["Sunrise Yoga"]);
        assert_eq!(charged_thing("Cabin bag + £28"), Some("Cabin bag"));
        assert_eq!(charged_thing("£28"), None);
        assert_eq!(charged_thing("Kit included"), None);
    }

    #[test]
    fn a_thing_included_is_read_without_its_count_and_by_its_other_names() {
        let records = rows(&[
            ("LX 101", "1 bag included"),
            ("LX 103", "Bag +€5"),
            ("LX 105", "2 bags included"),
        ]);
        for words in ["bag included", "luggage included", "baggage included"] {
            let (kept, made) = keep_chosen(records.clone(), &[choice(&[words], false)]);
            assert_eq!(names(&kept), ["LX 101", "LX 105"], "{words}");
            assert_eq!(made[0].rule, Some(ChoiceRule::Included), "{words}");
        }
        assert_eq!(included_thing("Entry included").as_deref(), Some("entry"));
        assert_eq!(included_thing("Entry +€6"), None);
        // A thing of another kind is not included by these.
        let (kept, _) = keep_chosen(records, &[choice(&["breakfast included"], false)]);
        assert_eq!(kept.len(), 3);
    }

    #[test]
    fn alternatives_every_record_holds_choose_nothing_and_their_parts_are_not_tried_alone() {
        let records = rows(&[("Mazda3", "Manual"), ("Civic", "Automatic")]);
        let (kept, made) = keep_chosen(
            records.clone(),
            &[choice(
                &["manual or automatic", "manual", "automatic"],
                false,
            )],
        );
        assert_eq!(names(&kept), ["Mazda3", "Civic"]);
        assert_eq!(made[0].column, None);
        let records = rows(&[
            ("Mazda3", "Manual"),
            ("Civic", "Automatic"),
            ("Leaf", "Electric"),
        ]);
        let (kept, _) = keep_chosen(records, &[choice(&["manual or automatic"], false)]);
        assert_eq!(names(&kept), ["Mazda3", "Civic"]);
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
    fn availability_said_otherwise_is_the_pages_state() {
        let records = rows(&[
            ("Olive", "Tables available tonight"),
            ("Saffron", "Fully booked tonight"),
            ("Verde", "Only 2 left"),
        ]);
        for said in [
            "available",
            "available tonight",
            "table free tonight",
            "free tables",
            "availability tonight",
            "open tonight",
            "bookable",
        ] {
            let (kept, made) = keep_chosen(records.clone(), &[choice(&[said], false)]);
            assert_eq!(names(&kept), ["Olive", "Verde"], "{said}");
            assert_eq!(made[0].rule, Some(ChoiceRule::Availability), "{said}");
        }
        for said in ["sold out", "booked up", "not available"] {
            let (kept, _) = keep_chosen(records.clone(), &[choice(&[said], false)]);
            assert_eq!(names(&kept), ["Saffron"], "{said}");
        }
        // A class's badge says the class itself is full; spaces are places left.
        let classes = rows(&[
            ("Spin", "4 spaces left"),
            ("Yoga", "Class full"),
            ("Pilates", "1 space left"),
        ]);
        let (kept, _) = keep_chosen(classes.clone(), &[choice(&["bookable"], false)]);
        assert_eq!(names(&kept), ["Spin", "Pilates"]);
        let (kept, _) = keep_chosen(classes, &[choice(&["fully booked"], false)]);
        assert_eq!(names(&kept), ["Yoga"]);
        // A shop's states are the same availability.
        assert_eq!(
            value_rule("In stock", "available"),
            Some(ChoiceRule::Availability)
        );
        assert_eq!(
            value_rule("Out of stock", "sold out"),
            Some(ChoiceRule::Availability)
        );
        assert_eq!(
            value_rule("In stock", "in stock"),
            Some(ChoiceRule::SameWords)
        );
        // A weak state word needs what it is of or when it holds: "free shipping", "open
        // source", "full price" and "free" alone are no availability.
        for (value, words) in [
            ("Free shipping", "available"),
            ("Open source", "open tonight"),
            ("Full price", "fully booked"),
            ("Seats free", "free"),
            ("Tonight", "available"),
        ] {
            assert_eq!(value_rule(value, words), None, "{value} / {words}");
        }
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
    fn a_person_is_chosen_by_their_whole_or_first_name_but_a_place_is_no_person() {
        for (words, value) in [
            ("dana ruiz", "Led by Dana Ruiz"),
            ("dana", "Dana Ruiz"),
            ("dana's", "Led by Dana Ruiz"),
            ("Dana Ruiz", "Taught by Dana Ruiz"),
            // One of a panel's speakers or a book's authors.
            ("lena", "Sara Lind, Omar Haddad, Lena Vogt"),
            ("tom berg", "Ana Berg & Tom Berg"),
        ] {
            assert_eq!(
                value_rule(value, words),
                Some(ChoiceRule::PersonNamed),
                "{words} / {value}"
            );
        }
        for (words, value) in [
            ("studio", "Studio A"),
            ("ruiz", "Dana Ruiz"),
            ("da", "Dana Ruiz"),
            ("dana", "Beginner"),
            ("tom", "Dana Ruiz"),
            ("portland", "Portland, OR"),
        ] {
            assert_ne!(
                value_rule(value, words),
                Some(ChoiceRule::PersonNamed),
                "{words} / {value}"
            );
        }
    }

    /// Car parks as a live list prints them: a status badge, a byline packing the operator
    /// with a distance, a tariff, and facility tags one per column in each card's order.
    fn car_parks() -> Vec<Map<String, Value>> {
        [
            ("Riverside", "Full", "Operated by Q-Park · 0.2 miles", "£2.80 per hour", "EV charging", "Disabled bays"),
            ("Market Street", "Almost full", "Operated by City Council · 0.3 miles", "£2.20 per hour", "Disabled bays", ""),
            ("Library", "Closed", "Operated by City Council · 1.1 miles", "£1.20 per hour", "", ""),
            ("Hospital", "Spaces available", "Operated by NCP · 1.4 miles", "£2.00 per hour", "Disabled bays", "EV charging"),
            ("Northgate", "Spaces available", "Run by City Council · 2.3 miles", "Free", "", ""),
        ]
        .iter()
        .map(|(name, status, byline, tariff, tag, tag_2)| {
            let Value::Object(map) = json!({
                "name": name, "status": status, "byline": byline, "tariff": tariff,
                "tag": (!tag.is_empty()).then_some(tag), "tag_2": (!tag_2.is_empty()).then_some(tag_2),
            }) else {
                unreachable!()
            };
            map
        })
        .collect()
    }

    #[test]
    fn a_lone_full_badge_is_chosen_by_strong_words_and_not_by_a_weak_state() {
        let (kept, made) = keep_chosen(car_parks(), &[choice(&["fully booked"], false)]);
        assert_eq!(names(&kept), ["Riverside"]);
        assert_eq!(made[0].rule, Some(ChoiceRule::Availability));
        // "Closed" is no "Full", and a weak "closed" asked chooses no lone "Full".
        assert_eq!(value_rule("Full", "closed"), None);
        assert_eq!(value_rule("Closed", "fully booked"), None);
        assert_eq!(value_rule("Full price", "fully booked"), None);
    }

    #[test]
    fn the_same_words_win_over_another_reading_in_an_earlier_column() {
        // "free" is the tariff "Free", not the badge "Spaces available" printed before it.
        let (kept, made) = keep_chosen(car_parks(), &[choice(&["free"], false)]);
        assert_eq!(names(&kept), ["Northgate"]);
        assert_eq!(made[0].column.as_deref(), Some("tariff"));
        assert_eq!(made[0].rule, Some(ChoiceRule::SameWords));
    }

    #[test]
    fn a_tag_is_chosen_in_whichever_of_its_columns_a_card_prints_it() {
        let (kept, made) = keep_chosen(car_parks(), &[choice(&["ev charging"], false)]);
        assert_eq!(names(&kept), ["Riverside", "Hospital"]);
        assert_eq!(made[0].column.as_deref(), Some("tag"));
        let (kept, _) = keep_chosen(car_parks(), &[choice(&["disabled bays"], true)]);
        assert_eq!(names(&kept), ["Library", "Northgate"]);
    }

    #[test]
    fn who_runs_an_item_is_chosen_by_its_name_whole_or_its_last_words() {
        let (kept, made) = keep_chosen(car_parks(), &[choice(&["run by the council"], false)]);
        assert_eq!(names(&kept), ["Market Street", "Library", "Northgate"]);
        assert_eq!(made[0].rule, Some(ChoiceRule::RunBy));
        let (kept, _) = keep_chosen(car_parks(), &[choice(&["operated by ncp"], false)]);
        assert_eq!(names(&kept), ["Hospital"]);
        let (kept, _) = keep_chosen(car_parks(), &[choice(&["council"], false)]);
        assert_eq!(kept.len(), 3);
        // A word inside a hyphenated name, or the name's first word, is no operator.
        for words in ["park", "city", "operated"] {
            let (kept, _) = keep_chosen(car_parks(), &[choice(&[words], false)]);
            assert_eq!(kept.len(), 5, "{words}");
        }
    }

    #[test]
    fn a_fee_asked_by_its_noun_is_the_fee_a_value_prints_with_its_price() {
        assert_eq!(
            value_rule("Joining fee £15", "joining fee"),
            Some(ChoiceRule::ChargedFor)
        );
        assert_eq!(
            value_rule("Joining fee £15", "joining"),
            Some(ChoiceRule::ChargedFor)
        );
        assert_eq!(value_rule("No joining fee", "joining fee"), None);
        let gyms = badged(&[
            ("Fitzroy Street", "No joining fee"),
            ("The Calls", "Joining fee £50"),
            ("Kirkgate", "Joining fee £15"),
        ]);
        let (kept, _) = keep_chosen(gyms, &[choice(&["joining fee"], true)]);
        assert_eq!(names(&kept), ["Fitzroy Street"]);
    }

    #[test]
    fn long_texts_and_numbers_are_not_values() {
        let long = "a very long description that goes on and on well past any value a person types";
        let records = rows(&[("Ada", long), ("Don", "Professor")]);
        let (kept, _) = keep_chosen(records, &[choice(&[long], false)]);
        assert_eq!(kept.len(), 2);
    }
}
