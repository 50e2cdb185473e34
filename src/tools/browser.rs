//! `browser.*`: tools that work on the page in the server's headless browser — render it (and
//! wait for it), click in it, scroll it, photograph it. They are in the one registry with the
//! others (same catalog, same schema checks, same `tool_call` steps), but they cannot run over a
//! parsed page alone: the run executes them on its [`Tab`] ([`execute`]) and hands the page the
//! browser then shows to the page worker, so the tools after them read the rendered DOM.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::registry::{Tool, ToolError, ToolParams};
use crate::browser::{RenderError, Round, Screenshot, Tab, Target, Until, Wait};
use crate::settings::BrowserSettings;

/// The `browser` namespace, in catalog order.
pub fn tools() -> Vec<Tool> {
    vec![
        Tool::browser::<RenderParams>(
            "Renders the page in the headless browser (its scripts run; every request goes through the address guard) and waits for `wait`: the load event and a quiet page (`load`, the default), no new request for half a second (`network_idle`), an element matching `selector`, or `ms` milliseconds. The tools after it read the rendered page.",
            "{url, requests, bytes, refused (requests the address guard refused)}; fails with the reason when the page does not render or the wait times out (browser.timeout_secs).",
        ),
        Tool::browser::<ClickParams>(
            "Clicks, in the rendered page, the visible control whose text is `text` (a “Load more” button, a tab, a cookie banner's “Accept”; equal ignoring case, else the first containing it) or the first visible element matching `selector`, then waits for the page to settle. Renders the page first when it is not yet.",
            "{control (what it reads), elements_before, elements_after, items (of the page's longest list)}; fails when nothing visible matches.",
        ),
        Tool::browser::<ScrollParams>(
            "Scrolls the rendered page to its end, round after round, until a round adds nothing, the page's longest list holds `count` items, or browser.max_grow_rounds rounds (or `max_rounds`). Each round is a `navigate` step of kind `scroll`.",
            "{rounds, elements, items (of the page's longest list)}.",
        ),
        Tool::browser::<ScreenshotParams>(
            "A PNG of the rendered page (the viewport, or the whole page with `full_page`, at most browser.screenshot_max_height pixels high), kept with the session and served at the `url` it returns; over browser.screenshot_max_bytes it is taken again at half the scale.",
            "{url (GET it for the PNG), bytes, width, height, scale}.",
        ),
    ]
}

/// What `browser.render` waits for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WaitFor {
    /// The load event, then no change in the page for a second.
    #[default]
    Load,
    /// As `load`, and no new request for half a second.
    NetworkIdle,
    /// An element matching `selector`.
    Selector,
    /// `ms` milliseconds.
    Ms,
}

/// Params of `browser.render`.
#[derive(Debug, Default, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenderParams {
    /// What to wait for before the page is read.
    #[serde(default)]
    pub wait: WaitFor,
    /// The CSS selector to wait for (`wait: selector`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<String>,
    /// Milliseconds to wait (`wait: ms`), within browser.timeout_secs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub ms: Option<u64>,
}

impl ToolParams for RenderParams {
    const TOOL: &'static str = "browser.render";
}

/// Params of `browser.click`: `text` or `selector`, one of them.
#[derive(Debug, Default, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClickParams {
    /// The visible text of the control (“Load more”, a tab's name, “Accept”).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub text: Option<String>,
    /// A CSS selector of the element.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub selector: Option<String>,
}

impl ToolParams for ClickParams {
    const TOOL: &'static str = "browser.click";
}

/// Params of `browser.scroll`.
#[derive(Debug, Default, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScrollParams {
    /// Stop once the page's longest list holds this many items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub count: Option<u64>,
    /// Rounds at most (browser.max_grow_rounds when absent, and never more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_rounds: Option<u32>,
}

impl ToolParams for ScrollParams {
    const TOOL: &'static str = "browser.scroll";
}

/// Params of `browser.screenshot`.
#[derive(Debug, Default, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScreenshotParams {
    /// The whole page (down to browser.screenshot_max_height) instead of the viewport.
    #[serde(default)]
    pub full_page: bool,
}

impl ToolParams for ScreenshotParams {
    const TOOL: &'static str = "browser.screenshot";
}

/// A checked call of a browser tool, as the run executes it.
#[derive(Debug, Clone)]
pub enum BrowserCall {
    /// `browser.render`.
    Render(Wait),
    /// `browser.click`.
    Click(Target),
    /// `browser.scroll`.
    Scroll {
        /// When to stop.
        until: Until,
        /// Rounds at most (before the setting's cap).
        max_rounds: Option<u32>,
    },
    /// `browser.screenshot`.
    Screenshot {
        /// The whole page.
        full_page: bool,
    },
}

