#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Issue 14's benchmark: the request/response family on loopback, warpspeed against netperf
# 2.7.0 (a netserver this script starts) and sockperf ping-pong, the tools taking turns
# within each round (warpspeed, reference, warpspeed, reference, ...) so that drift of a
# shared machine hits both alike. Per scenario, pinned and unpinned:
#   tcp_rr udp_rr tcp_crr  trans/s of warpspeed -t X vs netperf -t X     goal ratio >= 1.0
#   p50_udp p50_tcp        p50 round trip of warpspeed (-v 2) vs sockperf pp's
#                          50th percentile DOUBLED (sockperf reports half round trips),
#                          both with 14-byte messages (sockperf's minimum)    goal <= 1.05
#   multi                  warpspeed --streams 8 --threads 2 TCP_RR aggregate vs the sum
#                          of 8 netperf TCP_RR processes run in parallel   goal ratio >= 1.2
# Pinned means client on CPU 0, server on CPU 1: -T 0,1 for warpspeed and netperf, taskset
# -c 0 (pp) and -c 1 (sr) for sockperf; for multi, warpspeed --cpus 0,1 --remote-cpus 1,0
# and netperf process i -T i%2,(i+1)%2. Unpinned is the scheduler's placement. Either way a
# sampler reads /proc/PID/task/*/stat of both sides every 0.25 s (field 39, the CPU a
# thread last ran on, and its CPU ticks) and the report says on which CPUs the busy threads
# of each side ran. The ratio is warpspeed's median over the reference's median (the
# verdict's), shown beside the median of the per-round ratios. A MISS is a measurement, not
# an error: the script exits 0 unless a server cannot start.
#
#   bench/rr.sh [--rounds N] [--seconds S] [--only LIST] [--pin both|pinned|unpinned]
#               [--streams N] [--threads T] [--out DIR]
#     defaults 5 rounds of 3 s, every scenario, both placements, 8 streams on 2 threads;
#     --secs is --seconds; LIST is scenario names separated by commas.
# Env: WS_BIN (default build/warpspeed), and when run by bench/run, WS_BENCH_SAMPLES and
# WS_BENCH_NOTES, files to append samples ("scenario tool metric unit value") and notes to.
# Writes DIR/<UTC time>-rr.md and .json (DIR defaults to bench/results).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

# name     reference metric        unit     goal: the ratio warpspeed/reference must be
scenario_table='
tcp_rr     netperf   transactions  trans/s  >=1.0
udp_rr     netperf   transactions  trans/s  >=1.0
tcp_crr    netperf   transactions  trans/s  >=1.0
p50_udp    sockperf  p50_rtt       usec     <=1.05
p50_tcp    sockperf  p50_rtt       usec     <=1.05
multi      netperf   transactions  trans/s  >=1.2
'
known=$(awk 'NF { printf "%s%s", (n++ ? "," : ""), $1 }' <<<"$scenario_table"),clock

rounds=5 secs=3 only= pin=both streams=8 threads=2 outdir=$root/bench/results
while [ $# -gt 0 ]; do
	case $1 in
	--rounds | --seconds | --secs | --streams | --threads)
		[[ ${2:-} =~ ^[1-9][0-9]*$ ]] || ws_usage_die "$1 '${2:-}': expected a positive integer"
		case $1 in
		--rounds) rounds=$2 ;; --streams) streams=$2 ;; --threads) threads=$2 ;; *) secs=$2 ;;
		esac
		shift 2 ;;
	--only)
		for s in ${2:+${2//,/ }}; do
			[[ ,$known, == *",$s,"* ]] || ws_usage_die "--only: unknown scenario '$s' (known: $known)"
		done
		[ -n "${2:-}" ] || ws_usage_die "--only needs scenario names (known: $known)"
		only=,$2,
		shift 2 ;;
	--pin)
		[[ ${2:-} =~ ^(both|pinned|unpinned)$ ]] || ws_usage_die "--pin '${2:-}': expected both, pinned or unpinned"
		pin=$2
		shift 2 ;;
	--out) outdir=${2:?--out needs a folder}; shift 2 ;;
	-h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
	*) ws_usage_die "unknown option '$1' (accepted: --rounds N, --seconds S, --only LIST, --pin MODE, --streams N, --threads T, --out DIR)" ;;
	esac
