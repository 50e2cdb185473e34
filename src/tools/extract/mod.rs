//! `extract.*`: turning the selection and the page into records and facts.

use std::collections::{BTreeMap, HashSet};

use ego_tree::NodeId;

use indexmap::IndexMap;

use schemars::JsonSchema;
use scraper::ElementRef;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::html::{attribute_value, element_record};
use super::registry::{Effect, Tool, ToolError, ToolParams, no_params};
use super::workspace::Workspace;
use crate::page::dates::{date_pattern, month_first, normalise_date};
use crate::page::dom::{
    Layout, Skip, TextReader, bound_json, compile_regex, first_number, json_number, text_capped,
};
use crate::page::interrupt;
use crate::page::interrupt::SelectChecked;
use crate::page::locale::Locale;
use crate::page::money::money_in;
use crate::read::contacts;
use crate::read::structured::product::current_amount;

/// The `extract` namespace, in catalog order.
pub fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "Build one record per selected element from a map of field → spec (`css`, `css@attr`, `@attr`, `.` for the element's own text, a leading `+` to look in the next sibling element). An element showing a price beside a struck-through earlier one reads as the current price.",
            "Array of records (objects with the requested fields; a field not found is null; records with no field found are dropped).",
            Effect::Replace,
            fields,
        ),
        Tool::new(
            "Keep the first n records, optionally sorted by a field (numbers compare as numbers, dates and relative times like `3 hours ago` as moments).",
            "Array of at most n records.",
            Effect::Replace,
            top_n,
        ),
        Tool::new(
            "Matches of a regular expression (linear-time engine) in a record field, else in the working value's strings, else in the page (or selection) text.",
            "Array of matches: the whole match, or capture `group` (default: group 1 when the pattern has groups); with named groups and no `group`, one object per match.",
            Effect::Replace,
            regex_matches,
        ),
        Tool::new(
            "Email addresses in the page or selection: mailto: links, text (also `name [at] example [dot] com`) and Cloudflare-protected addresses.",
            "Array of lower-cased addresses, deduplicated, in order of appearance.",
            Effect::Replace,
            emails,
        ),
        Tool::new(
            "Phone numbers in the page or selection: tel: links and numbers in text (dates, prices and IDs are not taken for phones).",
            "Array of numbers normalised to digits (`+` and the country code kept when given), deduplicated.",
            Effect::Replace,
            phones,
        ),
        Tool::new(
            "Prices in the page or selection text: an amount with a currency symbol or ISO code before or after it.",
            "Array of {amount (number), currency (ISO 4217), text}.",
            Effect::Replace,
            prices,
        ),
        Tool::new(
            "Dates in the page or selection: <time datetime>, date meta tags, and dates in text (ISO, `March 3, 2025`, `3 Mar 2025`, `03/04/2025`, `03.04.2025`).",
            "Array of {date (yyyy-mm-dd, or yyyy-mm-ddThh:mm:ss with the offset when known), text}, deduplicated.",
            Effect::Replace,
            dates,
        ),
        Tool::new(
            "The page's main content (the article, without navigation and boilerplate) with its metadata; elements matching `exclude` are left out.",
            "{title, byline, published_at, lang, excerpt, site_name, text, markdown}.",
            Effect::Replace,
            main_content,
        ),
        Tool::new(
            "Every record of the page's main list (found by its repeated structure: cards, rows, table rows, feed items, records of two rows), each with every field it shows; names come from table headers, itemprop, visible labels and class names, else from the value's type. `lists: \"all\"` reads every list of records the page shows outside its menus, header and footer (the same items as a table and as cards, several sections of cards), main list first.",
            "Array of records (one object per record, the same keys in each, null where a record lacks a field; numbers and ISO dates typed, links absolute); with `lists: \"all\"` each record starts with `list` (1 for the main list; `list_number` when the page has a column named `list`). The step's `evidence` gives the list's selector, how many records the page has, the columns with where each name came from, and the lists passed over (with `lists: \"all\"`, each list read).",
            Effect::Replace,
            records,
        ),
        Tool::new(
            "Values for fields named in plain words (`sku`, `salary`, `full description`) on a page about one thing (a product, a job, a person): from schema.org data, `itemprop`, a visible label next to its value (`<dt>`/`<dd>`, a header cell, `SKU: 123`), a class named after the field, or the meta description. No fields: every labelled value the page shows, with its title and description.",
            "One object: each field (snake_case key) → its text or null; evidence says where each was found. Fails when none is found.",
            Effect::Replace,
            named::named_fields,
        ),
        Tool::new(
            "The page's product from schema.org JSON-LD, microdata or OpenGraph, with DOM fallbacks.",
            "{name, price, currency, availability, sku, brand, gtin, mpn, image, description}: price the main product's current price as a number (not a list price, related product or shipping), currency an ISO 4217 code, availability a schema.org name (InStock, OutOfStock, PreOrder, BackOrder, LimitedAvailability, …); fails when the page shows no product.",
            Effect::Replace,
            product,
        ),
        Tool::new(
            "Markdown of the elements matching `selector`, else of the selection, else of the whole page (links absolute), leaving out the elements matching `exclude`.",
            "A Markdown string.",
            Effect::Replace,
            markdown,
        ),
    ]
}

