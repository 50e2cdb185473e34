"""The twenty-eighth paraphrase set (issue #30): a football league table, written before any
run on it.

A ninth kind of page: a table of numbers, the shape issue #32 says lists on unseen pages are
passed over in. Twelve teams, one row each: position, the team's name and link, then columns
headed by abbreviations with their long names in `<abbr title>` (P, W, D, L, GF, GA, GD,
Pts), a goal difference written with a sign ("+25", "−2"), and the last five results as
letters; rows carry a state class after a shared one ("row promotion"). Around it: tabs for
other divisions, a legend and a list of news links. Its tuning half asks the top of the
table, a bound on points, the most wins, a negative goal difference, one team by name and
two columns; its held half a bound below, the most goals, the fewest defeats, a bound on
draws, another team and two other columns. Written in session 41, before any run of its
tasks. Run `python3 eval/paraphrases28.py` to write `eval/paraphrase_tasks28.json`."""

import paraphrase_set

PAGE = "fixtures/league-table.html"
TEAM = "team|club|name|title|mannschaft|équipe|equipo|verein"
POINTS = "pts|points|punkte|puntos"
GD = "gd|goal difference|goal_difference|difference|diff|tordifferenz|différence|différence de buts|diferencia"
WINS = "w|won|wins|victories|siege|victoires|victorias|gewonnen|ganados"
LOSSES = "l|lost|losses|defeats|niederlagen|défaites|derrotas|verloren|perdidos"


def records(*names):
    return paraphrase_set.records(TEAM, *names)


TASKS = [
    (
        "top-3",
        records("Riverside Rovers", "Harbour Town", "Oakfield United"),
        [
            "the top 3 teams",
            "Who are the top three in the league?",
            "first three teams in the table",
            "show me the 3 teams at the top",
            "which teams are 1st, 2nd and 3rd?",
            "die ersten drei Mannschaften",
            "les trois premières équipes du classement",
            "top 3 by points",
        ],
    ),
    (
        "under-25",
        records("St Mary's Old Boys", "Elm Lane Celtic", "Brookside Rangers", "Fernhill Town"),
        [
            "teams with fewer than 25 points",
            "which teams have less than 25 pts?",
            "clubs under 25 points",
            "show me every team below 25 points",
            "who's got under 25 points so far?",
            "Mannschaften mit weniger als 25 Punkten",
            "équipes avec moins de 25 points",
            "points < 25",
        ],
    ),
    (
        "at-least-40",
        records("Riverside Rovers", "Harbour Town", "Oakfield United", "Millbrook Athletic"),
        [
            "teams with at least 40 points",
            "which teams have 40 points or more?",
            "clubs on 40+ points",
            "show every team with 40 pts or more",
            "who has reached 40 points?",
            "Mannschaften mit mindestens 40 Punkten",
            "équipes avec au moins 40 points",
            "points of 40 or more",
        ],
    ),
    (
        "most-goals",
        records("Millbrook Athletic"),
        [
            "which team has scored the most goals?",
            "highest scoring team",
            "the team with the most goals for",
            "who has the best attack?",
            "most goals scored",
            "welche Mannschaft hat die meisten Tore geschossen?",
            "l'équipe qui a marqué le plus de buts",
            "team with the highest GF",
        ],
    ),
    (
        "most-wins",
        records("Harbour Town"),
        [
            "Which team has won the most games?",
            "the team with the most wins",
            "who has the most victories?",
            "most wins this season",
            "which club has won the most matches",
            "welche Mannschaft hat die meisten Siege?",
            "l'équipe avec le plus de victoires",
            "team with the highest W",
        ],
    ),
    (
        "fewest-defeats",
        records("Oakfield United"),
        [
            "which team has lost the fewest games?",
            "the team with the fewest losses",
            "who has lost the least?",
            "fewest defeats",
            "which club has been beaten the fewest times",
            "welche Mannschaft hat die wenigsten Niederlagen?",
            "l'équipe avec le moins de défaites",
            "team with the lowest L",
        ],
    ),
    (
        "negative-gd",
        records(
            "Kingsbury Park",
            "Ashdown Wanderers",
            "St Mary's Old Boys",
            "Elm Lane Celtic",
            "Brookside Rangers",
            "Fernhill Town",
        ),
        [
            "teams with a negative goal difference",
            "which teams have conceded more goals than they scored?",
            "clubs with a goal difference below zero",
            "show me the teams whose GD is negative",
            "who has a minus goal difference?",
            "Mannschaften mit negativer Tordifferenz",
            "équipes avec une différence de buts négative",
            "goal difference < 0",
        ],
    ),
    (
        "draws-over-5",
        records(
            "Oakfield United",
            "Castle Vale",
            "Kingsbury Park",
            "Ashdown Wanderers",
            "St Mary's Old Boys",
            "Elm Lane Celtic",
        ),
        [
            "teams that have drawn more than 5 games",
            "which teams have more than five draws?",
            "clubs with over 5 draws",
            "show me every team with 6 or more draws",
            "who draws a lot — more than 5 draws?",
            "Mannschaften mit mehr als 5 Unentschieden",
            "équipes avec plus de 5 matchs nuls",
            "D > 5",
        ],
    ),
    (
        "westgate",
        records("Westgate FC"),
        [
            "How is Westgate FC doing?",
            "show me Westgate FC",
            "westgate fc's record",
            "Westgate FC — points and position",
            "where are Westgate in the table?",
            "Wie steht Westgate FC?",
            "le bilan de Westgate FC",
            "Westgate FC stats",
        ],
    ),
    (
        "ashdown",
        records("Ashdown Wanderers"),
        [
            "Ashdown Wanderers",
            "what's Ashdown Wanderers' points total?",
            "give me the row for Ashdown Wanderers",
            "I support Ashdown Wanderers, how are we getting on?",
            "find Ashdown in the league table",
            "Ashdown Wanderers: Tabellenplatz und Punkte",
            "classement d'Ashdown Wanderers",
            "just Ashdown Wanderers please",
        ],
    ),
    (
        "points-gd",
        paraphrase_set.columns(TEAM, POINTS, GD, min_items=12),
        [
            "every team with its points and goal difference",
            "list the teams, points, GD",
            "team, pts, goal difference",
            "for each club give me points and goal difference",
            "how many points does each team have, and what's their goal difference?",
            "alle Mannschaften mit Punkten und Tordifferenz",
            "chaque équipe avec ses points et sa différence de buts",
            "the league table: team name, points, goal difference",
        ],
    ),
    (
        "wins-losses",
        paraphrase_set.columns(TEAM, WINS, LOSSES, min_items=12),
        [
            "every team with its wins and losses",
            "list the teams, W and L",
            "team, won, lost",
            "for each club give me how many games they won and lost",
            "how many wins and defeats does each team have?",
            "alle Mannschaften mit Siegen und Niederlagen",
            "chaque équipe avec ses victoires et ses défaites",
            "win/loss record of every team",
        ],
    ),
]

if __name__ == "__main__":
    paraphrase_set.write(28, PAGE, TASKS)
