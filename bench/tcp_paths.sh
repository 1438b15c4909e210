#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Issue 6's TCP benchmarks on loopback, tools alternating round by round:
#   sendfile:  warpspeed -t TCP_SENDFILE        vs iperf3 -Z   (client sends)
#   maerts:    warpspeed -t TCP_MAERTS          vs iperf3 -R   (server sends)
#   skip-rx:   warpspeed MAERTS --skip-rx-copy  vs warpspeed plain MAERTS (client receives)
#   skip-rx-stream: TCP_STREAM --skip-rx-copy   vs plain TCP_STREAM (the daemon receives)
#   skip-rx-1cpu: the same with both ends on CPU 0 (-T 0,0)
#   skip-rx-free: the same with nothing pinned (the scheduler's placement)
# Throughput comes from each tool's own report; CPU time per byte from the measured
# process's utime+stime (/proc/PID/stat of the long-running server, or the client's own),
# so both tools are charged the same way: the sender for sendfile and maerts, the
# receiver for skip-rx, the sender (the client) for the TCP_STREAM variants. On two
# vCPUs of loopback the sender's CPU is the bottleneck, so MSG_TRUNC's saving shows partly
# as receiver CPU; with both ends sharing one CPU, all of the saved copy is throughput.
# Both write 128 KiB per call and pin the client to CPU 0 and the server to CPU 1 unless
# said; the sendfile source is a 128 KiB file, the size of the buffer file iperf3 -Z sends.
#
#   bench/tcp_paths.sh [--rounds N] [--secs S]
#                      [--only sendfile,maerts,skip-rx,skip-rx-stream,skip-rx-1cpu,skip-rx-free]
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
. "$here/lib.sh"
ws_bench_args "$@"
ws_bin=${WS_BIN:-$root/build/warpspeed}
command -v iperf3 >/dev/null || ws_die "needs iperf3 (Debian package iperf3)"
ws_bench_loopback_servers 50000
hz=$(getconf CLK_TCK)
head -c $((128 << 10)) /dev/urandom >"$work/128k.bin"

cpu_s() { awk -v hz="$hz" '{print ($14 + $15) / hz}' "/proc/$1/stat"; }

# warpspeed run: prints "mbps sender_cpu_s bytes"; $1 = where the sender is (client|server)
ws_run() {
	local who=$1; shift
	local c0; c0=$(cpu_s $ws_srv)
	local -a pin=(-T "${ws_pin:-0,1}"); [ "${ws_pin:-}" = none ] && pin=()
	/usr/bin/time -f '%U %S' -o "$work/t" "$ws_bin" -H 127.0.0.1 -p "$ws_port" -l "$secs" "${pin[@]}" -P 0 "$@" >"$work/ws.out" 2>/dev/null || return 1
	local c1; c1=$(cpu_s $ws_srv)
	local mbps el; read -r _ _ _ el mbps _ <"$work/ws.out"
	local bytes; bytes=$(awk -v m="$mbps" -v e="$el" 'BEGIN{printf "%.0f", m * 1e6 / 8 * e}')
	local cpu
	if [ "$who" = client ]; then cpu=$(awk '{print $1 + $2}' "$work/t"); else cpu=$(awk -v a="$c0" -v b="$c1" 'BEGIN{print b - a}'); fi
	echo "$mbps $cpu $bytes"
}
ip3_run() {
	local who=$1; shift
	local c0; c0=$(cpu_s $ip3_srv)
	/usr/bin/time -f '%U %S' -o "$work/t" iperf3 -c 127.0.0.1 -p "$ip3_port" -t "$secs" -A 0,1 --json "$@" >"$work/ip3.json" 2>/dev/null || return 1
	local c1; c1=$(cpu_s $ip3_srv)
	local bps bytes
	bps=$(awk '/"sum_received"/{f=1} f && /"bits_per_second"/{gsub(/,/, "", $2); print $2; exit}' "$work/ip3.json")
	bytes=$(awk '/"sum_received"/{f=1} f && /"bytes"/{gsub(/,/, "", $2); print $2; exit}' "$work/ip3.json")
	local cpu
	if [ "$who" = client ]; then cpu=$(awk '{print $1 + $2}' "$work/t"); else cpu=$(awk -v a="$c0" -v b="$c1" 'BEGIN{print b - a}'); fi
	echo "$(awk -v b="$bps" 'BEGIN{printf "%.2f", b / 1e6}') $cpu $bytes"
}
usperkb() { awk -v c="$1" -v b="$2" 'BEGIN{ if (b > 0) printf "%.4f", c * 1e6 / (b / 1024); else print "nan" }'; }

scenario() { # name, A-command..., "::", B-command...
	local name=$1; shift
	ws_bench_wanted "$name" || return 0
	local -a a=() b=(); while [ "$1" != "::" ]; do a+=("$1"); shift; done; shift; b=("$@")
	: >"$work/$name.tput"; : >"$work/$name.cpu"
	for r in $(seq 1 "$rounds"); do
		local ra rb
		ra=$("${a[@]}") || { echo "$name round $r: ${a[*]} failed" >&2; continue; }
		rb=$("${b[@]}") || { echo "$name round $r: ${b[*]} failed" >&2; continue; }
		read -r ta ca ba <<<"$ra"; read -r tb cb bb <<<"$rb"
		printf '%-9s %-3s A %10s Mb/s %8s us/KB   B %10s Mb/s %8s us/KB\n' "$name" "$r" "$ta" "$(usperkb "$ca" "$ba")" "$tb" "$(usperkb "$cb" "$bb")"
		awk -v x="$ta" -v y="$tb" 'BEGIN{printf "%.4f\n", x / y}' >>"$work/$name.tput"
		awk -v x="$(usperkb "$ca" "$ba")" -v y="$(usperkb "$cb" "$bb")" 'BEGIN{ if (y > 0) printf "%.4f\n", x / y }' >>"$work/$name.cpu"
	done
	read -r mt lt ht _ <<<"$(ws_stats <"$work/$name.tput")"
	read -r mc lc hc _ <<<"$(ws_stats <"$work/$name.cpu")"
	echo "$name: median throughput ratio A/B $mt (min $lt, max $ht); median CPU-per-byte ratio A/B $mc (min $lc, max $hc)"
}
scenario sendfile ws_run client -t TCP_SENDFILE -F "$work/128k.bin" -- -m 128K :: ip3_run client -Z
scenario maerts ws_run server -t TCP_MAERTS -- -m 128K :: ip3_run server -R
scenario skip-rx ws_run client -t TCP_MAERTS -- -m 128K --skip-rx-copy :: ws_run client -t TCP_MAERTS -- -m 128K
scenario skip-rx-stream ws_run client -- -m 128K --skip-rx-copy :: ws_run client -- -m 128K
ws_pin=0,0 scenario skip-rx-1cpu ws_run client -- -m 128K --skip-rx-copy :: ws_run client -- -m 128K
ws_pin=none scenario skip-rx-free ws_run client -- -m 128K --skip-rx-copy :: ws_run client -- -m 128K