done
[ "$pin" = both ] && modes="pinned unpinned" || modes=$pin
want_clock=0
[ -z "$only" ] || [[ $only == *,clock,* ]] && want_clock=1
scenarios=$(awk -v only="$only" 'NF && (only == "" || index(only, "," $1 ",")) { printf "%s%s", (n++ ? " " : ""), $1 }' <<<"$scenario_table")

ws_bin=${WS_BIN:-$root/build/warpspeed}
ext_samples=${WS_BENCH_SAMPLES:-}
ext_notes=${WS_BENCH_NOTES:-}
for t in netperf netserver sockperf taskset ss; do
	command -v "$t" >/dev/null 2>&1 ||
		ws_die "needs $t (Debian packages netperf (non-free), sockperf, util-linux, iproute2)"
done

work=$(mktemp -d)
pids=()    # the servers, ended by ws_bench_cleanup
running=() # the clients and the sampler of the run in progress
# The servers' own children (netserver forks one per test) go first, so that their parent
# is still there to reap them.
cleanup() {
	local p kids=() _
	for p in ${running[@]+"${running[@]}"}; do kill "$p" 2>/dev/null; done
	for p in ${running[@]+"${running[@]}"}; do wait "$p" 2>/dev/null; done
	for p in ${pids[@]+"${pids[@]}"}; do kids+=($(pgrep -P "$p")); done
	if [ ${#kids[@]} -gt 0 ]; then
		kill "${kids[@]}" 2>/dev/null
		for _ in $(seq 1 20); do
			kill -0 "${kids[@]}" 2>/dev/null || break
			sleep 0.05
		done
	fi
	ws_bench_cleanup
}
trap cleanup EXIT
trap 'exit 130' INT TERM
samples=$work/samples.tsv cmds=$work/commands.tsv notes=$work/notes.txt
: >"$samples"; : >"$cmds"; : >"$notes"; : >"$work/rounds.tsv"

note() {
	echo "note: $*"
	echo "$*" >>"$notes"
	[ -n "$ext_notes" ] && echo "rr: $*" >>"$ext_notes"
	return 0
}

# --- servers ---------------------------------------------------------------------------
# Ports from 10000 + a per-run offset up, below the ephemeral range (TCP_CRR uses many),
# skipping any a TCP or UDP socket listens on.
next_port=$((10000 + $$ % 5000 * 2))
free_port() { # VAR: set VAR to a port nothing listens on
	while ss -Hltun "sport = :$next_port" 2>/dev/null | grep -q .; do next_port=$((next_port + 1)); done
	printf -v "$1" %s "$next_port"
	next_port=$((next_port + 1))
}

wait_listen() { # t|u PORT NAME LOG
	local _
	for _ in $(seq 1 50); do
		ss -Hl"$1"n "sport = :$2" 2>/dev/null | grep -q . && return 0
		sleep 0.1
	done
	ws_die "$3 does not listen on 127.0.0.1:$2 after 5 s: $(head -c 300 "$4")"
}

serve() { # VAR PORT t|u NAME CMD...: start a server, record its pid in VAR and in pids
	local var=$1 port=$2 proto=$3 name=$4 log=$work/$4.log
	shift 4
	"$@" >"$log" 2>&1 &
	printf -v "$var" %s "$!"
	pids+=($!)
	printf 'server %s\t\t%s\n' "$name" "$*" >>"$cmds"
	wait_listen "$proto" "$port" "$name" "$log"
}

have_ws=1
"$ws_bin" -V >/dev/null 2>&1 || { have_ws=0; note "warpspeed skipped: '$ws_bin -V' fails (build it with make)"; }
if [ "$have_ws" = 1 ]; then
	free_port ws_port
	serve ws_srv "$ws_port" t warpspeed-serve "$ws_bin" serve -p "$ws_port" -L 127.0.0.1
fi
free_port ns_port
serve ns_srv "$ns_port" t netserver netserver -D -4 -L 127.0.0.1 -p "$ns_port"
# sockperf's server is pinned or not from the start, so each placement has its own.
for proto in udp tcp; do
	[[ " $scenarios " == *" p50_$proto "* ]] || continue
	flag=; [ $proto = tcp ] && flag=--tcp
	for m in $modes; do
		free_port port
		pre=(); [ "$m" = pinned ] && pre=(taskset -c 1)
		serve srv "$port" "${proto:0:1}" "sockperf-$proto-$m" \
			${pre[@]+"${pre[@]}"} sockperf sr -i 127.0.0.1 -p "$port" $flag
		printf -v "sp_port_${proto}_$m" %s "$port"
		printf -v "sp_srv_${proto}_$m" %s "$srv"
	done
done

# --- where the threads ran ---------------------------------------------------------------
# sampler LIMIT SERVER CLIENT...: every 0.25 s one line per thread of the server (and its
# children: netserver forks one per test) and of the clients, "sample role tid cpu ticks"
# (/proc/PID/task/TID/stat field 39 and utime+stime). After LIMIT samples it ends the
# clients: a netperf UDP_RR that lost a datagram would wait forever.
sampler() {
	local limit=$1 srv=$2 n=0 p files nap=
	shift 2
	trap '[ -n "$nap" ] && kill "$nap" 2>/dev/null && wait "$nap"; exit 0' TERM # no sleep outlives it
	while :; do
		n=$((n + 1))
		files=()
		for p in "$srv" $(pgrep -P "$srv") "$@"; do files+=("/proc/$p/task/"*/stat); done
		grep -s -H . "${files[@]}" | awk -v n="$n" -v cl=" $* " '{
			i = index($0, ":"); split(substr($0, 1, i - 1), f, "/")
			s = substr($0, i + 1); sub(/^.*\) /, "", s); split(s, v, " ")
			print n, (index(cl, " " f[3] " ") ? "client" : "server"), f[5], v[37], v[12] + v[13]
		}'
		[ "$n" -ge "$limit" ] && kill "$@" 2>/dev/null
		sleep 0.25 &
		nap=$!
		wait "$nap"
	done
}

