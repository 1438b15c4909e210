# SPDX-License-Identifier: BSD-2-Clause
# The daemon under load and attack, with real processes on loopback: 200 half-open
# connections that are reopened as the daemon closes them while a real client runs a
# test; 100 concurrent short clients for 3 rounds, after which descriptors, threads and
# memory are back where they were; a busy daemon that says who holds it; and the
# pre-shared key end to end (right key, wrong key, no key, a key file others can read).
source "$(dirname "$0")/../lib.sh"

# --- slowloris: 200 connections that sent 6 bytes of a HELLO, reopened when closed -----
loris() { # port count: prints "started" once all have sent their 6 bytes, runs until killed
	exec python3 - "$1" "$2" <<'PY'
import selectors, socket, sys
port, n = int(sys.argv[1]), int(sys.argv[2])
sel = selectors.DefaultSelector()
def one():
    s = socket.socket()
    s.setblocking(False)
    try:
        s.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    sel.register(s, selectors.EVENT_WRITE, "new")
for _ in range(n):
    one()
sent = 0
while True:
    for key, _ in sel.select(1):
        s = key.fileobj
        try:
            if key.data == "new":
                s.send(b"WSPD\x01\x01")  # the first 6 bytes of a HELLO frame, and no more
                sel.modify(s, selectors.EVENT_READ, "open")
                sent += 1
                if sent == n:
                    print("started", flush=True)
                continue
            if s.recv(4096):
                continue
        except OSError:
            pass
        sel.unregister(s)
        s.close()
        one()
PY
}

if ! command -v python3 >/dev/null; then
	skip slowloris "python3 is not installed"
else
	start_daemon -L 127.0.0.1 || { fail daemon_start "no daemon"; finish; }
	loris "$DAEMON_PORT" 200 >"$WS_TMP/loris.out" 2>&1 &
	lpid=$!
	WS_PIDS+=("$lpid")
	for _ in $(seq 1 100); do grep -qs started "$WS_TMP/loris.out" && break; sleep 0.05; done
	sleep 0.5 # the daemon is evicting and the attacker reopening by now
	start=$(date +%s%N)
	"$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -l 1 -P 0 >"$WS_TMP/loris.client" 2>&1; rc=$?
	took=$(( ($(date +%s%N) - start) / 1000000 ))
	row=$(awk 'NF == 5 && $4 + 0 >= 0.9' "$WS_TMP/loris.client")
	if [ $rc -eq 0 ] && [ -n "$row" ] && [ $took -lt 2500 ] && kill -0 "$lpid" 2>/dev/null; then
		pass "slowloris_client_finishes (${took} ms)"
	else
		fail slowloris_client_finishes "exit $rc after ${took} ms: $(cat "$WS_TMP/loris.client")"
	fi
	kill -9 "$lpid" 2>/dev/null
	wait "$lpid" 2>/dev/null
	# The flood is logged as summaries (at most one line per 2 s), not a line per connection.
	# The first eviction is logged at once and the rest 2 s later, which a slow (sanitized)
	# client may not have waited for: allow the daemon up to 3 s to write it.
	summary="pre-session: closed the oldest pending connection from 127.0.0.1:[0-9]+: [0-9]+ connections from 127.0.0.1 were waiting to start a session, past this daemon's limit per address \(warpspeed serve --max-pending-per-source 8\), and this one had stalled longest \(and [0-9]+ more like it\)"
	for _ in $(seq 1 60); do grep -qE "$summary" "$DAEMON_LOG" && break; sleep 0.05; done
	lines=$(grep -c "pre-session:" "$DAEMON_LOG")
	if grep -qE "$summary" "$DAEMON_LOG" && [ "$lines" -le 3 ]; then
		pass slowloris_logged_as_summary
	else
		fail slowloris_logged_as_summary "$lines lines: $(head -c 600 "$DAEMON_LOG")"
	fi
	kill "$DAEMON_PID"
	wait "$DAEMON_PID" 2>/dev/null
