//! Records on small pages of each shape: exact records and column names.

use serde_json::{Value, json};

use super::{NameSource, RecordList, find};
use crate::page::Page;

fn records_of(html: &str) -> RecordList {
    let page = Page::parse(url::Url::parse("https://shop.example/list").unwrap(), html);
    find(&page, 1000).expect("a list")
}

fn column_names(list: &RecordList) -> Vec<&str> {
    list.columns.iter().map(|c| c.name.as_str()).collect()
}

fn page(main: &str, sidebar: &str) -> String {
    format!(
        "<html><body><header><nav><ul><li><a href='/'>Home</a></li><li><a href='/a'>About</a></li>\
         <li><a href='/c'>Contact</a></li><li><a href='/j'>Jobs</a></li></ul></nav></header>\
         <main>{main}</main><aside>{sidebar}</aside>\
         <footer><ul><li><a href='/t'>Terms</a></li><li><a href='/p'>Privacy</a></li><li><a href='/s'>Sitemap</a></li></ul></footer>\
         </body></html>"
    )
}

#[test]
fn a_table_with_a_header_row_gives_one_record_per_row_named_by_the_header() {
    let rows: String = [
        ("Ada Lovelace", "London", "1815", "Mathematics"),
        ("Alan Turing", "London", "1912", "Computing"),
        ("Grace Hopper", "New York", "1906", "Compilers"),
        ("Edsger Dijkstra", "Rotterdam", "1930", "Algorithms"),
    ]
    .iter()
    .map(|(name, city, born, field)| {
        format!("<tr><td><a href='/p/{born}'>{name}</a></td><td>{city}</td><td>{born}</td><td>{field}</td></tr>")
    })
    .collect();
    let html = page(
        &format!(
            "<h1>Pioneers</h1><table><thead><tr><th>Name</th><th>Birth place</th><th>Born</th><th>Field</th></tr></thead><tbody>{rows}</tbody></table>"
        ),
        "",
    );
    let list = records_of(&html);
    assert_eq!(list.total, 4);
    assert_eq!(
        column_names(&list),
        ["name", "name_url", "birth_place", "born", "field"]
    );
    assert!(list.columns.iter().all(|c| c.source == NameSource::Header));
    assert_eq!(
        Value::Object(list.records[1].clone()),
        json!({"name": "Alan Turing", "name_url": "https://shop.example/p/1912", "birth_place": "London", "born": 1912, "field": "Computing"})
    );
}

#[test]
fn abbreviated_headers_name_columns_by_their_long_names_and_signs_and_marks_are_read() {
    let rows: String = [
        ("Ridge Hawks", "+41", 14, "WWLWW"),
        ("Dale United", "−3", 10, "LWLWL"),
        ("Hill Comets", "−57", 2, "LLLLW"),
        ("Brook Flyers", "0", 8, "WLLWL"),
    ]
    .iter()
    .map(|(team, diff, pts, form)| {
        let marks: String = form
            .chars()
            .map(|c| format!("<i class='r-{}'>{c}</i>", c.to_ascii_lowercase()))
            .collect();
        format!("<tr><td><a href='/t/{pts}'>{team}</a></td><td>{diff}</td><td>{pts}</td><td>{marks}</td></tr>")
    })
    .collect();
    let html = page(
        &format!(
            "<table><thead><tr><th>Team</th><th><abbr title='Goal difference'>GD</abbr></th>\
             <th><abbr title='Points'>Pts</abbr></th><th>Form</th></tr></thead><tbody>{rows}</tbody></table>"
        ),
        "",
    );
    let list = records_of(&html);
    assert_eq!(
        column_names(&list),
        ["team", "team_url", "goal_difference", "points", "form"]
    );
    let printed: Vec<Option<&str>> = list.columns.iter().map(|c| c.printed.as_deref()).collect();
    assert_eq!(printed, [None, None, Some("GD"), Some("Pts"), None]);
    let diffs: Vec<&Value> = list.records.iter().map(|r| &r["goal_difference"]).collect();
    assert_eq!(diffs, [&json!(41), &json!(-3), &json!(-57), &json!(0)]);
    assert_eq!(list.records[1]["form"], json!("L W L W L"));
}

#[test]
fn cells_whose_class_names_a_state_after_the_component_are_one_column() {
    let rows: String = [
        ("Room A", 4, "free", "Available now"),
        ("Room B", 6, "busy", "Booked until 14:00"),
        ("Room C", 8, "free", "Available now"),
        ("Studio 2", 3, "closed", "Closed for maintenance"),
        ("Room E", 6, "busy", "Booked until 12:30"),
    ]
    .iter()
    .map(|(name, seats, state, today)| {
        format!("<tr><th scope='row'>{name}</th><td>{seats}</td><td class='status {state}'>{today}</td></tr>")
    })
    .collect();
    let html = page(
        &format!(
            "<table><thead><tr><th>Room</th><th>Seats</th><th>Today</th></tr></thead><tbody>{rows}</tbody></table>"
        ),
        "",
    );
    let list = records_of(&html);
    assert_eq!(column_names(&list), ["room", "seats", "today"]);
    assert_eq!(list.records[3]["today"], json!("Closed for maintenance"));
}

