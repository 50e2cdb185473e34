//! Unit tests of the `extract.*` tools: exact results on the fixture pages and on small inline pages.

use super::*;
use crate::page::Page;
use crate::tools::{Registry, ToolCall, ToolLimits};
use serde_json::json;

const LISTING: &str = r#"<table>
  <tr class="athing"><td><a class="t" href="/1">One</a></td></tr><tr><td><span class="score">10 points</span></td></tr>
  <tr class="athing"><td><a class="t" href="/2">Two</a></td></tr><tr><td><span class="score">30 points</span></td></tr>
  <tr class="athing"><td><a class="t" href="/3">Three</a></td></tr><tr><td><span class="score">20 points</span></td></tr>
</table>"#;

fn run(calls: &[ToolCall]) -> (Value, Vec<crate::tools::ToolCallResult>) {
    let page = Page::parse(url::Url::parse("https://news.example/").unwrap(), LISTING);
    let registry = Registry::builtin();
    let mut ws = Workspace::new(&page, ToolLimits::default());
    let results = calls.iter().map(|c| registry.execute(&mut ws, c)).collect();
    (ws.answer(), results)
}

#[test]
fn fields_read_text_attributes_and_next_sibling() {
    let (answer, results) = run(&[
        ToolCall::new("html.select", json!({"selector": "tr.athing"}), ""),
        ToolCall::new(
            "extract.fields",
            json!({"fields": {"title": "a.t", "url": "a.t@href", "points": {"selector": ".score", "kind": "number", "next_sibling": true}}, "order": ["title", "url", "points"]}),
            "",
        ),
    ]);
    assert!(results.iter().all(|r| r.success), "{results:?}");
    assert_eq!(
        answer[1],
        json!({"title": "Two", "url": "https://news.example/2", "points": 30})
    );
    assert_eq!(answer.as_array().unwrap().len(), 3);
}

#[test]
fn date_fields_read_as_iso_when_the_text_holds_a_date() {
    let page = Page::parse(
        url::Url::parse("https://forum.example/t/1").unwrap(),
        r#"<html lang="en"><body><ul>
        <li><b>Ann</b> <span class="when">Posted Feb 21, 2024 02:35am</span></li>
        <li><b>Bob</b> <span class="when">2 years ago</span></li>
        <li><b>Cyd</b> <time datetime="2024-02-22T08:00:00Z">yesterday</time></li></ul></body></html>"#,
    );
    let registry = Registry::builtin();
    let mut ws = Workspace::new(&page, ToolLimits::default());
    for call in [
        ToolCall::new("html.select", json!({"selector": "li"}), ""),
        ToolCall::new(
            "extract.fields",
            json!({"fields": {"who": "b", "when": {"selector": ".when", "kind": "date"}, "at": {"selector": "time", "attr": "datetime", "kind": "date"}}, "order": ["who", "when", "at"]}),
            "",
        ),
    ] {
        assert!(registry.execute(&mut ws, &call).success);
    }
    assert_eq!(
        ws.answer(),
        json!([
            {"who": "Ann", "when": "2024-02-21", "at": null},
            {"who": "Bob", "when": "2 years ago", "at": null},
            {"who": "Cyd", "when": null, "at": "2024-02-22T08:00:00Z"},
        ])
    );
}

#[test]
fn top_n_sorts_numerically_and_cuts() {
    let (answer, _) = run(&[
        ToolCall::new(
            "extract.fields",
            json!({"selector": "tr.athing", "fields": {"title": "a.t", "points": "+.score"}}),
            "",
        ),
        ToolCall::new("extract.top_n", json!({"n": 2, "sort_by": "points"}), ""),
    ]);
    assert_eq!(
        answer,
        json!([{"points": "30 points", "title": "Two"}, {"points": "20 points", "title": "Three"}])
    );
}