fi

# --- 100 concurrent short clients, 3 rounds: back to the baseline each time -------------
proc_field() { awk -v k="$2:" '$1 == k {print $2}' "/proc/$1/status"; }
start_daemon -L 127.0.0.1 --max-sessions 128 --max-sessions-per-addr 128 || { fail daemon_start "no daemon"; finish; }
base_fds=$(ls "/proc/$DAEMON_PID/fd" | wc -l)
base_threads=$(proc_field "$DAEMON_PID" Threads)
first_rss=
ok=1
# AddressSanitizer keeps freed memory in quarantine (up to 256 MiB): RSS says nothing there.
rss_slack=5120
"$WS_BIN" -V | grep -q ", ASan" && rss_slack=1000000000
for round in 1 2 3; do
	pids=()
	for i in $(seq 1 100); do
		"$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -l -1000000 -P 0 >"$WS_TMP/c$i.out" 2>&1 &
		pids+=($!)
	done
	failed=0
	for i in $(seq 1 100); do wait "${pids[$((i - 1))]}" || { failed=$((failed + 1)); last="$WS_TMP/c$i.out"; }; done
	[ $failed -eq 0 ] || { ok=0; fail "round${round}_clients" "$failed of 100 failed, e.g. $(cat "$last")"; }
	for _ in $(seq 1 40); do # the daemon's session threads end a moment after the clients
		[ "$(proc_field "$DAEMON_PID" Threads)" = "$base_threads" ] && break
		sleep 0.05
	done
	fds=$(ls "/proc/$DAEMON_PID/fd" | wc -l)
	threads=$(proc_field "$DAEMON_PID" Threads)
	rss=$(proc_field "$DAEMON_PID" VmRSS)
	[ -n "$first_rss" ] || first_rss=$rss
	if [ "$fds" != "$base_fds" ] || [ "$threads" != "$base_threads" ] || [ $((rss - first_rss)) -gt $rss_slack ]; then
		ok=0
		fail "round${round}_baseline" "fds $fds (baseline $base_fds), threads $threads (baseline $base_threads), RSS $rss kB (round 1: $first_rss kB)"
	fi
done
[ $ok -eq 1 ] && pass "concurrent_clients_3_rounds (fds $base_fds, threads $base_threads, RSS $first_rss..$rss kB)"
kill "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null

# --- out of descriptors: newcomers are closed at once, and the loop does not spin ---------
if command -v python3 >/dev/null && command -v prlimit >/dev/null; then
	# The per-address limit (16 by default) is lifted so that descriptors run out first.
	start_daemon -L 127.0.0.1 --max-sessions-per-addr 64 || { fail daemon_start "no daemon"; finish; }
	prlimit --nofile=24 --pid "$DAEMON_PID"
	python3 - "$DAEMON_PORT" >"$WS_TMP/emfile.out" 2>&1 <<'PY' &
import socket, struct, sys, time
port = int(sys.argv[1])
hello = struct.pack(">HBBHQ", 1, 1, 0, 8, 1)  # field 1: protocol version 1
frame = struct.pack(">IBBHI", 0x57535044, 1, 1, 0, len(hello)) + hello
socks = []
for _ in range(30):  # idle sessions, until the daemon has no descriptor left
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(frame)
    s.settimeout(2)
    socks.append(s)
answered = refused = 0
for s in socks:
    try:
        d = s.recv(4096)
        if d[5:6] == b"\x02":
            answered += 1
        elif d[5:6] == b"\x03" and b"no file descriptor left for this connection" in d:
            refused += 1
    except OSError:
        pass
