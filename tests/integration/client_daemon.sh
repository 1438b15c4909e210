# SPDX-License-Identifier: BSD-2-Clause
# The seed command line against a real `warpspeed serve` on loopback, its variants,
# concurrency, a client killed mid-test, limits, and peers that are not daemons.
source "$(dirname "$0")/../lib.sh"
start_daemon || { fail daemon_start "could not start warpspeed serve"; finish; }
P=$DAEMON_PORT

# --- the seed command: warpspeed -H 127.0.0.1 -c -C -- -s 128K -S 128K ---------------
out=$WS_TMP/seed.out
if "$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -c -C -- -s 128K -S 128K >"$out" 2>"$WS_TMP/seed.err"; then
	banner="MIGRATED TCP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 (127.0.0.1) port 0 AF_INET : demo"
	expect_hdr=$CLASSIC_TCP_CPU_HEADERS
	row=$(sed -n 7p "$out")
	# Linux doubles SO_SNDBUF/SO_RCVBUF: 128K asked is 262144 granted, as netperf shows.
	if [ "$(sed -n 1p "$out")" != "$banner" ]; then
		fail seed_banner "got '$(sed -n 1p "$out")'"
	elif [ "$(sed -n 2,6p "$out")" != "$expect_hdr" ]; then
		fail seed_headers "got: $(sed -n 2,6p "$out" | cat -A)"
	elif [ "$(wc -l <"$out")" -ne 7 ]; then
		fail seed_lines "expected 7 lines, got $(wc -l <"$out")"
	elif ! [[ "$row" =~ ^262144\ 262144\ 262144\ \ \ \ [0-9]+\.[0-9]{2}\ +[0-9]+\.[0-9]{2}\ +[0-9.]+\ +[0-9.]+\ +[0-9]+\.[0-9]{3}\ +[0-9]+\.[0-9]{3}\ \ $ ]]; then
		fail seed_row "row does not match netperf's format: '$row'"
	else
		set -- $row
		if ! in_range "$4" 0.95 1.5; then fail seed_elapsed "elapsed $4 not about 1 s"
		elif ! in_range "$5" 1 1000000; then fail seed_throughput "throughput $5"
		elif ! in_range "$6" 0.01 100 || ! in_range "$7" 0.01 100; then fail seed_cpu "util $6 $7 outside (0,100]"
		elif ! in_range "$8" 0.001 1000 || ! in_range "$9" 0.001 1000; then fail seed_sd "service demand $8 $9"
		else pass seed_command; fi
	fi
else
	fail seed_command "exit $?: $(cat "$WS_TMP/seed.err")"
fi

# --- -P 0 -l 2: one row, no banner, elapsed about 2 s ------------------------------------
out=$WS_TMP/p0.out
if "$WS_BIN" -H 127.0.0.1 -p "$P" -c -C -P 0 -l 2 -- -s 128K -S 128K >"$out" 2>&1; then
	n=$(wc -l <"$out"); el=$(last_row_field "$out" 4)
	if [ "$n" -ne 1 ]; then fail p0_lines "expected 1 line, got $n: $(cat "$out")"
	elif ! in_range "$el" 1.95 2.6; then fail p0_elapsed "elapsed $el not about 2 s"
	else pass p0_l2; fi
else
	fail p0_l2 "exit status $?: $(cat "$out")"
fi

# --- -T 0,0: pinned, banner says so ------------------------------------------------------
out=$WS_TMP/t.out
if "$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -T 0,0 -c -C -- -s 128K -S 128K >"$out" 2>&1; then
	if head -n 1 "$out" | grep -q ' : cpu bind$'; then pass cpu_bind; else fail cpu_bind "banner: $(head -n 1 "$out")"; fi
else
	fail cpu_bind "exit status $?: $(cat "$out")"
fi
out=$WS_TMP/t9.out
if "$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -T 9999,0 >"$out" 2>&1; then
	fail cpu_bind_bad "a CPU that does not exist was accepted"
