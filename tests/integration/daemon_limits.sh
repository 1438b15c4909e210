# SPDX-License-Identifier: BSD-2-Clause
# The daemon's limits and timeouts, and a client pointed at things that are not daemons:
# every case ends with one clear line, never a hang, and never disturbs other sessions.
source "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip foreign_peers "python3 is not installed"; }

# --- max sessions: a second concurrent client is refused with the reason -----------------
start_daemon --max-sessions 1 --max-duration 5 --hello-timeout 1 || { fail daemon_start "no daemon"; finish; }
P=$DAEMON_PORT
"$WS_BIN" -H 127.0.0.1 -p "$P" -l 2 -P 0 >"$WS_TMP/holder.out" 2>&1 &
holder=$!
sleep 0.4
start=$(date +%s%N)
"$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -P 0 >"$WS_TMP/busy.out" 2>&1; rc=$?
took=$(( ($(date +%s%N) - start) / 1000000 ))
if [ $rc -eq 1 ] && grep -q "busy" "$WS_TMP/busy.out" && grep -q -- "--max-sessions" "$WS_TMP/busy.out" && [ $took -lt 1500 ]; then
	pass max_sessions
else
	fail max_sessions "exit $rc after ${took} ms: $(cat "$WS_TMP/busy.out")"
fi
wait "$holder" && pass holder_unaffected || fail holder_unaffected "$(cat "$WS_TMP/holder.out")"

# --- max duration ------------------------------------------------------------------------
"$WS_BIN" -H 127.0.0.1 -p "$P" -l 60 >"$WS_TMP/long.out" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q "60 s test exceeds this daemon's limit of 5 s" "$WS_TMP/long.out"; then pass max_duration
else fail max_duration "exit $rc: $(cat "$WS_TMP/long.out")"; fi

# --- a client that connects and says nothing is dropped; others are served meanwhile -----
exec 7<>/dev/tcp/127.0.0.1/"$P"
if "$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -P 0 >"$WS_TMP/during.out" 2>&1; then pass silent_client_no_block
else fail silent_client_no_block "$(cat "$WS_TMP/during.out")"; fi
# Pre-session drops are logged as a summary, at most one line per 2 s.
if wait_log "pre-session: .*timed out from 127.0.0.1:[0-9]+: HELLO not complete within 1 s \(warpspeed serve --hello-timeout\)" ||
   wait_log "pre-session: .*timed out from 127.0.0.1:[0-9]+: HELLO not complete within 1 s \(warpspeed serve --hello-timeout\)"; then pass silent_client_dropped
else fail silent_client_dropped "$(cat "$DAEMON_LOG")"; fi
exec 7>&-

# --- garbage from a client is refused and logged; a netperf request cut short likewise -----
# (a first byte of 0 is netperf's: its 656-byte messages are served, tests/integration/
# netperf_client.sh; 41 bytes and EOF is a malformed one)
exec 7<>/dev/tcp/127.0.0.1/"$P"
printf '\x01\x00\x00\x01garbage that is not a warpspeed frame' >&7
exec 7>&-
exec 7<>/dev/tcp/127.0.0.1/"$P"
printf '\x00\x00\x00\x01garbage that is not a warpspeed frame' >&7
exec 7>&-
if { wait_log "refused a foreign protocol from 127.0.0.1:[0-9]+: the peer is not speaking the warpspeed protocol \(it sent '01 00 00 01 67 61 72 62'\)" ||
     wait_log "refused a foreign protocol from 127.0.0.1:[0-9]+: the peer is not speaking the warpspeed protocol \(it sent '01 00 00 01 67 61 72 62'\)"; } &&
   wait_log "refused a bad netperf message from 127.0.0.1:[0-9]+: netperf client: the netperf peer closed the connection after 41 bytes of a 656-byte message" &&
   kill -0 "$DAEMON_PID"; then pass garbage_client
else fail garbage_client "$(tail -n 3 "$DAEMON_LOG")"; fi

# --- peers that are not warpspeed daemons ------------------------------------------------
if command -v python3 >/dev/null; then
	fake() { # mode: http | silent | close; prints the port
		exec python3 - "$1" <<'PY'
import socket, sys, time
mode = sys.argv[1]
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
print(s.getsockname()[1], flush=True)
c, _ = s.accept()
if mode == "http":
    c.recv(100); c.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"); time.sleep(2)
elif mode == "silent":
    time.sleep(8)
c.close()
PY
	}
	for mode in http silent close; do
		fake "$mode" >"$WS_TMP/fake.port" &
		fpid=$!
		WS_PIDS+=("$fpid")
		fport=
		for _ in $(seq 1 200); do fport=$(head -n 1 "$WS_TMP/fake.port"); [ -n "$fport" ] && break; sleep 0.05; done
		[ -n "$fport" ] || { fail "not_a_daemon_$mode" "the fake server did not start"; continue; }
		start=$(date +%s%N)
		"$WS_BIN" -H 127.0.0.1 -p "$fport" -l 1 >"$WS_TMP/fake.out" 2>&1; rc=$?
		took=$(( ($(date +%s%N) - start) / 1000000 ))
		lines=$(wc -l <"$WS_TMP/fake.out")
		if [ $rc -eq 1 ] && [ "$lines" -eq 1 ] && grep -q "is not a warpspeed daemon" "$WS_TMP/fake.out" && [ $took -lt 4500 ]; then
			if [ $mode = http ] && ! grep -q "HTTP/1.1 400 Bad Request" "$WS_TMP/fake.out"; then
				fail "not_a_daemon_$mode" "the reply is not quoted: $(cat "$WS_TMP/fake.out")"
			else
				pass "not_a_daemon_$mode"
			fi
		else
			fail "not_a_daemon_$mode" "exit $rc, $lines lines, ${took} ms: $(cat "$WS_TMP/fake.out")"
		fi
		kill -9 "$fpid" 2>/dev/null; wait "$fpid" 2>/dev/null
	done
fi
finish
