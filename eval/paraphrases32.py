"""The thirty-second paraphrase set (issue #30): a site comparing gyms in a table, written
before any run on it.

A thirteenth kind of page: twelve gyms, nearest first, as rows of a `table` whose cells
pack two values — the gym's name linked beside its brand ("Fitzroy Street" + "PureGym"), a
monthly price beside a joining fee or "No joining fee", hours "24/7" or a range, facilities
as a comma list, a rating beside its count of reviews ("4.3 ★ (2,140)"). Its tuning half
asks round-the-clock hours, the cheapest, a facility, no joining fee, the brand of each, one
brand's gyms, a rating bound and a distance bound; its held half the hours negated, the
dearest, another facility, a price bound, price and rating of each, another brand's gyms,
the best rated and a closing-time bound. Written in session 43, before any run of its
tasks. Run `python3 eval/paraphrases32.py` to write `eval/paraphrase_tasks32.json`."""

import paraphrase_set

PAGE = "fixtures/gyms.html"
NAME = "name|gym|title|club|fitnessstudio|salle|gimnasio|nombre"
BRAND = "brand|chain|operator|company|provider|marke|kette|betreiber|marque|enseigne|marca|cadena"
PRICE = "price|membership|cost|monthly price|fee|preis|prix|precio|tarif|cuota"
RATING = "rating|score|stars|bewertung|note|valoración|puntuación"


def records(*names):
    return paraphrase_set.records(NAME, *names)


ALWAYS_OPEN = ("Fitzroy Street", "Kirkgate", "Headingley", "Roundhay")

