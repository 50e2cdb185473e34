//! The schema.org Product of a page, from structured items, OpenGraph, then the DOM.

use serde_json::{Map, Value};

use super::jsonld::{local_name, types_of};
use crate::page::Page;
use crate::page::dom::collapse_whitespace;
use crate::page::interrupt::SelectChecked;
use crate::static_selector;

/// The keys of a product, in output order.
pub(crate) const KEYS: &[&str] = &[
    "name",
    "price",
    "currency",
    "availability",
    "sku",
    "brand",
    "gtin",
    "mpn",
    "image",
    "description",
];

const PRODUCT_TYPES: &[&str] = &[
    "Product",
    "ProductGroup",
    "IndividualProduct",
    "ProductModel",
    "SomeProducts",
    "Vehicle",
    "Car",
    "Book",
];
/// How deep we look for a Product inside other items (WebPage.mainEntity, Offer.itemOffered).
const MAX_SEARCH_DEPTH: usize = 6;
/// Longest description kept.
const MAX_DESCRIPTION: usize = 5000;

/// Builds the product: the first Product item fills what it can, OpenGraph and the DOM fill
/// the rest. None when nothing on the page says "product" — unless `assume_product` (the
/// caller knows it is a product page), when the visible title alone is enough.
pub(crate) fn product(page: &Page, items: &[Value], assume_product: bool) -> Option<Value> {
    let mut out = Map::new();
    let item = items.iter().find_map(|v| find_product(v, 0));
    if let Some(item) = item {
        from_item(page, item, &mut out);
    }
    let og = opengraph(page, &mut out);
    if item.is_none() && !og {
        // Without any markup, a page is a product page when it shows a title and a price.
        match dom_price(page) {
            Some((price, currency))
                if page
                    .document
                    .select_checked(static_selector!("h1"))
                    .next()
                    .is_some() =>
            {
                fill(&mut out, "price", price.into());
                if let Some(cur) = currency {
                    fill(&mut out, "currency", cur.into());
                }
            }
            _ if assume_product => {
                fill(&mut out, "name", dom_name(page)?.into());
            }
            _ => return None,
        }
    } else if item.is_none()
        && let (Some(Value::String(og_name)), Some(shown)) = (out.get("name"), dom_name(page))
        && shown.len() < og_name.len()
        && og_name.contains(shown.as_str())
    {
        // `og:title` often carries the site's name ("Tee | Shop"); the heading does not.
        out.insert("name".into(), shown.into());
    }
    dom_fallbacks(page, &mut out);
    let mut ordered = Map::new();
    for key in KEYS {
        ordered.insert((*key).to_owned(), out.remove(*key).unwrap_or(Value::Null));
    }
    Some(Value::Object(ordered))
}

fn is_product(map: &Map<String, Value>) -> bool {
    types_of(map)
        .iter()
        .any(|t| PRODUCT_TYPES.contains(&t.as_str()))
}

fn find_product(value: &Value, depth: usize) -> Option<&Map<String, Value>> {
    if depth > MAX_SEARCH_DEPTH {
        return None;
    }
    match value {
        Value::Object(map) => {
            if is_product(map) {
                return Some(map);
            }
            map.values().find_map(|v| find_product(v, depth + 1))
        }
        Value::Array(values) => values.iter().find_map(|v| find_product(v, depth + 1)),
        _ => None,
    }
}

/// Sets a key unless it already has a value.
fn fill(out: &mut Map<String, Value>, key: &str, value: Value) {
    let empty = match &value {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        _ => false,
    };
    if !empty && out.get(key).is_none_or(Value::is_null) {
        out.insert(key.to_owned(), value);
    }
}

/// A JSON-LD string as text: shops often put HTML in them (`TFC8&reg;`, `Zub<wbr/>ehör`), so
/// a string with markup or entities is read as an HTML fragment.
fn plain_text(raw: &str) -> String {
    if !raw.contains(['&', '<']) {
        return collapse_whitespace(raw);
    }
    let fragment = scraper::Html::parse_fragment(raw);
    collapse_whitespace(&fragment.root_element().text().collect::<String>())
}

