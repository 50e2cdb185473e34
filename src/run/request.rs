//! The scrape request: its wire form and its validation.

use std::sync::OnceLock;

use regex::Regex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use url::Url;

use crate::events::RenderMode;
use crate::output::OutputFormat;
use crate::settings::LimitSettings;
use crate::tools::ToolCall;
use crate::webhook::WebhookRequest;

/// Which planner a request asks for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PlannerChoice {
    /// The LLM planner when one is configured, else the heuristic planner.
    #[default]
    Auto,
    /// The deterministic heuristic planner.
    Heuristic,
    /// The LLM planner (an error when none is configured).
    Llm,
    /// The LLM reads the request's words into the intent (a small schema-bound call that sees
    /// no page text); the heuristic planner plans from it. The heuristic parser takes over,
    /// visibly, when the model fails. An error when no LLM is configured.
    LlmWords,
}

/// The JSON body of `POST /api/scrape/stream` and `POST /api/scrape`, and the arguments of the
/// MCP `scrape` tool (whose input schema is derived from this type).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// `urls` has a serde default (so a missing list gets the `no_urls` error, not a parse error),
// which would make it optional in the schema; clients should still be told to send it.
#[schemars(extend("required" = ["urls"]))]
pub struct ScrapeRequest {
    /// URLs to scrape, in order (http or https).
    #[serde(default, alias = "assets")]
    #[schemars(length(min = 1))]
    pub urls: Vec<String>,
    /// What the user wants, in plain words.
    #[serde(default)]
    pub instructions: String,
    /// `json` (default), `csv`, `markdown` or `text`.
    #[serde(default)]
    pub output_format: Option<String>,
    /// How to shape the output ("columns: title, url, points").
    #[serde(default)]
    pub output_instructions: Option<String>,
    /// Per-URL tool-call budget.
    #[serde(default)]
    pub max_steps: Option<u32>,
    /// Which planner to use.
    #[serde(default)]
    pub planner: PlannerChoice,
    /// Model for the LLM planner.
    #[serde(default)]
    pub model: Option<String>,
    /// An explicit plan; when given the planner is not asked.
    #[serde(default)]
    pub tools: Option<Vec<ToolCall>>,
    /// Client-chosen session id.
    #[serde(default)]
    pub session_id: Option<String>,
    /// Pages each URL may follow through its pagination, its own included (at most
    /// `limits.max_pages`); when absent the instructions decide ("the first 3 pages").
    #[serde(default)]
    pub max_pages: Option<u32>,
    /// Item pages each URL may open to read its records' details (at most
    /// `limits.max_detail_pages`); when absent the instructions decide ("from each product page").
    #[serde(default)]
    pub max_detail_pages: Option<u32>,
    /// Whether pages are rendered by the browser: `auto` (default) decides per page and says
    /// why in a `render` step, `never` reads the HTML only, `always` renders every page.
    #[serde(default)]
    pub render: RenderMode,
    /// Read the whole site from `urls` (seeds): pages found in sitemaps and links are each
    /// answered with the same instructions, keyed by page URL in `complete`.
    #[serde(default)]
    pub crawl: Option<super::crawl::CrawlOptions>,
    /// Where to POST the run's end (and, when asked, each URL's answer): a signed JSON body,
    /// sent from a durable outbox, retried with backoff. The URL must pass the same address
    /// guard as any page, and the server must have `webhooks.secret` set.
    #[serde(default)]
    pub webhook: Option<WebhookRequest>,
}

/// A request that passed validation (stored with its session as JSON, and read back from
/// there when another instance resumes the run).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ValidRequest {
    /// The URLs exactly as given (answers are keyed by these).
    pub urls: Vec<String>,
    /// Instructions (may be empty when an explicit plan is given).
    pub instructions: String,
    /// Output format.
    pub output_format: OutputFormat,
    /// Output instructions.
    pub output_instructions: Option<String>,
    /// Budget per URL.
    pub max_steps: u32,
    /// Planner choice.
    pub planner: PlannerChoice,
    /// Model name.
    pub model: Option<String>,
    /// Explicit plan.
    pub tools: Option<Vec<ToolCall>>,
    /// Session id (generated when not given).
    pub session_id: String,
    /// Pages per URL the request allows, when it says.
    pub max_pages: Option<u32>,
    /// Item pages per URL the request allows, when it says (0: none).
    pub max_detail_pages: Option<u32>,
    /// Whether pages are rendered by the browser.
    pub render: RenderMode,
    /// The crawl asked for (checked against `[crawl]` by `CrawlOptions::check`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crawl: Option<super::crawl::CrawlOptions>,
    /// Where the run's end is announced, when the request says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook: Option<WebhookRequest>,
    /// The id of the HTTP request that started the run, set by the handler.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