/// How to read one field from an item.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum FieldSpec {
    /// `css` (text), `css@attr`, `@attr`, `.` (own text); prefix `+` searches the next sibling.
    Short(String),
    /// The long form.
    Full(FullFieldSpec),
}

/// The long form of a field spec.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FullFieldSpec {
    /// CSS selector inside the item; empty or `.` for the item itself.
    #[serde(default)]
    pub selector: String,
    /// Attribute to read instead of the text.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub attr: Option<String>,
    /// `text` (default), `number` (first number in the text), `date` (ISO-8601 when the text holds a date), `html` (inner HTML) or `list` (all matches' texts).
    #[serde(default, skip_serializing_if = "FieldKind::is_text")]
    pub kind: FieldKind,
    /// Look in the item's next sibling element (rows split over two `<tr>`s, `<dt>`/`<dd>` pairs).
    #[serde(default)]
    pub next_sibling: bool,
}

/// What to produce from a matched element.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FieldKind {
    /// Collapsed text (or the attribute).
    #[default]
    Text,
    /// The first number in the text.
    Number,
    /// The date in the text as ISO-8601 (`Feb 21, 2024` → `2024-02-21`); the text itself when
    /// it holds none ("2 years ago").
    Date,
    /// Inner HTML.
    Html,
    /// Texts of every match.
    List,
}

impl FieldKind {
    /// Whether this is the default kind, which a spec leaves out.
    fn is_text(&self) -> bool {
        *self == Self::Text
    }
}

impl FieldSpec {
    /// Normalises both forms into the long one.
    pub fn to_full(&self) -> FullFieldSpec {
        match self {
            Self::Full(full) => full.clone(),
            Self::Short(short) => {
                let mut spec = short.trim();
                let next_sibling = spec.starts_with('+');
                if next_sibling {
                    spec = spec[1..].trim_start();
                }
                let (selector, attr) = match spec.rsplit_once('@') {
                    // `a[href^="mailto:x@y"]` is a selector, not an attribute read.
                    Some((sel, attr)) if !attr.contains([']', ' ', '"', '\'']) => {
                        (sel.trim(), Some(attr.trim().to_owned()))
                    }
                    _ => (spec, None),
                };
                FullFieldSpec {
                    selector: selector.to_owned(),
                    attr,
                    kind: FieldKind::Text,
                    next_sibling,
                }
            }
        }
    }
}

/// Params of `extract.fields`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FieldsParams {
    /// Field name → spec. Keys keep their order in the records.
    // Kept in the order given, so a call shows its fields as its maker wrote them; the tool
    // reads them in name order, as it always has.
    #[schemars(with = "BTreeMap<String, FieldSpec>")]
    pub fields: IndexMap<String, FieldSpec>,
    /// Select the items first with this CSS selector (otherwise the current selection is used).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub selector: Option<String>,
    /// Order of the fields in each record (defaults to the order of `fields`' keys, sorted).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub order: Option<Vec<String>>,
}

impl ToolParams for FieldsParams {
    const TOOL: &'static str = "extract.fields";
}