#[test]
fn a_field_showing_a_price_beside_a_struck_through_one_reads_the_current_price() {
    let html = "<ul><li class='car'><h2>Civic</h2><p class='price'>$18,450</p></li>\
                <li class='car'><h2>Mazda3</h2><p class='price'><s>$10,500</s> <b>$9,750</b></p></li></ul>";
    let page = Page::parse(url::Url::parse("https://cars.example/").unwrap(), html);
    let registry = Registry::builtin();
    let mut ws = Workspace::new(&page, ToolLimits::default());
    for call in [
        ToolCall::new("html.select", json!({"selector": "li.car"}), ""),
        ToolCall::new(
            "extract.fields",
            json!({"fields": {"title": "h2", "price": "p.price"}, "order": ["title", "price"]}),
            "",
        ),
    ] {
        assert!(registry.execute(&mut ws, &call).success);
    }
    assert_eq!(
        ws.answer(),
        json!([{"title": "Civic", "price": "$18,450"}, {"title": "Mazda3", "price": "$9,750"}])
    );
}

#[test]
fn fields_without_selection_is_a_clear_failure() {
    let (_, results) = run(&[ToolCall::new(
        "extract.fields",
        json!({"fields": {"a": "a"}}),
        "",
    )]);
    assert!(
        results[0]
            .error
            .as_deref()
            .unwrap()
            .contains("nothing is selected")
    );
}

mod catalog {
    use super::super::normalise_date;
    use crate::page::money::parse_amount;
    use crate::tools::testkit::{CONTACT, SHOP, call, call_err, chain, page};
    use serde_json::{Value, json};

    const SHOP_URL: &str = "https://northwind.example/shoes/trail";
    const CONTACT_URL: &str = "https://harbourbooks.example/contact";

    #[test]
    fn image_fields_see_through_lazy_loading_placeholders() {
        let shop = page(SHOP, SHOP_URL);
        let (_, answer) = chain(
            &shop,
            &[
                ("html.select", json!({"selector": "li.product"})),
                ("extract.fields", json!({"fields": {"image": "img@src"}})),
            ],
        );
        // A placeholder `data:` src and a missing src give way to the lazy attribute; a
        // real src is kept as written.
        assert_eq!(
            answer,
            json!([
                {"image": "https://northwind.example/img/ridge-runner.jpg"},
                {"image": "https://northwind.example/img/mud-king-small.jpg"},
                {"image": "https://cdn.northwind.example/scree.jpg"}
            ])
        );
    }

    #[test]
    fn regex_on_page_text_with_groups() {
        let shop = page(SHOP, SHOP_URL);
        assert_eq!(
            call(
                &shop,
                "extract.regex",
                json!({"pattern": r"\$([\d,]+\.\d\d)"})
            ),
            json!(["129.99", "1,249.00", "1,399.00"])
        );
        assert_eq!(
            call(
                &shop,
                "extract.regex",
                json!({"pattern": r"\$([\d,]+\.\d\d)", "group": 0, "limit": 1})
            ),
            json!(["$129.99"])
        );
        assert_eq!(
            call(
                &shop,
                "extract.regex",
                json!({"pattern": r"(?P<whole>\d+)\.(?P<cents>\d\d)", "limit": 2})
            ),
            json!([{"whole": "129", "cents": "99"}, {"whole": "249", "cents": "00"}])
        );
    }

    #[test]
    fn regex_on_a_field_and_on_the_value() {
        let shop = page(SHOP, SHOP_URL);
        let (results, answer) = chain(
            &shop,
            &[
                (
                    "extract.fields",
                    json!({"selector": "li.product", "fields": {"name": "h2", "url": "h2 a@href"}}),
                ),
                (
                    "extract.regex",
                    json!({"pattern": "/p/([a-z-]+)$", "field": "url"}),
                ),
            ],
        );
        assert!(results.iter().all(|r| r.success), "{results:?}");
        assert_eq!(answer, json!(["ridge-runner", "mud-king", "scree-pro"]));
        let (_, answer) = chain(
            &shop,
            &[
                ("html.text", json!({"selector": "h2"})),
                ("extract.regex", json!({"pattern": "^[A-Z][a-z]+"})),
            ],
        );
        assert_eq!(answer, json!(["Ridge", "Mud", "Scree"]));
    }

