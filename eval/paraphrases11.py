#!/usr/bin/env python3
"""An eleventh set for issue #30 (written 2026-11-28, session 27, before any run on it): orders by
a review score written the way booking and restaurant sites print it — a bare number out of 10
with a verbal grade and a review count on one line ("9.3 Superb · 862 reviews") — and by the
number of reviews, on a page written for this set (`eval/pages/restaurants.html`). Written
without the held ninth set's pages in hand; every task is tuned on (`tune11`), and `held9` stays
the measure of whether the class carries over.

Run: python3 eval/paraphrases11.py → eval/paraphrase_tasks11.json, then
  cargo run --release --example eval_planner -- ../shared/corpora eval/paraphrase_tasks11.json
"""
from paraphrases import TITLE, wordings

PAGE = "fixtures/restaurants.html"
SCORE = "score|rating|review_score|reviews|guest_rating"
PRICE = "price|set_menu_price|set_menu|cost"

TASKS = [
    dict(id="restaurants-best-rated-one", page=PAGE,
         check={"kind": "records", "key": TITLE, "expected": ["Saffron Lane"]},
         wordings=["which restaurant has the best score?",
                   "the top rated restaurant",
                   "highest-scoring place on this page",
                   "best reviewed restaurant",
                   "the restaurant guests rate highest",
                   "1 restaurant, by review score, best first",
                   "welches Restaurant ist am besten bewertet?",
                   "el restaurante mejor valorado",
                   "the number one restaurant by rating"]),
    dict(id="restaurants-three-best", page=PAGE,
         check={"kind": "records", "key": TITLE,
                "expected": ["Saffron Lane", "Nori House", "Olive & Ember"]},
         wordings=["top 3 restaurants by score",
                   "the three best rated restaurants",
                   "3 highest-rated places to eat",
                   "restaurants ranked by review score, first three",
                   "show me the best three restaurants according to reviews",
                   "les trois restaurants les mieux notés",
                   "three restaurants with the highest scores",
                   "best 3 spots by guest rating"]),
    dict(id="restaurants-lowest-two", page=PAGE,
         check={"kind": "records", "key": TITLE,
                "expected": ["Little Havana Kitchen", "The Copper Kettle"]},
         wordings=["the two worst rated restaurants",
                   "2 lowest-scoring restaurants",
                   "which two restaurants have the lowest review scores?",
                   "bottom 2 restaurants by rating",
                   "restaurants by score ascending, only 2",
                   "the two restaurants guests rated lowest",
                   "die zwei am schlechtesten bewerteten Restaurants",
                   "the 2 restaurants with the poorest scores"]),
    dict(id="restaurants-best-available", page=PAGE,
         check={"kind": "records", "key": TITLE, "expected": ["Nori House"]},
         wordings=["the best rated restaurant with a table free tonight",
                   "of the restaurants with tables available, which scores highest?",
                   "top rated restaurant that isn't fully booked",
                   "highest scoring restaurant I can still book tonight",
                   "best reviewed place with availability tonight",
                   "one restaurant: available tonight, best score",
                   "which open-tonight restaurant has the highest rating?",
                   "best score among restaurants that still have tables"]),
    dict(id="restaurants-named-fields", page=PAGE,
         check={"kind": "columns", "min_items": 6, "columns": [TITLE, SCORE]},
         wordings=["every restaurant with its name, score and set menu price",
                   "restaurant name, rating, number of reviews",
                   "name + score + reviews for each restaurant",
                   "all restaurants: name, review score, price",
                   "a table of the restaurants with their ratings and prices",
                   "restaurants with name and score",
                   "I want each place's name and its guest rating",
                   "list restaurants incl. score and number of reviews"]),
    dict(id="restaurants-most-reviewed", page=PAGE,
         check={"kind": "records", "key": TITLE, "expected": ["Nori House"]},
         wordings=["which restaurant has the most reviews?",
                   "the most reviewed restaurant",
                   "restaurant with the largest number of reviews",
                   "most-reviewed place",
                   "the restaurant with the highest review count",
                   "which place has been reviewed the most?",
                   "top restaurant by number of reviews",
                   "restaurant with most reviews, just one"]),
]


if __name__ == "__main__":
    wordings(TASKS, lambda index: "tune11", "paraphrase_tasks11.json")
