//! Dates as pages write them (`2025-03-03T10:00Z`, `March 3, 2025`, `3 Mar 2025`,
//! `03/04/2025`, `03.04.2025`, `2025.12.17`), read into ISO-8601.

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

/// Month names in English (with their abbreviations), German, French, Spanish, Italian,
/// Dutch and Portuguese, longest spellings first so the pattern never stops inside a name.
const MONTH_NAMES: &[(&str, u32)] = &[
    ("janeiro", 1),
    ("janvier", 1),
    ("januari", 1),
    ("januar", 1),
    ("jänner", 1),
    ("gennaio", 1),
    ("enero", 1),
    ("fevereiro", 2),
    ("februari", 2),
    ("februar", 2),
    ("février", 2),
    ("fevrier", 2),
    ("febbraio", 2),
    ("febrero", 2),
    ("março", 3),
    ("marco", 3),
    ("märz", 3),
    ("maart", 3),
    ("marzo", 3),
    ("mars", 3),
    ("aprile", 4),
    ("avril", 4),
    ("abril", 4),
    ("maggio", 5),
    ("mayo", 5),
    ("maio", 5),
    ("mai", 5),
    ("mei", 5),
    ("giugno", 6),
    ("junio", 6),
    ("junho", 6),
    ("juin", 6),
    ("juillet", 7),
    ("luglio", 7),
    ("julio", 7),
    ("julho", 7),
    ("augustus", 8),
    ("agosto", 8),
    ("août", 8),
    ("aout", 8),
    ("septiembre", 9),
    ("setiembre", 9),
    ("septembre", 9),
    ("settembre", 9),
    ("setembro", 9),
    ("oktober", 10),
    ("octobre", 10),
    ("ottobre", 10),
    ("octubre", 10),
    ("outubro", 10),
    ("noviembre", 11),
    ("novembre", 11),
    ("novembro", 11),
    ("dezember", 12),
    ("décembre", 12),
    ("decembre", 12),
    ("dicembre", 12),
    ("diciembre", 12),
    ("dezembro", 12),
];

const MONTHS: &str = r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?";

/// [`MONTHS`] and [`MONTH_NAMES`] as one alternation.
fn months_pattern() -> String {
    let mut names: Vec<&str> = MONTH_NAMES.iter().map(|(name, _)| *name).collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.chars().count()));
    format!("{}|{MONTHS}", names.join("|"))
}

/// One pattern for every date shape we read, so matches never overlap.
///
/// Word boundaries are ASCII (`(?-u:\b)`) here and in the other pattern tools: a Unicode
/// boundary keeps the regex crate off its fast DFA on non-ASCII text, several times slower.
pub(crate) fn date_pattern() -> &'static regex::Regex {
    static CELL: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        let months = months_pattern();
        let source = format!(
            r"(?i)(?-u:\b)(?:(?P<iy>\d{{4}})-(?P<im>\d{{2}})-(?P<id>\d{{2}})(?:[T ](?P<ih>\d{{2}}):(?P<imin>\d{{2}})(?::(?P<is>\d{{2}})(?:\.\d{{1,9}})?)?(?P<iz>Z|[+-]\d{{2}}:?\d{{2}})?)?|(?P<sy>\d{{4}})/(?P<sm>\d{{1,2}})/(?P<sd>\d{{1,2}})|(?P<dy>\d{{4}})\.(?P<dm>\d{{2}})\.(?P<dd>\d{{2}})|(?P<cy>\d{{4}}) (?P<cmon>{months})\.? (?P<cd>\d{{1,2}})|(?P<ad>\d{{1,2}})(?:st|nd|rd|th|er|º)?\.? (?:of |de )?(?P<amon>{months})\.?,? (?:de )?(?P<ay>\d{{4}})|(?P<bmon>{months})\.? (?P<bd>\d{{1,2}})(?:st|nd|rd|th)?,? (?P<by>\d{{4}})|(?P<n1>\d{{1,2}})(?P<ns1>[/.-])(?P<n2>\d{{1,2}})(?P<ns2>[/.-])(?P<ny>\d{{4}}))(?-u:\b)"
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
    } else if let Some(y) = num("dy") {
        (y, num("dm")?, num("dd")?)
    } else if let Some(y) = num("cy") {
        (y, month_number(caps.name("cmon")?.as_str())?, num("cd")?)
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
        // 03.04.2025 is always day first; with slashes or dashes the page's language decides,
        // unless
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

/// The other way to read an all-numeric date whose two leading numbers could each be the
/// month (`09.10.2024`: 9 October, or September 10 on a US site), as ISO `YYYY-MM-DD`; None
/// when the date can be read only one way.
pub(crate) fn other_reading(raw: &str, month_first: bool) -> Option<String> {
    let caps = date_pattern().captures(raw.trim())?;
    let num = |name: &str| caps.name(name).and_then(|m| m.as_str().parse::<u32>().ok());
    let (a, b, year) = (num("n1")?, num("n2")?, num("ny")?);
    if a == b || a > 12 || b > 12 {
        return None;
    }
    let read = normalise_date(raw, month_first)?;
    let swapped = chrono::NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, b, a)?
        .format("%Y-%m-%d")
        .to_string();
    let other = if read.starts_with(&swapped) {
        chrono::NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, a, b)?
            .format("%Y-%m-%d")
            .to_string()
    } else {
        swapped
    };
    Some(other)
}

