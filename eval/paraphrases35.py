"""Set 35: a swimming pool finder's results as cards (`eval/pages/swimming-pools.html`): ten
pools nearest first, each a card with its name linked and a definition list — "Today" (a
range of hours, or "Closed today"), "Adult swim" (a price), "Facilities" (one line of
commas: "25m pool, Teaching pool, Sauna, Gym"), "Distance" in miles, "Call" (a phone number
under a label that is no word for a phone) — then "Pool hoist available" on some cards, and a
"Timetable" link on every card.

Tuning half: open after 9pm, a sauna, the cheapest swim, names and phones, within 2 miles, a
pool hoist, closing before 8pm, a swim under £5. Held half: open before 7am, a teaching
pool, the dearest swim, names and prices, further than 3 miles, a gym, closed today, a swim
over £5.50. Eight wordings a task: five English, then German, French and Spanish. Written
before any run, after set 34's tuning (session 45)."""

from paraphrase_set import columns, records, write

KEY = "name|pool|title|nombre|schwimmbad|piscine|piscina"
PAGE = "fixtures/swimming-pools.html"

TASKS = [
    (
        "open-after-9pm",
        records(KEY, "Aquatics Centre Ardwick", "Moss Side Leisure Centre",
                "Wythenshawe Forum Pool"),
        [
            "Which pools are open after 9pm?",
            "pools still open later than 21:00",
            "where can I swim after nine tonight",
            "which ones close after 9 pm",
            "late opening pools, after 9 in the evening",
            "Welche Schwimmbäder haben nach 21 Uhr geöffnet?",
            "piscines ouvertes après 21 h",
            "piscinas abiertas después de las 21:00",
        ],
    ),
    (
        "open-before-7am",
        records(KEY, "Aquatics Centre Ardwick", "Moss Side Leisure Centre",
                "Wythenshawe Forum Pool", "Stretford Sports Village"),
        [
            "Which pools open before 7am?",
            "pools I can swim at before 7 in the morning",
            "early morning swims before 07:00",
            "which ones open earlier than 7:00",
            "pools that are open before seven am",
            "Welche Bäder öffnen vor 7 Uhr?",
            "piscines qui ouvrent avant 7 h",
            "piscinas que abren antes de las 7:00",
        ],
    ),
    (
        "sauna",
        records(KEY, "Aquatics Centre Ardwick", "Levenshulme Baths", "Didsbury Lido",
                "Wythenshawe Forum Pool"),
        [
            "Which pools have a sauna?",
            "pools with saunas",
            "where is there a sauna",
            "show me the ones with a sauna",
            "sauna available",
            "Schwimmbäder mit Sauna",
            "piscines avec sauna",
            "piscinas con sauna",
        ],
    ),
    (
        "teaching-pool",
        records(KEY, "Aquatics Centre Ardwick", "Moss Side Leisure Centre",
                "Hulme Park Leisure", "Wythenshawe Forum Pool", "Stretford Sports Village"),
        [
            "Which pools have a teaching pool?",
            "pools with a learner pool",
            "where is there a teaching pool for kids",
            "centres with teaching pools",
            "show the ones that have a teaching pool",
            "Bäder mit Lehrschwimmbecken",
            "piscines avec un bassin d'apprentissage",
            "piscinas con piscina de enseñanza",
        ],
    ),
    (
        "cheapest-swim",
        records(KEY, "Chorlton Pool"),
        [
            "Which pool is the cheapest for an adult swim?",
            "the cheapest pool",
            "where is swimming cheapest",
            "lowest adult swim price",
            "cheapest place to swim",
            "Welches Bad ist am günstigsten?",
            "la piscine la moins chère",
            "la piscina más barata",
        ],
    ),
    (
        "dearest-swim",
        records(KEY, "Didsbury Lido"),
        [
            "Which pool is the most expensive?",
            "the priciest swim",
            "highest adult swim price",
            "most expensive pool to swim at",
            "which one costs the most",
            "Welches Bad ist am teuersten?",
            "la piscine la plus chère",
            "la piscina más cara",
        ],
    ),
    (
        "names-and-phones",
        columns(KEY, "phone|telephone|phone number|call|tel|telefon|téléphone|teléfono",
                min_items=10),
        [
            "List every pool with its phone number",
            "pool names and phone numbers",
            "phone numbers of all the pools",
            "each pool and its telephone number",
            "pools: name, phone",
            "alle Schwimmbäder mit Telefonnummer",
            "le numéro de téléphone de chaque piscine",
            "el teléfono de cada piscina",
        ],
    ),
    (
        "names-and-prices",
        columns(KEY, "adult swim|price|prices|cost|preis|prix|precio", min_items=10),
        [
            "List every pool with its adult swim price",
            "pool names and prices",
            "how much is a swim at each pool",
            "each pool and what a swim costs",
            "pools: name, price",
            "alle Schwimmbäder mit Preis",
            "le prix de chaque piscine",
            "el precio de cada piscina",
        ],
    ),
    (
        "within-2-miles",
        records(KEY, "Aquatics Centre Ardwick", "Levenshulme Baths",
                "Moss Side Leisure Centre"),
        [
            "pools within 2 miles",
            "which pools are less than two miles away",
            "swimming pools no more than 2 miles from here",
            "anything within 2 miles?",
            "show pools under 2 miles away",
            "Schwimmbäder im Umkreis von 2 Meilen",
            "piscines à moins de 2 miles",
            "piscinas a menos de 2 millas",
        ],
    ),
    (
        "further-than-3-miles",
        records(KEY, "Hulme Park Leisure", "Didsbury Lido", "Wythenshawe Forum Pool",
                "Sale Waterside Pool", "Stretford Sports Village"),
        [
            "pools more than 3 miles away",
            "which pools are further than three miles",
            "pools over 3 miles from here",
            "the ones at least 3 miles away",
            "show pools beyond 3 miles",
            "Schwimmbäder, die mehr als 3 Meilen entfernt sind",
            "piscines à plus de 3 miles",
            "piscinas a más de 3 millas",
        ],
    ),
    (
        "pool-hoist",
        records(KEY, "Aquatics Centre Ardwick", "Moss Side Leisure Centre",
                "Withington Baths", "Wythenshawe Forum Pool", "Stretford Sports Village"),
        [
            "Which pools have a pool hoist?",
            "pools with a hoist",
            "where is a pool hoist available",
            "show pools that have a hoist for disabled swimmers",
            "pool hoist available",
            "Schwimmbäder mit Poollifter",
            "piscines avec lève-personne",
            "piscinas con grúa",
        ],
    ),
    (
        "with-gym",
        records(KEY, "Aquatics Centre Ardwick", "Moss Side Leisure Centre",
                "Withington Baths", "Wythenshawe Forum Pool", "Sale Waterside Pool"),
        [
            "Which pools have a gym?",
            "pools with a gym",
            "where can I swim and use a gym",
            "leisure centres with gyms",
            "show the ones with a gym",
            "Schwimmbäder mit Fitnessstudio",
            "piscines avec salle de sport",
            "piscinas con gimnasio",
        ],
    ),
    (
        "close-before-8pm",
        records(KEY, "Chorlton Pool", "Didsbury Lido", "Stretford Sports Village"),
        [
            "Which pools close before 8pm?",
            "pools that shut earlier than 20:00",
            "which ones close before 8 in the evening",
            "pools closing before eight",
            "early closing pools, before 8 pm",
            "Welche Bäder schließen vor 20 Uhr?",
            "piscines qui ferment avant 20 h",
            "piscinas que cierran antes de las 20:00",
        ],
    ),
    (
        "closed-today",
        records(KEY, "Hulme Park Leisure"),
        [
            "Which pools are closed today?",
            "any pool shut today?",
            "which one isn't open today",
            "pools closed today",
            "show me the closed ones",
            "Welche Bäder sind heute geschlossen?",
            "piscines fermées aujourd'hui",
            "piscinas cerradas hoy",
        ],
    ),
    (
        "under-5",
        records(KEY, "Levenshulme Baths", "Moss Side Leisure Centre", "Chorlton Pool",
                "Withington Baths", "Wythenshawe Forum Pool", "Stretford Sports Village"),
        [
            "pools where an adult swim is under £5",
            "swims for less than 5 pounds",
            "which pools cost below £5",
            "adult swim under a fiver",
            "cheap swims, under £5",
            "Schwimmbäder unter 5 £",
            "piscines à moins de 5 £",
            "piscinas por menos de 5 libras",
        ],
    ),
    (
        "over-5-50",
        records(KEY, "Didsbury Lido", "Sale Waterside Pool"),
        [
            "pools where a swim costs more than £5.50",
            "swims over 5.50",
            "which pools charge above £5.50",
            "adult swim more expensive than £5.50",
            "pools costing over five pounds fifty",
            "Schwimmbäder über 5,50 £",
            "piscines à plus de 5,50 £",
            "piscinas de más de 5,50 libras",
        ],
    ),
]

if __name__ == "__main__":
    write(35, PAGE, TASKS)
