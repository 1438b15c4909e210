#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Issue 32's engine benchmark: warpspeed's io_uring engine against its epoll engine on
# loopback, against one `warpspeed serve` this script starts, the two engines taking turns
# within each round (io_uring first in odd rounds, epoll first in even ones) so that drift
# of a shared machine hits both alike. --engine applies to both sides. Per scenario:
#   rr64     TCP_RR --streams 64 --threads 2, aggregate trans/s       goal ratio >= 1.3
#   rr1      TCP_RR, one flow, trans/s (no goal: whether auto should take io_uring)
#   stream   TCP_STREAM -c -C: throughput                             goal ratio >= 1.0
#            and local service demand (us/KB; on loopback both sides share the host's
#            CPUs, so local and remote are one figure)                 goal ratio <= 0.9
#   crr      TCP_CRR (both ends: the client's chains, the daemon's responder)
#                                                                      goal ratio >= 1.15
#   crr16    TCP_CRR --streams 16 --threads 2 (no goal: where batching across flows pays)
#   udp      UDP_STREAM 1472 B, no GSO: packets/s sent                 goal ratio >= 1.0
#   udp_rx   ... and received (the daemon's count; the same runs)      goal ratio >= 1.0
#   udp64    UDP_STREAM 64 B, no GSO: packets/s sent                   goal ratio >= 1.0
#   udp64_rx ... and received (the same runs)                          goal ratio >= 1.0
#   udprr1   UDP_RR, one flow, trans/s (no goal: whether auto should take io_uring)
#   udprr8   UDP_RR --streams 8 --threads 2, trans/s (no goal: the same)
#   cc       TCP_CC, one flow (no goal: whether auto should take io_uring)
#   sendfile TCP_SENDFILE (a temporary file; no goal: the goal is against netperf,
#            bench/sendfile.sh)
# The epoll engine of UDP_STREAM is the sendmmsg/recvmmsg path. --only udp also runs udp_rx
# (and udp64 udp64_rx). A scenario whose test the io_uring engine does not run is reported
# as such. The ratio is io_uring's median over epoll's median. A MISS is a measurement,
# not an error: the script exits 0 unless the daemon cannot start.
#
#   bench/engines.sh [--rounds N] [--seconds S] [--only LIST] [--out DIR]
#     defaults 5 rounds of 3 s, every scenario; LIST is scenario names separated by commas.
# Env: WS_BIN (default build/warpspeed). Writes DIR/<UTC time>-engines.md (DIR defaults to
# bench/results) and prints the table.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

# name    test        options                           output      unit     goal
scenario_table='
rr64      TCP_RR      --streams,64,--threads,2          THROUGHPUT  trans/s  >=1.3
rr1       TCP_RR      -                                 THROUGHPUT  trans/s  -
stream    TCP_STREAM  -                                 THROUGHPUT  Mbit/s   >=1.0
stream_sd TCP_STREAM  -                                 LOCAL_SD    us/KB    <=0.9
crr       TCP_CRR     -                                 THROUGHPUT  trans/s  >=1.15
crr16     TCP_CRR     --streams,16,--threads,2          THROUGHPUT  trans/s  -
udp       UDP_STREAM  -m,1472                           SENT_PPS    pkt/s    >=1.0
udp_rx    UDP_STREAM  -m,1472                           RECV_PPS    pkt/s    >=1.0
udp64     UDP_STREAM  -m,64                             SENT_PPS    pkt/s    >=1.0
udp64_rx  UDP_STREAM  -m,64                             RECV_PPS    pkt/s    >=1.0
udprr1    UDP_RR      -                                 THROUGHPUT  trans/s  -
udprr8    UDP_RR      --streams,8,--threads,2           THROUGHPUT  trans/s  -
cc        TCP_CC      -                                 THROUGHPUT  trans/s  -
sendfile  TCP_SENDFILE -                                THROUGHPUT  Mbit/s   -
'
known=$(awk 'NF { printf "%s%s", (n++ ? "," : ""), $1 }' <<<"$scenario_table")

rounds=5 secs=3 only= outdir=$root/bench/results
while [ $# -gt 0 ]; do
	case $1 in
	--rounds | --seconds | --secs)
		[[ ${2:-} =~ ^[1-9][0-9]*$ ]] || ws_usage_die "$1 '${2:-}': expected a positive integer"
		[ "$1" = --rounds ] && rounds=$2 || secs=$2
		shift 2 ;;
	--only)
		[ -n "${2:-}" ] || ws_usage_die "--only needs scenario names (known: $known)"
		for s in ${2//,/ }; do
			[[ $s == *_rx ]] && ws_usage_die "--only: '$s' runs with '${s%_rx}'; name that"
			[[ ,$known, == *",$s,"* ]] || ws_usage_die "--only: unknown scenario '$s' (known: $known)"
		done
		only=,$2,
		shift 2 ;;
	--out) outdir=${2:?--out needs a folder}; shift 2 ;;
	-h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
	*) ws_usage_die "unknown option '$1' (accepted: --rounds N, --seconds S, --only LIST, --out DIR)" ;;
	esac
done