/// A request that cannot be run; becomes a 4xx JSON error.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejection {
    /// Machine-readable code.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
    /// Extra details (which URL, which limit).
    pub details: serde_json::Value,
}

impl Rejection {
    /// A rejection with its code, message and details.
    pub fn new(code: &'static str, message: impl Into<String>, details: serde_json::Value) -> Self {
        Self {
            code,
            message: message.into(),
            details,
        }
    }
}

/// Whether a session id is acceptable: `[A-Za-z0-9_-]{1,64}`.
pub fn valid_session_id(id: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    #[allow(clippy::expect_used)]
    RE.get_or_init(|| Regex::new(r"^[A-Za-z0-9_-]{1,64}$").expect("valid regex"))
        .is_match(id)
}

impl ScrapeRequest {
    /// A request for `urls` with `instructions` and every other field at its default (the
    /// planner and rendering on `auto`, the server's limits, no plan, no crawl).
    pub fn new(urls: Vec<String>, instructions: impl Into<String>) -> Self {
        Self {
            urls,
            instructions: instructions.into(),
            output_format: None,
            output_instructions: None,
            max_steps: None,
            planner: PlannerChoice::Auto,
            model: None,
            tools: None,
            session_id: None,
            max_pages: None,
            max_detail_pages: None,
            render: crate::events::RenderMode::Auto,
            crawl: None,
            webhook: None,
        }
    }

