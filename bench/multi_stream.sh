#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Issue 7's benchmark: many streams on loopback. Rounds alternate warpspeed
# --streams 4 --threads 2, iperf3 -P 4 and warpspeed with one stream, and the script
# prints the medians and the ratios warpspeed-4/iperf3-4 and warpspeed-4/warpspeed-1.
# Then 1000 TCP flows for 5 s against a daemon whose peak RSS (VmHWM) is reported.
#
#   bench/multi_stream.sh [--rounds N] [--secs S]     (defaults 5 rounds of 3 s)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib.sh"

ws_bench_args "$@"
ws_bin=${WS_BIN:-$root/build/warpspeed}
command -v iperf3 >/dev/null || ws_die "needs iperf3 (Debian package iperf3)"
ws_bench_loopback_servers 40000
daemon=$ws_srv

ws_run() { "$ws_bin" -H 127.0.0.1 -p "$ws_port" -l "$secs" -P 0 "$@" | awk '{print $5}'; }
ip3_run() {
	iperf3 -c 127.0.0.1 -p "$ip3_port" -t "$secs" -P 4 --json |
		awk '/"sum_received"/{f=1} f && /"bits_per_second"/{gsub(/,/, "", $2); printf "%.2f\n", $2 / 1e6; exit}'
}
printf '%-6s %-22s %s\n' round tool 10^6bits/s
for r in $(seq 1 "$rounds"); do
	a=$(ws_run --streams 4 --threads 2); echo "$a" >>"$work/ws4"; printf '%-6s %-22s %s\n' "$r" "warpspeed --streams 4" "$a"
	b=$(ip3_run); echo "$b" >>"$work/ip3"; printf '%-6s %-22s %s\n' "$r" "iperf3 -P 4" "$b"
	c=$(ws_run); echo "$c" >>"$work/ws1"; printf '%-6s %-22s %s\n' "$r" "warpspeed 1 stream" "$c"
	paste -d' ' <(echo "$a") <(echo "$b") <(echo "$c") | awk '{printf "%.4f %.4f\n", $1/$2, $1/$3}' >>"$work/ratios"
done
read -r m4 _ <<<"$(ws_stats <"$work/ws4")"
read -r mi _ <<<"$(ws_stats <"$work/ip3")"
read -r m1 _ <<<"$(ws_stats <"$work/ws1")"
read -r rq _ <<<"$(awk '{print $1}' "$work/ratios" | ws_stats)"
read -r rs _ <<<"$(awk '{print $2}' "$work/ratios" | ws_stats)"
echo "medians over $rounds rounds of $secs s: warpspeed --streams 4 --threads 2 $m4, iperf3 -P 4 $mi, warpspeed 1 stream $m1 (10^6bits/s)"
echo "median ratio warpspeed-4 / iperf3-4: $rq; warpspeed-4 / warpspeed-1: $rs"

out=$("$ws_bin" -H 127.0.0.1 -p "$ws_port" -l 5 -v 2 --streams 1000 --threads 2 2>&1)
echo "$out" | grep -E "^[0-9]+ streams,"
echo "1000 flows aggregate: $(echo "$out" | sed -n 7p | awk '{print $5}') 10^6bits/s; daemon peak RSS: $(awk '/VmHWM/{print $2, $3}' /proc/$daemon/status)"
