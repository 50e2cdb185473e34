//! `render: auto`: whether a fetched page needs the browser, decided by an ordered table of
//! named rules over what the HTML holds (its visible text, data islands, app roots, scripts).

use scraper::{ElementRef, Html, Node};

use crate::events::RenderRule;

/// Visible text below this many characters is "thin".
pub const THIN_TEXT_CHARS: usize = 200;

/// What the HTML shows, the evidence of a decision.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Evidence {
    /// Characters of visible text (scripts, styles and `<noscript>` left out); `None` when the
    /// page was not parsed (it has no `<script>` at all).
    pub text_chars: Option<usize>,
    /// `<script>` elements.
    pub scripts: usize,
    /// Markers found: data islands, app roots, a `<noscript>` asking for JavaScript.
    pub markers: Vec<String>,
}

/// The rule that decided and what it saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The winning rule.
    pub rule: RenderRule,
    /// Whether to render.
    pub render: bool,
    /// What the page showed.
    pub evidence: Evidence,
}

/// Data islands: the page's data is in the HTML already, readable without scripts.
const DATA_ISLANDS: &[(&str, &str)] = &[
    ("script#__NEXT_DATA__", "__NEXT_DATA__"),
    ("script#__NUXT_DATA__", "__NUXT_DATA__"),
    ("script[type='application/ld+json']", "json_ld"),
];

/// Roots that client-side frameworks render into.
const APP_ROOTS: &[(&str, &str)] = &[
    ("#root", "#root"),
    ("#app", "#app"),
    ("#__next", "#__next"),
    ("#__nuxt", "#__nuxt"),
    ("[data-reactroot]", "data-reactroot"),
    ("[ng-version]", "ng-version"),
    ("[data-v-app]", "data-v-app"),
];

/// Whether `html` has a `<script` tag at all (a byte search, no parse).
fn has_script_tag(html: &str) -> bool {
    html.as_bytes()
        .windows(7)
        .any(|w| w.eq_ignore_ascii_case(b"<script"))
}

/// Reads the evidence of `html`.
pub fn evidence(html: &str) -> Evidence {
    if !has_script_tag(html) {
        return Evidence::default();
    }
    let document = Html::parse_document(html);
    let mut markers = Vec::new();
    for (selector, name) in DATA_ISLANDS.iter().chain(APP_ROOTS) {
        if let Ok(selector) = scraper::Selector::parse(selector)
            && document.select(&selector).next().is_some()
        {
            markers.push((*name).to_owned());
        }
    }
    let mut scripts = 0;
    let mut noscript_js = false;
    let mut nuxt = false;
    for node in document.tree.nodes() {
        if let Node::Element(element) = node.value() {
            match element.name() {
                "script" => {
                    scripts += 1;
                    if let Some(el) = ElementRef::wrap(node) {
                        let text: String = el.text().collect();
                        nuxt |= text.contains("window.__NUXT__");
                    }
                }
                "noscript" => {
                    if let Some(el) = ElementRef::wrap(node) {
                        let text: String = el.text().collect::<String>().to_lowercase();
                        noscript_js |= text.contains("javascript");
                    }
                }
                _ => {}
            }
        }
    }
    if nuxt {
        markers.push("__NUXT__".to_owned());
    }
    if noscript_js {
        markers.push("noscript_asks_for_javascript".to_owned());
    }
    Evidence {
        text_chars: Some(visible_chars(&document)),
        scripts,
        markers,
    }
}

fn visible_chars(document: &Html) -> usize {
    let mut chars = 0;
    for node in document.tree.nodes() {
        if let Node::Text(text) = node.value() {
            let hidden = node.ancestors().any(|a| {
                a.value().as_element().is_some_and(|e| {
                    matches!(
                        e.name(),
                        "script" | "style" | "noscript" | "template" | "head"
                    )
                })
            });
            if !hidden {
                chars += text
                    .split_whitespace()
                    .map(|w| w.chars().count() + 1)
                    .sum::<usize>();
            }
        }
    }
    chars
}

/// One rule: its name and when it decides (`Some(render)`), or passes.
type Rule = (RenderRule, fn(&Evidence) -> Option<bool>);

