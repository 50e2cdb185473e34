"""The twenty-second paraphrase set (issue #30): a tourist board's guided walks, written before any run on it.

A new kind of page: ten guided walks on one day, each a start time, a name linking to the walk,
a guide (a person's name under the class "w-p"), a meeting point ("w-m"), an unlabelled list of
facts (a length "2 h 30 min", a count of stops "8 stops", a level "Easy"/"Moderate"/
"Challenging", a language), an entry rule ("Entry included", "Entry +€6"), the places left
("4 places left", "1 place left", "Sold out") and a price. Its tuning half carries the classes
set 21's and set 20's held halves failed on (a person's column and a place's column asked by
name, a level asked for, availability, a field named by the word its values carry: "stops")
in other words on another page, so those held halves check them; its held half is its own.
Written at the start of session 36, before any run of its tasks. Run
`python3 eval/paraphrases22.py` to write `eval/paraphrase_tasks22.json`."""

import paraphrase_set

PAGE = "fixtures/tours.html"
NAME = "name|tour|tours|tour name|title|walk|walks|activity"
GUIDE = "guide|guides|tour guide|guided by|led by|leader|host|who leads|guía|führer|reiseleiter|guide touristique"
MEET = (
    "meeting point|meeting place|meet|meets at|where|where to meet|start point|starting point|starting place"
    "|starts from|location|place|departure point|departs from|treffpunkt|point de rencontre|punto de encuentro"
)
LEVEL = "level|difficulty|difficulty level|fitness|fitness level|how hard|niveau|nivel|schwierigkeit"
STOPS = "stops|number of stops|stop count|how many stops|arrêts|nombre d'arrêts|haltestellen|paradas"
LENGTH = "length|duration|how long|lasts|hours|time|durée|dauer|duración"


def records(*names):
    return paraphrase_set.records(NAME, *names)


def columns(*names):
    return paraphrase_set.columns(NAME, *names)


OLD, HARBOUR, FOOD, CASTLE = "Old Town Highlights", "Harbour & Lighthouse Walk", "Street Food Trail", "Castle Hill Climb"
COURTYARDS, BOAT, ART, FOREST = "Hidden Courtyards", "River Boat & Bridges", "Art Nouveau Facades", "Forest Ridge Hike"
GHOSTS, PUB = "Ghosts of the Old Town", "Pub History Crawl"

