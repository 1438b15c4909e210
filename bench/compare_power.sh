#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# warpspeed compare's power on loopback, not run in CI: how often it says "no change" when
# nothing changed, and "slower" when one side is slowed. Each round runs N TCP_RR runs of
# the same binary against `warpspeed serve` (OLD), N more (NEW: the same, so a verdict other
# than "no change" is a false alarm), and N with a rate cap PCT% below the OLD run just
# before it (SLOW: --rate, open loop, so ~PCT% fewer transactions); then compares OLD with
# NEW and OLD with SLOW on the throughput (Trans/s) row. The three sides take turns run by
# run (OLD, NEW, SLOW, OLD, ...), so a machine whose speed drifts during a round drifts
# under all three alike instead of making one block look faster than the next, and each
# SLOW cap follows the speed of the moment. At 95% about 1 round in
# 20 may call NEW different by chance; SLOW should come out "slower" nearly every round
# when N runs resolve a PCT% change against the machine's noise.
#
#   bench/compare_power.sh [--runs N] [--rounds R] [--seconds S] [--slow PCT]
#                          [--pin LCPU,RCPU] [--iterations I]
#     defaults: 10 runs a side, 20 rounds, 1 s runs, 10% slower (20 x 30 runs: ~12 min),
#     unpinned, one iteration a run. --pin passes -T LCPU,RCPU to every run (the client on
#     LCPU, the daemon's session on RCPU); --iterations passes -i I,I (each run's figure
#     is then the mean of I back-to-back iterations of S seconds). docs/compare.md has the
#     spread each design gives on the development VM.
# Env: WS_BIN (default build/warpspeed). Exit 0 unless the daemon cannot start.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ws_bin=${WS_BIN:-$here/../build/warpspeed}
source "$here/lib.sh"
runs=10 rounds=20 secs=1 slow=10 iters=1
design=() # the options every run gets: -T, -i
while [ $# -gt 0 ]; do
	case $1 in
	--runs | --rounds | --seconds | --slow | --iterations)
		[[ ${2:-} =~ ^[1-9][0-9]*$ ]] || ws_usage_die "$1 '${2:-}': expected a positive integer"
		case $1 in --runs) runs=$2 ;; --rounds) rounds=$2 ;; --seconds) secs=$2 ;; --slow) slow=$2 ;; --iterations) iters=$2 ;; esac
		shift 2 ;;
	--pin)
		ncpu=$(getconf _NPROCESSORS_ONLN)
		[[ ${2:-} =~ ^([0-9]+),([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -lt "$ncpu" ] && [ "${BASH_REMATCH[2]}" -lt "$ncpu" ] ||
			ws_usage_die "--pin '${2:-}': expected LCPU,RCPU, two CPU numbers from 0 to $((ncpu - 1)) (e.g. 0,0)"
		design+=(-T "$2")
		shift 2 ;;
	*) ws_usage_die "unknown argument '$1'; expected --runs, --rounds, --seconds, --slow, --pin or --iterations" ;;
	esac
done
[ "$slow" -lt 100 ] || ws_usage_die "--slow $slow: expected a percentage below 100"
if [ "$iters" -ne 1 ] && { [ "$iters" -lt 3 ] || [ "$iters" -gt 30 ]; }; then
	ws_usage_die "--iterations $iters: expected 1 (a plain run) or 3 to 30 (-i's range)"
fi
[ "$iters" -eq 1 ] || design+=(-i "$iters,$iters")
[ -x "$ws_bin" ] || ws_die "$ws_bin not built (make)"

ws_bench_serve "$ws_bin"

# one FILE [ARGS...]: one run, its document appended to FILE.
one() {
	local f=$1
	shift
	"$ws_bin" -H 127.0.0.1 -p "$port" -t TCP_RR -l "$secs" ${design[@]+"${design[@]}"} --json "$@" >>"$f" 2>"$work/err" ||
		{ echo "a run failed: $(cat "$work/err")" >&2; return 1; }
}
# last FILE: the throughput of FILE's last document.
last() {
	awk '/"throughput": \{/ { t = 1; next } t && /"value":/ { gsub(/[^0-9.eE+-]/, "", $2); v = $2; t = 0 } END { print v }' "$1"
}
# round: N turns of OLD, NEW and SLOW (capped PCT% below that turn's OLD run).
round() {
	: >"$work/old.json"
	: >"$work/new.json"
	: >"$work/slow.json"
	local i rate
	for i in $(seq 1 "$runs"); do
		one "$work/old.json" || return 1
		rate=$(awk -v m="$(last "$work/old.json")" -v p="$slow" 'BEGIN { printf "%.0f", m * (100 - p) / 100 }')
		one "$work/new.json" || return 1
		one "$work/slow.json" --rate "$rate" || return 1
	done
}
# The median throughput value of a file's documents.
median() {
	awk '/"throughput": \{/ { t = 1; next } t && /"value":/ { gsub(/[^0-9.eE+-]/, "", $2); print $2; t = 0 }' "$1" |
		ws_stats | awk '{ print $1 }'
}
# cv FILE: the coefficient of variation (sd / mean, %) of FILE's throughputs.
cv() {
	awk '/"throughput": \{/ { t = 1; next } t && /"value":/ { gsub(/[^0-9.eE+-]/, "", $2); v = $2 + 0; n++; s += v; q += v * v; t = 0 }
		END { m = s / n; printf "%.1f", (n > 1 && m > 0 ? 100 * sqrt((q - n * m * m) / (n - 1)) / m : 0) }' "$1"
}
verdict() {
	"$ws_bin" compare "$1" "$2" | awk '$1 == "throughput" { sub(/.*\] +/, ""); sub(/ \(.*/, ""); print }'
}

same=0 slower=0 done_rounds=0
declare -A seen_a=() seen_b=()
for r in $(seq 1 "$rounds"); do
	round || continue
	m=$(median "$work/old.json")
	rate=$(median "$work/slow.json")
	a=$(verdict "$work/old.json" "$work/new.json")
	b=$(verdict "$work/old.json" "$work/slow.json")
	done_rounds=$((done_rounds + 1))
	[ "$a" = "no change" ] && same=$((same + 1))
	[ "$b" = slower ] && slower=$((slower + 1))
	seen_a[$a]=$((${seen_a[$a]:-0} + 1))
	seen_b[$b]=$((${seen_b[$b]:-0} + 1))
	printf 'round %d (%s): old median %.0f Trans/s (CV %s%%); same binary: %s; capped %d%% below each old run (median %.0f/s, %.3f of old): %s\n' \
		"$r" "$(ws_host_label)" "$m" "$(cv "$work/old.json")" "$a" "$slow" "$rate" "$(awk -v a="$rate" -v b="$m" 'BEGIN { print a / b }')" "$b"
done
echo "== $done_rounds rounds of $runs vs $runs TCP_RR runs of $secs s${design[*]+ (${design[*]})}"
echo "same binary:  'no change' in $same of $done_rounds ($(for k in "${!seen_a[@]}"; do printf '%s: %d; ' "$k" "${seen_a[$k]}"; done))"
echo "slowed $slow%: 'slower' in $slower of $done_rounds ($(for k in "${!seen_b[@]}"; do printf '%s: %d; ' "$k" "${seen_b[$k]}"; done))"
