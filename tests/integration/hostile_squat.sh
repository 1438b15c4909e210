# SPDX-License-Identifier: BSD-2-Clause
# Squatters on a test's data port cost the real flows no time (issue 27, D12): before,
# 3-7 silent connections to the data port from the control peer's address delayed the
# start by 2.9-6.9 s, as the daemon read each one's cookie in turn with 1 s of patience.
# Now every pending data connection is read in one poll loop and closed as soon as it
# fails to show the session's cookie (or is silent for 1 s). Here 7 silent connections
# come before the real one: START must be answered within 500 ms. About 2 s.
source "$(dirname "$0")/../lib.sh"
PEER="$(dirname "$0")/hostile_peer.py"

start_daemon || { fail daemon_start "no daemon"; finish; }
python3 "$PEER" ws-squat "$DAEMON_PORT" 7 >"$WS_TMP/squat.out" 2>&1
ms=$(sed -n 's/^STARTED after \([0-9]*\) ms from START$/\1/p' "$WS_TMP/squat.out")
if [ -n "$ms" ] && [ "$ms" -lt 500 ]; then pass squatters_cost_no_time
else fail squatters_cost_no_time "$(cat "$WS_TMP/squat.out")"; fi
if wait_log "7 connections to the data port closed without the session's cookie"
then pass squatters_logged; else fail squatters_logged "$(cat "$DAEMON_LOG")"; fi
# a real client is unaffected
if "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -l 1 --streams 4 -P 0 >"$WS_TMP/real.out" 2>&1
then pass real_client_after; else fail real_client_after "$(cat "$WS_TMP/real.out")"; fi
finish
