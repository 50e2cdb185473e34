//! Rendering a content element as plain text or Markdown.

use std::collections::HashSet;

use ego_tree::NodeId;
use scraper::ElementRef;
use scraper::node::Node;

use crate::page::Page;
use crate::page::chrome;
use crate::page::dom::{flat_text, flat_text_raw};

/// Output cap, in bytes of text (the tool caps characters too; this bounds the work).
pub(crate) const MAX_OUTPUT: usize = 200_000;
/// Deeper than this, an element is rendered as flat text (no recursion).
const MAX_DEPTH: usize = 200;

/// How to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Blocks as lines of text.
    Text,
    /// CommonMark/GFM.
    Markdown,
}

/// Renders `root` skipping the elements in `skip` and structural chrome.
pub(crate) fn render(
    page: &Page,
    root: ElementRef<'_>,
    skip: &HashSet<NodeId>,
    mode: Mode,
) -> String {
    let mut r = Renderer {
        page,
        skip,
        mode,
        blocks: Vec::new(),
        cur: String::new(),
        size: 0,
        lists: Vec::new(),
        quote: 0,
        pending: None,
    };
    r.children(root, 0);
    r.flush();
    let sep = if mode == Mode::Markdown { "\n\n" } else { "\n" };
    let mut out = r.blocks.join(sep);
    truncate(&mut out, MAX_OUTPUT);
    out
}

/// Truncates to at most `max` bytes on a char boundary.
pub(crate) fn truncate(s: &mut String, max: usize) {
    if s.len() > max {
        let mut cut = max;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
    }
}

struct Renderer<'a, 'p> {
    page: &'p Page,
    skip: &'a HashSet<NodeId>,
    mode: Mode,
    blocks: Vec<String>,
    /// Inline text of the block being built.
    cur: String,
    size: usize,
    /// Open lists: Some(next number) for `<ol>`, None for `<ul>`.
    lists: Vec<Option<usize>>,
    quote: usize,
    /// List marker waiting for the item's first block of text.
    pending: Option<String>,
}

impl Renderer<'_, '_> {
    fn md(&self) -> bool {
        self.mode == Mode::Markdown
    }

    fn full(&self) -> bool {
        self.size >= MAX_OUTPUT
    }

    /// Ends the current block, with `prefix` before it.
    fn flush_with(&mut self, prefix: &str) {
        let text = crate::page::dom::collapse_whitespace(&self.cur);
        self.cur.clear();
        if text.is_empty() {
            return;
        }
        let prefix = match self.pending.take() {
            Some(marker) => format!("{marker}{prefix}"),
            None => prefix.to_owned(),
        };
        let quote = if self.md() {
            "> ".repeat(self.quote)
        } else {
            String::new()
        };
        let block = format!("{quote}{prefix}{text}");
        self.size += block.len() + 2;
        self.blocks.push(block);
    }

    fn flush(&mut self) {
        self.flush_with("");
    }

    fn push_block(&mut self, block: String) {
        if block.trim().is_empty() {
            return;
        }
        self.size += block.len() + 2;
        self.blocks.push(block);
    }

    fn children(&mut self, el: ElementRef<'_>, depth: usize) {
        for child in el.children() {
            if self.full() {
                return;
            }
            match child.value() {
                Node::Text(text) => {
                    let t: &str = text;
                    self.cur.push_str(&escape_inline(t, self.md()));
                }
                Node::Element(_) => {
                    if let Some(child_el) = ElementRef::wrap(child) {
                        self.element(child_el, depth + 1);
                    }
                }
                _ => {}
            }
        }
    }

    /// Inline rendering of an element's children into a fresh string.
    fn inline_of(&mut self, el: ElementRef<'_>, depth: usize) -> String {
        let saved = std::mem::take(&mut self.cur);
        self.children(el, depth);
        let inner = std::mem::replace(&mut self.cur, saved);
        crate::page::dom::collapse_whitespace(&inner)
    }

