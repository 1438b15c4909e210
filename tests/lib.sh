# SPDX-License-Identifier: BSD-2-Clause
# Shared helpers of the integration scripts: result lines, a daemon on a free loopback
# port, and cleanup of everything a script started, even when it fails.
# Usage: source "$(dirname "$0")/../lib.sh"
set -u
: "${WS_BIN:?WS_BIN must point at the warpspeed binary}"
WS_TMP=$(mktemp -d /tmp/ws-it.XXXXXX)
WS_PIDS=()
WS_FAILED=0

ws_cleanup() {
	local p
	for p in "${WS_PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
	for p in "${WS_PIDS[@]}"; do wait "$p" 2>/dev/null; done
	rm -rf "$WS_TMP"
}
trap ws_cleanup EXIT

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; WS_FAILED=1; }
skip() { echo "SKIP $1: $2"; }
finish() { exit "$WS_FAILED"; }

# Start `warpspeed serve -p 0 ARGS...` and set DAEMON_PID, DAEMON_PORT, DAEMON_LOG.
start_daemon() {
	DAEMON_LOG="$WS_TMP/daemon.$RANDOM.log"
	"$WS_BIN" serve -p 0 "$@" 2>"$DAEMON_LOG" &
	DAEMON_PID=$!
	WS_PIDS+=("$DAEMON_PID")
	DAEMON_PORT=
	for _ in $(seq 1 100); do
		DAEMON_PORT=$(sed -n 's/.*listening on .* port \([0-9]*\) .*/\1/p' "$DAEMON_LOG")
		[ -n "$DAEMON_PORT" ] && return 0
		sleep 0.05
	done
	echo "daemon did not start: $(cat "$DAEMON_LOG")" >&2
	return 1
}

# ws_served PREFIX TYPE: false (after one SKIP line, PREFIX_TYPE) while the daemon started by
# start_daemon or this build lacks test TYPE; the daemon is asked once per type.
declare -A WS_SERVED=()
ws_served() {
	local t=$2 err=$WS_TMP/probe.$2.err
	if [ -z "${WS_SERVED[$t]:-}" ]; then
		WS_SERVED[$t]=yes
		if ! "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -t "$t" -l -10 >/dev/null 2>"$err" &&
			grep -qE "not supported|not built" "$err"; then
			WS_SERVED[$t]=no
			skip "$1_$t" "$t is not served yet: $(cat "$err")"
		fi
	fi
	[ "${WS_SERVED[$t]}" = yes ]
}

# True once the daemon's log matches an extended regex (it logs a session when the client
# confirms or leaves, a moment after the client has printed its result); waits up to 2 s.
wait_log() {
	local _
	for _ in $(seq 1 40); do
		grep -qE "$1" "$DAEMON_LOG" && return 0
		sleep 0.05
	done
	return 1
}

# Timed runs side by side (a check that needs a second of traffic costs a second of wall
# time only once): bg_run NAME CMD [ARGS...] starts CMD with its stdout and stderr in
# $WS_TMP/NAME.out and NAME.err as soon as fewer than WS_JOBS (default 3) of these runs are
# left; bg_wait waits for all of them and leaves each exit status in $WS_TMP/NAME.rc.
# Their PIDs join WS_PIDS, so a script that fails still stops them.
declare -A WS_BG=()
bg_run() {
	local name=$1 p n
	shift
	while :; do
		n=0
		for p in "${WS_BG[@]}"; do kill -0 "$p" 2>/dev/null && n=$((n + 1)); done
		[ "$n" -lt "${WS_JOBS:-3}" ] && break
		sleep 0.02
	done
	"$@" >"$WS_TMP/$name.out" 2>"$WS_TMP/$name.err" &
	WS_BG[$name]=$!
	WS_PIDS+=($!)
}
bg_wait() {
	local name
	for name in "${!WS_BG[@]}"; do
		wait "${WS_BG[$name]}"
		echo $? >"$WS_TMP/$name.rc"
	done
	WS_BG=()
}

# netperf's TCP stream table headers with -c -C (lines 2-6 of the output, the last empty).
CLASSIC_TCP_CPU_HEADERS=$(printf '%s\n' \
	"Recv   Send    Send                          Utilization       Service Demand" \
	"Socket Socket  Message  Elapsed              Send     Recv     Send    Recv" \
	"Size   Size    Size     Time     Throughput  local    remote   local   remote" \
	"bytes  bytes   bytes    secs.    10^6bits/s  % S      % S      us/KB   us/KB" "")

# For a program that is not sanitized itself (python3) loading this build's libwarpspeed.so:
# in a SANITIZE=1 build (build/san) the sanitizers' runtimes must be loaded first, and the
# program's own allocations are not ours to report.
ws_san_preload() {
	[ "$(basename "$WS_BUILD")" = san ] || return 0
	export LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
}

# A field of the last line of a file (awk numbering).
last_row_field() { tail -n 1 "$1" | awk -v f="$2" '{print $f}'; }

# True when a is within [lo, hi] (floating point).
in_range() { awk -v a="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(a >= lo && a <= hi) }'; }

# Refusals "at once" on a loaded host. A wall-clock limit on a whole command also counts
# the host's load: a sanitized binary's start alone can take a second on a busy 2-vCPU
# machine. ws_quick LIMIT_MS OUT ERR CMD... runs CMD (stdout to OUT, stderr to ERR) and
# limits only what it takes beyond this binary's start and exit measured just before it
# (`$WS_BIN --ws-no-such-option`: a usage error, no work), and when that is still over
# LIMIT_MS, runs it again, three times at most: a command that waits on a timeout or does
# work before its refusal is slow every time, while a load spike is rarely three in a row.
# Sets WS_RC (CMD's status) and WS_EXCESS_MS (the last run's time beyond the start); false
# when every run was slow. Only for commands that may be repeated (refusals).
ws_quick() {
	local limit=$1 out=$2 err=$3 t0 t1 t2 _
	shift 3
	for _ in 1 2 3; do
		t0=${EPOCHREALTIME//[.,]/}
		"$WS_BIN" --ws-no-such-option >/dev/null 2>&1
		t1=${EPOCHREALTIME//[.,]/}
		"$@" >"$out" 2>"$err"
		WS_RC=$?
		t2=${EPOCHREALTIME//[.,]/}
		WS_EXCESS_MS=$(((t2 - t1 - (t1 - t0)) / 1000))
		[ "$WS_EXCESS_MS" -le "$limit" ] && return 0
	done
	return 1
}
