//! Per-element text statistics and the boilerplate rules they are computed under.
//!
//! Every walk here is iterative (`traverse`), so a page nested a hundred thousand levels
//! deep cannot overflow the stack of the blocking thread that runs the tools.

use std::collections::{HashMap, HashSet};

use ego_tree::NodeId;
use ego_tree::iter::Edge;
use scraper::ElementRef;
use scraper::node::Node;

use super::disclosure;

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

/// Elements whose content is never page content, whatever their position.
pub(crate) fn is_junk_tag(name: &str) -> bool {
    matches!(
        name,
        "script"
            | "style"
            | "noscript"
            | "template"
            | "svg"
            | "iframe"
            | "object"
            | "embed"
            | "canvas"
            | "button"
            | "select"
            | "option"
            | "input"
            | "textarea"
            | "nav"
            | "footer"
            | "aside"
            | "dialog"
            | "head"
            | "menu"
            | "link"
            | "meta"
    )
}

/// Hidden by the page itself (the reader would not see it).
pub(crate) fn is_hidden(element: ElementRef<'_>) -> bool {
    let el = element.value();
    // Not `aria-hidden`: it hides from screen readers, not from the eye (shops mark product
    // card text with it), and apps set it on their whole root while a dialog is open.
    if el.attr("hidden").is_some() {
        return true;
    }
    el.attr("style").is_some_and(|style| {
        let style: String = style
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        style.contains("display:none") || style.contains("visibility:hidden")
    })
}

/// Structural chrome: a tag, a role, or a page-level `<header>`. Collapsed accordion and
/// tab panels are not chrome though hidden, nor the buttons that open them (see
/// `disclosure`).
pub(crate) fn is_structural_chrome(element: ElementRef<'_>) -> bool {
    let el = element.value();
    if disclosure::is_panel_toggle(element) {
        return false;
    }
    if is_junk_tag(el.name()) || (is_hidden(element) && !disclosure::is_collapsed_panel(element)) {
        return true;
    }
    if el.attr("role").is_some_and(|r| {
        matches!(
            r,
            "navigation"
                | "contentinfo"
                | "banner"
                | "menu"
                | "menubar"
                | "complementary"
                | "dialog"
                | "alertdialog"
                | "search"
                | "tablist"
        )
    }) {
        return true;
    }
    // A <header> inside an article or main is the article's heading (title, byline); one
    // elsewhere is the site's masthead.
    el.name() == "header"
        && !element.ancestors().filter_map(ElementRef::wrap).any(|a| {
            matches!(a.value().name(), "article" | "main") || a.value().attr("role") == Some("main")
        })
}

/// Class or id naming a part of the page that is not content (menus, share bars, cookie
/// banners, related links…).
pub(crate) fn has_chrome_name(element: ElementRef<'_>) -> bool {
    let el = element.value();
    el.id()
        .into_iter()
        .chain(el.classes())
        .any(|word| name_is_chrome(&word.to_ascii_lowercase()))
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

fn name_is_chrome(word: &str) -> bool {
    // Names that say "content" win: "post-content-nav" is rare, "main-content" common.
    if word.contains("content") || word.contains("article") || word.contains("main") {
        return false;
    }
    word.split(['-', '_'])
        .filter(|part| !part.is_empty())
        .any(|part| {
            crate::tools::dom::CHROME_WORDS.contains(&part) || EXTRA_CHROME_PARTS.contains(&part)
        })
        || HIDDEN_CLASSES.contains(&word)
}

/// Parts of a class that mark chrome for main-content extraction, beyond the page-chrome
/// words the outline uses too (`dom::CHROME_WORDS`): share bars, ads, related links and
/// banners are not content, though a list of them can still be a page's items.
const EXTRA_CHROME_PARTS: &[&str] = &[
    "consent",
    "gdpr",
    "share",
    "sharing",
    "social",
    "newsletter",
    "subscribe",
    "subscription",
    "signup",
    "advert",
    "advertisement",
    "ads",
    "ad",
    "sponsor",
    "sponsored",
    "promo",
    "popup",
    "modal",
    "related",
    "recommended",
    "toolbar",
    "offcanvas",
    "drawer",
    "disclaimer",
];

/// Whole class names of elements hidden from readers.
const HIDDEN_CLASSES: &[&str] = &[
    "hidden",
    "hide",
    "sr-only",
    "visually-hidden",
    "screen-reader-text",
    "d-none",
    "print-only",
];

/// Statistics of every element in a subtree, skipping the elements in `skip` and the
/// structural chrome.
pub(crate) fn compute(root: ElementRef<'_>, skip: &HashSet<NodeId>) -> HashMap<NodeId, Stats> {
    let mut out = HashMap::new();
    // Frames of open elements: (id, stats, counted, is_link).
    let mut stack: Vec<(NodeId, Stats, bool)> = Vec::new();
    let mut skipping: Option<NodeId> = None;
    // Inside an interrupted tool call the walk stops early: the call's result is thrown away.
    let mut ticker = crate::tools::interrupt::Ticker::default();
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