fn fields(ws: &mut Workspace<'_>, params: FieldsParams) -> Result<Value, ToolError> {
    if params.fields.is_empty() {
        return Err(ToolError::InvalidParams(
            "extract.fields: `fields` is empty".into(),
        ));
    }
    if let Some(css) = &params.selector {
        let selector = ws.selector("extract.fields", css)?;
        let found: Vec<_> = interrupt::select_document(&ws.page.document, &selector)
            .take(ws.limits.max_items)
            .collect();
        ws.selection = Some(found);
    }
    let Some(items) = ws.selection.clone() else {
        return Err(ToolError::Failed(
            "extract.fields: nothing is selected; call html.select first or pass `selector`".into(),
        ));
    };
    let mut by_name: Vec<(&String, &FieldSpec)> = params.fields.iter().collect();
    by_name.sort_by_key(|(name, _)| *name);
    let mut compiled = Vec::new();
    for (name, spec) in by_name {
        let full = spec.to_full();
        let selector = match full.selector.trim() {
            "" | "." => None,
            css => Some(ws.selector(&format!("extract.fields: field `{name}`"), css)?),
        };
        compiled.push((name.clone(), full, selector));
    }
    let order: Vec<String> = params
        .order
        .clone()
        .unwrap_or_else(|| compiled.iter().map(|(name, _, _)| name.clone()).collect());
    let mut records = Vec::new();
    let mut kept = Vec::new();
    for item in items {
        interrupt::check()?;
        let mut record = Map::new();
        let mut found_any = false;
        for (name, spec, selector) in &compiled {
            let value = read_field(ws, item, spec, selector.as_ref());
            found_any |= !value.is_null();
            record.insert(name.clone(), value);
        }
        if found_any {
            records.push(Value::Object(ordered(record, &order)));
            kept.push(item);
        }
    }
    ws.selection = Some(kept);
    Ok(Value::Array(records))
}

fn ordered(mut record: Map<String, Value>, order: &[String]) -> Map<String, Value> {
    let mut out = Map::new();
    for key in order {
        if let Some(v) = record.remove(key) {
            out.insert(key.clone(), v);
        }
    }
    out.extend(record);
    out
}

fn read_field(
    ws: &Workspace<'_>,
    item: ElementRef<'_>,
    spec: &FullFieldSpec,
    selector: Option<&scraper::Selector>,
) -> Value {
    let base = if spec.next_sibling {
        match item.next_siblings().find_map(ElementRef::wrap) {
            Some(sibling) => sibling,
            None => return Value::Null,
        }
    } else {
        item
    };
    let matches: Vec<ElementRef<'_>> = match selector {
        None => vec![base],
        Some(sel) => interrupt::select(base, sel)
            .take(ws.limits.max_items)
            .collect(),
    };
    if spec.kind == FieldKind::List {
        let texts: Vec<Value> = matches
            .iter()
            .map(|el| Value::String(text_capped(*el, ws.limits.max_text_chars)))
            .filter(|v| v != &Value::String(String::new()))
            .collect();
        return if texts.is_empty() {
            Value::Null
        } else {
            Value::Array(texts)
        };
    }
    let Some(el) = matches.first() else {
        return Value::Null;
    };
    let raw = match &spec.attr {
        // A lazy-loaded image's `src` is missing or a placeholder until a script swaps in
        // `data-src`; its real source is the one a reader ends up seeing.
        Some(attr)
            if attr == "src"
                && el.value().name() == "img"
                && el.value().attr("src").is_none_or(|src| {
                    src.trim().is_empty() || src.trim_start().starts_with("data:")
                }) =>
        {
            match super::html::image_source(ws, *el) {
                Some(url) => url,
                None => return Value::Null,
            }
        }
        Some(attr) => match el.value().attr(attr) {
            Some(v) => attribute_value(ws, attr, v),
            None => return Value::Null,
        },
        None if spec.kind == FieldKind::Html => el.inner_html(),
        // An element that shows a current price beside a struck-through earlier one reads as
        // the current price, as the records engine reads it.
        None => current_amount(*el).unwrap_or_else(|| text_capped(*el, ws.limits.max_text_chars)),
    };
    if raw.is_empty() {
        return Value::Null;
    }
    match spec.kind {
        FieldKind::Number => first_number(&raw)
            .and_then(json_number)
            .unwrap_or(Value::Null),
        FieldKind::Date => Value::String(
            normalise_date(&raw, month_first(&ws.page.document))
                .unwrap_or_else(|| ws.cap_text(raw)),
        ),
        _ => Value::String(ws.cap_text(raw)),
    }
}

/// Params of `extract.top_n`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TopNParams {
    /// How many records to keep.
    #[schemars(range(min = 1))]
    pub n: usize,
    /// Sort by this field first (numbers compare as numbers; records without it go last).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub sort_by: Option<String>,
    /// Sort largest first (default true).
    #[serde(default = "yes")]
    #[serde(skip_serializing_if = "is_descending")]
    #[schemars(!skip_serializing_if)]
    pub descending: bool,
}