    fn element(&mut self, el: ElementRef<'_>, depth: usize) {
        if self.skip.contains(&el.id()) || chrome::is_structural_chrome(el) {
            return;
        }
        if depth > MAX_DEPTH {
            let text = flat_text(el);
            self.cur.push(' ');
            self.cur.push_str(&text);
            return;
        }
        // Plain text has no pictures: a photo's caption or credit would stand alone.
        if !self.md() && super::furniture::is_photo_caption(el) {
            return;
        }
        let name = el.value().name();
        match name {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                self.flush();
                let level = usize::from(name.as_bytes()[1] - b'0');
                let text = self.inline_of(el, depth);
                self.cur = text;
                let prefix = if self.md() {
                    format!("{} ", "#".repeat(level))
                } else {
                    String::new()
                };
                self.flush_with(&prefix);
            }
            "p" | "div" | "section" | "article" | "main" | "header" | "figure" | "figcaption"
            | "address" | "details" | "summary" | "dl" | "dt" | "dd" | "form" | "fieldset"
            | "center" | "body" | "hgroup" | "caption" | "legend" => {
                self.flush();
                self.children(el, depth);
                self.flush();
            }
            "br" => self.cur.push(' '),
            "hr" => {
                self.flush();
                if self.md() {
                    self.push_block("---".into());
                }
            }
            "ul" | "ol" => {
                self.flush();
                self.lists.push((name == "ol").then(|| {
                    el.value()
                        .attr("start")
                        .and_then(|s| s.trim().parse().ok())
                        .unwrap_or(1)
                }));
                self.children(el, depth);
                self.flush();
                self.lists.pop();
            }
            "li" => {
                self.flush();
                let indent = "  ".repeat(self.lists.len().saturating_sub(1));
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        let m = format!("{n}. ");
                        *n += 1;
                        m
                    }
                    _ => "- ".into(),
                };
                if self.md() {
                    self.pending = Some(format!("{indent}{marker}"));
                }
                self.children(el, depth);
                self.flush();
                self.pending = None;
            }
            "blockquote" => {
                self.flush();
                self.quote += 1;
                self.children(el, depth);
                self.flush();
                self.quote -= 1;
            }
            "pre" => {
                self.flush();
                let code = flat_text_raw(el);
                let code = code.trim_matches('\n');
                if self.md() {
                    self.push_block(format!("```\n{code}\n```"));
                } else {
                    self.push_block(code.to_owned());
                }
            }
            "table" => {
                self.flush();
                self.table(el, depth);
            }
            "a" => {
                let text = self.inline_of(el, depth);
                let href = el.value().attr("href").and_then(|h| self.page.absolute(h));
                match (self.md(), href) {
                    (true, Some(href)) if !text.is_empty() => {
                        self.cur.push_str(&format!(" [{text}]({href}) "));
                    }
                    _ => {
                        self.cur.push(' ');
                        self.cur.push_str(&text);
                        self.cur.push(' ');
                    }
                }
            }
            "img" => {
                if self.md() {
                    let el_v = el.value();
                    let src = ["src", "data-src", "data-lazy-src", "data-original"]
                        .iter()
                        .filter_map(|a| el_v.attr(a))
                        .find(|s| !s.trim().is_empty() && !s.starts_with("data:"))
                        .and_then(|s| self.page.absolute(s));
                    if let Some(src) = src {
                        let alt =
                            crate::page::dom::collapse_whitespace(el_v.attr("alt").unwrap_or(""))
                                .replace(['[', ']'], "");
                        self.cur.push_str(&format!(" ![{alt}]({src}) "));
                    }
                }
            }
            "strong" | "b" => self.wrap(el, depth, "**"),
            "em" | "i" => self.wrap(el, depth, "*"),
            "del" | "s" | "strike" => self.wrap(el, depth, "~~"),
            "code" | "kbd" | "samp" => {
                if self.md() {
                    let text = flat_text(el);
                    if !text.is_empty() {
                        let fence = if text.contains('`') { "``" } else { "`" };
                        self.cur.push_str(&format!("{fence}{text}{fence}"));
                    }
                } else {
                    self.children(el, depth);
                }
            }
            "td" | "th" => {
                self.cur.push(' ');
                self.children(el, depth);
                self.cur.push(' ');
            }
            _ => {
                if crate::page::dom::is_block(name) {
                    self.flush();
                    self.children(el, depth);
                    self.flush();
                } else {
                    self.children(el, depth);
                }
            }
        }
    }

    fn wrap(&mut self, el: ElementRef<'_>, depth: usize, mark: &str) {
        let text = self.inline_of(el, depth);
        if text.is_empty() {
            return;
        }
        if self.md() {
            self.cur.push_str(&format!("{mark}{text}{mark}"));
        } else {
            self.cur.push(' ');
            self.cur.push_str(&text);
            self.cur.push(' ');
        }
    }

    fn table(&mut self, table: ElementRef<'_>, depth: usize) {
        let rows: Vec<ElementRef<'_>> = table
            .descendants()
            .filter_map(ElementRef::wrap)
            .filter(|e| e.value().name() == "tr")
            // Rows of nested tables belong to those tables.
            .filter(|tr| {
                tr.ancestors()
                    .filter_map(ElementRef::wrap)
                    .find(|a| a.value().name() == "table")
                    .is_some_and(|t| t.id() == table.id())
            })
            .collect();
        let mut lines: Vec<Vec<String>> = Vec::new();
        for tr in rows {
            if self.skip.contains(&tr.id()) || chrome::is_structural_chrome(tr) {
                continue;
            }
            let cells: Vec<String> = tr
                .children()
                .filter_map(ElementRef::wrap)
                .filter(|c| matches!(c.value().name(), "td" | "th"))
                .map(|c| {
                    let cell = self.inline_of(c, depth + 1);
                    if self.md() {
                        cell.replace('|', "\\|")
                    } else {
                        cell
                    }
                })
                .collect();
            if cells.iter().any(|c| !c.is_empty()) {
                lines.push(cells);
            }
            if self.full() {
                break;
            }
        }
        if lines.is_empty() {
            return;
        }
        if !self.md() {
            for cells in lines {
                self.push_block(cells.join(" | "));
            }
            return;
        }
        let width = lines.iter().map(Vec::len).max().unwrap_or(1).max(1);
        let mut out = String::new();
        for (i, cells) in lines.iter().enumerate() {
            out.push('|');
            for c in 0..width {
                out.push(' ');
                out.push_str(cells.get(c).map_or("", String::as_str));
                out.push_str(" |");
            }
            out.push('\n');
            if i == 0 {
                out.push('|');
                out.push_str(&" --- |".repeat(width));
                out.push('\n');
            }
        }
        self.push_block(out.trim_end().to_owned());
    }
}

/// Escapes the characters that would turn plain text into Markdown syntax.
fn escape_inline(text: &str, markdown: bool) -> String {
    if !markdown {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '*' | '_' | '`' | '[' | ']' | '<' | '>' | '#') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
