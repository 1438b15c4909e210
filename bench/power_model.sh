#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# How often compare calls an N vs N shift of PCT% "slower", as a function of the runs'
# spread, by simulation, not run in CI: the yardstick for bench/rr_spread.sh's figures
# (docs/compare.md, "How small the spread must be"). Each trial draws N old and N new
# log-throughputs from normal noise of the given sd, the new ones shifted by log(1 -
# PCT/100), and applies compare's rule (src/measure/ratio.c): the 95% interval's upper end
# is the k-th largest of the N x N pairwise differences, k the smallest u with
# P(U <= u) >= 2.5% under U's exact null distribution, so "slower" is at most k - 1
# pairs with new >= old. Prints per sd the share of trials called slower and the
# chance that at least 19 rounds of 20 are. Plain awk (no python), seeded (srand(1)): the
# same awk prints the same figures; mawk and gawk draw differently, within a few %.
#
#   bench/power_model.sh [--runs N] [--shift PCT] [--trials T] [SD%...]
#     defaults: 10 runs a side, a 10% shift, 2000 trials, sds 3 5 6 7 8 10 15 25
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/lib.sh"
runs=10 shift_pct=10 trials=2000
sds=()
while [ $# -gt 0 ]; do
	case $1 in
	--runs | --shift | --trials)
		[[ ${2:-} =~ ^[1-9][0-9]*$ ]] || ws_usage_die "$1 '${2:-}': expected a positive integer"
		case $1 in --runs) runs=$2 ;; --shift) shift_pct=$2 ;; --trials) trials=$2 ;; esac
		shift 2 ;;
	*)
		[[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]] || ws_usage_die "'$1': expected --runs, --shift, --trials or an sd in % (e.g. 5)"
		sds+=("$1")
		shift ;;
	esac
done
[ "$runs" -ge 4 ] && [ "$runs" -le 50 ] || ws_usage_die "--runs $runs: expected 4 to 50 (an interval needs 4 a side)"
[ "$shift_pct" -lt 100 ] || ws_usage_die "--shift $shift_pct: expected a percentage below 100"
[ ${#sds[@]} -gt 0 ] || sds=(3 5 6 7 8 10 15 25)

awk -v n="$runs" -v pct="$shift_pct" -v trials="$trials" -v sdl="${sds[*]}" 'BEGIN {
	srand(1)
	# U distribution for n vs n: f[a, b, u] orderings of a old and b new with U = u.
	for (a = 0; a <= n; a++) for (b = 0; b <= n; b++) {
		if (a == 0 || b == 0) { f[a, b, 0] = 1; continue }
		for (u = 0; u <= a * b; u++)
			f[a, b, u] = (u >= b ? f[a - 1, b, u - b] : 0) + f[a, b - 1, u]
	}
	total = 0; for (u = 0; u <= n * n; u++) total += f[n, n, u]
	cum = 0; for (k = 0; k <= n * n; k++) { cum += f[n, n, k]; if (cum / total >= 0.025) break }
	printf "%d vs %d runs, shift %d%%, k = %d, %d trials a row\n", n, n, pct, k, trials
	printf "%-10s %-22s %s\n", "sd of a run", "a round says slower", "at least 19 of 20 rounds"
	d = log(1 - pct / 100)
	ns = split(sdl, sd, " ")
	for (s = 1; s <= ns; s++) {
		sg = sd[s] / 100; hit = 0
		for (t = 0; t < trials; t++) {
			for (i = 1; i <= n; i++) { o[i] = sg * gauss(); w[i] = d + sg * gauss() }
			ge = 0
			for (i = 1; i <= n; i++) for (j = 1; j <= n; j++) if (w[j] >= o[i]) ge++
			if (ge <= k - 1) hit++
		}
		p = hit / trials
		printf "%-10s %-22s %.0f%%\n", sd[s] "%", sprintf("%.0f%%", 100 * p), 100 * (p ^ 20 + 20 * p ^ 19 * (1 - p))
	}
}
function gauss(   u, v) { u = rand(); v = rand(); if (u < 1e-300) u = 1e-300; return sqrt(-2 * log(u)) * cos(6.283185307179586 * v) }'
