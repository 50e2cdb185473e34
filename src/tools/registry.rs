//! The tool registry and executor: lookup, schema validation, timing, panic isolation.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::workspace::Workspace;

/// What a tool's result does to the workspace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// The result becomes the working value.
    Replace,
    /// The result is reported only; the working value stays.
    Observe,
}

/// Why a tool call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ToolError {
    /// No tool has that name.
    #[error("unknown tool `{0}`")]
    Unknown(String),
    /// The params do not match the tool's schema.
    #[error("{0}")]
    InvalidParams(String),
    /// The tool ran and could not do its job (bad selector, nothing to work on, …).
    #[error("{0}")]
    Failed(String),
    /// The run was stopped (cancelled, timed out) before the tool finished; see
    /// [`Interrupt`](crate::page::Interrupt).
    #[error("interrupted: the run was stopped before the tool finished")]
    Interrupted,
}

impl From<crate::page::Interrupted> for ToolError {
    fn from(_: crate::page::Interrupted) -> Self {
        Self::Interrupted
    }
}

type RunFn = dyn Fn(&mut Workspace<'_>, Value) -> Result<Value, ToolError> + Send + Sync;

/// One tool: a name, what it does, what it takes, what it gives, and the function.
pub struct Tool {
    /// `namespace.action`.
    pub name: &'static str,
    /// One line saying what it does.
    pub description: &'static str,
    /// What the result looks like.
    pub result_description: &'static str,
    /// Whether the result replaces the working value.
    pub effect: Effect,
    /// JSON Schema of the params.
    pub params_schema: Value,
    validator: jsonschema::Validator,
    run: Box<RunFn>,
}

impl std::fmt::Debug for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl Tool {
    /// A tool whose params deserialize into `P`; the schema is derived from `P`.
    ///
    /// # Panics
    /// When the derived schema is not a valid JSON Schema (a programming error caught by tests).
    #[allow(clippy::expect_used)]
    pub fn new<P, F>(
        name: &'static str,
        description: &'static str,
        result_description: &'static str,
        effect: Effect,
        run: F,
    ) -> Self
    where
        P: DeserializeOwned + JsonSchema,
        F: Fn(&mut Workspace<'_>, P) -> Result<Value, ToolError> + Send + Sync + 'static,
    {
        let mut params_schema = schemars::schema_for!(P).to_value();
        if let Some(obj) = params_schema.as_object_mut() {
            obj.remove("$schema");
            obj.remove("title");
        }
        let validator = jsonschema::validator_for(&params_schema).expect("derived schema is valid");
        let run = move |ws: &mut Workspace<'_>, params: Value| {
            let typed: P = serde_json::from_value(params)
                .map_err(|e| ToolError::InvalidParams(format!("{name}: {e}")))?;
            run(ws, typed)
        };
        Self {
            name,
            description,
            result_description,
            effect,
            params_schema,
            validator,
            run: Box::new(run),
        }
    }

    /// The namespace part of the name.
    pub fn namespace(&self) -> &'static str {
        self.name.split_once('.').map_or(self.name, |(ns, _)| ns)
    }

    /// Checks params against the schema, with messages that name the tool and the field.
    ///
    /// # Errors
    /// Every violation, joined.
    pub fn validate(&self, params: &Value) -> Result<(), ToolError> {
        let problems: Vec<String> = self
            .validator
            .iter_errors(params)
            .take(5)
            .map(|err| {
                let path = err.instance_path().to_string();
                if path.is_empty() {
                    err.to_string()
                } else {
                    format!("`{}`: {err}", path.trim_start_matches('/'))
                }
            })
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(ToolError::InvalidParams(format!(
                "{}: {}",
                self.name,
                problems.join("; ")
            )))
        }
    }

    /// The catalog entry served by `GET /api/tools`.
    pub fn describe(&self) -> Value {
        json!({
            "name": self.name,
            "namespace": self.namespace(),
            "description": self.description,
            "params": self.params_schema,
            "result": self.result_description,
            "effect": self.effect,
        })
    }
}

/// One call in a plan. Its schema is part of the MCP `scrape` tool's input schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ToolCall {
    /// `namespace.action`.
    pub tool: String,
    /// Arguments, validated against the tool's schema.
    #[serde(default = "empty_object")]
    #[schemars(with = "serde_json::Map<String, Value>")]
    pub params: Value,
    /// Why the planner chose it.
    #[serde(default)]
    pub reasoning: String,
    /// Keep the result under this name in the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save_as: Option<String>,
}

fn empty_object() -> Value {
    Value::Object(serde_json::Map::new())
}

impl ToolCall {
    /// A call with params and reasoning.
    pub fn new(tool: &str, params: Value, reasoning: impl Into<String>) -> Self {
        Self {
            tool: tool.into(),
            params,
            reasoning: reasoning.into(),
            save_as: None,
        }
    }
}

