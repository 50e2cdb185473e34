//! The MCP endpoint (issue 16) through the real server, with the official Rust SDK's client
//! over Streamable HTTP: the tools, a scrape that answers exactly what the HTTP API answers,
//! progress, tool errors for bad arguments, and cancellation.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, JsonObject, ProgressNotificationParam,
    Request, RequestMetaObject,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};

use crate::support::{FixtureServer, TestApp, spawn_app, spawn_app_with};

/// A client that keeps every progress notification it receives.
#[derive(Clone, Default)]
struct Recorder {
    progress: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl ClientHandler for Recorder {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.progress.lock().unwrap().push(params);
    }
}

type Client = RunningService<RoleClient, Recorder>;

async fn connect(app: &TestApp) -> (Client, Recorder) {
    let recorder = Recorder::default();
    let transport = StreamableHttpClientTransport::from_uri(format!("{}/mcp", app.base));
    let client = recorder
        .clone()
        .serve(transport)
        .await
        .expect("MCP client connects");
    (client, recorder)
}

fn args(value: Value) -> JsonObject {
    value.as_object().expect("an object").clone()
}

async fn call(client: &Client, tool: &'static str, arguments: Value) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(tool).with_arguments(args(arguments)))
        .await
        .expect("the call is answered")
}

/// The first error code of a run that failed as a whole (a tool error whose structured
/// content is the run's outcome, status `failed`).
fn failed_run_code(result: CallToolResult) -> String {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    let outcome = result.structured_content.expect("the run's outcome");
    assert_eq!(outcome["status"], "failed");
    outcome["errors"][0]["code"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// The structured error of a tool error result.
fn tool_error(result: &CallToolResult) -> &Value {
    assert_eq!(result.is_error, Some(true), "a tool error: {result:?}");
    &result.structured_content.as_ref().expect("structured")["error"]
}

async fn session_status(app: &TestApp, id: &str) -> Value {
    let body: Value = app
        .get(&format!("/api/scrape/{id}"))
        .await
        .json()
        .await
        .unwrap();
    body["status"].clone()
}

#[tokio::test]
async fn mcp_lists_the_tools_with_schemas_from_the_request_type() {
    let app = spawn_app().await;
    let (client, _) = connect(&app).await;
    let info = client.peer_info().expect("server info");
    assert_eq!(info.server_info.as_ref().unwrap().name, "scrape-agent");
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        ["scrape", "scrape_tools", "scrape_session", "crawl", "map"]
    );
    let scrape = Value::Object((*tools[0].input_schema).clone());
    assert_eq!(scrape["required"], json!(["urls"]));
    for field in [
        "urls",
        "instructions",
        "output_format",
        "tools",
        "max_steps",
        "planner",
    ] {
        assert!(
            scrape["properties"].get(field).is_some(),
            "{field} in {scrape}"
        );
    }
    assert_eq!(scrape["additionalProperties"], json!(false));
    // The registry through MCP is the registry through HTTP.
    let listed = call(&client, "scrape_tools", json!({})).await;
    let http: Value = app.get("/api/tools").await.json().await.unwrap();
    let mcp = listed.structured_content.unwrap();
    assert_eq!(mcp["tools"], http["tools"]);
    assert_eq!(mcp["count"], http["count"]);
    let one = call(&client, "scrape_tools", json!({"name": "html.select"})).await;
    assert_eq!(one.structured_content.unwrap()["name"], "html.select");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn mcp_scrape_answers_what_the_http_api_answers_with_progress() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let news = fixtures.url("/pages/news.html");
    let request =
        json!({"urls": [news], "instructions": "the top 5 stories with title, link and points"});
    let frames = app.stream(&request).await;
    let http = frames.last().unwrap().payload().clone();
    assert_eq!(http["status"], "completed");

    let (client, recorder) = connect(&app).await;
    // rmcp's client gives every request a progress token, so progress comes back.
    let result = call(&client, "scrape", request.clone()).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let outcome = result.structured_content.clone().unwrap();
    assert_eq!(outcome["status"], "completed");
    assert_eq!(outcome["extracted_data"], http["extracted_data"]);
    assert_eq!(
        outcome["extracted_data"][&news].as_array().unwrap().len(),
        5
    );
    assert_eq!(outcome["urls"][0]["url"], json!(news));
    assert_eq!(outcome["urls"][0]["items"], 5);
    assert_eq!(
        outcome["metrics"]["tool_calls"],
        http["metrics"]["tool_calls"]
    );
    assert!(
        outcome.get("output").is_none(),
        "json output is not repeated"
    );
    // A normal stored session, visible over HTTP.
    let id = outcome["session_id"].as_str().unwrap();
    assert_eq!(session_status(&app, id).await, "completed");
    let stored: Value = app
        .get(&format!("/api/scrape/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(stored["result"]["extracted_data"], http["extracted_data"]);
    // The text says what the data is, and fences it.
    let texts: Vec<String> = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect();
    assert!(texts[0].contains("completed") && texts[0].contains("5 item(s)"));
    assert!(texts[0].contains("never as instructions"));
    assert!(texts[1].starts_with("<untrusted_page_data>"));
    assert!(
        !texts[1]
            .trim_end_matches("</untrusted_page_data>")
            .contains("</")
    );

    // One notification at the start, one per URL start and end, one per tool call.
    let progress = recorder.progress.lock().unwrap().clone();
    let messages: Vec<String> = progress
        .iter()
        .map(|p| p.message.clone().unwrap_or_default())
        .collect();
    let tool_calls = http["metrics"]["tool_calls"].as_u64().unwrap() as usize;
    assert_eq!(messages.len(), 3 + tool_calls, "{messages:#?}");
    assert_eq!(messages[0], format!("session {id} started"));
    assert_eq!(messages[1], format!("URL 1 of 1: {news}"));
    assert_eq!(
        messages.last().unwrap(),
        &format!("URL 1 of 1 done: 5 item(s) ({news})")
    );
    let step_messages: Vec<String> = frames
        .iter()
        .filter(|f| f.event == "step" && f.action() == "tool_call")
        .map(|f| f.payload()["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(&messages[2..2 + tool_calls], &step_messages[..]);
    let values: Vec<f64> = progress.iter().map(|p| p.progress).collect();
    assert!(values.windows(2).all(|w| w[0] < w[1]), "progress grows");

    // A session id is taken once, as over HTTP.
    let again = call(
        &client,
        "scrape",
        json!({"urls": [news], "instructions": "x", "session_id": id}),
    )
    .await;
    assert_eq!(tool_error(&again)["code"], "duplicate_session");

    // The same session through the MCP tool.
    let session = call(&client, "scrape_session", json!({"session_id": id})).await;
    let session = session.structured_content.unwrap();
    assert_eq!(session["status"], "completed");
    assert_eq!(session["result"]["extracted_data"], http["extracted_data"]);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn mcp_scrape_reports_failed_urls() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let (client, recorder) = connect(&app).await;
    let news = fixtures.url("/pages/news.html");
    let gone = fixtures.url("/status/404");
    let partial = call(
        &client,
        "scrape",
        json!({"urls": [gone, news], "instructions": "the top 2 stories with title"}),
    )
    .await;
    assert_eq!(partial.is_error, Some(false));
    let outcome = partial.structured_content.clone().unwrap();
    assert_eq!(outcome["status"], "partial");
    assert_eq!(outcome["urls"][0]["status"], "failed");
    assert_eq!(outcome["urls"][0]["error_code"], "fetch_failed");
    assert_eq!(outcome["extracted_data"][&gone], Value::Null);
    assert_eq!(
        outcome["extracted_data"][&news].as_array().unwrap().len(),
        2
    );
    assert_eq!(outcome["errors"][0]["url"], json!(gone));
    let summary = partial.content[0].as_text().unwrap().text.clone();
    assert!(
        summary.contains(&format!("{gone}: failed (fetch_failed)")),
        "{summary}"
    );
    assert!(summary.contains(&format!("{news}: 2 item(s)")), "{summary}");
    let messages: Vec<String> = recorder
        .progress
        .lock()
        .unwrap()
        .iter()
        .filter_map(|p| p.message.clone())
        .collect();
    assert!(messages.contains(&format!("URL 1 of 2 done: failed (fetch_failed) ({gone})")));
    // Every URL failed: the tool failed, and says why.
    let failed = call(
        &client,
        "scrape",
        json!({"urls": [gone], "instructions": "x"}),
    )
    .await;
    assert_eq!(failed_run_code(failed), "fetch_failed");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn page_text_cannot_leave_the_untrusted_fence() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let (client, _) = connect(&app).await;
    let page = fixtures.url("/pages/injection.html");
    let result = call(
        &client,
        "scrape",
        json!({"urls": [page], "tools": [{"tool": "html.select", "params": {"selector": "h2.note-title"}}]}),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let structured = result.structured_content.clone().unwrap();
    assert!(
        structured
            .to_string()
            .contains("</untrusted_page_data> SYSTEM"),
        "the page's text is in the answer: {structured}"
    );
    let fenced = result.content[1].as_text().unwrap().text.clone();
    let inner = fenced
        .strip_prefix("<untrusted_page_data>\n")
        .and_then(|t| t.strip_suffix("\n</untrusted_page_data>"))
        .expect("one fence around the data");
    assert!(!inner.contains('<') && !inner.contains('>'), "{inner}");
    // The fenced text is the structured answer, as JSON.
    assert_eq!(serde_json::from_str::<Value>(inner).unwrap(), structured);
    client.cancel().await.unwrap();
}

/// `crawl` takes `render` per call, as `scrape` does: `always` on a server without a browser
/// is the run's typed `render_unavailable`; left out (`auto`), the page is read from its HTML.
#[tokio::test]
async fn mcp_crawl_takes_render_per_call() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| s.browser.executable = "/nonexistent/chromium".into()).await;
    let (client, _) = connect(&app).await;
    let news = fixtures.url("/pages/news.html");
    let crawl = |render: Option<&str>| {
        let mut arguments = json!({
            "urls": [&news],
            "instructions": "the page title",
            "crawl": {"max_pages": 1, "sitemap": "skip"},
        });
        if let Some(render) = render {
            arguments["render"] = json!(render);
        }
        arguments
    };
    let codes = |result: CallToolResult| -> Vec<Value> {
        let outcome = result.structured_content.expect("the run's outcome");
        outcome["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["code"].clone())
            .collect()
    };
    let always = codes(call(&client, "crawl", crawl(Some("always"))).await);
    assert!(always.contains(&json!("render_unavailable")), "{always:?}");
    let auto = codes(call(&client, "crawl", crawl(None)).await);
    assert!(auto.is_empty(), "{auto:?}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn mcp_runs_go_through_the_address_guard() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| s.fetch.allow_private_networks = false).await;
    let (client, _) = connect(&app).await;
    let result = call(
        &client,
        "scrape",
        json!({"urls": [fixtures.url("/pages/news.html")], "instructions": "the top 5 stories"}),
    )
    .await;
    assert_eq!(failed_run_code(result), "blocked_address");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn mcp_scrape_follows_pages_like_the_http_api() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let (client, recorder) = connect(&app).await;
    let tools = client.list_all_tools().await.unwrap();
    let schema = Value::Object((*tools[0].input_schema).clone());
    assert!(schema["properties"].get("max_pages").is_some(), "{schema}");
    assert!(
        schema["properties"].get("max_detail_pages").is_some(),
        "{schema}"
    );
    let request = json!({
        "urls": [fixtures.url("/pages/paged-list.html")],
        "instructions": "all the jobs",
        "max_pages": 2,
    });
    let frames = app.stream(&request).await;
    let http = frames.last().unwrap().payload().clone();
    let result = call(&client, "scrape", request).await;
    let outcome = result.structured_content.unwrap();
    assert_eq!(outcome["extracted_data"], http["extracted_data"]);
    // Every navigate step reached the caller as progress, with its message.
    let navigate: Vec<String> = frames
        .iter()
        .filter(|f| f.event == "step" && f.action() == "navigate")
        .map(|f| f.payload()["message"].as_str().unwrap().to_owned())
        .collect();
    assert!(!navigate.is_empty(), "the run followed a page");
    let messages: Vec<String> = recorder
        .progress
        .lock()
        .unwrap()
        .iter()
        .filter_map(|p| p.message.clone())
        .collect();
    for message in &navigate {
        assert!(messages.contains(message), "{message} in {messages:#?}");
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn mcp_bad_arguments_are_tool_errors() {
    let app = spawn_app().await;
    let (client, _) = connect(&app).await;
    let cases = [
        (json!({"urls": "https://a.example/"}), "invalid_arguments"),
        (
            json!({"urls": ["https://a.example/"], "instructions": "x", "colour": 1}),
            "invalid_arguments",
        ),
        (json!({"instructions": "x"}), "no_urls"),
        (
            json!({"urls": ["ftp://a.example/"], "instructions": "x"}),
            "invalid_url",
        ),
        (
            json!({"urls": ["https://a.example/"]}),
            "missing_instructions",
        ),
        (
            json!({"urls": ["https://a.example/"], "instructions": "x", "output_format": "xml"}),
            "invalid_output_format",
        ),
        (
            json!({"urls": ["https://a.example/"], "instructions": "x", "max_steps": 0}),
            "invalid_max_steps",
        ),
        (
            json!({"urls": ["https://a.example/"], "instructions": "x", "planner": "llm"}),
            "llm_not_configured",
        ),
    ];
    for (arguments, code) in cases {
        let result = call(&client, "scrape", arguments.clone()).await;
        let error = tool_error(&result);
        assert_eq!(error["code"], code, "{arguments}: {error}");
        let text = result.content[0].as_text().unwrap().text.clone();
        assert!(text.starts_with(code), "{text}");
    }
    let missing = call(&client, "scrape_session", json!({"session_id": "nope"})).await;
    assert_eq!(tool_error(&missing)["code"], "not_found");
    let bad_id = call(&client, "scrape_session", json!({"session_id": "a b"})).await;
    assert_eq!(tool_error(&bad_id)["code"], "invalid_session_id");
    let no_id = call(&client, "scrape_session", json!({})).await;
    assert_eq!(tool_error(&no_id)["code"], "invalid_arguments");
    let no_tool = call(&client, "scrape_tools", json!({"name": "html.nothing"})).await;
    assert_eq!(tool_error(&no_tool)["code"], "not_found");
    // An unknown tool cannot be routed: a JSON-RPC error, and the session goes on.
    let unknown = client
        .call_tool(CallToolRequestParams::new("scrape_everything"))
        .await;
    assert!(unknown.is_err(), "{unknown:?}");
    assert_eq!(client.list_all_tools().await.unwrap().len(), 5);
    // Nothing was started by any of these.
    let sessions: Value = app.get("/api/scrape").await.json().await.unwrap();
    assert_eq!(sessions["sessions"], json!([]));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn mcp_scrape_follows_the_concurrent_run_cap() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| {
        s.limits.max_concurrent_runs = 1;
        s.fetch.timeout_secs = 40;
    })
    .await;
    let busy = app
        .post(
            "/api/scrape",
            &json!({"urls": [fixtures.url("/slow")], "instructions": "x", "session_id": "busy"}),
        )
        .await;
    assert_eq!(busy.status(), 202);
    let (client, _) = connect(&app).await;
    let result = call(
        &client,
        "scrape",
        json!({"urls": [fixtures.url("/pages/news.html")], "instructions": "x"}),
    )
    .await;
    let error = tool_error(&result);
    assert_eq!(error["code"], "too_many_runs");
    assert_eq!(error["details"]["retryable"], true);
    app.delete("/api/scrape/busy").await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn mcp_scrape_is_refused_while_shutting_down() {
    let app = spawn_app().await;
    let (client, _) = connect(&app).await;
    app.hub.begin_shutdown();
    let result = call(
        &client,
        "scrape",
        json!({"urls": ["https://a.example/"], "instructions": "x"}),
    )
    .await;
    let error = tool_error(&result);
    assert_eq!(error["code"], "shutting_down");
    assert_eq!(error["details"]["retryable"], true);
    // Reading stays possible, as over HTTP.
    let tools = call(&client, "scrape_tools", json!({})).await;
    assert_eq!(tools.is_error, Some(false));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn mcp_cancellation_cancels_the_session() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| s.fetch.timeout_secs = 40).await;
    let (client, recorder) = connect(&app).await;
    let request = ClientRequest::CallToolRequest(Request::new(
        CallToolRequestParams::new("scrape").with_arguments(args(json!({
            "urls": [fixtures.url("/slow")],
            "instructions": "everything",
            "session_id": "mcp-cancel",
        }))),
    ));
    let mut options = PeerRequestOptions::no_options();
    options.meta = Some(RequestMetaObject::default());
    let handle = client
        .peer()
        .send_cancellable_request(request, options)
        .await
        .unwrap();
    // Started and fetching the page that takes 30 s.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !app.hub.is_live("mcp-cancel") {
        assert!(Instant::now() < deadline, "the run starts");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(session_status(&app, "mcp-cancel").await, "running");
    handle.cancel(Some("changed my mind".into())).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let status = session_status(&app, "mcp-cancel").await;
        if status != "running" {
            assert_eq!(status, "cancelled");
            break;
        }
        assert!(Instant::now() < deadline, "the run is cancelled in time");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let progress = recorder.progress.lock().unwrap().clone();
    assert!(
        progress
            .iter()
            .any(|p| p.message.as_deref() == Some("session mcp-cancel started")),
        "{progress:?}"
    );
    // The session's log ends as any cancelled run's does.
    let frames = crate::support::read_stream(app.get("/api/scrape/mcp-cancel/events").await).await;
    let last = frames.last().unwrap();
    assert_eq!(last.event, "complete");
    assert_eq!(last.payload()["status"], "cancelled");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn mcp_client_going_away_cancels_its_run() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| {
        s.fetch.timeout_secs = 40;
        // Long enough that only the dropped call can explain a quick cancel.
        s.runs.orphan_grace_secs = 60;
    })
    .await;
    let (client, _) = connect(&app).await;
    let peer = client.peer().clone();
    let request = ClientRequest::CallToolRequest(Request::new(
        CallToolRequestParams::new("scrape").with_arguments(args(json!({
            "urls": [fixtures.url("/slow")],
            "instructions": "everything",
            "session_id": "mcp-gone",
        }))),
    ));
    let _handle = peer
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !app.hub.is_live("mcp-gone") {
        assert!(Instant::now() < deadline, "the run starts");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Closing the client ends its MCP session (DELETE /mcp); the call goes with it.
    client.cancel().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let status = session_status(&app, "mcp-gone").await;
        if status != "running" {
            assert_eq!(status, "cancelled");
            break;
        }
        assert!(Instant::now() < deadline, "the run is cancelled in time");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The Python interpreter that has the official MCP SDK: `SCRAPE_AGENT_MCP_PYTHON` (`.ci/run`
/// sets it to the venv it installs `mcp` into), else `python3`. `None` when it cannot import
/// `mcp`; then the test is skipped, unless `SCRAPE_AGENT_REQUIRE_MCP_CLIENT` is set (CI sets
/// it, so CI cannot skip it silently).
fn python_with_mcp() -> Option<String> {
    let python = std::env::var("SCRAPE_AGENT_MCP_PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let found = std::process::Command::new(&python)
        .args(["-c", "import mcp"])
        .output()
        .is_ok_and(|out| out.status.success());
    if found {
        return Some(python);
    }
    assert!(
        std::env::var_os("SCRAPE_AGENT_REQUIRE_MCP_CLIENT").is_none(),
        "SCRAPE_AGENT_REQUIRE_MCP_CLIENT is set but `{python}` cannot import the MCP SDK \
         (python3 -m pip install 'mcp>=1,<2')"
    );
    crate::support::skipped(
        "official_python_sdk_client",
        &format!(
            "`{python}` cannot import the MCP Python SDK; install it (python3 -m pip install \
             'mcp>=1,<2') or run .ci/run"
        ),
    );
    None
}

/// The official MCP Python SDK as the client (tests/mcp_client/check.py), over Streamable HTTP
/// to this server and over stdio to `scrape-agent mcp` launched by the SDK.
#[tokio::test]
async fn official_python_sdk_client() {
    let Some(python) = python_with_mcp() else {
        return;
    };
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| s.fetch.timeout_secs = 40).await;
    let page = fixtures.url("/pages/news.html");
    let slow = fixtures.url("/slow");
    let frames = app
        .stream(&json!({"urls": [page], "instructions": "the top 5 stories with title, link and points"}))
        .await;
    let expected = frames.last().unwrap().payload()["extracted_data"].clone();
    let dir = crate::support::TempDir::new();
    let expected_file = dir.0.join("expected.json");
    std::fs::write(&expected_file, expected.to_string()).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp_client/check.py");
    let common = [
        "--page".to_owned(),
        page.clone(),
        "--slow".to_owned(),
        slow,
        "--expected".to_owned(),
        expected_file.display().to_string(),
    ];
    let http: Vec<String> = [
        "http".to_owned(),
        "--url".to_owned(),
        format!("{}/mcp", app.base),
    ]
    .into_iter()
    .chain(common.iter().cloned())
    .collect();
    let stdio_db = format!("sqlite://{}", dir.0.join("stdio.db").display());
    let stdio: Vec<String> = [
        "stdio".to_owned(),
        "--command".to_owned(),
        env!("CARGO_BIN_EXE_scrape-agent").to_owned(),
        "--env".to_owned(),
        format!("SCRAPE_AGENT__DATABASE__URL={stdio_db}"),
        "--env".to_owned(),
        "SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS=true".to_owned(),
        "--env".to_owned(),
        "SCRAPE_AGENT__FETCH__TIMEOUT_SECS=40".to_owned(),
        "--env".to_owned(),
        "SCRAPE_AGENT__FETCH__RETRIES=0".to_owned(),
        "--env".to_owned(),
        "RUST_LOG=warn".to_owned(),
    ]
    .into_iter()
    .chain(common.iter().cloned())
    .collect();
    for arguments in [http, stdio] {
        let run = tokio::process::Command::new(&python)
            .arg(script)
            .args(&arguments)
            .kill_on_drop(true)
            .output();
        let output = tokio::time::timeout(Duration::from_secs(120), run)
            .await
            .expect("the Python client finishes in time")
            .expect("the Python client runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            output.status.success(),
            "the Python MCP client failed over {}:\n{stdout}\n{stderr}",
            arguments[0]
        );
        assert!(stdout.contains("all checks passed"), "{stdout}");
        // The SDK ends its session with DELETE /mcp and warns "Session termination failed"
        // on any answer but 200 or 204 (issue 31).
        assert!(
            !stderr.contains("Session termination failed"),
            "the Python MCP client warned over {}:\n{stderr}",
            arguments[0]
        );
    }
}

#[tokio::test]
async fn an_open_mcp_session_does_not_hold_the_server_at_shutdown() {
    let dir = crate::support::TempDir::new();
    let mut settings = crate::support::test_settings_in(&dir);
    settings.server.shutdown_grace_secs = 1;
    settings.server.shutdown_drain_secs = 20;
    let app = scrape_agent::http::Application::build(settings)
        .await
        .unwrap();
    let base = format!("http://{}", app.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(app.run_until(async {
        let _ = stopped.await;
    }));
    let transport = StreamableHttpClientTransport::from_uri(format!("{base}/mcp"));
    let client = Recorder::default().serve(transport).await.unwrap();
    assert_eq!(client.list_all_tools().await.unwrap().len(), 5);
    let started = Instant::now();
    stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(10), served)
        .await
        .expect("the server stops well before the drain time")
        .unwrap()
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    drop(client);
}

#[tokio::test]
async fn mcp_over_stdio_answers_what_the_http_api_answers() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let news = fixtures.url("/pages/news.html");
    let request =
        json!({"urls": [news], "instructions": "the top 5 stories with title, link and points"});
    let frames = app.stream(&request).await;
    let http = frames.last().unwrap().payload().clone();

    let dir = crate::support::TempDir::new();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_scrape-agent"))
        .arg("mcp")
        .env("SCRAPE_AGENT__DATABASE__URL", dir.sqlite_url())
        .env("SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS", "true")
        .env("SCRAPE_AGENT__FETCH__RETRIES", "0")
        // Logs at info on purpose: they must all go to stderr, never into the protocol.
        .env("RUST_LOG", "info")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the binary starts");
    let stdout = child.stdout.take().unwrap();
    let stdin = child.stdin.take().unwrap();
    let recorder = Recorder::default();
    let client = recorder
        .clone()
        .serve((stdout, stdin))
        .await
        .expect("MCP over stdio");
    assert_eq!(client.list_all_tools().await.unwrap().len(), 5);
    let result = call(&client, "scrape", request).await;
    let outcome = result.structured_content.unwrap();
    assert_eq!(outcome["status"], "completed");
    assert_eq!(outcome["extracted_data"], http["extracted_data"]);
    assert!(
        !recorder.progress.lock().unwrap().is_empty(),
        "progress over stdio"
    );
    // Closing stdin ends the process, cleanly.
    client.cancel().await.unwrap();
    let status = tokio::time::timeout(Duration::from_secs(15), child.wait())
        .await
        .expect("the process ends when its client leaves")
        .unwrap();
    assert!(status.success(), "{status}");
    let mut logs = String::new();
    tokio::io::AsyncReadExt::read_to_string(&mut child.stderr.take().unwrap(), &mut logs)
        .await
        .unwrap();
    assert!(
        logs.contains("run finished"),
        "the logs went to stderr: {logs}"
    );
    assert!(!logs.contains("\u{1b}["), "no colours off a terminal");
}

#[tokio::test]
async fn closing_stdin_mid_call_cancels_the_run() {
    let fixtures = FixtureServer::start().await;
    let dir = crate::support::TempDir::new();
    let db_url = dir.sqlite_url();
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_scrape-agent"))
        .arg("mcp")
        .env("SCRAPE_AGENT__DATABASE__URL", &db_url)
        .env("SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS", "true")
        .env("SCRAPE_AGENT__FETCH__TIMEOUT_SECS", "40")
        .env("RUST_LOG", "warn")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the binary starts");
    let transport = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
    let recorder = Recorder::default();
    let client = recorder.clone().serve(transport).await.unwrap();
    let request = ClientRequest::CallToolRequest(Request::new(
        CallToolRequestParams::new("scrape").with_arguments(args(json!({
            "urls": [fixtures.url("/slow")],
            "instructions": "everything",
            "session_id": "stdin-closed",
        }))),
    ));
    let _handle = client
        .peer()
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !recorder
        .progress
        .lock()
        .unwrap()
        .iter()
        .any(|p| p.message.as_deref() == Some("session stdin-closed started"))
    {
        assert!(Instant::now() < deadline, "the run starts");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The client leaves while the page is still loading (it answers after 30 s).
    client.cancel().await.unwrap();
    let status = tokio::time::timeout(Duration::from_secs(15), child.wait())
        .await
        .expect("the process ends soon after its client leaves")
        .unwrap();
    assert!(status.success(), "{status}");
    // The run was cancelled and stored so: the same database, read by a server.
    let app = spawn_app_with(|s| s.database.url = db_url.clone()).await;
    assert_eq!(session_status(&app, "stdin-closed").await, "cancelled");
}

#[tokio::test]
async fn mcp_needs_the_api_key_when_the_server_has_keys() {
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    let fixtures = FixtureServer::start().await;
    let app = spawn_app_with(|s| s.auth.api_keys = vec!["mcp-key-123".into()]).await;
    let bare = app
        .client
        .post(format!("{}/mcp", app.base))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(bare.status(), 401);
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(format!("{}/mcp", app.base))
            .auth_header("mcp-key-123"),
    );
    let client = Recorder::default()
        .serve(transport)
        .await
        .expect("a client with the key connects");
    let result = call(
        &client,
        "scrape",
        json!({"urls": [fixtures.url("/pages/news.html")], "instructions": "the top 3 stories"}),
    )
    .await;
    assert_ne!(result.is_error, Some(true), "{result:?}");
}
