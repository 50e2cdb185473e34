//! Field alignment: every text, link and image slot that recurs across records becomes a
//! column, named from the page first (table headers, `itemprop`, visible labels, attributes,
//! class names) and from the value's type last; values are typed.

use crate::page::money::{is_free_text, is_price_text};
use std::collections::HashMap;

use scraper::ElementRef;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::page::Page;
use crate::page::dates::{date_pattern, month_first, normalise_date};
use crate::page::dom::{is_block, json_number, own_text, text_capped, text_of};
use crate::read::structured::product::{current_amount, is_struck_amount};

/// Where a column's name came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum NameSource {
    /// The table's header cell above it.
    Header,
    /// The `itemprop` of its element.
    Itemprop,
    /// A visible label beside or before the value ("Price:").
    Label,
    /// The element's `aria-label` or `title`.
    Attribute,
    /// A meaningful class name of its element.
    Class,
    /// The kind of value (`title`, `url`, `image`, `date`, `price`, …).
    Kind,
}

/// The type of a column's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ColumnKind {
    /// Text as shown.
    Text,
    /// A number.
    Number,
    /// An ISO-8601 date.
    Date,
    /// An absolute link.
    Url,
    /// An absolute image address.
    Image,
}

/// One column of the records.
#[derive(Debug, Clone, Serialize)]
pub struct Column {
    /// Its key in every record.
    pub name: String,
    /// The type of its values.
    pub kind: ColumnKind,
    /// Where the name came from.
    pub source: NameSource,
    /// Records that have a value in it.
    pub filled: usize,
    /// The header as the page prints it, when its name is what that abbreviation stands for
    /// ("Pts" of `points`): a request may ask by either.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub printed: Option<String>,
}

/// Aligned records.
#[derive(Debug)]
pub(super) struct Table {
    pub columns: Vec<Column>,
    pub rows: Vec<Map<String, Value>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SlotKind {
    Text,
    Link,
    Image,
}

/// One value found in a record, keyed by where it sits inside the record.
#[derive(Debug, Clone)]
struct Slot<'a> {
    key: String,
    kind: SlotKind,
    value: String,
    element: ElementRef<'a>,
}

/// What [`walk`] makes of one element, as far as text slots go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TextSlots {
    /// Skipped or hidden: no slots, nothing below counts.
    None,
    /// One value (a text leaf), or none when it shows no text.
    Leaf { shows_text: bool },
    /// Its own text (one slot, when it has any) and the slots of its element children.
    Container { own_text: bool },
}

/// How [`walk`] reads `element`'s text, without building slots.
pub(super) fn text_slots(element: ElementRef<'_>) -> TextSlots {
    if is_skipped(element.value().name()) || crate::read::content::is_hidden(element) {
        return TextSlots::None;
    }
    if is_text_leaf(element) {
        return TextSlots::Leaf {
            shows_text: !text_capped(element, 1).is_empty(),
        };
    }
    let own_text = element
        .children()
        .filter_map(|c| c.value().as_text())
        .any(|t| t.chars().any(|c| !c.is_whitespace()));
    TextSlots::Container { own_text }
}

/// How many text blocks an element shows (for scoring records): the text slots [`walk`]
/// finds, counted without building their keys and values.
pub(super) fn text_slot_count(element: ElementRef<'_>) -> usize {
    match text_slots(element) {
        TextSlots::None => 0,
        TextSlots::Leaf { shows_text } => usize::from(shows_text),
        TextSlots::Container { own_text } => {
            usize::from(own_text)
                + element
                    .children()
                    .filter_map(ElementRef::wrap)
                    .map(text_slot_count)
                    .sum::<usize>()
        }
    }
}

/// Tags that never hold a value.
fn is_skipped(name: &str) -> bool {
    matches!(
        name,
        "script" | "style" | "noscript" | "template" | "svg" | "button" | "select" | "input"
    )
}

/// One step of a slot's key: the tag and its first class as written, digits left out (`item-3`). A
/// table cell's step holds its column (`td[3]`): a row whose cell holds one line less than
/// the others' ("Maya Okafor, Tom Reyes" where others print the speaker's company below)
/// keeps its later cells under their columns.
fn segment(element: ElementRef<'_>) -> String {
    let el = element.value();
    let name = if is_cell(element) {
        format!("{}[{}]", el.name(), cell_index(element).unwrap_or(0))
    } else {
        el.name().to_owned()
    };
    // The first class as written (`classes()` comes sorted): a component's name comes
    // first and its state after ("status busy", "card featured"), and rows of one column
    // share the name whatever their state.
    let class: String = el
        .attr("class")
        .and_then(|classes| classes.split_whitespace().next())
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_ascii_digit())
        .collect();
    if class.is_empty() {
        name
    } else {
        format!("{name}.{class}")
    }
}

/// Whether an element's text is one value: it has no child elements, or it has text of its
/// own with only inline elements around it (`<p>Some <b>bold</b> text</p>`). Own text that
/// only joins its children's values (`<span>10 points</span> by <a>ada</a>`, `·`, `|`) does
/// not make one value of them.
fn is_text_leaf(element: ElementRef<'_>) -> bool {
    let mut children = element.children().filter_map(ElementRef::wrap).peekable();
    if children.peek().is_none() {
        return true;
    }
    let own_alphanumerics: usize = element
        .children()
        .filter_map(|c| c.value().as_text())
        .map(|t| t.chars().filter(|c| c.is_alphanumeric()).count())
        .sum();
    let valued_children = element
        .children()
        .filter_map(ElementRef::wrap)
        .filter(|child| child.text().any(|t| !t.trim().is_empty()))
        .count();
    let connective = own_alphanumerics <= 4 && valued_children >= 2;
    own_alphanumerics > 0
        && !connective
        && !element
            .descendants()
            .filter_map(ElementRef::wrap)
            .skip(1)
            .any(|d| is_block(d.value().name()))
}

