//! The article's own blocks: inside a prose container, which text blocks are the article and
//! which are furniture the named rules before missed (captions and credits, share and
//! newsletter boxes, author bios, "related" lists, comment counts).
//!
//! Each leaf block of text (a paragraph, heading, list item, table row, caption — the lowest
//! block element holding text) is described by a fixed set of [`Feature`]s and scored by a
//! logistic regression fitted on labelled pages with cross-validation by site
//! (`eval/fit_content_blocks.py` fits it and writes `src/read/content/blocks.json`, which is
//! compiled in). A block whose score is below the table's threshold is left out. The rules are
//! not hand-set here: a feature the fit found no use for has weight 0.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use ego_tree::NodeId;
use ego_tree::iter::Edge;
use scraper::ElementRef;
use scraper::node::Node;
use serde::{Deserialize, Serialize};

use super::stats::Stats;
use crate::page::chrome::is_structural_chrome;
use crate::page::dom::collapse_whitespace;

/// The fitted table, checked in beside the script that fitted it.
const TABLE_JSON: &str = include_str!("blocks.json");

/// What is measured of a block. The order is the order of [`Feature::ALL`]; the fitted
/// table names features by [`Feature::name`], so a renamed feature fails the table's test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// ln(1 + characters of text).
    LogChars,
    /// Share of the text inside links.
    LinkShare,
    /// Share of sentence punctuation (`.,;:!?`) among the characters.
    PunctuationShare,
    /// Share of digits among the characters.
    DigitShare,
    /// The text ends as a sentence does (`.`, `!`, `?`, a closing quote).
    EndsSentence,
    /// `h1`–`h6`.
    Heading,
    /// `li`, `dt`, `dd`.
    ListItem,
    /// `figcaption`, `caption`, or inside a `figure`.
    InFigure,
    /// A table row.
    TableRow,
    /// `blockquote` or `pre`, or inside one.
    QuoteOrCode,
    /// `p`.
    Paragraph,
    /// A class or id on the block or an ancestor inside the container names sharing.
    ShareWord,
    /// … names a newsletter or sign-up.
    NewsletterWord,
    /// … names related or recommended stories.
    RelatedWord,
    /// … names the author or a biography.
    AuthorWord,
    /// … names a caption, credit or picture.
    CaptionWord,
    /// … names comments.
    CommentWord,
    /// … names an advertisement or sponsor.
    AdWord,
    /// … names tags, categories or post metadata.
    MetaWord,
    /// Where the block starts, as a share of the container's text (0 = top).
    Position,
    /// Distance to the nearer end of the container, as a share of its text.
    EdgeDistance,
    /// ln(1 + element levels between the container and the block).
    LogDepth,
    /// Share of the block's siblings with its tag and classes (repeated teasers, list items).
    SiblingSimilarity,
    /// Share of link text in the block's parent.
    ParentLinkShare,
    /// ln of the block's length over the median block's length in the container.
    RelativeLength,
    /// Share of the block's words that start with a capital (names, labels, titles).
    CapitalizedShare,
    /// The block starts after the container's last long paragraph ends (the tail).
    AfterBody,
    /// The block ends before the container's first long paragraph starts (the head).
    BeforeBody,
    /// The text says what furniture says (`share`, `subscribe`, `photo`, `credit`,
    /// `advertisement`, `read more`, …; see [`FURNITURE_PHRASES`]).
    FurniturePhrase,
    /// ln(1 + characters) of the block before it (0 for the first).
    PreviousLogChars,
    /// ln(1 + characters) of the block after it (0 for the last).
    NextLogChars,
    /// How many of its two neighbours end as a sentence does (0, 0.5 or 1): a block between
    /// sentences of prose is read with them.
    NeighboursEndSentence,
}