impl BrowserCall {
    /// The call of `tool` with `params` (already checked against its schema).
    ///
    /// # Errors
    /// [`ToolError::InvalidParams`] for what the schema cannot say: a wait without its
    /// selector or time, a click naming both or neither, a selector that is not CSS.
    pub fn parse(tool: &str, params: serde_json::Value) -> Result<Self, ToolError> {
        let invalid = |why: String| ToolError::InvalidParams(format!("{tool}: {why}"));
        let typed = |e: serde_json::Error| invalid(e.to_string());
        let css = |selector: &str| -> Result<(), ToolError> {
            crate::page::dom::parse_selector(selector)
                .map(|_| ())
                .map_err(&invalid)
        };
        match tool {
            RenderParams::TOOL => {
                let p: RenderParams = serde_json::from_value(params).map_err(typed)?;
                let wait = match (p.wait, p.selector, p.ms) {
                    (WaitFor::Load, None, None) => Wait::Load,
                    (WaitFor::NetworkIdle, None, None) => Wait::NetworkIdle,
                    (WaitFor::Selector, Some(selector), None) => {
                        css(&selector)?;
                        Wait::Selector(selector)
                    }
                    (WaitFor::Ms, None, Some(ms)) => Wait::Time(ms),
                    (WaitFor::Selector, None, _) => {
                        return Err(invalid("`wait: selector` needs `selector`".into()));
                    }
                    (WaitFor::Ms, _, None) => return Err(invalid("`wait: ms` needs `ms`".into())),
                    _ => {
                        return Err(invalid(
                            "`selector` goes with `wait: selector` and `ms` with `wait: ms`".into(),
                        ));
                    }
                };
                Ok(Self::Render(wait))
            }
            ClickParams::TOOL => {
                let p: ClickParams = serde_json::from_value(params).map_err(typed)?;
                match (p.text, p.selector) {
                    (Some(text), None) => Ok(Self::Click(Target::Text(text))),
                    (None, Some(selector)) => {
                        css(&selector)?;
                        Ok(Self::Click(Target::Selector(selector)))
                    }
                    _ => Err(invalid("give `text` or `selector`, one of them".into())),
                }
            }
            ScrollParams::TOOL => {
                let p: ScrollParams = serde_json::from_value(params).map_err(typed)?;
                Ok(Self::Scroll {
                    until: p.count.map_or(Until::Still, Until::Count),
                    max_rounds: p.max_rounds,
                })
            }
            ScreenshotParams::TOOL => {
                let p: ScreenshotParams = serde_json::from_value(params).map_err(typed)?;
                Ok(Self::Screenshot {
                    full_page: p.full_page,
                })
            }
            other => Err(ToolError::Unknown(other.to_owned())),
        }
    }
}

/// What `browser.render` gives.
#[derive(Debug, Clone, Serialize)]
pub struct Rendered {
    /// The page's address in the browser.
    pub url: String,
    /// Requests the page made so far (the document included).
    pub requests: u32,
    /// Bytes it received through the guarded proxy.
    pub bytes: u64,
    /// Requests the address guard refused, each as `host: why`.
    pub refused: Vec<String>,
}

/// What `browser.click` gives.
#[derive(Debug, Clone, Serialize)]
pub struct Clicked {
    /// What the control clicked reads.
    pub control: String,
    /// Elements in the page before the click.
    pub elements_before: u64,
    /// Elements once the page settled.
    pub elements_after: u64,
    /// Items of the page's longest list once it settled.
    pub items: u64,
}

/// What `browser.scroll` gives.
#[derive(Debug, Clone, Serialize)]
pub struct Scrolled {
    /// Rounds scrolled.
    pub rounds: usize,
    /// Elements in the page at the end.
    pub elements: u64,
    /// Items of the page's longest list at the end.
    pub items: u64,
}

/// What `browser.screenshot` gives.
#[derive(Debug, Clone, Serialize)]
pub struct Shot {
    /// Where the PNG is served (filled in by the run, which stores it).
    pub url: String,
    /// Its size.
    pub bytes: usize,
    /// CSS pixels covered.
    pub width: u64,
    /// CSS pixels covered.
    pub height: u64,
    /// The scale it was taken at.
    pub scale: f64,
}

