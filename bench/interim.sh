#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# interim.sh: the cost of -D (issue 15 §4): loopback TCP_STREAM with -D 0.2 against the
# same run without -D, taking turns (plain, -D, plain, -D, ...) so that drift of a shared
# machine hits both alike. Prints each round's pair, the medians of both and the median of
# the per-round ratios (-D / plain), and checks that the -D median is within 2% of the
# plain one (exit 1 otherwise). Both pin the sender to CPU 0 and the receiver to CPU 1
# (-T 0,1), as bench/tcp_stream.sh does. The engine's cost of -D is one relaxed load and
# store per send call plus a reporter thread that wakes five times a second; on a loaded
# two-core machine the spread between rounds is larger than that, so read the ratio with
# the min/max printed beside it.
#
#   bench/interim.sh [--rounds N] [--secs S]     (defaults 5 rounds of 3 s)
# Env: WS_BIN (default build/warpspeed).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

ws_bench_args "$@"
ws_bin=${WS_BIN:-$root/build/warpspeed}
"$ws_bin" -V >/dev/null 2>&1 || ws_die "warpspeed at $ws_bin does not run ('$ws_bin -V' failed); build it with make"

work=$(mktemp -d)
pids=()
trap ws_bench_cleanup EXIT
trap 'exit 130' INT TERM
ws_port=$((27000 + $$ % 5000))
"$ws_bin" serve -p "$ws_port" -L 127.0.0.1 >"$work/ws-serve.log" 2>&1 &
pids+=($!)
ws_wait_listen "$ws_port"

run() { # [-D ARGS] -> the throughput (10^6bits/s) of the table's row
	"$ws_bin" -H 127.0.0.1 -p "$ws_port" -l "$secs" -T 0,1 -P 0 "$@" >"$work/out" 2>"$work/err" ||
		ws_die "warpspeed failed: $(head -c 300 "$work/err")"
	awk '!/^Interim/ && NF >= 5 { r = $5 } END { print r }' "$work/out"
}

: >"$work/plain"
: >"$work/demo"
: >"$work/ratio"
printf '%-6s %12s %12s %8s\n' round plain '-D 0.2' ratio
for r in $(seq 1 "$rounds"); do
	a=$(run)
	b=$(run -D 0.2)
	echo "$a" >>"$work/plain"
	echo "$b" >>"$work/demo"
	ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }')
	echo "$ratio" >>"$work/ratio"
	printf '%-6s %12s %12s %8s\n' "$r" "$a" "$b" "$ratio"
done
read -r pm pmin pmax _ < <(ws_stats <"$work/plain")
read -r dm dmin dmax _ < <(ws_stats <"$work/demo")
read -r rm rmin rmax _ < <(ws_stats <"$work/ratio")
echo "plain   median $pm (min $pmin max $pmax) 10^6bits/s"
echo "-D 0.2  median $dm (min $dmin max $dmax) 10^6bits/s"
echo "ratio of medians $(awk -v a="$pm" -v b="$dm" 'BEGIN { printf "%.4f", b / a }'); median of per-round ratios $rm (min $rmin max $rmax)"
if awk -v a="$pm" -v b="$dm" 'BEGIN { exit !(b >= 0.98 * a) }'; then
	echo "PASS -D 0.2 within 2% of the plain run (medians)"
else
	echo "FAIL -D 0.2 more than 2% below the plain run (medians)"
	exit 1
fi
