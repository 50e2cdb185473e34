//! Author names as a careful person copies them from a byline: every author, without "By",
//! job titles, e-mail addresses or the publication's name, and never a site or a link text.

use crate::page::dom::{collapse_whitespace, squashed};

/// A name is at most this many words once cleaned.
const MAX_NAME_WORDS: usize = 6;
/// A name is at most this long.
const MAX_NAME_CHARS: usize = 80;

/// Words that open a byline and are not part of the name.
const PREFIXES: &[&str] = &[
    "written by",
    "posted by",
    "published by",
    "words by",
    "story by",
    "article by",
    "author:",
    "authors:",
    "by:",
    "by",
    "von",
    "par",
    "por",
];

/// Job titles a byline prints after the name ("Keith Barry Senior Autos Reporter").
const ROLES: &[&str] = &[
    "reporter",
    "editor",
    "writer",
    "correspondent",
    "contributor",
    "columnist",
    "producer",
    "journalist",
    "coordinator",
    "manager",
    "director",
    "strategist",
    "specialist",
    "analyst",
    "consultant",
    "intern",
    "officer",
    "founder",
    "co-founder",
    "ceo",
    "cto",
    "cmo",
    "president",
    "marketer",
    "expert",
];

/// Words that qualify a job title ("Senior", "Tech", "Content Marketing").
const ROLE_QUALIFIERS: &[&str] = &[
    "senior",
    "junior",
    "staff",
    "contributing",
    "associate",
    "managing",
    "deputy",
    "chief",
    "executive",
    "lead",
    "principal",
    "head",
    "tech",
    "technology",
    "content",
    "marketing",
    "news",
    "sports",
    "business",
    "autos",
    "health",
    "science",
    "food",
    "travel",
    "digital",
    "social",
    "media",
    "political",
    "features",
    "legal",
    "medical",
    "editorial",
    "web",
    "seo",
    "product",
    "data",
    "investigative",
    "national",
    "foreign",
    "assistant",
    "general",
    "freelance",
    "special",
    "guest",
    "community",
    "communications",
    "growth",
    "brand",
];

/// Whole answers that are page furniture or account roles, not somebody's name.
const NOT_AUTHORS: &[&str] = &[
    "post",
    "posts",
    "author",
    "authors",
    "unknown",
    "user",
    "member",
    "premium member",
    "view more posts",
    "view all posts",
    "read more",
    "more",
    "about the author",
];

/// The authors a raw byline or metadata value names, cleaned; `publishers` are names of the
/// site or its publisher, cut when a byline appends them ("Ann Lee, The Daily Planet").
pub(crate) fn authors_in(raw: &str, publishers: &[String]) -> Vec<String> {
    let text = collapse_whitespace(raw);
    let text = strip_prefix(&text);
    let mut out: Vec<String> = Vec::new();
    for part in split_authors(text) {
        let Some(name) = clean_name(&part, publishers) else {
            continue;
        };
        if !out.iter().any(|n| n.eq_ignore_ascii_case(&name)) {
            out.push(name);
        }
    }
    out
}

/// Whether `name` is the site's or its publisher's name (or its domain's).
pub(crate) fn is_publisher(name: &str, publishers: &[String]) -> bool {
    let key = squashed(name);
    !key.is_empty()
        && publishers.iter().any(|p| {
            let p = squashed(p);
            !p.is_empty() && (p == key || (key.len() >= 4 && p.starts_with(&key)))
        })
}

fn strip_prefix(text: &str) -> &str {
    let mut text = text.trim();
    loop {
        let lower = text.to_lowercase();
        let Some(prefix) = PREFIXES.iter().find(|p| {
            lower.starts_with(**p)
                && (p.ends_with(':') || lower[p.len()..].starts_with([' ', ':', '\u{a0}']))
        }) else {
            return text;
        };
        text = text[prefix.len()..].trim_start_matches([' ', ':', '\u{a0}']);
    }
}