/// The first string in a value: a string, the first of an array, an object's `name`/`url`/`@id`.
fn text_of(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => {
            let s = plain_text(s);
            // Placeholders some shops put in empty fields.
            let placeholder = matches!(
                s.to_ascii_lowercase().as_str(),
                "n/a" | "na" | "none" | "null" | "-"
            );
            (!s.is_empty() && !placeholder).then_some(s)
        }
        Value::Number(n) => Some(n.to_string()),
        Value::Array(values) => values.iter().find_map(text_of),
        Value::Object(map) => ["name", "url", "contentUrl", "contentURL", "@id", "@value"]
            .iter()
            .find_map(|k| map.get(*k).and_then(text_of)),
        _ => None,
    }
}

fn from_item(page: &Page, item: &Map<String, Value>, out: &mut Map<String, Value>) {
    let get = |k: &str| item.get(k).and_then(text_of);
    if let Some(name) = get("name") {
        fill(out, "name", name.into());
    }
    if let Some(d) = get("description") {
        fill(out, "description", clip(d).into());
    }
    if let Some(image) = item.get("image").and_then(text_of) {
        fill(out, "image", page.absolute(&image).unwrap_or(image).into());
    }
    for k in ["sku", "productID"] {
        if let Some(v) = get(k) {
            fill(out, "sku", v.into());
        }
    }
    if let Some(v) = get("mpn") {
        fill(out, "mpn", v.into());
    }
    if let Some(v) = gtin_of(item) {
        fill(out, "gtin", v.into());
    }
    if let Some(brand) = item
        .get("brand")
        .or_else(|| item.get("manufacturer"))
        .and_then(text_of)
    {
        fill(out, "brand", brand.into());
    }
    // ProductGroup: the variants carry the offers.
    let offers = item.get("offers").or_else(|| {
        item.get("hasVariant")
            .and_then(|v| find_key(v, "offers", 0))
    });
    if let Some(offer) = offers.and_then(|o| first_offer(o, 0)) {
        if let Some((price, currency)) = offer_price(offer) {
            fill(out, "price", price.into());
            if let Some(c) = currency {
                fill(out, "currency", c.into());
            }
        }
        if let Some(a) = offer.get("availability").and_then(text_of) {
            fill(out, "availability", normalize_availability(&a).into());
        }
        for k in ["sku", "mpn"] {
            if let Some(v) = offer.get(k).and_then(text_of) {
                fill(out, k, v.into());
            }
        }
        if let Some(v) = gtin_of(offer) {
            fill(out, "gtin", v.into());
        }
    }
}

fn find_key<'v>(value: &'v Value, key: &str, depth: usize) -> Option<&'v Value> {
    if depth > MAX_SEARCH_DEPTH {
        return None;
    }
    match value {
        Value::Object(m) => m
            .get(key)
            .or_else(|| m.values().find_map(|v| find_key(v, key, depth + 1))),
        Value::Array(a) => a.iter().find_map(|v| find_key(v, key, depth + 1)),
        _ => None,
    }
}

fn first_offer(value: &Value, depth: usize) -> Option<&Map<String, Value>> {
    if depth > 3 {
        return None;
    }
    match value {
        Value::Object(m) => {
            // AggregateOffer may nest its offers; prefer its own lowPrice when present.
            if m.contains_key("price")
                || m.contains_key("lowPrice")
                || m.contains_key("priceSpecification")
            {
                return Some(m);
            }
            m.get("offers")
                .and_then(|o| first_offer(o, depth + 1))
                .or(Some(m))
        }
        Value::Array(a) => a
            .iter()
            .find_map(|o| first_offer(o, depth + 1).filter(|m| m.contains_key("price")))
            .or_else(|| a.iter().find_map(|o| first_offer(o, depth + 1))),
        _ => None,
    }
}

fn offer_price(offer: &Map<String, Value>) -> Option<(f64, Option<String>)> {
    let currency = offer.get("priceCurrency").and_then(text_of);
    for key in ["price", "lowPrice", "highPrice"] {
        if let Some(p) = offer.get(key).and_then(price_number) {
            return Some((p, currency));
        }
    }
    let spec = offer.get("priceSpecification")?;
    let spec = match spec {
        Value::Array(a) => a.first()?,
        other => other,
    };
    let p = spec.get("price").and_then(price_number)?;
    let c = spec.get("priceCurrency").and_then(text_of).or(currency);
    Some((p, c))
}

/// A price as a number: JSON numbers as they are; strings like "1,299.00", "1.299,00 €",
/// "$19.99".
fn price_number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => parse_price(s),
        Value::Array(a) => a.iter().find_map(price_number),
        _ => None,
    }
}

