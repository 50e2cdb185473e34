//! The payload of `step` events: one variant per action, each with its own details.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{ErrorCode, StepStatus};

/// The payload of a `step` event (the seed's `ScrapeStep`).
///
/// `action` and `extracted_data` come from [`StepPayload`], so a step's details always match
/// its action; on the wire they are the plain fields `action` and `extracted_data`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ScrapeStep {
    /// Monotonic and unique within the session.
    pub step_number: u64,
    /// The action and its structured details.
    #[serde(flatten)]
    pub payload: StepPayload,
    /// The URL this step works on, when there is one.
    pub url: Option<String>,
    /// Runtime state.
    pub status: StepStatus,
    /// Short summary for humans; consumers read the structured fields instead.
    pub message: String,
    /// Reward delta of this step (see README, "Rewards").
    pub reward: f64,
    /// Elapsed time of the step, when measured.
    pub duration_ms: Option<u64>,
    /// UTC ISO-8601 time the step was emitted.
    pub timestamp: String,
}

impl ScrapeStep {
    /// The step's action name (`fetch`, `agent_decision`, …).
    pub fn action(&self) -> &'static str {
        self.payload.action()
    }
}

/// What a step did, tagged by `action`; the details are the step's `extracted_data`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "action", content = "extracted_data", rename_all = "snake_case")]
#[non_exhaustive]
#[expect(
    clippy::large_enum_variant,
    reason = "a step lives for one emit; boxing the tool call would only add an allocation"
)]
pub enum StepPayload {
    /// A page was fetched (or the fetch failed).
    Fetch(FetchDetails),
    /// The planner chose tools (`status: running` while an LLM's choice is still streaming).
    AgentDecision(DecisionDetails),
    /// A tool ran (or was skipped).
    ToolCall(ToolCallDetails),
    /// The chosen planner failed and the fallback planner took over.
    PlannerFallback(FallbackDetails),
    /// The run follows a link beyond the URL's own page (the next page of its list, an
    /// item's own page), or says why it stopped following.
    Navigate(NavigateDetails),
    /// Whether the page is rendered by the browser, why, and what the render did.
    Render(RenderDetails),
    /// The answer for one URL.
    Output(OutputDetails),
    /// The run was taken over by this instance and goes on from its first URL without a
    /// stored answer.
    Resume(ResumeDetails),
}

impl StepPayload {
    /// The wire name of the action.
    pub fn action(&self) -> &'static str {
        match self {
            Self::Fetch(_) => "fetch",
            Self::AgentDecision(_) => "agent_decision",
            Self::ToolCall(_) => "tool_call",
            Self::PlannerFallback(_) => "planner_fallback",
            Self::Navigate(_) => "navigate",
            Self::Render(_) => "render",
            Self::Output(_) => "output",
            Self::Resume(_) => "resume",
        }
    }
}

/// `fetch` details: what came back, or why nothing did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum FetchDetails {
    /// The page arrived.
    Fetched(FetchSuccess),
    /// The fetch failed.
    Failed(FetchFailure),
}

/// A fetched page as reported in a `fetch` step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FetchSuccess {
    /// HTTP status.
    pub status: u16,
    /// The URL after redirects.
    pub final_url: String,
    /// The response's content type.
    pub content_type: String,
    /// Body bytes received.
    pub bytes: u64,
    /// The charset the body was decoded from.
    pub encoding: String,
    /// Redirect hops followed, in order.
    pub redirects: Vec<String>,
    /// Attempts made (retries of transient failures count).
    pub attempts: u32,
}

/// A failed fetch as reported in a `fetch` step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FetchFailure {
    /// Why it failed.
    pub error: String,
    /// The typed code, as in the `error` event that follows.
    pub code: ErrorCode,
}

/// A tool call chosen by a planner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PlannedCall {
    /// `namespace.action`.
    pub tool: String,
    /// Parameters.
    pub params: Value,
    /// Why the planner chose it.
    pub reasoning: String,
}

