//! Tests over real fixture pages and hostile inputs.

#![allow(clippy::unwrap_used)]

use super::*;

fn page(url: &str, html: &str) -> Page {
    Page::parse(url::Url::parse(url).unwrap(), html)
}

#[test]
fn real_article_metadata_and_text() {
    let p = page(
        "https://about.gitlab.com/blog/2024/06/25/3-surprising-findings/",
        include_str!("../../../tests/fixtures/content/gitlab-blog.html"),
    );
    let c = main_content(&p);
    assert_eq!(
        c.title.as_deref(),
        Some("3 surprising findings from our 2024 Global DevSecOps Survey")
    );
    assert_eq!(c.byline.as_deref(), Some("Dave Steer"));
    assert_eq!(c.published_at.as_deref(), Some("2024-06-25"));
    assert_eq!(c.lang.as_deref(), Some("en-us"));
    assert_eq!(c.site_name.as_deref(), Some("GitLab"));
    assert!(
        c.text.starts_with(
            "This year’s survey of more than 5,000 DevSecOps professionals worldwide suggests"
        ),
        "{}",
        &c.text[..200.min(c.text.len())]
    );
    assert!(
        c.text
            .contains("1. AI shines a light on cumbersome toolchains")
    );
    assert!(
        c.markdown
            .contains("## 1. AI shines a light on cumbersome toolchains")
    );
}

#[test]
fn boilerplate_is_left_out() {
    let html = r#"<html lang="en"><head><title>A long enough story title | Site</title></head><body>
        <header><a href="/">Home</a> <a href="/about">About</a></header>
        <nav><ul><li><a href="/a">Section A</a></li></ul></nav>
        <div class="layout"><div class="sidebar">Popular posts here</div>
        <article><h1>Story</h1><p>First paragraph of the story, long enough to count as prose.</p>
        <div class="share-buttons">Share on Facebook</div>
        <p>Second paragraph with a <a href="/more">link</a> and <b>bold</b> text.</p>
        <img src="/pic.jpg" alt="A picture"></article></div>
        <footer>Copyright</footer></body></html>"#;
    let c = main_content(&page("https://example.com/news/1", html));
    assert_eq!(
        c.text,
        "First paragraph of the story, long enough to count as prose.\nSecond paragraph with a link and bold text."
    );
    assert_eq!(
        c.markdown,
        "# Story\n\nFirst paragraph of the story, long enough to count as prose.\n\nSecond paragraph with a [link](https://example.com/more) and **bold** text.\n\n![A picture](https://example.com/pic.jpg)"
    );
    // The visible headline, which the declared title agrees with.
    assert_eq!(c.title.as_deref(), Some("Story"));
    assert_eq!(c.lang.as_deref(), Some("en"));
}

#[test]
fn markdown_of_a_selection() {
    let html = r#"<div id="x"><h2>Steps</h2><ol><li>One</li><li>Two <code>a*b</code></li></ol>
        <table><tr><th>k</th><th>v</th></tr><tr><td>a|b</td><td>2</td></tr></table>
        <pre>let x = 1;
let y = 2;</pre><blockquote><p>Quoted</p></blockquote></div>"#;
    let p = page("https://example.com/", html);
    let el = p
        .document
        .select(&crate::page::dom::selector_static("#x"))
        .next()
        .unwrap();
    assert_eq!(
        markdown_of(&p, el),
        "## Steps\n\n1. One\n\n2. Two `a*b`\n\n| k | v |\n| --- | --- |\n| a\\|b | 2 |\n\n```\nlet x = 1;\nlet y = 2;\n```\n\n> Quoted"
    );
}

#[test]
fn hostile_inputs_do_not_panic_and_stay_bounded() {
    // Deep but within the parser guard (tools::nesting::MAX_DEPTH): the text is still found.
    let deep = "<div>".repeat(1_000) + "deep text" + &"</div>".repeat(1_000);
    let c = main_content(&page("https://example.com/", &deep));
    assert!(c.text.contains("deep text"));
    // Deeper than the guard: cut before parsing, and still no panic.
    let deeper = "<div>".repeat(5_000) + "deep text" + &"</div>".repeat(5_000);
    let c = main_content(&page("https://example.com/", &deeper));
    assert!(!c.text.contains("deep text"));
    let wide = "<p>word </p>".repeat(100_000);
    let c = main_content(&page("https://example.com/", &wide));
    assert!(c.text.chars().count() <= MAX_CHARS);
    assert!(c.markdown.chars().count() <= MAX_CHARS);
    for html in [
        "",
        "<",
        "<html><body></body></html>",
        "\u{0}\u{feff}<p>x",
        "<table><tr><td>",
    ] {
        let _ = main_content(&page("https://example.com/", html));
    }
}

