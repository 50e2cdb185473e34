//! Availability as schema.org names it, from structured data ("https://schema.org/SoldOut",
//! "instock", "NOT SOLD") or the words a shop shows ("Nicht auf Lager", "Only 3 left",
//! "Rupture de stock"), read from the main product's buy box rather than a related item or
//! one variant.

use std::sync::OnceLock;

use regex::Regex;
use scraper::ElementRef;

use super::scope::{
    Scope, in_other_product, in_variant_picker, names, short_text, spaced_text, unseen,
};
use crate::page::Page;
use crate::page::interrupt::SelectChecked;
use crate::static_selector;

/// A schema.org `ItemAvailability` value. `SoldOut` is answered as `OutOfStock`: both say
/// the product cannot be bought now, and one name per state is what a caller compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Availability {
    /// Can be bought now.
    InStock,
    /// Cannot be bought now (also schema.org's `SoldOut`).
    OutOfStock,
    /// Can be ordered before it is released.
    PreOrder,
    /// Sold before release, in a limited pre-sale.
    PreSale,
    /// Can be ordered; it ships when restocked.
    BackOrder,
    /// Few left.
    #[allow(
        clippy::enum_variant_names,
        reason = "schema.org's name, which callers compare"
    )]
    LimitedAvailability,
    /// No longer made or sold.
    Discontinued,
    /// Only in shops.
    InStoreOnly,
    /// Only online.
    OnlineOnly,
    /// Set aside for someone.
    Reserved,
    /// Made once ordered.
    MadeToOrder,
}

impl Availability {
    /// The schema.org name: `InStock`, `OutOfStock`, …
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InStock => "InStock",
            Self::OutOfStock => "OutOfStock",
            Self::PreOrder => "PreOrder",
            Self::PreSale => "PreSale",
            Self::BackOrder => "BackOrder",
            Self::LimitedAvailability => "LimitedAvailability",
            Self::Discontinued => "Discontinued",
            Self::InStoreOnly => "InStoreOnly",
            Self::OnlineOnly => "OnlineOnly",
            Self::Reserved => "Reserved",
            Self::MadeToOrder => "MadeToOrder",
        }
    }

    /// A structured-data value: a schema.org URL or name in any case and spelling
    /// (`http://schema.org/InStock`, `instock`, `in_stock`, `SoldOut`, `NOT SOLD`), else the
    /// words of [`Availability::from_text`].
    pub fn from_schema(raw: &str) -> Option<Self> {
        let local = raw.trim().rsplit(['/', '#', ':']).next().unwrap_or(raw);
        let key: String = local
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        let found = match key.as_str() {
            "instock" | "available" | "yes" | "true" | "onstock" => Self::InStock,
            "outofstock" | "soldout" | "notsold" | "oos" | "unavailable" | "nostock"
            | "notavailable" | "false" | "no" => Self::OutOfStock,
            "preorder" | "pending" => Self::PreOrder,
            "presale" => Self::PreSale,
            "backorder" | "backordered" => Self::BackOrder,
            "limitedavailability" | "limited" | "lowstock" => Self::LimitedAvailability,
            "discontinued" => Self::Discontinued,
            "instoreonly" => Self::InStoreOnly,
            "onlineonly" => Self::OnlineOnly,
            "reserved" => Self::Reserved,
            "madetoorder" => Self::MadeToOrder,
            _ => return Self::from_text(raw),
        };
        Some(found)
    }

    /// What a stock line or a buy button says, in the languages shops write it in. Phrases
    /// that contain another ("nicht auf Lager" holds "auf Lager") are tried first.
    pub fn from_text(text: &str) -> Option<Self> {
        let lower = text.to_lowercase();
        let has = |phrases: &[&str]| phrases.iter().any(|p| lower.contains(p));
        if has(NOTIFY_PHRASES) {
            return None;
        }
        if has(PRE_ORDER) {
            return Some(Self::PreOrder);
        }
        if has(BACK_ORDER) {
            return Some(Self::BackOrder);
        }
        if has(DISCONTINUED) {
            return Some(Self::Discontinued);
        }
        if has(OUT_OF_STOCK) {
            return Some(Self::OutOfStock);
        }
        if few_left().is_match(&lower) {
            return Some(Self::LimitedAvailability);
        }
        if has(&[
            "in store only",
            "in-store only",
            "only in store",
            "nur im markt",
            "nur in der filiale",
        ]) {
            return Some(Self::InStoreOnly);
        }
        if has(&["online only", "nur online"]) {
            return Some(Self::OnlineOnly);
        }
        has(IN_STOCK).then_some(Self::InStock)
    }
}

