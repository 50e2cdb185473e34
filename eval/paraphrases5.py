#!/usr/bin/env python3
"""A fifth set for issue #30 (written 2026-11-27, after the parser learned bounds on a value —
"under $20", "more than 250 points" — and before any run on this set): 7 tasks, 8 wordings each,
on fixture pages, asking for the items within a bound (a price, points, comments, a salary), or
for a bound on a value the page does not show. Wordings in several people's styles: terse,
chatty, questions, ranges, symbols and words for currencies, one German wording per task where
it fits. Even-numbered tasks are tuned on (`tune5`); odd-numbered ones are held out (`held5`).

Run: python3 eval/paraphrases5.py → eval/paraphrase_tasks5.json, then
  cargo run --release --example eval_planner -- ../shared/corpora eval/paraphrase_tasks5.json
"""
from paraphrases import TITLE, wordings

TASKS = [
    dict(id="shop-under-20", page="fixtures/shop-prices.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["Enamel mug", "Pocket stove", "Titanium spork"]},
         wordings=["everything under $20",
                   "which products cost less than $20?",
                   "items priced below 20 dollars",
                   "show me stuff that's $20 or less",
                   "all the products cheaper than $20 with their prices",
                   "list items with a price under 20",
                   "anything below $20 pls",
                   "Produkte unter 20 $"]),
    dict(id="shop-over-40", page="fixtures/shop-prices.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["Trail lantern", "Ridge tent", "Folding chair"]},
         wordings=["products over $40",
                   "what costs more than 40 dollars?",
                   "items priced above $40",
                   "everything $40 and up",
                   "list the things that cost at least $45",
                   "give me name and price of anything above 40 bucks",
                   "expensive stuff over $40",
                   "the products that are more than $40 each"]),
    dict(id="teapots-between", page="fixtures/shop-grid.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["Clear glass pot, 1 l", "Blue stoneware pot"]},
         wordings=["teapots between €20 and €30",
                   "which pots cost from €20 to €30?",
                   "products priced between 20 and 30 euros",
                   "all teapots €20–€30",
                   "name and price of pots between 20 and 30 EUR",
                   "I want teapots that cost at least €20 but no more than €30",
                   "pots over 20 euros and under 30 euros",
                   "everything between €20 and €30 please"]),
    dict(id="news-points", page="fixtures/news.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["Show HN: A tiny SQLite-backed job queue in Rust",
                             "The hidden cost of microservices at small scale",
                             "Why our CI got 4x faster after switching to nextest",
                             "Understanding Server-Sent Events behind reverse proxies",
                             "Ask HN: How do you test code that talks to LLMs?"]},
         wordings=["stories with more than 250 points",
                   "posts above 250 points",
                   "which stories have over 250 points?",
                   "titles of stories scoring over 250",
                   "HN posts with 251 points or more",
                   "show me everything above 250 upvotes",
                   "links with a score higher than 250",
                   "top stories, only those over 250 points"]),
    dict(id="news-comments", page="fixtures/news.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["The hidden cost of microservices at small scale",
                             "Ask HN: How do you test code that talks to LLMs?",
                             "PostgreSQL 18 released with asynchronous I/O"]},
         wordings=["stories with at least 100 comments",
                   "which posts have more than 99 comments?",
                   "threads with 100 comments or more",
                   "the most discussed stories, those over 100 comments",
                   "titles of posts with over 100 comments",
                   "list submissions having 100+ comments",
                   "discussions with a minimum of 100 comments",
                   "give me stories with more than one hundred comments"]),
    dict(id="jobs-salary", page="fixtures/records-jobs.html",
         check={"kind": "records", "key": TITLE, "expected": ["Data analyst", "Designer"]},
         wordings=["jobs paying over €75,000",
                   "which roles have a salary above 75k euros?",
                   "positions with salary of at least €80,000",
                   "title and salary of jobs over €75,000",
                   "jobs that pay more than 75000 EUR",
                   "list the openings paying €80k or more",
                   "any job with a salary higher than €75,000?",
                   "Stellen mit Gehalt über 75.000 €"]),
    dict(id="article-no-prices", page="fixtures/console-article.html",
         check={"kind": "no_answer"},
         wordings=["everything under $20",
                   "products cheaper than $50",
                   "items priced below 10 dollars",
                   "what costs less than €30 here?",
                   "stories with more than 100 points",
                   "anything over $5",
                   "list products between $10 and $20",
                   "all items up to 15 euros"]),
]


def main():
    wordings(TASKS, lambda index: "tune5" if index % 2 == 0 else "held5", "paraphrase_tasks5.json")


if __name__ == "__main__":
    main()
