//! Pages built by scripts (issue 33), through the real server and the real browser (Debian's
//! `chromium-headless-shell`, which `.ci/run` installs): asked in plain words with `render` left
//! at `auto`, every answer right and every decision a `render` step with its evidence.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::extract::Path;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use serde_json::{Value, json};

use crate::support::{Frame, TestApp, spawn_app_with, tool_steps};

/// Serves `tests/fixtures/render/` at `/render/{name}`; `TRAP` in a page becomes `trap`.
async fn site(trap: SocketAddr) -> String {
    let router = Router::new().route(
        "/render/{name}",
        get(move |Path(name): Path<String>| async move {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/render")
                .join(name.replace('/', ""));
            let Ok(body) = std::fs::read_to_string(&path) else {
                return (axum::http::StatusCode::NOT_FOUND, "missing").into_response();
            };
            let kind = if name.ends_with(".json") {
                "application/json"
            } else {
                "text/html; charset=utf-8"
            };
            (
                [(header::CONTENT_TYPE, kind)],
                body.replace("TRAP", &trap.to_string()),
            )
                .into_response()
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    format!("http://{addr}")
}

/// A listener on a refused address (127.0.0.2) that counts every connection made to it.
async fn trap() -> (SocketAddr, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.2:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = hits.clone();
    tokio::spawn(async move {
        while let Ok((_stream, _)) = listener.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
        }
    });
    (addr, hits)
}

/// The server with only the fixture site's address allowed: 127.0.0.2 stays refused.
async fn app() -> TestApp {
    assert!(
        scrape_agent::browser::find_executable("").is_some(),
        "these tests need the browser: apt-get install chromium-headless-shell"
    );
    spawn_app_with(|s| {
        s.fetch.allow_private_networks = false;
        s.fetch.allowed_hosts = vec!["127.0.0.1".into()];
        s.browser.timeout_secs = 20;
    })
    .await
}

fn render_steps(frames: &[Frame]) -> Vec<&Value> {
    frames
        .iter()
        .filter(|f| f.event == "step" && f.action() == "render")
        .map(|f| &f.payload()["extracted_data"])
        .collect()
}

/// The `navigate` steps of kind `kind` (`load_more`, `scroll`, `click`): the rounds that grew a
/// page in the browser, their details.
fn rounds<'a>(frames: &'a [Frame], kind: &str) -> Vec<&'a Value> {
    frames
        .iter()
        .filter(|f| f.event == "step" && f.action() == "navigate")
        .map(|f| &f.payload()["extracted_data"])
        .filter(|d| d["kind"] == kind)
        .collect()
}

/// Every growth round of the browser, whatever its kind.
fn all_rounds(frames: &[Frame]) -> Vec<&Value> {
    ["load_more", "scroll", "click"]
        .iter()
        .flat_map(|kind| rounds(frames, kind))
        .collect()
}

fn answer<'a>(frames: &'a [Frame], url: &str) -> &'a Value {
    &frames.last().unwrap().payload()["extracted_data"][url]
}

struct Site {
    base: String,
    trap_hits: Arc<AtomicUsize>,
    app: TestApp,
}

async fn start() -> Site {
    let (trap_addr, trap_hits) = trap().await;
    Site {
        base: site(trap_addr).await,
        trap_hits,
        app: app().await,
    }
}

impl Site {
    async fn ask(&self, page: &str, instructions: &str) -> (String, Vec<Frame>) {
        let url = format!("{}/render/{page}", self.base);
        let frames = self
            .app
            .stream(&json!({"urls": [&url], "instructions": instructions}))
            .await;
        (url, frames)
    }
}

