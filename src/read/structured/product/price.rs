//! The main product's current price among the prices a shop page shows (list prices, related
//! products, shipping, instalments, unit prices). Amounts are read by [`crate::page::money`].

use std::collections::{HashMap, HashSet};

use ego_tree::NodeId;
use scraper::ElementRef;

use super::scope::{
    Scope, in_other_product, in_variant_picker, names, self_and_ancestors, short_text, unseen,
};
use crate::page::Page;
use crate::page::dom::{collapse_whitespace, is_block, text_of};
use crate::page::locale::Locale;
use crate::page::money::{Money, parse_money};

/// Words at the start of a price line that say it is the old or list price.
const WAS_LABELS: &[&str] = &[
    "was",
    "list price",
    "list:",
    "uvp",
    "rrp",
    "m.r.p",
    "mrp",
    "msrp",
    "de:",
    "statt",
    "regular price",
    "original price",
    "compare at",
    "prix conseillé",
    "prezzo consigliato",
    "antes",
    "before",
    "regular",
    "precio regular",
    "precio anterior",
    "preço original",
    "før",
    "tidligere",
    "ordinarie pris",
    "ord. pris",
    "normalpris",
    "veil. pris",
    "veiledende",
    "vorher",
    "ursprünglich",
    "avant",
    "prix barré",
    "prima",
    "van ",
    "przed",
    "zamiast",
];

/// Class words of an old, list or struck-through price.
const STRUCK_CLASS_WORDS: &[&str] = &[
    "was",
    "old",
    "compare",
    "compareat",
    "strike",
    "strikethrough",
    "striked",
    "crossed",
    "rrp",
    "msrp",
    "mrp",
    "uvp",
    "original",
    "before",
    "barrato",
    "anterior",
    "previous",
    "oldprice",
    "wasprice",
    "listprice",
];

/// Phrases of a line that is not the product's price: shipping, instalments, unit prices,
/// the lowest price of the last 30 days, savings, loyalty points. Lower case.
const NOT_THE_PRICE: &[&str] = &[
    // shipping
    "shipping",
    "delivery",
    "deliver",
    "postage",
    "freight",
    "versand",
    "lieferung",
    "livraison",
    "envío",
    "envio",
    "frete",
    "spedizione",
    "dostawa",
    "wysyłka",
    "frakt",
    "verzend",
    "bezorg",
    "porto",
    "送料",
    "配送",
    // instalments
    "/month",
    "/mo",
    "per month",
    "a month",
    "/mån",
    "/mnd",
    "/monat",
    "pro monat",
    "par mois",
    "/mois",
    "al mese",
    "/mes",
    "al mes",
    "x de ",
    "rate da",
    "raty",
    "instal",
    "klarna",
    "afterpay",
    "ratenzahlung",
    "cuotas",
    "parcela",
    // unit prices
    "/kg",
    "/ kg",
    "per kg",
    "je kg",
    "/100",
    "per 100",
    "/l ",
    "per litre",
    "per liter",
    "/m²",
    "grundpreis",
    "unit price",
    "prix au",
    "prezzo al",
    // the EU's lowest price of the last 30 days
    "lowest price",
    "niedrigster",
    "najniższa",
    "prix le plus bas",
    "più basso",
    "más bajo",
    // savings and points
    "save",
    "sparen",
    "sparst",
    "économisez",
    "risparmi",
    "ahorra",
    "oszczędzasz",
    "economize",
    "points",
    "ポイント",
];

/// Whole words of a line that is not the product's price (too short to match inside words).
const NOT_THE_PRICE_WORDS: &[&str] = &["emi", "rat", "mo"];

