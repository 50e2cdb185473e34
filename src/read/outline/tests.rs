//! Unit tests of the outline: which blocks are the items, which parts are their fields.

use super::*;

const PAGE: &str = r#"<html lang="en"><head><title>Example News</title></head><body>
  <nav><ul><li><a href="/">Home</a></li><li><a href="/new">New</a></li><li><a href="/ask">Ask</a></li><li><a href="/jobs">Jobs</a></li></ul></nav>
  <main><div id="stories">
    <article class="story"><h2><a href="/s/1">A first story about Rust</a></h2><span class="points">120 points</span><time datetime="2026-01-01">Jan 1</time></article>
    <article class="story"><h2><a href="/s/2">Second story on parsing HTML</a></h2><span class="points">99 points</span><time datetime="2026-01-02">Jan 2</time></article>
    <article class="story"><h2><a href="/s/3">Third story, about servers</a></h2><span class="points">7 points</span><time datetime="2026-01-03">Jan 3</time></article>
  </div></main>
  <footer><ul><li><a href="/a">About</a></li><li><a href="/b">Blog</a></li><li><a href="/c">Contact</a></li></ul></footer>
</body></html>"#;

#[test]
fn content_block_ranks_above_navigation_and_has_fields() {
    let page = Page::parse(url::Url::parse("https://news.example/").unwrap(), PAGE);
    let outline = outline(&page);
    assert_eq!(outline.title.as_deref(), Some("Example News"));
    let best = &outline.blocks[0];
    assert_eq!(best.selector, "div#stories > article.story");
    assert_eq!(best.count, 3);
    let role = |r: FieldRole| {
        best.fields
            .iter()
            .find(|f| f.role == r)
            .map(|f| f.spec.clone())
    };
    assert_eq!(role(FieldRole::Title).as_deref(), Some("h2"));
    assert_eq!(role(FieldRole::Url).as_deref(), Some("h2 a[href]@href"));
    assert_eq!(role(FieldRole::Score).as_deref(), Some("span.points"));
    assert_eq!(role(FieldRole::Date).as_deref(), Some("time@datetime"));
    assert!(
        outline
            .blocks
            .iter()
            .filter(|b| b.in_chrome)
            .all(|b| b.score < best.score)
    );
}

#[test]
fn cards_rank_above_their_tags_and_above_the_sections_holding_them() {
    let card = |n: usize| {
        format!(
            r#"<article class="repo"><h3><a href="/r/{n}">Repository number {n} does useful things</a></h3>
            <p class="desc">A longer description of repository {n}, with enough words to read as an entry.</p>
            <div class="tags"><a class="tag" href="/t/a{n}">rust</a><a class="tag" href="/t/b{n}">http</a><a class="tag" href="/t/c{n}">sse</a><a class="tag" href="/t/d{n}">agents</a></div></article>"#
        )
    };
    let section = |name: &str, from: usize| {
        format!(
            r#"<section class="group"><h2>{name}</h2><div class="list">{}{}{}</div></section>"#,
            card(from),
            card(from + 1),
            card(from + 2)
        )
    };
    let html = format!(
        "<html><body><main>{}{}{}</main></body></html>",
        section("Today", 1),
        section("Yesterday", 4),
        section("Earlier", 7)
    );
    let page = Page::parse(url::Url::parse("https://code.example/").unwrap(), &html);
    let outline = outline(&page);
    let best = &outline.blocks[0];
    assert_eq!(
        best.selector, "div.list > article.repo",
        "{:#?}",
        outline.blocks
    );
    assert_eq!(best.count, 9);
}
fn best_block(html: &str) -> RepeatedBlock {
    let page = Page::parse(url::Url::parse("https://site.example/").unwrap(), html);
    outline(&page).blocks.remove(0)
}

fn field(block: &RepeatedBlock, role: FieldRole) -> Option<(String, String)> {
    block
        .fields
        .iter()
        .find(|f| f.role == role)
        .map(|f| (f.spec.clone(), f.sample.clone()))
}