TASKS = [
    (
        "guide-meeting-level",
        columns(GUIDE, MEET, LEVEL),
        [
            "List the tours with their guide, meeting point and difficulty.",
            "For each walk, who's the guide, where do we meet, and how hard is it?",
            "tour name, guide, meeting place, level",
            "I need every tour along with the guide leading it, the place it starts from and its fitness level",
            "Get me a table: tour | guide | meeting point | difficulty",
            "Which guide runs each tour, where does it start, and what level is it?",
            "Alle Touren mit Führer, Treffpunkt und Schwierigkeit",
            "Show all the walks - guide name, where to meet, difficulty level",
        ],
    ),
    (
        "sold-out",
        records(HARBOUR, COURTYARDS, PUB),
        [
            "Which tours are sold out?",
            "List the tours that are fully booked",
            "tours with no places left",
            "What can't I book anymore because it's full?",
            "Show me the sold-out walks",
            "Find the tours that have no availability",
            "Quelles visites sont complètes ?",
            "any tours already full?",
        ],
    ),
    (
        "places-left",
        records(OLD, FOOD, CASTLE, BOAT, ART, FOREST, GHOSTS),
        [
            "Which tours still have places?",
            "List the tours I can still book",
            "Show tours that aren't sold out",
            "tours with spots available",
            "What's still got space left today?",
            "Give me the walks with availability",
            "Welche Touren haben noch freie Plätze?",
            "only the tours that still have places left",
        ],
    ),
    (
        "in-spanish",
        records(FOOD, COURTYARDS, BOAT),
        [
            "Which tours are given in Spanish?",
            "Tours in Spanish please",
            "List the Spanish-language walks",
            "I only speak Spanish - which tours can I join?",
            "show tours offered in spanish",
            "¿Qué tours hay en español?",
            "Find walks with a Spanish-speaking guide",
            "spanish tours",
        ],
    ),
    (
        "stops-length",
        columns(STOPS, LENGTH),
        [
            "List each tour with how long it takes and how many stops it makes",
            "tour, duration, number of stops",
            "For every walk give me the length and the stops",
            "How long is each tour and how many stops are there?",
            "Extract the name, duration and stop count of every tour",
            "Show all tours: duration and stops",
            "Durée et nombre d'arrêts de chaque visite",
            "I want every tour's name, how many hours it lasts and its number of stops",
        ],
    ),
    (
        "cheapest-three",
        records(COURTYARDS, GHOSTS, OLD),
        [
            "What are the three cheapest tours?",
            "3 lowest-priced walks",
            "Show me the cheapest three tours, cheapest first",
            "Which three tours cost the least?",
            "top 3 tours by lowest price",
            "Find the three most affordable tours",
            "Die drei günstigsten Touren",
            "I'm on a budget - give me the 3 cheapest walks",
        ],
    ),
    (
        "easy",
        records(OLD, FOOD, COURTYARDS, BOAT, PUB),
        [
            "Which tours are easy?",
            "List the easy walks",
            "Show tours with easy difficulty",
            "tours rated easy",
            "I'm not very fit, which tours are marked easy?",
            "Find the walks whose difficulty is Easy",
            "Quelles visites sont faciles ?",
            "only easy tours please",
        ],
    ),
    (
        "by-guide",
        records(HARBOUR, CASTLE),
        [
            "Which tours does Jonas Berg lead?",
            "Tours guided by Jonas Berg",
            "List all walks with Jonas Berg as guide",
            "Which tours is Jonas Berg guiding?",
            "show jonas berg's tours",
            "Find the tours led by Jonas",
            "Welche Touren führt Jonas Berg?",
            "I want to go with Jonas Berg - which tours can I pick?",
        ],
    ),
    (
        "entry-included",
        records(OLD, FOOD, COURTYARDS, BOAT, FOREST, GHOSTS, PUB),
        [
            "Which tours include entry?",
            "List the tours where entry fees are included",
            "tours with no extra entry charge",
            "Show me the walks with entry included in the price",
            "Which tours don't charge extra for entry?",
            "Find tours with admission included",
            "Welche Touren haben den Eintritt inklusive?",
            "entry included tours only",
        ],
    ),
    (
        "longest",
        records(FOREST),
        [
            "Which tour is the longest?",
            "What's the longest walk?",
            "the tour that takes the most time",
            "Find the longest tour by duration",
            "Which walk lasts longest?",
            "longest tour",
            "¿Cuál es el tour más largo?",
            "Which one of the tours goes on the longest?",
        ],
    ),
    (
        "three-places",
        records(OLD, FOOD, BOAT, ART, GHOSTS),
        [
            "We're a group of three - which tours have room for us?",
            "Tours with at least 3 places left",
            "Which walks still have 3 or more spots?",
            "List tours that can take 3 more people",
            "Show the tours with three or more places available",
            "There are 3 of us, what can we still book?",
            "Touren mit mindestens 3 freien Plätzen",
            "tours with 3+ places left",
        ],
    ),
    (
        "most-stops",
        records(ART),
        [
            "Which tour has the most stops?",
            "the walk with the greatest number of stops",
            "What tour makes the most stops?",
            "Find the tour with the most stops along the way",
            "tour with most stops",
            "Which walk visits the most stops?",
            "Quelle visite a le plus d'arrêts ?",
            "I want to see as much as possible - which tour has the most stops?",
        ],
    ),
]

if __name__ == "__main__":
    paraphrase_set.write(22, PAGE, TASKS)