TASKS = [
    (
        "open-24-7",
        records(*ALWAYS_OPEN),
        [
            "Which gyms are open 24/7?",
            "gyms I can go to at any time of day or night",
            "show me 24 hour gyms",
            "which ones never close",
            "list the gyms that are open around the clock",
            "Welche Fitnessstudios haben rund um die Uhr geöffnet?",
            "salles de sport ouvertes 24h/24",
            "gimnasios abiertos 24 horas",
        ],
    ),
    (
        "not-24-7",
        records(
            "The Calls",
            "Millennium Square",
            "Holbeck Boxing Club",
            "Armley Leisure Centre",
            "Chapel Allerton Yoga Loft",
            "Kirkstall",
            "Morley Leisure Centre",
            "Aireborough Leisure Centre",
        ),
        [
            "Which gyms are not open 24/7?",
            "gyms that shut at night",
            "which ones have set opening hours rather than 24 hours",
            "gyms that aren't open all night",
            "list gyms that close at some point in the day",
            "Welche Fitnessstudios sind nicht rund um die Uhr offen?",
            "salles qui ne sont pas ouvertes 24h/24",
            "gimnasios que no abren 24 horas",
        ],
    ),
    (
        "cheapest",
        records("Roundhay"),
        [
            "Which gym is the cheapest?",
            "the cheapest membership",
            "what's the least expensive gym per month",
            "lowest monthly price",
            "which gym costs the least",
            "Welches Fitnessstudio ist am günstigsten?",
            "la salle la moins chère",
            "el gimnasio más barato",
        ],
    ),
    (
        "dearest",
        records("The Calls"),
        [
            "Which gym is the most expensive?",
            "the priciest membership",
            "which gym costs the most per month",
            "highest monthly price",
            "the most expensive gym on the list",
            "Welches Fitnessstudio ist am teuersten?",
            "la salle la plus chère",
            "el gimnasio más caro",
        ],
    ),
    (
        "pool",
        records(
            "The Calls",
            "Millennium Square",
            "Armley Leisure Centre",
            "Kirkstall",
            "Morley Leisure Centre",
            "Aireborough Leisure Centre",
        ),
        [
            "Which gyms have a pool?",
            "gyms with a swimming pool",
            "where can I swim",
            "show gyms that include a pool",
            "any gyms with pools?",
            "Fitnessstudios mit Schwimmbad",
            "salles de sport avec piscine",
            "gimnasios con piscina",
        ],
    ),
    (
        "sauna",
        records(
            "The Calls",
            "Millennium Square",
            "Armley Leisure Centre",
            "Kirkstall",
            "Morley Leisure Centre",
        ),
        [
            "Which gyms have a sauna?",
            "gyms with a sauna",
            "show the ones with saunas",
            "where is there a sauna",
            "list gyms offering a sauna",
            "Fitnessstudios mit Sauna",
            "salles avec sauna",
            "gimnasios con sauna",
        ],
    ),
    (
        "no-joining-fee",
        records(
            "Fitzroy Street",
            "Millennium Square",
            "Holbeck Boxing Club",
            "Headingley",
            "Chapel Allerton Yoga Loft",
            "Aireborough Leisure Centre",
        ),
        [
            "Which gyms have no joining fee?",
            "gyms without a joining fee",
            "where can I join without paying a sign-up fee",
            "gyms with free joining",
            "show gyms that don't charge a joining fee",
            "Fitnessstudios ohne Aufnahmegebühr",
            "salles sans frais d'inscription",
            "gimnasios sin cuota de inscripción",
        ],
    ),
    (
        "under-30",
        records(
            "Fitzroy Street",
            "Kirkgate",
            "Headingley",
            "Roundhay",
            "Morley Leisure Centre",
            "Aireborough Leisure Centre",
        ),
        [
            "gyms under £30 a month",
            "which gyms cost less than £30 per month",
            "memberships below 30 pounds",
            "gyms cheaper than £30/month",
            "show me gyms for under thirty quid a month",
            "Fitnessstudios unter 30 £ im Monat",
            "salles à moins de 30 £ par mois",
            "gimnasios por menos de 30 £ al mes",
        ],
    ),
    (
        "brand",
        paraphrase_set.columns(NAME, BRAND),
        [
            "Which chain is each gym part of?",
            "list every gym and its brand",
            "gym names with the company behind each",
            "for each gym, who is the operator",
            "show the brand of every gym",
            "Fitnessstudios und ihre Kette",
            "chaque salle et son enseigne",
            "cada gimnasio y su marca",
        ],
    ),
    (
        "price-and-rating",
        paraphrase_set.columns(NAME, PRICE, RATING),
        [
            "List each gym with its monthly price and rating",
            "how much is each gym and how is it rated",
            "price and stars for every gym",
            "gyms: membership cost, rating",
            "give me the price and the rating of each gym",
            "Preis und Bewertung jedes Fitnessstudios",
            "prix et note de chaque salle",
            "precio y valoración de cada gimnasio",
        ],
    ),
    (
        "puregym",
        records("Fitzroy Street", "Headingley"),
        [
            "Which gyms are PureGym?",
            "PureGym gyms",
            "show me the PureGym ones",
            "gyms run by PureGym",
            "list only PureGym locations",
            "PureGym-Studios",
            "les salles PureGym",
            "los gimnasios de PureGym",
        ],
    ),
    (
        "active-leeds",
        records(
            "Armley Leisure Centre",
            "Morley Leisure Centre",
            "Aireborough Leisure Centre",
        ),
        [
            "Which gyms are run by Active Leeds?",
            "Active Leeds gyms",
            "show the Active Leeds centres",
            "gyms from Active Leeds only",
            "list Active Leeds locations",
            "Studios von Active Leeds",
            "les salles Active Leeds",
            "los gimnasios de Active Leeds",
        ],
    ),
    (
        "rated-4-5",
        records(
            "The Calls",
            "Millennium Square",
            "Holbeck Boxing Club",
            "Chapel Allerton Yoga Loft",
        ),
        [
            "gyms rated 4.5 or higher",
            "which gyms have a rating of at least 4.5",
            "gyms with 4.5 stars or more",
            "show me gyms scoring 4.5+",
            "only gyms rated 4.5 and above",
            "Fitnessstudios mit mindestens 4,5 Sternen",
            "salles notées au moins 4,5",
            "gimnasios con una valoración de al menos 4,5",
        ],
    ),
    (
        "best-rated",
        records("Holbeck Boxing Club"),
        [
            "Which gym has the best rating?",
            "the highest rated gym",
            "top-rated gym",
            "which one do members rate best",
            "the gym with the most stars",
            "das am besten bewertete Fitnessstudio",
            "la salle la mieux notée",
            "el gimnasio mejor valorado",
        ],
    ),
    (
        "within-a-mile",
        records("Fitzroy Street", "The Calls", "Kirkgate", "Millennium Square"),
        [
            "gyms within a mile",
            "which gyms are less than 1 mile away",
            "gyms under a mile from the centre",
            "anything within 1 mi?",
            "show gyms no more than one mile away",
            "Fitnessstudios im Umkreis von einer Meile",
            "salles à moins d'un mile",
            "gimnasios a menos de una milla",
        ],
    ),
    (
        "open-after-10pm",
        records("Fitzroy Street", "The Calls", "Kirkgate", "Headingley", "Roundhay"),
        [
            "Which gyms are open after 10pm?",
            "where can I work out after 10 at night",
            "gyms open later than 22:00",
            "which ones stay open past 10 pm",
            "late-opening gyms, open after ten",
            "Welche Fitnessstudios haben nach 22 Uhr geöffnet?",
            "salles ouvertes après 22 h",
            "gimnasios abiertos después de las 22:00",
        ],
    ),
]

if __name__ == "__main__":
    paraphrase_set.write(32, PAGE, TASKS)