#[tokio::test]
async fn a_client_rendered_list_is_rendered_and_read() {
    let site = start().await;
    let (url, frames) = site
        .ask("list.html", "List every product with its name and price.")
        .await;
    let steps = render_steps(&frames);
    assert_eq!(steps.len(), 1, "{frames:?}");
    assert_eq!(steps[0]["rule"], "thin_body_app_root", "{}", steps[0]);
    assert_eq!(steps[0]["rendered"], true, "{}", steps[0]);
    assert!(
        steps[0]["markers"]
            .as_array()
            .unwrap()
            .contains(&json!("#root"))
    );
    // "every product": the list is grown until it stops (it does not: no "Load more").
    assert_eq!(steps[0]["grow"]["rule"], "all_items", "{}", steps[0]);
    assert_eq!(steps[0]["grow"]["grow"], true, "{}", steps[0]);
    let text = answer(&frames, &url).to_string();
    for name in [
        "Brass Compass",
        "Copper Kettle",
        "Oak Desk Lamp",
        "Wool Blanket",
        "Glass Teapot",
    ] {
        assert!(text.contains(name), "{name} in {text}");
    }
    assert!(text.contains("58.25"), "{text}");

    // The pool's gauges and the readiness details say the browser is there and rendered.
    let metrics = site.app.get("/metrics").await.text().await.unwrap();
    assert!(
        metrics.contains("scrape_agent_browser_renders_total 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains("scrape_agent_browser_renders_active 0"),
        "{metrics}"
    );
    let ready: Value = site.app.get("/readyz").await.json().await.unwrap();
    assert_eq!(ready["rendering"]["available"], true, "{ready}");
}

#[tokio::test]
async fn an_article_rendered_after_a_delay_is_read_whole() {
    let site = start().await;
    let (url, frames) = site.ask("delayed.html", "Get the article text.").await;
    let steps = render_steps(&frames);
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!(steps[0]["rule"], "thin_body_app_root", "{}", steps[0]);
    assert_eq!(steps[0]["rendered"], true, "{}", steps[0]);
    assert!(
        steps[0]["rendered_text_chars"].as_u64().unwrap() > 300,
        "{}",
        steps[0]
    );
    // One article: read as it settled, nothing clicked or scrolled.
    assert_eq!(steps[0]["grow"]["rule"], "one_thing", "{}", steps[0]);
    assert_eq!(steps[0]["grow"]["grow"], false, "{}", steps[0]);
    assert!(all_rounds(&frames).is_empty(), "{frames:?}");
    let text = answer(&frames, &url).to_string();
    assert!(text.contains("Lighthouses of the northern coast"), "{text}");
    assert!(text.contains("nine days"), "{text}");
}

#[tokio::test]
async fn load_more_is_clicked_until_the_list_stops_growing() {
    let site = start().await;
    let (url, frames) = site
        .ask(
            "load-more.html",
            "List all recipes with their name and time.",
        )
        .await;
    let steps = render_steps(&frames);
    assert_eq!(steps[0]["rule"], "thin_body_app_root", "{}", steps[0]);
    assert_eq!(steps[0]["rendered"], true, "{}", steps[0]);
    assert_eq!(steps[0]["grow"]["rule"], "all_items", "{}", steps[0]);
    let clicks = rounds(&frames, "load_more");
    // 5 drawn at first, 5 a click: two clicks reach 14 and the control goes.
    assert!(clicks.len() >= 2, "{clicks:?}");
    assert_eq!(clicks[0]["control"], "Load more");
    assert_eq!(clicks[1]["items"], 14, "{clicks:?}");
    let text = answer(&frames, &url).to_string();
    for n in [1, 7, 14] {
        assert!(
            text.contains(&format!("Recipe number {n}\"")),
            "{n} in {text}"
        );
    }
}

#[tokio::test]
async fn an_infinite_scroll_is_scrolled_until_it_ends() {
    let site = start().await;
    let (url, frames) = site
        .ask(
            "scroll.html",
            "List all photos with their title and author.",
        )
        .await;
    let steps = render_steps(&frames);
    assert_eq!(steps[0]["rule"], "thin_body_app_root", "{}", steps[0]);
    assert_eq!(steps[0]["rendered"], true, "{}", steps[0]);
    assert_eq!(steps[0]["grow"]["rule"], "all_items", "{}", steps[0]);
    let scrolls = rounds(&frames, "scroll");
    assert!(scrolls.len() >= 2, "{scrolls:?}");
    assert!(rounds(&frames, "load_more").is_empty(), "{frames:?}");
    let text = answer(&frames, &url).to_string();
    assert!(text.contains("Photo 18\""), "{text}");
}

#[tokio::test]
async fn a_hash_route_is_rendered_at_its_route() {
    let site = start().await;
    let url = format!("{}/render/hash.html#/contact", site.base);
    let frames = site
        .app
        .stream(
            &json!({"urls": [&url], "instructions": "the club's email address and phone number"}),
        )
        .await;
    let steps = render_steps(&frames);
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!(steps[0]["rule"], "thin_body_app_root", "{}", steps[0]);
    assert_eq!(steps[0]["rendered"], true, "{}", steps[0]);
    assert_eq!(steps[0]["grow"]["rule"], "one_thing", "{}", steps[0]);
    assert!(all_rounds(&frames).is_empty(), "{frames:?}");
    // The route's own page: the welcome page every other route shows has neither.
    let found = answer(&frames, &url);
    assert_eq!(
        found["emails"],
        json!(["secretary@chessclub.example"]),
        "{found}"
    );
    assert_eq!(found["phones"], json!(["+442079460321"]), "{found}");
}

#[tokio::test]
async fn a_data_island_is_read_from_the_html_without_rendering() {
    let site = start().await;
    let (_, frames) = site.ask("island.html", "the page title").await;
    let steps = render_steps(&frames);
    assert_eq!(steps[0]["rule"], "data_island", "{}", steps[0]);
    assert_eq!(steps[0]["rendered"], false);
    assert!(
        steps[0]["markers"]
            .as_array()
            .unwrap()
            .contains(&json!("__NEXT_DATA__"))
    );
}

#[tokio::test]
async fn a_pages_requests_to_a_refused_address_never_reach_it() {
    let site = start().await;
    let (url, frames) = site.ask("trap.html", "Get the text of this page.").await;
    let steps = render_steps(&frames);
    assert_eq!(steps[0]["rule"], "thin_body_app_root", "{}", steps[0]);
    assert_eq!(steps[0]["rendered"], true, "{frames:?}");
    let refused = steps[0]["refused"].as_array().unwrap();
    assert!(!refused.is_empty(), "{}", steps[0]);
    assert!(
        refused
            .iter()
            .all(|r| r.as_str().unwrap().starts_with("127.0.0.2")),
        "{refused:?}"
    );
    let text = answer(&frames, &url).to_string();
    assert!(text.contains("Berth 4 closed"), "{text}");
    // Give any straggling request time to arrive, then check none did.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        site.trap_hits.load(Ordering::SeqCst),
        0,
        "fetch, img, iframe or WebSocket reached the refused address"
    );
}