    /// Checks the request against the limits.
    ///
    /// # Errors
    /// The first problem found.
    pub fn validate(mut self, limits: &LimitSettings) -> Result<ValidRequest, Rejection> {
        if self.urls.is_empty() {
            return Err(Rejection::new(
                "no_urls",
                "`urls` must list at least one URL",
                json!(null),
            ));
        }
        if self.urls.len() > limits.max_urls_per_request {
            return Err(Rejection::new(
                "too_many_urls",
                format!(
                    "{} URLs given; at most {} are accepted per request",
                    self.urls.len(),
                    limits.max_urls_per_request
                ),
                json!({"given": self.urls.len(), "max": limits.max_urls_per_request}),
            ));
        }
        for (index, raw) in self.urls.iter_mut().enumerate() {
            match Url::parse(raw) {
                Ok(mut url) if matches!(url.scheme(), "http" | "https") && url.host().is_some() => {
                    // `user:pass@` would be kept in every event, the stored request and the
                    // session list; it is dropped here, before anything sees it, and never sent.
                    if !url.username().is_empty() || url.password().is_some() {
                        let _ = url.set_username("");
                        let _ = url.set_password(None);
                        *raw = url.to_string();
                    }
                }
                Ok(url) => {
                    return Err(Rejection::new(
                        "invalid_url",
                        format!("`{raw}` is not an http(s) URL (scheme `{}`)", url.scheme()),
                        json!({"url": raw, "index": index}),
                    ));
                }
                Err(err) => {
                    return Err(Rejection::new(
                        "invalid_url",
                        format!("`{raw}` is not a URL: {err}"),
                        json!({"url": raw, "index": index}),
                    ));
                }
            }
        }
        let mut seen = std::collections::HashSet::new();
        if let Some(dup) = self.urls.iter().find(|u| !seen.insert(u.as_str())) {
            return Err(Rejection::new(
                "duplicate_url",
                format!("`{dup}` is listed twice; answers are keyed by URL"),
                json!({"url": dup}),
            ));
        }
        let has_plan = self.tools.as_ref().is_some_and(|t| !t.is_empty());
        if self.instructions.trim().is_empty() && !has_plan {
            return Err(Rejection::new(
                "missing_instructions",
                "give `instructions` (what you want) or an explicit `tools` plan",
                json!(null),
            ));
        }
        let instruction_chars = self.instructions.chars().count();
        if instruction_chars > MAX_INSTRUCTION_CHARS {
            return Err(Rejection::new(
                "instructions_too_long",
                format!(
                    "`instructions` has {instruction_chars} characters; at most {MAX_INSTRUCTION_CHARS} are accepted"
                ),
                json!({"given": instruction_chars, "max": MAX_INSTRUCTION_CHARS}),
            ));
        }
        let output_format = match self.output_format.as_deref() {
            None => OutputFormat::Json,
            Some(name) => OutputFormat::parse(name).ok_or_else(|| {
                Rejection::new(
                    "invalid_output_format",
                    format!("unknown output_format `{name}`; use json, csv, markdown or text"),
                    json!({"given": name, "allowed": ["json", "csv", "markdown", "text"]}),
                )
            })?,
        };
        let max_steps = match self.max_steps {
            None => limits.default_max_steps,
            Some(0) => {
                return Err(Rejection::new(
                    "invalid_max_steps",
                    "`max_steps` must be at least 1",
                    json!(null),
                ));
            }
            Some(n) if n > limits.max_steps_cap => {
                return Err(Rejection::new(
                    "invalid_max_steps",
                    format!(
                        "`max_steps` is {n}; at most {} is allowed",
                        limits.max_steps_cap
                    ),
                    json!({"given": n, "max": limits.max_steps_cap}),
                ));
            }
            Some(n) => n,
        };
        let max_pages = match self.max_pages {
            Some(0) => {
                return Err(Rejection::new(
                    "invalid_max_pages",
                    "`max_pages` must be at least 1 (the URL's own page)",
                    json!(null),
                ));
            }
            Some(n) if n > limits.max_pages => {
                return Err(Rejection::new(
                    "invalid_max_pages",
                    format!(
                        "`max_pages` is {n}; at most {} is allowed",
                        limits.max_pages
                    ),
                    json!({"given": n, "max": limits.max_pages}),
                ));
            }
            other => other,
        };
        if let Some(n) = self.max_detail_pages
            && n > limits.max_detail_pages
        {
            return Err(Rejection::new(
                "invalid_max_detail_pages",
                format!(
                    "`max_detail_pages` is {n}; at most {} is allowed",
                    limits.max_detail_pages
                ),
                json!({"given": n, "max": limits.max_detail_pages}),
            ));
        }
        let webhook = self.webhook.map(check_webhook).transpose()?;
        let session_id = match self.session_id {
            Some(id) if !valid_session_id(&id) => {
                return Err(Rejection::new(
                    "invalid_session_id",
                    "`session_id` must match [A-Za-z0-9_-]{1,64}",
                    json!({"given": id}),
                ));
            }
            Some(id) => id,
            None => uuid::Uuid::new_v4().to_string(),
        };
        Ok(ValidRequest {
            urls: self.urls,
            instructions: self.instructions,
            output_format,
            output_instructions: self.output_instructions.filter(|s| !s.trim().is_empty()),
            max_steps,
            planner: self.planner,
            model: self.model.filter(|m| !m.trim().is_empty()),
            tools: self.tools.filter(|t| !t.is_empty()),
            session_id,
            max_pages,
            max_detail_pages: self.max_detail_pages,
            render: self.render,
            crawl: self.crawl,
            webhook,
            request_id: None,
        })
    }
}

/// A webhook's URL is an http(s) URL with a host and no credentials (deliveries are signed; a
/// password in it would be stored with the request and shown with the session), and it
/// announces at least one event, each once. Its address is checked by the fetcher's guard when
/// the run starts.
fn check_webhook(mut hook: WebhookRequest) -> Result<WebhookRequest, Rejection> {
    let invalid = |message: String| {
        Rejection::new("invalid_webhook", message, json!({"url": hook.url.clone()}))
    };
    match Url::parse(&hook.url) {
        Ok(url) if !matches!(url.scheme(), "http" | "https") || url.host().is_none() => {
            return Err(invalid(format!(
                "webhook `{}` is not an http(s) URL with a host",
                hook.url
            )));
        }
        Ok(url) if !url.username().is_empty() || url.password().is_some() => {
            return Err(invalid(
                "the webhook URL carries credentials; leave them out (every delivery is signed \
                 with webhooks.secret)"
                    .into(),
            ));
        }
        Ok(_) => {}
        Err(err) => {
            return Err(invalid(format!(
                "webhook `{}` is not a URL: {err}",
                hook.url
            )));
        }
    }
    if hook.events.is_empty() {
        return Err(invalid(
            "`webhook.events` lists nothing to announce; give `complete`, `url_complete` or both"
                .into(),
        ));
    }
    let mut seen = std::collections::HashSet::new();
    hook.events.retain(|event| seen.insert(*event));
    Ok(hook)
}

