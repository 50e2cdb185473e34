//! JSON-LD blocks: lenient parsing and `@graph` flattening.

use serde_json::{Map, Value};

use crate::page::Page;
use crate::page::interrupt::SelectChecked;
use crate::static_selector;

/// Largest script body we try to parse (a bigger one is almost certainly not metadata).
const MAX_SCRIPT_BYTES: usize = 2_000_000;
/// Most items returned from one page.
pub(crate) const MAX_ITEMS: usize = 1000;

/// Every JSON-LD item of the page, `@graph` members flattened into top-level items (they
/// inherit the graph's `@context`), arrays split, unparsable blocks skipped.
///
/// A block a head manager wrote as `<meta name="script:ld+json" content="{…}">` instead of a
/// script (Nuxt's `unhead` does when it is misconfigured) is read as one, after the scripts.
pub(crate) fn items(page: &Page) -> Vec<Value> {
    let scripts = page
        .document
        .select_checked(static_selector!("script[type]"))
        .filter(|script| {
            let ty = script.value().attr("type").unwrap_or("");
            let ty = ty.split(';').next().unwrap_or("").trim();
            ty.eq_ignore_ascii_case("application/ld+json")
        })
        .map(|script| script.text().collect::<String>());
    let metas = page
        .document
        .select_checked(static_selector!(r#"meta[name="script:ld+json"][content]"#))
        .filter_map(|meta| meta.value().attr("content").map(str::to_owned));
    let mut out = Vec::new();
    for text in scripts.chain(metas) {
        if text.len() > MAX_SCRIPT_BYTES {
            continue;
        }
        if let Some(value) = parse_lenient(&text) {
            flatten(value, None, &mut out);
        }
        if out.len() >= MAX_ITEMS {
            out.truncate(MAX_ITEMS);
            break;
        }
    }
    out
}

fn flatten(value: Value, context: Option<&Value>, out: &mut Vec<Value>) {
    match value {
        Value::Array(values) => {
            for v in values {
                flatten(v, context, out);
            }
        }
        Value::Object(mut map) => {
            let own_context = map.get("@context").cloned();
            let context = own_context.as_ref().or(context);
            if let Some(graph) = map.remove("@graph") {
                let graph = match graph {
                    Value::Array(members) => members,
                    other => vec![other],
                };
                for member in graph {
                    push_graph_member(member, context, out);
                }
                // What remains next to the graph is an item only if it says something.
                map.remove("@context");
                if map.keys().any(|k| k != "@id") {
                    if let Some(ctx) = context {
                        map.insert("@context".into(), ctx.clone());
                    }
                    out.push(Value::Object(map));
                }
            } else if !map.is_empty() {
                if let Some(ctx) = context
                    && !map.contains_key("@context")
                {
                    map.insert("@context".into(), ctx.clone());
                }
                out.push(Value::Object(map));
            }
        }
        _ => {}
    }
}

/// Adds a member of a `@graph` as an item with the graph's `@context`; a member that is itself
/// a list (`"@graph": [{…}, [{…}, {…}]]`, as some site builders write it) adds each of its own.
fn push_graph_member(member: Value, context: Option<&Value>, out: &mut Vec<Value>) {
    match member {
        Value::Object(mut m) => {
            if let Some(ctx) = context
                && !m.contains_key("@context")
            {
                m.insert("@context".into(), ctx.clone());
            }
            out.push(Value::Object(m));
        }
        Value::Array(members) => {
            for member in members {
                push_graph_member(member, context, out);
            }
        }
        _ => {}
    }
}

/// Parses a JSON-LD block as browsers' authors write it: HTML comment and CDATA wrappers,
/// `//` and `/* */` comments, raw control characters in strings, trailing commas.
pub(crate) fn parse_lenient(text: &str) -> Option<Value> {
    let trimmed = strip_wrappers(text);
    if let Ok(v) = serde_json::from_str(trimmed) {
        return Some(v);
    }
    let cleaned = clean_json(trimmed);
    serde_json::from_str(&cleaned).ok()
}

fn strip_wrappers(text: &str) -> &str {
    let mut t = text.trim();
    for (open, close) in [
        ("<!--", "-->"),
        ("<![CDATA[", "]]>"),
        ("//<![CDATA[", "//]]>"),
    ] {
        if let Some(rest) = t.strip_prefix(open) {
            if let Some(inner) = rest.strip_suffix(close) {
                // A wrapper around the whole block.
                t = inner.trim();
            } else if let Some(end) = rest.find(close) {
                // A comment before the JSON.
                t = rest[end + close.len()..].trim();
            } else {
                t = rest.trim();
            }
        }
    }
    t.trim_end_matches(';').trim()
}

/// Removes comments and trailing commas outside strings, escapes control characters inside
/// them. A small state machine, linear in the input.
fn clean_json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut in_string = false;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            match c {
                '\\' => {
                    out.push(c);
                    if let Some(next) = chars.get(i + 1) {
                        out.push(*next);
                    }
                    i += 2;
                    continue;
                }
                '"' => in_string = false,
                // Raw line breaks and tabs in strings mean what their escapes mean.
                '\n' | '\r' | '\t' => {
                    out.push_str(match c {
                        '\n' => "\\n",
                        '\r' => "\\r",
                        _ => "\\t",
                    });
                    i += 1;
                    continue;
                }
                c if c.is_control() => {
                    i += 1;
                    continue;
                }
                _ => {}
            }
            out.push(c);
            i += 1;
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                i += 2;
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
                continue;
            }
            c if c.is_control() && !c.is_whitespace() => {}
            _ => out.push(c),
        }
        i += 1;
    }
    remove_trailing_commas(&out)
}