#[test]
fn feature_flags_on_the_page_and_a_skip_link_target_are_not_chrome() {
    let html = r##"<html class="feature-main-menu-pinned"><body class="has-sidebar-layout">
      <a class="skip-link" href="#skip-target">Skip to content</a>
      <div id="skip-link-target"><ul class="results">
        <li><a href="/1">The first entry of the results</a></li>
        <li><a href="/2">The second entry of the results</a></li>
        <li><a href="/3">The third entry of the results</a></li>
      </ul></div></body></html>"##;
    let best = best_block(html);
    assert_eq!(best.selector, "ul.results > li");
    assert!(!best.in_chrome);
}

#[test]
fn comment_thread_ranks_below_the_entries() {
    let entry = |n: usize| {
        format!(
            r#"<div class="entry"><h3><a href="/e/{n}">Entry number {n} of the list</a></h3><p>What entry {n} is about, in a line.</p></div>"#
        )
    };
    let comment = |n: usize| {
        format!(
            r#"<div class="comment"><a href="/u/{n}">reader{n}</a> <p>Comment {n}: a long message about the list, with opinions and more words than an entry.</p></div>"#
        )
    };
    let html = format!(
        r#"<html><body><div class="list">{}</div><div id="comment_list">{}</div></body></html>"#,
        (1..=4).map(entry).collect::<String>(),
        (1..=8).map(comment).collect::<String>()
    );
    let best = best_block(&html);
    assert_eq!(best.selector, "div.list > div.entry");
    assert_eq!(best.count, 4);
}

#[test]
fn a_menu_inside_one_row_does_not_make_the_rows_sections() {
    let row = |n: usize, menu: &str| {
        format!(
            r#"<tr><td>{n}</td><td><a class="bookTitle" href="/b/{n}">Book title number {n}</a> by Author {n}{menu}</td></tr>"#
        )
    };
    let menu = r#"<ul class="shelves"><li>Want to read</li><li>Reading</li><li>Read</li></ul>"#;
    let html = format!(
        "<html><body><table><tbody>{}{}{}{}</tbody></table></body></html>",
        row(1, menu),
        row(2, ""),
        row(3, ""),
        row(4, "")
    );
    let best = best_block(&html);
    assert_eq!(best.selector, "tbody > tr");
    assert_eq!(
        field(&best, FieldRole::Title),
        Some(("a.bookTitle".into(), "Book title number 1".into()))
    );
}

#[test]
fn rows_whose_longest_link_moves_are_named_by_their_first_link() {
    let html = r#"<html><body><table class="laureates"><tbody>
      <tr><td><a href="/y/1901">1901</a></td><td><a href="/p/a">Wilhelm Roentgen</a></td><td><a href="/p/b">Jacobus Henricus van 't Hoff</a></td></tr>
      <tr><td><a href="/y/1902">1902</a></td><td><a href="/p/c">Hendrik Lorentz and Pieter Zeeman</a></td><td><a href="/p/d">Emil Fischer</a></td></tr>
      <tr><td><a href="/y/1903">1903</a></td><td><a href="/p/e">Henri Becquerel</a></td><td><a href="/p/f">Svante Arrhenius</a></td></tr>
    </tbody></table></body></html>"#;
    let best = best_block(html);
    assert_eq!(best.selector, "tbody > tr");
    assert_eq!(
        field(&best, FieldRole::Title),
        Some(("a".into(), "1901".into()))
    );
    assert_eq!(
        field(&best, FieldRole::Url),
        Some(("a@href".into(), "https://site.example/y/1901".into()))
    );
}

#[test]
fn a_user_card_names_the_author_by_its_name_link() {
    // Three posts whose user card is `card` with the poster's name link inside.
    let thread = |card_attrs: &str, details: &str| {
        let post = |name: &str| {
            format!(
                r#"<article class="message"><div {card_attrs}><a href="/members/{name}">{name}</a>
                <span>{details}</span></div>
                <div class="message-body"><p>Some reply text by {name} that is long enough to read as a post.</p></div></article>"#
            )
        };
        format!(
            "<html><body><main>{}{}{}</main></body></html>",
            post("ann"),
            post("bob"),
            post("cyd")
        )
    };
    let long = thread(
        r#"class="message-userDetails author-card""#,
        "Joined Jun 4, 2024 · Messages 28 · Reaction score 38 · Location London",
    );
    assert_eq!(
        field(&best_block(&long), FieldRole::Author).map(|(_, v)| v),
        Some("ann".into())
    );
    // A short card too: the name link, not "ann 25 posts · Joined 2007".
    let short = thread(
        r#"class="user-info" itemprop="author""#,
        "25 posts · Joined 2007",
    );
    assert_eq!(
        field(&best_block(&short), FieldRole::Author).map(|(_, v)| v),
        Some("ann".into())
    );
}

