//! The page readers: each answers one question about a parsed page, with one entry point.
//! They sit above `page` (the DOM, text, money, dates) and below the tools, which are thin
//! adapters over them, and the planner, which reads the outline to choose calls.

pub mod contacts;
pub mod content;
pub mod links;
pub mod metadata;
pub mod navigation;
pub mod outline;
pub mod records;
pub mod role;
pub mod structured;
