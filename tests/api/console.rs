//! The web console at `/` in a real browser (headless Chromium over WebDriver) against the
//! real server and the fixture site: a run started from the form, its timeline and answer
//! table, an explicit plan, an LLM decision streamed into one row, a reload, a replaying
//! reconnection and a network drop in the middle of a run, main content with markup-like
//! text, a failed URL, cancelling, reopening a finished run from its link, and a server with
//! keys.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::browser::Browser;
use crate::support::openai::{FakeOpenAi, Reply};
use crate::support::{FixtureServer, Frame, TestApp, read_stream, spawn_app, spawn_app_with};

/// One browser at a time: Chromium is heavy on a small machine, and the tests of this binary
/// run in parallel.
static ONE_BROWSER_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

const RUN_TIMEOUT: Duration = Duration::from_secs(60);

fn artifacts() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/test-artifacts/console")
}

/// Fills the form and starts the run; returns the session id the page opened.
async fn submit(browser: &Browser, urls: &[String], instructions: &str) -> String {
    submit_to(browser, urls, instructions, "heuristic").await
}

/// [`submit`] with the planner to choose.
async fn submit_to(
    browser: &Browser,
    urls: &[String],
    instructions: &str,
    planner: &str,
) -> String {
    browser.type_into("#urls", &urls.join("\n")).await;
    browser.type_into("#instructions", instructions).await;
    browser
        .click("#output-format option[value='markdown']")
        .await;
    browser
        .click(&format!("#planner option[value='{planner}']"))
        .await;
    browser.click("#start-run").await;
    let id = browser
        .wait_for(
            "the page to open the new run",
            RUN_TIMEOUT,
            "const m = /^#\\/sessions\\/(.+)$/.exec(location.hash); \
             return m && document.getElementById('run-id').textContent === decodeURIComponent(m[1]) \
               ? decodeURIComponent(m[1]) : null;",
        )
        .await;
    id.as_str().unwrap().to_owned()
}

/// Waits until the run's badge shows `status`.
async fn wait_for_status(browser: &Browser, status: &str) {
    browser
        .wait_for(
            &format!("the run to be {status}"),
            RUN_TIMEOUT,
            &format!("return document.getElementById('run-status').dataset.status === '{status}';"),
        )
        .await;
}

/// Waits until the run's `complete` event has arrived and its answer is shown (the badge
/// alone may already say how a finished session ended, from its stored status).
async fn wait_for_answer(browser: &Browser) {
    browser
        .wait_for(
            "the answer",
            RUN_TIMEOUT,
            "return !document.getElementById('answer').hidden;",
        )
        .await;
}

/// Every stored event of a finished session, as a replay gives them.
async fn stored_events(app: &TestApp, id: &str) -> Vec<Frame> {
    read_stream(app.get(&format!("/api/scrape/{id}/events")).await).await
}

fn seq(frame: &Frame) -> u64 {
    frame.id.as_deref().unwrap().parse().unwrap()
}

/// The seqs of the events the timeline shows as rows (steps and errors), in seq order.
fn row_seqs(frames: &[Frame]) -> Vec<u64> {
    frames
        .iter()
        .filter(|f| f.event == "step" || f.event == "error")
        .map(seq)
        .collect()
}

/// The seqs of the timeline's rows, sorted (the page groups them by URL and action).
async fn timeline_seqs(browser: &Browser) -> Vec<u64> {
    let seqs = browser
        .eval(
            "return [...document.querySelectorAll('#timeline li[data-seq]')] \
               .map(li => Number(li.dataset.seq));",
            json!([]),
        )
        .await;
    let mut seqs: Vec<u64> = serde_json::from_value(seqs).unwrap();
    seqs.sort_unstable();
    seqs
}

/// The answer table's column names and its rows' cell texts, as shown.
async fn answer_table(browser: &Browser) -> (Vec<String>, Vec<Vec<String>>) {
    let table = browser
        .eval(
            "const t = document.querySelector('#view-table table.records'); \
             if (!t) return null; \
             return { columns: [...t.querySelectorAll('thead th')].map(th => th.dataset.column), \
                      rows: [...t.querySelectorAll('tbody tr')] \
                        .map(tr => [...tr.children].map(td => td.textContent)) };",
            json!([]),
        )
        .await;
    assert!(!table.is_null(), "the answer has a records table");
    (
        serde_json::from_value(table["columns"].clone()).unwrap(),
        serde_json::from_value(table["rows"].clone()).unwrap(),
    )
}

