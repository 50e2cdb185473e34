//! The words people use for a request, as data: each entry rewrites a phrase to the plain
//! English the request parser reads ("who wrote it" → "author", "a dozen" → "12", "go into
//! each product" → "open each product", "Preis" → "price").
//!
//! The parser ([`super::intent`], [`super::reach`]) knows one way to say each thing; this
//! table knows the others. An entry names its class (what kind of phrasing it serves) and its
//! language, and has a test in this module's tests. Phrases match whole words, case aside,
//! longest first, so "how much does it cost" wins over "cost".
//!
//! Languages read: English, and German, French and Spanish for the words of lists, fields,
//! counts, item pages, metadata and the page as Markdown.

use std::sync::OnceLock;

use regex::Regex;

/// What kind of phrasing an entry serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// A word or phrase for a field of an item or of the page ("byline" → author).
    Field,
    /// A question that asks for a field ("who wrote it" → author, "how much" → price).
    Question,
    /// A number written as words ("a dozen" → 12).
    Number,
    /// A way to say "open each item's own page" ("go into each", "click through to every").
    ItemPages,
    /// A way to ask for the page as Markdown ("as .md", "in markdown format").
    Markdown,
    /// Nouns and joining words of a list request in another language ("Produkte", "mit").
    ListWord,
    /// A way to ask for order or extremes ("least expensive" → cheapest).
    Order,
}

/// The language of an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
    /// German.
    De,
    /// French.
    Fr,
    /// Spanish.
    Es,
}

/// One rewrite: `phrase` (whole words, any case) reads as `canonical`.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// What the user writes.
    pub phrase: &'static str,
    /// What the parser reads.
    pub canonical: &'static str,
    /// The kind of phrasing.
    pub class: Class,
    /// Its language.
    pub lang: Lang,
}

/// The constructor the table's rows go through, one per language below.
const fn entry(lang: Lang, phrase: &'static str, canonical: &'static str, class: Class) -> Entry {
    Entry {
        phrase,
        canonical,
        class,
        lang,
    }
}
const fn en(phrase: &'static str, canonical: &'static str, class: Class) -> Entry {
    entry(Lang::En, phrase, canonical, class)
}
const fn de(phrase: &'static str, canonical: &'static str, class: Class) -> Entry {
    entry(Lang::De, phrase, canonical, class)
}
const fn fr(phrase: &'static str, canonical: &'static str, class: Class) -> Entry {
    entry(Lang::Fr, phrase, canonical, class)
}
const fn es(phrase: &'static str, canonical: &'static str, class: Class) -> Entry {
    entry(Lang::Es, phrase, canonical, class)
}

use Class::{Field, ItemPages, ListWord, Markdown, Number, Order, Question};

