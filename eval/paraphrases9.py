#!/usr/bin/env python3
"""A ninth set for issue #30 (written 2026-11-28, session 26, before any run on it): orders by a
rating and by pay, alone and with a stock filter — the classes of the seventh set's held tasks,
whose held wordings were partly read by accident in session 25 (docs/words.md). Those held
wordings are no longer a clean measure, so this set brings new ones.

Split by task: `tune9` tasks sit on two pages written for this set (`eval/pages/books.html`,
`eval/pages/jobs-board.html`) and are tuned on; `held9` tasks ask the same classes on other pages
(`fixtures/shop.html`, `fixtures/records-jobs.html` and `eval/pages/hotels.html`, written for
this set) in other wordings, and are not looked at beyond their scores and failing ids. Every
wording of both halves was written before the first run.

Run: python3 eval/paraphrases9.py → eval/paraphrase_tasks9.json, then
  cargo run --release --example eval_planner -- ../shared/corpora eval/paraphrase_tasks9.json
"""
from paraphrases import TITLE, wordings

JOB = "title|name|headline|heading|job|role|position|job_title"

TUNE = [
    # A rating's order, the best first (books: "4.7/5 (640 ratings)").
    dict(id="books-top-rated-two", page="fixtures/books.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["A Map of Small Rivers", "The Glass Gardener"]},
         wordings=["the two highest rated books",
                   "top 2 books by rating",
                   "which 2 books have the best reviews?",
                   "2 best-rated titles",
                   "give me the two books readers rated highest",
                   "books sorted by rating, highest first, just 2",
                   "the 2 books with the most stars",
                   "die zwei am besten bewerteten Bücher",
                   "los 2 libros mejor valorados",
                   "two top-rated books please"]),
    # A rating's order, the worst first.
    dict(id="books-worst-rated-one", page="fixtures/books.html",
         check={"kind": "records", "key": TITLE, "expected": ["Borrowed Weather"]},
         wordings=["which book has the lowest rating?",
                   "the worst rated book",
                   "lowest-rated title on the page",
                   "the book with the fewest stars",
                   "which book do readers like least",
                   "1 book, sorted by rating ascending",
                   "book with the worst reviews",
                   "le livre le moins bien noté",
                   "the single lowest scoring book"]),
    # A rating's order among the items in stock.
    dict(id="books-best-rated-in-stock", page="fixtures/books.html",
         check={"kind": "records", "key": TITLE, "expected": ["The Glass Gardener"]},
         wordings=["the highest rated book that is in stock",
                   "best-rated book I can actually buy right now",
                   "among books in stock, which has the best rating?",
                   "top rated in-stock title",
                   "skip sold out ones - what's the best reviewed book?",
                   "in stock only: the 1 book with the highest rating",
                   "which available book has the most stars",
                   "das am besten bewertete Buch, das auf Lager ist",
                   "best rated book, not out of stock"]),
    # A pay's order, the most first, one item.
    dict(id="board-best-paid-one", page="fixtures/jobs-board.html",
         check={"kind": "records", "key": JOB, "expected": ["Product Manager"]},
         wordings=["which job pays the most?",
                   "the highest paying role",
                   "best paid job on this board",
                   "job with the biggest salary",
                   "the top-paying position, only one",
                   "what's the highest salary job here",
                   "the one role with the highest pay",
                   "le poste le mieux payé",
                   "welcher Job zahlt am meisten?"]),
    # A pay's order, the least first.
    dict(id="board-lowest-paid-two", page="fixtures/jobs-board.html",
         check={"kind": "records", "key": JOB,
                "expected": ["Junior QA Tester", "Support Specialist"]},
         wordings=["the 2 lowest paying jobs",
                   "two worst paid roles",
                   "jobs sorted by salary ascending, first 2",
                   "which 2 positions pay the least?",
                   "2 jobs with the lowest salary",
                   "the two least paid jobs on the board",
                   "bottom 2 jobs by pay",
                   "los 2 trabajos peor pagados"]),
]

HELD = [
    dict(id="shop-three-best-rated", page="fixtures/shop.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["Summit Hiking Boot", "Marathon Elite Carbon", "Trail Runner GTX"]},
         wordings=["the three shoes with the highest ratings",
                   "top 3 rated products",
                   "3 best reviewed shoes",
                   "which three products score best with customers?",
                   "products ordered by star rating, top three only",
                   "give me the 3 shoes people rate highest",
                   "highest-rated 3 items on the page",
                   "les 3 chaussures les mieux notées",
                   "three shoes with the best star ratings"]),
    dict(id="hotels-two-lowest-rated", page="fixtures/hotels.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["Station Budget Rooms", "Riverside Lodge"]},
         wordings=["the two lowest rated hotels",
                   "which 2 hotels have the worst guest scores?",
                   "2 worst-reviewed places to stay",
                   "hotels by score, lowest first, 2 of them",
                   "the bottom two hotels by rating",
                   "two hotels guests rated lowest",
                   "die 2 am schlechtesten bewerteten Hotels",
                   "lowest scoring 2 properties"]),
    dict(id="hotels-best-rated-available", page="fixtures/hotels.html",
         check={"kind": "records", "key": TITLE, "expected": ["Old Mill Guesthouse"]},
         wordings=["the best rated hotel that isn't sold out",
                   "highest scoring hotel I can still book",
                   "of the available hotels, which one has the top rating?",
                   "available only - best reviewed property",
                   "1 hotel: highest guest score, excluding sold out",
                   "top-rated available hotel",
                   "best rated hotel with rooms available",
                   "el hotel mejor valorado que esté disponible"]),
    dict(id="jobs-highest-salary-one", page="fixtures/records-jobs.html",
         check={"kind": "records", "key": JOB, "expected": ["Designer"]},
         wordings=["which role has the highest salary?",
                   "the single best-paying job",
                   "job that pays best",
                   "highest paid position listed",
                   "top salary: which job?",
                   "just the one job with the most pay",
                   "the best paid opening here",
                   "der bestbezahlte Job"]),
    dict(id="jobs-two-lowest-paid", page="fixtures/records-jobs.html",
         check={"kind": "records", "key": JOB, "expected": ["Rust engineer", "SRE"]},
         wordings=["the two lowest-paid jobs",
                   "2 roles with the smallest salaries",
                   "which two jobs pay the least",
                   "jobs by salary, lowest first, only two",
                   "worst paying 2 positions",
                   "the 2 jobs with the lowest pay",
                   "bottom two by salary",
                   "les deux postes les moins bien payés"]),
]

if __name__ == "__main__":
    wordings(TUNE + HELD, lambda index: "tune9" if index < len(TUNE) else "held9",
             "paraphrase_tasks9.json")
