#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Issue 32's TCP_SENDFILE goal: the netperf-talk user's line, `-t TCP_SENDFILE -F` of a
# 10 MB file on loopback, warpspeed's client against netperf's, both against one stock
# netserver this script starts (so the only difference is the client's sendfile path), -c
# -C for CPU. Clients take turns within each round, the order rotating round by round, so
# that drift of a shared machine hits all alike: netperf, warpspeed on the epoll engine
# (sendfile(2)), warpspeed on io_uring (splices through a pipe). Per client the median
# throughput (10^6 bits/s) and local service demand (us/KB), with ranges; the ratios are
# warpspeed's median over netperf's. Goal (issue 32): throughput >= 1.0x, service demand
# <= 1.0x. A MISS is a measurement, not an error.
#
#   bench/sendfile.sh [--rounds N] [--seconds S] [-- ARGS]
#     defaults 5 rounds of 3 s; ARGS (e.g. -m 131072) go to both clients' test options.
# Env: WS_BIN (default build/warpspeed), NETPERF, NETSERVER.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
rounds=5 secs=3 extra=()
while [ $# -gt 0 ]; do
	case $1 in
	--rounds | --seconds)
		[[ ${2:-} =~ ^[1-9][0-9]*$ ]] || ws_usage_die "$1 '${2:-}': expected a positive integer"
		[ "$1" = --rounds ] && rounds=$2 || secs=$2
		shift 2 ;;
	--) shift; extra=("$@"); break ;;
	*) ws_usage_die "unknown argument '$1' (accepted: --rounds N, --seconds S, -- ARGS)" ;;
	esac
done
ws_bin=${WS_BIN:-$root/build/warpspeed} NETPERF=${NETPERF:-netperf} NETSERVER=${NETSERVER:-netserver}
command -v "$NETPERF" >/dev/null && command -v "$NETSERVER" >/dev/null ||
	ws_die "netperf and netserver are needed (Debian non-free: apt-get install netperf)"
"$ws_bin" -V >/dev/null 2>&1 || ws_die "'$ws_bin -V' fails (build it with make)"

work=$(mktemp -d)
ns=
cleanup() { [ -n "$ns" ] && kill "$ns" 2>/dev/null && wait "$ns" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
port=25960
while ss -Htan "( sport = :$port )" | grep -q .; do port=$((port + 1)); done
"$NETSERVER" -D -p "$port" -L 127.0.0.1,inet >"$work/netserver.log" 2>&1 &
ns=$!
ws_wait_listen "$port" || ws_die "netserver did not start: $(cat "$work/netserver.log")"
head -c 10000000 /dev/urandom >"$work/10m.bin"
ws_host_noise sendfile

# one "throughput service_demand" line, or nothing when the run failed
run_netperf() { # classic output, -P 0: ... throughput utl utr sdl sdr
	timeout $((secs + 30)) "$NETPERF" -H 127.0.0.1 -p "$port" -t TCP_SENDFILE -F "$work/10m.bin" \
		-l "$secs" -c -C -P 0 ${extra[@]+-- "${extra[@]}"} 2>"$work/err" |
		awk 'NF >= 9 { print $5, $8; exit }'
}
run_ws() { # $1 = engine
	timeout $((secs + 30)) "$ws_bin" -H 127.0.0.1 -p "$port" -t TCP_SENDFILE -F "$work/10m.bin" \
		-l "$secs" -c -C -P 0 -- --engine "$1" ${extra[@]+"${extra[@]}"} -o THROUGHPUT,LOCAL_SD \
		2>"$work/err" | tail -n 1 | tr , ' '
}
clients=(netperf epoll io_uring)
: >"$work/samples"
for r in $(seq 1 "$rounds"); do
	k=$(((r - 1) % 3))
	for c in "${clients[@]:k}" "${clients[@]:0:k}"; do
		if [ "$c" = netperf ]; then v=$(run_netperf); else v=$(run_ws "$c"); fi
		[ -n "$v" ] || { echo "round $r $c failed: $(head -c 300 "$work/err")" >&2; continue; }
		echo "$c $v" >>"$work/samples"
	done
	echo "round $r of $rounds done" >&2
done

col() { awk -v c="$1" -v k="$2" '$1 == c { print $k }' "$work/samples" | ws_stats; }
read -r nt nt0 nt1 nn < <(col netperf 2)
read -r ns_ ns0 ns1 _ < <(col netperf 3)
echo "# TCP_SENDFILE -F 10 MB, loopback, against one netserver ($rounds rounds of $secs s, rotating; $(ws_host_label))"
echo
echo "Command: bench/sendfile.sh --rounds $rounds --seconds $secs${extra[*]:+ -- ${extra[*]}}; $(nproc) CPUs, $(uname -r)"
echo
echo "| client | throughput median (min-max) | ratio | local SD us/KB median (min-max) | ratio | verdict (>= 1.0x, <= 1.0x) |"
echo "|---|---|---|---|---|---|"
echo "| netperf | $nt ($nt0-$nt1, n=$nn) | 1 | $ns_ ($ns0-$ns1) | 1 | - |"
for c in epoll io_uring; do
	read -r t t0 t1 n < <(col "$c" 2)
	read -r s s0 s1 _ < <(col "$c" 3)
	rt=$(awk -v a="$t" -v b="$nt" 'BEGIN { if (b + 0 > 0) printf "%.3f", a / b; else print "-" }')
	rs=$(awk -v a="$s" -v b="$ns_" 'BEGIN { if (b + 0 > 0) printf "%.3f", a / b; else print "-" }')
	v=$(awk -v t="$rt" -v s="$rs" 'BEGIN { print (t != "-" && s != "-" && t >= 1.0 && s <= 1.0) ? "MET" : "MISS" }')
	echo "| warpspeed --engine $c | $t ($t0-$t1, n=$n) | $rt | $s ($s0-$s1) | $rs | $v |"
done
