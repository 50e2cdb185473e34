#!/usr/bin/env python3
"""A seventh set for issue #30 (written 2026-11-28, session 23, before any run on it): 6 tasks,
8 wordings each, on fixture pages, in three classes of request the earlier sets barely hold.
Each class has one task tuned on (even index, `tune7`) and one held out (odd index, `held7`):

- the one item at an extreme of a value, no count given ("which shoe is the cheapest?");
- the items with the least of a value, a count given ("the 2 stories with the fewest points");
- a choice by a state of the items with an order and a count ("the 2 cheapest shoes in stock").

Wordings in several people's styles: terse, chatty, questions, typos left in, one in German,
French or Spanish.

Run: python3 eval/paraphrases7.py → eval/paraphrase_tasks7.json, then
  cargo run --release --example eval_planner -- ../shared/corpora eval/paraphrase_tasks7.json
"""
from paraphrases import TITLE, wordings

TASKS = [
    # The one item at an extreme of a value, no count given.
    dict(id="shop-cheapest-one", page="fixtures/shop.html",
         check={"kind": "records", "key": TITLE, "expected": ["Kids' Splash Sandal"]},
         wordings=["which shoe is the cheapest?",
                   "the cheapest product",
                   "what's the least expensive item here",
                   "lowest priced shoe on the page",
                   "find me the most affordable pair",
                   "cheapest one pls",
                   "the product with the lowest price, name and price",
                   "das günstigste Produkt"]),
    dict(id="jobs-best-paid-one", page="fixtures/records-jobs.html",
         check={"kind": "records", "key": TITLE + "|job|role|position|job_title",
                "expected": ["Designer"]},
         wordings=["the job that pays the most",
                   "which position has the highest salary?",
                   "best paid job",
                   "highest-paying role on this board",
                   "the top salary: which job is it",
                   "job with the biggest pay",
                   "which opening pays best, and how much",
                   "el trabajo mejor pagado"]),
    # The items with the least of a value, a count given.
    dict(id="news-fewest-points", page="fixtures/news.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["Notes on building a search engine in a weekend",
                             "How browsers decode legacy charsets"]},
         wordings=["the 2 submissions with the fewest points",
                   "two lowest scoring stories",
                   "which 2 posts have the least points?",
                   "bottom 2 stories by points",
                   "2 least upvoted links",
                   "sort by points ascending, first two",
                   "the two stories with the lowest score, lowest first",
                   "les 2 articles avec le moins de points"]),
    dict(id="shop-lowest-rated", page="fixtures/shop.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["City Walker Slip-On", "Court Classic Leather"]},
         wordings=["the 2 worst rated shoes",
                   "two products with the lowest ratings",
                   "which 2 items have the fewest stars?",
                   "bottom two by rating",
                   "lowest-rated 2 products, worst first",
                   "2 least liked shoes",
                   "sort by rating low to high and give me 2",
                   "die 2 am schlechtesten bewerteten Schuhe"]),
    # A choice by a state of the items, with an order and a count.
    dict(id="shop-cheapest-in-stock", page="fixtures/shop.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["Kids' Splash Sandal", "City Walker Slip-On"]},
         wordings=["the 2 cheapest shoes in stock",
                   "two lowest priced products that are available",
                   "of the in-stock items, which 2 cost the least?",
                   "cheapest two that aren't sold out",
                   "in stock only, sorted by price, first 2",
                   "2 most affordable shoes I can buy right now",
                   "skip out of stock, give me the two cheapest",
                   "los 2 productos más baratos en stock"]),
    dict(id="shop-best-rated-in-stock", page="fixtures/shop.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["Marathon Elite Carbon", "Trail Runner GTX"]},
         wordings=["the 2 best rated shoes that are in stock",
                   "top two by rating among available products",
                   "which 2 in-stock items have the highest ratings?",
                   "highest rated two, not sold out",
                   "available shoes only, best 2 by stars",
                   "2 top-rated products I can order today",
                   "excluding out of stock, the two best reviewed",
                   "les 2 chaussures les mieux notées en stock"]),
]


def main():
    wordings(TASKS, lambda index: "tune7" if index % 2 == 0 else "held7", "paraphrase_tasks7.json")


if __name__ == "__main__":
    main()