#[test]
fn a_cells_later_value_marked_by_its_class_is_named_by_it_and_the_header_names_the_first() {
    let rows: String = [
        ("Fitzroy Street", "PureGym", "£24.99", "No joining fee"),
        ("The Calls", "Third Space", "£145.00", "Joining fee £50"),
        ("Kirkgate", "The Gym Group", "£21.99", "Joining fee £15"),
        ("Headingley", "PureGym", "£22.99", "No joining fee"),
    ]
    .iter()
    .map(|(name, brand, price, joining)| {
        format!(
            "<tr><td class='gym'><a href='/g/{name}'>{name}</a><span class='brand'>{brand}</span></td>\
             <td class='membership'><strong>{price}</strong>/month<br><small>{joining}</small></td></tr>"
        )
    })
    .collect();
    let html = page(
        &format!(
            "<table><thead><tr><th>Gym</th><th>Membership</th></tr></thead><tbody>{rows}</tbody></table>"
        ),
        "",
    );
    let list = records_of(&html);
    let names = column_names(&list);
    assert!(
        names.contains(&"gym") && names.contains(&"brand"),
        "{names:?}"
    );
    assert_eq!(list.records[1]["brand"], json!("Third Space"));
    assert_eq!(list.records[1]["gym"], json!("The Calls"));
    // A later value without a class word stays under its header.
    assert!(names.contains(&"membership_2"), "{names:?}");
    assert_eq!(list.records[1]["membership_2"], json!("Joining fee £50"));
}

#[test]
fn an_aria_grid_is_read_as_a_table_named_by_its_column_headers() {
    let rows: String = [
        ("Central Library", "Busy", "18 of 120 free", "10p a page"),
        ("Market Square", "Quiet", "22 of 30 free", "15p a page"),
        ("Eastgate", "Quiet", "15 of 20 free", "Free"),
        ("Harbour", "Nearly full", "2 of 36 free", "10p a page"),
    ]
    .iter()
    .map(|(name, now, seats, printing)| {
        format!(
            "<div role='row' class='branch'><span role='cell'><a href='/l/{name}'>{name}</a></span>\
             <span role='cell'><b>{now}</b></span><span role='cell'>{seats}</span>\
             <span role='cell'>{printing}</span></div>"
        )
    })
    .collect();
    let html = page(
        &format!(
            "<div role='table' aria-label='Libraries'><div role='row'><span role='columnheader'>Library</span>\
             <span role='columnheader'>Right now</span><span role='columnheader'>Study seats</span>\
             <span role='columnheader'>Printing</span></div>{rows}</div>"
        ),
        "",
    );
    let list = records_of(&html);
    let names = column_names(&list);
    for name in ["library", "right_now", "study_seats", "printing"] {
        assert!(names.contains(&name), "{name}: {names:?}");
    }
    assert_eq!(list.records[3]["right_now"], json!("Nearly full"));
    assert_eq!(list.records[2]["printing"], json!("Free"));
}

#[test]
fn a_cell_holding_one_line_less_keeps_the_rows_later_cells_under_their_headers() {
    // A speaker's company on a second line in most rows; a panel row names three people.
    let rows: String = [
        (
            "Keynote",
            "Maya Okafor<br><small>W3 Collective</small>",
            "Hall A",
        ),
        (
            "Zero-Trust",
            "Jonas Berg<br><small>Kestrel</small>",
            "Hall B",
        ),
        ("Panel", "Maya Okafor, Tom Reyes, Ines Abara", "Hall A"),
        (
            "Streaming SQL",
            "Tom Reyes<br><small>Quarry DB</small>",
            "Room 2",
        ),
    ]
    .iter()
    .map(|(session, speaker, room)| {
        format!("<tr><td>{session}</td><td>{speaker}</td><td>{room}</td></tr>")
    })
    .collect();
    let html = page(
        &format!(
            "<h1>Agenda</h1><table><thead><tr><th>Session</th><th>Speaker</th><th>Room</th></tr></thead><tbody>{rows}</tbody></table>"
        ),
        "",
    );
    let list = records_of(&html);
    assert_eq!(list.total, 4);
    let rooms: Vec<&Value> = list.records.iter().map(|r| &r["room"]).collect();
    assert_eq!(
        rooms,
        [
            &json!("Hall A"),
            &json!("Hall B"),
            &json!("Hall A"),
            &json!("Room 2")
        ]
    );
    assert_eq!(
        list.records[2]["speaker"],
        json!("Maya Okafor, Tom Reyes, Ines Abara")
    );
    assert_eq!(list.records[0]["speaker"], json!("Maya Okafor"));
}

