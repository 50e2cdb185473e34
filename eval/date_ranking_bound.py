#!/usr/bin/env python3
"""How well the best *fixed* ranking of a page's date sources scores on WCXB dev, per split.

A page offers its publication date in several places: `<meta>` tags, JSON-LD, the first
`<time datetime>`, the URL, the date printed under the headline, an "Updated …" line, a
"Published on …" label. A reader that always takes the first source present in one fixed
order is the simplest reader there is; the order that scores best on a split, chosen with
hindsight on that very split, says how far ranking sources can go there before each page's
own conventions decide. It reads only raw HTML and the labels, never our answers.

    pip install lxml python-dateutil
    python3 eval/date_ranking_bound.py        # tuning (even + odd1) and unseen (odd3)

The sources are read with simple patterns, not with our reader's rules, so "reachable"
(the label is among the sources' days) is lower than `eval/date_labels.py`'s count of labels
written anywhere in the page.
"""

import gzip
import json
import os
import re

from dateutil import parser as dateparser
from lxml import html as lxml_html

CORPUS = "../shared/corpora/wcxb-dev"
MONTHS = "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"
PRINTED = (
    r"(\d{4}-\d\d-\d\d|(?:" + MONTHS + r")[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}"
    r"|\d{1,2}(?:st|nd|rd|th)? (?:" + MONTHS + r")[a-z]*\.?,? \d{4})"
)
DATE = re.compile(r"\b" + PRINTED, re.I)
LABELLED = re.compile(r"(?:published|posted)(?: on)?:? " + PRINTED, re.I)
SPLITS = {
    "tuning (even + odd1)": lambda n: n % 2 == 0 or n % 4 == 1,
    "unseen (odd3)": lambda n: n % 4 == 3,
}


def day(text):
    """The ISO day a date string names, or None."""
    if not text:
        return None
    iso = re.match(r"(\d{4}-\d\d-\d\d)", text.strip())
    if iso:
        return iso.group(1)
    try:
        return dateparser.parse(text, fuzzy=False).date().isoformat()
    except (ValueError, OverflowError):
        return None


def meta(doc, keys):
    for key in keys:
        for el in doc.xpath(f'//meta[@property="{key}" or @name="{key}" or @itemprop="{key}"]'):
            found = day(el.get("content") or "")
            if found:
                return found
    return None


def json_ld(raw, key):
    found = re.search(r'"' + key + r'"\s*:\s*"(\d{4}-\d\d-\d\d)', raw)
    return found.group(1) if found else None


def sources(page, url):
    """Each source's day on one page (None where the page has none)."""
    raw = gzip.open(f"{CORPUS}/html/{page}.html.gz").read().decode("utf8", "replace")
    try:
        doc = lxml_html.fromstring(raw)
    except ValueError:
        return {}
    found = {
        "meta published": meta(doc, ["article:published_time", "og:article:published_time",
                                     "published_time", "datePublished", "date", "pubdate",
                                     "publishdate", "dc.date"]),
        "JSON-LD published": json_ld(raw, "datePublished"),
        "meta modified": meta(doc, ["article:modified_time", "og:updated_time", "dateModified"]),
        "JSON-LD modified": json_ld(raw, "dateModified"),
    }
    times = [d for d in map(day, doc.xpath("//body//time/@datetime")) if d]
    found["first <time>"] = times[0] if times else None
    in_url = re.search(r"/((?:19|20)\d\d)[/-](\d\d)[/-](\d\d)[/-]", url)
    found["URL"] = "-".join(in_url.groups()) if in_url else None
    for junk in doc.xpath("//script|//style|//noscript"):
        junk.drop_tree()
    text = re.sub(r"\s+", " ", doc.text_content())
    after = ""
    h1 = doc.xpath("//h1")
    if h1:
        headline = re.sub(r"\s+", " ", h1[0].text_content()).strip()
        at = text.find(headline) if headline else -1
        if at >= 0:
            after = text[at + len(headline): at + len(headline) + 400]
    printed = updated = None
    for m in DATE.finditer(after):
        if re.search("updat|modif|review", after[max(0, m.start() - 25): m.start()].lower()):
            updated = updated or day(m.group(1))
        else:
            printed = printed or day(m.group(1))
    found["printed under the headline"] = printed
    found["printed 'Updated'"] = updated
    labelled = LABELLED.search(text)
    found["'Published on' label"] = day(labelled.group(1)) if labelled else None
    first = DATE.search(text)
    found["first visible date"] = day(first.group(1)) if first else None
    return found


def score(order, pages):
    right = 0
    for label, found in pages:
        answer = next((found[s] for s in order if found.get(s)), None)
        right += answer == label
    return right / len(pages)


def best_order(names, pages):
    """The order that scores best, exactly: over the sets of sources placed first, a page is
    decided by the first source it has, so the best score of a set does not depend on how
    the set was ordered (dynamic programming over the 2^n sets)."""
    n = len(names)
    has = [sum(1 << i for i, s in enumerate(names) if found.get(s)) for _, found in pages]
    right = [sum(1 << i for i, s in enumerate(names) if found.get(s) == label)
             for label, found in pages]
    best = {0: (0, [])}
    for placed in range(1 << n):
        if placed not in best:
            continue
        got, order = best[placed]
        for i in range(n):
            if placed >> i & 1:
                continue
            gain = sum(1 for h, r in zip(has, right) if not h & placed and r >> i & 1)
            key = placed | 1 << i
            if key not in best or best[key][0] < got + gain:
                best[key] = (got + gain, order + [names[i]])
    return best[(1 << n) - 1][1]


def main():
    pages = {}
    for name in sorted(os.listdir(f"{CORPUS}/html")):
        page = name[:4]
        truth = json.load(open(f"{CORPUS}/ground-truth/{page}.json"))
        label = (truth["ground_truth"].get("publish_date") or "")[:10]
        if label:
            pages[page] = (label, sources(page, truth["url"]))
    names = sorted({s for _, found in pages.values() for s in found})
    orders = {}
    for split, member in SPLITS.items():
        chosen = [pages[p] for p in pages if member(int(p))]
        reachable = sum(label in found.values() for label, found in chosen) / len(chosen)
        orders[split] = best_order(names, chosen)
        print(f"{split}: {len(chosen)} dated pages; label among the sources {reachable:.3f}; "
              f"best fixed order chosen on these pages {score(orders[split], chosen):.3f}")
        print(f"  order: {', '.join(orders[split])}")
    tuning, unseen = SPLITS
    chosen = [pages[p] for p in pages if SPLITS[unseen](int(p))]
    print(f"the tuning order on {unseen}: {score(orders[tuning], chosen):.3f}")


if __name__ == "__main__":
    main()
