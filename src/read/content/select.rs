//! Choosing the element that holds the main content.
//!
//! The idea: content is where the text that is not in links concentrates. Starting from the
//! page's `<main>` (when it holds a fair share of that text) or `<body>`, descend into the
//! child that holds most of it, as long as that child keeps nearly all of it. Pages whose
//! content is split across siblings (listings, forums, product pages) stop high in the
//! tree and keep all the siblings; articles inside a layout descend to the article.

use std::collections::{HashMap, HashSet};

use ego_tree::NodeId;
use scraper::{ElementRef, Html};

use super::blocks::{self, Block};
use super::stats::{self, Stats};
use crate::page::chrome;
use crate::page::interrupt::SelectChecked;
use crate::static_selector;

/// Where descent stops: the child must keep this share of its parent's prose.
const DESCEND_SHARE: f64 = 0.85;
/// The same in the prose of a page that declares itself an article: the article's text is
/// one block, and what lies beside it (author box, sign-up, teasers) is furniture.
const ARTICLE_DESCEND_SHARE: f64 = 0.8;
/// A `<main>`/`<article>` is trusted when it holds this share of the page's prose.
const SEMANTIC_SHARE: f64 = 0.5;
/// A chrome-named container is dropped only when it holds less than this share.
const CHROME_MAX_SHARE: f64 = 0.5;
/// A root is prose (and link blocks in it are pruned) below this share of link text.
const PROSE_MAX_LINKS: f64 = 0.3;
/// A block inside prose is navigation above this share of link text…
const LINK_BLOCK_DENSITY: f64 = 0.6;
/// …when it is also this small a part of the root.
const LINK_BLOCK_MAX_SHARE: f64 = 0.15;
/// Text a comment section's own controls may add around it ("Add a comment").
const COMMENT_UI_CHARS: usize = 100;
/// How many levels above a comment section its post is looked for; further up is the
/// page's layout, whose sidebars say nothing about the comments.
const COMMENT_POST_DEPTH: usize = 3;
/// A comment section is left out when the page has this much prose outside it (the post
/// or article the comments are about).
const POST_MIN_CHARS: usize = 400;

/// The content root and what the renderer must leave out.
#[derive(Debug)]
pub(crate) struct Choice<'a> {
    /// The element holding the main content.
    pub root: ElementRef<'a>,
    /// Its score: its text with link text discounted ([`Stats::good`]).
    pub score: usize,
    /// The strongest rival passed over on the way down (the second-best sibling of an element
    /// descended into), with its score.
    pub runner_up: Option<(ElementRef<'a>, usize)>,
    /// Elements inside it to skip (chrome-named blocks, link lists, low-scored blocks).
    pub skip: HashSet<NodeId>,
    /// The leaf blocks of a prose container, scored by the fitted block model (empty when
    /// the container is not prose).
    pub blocks: Vec<Block>,
}

