"""Writes eval/planner_tasks.json: planner tasks over the shared corpora, checked against their
ground truth (not against this server's output). Run from the repository root:
    python3 eval/make_tasks.py ../shared/corpora > eval/planner_tasks.json
Hand-written tasks over eval/pages/ are kept in eval/fixture_tasks.json and appended."""
import calendar, gzip, json, sys, pathlib

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/corpora")
meta = json.load(open(root / "wcxb-dev/metadata.json"))
by_type = {}
for page_id, info in sorted(meta.items()):
    by_type.setdefault(info["page_type"], []).append(page_id)

def gt(page_id):
    return json.load(open(root / f"wcxb-dev/ground-truth/{page_id}.json"))["ground_truth"]

def page_html(page_id):
    return gzip.open(root / f"wcxb-dev/html/{page_id}.html.gz").read().decode("utf-8", "replace")

def date_on_page(iso, html):
    """Whether the page shows the date in any common spelling; a labelled date the page never
    shows cannot be read from it, so it is not asked for."""
    year, month, day = iso.split("-")[:3]
    m, d = int(month), int(day)
    spellings = [iso[:10], f"{month}/{day}/{year}", f"{m}/{d}/{year}", f"{day}/{month}/{year}",
                 f"{d}/{m}/{year}", f"{day}.{month}.{year}", f"{d}. {calendar.month_name[m]} {year}"]
    for name in (calendar.month_name[m], calendar.month_abbr[m]):
        spellings += [f"{name} {d}, {year}", f"{name}. {d}, {year}", f"{d} {name} {year}",
                      f"{name} {d}th, {year}", f"{name} {d}st, {year}", f"{name} {d}nd, {year}",
                      f"{name} {d}rd, {year}", f"{name} {d}th {year}", f"{name} {d} {year}"]
    low = " ".join(html.split()).lower()
    return any(s.lower() in low for s in spellings)

def item_like_lines(text):
    """Lines of the ground truth that read like list entries: 2 to 20 words, not a sentence."""
    lines = [l.strip() for l in text.split("\n") if l.strip()]
    return [l for l in lines if 2 <= len(l.split()) <= 20 and not l.endswith((".", ":", "?", "!"))]

# WCXB pages whose ground truth leaves the item names out of the main content (it keeps the
# taglines, prices or the text around the grid), so the `gt_items` check cannot grade them.
# Checked by hand: each expected list is the first five names of the page's item grid, read
# off its HTML in document order (product cards, podcast headings, category tiles).
ITEMS_READ_FROM_HTML = {
    "2914": ["Song Sweeper", "Vibe Marketplace by Greta", "Pulldog", "GetMimic", "Claude Marketplace"],
    "4380": ["IT Horror Stories with Jack Smith",
             "Ship It Weekly – DevOps, SRE, and Platform Engineering News with Brian Teller",
             "Technology Tap with Professor JRod", "FusionTalk", "No Priors: Artificial Intelligence"],
    "4818": ["Breville Bambino Plus Espresso Machine",
             "Espressione Concierge Elite Automatic Coffee Machine",
             "Nespresso VertuoLine by Breville", "Nespresso Vertuo Next by Breville",
             "Nespresso Essenza Mini Espresso Machine by Breville"],
    "0635": ["Matte Olive", "Carbon Fiber 3K", "Gunmetal", "Alpine Navy", "Matte Black"],
    "3029": ["Thousand Heritage 2.0 Bike Helmet", "Giro Register Mips II Bike Helmet",
             "Smith Engage Mips Bike Helmet", "Trek Starvos WaveCel Bike Helmet",
             "Smith Network MIPS Bike Helmet"],
    "4379": ["Freeform Carry-On Spinner", "Venue X Carry-On Spinner",
             "Theorym Softside Global Carry-On Spinner", "Voltage DLX Global Carry-On Spinner",
             "Outline Pro Carry-On Spinner"],
    "4518": ["Sectionals", "Sofas", "Loveseats", "Reclining Furniture", "Recliners"],
}

tasks = []
list_wordings = [
    "the first 5 items with their title",
    "top 5 entries with title and link",
    "give me 5 items: title",
    "first five results with title and url",
]
for kind in ("listing", "collection"):
    for i, page_id in enumerate(by_type[kind]):
        # A list task only where the ground truth itself holds a list: many collection pages'
        # main content is the editorial text around the product grid, not the grid.
        if len(item_like_lines(gt(page_id)["main_content"])) < 10:
            continue
        check = {"kind": "gt_items", "count": 5, "field": "title"}
        if page_id in ITEMS_READ_FROM_HTML:
            check = {"kind": "items", "field": "title", "expected": ITEMS_READ_FROM_HTML[page_id]}
        tasks.append({
            "id": f"list-{kind}-{page_id}", "intent": "list", "page": f"wcxb/{page_id}",
            "instructions": list_wordings[i % len(list_wordings)],
            "check": check,
        })
for page_id in by_type["article"]:
    tasks.append({
        "id": f"main-{page_id}", "intent": "main_content", "page": f"wcxb/{page_id}",
        "instructions": "the main text of the article",
        "check": {"kind": "f1", "min": 0.8},
    })
    truth = gt(page_id)
    expected = {"title": "$gt.title"}
    if truth.get("author"):
        expected["author"] = "$gt.author"
    html = page_html(page_id)
    if truth.get("publish_date") and date_on_page(truth["publish_date"], html):
        expected["publication_date"] = "$gt.publish_date"  # the user's own words name the field
    tasks.append({
        "id": f"meta-{page_id}", "intent": "metadata", "page": f"wcxb/{page_id}",
        "instructions": "the page metadata: title, author and publication date",
        "check": {"kind": "fields", "expected": expected},
    })
for page_id in by_type["product"]:
    tasks.append({
        "id": f"product-{page_id}", "intent": "product", "page": f"wcxb/{page_id}",
        "instructions": "the product details: name, price and availability",
        "check": {"kind": "fields", "expected": {"name": "$gt.title"}},
    })
readability = sorted(p.name for p in (root / "readability/test-pages").iterdir() if p.is_dir())
for name in readability[::6]:
    tasks.append({
        "id": f"main-readability-{name}", "intent": "main_content", "page": f"readability/{name}",
        "instructions": "extract the article text",
        "check": {"kind": "f1", "min": 0.8},
    })
fixture_tasks = pathlib.Path(__file__).with_name("fixture_tasks.json")
if fixture_tasks.exists():
    tasks.extend(json.load(open(fixture_tasks)))
json.dump(tasks, sys.stdout, indent=1, ensure_ascii=False)
print()