print(answered, refused, flush=True)
time.sleep(5)
PY
	epid=$!
	WS_PIDS+=("$epid")
	for _ in $(seq 1 120); do [ -s "$WS_TMP/emfile.out" ] && break; sleep 0.05; done
	cpu0=$(awk '{print $14 + $15}' "/proc/$DAEMON_PID/stat")
	sleep 1
	cpu1=$(awk '{print $14 + $15}' "/proc/$DAEMON_PID/stat")
	read -r answered refused <"$WS_TMP/emfile.out"
	# Each of the 30 was either admitted (HELLO_ACK) or told at once why not (ERROR), and
	# idle costs no CPU.
	if [ "$((answered + refused))" -eq 30 ] && [ "$refused" -gt 0 ] && [ $((cpu1 - cpu0)) -le 10 ] &&
	   { wait_log "closed at once \(out of file descriptors\) from 127\.0\.0\.1:[0-9]+: the daemon has no file descriptor left for this connection \(its ulimit -n\); try again when sessions have ended" ||
	     wait_log "closed at once \(out of file descriptors\)"; }; then
		pass "emfile_no_spin ($answered admitted, $refused refused at once, $((cpu1 - cpu0)) ticks in 1 s)"
	else
		fail emfile_no_spin "admitted/refused: $(cat "$WS_TMP/emfile.out"), $((cpu1 - cpu0)) ticks: $(tail -n 3 "$DAEMON_LOG")"
	fi
	kill -9 "$epid" 2>/dev/null
	wait "$epid" 2>/dev/null
	kill "$DAEMON_PID"
	wait "$DAEMON_PID" 2>/dev/null
else
	skip emfile_no_spin "python3 or prlimit is not installed"
fi

# --- a HELLO without its version is named as such (it was "expected HELLO, got HELLO") ---
if command -v python3 >/dev/null; then
	start_daemon -L 127.0.0.1 || { fail daemon_start "no daemon"; finish; }
	got=$(python3 - "$DAEMON_PORT" <<'PY'
import socket, struct, sys
soft = b"warpspeed test"
payload = struct.pack(">HBBH", 2, 4, 0, len(soft)) + soft  # field 2 only: no field 1
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(struct.pack(">IBBHI", 0x57535044, 1, 1, 0, len(payload)) + payload)
s.settimeout(2)
d = b""
while len(d) < 12 or len(d) < 12 + struct.unpack(">I", d[8:12])[0]:
    more = s.recv(4096)
    if not more:
        break
    d += more
off, text = 12, ""
while off + 6 <= len(d):
    fid, ftype, _, flen = struct.unpack(">HBBH", d[off:off + 6])
    if fid == 6:
        text = d[off + 6:off + 6 + flen].decode()
    off += 6 + flen
print(d[5], text)
PY
)
	if [ "$got" = "3 HELLO without its protocol version (field 1)" ] &&
	   { wait_log "pre-session: refused a bad HELLO from 127\.0\.0\.1:[0-9]+: HELLO without its protocol version \(field 1\)$" ||
	     wait_log "pre-session: refused a bad HELLO from 127\.0\.0\.1:[0-9]+: HELLO without its protocol version \(field 1\)$"; }; then
		pass hello_without_version_named
	else
		fail hello_without_version_named "the client got '$got'; log: $(tail -n 2 "$DAEMON_LOG")"
	fi
	kill "$DAEMON_PID"
	wait "$DAEMON_PID" 2>/dev/null
fi

# --- busy: the second client is told the limit, the option and who holds it -------------
start_daemon -L 127.0.0.1 --max-sessions 1 || { fail daemon_start "no daemon"; finish; }
P=$DAEMON_PORT
"$WS_BIN" -H 127.0.0.1 -p "$P" -l 2 -P 0 >"$WS_TMP/holder.out" 2>&1 &
holder=$!
WS_PIDS+=("$holder")
sleep 0.5
"$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -P 0 >"$WS_TMP/busy.out" 2>&1; rc=$?
want="^warpspeed: 127\.0\.0\.1 \(127\.0\.0\.1:$P\) refused the session: busy: its limit of 1 session \(warpspeed serve --max-sessions\) is reached; held by 127\.0\.0\.1:[0-9]+ \(TCP_STREAM, connected 0\.[4-9] s ago\)$"
if [ $rc -eq 1 ] && [ "$(wc -l <"$WS_TMP/busy.out")" -eq 1 ] && grep -qE "$want" "$WS_TMP/busy.out"; then
	pass busy_names_the_holder