/// "Ann Lee and Bo Chen", "Ann Lee, Bo Chen & Cy Diaz", "Ann Lee; Bo Chen": one part each.
/// Only names are split: "Center for Drug Evaluation and Research" stays whole, and a comma
/// followed by something that is not a name ("Tracy Parker, Dietitian") stays with the name
/// before it. "Roy, Aniruddha" (family name first) is one name.
fn split_authors(text: &str) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    for chunk in text.split([';', '|', '\n']) {
        let joined: Vec<&str> = chunk
            .split(" and ")
            .flat_map(|p| p.split(" & "))
            .map(str::trim)
            .collect();
        let pieces = if joined.len() > 1
            && joined
                .iter()
                .all(|p| looks_like_person(p.split(',').next().unwrap_or(p), 1))
        {
            joined
        } else {
            vec![chunk.trim()]
        };
        for piece in pieces {
            let commas: Vec<&str> = piece.split(',').map(str::trim).collect();
            match commas.as_slice() {
                [family, given]
                    if !family.contains(' ')
                        && !given.contains(' ')
                        && looks_like_person(given, 1)
                        && looks_like_person(family, 1) =>
                {
                    parts.push(format!("{given} {family}"));
                }
                _ if commas.len() > 1 && commas.iter().all(|c| looks_like_person(c, 2)) => {
                    parts.extend(commas.iter().map(|c| (*c).to_owned()));
                }
                _ => parts.push(piece.to_owned()),
            }
        }
    }
    parts.retain(|p| !p.is_empty());
    parts
}

/// `min_words` to four capitalised words, no digits: how a person's name looks in a list.
pub fn looks_like_person(text: &str, min_words: usize) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    (min_words..=4).contains(&words.len())
        && words.first() != Some(&"The")
        && !text.chars().any(|c| c.is_ascii_digit())
        && words.iter().all(|w| {
            w.chars().next().is_some_and(char::is_uppercase)
                || matches!(
                    *w,
                    "van" | "von" | "de" | "der" | "da" | "la" | "le" | "di" | "del"
                )
        })
}

/// One author's name, cleaned, or None when what is left is not a name.
fn clean_name(part: &str, publishers: &[String]) -> Option<String> {
    let mut name = strip_prefix(part).to_owned();
    // E-mail addresses and URLs are contact details, not names.
    name = name
        .split_whitespace()
        .filter(|w| !w.contains('@') && !w.starts_with("http") && !w.starts_with("www."))
        .collect::<Vec<_>>()
        .join(" ");
    name = name
        .trim_matches(|c: char| {
            c.is_whitespace() || matches!(c, ',' | '.' | '-' | '|' | '(' | ')' | ':' | '·' | '•')
        })
        .to_owned();
    // "Ann Lee, The Daily Planet": the publication after a comma (a credential stays).
    if let Some((head, tail)) = name.split_once(',') {
        let tail = tail.trim();
        if tail.starts_with("The ") || is_publisher(tail, publishers) {
            name = head.trim().to_owned();
        }
    }
    if !name.contains(',') {
        name = cut_role(&name);
    }
    let words = name.split_whitespace().count();
    let lower = name.to_lowercase();
    if name.is_empty()
        || words > MAX_NAME_WORDS
        || name.chars().count() > MAX_NAME_CHARS
        || NOT_AUTHORS.contains(&lower.as_str())
        || !name.chars().any(char::is_alphabetic)
        || is_number_like(&name)
    {
        return None;
    }
    Some(name)
}

/// Mostly digits with hardly a letter ("262588213843476", "A1234567"): an id, not a name.
/// A forum handle keeps its letters ("Ejp55230").
fn is_number_like(name: &str) -> bool {
    let digits = name.chars().filter(char::is_ascii_digit).count();
    let letters = name.chars().filter(|c| c.is_alphabetic()).count();
    digits * 2 > name.chars().count() && letters < 3
}

/// Folders personal sites keep their posts in (`/blog/…`, `/notes/…`).
const POST_FOLDERS: &[&str] = &[
    "blog", "blogs", "notes", "note", "posts", "post", "articles", "article", "writing", "essays",
    "journal",
];

