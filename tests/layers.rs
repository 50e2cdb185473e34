//! The floors of the code (DESIGN.md §3), checked: a top-level module of `src/` may use
//! modules on its own floor or below, never above, and two modules never use each other.
//! Edges are read from the `crate::<module>` paths in each file. The edges that break the rule
//! today are listed in [`KNOWN_DEBT`] with the issue that removes them; the test fails on any
//! new one, and on a listed one that is gone (so the list only shrinks).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a failed unwrap is a failed test

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module and its floor: 0 is the bottom.
const FLOORS: &[(&str, u8)] = &[
    // Wire types and settings: import nothing else of the crate.
    ("events", 0),
    ("settings", 0),
    // The page model, the fetcher and the metrics registry.
    ("page", 1),
    ("fetch", 1),
    // The headless browser that renders script-built pages, beside the fetcher (its guard).
    ("browser", 1),
    ("metrics", 1),
    // Webhooks' wire types and signatures (the sender is a run's: `run::webhooks`).
    ("webhook", 1),
    // Renders a finished result as a format; imports nothing else of the crate.
    ("output", 1),
    // Page readers (`read/`: content, structured data, records, the outline), and the store (sessions, events).
    ("read", 2),
    ("store", 2),
    // Tools (thin adapters over readers).
    ("tools", 3),
    // Planners build tool calls.
    ("planner", 4),
    // Runs sequence pages, plans, events and storage.
    ("run", 5),
    // Shared application state and `start_run`.
    ("app", 6),
    // The faces.
    ("http", 7),
    ("mcp", 7),
    ("cli", 7),
];

/// Edges that break the rule today, each with the issue that takes it away.
const KNOWN_DEBT: &[(&str, &str, &str)] = &[];

fn top_module(path: &Path, src: &Path) -> String {
    let relative = path.strip_prefix(src).expect("under src");
    let first = relative
        .components()
        .next()
        .expect("a component")
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    first.trim_end_matches(".rs").to_owned()
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable src") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `from → {to}` for every `crate::to` path written in a file of module `from`.
fn edges() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules: BTreeSet<&str> = FLOORS.iter().map(|(m, _)| *m).collect();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let from = top_module(&file, &src);
        if matches!(from.as_str(), "lib" | "main") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("readable file");
        for (at, _) in text.match_indices("crate::") {
            let name: String = text[at + 7..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            // Macros exported at the crate root (`crate::static_selector!`) are no module.
            if name != from && modules.contains(name.as_str()) {
                edges.entry(from.clone()).or_default().insert(name);
            }
        }
    }
    edges
}

#[test]
fn modules_use_only_their_own_floor_or_below_and_never_each_other() {
    let floors: BTreeMap<&str, u8> = FLOORS.iter().copied().collect();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let module = top_module(&path, &src);
        if path.is_dir() || path.extension().is_some_and(|e| e == "rs") {
            assert!(
                matches!(module.as_str(), "lib" | "main") || floors.contains_key(module.as_str()),
                "src/{module} has no floor: add it to FLOORS in tests/layers.rs"
            );
        }
    }
    let edges = edges();
    let mut broken = BTreeSet::new();
    for (from, targets) in &edges {
        for to in targets {
            let upward = floors[to.as_str()] > floors[from.as_str()];
            let mutual = edges.get(to).is_some_and(|back| back.contains(from));
            if upward || mutual {
                broken.insert((from.clone(), to.clone()));
            }
        }
    }
    let debt: BTreeSet<(String, String)> = KNOWN_DEBT
        .iter()
        .map(|(a, b, _)| ((*a).to_owned(), (*b).to_owned()))
        .collect();
    let new: Vec<_> = broken.difference(&debt).collect();
    assert!(
        new.is_empty(),
        "modules using a module above them or each other: {new:?} (see DESIGN.md §3)"
    );
    let paid: Vec<_> = debt.difference(&broken).collect();
    assert!(
        paid.is_empty(),
        "these edges are gone: take them out of KNOWN_DEBT in tests/layers.rs: {paid:?}"
    );
}
