"""The thirty-third paraphrase set (issue #30): a city's libraries and study spaces as an
ARIA grid, written before any run on it.

A fourteenth kind of page: twelve libraries, nearest first, as `div role=row` rows of a
`div role=table` under a row of `role=columnheader` cells (no `table` element): the name
linked beside its kind ("Partner library"), how busy it is now ("Quiet", "Busy", "Nearly
full", "Closed"), hours today (a range, "Closed today" or "Open 24 hours"), study seats as
"18 of 120 free", printing "10p a page", "Free" or "No printing", facilities as a comma list,
a distance in km. Its tuning half asks the nearly full ones, a closing-time bound, seats and
printing of each, the most seats free, free printing, a facility, one kind of library and a
distance bound; its held half the quiet ones, a later closing-time bound, hours and
distance of each, the fewest seats free, a printing price bound, another facility, another
kind and the closed one. Written in session 43, before any run of its tasks. Run `python3
eval/paraphrases33.py` to write `eval/paraphrase_tasks33.json`."""

import paraphrase_set

PAGE = "fixtures/libraries.html"
NAME = "name|library|title|branch|bibliothek|bibliothèque|biblioteca|nombre"
SEATS = "seats|study seats|study_seats|free seats|seats free|plätze|places|asientos|puestos"
PRINTING = "printing|print|printing price|price|druck|drucken|impression|impresión"
HOURS = "hours|open today|open_today|opening hours|today|öffnungszeiten|horaires|horario"
DISTANCE = "distance|entfernung|distancia"


def records(*names):
    return paraphrase_set.records(NAME, *names)