#[test]
fn table_rows_with_the_same_cells_are_one_list_whatever_one_cell_holds() {
    // A timetable: a booked-out row shows a badge where the others show a button.
    let rows: String = [
        ("06:15", "LX 101", "€12", "<a href='/book/101'>Select</a>"),
        ("07:30", "LX 103", "€9", "<span>Full</span>"),
        ("08:45", "LX 105", "€19", "<a href='/book/105'>Select</a>"),
        ("10:00", "LX 107", "€11", "<a href='/book/107'>Select</a>"),
        ("11:30", "LX 109", "€16", "<span>Full</span>"),
    ]
    .iter()
    .map(|(dep, no, fare, book)| {
        format!("<tr><td>{dep}</td><td>{no}</td><td>{fare}</td><td>{book}</td></tr>")
    })
    .collect();
    let html = page(
        &format!(
            "<h1>Coaches</h1><table><thead><tr><th>Dep.</th><th>Coach no.</th><th>Fare</th><th></th></tr></thead><tbody>{rows}</tbody></table>"
        ),
        "",
    );
    let list = records_of(&html);
    assert_eq!(list.total, 5);
    let coaches: Vec<&Value> = list.records.iter().map(|r| &r["coach_no"]).collect();
    assert_eq!(
        coaches,
        ["LX 101", "LX 103", "LX 105", "LX 107", "LX 109"]
            .map(|c| json!(c))
            .iter()
            .collect::<Vec<_>>()
    );
}

#[test]
fn a_header_cell_that_explains_its_column_is_named_by_its_first_words() {
    let header = |abbr: &str, explained: &str| {
        format!(
            "<th><button><svg><title>arrow-right</title></svg><span>{abbr}</span>\
             <span class='tip'>{explained}, as the listing service counts it for each home</span></button></th>"
        )
    };
    let rows: String = [
        ("12 Elm St", "1200", "3"),
        ("4 Oak Ave", "950", "2"),
        ("9 Pine Rd", "2100", "4"),
    ]
    .iter()
    .map(|(home, sqft, beds)| format!("<tr><td>{home}</td><td>{sqft}</td><td>{beds}</td></tr>"))
    .collect();
    let html = page(
        &format!(
            "<table><thead><tr><th>Home</th>{}{}</tr></thead><tbody>{rows}</tbody></table>",
            header("SQFT", "Square footage: the area of the property"),
            header("Beds", "Number of bedrooms"),
        ),
        "",
    );
    let list = records_of(&html);
    assert_eq!(column_names(&list), ["home", "sqft", "beds"]);
}

#[test]
fn a_product_card_grid_gives_image_title_link_and_price() {
    let cards: String = [
        ("Kettle", "24.99"),
        ("Toaster", "39.00"),
        ("Blender", "59.50"),
        ("Mixer", "89.90"),
        ("Grinder", "19.95"),
    ]
    .iter()
    .enumerate()
    .map(|(i, (name, price))| {
        format!(
            "<div class='card product-card'><a href='/p/{i}'><img src='/img/{i}.jpg' alt=''></a>\
                 <h3 class='product-title'><a href='/p/{i}'>{name}</a></h3>\
                 <span class='price'>${price}</span><button>Add to cart</button>\
                 <a class='more' href='/p/{i}'>Read more</a></div>"
        )
    })
    .collect();
    let html = page(&format!("<div class='grid'>{cards}</div>"), "");
    let list = records_of(&html);
    assert_eq!(list.total, 5);
    assert_eq!(column_names(&list), ["url", "image", "title", "price"]);
    assert_eq!(
        Value::Object(list.records[2].clone()),
        json!({"url": "https://shop.example/p/2", "image": "https://shop.example/img/2.jpg", "title": "Blender", "price": "$59.50"})
    );
    assert_eq!(
        list.selector.as_deref(),
        Some("div.grid > div.card.product-card")
    );
}

#[test]
fn a_short_text_on_only_some_cards_is_a_feature_and_one_on_every_card_is_furniture() {
    let cards: String = (0..10)
        .map(|i| {
            let feature = if i % 3 == 0 {
                "<p>Step-free access</p>"
            } else {
                ""
            };
            format!(
                "<div class='card'><h3><a href='/s/{i}'>Shop number {i}</a></h3>\
                 <span class='price'>${i}.50</span>{feature}<a href='/s/{i}'>Read more</a></div>"
            )
        })
        .collect();
    let list = records_of(&page(&format!("<div class='grid'>{cards}</div>"), ""));
    assert_eq!(list.total, 10);
    let holding = |text: &str| -> Vec<usize> {
        (0..list.records.len())
            .filter(|&row| list.records[row].values().any(|v| v == text))
            .collect()
    };
    assert_eq!(holding("Step-free access"), [0, 3, 6, 9]);
    assert_eq!(holding("Read more"), Vec::<usize>::new());
}

#[test]
fn the_lists_class_names_no_value_of_its_records() {
    let cards: String = ["Locker 1A", "Locker 1B", "Room 2C", "Room 2D"]
        .iter()
        .map(|name| {
            format!(
                "<div class='space'><h2>{name}</h2><p>3 × 4 ft (12 sq ft)</p>\
                 <p>£24 per month</p></div>"
            )
        })
        .collect();
    // "spaces" names a count of places left elsewhere; here it is the list's class.
    let html = page(&format!("<div class='spaces'>{cards}</div>"), "");
    let list = records_of(&html);
    assert_eq!(list.total, 4);
    assert_eq!(list.columns[0].name, "title");
    assert_eq!(list.records[2]["title"], json!("Room 2C"));
}

