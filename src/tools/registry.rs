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

/// Where a tool runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolKind {
    /// Over the parsed page, in the page worker.
    Page,
    /// In the server's headless browser, by the run ([`super::browser::execute`]); the page
    /// the browser then shows replaces the parsed page.
    Browser,
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
    /// Where it runs.
    pub kind: ToolKind,
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
    /// A tool whose params deserialize into `P`; its name is `P`'s and its schema is derived
    /// from `P`.
    ///
    /// # Panics
    /// When the derived schema is not a valid JSON Schema (a programming error caught by tests).
    #[allow(clippy::expect_used)]
    pub fn new<P, F>(
        description: &'static str,
        result_description: &'static str,
        effect: Effect,
        run: F,
    ) -> Self
    where
        P: ToolParams + DeserializeOwned + JsonSchema,
        F: Fn(&mut Workspace<'_>, P) -> Result<Value, ToolError> + Send + Sync + 'static,
    {
        let name = P::TOOL;
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
            kind: ToolKind::Page,
            validator,
            run: Box::new(run),
        }
    }

    /// A tool that runs in the browser ([`ToolKind::Browser`]): it only reports
    /// ([`Effect::Observe`]), and over a parsed page alone it fails saying why.
    pub fn browser<P>(description: &'static str, result_description: &'static str) -> Self
    where
        P: ToolParams + DeserializeOwned + JsonSchema,
    {
        let mut tool = Self::new::<P, _>(
            description,
            result_description,
            Effect::Observe,
            |_: &mut Workspace<'_>, _: P| {
                Err(ToolError::Failed(format!(
                    "{}: runs in the server's browser, within a run; it cannot run over a parsed page alone",
                    P::TOOL
                )))
            },
        );
        tool.kind = ToolKind::Browser;
        tool
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
            "kind": self.kind,
        })
    }
}

/// The params of one tool, as a type: the tool's name comes with it, so a call built from it
/// cannot name the wrong tool or misspell a field. The planner and the run build their calls
/// from these; calls from outside (an explicit plan, the LLM) come as JSON and are checked
/// against the tool's schema instead. The serialized form is what the tool reads back. A field
/// left out at its default carries `#[schemars(!skip_serializing_if)]` where the tool's schema
/// stated that default before the type was serializable, so the served schema stays the same.
pub trait ToolParams: Serialize {
    /// The tool these params are for (`namespace.action`).
    const TOOL: &'static str;
}

/// Declares the params type of a tool that takes none: an empty object, one type per tool so
/// that a typed call names its tool. Their schema keeps the description they had when all of
/// them shared one type, so the served catalog is the same.
macro_rules! no_params {
    ($name:ident, $tool:literal) => {
        #[doc = concat!("Params of `", $tool, "`, which takes none.")]
        #[derive(
            Debug, Default, Clone, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
        )]
        #[serde(deny_unknown_fields)]
        #[schemars(description = "Params of tools that take none.")]
        pub struct $name {}

        impl $crate::tools::registry::ToolParams for $name {
            const TOOL: &'static str = $tool;
        }
    };
}
pub(crate) use no_params;

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

