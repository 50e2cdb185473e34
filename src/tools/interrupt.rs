//! Stopping a tool while it runs.
//!
//! A run that is cancelled or times out must not wait for a tool working through a large page.
//! The caller builds an [`Interrupt`] (from the run's cancellation token, a shared flag and/or a
//! deadline) and puts it in the [`Workspace`](super::Workspace). The executor fails a call whose
//! interrupt is set before it starts, and *any* call that finishes while it is set, with
//! [`ToolError::Interrupted`]: an interrupt is never unset, so a loop that stops early only has
//! to stop — whatever it returns is thrown away.
//!
//! While a call runs, its interrupt is also this thread's *current* interrupt, so the helpers
//! deep inside tools (DOM walks, element iteration, sorting) can check it without a parameter
//! threaded through every function: [`interrupted`] costs one thread-local read and one atomic
//! load, and the loops call it once every [`CHECK_EVERY`] nodes.

use std::cell::RefCell;
use std::iter::FusedIterator;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use ego_tree::iter::{Edge, Traverse};
use scraper::{ElementRef, Html, Node, Selector};
use tokio_util::sync::CancellationToken;

use super::registry::ToolError;

/// Nodes (or records) a loop handles between two checks of the interrupt.
pub const CHECK_EVERY: u32 = 512;

/// Elements [`select`] tries between two checks: matching one element against a selector with
/// `:has` can walk a large part of the page, so these checks are closer together.
pub const SELECT_CHECK_EVERY: u32 = 16;

/// What stops a tool: a cancellation token, a shared flag, a deadline — any of them set.
#[derive(Debug, Clone, Default)]
pub struct Interrupt {
    token: Option<CancellationToken>,
    flag: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
}

impl Interrupt {
    /// An interrupt that never fires (tests, benches, tools run outside a run).
    pub fn never() -> Self {
        Self::default()
    }

    /// Fires when `token` is cancelled.
    pub fn from_token(token: CancellationToken) -> Self {
        Self {
            token: Some(token),
            ..Self::default()
        }
    }

    /// Fires when `flag` is true.
    pub fn from_flag(flag: Arc<AtomicBool>) -> Self {
        Self {
            flag: Some(flag),
            ..Self::default()
        }
    }

