//! Small DOM helpers shared by the tools and the page outline.

use std::sync::OnceLock;

use scraper::{ElementRef, Selector};

/// Parses a selector given by a client or a model, with a message naming it on failure.
///
/// # Errors
/// The selector is not valid CSS.
pub fn parse_selector(css: &str) -> Result<Selector, String> {
    if css.trim().is_empty() {
        return Err("empty CSS selector".into());
    }
    if css.len() > 2048 {
        return Err("CSS selector longer than 2048 characters".into());
    }
    Selector::parse(css).map_err(|e| {
        // scraper words its catch-all variant as an internal bug; say what the parser saw.
        let why = match &e {
            scraper::error::SelectorErrorKind::UnexpectedSelectorParseError(kind) => {
                format!("{kind:?}")
            }
            other => other.to_string(),
        };
        format!("invalid CSS selector `{css}`: {why}")
    })
}

/// How many parts a selector has, read off its text: one per compound selector (`div.item`),
/// so one more after each combinator (` `, `>`, `+`, `~`), each comma and each `(` (the start
/// of a nested list, as in `:not(a b)`), outside strings and attribute brackets. An `+b` inside
/// `:nth-child(2n+1)` counts too; the limits it is held to are generous enough for that.
pub fn selector_parts(css: &str) -> usize {
    let mut parts = 0;
    let mut quote: Option<char> = None;
    let mut brackets = 0usize;
    // Whether the last token read could end a compound (so whitespace after it is a
    // descendant combinator when another compound follows).
    let mut in_compound = false;
    let mut pending_space = false;
    let mut chars = css.chars();
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            if c == '\\' {
                chars.next();
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\\' => {
                chars.next();
            }
            '"' | '\'' => quote = Some(c),
            '[' => brackets += 1,
            ']' => brackets = brackets.saturating_sub(1),
            _ if brackets > 0 => {}
            ',' | '>' | '+' | '~' | '(' => {
                in_compound = false;
                pending_space = false;
                continue;
            }
            ')' => {
                in_compound = true;
                pending_space = false;
                continue;
            }
            _ if c.is_whitespace() => {
                pending_space = in_compound;
                continue;
            }
            _ => {}
        }
        if !in_compound || pending_space {
            parts += 1;
        }
        in_compound = true;
        pending_space = false;
    }
    parts
}

/// A selector written in our own code; a typo there is a bug caught by every test.
///
/// # Panics
/// When `css` is not valid CSS (a programming error).
#[allow(clippy::expect_used)]
pub fn selector_static(css: &str) -> Selector {
    Selector::parse(css).expect("static selector is valid CSS")
}

/// A selector compiled once per process, for hot paths.
#[macro_export]
macro_rules! static_selector {
    ($css:expr) => {{
        static CELL: std::sync::OnceLock<scraper::Selector> = std::sync::OnceLock::new();
        CELL.get_or_init(|| $crate::page::dom::selector_static($css))
    }};
}

/// The words an element holds itself, outside its child elements, whitespace collapsed.
pub fn own_text(element: ElementRef<'_>) -> String {
    let own: Vec<&str> = element
        .children()
        .filter_map(|c| c.value().as_text().map(|t| &**t))
        .collect();
    collapse_whitespace(&own.join(" "))
}

/// Text of an element as one reads it on screen: whitespace collapsed, scripts left out.
pub fn text_of(element: ElementRef<'_>) -> String {
    TextReader::new(Layout::Words)
        .skip(Skip::Scripts)
        .read(element)
}

/// [`text_of`], cut at `max_chars` characters — and the walk stops there, so reading the text
/// of an element that wraps a whole page costs the cap, not the page.
pub fn text_capped(element: ElementRef<'_>, max_chars: usize) -> String {
    TextReader::new(Layout::Words)
        .skip(Skip::Scripts)
        .max_chars(max_chars)
        .read(element)
}

/// Where [`flat_text_raw`] stops reading, in bytes of text (the same bound as the content
/// renderer's output: text past it is never shown).
const MAX_FLAT_TEXT_BYTES: usize = 200_000;

/// [`flat_text_raw`] with whitespace collapsed: the text the content renderer shows for a
/// heading or paragraph. Unlike [`text_of`], two elements side by side are not spaced apart.
pub fn flat_text(element: ElementRef<'_>) -> String {
    collapse_whitespace(&flat_text_raw(element))
}

/// Text of a subtree as written (for `<pre>`), without scripts, buttons and icons; the
/// element itself is left out too when it is one of those.
pub fn flat_text_raw(element: ElementRef<'_>) -> String {
    TextReader::new(Layout::AsWritten)
        .skip(Skip::Scripts)
        .skip(Skip::Controls)
        .including_root()
        .stop_after_bytes(MAX_FLAT_TEXT_BYTES)
        .read(element)
}

/// A subtree a [`TextReader`] leaves out.
#[derive(Clone, Copy)]
pub enum Skip<'s> {
    /// `<script>`, `<style>`, `<noscript>` and `<template>`: never shown as text.
    Scripts,
    /// `<button>` and `<svg>`: a button's label ("Copy item path") or an icon's title is not
    /// text of the element that holds it.
    Controls,
    /// Elements the caller names (hidden ones, say).
    Matching(&'s dyn Fn(ElementRef<'_>) -> bool),
}

// By hand: a caller's predicate has no `Debug`.
impl std::fmt::Debug for Skip<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Scripts => f.write_str("Scripts"),
            Self::Controls => f.write_str("Controls"),
            Self::Matching(_) => f.write_str("Matching(..)"),
        }
    }
}