#[tokio::test]
async fn render_never_reads_the_html_and_says_so() {
    let site = start().await;
    let url = format!("{}/render/list.html", site.base);
    let frames = site
        .app
        .stream(&json!({"urls": [&url], "instructions": "all products", "render": "never"}))
        .await;
    let steps = render_steps(&frames);
    assert_eq!(steps[0]["rule"], "never");
    assert_eq!(steps[0]["rendered"], false);
    assert!(!answer(&frames, &url).to_string().contains("Brass Compass"));
}

#[tokio::test]
async fn the_next_page_of_a_rendered_list_is_rendered_too() {
    let site = start().await;
    let (url, frames) = site
        .ask("paged-1.html", "all products, across all pages")
        .await;
    // One render step per page: page 1 decided by its own HTML, page 2 after following it.
    let steps = render_steps(&frames);
    assert_eq!(steps.len(), 2, "{frames:?}");
    assert!(steps.iter().all(|s| s["rendered"] == true), "{steps:?}");
    let followed = frames
        .iter()
        .filter(|f| f.event == "step" && f.action() == "navigate")
        .any(|f| f.payload().to_string().contains("paged-2.html"));
    assert!(followed, "{frames:?}");
    let text = answer(&frames, &url).to_string();
    // Page 2's products exist only after its script runs.
    for name in [
        "Brass Compass",
        "Oak Desk Lamp",
        "Wool Blanket",
        "Linen Apron",
    ] {
        assert!(text.contains(name), "{name} in {text}");
    }
}

#[tokio::test]
async fn the_browser_is_replaced_once_its_memory_passes_the_ceiling() {
    let (trap_addr, _) = trap().await;
    let base = site(trap_addr).await;
    // A ceiling of 1 MiB: any running browser is above it, so each render starts a fresh one.
    let app = spawn_app_with(|s| {
        s.fetch.allow_private_networks = false;
        s.fetch.allowed_hosts = vec!["127.0.0.1".into()];
        s.browser.recycle_rss_mib = 1;
    })
    .await;
    let url = format!("{base}/render/list.html");
    for _ in 0..2 {
        let frames = app
            .stream(&json!({"urls": [&url], "instructions": "all products", "render": "always"}))
            .await;
        assert_eq!(render_steps(&frames)[0]["rendered"], true, "{frames:?}");
    }
    let metrics = app.get("/metrics").await.text().await.unwrap();
    let value = |name: &str| -> f64 {
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} in {metrics}"))
            .trim()
            .parse()
            .unwrap()
    };
    assert_eq!(
        value("scrape_agent_browser_launches_total"),
        2.0,
        "{metrics}"
    );
    assert_eq!(
        value("scrape_agent_browser_rss_recycles_total"),
        1.0,
        "{metrics}"
    );
    // Measured after the last render: a live browser holds tens of MiB at least.
    assert!(
        value("scrape_agent_browser_rss_bytes") > 10.0 * 1024.0 * 1024.0,
        "{metrics}"
    );
}

#[tokio::test]
async fn without_a_browser_auto_answers_from_the_html_and_always_is_a_typed_error() {
    let (trap_addr, _) = trap().await;
    let base = site(trap_addr).await;
    let app = spawn_app_with(|s| s.browser.executable = "/nonexistent/chromium".into()).await;
    let ready: Value = app.get("/readyz").await.json().await.unwrap();
    assert_eq!(ready["rendering"]["available"], false, "{ready}");
    assert_eq!(ready["rendering"]["install"], "chromium-headless-shell");
    let url = format!("{base}/render/list.html");
    let frames = app
        .stream(&json!({"urls": [&url], "instructions": "all products"}))
        .await;
    let steps = render_steps(&frames);
    assert_eq!(steps[0]["rendered"], false);
    assert_eq!(steps[0]["browser_available"], false);
    assert!(
        steps[0]["error"]
            .as_str()
            .unwrap()
            .contains("chromium-headless-shell")
    );

    let frames = app
        .stream(&json!({"urls": [&url], "instructions": "all products", "render": "always"}))
        .await;
    let errors = crate::support::errors(&frames);
    assert_eq!(errors[0]["code"], "render_unavailable", "{errors:?}");
    assert!(
        errors[0]["message"]
            .as_str()
            .unwrap()
            .contains("chromium-headless-shell")
    );
}

