//! What candidate records hold, for scoring: text, link text, link targets, images and text
//! blocks. Candidate lists nest (the rows of a grid, the cards in each row, the fields of each
//! card), so the same subtrees are scored many times: what can be summed up from the children
//! is counted once per element of the page and kept.

use std::collections::{HashMap, HashSet};

use ego_tree::NodeId;
use scraper::ElementRef;

use super::align::{self, TextSlots};
use crate::page::dom::text_of;

/// What one record holds, for scoring.
pub(super) struct RecordStats {
    /// Characters of its text.
    pub chars: usize,
    /// Characters of the text of its links.
    pub link_chars: usize,
    /// Distinct places its links go to.
    pub link_targets: usize,
    /// Text blocks it shows (see [`align::text_slot_count`]).
    pub slots: usize,
    /// Images it shows.
    pub images: usize,
    /// One paragraph of prose, not a record: one text block and nothing else.
    pub prose: bool,
}

/// Counts under one element, the element included.
#[derive(Debug, Clone, Copy, Default)]
struct Subtree {
    link_chars: usize,
    images: usize,
}

/// Counts of a page's elements, kept as they are first asked for.
#[derive(Debug, Default)]
pub(super) struct Counts {
    subtrees: HashMap<NodeId, Subtree>,
    chars: HashMap<NodeId, usize>,
    slots: HashMap<NodeId, usize>,
}

impl Counts {
    /// What the record made of `elements` holds.
    pub fn record(&mut self, elements: &[ElementRef<'_>]) -> RecordStats {
        let mut stats = RecordStats {
            chars: 0,
            link_chars: 0,
            link_targets: 0,
            slots: 0,
            images: 0,
            prose: true,
        };
        let mut targets: HashSet<&str> = HashSet::new();
        for element in elements {
            stats.chars += self.chars(*element);
            let subtree = self.subtree(*element);
            stats.link_chars += subtree.link_chars;
            stats.images += subtree.images;
            stats.slots += self.slots(*element);
            targets.extend(
                element
                    .descendants()
                    .filter_map(ElementRef::wrap)
                    .filter(|d| d.value().name() == "a")
                    .filter_map(|d| d.value().attr("href")),
            );
            let name = element.value().name();
            if name != "p" && name != "blockquote" && name != "pre" {
                stats.prose = false;
            }
        }
        stats.link_targets = targets.len();
        stats
    }

    /// Characters of an element's text as [`text_of`] reads it.
    fn chars(&mut self, element: ElementRef<'_>) -> usize {
        *self
            .chars
            .entry(element.id())
            .or_insert_with(|| text_of(element).chars().count())
    }

    /// The counts under `element`, children first and without recursion: html5ever does not
    /// cap nesting depth.
    fn subtree(&mut self, element: ElementRef<'_>) -> Subtree {
        let mut stack = vec![(element, false)];
        while let Some((node, children_done)) = stack.pop() {
            if self.subtrees.contains_key(&node.id()) {
                continue;
            }
            let children = node.children().filter_map(ElementRef::wrap);
            if !children_done {
                stack.push((node, true));
                stack.extend(children.map(|child| (child, false)));
                continue;
            }
            let mut sum = Subtree::default();
            for child in children {
                let counted = self.subtrees.get(&child.id()).copied().unwrap_or_default();
                sum.link_chars += counted.link_chars;
                sum.images += counted.images;
            }
            match node.value().name() {
                "a" => sum.link_chars += self.chars(node),
                "img" => sum.images += 1,
                _ => {}
            }
            self.subtrees.insert(node.id(), sum);
        }
        self.subtrees
            .get(&element.id())
            .copied()
            .unwrap_or_default()
    }

    /// The text blocks `element` shows ([`align::text_slot_count`]), children first and
    /// without recursion. Unlike the sums above, the count stops where the alignment walk
    /// stops (at skipped, hidden and leaf elements), and so do the elements it looks at.
    fn slots(&mut self, element: ElementRef<'_>) -> usize {
        // An element whose children are still to be counted carries whether it has own text.
        let mut stack: Vec<(ElementRef<'_>, Option<bool>)> = vec![(element, None)];
        while let Some((node, own_text)) = stack.pop() {
            if self.slots.contains_key(&node.id()) {
                continue;
            }
            let children = node.children().filter_map(ElementRef::wrap);
            let count = match own_text {
                Some(own_text) => {
                    usize::from(own_text)
                        + children
                            .map(|child| self.slots.get(&child.id()).copied().unwrap_or_default())
                            .sum::<usize>()
                }
                None => match align::text_slots(node) {
                    TextSlots::None => 0,
                    TextSlots::Leaf { shows_text } => usize::from(shows_text),
                    TextSlots::Container { own_text } => {
                        stack.push((node, Some(own_text)));
                        stack.extend(children.map(|child| (child, None)));
                        continue;
                    }
                },
            };
            self.slots.insert(node.id(), count);
        }
        self.slots.get(&element.id()).copied().unwrap_or_default()
    }
}
