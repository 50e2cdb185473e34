"""The twenty-first paraphrase set (issue #30): a leisure centre's class timetable, written before any run on it.

A new kind of page: ten fitness classes on one day, each a start time of day, a name linking to
the class, a booking code ("GX-1041"), an instructor, a length ("45 min"), a room, a level, a
kit rule ("Kit included", "Kit hire +£2"), the spaces left ("5 spaces left", "Full") and a
casual visitor's price. No field is labelled in words; the classes are short abbreviations
("c-t", "c-len", "c-rm"). Its tuning half carries the classes set 20's held half asked for on
flights (a bound on a time of day, fields known by their values, a thing included or charged)
in other words on another page, so set 20's held half checks them. Written at the start of
session 35, before any run of its tasks. Run `python3 eval/paraphrases21.py` to write
`eval/paraphrase_tasks21.json`."""

import paraphrase_set

PAGE = "fixtures/classes.html"
NAME = "name|class|classes|class name|title|activity|session"
START = "start|start time|start_time|time|starts|starts at|begins|time of day|heure|uhrzeit|hora"
CODE = "code|booking code|class code|reference|ref|booking reference|code de réservation"
LENGTH = "length|duration|how long|lasts|minutes|durée|dauer|duración"
WHO = "instructor|instructors|teacher|coach|trainer|taught by|who teaches|led by|leader"
ROOM = "room|studio|location|where|place|venue|salle|raum|sala"
LEVEL = "level|levels|difficulty|niveau|nivel"


def records(*names):
    return paraphrase_set.records(NAME, *names)


def columns(*names):
    return paraphrase_set.columns(NAME, *names)


SUNRISE, SPIN, PILATES, AQUA = "Sunrise Yoga", "Spin Express", "Pilates Core", "Aqua Fit"
BOX, LIFT, ZUMBA, HIIT = "Boxercise", "Power Lift", "Zumba Party", "HIIT Blast"
YIN, BARRE = "Yin Yoga", "Barre Fusion"

TASKS = [
    (
        "before-noon",
        records(SUNRISE, SPIN, PILATES, AQUA),
        [
            "Which classes start before 12:00?",
            "classes before noon",
            "morning classes that begin before midday, names only",
            "list the sessions starting earlier than 12pm",
            "what can I do before lunch? classes that start before 12",
            "only the classes starting before 11:00 am... actually make that before 12:00",
            "Kurse vor 12 Uhr",
            "cours qui commencent avant midi",
        ],
    ),
    (
        "after-6pm",
        records(HIIT, YIN, BARRE),
        [
            "classes after 6pm",
            "Which sessions start after 18:00?",
            "evening classes starting later than 6 pm",
            "I finish work at six, what classes begin after 6:00pm?",
            "show the classes that start after 18h",
            "list only classes starting after 6 in the evening",
            "Kurse nach 18 Uhr",
            "clases después de las 18:00",
        ],
    ),
    (
        "code-start-length",
        columns(CODE, START, LENGTH),
        [
            "each class with its booking code, start time and length",
            "name, code, time and duration of every class",
            "For all classes give me the class code, when it starts and how long it lasts",
            "list classes: name | booking reference | start | duration",
            "I need the code, the start time and the duration for each session",
            "class name, booking code, start time, length in minutes",
            "every class with code, time, duration",
            "pour chaque cours : nom, code de réservation, heure et durée",
        ],
    ),
    (
        "instructor-room-level",
        columns(WHO, ROOM, LEVEL),
        [
            "every class with its instructor, room and level",
            "who teaches each class, in which studio and at what level?",
            "name, instructor, studio, difficulty for all classes",
            "list the classes with teacher, room and level",
            "for each session: the coach, where it is and how hard it is",
            "class, instructor, location, level",
            "alle Kurse mit Trainer, Raum und Niveau",
            "cada clase con su instructor, sala y nivel",
        ],
    ),
    (
        "kit-included",
        records(SUNRISE, SPIN, AQUA, LIFT, ZUMBA, YIN),
        [
            "classes where the kit is included",
            "Which classes include kit?",
            "only classes with kit included, no hire charge",
            "show me the sessions where I don't have to pay for kit hire",
            "classes with no kit hire fee",
            "list classes that come with kit included",
            "Kurse mit inbegriffener Ausrüstung (Kit included)",
            "which ones have kit included in the price?",
        ],
    ),
    (
        "spaces-left",
        records(SUNRISE, PILATES, AQUA, BOX, LIFT, HIIT, YIN, BARRE),
        [
            "classes that still have spaces",
            "Which classes are not full?",
            "show only the sessions with spaces left",
            "classes I can still book a place on",
            "list classes that aren't fully booked",
            "all classes except the full ones",
            "Kurse mit freien Plätzen",
            "cours qui ne sont pas complets",
        ],
    ),
    (
        "by-instructor",
        records(SUNRISE, YIN),
        [
            "classes taught by Maya Patel",
            "Which classes does Maya Patel teach?",
            "Maya Patel's classes",
            "list the sessions led by Maya Patel",
            "everything with Maya Patel as instructor",
            "what's on with Maya Patel today?",
            "Kurse von Maya Patel",
            "les cours de Maya Patel",
        ],
    ),
    (
        "two-cheapest",
        records(AQUA, SPIN),
        [
            "the two cheapest classes",
            "Which 2 classes cost the least?",
            "two lowest-priced classes, cheapest first",
            "give me the 2 cheapest sessions for a casual visitor",
            "cheapest two classes please",
            "top 2 classes by lowest price",
            "die zwei günstigsten Kurse",
            "las dos clases más baratas",
        ],
    ),
    (
        "longest",
        records(YIN),
        [
            "the longest class",
            "Which class lasts the longest?",
            "what's the longest session today?",
            "the class with the longest duration",
            "name the single longest class",
            "which one goes on for the most minutes?",
            "der längste Kurs",
            "la clase más larga",
        ],
    ),
    (
        "beginners",
        records(PILATES, YIN),
        [
            "classes for beginners",
            "Which classes are beginner level?",
            "only the beginners' sessions",
            "I'm new to this, which classes are suitable for beginners?",
            "list beginner classes",
            "classes at Beginners level only",
            "Anfängerkurse",
            "cours pour débutants",
        ],
    ),
    (
        "under-7",
        records(SPIN, AQUA, ZUMBA),
        [
            "classes under £7",
            "Which classes cost less than £7?",
            "sessions cheaper than 7 pounds",
            "everything priced below £7",
            "list classes that are under 7 quid",
            "show me classes for less than £7 each",
            "Kurse unter 7 £",
            "clases por menos de 7 £",
        ],
    ),
    (
        "in-studio-1",
        records(SUNRISE, BOX, HIIT, YIN),
        [
            "classes in Studio 1",
            "Which classes are held in Studio 1?",
            "list the sessions taking place in Studio 1",
            "everything on in Studio 1 today",
            "only Studio 1 classes",
            "what's happening in Studio 1?",
            "Kurse in Studio 1",
            "les cours dans le Studio 1",
        ],
    ),
]


def main():
    paraphrase_set.write(21, PAGE, TASKS)


if __name__ == "__main__":
    main()