    #[test]
    fn regex_errors_are_clear() {
        let shop = page(SHOP, SHOP_URL);
        assert!(
            call_err(&shop, "extract.regex", json!({"pattern": "a(b"}))
                .starts_with("extract.regex: invalid regular expression `a(b`")
        );
        assert_eq!(
            call_err(
                &shop,
                "extract.regex",
                json!({"pattern": "a(b)", "group": 2})
            ),
            "extract.regex: `group` is 2 but the pattern has 1 capture group(s)"
        );
        assert!(
            call_err(
                &shop,
                "extract.regex",
                json!({"pattern": "x", "field": "url"})
            )
            .contains("holds no records")
        );
        // Too large once compiled: refused, not built.
        assert!(
            call_err(
                &shop,
                "extract.regex",
                json!({"pattern": r"\w{1000}{1000}"})
            )
            .starts_with("extract.regex: invalid regular expression")
        );
        assert!(call_err(&shop, "extract.regex", json!({})).contains("pattern"));
    }

    #[test]
    fn emails_from_links_text_obfuscation_and_cloudflare() {
        let contact = page(CONTACT, CONTACT_URL);
        assert_eq!(
            call(&contact, "extract.emails", json!({})),
            json!([
                "shop@harbourbooks.example",
                "press@harbourbooks.example",
                "orders@harbourbooks.example"
            ])
        );
        let shop = page(SHOP, SHOP_URL);
        assert_eq!(
            call(&shop, "extract.emails", json!({})),
            json!(["sales@northwind.example"])
        );
    }

    #[test]
    fn phones_skip_dates_prices_and_ids() {
        let contact = page(CONTACT, CONTACT_URL);
        assert_eq!(
            call(&contact, "extract.phones", json!({})),
            json!(["+442079460958", "+441614960123", "01614960456"])
        );
        let (_, answer) = chain(
            &contact,
            &[
                ("html.select_one", json!({"selector": "#numbers"})),
                ("extract.phones", json!({})),
            ],
        );
        assert_eq!(answer, json!([]));
    }

    #[test]
    fn phones_in_common_national_formats() {
        let p = page(
            "<p>Tel. (555) 123-4567</p><p>Fax: 555.987.6543</p><p>Appelez le 01 23 45 67 89</p><p>Hotline 0049 30 1234567</p><p>ID 555-123-4567</p><p>Einwohner: 10.000.000, 1 234 567 Besucher</p>\
             <p><a href=\"tel:+12064613700\">Call</a> 206-461-3700, <a href=\"tel:+2065550100\">Desk</a> 206.555.0100</p>",
            "https://x.example/",
        );
        assert_eq!(
            call(&p, "extract.phones", json!({})),
            json!([
                "+12064613700",
                "+2065550100",
                "5551234567",
                "5559876543",
                "0123456789",
                "+49301234567"
            ])
        );
    }

    #[test]
    fn prices_with_currencies_and_separators() {
        let shop = page(SHOP, SHOP_URL);
        assert_eq!(
            call(&shop, "extract.prices", json!({})),
            json!([
                {"amount": 129.99, "currency": "USD", "text": "$129.99"},
                {"amount": 1249, "currency": "USD", "text": "$1,249.00"},
                {"amount": 1399, "currency": "USD", "text": "$1,399.00"},
                {"amount": 89, "currency": "EUR", "text": "89 €"}
            ])
        );
        let contact = page(CONTACT, CONTACT_URL);
        assert_eq!(
            call(&contact, "extract.prices", json!({})),
            json!([
                {"amount": 12.99, "currency": "GBP", "text": "£12.99"},
                {"amount": 1299.5, "currency": "GBP", "text": "£1,299.50"},
                {"amount": 12345.67, "currency": "EUR", "text": "12345.67 EUR"}
            ])
        );
        let p = page(
            r#"<html lang="sv"><p>Pris 1 234,50 kr</p><p>CHF 99.–</p><p>Art. A42024 EUR</p><p>R$ 10,00 · ¥1200 · 3.50 USD</p></html>"#,
            "https://x.example/",
        );
        assert_eq!(
            call(&p, "extract.prices", json!({})),
            json!([
                {"amount": 1234.5, "currency": "SEK", "text": "1 234,50 kr"},
                {"amount": 99, "currency": "CHF", "text": "CHF 99.–"},
                {"amount": 10, "currency": "BRL", "text": "R$ 10,00"},
                {"amount": 1200, "currency": "JPY", "text": "¥1200"},
                {"amount": 3.5, "currency": "USD", "text": "3.50 USD"}
            ])
        );
    }

