#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# TCP_CC (connect/close, no data) on loopback: warpspeed against its own `warpspeed serve`,
# netperf 2.7.0 against its own netserver, taking turns within each round (warpspeed,
# netperf, warpspeed, ...) so that drift of a shared machine hits both alike. Prints each
# round's rates, the medians and the ratio warpspeed/netperf. On a machine with 2 shared
# vCPUs the figures are noisy: read the ratio, not the rates, and run it again before
# believing a difference of a few percent. Exits 0 unless a server cannot start.
#
#   bench/tcp_cc.sh [--rounds N] [--secs S]      defaults 5 rounds of 2 s
# Env: WS_BIN (default build/warpspeed), NETPERF, NETSERVER (defaults from PATH).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
ws_bin=${WS_BIN:-$root/build/warpspeed}
NETPERF=${NETPERF:-netperf}
NETSERVER=${NETSERVER:-netserver}
rounds=5 secs=2
while [ $# -gt 0 ]; do
	case $1 in
	--rounds | --secs)
		[[ ${2:-} =~ ^[1-9][0-9]*$ ]] || ws_usage_die "$1 '${2:-}': expected a positive integer"
		if [ "$1" = --rounds ]; then rounds=$2; else secs=$2; fi
		shift 2 ;;
	-h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
	*) ws_usage_die "unknown option '$1' (accepted: --rounds N, --secs S)" ;;
	esac
done
[ -x "$ws_bin" ] || ws_die "no warpspeed binary at $ws_bin (run make)"
command -v "$NETPERF" >/dev/null && command -v "$NETSERVER" >/dev/null ||
	ws_die "netperf and netserver are needed (Debian non-free: apt-get install netperf)"

work=$(mktemp -d)
pids=()
trap ws_bench_cleanup EXIT
trap 'exit 130' INT TERM
ws_port=$((33000 + $$ % 5000))
np_port=$((ws_port + 5000))
"$ws_bin" serve -p "$ws_port" -L 127.0.0.1 >"$work/ws-serve.log" 2>&1 &
pids+=($!)
"$NETSERVER" -D -p "$np_port" -L 127.0.0.1,inet >"$work/netserver.log" 2>&1 &
pids+=($!)
ws_wait_listen "$ws_port"
ws_wait_listen "$np_port"

# rate TOOL PORT: TCP_CC's transactions/s (-P 0 -v 0 prints the figure alone), or nothing
rate() {
	timeout $((secs + 20)) "$1" -H 127.0.0.1 -p "$2" -t TCP_CC -l "$secs" -P 0 -v 0 2>>"$work/err" |
		awk 'NF { print $1; exit }'
}
: >"$work/ws" >"$work/np"
printf 'TCP_CC on loopback, %d rounds of %d s (noisy: 2 shared vCPUs)\nround  warpspeed  netperf\n' "$rounds" "$secs"
for r in $(seq "$rounds"); do
	w=$(rate "$ws_bin" "$ws_port")
	n=$(rate "$NETPERF" "$np_port")
	printf '%5d  %9s  %7s\n' "$r" "${w:-failed}" "${n:-failed}"
	[ -n "$w" ] && echo "$w" >>"$work/ws"
	[ -n "$n" ] && echo "$n" >>"$work/np"
done
read -r wm wmin wmax wn < <(ws_stats <"$work/ws")
read -r nm nmin nmax nn < <(ws_stats <"$work/np")
printf 'median warpspeed %s conn/s (%s..%s, %d runs), netperf %s conn/s (%s..%s, %d runs)\n' \
	"$wm" "$wmin" "$wmax" "$wn" "$nm" "$nmin" "$nmax" "$nn"
if [ "$wn" -gt 0 ] && [ "$nn" -gt 0 ]; then
	awk -v w="$wm" -v n="$nm" 'BEGIN { printf "ratio warpspeed/netperf %.3f\n", w / n }'
fi
[ -s "$work/err" ] && { echo "stderr of the runs:"; sort -u "$work/err" | head -5; }
exit 0
