//! Dates as pages write them (`2025-03-03T10:00Z`, `March 3, 2025`, `3 Mar 2025`,
//! `03/04/2025`, `03.04.2025`), read into ISO-8601.

use scraper::Html;

/// Whether `03/04/2025` means March 4 on this page (US English, or no language given).
pub(crate) fn month_first(doc: &Html) -> bool {
    let lang = doc
        .root_element()
        .value()
        .attr("lang")
        .unwrap_or("")
        .to_ascii_lowercase();
    lang.is_empty() || lang == "en" || lang == "en-us"
}

const MONTHS: &str = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";

/// One pattern for every date shape we read, so matches never overlap.
///
/// Word boundaries are ASCII (`(?-u:\b)`) here and in the other pattern tools: a Unicode
/// boundary keeps the regex crate off its fast DFA on non-ASCII text, several times slower.
pub(crate) fn date_pattern() -> &'static regex::Regex {
    static CELL: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        let source = format!(
            r"(?i)(?-u:\b)(?:(?P<iy>\d{{4}})-(?P<im>\d{{2}})-(?P<id>\d{{2}})(?:[T ](?P<ih>\d{{2}}):(?P<imin>\d{{2}})(?::(?P<is>\d{{2}})(?:\.\d{{1,9}})?)?(?P<iz>Z|[+-]\d{{2}}:?\d{{2}})?)?|(?P<sy>\d{{4}})/(?P<sm>\d{{1,2}})/(?P<sd>\d{{1,2}})|(?P<ad>\d{{1,2}})(?:st|nd|rd|th)?\.? (?:of )?(?P<amon>{MONTHS})\.?,? (?P<ay>\d{{4}})|(?P<bmon>{MONTHS})\.? (?P<bd>\d{{1,2}})(?:st|nd|rd|th)?,? (?P<by>\d{{4}})|(?P<n1>\d{{1,2}})(?P<ns1>[/.])(?P<n2>\d{{1,2}})(?P<ns2>[/.])(?P<ny>\d{{4}}))(?-u:\b)"
        );
        #[allow(clippy::expect_used, reason = "a pattern in our source; every test compiles it")]
        regex::Regex::new(&source).expect("date pattern is valid")
    })
}

/// A date or datetime in any shape we read, as ISO-8601; None when it is not a real date.
pub(crate) fn normalise_date(raw: &str, month_first: bool) -> Option<String> {
    let raw = raw.trim();
    let caps = date_pattern().captures(raw)?;
    let num = |name: &str| caps.name(name).and_then(|m| m.as_str().parse::<u32>().ok());
    let (year, month, day) = if let Some(y) = num("iy") {
        (y, num("im")?, num("id")?)
    } else if let Some(y) = num("sy") {
        (y, num("sm")?, num("sd")?)
    } else if let Some(y) = num("ay") {
        (y, month_number(caps.name("amon")?.as_str())?, num("ad")?)
    } else if let Some(y) = num("by") {
        (y, month_number(caps.name("bmon")?.as_str())?, num("bd")?)
    } else {
        let (a, b, y) = (num("n1")?, num("n2")?, num("ny")?);
        let sep1 = caps.name("ns1")?.as_str();
        if sep1 != caps.name("ns2")?.as_str() {
            return None;
        }
        // 03.04.2025 is always day first; with slashes the page's language decides, unless
        // one of the numbers can only be a day.
        let day_first = sep1 == "." || a > 12 || (b <= 12 && !month_first);
        if day_first { (y, b, a) } else { (y, a, b) }
    };
    if !(1800..=2200).contains(&year) {
        return None;
    }
    let date = chrono::NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, month, day)?;
    let Some(hour) = num("ih") else {
        return Some(date.format("%Y-%m-%d").to_string());
    };
    let minute = num("imin")?;
    let second = num("is").unwrap_or(0);
    chrono::NaiveTime::from_hms_opt(hour, minute, second)?;
    let zone = caps.name("iz").map_or(String::new(), |z| {
        let z = z.as_str();
        if z == "Z" || z == "z" {
            "Z".to_owned()
        } else if z.len() == 5 {
            format!("{}:{}", &z[..3], &z[3..])
        } else {
            z.to_owned()
        }
    });
    Some(format!(
        "{}T{hour:02}:{minute:02}:{second:02}{zone}",
        date.format("%Y-%m-%d")
    ))
}

fn month_number(name: &str) -> Option<u32> {
    let prefix: String = name
        .chars()
        .take(3)
        .collect::<String>()
        .to_ascii_lowercase();
    let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    months
        .iter()
        .position(|m| *m == prefix)
        .and_then(|i| u32::try_from(i + 1).ok())
}
