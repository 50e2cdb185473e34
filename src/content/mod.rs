//! Main-content extraction: the article text of a page, with its metadata and Markdown.

use serde::Serialize;

use crate::tools::Page;

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
}

/// Extracts the main content of a page. (Placeholder until the real extractor lands.)
pub fn main_content(page: &Page) -> MainContent {
    let body = page.document.root_element();
    MainContent {
        text: crate::tools::dom::text_of(body),
        ..MainContent::default()
    }
}

/// Converts an element (and its descendants) to Markdown, links made absolute against the
/// page. (Placeholder: plain text.)
pub fn markdown_of(page: &Page, element: scraper::ElementRef<'_>) -> String {
    let _ = page;
    crate::tools::dom::text_of(element)
}
