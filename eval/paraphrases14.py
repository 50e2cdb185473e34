"""The fourteenth paraphrase set (issue #30): a course catalogue (`eval/pages/courses.html`),
details in definition lists, a markup no earlier set used. Every wording was written before
any run. Tasks alternate between the tuning half (`para-tune14-…`) and the held-out half
(`para-held14-…`) in the order written. Run: `python3 eval/paraphrases14.py` writes
`eval/paraphrase_tasks14.json`."""

import paraphrase_set

PAGE = "fixtures/courses.html"
NAME = "title|name|headline|heading|course|course name|course title"


def records(*names):
    return paraphrase_set.records(NAME, *names)


TASKS = [
    (
        "named-fields",
        {
            "kind": "columns",
            "min_items": 10,
            "columns": [
                NAME,
                "instructor|teacher|tutor|taught by|author|lecturer|dozent|formateur|profesor",
                "level|difficulty|niveau|nivel",
                "length|duration|hours|how long|dauer|durée|duración",
            ],
        },
        [
            "course title, instructor, level and length for every course",
            "List all the courses with who teaches them, the difficulty and how long they take",
            "I need a table: name | teacher | level | duration",
            "for each class on this page grab the title, the instructor, the level and the hours",
            "Extract courses (title, instructor, level, length)",
            "give me every course along with its instructor, its level and its duration",
            "Alle Kurse mit Titel, Dozent, Niveau und Dauer",
            "what courses are offered? include the teacher, level and length of each",
        ],
    ),
    (
        "beginner",
        records(
            "Intro to Python Programming",
            "Desarrollo web con JavaScript",
            "Photography Basics",
            "Project Management Essentials",
        ),
        [
            "which courses are for beginners?",
            "List the beginner-level courses",
            "courses I can take with no experience (beginner level)",
            "only the Beginner courses please",
            "show me entry level courses",
            "Find all courses whose level is beginner",
            "cours pour débutants",
            "beginner friendly classes on this page",
        ],
    ),
    (
        "free",
        records("Intro to Python Programming", "Photography Basics"),
        [
            "which courses are free?",
            "list the free courses",
            "courses that cost nothing",
            "Show me all the courses I can take for free",
            "free classes only",
            "find courses with no fee",
            "kostenlose Kurse",
            "What can I learn here without paying?",
        ],
    ),
    (
        "by-instructor",
        records("Machine Learning Foundations", "Deep Learning with PyTorch"),
        [
            "courses taught by Priya Natarajan",
            "Which classes does Priya Natarajan teach?",
            "list every course where the instructor is Priya Natarajan",
            "all of Priya Natarajan's courses",
            "find the courses by Priya Natarajan",
            "show courses with Priya Natarajan as teacher",
            "Kurse von Priya Natarajan",
            "what does Priya Natarajan teach here",
        ],
    ),
    (
        "highest-rated",
        records("Advanced SQL for Analysts"),
        [
            "which course has the best rating?",
            "the highest rated course",
            "Find the top-rated course on the page",
            "what is the best reviewed class here",
            "give me the one course with the most stars",
            "the course people rate highest",
            "le cours le mieux noté",
            "Which course scores highest with students?",
        ],
    ),
    (
        "under-10-hours",
        records(
            "Data Visualization with D3",
            "Photography Basics",
            "Écrire pour le web",
            "Project Management Essentials",
        ),
        [
            "courses shorter than 10 hours",
            "Which courses take less than 10 hours?",
            "list the courses under ten hours long",
            "short courses, under 10 hours",
            "find classes I can finish in fewer than 10 hours",
            "courses with a length below 10 hours",
            "Kurse unter 10 Stunden",
            "anything that takes under 10 hrs to complete",
        ],
    ),
    (
        "non-english",
        records("Desarrollo web con JavaScript", "Photography Basics", "Écrire pour le web"),
        [
            "courses that are not taught in English",
            "Which courses are in a language other than English?",
            "list the non-English courses",
            "show me courses whose language isn't English",
            "find all foreign-language courses (not English)",
            "courses in languages besides English",
            "cours qui ne sont pas en anglais",
            "every course except the English ones",
        ],
    ),
    (
        "most-popular-three",
        records(
            "Intro to Python Programming",
            "Machine Learning Foundations",
            "Project Management Essentials",
        ),
        [
            "the 3 most popular courses by number of students",
            "Which three courses have the most students enrolled?",
            "top three courses by enrolment",
            "give me the three courses with the highest enrollment",
            "list the 3 biggest courses (most students)",
            "three most enrolled classes",
            "die drei Kurse mit den meisten Teilnehmern",
            "What are the 3 courses most people signed up for?",
        ],
    ),
    (
        "live-online",
        records(
            "Data Visualization with D3",
            "Advanced SQL for Analysts",
            "Kubernetes in Production",
            "Deep Learning with PyTorch",
        ),
        [
            "which courses are live online?",
            "list the live courses",
            "courses with the Live online format",
            "show only courses that are taught live, not self-paced",
            "find every course whose format is live online",
            "live classes only",
            "cursos en vivo",
            "Which courses have live sessions instead of being self-paced?",
        ],
    ),
    (
        "over-100-dollars",
        records("Machine Learning Foundations", "Kubernetes in Production", "Deep Learning with PyTorch"),
        [
            "courses that cost more than $100",
            "Which courses are over $100?",
            "list the courses priced above 100 dollars",
            "expensive courses, over $100",
            "find courses with a price higher than $100",
            "show me classes costing $100 or more",
            "Kurse über 100 $",
            "anything on this page that costs more than a hundred dollars",
        ],
    ),
    (
        "starting-in-april",
        records("Data Visualization with D3", "Photography Basics", "Écrire pour le web"),
        [
            "which courses start in April?",
            "courses starting in April 2027",
            "list the courses that begin in April",
            "show me classes with an April start date",
            "find every course whose start date is in April",
            "April courses",
            "cursos que empiezan en abril",
            "What courses kick off in April?",
        ],
    ),
    (
        "no-prerequisites-listed",
        {"kind": "no_answer"},
        [
            "the prerequisites of each course",
            "List every course's prerequisites",
            "what are the prerequisites for the courses?",
            "for each course give me the required prior knowledge (prerequisites)",
            "extract the prerequisites listed for every course",
            "which prerequisites does each class have",
            "Voraussetzungen für jeden Kurs",
            "course prerequisites please",
        ],
    ),
]


def main():
    paraphrase_set.write(14, PAGE, TASKS)


if __name__ == "__main__":
    main()