impl Feature {
    /// Every feature, in vector order.
    pub const ALL: [Feature; 32] = [
        Feature::LogChars,
        Feature::LinkShare,
        Feature::PunctuationShare,
        Feature::DigitShare,
        Feature::EndsSentence,
        Feature::Heading,
        Feature::ListItem,
        Feature::InFigure,
        Feature::TableRow,
        Feature::QuoteOrCode,
        Feature::Paragraph,
        Feature::ShareWord,
        Feature::NewsletterWord,
        Feature::RelatedWord,
        Feature::AuthorWord,
        Feature::CaptionWord,
        Feature::CommentWord,
        Feature::AdWord,
        Feature::MetaWord,
        Feature::Position,
        Feature::EdgeDistance,
        Feature::LogDepth,
        Feature::SiblingSimilarity,
        Feature::ParentLinkShare,
        Feature::RelativeLength,
        Feature::CapitalizedShare,
        Feature::AfterBody,
        Feature::BeforeBody,
        Feature::FurniturePhrase,
        Feature::PreviousLogChars,
        Feature::NextLogChars,
        Feature::NeighboursEndSentence,
    ];

    /// The name the fitted table uses.
    pub fn name(self) -> &'static str {
        match self {
            Feature::LogChars => "log_chars",
            Feature::LinkShare => "link_share",
            Feature::PunctuationShare => "punctuation_share",
            Feature::DigitShare => "digit_share",
            Feature::EndsSentence => "ends_sentence",
            Feature::Heading => "heading",
            Feature::ListItem => "list_item",
            Feature::InFigure => "in_figure",
            Feature::TableRow => "table_row",
            Feature::QuoteOrCode => "quote_or_code",
            Feature::Paragraph => "paragraph",
            Feature::ShareWord => "share_word",
            Feature::NewsletterWord => "newsletter_word",
            Feature::RelatedWord => "related_word",
            Feature::AuthorWord => "author_word",
            Feature::CaptionWord => "caption_word",
            Feature::CommentWord => "comment_word",
            Feature::AdWord => "ad_word",
            Feature::MetaWord => "meta_word",
            Feature::Position => "position",
            Feature::EdgeDistance => "edge_distance",
            Feature::LogDepth => "log_depth",
            Feature::SiblingSimilarity => "sibling_similarity",
            Feature::ParentLinkShare => "parent_link_share",
            Feature::RelativeLength => "relative_length",
            Feature::CapitalizedShare => "capitalized_share",
            Feature::AfterBody => "after_body",
            Feature::BeforeBody => "before_body",
            Feature::FurniturePhrase => "furniture_phrase",
            Feature::PreviousLogChars => "previous_log_chars",
            Feature::NextLogChars => "next_log_chars",
            Feature::NeighboursEndSentence => "neighbours_end_sentence",
        }
    }
}

/// Class and id words, by the feature they set: a class or id part (split at `-`, `_`)
/// equal to a word, or starting with it when the word has five letters or more
/// (`sharing`, `newsletters`, `captioned`).
const CLASS_WORDS: &[(Feature, &[&str])] = &[
    (
        Feature::ShareWord,
        &["share", "social", "sharing", "sharebar"],
    ),
    (
        Feature::NewsletterWord,
        &["newsletter", "subscribe", "subscription", "signup", "optin"],
    ),
    (
        Feature::RelatedWord,
        &[
            "related",
            "recommended",
            "recommend",
            "teaser",
            "readmore",
            "more",
        ],
    ),
    (
        Feature::AuthorWord,
        &[
            "author",
            "authors",
            "bio",
            "byline",
            "profile",
            "contributor",
        ],
    ),
    (
        Feature::CaptionWord,
        &[
            "caption", "credit", "credits", "photo", "image", "img", "media",
        ],
    ),
    (
        Feature::CommentWord,
        &["comment", "comments", "disqus", "reply", "replies"],
    ),
    (
        Feature::AdWord,
        &[
            "ad",
            "ads",
            "advert",
            "advertisement",
            "sponsor",
            "sponsored",
            "promo",
        ],
    ),
    (
        Feature::MetaWord,
        &[
            "meta",
            "tag",
            "tags",
            "category",
            "categories",
            "date",
            "time",
        ],
    ),
];