fn strings(rows: &[[&str; 2]]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|row| row.iter().map(|cell| (*cell).to_owned()).collect())
        .collect()
}

/// The first three stories of tests/fixtures/pages/news.html, read off the page.
const TOP_THREE: [[&str; 2]; 3] = [
    ["Show HN: A tiny SQLite-backed job queue in Rust", "412"],
    ["The hidden cost of microservices at small scale", "389"],
    ["Why our CI got 4x faster after switching to nextest", "305"],
];

#[tokio::test]
async fn a_run_from_the_form_fills_the_timeline_a_sortable_table_and_downloads() {
    let _turn = ONE_BROWSER_AT_A_TIME.lock().await;
    let Some(browser) = Browser::start().await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let news = fixtures.url("/pages/news.html");
    browser.goto(&format!("{}/", app.base)).await;
    let id = submit(
        &browser,
        std::slice::from_ref(&news),
        "top 3 stories with title and points",
    )
    .await;
    wait_for_status(&browser, "completed").await;

    // The timeline holds every step of the run once, grouped by URL, then by action.
    let frames = stored_events(&app, &id).await;
    assert_eq!(frames.last().unwrap().event, "complete");
    assert_eq!(timeline_seqs(&browser).await, row_seqs(&frames));
    let groups = browser
        .eval(
            "return [...document.querySelectorAll('#timeline .url-group')].map(g => ({ \
               url: g.dataset.url, status: g.dataset.status, \
               actions: [...g.querySelectorAll('.action-group')].map(a => a.dataset.action) }));",
            json!([]),
        )
        .await;
    assert_eq!(
        groups,
        json!([{"url": news, "status": "completed",
                "actions": ["fetch", "render", "agent_decision", "tool_call", "output"]}])
    );
    assert_eq!(
        browser
            .eval(
                "return document.getElementById('progress-text').textContent;",
                json!([])
            )
            .await,
        "1 / 1 URL"
    );
    // After the run its answer is the first thing on the page: above the form (and on screen
    // without scrolling), and the counts are in the singular where there is one.
    let layout = browser
        .eval(
            "const top = (id) => document.getElementById(id).getBoundingClientRect().top; \
             return { answer: top('answer'), form: top('new-run'), \
                      fold: window.innerHeight, \
                      summary: document.getElementById('answer-summary').textContent };",
            json!([]),
        )
        .await;
    assert!(
        layout["answer"].as_f64() < layout["form"].as_f64(),
        "the answer is above the form: {layout}"
    );
    assert!(
        layout["answer"].as_f64().unwrap() < layout["fold"].as_f64().unwrap(),
        "the answer starts above the fold: {layout}"
    );
    let summary = layout["summary"].as_str().unwrap();
    assert!(summary.contains("1 URL ·"), "{summary}");
    assert!(!summary.contains("1 URLs"), "{summary}");

    // Each tool call's panel shows the tool and outcome from the step's structured fields.
    let panels = browser
        .eval(
            "return [...document.querySelectorAll('.action-group[data-action=tool_call] li')] \
               .map(li => { const dd = [...li.querySelectorAll('.tool-panel > dd')]; \
                 return [dd[0].textContent, dd[1].textContent]; });",
            json!([]),
        )
        .await;
    let calls: Vec<Value> = frames
        .iter()
        .filter(|f| f.event == "step" && f.payload()["action"] == "tool_call")
        .map(|f| {
            let details = &f.payload()["extracted_data"];
            let success = if details["success"] == true {
                "yes"
            } else {
                "no"
            };
            json!([details["tool_name"], success])
        })
        .collect();
    assert!(!calls.is_empty());
    assert_eq!(panels, Value::Array(calls));

    // The answer: the three stories with the values the page shows, in page order.
    let (columns, rows) = answer_table(&browser).await;
    assert_eq!(columns, ["title", "points"]);
    assert_eq!(rows, strings(&TOP_THREE));
    browser
        .screenshot(&artifacts().join("finished-run.png"))
        .await;
    browser
        .eval(
            "document.querySelector('.action-group[data-action=tool_call]').scrollIntoView();",
            json!([]),
        )
        .await;
    browser
        .screenshot(&artifacts().join("tool-calls.png"))
        .await;

    // Sorting by points: ascending, then descending.
    browser.click("th[data-column='points'] button").await;
    let (_, ascending) = answer_table(&browser).await;
    assert_eq!(
        ascending,
        strings(&[TOP_THREE[2], TOP_THREE[1], TOP_THREE[0]])
    );
    browser.click("th[data-column='points'] button").await;
    let (_, descending) = answer_table(&browser).await;
    assert_eq!(descending, strings(&TOP_THREE));
    assert_eq!(
        browser
            .eval(
                "return document.querySelector(\"th[data-column='points']\").getAttribute('aria-sort');",
                json!([])
            )
            .await,
        "descending"
    );

    // The JSON view is the run's answer, whole.
    browser.click("#tab-json").await;
    let shown = browser
        .eval(
            "return document.getElementById('answer-json').textContent;",
            json!([]),
        )
        .await;
    let shown: Value = serde_json::from_str(shown.as_str().unwrap()).unwrap();
    assert_eq!(
        shown,
        frames.last().unwrap().payload()["extracted_data"],
        "the JSON view shows complete.extracted_data"
    );

    // Downloads: the answer as JSON, CSV and Markdown, as files.
    browser.click("#download-json").await;
    let downloaded: Value =
        serde_json::from_str(&browser.downloaded(&format!("{id}.json"), RUN_TIMEOUT).await)
            .unwrap();
    assert_eq!(downloaded, shown);
    browser.click("#tab-table").await;
    browser.click("#download-csv").await;
    let mut csv = "title,points\r\n".to_owned();
    for [title, points] in TOP_THREE {
        csv.push_str(&format!("{title},{points}\r\n"));
    }
    assert_eq!(
        browser.downloaded(&format!("{id}.csv"), RUN_TIMEOUT).await,
        csv
    );
    browser.click("#download-md").await;
    let mut markdown = format!("## {news}\n\n| title | points |\n| --- | --- |\n");
    for [title, points] in TOP_THREE {
        markdown.push_str(&format!("| {title} | {points} |\n"));
    }
    assert_eq!(
        browser.downloaded(&format!("{id}.md"), RUN_TIMEOUT).await,
        markdown
    );
    // A CSV cell a spreadsheet would run gets a leading `'`; a plain number stays as it is.
    assert_eq!(
        browser
            .eval(
                "return [csvCell('=HYPERLINK(1)'), csvCell('-5'), csvCell('a,\"b\"')];",
                json!([])
            )
            .await,
        json!(["'=HYPERLINK(1)", "-5", "\"a,\"\"b\"\"\""])
    );

    // The sessions list has the run; its link reopens it in a fresh page, replayed whole.
    browser
        .wait_for(
            "the run in the sessions list",
            RUN_TIMEOUT,
            &format!(
                "const li = document.querySelector('#sessions li[data-session=\"{id}\"]'); \
                 return li && li.querySelector('.badge').textContent === 'completed';"
            ),
        )
        .await;
    browser.goto("about:blank").await;
    browser.goto(&format!("{}/#/sessions/{id}", app.base)).await;
    wait_for_answer(&browser).await;
    assert_eq!(
        browser
            .eval(
                "return document.getElementById('run-status').textContent;",
                json!([])
            )
            .await,
        "completed"
    );
    assert_eq!(answer_table(&browser).await.1, strings(&TOP_THREE));
    assert_eq!(timeline_seqs(&browser).await, row_seqs(&frames));
}

