//! Table tests of the price reader, the currency signs, the availability names and the
//! labelled identifiers, with strings as shops write them; and every labelled fixture page in
//! `tests/fixtures/products/` (the fixtures are the specification).

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use serde_json::Value;

use super::availability::Availability;
use super::scope::Scope;
use crate::page::Page;
use crate::page::locale::Locale;
use crate::page::money::parse_money;

fn page(html: &str) -> Page {
    Page::parse(url::Url::parse("https://shop.example/p/1").unwrap(), html)
}

/// A price text, the page's language, and the amount and currency it means.
type PriceCase = (&'static str, &'static str, Option<(f64, &'static str)>);

#[test]
fn prices_read_in_the_pages_locale() {
    let cases: &[PriceCase] = &[
        ("$1,299.00", "en-US", Some((1299.0, "USD"))),
        ("1.299,00\u{a0}€", "de-DE", Some((1299.0, "EUR"))),
        ("1\u{202f}299,00\u{202f}€", "fr-FR", Some((1299.0, "EUR"))),
        ("€ 89,90", "it", Some((89.9, "EUR"))),
        ("CHF 1'290.00", "de-CH", Some((1290.0, "CHF"))),
        ("Fr. 49.90", "de-CH", Some((49.9, "CHF"))),
        ("CHF 200.–", "de-CH", Some((200.0, "CHF"))),
        ("₹1,29,999", "en-IN", Some((129_999.0, "INR"))),
        ("¥298,000", "ja", Some((298_000.0, "JPY"))),
        ("¥1,299", "zh-CN", Some((1299.0, "CNY"))),
        ("Por: R$ 2.499,00", "pt-BR", Some((2499.0, "BRL"))),
        ("1 495 kr", "sv-SE", Some((1495.0, "SEK"))),
        ("2.499,00 kr.", "da", Some((2499.0, "DKK"))),
        ("kr 1 299,-", "nb-NO", Some((1299.0, "NOK"))),
        ("249,99 zł", "pl", Some((249.99, "PLN"))),
        ("$249.99", "en-CA", Some((249.99, "CAD"))),
        ("$1,899.00", "es-MX", Some((1899.0, "MXN"))),
        ("C$ 12", "en-US", Some((12.0, "CAD"))),
        ("EUR 12.50", "en", Some((12.5, "EUR"))),
        ("£36.00", "en-GB", Some((36.0, "GBP"))),
        // Three decimals where ISO 4217 says the dinar has them.
        ("BHD 1.250", "ar-BH", Some((1.25, "BHD"))),
        // A crown without a Nordic locale: no one can tell which.
        ("1 495 kr", "en", None),
        ("12 in stock", "en", None),
        ("TTC 45", "fr", None),
        ("TTC 45,00 €", "fr", Some((45.0, "EUR"))),
        ("TOP 10", "en", None),
        // Two prices run together are not one: "15.4915.49" is not 15491.
        ("EUR 15.4915.49", "en", None),
        ("free", "en", None),
    ];
    for (text, lang, want) in cases {
        let got = parse_money(text, &Locale::parse(lang)).map(|m| (m.amount, m.currency.unwrap()));
        assert_eq!(got, *want, "{text:?} in {lang}");
    }
}

#[test]
fn availability_names_from_structured_data() {
    let cases: &[(&str, Option<Availability>)] = &[
        ("https://schema.org/InStock", Some(Availability::InStock)),
        ("http://schema.org/InStock", Some(Availability::InStock)),
        ("InStock", Some(Availability::InStock)),
        ("instock", Some(Availability::InStock)),
        ("in_stock", Some(Availability::InStock)),
        ("https://schema.org/SoldOut", Some(Availability::OutOfStock)),
        ("SoldOut", Some(Availability::OutOfStock)),
        ("NOT SOLD", Some(Availability::OutOfStock)),
        ("OutOfStock", Some(Availability::OutOfStock)),
        ("schema:PreOrder", Some(Availability::PreOrder)),
        (
            "https://schema.org/BackOrder",
            Some(Availability::BackOrder),
        ),
        (
            "LimitedAvailability",
            Some(Availability::LimitedAvailability),
        ),
        (
            "https://schema.org/Discontinued",
            Some(Availability::Discontinued),
        ),
        ("InStoreOnly", Some(Availability::InStoreOnly)),
        ("Auf Lager", Some(Availability::InStock)),
        ("banana", None),
    ];
    for (raw, want) in cases {
        assert_eq!(Availability::from_schema(raw), *want, "{raw:?}");
    }
}

#[test]
fn availability_from_what_shops_write() {
    use Availability::*;
    let cases: &[(&str, Option<Availability>)] = &[
        ("In Stock", Some(InStock)),
        ("12 in stock", Some(InStock)),
        ("Auf Lager", Some(InStock)),
        ("Nicht auf Lager", Some(OutOfStock)),
        ("En stock", Some(InStock)),
        ("Rupture de stock", Some(OutOfStock)),
        ("Sold out", Some(OutOfStock)),
        ("Currently unavailable.", Some(OutOfStock)),
        ("Agotado temporalmente", Some(OutOfStock)),
        ("Disponibile", Some(InStock)),
        ("Dostępny", Some(InStock)),
        ("Niedostępny", Some(OutOfStock)),
        ("Finns i lager", Some(InStock)),
        ("Slut i lager", Some(OutOfStock)),
        ("På lager – levering 2-4 hverdage", Some(InStock)),
        ("在庫あり", Some(InStock)),
        ("在庫なし", Some(OutOfStock)),
        ("Pre-order", Some(PreOrder)),
        ("Comprar na pré-venda", Some(PreOrder)),
        ("Backorder – ships in 3 weeks", Some(BackOrder)),
        ("Only 3 left", Some(LimitedAvailability)),
        ("Only 3 left in stock", Some(LimitedAvailability)),
        ("Nur noch 2 Stück verfügbar", Some(LimitedAvailability)),
        ("Discontinued", Some(Discontinued)),
        ("Me prévenir du retour en stock", None),
        ("Notify me when back in stock", None),
        ("Tax included.", None),
    ];
    for (text, want) in cases {
        assert_eq!(Availability::from_text(text), *want, "{text:?}");
    }
}

fn read(html: &str) -> Value {
    Value::Object(super::product(&page(html), &[], true).unwrap().fields)
}

#[test]
fn labelled_identifiers_in_their_common_layouts() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "<p>SKU: HT-TEE-NVY-M</p>",
            "HT-TEE-NVY-M",
            "sku",
            "plain line",
        ),
        ("<p>Item # 1734521</p>", "1734521", "sku", "item #"),
        (
            "<li><span>ASIN \u{200f}:\u{200e} </span><span>B0C7XK9Q2M</span></li>",
            "B0C7XK9Q2M",
            "sku",
            "Amazon's marks",
        ),
        (
            "<div><strong>Art.-Nr.</strong><div>BHM-4410</div></div>",
            "BHM-4410",
            "sku",
            "label element and value element",
        ),
        (
            "<dl><dt>Artikelnummer</dt><dd>30412-B</dd></dl>",
            "30412-B",
            "sku",
            "dt/dd",
        ),
        (
            "<table><tr><th>Part number</th><td>PV-250-SS</td></tr><tr><th>Model</th><td>PV250</td></tr></table>",
            "PV-250-SS",
            "sku",
            "part number before model",
        ),
        (
            "<table><tr><th>Part number</th><td>PV-250-SS</td></tr></table>",
            "PV-250-SS",
            "mpn",
            "part number is the mpn",
        ),
        (
            "<p>Item 1734521 Model KJ-2291</p>",
            "1734521",
            "sku",
            "two pairs on a line",
        ),
        (
            "<p>Item 1734521 Model KJ-2291</p>",
            "KJ-2291",
            "mpn",
            "the second pair",
        ),
        ("<p>EAN: 4006381333931</p>", "4006381333931", "gtin", "ean"),
    ];
    for (body, want, key, what) in cases {
        let html =
            format!("<html><body><main><h1>Thing</h1><p>$10.00</p>{body}</main></body></html>");
        assert_eq!(read(&html)[*key], *want, "{what}");
    }
    // A word is not an identifier; a related product's number is not this product's.
    let html = r#"<html><body><h1>Thing</h1><p>$10.00</p><p>Model: Slim</p>
        <section class="related-products"><p>SKU: OTHER-1</p></section></body></html>"#;
    assert_eq!(read(html)["sku"], Value::Null);
    // "Jan 20" is a date, not a JAN code; a button named "brand-…" is not the brand.
    let html = r#"<html><body><main><h1>Thing</h1><p>$10.00</p><p>Jan 20</p>
        <button class="brand-refresh-button">Join event</button></main></body></html>"#;
    let got = read(html);
    assert_eq!((&got["gtin"], &got["brand"]), (&Value::Null, &Value::Null));
}