elif grep -q 'CPU 9999 does not exist' "$out"; then pass cpu_bind_bad
else fail cpu_bind_bad "message: $(cat "$out")"; fi

# --- four clients at once, netperf's way (one per CPU with -T n,n) ----------------------
pids=()
for i in 1 2 3 4; do
	cpu=$(( i % $(nproc) ))
	"$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -P 0 -T $cpu,$cpu >"$WS_TMP/multi.$i" 2>&1 &
	pids+=($!)
done
ok=1
for i in 1 2 3 4; do
	wait "${pids[$((i - 1))]}" || ok=0
	el=$(last_row_field "$WS_TMP/multi.$i" 4)
	in_range "${el:-0}" 0.95 2 || ok=0
done
if [ $ok -eq 1 ]; then pass four_clients; else fail four_clients "$(cat "$WS_TMP"/multi.*)"; fi

# --- a client killed mid-test, then a normal test on the same daemon ---------------------
"$WS_BIN" -H 127.0.0.1 -p "$P" -l 5 >/dev/null 2>&1 &
victim=$!
sleep 0.5
kill -9 "$victim"; wait "$victim" 2>/dev/null
t0=$(date +%s.%N)
if "$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -P 0 >"$WS_TMP/after.out" 2>&1 && kill -0 "$DAEMON_PID"; then
	t1=$(date +%s.%N)
	if in_range "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" 0 3; then pass killed_client
	else fail killed_client "the next test took too long"; fi
else
	fail killed_client "the next test failed: $(cat "$WS_TMP/after.out")"
fi

# --- bytes mode: -l -N sends exactly N bytes ---------------------------------------------
out=$WS_TMP/bytes.out
if "$WS_BIN" -H 127.0.0.1 -p "$P" -l -10000000 -P 0 >"$out" 2>&1; then
	if wait_log ": TCP_STREAM .* 10000000 bytes received, 0 sent, ok"; then pass bytes_mode
	else fail bytes_mode "the daemon did not receive exactly 10000000 bytes: $(tail -n 2 "$DAEMON_LOG")"; fi
else fail bytes_mode "$(cat "$out")"; fi

# --- bad usage exits 2 with a message naming the option ---------------------------------
"$WS_BIN" -H 127.0.0.1 -p "$P" -t TCP_FOO >"$WS_TMP/usage.out" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -q "TCP_FOO" "$WS_TMP/usage.out" && grep -q -- "-t" "$WS_TMP/usage.out"; then pass usage_error
else fail usage_error "exit $rc: $(cat "$WS_TMP/usage.out")"; fi

# --- nothing listening on an explicit port ----------------------------------------------
"$WS_BIN" -H 127.0.0.1 -p 1 -l 1 >"$WS_TMP/refused.out" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q "refused" "$WS_TMP/refused.out"; then pass connection_refused
else fail connection_refused "exit $rc: $(cat "$WS_TMP/refused.out")"; fi

# --- default host with no daemon on 12865: an in-process daemon serves the test --------
if (exec 3<>/dev/tcp/127.0.0.1/12865) 2>/dev/null; then
	skip in_process_daemon "something listens on 127.0.0.1:12865 already"
else
	"$WS_BIN" -l 1 -P 0 >"$WS_TMP/inproc.out" 2>"$WS_TMP/inproc.err"; rc=$?
	if [ $rc -eq 0 ] && grep -q "no daemon answered on localhost port 12865; started one in this process on 127.0.0.1 port [0-9]" "$WS_TMP/inproc.err" \
		&& [ "$(wc -l <"$WS_TMP/inproc.out")" -eq 1 ]; then pass in_process_daemon
	else fail in_process_daemon "exit $rc: $(cat "$WS_TMP/inproc.err" "$WS_TMP/inproc.out")"; fi
fi

