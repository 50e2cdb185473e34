"""The twenty-fourth paraphrase set (issue #30): a leisure centre's week of classes, written before any run on it.

A fifth kind of page: twelve exercise classes in three sections, one per day, under a heading
that is not repeated on the cards; each card holds the class's name, "06:30–07:15 · 45 min",
"Led by Priya Nair", the room ("Studio A", "Pool"), a level pill ("Beginner", "Intermediate",
"Advanced") and "4 spaces left" with a "Book" link, or "Class full" with a "Join waitlist"
button. It asks set 21's held shapes (who leads, the room, the level, places left, beginners)
on another page and markup, so the held halves there are checked by rules made here on tuning
wordings only. Written in session 38, before any run of its tasks. Run
`python3 eval/paraphrases24.py` to write `eval/paraphrase_tasks24.json`."""

import paraphrase_set

PAGE = "fixtures/gym-classes.html"
NAME = "name|session_name|class|class name|title|session|activity|kurs|cours|clase|nom|nombre"
LEADER = "instructor|teacher|trainer|coach|leader|led by|who|session_who|taught by|instructor name|kursleiter|professeur|instructeur|profesor|monitor|entrenador"
ROOM = "room|studio|where|session_where|location|place|venue|raum|salle|sala"
START = "start|start time|starts|begins|time|when|session_when|from|beginn|début|heure de début|hora|hora de inicio"
LENGTH = "duration|length|how long|minutes|session_when|when|time|dauer|durée|duración"
LEVEL = "level|difficulty|pill|pill_level|niveau|nivel|stufe|schwierigkeit"


def records(*names):
    return paraphrase_set.records(NAME, *names)


TASKS = [
    (
        "instructor-room",
        paraphrase_set.columns(NAME, LEADER, ROOM, min_items=12),
        [
            "List every class with its instructor and room",
            "who leads each class and in which studio?",
            "Class name, instructor, studio",
            "For each session, tell me who's teaching it and where it takes place",
            "I want the classes along with the teacher and the room they're in",
            "Kurs, Trainer und Raum für jeden Kurs",
            "all classes: leader + location",
            "Give me a table of the classes, who runs them and which room",
        ],
    ),
    (
        "start-length",
        paraphrase_set.columns(NAME, START, LENGTH, min_items=12),
        [
            "Every class with its start time and duration",
            "when does each class start and how long is it?",
            "class, start, length",
            "List the sessions with the time they begin and how many minutes they last",
            "I'd like each class's starting time and how long it runs",
            "Heure de début et durée de chaque cours",
            "show me what time every class begins plus its duration",
            "timetable: name of class, start time, minutes",
        ],
    ),
    (
        "beginner",
        records("Gentle Yoga", "Aqua Fit", "Zumba Party", "Stretch & Release"),
        [
            "Which classes are for beginners?",
            "beginner level classes",
            "I'm new to exercise, which sessions should I pick?",
            "List the classes marked Beginner",
            "show only the easy classes, beginner level",
            "Kurse für Anfänger",
            "what can a complete beginner join?",
            "classes suitable for novices",
        ],
    ),
    (
        "advanced",
        records("Circuit Blast", "Boxing Skills", "Spin Climb", "HIIT 45"),
        [
            "Which classes are advanced?",
            "advanced-level sessions only",
            "I'm very fit, show me the hardest classes",
            "List the classes with the Advanced level",
            "clases de nivel avanzado",
            "what sessions are for experienced people?",
            "give me the advanced workouts",
            "only classes tagged advanced please",
        ],
    ),
    (
        "spaces-left",
        records(
            "Spin Express",
            "Gentle Yoga",
            "Aqua Fit",
            "Boxing Skills",
            "Zumba Party",
            "Stretch & Release",
            "HIIT 45",
            "Aqua Jog",
        ),
        [
            "Which classes still have spaces?",
            "classes I can still book",
            "show the sessions that aren't full",
            "List classes with places left",
            "Welche Kurse haben noch freie Plätze?",
            "any classes with availability?",
            "which ones can I get into this week?",
            "classes that are not fully booked",
        ],
    ),
    (
        "full",
        records("Circuit Blast", "Pilates Core", "Spin Climb", "Power Yoga"),
        [
            "Which classes are full?",
            "show me the fully booked sessions",
            "classes with a waitlist",
            "List the classes that have no spaces left",
            "which sessions can't I book anymore?",
            "cours complets",
            "any classes where I'd have to join the waiting list?",
            "booked-out classes",
        ],
    ),
    (
        "morning",
        records("Spin Express", "Pilates Core", "Stretch & Release"),
        [
            "Which classes start before 9am?",
            "early morning classes, before nine",
            "I can only train before 9 in the morning, what's on?",
            "List the sessions beginning earlier than 09:00",
            "classes starting before 9",
            "Kurse vor 9 Uhr",
            "what can I do before work? I have to leave by 9am",
            "show classes that begin before nine o'clock",
        ],
    ),
    (
        "evening",
        records("Aqua Fit", "Zumba Party", "Spin Climb", "Power Yoga"),
        [
            "Which classes start at 6pm or later?",
            "evening classes from 6 pm onwards",
            "I finish work at six, what classes begin from 18:00?",
            "List the sessions starting no earlier than 18:00",
            "classes at 6 in the evening or after",
            "clases a partir de las 18:00",
            "show me what's on from 6pm",
            "classes that begin at 18:00 or later",
        ],
    ),
    (
        "by-instructor",
        records("Circuit Blast", "Boxing Skills", "HIIT 45"),
        [
            "Which classes does Dana Ruiz teach?",
            "classes led by Dana Ruiz",
            "show me everything Dana is running",
            "List Dana Ruiz's sessions",
            "Kurse mit Dana Ruiz",
            "what is Dana Ruiz taking this week?",
            "sessions with instructor Dana Ruiz",
            "I like Dana's classes, which ones are on?",
        ],
    ),
    (
        "studio-a",
        records("Gentle Yoga", "Pilates Core", "Zumba Party", "Stretch & Release", "Power Yoga"),
        [
            "Which classes are in Studio A?",
            "classes held in Studio A",
            "show me the sessions taking place in Studio A",
            "List the Studio A classes",
            "cours dans le Studio A",
            "what's on in studio A this week?",
            "classes where the room is Studio A",
            "everything in Studio A please",
        ],
    ),
    (
        "longest",
        records("Power Yoga"),
        [
            "Which class is the longest?",
            "the longest session",
            "what's the class that lasts the most minutes?",
            "Show me the single longest class",
            "welcher Kurs dauert am längsten?",
            "which session runs the longest?",
            "the class with the longest duration",
            "give me the one longest workout",
        ],
    ),
    (
        "short",
        records("Circuit Blast", "Stretch & Release"),
        [
            "Which classes are 30 minutes or less?",
            "classes no longer than half an hour",
            "I only have 30 minutes, which sessions fit?",
            "List the classes lasting at most 30 min",
            "cours de 30 minutes maximum",
            "short classes of 30 mins or under",
            "sessions that take half an hour or less",
            "show classes with a duration up to 30 minutes",
        ],
    ),
]

if __name__ == "__main__":
    paraphrase_set.write(24, PAGE, TASKS)
