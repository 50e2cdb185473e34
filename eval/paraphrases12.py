#!/usr/bin/env python3
"""A twelfth set for issue #30 (written 2026-11-29, session 29, before any run on it): a rental
listings page written for this set (`eval/pages/rentals.html`: seven apartments, each with an
address, a monthly rent, bedrooms, bathrooms and floor area on one line of facts, a move-in
date, a pets line and a "Schedule a tour" link). Its tasks are the issue's shapes on a kind of
page no earlier set has: named fields, the cheapest few, the largest by a measure that is not
money, a money bound, a state ("available now"), a count bound on a non-money number ("at least
two bedrooms"), and something the page does not have. Tasks alternate between `tune12` (read
and tuned on) and `held12` (scores only).

Run: python3 eval/paraphrases12.py → eval/paraphrase_tasks12.json, then
  cargo run --release --example eval_planner -- ../shared/corpora eval/paraphrase_tasks12.json
"""
from paraphrases import TITLE, wordings

PAGE = "fixtures/rentals.html"

TASKS = [
    dict(id="rentals-named-fields", page=PAGE,
         check={"kind": "columns", "min_items": 7,
                "columns": ["address|location|street address|where",
                            "rent|price|monthly rent|cost",
                            "bedrooms|bedroom|beds|bedroom count|number of bedroom|number of bedrooms|rooms|room"]},
         wordings=["every listing's address, rent and number of bedrooms",
                   "for each flat: where is it, how much is it, how many bedrooms",
                   "address + monthly rent + beds",
                   "rent, address and bedroom count of all apartments",
                   "I need the street address, the rent and the bedrooms of every unit",
                   "Adresse, Miete und Zimmer jeder Wohnung",
                   "adresse, loyer et chambres de chaque appartement",
                   "give me the address, price and beds of the rentals"]),
    dict(id="rentals-two-cheapest", page=PAGE,
         check={"kind": "records", "key": TITLE,
                "expected": ["Studio loft downtown", "Cozy 1BR above café"]},
         wordings=["the two cheapest apartments",
                   "2 lowest rents",
                   "which two flats cost least per month?",
                   "cheapest 2 rentals",
                   "the pair of apartments with the lowest rent",
                   "die zwei günstigsten Wohnungen",
                   "les deux appartements les moins chers",
                   "los dos pisos más baratos"]),
    dict(id="rentals-largest", page=PAGE,
         check={"kind": "records", "key": TITLE, "expected": ["Spacious 3BR family home"]},
         wordings=["the largest apartment",
                   "which flat has the most space?",
                   "biggest unit by square footage",
                   "the apartment with the most square feet",
                   "largest place listed",
                   "die größte Wohnung",
                   "l'appartement le plus grand",
                   "the roomiest rental"]),
    dict(id="rentals-under-2000", page=PAGE,
         check={"kind": "records", "key": TITLE,
                "expected": ["Sunny 1BR near the park", "Studio loft downtown",
                             "Cozy 1BR above café"]},
         wordings=["apartments under $2,000 a month",
                   "rentals below 2000 dollars",
                   "flats for less than $2k",
                   "anything renting for under 2,000/mo",
                   "units that cost less than 2000 per month",
                   "Wohnungen unter 2000 Dollar",
                   "appartements à moins de 2000 $",
                   "show me places under two thousand dollars"]),
    dict(id="rentals-available-now", page=PAGE,
         check={"kind": "records", "key": TITLE,
                "expected": ["Spacious 3BR family home", "Garden-level 2BR",
                             "Cozy 1BR above café"]},
         wordings=["apartments available now",
                   "which flats can I move into immediately?",
                   "units ready now",
                   "rentals available right away",
                   "listings with immediate availability",
                   "Wohnungen, die sofort frei sind",
                   "logements disponibles maintenant",
                   "what's available now?"]),
    dict(id="rentals-no-phones", page=PAGE,
         check={"kind": "no_answer"},
         wordings=["the landlords' phone numbers",
                   "phone number for each listing",
                   "how do I call the owners? list their numbers",
                   "contact phone of every apartment",
                   "agent phone numbers",
                   "Telefonnummern der Vermieter",
                   "numéros de téléphone des propriétaires",
                   "give me the phone numbers on this page"]),
    dict(id="rentals-two-bedrooms-or-more", page=PAGE,
         check={"kind": "records", "key": TITLE,
                "expected": ["Spacious 3BR family home", "2BR with balcony", "Garden-level 2BR",
                             "Penthouse 2BR with views"]},
         wordings=["apartments with at least 2 bedrooms",
                   "flats with two or more bedrooms",
                   "2+ bedroom rentals",
                   "units that have 2 bedrooms or more",
                   "anything with a minimum of two beds",
                   "Wohnungen mit mindestens zwei Schlafzimmern",
                   "appartements avec au moins deux chambres",
                   "places with more than one bedroom"]),
    dict(id="rentals-pets-allowed", page=PAGE,
         check={"kind": "records", "key": TITLE,
                "expected": ["Sunny 1BR near the park", "Spacious 3BR family home",
                             "2BR with balcony", "Penthouse 2BR with views"]},
         wordings=["pet-friendly apartments",
                   "flats that allow pets",
                   "where can I live with my cat?",
                   "rentals that accept pets",
                   "units where pets are OK",
                   "haustierfreundliche Wohnungen",
                   "appartements qui acceptent les animaux",
                   "listings that welcome pets"]),
]

if __name__ == "__main__":
    wordings(TASKS, lambda index: "tune12" if index % 2 == 0 else "held12", "paraphrase_tasks12.json")