/// How a [`TextReader`] lays out whitespace and the boundaries between elements.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Layout {
    /// One line of words: whitespace collapsed to single spaces, and a space wherever two boxes
    /// meet (a block, a `<br>`, an element right after an element), so
    /// `<span>Gregory</span><span>Paragon 68</span>` reads as two words, as on screen.
    Words,
    /// Text nodes as written, with a newline where a block or a `<br>` opens (for `<pre>`).
    AsWritten,
    /// One line per block (`<p>`, `<li>`, `<td>`, `<br>`, …), whitespace collapsed within lines,
    /// empty lines dropped; a skipped subtree reads as a space. Pattern tools (emails, phones,
    /// prices) read this so that a match cannot run across two cells or two paragraphs.
    Lines,
}

/// The one way to read the text of an element: a layout and what to leave out, then [`read`].
/// The walk is iterative (deep pages cannot overflow the stack) and ends early at a cap.
///
/// ```ignore
/// let title = TextReader::new(Layout::Words).skip(Skip::Scripts).max_chars(80).read(h1);
/// ```
///
/// [`read`]: TextReader::read
#[derive(Clone, Copy)]
pub struct TextReader<'s> {
    layout: Layout,
    scripts: bool,
    controls: bool,
    matching: Option<&'s dyn Fn(ElementRef<'_>) -> bool>,
    including_root: bool,
    max_chars: usize,
    stop_after_bytes: usize,
}

// By hand: a caller's predicate has no `Debug`.
impl std::fmt::Debug for TextReader<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextReader")
            .field("layout", &self.layout)
            .field("scripts", &self.scripts)
            .field("controls", &self.controls)
            .field("matching", &self.matching.is_some())
            .field("including_root", &self.including_root)
            .field("max_chars", &self.max_chars)
            .field("stop_after_bytes", &self.stop_after_bytes)
            .finish()
    }
}

impl<'s> TextReader<'s> {
    /// Reads everything in `layout`, uncapped, skipping nothing.
    #[must_use]
    pub fn new(layout: Layout) -> Self {
        Self {
            layout,
            scripts: false,
            controls: false,
            matching: None,
            including_root: false,
            max_chars: usize::MAX,
            stop_after_bytes: usize::MAX,
        }
    }

    /// Leaves out the subtrees `skip` names; give it once per kind (a second
    /// [`Skip::Matching`] replaces the first).
    #[must_use]
    pub fn skip(mut self, skip: Skip<'s>) -> Self {
        match skip {
            Skip::Scripts => self.scripts = true,
            Skip::Controls => self.controls = true,
            Skip::Matching(matches) => self.matching = Some(matches),
        }
        self
    }

    /// Applies the skip and layout rules to the element itself, not only below it: a skipped
    /// element then reads as empty, and a block starts with its separator.
    #[must_use]
    pub fn including_root(mut self) -> Self {
        self.including_root = true;
        self
    }

    /// At most `max_chars` characters, and the walk stops there. In [`Layout::Lines`] the
    /// lines are cut after the walk (collapsing happens there).
    #[must_use]
    pub fn max_chars(mut self, max_chars: usize) -> Self {
        self.max_chars = max_chars;
        self
    }

    /// Stops the walk after the text node that takes the text gathered so far (before any
    /// collapsing in [`Layout::Lines`]) past `bytes` bytes; that node is kept whole.
    /// Bounds the cost of reading a whole page where text past a size is never shown.
    #[must_use]
    pub fn stop_after_bytes(mut self, bytes: usize) -> Self {
        self.stop_after_bytes = bytes;
        self
    }

    /// The text of `element`.
    #[must_use]
    pub fn read(&self, element: ElementRef<'_>) -> String {
        let mut reading = Reading {
            reader: self,
            out: String::new(),
            chars: 0,
            space: false,
            over_budget: false,
        };
        if self.including_root && !reading.open(element) {
            return String::new();
        }
        walk(element, &mut reading);
        if self.including_root {
            reading.close(element);
        }
        match self.layout {
            Layout::Words | Layout::AsWritten => reading.out,
            Layout::Lines => cut_chars(one_line_per_block(&reading.out), self.max_chars),
        }
    }

    fn skips(&self, element: ElementRef<'_>) -> bool {
        let name = element.value().name();
        (self.scripts && matches!(name, "script" | "style" | "noscript" | "template"))
            || (self.controls && matches!(name, "button" | "svg"))
            || self.matching.is_some_and(|matches| matches(element))
    }
}

/// Raw block text (a newline at every block boundary) as lines: whitespace collapsed within
/// each, empty ones dropped.
fn one_line_per_block(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for line in raw.lines() {
        let line = collapse_whitespace(line);
        if !line.is_empty() {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&line);
        }
    }
    out
}

