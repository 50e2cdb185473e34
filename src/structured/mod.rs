//! Structured data embedded in pages: JSON-LD, microdata, OpenGraph; and the schema.org
//! Product read from them.

use serde_json::Value;

use crate::tools::Page;

/// JSON-LD and microdata items of a page, as JSON values with `@type`. (Placeholder.)
pub fn items(page: &Page) -> Vec<Value> {
    let _ = page;
    Vec::new()
}

/// The page's schema.org Product (JSON-LD, microdata, OpenGraph, then DOM fallbacks) with
/// `name`, `price`, `currency`, `availability`, `sku`, `brand`, `gtin`, `mpn`, `image`,
/// `description`. None when the page shows no product. (Placeholder.)
pub fn product(page: &Page) -> Option<Value> {
    let _ = page;
    None
}