const CATALOGUE: [&str; 5] = [
    "Brass Compass",
    "Copper Kettle",
    "Oak Desk Lamp",
    "Wool Blanket",
    "Glass Teapot",
];

#[tokio::test]
async fn a_page_whose_tools_found_nothing_in_its_html_is_rendered_and_planned_again() {
    let site = start().await;
    let (url, frames) = site
        .ask(
            "catalog.html",
            "List every product with its name and price.",
        )
        .await;
    let steps = render_steps(&frames);
    assert_eq!(steps.len(), 2, "{steps:?}");
    // Enough text for the first rules: read from the HTML first.
    assert_eq!(steps[0]["rule"], "enough_text", "{}", steps[0]);
    assert_eq!(steps[0]["rendered"], false, "{}", steps[0]);
    // The plan found nothing there; the page ships a script: rendered, with its evidence.
    assert_eq!(
        steps[1]["rule"], "nothing_found_with_scripts",
        "{}",
        steps[1]
    );
    assert_eq!(steps[1]["rendered"], true, "{}", steps[1]);
    assert_eq!(steps[1]["scripts"], 1, "{}", steps[1]);
    assert!(
        steps[1]["rendered_text_chars"].as_u64().unwrap()
            > steps[1]["text_chars"].as_u64().unwrap(),
        "{}",
        steps[1]
    );
    // The second plan comes after the render, and the answer is the list the script drew.
    let render_at = frames
        .iter()
        .rposition(|f| f.event == "step" && f.action() == "render")
        .unwrap();
    assert!(
        frames[render_at..]
            .iter()
            .any(|f| f.event == "step" && f.action() != "render" && f.action() != "output"),
        "no plan after the render: {frames:?}"
    );
    let text = answer(&frames, &url).to_string();
    for name in CATALOGUE {
        assert!(text.contains(name), "{name} in {text}");
    }
    assert!(text.contains("58.25"), "{text}");

    // The render helped: the server remembers the host, and the next run renders at once.
    let (_, frames) = site
        .ask(
            "catalog.html",
            "List every product with its name and price.",
        )
        .await;
    let steps = render_steps(&frames);
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!(steps[0]["rule"], "host_needed_rendering", "{}", steps[0]);
    assert_eq!(steps[0]["rendered"], true, "{}", steps[0]);
}

#[tokio::test]
async fn a_render_that_finds_nothing_either_is_not_remembered_for_the_host() {
    // A part no product of the catalogue shows, before or after the render: a date.
    let site = start().await;
    for _ in 0..2 {
        let (_, frames) = site
            .ask("catalog.html", "List every recipe with its publish date.")
            .await;
        let rules: Vec<&Value> = render_steps(&frames).iter().map(|s| &s["rule"]).collect();
        assert_eq!(
            rules,
            [&json!("enough_text"), &json!("nothing_found_with_scripts")],
            "{frames:?}"
        );
    }
}

#[tokio::test]
async fn the_next_page_of_a_host_that_needed_rendering_renders_at_once() {
    let site = start().await;
    let first = format!("{}/render/list.html", site.base);
    let second = format!("{}/render/catalog.html", site.base);
    let frames = site
        .app
        .stream(&json!({
            "urls": [&first, &second],
            "instructions": "List every product with its name and price.",
        }))
        .await;
    let steps: Vec<(&str, &Value)> = frames
        .iter()
        .filter(|f| f.event == "step" && f.action() == "render")
        .map(|f| {
            (
                f.payload()["url"].as_str().unwrap_or(""),
                &f.payload()["extracted_data"],
            )
        })
        .collect();
    assert_eq!(steps.len(), 2, "{steps:?}");
    assert_eq!(steps[0].0, first);
    assert_eq!(steps[0].1["rule"], "thin_body_app_root", "{}", steps[0].1);
    // The second page alone would be read from its HTML (enough_text): its host needed
    // rendering, so it renders at once, without a first plan on the HTML.
    assert_eq!(steps[1].0, second);
    assert_eq!(
        steps[1].1["rule"], "host_needed_rendering",
        "{}",
        steps[1].1
    );
    assert_eq!(steps[1].1["rendered"], true, "{}", steps[1].1);
    let text = answer(&frames, &second).to_string();
    for name in CATALOGUE {
        assert!(text.contains(name), "{name} in {text}");
    }
}

