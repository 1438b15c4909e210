#!/usr/bin/env bash
# bench/lib.sh's DAMON pause, which the line-rate IQ benchmarks (mex_bench.sh, iq_bench.sh)
# run before they measure: against a fake sysfs tree (WS_DAMON_ROOT), running kdamonds go
# off and only those come back on when the benchmark's cleanup trap runs, also when it
# exits with an error; WS_BENCH_DAMON=keep writes nothing and says they run; the table
# label follows; a machine without DAMON gets neither a note nor a label.
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

# A benchmark's shape: pause, report what the tables will say and the states while it
# measures, then fail with status 3; its EXIT trap resumes.
bench() {
	WS_DAMON_ROOT=$fake bash -c '
		. "$1"
		trap ws_damon_resume EXIT
		ws_damon_pause bench_damon
		echo "label=$(ws_damon_label)"
		echo "during=$(cat "$2"/[0-9]/state 2>/dev/null | tr "\n" " " | sed "s/ $//")"
		exit 3' _ "$lib" "$fake" 2>"$WS_TMP/note"
}

reset on off on
out=$(bench)
expect pause_exit_status 3 "$?"
expect pause_label "label=DAMON paused" "$(grep '^label=' <<<"$out")"
expect pause_all_off "during=off off off" "$(grep '^during=' <<<"$out")"
expect pause_resumes_only_running "on off on" "$(states)"
if grep -q "paused 2 DAMON kdamond(s) for the run ($fake/0 $fake/2); resumed at exit; WS_BENCH_DAMON=keep leaves them running" "$WS_TMP/note"; then
	pass pause_note
else
	fail pause_note "stderr: $(cat "$WS_TMP/note")"
fi

reset on off on
out=$(WS_BENCH_DAMON=keep bench)
expect keep_label "label=DAMON running" "$(grep '^label=' <<<"$out")"
expect keep_untouched "during=on off on" "$(grep '^during=' <<<"$out")"
expect keep_after "on off on" "$(states)"
expect keep_note 2 "$(grep -c 'runs (WS_BENCH_DAMON=keep): expect stalls' "$WS_TMP/note")"

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
