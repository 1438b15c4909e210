#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# bench/soak.sh: issue 27's hostile peers in rotation against one `warpspeed serve`, one
# keyed `warpspeed serve -Z` and one `warpspeed node`, while honest clients keep using
# them; every few seconds the daemons' and node's RSS, descriptors, threads and log sizes
# are sampled from /proc (read only). At the end: honest runs and failures (each with its
# command and message), resources first/max/last, log bytes, and the verdict against the
# bounds printed with it. Exit 0 when no honest run failed and every bound held, 1 if not,
# 2 on a usage or start-up error. Loopback only (127.0.0.0/8); every process it starts is
# killed by PID on exit, its temporary directory removed.
#
#   bench/soak.sh [--minutes N | --seconds N | --rounds N] [--interval S] [--ci]
#                 [--build DIR] [--keep] [--fill-node]
#
# Default 30 minutes, a sample every 10 s (--ci: every 2 s, shorter attack rows, and under
# a sanitized build a lighter honest load). --rounds N ends the soak once the attackers
# have taken N full turns (each row N times) instead of after a time. WS_BIN overrides
# DIR/warpspeed. The attackers are the tests' own: tests/integration/hostile_peer.py
# (daemons) and node_hostile.py (node), one at a time per target, the targets side by side.
# --fill-node lets the sparse writer fill the node's whole --max-memory, after which the
# honest writes fail (see SPARSE_TX below); --keep keeps the temporary files.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
secs=1800 interval=10 ci=0 build=build keep=0 rounds=0
while [ $# -gt 0 ]; do
	case $1 in
	--minutes) secs=$(($2 * 60)); shift 2 ;;
	--seconds) secs=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--interval) interval=$2; shift 2 ;;
	--ci) ci=1; interval=2; shift ;;
	--build) build=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--fill-node) export SPARSE_TX=33554432; shift ;;
	-h | --help) sed -n '3,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "soak.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
case $build in /*) ;; *) build=$root/$build ;; esac
case $rounds in '' | *[!0-9]*) echo "soak.sh: --rounds '$rounds' is not a number of turns; expected a whole number (0: end after the time instead)" >&2; exit 2 ;; esac
BIN=${WS_BIN:-$build/warpspeed}
[ -x "$BIN" ] || { echo "soak.sh: $BIN is not built (make)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "soak.sh: python3 is needed for the attackers" >&2; exit 2; }
PEER=$root/tests/integration/hostile_peer.py
NODEATK=$root/tests/integration/node_hostile.py
san=0
"$BIN" -V 2>/dev/null | grep -q ", ASan" && san=1
[ "$(basename "$build")" = san ] && san=1

T=$(mktemp -d /tmp/ws-soak.XXXXXX)
touch "$T/runs" "$T/failures" "$T/attacks" "$T/samples"
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	if [ "$keep" = 1 ]; then echo "soak.sh: files kept in $T" >&2; else rm -rf "$T"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the targets ------------------------------------------------------------------------
# serve_one NAME ARGS...: a daemon on a free loopback port, under ulimit -n 1024 so its
# descriptor budget (D13) is the same on every machine; sets PORT_NAME and PID_NAME.
serve_one() {
	local name=$1 port= _
	shift
	(ulimit -n 1024 && exec "$BIN" serve -p 0 -L 127.0.0.1 "$@") 2>"$T/$name.log" &
	PIDS+=($!)
	printf -v "PID_$name" %s $!
	for _ in $(seq 1 200); do
		port=$(sed -n 's/.*listening on .* port \([0-9]*\) .*/\1/p' "$T/$name.log" 2>/dev/null)
		[ -n "$port" ] && break
		sleep 0.05
	done
	[ -n "$port" ] || { echo "soak.sh: daemon $name did not start: $(head -c 300 "$T/$name.log")" >&2; exit 2; }
	printf -v "PORT_$name" %s "$port"
}
KEY=soak-key-$$
serve_one daemon --idle-timeout 2
serve_one keyed -Z "$KEY" --idle-timeout 2
# The node: 128 Mi-sample RX buffers for the Read IQ hogs to ask for, 32 Mi-sample TX for
# the sparse writers, a memory budget of 64 MiB they run into (D5, D6).
"$BIN" node --bind 127.0.0.1 --port 0 --bcast-port 0 --tx-samples 32M --rx-samples 128M \
	--max-memory 64M >"$T/node.out" 2>"$T/node.log" &
PIDS+=($!)
PID_node=$!
PORT_node= BPORT_node=
for _ in $(seq 1 200); do
	PORT_node=$(sed -n 's/.*listening on [0-9.]*:\([0-9]*\),.*/\1/p' "$T/node.log" 2>/dev/null)
	BPORT_node=$(sed -n 's/.*broadcast port \([0-9]*\),.*/\1/p' "$T/node.log" 2>/dev/null)
	[ -n "$PORT_node" ] && [ -n "$BPORT_node" ] && break
	sleep 0.05
