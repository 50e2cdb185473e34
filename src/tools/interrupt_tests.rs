//! The interrupt seen from the executor: calls stop, results are thrown away.

mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Instant;

    use scraper::{Html, Selector};
    use tokio_util::sync::CancellationToken;

    use crate::page::interrupt::*;

    #[test]
    fn fires_on_token_flag_or_deadline_and_stays_set() {
        assert!(!Interrupt::never().is_set());
        let token = CancellationToken::new();
        let by_token = Interrupt::from_token(token.clone());
        assert!(!by_token.is_set());
        token.cancel();
        assert!(by_token.is_set());
        let flag = Arc::new(AtomicBool::new(false));
        let by_flag = Interrupt::from_flag(flag.clone());
        assert!(by_flag.check().is_ok());
        flag.store(true, Ordering::Relaxed);
        assert_eq!(by_flag.check(), Err(Interrupted));
        assert!(Interrupt::never().with_deadline(Instant::now()).is_set());
    }

    #[test]
    fn current_interrupt_is_scoped_to_the_guard() {
        let flag = Arc::new(AtomicBool::new(true));
        assert!(!interrupted());
        {
            let _guard = Interrupt::from_flag(flag).install();
            assert!(interrupted());
            assert!(check().is_err());
        }
        assert!(!interrupted());
    }

    #[test]
    fn select_matches_like_scraper_and_stops_when_interrupted() {
        let html = format!(
            "<html class=x><body>{}</body></html>",
            "<div><p class=a>1</p><p>2</p></div>".repeat(2_000)
        );
        let doc = Html::parse_document(&html);
        for css in [
            "p.a",
            "div > p",
            "html",
            "body",
            "p:first-child",
            ":scope > body",
        ] {
            let sel = Selector::parse(css).unwrap();
            assert_eq!(
                select_document(&doc, &sel).collect::<Vec<_>>(),
                doc.select(&sel).collect::<Vec<_>>(),
                "{css}"
            );
            let root = doc.root_element();
            assert_eq!(
                select(root, &sel).collect::<Vec<_>>(),
                root.select(&sel).collect::<Vec<_>>(),
                "{css}"
            );
        }
        let sel = Selector::parse("p").unwrap();
        let _guard = Interrupt::from_flag(Arc::new(AtomicBool::new(true))).install();
        assert!(select_document(&doc, &sel).count() < SELECT_CHECK_EVERY as usize);
    }

    mod tools {
        use std::time::Duration;

        use serde_json::{Value, json};

        use crate::page::Interrupt;
        use crate::page::Page;
        use crate::tools::{Registry, ToolCall, ToolCallResult, ToolLimits, Workspace};

        /// A page of `items` repeated blocks, each with a title, a link, a number and a table row.
        fn big_page(items: usize) -> Page {
            let body: String = (0..items)
                .map(|i| {
                    format!(
                        "<div class=item><span class=t>Item {i}</span> <a href=/i/{i}>link {i}</a> <b>{i} points</b> <i>x{i}@example.com</i></div>"
                    )
                })
                .collect();
            let html = format!(
                "<html><body><main>{body}</main><table><tr><th>a</th><th>b</th></tr>{}</table></body></html>",
                "<tr><td>1</td><td>2</td></tr>".repeat(items / 10)
            );
            Page::parse(url::Url::parse("https://big.example/").unwrap(), &html)
        }

        fn run(page: &Page, interrupt: Interrupt, calls: &[(&str, Value)]) -> Vec<ToolCallResult> {
            let registry = Registry::builtin();
            let mut ws = Workspace::new(page, ToolLimits::default()).with_interrupt(interrupt);
            calls
                .iter()
                .map(|(tool, params)| {
                    registry.execute(&mut ws, &ToolCall::new(tool, params.clone(), ""))
                })
                .collect()
        }

        fn heavy_calls() -> Vec<(&'static str, Value)> {
            vec![
                (
                    "html.select",
                    json!({"selector": "main div.item:not(.x) a[href^='/i/']"}),
                ),
                ("html.text", json!({"selector": "div.item > span.t"})),
                ("html.attr", json!({"selector": "a", "attribute": "href"})),
                ("html.links", json!({"pattern": "link \\d+"})),
                ("html.images", json!({})),
                ("html.code", json!({})),
                ("html.tables", json!({})),
                (
                    "extract.fields",
                    json!({"selector": "div.item", "fields": {"title": "span.t", "url": "a@href", "points": "b"}}),
                ),
                ("extract.regex", json!({"pattern": "Item (\\d+)"})),
                ("extract.emails", json!({})),
                ("extract.dates", json!({})),
                ("extract.markdown", json!({})),
                ("extract.records", json!({})),
                ("data.sort", json!({"by": "points"})),
                ("data.dedupe", json!({})),
            ]
        }

        #[test]
        fn every_heavy_tool_fails_as_interrupted_when_the_interrupt_is_set_before() {
            let page = big_page(5_000);
            let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
            for (tool, params) in heavy_calls() {
                let result = &run(&page, Interrupt::from_flag(flag.clone()), &[(tool, params)])[0];
                assert!(!result.success, "{tool}");
                assert!(
                    result
                        .error
                        .as_deref()
                        .is_some_and(|e| e.starts_with("interrupted")),
                    "{tool}: {:?}",
                    result.error
                );
                assert!(
                    result.duration_ms < 50,
                    "{tool} took {} ms",
                    result.duration_ms
                );
            }
        }

        #[test]
        fn uninterrupted_heavy_tools_still_work() {
            let page = big_page(300);
            let mut calls = vec![
                ("html.select", json!({"selector": "div.item"})),
                (
                    "extract.fields",
                    json!({"fields": {"title": "span.t", "points": "b"}}),
                ),
            ];
            calls.extend(heavy_calls());
            for (call, result) in calls.iter().zip(run(&page, Interrupt::never(), &calls)) {
                assert!(
                    result.success
                        || result
                            .error
                            .as_deref()
                            .is_some_and(|e| !e.starts_with("interrupted")),
                    "{}: {:?}",
                    call.0,
                    result.error
                );
            }
        }

        /// A select whose `:has` looks at every later sibling's subtree for every item:
        /// quadratic, so it costs seconds where a page of this size normally costs milliseconds.
        fn quadratic_select() -> (&'static str, Value) {
            (
                "html.select",
                json!({"selector": "div.item:has(~ div.item a[href$='/none'])"}),
            )
        }

        #[test]
        fn a_running_tool_stops_soon_after_the_interrupt_is_set() {
            let page = big_page(1_200);
            let call = [quadratic_select()];
            let started = std::time::Instant::now();
            let whole = &run(&page, Interrupt::never(), &call)[0];
            let uninterrupted = started.elapsed();
            assert!(whole.success, "{:?}", whole.error);

            let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let setter = {
                let flag = flag.clone();
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(20));
                    flag.store(true, std::sync::atomic::Ordering::Relaxed);
                })
            };
            let started = std::time::Instant::now();
            let cut = &run(&page, Interrupt::from_flag(flag), &call)[0];
            let interrupted = started.elapsed();
            setter.join().unwrap();
            assert_eq!(
                cut.error.as_deref(),
                Some("interrupted: the run was stopped before the tool finished")
            );
            eprintln!("uninterrupted {uninterrupted:?}, interrupted after 20 ms: {interrupted:?}");
            assert!(
                interrupted < uninterrupted / 4,
                "interrupted after {interrupted:?}; the whole call takes {uninterrupted:?}"
            );
        }

        #[test]
        fn a_deadline_stops_a_tool() {
            let page = big_page(3_000);
            let call = [quadratic_select()];
            let deadline = std::time::Instant::now() + Duration::from_millis(30);
            let result = &run(&page, Interrupt::never().with_deadline(deadline), &call)[0];
            assert!(
                result
                    .error
                    .as_deref()
                    .is_some_and(|e| e.starts_with("interrupted"))
            );
        }
    }
}
/// How long each tool takes on a large page, whole and when interrupted 20 ms in (a
/// measurement, not a check): `cargo test --lib latency_probe -- --ignored --nocapture`.
mod latency_probe {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    use serde_json::json;