#[tokio::test]
async fn a_reload_or_a_replaying_reconnection_mid_run_shows_each_event_once() {
    let _turn = ONE_BROWSER_AT_A_TIME.lock().await;
    let Some(browser) = Browser::start().await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    // One fetch at a time, each page answered after 1.5 s: the run lasts about 5 s.
    let app = spawn_app_with(|s| s.runs.fetch_concurrency = 1).await;
    let urls = slow_news_pages(&fixtures);
    browser.goto(&format!("{}/", app.base)).await;
    let id = submit(&browser, &urls, "top 3 stories with title and points").await;

    // The first URL is done and the run is still going.
    wait_for_the_first_url(&browser).await;
    // A reconnection whose server replays from the start (as behind a proxy that drops
    // Last-Event-ID): every event the page already shows arrives again and adds no row.
    replay_from_the_start(&browser).await;
    let seqs = timeline_seqs(&browser).await;
    let mut distinct = seqs.clone();
    distinct.dedup();
    assert_eq!(seqs, distinct, "no event shown twice after the replay");

    let session: Value = app
        .get(&format!("/api/scrape/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(session["status"], "running", "the reload happens mid-run");
    let stored_before_reload = session["event_count"].as_u64().unwrap();
    browser.reload().await;
    wait_for_answer(&browser).await;

    let frames = stored_events(&app, &id).await;
    assert!(stored_before_reload < frames.len() as u64);
    assert_eq!(timeline_seqs(&browser).await, row_seqs(&frames));
    let finished = browser
        .eval(
            "return [...document.querySelectorAll('#timeline .url-group')] \
               .map(g => [g.dataset.url, g.dataset.status]);",
            json!([]),
        )
        .await;
    let expected: Vec<Value> = urls.iter().map(|u| json!([u, "completed"])).collect();
    assert_eq!(finished, Value::Array(expected));

    // The same on the finished run: the whole log again, and the timeline does not change.
    let delivered = replay_from_the_start(&browser).await;
    assert!(
        delivered >= frames.len() as u64,
        "the replay delivered {delivered} events"
    );
    assert_eq!(timeline_seqs(&browser).await, row_seqs(&frames));
}

/// Makes the page reconnect asking for every event from the first, and waits until it has
/// received again at least as many events as it had; returns how many arrived.
async fn replay_from_the_start(browser: &Browser) -> u64 {
    let had = browser
        .eval(
            "const run = state.run; run.source.close(); run.delivered = 0; \
             const had = run.seen.size; const keep = run.lastSeq; \
             run.lastSeq = 0; connect(run); run.lastSeq = keep; return had;",
            json!([]),
        )
        .await;
    let script = format!("return state.run.delivered >= {had} ? state.run.delivered : 0;");
    let delivered = browser
        .wait_for("the replayed events", RUN_TIMEOUT, &script)
        .await;
    delivered.as_u64().unwrap()
}

/// A TCP relay between the browser and the server whose connections the test can cut, as a
/// network drop does. It keeps what the browser sent, to see the headers of reconnections.
struct Relay {
    base: String,
    cut: tokio::sync::watch::Sender<u32>,
    sent: Arc<Mutex<String>>,
}

impl Relay {
    async fn start(upstream: String) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (cut, _) = tokio::sync::watch::channel(0u32);
        let sent = Arc::new(Mutex::new(String::new()));
        let (cuts, log) = (cut.clone(), sent.clone());
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let mut cut = cuts.subscribe();
                let (log, upstream) = (log.clone(), upstream.clone());
                tokio::spawn(async move {
                    let Ok(server) = tokio::net::TcpStream::connect(&upstream).await else {
                        return;
                    };
                    let (mut from_client, mut to_client) = client.into_split();
                    let (mut from_server, mut to_server) = server.into_split();
                    let upload = async {
                        let mut buffer = vec![0u8; 16 * 1024];
                        loop {
                            let n = from_client.read(&mut buffer).await.unwrap_or(0);
                            if n == 0 {
                                break;
                            }
                            log.lock()
                                .unwrap()
                                .push_str(&String::from_utf8_lossy(&buffer[..n]));
                            if to_server.write_all(&buffer[..n]).await.is_err() {
                                break;
                            }
                        }
                    };
                    // Dropping both halves of both sockets resets the connection.
                    tokio::select! {
                        () = upload => {}
                        _ = tokio::io::copy(&mut from_server, &mut to_client) => {}
                        _ = cut.changed() => {}
                    }
                });
            }
        });
        Self { base, cut, sent }
    }

    /// Drops every connection open now.
    fn cut(&self) {
        self.cut.send_modify(|n| *n += 1);
    }

    /// The `Last-Event-ID` values of the event-stream requests the browser sent.
    fn last_event_ids(&self, id: &str) -> Vec<u64> {
        let sent = self.sent.lock().unwrap();
        sent.split("GET ")
            .filter(|request| request.starts_with(&format!("/api/scrape/{id}/events")))
            .filter_map(|request| {
                request.split("\r\n\r\n").next()?.lines().find_map(|line| {
                    let (name, value) = line.split_once(':')?;
                    name.eq_ignore_ascii_case("last-event-id")
                        .then(|| value.trim().parse().ok())?
                })
            })
            .collect()
    }
}

