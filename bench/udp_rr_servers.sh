#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Whose structure sets a back-to-back UDP_RR round trip on a small host: the client's or
# the server's. RRUL's idle figure is three back-to-back UDP_RR pairs at once (Flent runs
# three netperf processes, netserver forks one child per test; warpspeed runs three probe
# threads against one daemon with an echo thread per probe), and on 2 vCPUs those six busy
# tasks share two CPUs, so every round trip includes the hand-offs between them. This
# bench crosses the clients (netperf 2.7.0, warpspeed) with the servers (netserver,
# warpspeed serve, both on loopback) and runs N UDP_RR processes at once, each `-l S`;
# each figure is a round trip in microseconds, 1e6 / Trans/s, averaged over the N flows.
# The four pairings take turns within each round; medians over the rounds.
#
#   bench/udp_rr_servers.sh [--rounds N] [--secs S] [--only 1flow,3flows]
#     defaults: 5 rounds of 3 s, both scenarios (one flow: nothing shares a CPU, the
#     control; three flows: RRUL's idle probes). Needs netperf and netserver.
# Env: WS_BIN (default build/warpspeed).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ws_bin=${WS_BIN:-$here/../build/warpspeed}
# shellcheck source=bench/lib.sh
source "$here/lib.sh"
ws_bench_args "$@"
case " $* " in *" --secs "*) ;; *) secs=3 ;; esac
for t in netperf netserver; do
	command -v "$t" >/dev/null 2>&1 || ws_die "needs $t (Debian package netperf, non-free)"
done
[ -x "$ws_bin" ] || ws_die "$ws_bin not built (make)"

ws_bench_serve "$ws_bin"
ns_port=$((port + 1))
netserver -D -p "$ns_port" -L 127.0.0.1 >"$work/netserver.log" 2>&1 &
pids+=($!)
ws_wait_listen "$ns_port"

# pairing CLIENT PORT FLOWS: the mean round trip (us) of FLOWS concurrent UDP_RR runs.
pairing() {
	local i bin=netperf flows=()
	[ "$1" = warpspeed ] && bin=$ws_bin
	for i in $(seq 1 "$3"); do
		"$bin" -H 127.0.0.1 -p "$2" -t UDP_RR -l "$secs" -P 0 -v 0 >"$work/flow.$i" 2>&1 &
		flows+=($!)
	done
	wait "${flows[@]}"
	for i in $(seq 1 "$3"); do
		awk 'NR == 1 && $1 + 0 > 0 { printf "%.3f\n", 1e6 / $1; ok = 1 } END { if (!ok) exit 1 }' \
			"$work/flow.$i" || ws_die "flow $i of $1 against port $2: $(head -c 300 "$work/flow.$i")"
	done | awk '{ s += $1 } END { printf "%.1f\n", s / NR }'
}

echo "# $(ws_host_label); warpspeed serve on $port, netserver on $ns_port (loopback)"
for scen in 1flow 3flows; do
	ws_bench_wanted "$scen" || continue
	n=${scen%%flow*}
	combos=("netperf $ns_port netserver" "netperf $port wsserve" "warpspeed $ns_port netserver" "warpspeed $port wsserve")
	for c in "${combos[@]}"; do : >"$work/$scen.${c// /_}"; done
	for r in $(seq 1 "$rounds"); do
		line="$scen round $r:"
		for c in "${combos[@]}"; do
			read -r cl pt sv <<<"$c"
			v=$(pairing "$cl" "$pt" "$n")
			echo "$v" >>"$work/$scen.${c// /_}"
			line="$line $cl->$sv $v"
		done
		echo "$line"
	done
	echo "$scen: median round trip (us) over $rounds rounds of $secs s, $n UDP_RR at once; min-max"
	for c in "${combos[@]}"; do
		read -r cl pt sv <<<"$c"
		read -r med lo hi _ < <(ws_stats <"$work/$scen.${c// /_}")
		printf '  %-9s -> %-9s %8s  (%s-%s)\n' "$cl" "$sv" "$med" "$lo" "$hi"
	done
done
echo "# after: $(ws_host_label)"