TASKS = [
    (
        "nearly-full",
        records("University Learning Centre", "Science Park Hub", "Harbour"),
        [
            "Which libraries are nearly full?",
            "libraries that are almost full right now",
            "where are there hardly any seats left",
            "show the libraries close to capacity",
            "which study spaces are filling up",
            "Welche Bibliotheken sind fast voll?",
            "bibliothèques presque pleines",
            "bibliotecas casi llenas",
        ],
    ),
    (
        "quiet",
        records(
            "Market Square",
            "Eastgate",
            "Westbrook",
            "Old Town Reading Room",
            "Southmead 24h Study Space",
        ),
        [
            "Which libraries are quiet right now?",
            "quiet libraries",
            "where is it calm at the moment",
            "show me the libraries that aren't busy",
            "any quiet study spaces?",
            "Welche Bibliotheken sind gerade ruhig?",
            "bibliothèques calmes en ce moment",
            "bibliotecas tranquilas ahora",
        ],
    ),
    (
        "open-after-8pm",
        records(
            "University Learning Centre",
            "Science Park Hub",
            "Hillside",
            "Harbour",
            "Southmead 24h Study Space",
        ),
        [
            "Which libraries are open after 8pm today?",
            "where can I study after 8 in the evening",
            "libraries open later than 20:00",
            "which ones close after 8 pm",
            "libraries still open past eight tonight",
            "Welche Bibliotheken haben heute nach 20 Uhr geöffnet?",
            "bibliothèques ouvertes après 20 h",
            "bibliotecas abiertas después de las 20:00",
        ],
    ),
    (
        "open-after-9pm",
        records("University Learning Centre", "Science Park Hub", "Southmead 24h Study Space"),
        [
            "Which libraries are open after 9pm?",
            "where can I still study after 9 at night",
            "libraries that close later than 21:00",
            "which ones stay open past 9 pm",
            "late study spaces open after nine",
            "Welche Bibliotheken haben nach 21 Uhr offen?",
            "bibliothèques ouvertes après 21 h",
            "bibliotecas abiertas después de las 21:00",
        ],
    ),
    (
        "seats-and-printing",
        paraphrase_set.columns(NAME, SEATS, PRINTING),
        [
            "List each library with its free study seats and printing cost",
            "how many seats are free at each library and what does printing cost",
            "for every library give me the study seats and the printing price",
            "libraries: seats, printing",
            "show study seats and printing per library",
            "Bibliotheken mit freien Plätzen und Druckkosten",
            "places et impression de chaque bibliothèque",
            "asientos y precio de impresión de cada biblioteca",
        ],
    ),
    (
        "hours-and-distance",
        paraphrase_set.columns(NAME, HOURS, DISTANCE),
        [
            "List each library with today's opening hours and distance",
            "when is each library open today and how far is it",
            "for every library give me the hours and the distance",
            "libraries: hours today, distance",
            "show opening times and distance per library",
            "Bibliotheken mit Öffnungszeiten und Entfernung",
            "horaires et distance de chaque bibliothèque",
            "horario y distancia de cada biblioteca",
        ],
    ),
    (
        "most-seats-free",
        records("Southmead 24h Study Space"),
        [
            "Which library has the most free study seats?",
            "the library with the most seats available",
            "where are the most free seats right now",
            "library with the highest number of free seats",
            "which one has the most study spaces free",
            "Welche Bibliothek hat die meisten freien Plätze?",
            "la bibliothèque avec le plus de places libres",
            "la biblioteca con más asientos libres",
        ],
    ),
    (
        "fewest-seats-free",
        records("Riverside"),
        [
            "Which library has the fewest free seats?",
            "the library with the least seats available",
            "where are the fewest free study seats",
            "library with the lowest number of free seats",
            "which one has the fewest seats free",
            "Welche Bibliothek hat die wenigsten freien Plätze?",
            "la bibliothèque avec le moins de places libres",
            "la biblioteca con menos asientos libres",
        ],
    ),
    (
        "free-printing",
        records("Eastgate", "Northfield Community Library"),
        [
            "Which libraries have free printing?",
            "where can I print for free",
            "libraries that don't charge for printing",
            "show libraries with no printing charge",
            "free printing libraries",
            "Bibliotheken mit kostenlosem Drucken",
            "bibliothèques avec impression gratuite",
            "bibliotecas con impresión gratis",
        ],
    ),
    (
        "printing-under-15p",
        records(
            "Central Library",
            "University Learning Centre",
            "Eastgate",
            "Northfield Community Library",
            "Science Park Hub",
            "Hillside",
            "Harbour",
        ),
        [
            "libraries where printing costs less than 15p a page",
            "printing under 15p per page",
            "which libraries charge below 15 pence a page for printing",
            "cheap printing, under 15p",
            "show libraries with printing cheaper than 15p",
            "Bibliotheken, in denen Drucken weniger als 15 Pence pro Seite kostet",
            "bibliothèques où l'impression coûte moins de 15 pence la page",
            "bibliotecas donde imprimir cuesta menos de 15 peniques por página",
        ],
    ),
    (
        "group-rooms",
        records("University Learning Centre", "Eastgate", "Hillside"),
        [
            "Which libraries have group rooms?",
            "libraries with group study rooms",
            "where can we study together as a group",
            "show libraries offering group rooms",
            "any libraries with rooms for groups?",
            "Bibliotheken mit Gruppenräumen",
            "bibliothèques avec salles de groupe",
            "bibliotecas con salas para grupos",
        ],
    ),
    (
        "lockers",
        records(
            "Central Library",
            "University Learning Centre",
            "Science Park Hub",
            "Westbrook",
            "Southmead 24h Study Space",
        ),
        [
            "Which libraries have lockers?",
            "libraries with lockers",
            "where can I leave my bag in a locker",
            "show libraries that offer lockers",
            "any libraries with storage lockers?",
            "Bibliotheken mit Schließfächern",
            "bibliothèques avec casiers",
            "bibliotecas con taquillas",
        ],
    ),
    (
        "partner-libraries",
        records("University Learning Centre", "Science Park Hub"),
        [
            "Which are the partner libraries?",
            "show only partner libraries",
            "list the partner libraries",
            "partner library locations",
            "which libraries are partners",
            "Partnerbibliotheken",
            "les bibliothèques partenaires",
            "las bibliotecas asociadas",
        ],
    ),
    (
        "branches",
        records("Market Square", "Riverside", "Eastgate", "Westbrook", "Hillside", "Harbour"),
        [
            "Which libraries are branches?",
            "show only the branch libraries",
            "list the branches",
            "branch library locations",
            "which ones are branch libraries",
            "Zweigstellen",
            "les bibliothèques de quartier (branches)",
            "las bibliotecas sucursales",
        ],
    ),
    (
        "within-2-km",
        records("Central Library", "Market Square", "University Learning Centre", "Riverside", "Eastgate"),
        [
            "libraries within 2 km",
            "which libraries are no more than 2 km away",
            "libraries up to 2km from here",
            "anything within two kilometres?",
            "show libraries at most 2 km away",
            "Bibliotheken im Umkreis von 2 km",
            "bibliothèques à 2 km maximum",
            "bibliotecas a 2 km como máximo",
        ],
    ),
    (
        "closed",
        records("Riverside"),
        [
            "Which library is closed today?",
            "closed libraries",
            "is any library shut today?",
            "show the library that isn't open today",
            "which branch is closed",
            "Welche Bibliothek ist heute geschlossen?",
            "quelle bibliothèque est fermée aujourd'hui ?",
            "¿qué biblioteca está cerrada hoy?",
        ],
    ),
]

if __name__ == "__main__":
    paraphrase_set.write(33, PAGE, TASKS)