# --- one run -------------------------------------------------------------------------------
clients=()
launch() { # OUT CMD...: start one client of the current run
	local out=$1
	shift
	"$@" >"$out" 2>&1 &
	clients+=($!)
	running+=($!)
}

finish() { # KEY SERVER: sample while the clients run, wait for them; 1 if one failed
	local key=$1 srv=$2 c rc=0
	sampler $((4 * secs + 120)) "$srv" "${clients[@]}" >"$work/where.raw" 2>/dev/null &
	running+=($!)
	for c in "${clients[@]}"; do wait "$c" || rc=1; done
	kill "${running[-1]}" 2>/dev/null
	wait "${running[-1]}" 2>/dev/null
	ws_rr_busy "$round" <"$work/where.raw" >>"$work/where.$key"
	clients=() running=()
	return $rc
}

# oneline FILE: a tool's output for a note: colour codes out, one line, at most 300 bytes.
oneline() { sed 's/\x1b\[[0-9;]*m//g' "$1" | tr -s '[:space:][:cntrl:]' ' ' | head -c 300; }

test_of() { # SCENARIO -> the netperf test name
	case $1 in tcp_rr | p50_tcp | multi) echo TCP_RR ;; udp_rr | p50_udp) echo UDP_RR ;; tcp_crr) echo TCP_CRR ;; esac
}

