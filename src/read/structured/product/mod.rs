//! The schema.org Product of a page, from structured items, OpenGraph, then the DOM: the
//! main product's current price (not a list price, a related product or shipping) as an
//! amount and an ISO 4217 currency, its availability as a schema.org name, and the
//! identifiers it shows under a label.

mod availability;
mod identifiers;
mod price;
mod scope;

use std::collections::BTreeMap;

use serde_json::{Map, Value};

pub(crate) use crate::page::locale::Locale;
pub(crate) use crate::page::money::{parse_amount, parse_money};
pub use availability::{Availability, IN_STOCK, OUT_OF_STOCK};
pub use price::{current_amount, is_struck_amount};

use super::jsonld::types_of;
use crate::page::Page;
use crate::page::dom::{collapse_whitespace, json_number};
use crate::page::interrupt::SelectChecked;
use crate::page::money::{Money, iso_code};
use crate::static_selector;
use scope::Scope;

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
pub(crate) fn product(page: &Page, items: &[Value], assume_product: bool) -> Option<Product> {
    let mut out = Filled::default();
    let reader = Reader {
        page,
        locale: Locale::of_page(page),
        scope: Scope::of(page),
    };
    let item = items.iter().find_map(|v| find_product(v, 0));
    if let Some(item) = item {
        reader.read_item(item, &mut out);
    }
    let og = reader.opengraph(&mut out);
    if item.is_none() && !og {
        // Without any markup, a page is a product page when it shows a title and a price.
        match price::main_price(page, &reader.scope, &reader.locale) {
            Some(money)
                if page
                    .document
                    .select_checked(static_selector!("h1"))
                    .next()
                    .is_some() =>
            {
                out.fill_money(Rule::ShownOnPage, &money);
            }
            _ if assume_product => {
                out.fill(
                    Rule::VisibleHeading,
                    "name",
                    dom_name(&reader.scope)?.into(),
                );
            }
            _ => return None,
        }
    } else if item.is_none()
        && let (Some(Value::String(og_name)), Some(shown)) =
            (out.values.get("name"), dom_name(&reader.scope))
        && shown.len() < og_name.len()
        && og_name.contains(shown.as_str())
    {
        // `og:title` often carries the site's name ("Tee | Shop"); the heading does not.
        out.set(Rule::VisibleHeading, "name", shown.into());
    }
    reader.dom_fallbacks(&mut out);
    let mut ordered = Map::new();
    for key in KEYS {
        ordered.insert(
            (*key).to_owned(),
            out.values.remove(*key).unwrap_or(Value::Null),
        );
    }
    Some(Product {
        fields: ordered,
        rules: out.rules,
    })
}

/// A product as read: its keys (all of [`KEYS`], `null` where the page has none) and, for
/// each key found, the name of the rule that found it.
#[derive(Debug, Clone, PartialEq)]
pub struct Product {
    /// Every key of [`KEYS`], in that order.
    pub fields: Map<String, Value>,
    /// Each key found, and the name of the rule that found it.
    pub rules: BTreeMap<String, &'static str>,
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

/// Where a product's key was read from, tried in this order (a key keeps the first value
/// found); the name is the evidence (`rules` in `extract.product`'s step).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// A schema.org Product (JSON-LD or microdata).
    SchemaOrgProduct,
    /// The Product's first offer (a ProductGroup's first variant's).
    SchemaOrgOffer,
    /// `og:`/`product:` meta tags.
    OpenGraph,
    /// The page's main heading, when `og:title` is it plus the site's name, or when the
    /// caller says the page is a product and nothing else names it.
    VisibleHeading,
    /// What the page shows near its main heading: a price, availability, identifiers.
    ShownOnPage,
}

impl Rule {
    /// The rule's name in evidence.
    pub const fn name(self) -> &'static str {
        match self {
            Self::SchemaOrgProduct => "schema_org_product",
            Self::SchemaOrgOffer => "schema_org_offer",
            Self::OpenGraph => "opengraph",
            Self::VisibleHeading => "visible_heading",
            Self::ShownOnPage => "shown_on_page",
        }
    }
}

/// The product's keys filled so far, and the rule that filled each.
#[derive(Debug, Default)]
struct Filled {
    values: Map<String, Value>,
    rules: BTreeMap<String, &'static str>,
}

impl Filled {
    /// Sets a key unless it already has a value.
    fn fill(&mut self, rule: Rule, key: &str, value: Value) {
        let empty = match &value {
            Value::Null => true,
            Value::String(s) => s.trim().is_empty(),
            _ => false,
        };
        if !empty && self.missing(key) {
            self.set(rule, key, value);
        }
    }

    /// Sets a key, whatever it held.
    fn set(&mut self, rule: Rule, key: &str, value: Value) {
        self.values.insert(key.to_owned(), value);
        self.rules.insert(key.to_owned(), rule.name());
    }

