//! Fetch-ahead: the pages of the next URLs are fetched while the current one is planned and
//! extracted. Only the network work happens early; the run still emits each URL's events when
//! its turn comes, so the event order is the same as fetching one URL after another.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use tokio_util::task::AbortOnDropHandle;

use crate::fetch::{FetchError, FetchedPage, Fetcher};

/// One finished fetch and how long it took (from its start, waits for the host included).
#[derive(Debug)]
pub(super) struct Fetched {
    /// The page, or why there is none.
    pub result: Result<FetchedPage, FetchError>,
    /// Time from the start of the fetch to its end.
    pub took: Duration,
}

/// The fetches of one run: at most `window` in flight or waiting to be taken (the current
/// URL's included). Dropping it aborts every fetch not taken yet.
#[derive(Debug)]
pub(super) struct Prefetch {
    fetcher: Fetcher,
    urls: Vec<String>,
    window: usize,
    /// Index of the first URL in `pending`.
    first: usize,
    pending: VecDeque<AbortOnDropHandle<Fetched>>,
}

impl Prefetch {
    /// Fetch-ahead over `urls`, at most `window` (at least 1) fetches at a time.
    pub(super) fn new(fetcher: Fetcher, urls: Vec<String>, window: usize) -> Self {
        Self {
            fetcher,
            urls,
            window: window.max(1),
            first: 0,
            pending: VecDeque::new(),
        }
    }

    /// The fetch of URL `index` (taken in order, each once), after starting the fetches of the
    /// URLs after it that fit in the window. Dropping the handle aborts that fetch.
    pub(super) fn take(&mut self, index: usize) -> Option<AbortOnDropHandle<Fetched>> {
        if index < self.first {
            return None; // already taken
        }
        // A URL skipped by the caller: its fetch (if started) is dropped, so aborted.
        while self.first < index {
            self.pending.pop_front();
            self.first += 1;
        }
        let end = (index + self.window).min(self.urls.len());
        while self.first + self.pending.len() < end {
            let url = self.urls[self.first + self.pending.len()].clone();
            let fetcher = self.fetcher.clone();
            self.pending
                .push_back(AbortOnDropHandle::new(tokio::spawn(async move {
                    let started = Instant::now();
                    let result = fetcher.fetch_html(&url).await;
                    Fetched {
                        result,
                        took: started.elapsed(),
                    }
                })));
        }
        let handle = self.pending.pop_front()?;
        self.first += 1;
        Some(handle)
    }

    /// Lets `window` fetches run at a time from the next `take` on (the first item's page read
    /// alone, the others fetched ahead once it showed what was looked for).
    pub(super) fn widen(&mut self, window: usize) {
        self.window = self.window.max(window);
    }

    /// Adds a URL after the last (a page a crawl found); its fetch starts when it fits in the
    /// window.
    pub(super) fn push(&mut self, url: String) {
        self.urls.push(url);
    }

    /// Aborts every fetch not taken yet.
    pub(super) fn abort_all(&mut self) {
        self.first += self.pending.len();
        self.pending.clear();
    }
}