ws_bin=${WS_BIN:-$root/build/warpspeed}
"$ws_bin" -V >/dev/null 2>&1 || ws_die "'$ws_bin -V' fails (build it with make)"
work=$(mktemp -d)
srv=
cleanup() {
	[ -n "$srv" ] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$ws_bin" serve -p 0 -L 127.0.0.1 2>"$work/serve.log" &
srv=$!
port=
for _ in $(seq 1 100); do
	port=$(sed -n 's/.*listening on .* port \([0-9]*\) .*/\1/p' "$work/serve.log")
	[ -n "$port" ] && break
	sleep 0.05
done
[ -n "$port" ] || ws_die "warpspeed serve did not start: $(cat "$work/serve.log")"
ws_host_noise engines

# run ENGINE TEST OPTS OUTPUT ROUND: one figure, or nothing when the run failed (why in
# $work/err). SENT_PPS and RECV_PPS: UDP_STREAM's packets/s sent (the client's) and received
# (the daemon's), from one run per round and engine that both read.
run() {
	local opts=() cpu=() o=$4
	[ "$3" != - ] && IFS=, read -r -a opts <<<"$3"
	[ "$4" = LOCAL_SD ] && cpu=(-c -C)
	case $4 in SENT_PPS | RECV_PPS) o=LOCAL_SEND_THROUGHPUT,REMOTE_RECV_THROUGHPUT ;; esac
	local cache="$work/run.$5.$1.$2.${3//[^A-Za-z0-9]/_}"
	if [ ! -s "$cache" ]; then
		timeout $((secs + 30)) "$ws_bin" -H 127.0.0.1 -p "$port" -t "$2" -l "$secs" -P 0 \
			${cpu[@]+"${cpu[@]}"} -- --engine "$1" ${opts[@]+"${opts[@]}"} -o "$o" \
			2>"$work/err" | tail -n 1 >"$cache"
	fi
	case $4 in
	SENT_PPS | RECV_PPS)
		local size
		size=$(sed -n 's/.*-m,\([0-9]*\).*/\1/p' <<<"$3")
		awk -F, -v f=$([ "$4" = SENT_PPS ] && echo 1 || echo 2) -v m="$size" \
			'$f + 0 > 0 { printf "%.0f\n", $f * 1e6 / 8 / m }' "$cache" ;;
	*) cat "$cache" ;;
	esac
}

samples=$work/samples.tsv
: >"$samples"
declare -A unsupported=()
scenarios=$(awk -v only="$only" 'NF { base = $1; sub(/_rx$/, "", base) }
	NF && (only == "" || index(only, "," base ",")) { print $1 }' <<<"$scenario_table")
for r in $(seq 1 "$rounds"); do
	order="io_uring epoll"
	[ $((r % 2)) = 0 ] && order="epoll io_uring"
	for s in $scenarios; do
		read -r _ test opts out _ _ < <(awk -v s="$s" '$1 == s' <<<"$scenario_table")
		[ -n "${unsupported[$s]:-}" ] && continue
		for e in $order; do
			v=$(run "$e" "$test" "$opts" "$out" "$r")
			if [ -z "$v" ] && grep -q "does not run" "$work/err"; then
				unsupported[$s]=$(sed 's/^[^:]*: //' "$work/err" | head -n 1)
				break
			fi
			[ -n "$v" ] || { echo "round $r $s $e failed: $(head -c 300 "$work/err")" >&2; continue; }
			printf '%s\t%s\t%s\n' "$s" "$e" "$v" >>"$samples"
		done
	done
	echo "round $r of $rounds done" >&2
done

stamp=$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$outdir"
md=$outdir/$stamp-engines.md
{
	echo "# io_uring vs epoll engine, loopback ($rounds rounds of $secs s, alternating; $(ws_host_label))"
	echo
	echo "Command: bench/engines.sh --rounds $rounds --seconds $secs${only:+ --only ${only:1:-1}}; $(nproc) CPUs, $(uname -r)"
	echo
	echo "| scenario | test | unit | io_uring median (min-max) | epoll median (min-max) | ratio | goal | verdict |"
	echo "|---|---|---|---|---|---|---|---|"
	for s in $scenarios; do
		read -r _ test opts out unit goal < <(awk -v s="$s" '$1 == s' <<<"$scenario_table")
		label=$test
		[ "$opts" != - ] && label="$test ${opts//,/ }"
		if [ -n "${unsupported[$s]:-}" ]; then
			echo "| $s | $label | $unit | not run: ${unsupported[$s]} | | | $goal | - |"
			continue
		fi
		read -r um umin umax un < <(awk -F'\t' -v s="$s" '$1 == s && $2 == "io_uring" { print $3 }' "$samples" | ws_stats)
		read -r em emin emax en < <(awk -F'\t' -v s="$s" '$1 == s && $2 == "epoll" { print $3 }' "$samples" | ws_stats)
		ratio=$(awk -v a="$um" -v b="$em" 'BEGIN { if (b + 0 > 0) printf "%.3f", a / b; else print "-" }')
		verdict=$(awk -v r="$ratio" -v g="$goal" 'BEGIN {
			if (g == "-" || r == "-") { print "-"; exit }
			op = substr(g, 1, 2); v = substr(g, 3) + 0
			print ((op == ">=" && r + 0 >= v) || (op == "<=" && r + 0 <= v)) ? "MET" : "MISS" }')
		echo "| $s | $label | $unit | $um ($umin-$umax, n=$un) | $em ($emin-$emax, n=$en) | $ratio | $goal | $verdict |"
	done
} >"$md"
cat "$md"
echo "written: $md" >&2
