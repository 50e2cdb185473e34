"""The thirtieth paraphrase set (issue #30): a map's results list of electric-car chargers,
written before any run on it.

An eleventh kind of page: twelve charging locations, nearest first, each an `li` with a
linked name, a distance in km beside it, the network that runs it, a live status badge
("Available", "In use", "Out of order", "Closed") and a definition list of facts — connectors
as a comma list (CCS, CHAdeMO, Type 2), max power in kW, how many charge points and how many
are free now (two counts side by side), a price per kWh or "Free for customers", and opening
hours ("Open 24 hours" or a range). Its tuning half asks a broken state, the nearest three,
the fewest of a count, a connector, a price bound that free ones pass, round-the-clock
hours, fields of each and a bound on the free-now count; its held half the busy state, the
single nearest, the most of a count, another connector, the free ones, the hours negated,
other fields and a bound on power. Written in session 42, before any run of its tasks. Run
`python3 eval/paraphrases30.py` to write `eval/paraphrase_tasks30.json`."""

import paraphrase_set

PAGE = "fixtures/charging-stations.html"
NAME = "name|station|location|title|standort|ladestation|borne|station de recharge|estación|nombre"
POWER = "max power|max_power|power|kw|leistung|puissance|potencia"
PRICE = "price|preis|prix|precio|cost|tariff"
NETWORK = "network|operator|provider|netz|betreiber|opérateur|réseau|red|operador"
DISTANCE = "distance|entfernung|distancia"


def records(*names):
    return paraphrase_set.records(NAME, *names)


