//! Stopping a tool while it runs.
//!
//! A run that is cancelled or times out must not wait for a tool working through a large page.
//! The caller builds an [`Interrupt`] (from the run's cancellation token, a shared flag and/or a
//! deadline) and puts it in the `Workspace`. The executor fails a call whose
//! interrupt is set before it starts, and *any* call that finishes while it is set, with
//! `ToolError::Interrupted`: an interrupt is never unset, so a loop that stops early only has
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
    pub fn check(&self) -> Result<(), Interrupted> {
        if self.is_set() {
            Err(Interrupted)
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

/// The call running on this thread was interrupted: whatever it computes is thrown away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("interrupted")]
pub struct Interrupted;

/// [`interrupted`] as a `Result`, for `?` in tool loops.
///
/// # Errors
/// The running call was interrupted.
pub fn check() -> Result<(), Interrupted> {
    if interrupted() {
        Err(Interrupted)
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
    pub fn tick(&mut self) -> Result<(), Interrupted> {
        if self.stop() {
            Err(Interrupted)
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
