//! The page worker: parses a page once on a blocking thread and runs tools there, so a large
//! page never stalls the async workers that carry other streams. Pages are admitted to memory
//! by a server-wide budget, and each is parsed under a cap on its nodes.

use std::sync::Arc;

use serde_json::Value;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};
use tokio_util::sync::{CancellationToken, DropGuard};
use url::Url;

use crate::page::{Interrupt, Page, TooManyNodes};
use crate::planner::Outline;
use crate::read::outline::outline;
use crate::settings::LimitSettings;
use crate::tools::{Registry, ToolCall, ToolCallResult, ToolLimits, Workspace};

/// What one node of a parsed page costs in memory while a run reads it (the node, its name,
/// attributes and text, the tools' work on it): 185 to 205 bytes measured over pages of tiny
/// elements at the body cap and just under the node cap (`cargo run --release --example
/// memory_worst_page`: peak RSS of one run less the idle process, over the page's nodes).
const BYTES_PER_NODE: u64 = 200;

/// Copies of the body held while a page is parsed: the decoded document and the slices fed
/// to the parser.
const BODY_COPIES: u64 = 2;

/// The budget is counted in KiB, so a large budget fits the semaphore's `u32` permits.
const UNIT: u64 = 1024;

/// The server-wide budget of memory for parsed pages (`limits.max_page_memory_bytes`) and the
/// node cap each page is parsed under (`limits.max_page_nodes`). A page takes its share
/// before it is parsed and gives it back when its worker ends, so many large pages at once
/// wait their turn instead of all taking memory together. Clones share the budget.
#[derive(Debug, Clone)]
pub struct PageBudget {
    /// Free KiB; `None` when the budget is off.
    free: Option<Arc<Semaphore>>,
    /// The whole budget in KiB: no page asks for more, so a page larger than the budget
    /// is still admitted, alone.
    whole: u32,
    max_nodes: usize,
}

impl PageBudget {
    /// The budget the settings give.
    pub fn new(limits: &LimitSettings) -> Self {
        let whole = u32::try_from(limits.max_page_memory_bytes / UNIT).unwrap_or(u32::MAX);
        Self {
            free: (whole > 0).then(|| Arc::new(Semaphore::new(whole as usize))),
            whole,
            max_nodes: limits.max_page_nodes,
        }
    }

    /// The share of a page of `html`, in KiB: its worst-case memory, at least 1 and at most
    /// the whole budget. A tag makes at most an element and the text after it, so a page
    /// holds at most two nodes per `<` (and never more than the node cap lets it build); a
    /// count of `<` is a pass over the bytes, far cheaper than the parse it sizes.
    fn share(&self, html: &str) -> u32 {
        let tags = html.bytes().filter(|b| *b == b'<').count() as u64;
        let nodes = tags
            .saturating_mul(2)
            .saturating_add(1)
            .min(self.max_nodes as u64);
        let bytes = (html.len() as u64)
            .saturating_mul(BODY_COPIES)
            .saturating_add(nodes.saturating_mul(BYTES_PER_NODE));
        u32::try_from(bytes.div_ceil(UNIT))
            .unwrap_or(u32::MAX)
            .clamp(1, self.whole.max(1))
    }

    /// Waits until the share of a page of `html` is free and takes it (nothing to take when
    /// the budget is off). Waiters are served in order, so a large page is not passed over
    /// forever by small ones.
    async fn admit(&self, html: &str) -> Option<OwnedSemaphorePermit> {
        let free = self.free.as_ref()?;
        let share = self.share(html);
        // The semaphore is never closed, so acquiring only fails in theory.
        free.clone().acquire_many_owned(share).await.ok()
    }

    /// KiB free now (the whole budget when it is off); for tests and logs.
    pub fn free_kib(&self) -> usize {
        self.free
            .as_ref()
            .map_or(self.whole as usize, |free| free.available_permits())
    }
}