#[tokio::test]
async fn a_network_drop_mid_run_resumes_with_last_event_id() {
    let _turn = ONE_BROWSER_AT_A_TIME.lock().await;
    let Some(browser) = Browser::start().await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| s.runs.fetch_concurrency = 1).await;
    let relay = Relay::start(app.base.trim_start_matches("http://").to_owned()).await;
    let urls = slow_news_pages(&fixtures);
    browser.goto(&format!("{}/", relay.base)).await;
    let id = submit(&browser, &urls, "top 3 stories with title and points").await;
    wait_for_the_first_url(&browser).await;
    let seen_before = browser
        .eval("return state.run.lastSeq;", json!([]))
        .await
        .as_u64()
        .unwrap();
    assert!(relay.last_event_ids(&id).is_empty(), "no reconnection yet");
    relay.cut();
    wait_for_answer(&browser).await;

    // The browser came back on its own, saying which events it had.
    let resumed_after = relay.last_event_ids(&id);
    assert!(
        resumed_after
            .first()
            .is_some_and(|&last| last >= seen_before),
        "a reconnection with Last-Event-ID ≥ {seen_before}: {resumed_after:?}"
    );
    let frames = stored_events(&app, &id).await;
    assert_eq!(timeline_seqs(&browser).await, row_seqs(&frames));
    assert_eq!(
        browser
            .eval(
                "return document.getElementById('run-status').textContent;",
                json!([])
            )
            .await,
        "completed"
    );
}