/// A tool call still streaming in from the LLM planner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DraftedCall {
    /// Tool name, once known.
    pub tool: Option<String>,
    /// Parameters, once the arguments so far form valid JSON.
    pub params: Option<Value>,
    /// Argument text received so far, cut to `llm.max_draft_chars`.
    pub arguments: String,
    /// Whole length of the argument text, present when `arguments` was cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments_chars: Option<usize>,
}

/// `agent_decision` details: a final decision, or a partial one while it streams.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum DecisionDetails {
    /// The planner's decision for a round.
    Final(Decision),
    /// What the LLM planner has chosen so far (`status: running`).
    Partial(PartialDecision),
}

/// A planner's final decision for one round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Decision {
    /// The calls to run, in order.
    pub tool_calls: Vec<PlannedCall>,
    /// Which planner decided (`heuristic`, `llm`, `client`).
    pub planner: String,
    /// The round within the URL, from 0.
    pub round: u32,
    /// Whether the planner expects the answer to be complete after these calls.
    pub done: bool,
    /// Visible notes (e.g. calls dropped for failing their schema).
    pub notes: Vec<String>,
    /// LLM tokens this round cost (prompt, completion); absent for planners without tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<TokenUsage>,
    /// The request as understood, the one value every planner round, the run's navigation
    /// and the answer's named fields read; absent on a client's own plan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intent: Option<Box<UnderstoodRequest>>,
}

/// What the request asks for, as understood from its words (issue #30): shown so a user can
/// see why the planner chose what it chose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UnderstoodRequest {
    /// The kind of answer: `list`, `main_content`, `markdown`, `product`, `metadata`,
    /// `links`, `tables`, `contacts`, `prices`, `dates`, `images`, `code`.
    pub kind: String,
    /// The fields named, in order.
    pub fields: Vec<UnderstoodField>,
    /// How many items, when a number was given ("top 10", "a dozen").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    /// The order asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort: Option<UnderstoodSort>,
    /// Bounds on the items' values ("under $20": `{"by": "price", "op": "below", "value":
    /// 20}`); items outside them are left out of the answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bounds: Vec<UnderstoodBound>,
    /// Words the items must hold ("posts by alicew": `{"by": "author", "contains": "alicew",
    /// "rule": "posted_by"}`); items without them are left out of the answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub matches: Vec<UnderstoodMatch>,
    /// Words that may be a value the items are chosen by ("the professors": `{"phrase":
    /// "professors"}`); the page decides: the items whose column holds that whole value are
    /// kept, when some have it and some not, and words no item has choose nothing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<UnderstoodValue>,
    /// Whether the words ask for many things (a list noun, a count, "each", "every", "all").
    pub many: bool,
    /// Whether every list on the page was asked for, not only the main one.
    pub all_lists: bool,
    /// Pages of the list to read, its own included (1: only the page given).
    pub max_pages: u32,
    /// Items to collect across pages, when the words name a goal ("up to 200").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<usize>,
    /// Fields to read on each item's own page, when the words ask to open them (empty list:
    /// every labelled value there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_pages: Option<Vec<String>>,
    /// The words the plan was made from, after the lexicon ("who wrote it" → "the author").
    pub read_as: String,
    /// Who read the words: `heuristic` (the parser and its lexicon) or `llm` (`planner:
    /// llm_words`).
    pub read_by: String,
}

/// A field of the request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UnderstoodField {
    /// Its key in the answer (the user's own word where the parser keeps it).
    pub name: String,
    /// What part of an item it means: `title`, `url`, `price`, `date`, `author`, `score`,
    /// `comments`, `image`, `description`, or `text` for a name no role word means.
    pub role: String,
    /// Added to name the items, not named by the user.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub implied: bool,
}

/// An order asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UnderstoodSort {
    /// The part of an item ordered by.
    pub by: String,
    /// Highest first.
    pub descending: bool,
}

