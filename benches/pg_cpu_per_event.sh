#!/usr/bin/env bash
# CPU per stored event on PostgreSQL, for comparing builds of the events bench on a busy machine
# (wall-clock throughput swings with the load; CPU per event does not).
#
#   benches/pg_cpu_per_event.sh <events bench binary> [VAR=value ...]
#
# Runs `events/postgres/store_and_deliver_8_runs` of the given binary (build one per commit with
# `cargo bench --bench events --no-run`) against SCRAPE_AGENT_TEST_POSTGRES_URL (default: the
# local test server), and prints PostgreSQL's CPU (the postmaster's own and its exited children's,
# plus its live backends) and the bench process's CPU, per committed transaction (one per event
# on the hot path), and the index entries read per transaction: a fenced write that reads more
# than a couple scans more than its own session row. Needs a database nobody else uses meanwhile.
set -euo pipefail
bin=$1; shift
url=${SCRAPE_AGENT_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}
pg_ticks() {
  local pm total
  pm=$(pgrep -x postgres -o)
  total=$(awk '{print $14+$15+$16+$17}' "/proc/$pm/stat")
  for p in $(pgrep -P "$pm"); do
    total=$((total + $(awk '{print $14+$15}' "/proc/$p/stat" 2>/dev/null || echo 0)))
  done
  echo "$total"
}
counters() { psql -tA "$url" -c "SELECT sum(xact_commit), sum(tup_returned) FROM pg_stat_database"; }
before=$(counters); t0=$(pg_ticks)
/usr/bin/time -f "%U %S" -o /tmp/pg_cpu_bench_time.txt env "$@" SCRAPE_AGENT_TEST_POSTGRES_URL="$url" \
  "$bin" --bench 'events/postgres/store_and_deliver_8_runs' >/tmp/pg_cpu_bench_out.txt 2>&1
t1=$(pg_ticks); after=$(counters)
read -r user sys </tmp/pg_cpu_bench_time.txt
ticks=$(getconf CLK_TCK)
python3 - "$before" "$after" "$t0" "$t1" "$user" "$sys" "$ticks" <<'PY'
import sys
b, a = [list(map(int, x.split('|'))) for x in sys.argv[1:3]]
t0, t1 = int(sys.argv[3]), int(sys.argv[4])
user, system, hz = float(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7])
commits = a[0] - b[0]
pg = (t1 - t0) / hz
print(f"transactions {commits}  PostgreSQL {pg / commits * 1e6:.1f} µs  bench {(user + system) / commits * 1e6:.1f} µs"
      f"  rows read {(a[1] - b[1]) / commits:.1f} per transaction")
PY
grep -A3 "store_and_deliver_8_runs" /tmp/pg_cpu_bench_out.txt | grep -m1 "thrpt" || true
