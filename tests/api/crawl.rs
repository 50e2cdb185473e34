//! Whole sites (issue 35): map and crawl of a fixture site with a sitemap index, a gzip
//! sitemap, robots rules, duplicates, traps and a subdomain, through the real server. Both must
//! find exactly the allowed pages and never request a disallowed one.

use std::collections::BTreeSet;

use serde_json::{Value, json};

#[path = "../support_site/mod.rs"]
mod support_site;

use crate::support::{Frame, TestApp, complete, spawn_app_with};
use support_site::{ALLOWED, Site};

async fn app() -> TestApp {
    spawn_app_with(|settings| {
        settings.fetch.resolve = Site::resolve();
        // Deep enough for the calendar to meet its own rule before the depth limit.
        settings.crawl.max_depth = 30;
    })
    .await
}

fn urls_of(site: &Site, paths: &[&str]) -> BTreeSet<String> {
    paths.iter().map(|p| site.url(p)).collect()
}

fn never_read_private(site: &Site) {
    let private: Vec<_> = site
        .requests()
        .into_iter()
        .filter(|r| r.contains("/private/"))
        .collect();
    assert!(
        private.is_empty(),
        "robots.txt disallows /private/: {private:?}"
    );
}

async fn map(app: &TestApp, body: Value) -> Value {
    let response = app.post("/api/map", &body).await;
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

fn map_urls(answer: &Value) -> BTreeSet<String> {
    answer["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["url"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn map_lists_sitemap_and_linked_pages_once_each_and_never_a_disallowed_one() {
    let site = Site::start().await;
    let app = app().await;
    let answer = map(&app, json!({"url": site.url("/")})).await;
    let mut expected = urls_of(&site, ALLOWED);
    // The walk (one link deep) sees the first calendar page and the one it links, and the mirror.
    expected.extend(urls_of(
        &site,
        &[
            "/calendar?month=2024-01",
            "/calendar?month=2024-02",
            "/mirror/about",
        ],
    ));
    assert_eq!(map_urls(&answer), expected, "{answer:#}");
    let sitemaps: Vec<&str> = answer["sitemaps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(
        sitemaps,
        [
            site.url("/sitemap_index.xml"),
            site.url("/sitemap-pages.xml"),
            site.url("/sitemap-docs.xml.gz")
        ]
    );
    let only = answer["links"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["url"] == site.url("/only-in-sitemap"))
        .unwrap();
    assert_eq!(only["found_by"], "sitemap");
    assert_eq!(only["lastmod"], "2024-05-01");
    let home = answer["links"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["url"] == site.url("/"))
        .unwrap();
    assert_eq!(home["title"], "Home");
    assert!(
        answer["skipped"]["robots"].as_u64().unwrap() >= 1,
        "{answer:#}"
    );
    assert!(
        answer["skipped"]["off_site"].as_u64().unwrap() >= 1,
        "{answer:#}"
    );
    never_read_private(&site);
}

#[tokio::test]
async fn map_with_subdomains_search_sitemap_only_and_limit() {
    let site = Site::start().await;
    let app = app().await;
    let answer = map(
        &app,
        json!({"url": site.url("/"), "include_subdomains": true}),
    )
    .await;
    let urls = map_urls(&answer);
    assert!(
        urls.contains(&site.blog("/")),
        "from the gzip sitemap: {urls:?}"
    );
    assert!(
        urls.contains(&site.blog("/post-1")),
        "linked from home: {urls:?}"
    );

    let answer = map(&app, json!({"url": site.url("/"), "sitemap": "only"})).await;
    assert_eq!(
        map_urls(&answer),
        urls_of(
            &site,
            &[
                "/",
                "/about",
                "/only-in-sitemap",
                "/docs/install",
                "/docs/usage"
            ]
        )
    );
    assert_eq!(answer["pages_fetched"], 0);

    let answer = map(
        &app,
        json!({"url": site.url("/"), "search": "install docs", "limit": 2}),
    )
    .await;
    let links = answer["links"].as_array().unwrap();
    assert_eq!(links.len(), 2);
    assert_eq!(links[0]["url"], site.url("/docs/install"));
    assert_eq!(answer["truncated"], true);
}

#[tokio::test]
async fn a_bad_map_request_gets_a_json_error() {
    let app = app().await;
    for (body, code) in [
        (json!({"url": "ftp://x.test/"}), "invalid_url"),
        (
            json!({"url": "http://x.test/", "limit": 0}),
            "limit_exceeded",
        ),
        (
            json!({"url": "http://x.test/", "limit": 1_000_000}),
            "limit_exceeded",
        ),
        (json!({"url": "http://x.test/", "depth": 3}), "invalid_json"),
    ] {
        let response = app.post("/api/map", &body).await;
        assert_eq!(response.status(), 400, "{body}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(error["error"]["code"], code, "{body}: {error}");
    }
    // A site the guard refuses is refused before any work.
    let strict = spawn_app_with(|settings| settings.fetch.allow_private_networks = false).await;
    for (body, code) in [
        (json!({"url": "http://127.0.0.1:9/"}), "site_unreachable"),
        (
            json!({"url": "http://169.254.169.254/latest/"}),
            "site_unreachable",
        ),
    ] {
        let response = strict.post("/api/map", &body).await;
        assert_eq!(response.status(), 400, "{body}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(error["error"]["code"], code, "{body}: {error}");
    }
}

fn navigate_steps<'a>(frames: &'a [Frame], kind: &str) -> Vec<&'a Value> {
    frames
        .iter()
        .filter(|f| f.event == "step")
        .map(|f| f.payload())
        .filter(|p| p["action"] == "navigate" && p["extracted_data"]["kind"] == kind)
        .collect()
}

/// The pages a `complete` answered, by URL.
fn answered_pages(done: &Value) -> BTreeSet<String> {
    done["extracted_data"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

/// What a crawl of the whole site answers: every allowed page, the mirror (read, then
/// stopped as duplicate content) and the calendar's months up to its trap.
fn pages_a_full_crawl_answers(site: &Site) -> BTreeSet<String> {
    let mut expected = urls_of(site, ALLOWED);
    expected.insert(site.url("/mirror/about"));
    for month in 1..=12 {
        expected.insert(site.url(&format!("/calendar?month=2024-{month:02}")));
    }
    expected
}

#[tokio::test]
async fn a_crawl_answers_every_allowed_page_and_stops_each_trap_by_its_rule() {
    let site = Site::start().await;
    let app = app().await;
    let frames = app
        .stream(&json!({
            "urls": [site.url("/")],
            "instructions": "the title and last-updated date of the page",
            "crawl": {"max_pages": 100, "max_depth": 20},
        }))
        .await;
    let done = complete(&frames);
    let keys = answered_pages(done);
    let expected = pages_a_full_crawl_answers(&site);
    assert_eq!(keys, expected, "{:#}", done["extracted_data"]);
    // Every page but the mirror (the same content as /about) is answered.
    for url in &expected {
        let answer = &done["extracted_data"][url];
        if url.ends_with("/mirror/about") {
            assert!(answer.is_null(), "{url}: {answer}");
        } else {
            assert!(
                !answer.is_null(),
                "{url} has an answer: {:#}",
                done["extracted_data"]
            );
        }
    }
    let about = done["extracted_data"][site.url("/about")].to_string();
    assert!(
        about.contains("About") && about.contains("2024-02-01"),
        "{about}"
    );

    let crawled = navigate_steps(&frames, "crawl");
    assert_eq!(
        crawled.len(),
        expected.len() - 1,
        "every page but the seed is a crawl step"
    );
    let only = crawled
        .iter()
        .find(|s| s["extracted_data"]["to"] == site.url("/only-in-sitemap"))
        .unwrap();
    assert_eq!(only["extracted_data"]["found_by"], "sitemap");
    let intro = crawled
        .iter()
        .find(|s| s["extracted_data"]["to"] == site.url("/docs/intro"))
        .unwrap();
    assert_eq!(intro["extracted_data"]["depth"], 1);
    assert_eq!(intro["extracted_data"]["found_on"], site.url("/"));

    let rules: BTreeSet<String> = navigate_steps(&frames, "crawl_skip")
        .iter()
        .map(|s| s["extracted_data"]["rule"].as_str().unwrap().to_owned())
        .collect();
    for rule in [
        "calendar",
        "repeating_path",
        "growing_query",
        "duplicate_content",
    ] {
        assert!(rules.contains(rule), "{rule} shown: {rules:?}");
    }
    let end = navigate_steps(&frames, "crawl_end");
    assert_eq!(end.len(), 1);
    assert_eq!(end[0]["extracted_data"]["rule"], "site_exhausted");
    assert_eq!(end[0]["extracted_data"]["pages"], expected.len());
    never_read_private(&site);
    let loops: Vec<_> = site
        .requests()
        .into_iter()
        .filter(|r| r.contains("/loop/") || r.contains("2025-"))
        .collect();
    assert!(loops.is_empty(), "traps are never fetched: {loops:?}");
}

#[tokio::test]
async fn a_crawl_stops_at_max_pages_and_honours_include_and_sitemap_only() {
    let site = Site::start().await;
    let app = app().await;
    let frames = app
        .stream(&json!({
            "urls": [site.url("/")],
            "instructions": "the title of the page",
            "crawl": {"max_pages": 3},
        }))
        .await;
    assert_eq!(
        complete(&frames)["extracted_data"]
            .as_object()
            .unwrap()
            .len(),
        3
    );
    let end = navigate_steps(&frames, "crawl_end");
    assert_eq!(end[0]["extracted_data"]["rule"], "max_pages");
    assert!(end[0]["extracted_data"]["queued"].as_u64().unwrap() > 0);

    let frames = app
        .stream(&json!({
            "urls": [site.url("/docs/intro")],
            "instructions": "the title of the page",
            "crawl": {"include": ["/docs/**"], "sitemap": "skip"},
        }))
        .await;
    let keys: BTreeSet<String> = complete(&frames)["extracted_data"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(
        keys,
        urls_of(&site, &["/docs/intro", "/docs/install", "/docs/usage"])
    );

    let frames = app
        .stream(&json!({
            "urls": [site.url("/")],
            "instructions": "the title of the page",
            "crawl": {"sitemap": "only", "allow_subdomains": true},
        }))
        .await;
    let keys: BTreeSet<String> = complete(&frames)["extracted_data"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    let mut expected = urls_of(
        &site,
        &[
            "/",
            "/about",
            "/only-in-sitemap",
            "/docs/install",
            "/docs/usage",
        ],
    );
    expected.insert(site.blog("/"));
    assert_eq!(keys, expected);
    never_read_private(&site);
}

#[tokio::test]
async fn a_bad_crawl_is_refused_before_the_stream_starts() {
    let app = app().await;
    for crawl in [
        json!({"max_pages": 0}),
        json!({"max_pages": 1_000_000}),
        json!({"max_depth": 1000}),
        json!({"include": ["/docs/[a"]}),
    ] {
        let response = app
            .post(
                "/api/scrape/stream",
                &json!({"urls": ["http://site.test/"], "instructions": "titles", "crawl": crawl}),
            )
            .await;
        assert_eq!(response.status(), 400, "{crawl}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(error["error"]["code"], "invalid_crawl", "{crawl}: {error}");
    }
}

async fn mcp_call(app: &TestApp, tool: &'static str, arguments: Value) -> Value {
    use rmcp::ServiceExt;
    use rmcp::model::CallToolRequestParams;
    use rmcp::transport::StreamableHttpClientTransport;
    let transport = StreamableHttpClientTransport::from_uri(format!("{}/mcp", app.base));
    let client = ().serve(transport).await.expect("MCP client connects");
    let result = client
        .call_tool(
            CallToolRequestParams::new(tool).with_arguments(arguments.as_object().unwrap().clone()),
        )
        .await
        .expect("the call is answered");
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let _ = client.cancel().await;
    result.structured_content.expect("structured")
}

#[tokio::test]
async fn mcp_map_and_crawl_find_the_same_pages_as_the_api() {
    let site = Site::start().await;
    let app = app().await;
    let answer = mcp_call(
        &app,
        "map",
        json!({"url": site.url("/"), "sitemap": "only"}),
    )
    .await;
    assert_eq!(
        map_urls(&answer),
        urls_of(
            &site,
            &[
                "/",
                "/about",
                "/only-in-sitemap",
                "/docs/install",
                "/docs/usage"
            ]
        )
    );
    let outcome = mcp_call(
        &app,
        "crawl",
        json!({
            "urls": [site.url("/")],
            "instructions": "the title of the page",
            "crawl": {"max_depth": 2, "exclude": ["/calendar", "/mirror/**"]},
        }),
    )
    .await;
    let keys: BTreeSet<String> = outcome["extracted_data"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, urls_of(&site, ALLOWED), "{outcome:#}");
    assert_eq!(outcome["status"], "completed");
    never_read_private(&site);
}

/// The Python interpreter with the official Firecrawl SDK: `SCRAPE_AGENT_FIRECRAWL_PYTHON`
/// (`.ci/run` sets it to the venv it installs `firecrawl` into). `None` when it cannot import
/// `firecrawl`; the test is then skipped, unless `SCRAPE_AGENT_REQUIRE_FIRECRAWL_CLIENT` is set.
fn python_with_firecrawl() -> Option<String> {
    let python =
        std::env::var("SCRAPE_AGENT_FIRECRAWL_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let found = std::process::Command::new(&python)
        .args(["-c", "import firecrawl"])
        .output()
        .is_ok_and(|out| out.status.success());
    if found {
        return Some(python);
    }
    sdk_missing(
        "firecrawl_python_sdk_scrape_map_and_crawl",
        &format!("`{python}` cannot import the Firecrawl SDK (pip install 'firecrawl>=4,<5')"),
    )
}

/// A Firecrawl SDK client is missing: the test fails when `SCRAPE_AGENT_REQUIRE_FIRECRAWL_CLIENT`
/// is set (CI), and otherwise says it was skipped.
fn sdk_missing<T>(test: &str, why: &str) -> Option<T> {
    assert!(
        std::env::var_os("SCRAPE_AGENT_REQUIRE_FIRECRAWL_CLIENT").is_none(),
        "SCRAPE_AGENT_REQUIRE_FIRECRAWL_CLIENT is set but {why}"
    );
    crate::support::skipped(test, why);
    None
}

/// Node.js with the official Firecrawl JavaScript SDK: `SCRAPE_AGENT_FIRECRAWL_JS` names the
/// `node_modules` folder `.ci/run` installs `@mendable/firecrawl-js` into. `None` when node or
/// the SDK is missing; the test is then skipped, unless `SCRAPE_AGENT_REQUIRE_FIRECRAWL_CLIENT`
/// is set.
fn node_with_firecrawl() -> Option<String> {
    let modules = std::env::var("SCRAPE_AGENT_FIRECRAWL_JS").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/target/firecrawl-js/node_modules"
        )
        .to_owned()
    });
    let found = std::path::Path::new(&modules)
        .join("@mendable/firecrawl-js/package.json")
        .exists()
        && std::process::Command::new("node")
            .arg("--version")
            .output()
            .is_ok_and(|out| out.status.success());
    if found {
        return Some(modules);
    }
    sdk_missing(
        "firecrawl_js_sdk_scrape_map_and_crawl",
        &format!(
            "node or the Firecrawl JS SDK is missing (npm install --prefix target/firecrawl-js '@mendable/firecrawl-js@^4'; looked in {modules})"
        ),
    )
}

/// Runs one of the official SDK clients (`program args… SERVER SITE`) against our `/v2` and
/// checks what it got: scrape, map, crawl and batch scrape give the same pages as our own API.
async fn an_sdk_client_gets_the_site(
    program: String,
    args: Vec<String>,
    envs: Vec<(String, String)>,
) {
    let site = Site::start().await;
    let app = app().await;
    let base = app.base.clone();
    let root = site.url("/");
    let output = tokio::task::spawn_blocking(move || {
        std::process::Command::new(program)
            .args(args)
            .args([&base, &root])
            .envs(envs)
            .output()
            .unwrap()
    })
    .await
    .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let got: Value = serde_json::from_slice(&output.stdout).unwrap();
    let scrape = &got["scrape"];
    assert!(
        scrape["markdown"]
            .as_str()
            .unwrap()
            .contains("We make things."),
        "{got:#}"
    );
    assert_eq!(scrape["title"], "About");
    assert_eq!(scrape["source_url"], site.url("/about"));
    assert_eq!(scrape["status_code"], 200);
    assert!(
        scrape["raw_html"]
            .as_str()
            .unwrap()
            .contains("<title>About</title>")
    );
    assert!(
        scrape["links"]
            .as_array()
            .unwrap()
            .contains(&json!(site.url("/")))
    );
    // `onlyMainContent: false` with `excludeTags: ["p"]`: the page less its paragraphs.
    let trimmed = got["trimmed"].as_str().unwrap();
    assert!(
        trimmed.contains("About") && !trimmed.contains("We make things."),
        "{got:#}"
    );
    let answer = got["json"].to_string();
    assert!(
        answer.contains("About") && answer.contains("2024-02-01"),
        "{answer}"
    );
    let mapped: BTreeSet<String> = got["map"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        mapped,
        urls_of(
            &site,
            &[
                "/",
                "/about",
                "/only-in-sitemap",
                "/docs/install",
                "/docs/usage"
            ]
        )
    );
    assert_eq!(got["crawl"]["status"], "completed", "{got:#}");
    let pages: BTreeSet<String> = got["crawl"]["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(pages, urls_of(&site, ALLOWED));
    assert!(
        got["crawl"]["markdown"][site.url("/only-in-sitemap")]
            .as_str()
            .unwrap()
            .contains("Only the sitemap knows me")
    );
    assert!(
        got["error"].as_str().unwrap_or_default().contains("http"),
        "{got:#}"
    );
    assert_eq!(got["batch"]["status"], "completed", "{got:#}");
    assert_eq!(
        got["batch"]["pages"],
        json!([site.url("/about"), site.url("/docs/install")]),
        "{got:#}"
    );
    never_read_private(&site);
}

/// The official Firecrawl Python SDK (PyPI `firecrawl`) against our `/v2`.
#[tokio::test]
async fn firecrawl_python_sdk_scrape_map_and_crawl() {
    let Some(python) = python_with_firecrawl() else {
        return;
    };
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/firecrawl_client/check.py"
    );
    an_sdk_client_gets_the_site(python, vec![script.to_owned()], Vec::new()).await;
}

/// The official Firecrawl JavaScript SDK (npm `@mendable/firecrawl-js`) against our `/v2`.
#[tokio::test]
async fn firecrawl_js_sdk_scrape_map_and_crawl() {
    let Some(modules) = node_with_firecrawl() else {
        return;
    };
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/firecrawl_client/check.mjs"
    );
    an_sdk_client_gets_the_site(
        "node".to_owned(),
        vec![script.to_owned()],
        vec![("NODE_PATH".to_owned(), modules)],
    )
    .await;
}

#[tokio::test]
async fn firecrawl_v2_errors_and_cancel_have_firecrawls_shapes() {
    let site = Site::start().await;
    let app = app().await;
    let response = app
        .post("/v2/scrape", &json!({"url": "ftp://x.test/"}))
        .await;
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["success"], false);
    assert!(
        body["error"].as_str().unwrap().contains("ftp://x.test/"),
        "{body}"
    );
    let response = app
        .post(
            "/v2/scrape",
            &json!({"url": site.url("/"), "formats": ["summary"]}),
        )
        .await;
    assert_eq!(response.status(), 400);
    let response = app.get("/v2/crawl/no-such-job").await;
    assert_eq!(response.status(), 404);
    assert_eq!(response.json::<Value>().await.unwrap()["success"], false);

    let started: Value = app
        .post(
            "/v2/crawl",
            &json!({"url": site.url("/"), "limit": 100, "maxDiscoveryDepth": 20}),
        )
        .await
        .json()
        .await
        .unwrap();
    let id = started["id"].as_str().unwrap();
    let cancelled: Value = app
        .delete(&format!("/v2/crawl/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(cancelled["status"], "cancelled");
    let mut status = Value::Null;
    for _ in 0..100 {
        status = app
            .get(&format!("/v2/crawl/{id}"))
            .await
            .json()
            .await
            .unwrap();
        if status["status"] != "scraping" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(status["status"], "cancelled", "{status:#}");
    // The crawl is one of our sessions, seen by our own API too.
    let session: Value = app
        .get(&format!("/api/scrape/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(session["status"], "cancelled", "{session:#}");
}

/// The console's crawl form: the URLs as seeds, the crawl's limits from the form, and every
/// allowed page answered.
#[tokio::test]
async fn the_console_crawl_form_starts_a_crawl() {
    let Some(browser) = crate::support::browser::Browser::start().await else {
        return;
    };
    let site = Site::start().await;
    let app = app().await;
    browser.goto(&format!("{}/", app.base)).await;
    browser.type_into("#urls", &site.url("/")).await;
    browser
        .type_into(
            "#instructions",
            "the title and the last-updated date of the page",
        )
        .await;
    browser.click("#crawl-details summary").await;
    browser.click("#crawl-on").await;
    browser.type_into("#crawl-max-pages", "3").await;
    browser.type_into("#crawl-exclude", "/calendar/**").await;
    browser.click("#start-run").await;
    let id = browser
        .wait_for(
            "the page to open the new run",
            std::time::Duration::from_secs(60),
            "const m = /^#\\/sessions\\/(.+)$/.exec(location.hash); return m ? decodeURIComponent(m[1]) : null;",
        )
        .await;
    let id = id.as_str().unwrap().to_owned();
    browser
        .wait_for(
            "the crawl to end",
            std::time::Duration::from_secs(60),
            "return ['completed', 'partial'].includes(document.getElementById('run-status').dataset.status);",
        )
        .await;
    let frames =
        crate::support::read_stream(app.get(&format!("/api/scrape/{id}/events")).await).await;
    // The form's limit: three pages, each a page of the site the crawl may read.
    let outcome = complete(&frames);
    let pages = outcome["extracted_data"].as_object().unwrap();
    assert_eq!(pages.len(), 3, "{outcome:#}");
    assert!(
        pages
            .keys()
            .all(|url| urls_of(&site, ALLOWED).contains(url))
    );
    never_read_private(&site);
}

/// Checks `body`, answered by `method path` with `status`, against the response schema the
/// OpenAPI document gives for it (which must exist).
fn conforms(doc: &Value, path: &str, method: &str, status: u16, body: &Value) {
    let response = &doc["paths"][path][method]["responses"][status.to_string()];
    let schema = &response["content"]["application/json"]["schema"];
    assert!(
        schema.is_object(),
        "{method} {path} documents {status}: {response}"
    );
    let schema = json!({"$ref": schema["$ref"], "components": doc["components"]});
    let validator = jsonschema::draft202012::new(&schema).expect("the document's schemas compile");
    let errors: Vec<String> = validator.iter_errors(body).map(|e| e.to_string()).collect();
    assert!(
        errors.is_empty(),
        "{method} {path} {status}: {errors:?}\n{body:#}"
    );
}

/// Every Firecrawl v2 route is in the OpenAPI document (so schemathesis fuzzes it), and what
/// each answers, success and error, matches the schema the document gives for that status.
#[tokio::test]
async fn firecrawl_v2_answers_match_the_openapi_document() {
    let site = Site::start().await;
    let app = app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let check = async |method: &str, path: &str, doc_path: &str, body: Option<Value>| {
        let response = match (method, body) {
            ("post", Some(body)) => app.post(path, &body).await,
            ("delete", _) => app.delete(path).await,
            _ => app.get(path).await,
        };
        let status = response.status().as_u16();
        let answer: Value = response.json().await.unwrap();
        conforms(&doc, doc_path, method, status, &answer);
        (status, answer)
    };
    let scrape = json!({"url": site.url("/about"), "formats": [
        "markdown", "html", "rawHtml", "links",
        {"type": "json", "prompt": "the title", "schema": {"type": "object", "properties": {"title": {"type": "string"}}}},
    ]});
    let (status, answer) = check("post", "/v2/scrape", "/v2/scrape", Some(scrape)).await;
    assert_eq!(status, 200, "{answer:#}");
    for format in ["markdown", "html", "rawHtml", "links", "json"] {
        assert!(!answer["data"][format].is_null(), "{format}: {answer:#}");
    }
    let bad = json!({"url": site.url("/"), "formats": ["summary"]});
    assert_eq!(
        check("post", "/v2/scrape", "/v2/scrape", Some(bad)).await.0,
        400
    );
    let (status, answer) = check(
        "post",
        "/v2/map",
        "/v2/map",
        Some(json!({"url": site.url("/"), "limit": 5})),
    )
    .await;
    assert_eq!(status, 200, "{answer:#}");
    assert_eq!(
        check("post", "/v2/map", "/v2/map", Some(json!({"url": 7})))
            .await
            .0,
        400
    );
    for (start, status_path, body) in [
        (
            "/v2/crawl",
            "/v2/crawl/{id}",
            json!({"url": site.url("/"), "limit": 3}),
        ),
        (
            "/v2/batch/scrape",
            "/v2/batch/scrape/{id}",
            json!({"urls": [site.url("/about"), site.url("/docs/intro")]}),
        ),
    ] {
        let (status, started) = check("post", start, start, Some(body)).await;
        assert_eq!(status, 200, "{started:#}");
        let own = format!("{start}/{}", started["id"].as_str().unwrap());
        let mut answer = Value::Null;
        for _ in 0..200 {
            answer = check("get", &own, status_path, None).await.1;
            if answer["status"] != "scraping" {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(answer["status"], "completed", "{answer:#}");
        assert!(!answer["data"].as_array().unwrap().is_empty(), "{answer:#}");
        assert_eq!(check("delete", &own, status_path, None).await.0, 200);
        let missing = format!("{start}/no-such-job");
        assert_eq!(check("get", &missing, status_path, None).await.0, 404);
        assert_eq!(check("delete", &missing, status_path, None).await.0, 404);
        let bad = format!("{start}/bad%20id");
        assert_eq!(check("get", &bad, status_path, None).await.0, 400);
    }
    let (status, _) = check(
        "post",
        "/v2/crawl",
        "/v2/crawl",
        Some(json!({"url": site.url("/"), "limit": 0})),
    )
    .await;
    assert_eq!(status, 400);
}

/// A crawl of the whole fixture site with a frontier of 2 URLs in memory (`crawl.max_frontier`):
/// the rest waits in the store (`database_url`, else the test's SQLite file); every page is
/// still read, in one crawl step each, and the site sees each page requested once.
async fn a_spilled_crawl_reads_every_page_once(database_url: Option<String>) {
    let site = Site::start().await;
    let app = spawn_app_with(move |settings| {
        settings.fetch.resolve = Site::resolve();
        settings.crawl.max_depth = 30;
        settings.crawl.max_frontier = 2;
        if let Some(url) = database_url {
            settings.database.url = url;
        }
    })
    .await;
    let frames = app
        .stream(&json!({
            "urls": [site.url("/")],
            "instructions": "the title and last-updated date of the page",
            "crawl": {"max_pages": 100, "max_depth": 20},
        }))
        .await;
    let done = complete(&frames);
    let keys = answered_pages(done);
    let expected = pages_a_full_crawl_answers(&site);
    assert_eq!(keys, expected, "{:#}", done["extracted_data"]);
    let end = navigate_steps(&frames, "crawl_end");
    assert_eq!(end[0]["extracted_data"]["rule"], "site_exhausted");
    assert_eq!(end[0]["extracted_data"]["pages"], expected.len());
    assert_eq!(end[0]["extracted_data"]["queued"], 0);
    let spilled = end[0]["extracted_data"]["spilled"].as_u64().unwrap();
    assert!(spilled > 0, "pages waited in the store: {spilled}");
    assert_eq!(
        end[0]["extracted_data"]["skipped"].get("frontier_full"),
        None,
        "nothing was dropped for room"
    );
    let crawled: Vec<&str> = navigate_steps(&frames, "crawl")
        .iter()
        .map(|s| s["extracted_data"]["to"].as_str().unwrap())
        .collect();
    let distinct: BTreeSet<&str> = crawled.iter().copied().collect();
    assert_eq!(crawled.len(), distinct.len(), "no page twice: {crawled:?}");
    assert_eq!(crawled.len(), expected.len() - 1);
    let requests = site.requests();
    for url in &expected {
        // The site's log writes a request as `host /path?query` (no port).
        let (authority, path) = url.trim_start_matches("http://").split_once('/').unwrap();
        let host = authority.split(':').next().unwrap();
        let line = format!("{host} /{path}");
        let times = requests.iter().filter(|r| **r == line).count();
        assert_eq!(times, 1, "{line} requested once: {requests:#?}");
    }
    never_read_private(&site);
}

#[tokio::test]
async fn a_crawl_past_its_frontier_in_memory_reads_every_page_once_from_sqlite() {
    a_spilled_crawl_reads_every_page_once(None).await;
}

#[tokio::test]
async fn a_crawl_past_its_frontier_in_memory_reads_every_page_once_from_postgres() {
    let test = "a_crawl_past_its_frontier_in_memory_reads_every_page_once_from_postgres";
    let Some(schema) = crate::support::postgres::PgSchema::create(test).await else {
        return;
    };
    a_spilled_crawl_reads_every_page_once(Some(schema.url.clone())).await;
    schema.drop_schema().await;
}

/// `/v2/scrape`'s `includeTags` answers the Markdown of the elements they select, and
/// `onlyMainContent: false` the whole page's.
#[tokio::test]
async fn firecrawl_v2_scrape_reads_include_tags_and_only_main_content() {
    let site = Site::start().await;
    let app = app().await;
    // The site's pages are `<h1>title</h1><p>Last updated: …</p>…`.
    let heading = app
        .v2_markdown(json!({"url": site.url("/"), "includeTags": ["h1"]}))
        .await;
    assert!(
        !heading.is_empty() && !heading.contains("Last updated"),
        "{heading}"
    );
    let whole = app
        .v2_markdown(json!({"url": site.url("/"), "onlyMainContent": false}))
        .await;
    assert!(whole.contains(&heading), "{whole}");
    assert!(whole.contains("Last updated"), "{whole}");
}
