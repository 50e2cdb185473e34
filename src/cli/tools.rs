//! `scrape-agent tools`: the registry of extraction tools, for writing a plan (`run --tools`).

use super::{CliError, Exit, ToolsArgs, write_stdout};
use crate::tools::Registry;

/// Prints the catalog (or one tool) as text or, with `--json`, as `GET /api/tools` serves it.
///
/// # Errors
/// An unknown tool name (exit 2).
pub(super) fn list(args: &ToolsArgs) -> Result<Exit, CliError> {
    let registry = Registry::builtin();
    let text = match &args.name {
        Some(name) => {
            let tool = registry.get(name).ok_or_else(|| {
                CliError::Usage(format!(
                    "no tool named `{name}`; `scrape-agent tools` lists them"
                ))
            })?;
            if args.json {
                pretty(&tool.describe())
            } else {
                format!(
                    "{}\n  {}\n  result: {}\nparams (JSON Schema):\n{}",
                    tool.name,
                    tool.description,
                    tool.result_description,
                    pretty(&tool.params_schema)
                )
            }
        }
        None if args.json => pretty(&registry.catalog()),
        None => {
            let width = registry
                .tools()
                .iter()
                .map(|tool| tool.name.len())
                .max()
                .unwrap_or(0);
            let mut text = String::new();
            for tool in registry.tools() {
                text.push_str(&format!("{:<width$}  {}\n", tool.name, tool.description));
            }
            text.push_str(&format!(
                "\n{} tools; `scrape-agent tools NAME` shows one with its parameters.",
                registry.tools().len()
            ));
            text
        }
    };
    write_stdout(&format!("{text}\n"))?;
    Ok(Exit::Success)
}

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}