#[test]
fn a_label_that_changes_from_card_to_card_names_its_own_column() {
    let cards: String = [
        ("Grooming Set", "Breeder:", "Local Shelter"),
        ("Cat Food", "Brand:", "Eco Friendly"),
        ("Dog Bed", "Brand:", "Cosy Paws"),
        ("Bird Cage", "Breeder:", "Sky Farm"),
        ("Leash", "Brand:", "Walkies"),
    ]
    .iter()
    .enumerate()
    .map(|(i, (name, label, value))| {
        format!(
            "<div class='card'><h3><a href='/p/{i}'>{name}</a></h3>\
             <p><span class='meta-label'>{label}</span> <span class='meta-value'>{value}</span></p></div>"
        )
    })
    .collect();
    let list = records_of(&page(&format!("<div class='grid'>{cards}</div>"), ""));
    assert_eq!(list.total, 5);
    assert_eq!(column_names(&list), ["title", "url", "breeder", "brand"]);
    let sources: Vec<NameSource> = list.columns.iter().map(|c| c.source).collect();
    assert_eq!(sources[2..], [NameSource::Label, NameSource::Label]);
    assert_eq!(
        Value::Object(list.records[1].clone()),
        json!({"title": "Cat Food", "url": "https://shop.example/p/1", "breeder": null, "brand": "Eco Friendly"})
    );
}

#[test]
fn a_feed_keeps_its_sticky_items_first() {
    let post = |title: &str, date: &str, extra: &str, class: &str| {
        format!(
            "<article class='post {class}'>{extra}<h2><a href='/{title}'>{title}</a></h2>\
             <time>{date}</time><p>Some words about {title} that make a teaser.</p></article>"
        )
    };
    let feed = [
        post(
            "Welcome",
            "2025-01-02",
            "<span class='badge'>Pinned</span>",
            "post--sticky",
        ),
        post(
            "Rules",
            "2025-01-03",
            "<span class='badge'>Pinned</span>",
            "post--sticky",
        ),
        post("Spring", "2025-03-20", "", ""),
        post("Summer", "2025-06-21", "", ""),
        post("Autumn", "2025-09-22", "", ""),
    ]
    .concat();
    let list = records_of(&page(&feed, ""));
    let titles: Vec<&Value> = list.records.iter().map(|r| &r["title"]).collect();
    assert_eq!(
        titles,
        [
            &json!("Welcome"),
            &json!("Rules"),
            &json!("Spring"),
            &json!("Summer"),
            &json!("Autumn")
        ]
    );
    assert_eq!(list.records[2]["date"], "2025-03-20");
}

#[test]
fn records_split_over_two_rows_are_one_record_each() {
    let rows: String = (1..=4)
        .map(|i| {
            format!(
                "<tr class='athing'><td class='rank'>{i}.</td><td class='title'><a href='/s/{i}'>Story number {i}</a></td></tr>\
                 <tr><td></td><td class='subtext'><span class='score'>{} points</span> by <a class='user' href='/u/{i}'>user{i}</a></td></tr>\
                 <tr class='spacer'></tr>",
                i * 10
            )
        })
        .collect();
    let list = records_of(&page(&format!("<table><tbody>{rows}</tbody></table>"), ""));
    assert_eq!(list.total, 4);
    assert_eq!(list.elements_per_record, 2);
    let second = &list.records[1];
    assert_eq!(second["title"], "Story number 2");
    let values: Vec<String> = second.values().map(ToString::to_string).collect();
    assert!(values.iter().any(|v| v.contains("20 points")), "{second:?}");
    assert!(values.iter().any(|v| v.contains("user2")), "{second:?}");
}

#[test]
fn a_definition_list_pairs_terms_and_descriptions() {
    let html = page(
        "<dl><dt>HTTP</dt><dd>The protocol of the web.</dd><dt>HTML</dt><dd>The markup of pages.</dd>\
         <dt>CSS</dt><dd>The styles of pages.</dd><dt>DNS</dt><dd>Names to addresses.</dd></dl>",
        "",
    );
    let list = records_of(&html);
    assert_eq!(list.total, 4);
    let pairs: Vec<Vec<&Value>> = list
        .records
        .iter()
        .map(|r| r.values().filter(|v| !v.is_null()).collect())
        .collect();
    assert_eq!(pairs[2], [&json!("CSS"), &json!("The styles of pages.")]);
}

#[test]
fn a_richer_main_list_wins_over_a_longer_poorer_sidebar_list() {
    let jobs: String = ["Rust engineer", "SRE", "Data analyst", "Designer"]
        .iter()
        .enumerate()
        .map(|(i, title)| {
            format!(
                "<li class='job'><h3><a href='/jobs/{i}'>{title}</a></h3><span class='company'>Acme {i}</span>\
                 <span class='location'>Berlin</span><span class='salary'>€{}0,000</span>\
                 <p>We are looking for a {title} to join a small team that ships every day.</p></li>",
                6 + i
            )
        })
        .collect();
    let tags: String = (0..12)
        .map(|i| format!("<li><a href='/tag/{i}'>tag {i}</a></li>"))
        .collect();
    let list = records_of(&page(
        &format!("<ul class='jobs'>{jobs}</ul>"),
        &format!("<ul class='tags'>{tags}</ul>"),
    ));
    assert_eq!(list.total, 4);
    assert_eq!(
        column_names(&list),
        [
            "title",
            "url",
            "company",
            "location",
            "salary",
            "description"
        ]
    );
    assert_eq!(list.records[3]["salary"], "€90,000");
    assert!(
        list.alternatives.iter().any(|a| a.count == 12),
        "{:?}",
        list.alternatives
    );
}