/// The number of a month named in full or by its first three letters, in the languages
/// [`MONTH_NAMES`] holds ("May", "sept", "März" → 5, 9, 3).
pub(crate) fn month_number(name: &str) -> Option<u32> {
    let lower = name.to_lowercase();
    if let Some((_, number)) = MONTH_NAMES.iter().find(|(n, _)| *n == lower) {
        return Some(*number);
    }
    let prefix: String = lower.chars().take(3).collect();
    let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    months
        .iter()
        .position(|m| *m == prefix)
        .and_then(|i| u32::try_from(i + 1).ok())
}

/// The number of a month named in full, in English or a language [`MONTH_NAMES`] holds
/// ("April", "abril", "März"); a word that only begins like one ("market") is none.
pub(crate) fn full_month_number(name: &str) -> Option<u32> {
    const ENGLISH: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let lower = name.to_lowercase();
    if let Some(i) = ENGLISH.iter().position(|m| *m == lower) {
        return u32::try_from(i + 1).ok();
    }
    MONTH_NAMES
        .iter()
        .find(|(n, _)| *n == lower)
        .map(|(_, number)| *number)
}

/// The moment a text names, in seconds since the Unix epoch: a date in any shape we read
/// (midnight UTC when it has no time), or a relative time ("3 hours ago", "yesterday",
/// "just now") counted back from `now`. None for anything else, numbers included.
pub(crate) fn timestamp(text: &str, now: i64) -> Option<i64> {
    if let Some(ago) = seconds_ago(text) {
        return Some(now - ago);
    }
    let iso = normalise_date(text, true)?;
    if let Ok(moment) = chrono::DateTime::parse_from_rfc3339(&iso) {
        return Some(moment.timestamp());
    }
    let (date, time) = iso.split_once('T').unwrap_or((&iso, "00:00:00"));
    let naive = chrono::NaiveDateTime::parse_from_str(
        &format!("{date}T{}", &time[..time.len().min(8)]),
        "%Y-%m-%dT%H:%M:%S",
    )
    .ok()?;
    Some(naive.and_utc().timestamp())
}

/// Opening hours that never end, as pages print them and people ask them ("Open 24 hours",
/// "24/7", "rund um die Uhr").
pub(crate) const ROUND_THE_CLOCK: &[&str] = &[
    "open 24 hours",
    "24 hours",
    "open 24/7",
    "24/7",
    "24 hours a day",
    "round the clock",
    "around the clock",
    "rund um die uhr",
    "24h/24",
    "ouvert 24h/24",
    "24 horas",
    "abierto 24 horas",
];

/// Whether a value says a place is open all day and night ([`ROUND_THE_CLOCK`], also as a
/// sentence: "Open 24 hours.").
pub(crate) fn round_the_clock(text: &str) -> bool {
    let text = text.trim().trim_end_matches('.').to_lowercase();
    ROUND_THE_CLOCK.contains(&text.as_str())
}

/// Words a place's status line prints just before the time it closes ("Closes 19:30", "Open
/// until 21:00", "Schließt um 18 Uhr", "Ferme à 19 h", "Cierra a las 20:00"), longest first.
const CLOSES_AT: &[&str] = &[
    "closes at",
    "closing at",
    "open until",
    "open till",
    "closes",
    "closing",
    "schließt um",
    "geöffnet bis",
    "schließt",
    "ouvert jusqu'à",
    "ferme à",
    "ferme",
    "abierto hasta las",
    "cierra a las",
    "cierra",
];

/// The time a status line says a place closes, as printed but in lower case: "Closes 19:30"
/// → "19:30", "Open until 9 pm" → "9 pm", "Schließt um 18 Uhr" → "18 uhr"; none when no
/// closing word is followed by a time of day ([`clock_minutes`]).
pub(crate) fn closing_time(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    CLOSES_AT.iter().find_map(|cue| {
        let at = lower.match_indices(cue).find_map(|(at, _)| {
            let before = lower[..at].chars().next_back();
            before
                .is_none_or(|c| !c.is_alphanumeric())
                .then_some(at + cue.len())
        })?;
        let rest: Vec<&str> = lower[at..].split_whitespace().take(2).collect();
        // "19:30", or an hour and its mark written apart ("9 pm", "18 Uhr").
        [
            rest.join(" "),
            rest.first().copied().unwrap_or_default().to_owned(),
        ]
        .into_iter()
        .map(|time| time.trim_end_matches(['.', ',', ';']).to_owned())
        .find(|time| !time.is_empty() && clock_minutes(time).is_some())
    })
}