/// Parses a price text, deciding whether `,` is a thousands or a decimal separator.
pub(crate) fn parse_price(text: &str) -> Option<f64> {
    let digits: String = text
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | ' ' | '\u{a0}' | '\''))
        .filter(|c| !matches!(c, ' ' | '\u{a0}' | '\''))
        .collect();
    if digits.is_empty() {
        return None;
    }
    let last_comma = digits.rfind(',');
    let last_dot = digits.rfind('.');
    let normalized = match (last_comma, last_dot) {
        // "1.299,00": comma is the decimal separator.
        (Some(c), Some(d)) if c > d => digits.replace('.', "").replace(',', "."),
        (Some(_), Some(_)) => digits.replace(',', ""),
        // "19,99" is a decimal; "1,299" a thousands group.
        (Some(c), None) if digits.len() - c - 1 == 2 => digits.replace(',', "."),
        (Some(_), None) => digits.replace(',', ""),
        _ => digits,
    };
    let normalized = normalized.trim_end_matches('.');
    normalized.parse::<f64>().ok().filter(|p| p.is_finite())
}

fn gtin_of(map: &Map<String, Value>) -> Option<String> {
    ["gtin", "gtin13", "gtin12", "gtin14", "gtin8", "isbn"]
        .iter()
        .find_map(|k| map.get(*k).and_then(text_of))
}

/// `http://schema.org/InStock`, `instock`, `in stock` → `InStock`.
fn normalize_availability(raw: &str) -> String {
    let local = local_name(raw);
    let key: String = local
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    let known = [
        "InStock",
        "OutOfStock",
        "PreOrder",
        "BackOrder",
        "Discontinued",
        "InStoreOnly",
        "LimitedAvailability",
        "OnlineOnly",
        "PreSale",
        "SoldOut",
        "Reserved",
        "MadeToOrder",
    ];
    if let Some(k) = known.iter().find(|k| k.to_ascii_lowercase() == key) {
        return (*k).to_owned();
    }
    match key.as_str() {
        "oos" | "unavailable" | "outofstock" => "OutOfStock".into(),
        "available" | "instock" | "yes" => "InStock".into(),
        "pending" => "PreOrder".into(),
        _ => local,
    }
}

fn clip(s: String) -> String {
    if s.chars().count() <= MAX_DESCRIPTION {
        s
    } else {
        s.chars().take(MAX_DESCRIPTION).collect()
    }
}

/// Fills from `og:`/`product:` meta; true when they say this is a product.
fn opengraph(page: &Page, out: &mut Map<String, Value>) -> bool {
    let mut metas: Vec<(String, String)> = Vec::new();
    for m in page
        .document
        .select_checked(static_selector!("meta[property], meta[name]"))
    {
        let key = m
            .value()
            .attr("property")
            .or_else(|| m.value().attr("name"))
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if let Some(content) = m.value().attr("content") {
            metas.push((key, collapse_whitespace(content)));
        }
        if metas.len() > 2000 {
            break;
        }
    }
    let get = |keys: &[&str]| {
        keys.iter().find_map(|k| {
            metas
                .iter()
                .find(|(mk, v)| mk == k && !v.is_empty())
                .map(|(_, v)| v.clone())
        })
    };
    let og_type = get(&["og:type"]).unwrap_or_default().to_ascii_lowercase();
    let price = get(&[
        "product:price:amount",
        "og:price:amount",
        "product:sale_price:amount",
    ]);
    let is_product = og_type.starts_with("product") || og_type == "og:product" || price.is_some();
    if !is_product {
        return false;
    }
    if let Some(v) = get(&["og:title", "twitter:title"]) {
        fill(out, "name", v.into());
    }
    if let Some(p) = price.as_deref().and_then(parse_price) {
        fill(out, "price", p.into());
    }
    if let Some(v) = get(&[
        "product:price:currency",
        "og:price:currency",
        "product:sale_price:currency",
    ]) {
        fill(out, "currency", v.to_ascii_uppercase().into());
    }
    if let Some(v) = get(&["product:availability", "og:availability"]) {
        fill(out, "availability", normalize_availability(&v).into());
    }
    if let Some(v) = get(&["product:brand", "og:brand"]) {
        fill(out, "brand", v.into());
    }
    if let Some(v) = get(&["product:retailer_item_id", "product:sku"]) {
        fill(out, "sku", v.into());
    }
    if let Some(v) = get(&["product:gtin", "product:ean", "product:upc", "product:isbn"]) {
        fill(out, "gtin", v.into());
    }
    if let Some(v) = get(&["product:mfr_part_no"]) {
        fill(out, "mpn", v.into());
    }
    if let Some(v) = get(&["og:image", "og:image:url", "og:image:secure_url"]) {
        fill(out, "image", page.absolute(&v).unwrap_or(v).into());
    }
    if let Some(v) = get(&["og:description"]) {
        fill(out, "description", clip(v).into());
    }
    true
}

