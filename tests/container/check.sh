#!/usr/bin/env bash
# The container as an operator runs it: builds the real Dockerfile unchanged, starts the image with
# a named data volume, and checks /healthz, one scrape of a local page, the non-root user, the
# HEALTHCHECK turning healthy, a restart that keeps the SQLite data in the volume, and a clean
# stop on `docker stop`. Everything it talks to is on loopback (`--network host`); only the build
# reaches crates.io and Debian's mirror.
#
# Needs root (it may start a Docker daemon) and the base images made by
# ../shared/tools/container-base-images.sh, which it runs; set SCRAPE_AGENT_SHARED_DIR to the
# directory holding tools/container-base-images.sh when ../shared is not beside the clone.
# Usage: tests/container/check.sh   (from anywhere; `.ci/run` runs it)
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"

say() { printf '[container] %s\n' "$*"; }
fail() {
  printf '[container] FAIL: %s\n' "$*" >&2
  if [ -n "${container:-}" ] && docker inspect "$container" >/dev/null 2>&1; then
    echo "---- docker logs $container (last 40 lines) ----" >&2
    docker logs --tail 40 "$container" >&2 || true
  fi
  exit 1
}
elapsed() { echo $(($(date +%s) - $1)); }

# --- Where the base-image script is: CI runs this on a clean clone whose place beside ../shared is
# not guaranteed, so an explicit setting wins, then the usual places; never a silent skip.
find_shared() {
  local dir
  if [ -n "${SCRAPE_AGENT_SHARED_DIR:-}" ]; then
    [ -x "$SCRAPE_AGENT_SHARED_DIR/tools/container-base-images.sh" ] ||
      [ -f "$SCRAPE_AGENT_SHARED_DIR/tools/container-base-images.sh" ] ||
      fail "SCRAPE_AGENT_SHARED_DIR=$SCRAPE_AGENT_SHARED_DIR has no tools/container-base-images.sh"
    echo "$SCRAPE_AGENT_SHARED_DIR"
    return
  fi
  for dir in "$repo/../shared" "$repo/../../shared" /work/shared; do
    if [ -f "$dir/tools/container-base-images.sh" ]; then
      (cd "$dir" && pwd)
      return
    fi
  done
  fail "tools/container-base-images.sh not found in $repo/../shared, $repo/../../shared or /work/shared; set SCRAPE_AGENT_SHARED_DIR"
}

[ "$(id -u)" = 0 ] || fail "run as root (the base-image script may start a Docker daemon)"
command -v python3 >/dev/null || fail "python3 is needed (fixture server, JSON checks)"
command -v curl >/dev/null || fail "curl is needed"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

image=scrape-agent:test
container=""
volume=scrape-agent-check-$$
fixture_pid=""
work=$(mktemp -d)
cleanup() {
  [ -n "$container" ] && docker rm -f "$container" >/dev/null 2>&1 || true
  docker volume rm -f "$volume" >/dev/null 2>&1 || true
  [ -n "$fixture_pid" ] && kill "$fixture_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

t0=$(date +%s)
shared=$(find_shared)
say "base images via $shared/tools/container-base-images.sh"
bash "$shared/tools/container-base-images.sh" >"$work/base-images.log" 2>&1 ||
  { cat "$work/base-images.log" >&2; fail "container-base-images.sh failed"; }
say "base images ready in $(elapsed "$t0") s"

t1=$(date +%s)
say "docker build --network host -t $image . (the real Dockerfile, unchanged)"
docker build --network host -t "$image" . >"$work/build.log" 2>&1 ||
  { tail -40 "$work/build.log" >&2; fail "docker build failed"; }
say "image built in $(elapsed "$t1") s"

# --- A page to scrape, on loopback.
fixture_port=$(free_port)
# The fixture pages, plus /slow/… which answers after 25 s: a run still fetching it when the
# container is stopped must be ended by the server's own shutdown, not by a kill.
cat >"$work/fixtures.py" <<'PY'
import functools, http.server, sys, time
class Handler(http.server.SimpleHTTPRequestHandler):
    def do_GET(self):
        if self.path.startswith("/slow/"):
            time.sleep(25)
            self.path = self.path[len("/slow"):]
        super().do_GET()
handler = functools.partial(Handler, directory=sys.argv[2])
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), handler).serve_forever()
PY
python3 "$work/fixtures.py" "$fixture_port" "$repo/tests/fixtures/pages" >"$work/fixtures.log" 2>&1 &
fixture_pid=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$fixture_port/news.html" >/dev/null && break; sleep 0.1; done
curl -fs "http://127.0.0.1:$fixture_port/news.html" >/dev/null || fail "fixture server did not start"

