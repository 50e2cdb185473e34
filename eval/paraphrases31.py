"""The thirty-first paraphrase set (issue #30): a city's live car-park list, written before
any run on it.

A twelfth kind of page: twelve car parks, nearest the centre first, each an `article` card
with a linked name and a live badge ("Full", "Almost full", "Spaces available", "Closed"), a
byline that holds two values ("Operated by Q-Park · 0.2 miles from centre"), two counts
written value first ("<strong>86</strong> spaces free", "310 spaces in total"), a list of
labelled lines (height limit in metres, a tariff per hour or per day or "Free", hours that
are "Open 24 hours" or a range) and facility tags (EV charging, Disabled bays, Parent and
child bays). Its tuning half asks the full ones, the most of a count, the free ones, a bound
on a measure in metres, the operator of each, the hours negated, a facility and an
operator's value; its held half the nearly full ones, the biggest, a price bound, a
distance bound, other fields, a closing-time bound, another facility and another operator.
Written in session 43, before any run of its tasks. Run `python3 eval/paraphrases31.py` to
write `eval/paraphrase_tasks31.json`."""

import paraphrase_set

PAGE = "fixtures/car-parks.html"
NAME = "name|car park|car_park|carpark|title|parkhaus|parkplatz|parking|aparcamiento|nombre"
OPERATOR = "operator|operated by|operated_by|run by|run_by|company|owner|provider|betreiber|opérateur|exploitant|operador|gestor"
FREE = "spaces free|spaces_free|free spaces|free_spaces|free|available|spaces|freie plätze|places libres|plazas libres"
PRICE = "tariff|price|cost|preis|prix|precio|tarif|tarifa"


def records(*names):
    return paraphrase_set.records(NAME, *names)


