#!/usr/bin/env bash
# Schemathesis (PyPI) against the live server and its own OpenAPI document: generated requests
# for every operation, and every response checked — no 5xx, only documented status codes and
# content types, bodies (SSE events included) that match their schemas.
#   usage: tests/schemathesis/run.sh [path/to/scrape-agent]   (default: target/debug/scrape-agent)
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-target/debug/scrape-agent}
venv=target/schemathesis-venv
if ! "$venv/bin/schemathesis" --version >/dev/null 2>&1; then
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check 'schemathesis>=4,<5'
fi
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# Private addresses stay refused: generated URLs never reach this machine's services.
SCRAPE_AGENT__DATABASE__URL="sqlite://$work/st.db" SCRAPE_AGENT__FETCH__TIMEOUT_SECS=3 RUST_LOG=warn \
  "$binary" --bind "127.0.0.1:$port" >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break; sleep 0.1; done
"$venv/bin/schemathesis" run "http://127.0.0.1:$port/api/openapi.json" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
  --phases examples,fuzzing --max-examples 30 --request-timeout 30 --seed 20261123 --no-color