/// "Tell me when it is back": about a future state, not the current one.
const NOTIFY_PHRASES: &[&str] = &[
    "back in stock",
    "notify me",
    "email me when",
    "retour en stock",
    "me prévenir",
    "wieder verfügbar",
    "benachrichtig",
    "avvisami",
    "avísame",
    "avise-me",
];

const PRE_ORDER: &[&str] = &[
    "pre-order",
    "preorder",
    "pre order",
    "pré-venda",
    "pre-venda",
    "pré-commande",
    "précommande",
    "precommande",
    "précommander",
    "vorbestell",
    "preventa",
    "pre-venta",
    "preordina",
    "przedsprzedaż",
    "förhandsboka",
    "förbeställ",
    "予約",
];

const BACK_ORDER: &[&str] = &[
    "backorder",
    "back-order",
    "back order",
    "nachbestellt",
    "in nachlieferung",
    "en réapprovisionnement",
    "restocking",
];

const DISCONTINUED: &[&str] = &[
    "discontinued",
    "no longer available",
    "nicht mehr erhältlich",
    "nicht mehr lieferbar",
    "fuori produzione",
    "descatalogado",
    "n'est plus disponible",
    "販売終了",
];

/// What shops write for an item that cannot be bought now, in the languages they write in
/// (lowercase; phrases holding another, "not in stock", are here).
pub const OUT_OF_STOCK: &[&str] = &[
    "out of stock",
    "sold out",
    "soldout",
    "currently unavailable",
    "unavailable",
    "not available",
    "not in stock",
    "not sold",
    "nicht auf lager",
    "nicht verfügbar",
    "nicht lieferbar",
    "ausverkauft",
    "vergriffen",
    "rupture de stock",
    "épuisé",
    "epuise",
    "indisponible",
    "esaurito",
    "non disponibile",
    "agotado",
    "sin stock",
    "no disponible",
    "fuera de stock",
    "esgotado",
    "indisponível",
    "sem estoque",
    "uitverkocht",
    "niet op voorraad",
    "niet leverbaar",
    "niedostępny",
    "brak w magazynie",
    "wyprzedany",
    "slut i lager",
    "slutsåld",
    "ikke på lager",
    "udsolgt",
    "utsolgt",
    "在庫なし",
    "在庫切れ",
    "売り切れ",
    "品切れ",
];

/// What shops write for an item that can be bought now (lowercase).
pub const IN_STOCK: &[&str] = &[
    "in stock",
    "instock",
    "available",
    "ready to ship",
    "auf lager",
    "lieferbar",
    "verfügbar",
    "en stock",
    "disponible",
    "disponibile",
    "in magazzino",
    "en existencia",
    "em estoque",
    "disponível",
    "op voorraad",
    "leverbaar",
    "dostępny",
    "w magazynie",
    "i lager",
    "på lager",
    "在庫あり",
];

/// "Only 3 left", "Nur noch 2 Stück", "Plus que 1", "Solo 2 disponibili", "Endast 3 kvar".
fn few_left() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        #[allow(clippy::expect_used, reason = "a constant pattern, covered by the tests")]
        Regex::new(
            r"only \d+ left|only \d+ in stock|few left|low stock|limited stock|nur noch \d+|plus que \d+|il ne reste que \d+|solo \d+ disponibil|ultim[ie] \d+|últimas? \d+|quedan \d+|nog \d+ (?:op voorraad|beschikbaar)|tylko \d+|endast \d+ kvar|kun \d+ tilbage|bare \d+ igjen|残りわずか|残り\d+",
        )
        .expect("few-left pattern")
    })
}

