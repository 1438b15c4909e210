#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# UDP_STREAM over a rate-limited bench/testbed link (issue 6's `gige` benchmark): received
# goodput against the link's UDP payload ceiling, the receiver's loss, and the sender's CPU
# time per byte, with the tools taking turns round by round:
#   warpspeed -t UDP_STREAM --flow-control -- -m 1472             (sendmmsg/recvmmsg)
#   warpspeed -t UDP_STREAM --flow-control --gso --gro -- -m 1472 (UDP_SEGMENT, UDP_GRO)
# Both use --flow-control, the fastest opt-in sending mode at low loss; warpspeed's default
# is netperf's blast.
#   iperf3 -u -b 1000M -l 1472                       (a gigabit user's usual line)
# Each client runs in namespace A and sends to its server in B. The sender's CPU is the
# client process's user+system time (/usr/bin/time), divided by the payload bytes it sent
# (warpspeed's datagrams sent x 1472; iperf3's sum_sent). The ceiling is
# rate x 1472 / (MTU + 14): tbf charges each frame its IP length plus the 14-byte Ethernet
# header. On a tbf-shaped veth, most of a per-datagram sender's CPU is tbf itself (every
# enqueue behind a backlog re-arms tbf's timer), which the sender pays per datagram.
# A second figure counts the whole machine (both namespaces): CPU time not idle, from the
# wall clock x CPUs minus /proc/stat's idle, per payload byte sent. It matters because this
# kernel accounts CPU time by tick (no IRQ_TIME_ACCOUNTING): work done in interrupts that
# wake an idle CPU, such as tbf's timer sending a sleeping sender's queued datagrams, shows
# in no process's time and in no busy column, only as idle time that is missing.
#
#   bench/udp_link.sh [--rounds N] [--secs S]     (defaults 5 rounds of 3 s; needs root)
# Env: WS_BIN (default build/warpspeed), WS_UDP_PROFILE (default gige, a testbed profile
# with MTU 1500 and no loss).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
ws_bench_args "$@"
ws_bin=${WS_BIN:-$root/build/warpspeed}
profile=${WS_UDP_PROFILE:-gige}
if why=$(ws_testbed_missing); then ws_die "udp_link: $why"; fi
command -v iperf3 >/dev/null 2>&1 || ws_die "needs iperf3 (Debian package iperf3)"
[ -x /usr/bin/time ] || ws_die "needs /usr/bin/time (Debian package time)"

bed=ws-udplink$$
work=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null; done
	for p in ${pids[@]+"${pids[@]}"}; do wait "$p" 2>/dev/null; done
	"$here/testbed" down "$bed" >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
"$here/testbed" up "$profile" --name "$bed" >/dev/null || ws_die "bench/testbed up $profile failed"
eval "$("$here/testbed" info "$bed" | sed 's/^/export /')"
[ "$WS_MTU" -ge 1500 ] || ws_die "profile $profile has MTU $WS_MTU; 1472-byte datagrams need 1500"
ceiling=$(awk -v r="$(ws_rate_bps "$WS_RATE_AB")" -v m="$WS_MTU" 'BEGIN { printf "%.2f", r * 1472 / (m + 14) / 1e6 }')

in_a() { ip netns exec "$WS_NS_A" "$@"; }
in_b() { ip netns exec "$WS_NS_B" "$@"; }
in_b "$ws_bin" serve -p 40000 -L "$WS_B" >"$work/ws-serve.log" 2>&1 &
pids+=($!)
in_b iperf3 -s -p 40001 -B "$WS_B" >"$work/ip3-serve.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do
	[ "$(in_b ss -Hltn 'sport = :40000 or sport = :40001' | wc -l)" -ge 2 ] && break
	sleep 0.1
done

ncpu=$(getconf _NPROCESSORS_ONLN)
hz=$(getconf CLK_TCK)
idle_ticks() { awk '/^cpu /{ print $5 + $6 }' /proc/stat; }
# Before a run: remember the wall clock and idle time; after it: the machine's non-idle
# CPU seconds since then.
mark() { m_wall=$(date +%s.%N); m_idle=$(idle_ticks); }
busy_since_mark() {
	awk -v w0="$m_wall" -v w1="$(date +%s.%N)" -v i0="$m_idle" -v i1="$(idle_ticks)" -v n="$ncpu" -v hz="$hz" \
		'BEGIN { b = (w1 - w0) * n - (i1 - i0) / hz; printf "%.4f", b < 0 ? 0 : b }'
}