#[test]
fn a_record_with_nothing_readable_is_no_row() {
    let cards: String = ["Kettle", "Toaster", "Blender", "Mixer"]
        .iter()
        .map(|name| {
            format!("<li class='tile'><h3><a href='/p/{name}'>{name}</a></h3><span class='price'>$5</span></li>")
        })
        .collect();
    let html = page(
        &format!(
            "<ul class='tiles'>{cards}<li class='tile'><h3><a href='#'></a></h3>\
             <span class='price' hidden>$5</span><button>Notify me</button></li></ul>"
        ),
        "",
    );
    let list = records_of(&html);
    assert_eq!(list.total, 4);
    assert!(list.records.iter().all(|r| !r["title"].is_null()));
}

#[test]
fn items_whose_own_class_names_differ_stay_bounded_and_are_all_counted() {
    let items: String = (0..5_000)
        .map(|i| {
            format!(
                "<li class='user-u{i}x'><span class='flag-f{i}x'>Name {i}</span> <a class='go-g{i}x' href='/u/{i}'>profile</a></li>"
            )
        })
        .collect();
    // And a parent of many one-off kinds of children, which is no list.
    let oddities: String = (0..500)
        .map(|i| format!("<x-tag{i}><b>{i}</b></x-tag{i}>"))
        .collect();
    let html = page(
        &format!("<ul class='users'>{items}</ul><div>{oddities}</div>"),
        "",
    );
    let page = Page::parse(url::Url::parse("https://shop.example/").unwrap(), &html);
    let list = find(&page, 100).expect("a list");
    assert_eq!(list.total, 5_000);
    assert_eq!(list.records.len(), 100);
    assert!(list.columns.len() <= 4, "{:?}", column_names(&list));
    assert_eq!(list.records[7].values().next(), Some(&json!("Name 7")));
}

#[test]
fn every_list_is_the_main_list_then_the_other_tables_of_records_not_menus_or_tags() {
    let html = include_str!("../../../tests/fixtures/pages/records-lists.html");
    let page = Page::parse(url::Url::parse("https://isp.example/plans").unwrap(), html);
    let main = find(&page, 1000).expect("a list");
    assert_eq!(main.total, 4, "the four plan cards");
    let lists = super::find_all(&page, 1000);
    let sizes: Vec<usize> = lists.iter().map(|l| l.total).collect();
    assert_eq!(
        sizes,
        [4, 4],
        "cards, then the table's rows; not the nav, tags or footer"
    );
    assert_eq!(column_names(&lists[1]), ["plan", "contract", "setup_fee"]);
    assert_eq!(
        Value::Object(lists[1].records[3].clone()),
        json!({"plan": "Gigabit", "contract": "24 months", "setup_fee": "$50"}),
        "the rows behind \"Show all plans\" are rows of the table"
    );
}

#[test]
fn a_page_with_one_list_has_that_list_alone() {
    let items: String = (1..=5)
        .map(|i| {
            format!("<li><a href='/p/{i}'>Product {i}</a> <span class='price'>${i}.00</span></li>")
        })
        .collect();
    let page = Page::parse(
        url::Url::parse("https://shop.example/").unwrap(),
        &page(&format!("<ul class='products'>{items}</ul>"), ""),
    );
    let lists = super::find_all(&page, 1000);
    assert_eq!(lists.len(), 1);
    assert_eq!(lists[0].total, 5);
}

#[test]
fn groups_of_links_lose_to_the_records_they_sit_beside() {
    let cards: String = ["Oak desk", "Pine shelf", "Birch stool", "Elm bench"]
        .iter()
        .enumerate()
        .map(|(i, name)| {
            format!(
                "<div class='item'><h3><a href='/p/{i}'>{name}</a></h3><span class='price'>${i}9.00</span>\
                 <p>Solid wood, oiled by hand in our workshop, delivered flat with every tool you need \
                 to put it together in under an hour.</p></div>"
            )
        })
        .collect();
    let groups: String = ["Desks near you", "Shelves near you", "Stools near you"]
        .iter()
        .map(|heading| {
            let links: String = (0..14)
                .map(|k| format!("<a href='/s/{k}'>{heading} in town number {k}</a>"))
                .collect();
            format!("<div class='group'><h4>{heading}</h4>{links}</div>")
        })
        .collect();
    let html = page(
        &format!("<div class='items'>{cards}</div><div class='groups'>{groups}</div>"),
        "",
    );
    let list = records_of(&html);
    assert_eq!(list.total, 4);
    assert_eq!(
        list.records[0]["title"], "Oak desk",
        "{:?}",
        list.records[0]
    );
}