/// Words and phrases furniture is worded with, lower case, matched at word starts.
const FURNITURE_PHRASES: &[&str] = &[
    "share",
    "subscribe",
    "newsletter",
    "sign up",
    "follow us",
    "photo",
    "image",
    "credit",
    "getty",
    "advertisement",
    "sponsored",
    "read more",
    "related",
    "comments",
    "affiliate",
    "click here",
];

/// How many levels above a block its furniture name or figure is looked for: a caption's or
/// share box's name sits on it or a few wrappers up, and a bound keeps a page nested
/// thousands of levels deep linear.
const MAX_ANCESTORS: usize = 12;

/// A long paragraph: the body of the article lies between the first and the last.
const BODY_PARAGRAPH_CHARS: usize = 120;

/// One leaf block of the container, measured and scored.
#[derive(Debug, Clone)]
pub(crate) struct Block {
    /// The block element.
    pub id: NodeId,
    /// Its text, whitespace collapsed.
    pub text: String,
    /// Its features, in [`Feature::ALL`] order.
    pub features: [f64; Feature::ALL.len()],
    /// The fitted probability that the block is the article's.
    pub score: f64,
}

/// The fitted logistic regression, as `eval/fit_content_blocks.py` writes it.
#[derive(Debug, Deserialize)]
struct Table {
    /// Feature names, in the order of the other arrays.
    features: Vec<String>,
    /// Standardisation: x' = (x - mean) / sd.
    mean: Vec<f64>,
    sd: Vec<f64>,
    /// Weights on standardised features.
    weights: Vec<f64>,
    bias: f64,
    /// Blocks scoring below this are left out.
    threshold: f64,
}

/// The table as the scorer uses it: one (mean, sd, weight) per [`Feature::ALL`] slot.
#[derive(Debug)]
struct Model {
    terms: [(f64, f64, f64); Feature::ALL.len()],
    bias: f64,
    threshold: f64,
}

fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        // The table is compiled in and checked by a unit test: a broken one cannot ship.
        #[allow(clippy::expect_used)]
        let table: Table = serde_json::from_str(TABLE_JSON).expect("src/read/content/blocks.json");
        let mut terms = [(0.0, 1.0, 0.0); Feature::ALL.len()];
        for (i, name) in table.features.iter().enumerate() {
            if let Some(slot) = Feature::ALL.iter().position(|f| f.name() == name) {
                terms[slot] = (table.mean[i], table.sd[i].max(1e-9), table.weights[i]);
            }
        }
        Model {
            terms,
            bias: table.bias,
            threshold: table.threshold,
        }
    })
}

impl Model {
    fn score(&self, features: &[f64; Feature::ALL.len()]) -> f64 {
        let z = self.bias
            + features
                .iter()
                .zip(&self.terms)
                .map(|(x, (mean, sd, w))| w * (x - mean) / sd)
                .sum::<f64>();
        1.0 / (1.0 + (-z).exp())
    }
}

/// The score below which a block is left out.
pub(crate) fn threshold() -> f64 {
    model().threshold
}

/// A block element, for this purpose: text directly inside it (or inside inline elements in
/// it) is one block of the article. Table cells join their row.
fn is_text_block(name: &str) -> bool {
    crate::page::dom::is_block(name)
        && !matches!(
            name,
            "td" | "th" | "tbody" | "thead" | "table" | "br" | "hr" | "ul" | "ol" | "dl"
        )
}

/// An open element during the walk.
struct Frame {
    id: NodeId,
    block: bool,
    link: bool,
    /// Text of a block (direct, or in inline elements), as written.
    text: String,
    chars: usize,
    link_chars: usize,
    /// Where its text starts, in characters of the container.
    start: usize,
    /// A block below it holds text.
    nested_text: bool,
}