done
[ -n "$PORT_node" ] && [ -n "$BPORT_node" ] ||
	{ echo "soak.sh: node did not start: $(head -c 300 "$T/node.log")" >&2; exit 2; }
python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.2", 0))' 2>/dev/null ||
	{ echo "soak.sh: 127.0.0.2 cannot be bound here (the attackers need 127.0.0.2-17)" >&2; exit 2; }

now() { date +%s; }
t_start=$(now)
t_end=$((t_start + secs))
# running: true while the soak goes on: until t_end, or with --rounds until every lane of
# attackers (one per target, below) has taken its last turn (each leaves $T/done.LANE).
LANES="daemon keyed node" # the lanes started below
running() {
	local l
	if [ "$rounds" -gt 0 ]; then
		for l in $LANES; do [ -e "$T/done.$l" ] || return 0; done
		return 1
	fi
	[ "$(now)" -lt "$t_end" ]
}

# --- samples: t target rss_kb fds threads log_bytes -------------------------------------
sample() {
	local n pid rss thr fds lb t
	t=$(($(now) - t_start))
	for n in daemon keyed node; do
		eval "pid=\$PID_$n"
		[ -r "/proc/$pid/status" ] || { echo "$t $n gone 0 0 0" >>"$T/samples"; continue; }
		rss=$(awk '$1 == "VmRSS:" {print $2}' "/proc/$pid/status")
		thr=$(awk '$1 == "Threads:" {print $2}' "/proc/$pid/status")
		fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
		lb=$(stat -c %s "$T/$n.log")
		echo "$t $n ${rss:-0} $fds ${thr:-0} $lb" >>"$T/samples"
	done
}
sample # the baseline, before any client

