#!/usr/bin/env python3
"""Counts, for one split of WCXB dev, the publication-date misses whose labelled day is written
nowhere in the page, and how labels side on pages that declare distinct published and modified
days. It reads only the pages' raw HTML and our per-page answers, so it can be run on a held-out
split without anyone reading those pages.

    cargo build --release --example eval_metadata
    python3 eval/date_labels.py odd3     # even | odd | odd1 | odd3 | all
"""

import datetime
import gzip
import json
import re
import subprocess
import sys

CORPUS = "../shared/corpora/wcxb-dev"
MONTHS = {
    "en": "january february march april may june july august september october november december",
    "de": "januar februar märz april mai juni juli august september oktober november dezember",
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
    "pt": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
    "nl": "januari februari maart april mei juni juli augustus september oktober november december",
}


def written_forms(day):
    """The ways a page may write `day`, lower-cased."""
    y, m, d = day.year, day.month, day.day
    forms = [
        f"{y}-{m:02}-{d:02}", f"{y}/{m:02}/{d:02}", f"{y}/{m}/{d}", f"{y}.{m:02}.{d:02}",
        f"{d:02}.{m:02}.{y}", f"{d}.{m}.{y}", f"{m:02}/{d:02}/{y}", f"{m}/{d}/{y}",
        f"{d:02}/{m:02}/{y}", f"{d}/{m}/{y}", f"{y}{m:02}{d:02}", f"{m:02}-{d:02}-{y}",
        f"{d:02}-{m:02}-{y}", f"{y}年{m}月{d}日", f"{m}/{d}/{y % 100:02}", f"{d}/{m}/{y % 100:02}",
        f"{d}.{m}.{y % 100:02}",
    ]
    for names in MONTHS.values():
        name = names.split()[m - 1]
        for n in (name, name[:3]):
            forms += [
                f"{n} {d}, {y}", f"{n}. {d}, {y}", f"{d} {n} {y}", f"{d}. {n} {y}",
                f"{d} de {n} de {y}", f"{n} {d} {y}", f"{d}-{n}-{y}", f"{d} {n}, {y}",
                f"{n} {d:02}, {y}", f"{d:02} {n} {y}", f"{d}. {n}. {y}", f"{d} {n}. {y}",
            ]
    return [f.lower() for f in forms]


def written_somewhere(day, html):
    if any(f in html for f in written_forms(day)):
        return True
    start = int(datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.timezone.utc).timestamp())
    stamps = [int(s[:10]) for s in re.findall(r"(?<!\d)(1[3-7]\d{8}(?:\d{3})?)(?!\d)", html)]
    return any(start - 14 * 3600 <= s < start + 38 * 3600 for s in stamps)


def main():
    split = sys.argv[1] if len(sys.argv) > 1 else "odd3"
    out = subprocess.run(
        ["./target/release/examples/eval_metadata", CORPUS, "--split", split, "--per-page"],
        capture_output=True, text=True, check=True,
    ).stdout
    rows = re.findall(r'^(\d{4})\t.*\tdate (\d) "([^"]*)" / "([^"]*)"', out, re.M)
    declared = lambda keys: re.compile(
        r'(?:' + keys + r')["\']?\s*(?:content=|:)\s*["\']?(\d{4}-\d{2}-\d{2})', re.I)
    modified = declared(r"datemodified|modified_time|updated_time|dateupdated|date_modified")
    published = declared(r"datepublished|published_time|datecreated|date_published")
    misses = nowhere = both = label_modified = label_published = 0
    for page, right, _, label in rows:
        raw = gzip.open(f"{CORPUS}/html/{page}.html.gz").read().decode("utf8", "replace")
        html = re.sub(r"\s+", " ", raw).lower()
        mods, pubs = set(modified.findall(raw)), set(published.findall(raw))
        if mods and pubs and not mods & pubs:
            both += 1
            label_modified += label[:10] in mods and label[:10] not in pubs
            label_published += label[:10] in pubs
        if right == "0":
            misses += 1
            try:
                day = datetime.date.fromisoformat(label[:10])
            except ValueError:  # a label that is no day ("2003-11") matches no answer
                nowhere += 1
                continue
            nowhere += not written_somewhere(day, html)
    print(f"{split}: {len(rows)} dated pages, {misses} misses, {nowhere} with the labelled day nowhere in the page (or no day)")
    print(f"pages declaring distinct published and modified days: {both}; "
          f"labelled with the modified day {label_modified}, with the published day {label_published}")


if __name__ == "__main__":
    main()
