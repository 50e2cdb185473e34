//! The `render` step of a URL's page: whether the browser renders it (the request's `render`
//! mode, then [`crate::browser::decide`]'s rules), with the evidence; the rounds that grew its
//! list as `navigate` steps; a failed render as a typed `error`, after which the run goes on
//! with the HTML it fetched. A page read from its HTML whose planned tools found nothing, and
//! which ships scripts, gets a second `render` step (rule `nothing_found_with_scripts`) and is
//! planned again on what the browser drew.

use super::{NewStep, Run};
use crate::browser::decide::{self, Decision, Evidence, Known, Wanted};
use crate::browser::{Grow, RenderError, RoundKind};
use crate::events::{
    ErrorCode, ErrorData, EventPayload, GrowDecision, GrowRound, NavigateDetails, RenderDetails,
    RenderMode, RenderRule, StepPayload, StepStatus,
};
use crate::fetch::FetchedPage;
use crate::planner::intent::{Intent, Request};

/// A page read from its HTML that ships scripts: rendered after all when the planned tools find
/// nothing on it ([`Run::render_when_nothing_found`]).
pub(super) struct SecondChance {
    page: FetchedPage,
    evidence: Evidence,
}

impl Run<'_> {
    /// Renders `page` when the request's mode and the rules say so; the page to read comes back
    /// (the rendered DOM, or the fetched HTML when not rendered or the render failed), with its
    /// second chance when it was read from its HTML under `render: auto`, and whether it was
    /// rendered. An error only for `render: always` without a browser.
    pub(super) async fn render_if_needed(
        &mut self,
        url: &str,
        page: FetchedPage,
    ) -> Result<(FetchedPage, Option<SecondChance>, bool), ErrorData> {
        let mode = self.request.render;
        let host = page.final_url.host_str().unwrap_or("").to_owned();
        // A large page's parse must not hold the run's thread (the next URLs' fetches run there).
        let html = page.html.clone();
        let parsed = tokio::task::spawn_blocking(move || match mode {
            RenderMode::Never => Evidence::default(),
            RenderMode::Always | RenderMode::Auto => decide::evidence(&html),
        })
        .await
        .unwrap_or_default();
        let decision = match mode {
            RenderMode::Never => Decision {
                rule: RenderRule::Never,
                render: false,
                evidence: Evidence::default(),
            },
            RenderMode::Always => Decision {
                rule: RenderRule::Always,
                render: true,
                evidence: parsed,
            },
            RenderMode::Auto => {
                let known = Known {
                    host_needed_rendering: self.deps.browser.host_memory.needs_rendering(&host),
                    nothing_found: false,
                    list_grows: self.growth().grow,
                };
                decide::decide_on(parsed, known)
            }
        };
        let browser = self.deps.browser.clone();
        let details = RenderDetails {
            mode,
            rule: decision.rule,
            rendered: false,
            text_chars: decision.evidence.text_chars,
            scripts: decision.evidence.scripts,
            markers: decision.evidence.markers.clone(),
            browser_available: browser.available(),
            requests: None,
            bytes: None,
            refused: Vec::new(),
            rendered_text_chars: None,
            error: None,
            grow: None,
        };
        if !decision.render {
            self.render_step(
                url,
                details,
                StepStatus::Completed,
                "Not rendered: the HTML is read as it is".into(),
                None,
            )
            .await;
            let second_chance =
                (mode == RenderMode::Auto && browser.available() && decision.evidence.scripts > 0)
                    .then(|| SecondChance {
                        page: page.clone(),
                        evidence: decision.evidence,
                    });
            return Ok((page, second_chance, false));
        }
        self.render_decided(url, page, mode, details)
            .await
            .map(|(page, rendered)| (page, None, rendered))
    }

    /// After the planned tools found nothing on a page read from its HTML: the rules asked
    /// again knowing it, and the page rendered when they say so. The rendered page comes back,
    /// or nothing when it was not rendered (the rules said no, the render failed, a stop).
    pub(super) async fn render_when_nothing_found(
        &mut self,
        url: &str,
        chance: SecondChance,
    ) -> Option<FetchedPage> {
        let host = chance.page.final_url.host_str().unwrap_or("").to_owned();
        let known = Known {
            host_needed_rendering: self.deps.browser.host_memory.needs_rendering(&host),
            nothing_found: true,
            list_grows: self.growth().grow,
        };
        let decision = decide::decide_on(chance.evidence, known);
        if !decision.render {
            return None;
        }
        let details = RenderDetails {
            mode: RenderMode::Auto,
            rule: decision.rule,
            rendered: false,
            text_chars: decision.evidence.text_chars,
            scripts: decision.evidence.scripts,
            markers: decision.evidence.markers,
            browser_available: self.deps.browser.available(),
            requests: None,
            bytes: None,
            refused: Vec::new(),
            rendered_text_chars: None,
            error: None,
            grow: None,
        };
        match self
            .render_decided(url, chance.page, RenderMode::Auto, details)
            .await
        {
            Ok((page, true)) => Some(page),
            Ok((_, false)) | Err(_) => None,
        }
    }

    /// The plan on a page rendered after finding nothing found something: its host needs
    /// rendering.
    pub(super) fn rendering_helped(&self, page_url: &url::Url) {
        self.deps
            .browser
            .host_memory
            .needed_rendering(page_url.host_str().unwrap_or(""));
    }

    /// Renders `page`, whose rules said so, in the browser, with its `render` step (and the
    /// `navigate` steps of its rounds); the page comes back with whether it was rendered.
    async fn render_decided(
        &mut self,
        url: &str,
        mut page: FetchedPage,
        mode: RenderMode,
        mut details: RenderDetails,
    ) -> Result<(FetchedPage, bool), ErrorData> {
        let browser = self.deps.browser.clone();
        let host = page.final_url.host_str().unwrap_or("").to_owned();
        let growth = self.growth();
        details.grow = Some(growth);
        if !browser.available() {
            let message = format!(
                "{} (install the Debian package `{}`)",
                RenderError::Unavailable,
                crate::browser::PACKAGE
            );
            details.error = Some(message.clone());
            if mode == RenderMode::Always {
                self.render_step(url, details, StepStatus::Failed, message.clone(), None)
                    .await;
                return Err(ErrorData {
                    code: ErrorCode::RenderUnavailable,
                    message,
                    url: Some(url.to_owned()),
                    retryable: false,
                });
            }
            self.render_step(
                url,
                details,
                StepStatus::Skipped,
                format!("The page needs rendering but {message}; answering from the HTML"),
                None,
            )
            .await;
            return Ok((page, false));
        }
        let grow = if growth.grow {
            Grow::UntilStill {
                max_rounds: self.deps.settings.browser.max_grow_rounds,
                want: growth.want,
            }
        } else {
            Grow::No
        };
        let rendered = tokio::select! {
            biased;
            () = self.control.stopped() => return Ok((page, false)),
            rendered = browser.render(&page.final_url, &page.html, None, grow) => rendered,
        };
        match rendered {
            Ok(rendered) => {
                self.round_steps(url, &rendered.rounds).await;
                // A render after a plan that found nothing is remembered once the plan on
                // it finds something ([`Run::rendering_helped`]): scripts on a page that
                // lacks what was asked do not make its whole site rendered. Nor does a
                // "Load more" on a page whose HTML holds its first items.
                if !matches!(
                    details.rule,
                    RenderRule::NothingFoundWithScripts | RenderRule::LoadMoreControl
                ) {
                    browser.host_memory.needed_rendering(&host);
                }
                let after = decide::evidence(&rendered.html);
                details.rendered = true;
                details.requests = Some(rendered.requests);
                details.bytes = Some(rendered.bytes);
                details.refused = rendered.refused;
                details.rendered_text_chars = after.text_chars;
                let message = format!(
                    "Rendered in the browser ({} requests, {} bytes{}): {} characters of text, {} before; {}",
                    rendered.requests,
                    rendered.bytes,
                    if details.refused.is_empty() {
                        String::new()
                    } else {
                        format!(", {} refused by the address guard", details.refused.len())
                    },
                    after.text_chars.unwrap_or(0),
                    details
                        .text_chars
                        .map_or_else(|| "none parsed".to_owned(), |n| n.to_string()),
                    grown_in_words(growth, rendered.rounds.len()),
                );
                self.render_step(
                    url,
                    details,
                    StepStatus::Completed,
                    message,
                    Some(rendered.took),
                )
                .await;
                page.html = rendered.html;
                Ok((page, true))
            }
            Err(err) => {
                let code = match err {
                    RenderError::Unavailable => ErrorCode::RenderUnavailable,
                    RenderError::Failed(_) => ErrorCode::RenderFailed,
                    RenderError::Timeout(_) => ErrorCode::RenderTimeout,
                };
                details.error = Some(err.to_string());
                self.render_step(
                    url,
                    details,
                    StepStatus::Failed,
                    format!("{err}; answering from the HTML"),
                    None,
                )
                .await;
                self.emit(EventPayload::Error(ErrorData {
                    code,
                    message: err.to_string(),
                    url: Some(url.to_owned()),
                    retryable: matches!(code, ErrorCode::RenderTimeout),
                }))
                .await;
                Ok((page, false))
            }
        }
    }

    /// Whether a render grows the page's list, by [`decide::growth`] on the request's words.
    fn growth(&self) -> GrowDecision {
        decide::growth(&wanted(
            &self.understood,
            &self.request.instructions,
            self.reach.target,
        ))
    }

    /// One `navigate` step per round that grew (or stopped growing) a page in the browser:
    /// the `render` step's rounds and those of `browser.click` / `browser.scroll`.
    pub(super) async fn round_steps(&mut self, url: &str, rounds: &[crate::browser::Round]) {
        for (index, round) in rounds.iter().enumerate() {
            let grown = round.elements_after > round.elements_before;
            let details = GrowRound {
                round: u32::try_from(index + 1).unwrap_or(u32::MAX),
                control: round.control.clone(),
                elements_before: round.elements_before,
                elements_after: round.elements_after,
                items: Some(round.items),
            };
            let what = match (round.kind, &round.control) {
                (RoundKind::Scroll, _) => "Scrolled to the end".to_owned(),
                (RoundKind::LoadMore | RoundKind::Click, Some(control)) => {
                    format!("Clicked “{control}”")
                }
                (RoundKind::LoadMore | RoundKind::Click, None) => "Clicked".to_owned(),
            };
            let payload = match round.kind {
                RoundKind::LoadMore => NavigateDetails::LoadMore(details),
                RoundKind::Click => NavigateDetails::Click(details),
                RoundKind::Scroll => NavigateDetails::Scroll(details),
            };
            self.step(NewStep {
                payload: StepPayload::Navigate(payload),
                url: Some(url.to_owned()),
                status: StepStatus::Completed,
                message: if grown {
                    format!(
                        "{what}: the page grew from {} to {} elements; its list holds {} items",
                        round.elements_before, round.elements_after, round.items
                    )
                } else {
                    format!("{what}: the page stopped growing")
                },
                reward: 0.0,
                duration_ms: None,
            })
            .await;
        }
    }

    async fn render_step(
        &mut self,
        url: &str,
        details: RenderDetails,
        status: StepStatus,
        message: String,
        took: Option<std::time::Duration>,
    ) {
        self.step(NewStep {
            payload: StepPayload::Render(details),
            url: Some(url.to_owned()),
            status,
            message,
            reward: 0.0,
            duration_ms: took.map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
        })
        .await;
    }

    /// A page reached from `url`'s page (its next page, an item's page): once its host needed
    /// rendering (the server's host memory, or `render: always`) it goes through the same
    /// decision and render, so a script-built list stays rendered across its pages; otherwise it
    /// is read as fetched, without a step.
    pub(super) async fn render_linked(
        &mut self,
        url: &str,
        page: FetchedPage,
    ) -> Result<FetchedPage, ErrorData> {
        let needed = match self.request.render {
            RenderMode::Never => false,
            RenderMode::Always => true,
            RenderMode::Auto => self
                .deps
                .browser
                .host_memory
                .needs_rendering(page.final_url.host_str().unwrap_or("")),
        };
        if needed {
            // A linked page has no second plan of its own: what it holds is read as rendered.
            Ok(self.render_if_needed(url, page).await?.0)
        } else {
            Ok(page)
        }
    }
}

