#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Issue 16's side-by-side check, not run in CI: the same stock netperf 2.7 client against
# `warpspeed serve` and against a real netserver, both on free loopback ports, taking turns
# within each round (the order alternates round by round) so that drift of a shared machine
# hits both alike. Per test the median of the rounds for each daemon and the ratio
# warpspeed/netserver; the goal is a ratio within 0.95..1.05 (the daemon must not change
# what netperf measures). The figure is netperf's own: -o THROUGHPUT for the omni tests
# (for UDP_STREAM that is what the daemon received), -P 0 -v 0 for TCP_SENDFILE.
#
#   bench/netperf_daemon.sh [--rounds N] [--seconds S] [--tests LIST] [-- netperf args]
#     defaults: 5 rounds of 2 s, all seven tests; LIST separated by commas; arguments after
#     -- go to every netperf run (e.g. -- -T 0,1).
# Env: WS_BIN (default build/warpspeed), NETPERF, NETSERVER. Exit 0 unless a daemon cannot
# start; a ratio outside the goal is reported as MISS, not an error.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
ws_bin=${WS_BIN:-$root/build/warpspeed}
NETPERF=${NETPERF:-netperf}
NETSERVER=${NETSERVER:-netserver}
rounds=5 secs=2 tests=TCP_STREAM,TCP_MAERTS,TCP_SENDFILE,TCP_RR,TCP_CRR,UDP_STREAM,UDP_RR
extra=()
while [ $# -gt 0 ]; do
	case $1 in
	--rounds | --seconds)
		[[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "usage error: $1 '${2:-}': expected a positive integer" >&2; exit 2; }
		[ "$1" = --rounds ] && rounds=$2 || secs=$2
		shift 2 ;;
	--tests) tests=${2:?--tests needs a list}; shift 2 ;;
	--) shift; extra=("$@"); break ;;
	*) echo "usage error: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
command -v "$NETPERF" >/dev/null && command -v "$NETSERVER" >/dev/null ||
	{ echo "error: netperf and netserver are needed (Debian non-free: apt-get install netperf)" >&2; exit 1; }
[ -x "$ws_bin" ] || { echo "error: $ws_bin not built (make)" >&2; exit 1; }

tmp=$(mktemp -d)
pids=()
cleanup() { local p; for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
free_port() { local p=$1; while ss -Htan "( sport = :$p )" | grep -q .; do p=$((p + 1)); done; echo "$p"; }
listening() { local i; for i in $(seq 100); do ss -Hltn "( sport = :$1 )" | grep -q . && return 0; sleep 0.05; done; return 1; }

NS=$(free_port 25865)
"$NETSERVER" -D -p "$NS" -L 127.0.0.1,inet >"$tmp/netserver.log" 2>&1 &
pids+=($!)
listening "$NS" || { cat "$tmp/netserver.log" >&2; echo "error: netserver did not start" >&2; exit 1; }
WS=$(free_port $((NS + 1)))
"$ws_bin" serve -p "$WS" -L 127.0.0.1 2>"$tmp/serve.log" &
pids+=($!)
listening "$WS" || { cat "$tmp/serve.log" >&2; echo "error: warpspeed serve did not start" >&2; exit 1; }

# one FIGURE of netperf -t TEST against PORT, or "-" when the run failed
run() {
	local port=$1 t=$2 out
	if [ "$t" = TCP_SENDFILE ]; then
		out=$(timeout $((secs + 30)) "$NETPERF" -H 127.0.0.1 -p "$port" -t "$t" -l "$secs" -P 0 -v 0 "${extra[@]}" 2>/dev/null)
	else
		out=$(timeout $((secs + 30)) "$NETPERF" -H 127.0.0.1 -p "$port" -t "$t" -l "$secs" -P 0 "${extra[@]}" -- -o THROUGHPUT 2>/dev/null | tail -n 1)
	fi
	[[ $out =~ ^[[:space:]]*([0-9]+\.?[0-9]*)[[:space:]]*$ ]] && echo "${BASH_REMATCH[1]}" || echo -
}
median() { tr ' ' '\n' | grep -v '^-\?$' | sort -g | awk '{ v[NR] = $1 } END { if (!NR) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "netperf $("$NETPERF" -V 2>&1 | sed -n 's/.*version //p') against netserver (port $NS) and $("$ws_bin" --version 2>/dev/null | head -n 1) serve (port $WS), loopback, $rounds rounds of $secs s${extra[*]:+, netperf ${extra[*]}}"
printf '%-13s %14s %14s %7s  %s\n' test netserver warpspeed ratio "rounds (netserver/warpspeed)"
for t in ${tests//,/ }; do
	a=() b=()
	for r in $(seq "$rounds"); do
		if [ $((r % 2)) -eq 1 ]; then a+=("$(run "$NS" "$t")"); b+=("$(run "$WS" "$t")")
		else b+=("$(run "$WS" "$t")"); a+=("$(run "$NS" "$t")"); fi
	done
	ma=$(echo "${a[*]}" | median) mb=$(echo "${b[*]}" | median)
	ratio=$(awk -v a="$ma" -v b="$mb" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.3f", b / a; else print "-" }')
	verdict=$(awk -v r="$ratio" 'BEGIN { print (r != "-" && r >= 0.95 && r <= 1.05) ? "ok" : "MISS" }')
	printf '%-13s %14s %14s %7s  %s  %s\n' "$t" "$ma" "$mb" "$ratio" "$verdict" "${a[*]} / ${b[*]}"
done
