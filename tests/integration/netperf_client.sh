# SPDX-License-Identifier: BSD-2-Clause
# A stock netperf 2.7 client against `warpspeed serve` on loopback (issue 16, the daemon
# half). For each of the seven tests: the classic layout with and without -c -C against the
# goldens of the real netperf/netserver pair (tests/goldens/netperf, numbers masked),
# -P 0 -v 0, and an -o selector whose figures must agree with each other (the client's
# throughput and the daemon's byte count); exact counts with -l -N; one -i 3,3 run on one
# connection; -Z right, wrong and missing; malformed messages (cut short, a results
# message first, unknown types, a stall) that close only their own connection while a
# test runs beside them; and a client killed mid-test, after which the daemon holds no
# more descriptors or threads than before. Every netperf runs under timeout. Wall time:
# the timed runs (-l 1) go side by side, the rest count bytes or transactions (-l -N).
source "$(dirname "$0")/../lib.sh"
NETPERF=${NETPERF:-netperf}
if ! command -v "$NETPERF" >/dev/null 2>&1; then
	skip netperf_client "netperf is not installed (Debian: add non-free to the apt sources, apt-get install netperf)"
	finish
fi
ROOT=${WS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
GOLD=$ROOT/tests/goldens/netperf
start_daemon -L 127.0.0.1 || { fail daemon_start "could not start warpspeed serve"; finish; }
P=$DAEMON_PORT
np() { timeout 30 "$NETPERF" -H 127.0.0.1 -p "$P" "$@"; }

# Numbers masked, blanks squeezed: what must match the real netperf's output line by line.
layout() { sed -E 's/-?[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g; s/ $//' "$1"; }
# The figures of the data rows (lines that start with a number), one per line.
figures() { grep -E '^ *[0-9]' "$1" | tr -s ' ' '\n' | grep -E '^-?[0-9]'; }
# wait_log for up to 6 s: the pre-session loop logs a summary line every 2 s at most.
wait_log_long() { wait_log "$1" || wait_log "$1" || wait_log "$1"; }
# True when |a - b| <= pct% of b.
near() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'; }

TESTS="TCP_STREAM TCP_MAERTS TCP_SENDFILE TCP_RR TCP_CRR UDP_STREAM UDP_RR"
selector() { case $1 in TCP_MAERTS) echo THROUGHPUT,ELAPSED_TIME,REMOTE_BYTES_SENT,REMOTE_CPU_UTIL,REMOTE_CPU_METHOD ;; *) echo THROUGHPUT,ELAPSED_TIME,REMOTE_BYTES_RECVD,REMOTE_CPU_UTIL,REMOTE_CPU_METHOD ;; esac; }
# --- the timed runs, a few side by side and checked below: -l 1 for the daemon's timer path
# of each test, CPU figures, and a figure that must agree with the daemon's count ---------
npbg() { local n=$1; shift; bg_run "$n" timeout 30 "$NETPERF" -H 127.0.0.1 -p "$P" "$@"; }
WS_JOBS=4
for t in $TESTS; do
	lc=${t,,}
	npbg "$lc" -t "$t" -l 1
	npbg "${lc}_cC" -t "$t" -l 1 -c -C
	if [ "$t" != TCP_SENDFILE ] && [ "$t" != TCP_MAERTS ]; then
		npbg "${lc}_o" -t "$t" -l 1 -C -- -o "$(selector "$t")"
	fi
done
bg_wait
# TCP_MAERTS's -o alone: what the daemon sent but the client had not read when its timer
# ended (a few MB of socket buffers) must stay small next to a second's worth of traffic
npbg tcp_maerts_o -t TCP_MAERTS -l 1 -C -- -o "$(selector TCP_MAERTS)"
bg_wait
# Per test, the runs that succeeded: the daemon must log one session line for each.
declare -A RUNS=()
for t in $TESTS; do
	RUNS[$t]=0
	for f in "$WS_TMP/${t,,}".rc "$WS_TMP/${t,,}"_*.rc; do [ "$(cat "$f")" = 0 ] && RUNS[$t]=$((RUNS[$t] + 1)); done