#[test]
fn the_current_price_is_not_the_old_one_a_related_one_or_shipping() {
    let cases: &[(&str, f64, &str)] = &[
        ("<p><del>$35.00</del> <ins>$28.00</ins></p>", 28.0, "del"),
        (
            "<p><s class='price'>$35.00</s> <span class='price'>$28.00</span></p>",
            28.0,
            "s",
        ),
        (
            "<span class='old-price'>299,99 zł</span><span class='price'>249,99 zł</span>",
            249.99,
            "old-price class",
        ),
        ("<p>Was $1,299.99</p><p>$1,097.99</p>", 1097.99, "was label"),
        (
            "<p>+ £4.99 delivery</p><p>£36.00</p>",
            36.0,
            "shipping line",
        ),
        (
            "<div><span>Por: R$ 2.499,00</span> <span>ou 12x de R$ 208,25</span></div>",
            2499.0,
            "instalments",
        ),
        (
            "<p>Prix au litre : 33,20 €</p><p>24,90 €</p>",
            24.9,
            "unit price",
        ),
        (
            "<p>$19.00</p><section class='related'><p>$5.00</p></section>",
            19.0,
            "related after",
        ),
        ("<p>Cart: $0.00</p><p>$19.00</p>", 19.0, "an empty cart"),
        (
            "<div class='swatches'><span class='swatchElement'>Kindle $9.99</span></div><p>$15.49</p>",
            15.49,
            "another format's swatch",
        ),
        (
            "<span class='a-price'><span class='a-offscreen'>$15.49</span><span aria-hidden='true'>15.49</span></span><p>$15.49</p>",
            15.49,
            "a screen-reader copy beside the shown digits",
        ),
    ];
    for (body, want, what) in cases {
        let html = format!(
            "<html><body><main><section class='related-top'><p>$1.00</p></section><h1>Thing</h1>{body}</main></body></html>"
        );
        assert_eq!(read(&html)["price"].as_f64(), Some(*want), "{what}");
    }
}