    #[test]
    fn amounts_parse_in_both_conventions() {
        let amount = |text| parse_amount(text, Some("USD"), false);
        assert_eq!(amount("1,234.56"), Some(1234.56));
        assert_eq!(amount("1.234,56"), Some(1234.56));
        assert_eq!(amount("19,99"), Some(19.99));
        assert_eq!(amount("1,234"), Some(1234.0));
        assert_eq!(amount("1\u{a0}234 567"), Some(1_234_567.0));
        assert_eq!(amount("7"), Some(7.0));
    }

    #[test]
    fn dates_from_meta_time_and_text() {
        let contact = page(CONTACT, CONTACT_URL);
        assert_eq!(
            call(&contact, "extract.dates", json!({})),
            json!([
                {"date": "2024-11-05", "text": "2024-11-05"},
                {"date": "2025-03-03T18:00:00", "text": "3 March, 6pm"},
                {"date": "2025-03-14", "text": "March 14, 2025"},
                {"date": "2025-04-03", "text": "3rd Apr 2025"},
                {"date": "2025-05-04", "text": "04/05/2025"},
                {"date": "2025-06-13", "text": "13.06.2025"},
                {"date": "2025-01-20T08:15:00Z", "text": "2025-01-20T08:15:00Z"}
            ])
        );
        let shop = page(SHOP, SHOP_URL);
        assert_eq!(
            call(&shop, "extract.dates", json!({})),
            json!([{"date": "2025-03-03T09:30:00+01:00", "text": "2025-03-03T09:30:00+01:00"}])
        );
    }

    #[test]
    fn date_shapes_and_impossible_dates() {
        let us = true;
        assert_eq!(
            normalise_date("03/04/2025", us).as_deref(),
            Some("2025-03-04")
        );
        assert_eq!(
            normalise_date("03/04/2025", !us).as_deref(),
            Some("2025-04-03")
        );
        assert_eq!(
            normalise_date("25/12/2025", us).as_deref(),
            Some("2025-12-25")
        );
        assert_eq!(
            normalise_date("3 Mar 2025", us).as_deref(),
            Some("2025-03-03")
        );
        assert_eq!(
            normalise_date("Sept. 9, 2024", us).as_deref(),
            Some("2024-09-09")
        );
        assert_eq!(
            normalise_date("2024/9/9", us).as_deref(),
            Some("2024-09-09")
        );
        assert_eq!(
            normalise_date("2025-03-03T10:00:00.123+0530", us).as_deref(),
            Some("2025-03-03T10:00:00+05:30")
        );
        assert_eq!(normalise_date("2025-02-30", us), None);
        assert_eq!(normalise_date("2025-03-03T25:00", us).as_deref(), None);
        assert_eq!(normalise_date("03/04.2025", us), None);
        assert_eq!(normalise_date("March 3, 0999", us), None);
    }