/// The lexicon. Order does not matter: longer phrases are tried first.
pub const ENTRIES: &[Entry] = &[
    // English: fields by other names.
    en("writer", "author", Field),
    en("writers", "author", Field),
    en("by-line", "byline", Field),
    en("reporter", "author", Field),
    en("reporters", "author", Field),
    en("writer's name", "author", Field),
    en("username", "user", Field),
    en("usernames", "user", Field),
    en("user name", "user", Field),
    en("poster's name", "poster", Field),
    en("author name", "author", Field),
    en("author's name", "author", Field),
    en("vote count", "votes", Field),
    en("vote counts", "votes", Field),
    en("number of points", "points", Field),
    en("comment count", "comments", Field),
    en("number of comments", "comments", Field),
    en("publishing date", "publication date", Field),
    en("date published", "publication date", Field),
    en("item number", "sku", Field),
    en("part number", "sku", Field),
    en("model number", "sku", Field),
    en("product code", "sku", Field),
    en("stock number", "sku", Field),
    // English: questions that name a field.
    en("who wrote", "the author", Question),
    en("who's the author", "the author", Question),
    en("who is the author", "the author", Question),
    en("by whom", "and the author", Question),
    en("who posted", "the author", Question),
    en("who submitted", "the author", Question),
    en("how much does it cost", "the price", Question),
    en("how much they pay", "the salary", Question),
    en("how much it pays", "the salary", Question),
    en("what they pay", "the salary", Question),
    en("what it pays", "the salary", Question),
    en("how much do they cost", "the price", Question),
    en("how much it costs", "the price", Question),
    en("how much is it", "the price", Question),
    en("how much", "the price", Question),
    en("what it costs", "the price", Question),
    en("at what price", "the price", Question),
    en("how heavy", "weight", Question),
    en("how heavy it is", "the weight", Question),
    en("where it is", "the location", Question),
    en("in what city", "the city", Question),
    en("in which city", "the city", Question),
    en("what city", "the city", Question),
    en("what is this thread called", "the title", Question),
    en("what's this thread called", "the title", Question),
    en("where it takes place", "the location", Question),
    en("where they take place", "the location", Question),
    en("where it is held", "the location", Question),
    en("where they are held", "the location", Question),
    en("at which venue", "the venue", Question),
    en("which venue", "the venue", Question),
    en("how heavy is it", "the weight", Question),
    en("how heavy are they", "the weight", Question),
    en("how much does it weigh", "the weight", Question),
    en("how much do they weigh", "the weight", Question),
    en("when was this published", "the publication date", Question),
    en("when was it published", "the publication date", Question),
    en("when was it posted", "the publication date", Question),
    en("when it was published", "the publication date", Question),
    en(
        "when did this article come out",
        "the publication date",
        Question,
    ),
    en(
        "what day did this go online",
        "the publication date",
        Question,
    ),
    en(
        "the date it was published",
        "the publication date",
        Question,
    ),
    en("the date it went up", "the publication date", Question),
    en("what is it called", "the title", Question),
    en("what's it called", "the title", Question),
    en("what is this article called", "the title", Question),
    en("what's this article called", "the title", Question),
    en("what is this page called", "the title", Question),
    en("what is this post called", "the title", Question),
    en("what's this post called", "the title", Question),
    en("what is written in", "the main text of", Question),
    en("what is written on", "the main text of", Question),
    en("what does it say", "the main text", Question),
    en("what does this say", "the main text", Question),
    // English: numbers as words.
    en("a dozen", "12", Number),
    en("dozen", "12", Number),
    en("a couple of", "2", Number),
    en("a handful of", "5", Number),
    en("a score of", "20", Number),
    en("thirteen", "13", Number),
    en("fourteen", "14", Number),
    en("sixteen", "16", Number),
    en("seventeen", "17", Number),
    en("eighteen", "18", Number),
    en("nineteen", "19", Number),
    en("twenty-five", "25", Number),
    en("forty", "40", Number),
    en("sixty", "60", Number),
    en("seventy", "70", Number),
    en("eighty", "80", Number),
    en("ninety", "90", Number),
    // English: each item's own page.
    en("go into each", "open each", ItemPages),
    en("go into every", "open each", ItemPages),
    en("click through to each", "open each", ItemPages),
    en("click through to every", "open each", ItemPages),
    en("click into each", "open each", ItemPages),
    en("click into every", "open each", ItemPages),
    en("follow the link and", "open each item and", ItemPages),
    en("follow the links and", "open each item and", ItemPages),
    en("on its detail page", "from each detail page", ItemPages),
    en("on their detail pages", "from each detail page", ItemPages),
    en("from the detail pages", "from each detail page", ItemPages),
    en("on the detail page", "from each detail page", ItemPages),
    en("on its own page", "from each item page", ItemPages),
    en("on each item's own page", "from each item page", ItemPages),
    en("on the product pages", "from each product page", ItemPages),
    en("from its own page", "from each item page", ItemPages),
    // English: the page as Markdown.
    en("to md", "to markdown", Markdown),
    en("formatted as markdown", "as markdown", Markdown),
    en("markdown version", "as markdown", Markdown),
    en("into md", "into markdown", Markdown),
    en("as md", "as markdown", Markdown),
    en("in md", "in markdown", Markdown),
    // English: order.
    en("least expensive", "cheapest", Order),
    en("lowest priced", "cheapest", Order),
    en("lowest-priced", "cheapest", Order),
    en("most affordable", "cheapest", Order),
    en("priciest", "most expensive", Order),
    en("most costly", "most expensive", Order),
    en("costs the least", "cheapest", Order),
    en("cost the least", "cheapest", Order),
    en("cost the most", "most expensive", Order),
    en("costs the most", "most expensive", Order),
    en("low to high", "ascending", Order),
    en("high to low", "descending", Order),
    en("costs", "prices", Field),
    en("product grid", "products", ListWord),
    en("what's on", "the events", ListWord),
    en("product list", "products", ListWord),
    en("product listing", "products", ListWord),
    // German.
    de("alle", "all", ListWord),
    de("jedes", "each", ListWord),
    de("jeden", "each", ListWord),
    de("jede", "each", ListWord),
    de("jeder", "each", ListWord),
    de("mit", "with", ListWord),
    de("und", "and", ListWord),
    de("produkte", "products", ListWord),
    de("produkt", "product", ListWord),
    de("artikel", "articles", ListWord),
    de("beiträge", "posts", ListWord),
    de("stellen", "jobs", ListWord),
    de("die ersten", "the first", ListWord),
    de("name", "name", Field),
    de("titel", "title", Field),
    de("preis", "price", Field),
    de("autor", "author", Field),
    de("datum", "date", Field),
    de("text", "text", Field),
    de("punkten", "points", Field),
    de("firma", "company", Field),
    de("ort", "location", Field),
    de("gehalt", "salary", Field),
    de("beschreibung", "description", Field),
    de("stadt", "city", Field),
    de("den text des artikels", "the article text", Field),
    de("der text des artikels", "the article text", Field),
    de("zwei", "2", Number),
    de("drei", "3", Number),
    de("fünf", "5", Number),
    de("zehn", "10", Number),
    de("kontaktdaten", "contact details", Field),
    de("telefonnummern", "phone numbers", Field),
    de("telefon", "phone", Field),
    de("externen links", "external links", Field),
    de(
        "wann wurde das veröffentlicht",
        "the publication date",
        Question,
    ),
    de("produktname", "product name", Field),
    de("als markdown", "as markdown", Markdown),
    de("günstigsten", "cheapest", Order),
    de("billigsten", "cheapest", Order),
    // French.
    fr("tous les", "all", ListWord),
    fr("toutes les", "all", ListWord),
    fr("chaque", "each", ListWord),
    fr("de chaque", "of each", ListWord),
    fr("avec", "with", ListWord),
    fr("et", "and", ListWord),
    fr("membres", "members", ListWord),
    fr("billets", "posts", ListWord),
    fr("article", "article", ListWord),
    fr("titre", "title", Field),
    fr("auteur", "author", Field),
    fr("nom", "name", Field),
    fr("ville", "city", Field),
    fr("prix", "prices", Field),
    fr("poids", "weight", Field),
    fr("du produit", "of the product", Field),
    fr("référence", "sku", Field),
    fr("produits", "products", ListWord),
    fr("les plus chers", "most expensive", Order),
    fr("lieu", "location", Field),
    fr("lieux", "locations", Field),
    fr("événements", "events", ListWord),
    fr("le texte de l'article", "the article text", Field),
    fr("deux", "2", Number),
    fr("trois", "3", Number),
    fr("cinq", "5", Number),
    fr("dix", "10", Number),
    fr("date de publication", "publication date", Field),
    fr(
        "le texte principal de l'article",
        "the main text of the article",
        Field,
    ),
    fr("cette page en markdown", "this page as markdown", Markdown),
    fr("ouvre chaque", "open each", ItemPages),
    fr("relève son", "get its", ItemPages),
    fr("les 3 premiers", "the first 3", ListWord),
    // Spanish.
    es("todos los", "all", ListWord),
    es("todas las", "all", ListWord),
    es("cada", "each", ListWord),
    es("de cada", "of each", ListWord),
    es("con", "with", ListWord),
    es("y", "and", ListWord),
    es("productos", "products", ListWord),
    es("eventos", "events", ListWord),
    es("próximos", "upcoming", ListWord),
    es("nombre", "name", Field),
    es("precio", "price", Field),
    es("fecha", "date", Field),
    es("título", "title", Field),
    es("descripción", "description", Field),
    es("ciudad", "city", Field),
    es("miembros", "members", ListWord),
    es("el texto del artículo", "the article text", Field),
    es("más baratos", "cheapest", Order),
    es("más baratas", "cheapest", Order),
    es("más barato", "cheapest", Order),
    es("dos", "2", Number),
    es("tres", "3", Number),
    es("cinco", "5", Number),
    es("diez", "10", Number),
    es("fecha de publicación", "publication date", Field),
    es("ejemplos de código", "code examples", Field),
];