/// A visible price: an element whose class or itemprop says price, read as amount and
/// currency.
fn dom_price(page: &Page) -> Option<(f64, Option<String>)> {
    for el in page.document.select_checked(static_selector!(
        "[itemprop=price], [class*=price], [id*=price], [data-price]"
    )) {
        if crate::page::chrome::in_chrome(el) {
            continue;
        }
        let text = el
            .value()
            .attr("content")
            .or_else(|| el.value().attr("data-price"))
            .map_or_else(|| crate::content::flat_text(el), str::to_owned);
        if text.len() > 60 {
            continue;
        }
        let currency = currency_of(&text);
        if let Some(p) = parse_price(&text).filter(|p| *p > 0.0)
            && (currency.is_some() || el.value().attr("itemprop") == Some("price"))
        {
            return Some((p, currency));
        }
    }
    None
}

/// The currency a price text shows, as an ISO 4217 code.
pub(crate) fn currency_of(text: &str) -> Option<String> {
    const SYMBOLS: &[(&str, &str)] = &[
        ("US$", "USD"),
        ("C$", "CAD"),
        ("A$", "AUD"),
        ("€", "EUR"),
        ("£", "GBP"),
        ("¥", "JPY"),
        ("₹", "INR"),
        ("₩", "KRW"),
        ("₽", "RUB"),
        ("zł", "PLN"),
        ("R$", "BRL"),
        ("$", "USD"),
    ];
    for code in [
        "USD", "EUR", "GBP", "JPY", "CAD", "AUD", "CHF", "SEK", "NOK", "DKK", "INR", "CNY", "PLN",
        "BRL", "NZD", "MXN",
    ] {
        if text.contains(code) {
            return Some(code.to_owned());
        }
    }
    SYMBOLS
        .iter()
        .find(|(s, _)| text.contains(s))
        .map(|(_, c)| (*c).to_owned())
}

/// The product title shown on the page: a shop's title element, else the first visible
/// `<h1>` (screen-reader-only headings like "Product summary" are skipped).
fn dom_name(page: &Page) -> Option<String> {
    let doc = &page.document;
    doc.select_checked(static_selector!("#productTitle, [itemprop=name]"))
        .chain(doc.select_checked(static_selector!("h1")))
        .filter(|el| !crate::page::chrome::in_chrome(*el))
        .filter(|el| {
            !el.ancestors()
                .filter_map(scraper::ElementRef::wrap)
                .chain(std::iter::once(*el))
                .any(|a| {
                    crate::content::is_hidden(a)
                        || a.value().classes().any(|c| {
                            let c = c.to_ascii_lowercase();
                            c.contains("offscreen")
                                || c.contains("sr-only")
                                || c.contains("visually-hidden")
                                || c.contains("screen-reader")
                        })
                })
        })
        .map(crate::content::flat_text)
        .find(|t| !t.is_empty() && t.chars().count() <= 300)
}

fn dom_fallbacks(page: &Page, out: &mut Map<String, Value>) {
    let doc = &page.document;
    if out.get("name").is_none_or(Value::is_null)
        && let Some(name) = dom_name(page)
    {
        fill(out, "name", name.into());
    }
    if out.get("price").is_none_or(Value::is_null)
        && let Some((p, c)) = dom_price(page)
    {
        fill(out, "price", p.into());
        if let Some(c) = c {
            fill(out, "currency", c.into());
        }
    }
    if out.get("description").is_none_or(Value::is_null)
        && let Some(d) = doc
            .select_checked(static_selector!("meta[name=description]"))
            .next()
            .and_then(|m| m.value().attr("content"))
    {
        fill(out, "description", clip(collapse_whitespace(d)).into());
    }
    if out.get("image").is_none_or(Value::is_null)
        && let Some(src) = doc
            .select_checked(static_selector!("[itemprop=image]"))
            .next()
            .and_then(|i| i.value().attr("src").or_else(|| i.value().attr("content")))
    {
        fill(
            out,
            "image",
            page.absolute(src).unwrap_or_else(|| src.to_owned()).into(),
        );
    }
}
