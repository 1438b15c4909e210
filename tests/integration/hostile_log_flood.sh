# SPDX-License-Identifier: BSD-2-Clause
# A session that loops a refused request cannot flood the daemon's log (issue 27, D2):
# before, one netperf session sending an unknown message type in a loop, or a warpspeed
# session repeating a TEST_REQ for a 99,999 s test, made the daemon write a line per
# message (1,189,481 lines, 163 MB in 5 s). Each session's lines now pass a limiter (10 at
# once, then 1 a second) and what it held back is summarised. 2 s of flood each.
source "$(dirname "$0")/../lib.sh"
PEER="$(dirname "$0")/hostile_peer.py"

flood() { # NAME MODE LINE-REGEX
	start_daemon || { fail "$1_daemon" "no daemon"; return; }
	python3 "$PEER" "$2" "$DAEMON_PORT" 2 >"$WS_TMP/$1.out" 2>&1
	local sent lines
	sent=$(grep -oE '^sent [0-9]+' "$WS_TMP/$1.out" | cut -d' ' -f2)
	wait_log "more like this" # the session's end summarises what it held back
	lines=$(grep -cE "$3" "$DAEMON_LOG")
	if [ "${sent:-0}" -ge 100 ] && [ "$lines" -le 16 ] &&
	   grep -qE "\.\.\. [0-9,]+ more like this \(held back: at most 10 lines at once, then 1 per second\)" "$DAEMON_LOG"
	then pass "$1_log_bounded"
	else fail "$1_log_bounded" "$(cat "$WS_TMP/$1.out"); $lines lines: $(tail -n 3 "$DAEMON_LOG")"; fi
	kill "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null
}

flood netperf_unknown np-unknown "unknown message type 7"
flood warpspeed_long_request ws-longreq "a 99999 s test exceeds"
finish