enum Job {
    Outline(oneshot::Sender<Result<Outline, WorkerError>>),
    Execute(
        ToolCall,
        oneshot::Sender<Result<(ToolCallResult, bool), WorkerError>>,
    ),
    Answer(oneshot::Sender<Result<Value, WorkerError>>),
    /// The page the browser shows now, with its share of the budget: parsed in place of the
    /// current one; the working value and the saved results stay.
    Replace(
        Url,
        String,
        Option<OwnedSemaphorePermit>,
        oneshot::Sender<Result<(), WorkerError>>,
    ),
}

impl Job {
    /// Answers the job with `error` (the page could not be parsed).
    fn refuse(self, error: WorkerError) {
        match self {
            Self::Outline(reply) => drop(reply.send(Err(error))),
            Self::Execute(_, reply) => drop(reply.send(Err(error))),
            Self::Answer(reply) => drop(reply.send(Err(error))),
            Self::Replace(_, _, _, reply) => drop(reply.send(Err(error))),
        }
    }
}

/// A handle to one page's worker; dropping every clone ends the worker (and gives its page's
/// memory back, or takes it out of the queue for memory when it was still waiting).
#[derive(Debug, Clone)]
pub struct PageWorker {
    jobs: mpsc::Sender<Job>,
    budget: PageBudget,
    _alive: Arc<DropGuard>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Outline(_) => "Outline",
            Self::Execute(..) => "Execute",
            Self::Answer(_) => "Answer",
            Self::Replace(..) => "Replace",
        })
    }
}

/// Why a page worker could not answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WorkerError {
    /// The page has more nodes than `limits.max_page_nodes`; it was not kept.
    #[error(transparent)]
    TooManyNodes(#[from] TooManyNodes),
    /// The worker stopped (it panicked while parsing, which the tests say it does not).
    #[error("the page worker stopped unexpectedly")]
    Gone,
}

impl PageWorker {
    /// Starts a worker for `html` fetched from `url`: it waits for the page's share of
    /// `budget`, then parses it under the budget's node cap; `interrupt` stops a tool mid-way.
    pub fn spawn(
        url: Url,
        html: String,
        registry: Arc<Registry>,
        limits: ToolLimits,
        interrupt: Interrupt,
        budget: &PageBudget,
    ) -> Self {
        let (jobs, inbox) = mpsc::channel::<Job>(4);
        let alive = CancellationToken::new();
        let abandoned = alive.clone();
        let handle_budget = budget.clone();
        let budget = budget.clone();
        tokio::spawn(async move {
            let permit = tokio::select! {
                () = abandoned.cancelled() => return,
                permit = budget.admit(&html) => permit,
            };
            let max_nodes = budget.max_nodes;
            let parsed = tokio::task::spawn_blocking(move || {
                // The page's share of the budget goes back once the page is gone.
                serve(
                    url, html, permit, max_nodes, inbox, &registry, limits, interrupt,
                );
            });
            let _ = parsed.await;
        });
        Self {
            jobs,
            budget: handle_budget,
            _alive: Arc::new(alive.drop_guard()),
        }
    }

    /// The page outline.
    ///
    /// # Errors
    /// When the worker is gone.
    pub async fn outline(&self) -> Result<Outline, WorkerError> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job::Outline(reply))
            .await
            .map_err(|_| WorkerError::Gone)?;
        answer.await.map_err(|_| WorkerError::Gone)?
    }

    /// Runs one call; also says whether the workspace now holds a non-empty answer.
    ///
    /// # Errors
    /// When the worker is gone.
    pub async fn execute(&self, call: ToolCall) -> Result<(ToolCallResult, bool), WorkerError> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job::Execute(call, reply))
            .await
            .map_err(|_| WorkerError::Gone)?;
        answer.await.map_err(|_| WorkerError::Gone)?
    }

    /// Parses `html`, the page the browser shows at `url` now, in place of the current page
    /// (after waiting for its share of the memory budget); the working value and the saved
    /// results stay, the selection goes (it was of the old page).
    ///
    /// # Errors
    /// When the worker is gone, or the new page is over the node cap.
    pub async fn replace(&self, url: Url, html: String) -> Result<(), WorkerError> {
        let permit = self.budget.admit(&html).await;
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job::Replace(url, html, permit, reply))
            .await
            .map_err(|_| WorkerError::Gone)?;
        answer.await.map_err(|_| WorkerError::Gone)?
    }

    /// The current answer for the URL.
    ///
    /// # Errors
    /// When the worker is gone.
    pub async fn answer(&self) -> Result<Value, WorkerError> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job::Answer(reply))
            .await
            .map_err(|_| WorkerError::Gone)?;
        answer.await.map_err(|_| WorkerError::Gone)?
    }
}

