//! The fields a user named, held to account in the answer: every named field is a column
//! (`null` where the page has nothing for it), the fields that stayed empty are listed, and an
//! answer that has none of what was asked is no answer ("this page shows no price").

use serde_json::{Map, Value};

use crate::planner::intent::{self, Intent, Request, RequestedField};
use crate::read::role::FieldRole;

use super::page::has_content;
use crate::tools::extract::is_money_name;

/// What the answer holds of the fields the user named.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Settled {
    /// The answer, with every named field present, and the named fields no item filled.
    Answer {
        /// The answer (list items gained `null` columns for named fields they lacked).
        answer: Value,
        /// Named fields empty in every item (in the order named).
        empty_fields: Vec<String>,
    },
    /// The page has none of what was asked: the words of the message name it.
    NoMatch(String),
}

/// Holds the answer to the fields named in `request`. `looked_in_vain`: the named fields the
/// list lacked were looked for on an item's own page too, and were not there.
pub(super) fn settle(answer: Value, request: &Request, looked_in_vain: bool) -> Settled {
    // "email addresses" of a page that shows none: no answer, and the message says which.
    // (A choice that left none, "prices under $20", says why itself.)
    if !has_content(&answer)
        && request.bounds.is_empty()
        && request.matches.is_empty()
        && let Some(kind) = request.intent.kind_of_value()
    {
        return Settled::NoMatch(shows_no(&[kind.to_owned()]));
    }
    if !has_content(&answer) && !answer.is_object() {
        return Settled::Answer {
            answer,
            empty_fields: Vec::new(),
        };
    }
    let fields = &request.fields;
    match answer {
        // A page-level request that fell back to reading the page as a list is held to the
        // same fields.
        Value::Array(items)
            if matches!(
                request.intent,
                Intent::List | Intent::Metadata | Intent::Product
            ) && (!fields.is_empty() || request.sort.is_some()) =>
        {
            settle_items(items, request, looked_in_vain)
        }
        Value::Object(record)
            if !fields.is_empty()
                && matches!(
                    request.intent,
                    Intent::List | Intent::Metadata | Intent::Product
                ) =>
        {
            let empty: Vec<String> = fields
                .iter()
                .filter(|f| !filled(&record, f))
                .map(|f| f.name.clone())
                .collect();
            // `extract.product` answers every key it knows: a product page without a price
            // answers "the price" with a record of other keys, which is not the price.
            if empty.len() == fields.len() {
                return Settled::NoMatch(shows_no(&empty));
            }
            Settled::Answer {
                answer: Value::Object(record),
                empty_fields: empty,
            }
        }
        other => Settled::Answer {
            answer: other,
            empty_fields: Vec::new(),
        },
    }
}

fn settle_items(mut items: Vec<Value>, request: &Request, looked_in_vain: bool) -> Settled {
    let named = named_fields(request);
    let records: Vec<&Map<String, Value>> = items.iter().filter_map(Value::as_object).collect();
    if records.is_empty() {
        return Settled::Answer {
            answer: Value::Array(items),
            empty_fields: Vec::new(),
        };
    }
    // The items' names are always found; the values asked beyond them decide a match. A list
    // without a single price, date or score asked for is a list of something else (related
    // posts under an article asked for its products); one without a free-named column
    // ("location") is still the list, with that column empty.
    let asked: Vec<&RequestedField> = request
        .fields
        .iter()
        .filter(|f| {
            VALUE_ROLES.contains(&f.role) || f.role == FieldRole::Text && is_money_name(&f.name)
        })
        .collect();
    let empty = empty_in_every_record(&records, &named);
    let others_filled = request
        .fields
        .iter()
        .any(|f| f.role != FieldRole::Title && !asked.contains(&f) && !empty.contains(&f.name));
    if !asked.is_empty() && !others_filled && asked.iter().all(|f| empty.contains(&f.name)) {
        let names: Vec<String> = asked.iter().map(|f| f.name.clone()).collect();
        return Settled::NoMatch(shows_no(&names));
    }
    // Nothing named is in any item: "who wrote this?" read as the page's paragraphs, each
    // without an author, is no answer. A free-named column ("location") may be one the list
    // does not label; its items are still the list, unless the request was for one thing
    // that fell back to reading the page as a list, or it was looked for on the first item's
    // own page too and was not there ("the ISBN of each book": the items' names alone were
    // not asked for; names asked beside it, "name and colour", are the answer, the column
    // empty).
    let one_thing = matches!(request.intent, Intent::Metadata | Intent::Product);
    if !named.is_empty()
        && empty.len() == named.len()
        && (one_thing || looked_in_vain || named.iter().all(|f| f.role != FieldRole::Text))
    {
        return Settled::NoMatch(shows_no(&empty));
    }
    // "the 3 cheapest products" on a page without prices: no order to answer by.
    if let Some((role, _)) = request.sort
        && role != FieldRole::Title
    {
        let by = request
            .sort_field()
            .cloned()
            .unwrap_or_else(|| RequestedField {
                name: request.column_name(role).to_owned(),
                role,
            });
        if !records.iter().any(|r| filled(r, &by)) {
            return Settled::NoMatch(shows_no(&[request.column_name(role).to_owned()]));
        }
    }
    for item in &mut items {
        let Some(record) = item.as_object_mut() else {
            continue;
        };
        for field in &named {
            if !record.contains_key(&field.name) && key_for(record, field).is_none() {
                record.insert(field.name.clone(), Value::Null);
            }
        }
    }
    Settled::Answer {
        answer: Value::Array(items),
        empty_fields: empty,
    }
}