# run_one SCENARIO MODE TOOL [probe]: one measurement; records the sample and the command.
# A probe (1 s) only says whether warpspeed can run the scenario at all.
run_one() {
	local s=$1 m=$2 tool=$3 probe=${4:-} key=$1-$2.$3 out=$work/out len=$secs
	local t v i n=1 srv cmd=() pinned=0
	[ -n "$probe" ] && len=1
	[ "$m" = pinned ] && pinned=1
	t=$(test_of "$s")
	case $tool in
	warpspeed)
		srv=$ws_srv
		cmd=("$ws_bin" -H 127.0.0.1 -p "$ws_port" -t "$t" -l "$len")
		case $s in
		p50_*) cmd+=(-v 2) ;;
		multi) cmd+=(--streams "$streams" --threads "$threads" -P 0) ;;
		*) cmd+=(-P 0) ;;
		esac
		if [ $pinned = 1 ]; then
			[ "$s" = multi ] && cmd+=(--cpus 0,1 --remote-cpus 1,0) || cmd+=(-T 0,1)
		fi
		case $s in p50_*) cmd+=(-- -r 14,14) ;; esac
		launch "$out.1" "${cmd[@]}" ;;
	netperf)
		srv=$ns_srv
		[ "$s" = multi ] && n=$streams
		for i in $(seq 1 "$n"); do
			cmd=(netperf -H 127.0.0.1 -p "$ns_port" -t "$t" -l "$len" -P 0)
			[ $pinned = 1 ] && cmd+=(-T $(((i - 1) % 2)),$((i % 2)))
			launch "$out.$i" "${cmd[@]}"
		done ;;
	sockperf)
		local pv=sp_port_${s#p50_}_$m sv=sp_srv_${s#p50_}_$m
		srv=${!sv}
		cmd=(sockperf pp -i 127.0.0.1 -p "${!pv}" -t "$len" -m 14)
		[ "$s" = p50_tcp ] && cmd+=(--tcp)
		[ $pinned = 1 ] && cmd=(taskset -c 0 "${cmd[@]}")
		launch "$out.1" "${cmd[@]}" ;;
	esac
	if ! finish "$key" "$srv"; then
		echo "$s/$m: $tool failed: $(oneline "$out.1")" >"$work/why"
		return 1
	fi
	[ -n "$probe" ] && : >"$work/where.$key" # the probe's placement is not the benchmark's
	v=0
	for i in $(seq 1 "$n"); do
		local x
		case $tool.$s in
		sockperf.*) x=$(ws_sockperf_rtt "$out.$i") ;;
		warpspeed.p50_*) x=$(ws_rr_p50 "$out.$i") ;;
		*) x=$(ws_rr_rate "$out.$i") ;;
		esac
		if ! [[ $x =~ ^[0-9]+(\.[0-9]+)?$ ]] || ! awk -v x="$x" 'BEGIN { exit !(x > 0) }'; then
			echo "$s/$m: cannot read $tool's figure from: $(oneline "$out.$i")" >"$work/why"
			return 1
		fi
		v=$(awk -v a="$v" -v b="$x" 'BEGIN { printf "%.3f", a + b }')
	done
	[ -n "$probe" ] && return 0
	local metric unit
	read -r _ _ metric unit _ < <(awk -v s="$s" '$1 == s' <<<"$scenario_table")
	printf '%s/%s\t%s\t%s\t%s\n' "$s" "$m" "$tool" "$round" "$v" >>"$work/rounds.tsv"
	printf '%s/%s\t%s\t%s\t%s\t%s\n' "$s" "$m" "$tool" "$metric" "$unit" "$v" | tee -a "$samples" |
		{ [ -n "$ext_samples" ] && sed 's|^|rr/|' >>"$ext_samples" || cat >/dev/null; }
	[ "$n" -gt 1 ] && cmd=("${cmd[@]}" "(x$n in parallel, process i: -T (i-1)%2,i%2 when pinned)")
	printf '%s/%s\t%s\t%s\n' "$s" "$m" "$tool" "${cmd[*]}" >>"$cmds"
	printf '%-6s %-18s %-10s %14s %s\n' "$round" "$s/$m" "$tool" "$v" "$unit"
}

# --- the rounds ----------------------------------------------------------------------------
round=0
declare -A ws_ok
for s in $scenarios; do
	ws_ok[$s]=0
	[ "$have_ws" = 1 ] || continue
	if run_one "$s" unpinned warpspeed probe; then
		ws_ok[$s]=1
	else
		note "warpspeed skipped in $s: $(cat "$work/why")"
	fi
done