/// The worker's thread: parses the page, then answers jobs until every handle is gone; a
/// `Replace` parses the new page and goes on with the same value and saved results. A page over
/// the node cap answers each job with the reason.
#[allow(clippy::too_many_arguments)]
fn serve(
    mut url: Url,
    mut html: String,
    mut permit: Option<OwnedSemaphorePermit>,
    max_nodes: usize,
    mut inbox: mpsc::Receiver<Job>,
    registry: &Registry,
    limits: ToolLimits,
    interrupt: Interrupt,
) {
    let mut carried = (Value::Null, serde_json::Map::new());
    loop {
        let parsed = Page::parse_within(url, &html, max_nodes);
        drop(std::mem::take(&mut html));
        let page = match parsed {
            Ok(page) => page,
            Err(too_many) => {
                while let Some(job) = inbox.blocking_recv() {
                    job.refuse(too_many.into());
                }
                return;
            }
        };
        let mut ws = Workspace::new(&page, limits).with_interrupt(interrupt.clone());
        (ws.value, ws.saved) = std::mem::take(&mut carried);
        let next = loop {
            let Some(job) = inbox.blocking_recv() else {
                return;
            };
            match job {
                Job::Outline(reply) => {
                    let _ = reply.send(Ok(outline(&page)));
                }
                Job::Execute(call, reply) => {
                    let result = registry.execute(&mut ws, &call);
                    let have_answer = has_content(&ws.answer());
                    let _ = reply.send(Ok((result, have_answer)));
                }
                Job::Answer(reply) => {
                    let _ = reply.send(Ok(ws.answer()));
                }
                Job::Replace(new_url, new_html, new_permit, reply) => {
                    let _ = reply.send(Ok(()));
                    break (new_url, new_html, new_permit);
                }
            }
        };
        carried = (std::mem::take(&mut ws.value), std::mem::take(&mut ws.saved));
        drop(ws);
        drop(page);
        let (next_url, next_html, next_permit) = next;
        // The old page is gone: its share of the budget goes back, the new one's is held.
        drop(std::mem::replace(&mut permit, next_permit));
        (url, html) = (next_url, next_html);
    }
}

