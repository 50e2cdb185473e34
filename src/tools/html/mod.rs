//! `html.*`: selecting elements and reading what the markup says.

use std::collections::HashMap;

use schemars::JsonSchema;
use scraper::ElementRef;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::registry::{Effect, Tool, ToolError, ToolParams, no_params};
use super::workspace::Workspace;
use crate::page::dom::{bound_json, collapse_whitespace, compile_regex, text_capped};
use crate::page::interrupt;
use crate::page::interrupt::SelectChecked;

/// The `html` namespace, in catalog order.
pub fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "Select every element matching a CSS selector (in the document, or inside the current selection with `within`).",
            "Array of {text, url} per element (url: the element's first link, absolute); the elements become the selection.",
            Effect::Replace,
            select,
        ),
        Tool::new(
            "Select the first element matching a CSS selector.",
            "{text, url, tag} of the element, or an error when nothing matches; it becomes the selection.",
            Effect::Replace,
            select_one,
        ),
        Tool::new(
            "Text of the current selection or of the elements matching `selector`, whitespace collapsed.",
            "Array of strings, one per element.",
            Effect::Replace,
            text,
        ),
        Tool::new(
            "An attribute of every element matching `selector` (URLs in href/src are made absolute).",
            "Array of attribute values (elements without it are skipped).",
            Effect::Replace,
            attr,
        ),
        Tool::new(
            "Links of the page (or of the selection with `within`), absolute and deduplicated by URL; filter by a regex on URL or text and by host.",
            "Array of {url, text, rel?} in document order; the link elements become the selection.",
            Effect::Replace,
            links,
        ),
        Tool::new(
            "Images of the page (or those matching `selector`), resolving lazy-loading attributes and picking the largest `srcset` candidate.",
            "Array of {src, alt, width?, height?}, deduplicated by src; the img elements become the selection.",
            Effect::Replace,
            images,
        ),
        Tool::new(
            "Code blocks of the page (`<pre>`, and multi-line `<code>` outside one), outside its navigation and footer, whitespace kept.",
            "Array of {code, language} in page order (language from a `language-*`/`lang-*` class or `data-lang`, else null); the blocks become the selection.",
            Effect::Replace,
            code,
        ),
        Tool::new(
            "Read a data table into records: header from <thead>, a row of <th>, or the first row; the table matching `selector`, else the largest data table. `all: true` reads every table.",
            "Array of row objects keyed by header text (missing cells null); with `all`: array of {caption, headers, rows}.",
            Effect::Replace,
            tables,
        ),
        Tool::new(
            "Forms of the page with their fields.",
            "Array of {action (absolute), method (GET/POST), fields: [{name, type, required, options?}]}.",
            Effect::Replace,
            forms,
        ),
        Tool::new(
            "Page metadata: title (the visible headline), document title, description, canonical URL, language, author, publication time, site name, OpenGraph and Twitter card tags.",
            "{title, document_title, description, canonical, lang, author (every author, as a person writes them: \"Ann Lee and Bo Chen\"), authors [..], published_time (ISO-8601; the date printed by the byline, else the declared one), modified_time (ISO-8601), site_name, og: {..}, twitter: {..}, rules: {title, authors, published_time, modified_time} (the name of the rule that read each of these facts, e.g. \"og_title\", \"jsonld_date_published\")} (absent facts are null).",
            Effect::Replace,
            meta,
        ),
        Tool::new(
            "Structured data embedded in the page (JSON-LD and microdata) as typed items.",
            "Array of items, each an object with `@type`.",
            Effect::Replace,
            jsonld,
        ),
        Tool::new(
            "The compact page outline the planner reads: headings, repeated blocks (selector, count, sample), tables, forms, JSON-LD types, link counts.",
            "The outline object (reported only; the working value is unchanged).",
            Effect::Observe,
            outline,
        ),
    ]
}

/// Params of `html.select`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectParams {
    /// CSS selector.
    pub selector: String,
    /// Keep at most this many elements.
    #[serde(default)]
    #[schemars(range(min = 1))]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub limit: Option<usize>,
    /// Search inside the current selection instead of the whole document.
    #[serde(default)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[schemars(!skip_serializing_if)]
    pub within: bool,
}

impl ToolParams for SelectParams {
    const TOOL: &'static str = "html.select";
}

fn select(ws: &mut Workspace<'_>, params: SelectParams) -> Result<Value, ToolError> {
    let selector = ws.selector("html.select", &params.selector)?;
    let scope = ws.roots(params.within);
    let cap = params.limit.unwrap_or(usize::MAX).min(ws.limits.max_items);
    let mut found = Vec::new();
    for root in scope {
        for el in interrupt::select(root, &selector) {
            if found.len() >= cap {
                break;
            }
            if !found.contains(&el) {
                found.push(el);
            }
        }
    }
    let mut records = Vec::with_capacity(found.len());
    for el in &found {
        interrupt::check()?;
        records.push(element_record(ws, *el));
    }
    ws.selection = Some(found);
    Ok(Value::Array(records))
}