/// Characters of `instructions` accepted (what a person writes is far shorter; a page of text
/// pasted as instructions is a mistake worth saying).
pub const MAX_INSTRUCTION_CHARS: usize = 10_000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    fn check(body: serde_json::Value) -> Result<ValidRequest, Rejection> {
        serde_json::from_value::<ScrapeRequest>(body)
            .unwrap()
            .validate(&Settings::defaults().limits)
    }

    #[test]
    fn rejects_each_bad_input_with_its_code() {
        let code = |body| check(body).unwrap_err().code;
        assert_eq!(code(json!({"urls": [], "instructions": "x"})), "no_urls");
        assert_eq!(
            code(json!({"urls": ["ftp://a.b/"], "instructions": "x"})),
            "invalid_url"
        );
        assert_eq!(
            code(json!({"urls": ["not a url"], "instructions": "x"})),
            "invalid_url"
        );
        assert_eq!(
            code(json!({"urls": ["https://a.b/"]})),
            "missing_instructions"
        );
        assert_eq!(
            code(json!({"urls": ["https://a.b/"], "instructions": "x", "output_format": "xml"})),
            "invalid_output_format"
        );
        assert_eq!(
            code(json!({"urls": ["https://a.b/"], "instructions": "x", "session_id": "a b"})),
            "invalid_session_id"
        );
        assert_eq!(
            code(json!({"urls": ["https://a.b/"], "instructions": "x", "max_pages": 0})),
            "invalid_max_pages"
        );
        assert_eq!(
            code(json!({"urls": ["https://a.b/"], "instructions": "x", "max_pages": 21})),
            "invalid_max_pages"
        );
        assert_eq!(
            code(json!({"urls": ["https://a.b/"], "instructions": "x", "max_detail_pages": 101})),
            "invalid_max_detail_pages"
        );
        assert_eq!(
            code(json!({"urls": ["https://a.b/"], "instructions": "x",
                "webhook": {"url": "ftp://hook.example/"}})),
            "invalid_webhook"
        );
        assert_eq!(
            code(json!({"urls": ["https://a.b/"], "instructions": "x",
                "webhook": {"url": "https://u:p@hook.example/"}})),
            "invalid_webhook"
        );
        assert_eq!(
            code(json!({"urls": ["https://a.b/"], "instructions": "x",
                "webhook": {"url": "https://hook.example/", "events": []}})),
            "invalid_webhook"
        );
        let many: Vec<String> = (0..51).map(|i| format!("https://a.b/{i}")).collect();
        assert_eq!(
            code(json!({"urls": many, "instructions": "x"})),
            "too_many_urls"
        );
    }

    #[test]
    fn credentials_in_urls_are_dropped_and_instructions_are_counted_in_characters() {
        let ok = check(
            json!({"urls": ["https://ann:s3cret@a.b/x?q=1", "https://a.b"], "instructions": "x"}),
        )
        .unwrap();
        assert_eq!(ok.urls, vec!["https://a.b/x?q=1", "https://a.b"]);
        let wide = "é".repeat(MAX_INSTRUCTION_CHARS);
        assert!(check(json!({"urls": ["https://a.b/"], "instructions": wide})).is_ok());
        let over = "é".repeat(MAX_INSTRUCTION_CHARS + 1);
        let refused = check(json!({"urls": ["https://a.b/"], "instructions": over})).unwrap_err();
        assert_eq!(refused.code, "instructions_too_long");
        assert_eq!(refused.details["given"], MAX_INSTRUCTION_CHARS + 1);
    }

    #[test]
    fn accepts_assets_alias_and_explicit_plan() {
        let ok = check(json!({"assets": ["https://a.b/"], "tools": [{"tool": "html.select", "params": {"selector": "a"}}]})).unwrap();
        assert_eq!(ok.urls, vec!["https://a.b/"]);
        assert_eq!(ok.max_steps, 20);
        assert_eq!(ok.tools.unwrap()[0].tool, "html.select");
    }
}
