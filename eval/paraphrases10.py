#!/usr/bin/env python3
"""A tenth set for issue #30 (written 2026-11-28, session 26, before any run on it): the shapes
the issue names — named fields, numbers as words, a page without what was asked, bounds, words
that choose items, other languages — asked in our own words on the two pages written for the
ninth set (`eval/pages/books.html`, `eval/pages/jobs-board.html`). Every task is tuned on
(`tune10`); the held halves of the earlier sets stay the measure.

Run: python3 eval/paraphrases10.py → eval/paraphrase_tasks10.json, then
  cargo run --release --example eval_planner -- ../shared/corpora eval/paraphrase_tasks10.json
"""
from paraphrases import TITLE, wordings
from paraphrases9 import JOB

BOOKS = ["The Quiet Orchard", "Salt and Static", "A Map of Small Rivers",
         "Night Trains to Nowhere", "The Glass Gardener", "Borrowed Weather",
         "Letters from the Lighthouse"]
AUTHOR = "author|writer|by|byline"
PRICE = "price|cost"

TASKS = [
    dict(id="books-named-fields", page="fixtures/books.html",
         check={"kind": "columns", "min_items": 7, "columns": [TITLE, AUTHOR, PRICE]},
         wordings=["for every book: title, writer, price",
                   "grab the title + author + cost of all the books",
                   "I need a spreadsheet of books with their authors and prices",
                   "list the novels - name, who wrote it, how much",
                   "books (title/author/price)",
                   "each book's title, its author and the price in pounds",
                   "Titel, Autor und Preis aller Bücher",
                   "titre, auteur et prix de chaque livre",
                   "book name, author name, price"]),
    dict(id="board-named-fields", page="fixtures/jobs-board.html",
         check={"kind": "columns", "min_items": 5,
                "columns": [JOB, "company|employer", "location|city|where",
                            "salary|pay|price|compensation"]},
         wordings=["every job with its company, location and salary",
                   "role, employer, where, pay",
                   "list openings: job title | company | city | salary range",
                   "jobs (title, company, location, compensation)",
                   "scrape all positions incl. company name, location and salary",
                   "Stellen mit Firma, Ort und Gehalt",
                   "postes avec entreprise, lieu et salaire",
                   "each listing: title, company, location, pay"]),
    dict(id="books-no-email", page="fixtures/books.html",
         check={"kind": "no_answer"},
         wordings=["email address on this page",
                   "how can I email them",
                   "the shop's e-mail",
                   "any email addresses?",
                   "contact emails please",
                   "mail address of the bookshop",
                   "adresse e-mail",
                   "E-Mail-Adresse"]),
    dict(id="books-first-three", page="fixtures/books.html",
         check={"kind": "records", "key": TITLE, "expected": BOOKS[:3]},
         wordings=["first three books",
                   "the top 3 titles",
                   "give me three books",
                   "just the first 3",
                   "first 3 only",
                   "die ersten drei Bücher",
                   "les trois premiers livres",
                   "three books please, from the top of the list"]),
    dict(id="books-under-ten", page="fixtures/books.html",
         check={"kind": "records", "key": TITLE,
                "expected": ["The Quiet Orchard", "Night Trains to Nowhere", "Borrowed Weather",
                             "Letters from the Lighthouse"]},
         wordings=["books under £10",
                   "anything cheaper than 10 pounds",
                   "titles that cost less than £10",
                   "books below ten quid",
                   "which books are under 10?",
                   "show me books for less than £10",
                   "Bücher unter 10 Pfund",
                   "livres à moins de 10 £",
                   "books priced below £10.00"]),
    dict(id="board-remote", page="fixtures/jobs-board.html",
         check={"kind": "records", "key": JOB,
                "expected": ["Backend Developer", "Junior QA Tester"]},
         wordings=["remote jobs only",
                   "jobs that are remote",
                   "list the remote openings",
                   "location: remote",
                   "fully remote roles",
                   "which positions are remote?",
                   "Remote-Jobs",
                   "empleos remotos"]),
    dict(id="books-by-author", page="fixtures/books.html",
         check={"kind": "records", "key": TITLE, "expected": ["The Glass Gardener"]},
         wordings=["books by Ruth Okafor",
                   "what did Ruth Okafor write?",
                   "anything from Ruth Okafor",
                   "titles written by Ruth Okafor",
                   "Ruth Okafor's books",
                   "author = Ruth Okafor",
                   "Bücher von Ruth Okafor",
                   "livres de Ruth Okafor"]),
]

if __name__ == "__main__":
    wordings(TASKS, lambda index: "tune10", "paraphrase_tasks10.json")