/// The leaf blocks of text under `root` (outside `skip` and structural chrome), measured and
/// scored, in page order.
pub(crate) fn score_blocks(
    root: ElementRef<'_>,
    stats: &HashMap<NodeId, Stats>,
    skip: &HashSet<NodeId>,
) -> Vec<Block> {
    struct Leaf {
        id: NodeId,
        text: String,
        chars: usize,
        link_chars: usize,
        start: usize,
        depth: usize,
    }
    let mut leaves: Vec<Leaf> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut skipping: Option<NodeId> = None;
    let mut offset = 0usize;
    // Open `<a>` elements: text inside one is link text.
    let mut links_open = 0usize;
    // Where the open block elements are in `stack`: text joins the innermost.
    let mut open_blocks: Vec<usize> = Vec::new();
    let mut ticker = crate::page::interrupt::Ticker::default();
    for edge in root.traverse() {
        if ticker.stop() {
            return Vec::new();
        }
        match edge {
            Edge::Open(node) => {
                if skipping.is_some() {
                    continue;
                }
                match node.value() {
                    Node::Element(el) => {
                        let Some(element) = ElementRef::wrap(node) else {
                            continue;
                        };
                        if node.id() != root.id()
                            && (skip.contains(&node.id()) || is_structural_chrome(element))
                        {
                            skipping = Some(node.id());
                            continue;
                        }
                        if el.name() == "a" {
                            links_open += 1;
                        }
                        let block = node.id() == root.id() || is_text_block(el.name());
                        if block {
                            open_blocks.push(stack.len());
                        }
                        stack.push(Frame {
                            id: node.id(),
                            block,
                            link: el.name() == "a",
                            text: String::new(),
                            chars: 0,
                            link_chars: 0,
                            start: offset,
                            nested_text: false,
                        });
                    }
                    Node::Text(text) => {
                        let n = text.chars().filter(|c| !c.is_whitespace()).count();
                        if n == 0 {
                            continue;
                        }
                        let in_link = links_open > 0;
                        if let Some(block) = open_blocks.last().and_then(|&i| stack.get_mut(i)) {
                            if block.chars == 0 {
                                block.start = offset;
                            }
                            // Table cells and inline elements side by side are words apart.
                            block.text.push(' ');
                            block.text.push_str(text);
                            block.chars += n;
                            if in_link {
                                block.link_chars += n;
                            }
                        }
                        offset += n;
                    }
                    _ => {}
                }
            }
            Edge::Close(node) => {
                if skipping == Some(node.id()) {
                    skipping = None;
                    continue;
                }
                if skipping.is_some() || !node.value().is_element() {
                    continue;
                }
                let Some(frame) = stack.pop() else {
                    continue;
                };
                if frame.link {
                    links_open = links_open.saturating_sub(1);
                }
                if frame.block {
                    open_blocks.pop();
                }
                if !frame.block || frame.id == root.id() {
                    continue;
                }
                let has_text = frame.chars > 0 || frame.nested_text;
                // A block holding text beside other blocks of text stays whole: leaving it out
                // would take its inner blocks with it.
                if frame.chars > 0 && !frame.nested_text {
                    leaves.push(Leaf {
                        id: frame.id,
                        text: collapse_whitespace(&frame.text),
                        chars: frame.chars,
                        link_chars: frame.link_chars,
                        start: frame.start,
                        depth: stack.len(),
                    });
                }
                if has_text && let Some(parent) = open_blocks.last().and_then(|&i| stack.get_mut(i))
                {
                    parent.nested_text = true;
                }
            }
        }
    }
    let total = offset.max(1) as f64;
    let model = model();
    let mut lengths: Vec<usize> = leaves.iter().map(|l| l.chars).collect();
    lengths.sort_unstable();
    let median = lengths.get(lengths.len() / 2).copied().unwrap_or(1).max(1) as f64;
    let long = || leaves.iter().filter(|l| l.chars >= BODY_PARAGRAPH_CHARS);
    let body_start = long().map(|l| l.start).next();
    let body_end = long().map(|l| l.start + l.chars).next_back();
    let ends_sentence: Vec<bool> = leaves.iter().map(|l| ends_as_sentence(&l.text)).collect();
    let log_chars: Vec<f64> = leaves.iter().map(|l| (l.chars as f64).ln_1p()).collect();
    let mut siblings = SiblingShapes::default();
    leaves
        .into_iter()
        .enumerate()
        .filter_map(|(i, leaf)| {
            let node = root.tree().get(leaf.id)?;
            let el = ElementRef::wrap(node)?;
            let chars = leaf.chars as f64;
            let position = leaf.start as f64 / total;
            let end = (leaf.start + leaf.chars) as f64 / total;
            let mut f = [0.0; Feature::ALL.len()];
            let mut set = |feature: Feature, value: f64| {
                if let Some(slot) = Feature::ALL.iter().position(|x| *x == feature) {
                    f[slot] = value;
                }
            };
            set(Feature::LogChars, chars.ln_1p());
            set(Feature::LinkShare, leaf.link_chars as f64 / chars);
            let punctuation = leaf
                .text
                .chars()
                .filter(|c| matches!(c, '.' | ',' | ';' | ':' | '!' | '?'))
                .count();
            set(Feature::PunctuationShare, punctuation as f64 / chars);
            let digits = leaf.text.chars().filter(char::is_ascii_digit).count();
            set(Feature::DigitShare, digits as f64 / chars);
            set(Feature::EndsSentence, flag(ends_sentence[i]));
            let before = i.checked_sub(1);
            let after = Some(i + 1).filter(|&n| n < log_chars.len());
            set(
                Feature::PreviousLogChars,
                before.map_or(0.0, |n| log_chars[n]),
            );
            set(Feature::NextLogChars, after.map_or(0.0, |n| log_chars[n]));
            let neighbours = [before, after]
                .iter()
                .flatten()
                .filter(|&&n| ends_sentence[n])
                .count();
            set(Feature::NeighboursEndSentence, neighbours as f64 / 2.0);
            let name = el.value().name();
            set(
                Feature::Heading,
                flag(matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")),
            );
            set(Feature::ListItem, flag(matches!(name, "li" | "dt" | "dd")));
            set(Feature::TableRow, flag(name == "tr"));
            set(Feature::Paragraph, flag(name == "p"));
            let inside =
                |tags: &[&str]| near_ancestors(el, root).any(|a| tags.contains(&a.value().name()));
            set(
                Feature::InFigure,
                flag(inside(&["figure", "figcaption", "caption"])),
            );
            set(Feature::QuoteOrCode, flag(inside(&["blockquote", "pre"])));
            for (feature, on) in class_words(el, root) {
                set(feature, flag(on));
            }
            set(Feature::Position, position);
            set(Feature::EdgeDistance, position.min(1.0 - end).max(0.0));
            set(Feature::LogDepth, (leaf.depth as f64).ln_1p());
            set(
                Feature::SiblingSimilarity,
                sibling_similarity(el, &mut siblings),
            );
            let parent_links = el
                .parent()
                .and_then(|p| stats.get(&p.id()))
                .filter(|s| s.text > 0)
                .map_or(0.0, |s| s.link as f64 / s.text as f64);
            set(Feature::ParentLinkShare, parent_links);
            set(Feature::RelativeLength, (chars / median).ln());
            let words: Vec<&str> = leaf.text.split_whitespace().collect();
            let capitalized = words
                .iter()
                .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
                .count();
            set(
                Feature::CapitalizedShare,
                capitalized as f64 / words.len().max(1) as f64,
            );
            set(
                Feature::AfterBody,
                flag(body_end.is_some_and(|end| leaf.start >= end)),
            );
            set(
                Feature::BeforeBody,
                flag(body_start.is_some_and(|start| leaf.start + leaf.chars <= start)),
            );
            set(Feature::FurniturePhrase, flag(says_furniture(&leaf.text)));
            let score = model.score(&f);
            Some(Block {
                id: leaf.id,
                text: leaf.text,
                features: f,
                score,
            })
        })
        .collect()
}

/// Whether the text ends as a sentence does.
fn ends_as_sentence(text: &str) -> bool {
    matches!(
        text.trim_end().chars().last(),
        Some('.' | '!' | '?' | '"' | '”' | '’' | ')' | ':')
    )
}

/// Whether a furniture phrase opens a word of the text.
fn says_furniture(text: &str) -> bool {
    let lower = text.to_lowercase();
    FURNITURE_PHRASES.iter().any(|phrase| {
        lower.match_indices(phrase).any(|(at, _)| {
            lower[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric())
        })
    })
}

fn flag(on: bool) -> f64 {
    if on { 1.0 } else { 0.0 }
}

/// The element and its ancestors below `root`, at most [`MAX_ANCESTORS`] levels up.
fn near_ancestors<'a>(
    el: ElementRef<'a>,
    root: ElementRef<'a>,
) -> impl Iterator<Item = ElementRef<'a>> {
    let root = root.id();
    std::iter::once(el).chain(
        el.ancestors()
            .take(MAX_ANCESTORS)
            .take_while(move |a| a.id() != root)
            .filter_map(ElementRef::wrap),
    )
}

