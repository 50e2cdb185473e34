//! Collapsed disclosure widgets: accordions and tabs.
//!
//! Product and service pages fold their description, specifications and FAQ into
//! accordions or tabs whose inactive panels are hidden with `display:none` or `hidden`
//! until clicked. That text is the page's content (a reader opens the panel), so a hidden
//! panel is kept, and the button that opens it is kept as the panel's heading.

use scraper::ElementRef;

/// A hidden element that is (or directly wraps) the panel of an accordion or a tab.
pub(crate) fn is_collapsed_panel(element: ElementRef<'_>) -> bool {
    is_panel(element)
        || element
            .children()
            .filter_map(ElementRef::wrap)
            .next()
            .is_some_and(is_panel)
}

/// A hidden element a click shows: a collapsed panel, or an element whose visibility a
/// script framework toggles (`x-show`, `v-show`, `ng-show`, `ng-hide`) — the rows after
/// "Show all", the inactive tab of a table.
pub(crate) fn is_shown_on_demand(element: ElementRef<'_>) -> bool {
    const TOGGLES: &[&str] = &["x-show", "v-show", "ng-show", "ng-hide", "data-ng-show"];
    is_collapsed_panel(element) || TOGGLES.iter().any(|t| element.value().attr(t).is_some())
}

/// Whether a hidden element is the page's main content waiting for its scripts: a direct
/// child of `<main>` (or `role=main`). A page does not ship its main content hidden for good;
/// a content lock or a fade-in shows it once scripts run (Shopify's lockdown apps wrap the
/// whole collection in `display:none`).
pub(crate) fn is_main_content_gate(element: ElementRef<'_>) -> bool {
    element
        .parent()
        .and_then(ElementRef::wrap)
        .is_some_and(|parent| {
            parent.value().name() == "main" || parent.value().attr("role") == Some("main")
        })
}

fn is_panel(element: ElementRef<'_>) -> bool {
    let el = element.value();
    if el
        .attr("role")
        .is_some_and(|r| matches!(r, "tabpanel" | "region"))
    {
        return true;
    }
    el.classes().any(|class| {
        let class = class.to_ascii_lowercase();
        class.split(['-', '_']).any(|part| {
            matches!(
                part,
                "accordion" | "collapse" | "collapsible" | "tabpanel" | "panel" | "pane"
            )
        })
    })
}

/// A button that opens a panel (`aria-expanded` / `aria-controls`): its label is the
/// panel's heading, unlike "Add to cart" or "Share" buttons.
pub(crate) fn is_panel_toggle(element: ElementRef<'_>) -> bool {
    let el = element.value();
    el.name() == "button"
        && (el.attr("aria-expanded").is_some() || el.attr("aria-controls").is_some())
}