/// The default record of an element: its text and its first link.
pub fn element_record(ws: &Workspace<'_>, el: scraper::ElementRef<'_>) -> Value {
    let link = if el.value().name() == "a" {
        el.value().attr("href")
    } else {
        el.select_checked(crate::static_selector!("a[href]"))
            .next()
            .and_then(|a| a.value().attr("href"))
    };
    let mut record = serde_json::Map::new();
    record.insert(
        "text".into(),
        Value::String(text_capped(el, ws.limits.max_text_chars)),
    );
    if let Some(url) = link.and_then(|h| ws.page.absolute(h)) {
        record.insert("url".into(), Value::String(url));
    }
    Value::Object(record)
}

/// Params of `html.select_one`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectOneParams {
    /// CSS selector.
    pub selector: String,
}

impl ToolParams for SelectOneParams {
    const TOOL: &'static str = "html.select_one";
}

fn select_one(ws: &mut Workspace<'_>, params: SelectOneParams) -> Result<Value, ToolError> {
    let selector = ws.selector("html.select_one", &params.selector)?;
    let el = interrupt::select_document(&ws.page.document, &selector)
        .next()
        .ok_or_else(|| {
            ToolError::Failed(format!(
                "html.select_one: nothing matches `{}`",
                params.selector
            ))
        })?;
    let mut record = element_record(ws, el);
    if let Some(obj) = record.as_object_mut() {
        obj.insert("tag".into(), json!(el.value().name()));
    }
    ws.selection = Some(vec![el]);
    Ok(record)
}

/// Params of `html.text`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TextParams {
    /// CSS selector; without it, the current selection (or the whole page).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub selector: Option<String>,
}

impl ToolParams for TextParams {
    const TOOL: &'static str = "html.text";
}

fn text(ws: &mut Workspace<'_>, params: TextParams) -> Result<Value, ToolError> {
    let elements = match &params.selector {
        Some(css) => {
            let selector = ws.selector("html.text", css)?;
            interrupt::select_document(&ws.page.document, &selector)
                .take(ws.limits.max_items)
                .collect()
        }
        None => ws.scope(),
    };
    let texts: Vec<Value> = elements
        .into_iter()
        .map(|el| Value::String(text_capped(el, ws.limits.max_text_chars)))
        .collect();
    Ok(Value::Array(texts))
}

/// Params of `html.attr`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttrParams {
    /// CSS selector; without it, the current selection.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub selector: Option<String>,
    /// Attribute name, e.g. `href`.
    pub attribute: String,
}

impl ToolParams for AttrParams {
    const TOOL: &'static str = "html.attr";
}

fn attr(ws: &mut Workspace<'_>, params: AttrParams) -> Result<Value, ToolError> {
    let elements: Vec<_> = match &params.selector {
        Some(css) => {
            let selector = ws.selector("html.attr", css)?;
            interrupt::select_document(&ws.page.document, &selector)
                .take(ws.limits.max_items)
                .collect()
        }
        None => ws.scope(),
    };
    let values: Vec<Value> = elements
        .into_iter()
        .filter_map(|el| el.value().attr(&params.attribute))
        .map(|v| Value::String(ws.cap_text(attribute_value(ws, &params.attribute, v))))
        .collect();
    Ok(Value::Array(values))
}

/// An attribute value, made absolute when it is a URL attribute.
pub fn attribute_value(ws: &Workspace<'_>, name: &str, raw: &str) -> String {
    if matches!(
        name,
        "href"
            | "src"
            | "data-src"
            | "data-href"
            | "action"
            | "poster"
            | "data-original"
            | "data-lazy-src"
    ) {
        ws.page
            .absolute(raw)
            .unwrap_or_else(|| raw.trim().to_owned())
    } else {
        raw.trim().to_owned()
    }
}

no_params!(FormsParams, "html.forms");
no_params!(MetaParams, "html.meta");
no_params!(JsonLdParams, "html.jsonld");
no_params!(OutlineParams, "html.outline");

/// Labels (link texts, alt texts, header names) are short by nature; a longer one is a
/// container the page misused, and repeating it per item would blow up the result.
const MAX_LABEL_CHARS: usize = 500;

fn cap_label(ws: &Workspace<'_>, text: String) -> String {
    let cap = MAX_LABEL_CHARS.min(ws.limits.max_text_chars);
    if text.chars().count() <= cap {
        text
    } else {
        text.chars().take(cap).collect()
    }
}

/// The text of an element as a label (see [`MAX_LABEL_CHARS`]).
fn label_of(ws: &Workspace<'_>, el: ElementRef<'_>) -> String {
    text_capped(el, MAX_LABEL_CHARS.min(ws.limits.max_text_chars))
}

fn invalid(tool: &str, message: impl std::fmt::Display) -> ToolError {
    ToolError::InvalidParams(format!("{tool}: {message}"))
}

