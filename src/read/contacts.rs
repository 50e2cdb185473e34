//! Contact details a page gives: email addresses and phone numbers.

use scraper::ElementRef;

use crate::page::dom::percent_decode;
use crate::page::interrupt;
use crate::static_regex;

/// The email addresses in `roots` (`text` is their text): `mailto:` links, Cloudflare's
/// protected addresses, addresses in the text, `name [at] example [dot] com` too; each once,
/// lower-cased, at most `max`.
pub fn emails(roots: &[ElementRef<'_>], text: &str, max: usize) -> Vec<String> {
    let mut found = Vec::new();
    for root in roots {
        for a in interrupt::select(*root, crate::static_selector!("a[href], [data-cfemail]")) {
            if let Some(hex) = a.value().attr("data-cfemail") {
                found.extend(decode_cfemail(hex));
            }
            if let Some(rest) = a.value().attr("href").and_then(strip_scheme("mailto:")) {
                let addresses = percent_decode(rest.split('?').next().unwrap_or(""));
                found.extend(addresses.split([',', ';']).map(str::to_owned));
            }
        }
    }
    // `name [at] example [dot] com` is still an address its owner wants people to read.
    let at = static_regex!(r"(?i)\s*[\[({]\s*at\s*[\])}]\s*");
    let dot = static_regex!(r"(?i)\s*[\[({]\s*dot\s*[\])}]\s*");
    let text = dot
        .replace_all(&at.replace_all(text, "@"), ".")
        .into_owned();
    let pattern = static_regex!(
        r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,24}(?-u:\b)"
    );
    found.extend(pattern.find_iter(&text).map(|m| m.as_str().to_owned()));
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for candidate in found {
        if out.len() >= max {
            break;
        }
        if let Some(email) = normalise_email(&candidate)
            && seen.insert(email.clone())
        {
            out.push(email);
        }
    }
    out
}

fn strip_scheme(scheme: &'static str) -> impl Fn(&str) -> Option<&str> {
    move |href: &str| {
        let href = href.trim();
        let head = href.get(..scheme.len())?;
        head.eq_ignore_ascii_case(scheme)
            .then(|| &href[scheme.len()..])
    }
}

/// Cloudflare's email protection: the first byte is a key XORed into the others.
fn decode_cfemail(hex: &str) -> Option<String> {
    let bytes: Vec<u8> = (0..hex.len() / 2)
        .map(|i| {
            hex.get(2 * i..2 * i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        })
        .collect::<Option<_>>()?;
    let (key, rest) = bytes.split_first()?;
    String::from_utf8(rest.iter().map(|b| b ^ key).collect()).ok()
}

/// Lower-cases and checks an address; `logo@2x.png` and other file names are not addresses.
fn normalise_email(raw: &str) -> Option<String> {
    let email = raw.trim().trim_end_matches('.').to_lowercase();
    let (local, domain) = email.split_once('@')?;
    if local.is_empty()
        || local.len() > 64
        || domain.len() > 253
        || domain.contains("..")
        || local.starts_with('.')
        || local.ends_with('.')
        || domain.contains('@')
    {
        return None;
    }
    let tld = domain.rsplit('.').next()?;
    let file_like = [
        "png", "jpg", "jpeg", "gif", "webp", "svg", "css", "js", "avif", "ico", "bmp", "tif",
    ];
    if tld.len() < 2 || !tld.chars().all(|c| c.is_ascii_alphabetic()) || file_like.contains(&tld) {
        return None;
    }
    if domain
        .split('.')
        .any(|label| label.is_empty() || label.starts_with('-') || label.ends_with('-'))
    {
        return None;
    }
    Some(email)
}

/// The phone numbers in `roots` (`text` is their text): `tel:` links, and numbers in the
/// text shaped like phone numbers or said to be one; a national number that is an
/// international one found too is left out; each once, at most `max`.
pub fn phones(roots: &[ElementRef<'_>], text: &str, max: usize) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for root in roots {
        for a in interrupt::select(*root, crate::static_selector!("a[href]")) {
            if let Some(rest) = a.value().attr("href").and_then(strip_scheme("tel:")) {
                let number = percent_decode(rest.split([';', '?']).next().unwrap_or(""));
                if let Some(n) = normalise_phone(&number, 5) {
                    found.push(n);
                }
            }
        }
    }
    let candidate = phone_candidates();
    for line in text.lines() {
        for m in candidate.find_iter(line) {
            if let Some(n) = phone_in_text(line, m.start(), m.end()) {
                found.push(n);
            }
        }
    }
    let international: Vec<String> = found
        .iter()
        .filter(|n| n.starts_with('+'))
        .cloned()
        .collect();
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for number in found {
        if out.len() >= max {
            break;
        }
        // `020 7946 0958` is `+44 20 7946 0958` written for callers at home.
        if !number.starts_with('+') && international.iter().any(|i| same_number(i, &number)) {
            continue;
        }
        if seen.insert(number.clone()) {
            out.push(number);
        }
    }
    out
}

/// Runs of digits that could be a phone number, each judged by `phone_in_text` where it
/// stands: the one shape both a page's text and a single value are searched with.
fn phone_candidates() -> &'static regex::Regex {
    static_regex!(r"(?:\+|(?-u:\b))\(?\d(?:[ \t\u{a0}\-./()]{0,3}\d)+\)?")
}