#[tokio::test]
async fn browser_tools_in_a_plan_render_click_and_photograph_the_page() {
    let site = start().await;
    let url = format!("{}/render/load-more.html", site.base);
    let frames = site
        .app
        .stream(&json!({"urls": [&url], "tools": [
            {"tool": "browser.render", "params": {"wait": "selector", "selector": "li.recipe"}},
            {"tool": "browser.click", "params": {"text": "load more"}},
            {"tool": "browser.screenshot", "params": {"full_page": true}},
            {"tool": "html.text", "params": {"selector": ".recipes"}},
        ]}))
        .await;
    let render = tool_steps(&frames, "browser.render");
    assert_eq!(render[0]["success"], true, "{frames:?}");
    assert!(render[0]["result"]["requests"].as_u64().unwrap() >= 1);
    let click = tool_steps(&frames, "browser.click");
    assert_eq!(click[0]["success"], true, "{}", click[0]);
    assert_eq!(click[0]["result"]["control"], "Load more");
    assert_eq!(click[0]["result"]["items"], 10, "{}", click[0]);
    // The click is a visible round, as the render step's are.
    let clicked = frames.iter().any(|f| {
        f.event == "step"
            && f.action() == "navigate"
            && f.payload()["extracted_data"]["kind"] == "load_more"
            && f.payload()["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("Clicked “Load more”: the page grew"))
    });
    assert!(clicked, "{frames:?}");
    // The tools after it read the page as the browser shows it: two batches of five, not one
    // (the HTML) nor all fourteen (the render step's own growth).
    let text = answer(&frames, &url).to_string();
    assert!(text.contains("Recipe number 10"), "{text}");
    assert!(!text.contains("Recipe number 11"), "{text}");

    // The screenshot is kept with the session and served where its step says.
    let shot = tool_steps(&frames, "browser.screenshot");
    assert_eq!(shot[0]["success"], true, "{}", shot[0]);
    let link = shot[0]["result"]["url"].as_str().unwrap();
    let session = frames[0].payload()["session_id"].as_str().unwrap();
    assert_eq!(link, format!("/api/scrape/{session}/screenshots/1.png"));
    let response = site.app.get(link).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "image/png");
    let png = response.bytes().await.unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert_eq!(
        png.len() as u64,
        shot[0]["result"]["bytes"].as_u64().unwrap()
    );
    let missing = site
        .app
        .get(&format!("/api/scrape/{session}/screenshots/2.png"))
        .await;
    assert_eq!(missing.status(), 404);
}

#[tokio::test]
async fn browser_scroll_stops_at_the_count_and_a_click_on_nothing_fails_the_call() {
    let site = start().await;
    let url = format!("{}/render/scroll.html", site.base);
    let frames = site
        .app
        .stream(&json!({"urls": [&url], "tools": [
            {"tool": "browser.click", "params": {"text": "Accept cookies"}},
            {"tool": "browser.scroll", "params": {"count": 12}},
            {"tool": "html.text", "params": {"selector": ".feed"}},
        ]}))
        .await;
    let click = tool_steps(&frames, "browser.click");
    assert_eq!(click[0]["success"], false);
    assert!(
        click[0]["error"]
            .as_str()
            .unwrap()
            .contains("no visible control reads “Accept cookies”"),
        "{}",
        click[0]
    );
    let scroll = tool_steps(&frames, "browser.scroll");
    assert_eq!(scroll[0]["success"], true, "{}", scroll[0]);
    // Six photos a scroll: one round reaches twelve and the scroll stops there.
    assert_eq!(scroll[0]["result"]["items"], 12, "{}", scroll[0]);
    assert_eq!(scroll[0]["result"]["rounds"], 1, "{}", scroll[0]);
    let text = answer(&frames, &url).to_string();
    assert!(text.contains("Photo 12"), "{text}");
    assert!(!text.contains("Photo 13"), "{text}");
}

#[tokio::test]
async fn a_wanted_count_stops_the_render_steps_growth() {
    let site = start().await;
    let (url, frames) = site
        .ask(
            "scroll.html",
            "the first 12 photos with their title and author",
        )
        .await;
    let steps = render_steps(&frames);
    assert_eq!(steps[0]["grow"]["rule"], "count_wanted", "{}", steps[0]);
    assert_eq!(steps[0]["grow"]["want"], 12, "{}", steps[0]);
    let scrolls = rounds(&frames, "scroll");
    assert_eq!(scrolls.len(), 1, "{scrolls:?}");
    assert_eq!(scrolls[0]["items"], 12, "{scrolls:?}");
    let text = answer(&frames, &url).to_string();
    assert!(text.contains("Photo 12"), "{text}");
}