#[test]
fn a_card_link_spelled_as_a_definition_list_is_named_by_its_name_entry() {
    let card = |brand: &str, name: &str| {
        format!(
            r#"<article class="product"><a href="/p/{name}"><dl><dt>Brand Name</dt><dd>{brand}</dd><dt>Product Name</dt><dd>{name}</dd><dt>Price</dt><dd>$120.00</dd></dl></a></article>"#
        )
    };
    let html = format!(
        r#"<html><body><div id="products">{}{}{}</div></body></html>"#,
        card("Topo Athletic", "ST-5"),
        card("Saucony", "Triumph 21"),
        card("Hoka", "Clifton 10")
    );
    let best = best_block(&html);
    assert_eq!(best.selector, "div#products > article.product");
    assert_eq!(
        field(&best, FieldRole::Title),
        Some(("dl > dd:nth-of-type(2)".into(), "ST-5".into()))
    );
}

#[test]
fn jsonld_types_are_those_the_structured_reader_finds() {
    // Neither block is strict JSON: a comment and a trailing comma, and a block a head
    // manager wrote into a `<meta>`. Types are local names.
    let html = r#"<html><head>
        <script type="application/ld+json; charset=utf-8">// generated
        {"@context": "https://schema.org", "@type": "http://schema.org/Product", "name": "Kettle",}</script>
        <meta name="script:ld+json" content='{"@type": "BreadcrumbList", "itemListElement": []}'>
        </head><body><p>A kettle.</p></body></html>"#;
    let page = Page::parse(
        url::Url::parse("https://shop.example/kettle").unwrap(),
        html,
    );
    assert_eq!(outline(&page).jsonld_types, ["Product", "BreadcrumbList"]);
    // `html.jsonld` answers the same two items.
    assert_eq!(crate::read::structured::items(&page).len(), 2);
}

/// Rows split in two (a title row, then a row of details): the author marked in the second
/// row is the item's author (`+spec`), as its score and age are.
#[test]
fn an_author_in_the_second_row_of_two_row_items_is_their_author() {
    let rows: String = (1..=4)
        .map(|i| {
            format!(
                r#"<tr class="athing"><td class="title"><a href="/s/{i}">Story number {i} about things</a></td></tr>
                <tr><td class="subtext"><span class="score">{i}0 points</span> by <a class="hnuser" href="/u/{i}">user{i}</a></td></tr>"#
            )
        })
        .collect();
    let html = format!("<html><body><table><tbody>{rows}</tbody></table></body></html>");
    let page = Page::parse(url::Url::parse("https://news.example/").unwrap(), &html);
    let outline = outline(&page);
    let best = &outline.blocks[0];
    let author = best
        .fields
        .iter()
        .find(|f| f.role == FieldRole::Author)
        .unwrap_or_else(|| panic!("no author in {:?}", best.fields));
    assert_eq!(author.spec, "+a.hnuser");
    assert_eq!(author.sample, "user1");
}

#[test]
fn star_ratings_read_as_a_score() {
    for rating in [
        "★ 4.6",
        "4.6 out of 5",
        "4.5/5",
        "★★★★☆ 4",
        "4,5 ★",
        "Rated ★ 4.2",
        // Followed by how many rated it.
        "4.3/5 (1,204 ratings)",
        "4.5 out of 5 stars · 88 reviews",
        "★ 4.6 (412 reviews)",
        // How many rated it in brackets, without a unit (a shop's tile).
        "★ 4.5 (1,203)",
        "4.2/5 (860)",
        // A review score with its verbal grade (booking and restaurant sites).
        "9.3 Superb · 862 reviews",
        "8.1 Very good",
        "Scored 7.6 Good (1,020 reviews)",
        "10 Exceptional · 12 reviews",
    ] {
        assert!(super::is_rating_text(rating), "{rating}");
    }
    for other in [
        "4.6",
        "page 1/5",
        "5 out of 10 dentists agree",
        "$4.60",
        "★ Featured",
        "4.3/5 (1,204 ratings) and a free tote bag",
        "(1,204 ratings)",
        "(1,203)",
        "4.6 (12)",
        "4 Good reasons to visit",
        "3 Excellent",
        "Excellent · 862 reviews",
    ] {
        assert!(!super::is_rating_text(other), "{other}");
    }
}