#[test]
fn product_keeps_collapsed_accordion_panels() {
    // The description sits in a closed accordion: hidden until the reader opens it.
    let html = r#"<html><body><main>
        <h1>Trail pack</h1><p>A light pack for day hikes with pockets for everything you carry.</p>
        <div class="accordion">
          <button type="button" aria-expanded="false" aria-controls="p1">Description</button>
          <div style="display:none"><div role="region" id="p1">Ripstop nylon body with a water repellent finish.</div></div>
          <button type="button" aria-expanded="false" aria-controls="p2">Specs</button>
          <div id="p2" class="tab-pane" hidden><table><tr><td>Weight</td><td>1 lb</td></tr></table></div>
        </div>
        <button type="button">Add to cart</button>
        <div style="display:none">Your cart is empty</div>
        </main></body></html>"#;
    let c = main_content(&page("https://example.com/p/1", html));
    assert_eq!(
        c.text,
        "A light pack for day hikes with pockets for everything you carry.\nDescription\nRipstop nylon body with a water repellent finish.\nSpecs\nWeight | 1 lb"
    );
}

#[test]
fn comments_under_a_post_are_left_out_but_a_thread_of_comments_is_kept() {
    let post = "The question in full, with enough words to be the post that the comments answer. "
        .repeat(6);
    let reply = "A long reply that goes on about the question at some length and then some more. ";
    let comments = format!(
        r#"<div class="comments js-comments-container"><ul class="comments-list">
        <li class="comment">{}</li><li class="comment">{}</li></ul>
        <a href="/c">Add a comment</a></div>"#,
        reply.repeat(8),
        reply.repeat(9)
    );
    let with_post = format!(
        r#"<html><body><main><div class="question"><h1>How do I start?</h1>
        <div class="post">{post}</div>{comments}</div></main></body></html>"#
    );
    let c = main_content(&page("https://example.com/q/1", &with_post));
    assert!(c.text.starts_with("The question in full"), "{}", c.text);
    assert!(!c.text.contains("A long reply"), "{}", c.text);

    // A thread laid out as one "comments" block, with only a title beside it, is the content.
    let thread_only = format!(
        r#"<html><body><main><h1>How do I start?</h1>{comments}</main>
        <div class="sidebar-widget">{post}</div></body></html>"#
    );
    let c = main_content(&page("https://example.com/q/2", &thread_only));
    assert!(c.text.contains("A long reply"), "{}", c.text);
}

#[test]
fn the_body_leaves_out_headline_byline_dates_and_story_lists() {
    let body = "<p>The council voted on Tuesday to rebuild the harbour wall before the winter storms, after two years of delays and three rejected plans.</p>".repeat(4);
    let html = format!(
        r#"<html><head><title>Harbour wall to be rebuilt | Coast News</title></head><body>
        <nav><a href="/">Home</a></nav>
        <article>
          <h1>Harbour wall to be rebuilt</h1>
          <p class="byline">By Ann Lee and Bo Chen</p>
          <div class="post-meta"><time datetime="2025-03-04">March 4, 2025</time></div>
          <p>Updated March 5, 2025</p>
          <span>4 min read</span>
          {body}
          <h2>Related stories</h2>
          <ul><li><a href="/a">Storm damage costs rise</a></li><li><a href="/b">Ferry timetable changes</a></li></ul>
          <h2>What happens next</h2>
          <p>Work starts in May and should end by October, the council said in a statement on its website.</p>
        </article></body></html>"#
    );
    let c = main_content(&page("https://news.example/harbour", &html));
    assert!(c.text.starts_with("The council voted"), "{}", c.text);
    for furniture in [
        "Harbour wall to be rebuilt",
        "Ann Lee",
        "March 4",
        "Updated",
        "min read",
        "Related",
        "Storm damage",
    ] {
        assert!(!c.text.contains(furniture), "{furniture} in {}", c.text);
    }
    // The article's own section heading stays.
    assert!(
        c.text.contains("What happens next\nWork starts in May"),
        "{}",
        c.text
    );
    assert!(
        c.markdown
            .starts_with("# Harbour wall to be rebuilt\n\nThe council voted"),
        "{}",
        c.markdown
    );
    assert_eq!(c.title.as_deref(), Some("Harbour wall to be rebuilt"));
    assert_eq!(c.byline.as_deref(), Some("Ann Lee and Bo Chen"));
    assert_eq!(c.published_at.as_deref(), Some("2025-03-04"));
}

