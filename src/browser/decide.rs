//! `render: auto`: whether a fetched page needs the browser, decided by an ordered table of
//! named rules over what the HTML holds (its visible text, data islands, app roots, scripts).

use scraper::{ElementRef, Html, Node};

use crate::events::{GrowDecision, GrowRule, RenderRule};

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

/// The marker of a control that reads "Load more" ([`LOAD_MORE_LABEL`]).
const LOAD_MORE_MARKER: &str = "load_more_control";

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

/// What a "Load more" style control reads (a JavaScript and a Rust regex alike, matched
/// case-insensitively): the one pattern for the controls a render clicks and for naming a
/// `browser.click` round `load_more`.
pub const LOAD_MORE_LABEL: &str =
    r"^\s*(load|show|see|view)\s+more\b|^\s*more\s+(results|items|products|posts|stories)\b";

/// Whether a control's text reads as "Load more" ([`LOAD_MORE_LABEL`]).
pub fn is_load_more(label: &str) -> bool {
    static RE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    #[allow(clippy::expect_used)]
    let re = RE
        .get_or_init(|| regex::Regex::new(&format!("(?i){LOAD_MORE_LABEL}")).expect("valid regex"));
    re.is_match(label)
}

/// Controls that load more of a list in place (a link to another page is pagination, not this).
const LOAD_MORE_CONTROLS: &str = "button, [role=button], input[type=button], a:not([href]), a[href^='#'], a[href^='javascript:']";

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
    if let Ok(controls) = scraper::Selector::parse(LOAD_MORE_CONTROLS)
        && document.select(&controls).any(|el| {
            let label = el
                .value()
                .attr("value")
                .map_or_else(|| el.text().collect::<String>(), str::to_owned);
            is_load_more(&label)
        })
    {
        markers.push(LOAD_MORE_MARKER.to_owned());
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

/// What is known of a page beyond its HTML, when the rules run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Known {
    /// An earlier page of the same host needed rendering ([`HostMemory`]).
    pub host_needed_rendering: bool,
    /// The page was read from its HTML and the planned tools found nothing on it.
    pub nothing_found: bool,
    /// The words want the page's list grown ([`growth`]).
    pub list_grows: bool,
}

/// One rule: its name and when it decides (`Some(render)`), or passes.
type Rule = (RenderRule, fn(&Evidence, Known) -> Option<bool>);

fn is_island(marker: &str) -> bool {
    DATA_ISLANDS.iter().any(|(_, name)| *name == marker) || marker == "__NUXT__"
}

/// The rules of `render: auto`, in order; the first that decides wins. What is known beyond
/// the HTML comes first: a plan that found nothing in the HTML outweighs a data island in it
/// (JSON-LD about the site is on most pages, the list may still be drawn by scripts).
const RULES: &[Rule] = &[
    (RenderRule::NoScripts, |e, _| {
        (e.scripts == 0).then_some(false)
    }),
    (RenderRule::NothingFoundWithScripts, |_, k| {
        k.nothing_found.then_some(true)
    }),
    (RenderRule::HostNeededRendering, |_, k| {
        k.host_needed_rendering.then_some(true)
    }),
    // A thin page is left to the thin rules below: their evidence says more.
    (RenderRule::LoadMoreControl, |e, k| {
        (k.list_grows
            && e.text_chars.unwrap_or(0) >= THIN_TEXT_CHARS
            && e.markers.iter().any(|m| m == LOAD_MORE_MARKER))
        .then_some(true)
    }),
    (RenderRule::DataIsland, |e, _| {
        e.markers.iter().any(|m| is_island(m)).then_some(false)
    }),
    (RenderRule::ThinBodyAppRoot, |e, _| {
        (e.text_chars.unwrap_or(usize::MAX) < THIN_TEXT_CHARS
            && e.markers
                .iter()
                .any(|m| APP_ROOTS.iter().any(|(_, name)| name == m)))
        .then_some(true)
    }),
    (RenderRule::NoscriptAsksForJavascript, |e, _| {
        (e.text_chars.unwrap_or(usize::MAX) < THIN_TEXT_CHARS * 3
            && e.markers
                .iter()
                .any(|m| m == "noscript_asks_for_javascript"))
        .then_some(true)
    }),
    (RenderRule::ThinBodyWithScripts, |e, _| {
        (e.text_chars.unwrap_or(usize::MAX) < THIN_TEXT_CHARS / 2).then_some(true)
    }),
    (RenderRule::EnoughText, |_, _| Some(false)),
];

