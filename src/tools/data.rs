//! `data.*`: reshaping records (dedupe, sort, filter, columns).

use super::registry::Tool;

/// The `data` namespace, in catalog order.
pub fn tools() -> Vec<Tool> {
    Vec::new()
}
