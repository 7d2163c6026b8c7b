#!/bin/sh
# Issue 16's whole-run throughput: benchy run against a local OpenAI-compatible stub,
# 50,000 examples at concurrency 64, beside a bare Go client that sends the very same
# requests (compared byte for byte first) and only decodes the replies. They run in turn,
# ROUNDS times each (default 3), against one stub on this machine; each figure is a whole
# process timed from outside (dataset read to exit), as examples per second. benchy runs as
# a user runs it: in a workspace, recording the run in its store; a third row runs it with
# --no-store. The target is benchy (with the store) at 0.85 of the bare client or more.
# The machine's cores and load are printed with each round: on a shared machine the numbers
# move with it, so quote the medians and the ratio, and the spread beside them.
#
#   bench/throughput/run.sh [ROUNDS] [EXAMPLES]
set -eu
rounds=${1:-3}
n=${2:-50000}
conc=64
port=${PORT:-18431}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
work=$(mktemp -d)
stub_pid=
cleanup() {
	[ -n "$stub_pid" ] && kill "$stub_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

go build -o bin/benchy ./cmd/benchy
go build -o "$work/throughput" ./bench/throughput
tp=$work/throughput
ws=$work/ws
"$tp" gen "$ws/bm" "$n"
mkdir -p "$ws/.benchy"
cat >"$ws/benchy.runtime.yaml" <<YAML
providers:
  stub:
    kind: openai
    base_url: http://127.0.0.1:$port/v1
YAML
"$tp" stub "127.0.0.1:$port" &
stub_pid=$!
url=http://127.0.0.1:$port
i=0
until curl -sf "$url/stats" >/dev/null; do
	i=$((i + 1))
	[ "$i" -lt 50 ] || { echo "the stub did not start on port $port" >&2; exit 1; }
	sleep 0.1
done

# The same request from each: the first example alone, through both.
mkdir -p "$work/one"
cp "$ws/bm/prompt.md" "$work/one/"
head -n 1 "$ws/bm/data.jsonl" >"$work/one/data.jsonl"
curl -sf -X POST "$url/reset"
"$tp" bare "$url/v1/chat/completions" "$work/one" 1 >/dev/null
curl -sf "$url/first" >"$work/first.bare"
curl -sf -X POST "$url/reset"
(cd "$ws" && "$root/bin/benchy" run --no-store --limit 1 -o "$work/one.json" bm/benchmark.yaml >/dev/null 2>&1)
curl -sf "$url/first" >"$work/first.benchy"
cmp -s "$work/first.bare" "$work/first.benchy" || { echo "benchy and the bare client sent different requests:" >&2; diff "$work/first.bare" "$work/first.benchy" >&2; exit 1; }
echo "the same request from both ($(wc -c <"$work/first.bare") bytes); $(nproc) cores; $n examples, concurrency $conc"

now() { date +%s.%N; }
# timed NAME CMD...: runs CMD, prints and keeps NAME's examples per second.
timed() {
	name=$1
	shift
	curl -sf -X POST "$url/reset"
	t0=$(now)
	"$@" >"$work/out" 2>&1 || { cat "$work/out" >&2; exit 1; }
	t1=$(now)
	got=$(curl -sf "$url/stats" | cut -d' ' -f1)
	[ "$got" = "$n" ] || { echo "$name sent $got requests, not $n" >&2; cat "$work/out" >&2; exit 1; }
	eps=$(echo "$t0 $t1" | awk -v n="$n" '{printf "%.0f", n / ($2 - $1)}')
	echo "$eps" >>"$work/$name"
	printf '  %-16s %6s examples/s  (%.2fs)\n' "$name" "$eps" "$(echo "$t0 $t1" | awk '{print $2 - $1}')"
}
bare() { "$tp" bare "$url/v1/chat/completions" "$ws/bm" "$conc"; }
benchy() { (cd "$ws" && "$root/bin/benchy" run --concurrency "$conc" -o "$work/results.json" "$@" bm/benchmark.yaml); }

r=0
while [ "$r" -lt "$rounds" ]; do
	r=$((r + 1))
	echo "round $r (load $(cut -d' ' -f1-3 /proc/loadavg)):"
	timed bare bare
	timed benchy benchy
	timed benchy-no-store benchy --no-store
done

# median FILE: the median and the range of the figures in FILE.
median() { sort -n "$1" | awk '{v[NR]=$1} END {printf "%s (%s–%s)", v[int((NR+1)/2)], v[1], v[NR]}'; }
med() { sort -n "$1" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
echo "medians of $rounds rounds (range), examples/s:"
echo "  bare client      $(median "$work/bare")"
echo "  benchy           $(median "$work/benchy")"
echo "  benchy no store  $(median "$work/benchy-no-store")"
# The ratio of each round's pair, so that a drift of the machine's speed cancels out.
paste "$work/benchy" "$work/bare" | awk '{print $1 / $2}' >"$work/ratio"
paste "$work/benchy-no-store" "$work/bare" | awk '{print $1 / $2}' >"$work/ratio-ns"
echo "ratio benchy/bare, round by round: median $(sort -n "$work/ratio" | awk '{v[NR]=sprintf("%.2f",$1)} END {printf "%s (%s–%s)", v[int((NR+1)/2)], v[1], v[NR]}'); without the store $(sort -n "$work/ratio-ns" | awk '{v[NR]=sprintf("%.2f",$1)} END {printf "%s (%s–%s)", v[int((NR+1)/2)], v[1], v[NR]}')"
echo "target: benchy (with the store) at 0.85 of the bare client or more"
