//! `validate.*`: checking records (completeness, JSON Schema).

use super::registry::Tool;

/// The `validate` namespace, in catalog order.
pub fn tools() -> Vec<Tool> {
    Vec::new()
}
