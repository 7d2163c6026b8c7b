#!/bin/sh
# Issue 14's performance numbers, measured in the real browser: runs TestBrowserAppLoads
# (cold and warm navigation to interactive) and TestBrowserPerf14Keystroke (keystroke to
# diagnostics) N times each (default 3) and prints every run's numbers, then their medians.
# Needs Chromium and a built app (make wasm). The machine's load is printed with each run:
# on a shared machine the numbers move with it.
#
#   bench/load14.sh [N]
set -eu
n=${1:-3}
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
i=0
while [ "$i" -lt "$n" ]; do
	i=$((i + 1))
	load=$(cut -d' ' -f1 /proc/loadavg)
	go test ./web/ -run 'TestBrowserAppLoads$|TestBrowserPerf14Keystroke$' -count=1 -v >"$out" 2>&1 || { cat "$out"; exit 1; }
	cold=$(sed -n 's/.*navigation to interactive: cold \([0-9]*\) ms.*/\1/p' "$out")
	warm=$(sed -n 's/.*warm median \([0-9]*\) ms.*/\1/p' "$out")
	med=$(sed -n 's/.*on the page median \([0-9.]*\) ms, p95 \([0-9.]*\) ms.*/\1/p' "$out")
	p95=$(sed -n 's/.*on the page median \([0-9.]*\) ms, p95 \([0-9.]*\) ms.*/\2/p' "$out")
	echo "run $i (load $load): cold $cold ms, warm $warm ms, keystroke median $med ms, p95 $p95 ms"
	echo "$cold $warm $med $p95" >>"$out.all"
done
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)] " (" v[1] "–" v[NR] ")"}'; }
echo "medians of $n runs (range): cold $(cut -d' ' -f1 "$out.all" | median) ms, warm $(cut -d' ' -f2 "$out.all" | median) ms," \
	"keystroke median $(cut -d' ' -f3 "$out.all" | median) ms, p95 $(cut -d' ' -f4 "$out.all" | median) ms"
echo "targets: cold ≤ 1500 ms, warm ≤ 500 ms, keystroke median ≤ 50 ms, p95 ≤ 100 ms"
rm -f "$out.all"