/// A time of day written alone, in minutes after midnight: "06:10" → 370, "6:45 pm" → 1125,
/// "10am" → 600, "12 pm" → 720, "18h" → 1080, "18.30 Uhr" → 1110; "00:55+1" (the next day, as
/// timetables print an arrival after midnight) → 1495; "24:00" (the end of a day) → 1440. A
/// bare number ("10") is no time: a colon, a meridiem or an hour mark says it is one. A range
/// of times is when it starts, its length after it aside ("06:30–07:15 · 45 min" → 390, as a
/// class timetable prints it).
pub(crate) fn clock_minutes(text: &str) -> Option<f64> {
    static CELL: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let pattern = CELL.get_or_init(|| {
        #[allow(clippy::expect_used, reason = "a pattern in our source; every test compiles it")]
        regex::Regex::new(
            r"(?i)^\s*(?P<h>2[0-4]|[01]?\d)(?:(?P<sep>[:.h])(?P<m>[0-5]\d))?\s*(?:(?P<mer>[ap])\.?m\.?|(?P<mark>h|uhr))?(?:\s*(?:–|—|-|to)\s*(?:[01]?\d|2[0-3])(?:[:.h][0-5]\d)?\s*(?:[ap]\.?m\.?)?(?:\s*[·•|,]\s*\d+\s*(?:min|mins|minutes|hr|hrs|hours|h)\.?)?)?\s*(?:\+(?P<days>\d))?\s*$",
        )
        .expect("time of day pattern is valid")
    });
    let caps = pattern.captures(text)?;
    // A dot between hour and minutes is as often a decimal ("4.50"): a time only with a
    // meridiem or an hour mark ("6.30 pm", "18.30 Uhr").
    let marked = caps.name("mer").is_some() || caps.name("mark").is_some();
    let colon_or_h = caps.name("sep").is_some_and(|sep| sep.as_str() != ".");
    if !(marked || colon_or_h) {
        return None;
    }
    let mut hour: f64 = caps["h"].parse().ok()?;
    let minute: f64 = caps
        .name("m")
        .map_or(Some(0.0), |m| m.as_str().parse().ok())?;
    // "24:00" ends a day; no other time has hour 24.
    if hour == 24.0 && (minute != 0.0 || caps.name("mer").is_some()) {
        return None;
    }
    if let Some(meridiem) = caps.name("mer") {
        if hour == 0.0 || hour > 12.0 {
            return None;
        }
        let pm = meridiem.as_str().eq_ignore_ascii_case("p");
        hour = match (pm, hour == 12.0) {
            (true, false) => hour + 12.0,
            (false, true) => 0.0,
            _ => hour,
        };
    }
    let days: f64 = caps
        .name("days")
        .map_or(Some(0.0), |d| d.as_str().parse().ok())?;
    Some(days * 1440.0 + hour * 60.0 + minute)
}

