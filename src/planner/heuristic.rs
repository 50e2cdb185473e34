//! The heuristic planner: deterministic plans from the request and the page outline.
//!
//! Same page and request → same plan. Round 0 plans for the best-fitting candidate; when a
//! round leaves no answer, the next round tries the next candidate block.

use futures::future::BoxFuture;
use indexmap::IndexMap;
use serde_json::Value;

use super::bounds::{self, FilterMiss};
use super::intent::{self, Intent, Request, RequestedField};
use super::matches;
use super::{DraftSender, Plan, Planner, PlannerContext, PlannerError};
use crate::read::outline::RepeatedBlock;
use crate::read::role::FieldRole;
use crate::tools::ToolCall;
use crate::tools::data::{DedupeParams, FilterOp, FilterParams, SelectColumnsParams, SortParams};
use crate::tools::extract::{
    DatesParams, EmailsParams, FieldKind, FieldSpec, FieldsParams, FullFieldSpec, ListScope,
    MainContentParams, NamedFieldsParams, PhonesParams, PricesParams, ProductParams, RecordsParams,
    TopNParams, ValueChoice, WantedField, value_rule,
};
use crate::tools::html::{
    CodeParams, ImagesParams, LinksParams, MetaParams, SelectParams, TablesParams,
};

/// The default planner.
#[derive(Debug, Default, Clone, Copy)]
pub struct HeuristicPlanner;

impl HeuristicPlanner {
    /// Its name in decisions and requests.
    pub const NAME: &'static str = "heuristic";
}

impl Planner for HeuristicPlanner {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn decide_tools<'a>(
        &'a self,
        context: &'a PlannerContext,
        _drafts: &'a DraftSender,
    ) -> BoxFuture<'a, Result<Plan, PlannerError>> {
        Box::pin(async move { Ok(plan(context)) })
    }
}

/// Plans one round (pure function; the trait impl only wraps it).
pub fn plan(context: &PlannerContext) -> Plan {
    if context.round > 0 && context.have_answer {
        return Plan {
            done: true,
            notes: vec!["the previous round produced an answer".into()],
            ..Plan::default()
        };
    }
    let request = &context.understood;
    // Rounds so far that ended without an answer: each one moves to the next candidate.
    let attempt = context.round as usize;
    let page_facts = page_facts_rule(request, &context.outline);
    let product_rule = page_facts
        .is_none()
        .then(|| asks_one_product(request, &context.outline))
        .flatten();
    let product_page = product_rule.is_some();
    let priced_list = page_facts.is_none() && lists_products(request, &context.outline);
    let intent = match page_facts {
        Some(_) => &Intent::Metadata,
        None if product_page => &Intent::Product,
        None if priced_list => &Intent::List,
        None => &request.intent,
    };
    let mut plan = match intent {
        Intent::List => list_plan(context, &with_the_kind_named(context, request), attempt),
        other if attempt == 0 => single_plan(other, request, &context.instructions),
        // A kind of value the page does not show ("email addresses" of a glossary) is not
        // answered by the page's items: the run ends with none, and says which.
        other if let Some(kind) = other.kind_of_value() => final_plan(
            Vec::new(),
            vec![format!(
                "the page shows no {kind}: its items are no answer to this request"
            )],
        ),
        // A page-level tool found nothing: fall back to reading the page as a list.
        _ => list_plan(context, &with_the_kind_named(context, request), attempt - 1),
    };
    if let Some(rule) = page_facts {
        plan.notes.insert(0, rule.note().to_owned());
    }
    if priced_list {
        plan.notes.insert(
            0,
            "a product's fields were asked of a page that describes no product and lists priced items (rule: priced_list): read the list".to_owned(),
        );
    }
    if let Some(rule) = product_rule {
        plan.notes.insert(0, rule.note().to_owned());
    }
    plan.notes.insert(
        0,
        format!("understood the request as {}", describe(request)),
    );
    plan
}

/// Roles that are facts of a whole page as well as of an item: an article has one title,
/// author, date and description.
const PAGE_FACT_ROLES: &[FieldRole] = &[
    FieldRole::Title,
    FieldRole::Author,
    FieldRole::Date,
    FieldRole::Description,
];

/// JSON-LD types that say the page is one article.
const ARTICLE_TYPES: &[&str] = &[
    "Article",
    "NewsArticle",
    "BlogPosting",
    "Report",
    "TechArticle",
    "ScholarlyArticle",
    "LiveBlogPosting",
    "OpinionNewsArticle",
    "ReportageNewsArticle",
    "AnalysisNewsArticle",
];

/// Paragraph text outside page chrome above which a page reads as an article. The list
/// fixtures (cards, feeds, events, shops) have under 300 characters of paragraphs; the
/// articles of WCXB's tuning split have 2,000 and more.
const ARTICLE_PARAGRAPH_CHARS: usize = 1_500;

/// Why "title, author and date" asked without a word for many things are the page's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PageFactsRule {
    /// The page declares itself an article in JSON-LD.
    JsonLdArticle,
    /// The page is mostly prose.
    ProsePage,
    /// No content list on the page has a part for the fields asked.
    NoListHasThem,
    /// The title alone, asked with no word for many things.
    OnlyTheTitle,
}

impl PageFactsRule {
    fn note(self) -> &'static str {
        match self {
            Self::JsonLdArticle => {
                "the fields asked are facts of one page and its JSON-LD says it is an article (rule: jsonld_article): read the page's metadata"
            }
            Self::ProsePage => {
                "the fields asked are facts of one page and the page is mostly prose (rule: prose_page): read the page's metadata"
            }
            Self::OnlyTheTitle => {
                "the request asks for one title and no word says many (rule: only_the_title): read the page's metadata"
            }
            Self::NoListHasThem => {
                "the fields asked are facts of one page and no content list has them (rule: no_list_has_them): read the page's metadata"
            }
        }
    }
}

/// Why "name and price", asked with no word for many things, is one product's details.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ProductRule {
    /// The page's JSON-LD describes a product.
    JsonLdProduct,
    /// The request asks for a price or a product's key ("name + price", "how much is this
    /// and what is it called"), and the page is neither prose nor a list of priced items: a
    /// product page without JSON-LD.
    OneProductShown,
    /// Free names only ("weight and material"), one of them the label of a row in a block
    /// whose rows start with different labels: one thing's spec sheet, not a list.
    LabelledRows,
}

impl ProductRule {
    fn note(self) -> &'static str {
        match self {
            Self::JsonLdProduct => {
                "the fields asked are a product's and the page's JSON-LD describes one product (rule: jsonld_product): read the product"
            }
            Self::OneProductShown => {
                "the fields asked are a product's and the page shows no priced list and is not prose (rule: one_product_shown): read the product"
            }
            Self::LabelledRows => {
                "the fields asked label rows of one thing's details, each row a different label (rule: labelled_rows): read them where the page labels them"
            }
        }
    }
}

