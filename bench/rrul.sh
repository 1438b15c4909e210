#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# RRUL and RPM on test beds that show bufferbloat (issue 30's goals), with the tools taking
# turns round by round on the same bed:
#   flent rrul -H B -l S -d D        Flent 2.1.1 driving netperf 2.7.0 against netserver
#   the same against warpspeed serve  (netperf's protocol): the same probes and clients
#     against a server of one process, as warpspeed's RRUL has; it tells the probe method
#     from the server's structure (netserver forks a process per test; docs/rrul.md)
#   warpspeed -t RRUL -l S --delay D --probe-interval 0 --probes udp --flent FILE   against
#     warpspeed serve: back-to-back probes, netperf's method, and Flent's rrul's probe set
#     (three UDP probes; its ICMP pinger is paced, and it has no TCP_RR probe, which back
#     to back would be a fourth busy pair of threads), the run the goals compare with
#     Flent's
#   warpspeed -t RRUL -l S --delay D --flent FILE    the default paced probes, reported
#     beside them (their idle figure, and the probes' CPU of the default mode)
# Both write a Flent data file, and bench/rrul_figures.py reads both the same way: the
# median UDP probe before the load (idle), the median UDP probe under load, and the mean
# upload and download sums under load: over the flows' steady state (the loaded window
# less 1 s at each end, the goals' figure; rrul_figures.py says why) and over the whole
# loaded window (what `flent -f summary` prints). Then, on the same bed:
#   warpspeed -t RPM (the figure, its run-to-run coefficient of variation)
# and the probes' own CPU from each warpspeed RRUL run's JSON (rrul.probe_cpu_ns, the CPU
# time of the probe thread) as a share of one core over the run,
# and on lossy-gige-jumbo (1% loss) one RRUL run whose lost probes are counted.
#
#   bench/rrul.sh [--rounds N] [--secs S] [--only gige-bloat,gige-shallow,lossy]
#     defaults: 3 rounds of 30 s (plus 2 x 5 s of idle probes per run); needs root, flent,
#     netperf, fping and python3. Env: WS_BIN (default build/warpspeed), WS_RRUL_BED (the
#     bed name's prefix, default ws-rrul), WS_RRUL_DELAY
#     (default 5).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
ws_bench_args "$@"
case " $* " in *" --rounds "*) ;; *) rounds=3 ;; esac
case " $* " in *" --secs "*) ;; *) secs=30 ;; esac
delay=${WS_RRUL_DELAY:-5}
ws_bin=${WS_BIN:-$root/build/warpspeed}
if why=$(ws_testbed_missing); then ws_die "rrul: $why"; fi
for t in flent netperf netserver fping; do
	command -v "$t" >/dev/null 2>&1 || ws_die "needs $t (Debian packages flent, netperf, fping)"
done
wanted() { [ -z "$only" ] || [[ $only == *",$1,"* ]]; }

