//! Records: the main list of a page, found by its repeated structure, each record turned into
//! a row with every field it shows.
//!
//! Detection mines data records from repeated sibling subtrees: the element children of every
//! container are clustered by tag and by the shape of their subtrees (the set of tag paths
//! below them), so items that share a shape but not a class name still group. A cluster whose
//! members are always followed by members of other clusters in the same order (a title row
//! and a detail row, `<dt>` and `<dd>`) makes records of several elements. Lists that repeat
//! inside the items of another list (the cards of a grid's rows) are merged across their
//! parents. Each candidate list is scored by what it holds — text per record, fields per
//! record, how much of it is links — and lists in page chrome or made of bare links and prose
//! paragraphs lose. Alignment (see `align`) turns the chosen records into columns.

mod align;
mod shape;
mod stats;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use ego_tree::NodeId;
use scraper::ElementRef;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::page::Page;
use crate::page::chrome::is_chrome_element;
use crate::page::disclosure::{is_main_content_gate, is_shown_on_demand};
use crate::page::dom::simple_selector;

pub use align::{Column, ColumnKind, NameSource};
use shape::{Shape, containment, similarity};
use stats::{Counts, RecordStats};

/// Most sections a page made of sections has (see `lists_of_sections`).
const MAX_SECTIONS: usize = 16;
/// Share of the sections' score their inner lists must reach together to be the answer.
const SECTION_LISTS_SHARE: f64 = 0.3;
/// Fewest records a list must have.
const MIN_RECORDS: usize = 3;
/// Characters of one record that count toward its list's score: past it, a few long records
/// (articles, comment threads) do not outweigh a list of many.
const RECORD_CHARS_CAP: usize = 600;
/// Shape similarity at which two siblings of the same tag are records of one list, when
/// their classes agree.
const SAME_SHAPE: f64 = 0.5;
/// Distinct link targets per record, on average, from which records that are mostly link
/// text are groups of links rather than records.
const LINK_GROUP_LINKS: f64 = 10.0;
/// Kinds of children told apart under one parent, at most.
const MAX_CLUSTERS: usize = 64;
/// Shape similarity at which they are, whatever their classes (zebra rows `odd`/`even`).
const CLOSE_SHAPE: f64 = 0.8;
/// Share of one sibling's shape the other holds at which two siblings whose classes agree
/// are records of one list, one with more inside (a promotion, a second price).
const CONTAINED_SHAPE: f64 = 0.9;

/// The main list of a page, as rows.
#[derive(Debug, Clone, Serialize)]
pub struct RecordList {
    /// A CSS selector for the first element of each record, when one short selector matches
    /// exactly them.
    pub selector: Option<String>,
    /// The rows, at most the cap given to [`find`].
    pub records: Vec<Map<String, Value>>,
    /// Records on the page (before the cap).
    pub total: usize,
    /// Elements that make up one record (2 for a title row followed by a detail row).
    pub elements_per_record: usize,
    /// The columns, in page order, with where each name came from.
    pub columns: Vec<Column>,
    /// How strongly this list won (its score, and the runner-up's).
    pub score: f64,
    /// The next best lists that do not overlap this one, best first (at most three).
    pub alternatives: Vec<Alternative>,
}

impl RecordList {
    /// The share of the rows' cells that hold a value (a list that aligned well fills most).
    pub fn filled_share(&self) -> f64 {
        let cells: usize = self.records.iter().map(Map::len).sum();
        let filled = self
            .records
            .iter()
            .flat_map(|r| r.values())
            .filter(|v| !v.is_null())
            .count();
        if cells == 0 {
            0.0
        } else {
            filled as f64 / cells as f64
        }
    }
}

/// Another list the page has, for evidence (and for a planner that wants a second choice).
#[derive(Debug, Clone, Serialize)]
pub struct Alternative {
    /// Where it is: the tags and classes of the records' parent and of a record.
    pub path: String,
    /// Its records.
    pub count: usize,
    /// Its score.
    pub score: f64,
    /// The start of its first record's text.
    pub sample: String,
}

/// A possible list: records of one or more sibling elements each.
#[derive(Debug, Clone)]
struct Candidate {
    records: Vec<Vec<NodeId>>,
    /// Where its records sit (the parent's tag path), to merge lists repeated across parents.
    key: String,
    score: f64,
    /// It sits in the page's chrome (header, navigation, footer, a menu, a dialog).
    chrome: bool,
}

/// Finds the main list of `page` and reads its records, keeping at most `max_records`.
/// `None` when the page has no list of at least three records.
pub fn find(page: &Page, max_records: usize) -> Option<RecordList> {
    let ranked = Ranked::of(page)?;
    let best = ranked.main();
    let alternatives = ranked
        .others(&best, 3)
        .into_iter()
        .map(|c| describe(page, c))
        .collect();
    Some(read(page, &best, max_records, alternatives))
}

