//! `nav.*`: where a page leads — the next page of a paginated list, each record's own page.
//! Adapters over `read::navigation`; fetching the linked page is the run's job.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use url::Url;

use super::registry::{Effect, Tool, ToolError, ToolParams};
use super::workspace::Workspace;
use crate::read::navigation::item_link;

/// The `nav` namespace, in catalog order.
pub fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "The link to the next page of this page's list, on the same site unless `cross_origin`: `rel=next`, a link reading Next / › / » / Older posts (preferably inside a pagination bar), or the number after the current page in a numbered bar.",
            "{url (absolute), page (its number when the link or URL says), evidence (how it was found)}; fails when the page links to no next page.",
            Effect::Observe,
            next_page,
        ),
        Tool::new(
            "The link to each record's own page, for the records the plan has built so far: the record's `url`/`link`/`href` field, else its first web address that is not a picture; on the page's origin unless `cross_origin`.",
            "Array, one per record: {item (index), url (absolute) or null, field (where it came from), refused (why it is not followed, when it is not)}.",
            Effect::Observe,
            item_links,
        ),
    ]
}

/// Params of `nav.item_links`.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ItemLinksParams {
    /// Also accept links to another origin (scheme, host, port); off by default.
    #[serde(default)]
    pub cross_origin: bool,
}

impl ToolParams for ItemLinksParams {
    const TOOL: &'static str = "nav.item_links";
}

fn item_links(ws: &mut Workspace<'_>, params: ItemLinksParams) -> Result<Value, ToolError> {
    let Value::Array(records) = &ws.value else {
        return Err(ToolError::Failed(
            "nav.item_links: the plan has built no list of records yet (run extract.records or extract.fields first)".into(),
        ));
    };
    let origin = ws.page.url.origin();
    let links: Vec<ItemLinkRow> = records
        .iter()
        .take(ws.limits.max_items)
        .enumerate()
        .map(|(item, record)| {
            let link = item_link(record);
            let refused = match &link {
                None => Some("the record has no link to its own page"),
                Some(l)
                    if !params.cross_origin
                        && Url::parse(&l.url).is_ok_and(|u| u.origin() != origin) =>
                {
                    Some("the item's page is on another site")
                }
                Some(_) => None,
            };
            ItemLinkRow {
                item,
                url: link.as_ref().map(|l| l.url.clone()),
                field: link.map(|l| l.field),
                refused,
            }
        })
        .collect();
    serde_json::to_value(links).map_err(|e| ToolError::Failed(format!("nav.item_links: {e}")))
}

/// One row of `nav.item_links`.
#[derive(Debug, Serialize)]
struct ItemLinkRow {
    item: usize,
    url: Option<String>,
    field: Option<String>,
    refused: Option<&'static str>,
}

/// Params of `nav.next_page`.
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NextPageParams {
    /// Also accept a next link to another origin (scheme, host, port); off by default.
    #[serde(default)]
    pub cross_origin: bool,
}

impl ToolParams for NextPageParams {
    const TOOL: &'static str = "nav.next_page";
}

fn next_page(ws: &mut Workspace<'_>, params: NextPageParams) -> Result<Value, ToolError> {
    let found = crate::read::navigation::next_page(ws.page, params.cross_origin)
    .ok_or_else(|| {
        ToolError::Failed(
            "nav.next_page: the page links to no next page on the same site (no rel=next, no Next / › link, no number after the current page)".into(),
        )
    })?;
    serde_json::to_value(found).map_err(|e| ToolError::Failed(format!("nav.next_page: {e}")))
}