/// A paragraph long enough to be an article's prose.
fn prose(topic: &str) -> String {
    format!(
        "<p>The {topic} report says the harbour will be rebuilt before the winter storms, after two years of delays and three rejected plans.</p>"
    )
    .repeat(4)
}

#[test]
fn plain_text_leaves_out_photo_captions_but_keeps_code_captions() {
    let html = format!(
        r#"<html><body><article><h1>Harbour plans</h1>{}
        <figure><img src="/wall.jpg" alt="The wall"><figcaption>The old wall in March. Credit: Ann Lee</figcaption></figure>
        <figure><pre>make build</pre><figcaption>Listing 1: the build command</figcaption></figure>
        </article></body></html>"#,
        prose("council")
    );
    let c = main_content(&page("https://news.example/harbour", &html));
    assert!(!c.text.contains("Credit: Ann Lee"), "{}", c.text);
    assert!(
        c.text.contains("Listing 1: the build command"),
        "{}",
        c.text
    );
    // Markdown shows the photo, and its caption with it.
    assert!(
        c.markdown
            .contains("The old wall in March. Credit: Ann Lee"),
        "{}",
        c.markdown
    );
}

#[test]
fn sign_up_forms_and_author_boxes_are_left_out_but_order_forms_stay() {
    let html = format!(
        r#"<html><body><article><h1>Harbour plans</h1>{}
        <form action="/subscribe"><label>First Name</label><input type="text" name="first">
        <label>Email</label><input type="email" name="email"><button>Sign up</button></form>
        <div class="author-bio"><img src="/ann.jpg" alt=""><p>Ann Lee covers the coast for the paper.</p></div>
        </article></body></html>"#,
        prose("council")
    );
    let c = main_content(&page("https://news.example/harbour", &html));
    assert!(c.text.starts_with("The council report"), "{}", c.text);
    assert!(!c.text.contains("First Name"), "{}", c.text);
    assert!(!c.text.contains("covers the coast"), "{}", c.text);

    // A shop's form holds the product's options; a gift message field does not make it a
    // sign-up form.
    let shop = format!(
        r#"<html><body><main><h1>Belt buckle</h1>{}
        <form class="variations_form"><label>Colour</label>
        <input type="radio" name="colour" value="blue"><span>Blue Topaz</span>
        <label>Gift message</label><input type="text" name="gift"><button>Add to cart</button></form>
        </main></body></html>"#,
        prose("buckle")
    );
    let c = main_content(&page("https://shop.example/buckle", &shop));
    assert!(c.text.contains("Blue Topaz"), "{}", c.text);
}

#[test]
fn author_lines_of_a_list_of_items_are_not_author_boxes() {
    let items: String = (1..=4)
        .map(|i| {
            format!(
                r#"<div class="paper"><h3>Paper {i} on rebuilding harbour walls before the storms</h3>
                <p class="paper-author-info">Ann Lee{i}, Bo Chen{i}, Cy Diaz{i}</p>
                <p>An abstract of paper {i}, long enough to be read as the prose of the page itself, on walls, storms, tides and the councils that pay for them.</p></div>"#
            )
        })
        .collect();
    let html = format!("<html><body><main>{items}</main></body></html>");
    let c = main_content(&page("https://lab.example/papers", &html));
    assert!(c.text.contains("Ann Lee3, Bo Chen3"), "{}", c.text);
}