# "goodput_mbps loss_pct sender_us_per_KB system_us_per_KB" for one run of each tool.
run_ws() {
	mark
	/usr/bin/time -o "$work/t" -f '%U %S' ip netns exec "$WS_NS_A" "$ws_bin" -H "$WS_B" -p 40000 \
		-t UDP_STREAM -l "$secs" -P 0 -v 2 --flow-control "$@" -- -m 1472 >"$work/ws.out" 2>"$work/ws.err" ||
		{ echo "warpspeed failed: $(head -c 300 "$work/ws.err")" >&2; return 1; }
	local mbps sent lost got
	mbps=$(sed -n 2p "$work/ws.out" | awk '{ print $4 }')
	read -r sent got lost < <(sed -n 's/^UDP datagrams: sent \([0-9]*\), received \([0-9]*\), lost \([0-9]*\),.*/\1 \2 \3/p' "$work/ws.out")
	[[ $mbps =~ ^[0-9.]+$ && ${sent:-0} -gt 0 ]] || { echo "cannot read warpspeed's result: $(cat "$work/ws.out")" >&2; return 1; }
	awk -v m="$mbps" -v s="$sent" -v g="$got" -v l="$lost" -v c="$(awk '{ print $1 + $2 }' "$work/t")" -v b="$(busy_since_mark)" \
		'BEGIN { kb = s * 1472 / 1024; printf "%s %.4f %.5f %.5f\n", m, (g + l) ? 100 * l / (g + l) : 100, c * 1e6 / kb, b * 1e6 / kb }'
}
ip3_field() { # SECTION KEY
	awk -v s="\"$1\"" -v k="\"$2\"" '$1 == s":" { f = 1 } f && $1 == k":" { gsub(/,/, "", $2); print $2; exit }' "$work/ip3.json"
}
run_ip3() {
	mark
	/usr/bin/time -o "$work/t" -f '%U %S' ip netns exec "$WS_NS_A" iperf3 -c "$WS_B" -p 40001 -u -b 1000M \
		-l 1472 -t "$secs" --json >"$work/ip3.json" 2>"$work/ip3.err" ||
		{ echo "iperf3 failed: $(head -c 300 "$work/ip3.err")" >&2; return 1; }
	local bps loss sent
	bps=$(ip3_field sum_received bits_per_second)
	loss=$(ip3_field sum_received lost_percent)
	sent=$(ip3_field sum_sent bytes)
	[ -n "$bps" ] && [ -n "$loss" ] && [ -n "$sent" ] || { echo "cannot read iperf3's JSON" >&2; return 1; }
	awk -v b="$bps" -v l="$loss" -v s="$sent" -v c="$(awk '{ print $1 + $2 }' "$work/t")" -v y="$(busy_since_mark)" \
		'BEGIN { printf "%.2f %.4f %.5f %.5f\n", b / 1e6, l, c * 1e6 / (s / 1024), y * 1e6 / (s / 1024) }'
}

printf '%-6s %-18s %12s %9s %8s %12s %12s\n' round tool "goodput Mb/s" "% ceiling" "loss %" "sender us/KB" "system us/KB"
: >"$work/rows"
for r in $(seq 1 "$rounds"); do
	ws=$(run_ws) || exit 1
	gs=$(run_ws --gso --gro) || exit 1
	ip=$(run_ip3) || exit 1
	row=""
	for pair in "warpspeed:$ws" "warpspeed-gso-gro:$gs" "iperf3:$ip"; do
		read -r m l c y <<<"${pair#*:}"
		printf '%-6s %-18s %12s %9s %8s %12s %12s\n' "$r" "${pair%%:*}" "$m" \
			"$(awk -v m="$m" -v c="$ceiling" 'BEGIN { printf "%.1f", 100 * m / c }')" "$l" "$c" "$y"
		row="$row $m $l $c $y"
	done
	echo "$row" >>"$work/rows"
done

med() { awk -v c="$1" '{ print $c }' "$work/rows" | ws_stats | awk '{ print $1 }'; }
ratio_med() { awk -v a="$1" -v b="$2" '{ print ($b > 0 ? $a / $b : 0) }' "$work/rows" | ws_stats | awk '{ print $1 " (min " $2 ", max " $3 ")" }'; }
pct() { awk -v m="$1" -v c="$ceiling" 'BEGIN { printf "%.1f%%", 100 * m / c }'; }
echo "udp_link $profile (UDP payload ceiling $ceiling Mb/s), $rounds rounds of $secs s, -m 1472, medians:"
echo "  warpspeed --flow-control: $(med 1) Mb/s ($(pct "$(med 1)")), loss $(med 2)%, sender CPU $(med 3) us/KB, system $(med 4) us/KB; per byte vs iperf3: sender $(ratio_med 3 11), system $(ratio_med 4 12)"
echo "  warpspeed --flow-control --gso --gro: $(med 5) Mb/s ($(pct "$(med 5)")), loss $(med 6)%, sender CPU $(med 7) us/KB, system $(med 8) us/KB; per byte vs iperf3: sender $(ratio_med 7 11), system $(ratio_med 8 12)"
echo "  iperf3 -b 1000M:    $(med 9) Mb/s ($(pct "$(med 9)")), loss $(med 10)%, sender CPU $(med 11) us/KB, system $(med 12) us/KB"
