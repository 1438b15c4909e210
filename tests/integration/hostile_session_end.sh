# SPDX-License-Identifier: BSD-2-Clause
# A client killed mid-test ends its daemon session at once (issue 27, D7): before, a
# `-t UDP_STREAM -l 120` client killed with -9 after 1.2 s left its session (and its
# admission slot, and a control connection in CLOSE-WAIT) for 120 s, because the UDP
# receiver waited for the test's length. The session watches its control connection
# during the data phase. Against --max-sessions 1, a second client must be admitted
# within 3 s of the kill. About 4 s per protocol.
source "$(dirname "$0")/../lib.sh"

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# killed_client NAME CLIENT: run CLIENT (warpspeed or netperf) -t UDP_STREAM -l 120,
# kill -9 it after 1.2 s, then time how long until the daemon (--max-sessions 1) admits a
# short TCP_STREAM again.
killed_client() {
	local name=$1 pid t0
	start_daemon --max-sessions 1 || { fail "${name}_daemon" "no daemon"; return; }
	"$2" -H 127.0.0.1 -p "$DAEMON_PORT" -t UDP_STREAM -l 120 >"$WS_TMP/$name.out" 2>&1 &
	pid=$!
	WS_PIDS+=("$pid")
	sleep 1.2
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	t0=$(date +%s%N)
	wait_log "the client closed the control connection during UDP_STREAM"
	if "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -l -1000000 >"$WS_TMP/$name.next" 2>&1 &&
	   [ "$(ms_since "$t0")" -lt 3000 ]; then
		pass "${name}_session_ends_at_once"
	else
		fail "${name}_session_ends_at_once" "after $(ms_since "$t0") ms: $(cat "$WS_TMP/$name.next"); log: $(tail -n 3 "$DAEMON_LOG")"
	fi
	if grep -q "the client closed the control connection during UDP_STREAM; the test was ended at once" "$DAEMON_LOG"
	then pass "${name}_logged"; else fail "${name}_logged" "$(cat "$DAEMON_LOG")"; fi
	if ss -tan 2>/dev/null | grep -q "CLOSE-WAIT.*:$DAEMON_PORT "; then
		fail "${name}_no_close_wait" "$(ss -tan | grep ":$DAEMON_PORT ")"
	else
		pass "${name}_no_close_wait"
	fi
	kill "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null
}

killed_client warpspeed "$WS_BIN"
if command -v netperf >/dev/null; then killed_client netperf netperf
else skip netperf_session_ends_at_once "netperf is not installed"; fi
finish
