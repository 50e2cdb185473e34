"""The seventeenth paraphrase set (issue #30): holiday cottages, written before any run on it.

A new kind of page: ten cottages whose facts stand unlabelled ("Sleeps 4", "2 bedrooms"), a
list of amenities where the pet rule is one tag among others ("Dogs welcome", "No pets",
"1 dog allowed"), a distance to the beach, a review score and a price per night. Its tuning
half has the classes held16 and held15 failed on in other words (a number after a shared word,
a pet rule, unlabelled columns asked by name); its held half is its own.
Run `python3 eval/paraphrases17.py` to write `eval/paraphrase_tasks17.json`."""

import paraphrase_set

PAGE = "fixtures/cottages.html"
NAME = "title|name|headline|heading|cottage|property|cottage name|property name|house"


def records(*names):
    return paraphrase_set.records(NAME, *names)


def columns(*names):
    return paraphrase_set.columns(NAME, *names)


TASKS = [
    (
        "sleeps-6-or-more",
        records("The Old Forge", "Harbour View House", "Saltmarsh House", "Cliff Top Lodge"),
        [
            "cottages that sleep 6 or more",
            "Which properties can take at least six guests?",
            "I need somewhere for a group of 6+ people — list the names",
            "show places sleeping six or more people",
            "list the cottages with room for 6 or more",
            "names of the houses that sleep at least 6",
            "we're a party of six, which cottages fit us?",
            "Ferienhäuser für mindestens 6 Personen",
        ],
    ),
    (
        "bedrooms-3-plus",
        records("The Old Forge", "Harbour View House", "Saltmarsh House"),
        [
            "cottages with 3 or more bedrooms",
            "which ones have at least three bedrooms?",
            "list properties with three bedrooms or more",
            "show me the houses that have more than 2 bedrooms",
            "I want 3+ bedrooms, which places qualify?",
            "names of cottages with a minimum of 3 bedrooms",
            "any with 3 bedrooms or more? give the names",
            "logements avec au moins 3 chambres",
        ],
    ),
    (
        "dogs-allowed",
        records(
            "Brook Cottage",
            "Gull's Rest",
            "Lavender Barn",
            "Saltmarsh House",
            "Driftwood Cabin",
            "Cliff Top Lodge",
        ),
        [
            "which cottages allow dogs?",
            "dog friendly cottages",
            "list the pet-friendly properties",
            "Where can I bring my dog?",
            "show cottages that accept dogs",
            "names of the places where dogs are allowed",
            "we're travelling with our dog, which ones can we book?",
            "Hunde erlaubt — welche Häuser?",
        ],
    ),
    (
        "no-pets",
        records("The Old Forge", "Harbour View House", "Fisherman's Loft", "Rose Cottage"),
        [
            "which cottages don't allow pets?",
            "list the properties with no pets",
            "cottages where dogs aren't allowed",
            "show the pet-free places",
            "I'm allergic to dogs, which cottages have no pets?",
            "names of cottages that do not accept pets",
            "properties where pets are not permitted",
            "casas sin mascotas",
        ],
    ),
    (
        "cheapest",
        records("Driftwood Cabin"),
        [
            "cheapest cottage per night",
            "which property has the lowest nightly price?",
            "what's the least expensive place to stay?",
            "the cheapest one",
            "find the cottage with the lowest price",
            "which is the most affordable cottage?",
            "lowest price per night — which cottage?",
            "das günstigste Ferienhaus",
        ],
    ),
    (
        "under-150-a-night",
        records(
            "Brook Cottage",
            "Gull's Rest",
            "Lavender Barn",
            "Fisherman's Loft",
            "Rose Cottage",
            "Driftwood Cabin",
        ),
        [
            "cottages under £150 a night",
            "which ones cost less than 150 per night?",
            "list properties priced below £150",
            "show me places for £150 or less per night",
            "anything under 150 pounds a night?",
            "cottages that cost no more than £150 per night",
            "my budget is £150 a night, what can I book?",
            "gîtes à moins de 150 £ la nuit",
        ],
    ),
    (
        "name-sleeps-price",
        columns(
            "sleeps|guests|capacity|people|sleeping|occupancy|max guests|number of guests"
            "|how many it sleeps|personenzahl",
            "price|price per night|nightly price|cost|rate|preis|preis pro nacht",
        ),
        [
            "name, sleeps and price per night for each cottage",
            "give me every property's name, how many it sleeps and the nightly price",
            "list all cottages with their capacity and price",
            "For every cottage: name | sleeps | price",
            "extract name, number of guests and price",
            "I want a table of cottages showing how many people each sleeps and what it costs a night",
            "each cottage's name, max guests, price",
            "Name, Personenzahl und Preis pro Nacht aller Häuser",
        ],
    ),
    (
        "name-location-bedrooms-rating",
        columns(
            "location|place|town|where|area|region|address|lieu",
            "bedrooms|beds|rooms|bedroom|bedroom counts|chambres",
            "rating|score|review score|stars|guest rating|scores|note",
        ),
        [
            "name, location, bedrooms and rating of every cottage",
            "list each property with where it is, its number of bedrooms and its review score",
            "for each cottage give the town, bedrooms and guest rating",
            "cottage | location | bedrooms | rating",
            "I need the names, places, bedroom counts and scores",
            "extract name, area, bedrooms, rating for all listings",
            "every cottage: where is it, how many bedrooms, how is it rated",
            "nom, lieu, chambres et note de chaque gîte",
        ],
    ),
    (
        "three-closest-to-beach",
        records("Gull's Rest", "Fisherman's Loft", "Brook Cottage"),
        [
            "the 3 cottages closest to the beach",
            "which three properties are nearest the sea?",
            "top three by distance to the beach",
            "three cottages with the shortest walk to the beach",
            "list the 3 nearest to the beach",
            "Show me the three closest to the beach, closest first",
            "3 cottages nearest the beach",
            "die drei Häuser, die dem Strand am nächsten sind",
        ],
    ),
    (
        "within-half-a-mile",
        records(
            "Brook Cottage", "Gull's Rest", "Harbour View House", "Fisherman's Loft", "Rose Cottage"
        ),
        [
            "cottages within half a mile of the beach",
            "which are at most 0.5 miles from the beach?",
            "properties 0.5 miles or less to the beach",
            "show places no more than half a mile from the sand",
            "I want to walk to the beach: max 0.5 miles. Which cottages?",
            "names of properties within 0.5 mi of the beach",
            "near the beach (half a mile or less)",
            "casas a menos de media milla de la playa",
        ],
    ),
    (
        "in-cornwall",
        records("Brook Cottage", "The Old Forge", "Driftwood Cabin"),
        [
            "cottages in Cornwall",
            "which properties are in Cornwall?",
            "list everything located in Cornwall",
            "show me the Cornish cottages",
            "only the ones in Cornwall please",
            "names of cottages in Cornwall",
            "I want to stay in Cornwall — what's available?",
            "Ferienhäuser in Cornwall",
        ],
    ),
    (
        "best-rated-with-hot-tub",
        records("Cliff Top Lodge"),
        [
            "the best rated cottage with a hot tub",
            "which property with a hot tub has the highest rating?",
            "of the cottages with a hot tub, which scores best?",
            "top-rated place that has a hot tub",
            "highest review score among hot tub cottages",
            "I want a hot tub: which is the best reviewed?",
            "best hot tub cottage by guest rating",
            "le gîte le mieux noté avec un hot tub",
        ],
    ),
]


def main():
    paraphrase_set.write(17, PAGE, TASKS)


if __name__ == "__main__":
    main()