/// Whether an answer holds anything: a non-empty list, a non-empty text, an object with a value.
pub fn has_content(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Array(items) => !items.is_empty(),
        Value::String(text) => !text.trim().is_empty(),
        Value::Object(map) => map.values().any(has_content),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::settings::Settings;

    fn budget(bytes: u64, max_nodes: usize) -> PageBudget {
        let mut limits = Settings::defaults().limits;
        limits.max_page_memory_bytes = bytes;
        limits.max_page_nodes = max_nodes;
        PageBudget::new(&limits)
    }

    fn worker(html: String, budget: &PageBudget) -> PageWorker {
        PageWorker::spawn(
            Url::parse("https://page.example/").unwrap(),
            html,
            Arc::new(Registry::builtin()),
            ToolLimits::default(),
            Interrupt::never(),
            budget,
        )
    }

    #[test]
    fn a_share_counts_the_nodes_a_page_can_make_up_to_the_cap() {
        let budget = budget(1 << 30, 1_000);
        // 100 tags: at most 201 nodes of 200 bytes, and two copies of the 700-byte body.
        assert_eq!(budget.share(&"<b>x</b>".repeat(50)), 41);
        // Past the cap the page is refused while parsed: its share stops growing there.
        let huge = "<b>x</b>".repeat(100_000);
        assert_eq!(
            u64::from(budget.share(&huge)),
            (2 * huge.len() as u64 + 1_000 * BYTES_PER_NODE).div_ceil(UNIT)
        );
        assert_eq!(budget.share(""), 1);
        // A page larger than the whole budget asks for the whole budget, never more.
        let small = self::budget(64 * 1024, usize::MAX);
        assert_eq!(small.share(&huge), 64);
    }

    #[tokio::test]
    async fn a_page_waits_for_memory_until_an_earlier_one_is_dropped() {
        // Each page needs more than half of the budget: the second waits for the first.
        let budget = budget(64 * 1024, usize::MAX);
        let page = format!("<ul>{}</ul>", "<li>x".repeat(80));
        assert!(budget.share(&page) > 32);
        let first = worker(page.clone(), &budget);
        first.outline().await.unwrap();
        let second = worker(page, &budget);
        let waited = tokio::time::timeout(Duration::from_millis(200), second.outline()).await;
        assert!(
            waited.is_err(),
            "the second page was parsed while the first held memory"
        );
        drop(first);
        let outline = tokio::time::timeout(Duration::from_secs(5), second.outline()).await;
        assert!(matches!(outline, Ok(Ok(_))));
        drop(second);
        // Every share comes back once the pages are gone.
        tokio::time::timeout(Duration::from_secs(5), async {
            while budget.free_kib() < 64 {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
        .await
        .unwrap();
    }

    #[tokio::test]
    async fn a_page_larger_than_the_budget_is_read_alone() {
        let budget = budget(4 * 1024, usize::MAX);
        let big = worker("<p>x".repeat(10_000), &budget);
        let outline = tokio::time::timeout(Duration::from_secs(5), big.outline()).await;
        assert!(matches!(outline, Ok(Ok(_))));
        assert_eq!(budget.free_kib(), 0);
    }

    #[tokio::test]
    async fn a_worker_dropped_while_waiting_leaves_the_queue() {
        let budget = budget(4 * 1024, usize::MAX);
        let holder = worker("<p>x".repeat(10_000), &budget);
        holder.outline().await.unwrap();
        let waiting = worker("<p>x".repeat(10_000), &budget);
        tokio::time::sleep(Duration::from_millis(20)).await;
        drop(waiting);
        drop(holder);
        // Had the dropped waiter kept its place, it would take the budget back (and parse).
        let third = worker("<p>y".repeat(10_000), &budget);
        let outline = tokio::time::timeout(Duration::from_secs(5), third.outline()).await;
        assert!(matches!(outline, Ok(Ok(_))));
    }

    #[tokio::test]
    async fn a_replaced_page_is_read_with_the_value_and_saved_results_kept() {
        let budget = budget(1 << 30, 10_000);
        let page = worker("<h1>Before</h1>".into(), &budget);
        let mut keep = ToolCall::typed(
            &crate::tools::html::TextParams {
                selector: Some("h1".into()),
            },
            "",
        );
        keep.save_as = Some("heading".into());
        assert!(page.execute(keep).await.unwrap().0.success);
        page.replace(
            Url::parse("https://page.example/#/after").unwrap(),
            "<ul><li>one<li>two</ul>".into(),
        )
        .await
        .unwrap();
        // The kept result is of the old page; the new call reads the new one.
        let select = ToolCall::typed(
            &crate::tools::html::SelectParams {
                selector: "li".into(),
                limit: None,
                within: false,
            },
            "",
        );
        let (result, _) = page.execute(select).await.unwrap();
        assert_eq!(result.items, 2, "{result:?}");
        let answer = page.answer().await.unwrap();
        assert_eq!(answer["heading"], serde_json::json!(["Before"]), "{answer}");
    }

    #[tokio::test]
    async fn a_page_over_the_node_cap_answers_every_job_with_the_reason() {
        let budget = budget(1 << 30, 500);
        let big = worker("<li>x".repeat(1_000), &budget);
        let refused = WorkerError::TooManyNodes(TooManyNodes { limit: 500 });
        assert_eq!(big.outline().await.unwrap_err(), refused);
        assert_eq!(big.answer().await.unwrap_err(), refused);
        let call = ToolCall::typed(&crate::tools::extract::MainContentParams::default(), "read");
        assert_eq!(big.execute(call).await.unwrap_err(), refused);
        // Under the cap the same worker reads the page.
        let small = worker("<li>x".repeat(10), &budget);
        assert!(small.outline().await.is_ok());
    }
}
