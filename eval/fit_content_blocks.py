#!/usr/bin/env python3
"""Fits the score that keeps or drops the text blocks of an article's container (issue #32).

    cargo run --release --example eval_content -- ../shared/corpora --blocks /tmp/blocks.jsonl
    python3 eval/fit_content_blocks.py /tmp/blocks.jsonl [--write src/read/content/blocks.json]
        [--ablate] [--features a,b,c] [--drop a,b] [--l2 1.0] [--held-out]

Each line of the input is one page (WCXB dev or Readability's test pages): its fold, its
labelled text, what `extract.main_content` answers today, and every leaf block of its prose
container with the features `src/read/content/blocks.rs` computes (the header line names them).

Labels come from the truth: a block is the article's when at least half of its word 3-grams
(its words, for blocks of one or two words) are in the labelled main content.

The model is a logistic regression on standardised features, each block weighted by its share
of its page's words (the figure we answer for is word F1 per page, averaged). Folds are by site
(`examples/common/wcxb.rs`: FNV-1a of the site, modulo 5); it is fitted on folds 0-2 with
cross-validation among them (fit on two, score the third), and folds 3-4 are only scored, by the
model fitted on all of 0-2. A page's answer under a model is today's answer less the words of the
blocks it drops; its word F1 against the truth is averaged per fold, beside today's.

`--ablate` refits without each feature in turn and prints the change of the unseen-fold mean;
a feature stays only if leaving it out lowers that mean. `--write` writes the table the reader
compiles in. Only numpy is needed (pip install numpy).
"""

import collections
import json
import re
import sys

import numpy as np

TUNING = [0, 1, 2]
HELD_OUT = [3, 4]
WORD = re.compile(r"\w+")
THRESHOLDS = [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6]


def tokens(text):
    return WORD.findall(text.lower())


def shingles(words, n):
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def overlap(found, truth):
    """Precision, recall, F1 of two bags (Counters), as examples/common/wcxb.rs scores."""
    nf, nt = sum(found.values()), sum(truth.values())
    if nf == 0 or nt == 0:
        same = float(nf == nt)
        return same, same, same
    common = sum(min(c, truth[w]) for w, c in found.items())
    if common == 0:
        return 0.0, 0.0, 0.0
    p, r = common / nf, common / nt
    return p, r, 2 * p * r / (p + r)


def load(path):
    pages = []
    with open(path) as lines:
        names = json.loads(next(lines))["features"]
        for line in lines:
            row = json.loads(line)
            truth_words = tokens(row["truth"])
            truth_tri = shingles(truth_words, 3)
            truth_joined = " " + " ".join(truth_words) + " "
            x, y, w, bags = [], [], [], []
            for block in row["blocks"]:
                words = tokens(block["text"])
                if not words:
                    continue
                if len(words) >= 3:
                    tri = shingles(words, 3)
                    inside = sum(t in truth_tri for t in tri) / len(tri)
                else:
                    inside = float(" " + " ".join(words) + " " in truth_joined)
                x.append(block["features"])
                y.append(inside >= 0.5)
                w.append(len(words))
                bags.append(collections.Counter(words))
            answer = collections.Counter(tokens(row["text"]))
            total = max(sum(w), 1)
            pages.append(
                {
                    "id": row["page"],
                    "kind": row["kind"],
                    "fold": row["fold"],
                    "truth": collections.Counter(truth_words),
                    "answer": answer,
                    "x": np.array(x, dtype=float).reshape(len(x), len(names)),
                    "y": np.array(y, dtype=float),
                    # Each page counts once, each block by its share of the page's words.
                    "w": np.array(w, dtype=float) / total,
                    "bags": bags,
                }
            )
    return names, pages


L2 = float(sys.argv[sys.argv.index("--l2") + 1]) if "--l2" in sys.argv else 1.0


def fit(pages, columns, l2=None, steps=25):
    """Weighted L2 logistic regression by Newton's method; returns (mean, sd, weights, bias)."""
    l2 = L2 if l2 is None else l2
    x = np.vstack([p["x"][:, columns] for p in pages if len(p["y"])])
    y = np.concatenate([p["y"] for p in pages if len(p["y"])])
    w = np.concatenate([p["w"] for p in pages if len(p["y"])])
    mean, sd = x.mean(0), x.std(0) + 1e-9
    z = np.hstack([(x - mean) / sd, np.ones((len(x), 1))])
    beta = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], l2)
    penalty[-1] = 0.0
    for _ in range(steps):
        prob = 1 / (1 + np.exp(-(z @ beta)))
        grad = z.T @ (w * (prob - y)) + penalty * beta
        hess = (z * (w * prob * (1 - prob))[:, None]).T @ z + np.diag(penalty) + 1e-9 * np.eye(len(beta))
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-7:
            break
    return mean, sd, beta[:-1], beta[-1]


def predict(page, columns, model):
    mean, sd, weights, bias = model
    if not len(page["y"]):
        return np.zeros(0)
    return 1 / (1 + np.exp(-(((page["x"][:, columns] - mean) / sd) @ weights + bias)))


def page_scores(page, prob, threshold):
    """(precision, recall, F1) of today's answer less the blocks the model drops."""
    answer = collections.Counter(page["answer"])
    for bag, p in zip(page["bags"], prob):
        if p < threshold:
            answer.subtract(bag)
    answer = +answer
    return overlap(answer, page["truth"])


