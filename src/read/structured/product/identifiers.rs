//! Product identifiers a page shows under a label when its structured data has none:
//! "SKU: HT-1", "Item # 123", "ASIN : B0…", "Art.-Nr. 4410", "Réf. : SAC-07", "Part number",
//! "Model", "EAN".
//!
//! `extract.named_fields` reads labelled values too, but lives above this module (tools use
//! structured data, not the other way round) and answers any label; this reader knows the
//! identifier labels of shops in several languages and which kind of number each one is.

use std::sync::OnceLock;

use regex::Regex;
use scraper::ElementRef;

use super::scope::{Scope, in_other_product, names, short_text, spaced_text, unseen};
use crate::page::Page;
use crate::page::interrupt::SelectChecked;
use crate::static_selector;

/// What a labelled number identifies, in the order it answers `sku`: the shop's own number
/// first, then the maker's part number, then a model name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// The shop's stock-keeping unit (SKU, item #, ASIN, Art.-Nr., Réf.).
    Sku,
    /// The manufacturer's part number.
    PartNumber,
    /// A model number.
    Model,
    /// A barcode number (GTIN, EAN, UPC, JAN, ISBN).
    Gtin,
}

/// Labels by kind, lower case. Longer labels must come before the labels they start with
/// ("model number" before "model"): the pattern takes the first that matches.
const LABELS: &[(&str, Kind)] = &[
    ("sku", Kind::Sku),
    ("item number", Kind::Sku),
    ("item no.", Kind::Sku),
    ("item no", Kind::Sku),
    ("item #", Kind::Sku),
    ("item#", Kind::Sku),
    ("item", Kind::Sku),
    ("asin", Kind::Sku),
    ("product code", Kind::Sku),
    ("product id", Kind::Sku),
    ("product no.", Kind::Sku),
    ("stock code", Kind::Sku),
    ("catalog number", Kind::Sku),
    ("catalog #", Kind::Sku),
    ("article number", Kind::Sku),
    ("art.-nr.", Kind::Sku),
    ("art.-nr", Kind::Sku),
    ("art.nr.", Kind::Sku),
    ("art. nr.", Kind::Sku),
    ("art. no.", Kind::Sku),
    ("artikel-nr.", Kind::Sku),
    ("artikelnummer", Kind::Sku),
    ("artikelnr.", Kind::Sku),
    ("bestellnummer", Kind::Sku),
    ("best.-nr.", Kind::Sku),
    ("référence", Kind::Sku),
    ("reference", Kind::Sku),
    ("réf.", Kind::Sku),
    ("ref.", Kind::Sku),
    ("codice articolo", Kind::Sku),
    ("codice prodotto", Kind::Sku),
    ("cod. articolo", Kind::Sku),
    ("código de producto", Kind::Sku),
    ("código", Kind::Sku),
    ("codigo", Kind::Sku),
    ("cód.", Kind::Sku),
    ("kod produktu", Kind::Sku),
    ("numer katalogowy", Kind::Sku),
    ("indeks", Kind::Sku),
    ("varenummer", Kind::Sku),
    ("varenr.", Kind::Sku),
    ("varenr", Kind::Sku),
    ("varunummer", Kind::Sku),
    ("art.nr", Kind::Sku),
    ("商品コード", Kind::Sku),
    ("商品番号", Kind::Sku),
    ("manufacturer part number", Kind::PartNumber),
    ("mfr part number", Kind::PartNumber),
    ("mfr. part #", Kind::PartNumber),
    ("mfr part #", Kind::PartNumber),
    ("part number", Kind::PartNumber),
    ("part no.", Kind::PartNumber),
    ("part no", Kind::PartNumber),
    ("part #", Kind::PartNumber),
    ("mpn", Kind::PartNumber),
    ("herstellernummer", Kind::PartNumber),
    ("hersteller-nr.", Kind::PartNumber),
    ("品番", Kind::PartNumber),
    ("型番", Kind::PartNumber),
    ("item model number", Kind::Model),
    ("model number", Kind::Model),
    ("model no.", Kind::Model),
    ("model no", Kind::Model),
    ("model #", Kind::Model),
    ("modellnummer", Kind::Model),
    ("modell", Kind::Model),
    ("modèle", Kind::Model),
    ("modelo", Kind::Model),
    ("modello", Kind::Model),
    ("model", Kind::Model),
    ("gtin", Kind::Gtin),
    ("ean-13", Kind::Gtin),
    ("ean", Kind::Gtin),
    ("upc", Kind::Gtin),
    ("isbn-13", Kind::Gtin),
    ("isbn", Kind::Gtin),
    ("janコード", Kind::Gtin),
    ("jan", Kind::Gtin),
];

