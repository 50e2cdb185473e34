"""The twenty-sixth paraphrase set (issue #30): self-storage units as cards, written before any run on it.

A seventh kind of page: twelve storage units in a card grid beside a filter form. Each card
has the unit's name in a heading ("Unit C-212"), a size line ("10 × 10 ft (100 sq ft)"), a
"Fits …" line, a definition list of labelled facts (Building: C, Floor: Level 2, Access:
Lift), a monthly price ("£125 / month"), a stock line ("Only 4 left", "Waitlist") and a
button; climate-controlled units carry a badge, the others none. Its values are named with a
letter or a number ("Building C", "Level 2"), the class set 24's held half failed in (known
by id only); its tuning half asks for a building by letter, its held half for a floor by
number. Written in session 40, before any run of its tasks. Run `python3 eval/paraphrases26.py`
to write `eval/paraphrase_tasks26.json`."""

import paraphrase_set

PAGE = "fixtures/storage-units.html"
NAME = "unit|name|title|unit number|unit_number|unit no|unit_no|id|number|einheit|unité|unidad|trastero"
SIZE = "size|dimensions|area|sq ft|square feet|square_feet|größe|taille|tamaño|superficie"
PRICE = "price|rent|monthly price|monthly_price|price per month|price_per_month|cost|per month|monthly rent|monthly_rent|preis|miete|prix|loyer|precio"
BUILDING = "building|block|gebäude|bâtiment|edificio"
FLOOR = "floor|level|storey|etage|stock|stockwerk|étage|niveau|planta|piso"


def records(*names):
    return paraphrase_set.records(NAME, *names)


TASKS = [
    (
        "building-c",
        records("Unit C-103", "Unit C-207", "Unit C-212", "Unit C-301", "Unit C-315"),
        [
            "Which units are in Building C?",
            "list all storage units in building c",
            "show me the Building C units",
            "what can I rent in block C",
            "Units located in Building C, please",
            "Welche Einheiten gibt es in Gebäude C?",
            "I only want building C — what units are there?",
            "unidades en el edificio C",
        ],
    ),
    (
        "level-2",
        records("Unit A-205", "Unit A-230", "Unit B-210", "Unit C-207", "Unit C-212"),
        [
            "Which units are on Level 2?",
            "list the units on the second floor",
            "storage on level 2 only",
            "show me every level 2 unit",
            "units, floor: Level 2",
            "Quelles unités sont au niveau 2 ?",
            "I'd like something on the 2nd floor, which units are up there?",
            "Einheiten im 2. Stock",
        ],
    ),
    (
        "climate",
        records(
            "Unit A-205",
            "Unit A-230",
            "Unit B-210",
            "Unit C-103",
            "Unit C-207",
            "Unit C-212",
            "Unit C-301",
            "Unit C-315",
        ),
        [
            "Which units are climate controlled?",
            "list every climate-controlled unit",
            "I need a temperature controlled unit for furniture, which ones qualify?",
            "units with climate control",
            "show climate controlled storage",
            "Welche Einheiten sind klimatisiert?",
            "climate controlled units only pls",
            "unités climatisées",
        ],
    ),
    (
        "drive-up",
        records("Unit A-101", "Unit A-114", "Unit B-102", "Unit B-118", "Unit C-103"),
        [
            "Which units have drive-up access?",
            "list the drive up units",
            "units I can drive right up to",
            "show me units with drive-up access and their size",
            "Drive-up units only",
            "¿Qué trasteros tienen acceso drive-up?",
            "I want to unload straight from the van - which units allow that?",
            "Einheiten mit Drive-up-Zugang",
        ],
    ),
    (
        "size-price",
        paraphrase_set.columns(NAME, SIZE, PRICE, min_items=12),
        [
            "List every unit with its size and monthly price",
            "unit, size, price per month",
            "What sizes do the units come in and what do they cost?",
            "give me a table of all units: dimensions and rent",
            "How big is each unit and how much is it a month?",
            "Alle Einheiten mit Größe und Preis",
            "sizes + prices for all 12 units",
            "toutes les unités avec leur taille et leur prix",
        ],
    ),
    (
        "building-floor",
        paraphrase_set.columns(NAME, BUILDING, FLOOR, min_items=12),
        [
            "For each unit, which building and floor is it on?",
            "list units with building and level",
            "unit number, building, floor",
            "Where is each unit — building and floor?",
            "all units and their building/floor",
            "Gebäude und Etage jeder Einheit",
            "tell me the building and the level of every storage unit",
            "unidad, edificio y planta",
        ],
    ),
    (
        "under-100",
        records("Unit A-101", "Unit A-114", "Unit B-210", "Unit C-207", "Unit C-301"),
        [
            "Which units cost less than £100 a month?",
            "units under 100 pounds per month",
            "anything below £100/month?",
            "show storage units for under a hundred quid a month",
            "list units priced under £100",
            "Einheiten unter 100 £ im Monat",
            "my budget is £100 a month, which units fit it?",
            "unités à moins de 100 £ par mois",
        ],
    ),
    (
        "cheapest-3",
        records("Unit A-101", "Unit C-207", "Unit A-114"),
        [
            "What are the three cheapest units?",
            "3 lowest priced units",
            "the cheapest three storage units, cheapest first",
            "show me the three least expensive units",
            "Top 3 by price, lowest first",
            "die drei günstigsten Einheiten",
            "which 3 units cost the least per month?",
            "les trois unités les moins chères",
        ],
    ),
    (
        "waitlist",
        records("Unit A-230", "Unit B-210"),
        [
            "Which units are on a waitlist?",
            "list the units that are fully booked",
            "which units can't I reserve right now?",
            "units with a waiting list",
            "show the unavailable units",
            "Welche Einheiten sind ausgebucht?",
            "any units I'd have to join the waitlist for?",
            "unités sur liste d'attente",
        ],
    ),
    (
        "at-least-100",
        records(
            "Unit A-205",
            "Unit A-230",
            "Unit B-102",
            "Unit B-118",
            "Unit C-103",
            "Unit C-212",
            "Unit C-315",
        ),
        [
            "Which units are at least 100 sq ft?",
            "units of 100 square feet or more",
            "show units with 100+ sq ft",
            "I need at least 100 sq ft of space — which units?",
            "list the units that are 100 sq ft and bigger",
            "Einheiten ab 100 sq ft",
            "units no smaller than 100 square feet",
            "unidades de 100 pies cuadrados o más",
        ],
    ),
    (
        "largest",
        records("Unit B-118"),
        [
            "Which is the largest unit?",
            "the biggest storage unit you have",
            "what's the largest unit by square footage?",
            "show me the single biggest unit",
            "largest unit?",
            "Welche ist die größte Einheit?",
            "I have a whole house to store. Which unit is biggest?",
            "la unidad más grande",
        ],
    ),
    (
        "smallest-b",
        records("Unit B-210"),
        [
            "What is the smallest unit in Building B?",
            "smallest unit in building B",
            "in Building B, which unit is the smallest?",
            "the least square footage in building b",
            "Building B: smallest unit",
            "kleinste Einheit in Gebäude B",
            "I want building B but as small as possible – which unit?",
            "la plus petite unité du bâtiment B",
        ],
    ),
]

if __name__ == "__main__":
    paraphrase_set.write(26, PAGE, TASKS)
