#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Loopback UDP_STREAM, warpspeed against iperf3 (issue 6's benchmark): the tools take turns
# (warpspeed, warpspeed --gso --gro, iperf3, ...) so that drift of a shared machine hits all
# alike, and the script prints per round the goodput the *receiver* got and the loss it saw,
# then the medians over rounds and the median of the per-round ratios to iperf3.
#   warpspeed -t UDP_STREAM --flow-control -- -m 1472             (sendmmsg/recvmmsg)
#   warpspeed -t UDP_STREAM --flow-control --gso --gro -- -m 1472 (UDP_SEGMENT, UDP_GRO)
# Both use --flow-control, the fastest of warpspeed's opt-in sending modes at <= 0.1% loss
# (the sender keeps to the receiver's window, on large default buffers); warpspeed's
# default is netperf's blast, which on loopback loses most of what it sends.
#   iperf3 -u -b 0 -l 1472 -w 4M                     (flat out, 4 MiB socket buffers)
# Goodput is payload bits per second received: warpspeed's receiver row, iperf3's
# sum_received. Loss is warpspeed's lost/(received+lost) and iperf3's lost_percent. The
# target is >= 5x iperf3 at <= 0.1% loss; the verdict line says, for each of warpspeed's two
# paths, whether this run met it. Nothing is pinned: both tools get the scheduler's placement.
#
#   bench/udp_stream.sh [--rounds N] [--secs S]     (defaults 5 rounds of 3 s)
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
scenario=udp_stream/loopback

command -v iperf3 >/dev/null 2>&1 || ws_die "needs iperf3 (Debian package iperf3)"
"$ws_bin" -V >/dev/null 2>&1 || ws_die "warpspeed at $ws_bin does not run ('$ws_bin -V' failed); build it with make"

ws_bench_loopback_servers 30000

run_ws() { # EXTRA_ARGS... -> "goodput_mbps loss_pct"
	"$ws_bin" -H 127.0.0.1 -p "$ws_port" -t UDP_STREAM -l "$secs" -P 0 -v 2 --flow-control "$@" -- -m 1472 \
		>"$work/ws.out" 2>"$work/ws.err" ||
		{ echo "warpspeed client failed: $(head -c 300 "$work/ws.err")" >&2; return 1; }
	local mbps loss
	mbps=$(sed -n 2p "$work/ws.out" | awk '{ print $4 }')
	loss=$(sed -n 's/^UDP datagrams: sent [0-9]*, received \([0-9]*\), lost \([0-9]*\),.*/\1 \2/p' "$work/ws.out" |
		awk '{ printf "%.4f", ($1 + $2) ? 100 * $2 / ($1 + $2) : 100 }')
	[[ $mbps =~ ^[0-9.]+$ && -n $loss ]] || { echo "cannot read warpspeed's result: $(cat "$work/ws.out")" >&2; return 1; }
	echo "$mbps $loss"
}

# iperf3_field FILE SECTION KEY: a number from iperf3 --json's "end" section.
iperf3_field() {
	awk -v s="\"$2\"" -v k="\"$3\"" '$1 == s":" { f = 1 } f && $1 == k":" { gsub(/,/, "", $2); print $2; exit }' "$1"
}

run_ip3() {
	iperf3 -c 127.0.0.1 -p "$ip3_port" -u -b 0 -l 1472 -w 4M -t "$secs" --json >"$work/ip3.json" 2>"$work/ip3.err" ||
		{ echo "iperf3 client failed: $(head -c 300 "$work/ip3.err")" >&2; return 1; }
	local bps loss
	bps=$(iperf3_field "$work/ip3.json" sum_received bits_per_second)
	loss=$(iperf3_field "$work/ip3.json" sum_received lost_percent)
	if [ -z "$bps" ] || [ -z "$loss" ]; then echo "cannot read iperf3's JSON report" >&2; return 1; fi
	echo "$(awk -v b="$bps" 'BEGIN { printf "%.2f", b / 1e6 }') $(awk -v l="$loss" 'BEGIN { printf "%.4f", l }')"
}

record() { # TOOL METRIC UNIT VALUE
	[ -n "$samples" ] && printf '%s\t%s\t%s\t%s\t%s\n' "$scenario" "$1" "$2" "$3" "$4" >>"$samples"
	return 0
}

printf '%-6s %-18s %14s %8s\n' round tool "goodput Mb/s" "loss %"
: >"$work/rows"
for r in $(seq 1 "$rounds"); do
	ws=$(run_ws) || exit 1
	gs=$(run_ws --gso --gro) || exit 1
	ip=$(run_ip3) || exit 1
	read -r ws_mbps ws_loss <<<"$ws"
	read -r gs_mbps gs_loss <<<"$gs"
	read -r ip_mbps ip_loss <<<"$ip"
	printf '%-6s %-18s %14s %8s\n' "$r" warpspeed "$ws_mbps" "$ws_loss" "$r" "warpspeed-gso-gro" "$gs_mbps" "$gs_loss" \
		"$r" iperf3 "$ip_mbps" "$ip_loss"
	record warpspeed goodput Mbit/s "$ws_mbps"
	record warpspeed loss % "$ws_loss"
	record warpspeed-gso-gro goodput Mbit/s "$gs_mbps"
	record warpspeed-gso-gro loss % "$gs_loss"
	record iperf3 goodput Mbit/s "$ip_mbps"
	record iperf3 loss % "$ip_loss"
	echo "$ws_mbps $ws_loss $gs_mbps $gs_loss $ip_mbps $ip_loss" >>"$work/rows"
done

med() { awk -v c="$1" '{ print $c }' "$work/rows" | ws_stats | awk '{ print $1 }'; }
ratio_med() { awk -v a="$1" -v b="$2" '{ print ($b > 0 ? $a / $b : 0) }' "$work/rows" | ws_stats; }
read -r r_ws r_ws_min r_ws_max _ < <(ratio_med 1 5)
read -r r_gs r_gs_min r_gs_max _ < <(ratio_med 3 5)
lines=(
	"udp_stream loopback, $rounds rounds of $secs s, -m 1472, warpspeed with --flow-control: received goodput medians (Mb/s): warpspeed $(med 1), warpspeed --gso --gro $(med 3), iperf3 $(med 5)"
	"udp_stream loopback: loss medians (%): warpspeed $(med 2), warpspeed --gso --gro $(med 4), iperf3 $(med 6)"
	"udp_stream loopback: goodput ratio to iperf3, median of rounds: warpspeed $r_ws (min $r_ws_min, max $r_ws_max), warpspeed --gso --gro $r_gs (min $r_gs_min, max $r_gs_max)"
)
verdict() { awk -v r="$1" -v l="$2" 'BEGIN { print (r >= 5 && l <= 0.1) ? "met" : "NOT met" }'; }
lines+=("udp_stream loopback: target (>= 5x iperf3 at <= 0.1% loss): default path $(verdict "$r_ws" "$(med 2)"), --gso --gro $(verdict "$r_gs" "$(med 4)")")
printf '%s\n' "${lines[@]}"
[ -n "$notes" ] && printf '%s\n' "${lines[@]}" >>"$notes"
exit 0