/// What a browser tool did.
#[derive(Debug)]
pub enum Done {
    /// The page was rendered; its DOM is read next.
    Rendered(Rendered, String),
    /// A control was clicked; the page's DOM is read next.
    Clicked(Clicked, Round, String),
    /// The page was scrolled; its DOM is read next.
    Scrolled(Scrolled, Vec<Round>, String),
    /// The page was photographed (it did not change).
    Screenshot(Screenshot),
}

fn failed(tool: &str, err: &RenderError) -> ToolError {
    ToolError::Failed(format!("{tool}: {err}"))
}

/// Executes `call` on `tab` (the run opened it on the URL's page).
///
/// # Errors
/// [`ToolError::Failed`] with the browser's reason (a click that found nothing, a wait that
/// timed out, a page that failed).
pub async fn execute(
    call: &BrowserCall,
    tab: &mut Tab,
    settings: &BrowserSettings,
) -> Result<Done, ToolError> {
    match call {
        BrowserCall::Render(wait) => {
            let tool = RenderParams::TOOL;
            tab.wait(wait).await.map_err(|e| failed(tool, &e))?;
            let html = tab.html().await.map_err(|e| failed(tool, &e))?;
            let traffic = tab.traffic().await;
            Ok(Done::Rendered(
                Rendered {
                    url: tab.url().await.map_err(|e| failed(tool, &e))?,
                    requests: traffic.requests,
                    bytes: traffic.bytes,
                    refused: traffic.refused,
                },
                html,
            ))
        }
        BrowserCall::Click(target) => {
            let tool = ClickParams::TOOL;
            let round = tab.click(target).await.map_err(|e| failed(tool, &e))?;
            let html = tab.html().await.map_err(|e| failed(tool, &e))?;
            Ok(Done::Clicked(
                Clicked {
                    control: round.control.clone().unwrap_or_default(),
                    elements_before: round.elements_before,
                    elements_after: round.elements_after,
                    items: round.items,
                },
                round,
                html,
            ))
        }
        BrowserCall::Scroll { until, max_rounds } => {
            let tool = ScrollParams::TOOL;
            let rounds = max_rounds.map_or(settings.max_grow_rounds, |n| {
                n.min(settings.max_grow_rounds)
            });
            let rounds = tab
                .scroll(*until, rounds)
                .await
                .map_err(|e| failed(tool, &e))?;
            let html = tab.html().await.map_err(|e| failed(tool, &e))?;
            Ok(Done::Scrolled(
                Scrolled {
                    rounds: rounds.len(),
                    elements: rounds.last().map_or(0, |r| r.elements_after),
                    items: rounds.last().map_or(0, |r| r.items),
                },
                rounds,
                html,
            ))
        }
        BrowserCall::Screenshot { full_page } => {
            let shot = tab
                .screenshot(
                    *full_page,
                    settings.screenshot_max_height,
                    settings.screenshot_max_bytes,
                )
                .await
                .map_err(|e| failed(ScreenshotParams::TOOL, &e))?;
            Ok(Done::Screenshot(shot))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn calls_the_schema_cannot_refuse_are_refused_with_the_reason() {
        let bad = [
            (
                "browser.render",
                json!({"wait": "selector"}),
                "needs `selector`",
            ),
            ("browser.render", json!({"wait": "ms"}), "needs `ms`"),
            ("browser.render", json!({"ms": 5}), "`ms` with `wait: ms`"),
            (
                "browser.render",
                json!({"wait": "selector", "selector": "div[["}),
                "browser.render",
            ),
            ("browser.click", json!({}), "one of them"),
            (
                "browser.click",
                json!({"text": "a", "selector": "b"}),
                "one of them",
            ),
        ];
        for (tool, params, why) in bad {
            let err = BrowserCall::parse(tool, params.clone()).unwrap_err();
            assert!(
                matches!(&err, ToolError::InvalidParams(m) if m.contains(why)),
                "{tool} {params}: {err}"
            );
        }
        assert!(matches!(
            BrowserCall::parse("browser.render", json!({"wait": "selector", "selector": "#list li"})),
            Ok(BrowserCall::Render(Wait::Selector(s))) if s == "#list li"
        ));
        assert!(matches!(
            BrowserCall::parse("browser.click", json!({"text": "Load more"})),
            Ok(BrowserCall::Click(Target::Text(t))) if t == "Load more"
        ));
        assert!(matches!(
            BrowserCall::parse("browser.scroll", json!({"count": 12})),
            Ok(BrowserCall::Scroll {
                until: Until::Count(12),
                max_rounds: None
            })
        ));
    }
}