#[tokio::test]
async fn a_screenshot_over_the_byte_cap_is_taken_smaller_or_refused_naming_the_setting() {
    let (trap_addr, _) = trap().await;
    let base = site(trap_addr).await;
    const CAP: u64 = 6_000;
    let app = spawn_app_with(|s| {
        s.fetch.allow_private_networks = false;
        s.fetch.allowed_hosts = vec!["127.0.0.1".into()];
        s.browser.screenshot_max_bytes = CAP as usize;
    })
    .await;
    let url = format!("{base}/render/list.html");
    let frames = app
        .stream(&json!({"urls": [&url], "tools": [
            {"tool": "browser.screenshot", "params": {"full_page": true}},
            {"tool": "browser.screenshot", "params": {}},
        ]}))
        .await;
    let shots = tool_steps(&frames, "browser.screenshot");
    assert_eq!(shots.len(), 2, "{frames:?}");
    for shot in shots {
        if shot["success"] == true {
            // An 800-pixel-wide page does not fit 6 kB at full scale.
            assert!(shot["result"]["bytes"].as_u64().unwrap() <= CAP, "{shot}");
            assert!(shot["result"]["scale"].as_f64().unwrap() < 1.0, "{shot}");
            let png = app
                .get(shot["result"]["url"].as_str().unwrap())
                .await
                .bytes()
                .await
                .unwrap();
            assert!(png.len() as u64 <= CAP);
        } else {
            assert!(
                shot["error"]
                    .as_str()
                    .unwrap()
                    .contains("browser.screenshot_max_bytes"),
                "{shot}"
            );
        }
    }
}

#[tokio::test]
async fn a_screenshot_is_kept_in_postgres_too_and_goes_with_its_session() {
    let Some(schema) = crate::support::postgres::PgSchema::create("screenshot_in_postgres").await
    else {
        return;
    };
    let (trap_addr, _) = trap().await;
    let base = site(trap_addr).await;
    let db = schema.url.clone();
    let app = spawn_app_with(move |s| {
        s.database.url = db;
        s.fetch.allow_private_networks = false;
        s.fetch.allowed_hosts = vec!["127.0.0.1".into()];
    })
    .await;
    let url = format!("{base}/render/list.html");
    let frames = app
        .stream(&json!({"urls": [&url], "session_id": "shot-pg", "tools": [
            {"tool": "browser.screenshot", "params": {}},
        ]}))
        .await;
    let shot = tool_steps(&frames, "browser.screenshot");
    assert_eq!(shot[0]["success"], true, "{frames:?}");
    let png = app
        .get("/api/scrape/shot-pg/screenshots/1.png")
        .await
        .bytes()
        .await
        .unwrap();
    assert!(png.starts_with(b"\x89PNG"), "not a PNG");
    // Retention takes the screenshot with the session.
    app.store
        .backdate("shot-pg", chrono::Utc::now() - chrono::Duration::days(40))
        .await
        .unwrap();
    assert_eq!(app.store.delete_older_than(30, 100).await.unwrap(), 1);
    assert_eq!(
        app.get("/api/scrape/shot-pg/screenshots/1.png")
            .await
            .status(),
        404
    );
    drop(app);
    schema.drop_schema().await;
}

/// A crawl reads the links of a page as the browser drew it: the guide's chapters are linked
/// only by its script, so they are crawled when it is rendered and not when it is read as
/// served.
#[tokio::test]
async fn a_crawl_follows_the_links_a_script_builds() {
    let site = start().await;
    let guide = format!("{}/render/guide.html", site.base);
    let chapters = ["guide-tides.html", "guide-charts.html"]
        .map(|page| format!("{}/render/{page}", site.base));
    let crawl = |render: &str| {
        json!({
            "urls": [&guide],
            "instructions": "the title of the page",
            "render": render,
            "crawl": {"max_pages": 10, "sitemap": "skip"},
        })
    };
    let frames = site.app.stream(&crawl("always")).await;
    let done = crate::support::complete(&frames);
    let read: Vec<&String> = done["extracted_data"].as_object().unwrap().keys().collect();
    assert_eq!(read.len(), 3, "the guide and its two chapters: {read:?}");
    for chapter in &chapters {
        let step = frames
            .iter()
            .filter(|f| f.event == "step" && f.action() == "navigate")
            .map(|f| &f.payload()["extracted_data"])
            .find(|d| d["kind"] == "crawl" && d["to"] == chapter.as_str())
            .unwrap_or_else(|| panic!("{chapter} is a crawl step"));
        assert_eq!(step["found_on"], guide.as_str(), "{step}");
        assert_eq!(step["found_by"], "link");
    }
    assert!(
        done["extracted_data"][&chapters[0]]
            .to_string()
            .contains("Reading the tides"),
        "{:#}",
        done["extracted_data"]
    );
    // As served, the guide links nowhere: the crawl ends with it.
    let frames = site.app.stream(&crawl("never")).await;
    let done = crate::support::complete(&frames);
    let read: Vec<&String> = done["extracted_data"].as_object().unwrap().keys().collect();
    assert_eq!(read, vec![&guide]);
}