/// Which [`CLASS_WORDS`] features the block's or its ancestors' (below `root`) classes and
/// ids name.
fn class_words(el: ElementRef<'_>, root: ElementRef<'_>) -> Vec<(Feature, bool)> {
    let mut found: Vec<(Feature, bool)> = CLASS_WORDS.iter().map(|(f, _)| (*f, false)).collect();
    for element in near_ancestors(el, root) {
        let value = element.value();
        for name in value.id().into_iter().chain(value.classes()) {
            // A utility class with a variant (`md:flex`) styles, it does not name.
            if name.contains([':', '[']) {
                continue;
            }
            let lower = name.to_ascii_lowercase();
            for part in lower.split(['-', '_']).filter(|p| !p.is_empty()) {
                for ((_, words), (_, on)) in CLASS_WORDS.iter().zip(found.iter_mut()) {
                    if !*on
                        && words
                            .iter()
                            .any(|w| part == *w || (w.len() >= 5 && part.starts_with(w)))
                    {
                        *on = true;
                    }
                }
            }
        }
    }
    found
}

/// Per parent, how many element children it has of each tag and class attribute: counted
/// once per parent, so a hundred thousand sibling paragraphs cost one pass, not a square.
#[derive(Default)]
struct SiblingShapes<'a> {
    by_parent: HashMap<NodeId, ParentShapes<'a>>,
}