/// The main product's current price as the page shows it (see the module doc).
pub(crate) fn main_price(page: &Page, scope: &Scope<'_>, locale: &Locale) -> Option<Money> {
    let candidates = price_elements(page, locale);
    // How many candidates each ancestor holds: a line is a candidate's own until it holds two.
    let mut held: HashMap<NodeId, usize> = HashMap::new();
    for (el, _) in &candidates {
        for a in el.ancestors() {
            *held.entry(a.id()).or_default() += 1;
        }
    }
    let kept: Vec<(ElementRef<'_>, Money)> = candidates
        .into_iter()
        // "EUR 0.00" is an empty cart or free shipping, not the price of a product.
        // A variant's own price (a swatch, an option) is not the selected product's.
        .filter(|(el, money)| {
            money.amount > 0.0
                && !is_struck(*el)
                && !in_other_product(*el)
                && !in_variant_picker(*el)
        })
        .filter(|(el, _)| {
            let line = line_of(*el, &held).to_lowercase();
            !is_not_the_price(&line)
        })
        .collect();
    scope.nearest(&kept)
}

/// Longest text read as one price ("Por: R$ 2.499,00", "Your price $1,097.99").
const MAX_PRICE_TEXT: usize = 80;

/// Elements showing one amount with a currency, innermost (the `<bdi>` holding "£36.00", not
/// its paragraph), visible and outside page chrome, in document order.
fn price_elements<'a>(page: &'a Page, locale: &Locale) -> Vec<(ElementRef<'a>, Money)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for node in page.document.root_element().descendants() {
        let Some(text) = node.value().as_text() else {
            continue;
        };
        if !text.chars().any(|c| c.is_ascii_digit()) {
            continue;
        }
        // The amount and its sign may sit in sibling elements: climb until the text holds both.
        let parents = node.ancestors().filter_map(ElementRef::wrap).take(4);
        for el in parents {
            if seen.contains(&el.id()) {
                break;
            }
            let Some(shown) = short_text(el, MAX_PRICE_TEXT, "") else {
                break;
            };
            if let Some(money) = parse_money(&shown, locale) {
                seen.insert(el.id());
                if !unseen(el) {
                    out.push((el, money));
                }
                break;
            }
        }
    }
    out
}

/// Struck through or named as an old, list or compare-at price, or inside such an element.
fn is_struck(el: ElementRef<'_>) -> bool {
    self_and_ancestors(el).any(marks_struck)
}

/// Whether the element itself is struck through or named as an old, list or compare-at
/// price (`<s>`, `<del>`, `class="was-price"`).
fn marks_struck(el: ElementRef<'_>) -> bool {
    matches!(el.value().name(), "del" | "s" | "strike")
        || el.value().attr("data-a-strike") == Some("true")
        || names(el).any(|name| {
            name.split(['-', '_', ' '])
                .any(|word| STRUCK_CLASS_WORDS.contains(&word))
        })
}

/// A child struck through or named as an earlier price, holding a number.
pub fn is_struck_amount(child: ElementRef<'_>) -> bool {
    marks_struck(child) && text_of(child).chars().any(|c| c.is_ascii_digit())
}

/// Most characters of an amount read beside a struck-through one: a price line, not a text.
const CURRENT_AMOUNT_CHARS: usize = 40;

/// The text of an element that shows a current amount beside an earlier one struck through
/// (`<p><s>$10,500</s> <b>$9,750</b></p>`, "Now $15 <del>$20</del>"): its text without the
/// struck children, when that is a short line with a number and no block inside. The
/// records engine and `extract.fields` read it as the element's value.
pub fn current_amount(element: ElementRef<'_>) -> Option<String> {
    if !element
        .children()
        .filter_map(ElementRef::wrap)
        .any(is_struck_amount)
        || element
            .descendants()
            .filter_map(ElementRef::wrap)
            .skip(1)
            .any(|d| is_block(d.value().name()))
    {
        return None;
    }
    let parts: Vec<String> = element
        .children()
        .filter_map(|child| match ElementRef::wrap(child) {
            Some(el) if is_struck_amount(el) => None,
            Some(el) => Some(text_of(el)),
            None => child.value().as_text().map(|t| t.to_string()),
        })
        .collect();
    let rest = collapse_whitespace(&parts.join(" "));
    (rest.chars().any(|c| c.is_ascii_digit()) && rest.chars().count() <= CURRENT_AMOUNT_CHARS)
        .then_some(rest)
}

/// The line a price stands in: its largest ancestor up to the enclosing block that holds no
/// other price ("+ £4.99 delivery", "ou 12x de R$ 208,25 sem juros").
fn line_of(el: ElementRef<'_>, held: &HashMap<NodeId, usize>) -> String {
    let mut line = el;
    if !is_block(el.value().name()) {
        for a in el.ancestors().filter_map(ElementRef::wrap) {
            if held.get(&a.id()).copied().unwrap_or(0) > 1 {
                break;
            }
            line = a;
            if is_block(a.value().name()) {
                break;
            }
        }
    }
    short_text(line, MAX_LINE_TEXT, "").unwrap_or_default()
}

/// Longest line read around a price; a longer one is a whole block, not the price's line.
const MAX_LINE_TEXT: usize = 200;

/// Whether a price line is an old price, shipping, an instalment, a unit price or a saving.
fn is_not_the_price(line: &str) -> bool {
    let start = line.trim_start();
    WAS_LABELS.iter().any(|w| {
        start.starts_with(w)
            && !start[w.len()..]
                .chars()
                .next()
                .is_some_and(char::is_alphabetic)
    }) || NOT_THE_PRICE.iter().any(|p| line.contains(p))
        || line
            .split(|c: char| !c.is_alphanumeric())
            .any(|word| NOT_THE_PRICE_WORDS.contains(&word))
}