# --- honest load ------------------------------------------------------------------------
# honest NAME CMD...: one honest run, a 180 s safety net (slow is not failed; a hang is);
# a non-zero exit appends "NAME<TAB>command<TAB>message" to failures.
honest() {
	local name=$1 rc
	shift
	timeout 180 "$@" >"$T/h.$name.out" 2>&1
	rc=$?
	echo "$name" >>"$T/runs"
	if [ $rc -ne 0 ]; then
		local msg
		msg=$(tr '\n' ' ' <"$T/h.$name.out" | cut -c1-400)
		[ $rc -eq 124 ] && msg="no end after 180 s: $msg"
		printf '%s\t%s\t%s\n' "$name" "$*" \
			"at $(($(now) - t_start)) s, attacker $(cat "$T/row.$lane" 2>/dev/null): exit $rc: $msg" >>"$T/failures"
	fi
}
pause=0
[ "$san" = 1 ] && [ "$ci" = 1 ] && pause=1 # a lighter honest load for the slow build
TYPES=(TCP_STREAM TCP_MAERTS TCP_SENDFILE UDP_STREAM TCP_RR UDP_RR TCP_CRR)
daemon_clients() {
	local i=0 t lane=daemon # the attackers' lane whose row a failure names
	while running; do
		t=${TYPES[$((i % ${#TYPES[@]}))]}
		honest "$t" "$BIN" -H 127.0.0.1 -p "$PORT_daemon" -t "$t" -l 1 -P 0
		# every seventh run (the first one too), the keyed daemon with the right key, from
		# 127.0.0.1
		[ $((i % 7)) -eq 0 ] &&
			lane=keyed honest keyed_TCP_RR "$BIN" -H 127.0.0.1 -p "$PORT_keyed" -Z "$KEY" -t TCP_RR -l 1 -P 0
		i=$((i + 1))
		sleep "$pause"
	done
}
# The honest host writes past the sparse writer's span: the buffers are one shared state
# (docs/security.md), and a write whose samples another host changes meanwhile fails its
# checksum, which is no fault of the node. It is patient: 10 s without progress, 50 tries.
IQ_PATIENT=(--budget-ms 10000 --retries 50)
iq_clients() {
	local lane=node
	head -c $((4 * 65536)) /dev/urandom >"$T/w.ci16"
	while running; do
		honest iq_write "$BIN" iq write "127.0.0.1:$PORT_node" --rf A --start 16M -i "$T/w.ci16" "${IQ_PATIENT[@]}"
		honest iq_read "$BIN" iq read "127.0.0.1:$PORT_node" --rf A --samples 64K -o "$T/r.ci16" "${IQ_PATIENT[@]}"
		rm -f "$T/r.ci16"
		sleep "$pause"
	done
}

# --- attackers, one row at a time per target ------------------------------------------
# One lane per target, side by side: the daemon's rows, the keyed daemon's (serve -Z) and
# the node's. Each target meets one attacker at a time, and an honest failure names the row
# its own target's lane was in (row.daemon, row.keyed, row.node).
row=8
# The sparse writer's span: one sample per 64 KiB chunk of RF_A and RF_B over SPARSE_TX
# samples, triggered, twice (the copy-on-write), commits 4 x SPARSE_TX / 16 Ki chunks, 32 MiB
# for 2 Mi samples: under the node's --max-memory 64M, next to the honest writes. A writer
# that fills the whole budget (33554432, as in node_memory.sh) refuses every later Write IQ
# into a triggered chunk, an honest host's too, until the node restarts: --fill-node shows it.
SPARSE_TX=${SPARSE_TX:-2097152}
# --ci: 3 s rows, longer than the daemons' --idle-timeout 2 (the held sessions are closed
# within a row) and than the log limiter's 2 s summary period.
[ "$ci" = 1 ] && row=3
atk() { # LANE NAME CMD...: one attack, its output kept in atk.NAME (for the report's counts)
	local lane=$1 name=$2
	shift 2
	echo "$name" >>"$T/attacks"
	echo "$name" >"$T/row.$lane"
	timeout $((row + 30)) "$@" >>"$T/atk.$name" 2>&1
}
# another_row K ROWS: true when a lane of ROWS rows a turn takes its row K (counted from
# 0): within --rounds turns, or when a row still fits before t_end.
another_row() {
	if [ "$rounds" -gt 0 ]; then [ "$1" -lt $(($2 * rounds)) ]; else [ $(($(now) + row)) -lt "$t_end" ]; fi
}
# lane NAME ROWS: the attackers of one target, NAME_row 0 .. ROWS-1 in turns (the last row
# a breath: the target's idle state between turns): within --rounds turns, or while a row
# still fits before t_end; then $T/done.NAME.
lane() {
	local name=$1 rows=$2 k=0
	while another_row "$k" "$rows"; do
		if [ $((k % rows)) -eq $((rows - 1)) ]; then
			echo none >"$T/row.$name"
			sleep 1
		else
			"${name}_row" $((k % rows))
		fi
		k=$((k + 1))
	done
	touch "$T/done.$name"
}
daemon_row() {
	local p
	case $1 in
	0) for _ in $(seq 2 2 "$row"); do # 1.5 s each, inside the daemons' --idle-timeout 2
		atk daemon log_flood_np python3 "$PEER" np-unknown "$PORT_daemon" 1.5
	   done
	   atk daemon log_flood_ws python3 "$PEER" ws-longreq "$PORT_daemon" 1 ;;
	1) atk daemon hold python3 "$PEER" np-hold "$PORT_daemon" "$row" 64 127.0.0.2 ;;
	2) "$BIN" -H 127.0.0.1 -p "$PORT_daemon" -t UDP_STREAM -l 120 >/dev/null 2>&1 &
	   p=$!
	   sleep 1.2
	   kill -9 "$p" 2>/dev/null
	   wait "$p" 2>/dev/null
	   echo killed >>"$T/attacks"
	   echo killed >"$T/row.daemon"
	   "$BIN" -H 127.0.0.1 -p "$PORT_daemon" -t TCP_STREAM -l 120 >/dev/null 2>&1 &
	   p=$!
	   sleep 1.2
	   kill -9 "$p" 2>/dev/null
	   wait "$p" 2>/dev/null ;;
	3) atk daemon squat python3 "$PEER" ws-squat "$PORT_daemon" 7 ;;
	4) atk daemon fds_refused "$BIN" -H 127.0.0.1 -p "$PORT_daemon" -P 0 --streams 4096 -l 1
	   atk daemon fds_held "$BIN" -H 127.0.0.1 -p "$PORT_daemon" -P 0 --streams 200 -l 1 ;;
	esac
}
keyed_row() { atk keyed guess python3 "$PEER" guess "$PORT_keyed" "$row" 4 127.0.0.2; }
node_row() {
	case $1 in
	0) atk node node_hogs python3 "$NODEATK" hogs "$PORT_node" 16 "$row" ;;
	1) atk node node_sparse python3 "$NODEATK" sparse "$PORT_node" "$BPORT_node" "$SPARSE_TX" 2 ;;
	esac
}

daemon_clients &
PIDS+=($!)
iq_clients &
PIDS+=($!)
lane daemon 6 &
PIDS+=($!)
lane keyed 2 &
PIDS+=($!)
lane node 3 &
PIDS+=($!)
LOAD=("${PIDS[@]: -5}")
while running; do
	sleep "$interval"
	sample