/// Every list of records the page shows, the main one first: the lists that do not overlap
/// it or each other, outside the page's chrome (menus, header, footer, consent banners), whose
/// score is at least [`OTHER_LIST_SHARE`] of the main list's and whose records read as rows
/// (see [`reads_as_rows`]). Each keeps at most `max_records`.
pub fn find_all(page: &Page, max_records: usize) -> Vec<RecordList> {
    let Some(ranked) = Ranked::of(page) else {
        return Vec::new();
    };
    let best = ranked.main();
    let floor = best.score * OTHER_LIST_SHARE;
    let others = ranked
        .others(&best, usize::MAX)
        .into_iter()
        .filter(|c| c.score >= floor && !c.chrome)
        .map(|c| read(page, c, max_records, Vec::new()))
        .filter(reads_as_rows);
    std::iter::once(read(page, &best, max_records, Vec::new()))
        .chain(others)
        .filter(|list| !list.records.is_empty())
        .collect()
}

/// One of the page's lists, as the outline shows it: each record's elements, how much it
/// looks like the page's content list, and whether it sits in the page's chrome.
#[derive(Debug, Clone)]
pub struct ListFound {
    /// The elements of each record, in page order (the first one starts the record).
    pub records: Vec<Vec<NodeId>>,
    /// Its score (the main list's is the highest).
    pub score: f64,
    /// It sits in the page's chrome (header, navigation, footer, a menu, a dialog).
    pub chrome: bool,
}

/// The page's lists, best first: the main list, then the next best lists that overlap neither
/// it nor each other, chrome included, at most `max` in all. The one list detector: the
/// outline's blocks are these lists.
pub fn lists(page: &Page, max: usize) -> Vec<ListFound> {
    let Some(ranked) = Ranked::of(page) else {
        return Vec::new();
    };
    let best = ranked.main();
    let others: Vec<ListFound> = ranked
        .others(&best, max.saturating_sub(1))
        .into_iter()
        .map(ListFound::from)
        .collect();
    std::iter::once(ListFound::from(&best))
        .chain(others)
        .take(max)
        .collect()
}

impl From<&Candidate> for ListFound {
    fn from(candidate: &Candidate) -> Self {
        Self {
            records: candidate.records.clone(),
            score: candidate.score,
            chrome: candidate.chrome,
        }
    }
}

/// Share of the main list's score another list needs to count as one of the page's lists.
pub const OTHER_LIST_SHARE: f64 = 0.1;

/// Whether a secondary list aligned into rows a person would call a table: two text columns
/// or more, most cells filled, and not many more columns than records. Link groups of a mega
/// menu or a footer align badly (a column per link, mostly empty); lists of one text and a
/// link are tags, menus and links to elsewhere.
fn reads_as_rows(list: &RecordList) -> bool {
    let rows = list.records.len();
    let columns = list.columns.len();
    let text_columns = list
        .columns
        .iter()
        .filter(|c| !matches!(c.kind, ColumnKind::Url | ColumnKind::Image))
        .count();
    text_columns >= 2 && columns <= rows * 4 && list.filled_share() >= 0.6
}

/// The page's candidate lists, scored, best first.
struct Ranked<'p> {
    page: &'p Page,
    candidates: Vec<Candidate>,
}

impl<'p> Ranked<'p> {
    fn of(page: &'p Page) -> Option<Self> {
        let mut candidates = candidates(page);
        if candidates.is_empty() {
            return None;
        }
        let sizes = TextSizes::of(page);
        let mut counts = Counts::default();
        let mut ticker = crate::page::interrupt::Ticker::every(1);
        for candidate in &mut candidates {
            if ticker.stop() {
                return None;
            }
            (candidate.score, candidate.chrome) =
                score(page, &candidate.records, &sizes, &mut counts);
        }
        candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
        (candidates.first()?.score > 0.0).then_some(Self { page, candidates })
    }

    /// The best list, or the finer records inside it when its records are rows of records.
    fn main(&self) -> Candidate {
        let best = &self.candidates[0];
        finer_records(self.page, best, &self.candidates)
            .or_else(|| lists_of_sections(self.page, best, &self.candidates))
            .unwrap_or_else(|| best.clone())
    }

    /// The next best lists that overlap neither `main` nor each other, at most `max`.
    fn others(&self, main: &Candidate, max: usize) -> Vec<&Candidate> {
        let doc = &self.page.document;
        let mut taken = Taken::default();
        taken.add(doc, &main.records);
        let mut chosen: Vec<&Candidate> = Vec::new();
        for candidate in &self.candidates {
            if chosen.len() == max || candidate.score <= 0.0 {
                break;
            }
            if !taken.overlaps(doc, &candidate.records) {
                taken.add(doc, &candidate.records);
                chosen.push(candidate);
            }
        }
        chosen
    }
}