/// How long ago a relative time says, in seconds: "3 hours ago", "an hour ago", "2d ago",
/// "yesterday", "today", "just now".
fn seconds_ago(text: &str) -> Option<i64> {
    static CELL: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let pattern = CELL.get_or_init(|| {
        #[allow(clippy::expect_used, reason = "a pattern in our source; every test compiles it")]
        regex::Regex::new(
            r"(?i)^\s*(?:(?P<n>\d{1,4}|an?|one)\s*(?P<unit>seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|wks?|w|months?|mos?|years?|yrs?|y)\s+ago|(?P<word>yesterday|today|just now|now))(?-u:\b)",
        )
        .expect("relative time pattern is valid")
    });
    let caps = pattern.captures(text)?;
    if let Some(word) = caps.name("word") {
        return Some(match word.as_str().to_ascii_lowercase().as_str() {
            "yesterday" => 86_400,
            _ => 0,
        });
    }
    let n: i64 = match caps.name("n")?.as_str().to_ascii_lowercase().as_str() {
        "a" | "an" | "one" => 1,
        digits => digits.parse().ok()?,
    };
    let unit = caps.name("unit")?.as_str().to_ascii_lowercase();
    let seconds = match unit.as_str() {
        u if u.starts_with("mo") => 30 * 86_400,
        u if u.starts_with('s') => 1,
        u if u.starts_with('m') => 60,
        u if u.starts_with('h') => 3_600,
        u if u.starts_with('d') => 86_400,
        u if u.starts_with('w') => 7 * 86_400,
        _ => 365 * 86_400,
    };
    Some(n * seconds)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_status_line_gives_the_time_a_place_closes() {
        for (line, closes) in [
            ("Closes 19:30", Some("19:30")),
            ("Open until 9 pm", Some("9 pm")),
            ("Open until 21:00 today", Some("21:00")),
            ("Schließt um 18 Uhr", Some("18 uhr")),
            ("Cierra a las 20:00", Some("20:00")),
            ("Closed · opens 09:00 tomorrow", None),
            ("Closes soon", None),
            ("Open 24 hours", None),
        ] {
            assert_eq!(closing_time(line).as_deref(), closes, "{line}");
        }
    }

    use super::*;

    #[test]
    fn dates_in_the_shapes_pages_print_them() {
        let cases = [
            ("2023 Jan 7", true, Some("2023-01-07")),
            ("03-09-2026", true, Some("2026-03-09")),
            ("03-09-2026", false, Some("2026-09-03")),
            ("7. Januar 2023", false, Some("2023-01-07")),
            ("12 novembre 2025", false, Some("2025-11-12")),
            ("7 de enero de 2023", false, Some("2023-01-07")),
            ("1er mars 2024", false, Some("2024-03-01")),
            ("March 3rd, 2025", true, Some("2025-03-03")),
            ("2025.12.17", true, Some("2025-12-17")),
            ("version 2024.1.2", true, None),
            ("PT7M", true, None),
            ("2026", true, None),
            ("10+", true, None),
            ("14+", true, None),
        ];
        for (raw, month_first, want) in cases {
            assert_eq!(normalise_date(raw, month_first).as_deref(), want, "{raw}");
        }
    }

    #[test]
    fn a_time_of_day_is_read_as_minutes_after_midnight() {
        for (text, minutes) in [
            ("06:10", 370.0),
            ("6:45 pm", 1125.0),
            ("6:45 p.m.", 1125.0),
            ("10am", 600.0),
            ("12 pm", 720.0),
            ("12am", 0.0),
            ("18h", 1080.0),
            ("18h30", 1110.0),
            ("18.30 Uhr", 1110.0),
            ("00:55+1", 1495.0),
            ("24:00", 1440.0),
            // A range of times starts at its first; a length after it is aside.
            ("06:30–07:15 · 45 min", 390.0),
            ("9am - 10:30am", 540.0),
            ("18:00 to 19:00", 1080.0),
        ] {
            assert_eq!(clock_minutes(text), Some(minutes), "{text}");
        }
        for other in [
            "10",
            "2h 35m",
            "25:10",
            "24:30",
            "24 pm",
            "2026",
            "13 pm",
            "12:5",
            "£12.50",
            "4.5",
            "4.50",
            "12.50",
            "06:30 · Studio A",
        ] {
            assert_eq!(clock_minutes(other), None, "{other}");
        }
    }

    #[test]
    fn an_ambiguous_numeric_date_has_another_reading() {
        assert_eq!(
            other_reading("09.10.2024", true).as_deref(),
            Some("2024-09-10")
        );
        assert_eq!(
            other_reading("03/10/2023", true).as_deref(),
            Some("2023-10-03")
        );
        assert_eq!(
            other_reading("03/10/2023", false).as_deref(),
            Some("2023-03-10")
        );
        assert_eq!(other_reading("13/10/2023", true), None);
        assert_eq!(other_reading("05/05/2023", true), None);
        assert_eq!(other_reading("October 3, 2023", true), None);
    }

    #[test]
    fn moments_absolute_and_relative() {
        let now = 1_800_000_000;
        assert_eq!(timestamp("3 hours ago", now), Some(now - 3 * 3_600));
        assert_eq!(timestamp("an hour ago", now), Some(now - 3_600));
        assert_eq!(timestamp("2d ago", now), Some(now - 2 * 86_400));
        assert_eq!(timestamp("5 months ago", now), Some(now - 150 * 86_400));
        assert_eq!(timestamp("Yesterday", now), Some(now - 86_400));
        assert_eq!(
            timestamp("2026-12-03T19:00:00+01:00", now),
            Some(1_796_320_800)
        );
        assert_eq!(timestamp("December 3, 2026", now), Some(1_796_256_000));
        assert_eq!(timestamp("2026-12-03", now), timestamp("3 Dec 2026", now));
        for not_a_moment in ["30 points", "$19.99", "3 hours", "ago", "2026", ""] {
            assert_eq!(timestamp(not_a_moment, now), None, "{not_a_moment}");
        }
    }
}