port=$(free_port)
base="http://127.0.0.1:$port"
container=scrape-agent-check-$$
start_container() {
  # A 1 s health interval so the check sees "healthy" quickly; the command is the image's own.
  # --stop-timeout 30 covers server.shutdown_grace_secs + 2 × shutdown_drain_secs (10 + 2 × 5).
  # seccomp=unconfined: Docker's default profile denies the user namespace Chromium's sandbox
  # needs (README, "Rendering in a container"); this keeps the sandbox rather than turning it off.
  docker run -d --name "$container" --network host --stop-timeout 30 \
    --security-opt seccomp=unconfined \
    --health-interval 1s --health-start-period 5s \
    -v "$volume:/app/data" \
    -e SCRAPE_AGENT__SERVER__BIND="127.0.0.1:$port" \
    -e SCRAPE_AGENT__FETCH__ALLOW_PRIVATE_NETWORKS=true \
    "$image" >/dev/null
}
wait_healthz() {
  for _ in $(seq 100); do
    curl -fs "$base/healthz" >"$work/healthz.json" 2>/dev/null && return 0
    sleep 0.2
  done
  fail "/healthz did not answer within 20 s"
}

t2=$(date +%s)
start_container
wait_healthz
grep -q '"status":"ok"' "$work/healthz.json" || fail "/healthz body: $(cat "$work/healthz.json")"
say "/healthz ok $(elapsed "$t2") s after docker run: $(cat "$work/healthz.json")"

# --- The process runs as the image's user, uid 10001, not root: read from the kernel's view of
# the server process itself, not only from what `docker exec` would be given.
pid=$(docker inspect -f '{{.State.Pid}}' "$container")
uids=$(awk '/^Uid:/ {print $2, $3, $4, $5}' "/proc/$pid/status")
[ "$uids" = "10001 10001 10001 10001" ] || fail "server process uids (real effective saved fs): $uids"
exec_uid=$(docker exec "$container" id -u)
[ "$exec_uid" = 10001 ] || fail "docker exec id -u: $exec_uid"
say "server process runs as uid $uids (docker exec id -u: $exec_uid)"

# --- One scrape of a local page through the stream.
session=container-check-$$
page="http://127.0.0.1:$fixture_port/news.html"
curl -fsS -N --max-time 60 -X POST "$base/api/scrape/stream" -H 'content-type: application/json' \
  -d "{\"urls\": [\"$page\"], \"instructions\": \"the top 3 stories with title and link\", \"session_id\": \"$session\"}" \
  >"$work/stream.txt" || fail "the scrape stream failed"
python3 - "$work/stream.txt" "$page" <<'PY' || fail "the stream's complete event does not carry the data"
import json, sys
text = open(sys.argv[1]).read()
page = sys.argv[2]
frames = []
for raw in text.split("\n\n"):
    event = data = None
    for line in raw.splitlines():
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: "):
            data = json.loads(line[6:])
    if event:
        frames.append((event, data))
names = [e for e, _ in frames]
assert names[0] == "init" and names[-1] == "complete", names
complete = frames[-1][1]["data"]
assert complete["status"] == "completed", complete["status"]
items = complete["extracted_data"][page]
assert isinstance(items, list) and len(items) == 3, items
assert all(item.get("title") for item in items), items
print("[container] scrape: %d events, complete with %d stories, first %r" % (len(frames), len(items), items[0]["title"]))
PY

# --- A page built by scripts, rendered by the sandboxed browser inside the image (issue 33).
render_port=$(free_port)
python3 "$work/fixtures.py" "$render_port" "$repo/tests/fixtures" >"$work/render-fixtures.log" 2>&1 &
render_pid=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$render_port/render/list.html" >/dev/null && break; sleep 0.1; done
render_page="http://127.0.0.1:$render_port/render/list.html"
curl -fsS -N --max-time 90 -X POST "$base/api/scrape/stream" -H 'content-type: application/json' \
  -d "{\"urls\": [\"$render_page\"], \"instructions\": \"every product with name and price\", \"render\": \"always\"}" \
  >"$work/render.txt" || fail "the render stream failed"