/// "name and price", asked with no word for many things of a page whose JSON-LD describes a
/// product, or which asks for a price or a product's key on a page that is neither prose nor
/// a list of priced items: the product's details, not a list.
fn asks_one_product(
    request: &Request,
    outline: &crate::read::outline::Outline,
) -> Option<ProductRule> {
    let product_field = |f: &RequestedField| {
        matches!(
            f.role,
            FieldRole::Title | FieldRole::Price | FieldRole::Image | FieldRole::Description
        ) || PRODUCT_WORDS
            .iter()
            .any(|(_, words)| words.contains(&f.name.as_str()))
    };
    // Free names beside a price or a key only products have are the product's further
    // details ("price and weight"), which the product path reads by their labels; beside a
    // name they may be anything's ("name and city").
    let only_products_have = |f: &RequestedField| {
        f.role == FieldRole::Price
            || PRODUCT_WORDS
                .iter()
                .filter(|(key, _)| !matches!(*key, "name" | "image" | "description"))
                .any(|(_, words)| words.contains(&f.name.as_str()))
    };
    if labelled_rows(request, outline) {
        return Some(ProductRule::LabelledRows);
    }
    let asks = matches!(request.intent, Intent::List)
        && !request.many
        && request.fields.iter().any(|f| f.role != FieldRole::Title)
        && (request.fields.iter().all(product_field)
            || request.fields.iter().any(only_products_have)
                && request
                    .fields
                    .iter()
                    .all(|f| product_field(f) || f.role == FieldRole::Text));
    if !asks {
        return None;
    }
    if outline.jsonld_types.iter().any(|t| t == "Product") {
        return Some(ProductRule::JsonLdProduct);
    }
    let product_key = |f: &RequestedField| {
        f.role == FieldRole::Price
            || PRODUCT_WORDS
                .iter()
                .any(|(_, words)| words.contains(&f.name.as_str()))
    };
    let priced_list = outline.blocks.iter().any(|b| {
        !b.in_chrome && b.count >= 3 && b.fields.iter().any(|f| f.role == FieldRole::Price)
    });
    (request.fields.iter().any(product_key)
        && !priced_list
        && outline.paragraph_chars < ARTICLE_PARAGRAPH_CHARS)
        .then_some(ProductRule::OneProductShown)
}

/// Whether free names asked with no word for many things label rows of one thing: a block
/// whose sampled rows start with different words ("SKU …", "Weight …", "Material …"), one of
/// them a name asked. A list's items start alike (their titles), never with the names asked.
fn labelled_rows(request: &Request, outline: &crate::read::outline::Outline) -> bool {
    let free: Vec<String> = request
        .fields
        .iter()
        .filter(|f| f.role == FieldRole::Text)
        .map(|f| f.name.to_lowercase())
        .collect();
    if !matches!(request.intent, Intent::List)
        || request.many
        || free.is_empty()
        || free.len() != request.fields.len()
    {
        return false;
    }
    outline.blocks.iter().filter(|b| !b.in_chrome).any(|block| {
        let firsts: Vec<String> = block
            .sample
            .iter()
            .filter_map(|text| intent::words(text).into_iter().next())
            .collect();
        let distinct: std::collections::HashSet<&String> = firsts.iter().collect();
        firsts.len() >= 2
            && distinct.len() == firsts.len()
            && block.sample.iter().any(|text| {
                let lower = text.to_lowercase();
                free.iter().any(|name| {
                    lower
                        .strip_prefix(name.as_str())
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', ':', '\t']))
                })
            })
    })
}

/// "product / price" asked of a shop's list: the words read as one product but point at
/// none ("this", "the product"), the page describes none (no Product in its JSON-LD) and it
/// shows a content list of three or more priced items, so the request is for the list's
/// products.
fn lists_products(request: &Request, outline: &crate::read::outline::Outline) -> bool {
    let lower = request.read_as.to_lowercase();
    let points_at_one = intent::words(&lower)
        .iter()
        .any(|w| matches!(w.as_str(), "this" | "that" | "its"))
        || ["the product", "the item"]
            .iter()
            .any(|p| lower.contains(p));
    matches!(request.intent, Intent::Product)
        && !points_at_one
        && !outline.jsonld_types.iter().any(|t| t == "Product")
        && outline.blocks.iter().any(|b| {
            !b.in_chrome && b.count >= 3 && b.fields.iter().any(|f| f.role == FieldRole::Price)
        })
}

/// The page decides what the words could not: a request for page facts only (title, author,
/// date, description), with no word for many things, is the page's metadata on an article
/// and the items' fields on a list page.
fn page_facts_rule(
    request: &Request,
    outline: &crate::read::outline::Outline,
) -> Option<PageFactsRule> {
    // "title / author / date of the article" names the article's facts, not its text ("the
    // text of the article" names its body: a description, left to the main content).
    let article_facts = matches!(request.intent, Intent::MainContent)
        && request.fields.iter().all(|f| {
            matches!(
                f.role,
                FieldRole::Title | FieldRole::Author | FieldRole::Date
            )
        });
    let facts_only = (matches!(request.intent, Intent::List) || article_facts)
        && !request.many
        && !request.fields.is_empty()
        && request
            .fields
            .iter()
            .all(|f| PAGE_FACT_ROLES.contains(&f.role));
    if !facts_only {
        return None;
    }
    if outline
        .jsonld_types
        .iter()
        .any(|t| ARTICLE_TYPES.contains(&t.as_str()))
    {
        return Some(PageFactsRule::JsonLdArticle);
    }
    if outline.paragraph_chars >= ARTICLE_PARAGRAPH_CHARS {
        return Some(PageFactsRule::ProsePage);
    }
    // "the title of this thread", "title only": one title, no word for many, is the page's.
    if request.fields.iter().all(|f| f.role == FieldRole::Title) {
        return Some(PageFactsRule::OnlyTheTitle);
    }
    let list_has_them = outline.blocks.iter().filter(|b| !b.in_chrome).any(|b| {
        request
            .fields
            .iter()
            .filter(|f| f.role != FieldRole::Title)
            .all(|f| b.fields.iter().any(|c| c.role == f.role))
    });
    (!list_has_them).then_some(PageFactsRule::NoListHasThem)
}

