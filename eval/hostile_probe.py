#!/usr/bin/env python3
"""A hostile run against a live scrape-agent, as issue #28's tester did it: every probe must hold.

Start a release build with its defaults (private networks refused), a key, and a small tmp
database, e.g.

    cargo build --release
    SCRAPE_AGENT__AUTH__API_KEYS=probe-key SCRAPE_AGENT__DATABASE__URL=sqlite:///tmp/probe/db \
      SCRAPE_AGENT__FETCH__RESOLVE=attacker.test=127.0.0.1 SCRAPE_AGENT__FETCH__ALLOWED_HOSTS=attacker.test \
      ./target/release/scrape-agent serve --bind 127.0.0.1:8099 >/tmp/probe/log 2>&1 &
    python3 eval/hostile_probe.py http://127.0.0.1:8099 probe-key /tmp/probe/log

It starts its own attacker site on loopback, reachable only by the name `attacker.test` (the
server resolves it statically and allows that name, not the address), whose pages redirect to
internal addresses; then:
SSRF probes (literal, encoded and redirected internal addresses), DNS-rebinding Host headers on
every route, run-starting GETs from other pages, malformed requests, silent connections past
the open-file budget, a slow body, the key under an encoded parameter name, and credentials in
URLs. Prints one line per probe and `N passed, N failed`; exits 1 when any probe got through.
Only loopback addresses are ever contacted.
"""

import http.server
import json
import socket
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

BASE, KEY, LOG = sys.argv[1], sys.argv[2], (sys.argv[3] if len(sys.argv) > 3 else None)
HOST, PORT = urllib.parse.urlsplit(BASE).hostname, urllib.parse.urlsplit(BASE).port
results = []


def probe(name, ok, detail=""):
    results.append(ok)
    print(f"{'held' if ok else 'GOT THROUGH'}: {name}{' — ' + detail if detail and not ok else ''}")


