use super::*;

fn meta_of(html: &str, url: &str) -> Metadata {
    read(&Page::parse(url::Url::parse(url).unwrap(), html))
}

#[test]
fn the_printed_date_beats_a_declared_one_and_durations_are_not_dates() {
    let m = meta_of(
        r#"<html><head><script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2019-01-02","dateModified":"2025-03-01","timeRequired":"PT7M"}</script></head>
        <body><article><h1>Ten ways to cook rice well</h1><p class="date">Updated March 1, 2025</p><p>Body text of the article that goes on.</p></article></body></html>"#,
        "https://news.example/rice",
    );
    assert_eq!(m.published(), Some("2025-03-01"));
    assert_eq!(m.modified(), Some("2025-03-01"));
    let m = meta_of(
        r#"<html><head><meta property="article:published_time" content="PT7M"><meta name="date" content="2023 Jan 7"></head><body><p>x</p></body></html>"#,
        "https://news.example/2020/05/31/story",
    );
    assert_eq!(m.published(), Some("2023-01-07"));
    let m = meta_of(
        "<html><body><p>x</p></body></html>",
        "https://news.example/2020/05/31/story",
    );
    assert_eq!(m.published(), Some("2020-05-31"));
}

#[test]
fn the_cms_publication_tag_beats_a_printed_update() {
    let page = |head: &str| {
        format!(
            r#"<html><head>{head}</head><body><article><h1>Ten ways to cook rice well</h1>
            <p>By Ann Lee · Updated March 1, 2025</p><p>Body text of the article.</p></article></body></html>"#
        )
    };
    let m = meta_of(
        &page(
            r#"<meta property="article:published_time" content="2019-01-02T08:00:00+00:00"><meta property="article:modified_time" content="2025-03-01T08:00:00+00:00">"#,
        ),
        "https://news.example/rice",
    );
    assert_eq!(m.published(), Some("2019-01-02T08:00:00+00:00"));
    let m = meta_of(
        &page(
            r#"<script type="application/ld+json">{"@type":"BlogPosting","datePublished":"2019-01-02"}</script>"#,
        ),
        "https://news.example/rice",
    );
    assert_eq!(m.published(), Some("2025-03-01"));
    let m = meta_of(
        r#"<html><head><meta property="article:modified_time" content="2025-03-01T08:00:00+00:00"></head><body><p>x</p></body></html>"#,
        "https://news.example/rice",
    );
    assert_eq!(m.published(), Some("2025-03-01T08:00:00+00:00"));
}

#[test]
fn a_button_in_the_headline_is_not_part_of_the_title() {
    let m = meta_of(
        r#"<html><head><title>Module runtime - Docs</title></head><body><main><h1>Module <span>runtime</span>&nbsp;<button id="copy-path">Copy item path</button><svg><title>copy</title></svg></h1><p>The runtime.</p></main></body></html>"#,
        "https://docs.example/runtime",
    );
    assert_eq!(m.title_text(), Some("Module runtime"));
}

#[test]
fn an_ambiguous_printed_date_is_read_the_way_the_page_declares_it() {
    let m = meta_of(
        r#"<html lang="en"><head><script type="application/ld+json">{"@type":"BlogPosting","datePublished":"2024-09-10T16:07:00Z"}</script></head>
        <body><article><h1>Ten ways to cook rice well</h1><p class="post-date">09.10.2024</p><p>Body text.</p></article></body></html>"#,
        "https://news.example/rice",
    );
    assert_eq!(m.published(), Some("2024-09-10T16:07:00Z"));
    let m = meta_of(
        r#"<html lang="en"><body><article><h1>Ten ways to cook rice well</h1><p class="post-date">03/10/2023</p><p>Body text.</p></article></body></html>"#,
        "https://news.example/blog/2023/october/03/rice",
    );
    assert_eq!(m.published(), Some("2023-10-03"));
    // Without another source, the page's language decides.
    let m = meta_of(
        r#"<html lang="en"><body><article><h1>Ten ways to cook rice well</h1><p class="post-date">03/10/2023</p><p>Body text.</p></article></body></html>"#,
        "https://news.example/blog/rice",
    );
    assert_eq!(m.published(), Some("2023-03-10"));
    // A sidebar's ISO `<time>` on a link to this article witnesses the day-first reading,
    // also of a `<time>` whose `datetime` is not ISO.
    let m = meta_of(
        r#"<html lang="en"><body><article><h1>Ten ways to cook rice well</h1><time datetime="02-12-2025">02-12-2025</time><p>Body text.</p></article>
        <div class="recent"><a href="/rice">Ten ways to cook rice well</a><time datetime="2025-12-02">December 02, 2025</time>
        <a href="/beans">Beans</a><time datetime="2024-06-03">June 03, 2024</time></div></body></html>"#,
        "https://news.example/blog/rice",
    );
    assert_eq!(m.published(), Some("2025-12-02"));
}