/// A bound on a value of each item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UnderstoodBound {
    /// The field bounded.
    pub by: String,
    /// `below`, `at_most`, `above`, `at_least` or `holds` (a range of counts holds it).
    pub op: String,
    /// The amount, in the unit the page shows; for a date, the seconds back from now.
    pub value: serde_json::Number,
    /// For a date, the moment the items are since, as people write it ("24 hours ago").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
}

/// Words each item must hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UnderstoodMatch {
    /// The field that must hold them.
    pub by: String,
    /// The words (compared case-insensitively).
    pub contains: String,
    /// The rule that read them: `quoted_in_title`, `mentioning`, `posted_by`, `from_site`.
    pub rule: String,
}

/// Words that may be a value of the items.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct UnderstoodValue {
    /// The words, as the parser read them.
    pub phrase: String,
    /// The items without that value are wanted ("posts that aren't pinned").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub negated: bool,
}

/// Tokens spent by an LLM call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TokenUsage {
    /// Prompt tokens.
    pub prompt_tokens: u64,
    /// Completion tokens.
    pub completion_tokens: u64,
}

/// What a streaming planner has chosen so far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PartialDecision {
    /// The calls as they stand.
    pub tool_calls: Vec<DraftedCall>,
    /// Which planner is deciding.
    pub planner: String,
    /// Always true: tells a partial decision from a final one.
    pub partial: bool,
}

/// `tool_call` details: both consumer patterns of the seed (`tool` and `tool_name`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ToolCallDetails {
    /// `namespace.action`.
    pub tool: String,
    /// The same, for consumers that read `tool_name`.
    pub tool_name: String,
    /// The tool's one-line description (absent on skipped calls).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_description: Option<String>,
    /// The parameters it was called with.
    pub parameters: Value,
    /// Why the planner chose it (absent on skipped calls).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    /// Whether it succeeded.
    pub success: bool,
    /// Items in its result (absent on skipped calls).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<usize>,
    /// A compact one-line rendering of the result.
    pub result_preview: Option<String>,
    /// The result, bounded by `limits.max_step_result_bytes`.
    pub result: Value,
    /// Whether `result` was cut to that bound (absent on skipped calls).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_truncated: Option<bool>,
    /// Why it failed.
    pub error: Option<String>,
    /// How long it ran.
    pub duration_ms: Option<u64>,
    /// How the tool decided, when it says (e.g. `extract.records`: the list it chose, its
    /// columns and where their names came from, the lists it passed over).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Value>,
}

/// `planner_fallback` details.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FallbackDetails {
    /// The planner that failed.
    pub from: String,
    /// The planner used instead.
    pub to: String,
    /// Why the first one failed.
    pub reason: String,
}

/// `resume` details: who took the run over, from whom, and why it was free to take.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ResumeDetails {
    /// The instance that resumed the run (its id as a session owner).
    pub instance: String,
    /// The instance that ran it before, when known.
    pub previous_instance: Option<String>,
    /// Why the run was free to take.
    pub reason: ResumeReason,
    /// Which claim of the run this is (its start was the first).
    pub attempt: u32,
    /// The lease epoch this instance writes under.
    pub epoch: u64,
    /// URLs whose answers were stored before the takeover (not worked on again).
    pub urls_answered: usize,
    /// URLs still to do.
    pub urls_left: usize,
}

/// Why a run's lease was free to claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ResumeReason {
    /// Its holder stopped renewing it (a crash, a lost connection) and it expired.
    LeaseExpired,
    /// Its holder handed it back while shutting down.
    HandedBack,
    /// The server was started again on the SQLite file whose previous server died while the
    /// run was going (one server per file: nobody else could have resumed it).
    Restarted,
}

impl ResumeReason {
    /// The reason in words, for the step's message.
    pub fn describe(self) -> &'static str {
        match self {
            Self::LeaseExpired => "its lease expired (the instance running it stopped renewing)",
            Self::HandedBack => "the instance running it handed it back while shutting down",
            Self::Restarted => "the server running it stopped and was started again",
        }
    }
}