impl ToolCall {
    /// A call of `P::TOOL` with typed params, serialized once here (for the step that shows it
    /// and for the tool, which reads them back).
    pub fn typed<P: ToolParams>(params: &P, reasoning: impl Into<String>) -> Self {
        // Params types hold strings, numbers, lists and maps with string keys, which always
        // serialize; a failure would be the bug of a new params type (the registry's test
        // serializes every one), and the call would carry null params, checked like any call.
        let params = serde_json::to_value(params).unwrap_or(Value::Null);
        Self::new(P::TOOL, params, reasoning)
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

impl ToolCallResult {
    /// The result of `tool` after `duration_ms`: its value or why it failed, with the
    /// evidence it gave (and the page's item count when the value was cut).
    pub fn of(
        tool: &str,
        outcome: Result<Value, ToolError>,
        duration_ms: u64,
        evidence: Option<Value>,
        items_on_page: Option<usize>,
    ) -> Self {
        match outcome {
            Ok(result) => Self {
                tool: tool.to_owned(),
                success: true,
                items: count_items(&result),
                result: Some(result),
                error: None,
                duration_ms,
                evidence,
                items_on_page,
            },
            Err(err) => Self {
                tool: tool.to_owned(),
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
        tools.extend(super::browser::tools());
        Self { tools }
    }

    /// The call, checked, when it is of a browser tool: the run executes it in the browser
    /// instead of the page worker. `None` for the other tools.
    pub fn browser_call(
        &self,
        call: &ToolCall,
    ) -> Option<Result<super::browser::BrowserCall, ToolError>> {
        let tool = self.get(&call.tool)?;
        if tool.kind != ToolKind::Browser {
            return None;
        }
        let params = if call.params.is_null() {
            empty_object()
        } else {
            call.params.clone()
        };
        Some(
            tool.validate(&params)
                .and_then(|()| super::browser::BrowserCall::parse(tool.name, params)),
        )
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
        ToolCallResult::of(&call.tool, outcome, duration_ms, evidence, items_on_page)
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::tools::browser::{ClickParams, RenderParams, ScreenshotParams, ScrollParams};
    use crate::tools::data::{
        DedupeParams, FilterOp, FilterParams, SelectColumnsParams, SortParams,
    };
    use crate::tools::extract::{
        DatesParams, EmailsParams, FieldKind, FieldRole, FieldSpec, FieldsParams, FullFieldSpec,
        ListScope, MainContentParams, MarkdownParams, NamedFieldsParams, PhonesParams,
        PricesParams, ProductParams, RecordsParams, RegexParams, TopNParams, WantedField,
    };
    use crate::tools::html::{
        AttrParams, CodeParams, FormsParams, ImagesParams, JsonLdParams, LinksParams, MetaParams,
        OutlineParams, SelectOneParams, SelectParams, TablesParams, TextParams,
    };
    use crate::tools::nav::{ItemLinksParams, NextPageParams};
    use crate::tools::validate::{CompletenessParams, SchemaParams};

    /// Checks one typed call: its tool is registered, its params pass that tool's schema, and
    /// the tool reads them back as the same params.
    struct Checker {
        registry: Registry,
        checked: Vec<&'static str>,
    }

    impl Checker {
        fn check<P: ToolParams + DeserializeOwned>(&mut self, params: P) -> Value {
            let call = ToolCall::typed(&params, "");
            assert_eq!(call.tool, P::TOOL);
            let Some(tool) = self.registry.get(P::TOOL) else {
                panic!("`{}` is not a registered tool", P::TOOL);
            };
            if let Err(err) = tool.validate(&call.params) {
                panic!("{}: {} fails the schema: {err}", P::TOOL, call.params);
            }
            let back: P = serde_json::from_value(call.params.clone()).unwrap();
            assert_eq!(
                serde_json::to_value(&back).unwrap(),
                call.params,
                "{}",
                P::TOOL
            );
            self.checked.push(P::TOOL);
            call.params
        }
    }

    #[test]
    fn every_params_type_makes_a_call_its_tool_accepts_and_reads_back() {
        let mut c = Checker {
            registry: Registry::builtin(),
            checked: Vec::new(),
        };
        let select = SelectParams {
            selector: "li".into(),
            limit: None,
            within: false,
        };
        // Fields at their defaults are left out, as the calls that were written by hand did.
        assert_eq!(c.check(select), json!({"selector": "li"}));
        let select = SelectParams {
            selector: "li".into(),
            limit: Some(3),
            within: true,
        };
        assert_eq!(
            c.check(select),
            json!({"selector": "li", "limit": 3, "within": true})
        );
        c.check(SelectOneParams {
            selector: "h1".into(),
        });
        c.check(TextParams { selector: None });
        c.check(AttrParams {
            selector: Some("a".into()),
            attribute: "href".into(),
        });
        let links = LinksParams {
            pattern: Some("blog".into()),
            same_host: Some(false),
            limit: None,
            within: false,
        };
        assert_eq!(
            c.check(links),
            json!({"pattern": "blog", "same_host": false})
        );
        c.check(ImagesParams {
            selector: None,
            limit: Some(2),
            within: false,
        });
        c.check(CodeParams {
            limit: None,
            within: true,
        });
        c.check(TablesParams {
            selector: Some("table".into()),
            all: true,
        });
        for empty in [
            c.check(FormsParams {}),
            c.check(MetaParams {}),
            c.check(JsonLdParams {}),
            c.check(OutlineParams {}),
            c.check(EmailsParams {}),
            c.check(PhonesParams {}),
            c.check(PricesParams {}),
            c.check(DatesParams {}),
            c.check(MainContentParams::default()),
        ] {
            assert_eq!(empty, json!({}));
        }
        let fields = FieldsParams {
            fields: [
                ("title".to_owned(), FieldSpec::Short("a".into())),
                (
                    "date".to_owned(),
                    FieldSpec::Full(FullFieldSpec {
                        selector: "time".into(),
                        attr: None,
                        kind: FieldKind::Date,
                        next_sibling: false,
                    }),
                ),
            ]
            .into_iter()
            .collect(),
            selector: None,
            order: Some(vec!["title".into(), "date".into()]),
        };
        // The fields keep the order they were given in, not their names' order.
        assert_eq!(
            serde_json::to_string(&c.check(fields)).unwrap(),
            r#"{"fields":{"title":"a","date":{"selector":"time","kind":"date","next_sibling":false}},"order":["title","date"]}"#
        );
        assert_eq!(c.check(TopNParams::first(5)), json!({"n": 5}));
        c.check(RegexParams {
            pattern: "\\d+".into(),
            field: Some("price".into()),
            group: Some(0),
            limit: None,
        });
        assert_eq!(c.check(RecordsParams::default()), json!({}));
        c.check(RecordsParams {
            limit: Some(10),
            lists: ListScope::All,
            fields: Some(vec![WantedField {
                name: "author".into(),
                role: FieldRole::Text,
                words: vec!["by".into()],
                asked: Vec::new(),
            }]),
            choose: vec![crate::tools::extract::ValueChoice {
                phrases: vec!["in stock".into(), "stock".into()],
                negated: true,
            }],
        });
        c.check(NamedFieldsParams {
            fields: vec!["sku".into()],
        });
        c.check(ProductParams {
            assume_product: true,
        });
        c.check(MarkdownParams::default());
        c.check(DedupeParams { by: None });
        assert_eq!(
            c.check(SortParams {
                by: "price".into(),
                descending: false,
            }),
            json!({"by": "price", "descending": false})
        );
        c.check(FilterParams {
            field: "title".into(),
            op: FilterOp::Exists,
            value: None,
        });
        let rename = [("title".to_owned(), "headline".to_owned())];
        c.check(SelectColumnsParams {
            columns: vec!["title".into()],
            rename: Some(rename.into_iter().collect()),
        });
        assert_eq!(
            c.check(NextPageParams {
                cross_origin: false,
            }),
            json!({"cross_origin": false})
        );
        c.check(ItemLinksParams { cross_origin: true });
        c.check(CompletenessParams { fields: None });
        assert_eq!(c.check(RenderParams::default()), json!({"wait": "load"}));
        c.check(RenderParams {
            wait: crate::tools::browser::WaitFor::Selector,
            selector: Some("#list li".into()),
            ms: None,
        });
        c.check(ClickParams {
            text: Some("Load more".into()),
            selector: None,
        });
        c.check(ScrollParams {
            count: Some(20),
            max_rounds: None,
        });
        c.check(ScreenshotParams { full_page: true });
        c.check(SchemaParams {
            schema: json!({"type": "object"}),
        });
        // Every tool was checked.
        let mut tools: Vec<&str> = c.registry.tools().iter().map(|t| t.name).collect();
        tools.sort_unstable();
        c.checked.sort_unstable();
        c.checked.dedup();
        assert_eq!(c.checked, tools);
    }
}
