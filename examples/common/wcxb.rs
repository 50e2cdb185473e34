//! The WCXB dev split (`../shared/corpora/wcxb-dev/`): pages with their labelled ground truth,
//! for the evaluation examples (`#[path]`-included by those that read it).
// Each example that includes it uses part of it.
#![allow(dead_code)]

use std::io::Read;
use std::path::Path;

/// One page of the split.
pub struct Page {
    /// The page id (`0001`).
    pub id: String,
    /// The page type (`article`, `product`, …).
    pub kind: String,
    /// The site the page comes from (`metadata.json`'s `domain`).
    pub domain: String,
    /// The page's URL (a placeholder when the truth names none).
    pub url: String,
    /// The page, decoded.
    pub html: String,
    /// `ground_truth`: title, author, publish_date, main_content, …
    pub truth: serde_json::Value,
}

impl Page {
    /// A text field of the ground truth ("" when absent).
    pub fn truth_str(&self, key: &str) -> &str {
        self.truth[key].as_str().unwrap_or("")
    }

    /// Tuning happens on even page ids; odd ids are held out to catch overfitting. The odd
    /// ids split in two for the metadata reader, whose even half was tuned to its labels' end:
    /// `odd1` (ids 1 mod 4) became tuning pages in session 10, `odd3` (3 mod 4) stay unseen.
    pub fn in_split(&self, split: Option<&str>) -> bool {
        let residue = self.id.parse::<u64>().map_or(0, |n| n % 4);
        match split {
            None | Some("all") => true,
            Some("even") => residue % 2 == 0,
            Some("odd") => residue % 2 == 1,
            Some("odd1") => residue == 1,
            Some("odd3") => residue == 3,
            Some(other) => panic!("--split takes even, odd, odd1, odd3 or all, not {other}"),
        }
    }
}

/// Folds of the split by site, for fitting and checking readers (issue #32): one site's
/// pages are always in one fold, so a fold's figure says how a reader does on sites it was
/// not fitted or tuned on.
pub const FOLDS: u64 = 5;
/// The folds readers are fitted and tuned on (cross-validated among themselves); chosen
/// before any figure was looked at.
pub const TUNING_FOLDS: &[u64] = &[0, 1, 2];
/// The folds held out: scored, never looked at page by page.
pub const HELD_OUT_FOLDS: &[u64] = &[3, 4];

impl Page {
    /// This page's fold: [`site_fold`] of its domain.
    pub fn fold(&self) -> u64 {
        site_fold(&self.domain)
    }

    /// Whether the page is in the folds `folds` names: a fold number, a comma-separated list
    /// (`0,1,2`), `tuning`, `held-out`, or `all` (None too).
    pub fn in_folds(&self, folds: Option<&str>) -> bool {
        let fold = self.fold();
        match folds {
            None | Some("all") => true,
            Some("tuning") => TUNING_FOLDS.contains(&fold),
            Some("held-out") => HELD_OUT_FOLDS.contains(&fold),
            Some(list) => list.split(',').any(|k| {
                k.trim().parse::<u64>().unwrap_or_else(|_| {
                    panic!(
                        "--folds takes fold numbers (0,1,2), tuning, held-out or all, not {list}"
                    )
                }) == fold
            }),
        }
    }
}

/// The site of a host name: its last two labels, three under a country's second-level
/// domain (`bbc.co.uk`), so `blog.example.com` and `www.example.com` are one site.
pub fn site(domain: &str) -> String {
    let lower = domain.trim().trim_end_matches('.').to_ascii_lowercase();
    let labels: Vec<&str> = lower.split('.').collect();
    let country_second_level = labels.len() >= 3
        && labels[labels.len() - 1].len() == 2
        && ["co", "com", "org", "net", "ac", "gov", "edu", "ne", "or"]
            .contains(&labels[labels.len() - 2]);
    let keep = if country_second_level { 3 } else { 2 };
    labels[labels.len().saturating_sub(keep)..].join(".")
}

/// The fold of a domain: FNV-1a (64 bits) of its [`site`], modulo [`FOLDS`]. Deterministic
/// and written down, so `eval/fit_content_blocks.py` computes the same folds.
pub fn site_fold(domain: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in site(domain).bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash % FOLDS
}

/// Every page of the split in `dir`, by id.
pub fn load(dir: &Path) -> Vec<Page> {
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("metadata.json")).unwrap()).unwrap();
    let mut out = Vec::new();
    for (id, info) in meta.as_object().unwrap() {
        let Ok(gz) = std::fs::read(dir.join(format!("html/{id}.html.gz"))) else {
            continue;
        };
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_end(&mut bytes)
            .unwrap();
        let mut truth: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("ground-truth/{id}.json"))).unwrap(),
        )
        .unwrap();
        out.push(Page {
            id: id.clone(),
            kind: info["page_type"].as_str().unwrap_or("other").to_owned(),
            domain: info["domain"].as_str().unwrap_or("").to_owned(),
            url: truth["url"]
                .as_str()
                .filter(|u| url::Url::parse(u).is_ok())
                .unwrap_or("http://example.com/")
                .to_owned(),
            html: decode(&bytes),
            truth: truth["ground_truth"].take(),
        });
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out
}

/// Bytes as text: UTF-8, else the charset the page declares, else Windows-1252.
pub fn decode(bytes: &[u8]) -> String {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return s.to_owned();
    }
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]).to_lowercase();
    let label = head
        .split("charset=")
        .nth(1)
        .map(|rest| {
            rest.trim_start_matches(['"', '\''])
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect::<String>()
        })
        .unwrap_or_default();
    let encoding =
        encoding_rs::Encoding::for_label(label.as_bytes()).unwrap_or(encoding_rs::WINDOWS_1252);
    encoding.decode(bytes).0.into_owned()
}

/// Word overlap of an answer with the truth: lower-cased `\w+` tokens as bags of words (the
/// corpus README's common score).
#[derive(Debug, Clone, Copy)]
pub struct Overlap {
    /// Share of the answer's words that are in the truth.
    pub precision: f64,
    /// Share of the truth's words that are in the answer.
    pub recall: f64,
    /// Their harmonic mean (1 when both are empty, 0 when one is).
    pub f1: f64,
}

/// The bag-of-words overlap of `found` with `truth`.
pub fn overlap(found: &str, truth: &str) -> Overlap {
    use std::collections::HashMap;
    static WORD: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let word = WORD.get_or_init(|| regex::Regex::new(r"\w+").unwrap());
    let bag = |text: &str| {
        let lower = text.to_lowercase();
        let mut counts: HashMap<String, u32> = HashMap::new();
        for m in word.find_iter(&lower) {
            *counts.entry(m.as_str().to_owned()).or_default() += 1;
        }
        counts
    };
    let (found, truth) = (bag(found), bag(truth));
    let (n_found, n_truth) = (found.values().sum::<u32>(), truth.values().sum::<u32>());
    if n_found == 0 || n_truth == 0 {
        let same = f64::from(u8::from(n_found == n_truth));
        return Overlap {
            precision: same,
            recall: same,
            f1: same,
        };
    }
    let common: u32 = found
        .iter()
        .map(|(t, n)| (*n).min(truth.get(t).copied().unwrap_or(0)))
        .sum();
    let precision = f64::from(common) / f64::from(n_found);
    let recall = f64::from(common) / f64::from(n_truth);
    let f1 = if common == 0 {
        0.0
    } else {
        2.0 * precision * recall / (precision + recall)
    };
    Overlap {
        precision,
        recall,
        f1,
    }
}