/// `text` cut to at most `max_chars` characters, the last of them `…` when it was cut: the
/// one way a text is shortened for people and models (step messages, outlines, samples).
pub fn shorten(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max_chars.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// `text` cut to at most `max_chars` characters, unmarked: for answers bounded by a stated
/// limit (`limits.max_text_chars`), where a `…` would be a character the page never had.
pub fn cut_chars(text: String, max_chars: usize) -> String {
    if text.len() <= max_chars || text.chars().count() <= max_chars {
        text
    } else {
        text.chars().take(max_chars).collect()
    }
}

/// One [`TextReader::read`] under way.
struct Reading<'r, 's> {
    reader: &'r TextReader<'s>,
    out: String,
    /// Characters in `out` ([`Layout::Words`] and [`Layout::AsWritten`]).
    chars: usize,
    /// [`Layout::Words`]: a space is owed before the next word.
    space: bool,
    /// A text node took `out` past [`TextReader::stop_after_bytes`].
    over_budget: bool,
}

impl Reading<'_, '_> {
    fn full(&self) -> bool {
        self.reader.layout != Layout::Lines && self.chars >= self.reader.max_chars
    }

    /// Appends `text`'s characters while there is room under the cap.
    fn push_chars(&mut self, text: impl Iterator<Item = char>) {
        for c in text {
            if self.full() {
                return;
            }
            self.out.push(c);
            self.chars += 1;
        }
    }

    fn push_words(&mut self, text: &str) {
        if text.starts_with(char::is_whitespace) {
            self.space = true;
        }
        for word in text.split_whitespace() {
            if self.full() {
                return;
            }
            if self.space && !self.out.is_empty() {
                self.out.push(' ');
                self.chars += 1;
            }
            self.space = true;
            self.push_chars(word.chars());
        }
        // A word that ends the text node may go on in the next one (`foo<b>bar</b>`).
        self.space = text.ends_with(char::is_whitespace);
    }
}

impl<'a> Visitor<'a> for Reading<'_, '_> {
    fn text(&mut self, text: &str) {
        match self.reader.layout {
            Layout::Words => self.push_words(text),
            // Uncapped, the count is never read: skip the per-character copy.
            Layout::AsWritten if self.reader.max_chars == usize::MAX => self.out.push_str(text),
            Layout::AsWritten => self.push_chars(text.chars()),
            // Newlines inside a text node are layout, not structure.
            Layout::Lines => self.out.extend(
                text.chars()
                    .map(|c| if c == '\n' || c == '\r' { ' ' } else { c }),
            ),
        }
        self.over_budget = self.out.len() > self.reader.stop_after_bytes;
    }

    fn open(&mut self, element: ElementRef<'a>) -> bool {
        if self.reader.skips(element) {
            if self.reader.layout == Layout::Lines {
                self.out.push(' ');
            }
            return false;
        }
        let name = element.value().name();
        let breaks = is_block(name) || name == "br";
        match self.reader.layout {
            // `<span>Gregory</span><span>Paragon 68</span>` reads as two words on screen
            // (separate boxes); a tag inside a word (`<b>H</b>ello`) has a text node beside
            // it instead.
            Layout::Words => {
                if breaks
                    || element
                        .prev_sibling()
                        .is_some_and(|p| p.value().is_element())
                {
                    self.space = true;
                }
            }
            Layout::AsWritten => {
                if breaks {
                    self.push_chars(std::iter::once('\n'));
                }
            }
            Layout::Lines => {
                if breaks {
                    self.out.push('\n');
                }
            }
        }
        true
    }

    fn close(&mut self, element: ElementRef<'a>) {
        if !is_block(element.value().name()) {
            return;
        }
        match self.reader.layout {
            Layout::Words => self.space = true,
            Layout::AsWritten => {}
            Layout::Lines => self.out.push('\n'),
        }
    }

    fn done(&self) -> bool {
        self.full() || self.over_budget
    }
}

/// What a [`walk`] does with the nodes it meets.
trait Visitor<'a> {
    /// A text node.
    fn text(&mut self, text: &str);
    /// Entering an element; false skips its subtree (and its `close`).
    fn open(&mut self, element: ElementRef<'a>) -> bool;
    /// Leaving an element that was entered.
    fn close(&mut self, element: ElementRef<'a>);
    /// Stop the walk early.
    fn done(&self) -> bool {
        false
    }
}

/// Walks the subtree under `root` in document order without recursion: html5ever does not
/// cap nesting depth, and a recursive walk over 100 000 nested `<div>`s would overflow the
/// stack of the blocking thread the tools run on.
fn walk<'a>(root: ElementRef<'a>, visitor: &mut impl Visitor<'a>) {
    let root_id = root.id();
    let mut next = root.first_child();
    let mut ticker = super::interrupt::Ticker::default();
    while let Some(node) = next {
        // An interrupted call's result is thrown away, so the walk can simply end.
        if visitor.done() || ticker.stop() {
            return;
        }
        let mut entered = false;
        if let Some(text) = node.value().as_text() {
            visitor.text(text);
        } else if let Some(element) = ElementRef::wrap(node) {
            entered = visitor.open(element);
        }
        if entered {
            if let Some(child) = node.first_child() {
                next = Some(child);
                continue;
            }
            if let Some(element) = ElementRef::wrap(node) {
                visitor.close(element);
            }
        }
        let mut current = node;
        next = loop {
            if let Some(sibling) = current.next_sibling() {
                break Some(sibling);
            }
            match current.parent() {
                Some(parent) if parent.id() != root_id => {
                    if let Some(element) = ElementRef::wrap(parent) {
                        visitor.close(element);
                    }
                    current = parent;
                }
                _ => break None,
            }
        };
    }
}

/// Whether an element name is a block-level element (for text joins and outlines).
pub fn is_block(name: &str) -> bool {
    matches!(
        name,
        "p" | "div"
            | "section"
            | "article"
            | "li"
            | "ul"
            | "ol"
            | "tr"
            | "td"
            | "th"
            | "table"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "footer"
            | "nav"
            | "aside"
            | "main"
            | "blockquote"
            | "pre"
            | "dd"
            | "dt"
            | "dl"
            | "figure"
            | "figcaption"
            | "form"
            | "br"
            | "hr"
            | "tbody"
            | "thead"
            | "caption"
    )
}

/// Collapses runs of whitespace into single spaces and trims.
pub fn collapse_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// A text's letters and digits, lower case, its words joined: "Birth place" and "birthplace"
/// meet at "birthplace", "Morgan & Morgan" and "morganandmorgan.com" near enough.
pub fn squashed(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// An English noun in the singular, as a column is named: "cities" → "city", "pitches" →
/// "pitch", "players" → "player"; a word too short to tell ("gas", "bus") as written.
pub fn singular(name: &str) -> String {
    if let Some(stem) = name.strip_suffix("ies")
        && stem.len() >= 2
    {
        return format!("{stem}y");
    }
    // "pitches", "boxes", "classes": the -es of a word ending in a hiss.
    if let Some(stem) = name.strip_suffix("es")
        && ["ch", "sh", "x", "ss", "z"]
            .iter()
            .any(|end| stem.ends_with(end))
        && stem.len() >= 3
    {
        return stem.to_owned();
    }
    match name.strip_suffix('s') {
        Some(stem) if stem.len() >= 4 && !stem.ends_with('s') && !stem.ends_with('u') => {
            stem.to_owned()
        }
        _ => name.to_owned(),
    }
}

/// A short, stable CSS selector for one element: `tag#id`, or `tag.class1.class2`.
pub fn simple_selector(element: ElementRef<'_>) -> String {
    let el = element.value();
    if let Some(id) = el.id().filter(|id| is_css_ident(id)) {
        return format!("{}#{id}", el.name());
    }
    let mut out = el.name().to_owned();
    for class in el.classes().filter(|c| is_css_ident(c)).take(3) {
        out.push('.');
        out.push_str(class);
    }
    out
}

/// Ancestors a selector for a set of elements may name before it gives up (see [`selector_for`]).
const SELECTOR_ANCESTORS: usize = 6;

/// A short CSS selector that selects exactly `items` (in document order) and nothing else on
/// the page that shows anything (empty spacers between the items may match too): the tag and classes the items share, under their parent (or, for items spread
/// over several same-shaped parents such as the rows of a grid, the parents' shared shape),
/// with ancestors put in front until nothing else matches; past [`SELECTOR_ANCESTORS`]
/// ancestors, the first ancestor that holds them all is named by its position from `<body>`
/// (`div:nth-of-type(2)`), which is exact on this page though not on the next. `None` when
/// the items (or the parents at one level) differ in tag, or no selector is exact.
pub fn selector_for(document: &scraper::Html, items: &[ElementRef<'_>]) -> Option<String> {
    selector_matching(document, items, 0)
}

/// Like [`selector_for`], but the selector may also match up to `extra` more elements that
/// show something (siblings of the items' shape that a list detector left out: a featured
/// card among the products).
pub fn selector_covering(
    document: &scraper::Html,
    items: &[ElementRef<'_>],
    extra: usize,
) -> Option<String> {
    selector_matching(document, items, extra)
}

fn selector_matching(
    document: &scraper::Html,
    items: &[ElementRef<'_>],
    extra: usize,
) -> Option<String> {
    let item = shared_shape(items)?;
    let wanted: Vec<ego_tree::NodeId> = items.iter().map(|el| el.id()).collect();
    // Exact: it matches the items, in order, and nothing else that shows anything (an empty
    // ad slot or spacer between the items is no item, and reads as nothing).
    let exact = |css: &str| {
        Selector::parse(css).is_ok_and(|selector| {
            let mut others = 0;
            let mut found = wanted.iter().peekable();
            // Inside an interrupted tool call the match stops early (its result is thrown away).
            for el in crate::page::interrupt::SelectChecked::select_checked(document, &selector) {
                if found.peek() == Some(&&el.id()) {
                    found.next();
                } else if shows_something(el) {
                    others += 1;
                    if others > extra {
                        return false;
                    }
                }
            }
            found.peek().is_none()
        })
    };
    // The items' ancestors level by level (parents first), each level's distinct elements,
    // up to the first level of one element that is `<body>` or past the readable limit.
    let mut levels: Vec<Vec<ElementRef<'_>>> = Vec::new();
    let mut level: Vec<ElementRef<'_>> = items.to_vec();
    loop {
        let mut next: Vec<ElementRef<'_>> = Vec::new();
        for el in &level {
            let parent = el.parent().and_then(ElementRef::wrap)?;
            if !next.iter().any(|p| p.id() == parent.id()) {
                next.push(parent);
            }
        }
        let top = matches!(next.as_slice(), [one] if matches!(one.value().name(), "body" | "html"));
        levels.push(next.clone());
        if top || next.len() == 1 && levels.len() >= SELECTOR_ANCESTORS {
            break;
        }
        level = next;
    }
    // Readable: each level by its own selector (one element) or its shared shape (several).
    let mut path: Vec<String> = Vec::new();
    for level in levels.iter().take(SELECTOR_ANCESTORS) {
        let step = match level.as_slice() {
            [one] => simple_selector(*one),
            many => shared_shape(many)?,
        };
        let unique = step.contains('#');
        path.insert(0, step);
        let css = format!("{} > {item}", path.join(" > "));
        if exact(&css) {
            return Some(css);
        }
        // An id is unique: past it, more ancestors cannot help.
        if unique {
            break;
        }
    }
    // Positional: the levels of several elements by their shared shape, the first ancestor
    // that holds all the items by its position under `<body>`.
    let holder = levels.iter().position(|level| level.len() == 1)?;
    let mut path: Vec<String> = levels[..holder]
        .iter()
        .map(|level| shared_shape(level))
        .collect::<Option<Vec<String>>>()?;
    path.reverse();
    let mut from_body: Vec<String> = Vec::new();
    let mut at = Some(levels[holder][0]);
    while let Some(el) = at.filter(|el| !matches!(el.value().name(), "body" | "html")) {
        from_body.insert(0, positional_step(el));
        at = el.parent().and_then(ElementRef::wrap);
    }
    let css = format!(
        "body > {} > {item}",
        from_body
            .into_iter()
            .chain(path)
            .collect::<Vec<_>>()
            .join(" > ")
    );
    exact(&css).then_some(css)
}

/// Whether an element shows anything: text, or an image (itself or inside).
pub fn shows_something(element: ElementRef<'_>) -> bool {
    element
        .text()
        .any(|t| t.chars().any(|c| !c.is_whitespace()))
        || element
            .descendants()
            .filter_map(ElementRef::wrap)
            .any(|el| el.value().name() == "img")
}

/// An element by its tag and its place among its siblings of that tag.
fn positional_step(element: ElementRef<'_>) -> String {
    let tag = element.value().name();
    let place = 1 + element
        .prev_siblings()
        .filter_map(ElementRef::wrap)
        .filter(|el| el.value().name() == tag)
        .count();
    format!("{tag}:nth-of-type({place})")
}

/// The tag and the classes (at most three, as [`simple_selector`] writes them) every element
/// of `elements` has; `None` when their tags differ.
fn shared_shape(elements: &[ElementRef<'_>]) -> Option<String> {
    let first = elements.first()?;
    let tag = first.value().name();
    if elements.iter().any(|el| el.value().name() != tag) {
        return None;
    }
    let mut out = tag.to_owned();
    for class in first
        .value()
        .classes()
        .filter(|c| is_css_ident(c))
        .filter(|c| {
            elements.iter().all(|el| {
                el.value()
                    .has_class(c, scraper::CaseSensitivity::CaseSensitive)
            })
        })
        .take(3)
    {
        out.push('.');
        out.push_str(class);
    }
    Some(out)
}

/// Whether a name can be used in a selector without escaping.
pub fn is_css_ident(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '-')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !name.starts_with("--")
        && !name
            .chars()
            .nth(1)
            .is_some_and(|c| c.is_ascii_digit() && name.starts_with('-'))
}

/// First number in a text ("1,234 points" → 1234, "$19.99" → 19.99).
pub fn first_number(text: &str) -> Option<f64> {
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    #[allow(clippy::expect_used)]
    let re = RE.get_or_init(|| regex::Regex::new(r"-?\d[\d,]*(?:\.\d+)?").expect("valid regex"));
    let m = re.find(text)?;
    m.as_str().replace(',', "").parse().ok()
}

/// Numbers written as words, as requests write counts ("the first five", "a dozen").
pub const NUMBER_WORDS: &[(&str, usize)] = &[
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("fifteen", 15),
    ("twenty", 20),
    ("thirty", 30),
    ("fifty", 50),
    ("hundred", 100),
    ("dozen", 12),
];

/// A whole number written in digits or as a word ("12", "twelve", "dozen").
pub fn whole_number(word: &str) -> Option<usize> {
    word.parse().ok().or_else(|| {
        NUMBER_WORDS
            .iter()
            .find(|(w, _)| *w == word)
            .map(|(_, n)| *n)
    })
}

/// The two ends of a range of counts a value is written as, and nothing more than a leading
/// icon and a trailing unit word around it: "👥 2–4" → (2, 4), "1-5 players" → (1, 5), "3 to 6"
/// → (3, 6). A date ("2019–2021" is one only when read as a date, and the caller asks first),
/// a price or a sentence with other words is none; the low end must not pass the high one.
pub fn number_range(text: &str) -> Option<(f64, f64)> {
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    #[allow(clippy::expect_used)]
    let re = RE.get_or_init(|| {
        regex::Regex::new(
            r"(?i)^[^\p{L}\p{N}]*(\d+(?:\.\d+)?)\s*(?:[-–—]|to)\s*(\d+(?:\.\d+)?)\s*\+?\s*(?:\p{L}+\.?)?\s*$",
        )
        .expect("valid regex")
    });
    let caps = re.captures(text)?;
    let low: f64 = caps[1].parse().ok()?;
    let high: f64 = caps[2].parse().ok()?;
    (low <= high).then_some((low, high))
}

/// The number written just before one of `units`, wherever the pair stands in the text
/// ("412 points" → 412, "9.3 Superb · 862 reviews" → 862, "(1,204 reviews)" → 1204). Units are
/// lowercase words; punctuation around either word is ignored. Callers bound how long a text
/// may be for the pair to name its value.
pub fn number_before(text: &str, units: &[&str]) -> Option<f64> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.windows(2).find_map(|pair| {
        let unit = pair[1]
            .trim_matches(|c: char| !c.is_alphabetic())
            .to_lowercase();
        if !units.contains(&unit.as_str()) {
            return None;
        }
        let number = pair[0].trim_matches(|c: char| !c.is_alphanumeric());
        (!number.is_empty()
            && number
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c == '.'))
        .then(|| number.replace(',', "").parse::<f64>().ok())
        .flatten()
    })
}

/// A measure written as a number and its unit, and nothing else: "3 beds" → (3, "beds"),
/// "1,450 sq ft" → (1450, "sq ft"), "25 min" → (25, "min"). The unit is one or two words of
/// letters (`m²` keeps its sign), lower case; a number alone, a price or a sentence is no
/// measure.
pub fn measure(text: &str) -> Option<(f64, String)> {
    // An arrow or a sign before the number is the page's icon: "↑ 840 m".
    let text = text.trim_start_matches(|c: char| !c.is_alphanumeric() && c != '.');
    let mut words = text.split_whitespace();
    let first = words.next()?;
    // "5GB data": a unit of data is written onto its number.
    let glued = GLUED_UNITS.iter().find_map(|unit| {
        let digits = first.len().checked_sub(unit.len())?;
        (first.is_char_boundary(digits) && first[digits..].eq_ignore_ascii_case(unit))
            .then(|| (&first[..digits], *unit))
    });
    let number = glued.map_or(first, |(digits, _)| digits);
    if !number.starts_with(|c: char| c.is_ascii_digit())
        || !number
            .chars()
            .all(|c| c.is_ascii_digit() || c == ',' || c == '.')
    {
        return None;
    }
    let value = number.replace(',', "").parse::<f64>().ok()?;
    let unit: Vec<String> = glued
        .map(|(_, unit)| unit.to_owned())
        .into_iter()
        .chain(words.map(str::to_lowercase))
        .collect();
    let letters = |w: &String| {
        w.chars().any(char::is_alphabetic)
            && w.chars()
                .all(|c| c.is_alphabetic() || matches!(c, '²' | '³' | '.'))
    };
    ((1..=2).contains(&unit.len()) && unit.iter().all(letters))
        .then(|| (value, unit.join(" ").trim_end_matches('.').to_owned()))
}

/// Units of data a page writes onto the number ("5GB", "500MB"), read as if apart.
const GLUED_UNITS: &[&str] = &["gb", "mb", "tb"];

/// Units of a length of time, with their minutes, as lists print how long a thing takes
/// ("1 hr 10 min", "45 mins", "2 hours", "1h 30m").
pub const TIME_UNITS: &[(&str, f64)] = &[
    ("h", 60.0),
    ("hr", 60.0),
    ("hrs", 60.0),
    ("hour", 60.0),
    ("hours", 60.0),
    ("m", 1.0),
    ("min", 1.0),
    ("mins", 1.0),
    ("minute", 1.0),
    ("minutes", 1.0),
];

/// The minutes a length of time written as amounts and time units, and nothing else, comes
/// to: "1 hr 10 min" → 70, "45 mins" → 45, "1.5 hours" → 90, "1h 30m" → 90. A time of day
/// ("7:30"), a date or a sentence is none.
pub fn minutes(text: &str) -> Option<f64> {
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    #[allow(clippy::expect_used)]
    let re = RE.get_or_init(|| {
        regex::Regex::new(r"(?i)^(?:\s*(\d+(?:\.\d+)?)\s*([a-z]+)\.?)+\s*$").expect("valid regex")
    });
    let pair = amount_and_unit();
    if !re.is_match(text) {
        return None;
    }
    let mut total = 0.0;
    for caps in pair.captures_iter(text) {
        let amount: f64 = caps[1].parse().ok()?;
        let unit = caps[2].to_lowercase();
        let per = TIME_UNITS.iter().find(|(u, _)| *u == unit)?.1;
        total += amount * per;
    }
    Some(total)
}

/// One amount and its unit word, as [`minutes`] reads them in turn.
fn amount_and_unit() -> &'static regex::Regex {
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    #[allow(clippy::expect_used)]
    RE.get_or_init(|| regex::Regex::new(r"(\d+(?:\.\d+)?)\s*([A-Za-z]+)").expect("valid regex"))
}

/// Longest pattern a client or a model may send.
pub const MAX_PATTERN_CHARS: usize = 1000;

/// Compiles a regular expression given by a client or a model.
///
/// The `regex` crate matches in linear time; the size limits keep a pattern like `a{1000}{1000}`
/// from compiling into something that exhausts memory.
///
/// # Errors
/// The pattern is empty, too long, invalid, or too large once compiled.
pub fn compile_regex(pattern: &str) -> Result<regex::Regex, String> {
    if pattern.is_empty() {
        return Err("empty regular expression".into());
    }
    if pattern.chars().count() > MAX_PATTERN_CHARS {
        return Err(format!(
            "regular expression longer than {MAX_PATTERN_CHARS} characters"
        ));
    }
    regex::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .dfa_size_limit(2 << 20)
        .nest_limit(64)
        .build()
        .map_err(|e| {
            let detail = e.to_string();
            let last = detail.lines().last().unwrap_or("").trim().to_owned();
            format!("invalid regular expression `{pattern}`: {last}")
        })
}

/// A regex written in our own code, compiled once per process.
#[macro_export]
macro_rules! static_regex {
    ($re:expr) => {{
        static CELL: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
        #[allow(
            clippy::expect_used,
            reason = "a pattern in our source; every test compiles it"
        )]
        CELL.get_or_init(|| regex::Regex::new($re).expect("static regex is valid"))
    }};
}