#[test]
fn an_article_descends_to_its_text_past_a_note_beside_it() {
    // The text holds 5/6 of the prose: between the share any page descends at and the lower
    // one of a page that declares itself an article.
    let para = |word: &str| format!("<p>{}</p>", format!("{word} ").repeat(20));
    let body: String = ["alpha", "bravo", "delta", "gamma", "kappa"]
        .iter()
        .map(|w| para(w))
        .collect();
    let html = |head: &str| {
        format!(
            r#"<html><head>{head}</head><body><h1>Notes</h1><main><div class="text">{body}</div>
            <div class="partner">{}</div></main></body></html>"#,
            para("sigma")
        )
    };
    let article = main_content(&page(
        "https://blog.example/notes",
        &html(r#"<meta property="og:type" content="article">"#),
    ));
    assert!(article.text.starts_with("alpha"), "{}", article.text);
    assert!(!article.text.contains("sigma"), "{}", article.text);
    let other = main_content(&page("https://blog.example/notes", &html("")));
    assert!(other.text.contains("sigma"), "{}", other.text);
}

#[test]
fn the_fitted_block_table_names_known_features() {
    let table: serde_json::Value = serde_json::from_str(include_str!("blocks.json")).unwrap();
    let names = table["features"].as_array().unwrap();
    for key in ["mean", "sd", "weights"] {
        assert_eq!(table[key].as_array().unwrap().len(), names.len(), "{key}");
    }
    for name in names {
        let name = name.as_str().unwrap();
        assert!(
            Feature::ALL.iter().any(|f| f.name() == name),
            "the table names {name}, which blocks.rs does not compute"
        );
    }
    let threshold = table["threshold"].as_f64().unwrap();
    assert!((0.0..1.0).contains(&threshold));
}

#[test]
fn evidence_names_the_winning_container_and_the_runner_up() {
    let prose = "A sentence of the story that goes on long enough to be prose. ".repeat(12);
    let aside = "A note beside the story, shorter than the story itself. ".repeat(3);
    let html = format!(
        r#"<html><body><div class="layout"><div class="story"><p>{prose}</p><p>{prose}</p></div>
        <div class="notes"><p>{aside}</p></div></div></body></html>"#
    );
    let c = main_content(&page("https://news.example/story", &html));
    assert_eq!(c.evidence.container, "div.story");
    assert!(c.evidence.score > 1000, "{:?}", c.evidence);
    let runner_up = c.evidence.runner_up.as_ref().unwrap();
    assert_eq!(runner_up.container, "div.notes");
    assert!(runner_up.score < c.evidence.score);
    // The story is prose: its blocks were scored.
    assert_eq!(c.evidence.blocks_scored, 2);
}

#[test]
fn quotes_lists_tables_code_and_headings_of_the_text_stay() {
    let prose = |topic: &str| {
        format!(
            "<p>{}</p>",
            format!("The {topic} is described here in a full sentence of the article. ").repeat(4)
        )
    };
    let html = format!(
        r#"<html><head><meta property="og:type" content="article"></head><body><article>
        {}<h2>How the harbour wall was built</h2>{}
        <blockquote><p>We built it twice, and the second time it held.</p></blockquote>{}
        <ul><li>Granite from the north quarry</li><li>Lime mortar, mixed on site</li></ul>{}
        <table><tr><th>Year</th><th>Storms</th></tr><tr><td>1987</td><td>4</td></tr></table>{}
        <pre><code>wall.height = 12</code></pre>{}</article></body></html>"#,
        prose("harbour"),
        prose("wall"),
        prose("quarry"),
        prose("mortar"),
        prose("storm"),
        prose("height"),
    );
    let c = main_content(&page("https://news.example/harbour", &html));
    for kept in [
        "How the harbour wall was built",
        "We built it twice, and the second time it held.",
        "Granite from the north quarry",
        "Lime mortar, mixed on site",
        "1987 | 4",
        "wall.height = 12",
    ] {
        assert!(c.text.contains(kept), "{kept} missing from {}", c.text);
    }
    assert!(c.evidence.blocks_dropped.is_empty(), "{:?}", c.evidence);
}

#[test]
fn block_features_measure_what_they_name() {
    let prose = "A sentence of the story that goes on long enough to be prose. ".repeat(4);
    let html = format!(
        r#"<html><body><article><p>{prose}</p><p>{prose}</p>
        <ul class="story-teasers"><li>Another Story Title Worth Reading</li></ul>
        <p>Share this story with a <a href="/send">friend</a></p></article></body></html>"#
    );
    let p = page("https://news.example/story", &html);
    let samples = block_samples(&p);
    let feature = |text: &str, f: Feature| {
        let at = Feature::ALL.iter().position(|x| *x == f).unwrap();
        samples
            .iter()
            .find(|s| s.text.contains(text))
            .unwrap_or_else(|| panic!("no block {text}: {samples:?}"))
            .features[at]
    };
    assert_eq!(feature("Another Story", Feature::LinkShare), 0.0);
    assert!(feature("Share this", Feature::LinkShare) > 0.2);
    assert_eq!(feature("Another Story", Feature::ListItem), 1.0);
    assert_eq!(feature("Another Story", Feature::RelatedWord), 1.0);
    assert_eq!(feature("Another Story", Feature::CapitalizedShare), 1.0);
    assert_eq!(feature("Another Story", Feature::AfterBody), 1.0);
    assert_eq!(feature("Share this", Feature::FurniturePhrase), 1.0);
    assert_eq!(feature("Share this", Feature::EndsSentence), 0.0);
    assert_eq!(feature("A sentence", Feature::Paragraph), 1.0);
    assert_eq!(feature("A sentence", Feature::EndsSentence), 1.0);
    assert_eq!(feature("A sentence", Feature::RelatedWord), 0.0);
    assert_eq!(feature("A sentence", Feature::AfterBody), 0.0);
}
