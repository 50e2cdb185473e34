//! Items chosen by words they hold, asked for in words: "posts by alicew", "stories from
//! github.com", "jobs mentioning Rust", "titles with 'HN' in them". Each becomes a
//! `data.filter … contains` on the answer, on the part of the item the rule names.
//!
//! Rules as data: an ordered table of named rules (`RULES`), the first that reads a phrase
//! wins, and the rule is named in the plan's reasoning.

use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use crate::read::role::FieldRole;

/// Items whose `role` part contains `text` (case-insensitively).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TextMatch {
    /// The part of an item that must hold the text.
    pub role: FieldRole,
    /// The text, as the user wrote it.
    pub text: String,
    /// The rule that read it.
    pub rule: &'static str,
}

const WORDS_START: &str = r"(?i)(?:^|\W)";
const WORDS_END: &str = r"(?:$|\W)";

/// The `data.filter … matches` pattern for whole words ("HN" is not in "technology").
pub fn pattern(text: &str) -> String {
    format!("{WORDS_START}{}{WORDS_END}", regex::escape(text))
}

/// The words a [`pattern`] was made of, to say them back.
pub fn words_of(pattern: &str) -> Option<String> {
    let escaped = pattern.strip_prefix(WORDS_START)?.strip_suffix(WORDS_END)?;
    let mut words = String::new();
    let mut chars = escaped.chars();
    while let Some(c) = chars.next() {
        words.push(if c == '\\' { chars.next()? } else { c });
    }
    Some(words)
}

/// A rule: its name, the pattern (`text` names the words to match), and the part of the item.
struct Rule {
    name: &'static str,
    pattern: &'static str,
    role: FieldRole,
}

