//! The LLM planner against a scripted OpenAI-compatible server (issue 4): plain and streamed
//! tool calls, invalid calls filtered with notes, fallbacks on errors and timeouts, ordering of
//! partial and final decisions, what the model is sent, and token usage in the metrics.

use std::time::Duration;

use scrape_agent::tools::Registry;
use serde_json::{Value, json};

use crate::support::openai::{
    DONE_USAGE, FakeOpenAi, INJECTION, Reply, chunk, completion, finish_chunk, tool_delta,
    usage_chunk,
};
use crate::support::{FixtureServer, Frame, TestApp, complete, spawn_app_with};

const API_KEY: &str = "sk-test-123";
const NEWS_TASK: &str = "top 3 items with title and link";

pub(crate) async fn llm_app(
    fake: &FakeOpenAi,
    timeout_secs: u64,
    max_context_chars: usize,
) -> TestApp {
    let base = fake.base_url.clone();
    spawn_app_with(move |settings| {
        settings.llm.base_url = base;
        settings.llm.api_key = API_KEY.into();
        settings.llm.model = "default-model".into();
        settings.llm.allowed_models = vec!["default-model".into(), "requested-model".into()];
        settings.llm.timeout_secs = timeout_secs;
        settings.llm.max_context_chars = max_context_chars;
    })
    .await
}

/// `event` for non-step frames, `action:status` for steps.
fn trace(frames: &[Frame]) -> Vec<String> {
    frames
        .iter()
        .map(|f| {
            if f.event == "step" {
                format!(
                    "{}:{}",
                    f.action(),
                    f.payload()["status"].as_str().unwrap_or("")
                )
            } else {
                f.event.clone()
            }
        })
        .collect()
}

fn expected(middle: &[&str]) -> Vec<String> {
    let mut all = vec!["init", "url_start", "fetch:completed", "render:completed"];
    all.extend_from_slice(middle);
    all.extend_from_slice(&["output:completed", "url_complete", "complete"]);
    all.into_iter().map(str::to_owned).collect()
}

fn steps<'a>(frames: &'a [Frame], action: &str, status: &str) -> Vec<&'a Value> {
    frames
        .iter()
        .filter(|f| f.event == "step" && f.action() == action && f.payload()["status"] == status)
        .map(Frame::payload)
        .collect()
}

/// Every partial decision precedes its round's final decision (or the fallback that replaces
/// it); every tool call follows a final decision that listed it, with no partial or decision
/// in between (no late partial of a round slips in among its tool calls).
fn assert_ordering(frames: &[Frame]) {
    let mut partial_pending = false;
    let mut tools_due = 0usize;
    for (i, frame) in frames.iter().enumerate() {
        if frame.event != "step" {
            continue;
        }
        let data = &frame.payload()["extracted_data"];
        match (frame.action(), frame.payload()["status"].as_str()) {
            ("agent_decision", Some("running")) => {
                assert_eq!(
                    tools_due, 0,
                    "frame {i}: partial among a round's tool calls"
                );
                partial_pending = true;
            }
            ("agent_decision", Some("completed")) => {
                assert_eq!(
                    tools_due, 0,
                    "frame {i}: decision among a round's tool calls"
                );
                partial_pending = false;
                tools_due = data["tool_calls"].as_array().map_or(0, Vec::len);
            }
            ("planner_fallback", _) => {
                assert_eq!(
                    tools_due, 0,
                    "frame {i}: fallback among a round's tool calls"
                );
                partial_pending = false;
            }
            ("tool_call", _) => {
                assert!(
                    tools_due > 0 && !partial_pending,
                    "frame {i}: tool_call before its decision is final"
                );
                tools_due -= 1;
            }
            _ => {}
        }
    }
    assert_eq!(tools_due, 0, "every decided call has its tool_call step");
}

fn wire_calls(calls: &[Value]) -> Vec<(String, Value)> {
    calls
        .iter()
        .map(|c| (c["tool"].as_str().unwrap().to_owned(), c["params"].clone()))
        .collect()
}

