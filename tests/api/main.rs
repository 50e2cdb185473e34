//! Integration tests: the real server on port 0, fixture pages from a local HTTP server, and
//! SSE read the way a client reads it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

mod access;
mod bad_requests;
mod chaos;
mod console;
mod contract;
mod crawl;
mod durable;
mod edges;
mod firecrawl_v2;
mod first_hour;
mod interrupt;
mod lifecycle;
mod live_followers;
mod llm;
mod mcp;
mod memory;
mod nav;
mod paging;
mod parallel;
mod products;
mod proxy;
mod queue;
mod records;
mod render;
mod scrape_stream;
mod sessions;
mod ssrf;
mod store_failure;
mod support;
mod tools_api;
mod webhooks;
mod words;
