"""The fifteenth paraphrase set (issue #30): a recipe grid (`eval/pages/recipes.html`), its
facts unlabelled in a list (a time "1 hr 10 min", a difficulty, "Serves 4", "520 kcal"), its
cooks in "Recipe by …" lines. Written after held14's first run as a tuning set whose tasks
share classes with held14's failing tasks (a bound on a duration, the person behind an item,
an order by a count, a page without the field) on another page and in other words, and with a
held half of its own. Every wording was written before any run. Tasks alternate between
`para-tune15-…` and `para-held15-…` in the order written. Run: `python3 eval/paraphrases15.py`
writes `eval/paraphrase_tasks15.json`."""

import paraphrase_set

PAGE = "fixtures/recipes.html"
NAME = "title|name|headline|heading|recipe|recipe name|dish"


def records(*names):
    return paraphrase_set.records(NAME, *names)


TASKS = [
    (
        "under-45-minutes",
        records(
            "Weeknight Chickpea Curry",
            "Lemon Herb Salmon",
            "Thai Green Noodle Salad",
            "Miso Glazed Aubergine",
            "Chocolate Soufflé",
        ),
        [
            "recipes that take less than 45 minutes",
            "Which dinners can I make in under 45 min?",
            "quick recipes: under 45 minutes total",
            "show recipes with a cooking time below 45 minutes",
            "anything ready in less than 45 mins",
            "list the recipes shorter than 45 minutes",
            "Rezepte unter 45 Minuten",
            "recetas de menos de 45 minutos",
        ],
    ),
    (
        "named-fields",
        {
            "kind": "columns",
            "min_items": 10,
            "columns": [
                NAME,
                "time|cook time|cooking time|total time|duration|how long|zeit|kochzeit|temps|tiempo",
                "difficulty|level|skill|schwierigkeit|difficulté|dificultad",
                "servings|serves|portions|yield|how many people|portionen|personnes|raciones",
            ],
        },
        [
            "recipe name, cooking time, difficulty and servings for each recipe",
            "List every recipe with how long it takes, how hard it is and how many it serves",
            "table of recipes: name / time / difficulty / servings",
            "for all dishes get the title, total time, skill level and number of servings",
            "Extract recipes (name, time, difficulty, serves)",
            "I want each recipe's name, cook time, level and portions",
            "Alle Rezepte mit Name, Kochzeit, Schwierigkeit und Portionen",
            "each recipe along with its time, its difficulty and its yield",
        ],
    ),
    (
        "by-person",
        records("Classic Beef Lasagne", "Slow-Roast Pork Shoulder", "Chicken Tikka Skewers"),
        [
            "recipes by Tom Hale",
            "Which recipes did Tom Hale write?",
            "show me every recipe from Tom Hale",
            "all of Tom Hale's recipes",
            "find the dishes created by Tom Hale",
            "list recipes where the cook is Tom Hale",
            "Rezepte von Tom Hale",
            "what has Tom Hale posted here",
        ],
    ),
    (
        "vegan",
        records("Weeknight Chickpea Curry", "Thai Green Noodle Salad", "Miso Glazed Aubergine"),
        [
            "which recipes are vegan?",
            "vegan dinners only",
            "List the vegan recipes",
            "show me plant-based (vegan) dishes",
            "find recipes tagged Vegan",
            "recipes without any animal products (vegan)",
            "recettes véganes",
            "Give me all the vegan options",
        ],
    ),
    (
        "most-rated",
        records("Classic Beef Lasagne"),
        [
            "which recipe has the most ratings?",
            "the most rated recipe",
            "Find the recipe with the highest number of ratings",
            "what dish have the most people rated",
            "the single recipe with the most reviews",
            "recipe with the largest rating count",
            "das Rezept mit den meisten Bewertungen",
            "Which recipe got rated the most times?",
        ],
    ),
    (
        "easy",
        records(
            "Weeknight Chickpea Curry",
            "Lemon Herb Salmon",
            "Thai Green Noodle Salad",
            "Miso Glazed Aubergine",
        ),
        [
            "which recipes are easy?",
            "easy recipes only",
            "List the recipes marked Easy",
            "show me the simple ones (difficulty: easy)",
            "find all recipes with an easy difficulty",
            "beginner-friendly recipes rated Easy",
            "recettes faciles",
            "What can I cook that is easy?",
        ],
    ),
    (
        "top-three-rated",
        records("Slow-Roast Pork Shoulder", "Classic Beef Lasagne", "Miso Glazed Aubergine"),
        [
            "the three highest rated recipes",
            "Top 3 recipes by rating",
            "give me the 3 best-rated dishes",
            "which three recipes have the best ratings?",
            "three top-rated recipes, best first",
            "best 3 recipes according to their star rating",
            "die drei am besten bewerteten Rezepte",
            "las 3 recetas mejor valoradas",
        ],
    ),
    (
        "under-500-kcal",
        records(
            "Lemon Herb Salmon",
            "Thai Green Noodle Salad",
            "Miso Glazed Aubergine",
            "Chocolate Soufflé",
            "Chicken Tikka Skewers",
        ),
        [
            "recipes under 500 calories",
            "Which dishes have fewer than 500 kcal?",
            "list the recipes below 500 calories",
            "light dinners, less than 500 kcal",
            "show recipes with under 500 calories per serving",
            "find everything under 500 kcal",
            "Rezepte unter 500 kcal",
            "recettes de moins de 500 calories",
        ],
    ),
    (
        "not-hard",
        records(
            "Weeknight Chickpea Curry",
            "Classic Beef Lasagne",
            "Lemon Herb Salmon",
            "Mushroom Risotto",
            "Thai Green Noodle Salad",
            "Spinach and Feta Pie",
            "Miso Glazed Aubergine",
            "Chicken Tikka Skewers",
        ),
        [
            "recipes that are not hard",
            "Which recipes aren't marked Hard?",
            "list every recipe except the hard ones",
            "show recipes whose difficulty isn't hard",
            "all recipes but the Hard ones",
            "skip the hard recipes and list the rest",
            "Rezepte, die nicht schwer sind",
            "recettes sauf les difficiles",
        ],
    ),
    (
        "serves-4-or-more",
        records(
            "Weeknight Chickpea Curry",
            "Classic Beef Lasagne",
            "Mushroom Risotto",
            "Slow-Roast Pork Shoulder",
            "Spinach and Feta Pie",
            "Chocolate Soufflé",
            "Chicken Tikka Skewers",
        ),
        [
            "recipes that serve 4 or more",
            "Which recipes feed at least four people?",
            "list dishes serving 4+ people",
            "show recipes with 4 or more servings",
            "find recipes for four people or more",
            "recipes that serve at least 4",
            "Rezepte für mindestens 4 Personen",
            "recettes pour 4 personnes ou plus",
        ],
    ),
    (
        "no-wine-pairing",
        {"kind": "no_answer"},
        [
            "the wine pairing for each recipe",
            "List every recipe's recommended wine",
            "which wine goes with each dish?",
            "for each recipe give me the suggested wine pairing",
            "extract the wine pairings of all recipes",
            "what wine is paired with every recipe",
            "Weinempfehlung für jedes Rezept",
            "wine pairing of every dish please",
        ],
    ),
    (
        "longest",
        records("Slow-Roast Pork Shoulder"),
        [
            "which recipe takes the longest?",
            "the recipe with the longest cooking time",
            "Find the most time-consuming recipe",
            "what is the slowest dish to make",
            "the one recipe that takes the most time",
            "longest recipe on the page",
            "das Rezept mit der längsten Zubereitungszeit",
            "Which dinner needs the most time to cook?",
        ],
    ),
]


def main():
    paraphrase_set.write(15, PAGE, TASKS)


if __name__ == "__main__":
    main()
