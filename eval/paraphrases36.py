"""Set 36: a comparison site's SIM only deals (`eval/pages/sim-deals.html`): ten plans in a
list, recommended order (not by price), each an `li` card with its name in a heading, the
price per month (`£8` then "/month"; two cards strike an old price through before it), a
list of features — the data ("20GB data", "Unlimited data"), "Unlimited minutes & texts" on
every card, then "5G", "EU roaming included", "Wi-Fi calling" where the plan has them, and
the contract ("12-month contract", "1-month rolling, cancel any time") — and a "See deal"
link. A sidebar of filters names the same features.

Tuning half: the cheapest, unlimited data, 5G, names and prices, at least 50GB (unlimited
counts), no contract, under £10, the three cheapest. Held half: the dearest, EU roaming,
Wi-Fi calling, names and data, under 20GB, 12-month contracts, over £20, £10 to £15. Eight
wordings a task: five English, then German, French and Spanish. Written before any run,
after set 35's tuning (session 46)."""

from paraphrase_set import columns, records, write

KEY = "name|plan|title|deal|nombre|tarif|tarifa|forfait"
PAGE = "fixtures/sim-deals.html"

TASKS = [
    (
        "cheapest",
        records(KEY, "Pebble SIM 5GB"),
        [
            "What's the cheapest SIM only deal?",
            "cheapest plan per month",
            "which deal costs the least",
            "the lowest monthly price",
            "the least expensive plan",
            "Welcher Tarif ist am günstigsten?",
            "le forfait le moins cher",
            "la tarifa más barata",
        ],
    ),
    (
        "most-expensive",
        records(KEY, "Vireo Unlimited Plus"),
        [
            "What's the most expensive plan?",
            "priciest SIM deal",
            "which deal costs the most per month",
            "highest monthly price",
            "the dearest one",
            "der teuerste Tarif",
            "le forfait le plus cher",
            "el plan más caro",
        ],
    ),
    (
        "unlimited-data",
        records(KEY, "Juno Unlimited", "Quill Max Unlimited", "Vireo Unlimited Plus"),
        [
            "Which plans have unlimited data?",
            "unlimited data deals",
            "SIMs with no data cap",
            "show me the ones with unlimited internet",
            "deals where data is unlimited",
            "Tarife mit unbegrenztem Datenvolumen",
            "forfaits avec data illimitée",
            "tarifas con datos ilimitados",
        ],
    ),
    (
        "eu-roaming",
        records(KEY, "Lumo Essentials 20GB", "Tide Mobile 15GB", "Bramble 100GB",
                "Juno Unlimited", "Quill Max Unlimited", "Vireo Unlimited Plus"),
        [
            "Which deals include EU roaming?",
            "plans with roaming in Europe",
            "can I use it in the EU at no extra cost",
            "deals with EU roaming included",
            "SIMs that work in Europe without charges",
            "Tarife mit EU-Roaming",
            "forfaits avec roaming dans l'UE inclus",
            "tarifas con roaming en la UE",
        ],
    ),
    (
        "5g",
        records(KEY, "Lumo Essentials 20GB", "Kestrel Mobile 30GB", "Orbit 60GB",
                "Bramble 100GB", "Juno Unlimited", "Quill Max Unlimited",
                "Vireo Unlimited Plus"),
        [
            "Which plans are 5G?",
            "5G deals only",
            "show the SIMs that support 5G",
            "deals with 5G",
            "which ones come with 5G",
            "Tarife mit 5G",
            "forfaits 5G",
            "tarifas con 5G",
        ],
    ),
    (
        "wifi-calling",
        records(KEY, "Pebble SIM 5GB", "Kestrel Mobile 30GB", "Orbit 60GB", "Bramble 100GB",
                "Quill Max Unlimited", "Starling Talk 50GB", "Vireo Unlimited Plus"),
        [
            "Which deals have Wi-Fi calling?",
            "plans with wifi calling",
            "can I make calls over wifi on any of these",
            "SIMs that support WiFi calling",
            "show deals that include Wi-Fi calls",
            "Tarife mit WLAN-Call",
            "forfaits avec appels Wi-Fi",
            "tarifas con llamadas por wifi",
        ],
    ),
    (
        "names-and-prices",
        columns(KEY, "price"),
        [
            "list every plan with its monthly price",
            "plan names and prices",
            "what does each deal cost a month",
            "name and price of all the SIM deals",
            "give me a table: plan, price per month",
            "alle Tarife mit Name und Preis",
            "nom et prix de chaque forfait",
            "nombre y precio de cada tarifa",
        ],
    ),
    (
        "names-and-data",
        columns(KEY, "data"),
        [
            "list every plan with how much data it has",
            "plan names and data allowances",
            "how many GB does each deal give",
            "name and data of all the SIM deals",
            "table of plans with their data",
            "alle Tarife mit Name und Datenvolumen",
            "nom et volume de data de chaque forfait",
            "nombre y datos de cada tarifa",
        ],
    ),
    (
        "at-least-50gb",
        records(KEY, "Orbit 60GB", "Bramble 100GB", "Juno Unlimited", "Quill Max Unlimited",
                "Starling Talk 50GB", "Vireo Unlimited Plus"),
        [
            "plans with at least 50GB of data",
            "deals with 50GB or more",
            "which SIMs give me 50 gigs or more",
            "minimum 50GB data",
            "show plans with no less than 50GB",
            "Tarife mit mindestens 50 GB",
            "forfaits avec au moins 50 Go",
            "tarifas con al menos 50 GB",
        ],
    ),
    (
        "under-20gb",
        records(KEY, "Pebble SIM 5GB", "Tide Mobile 15GB"),
        [
            "plans with less than 20GB of data",
            "deals under 20GB",
            "which SIMs have fewer than 20 gigs",
            "small data plans below 20GB",
            "show plans with under 20 GB data",
            "Tarife mit weniger als 20 GB",
            "forfaits de moins de 20 Go",
            "tarifas con menos de 20 GB",
        ],
    ),
    (
        "no-contract",
        records(KEY, "Pebble SIM 5GB", "Tide Mobile 15GB", "Juno Unlimited"),
        [
            "Which deals have no contract?",
            "rolling monthly plans",
            "SIMs I can cancel any time",
            "1 month contracts only",
            "plans without a long contract",
            "Tarife ohne Vertragslaufzeit",
            "forfaits sans engagement",
            "tarifas sin permanencia",
        ],
    ),
    (
        "12-month",
        records(KEY, "Lumo Essentials 20GB", "Bramble 100GB", "Starling Talk 50GB",
                "Vireo Unlimited Plus"),
        [
            "Which deals are 12-month contracts?",
            "12 month plans",
            "SIMs with a one-year contract",
            "plans where the contract is 12 months",
            "show me the 12-month deals",
            "Tarife mit 12 Monaten Laufzeit",
            "forfaits avec engagement de 12 mois",
            "tarifas con permanencia de 12 meses",
        ],
    ),
    (
        "under-10",
        records(KEY, "Pebble SIM 5GB", "Lumo Essentials 20GB", "Tide Mobile 15GB"),
        [
            "plans under £10 a month",
            "deals cheaper than £10",
            "SIMs for less than a tenner",
            "what can I get for under 10 pounds a month",
            "monthly price below £10",
            "Tarife unter 10 £ im Monat",
            "forfaits à moins de 10 £ par mois",
            "tarifas por menos de 10 £ al mes",
        ],
    ),
    (
        "over-20",
        records(KEY, "Quill Max Unlimited", "Vireo Unlimited Plus"),
        [
            "plans over £20 a month",
            "deals costing more than £20",
            "which SIMs are above twenty pounds",
            "monthly price higher than £20",
            "the expensive ones, over £20",
            "Tarife über 20 £ im Monat",
            "forfaits à plus de 20 £ par mois",
            "tarifas de más de 20 £ al mes",
        ],
    ),
    (
        "three-cheapest",
        records(KEY, "Pebble SIM 5GB", "Tide Mobile 15GB", "Lumo Essentials 20GB"),
        [
            "the 3 cheapest plans",
            "three lowest priced SIM deals",
            "top 3 cheapest deals",
            "show me the three cheapest",
            "cheapest three plans per month",
            "die 3 günstigsten Tarife",
            "les 3 forfaits les moins chers",
            "las 3 tarifas más baratas",
        ],
    ),
    (
        "between-10-and-15",
        records(KEY, "Kestrel Mobile 30GB", "Orbit 60GB", "Bramble 100GB",
                "Starling Talk 50GB"),
        [
            "plans between £10 and £15 a month",
            "deals from £10 to £15",
            "SIMs priced £10–£15",
            "monthly cost between 10 and 15 pounds",
            "anything in the £10 to £15 range",
            "Tarife zwischen 10 und 15 £",
            "forfaits entre 10 et 15 £",
            "tarifas entre 10 y 15 £",
        ],
    ),
]

if __name__ == "__main__":
    write(36, PAGE, TASKS)
