#!/usr/bin/env python3
"""Fits the score that picks a page's main list, with cross-validation (issue #32).

    cargo run --release --example eval_records -- ../shared/corpora/next-eval-dev --split all \
        --features /tmp/list_features.jsonl
    cargo run --release --example eval_records -- --wcxb ../shared/corpora/wcxb-dev \
        --features /tmp/wcxb_list_features.jsonl
    python3 eval/fit_list_score.py /tmp/list_features.jsonl [--wcxb /tmp/wcxb_list_features.jsonl]
        [--place] [--held]

Each line is one candidate list of one page: its features (what the records engine's hand-set
score is made of, and with --place where the list sits: share of the page's text before it and
inside it, inside <main>, depth), that score, and a label. On NEXT-EVAL pages the label is the
F1 of the candidate's records against the page's true records; on WCXB listing and collection
pages it is the word F1 of the candidate's text against the page's labelled main content (the
main list is most of such a page's main content). The model is a conditional logit: on each
page the candidates compete in a softmax of w . x, and the candidates with the best label are
the target. Pages whose best candidate scores under 0.5 teach nothing and are left out of the
fit (they are still scored).

Folds, fixed before any figure was looked at: NEXT-EVAL tuning pages (ids 0 mod 4 and 2 mod 8)
fall in fold (their rank mod 3); WCXB pages in their site's fold (examples/common/wcxb.rs), of
which 0, 1 and 2 are tuning folds. The fit is cross-validated over those three folds (each
scored by the model fitted on the other two), and compared with the hand-set score's pick on
the same candidates (the engine's later steps, finer records inside rows and lists of
sections, are left out of both). --held scores, once, the folds never tuned on: NEXT-EVAL ids
6 mod 8 and WCXB site folds 3 and 4, by the model fitted on every tuning page.

Only numpy is needed (pip install numpy).
"""

import json
import math
import os
import sys
from collections import defaultdict

import numpy as np

BASE = [
    "log records",
    "log mean chars",
    "log capped chars",
    "log mean slots",
    "link share",
    "log mean targets",
    "all prose",
    "chrome",
    "overlay",
    "discussion",
    "menu (links only, short)",
    "link group",
    "log hand-set score",
]
# WCXB's label is a word overlap, which cannot tell a grid's rows from the cards inside them:
# candidates within TIE of its best are all targets there.
TIE = float(os.environ.get("TIE", "0.03"))
PLACE = ["text before", "text held", "in <main>", "log depth"]


def vector(row, place):
    f, hand = row["features"], row["hand"]
    x = [
        math.log1p(f["records"]),
        math.log1p(f["mean_chars"]),
        math.log1p(f["capped_chars"]),
        math.log1p(f["mean_slots"]),
        f["link_share"],
        math.log1p(f["mean_targets"]),
        float(f["all_prose"]),
        float(f["chrome"]),
        float(f["overlay"]),
        float(f["discussion"]),
        float(f["link_share"] > 0.8 and f["mean_chars"] < 40 and f["mean_slots"] <= 1.5),
        float(f["link_share"] > 0.7 and f["mean_targets"] >= 10),
        math.log1p(hand),
    ]
    if place:
        p = row["place"]
        x += [p["before"], p["held"], float(p["in_main"]), math.log1p(p["depth"])]
    return x


def load(path, place, source):
    pages = defaultdict(lambda: {"x": [], "f1": [], "hand": []})
    meta = {}
    with open(path) as lines:
        for line in lines:
            row = json.loads(line)
            key = (source, row["page"])
            page = pages[key]
            page["x"].append(vector(row, place))
            page["f1"].append(row["f1"])
            page["hand"].append(row["hand"])
            meta[key] = row.get("fold")
    out = {}
    for key, page in pages.items():
        p = {k: np.array(v, dtype=float) for k, v in page.items()}
        p["source"], p["fold"] = key[0], meta[key]
        out[key] = p
    return out


