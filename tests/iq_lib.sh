# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash
# Shared helpers of the IQ integration scripts (after tests/lib.sh): a `warpspeed node` on a
# free loopback port and bench/iq_proxy in front of it, each added to WS_PIDS, and the
# gige-jumbo test bed with a node in it.
# Usage: . "$(dirname "$0")/../iq_lib.sh"

# wait_banner VAR FILE SED-EXPR: sets VAR to what SED-EXPR prints from FILE, polling for up
# to 2 s; false when nothing came.
wait_banner() {
	local _ v
	for _ in $(seq 1 100); do
		v=$(sed -n "$3" "$2" 2>/dev/null)
		[ -n "$v" ] && printf -v "$1" %s "$v" && return 0
		sleep 0.02
	done
	return 1
}

# need_proxy NAME: SKIP NAME and end the script when bench/iq_proxy is not built.
need_proxy() {
	[ -x "$WS_BUILD/bench/iq_proxy" ] && return 0
	skip "$1" "$WS_BUILD/bench/iq_proxy not built (make bench-bins)"
	finish
}

# start_node ARGS...: `warpspeed node` on 127.0.0.1, port 0, no broadcast port, 1 Mi
# samples per buffer, then ARGS (later options win); sets NODE_PORT and NODE_PID; false
# when it did not start.
start_node() {
	"$WS_BIN" node --bind 127.0.0.1 --port 0 --bcast-port off --tx-samples 1M \
		--rx-samples 1M "$@" >"$WS_TMP/node.out" 2>"$WS_TMP/node.err" &
	NODE_PID=$!
	WS_PIDS+=("$NODE_PID")
	NODE_PORT=
	wait_banner NODE_PORT "$WS_TMP/node.err" 's/.*listening on [0-9.]*:\([0-9]*\),.*/\1/p'
}

# node_counter NAME: that counter of the node NODE_PID (its stdout in NODE_OUT, by default
# the file start_node writes), from a fresh SIGUSR1 line.
node_counter() {
	local before after out=${NODE_OUT:-$WS_TMP/node.out}
	before=$(grep -c 'counters (SIGUSR1)' "$out")
	kill -USR1 "$NODE_PID"
	for _ in $(seq 1 100); do
		after=$(grep -c 'counters (SIGUSR1)' "$out")
		[ "$after" -gt "$before" ] && break
		sleep 0.01
	done
	grep 'counters (SIGUSR1)' "$out" | tail -n 1 | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# start_proxy NAME ARGS...: bench/iq_proxy to the node of start_node; sets PPORT.
start_proxy() {
	local name=$1
	shift
	"$WS_BUILD/bench/iq_proxy" --node "127.0.0.1:$NODE_PORT" "$@" 2>"$WS_TMP/$name.px" &
	WS_PIDS+=("$!")
	PPORT=
	wait_banner PPORT "$WS_TMP/$name.px" 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p'
}

# bed_up CHECK NAME: bench/testbed's gige-jumbo bed named NAME (WS_TBF_* from the
# environment apply), its variables exported, and a `warpspeed node` in namespace B (no
# reply cap, in WS_PIDS, its PID in BED_NODE_PID) answering pings from A, 5 s at most; when
# the bed cannot come up, CHECK fails and the script ends. The caller's EXIT trap takes the bed down.
bed_up() {
	testbed_up "$1" gige-jumbo "$2" # tests/testbed_lib.sh
	"$tb" exec B "$WS_BIN" node --bind "$WS_B" --reply-rate off --quiet >"$WS_TMP/node.log" 2>&1 &
	BED_NODE_PID=$! # bench/testbed and ip netns exec both exec: this is the node
	WS_PIDS+=("$BED_NODE_PID")
	for _ in $(seq 1 50); do
		"$tb" exec A "$WS_BIN" iq ping "$WS_B" --count 1 >/dev/null 2>&1 && return 0
		sleep 0.1
	done
}

# need_octave CHECK BUILD_DIR: SKIP CHECK and end the script when the MEX checks cannot run:
# the sanitized build (a sanitized MEX loads only into an Octave started with LD_PRELOAD of
# libasan and libubsan: make SANITIZE=1 mex, docs/iq.md; the plain run has the checks), or
# octave or mkoctfile missing.
need_octave() {
	local why=
	if [ "$(basename "$2")" = san ]; then
		why="the sanitized run: the MEX's own checks run in the plain run; a sanitized MEX needs Octave with LD_PRELOAD of libasan and libubsan (make SANITIZE=1 mex, docs/iq.md)"
	elif ! command -v octave >/dev/null 2>&1; then
		why="octave is not installed (Debian: octave)"
	elif ! command -v mkoctfile >/dev/null 2>&1; then
		why="mkoctfile is not installed (Debian: liboctave-dev)"
	fi
	[ -z "$why" ] && return 0
	skip "$1" "$why"
	finish
}
