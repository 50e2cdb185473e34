//! Structured data embedded in pages: JSON-LD, microdata, OpenGraph; and the schema.org
//! Product read from them.

mod jsonld;
mod microdata;
pub mod product;

use serde_json::Value;

use crate::page::Page;

pub(crate) use jsonld::types_of;
pub use product::Availability;

/// JSON-LD and microdata items of a page, as JSON values with `@type`.
///
/// JSON-LD blocks are parsed leniently (comments, trailing commas, control characters) and
/// `@graph` members become top-level items carrying the graph's `@context`. Microdata items
/// take the same shape: `{"@context": "http://schema.org", "@type": "Product", "name": …}`,
/// nested items as objects, repeated properties as arrays. JSON-LD items come first.
pub fn items(page: &Page) -> Vec<Value> {
    let mut out = json_ld(page);
    out.extend(microdata(page));
    out.truncate(jsonld::MAX_ITEMS);
    out
}

/// The JSON-LD items alone (see [`items`]).
pub fn json_ld(page: &Page) -> Vec<Value> {
    jsonld::items(page)
}

/// The microdata items alone (see [`items`]).
pub fn microdata(page: &Page) -> Vec<Value> {
    microdata::items(page)
}

/// The page's schema.org Product (JSON-LD, microdata, OpenGraph, then DOM fallbacks) with
/// `name`, `price`, `currency`, `availability`, `sku`, `brand`, `gtin`, `mpn`, `image`,
/// `description` (every key present, null when unknown; `price` the main product's current
/// price as a number rounded to the currency's minor unit, `currency` an ISO 4217 code,
/// `availability` a schema.org name such as `InStock`, see [`Availability`]). None
/// when the page shows no product; with
/// `assume_product` (the caller says it is a product page) the visible title is enough.
pub fn product(page: &Page, assume_product: bool) -> Option<Value> {
    read_product(page, assume_product).map(|p| Value::Object(p.fields))
}

/// As [`product`], with the rule that found each key (see [`product::Rule`]).
pub fn read_product(page: &Page, assume_product: bool) -> Option<product::Product> {
    product::product(page, &items(page), assume_product)
}

#[cfg(test)]
mod tests;