/// A number as JSON, whole numbers written as integers (42, not 42.0); None for NaN/infinity.
pub fn json_number(n: f64) -> Option<serde_json::Value> {
    if !n.is_finite() {
        return None;
    }
    if n.fract() == 0.0 && n.abs() < 9e15 {
        #[allow(
            clippy::cast_possible_truncation,
            reason = "whole and below 2^53, so exact"
        )]
        return Some(serde_json::Value::from(n as i64));
    }
    serde_json::Number::from_f64(n).map(serde_json::Value::Number)
}

/// Truncates every string to `max_chars` characters and every array and object to `max_items`
/// entries, so structured results from page data stay bounded.
pub fn bound_json(
    value: serde_json::Value,
    max_items: usize,
    max_chars: usize,
) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::String(s) if s.chars().count() > max_chars => {
            Value::String(s.chars().take(max_chars).collect())
        }
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .take(max_items)
                .map(|v| bound_json(v, max_items, max_chars))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .take(max_items)
                .map(|(k, v)| (k, bound_json(v, max_items, max_chars)))
                .collect(),
        ),
        other => other,
    }
}

/// Decodes `%XX` escapes (as found in `mailto:` and `tel:` links); invalid escapes stay as they are.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(byte) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Looks a field up in a record: the key itself, else a dotted path (`offers.price`).
pub fn field_value<'v>(
    record: &'v serde_json::Value,
    field: &str,
) -> Option<&'v serde_json::Value> {
    if let Some(v) = record.get(field) {
        return Some(v);
    }
    if !field.contains('.') {
        return None;
    }
    let mut current = record;
    for part in field.split('.') {
        current = match current {
            serde_json::Value::Object(map) => map.get(part)?,
            serde_json::Value::Array(items) => items.get(part.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(current)
}

#[cfg(test)]
mod tests {
    use super::*;
    use scraper::Html;

    #[test]
    fn a_range_of_counts_reads_as_its_two_ends() {
        assert_eq!(number_range("👥 2–4"), Some((2.0, 4.0)));
        assert_eq!(number_range("1-5 players"), Some((1.0, 5.0)));
        assert_eq!(number_range("3 to 6"), Some((3.0, 6.0)));
        assert_eq!(number_range("8–12+"), Some((8.0, 12.0)));
        for other in [
            "4",
            "5-2",
            "2–4 players, 30 min",
            "Sleeps 4",
            "10+",
            "2026-11-29",
        ] {
            assert_eq!(number_range(other), None, "{other}");
        }
    }

    #[test]
    fn a_length_of_time_comes_to_its_minutes() {
        assert_eq!(minutes("1 hr 10 min"), Some(70.0));
        assert_eq!(minutes("45 mins"), Some(45.0));
        assert_eq!(minutes("4 hr"), Some(240.0));
        assert_eq!(minutes("1.5 hours"), Some(90.0));
        assert_eq!(minutes("1h 30m"), Some(90.0));
        for other in [
            "7:30",
            "3 beds",
            "2 hours ago",
            "Serves 4",
            "45",
            "May 2027",
        ] {
            assert_eq!(minutes(other), None, "{other}");
        }
    }

    #[test]
    fn own_text_is_the_words_outside_the_child_elements() {
        let html = Html::parse_fragment("<li><span>Transmission</span>  Manual\n </li>");
        let li = html
            .select(&scraper::Selector::parse("li").unwrap())
            .next()
            .unwrap();
        assert_eq!(own_text(li), "Manual");
        assert_eq!(text_of(li), "Transmission Manual");
    }

    #[test]
    fn a_measure_is_a_number_and_its_unit_alone() {
        assert_eq!(measure("3 beds"), Some((3.0, "beds".to_owned())));
        assert_eq!(measure("1,450 sq ft"), Some((1450.0, "sq ft".to_owned())));
        assert_eq!(measure("640 m²"), Some((640.0, "m²".to_owned())));
        assert_eq!(measure("25 min."), Some((25.0, "min".to_owned())));
        assert_eq!(measure("30GB data"), Some((30.0, "gb data".to_owned())));
        assert_eq!(measure("100 GB"), Some((100.0, "gb".to_owned())));
        for not_one in [
            "Studio",
            "$1,850",
            "1850",
            "3 beds and a garden",
            "Available Jan 1",
            "2BR",
        ] {
            assert_eq!(measure(not_one), None, "{not_one}");
        }
    }

    #[test]
    fn a_number_is_read_before_its_unit_wherever_it_stands() {
        let units = &["comments", "reviews", "points"];
        assert_eq!(number_before("412 points", units), Some(412.0));
        assert_eq!(
            number_before("9.3 Superb · 862 reviews", units),
            Some(862.0)
        );
        assert_eq!(number_before("(1,204 Reviews)", units), Some(1204.0));
        assert_eq!(number_before("96\u{a0}comments", units), Some(96.0));
        // A number of another unit, a shortened number, or no number: none.
        assert_eq!(number_before("9.3 Superb", units), None);
        assert_eq!(number_before("1.5k comments", units), None);
        assert_eq!(number_before("no comments", units), None);
    }

    #[test]
    fn text_skips_scripts_and_separates_blocks() {
        let doc = Html::parse_fragment(
            "<div><p>Hello</p><p>world</p><script>x()</script><span>!</span></div>",
        );
        let div = doc.select(&selector_static("div")).next().unwrap();
        assert_eq!(text_of(div), "Hello world !");
    }

    #[test]
    fn text_is_collapsed_across_nodes_and_capped() {
        let doc = Html::parse_fragment("<div> foo<b>bar</b> <i> baz </i>qux<p>para</p>end\n</div>");
        let div = doc.select(&selector_static("div")).next().unwrap();
        assert_eq!(text_of(div), "foobar baz qux para end");
        assert_eq!(text_capped(div, 8), "foobar b");
        assert_eq!(text_capped(div, 0), "");
    }

    #[test]
    fn the_presets_differ_only_where_they_say() {
        let doc = Html::parse_fragment(
            "<div><span>a</span><span>b</span><button>Copy</button><svg><title>icon</title></svg><pre>x\n  y</pre></div>",
        );
        let div = doc.select(&selector_static("div")).next().unwrap();
        // Words: a space between boxes; scripts only are left out.
        assert_eq!(text_of(div), "a b Copy icon x y");
        // The renderer's text: boxes joined, controls left out, `<pre>` kept as written.
        assert_eq!(flat_text_raw(div), "\nab\nx\n  y");
        assert_eq!(flat_text(div), "ab x y");
        let button = doc.select(&selector_static("button")).next().unwrap();
        assert_eq!(text_of(button), "Copy");
        assert_eq!(flat_text(button), "");
        assert_eq!(
            TextReader::new(Layout::Lines)
                .skip(Skip::Controls)
                .read(div),
            "ab\nx y"
        );
    }

    #[test]
    fn a_byte_bound_keeps_the_text_node_that_crosses_it() {
        let doc = Html::parse_fragment("<div><p>one two</p><p>three</p></div>");
        let div = doc.select(&selector_static("div")).next().unwrap();
        let read = |bytes| {
            TextReader::new(Layout::AsWritten)
                .stop_after_bytes(bytes)
                .read(div)
        };
        assert_eq!(read(2), "\none two");
        assert_eq!(read(8), "\none two\nthree");
    }

    #[test]
    fn deep_nesting_does_not_overflow_the_stack() {
        // Deeper pages are a problem of their own: html5ever's parse time grows with the
        // square of the nesting depth.
        let depth = 3_000;
        let html = format!("{}deep{}", "<div>".repeat(depth), "</div>".repeat(depth));
        // A small stack: a recursive walk needs well over 100 bytes per level.
        let handle = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || {
                let doc = Html::parse_document(&html);
                let root = doc.root_element();
                (
                    text_of(root),
                    TextReader::new(Layout::Lines).read(root),
                    flat_text(root),
                )
            })
            .unwrap();
        assert_eq!(
            handle.join().unwrap(),
            ("deep".to_owned(), "deep".to_owned(), "deep".to_owned())
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(first_number("1,234 points"), Some(1234.0));
        assert_eq!(first_number("$19.99"), Some(19.99));
        assert_eq!(first_number("none"), None);
    }

    #[test]
    fn lines_keep_blocks_apart() {
        let doc = Html::parse_fragment(
            "<div><p>Call 555</p><p>1234 <b>now</b><br>later</p><table><tr><td>1</td><td>2</td></tr></table><time datetime=x>skip me</time></div>",
        );
        let div = doc.select(&selector_static("div")).next().unwrap();
        assert_eq!(
            TextReader::new(Layout::Lines)
                .skip(Skip::Scripts)
                .skip(Skip::Matching(&|el| el.value().name() == "time"))
                .read(div),
            "Call 555\n1234 now\nlater\n1\n2"
        );
    }

    #[test]
    fn json_helpers() {
        assert_eq!(json_number(42.0), Some(serde_json::json!(42)));
        assert_eq!(json_number(0.5), Some(serde_json::json!(0.5)));
        assert_eq!(json_number(f64::NAN), None);
        assert_eq!(percent_decode("a%20b%2x%"), "a b%2x%");
        let record = serde_json::json!({"offers": {"price": 3}, "a.b": 1, "list": [{"x": 9}]});
        assert_eq!(
            field_value(&record, "offers.price"),
            Some(&serde_json::json!(3))
        );
        assert_eq!(field_value(&record, "a.b"), Some(&serde_json::json!(1)));
        assert_eq!(
            field_value(&record, "list.0.x"),
            Some(&serde_json::json!(9))
        );
        assert_eq!(field_value(&record, "offers.nope"), None);
        assert_eq!(
            bound_json(serde_json::json!({"a": ["xyz", "b", "c"], "b": 1}), 2, 2),
            serde_json::json!({"a": ["xy", "b"], "b": 1})
        );
    }

    #[test]
    fn regexes_are_limited() {
        assert!(compile_regex("").is_err());
        assert!(compile_regex(&"a".repeat(MAX_PATTERN_CHARS + 1)).is_err());
        assert!(
            compile_regex(r"\w{1000}{1000}")
                .unwrap_err()
                .contains("size limit")
        );
        assert!(compile_regex("(?i)price: (\\d+)").is_ok());
    }

    #[test]
    fn selector_parts_count_compounds() {
        for (css, parts) in [
            ("div", 1),
            ("div.item > a[href]", 2),
            ("  table.itemlist > tbody > tr.athing  ", 3),
            ("a b c", 3),
            ("a,b , c", 3),
            ("a:not(b c)", 3),
            ("[data-x='a > b, c']", 1),
            ("a[title=\"x y\"] ~ b + c", 3),
            ("tr:nth-child(2n+1)", 3),
            ("div\\ x", 1),
            ("", 0),
        ] {
            assert_eq!(selector_parts(css), parts, "{css}");
        }
    }

    #[test]
    fn selectors_are_rejected_with_their_text() {
        assert!(parse_selector("div[").unwrap_err().contains("`div[`"));
        assert!(parse_selector("").is_err());
    }
}

#[cfg(test)]
mod selector_for_tests {
    use super::*;
    use scraper::Html;

    fn selected(html: &str, items: &str) -> Option<String> {
        let doc = Html::parse_document(html);
        let wanted = Selector::parse(items).unwrap();
        let items: Vec<ElementRef<'_>> = doc.select(&wanted).collect();
        selector_for(&doc, &items)
    }

    #[test]
    fn items_under_one_parent_are_selected_by_the_parent_and_their_shared_classes() {
        let html = r#"<div id="list"><p class="item odd">a</p><p class="item even">b</p><p class="item odd">c</p></div><div><p class="item">not this</p></div>"#;
        assert_eq!(
            selected(html, "#list p").as_deref(),
            Some("div#list > p.item")
        );
    }

    #[test]
    fn items_spread_over_same_shaped_rows_are_selected_by_the_rows_shape() {
        let html = r#"<main><div class="row"><div class="card">1</div><div class="card">2</div></div><div class="row"><div class="card">3</div></div></main><aside><div class="card">other</div></aside>"#;
        assert_eq!(
            selected(html, "main .card").as_deref(),
            Some("div.row > div.card")
        );
    }

    #[test]
    fn ancestors_are_added_until_nothing_else_matches() {
        let html = r#"<section class="a"><ul><li>1</li><li>2</li></ul></section><section class="b"><ul><li>x</li></ul></section>"#;
        assert_eq!(
            selected(html, "section.a li").as_deref(),
            Some("section.a > ul > li")
        );
    }

    #[test]
    fn lists_under_unclassed_wrappers_are_named_by_their_place_under_body() {
        let wrapper = |text: &str| {
            format!(
                "<div><div><div><div><div><div><div><ul><li>{text}1</li><li>{text}2</li></ul></div></div></div></div></div></div></div>"
            )
        };
        let html = format!("<body>{}{}</body>", wrapper("a"), wrapper("b"));
        let doc = Html::parse_document(&html);
        let wanted = Selector::parse("li").unwrap();
        let items: Vec<ElementRef<'_>> = doc.select(&wanted).skip(2).collect();
        let css = selector_for(&doc, &items).unwrap();
        assert!(css.starts_with("body > div:nth-of-type(2)"), "{css}");
        let got: Vec<String> = doc
            .select(&Selector::parse(&css).unwrap())
            .map(|el| el.text().collect())
            .collect();
        assert_eq!(got, ["b1", "b2"]);
    }

    #[test]
    fn a_covering_selector_takes_a_sibling_of_the_items_shape_the_exact_one_cannot() {
        let html = r#"<ul class="grid"><li class="card">1</li><li class="card">2</li><li class="card">featured</li><li class="card">3</li></ul>"#;
        let doc = Html::parse_document(html);
        let cards: Vec<ElementRef<'_>> = doc
            .select(&Selector::parse("li").unwrap())
            .filter(|el| el.text().collect::<String>() != "featured")
            .collect();
        assert_eq!(selector_for(&doc, &cards), None);
        assert_eq!(
            selector_covering(&doc, &cards, 1).as_deref(),
            Some("ul.grid > li.card")
        );
        assert_eq!(selector_covering(&doc, &cards[..2], 0), None);
    }

    #[test]
    fn items_of_different_tags_have_no_selector() {
        let html = r#"<div><p>1</p><span>2</span></div>"#;
        assert_eq!(selected(html, "div > *"), None);
    }
}