/// `navigate` details, tagged by `kind`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NavigateDetails {
    /// The next page of the list is fetched next.
    NextPage(NextPageLink),
    /// One record's own page is fetched next.
    DetailPage(DetailPageLink),
    /// Following ended, and why.
    Stop(NavigateStop),
    /// The browser clicked a "Load more" control and the page grew (or stopped growing).
    LoadMore(GrowRound),
    /// The browser clicked another control `browser.click` named (a tab, a cookie banner).
    Click(GrowRound),
    /// The browser scrolled to the end of the page and it grew (or stopped growing).
    Scroll(GrowRound),
    /// A crawl reads a page it discovered next.
    Crawl(CrawlPage),
    /// A crawl left a page out by a trap rule (the first time each rule fires), or did not
    /// answer a page it read (the same content again).
    CrawlSkip(CrawlSkip),
    /// The crawl ended, and why.
    CrawlEnd(CrawlEnd),
}

/// Where a crawled or mapped URL was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FoundBy {
    /// A URL of the request (a seed).
    Seed,
    /// A sitemap of the site.
    Sitemap,
    /// A link on a page read.
    Link,
}

/// A page a crawl discovered and reads next.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CrawlPage {
    /// The page (normalised).
    pub to: String,
    /// Links from the nearest seed (sitemap pages count as 1).
    pub depth: u32,
    /// The page whose link led here (absent for sitemap pages).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found_on: Option<String>,
    /// How it was found.
    pub found_by: FoundBy,
}

/// A URL a crawl or map left out, and the rule that did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CrawlSkip {
    /// The URL left out.
    pub url: String,
    /// The rule.
    pub rule: SkipRule,
    /// The page the link was on, or (for `duplicate_content`) the page read first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub found_on: Option<String>,
}

/// Why a URL is not walked.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum SkipRule {
    /// Not http(s).
    NotHttp,
    /// Another site (or a subdomain, without `allow_subdomains`).
    OffSite,
    /// The path matches none of the `include` patterns.
    NotIncluded,
    /// The path matches an `exclude` pattern.
    Excluded,
    /// robots.txt disallows it for our user agent.
    Robots,
    /// Seen already (the same page in its normal form, or its canonical URL).
    Duplicate,
    /// A trap: the same path segment again and again (relative links that loop).
    RepeatingPath,
    /// A trap: a query string that keeps growing (too many or repeated parameters).
    GrowingQuery,
    /// A trap: a calendar (more dated variants of one page than a walk reads).
    Calendar,
    /// A trap: the same content as a page read already, under another URL.
    DuplicateContent,
    /// Deeper than `max_depth` links from a seed.
    TooDeep,
    /// The frontier is full (`crawl.max_frontier` in memory and `crawl.max_spilled` in the
    /// store).
    FrontierFull,
}

impl SkipRule {
    /// Whether the rule names a trap (shown in the stream the first time it fires).
    pub fn is_trap(self) -> bool {
        matches!(
            self,
            Self::RepeatingPath | Self::GrowingQuery | Self::Calendar | Self::DuplicateContent
        )
    }
}

/// Why a crawl ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum CrawlEndRule {
    /// `max_pages` pages were read.
    MaxPages,
    /// No page in scope was left to read.
    SiteExhausted,
    /// The run stopped (cancelled, timed out, shutting down).
    Stopped,
}

/// The end of a crawl: the rule, what was read and what was left.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CrawlEnd {
    /// The rule that ended it.
    pub rule: CrawlEndRule,
    /// Pages read (seeds included).
    pub pages: u32,
    /// URLs still waiting in the frontier (in memory and in the store).
    pub queued: usize,
    /// URLs that waited in the store because the frontier in memory was full
    /// (`crawl.max_frontier`).
    #[serde(default)]
    pub spilled: usize,
    /// URLs left out, by rule.
    pub skipped: std::collections::BTreeMap<SkipRule, usize>,
}

