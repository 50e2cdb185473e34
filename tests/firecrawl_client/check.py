"""The official Firecrawl Python SDK (PyPI `firecrawl`) as a client of our /v2 API.

usage: check.py SERVER_BASE SITE_URL
Prints one JSON object: what scrape, map and crawl gave, for tests/api/crawl.rs to check.
"""
import json
import sys

from firecrawl import Firecrawl


def main() -> None:
    base, site = sys.argv[1], sys.argv[2]
    app = Firecrawl(api_key="fc-local", api_url=base)
    about = site.rstrip("/") + "/about"
    doc = app.scrape(about, formats=["markdown", "links", "rawHtml"])
    extracted = app.scrape(
        about,
        formats=[{"type": "json", "prompt": "the title and the last-updated date of the page"}],
    )
    trimmed = app.scrape(
        about, formats=["markdown"], only_main_content=False, exclude_tags=["p"], timeout=60000
    )
    mapped = app.map(site, sitemap="only")
    crawled = app.crawl(
        site,
        limit=50,
        max_discovery_depth=2,
        exclude_paths=["/calendar", "/mirror/**"],
        poll_interval=1,
        timeout=120,
    )
    batch = app.batch_scrape(
        [about, site.rstrip("/") + "/docs/install"], formats=["markdown"], poll_interval=1, wait_timeout=120
    )
    error = None
    try:
        app.scrape("ftp://nowhere.test/", formats=["markdown"])
    except Exception as exc:  # the SDK raises on `success: false`
        error = type(exc).__name__ + ": " + str(exc)
    print(json.dumps({
        "scrape": {
            "markdown": doc.markdown,
            "links": doc.links,
            "raw_html": doc.raw_html,
            "title": doc.metadata.title if doc.metadata else None,
            "source_url": doc.metadata.source_url if doc.metadata else None,
            "status_code": doc.metadata.status_code if doc.metadata else None,
        },
        "json": extracted.json,
        "trimmed": trimmed.markdown,
        "map": [link.url for link in mapped.links],
        "crawl": {
            "status": crawled.status,
            "completed": crawled.completed,
            "pages": sorted(d.metadata.source_url for d in crawled.data),
            "markdown": {d.metadata.source_url: d.markdown for d in crawled.data},
        },
        "batch": {
            "status": batch.status,
            "pages": sorted(d.metadata.source_url for d in batch.data),
        },
        "error": error,
    }))


if __name__ == "__main__":
    main()