    /// Also fires once `deadline` has passed.
    #[must_use]
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// Whether the tool should stop now. Once true, stays true.
    pub fn is_set(&self) -> bool {
        self.token
            .as_ref()
            .is_some_and(CancellationToken::is_cancelled)
            || self
                .flag
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// `Err(Interrupted)` when set.
    ///
    /// # Errors
    /// The interrupt is set.
    pub fn check(&self) -> Result<(), ToolError> {
        if self.is_set() {
            Err(ToolError::Interrupted)
        } else {
            Ok(())
        }
    }

    /// Makes this the thread's current interrupt until the guard is dropped.
    pub(crate) fn install(&self) -> CurrentGuard {
        let previous = CURRENT.with(|c| c.replace(Some(self.clone())));
        CurrentGuard { previous }
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Interrupt>> = const { RefCell::new(None) };
}

/// Restores the previous current interrupt when dropped.
#[derive(Debug)]
pub(crate) struct CurrentGuard {
    previous: Option<Interrupt>,
}

impl Drop for CurrentGuard {
    fn drop(&mut self) {
        let previous = self.previous.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

/// Whether the call running on this thread was interrupted (false outside a call).
pub fn interrupted() -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(Interrupt::is_set))
}

/// [`interrupted`] as a `Result`, for `?` in tool loops.
///
/// # Errors
/// The running call was interrupted.
pub fn check() -> Result<(), ToolError> {
    if interrupted() {
        Err(ToolError::Interrupted)
    } else {
        Ok(())
    }
}

/// Counts loop turns and checks the interrupt every [`CHECK_EVERY`] of them.
#[derive(Debug)]
pub struct Ticker {
    turns: u32,
    every: u32,
    stopped: bool,
}

impl Default for Ticker {
    fn default() -> Self {
        Self::every(CHECK_EVERY)
    }
}

impl Ticker {
    /// A ticker that checks every `every` turns.
    pub fn every(every: u32) -> Self {
        Self {
            turns: 0,
            every: every.max(1),
            stopped: false,
        }
    }

    /// One more turn; true when the loop should stop (and from then on).
    pub fn stop(&mut self) -> bool {
        self.turns = self.turns.wrapping_add(1);
        if !self.stopped && self.turns.is_multiple_of(self.every) {
            self.stopped = interrupted();
        }
        self.stopped
    }

    /// One more turn, as a `Result` for `?`.
    ///
    /// # Errors
    /// The running call was interrupted.
    pub fn tick(&mut self) -> Result<(), ToolError> {
        if self.stop() {
            Err(ToolError::Interrupted)
        } else {
            Ok(())
        }
    }
}

/// Elements under `root` matching `selector`, like [`ElementRef::select`], but the walk ends
/// early when the running call is interrupted (checked every [`SELECT_CHECK_EVERY`] elements,
/// matching or not: a selector that matches nothing on a huge page is the slow case).
pub fn select<'a, 'b>(root: ElementRef<'a>, selector: &'b Selector) -> Select<'a, 'b> {
    let mut inner = root.traverse();
    inner.next(); // Not the root itself, as `ElementRef::select`.
    Select {
        scope: Some(root),
        inner,
        selector,
        ticker: Ticker::every(SELECT_CHECK_EVERY),
    }
}

/// Elements of the whole document matching `selector`, like [`Html::select`], interruptible.
pub fn select_document<'a, 'b>(document: &'a Html, selector: &'b Selector) -> Select<'a, 'b> {
    // `<html>` itself can match, as in `Html::select`; comments and doctypes beside it hold
    // no elements.
    let inner = document.root_element().traverse();
    Select {
        scope: None,
        inner,
        selector,
        ticker: Ticker::every(SELECT_CHECK_EVERY),
    }
}

/// `select_checked`: [`select_document`] / [`select`] as a method, for code that reads the
/// page outside the tools (content extraction, structured data) but runs inside tool calls.
pub trait SelectChecked<'a> {
    /// Matching elements, like scraper's `select`, ending early when the call is interrupted.
    fn select_checked<'b>(self, selector: &'b Selector) -> Select<'a, 'b>;
}

impl<'a> SelectChecked<'a> for &'a Html {
    fn select_checked<'b>(self, selector: &'b Selector) -> Select<'a, 'b> {
        select_document(self, selector)
    }
}

impl<'a> SelectChecked<'a> for ElementRef<'a> {
    fn select_checked<'b>(self, selector: &'b Selector) -> Select<'a, 'b> {
        select(self, selector)
    }
}

/// The iterator of [`select`] and [`select_document`].
#[derive(Debug)]
pub struct Select<'a, 'b> {
    scope: Option<ElementRef<'a>>,
    inner: Traverse<'a, Node>,
    selector: &'b Selector,
    ticker: Ticker,
}

impl<'a> Iterator for Select<'a, '_> {
    type Item = ElementRef<'a>;

    fn next(&mut self) -> Option<ElementRef<'a>> {
        // Once interrupted, the ticker stays stopped: the iterator is fused without walking
        // the rest of the tree.
        if self.ticker.stopped {
            return None;
        }
        for edge in &mut self.inner {
            if let Edge::Open(node) = edge
                && let Some(element) = ElementRef::wrap(node)
            {
                if self.ticker.stop() {
                    return None;
                }
                if self.selector.matches_with_scope(&element, self.scope) {
                    return Some(element);
                }
            }
        }
        None
    }
}

impl FusedIterator for Select<'_, '_> {}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(by_flag.check(), Err(ToolError::Interrupted));
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

        use super::super::Interrupt;
        use crate::tools::{Page, Registry, ToolCall, ToolCallResult, ToolLimits, Workspace};

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
#[cfg(test)]
mod latency_probe {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    use serde_json::json;

    use super::Interrupt;
    use crate::tools::{Page, Registry, ToolCall, ToolLimits, Workspace};

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
