#!/bin/sh
# Issue 17: the wall time of a CPU-bound run on this machine as one shard (N=1) and as 4
# shards run side by side as 4 processes (what a Slurm array or an Indexed Job does on one
# node), then merged; the merged document is checked equal to the one shard's but for the
# fields merge documents. The adapter burns WORK sha256 rounds an example (default 20000,
# a few ms). Each shard runs one worker (CONC, default 1), as one core of a node would:
# on a machine with 2 cores, 4 shards can at best halve the one shard's time, and with
# CONC=2 the one shard uses both cores already. Cores and load are printed.
#
#   bench/shards/run.sh [EXAMPLES] [WORK]
set -eu
n=${1:-400}
export WORK=${2:-20000}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
go build -o bin/benchy ./cmd/benchy
go build -o "$work/adapter" bench/shards/adapter.go
mkdir -p "$work/ws/data"
cat >"$work/ws/benchmark.yaml" <<YAML
version: "1.0"
ontology_version: "1.0"
benchmark: {task: extract, domain: general, language: en}
program:
  input: {text: string}
  output: {length: int, first: int}
scoring:
  weights: {length: 1, first: 1}
  aggregator: weighted_mean
data: {path: ./data/rows.jsonl}
ai-system: {type: external, id: burner}
YAML
cat >"$work/ws/benchy.runtime.yaml" <<YAML
bindings:
  burner:
    command: ["$work/adapter"]
    env: [WORK]
    timeout: 60s
YAML
i=0
while [ $i -lt "$n" ]; do
	printf '{"input": {"text": "example %d"}, "expected": {"length": %d, "first": 0}}\n' $i $((8 + ${#i})) >>"$work/ws/data/rows.jsonl"
	i=$((i + 1))
done
conc=${CONC:-1}
echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $n examples, WORK=$WORK, --concurrency $conc a shard"
now() { date +%s.%N; }
t0=$(now)
bin/benchy run --shard 0/1 --out-dir "$work/one" --concurrency "$conc" "$work/ws/benchmark.yaml" 2>"$work/err.log" || { cat "$work/err.log"; exit 1; }
t1=$(now)
bin/benchy merge "$work/one" -o "$work/one.json" --benchmark "$work/ws/benchmark.yaml" >/dev/null 2>&1
for k in 0 1 2 3; do
	bin/benchy run --shard $k/4 --out-dir "$work/four" --concurrency "$conc" "$work/ws/benchmark.yaml" 2>/dev/null &
done
wait
t2=$(now)
bin/benchy merge "$work/four" -o "$work/four.json" --benchmark "$work/ws/benchmark.yaml" >/dev/null 2>&1
t3=$(now)
python3 - "$work/one.json" "$work/four.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    for k in ("started_at", "finished_at", "concurrency", "shards", "run_id"):
        d.pop(k, None)
assert a == b, "the 4-shard merge differs from the one shard's"
PY
echo "$t0 $t1 $t2 $t3" | awk '{printf "one shard: %.2f s\n4 shards side by side: %.2f s (%.2fx), then merged in %.2f s; documents equal\n", $2-$1, $3-$2, ($2-$1)/($3-$2), $4-$3}'