TASKS = [
    (
        "out-of-order",
        records("Marketplace", "Hospital Visitor Car Park"),
        [
            "Which chargers are out of order?",
            "show me the broken charging stations",
            "which ones aren't working right now",
            "any chargers that are faulty at the moment?",
            "list stations that are currently down",
            "Welche Ladestationen sind außer Betrieb?",
            "quelles bornes sont hors service ?",
            "¿qué cargadores están fuera de servicio?",
        ],
    ),
    (
        "in-use",
        records("Riverside Leisure Centre", "Village Hall, Little Barton"),
        [
            "Which chargers are in use right now?",
            "show the stations that are busy",
            "which ones are occupied at the moment",
            "where is someone already plugged in?",
            "list every charger currently being used",
            "Welche Ladesäulen sind gerade belegt?",
            "quelles bornes sont occupées ?",
            "¿qué estaciones están ocupadas ahora mismo?",
        ],
    ),
    (
        "nearest-3",
        records("Harbour Road Car Park", "Marketplace", "Riverside Leisure Centre"),
        [
            "the three closest chargers",
            "Show me the 3 nearest charging stations",
            "which 3 stations are closest to me?",
            "top three by distance",
            "give me the three charge points nearest Westgate",
            "what are the nearest three places to charge?",
            "Die drei nächstgelegenen Ladestationen",
            "les 3 bornes les plus proches",
        ],
    ),
    (
        "closest-one",
        records("Harbour Road Car Park"),
        [
            "Where's the nearest charger?",
            "which station is closest",
            "the closest place to plug in my car",
            "what's the shortest distance charger",
            "nearest charging point please",
            "Wo ist die nächste Ladestation?",
            "quelle est la borne la plus proche ?",
            "¿cuál es el cargador más cercano?",
        ],
    ),
    (
        "fewest-points",
        records("Village Hall, Little Barton"),
        [
            "Which location has the fewest charge points?",
            "the station with the least chargers",
            "where are there the fewest charging points",
            "smallest site by number of charge points",
            "which place only has one charger?",
            "lowest number of charge points",
            "Welcher Standort hat die wenigsten Ladepunkte?",
            "quel site a le moins de points de charge ?",
        ],
    ),
    (
        "most-points",
        records("Northgate Retail Park"),
        [
            "Which location has the most charge points?",
            "biggest charging hub",
            "where are the most chargers",
            "the station with the highest number of charging points",
            "which site has the largest number of plugs",
            "which place has the most free chargers right now",
            "¿qué estación tiene más puntos de carga?",
            "Wo gibt es die meisten Ladepunkte?",
        ],
    ),
    (
        "chademo",
        records("Harbour Road Car Park", "Station Approach", "Northgate Retail Park"),
        [
            "Which stations have CHAdeMO?",
            "chademo chargers",
            "my car uses CHAdeMO, where can I charge?",
            "list the locations offering a CHAdeMO connector",
            "any with chademo connectors?",
            "stations that support CHAdeMO",
            "Ladestationen mit CHAdeMO-Anschluss",
            "bornes avec prise CHAdeMO",
        ],
    ),
    (
        "type-2",
        records(
            "Marketplace",
            "Riverside Leisure Centre",
            "Tesco Extra Westgate",
            "Station Approach",
            "Cathedral Quarter NCP",
            "Hospital Visitor Car Park",
            "Hillside Hotel",
            "Village Hall, Little Barton",
        ),
        [
            "Which stations have a Type 2 connector?",
            "type 2 chargers please",
            "where can I use a Type 2 cable",
            "locations with type-2 sockets",
            "list chargers that support Type 2",
            "I need a type 2 plug, which places have one?",
            "Ladesäulen mit Typ 2",
            "¿dónde hay conectores tipo 2?",
        ],
    ),
    (
        "under-50p",
        records(
            "Marketplace",
            "Tesco Extra Westgate",
            "Cathedral Quarter NCP",
            "Hospital Visitor Car Park",
            "Hillside Hotel",
            "Village Hall, Little Barton",
        ),
        [
            "chargers under 50p per kWh",
            "Which stations cost less than £0.50 a kWh?",
            "cheaper than 50p/kWh",
            "where is charging below 50 pence per kilowatt hour",
            "price under £0.50",
            "show me places that charge at most 45p per kWh",
            "Ladestationen unter 0,50 £ pro kWh",
            "bornes à moins de 0,50 £ le kWh",
        ],
    ),
    (
        "free",
        records("Tesco Extra Westgate", "Hillside Hotel"),
        [
            "Where can I charge for free?",
            "which chargers are free to use",
            "any stations that cost nothing?",
            "no-cost charging",
            "which ones don't charge anything",
            "free charging locations",
            "Wo kann ich kostenlos laden?",
            "¿dónde puedo cargar gratis?",
        ],
    ),
    (
        "open-24-hours",
        records(
            "Harbour Road Car Park",
            "Marketplace",
            "Station Approach",
            "Northgate Retail Park",
            "Hospital Visitor Car Park",
            "Hillside Hotel",
            "Motorway Services J12",
        ),
        [
            "Which chargers are open 24 hours?",
            "24/7 charging stations",
            "where can I charge in the middle of the night",
            "stations open round the clock",
            "list the ones open all day and night",
            "which locations never close",
            "Ladestationen, die rund um die Uhr geöffnet sind",
            "bornes ouvertes 24h/24",
        ],
    ),
    (
        "not-24-hours",
        records(
            "Riverside Leisure Centre",
            "Tesco Extra Westgate",
            "Cathedral Quarter NCP",
            "Greenfield Park & Ride",
            "Village Hall, Little Barton",
        ),
        [
            "Which stations are not open 24 hours?",
            "chargers with limited opening hours",
            "which ones close at night",
            "which locations aren't open 24/7",
            "list chargers that shut overnight",
            "stations that don't open round the clock",
            "Welche Ladestationen haben nachts geschlossen?",
            "¿qué estaciones no abren las 24 horas?",
        ],
    ),
    (
        "power-and-price",
        paraphrase_set.columns(NAME, POWER, PRICE, min_items=12),
        [
            "List each station with its max power and price",
            "name, power and price per kWh for every charger",
            "how fast and how much is each charger?",
            "show every location's kW rating and cost",
            "for each charging station give me the power output and the tariff",
            "stations with their power and price",
            "Liste aller Ladestationen mit Leistung und Preis",
            "chaque borne avec sa puissance et son prix",
        ],
    ),
    (
        "network-and-distance",
        paraphrase_set.columns(NAME, NETWORK, DISTANCE, min_items=12),
        [
            "List every station with its network and distance",
            "who operates each charger and how far away is it?",
            "names, operators and distances",
            "for each location: the provider and how far it is",
            "show each charging station's network and how many km away it is",
            "which company runs each station, and its distance",
            "Alle Ladestationen mit Betreiber und Entfernung",
            "¿qué red gestiona cada estación y a qué distancia está?",
        ],
    ),
    (
        "free-now-3",
        records(
            "Harbour Road Car Park",
            "Tesco Extra Westgate",
            "Northgate Retail Park",
            "Motorway Services J12",
        ),
        [
            "Which stations have at least 3 chargers free right now?",
            "where are 3 or more charge points free at the moment",
            "locations with more than 2 free chargers",
            "show stations with at least three free points",
            "I need somewhere with 3+ chargers available now",
            "which sites have 3 or more free right now",
            "Wo sind gerade mindestens 3 Ladepunkte frei?",
            "où y a-t-il au moins 3 bornes libres en ce moment ?",
        ],
    ),
    (
        "at-least-50kw",
        records(
            "Harbour Road Car Park",
            "Riverside Leisure Centre",
            "Station Approach",
            "Northgate Retail Park",
            "Greenfield Park & Ride",
            "Motorway Services J12",
        ),
        [
            "Which chargers are 50 kW or more?",
            "stations with at least 50kW",
            "rapid chargers, 50 kW and above",
            "anything with a max power of 50 kW or higher",
            "list the locations that can charge at 50 kW or faster",
            "chargers rated at least 50 kilowatts",
            "Ladestationen mit mindestens 50 kW",
            "bornes d'au moins 50 kW",
        ],
    ),
]

if __name__ == "__main__":
    paraphrase_set.write(30, PAGE, TASKS)
