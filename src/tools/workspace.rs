//! The mutable state tools share while a plan runs over a parsed page.

use scraper::{ElementRef, Selector};
use serde_json::{Map, Value};

use super::registry::ToolError;
use crate::page::{Interrupt, Page, dom};

/// Caps on what one tool may produce, and on the selectors it may be given.
#[derive(Debug, Clone, Copy)]
pub struct ToolLimits {
    /// Items (elements, records, links…).
    pub max_items: usize,
    /// Characters of text.
    pub max_text_chars: usize,
    /// Characters of one CSS selector given to a tool.
    pub max_selector_chars: usize,
    /// Parts of one CSS selector given to a tool: compound selectors (`div.item`), counting
    /// each one after a combinator (` `, `>`, `+`, `~`), a comma or a `(`.
    pub max_selector_parts: usize,
}

impl Default for ToolLimits {
    fn default() -> Self {
        Self {
            max_items: 1000,
            max_text_chars: 200_000,
            max_selector_chars: 1024,
            max_selector_parts: 32,
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
    /// What stops a call mid-way (never, unless the caller sets one).
    pub interrupt: Interrupt,
    /// How the last call decided, when it says (the list it chose, its columns…); the
    /// executor moves it into the call's result.
    pub evidence: Option<Value>,
    /// Set by a tool whose result was cut at `limits.max_items`: how many items the page has.
    /// The executor moves it into the call's result.
    pub items_beyond_cap: Option<usize>,
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
            interrupt: Interrupt::never(),
            evidence: None,
            items_beyond_cap: None,
        }
    }

    /// The same workspace, stopped mid-call by `interrupt`.
    #[must_use]
    pub fn with_interrupt(mut self, interrupt: Interrupt) -> Self {
        self.interrupt = interrupt;
        self
    }

    /// Parses a selector a tool was given, within the selector limits; errors name the tool.
    ///
    /// # Errors
    /// The selector is too long, has too many parts, or is not valid CSS.
    pub fn selector(&self, tool: &str, css: &str) -> Result<Selector, ToolError> {
        let invalid = |why: String| ToolError::InvalidParams(format!("{tool}: {why}"));
        let chars = css.chars().count();
        if chars > self.limits.max_selector_chars {
            return Err(invalid(format!(
                "CSS selector of {chars} characters is longer than the limit of {} (limits.max_selector_chars)",
                self.limits.max_selector_chars
            )));
        }
        let parts = dom::selector_parts(css);
        if parts > self.limits.max_selector_parts {
            return Err(invalid(format!(
                "CSS selector has {parts} parts, more than the limit of {} (limits.max_selector_parts)",
                self.limits.max_selector_parts
            )));
        }
        dom::parse_selector(css).map_err(invalid)
    }

    /// The elements tools should look inside: the selection, or the whole document.
    pub fn scope(&self) -> Vec<ElementRef<'p>> {
        match &self.selection {
            Some(elements) => elements.clone(),
            None => vec![self.page.document.root_element()],
        }
    }

    /// Where a tool with a `within` switch looks: the selection when asked, else the page.
    pub fn roots(&self, within: bool) -> Vec<ElementRef<'p>> {
        if within {
            self.scope()
        } else {
            vec![self.page.document.root_element()]
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

#[cfg(test)]
mod tests {
    use url::Url;

    use super::*;

    #[test]
    fn selectors_past_the_limits_fail_the_call_with_a_clear_error() {
        let page = Page::parse(
            Url::parse("https://example.com/").unwrap(),
            "<div class=a><p>x</p></div>",
        );
        let registry = crate::tools::Registry::builtin();
        let limits = ToolLimits {
            max_selector_chars: 40,
            max_selector_parts: 4,
            ..ToolLimits::default()
        };
        let mut ws = Workspace::new(&page, limits);
        let mut call = |tool: &str, params: serde_json::Value| {
            registry.execute(&mut ws, &crate::tools::ToolCall::new(tool, params, ""))
        };
        let long = call(
            "html.select",
            serde_json::json!({"selector": format!("div{}", ".a".repeat(30))}),
        );
        assert_eq!(
            long.error.as_deref(),
            Some(
                "html.select: CSS selector of 63 characters is longer than the limit of 40 (limits.max_selector_chars)"
            )
        );
        let deep = call("html.text", serde_json::json!({"selector": "div p a b c"}));
        assert_eq!(
            deep.error.as_deref(),
            Some(
                "html.text: CSS selector has 5 parts, more than the limit of 4 (limits.max_selector_parts)"
            )
        );
        let field = call(
            "extract.fields",
            serde_json::json!({"selector": "div", "fields": {"t": "a, b, c, d, e"}}),
        );
        assert!(
            field.error.as_deref().is_some_and(
                |e| e.starts_with("extract.fields: field `t`: CSS selector has 5 parts")
            ),
            "{:?}",
            field.error
        );
        let fine = call("html.select", serde_json::json!({"selector": "div.a > p"}));
        assert!(fine.success, "{:?}", fine.error);
    }
}
