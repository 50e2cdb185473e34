//! HTML microdata (`itemscope`/`itemprop`) as JSON-LD-shaped items:
//! `{"@context": vocabulary, "@type": "Product", "@id"?: itemid, property: value | [values]}`.
//!
//! Values follow the HTML microdata rules: `content` when present, URLs from `src`/`href`/
//! `data` (made absolute), `value` of `<data>`/`<meter>`, `datetime` of `<time>`, else the
//! element's text. Walks are iterative and nesting is capped, so a hostile page costs
//! bounded work.

use std::collections::{HashMap, HashSet};

use ego_tree::NodeId;
use scraper::ElementRef;
use serde_json::{Map, Value};

use crate::page::Page;
use crate::page::interrupt::SelectChecked;
use crate::static_selector;

/// Nested items deeper than this are given as their text.
const MAX_NESTING: usize = 12;
/// Most properties collected per page (all items together).
const MAX_PROPERTIES: usize = 20_000;

/// The page's top-level microdata items.
pub(crate) fn items(page: &Page) -> Vec<Value> {
    let mut budget = MAX_PROPERTIES;
    // `itemref` names elements by id; index them once, only when some item uses it.
    let mut ids = HashMap::new();
    if page
        .document
        .select_checked(static_selector!("[itemscope][itemref]"))
        .next()
        .is_some()
    {
        for el in page.document.select_checked(static_selector!("[id]")) {
            if let Some(id) = el.value().id() {
                ids.entry(id).or_insert(el);
            }
        }
    }
    let ctx = Ctx { page, ids };
    page.document
        .select_checked(static_selector!("[itemscope]"))
        .filter(|el| el.value().attr("itemprop").is_none())
        .take(super::jsonld::MAX_ITEMS)
        .map(|el| item(&ctx, el, 0, &mut budget, &mut HashSet::new()))
        .collect()
}

struct Ctx<'a> {
    page: &'a Page,
    ids: HashMap<&'a str, ElementRef<'a>>,
}

fn item(
    ctx: &Ctx<'_>,
    scope: ElementRef<'_>,
    depth: usize,
    budget: &mut usize,
    visiting: &mut HashSet<NodeId>,
) -> Value {
    let page = ctx.page;
    visiting.insert(scope.id());
    let mut map = Map::new();
    let itemtype = scope.value().attr("itemtype").unwrap_or("").trim();
    let types: Vec<&str> = itemtype.split_whitespace().collect();
    if let Some(first) = types.first() {
        let (vocab, _) = split_vocab(first);
        // Nested items share the top-level item's context, as in JSON-LD.
        if !vocab.is_empty() && depth == 0 {
            map.insert("@context".into(), Value::String(vocab.to_owned()));
        }
        let locals: Vec<Value> = types
            .iter()
            .map(|t| Value::String(split_vocab(t).1.to_owned()))
            .collect();
        map.insert(
            "@type".into(),
            if locals.len() == 1 {
                locals.into_iter().next().unwrap_or(Value::Null)
            } else {
                Value::Array(locals)
            },
        );
    }
    if let Some(id) = scope.value().attr("itemid") {
        map.insert(
            "@id".into(),
            Value::String(page.absolute(id).unwrap_or_else(|| id.trim().to_owned())),
        );
    }
    for prop_el in property_elements(ctx, scope) {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let Some(names) = prop_el.value().attr("itemprop") else {
            continue;
        };
        let value = if prop_el.value().attr("itemscope").is_some() {
            if depth >= MAX_NESTING || visiting.contains(&prop_el.id()) {
                Value::String(crate::page::dom::flat_text(prop_el))
            } else {
                item(ctx, prop_el, depth + 1, budget, visiting)
            }
        } else {
            Value::String(property_value(page, prop_el))
        };
        for name in names.split_whitespace() {
            // Absolute-URL property names keep their local part, as schema.org users expect.
            let name = if name.contains("://") {
                split_vocab(name).1
            } else {
                name
            };
            add(&mut map, name, value.clone());
        }
    }
    visiting.remove(&scope.id());
    Value::Object(map)
}

/// Repeated properties become arrays, in document order.
fn add(map: &mut Map<String, Value>, name: &str, value: Value) {
    match map.get_mut(name) {
        None => {
            map.insert(name.to_owned(), value);
        }
        Some(Value::Array(values)) => values.push(value),
        Some(existing) => {
            let first = existing.take();
            *existing = Value::Array(vec![first, value]);
        }
    }
}

/// `http://schema.org/Product` → (`http://schema.org`, `Product`).
fn split_vocab(t: &str) -> (&str, &str) {
    match t.rfind(['/', '#']) {
        Some(i) if i + 1 < t.len() => (&t[..i], &t[i + 1..]),
        _ => ("", t),
    }
}

/// The elements carrying this item's properties: descendants with `itemprop` not inside a
/// nested item, plus those of the elements named by `itemref`.
fn property_elements<'a>(ctx: &Ctx<'a>, scope: ElementRef<'a>) -> Vec<ElementRef<'a>> {
    let mut roots: Vec<ElementRef<'a>> = vec![scope];
    if let Some(refs) = scope.value().attr("itemref") {
        for id in refs.split_whitespace().take(32) {
            if let Some(el) = ctx.ids.get(id) {
                roots.push(*el);
            }
        }
    }
    let mut out = Vec::new();
    for (i, root) in roots.into_iter().enumerate() {
        // A referenced element may itself be a property.
        if i > 0 && root.value().attr("itemprop").is_some() {
            out.push(root);
            if root.value().attr("itemscope").is_some() {
                continue;
            }
        }
        let mut stack: Vec<ElementRef<'a>> = root.children().filter_map(ElementRef::wrap).collect();
        stack.reverse();
        while let Some(el) = stack.pop() {
            if el.value().attr("itemprop").is_some() {
                out.push(el);
            }
            if el.value().attr("itemscope").is_some() {
                continue;
            }
            let mut kids: Vec<ElementRef<'a>> =
                el.children().filter_map(ElementRef::wrap).collect();
            kids.reverse();
            stack.extend(kids);
            if out.len() > MAX_PROPERTIES {
                break;
            }
        }
    }
    out
}

fn property_value(page: &Page, el: ElementRef<'_>) -> String {
    let v = el.value();
    if let Some(content) = v.attr("content") {
        return content.trim().to_owned();
    }
    let url_attr = match v.name() {
        "audio" | "embed" | "iframe" | "img" | "source" | "track" | "video" => Some("src"),
        "a" | "area" | "link" => Some("href"),
        "object" => Some("data"),
        _ => None,
    };
    if let Some(attr) = url_attr {
        let raw = v.attr(attr).unwrap_or("").trim();
        return page.absolute(raw).unwrap_or_else(|| raw.to_owned());
    }
    match v.name() {
        "data" | "meter" => {
            if let Some(value) = v.attr("value") {
                return value.trim().to_owned();
            }
        }
        "time" => {
            if let Some(dt) = v.attr("datetime") {
                return dt.trim().to_owned();
            }
        }
        _ => {}
    }
    crate::page::dom::flat_text(el)
}