impl ToolParams for TopNParams {
    const TOOL: &'static str = "extract.top_n";
}

impl TopNParams {
    /// The first `n` records, in the order they have.
    pub fn first(n: usize) -> Self {
        Self {
            n,
            sort_by: None,
            descending: true,
        }
    }
}

fn yes() -> bool {
    true
}

/// Whether `descending` holds its default, which a call leaves out.
fn is_descending(descending: &bool) -> bool {
    *descending
}

fn top_n(ws: &mut Workspace<'_>, params: TopNParams) -> Result<Value, ToolError> {
    let mut records = match &ws.value {
        Value::Array(items) => items.clone(),
        _ => match &ws.selection {
            Some(elements) => elements.iter().map(|el| element_record(ws, *el)).collect(),
            None => {
                return Err(ToolError::Failed(
                    "extract.top_n: there is no list to cut; select items or build records first"
                        .into(),
                ));
            }
        },
    };
    let mut selection = ws
        .selection
        .clone()
        .filter(|sel| sel.len() == records.len());
    if let Some(field) = &params.sort_by {
        let order = super::data::sorted_order(&records, field, params.descending);
        if let Some(sel) = selection.as_mut() {
            *sel = order.iter().map(|i| sel[*i]).collect();
        }
        let mut slots: Vec<Option<Value>> = records.into_iter().map(Some).collect();
        records = order.iter().filter_map(|i| slots[*i].take()).collect();
    }
    records.truncate(params.n);
    if let Some(mut sel) = selection {
        sel.truncate(params.n);
        ws.selection = Some(sel);
    }
    Ok(Value::Array(records))
}

/// Text the pattern tools read: the selection's elements, else the whole document, one line
/// per block (so a match cannot run across two cells), without scripts.
fn scope_text(ws: &Workspace<'_>) -> String {
    scope_text_with(ws, TextReader::new(Layout::Lines).skip(Skip::Scripts))
}

/// [`scope_text`] as `reader` reads it (for pattern tools that leave out more).
fn scope_text_with(ws: &Workspace<'_>, reader: TextReader<'_>) -> String {
    let parts: Vec<String> = ws.scope().into_iter().map(|el| reader.read(el)).collect();
    parts.join("\n")
}

/// Params of `extract.regex`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RegexParams {
    /// Regular expression (Rust `regex` syntax: no look-around or backreferences; `(?i)` ignores case).
    #[schemars(length(min = 1, max = 1000))]
    pub pattern: String,
    /// Search this field of each record of the working value.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub field: Option<String>,
    /// Capture group to return (0 = the whole match).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub group: Option<usize>,
    /// Keep at most this many matches.
    #[serde(default)]
    #[schemars(range(min = 1))]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub limit: Option<usize>,
}

impl ToolParams for RegexParams {
    const TOOL: &'static str = "extract.regex";
}

fn regex_matches(ws: &mut Workspace<'_>, params: RegexParams) -> Result<Value, ToolError> {
    let re = compile_regex(&params.pattern)
        .map_err(|e| ToolError::InvalidParams(format!("extract.regex: {e}")))?;
    let groups = re.captures_len() - 1;
    if let Some(g) = params.group
        && g > groups
    {
        return Err(ToolError::InvalidParams(format!(
            "extract.regex: `group` is {g} but the pattern has {groups} capture group(s)"
        )));
    }
    let named: Vec<&str> = re.capture_names().flatten().collect();
    let texts = regex_haystacks(ws, params.field.as_deref())?;
    let cap = params.limit.unwrap_or(usize::MAX).min(ws.limits.max_items);
    let mut out = Vec::new();
    let mut ticker = interrupt::Ticker::default();
    'texts: for text in &texts {
        interrupt::check()?;
        for caps in re.captures_iter(text) {
            ticker.tick()?;
            if out.len() >= cap {
                break 'texts;
            }
            if params.group.is_none() && !named.is_empty() {
                let record: Map<String, Value> = named
                    .iter()
                    .map(|name| {
                        let v = caps.name(name).map_or(Value::Null, |m| {
                            Value::String(ws.cap_text(m.as_str().to_owned()))
                        });
                        ((*name).to_owned(), v)
                    })
                    .collect();
                out.push(Value::Object(record));
                continue;
            }
            let group = params.group.unwrap_or(usize::from(groups > 0));
            if let Some(m) = caps.get(group) {
                out.push(Value::String(ws.cap_text(m.as_str().to_owned())));
            }
        }
    }
    Ok(Value::Array(out))
}