/// Host without a leading `www.`, lower-cased: `www.example.com` and `example.com` are one site.
fn site_host(url: &url::Url) -> Option<String> {
    url.host_str()
        .map(|h| h.trim_start_matches("www.").to_ascii_lowercase())
}

/// Params of `html.links`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinksParams {
    /// Regular expression matched against each link's absolute URL or its text (`(?i)` ignores case).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub pattern: Option<String>,
    /// true: only links to the page's own host; false: only links to other hosts; absent: all.
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub same_host: Option<bool>,
    /// Keep at most this many links.
    #[serde(default)]
    #[schemars(range(min = 1))]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub limit: Option<usize>,
    /// Look only inside the current selection.
    #[serde(default)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[schemars(!skip_serializing_if)]
    pub within: bool,
}

impl ToolParams for LinksParams {
    const TOOL: &'static str = "html.links";
}

fn links(ws: &mut Workspace<'_>, params: LinksParams) -> Result<Value, ToolError> {
    let pattern = params
        .pattern
        .as_deref()
        .map(compile_regex)
        .transpose()
        .map_err(|e| invalid("html.links", e))?;
    let roots = ws.roots(params.within);
    let cap = params.limit.unwrap_or(usize::MAX).min(ws.limits.max_items);
    let page_host = site_host(&ws.page.url);
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut records: Vec<Map<String, Value>> = Vec::new();
    let mut elements = Vec::new();
    'roots: for root in roots {
        for a in interrupt::select(root, crate::static_selector!("a[href], area[href]")) {
            let Some(url) = a.value().attr("href").and_then(|h| ws.page.absolute(h)) else {
                continue;
            };
            let text = link_text(ws, a);
            if let Some(want_same) = params.same_host {
                // Links without a host (mailto:, tel:) are neither this site nor another.
                let Some(host) = url::Url::parse(&url).ok().as_ref().and_then(site_host) else {
                    continue;
                };
                if (Some(host) == page_host) != want_same {
                    continue;
                }
            }
            if let Some(re) = &pattern
                && !re.is_match(&url)
                && !re.is_match(&text)
            {
                continue;
            }
            if let Some(&index) = seen.get(&url) {
                // The first occurrence wins, but an icon link should not hide a later text link.
                let record = &mut records[index];
                if record.get("text").and_then(Value::as_str) == Some("") && !text.is_empty() {
                    record.insert("text".into(), Value::String(text));
                }
                continue;
            }
            if records.len() >= cap {
                break 'roots;
            }
            let mut record = Map::new();
            record.insert("url".into(), Value::String(url.clone()));
            record.insert("text".into(), Value::String(text));
            if let Some(rel) = a.value().attr("rel").map(collapse_whitespace)
                && !rel.is_empty()
            {
                record.insert("rel".into(), Value::String(cap_label(ws, rel)));
            }
            seen.insert(url, records.len());
            records.push(record);
            elements.push(a);
        }
    }
    ws.selection = Some(elements);
    Ok(Value::Array(
        records.into_iter().map(Value::Object).collect(),
    ))
}

/// What a link says: its text, else the alt text of its image, else its aria-label or title.
fn link_text(ws: &Workspace<'_>, a: ElementRef<'_>) -> String {
    let text = label_of(ws, a);
    if !text.is_empty() {
        return text;
    }
    a.select_checked(crate::static_selector!("img[alt]"))
        .filter_map(|img| img.value().attr("alt"))
        .chain(a.value().attr("aria-label"))
        .chain(a.value().attr("title"))
        .map(|t| cap_label(ws, collapse_whitespace(t)))
        .find(|t| !t.is_empty())
        .unwrap_or_default()
}

/// Params of `html.images`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImagesParams {
    /// CSS selector of images, or of containers whose images to take (default: every `img`).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub selector: Option<String>,
    /// Keep at most this many images.
    #[serde(default)]
    #[schemars(range(min = 1))]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub limit: Option<usize>,
    /// Look only inside the current selection.
    #[serde(default)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[schemars(!skip_serializing_if)]
    pub within: bool,
}

impl ToolParams for ImagesParams {
    const TOOL: &'static str = "html.images";
}