/// A table cell made of a run of short marks, each in an element of its own ("W W D L W", a
/// team's form; "S M L XL", the sizes in stock): one value, the marks in order. Their classes
/// say which mark each is ("form-w"), so apart they would be columns of their own.
fn run_of_marks(element: ElementRef<'_>) -> Option<String> {
    if !matches!(element.value().name(), "td" | "th")
        || element
            .children()
            .filter_map(|c| c.value().as_text())
            .any(|t| !t.trim().is_empty())
    {
        return None;
    }
    let marks: Vec<ElementRef<'_>> = element.children().filter_map(ElementRef::wrap).collect();
    let tag = marks.first()?.value().name();
    let is_mark = |mark: &ElementRef<'_>| {
        let text = text_of(*mark);
        mark.value().name() == tag
            && mark.children().all(|c| c.value().is_text())
            && (1..=3).contains(&text.chars().count())
    };
    (marks.len() >= 2 && !is_media(marks[0]) && marks.iter().all(is_mark)).then(|| {
        marks
            .iter()
            .map(|mark| text_of(*mark))
            .collect::<Vec<_>>()
            .join(" ")
    })
}

fn walk<'a>(page: &Page, element: ElementRef<'a>, key: String, out: &mut Vec<Slot<'a>>) {
    let name = element.value().name();
    if is_skipped(name) || crate::read::content::is_hidden(element) {
        return;
    }
    // "<s>$10,500</s> $9,750": the current price is the element's value, under the key the
    // records that show one price give it; the struck one is a value of its own.
    if let Some(current) = current_amount(element) {
        out.push(Slot {
            key: key.clone(),
            kind: SlotKind::Text,
            value: current,
            element,
        });
        for child in element.children().filter_map(ElementRef::wrap) {
            if is_struck_amount(child) {
                walk(page, child, format!("{key}/{}", segment(child)), out);
            }
        }
        return;
    }
    if let Some(marks) = run_of_marks(element) {
        out.push(Slot {
            key: key.clone(),
            kind: SlotKind::Text,
            value: marks,
            element,
        });
        return;
    }
    if is_text_leaf(element) {
        let text = text_of(element);
        if !text.is_empty() {
            out.push(Slot {
                key: key.clone(),
                kind: SlotKind::Text,
                value: text,
                element,
            });
        }
        media(page, element, &key, out);
        // Links and images inside the text are values of their own (nothing else inside is a
        // value, so no other element's key is built).
        for inner in element.descendants().skip(1).filter_map(ElementRef::wrap) {
            if is_media(inner) {
                let inner_key = format!("{key}/{}", segment(inner));
                media(page, inner, &inner_key, out);
            }
        }
        return;
    }
    media(page, element, &key, out);
    let own = own_text(element);
    if !own.is_empty() {
        // A table cell's own words are its value, with lines below them or without.
        let own_key = if is_cell(element) {
            key.clone()
        } else {
            format!("{key}/#text")
        };
        out.push(Slot {
            key: own_key,
            kind: SlotKind::Text,
            value: own,
            element,
        });
    }
    for child in element.children().filter_map(ElementRef::wrap) {
        walk(page, child, format!("{key}/{}", segment(child)), out);
    }
}

/// Whether an element is a link or an image, the elements [`media`] makes slots of.
fn is_media(element: ElementRef<'_>) -> bool {
    matches!(element.value().name(), "a" | "img")
}

/// The link or image an element is, as a slot.
fn media<'a>(page: &Page, element: ElementRef<'a>, key: &str, out: &mut Vec<Slot<'a>>) {
    let el = element.value();
    match el.name() {
        "a" => {
            if let Some(url) = el.attr("href").and_then(|h| page.absolute(h)) {
                out.push(Slot {
                    key: format!("{key}@href"),
                    kind: SlotKind::Link,
                    value: url,
                    element,
                });
            }
        }
        "img" => {
            let src = ["src", "data-src", "data-lazy-src", "data-original"]
                .iter()
                .filter_map(|a| el.attr(a))
                .find(|s| !s.trim().is_empty() && !s.starts_with("data:"));
            if let Some(url) = src.and_then(|s| page.absolute(s)) {
                out.push(Slot {
                    key: format!("{key}@src"),
                    kind: SlotKind::Image,
                    value: url,
                    element,
                });
            }
        }
        _ => {}
    }
}

/// The slots of one record, keyed by tag and first class along their path.
fn record_slots<'a>(page: &Page, record: &[ElementRef<'a>]) -> Vec<Slot<'a>> {
    let mut slots = Vec::new();
    for (index, element) in record.iter().enumerate() {
        let prefix = if record.len() > 1 {
            format!("{index}:")
        } else {
            String::new()
        };
        walk(page, *element, prefix, &mut slots);
    }
    slots
}

/// Keys made unique by their order (`td`, `td#2`, …); without classes, only the tags of the
/// path count (sites whose class names change from item to item: atomic CSS, hashed names).
fn unique_keys(mut slots: Vec<Slot<'_>>, with_classes: bool) -> Vec<Slot<'_>> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for slot in &mut slots {
        if !with_classes {
            slot.key = tags_only(&slot.key);
        }
        let count = seen.entry(slot.key.clone()).or_default();
        *count += 1;
        if *count > 1 {
            slot.key = format!("{}#{count}", slot.key);
        }
    }
    slots
}