/// The texts `extract.regex` searches.
fn regex_haystacks(ws: &Workspace<'_>, field: Option<&str>) -> Result<Vec<String>, ToolError> {
    let budget = ws.limits.max_items.saturating_mul(16);
    if let Some(field) = field {
        let records: Vec<&Value> = match &ws.value {
            Value::Array(items) => items.iter().collect(),
            obj @ Value::Object(_) => vec![obj],
            _ => {
                return Err(ToolError::Failed(format!(
                    "extract.regex: `field` is `{field}` but the working value holds no records; build records first or leave `field` out"
                )));
            }
        };
        let mut texts = Vec::new();
        for record in records {
            if let Some(v) = crate::page::dom::field_value(record, field) {
                collect_strings(v, &mut texts, budget);
            }
        }
        return Ok(texts);
    }
    let mut texts = Vec::new();
    collect_strings(&ws.value, &mut texts, budget);
    if texts.is_empty() {
        texts.push(scope_text(ws));
    }
    Ok(texts)
}

/// Every string (and number, as text) in a value, depth first, at most `budget` of them.
fn collect_strings(value: &Value, out: &mut Vec<String>, budget: usize) {
    if out.len() >= budget {
        return;
    }
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Number(n) => out.push(n.to_string()),
        Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out, budget)),
        Value::Object(map) => map.values().for_each(|v| collect_strings(v, out, budget)),
        Value::Bool(_) | Value::Null => {}
    }
}

no_params!(EmailsParams, "extract.emails");
no_params!(PhonesParams, "extract.phones");
no_params!(PricesParams, "extract.prices");
no_params!(DatesParams, "extract.dates");

/// Params of `extract.main_content`.
#[derive(Debug, Default, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MainContentParams {
    /// CSS selector of elements to leave out of the body (with what they hold).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub exclude: Option<String>,
}

impl ToolParams for MainContentParams {
    const TOOL: &'static str = "extract.main_content";
}

fn emails(ws: &mut Workspace<'_>, _params: EmailsParams) -> Result<Value, ToolError> {
    let text = scope_text(ws);
    let found = contacts::emails(&ws.scope(), &text, ws.limits.max_items);
    Ok(Value::Array(found.into_iter().map(Value::String).collect()))
}

fn phones(ws: &mut Workspace<'_>, _params: PhonesParams) -> Result<Value, ToolError> {
    let text = scope_text(ws);
    let found = contacts::phones(&ws.scope(), &text, ws.limits.max_items);
    Ok(Value::Array(found.into_iter().map(Value::String).collect()))
}

fn prices(ws: &mut Workspace<'_>, _params: PricesParams) -> Result<Value, ToolError> {
    let locale = Locale::of_page(ws.page);
    let text = scope_text(ws);
    let found: Vec<Value> = money_in(&text, &locale)
        .filter_map(|found| {
            Some(json!({
                "amount": json_number(found.money.amount)?,
                "currency": found.money.currency.unwrap_or("XXX"),
                "text": found.text,
            }))
        })
        .take(ws.limits.max_items)
        .collect();
    Ok(Value::Array(found))
}