/// Whether a value is one phone number and nothing else ("020 7946 0011", "+1 206-461-3700",
/// "Tel. 0117 496 0101"), judged as a number in text is.
pub fn is_phone_text(value: &str) -> bool {
    let candidate = phone_candidates();
    let value = value.trim();
    let mut found = candidate.find_iter(value);
    match (found.next(), found.next()) {
        (Some(m), None) => {
            // Only a label may stand before it ("Tel.", "☎"), nothing after it.
            let label = value[..m.start()]
                .chars()
                .filter(|c| c.is_alphanumeric())
                .count()
                <= 9;
            label
                && value[m.end()..].trim().is_empty()
                && phone_in_text(value, m.start(), m.end()).is_some()
        }
        _ => false,
    }
}

/// Whether a national number is the international one without its country code: with the
/// trunk prefix (`020 7946 0958` is `+44 20 7946 0958`) or without (`206-461-3700` is
/// `+1 206 461 3700`, and a `tel:+2064613700` link that left the country code out).
fn same_number(international: &str, national: &str) -> bool {
    let digits = international.trim_start_matches('+');
    [Some(national), national.strip_prefix('0')]
        .into_iter()
        .flatten()
        .any(|rest| digits.len() - rest.len().min(digits.len()) <= 3 && digits.ends_with(rest))
}

/// Digits of a phone number, `+` kept for an international one (`00` becomes `+`).
fn normalise_phone(raw: &str, min_digits: usize) -> Option<String> {
    let raw = raw.trim();
    let mut digits: String = raw.chars().filter(char::is_ascii_digit).collect();
    let mut international = raw.starts_with('+');
    if !international && digits.starts_with("00") && digits.len() > 9 {
        digits.drain(..2);
        international = true;
    }
    if digits.len() < min_digits || digits.len() > 15 {
        return None;
    }
    Some(if international {
        format!("+{digits}")
    } else {
        digits
    })
}

/// Whether a number found in text is a phone number, judged by its shape and its neighbours.
fn phone_in_text(line: &str, start: usize, end: usize) -> Option<String> {
    let raw = line[start..end].trim_end_matches(['.', '-', '/', ' ', '\u{a0}', '\t']);
    let raw = if raw.ends_with('(') {
        raw.trim_end_matches('(').trim_end()
    } else {
        raw
    };
    let before = &line[..start];
    let after = &line[start + raw.len()..];
    // Glued to letters or digits (`SKU12345678`, `12345678kg`), or money, or a percentage.
    let prev = before.chars().next_back();
    if prev.is_some_and(|c| c.is_alphanumeric() || "$€£¥₹#".contains(c)) {
        return None;
    }
    let prev_word = before.trim_end();
    if prev_word.ends_with(['$', '€', '£', '¥', '₹', '#']) {
        return None;
    }
    let next = after.chars().next();
    if next.is_some_and(|c| c.is_alphanumeric() || "%€$£".contains(c)) {
        return None;
    }
    let after_trim = after.trim_start();
    if after_trim.starts_with(['€', '$', '£', '%']) {
        return None;
    }
    let date_like = static_regex!(
        r"^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}|\d{4}\s*[-–/]\s*\d{4}|\d{1,3}(?:\.\d{1,3}){3})$"
    );
    if date_like.is_match(raw) {
        return None;
    }
    // `12345.67` is an amount, not a number to call.
    if static_regex!(r"^\d+[.,]\d{1,2}$").is_match(raw) {
        return None;
    }
    let context: String = before
        .chars()
        .rev()
        .take(30)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<String>()
        .to_lowercase();
    let id_words = [
        "order", "isbn", "sku", "id", "ref", "invoice", "no.", "nr", "account", "vat", "ean",
        "gtin", "upc", "iban", "model", "serial", "zip", "postcode",
    ];
    let phone_words = [
        "tel",
        "phone",
        "call",
        "fax",
        "mobile",
        "cell",
        "whatsapp",
        "contact",
        "☎",
        "📞",
        "telefon",
        "téléphone",
        "hotline",
    ];
    let mentions = |words: &[&str]| {
        context
            .split(|c: char| !c.is_alphanumeric() && c != '.' && c != '☎' && c != '📞')
            .any(|w| {
                words
                    .iter()
                    .any(|k| w == *k || (k.len() > 3 && w.starts_with(k)))
            })
    };
    if mentions(&id_words) && !mentions(&phone_words) {
        return None;
    }
    let international = raw.starts_with('+');
    let groups: Vec<&str> = raw
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
        .collect();
    let shaped = groups.len() >= 2
        && groups.len() <= 6
        && groups.iter().skip(1).all(|g| (2..=4).contains(&g.len()))
        && groups.first().is_some_and(|g| g.len() <= 5);
    // `10.000.000` and `1 234 567` are counts written with thousands separators.
    let thousands = static_regex!(r"^\d{1,3}(?:[ .,\u{a0}]\d{3})+$").is_match(raw);
    let shaped = shaped && !thousands;
    if !(international || shaped || mentions(&phone_words)) {
        return None;
    }
    normalise_phone(raw, 7)
}

#[cfg(test)]
mod tests {
    use super::is_phone_text;

    #[test]
    fn a_value_that_is_one_phone_number_and_nothing_else() {
        for phone in [
            "020 7946 0011",
            "+1 206-461-3700",
            "Tel. 0117 496 0101",
            "(555) 123-4567",
        ] {
            assert!(is_phone_text(phone), "{phone}");
        }
        for other in [
            "12.50",
            "2026-05-01",
            "Call 020 7946 0011 or 020 7946 0012",
            "020 7946 0011 (weekdays)",
            "Order 555-123-4567",
            "Closes 19:30",
        ] {
            assert!(!is_phone_text(other), "{other}");
        }
    }
}