/// A slot key with the class part of each step left out (`div.card/h3.t@href` → `div/h3@href`).
fn tags_only(key: &str) -> String {
    key.split('/')
        .map(|step| {
            let (path, suffix) = step
                .find(['@', '#'])
                .map_or((step, ""), |at| step.split_at(at));
            let tag = path.split('.').next().unwrap_or(path);
            format!("{tag}{suffix}")
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A column being built: its key and the value of each record that has it.
#[derive(Debug)]
struct Draft<'a> {
    key: String,
    kind: SlotKind,
    values: Vec<Option<String>>,
    elements: Vec<Option<ElementRef<'a>>>,
    /// Mean position of the slot inside its records (orders the columns).
    order: f64,
}

impl<'a> Draft<'a> {
    /// This column with only the rows `keep` picks (the others null), under another key.
    fn rows_only(&self, key: String, keep: impl Fn(usize) -> bool) -> Draft<'a> {
        Draft {
            key,
            kind: self.kind,
            values: (0..self.values.len())
                .map(|row| self.values[row].clone().filter(|_| keep(row)))
                .collect(),
            elements: (0..self.elements.len())
                .map(|row| self.elements[row].filter(|_| keep(row)))
                .collect(),
            order: self.order,
        }
    }
}

/// Aligns `records` into columns.
pub(super) fn align(page: &Page, records: &[Vec<ElementRef<'_>>]) -> Table {
    let n = records.len();
    // Inside an interrupted tool call, the walk stops early: the call's result is thrown away.
    let mut ticker = crate::page::interrupt::Ticker::every(8);
    let per_record: Vec<Vec<Slot<'_>>> = records
        .iter()
        .take_while(|_| !ticker.stop())
        .map(|r| record_slots(page, r))
        .collect();
    // Slots found in too few records are not columns; their text is kept under `other`.
    let needed = (n / 5).max(2).min(n);
    let (mut kept, mut rare) = columns_of(per_record.clone(), n, needed, true);
    // When class names keep most values out of the columns, the tags alone align better.
    if share_kept(&kept, &rare) < 0.6 {
        let (kept_by_tags, rare_by_tags) = columns_of(per_record, n, needed, false);
        if share_kept(&kept_by_tags, &rare_by_tags) > share_kept(&kept, &rare) {
            (kept, rare) = (kept_by_tags, rare_by_tags);
        }
    }
    let mut labels = drop_constants(&mut kept, n);
    split_by_labels(&mut kept, &mut labels);
    drop_repeated_links(&mut kept);

    let month_first = month_first(&page.document);
    let header = table_header(records);
    let mut columns = Vec::new();
    let mut cells: Vec<Vec<Option<Value>>> = Vec::new();
    let mut used: HashMap<String, usize> = HashMap::new();
    let mut title_taken = false;
    let mut url_taken = false;
    for draft in &kept {
        let (name, source, values) = name_column(
            draft,
            &labels,
            header.as_ref(),
            &mut title_taken,
            &mut url_taken,
        );
        let (kind, typed) = type_values(draft.kind, &values, month_first);
        let name = if source == NameSource::Kind && name == "text" && kind == ColumnKind::Date {
            "date".to_owned()
        } else {
            name
        };
        let name = unique(&mut used, name);
        // The header as printed, where it is an abbreviation of the name ("Pts").
        let printed = header
            .as_ref()
            .filter(|_| source == NameSource::Header && draft.kind == SlotKind::Text)
            .and_then(|header| {
                agreed(draft.elements.iter().flatten().map(|e| {
                    cell_index(*e)
                        .and_then(|i| header.get(i))
                        .and_then(|(_, printed)| printed.as_deref())
                }))
            });
        columns.push(Column {
            filled: typed.iter().flatten().count(),
            name,
            kind,
            source,
            printed,
        });
        cells.push(typed);
    }
    let other: Vec<Option<String>> = (0..n)
        .map(|row| {
            let parts: Vec<&str> = rare
                .iter()
                .filter(|d| d.kind == SlotKind::Text)
                .filter_map(|d| d.values[row].as_deref())
                .collect();
            (!parts.is_empty()).then(|| parts.join(" · "))
        })
        .collect();
    if other.iter().flatten().count() > 0 {
        let name = unique(&mut used, "other".to_owned());
        columns.push(Column {
            filled: other.iter().flatten().count(),
            name,
            kind: ColumnKind::Text,
            source: NameSource::Kind,
            printed: None,
        });
        cells.push(other.into_iter().map(|v| v.map(Value::String)).collect());
    }
    let rows = (0..n)
        .map(|row| {
            columns
                .iter()
                .zip(&cells)
                .map(|(column, values)| {
                    (
                        column.name.clone(),
                        values[row].clone().unwrap_or(Value::Null),
                    )
                })
                .collect()
        })
        .collect();
    Table { columns, rows }
}

/// Distinct slot keys followed at most per list (each costs a value per record).
const MAX_KEYS: usize = 256;

/// The records' slots as columns (kept: found in at least `needed` records) and the rest,
/// in the order they stand in the records.
fn columns_of<'a>(
    per_record: Vec<Vec<Slot<'a>>>,
    n: usize,
    needed: usize,
    with_classes: bool,
) -> (Vec<Draft<'a>>, Vec<Draft<'a>>) {
    let mut drafts: Vec<Draft<'a>> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for (row, slots) in per_record.into_iter().enumerate() {
        let slots = unique_keys(slots, with_classes);
        let len = slots.len().max(1) as f64;
        for (position, slot) in slots.into_iter().enumerate() {
            // Every distinct key costs a value per record: past a bound (items whose own class
            // names differ, records with hundreds of parts) the rest are not columns.
            if !index.contains_key(&slot.key) && drafts.len() >= MAX_KEYS {
                continue;
            }
            let at = *index.entry(slot.key.clone()).or_insert_with(|| {
                drafts.push(Draft {
                    key: slot.key.clone(),
                    kind: slot.kind,
                    values: vec![None; n],
                    elements: vec![None; n],
                    order: 0.0,
                });
                drafts.len() - 1
            });
            let draft = &mut drafts[at];
            draft.values[row] = Some(slot.value);
            draft.elements[row] = Some(slot.element);
            draft.order += position as f64 / len;
        }
    }
    for draft in &mut drafts {
        let filled = draft.values.iter().flatten().count().max(1);
        draft.order /= filled as f64;
    }
    drafts.sort_by(|a, b| a.order.total_cmp(&b.order));
    drafts
        .into_iter()
        .partition(|d| d.values.iter().flatten().count() >= needed)
}

/// The share of all values that landed in kept columns.
fn share_kept(kept: &[Draft<'_>], rare: &[Draft<'_>]) -> f64 {
    let count = |drafts: &[Draft<'_>]| -> usize {
        drafts
            .iter()
            .map(|d| d.values.iter().flatten().count())
            .sum()
    };
    let (kept, rare) = (count(kept), count(rare));
    if kept + rare == 0 {
        1.0
    } else {
        kept as f64 / (kept + rare) as f64
    }
}

/// Removes text columns whose value is the same in every record ("Read more", "Add to
/// cart"); those ending with a colon are labels, returned by the key of the column after them.
/// A short text on only some records ("Step-free access" on 8 cards of 12) is a feature the
/// others lack, not furniture: it stays a column.
fn drop_constants(drafts: &mut Vec<Draft<'_>>, n: usize) -> HashMap<String, String> {
    let mut labels = HashMap::new();
    let mut i = 0;
    while i < drafts.len() {
        let draft = &drafts[i];
        let values: Vec<&String> = draft.values.iter().flatten().collect();
        let constant = draft.kind == SlotKind::Text
            && n >= 3
            && values.len() >= 3
            && values.windows(2).all(|w| w[0] == w[1])
            && is_boilerplate(draft, values[0]);
        if !constant {
            i += 1;
            continue;
        }
        let text = values[0].trim();
        let label = text.strip_suffix(':').or(is_term(draft).then_some(text));
        if label.is_none() && !on_nearly_every(values.len(), n) {
            i += 1;
            continue;
        }
        if let Some(label) = label
            && let Some(next) = drafts.get(i + 1)
        {
            labels.insert(next.key.clone(), label.trim().to_owned());
        }
        drafts.remove(i);
    }
    labels
}

