//! Money in text, read once for every reader and tool: "1.299,00 €", "CHF 1'290.00",
//! "₹1,29,999", "Price $ 4.99" as an amount and an ISO 4217 currency (which currency a bare
//! `$`, `kr` or `¥` means follows the page's [`Locale`]).

use std::sync::OnceLock;

use iso_currency::Currency;
use regex::Regex;

use super::locale::Locale;

/// An amount in a currency, as a shopper would copy it.
#[derive(Debug, Clone, PartialEq)]
pub struct Money {
    /// The amount, rounded to the currency's minor unit.
    pub amount: f64,
    /// ISO 4217 code, when the page says which currency.
    pub currency: Option<&'static str>,
}

/// A money amount in text: a currency sign or code before or after a number, on the same
/// line (a name ending in a number, "Road Racer 3", above a line starting with a price is not
/// "3 $"). The number keeps its separators (`.`, `,`, spaces, apostrophes) for
/// [`parse_amount`]; a trailing `,-` or `.–` says "no cents".
fn money_pattern() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        const SIGN: &str = r"US\$|CA\$|C\$|AU\$|A\$|NZ\$|HK\$|S\$|MX\$|R\$|\$|€|£|¥|￥|円|元|₹|₩|₽|₺|₪|₫|฿|₴|\bRs\.?|\bkr\.?|\bzł|\bzl\b|\bKč|\bFt\b|\blei\b|\bFr\.|\bCHF\b|\b[A-Z]{3}\b";
        let number = r"\d{1,3}(?:[.,'’\x{a0}\x{202f}\x{2009} ]\d{2,3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,3})?";
        #[allow(clippy::expect_used, reason = "a constant pattern, covered by the tests")]
        Regex::new(&format!(
            r"(?P<before>{SIGN})?[^\S\n]?(?P<number>{number})(?P<dash>[.,]\s?[-–—])?[^\S\n]?(?P<after>{SIGN})?"
        ))
        .expect("money pattern")
    })
}

/// The first amount with a currency sign or code in `text`.
pub fn parse_money(text: &str, locale: &Locale) -> Option<Money> {
    money_in(text, locale).next().map(|found| found.money)
}

/// An amount found in text, with the words that wrote it.
#[derive(Debug, Clone, PartialEq)]
pub struct MoneyText<'t> {
    /// What it says.
    pub money: Money,
    /// The sign or code and the number, as written (`$1,249.00`, `1 234,50 kr`).
    pub text: &'t str,
}

/// Every amount with a currency sign or code in `text`, in order.
pub fn money_in<'t>(text: &'t str, locale: &Locale) -> impl Iterator<Item = MoneyText<'t>> {
    let mut at = 0;
    std::iter::from_fn(move || {
        while let Some(caps) = money_pattern().captures_at(text, at) {
            let whole = caps.get(0)?;
            // Resume after the number: in "$1,249.00 $1,399.00" the second `$` is the next
            // price's sign, not the first one's trailing code.
            let number = caps.name("number")?;
            at = caps
                .name("dash")
                .unwrap_or(number)
                .end()
                .max(whole.start() + 1);
            if let Some(found) = read_match(text, &caps, locale) {
                if found.1 {
                    at = at.max(whole.end());
                }
                return Some(found.0);
            }
        }
        None
    })
}

/// The amount one match of [`money_pattern`] writes, and whether its sign came after it.
fn read_match<'t>(
    text: &'t str,
    caps: &regex::Captures<'t>,
    locale: &Locale,
) -> Option<(MoneyText<'t>, bool)> {
    // "TTC 45 €": a word before the number that is no currency leaves the sign after it.
    let currency_at = |group: &str| {
        let sign = caps.name(group)?;
        currency_of_sign(sign.as_str(), locale).map(|code| (code, sign))
    };
    let number = caps.name("number")?;
    let signed_before = currency_at("before");
    let (currency, sign) = signed_before.or_else(|| currency_at("after"))?;
    // A digit right after the number: two prices run together ("15.4915.49"), not 15491.
    if text[number.end()..].starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    // A number glued to what comes before it is part of something else (`A42024 EUR`).
    if signed_before.is_none()
        && text[..number.start()]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '.' || c == ',')
    {
        return None;
    }
    let whole_only = caps.name("dash").is_some();
    let amount = parse_amount(number.as_str(), Some(currency), whole_only)?;
    let (start, end) = if signed_before.is_some() {
        (sign.start(), caps.name("dash").unwrap_or(number).end())
    } else {
        (number.start(), sign.end())
    };
    let found = MoneyText {
        money: Money {
            amount,
            currency: Some(currency),
        },
        text: text[start..end].trim(),
    };
    Some((found, signed_before.is_none()))
}

/// The amount a short text stands for when it is a price with at most a label (`$19.99`,
/// `Price $ 4.99`, `1.299,00 €`, `from ¥1,299`): what sorting and filtering compare. A longer
/// text that mentions a price somewhere ("iPhone 15, now $799") is not read as that price.
pub fn amount_of_price_text(text: &str) -> Option<f64> {
    // Which crown a `kr` is depends on the page's language; its amount does not (every crown
    // has two decimals), so without a page any of them reads it.
    let first_two = |locale: &Locale| {
        let mut found = money_in(text, locale);
        found.next().map(|first| (first, found.next()))
    };
    let (found, next) =
        first_two(&Locale::default()).or_else(|| first_two(&Locale::parse("sv")))?;
    let start = text.find(found.text)?;
    let after = &text[start + found.text.len()..];
    // A range is read as its first amount ("$95,000 – $115,000 a year", "€20 to €30"): its
    // second amount is no label.
    let after = next
        .and_then(|next| {
            let dash = after.trim_start();
            let rest = ["–", "—", "-", "to "]
                .iter()
                .find_map(|sep| dash.strip_prefix(sep))?;
            rest.trim_start().strip_prefix(next.text)
        })
        .unwrap_or(after);
    let label_words = text[..start].split_whitespace().count() + after.split_whitespace().count();
    (label_words <= MAX_PRICE_LABEL_WORDS).then_some(found.money.amount)
}

