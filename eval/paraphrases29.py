"""The twenty-ninth paraphrase set (issue #30): a GP practice's clinicians as cards, written
before any run on it.

A tenth kind of page: ten people in cards, each with a photo, a linked name ("Dr Amira
Haddad"), a role line ("GP partner", "Nurse practitioner", "Physiotherapist"), a badge
("Accepting new patients" / "Not accepting new patients") and a list of labelled facts
(Special interests, Languages — comma lists; Surgery with a distance after a middle dot,
"Quay Street Surgery · 0.8 miles"; Next appointment, a day and time or "No appointments this
week"). Its tuning half asks a special interest, a language, the open state, a bound on
distance, a role and the next appointments; its held half another interest, another
language, the closed state, the nearest, another role and the languages. Written in session
41, before any run of its tasks. Run `python3 eval/paraphrases29.py` to write
`eval/paraphrase_tasks29.json`."""

import paraphrase_set

PAGE = "fixtures/clinicians.html"
NAME = "name|title|clinician|doctor|arzt|médecin|nombre"
NEXT = "next appointment|next_appointment|next available|next_available|appointment|next|nächster termin|prochain rendez-vous|próxima cita"
LANGUAGES = "languages|language|spoken languages|spoken_languages|sprachen|langues|idiomas"


def records(*names):
    return paraphrase_set.records(NAME, *names)


TASKS = [
    (
        "womens-health",
        records("Dr Amira Haddad", "Dr Elena García"),
        [
            "Which doctors have a special interest in women's health?",
            "clinicians interested in women's health",
            "women's health specialists",
            "I'd like to see someone who does women's health",
            "show me who covers women's health",
            "Ärzte mit Schwerpunkt Frauengesundheit",
            "médecins spécialisés en santé des femmes",
            "interest: women's health",
        ],
    ),
    (
        "diabetes",
        records("Dr Amira Haddad", "Sarah Lindqvist"),
        [
            "Who has a special interest in diabetes?",
            "clinicians that deal with diabetes",
            "diabetes specialists",
            "I have diabetes, who should I see?",
            "show me staff with a diabetes interest",
            "Wer kennt sich mit Diabetes aus?",
            "professionnels spécialisés dans le diabète",
            "special interests include diabetes",
        ],
    ),
    (
        "speaks-polish",
        records("Dr Tomasz Nowak", "Marek Kowalski"),
        [
            "Which doctors speak Polish?",
            "clinicians who speak polish",
            "Polish-speaking staff",
            "I need someone who speaks Polish",
            "languages: Polish",
            "Wer spricht Polnisch?",
            "qui parle polonais ?",
            "¿Quién habla polaco?",
        ],
    ),
    (
        "speaks-arabic",
        records("Dr Amira Haddad", "Fatima Malik"),
        [
            "Which clinicians speak Arabic?",
            "arabic speakers",
            "staff who can speak Arabic with me",
            "I'd prefer an Arabic-speaking doctor",
            "language = Arabic",
            "Wer spricht Arabisch?",
            "qui parle arabe",
            "¿Quién habla árabe?",
        ],
    ),
    (
        "accepting",
        records(
            "Dr Amira Haddad",
            "Dr Grace Okafor",
            "Sarah Lindqvist",
            "Dr Raj Patel",
            "Marek Kowalski",
            "Fatima Malik",
            "Joe Brennan",
        ),
        [
            "Who is accepting new patients?",
            "clinicians taking new patients",
            "which doctors are open to new patients",
            "show only those accepting new patients",
            "can I register with anyone? who's taking on new patients",
            "Wer nimmt neue Patienten auf?",
            "qui accepte de nouveaux patients ?",
            "accepting new patients only",
        ],
    ),
    (
        "not-accepting",
        records("Dr Tomasz Nowak", "Dr Elena García", "Dr Hannah Weiss"),
        [
            "Who isn't accepting new patients?",
            "clinicians not taking new patients",
            "which doctors are closed to new patients",
            "show those whose lists are closed",
            "who has stopped taking new patients?",
            "Wer nimmt keine neuen Patienten auf?",
            "qui n'accepte pas de nouveaux patients ?",
            "not accepting new patients",
        ],
    ),
    (
        "within-1-mile",
        records(
            "Dr Amira Haddad",
            "Dr Grace Okafor",
            "Marek Kowalski",
            "Fatima Malik",
            "Dr Hannah Weiss",
        ),
        [
            "clinicians within 1 mile",
            "who is less than a mile away?",
            "doctors under 1 mile from me",
            "anyone within a mile",
            "show me staff no more than 1 mile away",
            "Wer ist weniger als 1 Meile entfernt?",
            "à moins d'un mile",
            "distance under 1 mile",
        ],
    ),
    (
        "nearest-2",
        records("Marek Kowalski", "Fatima Malik"),
        [
            "the 2 nearest clinicians",
            "who are the two closest?",
            "the two staff members nearest to me",
            "closest 2",
            "I want the nearest two, please",
            "die zwei nächsten",
            "les deux plus proches",
            "2 closest by distance",
        ],
    ),
    (
        "nurses",
        records("Sarah Lindqvist", "Joe Brennan"),
        [
            "the nurses",
            "which clinicians are nurse practitioners?",
            "show me the nurse practitioners",
            "list the nurses only",
            "I'd rather see a nurse — who is there?",
            "die Krankenschwestern",
            "les infirmières",
            "las enfermeras",
        ],
    ),
    (
        "physio",
        records("Marek Kowalski"),
        [
            "the physiotherapist",
            "who is the physio?",
            "show me physiotherapy staff",
            "is there a physiotherapist?",
            "I need a physio",
            "Physiotherapeut",
            "le kinésithérapeute",
            "el fisioterapeuta",
        ],
    ),
    (
        "next-appointment",
        paraphrase_set.columns(NAME, NEXT, min_items=10),
        [
            "every clinician with their next appointment",
            "names and next available appointments",
            "clinician, next appointment",
            "when can I see each of them?",
            "list each doctor and when their next slot is",
            "alle mit nächstem Termin",
            "chaque praticien avec son prochain rendez-vous",
            "who is free when — name and next appointment",
        ],
    ),
    (
        "languages",
        paraphrase_set.columns(NAME, LANGUAGES, min_items=10),
        [
            "every clinician with the languages they speak",
            "names and languages",
            "clinician, languages",
            "what languages does each of them speak?",
            "list each doctor and their languages",
            "alle mit ihren Sprachen",
            "chaque praticien avec ses langues",
            "who speaks what",
        ],
    ),
]

if __name__ == "__main__":
    paraphrase_set.write(29, PAGE, TASKS)