/// Rewrites `text` to the parser's English: every entry's phrase, whole words, any case, the
/// longest phrase first. Text outside the phrases keeps its case (quoted targets, names).
pub fn canonical(text: &str) -> String {
    static PATTERN: OnceLock<(Regex, Vec<&'static Entry>)> = OnceLock::new();
    let (pattern, by_group) = PATTERN.get_or_init(|| {
        let mut entries: Vec<&'static Entry> = ENTRIES.iter().collect();
        entries.sort_by_key(|e| std::cmp::Reverse(e.phrase.chars().count()));
        let alternatives: Vec<String> = entries
            .iter()
            .map(|e| format!("({})", regex::escape(e.phrase)))
            .collect();
        // Words are letters, digits, apostrophes and hyphens: "by-line" is one word and
        // "mit" does not match inside "submit".
        #[allow(clippy::expect_used)] // built from escaped constant phrases
        let regex = Regex::new(&format!(
            r"(?i)(?:^|[^\w'’-])(?:{})(?:$|[^\w'’-])",
            alternatives.join("|")
        ))
        .expect("valid lexicon pattern");
        (regex, entries)
    });
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut at = 0;
    while let Some(found) = pattern.captures_at(text, at) {
        let Some((group, matched)) = found
            .iter()
            .enumerate()
            .skip(1)
            .find_map(|(i, m)| m.map(|m| (i, m)))
        else {
            break;
        };
        out.push_str(&text[last..matched.start()]);
        out.push_str(by_group[group - 1].canonical);
        last = matched.end();
        // The separator after a phrase may start the next one.
        at = matched.end();
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_rewrites_its_phrase_in_a_sentence() {
        for entry in ENTRIES {
            let said = format!("give me {} please", entry.phrase);
            let read = canonical(&said);
            assert_eq!(
                read,
                format!("give me {} please", entry.canonical),
                "{:?} entry `{}` ({:?})",
                entry.class,
                entry.phrase,
                entry.lang
            );
        }
    }

    #[test]
    fn phrases_match_whole_words_only() {
        assert_eq!(canonical("submit the form"), "submit the form");
        assert_eq!(canonical("costume"), "costume");
        assert_eq!(canonical("Etna"), "Etna");
    }

    #[test]
    fn longer_phrases_win_and_case_outside_phrases_stays() {
        assert_eq!(canonical("How much does it cost?"), "the price?");
        assert_eq!(
            canonical("Who wrote \"Docs\" and when was it published"),
            "the author \"Docs\" and the publication date"
        );
    }

    #[test]
    fn adjacent_phrases_are_all_rewritten() {
        assert_eq!(
            canonical("alle Produkte mit Name und Preis"),
            "all products with name and price"
        );
        assert_eq!(canonical("titre et auteur"), "title and author");
    }

    #[test]
    fn no_phrase_is_listed_twice() {
        let mut seen = std::collections::HashSet::new();
        for entry in ENTRIES {
            assert!(
                seen.insert(entry.phrase.to_lowercase()),
                "`{}` is listed twice",
                entry.phrase
            );
        }
    }
}