/// The rules, in the order they are tried.
const RULES: &[Rule] = &[
    // "titles with 'HN' in them", "posts with "rust" in the title": quoted words in the title.
    Rule {
        name: "quoted_in_title",
        pattern: r#"\b(?i:with)\s+["“'‘](?P<text>[^"”'’]{1,60})["”'’]\s+(?i:in\s+(?:the\s+|their\s+|its\s+)?(?:title|name|headline|them|it)s?)\b"#,
        role: FieldRole::Title,
    },
    // "stories mentioning Rust", "jobs that mention 'remote'", "posts containing "SQLite"".
    Rule {
        name: "mentioning",
        pattern: r#"\b(?i:mentioning|that\s+mentions?|which\s+mentions?|containing|that\s+contains?|which\s+contains?|with\s+the\s+words?|about)\s+(?:["“'‘](?P<text>[^"”'’]{1,60})["”'’]|(?P<word>[\p{Lu}\d][\p{L}\d+#.-]{1,39}))"#,
        role: FieldRole::Title,
    },
    // "bikes made by BMW", "phones manufactured by Nokia": a maker, whom an item's name
    // names (an author is who wrote a text, a maker what made a thing).
    Rule {
        name: "made_by",
        pattern: r"\b(?i:made|built|manufactured|produced)\s+by\s+(?P<word>\p{Lu}[\p{L}\d'-]*(?:\s+\p{Lu}[\p{L}\d'-]*){0,2}\b)",
        role: FieldRole::Title,
    },
    // "posts by alicew", "stories submitted by @bkern", "courses taught by Ann Lee" (the
    // person behind an item, whatever their part: `read::role::ROLE_LINES`).
    Rule {
        name: "posted_by",
        // A capitalised name goes on past its first word ("by Bo Jensen").
        pattern: r"\b(?i:(?:posted\s+|submitted\s+|written\s+|shared\s+|authored\s+|taught\s+|hosted\s+|presented\s+|led\s+|organi[sz]ed\s+|directed\s+|narrated\s+)?by)\s+@?(?P<word>\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+){1,2}\b|[\p{L}\d_][\p{L}\d_.-]{1,39})",
        role: FieldRole::Author,
    },
    // "which recipes did Tom Hale write?", "what has Ann Lee posted": a person's name (one to
    // three capitalised words) between the question's helper verb and the making verb.
    Rule {
        name: "asked_who_made",
        pattern: r"\b(?i:did|does|has|have)\s+(?P<word>\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+){0,2})\s+(?i:write|written|post|posted|create|created|publish|published|share|shared|submit|submitted|teach|taught|cook|cooked|design|designed|make|made|illustrate|illustrated)\b",
        role: FieldRole::Author,
    },
    // "anything Ben Cole designed", "the books Ann Lee wrote": a person's full name (two or
    // three capitalised words) and the past of a making verb after it.
    Rule {
        name: "name_then_made",
        pattern: r"(?P<word>\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+){1,2})\s+(?i:wrote|has\s+written|designed|created|made|posted|published|taught|cooked|illustrated|directed)\b",
        role: FieldRole::Author,
    },
    // "everything from designer Ben Cole", "courses with instructor Ann Lee": the person's
    // part named before their full name.
    Rule {
        name: "part_then_name",
        pattern: r"\b(?i:designer|author|writer|instructor|teacher|tutor|chef|cook|director|artist|illustrator|host|presenter|organi[sz]er)\s+(?P<word>\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+){1,2})\b",
        role: FieldRole::Author,
    },
    // German, French and Spanish "by" before a person's full name: "Rezepte von Tom Hale",
    // "recettes par Ana Ruiz" (two capitalised words: "Produkte von Apple" is no person).
    Rule {
        name: "by_in_other_languages",
        pattern: r"\b(?i:von|par|por)\s+(?P<word>\p{Lu}[\p{L}'-]+\s+\p{Lu}[\p{L}'-]+)\b",
        role: FieldRole::Author,
    },
    // "Ruth Okafor's books", "Bo Jensen’s posts": a person's full name owning the items (two
    // capitalised words, so "Show Ruth Okafor's books" does not read "Show Ruth").
    Rule {
        name: "possessive_of",
        pattern: r"(?P<word>\p{Lu}[\p{L}-]+\s+\p{Lu}[\p{L}-]+)['’]s\s+\p{Ll}+s\b",
        role: FieldRole::Author,
    },
    // "events in April", "courses starting in March 2027", "cursos en abril": a month, and
    // perhaps its year, the items' date falls in (a word that is no month is refused).
    Rule {
        name: "in_month",
        pattern: r"\b(?i:in|during|en|im|durante)\s+(?P<word>\p{L}{3,10}(?:\s+\d{4})?)\b",
        role: FieldRole::Date,
    },
    // "April courses", "an October start date": a month's name, capitalised, before the
    // items ("May" only with its year: "May I have…" asks).
    Rule {
        name: "month_named",
        pattern: r"\b(?P<word>(?:January|February|March|April|June|July|August|September|October|November|December)(?:\s+\d{4})?|May\s+\d{4})\b",
        role: FieldRole::Date,
    },
    // "stories from github.com", "links from nytimes.com".
    Rule {
        name: "from_site",
        pattern: r"\b(?i:from)\s+(?P<word>(?i:(?:[a-z0-9-]+\.)+[a-z]{2,}))\b",
        role: FieldRole::Url,
    },
];

/// Words after "by" that say how, not who: "sorted by date", "by price", "by the author".
const NOT_WHO: &[&str] = &[
    "the",
    "a",
    "an",
    "each",
    "every",
    "all",
    "their",
    "its",
    "his",
    "her",
    "this",
    "that",
    "date",
    "price",
    "prices",
    "points",
    "point",
    "score",
    "scores",
    "name",
    "names",
    "title",
    "titles",
    "author",
    "authors",
    "newest",
    "oldest",
    "most",
    "highest",
    "lowest",
    "default",
    "category",
    "type",
    "page",
    "site",
    "domain",
    "hand",
    "far",
    "day",
    "week",
    "month",
    "year",
    "relevance",
    "popularity",
    "rating",
    "ratings",
    "reviews",
    "stars",
    "votes",
    "comments",
    "descending",
    "ascending",
    "recency",
    "time",
    "hour",
    "value",
    "size",
    // Measures a list is ordered by: "the biggest unit by square footage", "by area".
    "square",
    "area",
    "surface",
    "footage",
    "sqft",
    "rank",
    "cost",
    "whom",
    "who",
    "them",
    "me",
    "us",
    "you",
    "one",
    "number",
    "count",
    "length",
    "distance",
    "newness",
    "age",
    "id",
    "url",
    "link",
    "links",
    "email",
    "way",
    // Columns a list is grouped by, and "step by step", "side by side".
    "brand",
    "category",
    "city",
    "location",
    "company",
    "country",
    "region",
    "tag",
    "topic",
    "genre",
    "section",
    "step",
    "side",
    "status",
    "kind",
];