/// One round of growing a script-built list in the browser.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GrowRound {
    /// The round (1-based).
    pub round: u32,
    /// The control clicked (its text), for `load_more` and `click`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<String>,
    /// Elements in the page before the round.
    pub elements_before: u64,
    /// Elements once the page settled again.
    pub elements_after: u64,
    /// Items of the page's longest list once it settled (the most children of one parent
    /// sharing a tag and class): what a wanted count is compared with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<u64>,
}

/// A request's choice of rendering: `auto` decides per page by [`RenderRule`]s.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RenderMode {
    /// Render when the HTML shows the page is built by scripts.
    #[default]
    Auto,
    /// Never render: read the HTML the server sent.
    Never,
    /// Always render (a `render_unavailable` error without a browser).
    Always,
}

/// The rules of a render decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RenderRule {
    /// The request said `render: never`.
    Never,
    /// The request said `render: always`.
    Always,
    /// The page ships no script: nothing to render.
    NoScripts,
    /// The data is in the HTML already (`__NEXT_DATA__`, `__NUXT__`, JSON-LD).
    DataIsland,
    /// Little visible text and a framework's app root.
    ThinBodyAppRoot,
    /// A `<noscript>` asks for JavaScript and the body is thin.
    NoscriptAsksForJavascript,
    /// Almost no visible text and the page ships scripts.
    ThinBodyWithScripts,
    /// The HTML has enough text to read as it is.
    EnoughText,
    /// The site needed rendering for an earlier page (remembered by the server, bounded).
    HostNeededRendering,
    /// The planned tools found nothing on a page that ships scripts.
    NothingFoundWithScripts,
    /// The words want the list grown and the page, not thin, has a "Load more" control: its
    /// first items are in the HTML, the rest come from its scripts.
    LoadMoreControl,
}

/// `render` details: the decision, its evidence, and what the browser did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RenderDetails {
    /// What the request asked for.
    pub mode: RenderMode,
    /// The rule that decided.
    pub rule: RenderRule,
    /// Whether the page was rendered (false when the rule said no or no browser is available).
    pub rendered: bool,
    /// Characters of visible text in the fetched HTML (absent when it has no `<script>` and
    /// was not parsed for the decision).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_chars: Option<usize>,
    /// `<script>` elements in the fetched HTML.
    pub scripts: usize,
    /// Markers found (data islands, app roots, a `<noscript>` asking for JavaScript).
    pub markers: Vec<String>,
    /// Whether a browser is installed.
    pub browser_available: bool,
    /// Requests the page made in the browser.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<u32>,
    /// Bytes the page received in the browser.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// Requests of the page the address guard refused (`host: why`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<String>,
    /// Characters of visible text after rendering.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rendered_text_chars: Option<usize>,
    /// Why the render failed, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Whether the render grows the page's list before reading it, and the rule of the words
    /// that said so (present when the page is to be rendered).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grow: Option<GrowDecision>,
}

/// The rules of the words that decide whether a rendered list is grown ("Load more" clicked,
/// the page scrolled) before it is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum GrowRule {
    /// A number of items is wanted ("the first 40", "up to 200"): grown until the list holds
    /// them or stops growing.
    CountWanted,
    /// The words say to keep loading ("keep loading", "load everything", "scroll to the end").
    KeepLoading,
    /// Every item of a list is wanted ("all products", "every recipe"): grown until it stops.
    AllItems,
    /// One thing is wanted (an article, a contact, a title): the page is read as it settled.
    OneThing,
}

impl GrowRule {
    /// The rule in words, for the `render` step's message.
    pub fn describe(self) -> &'static str {
        match self {
            Self::CountWanted => "a number of items is wanted",
            Self::KeepLoading => "the words say to keep loading",
            Self::AllItems => "every item of a list is wanted",
            Self::OneThing => "one thing is wanted",
        }
    }
}