TASKS = [
    (
        "full",
        records("Riverside Multi-Storey", "Station Road"),
        [
            "Which car parks are full?",
            "show me the car parks with no spaces left",
            "which ones are completely full right now",
            "car parks that are full at the moment",
            "where is there no room left to park",
            "Welche Parkhäuser sind voll?",
            "quels parkings sont complets ?",
            "¿qué aparcamientos están llenos?",
        ],
    ),
    (
        "almost-full",
        records("Market Street", "Westgate Shopping Centre", "Southfields Park & Ride"),
        [
            "Which car parks are almost full?",
            "car parks that are nearly full",
            "which ones are filling up",
            "show the car parks close to full",
            "any car parks almost at capacity?",
            "Welche Parkhäuser sind fast voll?",
            "parkings presque complets",
            "aparcamientos casi llenos",
        ],
    ),
    (
        "most-free",
        records("Airport Long Stay"),
        [
            "Which car park has the most free spaces?",
            "the car park with the most spaces available right now",
            "where are the most empty spaces",
            "which one has got the most room",
            "car park with the highest number of free spaces",
            "Welches Parkhaus hat die meisten freien Plätze?",
            "le parking avec le plus de places libres",
            "el aparcamiento con más plazas libres",
        ],
    ),
    (
        "biggest",
        records("Westgate Shopping Centre"),
        [
            "Which is the biggest car park?",
            "the car park with the most spaces in total",
            "largest car park by capacity",
            "which car park holds the most cars",
            "the car park with the highest total number of spaces",
            "Welches ist das größte Parkhaus?",
            "le plus grand parking",
            "el aparcamiento más grande",
        ],
    ),
    (
        "free",
        records("Leisure Centre", "Northgate Park & Ride", "Southfields Park & Ride"),
        [
            "Which car parks are free?",
            "where can I park for free",
            "car parks that don't charge",
            "list the free car parks",
            "any car parks with no parking fee?",
            "Welche Parkplätze sind kostenlos?",
            "parkings gratuits",
            "¿dónde se puede aparcar gratis?",
        ],
    ),
    (
        "under-2-pounds",
        records(
            "Castle Yard",
            "Westgate Shopping Centre",
            "Library Car Park",
            "Leisure Centre",
            "Northgate Park & Ride",
            "Southfields Park & Ride",
        ),
        [
            "car parks under £2 an hour",
            "which car parks cost less than £2 per hour",
            "where can I park for under 2 pounds an hour",
            "cheap car parks, below £2/hr",
            "show car parks charging less than two pounds an hour",
            "Parkhäuser unter 2 £ pro Stunde",
            "parkings à moins de 2 £ de l'heure",
            "aparcamientos por menos de 2 £ la hora",
        ],
    ),
    (
        "height",
        records(
            "Castle Yard",
            "Library Car Park",
            "Leisure Centre",
            "Northgate Park & Ride",
            "Southfields Park & Ride",
            "Airport Long Stay",
        ),
        [
            "car parks with a height limit of at least 2.2 m",
            "which car parks have a max height of 2.2m or more",
            "height limit 2.2 metres or higher",
            "car parks where the height restriction is 2.2 m or above",
            "show me car parks with headroom of at least 2.2 m",
            "Parkhäuser mit einer Höhenbegrenzung von mindestens 2,2 m",
            "parkings avec une hauteur limite d'au moins 2,2 m",
            "aparcamientos con altura máxima de al menos 2,2 m",
        ],
    ),
    (
        "within-half-a-mile",
        records("Riverside Multi-Storey", "Market Street", "Cathedral Quarter"),
        [
            "car parks within half a mile of the centre",
            "which car parks are less than 0.5 miles away",
            "car parks under half a mile from the centre",
            "anything within 0.5 miles?",
            "show car parks no more than half a mile out",
            "Parkhäuser im Umkreis von 0,5 Meilen",
            "parkings à moins d'un demi-mile du centre",
            "aparcamientos a menos de media milla del centro",
        ],
    ),
    (
        "operator",
        paraphrase_set.columns(NAME, OPERATOR),
        [
            "Who runs each car park?",
            "list every car park and its operator",
            "for each car park, which company operates it",
            "car park names with the operator",
            "show me who operates each one",
            "Parkhäuser und ihre Betreiber",
            "chaque parking et son exploitant",
            "cada aparcamiento y su operador",
        ],
    ),
    (
        "free-spaces-and-price",
        paraphrase_set.columns(NAME, FREE, PRICE),
        [
            "List each car park with its free spaces and tariff",
            "how many spaces are free at each car park and what does it cost",
            "for every car park give me spaces free and the price",
            "car parks: free spaces, tariff",
            "show spaces available and price per car park",
            "Parkhäuser mit freien Plätzen und Preis",
            "places libres et tarif de chaque parking",
            "plazas libres y tarifa de cada aparcamiento",
        ],
    ),
    (
        "not-24-hours",
        records(
            "Market Street",
            "Station Road",
            "Castle Yard",
            "Westgate Shopping Centre",
            "Library Car Park",
            "Leisure Centre",
            "Northgate Park & Ride",
            "Southfields Park & Ride",
        ),
        [
            "Which car parks are not open 24 hours?",
            "car parks that close overnight",
            "which ones aren't open round the clock",
            "list car parks that don't open 24/7",
            "car parks with limited opening hours, not 24 hours",
            "Welche Parkhäuser sind nicht rund um die Uhr geöffnet?",
            "parkings qui ne sont pas ouverts 24h/24",
            "aparcamientos que no abren las 24 horas",
        ],
    ),
    (
        "open-after-9pm",
        records(
            "Riverside Multi-Storey",
            "Cathedral Quarter",
            "Station Road",
            "Hospital Visitors",
            "Leisure Centre",
            "Airport Long Stay",
        ),
        [
            "Which car parks are open after 9pm?",
            "where can I still park after 9 in the evening",
            "car parks open later than 21:00",
            "which ones stay open past 9 pm",
            "car parks that are open late, after nine at night",
            "Welche Parkhäuser haben nach 21 Uhr geöffnet?",
            "parkings ouverts après 21 h",
            "aparcamientos abiertos después de las 21:00",
        ],
    ),
    (
        "ev-charging",
        records(
            "Riverside Multi-Storey",
            "Cathedral Quarter",
            "Station Road",
            "Westgate Shopping Centre",
            "Hospital Visitors",
            "Northgate Park & Ride",
            "Airport Long Stay",
        ),
        [
            "Which car parks have EV charging?",
            "car parks where I can charge my electric car",
            "show car parks with electric vehicle charging",
            "any car parks with EV chargers?",
            "list the ones that offer EV charging",
            "Parkhäuser mit Ladestation für Elektroautos",
            "parkings avec recharge pour véhicules électriques",
            "aparcamientos con carga para coches eléctricos",
        ],
    ),
    (
        "disabled-bays",
        records(
            "Riverside Multi-Storey",
            "Market Street",
            "Station Road",
            "Castle Yard",
            "Westgate Shopping Centre",
            "Hospital Visitors",
            "Northgate Park & Ride",
            "Southfields Park & Ride",
        ),
        [
            "Which car parks have disabled bays?",
            "car parks with disabled parking",
            "where are there blue badge spaces",
            "list car parks offering accessible bays",
            "show car parks that have disabled spaces",
            "Parkhäuser mit Behindertenparkplätzen",
            "parkings avec places pour personnes handicapées",
            "aparcamientos con plazas para discapacitados",
        ],
    ),
    (
        "council",
        records(
            "Market Street",
            "Castle Yard",
            "Library Car Park",
            "Northgate Park & Ride",
            "Southfields Park & Ride",
        ),
        [
            "Which car parks are run by the council?",
            "council car parks",
            "show me the car parks operated by City Council",
            "car parks owned by the city council",
            "list the council-run ones",
            "Welche Parkhäuser betreibt die Stadt (City Council)?",
            "parkings gérés par le City Council",
            "aparcamientos gestionados por el City Council",
        ],
    ),
    (
        "ncp",
        records("Cathedral Quarter", "Hospital Visitors"),
        [
            "Which car parks are run by NCP?",
            "NCP car parks",
            "show the car parks operated by NCP",
            "car parks from NCP only",
            "list NCP-operated ones",
            "Parkhäuser von NCP",
            "parkings exploités par NCP",
            "aparcamientos de NCP",
        ],
    ),
]

if __name__ == "__main__":
    paraphrase_set.write(31, PAGE, TASKS)