fn describe(request: &Request) -> String {
    let intent = serde_json::to_value(&request.intent)
        .ok()
        .and_then(|v| v.get("kind").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_default();
    let mut text = intent;
    if let Some(n) = request.count {
        text.push_str(&format!(", {n} items"));
    }
    if !request.fields.is_empty() {
        let names: Vec<&str> = request.fields.iter().map(|f| f.name.as_str()).collect();
        text.push_str(&format!(", fields {}", names.join(", ")));
    }
    text
}

fn single_plan(intent: &Intent, request: &Request, instructions: &str) -> Plan {
    let mut calls = match intent {
        Intent::MainContent => vec![ToolCall::typed(
            &MainContentParams::default(),
            "the request asks for the page's main text",
        )],
        Intent::Product if !beyond_product_keys(request).is_empty() => {
            vec![ToolCall::typed(
                &NamedFieldsParams {
                    fields: request.fields.iter().map(|f| f.name.clone()).collect(),
                },
                format!(
                    "the request names {} of a product, which its structured data has no key for: read every field named where the page labels it",
                    beyond_product_keys(request).join(", ")
                ),
            )]
        }
        Intent::Product => vec![ToolCall::typed(
            // The user says the page shows a product, so its title counts without markup.
            &ProductParams {
                assume_product: true,
            },
            "the request asks for a product's details",
        )],
        Intent::Metadata => vec![ToolCall::typed(
            &MetaParams {},
            "the request asks for page metadata",
        )],
        Intent::Links {
            external_only,
            contains,
        } => vec![ToolCall::typed(
            &LinksParams {
                pattern: contains.as_deref().map(regex::escape),
                same_host: external_only.then_some(false),
                limit: None,
                within: false,
            },
            "the request asks for links",
        )],
        Intent::Tables => vec![ToolCall::typed(
            &TablesParams {
                selector: None,
                all: false,
            },
            "the request asks for table data",
        )],
        Intent::Contacts => {
            let mut emails = ToolCall::typed(
                &EmailsParams {},
                "the request asks for contact details: emails",
            );
            emails.save_as = Some("emails".into());
            let mut phones = ToolCall::typed(
                &PhonesParams {},
                "the request asks for contact details: phone numbers",
            );
            phones.save_as = Some("phones".into());
            vec![emails, phones]
        }
        Intent::Prices => vec![ToolCall::typed(
            &PricesParams {},
            "the request asks for prices",
        )],
        Intent::Dates => vec![ToolCall::typed(
            &DatesParams {},
            "the request asks for dates",
        )],
        Intent::Images => vec![ToolCall::typed(
            &ImagesParams {
                selector: None,
                limit: None,
                within: false,
            },
            "the request asks for images",
        )],
        Intent::Code => vec![ToolCall::typed(
            &CodeParams {
                limit: None,
                within: false,
            },
            "the request asks for code blocks",
        )],
        Intent::Markdown => vec![
            ToolCall::typed(
                &MainContentParams::default(),
                "the request asks for the page as Markdown: its main content, without menus and footers",
            ),
            ToolCall::typed(
                &SelectColumnsParams {
                    columns: vec!["markdown".into()],
                    rename: None,
                },
                "keep the Markdown of the main content",
            ),
        ],
        Intent::List => Vec::new(),
    };
    // "all prices under $20": the page's prices are items with an amount.
    let mut notes = Vec::new();
    if intent == &Intent::Prices {
        calls.extend(
            request
                .bounds
                .iter()
                .filter(|b| b.role == FieldRole::Price)
                .map(|bound| {
                    ToolCall::typed(
                        &FilterParams {
                            field: "amount".to_owned(),
                            op: bound.op.filter_op(),
                            value: bound.filter_value(),
                        },
                        format!("the request keeps prices {}", bound.describe()),
                    )
                }),
        );
    }
    // A bound or a match this answer cannot hold is said, not dropped in silence.
    let unkept = request
        .bounds
        .iter()
        .filter(|b| intent != &Intent::Prices || b.role != FieldRole::Price)
        .count()
        + request.matches.len();
    if unkept > 0 {
        notes.push(format!(
            "{unkept} choice(s) of items asked for (a bound on a value, words the items hold) \
             are not applied: they choose a list's items, and this answer is not a list"
        ));
    }
    if let Some(n) = request.count
        && matches!(
            intent,
            Intent::Links { .. } | Intent::Images | Intent::Prices | Intent::Dates | Intent::Code
        )
    {
        calls.push(ToolCall::typed(
            &TopNParams::first(n),
            format!("the request asks for {n}"),
        ));
    }
    let shape = match intent {
        Intent::Metadata => metadata_shape(&request.fields),
        Intent::Product => product_shape(instructions),
        _ => None,
    };
    calls.extend(shape);
    Plan {
        tool_calls: calls,
        done: true,
        notes,
        ..Plan::default()
    }
}

/// `extract.product`'s keys and the words that name them.
const PRODUCT_WORDS: &[(&str, &[&str])] = &[
    ("name", &["name", "title"]),
    ("price", &["price", "cost"]),
    ("currency", &["currency"]),
    (
        "availability",
        &[
            "availability",
            "stock",
            "available",
            "in stock",
            "stock level",
        ],
    ),
    ("sku", &["sku"]),
    ("brand", &["brand", "maker", "manufacturer"]),
    ("gtin", &["gtin", "ean", "upc", "barcode"]),
    ("mpn", &["mpn"]),
    ("image", &["image", "photo", "picture"]),
    ("description", &["description"]),
];

/// The free fields named for a product that `extract.product` has no key for ("weight",
/// "material").
fn beyond_product_keys(request: &Request) -> Vec<&str> {
    request
        .fields
        .iter()
        .filter(|f| f.role == FieldRole::Text)
        .map(|f| f.name.as_str())
        .filter(|name| !PRODUCT_WORDS.iter().any(|(_, words)| words.contains(name)))
        .collect()
}

/// `extract.product` answers every key it has; a user who named some ("name, price and
/// availability") gets those, in the order named.
fn product_shape(instructions: &str) -> Option<ToolCall> {
    let lower = instructions.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let mut columns: Vec<&str> = Vec::new();
    for word in &words {
        let Some((key, _)) = PRODUCT_WORDS.iter().find(|(_, names)| names.contains(word)) else {
            continue;
        };
        if !columns.contains(key) {
            columns.push(key);
        }
    }
    // One word ("the price of this product") asks about the product, not for a projection.
    (columns.len() >= 2).then(|| {
        ToolCall::typed(
            &SelectColumnsParams {
                columns: columns.iter().map(|c| (*c).to_owned()).collect(),
                rename: None,
            },
            format!("the request names the fields {}", columns.join(", ")),
        )
    })
}

/// `html.meta` answers every fact it knows; a user who named fields ("the title, author and
/// publish date") gets those, under their own names, in their order.
fn metadata_shape(fields: &[RequestedField]) -> Option<ToolCall> {
    let mut columns: Vec<String> = Vec::new();
    let mut rename = IndexMap::new();
    for field in fields {
        let key = match field.role {
            FieldRole::Title => "title",
            FieldRole::Author => "author",
            FieldRole::Date
                if field.name.starts_with("update") || field.name.starts_with("modified") =>
            {
                "modified_time"
            }
            FieldRole::Date => "published_time",
            FieldRole::Description => "description",
            FieldRole::Url => "canonical",
            FieldRole::Image => "og.image",
            FieldRole::Score | FieldRole::Price | FieldRole::Comments | FieldRole::Text => continue,
        };
        if columns.iter().any(|c| c == key) {
            continue;
        }
        columns.push(key.to_owned());
        if field.name != key {
            rename.insert(key.to_owned(), field.name.clone());
        }
    }
    if columns.is_empty() {
        return None;
    }
    let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
    Some(ToolCall::typed(
        // The renames are shown even when there are none: the call says no field was renamed.
        &SelectColumnsParams {
            columns,
            rename: Some(rename),
        },
        format!("the request names the fields {}", names.join(", ")),
    ))
}

/// How well a block fits the request: its own score, times the share of requested roles it
/// has, times the share of the requested count it can supply (a 3-tab strip cannot be "the
/// first 10 results").
fn fit(block: &RepeatedBlock, request: &Request) -> f64 {
    let wanted = &request.fields;
    let mut roles: Vec<FieldRole> = if wanted.is_empty() {
        vec![FieldRole::Title, FieldRole::Url]
    } else {
        wanted.iter().map(|f| f.role).collect()
    };
    // "everything under $20" wants the block with prices; "posts by alicew" the one with
    // authors.
    roles.extend(request.bounds.iter().map(|b| b.role));
    roles.extend(request.matches.iter().map(|m| m.role));
    let have = roles
        .iter()
        .filter(|r| block.fields.iter().any(|f| f.role == **r))
        .count();
    #[allow(clippy::cast_precision_loss)]
    let share = (have as f64 + 0.5) / (roles.len() as f64 + 0.5);
    #[allow(clippy::cast_precision_loss)]
    let supply = match request.count {
        Some(n) if block.count < n => block.count as f64 / n as f64,
        _ => 1.0,
    };
    block.score * share * supply
}

/// Item nouns that name any item of their page, whatever its kind: an agenda's "talks" are its
/// sessions, though some are a "Talk" and others a "Workshop".
const GENERAL_ITEM_NOUNS: &[&str] = &[
    "item", "thing", "entry", "listing", "post", "event", "session", "talk",
];

/// "list the workshops" on an agenda whose sessions are a "Workshop", a "Talk" or a
/// "Keynote": the items' noun is a kind some of them show as a whole value, and it chooses
/// them as any value would. A page of nothing but workshops shows it on every item (or on
/// none), which is no value of some items, and the request is read as before.
fn with_the_kind_named(context: &PlannerContext, request: &Request) -> Request {
    let kind = request
        .read_as
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .find(|word| {
            super::intent::is_item_noun(word)
                && !GENERAL_ITEM_NOUNS.contains(&crate::page::dom::singular(word).as_str())
                && context
                    .outline
                    .values
                    .iter()
                    .any(|value| crate::tools::extract::same_value(value, word))
        });
    let mut request = request.clone();
    if let Some(kind) = kind
        && !request.values.iter().any(|v| v.phrases.contains(&kind))
    {
        request.values.push(ValueChoice {
            phrases: vec![kind],
            negated: false,
        });
    }
    request
}

fn list_plan(context: &PlannerContext, request: &Request, attempt: usize) -> Plan {
    // A list with the value bounded, none of its items within the bound, is the answer: no
    // other block is tried for items that would be (a sidebar's "deals" are not the list).
    if let Some(miss @ FilterMiss::NoneWithin { .. }) = bounds::emptied(&context.observations) {
        return final_plan(Vec::new(), vec![miss.message()]);
    }
    // Words that may be a value the items are chosen by ("the professors") are weighed first,
    // when the page's lists show them as a value of some items, by the records engine, which
    // reads every column of every item; when no column holds them (the call fails), the list
    // is read as if they were not there.
    if !request.values.is_empty() {
        let shown: Vec<ValueChoice> = request
            .values
            .iter()
            .filter(|choice| {
                choice.phrases.iter().any(|phrase| {
                    context
                        .outline
                        .values
                        .iter()
                        .any(|value| value_rule(value, phrase).is_some())
                })
            })
            .cloned()
            .collect();
        if attempt == 0 && !shown.is_empty() {
            return values_plan(&Request {
                values: shown,
                ..request.clone()
            });
        }
        let attempt = if shown.is_empty() {
            attempt
        } else {
            attempt - 1
        };
        let without = Request {
            values: Vec::new(),
            ..request.clone()
        };
        return list_plan(context, &without, attempt);
    }
    // A request that names no fields wants every item with everything it shows: the records
    // engine finds the main list and all its columns. Named fields, or a sort that needs to
    // know which field is which, go through the outline's blocks; so does a page where the
    // records engine found nothing (the next round).
    let records_first = request.fields.is_empty()
        && request.sort.is_none()
        && request.bounds.is_empty()
        && request.matches.is_empty();
    if records_first && attempt == 0 {
        return records_plan(request);
    }
    let attempt = if records_first { attempt - 1 } else { attempt };
    let blocks = &context.outline.blocks;
    let content: Vec<&RepeatedBlock> = blocks.iter().filter(|b| !b.in_chrome).collect();
    // Navigation is never "the items" while a content block exists.
    let mut candidates = if content.is_empty() {
        blocks.iter().collect()
    } else {
        content
    };
    candidates.sort_by(|a, b| {
        fit(b, request)
            .partial_cmp(&fit(a, request))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    // Named fields the best block has no part for ("title, author and link" where the
    // author is a "by …" line), or free names no item role means ("birth place", which only
    // a column or a label can answer), are read as columns of the records first: the records
    // engine reads every part of an item and names it. When it has no list with them, the
    // blocks come next.
    // So are items the best block has no name for (a table's rows, whose whole text would
    // stand for the title): the records name them by a column.
    // So are two fields of one role ("start time and end time"): a block has one part for
    // each role, the records a column for each time printed.
    let records_for_fields = !request.fields.is_empty()
        && (request.fields.iter().any(|f| f.role == FieldRole::Text)
            || request
                .fields
                .iter()
                .enumerate()
                .any(|(at, field)| request.fields[..at].iter().any(|f| f.role == field.role))
            || candidates.first().is_none_or(|best| {
                !field_specs(best, &request.fields).2.is_empty()
                    || request.fields.iter().any(|f| f.role == FieldRole::Title)
                        && !best.fields.iter().any(|f| f.role == FieldRole::Title)
            }));
    // A choice by a value the best block has no part for ("posts by Bo Jensen" where the
    // author is a "by …" line) is read the same way, with that value as a column; so is an
    // order by a number the block has no part for ("the most reviewed café", where the count
    // sits in the rating's line).
    let ordered_by = request.sort.map(|(role, _)| role).filter(|role| {
        matches!(
            role,
            FieldRole::Score | FieldRole::Comments | FieldRole::Price
        )
    });
    // Items asked for without fields are named by their title: a best block with no part
    // that names its items (its only link a "Select" button) is read as records, whose
    // columns hold the name (unless the records were read first and failed).
    let named_by_title = (request.fields.is_empty() && !records_first).then_some(FieldRole::Title);
    let chosen: Vec<FieldRole> = request
        .chosen_by()
        .chain(ordered_by)
        .chain(named_by_title)
        .collect();
    let records_for_choice = !records_for_fields
        && candidates.first().is_some_and(|best| {
            chosen
                .iter()
                .any(|role| !best.fields.iter().any(|f| f.role == *role))
        });
    if records_for_fields && attempt == 0 {
        return fields_from_records(request);
    }
    if records_for_choice && attempt == 0 {
        return fields_from_records(&with_chosen_columns(request, &chosen));
    }
    let records_for_fields = records_for_fields || records_for_choice;
    let attempt = if records_for_fields {
        attempt - 1
    } else {
        attempt
    };
    let Some(block) = candidates.get(attempt) else {
        return Plan {
            done: true,
            notes: vec![format!(
                "no repeated block left to try ({} candidates tried)",
                candidates.len()
            )],
            ..Plan::default()
        };
    };
    let (mut fields, mut order, missing) = field_specs(block, &request.fields);
    // A value the words named otherwise than its role takes the user's name: a pay is a
    // `salary` ("which job pays the most?"), a count of reviews `reviews` ("the most reviewed
    // café"). A field the user named for that role keeps the user's name.
    if let Some(named) = request.value_named
        && !request.fields.iter().any(|f| f.role == named.role())
        && let Some(spec) = fields.shift_remove(named.role().as_str())
    {
        fields.insert(named.column().into(), spec);
        for name in order.iter_mut().filter(|n| *n == named.role().as_str()) {
            *name = named.column().to_owned();
        }
    }
    // A bounded value, or the one the items are ordered by, is read although no field was
    // named: "stories with at least 100 comments", "the most discussed story" need each
    // story's comments.
    if request.fields.is_empty() {
        let mut bounded: Vec<RequestedField> = Vec::new();
        for role in request
            .chosen_by()
            .chain(request.sort.map(|(role, _)| role))
        {
            if !order.iter().any(|n| n == request.column_name(role))
                && !bounded.iter().any(|f| f.role == role)
                && block.fields.iter().any(|f| f.role == role)
            {
                bounded.push(RequestedField {
                    name: request.column_name(role).to_owned(),
                    role,
                });
            }
        }
        if !bounded.is_empty() {
            let (more, more_order, _) = field_specs(block, &bounded);
            fields.extend(more);
            order.extend(more_order);
        }
    }
    // Item pages are read from each item's link: named fields without one keep it anyway.
    if request.keeps_item_links()
        && let Some(link) = block.fields.iter().find(|f| f.role == FieldRole::Url)
        && !fields.contains_key("url")
    {
        fields.insert("url".into(), FieldSpec::Short(link.spec.clone()));
        order.push("url".into());
    }
    let mut notes = Vec::new();
    if !missing.is_empty() {
        notes.push(format!(
            "no part of the items looks like: {}",
            missing.join(", ")
        ));
    }
    let mut calls = vec![
        ToolCall::typed(
            &SelectParams {
                selector: block.selector.clone(),
                limit: None,
                within: false,
            },
            format!(
                "{} repeated `{}` items{}; best fit for the request{}",
                block.count,
                block.selector,
                block
                    .sample
                    .first()
                    .map(|s| format!(" (first: \"{s}\")"))
                    .unwrap_or_default(),
                if attempt > 0 {
                    format!(" after {attempt} candidate(s) gave nothing")
                } else {
                    String::new()
                }
            ),
        ),
        ToolCall::typed(
            &FieldsParams {
                fields,
                selector: None,
                order: Some(order.clone()),
            },
            format!("read {} from each item", order.join(", ")),
        ),
    ];
    calls.extend(tidy(order.first().map(String::as_str)));
    calls.extend(choice_filters(request, &order));
    // Dates that do not read as moments would sort as words; the page's own order (usually
    // newest first) is the better answer then.
    let sortable = |role: FieldRole| {
        role != FieldRole::Date
            || block.fields.iter().any(|f| {
                f.role == FieldRole::Date && crate::page::dates::timestamp(&f.sample, 0).is_some()
            })
    };
    if let Some((role, descending)) = request.sort.filter(|(role, _)| sortable(*role))
        && let Some(field) = request.sort_field().map(|f| f.name.clone()).or_else(|| {
            order
                .iter()
                .find(|n| *n == request.column_name(role))
                .cloned()
        })
    {
        calls.push(ToolCall::typed(
            &SortParams {
                by: field.clone(),
                descending,
            },
            format!("the request asks for items ordered by {field}"),
        ));
    }
    calls.extend(request.count.map(top_n));
    final_plan(calls, notes)
}

/// A plan that is the last round's: these calls, these notes, no model used.
fn final_plan(tool_calls: Vec<ToolCall>, notes: Vec<String>) -> Plan {
    Plan {
        tool_calls,
        done: true,
        notes,
        usage: (0, 0),
    }
}

/// Items without their main field are not items (ads, spacers); carousels repeat items.
fn tidy(primary: Option<&str>) -> Vec<ToolCall> {
    let filter = primary.map(|primary| {
        ToolCall::typed(
            &FilterParams {
                field: primary.to_owned(),
                op: FilterOp::Exists,
                value: None,
            },
            format!("drop entries that have no {primary}"),
        )
    });
    let dedupe = ToolCall::typed(
        &DedupeParams { by: None },
        "drop entries that repeat an earlier one",
    );
    filter.into_iter().chain([dedupe]).collect()
}

/// Keeps the items the request chooses: within its bounds ("under $20") and holding its words
/// ("posts by alicew"), each on the field answering it — the named field, else the column of
/// its role. One no column answers still filters (on the role's name), so a page without
/// prices answers "under $20" with no items, not all. Items without the value go first, so the
/// run can tell a page without prices from one with none under the bound (`bounds::emptied`).
fn choice_filters(request: &Request, columns: &[String]) -> Vec<ToolCall> {
    // A column named for the role, else one named by another of its words ("rating" holds
    // a shop's stars, "points" a story's score).
    let field_of = |named: Option<&RequestedField>, role: FieldRole| {
        named
            .map(|f| f.name.clone())
            .or_else(|| {
                columns
                    .iter()
                    .find(|c| *c == request.column_name(role))
                    .cloned()
            })
            .or_else(|| {
                columns
                    .iter()
                    .find(|c| {
                        intent::role_of(c) == Some(role)
                            || role == FieldRole::Score && matches!(c.as_str(), "rating" | "stars")
                    })
                    .cloned()
            })
            .unwrap_or_else(|| role.as_str().to_owned())
    };
    let bounds = request.bounds.iter().map(|bound| {
        let field = field_of(request.bound_field(bound), bound.role);
        let reason = format!(
            "the request keeps items whose {field} is {}",
            bound.describe()
        );
        (field, bound.op.filter_op(), bound.filter_value(), reason)
    });
    let matches = request.matches.iter().map(|m| {
        let named = request.fields.iter().find(|f| f.role == m.role);
        let field = field_of(named, m.role);
        let reason = format!(
            "the request keeps items whose {field} holds the words \"{}\" (rule {})",
            m.text, m.rule
        );
        let words = match m.role {
            FieldRole::Url => m.text.clone(), // a site is part of a word of the link
            FieldRole::Date => {
                matches::month_pattern(&m.text).unwrap_or_else(|| matches::pattern(&m.text))
            }
            _ => matches::pattern(&m.text),
        };
        let op = if m.role == FieldRole::Url {
            FilterOp::Contains
        } else {
            FilterOp::Matches
        };
        (field, op, Some(Value::from(words)), reason)
    });
    let mut calls = Vec::new();
    for (field, op, value, reason) in bounds.chain(matches) {
        calls.push(ToolCall::typed(
            &FilterParams {
                field: field.clone(),
                op: FilterOp::Exists,
                value: None,
            },
            format!("a choice by {field} keeps only entries that show one"),
        ));
        calls.push(ToolCall::typed(&FilterParams { field, op, value }, reason));
    }
    calls
}

/// Keeps the first `n` items, as the request's count asks.
fn top_n(n: usize) -> ToolCall {
    ToolCall::typed(
        &TopNParams::first(n),
        format!("the request asks for {n} items"),
    )
}

/// The named fields as columns of the records of the list that has the first of them, then
/// the same tidying as the blocks' path: items without that field dropped, repeats dropped,
/// the order and the count asked for.
/// The request with a column for each value its items are chosen by, and the items' title
/// when it named no field.
fn with_chosen_columns(request: &Request, chosen: &[FieldRole]) -> Request {
    let mut request = request.clone();
    if request.fields.is_empty() {
        request.fields.push(RequestedField {
            name: FieldRole::Title.as_str().to_owned(),
            role: FieldRole::Title,
        });
    }
    for role in chosen {
        if !request.fields.iter().any(|f| f.role == *role) {
            request.fields.push(RequestedField {
                name: request.column_name(*role).to_owned(),
                role: *role,
            });
        }
    }
    request
}

fn fields_from_records(request: &Request) -> Plan {
    // Item pages are read from each item's link: named fields without one keep it anyway.
    let link = request.keeps_item_links().then(|| RequestedField {
        name: "url".to_owned(),
        role: FieldRole::Url,
    });
    let fields: Vec<WantedField> = request
        .fields
        .iter()
        .chain(link.as_ref())
        .map(|field| WantedField {
            name: field.name.clone(),
            role: field.role,
            // A free name is also answered by its synonyms' columns ("location": "city").
            words: if field.role == FieldRole::Text {
                intent::column_words(&field.name)
            } else {
                intent::ROLE_WORDS
                    .iter()
                    .find(|(role, _)| *role == field.role)
                    .map(|(_, words)| words.iter().map(|w| (*w).to_owned()).collect())
                    .unwrap_or_default()
            },
            asked: request
                .matches
                .iter()
                .filter(|m| m.role == field.role)
                .map(|m| m.text.clone())
                .collect(),
        })
        .collect();
    let names: Vec<String> = fields.iter().map(|f| f.name.clone()).collect();
    let mut calls = vec![ToolCall::typed(
        &RecordsParams {
            fields: Some(fields),
            choose: request.values.clone(),
            ..RecordsParams::default()
        },
        format!(
            "the best repeated block has no part for every field named; read {} as columns of the records",
            names.join(", ")
        ),
    )];
    calls.extend(tidy(names.first().map(String::as_str)));
    calls.extend(choice_filters(request, &names));
    if let Some((_, descending)) = request.sort
        && let Some(field) = request.sort_field()
    {
        calls.push(ToolCall::typed(
            &SortParams {
                by: field.name.clone(),
                descending,
            },
            format!("the request asks for items ordered by {}", field.name),
        ));
    }
    calls.extend(request.count.map(top_n));
    final_plan(calls, Vec::new())
}

/// The list's records chosen by the words that may be their values: every field when none was
/// named, else the named fields with the values chosen by and the order asked for as columns.
fn values_plan(request: &Request) -> Plan {
    let plain = request.fields.is_empty()
        && request.sort.is_none()
        && request.bounds.is_empty()
        && request.matches.is_empty();
    if plain {
        return records_plan(request);
    }
    let by: Vec<FieldRole> = request
        .chosen_by()
        .chain(request.sort.map(|(role, _)| role))
        .collect();
    fields_from_records(&with_chosen_columns(request, &by))
}

/// Every record of the main list (or of every list, when asked) with all its fields, then
/// the count asked for.
fn records_plan(request: &Request) -> Plan {
    let call = if request.all_lists {
        ToolCall::typed(
            &RecordsParams {
                lists: ListScope::All,
                ..RecordsParams::default()
            },
            "the request asks for every list on the page: the records of each, with every field they show",
        )
    } else {
        ToolCall::typed(
            &RecordsParams {
                choose: request.values.clone(),
                ..RecordsParams::default()
            },
            if request.values.is_empty() {
                "the request names no fields: every item of the page's main list, with every field it shows"
            } else {
                "the request names no fields: the items of the page's main list, with every field they show, chosen by the words that are a value of some of them"
            },
        )
    };
    let mut calls = vec![call];
    calls.extend(request.count.map(top_n));
    final_plan(calls, Vec::new())
}

/// The `extract.fields` map for the requested fields (or the block's title/url and any
/// price, score, date, image when none were named), its order, and roles not found.
fn field_specs(
    block: &RepeatedBlock,
    wanted: &[RequestedField],
) -> (IndexMap<String, FieldSpec>, Vec<String>, Vec<String>) {
    let mut fields = IndexMap::new();
    let mut order = Vec::new();
    let mut missing = Vec::new();
    let defaults: Vec<RequestedField>;
    let wanted = if wanted.is_empty() {
        defaults = [
            FieldRole::Title,
            FieldRole::Url,
            FieldRole::Price,
            FieldRole::Score,
            FieldRole::Date,
            FieldRole::Image,
        ]
        .into_iter()
        .filter(|role| block.fields.iter().any(|f| f.role == *role))
        .map(|role| RequestedField {
            name: role.as_str().to_owned(),
            role,
        })
        .collect();
        if defaults.is_empty() {
            fields.insert("text".into(), whole_item_text());
            return (fields, vec!["text".into()], missing);
        }
        &defaults
    } else {
        wanted
    };
    // Posts and comments have no heading: their "longest link" is the poster's name, which
    // is the author, not a title. Such an item is named by its text.
    let sample_of = |role: FieldRole| {
        block
            .fields
            .iter()
            .find(|f| f.role == role)
            .map(|f| f.sample.as_str())
    };
    let title_is_author = sample_of(FieldRole::Title).is_some_and(|title| {
        !title.is_empty()
            && sample_of(FieldRole::Author).is_some_and(|author| author.contains(title))
    });
    let body_named = wanted.iter().any(|f| f.role == FieldRole::Description);
    for field in wanted {
        // "posts with author, date and text": the body the user named stands for the item,
        // in the place the user gave it.
        if field.role == FieldRole::Title && title_is_author && body_named {
            continue;
        }
        let (role, name) = if field.role == FieldRole::Title && title_is_author {
            (FieldRole::Description, "text".to_owned())
        } else {
            (field.role, field.name.clone())
        };
        match block.fields.iter().find(|f| f.role == role) {
            Some(candidate) => {
                let spec = if field.role == FieldRole::Date {
                    // Dates come back as ISO-8601 where the page prints one.
                    let full = FieldSpec::Short(candidate.spec.clone()).to_full();
                    FieldSpec::Full(FullFieldSpec {
                        kind: FieldKind::Date,
                        ..full
                    })
                } else if matches!(field.role, FieldRole::Score | FieldRole::Comments) {
                    let (next_sibling, selector) = candidate
                        .spec
                        .strip_prefix('+')
                        .map_or((false, candidate.spec.as_str()), |s| (true, s));
                    FieldSpec::Full(FullFieldSpec {
                        selector: selector.to_owned(),
                        attr: None,
                        kind: FieldKind::Number,
                        next_sibling,
                    })
                } else {
                    FieldSpec::Short(candidate.spec.clone())
                };
                fields.insert(name.clone(), spec);
                order.push(name);
            }
            // Items with no part that looks like a name (paragraph promos, text rows) are
            // named by their whole text rather than left without the field asked for; a value
            // a page labels (a SKU, a salary) is never the whole text.
            None if field.role == FieldRole::Title
                || field.role == FieldRole::Text && !intent::names_a_value(&field.name) =>
            {
                fields.insert(name.clone(), whole_item_text());
                order.push(name);
            }
            None => missing.push(name),
        }
    }
    if fields.is_empty() {
        fields.insert("text".into(), whole_item_text());
        order.push("text".into());
    }
    (fields, order, missing)
}

/// The field spec that reads an item's whole text.
fn whole_item_text() -> FieldSpec {
    FieldSpec::Short(".".into())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::read::outline::FieldCandidate;

    fn block(fields: Vec<FieldCandidate>) -> RepeatedBlock {
        RepeatedBlock {
            selector: "div.hero > p".into(),
            count: 4,
            sample: Vec::new(),
            in_chrome: false,
            score: 1.0,
            fields,
        }
    }

    fn wanted(names: &[(&str, FieldRole)]) -> Vec<RequestedField> {
        names
            .iter()
            .map(|(name, role)| RequestedField {
                name: (*name).to_owned(),
                role: *role,
            })
            .collect()
    }

    #[test]
    fn metadata_answers_hold_the_named_fields_under_the_users_names() {
        let named = plan(&context(
            "Get the title, author and publish date of this page",
            0,
        ));
        let tools: Vec<&str> = named.tool_calls.iter().map(|c| c.tool.as_str()).collect();
        assert_eq!(tools, ["html.meta", "data.select_columns"]);
        assert_eq!(
            named.tool_calls[1].params,
            json!({"columns": ["title", "author", "published_time"], "rename": {"published_time": "publish_date"}})
        );
        // No fields named: the whole metadata.
        let whole = plan(&context("the page metadata", 0));
        assert_eq!(whole.tool_calls.len(), 1);
    }

    #[test]
    fn product_answers_hold_the_named_keys_in_the_users_order() {
        let named = plan(&context(
            "name, price, currency, sku, brand and availability",
            0,
        ));
        let tools: Vec<&str> = named.tool_calls.iter().map(|c| c.tool.as_str()).collect();
        assert_eq!(tools, ["extract.product", "data.select_columns"]);
        assert_eq!(
            named.tool_calls[1].params,
            json!({"columns": ["name", "price", "currency", "sku", "brand", "availability"]})
        );
        let one = plan(&context("what is the price of this product", 0));
        assert_eq!(one.tool_calls.len(), 1);
    }

    fn context(instructions: &str, round: u32) -> PlannerContext {
        PlannerContext {
            instructions: instructions.into(),
            output_instructions: None,
            understood: intent::parse(instructions, None),
            url: "https://shop.example/".into(),
            outline: crate::read::outline::Outline {
                blocks: vec![block(Vec::new())],
                ..Default::default()
            },
            observations: Vec::new(),
            round,
            steps_left: 20,
            have_answer: false,
            tools: Vec::new(),
            model: None,
        }
    }

    fn tools_of(plan: &Plan) -> Vec<&str> {
        plan.tool_calls.iter().map(|c| c.tool.as_str()).collect()
    }

    #[test]
    fn a_kind_of_value_the_page_did_not_show_is_not_looked_for_in_its_list() {
        for wording in [
            "email addresses on this page",
            "the code examples",
            "all dates",
        ] {
            let first = plan(&context(wording, 0));
            assert_ne!(tools_of(&first), Vec::<&str>::new(), "{wording}");
            let next = plan(&context(wording, 1));
            assert!(
                next.tool_calls.is_empty() && next.done,
                "{wording}: {next:?}"
            );
            assert!(
                next.notes.iter().any(|n| n.contains("the page shows no")),
                "{wording}: {:?}",
                next.notes
            );
        }
        // A table not found may still be the page's list, read as rows.
        let next = plan(&context("the table on this page", 1));
        assert!(!next.tool_calls.is_empty(), "{next:?}");
    }

    #[test]
    fn free_names_that_label_a_spec_sheets_rows_are_one_things_details() {
        let sheet = |sample: &[&str]| {
            let mut context = context("weight and material", 0);
            context.outline.blocks = vec![RepeatedBlock {
                sample: sample.iter().map(|s| (*s).to_owned()).collect(),
                ..block(Vec::new())
            }];
            plan(&context)
        };
        let one = sheet(&["SKU", "Weight", "Material"]);
        assert_eq!(tools_of(&one), ["extract.named_fields"]);
        assert!(one.notes.iter().any(|n| n.contains("labelled_rows")));
        // Rows that start alike are a list's items, whatever they hold.
        let list = sheet(&["Weight 240 g", "Weight 1.4 kg", "Weight 90 g"]);
        assert_ne!(tools_of(&list), ["extract.named_fields"]);
        // A word for many things asks for a list.
        let mut many = context("the weight and material of every tool", 0);
        many.outline.blocks = vec![RepeatedBlock {
            sample: vec!["SKU".into(), "Weight".into(), "Material".into()],
            ..block(Vec::new())
        }];
        assert!(
            !plan(&many)
                .notes
                .iter()
                .any(|n| n.contains("labelled_rows"))
        );
    }

    #[test]
    fn a_price_asked_of_a_page_that_is_neither_prose_nor_a_priced_list_is_the_products() {
        for wording in [
            "name + price",
            "how much is this pruner and what is it called?",
        ] {
            let one = plan(&context(wording, 0));
            assert_eq!(tools_of(&one)[0], "extract.product", "{wording}");
            assert!(
                one.notes.iter().any(|n| n.contains("one_product_shown")),
                "{wording}"
            );
        }
        // A list of priced items, or prose, is not one product's page.
        let mut priced = context("name + price", 0);
        priced.outline.blocks = vec![block(vec![FieldCandidate {
            role: FieldRole::Price,
            spec: ".price".into(),
            sample: "£6.75".into(),
        }])];
        assert_ne!(tools_of(&plan(&priced))[0], "extract.product");
        let mut prose = context("name + price", 0);
        prose.outline.paragraph_chars = ARTICLE_PARAGRAPH_CHARS;
        assert_ne!(tools_of(&plan(&prose))[0], "extract.product");
        // Many products are a list.
        let many = plan(&context("every product's name and price", 0));
        assert_ne!(tools_of(&many)[0], "extract.product");
    }

    #[test]
    fn the_title_alone_with_no_word_for_many_is_the_pages() {
        let one = plan(&context("the title of this thread", 0));
        assert_eq!(tools_of(&one)[0], "html.meta", "{:?}", one.notes);
        assert!(one.notes.iter().any(|n| n.contains("only_the_title")));
        let many = plan(&context("the titles of all threads", 0));
        assert_ne!(tools_of(&many)[0], "html.meta");
    }

    #[test]
    fn a_list_request_without_fields_reads_every_record_then_the_blocks_if_that_fails() {
        for wording in [
            "List every item of the main list on this page, with all their details.",
            "all the jobs",
            "every product on this page",
        ] {
            let first = plan(&context(wording, 0));
            assert_eq!(tools_of(&first), ["extract.records"], "{wording}");
            let next = plan(&context(wording, 1));
            assert_eq!(tools_of(&next)[0], "html.select", "{wording}");
        }
        let top = plan(&context("the top 5 stories", 0));
        assert_eq!(tools_of(&top), ["extract.records", "extract.top_n"]);
        assert_eq!(top.tool_calls[1].params, json!({"n": 5}));
    }

    #[test]
    fn a_request_for_every_list_reads_every_list_and_otherwise_the_main_one() {
        for wording in [
            "Get all the lists on this page, every record of each.",
            "every data record on this page",
        ] {
            let first = plan(&context(wording, 0));
            assert_eq!(tools_of(&first), ["extract.records"], "{wording}");
            assert_eq!(
                first.tool_calls[0].params,
                json!({"lists": "all"}),
                "{wording}"
            );
        }
        let main = plan(&context("every product on this page", 0));
        assert_eq!(main.tool_calls[0].params, json!({}));
    }

    #[test]
    fn named_fields_the_best_block_has_are_read_from_it() {
        let mut with_parts = context("every product with its name and price", 0);
        with_parts.outline.blocks = vec![block(vec![
            FieldCandidate {
                role: FieldRole::Title,
                spec: "h3".into(),
                sample: "Mug".into(),
            },
            FieldCandidate {
                role: FieldRole::Price,
                spec: ".price".into(),
                sample: "$4.99".into(),
            },
        ])];
        let named = plan(&with_parts);
        assert_eq!(tools_of(&named)[..2], ["html.select", "extract.fields"]);
    }

    #[test]
    fn an_items_noun_some_items_show_as_their_kind_chooses_them() {
        let mut agenda = context("list the workshops", 0);
        agenda.outline.values = vec!["Workshop".into(), "Talk".into(), "Keynote".into()];
        let kinds = with_the_kind_named(&agenda, &agenda.understood);
        assert_eq!(kinds.values.len(), 1);
        assert_eq!(kinds.values[0].phrases, ["workshops"]);
        // A noun naming any item is no kind ("the talks" of an agenda are its sessions); a
        // kind no item shows chooses nothing.
        let mut talks = context("list the talks", 0);
        talks.outline.values = vec!["Workshop".into(), "Talk".into()];
        assert!(
            with_the_kind_named(&talks, &talks.understood)
                .values
                .is_empty()
        );
        let mut shown_by_none = context("list the workshops", 0);
        shown_by_none.outline.values = vec!["Talk".into()];
        assert!(
            with_the_kind_named(&shown_by_none, &shown_by_none.understood)
                .values
                .is_empty()
        );
    }

    #[test]
    fn two_fields_of_one_role_are_read_as_columns_of_the_records() {
        let mut timed = context("every class with its start time and end time", 0);
        timed.outline.blocks = vec![block(vec![
            FieldCandidate {
                role: FieldRole::Title,
                spec: "h3".into(),
                sample: "Spin".into(),
            },
            FieldCandidate {
                role: FieldRole::Date,
                spec: "time".into(),
                sample: "06:30".into(),
            },
        ])];
        assert_eq!(tools_of(&plan(&timed))[0], "extract.records");
    }

    #[test]
    fn named_fields_keep_the_items_links_when_item_pages_are_read() {
        let mut listed = context("every product with its name", 0);
        listed.outline.blocks = vec![block(vec![
            FieldCandidate {
                role: FieldRole::Title,
                spec: "h3".into(),
                sample: "Mug".into(),
            },
            FieldCandidate {
                role: FieldRole::Url,
                spec: "a@href".into(),
                sample: "/mug".into(),
            },
        ])];
        let fields_of = |plan: &Plan| plan.tool_calls[1].params["fields"].clone();
        assert_eq!(fields_of(&plan(&listed)), json!({"name": "h3"}));
        listed.understood.item_pages = true;
        assert_eq!(
            fields_of(&plan(&listed)),
            json!({"name": "h3", "url": "a@href"})
        );
        // A field the block has no part for: the records' columns, the link among them.
        let mut columns = context("all the items with their name and sku", 0);
        columns.understood.item_pages = true;
        let read = plan(&columns);
        assert_eq!(tools_of(&read)[0], "extract.records");
        let roles: Vec<&Value> = read.tool_calls[0].params["fields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| &f["role"])
            .collect();
        assert_eq!(roles.last(), Some(&&json!("url")), "{roles:?}");
    }

    #[test]
    fn named_fields_the_best_block_lacks_are_read_from_the_records_then_the_block() {
        // The block has no part for the price, and "birth place" is no item role.
        for wording in [
            "every product with its name and price",
            "every pioneer with name and birth place",
        ] {
            let mut first = context(wording, 0);
            if wording.contains("birth") {
                first.output_instructions = Some("columns: name, birth place".into());
            }
            let records = plan(&first);
            assert_eq!(
                tools_of(&records),
                ["extract.records", "data.filter", "data.dedupe"],
                "{wording}"
            );
            let names: Vec<&Value> = records.tool_calls[0].params["fields"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| &f["name"])
                .collect();
            // The items' links are kept too: a field none of them shows may be on their pages.
            assert_eq!(names.len(), 3, "{wording}");
            assert_eq!(names[2], "url", "{wording}");
            first.round = 1;
            assert_eq!(
                tools_of(&plan(&first))[..2],
                ["html.select", "extract.fields"]
            );
        }
    }

    #[test]
    fn a_requested_title_falls_back_to_the_item_text() {
        let (fields, order, missing) = field_specs(
            &block(Vec::new()),
            &wanted(&[("title", FieldRole::Title), ("link", FieldRole::Url)]),
        );
        assert_eq!(
            serde_json::to_value(&fields).unwrap(),
            json!({"title": "."})
        );
        assert_eq!(order, vec!["title".to_owned()]);
        assert_eq!(missing, vec!["link".to_owned()]);
    }

    #[test]
    fn a_found_title_is_used_as_found() {
        let title = FieldCandidate {
            role: FieldRole::Title,
            spec: "h3".into(),
            sample: "First".into(),
        };
        let (fields, order, missing) =
            field_specs(&block(vec![title]), &wanted(&[("name", FieldRole::Title)]));
        assert_eq!(
            serde_json::to_value(&fields).unwrap(),
            json!({"name": "h3"})
        );
        assert_eq!(order, vec!["name".to_owned()]);
        assert!(missing.is_empty());
    }
}