/// "Label[:#] value" with the value one token; a line may hold several pairs ("Item 1734521
/// Model KJ-2291"). A label starts the line or follows a space or punctuation.
fn labelled_pattern() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        let labels: Vec<String> = LABELS.iter().map(|(l, _)| regex::escape(l)).collect();
        #[allow(clippy::expect_used, reason = "built from constant labels, covered by the tests")]
        Regex::new(&format!(
            r"(?i)(?:^|[\s,;|·(])(?P<label>{})\s*[:：#]?\s*[:：]?\s*(?P<value>[\p{{L}}\p{{N}}][\p{{L}}\p{{N}}\-_./]*)(?:$|[\s,;|·)])",
            labels.join("|")
        ))
        .expect("identifier label pattern")
    })
}

/// Every "label value" pair of a line. The search goes on from the end of each value, not of
/// its match, so the space before the next label still counts as its boundary.
fn pairs_in_line(text: &str) -> Vec<(Kind, String)> {
    let mut pairs = Vec::new();
    let mut from = 0;
    while let Some(caps) = labelled_pattern().captures_at(text, from) {
        let Some(value) = caps.name("value") else {
            break;
        };
        if let Some(kind) = kind_of(&caps["label"]) {
            pairs.push((kind, value.as_str().to_owned()));
        }
        from = value.end();
    }
    pairs
}

fn kind_of(label: &str) -> Option<Kind> {
    let label = label.to_lowercase();
    LABELS.iter().find(|(l, _)| *l == label).map(|(_, k)| *k)
}

/// Whether a value looks like an identifier of its kind, not a word or a date: a digit in it
/// ("30412-B") or capitals only ("HT-TEE-NVY-M"); a barcode is 8 to 14 digits (so "Jan 20"
/// is not a JAN code).
fn is_identifier(kind: Kind, value: &str) -> bool {
    let chars = value.chars().count();
    if kind == Kind::Gtin {
        let digits = value.chars().filter(char::is_ascii_digit).count();
        return (8..=14).contains(&digits)
            && value
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '-' | ' '));
    }
    let digit = value.chars().any(|c| c.is_ascii_digit());
    let capitals = chars >= 4
        && value
            .chars()
            .all(|c| c.is_ascii_uppercase() || matches!(c, '-' | '_' | '.' | '/'));
    (3..=40).contains(&chars) && (digit || capitals)
}

/// Longest line read for a labelled identifier or brand.
const MAX_LINE_CHARS: usize = 80;

/// Identifiers shown under a label on the main product.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Identifiers {
    /// The shop's number; else the part number; else the model number.
    pub sku: Option<String>,
    /// The manufacturer's part number, else the model number.
    pub mpn: Option<String>,
    /// A barcode number.
    pub gtin: Option<String>,
}