    use crate::page::Interrupt;
    use crate::page::Page;
    use crate::tools::{Registry, ToolCall, ToolLimits, Workspace};

    #[test]
    #[ignore]
    fn probe() {
        let items: String = (0..12_000).map(|i| format!("<div class=item><h3><a href=/i/{i}>Item number {i}</a></h3><p>A description of item {i} {}</p><span class=points>{i} points</span><time datetime=2024-01-02>Jan 2</time> x{i}@ex.com</div>\n", "words ".repeat(20))).collect();
        let html = format!(
            "<html><head><title>Big</title></head><body><main>{items}</main></body></html>"
        );
        let page = Page::parse(url::Url::parse("https://big.example/").unwrap(), &html);
        let registry = Registry::builtin();
        for tool in registry.tools() {
            let params = match tool.name {
                "html.select" | "html.select_one" => json!({"selector": "div.item"}),
                "html.attr" => json!({"attribute": "href", "selector": "a"}),
                "extract.fields" => json!({"selector": "div.item", "fields": {"t": "h3"}}),
                "extract.top_n" => json!({"n": 5}),
                "extract.regex" => json!({"pattern": "item (\\d+)"}),
                "data.sort" => json!({"by": "t"}),
                "data.filter" => json!({"field": "t", "op": "exists"}),
                "data.select_columns" => json!({"columns": ["t"]}),
                "validate.completeness" => json!({"fields": ["t"]}),
                "validate.schema" => json!({"schema": {}}),
                _ => json!({}),
            };
            let mut ws = Workspace::new(&page, ToolLimits::default());
            let _ = registry.execute(
                &mut ws,
                &ToolCall::new(
                    "extract.fields",
                    json!({"selector": "div.item", "fields": {"t": "h3"}}),
                    "",
                ),
            );
            let t = Instant::now();
            let full = registry.execute(&mut ws, &ToolCall::new(tool.name, params.clone(), ""));
            let whole = t.elapsed();
            let flag = Arc::new(AtomicBool::new(false));
            let mut ws = Workspace::new(&page, ToolLimits::default())
                .with_interrupt(Interrupt::from_flag(flag.clone()));
            let _ = registry.execute(
                &mut ws,
                &ToolCall::new(
                    "extract.fields",
                    json!({"selector": "div.item", "fields": {"t": "h3"}}),
                    "",
                ),
            );
            let f2 = flag.clone();
            let h = std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(20));
                f2.store(true, Ordering::Relaxed);
            });
            let t = Instant::now();
            let cut = registry.execute(&mut ws, &ToolCall::new(tool.name, params, ""));
            let stopped = t.elapsed();
            h.join().unwrap();
            eprintln!(
                "{:24} whole {:>8.1?} ok={} | interrupted@20ms {:>8.1?} {:?}",
                tool.name,
                whole,
                full.success,
                stopped,
                cut.error.map(|e| e.chars().take(30).collect::<String>())
            );
        }
    }
}
