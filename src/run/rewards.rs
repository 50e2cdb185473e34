//! Step rewards. The rule (also in the README):
//!
//! * `agent_decision`: +0.1 when the plan has calls, 0 when the planner says it is done.
//! * `planner_fallback`: −0.1 (the chosen planner failed).
//! * `tool_call`: +0.05 when it succeeds with a non-empty result, 0 when it succeeds with
//!   nothing, −0.05 when it fails; skipped calls 0.
//! * `output`: +1.0 × fulfilment, where fulfilment is items found ÷ items asked for (capped at
//!   1) when the request names a count, 1 for any non-empty answer otherwise, 0 when empty.
//! * `fetch`: 0 (fetching is not a decision of the agent).
//!
//! `complete.total_reward` is the exact sum of every step's reward.

use serde_json::Value;

use super::page::has_content;
use crate::planner::Plan;
use crate::tools::ToolCallResult;

/// Reward of a planner fallback.
pub const FALLBACK: f64 = -0.1;

/// Reward of an `agent_decision`.
pub fn decision_reward(plan: &Plan) -> f64 {
    if plan.tool_calls.is_empty() { 0.0 } else { 0.1 }
}

/// Reward of a `tool_call`.
pub fn tool_reward(result: &ToolCallResult) -> f64 {
    match (result.success, result.items) {
        (false, _) => -0.05,
        (true, 0) => 0.0,
        (true, _) => 0.05,
    }
}

/// Items in an answer (list length; 1 for a non-empty object or text).
pub fn items_in(answer: &Value) -> usize {
    match answer {
        Value::Array(items) => items.len(),
        other => usize::from(has_content(other)),
    }
}

/// The reward of an answer the page did not have (`no_match`): it takes back what the
/// round's calls earned (a decision and a few calls earn well under 1), so the run's total
/// says the request was not answered.
pub const NO_MATCH_REWARD: f64 = -1.0;

/// Reward of the `output` step.
pub fn output_reward(answer: &Value, wanted: Option<usize>) -> f64 {
    if !has_content(answer) {
        return 0.0;
    }
    match (wanted, answer) {
        (Some(n), Value::Array(items)) if n > 0 => {
            #[allow(clippy::cast_precision_loss)]
            let share = items.len().min(n) as f64 / n as f64;
            round(share)
        }
        _ => 1.0,
    }
}

pub use crate::events::round_reward as round;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn output_reward_measures_items_against_the_request() {
        assert!((output_reward(&json!([1, 2, 3, 4, 5]), Some(5)) - 1.0).abs() < 1e-9);
        assert!((output_reward(&json!([1, 2]), Some(4)) - 0.5).abs() < 1e-9);
        assert!(output_reward(&json!([]), Some(4)).abs() < 1e-9);
        assert!((output_reward(&json!({"title": "x"}), None) - 1.0).abs() < 1e-9);
    }
}