printf '%-6s %-18s %-10s %14s %s\n' round scenario tool median unit
for round in $(seq 1 "$rounds"); do
	for s in $scenarios; do
		ref=$(awk -v s="$s" '$1 == s { print $2 }' <<<"$scenario_table")
		for m in $modes; do
			tools=$ref
			[ "${ws_ok[$s]}" = 1 ] && tools="warpspeed $ref"
			for tool in $tools; do
				run_one "$s" "$m" "$tool" || note "round $round: $(cat "$work/why")"
			done
		done
	done
done

# The clock reads' cost (bench/rr_clock.c), when built: its own ping-pong, its own rounds.
clock_bin=$(dirname "$ws_bin")/bench/rr_clock
: >"$work/clock.txt"
if [ "$want_clock" = 1 ]; then
	if [ -x "$clock_bin" ]; then
		echo "== $clock_bin -r $rounds"
		"$clock_bin" -r "$rounds" >"$work/clock.txt" 2>&1 || note "rr_clock failed: $(head -c 300 "$work/clock.txt")"
		cat "$work/clock.txt"
		[ -n "$ext_notes" ] && grep '^rr_clock: estimated' "$work/clock.txt" >>"$ext_notes"
	else
		note "clock cost skipped: $clock_bin is not built (make bench-bins)"
	fi
fi

