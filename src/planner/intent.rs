//! Reading a plain-language request: what kind of answer, how many items, which fields.

use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use super::bounds::{self, Bound};
use super::matches::{self, TextMatch};
use super::measures;
use crate::events::{
    UnderstoodBound, UnderstoodField, UnderstoodMatch, UnderstoodRequest, UnderstoodSort,
    UnderstoodValue,
};
use crate::page::dom::singular;
pub(super) use crate::page::dom::{NUMBER_WORDS, whole_number as number};
use crate::read::role::FieldRole;
use crate::tools::extract::{PAY_NAMES, ValueChoice, is_money_name};

/// What the user is asking for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Intent {
    /// Items of a repeated list (stories, products, jobs, results…).
    #[default]
    List,
    /// The main text of an article or page.
    MainContent,
    /// One product's details.
    Product,
    /// Page metadata: title, author, date, description.
    Metadata,
    /// Links on the page.
    Links {
        /// Only links to other hosts.
        external_only: bool,
        /// Only links whose URL or text contains this.
        contains: Option<String>,
    },
    /// Data tables.
    Tables,
    /// Email addresses and phone numbers.
    Contacts,
    /// Prices mentioned on the page.
    Prices,
    /// Dates mentioned on the page.
    Dates,
    /// Images.
    Images,
    /// Code blocks (examples, snippets, listings).
    Code,
    /// The page's main content as Markdown ("this page as markdown", "convert to markdown").
    Markdown,
}

impl Intent {
    /// The kind of value the request names, for requests a page may simply not answer
    /// ("email addresses" of a glossary): its items are no answer to them, so a page without
    /// any is `no_match` saying which, not the page's list.
    pub fn kind_of_value(&self) -> Option<&'static str> {
        match self {
            Intent::Contacts => Some("email address or phone number"),
            Intent::Prices => Some("price"),
            Intent::Dates => Some("date"),
            Intent::Images => Some("image"),
            Intent::Code => Some("code block"),
            Intent::Links { .. } => Some("link"),
            _ => None,
        }
    }
}

/// A field the user named, and what part of an item it means.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequestedField {
    /// The key used in the output (the user's own word).
    pub name: String,
    /// The item part: title, url, image, price, date, score, comments, author, description.
    pub role: FieldRole,
}

/// The request as understood.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Request {
    /// The kind of answer.
    pub intent: Intent,
    /// How many items ("top 10", "first five").
    pub count: Option<usize>,
    /// Fields named by the user, in the order named.
    pub fields: Vec<RequestedField>,
    /// Sort wanted: (role, descending).
    pub sort: Option<(FieldRole, bool)>,
    /// Bounds on the items' values ("under $20", "more than 100 points").
    pub bounds: Vec<Bound>,
    /// Words the items must hold ("posts by alicew", "stories from github.com").
    pub matches: Vec<TextMatch>,
    /// Words that may be a value the items are chosen by ("the professors", "in stock"): the
    /// records engine keeps those it is the whole value of, when some have it and some not.
    pub values: Vec<ValueChoice>,
    /// The user asked for every list on the page ("all the lists", "every table and list"),
    /// not only the main one.
    pub all_lists: bool,
    /// The words as the parser read them, after the lexicon.
    pub read_as: String,
    /// The title in `fields` was not named but added to name the items ("stories with
    /// points"): it is not held to account as a named field.
    pub implied_title: bool,
    /// The words ask for many things (a list noun, a count, "each", "every", "all", a sort):
    /// "title and author" alone may be the page's; "each post's title and author" is not.
    pub many: bool,
    /// The run reads each item's own page ("open each product and get its weight"; set by the
    /// run, which decides how far it reaches): a list's items keep their links to it.
    pub item_pages: bool,
    /// The value an order or a bound is by, when the words named it otherwise than its
    /// role: a pay ("which job pays the most?") or a count of reviews ("the most reviewed
    /// café"). Its column is named as the user named it (`column_name`).
    pub value_named: Option<ValueNamed>,
    /// The measure an order or a bound of the `text` role is on, named as a field ("the
    /// largest apartment" → `size`, "with at least 2 bedrooms" → `bedrooms`; `measures`).
    pub measure: Option<String>,
}

/// A value named otherwise than its role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueNamed {
    /// Money asked as a pay: a price, named `salary` ("pays the most", "jobs paying over
    /// $100,000").
    Pay,
    /// A count asked as one of reviews: a comment count, named `reviews` ("the most
    /// reviewed", "by number of reviews").
    Reviews,
    /// A count asked as one of ratings: a comment count, named `ratings` ("the most rated",
    /// "the most ratings").
    Ratings,
}

impl ValueNamed {
    /// The role the value has.
    pub const fn role(self) -> FieldRole {
        match self {
            Self::Pay => FieldRole::Price,
            Self::Reviews | Self::Ratings => FieldRole::Comments,
        }
    }

    /// The name of its column.
    pub const fn column(self) -> &'static str {
        match self {
            Self::Pay => "salary",
            Self::Reviews => "reviews",
            Self::Ratings => "ratings",
        }
    }
}

impl Request {
    /// The key of a column added for a role no field named: the role's name, or the name the
    /// words gave its value (`salary` for a pay, `reviews` for a count of reviews).
    pub fn column_name(&self, role: FieldRole) -> &'static str {
        match self.value_named {
            Some(named) if named.role() == role => named.column(),
            _ => role.as_str(),
        }
    }

    /// Whether a list's items keep their links although no link was named: the run reads the
    /// items' own pages (asked in words), or may (a named field that no item of the list shows
    /// is looked for on the first item's page, and on every item's when it is there).
    pub fn keeps_item_links(&self) -> bool {
        !self.fields.iter().any(|f| f.role == FieldRole::Url)
            && (self.item_pages || self.may_look_on_item_pages())
    }

    /// Whether a named field the list does not show may be looked for on its items' own pages:
    /// a list asked for values beyond the items' names, item pages not asked for in words.
    pub fn may_look_on_item_pages(&self) -> bool {
        // "name and SKU of each product" reads as a product's fields, of many products.
        let a_list = match self.intent {
            Intent::List => true,
            Intent::Product | Intent::Metadata => self.many,
            _ => false,
        };
        !self.item_pages
            && a_list
            && self
                .fields
                .iter()
                .any(|f| !matches!(f.role, FieldRole::Title | FieldRole::Url))
    }

    /// The parts of an item the request chooses by: each bound's, then each text match's.
    pub fn chosen_by(&self) -> impl Iterator<Item = FieldRole> + '_ {
        self.bounds
            .iter()
            .map(|b| b.role)
            .chain(self.matches.iter().map(|m| m.role))
    }

    /// The named field a bound applies to: the field of its role, or for money a named pay
    /// ("jobs with title and salary, over $90k").
    pub fn bound_field(&self, bound: &Bound) -> Option<&RequestedField> {
        self.field_of_role(bound.role)
    }

    /// The named field the order is by: the field of its role, or a named pay for a price
    /// ("jobs by salary").
    pub fn sort_field(&self) -> Option<&RequestedField> {
        self.sort.and_then(|(role, _)| self.field_of_role(role))
    }

    /// The named field of a role; a price may be named as a pay ("salary", "wage").
    fn field_of_role(&self, role: FieldRole) -> Option<&RequestedField> {
        if role == FieldRole::Text {
            let measure = self.measure.as_deref()?;
            return self.fields.iter().find(|f| f.name == measure);
        }
        self.fields.iter().find(|f| f.role == role).or_else(|| {
            self.fields.iter().find(|f| {
                role == FieldRole::Price
                    && f.role == FieldRole::Text
                    && PAY_NAMES.contains(&f.name.as_str())
            })
        })
    }

    /// The request as shown in `agent_decision` (the run adds how far it reaches).
    pub fn view(&self) -> UnderstoodRequest {
        let kind = serde_json::to_value(&self.intent)
            .ok()
            .and_then(|v| v.get("kind").and_then(|k| k.as_str()).map(str::to_owned))
            .unwrap_or_default();
        UnderstoodRequest {
            kind,
            fields: self
                .fields
                .iter()
                .map(|f| UnderstoodField {
                    name: f.name.clone(),
                    role: f.role.as_str().to_owned(),
                    implied: self.implied_title && f.role == FieldRole::Title,
                })
                .collect(),
            count: self.count,
            sort: self.sort.map(|(role, descending)| UnderstoodSort {
                // An order by a measure shows it by name ("size"), not by its role.
                by: match (role, self.sort_field()) {
                    (FieldRole::Text, Some(field)) => field.name.clone(),
                    _ => self.column_name(role).to_owned(),
                },
                descending,
            }),
            bounds: self
                .bounds
                .iter()
                .map(|b| UnderstoodBound {
                    by: self
                        .bound_field(b)
                        .map_or_else(|| self.column_name(b.role).to_owned(), |f| f.name.clone()),
                    op: b.op.as_str().to_owned(),
                    value: serde_json::Number::from_f64(b.amount)
                        .unwrap_or_else(|| serde_json::Number::from(0)),
                    since: b.since(),
                })
                .collect(),
            matches: self
                .matches
                .iter()
                .map(|m| UnderstoodMatch {
                    by: self
                        .fields
                        .iter()
                        .find(|f| f.role == m.role)
                        .map_or_else(|| m.role.as_str().to_owned(), |f| f.name.clone()),
                    contains: m.text.clone(),
                    rule: m.rule.to_owned(),
                })
                .collect(),
            values: self
                .values
                .iter()
                .filter_map(|v| {
                    Some(UnderstoodValue {
                        phrase: v.phrases.first()?.clone(),
                        negated: v.negated,
                    })
                })
                .collect(),
            many: self.many,
            all_lists: self.all_lists,
            max_pages: 1,
            target: None,
            item_pages: None,
            read_as: self.read_as.clone(),
            read_by: "heuristic".to_owned(),
        }
    }
}

/// Forms of the pay words that are no field's name: "pays the most", "best paid".
const PAY_WORD_FORMS: &[&str] = &["pays", "paid", "paying"];

/// Whether a word speaks of pay: a pay word or one of its forms.
fn is_pay_word(word: &str) -> bool {
    PAY_NAMES.contains(&word) || PAY_WORD_FORMS.contains(&word)
}

/// Words for each item role; the first is the default output key.
pub const ROLE_WORDS: &[(FieldRole, &[&str])] = &[
    (
        FieldRole::Title,
        &[
            "title",
            "titles",
            "name",
            "names",
            "headline",
            "headlines",
            "heading",
            "headings",
        ],
    ),
    (
        FieldRole::Url,
        &[
            "url",
            "urls",
            "link",
            "links",
            "href",
            "permalink",
            "permalinks",
        ],
    ),
    (
        FieldRole::Score,
        &[
            "points", "point", "score", "scores", "votes", "upvotes", "likes", "karma",
            // A shop's or a bookshop's stars are its items' score ("★ 4.6", "4.3/5").
            "rating", "ratings", "stars",
        ],
    ),
    (
        FieldRole::Price,
        &["price", "prices", "cost", "costs", "fare", "fares"],
    ),
    (
        FieldRole::Image,
        &[
            "image",
            "images",
            "photo",
            "photos",
            "thumbnail",
            "thumbnails",
            "picture",
            "pictures",
            "img",
        ],
    ),
    (
        FieldRole::Date,
        &[
            "date",
            "dates",
            "time",
            "timestamp",
            "timestamps",
            "published",
            "posted",
            "age",
            "when",
        ],
    ),
    (
        FieldRole::Author,
        &[
            "author",
            "authors",
            "by",
            "user",
            "users",
            "poster",
            "posters",
            "submitter",
            "submitters",
            "byline",
        ],
    ),
    (FieldRole::Comments, &["comments", "comment", "replies"]),
    (
        FieldRole::Description,
        &[
            "description",
            "descriptions",
            "summary",
            "summaries",
            "excerpt",
            "snippet",
            "blurb",
            // A post's or comment's own words: "posts with author, date and text".
            "text",
            "body",
            "message",
            "content",
        ],
    ),
];

pub(crate) fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '.' || c == '@'))
        .map(|w| w.trim_matches(|c: char| c == '.' || c == '-').to_owned())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The words of `text` as [`words`] splits them, in the case they were written.