/// Words before "by" that make it an order or a grouping, not an author.
pub(super) const ORDER_WORDS: &[&str] = &[
    "sort",
    "sorted",
    "order",
    "ordered",
    "rank",
    "ranked",
    "group",
    "grouped",
    "filter",
    "filtered",
    "organize",
    "organized",
    "organise",
    "organised",
    "arranged",
    "list",
    "listed",
    "followed",
    "broken",
    "split",
    "separated",
    "divided",
];

/// Whether a rule's words say "by": only then may an order word before them make the "by" a
/// how ("list them by city"); "list everything from designer Ben Cole" names a who.
fn said_by(words: &str) -> bool {
    words
        .split_whitespace()
        .any(|w| w.eq_ignore_ascii_case("by"))
}

/// Words that are no topic: "about this page", "containing the list".
const NOT_TOPIC: &[&str] = &[
    "The", "This", "That", "It", "Each", "Every", "All", "A", "An",
];

fn compiled() -> &'static [(Regex, &'static Rule)] {
    static RES: OnceLock<Vec<(Regex, &'static Rule)>> = OnceLock::new();
    RES.get_or_init(|| {
        RULES
            .iter()
            .map(|rule| {
                #[allow(clippy::expect_used)]
                let re = Regex::new(rule.pattern).expect("valid match rule");
                (re, rule)
            })
            .collect()
    })
}

/// The text matches in a request for a list, and the request's words with them blanked out.
pub fn read(text: &str) -> (Vec<TextMatch>, String) {
    let mut found = Vec::new();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for (re, rule) in compiled() {
        for captures in re.captures_iter(text) {
            let Some(whole) = captures.get(0) else {
                continue;
            };
            if !spans
                .iter()
                .all(|(a, b)| whole.end() <= *a || whole.start() >= *b)
            {
                continue;
            }
            let quoted = captures.name("text");
            let Some(words) = quoted.or_else(|| captures.name("word")) else {
                continue;
            };
            let value = words.as_str().trim_end_matches(['.', ',', '?', '!']);
            let lower = value.to_lowercase();
            // "group the jobs by city": an order word shortly before makes "by" a how.
            let before: Vec<String> = text[..whole.start()]
                .split_whitespace()
                .rev()
                .take(3)
                .map(str::to_lowercase)
                .collect();
            let refused = match rule.role {
                FieldRole::Author => {
                    NOT_WHO.contains(&lower.as_str())
                        // "by clicking", "by using": a way, not a who ("by Irving" is one).
                        || value.starts_with(char::is_lowercase)
                            && lower.len() >= 5
                            && lower.ends_with("ing")
                        || said_by(whole.as_str())
                            && before.iter().any(|w| ORDER_WORDS.contains(&w.as_str()))
                        || super::intent::role_of(&lower).is_some()
                        // "jobs by salary", "events by venue": a column, not a who.
                        || super::intent::is_column_word(&lower)
                        // "by guest rating", "by review score": a kind of a value, not a who.
                        || value.starts_with(char::is_lowercase)
                            && text[whole.end()..]
                                .split_whitespace()
                                .next()
                                .map(|next| next.trim_end_matches([',', '.', '?', '!']))
                                .is_some_and(|next| {
                                    super::intent::role_of(&next.to_lowercase()).is_some()
                                })
                }
                FieldRole::Title => quoted.is_none() && NOT_TOPIC.contains(&value),
                FieldRole::Date => month_of(value).is_none(),
                _ => false,
            };
            if refused || value.is_empty() {
                continue;
            }
            found.push(TextMatch {
                role: rule.role,
                text: value.to_owned(),
                rule: rule.name,
            });
            spans.push((whole.start(), whole.end()));
        }
    }
    let mut rest = text.to_owned();
    for (start, end) in spans {
        rest.replace_range(start..end, &" ".repeat(end - start));
    }
    (found, rest)
}

/// The month (1–12) and the year, if given, of a month match's words ("April 2027").
fn month_of(words: &str) -> Option<(u32, Option<u32>)> {
    let mut parts = words.split_whitespace();
    let month = crate::page::dates::full_month_number(parts.next()?)?;
    let year = parts.next().and_then(|y| y.parse().ok());
    Some((month, year))
}

/// The `data.filter … matches` pattern for a date in a month: the ISO date the records engine
/// types a date column with (`2027-04-14`), or the month's English name in a date kept as
/// text ("Apr 14, 2027"); with the year when the words gave one.
pub fn month_pattern(words: &str) -> Option<String> {
    const SHORT: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let (month, year) = month_of(words)?;
    let short = SHORT.get(usize::try_from(month).ok()?.checked_sub(1)?)?;
    Some(match year {
        Some(year) => format!(
            r"(?i)^{year}-{month:02}(?:-|T|$)|\b{short}[a-z]*\.?\s+(?:\d{{1,2}}(?:st|nd|rd|th)?,?\s+)?{year}\b"
        ),
        None => format!(r"(?i)^\d{{4}}-{month:02}(?:-|T|$)|\b{short}[a-z]*\b"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(text: &str) -> Vec<(FieldRole, String, &'static str)> {
        read(text)
            .0
            .into_iter()
            .map(|m| (m.role, m.text, m.rule))
            .collect()
    }

    #[test]
    fn quoted_in_title() {
        assert_eq!(
            matches("titles with 'HN' in them"),
            [(FieldRole::Title, "HN".into(), "quoted_in_title")]
        );
    }

    #[test]
    fn mentioning() {
        assert_eq!(
            matches("stories mentioning Rust"),
            [(FieldRole::Title, "Rust".into(), "mentioning")]
        );
        assert_eq!(
            matches("jobs that mention \"remote work\""),
            [(FieldRole::Title, "remote work".into(), "mentioning")]
        );
        // A topic needs a name or quotes: "about this page" is no filter.
        assert!(matches("what is this page about").is_empty());
        assert!(matches("posts about the release").is_empty());
    }

    #[test]
    fn made_by() {
        assert_eq!(
            matches("which bikes are made by BMW?"),
            [(FieldRole::Title, "BMW".into(), "made_by")]
        );
        assert_eq!(
            matches("phones manufactured by Nokia, cheapest first"),
            [(FieldRole::Title, "Nokia".into(), "made_by")]
        );
        // A maker is a name: "made by hand" is how.
        assert!(matches("soaps made by hand").is_empty());
    }

    #[test]
    fn in_month_and_month_named() {
        assert_eq!(
            matches("which courses start in April?"),
            [(FieldRole::Date, "April".into(), "in_month")]
        );
        assert_eq!(
            matches("events during march 2027"),
            [(FieldRole::Date, "march 2027".into(), "in_month")]
        );
        assert_eq!(
            matches("cursos que empiezan en abril"),
            [(FieldRole::Date, "abril".into(), "in_month")]
        );
        assert_eq!(
            matches("show me classes with an April start date"),
            [(FieldRole::Date, "April".into(), "month_named")]
        );
        // Words that are no month, and "May" as a verb.
        for other in [
            "jobs in Berlin",
            "posts in markets",
            "May I have the prices?",
            "stories in the last hour",
        ] {
            assert!(matches(other).is_empty(), "{other}");
        }
        let april = Regex::new(&month_pattern("April").unwrap()).unwrap();
        assert!(april.is_match("2027-04-14") && april.is_match("Apr 2, 2027"));
        assert!(!april.is_match("2027-03-04") && !april.is_match("2027-05-01"));
        let dated = Regex::new(&month_pattern("April 2027").unwrap()).unwrap();
        assert!(dated.is_match("2027-04-14") && dated.is_match("April 2, 2027"));
        assert!(!dated.is_match("2026-04-14"));
    }

    #[test]
    fn a_name_before_its_making_verb_or_after_its_part() {
        let author = |name: &str, rule| vec![(FieldRole::Author, name.to_owned(), rule)];
        assert_eq!(
            matches("which games did Ben Cole design?"),
            author("Ben Cole", "asked_who_made")
        );
        assert_eq!(
            matches("anything Ben Cole designed"),
            author("Ben Cole", "name_then_made")
        );
        assert_eq!(
            matches("the books Ann Lee wrote"),
            author("Ann Lee", "name_then_made")
        );
        assert_eq!(
            matches("list everything from designer Ben Cole"),
            author("Ben Cole", "part_then_name")
        );
        assert_eq!(
            matches("courses with instructor Ann Lee"),
            author("Ann Lee", "part_then_name")
        );
        for other in [
            "Ben designed it",
            "the designer shoes",
            "the Designer Edition",
        ] {
            assert!(matches(other).is_empty(), "{other}");
        }
    }

    #[test]
    fn asked_who_made_and_by_in_other_languages() {
        assert_eq!(
            matches("Which recipes did Tom Hale write?"),
            [(FieldRole::Author, "Tom Hale".into(), "asked_who_made")]
        );
        assert_eq!(
            matches("what has Ann posted here"),
            [(FieldRole::Author, "Ann".into(), "asked_who_made")]
        );
        assert_eq!(
            matches("Rezepte von Tom Hale"),
            [(
                FieldRole::Author,
                "Tom Hale".into(),
                "by_in_other_languages"
            )]
        );
        for other in [
            "Produkte von Apple",
            "did the shop post prices?",
            "what has changed",
        ] {
            assert!(matches(other).is_empty(), "{other}");
        }
    }

    #[test]
    fn posted_by() {
        assert_eq!(
            matches("posts by alicew"),
            [(FieldRole::Author, "alicew".into(), "posted_by")]
        );
        assert_eq!(
            matches("stories submitted by @bkern"),
            [(FieldRole::Author, "bkern".into(), "posted_by")]
        );
        assert_eq!(
            matches("posts by Bo Jensen"),
            [(FieldRole::Author, "Bo Jensen".into(), "posted_by")]
        );
        assert_eq!(
            matches("articles written by Ann Lee, newest first"),
            [(FieldRole::Author, "Ann Lee".into(), "posted_by")]
        );
        assert_eq!(
            matches("courses taught by Priya Natarajan"),
            [(FieldRole::Author, "Priya Natarajan".into(), "posted_by")]
        );
        for how in [
            "stories sorted by date",
            "products by price",
            "posts by the author",
            "group the jobs by city",
            "the news, by points",
            "jobs by salary descending",
            "explain it step by step",
            "the products by brand",
            "get the jobs by using the filter",
            "best 3 spots by guest rating",
            "venues by review score",
            "the best three restaurants by reviews",
        ] {
            assert!(matches(how).is_empty(), "{how}");
        }
    }

    #[test]
    fn possessive_of() {
        assert_eq!(
            matches("Show Dana Ruiz's posts"),
            [(FieldRole::Author, "Dana Ruiz".into(), "possessive_of")]
        );
        assert_eq!(
            matches("all of Bo Jensen’s essays"),
            [(FieldRole::Author, "Bo Jensen".into(), "possessive_of")]
        );
        // One name owns no items here: a shop, or a thing that is no list.
        for other in ["Amazon's products", "Ann Lee's bio", "the page's links"] {
            assert!(matches(other).is_empty(), "{other}");
        }
    }

    #[test]
    fn patterns_match_whole_words_and_say_them_back() {
        let re = Regex::new(&pattern("HN")).unwrap();
        assert!(re.is_match("Show HN: a queue"));
        assert!(!re.is_match("boring technology"));
        assert!(
            Regex::new(&pattern("C++"))
                .unwrap()
                .is_match("Modern c++ tips")
        );
        assert_eq!(
            words_of(&pattern("C++ (2024)")).as_deref(),
            Some("C++ (2024)")
        );
    }

    #[test]
    fn from_site() {
        assert_eq!(
            matches("stories from github.com"),
            [(FieldRole::Url, "github.com".into(), "from_site")]
        );
        assert!(matches("from page 2").is_empty());
    }
}
