//! Per-element text statistics and the boilerplate rules they are computed under.
//!
//! Every walk here is iterative (`traverse`), so a page nested a hundred thousand levels
//! deep cannot overflow the stack of the blocking thread that runs the tools.

use std::collections::{HashMap, HashSet};

use ego_tree::NodeId;
use ego_tree::iter::Edge;
use scraper::ElementRef;
use scraper::node::Node;

use crate::page::chrome::is_structural_chrome;

/// Text counts of one element's subtree, boilerplate excluded.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Stats {
    /// Non-whitespace characters of text.
    pub text: usize,
    /// Of which inside `<a>`.
    pub link: usize,
    /// Paragraph-like blocks (`p`, `pre`, `blockquote`, `li`, `td`) with some text.
    pub paragraphs: usize,
}

impl Stats {
    /// Text weighted against links: what distinguishes prose from menus.
    ///
    /// Link text is discounted, not ignored: on listings and shop collections the content
    /// *is* the linked cards, while menus are mostly removed as chrome beforehand.
    pub fn good(&self) -> usize {
        self.text.saturating_sub(self.link * 4 / 5)
    }
}

/// Class or id naming a section of readers' comments (`comments`, `comment-list`,
/// `#disqus_thread`), not a single comment.
pub(crate) fn names_comment_section(element: ElementRef<'_>) -> bool {
    let el = element.value();
    el.id().into_iter().chain(el.classes()).any(|word| {
        let word = word.to_ascii_lowercase();
        word == "commentlist"
            || word == "disqus_thread"
            || word.split(['-', '_']).find(|part| !part.is_empty()) == Some("comments")
            || word.starts_with("comment-list")
            || word.starts_with("comment-section")
    })
}

/// Statistics of every element in a subtree, skipping the elements in `skip` and the
/// structural chrome.
pub(crate) fn compute(root: ElementRef<'_>, skip: &HashSet<NodeId>) -> HashMap<NodeId, Stats> {
    let mut out = HashMap::new();
    // Frames of open elements: (id, stats, counted, is_link).
    let mut stack: Vec<(NodeId, Stats, bool)> = Vec::new();
    let mut skipping: Option<NodeId> = None;
    // Inside an interrupted tool call the walk stops early: the call's result is thrown away.
    let mut ticker = crate::page::interrupt::Ticker::default();
    for edge in root.traverse() {
        if ticker.stop() {
            break;
        }
        match edge {
            Edge::Open(node) => {
                if skipping.is_some() {
                    continue;
                }
                match node.value() {
                    Node::Element(_) => {
                        let Some(el) = ElementRef::wrap(node) else {
                            continue;
                        };
                        if skip.contains(&node.id()) || is_structural_chrome(el) {
                            skipping = Some(node.id());
                            continue;
                        }
                        stack.push((node.id(), Stats::default(), el.value().name() == "a"));
                    }
                    Node::Text(text) => {
                        let n = text.chars().filter(|c| !c.is_whitespace()).count();
                        let in_link = stack.iter().any(|f| f.2);
                        if let Some(top) = stack.last_mut() {
                            top.1.text += n;
                            if in_link {
                                top.1.link += n;
                            }
                        }
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
                let Some((id, mut stats, _)) = stack.pop() else {
                    continue;
                };
                let name = node.value().as_element().map_or("", |e| e.name());
                if stats.text > 0 && matches!(name, "p" | "pre" | "blockquote" | "li" | "td" | "dd")
                {
                    stats.paragraphs += 1;
                }
                out.insert(id, stats);
                if let Some(parent) = stack.last_mut() {
                    parent.1.text += stats.text;
                    parent.1.link += stats.link;
                    parent.1.paragraphs += stats.paragraphs;
                }
            }
        }
    }
    out
}
