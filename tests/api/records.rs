//! Every item of the main list, with all its details (issue 11), through the real server.

use serde_json::{Value, json};

use crate::support::{FixtureServer, Frame, spawn_app, tool_steps};

#[tokio::test]
async fn every_item_with_all_details_is_every_card_with_every_field() {
    let Answer { frames, records } = ask(
        "directory.html",
        "List every item of the main list on this page, with all their details.",
    )
    .await;
    assert_eq!(
        records.len(),
        6,
        "the six cards, not the twelve sidebar tags"
    );
    assert_eq!(
        records[1],
        json!({
            "url": "/people/2",
            "image": "/img/2.jpg",
            "name": "Alan Turing",
            "role": "Cryptanalyst",
            "city": "Manchester",
            "born": 1912,
        })
    );
    let names: Vec<&str> = records
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Ada Lovelace",
            "Alan Turing",
            "Grace Hopper",
            "Edsger Dijkstra",
            "Barbara Liskov",
            "Donald Knuth"
        ]
    );

    // The step says which list it chose, how its columns were named, and what it passed over.
    let steps = tool_steps(&frames, "extract.records");
    assert_eq!(steps.len(), 1);
    let evidence = &steps[0]["evidence"];
    assert_eq!(evidence["records_on_page"], 6);
    assert_eq!(evidence["capped"], false);
    assert_eq!(
        evidence["selector"], "div.members > div.member-card",
        "{evidence}"
    );
    let sources: Vec<(String, String)> = evidence["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_owned(),
                c["source"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        sources.contains(&("born".into(), "label".into())),
        "{sources:?}"
    );
    assert!(
        sources.contains(&("role".into(), "class".into())),
        "{sources:?}"
    );
    assert!(
        evidence["alternatives"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["count"] == 12),
        "{evidence}"
    );
}

#[tokio::test]
async fn named_fields_stay_the_fields_named_and_a_count_cuts_the_records() {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let url = fixtures.url("/pages/directory.html");
    let frames = app
        .stream(&json!({"urls": [&url], "instructions": "the first 2 members"}))
        .await;
    let records = frames.last().unwrap().payload()["extracted_data"][&url].clone();
    assert_eq!(records.as_array().unwrap().len(), 2);
    assert_eq!(records[1]["name"], "Alan Turing");

    let frames = app
        .stream(&json!({"urls": [&url], "instructions": "every member with name and link"}))
        .await;
    assert!(tool_steps(&frames, "extract.records").is_empty());
    let records = frames.last().unwrap().payload()["extracted_data"][&url].clone();
    let first = records[0].as_object().unwrap();
    let keys: Vec<&str> = first.keys().map(String::as_str).collect();
    assert_eq!(keys, ["name", "link"], "{records}");
}

#[tokio::test]
async fn a_threads_posts_with_the_fields_named_in_the_order_named() {
    // The poster's name is only in the link's data (its wrapper's classes differ per user);
    // the post's words are in `msg_text`, beside a signature.
    let Answer { records, .. } =
        ask("forum-thread.html", "all posts with author, date and text").await;
    assert_eq!(records.len(), 3);
    assert_eq!(
        records[1],
        json!({
            "author": "McMonkey",
            "date": "2024-02-21",
            "text": "So early in the day makes me think they want to own the news cycle.",
        })
    );
    let authors: Vec<&str> = records
        .iter()
        .map(|r| r["author"].as_str().unwrap())
        .collect();
    assert_eq!(authors, ["Need2KnowLion", "McMonkey", "skier8390"]);
}

