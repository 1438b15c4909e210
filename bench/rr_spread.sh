#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# How much TCP_RR's Trans/s scatters from run to run on this host's loopback, per design
# of a run, not run in CI: compare (docs/compare.md) resolves a 10% change with 10 runs
# a side only when the runs' spread is well under 10%, so before gating on it, measure
# what the runner gives. Each CONFIG is a set of client options (e.g. '-T 0,0', '-l 3',
# '-i 5,5', '--streams 1'); the configurations take turns run by run against one
# `warpspeed serve`, so a host whose load changes disturbs all of them alike. Per
# configuration it prints the runs, median, coefficient of variation (sd / mean),
# interquartile range and full range (both in % of the median), and the host label
# (DAMON, load average) before and after.
#
#   bench/rr_spread.sh [--runs N] [--seconds S] [CONFIG...]
#     defaults: 15 runs, 1 s (-l S comes first, so a CONFIG's own -l wins); no CONFIG:
#     '' (unpinned), '-T 0,0', '-T 0,1', '-l 3'. The interquartile range runs from the k-th
#     smallest to the k-th largest run, k = ceil(N/4).
# Env: WS_BIN (default build/warpspeed). Exit 0 unless the daemon cannot start.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ws_bin=${WS_BIN:-$here/../build/warpspeed}
source "$here/lib.sh"
runs=15 secs=1
configs=()
while [ $# -gt 0 ]; do
	case $1 in
	--runs | --seconds)
		[[ ${2:-} =~ ^[1-9][0-9]*$ ]] || ws_usage_die "$1 '${2:-}': expected a positive integer"
		case $1 in --runs) runs=$2 ;; --seconds) secs=$2 ;; esac
		shift 2 ;;
	--*) [[ $1 == *' '* ]] || ws_usage_die "unknown option '$1'; expected --runs, --seconds or CONFIG (client options in one word, e.g. '-T 0,0')"
		configs+=("$1"); shift ;;
	*) configs+=("$1"); shift ;;
	esac
done
[ "$runs" -ge 2 ] || ws_usage_die "--runs $runs: expected at least 2 (a spread needs two runs)"
[ ${#configs[@]} -gt 0 ] || configs=("" "-T 0,0" "-T 0,1" "-l 3")
[ -x "$ws_bin" ] || ws_die "$ws_bin not built (make)"

ws_bench_serve "$ws_bin"

echo "before: $(ws_host_label)"
for r in $(seq 1 "$runs"); do
	for c in "${!configs[@]}"; do
		# shellcheck disable=SC2086 # a CONFIG is several options in one word
		"$ws_bin" -H 127.0.0.1 -p "$port" -t TCP_RR -l "$secs" ${configs[$c]} --json 2>"$work/err" |
			awk '/"throughput": \{/ { t = 1; next } t && /"value":/ { gsub(/[^0-9.eE+-]/, "", $2); print $2; t = 0 }' >>"$work/c$c"
		[ "${PIPESTATUS[0]}" -eq 0 ] || ws_die "run $r of '${configs[$c]}' failed: $(cat "$work/err")"
	done
done
echo "after:  $(ws_host_label)"
printf '%-24s %4s %9s %6s %8s %9s %9s %7s\n' config runs median CV IQR/med min max range
for c in "${!configs[@]}"; do
	sort -g "$work/c$c" | awk -v l="${configs[$c]:-(unpinned)}" '{ v[NR] = $1; s += $1; q += $1 * $1 }
	END {
		m = s / NR; sd = sqrt((q - NR * m * m) / (NR - 1))
		med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		k = int((NR + 3) / 4); iqr = v[NR + 1 - k] - v[k]
		printf "%-24s %4d %9.0f %5.1f%% %7.1f%% %9.0f %9.0f %6.1f%%\n", l, NR, med, 100 * sd / m,
			100 * iqr / med, v[1], v[NR], 100 * (v[NR] - v[1]) / med
	}'
done