#[test]
fn cards_with_a_promotion_inside_are_cards_of_the_same_grid() {
    let cards: String = [
        "Kettle", "Toaster", "Blender", "Mixer", "Grinder", "Juicer", "Steamer", "Fryer",
    ]
    .iter()
    .enumerate()
    .map(|(i, name)| {
        // Every third card carries a promotion block of its own markup.
        let promo = if i % 3 == 1 {
            "<div class='promo'><h4>Two for one</h4><p>Buy <strong>two</strong> and pay for one.</p>\
             <ul><li>Online only</li><li>Ends Sunday</li></ul><span>Members</span><a href='/deal'>Details</a></div>"
        } else {
            ""
        };
        format!(
            "<div class='card product-card'><a href='/p/{i}'><img src='/img/{i}.jpg' alt=''></a>\
             <h3><a href='/p/{i}'>{name}</a></h3><span class='price'>${i}9.99</span>\
             <button>Add to cart</button><a class='more' href='/p/{i}'>Read more</a>{promo}</div>"
        )
    })
    .collect();
    let html = page(&format!("<div class='grid'>{cards}</div>"), "");
    let list = records_of(&html);
    assert_eq!(list.total, 8);
    let titles: Vec<&Value> = list.records.iter().map(|r| &r["title"]).collect();
    assert_eq!(
        titles,
        [
            "Kettle", "Toaster", "Blender", "Mixer", "Grinder", "Juicer", "Steamer", "Fryer"
        ]
    );
}

#[test]
fn a_page_of_sections_gives_the_stories_of_every_section() {
    let story = |section: &str, i: usize| {
        format!(
            "<a href='/{section}/{i}'>{section} story number {i} of the week</a>\
             <span class='author'>Reporter {i}</span><time>May {i}, 2025</time>"
        )
    };
    // Each section names its list its own way, so the lists do not read as one.
    let sections: String = ["Science", "Health", "Space", "Climate"]
        .iter()
        .map(|section| {
            let stories: String = (1..=4)
                .map(|i| format!("<li class='item-{section}'>{}</li>", story(section, i)))
                .collect();
            format!(
                "<section class='block'><div class='head'><h2>{section}</h2><a href='/{section}'>View all</a></div>\
                 <ul class='list-{section}'>{stories}</ul></section>"
            )
        })
        .collect();
    let list = records_of(&page(
        &format!("<div class='sections'>{sections}</div>"),
        "",
    ));
    assert_eq!(list.total, 16);
    let first_words: Vec<String> = list
        .records
        .iter()
        .filter_map(|r| r.values().find_map(Value::as_str).map(str::to_owned))
        .collect();
    assert_eq!(first_words[0], "Science story number 1 of the week");
    assert_eq!(first_words[15], "Climate story number 4 of the week");
}

#[test]
fn two_sections_whose_lists_are_named_apart_give_both_lists() {
    // Two sections are too few to be a list of their own; their lists, built alike but
    // named each its own way, are one list across them.
    let section = |name: &str| {
        let stories: String = (1..=4)
            .map(|i| {
                format!(
                    "<li class='item-{name}'><a href='/{name}/{i}'>{name} story number {i}</a>\
                     <span class='author'>Reporter {i}</span><time>May {i}, 2025</time></li>"
                )
            })
            .collect();
        format!("<section><h2>{name}</h2><ul class='list-{name}'>{stories}</ul></section>")
    };
    let list = records_of(&page(
        &format!("<div>{}{}</div>", section("Science"), section("Health")),
        "",
    ));
    assert_eq!(list.total, 8);
    assert_eq!(list.records[4]["title"], "Health story number 1");
}

fn product_cards(n: usize) -> String {
    (1..=n)
        .map(|i| {
            format!(
                "<li class='card'><h3><a href='/p/{i}'>Product number {i} with a name</a></h3><span class='price'>${i}.99</span></li>"
            )
        })
        .collect()
}

fn described_cards(n: usize) -> String {
    (1..=n)
        .map(|i| {
            format!(
                "<li class='card'><h3><a href='/p/{i}'>Product number {i} with a name</a></h3>\
                 <p>What product {i} is for, said in a sentence of a fair length.</p><span class='price'>${i}.99</span></li>"
            )
        })
        .collect()
}

#[test]
fn a_page_wrapped_in_one_form_under_body_still_has_its_list() {
    // ASP.NET WebForms pages put the whole page in `<form id="aspnetForm">`.
    let html = format!(
        "<html><body><form id='aspnetForm' method='post'><div><h1>Our products</h1>\
         <ul class='products'>{}</ul></div></form></body></html>",
        product_cards(4)
    );
    let list = records_of(&html);
    assert_eq!(list.total, 4);
    assert_eq!(
        list.records[0]["title"],
        json!("Product number 1 with a name")
    );
}

