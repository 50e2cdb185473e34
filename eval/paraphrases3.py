#!/usr/bin/env python3
"""A third tuning set for issue #30 (written 2026-11-27, after the second set was learned and
before any run on this one): 10 tasks, 8 wordings each, on pages and shapes the first set's held
half does not use. All of it is tuning data.

Run: python3 eval/paraphrases3.py → eval/paraphrase_tasks3.json, then
  cargo run --release --example eval_planner -- ../shared/corpora eval/paraphrase_tasks3.json
"""
from paraphrases import DATE, PRICE, TITLE, wordings

# Authors here are also reporters and posters (two-row lists, front pages).
AUTHOR = "author|byline|writer|by|reporter|user|posted_by|poster"

STORIES = [f"Story number {n}" for n in range(1, 5)]

TASKS = [
    dict(id="tworows-who", page="fixtures/records-two-rows.html",
         check={"kind": "records", "key": TITLE, "expected": STORIES,
                "also": {AUTHOR: ["user1", "user2", "user3", "user4"]}},
         wordings=["who posted each story?",
                   "stories with the user who submitted them",
                   "titles and submitters",
                   "each story and its poster",
                   "list every story along with the username of the person who posted it",
                   "story, author",
                   "I want to know who submitted every story (title + username)",
                   "Titel und Autor jeder Geschichte"]),
    dict(id="sections-first5", page="fixtures/records-sections.html",
         check={"kind": "records", "key": TITLE, "expected": [
             "Telescope maps a cold galaxy", "Ancient seeds sprout again",
             "A new state of matter in the lab", "Sleep and memory, measured",
             "Why walking after meals helps"]},
         wordings=["the first 5 headlines",
                   "top five stories",
                   "give me 5 articles from the front page",
                   "the first five story titles",
                   "5 headlines please",
                   "just the top 5 news items",
                   "only the first five stories on the page",
                   "los cinco primeros titulares"]),
    dict(id="gear-priciest", page="fixtures/shop-prices.html",
         check={"kind": "records", "key": TITLE, "expected": ["Trail lantern", "Ridge tent",
                                                              "Folding chair"]},
         wordings=["the 3 most expensive products",
                   "three priciest items",
                   "which 3 products cost the most?",
                   "top 3 by price, highest first",
                   "the three items with the highest price",
                   "sort by price high to low and keep 3",
                   "3 most costly things in the shop",
                   "les trois produits les plus chers"]),
    dict(id="paged-cities", page="fixtures/paged-list.html",
         check={"kind": "records", "key": "title|name|headline|heading|job|role|position",
                "expected": ["Rust engineer", "SRE", "Data analyst"],
                "also": {"location|city|place|where": ["Berlin", "Lisbon", "Remote"]}},
         wordings=["job titles and locations on this page",
                   "each job on this page and where it is",
                   "positions with their city (this page only)",
                   "role / location for the jobs listed here",
                   "which jobs are on this page, and in what city?",
                   "the jobs here: title, place",
                   "list the openings on this page with their location",
                   "Stellen auf dieser Seite mit Ort"]),
    dict(id="fork-details", page="fixtures/catalog-fork.html",
         check={"kind": "contains", "values": ["GH-3301", "1.4 kg"]},
         wordings=["sku and weight",
                   "what's this tool's SKU and weight?",
                   "the product code and how heavy it is",
                   "weight + sku of the item",
                   "I need its item number and its weight",
                   "how much does this fork weigh and what's the SKU",
                   "SKU, weight",
                   "poids et référence"]),
    dict(id="meta-0069", page="wcxb/0069",
         check={"kind": "fields", "expected": {AUTHOR: "$gt.author", DATE: "$gt.publish_date"}},
         wordings=["who wrote it and when",
                   "author + publish date",
                   "the byline and date of this article",
                   "when was this post published and who is the author?",
                   "get me the writer and the date",
                   "the article's author and publication date",
                   "date and author",
                   "autor y fecha"]),
    dict(id="md-2865", page="wcxb/2865",
         check={"kind": "markdown", "min": 0.8},
         wordings=["this page as markdown",
                   "convert to markdown",
                   "the docs as md",
                   "markdown please",
                   "give me the documentation page in Markdown format",
                   "render the page content as markdown",
                   "I need this doc in markdown",
                   "cette page en markdown"]),
    dict(id="nomatch-dates-shop", page="fixtures/shop-prices.html",
         check={"kind": "no_answer"},
         wordings=["the publication date of each product",
                   "when was each item posted?",
                   "the 3 most recent products",
                   "products with the date they were added",
                   "list the newest items first, with their dates",
                   "the comments on each product",
                   "how many points does each product have?",
                   "fecha de publicación de cada producto"]),
    dict(id="title-0521", page="wcxb/0521",
         check={"kind": "fields", "expected": {TITLE: "$gt.title"}},
         wordings=["the title of this thread",
                   "what is this thread called?",
                   "thread title",
                   "get the page's title",
                   "the headline of the discussion",
                   "what's the topic's title?",
                   "title only",
                   "titre de la discussion"]),
    dict(id="gear-count", page="fixtures/shop-prices.html",
         check={"kind": "records", "key": TITLE, "expected": ["Trail lantern", "Enamel mug",
                                                              "Pocket stove"]},
         wordings=["the first three products with prices",
                   "3 products",
                   "give me three items and their prices",
                   "the top 3 products listed",
                   "first 3 items: name and price",
                   "just three of the products, in page order",
                   "a few products — 3 is enough",
                   "drei Produkte mit Preis"]),
]


def main():
    wordings(TASKS, lambda _: "tune3", "paraphrase_tasks3.json")


if __name__ == "__main__":
    main()