done
for p in "${LOAD[@]}"; do wait "$p"; done
# Settled: attackers and clients are gone; sessions end a moment later (up to 10 s).
settle() {
	local n pid f0 t0 _
	for _ in $(seq 1 50); do
		local ok=1
		for n in daemon keyed node; do
			eval "pid=\$PID_$n"
			f0=$(awk -v n="$n" '$2 == n {print $4; exit}' "$T/samples")
			t0=$(awk -v n="$n" '$2 == n {print $5; exit}' "$T/samples")
			[ "$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)" -le $((f0 + 2)) ] || ok=0
			[ "$(awk '$1 == "Threads:" {print $2}' "/proc/$pid/status" 2>/dev/null)" -le $((t0 + 2)) ] 2>/dev/null || ok=0
		done
		[ $ok = 1 ] && return
		sleep 0.2
	done
}
settle
sample

# --- the report -------------------------------------------------------------------------
took=$(($(now) - t_start))
runs=$(wc -l <"$T/runs")
nfail=$(wc -l <"$T/failures")
minutes=$(((took + 59) / 60))
# Bounds: fds and threads back within 2 of their start once the attackers stopped; RSS
# growth (max - first) under 64 MiB for a daemon and 64 MiB (--max-memory) + 64 MiB for the
# node (AddressSanitizer's quarantine holds up to 256 MiB of freed memory: 512 MiB there);
# each log under 256 KiB + 128 KiB per minute (an unlimited flood writes megabytes a second).
rss_daemon=$((64 * 1024)) rss_node=$((128 * 1024))
[ "$san" = 1 ] && rss_daemon=$((512 * 1024)) rss_node=$((640 * 1024))
log_cap=$(((256 + 128 * minutes) * 1024))
bad=0
echo "soak: ${took} s, attacks $(sort "$T/attacks" | uniq -c | awk '{printf "%s%s x%d", (NR > 1 ? ", " : ""), $2, $1}')"
echo "honest runs: $runs ($(sort "$T/runs" | uniq -c | awk '{printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1}'))"
echo "honest failures: $nfail (0 wanted)"
if [ "$nfail" -gt 0 ]; then
	bad=1
	awk -F'\t' '{printf "  FAILED %s: %s\n    %s\n", $1, $2, $3}' "$T/failures" | head -n 60
fi
for c in TCP_STREAM iq_read iq_write keyed_TCP_RR; do
	grep -qx "$c" "$T/runs" || { echo "  no honest $c run finished (at least one wanted)"; bad=1; }
done
printf '%-7s %-22s %-22s %-22s %s\n' target "RSS kB first/max/last" "fds first/max/last" "threads first/max/last" "log bytes"
for n in daemon keyed node; do
	line=$(awk -v n="$n" '$2 == n {
		if (!c++) { r0 = $3; f0 = $4; t0 = $5 }
		if ($3 > rm) rm = $3; if ($4 > fm) fm = $4; if ($5 > tm) tm = $5
		r1 = $3; f1 = $4; t1 = $5; lb = $6; gone = gone || ($3 == "gone")
	} END { print r0, rm, r1, f0, fm, f1, t0, tm, t1, lb, gone + 0 }' "$T/samples")
	read -r r0 rm r1 f0 fm f1 t0 tm t1 lb gone <<<"$line"
	printf '%-7s %-22s %-22s %-22s %s\n' "$n" "$r0/$rm/$r1" "$f0/$fm/$f1" "$t0/$tm/$t1" "$lb"
	cap=$rss_daemon
	[ "$n" = node ] && cap=$rss_node
	[ "$gone" = 1 ] && { echo "  BOUND $n: the process died"; bad=1; continue; }
	[ $((rm - r0)) -le "$cap" ] || { echo "  BOUND $n: RSS grew $((rm - r0)) kB (at most $cap)"; bad=1; }
	[ "$f1" -le $((f0 + 2)) ] || { echo "  BOUND $n: $f1 fds at the end, $f0 at the start (at most +2)"; bad=1; }
	[ "$t1" -le $((t0 + 2)) ] || { echo "  BOUND $n: $t1 threads at the end, $t0 at the start (at most +2)"; bad=1; }
	[ "$lb" -le "$log_cap" ] || { echo "  BOUND $n: log of $lb bytes (at most $log_cap)"; bad=1; }
done
echo "bounds: RSS growth <= $rss_daemon kB (daemons), $rss_node kB (node); fds and threads at the end <= start + 2; logs <= $log_cap bytes"
for a in "$T"/atk.*; do
	[ -f "$a" ] && echo "attacker ${a##*/atk.}: $(tail -n 1 "$a" | cut -c1-160)"
done
if [ "$bad" = 0 ]; then echo "soak: OK"; else echo "soak: FAILED"; fi
exit "$bad"
