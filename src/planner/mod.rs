//! Planners: `decide_tools(context) -> Plan`.
//!
//! The heuristic planner is the default (deterministic, no network); the LLM planner speaks
//! the OpenAI-compatible Chat Completions API. Both see the same [`PlannerContext`].

pub mod bounds;
pub mod heuristic;
pub mod intent;
pub mod lexicon;
pub mod llm;
pub mod matches;
pub mod measures;

pub mod reach;
pub mod values;

use futures::future::BoxFuture;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::mpsc;

pub use crate::read::outline::Outline;
use crate::tools::ToolCall;

/// A summary of one executed call, fed back to the planner.
#[derive(Debug, Clone, Serialize)]
pub struct Observation {
    /// The planning round the call belonged to (0-based).
    pub round: u32,
    /// Tool name.
    pub tool: String,
    /// Params as called.
    pub params: Value,
    /// Whether it succeeded.
    pub success: bool,
    /// Items in its result.
    pub items: usize,
    /// Error message, when it failed.
    pub error: Option<String>,
    /// A short preview of the result.
    pub preview: String,
}

/// A tool offered to the planner (name, description, params schema).
#[derive(Debug, Clone, Serialize)]
pub struct ToolSpec {
    /// `namespace.action`.
    pub name: String,
    /// One line.
    pub description: String,
    /// JSON Schema of the params.
    pub params: Value,
}

/// Everything a planner may look at.
#[derive(Debug, Clone)]
pub struct PlannerContext {
    /// What the user wants.
    pub instructions: String,
    /// How the user wants it shaped (columns, …).
    pub output_instructions: Option<String>,
    /// The request as understood, parsed once for the run ([`intent::parse`] of the two
    /// above).
    pub understood: intent::Request,
    /// The URL being worked on.
    pub url: String,
    /// The page outline.
    pub outline: Outline,
    /// Results of earlier rounds, oldest first.
    pub observations: Vec<Observation>,
    /// This round's number (0-based).
    pub round: u32,
    /// Tool calls left in the URL's budget.
    pub steps_left: u32,
    /// Whether the working value currently holds a non-empty answer.
    pub have_answer: bool,
    /// The tools available.
    pub tools: Vec<ToolSpec>,
    /// Model requested by the client (LLM planner only).
    pub model: Option<String>,
}

/// The planner's answer for one round.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Plan {
    /// Calls to run, in order.
    pub tool_calls: Vec<ToolCall>,
    /// True when the planner expects the answer to be complete after these calls.
    pub done: bool,
    /// Visible notes (e.g. filtered invalid calls).
    pub notes: Vec<String>,
    /// LLM token usage for this round: (prompt, completion).
    #[serde(skip)]
    pub usage: (u64, u64),
}

/// A tool call as it streams in from a planner, before the decision is final.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DraftCall {
    /// Tool name, once known.
    pub tool: Option<String>,
    /// Arguments text received so far (may be incomplete JSON).
    pub arguments: String,
    /// Arguments parsed so far, when they already form valid JSON.
    pub params: Option<Value>,
}

/// Where a streaming planner sends its partial calls; every send is awaited by the planner,
/// so all partials of a round are delivered before its final plan.
pub type DraftSender = mpsc::Sender<Vec<DraftCall>>;

/// Why a planner gave no plan.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum PlannerError {
    /// The planner took too long.
    #[error("planner timed out after {0} s")]
    Timeout(u64),
    /// The planner's backend answered with an error.
    #[error("planner backend failed: {0}")]
    Backend(String),
    /// The planner's reply could not be used.
    #[error("planner reply unusable: {reason}")]
    BadReply {
        /// What was wrong with it.
        reason: String,
        /// Tokens the reply still cost (prompt, completion): counted even though it failed.
        usage: (u64, u64),
    },
}

impl PlannerError {
    /// Tokens spent on the failed round (prompt, completion), so the run's metrics keep them.
    pub fn usage(&self) -> (u64, u64) {
        match self {
            Self::BadReply { usage, .. } => *usage,
            Self::Timeout(_) | Self::Backend(_) => (0, 0),
        }
    }
}

/// Decides which tools to call next.
pub trait Planner: Send + Sync {
    /// A short name reported in `agent_decision` steps (`heuristic`, `llm`).
    fn name(&self) -> &'static str;

    /// Plans the next round. Streaming planners send drafts through `drafts` first.
    fn decide_tools<'a>(
        &'a self,
        context: &'a PlannerContext,
        drafts: &'a DraftSender,
    ) -> BoxFuture<'a, Result<Plan, PlannerError>>;
}

/// The request as a words reader understood it, and the tokens it cost (prompt, completion).
pub type WordsRead = Result<(intent::Request, (u64, u64)), PlannerError>;

/// Reads a request's words into the intent (the LLM with a schema-bound reply); the heuristic
/// parser ([`intent::parse`]) is the default and the fallback.
pub trait WordsReader: Send + Sync {
    /// The request as understood, and the tokens it cost (prompt, completion).
    fn read_words<'a>(
        &'a self,
        instructions: &'a str,
        output_instructions: Option<&'a str>,
    ) -> BoxFuture<'a, WordsRead>;
}