#[test]
fn the_stock_state_is_the_main_products() {
    let html = r#"<html><body><main><h1>Tee</h1><p>$28.00</p>
        <fieldset><label>XL <span>Sold out</span></label></fieldset>
        <form><button type="submit" name="add">Add to cart</button></form>
        <section class="related-products"><span>Sold out</span></section></main></body></html>"#;
    assert_eq!(read(html)["availability"], "InStock");
    let disabled = r#"<html><body><h1>Bag</h1><p>1 299,00 €</p>
        <button class="add-to-cart" disabled>Ajouter au panier</button></body></html>"#;
    assert_eq!(read(disabled)["availability"], "OutOfStock");
}

#[test]
fn scope_finds_the_product_heading() {
    let p = page("<html><body><nav><h1>Shop</h1></nav><main><h1>Lamp</h1></main></body></html>");
    let scope = Scope::of(&p);
    assert_eq!(
        scope.heading.map(crate::page::dom::flat_text).as_deref(),
        Some("Lamp")
    );
}

/// The labels of one fixture page (see `tests/fixtures/products/README.md`).
#[derive(serde::Deserialize)]
struct Label {
    set: String,
    structured_data: bool,
    name: Value,
    brand: Value,
    sku: Value,
    price: f64,
    currency: Value,
    availability: Value,
}

#[test]
fn every_fixture_page_answers_its_labels() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/products");
    let labels: BTreeMap<String, Label> =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/labels.json")).unwrap())
            .unwrap();
    assert!(labels.len() >= 24, "at least 24 labelled pages");
    assert!(labels.values().filter(|l| !l.structured_data).count() >= 12);
    assert!(labels.values().filter(|l| l.set == "later").count() >= 8);
    let mut wrong = Vec::new();
    for (file, label) in &labels {
        let html = std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
        let has_markup = html.contains("application/ld+json")
            || html.contains("itemscope")
            || html.contains("og:price")
            || html.contains("product:price");
        assert_eq!(
            has_markup, label.structured_data,
            "{file}: structured_data label"
        );
        let got = super::product(
            &page(&html),
            &crate::read::structured::items(&page(&html)),
            true,
        )
        .map(|p| Value::Object(p.fields))
        .unwrap();
        let fields = [
            ("name", &label.name),
            ("brand", &label.brand),
            ("sku", &label.sku),
            ("currency", &label.currency),
            ("availability", &label.availability),
        ];
        for (key, want) in fields {
            if &got[key] != want {
                wrong.push(format!("{file}: {key} = {}, want {want}", got[key]));
            }
        }
        if got["price"].as_f64() != Some(label.price) {
            wrong.push(format!(
                "{file}: price = {}, want {}",
                got["price"], label.price
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn each_key_names_the_rule_that_found_it() {
    // schema.org gives the name and the offer's price; OpenGraph the brand; the page the
    // availability it shows beside the heading.
    let html = r#"<html><head>
        <script type="application/ld+json">{"@type":"Product","name":"Trail lantern","offers":{"@type":"Offer","price":"49.00","priceCurrency":"EUR"}}</script>
        <meta property="og:type" content="product"><meta property="product:brand" content="Lumo">
        </head><body><h1>Trail lantern</h1><p class="stock">In stock</p></body></html>"#;
    let shop = page(html);
    let product = super::product(&shop, &crate::read::structured::items(&shop), false).unwrap();
    let rule = |key: &str| product.rules.get(key).copied();
    assert_eq!(rule("name"), Some("schema_org_product"));
    assert_eq!(rule("price"), Some("schema_org_offer"));
    assert_eq!(rule("currency"), Some("schema_org_offer"));
    assert_eq!(rule("brand"), Some("opengraph"));
    assert_eq!(rule("availability"), Some("shown_on_page"), "{product:?}");
    assert_eq!(rule("gtin"), None);
    // OpenGraph's title with the shop's name gives way to the heading.
    let html = r#"<html><head><meta property="og:type" content="product">
        <meta property="og:title" content="Trail lantern | Lumo shop"></head>
        <body><h1>Trail lantern</h1><p>€49.00</p></body></html>"#;
    let product = super::product(&page(html), &[], false).unwrap();
    assert_eq!(product.fields["name"], "Trail lantern");
    assert_eq!(product.rules.get("name").copied(), Some("visible_heading"));
}
