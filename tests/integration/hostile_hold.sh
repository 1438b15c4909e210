# SPDX-License-Identifier: BSD-2-Clause
# One address cannot hold the daemon (issue 27, D3): before, 64 netperf sessions from one
# address that each sent DO_SYSINFO and then CPU_CALIBRATE every 3 s, inside
# `--idle-timeout 5`, kept every other client out ("busy ... 64 sessions", netperf:
# remote error 16) for as long as they liked. Now one address gets at most
# --max-sessions-per-addr sessions (default 16), and only a test renews a session's idle
# deadline. Here: 64 such sessions from 127.0.0.2 against --idle-timeout 1, and a stock
# netperf (or warpspeed) from 127.0.0.1 meanwhile. About 3 s.
source "$(dirname "$0")/../lib.sh"
PEER="$(dirname "$0")/hostile_peer.py"

python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.2", 0))' 2>/dev/null ||
	{ skip hold "127.0.0.2 cannot be bound here"; finish; }
start_daemon --idle-timeout 1 || { fail daemon_start "no daemon"; finish; }
python3 "$PEER" np-hold "$DAEMON_PORT" 2.5 64 127.0.0.2 >"$WS_TMP/hold.out" 2>&1 &
WS_PIDS+=($!)
hold=$!
for _ in $(seq 1 100); do grep -q admitted "$WS_TMP/hold.out" && break; sleep 0.05; done
client="$WS_BIN"
command -v netperf >/dev/null && client=netperf
if "$client" -H 127.0.0.1 -p "$DAEMON_PORT" -t TCP_RR -l 1 -P 0 >"$WS_TMP/other.out" 2>&1
then pass other_address_served
else fail other_address_served "$(cat "$WS_TMP/other.out"); $(cat "$WS_TMP/hold.out")"; fi
wait "$hold"
if grep -q "^admitted 16, refused 48$" "$WS_TMP/hold.out"; then pass per_address_cap_16
else fail per_address_cap_16 "$(cat "$WS_TMP/hold.out")"; fi
if grep -qE "^closed by the daemon 16 of 16 within" "$WS_TMP/hold.out"; then pass idle_not_renewed_by_messages
else fail idle_not_renewed_by_messages "$(cat "$WS_TMP/hold.out")"; fi
if grep -q "busy: 127.0.0.2 holds 16 sessions, this daemon's limit per client address (warpspeed serve --max-sessions-per-addr 16)" "$DAEMON_LOG" &&
   grep -q "no test for 1 s (warpspeed serve --idle-timeout); messages that are not tests do not count" "$DAEMON_LOG"
then pass logged
else fail logged "$(tail -n 5 "$DAEMON_LOG")"; fi
finish