# --- the report ------------------------------------------------------------------------------
mkdir -p "$outdir" || ws_die "cannot create $outdir"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
md=$outdir/$stamp-rr.md
json=$outdir/$stamp-rr.json
rows=$work/rows.tsv
: >"$rows"
for s in $scenarios; do
	read -r _ ref metric unit goal < <(awk -v s="$s" '$1 == s' <<<"$scenario_table")
	for m in $modes; do
		for tool in warpspeed $ref; do
			k=$s/$m
			read -r med mn mx n < <(awk -F'\t' -v k="$k" -v t="$tool" '$1 == k && $2 == t { print $5 }' "$samples" | ws_stats)
			[ "$n" -gt 0 ] || continue
			# The median of the per-round ratios (rounds where both ran): drift between
			# rounds cancels in it, unlike in the ratio of the medians the verdict uses.
			rr=$(awk -F'\t' -v k="$k" -v ref="$ref" '$1 == k { v[$2, $3] = $4 }
				END { for (i in v) { split(i, p, SUBSEP); if (p[1] == "warpspeed" && (ref, p[2]) in v && v[ref, p[2]] > 0) print v[i] / v[ref, p[2]] } }' \
				"$work/rounds.tsv" | ws_stats | awk '$4 > 0 { printf "%.3f", $1 }')
			[ "$tool" = warpspeed ] && [ -n "$rr" ] || rr=-
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$tool" "$metric" "$unit" "$n" \
				"$med" "$mn" "$mx" "$ref" "$goal" "$(ws_rr_where 2>/dev/null <"$work/where.$s-$m.$tool" || echo -)" "$rr" >>"$rows"
		done
	done
done
header="host: $(uname -n), kernel $(uname -r), $(nproc) CPUs; run $stamp; $rounds rounds of $secs s on loopback, the tools taking turns within each round; netperf $(netperf -V 2>&1 | awk '{ print $NF; exit }'), sockperf $(sockperf --version 2>&1 | awk '/version/ { print $3; exit }' | tr -d ',')"
awk -F'\t' -v md="$md" -v js="$json" -v header="$header" -v cmdsf="$cmds" -v notesf="$notes" -v clockf="$work/clock.txt" -v clockcmd="$clock_bin -r $rounds" '
function jstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/[[:cntrl:]]/, " ", s); return "\"" s "\"" }
function fmt(v) { return sprintf(v >= 1000 ? "%.0f" : v >= 1 ? "%.2f" : "%.4g", v) }
{ n++; for (i = 1; i <= 12; i++) f[n, i] = $i; med[$1, $2] = $6 }
END {
	print "# warpspeed RR benchmark" > md
	print "" > md; print header > md; print "" > md
	print "sockperf reports half round trips: its figures here are doubled (full round trips)." > md
	print "" > md
	print "| scenario | tool | metric | unit | rounds | median | min | max | ratio to reference | goal | result | median of round ratios | where it ran (busy threads) |" > md
	print "|---|---|---|---|---:|---:|---:|---:|---:|---|---|---:|---|" > md
	printf "{\n  \"header\": %s,\n  \"rows\": [", jstr(header) > js
	for (r = 1; r <= n; r++) {
		ratio = ""; goal = "-"; res = "-"
		if (f[r, 2] == "warpspeed") {
			goal = f[r, 10]
			if ((f[r, 1], f[r, 9]) in med && med[f[r, 1], f[r, 9]] > 0) {
				ratio = f[r, 6] / med[f[r, 1], f[r, 9]]; g = substr(goal, 3) + 0
				res = (substr(goal, 1, 2) == ">=" ? ratio >= g : ratio <= g) ? "PASS" : "MISS"
			} else res = "SKIP"
			goal = "ratio " goal
		}
		printf "| %s | %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", f[r, 1], f[r, 2], f[r, 3], f[r, 4],
			f[r, 5], fmt(f[r, 6]), fmt(f[r, 7]), fmt(f[r, 8]), (ratio == "" ? "-" : sprintf("%.3f", ratio)),
			goal, res, f[r, 12], f[r, 11] > md
		printf "%s\n    {\"scenario\": %s, \"tool\": %s, \"metric\": %s, \"unit\": %s, \"rounds\": %d, \"median\": %s, \"min\": %s, \"max\": %s, \"reference\": %s, \"ratio\": %s, \"goal\": %s, \"result\": %s, \"round_ratio_median\": %s, \"where\": %s}",
			(r > 1 ? "," : ""), jstr(f[r, 1]), jstr(f[r, 2]), jstr(f[r, 3]), jstr(f[r, 4]), f[r, 5], f[r, 6], f[r, 7],
			f[r, 8], jstr(f[r, 9]), (ratio == "" ? "null" : sprintf("%.4f", ratio)), jstr(goal), jstr(res),
			(f[r, 12] == "-" ? "null" : f[r, 12]), jstr(f[r, 11]) > js
	}
	printf "\n  ],\n  \"commands\": [" > js
	print "" > md; print "## Commands (the last round of each)" > md; print "" > md; print "```" > md
	nc = 0
	while ((getline line < cmdsf) > 0) {
		split(line, c, "\t"); cmd[c[1] " " c[2]] = c[3]
		if (!((c[1] " " c[2]) in seen)) { seen[c[1] " " c[2]] = 1; order[++nc] = c[1] " " c[2] }
	}
	for (i = 1; i <= nc; i++) {
		printf "%-26s %s\n", order[i], cmd[order[i]] > md
		printf "%s\n    {\"run\": %s, \"command\": %s}", (i > 1 ? "," : ""), jstr(order[i]), jstr(cmd[order[i]]) > js
	}
	print "```" > md
	printf "\n  ],\n  \"clock\": [" > js
	nl = 0
	while ((getline line < clockf) > 0) {
		if (!nl) { print "" > md; print "## Clock cost: " clockcmd > md; print "" > md; print "```" > md }
		print line > md; printf "%s\n    %s", (nl++ ? "," : ""), jstr(line) > js
	}
	if (nl) print "```" > md
	printf "\n  ],\n  \"notes\": [" > js
	print "" > md; print "## Notes" > md; print "" > md
	nn = 0
	while ((getline line < notesf) > 0) { print "- " line > md; printf "%s\n    %s", (nn++ ? "," : ""), jstr(line) > js }
	if (nn == 0) print "- none" > md
	printf "\n  ]\n}\n" > js
}' "$rows"
echo
cat "$md"
echo
echo "wrote $md and $json"
if [ -n "$ext_notes" ]; then
	awk -F'|' '$3 ~ /warpspeed/ && $12 ~ /PASS|MISS|SKIP/ {
		gsub(/ +/, " "); printf "rr %s: warpspeed %s, ratio %s (goal %s): %s; median of round ratios %s\n", $2, $7, $10, $11, $12, $13 }' "$md" >>"$ext_notes"
fi
exit 0