/// A Next.js page whose data is in its `__NEXT_DATA__` island and drawn by its script: read
/// from the HTML first (`data_island`); the plan finds no list there, so it is rendered
/// (`nothing_found_with_scripts`) and the list the script drew from the island is the answer.
#[tokio::test]
async fn a_data_island_page_is_read_from_its_html_then_rendered_when_that_finds_nothing() {
    let site = start().await;
    let (url, frames) = site
        .ask(
            "island-shop.html",
            "List every tool with its name and price.",
        )
        .await;
    let steps = render_steps(&frames);
    assert_eq!(steps.len(), 2, "{steps:?}");
    assert_eq!(steps[0]["rule"], "data_island", "{}", steps[0]);
    assert_eq!(steps[0]["rendered"], false, "{}", steps[0]);
    assert!(
        steps[0]["markers"]
            .as_array()
            .unwrap()
            .contains(&json!("__NEXT_DATA__")),
        "{}",
        steps[0]
    );
    assert_eq!(
        steps[1]["rule"], "nothing_found_with_scripts",
        "{}",
        steps[1]
    );
    assert_eq!(steps[1]["rendered"], true, "{}", steps[1]);
    let text = answer(&frames, &url).to_string();
    for name in ["Claw Hammer", "Hand Saw", "Spirit Level", "Wood Chisel"] {
        assert!(text.contains(name), "{name} in {text}");
    }
    assert!(text.contains("18.75"), "{text}");
}

/// "every item, keep loading": the words say to keep loading, and the render clicks "Load
/// more" until the control is gone; the decision names the rule.
#[tokio::test]
async fn keep_loading_in_plain_words_clicks_until_the_list_stops_growing() {
    let site = start().await;
    let (url, frames) = site.ask("load-more.html", "every item, keep loading").await;
    let steps = render_steps(&frames);
    assert_eq!(steps[0]["grow"]["rule"], "keep_loading", "{}", steps[0]);
    assert_eq!(steps[0]["grow"]["grow"], true, "{}", steps[0]);
    let said = frames
        .iter()
        .find(|f| f.event == "step" && f.action() == "render")
        .and_then(|f| f.payload()["message"].as_str())
        .unwrap();
    assert!(
        said.ends_with("until it stopped: the words say to keep loading"),
        "{said}"
    );
    let clicks = rounds(&frames, "load_more");
    assert!(clicks.len() >= 2, "{frames:?}");
    assert_eq!(clicks.last().unwrap()["items"], 14, "{clicks:?}");
    let text = answer(&frames, &url).to_string();
    assert!(text.contains("Recipe number 14"), "{text}");
}

/// "the first 40" of a feed of 18: scrolled until the feed stops growing short of the count,
/// the last round saying so.
#[tokio::test]
async fn a_count_the_feed_never_reaches_scrolls_until_it_stops() {
    let site = start().await;
    let (url, frames) = site
        .ask(
            "scroll.html",
            "the first 40 photos with their title and author",
        )
        .await;
    let steps = render_steps(&frames);
    assert_eq!(steps[0]["grow"]["rule"], "count_wanted", "{}", steps[0]);
    assert_eq!(steps[0]["grow"]["want"], 40, "{}", steps[0]);
    let scrolls = rounds(&frames, "scroll");
    assert!(scrolls.len() >= 3, "{scrolls:?}");
    let last = scrolls.last().unwrap();
    assert_eq!(last["elements_after"], last["elements_before"], "{last}");
    assert_eq!(last["items"], 18, "{last}");
    let text = answer(&frames, &url).to_string();
    assert!(text.contains("Photo 18\""), "{text}");
}

/// A rendered error page is a typed failure, not an answer: the `render` step fails with
/// why, an `error` event `render_failed` names the URL, and the run goes on to its end.
#[tokio::test]
async fn a_rendered_error_page_is_a_render_failure_not_an_answer() {
    let site = start().await;
    for (page, why) in [
        ("app-error.html", "application error"),
        ("empty-root.html", "empty"),
    ] {
        let (url, frames) = site
            .ask(page, "List every product with its name and price.")
            .await;
        let steps = render_steps(&frames);
        assert_eq!(steps[0]["rule"], "thin_body_app_root", "{}", steps[0]);
        assert_eq!(steps[0]["rendered"], false, "{}", steps[0]);
        assert!(
            steps[0]["error"].as_str().unwrap().contains(why),
            "{page}: {}",
            steps[0]
        );
        let failed = frames.iter().any(|f| {
            f.event == "step" && f.action() == "render" && f.payload()["status"] == "failed"
        });
        assert!(failed, "{page}: {frames:?}");
        let errors = crate::support::errors(&frames);
        assert!(
            errors
                .iter()
                .any(|e| e["code"] == "render_failed" && e["url"] == url.as_str()),
            "{page}: {errors:?}"
        );
        let done = crate::support::complete(&frames);
        let text = done["extracted_data"][&url].to_string();
        assert!(
            !text.to_lowercase().contains("application error"),
            "{page}: {text}"
        );
    }
}