def request(method, path, body=None, headers=None, timeout=30):
    headers = {"authorization": f"Bearer {KEY}", **(headers or {})}
    data = json.dumps(body).encode() if body is not None else None
    if data is not None:
        headers.setdefault("content-type", "application/json")
    req = urllib.request.Request(BASE + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read().decode("utf-8", "replace"), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace"), dict(e.headers)


def raw(payload, timeout=5):
    s = socket.create_connection((HOST, PORT), timeout=timeout)
    s.sendall(payload)
    chunks = []
    try:
        while True:
            c = s.recv(65536)
            if not c:
                break
            chunks.append(c)
    except socket.timeout:
        pass
    s.close()
    return b"".join(chunks).decode("utf-8", "replace")


# --- the attacker's site: redirects into the internal network ------------------------------
INTERNAL = ["http://127.0.0.1:%d/healthz" % PORT, "http://169.254.169.254/latest/meta-data/",
            "http://[::1]:%d/" % PORT, "http://10.0.0.1/", "http://0.0.0.0:%d/" % PORT]


class Attacker(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        last = self.path.strip("/").split("/")[-1]
        if not last.isdigit():
            self.send_response(404)
            self.end_headers()
            return
        n = int(last)
        self.send_response(302)
        self.send_header("location", INTERNAL[n % len(INTERNAL)])
        self.end_headers()

    def log_message(self, *args):
        pass


attacker = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Attacker)
threading.Thread(target=attacker.serve_forever, daemon=True).start()


def run(urls):
    """Status, the stream's text, and the `complete` payload (None when refused before)."""
    status, body, _ = request("POST", "/api/scrape/stream",
                              {"urls": urls, "instructions": "the page title"}, timeout=60)
    complete = None
    for line in body.splitlines():
        if line.startswith("data:"):
            event = json.loads(line[5:])
            if event.get("type") == "complete":
                complete = event["data"]
    return status, body, complete


# 1. SSRF: literal, encoded, and redirected internal addresses.
ssrf = ["http://127.0.0.1:%d/healthz" % PORT, "http://localhost:%d/" % PORT, "http://2130706433/",
        "http://0x7f.1/", "http://0177.0.0.1/", "http://[::ffff:127.0.0.1]/", "http://[::1]/",
        "http://169.254.169.254/", "http://[fd00::1]/", "http://100.64.0.1/", "http://0/",
        "http://127.1/", "http://[0:0:0:0:0:ffff:7f00:1]/", "http://%31%32%37.0.0.1/",
        "http://127.0.0.1.nip.invalid/", "http://localtest.me/"]
ssrf += ["http://attacker.test:%d/%d" % (attacker.server_port, i) for i in range(len(INTERNAL))]
for url in ssrf:
    status, body, complete = run([url])
    refused = status >= 400 or (complete is not None and complete.get("urls_failed") == 1)
    # A redirect into the network must be refused at its hop, by the guard.
    if "attacker.test" in url:
        refused = refused and "blocked_address" in body
    probe(f"SSRF {url}", refused, body[-300:])

# 2. DNS rebinding: a foreign Host on every route.
routes = [("GET", "/"), ("GET", "/healthz"), ("GET", "/api/tools"), ("GET", "/api/scrape"),
          ("POST", "/api/scrape"), ("POST", "/api/scrape/stream"), ("DELETE", "/api/scrape/x"),
          ("GET", "/api/scrape/x/events"), ("POST", "/mcp"), ("GET", "/metrics")]
for method, path in routes:
    status, body, _ = request(method, path, {"urls": ["http://example.com/"], "instructions": "x"},
                              headers={"host": f"evil.example:{PORT}",
                                       "origin": f"http://evil.example:{PORT}"})
    probe(f"rebinding {method} {path}", status == 403 and "foreign_host" in body, f"{status} {body[:120]}")

# 3. Run-starting GET from another page of the same site.
q = urllib.parse.urlencode({"url": "http://example.com/", "instructions": "x", "access_token": KEY})
for site in ["same-site", "cross-site"]:
    status, body, _ = request("GET", f"/api/scrape/stream?{q}", headers={"sec-fetch-site": site})
    probe(f"<img> run start ({site})", status == 403, f"{status}")

# 4. Malformed requests: each a JSON 4xx.
bad = [("POST", "/api/scrape/stream", b"{", {}), ("POST", "/api/scrape/stream", b"[]", {}),
       ("PUT", "/api/scrape", None, {}), ("POST", "/mcp", b"hi", {"content-type": "text/plain"}),
       ("POST", "/api/scrape", b" " * 300_000, {}),
       ("GET", "/api/tools?x=" + "a" * 40_000, None, {}),
       ("POST", "/api/scrape/stream", json.dumps({"urls": ["http://a.example/"], "instructions": "é" * 10_001}).encode(), {})]
for method, path, data, headers in bad:
    req = urllib.request.Request(BASE + path, data=data, method=method,
                                 headers={"authorization": f"Bearer {KEY}", "content-type": "application/json", **headers})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            status, text, ctype = r.status, r.read().decode(), r.headers.get("content-type", "")
    except urllib.error.HTTPError as e:
        status, text, ctype = e.code, e.read().decode(), e.headers.get("content-type", "")
    ok = 400 <= status < 500 and ctype.startswith("application/json") and '"code"' in text
    probe(f"malformed {method} {path[:40]}", ok, f"{status} {ctype} {text[:100]}")

# 5. Silent connections past the open-file budget, then /healthz.
held = []
for _ in range(1100):
    try:
        held.append(socket.create_connection((HOST, PORT), timeout=2))
    except OSError:
        break
time.sleep(0.5)
status, _, _ = request("GET", "/healthz", timeout=10)
probe(f"/healthz with {len(held)} silent connections open", status == 200, str(status))
for s in held:
    s.close()

# 6. A slow body: 408, not a held request.
answer = raw(f"POST /api/scrape HTTP/1.1\r\nhost: {HOST}:{PORT}\r\nauthorization: Bearer {KEY}\r\n"
             f"content-type: application/json\r\ncontent-length: 100\r\n\r\n{{".encode(), timeout=60)
probe("slow body", answer.startswith("HTTP/1.1 408"), answer[:80])

# 7. The key under an encoded parameter name, and credentials in a URL.
request("GET", f"/api/scrape/none/events?access%5Ftoken={KEY}", headers={"authorization": ""})
status, body, _ = run(["http://ann:pw-secret-9@example.invalid/"])
status, listed, _ = request("GET", "/api/scrape?limit=50")
probe("credentials in URLs never stored", "pw-secret-9" not in body and "pw-secret-9" not in listed)
if LOG:
    time.sleep(0.3)
    log = open(LOG, encoding="utf-8", errors="replace").read()
    probe("the key never in the log", KEY not in log)

passed = sum(results)
print(f"{passed} passed, {len(results) - passed} failed")
sys.exit(0 if passed == len(results) else 1)
