#!/usr/bin/env python3
"""A sixth set for issue #30 (written 2026-11-27, session 22, before any run on it): 12 tasks, 8
wordings each, on fixture pages, in six classes of request that the earlier sets barely hold.
Each class has one task tuned on (even index, `tune6`) and one held out (odd index, `held6`):

- a choice by a text value of the items ("only the professors", "pioneers born in London");
- the newest items by their dates ("the 2 latest posts", "the 3 newest stories");
- one item looked up by its name ("what does DNS mean?", "how much is the Road Racer 3?");
- a sort by a value other than price, with further fields ("top 3 by comments, with authors");
- a yes/no state of the items ("only shoes in stock", "posts that aren't pinned");
- the people behind the items ("who posted in this thread?", "who are the authors?").

Wordings in several people's styles: terse, chatty, questions, typos left in, one in German,
French or Spanish where it fits.

Run: python3 eval/paraphrases6.py → eval/paraphrase_tasks6.json, then
  cargo run --release --example eval_planner -- ../shared/corpora eval/paraphrase_tasks6.json
"""
from paraphrases import TITLE, wordings

AUTHOR = "author|by|posted_by|writer|user|username|poster|byline|name"

TASKS = [
    # A choice by a text value of the items.
    dict(id="directory-professors", page="fixtures/directory.html",
         check={"kind": "records", "key": "name|title",
                "expected": ["Edsger Dijkstra", "Barbara Liskov", "Donald Knuth"]},
         wordings=["all the professors",
                   "which members are professors?",
                   "list people whose role is Professor",
                   "only professors please",
                   "members with the role professor, name and city",
                   "who in the directory is a professor",
                   "alle Professoren mit Name und Stadt",
                   "give me the professors and where they live"]),
    dict(id="table-born-london", page="fixtures/records-table.html",
         check={"kind": "records", "key": "name|title",
                "expected": ["Ada Lovelace", "Alan Turing"]},
         wordings=["pioneers born in London",
                   "which of them were born in London?",
                   "people whose birth place is London",
                   "list everyone from London",
                   "names of the London-born pioneers",
                   "rows where birth place = London",
                   "only the ones born in london pls",
                   "personnes nées à Londres"]),
    # The newest items by their dates.
    dict(id="feed-latest-two", page="fixtures/records-feed.html",
         check={"kind": "records", "key": TITLE, "expected": ["Autumn", "Summer"]},
         wordings=["the two most recent blog posts",
                   "latest 2 posts",
                   "newest two entries",
                   "what were the last two things posted?",
                   "2 newest articles with their dates",
                   "most recent posts, just two of them",
                   "die zwei neuesten Beiträge",
                   "show the last 2 posts by date"]),
    dict(id="sections-newest-three", page="fixtures/records-sections.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["Storm seasons, longer", "Cities plant shade",
                             "Glaciers that grow again"]},
         wordings=["the 3 newest stories",
                   "three most recent headlines",
                   "latest three articles with dates",
                   "what are the 3 latest stories on the front page?",
                   "most recently published 3 stories",
                   "give me the three newest headlines and who wrote them",
                   "los 3 artículos más recientes",
                   "newest 3 pieces, newest first"]),
    # One item looked up by its name.
    dict(id="glossary-dns", page="fixtures/records-glossary.html",
         check={"kind": "records", "key": "term|title|name|word",
                "expected": ["DNS"],
                "also": {"definition|description|meaning|text|summary": ["Names to addresses"]}},
         wordings=["what does DNS mean?",
                   "definition of DNS",
                   "DNS — what is it?",
                   "look up DNS in the glossary",
                   "give me the entry for DNS",
                   "what's the glossary say about DNS",
                   "meaning of the term DNS please",
                   "explain DNS"]),
    dict(id="shop-lookup", page="fixtures/shop.html",
         check={"kind": "records", "key": TITLE, "expected": ["Road Racer 3"],
                "also": {"price": ["89.95"]}},
         wordings=["how much is the Road Racer 3?",
                   "price of the Road Racer 3",
                   "Road Racer 3 price",
                   "what does the Road Racer 3 cost",
                   "find the Road Racer 3 and tell me its price",
                   "how much do Road Racer 3 shoes cost?",
                   "the price for road racer 3 please",
                   "¿cuánto cuesta el Road Racer 3?"]),
    # A sort by a value other than price, with further fields.
    dict(id="news-most-comments-authors", page="fixtures/news.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["The hidden cost of microservices at small scale",
                             "Ask HN: How do you test code that talks to LLMs?",
                             "PostgreSQL 18 released with asynchronous I/O"],
                "also": {AUTHOR: ["bkern", "eve", "frank"]}},
         wordings=["top 3 stories by comments, with their authors",
                   "the three most commented posts and who posted them",
                   "which 3 stories have the most comments? include the submitter",
                   "3 most discussed stories with author",
                   "title and author of the 3 stories with the most comments",
                   "sort stories by number of comments, first three, with usernames",
                   "most-commented 3 submissions + poster",
                   "les 3 articles les plus commentés avec leur auteur"]),
    dict(id="shop-best-rated", page="fixtures/shop.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["Summit Hiking Boot", "Marathon Elite Carbon", "Trail Runner GTX"],
                "also": {"price": ["159.00", "219.00", "129.00"]}},
         wordings=["the 3 best rated shoes with their price",
                   "top three products by rating, and what they cost",
                   "which 3 shoes have the highest ratings? prices too",
                   "3 highest-rated items with prices",
                   "name and price of the three top rated shoes",
                   "sort by stars and give me the first 3 with price",
                   "best reviewed 3 shoes + price",
                   "die 3 am besten bewerteten Schuhe mit Preis"]),
    # A yes/no state of the items.
    dict(id="shop-in-stock", page="fixtures/shop.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["Trail Runner GTX", "Road Racer 3", "City Walker Slip-On",
                             "Marathon Elite Carbon", "Kids' Splash Sandal",
                             "Court Classic Leather"]},
         wordings=["only shoes that are in stock",
                   "which products are available right now?",
                   "in-stock items",
                   "list everything that isn't sold out",
                   "shoes I can buy today (in stock)",
                   "skip the out of stock ones, list the rest",
                   "products currently in stock with names",
                   "productos en stock"]),
    dict(id="feed-not-pinned", page="fixtures/records-feed.html",
         check={"kind": "records", "key": TITLE, "expected": ["Spring", "Summer", "Autumn"]},
         wordings=["posts that aren't pinned",
                   "all posts except the pinned ones",
                   "skip pinned posts",
                   "which posts are not pinned?",
                   "list the regular (unpinned) posts",
                   "blog posts without the pinned ones at the top",
                   "everything but the pinned entries",
                   "articles non épinglés"]),
    # The people behind the items.
    dict(id="forum-posters", page="fixtures/forum-thread.html",
         check={"kind": "records", "key": AUTHOR,
                "expected": ["Need2KnowLion", "McMonkey", "skier8390"]},
         wordings=["who posted in this thread?",
                   "list the usernames of everyone who replied",
                   "posters in the thread",
                   "which users wrote posts here",
                   "names of the people posting",
                   "who's in this discussion",
                   "authors of each post",
                   "wer hat in diesem Thread geschrieben?"]),
    dict(id="cards-authors", page="fixtures/cards-byline.html",
         check={"kind": "records", "key": AUTHOR,
                "expected": ["Ann Lee", "Bo Jensen", "Chidi Okafor", "Dana Ruiz"]},
         wordings=["who are the authors?",
                   "list the writers of these pieces",
                   "names of everyone who wrote an article here",
                   "the author of each post",
                   "bylines only",
                   "who wrote what? just the names",
                   "which people contributed stories",
                   "los autores de los artículos"]),
]


def main():
    wordings(TASKS, lambda index: "tune6" if index % 2 == 0 else "held6", "paraphrase_tasks6.json")


if __name__ == "__main__":
    main()