done
# The daemon's session lines of test T with a time and a byte count.
sessions() { grep -cE "\(netperf\): $1 .*[0-9.]+ s, [0-9]+ bytes received" "$DAEMON_LOG"; }
# Wait (up to 2 s) until the daemon has logged N such lines of test T.
wait_sessions() { local _; for _ in $(seq 1 40); do [ "$(sessions "$1")" -ge "$2" ] && return 0; sleep 0.05; done; return 1; }

for t in $TESTS; do
	lc=${t,,}
	wait_sessions "$t" "${RUNS[$t]}"
	# --- plain and -c -C: the golden layout, plausible figures, one log line per run ---
	for v in "" _cC; do
		name=${lc}${v}
		out=$WS_TMP/$name.out
		rc=$(cat "$WS_TMP/$name.rc")
		if [ "$rc" -ne 0 ]; then
			fail "$name" "netperf exit $rc: $(head -c 300 "$WS_TMP/$name.err") $(head -c 300 "$out"); the daemon: $(tail -n 2 "$DAEMON_LOG")"
		elif ! diff <(layout "$GOLD/$name.txt") <(layout "$out") >"$WS_TMP/$name.diff"; then
			fail "$name" "layout differs from the real netperf's ($GOLD/$name.txt): $(head -c 400 "$WS_TMP/$name.diff")"
		elif figures "$out" | grep -q '^-'; then
			fail "$name" "a negative figure (an unmeasured remote value?): $(grep -E '^ *[0-9]' "$out" | head -2)"
		elif ! figures "$out" | awk '$1 > 0 { n++ } END { exit !(n >= 3) }'; then
			fail "$name" "figures not plausible: $(grep -E '^ *[0-9]' "$out" | head -2)"
		elif [ "$(sessions "$t")" -ne "${RUNS[$t]}" ]; then
			fail "$name" "$(sessions "$t") session lines of $t in the daemon's log for ${RUNS[$t]} runs: $(tail -n 2 "$DAEMON_LOG")"
		else
			pass "$name"
		fi
	done
	# --- -P 0 -v 0: the figure of merit alone (counted: 1 MB or 1000 transactions) ---
	name=${lc}_P0_v0
	out=$WS_TMP/$name.out
	len=-1000000
	case $t in *_RR | TCP_CRR) len=-1000 ;; esac
	# (TCP_SENDFILE's legacy request carries the count positive, where seconds go: the
	# daemon receives until netperf closes, as netserver does, and logs the bytes)
	np -t "$t" -l $len -P 0 -v 0 >"$out" 2>"$WS_TMP/$name.err"
	if [ $? -ne 0 ]; then
		fail "$name" "netperf failed: $(head -c 300 "$WS_TMP/$name.err")"
	elif ! grep -qxE " *[0-9]+\.[0-9]+ ?" "$out" || [ "$(wc -l <"$out")" -ne 1 ] ||
		! awk '{ exit !($1 > 0) }' "$out"; then
		fail "$name" "expected one positive figure, got: $(head -c 200 "$out")"
	else
		pass "$name"
	fi
	# --- -C -- -o: the client's figure against the daemon's counts ---
	name=${lc}_o
	out=$WS_TMP/$name.out
	if [ "$t" = TCP_SENDFILE ]; then
		skip "$name" "netperf 2.7.0 runs TCP_SENDFILE as a legacy test, which has no -o"
		continue
	fi
	if [ "$(cat "$WS_TMP/$name.rc")" -ne 0 ]; then
		fail "$name" "netperf failed: $(head -c 300 "$WS_TMP/$name.err")"
		continue
	fi
	IFS=, read -r tput el bytes util meth < <(sed -n 3p "$out")
	# what the client's figure implies the daemon moved: bits for streams, 1-byte requests for RR
	case $t in
	*_RR | TCP_CRR) implied=$(awk -v a="$tput" -v e="$el" 'BEGIN { printf "%.0f", a * e }') ;;
	*) implied=$(awk -v a="$tput" -v e="$el" 'BEGIN { printf "%.0f", a * e * 1e6 / 8 }') ;;
	esac
	if [ "$(sed -n 2p "$out" | tr -cd , | wc -c)" -ne 4 ]; then
		fail "$name" "expected a title line of 5 columns: $(head -c 300 "$out")"
	elif ! near "$bytes" "$implied" 3; then
		fail "$name" "the daemon's byte count $bytes is not within 3% of the client's figure ($tput over $el s: $implied)"
	elif ! in_range "$util" 0.01 100.5 || [ "$meth" != S ]; then
		fail "$name" "remote CPU $util % method '$meth'; expected 0..100 and S (/proc/stat)"
	else
		pass "$name"
	fi