/// The named fields (in the order named) that no item of a list answer fills; none for an
/// answer that is not a list of records.
pub(super) fn empty_in_every_item(answer: &Value, request: &Request) -> Vec<String> {
    let Value::Array(items) = answer else {
        return Vec::new();
    };
    let records: Vec<&Map<String, Value>> = items.iter().filter_map(Value::as_object).collect();
    if records.is_empty() {
        return Vec::new();
    }
    empty_in_every_record(&records, &named_fields(request))
}

/// The fields the user named, without a title only implied by the items' noun.
fn named_fields(request: &Request) -> Vec<&RequestedField> {
    request
        .fields
        .iter()
        .filter(|f| !(request.implied_title && f.role == FieldRole::Title))
        .collect()
}

fn empty_in_every_record(
    records: &[&Map<String, Value>],
    named: &[&RequestedField],
) -> Vec<String> {
    named
        .iter()
        .filter(|f| !records.iter().any(|r| filled(r, f)))
        .map(|f| f.name.clone())
        .collect()
}

/// Roles whose values have a kind of their own: a list with none of them is not the list asked.
const VALUE_ROLES: &[FieldRole] = &[
    FieldRole::Price,
    FieldRole::Date,
    FieldRole::Score,
    FieldRole::Comments,
];

/// "this page shows no price", "… no author or date".
fn shows_no(names: &[String]) -> String {
    let list = match names {
        [] => "such values".to_owned(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    };
    format!("this page shows no {list} for this request")
}

/// Whether the record has a value for the field: under its name, or under a key that means
/// the same part (`price` for "cost", `published_time` for "date").
fn filled(record: &Map<String, Value>, field: &RequestedField) -> bool {
    key_for(record, field).is_some_and(|key| record.get(key).is_some_and(has_content))
}

/// The record's key for the field: its own name first, else a key of the same role.
fn key_for<'a>(record: &'a Map<String, Value>, field: &RequestedField) -> Option<&'a str> {
    if let Some((key, _)) = record.get_key_value(&field.name) {
        return Some(key.as_str());
    }
    if field.role == FieldRole::Text {
        return None;
    }
    record
        .keys()
        .find(|key| {
            key.split(['_', ' ', '-'])
                .any(|part| intent::role_of(part) == Some(field.role))
                || (field.role == FieldRole::Title && key.as_str() == "name")
        })
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn request(text: &str) -> Request {
        intent::parse(text, None)
    }

    #[test]
    fn a_named_field_no_item_has_becomes_a_null_column_and_is_listed_empty() {
        let answer = json!([{"title": "A", "link": "/a"}, {"title": "B", "link": "/b"}]);
        let settled = settle(
            answer,
            &request("every post with title, author and link"),
            false,
        );
        let Settled::Answer {
            answer,
            empty_fields,
        } = settled
        else {
            panic!("expected an answer, got {settled:?}");
        };
        assert_eq!(answer[0]["author"], Value::Null);
        assert!(
            answer[1]
                .as_object()
                .is_some_and(|r| r.contains_key("author"))
        );
        assert_eq!(empty_fields, vec!["author".to_owned()]);
    }

    #[test]
    fn items_with_none_of_the_asked_fields_are_no_match() {
        let answer = json!([{"title": "Fun facts"}, {"title": "How to store"}]);
        let settled = settle(answer, &request("list every product with its price"), false);
        assert_eq!(
            settled,
            Settled::NoMatch("this page shows no price for this request".into())
        );
    }

    #[test]
    fn items_without_anything_named_are_no_match_unless_a_free_name_is_all_asked() {
        let paragraphs = json!([{"text": "First paragraph."}, {"text": "Second one."}]);
        let settled = settle(paragraphs, &request("who wrote this?"), false);
        assert_eq!(
            settled,
            Settled::NoMatch("this page shows no author for this request".into())
        );
        let cards = json!([{"title": "Tides"}, {"title": "Moss"}]);
        let settled = settle(cards.clone(), &request("just the authors please"), false);
        assert!(matches!(settled, Settled::NoMatch(m) if m.contains("author")));
        // A column the list may not label: still the list, with the column empty.
        let settled = settle(cards, &request("every job with its location"), false);
        assert!(
            matches!(&settled, Settled::Answer { empty_fields, .. } if empty_fields == &["location"]),
            "{settled:?}"
        );
    }

    #[test]
    fn a_free_name_looked_for_on_the_item_pages_in_vain_is_no_match() {
        let cards = json!([{"title": "Tides", "isbn": null}, {"title": "Moss", "isbn": null}]);
        let settled = settle(cards.clone(), &request("the ISBN of each book"), true);
        assert_eq!(
            settled,
            Settled::NoMatch("this page shows no isbn for this request".into())
        );
        // Not looked for on an item's page: still the list, the column empty.
        let settled = settle(cards, &request("the ISBN of each book"), false);
        assert!(
            matches!(&settled, Settled::Answer { empty_fields, .. } if empty_fields == &["isbn"])
        );
        // Another named field filled, or the names asked for: the answer, the lacking one
        // empty.
        let cards = json!([{"title": "Tides", "price": "$9", "isbn": null}]);
        for words in [
            "price and ISBN of each book",
            "the title and ISBN of each book",
        ] {
            let settled = settle(cards.clone(), &request(words), true);
            assert!(
                matches!(&settled, Settled::Answer { empty_fields, .. } if empty_fields == &["isbn"]),
                "{words}: {settled:?}"
            );
        }
    }

    #[test]
    fn a_sort_by_a_value_no_item_has_is_no_match() {
        let answer = json!([{"title": "Fun facts", "url": "/a"}]);
        let settled = settle(answer, &request("the 3 cheapest products"), false);
        assert!(matches!(settled, Settled::NoMatch(m) if m.contains("price")));
    }

    #[test]
    fn a_key_of_the_same_role_answers_a_field_named_otherwise() {
        let answer = json!({"name": "Tee", "price": 25});
        let settled = settle(
            answer.clone(),
            &request("the product's title and its cost"),
            false,
        );
        assert_eq!(
            settled,
            Settled::Answer {
                answer,
                empty_fields: Vec::new()
            }
        );
    }

    #[test]
    fn a_record_without_any_field_asked_is_no_match() {
        let answer = json!({"author": null, "published_time": null});
        let settled = settle(
            answer,
            &request("the author and the publication date"),
            false,
        );
        assert!(matches!(settled, Settled::NoMatch(m) if m.contains("author")));
    }

    #[test]
    fn a_kind_of_value_the_page_does_not_show_is_no_match_naming_it() {
        let answer = json!({"emails": [], "phones": []});
        let settled = settle(answer, &request("email addresses on this page"), false);
        assert_eq!(
            settled,
            Settled::NoMatch(
                "this page shows no email address or phone number for this request".into()
            )
        );
        // Shown, it is the answer.
        let answer = json!({"emails": ["a@example.com"], "phones": []});
        assert!(matches!(
            settle(answer, &request("email addresses on this page"), false),
            Settled::Answer { .. }
        ));
    }

    #[test]
    fn answers_to_requests_that_name_nothing_pass_unchanged() {
        let answer = json!([{"title": "A"}]);
        let settled = settle(answer.clone(), &request("all posts"), false);
        assert_eq!(
            settled,
            Settled::Answer {
                answer,
                empty_fields: Vec::new()
            }
        );
    }
}