#[tokio::test]
async fn a_streamed_llm_decision_grows_in_one_row() {
    let _turn = ONE_BROWSER_AT_A_TIME.lock().await;
    let Some(browser) = Browser::start().await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let fake = FakeOpenAi::start(vec![Reply::Stream(crate::llm::interleaved_stream())]).await;
    let app = crate::llm::llm_app(&fake, 5, 12_000).await;
    browser.goto(&format!("{}/", app.base)).await;
    let news = fixtures.url("/pages/news.html");
    let id = submit_to(&browser, &[news], "top 3 items with title and link", "llm").await;
    wait_for_answer(&browser).await;

    // Four partial decisions, then the final one, of round 0; round 1 says it is done.
    let frames = stored_events(&app, &id).await;
    let decisions: Vec<(u64, String)> = frames
        .iter()
        .filter(|f| f.event == "step" && f.payload()["action"] == "agent_decision")
        .map(|f| (seq(f), f.payload()["status"].as_str().unwrap().to_owned()))
        .collect();
    let statuses: Vec<&str> = decisions.iter().map(|(_, s)| s.as_str()).collect();
    assert_eq!(
        statuses,
        [
            "running",
            "running",
            "running",
            "running",
            "completed",
            "completed"
        ]
    );
    // The page shows one row per decision: the drafts were replaced by their final form.
    let rows = browser
        .eval(
            "return [...document.querySelectorAll('.action-group[data-action=agent_decision] > ol > li')] \
               .map(li => ({ seq: Number(li.dataset.seq), status: li.dataset.status, \
                 drafts: Number(li.dataset.drafts || 0), \
                 tools: [...li.querySelectorAll('.planned > li > code')].map(c => c.textContent) }));",
            json!([]),
        )
        .await;
    assert_eq!(
        rows,
        json!([
            {"seq": decisions[4].0, "status": "completed", "drafts": 4,
             "tools": ["html.select", "extract.top_n"]},
            {"seq": decisions[5].0, "status": "completed", "drafts": 0, "tools": []},
        ])
    );
    let drafts: Vec<u64> = decisions[..4].iter().map(|(seq, _)| *seq).collect();
    let shown: Vec<u64> = row_seqs(&frames)
        .into_iter()
        .filter(|seq| !drafts.contains(seq))
        .collect();
    assert_eq!(timeline_seqs(&browser).await, shown);
}