done

# --- count tests: exact figures on the daemon's side -------------------------------------
while IFS='|' read -r name args want; do
	# shellcheck disable=SC2086
	if ! np $args -P 0 >"$WS_TMP/$name.out" 2>&1; then
		fail "$name" "netperf failed: $(head -c 300 "$WS_TMP/$name.out")"
	elif ! wait_log "$want"; then
		fail "$name" "expected '$want' in the daemon's log: $(tail -n 1 "$DAEMON_LOG")"
	else
		pass "$name"
	fi
done <<'EOF'
count_tcp_rr|-t TCP_RR -l -1000 -- -r 32,64|TCP_RR [0-9.]+ s, 32000 bytes received, 64000 sent
count_tcp_crr|-t TCP_CRR -l -500|TCP_CRR [0-9.]+ s, 500 bytes received, 500 sent
count_tcp_stream|-t TCP_STREAM -l -1000000 -- -m 16K|TCP_STREAM [0-9.]+ s, 1015808 bytes received, 0 sent
count_tcp_maerts|-t TCP_MAERTS -l -1000000 -- -m ,16K|TCP_MAERTS [0-9.]+ s, 0 bytes received, 1015808 sent
count_tcp_sendfile|-t TCP_SENDFILE -l -1000000 -- -m 16K|TCP_SENDFILE or TCP_MSS \(legacy TCP_STREAM\) [0-9.]+ s, 1015808 bytes received, 0 sent
EOF

# --- -i 3,3: three DO_OMNI on one connection ----------------------------------------------
out=$WS_TMP/iter.out
iter_re='\(netperf\): TCP_RR [0-9.]+ s, 500 bytes received, 500 sent'
before=$(grep -cE "$iter_re" "$DAEMON_LOG")
if ! np -t TCP_RR -l -500 -i 3,3 >"$out" 2>"$WS_TMP/iter.err"; then
	fail iterations_3 "netperf failed: $(head -c 300 "$WS_TMP/iter.err")"
elif ! head -n 1 "$out" | grep -qF ': +/-2.500% @ 99% conf.'; then
	fail iterations_3 "banner without the confidence suffix: $(head -n 1 "$out")"
else
	for _ in $(seq 1 40); do [ "$(grep -cE "$iter_re" "$DAEMON_LOG")" -ge $((before + 3)) ] && break; sleep 0.05; done
	sessions=$(grep -E "$iter_re" "$DAEMON_LOG" | tail -n 3 | sed 's/.*session \([0-9]*\) .*/\1/' | sort -u | wc -l)
	after=$(grep -cE "$iter_re" "$DAEMON_LOG")
	if [ $((after - before)) -ne 3 ] || [ "$sessions" -ne 1 ]; then
		fail iterations_3 "expected 3 TCP_RR tests in one session, the log has $((after - before)) in $sessions"
	else
		pass iterations_3
	fi
fi

# --- robustness: bad messages close their own connection only -----------------------------
# One python3 for the four cases: the stall first (it sits in the pre-session loop for the
# daemon's 2 s), then the others beside it, and a netperf test beside them all. Each prints
# "CASE REPLY"; "stalled" once the stall is in place.
cat >"$WS_TMP/probe.py" <<'EOF'
import socket, struct, sys, threading
L = 656
said = threading.Lock()
def say(line):  # one line at a time: two threads' prints once ran together
    with said:
        sys.stdout.write(line + '\n')
        sys.stdout.flush()
port, cases = int(sys.argv[1]), sys.argv[2:]
def msg(t, w1=-1):
    return struct.pack('>ii', t, w1) + bytes(L - 8)
def reply(s):
    b = b''
    while len(b) < L:
        try:
            d = s.recv(L - len(b))
        except OSError:
            return 'reset'
        if not d:
            return 'eof'
        b += d
    return '%d,%d' % struct.unpack('>ii', b[:8])