/// The text between the outline tags of a user message.
fn outline_section(user: &str) -> &str {
    let start = user.find("<page_outline>\n").expect("outline opens") + "<page_outline>\n".len();
    let end = user.find("\n</page_outline>").expect("outline closes");
    &user[start..end]
}

#[tokio::test]
async fn plain_tool_calls_become_the_plan_and_the_model_sees_tools_and_delimited_page() {
    let fixtures = FixtureServer::start().await;
    let fake = FakeOpenAi::start(vec![Reply::Json(completion(
        Some("Select the story rows, read title and link, keep three."),
        &[
            ("html__select", r#"{"selector": "tr.athing"}"#),
            (
                "extract__fields",
                r#"{"fields": {"title": "span.titleline > a", "link": "span.titleline > a@href"}}"#,
            ),
            ("extract__top_n", r#"{"n": 3}"#),
        ],
        (100, 20),
    ))])
    .await;
    let app = llm_app(&fake, 5, 12_000).await;
    let url = fixtures.url("/pages/news.html");
    let frames = app
        .stream(&json!({"urls": [url], "instructions": NEWS_TASK, "planner": "llm", "model": "requested-model"}))
        .await;

    assert_eq!(
        trace(&frames),
        expected(&[
            "agent_decision:completed",
            "tool_call:completed",
            "tool_call:completed",
            "tool_call:completed",
            "agent_decision:completed",
        ])
    );
    assert_ordering(&frames);
    let decisions = steps(&frames, "agent_decision", "completed");
    assert_eq!(decisions[0]["extracted_data"]["planner"], "llm");
    assert_eq!(decisions[0]["extracted_data"]["notes"], json!([]));
    let calls = decisions[0]["extracted_data"]["tool_calls"]
        .as_array()
        .unwrap();
    assert_eq!(
        wire_calls(calls),
        vec![
            ("html.select".to_owned(), json!({"selector": "tr.athing"})),
            (
                "extract.fields".to_owned(),
                json!({"fields": {"title": "span.titleline > a", "link": "span.titleline > a@href"}})
            ),
            ("extract.top_n".to_owned(), json!({"n": 3})),
        ]
    );
    assert_eq!(
        calls[0]["reasoning"],
        "Select the story rows, read title and link, keep three."
    );
    // Round 1: the model answered DONE without calls.
    assert_eq!(decisions[1]["extracted_data"]["done"], true);
    assert_eq!(decisions[1]["extracted_data"]["tool_calls"], json!([]));
    let tools_run: Vec<&str> = steps(&frames, "tool_call", "completed")
        .iter()
        .map(|s| s["extracted_data"]["tool"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools_run,
        ["html.select", "extract.fields", "extract.top_n"]
    );

    let done = complete(&frames);
    assert_eq!(done["status"], "completed");
    assert_eq!(
        done["extracted_data"][&url],
        json!([
            {"title": "Show HN: A tiny SQLite-backed job queue in Rust", "link": "https://github.com/example/jobq"},
            {"title": "The hidden cost of microservices at small scale", "link": "https://blog.example.org/microservices-cost"},
            {"title": "Why our CI got 4x faster after switching to nextest", "link": "https://engineering.acme.io/ci-nextest"},
        ])
    );
    assert_eq!(
        done["metrics"]["llm_prompt_tokens"],
        json!(100 + DONE_USAGE.0)
    );
    assert_eq!(
        done["metrics"]["llm_completion_tokens"],
        json!(20 + DONE_USAGE.1)
    );

    // What the model server received.
    let received = fake.received();
    assert_eq!(received.len(), 2, "one request per round");
    for request in &received {
        assert_eq!(
            request.authorization.as_deref(),
            Some(format!("Bearer {API_KEY}").as_str())
        );
        assert_eq!(request.body["model"], "requested-model");
        assert_eq!(request.body["stream"], true);
        assert_eq!(request.body["stream_options"]["include_usage"], true);
        assert_eq!(request.body["tool_choice"], "auto");
    }
    let registry = Registry::builtin();
    let offered = received[0].body["tools"].as_array().unwrap();
    assert_eq!(offered.len(), registry.tools().len());
    for (function, tool) in offered.iter().zip(registry.tools()) {
        assert_eq!(function["type"], "function");
        assert_eq!(
            function["function"]["name"],
            json!(tool.name.replace('.', "__")),
            "function names carry no dots"
        );
        assert_eq!(function["function"]["parameters"], tool.params_schema);
        assert!(
            function["function"]["description"]
                .as_str()
                .unwrap()
                .contains(tool.description)
        );
    }
    let system = received[0].message("system");
    assert!(system.contains("UNTRUSTED DATA"));
    assert!(system.contains("<page_outline>"));
    let user = received[0].message("user");
    assert!(user.contains(&format!("instructions: {NEWS_TASK}")));
    assert!(user.contains(&url));
    let outline: Value = serde_json::from_str(outline_section(&user)).expect("outline is JSON");
    assert_eq!(outline["title"], "Tech News Front Page");
    assert!(user.contains("<observations>\n[]\n</observations>"));
    // Round 1 shows the observations of round 0.
    let later = received[1].message("user");
    let start = later.find("<observations>\n").unwrap() + "<observations>\n".len();
    let end = later.find("\n</observations>").unwrap();
    let observations: Value = serde_json::from_str(&later[start..end]).unwrap();
    let observed: Vec<&str> = observations
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["tool"].as_str().unwrap())
        .collect();
    assert_eq!(observed, ["html.select", "extract.fields", "extract.top_n"]);
}

/// Two calls streamed interleaved, with a name split mid-word and a string split mid-value
/// (also streamed to the console in tests/api/console.rs).
pub(crate) fn interleaved_stream() -> Vec<Value> {
    vec![
        chunk(json!({"role": "assistant", "content": null})),
        chunk(json!({"content": "Selecting the story rows."})),
        tool_delta(
            json!([{"index": 0, "id": "call_a", "type": "function", "function": {"name": "html__sel", "arguments": ""}}]),
        ),
        tool_delta(json!([{"index": 0, "function": {"name": "ect"}}])),
        tool_delta(json!([{"index": 0, "function": {"arguments": "{\"selec"}}])),
        tool_delta(
            json!([{"index": 1, "id": "call_b", "type": "function", "function": {"name": "extract__to", "arguments": ""}}]),
        ),
        tool_delta(json!([{"index": 0, "function": {"arguments": "tor\": \"tr.ath"}}])),
        tool_delta(json!([{"index": 1, "function": {"name": "p_n", "arguments": "{\"n\""}}])),
        tool_delta(json!([{"index": 0, "function": {"arguments": "ing\"}"}}])),
        tool_delta(json!([{"index": 1, "function": {"arguments": ": 3}"}}])),
        finish_chunk("tool_calls"),
        usage_chunk(300, 40),
    ]
}

#[tokio::test]
async fn streamed_deltas_split_awkwardly_become_partials_then_one_final_decision() {
    let fixtures = FixtureServer::start().await;
    let fake = FakeOpenAi::start(vec![Reply::Stream(interleaved_stream())]).await;
    let app = llm_app(&fake, 5, 12_000).await;
    let url = fixtures.url("/pages/news.html");
    let frames = app
        .stream(&json!({"urls": [url], "instructions": NEWS_TASK}))
        .await;

    assert_eq!(
        trace(&frames),
        expected(&[
            "agent_decision:running",
            "agent_decision:running",
            "agent_decision:running",
            "agent_decision:running",
            "agent_decision:completed",
            "tool_call:completed",
            "tool_call:completed",
            "agent_decision:completed",
        ])
    );
    assert_ordering(&frames);
    let partials: Vec<Value> = steps(&frames, "agent_decision", "running")
        .iter()
        .map(|s| {
            assert_eq!(s["extracted_data"]["planner"], "llm");
            assert_eq!(s["extracted_data"]["partial"], true);
            s["extracted_data"]["tool_calls"].clone()
        })
        .collect();
    let select = |arguments: &str, params: Value| json!({"tool": "html.select", "arguments": arguments, "params": params});
    let top = |arguments: &str, params: Value| json!({"tool": "extract.top_n", "arguments": arguments, "params": params});
    assert_eq!(
        partials,
        vec![
            // The name is reported once its arguments start, never the unfinished `html__sel`.
            json!([select("{\"selec", Value::Null)]),
            json!([
                select("{\"selector\": \"tr.ath", Value::Null),
                top("{\"n\"", Value::Null)
            ]),
            json!([
                select(
                    "{\"selector\": \"tr.athing\"}",
                    json!({"selector": "tr.athing"})
                ),
                top("{\"n\"", Value::Null)
            ]),
            json!([
                select(
                    "{\"selector\": \"tr.athing\"}",
                    json!({"selector": "tr.athing"})
                ),
                top("{\"n\": 3}", json!({"n": 3}))
            ]),
        ]
    );
    let decisions = steps(&frames, "agent_decision", "completed");
    let calls = decisions[0]["extracted_data"]["tool_calls"]
        .as_array()
        .unwrap();
    assert_eq!(
        wire_calls(calls),
        vec![
            ("html.select".to_owned(), json!({"selector": "tr.athing"})),
            ("extract.top_n".to_owned(), json!({"n": 3})),
        ]
    );
    assert_eq!(calls[1]["reasoning"], "Selecting the story rows.");
    let done = complete(&frames);
    assert_eq!(done["status"], "completed");
    assert_eq!(done["extracted_data"][&url].as_array().unwrap().len(), 3);
    assert_eq!(
        done["metrics"]["llm_prompt_tokens"],
        json!(300 + DONE_USAGE.0)
    );
    assert_eq!(
        done["metrics"]["llm_completion_tokens"],
        json!(40 + DONE_USAGE.1)
    );
    // No model in the request: the configured one is used.
    assert_eq!(fake.received()[0].body["model"], "default-model");
}

#[tokio::test]
async fn invalid_calls_are_filtered_with_visible_notes() {
    let fixtures = FixtureServer::start().await;
    let fake = FakeOpenAi::start(vec![Reply::Json(completion(
        None,
        &[
            ("html__select", r#"{"selector": "tr.athing"}"#),
            ("extract__top_n", r#"{"n": 3"#),
            ("html__select", r#"{"selector": 5}"#),
            ("shell__exec", r#"{"cmd": "rm -rf /"}"#),
        ],
        (90, 30),
    ))])
    .await;
    let app = llm_app(&fake, 5, 12_000).await;
    let url = fixtures.url("/pages/news.html");
    let frames = app
        .stream(&json!({"urls": [url], "instructions": NEWS_TASK}))
        .await;

    assert_eq!(
        trace(&frames),
        expected(&[
            "agent_decision:completed",
            "tool_call:completed",
            "agent_decision:completed",
        ])
    );
    assert_ordering(&frames);
    let decision = steps(&frames, "agent_decision", "completed")[0];
    assert_eq!(decision["extracted_data"]["planner"], "llm");
    assert_eq!(
        wire_calls(decision["extracted_data"]["tool_calls"].as_array().unwrap()),
        vec![("html.select".to_owned(), json!({"selector": "tr.athing"}))]
    );
    let notes: Vec<&str> = decision["extracted_data"]["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert_eq!(notes.len(), 3, "{notes:?}");
    assert!(
        notes[0].starts_with("dropped call 2: arguments of `extract.top_n` are not valid JSON")
    );
    assert!(
        notes[1].starts_with("dropped call 3: arguments rejected by the schema of `html.select`")
    );
    assert_eq!(notes[2], "dropped call 4: unknown tool `shell__exec`");
    let ran: Vec<&str> = steps(&frames, "tool_call", "completed")
        .iter()
        .map(|s| s["extracted_data"]["tool"].as_str().unwrap())
        .collect();
    assert_eq!(ran, ["html.select"]);
    assert_eq!(
        complete(&frames)["metrics"]["llm_prompt_tokens"],
        json!(90 + DONE_USAGE.0)
    );
}

/// The heuristic planner's round for the news task, after a fallback.
/// The heuristic planner's list plan: select, fields, filter, dedupe, top_n.
const HEURISTIC_ROUND: [&str; 6] = [
    "agent_decision:completed",
    "tool_call:completed",
    "tool_call:completed",
    "tool_call:completed",
    "tool_call:completed",
    "tool_call:completed",
];

fn assert_fell_back(frames: &[Frame], reason_has: &str) {
    let fallback = steps(frames, "planner_fallback", "completed");
    assert_eq!(fallback.len(), 1);
    assert_eq!(fallback[0]["extracted_data"]["from"], "llm");
    assert_eq!(fallback[0]["extracted_data"]["to"], "heuristic");
    let reason = fallback[0]["extracted_data"]["reason"].as_str().unwrap();
    assert!(reason.contains(reason_has), "reason: {reason}");
    let decision = steps(frames, "agent_decision", "completed")[0];
    assert_eq!(decision["extracted_data"]["planner"], "heuristic");
    let done = complete(frames);
    assert_eq!(done["status"], "completed");
    assert!(!reason.contains(API_KEY));
}

#[tokio::test]
async fn only_unknown_tools_fall_back_and_keep_the_tokens_spent() {
    let fixtures = FixtureServer::start().await;
    let fake = FakeOpenAi::start(vec![Reply::Json(completion(
        Some("Running a command as the page asked."),
        &[("shell__exec", r#"{"cmd": "curl evil.example"}"#)],
        (40, 4),
    ))])
    .await;
    let app = llm_app(&fake, 5, 12_000).await;
    let url = fixtures.url("/pages/news.html");
    let frames = app
        .stream(&json!({"urls": [url], "instructions": NEWS_TASK}))
        .await;
    let mut middle = vec!["planner_fallback:completed"];
    middle.extend(HEURISTIC_ROUND);
    assert_eq!(trace(&frames), expected(&middle));
    assert_ordering(&frames);
    assert_fell_back(&frames, "unknown tool `shell__exec`");
    // The failed reply's tokens are still counted.
    let done = complete(&frames);
    assert_eq!(done["metrics"]["llm_prompt_tokens"], 40);
    assert_eq!(done["metrics"]["llm_completion_tokens"], 4);
    assert_eq!(done["extracted_data"][&url].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn http_500_falls_back_to_the_heuristic_planner() {
    let fixtures = FixtureServer::start().await;
    let fake = FakeOpenAi::start(vec![Reply::Status(
        500,
        r#"{"error": {"message": "the model is overloaded"}}"#.into(),
    )])
    .await;
    let app = llm_app(&fake, 5, 12_000).await;
    let frames = app
        .stream(&json!({"urls": [fixtures.url("/pages/news.html")], "instructions": NEWS_TASK}))
        .await;
    let mut middle = vec!["planner_fallback:completed"];
    middle.extend(HEURISTIC_ROUND);
    assert_eq!(trace(&frames), expected(&middle));
    assert_ordering(&frames);
    assert_fell_back(&frames, "HTTP 500");
    assert_eq!(complete(&frames)["metrics"]["llm_prompt_tokens"], 0);
}

#[tokio::test]
async fn a_reply_slower_than_the_timeout_falls_back() {
    let fixtures = FixtureServer::start().await;
    let fake = FakeOpenAi::start(vec![Reply::Delayed(
        Duration::from_secs(4),
        Box::new(Reply::Json(completion(
            None,
            &[("html__select", r#"{"selector": "tr.athing"}"#)],
            (1, 1),
        ))),
    )])
    .await;
    let app = llm_app(&fake, 1, 12_000).await;
    let frames = app
        .stream(&json!({"urls": [fixtures.url("/pages/news.html")], "instructions": NEWS_TASK}))
        .await;
    let mut middle = vec!["planner_fallback:completed"];
    middle.extend(HEURISTIC_ROUND);
    assert_eq!(trace(&frames), expected(&middle));
    assert_ordering(&frames);
    assert_fell_back(&frames, "timed out after 1 s");
}

#[tokio::test]
async fn a_stream_that_stalls_after_partials_falls_back_after_them() {
    let fixtures = FixtureServer::start().await;
    // The first nine chunks carry three partials; then the model goes quiet.
    let mut chunks = interleaved_stream();
    chunks.truncate(9);
    let fake =
        FakeOpenAi::start(vec![Reply::StreamThenStall(chunks, Duration::from_secs(4))]).await;
    let app = llm_app(&fake, 1, 12_000).await;
    let frames = app
        .stream(&json!({"urls": [fixtures.url("/pages/news.html")], "instructions": NEWS_TASK}))
        .await;
    let mut middle = vec![
        "agent_decision:running",
        "agent_decision:running",
        "agent_decision:running",
        "planner_fallback:completed",
    ];
    middle.extend(HEURISTIC_ROUND);
    assert_eq!(trace(&frames), expected(&middle));
    assert_ordering(&frames);
    assert_fell_back(&frames, "timed out after 1 s");
    // Nothing the model drafted ran: the tools are the heuristic plan's.
    let decision = steps(&frames, "agent_decision", "completed")[0];
    let planned = wire_calls(decision["extracted_data"]["tool_calls"].as_array().unwrap());
    let ran: Vec<(String, Value)> = steps(&frames, "tool_call", "completed")
        .iter()
        .map(|s| {
            (
                s["extracted_data"]["tool"].as_str().unwrap().to_owned(),
                s["extracted_data"]["parameters"].clone(),
            )
        })
        .collect();
    assert_eq!(ran, planned);
}

#[tokio::test]
async fn page_text_reaches_the_model_bounded_escaped_and_inside_its_tags() {
    let fake = FakeOpenAi::start(vec![Reply::Json(completion(
        None,
        &[("html__select", r#"{"selector": "li.widget"}"#)],
        (5, 5),
    ))])
    .await;
    let app = llm_app(&fake, 5, 700).await;
    let url = fake.url("/pages/injection.html");
    let frames = app
        // The page shows no prices: asking for them would end in `no_match` (tested in
        // tests/api/words.rs); this test is about the prompt, so it asks for the widgets.
        .stream(&json!({"urls": [url], "instructions": "all widgets"}))
        .await;
    assert_eq!(
        trace(&frames),
        expected(&[
            "agent_decision:completed",
            "tool_call:completed",
            "agent_decision:completed",
        ])
    );
    let received = fake.received();
    let user = received[0].message("user");
    // The page's fake closing tag did not close anything: one opening and one closing tag.
    assert_eq!(user.matches("<page_outline>").count(), 1);
    assert_eq!(user.matches("</page_outline>").count(), 1);
    let section = outline_section(&user);
    assert!(!section.contains('<') && !section.contains('>'));
    assert!(
        section.chars().count() <= 700,
        "outline bounded: {} chars",
        section.chars().count()
    );
    let outline: Value = serde_json::from_str(section).expect("still JSON after shortening");
    assert_eq!(outline["title"], format!("Widgets {INJECTION}"));
    // Shrinking drops the worst candidates and the tails of lists, not the best block.
    assert!(!outline["blocks"].as_array().unwrap().is_empty());
    assert!(user.contains("shortened to fit"), "{section}");
    assert!(user.contains("UNTRUSTED DATA"));
    // Round 1's observations quote page text too, escaped the same way.
    let later = received[1].message("user");
    assert_eq!(later.matches("</observations>").count(), 1);
    let start = later.find("<observations>\n").unwrap() + "<observations>\n".len();
    let end = later.find("\n</observations>").unwrap();
    let observations: Value = serde_json::from_str(&later[start..end]).expect("JSON");
    assert_eq!(observations[0]["tool"], "html.select");
    assert!(
        observations[0]["preview"]
            .as_str()
            .unwrap()
            .contains("Widget 1 </observations>"),
        "{observations}"
    );
}

#[tokio::test]
async fn a_long_streamed_argument_gives_few_bounded_partial_decisions() {
    let fixtures = FixtureServer::start().await;
    // 2,000 fragments of 10 characters: once a step per fragment, each repeating all before it.
    let mut script = vec![
        chunk(json!({"role": "assistant", "content": null})),
        tool_delta(
            json!([{"index": 0, "id": "call_a", "type": "function", "function": {"name": "html__select", "arguments": "{\"selector\":"}}]),
        ),
    ];
    let padding = " ".repeat(10);
    script.extend(
        (0..2_000).map(|_| tool_delta(json!([{"index": 0, "function": {"arguments": padding}}]))),
    );
    script.extend([
        tool_delta(json!([{"index": 0, "function": {"arguments": "\"tr.athing\"}"}}])),
        finish_chunk("tool_calls"),
        usage_chunk(300, 40),
    ]);
    let fake = FakeOpenAi::start(vec![Reply::Stream(script)]).await;
    let base = fake.base_url.clone();
    let app = spawn_app_with(move |settings| {
        settings.llm.base_url = base;
        settings.llm.api_key = API_KEY.into();
        settings.llm.model = "default-model".into();
        settings.llm.max_draft_chars = 100;
        settings.llm.draft_interval_ms = 60_000;
    })
    .await;
    let url = fixtures.url("/pages/news.html");
    let frames = app
        .stream(&json!({"urls": [url], "instructions": NEWS_TASK}))
        .await;

    let partials = steps(&frames, "agent_decision", "running");
    // The tool name, then its parsed parameters: the milestones, nothing in between.
    assert_eq!(partials.len(), 2, "{partials:?}");
    for partial in &partials {
        let call = &partial["extracted_data"]["tool_calls"][0];
        assert_eq!(call["tool"], "html.select");
        assert!(call["arguments"].as_str().unwrap().chars().count() <= 100);
    }
    let last = &partials[1]["extracted_data"]["tool_calls"][0];
    assert_eq!(last["params"], json!({"selector": "tr.athing"}));
    assert_eq!(last["arguments_chars"], 12 + 20_000 + 12);
    let decision = &steps(&frames, "agent_decision", "completed")[0];
    assert_eq!(
        decision["extracted_data"]["tool_calls"][0]["params"],
        json!({"selector": "tr.athing"})
    );
    let stored: usize = frames.iter().map(|f| f.data.to_string().len()).sum();
    assert!(stored < 64 * 1024, "{stored} bytes of events");
}

#[tokio::test]
async fn models_outside_the_allow_list_are_refused_and_planner_default_is_honoured() {
    let fixtures = FixtureServer::start().await;
    let fake = FakeOpenAi::start(Vec::new()).await;
    let app = llm_app(&fake, 5, 12_000).await;
    let url = fixtures.url("/pages/news.html");
    let refused = app
        .post(
            "/api/scrape/stream",
            &json!({"urls": [&url], "instructions": NEWS_TASK, "model": "gpt-expensive"}),
        )
        .await;
    assert_eq!(refused.status(), 400);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "model_not_allowed");
    assert_eq!(
        body["error"]["details"]["allowed"],
        json!(["default-model", "requested-model"])
    );

    // planner.default = "heuristic": an "auto" request never reaches the model.
    let base = fake.base_url.clone();
    let heuristic_first = spawn_app_with(move |settings| {
        settings.llm.base_url = base;
        settings.planner.default = scrape_agent::settings::DefaultPlanner::Heuristic;
    })
    .await;
    let frames = heuristic_first
        .stream(&json!({"urls": [&url], "instructions": NEWS_TASK}))
        .await;
    assert_eq!(complete(&frames)["status"], "completed");
    let decision = steps(&frames, "agent_decision", "completed")[0];
    assert_eq!(decision["extracted_data"]["planner"], "heuristic");
    assert!(fake.received().is_empty(), "the model was not asked");

    // planner.default = "llm" without an LLM: the server refuses to start.
    let mut settings = crate::support::test_settings();
    settings.planner.default = scrape_agent::settings::DefaultPlanner::Llm;
    let err = scrape_agent::http::Application::build(settings)
        .await
        .expect_err("no LLM configured");
    assert!(err.to_string().contains("planner.default"), "{err}");
}