/// Whether a value shown by `shown` of `n` records is on nearly all of them: one record in ten
/// may lack page furniture (a card without its "Read more" link).
fn on_nearly_every(shown: usize, n: usize) -> bool {
    shown + n / 10 >= n
}

/// Most label columns a varying label ("Breeder:" here, "Brand:" there) is split into.
const MAX_LABEL_COLUMNS: usize = 4;

/// A label that changes from record to record ("Breeder:" in one card, "Brand:" in the next)
/// names the value after it: the label column and the value column become one column per
/// label, null where a record shows another one. Values without a label keep their column.
fn split_by_labels(drafts: &mut Vec<Draft<'_>>, labels: &mut HashMap<String, String>) {
    let mut i = 0;
    while i + 1 < drafts.len() {
        let Some(keys) = label_keys(&drafts[i]) else {
            i += 1;
            continue;
        };
        let mut distinct: Vec<&String> = Vec::new();
        for key in keys.iter().flatten() {
            if !distinct.contains(&key) {
                distinct.push(key);
            }
        }
        if distinct.is_empty() || distinct.len() > MAX_LABEL_COLUMNS {
            i += 1;
            continue;
        }
        let (label, value) = (&drafts[i], &drafts[i + 1]);
        let mut split: Vec<Draft<'_>> = Vec::new();
        for key in &distinct {
            let labelled = |row: usize| keys[row].as_ref() == Some(*key);
            let column = value.rows_only(format!("{}#{key}", value.key), labelled);
            if let Some(text) = (0..keys.len())
                .find(|row| labelled(*row))
                .and_then(|row| label.values[row].as_deref())
            {
                labels.insert(
                    column.key.clone(),
                    text.trim_end_matches(':').trim().to_owned(),
                );
            }
            split.push(column);
        }
        let unlabelled = value.rows_only(value.key.clone(), |row| keys[row].is_none());
        if unlabelled.values.iter().any(Option::is_some) {
            split.push(unlabelled);
        }
        let added = split.len();
        drafts.splice(i..i + 2, split);
        i += added;
    }
}

/// The column key each record's label gives, when every value of this text column is a short
/// label ("Brand:"), or a term of a definition list that recurs in other records ("Level"
/// over "Beginner" here and over "Advanced" there; a glossary's terms each stand once). A
/// label all records share was dropped as furniture before.
fn label_keys(draft: &Draft<'_>) -> Option<Vec<Option<String>>> {
    if draft.kind != SlotKind::Text {
        return None;
    }
    let term = is_term(draft);
    let keys: Vec<Option<String>> = draft
        .values
        .iter()
        .map(|v| {
            v.as_deref().and_then(|v| {
                let v = v.trim();
                let label = v.strip_suffix(':').or(term.then_some(v))?;
                is_label_text(label).then(|| key_of(label)).flatten()
            })
        })
        .collect();
    let present = draft.values.iter().flatten().count();
    let recurs = |key: &String| keys.iter().flatten().filter(|k| *k == key).count() >= 2;
    let labelled = keys.iter().flatten().count() == present;
    (present >= 2 && labelled && (!term || keys.iter().flatten().all(recurs))).then_some(keys)
}

/// The grades pages give how hard a trail, a recipe, a course or a route is.
const GRADES: &[&str] = &[
    "easy",
    "moderate",
    "medium",
    "hard",
    "difficult",
    "challenging",
    "strenuous",
    "beginner",
    "intermediate",
    "advanced",
    "expert",
    "all levels",
];

/// Whether a value is a grade of difficulty ([`GRADES`]).
fn is_grade(value: &str) -> bool {
    GRADES.contains(&value.trim().to_lowercase().as_str())
}

/// Whether a column's values are the terms of definition lists (`<dt>Level</dt><dd>…`): each
/// names the value after it.
fn is_term(draft: &Draft<'_>) -> bool {
    let mut elements = draft.elements.iter().flatten().peekable();
    elements.peek().is_some() && elements.all(|e| e.value().name() == "dt")
}

/// Whether a value every record shares is page furniture ("Read more" in a link, a "Price:"
/// label, an icon's name) rather than data that happens to be equal (every job in "Berlin").
fn is_boilerplate(draft: &Draft<'_>, value: &str) -> bool {
    if value.trim_end().ends_with(':') {
        return true;
    }
    let named = draft
        .elements
        .iter()
        .flatten()
        .any(|e| itemprop(*e).is_some() || class_word(*e).is_some());
    if named {
        return false;
    }
    draft.elements.iter().flatten().any(|e| {
        std::iter::once(*e)
            .chain(e.ancestors().filter_map(ElementRef::wrap).take(3))
            .any(|a| matches!(a.value().name(), "a" | "button" | "label"))
    }) || value.split_whitespace().count() <= 3
}

/// Removes link and image columns that repeat another column's values (an image link and a
/// title link to the same item).
fn drop_repeated_links(drafts: &mut Vec<Draft<'_>>) {
    let mut i = 0;
    while i < drafts.len() {
        let repeated = drafts[i].kind != SlotKind::Text
            && drafts[..i].iter().any(|earlier| {
                earlier.kind == drafts[i].kind
                    && drafts[i]
                        .values
                        .iter()
                        .zip(&earlier.values)
                        .all(|(a, b)| a.is_none() || a == b)
            });
        if repeated {
            drafts.remove(i);
        } else {
            i += 1;
        }
    }
}