fn is_island(marker: &str) -> bool {
    DATA_ISLANDS.iter().any(|(_, name)| *name == marker) || marker == "__NUXT__"
}

/// The rules of `render: auto`, in order; the first that decides wins.
const RULES: &[Rule] = &[
    (RenderRule::NoScripts, |e| (e.scripts == 0).then_some(false)),
    (RenderRule::DataIsland, |e| {
        e.markers.iter().any(|m| is_island(m)).then_some(false)
    }),
    (RenderRule::ThinBodyAppRoot, |e| {
        (e.text_chars.unwrap_or(usize::MAX) < THIN_TEXT_CHARS
            && e.markers
                .iter()
                .any(|m| APP_ROOTS.iter().any(|(_, name)| name == m)))
        .then_some(true)
    }),
    (RenderRule::NoscriptAsksForJavascript, |e| {
        (e.text_chars.unwrap_or(usize::MAX) < THIN_TEXT_CHARS * 3
            && e.markers
                .iter()
                .any(|m| m == "noscript_asks_for_javascript"))
        .then_some(true)
    }),
    (RenderRule::ThinBodyWithScripts, |e| {
        (e.text_chars.unwrap_or(usize::MAX) < THIN_TEXT_CHARS / 2).then_some(true)
    }),
    (RenderRule::EnoughText, |_| Some(false)),
];

/// Decides for `html` by the first rule of [`RULES`] that decides.
pub fn decide(html: &str) -> Decision {
    decide_on(evidence(html))
}

/// Decides on evidence already read by [`evidence`].
pub fn decide_on(evidence: Evidence) -> Decision {
    for (rule, applies) in RULES {
        if let Some(render) = applies(&evidence) {
            return Decision {
                rule: *rule,
                render,
                evidence,
            };
        }
    }
    Decision {
        rule: RenderRule::EnoughText,
        render: false,
        evidence,
    }
}

/// Why a rendered page's text is an error page rather than an answer, if it is.
pub fn error_page(text: &str) -> Option<&'static str> {
    let lower = text.trim().to_lowercase();
    if lower.is_empty() {
        return Some("the rendered page is empty (an empty app root)");
    }
    if lower.len() < 400
        && (lower.contains("application error") || lower.contains("a client-side exception"))
    {
        return Some("the page rendered an application error");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(html: &str) -> (RenderRule, bool) {
        let d = decide(html);
        (d.rule, d.render)
    }

    #[test]
    fn a_page_without_scripts_is_never_rendered() {
        assert_eq!(
            rule("<body><div id=root></div></body>"),
            (RenderRule::NoScripts, false)
        );
    }

    #[test]
    fn a_data_island_is_read_not_rendered() {
        let html = r#"<body><div id=__next></div><script id="__NEXT_DATA__" type="application/json">{"a":1}</script></body>"#;
        assert_eq!(rule(html), (RenderRule::DataIsland, false));
    }

    #[test]
    fn a_thin_body_with_an_app_root_is_rendered() {
        let html = "<body><div id=app>Loading…</div><script src=app.js></script></body>";
        assert_eq!(rule(html), (RenderRule::ThinBodyAppRoot, true));
    }

    #[test]
    fn a_noscript_asking_for_javascript_is_rendered() {
        let html = "<body><noscript>Please enable JavaScript to view this site.</noscript><h1>Shop</h1><script></script></body>";
        assert_eq!(rule(html), (RenderRule::NoscriptAsksForJavascript, true));
    }

    #[test]
    fn a_nearly_empty_body_with_scripts_is_rendered() {
        assert_eq!(
            rule("<body><main></main><script>x()</script></body>"),
            (RenderRule::ThinBodyWithScripts, true)
        );
    }

    #[test]
    fn a_page_with_text_is_read_as_it_is() {
        let text = "Plenty of words in this article. ".repeat(20);
        let html = format!("<body><div id=root><p>{text}</p></div><script></script></body>");
        assert_eq!(rule(&html), (RenderRule::EnoughText, false));
    }

    #[test]
    fn an_empty_or_error_render_is_a_failure() {
        assert!(error_page("  ").is_some());
        assert!(error_page("Application error: a client-side exception has occurred").is_some());
        assert!(error_page("Widget A $3").is_none());
    }
}
