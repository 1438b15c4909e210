# SPDX-License-Identifier: BSD-2-Clause
# Many request/response flows on epoll workers against `warpspeed serve`, closed loop and
# open loop (--rate): exact transaction counts split over the flows, per-flow rows, the
# threads on both sides, and the open-loop schedule line with its numbers checked.
source "$(dirname "$0")/../lib.sh"
start_daemon || { fail daemon_start "no daemon"; finish; }
P=$DAEMON_PORT
ws() { timeout 60 "$WS_BIN" -H 127.0.0.1 -p "$P" "$@"; }

# Until this build serves the RR tests, one SKIP line and nothing else.
ws_served rr_multi TCP_RR || finish

# The per-flow rows of -v 2 ("Flow Thread Transactions ..."): "rows sum min max".
flow_rows() {
	awk '/^Flow +Thread +Transactions/{f=1; next} f && /^[0-9]+ +[0-9]+ +[0-9]+ /{n++; s+=$3; if (!n0++ || $3<mn) mn=$3; if ($3>mx) mx=$3}
	     f && /^$/{f=0} END{print n+0, s+0, mn+0, mx+0}' "$1"
}

# --- a transaction count: 8000 over 8 flows on 2 threads, exactly 1000 each -----------------
for t in TCP_RR UDP_RR; do
	out=$WS_TMP/$t.count.out
	if ws -t $t -l -8000 -v 2 --streams 8 --threads 2 >"$out" 2>&1; then
		set -- $(flow_rows "$out")
		total=$(sed -n 's/^HIST_TOTAL: *\([0-9]*\).*/\1/p' "$out")
		if [ "$1" -ne 8 ] || [ "$2" -ne 8000 ] || [ "$3" -ne 1000 ] || [ "$4" -ne 1000 ]; then
			fail "${t}_count" "flow rows: $*: $(cat "$out")"
		elif [ "$total" != 8000 ]; then fail "${t}_count" "HIST_TOTAL '$total'"
		elif ! grep -q "^Threads, local: #0 .*(4 flows); #1 .*(4 flows)" "$out" ||
		     ! grep -q "^Threads, remote: #0 .*(4 flows); #1 .*(4 flows)" "$out"; then
			fail "${t}_count" "thread lines: $(grep ^Threads "$out")"
		else pass "${t}_count"; fi
	else fail "${t}_count" "exit $?: $(cat "$out")"; fi
done

# --- timed, closed loop: every flow moves, none fails --------------------------------------
for t in TCP_RR UDP_RR; do
	out=$WS_TMP/$t.timed.out
	if ws -t $t -l 1 -v 2 --streams 8 --threads 2 -- -r 32,64 >"$out" 2>&1; then
		set -- $(flow_rows "$out")
		rate=$(sed -n 7p "$out" | awk '{print $6}')
		if [ "$1" -ne 8 ] || [ "$3" -lt 1 ]; then fail "${t}_timed" "flow rows: $*: $(cat "$out")"
		elif ! in_range "${rate:-0}" 1 1e9; then fail "${t}_timed" "rate '$rate': $(cat "$out")"
		else pass "${t}_timed"; fi
	else fail "${t}_timed" "exit $?: $(cat "$out")"; fi
done

# --- open loop, 500/s per flow for 2 s: 8000 scheduled, at least 90% achieved -----------------
# "Open loop: asked A trans/s (R per flow, N flows), achieved X; D of S scheduled completed; ..."
for t in TCP_RR UDP_RR; do
	out=$WS_TMP/$t.rate.out
	if ws -t $t -l 2 --streams 8 --threads 2 --rate 500 >"$out" 2>&1; then
		line=$(grep '^Open loop: ' "$out")
		asked=$(sed -n 's/^Open loop: asked \([0-9.]*\) trans\/s (\([0-9.]*\) per flow, \([0-9]*\) flows).*/\1 \2 \3/p' <<<"$line")
		got=$(sed -n 's/.*achieved \([0-9.]*\); \([0-9]*\) of \([0-9]*\) scheduled completed; schedule \(held\|slipped\).*/\1 \2 \3 \4/p' <<<"$line")
		set -- $asked $got
		if [ $# -ne 7 ]; then fail "${t}_rate" "no schedule line: $(cat "$out")"
		elif [ "$1" != 4000.00 ] || [ "$2" != 500.00 ] || [ "$3" -ne 8 ]; then fail "${t}_rate" "asked: $line"
		elif ! in_range "$6" 7920 8080; then fail "${t}_rate" "scheduled $6, not 8000 within 1%: $line"
		elif ! in_range "$5" $(( $6 * 9 / 10 )) "$6"; then fail "${t}_rate" "completed $5 of $6: $line"
		elif ! in_range "$4" 3600 4100; then fail "${t}_rate" "achieved $4 trans/s of 4000: $line"
		else pass "${t}_rate"; fi
	else fail "${t}_rate" "exit $?: $(cat "$out")"; fi
done

# --- open loop with a count: the schedule is the count, all of it completed --------------------
out=$WS_TMP/rate_count.out
if ws -t TCP_RR -l -800 --streams 8 --threads 2 --rate 1000 >"$out" 2>&1 &&
   grep -q '^Open loop: .* 800 of 800 scheduled completed' "$out"; then
	pass rate_count
else fail rate_count "exit $?: $(cat "$out")"; fi

finish