/// Longest text read as a stock line; longer text is a description.
const MAX_STOCK_LINE: usize = 80;

/// The main product's availability as the page shows it: its stock line, else its buy
/// button (a disabled one is out of stock, an enabled one in stock, unless its words say
/// "Pre-order" or "Sold out").
///
/// A button whose words name a state ("Pre-order", "Sold out") says what a click does and
/// wins over a stock line ("Available to ship on release date").
pub(crate) fn shown_availability(page: &Page, scope: &Scope<'_>) -> Option<Availability> {
    let button = buy_button(page, scope);
    if let Some((state, true)) = button {
        return Some(state);
    }
    stock_line(page, scope).or(button.map(|(state, _)| state))
}

fn stock_line(page: &Page, scope: &Scope<'_>) -> Option<Availability> {
    let mut candidates: Vec<(ElementRef<'_>, Availability)> = Vec::new();
    for el in page.document.select_checked(static_selector!("body *")) {
        if matches!(el.value().name(), "button" | "a" | "script" | "style") {
            continue;
        }
        let Some(text) = short_text(el, MAX_STOCK_LINE, " ") else {
            continue;
        };
        if text.is_empty() || text.chars().count() > MAX_STOCK_LINE {
            continue;
        }
        let Some(found) = Availability::from_text(&text) else {
            continue;
        };
        // Innermost only: the `<strong>Dostępny</strong>`, not its paragraph too.
        let child_says = el
            .children()
            .filter_map(ElementRef::wrap)
            .any(|c| Availability::from_text(&spaced_text(c)).is_some());
        if child_says
            || unseen(el)
            || in_other_product(el)
            || in_variant_picker(el)
            || el
                .ancestors()
                .filter_map(ElementRef::wrap)
                .any(|a| matches!(a.value().name(), "button" | "a"))
        {
            continue;
        }
        candidates.push((el, found));
    }
    scope.nearest(&candidates)
}

/// Words of a buy button's text, class, id or name.
const BUY_WORDS: &[&str] = &[
    "cart",
    "basket",
    "bag",
    "buy",
    "tocart",
    "warenkorb",
    "kaufen",
    "panier",
    "carrello",
    "cesta",
    "koszyk",
    "varukorg",
    "winkelwagen",
    "カート",
    "comprar",
    "order",
    "checkout",
];

/// The main buy button's state, and whether its words name it (else it is read from the
/// button being enabled or disabled).
fn buy_button(page: &Page, scope: &Scope<'_>) -> Option<(Availability, bool)> {
    let mut candidates: Vec<(ElementRef<'_>, (Availability, bool))> = Vec::new();
    for el in page.document.select_checked(static_selector!(
        "button, input[type=submit], input[type=button], a[class*=cart], a[class*=buy]"
    )) {
        let text = spaced_text(el);
        let label = el.value().attr("value").unwrap_or_default();
        let said = format!("{text} {label}").to_lowercase();
        let named: String = names(el)
            .chain(el.value().attr("name").map(str::to_lowercase))
            .collect::<Vec<_>>()
            .join(" ");
        let is_buy = BUY_WORDS
            .iter()
            .any(|w| said.contains(w) || named.contains(w));
        if !is_buy || unseen(el) || in_other_product(el) || in_variant_picker(el) {
            continue;
        }
        let disabled = el.value().attr("disabled").is_some()
            || el.value().attr("aria-disabled") == Some("true")
            || named.split([' ', '-', '_']).any(|w| w == "disabled");
        let state = match Availability::from_text(&said) {
            Some(named) => (named, true),
            None if disabled => (Availability::OutOfStock, false),
            None => (Availability::InStock, false),
        };
        candidates.push((el, state));
    }
    scope.nearest(&candidates)
}