#[test]
fn values_are_the_short_texts_some_items_show_and_others_do_not() {
    let page = Page::parse(
        url::Url::parse("https://shop.example/").unwrap(),
        r#"<html><body><nav><a href="/">Home</a> <a href="/sale">Sale</a> <a href="/new">New</a></nav>
        <main><ul class="products">
          <li><h3>Trail shoe</h3><span class="stock">In stock</span><a href="/p/1">View</a></li>
          <li><h3>Road shoe</h3><span class="stock">Out of stock</span><a href="/p/2">View</a></li>
          <li><h3>Hill boot</h3><span class="stock">In stock</span><a href="/p/3">View</a></li>
        </ul></main></body></html>"#,
    );
    let values = outline(&page).values;
    for shown in ["In stock", "Out of stock", "Trail shoe"] {
        assert!(values.iter().any(|v| v == shown), "{shown}: {values:?}");
    }
    // Every item's button is no value that tells items apart; the menu is no list of items.
    for not_a_value in ["View", "Sale"] {
        assert!(
            !values.iter().any(|v| v == not_a_value),
            "{not_a_value}: {values:?}"
        );
    }
}

#[test]
fn a_labelled_lines_value_is_a_value_without_its_label() {
    let page = Page::parse(
        url::Url::parse("https://parking.example/").unwrap(),
        r#"<html><body><main><section class="car-parks">
          <article><h2>Riverside</h2><ul><li>Hours: Open 24 hours</li><li>Tariff: £2.80 per hour</li></ul></article>
          <article><h2>Market Street</h2><ul><li>Hours: 07:00 – 20:00</li><li>Tariff: £2.20 per hour</li></ul></article>
          <article><h2>Castle Yard</h2><ul><li>Hours: 08:00 – 18:00</li><li>Tariff: Free</li></ul></article>
        </section></main></body></html>"#,
    );
    let values = outline(&page).values;
    for shown in ["Open 24 hours", "Hours: Open 24 hours", "Free"] {
        assert!(values.iter().any(|v| v == shown), "{shown}: {values:?}");
    }
    // A time is no label ("07:00 – 20:00" is no "00 – 20:00").
    assert_eq!(after_label("07:00 – 20:00"), None);
    assert_eq!(
        after_label("Note: read the terms and conditions"),
        Some("read the terms and conditions")
    );
    assert_eq!(after_label("A very long label of words: value"), None);
}

#[test]
fn a_link_with_the_same_words_in_every_item_is_no_title() {
    let html = r#"<html><body><ol class="results">
      <li class="r"><span class="who">TAP</span> <span class="fare">£112</span> <a href="/b/1">Select</a></li>
      <li class="r"><span class="who">easyJet</span> <span class="fare">£64</span> <a href="/b/2">Select</a></li>
      <li class="r"><span class="who">Iberia</span> <span class="fare">£98</span> <a href="/b/3">Select</a></li>
      <li class="r"><span class="who">Vueling</span> <span class="fare">£57</span> <a href="/b/4">Select</a></li>
    </ol></body></html>"#;
    let page = Page::parse(url::Url::parse("https://fly.example/").unwrap(), html);
    let outline = outline(&page);
    let block = outline
        .blocks
        .iter()
        .find(|b| b.count == 4)
        .expect("the results block");
    assert!(
        block.fields.iter().all(|f| f.role != FieldRole::Title),
        "{:?}",
        block.fields
    );
    assert!(block.fields.iter().any(|f| f.role == FieldRole::Price));
}