#[test]
fn the_options_of_a_form_inside_the_page_are_no_list() {
    // A filter form's options are not the page's entries, however many.
    let options: String = (1..=12)
        .map(|i| {
            format!(
                "<li><label><input type='checkbox'> Brand number {i} of the filter</label></li>"
            )
        })
        .collect();
    let html = page(
        &format!(
            "<form class='filters'><ul>{options}</ul></form><ul class='products'>{}</ul>",
            product_cards(4)
        ),
        "",
    );
    let list = records_of(&html);
    assert_eq!(list.total, 4, "{:?}", list.records.first());
}

#[test]
fn main_content_hidden_until_scripts_run_is_read() {
    // A content lock ships the whole collection in `display:none` under `<main>`.
    let html = format!(
        "<html><body><nav><ul><li><a href='/'>Home</a></li><li><a href='/a'>About</a></li><li><a href='/c'>Contact</a></li></ul></nav>\
         <main><div class='lockdown-content' style='display:none'><ul class='products'>{}</ul></div></main></body></html>",
        product_cards(5)
    );
    let list = records_of(&html);
    assert_eq!(list.total, 5);
    assert_eq!(
        list.records[0]["title"],
        json!("Product number 1 with a name")
    );
}

#[test]
fn a_comment_thread_scores_below_the_entries_it_follows() {
    let comments: String = (1..=8)
        .map(|i| format!("<div class='comment'><a href='/u/{i}'>reader{i}</a><p>Comment {i}: a long message about the products, with opinions and many more words than an entry has.</p></div>"))
        .collect();
    let html = page(
        &format!(
            "<ul class='products'>{}</ul><div id='comment_list'>{comments}</div>",
            described_cards(4)
        ),
        "",
    );
    let list = records_of(&html);
    assert_eq!(list.total, 4, "{:?}", list.records.first());
}

#[test]
fn a_label_written_as_the_values_first_element_names_its_column() {
    let cards: String = [
        ("Civic", "42,310 mi", "Automatic"),
        ("RAV4", "18,905 mi", "Automatic"),
        ("Mazda3", "112,400 mi", "Manual"),
    ]
    .iter()
    .map(|(model, miles, gearbox)| {
        format!(
            "<li class='car'><h2><a href='/v/{model}'>{model}</a></h2><ul class='specs'>\
             <li><span class='label'>Mileage</span> {miles}</li><li><b>Transmission</b> {gearbox}</li></ul></li>"
        )
    })
    .collect();
    let list = records_of(&page(
        &format!("<h1>Cars</h1><ul class='cars'>{cards}</ul>"),
        "",
    ));
    assert_eq!(list.total, 3);
    assert_eq!(
        list.records[2]["mileage"],
        json!("112,400 mi"),
        "{:?}",
        list.records[2]
    );
    assert_eq!(list.records[2]["transmission"], json!("Manual"));
    let mileage = list
        .columns
        .iter()
        .find(|c| c.name == "mileage")
        .expect("a mileage column");
    assert_eq!(mileage.source, NameSource::Label);
}

#[test]
fn the_price_beside_a_struck_through_earlier_one_is_the_price() {
    let cards: String = [
        ("Civic", "$18,450"),
        ("Mazda3", "<s class='was'>$10,500</s> <span class='now'>$9,750</span>"),
        ("GTI", "$23,400"),
        ("Fit", "<del>$7,900</del> $7,450"),
    ]
    .iter()
    .map(|(model, price)| {
        format!("<li class='car'><h2><a href='/v/{model}'>{model}</a></h2><p class='price'>{price}</p></li>")
    })
    .collect();
    let list = records_of(&page(
        &format!("<h1>Cars</h1><ul class='cars'>{cards}</ul>"),
        "",
    ));
    let prices: Vec<&Value> = list.records.iter().map(|r| &r["price"]).collect();
    assert_eq!(
        prices,
        [
            &json!("$18,450"),
            &json!("$9,750"),
            &json!("$23,400"),
            &json!("$7,450")
        ]
    );
}

