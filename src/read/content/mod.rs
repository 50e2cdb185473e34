//! Main-content extraction: the article text of a page, with its metadata and Markdown.
//!
//! Works on the already-parsed `scraper` document (no second parse): text statistics per
//! element pick the content container (see `select`), boilerplate inside it is skipped
//! while rendering (see `render`), metadata comes from JSON-LD, `<meta>` and the page.

mod furniture;
mod render;
mod select;
mod stats;

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
}

/// Extracts the main content of a page: the container holding most of its prose, without
/// menus, headers, footers, share bars and other boilerplate, as text (blocks on their own
/// lines) and Markdown, plus the page's metadata. The headline, byline and date lines and
/// "Related stories" lists are left out of the body (they have fields of their own); the
/// Markdown opens with the headline as a `#` heading. Text is capped at [`MAX_CHARS`].
pub fn main_content(page: &Page) -> MainContent {
    let meta = crate::read::metadata::read(page);
    let (text, markdown) = body_of(page, meta.is_article);
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
    }
}

fn body_of(page: &Page, article: bool) -> (String, String) {
    let choice = select::choose(&page.document, article);
    let text = render::render(page, choice.root, &choice.skip, render::Mode::Text);
    let markdown = render::render(page, choice.root, &choice.skip, render::Mode::Markdown);
    (text, markdown)
}

/// Converts an element (and its descendants) to Markdown, links and images made absolute
/// against the page. Scripts, styles, navigation and hidden elements are left out.
pub fn markdown_of(page: &Page, element: scraper::ElementRef<'_>) -> String {
    cut_chars(
        render::render(page, element, &Default::default(), render::Mode::Markdown),
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