/// Decides for `html` by the first rule of [`RULES`] that decides, knowing nothing else.
pub fn decide(html: &str) -> Decision {
    decide_on(evidence(html), Known::default())
}

/// Decides on evidence already read by [`evidence`] and what is `known` beyond it.
pub fn decide_on(evidence: Evidence, known: Known) -> Decision {
    for (rule, applies) in RULES {
        if let Some(render) = applies(&evidence, known) {
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

/// Hosts remembered at most by [`HostMemory`]: a few thousand sites a server scrapes in a day,
/// a few hundred KiB of names; the least recently used go first.
pub const HOSTS_REMEMBERED: usize = 10_000;

/// The hosts whose pages needed rendering, shared by every run of the server and bounded, so the
/// next page of such a host is rendered at once (rule `host_needed_rendering`).
#[derive(Debug)]
pub struct HostMemory {
    hosts: quick_cache::sync::Cache<String, ()>,
}

impl Default for HostMemory {
    fn default() -> Self {
        Self::with_capacity(HOSTS_REMEMBERED)
    }
}

impl HostMemory {
    /// A memory of at most `capacity` hosts.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            hosts: quick_cache::sync::Cache::new(capacity.max(1)),
        }
    }

    /// Remembers that a page of `host` needed rendering.
    pub fn needed_rendering(&self, host: &str) {
        if !host.is_empty() {
            self.hosts.insert(host.to_owned(), ());
        }
    }

    /// Whether a page of `host` needed rendering before.
    pub fn needs_rendering(&self, host: &str) -> bool {
        self.hosts.get(host).is_some()
    }
}

/// What the words ask of a page's list, read for [`growth`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wanted {
    /// Items wanted, when the words name a number ("the first 40", "up to 200").
    pub count: Option<usize>,
    /// The words say to keep loading ([`KEEP_LOADING`]).
    pub keep_loading: bool,
    /// The words ask for many items of a list ("all products", "every recipe").
    pub all_items: bool,
}

/// Words that say to keep a list loading, whatever it holds.
pub const KEEP_LOADING: &[&str] = &[
    "keep loading",
    "keep scrolling",
    "keep clicking",
    "load more",
    "load all",
    "load everything",
    "load them all",
    "show more",
    "scroll down",
    "scroll to the end",
    "scroll to the bottom",
    "infinite scroll",
    "until the end",
    "until it stops",
    "until there are no more",
];

/// Whether `words` say to keep a list loading (one of [`KEEP_LOADING`]).
pub fn says_keep_loading(words: &str) -> bool {
    let lower = words.to_lowercase();
    let lower = lower.split_whitespace().collect::<Vec<_>>().join(" ");
    KEEP_LOADING.iter().any(|cue| lower.contains(cue))
}

/// One rule of growth: its name and when it decides (`Some(grow)`), or passes.
type GrowRuleFn = (GrowRule, fn(&Wanted) -> Option<bool>);

/// The rules of growth, in order; the first that decides wins.
const GROW_RULES: &[GrowRuleFn] = &[
    (GrowRule::CountWanted, |w| w.count.map(|_| true)),
    (GrowRule::KeepLoading, |w| w.keep_loading.then_some(true)),
    (GrowRule::AllItems, |w| w.all_items.then_some(true)),
    (GrowRule::OneThing, |_| Some(false)),
];

