//! scrape-agent: turns "these URLs + what I want, in plain words" into structured data over
//! Server-Sent Events, showing every decision it makes.

pub mod app;
pub mod browser;
pub mod cli;
pub mod events;
pub mod fetch;
pub mod http;
pub mod mcp;
pub mod metrics;
pub mod output;
pub mod page;
pub mod planner;
pub mod read;
pub mod run;
pub mod settings;
pub mod store;
pub mod tools;
pub mod webhook;
