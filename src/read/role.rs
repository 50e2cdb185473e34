//! The part of an item a field means — its title, link, price, … — written once for every
//! reader of it: the request's words (intent), the outline's field candidates, the heuristic
//! planner's choices, and the records' columns (`extract.records`' `fields` param).
//!
//! Its names on the wire (serde, the JSON Schema and `as_str`) are the words the outline and
//! the planner have always shown, so the tool results and the catalog read as before.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

// The doc comments below are the `extract.records` schema's descriptions: change them and the
// published catalog changes too.
/// What a named field is, as far as its values show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FieldRole {
    /// The item's name or headline.
    Title,
    /// A link to the item.
    Url,
    /// Points, votes, a rating.
    Score,
    /// A price.
    Price,
    /// A picture.
    Image,
    /// A date or time.
    Date,
    /// Who wrote or posted it.
    Author,
    /// A count of comments.
    Comments,
    /// Its description or own words.
    Description,
    /// Anything else: matched by name only.
    Text,
}

impl FieldRole {
    /// Every role, in the order the enum lists them.
    pub const ALL: [FieldRole; 10] = [
        FieldRole::Title,
        FieldRole::Url,
        FieldRole::Score,
        FieldRole::Price,
        FieldRole::Image,
        FieldRole::Date,
        FieldRole::Author,
        FieldRole::Comments,
        FieldRole::Description,
        FieldRole::Text,
    ];

    /// The role's name, as serde writes it; also the default output key for a field of it.
    pub const fn as_str(self) -> &'static str {
        match self {
            FieldRole::Title => "title",
            FieldRole::Url => "url",
            FieldRole::Score => "score",
            FieldRole::Price => "price",
            FieldRole::Image => "image",
            FieldRole::Date => "date",
            FieldRole::Author => "author",
            FieldRole::Comments => "comments",
            FieldRole::Description => "description",
            FieldRole::Text => "text",
        }
    }
}

/// Whether an element marks its item's author by its own markup: `itemprop=author`,
/// `rel=author`, or an `author`/`byline`/`username`/`poster` class word. (A forum's
/// `data-username` is a weaker mark: a quoted post carries one too.)
pub fn marks_author(element: &scraper::node::Element) -> bool {
    let words = element.classes().chain(element.attr("rel"));
    element.attr("itemprop") == Some("author")
        || words.into_iter().any(|c| {
            let c = c.to_ascii_lowercase();
            c.contains("author")
                || matches!(c.as_str(), "byline" | "hnuser" | "creator" | "poster")
                || c.contains("username")
        })
}

/// Lines that name the person behind an item by what they do to it ("Taught by Ann Lee",
/// "Hosted by Bo"), with the name of that person's part: a course's instructor, a talk's
/// presenter. A plain "by Ann" (and "posted/written by") is the author's byline, read as such
/// where bylines are.
pub const ROLE_LINES: &[(&str, &str)] = &[
    ("taught by", "instructor"),
    ("instructed by", "instructor"),
    ("hosted by", "host"),
    ("presented by", "presenter"),
    ("led by", "leader"),
    ("organised by", "organizer"),
    ("organized by", "organizer"),
    ("directed by", "director"),
    ("narrated by", "narrator"),
    ("illustrated by", "illustrator"),
    ("translated by", "translator"),
    ("designed by", "designer"),
    ("developed by", "developer"),
    ("produced by", "producer"),
    ("published by", "publisher"),
    ("curated by", "curator"),
    ("sold by", "seller"),
    // A credit line: the thing made, then who made it ("Recipe by Ana Ruiz").
    ("recipe by", "author"),
    ("recipe from", "author"),
    ("words by", "author"),
    ("story by", "author"),
    ("created by", "author"),
];

/// The part a role line names and the person's name after it ("Taught by Ann Lee" →
/// `instructor`, "Ann Lee").
pub fn role_line(text: &str) -> Option<(&'static str, &str)> {
    let text = text.trim();
    ROLE_LINES.iter().find_map(|(lead, part)| {
        let head = text.get(..lead.len())?;
        let name = text[lead.len()..].trim();
        (head.eq_ignore_ascii_case(lead) && !name.is_empty()).then_some((*part, name))
    })
}

/// Whether a column's name is a person's part in an item ([`ROLE_LINES`]'s parts besides the
/// author's): the person behind it, as an author is behind a post ("courses by Ann Lee" is
/// the instructor).
pub fn is_person_part(name: &str) -> bool {
    name != "author" && ROLE_LINES.iter().any(|(_, part)| *part == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_role_line_names_the_part_and_the_person() {
        assert_eq!(
            role_line("Taught by Maria Lopez"),
            Some(("instructor", "Maria Lopez"))
        );
        assert_eq!(role_line(" hosted by Bo "), Some(("host", "Bo")));
        assert_eq!(role_line("by Ann Lee"), None);
        assert_eq!(
            role_line("Recipe by Ana Ruiz"),
            Some(("author", "Ana Ruiz"))
        );
        assert_eq!(role_line("Taught by"), None);
        assert!(is_person_part("instructor") && !is_person_part("author"));
    }

    #[test]
    fn as_str_is_the_serde_name() {
        for role in FieldRole::ALL {
            assert_eq!(
                serde_json::to_value(role).unwrap(),
                serde_json::Value::String(role.as_str().to_owned())
            );
            assert_eq!(
                serde_json::from_value::<FieldRole>(role.as_str().into()).unwrap(),
                role
            );
        }
    }
}