/// Whether a short text is a price (see [`amount_of_price_text`]): how list columns and page
/// outlines tell a price from other numbers.
pub fn is_price_text(text: &str) -> bool {
    amount_of_price_text(text).is_some()
}

/// Words a price column prints for nothing to pay ("Free" beside "$49"), in the languages the
/// planner reads.
const FREE_WORDS: &[&str] = &[
    "free",
    "gratis",
    "kostenlos",
    "gratuit",
    "gratuite",
    "gratuito",
];

/// Whether a short text says an item costs nothing ("Free", "FREE", "Gratis"): a value of a
/// price column, though no amount.
pub fn is_free_text(text: &str) -> bool {
    let text = text.trim().trim_end_matches('!').to_lowercase();
    let mut words = text.split_whitespace();
    // "Free for customers", "Free to hotel guests": who pays nothing said after it, in a few
    // words without a number.
    FREE_WORDS.contains(&text.as_str())
        || words
            .next()
            .is_some_and(|first| FREE_WORDS.contains(&first))
            && matches!(
                words.next(),
                Some("for" | "to" | "with" | "für" | "pour" | "para")
            )
            && words.count() <= 3
            && !text.chars().any(|c| c.is_ascii_digit())
}

/// Words besides the amount a price text may have ("Sale price:", "from", "was", "each").
/// Two covers every label in the shop fixtures; a name with a price in it has more.
const MAX_PRICE_LABEL_WORDS: usize = 2;

/// The ISO 4217 code a currency sign or code stands for on a page in this locale.
pub fn currency_of_sign(sign: &str, locale: &Locale) -> Option<&'static str> {
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
pub fn iso_code(text: &str) -> Option<&'static str> {
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
pub fn parse_amount(number: &str, currency: Option<&str>, whole_only: bool) -> Option<f64> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str, lang: &str) -> Vec<(f64, Option<&'static str>, String)> {
        money_in(text, &Locale::parse(lang))
            .map(|m| (m.money.amount, m.money.currency, m.text.to_owned()))
            .collect()
    }

    #[test]
    fn free_is_nothing_to_pay_whoever_it_is_free_for() {
        assert!(is_free_text("Free"));
        assert!(is_free_text("FREE!"));
        assert!(is_free_text("Free for customers"));
        assert!(is_free_text("Kostenlos für Hotelgäste"));
        assert!(!is_free_text("Free shipping"));
        assert!(!is_free_text("Free for the first 2 hours"));
        assert!(!is_free_text("£0.35/kWh"));
    }

    #[test]
    fn every_amount_in_a_text_with_its_own_sign() {
        assert_eq!(
            found("$1,249.00 $1,399.00", "en"),
            vec![
                (1249.0, Some("USD"), "$1,249.00".to_owned()),
                (1399.0, Some("USD"), "$1,399.00".to_owned())
            ]
        );
        assert_eq!(
            found("Preis: 1.299,00 € statt 1.499,00 €", "de"),
            vec![
                (1299.0, Some("EUR"), "1.299,00 €".to_owned()),
                (1499.0, Some("EUR"), "1.499,00 €".to_owned())
            ]
        );
        assert_eq!(
            found("¥1,299", "ja"),
            vec![(1299.0, Some("JPY"), "¥1,299".to_owned())]
        );
        assert_eq!(
            found("TTC 45 €", "fr"),
            vec![(45.0, Some("EUR"), "45 €".to_owned())]
        );
        assert!(
            found("Art. A42024 EUR", "de").is_empty(),
            "glued to a letter"
        );
        assert!(
            found("15.4915.49 $", "en").is_empty(),
            "two prices run together"
        );
        // A name ending in a number above a line that starts with a price.
        assert_eq!(
            found("Road Racer 3\n$89.95", "en"),
            vec![(89.95, Some("USD"), "$89.95".to_owned())]
        );
    }

    #[test]
    fn a_price_text_with_a_short_label_has_an_amount_and_a_sentence_does_not() {
        assert_eq!(amount_of_price_text("Price $ 4.99"), Some(4.99));
        assert_eq!(amount_of_price_text("$1,227.00"), Some(1227.0));
        assert_eq!(amount_of_price_text("1.299,00 €"), Some(1299.0));
        assert_eq!(amount_of_price_text("from ¥1,299"), Some(1299.0));
        assert_eq!(amount_of_price_text("1 234,50 kr"), Some(1234.5));
        assert_eq!(amount_of_price_text("Bike 2 with bell, now $3"), None);
        assert_eq!(amount_of_price_text("30 points"), None);
    }

    #[test]
    fn a_range_of_amounts_reads_as_its_first() {
        assert_eq!(
            amount_of_price_text("$95,000 – $115,000 a year"),
            Some(95000.0)
        );
        assert_eq!(amount_of_price_text("€20 to €30"), Some(20.0));
        assert_eq!(amount_of_price_text("£40-£60 per day"), Some(40.0));
        // Two amounts that are no range are a sentence, not a price.
        assert_eq!(amount_of_price_text("$20 off orders over $100"), None);
    }
}