    fn missing(&self, key: &str) -> bool {
        self.values.get(key).is_none_or(Value::is_null)
    }

    /// Sets the price (a JSON number, whole amounts as integers) and its currency.
    fn fill_money(&mut self, rule: Rule, money: &Money) {
        if let Some(amount) = json_number(money.amount) {
            self.fill(rule, "price", amount);
            if let Some(currency) = money.currency {
                self.fill(rule, "currency", currency.into());
            }
        }
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

/// Reads one page's product: the page, its locale and where its main product sits.
struct Reader<'a> {
    page: &'a Page,
    locale: Locale,
    scope: Scope<'a>,
}

impl Reader<'_> {
    /// Fills from a schema.org Product item and its first offer.
    fn read_item(&self, item: &Map<String, Value>, out: &mut Filled) {
        let page = self.page;
        let get = |k: &str| item.get(k).and_then(text_of);
        if let Some(name) = get("name") {
            out.fill(Rule::SchemaOrgProduct, "name", name.into());
        }
        if let Some(d) = get("description") {
            out.fill(Rule::SchemaOrgProduct, "description", clip(d).into());
        }
        if let Some(image) = item.get("image").and_then(text_of) {
            out.fill(
                Rule::SchemaOrgProduct,
                "image",
                page.absolute(&image).unwrap_or(image).into(),
            );
        }
        for k in ["sku", "productID"] {
            if let Some(v) = get(k) {
                out.fill(Rule::SchemaOrgProduct, "sku", v.into());
            }
        }
        if let Some(v) = get("mpn") {
            out.fill(Rule::SchemaOrgProduct, "mpn", v.into());
        }
        if let Some(v) = gtin_of(item) {
            out.fill(Rule::SchemaOrgProduct, "gtin", v.into());
        }
        if let Some(brand) = item
            .get("brand")
            .or_else(|| item.get("manufacturer"))
            .and_then(text_of)
        {
            out.fill(Rule::SchemaOrgProduct, "brand", brand.into());
        }
        // ProductGroup: the variants carry the offers.
        let offers = item.get("offers").or_else(|| {
            item.get("hasVariant")
                .and_then(|v| find_key(v, "offers", 0))
        });
        if let Some(offer) = offers.and_then(|o| first_offer(o, 0)) {
            if let Some(money) = self.offer_price(offer) {
                out.fill_money(Rule::SchemaOrgOffer, &money);
            }
            if let Some(a) = offer
                .get("availability")
                .and_then(text_of)
                .and_then(|a| Availability::from_schema(&a))
            {
                out.fill(Rule::SchemaOrgOffer, "availability", a.as_str().into());
            }
            for k in ["sku", "mpn"] {
                if let Some(v) = offer.get(k).and_then(text_of) {
                    out.fill(Rule::SchemaOrgOffer, k, v.into());
                }
            }
            if let Some(v) = gtin_of(offer) {
                out.fill(Rule::SchemaOrgOffer, "gtin", v.into());
            }
        }
    }

    /// An offer's price and currency; an `AggregateOffer` answers its lowest price.
    fn offer_price(&self, offer: &Map<String, Value>) -> Option<Money> {
        let currency = |m: &Map<String, Value>| {
            m.get("priceCurrency")
                .and_then(text_of)
                .and_then(|c| iso_code(&c))
        };
        let own_currency = currency(offer);
        for key in ["price", "lowPrice", "highPrice"] {
            if let Some(amount) = offer.get(key).and_then(|v| self.amount(v, own_currency)) {
                return Some(Money {
                    amount,
                    currency: own_currency,
                });
            }
        }
        let spec = match offer.get("priceSpecification")? {
            Value::Array(a) => a.first()?,
            other => other,
        };
        let spec = spec.as_object()?;
        let currency = currency(spec).or(own_currency);
        let amount = spec.get("price").and_then(|v| self.amount(v, currency))?;
        Some(Money { amount, currency })
    }

