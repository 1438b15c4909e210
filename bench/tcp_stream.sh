#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Loopback TCP_STREAM, warpspeed against iperf3 (issue 2's benchmark): the two tools take
# turns (ws, iperf3, ws, iperf3, ...) so that drift of a shared machine hits both alike,
# and the script prints the median over rounds of the throughput ratio warpspeed/iperf3
# and of the ratio of sender CPU time per byte. Both senders are measured the same way: the
# client process runs under /usr/bin/time (user + system seconds), the bytes come from each
# tool's own report, and each talks to a separately started server so that the client's
# CPU time is the sender's alone.
# Both write 128 KiB per call (iperf3's default; warpspeed gets -- -m 128K, since its
# netperf default is the send buffer size, 16 KiB on Linux).
# Both pin the sender to CPU 0 and the receiver to CPU 1 (-T 0,1 and -A 0,1): on two vCPUs,
# where the receiver's softirq work lands otherwise decides the CPU figures more than the tool.
#
#   bench/tcp_stream.sh [--rounds N] [--secs S]     (defaults 5 rounds of 3 s)
# Env: WS_BIN (default build/warpspeed), and when run by bench/run, WS_BENCH_SAMPLES and
# WS_BENCH_NOTES, files to append samples ("scenario tool metric unit value") and notes to.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

ws_bench_args "$@"

ws_bin=${WS_BIN:-$root/build/warpspeed}
samples=${WS_BENCH_SAMPLES:-}
notes=${WS_BENCH_NOTES:-}
scenario=tcp_stream/loopback

for t in iperf3 /usr/bin/time; do
	command -v "$t" >/dev/null 2>&1 || ws_die "needs $t (Debian packages iperf3, time)"
done
"$ws_bin" -V >/dev/null 2>&1 || ws_die "warpspeed at $ws_bin does not run ('$ws_bin -V' failed); build it with make"

ws_bench_loopback_servers 20000

# cpu_us_per_kb TIMEFILE BYTES: sender CPU (user+system) per KiB, like netperf's us/KB.
cpu_us_per_kb() {
	awk -v b="$2" '{ split($0, t, "+"); cpu = t[1] + t[2] } END { printf "%.4f\n", cpu * 1e6 / (b / 1024) }' "$1"
}

run_ws() { # -> "mbps us_per_kb"
	/usr/bin/time -f '%U+%S' -o "$work/time" \
		"$ws_bin" -H 127.0.0.1 -p "$ws_port" -l "$secs" -T 0,1 -P 0 -v 1 -- -m 128K >"$work/ws.out" 2>"$work/ws.err" ||
		{ echo "warpspeed client failed: $(head -c 300 "$work/ws.err")" >&2; return 1; }
	local row mbps elapsed bytes
	row=$(awk 'NF >= 5 { r = $0 } END { print r }' "$work/ws.out")
	elapsed=$(echo "$row" | awk '{ print $4 }')
	mbps=$(echo "$row" | awk '{ print $5 }')
	[[ $mbps =~ ^[0-9.]+$ ]] || { echo "cannot read warpspeed's throughput from: $row" >&2; return 1; }
	bytes=$(awk -v m="$mbps" -v e="$elapsed" 'BEGIN { printf "%.0f", m * 1e6 / 8 * e }')
	echo "$mbps $(cpu_us_per_kb "$work/time" "$bytes")"
}

# iperf3_field FILE SECTION KEY: a number from iperf3 --json's "end" section.
iperf3_field() {
	awk -v s="\"$2\"" -v k="\"$3\"" '$1 == s":" { f = 1 } f && $1 == k":" { gsub(/,/, "", $2); print $2; exit }' "$1"
}

run_ip3() {
	/usr/bin/time -f '%U+%S' -o "$work/time" \
		iperf3 -c 127.0.0.1 -p "$ip3_port" -t "$secs" -A 0,1 --json >"$work/ip3.json" 2>"$work/ip3.err" ||
		{ echo "iperf3 client failed: $(head -c 300 "$work/ip3.err")" >&2; return 1; }
	local bps bytes
	bps=$(iperf3_field "$work/ip3.json" sum_received bits_per_second)
	bytes=$(iperf3_field "$work/ip3.json" sum_sent bytes)
	if [ -z "$bps" ] || [ -z "$bytes" ]; then echo "cannot read iperf3's JSON report" >&2; return 1; fi
	echo "$(awk -v b="$bps" 'BEGIN { printf "%.2f", b / 1e6 }') $(cpu_us_per_kb "$work/time" "$bytes")"
}

record() { # TOOL METRIC UNIT VALUE
	[ -n "$samples" ] && printf '%s\t%s\t%s\t%s\t%s\n' "$scenario" "$1" "$2" "$3" "$4" >>"$samples"
	return 0
}

printf '%-6s %-10s %12s %14s\n' round tool 10^6bits/s "sender us/KB"
: >"$work/ratios"
for r in $(seq 1 "$rounds"); do
	ws=$(run_ws) || exit 1
	ip3=$(run_ip3) || exit 1
	read -r ws_mbps ws_sd <<<"$ws"
	read -r ip_mbps ip_sd <<<"$ip3"
	printf '%-6s %-10s %12s %14s\n' "$r" warpspeed "$ws_mbps" "$ws_sd" "$r" iperf3 "$ip_mbps" "$ip_sd"
	record warpspeed throughput Mbit/s "$ws_mbps"
	record warpspeed sender_cpu us/KB "$ws_sd"
	record iperf3 throughput Mbit/s "$ip_mbps"
	record iperf3 sender_cpu us/KB "$ip_sd"
	awk -v a="$ws_mbps" -v b="$ip_mbps" -v c="$ws_sd" -v d="$ip_sd" \
		'BEGIN { printf "%.4f %.4f\n", a / b, (d > 0 ? c / d : 0) }' >>"$work/ratios"
done

read -r thr_med thr_min thr_max _ < <(awk '{ print $1 }' "$work/ratios" | ws_stats)
read -r cpu_med cpu_min cpu_max _ < <(awk '{ print $2 }' "$work/ratios" | ws_stats)
line1="tcp_stream loopback, $rounds rounds of $secs s: throughput warpspeed/iperf3 median $thr_med (min $thr_min, max $thr_max)"
line2="tcp_stream loopback, $rounds rounds of $secs s: sender CPU per byte warpspeed/iperf3 median $cpu_med (min $cpu_min, max $cpu_max; below 1 means warpspeed spends less)"
echo "$line1"
echo "$line2"
[ -n "$notes" ] && printf '%s\n%s\n' "$line1" "$line2" >>"$notes"
exit 0