kill "$render_pid" 2>/dev/null || true
python3 - "$work/render.txt" <<'PY' || fail "the script-built page was not rendered in the container"
import json, sys
text = open(sys.argv[1]).read()
steps = [json.loads(l[6:]) for l in text.splitlines() if l.startswith("data: ") and '"action":"render"' in l.replace(" ", "")]
assert steps, text[-2000:]
render = steps[0]["data"]["extracted_data"]
assert render["rendered"] is True, render
assert "Brass Compass" in text.split("event: complete")[-1], text[-2000:]
print("[container] render: %s requests, %s bytes" % (render.get("requests"), render.get("bytes")))
PY

# --- The image's HEALTHCHECK command turns the container healthy.
for _ in $(seq 60); do
  status=$(docker inspect -f '{{.State.Health.Status}}' "$container")
  [ "$status" = healthy ] && break
  sleep 0.5
done
[ "$status" = healthy ] || fail "health status after 30 s: $status ($(docker inspect -f '{{json .State.Health.Log}}' "$container"))"
say "HEALTHCHECK: healthy"

# --- A restart keeps the session: its SQLite database lives in the named volume.
t3=$(date +%s)
docker restart -t 30 "$container" >/dev/null
wait_healthz
say "restarted in $(elapsed "$t3") s"
curl -fsS "$base/api/scrape" >"$work/list.json"
python3 - "$work/list.json" "$session" <<'PY' || fail "the session did not survive the restart: $(cat "$work/list.json")"
import json, sys
listing = json.load(open(sys.argv[1]))
sessions = listing["sessions"] if isinstance(listing, dict) else listing
ids = [s.get("session_id") or s.get("id") for s in sessions]
assert sys.argv[2] in ids, ids
PY
curl -fsS "$base/api/scrape/$session" | python3 -c '
import json, sys
s = json.load(sys.stdin)
assert s["status"] == "completed", s["status"]
print("[container] after restart: session listed, status", s["status"])' || fail "the session's status after the restart"

# --- docker stop ends the server through its own SIGTERM handling, also with a run in flight:
# a detached run waits on a page that answers after 25 s; shutdown gives it
# server.shutdown_grace_secs (10 s), then cancels it and stores its `complete`, and the process
# exits 0 — inside the 30 s stop timeout (Docker's default 10 s would kill it: exit 137).
stopping=container-stop-$$
code=$(curl -sS -o "$work/detached.json" -w '%{http_code}' -X POST "$base/api/scrape" \
  -H 'content-type: application/json' \
  -d "{\"urls\": [\"http://127.0.0.1:$fixture_port/slow/news.html\"], \"instructions\": \"the top 3 stories\", \"session_id\": \"$stopping\"}")
[ "$code" = 202 ] || fail "detached run not accepted: $code $(cat "$work/detached.json")"
sleep 1
t4=$(date +%s%N)
docker stop -t 30 "$container" >/dev/null
stop_ms=$((($(date +%s%N) - t4) / 1000000))
code=$(docker inspect -f '{{.State.ExitCode}}' "$container")
[ "$code" = 0 ] || fail "exit code after docker stop: $code (after $stop_ms ms)"
[ "$stop_ms" -lt 30000 ] || fail "docker stop took $stop_ms ms (the stop timeout is 30 s)"
# Read the log whole first: `grep -q` stops reading at the first match, and under pipefail the
# writer's SIGPIPE would fail the pipeline even though the line is there.
stop_log=$(docker logs "$container" 2>&1)
grep -q "shutting down: refusing new runs" <<<"$stop_log" ||
  fail "no graceful shutdown line in the log"
say "docker stop with a run in flight: exit code $code after $stop_ms ms, graceful shutdown logged"

# The run was cancelled by the shutdown and its `complete` stored (a killed process would leave
# it `running`, to be resumed at the next start).
docker start "$container" >/dev/null
wait_healthz
curl -fsS "$base/api/scrape/$stopping" | python3 -c '
import json, sys
s = json.load(sys.stdin)
assert s["status"] == "cancelled", s["status"]
assert s["result"]["status"] == "cancelled", s["result"]
print("[container] the in-flight run ended", s["status"], "with its complete stored")' ||
  fail "the run in flight at docker stop: $(curl -s "$base/api/scrape/$stopping")"
docker stop -t 30 "$container" >/dev/null
code=$(docker inspect -f '{{.State.ExitCode}}' "$container")
[ "$code" = 0 ] || fail "exit code after the last docker stop: $code"

say "all checks passed in $(elapsed "$t0") s"