/// Reads a candidate's records into rows, keeping at most `max_records`.
fn read(
    page: &Page,
    list: &Candidate,
    max_records: usize,
    alternatives: Vec<Alternative>,
) -> RecordList {
    let doc = &page.document;
    let elements: Vec<Vec<ElementRef<'_>>> = list
        .records
        .iter()
        .map(|ids| {
            ids.iter()
                .filter_map(|id| doc.tree.get(*id).and_then(ElementRef::wrap))
                .collect()
        })
        .filter(|els: &Vec<ElementRef<'_>>| !els.is_empty())
        .collect();
    // Only the records that can be returned are read (and a few more, in case some are empty).
    let aligned = elements.len().min(max_records.saturating_add(16));
    let table = align::align(page, &elements[..aligned]);
    // A record none of whose values could be read (all in buttons or hidden parts) is not a
    // row anyone wants.
    let rows: Vec<Map<String, Value>> = table
        .rows
        .into_iter()
        .filter(|row| row.values().any(|v| !v.is_null()))
        .collect();
    let total = elements.len() - (aligned - rows.len());
    RecordList {
        selector: record_selector(page, &elements),
        records: rows.into_iter().take(max_records).collect(),
        total,
        elements_per_record: elements.iter().map(Vec::len).max().unwrap_or(1),
        columns: table.columns,
        score: list.score,
        alternatives,
    }
}

fn describe(page: &Page, candidate: &Candidate) -> Alternative {
    let first = candidate
        .records
        .first()
        .and_then(|r| r.first())
        .and_then(|id| page.document.tree.get(*id))
        .and_then(ElementRef::wrap);
    let path = first.map_or_else(String::new, |el| {
        let parent = el
            .parent()
            .and_then(ElementRef::wrap)
            .map_or_else(String::new, simple_selector);
        format!("{parent} > {}", simple_selector(el))
    });
    let sample = first.map_or_else(String::new, |el| crate::page::dom::text_capped(el, 80));
    Alternative {
        path,
        count: candidate.records.len(),
        score: candidate.score,
        sample,
    }
}

/// The elements of the lists chosen so far, and everything around them. A list overlaps them
/// when it is inside one of them, holds one, or shares an element with one (a list of each
/// row's cells, or the rows of the list that holds them, is no alternative to those rows).
#[derive(Default)]
struct Taken {
    elements: std::collections::HashSet<NodeId>,
    /// The elements and their ancestors.
    around: std::collections::HashSet<NodeId>,
}

impl Taken {
    fn add(&mut self, doc: &scraper::Html, records: &[Vec<NodeId>]) {
        for id in records.iter().flatten() {
            self.elements.insert(*id);
            if let Some(node) = doc.tree.get(*id) {
                self.around.insert(*id);
                self.around.extend(node.ancestors().map(|a| a.id()));
            }
        }
    }

    fn overlaps(&self, doc: &scraper::Html, records: &[Vec<NodeId>]) -> bool {
        records.iter().flatten().any(|id| {
            self.around.contains(id)
                || doc.tree.get(*id).is_some_and(|node| {
                    std::iter::once(node.id())
                        .chain(node.ancestors().map(|a| a.id()))
                        .any(|a| self.elements.contains(&a))
                })
        })
    }
}

/// Tags whose children are never records. Unlike the main-content extractor's junk tags,
/// `nav`, `footer` and `aside` are not here: their lists are candidates that score low, so a
/// page whose only list sits in them still has an answer.
fn is_skipped(name: &str) -> bool {
    matches!(
        name,
        "script"
            | "style"
            | "noscript"
            | "template"
            | "svg"
            | "head"
            | "select"
            | "option"
            | "iframe"
            | "object"
            | "canvas"
            | "link"
            | "meta"
            | "br"
            | "hr"
            | "input"
            | "button"
            | "form"
    )
}

/// The element children that may be records (no scripts, nothing empty, nothing hidden but
/// what a click shows: the rest of a list behind "Show all" is part of it).
fn record_children(element: ElementRef<'_>) -> Vec<ElementRef<'_>> {
    element
        .children()
        .filter_map(ElementRef::wrap)
        .filter(|child| {
            !is_skipped(child.value().name())
                && (!crate::read::content::is_hidden(*child)
                    || is_shown_on_demand(*child)
                    || is_main_content_gate(*child))
                && crate::page::dom::shows_something(*child)
        })
        .collect()
}

/// Every list of similar siblings on the page, plus lists merged across repeated parents.
fn candidates(page: &Page) -> Vec<Candidate> {
    let doc = &page.document;
    let Some(body) = doc
        .root_element()
        .children()
        .filter_map(ElementRef::wrap)
        .find(|e| e.value().name() == "body")
    else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let body_chars = text_chars(body);
    let mut stack = vec![body];
    // Inside an interrupted tool call, the walk stops early: the call's result is thrown away.
    let mut ticker = crate::page::interrupt::Ticker::default();
    while let Some(parent) = stack.pop() {
        if ticker.stop() {
            break;
        }
        let kids = record_children(parent);
        for kid in kids.iter().rev() {
            stack.push(*kid);
        }
        // A form is never a record, and the lists inside one are mostly its options (filters,
        // facets, questions); but ASP.NET pages wrap the whole page in one `<form>` under
        // `<body>`, so such a form, holding most of the page's text, is walked like any
        // container.
        for form in parent
            .children()
            .filter_map(ElementRef::wrap)
            .filter(|child| child.value().name() == "form" && parent.id() == body.id())
            .filter(|form| text_chars(*form) * 2 > body_chars)
        {
            stack.push(form);
        }
        if let Some(rows) = rows_of_split_table(parent, &kids) {
            let key = format!("{}/tbody", tag_path(parent));
            found.extend(lists_among(&rows).into_iter().map(|records| Candidate {
                records,
                key: key.clone(),
                score: 0.0,
                chrome: false,
            }));
        }
        if kids.len() < MIN_RECORDS {
            continue;
        }
        let key = tag_path(parent);
        found.extend(lists_among(&kids).into_iter().map(|records| Candidate {
            records,
            key: key.clone(),
            score: 0.0,
            chrome: false,
        }));
    }
    let merged = merge_across_parents(doc, &found);
    found.extend(merged);
    found
}

/// Characters of text under an element, without the whitespace around its text nodes.
fn text_chars(element: ElementRef<'_>) -> usize {
    element.text().map(|t| t.trim().len()).sum()
}

/// The rows of a table whose body is split over several `<tbody>` elements (the rows after
/// "Show all" often sit in a second, hidden one), as one run of siblings.
fn rows_of_split_table<'a>(
    table: ElementRef<'a>,
    kids: &[ElementRef<'a>],
) -> Option<Vec<ElementRef<'a>>> {
    let bodies: Vec<ElementRef<'a>> = kids
        .iter()
        .copied()
        .filter(|k| k.value().name() == "tbody")
        .collect();
    if table.value().name() != "table" || bodies.len() < 2 {
        return None;
    }
    let rows: Vec<ElementRef<'a>> = bodies.into_iter().flat_map(record_children).collect();
    (rows.len() >= MIN_RECORDS).then_some(rows)
}

/// The lists among one parent's children: clusters of similar children, and records of
/// several elements where clusters follow each other in a fixed order.
fn lists_among(kids: &[ElementRef<'_>]) -> Vec<Vec<Vec<NodeId>>> {
    let shapes: Vec<Shape> = kids.iter().map(|k| Shape::of(*k)).collect();
    // Each child joins the first cluster whose first member it resembles.
    let mut clusters: Vec<Vec<usize>> = Vec::new();
    let mut label = vec![usize::MAX; kids.len()];
    let mut ticker = crate::page::interrupt::Ticker::default();
    for i in 0..kids.len() {
        if ticker.stop() {
            break;
        }
        let found = clusters.iter().position(|members| {
            let rep = members[0];
            shapes[rep].tag == shapes[i].tag && {
                let alike = similarity(&shapes[rep], &shapes[i]);
                alike >= CLOSE_SHAPE
                    || alike >= SAME_SHAPE
                        && (classes_agree(kids[rep], kids[i]) || rows_alike(kids[rep], kids[i]))
                    || containment(&shapes[rep], &shapes[i]) >= CONTAINED_SHAPE
                        && classes_agree(kids[rep], kids[i])
                    || cells_alike(kids[rep], kids[i])
            }
        });
        match found {
            Some(c) => {
                clusters[c].push(i);
                label[i] = c;
            }
            // Children of many different kinds (past MAX_CLUSTERS) are no list: comparing each
            // with every kind would be quadratic.
            None if clusters.len() < MAX_CLUSTERS => {
                label[i] = clusters.len();
                clusters.push(vec![i]);
            }
            None => {}
        }
    }
    let mut lists = Vec::new();
    for (c, members) in clusters.iter().enumerate() {
        if members.len() < MIN_RECORDS {
            continue;
        }
        lists.push(members.iter().map(|&i| vec![kids[i].id()]).collect());
        if let Some(records) = multi_element_records(kids, &label, &clusters, c) {
            lists.push(records);
        }
    }
    lists
}

/// Whether two table rows are rows of one list though their classes differ (`full_table`,
/// `partial_table`): as many cells, the same kind of cells, and both classed. A classed title
/// row and the unclassed detail row after it stay apart (records of two rows).
fn rows_alike(a: ElementRef<'_>, b: ElementRef<'_>) -> bool {
    a.value().name() == "tr"
        && row_kind(a) == row_kind(b)
        && a.value().classes().next().is_some()
        && b.value().classes().next().is_some()
}

/// Whether two table rows are records of one table whatever their cells hold: the same
/// number of data cells, at least [`MIN_ROW_CELLS`], and classes that agree. A row's shape is
/// a few paths (`td`, `td > a`), so one cell holding a "Sold out" badge where the others
/// hold a "Select" button would make it another kind of row.
fn cells_alike(a: ElementRef<'_>, b: ElementRef<'_>) -> bool {
    let (cells, headers) = row_kind(a);
    a.value().name() == "tr"
        && cells >= MIN_ROW_CELLS
        && !headers
        && row_kind(b) == (cells, false)
        && classes_agree(a, b)
}

/// Data cells from which a table row is a record of its table by its cells alone.
const MIN_ROW_CELLS: usize = 3;

/// What makes table rows alike: how many cells they have, and whether all are headers.
fn row_kind(row: ElementRef<'_>) -> (usize, bool) {
    let cells: Vec<&str> = row
        .children()
        .filter_map(ElementRef::wrap)
        .map(|c| c.value().name())
        .filter(|name| matches!(*name, "td" | "th"))
        .collect();
    (cells.len(), cells.iter().all(|name| *name == "th"))
}

/// Whether two siblings' classes agree: both have none, or they share one. A title row
/// `tr.athing` and its detail row `tr` are two kinds of row even where their shapes overlap.
fn classes_agree(a: ElementRef<'_>, b: ElementRef<'_>) -> bool {
    let mut a_classes = a.value().classes().peekable();
    let mut b_classes = b.value().classes();
    if a_classes.peek().is_none() {
        return b_classes.next().is_none();
    }
    let a_set: Vec<&str> = a_classes.collect();
    b_classes.any(|c| a_set.contains(&c))
}

/// Records of several elements headed by cluster `head`: when the children between two heads
/// are, most of the time, the same sequence of clusters as big as the head's, each head and
/// what follows it up to the next head is one record.
fn multi_element_records(
    kids: &[ElementRef<'_>],
    label: &[usize],
    clusters: &[Vec<usize>],
    head: usize,
) -> Option<Vec<Vec<NodeId>>> {
    let heads = &clusters[head];
    let n = heads.len();
    let gap = |from: usize, to: usize| -> Vec<usize> { label[from + 1..to].to_vec() };
    let gaps: Vec<Vec<usize>> = heads.windows(2).map(|w| gap(w[0], w[1])).collect();
    let mut counts: HashMap<&Vec<usize>, usize> = HashMap::new();
    for g in &gaps {
        *counts.entry(g).or_default() += 1;
    }
    let (pattern, seen) = counts.into_iter().max_by_key(|(_, count)| *count)?;
    if pattern.is_empty() || seen * 5 < gaps.len() * 4 {
        return None;
    }
    // Followers are lists of their own (about as many as the heads), not one-off elements.
    if pattern.iter().any(|&c| {
        c == head
            || clusters
                .get(c)
                .is_none_or(|members| members.len() * 5 < n * 4)
    }) {
        return None;
    }
    let mut records = Vec::with_capacity(n);
    for (k, &start) in heads.iter().enumerate() {
        let end = heads.get(k + 1).copied().unwrap_or(kids.len());
        let mut record = vec![kids[start].id()];
        for (offset, &cluster) in pattern.iter().enumerate() {
            let i = start + 1 + offset;
            if i < end && label[i] == cluster {
                record.push(kids[i].id());
            }
        }
        records.push(record);
    }
    Some(records)
}

/// Lists that repeat at the same place inside repeated parents (a grid's rows of cards) as one
/// list across those parents, in page order.
fn merge_across_parents(doc: &scraper::Html, found: &[Candidate]) -> Vec<Candidate> {
    // Lists merge when their parents sit at the same tag path and their records look alike
    // (same tag, a class in common and a similar shape, or nearly the same shape whatever
    // their classes, as siblings do): the rows of one grid, or one catalogue split into
    // sections named apart, not two lists that happen to sit at the same depth.
    let mut groups: Vec<(String, Shape, ElementRef<'_>, Vec<&Candidate>)> = Vec::new();
    for candidate in found {
        let Some(first) = candidate
            .records
            .first()
            .and_then(|r| r.first())
            .and_then(|id| doc.tree.get(*id))
            .and_then(ElementRef::wrap)
        else {
            continue;
        };
        let key = format!(
            "{} > {} x{}",
            candidate.key,
            first.value().name(),
            candidate.records[0].len()
        );
        let shape = Shape::of(first);
        match groups.iter_mut().find(|(k, s, rep, _)| {
            *k == key && {
                let alike = similarity(s, &shape);
                alike >= CLOSE_SHAPE || alike >= SAME_SHAPE && classes_agree(*rep, first)
            }
        }) {
            Some((_, _, _, members)) => members.push(candidate),
            None => groups.push((key, shape, first, vec![candidate])),
        }
    }
    groups
        .into_iter()
        .filter(|(_, _, _, group)| group.len() > 1)
        .map(|(_, _, _, group)| {
            let mut records: Vec<Vec<NodeId>> = group
                .iter()
                .flat_map(|c| c.records.iter().cloned())
                .collect();
            // Node ids are handed out in parse order, which is document order.
            records.sort_by_key(|r| r[0]);
            records.dedup();
            Candidate {
                records,
                key: group[0].key.clone(),
                score: 0.0,
                chrome: false,
            }
        })
        .collect()
}

/// Tags from `<body>` down to an element, e.g. `body/div/main/ul`.
fn tag_path(element: ElementRef<'_>) -> String {
    let mut tags: Vec<&str> = element
        .ancestors()
        .filter_map(ElementRef::wrap)
        .map(|a| a.value().name())
        .take_while(|name| *name != "html")
        .collect();
    tags.reverse();
    tags.push(element.value().name());
    tags.join("/")
}

/// What a candidate list holds and where it sits: what its score is made of (and what a
/// fitted score would be made of: `eval_records --features` writes these for every candidate).
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct ListFeatures {
    /// Records in the list.
    pub records: usize,
    /// Characters of text per record, on average.
    pub mean_chars: f64,
    /// Characters that count toward the score, each record's capped at [`RECORD_CHARS_CAP`].
    pub capped_chars: f64,
    /// Text blocks per record, on average.
    pub mean_slots: f64,
    /// Share of the text that is link text.
    pub link_share: f64,
    /// Distinct link targets per record, on average.
    pub mean_targets: f64,
    /// Every record is one paragraph of prose.
    pub all_prose: bool,
    /// It sits in a landmark or an element named as chrome (header, navigation, footer, menu).
    pub chrome: bool,
    /// It sits in a consent banner or a dialog.
    pub overlay: bool,
    /// It sits in a comment thread.
    pub discussion: bool,
}

/// How much a candidate looks like the list a person would point to, and whether it sits in
/// the page's chrome.
fn score(
    page: &Page,
    records: &[Vec<NodeId>],
    sizes: &TextSizes,
    counts: &mut Counts,
) -> (f64, bool) {
    match features(page, records, sizes, counts) {
        Some(features) => (hand_score(&features), features.chrome || features.overlay),
        None => (0.0, false),
    }
}

/// The hand-set score of a list: its capped text, times a factor for fields per record, and
/// factors for groups of links, menus, prose, chrome, dialogs and comment threads.
fn hand_score(f: &ListFeatures) -> f64 {
    let mut total = f.capped_chars;
    // Groups of links (a directory of "nearby" searches, a mega menu's columns): each record
    // is a heading over a run of links to as many places, its many "fields" only link texts.
    // A product card links its image, title and button too, but to one place.
    if f.link_share > 0.7 && f.mean_targets >= LINK_GROUP_LINKS {
        total *= 0.3;
    } else {
        // Fields per record: a record shows several things (name, price, date…).
        total *= 1.0 + (f.mean_slots.max(1.0)).ln() * 0.5;
    }
    // Menus, tag clouds and pagination: short records that are nothing but a link.
    if f.link_share > 0.8 && f.mean_chars < 40.0 && f.mean_slots <= 1.5 {
        total *= 0.3;
    }
    if f.all_prose {
        total *= 0.3;
    }
    if f.chrome {
        total *= 0.25;
    }
    if f.overlay {
        total *= 0.1;
    }
    // A comment thread is long and well formed, but it is what readers said about the
    // page's entries (blog posts and articles with comments below; the outline's factor
    // for it, kept when the outline's blocks became these lists).
    if f.discussion {
        total *= DISCUSSION_FACTOR;
    }
    total
}

/// What a candidate holds and where it sits; `None` for fewer than [`MIN_RECORDS`] records
/// or records with (almost) no text.
fn features(
    page: &Page,
    records: &[Vec<NodeId>],
    sizes: &TextSizes,
    counts: &mut Counts,
) -> Option<ListFeatures> {
    let doc = &page.document;
    let elements: Vec<Vec<ElementRef<'_>>> = records
        .iter()
        .map(|ids| {
            ids.iter()
                .filter_map(|id| doc.tree.get(*id).and_then(ElementRef::wrap))
                .collect()
        })
        .collect();
    let n = elements.len();
    if n < MIN_RECORDS {
        return None;
    }
    let stats: Vec<RecordStats> = elements.iter().map(|els| counts.record(els)).collect();
    let chars: usize = stats.iter().map(|s| s.chars).sum();
    let link_chars: usize = stats.iter().map(|s| s.link_chars).sum();
    let mean_chars = chars as f64 / n as f64;
    if mean_chars < 2.0 {
        return None;
    }
    let mut features = ListFeatures {
        records: n,
        mean_chars,
        capped_chars: stats
            .iter()
            .map(|s| s.chars.min(RECORD_CHARS_CAP) as f64)
            .sum(),
        mean_slots: stats.iter().map(|s| s.slots).sum::<usize>() as f64 / n as f64,
        link_share: if chars == 0 {
            0.0
        } else {
            link_chars as f64 / chars as f64
        },
        mean_targets: stats.iter().map(|s| s.link_targets).sum::<usize>() as f64 / n as f64,
        all_prose: stats.iter().all(|s| s.prose),
        ..ListFeatures::default()
    };
    if let Some(first) = elements.first().and_then(|r| r.first()) {
        let marks: Vec<ElementRef<'_>> = sizes.local_ancestors(*first).collect();
        // Chrome by tag or role counts at any size (a mega menu can hold half the page's
        // text); chrome by class name only below the page-level wrappers.
        let structural = std::iter::once(*first)
            .chain(first.ancestors().filter_map(ElementRef::wrap))
            .any(crate::page::chrome::is_landmark);
        features.chrome = structural || marks.iter().any(|a| is_chrome_element(*a));
        features.overlay = marks.iter().any(|a| is_overlay(*a));
        // Any wrapper below `<body>` (a long thread holds most of the page's text), not
        // `<body>` itself (WordPress marks every post page `comments-open`).
        features.discussion = std::iter::once(*first)
            .chain(first.ancestors().filter_map(ElementRef::wrap))
            .take_while(|el| !matches!(el.value().name(), "body" | "html"))
            .any(is_discussion);
    }
    Some(features)
}

/// Every candidate list of the page with its features and its hand-set score, for fitting a
/// score on labelled pages (`eval_records --features`); the records as their elements' ids.
pub fn candidate_features(page: &Page) -> Vec<(Vec<Vec<NodeId>>, ListFeatures, f64)> {
    let sizes = TextSizes::of(page);
    let mut counts = Counts::default();
    candidates(page)
        .into_iter()
        .filter_map(|c| {
            let f = features(page, &c.records, &sizes, &mut counts)?;
            Some((c.records, f, hand_score(&f)))
        })
        .collect()
}

/// Characters of text under each element, and the wrappers of the page's main content,
/// computed once per page.
struct TextSizes {
    chars: HashMap<NodeId, usize>,
    page: usize,
    /// `<main>` (or `role=main`) and everything around it, when the page has one.
    main_wrappers: Option<std::collections::HashSet<NodeId>>,
}

impl TextSizes {
    fn of(page: &Page) -> Self {
        let mut chars: HashMap<NodeId, usize> = HashMap::new();
        for node in page.document.tree.nodes() {
            let Some(text) = node.value().as_text() else {
                continue;
            };
            let len = text.trim().chars().count();
            if len == 0 {
                continue;
            }
            for ancestor in node.ancestors() {
                *chars.entry(ancestor.id()).or_default() += len;
            }
        }
        let page_chars = chars
            .get(&page.document.root_element().id())
            .copied()
            .unwrap_or_default();
        let main = page
            .document
            .root_element()
            .descendants()
            .filter_map(ElementRef::wrap)
            .find(|e| e.value().name() == "main" || e.value().attr("role") == Some("main"));
        let main_wrappers = main.map(|main| {
            std::iter::once(main.id())
                .chain(main.ancestors().map(|a| a.id()))
                .collect()
        });
        Self {
            chars,
            page: page_chars,
            main_wrappers,
        }
    }

    /// An element and its ancestors up to (not including) the first that wraps the page's
    /// main content (`<main>` and what holds it; without one, half the page's text): a
    /// wrapper of the whole page (`layout-with-sidebar`, `cookie-banner-open` on `<body>`)
    /// says nothing about one list inside it.
    fn local_ancestors<'a>(&self, element: ElementRef<'a>) -> impl Iterator<Item = ElementRef<'a>> {
        std::iter::once(element)
            .chain(element.ancestors().filter_map(ElementRef::wrap))
            .take_while(|a| match &self.main_wrappers {
                Some(wrappers) => !wrappers.contains(&a.id()),
                None => self.chars.get(&a.id()).copied().unwrap_or_default() * 2 <= self.page,
            })
    }
}

/// How much less a comment thread counts than a list of the page's own entries.
const DISCUSSION_FACTOR: f64 = 0.3;

/// Whether an element holds readers' comments (`div#comment_list`, `ol.commentlist`).
fn is_discussion(element: ElementRef<'_>) -> bool {
    let el = element.value();
    el.id().into_iter().chain(el.classes()).any(|name| {
        name.to_ascii_lowercase()
            .split(['-', '_'])
            .any(|token| matches!(token, "comment" | "comments" | "commentlist"))
    })
}

/// Words in ids and classes of consent banners and dialogs: their lists (cookie vendors,
/// purposes) are never what a person asks for.
const OVERLAY_WORDS: &[&str] = &[
    "consent", "onetrust", "gdpr", "cmp", "cookie", "cookies", "modal", "popup",
];

/// Whether an element is a consent banner or a dialog.
fn is_overlay(element: ElementRef<'_>) -> bool {
    let el = element.value();
    el.attr("role")
        .is_some_and(|r| r == "dialog" || r == "alertdialog")
        || el.attr("aria-modal") == Some("true")
        || el.name() == "dialog"
        || el.id().into_iter().chain(el.classes()).any(|name| {
            let lower = name.to_ascii_lowercase();
            lower.starts_with("ot-")
                || lower
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|w| OVERLAY_WORDS.contains(&w))
        })
}

/// The stories of a page made of sections ("Latest", "Science", "Seminars"), each a heading
/// over a list of its own: when most of `best`'s records hold such a list, the records are
/// sections and the list a person means is every section's items, in page order. The inner
/// lists must carry weight ([`SECTION_LISTS_SHARE`] of `best`'s score), and a page has a handful of
/// sections ([`MAX_SECTIONS`]): the rows of an hourly forecast, each with its own details, or a
/// card's colour swatches do not make the card a section.
fn lists_of_sections(page: &Page, best: &Candidate, all: &[Candidate]) -> Option<Candidate> {
    let doc = &page.document;
    if best.records.len() > MAX_SECTIONS || best.records.iter().any(|r| r.len() != 1) {
        return None;
    }
    let section_of = |id: NodeId| -> Option<usize> {
        let node = doc.tree.get(id)?;
        node.ancestors()
            .find_map(|a| best.records.iter().position(|r| r[0] == a.id()))
    };
    // The best inner list of each section.
    let mut inner: Vec<Option<&Candidate>> = vec![None; best.records.len()];
    for candidate in all {
        if candidate.chrome || candidate.score <= 0.0 {
            continue;
        }
        let Some(section) = candidate.records.first().and_then(|r| section_of(r[0])) else {
            continue;
        };
        if candidate
            .records
            .iter()
            .any(|r| section_of(r[0]) != Some(section))
        {
            continue;
        }
        let structured = candidate
            .records
            .iter()
            .filter_map(|r| doc.tree.get(r[0]).and_then(ElementRef::wrap))
            .filter(|el| align::text_slot_count(*el) >= 2)
            .count();
        if structured * 5 < candidate.records.len() * 4 {
            continue;
        }
        if inner[section].is_none_or(|c| candidate.score > c.score) {
            inner[section] = Some(candidate);
        }
    }
    let lists: Vec<&Candidate> = inner.into_iter().flatten().collect();
    let weight: f64 = lists.iter().map(|c| c.score).sum();
    if lists.len() * 2 < best.records.len()
        || lists.len() < 2
        || weight < best.score * SECTION_LISTS_SHARE
    {
        return None;
    }
    let mut records: Vec<Vec<NodeId>> = lists.iter().flat_map(|c| c.records.clone()).collect();
    records.sort_by_key(|r| r[0]);
    Some(Candidate {
        records,
        key: best.key.clone(),
        score: best.score,
        chrome: false,
    })
}

/// When each record of `best` is a container whose text is mostly a list of smaller records
/// (a grid's rows, each a row of cards), those smaller records are the list.
fn finer_records(page: &Page, best: &Candidate, all: &[Candidate]) -> Option<Candidate> {
    let doc = &page.document;
    let outer: std::collections::HashSet<NodeId> = best.records.iter().flatten().copied().collect();
    let mut finest: Option<&Candidate> = None;
    for candidate in all {
        if candidate.records.len() < best.records.len() * 2 || candidate.score < best.score * 0.7 {
            continue;
        }
        // Every inner record lies inside an outer one.
        let inside = candidate.records.iter().all(|r| {
            doc.tree
                .get(r[0])
                .is_some_and(|node| node.ancestors().any(|a| outer.contains(&a.id())))
        });
        if !inside {
            continue;
        }
        let structured = candidate
            .records
            .iter()
            .filter_map(|r| doc.tree.get(r[0]).and_then(ElementRef::wrap))
            .filter(|el| align::text_slot_count(*el) >= 2 || has_link_or_image(*el))
            .count();
        if structured * 5 < candidate.records.len() * 4 {
            continue;
        }
        if finest.is_none_or(|f| candidate.score > f.score) {
            finest = Some(candidate);
        }
    }
    finest.cloned()
}

fn has_link_or_image(element: ElementRef<'_>) -> bool {
    element
        .descendants()
        .filter_map(ElementRef::wrap)
        .any(|d| matches!(d.value().name(), "a" | "img"))
}

/// A short selector matching exactly the records' first elements, when there is one.
fn record_selector(page: &Page, records: &[Vec<ElementRef<'_>>]) -> Option<String> {
    let firsts: Vec<ElementRef<'_>> = records.iter().filter_map(|r| r.first().copied()).collect();
    crate::page::dom::selector_for(&page.document, &firsts)
}
