"""The eighteenth paraphrase set (issue #30): seaside campsites, written before any run on it.

A new kind of page: ten campsites whose region and distance to the beach share a line, a list
of features where the dog rule, one amenity and the number of pitches stand as tags ("Dogs
allowed", "Heated pool", "140 pitches"), a rating out of five with its reviews, and a price
per night. Its tuning half holds the classes held17 failed on, in other words and on another
page (a bound on a distance, a permission refused, a price bound per night, a best-rated item
with an amenity, named fields); its held half is its own.
Run `python3 eval/paraphrases18.py` to write `eval/paraphrase_tasks18.json`."""

import paraphrase_set

PAGE = "fixtures/campsites.html"
NAME = "title|name|headline|heading|campsite|site|camp|campsite name|site name|camping"


def records(*names):
    return paraphrase_set.records(NAME, *names)


def columns(*names):
    return paraphrase_set.columns(NAME, *names)


TASKS = [
    (
        "within-1-km-of-the-beach",
        records(
            "Camping Les Dunes",
            "Domaine de la Plage",
            "Les Pins Sauvages",
            "Ferme des Embruns",
            "Les Mouettes",
            "Le Clos Marin",
        ),
        [
            "campsites within 1 km of the beach",
            "which sites are less than a kilometre from the beach?",
            "campsites 1 km or less from the sea",
            "show me campsites no more than 1 km to the beach",
            "I want to walk to the beach — max 1 km. Which campsites?",
            "list the sites within a kilometre of the beach",
            "campings à moins de 1 km de la plage",
            "which ones are at most 1km from the beach",
        ],
    ),
    (
        "most-pitches",
        records("Domaine de la Plage"),
        [
            "which campsite has the most pitches?",
            "the biggest campsite by number of pitches",
            "campsite with the largest number of pitches",
            "most pitches",
            "find the site with the highest pitch count",
            "which one has the most places to pitch a tent?",
            "le camping avec le plus d'emplacements",
            "what's the largest site (pitches)?",
        ],
    ),
    (
        "no-dogs",
        records("Le Pré Vert", "Camping du Lac", "Camping Belle Côte", "Les Mouettes"),
        [
            "campsites that don't allow dogs",
            "which sites say no dogs?",
            "list the campsites where dogs are not allowed",
            "dog-free campsites",
            "I'm scared of dogs, show me sites without them",
            "campsites that do not accept dogs",
            "sites with a no dogs policy",
            "Campingplätze ohne Hunde",
        ],
    ),
    (
        "in-brittany",
        records("Camping Les Dunes", "Camping Belle Côte", "Le Clos Marin"),
        [
            "campsites in Brittany",
            "which sites are in Brittany?",
            "only Brittany please",
            "list every campsite located in Brittany",
            "show me the ones in the Brittany region",
            "Brittany campsites",
            "I'm heading to Brittany, which campsites are there?",
            "campings en Brittany",
        ],
    ),
    (
        "under-30-a-night",
        records(
            "Le Pré Vert",
            "Camping du Lac",
            "Les Pins Sauvages",
            "Camping Belle Côte",
            "Ferme des Embruns",
            "Camping Soleil d'Or",
            "Le Clos Marin",
        ),
        [
            "campsites under €30 a night",
            "which sites cost less than 30 euros per night?",
            "pitches below €30/night",
            "show me campsites cheaper than €30 a night",
            "anything for under 30 euros a night?",
            "campsites with a nightly price under €30",
            "my budget is less than €30 per night — which sites?",
            "Campingplätze unter 30 € pro Nacht",
        ],
    ),
    (
        "heated-pool",
        records("Camping Les Dunes", "Camping du Lac", "Les Mouettes"),
        [
            "campsites with a heated pool",
            "which sites have a heated swimming pool?",
            "show campsites that have a heated pool",
            "heated pool campsites",
            "list the ones with a heated pool",
            "I want a heated pool — where?",
            "campings avec piscine chauffée",
            "sites offering a heated pool",
        ],
    ),
    (
        "name-region-rating-pitches",
        columns(
            "region|area|location|where|place|région",
            "rating|score|stars|review score|note",
            "pitches|number of pitches|pitch count|size|emplacements|capacity",
        ),
        [
            "name, region, rating and number of pitches for every campsite",
            "list each site with its region, its score and how many pitches it has",
            "campsite | region | rating | pitches",
            "for all campsites give the area, the rating and the pitch count",
            "extract name, region, rating, pitches",
            "I need every site's name, where it is, its stars and its number of pitches",
            "each campsite's region, review score and pitches",
            "nom, région, note et emplacements de chaque camping",
        ],
    ),
    (
        "name-price-distance",
        columns(
            "price|price per night|nightly price|cost|rate|prix|from",
            "distance|distance to the beach|beach|km to the beach|how far|distance from the beach",
        ),
        [
            "name, price and distance to the beach of each campsite",
            "list every site with its nightly price and how far it is from the beach",
            "for each campsite: price per night, distance from the beach",
            "campsite | price | distance to the beach",
            "extract name, price, distance",
            "give me all campsites with their price and distance to the sea",
            "each site's cost per night and km to the beach",
            "nom, prix et distance de la plage de chaque camping",
        ],
    ),
    (
        "best-rated-dogs-allowed",
        records("Domaine de la Plage"),
        [
            "the best rated campsite that allows dogs",
            "which dog-friendly site has the highest rating?",
            "of the campsites that accept dogs, which scores best?",
            "top-rated campsite where dogs are allowed",
            "highest rated site I can bring my dog to",
            "best dog friendly campsite by rating",
            "we have a dog: which is the best reviewed campsite?",
            "le camping le mieux noté qui accepte les chiens",
        ],
    ),
    (
        "cheapest-with-a-pool",
        records("Camping Soleil d'Or"),
        [
            "the cheapest campsite with a pool",
            "which site with a swimming pool costs the least per night?",
            "lowest price among campsites that have a pool",
            "cheapest pool campsite",
            "I want a pool but cheap: which campsite?",
            "of the sites with a pool, which is the least expensive?",
            "most affordable campsite that has a pool",
            "el camping más barato con piscina",
        ],
    ),
    (
        "three-best-rated",
        records("Domaine de la Plage", "Camping Belle Côte", "Camping Les Dunes"),
        [
            "the 3 best rated campsites",
            "top three campsites by rating",
            "which three sites have the highest scores?",
            "3 highest-rated campsites, best first",
            "show the three top rated sites",
            "best three campsites according to reviews",
            "give me the top 3 by rating",
            "die drei am besten bewerteten Campingplätze",
        ],
    ),
    (
        "two-closest-to-the-beach",
        records("Domaine de la Plage", "Le Clos Marin"),
        [
            "the two campsites closest to the beach",
            "which 2 sites are nearest the sea?",
            "2 campsites with the shortest distance to the beach",
            "top two by distance to the beach",
            "the pair of campsites nearest to the beach",
            "show me the 2 closest to the beach, nearest first",
            "two nearest-the-beach campsites",
            "los dos campings más cerca de la playa",
        ],
    ),
]


def main():
    paraphrase_set.write(18, PAGE, TASKS)


if __name__ == "__main__":
    main()
