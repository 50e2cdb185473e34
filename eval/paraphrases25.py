"""The twenty-fifth paraphrase set (issue #30): a conference agenda as one table, written before any run on it.

A sixth kind of page: twelve sessions over two days in one table with headers (Day, Time,
Session, Speaker, Room, Track, Format). The time is a range ("09:00 – 09:45") with no length
printed; the speaker cell holds the person and, on a second line, their organisation; rooms
are named with a letter or a number ("Hall B", "Room 2"). Its tuning half asks for a room
named so, which set 24's held half failed in (known by id only), so held24 checks that class
unread. Written in session 39, before any run of its tasks. Run `python3 eval/paraphrases25.py`
to write `eval/paraphrase_tasks25.json`."""

import paraphrase_set

PAGE = "fixtures/conference-agenda.html"
NAME = "session|title|name|talk|session title|talk title|sessions|vortrag|sitzung|titre|session_title|título|charla|sesión|ponencia"
SPEAKER = "speaker|speakers|presenter|who|speaker name|sprecher|referent|intervenant|orateur|ponente|orador"
ROOM = "room|hall|where|location|venue|place|raum|saal|salle|sala"
START = "time|start|start_time|start time|starts|begins|when|from|beginn|uhrzeit|heure|début|hora"


def records(*names):
    return paraphrase_set.records(NAME, *names)


TASKS = [
    (
        "hall-b",
        records(
            "Zero-Trust for Small Teams",
            "Threat Modelling in an Afternoon",
            "Streaming SQL Explained",
            "Measuring Web Performance",
        ),
        [
            "Which sessions are in Hall B?",
            "list the talks taking place in hall B",
            "everything scheduled for Hall B",
            "what's on in Hall B over the two days",
            "Sessions, room Hall B only",
            "Welche Vorträge finden in Hall B statt?",
            "I'll be sitting in Hall B - what will I see there?",
            "show me only the Hall B sessions",
        ],
    ),
    (
        "speaker-room",
        paraphrase_set.columns(NAME, SPEAKER, ROOM, min_items=12),
        [
            "List every session with its speaker and room",
            "who is speaking in each session, and in which room?",
            "session, speaker, room",
            "For each talk tell me who gives it and where it is",
            "I need the sessions with the presenter and the hall they're in",
            "Chaque session avec son intervenant et sa salle",
            "agenda: talk title + speaker + room",
            "give me a table of the sessions, their speakers and rooms",
        ],
    ),
    (
        "time-speaker",
        paraphrase_set.columns(NAME, START, SPEAKER, min_items=12),
        [
            "List all sessions with their time and speaker",
            "when is each talk and who is giving it?",
            "session title, start time, speaker",
            "For every session I want the time it starts and the person presenting",
            "the agenda with times and speakers",
            "Jede Sitzung mit Uhrzeit und Sprecher",
            "what time does each session start, and who's the speaker?",
            "Give me each talk, its start time and its speaker",
        ],
    ),
    (
        "room-2",
        records("Hands-on Rust for Data Pipelines", "Passkeys in Production"),
        [
            "Which sessions are held in Room 2?",
            "list everything in room 2",
            "what's happening in Room 2?",
            "the talks located in Room 2",
            "Room 2 sessions only",
            "¿Qué sesiones hay en la Room 2?",
            "I'm staying in Room 2 all conference, which sessions will I catch?",
            "show the agenda for room 2",
        ],
    ),
    (
        "workshops",
        records("Hands-on Rust for Data Pipelines", "CSS Layout Clinic"),
        [
            "Which sessions are workshops?",
            "list the workshops",
            "I want hands-on sessions, the workshop format only",
            "show me every workshop on the agenda",
            "the sessions whose format is Workshop",
            "Welche Workshops gibt es?",
            "are there any workshops? list them",
            "only workshops please",
        ],
    ),
    (
        "security-track",
        records(
            "Zero-Trust for Small Teams",
            "Threat Modelling in an Afternoon",
            "Passkeys in Production",
        ),
        [
            "Which sessions are in the Security track?",
            "list the security talks",
            "everything on the security track",
            "I only care about security, what should I attend?",
            "sessions with track = Security",
            "Les sessions du parcours Security",
            "show me the security sessions",
            "what talks are there about security?",
        ],
    ),
    (
        "by-speaker",
        records("Zero-Trust for Small Teams", "Threat Modelling in an Afternoon"),
        [
            "Which sessions is Jonas Berg giving?",
            "list the talks by Jonas Berg",
            "everything Jonas is presenting",
            "show me Jonas Berg's sessions",
            "sessions where the speaker is Jonas Berg",
            "Vorträge von Jonas Berg",
            "I want to see Jonas speak, when can I?",
            "what is Jonas Berg talking about?",
        ],
    ),
    (
        "by-speaker-2",
        records("Accessible Forms That Convert", "CSS Layout Clinic"),
        [
            "Which sessions does Priti Shah run?",
            "list the talks by Priti Shah",
            "everything Priti is presenting",
            "Priti Shah's sessions",
            "sessions where the speaker is Priti Shah",
            "Sesiones de Priti Shah",
            "I'm a fan of Priti, which of her sessions are on?",
            "what is Priti Shah speaking on?",
        ],
    ),
    (
        "afternoon",
        records(
            "Panel: Open Source Funding",
            "Threat Modelling in an Afternoon",
            "Measuring Web Performance",
            "Closing Keynote: Shipping Calmly",
        ),
        [
            "Which sessions start after 1pm?",
            "list the afternoon sessions, from 13:00 on",
            "talks starting later than 1 pm",
            "I only arrive at one o'clock, what can I still see?",
            "sessions after 13:00",
            "Sitzungen nach 13 Uhr",
            "what's on after lunch (after 1pm)?",
            "show the sessions beginning after 1 in the afternoon",
        ],
    ),
    (
        "before-ten",
        records("The Web in 2030", "Streaming SQL Explained", "CSS Layout Clinic"),
        [
            "Which sessions start before 10am?",
            "list the early sessions, before ten",
            "talks that begin earlier than 10:00",
            "what can I catch before 10 in the morning?",
            "sessions before 10:00",
            "Sessions avant 10h",
            "I have a call at 10, which sessions start before it?",
            "show the sessions beginning before ten o'clock",
        ],
    ),
    (
        "keynotes",
        records("The Web in 2030", "Closing Keynote: Shipping Calmly"),
        [
            "Which sessions are keynotes?",
            "list the keynotes",
            "show me the keynote sessions",
            "I just want to see the keynotes, which are they?",
            "sessions whose format is Keynote",
            "Welche Keynotes gibt es?",
            "the keynote talks on the agenda",
            "keynotes only",
        ],
    ),
    (
        "longest",
        records("Hands-on Rust for Data Pipelines"),
        [
            "Which session is the longest?",
            "the longest session",
            "what's the session that lasts the most time?",
            "Show me the single longest talk or workshop",
            "welche Sitzung dauert am längsten?",
            "which session runs the longest?",
            "the session with the longest duration",
            "give me the one longest session on the agenda",
        ],
    ),
]


if __name__ == "__main__":
    paraphrase_set.write(25, PAGE, TASKS)
