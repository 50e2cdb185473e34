//! Prices: reading "1.299,00 €", "CHF 1'290.00" or "₹1,29,999" as an amount and an ISO 4217
//! currency, and finding the main product's current price among the prices a shop page
//! shows (list prices, related products, shipping, instalments, unit prices).

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use ego_tree::NodeId;
use iso_currency::Currency;
use regex::Regex;
use scraper::ElementRef;

use super::locale::Locale;
use super::scope::{
    Scope, in_other_product, in_variant_picker, names, self_and_ancestors, short_text, unseen,
};
use crate::page::Page;
use crate::page::dom::is_block;

/// An amount in a currency, as a shopper would copy it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Money {
    /// The amount, rounded to the currency's minor unit.
    pub amount: f64,
    /// ISO 4217 code, when the page says which currency.
    pub currency: Option<&'static str>,
}

/// A money amount in text: a currency sign or code before or after a number. The number
/// keeps its separators (`.`, `,`, spaces, apostrophes) for [`parse_amount`]; a trailing
/// `,-` or `.–` says "no cents".
fn money_pattern() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        const SIGN: &str = r"US\$|CA\$|C\$|AU\$|A\$|NZ\$|HK\$|S\$|MX\$|R\$|\$|€|£|¥|￥|円|元|₹|₩|₽|₺|₪|₫|฿|₴|\bRs\.?|\bkr\.?|\bzł|\bzl\b|\bKč|\bFt\b|\blei\b|\bFr\.|\bCHF\b|\b[A-Z]{3}\b";
        let number = r"\d{1,3}(?:[.,'’\x{a0}\x{202f}\x{2009} ]\d{2,3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,3})?";
        #[allow(clippy::expect_used, reason = "a constant pattern, covered by the tests")]
        Regex::new(&format!(
            r"(?P<before>{SIGN})?\s?(?P<number>{number})(?P<dash>[.,]\s?[-–—])?\s?(?P<after>{SIGN})?"
        ))
        .expect("money pattern")
    })
}

/// The first amount with a currency sign or code in `text`.
pub(crate) fn parse_money(text: &str, locale: &Locale) -> Option<Money> {
    for caps in money_pattern().captures_iter(text) {
        // "TTC 45 €": a word before the number that is no currency leaves the sign after it.
        let currency_at = |group: &str| {
            caps.name(group)
                .and_then(|s| currency_of_sign(s.as_str(), locale))
        };
        let Some(currency) = currency_at("before").or_else(|| currency_at("after")) else {
            continue;
        };
        let Some(number) = caps.name("number") else {
            continue;
        };
        // A digit right after the number: two prices run together ("15.4915.49"), not 15491.
        if text[number.end()..].starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let number = number.as_str();
        let whole_only = caps.name("dash").is_some();
        if let Some(amount) = parse_amount(number, Some(currency), whole_only) {
            return Some(Money {
                amount,
                currency: Some(currency),
            });
        }
    }
    None
}

/// The ISO 4217 code a currency sign or code stands for on a page in this locale.
pub(crate) fn currency_of_sign(sign: &str, locale: &Locale) -> Option<&'static str> {
    let sign = sign.trim().trim_end_matches('.');
    let code = match sign {
        "US$" => "USD",
        "CA$" | "C$" => "CAD",
        "AU$" | "A$" => "AUD",
        "NZ$" => "NZD",
        "HK$" => "HKD",
        "S$" => "SGD",
        "MX$" => "MXN",
        "R$" => "BRL",
        "$" => locale.dollar(),
        "€" => "EUR",
        "£" => "GBP",
        "¥" | "￥" => locale.yen(),
        "円" => "JPY",
        "元" => "CNY",
        "₹" | "Rs" => "INR",
        "₩" => "KRW",
        "₽" => "RUB",
        "₺" => "TRY",
        "₪" => "ILS",
        "₫" => "VND",
        "฿" => "THB",
        "₴" => "UAH",
        "kr" => locale.crown()?,
        "zł" | "zl" => "PLN",
        "Kč" => "CZK",
        "Ft" => "HUF",
        "lei" => "RON",
        "Fr" | "CHF" => "CHF",
        // Codes that are also capitalised English words ("TOP 10", "ALL 3") are not read from
        // text; structured data's `priceCurrency` goes through [`iso_code`] and keeps them.
        "ALL" | "TOP" | "CUP" | "MOP" | "BOB" | "PEN" | "MAD" | "SOS" | "GEL" => return None,
        other => iso_code(other)?,
    };
    Some(code)
}

/// An ISO 4217 code as the data gives it ("eur", " EUR "), if it is one.
pub(crate) fn iso_code(text: &str) -> Option<&'static str> {
    Currency::from_code(&text.trim().to_ascii_uppercase()).map(|c| c.code())
}

/// Digits after the decimal separator in this currency (2 unless ISO 4217 says otherwise).
fn minor_digits(currency: Option<&str>) -> u16 {
    currency
        .and_then(Currency::from_code)
        .and_then(Currency::exponent)
        .unwrap_or(2)
}

/// Reads a number as written in a price: `1,299.00`, `1.299,00`, `1 299,00`, `1'299.00`,
/// `1,29,999`, `19,99`, `298000`. One `,` or `.` followed by exactly three digits groups
/// thousands (prices are not written to the tenth of a cent) unless the currency has three
/// decimals; with both, the last one is the decimal separator. Rounded to the currency's
/// minor unit.
pub(crate) fn parse_amount(number: &str, currency: Option<&str>, whole_only: bool) -> Option<f64> {
    let digits: String = number
        .chars()
        .filter(|c| c.is_ascii_digit() || matches!(c, ',' | '.'))
        .collect();
    let digits = digits.trim_matches(['.', ',']);
    if digits.is_empty() {
        return None;
    }
    let minor = minor_digits(currency);
    let last_comma = digits.rfind(',');
    let last_dot = digits.rfind('.');
    let decimal_at = match (last_comma, last_dot) {
        (Some(c), Some(d)) => Some(c.max(d)),
        (Some(at), None) | (None, Some(at)) => {
            let separator = digits.as_bytes()[at];
            let repeated = digits.bytes().filter(|b| *b == separator).count() > 1;
            let after = digits.len() - at - 1;
            let groups_thousands = repeated || (after == 3 && minor != 3) || minor == 0;
            (!groups_thousands).then_some(at)
        }
        (None, None) => None,
    };
    let normalized: String = match decimal_at {
        Some(at) => {
            let (whole, fraction) = digits.split_at(at);
            let whole: String = whole.chars().filter(char::is_ascii_digit).collect();
            format!("{whole}.{}", &fraction[1..])
        }
        None => digits.chars().filter(char::is_ascii_digit).collect(),
    };
    let amount: f64 = normalized.parse().ok().filter(|a: &f64| a.is_finite())?;
    let amount = if whole_only { amount.trunc() } else { amount };
    let scale = 10f64.powi(i32::from(minor));
    Some((amount * scale).round() / scale)
}

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

/// Struck through or named as an old, list or compare-at price.
fn is_struck(el: ElementRef<'_>) -> bool {
    self_and_ancestors(el).any(|a| {
        matches!(a.value().name(), "del" | "s" | "strike")
            || a.value().attr("data-a-strike") == Some("true")
            || names(a).any(|name| {
                name.split(['-', '_', ' '])
                    .any(|word| STRUCK_CLASS_WORDS.contains(&word))
            })
    })
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