/// The header texts of the table the records are rows of, by cell index: an HTML table's,
/// or an ARIA grid's (`role=row` rows of `role=cell` cells under `role=columnheader` ones).
fn table_header(records: &[Vec<ElementRef<'_>>]) -> Option<Vec<(String, Option<String>)>> {
    let first = records.first()?.first()?;
    if !is_row(*first) {
        return None;
    }
    let table = first
        .ancestors()
        .filter_map(ElementRef::wrap)
        .find(|a| is_table(*a))?;
    let header_row = table
        .descendants()
        .filter_map(ElementRef::wrap)
        .filter(|e| is_row(*e))
        .find(|row| {
            let cells = cells_of(*row);
            !cells.is_empty()
                && (cells.iter().all(|c| is_header_cell(*c))
                    || row
                        .parent()
                        .and_then(ElementRef::wrap)
                        .is_some_and(|p| p.value().name() == "thead"))
        })?;
    Some(
        cells_of(header_row)
            .into_iter()
            .flat_map(|cell| {
                let span = cell
                    .value()
                    .attr("colspan")
                    .and_then(|s| s.parse::<usize>().ok())
                    .unwrap_or(1)
                    .clamp(1, 20);
                let printed = abbreviation(cell).map(|(_, printed)| printed);
                std::iter::repeat_n((header_name(cell), printed), span)
            })
            .collect(),
    )
}

/// A row's cells, in order.
fn cells_of(row: ElementRef<'_>) -> Vec<ElementRef<'_>> {
    row.children()
        .filter_map(ElementRef::wrap)
        .filter(|c| is_cell(*c))
        .collect()
}

/// The ARIA role an element states, if any.
fn role(element: ElementRef<'_>) -> Option<&str> {
    element.value().attr("role").map(str::trim)
}

/// Whether an element is a table's row: `tr`, or `role=row`.
fn is_row(element: ElementRef<'_>) -> bool {
    element.value().name() == "tr" || role(element) == Some("row")
}

/// Whether an element is a table: `table`, or `role=table`/`grid`/`treegrid`.
fn is_table(element: ElementRef<'_>) -> bool {
    element.value().name() == "table"
        || matches!(role(element), Some("table" | "grid" | "treegrid"))
}

/// Whether an element is a table's cell: `td`/`th`, or a cell's role.
fn is_cell(element: ElementRef<'_>) -> bool {
    matches!(element.value().name(), "td" | "th")
        || matches!(
            role(element),
            Some("cell" | "gridcell" | "columnheader" | "rowheader")
        )
}

/// Whether a cell heads its column: `th`, or `role=columnheader`.
fn is_header_cell(element: ElementRef<'_>) -> bool {
    element.value().name() == "th" || role(element) == Some("columnheader")
}

/// A header cell's name: what its abbreviation stands for, its text, or when that is too long to be a name (a cell that holds
/// its column's explanation, "SQFT Square Footage — area of the property in…"), its first
/// piece of text ("SQFT").
fn header_name(cell: ElementRef<'_>) -> String {
    if let Some((spelled_out, _)) = abbreviation(cell) {
        return spelled_out;
    }
    let text = text_of(cell);
    if key_of(&text).is_some() {
        return text;
    }
    // An icon's drawing (`<svg><title>arrow-right`) is not the header's text.
    let first_piece = cell.descendants().find_map(|node| {
        let piece = node.value().as_text()?.trim();
        let in_icon = node
            .ancestors()
            .take_while(|a| a.id() != cell.id())
            .any(|a| a.value().as_element().is_some_and(|e| e.name() == "svg"));
        (!piece.is_empty() && !in_icon).then_some(piece)
    });
    first_piece
        .filter(|t| key_of(t).is_some())
        .map_or(text, str::to_owned)
}

/// A header that is an abbreviation (`<abbr title="Points">Pts</abbr>`): what it stands for,
/// which names the column ("points", "goal difference"), and the abbreviation as printed.
fn abbreviation(cell: ElementRef<'_>) -> Option<(String, String)> {
    let text = text_of(cell);
    cell.descendants()
        .filter_map(ElementRef::wrap)
        .find_map(|e| {
            let title = e.value().attr("title")?.trim();
            (e.value().name() == "abbr" && text_of(e) == text && key_of(title).is_some())
                .then(|| (title.to_owned(), text.clone()))
        })
}

/// The index of the table cell holding `element`, counting column spans.
fn cell_index(element: ElementRef<'_>) -> Option<usize> {
    let cell = std::iter::once(element)
        .chain(element.ancestors().filter_map(ElementRef::wrap))
        .find(|e| is_cell(*e))?;
    let mut index = 0;
    for sibling in cell.prev_siblings().filter_map(ElementRef::wrap) {
        if is_cell(sibling) {
            index += sibling
                .value()
                .attr("colspan")
                .and_then(|s| s.parse::<usize>().ok())
                .unwrap_or(1)
                .clamp(1, 20);
        }
    }
    Some(index)
}

/// Whether an element inside a table cell comes after other words of that cell.
fn after_another_in_its_cell(element: ElementRef<'_>) -> bool {
    let Some(cell) = element
        .ancestors()
        .filter_map(ElementRef::wrap)
        .find(|e| is_cell(*e))
    else {
        return false;
    };
    for node in cell.descendants() {
        if node.id() == element.id() {
            return false;
        }
        if node
            .value()
            .as_text()
            .is_some_and(|text| !text.trim().is_empty())
        {
            return true;
        }
    }
    false
}

/// The value most records agree on, when at least half of those that have one do.
fn agreed<'a>(values: impl Iterator<Item = Option<&'a str>>) -> Option<String> {
    // In order of first appearance, so a tie goes to the value seen first, every time.
    let mut counts: Vec<(&str, usize)> = Vec::new();
    let mut total = 0;
    for value in values.flatten() {
        total += 1;
        match counts.iter_mut().find(|(v, _)| *v == value) {
            Some((_, count)) => *count += 1,
            None => counts.push((value, 1)),
        }
    }
    let (value, count) =
        counts
            .iter()
            .fold(None, |best: Option<(&str, usize)>, &(v, c)| match best {
                Some((_, best_count)) if best_count >= c => best,
                _ => Some((v, c)),
            })?;
    (count * 2 >= total && !value.trim().is_empty()).then(|| value.to_owned())
}

/// Names a column and returns its values (a shared "Label:" prefix removed).
fn name_column(
    draft: &Draft<'_>,
    labels: &HashMap<String, String>,
    header: Option<&Vec<(String, Option<String>)>>,
    title_taken: &mut bool,
    url_taken: &mut bool,
) -> (String, NameSource, Vec<Option<String>>) {
    let mut values = draft.values.clone();
    let elements = || draft.elements.iter().flatten().copied();
    if let Some(header) = header {
        let name = agreed(elements().map(|e| {
            cell_index(e)
                .and_then(|i| header.get(i))
                .map(|(name, _)| name.as_str())
        }));
        if let Some(name) = name.and_then(|n| key_of(&n)) {
            // A value printed after another in its cell, marked by its own class word ("<td>
            // <a>Fitzroy Street</a> <span class=brand>PureGym</span></td>"), is named by that
            // word: the header names the cell's first value.
            let own = agreed(elements().map(|e| {
                after_another_in_its_cell(e)
                    .then(|| own_class_word(e))
                    .flatten()
            }));
            if draft.kind == SlotKind::Text
                && let Some(own) = own.filter(|own| *own != name)
            {
                return (own, NameSource::Class, values);
            }
            let name = match draft.kind {
                SlotKind::Text => name,
                SlotKind::Link => format!("{name}_url"),
                SlotKind::Image => format!("{name}_image"),
            };
            return (name, NameSource::Header, values);
        }
    }
    if let Some(name) = agreed(elements().map(itemprop)).and_then(|n| key_of(&n)) {
        return (name, NameSource::Itemprop, values);
    }
    if draft.kind == SlotKind::Text {
        if let Some(label) = labels.get(&draft.key).and_then(|l| key_of(l)) {
            return (label, NameSource::Label, values);
        }
        if let Some((label, stripped)) = shared_label(&values) {
            values = stripped;
            return (label, NameSource::Label, values);
        }
        if let Some((part, names)) = role_lines(&values) {
            return (part, NameSource::Label, names);
        }
        if let Some((label, stripped)) = leading_label(draft) {
            return (label, NameSource::Label, stripped);
        }
    }
    let attribute = agreed(elements().map(|e| {
        e.value()
            .attr("aria-label")
            .or_else(|| e.value().attr("title"))
    }));
    if draft.kind == SlotKind::Text
        && let Some(name) = attribute.and_then(|n| key_of(&n)).filter(|n| n.len() <= 30)
    {
        return (name, NameSource::Attribute, values);
    }
    if draft.kind == SlotKind::Text {
        // Its own word for an author ("byline", "username") stays its name.
        let own_word = agreed(elements().map(class_word));
        let named_as_author = own_word
            .as_deref()
            .is_some_and(|w| matches!(w, "author" | "byline" | "username" | "user"));
        // A text its markup marks as the item's author (`a.hnuser`, a forum's `data-username`
        // link, `rel=author`) is the author, whatever other class it has ("name").
        if !named_as_author {
            let marked = elements()
                .filter(|e| {
                    std::iter::once(*e)
                        .chain(e.ancestors().filter_map(ElementRef::wrap).take(2))
                        .any(|el| {
                            crate::read::role::marks_author(el.value())
                                || el.value().attr("data-username").is_some()
                        })
                })
                .count();
            if marked > 0 && marked * 2 >= elements().count() {
                return ("author".to_owned(), NameSource::Class, values);
            }
        }
        if let Some(name) = own_word {
            if name == "title" {
                *title_taken = true;
            }
            return (name, NameSource::Class, values);
        }
    }
    let kind_name = match draft.kind {
        SlotKind::Link if !*url_taken => {
            *url_taken = true;
            Some("url")
        }
        SlotKind::Link => None,
        SlotKind::Image => Some("image"),
        SlotKind::Text if !*title_taken && is_title(draft) => {
            *title_taken = true;
            Some("title")
        }
        SlotKind::Text => {
            // Not the items' names ("Room 101" is a name): a count after a word is a detail.
            if let Some((word, counts)) = word_before_count(&values) {
                return (word, NameSource::Label, counts);
            }
            let present: Vec<&str> = values.iter().flatten().map(String::as_str).collect();
            // "Easy", "Moderate", "Strenuous": a grade of how hard the item is.
            if present.len() >= 2 && present.iter().all(|v| is_grade(v)) {
                return ("difficulty".to_owned(), NameSource::Kind, values);
            }
            // "Free" beside "$49" is a price too: what that item costs.
            let priced = present.iter().filter(|v| is_price_text(v)).count();
            if priced > 0
                && priced + present.iter().filter(|v| is_free_text(v)).count() == present.len()
            {
                Some("price")
            } else {
                text_kind(draft, &present)
            }
        }
    };
    if let Some(name) = kind_name {
        return (name.to_owned(), NameSource::Kind, values);
    }
    if let Some(name) = agreed(elements().map(class_word)) {
        return (format!("{name}_url"), NameSource::Class, values);
    }
    let fallback = match draft.kind {
        SlotKind::Link => "link",
        SlotKind::Image => "image",
        SlotKind::Text => "text",
    };
    (fallback.to_owned(), NameSource::Kind, values)
}

/// The `itemprop` of an element.
fn itemprop(element: ElementRef<'_>) -> Option<&str> {
    element.value().attr("itemprop")
}

/// A name for a text column from the elements that hold it: a definition list's terms and
/// descriptions, paragraphs of prose.
fn text_kind(draft: &Draft<'_>, present: &[&str]) -> Option<&'static str> {
    let tag = agreed(
        draft
            .elements
            .iter()
            .flatten()
            .map(|e| Some(e.value().name())),
    )?;
    match tag.as_str() {
        "dt" => Some("term"),
        "dd" => Some("description"),
        "p" => {
            let words = present
                .iter()
                .map(|v| v.split_whitespace().count())
                .sum::<usize>()
                / present.len().max(1);
            (words >= 6).then_some("description")
        }
        _ => None,
    }
}

/// Whether a text column is the records' titles: headings, or the text of their main link.
fn is_title(draft: &Draft<'_>) -> bool {
    let elements: Vec<ElementRef<'_>> = draft.elements.iter().flatten().copied().collect();
    let headed = elements.iter().filter(|e| {
        std::iter::once(**e)
            .chain(e.ancestors().filter_map(ElementRef::wrap).take(3))
            .any(|a| matches!(a.value().name(), "h1" | "h2" | "h3" | "h4" | "h5" | "h6"))
    });
    if headed.count() * 2 >= elements.len() {
        return true;
    }
    let linked = elements
        .iter()
        .filter(|e| {
            e.value().name() == "a"
                || e.ancestors()
                    .filter_map(ElementRef::wrap)
                    .take(2)
                    .any(|a| a.value().name() == "a")
        })
        .count();
    let words = draft
        .values
        .iter()
        .flatten()
        .map(|v| v.split_whitespace().count())
        .sum::<usize>() as f64
        / elements.len().max(1) as f64;
    linked * 2 >= elements.len() && (2.0..=25.0).contains(&words)
}

/// A label shared by most values as a prefix ("Price: $5" → `price`, "$5").
fn shared_label(values: &[Option<String>]) -> Option<(String, Vec<Option<String>>)> {
    let label = agreed(values.iter().map(|v| {
        v.as_deref()
            .and_then(|v| v.split_once(':'))
            .map(|(label, _)| label)
            .filter(|label| is_label_text(label.trim()))
    }))?;
    let prefix = format!("{label}:");
    labelled_values(values, &label, |v| {
        v.strip_prefix(&prefix).map(|rest| rest.trim().to_owned())
    })
}

/// A column of lines naming the person behind each item by their part ("Taught by Ann Lee"):
/// named by the part (`instructor`), each value the person's name.
fn role_lines(values: &[Option<String>]) -> Option<(String, Vec<Option<String>>)> {
    let part = agreed(values.iter().map(|v| {
        v.as_deref()
            .and_then(crate::read::role::role_line)
            .map(|(part, _)| part)
    }))?;
    labelled_values(values, &part, |v| {
        crate::read::role::role_line(v)
            .filter(|(p, _)| *p == part)
            .map(|(_, name)| name.to_owned())
    })
}

/// Whether a text may be a label: short, without digits.
fn is_label_text(label: &str) -> bool {
    !label.is_empty() && label.chars().count() <= 30 && !label.chars().any(|c| c.is_ascii_digit())
}

/// The column named by `label` and its values with the label cut (`cut` gives the rest of a
/// labelled value), when at least four in five of the values present are labelled.
fn labelled_values(
    values: &[Option<String>],
    label: &str,
    cut: impl Fn(&str) -> Option<String>,
) -> Option<(String, Vec<Option<String>>)> {
    let present = values.iter().flatten().count();
    let labelled = values.iter().flatten().filter(|v| cut(v).is_some()).count();
    if labelled * 5 < present * 4 {
        return None;
    }
    let name = key_of(label)?;
    let stripped = values
        .iter()
        .map(|v| v.as_ref().map(|v| cut(v).unwrap_or_else(|| v.clone())))
        .collect();
    Some((name, stripped))
}

/// A label written as the value's first element, without a colon, shared by most values
/// ("<span class=label>Mileage</span> 42,310 mi", "<b>Fuel</b> Gasoline" → `mileage`,
/// "42,310 mi"): a spec list's. A link or a heading's first part is no label.
fn leading_label(draft: &Draft<'_>) -> Option<(String, Vec<Option<String>>)> {
    let label_of = |element: ElementRef<'_>| -> Option<String> {
        if matches!(
            element.value().name(),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "a"
        ) {
            return None;
        }
        let first = element
            .children()
            .find(|c| c.value().as_text().is_none_or(|t| !t.trim().is_empty()))?;
        let first = ElementRef::wrap(first).filter(|e| e.value().name() != "a")?;
        let label = text_of(first);
        let label = label.trim().trim_end_matches(':').trim();
        is_label_text(label).then(|| label.to_owned())
    };
    if draft.kind != SlotKind::Text {
        return None;
    }
    let labels: Vec<Option<String>> = draft
        .elements
        .iter()
        .map(|e| e.and_then(label_of))
        .collect();
    let label = agreed(labels.iter().map(Option::as_deref))?;
    labelled_values(&draft.values, &label, |value| {
        value
            .strip_prefix(label.as_str())
            .map(|rest| rest.trim_start_matches([':', ' ']).trim().to_owned())
            .filter(|rest| !rest.is_empty())
    })
}

/// Words that qualify an amount rather than name it ("From 120", "Only 3", "Top 10").
const AMOUNT_QUALIFIERS: &[&str] = &[
    "from", "only", "was", "now", "save", "top", "over", "under", "about", "around", "approx",
    "just", "and", "the", "for", "per", "plus",
];

/// A column of counts each written after one shared word ("Sleeps 4", "Serves 6", "Seats 5",
/// "Ages 8+"): named by the word (`sleeps`), each value the count — the word is the label a
/// card leaves unwritten, as "Sleeps: 4" would write it.
fn word_before_count(values: &[Option<String>]) -> Option<(String, Vec<Option<String>>)> {
    let split = |value: &str| -> Option<(String, String)> {
        let (word, count) = value.trim().split_once(' ')?;
        let count = count.trim();
        let lower = word.to_lowercase();
        // A month is no such word: "May 12" is a date.
        let month = crate::page::dates::full_month_number(&lower).is_some()
            || lower.chars().count() <= 4 && crate::page::dates::month_number(&lower).is_some();
        (word.chars().count() >= 3
            && word.chars().all(char::is_alphabetic)
            && !AMOUNT_QUALIFIERS.contains(&lower.as_str())
            && !month
            && count.starts_with(|c: char| c.is_ascii_digit())
            && !count.ends_with([',', '.'])
            && count
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '–' | '.' | ',')))
        .then(|| (lower, count.to_owned()))
    };
    let words: Vec<Option<String>> = values
        .iter()
        .map(|v| v.as_deref().and_then(split).map(|(word, _)| word))
        .collect();
    let word = agreed(words.iter().map(Option::as_deref))?;
    labelled_values(values, &word, |value| {
        split(value)
            .filter(|(w, _)| *w == word)
            .map(|(_, count)| count)
    })
}

