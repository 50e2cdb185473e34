"""The twenty-seventh paraphrase set (issue #30): a coworking space's meeting rooms as a table,
written before any run on it.

An eighth kind of page: twelve meeting rooms in one table (a row header with the room's name
and link, then Floor, Seats, Equipment, Price, Today, and a Book button), between a filter form
and a "Good to know" list. Rooms are named by a letter ("Room A"), a number ("Studio 1") or a
name ("The Loft"); floors are written as ordinals ("2nd floor", "Ground floor"); equipment is
a comma list; prices are "£25 / hour"; today's state is "Available now", "Booked until 14:00"
or "Closed for maintenance". Its tuning half asks a floor by number and a room by the letter
"A" (the class held24's studio-a fails in, known there by id only); its held half asks the
ground floor and a room by another letter. Written in session 41, before any run of its
tasks. Run `python3 eval/paraphrases27.py` to write `eval/paraphrase_tasks27.json`."""

import paraphrase_set

PAGE = "fixtures/meeting-rooms.html"
NAME = "room|name|title|room name|room_name|raum|salle|sala"
FLOOR = "floor|level|storey|etage|stock|stockwerk|étage|niveau|planta|piso"
SEATS = "seats|capacity|people|size|places|plätze|kapazität|capacité|capacidad|asientos"
PRICE = "price|rate|hourly rate|hourly_rate|price per hour|price_per_hour|cost|per hour|preis|prix|tarif|precio"
EQUIPMENT = "equipment|facilities|features|amenities|kit|ausstattung|équipement|equipamiento"


def records(*names):
    return paraphrase_set.records(NAME, *names)