/// The growth of a render in words: its rule, and the rounds it took.
fn grown_in_words(growth: GrowDecision, rounds: usize) -> String {
    let why = growth.rule.describe();
    match (growth.grow, growth.want) {
        (false, _) => format!("not grown: {why}"),
        (true, Some(want)) => format!("grown toward {want} items in {rounds} rounds: {why}"),
        (true, None) => format!("grown in {rounds} rounds until it stopped: {why}"),
    }
}

/// What `understood` (the request as the planner read it) and its `words` ask of a list's
/// growth; `count` is the number of items the run collects toward, when it names one.
fn wanted(understood: &Request, words: &str, count: Option<usize>) -> Wanted {
    Wanted {
        count: count.or(understood.count),
        keep_loading: decide::says_keep_loading(words),
        all_items: understood.many && !reads_one_thing(&understood.intent),
    }
}

/// Answers about one thing on a page (its article, its product, its metadata, its Markdown):
/// a longer list does not change them.
fn reads_one_thing(intent: &Intent) -> bool {
    matches!(
        intent,
        Intent::MainContent | Intent::Product | Intent::Metadata | Intent::Markdown
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::GrowRule;

    #[test]
    fn plain_words_decide_the_growth() {
        let grown = |words: &str| {
            let understood = crate::planner::intent::parse(words, None);
            let count = crate::planner::reach::item_target(words);
            decide::growth(&wanted(&understood, words, count))
        };
        for (words, rule) in [
            ("all products", GrowRule::AllItems),
            (
                "List all recipes with their name and time.",
                GrowRule::AllItems,
            ),
            ("every item, keep loading", GrowRule::KeepLoading),
            ("the first 40 products", GrowRule::CountWanted),
            ("Get the article text.", GrowRule::OneThing),
            ("the page title", GrowRule::OneThing),
        ] {
            assert_eq!(grown(words).rule, rule, "{words}");
        }
        assert_eq!(grown("the first 40 products").want, Some(40));
    }
}