/// The owner of a personal site, who writes what it publishes: a site named "Ann Lee's
/// blog", or, for a post (`/blog/…`, `/notes/…`), a site named after a person ("Ann Lee", in
/// its name, its title or its home link) whose name is its address (`annlee.com`,
/// `lee.dev`). A shop or a firm named like a person ("Harbour Books") has pages other than
/// posts.
pub(crate) fn site_owner<'a>(
    names: impl IntoIterator<Item = &'a str>,
    host: Option<&str>,
    path: &str,
) -> Option<String> {
    let is_post = path
        .split('/')
        .find(|s| !s.is_empty())
        .is_some_and(|folder| POST_FOLDERS.contains(&folder.to_ascii_lowercase().as_str()));
    let label = host
        .filter(|_| is_post)
        .map(|h| h.trim_start_matches("www."))
        .and_then(|h| h.split('.').next())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    names.into_iter().find_map(|raw| {
        let name = collapse_whitespace(raw);
        let lower = name.to_lowercase();
        for suffix in [
            "'s blog",
            "’s blog",
            "'s weblog",
            "’s weblog",
            "'s website",
            "’s website",
        ] {
            if let Some(owner) = lower
                .strip_suffix(suffix)
                .and_then(|o| name.get(..o.len()))
                .map(str::trim)
            {
                return looks_like_person(owner, 2).then(|| owner.to_owned());
            }
        }
        let named_after = !label.is_empty()
            && (squashed(&name) == label
                || (label.len() >= 4
                    && name
                        .split_whitespace()
                        .any(|w| w.eq_ignore_ascii_case(&label))));
        (named_after && looks_like_person(&name, 2) && name.split_whitespace().count() <= 3)
            .then_some(name)
    })
}

/// Cuts a job title printed after a name without punctuation: the name keeps at least two
/// words, and the cut starts at the title's qualifiers ("Senior Autos Reporter").
fn cut_role(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    let bare = |w: &str| {
        w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-')
            .to_lowercase()
    };
    let Some(role_at) = (2..words.len()).find(|&i| ROLES.contains(&bare(words[i]).as_str())) else {
        return name.to_owned();
    };
    let mut cut = role_at;
    while cut > 2 && ROLE_QUALIFIERS.contains(&bare(words[cut - 1]).as_str()) {
        cut -= 1;
    }
    words[..cut].join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(raw: &str) -> Vec<String> {
        authors_in(raw, &["Five Books".to_owned(), "example.com".to_owned()])
    }

    #[test]
    fn prefixes_roles_and_emails_are_removed() {
        assert_eq!(
            clean("By Keith Barry Senior Autos Reporter"),
            ["Keith Barry"]
        );
        assert_eq!(clean("Written by: Ann Lee"), ["Ann Lee"]);
        assert_eq!(
            clean("Harry Rabinowitz Tech Reporter"),
            ["Harry Rabinowitz"]
        );
        assert_eq!(clean("ann@example.com Ann Lee"), ["Ann Lee"]);
        assert_eq!(
            clean("Manoj Jain and Jagpreet Chhatwal, The Commercial Appeal"),
            ["Manoj Jain", "Jagpreet Chhatwal"]
        );
    }

    #[test]
    fn every_author_is_kept_once() {
        assert_eq!(
            clean("Ann Lee, Bo Chen & Cy Diaz"),
            ["Ann Lee", "Bo Chen", "Cy Diaz"]
        );
        assert_eq!(
            clean("Hardtail Canada, Hardtail Canada"),
            ["Hardtail Canada"]
        );
        // A credential after a comma is not a second author.
        assert_eq!(
            clean("Tracy Parker, Dietitian"),
            ["Tracy Parker, Dietitian"]
        );
    }

    #[test]
    fn sites_link_texts_and_numbers_are_not_authors() {
        assert!(is_publisher("Five Books", &["Five Books".to_owned()]));
        assert!(clean("View more posts").is_empty());
        assert!(clean("262588213843476").is_empty());
        assert!(clean("ops@our-hometown.com").is_empty());
        assert!(is_publisher("Example", &["example.com".to_owned()]));
        assert_eq!(
            clean("Center for Drug Evaluation and Research"),
            ["Center for Drug Evaluation and Research"]
        );
        assert_eq!(clean("Roy, Aniruddha"), ["Aniruddha Roy"]);
        // A forum handle keeps its digits; an id is not a name.
        assert_eq!(clean("Ejp55230"), ["Ejp55230"]);
        assert!(clean("A1234567").is_empty());
        assert_eq!(clean("Maria & Katerina"), ["Maria", "Katerina"]);
    }
}