TASKS = [
    (
        "floor-2",
        records("The Loft", "Studio 1", "Studio 2"),
        [
            "Which rooms are on the 2nd floor?",
            "meeting rooms on floor 2",
            "show me everything on the second floor",
            "list the rooms up on level 2",
            "I need a room on the second floor — what are my options?",
            "Welche Räume sind im zweiten Stock?",
            "salles au 2e étage",
            "rooms, floor = 2nd",
        ],
    ),
    (
        "ground-floor",
        records("Room A", "Room B", "Quiet Pod", "Garden Room"),
        [
            "Which rooms are on the ground floor?",
            "ground floor rooms",
            "show me the rooms downstairs on the ground level",
            "I can't do stairs — which rooms are on the ground floor?",
            "meeting rooms, floor: Ground",
            "Welche Räume sind im Erdgeschoss?",
            "salles au rez-de-chaussée",
            "list every room at street level (ground floor)",
        ],
    ),
    (
        "room-a",
        records("Room A"),
        [
            "Show me Room A",
            "what does room A have?",
            "details for Room A please",
            "tell me about room a",
            "I want to book Room A, what's it like?",
            "Infos zu Raum A",
            "la salle A",
            "Room A — seats, price and equipment",
        ],
    ),
    (
        "room-e",
        records("Room E"),
        [
            "Show me Room E",
            "what's room E like?",
            "info on Room E",
            "Room E details",
            "tell me everything about room e",
            "Raum E bitte",
            "je veux voir la salle E",
            "Can you pull up Room E for me?",
        ],
    ),
    (
        "seats-8",
        records("Room C", "Room D", "The Loft", "Boardroom", "Room F", "Garden Room"),
        [
            "Rooms that seat at least 8 people",
            "which rooms fit 8 or more?",
            "I have a team of eight, which rooms are big enough?",
            "meeting rooms for 8+ people",
            "rooms with 8 seats or more",
            "Räume für mindestens 8 Personen",
            "salles pour 8 personnes ou plus",
            "capacity of 8 or more",
        ],
    ),
    (
        "under-30",
        records("Room A", "Studio 1", "Studio 2", "Quiet Pod"),
        [
            "rooms under £30 an hour",
            "Which rooms cost less than 30 pounds per hour?",
            "cheap rooms below £30/hour",
            "my budget is under £30 per hour, which rooms work?",
            "meeting rooms for less than £30",
            "Räume unter 30 £ pro Stunde",
            "salles à moins de 30 £ de l'heure",
            "price < £30",
        ],
    ),
    (
        "projector",
        records("Room D", "The Loft", "Boardroom", "Room E", "Room F", "Garden Room"),
        [
            "Which rooms have a projector?",
            "rooms with projector",
            "I need a projector, which rooms have one?",
            "list meeting rooms that come with a projector",
            "show only rooms equipped with a projector",
            "Räume mit Beamer",
            "salles avec projecteur",
            "any room with a projector?",
        ],
    ),
    (
        "video",
        records("Room B", "Room D", "Boardroom", "Garden Room"),
        [
            "Which rooms have video conferencing?",
            "rooms with video conferencing",
            "I need to run a video call — which rooms are set up for it?",
            "list rooms equipped for video conferences",
            "video conferencing rooms only",
            "Räume mit Videokonferenz",
            "salles avec visioconférence",
            "rooms that support video conferencing",
        ],
    ),
    (
        "free-now",
        records("Room A", "Room C", "Room D", "Studio 1", "Boardroom", "Room F", "Quiet Pod"),
        [
            "Which rooms are available right now?",
            "rooms free now",
            "what can I book at the moment?",
            "list the rooms that are open to book now",
            "I need a room now, which ones are free?",
            "Welche Räume sind gerade frei?",
            "salles disponibles maintenant",
            "available rooms",
        ],
    ),
    (
        "unavailable",
        records("Room B", "The Loft", "Studio 2", "Room E", "Garden Room"),
        [
            "Which rooms are not available right now?",
            "rooms I can't book at the moment",
            "show me the unavailable rooms",
            "which rooms are taken or closed right now?",
            "list rooms that aren't free now",
            "Welche Räume sind gerade nicht frei?",
            "salles indisponibles",
            "what's not available today",
        ],
    ),
    (
        "cheapest-3",
        records("Quiet Pod", "Studio 1", "Studio 2"),
        [
            "the 3 cheapest rooms",
            "What are the three cheapest meeting rooms per hour?",
            "cheapest three rooms, lowest price first",
            "show me the 3 least expensive rooms",
            "I'm on a budget: the three cheapest rooms please",
            "die drei günstigsten Räume",
            "les 3 salles les moins chères",
            "top 3 rooms by lowest hourly rate",
        ],
    ),
    (
        "biggest",
        records("The Loft"),
        [
            "What's the biggest room?",
            "the room with the most seats",
            "largest meeting room",
            "which room holds the most people?",
            "I need the biggest room you have",
            "der größte Raum",
            "la plus grande salle",
            "room with the highest capacity",
        ],
    ),
    (
        "seats-price",
        paraphrase_set.columns(NAME, SEATS, PRICE, min_items=12),
        [
            "List every room with its seats and price",
            "all rooms: name, capacity, price per hour",
            "how many people fit in each room and what does it cost?",
            "room, seats, price",
            "give me a table of the rooms with how many they seat and the hourly rate",
            "alle Räume mit Plätzen und Preis",
            "chaque salle avec sa capacité et son prix",
            "what does each room cost and how big is it",
        ],
    ),
    (
        "floor-equipment",
        paraphrase_set.columns(NAME, FLOOR, EQUIPMENT, min_items=11),
        [
            "List each room with its floor and equipment",
            "rooms — floor, equipment",
            "what floor is every room on, and what equipment does it have?",
            "for every meeting room give me the floor and the kit",
            "a table: room, level, facilities",
            "jeder Raum mit Etage und Ausstattung",
            "chaque salle avec son étage et son équipement",
            "Where is each room and what's in it?",
        ],
    ),
]

if __name__ == "__main__":
    paraphrase_set.write(27, PAGE, TASKS)
