//! Property tests of the request validator: arbitrary JSON shaped like a request (the right
//! keys with values of any type and size, unknown keys, hostile URLs) never panics, and what
//! it accepts keeps every limit.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use url::Url;

use super::request::ScrapeRequest;
use crate::settings::Settings;

/// Cases per property; `PROPTEST_CASES` runs more (e.g. 100000 for a long soak).
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A URL-ish string: real and broken schemes, hosts, ports, IP literals, odd characters.
fn url_text() -> impl Strategy<Value = String> {
    let scheme = prop::sample::select(vec![
        "http://",
        "https://",
        "ftp://",
        "javascript:",
        "file:///",
        "HTTP://",
        "",
        "//",
        "http:",
    ]);
    let host = prop_oneof![
        "[a-z0-9-]{1,12}(\\.[a-z]{2,5}){0,2}",
        Just("127.0.0.1".to_owned()),
        Just("[::1]".to_owned()),
        Just("0x7f.1".to_owned()),
        "\\PC{0,12}",
    ];
    let rest = "(:[0-9]{0,6})?(/[a-zA-Z0-9%?&=#._~-]{0,20}){0,3}";
    (scheme, host, rest).prop_map(|(s, h, r)| format!("{s}{h}{r}"))
}

/// Any JSON value, small.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "\\PC{0,30}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// A value for `key`, usually of the right type, sometimes anything.
fn value_for(key: &'static str) -> BoxedStrategy<Value> {
    let typed: BoxedStrategy<Value> = match key {
        "urls" | "assets" => prop::collection::vec(url_text(), 0..60)
            .prop_map(|urls| json!(urls))
            .boxed(),
        "instructions" | "output_instructions" | "model" => prop_oneof![
            "\\PC{0,60}".prop_map(Value::from),
            (0usize..12_000).prop_map(|n| Value::from("x".repeat(n))),
        ]
        .boxed(),
        "output_format" => prop::sample::select(vec!["json", "csv", "markdown", "text", "xml", ""])
            .prop_map(Value::from)
            .boxed(),
        "planner" => prop::sample::select(vec!["auto", "heuristic", "llm", "other"])
            .prop_map(Value::from)
            .boxed(),
        "max_steps" | "max_pages" | "max_detail_pages" => prop_oneof![
            (0u64..300).prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
        ]
        .boxed(),
        "session_id" | "request_id" => "[A-Za-z0-9_ -]{0,80}".prop_map(Value::from).boxed(),
        "tools" => prop::collection::vec(
            ("[a-z_.]{0,20}", any_json(), "\\PC{0,20}")
                .prop_map(|(tool, params, reasoning)| json!({"tool": tool, "params": params, "reasoning": reasoning})),
            0..4,
        )
        .prop_map(Value::from)
        .boxed(),
        _ => any_json().boxed(),
    };
    prop_oneof![8 => typed, 1 => any_json()].boxed()
}

/// An object with a random subset of the request's keys (and now and then an unknown one).
fn request_json() -> impl Strategy<Value = Value> {
    const KEYS: &[&str] = &[
        "urls",
        "assets",
        "instructions",
        "output_format",
        "output_instructions",
        "max_steps",
        "planner",
        "model",
        "tools",
        "session_id",
        "max_pages",
        "max_detail_pages",
        "request_id",
        "unknown_key",
    ];
    prop::sample::subsequence(KEYS, 0..KEYS.len()).prop_flat_map(|keys| {
        keys.into_iter()
            .map(|key| value_for(key).prop_map(move |v| (key, v)))
            .collect::<Vec<_>>()
            .prop_map(|pairs| {
                Value::Object(
                    pairs
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect::<Map<_, _>>(),
                )
            })
    })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_request_json_is_accepted_within_limits_or_rejected_with_a_code(body in request_json()) {
        let limits = Settings::defaults().limits;
        let Ok(request) = serde_json::from_value::<ScrapeRequest>(body) else {
            return Ok(()); // the HTTP layer answers 400 for a body that does not deserialize
        };
        match request.validate(&limits) {
            Ok(valid) => {
                prop_assert!(!valid.urls.is_empty() && valid.urls.len() <= limits.max_urls_per_request);
                for raw in &valid.urls {
                    let url = Url::parse(raw).unwrap();
                    prop_assert!(matches!(url.scheme(), "http" | "https"), "{}", raw);
                    prop_assert!(url.host().is_some(), "{}", raw);
                }
                let distinct: std::collections::HashSet<_> = valid.urls.iter().collect();
                prop_assert_eq!(distinct.len(), valid.urls.len());
                prop_assert!(valid.max_steps >= 1 && valid.max_steps <= limits.max_steps_cap);
                prop_assert!(valid.instructions.len() <= 10_000);
                prop_assert!(valid.max_pages.is_none_or(|n| n <= limits.max_pages));
                prop_assert!(valid.max_detail_pages.is_none_or(|n| n <= limits.max_detail_pages));
                prop_assert!(!valid.session_id.is_empty() && valid.session_id.len() <= 64);
            }
            Err(rejection) => {
                prop_assert!(!rejection.code.is_empty());
                prop_assert!(rejection.code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "{}", rejection.code);
                prop_assert!(!rejection.message.is_empty());
                // The message quotes at most one URL or value: bounded, whatever was sent.
                prop_assert!(rejection.message.len() < 4_096, "{} bytes", rejection.message.len());
            }
        }
    }
}