def run(case):
    s = socket.create_connection(('127.0.0.1', port), timeout=10)
    if case == 'short':
        s.sendall(bytes(100)); s.shutdown(socket.SHUT_WR); got = reply(s)
    elif case == 'results_first':
        s.sendall(msg(99, 0)); got = reply(s)
    elif case == 'unknown':
        out = []
        for t in (1234, 600, 13, 5):
            s.sendall(msg(t)); out.append(reply(s))
        got = ' '.join(out)
    elif case == 'stall':
        s.sendall(bytes(300)); say('stalled'); got = reply(s)
    say('%s %s' % (case, got))
stall = threading.Thread(target=run, args=('stall',))
stall.start()
for case in cases:
    if case != 'stall':
        try:
            run(case)
        except OSError as e:
            say('%s %s' % (case, e))
stall.join()
EOF
if ! command -v python3 >/dev/null; then
	skip malformed "python3 is not installed"
else
	timeout 20 python3 "$WS_TMP/probe.py" "$P" short results_first unknown >"$WS_TMP/probe.out" 2>&1 &
	probe_pid=$!
	WS_PIDS+=("$probe_pid")
	for _ in $(seq 1 100); do grep -q '^stalled$' "$WS_TMP/probe.out" && break; sleep 0.02; done
	beside=$(np -t TCP_RR -l 1 -P 0 -v 0 2>&1)
	wait "$probe_pid"
	while IFS='|' read -r name got want logre; do
		got=$(sed -n "s/^$name //p" "$WS_TMP/probe.out")
		if [ "$got" != "$want" ]; then
			fail "malformed_$name" "expected '$want', got '$got' ($(tr '\n' ';' <"$WS_TMP/probe.out"))"
		elif ! wait_log_long "$logre"; then
			fail "malformed_$name" "the daemon's log lacks '$logre': $(tail -n 2 "$DAEMON_LOG")"
		else
			pass "malformed_$name"
		fi
	done <<'EOF'
short||eof|closed the connection after 100 bytes of a 656-byte message
results_first||eof|malformed message \([0-9]+ since start\): a message of type OMNI_RESULTS
unknown||0,998 601,0 14,95 5,0|unknown message type 1234 answered with remote error 998
stall||0,110|netperf client's first request not complete within 2 s
EOF
	if awk -v v="$beside" 'BEGIN { exit !(v + 0 > 0) }'; then
		pass malformed_beside_a_test
	else
		fail malformed_beside_a_test "a TCP_RR beside the stalled connection gave: $beside"
	fi
fi

# --- a client killed mid-test: everything released ---------------------------------------
# Four netperfs at once, killed once the daemon holds all their connections (two each);
# the daemon's UDP_STREAM receiver lets go when its timer ends, so -l 2 bounds the wait.
fds() { ls "/proc/$DAEMON_PID/fd" 2>/dev/null | wc -l; }
threads() { ls "/proc/$DAEMON_PID/task" 2>/dev/null | wc -l; }
fd0=$(fds) th0=$(threads)
killed=()
for t in TCP_STREAM TCP_MAERTS TCP_RR UDP_STREAM; do
	"$NETPERF" -H 127.0.0.1 -p "$P" -t "$t" -l 2 -P 0 >/dev/null 2>&1 &
	killed+=($!)
	WS_PIDS+=($!)
done
for _ in $(seq 1 100); do [ "$(fds)" -ge $((fd0 + 8)) ] && break; sleep 0.02; done
sleep 0.2
kill -9 "${killed[@]}" 2>/dev/null
wait "${killed[@]}" 2>/dev/null
for _ in $(seq 1 300); do
	[ "$(fds)" -le "$fd0" ] && [ "$(threads)" -le "$th0" ] && break
	sleep 0.05
done
if [ "$(fds)" -le "$fd0" ] && [ "$(threads)" -le "$th0" ]; then
	pass killed_client_released
else
	fail killed_client_released "the daemon holds $(fds) descriptors and $(threads) threads, $fd0 and $th0 before"
fi