work=$(mktemp -d)
pids=()
bed=
stop_bed() {
	local p
	for p in ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null; done
	for p in ${pids[@]+"${pids[@]}"}; do wait "$p" 2>/dev/null; done
	pids=()
	[ -z "$bed" ] || "$here/testbed" down "$bed" >/dev/null 2>&1
	bed=
}
cleanup() {
	stop_bed
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start_bed PROFILE: the bed, netserver and warpspeed serve in B.
start_bed() {
	bed=${WS_RRUL_BED:-ws-rrul}$$
	"$here/testbed" up "$1" --name "$bed" >/dev/null || ws_die "bench/testbed up $1 failed"
	eval "$("$here/testbed" info "$bed" | sed 's/^/export /')"
	ip netns exec "$WS_NS_B" netserver -D -p 12865 -L "$WS_B" >"$work/netserver.log" 2>&1 &
	pids+=($!)
	ip netns exec "$WS_NS_B" "$ws_bin" serve -p 40000 -L "$WS_B" >"$work/serve.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 1 50); do
		[ "$(ip netns exec "$WS_NS_B" ss -Hltn 'sport = :12865 or sport = :40000' | wc -l)" -ge 2 ] && break
		sleep 0.1
	done
}
in_a() { ip netns exec "$WS_NS_A" "$@"; }

# Each prints "idle_ms loaded_udp_ms up_mbps down_mbps lost up_full down_full
# loaded_steady_ms" (bench/rrul_figures.py).
# run_flent PORT: against netserver (12865) or warpspeed serve (40000).
run_flent() {
	rm -f "$work"/rrul-*.flent.gz
	in_a flent rrul -H "$WS_B" -l "$secs" -d "$delay" --netperf-control-port "$1" -D "$work" \
		>"$work/flent.out" 2>&1 || { echo "flent failed: $(tail -n 5 "$work/flent.out")" >&2; return 1; }
	"$here/rrul_figures.py" "$work"/rrul-*.flent.gz
}
# run_ws INTERVAL: --probe-interval INTERVAL (0: back to back); also appends the probes'
# CPU, % of a core over the run, to $work/probe_cpu.INTERVAL.
run_ws() {
	local probes=() # back to back: Flent's rrul's UDP probes (it has no TCP_RR probe)
	[ "$1" != 0 ] || probes=(--probes udp)
	in_a "$ws_bin" -H "$WS_B" -p 40000 -t RRUL -l "$secs" --delay "$delay" -P 0 --probe-interval "$1" ${probes[@]+"${probes[@]}"} \
		--flent "$work/ws.flent.gz" --json-file "$work/ws.json" >"$work/ws.out" 2>&1 ||
		{ echo "warpspeed failed: $(tail -n 5 "$work/ws.out")" >&2; return 1; }
	python3 -c 'import json, sys
print("%.4f" % (json.load(open(sys.argv[1]))["rrul"]["probe_cpu_ns"] / 1e7 / float(sys.argv[2])))' \
		"$work/ws.json" "$((secs + 2 * delay))" >>"$work/probe_cpu.$1"
	"$here/rrul_figures.py" "$work/ws.flent.gz"
}

# row ROUND TOOL FIGURES...: one line of the side-by-side table (FIGURES word-split).
row() { printf '%-6s %-15s %9s %11s %10s %10s %5s %10s %10s %11s\n' "$@"; }
med() { awk -v c="$2" '{ print $c }' "$1" | ws_stats | awk '{ print $1 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", (b > 0 ? a / b : 0) }'; }

# rrul_bed PROFILE: the side-by-side table and medians; leaves the loaded medians in
# loaded_<profile> for the comparison between beds.
rrul_bed() {
	local p=$1 r f w
	start_bed "$p"
	: >"$work/probe_cpu.0"
	: >"$work/probe_cpu.0.2"
	: >"$work/$p.flent"
	: >"$work/$p.flentws"
	: >"$work/$p.ws"
	: >"$work/$p.paced"
	row round tool "idle ms" "loaded ms" "up Mb/s" "down Mb/s" lost "up full" "down full" "steady ms"
	for r in $(seq 1 "$rounds"); do
		f=$(run_flent 12865) || return 1
		w=$(run_ws 0) || return 1
		g=$(run_flent 40000) || return 1
		d=$(run_ws 0.2) || return 1
		echo "$f" >>"$work/$p.flent"
		echo "$w" >>"$work/$p.ws"
		echo "$g" >>"$work/$p.flentws"
		echo "$d" >>"$work/$p.paced"
		row "$r" flent $f
		row "$r" warpspeed-b2b $w
		row "$r" flent-wsserve $g
		row "$r" warpspeed-paced $d
	done
	echo "rrul $p, $rounds rounds of $secs s (+2 x $delay s idle), medians; warpspeed with back-to-back"
	echo "probes (--probe-interval 0, netperf's method) / flent+netperf against netserver, then"
	echo "over flent+netperf against warpspeed serve, and the default paced probes:"
	local c name
	for c in 1 2 8 3 4 6 7; do
		name=$(echo "idle_latency loaded_udp_latency upload_sum download_sum lost upload_sum_full download_sum_full loaded_udp_steady" | cut -d' ' -f"$c")
		echo "  $name: flent $(med "$work/$p.flent" "$c"), warpspeed $(med "$work/$p.ws" "$c"), ratio $(ratio "$(med "$work/$p.ws" "$c")" "$(med "$work/$p.flent" "$c")"); flent-wsserve $(med "$work/$p.flentws" "$c"), ratio $(ratio "$(med "$work/$p.ws" "$c")" "$(med "$work/$p.flentws" "$c")"); paced $(med "$work/$p.paced" "$c")"
	done
	eval "loaded_${p//-/_}=$(med "$work/$p.ws" 2)"
	rpm_and_cpu "$p"
	stop_bed
}

# rpm_and_cpu PROFILE: RPM over the rounds (median, coefficient of variation), and the
# probes' CPU over the RRUL rounds (the probe thread's own CPU time, so no run without
# probes is needed to subtract).
rpm_and_cpu() {
	local r v
	: >"$work/$1.rpm"
	for r in $(seq 1 "$rounds"); do
		v=$(in_a "$ws_bin" -H "$WS_B" -p 40000 -t RPM -P 0 -v 0 2>"$work/rpm.err") ||
			{ echo "RPM failed: $(cat "$work/rpm.err")" >&2; return 1; }
		echo "$v" >>"$work/$1.rpm"
	done
	eval "rpm_${1//-/_}=$(med "$work/$1.rpm" 1)"
	echo "  RPM: median $(med "$work/$1.rpm" 1), CV $(awk '{ s += $1; q += $1 * $1; n++ } END { m = s / n; printf "%.1f%%", (n > 1 ? 100 * sqrt((q - n * m * m) / (n - 1)) / m : 0) }' "$work/$1.rpm") over $rounds runs"
	echo "  probes' CPU (probe thread, % of one core over each RRUL run), default paced: median $(ws_stats <"$work/probe_cpu.0.2" | awk '{ print $1 }')%, runs: $(tr '\n' ' ' <"$work/probe_cpu.0.2")(goal < 1%)"
	echo "  probes' CPU, back to back: median $(ws_stats <"$work/probe_cpu.0" | awk '{ print $1 }')%, runs: $(tr '\n' ' ' <"$work/probe_cpu.0")"
}

ws_host_noise rrul
echo "# host: 2 shared vCPUs, nothing paused or tuned; $(ws_host_label)"
for p in gige-bloat gige-shallow; do
	wanted "$p" || continue
	rrul_bed "$p" || exit 1
done
if wanted gige-bloat && wanted gige-shallow; then
	echo "loaded UDP latency, bloat - shallow: $(awk -v a="$loaded_gige_bloat" -v b="$loaded_gige_shallow" 'BEGIN { printf "%.2f ms", a - b }') (the queues differ by about 95 ms)"
	echo "RPM shallow / bloat: $(ratio "$rpm_gige_shallow" "$rpm_gige_bloat") (goal >= 5)"
fi
if wanted lossy; then
	start_bed lossy-gige-jumbo
	run_ws 0.2 >"$work/lossy" || exit 1
	echo "lossy-gige-jumbo (1% loss): warpspeed RRUL idle/loaded/up/down/lost: $(cat "$work/lossy")"
	stop_bed
fi
