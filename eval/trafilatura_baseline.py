"""Scores the Python trafilatura extractor on the same pages and with the same metric as
`examples/eval_content.rs` (bag of lower-cased \\w+ tokens, F1 per page, averaged per page type),
so `extract.main_content` is compared with the reference tool itself, not with a figure quoted
from elsewhere. Needs `pip install trafilatura lxml_html_clean`. Run from the repository root:
    python3 eval/trafilatura_baseline.py ../shared/corpora
Options: --precision / --recall (trafilatura's favour_* modes), --no-comments, --split=even|odd
(WCXB pages with even or odd ids, the halves `eval_content --split` scores), --per-page."""
import collections, gzip, json, pathlib, re, sys, time

import lxml.html
import trafilatura

args = [a for a in sys.argv[1:] if not a.startswith("--")]
flags = {a for a in sys.argv[1:] if a.startswith("--")}
split = next((a.split("=", 1)[1] for a in flags if a.startswith("--split=")), None)
root = pathlib.Path(args[0] if args else "../shared/corpora")
options = {
    "favor_precision": "--precision" in flags,
    "favor_recall": "--recall" in flags,
    "include_comments": "--no-comments" not in flags,
}
WORD = re.compile(r"\w+")


def tokens(text):
    return collections.Counter(WORD.findall(text.lower()))


def f1(predicted, truth):
    p, t = tokens(predicted), tokens(truth)
    np_, nt = sum(p.values()), sum(t.values())
    if np_ == 0 and nt == 0:
        return 1.0
    if np_ == 0 or nt == 0:
        return 0.0
    common = sum(min(c, t[w]) for w, c in p.items())
    if common == 0:
        return 0.0
    precision, recall = common / np_, common / nt
    return 2 * precision * recall / (precision + recall)


def extract(html, url):
    return trafilatura.extract(html, url=url, **options) or ""


scores = collections.defaultdict(list)
started = time.perf_counter()
pages = 0
meta = json.load(open(root / "wcxb-dev/metadata.json"))
for page_id, info in sorted(meta.items()):
    if split and (int(page_id) % 2 == 0) != (split == "even"):
        continue
    html = gzip.open(root / f"wcxb-dev/html/{page_id}.html.gz").read().decode("utf-8", "replace")
    truth = json.load(open(root / f"wcxb-dev/ground-truth/{page_id}.json"))["ground_truth"]
    score = f1(extract(html, f"https://{info['domain']}/"), truth["main_content"])
    scores[info["page_type"]].append(score)
    if "--per-page" in flags:
        print(f"{page_id} {info['page_type']:<13} {score:.3f}")
    pages += 1
wcxb = [s for kind in scores for s in scores[kind]]
for page in sorted((root / "readability/test-pages").iterdir()):
    source, expected = page / "source.html", page / "expected.html"
    if not (source.exists() and expected.exists()):
        continue
    truth = lxml.html.fromstring(expected.read_bytes()).text_content()
    html = source.read_bytes()
    scores["readability"].append(f1(extract(html, "http://fakehost/test/page.html"), truth))
    pages += 1
elapsed = time.perf_counter() - started

mode = ", ".join(k for k, v in options.items() if v) or "defaults"
print(f"trafilatura {trafilatura.__version__} ({mode})")
for kind in ("article", "service", "product", "collection", "forum", "listing", "documentation"):
    if scores.get(kind):
        print(f"  {kind:<13} {sum(scores[kind]) / len(scores[kind]):.3f}  ({len(scores[kind])} pages)")
print(f"  {'WCXB all':<13} {sum(wcxb) / len(wcxb):.3f}")
read = scores["readability"]
print(f"  {'Readability':<13} {sum(read) / len(read):.3f}  ({len(read)} pages)")
print(f"  {pages / elapsed:.1f} pages/s, {1000 * elapsed / pages:.1f} ms/page")