/// A planned call as its `agent_decision` step shows it.
impl From<&ToolCall> for crate::events::PlannedCall {
    fn from(call: &ToolCall) -> Self {
        Self {
            tool: call.tool.clone(),
            params: call.params.clone(),
            reasoning: call.reasoning.clone(),
        }
    }
}

/// What executing a call produced (the seed's `ToolCallResult`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCallResult {
    /// The tool name as called.
    pub tool: String,
    /// Whether it succeeded.
    pub success: bool,
    /// The result, when it succeeded.
    pub result: Option<Value>,
    /// Why it failed, when it did.
    pub error: Option<String>,
    /// Execution time.
    pub duration_ms: u64,
    /// Items in the result (array length, or 1 for a non-empty object/text, 0 when empty).
    pub items: usize,
    /// How the tool decided, when it says (see [`Workspace::evidence`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Value>,
    /// When the result was cut at `limits.max_items`: how many items the page has (see
    /// [`Workspace::items_beyond_cap`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items_on_page: Option<usize>,
}

/// The list of tools the executor can call.
#[derive(Debug)]
pub struct Registry {
    tools: Vec<Tool>,
}

impl Registry {
    /// Every built-in tool; one line per namespace list.
    pub fn builtin() -> Self {
        let mut tools = Vec::new();
        tools.extend(super::html::tools());
        tools.extend(super::extract::tools());
        tools.extend(super::data::tools());
        tools.extend(super::validate::tools());
        tools.extend(super::nav::tools());
        Self { tools }
    }

    /// Looks a tool up by name.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// All tools, in catalog order.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// The catalog as served (`GET /api/tools`, MCP `scrape_tools`): `{count, tools}`, each tool
    /// with its description and parameter schema.
    pub fn catalog(&self) -> Value {
        let tools: Vec<Value> = self.tools.iter().map(Tool::describe).collect();
        serde_json::json!({"count": tools.len(), "tools": tools})
    }

    /// Validates and runs one call on the workspace; never panics, never fails the run.
    pub fn execute(&self, ws: &mut Workspace<'_>, call: &ToolCall) -> ToolCallResult {
        let started = Instant::now();
        ws.evidence = None;
        ws.items_beyond_cap = None;
        let outcome = self.execute_inner(ws, call);
        let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let evidence = ws.evidence.take();
        let items_on_page = ws.items_beyond_cap.take();
        match outcome {
            Ok(result) => ToolCallResult {
                tool: call.tool.clone(),
                success: true,
                items: count_items(&result),
                result: Some(result),
                error: None,
                duration_ms,
                evidence,
                items_on_page,
            },
            Err(err) => ToolCallResult {
                tool: call.tool.clone(),
                success: false,
                result: None,
                error: Some(err.to_string()),
                duration_ms,
                items: 0,
                evidence,
                items_on_page: None,
            },
        }
    }

    fn execute_inner(&self, ws: &mut Workspace<'_>, call: &ToolCall) -> Result<Value, ToolError> {
        let tool = self
            .get(&call.tool)
            .ok_or_else(|| ToolError::Unknown(call.tool.clone()))?;
        let params = if call.params.is_null() {
            empty_object()
        } else {
            call.params.clone()
        };
        tool.validate(&params)?;
        ws.interrupt.check()?;
        let interrupt = ws.interrupt.clone();
        let guard = interrupt.install();
        let result =
            catch_unwind(AssertUnwindSafe(|| (tool.run)(ws, params))).unwrap_or_else(|panic| {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                tracing::error!(tool = tool.name, %what, "tool panicked");
                Err(ToolError::Failed(format!("{}: internal error", tool.name)))
            });
        drop(guard);
        // Loops that saw the interrupt stopped early: what they made is incomplete. An
        // interrupt is never unset, so checking once here catches every one of them.
        interrupt.check()?;
        let result = result?;
        if tool.effect == Effect::Replace {
            ws.value = result.clone();
        }
        if let Some(name) = &call.save_as {
            ws.saved.insert(name.clone(), result.clone());
        }
        Ok(result)
    }
}

/// How many items a result holds, for rewards and observations.
pub fn count_items(value: &Value) -> usize {
    match value {
        Value::Null => 0,
        Value::Array(items) => items.len(),
        Value::String(s) => usize::from(!s.trim().is_empty()),
        Value::Object(map) => {
            // Tools that report a list inside an object ({"items": [...], ...}) count the list.
            for key in ["items", "elements", "records", "links", "rows"] {
                if let Some(Value::Array(items)) = map.get(key) {
                    return items.len();
                }
            }
            usize::from(map.values().any(|v| !v.is_null()))
        }
        _ => 1,
    }
}