fn images(ws: &mut Workspace<'_>, params: ImagesParams) -> Result<Value, ToolError> {
    let selector = params
        .selector
        .as_deref()
        .map(|css| ws.selector("html.images", css))
        .transpose()?;
    let roots = ws.roots(params.within);
    let cap = params.limit.unwrap_or(usize::MAX).min(ws.limits.max_items);
    let mut candidates: Vec<ElementRef<'_>> = Vec::new();
    for root in roots {
        match &selector {
            Some(sel) => {
                for el in interrupt::select(root, sel) {
                    if el.value().name() == "img" {
                        candidates.push(el);
                    } else {
                        candidates.extend(interrupt::select(el, crate::static_selector!("img")));
                    }
                }
            }
            None => {
                candidates.extend(interrupt::select(root, crate::static_selector!("img")));
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    let mut records = Vec::new();
    let mut elements = Vec::new();
    for img in candidates {
        if records.len() >= cap {
            break;
        }
        let Some(src) = image_source(ws, img) else {
            continue;
        };
        if !seen.insert(src.clone()) {
            continue;
        }
        let el = img.value();
        let mut record = Map::new();
        record.insert("src".into(), Value::String(src));
        let alt = el.attr("alt").map(collapse_whitespace).unwrap_or_default();
        record.insert("alt".into(), Value::String(cap_label(ws, alt)));
        for dimension in ["width", "height"] {
            if let Some(n) = el.attr(dimension).and_then(pixel_size) {
                record.insert(dimension.into(), json!(n));
            }
        }
        records.push(Value::Object(record));
        elements.push(img);
    }
    ws.selection = Some(elements);
    Ok(Value::Array(records))
}

/// Params of `html.code`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeParams {
    /// Keep at most this many blocks.
    #[serde(default)]
    #[schemars(range(min = 1))]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub limit: Option<usize>,
    /// Look only inside the current selection.
    #[serde(default)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[schemars(!skip_serializing_if)]
    pub within: bool,
}

impl ToolParams for CodeParams {
    const TOOL: &'static str = "html.code";
}

fn code(ws: &mut Workspace<'_>, params: CodeParams) -> Result<Value, ToolError> {
    let roots = ws.roots(params.within);
    let cap = params.limit.unwrap_or(usize::MAX).min(ws.limits.max_items);
    let mut records = Vec::new();
    let mut elements = Vec::new();
    for root in roots {
        for block in interrupt::select(root, crate::static_selector!("pre, code")) {
            if records.len() >= cap {
                break;
            }
            let text = crate::page::dom::flat_text_raw(block);
            // `<code>` inside `<pre>` is that block; a one-line `<code>` is a word in a sentence.
            let inside_pre = || {
                block
                    .ancestors()
                    .filter_map(ElementRef::wrap)
                    .any(|a| a.value().name() == "pre")
            };
            if block.value().name() == "code" && (!text.trim().contains('\n') || inside_pre()) {
                continue;
            }
            if crate::page::chrome::in_chrome(block) {
                continue;
            }
            let code = text.trim_matches('\n').trim_end();
            if code.trim().is_empty() {
                continue;
            }
            let mut record = Map::new();
            record.insert("code".into(), Value::String(ws.cap_text(code.to_owned())));
            record.insert(
                "language".into(),
                code_language(block).map_or(Value::Null, Value::String),
            );
            records.push(Value::Object(record));
            elements.push(block);
        }
    }
    ws.selection = Some(elements);
    Ok(Value::Array(records))
}

/// The language a code block names: a `language-rust` / `lang-rust` / `highlight-source-rust`
/// class or a `data-lang` on the block, its `<code>` or its wrapper.
fn code_language(block: ElementRef<'_>) -> Option<String> {
    let inner = block
        .children()
        .filter_map(ElementRef::wrap)
        .find(|c| c.value().name() == "code");
    let wrapper = block.parent().and_then(ElementRef::wrap);
    [Some(block), inner, wrapper]
        .into_iter()
        .flatten()
        .find_map(|el| {
            let value = el.value();
            value
                .attr("data-lang")
                .or_else(|| value.attr("data-language"))
                .map(str::to_owned)
                .or_else(|| {
                    value.classes().find_map(|class| {
                        ["language-", "lang-", "highlight-source-"]
                            .iter()
                            .find_map(|prefix| class.strip_prefix(prefix))
                            .filter(|name| !name.is_empty())
                            .map(str::to_owned)
                    })
                })
        })
        .map(|name| name.to_ascii_lowercase())
}

/// The best URL of an image: the largest `srcset` candidate, else a lazy-loading attribute,
/// else `src` (placeholders as `data:` URIs don't count).
pub(crate) fn image_source(ws: &Workspace<'_>, img: ElementRef<'_>) -> Option<String> {
    let el = img.value();
    let from_srcset = ["srcset", "data-srcset", "data-lazy-srcset"]
        .iter()
        .filter_map(|name| el.attr(name))
        .find_map(|set| best_srcset_candidate(set, |u| ws.page.absolute(u)));
    from_srcset.or_else(|| {
        [
            "data-src",
            "data-lazy-src",
            "data-original",
            "data-lazy",
            "src",
        ]
        .iter()
        .filter_map(|name| el.attr(name))
        .find_map(|u| {
            ws.page
                .absolute(u)
                .filter(|abs| abs.starts_with("http") || abs.starts_with("ftp"))
        })
    })
}

/// The largest candidate of a `srcset` (by `w` descriptor, else by density), resolved by `resolve`.
fn best_srcset_candidate(srcset: &str, resolve: impl Fn(&str) -> Option<String>) -> Option<String> {
    let mut best: Option<(f64, String)> = None;
    let mut rest = srcset;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        if rest.is_empty() {
            break;
        }
        let url_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let mut url = &rest[..url_end];
        rest = &rest[url_end..];
        let descriptor = if url.ends_with(',') {
            url = url.trim_end_matches(',');
            ""
        } else {
            let end = rest.find(',').unwrap_or(rest.len());
            let descriptor = rest[..end].trim();
            rest = &rest[end..];
            descriptor
        };
        // Width descriptors outrank densities: a `w` candidate says how many pixels it has.
        let score = descriptor
            .strip_suffix('w')
            .and_then(|w| w.trim().parse::<f64>().ok())
            .map(|w| w + 1e6)
            .or_else(|| {
                descriptor
                    .strip_suffix('x')
                    .and_then(|x| x.trim().parse::<f64>().ok())
            })
            .unwrap_or(1.0);
        if !score.is_finite() {
            continue;
        }
        let Some(abs) = resolve(url).filter(|u| u.starts_with("http")) else {
            continue;
        };
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, abs));
        }
    }
    best.map(|(_, url)| url)
}

