//! The page's metadata, read once for every tool: headline, authors, publication date,
//! language, description, site name, canonical URL.
//!
//! Each fact is read as a careful person would copy it: the date printed beside the byline
//! over one declared for machines (which is often the first draft's, or the CMS's); the
//! published date over the modified one unless only the latter is shown; every author,
//! without "By", job titles, e-mail addresses or the site's own name; the page's own `<h1>`
//! as the title when what the page declares agrees with it.
//!
//! Where a fact has several sources, the choice is a table of named rules tried in order
//! (`title::RULES`, `authors::RULES`, `dates::DECLARED_RULES` within `dates::PUBLISHED_RULES`,
//! `dates::MODIFIED_RULES`); the rule that gave the answer travels with it as
//! [`Chosen::rule`], so a tool can show why.

mod about;
mod authors;
mod byline;
mod dates;
mod people;
pub use people::looks_like_person;
mod sources;
mod title;

use crate::page::Page;
use sources::Sources;

pub(crate) use byline::headline;

/// A fact and the name of the rule that read it (`jsonld_date_published`, `og_title`): the
/// evidence a tool reports beside the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen<T> {
    /// What the page says.
    pub value: T,
    /// The rule that read it, from its fact's table.
    pub rule: &'static str,
}

/// One way to read a fact: its name (reported as evidence) and the function that reads it,
/// None when the page does not give the fact that way.
type Rule<S, T> = (&'static str, fn(&S) -> Option<T>);

/// A rule that reads the page's [`Sources`] (for every page, whatever the lifetime of its
/// sources).
type SourcesRule<T> = (&'static str, fn(&Sources<'_>) -> Option<T>);

/// The first rule of `rules` that reads a value, with its name.
fn first_rule<S, T>(rules: &[Rule<S, T>], sources: &S) -> Option<Chosen<T>> {
    rules
        .iter()
        .find_map(|(rule, read)| read(sources).map(|value| Chosen { value, rule }))
}

/// What the page says about itself.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Metadata {
    /// The headline a reader sees.
    pub title: Option<Chosen<String>>,
    /// `<title>`, as written for tabs and search results.
    pub document_title: Option<String>,
    /// The page's own summary (`description`, `og:description`, JSON-LD).
    pub description: Option<String>,
    /// The canonical URL, absolute.
    pub canonical: Option<String>,
    /// Language tag.
    pub lang: Option<String>,
    /// Every author, cleaned, in the page's order (never an empty list).
    pub authors: Option<Chosen<Vec<String>>>,
    /// Publication date, ISO-8601.
    pub published_at: Option<Chosen<String>>,
    /// Last modification date, ISO-8601.
    pub modified_at: Option<Chosen<String>>,
    /// The site's name.
    pub site_name: Option<String>,
    /// Whether the page declares itself an article (`og:type` `article`, a JSON-LD
    /// `Article`, `NewsArticle`, `BlogPosting`…), not a product, a listing or a web page.
    pub is_article: bool,
}

impl Metadata {
    /// The headline's text.
    pub fn title_text(&self) -> Option<&str> {
        self.title.as_ref().map(|t| t.value.as_str())
    }

    /// The authors' names, in the page's order (empty when the page names none).
    pub fn author_names(&self) -> &[String] {
        self.authors.as_ref().map_or(&[], |a| a.value.as_slice())
    }

    /// The publication date, ISO-8601.
    pub fn published(&self) -> Option<&str> {
        self.published_at.as_ref().map(|d| d.value.as_str())
    }

    /// The last modification date, ISO-8601.
    pub fn modified(&self) -> Option<&str> {
        self.modified_at.as_ref().map(|d| d.value.as_str())
    }

    /// The authors as one line, as a person writes it ("Ann Lee", "Ann Lee and Bo Chen",
    /// "Ann Lee, Bo Chen and Cy Diaz"), None when there are none.
    pub fn byline(&self) -> Option<String> {
        match self.author_names() {
            [] => None,
            [one] => Some(one.clone()),
            [rest @ .., last] => Some(format!("{} and {last}", rest.join(", "))),
        }
    }
}

/// Reads the metadata of `page`.
pub fn read(page: &Page) -> Metadata {
    let sources = Sources::of(page);
    let modified_at = dates::modified(&sources);
    let published_at = dates::published(&sources, modified_at.as_ref().map(|d| d.value.as_str()));
    Metadata {
        title: title::title(&sources),
        authors: authors::authors(&sources),
        published_at,
        modified_at,
        lang: about::lang(&sources),
        description: about::description(&sources),
        canonical: about::canonical(&sources),
        is_article: about::is_article(&sources),
        document_title: sources.document_title,
        site_name: sources.site_name,
    }
}

#[cfg(test)]
mod tests;
