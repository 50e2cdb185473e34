//! Which storey of a building words name: a listing prints "2nd floor" or "Level 2", a person
//! asks for "floor 2", "the second floor", "level 2", "im zweiten Stock" or "au 2e étage".
//! The same storey is the same value however it is written, so an item is chosen by it
//! (`choose`'s `SameStorey`). Rules as data: the words for a storey ([`STOREY_WORDS`]) and the
//! ordinals written as words ([`ORDINAL_WORDS`]).

/// Words for a storey of a building, in the languages the lexicon reads.
const STOREY_WORDS: &[&str] = &[
    "floor",
    "level",
    "storey",
    "story",
    "stock",
    "stockwerk",
    "etage",
    "étage",
    "niveau",
    "planta",
    "piso",
];

/// Ordinals written as words, by their number, in the languages the lexicon reads.
const ORDINAL_WORDS: &[(&str, u32)] = &[
    ("first", 1),
    ("second", 2),
    ("third", 3),
    ("fourth", 4),
    ("fifth", 5),
    ("sixth", 6),
    ("seventh", 7),
    ("eighth", 8),
    ("ninth", 9),
    ("tenth", 10),
    ("erste", 1),
    ("ersten", 1),
    ("zweite", 2),
    ("zweiten", 2),
    ("dritte", 3),
    ("dritten", 3),
    ("vierte", 4),
    ("vierten", 4),
    ("fünfte", 5),
    ("fünften", 5),
    ("premier", 1),
    ("première", 1),
    ("deuxième", 2),
    ("seconde", 2),
    ("troisième", 3),
    ("quatrième", 4),
    ("cinquième", 5),
    ("primer", 1),
    ("primero", 1),
    ("primera", 1),
    ("segundo", 2),
    ("segunda", 2),
    ("tercer", 3),
    ("tercero", 3),
    ("tercera", 3),
    ("cuarto", 4),
    ("cuarta", 4),
    ("quinto", 5),
    ("quinta", 5),
];

/// Joining words that may come before a storey's words: "on the second floor", "im zweiten
/// Stock", "au 2e étage".
const BEFORE: &[&str] = &[
    "on", "the", "at", "in", "up", "im", "am", "auf", "dem", "au", "à", "le", "la", "en", "el",
];

/// The storey `text` names, when it is a storey's words alone (joining words before them
/// aside): an ordinal or a number and a word for a storey, in either order ("2nd floor",
/// "second floor", "floor 2", "Level 2", "2e étage", "2. Stock", "floor = 2nd").
pub fn storey(text: &str) -> Option<u32> {
    let lowered = text.to_lowercase();
    let words: Vec<&str> = lowered
        .split(|c: char| c.is_whitespace() || c == '=' || c == ':')
        .map(|w| w.trim_matches(|c: char| matches!(c, ',' | ';' | '?' | '!' | '(' | ')')))
        .filter(|w| !w.is_empty())
        .collect();
    let start = words.iter().position(|w| !BEFORE.contains(w))?;
    match &words[start..] {
        [number, place] | [place, number] if STOREY_WORDS.contains(place) => storey_number(number),
        _ => None,
    }
}

/// The number an ordinal or a number says: "2", "2nd", "2.", "2e", "2ème", "2º", "second",
/// "zweiten".
fn storey_number(word: &str) -> Option<u32> {
    if let Some((_, number)) = ORDINAL_WORDS.iter().find(|(ordinal, _)| *ordinal == word) {
        return Some(*number);
    }
    let digits_end = word
        .char_indices()
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(word.len(), |(at, _)| at);
    let number: u32 = word[..digits_end].parse().ok()?;
    let ending = &word[digits_end..];
    [
        "", "st", "nd", "rd", "th", ".", "e", "er", "ème", "eme", "º", "°", "o", "a", "ª",
    ]
    .contains(&ending)
    .then_some(number)
}

/// Whether a value on the page and words of a request name the same storey.
pub fn same_storey(value: &str, words: &str) -> bool {
    storey(value).is_some_and(|shown| storey(words) == Some(shown))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_storey_is_read_however_it_is_written() {
        for text in [
            "2nd floor",
            "Level 2",
            "floor 2",
            "the second floor",
            "on the 2nd floor",
            "floor = 2nd",
            "im zweiten Stock",
            "2. Stock",
            "au 2e étage",
            "2ème étage",
            "segundo piso",
            "2º piso",
        ] {
            assert_eq!(storey(text), Some(2), "{text}");
        }
        assert_eq!(storey("3rd floor"), Some(3));
        assert_eq!(storey("first floor"), Some(1));
    }

    #[test]
    fn words_that_are_more_than_a_storey_name_none() {
        for text in [
            "floor",
            "2",
            "2 floors",
            "meeting rooms on floor 2",
            "second hand",
            "floor plan",
            "in stock",
            "2nd",
            "Ground floor",
        ] {
            assert_eq!(storey(text), None, "{text}");
        }
    }

    #[test]
    fn the_same_storey_is_the_same_value() {
        assert!(same_storey("2nd floor", "level 2"));
        assert!(same_storey("Level 2", "the second floor"));
        assert!(!same_storey("2nd floor", "3rd floor"));
        assert!(!same_storey("Room 2", "floor 2"));
    }
}