/// `300`, `300px` → 300; percentages and junk → None.
fn pixel_size(raw: &str) -> Option<u64> {
    let raw = raw.trim();
    let digits = raw.strip_suffix("px").unwrap_or(raw).trim();
    digits.parse::<u64>().ok().filter(|n| *n > 0)
}

/// Params of `html.tables`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TablesParams {
    /// CSS selector of the table (or of an element containing it).
    #[serde(default)]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(!skip_serializing_if)]
    pub selector: Option<String>,
    /// Read every table (matching `selector`, else every data table) as {caption, headers, rows}.
    #[serde(default)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    #[schemars(!skip_serializing_if)]
    pub all: bool,
}

impl ToolParams for TablesParams {
    const TOOL: &'static str = "html.tables";
}

/// Wide tables beyond this many columns are cut; no data table needs more.
pub(crate) const MAX_TABLE_COLUMNS: usize = 100;
/// Spans beyond this are treated as this (a `colspan=100000` must not allocate a huge row).
const MAX_SPAN: usize = 50;

/// A table read into a grid.
struct TableGrid<'a> {
    element: ElementRef<'a>,
    caption: Option<String>,
    headers: Vec<String>,
    /// Data rows: the `<tr>` and its cell texts (`None` where the row is short).
    rows: Vec<(ElementRef<'a>, Vec<Option<String>>)>,
    /// Whether it looks like data rather than layout.
    is_data: bool,
}

fn tables(ws: &mut Workspace<'_>, params: TablesParams) -> Result<Value, ToolError> {
    let doc = &ws.page.document;
    let candidates: Vec<ElementRef<'_>> = match &params.selector {
        Some(css) => {
            let selector = ws.selector("html.tables", css)?;
            let mut found = Vec::new();
            for el in interrupt::select_document(doc, &selector) {
                let table = if el.value().name() == "table" {
                    Some(el)
                } else {
                    el.select_checked(crate::static_selector!("table")).next()
                };
                if let Some(t) = table.filter(|t| !found.contains(t)) {
                    found.push(t);
                }
                if found.len() >= ws.limits.max_items {
                    break;
                }
            }
            if found.is_empty() {
                return Err(ToolError::Failed(format!(
                    "html.tables: no table matches `{css}`"
                )));
            }
            found
        }
        // Layout tables are never chosen; skipping them before reading keeps nested layouts
        // from costing their text once per level.
        None => interrupt::select_document(doc, crate::static_selector!("table"))
            .take(ws.limits.max_items.saturating_mul(4))
            .filter(|t| !is_layout_table(*t))
            .collect(),
    };
    let grids: Vec<TableGrid<'_>> = candidates.into_iter().map(|t| read_table(ws, t)).collect();
    if params.all {
        let chosen: Vec<&TableGrid<'_>> = grids
            .iter()
            .filter(|g| params.selector.is_some() || g.is_data)
            .take(ws.limits.max_items)
            .collect();
        let out = chosen
            .iter()
            .map(|g| {
                json!({
                    "caption": g.caption,
                    "headers": g.headers,
                    "rows": g.rows.iter().map(|(_, cells)| row_record(&g.headers, cells)).collect::<Vec<_>>(),
                })
            })
            .collect();
        ws.selection = Some(chosen.iter().map(|g| g.element).collect());
        return Ok(Value::Array(out));
    }
    let chosen = if params.selector.is_some() {
        grids.first()
    } else {
        // The largest data table; the first of equals.
        grids
            .iter()
            .enumerate()
            .filter(|(_, g)| g.is_data)
            .max_by_key(|(i, g)| (g.rows.len() * g.headers.len(), std::cmp::Reverse(*i)))
            .map(|(_, g)| g)
    };
    let Some(grid) = chosen else {
        return Err(ToolError::Failed(
            "html.tables: the page has no data table (a table with a header and at least one row)"
                .into(),
        ));
    };
    let records = grid
        .rows
        .iter()
        .map(|(_, cells)| row_record(&grid.headers, cells))
        .collect();
    ws.selection = Some(grid.rows.iter().map(|(tr, _)| *tr).collect());
    Ok(Value::Array(records))
}

