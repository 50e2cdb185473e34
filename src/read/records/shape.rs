//! The shape of a subtree: the set of tag paths below an element, compared between siblings.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use scraper::ElementRef;

/// Levels below an element that make its shape: deeper markup varies between items of one
/// list (a description with or without a link) without making them different kinds of item.
const DEPTH: usize = 4;
/// Paths kept per shape, so one huge child costs no more than a large one.
const MAX_PATHS: usize = 128;

/// An element's tag and the hashed tag paths of its descendants (sorted, without repeats).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Shape {
    pub tag: String,
    paths: Vec<u64>,
}

impl Shape {
    /// The shape of `element`.
    pub fn of(element: ElementRef<'_>) -> Self {
        let mut paths = Vec::new();
        collect(element, 0, 0, &mut paths);
        paths.sort_unstable();
        paths.dedup();
        Self {
            tag: element.value().name().to_owned(),
            paths,
        }
    }
}

fn collect(element: ElementRef<'_>, depth: usize, prefix: u64, out: &mut Vec<u64>) {
    if depth >= DEPTH || out.len() >= MAX_PATHS {
        return;
    }
    for child in element.children().filter_map(ElementRef::wrap) {
        let name = child.value().name();
        if matches!(name, "script" | "style" | "noscript" | "template") {
            continue;
        }
        let mut hasher = DefaultHasher::new();
        prefix.hash(&mut hasher);
        name.hash(&mut hasher);
        let path = hasher.finish();
        out.push(path);
        collect(child, depth + 1, path, out);
    }
}

/// Jaccard similarity of two shapes' path sets (1 for two elements with no children).
pub(super) fn similarity(a: &Shape, b: &Shape) -> f64 {
    if a.paths.is_empty() && b.paths.is_empty() {
        return 1.0;
    }
    let common = common_paths(a, b);
    let union = a.paths.len() + b.paths.len() - common;
    common as f64 / union as f64
}

/// Share of the smaller shape's paths that the other one has too (0 when the smaller has
/// fewer than [`MIN_CONTAINED_PATHS`]): a card with a promotion added is still that card.
pub(super) fn containment(a: &Shape, b: &Shape) -> f64 {
    let smaller = a.paths.len().min(b.paths.len());
    if smaller < MIN_CONTAINED_PATHS {
        return 0.0;
    }
    common_paths(a, b) as f64 / smaller as f64
}

/// Paths below which a shape is too plain for containment to say anything: every element
/// holds a lone `<a>` or `<span>`.
const MIN_CONTAINED_PATHS: usize = 4;

fn common_paths(a: &Shape, b: &Shape) -> usize {
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < a.paths.len() && j < b.paths.len() {
        match a.paths[i].cmp(&b.paths[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    common
}