/// Class-name words that say nothing about the value.
const PLAIN_CLASS_WORDS: &[&str] = &[
    "text",
    "font",
    "flex",
    "grid",
    "col",
    "row",
    "item",
    "items",
    "wrapper",
    "wrap",
    "container",
    "inner",
    "outer",
    "content",
    "block",
    "card",
    "box",
    "body",
    "bold",
    "small",
    "large",
    "light",
    "dark",
    "muted",
    "left",
    "right",
    "center",
    "top",
    "bottom",
    "mt",
    "mb",
    "ml",
    "mr",
    "pt",
    "pb",
    "px",
    "py",
    "mx",
    "my",
    "p",
    "m",
    "w",
    "h",
    "sm",
    "md",
    "lg",
    "xl",
    "xs",
    "gap",
    "inline",
    "hidden",
    "visible",
    "d",
    "span",
    "div",
    "link",
    "el",
    "elem",
    "element",
    "list",
    "group",
    "main",
    "primary",
    "secondary",
    "info",
    "data",
    "detail",
    "details",
    "field",
    "value",
    "js",
    "is",
    "has",
    "c",
    "u",
    "ui",
    "component",
    "section",
    "line",
    "clamp",
    "truncate",
    "semibold",
    "medium",
    "regular",
    "uppercase",
    "lowercase",
    "block",
    "relative",
    "absolute",
    "tw",
    "css",
    "sc",
    "leading",
    "tracking",
    "rounded",
    "border",
    "shadow",
    "bg",
    "color",
    "gray",
    "grey",
    "white",
    "black",
    "blue",
    "red",
    "green",
];

