//! Where the main product sits on a page: its heading, the document order used to find
//! what is nearest to it, and the blocks that show other products (related items, carousels,
//! other sellers) or one variant (a size picker) rather than the product itself.

use std::collections::HashMap;

use ego_tree::NodeId;
use scraper::ElementRef;

use crate::page::Page;
use crate::page::chrome::{in_chrome, is_hidden};
use crate::page::interrupt::SelectChecked;
use crate::static_selector;

/// Parts of a class or id that mark a block of other products. Matched as substrings of the
/// lower-cased name, so `related-products`, `block related` and `sims-consolidated` all count.
const OTHER_PRODUCT_MARKERS: &[&str] = &[
    "related",
    "recommend",
    "upsell",
    "up-sell",
    "crosssell",
    "cross-sell",
    "carousel",
    "slider",
    "swiper",
    "slick",
    "similar",
    "also-",
    "accessor",
    "bought",
    "sims-",
    "you-may",
    "youmay",
    "other-offers",
    "more-offers",
    "recently",
    "viewed",
    "bundle",
    // The same in the shop languages of the fixtures and beyond.
    "correlati",
    "similaires",
    "polecane",
    "aehnlich",
    "relacionados",
    "gerelateerd",
    "liknande",
];

/// Parts of a class or id that mark a variant picker (one size, one colour).
const VARIANT_MARKERS: &[&str] = &[
    "swatch", "variant", "size", "option", "picker", "selector", "taglia", "taglie", "talla",
    "groesse", "größe", "maat",
];

/// Classes of text meant only for screen readers: a second copy of what the page shows.
const SCREEN_READER_MARKERS: &[&str] =
    &["offscreen", "sr-only", "visually-hidden", "screen-reader"];

/// The page's main product heading and the document order of its elements.
pub(super) struct Scope<'a> {
    /// The visible product title (`#productTitle`, `[itemprop=name]` or the first `<h1>`).
    pub heading: Option<ElementRef<'a>>,
    order: HashMap<NodeId, usize>,
}

impl<'a> Scope<'a> {
    /// The scope of a page's main product.
    pub(super) fn of(page: &'a Page) -> Self {
        let order = page
            .document
            .root_element()
            .descendants()
            .enumerate()
            .map(|(i, node)| (node.id(), i))
            .collect();
        Self {
            heading: main_heading(page),
            order,
        }
    }

    fn position(&self, el: ElementRef<'_>) -> usize {
        self.order.get(&el.id()).copied().unwrap_or(usize::MAX)
    }