/// Whether a rendered page's list is grown before it is read, by the first rule of
/// [`GROW_RULES`] that decides.
pub fn growth(wanted: &Wanted) -> GrowDecision {
    let (rule, grow) = GROW_RULES
        .iter()
        .find_map(|(rule, applies)| applies(wanted).map(|grow| (*rule, grow)))
        .unwrap_or((GrowRule::OneThing, false));
    GrowDecision {
        rule,
        grow,
        want: wanted.count.map(|n| n as u64),
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
    fn a_page_whose_plan_found_nothing_is_rendered_when_it_ships_scripts() {
        let text = "Plenty of words in this article. ".repeat(20);
        let html = format!(
            r#"<body><p>{text}</p><ul id=list></ul><script type="application/ld+json">{{}}</script><script>draw()</script></body>"#
        );
        let nothing_found = Known {
            nothing_found: true,
            ..Known::default()
        };
        let d = decide_on(evidence(&html), nothing_found);
        assert_eq!(
            (d.rule, d.render),
            (RenderRule::NothingFoundWithScripts, true)
        );
        // Without scripts there is nothing to render, found or not.
        let d = decide_on(
            evidence(&format!("<body><p>{text}</p></body>")),
            nothing_found,
        );
        assert_eq!((d.rule, d.render), (RenderRule::NoScripts, false));
    }

    #[test]
    fn a_load_more_control_is_rendered_when_the_words_want_the_list_grown() {
        let items = "<li>A served item with a few words of its own</li>".repeat(8);
        let html = format!(
            r#"<body><ul>{items}</ul><button type=button>Load more</button><script type="application/ld+json">{{}}</script><script>more()</script></body>"#
        );
        let grows = Known {
            list_grows: true,
            ..Known::default()
        };
        let d = decide_on(evidence(&html), grows);
        assert_eq!((d.rule, d.render), (RenderRule::LoadMoreControl, true));
        assert!(d.evidence.markers.contains(&LOAD_MORE_MARKER.to_owned()));
        // One thing wanted: the HTML is read as it is.
        assert_eq!(rule(&html), (RenderRule::DataIsland, false));
        // A "More results" link to another page is pagination, not a control of this page.
        let paged = format!(
            r#"<body><ul>{items}</ul><a href="/list?page=2">More results</a><script>x()</script></body>"#
        );
        let d = decide_on(evidence(&paged), grows);
        assert_eq!((d.rule, d.render), (RenderRule::EnoughText, false));
    }

    #[test]
    fn a_control_reads_as_load_more_or_not() {
        for label in [
            "Load more",
            "show more recipes",
            "  See More",
            "More results",
        ] {
            assert!(is_load_more(label), "{label}");
        }
        for label in [
            "Accept cookies",
            "Reviews",
            "Download more info",
            "Read more",
        ] {
            assert!(!is_load_more(label), "{label}");
        }
    }

    #[test]
    fn a_host_that_needed_rendering_is_rendered_at_once() {
        let text = "Plenty of words in this article. ".repeat(20);
        let html = format!("<body><p>{text}</p><script>x()</script></body>");
        let known = Known {
            host_needed_rendering: true,
            ..Known::default()
        };
        let d = decide_on(evidence(&html), known);
        assert_eq!((d.rule, d.render), (RenderRule::HostNeededRendering, true));
        assert_eq!(rule(&html), (RenderRule::EnoughText, false));
    }

    #[test]
    fn the_host_memory_remembers_and_is_bounded() {
        let memory = HostMemory::with_capacity(2);
        assert!(!memory.needs_rendering("shop.example"));
        memory.needed_rendering("shop.example");
        assert!(memory.needs_rendering("shop.example"));
        for n in 0..50 {
            memory.needed_rendering(&format!("host{n}.example"));
        }
        let kept = (0..50)
            .filter(|n| memory.needs_rendering(&format!("host{n}.example")))
            .count();
        assert!(kept <= 2, "{kept} hosts kept");
    }

    #[test]
    fn a_list_is_grown_for_a_count_for_every_item_or_when_told_and_not_for_one_thing() {
        let cases: [(Wanted, GrowRule, bool); 5] = [
            (
                Wanted {
                    count: Some(40),
                    ..Wanted::default()
                },
                GrowRule::CountWanted,
                true,
            ),
            (
                Wanted {
                    keep_loading: true,
                    ..Wanted::default()
                },
                GrowRule::KeepLoading,
                true,
            ),
            (
                Wanted {
                    all_items: true,
                    ..Wanted::default()
                },
                GrowRule::AllItems,
                true,
            ),
            (
                Wanted {
                    count: Some(12),
                    all_items: true,
                    keep_loading: true,
                },
                GrowRule::CountWanted,
                true,
            ),
            (Wanted::default(), GrowRule::OneThing, false),
        ];
        for (wanted, rule, grow) in cases {
            let decision = growth(&wanted);
            assert_eq!((decision.rule, decision.grow), (rule, grow), "{wanted:?}");
            assert_eq!(decision.want, wanted.count.map(|n| n as u64));
        }
    }

    #[test]
    fn an_empty_or_error_render_is_a_failure() {
        assert!(error_page("  ").is_some());
        assert!(error_page("Application error: a client-side exception has occurred").is_some());
        assert!(error_page("Widget A $3").is_none());
    }
}