/// `browser.click` on a control that is not "Load more" (a tab) is a round of kind `click`
/// naming it; the tools after it read the panel it opened.
#[tokio::test]
async fn a_click_on_a_tab_is_a_click_round_not_load_more() {
    let site = start().await;
    let url = format!("{}/render/tabs.html", site.base);
    let frames = site
        .app
        .stream(&json!({"urls": [&url], "tools": [
            {"tool": "browser.click", "params": {"text": "Reviews"}},
            {"tool": "html.text", "params": {"selector": "#panel"}},
        ]}))
        .await;
    let clicks = rounds(&frames, "click");
    assert_eq!(clicks.len(), 1, "{frames:?}");
    assert_eq!(clicks[0]["control"], "Reviews", "{}", clicks[0]);
    assert!(rounds(&frames, "load_more").is_empty(), "{frames:?}");
    let said = frames
        .iter()
        .find(|f| f.event == "step" && f.action() == "navigate")
        .and_then(|f| f.payload()["message"].as_str())
        .unwrap();
    assert!(said.starts_with("Clicked “Reviews”"), "{said}");
    let text = answer(&frames, &url).to_string();
    assert!(text.contains("Boils fast"), "{text}");
}

/// A served list with a "Load more" button: asked for all its notes, the words want the list
/// grown and the page has the control, so it is rendered (`load_more_control`) and clicked to
/// its end; asked for the page's title, it is read from its HTML (`enough_text`).
#[tokio::test]
async fn a_served_list_with_load_more_is_rendered_only_when_all_its_items_are_wanted() {
    let site = start().await;
    let (url, frames) = site
        .ask("more-articles.html", "List all notes with their title.")
        .await;
    let steps = render_steps(&frames);
    assert_eq!(steps.len(), 1, "{steps:?}");
    assert_eq!(steps[0]["rule"], "load_more_control", "{}", steps[0]);
    assert_eq!(steps[0]["rendered"], true, "{}", steps[0]);
    assert!(
        steps[0]["markers"]
            .as_array()
            .unwrap()
            .contains(&json!("load_more_control")),
        "{}",
        steps[0]
    );
    let clicks = rounds(&frames, "load_more");
    assert!(clicks.len() >= 2, "{frames:?}");
    let text = answer(&frames, &url).to_string();
    assert!(text.contains("Note 1: the heron"), "{text}");
    assert!(text.contains("Note 11: a later note"), "{text}");

    let (_, frames) = site.ask("more-articles.html", "the page title").await;
    let steps = render_steps(&frames);
    assert_eq!(steps[0]["rule"], "enough_text", "{}", steps[0]);
    assert_eq!(steps[0]["rendered"], false, "{}", steps[0]);
}

/// Firecrawl's `waitFor` and `actions` (issue 35) are the browser tools, run before the page is
/// read: the Markdown is of the page the actions left, the screenshots are kept and linked,
/// and an action that fails or that we do not answer is Firecrawl's 400.
#[tokio::test]
async fn firecrawl_actions_wait_click_and_photograph_before_the_page_is_read() {
    let site = start().await;
    let url = format!("{}/render/load-more.html", site.base);
    let response = site
        .app
        .post(
            "/v2/scrape",
            &json!({
                "url": url,
                "formats": ["markdown", {"type": "screenshot", "fullPage": true}],
                "onlyMainContent": false,
                "waitFor": 100,
                "actions": [
                    {"type": "wait", "selector": "li.recipe"},
                    {"type": "click", "selector": "#more"},
                    {"type": "wait", "milliseconds": 200},
                    {"type": "screenshot"},
                ],
            }),
        )
        .await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    let markdown = answer["data"]["markdown"].as_str().unwrap();
    // One click: two batches of five, read after it.
    assert!(markdown.contains("Recipe number 10"), "{markdown}");
    assert!(!markdown.contains("Recipe number 11"), "{markdown}");
    let session = answer["data"]["metadata"]["scrapeId"].as_str().unwrap();
    assert_eq!(
        answer["data"]["actions"]["screenshots"],
        json!([format!("/api/scrape/{session}/screenshots/1.png")]),
        "{answer}"
    );
    let shot = answer["data"]["screenshot"].as_str().unwrap();
    assert_eq!(shot, format!("/api/scrape/{session}/screenshots/2.png"));
    let png = site.app.get(shot).await;
    assert_eq!(png.status(), 200);
    assert!(png.bytes().await.unwrap().starts_with(b"\x89PNG"));

    let refused = |actions: Value| {
        let site = &site;
        let url = url.clone();
        async move {
            let response = site
                .app
                .post("/v2/scrape", &json!({"url": url, "actions": actions}))
                .await;
            assert_eq!(response.status(), 400);
            let body: Value = response.json().await.unwrap();
            assert_eq!(body["success"], false, "{body}");
            body["error"].as_str().unwrap().to_owned()
        }
    };
    let missing = refused(json!([{"type": "click", "selector": "#no-such-button"}])).await;
    assert!(missing.contains("browser.click"), "{missing}");
    let script = refused(json!([{"type": "executeJavascript", "script": "1"}])).await;
    assert!(
        script.contains("wait, click, scroll and screenshot"),
        "{script}"
    );
}
