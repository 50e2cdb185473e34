"""The sixteenth paraphrase set (issue #30): a page of walking trails (`eval/pages/trails.html`),
each trail's facts unlabelled chips ("12.3 km", "4 hr 15 min", "Strenuous", "↑ 840 m"), its
dog rule a line ("Dogs welcome", "No dogs"). Written after held15's first runs as a tuning set
whose tasks share classes with held15's failing tasks (an order by a length of time, a column
named by its values, a bound in a unit that is no money) on another page and in other words,
with a held half of its own. Every wording was written before any run. Tasks alternate between
`para-tune16-…` and `para-held16-…` in the order written. Run: `python3 eval/paraphrases16.py`
writes `eval/paraphrase_tasks16.json`."""

import paraphrase_set

PAGE = "fixtures/trails.html"
NAME = "title|name|headline|heading|trail|trail name|route|walk"


def records(*names):
    return paraphrase_set.records(NAME, *names)


TASKS = [
    (
        "quickest",
        records("Tarn Shore Stroll"),
        [
            "which trail is the quickest to walk?",
            "the trail that takes the least time",
            "Find the shortest walk by time",
            "what's the fastest route to complete",
            "the one trail I can finish soonest",
            "which hike needs the least time?",
            "le sentier le plus rapide",
            "Which walk takes the shortest time?",
        ],
    ),
    (
        "over-10-km",
        records("Ridge Loop", "Heather Moor Circuit", "Pike Summit Route"),
        [
            "trails longer than 10 km",
            "Which walks are over 10 kilometres?",
            "list the routes of more than 10 km",
            "hikes with a distance above 10 km",
            "show trails that are at least 10 km long",
            "walks over ten kilometres",
            "Wanderungen über 10 km",
            "rutas de más de 10 km",
        ],
    ),
    (
        "difficulty-of-each",
        {
            "kind": "columns",
            "min_items": 10,
            "columns": [NAME, "difficulty|level|grade|how hard|schwierigkeit|difficulté|dificultad"],
        },
        [
            "the difficulty of each trail",
            "How hard is every walk?",
            "list all trails with their difficulty",
            "trail name and difficulty level for every route",
            "give me each trail's grade (easy, moderate, strenuous)",
            "for every hike, how difficult is it",
            "Schwierigkeit jeder Wanderung",
            "every trail and how hard it is",
        ],
    ),
    (
        "easy",
        records("Mill Pond Walk", "Beech Wood Path", "River Ouse Towpath", "Tarn Shore Stroll"),
        [
            "which trails are easy?",
            "easy walks only",
            "List the trails graded Easy",
            "show me gentle routes (easy difficulty)",
            "find every easy hike",
            "walks suitable for beginners, marked easy",
            "randonnées faciles",
            "What routes are rated easy?",
        ],
    ),
    (
        "climb-over-500-m",
        records("Ridge Loop", "Heather Moor Circuit", "Castle Crag Climb"),
        [
            "trails that climb more than 500 metres",
            "Which walks have over 500 m of ascent?",
            "routes with an elevation gain above 500 m",
            "list hikes climbing at least 500 meters",
            "show trails with more than 500 m of climbing",
            "walks with over 500 metres of ascent",
            "Touren mit mehr als 500 Höhenmetern",
            "rutas con más de 500 m de desnivel",
        ],
    ),
    (
        "in-lakeland",
        records("Ridge Loop", "Falls Trail", "Castle Crag Climb", "Tarn Shore Stroll"),
        [
            "trails in Lakeland",
            "Which walks are in the Lakeland area?",
            "list the Lakeland routes",
            "show me every hike located in Lakeland",
            "find trails whose region is Lakeland",
            "Lakeland walks only",
            "Wanderungen in Lakeland",
            "What trails are there in Lakeland?",
        ],
    ),
    (
        "takes-longest",
        records("Heather Moor Circuit"),
        [
            "which trail takes the longest?",
            "the walk with the longest walking time",
            "Find the most time-consuming route",
            "what is the slowest trail to complete",
            "the one hike that takes the most time",
            "longest trail by duration",
            "der Weg mit der längsten Gehzeit",
            "Which route needs the most hours?",
        ],
    ),
    (
        "no-dogs",
        records("Falls Trail", "Castle Crag Climb", "Old Quarry Trail"),
        [
            "trails where dogs are not allowed",
            "Which walks don't allow dogs?",
            "list the routes with no dogs",
            "show hikes that ban dogs",
            "find trails that are not dog-friendly",
            "walks where I can't bring my dog",
            "Wanderwege ohne Hunde",
            "sentiers interdits aux chiens",
        ],
    ),
    (
        "under-2-hours",
        records("Mill Pond Walk", "Beech Wood Path", "Tarn Shore Stroll"),
        [
            "trails under 2 hours",
            "Which walks take less than two hours?",
            "list routes shorter than 2 hrs",
            "hikes I can do in under 2 hours",
            "show trails with a walking time below 2 hours",
            "walks of less than 120 minutes",
            "Wanderungen unter 2 Stunden",
            "rutas de menos de 2 horas",
        ],
    ),
    (
        "named-fields",
        {
            "kind": "columns",
            "min_items": 10,
            "columns": [
                NAME,
                "distance|length|km|how far|entfernung|distanz|länge|distancia",
                "time|duration|walking time|how long|dauer|gehzeit|durée|duración|tiempo",
                "ascent|climb|elevation|elevation gain|height gain|aufstieg|höhenmeter|dénivelé|desnivel",
            ],
        },
        [
            "name, distance, time and ascent of every trail",
            "List each walk with how far it is, how long it takes and how much it climbs",
            "table: trail / distance / duration / elevation gain",
            "for all routes get the name, the length, the walking time and the ascent",
            "Extract trails (name, distance, time, climb)",
            "I want each hike's name, km, duration and elevation",
            "Alle Wanderungen mit Name, Entfernung, Dauer und Aufstieg",
            "every trail along with its distance, its time and its ascent",
        ],
    ),
    (
        "three-most-reviewed",
        records("Falls Trail", "Castle Crag Climb", "Ridge Loop"),
        [
            "the three most reviewed trails",
            "Which 3 walks have the most reviews?",
            "top 3 routes by number of reviews",
            "give me the three hikes with the highest review count",
            "3 most-reviewed trails, most first",
            "the three trails people reviewed the most",
            "die drei Wanderungen mit den meisten Bewertungen",
            "los 3 senderos con más reseñas",
        ],
    ),
    (
        "no-parking-fee",
        {"kind": "no_answer"},
        [
            "the parking fee at each trailhead",
            "List every trail's parking fee",
            "how much is parking for each walk?",
            "for each route give me the car park charge",
            "extract the parking prices of all trails",
            "what does parking cost at every trail",
            "Parkgebühr für jede Wanderung",
            "parking fee of every hike please",
        ],
    ),
]


def main():
    paraphrase_set.write(16, PAGE, TASKS)


if __name__ == "__main__":
    main()