fn remove_trailing_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        if c == ',' {
            let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            if matches!(next, Some('}' | ']') | None) {
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// The `@type` of an item as local names ("Product", not "http://schema.org/Product").
pub(crate) fn types_of(item: &Map<String, Value>) -> Vec<String> {
    let mut out = Vec::new();
    match item.get("@type").or_else(|| item.get("type")) {
        Some(Value::String(s)) => out.push(local_name(s)),
        Some(Value::Array(a)) => out.extend(a.iter().filter_map(Value::as_str).map(local_name)),
        _ => {}
    }
    out
}

/// `http://schema.org/Product` → `Product`, `schema:Product` → `Product`.
pub(crate) fn local_name(s: &str) -> String {
    s.rsplit(['/', '#', ':'])
        .next()
        .unwrap_or(s)
        .trim()
        .to_owned()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lenient_parsing() {
        let v = parse_lenient("<!-- {\"a\": 1, // note\n \"b\": \"x\ny\",} -->").unwrap();
        assert_eq!(v, json!({"a": 1, "b": "x\ny"}));
        assert_eq!(
            parse_lenient("<!-- note -->\n{\"a\": \"<!-- x -->\"}").unwrap(),
            json!({"a": "<!-- x -->"})
        );
        assert_eq!(parse_lenient("/* c */ [1,2,]").unwrap(), json!([1, 2]));
        assert!(parse_lenient("{").is_none());
        assert_eq!(
            parse_lenient(r#"{"url": "http://x.com/a//b"}"#).unwrap(),
            json!({"url": "http://x.com/a//b"})
        );
    }

    #[test]
    fn a_list_inside_a_graph_is_flattened_too() {
        let mut out = Vec::new();
        flatten(
            json!({"@context": "https://schema.org", "@graph": [{"@type": "A"}, [{"@type": "B"}, [{"@type": "C"}]]]}),
            None,
            &mut out,
        );
        let types: Vec<&str> = out.iter().filter_map(|v| v["@type"].as_str()).collect();
        assert_eq!(types, ["A", "B", "C"]);
        assert!(out.iter().all(|v| v["@context"] == "https://schema.org"));
    }

    #[test]
    fn graph_is_flattened_with_context() {
        let mut out = Vec::new();
        flatten(
            json!({"@context": "https://schema.org", "@graph": [{"@type": "A"}, {"@type": "B"}]}),
            None,
            &mut out,
        );
        assert_eq!(
            out,
            vec![
                json!({"@type": "A", "@context": "https://schema.org"}),
                json!({"@type": "B", "@context": "https://schema.org"})
            ]
        );
    }
}