fn row_record(headers: &[String], cells: &[Option<String>]) -> Value {
    let record: Map<String, Value> = headers
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let cell = cells.get(i).cloned().flatten();
            (h.clone(), cell.map_or(Value::Null, Value::String))
        })
        .collect();
    Value::Object(record)
}

/// The `<tr>`s that belong to this table (not to a nested one), each with whether it sits in `<thead>`.
fn own_rows(table: ElementRef<'_>) -> Vec<(ElementRef<'_>, bool)> {
    let mut rows = Vec::new();
    for child in table.children().filter_map(ElementRef::wrap) {
        match child.value().name() {
            "tr" => rows.push((child, false)),
            section @ ("thead" | "tbody" | "tfoot") => rows.extend(
                child
                    .children()
                    .filter_map(ElementRef::wrap)
                    .filter(|el| el.value().name() == "tr")
                    .map(|tr| (tr, section == "thead")),
            ),
            _ => {}
        }
    }
    rows
}

fn span(cell: ElementRef<'_>, name: &str) -> usize {
    cell.value()
        .attr(name)
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(1)
        .clamp(1, MAX_SPAN)
}

fn read_table<'a>(ws: &Workspace<'a>, table: ElementRef<'a>) -> TableGrid<'a> {
    let caption = table
        .children()
        .filter_map(ElementRef::wrap)
        .find(|el| el.value().name() == "caption")
        .map(|c| label_of(ws, c))
        .filter(|c| !c.is_empty());
    let rows = own_rows(table);
    // Cells spanning rows are carried down: (column → rows still to fill, text).
    let mut carried: Vec<Option<(usize, String)>> = Vec::new();
    let mut grid: Vec<(ElementRef<'a>, bool, bool, Vec<String>)> = Vec::new();
    let row_cap = ws.limits.max_items.saturating_add(1);
    // A row is a list too: no wider than a list may be long (a `colspan` fills it).
    let max_columns = MAX_TABLE_COLUMNS.min(ws.limits.max_items.max(1));
    for (tr, in_thead) in rows {
        if grid.len() >= row_cap {
            break;
        }
        let mut cells: Vec<String> = Vec::new();
        let mut all_th = true;
        let mut any_cell = false;
        let mut own = tr
            .children()
            .filter_map(ElementRef::wrap)
            .filter(|c| matches!(c.value().name(), "td" | "th"))
            .peekable();
        while cells.len() < max_columns {
            let col = cells.len();
            if let Some(slot) = carried.get_mut(col)
                && let Some((left, text)) = slot
            {
                cells.push(text.clone());
                *left -= 1;
                if *left == 0 {
                    *slot = None;
                }
                continue;
            }
            let Some(cell) = own.next() else { break };
            any_cell = true;
            all_th &= cell.value().name() == "th";
            let text = text_capped(cell, ws.limits.max_text_chars);
            let rowspan = span(cell, "rowspan");
            for _ in 0..span(cell, "colspan") {
                if cells.len() >= max_columns {
                    break;
                }
                let at = cells.len();
                if rowspan > 1 {
                    if carried.len() <= at {
                        carried.resize(at + 1, None);
                    }
                    carried[at] = Some((rowspan - 1, text.clone()));
                }
                cells.push(text.clone());
            }
            if own.peek().is_none()
                && carried
                    .get(cells.len()..)
                    .is_none_or(|rest| rest.iter().all(Option::is_none))
            {
                break;
            }
        }
        if any_cell {
            grid.push((tr, in_thead, all_th, cells));
        }
    }
    let width = grid.iter().map(|(_, _, _, c)| c.len()).max().unwrap_or(0);
    let header_index = grid
        .iter()
        .rposition(|(_, thead, _, _)| *thead)
        // A row of <th> under a title row (a caption written as a spanning cell).
        .or_else(|| {
            grid.iter()
                .take(3)
                .position(|(_, _, all_th, c)| *all_th && c.len() > 1)
        })
        .or_else(|| {
            grid.iter()
                .position(|(_, _, _, c)| !c.iter().all(String::is_empty))
        });
    let mut headers: Vec<String> = Vec::with_capacity(width);
    let header_cells = header_index.map(|i| grid[i].3.clone()).unwrap_or_default();
    for i in 0..width {
        let base = header_cells
            .get(i)
            .map(|h| cap_label(ws, h.clone()))
            .filter(|h| !h.is_empty())
            .unwrap_or_else(|| format!("column_{}", i + 1));
        let mut name = base.clone();
        let mut n = 2;
        while headers.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        headers.push(name);
    }
    // A title row above the header is the table's caption when it has none.
    let caption = caption.or_else(|| {
        let (_, _, _, title) = grid
            .first()
            .filter(|_| header_index.is_some_and(|i| i > 0))?;
        let text = title.first()?;
        (!text.is_empty() && title.iter().all(|c| c == text)).then(|| cap_label(ws, text.clone()))
    });
    let first_data = header_index.map_or(0, |i| i + 1);
    let data_rows: Vec<(ElementRef<'a>, Vec<Option<String>>)> = grid
        .into_iter()
        .enumerate()
        .filter(|(i, (_, thead, _, cells))| {
            *i >= first_data && !*thead && cells.iter().any(|c| !c.is_empty())
        })
        .map(|(_, (tr, _, _, cells))| (tr, cells.into_iter().map(Some).collect()))
        .take(ws.limits.max_items)
        .collect();
    let layout = is_layout_table(table);
    TableGrid {
        element: table,
        caption,
        is_data: !layout && !data_rows.is_empty() && header_index.is_some(),
        headers,
        rows: data_rows,
    }
}

/// Presentation tables and tables holding other tables lay a page out; they hold no data.
fn is_layout_table(table: ElementRef<'_>) -> bool {
    table
        .value()
        .attr("role")
        .is_some_and(|r| matches!(r, "presentation" | "none"))
        || table
            .descendants()
            .skip(1)
            .filter_map(ElementRef::wrap)
            .any(|el| el.value().name() == "table")
}

fn forms(ws: &mut Workspace<'_>, _params: FormsParams) -> Result<Value, ToolError> {
    let mut out = Vec::new();
    let mut elements = Vec::new();
    for form in ws
        .page
        .document
        .select_checked(crate::static_selector!("form"))
        .take(ws.limits.max_items)
    {
        let action = form
            .value()
            .attr("action")
            .filter(|a| !a.trim().is_empty())
            .and_then(|a| ws.page.absolute(a))
            .unwrap_or_else(|| ws.page.url.to_string());
        let method = form
            .value()
            .attr("method")
            .map(|m| m.trim().to_ascii_uppercase())
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| "GET".into());
        let mut fields: Vec<Map<String, Value>> = Vec::new();
        for control in form.select_checked(crate::static_selector!("input, select, textarea")) {
            let el = control.value();
            let Some(name) = el.attr("name").map(str::trim).filter(|n| !n.is_empty()) else {
                continue;
            };
            let kind = match el.name() {
                "select" if el.attr("multiple").is_some() => "select-multiple".to_owned(),
                "select" => "select".to_owned(),
                "textarea" => "textarea".to_owned(),
                _ => el
                    .attr("type")
                    .map(|t| t.trim().to_ascii_lowercase())
                    .filter(|t| !t.is_empty())
                    .unwrap_or_else(|| "text".into()),
            };
            if matches!(kind.as_str(), "submit" | "button" | "reset" | "image") {
                continue;
            }
            let required = el.attr("required").is_some();
            let choices: Vec<String> = match kind.as_str() {
                "select" | "select-multiple" => control
                    .select_checked(crate::static_selector!("option"))
                    .take(ws.limits.max_items)
                    .map(|o| {
                        o.value()
                            .attr("value")
                            .map(str::to_owned)
                            .unwrap_or_else(|| label_of(ws, o))
                    })
                    .map(|v| cap_label(ws, v))
                    .collect(),
                "radio" | "checkbox" => {
                    vec![cap_label(ws, el.attr("value").unwrap_or("on").to_owned())]
                }
                _ => Vec::new(),
            };
            let name = cap_label(ws, name.to_owned());
            // Radio buttons and checkboxes sharing a name are one field with several options.
            if let Some(existing) = fields.iter_mut().find(|f| {
                f.get("name").and_then(Value::as_str) == Some(name.as_str())
                    && f.get("type").and_then(Value::as_str) == Some(kind.as_str())
            }) {
                if let Some(Value::Array(options)) = existing.get_mut("options") {
                    for choice in choices {
                        if options.len() < ws.limits.max_items {
                            options.push(Value::String(choice));
                        }
                    }
                }
                if required {
                    existing.insert("required".into(), Value::Bool(true));
                }
                continue;
            }
            if fields.len() >= ws.limits.max_items {
                break;
            }
            let mut field = Map::new();
            field.insert("name".into(), Value::String(name));
            field.insert("type".into(), Value::String(kind.clone()));
            field.insert("required".into(), Value::Bool(required));
            if matches!(
                kind.as_str(),
                "select" | "select-multiple" | "radio" | "checkbox"
            ) {
                field.insert("options".into(), json!(choices));
            }
            fields.push(field);
        }
        out.push(json!({"action": action, "method": method, "fields": fields}));
        elements.push(form);
    }
    ws.selection = Some(elements);
    Ok(Value::Array(out))
}

/// The result of `html.meta`: the page's one metadata reader ([`crate::read::metadata`]),
/// capped, plus the OpenGraph and Twitter card tags as the page wrote them.
#[derive(Debug, Serialize)]
struct PageMeta {
    title: Option<String>,
    document_title: Option<String>,
    description: Option<String>,
    canonical: Option<String>,
    lang: Option<String>,
    /// Every author, as a person writes them ("Ann Lee and Bo Chen").
    author: Option<String>,
    authors: Vec<String>,
    /// ISO-8601.
    published_time: Option<String>,
    /// ISO-8601.
    modified_time: Option<String>,
    site_name: Option<String>,
    og: Map<String, Value>,
    twitter: Map<String, Value>,
    /// Why: the rule that read each fact chosen among several sources.
    rules: MetaRules,
}

/// The evidence of `html.meta`: for each fact read by a table of rules, the name of the rule
/// that gave the answer (`"published_time": "jsonld_date_published"`), null when no rule did.
#[derive(Debug, Serialize)]
struct MetaRules {
    title: Option<&'static str>,
    authors: Option<&'static str>,
    published_time: Option<&'static str>,
    modified_time: Option<&'static str>,
}

fn meta(ws: &mut Workspace<'_>, _params: MetaParams) -> Result<Value, ToolError> {
    let doc = &ws.page.document;
    let mut og = Map::new();
    let mut twitter = Map::new();
    for tag in doc.select_checked(crate::static_selector!("meta[content]")) {
        let el = tag.value();
        let Some(content) = el.attr("content").map(collapse_whitespace) else {
            continue;
        };
        if content.is_empty() {
            continue;
        }
        let content = ws.cap_text(content);
        for key in [el.attr("property"), el.attr("name")].into_iter().flatten() {
            let key = key.trim().to_ascii_lowercase();
            if let Some(rest) = key.strip_prefix("og:") {
                push_meta(&mut og, rest, &content, ws.limits.max_items);
            } else if let Some(rest) = key.strip_prefix("twitter:") {
                push_meta(&mut twitter, rest, &content, ws.limits.max_items);
            }
        }
    }
    let read = crate::read::metadata::read(ws.page);
    let cap = |text: Option<String>| text.map(|t| cap_label(ws, t));
    let author = read.byline().map(|a| ws.cap_text(a));
    let authors: Vec<String> = read
        .author_names()
        .iter()
        .take(ws.limits.max_items)
        .map(|a| cap_label(ws, a.clone()))
        .collect();
    let rules = MetaRules {
        title: read.title.as_ref().map(|t| t.rule),
        authors: read.authors.as_ref().map(|a| a.rule),
        published_time: read.published_at.as_ref().map(|d| d.rule),
        modified_time: read.modified_at.as_ref().map(|d| d.rule),
    };
    let result = PageMeta {
        title: read.title.map(|t| ws.cap_text(t.value)),
        document_title: read.document_title.map(|t| ws.cap_text(t)),
        description: read.description.map(|d| ws.cap_text(d)),
        canonical: cap(read.canonical),
        lang: cap(read.lang),
        author,
        authors,
        published_time: read.published_at.map(|d| d.value),
        modified_time: read.modified_at.map(|d| d.value),
        site_name: cap(read.site_name),
        og,
        twitter,
        rules,
    };
    serde_json::to_value(result).map_err(|e| ToolError::Failed(e.to_string()))
}

/// Adds a tag to a prefix map; a repeated key (several `og:image`) becomes an array.
fn push_meta(map: &mut Map<String, Value>, key: &str, content: &str, max_items: usize) {
    if key.is_empty() {
        return;
    }
    if !map.contains_key(key) {
        if map.len() < max_items {
            map.insert(key.to_owned(), Value::String(content.to_owned()));
        }
        return;
    }
    match map.get_mut(key) {
        Some(Value::Array(values))
            if values.len() < max_items && !values.iter().any(|v| v == content) =>
        {
            values.push(Value::String(content.to_owned()));
        }
        Some(existing) if !existing.is_array() && existing != content => {
            let previous = existing.take();
            *existing = json!([previous, content]);
        }
        _ => {}
    }
}

fn jsonld(ws: &mut Workspace<'_>, _params: JsonLdParams) -> Result<Value, ToolError> {
    let items = crate::read::structured::items(ws.page);
    Ok(bound_json(
        Value::Array(items),
        ws.limits.max_items,
        ws.limits.max_text_chars,
    ))
}

fn outline(ws: &mut Workspace<'_>, _params: OutlineParams) -> Result<Value, ToolError> {
    let outline = crate::read::outline::outline(ws.page);
    let value = serde_json::to_value(outline)
        .map_err(|e| ToolError::Failed(format!("html.outline: {e}")))?;
    Ok(bound_json(
        value,
        ws.limits.max_items,
        ws.limits.max_text_chars,
    ))
}

#[cfg(test)]
mod tests;