/// Whether a render grows the page's list, the rule that said so, and the count it grows to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GrowDecision {
    /// The rule that decided.
    pub rule: GrowRule,
    /// Whether the list is grown.
    pub grow: bool,
    /// Items wanted, when the words name a number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub want: Option<u64>,
}

/// A next-page link the run follows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct NextPageLink {
    /// The page the link is on.
    pub from: String,
    /// The page followed.
    pub to: String,
    /// Its position in this URL's pages (the URL's own page is 1).
    pub page: u32,
    /// The page number the link or its URL shows, when it shows one.
    pub number: Option<u32>,
    /// How the link was recognised.
    pub evidence: NextEvidence,
    /// The link's text.
    pub link_text: String,
}

/// An item page the run opens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DetailPageLink {
    /// The record's index in the URL's answer (0-based).
    pub item: usize,
    /// The item's page.
    pub to: String,
    /// The record field the link came from.
    pub field: String,
}

/// Why a URL's run stopped following links.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct NavigateStop {
    /// The rule that ended it.
    pub rule: StopRule,
    /// Pages of the list read (the URL's own included).
    pub pages: u32,
    /// Items gathered so far.
    pub items: usize,
    /// The next page's URL when the rule concerns it (repeated, refused, failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// The rules that end pagination or detail reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum StopRule {
    /// The items asked for are gathered.
    CountReached,
    /// The page links to no next page.
    NoNextLink,
    /// The next page was read already (same URL, or the same items again).
    RepeatedPage,
    /// `max_pages` pages were read.
    PageBudget,
    /// The next page holds no items.
    EmptyPage,
    /// The next page could not be fetched (refused by robots.txt or the address guard,
    /// an HTTP error, a timeout); the items gathered so far are kept.
    FetchFailed,
    /// The answer is not a list, so there is nothing to page through or enrich.
    NotAList,
    /// The next link leads to another origin and `fetch.follow_cross_origin` is off.
    CrossOrigin,
    /// Every item page allowed was read; later items were left as the list gave them.
    DetailBudget,
    /// Every item page was read.
    DetailsDone,
    /// The first item's page shows none of the fields its list lacks either: the other items'
    /// pages are not read (rule `missing_on_list`).
    NotOnItemPages,
}

impl StopRule {
    /// What the rule means, for step messages.
    pub fn describe(self) -> &'static str {
        match self {
            Self::CountReached => "the items asked for are gathered",
            Self::NoNextLink => "the page links to no next page",
            Self::RepeatedPage => "the next page was read already",
            Self::PageBudget => "the page budget (max_pages) is spent",
            Self::EmptyPage => "the next page holds no items",
            Self::FetchFailed => "the next page could not be fetched",
            Self::NotAList => "the answer is not a list",
            Self::CrossOrigin => {
                "the next page is on another site (fetch.follow_cross_origin is off)"
            }
            Self::DetailBudget => "the item-page budget (max_detail_pages) is spent",
            Self::DetailsDone => "every item page was read",
            Self::NotOnItemPages => "the first item's page does not show the missing fields either",
        }
    }
}

/// `output` details: the size of one URL's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OutputDetails {
    /// Items in the answer.
    pub items: usize,
    /// Items the request asked for, when it named a count.
    pub requested: Option<usize>,
    /// A compact rendering of the answer.
    pub preview: String,
    /// Present when a tool stopped at `limits.max_items`: the answer is not the whole list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_cap: Option<ItemCap>,
}

/// A list cut at the server's item cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ItemCap {
    /// `limits.max_items`.
    pub limit: usize,
    /// Items the page has.
    pub on_page: u64,
}

/// How a next-page link was recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum NextEvidence {
    /// `<link rel=next>` or `<a rel=next>`.
    RelNext,
    /// A link whose text or label says "next" (or an arrow), inside a pagination bar.
    LabelInPagination,
    /// The number after the current page in a numbered bar.
    NumberAfterCurrent,
    /// A link whose text or label says "next" (or an arrow), elsewhere.
    Label,
}
