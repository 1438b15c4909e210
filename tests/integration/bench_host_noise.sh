#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench/lib.sh's host-noise note and label, which the line-rate IQ benchmarks (mex_bench.sh,
# iq_bench.sh) take before they measure. A benchmark never changes the host it runs on: run
# against a fake sysfs tree (WS_DAMON_ROOT), running kdamonds are named in a note on stderr
# and in the tables' label, and every state file is exactly as it was, during the run and
# after it, also when the benchmark exits with an error. No DAMON: no note, no mention.
# tests/integration/host_settings.sh checks every script under bench/ and tests/ for writes
# to /proc or /sys.
source "$(dirname "$0")/../lib.sh"
root=${WS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
lib=$root/bench/lib.sh

expect() { # name, expected, got
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected '$2', got '$3'"; fi
}
fake=$WS_TMP/kdamonds
reset() { # the states of kdamonds 0, 1, 2
	rm -rf "$fake"
	local i=0 s
	for s in "$@"; do mkdir -p "$fake/$i" && echo "$s" >"$fake/$i/state"; i=$((i + 1)); done
}
states() { echo "$(cat "$fake/0/state") $(cat "$fake/1/state") $(cat "$fake/2/state")"; }

# A benchmark's shape: note, report what the tables will say and the states while it
# measures, then fail with status 3.
bench() {
	WS_DAMON_ROOT=$fake bash -c '
		. "$1"
		ws_host_noise bench_host_noise
		echo "label=$(ws_host_label | sed "s/, load [0-9.]*$//; s/^load [0-9.]*$//")"
		echo "load=$(ws_host_label | grep -c "load [0-9][0-9.]*$")"
		echo "during=$(cat "$2"/[0-9]/state 2>/dev/null | tr "\n" " " | sed "s/ $//")"
		exit 3' _ "$lib" "$fake" 2>"$WS_TMP/note"
}

reset on off on
out=$(bench)
expect exit_status 3 "$?"
expect running_label "label=DAMON running" "$(grep '^label=' <<<"$out")"
expect load_label "load=1" "$(grep '^load=' <<<"$out")"
expect running_untouched "during=on off on" "$(grep '^during=' <<<"$out")"
expect running_after "on off on" "$(states)"
expect running_note "bench_host_noise: 2 DAMON kdamond(s) run on this host (left as they are): expect stalls of a few ms" "$(cat "$WS_TMP/note")"

reset off off off
out=$(bench)
expect idle_label "label=" "$(grep '^label=' <<<"$out")"
expect idle_after "off off off" "$(states)"
expect idle_quiet "" "$(cat "$WS_TMP/note")"

rm -rf "$fake"
out=$(bench)
expect none_label "label=" "$(grep '^label=' <<<"$out")"
expect none_quiet "" "$(cat "$WS_TMP/note")"
finish
