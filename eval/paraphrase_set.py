"""What the paraphrase sets from the fourteenth on share: their tasks alternate between a
tuning half and a held-out half in the order written, and are written as the JSON
`eval_planner` reads."""

import json


def records(key, *names):
    """A `records` check: exactly these items, in this order, named under `key` (a key may
    list alternatives, `a|b`)."""
    return {"kind": "records", "key": key, "expected": list(names)}


def columns(key, *names, min_items=10):
    """A `columns` check: at least `min_items` items, each with the `key` column and every
    one of `names` filled."""
    return {"kind": "columns", "min_items": min_items, "columns": [key, *names]}


def write(number, page, tasks):
    """Writes `eval/paraphrase_tasks{number}.json` from `tasks`, a list of (slug, check,
    wordings): even-indexed tasks are `tune{number}`, odd-indexed `held{number}`."""
    out = []
    for index, (slug, check, wordings) in enumerate(tasks):
        half = f"tune{number}" if index % 2 == 0 else f"held{number}"
        for n, wording in enumerate(wordings):
            out.append(
                {
                    "id": f"para-{half}-{slug}-{n}",
                    "intent": half,
                    "page": page,
                    "instructions": wording,
                    "check": check,
                }
            )
    with open(f"eval/paraphrase_tasks{number}.json", "w") as file:
        json.dump(out, file, indent=1, ensure_ascii=False)
        file.write("\n")