fn dates(ws: &mut Workspace<'_>, _params: DatesParams) -> Result<Value, ToolError> {
    let doc = &ws.page.document;
    let month_first = month_first(doc);
    let mut found: Vec<(String, String)> = Vec::new();
    if ws.selection.is_none() {
        for tag in doc.select_checked(crate::static_selector!("meta[content]")) {
            let el = tag.value();
            let key = el
                .attr("property")
                .or_else(|| el.attr("name"))
                .or_else(|| el.attr("itemprop"))
                .unwrap_or("")
                .to_ascii_lowercase();
            if DATE_META.contains(&key.as_str())
                && let Some(content) = el.attr("content")
                && let Some(date) = normalise_date(content, month_first)
            {
                found.push((date, content.trim().to_owned()));
            }
        }
    }
    for root in ws.scope() {
        for time in interrupt::select(
            root,
            crate::static_selector!(
                "time[datetime], [itemprop=datePublished][datetime], [itemprop=dateModified][datetime]"
            ),
        ) {
            let Some(raw) = time.value().attr("datetime") else {
                continue;
            };
            if let Some(date) = normalise_date(raw, month_first) {
                let shown = text_capped(time, 200);
                let shown = if shown.is_empty() {
                    raw.trim().to_owned()
                } else {
                    shown
                };
                found.push((date, shown));
            }
        }
    }
    let skip_times = |el: ElementRef<'_>| el.value().attr("datetime").is_some();
    let text = scope_text_with(
        ws,
        TextReader::new(Layout::Lines)
            .skip(Skip::Scripts)
            .skip(Skip::Matching(&skip_times)),
    );
    for m in date_pattern().find_iter(&text) {
        if found.len() >= ws.limits.max_items.saturating_mul(2) {
            break;
        }
        if let Some(date) = normalise_date(m.as_str(), month_first) {
            found.push((date, m.as_str().to_owned()));
        }
    }
    let mut seen = std::collections::HashSet::new();
    let out: Vec<Value> = found
        .into_iter()
        .filter(|pair| seen.insert(pair.clone()))
        .take(ws.limits.max_items)
        .map(|(date, text)| json!({"date": date, "text": ws.cap_text(text)}))
        .collect();
    Ok(Value::Array(out))
}

const DATE_META: &[&str] = &[
    "article:published_time",
    "article:modified_time",
    "og:updated_time",
    "date",
    "pubdate",
    "publish_date",
    "publication_date",
    "dc.date",
    "dc.date.issued",
    "dcterms.created",
    "dcterms.modified",
    "citation_publication_date",
    "datepublished",
    "datemodified",
    "uploaddate",
];

fn main_content(ws: &mut Workspace<'_>, params: MainContentParams) -> Result<Value, ToolError> {
    let excluded = excluded_elements(ws, MainContentParams::TOOL, params.exclude.as_deref())?;
    let mut content = crate::read::content::main_content_excluding(ws.page, &excluded);
    content.text = ws.cap_text(std::mem::take(&mut content.text));
    content.markdown = ws.cap_text(std::mem::take(&mut content.markdown));
    let value = serde_json::to_value(content)
        .map_err(|e| ToolError::Failed(format!("extract.main_content: {e}")))?;
    Ok(bound_json(
        value,
        ws.limits.max_items,
        ws.limits.max_text_chars,
    ))
}

/// Params of `extract.records`.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordsParams {
    /// Keep at most this many records (never more than `limits.max_items`).
    #[serde(default)]
    #[schemars(range(min = 1))]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub limit: Option<usize>,
    /// Which lists: the page's main list (the default) or every list of records it shows.
    #[serde(default)]
    #[serde(skip_serializing_if = "ListScope::is_main")]
    pub lists: ListScope,
    /// Fields the user named: each record then has exactly these keys, in this order, each
    /// filled from the column that matches it (`null` where no column does); the evidence
    /// names the column and rule of each, and the fields no column has.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fields: Option<Vec<columns::WantedField>>,
    /// Words of the request that may be a value of the items ("professors", "in stock"): each
    /// keeps the records with that whole value in one of their columns (or, negated, those
    /// without it), when some records have it and some do not; the evidence says which column.
    /// The call fails when none of them chooses: the words are no value of these records.
    #[serde(default)]
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub choose: Vec<ValueChoice>,
}

impl ToolParams for RecordsParams {
    const TOOL: &'static str = "extract.records";
}

/// Which of a page's lists `extract.records` reads.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ListScope {
    /// The list a person would point to.
    #[default]
    Main,
    /// The main list first, then every other list of records outside the page's chrome; each
    /// row says which list it is from (`list`, from 1).
    All,
}

impl ListScope {
    /// Whether this is the default scope, which a call leaves out.
    fn is_main(&self) -> bool {
        *self == Self::Main
    }
}