def summary(pages, probs, threshold):
    rows = [page_scores(p, probs[p["id"]], threshold) for p in pages]
    base = [overlap(p["answer"], p["truth"]) for p in pages]
    articles = [i for i, p in enumerate(pages) if p["kind"] == "article"]
    mean = lambda xs: float(np.mean(xs)) if xs else float("nan")
    return {
        "pages": len(pages),
        "f1": mean([r[2] for r in rows]),
        "f1_before": mean([b[2] for b in base]),
        "article_f1": mean([rows[i][2] for i in articles]),
        "article_p": mean([rows[i][0] for i in articles]),
        "article_r": mean([rows[i][1] for i in articles]),
        "article_f1_before": mean([base[i][2] for i in articles]),
        "article_p_before": mean([base[i][0] for i in articles]),
        "article_r_before": mean([base[i][1] for i in articles]),
    }


def cross_validate(pages, columns):
    """Out-of-fold block probabilities on the tuning folds: each fold scored by the model
    fitted on the other two."""
    probs = {}
    for k in TUNING:
        train = [p for p in pages if p["fold"] in TUNING and p["fold"] != k]
        model = fit(train, columns)
        for p in pages:
            if p["fold"] == k:
                probs[p["id"]] = predict(p, columns, model)
    return probs


def cv_mean(pages, columns, threshold):
    probs = cross_validate(pages, columns)
    tuning = [p for p in pages if p["fold"] in TUNING]
    return summary(tuning, probs, threshold)["f1"], probs


def fmt(s):
    return (
        f"{s['pages']:4} pages  F1 {s['f1_before']:.4f} -> {s['f1']:.4f}   articles F1 "
        f"{s['article_f1_before']:.4f} -> {s['article_f1']:.4f} (P {s['article_p_before']:.4f} -> "
        f"{s['article_p']:.4f}, R {s['article_r_before']:.4f} -> {s['article_r']:.4f})"
    )


def main():
    args = sys.argv[1:]
    names, pages = load(args[0])
    option = lambda flag: args[args.index(flag) + 1] if flag in args else None
    chosen = option("--features")
    columns = [names.index(n) for n in chosen.split(",")] if chosen else list(range(len(names)))
    if option("--drop"):
        columns = [c for c in columns if names[c] not in option("--drop").split(",")]
    tuning = [p for p in pages if p["fold"] in TUNING]
    blocks = sum(len(p["y"]) for p in tuning)
    kept = sum(p["y"].sum() for p in tuning)
    print(f"{len(tuning)} tuning pages, {blocks} blocks scored, {kept / max(blocks, 1):.4f} of them the article's")

    # The threshold, chosen on the unseen folds of the cross-validation.
    probs = cross_validate(pages, columns)
    by_threshold = {t: summary(tuning, probs, t)["f1"] for t in THRESHOLDS}
    threshold = max(THRESHOLDS, key=lambda t: (round(by_threshold[t], 4), -abs(t - 0.5)))
    print("cross-validated mean F1 (tuning folds, each scored unseen) by threshold:")
    print("  " + "  ".join(f"{t:.2f}: {f:.4f}" for t, f in by_threshold.items()))
    print(f"threshold {threshold}")
    print("unseen folds of the cross-validation:")
    for k in TUNING:
        fold = [p for p in tuning if p["fold"] == k]
        print(f"  fold {k}: " + fmt(summary(fold, probs, threshold)))
    print("  all:    " + fmt(summary(tuning, probs, threshold)))
    kinds = sorted({p["kind"] for p in tuning})
    print("  by page type (F1 before -> after):")
    for kind in kinds:
        of_kind = [p for p in tuning if p["kind"] == kind]
        s = summary(of_kind, probs, threshold)
        print(f"    {kind:<14} {s['pages']:4} pages  {s['f1_before']:.4f} -> {s['f1']:.4f}")

    model = fit(tuning, columns)
    fitted = {p["id"]: predict(p, columns, model) for p in pages}
    print("fitted on all tuning folds, scored on the folds it was fitted on:")
    print("  tuning: " + fmt(summary(tuning, fitted, threshold)))
    if "--held-out" in args:
        held = [p for p in pages if p["fold"] in HELD_OUT]
        print("  held-out folds 3-4: " + fmt(summary(held, fitted, threshold)))
    readability = [p for p in pages if p["fold"] is None]
    s = summary(readability, fitted, threshold)
    print(f"  Readability: {s['pages']} pages  F1 {s['f1_before']:.4f} -> {s['f1']:.4f}")
    mean, sd, weights, bias = model
    print("weights (on standardised features):")
    for c, wt, m, d in zip(columns, weights, mean, sd):
        print(f"  {names[c]:20} {wt:+.3f}   (mean {m:.4f}, sd {d:.4f})")
    print(f"  {'bias':20} {bias:+.3f}")

    if "--ablate" in args:
        base = by_threshold[threshold]
        print(f"ablation: cross-validated mean F1 {base:.4f} with every feature; without each:")
        for c in columns:
            rest = [x for x in columns if x != c]
            f, _ = cv_mean(pages, rest, threshold)
            verdict = "keep" if f < base else "drop"
            print(f"  -{names[c]:20} {f:.4f} ({f - base:+.4f})  {verdict}")

    out = option("--write")
    if out:
        table = {
            "note": "Fitted by eval/fit_content_blocks.py on WCXB dev folds 0-2 (by site); see docs/evaluation.md.",
            "features": [names[c] for c in columns],
            "mean": [round(float(v), 6) for v in mean],
            "sd": [round(float(v), 6) for v in sd],
            "weights": [round(float(v), 6) for v in weights],
            "bias": round(float(bias), 6),
            "threshold": threshold,
        }
        with open(out, "w") as f:
            json.dump(table, f, indent=2)
            f.write("\n")
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
