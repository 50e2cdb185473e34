//! Main-content extraction: the article text of a page, with its metadata and Markdown.
//!
//! Works on the already-parsed `scraper` document (no second parse): text statistics per
//! element pick the content container (see `select`), boilerplate inside it is skipped
//! while rendering (see `render`), metadata comes from JSON-LD, `<meta>` and the page.

mod blocks;
mod furniture;
mod render;
mod select;
mod stats;

use std::collections::HashSet;

use ego_tree::NodeId;
use serde::Serialize;

use crate::page::Page;
use crate::page::dom::cut_chars;

pub(crate) use crate::page::chrome::is_hidden;

/// Longest `text` or `markdown`, in characters.
pub const MAX_CHARS: usize = 200_000;

/// The main content of a page.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct MainContent {
    /// Article title.
    pub title: Option<String>,
    /// Author line.
    pub byline: Option<String>,
    /// Publication time (ISO-8601 when known).
    pub published_at: Option<String>,
    /// Language.
    pub lang: Option<String>,
    /// A short summary.
    pub excerpt: Option<String>,
    /// Site name.
    pub site_name: Option<String>,
    /// Plain text of the main content.
    pub text: String,
    /// The main content as Markdown.
    pub markdown: String,
    /// Why this content: the container that won, its score, the runner-up, and the blocks
    /// the fitted block score left out.
    pub evidence: Evidence,
}

/// How the main content was chosen.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Evidence {
    /// The container that won, as a short selector (`article.post`).
    pub container: String,
    /// Its score: characters of text, link text discounted.
    pub score: usize,
    /// The strongest rival container passed over on the way down (the second-best sibling
    /// of an element the choice descended into), when there was one.
    pub runner_up: Option<Candidate>,
    /// Blocks of a prose container scored by the fitted block model (0 when the container
    /// is not prose, where every block is kept).
    pub blocks_scored: usize,
    /// The blocks the fitted score left out, lowest score first (at most
    /// [`MAX_DROPPED_SHOWN`]).
    pub blocks_dropped: Vec<DroppedBlock>,
    /// How many blocks it left out in all.
    pub blocks_dropped_total: usize,
}

/// A container that competed for the main content.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Candidate {
    /// A short selector for it.
    pub container: String,
    /// Its score, as [`Evidence::score`].
    pub score: usize,
}

pub use blocks::{DroppedBlock, Feature};

/// Dropped blocks shown in the evidence.
pub const MAX_DROPPED_SHOWN: usize = 5;
/// Characters of a dropped block's text shown in the evidence.
const DROPPED_TEXT_CHARS: usize = 80;

/// One leaf block of a prose container as the fitted block score sees it, for fitting that
/// score (`examples/eval_content.rs --blocks`).
#[derive(Debug, Clone, Serialize)]
pub struct BlockSample {
    /// The block's text.
    pub text: String,
    /// Its features, in [`Feature::ALL`] order.
    pub features: Vec<f64>,
    /// The score the compiled-in table gives it.
    pub score: f64,
}

/// Every leaf block of the page's content container that the fitted block score judges,
/// with its features, in page order (empty when the container is not prose).
pub fn block_samples(page: &Page) -> Vec<BlockSample> {
    let meta = crate::read::metadata::read(page);
    select::choose(&page.document, meta.is_article)
        .blocks
        .into_iter()
        .map(|b| BlockSample {
            text: b.text,
            features: b.features.to_vec(),
            score: b.score,
        })
        .collect()
}

/// Extracts the main content of a page: the container holding most of its prose, without
/// menus, headers, footers, share bars and other boilerplate, as text (blocks on their own
/// lines) and Markdown, plus the page's metadata. The headline, byline and date lines and
/// "Related stories" lists are left out of the body (they have fields of their own); the
/// Markdown opens with the headline as a `#` heading. Text is capped at [`MAX_CHARS`].
pub fn main_content(page: &Page) -> MainContent {
    main_content_excluding(page, &HashSet::new())
}

/// [`main_content`] with the elements in `excluded` (and what they hold) left out of the body,
/// as a caller's "not these" (Firecrawl's `excludeTags`).
pub fn main_content_excluding(page: &Page, excluded: &HashSet<NodeId>) -> MainContent {
    let meta = crate::read::metadata::read(page);
    let (text, markdown, evidence) = body_of(page, meta.is_article, excluded);
    let excerpt = meta.description.clone().or_else(|| first_paragraph(&text));
    // The body leaves the headline out; the Markdown opens with it as its one `#` heading.
    let markdown = match meta.title_text() {
        Some(title) if !markdown.starts_with("# ") => format!("# {title}\n\n{markdown}"),
        _ => markdown,
    };
    MainContent {
        byline: meta.byline(),
        title: meta.title.map(|t| t.value),
        published_at: meta.published_at.map(|d| d.value),
        lang: meta.lang,
        excerpt,
        site_name: meta.site_name,
        text: cut_chars(text, MAX_CHARS),
        markdown: cut_chars(markdown, MAX_CHARS),
        evidence,
    }
}

fn body_of(page: &Page, article: bool, excluded: &HashSet<NodeId>) -> (String, String, Evidence) {
    let choice = select::choose(&page.document, article);
    let mut skip = choice.skip.clone();
    skip.extend(excluded.iter().copied());
    let text = render::render(page, choice.root, &skip, render::Mode::Text);
    let markdown = render::render(page, choice.root, &skip, render::Mode::Markdown);
    (text, markdown, evidence_of(&choice))
}

fn evidence_of(choice: &select::Choice<'_>) -> Evidence {
    let threshold = blocks::threshold();
    let mut dropped: Vec<&blocks::Block> = choice
        .blocks
        .iter()
        .filter(|b| b.score < threshold)
        .collect();
    dropped.sort_by(|a, b| a.score.total_cmp(&b.score));
    Evidence {
        container: crate::page::dom::simple_selector(choice.root),
        score: choice.score,
        runner_up: choice.runner_up.map(|(el, score)| Candidate {
            container: crate::page::dom::simple_selector(el),
            score,
        }),
        blocks_scored: choice.blocks.len(),
        blocks_dropped_total: dropped.len(),
        blocks_dropped: dropped
            .into_iter()
            .take(MAX_DROPPED_SHOWN)
            .map(|b| DroppedBlock {
                text: crate::page::dom::shorten(&b.text, DROPPED_TEXT_CHARS),
                score: (b.score * 1000.0).round() / 1000.0,
            })
            .collect(),
    }
}

/// Converts an element (and its descendants) to Markdown, links and images made absolute
/// against the page. Scripts, styles, navigation and hidden elements are left out.
pub fn markdown_of(page: &Page, element: scraper::ElementRef<'_>) -> String {
    markdown_excluding(page, element, &HashSet::new())
}

/// [`markdown_of`] with the elements in `excluded` (and what they hold) left out.
pub fn markdown_excluding(
    page: &Page,
    element: scraper::ElementRef<'_>,
    excluded: &HashSet<NodeId>,
) -> String {
    cut_chars(
        render::render(page, element, excluded, render::Mode::Markdown),
        MAX_CHARS,
    )
}

fn first_paragraph(text: &str) -> Option<String> {
    let line = text
        .lines()
        .find(|l| l.split_whitespace().count() >= 8)?
        .trim();
    Some(if line.chars().count() > 300 {
        let mut s: String = line.chars().take(300).collect();
        s.push('…');
        s
    } else {
        line.to_owned()
    })
}

#[cfg(test)]
mod tests;