/// Picks the main-content element of a document; `article` when the page declares itself an
/// article (see `metadata::Metadata::is_article`).
pub(crate) fn choose(document: &Html, article: bool) -> Choice<'_> {
    let body = document
        .select_checked(static_selector!("body"))
        .next()
        .unwrap_or_else(|| document.root_element());

    // Pass 1: structural chrome only; tells how much prose each element holds.
    let raw = stats::compute(body, &HashSet::new());
    let total = raw.get(&body.id()).map_or(0, Stats::good);
    let mut skip = HashSet::new();
    // Inside an interrupted tool call, loops stop early: the call's result is thrown away.
    let mut ticker = crate::page::interrupt::Ticker::default();
    for el in body.descendants().filter_map(ElementRef::wrap) {
        if ticker.stop() {
            break;
        }
        if chrome::has_chrome_name(el) {
            let good = raw.get(&el.id()).map_or(0, Stats::good);
            // A wrapper like `page-with-sidebar` holds the whole page: keep it.
            if (good as f64) < CHROME_MAX_SHARE * total as f64 {
                skip.insert(el.id());
            }
        }
    }
    // Pass 2: with the chrome-named blocks gone (and then comment sections, when there are
    // any to leave out: they are judged by the prose beside them, chrome not counted).
    let mut stats = stats::compute(body, &skip);
    if skip_comment_sections(body, &stats, &mut skip) {
        stats = stats::compute(body, &skip);
    }
    let good = |el: ElementRef<'_>| stats.get(&el.id()).map_or(0, Stats::good);
    let total = good(body);

    let mut root = body;
    let mut runner_up: Option<(ElementRef<'_>, usize)> = None;
    let semantic = document
        .select_checked(static_selector!("main, [role=main], article"))
        .filter(|el| !skip.contains(&el.id()))
        .max_by_key(|el| good(*el));
    if let Some(candidate) = semantic
        && total > 0
        && good(candidate) as f64 >= SEMANTIC_SHARE * total as f64
    {
        root = candidate;
    }

    loop {
        let here = good(root);
        // Product and listing pages spread their content over siblings even when the page
        // calls itself an article: only prose descends further.
        let share = match stats.get(&root.id()) {
            Some(s) if article && (s.link as f64) < PROSE_MAX_LINKS * s.text as f64 => {
                ARTICLE_DESCEND_SHARE
            }
            _ => DESCEND_SHARE,
        };
        let mut children: Vec<ElementRef<'_>> = root
            .children()
            .filter_map(ElementRef::wrap)
            .filter(|c| stats.contains_key(&c.id()))
            .collect();
        // The best child last: the last of equals, the one `max_by_key` picks.
        children.sort_by_key(|c| good(*c));
        let best = children.pop();
        match best {
            Some(child) if here > 0 && good(child) as f64 >= share * here as f64 => {
                if let Some(second) = children.last() {
                    keep_best(&mut runner_up, *second, good(*second));
                }
                root = child;
            }
            // Its children are parts of the winner, not rivals of it.
            _ => break,
        }
    }
    prune_link_blocks(root, &stats, &mut skip);
    super::furniture::skip_furniture(
        root,
        crate::read::metadata::headline(document),
        &stats,
        &mut skip,
    );
    // Inside prose, the fitted block score leaves out what the named rules above missed.
    let blocks = if super::furniture::is_prose(root, &stats) {
        let blocks = blocks::score_blocks(root, &stats, &skip);
        let threshold = blocks::threshold();
        skip.extend(blocks.iter().filter(|b| b.score < threshold).map(|b| b.id));
        blocks
    } else {
        Vec::new()
    };
    Choice {
        root,
        score: good(root),
        runner_up,
        skip,
        blocks,
    }
}

/// Keeps the stronger of the runner-up so far and `el`.
fn keep_best<'a>(
    runner_up: &mut Option<(ElementRef<'a>, usize)>,
    el: ElementRef<'a>,
    score: usize,
) {
    if score > 0 && runner_up.is_none_or(|(_, best)| score > best) {
        *runner_up = Some((el, score));
    }
}

/// Readers' comments under an article or a forum post are not the page's content, however
/// long they are, when the post they are about is right beside them: the nearest ancestor
/// (a few levels up at most) holding more than the comments and their controls holds this
/// much prose besides. A forum thread laid out as one "comments" block keeps its posts.
/// Tells whether any section was left out.
fn skip_comment_sections(
    body: ElementRef<'_>,
    stats: &HashMap<NodeId, Stats>,
    skip: &mut HashSet<NodeId>,
) -> bool {
    let good = |el: ElementRef<'_>| stats.get(&el.id()).map_or(0, Stats::good);
    let sections: Vec<NodeId> = body
        .descendants()
        .filter_map(ElementRef::wrap)
        .filter(|el| stats::names_comment_section(*el))
        .filter(|el| {
            let own = good(*el);
            el.ancestors()
                .filter_map(ElementRef::wrap)
                .take(COMMENT_POST_DEPTH)
                .map(good)
                // A "show more comments" link beside the list does not count.
                .find(|&around| around > own + COMMENT_UI_CHARS)
                .is_some_and(|around| around - own >= POST_MIN_CHARS)
        })
        .map(|el| el.id())
        .collect();
    let found = !sections.is_empty();
    skip.extend(sections);
    found
}

/// In prose (a root with few links), blocks made mostly of links — related stories, tag
/// lists, "read more" rows — are navigation, not content.
fn prune_link_blocks(
    root: ElementRef<'_>,
    stats: &HashMap<NodeId, Stats>,
    skip: &mut HashSet<NodeId>,
) {
    let Some(total) = stats.get(&root.id()) else {
        return;
    };
    if total.text == 0 || total.link as f64 > PROSE_MAX_LINKS * total.text as f64 {
        return;
    }
    let mut ticker = crate::page::interrupt::Ticker::default();
    for el in root.descendants().filter_map(ElementRef::wrap) {
        if ticker.stop() {
            break;
        }
        if !matches!(
            el.value().name(),
            "ul" | "ol" | "div" | "section" | "table" | "p" | "dl"
        ) {
            continue;
        }
        let Some(s) = stats.get(&el.id()) else {
            continue;
        };
        if s.text > 0
            && s.link as f64 > LINK_BLOCK_DENSITY * s.text as f64
            && (s.text as f64) < LINK_BLOCK_MAX_SHARE * total.text as f64
        {
            skip.insert(el.id());
        }
    }
}