#[test]
fn labelled_dates_in_the_shapes_pages_print_them() {
    // "Publish date", and a date written with dots year first.
    let m = meta_of(
        r#"<html><body><h1>Small business guide</h1><p>How to improve your security.</p>
        <div><h4>Published</h4><h3 class="sr-only">Publish date</h3><time datetime="2018-11-15T12:00:00Z">15 November 2018</time></div>
        <ul class="related"><li><h3 class="sr-only">Publish date</h3><time datetime="2019-01-17T12:00:00Z">17 Jan 2019</time></li></ul></body></html>"#,
        "https://gov.example/guide",
    );
    assert_eq!(m.published(), Some("2018-11-15"));
    let m = meta_of(
        r#"<html><body><h1>How small languages die</h1><p><span>Essay - Published: 2025.12.17 | </span><a href="/tags/ai">AI</a></p></body></html>"#,
        "https://blog.example/essay",
    );
    assert_eq!(m.published(), Some("2025-12-17"));
}

#[test]
fn the_byline_that_ends_an_article_names_and_dates_it() {
    let body = "<p>A paragraph of the article that goes on for a while.</p>".repeat(120);
    let m = meta_of(
        &format!(
            r#"<html><body><article><h1>How are apps created?</h1>{body}
            <p><em>The article was originally published in April 2020.</em></p>
            <div><p>Written by <a href="/blog/author/moses-kim">Moses Kim and Kate Shokurova</a></p><p>April 8, 2024</p></div></article></body></html>"#
        ),
        "https://studio.example/blog/how-are-apps-created",
    );
    assert_eq!(m.published(), Some("2024-04-08"));
    assert_eq!(m.author_names(), ["Moses Kim", "Kate Shokurova"]);
}