fn records(ws: &mut Workspace<'_>, params: RecordsParams) -> Result<Value, ToolError> {
    let cap = params.limit.unwrap_or(usize::MAX).min(ws.limits.max_items);
    let named = params.fields.filter(|f| !f.is_empty());
    let mut chosen_by = None;
    let lists = match (params.lists, &named) {
        (ListScope::Main, None) => crate::read::records::find(ws.page, cap)
            .into_iter()
            .collect(),
        (ListScope::Main, Some(fields)) => {
            let lists = crate::read::records::find_all(ws.page, cap);
            let found = lists.len();
            match columns::list_with_the_fields(fields, lists) {
                Some((list, rule)) => {
                    chosen_by = Some(rule);
                    vec![list]
                }
                None if found > 0 => {
                    return Err(ToolError::Failed(format!(
                        "extract.records: none of the page's {found} lists of records has `{}` in most of its records",
                        fields[0].name
                    )));
                }
                None => Vec::new(),
            }
        }
        (ListScope::All, _) => crate::read::records::find_all(ws.page, cap),
    };
    let Some(main) = lists.first() else {
        return Err(ToolError::Failed(
            "extract.records: the page has no list of at least 3 similar records".into(),
        ));
    };
    let on_page: usize = lists.iter().map(|l| l.total).sum();
    let mut evidence = json!({
        "selector": main.selector,
        "records_on_page": main.total,
        "cap": cap,
        "elements_per_record": main.elements_per_record,
        "columns": main.columns,
        "score": (main.score * 10.0).round() / 10.0,
        "alternatives": main.alternatives,
    });
    if params.lists == ListScope::All {
        evidence["lists"] = lists
            .iter()
            .enumerate()
            .map(|(i, l)| {
                json!({
                    "list": i + 1,
                    "selector": l.selector,
                    "records": l.total,
                    "columns": l.columns,
                    "score": (l.score * 10.0).round() / 10.0,
                })
            })
            .collect();
        evidence["records_on_page"] = json!(on_page);
    }
    let all = params.lists == ListScope::All;
    // Which list a row is from, under a key no column of the page already uses.
    let list_key = ["list", "list_number", "from_list"]
        .into_iter()
        .find(|key| {
            lists
                .iter()
                .all(|l| l.columns.iter().all(|c| c.name != *key))
        })
        .unwrap_or("from_list");
    let sources = named
        .as_ref()
        .map(|fields| columns::choose(fields, &main.columns, &main.records));
    if let (Some(fields), Some(sources)) = (&named, &sources) {
        let missing: Vec<&str> = sources
            .iter()
            .filter(|s| s.column.is_none())
            .map(|s| s.field.as_str())
            .collect();
        if missing.len() == fields.len() {
            return Err(ToolError::Failed(format!(
                "extract.records: the main list's columns ({}) hold none of the fields named ({})",
                main.columns
                    .iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                missing.join(", ")
            )));
        }
        evidence["fields"] = json!(sources);
        evidence["missing"] = json!(missing);
        if let Some(rule) = chosen_by {
            evidence["list_rule"] = json!(rule);
        }
    }
    // Each list's own columns answer the fields (with `lists: "all"` they differ), read from
    // all its records: the one a choice keeps cannot tell a naming column from another.
    let list_sources: Option<Vec<Vec<columns::FieldSource>>> = named.as_ref().map(|fields| {
        lists
            .iter()
            .map(|list| columns::choose(fields, &list.columns, &list.records))
            .collect()
    });
    // The choice reads every column, before the named fields leave only theirs.
    let mut lists = lists;
    if !params.choose.is_empty() {
        let mut made = Vec::new();
        for list in &mut lists {
            let before = list.records.len();
            let (kept, how) =
                choose::keep_chosen(std::mem::take(&mut list.records), &params.choose);
            list.total = list.total - before + kept.len();
            list.records = kept;
            if made.is_empty() {
                made = how;
            }
        }
        if made.iter().all(|m| m.column.is_none()) {
            let phrases: Vec<&str> = made.iter().map(|m| m.phrase.as_str()).collect();
            return Err(ToolError::Failed(format!(
                "extract.records: no column of the list's records has \"{}\" as the value of some records and not others: nothing to choose by",
                phrases.join("\", \"")
            )));
        }
        evidence["chosen"] = json!(made);
    }
    let on_page: usize = lists.iter().map(|l| l.total).sum();
    let month_first = crate::page::dates::month_first(&ws.page.document);
    let lists: Vec<crate::read::records::RecordList> = match (&named, list_sources) {
        (Some(fields), Some(list_sources)) => lists
            .into_iter()
            .zip(list_sources)
            .map(|(mut list, sources)| {
                list.records = columns::project(
                    fields,
                    &sources,
                    std::mem::take(&mut list.records),
                    month_first,
                );
                list
            })
            .collect(),
        _ => lists,
    };
    let rows: Vec<Value> = lists
        .into_iter()
        .enumerate()
        .flat_map(|(i, list)| {
            list.records.into_iter().map(move |record| {
                if all {
                    let mut row = Map::with_capacity(record.len() + 1);
                    row.insert(list_key.into(), json!(i + 1));
                    row.extend(record);
                    Value::Object(row)
                } else {
                    Value::Object(record)
                }
            })
        })
        .take(cap)
        .collect();
    let returned = rows.len();
    if returned < on_page && cap == ws.limits.max_items {
        ws.items_beyond_cap = Some(on_page);
    }
    evidence["returned"] = json!(returned);
    evidence["capped"] = json!(returned < on_page);
    ws.evidence = Some(evidence);
    Ok(bound_json(
        Value::Array(rows),
        ws.limits.max_items,
        ws.limits.max_text_chars,
    ))
}