    #[test]
    fn main_content_product_and_markdown_delegate() {
        let shop = page(SHOP, SHOP_URL);
        let content = call(&shop, "extract.main_content", json!({}));
        assert_eq!(
            content,
            serde_json::to_value(crate::read::content::main_content(&shop)).unwrap()
        );
        for key in [
            "title",
            "byline",
            "published_at",
            "lang",
            "excerpt",
            "site_name",
            "text",
            "markdown",
        ] {
            assert!(content.get(key).is_some(), "{key} missing");
        }
        let contact = page(CONTACT, CONTACT_URL);
        match crate::read::structured::product(&contact, false) {
            Some(product) => assert_eq!(call(&contact, "extract.product", json!({})), product),
            None => assert!(
                call_err(&contact, "extract.product", json!({}))
                    .starts_with("extract.product: the page shows no product")
            ),
        }
        let h2s: Vec<String> = shop
            .document
            .select(&scraper::Selector::parse("h2").unwrap())
            .map(|el| {
                crate::read::content::markdown_of(&shop, el)
                    .trim()
                    .to_owned()
            })
            .collect();
        assert_eq!(
            call(&shop, "extract.markdown", json!({"selector": "h2"})),
            Value::String(h2s.join("\n\n"))
        );
        assert_eq!(
            call_err(&shop, "extract.markdown", json!({"selector": "table"})),
            "extract.markdown: nothing matches `table`"
        );
        let (_, answer) = chain(
            &shop,
            &[
                ("html.select", json!({"selector": "h1"})),
                ("extract.markdown", json!({})),
            ],
        );
        let h1 = shop
            .document
            .select(&scraper::Selector::parse("h1").unwrap())
            .next()
            .unwrap();
        assert_eq!(
            answer,
            Value::String(
                crate::read::content::markdown_of(&shop, h1)
                    .trim()
                    .to_owned()
            )
        );
    }
}

#[test]
fn every_list_tags_each_row_with_its_list_under_a_key_the_page_does_not_use() {
    let rows = |header: &str| {
        let body: String = [
            ("Starter", "Home", 12),
            ("Family", "Home", 18),
            ("Pro", "Office", 24),
        ]
        .iter()
        .map(|(p, g, m)| format!("<tr><td>{p}</td><td>{g} plans</td><td>{m} months</td></tr>"))
        .collect();
        let cards: String = ["Fibre", "Cable", "Satellite", "Mobile"]
            .iter()
            .map(|k| {
                format!(
                    "<div class='card'><h3><a href='/k/{k}'>{k} broadband</a></h3>\
                     <p>What {k} lines are, where they reach and what they cost a month.</p></div>"
                )
            })
            .collect();
        let html = format!(
            "<html><body><main><div class='cards'>{cards}</div><table><thead><tr><th>Plan</th>\
             <th>{header}</th><th>Contract</th></tr></thead><tbody>{body}</tbody></table></main></body></html>"
        );
        let page = crate::tools::testkit::page(&html, "https://isp.example/");
        crate::tools::testkit::call(&page, "extract.records", json!({"lists": "all"}))
    };
    let plain = rows("Group");
    let plain = plain.as_array().unwrap();
    assert_eq!(plain.len(), 7, "{plain:?}");
    assert_eq!(plain[0]["list"], 1);
    assert_eq!(plain[6]["list"], 2);
    let clash = rows("List");
    assert_eq!(clash[6]["list_number"], 2, "{clash}");
    assert_eq!(clash[6]["list"], "Office plans");
}

#[test]
fn markdown_and_main_content_leave_out_the_elements_exclude_selects() {
    use crate::tools::testkit::{call, call_err};
    let page = Page::parse(
        url::Url::parse("https://example.com/a").unwrap(),
        "<html><body><article><h1>Tides</h1>\
         <p>The first paragraph of the article says enough words to be its text body here.</p>\
         <div class=promo><p>Subscribe to our newsletter for more stories like this one.</p></div>\
         <p>The second paragraph of the article also says enough words to be read as text.</p>\
         </article></body></html>",
    );
    let whole = call(&page, "extract.markdown", json!({}));
    assert!(whole.as_str().unwrap().contains("Subscribe"), "{whole}");
    let less = call(&page, "extract.markdown", json!({"exclude": ".promo"}));
    let less = less.as_str().unwrap();
    assert!(
        !less.contains("Subscribe") && less.contains("second paragraph"),
        "{less}"
    );
    let main = call(
        &page,
        "extract.main_content",
        json!({"exclude": ".promo, h1"}),
    );
    let text = main["markdown"].as_str().unwrap();
    assert!(
        !text.contains("Subscribe") && text.contains("first paragraph"),
        "{text}"
    );
    assert!(
        call_err(&page, "extract.main_content", json!({"exclude": "p[["})).contains("p[["),
        "a selector that is not CSS fails the call"
    );
}