/// Details written as a definition list name their columns by their terms, the same terms in
/// every card ("Level") or not ("Seats" in some cards only); a line naming the person behind
/// the item by their part ("Led by Ana Silva") is a column of that part, the names alone; a
/// price column may print "Free" for some items.
#[test]
fn definition_list_terms_and_role_lines_name_their_columns() {
    let cards = [
        ("Knife skills", "Ana Silva", "Beginner", Some("12"), "Free"),
        ("Sourdough", "Tom Reyes", "Advanced", None, "$35"),
        ("Pasta by hand", "Ana Silva", "Beginner", Some("8"), "$20"),
        ("Fermenting", "Kim Ode", "Intermediate", None, "$25"),
    ];
    let items: String = cards
        .iter()
        .map(|(title, who, level, seats, price)| {
            let seats = seats.map_or(String::new(), |s| {
                format!("<dt>Seats</dt><dd>{s} left</dd>")
            });
            format!(
                "<li class='workshop'><h3><a href='/w/{title}'>{title}</a></h3><p>Led by {who}</p>\
                 <dl><dt>Level</dt><dd>{level}</dd>{seats}<dt>Length</dt><dd>3 hours</dd></dl>\
                 <div class='fee'>{price}</div></li>"
            )
        })
        .collect();
    let list = records_of(&page(&format!("<ul>{items}</ul>"), ""));
    assert_eq!(list.total, 4);
    let names = column_names(&list);
    for name in ["leader", "level", "seats", "length", "price"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    assert_eq!(list.records[0]["leader"], "Ana Silva");
    assert_eq!(list.records[1]["level"], "Advanced");
    assert_eq!(list.records[2]["seats"], "8 left");
    assert!(list.records[1]["seats"].is_null());
    assert_eq!(list.records[1]["length"], "3 hours");
    assert_eq!(list.records[0]["price"], "Free");
}

/// A glossary's terms each stand once: they are the items' names, not labels.
#[test]
fn a_glossary_keeps_its_terms_as_values() {
    let entries: String = [
        ("Ajax", "Asynchronous requests."),
        ("CSS", "Styles."),
        ("DOM", "The tree."),
    ]
    .iter()
    .map(|(term, meaning)| format!("<dt>{term}</dt><dd>{meaning}</dd>"))
    .collect();
    let list = records_of(&page(&format!("<dl>{entries}</dl>"), ""));
    let values: Vec<String> = list
        .records
        .iter()
        .map(|r| {
            r.values()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert!(
        values[0].contains("Ajax") && values[0].contains("Asynchronous"),
        "{values:?}"
    );
}

/// Unlabelled chips: a grade of difficulty names its column; an arrow before a height does
/// not keep it from being a measure.
#[test]
fn a_grade_of_difficulty_names_its_column() {
    let trails: String = [("Ridge", "Strenuous", "840"), ("Mill", "Easy", "40"), ("Falls", "Moderate", "310")]
        .iter()
        .map(|(name, grade, ascent)| {
            format!(
                "<section class='trail'><h2><a href='/t/{name}'>{name}</a></h2><span class='chip'>4 km</span>\
                 <span class='chip'>{grade}</span><span class='chip'>↑ {ascent} m</span></section>"
            )
        })
        .collect();
    let list = records_of(&page(&format!("<div>{trails}</div>"), ""));
    assert_eq!(
        list.records[0]["difficulty"],
        "Strenuous",
        "{:?}",
        column_names(&list)
    );
    assert_eq!(
        crate::page::dom::measure("↑ 840 m"),
        Some((840.0, "m".to_owned()))
    );
}

/// A count written after one shared word ("Sleeps 4", "Serves 6") names its column by the
/// word, the count its value; a word that only qualifies an amount ("From 120") names nothing.
#[test]
fn a_count_after_a_shared_word_is_named_by_the_word() {
    let cards = [
        ("Brook Cottage", 4, 120),
        ("The Old Forge", 6, 185),
        ("Gull's Rest", 2, 85),
        ("Saltmarsh House", 10, 420),
    ];
    let items: String = cards
        .iter()
        .map(|(name, sleeps, price)| {
            format!(
                "<li class='property'><h3><a href='/c/{sleeps}'>{name}</a></h3>\
                 <p><span>Sleeps {sleeps}</span> · <span>{sleeps} beds</span></p>\
                 <div class='cost'>From {price}</div></li>"
            )
        })
        .collect();
    let list = records_of(&page(&format!("<ul>{items}</ul>"), ""));
    let names = column_names(&list);
    assert!(names.contains(&"sleeps"), "{names:?}");
    assert!(!names.contains(&"from"), "{names:?}");
    assert_eq!(list.records[1]["sleeps"], json!(6));
    assert_eq!(list.records[3]["sleeps"], json!(10));
    // A date is no count after a word: "May 12", "Sept 3, 2026".
    let dated: String = ["May 12", "May 14", "Sept 3, 2026", "May 20"]
        .iter()
        .enumerate()
        .map(|(i, date)| {
            format!(
                "<li class='story'><h3><a href='/s/{i}'>Story number {i} of the day</a></h3>\
                 <span>{date}</span></li>"
            )
        })
        .collect();
    let list = records_of(&page(&format!("<ul>{dated}</ul>"), ""));
    let names = column_names(&list);
    assert!(
        !names.contains(&"may") && !names.contains(&"sept"),
        "{names:?}"
    );
}

#[test]
fn class_words_name_when_where_and_who_of_an_event_card() {
    let cards: String = [
        ("Spin", "06:30", "Studio A", "Priya Nair", "4 spaces left"),
        ("Yoga", "09:30", "Studio B", "Tom Becker", "Class full"),
        ("Pilates", "12:15", "Pool", "Lena Ho", "2 spaces left"),
        ("Boxing", "17:30", "Studio B", "Dana Ruiz", "6 spaces left"),
    ]
    .iter()
    .map(|(name, when, room, who, spaces)| {
        format!(
            "<li class='session'><h3 class='session__name'>{name}</h3>\
             <p class='session__when'>{when}</p><p class='session__where'>{room}</p>\
             <p class='session__instructor'>{who}</p><span class='session__spaces'>{spaces}</span></li>"
        )
    })
    .collect();
    let list = records_of(&page(&format!("<ul class='day'>{cards}</ul>"), ""));
    assert_eq!(list.total, 4);
    assert_eq!(
        column_names(&list),
        ["name", "when", "where", "instructor", "spaces"]
    );
}
