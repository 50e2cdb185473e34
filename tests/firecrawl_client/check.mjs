// The official Firecrawl JavaScript SDK (npm `@mendable/firecrawl-js`) as a client of our /v2 API.
//
// usage: node check.mjs SERVER_BASE SITE_URL   (with NODE_PATH naming the SDK's node_modules)
// Prints one JSON object: what scrape, map, crawl and batch scrape gave, in the same shape as
// check.py, for tests/api/crawl.rs to check.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { Firecrawl } = require(require.resolve("@mendable/firecrawl-js", {
  paths: (process.env.NODE_PATH || "").split(":").filter(Boolean),
}));

const [base, site] = process.argv.slice(2);
const app = new Firecrawl({ apiKey: "fc-local", apiUrl: base });
const root = site.replace(/\/$/, "");
const about = `${root}/about`;

const doc = await app.scrape(about, { formats: ["markdown", "links", "rawHtml"] });
const extracted = await app.scrape(about, {
  formats: [{ type: "json", prompt: "the title and the last-updated date of the page" }],
});
const trimmed = await app.scrape(about, {
  formats: ["markdown"],
  onlyMainContent: false,
  excludeTags: ["p"],
  timeout: 60000,
});
const mapped = await app.map(site, { sitemap: "only" });
const crawled = await app.crawl(site, {
  limit: 50,
  maxDiscoveryDepth: 2,
  excludePaths: ["/calendar", "/mirror/**"],
  pollInterval: 1,
  timeout: 120,
});
const batch = await app.batchScrape([about, `${root}/docs/install`], {
  options: { formats: ["markdown"] },
  pollInterval: 1,
  timeout: 120,
});
let error = null;
try {
  await app.scrape("ftp://nowhere.test/", { formats: ["markdown"] });
} catch (exc) {
  error = `${exc.name}: ${exc.message}`;
}
const source = (d) => d.metadata?.sourceURL ?? d.metadata?.sourceUrl ?? d.metadata?.url;
console.log(JSON.stringify({
  scrape: {
    markdown: doc.markdown,
    links: doc.links,
    raw_html: doc.rawHtml,
    title: doc.metadata?.title ?? null,
    source_url: source(doc) ?? null,
    status_code: doc.metadata?.statusCode ?? null,
  },
  json: extracted.json,
  trimmed: trimmed.markdown,
  map: mapped.links.map((link) => link.url),
  crawl: {
    status: crawled.status,
    completed: crawled.completed,
    pages: crawled.data.map(source).sort(),
    markdown: Object.fromEntries(crawled.data.map((d) => [source(d), d.markdown])),
  },
  batch: {
    status: batch.status,
    pages: batch.data.map(source).sort(),
  },
  error,
}));
