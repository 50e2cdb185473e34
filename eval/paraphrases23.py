"""The twenty-third paraphrase set (issue #30): a coach operator's timetable, written before any run on it.

A fourth kind of page: ten coach departures of one day in a table whose headers are not the
words people ask in ("Dep.", "Arr.", "Coach no.", "Journey" for the length of the trip,
"Changes" for its stops, "Bags", "Free seats", "Fare"); cells "2 h 25 min", "Direct" / "1 stop",
"1 bag included" / "Bag +€5", "14 seats" / "Sold out", "€12". It asks set 20's held shapes (a
number, a length and stops; a bag included; the cheapest; times of day) and set 21's (places
left) on another page and markup, so the held halves there are checked by rules made here on
tuning wordings only. Written at the start of session 37, before any run of its tasks. Run
`python3 eval/paraphrases23.py` to write `eval/paraphrase_tasks23.json`."""

import paraphrase_set

PAGE = "fixtures/coaches.html"
NUMBER = "coach_no|coach no|coach no.|coach number|coach|number|service|service number|bus|bus number|no|title|name"
DEP = "dep|departs|departure|departure time|departs at|leaves|leaving at|time|abfahrt|départ|heure de départ|salida"
ARR = "arr|arrives|arrival|arrival time|arrives at|gets in|ankunft|arrivée|heure d'arrivée|llegada"
FARE = "fare|fares|price|prices|cost|how much|preis|prix|precio|tarif"
LENGTH = "journey|duration|journey time|travel time|how long|length|trip length|time|dauer|durée|duración"
STOPS = "changes|stops|number of stops|number of changes|stop count|how many stops|how many changes|arrêts|nombre d'arrêts|umstiege|paradas"


def records(*names):
    return paraphrase_set.records(NUMBER, *names)


TASKS = [
    (
        "number-length-stops",
        paraphrase_set.columns(NUMBER, LENGTH, STOPS),
        [
            "List every coach with its number, journey time and number of stops",
            "coach no., duration, stops",
            "For each departure give me the service number, how long it takes and how many changes",
            "How long does each coach take and how many stops does it make? Include the coach number.",
            "I need a table: coach | duration | stops",
            "Extract the bus number, travel time and stop count for all departures",
            "Numéro du car, durée et nombre d'arrêts pour chaque départ",
            "what's the coach number, trip length and number of changes for each one",
        ],
    ),
    (
        "cheapest-three",
        records("LX 103", "LX 115", "LX 107"),
        [
            "the three cheapest coaches",
            "Show me the 3 lowest fares",
            "Which three departures cost the least?",
            "cheapest 3 buses, cheapest first",
            "Top three cheapest tickets to Karlsby",
            "I'm on a budget - give me the three cheapest options",
            "Die drei günstigsten Busse",
            "List the 3 least expensive departures sorted by fare",
        ],
    ),
    (
        "bag-included",
        records("LX 101", "LX 105", "LX 111", "LX 113", "LX 117"),
        [
            "Which coaches include a bag?",
            "departures with luggage included",
            "Show coaches where a bag is included in the fare",
            "I have a suitcase - which buses don't charge extra for a bag?",
            "List the services with 1 bag included",
            "coaches with free luggage",
            "Welche Busse haben Gepäck inklusive?",
            "only the ones with a bag included please",
        ],
    ),
    (
        "direct",
        records("LX 101", "LX 105", "LX 109", "LX 113", "LX 119"),
        [
            "Which coaches are direct?",
            "show me the non-stop departures",
            "List buses with no stops",
            "I don't want to change - which services go straight there?",
            "direct coaches only",
            "Find departures without any stops",
            "¿Qué autobuses son directos?",
            "which ones have zero changes",
        ],
    ),
    (
        "before-nine",
        records("LX 101", "LX 103", "LX 105"),
        [
            "Which coaches leave before 9am?",
            "departures before 09:00",
            "List the buses departing earlier than 9 in the morning",
            "I need to leave before nine, what are my options?",
            "Show early coaches, leaving before 9:00",
            "coaches that depart before 9 am",
            "Busse mit Abfahrt vor 9 Uhr",
            "anything going before 9?",
        ],
    ),
    (
        "four-seats",
        records("LX 101", "LX 107", "LX 111", "LX 115", "LX 117"),
        [
            "Which coaches have at least 4 free seats?",
            "We're 4 people - which departures still have room for us?",
            "List buses with 4 or more seats left",
            "Show services with four seats or more available",
            "There are four of us, which coaches can we still book?",
            "departures with at least four seats free",
            "Cars avec au moins 4 places libres",
            "coaches with 4+ seats",
        ],
    ),
    (
        "sold-out",
        records("LX 103", "LX 109", "LX 119"),
        [
            "Which coaches are sold out?",
            "List the fully booked departures",
            "buses with no seats left",
            "Show me the full coaches",
            "which departures can't be booked anymore?",
            "sold out services",
            "Welche Busse sind ausgebucht?",
            "any coaches already full?",
        ],
    ),
    (
        "arrive-before-noon",
        records("LX 101", "LX 103", "LX 105"),
        [
            "Which coaches arrive before noon?",
            "I need to be in Karlsby by 12:00 - which buses get there in time?",
            "departures arriving before 12pm",
            "List the coaches that arrive before midday",
            "Show buses with an arrival time earlier than 12:00",
            "which ones get in before 12?",
            "Busse mit Ankunft vor 12 Uhr",
            "coaches arriving in the morning",
        ],
    ),
    (
        "under-fifteen",
        records("LX 101", "LX 103", "LX 107", "LX 111", "LX 115", "LX 117"),
        [
            "Which coaches cost less than €15?",
            "fares under 15 euros",
            "List departures cheaper than €15",
            "Show me buses with a fare below 15",
            "anything under €15?",
            "coaches priced under 15 EUR",
            "Busse unter 15 €",
            "I can spend less than 15 euros, which tickets can I get?",
        ],
    ),
    (
        "fastest",
        records("LX 113"),
        [
            "Which coach is the fastest?",
            "the quickest departure",
            "Show the coach with the shortest journey time",
            "What's the fastest way to get to Karlsby?",
            "which bus takes the least time",
            "shortest trip",
            "Welcher Bus ist am schnellsten?",
            "Give me the quickest service",
        ],
    ),
    (
        "departure-arrival-fare",
        paraphrase_set.columns(DEP, ARR, FARE),
        [
            "List every departure with its arrival time and fare",
            "departure, arrival, price",
            "When does each coach leave and arrive, and how much is it?",
            "I want the departure time, arrival time and fare of all coaches",
            "Get me a table: departs | arrives | fare",
            "Show all coaches: leaving at, arriving at, price",
            "Heure de départ, heure d'arrivée et prix de chaque car",
            "what time does each bus leave, when does it get in, and what does it cost",
        ],
    ),
    (
        "after-six",
        records("LX 117", "LX 119"),
        [
            "Which coaches leave after 6pm?",
            "departures after 18:00",
            "List the evening buses departing later than 6 pm",
            "I can't leave before 6 in the evening - what's left?",
            "Show coaches departing after 18h",
            "buses after 6",
            "Busse nach 18 Uhr",
            "anything leaving after six pm?",
        ],
    ),
]

if __name__ == "__main__":
    paraphrase_set.write(23, PAGE, TASKS)