/// A parent's element children: how many, and how many of each (tag, class attribute).
type ParentShapes<'a> = (usize, HashMap<(&'a str, &'a str), usize>);

/// Share of the element's other siblings that have its tag and classes.
fn sibling_similarity<'a>(el: ElementRef<'a>, shapes: &mut SiblingShapes<'a>) -> f64 {
    let Some(parent) = el.parent() else {
        return 0.0;
    };
    let shape = |e: ElementRef<'a>| (e.value().name(), e.value().attr("class").unwrap_or(""));
    let (children, counts) = shapes.by_parent.entry(parent.id()).or_insert_with(|| {
        let mut counts = HashMap::new();
        let mut children = 0;
        for sibling in parent.children().filter_map(ElementRef::wrap) {
            children += 1;
            *counts.entry(shape(sibling)).or_insert(0) += 1;
        }
        (children, counts)
    });
    let others = children.saturating_sub(1);
    let alike = counts
        .get(&shape(el))
        .copied()
        .unwrap_or(1)
        .saturating_sub(1);
    if others == 0 {
        0.0
    } else {
        alike as f64 / others as f64
    }
}

/// A block the fitted score left out, for the answer's evidence.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DroppedBlock {
    /// The start of its text.
    pub text: String,
    /// Its fitted score (the probability that it is the article's).
    pub score: f64,
}