/// Reads the labelled identifiers nearest the product heading, outside related products.
pub(crate) fn shown_identifiers(page: &Page, scope: &Scope<'_>) -> Identifiers {
    let mut found: Vec<(ElementRef<'_>, (Kind, String))> = Vec::new();
    for el in page.document.select_checked(static_selector!("body *")) {
        let Some(text) = short_text(el, MAX_LINE_CHARS, " ") else {
            continue;
        };
        if text.is_empty() || text.chars().count() > MAX_LINE_CHARS {
            continue;
        }
        let in_line: Vec<(Kind, String)> = pairs_in_line(&text)
            .into_iter()
            .filter(|(kind, value)| is_identifier(*kind, value))
            .collect();
        let pair = if !in_line.is_empty() {
            for (kind, value) in in_line {
                if !unseen(el) && !in_other_product(el) {
                    found.push((el, (kind, value)));
                }
            }
            continue;
        } else {
            // A label element followed by its value element: <dt>SKU</dt><dd>…</dd>,
            // <strong>Art.-Nr.</strong><div>…</div>.
            let label = text.trim_end_matches([':', '：', ' ']);
            kind_of(label).and_then(|kind| {
                let value = el.next_siblings().find_map(ElementRef::wrap)?;
                let value = spaced_text(value);
                (!value.contains(' ')).then_some((kind, value))
            })
        };
        let Some((kind, value)) = pair else {
            continue;
        };
        if is_identifier(kind, &value) && !unseen(el) && !in_other_product(el) {
            found.push((el, (kind, value)));
        }
    }
    let nearest = |kinds: &[Kind]| {
        kinds.iter().find_map(|kind| {
            let of_kind: Vec<(ElementRef<'_>, String)> = found
                .iter()
                .filter(|(_, (k, _))| k == kind)
                .map(|(el, (_, v))| (*el, v.clone()))
                .collect();
            scope.nearest(&of_kind)
        })
    };
    Identifiers {
        sku: nearest(&[Kind::Sku, Kind::PartNumber, Kind::Model]),
        mpn: nearest(&[Kind::PartNumber, Kind::Model]),
        gtin: nearest(&[Kind::Gtin]),
    }
}

/// Labels of the maker's name, lower case.
const BRAND_LABELS: &[&str] = &[
    "brand",
    "manufacturer",
    "maker",
    "marke",
    "hersteller",
    "marque",
    "fabricant",
    "marca",
    "fabricante",
    "produttore",
    "producent",
    "merk",
    "fabrikant",
    "märke",
    "tillverkare",
    "メーカー",
    "ブランド",
];

/// Parts of a class or id of the element that shows the brand.
const BRAND_CLASS_PARTS: &[&str] = &[
    "brand",
    "vendor",
    "maker",
    "manufacturer",
    "marque",
    "marca",
    "marke",
    "producent",
    "merk",
];

/// Longest brand name read.
const MAX_BRAND_CHARS: usize = 40;

/// The brand the main product shows: a `Brand: X` line or cell, an element named after the
/// brand (`product-brand`, `vendor`), or a store link ("Visit the X Store").
pub(crate) fn shown_brand(page: &Page, scope: &Scope<'_>) -> Option<String> {
    let mut found: Vec<(ElementRef<'_>, String)> = Vec::new();
    for el in page.document.select_checked(static_selector!("body *")) {
        let Some(text) = short_text(el, MAX_LINE_CHARS, " ") else {
            continue;
        };
        if text.is_empty() || text.chars().count() > MAX_LINE_CHARS {
            continue;
        }
        let lower = text.to_lowercase();
        let labelled = BRAND_LABELS.iter().find_map(|label| {
            let rest = lower.strip_prefix(label)?;
            // "Brand: X", "Marke Orca"; not "Brandneu".
            if !rest.starts_with([':', '：', ' ']) {
                return None;
            }
            let rest = rest.trim_start_matches([':', '：', ' ']).trim_end();
            // The value as written: the same bytes at the end of the original text, unless
            // lower-casing changed their length.
            text.get(text.len().checked_sub(rest.len())?..)
                .filter(|v| !v.is_empty() && v.to_lowercase() == rest)
                .map(str::to_owned)
        });
        let label_only = BRAND_LABELS
            .iter()
            .any(|label| lower.trim_end_matches([':', '：', ' ']) == *label);
        let value = if label_only {
            el.next_siblings()
                .find_map(ElementRef::wrap)
                .map(spaced_text)
        } else if labelled.is_some() {
            labelled
        } else if names(el).any(|name| {
            name.split(['-', '_', ' '])
                .any(|part| BRAND_CLASS_PARTS.contains(&part))
        }) {
            Some(store_name(&text).unwrap_or(text))
        } else if names(el).any(|name| name.contains("byline")) {
            store_name(&text)
        } else {
            None
        };
        let Some(value) = value
            .filter(|v| !v.is_empty() && v.chars().count() <= MAX_BRAND_CHARS && !v.contains(':'))
        else {
            continue;
        };
        let in_control = super::scope::self_and_ancestors(el)
            .any(|a| matches!(a.value().name(), "button" | "select" | "option" | "form"));
        let shows_price =
            crate::page::money::parse_money(&value, &crate::page::locale::Locale::default())
                .is_some();
        if !in_control && !shows_price && !unseen(el) && !in_other_product(el) {
            found.push((el, value));
        }
    }
    scope.nearest_within(&found, BRAND_LEVELS)
}

/// How many blocks above the product heading a brand may sit: beside the title, in its buy
/// box, in its specification table; not in a page banner or a filter bar.
const BRAND_LEVELS: usize = 5;

/// "Visit the Solace Store" → "Solace".
fn store_name(text: &str) -> Option<String> {
    let name = text.strip_prefix("Visit the ")?.strip_suffix(" Store")?;
    Some(name.trim().to_owned())
}
