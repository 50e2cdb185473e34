//! Faults a test can trigger from a request, to prove the supervisor ends a run whatever
//! happens inside it. They exist only with the `fault-injection` feature, which the crate's own
//! integration tests turn on (a release build has none: [`inject`] is then an empty function).

/// A place in a run where a test may make it panic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultPoint {
    /// While the planner decides, outside any tool's `catch_unwind`.
    Planning,
    /// While the answer is rendered into the output format.
    Output,
}

impl FaultPoint {
    /// The text whose presence in a request's instructions triggers the fault.
    pub fn marker(self) -> &'static str {
        match self {
            Self::Planning => "[[fault:panic-while-planning]]",
            Self::Output => "[[fault:panic-in-output]]",
        }
    }
}

/// Panics when `instructions` carry the marker of `point` (only with `fault-injection`).
#[cfg(feature = "fault-injection")]
pub fn inject(point: FaultPoint, instructions: &str) {
    if instructions.contains(point.marker()) {
        panic!("injected fault: {}", point.marker());
    }
}

/// Does nothing: this build has no fault injection.
#[cfg(not(feature = "fault-injection"))]
#[inline(always)]
pub fn inject(_point: FaultPoint, _instructions: &str) {}