#[tokio::test]
async fn the_cap_on_items_is_said_in_the_step() {
    let fixtures = FixtureServer::start().await;
    let app = crate::support::spawn_app_with(|s| s.limits.max_items = 4).await;
    let url = fixtures.url("/pages/directory.html");
    let frames = app
        .stream(&json!({"urls": [&url], "instructions": "all the members"}))
        .await;
    let steps = tool_steps(&frames, "extract.records");
    let evidence = &steps[0]["evidence"];
    assert_eq!(evidence["records_on_page"], 6);
    assert_eq!(evidence["returned"], 4);
    assert_eq!(evidence["capped"], true);
    let records = frames.last().unwrap().payload()["extracted_data"][&url].clone();
    assert_eq!(records.as_array().unwrap().len(), 4);
    let output = frames
        .iter()
        .find(|f| f.event == "step" && f.action() == "output")
        .unwrap()
        .payload();
    assert_eq!(
        output["extracted_data"]["item_cap"],
        json!({"limit": 4, "on_page": 6})
    );
    assert!(
        output["message"]
            .as_str()
            .unwrap()
            .contains("limits.max_items is 4"),
        "{output}"
    );

    // A limit the plan asked for is not the server's cap.
    let frames = app
        .stream(
            &json!({"urls": [&url], "instructions": "members", "tools": [
                {"tool": "extract.records", "params": {"limit": 2}, "reasoning": "two are enough"}
            ]}),
        )
        .await;
    let output = frames
        .iter()
        .find(|f| f.event == "step" && f.action() == "output")
        .unwrap()
        .payload();
    assert_eq!(output["extracted_data"]["items"], 2);
    assert!(
        output["extracted_data"].get("item_cap").is_none(),
        "{output}"
    );
}

/// What the server answered for one fixture page: the run's frames, and the records of its
/// completed run with the fixture server's address taken out of their links.
struct Answer {
    frames: Vec<Frame>,
    records: Vec<Value>,
}

async fn ask(page: &str, instructions: &str) -> Answer {
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let url = fixtures.url(&format!("/pages/{page}"));
    let frames = app
        .stream(&json!({"urls": [&url], "instructions": instructions}))
        .await;
    let complete = frames.last().unwrap().payload();
    assert_eq!(complete["status"], "completed", "{page}: {complete}");
    let records = complete["extracted_data"][&url]
        .as_array()
        .unwrap_or_else(|| panic!("{page}: no list"))
        .iter()
        .map(|r| strip_base(r, &fixtures.base))
        .collect();
    Answer { frames, records }
}

/// The records and column names the server answers for "every item with all details".
async fn every_item(page: &str) -> (Vec<Value>, Vec<String>) {
    let Answer { frames, records } =
        ask(page, "every item on this page with all its details").await;
    let steps = tool_steps(&frames, "extract.records");
    let columns = steps[0]["evidence"]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_owned())
        .collect();
    (records, columns)
}