fn words_as_written(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '.' || c == '@'))
        .map(|w| w.trim_matches(|c: char| c == '.' || c == '-'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Nouns for one entry of a feed or an index ("every blog post", "each article").
const ENTRY_NOUNS: &[&str] = &[
    "post", "article", "entry", "story", "reply", "comment", "message", "answer",
];

/// Reads "top 10", "first five", "3 most recent", "10 latest stories".
pub fn count(text: &str) -> Option<usize> {
    let words = words(text);
    // "Road Racer 3", "iPhone 15": a number after a capitalised word inside the request is
    // part of a name, not a count (the request's own first word may be capitalised: "Show
    // 5 jobs").
    let as_written = words_as_written(text);
    let in_a_name = |i: usize| {
        i > 1
            && as_written.len() == words.len()
            && as_written[i - 1] != "I"
            && as_written[i - 1].starts_with(|c: char| c.is_uppercase())
    };
    const LEADS: &[&str] = &[
        "top", "first", "last", "latest", "newest", "recent", "best", "highest", "lowest",
        "cheapest", "biggest", "next", "keep",
    ];
    // "the first 3 pages", "5 pages of results": a count of pages, not of items.
    let counts_pages = |at: usize| {
        words
            .get(at)
            .is_some_and(|w| matches!(w.as_str(), "page" | "pages"))
    };
    for (i, word) in words.iter().enumerate() {
        // "…, just 2", "only 3": a count after the request's other words.
        let lead = LEADS.contains(&word.as_str()) || matches!(word.as_str(), "just" | "only");
        if lead
            && let Some(n) = words.get(i + 1).and_then(|w| number(w))
            && !counts_pages(i + 2)
        {
            return Some(n).filter(|n| *n > 0);
        }
    }
    // "5 stories", "the 3 most recent", "ten products": a number before a noun or a lead word.
    for (i, word) in words.iter().enumerate() {
        let Some(n) = number(word) else { continue };
        // "one" is more often a pronoun than a count ("the one with…", "which one"), but not
        // where the request starts with it, or a request to give one, before a thing's noun:
        // "one restaurant: available tonight", "show me one book under £10".
        let one_asked = i == 0
            || matches!(
                words[i - 1].as_str(),
                "me" | "find" | "pick" | "recommend" | "suggest" | "show" | "give" | "get"
            );
        let of_one_noun = words.get(i + 1).is_some_and(|w| is_singular_noun(w));
        if word == "one" && !(one_asked && of_one_noun) || in_a_name(i) {
            continue;
        }
        let next = words.get(i + 1).map(String::as_str).unwrap_or("");
        // "with 1 bag included": a number of a thing included chooses items, counts none.
        let counts_an_included_thing = words
            .get(i + 2)
            .is_some_and(|w| crate::tools::extract::INCLUDED_WORDS.contains(&w.as_str()));
        if counts_an_included_thing {
            continue;
        }
        // "over the two days", "for 3 nights": a number of a span of time counts no items.
        if matches!(
            next,
            "minute"
                | "minutes"
                | "hour"
                | "hours"
                | "day"
                | "days"
                | "night"
                | "nights"
                | "week"
                | "weeks"
                | "month"
                | "months"
                | "year"
                | "years"
        ) {
            continue;
        }
        // "in 2024", "May 2025", "page 2": a year or a unit's number; "under 40", "more
        // than 5": a bound's amount, whatever its value names.
        let previous_is_year_or_unit = i > 0
            && (matches!(
                words[i - 1].as_str(),
                "in" | "since"
                    | "from"
                    | "page"
                    | "step"
                    | "version"
                    | "$"
                    | "£"
                    | "€"
                    | "¥"
                    | "under"
                    | "below"
                    | "over"
                    | "above"
                    | "than"
                    // "before nine", "after 6": a time of day.
                    | "before"
                    | "after"
                    | "until"
                    | "till"
            ) || super::bounds::ends_with_a_bound_lead(&words[..i])
                || crate::page::dates::month_number(&words[i - 1]).is_some());
        if !next.is_empty()
            && !previous_is_year_or_unit
            && !counts_pages(i + 1)
            && n > 0
            && n <= 10_000
            && !next.chars().all(|c| c.is_ascii_digit())
        {
            return Some(n);
        }
    }
    // "the cheapest product", "the most recent post", "the first result", and a request
    // that starts with its superlative ("cheapest shoe on the page"): one item.
    const SUPERLATIVES: &[&str] = &[
        "oldest", "earliest", "largest", "smallest", "longest", "shortest", "fastest", "slowest",
        "nearest", "closest", "greatest", "most", "least", "fewest", "worst", "biggest",
        "roomiest", "tiniest", "quickest",
    ];
    // A compound led by a superlative of value is one ("best-paid", "most-commented"); one
    // led by a word of time or place is not ("last-updated", "first-class").
    let compound = |w: &str| {
        w.split_once('-').is_some_and(|(head, _)| {
            matches!(
                head,
                "best" | "worst" | "highest" | "lowest" | "top" | "most" | "least" | "cheapest"
            )
        })
    };
    let is_superlative = |w: &str| LEADS.contains(&w) || SUPERLATIVES.contains(&w) || compound(w);
    // "which shoe is the cheapest?", "tell me what product has the most reviews": a question
    // about one thing, asked of many.
    // Any verb asks it ("which submission sparked the most comments?", "which headline drew
    // the most"), and "what" may ask it with the verb alone ("what got the most replies").
    const ASKING_VERBS: &[&str] = &[
        "is",
        "has",
        "had",
        "costs",
        "pays",
        "got",
        "gets",
        "received",
        "drew",
        "attracted",
        "scores",
    ];
    // A question's helper verb puts the superlative further on: "which book do readers like
    // least".
    const HELPER_VERBS: &[&str] = &["do", "does", "did"];
    let of_one = |noun: &str| {
        // "which one gets there fastest?": the pronoun stands for the noun.
        noun == "one"
            || is_singular_noun(noun)
            // "what are the cheapest items": a verb, not the noun asked about.
            && !ASKING_VERBS.contains(&noun)
            && !HELPER_VERBS.contains(&noun)
            && !matches!(noun, "are" | "were" | "was")
    };
    let asks_of_one = (0..words.len()).any(|i| match &words[i..] {
        // "…, which scores highest?": "which" asks it too, and "who" of people or teams
        // ("who has the most wins?").
        [asking, verb, rest @ ..]
            if matches!(asking.as_str(), "what" | "which" | "who")
                && ASKING_VERBS.contains(&verb.as_str())
                && verb != "is" =>
        {
            rest.iter().take(2).any(|w| is_superlative(w))
        }
        // "where is swimming cheapest", "where is parking cheapest": the place asked of one
        // thing's extreme is one item ("where are they cheapest" may be many).
        [asking, verb, rest @ ..]
            if asking == "where"
                && matches!(verb.as_str(), "is" | "'s")
                && rest.iter().take(3).any(|w| is_superlative(w)) =>
        {
            true
        }
        // "which available book has the most stars": one word before the noun.
        [asking, _, noun, verb, rest @ ..]
            if asking == "which"
                && of_one(noun)
                && ASKING_VERBS.contains(&verb.as_str())
                && rest.iter().take(2).any(|w| is_superlative(w)) =>
        {
            true
        }
        [asking, noun, verb, rest @ ..] => {
            matches!(asking.as_str(), "which" | "what")
                && of_one(noun)
                && (ASKING_VERBS.contains(&verb.as_str())
                    || HELPER_VERBS.contains(&verb.as_str())
                    || rest.iter().take(2).any(|w| is_superlative(w)))
                && rest.iter().any(|w| is_superlative(w))
        }
        _ => false,
    });
    // "the one with the fewest miles", "the one that pays most", "the one course with the
    // most stars": one item, asked of many.
    let the_one = words.windows(3).any(|w| {
        w[0] == "the"
            && w[1] == "one"
            && (matches!(w[2].as_str(), "with" | "that" | "which" | "having" | "who")
                || is_singular_noun(&w[2]))
    });
    if asks_of_one || the_one && words.iter().any(|w| is_superlative(w)) {
        return Some(1);
    }
    let starts = std::iter::once(None).chain(
        words
            .iter()
            .enumerate()
            .filter(|(_, w)| *w == "the")
            .map(|(i, _)| Some(i)),
    );
    for the in starts {
        let i = the.map_or(0, |i| i + 1);
        let Some(lead) = words.get(i) else {
            continue;
        };
        let superlative = is_superlative(lead);
        if !superlative {
            continue;
        }
        // "most"/"least" take an adjective before the noun: "the most expensive item"; any
        // lead may take a participle: "the best paid job", "best rated shoes" (many).
        // ("the best rating" is a noun, not a participle.)
        let participle = words.get(i + 1).is_some_and(|w| {
            w.ends_with("ed")
                || matches!(
                    w.as_str(),
                    "paid" | "paying" | "scoring" | "selling" | "earning"
                )
        });
        let noun_at = if matches!(lead.as_str(), "most" | "least") && !compound(lead) || participle
        {
            i + 2
        } else {
            i + 1
        };
        // A compound adjective may stand before the noun: "top rated in-stock title".
        let noun_at = (noun_at..words.len())
            .find(|at| !words[*at].contains('-'))
            .unwrap_or(noun_at);
        if let Some(noun) = words.get(noun_at)
            && is_singular_noun(noun)
        {
            return Some(1);
        }
    }
    // "the story with the most comments", "the job that pays best": one thing, named before
    // the extreme that chooses it.
    // A request may start with the noun: "story with most comments".
    // (Spanish "el" is read here only: "el restaurante mejor valorado"; the lexicon leaves
    // it, as names hold it: "El Paso".)
    // German "das"/"der" before a singular noun say one too: "das Rezept mit den meisten
    // Bewertungen" reads "das recipe with the most ratings".
    let named_one = |at: usize| {
        (at == 0 || matches!(words[at - 1].as_str(), "the" | "el" | "das" | "der"))
            && words.get(at).is_some_and(|w| is_singular_noun(w))
    };
    // French and Spanish put the superlative after the noun: "l'article le plus commenté"
    // reads "the article most commented", "le livre le moins bien noté" "the book worst rated".
    let one_chosen = (0..words.len().saturating_sub(1)).any(|i| {
        named_one(i)
            && (matches!(words[i + 1].as_str(), "most" | "least" | "best" | "worst")
                // "le sentier le plus rapide" reads "the trail quickest", "el gimnasio más
                // barato" "el gym cheapest".
                || SUPERLATIVES.contains(&words[i + 1].as_str())
                || matches!(words[i + 1].as_str(), "cheapest" | "highest" | "lowest")
                || matches!(words[i + 1].as_str(), "with" | "that" | "which" | "having")
                    && words[i + 2..]
                        .iter()
                        .take(3)
                        .any(|w| is_superlative(w) || w == "best"))
    });
    // "the story people commented on the most": one thing, the extreme after its clause.
    // "the restaurant guests rate highest": the extreme is the clause's last word.
    let ends_at_an_extreme = matches!(
        words
            .iter()
            .rev()
            .take(2)
            .map(String::as_str)
            .collect::<Vec<_>>()[..],
        ["most", "the"] | ["least", "the"] | ["best", "the"]
    ) || words
        .last()
        .is_some_and(|last| matches!(last.as_str(), "highest" | "lowest"));
    let one_before_its_clause = ends_at_an_extreme && words.len() > 4 && named_one(1);
    (one_chosen || one_before_its_clause).then_some(1)
}

/// Whether "table" names something the items have, not tables asked for: "the restaurant
/// with a table free tonight", "places that still have tables".
fn table_as_a_property(words: &[String]) -> bool {
    words.iter().enumerate().any(|(i, w)| {
        matches!(w.as_str(), "table" | "tables")
            && words[..i]
                .iter()
                .rev()
                .find(|w| !matches!(w.as_str(), "a" | "an" | "any" | "free" | "open" | "spare"))
                .is_some_and(|w| matches!(w.as_str(), "with" | "have" | "has" | "had"))
    })
}

/// Whether "table" is where the items asked for stand, not tables asked for: "the first three
/// teams in the table", "where are Westgate in the league table?" — items named before it,
/// or "where".
fn table_as_a_place(words: &[String]) -> bool {
    words.windows(3).enumerate().any(|(i, w)| {
        matches!(w[0].as_str(), "in" | "on" | "from" | "of")
            && w[1] == "the"
            && (w[2] == "table"
                || w[2] == "league" && words.get(i + 3).is_some_and(|t| t == "table"))
            && words[..i].iter().any(|before| {
                before == "where"
                    || before.len() > 3 && before.ends_with('s') && !before.ends_with("ss")
            })
    })
}

/// Whether a word may be one thing's noun ("shoe", "post"; not "shoes", "of", "first").
fn is_singular_noun(word: &str) -> bool {
    word.chars().all(char::is_alphabetic)
        && (!word.ends_with('s') || word.ends_with("ss"))
        && !matches!(
            word,
            "of" | "and"
                | "one"
                | "to"
                | "in"
                | "on"
                | "by"
                | "first"
                | "the"
                | "a"
                | "is"
                | "page"
        )
}

/// Reads the fields the user named, in order, from both the instructions and the output instructions.
pub fn fields(instructions: &str, output_instructions: Option<&str>) -> Vec<RequestedField> {
    let mut out: Vec<RequestedField> = Vec::new();
    // Explicit columns win and keep their exact names: "columns: title, url, points".
    if let Some(columns) = output_instructions.and_then(explicit_columns) {
        for column in columns {
            let role = role_of(&column.to_lowercase()).unwrap_or(FieldRole::Text);
            if !out.iter().any(|f| f.name == column) {
                out.push(RequestedField { name: column, role });
            }
        }
        return out;
    }
    let text = format!("{instructions} {}", output_instructions.unwrap_or_default());
    // Each sentence names fields from its own cue: in "who posted the top 3 stories? include
    // the titles" the question asks for the author before the second sentence's "include".
    let mut adds_to_items = false;
    for sentence in text.split(['?', '!', ';']) {
        adds_to_items |= sentence_fields(&words(sentence), &mut out);
    }
    let mut out = with_free_names(out, &text);
    // Values named in a clause of their own are fields too, added to the items' title when
    // nothing else was read ("the colour of every bike").
    if output_instructions.is_none() {
        let named: Vec<String> = clauses(instructions)
            .iter()
            .flat_map(|clause| free_names(clause))
            .filter(|name| {
                !out.iter()
                    .any(|f| f.name == *name || column_words(&f.name).contains(name))
            })
            .collect();
        if !named.is_empty() && out.is_empty() {
            out.push(title_field());
        }
        for name in named {
            if !out.iter().any(|f| f.name == name) {
                out.push(RequestedField {
                    name,
                    role: FieldRole::Text,
                });
            }
        }
    }
    if adds_to_items && !out.is_empty() && !out.iter().any(|f| f.role == FieldRole::Title) {
        out.insert(0, title_named_in(&words(&text)));
    }
    out
}

/// Words that ask for more than one value, or for none: "the details of each car", "the
/// cheapest of all bikes", "the number of each room", "one of each".
const NOT_FREE_NAMES: &[&str] = &[
    "details",
    "detail",
    "info",
    "information",
    "everything",
    "specs",
    "spec",
    "data",
    "all",
    "one",
    "any",
    "some",
    "rest",
    "top",
    "first",
    "last",
    "best",
    "worst",
    "number",
    "list",
    "name",
    "names",
    "most",
    "least",
    "more",
    "less",
    "each",
    "every",
    // Words that join two names ("fuel and transmission of each car" names two fields).
    "and",
    "or",
    "plus",
    "with",
];

/// The clauses of a request, each read on its own for the values it names: its sentences
/// (ended by "?", "!", ";", or a "." before a space or the end — "Coach no.5" and "4.5" go
/// on) and the add-ons after a comma ("…, with the coach number"): "How long does each coach
/// take? Include the coach number." names a value in each sentence.
fn clauses(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut current = String::new();
    for (at, &c) in chars.iter().enumerate() {
        let next = chars.get(at + 1);
        let ends =
            matches!(c, '?' | '!' | ';') || c == '.' && next.is_none_or(|n| n.is_whitespace());
        if ends {
            out.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    out.push(current);
    const ADD_ONS: &[&str] = &[", with the ", ", with its ", ", with their ", ", plus "];
    out.iter()
        .flat_map(|sentence| {
            let lower = sentence.trim().to_lowercase().replace('’', "'");
            let mut parts = vec![lower.clone()];
            if let Some(at) = ADD_ONS.iter().filter_map(|a| lower.find(a)).min() {
                parts = vec![lower[..at].to_owned(), lower[at + 2..].to_owned()];
            }
            parts
        })
        .filter(|c| !c.trim().is_empty())
        .collect()
}

/// Values no role word names, asked of every item and nothing else, in one clause: "the
/// colour of every bike", "each coach's duration and stops", "the VAT number for all shops",
/// "include the coach number". Their names, as columns are named. Each word of a name must be
/// no role, no order ("-est"), no count and no list; "serial number", "coach number": a number
/// named by what it is of.
fn free_names(clause: &str) -> Vec<String> {
    static FRAMES: OnceLock<[Regex; 4]> = OnceLock::new();
    let frames = FRAMES.get_or_init(|| {
        let names = r"(?P<names>[a-z][a-z-]*(?:(?:\s+|\s*,\s*|\s+and\s+)[a-z][a-z-]*){0,8})";
        let verb = r"(?:(?:please\s+)?(?:give\s+me|get|list|show(?:\s+me)?|find|tell\s+me|what\s+is|what's|what\s+are|extract|scrape|pull|collect|i\s+want|i\s+need)\s+)?";
        // "…, please": a courtesy after the request ends it as well as a full stop.
        let end = r"(?:,?\s+please)?\s*[?.!]?$";
        #[allow(clippy::expect_used)] // constant patterns
        let compile = |p: String| Regex::new(&p).expect("valid free-name frame");
        [
            compile(format!(
                r"^{verb}(?:the\s+)?{names}\s+(?:of|for)\s+(?:each|every|all(?:\s+the)?)\s+(?P<noun>[a-z]+){end}"
            )),
            compile(format!(r"^{verb}(?:each|every)\s+(?P<noun>[a-z]+)'s\s+{names}{end}")),
            // "for each recipe, give me the wine pairing": the items first, then the value.
            compile(format!(
                r"^for\s+(?:each|every|all(?:\s+the)?)\s+(?P<noun>[a-z]+),?\s+{verb}(?:the\s+|its\s+|their\s+)?{names}{end}"
            )),
            // "Include the coach number.", "…, with the fare": a value added to the items
            // asked for before ("with" only before "the", "its" or "their": "with a guide"
            // chooses items).
            compile(format!(
                r"^(?:please\s+)?(?:also\s+)?(?:(?:include|add|plus)\s+(?:the\s+|its\s+|their\s+)?|with\s+(?:the|its|their)\s+){names}(?:\s+too|\s+as\s+well)?{end}"
            )),
        ]
    });
    let Some(caps) = frames
        .iter()
        .find_map(|frame| frame.captures(clause.trim()))
    else {
        return Vec::new();
    };
    // The word after "each" names the items, whatever they are, but not a part of a page.
    if let Some(noun) = caps.name("noun").map(|n| singular(n.as_str()))
        && (role_of(&noun).is_some()
            || matches!(
                noun.as_str(),
                "page"
                    | "section"
                    | "paragraph"
                    | "table"
                    | "row"
                    | "column"
                    | "list"
                    | "link"
                    | "image"
            ))
    {
        return Vec::new();
    }
    let plain = |w: &str| {
        !NOT_FREE_NAMES.contains(&w)
            && role_of(w).is_none()
            && !is_no_measure(w)
            && !w.ends_with("est")
            && number(w).is_none()
            && !LIST_NOUNS.contains(&w)
    };
    let names: Vec<String> = caps["names"]
        .split(',')
        .flat_map(|part| part.split(" and "))
        .map(|part| {
            part.split_whitespace()
                .skip_while(|w| matches!(*w, "the" | "its" | "their"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let named = |name: &String| {
        let words: Vec<&str> = name.split(' ').collect();
        let named_number = words.len() == 2 && words[1] == "number";
        // "coach number": the number of the items themselves is a value of theirs.
        if named_number && is_item_noun(words[0]) {
            return true;
        }
        let own = &words[..words.len() - usize::from(named_number)];
        !name.is_empty() && words.len() <= 3 && own.iter().all(|w| plain(w))
    };
    if names.iter().all(named) {
        names
    } else {
        Vec::new()
    }
}

/// A word that names one kind of value ("the SKU of each product", "how heavy" → "weight") is
/// a field of a list, a product or a record wherever it stands, list or not; not after
/// "about" ("an article about salary talks"). Whether one was added.
fn value_fields(words: &[String], out: &mut Vec<RequestedField>) -> bool {
    let mut added = false;
    for (at, word) in words.iter().enumerate() {
        let name = singular(word);
        let topic = at
            .checked_sub(1)
            .is_some_and(|i| matches!(words[i].as_str(), "about" | "regarding" | "concerning"));
        if VALUE_WORDS.contains(&name.as_str())
            && !topic
            && !out
                .iter()
                .any(|f| f.name == name || column_words(&f.name).contains(&name))
        {
            out.push(RequestedField {
                name,
                role: FieldRole::Text,
            });
            added = true;
        }
    }
    added
}

/// Words that name one kind of value a page labels, never the items or a place on the page:
/// named anywhere in a request for a list, a product or a record, they are a field of it.
const VALUE_WORDS: &[&str] = &[
    "sku", "gtin", "mpn", "ean", "isbn", "weight", "material", "salary",
];

/// The fields one sentence names (added to `out`, one per role), and whether it adds them to
/// the items ("stories with points": the items' titles come first).
fn sentence_fields(words: &[String], out: &mut Vec<RequestedField>) -> bool {
    // Only read fields after a "with"/"including"/":" cue, or from a list of role words, so
    // "all links" or "the title of the page" are not mistaken for a field list.
    let cue = words.iter().position(|w| {
        matches!(
            w.as_str(),
            "with"
                | "including"
                | "include"
                | "showing"
                | "fields"
                | "columns"
                | "each"
                | "their"
                | "and"
        )
    });
    let mut start = cue.unwrap_or(0);
    // "title, url and points": the fields listed before a joining "and" count too.
    // "the headline, the byline and the date": a joining "and" lists fields on both sides.
    // "the price of each product", "the author each story had": the fields come before
    // "each", which names the items.
    if cue.is_some_and(|i| words[i] == "and" || words[i] == "each" && i > 0) {
        start = 0;
    }
    for (at, word) in words.iter().enumerate().skip(start) {
        if word == "by" && cue.is_none() {
            continue;
        }
        if let Some(role) = role_of(word) {
            if role == FieldRole::Author && word == "by" {
                continue; // "sorted by", "posted by" are not requests for an author field
            }
            // "list the replies: author, date", "show all comments with …": the comments
            // asked for are the items, not a count of each item's comments.
            if role == FieldRole::Comments && names_the_items(words, at) {
                continue;
            }
            // "alt text", "link text", "anchor text" belong to the image or link asked for.
            if word == "text"
                && at
                    .checked_sub(1)
                    .is_some_and(|i| matches!(words[i].as_str(), "alt" | "link" | "anchor"))
            {
                continue;
            }
            // "publish date", "release date": the user's two words name the field.
            let qualifier = at
                .checked_sub(1)
                .map(|i| words[i].as_str())
                .filter(|w| role == FieldRole::Date && DATE_QUALIFIERS.contains(w));
            let name = match qualifier {
                Some(q) => format!("{q}_{}", canonical_name(role, word)),
                None => canonical_name(role, word),
            };
            // One field a role, but two qualified dates are two ("start time and end time").
            if !out
                .iter()
                .any(|f| f.role == role && (qualifier.is_none() || f.name == name))
            {
                out.push(RequestedField { name, role });
            }
        }
    }
    // "stories with points", "products including price": the items themselves come first,
    // named by their title, and the fields after "with" are added to them.
    cue.is_some_and(|i| {
        i > 0
            && matches!(
                words[i].as_str(),
                "with" | "including" | "include" | "showing"
            )
    })
}

/// Whether a word is a noun of items, in the singular or the plural ("class", "flights").
pub(super) fn is_item_noun(word: &str) -> bool {
    ITEM_NOUNS.contains(&word) || ITEM_NOUNS.contains(&singular(word).as_str())
}

/// Whether a word is no measure the items have: it names one of their roles ("points"), the
/// items themselves or the pages they are on ("over 20 pages", "up to 200 jobs").
pub(super) fn is_no_measure(word: &str) -> bool {
    let one = singular(word);
    role_of(word).is_some()
        || LIST_NOUNS.contains(&word)
        || ITEM_NOUNS.contains(&word)
        || ITEM_NOUNS.contains(&one.as_str())
        || matches!(
            one.as_str(),
            "page" | "result" | "item" | "entry" | "row" | "record"
        )
}

/// Whether the word at `at` is the object of the request's verb ("list the replies", "show
/// me all comments"; "comments count for each story" names a count).
fn names_the_items(words: &[String], at: usize) -> bool {
    let before = words[..at]
        .iter()
        .rev()
        .find(|w| !matches!(w.as_str(), "the" | "all" | "every" | "me" | "us"));
    before.is_some_and(|w| LISTING_VERBS.contains(&w.as_str()))
        && !words
            .get(at + 1)
            .is_some_and(|w| matches!(w.as_str(), "count" | "counts" | "number"))
}

/// Verbs whose object is what the request lists.
const LISTING_VERBS: &[&str] = &[
    "list", "show", "get", "give", "extract", "scrape", "dump", "find", "fetch", "return",
    "collect", "grab",
];

/// Plurals that name parts of a page or of one thing, not a list's items ("get the details").
const PAGE_PART_PLURALS: &[&str] = &[
    "details",
    "contents",
    "specs",
    "specifications",
    "tables",
    "headings",
    "steps",
    "paragraphs",
    "sections",
    "words",
    "numbers",
    "emails",
    "addresses",
    "contacts",
    "phones",
    "instructions",
    "metadata",
    "tags",
    "ingredients",
];

/// Whether a listing verb's object is a noun in the plural ("list the novels", "show me all
/// the films"): the items of a list, whatever the noun.
fn lists_a_plural(words: &[String]) -> bool {
    words.iter().enumerate().any(|(i, verb)| {
        LISTING_VERBS.contains(&verb.as_str())
            && words[i + 1..]
                .iter()
                .find(|w| !matches!(w.as_str(), "the" | "all" | "every" | "me" | "us" | "of"))
                .is_some_and(|noun| {
                    noun.len() > 3
                        && noun.chars().all(char::is_alphabetic)
                        && noun.ends_with('s')
                        && !noun.ends_with("ss")
                        && role_of(noun).is_none()
                        && !PAGE_PART_PLURALS.contains(&noun.as_str())
                        // Words ending in "s" that are no plural: "get this as md".
                        && !matches!(
                            noun.as_str(),
                            "this" | "thus" | "hers" | "ours" | "yours" | "theirs" | "plus" | "does"
                        )
                })
    })
}

/// Words of a contact detail, and of what holds one, that name no item: "all the phone
/// numbers", "every email on this page", "each of them".
const NO_ITEM_AFTER_EACH: &[&str] = &[
    "phone",
    "phones",
    "number",
    "numbers",
    "telephone",
    "email",
    "emails",
    "e-mail",
    "e-mails",
    "address",
    "addresses",
    "contact",
    "contacts",
    "detail",
    "details",
    "page",
    "pages",
    "site",
    "website",
    "them",
    "these",
    "those",
    "this",
    "it",
];

/// Whether "every", "each" or "all" names items: "every pharmacy", "all the shops"; not "all
/// the phone numbers", "each of them".
fn each_item_named(words: &[String]) -> bool {
    words.iter().enumerate().any(|(i, w)| {
        matches!(w.as_str(), "every" | "each" | "all")
            && words[i + 1..]
                .iter()
                .find(|w| !matches!(w.as_str(), "the" | "of"))
                .is_some_and(|noun| {
                    noun.chars().all(char::is_alphabetic)
                        && !NO_ITEM_AFTER_EACH.contains(&noun.as_str())
                })
    })
}

/// The items' title, named by the user's word for it where they wrote one ("the names along
/// with …" → `name`).
fn title_named_in(words: &[String]) -> RequestedField {
    words
        .iter()
        .find(|w| role_of(w) == Some(FieldRole::Title))
        .map_or_else(title_field, |w| RequestedField {
            name: canonical_name(FieldRole::Title, w),
            role: FieldRole::Title,
        })
}

fn title_field() -> RequestedField {
    RequestedField {
        name: "title".into(),
        role: FieldRole::Title,
    }
}

/// Words that end a list of field names: what follows says where or how, not which field.
const LIST_ENDS: &[&str] = &[
    " of each",
    " of every",
    " of all",
    " for all",
    " of the",
    " of this",
    " of it",
    " for this",
    " for each",
    " for every",
    " for the ",
    " from ",
    " on this",
    " on the",
    " in this",
    " in the",
    " per ",
    " please",
    " where ",
    " if ",
];

/// Words a field name may start with that are not part of it (the articles of the other
/// languages the lexicon reads too: "el modelo").
const NAME_LEADS: &[&str] = &[
    "el",
    "la",
    "le",
    "les",
    "los",
    "las",
    "der",
    "die",
    "das",
    "keep",
    "they",
    "it",
    "what",
    "is",
    "are",
    "the",
    "their",
    "its",
    "his",
    "her",
    "each",
    "every",
    "a",
    "an",
    "job",
    "item's",
    "plus",
    "and",
    "also",
    "just",
    "note",
    "get",
    "grab",
    "collect",
    "read",
    "find",
    "give",
    "list",
    "show",
    "extract",
    "me",
    "tell",
    "scrape",
    "what's",
    "whats",
    "this",
    "product's",
    "i",
    "need",
    "want",
    "like",
    "i'd",
];

/// Question words name no field ("where" in a list of fields is read as "location" before
/// this list is consulted). Order words ("lowest first") and list nouns ("top three posts") say which items, not
/// which field.
const NOT_NAMES: &[&str] = &[
    "where", "who", "what", "how", "why", "which", "etc", "first", "last", "top", "lowest",
    "highest", "open", "visit", "follow", "click",
];

/// The field list of a request, with names no role word means kept as fields of their own
/// ("title, company, location and salary": `company`, `location`, `salary` are columns the
/// records engine finds by label). A list counts when it has two parts or more and either a
/// role word or three parts; each part is at most three words.
fn with_free_names(roles: Vec<RequestedField>, text: &str) -> Vec<RequestedField> {
    let Some(parts) = name_list(text) else {
        return roles;
    };
    // A part that is the items' own noun, in the singular or the plural ("product / price",
    // "the item and what it costs", "cars and their prices") names the items: their title.
    // So does the noun after "each" or "every", whatever it is, before "and" or "with" adds
    // a value to it ("each pool and its phone number"; not "every record of each").
    let words_said = words(text);
    let each_noun: Option<String> = words_said.windows(3).find_map(|said| {
        (matches!(said[0].as_str(), "each" | "every") && matches!(said[2].as_str(), "and" | "with"))
            .then(|| singular(&said[1]))
    });
    let role_of_part = |part: &str| {
        part.split(' ')
            .rev()
            .find_map(role_of)
            .or_else(|| is_item_noun(part).then_some(FieldRole::Title))
            .or_else(|| {
                each_noun
                    .as_deref()
                    .is_some_and(|noun| singular(part) == noun)
                    .then_some(FieldRole::Title)
            })
    };
    // Words every page of a kind labels ("sku", "salary", "city") list fields as a role
    // word does: "sku and weight" is a list of two fields. The items' noun in the plural
    // makes no list alone ("Ladestationen, die rund um die Uhr geöffnet sind").
    let a_plural_noun = |part: &str| is_item_noun(part) && !ITEM_NOUNS.contains(&part);
    let has_role = parts
        .iter()
        .any(|p| role_of_part(p).is_some() && !a_plural_noun(p) || is_column_word(p));
    let free = parts.iter().filter(|p| role_of_part(p).is_none()).count();
    let names_items = parts.iter().any(|p| {
        ITEM_NOUNS.contains(&p.as_str()) && !roles.iter().any(|f| f.role == FieldRole::Title)
    });
    // One labelled word after "with" is a field too: "job openings with their salaries".
    let one_column = parts.len() == 1 && is_column_word(&parts[0]);
    // A role the sentence's cues missed is still named ("title / by": the author).
    let all_read = parts
        .iter()
        .all(|p| role_of_part(p).is_some_and(|role| roles.iter().any(|f| f.role == role)));
    if free == 0 && !names_items && all_read
        || !one_column && (parts.len() < 2 || !(has_role || parts.len() >= 3))
    {
        return roles;
    }
    let mut remaining = roles;
    let mut out = Vec::new();
    for part in &parts {
        match role_of_part(part) {
            Some(role) => {
                if let Some(at) = remaining.iter().position(|f| f.role == role) {
                    out.push(remaining.remove(at));
                } else if role == FieldRole::Title && !out.iter().any(|f| f.role == role) {
                    out.push(title_field());
                } else if !out.iter().any(|f| f.role == role)
                    && let Some(word) = part.split(' ').rev().find(|w| role_of(w) == Some(role))
                {
                    out.push(RequestedField {
                        name: canonical_name(role, word),
                        role,
                    });
                }
            }
            None => {
                if !out.iter().any(|f: &RequestedField| f.name == *part) {
                    out.push(RequestedField {
                        name: part.clone(),
                        role: FieldRole::Text,
                    });
                }
            }
        }
    }
    out.extend(remaining);
    out
}

/// A list with the words that say where or how ([`LIST_ENDS`]) left out: each such phrase
/// ends its part, up to the next separator, and the list goes on after it ("each job on this
/// page and the location" lists the job and the location).
fn without_qualifiers(list: &str) -> String {
    let mut list = list.to_owned();
    while let Some(at) = LIST_ENDS.iter().filter_map(|e| list.find(e)).min() {
        let next = [",", "/", "+", "&", " and ", " plus "]
            .iter()
            .filter_map(|sep| list[at + 1..].find(sep).map(|i| at + 1 + i))
            .min();
        match next {
            Some(end) => list.replace_range(at..end, ""),
            None => list.truncate(at),
        }
    }
    list
}

/// The parts of the last list in the text: after a ":" / "with" / "—" cue when there is
/// one, split at commas, "and", "/", "+", cut where the list ends.
fn name_list(text: &str) -> Option<Vec<String>> {
    let lower = text.to_lowercase().replace(['(', ')'], ",");
    // The last sentence that lists: "what jobs are listed? I want the title, …".
    // Lists are written with commas, "and", or slashes between words ("title / company",
    // "title/author"); the slashes of a URL or a path ("/blog/") list nothing.
    let slashed = |s: &str| {
        !s.contains("://")
            && (s.contains(" / ")
                || s.as_bytes().windows(3).any(|w| {
                    w[1] == b'/' && w[0].is_ascii_alphabetic() && w[2].is_ascii_alphabetic()
                }))
    };
    let sentence = lower.rsplit(['?', '!', ';']).find(|s| {
        s.contains(',')
            || s.contains('+')
            || s.contains('|')
            || [" and ", " plus ", " with "].iter().any(|w| s.contains(w))
            || slashed(s)
    })?;
    let cue = [
        ":",
        " with ",
        " including ",
        " include ",
        " — ",
        " - ",
        " want ",
    ]
    .iter()
    .filter_map(|cue| sentence.rfind(cue).map(|i| (i, i + cue.len())))
    .max_by_key(|(_, end)| *end);
    let start = cue.map_or(0, |(_, end)| end);
    let parts = list_parts(&sentence[start..])?;
    // "name, sku, weight — all of them": a dash closing the list leaves nothing after it.
    match cue {
        Some((at, _)) if parts.is_empty() && sentence[..at].contains(',') => {
            list_parts(&sentence[..at])
        }
        _ => Some(parts),
    }
}

/// The field names of one list's text, split at commas, "and", "/", "+", "&", "|".
fn list_parts(text: &str) -> Option<Vec<String>> {
    let list = without_qualifiers(text);
    let mut parts = Vec::new();
    for raw in list
        .split([',', '/', '+', '&', '|'])
        .flat_map(|p| p.split(" and "))
        .flat_map(|p| p.split(" plus "))
    {
        let mut words: Vec<&str> = raw
            .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-' || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        // "list the films and who directed them": a listing verb's plural object is the items,
        // named by their title.
        // (Nouns of lists and records are the request's own: "get all the lists, every
        // record of each".)
        if lists_a_plural(&words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>())
            && words.len() <= 4
            && !words
                .iter()
                .any(|w| LIST_NOUNS.contains(w) || matches!(*w, "lists" | "records" | "rows"))
        {
            parts.push(FieldRole::Title.as_str().to_owned());
            continue;
        }
        // Leads, and a possessive before the field ("this tool's sku", "each story's title").
        while words
            .first()
            .is_some_and(|w| NAME_LEADS.contains(w) || w.ends_with("'s") && words.len() > 1)
        {
            words.remove(0);
        }
        // A question's object after its field ("who directed it" reads "the director it").
        while words.len() > 1 && words.last().is_some_and(|w| matches!(*w, "it" | "them")) {
            words.pop();
        }
        // "for each tool, …": the items, not a field of them; what follows them is read on
        // ("for all classes give me the class code, …").
        if words.len() > 1 && words[0] == "for" && matches!(words[1], "each" | "every" | "all") {
            if words.len() <= 3 {
                continue;
            }
            words.drain(..3);
        }
        // "… and keep 3": a count, not a field; "most-commented 3 submissions + poster": a
        // part with a count names the items asked for, not one of their fields.
        if words.is_empty() || words.iter().any(|w| number(w).is_some()) {
            continue;
        }
        // In a list of fields, "where" is the item's place ("title, company, where, and
        // salary"), as "when" is its date.
        if words == ["where"] {
            parts.push("location".to_owned());
            continue;
        }
        let part = words.join(" ");
        // "the best-paid job and its title", "job with the best pay": an order by a value
        // names the items it chooses, not a field of them ("latest version", an order in
        // time, may still be one).
        if sort(&part).is_some_and(|(role, _)| role != FieldRole::Date) {
            continue;
        }
        if words.len() > 3 {
            // A long part names a field only through a role word in it ("I want the title"),
            // or as the few words after its last article ("for all classes give me the class
            // code": the request's verb and items, then the field).
            if words.iter().any(|w| role_of(w).is_some()) {
                parts.push(part);
                continue;
            }
            let after_article = words
                .iter()
                .rposition(|w| matches!(*w, "the" | "its" | "their"))
                .map(|at| &words[at + 1..]);
            match after_article {
                Some(named @ [_, ..])
                    if named.len() <= 2
                        && !named
                            .iter()
                            .any(|w| NOT_NAMES.contains(w) || LIST_NOUNS.contains(w)) =>
                {
                    parts.push(named.join(" "));
                    continue;
                }
                _ => return None,
            }
        }
        if words
            .iter()
            .any(|w| NOT_NAMES.contains(w) || LIST_NOUNS.contains(w))
        {
            continue;
        }
        parts.push(part);
    }
    Some(parts)
}

/// Names a column goes by on pages, grouped: a free field named by one of them ("location")
/// is answered by a column labelled with another ("city"). Each group is one meaning.
pub const COLUMN_SYNONYMS: &[&[&str]] = &[
    &[
        "location", "city", "place", "town", "where", "venue", "region", "county", "province",
        "district",
    ],
    &[
        "company",
        "employer",
        "organisation",
        "organization",
        "firm",
    ],
    &["salary", "pay", "wage", "wages", "compensation"],
    // The chain a shop, a gym or a hotel belongs to, as comparison sites print it.
    &["brand", "chain"],
    &["role", "position", "job"],
    &["country", "nation"],
    // Who teaches a course or a class, and how long and how hard it is.
    &[
        "instructor",
        "teacher",
        "tutor",
        "lecturer",
        "trainer",
        "taught by",
    ],
    &["duration", "length", "how long"],
    &[
        "level",
        "difficulty",
        "skill level",
        "difficulty level",
        "grade",
    ],
    &[
        "phone",
        "telephone",
        "tel",
        "phone number",
        "telephone number",
    ],
    &["weight", "mass"],
    // A car's specs as people name them and listings print them ("Transmission: Manual").
    &["transmission", "gearbox", "gears", "transmission type"],
    &["fuel", "fuel type", "engine type"],
    // A person's birth, as tables of people label it.
    &[
        "born",
        "birth year",
        "year of birth",
        "year born",
        "date of birth",
        "birth date",
        "birthdate",
        "birthday",
    ],
    &[
        "birth place",
        "birthplace",
        "place of birth",
        "born in",
        "hometown",
    ],
    // A team's games won, as a league table heads them ("W", "Won").
    &["wins", "won", "victories", "games won"],
];

/// The items' own nouns, singular: named in a list of fields, they stand for the items'
/// title ("product / price").
const ITEM_NOUNS: &[&str] = &[
    "item",
    "product",
    "thing",
    "story",
    "post",
    "submission",
    "article",
    "job",
    "event",
    "entry",
    "listing",
    "position",
    "opening",
    "vacancy",
    "restaurant",
    "cafe",
    "car",
    "vehicle",
    // What a school or a catalogue of classes lists.
    "course",
    "class",
    "lesson",
    "workshop",
    // What an events agenda lists, whatever their format.
    "session",
    "talk",
    "seminar",
    "lecture",
    // What a cookery site lists.
    "recipe",
    "dish",
    "meal",
    // What a walking or cycling guide lists.
    "trail",
    "walk",
    "hike",
    "route",
    // What a tourist board lists.
    "tour",
    "trip",
    "excursion",
    // A made thing's model is its name on a list of them (cars, phones): "model, price".
    "model",
    // What a timetable lists ("departure" is a time of each).
    "coach",
    "bus",
    "buses",
    "train",
    "flight",
    "ferry",
    // What a landlord or a storage site lets.
    "unit",
    // What a map of chargers (or of any stations) lists.
    "station",
    "charger",
    // What a city's parking page lists.
    "carpark",
    // What a comparison of gyms lists ("gyms": the singular is too short to read off).
    "gym",
    "gyms",
    // Who a practice's staff are.
    "doctor",
    "clinician",
    "practitioner",
    // What a comparison of contracts lists (phone, broadband, energy): "plan, price".
    "plan",
    "deal",
    "sim",
];

/// Whether a free name is one of [`COLUMN_SYNONYMS`] or a product's identifier: a word
/// pages label values with.
pub(super) fn is_column_word(name: &str) -> bool {
    COLUMN_SYNONYMS.iter().any(|group| group.contains(&name))
        || is_an_items_code(name)
        || matches!(
            name,
            "sku"
                | "gtin"
                | "mpn"
                | "ean"
                | "brand"
                | "availability"
                | "material"
                | "colour"
                | "color"
                | "size"
                | "dimensions"
                | "measurements"
                | "rating"
                // Who gives a talk at an event.
                | "speaker"
                // A journey's times of day (`tools::extract::columns`, rule
                // `start_then_end`).
                | "departure"
                | "arrival"
                // Who runs a place or a service ("Operated by Q-Park").
                | "operator"
                | "operators"
        )
        || MAKER_NAMES.contains(&name)
}

/// Whether a name is an item's code ("class code", "booking code", "zip code"): a noun of
/// what the code stands for before "code", not the page's code ("source code", "python code",
/// which `Intent::Code` reads).
fn is_an_items_code(name: &str) -> bool {
    name.strip_suffix(" code")
        .or_else(|| name.strip_suffix(" codes"))
        .is_some_and(|owner| CODE_OWNERS.contains(&owner))
}

/// What an item's code stands for, as a request names it before "code".
const CODE_OWNERS: &[&str] = &[
    "class",
    "course",
    "booking",
    "reference",
    "product",
    "item",
    "flight",
    "promo",
    "discount",
    "voucher",
    "coupon",
    "zip",
    "postal",
    "post",
    "area",
    "country",
    "airport",
    "station",
    "stock",
    "article",
    "model",
    "order",
    "room",
    "module",
    "unit",
];

/// Who made a thing, as pages label them ("Director: …") and as the lexicon reads a question
/// for them ("who directed it" → "the director").
const MAKER_NAMES: &[&str] = &[
    "director",
    "producer",
    "publisher",
    "designer",
    "developer",
    "editor",
    "composer",
    "illustrator",
    "translator",
    "narrator",
    "organiser",
    "organizer",
    // Who leads an item: "who's the guide" of a tour, "the host" of an event.
    "guide",
    "host",
    "teacher",
];

/// Whether a free field name names a kind of value with a shape of its own (a SKU, a weight,
/// a salary), which an item's whole text never is. A place may be: "Rust engineer Berlin".
pub fn names_a_value(name: &str) -> bool {
    VALUE_WORDS.contains(&name.to_lowercase().as_str())
}

/// The other names of a free field's column (its synonyms group, itself left out). A name
/// no group holds is known by its last word's group: "fitness level" is a level.
pub fn column_words(name: &str) -> Vec<String> {
    let name = name.to_lowercase();
    let head = name.rsplit(' ').next().unwrap_or_default();
    COLUMN_SYNONYMS
        .iter()
        .find(|group| group.contains(&name.as_str()))
        .or_else(|| COLUMN_SYNONYMS.iter().find(|group| group.contains(&head)))
        .map(|group| {
            group
                .iter()
                .filter(|w| **w != name)
                .map(|w| (*w).to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Nouns that name the items of a list ("stories", "products", "jobs").
const LIST_NOUNS: &[&str] = &[
    "stories",
    "items",
    "products",
    "posts",
    "submissions",
    "articles",
    "jobs",
    "results",
    "entries",
    "listings",
    "repos",
    "repositories",
    "questions",
    "threads",
    "videos",
    "books",
    "events",
    "news",
    "headlines",
    "titles",
    "cards",
    "reviews",
    "comments",
    "replies",
    "messages",
    "members",
    "people",
    "plans",
    "deals",
    "sims",
    "openings",
    "vacancies",
    // Places to eat, as guides and booking sites list them.
    "restaurants",
    "cafes",
    // What a school or a catalogue of classes lists.
    "courses",
    "classes",
    "lessons",
    "workshops",
    // What a cookery site lists.
    "recipes",
    "dishes",
    "meals",
    // What a walking or cycling guide lists.
    "trails",
    "walks",
    "hikes",
    "routes",
    "rows",
];

/// Words that say which date a date field is ("publish date", "release date").
const DATE_QUALIFIERS: &[&str] = &[
    "publish",
    "publication",
    "published",
    "release",
    "post",
    "posting",
    "creation",
    "created",
    "update",
    "updated",
    "modified",
    "due",
    "start",
    "end",
    "event",
];

/// Columns listed after "columns:" / "fields:" / "keys:" (comma or "and" separated).
fn explicit_columns(text: &str) -> Option<Vec<String>> {
    static RE: OnceLock<Regex> = OnceLock::new();
    #[allow(clippy::expect_used)]
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:columns?|fields?|keys?|headers?)\s*[:=]\s*(.+)").expect("valid regex")
    });
    let list = re.captures(text)?.get(1)?.as_str();
    let columns: Vec<String> = list
        .split([',', ';', '|'])
        .flat_map(|part| part.split(" and "))
        .map(|c| {
            c.trim()
                .trim_matches(|ch: char| !ch.is_alphanumeric() && ch != '_')
                .to_owned()
        })
        .filter(|c| !c.is_empty() && c.len() <= 64)
        .collect();
    (!columns.is_empty()).then_some(columns)
}

/// Whether a word has a use in the parser's tables: an item noun, a field, a count, a date's
/// qualifier. Such a word is never offered as a value the items are chosen by.
pub(super) fn is_request_word(word: &str) -> bool {
    let item_noun = |w: &str| ITEM_NOUNS.contains(&w) || ENTRY_NOUNS.contains(&w);
    LIST_NOUNS.contains(&word)
        || item_noun(word)
        || item_noun(&singular(word))
        || role_of(word).is_some()
        || is_column_word(word)
        || is_column_word(&singular(word))
        || number(word).is_some()
        || DATE_QUALIFIERS.contains(&word)
        || PAY_NAMES.contains(&word)
        || VALUE_WORDS.contains(&word)
}

/// The role a word names, if any.
pub fn role_of(word: &str) -> Option<FieldRole> {
    ROLE_WORDS
        .iter()
        .find(|(_, ws)| ws.contains(&word))
        .map(|(role, _)| *role)
}

/// Output key for a role named by `word`: singular, the user's own word where it is a noun.
fn canonical_name(role: FieldRole, word: &str) -> String {
    let singular = match word {
        "titles" => "title",
        "names" => "name",
        "headlines" => "headline",
        "urls" => "url",
        "links" => "link",
        "prices" => "price",
        "images" => "image",
        "photos" => "photo",
        "thumbnails" => "thumbnail",
        "dates" => "date",
        "authors" => "author",
        "descriptions" | "summaries" => "description",
        "scores" => "score",
        "ratings" => "rating",
        "votes" | "upvotes" => "votes",
        "published" | "posted" | "when" => "date",
        "user" | "users" | "poster" | "posters" | "submitter" | "submitters" | "byline" | "by" => {
            "author"
        }
        "comment" => "comments",
        "point" => "points",
        other => other,
    };
    let _ = role;
    singular.to_owned()
}

/// Which end of an order comes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OrderEnd {
    /// The most first ("most points", "priciest"); turned by `LEAST_LEADS`, the least.
    Most,
    /// As the words say ("ascending", "highest first"), else the rule's own: "by price" is a
    /// shop's low to high, "by points" a board's top first.
    Asked { most_first: bool },
}

/// A way to ask for an order: the phrases that ask for it, the value ordered by, which end
/// comes first.
struct OrderRule {
    phrases: &'static [&'static str],
    role: FieldRole,
    end: OrderEnd,
}

/// The phrases of a score's order, most first. Their least-first forms are the same phrases
/// with the lead turned (`LEAST_LEADS`): "most points" → "fewest points", "best rated" →
/// "worst rated".
const MOST_SCORE: &[&str] = &[
    "most points",
    "highest score",
    "most votes",
    "most upvoted",
    "highest scoring",
    "top scoring",
    "best rated",
    "most upvotes",
    "most liked",
    "top rated",
    "highest rated",
    // A score named as a noun: "the best score", "the lowest review scores" (read "lowest
    // rating"); turned, "the poorest scores".
    "best score",
    "best scores",
    "highest scores",
    "top score",
    "top scores",
    // The score as a verb: "which scores highest?".
    "scores highest",
    "scored highest",
    "score highest",
    "scores the highest",
    "most popular",
    // A rating named as a noun: "the best ratings", "the highest star rating".
    "best rating",
    "best ratings",
    "highest rating",
    "highest ratings",
    "top rating",
    "top ratings",
    "highest star rating",
    "best reviews",
    "best reviewed",
    "rated highest",
    "rate highest",
    // Stars counted ("the most stars"; turned, "the fewest stars"), or named as the score
    // ("the highest stars"), and what people like.
    "most stars",
    "highest stars",
    "top stars",
    "liked most",
    "liked the most",
    "like most",
    "like the most",
];

/// The phrases of a comment count's order, most first (turned as `MOST_SCORE`'s).
const MOST_COMMENTS: &[&str] = &[
    "most comments",
    "most discussed",
    "most commented",
    "most replies",
    "most responses",
    "most answers",
    // A count named as a noun ("the highest comment count" reads "highest comments"), a
    // discussion's size, an intensified participle, the superlative after its verb.
    "highest comments",
    "most discussion",
    "biggest discussion",
    "largest discussion",
    "longest discussion",
    "most heavily commented",
    "most heavily discussed",
    "commented on the most",
    "commented on most",
    "commented the most",
    "discussed the most",
    "most talked about",
    "top commented",
    // Reviews counted: "the most reviewed café", "which place has been reviewed the most".
    "most reviews",
    "most reviewed",
    "reviewed the most",
    "reviewed most",
    "highest review count",
    // Ratings counted, not their value: "the most rated recipe", "the most ratings" (the
    // best rated is the highest rating).
    "most ratings",
    "most rated",
    "rated the most",
    "rated most",
    "highest rating count",
    "largest rating count",
    "highest number of ratings",
    "largest number of ratings",
    "most people rated",
];

/// The phrases of an order by pay, most first (turned as `MOST_SCORE`'s: "lowest paid").
const MOST_PAY: &[&str] = &[
    "highest paid",
    "best paid",
    "highest paying",
    "best paying",
    "top paying",
    "highest pay",
    "highest salary",
    "best salary",
    "best pay",
    "top salary",
    "biggest salary",
    "largest salary",
    "pays the most",
    "pay the most",
    "pays most",
    "pays best",
];

/// A most-first lead and the leads that turn it least first.
const LEAST_LEADS: &[(&str, &[&str])] = &[
    ("most", &["least", "fewest"]),
    ("highest", &["lowest"]),
    ("best", &["worst", "poorest"]),
    ("top", &["bottom"]),
];

/// Words that put the least first in an order asked for by its value ("by points ascending",
/// "bottom 2 by points").
const LEAST_FIRST: &[&str] = &[
    "ascending",
    "lowest first",
    "least first",
    "fewest first",
    "worst first",
    "bottom",
];

/// Words that put the most first in an order by price ("by price, highest first").
const MOST_FIRST: &[&str] = &["descending", "highest", "most expensive", "priciest"];

/// The orders, in the order they are tried: price, then score, then comments, then date.
const ORDER_RULES: &[OrderRule] = &[
    OrderRule {
        phrases: &[
            "cheapest",
            "lowest price",
            // A ticket's price is its fare.
            "lowest fare",
            "least expensive",
            "price ascending",
            "by price",
        ],
        role: FieldRole::Price,
        end: OrderEnd::Asked { most_first: false },
    },
    OrderRule {
        phrases: &[
            "most expensive",
            "highest price",
            "priciest",
            "dearest",
            "costliest",
            "most costly",
        ],
        role: FieldRole::Price,
        end: OrderEnd::Most,
    },
    // A pay is ordered as a price of the items, the most first unless the words say otherwise
    // ("jobs by salary"; the plan orders by the named pay, `Request::sort_field`).
    OrderRule {
        phrases: &["by salary", "by pay", "by wage", "by compensation"],
        role: FieldRole::Price,
        end: OrderEnd::Asked { most_first: true },
    },
    OrderRule {
        phrases: MOST_PAY,
        role: FieldRole::Price,
        end: OrderEnd::Most,
    },
    OrderRule {
        phrases: &[
            "pays the least",
            "pay the least",
            "pays least",
            "least paid",
        ],
        role: FieldRole::Price,
        end: OrderEnd::Asked { most_first: false },
    },
    OrderRule {
        phrases: MOST_SCORE,
        role: FieldRole::Score,
        end: OrderEnd::Most,
    },
    // What people like least ("which book do readers like least") is the lowest rated.
    OrderRule {
        phrases: &[
            "like least",
            "like the least",
            "liked least",
            "liked the least",
            // The rating after its verb: "the two restaurants guests rated lowest".
            "rated lowest",
            "rate lowest",
            "rated the lowest",
            "scores lowest",
            "scored lowest",
            "score lowest",
            "scores the lowest",
        ],
        role: FieldRole::Score,
        end: OrderEnd::Asked { most_first: false },
    },
    OrderRule {
        phrases: &[
            "by points",
            "by score",
            "by votes",
            "by rating",
            "by ratings",
            "by stars",
            "by star rating",
            // "ranked according to reviews" (read "by reviews"): by what reviewers gave.
            "by reviews",
        ],
        role: FieldRole::Score,
        end: OrderEnd::Asked { most_first: true },
    },
    OrderRule {
        phrases: MOST_COMMENTS,
        role: FieldRole::Comments,
        end: OrderEnd::Most,
    },
    OrderRule {
        phrases: &[
            "by comments",
            "by number of comments",
            "by the number of comments",
            "by comment count",
            "by number of reviews",
            "by the number of reviews",
            "by review count",
        ],
        role: FieldRole::Comments,
        end: OrderEnd::Asked { most_first: true },
    },
    OrderRule {
        phrases: &["most recent", "newest", "latest", "recent"],
        role: FieldRole::Date,
        end: OrderEnd::Most,
    },
];

/// A most-first phrase's least-first forms ("most points" → "least points", "fewest points").
fn least_forms(phrase: &str) -> impl Iterator<Item = String> + '_ {
    LEAST_LEADS.iter().flat_map(move |(most, leasts)| {
        let rest = phrase
            .strip_prefix(most)
            .filter(|rest| rest.starts_with(' '));
        leasts
            .iter()
            .filter_map(move |least| rest.map(|rest| format!("{least}{rest}")))
    })
}

/// Sort order asked for: "most points", "cheapest", "highest rated", "newest", "oldest",
/// "fewest comments".
fn sort(text: &str) -> Option<(FieldRole, bool)> {
    // A compound is read as its words: "best-rated" is "best rated", "lowest-paid" "lowest paid".
    let lower = text.to_lowercase().replace('-', " ");
    // "the lowest nightly price" is the lowest price: the period an amount is for only says
    // which amount.
    let lower = lower
        .split(' ')
        .filter(|w| !PERIOD_WORDS.contains(w))
        .collect::<Vec<_>>()
        .join(" ");
    let has = |phrases: &[&str]| phrases.iter().any(|p| lower.contains(p));
    for rule in ORDER_RULES {
        // A most-first order turned: "the 2 submissions with the fewest points".
        if rule.end == OrderEnd::Most
            && rule
                .phrases
                .iter()
                .flat_map(|p| least_forms(p))
                .any(|p| lower.contains(&p))
        {
            return Some((rule.role, false));
        }
        if !has(rule.phrases) {
            continue;
        }
        let descending = match rule.end {
            OrderEnd::Most => true,
            // "top 3 by price": the top of an order is its most.
            OrderEnd::Asked { most_first: false } => has(MOST_FIRST) || top_by(&lower),
            OrderEnd::Asked { most_first: true } => !has(LEAST_FIRST),
        };
        return Some((rule.role, descending));
    }
    // "The last two things posted", "the last 2 posts by date": the last in time, newest first
    // (without a word of time, "the last 5" is the list's own end).
    let last = lower
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w == "last");
    if last
        && has(&[
            "posted",
            "published",
            "by date",
            "added",
            "uploaded",
            "written",
        ])
    {
        return Some((FieldRole::Date, true));
    }
    if has(&["oldest", "earliest"]) {
        return Some((FieldRole::Date, false));
    }
    // "the best three games", "the 5 best": "best" next to a count, no value named, is the
    // top of the items' score.
    let words = words(&lower);
    let best_counted = words.iter().enumerate().any(|(at, word)| {
        let counted_after = words.get(at + 1).is_some_and(|w| number(w).is_some());
        let counted_before = at > 0 && number(&words[at - 1]).is_some();
        // "the 3 best prices" are an order by the value named after.
        let next = words.get(at + 1 + usize::from(counted_after));
        word == "best"
            && (counted_after || counted_before)
            && next.is_none_or(|w| role_of(w).is_none() && role_of(&singular(w)).is_none())
    });
    if best_counted {
        return Some((FieldRole::Score, true));
    }
    None
}

/// Words for the period an amount is for ("nightly price", "monthly rent"), which an order
/// by the amount reads past.
pub(super) const PERIOD_WORDS: &[&str] = &[
    "nightly", "weekly", "monthly", "yearly", "annual", "daily", "hourly",
];

/// Whether the words ask for the top of an order by a value: "top 3 by price", "top by rent".
fn top_by(lower: &str) -> bool {
    let words = words(lower);
    words.iter().enumerate().any(|(at, word)| {
        word == "top"
            && words[at + 1..]
                .iter()
                .take(2)
                .position(|w| w == "by")
                .is_some_and(|by| by == 0 || number(&words[at + 1]).is_some())
    })
}

/// Understands a request.
pub fn parse(instructions: &str, output_instructions: Option<&str>) -> Request {
    // Other words for the same thing (questions, synonyms, other languages) read as the
    // English this parser knows: see `lexicon`.
    let canonical = super::lexicon::canonical(instructions);
    let instructions = canonical.as_str();
    let lower = instructions.to_lowercase();
    let words = words(instructions);
    let has_word = |w: &str| words.iter().any(|x| x == w);
    let has = |phrases: &[&str]| phrases.iter().any(|p| lower.contains(p));
    // "under 20 dollars" bounds a price; its 20 is no count.
    let (mut bounds, unbounded) = bounds::read(instructions);
    // "with at least 2 bedrooms", "2+ bedroom": a bound on a thing the items have, counted in
    // its unit; its number is no count either.
    let (measured, unbounded) = measures::read(&unbounded);
    let mut measure = measured.map(|(bound, thing)| {
        bounds.push(bound);
        thing
    });
    // "posts by alicew" chooses items by their words; "by alicew" is no field.
    let (text_matches, unbounded) = matches::read(&unbounded);
    let count = count(&unbounded);
    // "members with the role professor": a column's name and a value of it is that column
    // (the value chooses the items: `values`).
    let fields: Vec<RequestedField> = fields(&unbounded, output_instructions)
        .into_iter()
        .map(|mut field| {
            let parts: Vec<&str> = field.name.split_whitespace().collect();
            // "place of birth" is one name, not the place "of birth".
            if field.role == FieldRole::Text
                && parts.len() >= 2
                && parts[1] != "of"
                && !is_column_word(&field.name)
                && is_column_word(parts[0])
                && parts[1..]
                    .iter()
                    .all(|w| !is_column_word(w) && role_of(w).is_none())
            {
                field.name = parts[0].to_owned();
            }
            field
        })
        .collect();
    let list_nouns = LIST_NOUNS.iter().any(|noun| has_word(noun)) || lists_a_plural(&words);
    // "the largest apartment": an order by a measure no role is, read as a named field.
    let order = sort(instructions).or_else(|| {
        if measure.is_some() {
            return None;
        }
        // "the smallest salaries" are ordered by pay, not by a size.
        let (descending, name) = measures::order(&lower, |w| {
            role_of(w).is_some() || is_money_name(w) || is_no_measure(w)
        })?;
        measure = Some(name);
        Some((FieldRole::Text, descending))
    });
    // A kind of value asked of the items ("shoes and their prices") or of items in an order
    // by another value ("the 3 best-rated shoes' prices") is a column of the items; "images
    // with their alt text" are still the images.
    let of_items = |kind: FieldRole, words: &[&str]| {
        words.iter().any(|w| has(&[format!("their {w}").as_str()]))
            || order.is_some_and(|(role, _)| role != kind)
    };

    // People in the plural are the items' ("the authors", "who replied" → the posters).
    let authors_of_items = ["authors", "posters", "commenters"]
        .iter()
        .any(|w| has_word(w));
    // "every product", "product names and prices": many items, not one product's details.
    // A superlative compares many: "the cheapest product" is one item of a list.
    let many = [
        "every",
        "each",
        "all",
        "everything",
        "names",
        "titles",
        "prices",
    ]
    .iter()
    .any(|w| has_word(w))
        // "just the authors": of the items, unless one text is named ("the authors of this
        // article").
        || authors_of_items
            && !has(&[
                "this article",
                "this post",
                "this story",
                "this paper",
                "this page",
                "the article",
            ])
        || order.is_some()
        || !bounds.is_empty()
        || !text_matches.is_empty()
        // "I want to see Jonas's sessions": an items' noun in the plural names many of them.
        || words.iter().any(|w| {
            w.ends_with('s') && !w.ends_with("ss") && ITEM_NOUNS.contains(&singular(w).as_str())
        });
    // "this phone" is a product; "their phone", "phone numbers" are contact details.
    let phone_as_contact = words.iter().enumerate().any(|(i, w)| {
        matches!(w.as_str(), "phone" | "phones")
            && !(i > 0 && matches!(words[i - 1].as_str(), "this" | "that" | "the"))
            || w == "phones"
    }) || has(&["phone number"]);
    // "every blog post", "each article": the entries of a list, not one text.
    let each_entry = words.iter().enumerate().any(|(i, w)| {
        matches!(w.as_str(), "every" | "each")
            && words[i + 1..]
                .iter()
                .take(2)
                .any(|n| ENTRY_NOUNS.contains(&n.trim_end_matches("'s")))
    });
    // Words that ask for a list's items rather than one text: item nouns, "each post", people
    // in the plural, an order (it compares items: "the article most commented" is one item).
    let items_asked = list_nouns || each_entry || authors_of_items && many || order.is_some();
    // "every pharmacy with its phone number", "pharmacy names and phone numbers": a contact
    // detail of each item is a column of the items, not the page's contacts.
    let contacts_of_items =
        words.iter().any(|w| role_of(w) == Some(FieldRole::Title)) || each_item_named(&words);
    let intent = if has(&["markdown"]) && !list_nouns {
        Intent::Markdown
    } else if (has(&[
        "email",
        "e-mail",
        "contact details",
        "contact info",
        "telephone",
    ]) || phone_as_contact)
        && !contacts_of_items
    {
        Intent::Contacts
    } else if has(&[
        "code example",
        "code snippet",
        "code block",
        "code sample",
        "code listing",
        "source code",
    ]) || (has_word("code") || has_word("snippets")) && !list_nouns && fields.is_empty()
    {
        Intent::Code
    } else if has(&["table", "tabular"])
        && !list_nouns
        && !table_as_a_property(&words)
        && !table_as_a_place(&words)
        // "a table: tour | guide | difficulty" names the columns of the items wanted, which
        // the records engine reads whether the page prints a table or cards.
        && fields.len() < 2
    {
        Intent::Tables
    } else if (has(&["link", "urls", "hrefs"])
        && !list_nouns
        && fields.iter().all(|f| f.role == FieldRole::Url)
        // Links have no points or comments: "the 2 least upvoted links" are a board's items.
        && !order.is_some_and(|(role, _)| role != FieldRole::Title))
        || has(&[
            "all links",
            "every link",
            "external links",
            "outbound links",
            "internal links",
        ])
    {
        let external_only = has(&[
            "external",
            "outbound",
            "outgoing",
            "other sites",
            "other domains",
        ]);
        Intent::Links {
            external_only,
            contains: quoted(instructions).or_else(|| link_target(&words)),
        }
    } else if has(&[
        "main text",
        "main content",
        "article text",
        "article body",
        "full text",
        "body text",
        "the article",
        "article content",
        "read the",
        "content of the",
        "text of the",
        "the text",
        "summarize",
        "summarise",
        "blog post",
    ]) && !items_asked
        // "A one-line summary", "the gist": what the text says, not a column of its
        // paragraphs.
        || ["summary", "gist", "overview", "tldr"].iter().any(|w| has_word(w))
            && fields.iter().all(|f| f.role == FieldRole::Description)
            && !list_nouns
            && !many
        // "How do I install it?": the page's text holds the steps; no field is named.
        || has(&["how do i ", "how to ", "how can i ", "how should i ", "how does one "])
            && fields.is_empty()
            && !list_nouns
    {
        Intent::MainContent
    } else if has(&["product"]) && !has(&["products"]) && !many
        || has(&["this item", "sku", "gtin", "availability"]) && !list_nouns
        // "Is it in stock?" is one product's; "shoes that are in stock" are many.
        // An order compares items: "the highest rated book that is in stock" is a list's.
        || has(&["in stock"]) && !items_asked && !has_word("are") && !has_word("only")
    {
        Intent::Product
    } else if has(&[
        "metadata",
        "meta data",
        "meta tags",
        "open graph",
        "opengraph",
        "page title",
        "page's title",
        "title of the page",
        "title of this page",
        "publication date",
        "publish date",
        "who wrote",
        "the author",
        "description of the page",
        "page description",
    ]) && !list_nouns
        && !many
    {
        Intent::Metadata
    } else if (has_word("images") || has_word("photos") || has_word("pictures"))
        && !list_nouns
        && !of_items(FieldRole::Image, &["images", "photos", "pictures"])
        && fields.iter().all(|f| f.role == FieldRole::Image)
        || has(&["image url", "image link", "image source", "img src"]) && !list_nouns
    {
        Intent::Images
    } else if (has_word("prices") || has(&["all prices", "every price"]))
        && !list_nouns
        && !of_items(FieldRole::Price, &["prices"])
        && fields.iter().all(|f| f.role == FieldRole::Price)
    {
        Intent::Prices
    } else if (has_word("dates") || has(&["all dates", "every date"]))
        && !list_nouns
        && !of_items(FieldRole::Date, &["dates"])
        && fields.iter().all(|f| f.role == FieldRole::Date)
    {
        Intent::Dates
    } else {
        Intent::List
    };
    let plural_fields = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "titles" | "names" | "headlines" | "links" | "urls" | "prices" | "authors" | "dates"
        )
    });
    // The items of a list are named by their title: "every teapot and what it costs" is the
    // teapots with their prices. "the names along with …" names it in the user's word.
    let mut fields = fields;
    let title = title_named_in(&words);
    let explicit = output_instructions.and_then(explicit_columns).is_some();
    // "which SKU does every product have": the SKU of something, named by its title.
    if matches!(intent, Intent::List | Intent::Product | Intent::Metadata)
        && !explicit
        && value_fields(&words, &mut fields)
        && !fields.iter().any(|f| f.role == FieldRole::Title)
    {
        fields.insert(0, title.clone());
    }
    if intent == Intent::List
        && !explicit
        && !fields.is_empty()
        && !fields.iter().any(|f| f.role == FieldRole::Title)
        && (many || list_nouns || count.is_some())
    {
        fields.insert(0, title.clone());
    }
    // The measure an order or a bound is on is a field of the items, named as the request
    // named it ("bedrooms"); the items are named by their title beside it.
    // A word of a measure named in two ("charge points") is no field of its own ("points").
    if let Some(measure) = measure.as_deref().filter(|m| m.contains(' ')) {
        fields.retain(|f| f.name == measure || !measure.split(' ').any(|part| part == f.name));
    }
    if let Some(measure) = measure.as_deref()
        && intent == Intent::List
        && !explicit
        && !fields.iter().any(|f| f.name == measure)
    {
        if !fields.iter().any(|f| f.role == FieldRole::Title) {
            fields.insert(0, title.clone());
        }
        fields.push(RequestedField {
            name: measure.to_owned(),
            role: FieldRole::Text,
        });
    }
    let implied_title = fields.iter().any(|f| f.role == FieldRole::Title)
        && !words.iter().any(|w| role_of(w) == Some(FieldRole::Title))
        && !explicit;
    let price_bound = bounds.iter().any(|b| b.role == FieldRole::Price);
    let mut request = Request {
        read_as: instructions.to_owned(),
        intent,
        count,
        fields,
        implied_title,
        many: many || list_nouns || count.is_some() || plural_fields,
        sort: order,
        all_lists: has(&[
            "all lists",
            "all the lists",
            "every list",
            "each list",
            "all records on",
            "all the records on",
            "every record on",
            "all data records",
            "every data record",
        ]),
        bounds,
        matches: Vec::new(),
        values: Vec::new(),
        item_pages: false,
        // An order or a bound by price in words of pay: "pays the most", "best paid", "by
        // salary", "paying over $100,000"; an order by a comment count in words of reviews.
        value_named: if (order.is_some_and(|(role, _)| role == FieldRole::Price) || price_bound)
            && words.iter().any(|w| w.split('-').any(is_pay_word))
        {
            Some(ValueNamed::Pay)
        } else if order.is_some_and(|(role, _)| role == FieldRole::Comments)
            && words
                .iter()
                .any(|w| matches!(w.as_str(), "review" | "reviews" | "reviewed"))
        {
            Some(ValueNamed::Reviews)
        } else if order.is_some_and(|(role, _)| role == FieldRole::Comments)
            && words
                .iter()
                .any(|w| matches!(w.as_str(), "rating" | "ratings" | "rated"))
        {
            Some(ValueNamed::Ratings)
        } else {
            None
        },
        measure,
    };
    // Words chosen items hold are a list's: "the article about Rust" is not a filter.
    if request.intent == Intent::List {
        request.matches = text_matches;
    }
    // So are the values items are chosen by; a product's words may still be a list's, when
    // the page is one ("shoes that are in stock" on a shop's list).
    if matches!(request.intent, Intent::List | Intent::Product) {
        // A word of a field's name names that field, not a value ("its number of stops").
        let values = super::values::read(&unbounded, |word| {
            is_request_word(word)
                || request
                    .fields
                    .iter()
                    .any(|f| f.name.split(' ').any(|part| part == word))
        });
        request.values = values;
    }
    // "how much is the Road Racer 3?": an item chosen by its words is shown by its name
    // beside the value asked.
    if request.intent == Intent::List
        && !explicit
        && !request.values.is_empty()
        && !request.fields.is_empty()
        && !request.fields.iter().any(|f| f.role == FieldRole::Title)
    {
        request.fields.insert(0, title_field());
        request.implied_title = true;
    }
    // A bound needs its value in the answer: "names of the books under $10" shows the prices;
    // so does a match on a part other than the title ("titles of the posts by alicew"), and
    // the value the items are ordered by ("the 3 most commented posts and who posted them").
    if !request.fields.is_empty() && !explicit {
        let unnamed: Vec<FieldRole> = request
            .bounds
            .iter()
            .filter(|b| request.bound_field(b).is_none())
            .map(|b| b.role)
            .chain(request.matches.iter().map(|m| m.role))
            .chain(
                request
                    .sort
                    .filter(|_| request.sort_field().is_none())
                    .map(|(role, _)| role),
            )
            .collect();
        for role in unnamed {
            if !request.fields.iter().any(|f| f.role == role) {
                let name = request.column_name(role).to_owned();
                request.fields.push(RequestedField { name, role });
            }
        }
    }
    request
}

/// Text between quotes or backticks, e.g. links containing "docs".
/// What links should point to or contain: "links to github", "links containing docs",
/// "links matching /blog/". Not "links to other sites" (that is `external_only`).
fn link_target(words: &[String]) -> Option<String> {
    const CUES: &[&str] = &[
        "to",
        "containing",
        "matching",
        "contain",
        "mentioning",
        "pointing",
        "going",
    ];
    const NOT_TARGETS: &[&str] = &[
        "other",
        "external",
        "the",
        "this",
        "that",
        "a",
        "an",
        "all",
        "any",
        "outside",
        "another",
        "different",
        "their",
        "its",
        "pages",
        "sites",
    ];
    let at = words
        .windows(2)
        .position(|w| matches!(w[0].as_str(), "link" | "links") && CUES.contains(&w[1].as_str()))?;
    let mut rest = words[at + 2..].iter();
    let mut target = rest.next()?;
    if target == "to" {
        target = rest.next()?; // "links pointing to", "links going to"
    }
    (!NOT_TARGETS.contains(&target.as_str())).then(|| target.clone())
}

fn quoted(text: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    #[allow(clippy::expect_used)]
    let re =
        RE.get_or_init(|| Regex::new(r#"["'`“‘]([^"'`”’]{1,100})["'`”’]"#).expect("valid regex"));
    re.captures(text)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_field_is_answered_by_a_column_of_the_same_meaning() {
        assert!(column_words("location").contains(&"city".to_owned()));
        assert!(column_words("Employer").contains(&"company".to_owned()));
        assert!(!column_words("location").contains(&"location".to_owned()));
        assert!(column_words("favourite colour").is_empty());
    }

    /// The names of the fields a request is read as naming.
    fn field_names(text: &str) -> Vec<String> {
        parse(text, None)
            .fields
            .iter()
            .map(|f| f.name.clone())
            .collect()
    }

    #[test]
    fn a_number_of_a_span_of_time_counts_no_items() {
        assert_eq!(count("the events in hall b over the two days"), None);
        assert_eq!(count("cabins for 3 nights"), None);
        assert_eq!(count("the two keynotes"), Some(2));
    }

    #[test]
    fn two_qualified_dates_are_two_fields_and_one_plain_date_is_one() {
        assert_eq!(
            field_names("each class with its start time and end time"),
            ["title", "start_time", "end_time"]
        );
        assert_eq!(
            field_names("posts with publish date and update date"),
            ["title", "publish_date", "update_date"]
        );
        assert_eq!(
            field_names("posts with the date and time"),
            ["title", "date"]
        );
    }

    #[test]
    fn one_value_no_role_names_asked_of_every_item_is_a_field_of_its_own() {
        let names = field_names;
        assert_eq!(names("the colour of every bike"), ["title", "colour"]);
        // Each sentence and each added clause is read on its own; a list of values too.
        assert_eq!(
            names("How long does each coach take? Include the coach number."),
            ["title", "duration", "coach number"]
        );
        assert_eq!(
            names("duration of each coach, with the coach number"),
            ["title", "duration", "coach number"]
        );
        assert_eq!(
            names("list each car's fuel and gearbox"),
            ["title", "fuel", "gearbox"]
        );
        // "include the titles" names a role already read.
        assert_eq!(names("list the stories. include the titles"), ["title"]);
        assert_eq!(names("each boat's home port"), ["title", "home port"]);
        assert_eq!(
            names("the frame number of all bikes"),
            ["title", "frame number"]
        );
        assert_eq!(
            names("what is the engine capacity of each motorcycle?"),
            ["title", "engine capacity"]
        );
        // More than one value, an order, a count, or a part of the page: no field.
        for words in [
            "the details of each bike",
            "the cheapest of all bikes",
            "the number of each room",
            "the top 3 of all bikes",
            "the text of each paragraph",
        ] {
            assert!(
                !names(words).iter().any(|n| n != "title" && n != "text"),
                "{words}: {:?}",
                names(words)
            );
        }
    }

    #[test]
    fn a_word_naming_one_kind_of_value_is_a_field_wherever_it_stands() {
        let names = field_names;
        assert!(names("which SKU does every product have?").contains(&"sku".to_owned()));
        assert!(names("what's the SKU of each of these products").contains(&"sku".to_owned()));
        assert!(names("for all four tools, the weight").contains(&"weight".to_owned()));
        assert!(names("how heavy is each product?").contains(&"weight".to_owned()));
        assert!(names("what does each product weigh").contains(&"weight".to_owned()));
        assert!(names("I need the item numbers for everything listed").contains(&"sku".to_owned()));
        // A topic, or a request for something else than items or a record: no field.
        assert!(!names("the products about weight training").contains(&"weight".to_owned()));
        assert_eq!(
            parse("convert the weight loss guide to markdown", None).intent,
            Intent::Markdown
        );
        assert!(names("convert the weight loss guide to markdown").is_empty());
        assert!(!names("read the article text on salary bands").contains(&"salary".to_owned()));
        // Named already, or by a word of the same column: not twice.
        assert_eq!(
            names("every product with its name and SKU"),
            ["name", "sku"]
        );
        assert_eq!(names("all products"), Vec::<String>::new());
    }

    #[test]
    fn a_list_closed_by_a_dash_or_split_by_pipes_is_read() {
        let names = field_names;
        assert_eq!(
            names("product name, sku, weight — all of them"),
            ["name", "sku", "weight"]
        );
        assert_eq!(
            names("jobs as a table: title | company | city | salary"),
            ["title", "company", "city", "salary"]
        );
        assert_eq!(names("products — name and price"), ["name", "price"]);
        // A question's object after its field is no part of the name.
        assert_eq!(
            names("albums: title, who produced it"),
            ["title", "producer"]
        );
        assert_eq!(
            names("each game's name and who published it"),
            ["name", "publisher"]
        );
        // A long part names the few words after its last article ("for all classes give me
        // the class code"): the request's verb and items come first.
        assert!(
            names("For all classes give me the class code, start time and duration")
                .contains(&"class code".to_owned())
        );
    }

    #[test]
    fn an_items_code_is_a_field_and_the_pages_code_is_code() {
        let asked = parse("each class with its class code", None);
        assert_eq!(asked.intent, Intent::List);
        assert!(
            asked.fields.iter().any(|f| f.name == "class code"),
            "{:?}",
            asked.fields
        );
        assert_eq!(
            parse("the python code on this page", None).intent,
            Intent::Code
        );
        assert!(is_an_items_code("booking code"));
        assert!(!is_an_items_code("source code"));
    }

    #[test]
    fn a_list_asked_for_values_beyond_its_names_may_look_on_its_items_pages() {
        let look = |text: &str| parse(text, None).may_look_on_item_pages();
        assert!(look("the products with their name and SKU"));
        assert!(look("name and SKU of each product"));
        assert!(look("every story with title, author and link"));
        assert!(!look("all the products"), "names only");
        assert!(
            !look("the titles and links of the stories"),
            "names and links only"
        );
        let asked = parse("the products with their name and SKU", None);
        assert!(asked.keeps_item_links());
        let linked = parse("every story with title, author and link", None);
        assert!(!linked.keeps_item_links(), "the link is named already");
        let mut opened = parse("every product with its name", None);
        assert!(!opened.keeps_item_links());
        opened.item_pages = true;
        assert!(opened.keeps_item_links() && !opened.may_look_on_item_pages());
    }

    #[test]
    fn each_sentence_names_fields_from_its_own_cue() {
        let roles = |text: &str| -> Vec<FieldRole> {
            parse(text, None).fields.iter().map(|f| f.role).collect()
        };
        let asked = roles("who posted the top 3 stories? include the titles");
        assert!(asked.contains(&FieldRole::Author), "{asked:?}");
        assert!(asked.contains(&FieldRole::Title), "{asked:?}");
        // One sentence: role words before its cue still describe the items, not fields.
        assert_eq!(roles("all links with their title"), [FieldRole::Title]);
    }

    #[test]
    fn field_lists_written_with_slashes_or_where_name_their_columns() {
        let names = |text: &str| name_list(text).unwrap_or_default();
        assert_eq!(
            names("scrape job title / company / location / salary"),
            ["title", "company", "location", "salary"]
        );
        assert_eq!(
            names("jobs on this page — title, company, where, and salary"),
            ["title", "company", "location", "salary"]
        );
        assert_eq!(names("title/author of each post"), ["title", "author"]);
        // Where or how ends a part, not the list.
        assert_eq!(
            names("each job on this page and the location"),
            ["location"]
        );
        assert_eq!(
            names("role / location for the jobs listed here"),
            ["role", "location"]
        );
        assert_eq!(names("which jobs are on this page, and the city"), ["city"]);
        // A plural in -es after a hiss loses its -es: "pitches" is a pitch.
        assert_eq!(singular("pitches"), "pitch");
        assert_eq!(singular("boxes"), "box");
        assert_eq!(singular("miles"), "mile");
        // The comments a verb asks for are the items; a count of them is a field.
        let roles = |text: &str| -> Vec<FieldRole> {
            parse(text, None).fields.iter().map(|f| f.role).collect()
        };
        assert!(!roles("list the replies: author, date, message").contains(&FieldRole::Comments));
        assert!(roles("show me all stories with comments").contains(&FieldRole::Comments));
        assert!(roles("get the comments count for each story").contains(&FieldRole::Comments));
        // A part with a count names the items asked for, not a field.
        assert_eq!(names("top 5 cheapest shoes + price"), ["price"]);
        assert_eq!(
            names("2 newest submissions, title and poster"),
            ["title", "poster"]
        );
        // A URL's or a path's slashes are no list.
        assert_eq!(name_list("the posts of https://blog.example/rust"), None);
        assert_eq!(name_list("links matching \"/blog/\""), None);
    }

    #[test]
    fn fields_named_before_each_and_nouns_that_name_the_items() {
        let fields = |text: &str| -> Vec<(String, FieldRole)> {
            parse(text, None)
                .fields
                .into_iter()
                .map(|f| (f.name, f.role))
                .collect()
        };
        // Fields before "each": the price of each product.
        assert!(fields("the price of each product").contains(&("price".into(), FieldRole::Price)));
        // The items' own noun in a field list is their title.
        assert_eq!(
            fields("product / price"),
            [
                ("title".into(), FieldRole::Title),
                ("price".into(), FieldRole::Price)
            ]
        );
        assert_eq!(
            fields("list the positions and what they pay")[0],
            ("title".into(), FieldRole::Title)
        );
        // In the plural too, beside a word pages label values with: "stations and their
        // operators" names the stations' title.
        assert_eq!(
            fields("stations and their operators"),
            [
                ("title".into(), FieldRole::Title),
                ("operators".into(), FieldRole::Text)
            ]
        );
        // "operator" is a word pages label a value with, after "with" too.
        assert_eq!(
            fields("car park names with the operator")[1],
            ("operator".into(), FieldRole::Text)
        );
        // "for all cars" qualifies the list; a model names the car.
        assert_eq!(
            fields("price + mileage + model for all cars"),
            [
                ("price".into(), FieldRole::Price),
                ("mileage".into(), FieldRole::Text),
                ("title".into(), FieldRole::Title)
            ]
        );
        let tool = fields("what's this tool's SKU and weight?");
        assert!(tool.iter().any(|(n, _)| n == "sku"), "{tool:?}");
        assert_eq!(count("sort by price high to low and keep 3"), Some(3));
        // A count after the other words: "…, just 2", "only 3".
        assert_eq!(count("podcasts by rating, just 4"), Some(4));
        assert_eq!(count("only 3 please"), Some(3));
        let weight = fields("how much does it weigh, and what is its SKU?");
        assert!(weight.iter().any(|(n, _)| n == "sku"), "{weight:?}");
        // Labelled words list fields: "sku and weight", one after "with".
        let sku = fields("the SKU and weight of this tool");
        assert!(sku.iter().any(|(n, _)| n == "sku"), "{sku:?}");
        assert!(sku.iter().any(|(n, _)| n == "weight"), "{sku:?}");
        let salary = fields("job openings with their salaries");
        assert!(salary.iter().any(|(n, _)| n == "salary"), "{salary:?}");
        let names = fields("I need the part number plus the weight");
        assert!(names.iter().any(|(n, _)| n == "sku"), "{names:?}");
        let titles = fields("job titles and salaries");
        assert!(titles.iter().any(|(n, _)| n == "salary"), "{titles:?}");
        // "everything" asks for many things: the items are named by their title.
        assert_eq!(
            fields("a price list of everything sold here")[0].1,
            FieldRole::Title
        );
    }

    #[test]
    fn counts_in_their_common_wordings() {
        assert_eq!(count("the top 10 stories"), Some(10));
        assert_eq!(count("first five jobs"), Some(5));
        assert_eq!(count("3 most recent posts"), Some(3));
        assert_eq!(count("give me 7 products"), Some(7));
        assert_eq!(count("all products with price"), None);
        // An amount of money is no count.
        assert_eq!(
            count("my budget is £100 a month, which units fit it?"),
            None
        );
        assert_eq!(count("the cheapest product"), Some(1));
        // The extreme after the noun, as Spanish says it ("el gimnasio más barato"), and a
        // verb the lexicon turns into one ("which gym costs the least").
        assert_eq!(count("el gym cheapest"), Some(1));
        assert_eq!(count("which gym is the cheapest"), Some(1));
        assert_eq!(count("where is swimming cheapest"), Some(1));
        assert_eq!(count("the one with the fewest miles"), Some(1));
        assert_eq!(count("which one gets there fastest?"), Some(1));
        assert_eq!(count("the one that has the most reviews"), Some(1));
        assert_eq!(count("give me the one course with the most stars"), Some(1));
        for other in [
            "le cours le mieux noté",
            "das Rezept mit den meisten Bewertungen",
        ] {
            let read = super::super::lexicon::canonical(other);
            assert_eq!(count(&read), Some(1), "{read}");
        }
        assert_eq!(count("the ones with the most reviews"), None);
        // A time of day and a number of a thing included count no items.
        assert_eq!(count("I need to leave before nine"), None);
        assert_eq!(count("trains after 6, please"), None);
        assert_eq!(count("List the services with 1 bag included"), None);
        assert_eq!(count("best-paid role here"), Some(1));
        assert_eq!(count("the most-commented story"), Some(1));
        assert_eq!(
            count("the title and the last-updated date of the page"),
            None
        );
        // A number in a name is no count.
        assert_eq!(count("what does the Road Racer 3 cost"), None);
        assert_eq!(count("Show 5 jobs"), Some(5));
        // A number a bound leads, in any language read, is its amount.
        assert_eq!(count("Bücher unter 10 Pfund"), None);
        assert_eq!(count("produits à moins de 20 euros"), None);
        assert_eq!(count("a list of 10 books"), Some(10));
        // "one" asked for before a thing's noun is a count; elsewhere it is a pronoun.
        assert_eq!(
            count("one restaurant: available tonight, best score"),
            Some(1)
        );
        assert_eq!(count("show me one book under 10"), Some(1));
        assert_eq!(count("the one with the red cover"), None);
        assert_eq!(count("which one is on sale"), None);
        assert_eq!(count("one of the books on sale"), None);
        assert_eq!(count("then I want 4 posts"), Some(4));
        assert_eq!(count("What is the story with the most comments?"), Some(1));
        assert_eq!(count("the job that pays best"), Some(1));
        assert_eq!(
            count("tell me which article has the most comments"),
            Some(1)
        );
        assert_eq!(count("the stories with the most comments"), None);
        assert_eq!(count("the page with the most links"), None);
        assert_eq!(count("the most expensive item on the page"), Some(1));
        assert_eq!(count("the latest news"), None);
        assert_eq!(count("the newest posts"), None);
        assert_eq!(count("the best of the lot"), None);
        assert_eq!(count("articles published in 2024 with title"), None);
        assert_eq!(count("the jobs on the first 3 pages"), None);
        assert_eq!(count("titles from 2 pages of results"), None);
        assert_eq!(count("stories published in May 2025 with reporter"), None);
        // The one item: named first, its superlative after its clause, or after the noun as
        // French and Spanish write it ("l'article le plus commenté").
        assert_eq!(count("story with most comments"), Some(1));
        assert_eq!(
            count("which submission sparked the most comments?"),
            Some(1)
        );
        assert_eq!(count("what got the most replies"), Some(1));
        assert_eq!(count("what are the cheapest items"), None);
        assert_eq!(count("which shoes cost the least"), None);
        assert_eq!(count("the story people commented on the most"), Some(1));
        assert_eq!(count("the article most commented"), Some(1));
        assert_eq!(count("the titles of stories people like the most"), None);
        // A bound's amount, its value unnamed, is no count either.
        assert_eq!(count("teapots under 40 with their names"), None);
        assert_eq!(count("posts with more than 5 replies"), None);
    }

    #[test]
    fn each_order_rule_reads_its_phrases_and_most_first_orders_turn_least_first() {
        let order = |text: &str| parse(text, None).sort;
        // One wording per rule of `ORDER_RULES`, in its order.
        assert_eq!(order("cheapest shoes"), Some((FieldRole::Price, false)));
        assert_eq!(
            order("most expensive shoes"),
            Some((FieldRole::Price, true))
        );
        assert_eq!(
            order("stories with most points"),
            Some((FieldRole::Score, true))
        );
        assert_eq!(order("stories by points"), Some((FieldRole::Score, true)));
        assert_eq!(
            order("posts with most comments"),
            Some((FieldRole::Comments, true))
        );
        assert_eq!(
            order("posts by comments"),
            Some((FieldRole::Comments, true))
        );
        assert_eq!(order("most recent posts"), Some((FieldRole::Date, true)));
        // A pay is ordered as the items' price, by the field named for it.
        let jobs = parse("jobs by salary", None);
        assert_eq!(jobs.sort, Some((FieldRole::Price, true)));
        assert_eq!(jobs.sort_field().map(|f| f.name.as_str()), Some("salary"));
        assert!(jobs.matches.is_empty(), "{:?}", jobs.matches);
        assert_eq!(order("the best-paid job"), Some((FieldRole::Price, true)));
        assert_eq!(
            order("which job pays the least?"),
            Some((FieldRole::Price, false))
        );
        // A rating named as a noun, and turned.
        assert_eq!(
            order("which shoes have the best ratings?"),
            Some((FieldRole::Score, true))
        );
        assert_eq!(
            order("the shoes with the lowest ratings"),
            Some((FieldRole::Score, false))
        );
        // A compound is read as its words, turned or not.
        assert_eq!(
            order("top-rated trail shoes"),
            Some((FieldRole::Score, true))
        );
        assert_eq!(order("lowest-paid roles"), Some((FieldRole::Price, false)));
        // Stars counted, a rating as what the items are ordered by, what people like.
        for (text, most_first) in [
            ("restaurants with the most stars", true),
            ("the album with the fewest stars", false),
            ("podcasts sorted by ratings", true),
            ("apps by star rating, lowest first", false),
            ("the recipe people liked the most", true),
            ("which dish do guests like least", false),
            // A score named as a noun or as a verb, and the rating after its verb.
            ("the cafe with the best score", true),
            ("hostels with the poorest scores", false),
            ("of these courses, which scores highest?", true),
            ("the two dishes diners rated lowest", false),
            // Who gave the rating says which rating; "according to" is "by".
            ("campsites by guest rating", true),
            ("the lowest review scores", false),
            ("apps ranked according to reviews", true),
        ] {
            assert_eq!(order(text), Some((FieldRole::Score, most_first)), "{text}");
        }
        assert_eq!(
            order("the least paid roles"),
            Some((FieldRole::Price, false))
        );
        // A rating named as a field is the score.
        assert_eq!(role_of("rating"), Some(FieldRole::Score));
        assert_eq!(role_of("stars"), Some(FieldRole::Score));
        // Turned leads (`LEAST_LEADS`): the least first.
        for text in [
            "the 2 stories with the fewest points",
            "which posts have the least points",
            "lowest scoring stories",
            "worst rated shoes",
        ] {
            assert_eq!(order(text), Some((FieldRole::Score, false)), "{text}");
        }
        assert_eq!(
            order("posts with the fewest comments"),
            Some((FieldRole::Comments, false))
        );
        // Reviews counted are a comment count, named `reviews`; the best reviewed is a score.
        for text in [
            "the most reviewed café",
            "which app has been reviewed the most?",
            "cafés by number of reviews",
        ] {
            let request = parse(text, None);
            assert_eq!(request.sort, Some((FieldRole::Comments, true)), "{text}");
            assert_eq!(request.value_named, Some(ValueNamed::Reviews), "{text}");
            assert_eq!(
                request.column_name(FieldRole::Comments),
                "reviews",
                "{text}"
            );
        }
        assert_eq!(
            order("the best reviewed café"),
            Some((FieldRole::Score, true))
        );
        // An order by a value, turned by its words (`LEAST_FIRST`).
        assert_eq!(
            order("bottom 2 stories by points"),
            Some((FieldRole::Score, false))
        );
        assert_eq!(
            order("sort by points ascending"),
            Some((FieldRole::Score, false))
        );
        assert_eq!(
            order("les 2 articles avec le moins de points"),
            Some((FieldRole::Score, false))
        );
    }

    #[test]
    fn one_thing_at_an_extreme_is_one_item() {
        for text in [
            "which shoe is the cheapest?",
            "what product has the most reviews",
            "cheapest shoe on the page",
            "the cheapest product",
            "das günstigste Produkt",
            // A helper verb, an adjective before the noun, the superlative after the noun.
            "which album do critics rate least",
            "which cheap laptop has the best battery",
            "le film le mieux noté",
            "el libro mejor valorado",
            "the best paid job",
            // The extreme at the end of the clause, a which-question with the verb alone.
            "the cafe critics rate highest",
            "of the cafes with seats outside, which scores highest?",
            "the number one cafe by rating",
        ] {
            assert_eq!(
                count(&crate::planner::lexicon::canonical(text)),
                Some(1),
                "{text}"
            );
        }
        for text in [
            "which shoes are the cheapest?",
            "which albums do critics rate least",
            "best paid jobs paying over 100,000",
            "cheapest shoes",
            "first page only",
            "the top stories",
        ] {
            assert_eq!(count(text), None, "{text}");
        }
    }

    #[test]
    fn a_table_the_items_have_is_no_table_asked_for() {
        for text in [
            "the best rated cafe with a table free tonight",
            "cafes that still have tables",
        ] {
            assert_ne!(parse(text, None).intent, Intent::Tables, "{text}");
        }
        assert_eq!(parse("extract the tables", None).intent, Intent::Tables);
        // A table the items stand in is where they are.
        for text in [
            "first three teams in the table",
            "where are Westgate in the table?",
            "the players in the league table",
        ] {
            assert_eq!(parse(text, None).intent, Intent::List, "{text}");
        }
        assert_eq!(count("who has the most wins?"), Some(1));
        // A table whose columns are named is the items with those fields.
        assert_eq!(
            parse("Get me a table: tour | guide | price", None).intent,
            Intent::List
        );
        assert_eq!(
            parse("the table with opening hours", None).intent,
            Intent::Tables
        );
    }

    #[test]
    fn links_asked_in_an_order_of_a_value_are_the_items() {
        assert_eq!(parse("2 least upvoted links", None).intent, Intent::List);
        assert!(matches!(
            parse("all links on this page", None).intent,
            Intent::Links { .. }
        ));
    }

    #[test]
    fn sort_orders_in_their_common_wordings() {
        // "best" next to a count, no value named, is the top of the score.
        for words in [
            "the best three games",
            "the 5 best restaurants",
            "best 10 hotels",
        ] {
            assert_eq!(
                parse(words, None).sort,
                Some((FieldRole::Score, true)),
                "{words}"
            );
        }
        assert_ne!(
            parse("the 3 best prices", None).sort,
            Some((FieldRole::Score, true))
        );
        assert_eq!(parse("the best games", None).sort, None);
        // The top of an order by a value is its most; "top 3 cheapest" stays cheapest first.
        assert_eq!(
            parse("top 3 by price", None).sort,
            Some((FieldRole::Price, true))
        );
        assert_eq!(
            parse("top 3 cheapest cars", None).sort,
            Some((FieldRole::Price, false))
        );
        assert_eq!(
            parse("3 most recent posts", None).sort,
            Some((FieldRole::Date, true))
        );
        assert_eq!(
            parse("the latest 5 jobs", None).sort,
            Some((FieldRole::Date, true))
        );
        assert_eq!(
            parse("events, oldest first", None).sort,
            Some((FieldRole::Date, false))
        );
        assert_eq!(
            parse("cheapest 2 products", None).sort,
            Some((FieldRole::Price, false))
        );
        assert_eq!(parse("top 10 stories", None).sort, None);
        // The period an amount is for only says which amount.
        assert_eq!(
            parse("which property has the lowest nightly price?", None).sort,
            Some((FieldRole::Price, false))
        );
        assert_eq!(
            parse("the highest scoring story", None).sort,
            Some((FieldRole::Score, true))
        );
        // "By price" alone is a shop's low to high; the words can turn it.
        assert_eq!(
            parse("all products sorted by price", None).sort,
            Some((FieldRole::Price, false))
        );
        assert_eq!(
            parse("products by price, highest first", None).sort,
            Some((FieldRole::Price, true))
        );
        assert_eq!(
            parse("sort by price high to low", None).sort,
            Some((FieldRole::Price, true))
        );
        // "The last N" with a word of time is the newest; alone it is the list's end.
        assert_eq!(
            parse("what were the last two things posted?", None).sort,
            Some((FieldRole::Date, true))
        );
        assert_eq!(parse("the last 5 items", None).sort, None);
        // A comment count as a noun, a discussion's size, the superlative after its verb.
        for comments in [
            "the submission with the highest comment count",
            "which link has the biggest discussion?",
            "the story people commented on the most",
            "the most heavily commented story",
        ] {
            assert_eq!(
                parse(comments, None).sort,
                Some((FieldRole::Comments, true)),
                "{comments}"
            );
        }
        // By a count of comments, most first; the order's value is a column beside the named.
        let request = parse("top 3 stories by comments, with their authors", None);
        assert_eq!(request.sort, Some((FieldRole::Comments, true)));
        assert!(request.fields.iter().any(|f| f.role == FieldRole::Comments));
    }

    #[test]
    fn a_columns_name_with_a_value_is_that_column_and_the_value_chooses() {
        let request = parse("members with the role professor, name and city", None);
        let names: Vec<&str> = request.fields.iter().map(|f| f.name.as_str()).collect();
        assert!(
            names.contains(&"role") && !names.contains(&"role professor"),
            "{names:?}"
        );
        assert_eq!(request.values[0].phrases[0], "professor");
    }

    #[test]
    fn a_fields_name_of_words_is_kept_whole_and_the_title_takes_the_users_word() {
        let request = parse("the names along with place of birth and year born", None);
        let names: Vec<&str> = request.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["name", "place of birth", "year born"]);
        assert!(!request.implied_title);
        let request = parse("a table of the people: name | place of birth | born", None);
        assert!(
            request.fields.iter().any(|f| f.name == "place of birth"),
            "{:?}",
            request.fields
        );
        assert_eq!(
            column_words("year of birth"),
            [
                "born",
                "birth year",
                "year born",
                "date of birth",
                "birth date",
                "birthdate",
                "birthday"
            ]
        );
    }

    #[test]
    fn a_role_word_alone_in_a_list_is_its_field_and_for_each_is_no_field() {
        assert_eq!(field_names("every entry: title / by"), ["title", "author"]);
        let request = parse("for each tool, click through and grab the sku", None);
        assert!(
            request.fields.iter().all(|f| !f.name.contains("each")),
            "{:?}",
            request.fields
        );
        let words =
            crate::planner::lexicon::canonical("for each tool, click through and grab the sku");
        let detail = crate::planner::reach::details(&words).expect("each item opened");
        assert_eq!(detail.fields, ["sku"]);
    }

    #[test]
    fn an_items_noun_in_the_plural_asks_for_many() {
        assert!(parse("I want to see Jonas's sessions, when can I?", None).many);
        assert!(parse("which units are upstairs?", None).many);
        assert!(!parse("when is this session?", None).many);
    }

    #[test]
    fn an_order_or_people_in_the_plural_ask_for_items_not_the_text() {
        // "l'article le plus commenté" reads "the article most commented".
        assert_eq!(
            parse("the article most commented", None).intent,
            Intent::List
        );
        // "who replied" reads "the posters": the replies are many.
        let request = parse("who replied, when, and what did they say", None);
        assert_eq!(request.intent, Intent::List);
        assert!(request.many);
        assert!(request.fields.iter().any(|f| f.role == FieldRole::Author));
        assert_eq!(
            parse(
                "I want each reply's poster, post date and what they wrote",
                None
            )
            .intent,
            Intent::List
        );
        // One article's author and text stay the article's.
        assert_eq!(
            parse("the author, the date and the text", None).intent,
            Intent::MainContent
        );
    }

    #[test]
    fn money_asked_as_a_pay_is_named_as_one() {
        for pay in [
            "which job pays the most?",
            "roles paying over €50,000",
            "the best-paid role and its title",
            "roles by compensation, highest first",
        ] {
            let request = parse(pay, None);
            assert_eq!(request.value_named, Some(ValueNamed::Pay), "{pay}");
            assert_eq!(request.column_name(FieldRole::Price), "salary", "{pay}");
        }
        let shoes = parse("the cheapest shoes under $50", None);
        assert_eq!(shoes.value_named, None);
        assert_eq!(shoes.column_name(FieldRole::Price), "price");
        // A bound's column added beside named fields takes the pay's name.
        let named = parse("name of the highest paying job", None);
        assert!(named.fields.iter().any(|f| f.name == "salary"), "{named:?}");
    }

    #[test]
    fn the_items_listed_and_who_made_them_are_the_title_and_the_makers_column() {
        let request = parse("list the films and who directed them", None);
        let names: Vec<&str> = request.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["title", "director"], "{request:?}");
        // Every maker a question asks for is a column pages label.
        for entry in super::super::lexicon::ENTRIES {
            if let Some(maker) = entry
                .phrase
                .strip_prefix("who ")
                .and(entry.canonical.strip_prefix("the "))
                .map(|maker| maker.strip_suffix(" of each").unwrap_or(maker))
            {
                assert!(
                    is_column_word(maker) || role_of(maker).is_some(),
                    "{}",
                    entry.phrase
                );
            }
        }
    }

    #[test]
    fn an_order_among_the_fields_names_the_items_not_a_field() {
        for text in [
            "the best-paid role and its title",
            "role with the best pay, title only",
            "top salary position: title + city",
        ] {
            let request = parse(text, None);
            assert_eq!(request.sort, Some((FieldRole::Price, true)), "{text}");
            assert!(
                request
                    .fields
                    .iter()
                    .all(|f| !f.name.contains("pay") && !f.name.contains("salary position")),
                "{text}: {:?}",
                request.fields
            );
            assert_eq!(request.fields[0].name, "title", "{text}");
        }
        // An order in time may be a field's name: "name, latest version".
        let versions = parse("every package: name, latest version", None);
        assert!(
            versions.fields.iter().any(|f| f.name == "latest version"),
            "{:?}",
            versions.fields
        );
    }

    #[test]
    fn a_listing_verbs_plural_object_is_the_items() {
        for many in [
            "list the novels - name, who wrote it",
            "show me all the films",
        ] {
            assert_eq!(parse(many, None).intent, Intent::List, "{many}");
        }
        // Words ending in "s" that are no plural, and parts of a page, are not items.
        assert_eq!(
            parse("get this as md please", None).intent,
            Intent::Markdown
        );
        assert!(!super::lists_a_plural(&super::words("get the details")));
        assert!(!super::lists_a_plural(&super::words(
            "give me this story's title"
        )));
    }

    #[test]
    fn in_stock_is_one_products_unless_the_words_say_many() {
        assert_eq!(parse("is it in stock?", None).intent, Intent::Product);
        for many in [
            "only shoes that are in stock",
            "which boots are in stock",
            // An order compares items.
            "the best rated laptop that is in stock",
        ] {
            assert_eq!(parse(many, None).intent, Intent::List, "{many}");
            assert!(!parse(many, None).values.is_empty(), "{many}");
        }
    }

    #[test]
    fn the_main_list_is_a_part_of_the_page_not_a_value() {
        let request = parse(
            "List every item of the main list on this page, with all their details.",
            None,
        );
        assert_eq!(request.intent, Intent::List);
        assert!(request.values.is_empty(), "{:?}", request.values);
        assert!(request.fields.is_empty(), "{:?}", request.fields);
    }

    #[test]
    fn bounds_on_values_are_no_counts_and_bring_their_column() {
        let request = parse("the names of the products under 20 dollars", None);
        assert_eq!(request.count, None);
        assert_eq!(request.bounds.len(), 1);
        assert_eq!(
            field_names("the names of the products under 20 dollars"),
            ["name", "price"]
        );
        let request = parse("stories with more than 200 points", None);
        assert_eq!(request.count, None);
        assert!(request.many);
        assert_eq!(request.bounds[0].role, FieldRole::Score);
        // A count beside a bound stays a count.
        assert_eq!(parse("the 3 cheapest items under $50", None).count, Some(3));
        // Money bounds a named pay: no price column is added to a list of jobs.
        let words = "every job with its title and salary, paying over €75,000";
        let request = parse(words, None);
        assert_eq!(field_names(words), ["title", "salary"]);
        assert_eq!(
            request
                .bound_field(&request.bounds[0])
                .map(|f| f.name.as_str()),
            Some("salary")
        );
        let view = request.view();
        assert_eq!(view.bounds[0].by, "salary");
        assert_eq!(view.bounds[0].op, "above");
        assert_eq!(view.bounds[0].value.as_f64(), Some(75_000.0));
    }

    #[test]
    fn fields_keep_the_users_words() {
        let f = fields("top 10 stories with title, link and points", None);
        let names: Vec<_> = f.iter().map(|f| (f.name.as_str(), f.role)).collect();
        assert_eq!(
            names,
            vec![
                ("title", FieldRole::Title),
                ("link", FieldRole::Url),
                ("points", FieldRole::Score)
            ]
        );
        let with = fields("first five stories with points", None);
        assert_eq!(
            with.iter()
                .map(|f| (f.name.as_str(), f.role))
                .collect::<Vec<_>>(),
            vec![("title", FieldRole::Title), ("points", FieldRole::Score)]
        );
        let named = fields("names and prices", None);
        assert_eq!(
            named.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
            vec!["name", "price"]
        );
        let posts = fields("all posts with author, date and text", None);
        assert_eq!(
            posts
                .iter()
                .map(|f| (f.name.as_str(), f.role))
                .collect::<Vec<_>>(),
            vec![
                ("title", FieldRole::Title),
                ("author", FieldRole::Author),
                ("date", FieldRole::Date),
                ("text", FieldRole::Description)
            ]
        );
        let images = fields("all images with their alt text", None);
        assert!(images.iter().all(|f| f.name != "text"), "{images:?}");
        let cols = fields("top stories", Some("columns: price, url"));
        assert_eq!(
            cols.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
            vec!["price", "url"]
        );
        let cols = fields("top stories", Some("columns: title, url, points"));
        assert_eq!(
            cols.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
            vec!["title", "url", "points"]
        );
    }

    #[test]
    fn plans_and_deals_are_the_items_of_a_comparison() {
        for words in [
            "list every plan with all details",
            "Which deals have Wi-Fi calling?",
            "which SIMs are in stock",
            "nom et prix de chaque forfait",
        ] {
            let request = parse(words, None);
            assert!(
                !request.values.iter().any(|v| v
                    .phrases
                    .iter()
                    .any(|p| ["plan", "deals", "sims", "forfait"].contains(&p.as_str()))),
                "{words}: {:?}",
                request.values
            );
        }
    }

    #[test]
    fn a_contact_detail_of_each_item_is_a_column_of_the_items() {
        for words in [
            "List every pharmacy with its phone number",
            "pharmacy names and phone numbers",
            "phone numbers of all the pharmacies",
            "alle Apotheken mit Telefonnummer",
            "el teléfono de cada farmacia",
        ] {
            let request = parse(words, None);
            assert_eq!(request.intent, Intent::List, "{words}");
            assert!(
                request.fields.iter().any(|f| f.name.starts_with("phone")),
                "{words}: {:?}",
                request.fields
            );
        }
        // The page's contact details: no items named.
        for words in [
            "all the phone numbers on this page",
            "every email address",
            "their phone number",
            "emails and phone numbers",
        ] {
            assert_eq!(parse(words, None).intent, Intent::Contacts, "{words}");
        }
    }

    #[test]
    fn intents() {
        assert_eq!(
            parse("top 10 stories with title and link", None).intent,
            Intent::List
        );
        assert_eq!(parse("all products with price", None).intent, Intent::List);
        assert_eq!(
            parse("the main text of the article", None).intent,
            Intent::MainContent
        );
        // Every entry of a feed is a list; the blog post is one text.
        assert_eq!(
            parse("every blog post from 2025 with its date", None).intent,
            Intent::List
        );
        assert_eq!(
            parse("the text of the blog post", None).intent,
            Intent::MainContent
        );
        assert_eq!(
            parse("how do I install it?", None).intent,
            Intent::MainContent
        );
        assert_eq!(
            parse("give me a one-line summary", None).intent,
            Intent::MainContent
        );
        assert_eq!(
            parse("every post with its summary", None).intent,
            Intent::List
        );
        assert_eq!(
            parse("how can I contact them?", None).intent,
            Intent::Contacts
        );
        assert_eq!(
            parse("product details: name, price, sku", None).intent,
            Intent::Product
        );
        assert_eq!(
            parse("all external links", None).intent,
            Intent::Links {
                external_only: true,
                contains: None
            }
        );
        assert_eq!(
            parse("emails and phone numbers", None).intent,
            Intent::Contacts
        );
        assert_eq!(
            parse("page metadata (title, author, description)", None).intent,
            Intent::Metadata
        );
        assert_eq!(
            parse("the cheapest 3 products", None).sort,
            Some((FieldRole::Price, false))
        );
        assert_eq!(parse("product names and prices", None).intent, Intent::List);
        assert_eq!(parse("the cheapest product", None).intent, Intent::List);
        assert_eq!(parse("list every product", None).intent, Intent::List);
        assert_eq!(
            parse("the product's name, price and sku", None).intent,
            Intent::Product
        );
        assert_eq!(
            parse("the title of the page", None).intent,
            Intent::Metadata
        );
        assert_eq!(parse("image urls", None).intent, Intent::Images);
        assert_eq!(
            parse("all images with their alt text", None).intent,
            Intent::Images
        );
        // A kind of value of the items, or of items ordered by another value, is their column.
        assert_eq!(parse("all prices on the page", None).intent, Intent::Prices);
        assert_eq!(
            parse("the shoes and their prices", None).intent,
            Intent::List
        );
        assert_eq!(
            parse("prices of the 3 best-rated shoes", None).intent,
            Intent::List
        );
        assert_eq!(
            parse("all code examples on this page", None).intent,
            Intent::Code
        );
        assert_eq!(
            parse("the code snippets, with their language", None).intent,
            Intent::Code
        );
        for (wording, target) in [
            ("links to github", Some("github")),
            ("all links containing docs", Some("docs")),
            ("links pointing to wikipedia.org", Some("wikipedia.org")),
            ("links to other sites", None),
            ("links matching \"/blog/\"", Some("/blog/")),
        ] {
            let Intent::Links { contains, .. } = parse(wording, None).intent else {
                panic!("{wording}: not a links request");
            };
            assert_eq!(contains.as_deref(), target, "{wording}");
        }
    }

    mod properties {
        use proptest::prelude::*;

        use super::super::{count, fields, parse};

        /// Words the parser acts on, mixed with arbitrary text, so random requests reach the
        /// count, field and sort readers and not only the "nothing understood" path.
        fn request() -> impl Strategy<Value = String> {
            let piece = prop_oneof![
                prop::sample::select(vec![
                    "top",
                    "first",
                    "last",
                    "most",
                    "recent",
                    "oldest",
                    "cheapest",
                    "the",
                    "with",
                    "and",
                    ",",
                    "title",
                    "link",
                    "points",
                    "price",
                    "date",
                    "stories",
                    "products",
                    "links to",
                    "emails",
                    "tables",
                    "main text",
                    "five",
                    "10",
                    "0",
                    "-3",
                    "99999999999999999999999",
                    "½",
                    "١٢",
                    "columns:",
                    "by",
                    "comments",
                    "per",
                ])
                .prop_map(str::to_owned),
                any::<String>(),
                "\\PC{0,8}",
                "[\\x00-\\x1f\\u{7f}-\\u{9f}\\u{200b}-\\u{200f}\\u{2028}\\u{fe0f}]{0,4}",
            ];
            prop::collection::vec(piece, 0..12).prop_map(|parts| parts.join(" "))
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

            #[test]
            fn parse_never_panics(instructions in request(), output in proptest::option::of(request())) {
                let understood = parse(&instructions, output.as_deref());
                // The parts agree with the readers they come from, on the lexicon's words; a
                // list's items may gain their title in front.
                // Bounds (on values and on things counted) and text matches are read first, as
                // `parse` reads them, and their words are no count or field; each may add the
                // field of its value after the ones named, as may the order.
                let canonical = crate::planner::lexicon::canonical(&instructions);
                let (_, rest) = crate::planner::bounds::read(&canonical);
                let (_, rest) = crate::planner::measures::read(&rest);
                let (_, rest) = crate::planner::matches::read(&rest);
                prop_assert_eq!(understood.count, count(&rest));
                let read = fields(&rest, output.as_deref());
                let chosen: Vec<crate::read::role::FieldRole> = understood
                    .bounds
                    .iter()
                    .map(|b| b.role)
                    .chain(understood.matches.iter().map(|m| m.role))
                    .chain(understood.sort.map(|(role, _)| role))
                    .collect();
                let named: Vec<&crate::planner::intent::RequestedField> = understood
                    .fields
                    .iter()
                    .filter(|f| !chosen.contains(&f.role) || read.contains(f))
                    .collect();
                let read: Vec<&crate::planner::intent::RequestedField> = read.iter().collect();
                let titled = named.len() == read.len() + 1
                    && *named[0] == crate::planner::intent::title_field()
                    && named[1..] == read[..];
                prop_assert!(titled || named == read, "{:?} vs {:?}", understood.fields, read);
            }

            #[test]
            fn parse_never_panics_on_any_string(instructions in any::<String>(), output in any::<String>()) {
                let _ = parse(&instructions, Some(&output));
            }
        }
    }
}