# --- the daemon's limits: sessions and the memory budget -----------------------------------
start_daemon -L 127.0.0.1 --max-sessions 1 || { fail daemon_start_limits "could not start warpspeed serve"; finish; }
PL=$DAEMON_PORT
fd0=$(fds)
timeout 30 "$NETPERF" -H 127.0.0.1 -p "$PL" -t TCP_RR -l 2 -P 0 -v 0 >"$WS_TMP/holder.out" 2>&1 &
holder=$!
WS_PIDS+=("$holder")
# the holder's test runs once the daemon holds its control and data connections
for _ in $(seq 1 100); do [ "$(fds)" -ge $((fd0 + 2)) ] && break; sleep 0.02; done
if timeout 30 "$NETPERF" -H 127.0.0.1 -p "$PL" -t TCP_RR -l 1 -P 0 -v 0 >"$WS_TMP/busy.out" 2>&1; then
	fail max_sessions "a second netperf was served beside the first: $(cat "$WS_TMP/busy.out")"
elif ! grep -q "remote error 16" "$WS_TMP/busy.out"; then
	fail max_sessions "expected netperf's 'remote error 16' (EBUSY), got: $(head -c 300 "$WS_TMP/busy.out")"
elif ! wait_log_long "refused \(busy\) from 127.0.0.1:[0-9]+: busy: its limit of 1 session"; then
	fail max_sessions "the daemon's log does not say why: $(tail -n 2 "$DAEMON_LOG")"
elif ! wait "$holder"; then
	fail max_sessions "the session holding the daemon failed: $(cat "$WS_TMP/holder.out")"
else
	pass max_sessions
fi
start_daemon -L 127.0.0.1 --max-memory 4K || { fail daemon_start_memory "could not start warpspeed serve"; finish; }
if timeout 30 "$NETPERF" -H 127.0.0.1 -p "$DAEMON_PORT" -t TCP_STREAM -l 1 -P 0 -v 0 >"$WS_TMP/mem.out" 2>&1; then
	fail memory_budget "a TCP_STREAM ran over a 4 KiB budget: $(cat "$WS_TMP/mem.out")"
elif ! grep -q "remote error 16" "$WS_TMP/mem.out" ||
	! wait_log "TCP_STREAM refused \(remote error 16\): .*over this daemon's memory budget of 4 KiB"; then
	fail memory_budget "netperf: $(head -c 200 "$WS_TMP/mem.out"); the daemon: $(tail -n 1 "$DAEMON_LOG")"
else
	pass memory_budget
fi

# --- -Z: netperf's passphrase (two daemons: each logs its first refusal at once, a second
# one only 2 s after the first) ---------------------------------------------------------------
start_daemon -L 127.0.0.1 -Z sesame || { fail daemon_start_Z "could not start warpspeed serve -Z"; finish; }
PZ=$DAEMON_PORT LZ=$DAEMON_LOG
start_daemon -L 127.0.0.1 -Z sesame || { fail daemon_start_Z "could not start warpspeed serve -Z"; finish; }
PZ2=$DAEMON_PORT LZ2=$DAEMON_LOG
if out=$(timeout 30 "$NETPERF" -H 127.0.0.1 -p "$PZ" -t TCP_RR -l -1000 -P 0 -v 0 -Z sesame 2>&1) &&
	awk -v v="$out" 'BEGIN { exit !(v + 0 > 0) }'; then
	pass passphrase_right
else
	fail passphrase_right "netperf -Z sesame: $out"
fi
for z in wrong none; do
	zarg=(-Z "$z")
	[ $z = none ] && zarg=()
	want="a netperf PASSPHRASE that does not match -Z"
	[ $z = none ] && want="a netperf DO_OMNI \(type 97\) before the -Z passphrase"
	port=$PZ2 DAEMON_LOG=$LZ2
	[ $z = wrong ] && port=$PZ DAEMON_LOG=$LZ
	if timeout 30 "$NETPERF" -H 127.0.0.1 -p "$port" -t TCP_RR -l 1 -P 0 -v 0 "${zarg[@]}" >"$WS_TMP/z.out" 2>&1; then
		fail "passphrase_$z" "netperf succeeded: $(head -c 200 "$WS_TMP/z.out")"
	elif ! wait_log_long "authentication failed .*($want|and [0-9]+ more)"; then
		fail "passphrase_$z" "no refusal in the log: $(tail -n 2 "$DAEMON_LOG")"
	else
		pass "passphrase_$z"
	fi
done
finish
