# SPDX-License-Identifier: BSD-2-Clause
# Many streams in one run: synchronised flows over worker threads on both sides, per-stream
# rows with Jain's index, limits and bad input, a flow killed mid-test, and 1000 flows.
source "$(dirname "$0")/../lib.sh"
start_daemon --max-streams 2000 --max-threads 8 || { fail daemon_start "no daemon"; finish; }
P=$DAEMON_PORT
ws() { "$WS_BIN" -H 127.0.0.1 -p "$P" "$@"; }

# --- 4 streams on 2 threads: aggregate table, 4 rows that add up, fairness --------------
out=$WS_TMP/four.out
if ws -l 1 -v 2 -c -C --streams 4 --threads 2 --cpus 0,1 --remote-cpus 1,0 >"$out" 2>&1; then
	total=$(sed -n 7p "$out" | awk '{print $5}')
	rows=$(awk '/^Stream Thread/{f=1; next} f && /^[0-9]+ +[0-9]+ +[0-9]+ /{n++; s+=$5} END{print n+0, s+0}' "$out")
	set -- $rows
	jain=$(sed -n "s/.*Jain's fairness index \([0-9.]*\).*/\1/p" "$out")
	if [ "$1" -ne 4 ]; then fail four_streams "expected 4 stream rows, got $1: $(cat "$out")"
	elif ! awk -v a="$2" -v t="$total" 'BEGIN{exit !(a > 0.9 * t && a < 1.1 * t)}'; then
		fail four_streams "stream rows sum to $2 but the table says $total"
	elif ! in_range "${jain:-0}" 0.5 1; then fail four_streams "Jain's index '$jain'"
	elif ! grep -q "^Threads, local: #0 cpu 0 .*#1 cpu 1 " "$out" || ! grep -q "^Threads, remote: #0 cpu 1 .*#1 cpu 0 " "$out"; then
		fail four_streams "thread lines: $(grep ^Threads "$out")"
	else pass four_streams; fi
else
	fail four_streams "exit $?: $(cat "$out")"
fi

# --- the role swap and sendfile work with streams too --------------------------------------
for t in TCP_MAERTS TCP_SENDFILE; do
	if ws -l 1 -P 0 -t $t --streams 3 --threads 2 >"$WS_TMP/$t.out" 2>&1 && [ "$(wc -l <"$WS_TMP/$t.out")" -eq 1 ]; then
		pass "streams_$t"
	else fail "streams_$t" "$(cat "$WS_TMP/$t.out")"; fi
done

# --- UDP_STREAM with streams: a socket pair and a thread per flow ------------------------
out=$WS_TMP/udp.out
if ws -t UDP_STREAM -l 1 -v 2 --streams 3 -- -m 1472 >"$out" 2>&1; then
	rows=$(awk '/^Stream Thread/{f=1; next} f && /^[0-9]+ +[0-9]+ +[0-9]+ /{n++} END{print n+0}' "$out")
	sent=$(sed -n 6p "$out" | awk '{print $4}'); got=$(sed -n 7p "$out" | awk '{print $3}')
	if [ "$rows" -eq 3 ] && grep -q "^3 streams, 0 failed" "$out" && [ -n "$got" ] && [ "$got" -le "$sent" ] && [ "$got" -gt 0 ]; then
		pass streams_udp
	else fail streams_udp "rows $rows, sent '$sent', received '$got': $(cat "$out")"; fi
else fail streams_udp "exit $?: $(cat "$out")"; fi

# --- bytes mode splits the count over the flows exactly ---------------------------------
if ws -l -10000001 -P 0 --streams 3 >"$WS_TMP/bytes.out" 2>&1 && wait_log "10000001 bytes received"; then
	pass streams_bytes
else fail streams_bytes "$(cat "$WS_TMP/bytes.out"; tail -n 1 "$DAEMON_LOG")"; fi

# --- bad input ----------------------------------------------------------------------------
check_bad() { # name, expected status, expected text, args...
	local name=$1 want=$2 text=$3; shift 3
	ws "$@" >"$WS_TMP/bad.out" 2>&1; local rc=$?
	if [ $rc -eq "$want" ] && grep -q -- "$text" "$WS_TMP/bad.out"; then pass "$name"
	else fail "$name" "exit $rc: $(cat "$WS_TMP/bad.out")"; fi
}
check_bad streams_zero 2 "option --streams: '0'" -l 1 --streams 0
check_bad threads_over_streams 2 "3,3 threads for 2 streams" -l 1 --streams 2 --threads 3
check_bad cpu_missing 1 "CPU 4095 does not exist" -l 1 --streams 2 --cpus 0,4095
check_bad threads_over_limit 1 "9 worker threads exceed this daemon's limit of 8 (warpspeed serve --max-threads)" -l 1 --streams 9 --threads 9
check_bad udp_threads_over_limit 1 "9 worker threads exceed" -t UDP_STREAM -l 1 --streams 9
check_bad streams_over_limit 1 "2001 streams exceed this daemon's limit of 2000 (warpspeed serve --max-streams)" -l 1 --streams 2001

# --- a flow killed mid-test is reported; the others complete ------------------------------
if command -v ss >/dev/null; then
	"$WS_BIN" -H 127.0.0.1 -p "$P" -l 2 -v 2 --streams 4 >"$WS_TMP/kill.out" 2>&1 &
	client=$!
	sleep 0.7
	victim=$(ss -tnp state established 2>/dev/null | grep "pid=$client," | awk -v p=":$P" '$4 !~ p"$" {print $3}' | head -n 1)
	[ -n "$victim" ] && ss -K src "$victim" >/dev/null 2>&1
	wait "$client"; rc=$?
	ok_rows=$(awk '/^Stream Thread/{f=1; next} f && /^[0-9]+ +[0-9]+ +[0-9]+ / && !/FAILED/{n++} END{print n+0}' "$WS_TMP/kill.out")
	if [ -z "$victim" ]; then skip flow_failure "could not find a data socket to kill"
	elif [ $rc -eq 0 ] && [ "$ok_rows" -eq 3 ] && grep -q "FAILED" "$WS_TMP/kill.out" && grep -q "warpspeed: stream [0-9] of 4 .* failed" "$WS_TMP/kill.out"; then
		pass flow_failure
	elif grep -q "Invalid argument\|Operation not supported" "$WS_TMP/kill.out" && [ "$ok_rows" -eq 4 ]; then
		skip flow_failure "this kernel cannot destroy sockets (ss -K)"
	else
		fail flow_failure "exit $rc, $ok_rows complete rows: $(cat "$WS_TMP/kill.out")"
	fi
else
	skip flow_failure "ss is not installed"
fi

# --- 1000 flows complete -----------------------------------------------------------------
if ws -l 1 -v 2 --streams 1000 --threads 2 >"$WS_TMP/k.out" 2>&1 && grep -q "^1000 streams, 0 failed" "$WS_TMP/k.out"; then
	pass thousand_flows
else fail thousand_flows "$(tail -n 5 "$WS_TMP/k.out")"; fi
finish
