//! Tools: data transformations over one parsed page.
//!
//! A tool is a value in the [`Registry`]: a namespaced name, a description, a JSON Schema for
//! its params (derived with `schemars`), a description of its result, and a function over the
//! [`Workspace`]. Adding a tool touches its namespace file plus one line in [`Registry::builtin`].
//!
//! Data flow: the workspace holds the current *selection* (elements) and the current *value*
//! (records, text, facts). A tool reads them and produces a result; tools with
//! [`Effect::Replace`] make that result the new value, [`Effect::Observe`] tools only report.
//! A call may also keep its result under a name (`save_as`). The per-URL answer is the final
//! value, or the saved names (plus the final value as `result`) when a plan saved any.

pub mod browser;
pub mod data;
pub mod extract;
pub mod html;
#[cfg(test)]
mod interrupt_tests;
pub mod nav;
#[cfg(test)]
mod page_props;
pub mod registry;
#[cfg(test)]
mod robustness;
#[cfg(test)]
pub(crate) mod testkit;
pub mod validate;
pub mod workspace;

pub use registry::{Effect, Registry, Tool, ToolCall, ToolCallResult, ToolError, ToolKind};
pub use workspace::{ToolLimits, Workspace};