#[test]
fn a_declared_date_that_the_pages_time_element_gives_beats_another_printed_one() {
    let page = |time: &str| {
        format!(
            r#"<html><head><script type="application/ld+json">{{"@type":"BlogPosting","datePublished":"2009-05-02T00:01:21Z"}}</script></head>
            <body><div id="question"><h1>Why is RAID not a backup?</h1>{time}<p>Asked by Ann.</p>
            <p>Viewed 30k times. Related: Aug 1, 2014</p></div></body></html>"#
        )
    };
    let m = meta_of(
        &page(r#"<time datetime="2009-05-02T00:01:21Z">16 years ago</time>"#),
        "https://qa.example/q/2888",
    );
    assert_eq!(m.published(), Some("2009-05-02T00:01:21Z"));
    let m = meta_of(&page(""), "https://qa.example/q/2888");
    assert_eq!(m.published(), Some("2014-08-01"));
}

#[test]
fn the_day_is_the_one_the_page_writes_for_the_declared_moment() {
    let page = |time: &str| {
        format!(
            r#"<html><head><meta property="article:published_time" content="2025-12-19T03:05:00+00:00"></head>
            <body><article><h1>Ten ways to cook rice well</h1>{time}<p>Body text.</p></article></body></html>"#
        )
    };
    let published = |time: &str| {
        meta_of(
            &page(&format!(
                r#"<time datetime="{time}">December 18, 2025</time>"#
            )),
            "https://news.example/rice",
        )
        .published_at
        .map(|d| d.value)
    };
    assert_eq!(
        published("2025-12-18T19:05:00-08:00").as_deref(),
        Some("2025-12-18T19:05:00-08:00")
    );
    // Another moment on the day before is another date: the CMS's tag stays.
    assert_eq!(
        published("2025-12-18T11:00:00-08:00").as_deref(),
        Some("2025-12-19T03:05:00+00:00")
    );
}

#[test]
fn a_date_in_the_first_sentences_is_not_the_byline_date() {
    let m = meta_of(
        r#"<html><body><main><div class="meta"><span>Dec 17, 2025</span><span>Ann Lee</span></div>
        <h1>Attested builds</h1><figure><p>Signing of the Peace Protocol Between Spain and the United States, August 12, 1898, by Theobald Chartran. Signing a document, either as a witness or a party, is an old way of saying that you stand behind it.</p></figure>
        <p>Body text.</p></main></body></html>"#,
        "https://blog.example/attested",
    );
    assert_eq!(m.published(), Some("2025-12-17"));
}

#[test]
fn a_last_updated_line_dates_a_page_that_shows_no_other_date() {
    let m = meta_of(
        r#"<html><body><main><h1>Webcams</h1><p>See the valley live from five cameras.</p></main>
        <div><p style="text-align:right;">Last updated: November 13, 2025</p></div></body></html>"#,
        "https://parks.example/webcams.htm",
    );
    assert_eq!(m.published(), Some("2025-11-13"));
}

#[test]
fn json_ld_text_is_read_without_its_html_escapes() {
    let m = meta_of(
        r#"<html><head><script type="application/ld+json">{"@type":"Article","headline":"Tips &amp; tricks","author":{"@type":"Person","name":"Maria &amp; Katerina"}}</script></head><body></body></html>"#,
        "https://travel.example/post",
    );
    assert_eq!(m.title_text(), Some("Tips & tricks"));
    assert_eq!(m.author_names(), ["Maria", "Katerina"]);
}

#[test]
fn authors_are_people_not_the_site() {
    let m = meta_of(
        r#"<html><head><meta property="og:site_name" content="Codiant WP"><meta name="author" content="Codiant WP"></head>
        <body><article><h1>How we ship software every week</h1><p class="byline">By Ann Lee and Bo Chen</p><p>Body.</p></article></body></html>"#,
        "https://codiant.example/post",
    );
    assert_eq!(m.author_names(), ["Ann Lee", "Bo Chen"]);
    assert_eq!(m.byline().as_deref(), Some("Ann Lee and Bo Chen"));
    let m = meta_of(
        r#"<html><head><script type="application/ld+json">{"@type":"Article","author":[{"@type":"Organization","name":"Acme"},{"@type":"Person","name":"By Cy Diaz"}]}</script></head><body></body></html>"#,
        "https://acme.example/post",
    );
    assert_eq!(m.author_names(), ["Cy Diaz"]);
}

#[test]
fn authors_from_a_card_a_label_or_an_author_photo() {
    let card = meta_of(
        r#"<html><head><meta name="twitter:label1" content="Written by"><meta name="twitter:data1" content="Nia Cole"></head><body></body></html>"#,
        "https://blog.example/post",
    );
    assert_eq!(card.author_names(), ["Nia Cole"]);
    let label = meta_of(
        r#"<html><body><div><p>Written by</p><p>Edo Tabb</p></div></body></html>"#,
        "https://blog.example/post",
    );
    assert_eq!(label.author_names(), ["Edo Tabb"]);
    let photo = meta_of(
        r#"<html><body><div class="post-author"><figure><img src="a.jpg" alt="Chris Winter, Staff Writer"></figure></div><p>Text.</p></body></html>"#,
        "https://blog.example/post",
    );
    assert_eq!(photo.author_names(), ["Chris Winter"]);
    let described = meta_of(
        r#"<html><body><p>Text.</p><div class="author-box"><img src="a.jpg" alt="Picture of Liz Kenny with a lake behind her"></div></body></html>"#,
        "https://blog.example/post",
    );
    assert_eq!(described.author_names(), ["Liz Kenny"]);
}

#[test]
fn an_author_box_at_the_end_names_the_author() {
    let m = meta_of(
        r#"<html><body><main><h1>Pros and cons of consulting</h1><p>Consulting is a career many weigh for years before they start.</p>
        <div class="elementor-author-box"><div class="elementor-author-box__text"><h4 class="elementor-author-box__name"> Liz Kenny </h4>
        <div class="elementor-author-box__bio"><p>Former consultant.</p></div></div></div></main></body></html>"#,
        "https://consulting.example/pros-and-cons",
    );
    assert_eq!(m.author_names(), ["Liz Kenny"]);
}

#[test]
fn a_forum_thread_is_by_its_first_poster_and_handles_are_names() {
    let m = meta_of(
        r#"<html><body><h1>Which kettle?</h1>
        <ul class="p-description"><li><span>Thread starter</span> <a href="/members/ridwan123.29/" class="username u-concealed">ridwan123</a></li></ul>
        <article class="message"><p>Which kettle should I buy for pour-over coffee at home?</p></article>
        <article class="message"><p class="byline">By Lutfij</p><a class="username" href="/members/lutfij.7/">Lutfij</a><p>This one.</p></article>
        </body></html>"#,
        "https://forum.example/threads/kettle.1/",
    );
    assert_eq!(m.author_names(), ["ridwan123"]);
}

#[test]
fn a_thread_without_a_headline_is_dated_by_its_first_post() {
    let m = meta_of(
        r#"<html><body><aside><span class="date">Jan 1, 2020</span></aside>
        <h2>SMF vs MyBB?</h2>
        <div class="post"><p class="author">by <strong><a href="/u/1">Outer Armatonis</a></strong> &raquo; Tue Aug 27, 2019 1:47 am</p>
        <div class="content">Which one should I pick for a small forum?</div></div>
        <div class="post"><span class="post_date">2019-08-28, 09:14 PM</span><div class="content">MyBB.</div></div>
        </body></html>"#,
        "https://forum.example/viewtopic.php?t=1",
    );
    assert_eq!(m.published(), Some("2019-08-27"));
}

#[test]
fn a_personal_site_is_written_by_its_owner() {
    let named = meta_of(
        r#"<html><head><title>Go ahead, self-host Postgres | Pierce Freeman</title></head>
        <body><a href="/">Pierce Freeman</a><h1>Go ahead, self-host Postgres</h1><p>Text.</p></body></html>"#,
        "https://pierce.dev/notes/postgres",
    );
    assert_eq!(named.author_names(), ["Pierce Freeman"]);
    let blog = meta_of(
        r#"<html><head><meta property="og:site_name" content="Colin Watson's blog"></head>
        <body><h1>Preparing a transition</h1><p>Text.</p></body></html>"#,
        "https://www.chiark.example/~cjwatson/blog/transition.html",
    );
    assert_eq!(blog.author_names(), ["Colin Watson"]);
    // A site named like a person at another address is not a person's site, nor is one
    // named after its address whose page is not a post (a shop, a firm).
    let firm = meta_of(
        r#"<html><head><title>Contact us | Harbour Books</title></head>
        <body><h1>Contact Harbour Books</h1><p>Text.</p></body></html>"#,
        "https://harbourbooks.example/contact",
    );
    assert!(firm.author_names().is_empty(), "{:?}", firm.author_names());
    let shop = meta_of(
        r#"<html><head><title>Ten kettles | Ocean Facts</title></head>
        <body><h1>Ten kettles</h1><p>Text.</p></body></html>"#,
        "https://kettles.example/ten",
    );
    assert!(shop.author_names().is_empty(), "{:?}", shop.author_names());
}

#[test]
fn a_section_heading_in_h1_gives_way_to_the_declared_title() {
    let m = meta_of(
        r#"<html><head><title>Why the sea is salty | Ocean Facts</title><meta property="og:title" content="Why the sea is salty"></head>
        <body><h1>Ocean Facts</h1><p>x</p></body></html>"#,
        "https://ocean.example/salty",
    );
    assert_eq!(m.title_text(), Some("Why the sea is salty"));
    let m = meta_of(
        r#"<html><head><title>Why the sea is salty - Ocean Facts</title></head><body><h1>Why is the sea salty?</h1></body></html>"#,
        "https://ocean.example/salty",
    );
    assert_eq!(m.title_text(), Some("Why is the sea salty?"));
}

#[test]
fn rule_names_are_unique_snake_case_within_each_fact() {
    let tables: [Vec<&str>; 5] = [
        title::RULES.iter().map(|(name, _)| *name).collect(),
        authors::RULES.iter().map(|(name, _)| *name).collect(),
        dates::DECLARED_RULES
            .iter()
            .map(|(name, _)| *name)
            .collect(),
        dates::PUBLISHED_RULES
            .iter()
            .map(|(name, _)| *name)
            .collect(),
        dates::MODIFIED_RULES
            .iter()
            .map(|(name, _)| *name)
            .collect(),
    ];
    for names in tables {
        for (i, name) in names.iter().enumerate() {
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{name}"
            );
            assert!(!names[..i].contains(name), "{name} twice");
        }
    }
}