/// A meaningful word from the class names of an element or of its two nearest ancestors
/// (`<h3 class="product-name"><a>…` → `name`), as a key. An ancestor repeated beside
/// itself is a record, and what holds it the list: their classes name the items, not this
/// value (a heading in `div.space` cards inside `div.spaces` is no count of spaces).
fn class_word(element: ElementRef<'_>) -> Option<&'static str> {
    std::iter::once(element)
        .chain(
            element
                .ancestors()
                .filter_map(ElementRef::wrap)
                .take(2)
                .take_while(|ancestor| !repeated_beside_itself(*ancestor)),
        )
        .find_map(own_class_word)
}

/// Whether an element has a sibling of its tag and classes: one of a list's records.
fn repeated_beside_itself(element: ElementRef<'_>) -> bool {
    let (tag, class) = (element.value().name(), element.value().attr("class"));
    element
        .prev_siblings()
        .chain(element.next_siblings())
        .filter_map(ElementRef::wrap)
        .any(|sibling| sibling.value().name() == tag && sibling.value().attr("class") == class)
}

/// A meaningful word from an element's own class names (`product-price` → `price`).
fn own_class_word(element: ElementRef<'_>) -> Option<&'static str> {
    // Leaked names would grow memory; pick from a fixed vocabulary of useful field names.
    // Words that are more often styling than data (`size-m`, `color-primary`,
    // `position-relative`, `type-secondary`) are not in it.
    const FIELD_WORDS: &[&str] = &[
        "title",
        "badge",
        "name",
        "price",
        "date",
        "time",
        "author",
        "description",
        "desc",
        "summary",
        "excerpt",
        "rating",
        "score",
        "points",
        "votes",
        "comments",
        "reviews",
        "count",
        "category",
        "tag",
        "tags",
        "location",
        "address",
        "region",
        "county",
        "province",
        "district",
        "city",
        "town",
        "country",
        "company",
        "salary",
        "brand",
        "sku",
        "status",
        "phone",
        "email",
        "username",
        "user",
        "views",
        "duration",
        "year",
        "rank",
        "subtitle",
        "headline",
        "byline",
        "domain",
        "stock",
        "availability",
        "discount",
        "stars",
        "distance",
        "language",
        "quantity",
        "model",
        "genre",
        "director",
        "role",
        "team",
        "department",
        "publisher",
        "isbn",
        // When, where and by whom an event or a class is held, and the places left
        // (`session__when`, `event-where`, `class-instructor`, `seats`). Not "venue" or
        // "room": they name the block of a venue's or a room's card as often
        // (`venue-review`, `room-amenities`).
        "when",
        "where",
        "instructor",
        "teacher",
        "spaces",
        "seats",
    ];
    let el = element.value();
    for class in el.classes() {
        let lower = class.to_ascii_lowercase();
        // The last field word of the class that is not a plain word (field words are looked up
        // first: few words of a class are either).
        let word = lower
            .split(|c: char| !c.is_ascii_alphanumeric())
            .rev()
            .find_map(|w| {
                FIELD_WORDS
                    .iter()
                    .find(|f| **f == w)
                    .filter(|_| !PLAIN_CLASS_WORDS.contains(&w))
            });
        if let Some(word) = word {
            return Some(word);
        }
    }
    None
}

/// A column key from a visible name: lower case, words joined by `_`.
fn key_of(name: &str) -> Option<String> {
    let words: Vec<String> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    if words.is_empty() || words.len() > 5 {
        return None;
    }
    Some(words.join("_"))
}

fn unique(used: &mut HashMap<String, usize>, name: String) -> String {
    let count = used.entry(name.clone()).or_default();
    *count += 1;
    if *count == 1 {
        name
    } else {
        format!("{name}_{count}")
    }
}

/// A plain number as shown ("1,234", "4.5", "-3"), not a code with digits in it.
fn plain_number(text: &str) -> Option<f64> {
    let t = text.trim();
    if t.is_empty() || t.len() > 20 {
        return None;
    }
    // A difference is written with its sign: "+25", "−2" (a minus sign, not a hyphen).
    let (sign, unsigned) = match t.chars().next() {
        Some('+') => (1.0, &t[1..]),
        Some('−') => (-1.0, &t['−'.len_utf8()..]),
        _ => (1.0, t),
    };
    let digits: String = unsigned.chars().filter(|c| *c != ',').collect();
    if !digits
        .chars()
        .all(|c| c.is_ascii_digit() || c == '.' || c == '-')
        || unsigned.len() < t.len() && digits.starts_with('-')
    {
        return None;
    }
    // A leading zero is an identifier ("007"), not a quantity.
    if digits.len() > 1 && digits.starts_with('0') && !digits.starts_with("0.") {
        return None;
    }
    digits.parse::<f64>().ok().map(|n| sign * n)
}

/// Types a column's values: all numbers → numbers, all dates → ISO dates, links and images
/// stay absolute URLs, anything else is text as shown.
fn type_values(
    kind: SlotKind,
    values: &[Option<String>],
    month_first: bool,
) -> (ColumnKind, Vec<Option<Value>>) {
    let strings = || {
        values
            .iter()
            .map(|v| v.clone().map(Value::String))
            .collect()
    };
    match kind {
        SlotKind::Link => return (ColumnKind::Url, strings()),
        SlotKind::Image => return (ColumnKind::Image, strings()),
        SlotKind::Text => {}
    }
    let present: Vec<&str> = values.iter().flatten().map(String::as_str).collect();
    if present.is_empty() {
        return (ColumnKind::Text, strings());
    }
    if present.iter().all(|v| plain_number(v).is_some()) {
        let typed = values
            .iter()
            .map(|v| v.as_deref().and_then(plain_number).and_then(json_number))
            .collect();
        return (ColumnKind::Number, typed);
    }
    let whole_date = |v: &str| {
        date_pattern()
            .find(v)
            .is_some_and(|m| m.as_str().len() * 10 >= v.trim().len() * 8)
            .then(|| normalise_date(v, month_first))
            .flatten()
    };
    if present.iter().all(|v| whole_date(v).is_some()) {
        let typed = values
            .iter()
            .map(|v| v.as_deref().and_then(whole_date).map(Value::String))
            .collect();
        return (ColumnKind::Date, typed);
    }
    (ColumnKind::Text, strings())
}
