"""Set 34: a pharmacy finder's results as cards (`eval/pages/pharmacies.html`): twelve
pharmacies nearest first, each a card with its name linked, a status line ("Open until
21:00", "Closes 18:00", "Open 24 hours", "Closed · opens 09:00 tomorrow"), today's hours
("Today: 08:00–21:00", "Today: Open 24 hours", "Today: Closed today"), services as a list,
a distance in miles and a rating with its review count on one line, a step-free access
line on some, and a phone number.

Tuning half: open after 9pm, flu jabs, the best rated, names and phones, within a mile,
step-free access, closing before 6pm, blood pressure checks. Held half: open before 8am,
travel clinic, the most reviewed, names and distances, open 24 hours, closed now,
emergency contraception, rated 4.5 or more. Eight wordings a task: five English, then
German, French and Spanish. Written before any run."""

from paraphrase_set import columns, records, write

KEY = "name|pharmacy|title|nombre|apotheke|pharmacie|farmacia"
PAGE = "fixtures/pharmacies.html"

TASKS = [
    (
        "open-after-9pm",
        records(KEY, "Lloyds Pharmacy Gloucester Road", "Asda Pharmacy Bedminster",
                "Fishponds Late Pharmacy", "Southmead 24 Pharmacy"),
        [
            "Which pharmacies are open after 9pm?",
            "pharmacies still open later than 21:00",
            "I need a chemist that's open past nine tonight",
            "which ones close after 9 pm",
            "late pharmacies open after 9 in the evening",
            "Welche Apotheken haben nach 21 Uhr geöffnet?",
            "pharmacies ouvertes après 21 h",
            "farmacias abiertas después de las 21:00",
        ],
    ),
    (
        "open-before-8am",
        records(KEY, "Lloyds Pharmacy Gloucester Road", "Asda Pharmacy Bedminster",
                "Southmead 24 Pharmacy"),
        [
            "Which pharmacies open before 8am?",
            "pharmacies that are open before 8 in the morning",
            "where can I get my prescription before 08:00",
            "early opening pharmacies, before 8am",
            "which ones open earlier than 8:00",
            "Welche Apotheken öffnen vor 8 Uhr?",
            "pharmacies qui ouvrent avant 8 h",
            "farmacias que abren antes de las 8:00",
        ],
    ),
    (
        "flu-jabs",
        records(KEY, "Boots Broadmead", "Hartcliffe Pharmacy", "Well Pharmacy Clifton",
                "Superdrug Cabot Circus", "Asda Pharmacy Bedminster",
                "Kingswood Health Pharmacy", "Southmead 24 Pharmacy"),
        [
            "Which pharmacies do flu jabs?",
            "where can I get a flu jab",
            "pharmacies offering flu vaccinations",
            "show pharmacies with flu jabs",
            "flu jab pharmacies near me",
            "Apotheken mit Grippeimpfung",
            "pharmacies qui font le vaccin contre la grippe",
            "farmacias con vacuna de la gripe",
        ],
    ),
    (
        "travel-clinic",
        records(KEY, "Boots Broadmead", "Well Pharmacy Clifton", "Asda Pharmacy Bedminster",
                "Henleaze Pharmacy"),
        [
            "Which pharmacies have a travel clinic?",
            "pharmacies with a travel clinic",
            "where can I get travel vaccines",
            "show me travel clinic pharmacies",
            "which ones offer a travel clinic service",
            "Apotheken mit Reiseklinik",
            "pharmacies avec une clinique du voyage",
            "farmacias con clínica del viajero",
        ],
    ),
    (
        "best-rated",
        records(KEY, "Redland Chemist"),
        [
            "Which pharmacy has the best rating?",
            "the highest rated pharmacy",
            "what's the top-rated chemist here",
            "best reviewed pharmacy",
            "which one has the highest stars",
            "Welche Apotheke ist am besten bewertet?",
            "la pharmacie la mieux notée",
            "la farmacia con mejor valoración",
        ],
    ),
    (
        "most-reviewed",
        records(KEY, "Asda Pharmacy Bedminster"),
        [
            "Which pharmacy has the most reviews?",
            "the most reviewed pharmacy",
            "which chemist has been reviewed the most",
            "pharmacy with the highest number of reviews",
            "which one has the most ratings",
            "Welche Apotheke hat die meisten Bewertungen?",
            "la pharmacie avec le plus d'avis",
            "la farmacia con más reseñas",
        ],
    ),
    (
        "names-and-phones",
        columns(KEY, "phone|telephone|phone number|tel|telefon|téléphone|teléfono", min_items=12),
        [
            "List every pharmacy with its phone number",
            "pharmacy names and phone numbers",
            "give me each pharmacy and how to call them",
            "phone numbers of all the pharmacies",
            "pharmacies: name, phone",
            "alle Apotheken mit Telefonnummer",
            "le numéro de téléphone de chaque pharmacie",
            "el teléfono de cada farmacia",
        ],
    ),
    (
        "names-and-distance",
        columns(KEY, "distance|miles|how far|entfernung|distancia", min_items=12),
        [
            "List each pharmacy and how far away it is",
            "pharmacy names with their distance",
            "how far is each pharmacy",
            "all pharmacies and the distance to them",
            "pharmacies: name, distance",
            "jede Apotheke mit Entfernung",
            "la distance de chaque pharmacie",
            "la distancia a cada farmacia",
        ],
    ),
    (
        "within-1-mile",
        records(KEY, "Boots Broadmead", "Hartcliffe Pharmacy",
                "Lloyds Pharmacy Gloucester Road"),
        [
            "pharmacies within 1 mile",
            "which pharmacies are less than a mile away",
            "chemists no more than one mile from here",
            "anything within a mile?",
            "show pharmacies under 1 mile away",
            "Apotheken im Umkreis von einer Meile",
            "pharmacies à moins d'un mile",
            "farmacias a menos de una milla",
        ],
    ),
    (
        "open-24-hours",
        records(KEY, "Lloyds Pharmacy Gloucester Road", "Southmead 24 Pharmacy"),
        [
            "Which pharmacies are open 24 hours?",
            "24 hour pharmacies",
            "pharmacies open round the clock",
            "which ones never close",
            "is there a pharmacy open all night",
            "Welche Apotheken sind rund um die Uhr geöffnet?",
            "pharmacies ouvertes 24h/24",
            "farmacias abiertas 24 horas",
        ],
    ),
    (
        "step-free",
        records(KEY, "Boots Broadmead", "Lloyds Pharmacy Gloucester Road",
                "Well Pharmacy Clifton", "Superdrug Cabot Circus", "Asda Pharmacy Bedminster",
                "Kingswood Health Pharmacy", "Henleaze Pharmacy", "Southmead 24 Pharmacy"),
        [
            "Which pharmacies have step-free access?",
            "wheelchair accessible pharmacies",
            "pharmacies I can get into with a wheelchair",
            "show the ones with step free access",
            "pharmacies without steps at the entrance",
            "barrierefreie Apotheken",
            "pharmacies accessibles en fauteuil roulant",
            "farmacias accesibles en silla de ruedas",
        ],
    ),
    (
        "closed-now",
        records(KEY, "Redland Chemist"),
        [
            "Which pharmacy is closed today?",
            "which ones are closed right now",
            "pharmacies that aren't open today",
            "show closed pharmacies",
            "any chemist shut today?",
            "Welche Apotheke ist heute geschlossen?",
            "quelle pharmacie est fermée aujourd'hui",
            "qué farmacia está cerrada hoy",
        ],
    ),
    (
        "close-before-6pm",
        records(KEY, "Henleaze Pharmacy", "Shirehampton Pharmacy"),
        [
            "Which pharmacies close before 6pm?",
            "pharmacies that shut earlier than 18:00",
            "which ones close before 6 in the evening",
            "pharmacies closing before six",
            "chemists that close before 6 pm today",
            "Welche Apotheken schließen vor 18 Uhr?",
            "pharmacies qui ferment avant 18 h",
            "farmacias que cierran antes de las 18:00",
        ],
    ),
    (
        "emergency-contraception",
        records(KEY, "Lloyds Pharmacy Gloucester Road", "Superdrug Cabot Circus",
                "Fishponds Late Pharmacy", "Southmead 24 Pharmacy"),
        [
            "Which pharmacies offer emergency contraception?",
            "where can I get the morning after pill",
            "pharmacies with emergency contraception",
            "show the ones that provide emergency contraception",
            "emergency contraception pharmacies",
            "Apotheken mit Notfallverhütung",
            "pharmacies qui proposent la contraception d'urgence",
            "farmacias con anticoncepción de emergencia",
        ],
    ),
    (
        "blood-pressure",
        records(KEY, "Boots Broadmead", "Lloyds Pharmacy Gloucester Road", "Redland Chemist",
                "Asda Pharmacy Bedminster", "Henleaze Pharmacy"),
        [
            "Which pharmacies do blood pressure checks?",
            "where can I get my blood pressure checked",
            "pharmacies offering blood pressure tests",
            "blood pressure check pharmacies",
            "show pharmacies with blood pressure checks",
            "Apotheken mit Blutdruckmessung",
            "pharmacies qui prennent la tension",
            "farmacias donde toman la tensión",
        ],
    ),
    (
        "rated-4-5-or-more",
        records(KEY, "Hartcliffe Pharmacy", "Redland Chemist", "Kingswood Health Pharmacy",
                "Henleaze Pharmacy"),
        [
            "pharmacies rated 4.5 or higher",
            "which pharmacies have at least 4.5 stars",
            "chemists with a rating of 4.5 and above",
            "show pharmacies rated over 4.4",
            "only pharmacies with 4.5 stars or more",
            "Apotheken mit mindestens 4,5 Sternen",
            "pharmacies notées 4,5 ou plus",
            "farmacias con una valoración de 4,5 o más",
        ],
    ),
]

if __name__ == "__main__":
    write(34, PAGE, TASKS)
