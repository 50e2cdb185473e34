#!/usr/bin/env python3
"""Fits the score that picks a page's main list, with cross-validation (issue #32).

    cargo run --release --example eval_records -- ../shared/corpora/next-eval-dev --split all \
        --features /tmp/list_features.jsonl
    python3 eval/fit_list_score.py /tmp/list_features.jsonl

Each line is one candidate list of one NEXT-EVAL page: its features (what the records engine's
hand-set score is made of), that score, and the F1 of the candidate's records against the
page's true records. The model is a conditional logit: on each page, the candidates compete
in a softmax of w . x, and the candidate with the best F1 is the one to pick. It is fitted
on the tuning folds (ids 0 mod 4 and 2 mod 8) with 5-fold cross-validation by page, and
compared with the hand-set score's pick on the same candidates (the engine's later steps,
finer records inside rows and lists of sections, are left out of both). The never-tuned fold
(ids 6 mod 8) is scored once, by the model fitted on every tuning page, with --held6.

Only numpy is needed (pip install numpy).
"""

import json
import math
import sys
from collections import defaultdict

import numpy as np

FEATURES = [
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


def vector(f, hand):
    return [
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


def load(path):
    pages = defaultdict(lambda: {"x": [], "f1": [], "hand": []})
    with open(path) as lines:
        for line in lines:
            row = json.loads(line)
            page = pages[row["page"]]
            page["x"].append(vector(row["features"], row["hand"]))
            page["f1"].append(row["f1"])
            page["hand"].append(row["hand"])
    return {
        pid: {k: np.array(v, dtype=float) for k, v in page.items()} for pid, page in pages.items()
    }


def fit(pages, mean, std, l2=float(__import__("os").environ.get("L2", "0.001")), steps=int(__import__("os").environ.get("STEPS", "3000")), rate=0.3):
    """Conditional logit by gradient descent; pages whose best candidate is poor teach nothing."""
    w = np.zeros(len(FEATURES))
    usable = [p for p in pages if p["f1"].max() >= 0.5]
    for _ in range(steps):
        grad = l2 * w
        for p in usable:
            x = (p["x"] - mean) / std
            z = x @ w
            z -= z.max()
            prob = np.exp(z) / np.exp(z).sum()
            best = p["f1"] >= p["f1"].max() - 1e-9
            target = best / best.sum()
            grad += x.T @ (prob - target) / len(usable)
        w -= rate * grad
    return w


def picked_f1(p, w, mean, std):
    return p["f1"][int(np.argmax(((p["x"] - mean) / std) @ w))]


def main():
    path = sys.argv[1]
    pages = load(path)
    tuning = sorted(pid for pid in pages if pid % 4 == 0 or pid % 8 == 2)
    held6 = sorted(pid for pid in pages if pid % 8 == 6)
    folds = 5
    fitted, hand, oracle = [], [], []
    for k in range(folds):
        test = [pid for i, pid in enumerate(tuning) if i % folds == k]
        train = [pid for i, pid in enumerate(tuning) if i % folds != k]
        stacked = np.vstack([pages[pid]["x"] for pid in train])
        mean, std = stacked.mean(0), stacked.std(0) + 1e-9
        w = fit([pages[pid] for pid in train], mean, std)
        for pid in test:
            p = pages[pid]
            fitted.append(picked_f1(p, w, mean, std))
            hand.append(p["f1"][int(np.argmax(p["hand"]))])
            oracle.append(p["f1"].max())
    print(f"tuning folds, {folds}-fold CV by page ({len(tuning)} pages): pick F1")
    print(f"  hand-set score {np.mean(hand):.3f}   fitted {np.mean(fitted):.3f}   best candidate {np.mean(oracle):.3f}")
    wins = sum(f > h + 1e-9 for f, h in zip(fitted, hand))
    losses = sum(f < h - 1e-9 for f, h in zip(fitted, hand))
    print(f"  pages fitted better {wins}, worse {losses}")
    stacked = np.vstack([pages[pid]["x"] for pid in tuning])
    mean, std = stacked.mean(0), stacked.std(0) + 1e-9
    w = fit([pages[pid] for pid in tuning], mean, std)
    print("weights (on standardised features), fitted on every tuning page:")
    for name, weight, m, s in zip(FEATURES, w, mean, std):
        print(f"  {name:28} {weight:+.3f}   (mean {m:.3f}, sd {s:.3f})")
    if "--held6" in sys.argv:
        fitted6 = [picked_f1(pages[pid], w, mean, std) for pid in held6]
        hand6 = [pages[pid]["f1"][int(np.argmax(pages[pid]["hand"]))] for pid in held6]
        best6 = [pages[pid]["f1"].max() for pid in held6]
        print(f"held6 ({len(held6)} pages, never tuned on): hand-set {np.mean(hand6):.3f}   fitted {np.mean(fitted6):.3f}   best candidate {np.mean(best6):.3f}")


if __name__ == "__main__":
    main()