/// A record with the fixture server's address taken out of its links.
fn strip_base(record: &Value, base: &str) -> Value {
    match record {
        Value::String(s) => Value::String(s.replace(base, "")),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), strip_base(v, base)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[tokio::test]
async fn each_shape_of_list_gives_exact_records_and_column_names() {
    let (records, columns) = every_item("records-table.html").await;
    assert_eq!(
        columns,
        ["name", "name_url", "birth_place", "born", "field"]
    );
    assert_eq!(
        records[2],
        json!({"name": "Grace Hopper", "name_url": "/p/1906", "birth_place": "New York", "born": 1906, "field": "Compilers"})
    );
    assert_eq!(records.len(), 4);

    // Two sticky posts first, shaped differently (a badge), then the feed.
    let (records, columns) = every_item("records-feed.html").await;
    assert_eq!(columns, ["badge", "title", "url", "date", "description"]);
    let titles: Vec<&Value> = records.iter().map(|r| &r["title"]).collect();
    assert_eq!(titles, ["Welcome", "Rules", "Spring", "Summer", "Autumn"]);
    assert_eq!(
        records[0],
        json!({"badge": "Pinned", "title": "Welcome", "url": "/blog/welcome", "date": "2025-01-02", "description": "Some words about Welcome that make a teaser."})
    );
    assert_eq!(records[3]["badge"], Value::Null);

    // A title row and a detail row make one record.
    let (records, columns) = every_item("records-two-rows.html").await;
    assert_eq!(
        columns,
        ["rank", "title", "url", "score", "user", "user_url"]
    );
    assert_eq!(
        records,
        (1..=4)
            .map(|i| json!({"rank": i, "title": format!("Story number {i}"), "url": format!("/s/{i}"), "score": format!("{} points", i * 10), "user": format!("user{i}"), "user_url": format!("/u/{i}")}))
            .collect::<Vec<_>>()
    );

    let (records, columns) = every_item("records-glossary.html").await;
    assert_eq!(columns, ["term", "description"]);
    assert_eq!(
        records,
        [
            json!({"term": "HTTP", "description": "The protocol of the web."}),
            json!({"term": "HTML", "description": "The markup of pages."}),
            json!({"term": "CSS", "description": "The styles of pages."}),
            json!({"term": "DNS", "description": "Names to addresses."}),
        ]
    );

    // The sidebar's twelve tags are more items, but poorer ones.
    let (records, columns) = every_item("records-jobs.html").await;
    assert_eq!(
        columns,
        [
            "title",
            "url",
            "company",
            "location",
            "salary",
            "description"
        ]
    );
    assert_eq!(records.len(), 4);
    assert_eq!(
        records[1],
        json!({"title": "SRE", "url": "/jobs/1", "company": "Acme 1", "location": "Berlin", "salary": "€70,000", "description": "We are looking for a SRE to join a small team that ships every day."})
    );
}

#[tokio::test]
async fn every_list_on_the_page_gives_each_lists_records_tagged_with_their_list() {
    let Answer { frames, records } = ask(
        "records-lists.html",
        "Get all the lists on this page, every record of each.",
    )
    .await;
    let lists: Vec<i64> = records
        .iter()
        .map(|r| r["list"].as_i64().unwrap())
        .collect();
    assert_eq!(
        lists,
        [1, 1, 1, 1, 2, 2, 2, 2],
        "cards, then table rows; no menus"
    );
    assert_eq!(
        records[1],
        json!({
            "list": 1,
            "name": "Family 300",
            "url": "/plans/family",
            "description": "300 Mbps download, 50 Mbps upload",
            "description_2": "Several screens at once, video calls and a games console without waiting.",
            "price": "$44.99",
        })
    );
    assert_eq!(
        records[7],
        json!({"list": 2, "plan": "Gigabit", "contract": "24 months", "setup_fee": "$50"}),
        "the row behind \"Show all plans\" is read"
    );
    let steps = tool_steps(&frames, "extract.records");
    let evidence = &steps[0]["evidence"];
    assert_eq!(evidence["records_on_page"], 8);
    assert_eq!(evidence["lists"].as_array().unwrap().len(), 2, "{evidence}");

    // Asked for the main list's items, the same page gives the cards alone.
    let Answer { records, .. } = ask(
        "records-lists.html",
        "List every item of the main list on this page, with all their details.",
    )
    .await;
    assert_eq!(records.len(), 4);
    assert!(records.iter().all(|r| r.get("list").is_none()));
}

#[tokio::test]
async fn a_front_page_of_sections_gives_the_stories_of_every_section() {
    // Four sections, each a heading over a list named its own way.
    let (records, columns) = every_item("records-sections.html").await;
    assert_eq!(columns, ["title", "url", "byline", "date"]);
    let titles: Vec<&str> = records.iter().filter_map(|r| r["title"].as_str()).collect();
    assert_eq!(titles.len(), 13, "{records:?}");
    assert_eq!(titles[0], "Telescope maps a cold galaxy");
    assert_eq!(titles[3], "Sleep and memory, measured");
    assert_eq!(
        records[12],
        json!({"title": "Storm seasons, longer", "url": "/climate/3", "byline": "Reporter 13", "date": "2025-05-13"})
    );
}

#[tokio::test]
async fn the_cheapest_products_are_ordered_by_the_amount_the_money_reader_reads() {
    let Answer { records, .. } = ask("shop-prices.html", "the 3 cheapest products").await;
    let text: Vec<String> = records.iter().map(Value::to_string).collect();
    assert_eq!(records.len(), 3, "{text:?}");
    for (record, name) in text
        .iter()
        .zip(["Enamel mug", "Titanium spork", "Pocket stove"])
    {
        assert!(record.contains(name), "{text:?}");
    }
    let Answer { records, .. } = ask("shop-prices.html", "the 2 most expensive products").await;
    let text: Vec<String> = records.iter().map(Value::to_string).collect();
    assert!(
        text[0].contains("Trail lantern") && text[1].contains("Ridge tent"),
        "{text:?}"
    );
}

/// The named fields' values, row by row, as the every-item answer has them under its own
/// column names: what the fields path must find when the records path finds it.
fn columns_of(records: &[Value], columns: &[&str]) -> Vec<Vec<Value>> {
    records
        .iter()
        .map(|r| columns.iter().map(|c| r[*c].clone()).collect())
        .collect()
}

#[tokio::test]
async fn a_shop_grid_asked_by_name_and_price_gives_the_products_every_item_gives() {
    let (every, _) = every_item("shop-grid.html").await;
    let Answer { records, .. } = ask("shop-grid.html", "all products with name and price").await;
    assert_eq!(records.len(), 5, "{records:?}");
    assert_eq!(
        columns_of(&records, &["name", "price"]),
        columns_of(&every, &["name", "price"]),
        "{records:?} vs {every:?}"
    );
    assert_eq!(
        records[1],
        json!({"name": "Clear glass pot, 1 l", "price": "€24.50"})
    );
}

#[tokio::test]
async fn cards_with_a_by_line_give_the_author_asked_for_without_the_by() {
    let Answer { frames, records } = ask(
        "cards-byline.html",
        "every post with title, author and link",
    )
    .await;
    assert_eq!(
        records[2],
        json!({"title": "Kites over the dunes", "author": "Chidi Okafor", "link": "/notes/kites"}),
        "{records:?}"
    );
    let authors: Vec<&str> = records
        .iter()
        .map(|r| r["author"].as_str().unwrap())
        .collect();
    assert_eq!(
        authors,
        ["Ann Lee", "Bo Jensen", "Chidi Okafor", "Dana Ruiz"]
    );
    // The records engine answered, and its evidence names the column and the rule per field.
    let steps = tool_steps(&frames, "extract.records");
    let evidence = &steps[0]["evidence"];
    assert_eq!(
        evidence["list_rule"], "main_list_has_the_first_field",
        "{evidence}"
    );
    let author = evidence["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["field"] == "author")
        .unwrap();
    assert_eq!(author["rule"], "value_kind", "{evidence}");
}

#[tokio::test]
async fn a_table_asked_by_its_header_names_gives_those_columns() {
    // Free words ("birth place") are named as columns; reading them from the request's own
    // words is the wording issue's (#30).
    let fixtures = FixtureServer::start().await;
    let app = spawn_app().await;
    let url = fixtures.url("/pages/records-table.html");
    let frames = app
        .stream(&json!({
            "urls": [&url],
            "instructions": "every pioneer",
            "output_instructions": "columns: name, birth place, born",
        }))
        .await;
    let records = frames.last().unwrap().payload()["extracted_data"][&url].clone();
    assert_eq!(records.as_array().map(Vec::len), Some(4), "{records}");
    assert_eq!(
        records[3],
        json!({"name": "Edsger Dijkstra", "birth place": "Rotterdam", "born": 1930}),
        "{records}"
    );
    let steps = tool_steps(&frames, "extract.records");
    let rules: Vec<&Value> = steps[0]["evidence"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| &f["rule"])
        .collect();
    // The rows' links are read too (a field none of the rows showed would be looked for on
    // their pages), and left out of the answer above since every field named was found.
    assert_eq!(
        rules,
        [
            &json!("same_name"),
            &json!("same_name"),
            &json!("same_name"),
            &json!("any_link")
        ],
        "{steps:?}"
    );
}