else
	fail busy_names_the_holder "exit $rc: $(cat "$WS_TMP/busy.out")"
fi
wait "$holder" || fail busy_holder "$(cat "$WS_TMP/holder.out")"
kill "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null

# --- the pre-shared key end to end -------------------------------------------------------
printf 'the lab key\n' >"$WS_TMP/key"
printf 'another key\n' >"$WS_TMP/wrong"
cp "$WS_TMP/key" "$WS_TMP/open"
chmod 600 "$WS_TMP/key" "$WS_TMP/wrong"
chmod 644 "$WS_TMP/open"
start_daemon -L 127.0.0.1 --psk-file "$WS_TMP/key" || { fail daemon_start "no daemon"; finish; }
P=$DAEMON_PORT
client() { "$WS_BIN" -H 127.0.0.1 -p "$P" -l -100000 -P 0 "$@" >"$WS_TMP/psk.out" 2>&1; }
expect_fail() { # name, expected line (extended regex), client arguments...
	local name=$1 want=$2
	shift 2
	client "$@"
	local rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$WS_TMP/psk.out")" -eq 1 ] && grep -qE "$want" "$WS_TMP/psk.out"; then pass "$name"
	else fail "$name" "exit $rc: $(cat "$WS_TMP/psk.out")"; fi
}
if client --psk-file "$WS_TMP/key" && [ "$(awk 'NF == 5' "$WS_TMP/psk.out" | wc -l)" -eq 1 ]; then pass psk_right_key
else fail psk_right_key "$(cat "$WS_TMP/psk.out")"; fi
if WARPSPEED_PSK_FILE="$WS_TMP/key" client; then pass psk_right_key_from_env
else fail psk_right_key_from_env "$(cat "$WS_TMP/psk.out")"; fi
expect_fail psk_wrong_key "^warpspeed: 127\.0\.0\.1 \(127\.0\.0\.1:$P\) refused the key from key file $WS_TMP/wrong \(authentication failed: the proof does not match this daemon's key\)$" --psk-file "$WS_TMP/wrong"
expect_fail psk_no_key "^warpspeed: 127\.0\.0\.1 \(127\.0\.0\.1:$P\) requires authentication: give --psk-file FILE \(or WARPSPEED_PSK_FILE, or -Z\)$"
expect_fail psk_client_key_mode_644 "^warpspeed: key file $WS_TMP/open has mode 0644, open to group or others; the key must be readable by its owner only: chmod 600 $WS_TMP/open$" --psk-file "$WS_TMP/open"
if wait_log "pre-session: authentication failed from 127\.0\.0\.1:[0-9]+: the proof does not match this daemon's key" ||
   wait_log "pre-session: authentication failed from 127\.0\.0\.1:[0-9]+: the proof does not match this daemon's key"; then pass psk_daemon_logs_failure
else fail psk_daemon_logs_failure "$(cat "$DAEMON_LOG")"; fi
kill "$DAEMON_PID"
wait "$DAEMON_PID" 2>/dev/null
"$WS_BIN" serve -p 0 -L 127.0.0.1 --psk-file "$WS_TMP/open" >"$WS_TMP/serve.out" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -qx "warpspeed serve: key file $WS_TMP/open has mode 0644, open to group or others; the key must be readable by its owner only: chmod 600 $WS_TMP/open" "$WS_TMP/serve.out"; then
	pass psk_serve_refuses_mode_644
else
	fail psk_serve_refuses_mode_644 "exit $rc: $(cat "$WS_TMP/serve.out")"
fi
finish