    /// A structured price: JSON numbers as they are, strings ("1.299,00", "$19.99") read as
    /// the page writes prices.
    fn amount(&self, value: &Value, currency: Option<&str>) -> Option<f64> {
        match value {
            Value::Number(n) => n.as_f64().filter(|a| a.is_finite()),
            Value::String(s) => parse_money(s, &self.locale).map(|m| m.amount).or_else(|| {
                let number: String = s
                    .chars()
                    .skip_while(|c| !c.is_ascii_digit())
                    .take_while(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | ' ' | '\''))
                    .collect();
                parse_amount(&number, currency, false)
            }),
            Value::Array(a) => a.iter().find_map(|v| self.amount(v, currency)),
            _ => None,
        }
    }

    /// Fills from `og:`/`product:` meta; true when they say this is a product.
    fn opengraph(&self, out: &mut Filled) -> bool {
        let page = self.page;
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
        let is_product =
            og_type.starts_with("product") || og_type == "og:product" || price.is_some();
        if !is_product {
            return false;
        }
        if let Some(v) = get(&["og:title", "twitter:title"]) {
            out.fill(Rule::OpenGraph, "name", v.into());
        }
        let currency = get(&[
            "product:price:currency",
            "og:price:currency",
            "product:sale_price:currency",
        ])
        .and_then(|c| iso_code(&c));
        if let Some(amount) = price.and_then(|p| self.amount(&Value::String(p), currency)) {
            out.fill_money(Rule::OpenGraph, &Money { amount, currency });
        }
        if let Some(v) = get(&["product:availability", "og:availability"])
            && let Some(a) = Availability::from_schema(&v)
        {
            out.fill(Rule::OpenGraph, "availability", a.as_str().into());
        }
        if let Some(v) = get(&["product:brand", "og:brand"]) {
            out.fill(Rule::OpenGraph, "brand", v.into());
        }
        if let Some(v) = get(&["product:retailer_item_id", "product:sku"]) {
            out.fill(Rule::OpenGraph, "sku", v.into());
        }
        if let Some(v) = get(&["product:gtin", "product:ean", "product:upc", "product:isbn"]) {
            out.fill(Rule::OpenGraph, "gtin", v.into());
        }
        if let Some(v) = get(&["product:mfr_part_no"]) {
            out.fill(Rule::OpenGraph, "mpn", v.into());
        }
        if let Some(v) = get(&["og:image", "og:image:url", "og:image:secure_url"]) {
            out.fill(
                Rule::OpenGraph,
                "image",
                page.absolute(&v).unwrap_or(v).into(),
            );
        }
        if let Some(v) = get(&["og:description"]) {
            out.fill(Rule::OpenGraph, "description", clip(v).into());
        }
        true
    }

    fn dom_fallbacks(&self, out: &mut Filled) {
        let doc = &self.page.document;
        let missing = |out: &Filled, key: &str| out.missing(key);
        if missing(out, "name")
            && let Some(name) = dom_name(&self.scope)
        {
            out.fill(Rule::VisibleHeading, "name", name.into());
        }
        if missing(out, "price") || missing(out, "currency") {
            let shown = price::main_price(self.page, &self.scope, &self.locale);
            if missing(out, "price")
                && let Some(money) = &shown
            {
                out.fill_money(Rule::ShownOnPage, money);
            } else if let Some(currency) = shown.and_then(|m| m.currency) {
                // Structured data gave the amount without its currency.
                out.fill(Rule::ShownOnPage, "currency", currency.into());
            }
        }
        if missing(out, "availability")
            && let Some(a) = availability::shown_availability(self.page, &self.scope)
        {
            out.fill(Rule::ShownOnPage, "availability", a.as_str().into());
        }
        if missing(out, "sku") || missing(out, "mpn") || missing(out, "gtin") {
            let ids = identifiers::shown_identifiers(self.page, &self.scope);
            for (key, value) in [("sku", ids.sku), ("mpn", ids.mpn), ("gtin", ids.gtin)] {
                if let Some(v) = value {
                    out.fill(Rule::ShownOnPage, key, v.into());
                }
            }
        }
        if missing(out, "brand")
            && let Some(brand) = identifiers::shown_brand(self.page, &self.scope)
        {
            out.fill(Rule::ShownOnPage, "brand", brand.into());
        }
        if missing(out, "description")
            && let Some(d) = doc
                .select_checked(static_selector!("meta[name=description]"))
                .next()
                .and_then(|m| m.value().attr("content"))
        {
            out.fill(
                Rule::ShownOnPage,
                "description",
                clip(collapse_whitespace(d)).into(),
            );
        }
        if missing(out, "image")
            && let Some(src) = doc
                .select_checked(static_selector!("[itemprop=image]"))
                .next()
                .and_then(|i| i.value().attr("src").or_else(|| i.value().attr("content")))
        {
            out.fill(
                Rule::ShownOnPage,
                "image",
                self.page
                    .absolute(src)
                    .unwrap_or_else(|| src.to_owned())
                    .into(),
            );
        }
    }
}

/// The product title shown on the page (see [`scope::main_heading`]).
fn dom_name(scope: &Scope<'_>) -> Option<String> {
    scope.heading.map(crate::page::dom::flat_text)
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

fn gtin_of(map: &Map<String, Value>) -> Option<String> {
    ["gtin", "gtin13", "gtin12", "gtin14", "gtin8", "isbn"]
        .iter()
        .find_map(|k| map.get(*k).and_then(text_of))
}

fn clip(s: String) -> String {
    if s.chars().count() <= MAX_DESCRIPTION {
        s
    } else {
        s.chars().take(MAX_DESCRIPTION).collect()
    }
}

#[cfg(test)]
mod tests;
