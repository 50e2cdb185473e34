//! The parsed page and the mutable state tools share while a plan runs.

use scraper::{ElementRef, Html};
use serde_json::{Map, Value};
use url::Url;

/// A page parsed once; every tool of the URL reads the same document.
#[derive(Debug)]
pub struct Page {
    /// The page's final URL (base for relative links, unless `<base href>` says otherwise).
    pub url: Url,
    /// The parsed document.
    pub document: Html,
}

impl Page {
    /// Parses `html` fetched from `url`.
    pub fn parse(url: Url, html: &str) -> Self {
        let document = Html::parse_document(&super::nesting::limit_depth(html));
        let base = document
            .select(&dom::selector_static("base[href]"))
            .next()
            .and_then(|el| el.value().attr("href"))
            .and_then(|href| url.join(href).ok());
        Self {
            url: base.unwrap_or(url),
            document,
        }
    }

    /// Resolves a link found in the page to an absolute URL string (None for `javascript:` etc.).
    pub fn absolute(&self, href: &str) -> Option<String> {
        let href = href.trim();
        if href.is_empty() || href.starts_with('#') && href.len() == 1 {
            return None;
        }
        let joined = self.url.join(href).ok()?;
        matches!(joined.scheme(), "http" | "https" | "mailto" | "tel" | "ftp")
            .then(|| joined.to_string())
    }
}

use super::dom;

/// Caps on what one tool may produce.
#[derive(Debug, Clone, Copy)]
pub struct ToolLimits {
    /// Items (elements, records, links…).
    pub max_items: usize,
    /// Characters of text.
    pub max_text_chars: usize,
}

impl Default for ToolLimits {
    fn default() -> Self {
        Self {
            max_items: 1000,
            max_text_chars: 200_000,
        }
    }
}

/// The state a plan works on.
#[derive(Debug)]
pub struct Workspace<'p> {
    /// The page.
    pub page: &'p Page,
    /// The current element selection, if a tool made one.
    pub selection: Option<Vec<ElementRef<'p>>>,
    /// The current working value.
    pub value: Value,
    /// Results kept under a name by `save_as`.
    pub saved: Map<String, Value>,
    /// Output caps.
    pub limits: ToolLimits,
}

impl<'p> Workspace<'p> {
    /// A fresh workspace over `page`.
    pub fn new(page: &'p Page, limits: ToolLimits) -> Self {
        Self {
            page,
            selection: None,
            value: Value::Null,
            saved: Map::new(),
            limits,
        }
    }

    /// The elements tools should look inside: the selection, or the whole document.
    pub fn scope(&self) -> Vec<ElementRef<'p>> {
        match &self.selection {
            Some(elements) => elements.clone(),
            None => vec![self.page.document.root_element()],
        }
    }

    /// The per-URL answer: the final value, or the saved names when a plan kept any.
    pub fn answer(&self) -> Value {
        if self.saved.is_empty() {
            return self.value.clone();
        }
        let mut answer = self.saved.clone();
        let value_already_saved = self.saved.values().any(|v| v == &self.value);
        if !self.value.is_null() && !value_already_saved {
            answer.insert("result".into(), self.value.clone());
        }
        Value::Object(answer)
    }

    /// Truncates a text to the workspace's character cap.
    pub fn cap_text(&self, text: String) -> String {
        if text.chars().count() <= self.limits.max_text_chars {
            return text;
        }
        text.chars().take(self.limits.max_text_chars).collect()
    }
}
