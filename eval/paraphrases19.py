"""The nineteenth paraphrase set (issue #30): a board-game shop, written before any run on it.

A new kind of page: ten games whose specs are marked only by an icon and a `title` attribute
("👥 2–4", "10+", "⏱ 45 min"), ranges of players, a "by …" designer line, stars with a count
of ratings, a price and a stock state. Written at the end of session 33 as the honest check of
that session's rules: its first run is measured before any change.
Run `python3 eval/paraphrases19.py` to write `eval/paraphrase_tasks19.json`."""

import paraphrase_set

PAGE = "fixtures/games.html"
NAME = "title|name|headline|heading|game|game name|board game"


def records(*names):
    return paraphrase_set.records(NAME, *names)


def columns(*names):
    return paraphrase_set.columns(NAME, *names)


TASKS = [
    (
        "two-players",
        records(
            "Harbour Lights",
            "Tiny Kingdoms",
            "Meadow Party",
            "Starfall Duel",
            "Codex of Ash",
            "Fox & Hen",
            "Lantern Market",
            "Deep Sea Salvage",
        ),
        [
            "games I can play with 2 players",
            "which games work for two people?",
            "board games for 2 players",
            "list the games that support two players",
            "what can my partner and I play, just the two of us?",
            "games playable by 2",
            "two-player games",
            "Spiele für 2 Spieler",
        ],
    ),
    (
        "solo",
        records("Tiny Kingdoms", "Codex of Ash", "Deep Sea Salvage"),
        [
            "games I can play solo",
            "which games can be played by one player?",
            "single-player games",
            "list games that support 1 player",
            "I play alone, what works?",
            "games with a solo mode",
            "one player games",
            "jeux jouables en solo",
        ],
    ),
    (
        "under-30-minutes",
        records("Meadow Party", "Starfall Duel", "Fox & Hen"),
        [
            "games under 30 minutes",
            "which games take less than half an hour?",
            "quick games shorter than 30 min",
            "list games with a playing time under 30 minutes",
            "I only have 30 minutes, what finishes in less than that?",
            "games that play in under 30 mins",
            "fast games (less than 30 minutes)",
            "Spiele unter 30 Minuten",
        ],
    ),
    (
        "for-an-8-year-old",
        records("Tiny Kingdoms", "Meadow Party", "Fox & Hen"),
        [
            "games suitable for an 8 year old",
            "which games are ok for age 8?",
            "games for kids aged 8",
            "list games rated for 8 and under",
            "my daughter is 8, what can she play?",
            "games with a minimum age of 8 or lower",
            "family games for an eight-year-old",
            "juegos para niños de 8 años",
        ],
    ),
    (
        "by-ben-cole",
        records("Codex of Ash", "Deep Sea Salvage"),
        [
            "games by Ben Cole",
            "which games did Ben Cole design?",
            "games designed by Ben Cole",
            "list everything from designer Ben Cole",
            "Ben Cole's games",
            "show the games made by Ben Cole",
            "anything Ben Cole designed",
            "Spiele von Ben Cole",
        ],
    ),
    (
        "in-stock-under-25",
        records("Tiny Kingdoms", "Meadow Party", "Starfall Duel", "Pocket Heist"),
        [
            "games in stock under $25",
            "which games cost less than 25 dollars and are available?",
            "in-stock games below $25",
            "cheap games I can buy now, under $25",
            "available games for less than $25",
            "list games under $25 that are in stock",
            "what can I order today for under 25 bucks?",
            "juegos disponibles por menos de 25 $",
        ],
    ),
    (
        "name-players-time-price",
        columns(
            "players|number of players|player count|player|how many players|spieler",
            "playing time|time|duration|play time|length|how long|playtime|spielzeit",
            "price|cost|preis",
        ),
        [
            "name, players, playing time and price of each game",
            "list every game with the number of players, how long it takes and what it costs",
            "game | players | play time | price",
            "for each game: player count, duration, price",
            "extract name, players, time, price",
            "I need each game's players, length and price",
            "all games with their players, playtime and cost",
            "Name, Spieler, Spielzeit und Preis jedes Spiels",
        ],
    ),
    (
        "name-age-designer-rating",
        columns(
            "age|ages|minimum age|age range|recommended age|âge",
            "designer|author|by|designed by|creator|auteur",
            "rating|stars|score|note",
        ),
        [
            "name, age, designer and rating of every game",
            "list each game with its recommended age, who designed it and its stars",
            "game | age | designer | rating",
            "for all games give the minimum age, the designer and the score",
            "extract name, ages, designer, rating",
            "every game's age range, creator and rating",
            "I want the designer, age and rating for each game",
            "nom, âge, auteur et note de chaque jeu",
        ],
    ),
    (
        "most-ratings",
        records("Codex of Ash"),
        [
            "which game has the most ratings?",
            "the most rated game",
            "game with the highest number of ratings",
            "most reviewed game",
            "which one have the most people rated?",
            "the game with the largest rating count",
            "most popular game by number of ratings",
            "el juego con más valoraciones",
        ],
    ),
    (
        "longest",
        records("Ironclad Rails"),
        [
            "the longest game",
            "which game takes the most time to play?",
            "game with the longest playing time",
            "longest play time",
            "what's the game that lasts longest?",
            "the most time-consuming game",
            "which game has the biggest duration?",
            "das längste Spiel",
        ],
    ),
    (
        "three-best-rated",
        records("Codex of Ash", "Ironclad Rails", "Deep Sea Salvage"),
        [
            "the 3 best rated games",
            "top three games by rating",
            "which three games have the highest stars?",
            "3 highest-rated games, best first",
            "show the three top rated games",
            "best three games",
            "give me the top 3 by stars",
            "les trois jeux les mieux notés",
        ],
    ),
    (
        "six-or-more-players",
        records("Meadow Party", "Pocket Heist"),
        [
            "games for 6 or more players",
            "which games support at least six players?",
            "party games for a group of 6+",
            "games that can take 6 players",
            "we're six people, which games can we all play?",
            "list games playable with six or more",
            "games for big groups (6 players or more)",
            "Spiele für mindestens 6 Spieler",
        ],
    ),
]


def main():
    paraphrase_set.write(19, PAGE, TASKS)


if __name__ == "__main__":
    main()