    /// The candidate that belongs to the main product: within the smallest block around the
    /// heading that holds any candidate, the first one after the heading (a price or a stock
    /// line follows the title), else the last one before it. Candidates come in document
    /// order; without a heading the first one wins.
    pub(super) fn nearest<T: Clone>(&self, candidates: &[(ElementRef<'a>, T)]) -> Option<T> {
        self.nearest_within(candidates, usize::MAX)
    }

    /// [`Scope::nearest`] looking at most `levels` blocks above the heading; with a heading,
    /// None when no candidate is that close.
    pub(super) fn nearest_within<T: Clone>(
        &self,
        candidates: &[(ElementRef<'a>, T)],
        levels: usize,
    ) -> Option<T> {
        let Some(heading) = self.heading else {
            return candidates.first().map(|(_, v)| v.clone());
        };
        let after = self.position(heading);
        let unbounded = levels == usize::MAX;
        for container in std::iter::once(heading)
            .chain(heading.ancestors().filter_map(ElementRef::wrap))
            .take(levels.saturating_add(1))
        {
            let inside: Vec<&(ElementRef<'a>, T)> = candidates
                .iter()
                .filter(|(el, _)| {
                    el.id() == container.id() || el.ancestors().any(|a| a.id() == container.id())
                })
                .collect();
            if let Some(first_after) = inside.iter().find(|(el, _)| self.position(*el) > after) {
                return Some(first_after.1.clone());
            }
            if let Some(last_before) = inside.last() {
                return Some(last_before.1.clone());
            }
        }
        // A heading outside every candidate's block (a page-level title): the first one.
        unbounded
            .then(|| candidates.first().map(|(_, v)| v.clone()))
            .flatten()
    }
}

/// The element itself and its ancestors, nearest first.
pub(super) fn self_and_ancestors(el: ElementRef<'_>) -> impl Iterator<Item = ElementRef<'_>> {
    std::iter::once(el).chain(el.ancestors().filter_map(ElementRef::wrap))
}

/// Lower-cased class and id names of an element.
pub(super) fn names(el: ElementRef<'_>) -> impl Iterator<Item = String> + '_ {
    el.value()
        .id()
        .into_iter()
        .chain(el.value().classes())
        .map(str::to_lowercase)
}

/// Inside a block of other products (related items, carousels, other offers).
pub(super) fn in_other_product(el: ElementRef<'_>) -> bool {
    self_and_ancestors(el)
        .any(|a| names(a).any(|name| OTHER_PRODUCT_MARKERS.iter().any(|m| name.contains(m))))
}

/// Inside a variant picker: a choice control (a select, a radio, its label) or a block
/// named after sizes, swatches, options. A submit or button input is not a choice.
pub(super) fn in_variant_picker(el: ElementRef<'_>) -> bool {
    self_and_ancestors(el).any(|a| {
        let is_choice_input = a.value().name() == "input"
            && !matches!(a.value().attr("type"), Some("submit" | "button"));
        is_choice_input
            || matches!(a.value().name(), "select" | "option" | "fieldset" | "label")
            || names(a).any(|name| names_variant(&name))
    })
}

/// Type sizes in class names (`a-size-medium`, `text-size-lg`): typography, not a picker.
const TYPE_SIZES: &[&str] = &[
    "small", "medium", "large", "base", "mini", "micro", "xs", "sm", "md", "lg", "xl",
];

/// Whether a class or id names a variant picker: a part that starts with a marker
/// (`frame-sizes`, `swatchElement`), unless a type size follows it.
fn names_variant(name: &str) -> bool {
    let parts: Vec<&str> = name.split(['-', '_', ' ']).collect();
    parts.iter().enumerate().any(|(i, part)| {
        // `swatchElement`, `sizes`, `variant-picker`: a part that starts with a marker.
        VARIANT_MARKERS.iter().any(|m| part.starts_with(m))
            && !parts
                .get(i + 1)
                .is_some_and(|next| TYPE_SIZES.contains(next))
    })
}

/// Not seen by a reader: page chrome, hidden, or text only for screen readers.
pub(super) fn unseen(el: ElementRef<'_>) -> bool {
    in_chrome(el)
        || self_and_ancestors(el).any(|a| {
            is_hidden(a)
                || matches!(
                    a.value().name(),
                    "script" | "style" | "template" | "noscript"
                )
                || names(a).any(|name| SCREEN_READER_MARKERS.iter().any(|m| name.contains(m)))
        })
}

/// Text of an element with its text pieces joined by spaces (`<dt>SKU</dt><dd>1</dd>` →
/// "SKU 1"), direction marks dropped, whitespace collapsed.
pub(super) fn spaced_text(el: ElementRef<'_>) -> String {
    short_text(el, usize::MAX, " ").unwrap_or_default()
}

/// The text a reader sees in a short element, its pieces joined by `joiner`, direction marks
/// dropped, whitespace collapsed; scripts, hidden parts and screen-reader copies ("EUR 15.49"
/// beside the shown "15.49") left out. None once it holds more than `max_chars` visible
/// characters (read for every element of a page, so a long one is not collected whole).
pub(super) fn short_text(el: ElementRef<'_>, max_chars: usize, joiner: &str) -> Option<String> {
    use ego_tree::iter::Edge;
    let mut out = String::new();
    let mut visible = 0usize;
    let mut pieces = 0usize;
    let mut skipping: Option<NodeId> = None;
    for edge in el.traverse() {
        match edge {
            Edge::Open(node) => {
                if skipping.is_some() {
                    continue;
                }
                if let Some(child) = ElementRef::wrap(node) {
                    if child.id() != el.id() && is_unread(child) {
                        skipping = Some(node.id());
                    }
                    continue;
                }
                let Some(text) = node.value().as_text() else {
                    continue;
                };
                if pieces > 0 {
                    out.push_str(joiner);
                }
                pieces += 1;
                for c in text.chars() {
                    if matches!(c, '\u{200e}' | '\u{200f}' | '\u{200b}' | '\u{feff}') {
                        continue;
                    }
                    if !c.is_whitespace() {
                        visible += 1;
                        if visible > max_chars {
                            return None;
                        }
                    }
                    out.push(c);
                }
            }
            Edge::Close(node) => {
                if skipping == Some(node.id()) {
                    skipping = None;
                }
            }
        }
    }
    Some(crate::page::dom::collapse_whitespace(&out))
}

/// An element whose text a reader does not see: a script, a hidden part, a screen-reader copy.
fn is_unread(el: ElementRef<'_>) -> bool {
    matches!(
        el.value().name(),
        "script" | "style" | "noscript" | "template"
    ) || is_hidden(el)
        || names(el).any(|name| SCREEN_READER_MARKERS.iter().any(|m| name.contains(m)))
}

/// The product title element: a shop's title element, else the first visible `<h1>`
/// (screen-reader-only headings like "Product summary" are skipped).
pub(super) fn main_heading(page: &Page) -> Option<ElementRef<'_>> {
    let doc = &page.document;
    doc.select_checked(static_selector!("#productTitle, [itemprop=name]"))
        .chain(doc.select_checked(static_selector!("h1")))
        .filter(|el| el.value().name() != "meta" && !unseen(*el))
        .find(|el| {
            let text = crate::page::dom::flat_text(*el);
            !text.is_empty() && text.chars().count() <= 300
        })
}