#[tokio::test]
async fn main_content_is_readable_text_and_page_markup_stays_text() {
    let _turn = ONE_BROWSER_AT_A_TIME.lock().await;
    let Some(browser) = Browser::start().await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    browser.goto(&format!("{}/", app.base)).await;
    let article = fixtures.url("/pages/console-article.html");
    submit(&browser, &[article], "the main content of the article").await;
    wait_for_answer(&browser).await;

    // No list: the answer opens on its Markdown, which holds the page's markup-like text as
    // text (Markdown escapes its `<`).
    let shown = browser
        .eval(
            "return { textTab: document.getElementById('tab-text').getAttribute('aria-selected'), \
                      text: [...document.querySelectorAll('#view-text .document')] \
                        .map(d => d.textContent).join('\\n'), \
                      images: document.querySelectorAll('#content img').length, \
                      scripts: document.querySelectorAll('script').length, \
                      title: document.title };",
            json!([]),
        )
        .await;
    assert_eq!(shown["textTab"], "true");
    let text = shown["text"].as_str().unwrap();
    assert!(text.contains("Escaping in practice"), "{text}");
    assert!(
        text.contains(r#"\<img src=x onerror="document.title='pwned'"\>"#),
        "{text}"
    );
    assert!(text.contains(r"\<script\>alert(1)\</script\>"), "{text}");
    assert!(
        !text.contains("© Example"),
        "the footer is not main content: {text}"
    );
    assert_eq!(shown["images"], 0, "no element was made from page text");
    assert_eq!(shown["scripts"], 1, "only the console's own script");
    assert_eq!(shown["title"], "scrape-agent console");
}

#[tokio::test]
async fn a_failed_url_is_highlighted_and_the_run_goes_on() {
    let _turn = ONE_BROWSER_AT_A_TIME.lock().await;
    let Some(browser) = Browser::start().await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    browser.goto(&format!("{}/", app.base)).await;
    let news = fixtures.url("/pages/news.html");
    let missing = fixtures.url("/status/404");
    let id = submit(
        &browser,
        &[missing.clone(), news.clone()],
        "top 3 stories with title and points",
    )
    .await;
    wait_for_answer(&browser).await;

    let frames = stored_events(&app, &id).await;
    let error = frames.iter().find(|f| f.event == "error").unwrap();
    let code = error.payload()["code"].as_str().unwrap().to_owned();
    let shown = browser
        .eval(
            "const group = url => document.querySelector(`#timeline .url-group[data-url=\"${url}\"]`); \
             const failed = group(arguments[0]); \
             return { status: document.getElementById('run-status').textContent, \
               progress: document.getElementById('progress-text').textContent, \
               failed: failed.dataset.status, \
               news: group(arguments[1]).dataset.status, \
               errorRows: [...failed.querySelectorAll('.action-group[data-action=error] li.error')] \
                 .map(li => [Number(li.dataset.seq), li.querySelector('.badge').textContent]), \
               highlighted: getComputedStyle(failed.querySelector('li.error')).backgroundColor, \
               errors: [...document.querySelectorAll('#errors li strong')].map(s => s.textContent) };",
            json!([missing, news]),
        )
        .await;
    assert_eq!(
        shown,
        json!({
            "status": frames.last().unwrap().payload()["status"],
            "progress": "2 / 2 URLs",
            "failed": "failed",
            "news": "completed",
            "errorRows": [[seq(error), code]],
            "highlighted": shown["highlighted"],
            "errors": [code],
        })
    );
    // An error row has the error background, not the page's.
    let page_background = browser
        .eval(
            "return getComputedStyle(document.body).backgroundColor;",
            json!([]),
        )
        .await;
    assert_ne!(shown["highlighted"], page_background);
    assert_eq!(frames.last().unwrap().payload()["status"], "partial");
    assert_eq!(answer_table(&browser).await.1, strings(&TOP_THREE));
}

#[tokio::test]
async fn an_explicit_plan_and_max_steps_from_the_form_are_what_runs() {
    let _turn = ONE_BROWSER_AT_A_TIME.lock().await;
    let Some(browser) = Browser::start().await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    browser.goto(&format!("{}/", app.base)).await;
    let plan = json!([
        {"tool": "html.select", "params": {"selector": "span.titleline > a"}, "reasoning": "the story links"},
        {"tool": "extract.fields", "params": {"fields": {"title": "."}}, "reasoning": "their text"},
        {"tool": "extract.top_n", "params": {"n": 2}, "reasoning": "two of them"},
    ]);
    browser.type_into("#max-steps", "5").await;
    browser.click("#plan-details summary").await;
    browser.type_into("#tool-plan", &plan.to_string()).await;
    let news = fixtures.url("/pages/news.html");
    let id = submit(&browser, &[news], "the story titles").await;
    wait_for_answer(&browser).await;

    let frames = stored_events(&app, &id).await;
    let init = frames[0].payload();
    assert_eq!(init["planner"], "client");
    assert_eq!(init["max_steps"], 5);
    assert_eq!(init["tools"], plan);
    let request = browser
        .eval(
            "return document.getElementById('run-request').textContent;",
            json!([]),
        )
        .await;
    assert_eq!(
        request,
        "“the story titles” · format markdown · planner client · max 5 steps"
    );
    let (columns, rows) = answer_table(&browser).await;
    assert_eq!(columns, ["title"]);
    assert_eq!(
        rows,
        [[TOP_THREE[0][0]], [TOP_THREE[1][0]]]
            .iter()
            .map(|row| row.iter().map(|c| (*c).to_owned()).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn the_cancel_button_cancels_a_running_run() {
    let _turn = ONE_BROWSER_AT_A_TIME.lock().await;
    let Some(browser) = Browser::start().await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    // `/slow` answers after 30 s; the fetch waits for it instead of timing out at 3 s.
    let app = spawn_app_with(|s| s.fetch.timeout_secs = 40).await;
    browser.goto(&format!("{}/", app.base)).await;
    let id = submit(&browser, &[fixtures.url("/slow")], "anything").await;
    browser
        .wait_for(
            "the URL to start",
            RUN_TIMEOUT,
            "return document.querySelector('#timeline .url-group[data-status=running]') !== null \
               && !document.getElementById('cancel-run').hidden;",
        )
        .await;
    browser.click("#cancel-run").await;
    wait_for_status(&browser, "cancelled").await;
    let session: Value = app
        .get(&format!("/api/scrape/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(session["status"], "cancelled");
    assert_eq!(
        browser
            .eval(
                "return document.getElementById('cancel-run').hidden;",
                json!([])
            )
            .await,
        true,
        "a finished run has no cancel button"
    );
}

#[tokio::test]
async fn a_server_with_keys_gets_one_from_the_key_field() {
    let _turn = ONE_BROWSER_AT_A_TIME.lock().await;
    let Some(browser) = Browser::start().await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| s.auth.api_keys = vec!["console-key-1".into()]).await;
    browser.goto(&format!("{}/", app.base)).await;
    // The server answers 401 to the sessions list: the page asks for a key.
    browser
        .wait_for(
            "the key field",
            RUN_TIMEOUT,
            "return !document.getElementById('key-panel').hidden;",
        )
        .await;
    browser.type_into("#api-key", "wrong-key").await;
    browser.click("#key-form button").await;
    browser
        .wait_for(
            "the wrong key to be refused",
            RUN_TIMEOUT,
            "return document.getElementById('key-status').textContent === 'The key was refused.';",
        )
        .await;
    browser.type_into("#api-key", "console-key-1").await;
    browser.click("#key-form button").await;
    browser
        .wait_for(
            "the key to be accepted",
            RUN_TIMEOUT,
            "return document.getElementById('key-status').textContent === 'Key accepted.';",
        )
        .await;
    // The run starts with the key as a header and is followed with it as `access_token`.
    let news = fixtures.url("/pages/news.html");
    let id = submit(&browser, &[news], "top 3 stories with title and points").await;
    wait_for_answer(&browser).await;
    assert_eq!(answer_table(&browser).await.1, strings(&TOP_THREE));
    let session: Value = app
        .get_with(
            &format!("/api/scrape/{id}"),
            &[("authorization", "Bearer console-key-1")],
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(session["status"], "completed");
    assert_eq!(
        browser
            .eval(
                "return sessionStorage.getItem('scrape-agent.api-key');",
                json!([])
            )
            .await,
        "console-key-1",
        "the key is kept for this tab only"
    );
}

#[tokio::test]
async fn the_console_is_served_with_a_strict_policy() {
    let app = spawn_app().await;
    let page = app.get("/").await;
    assert_eq!(page.status(), 200);
    let policy = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(policy.contains("script-src 'self';"), "{policy}");
    assert!(!policy.contains("unsafe-inline"), "{policy}");
    assert!(
        page.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let etag = page.headers()["etag"].to_str().unwrap().to_owned();
    assert!(page.text().await.unwrap().contains("/console/app.js"));
    for (asset, kind) in [("app.js", "text/javascript"), ("app.css", "text/css")] {
        let response = app.get(&format!("/console/{asset}")).await;
        assert_eq!(response.status(), 200);
        assert!(
            response.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with(kind)
        );
    }
    let again = app.get_with("/", &[("if-none-match", &etag)]).await;
    assert_eq!(again.status(), 304);
    assert_eq!(app.get("/console/other.js").await.status(), 404);
}

/// Three news pages answered after 1.5–1.7 s each: with one fetch at a time, a run of about
/// 5 s that a test can interrupt after its first URL.
fn slow_news_pages(fixtures: &FixtureServer) -> Vec<String> {
    [1500, 1600, 1700]
        .iter()
        .map(|ms| fixtures.url(&format!("/delay/{ms}/news.html")))
        .collect()
}

/// Waits until the timeline shows the run's first URL completed.
async fn wait_for_the_first_url(browser: &Browser) {
    browser
        .wait_for(
            "the first URL to finish",
            RUN_TIMEOUT,
            "return document.querySelector('#timeline .url-group[data-status=completed]') !== null;",
        )
        .await;
}

/// On a narrow screen (one column) the form comes first and the sessions after it (issue 31).
#[tokio::test]
async fn on_a_narrow_screen_the_form_comes_before_the_sessions() {
    let _turn = ONE_BROWSER_AT_A_TIME.lock().await;
    let Some(browser) = Browser::start().await else {
        return;
    };
    let app = spawn_app().await;
    browser.set_window_size(420, 900).await;
    browser.goto(&format!("{}/", app.base)).await;
    let layout = browser
        .eval(
            "const rect = (id) => document.getElementById(id).getBoundingClientRect(); \
             return { form: rect('new-run').top, sessions: rect('sidebar').top, \
                      width: window.innerWidth, fold: window.innerHeight };",
            json!([]),
        )
        .await;
    assert!(layout["width"].as_f64().unwrap() <= 800.0, "{layout}");
    assert!(
        layout["form"].as_f64() < layout["sessions"].as_f64(),
        "the form is above the sessions: {layout}"
    );
    assert!(
        layout["form"].as_f64().unwrap() < layout["fold"].as_f64().unwrap(),
        "the form is on the first screen: {layout}"
    );
    browser.screenshot(&artifacts().join("narrow.png")).await;
}

/// `/docs` renders the document's descriptions and examples as a page (no raw JSON to read
/// first), from the server alone (issue 31).
#[tokio::test]
async fn the_docs_page_shows_descriptions_and_examples() {
    let _turn = ONE_BROWSER_AT_A_TIME.lock().await;
    let Some(browser) = Browser::start().await else {
        return;
    };
    let app = spawn_app().await;
    browser.goto(&format!("{}/docs", app.base)).await;
    browser
        .wait_for(
            "the document to be rendered",
            RUN_TIMEOUT,
            "return document.getElementById('markdown') !== null;",
        )
        .await;
    browser.click("#scrapeDetached > summary").await;
    let shown = browser
        .eval(
            "const op = document.getElementById('scrapeDetached'); \
             return { text: op.innerText, \
                      request: document.getElementById('schema-ScrapeRequest').textContent };",
            json!([]),
        )
        .await;
    let text = shown["text"].as_str().unwrap();
    for expected in [
        "Wait for the run and answer its `complete` payload as JSON",
        "Example: A list in plain words",
        "the top 10 stories with title, link and points",
        "202 The run started",
    ] {
        assert!(text.contains(expected), "{expected:?} in {text}");
    }
    let request = shown["request"].as_str().unwrap();
    assert!(
        request.contains("Another name for `urls` (send one of the two)."),
        "{request}"
    );
}

#[tokio::test]
async fn a_named_field_the_page_lacks_is_said_above_the_answer() {
    let _turn = ONE_BROWSER_AT_A_TIME.lock().await;
    let Some(browser) = Browser::start().await else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    browser.goto(&format!("{}/", app.base)).await;
    let cards = fixtures.url("/pages/cards-byline.html");
    submit(
        &browser,
        std::slice::from_ref(&cards),
        "every post with title, author and rating",
    )
    .await;
    wait_for_answer(&browser).await;
    let said = browser
        .eval(
            "return [...document.querySelectorAll('#view-table .empty-fields')].map(p => p.textContent);",
            json!([]),
        )
        .await;
    assert_eq!(said, json!([format!("{cards}: nothing found for rating")]));
}