# --- a daemon whose answer to HELLO was lost, as on a lossy link ---------------------------
# TCP resends a lost answer after 200 ms or more; by then the probe has padded the HELLO,
# the daemon closes on the padding, and the probe sees what a netserver that wants -Z
# does. The client must ask once more with a HELLO alone before it says "give -Z" (one CI
# run's UDP_RR over 1 % loss failed so). A front in python3 swallows the first
# connection's HELLO, closes once the padding arrives, and relays the next connection to
# the daemon.
if ! command -v python3 >/dev/null; then
	skip probe_answer_lost "python3 is not installed"
else
	cat >"$WS_TMP/front.py" <<'EOF'
import socket, sys, threading
ls = socket.socket()
ls.bind(('127.0.0.1', 0))
ls.listen(4)
ls.settimeout(20)  # gone by itself if the client never comes back
print(ls.getsockname()[1], flush=True)
c, _ = ls.accept()
c.settimeout(5)
hello = c.recv(4096)
pad = c.recv(4096)
c.close()
print('closed after a %d-byte HELLO and %d bytes of padding' % (len(hello), len(pad)), flush=True)
c, _ = ls.accept()
c.settimeout(20)
d = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=20)
def pipe(a, b):
    try:
        while True:
            x = a.recv(65536)
            if not x:
                break
            b.sendall(x)
    except OSError:
        pass
    for s in (a, b):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
t = threading.Thread(target=pipe, args=(d, c))
t.start()
pipe(c, d)
t.join()
EOF
	python3 "$WS_TMP/front.py" "$P" >"$WS_TMP/front.out" 2>&1 & # its own PID: cleanup kills it
	WS_PIDS+=("$!")
	fp=
	for _ in $(seq 1 100); do
		fp=$(sed -n '1{/^[0-9][0-9]*$/p}' "$WS_TMP/front.out")
		[ -n "$fp" ] && break
		sleep 0.02
	done
	"$WS_BIN" -H 127.0.0.1 -p "${fp:-1}" -t TCP_RR -l -200 -v 2 >"$WS_TMP/lost.out" 2>"$WS_TMP/lost.err"; rc=$?
	if [ $rc -ne 0 ]; then
		fail probe_answer_lost "exit $rc: $(cat "$WS_TMP/lost.err") (front: $(tr '\n' ';' <"$WS_TMP/front.out"))"
	elif ! grep -q "closed after a [0-9]*-byte HELLO and [1-9][0-9]* bytes of padding" "$WS_TMP/front.out"; then
		fail probe_answer_lost "the probe's padding never reached the front: $(cat "$WS_TMP/front.out")"
	elif ! grep -q "closed the connection on the probe; asking once more with a HELLO alone" "$WS_TMP/lost.err"; then
		fail probe_answer_lost "no note of the second HELLO: $(cat "$WS_TMP/lost.err")"
	elif ! grep -q "^Round trips (us): min [0-9.]* .*(200 samples)" "$WS_TMP/lost.out"; then
		fail probe_answer_lost "no 200 round trips measured: $(cat "$WS_TMP/lost.out")"
	else
		pass probe_answer_lost
	fi
fi

# --- the session log names each session ----------------------------------------------------
if grep -q "session 1 from 127.0.0.1:[0-9]*: TCP_STREAM .* ok" "$DAEMON_LOG"; then pass session_log
else fail session_log "$(cat "$DAEMON_LOG")"; fi

# --- SIGTERM stops it cleanly ------------------------------------------------------------
kill -TERM "$DAEMON_PID"
for _ in $(seq 1 60); do kill -0 "$DAEMON_PID" 2>/dev/null || break; sleep 0.05; done
if kill -0 "$DAEMON_PID" 2>/dev/null; then fail sigterm "daemon still running 3 s after SIGTERM"
else
	wait "$DAEMON_PID"; rc=$?
	if [ $rc -eq 0 ] && grep -q "stopped" "$DAEMON_LOG"; then pass sigterm; else fail sigterm "exit $rc"; fi
fi
finish