def fit(pages, mean, std, dims, l2, steps=int(os.environ.get("STEPS", "3000")), rate=0.3):
    """Conditional logit by gradient descent; pages whose best candidate is poor teach nothing."""
    w = np.zeros(dims)
    usable = [p for p in pages if p["f1"].max() >= 0.5]
    for _ in range(steps):
        grad = l2 * w
        for p in usable:
            x = (p["x"] - mean) / std
            z = x @ w
            z -= z.max()
            prob = np.exp(z) / np.exp(z).sum()
            best = p["f1"] >= p["f1"].max() - (TIE if p["source"] == "wcxb" else 1e-9)
            target = best / best.sum()
            grad += x.T @ (prob - target) / len(usable)
        w -= rate * grad
    return w


def picked(p, w, mean, std):
    return p["f1"][int(np.argmax(((p["x"] - mean) / std) @ w))]


def hand_pick(p):
    return p["f1"][int(np.argmax(p["hand"]))]


def standardise(pages):
    stacked = np.vstack([p["x"] for p in pages])
    return stacked.mean(0), stacked.std(0) + 1e-9


def report(label, rows):
    for source in ("next-eval", "wcxb"):
        part = [r for r in rows if r[0] == source]
        if not part:
            continue
        hand = np.mean([r[1] for r in part])
        fitted = np.mean([r[2] for r in part])
        best = np.mean([r[3] for r in part])
        wins = sum(r[2] > r[1] + 1e-9 for r in part)
        losses = sum(r[2] < r[1] - 1e-9 for r in part)
        print(
            f"  {label:8} {source:9} {len(part):3} pages: hand-set {hand:.3f}  fitted {fitted:.3f}"
            f"  best candidate {best:.3f}  (fitted better on {wins}, worse on {losses})"
        )


def main():
    args = sys.argv[1:]
    place = "--place" in args
    l2 = float(os.environ.get("L2", "0.001"))
    names = BASE + (PLACE if place else [])
    pages = load(args[0], place, "next-eval")
    if "--wcxb" in args:
        pages.update(load(args[args.index("--wcxb") + 1], place, "wcxb"))
    # Fixed folds (see the docstring).
    next_tuning = sorted(k for k in pages if k[0] == "next-eval" and (k[1] % 4 == 0 or k[1] % 8 == 2))
    for rank, key in enumerate(next_tuning):
        pages[key]["fold"] = rank % 3
    for key in pages:
        if key[0] == "next-eval" and key[1] % 8 == 6:
            pages[key]["fold"] = "held"
        if key[0] == "wcxb" and pages[key]["fold"] in (3, 4):
            pages[key]["fold"] = "held"
    tuning = [k for k in pages if pages[k]["fold"] in (0, 1, 2)]
    held = [k for k in pages if pages[k]["fold"] == "held"]
    rows = []
    for k in range(3):
        train = [pages[key] for key in tuning if pages[key]["fold"] != k]
        mean, std = standardise(train)
        w = fit(train, mean, std, len(names), l2)
        for key in tuning:
            p = pages[key]
            if p["fold"] == k:
                rows.append((p["source"], hand_pick(p), picked(p, w, mean, std), p["f1"].max()))
    print(f"features: {len(names)}{' (with place)' if place else ''}   L2 {l2}")
    print("tuning folds, 3-fold cross-validation (each fold scored by the fit on the other two):")
    report("CV", rows)
    alls = [r[1:] for r in rows]
    print(f"  CV       all       {len(alls):3} pages: hand-set {np.mean([a[0] for a in alls]):.3f}  fitted {np.mean([a[1] for a in alls]):.3f}")
    train = [pages[key] for key in tuning]
    mean, std = standardise(train)
    w = fit(train, mean, std, len(names), l2)
    print("weights (on standardised features), fitted on every tuning page:")
    for name, weight, m, s in zip(names, w, mean, std):
        print(f"  {name:28} {weight:+.3f}   (mean {m:.3f}, sd {s:.3f})")
    if "--held" in args:
        rows = [
            (pages[key]["source"], hand_pick(pages[key]), picked(pages[key], w, mean, std), pages[key]["f1"].max())
            for key in held
        ]
        print("held-out folds, never tuned on, scored by the fit on every tuning page:")
        report("held", rows)
    if "--table" in args:
        print(json.dumps({"features": names, "mean": mean.tolist(), "sd": std.tolist(), "weights": w.tolist()}))


if __name__ == "__main__":
    main()
