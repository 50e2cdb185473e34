//! Page chrome: the parts of a page around its content (navigation, banners, footers,
//! sidebars, share bars, hidden elements) that every reader above leaves out.
//!
//! Two strengths: [`is_chrome_element`]/[`in_chrome`] name the page furniture that is never a
//! page's list or content (menus, footers, pagination); [`is_structural_chrome`] and
//! [`has_chrome_name`] are stricter readers' rules for main content, which also drop share bars,
//! ads and related links (a list of which can still be a page's items).

use scraper::ElementRef;

use super::disclosure;

/// Navigation, footer or sidebar by tag, or a landmark role of site furniture.
pub fn is_landmark(element: ElementRef<'_>) -> bool {
    let el = element.value();
    matches!(el.name(), "nav" | "footer" | "aside")
        || el.attr("role").is_some_and(|r| {
            matches!(
                r,
                "navigation" | "contentinfo" | "banner" | "menu" | "menubar"
            )
        })
}

/// Whether the element sits inside (or is) page chrome ([`is_chrome_element`]), except for the
/// elements that hold the whole content:
/// `html`, `body` and `main` carry feature flags in their classes
/// (`vector-feature-main-menu-pinned-disabled`), and a skip link's target
/// (`div#skip-link-target`) is named after the link; read as chrome, they would make every
/// block on the page chrome.
pub fn in_chrome(element: ElementRef<'_>) -> bool {
    std::iter::once(element)
        .chain(element.ancestors().filter_map(ElementRef::wrap))
        .any(|el| !holds_content(el) && is_chrome_element(el))
}

/// Whether an element is a page-level container of the content (see [`in_chrome`]).
pub fn holds_content(element: ElementRef<'_>) -> bool {
    let el = element.value();
    matches!(el.name(), "html" | "body" | "main")
        || el.attr("role") == Some("main")
        || el.id().into_iter().chain(el.classes()).any(|name| {
            let lower = name.to_ascii_lowercase();
            lower.contains("skip") && lower.contains("target")
        })
}

/// Whether this element itself is page chrome (see [`in_chrome`]).
pub fn is_chrome_element(element: ElementRef<'_>) -> bool {
    if is_landmark(element) {
        return true;
    }
    let el = element.value();
    // Class and id names are read token by token (`site-footer__links` → site, footer, links):
    // this runs for every ancestor of every candidate, so it must not allocate per word.
    // A utility class with a variant or a value (`site-header:min-h-[…]`, `lg:flex-row`)
    // styles the element under a condition; it does not name what the element is.
    el.id()
        .into_iter()
        .chain(el.classes())
        .filter(|name| !name.contains([':', '[']))
        .any(|name| {
            let lower = name.to_ascii_lowercase();
            lower
                .split(['-', '_'])
                .any(|token| CHROME_WORDS.contains(&token))
                || lower.contains("site-header")
        })
}

/// Hyphen/underscore-separated parts of a class or id that mark page chrome.
pub const CHROME_WORDS: &[&str] = &[
    "nav",
    "navbar",
    "navigation",
    "menu",
    "footer",
    "sidebar",
    "breadcrumb",
    "breadcrumbs",
    "pagination",
    "pager",
    "cookie",
    "cookies",
    "masthead",
    "topbar",
    "skip",
];

/// Elements whose content is never page content, whatever their position.
pub fn is_junk_tag(name: &str) -> bool {
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
pub fn is_hidden(element: ElementRef<'_>) -> bool {
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
        style.contains("display:none")
            || (style.contains("visibility:hidden") && !is_page_wrapper(element))
    })
}

/// Levels below `<body>` at which a wrapper holds the whole page.
const PAGE_WRAPPER_DEPTH: usize = 2;

/// Whether the element wraps the whole page (`body > div#__next > div`, nothing beside it but
/// scripts): apps hide that wrapper with `visibility: hidden` until their styles load, and a
/// script lifts it, so it hides nothing from a reader.
fn is_page_wrapper(element: ElementRef<'_>) -> bool {
    let alone = |el: ElementRef<'_>| {
        el.prev_siblings()
            .chain(el.next_siblings())
            .filter_map(ElementRef::wrap)
            .all(|s| is_junk_tag(s.value().name()))
    };
    let mut current = element;
    for _ in 0..PAGE_WRAPPER_DEPTH {
        if current.value().name() != "div" || !alone(current) {
            return false;
        }
        match current.parent().and_then(ElementRef::wrap) {
            Some(parent) if parent.value().name() == "body" => return true,
            Some(parent) => current = parent,
            None => return false,
        }
    }
    false
}

/// Structural chrome: a tag, a role, or a page-level `<header>`. Collapsed accordion and
/// tab panels are not chrome though hidden, nor the buttons that open them (see
/// `disclosure`).
pub fn is_structural_chrome(element: ElementRef<'_>) -> bool {
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
pub fn has_chrome_name(element: ElementRef<'_>) -> bool {
    let el = element.value();
    el.id()
        .into_iter()
        .chain(el.classes())
        .any(|word| name_is_chrome(&word.to_ascii_lowercase()))
}

fn name_is_chrome(word: &str) -> bool {
    // Names that say "content" win: "post-content-nav" is rare, "main-content" common.
    if word.contains("content") || word.contains("article") || word.contains("main") {
        return false;
    }
    word.split(['-', '_'])
        .filter(|part| !part.is_empty())
        .any(|part| CHROME_WORDS.contains(&part) || EXTRA_CHROME_PARTS.contains(&part))
        || HIDDEN_CLASSES.contains(&word)
}

/// Parts of a class that mark chrome for main-content extraction, beyond the page-chrome
/// words the outline uses too ([`CHROME_WORDS`]): share bars, ads, related links and
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::dom::selector_static;
    use scraper::Html;

    #[test]
    fn chrome_detection() {
        let doc = Html::parse_document(
            r#"<nav><a id="a">x</a></nav><div class="site-footer"><a id="b">y</a></div><main><a id="c">z</a></main>
            <div class="flex site-header:min-h-[calc(100vh-64px)] lg:nav-open:mr-80"><p><a id="d">w</a></p></div>"#,
        );
        let get = |id| {
            doc.select(&selector_static(&format!("#{id}")))
                .next()
                .unwrap()
        };
        assert!(in_chrome(get("a")));
        assert!(in_chrome(get("b")));
        assert!(!in_chrome(get("c")));
        // Utility classes with a variant style an element; they do not name it.
        assert!(!in_chrome(get("d")));
    }

    #[test]
    fn a_page_hidden_until_its_styles_load_is_not_hidden_content() {
        let first = |html: &str| {
            let doc = Html::parse_document(html);
            let el = doc.select(&selector_static("#x")).next().unwrap();
            is_hidden(el)
        };
        assert!(!first(
            r#"<body><div id="__next"><div id="x" style="visibility: hidden; min-height: 100vh"><h1>Tutorial</h1></div></div><script>1</script></body>"#
        ));
        assert!(first(
            r#"<body><article><h1>Lorem</h1><div id="x" style="visibility: hidden"><p>gone</p></div><p>kept</p></article></body>"#
        ));
        assert!(first(
            r#"<body><div id="__next"><div id="x" style="display:none"><h1>Tutorial</h1></div></div></body>"#
        ));
    }
}
