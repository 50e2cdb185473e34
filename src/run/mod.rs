//! Runs: the agent loop, event sequencing, subscribers and cancellation.

pub mod control;
pub mod crawl;
pub mod emitter;
pub mod fault;
pub mod hub;
pub mod map;
mod named;
pub mod page;
mod prefetch;
pub mod request;
#[cfg(test)]
mod request_props;
pub mod rewards;
pub mod session;
pub mod site;
pub mod webhooks;

pub use control::{RunControl, StopReason};
pub use hub::{Admission, Hub, HubSettings, QUEUE_SWEEP, StartError, WatchSettings};
pub use request::{PlannerChoice, ScrapeRequest, ValidRequest};
pub use session::RunDeps;