/// Params of `extract.product`.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProductParams {
    /// The request says this is a product page: without product markup, read the product
    /// from the page's visible title and facts instead of failing.
    #[serde(default)]
    pub assume_product: bool,
}

impl ToolParams for ProductParams {
    const TOOL: &'static str = "extract.product";
}

fn product(ws: &mut Workspace<'_>, params: ProductParams) -> Result<Value, ToolError> {
    let product = crate::read::structured::read_product(ws.page, params.assume_product).ok_or_else(|| {
        ToolError::Failed(
            "extract.product: the page shows no product (no schema.org Product in JSON-LD or microdata, no OpenGraph product tags, no product markup)".into(),
        )
    })?;
    // Which source each key came from, for the step's evidence.
    ws.evidence = Some(json!({ "rules": product.rules }));
    Ok(bound_json(
        Value::Object(product.fields),
        ws.limits.max_items,
        ws.limits.max_text_chars,
    ))
}

/// Params of `extract.markdown`.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkdownParams {
    /// CSS selector of the elements to convert; without it, the selection or the whole page.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub selector: Option<String>,
    /// CSS selector of elements to leave out (with what they hold).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub exclude: Option<String>,
}

impl ToolParams for MarkdownParams {
    const TOOL: &'static str = "extract.markdown";
}

/// The elements an `exclude` selector matches on the page (none without one).
fn excluded_elements(
    ws: &Workspace<'_>,
    tool: &str,
    css: Option<&str>,
) -> Result<HashSet<NodeId>, ToolError> {
    let Some(css) = css else {
        return Ok(HashSet::new());
    };
    let selector = ws.selector(tool, css)?;
    Ok(interrupt::select_document(&ws.page.document, &selector)
        .map(|el| el.id())
        .collect())
}

fn markdown(ws: &mut Workspace<'_>, params: MarkdownParams) -> Result<Value, ToolError> {
    let page = ws.page;
    let excluded = excluded_elements(ws, MarkdownParams::TOOL, params.exclude.as_deref())?;
    let elements: Vec<ElementRef<'_>> = match &params.selector {
        Some(css) => {
            let selector = ws.selector("extract.markdown", css)?;
            let found: Vec<_> = interrupt::select_document(&page.document, &selector)
                .take(ws.limits.max_items)
                .collect();
            if found.is_empty() {
                return Err(ToolError::Failed(format!(
                    "extract.markdown: nothing matches `{css}`"
                )));
            }
            found
        }
        None => match &ws.selection {
            Some(sel) if !sel.is_empty() => sel.clone(),
            _ => vec![
                page.document
                    .select_checked(crate::static_selector!("body"))
                    .next()
                    .unwrap_or_else(|| page.document.root_element()),
            ],
        },
    };
    let mut out = String::new();
    for el in elements {
        interrupt::check()?;
        if out.chars().count() >= ws.limits.max_text_chars {
            break;
        }
        let part = crate::read::content::markdown_excluding(page, el, &excluded);
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(part);
    }
    Ok(Value::String(ws.cap_text(out)))
}

mod choose;
mod columns;
mod named;
mod storeys;
pub use choose::{
    ChoiceRule, FEE_NOUNS, INCLUDED_WORDS, STOP_NOUNS, ValueChoice, allowed_thing, is_allowed_word,
    same_value, stops_shown, value_rule,
};
pub use columns::{CAPACITY_NAMES, FieldRole, PAY_NAMES, WantedField, is_money_name};
pub use named::{NamedFieldsParams, key_of};
pub use storeys::storey;

#[cfg(test)]
mod tests;
