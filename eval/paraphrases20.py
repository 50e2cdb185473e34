"""The twentieth paraphrase set (issue #30): flight search results, written before any run on it.

A new kind of page: ten flights London → Lisbon as a search site lists them, each an airline,
a flight number, a departure and an arrival time of day, a duration ("2h 35m"), its stops
("Non-stop", "1 stop (MAD)"), a cabin-bag rule ("Cabin bag included", "Cabin bag + £28") and a
fare. No field is labelled in words; the classes are short abbreviations ("dep", "arr",
"dur"). Written at the start of session 34, before any run of its tasks, as the honest check
of that session's rules. Run `python3 eval/paraphrases20.py` to write
`eval/paraphrase_tasks20.json`."""

import paraphrase_set

PAGE = "fixtures/flights.html"
NAME = "name|airline|airlines|carrier|title|operator"
FLIGHT = "flight number|flight numbers|flight|flight no|flight_number|number|code|text"


def records(*names):
    return paraphrase_set.records(NAME, *names)


def columns(*names):
    return paraphrase_set.columns(NAME, *names)


TAP, EASYJET, IBERIA, BA = "TAP Air Portugal", "easyJet", "Iberia", "British Airways"
RYANAIR, VUELING, LUFTHANSA, AIR_FRANCE = "Ryanair", "Vueling", "Lufthansa", "Air France"

TASKS = [
    (
        "non-stop",
        records(TAP, EASYJET, BA, RYANAIR, EASYJET, TAP),
        [
            "non-stop flights",
            "direct flights only",
            "which flights have no stops?",
            "show me the flights without a layover",
            "only the nonstop options please",
            "flights that fly direct",
            "I don't want to change planes - which flights?",
            "vols directs",
        ],
    ),
    (
        "cheapest",
        records(RYANAIR),
        [
            "the cheapest flight",
            "which flight has the lowest fare?",
            "cheapest option",
            "what's the least expensive flight?",
            "flight with the lowest price",
            "give me the cheapest ticket",
            "the most affordable flight",
            "el vuelo más barato",
        ],
    ),
    (
        "longest",
        records(LUFTHANSA),
        [
            "the longest flight",
            "which flight takes the longest?",
            "flight with the longest duration",
            "which journey is the slowest?",
            "the one with the most travel time",
            "longest total travel time",
            "what's the longest trip on this page",
            "der längste Flug",
        ],
    ),
    (
        "easyjet",
        records(EASYJET, EASYJET),
        [
            "easyJet flights",
            "only easyJet",
            "which flights are with easyJet?",
            "show the flights operated by easyJet",
            "flights on easyJet",
            "what does easyJet have?",
            "list easyJet options",
            "vuelos de easyJet",
        ],
    ),
    (
        "named-fields",
        columns(
            "departure|departure time|departs|depart|departure_time|leaves|dep|take-off|takeoff",
            "arrival|arrival time|arrives|arrive|arrival_time|lands|arr|landing",
            "price|fare|cost|prix|preis|precio",
        ),
        [
            "airline, departure time, arrival time and price of every flight",
            "for each flight: carrier, departs, arrives, fare",
            "airline | departure | arrival | price",
            "list all flights with when they leave, when they land and how much they cost",
            "I need the airline, take-off and landing times and the price",
            "extract airline, departure, arrival, cost",
            "each flight's airline with its departure and arrival times and fare",
            "compagnie, départ, arrivée et prix de chaque vol",
        ],
    ),
    (
        "before-10am",
        records(TAP, EASYJET, IBERIA, BA),
        [
            "flights leaving before 10am",
            "which flights depart before 10:00?",
            "morning flights that go before 10",
            "departures earlier than 10 am",
            "anything that takes off before ten in the morning",
            "flights before 10:00",
            "early flights (before 10am)",
            "Flüge vor 10 Uhr",
        ],
    ),
    (
        "fastest",
        records(TAP),
        [
            "the fastest flight",
            "shortest flight",
            "which flight takes the least time?",
            "quickest option",
            "the flight with the shortest duration",
            "which one gets there fastest?",
            "shortest travel time",
            "le vol le plus court",
        ],
    ),
    (
        "bag-included",
        records(TAP, IBERIA, BA, LUFTHANSA, TAP, AIR_FRANCE),
        [
            "flights with a cabin bag included",
            "which fares include a cabin bag?",
            "flights where hand luggage is included",
            "only flights with the bag included in the price",
            "show fares that come with a cabin bag",
            "flights with free cabin baggage",
            "which ones don't charge extra for a cabin bag?",
            "Flüge mit inklusive Handgepäck",
        ],
    ),
    (
        "two-cheapest-direct",
        records(RYANAIR, EASYJET),
        [
            "the 2 cheapest direct flights",
            "two cheapest non-stop flights",
            "cheapest two nonstop options",
            "which two direct flights cost the least?",
            "the two lowest fares without stops",
            "top 2 cheapest flights with no layover",
            "2 cheapest non-stop flights, cheapest first",
            "los dos vuelos directos más baratos",
        ],
    ),
    (
        "under-100",
        records(EASYJET, IBERIA, RYANAIR, VUELING, EASYJET),
        [
            "flights under £100",
            "fares below 100 pounds",
            "which flights cost less than £100?",
            "anything cheaper than £100",
            "flights for under a hundred quid",
            "show flights priced under 100",
            "flights up to £99",
            "Flüge unter 100 £",
        ],
    ),
    (
        "with-a-stop",
        records(IBERIA, VUELING, LUFTHANSA, AIR_FRANCE),
        [
            "flights with one stop",
            "which flights have a layover?",
            "connecting flights",
            "flights that stop on the way",
            "show the 1-stop options",
            "flights with a connection",
            "which ones aren't direct?",
            "vols avec une escale",
        ],
    ),
    (
        "number-duration-stops",
        paraphrase_set.columns(
            FLIGHT,
            "duration|flight time|length|time|travel time|journey time|durée|dauer",
            "stops|number of stops|stop|stopovers|layovers|escales",
            min_items=10,
        ),
        [
            "flight number, duration and stops of each flight",
            "for every flight: number, flight time, number of stops",
            "flight no. | duration | stops",
            "list the flight numbers with how long each takes and how many stops",
            "extract flight number, length, stopovers",
            "each flight's code, its duration and its stops",
            "I want flight numbers, travel time and layovers",
            "numéro de vol, durée et escales de chaque vol",
        ],
    ),
]


def main():
    paraphrase_set.write(20, PAGE, TASKS)


if __name__ == "__main__":
    main()
