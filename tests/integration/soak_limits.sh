# SPDX-License-Identifier: BSD-2-Clause
# Soak: requests that once held a daemon past every limit. Each must end on time and
# leave the daemon idle and admitting: the seq-wrap datagrams, a -M 1G x 4 request (refused
# by the memory budget before any allocation), and byte-count tests and a trickling sender
# against --max-duration 2 (ended within 3 s of START). About 7 s in all.
source "$(dirname "$0")/../lib.sh"
FORGE="$WS_BUILD/tools/ws_forge"
[ -x "$FORGE" ] || { fail forge "$FORGE is not built (make unit-tests)"; finish; }

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# CPU time of a process (all threads), in clock ticks
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# --- seq wrap: two datagrams near 2^64 during a 1 s UDP_STREAM ---------------------------
start_daemon --max-sessions 1 || { fail daemon_start "no daemon"; finish; }
"$FORGE" udp-wrap 127.0.0.1 "$DAEMON_PORT" 1 >"$WS_TMP/wrap.out" 2>&1
ms=$(sed -n 's/^answer RESULT after \([0-9]*\) ms from START.*/\1/p' "$WS_TMP/wrap.out")
if [ -n "$ms" ] && [ "$ms" -le 4000 ] && grep -q "received 10, lost 0, jumps 2$" "$WS_TMP/wrap.out"; then
	pass seq_wrap_result_in_time
else
	fail seq_wrap_result_in_time "$(cat "$WS_TMP/wrap.out")"
fi
t0=$(cpu_ticks "$DAEMON_PID"); sleep 0.5; t1=$(cpu_ticks "$DAEMON_PID")
hz=$(getconf CLK_TCK)
if [ $(( (t1 - t0) * 1000 / hz )) -le 100 ]; then pass seq_wrap_daemon_idle_after
else fail seq_wrap_daemon_idle_after "the daemon used $(( (t1 - t0) * 1000 / hz )) ms of CPU in 500 ms idle"; fi
if "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -t UDP_STREAM -l 1 >"$WS_TMP/next.out" 2>&1
then pass seq_wrap_next_client_admitted; else fail seq_wrap_next_client_admitted "$(cat "$WS_TMP/next.out")"; fi

# --- -M 1G on 4 streams x 4 threads: refused by the default 512M budget ---------------------
start_daemon || { fail daemon_start "no daemon"; finish; }
"$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" --streams 4 --threads 1,4 -l 3 -- -M 1G >"$WS_TMP/mem.out" 2>&1; rc=$?
want="warpspeed: the daemon reported: TCP_STREAM with 4 flows on 4 threads needs 4 GiB of buffers (4 receive buffers of 1 GiB), over this daemon's memory budget of 512 MiB (0 B held by other tests) (warpspeed serve --max-memory)"
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$DAEMON_PID/status")
if [ $rc -eq 1 ] && [ "$(cat "$WS_TMP/mem.out")" = "$want" ] && [ "$hwm" -lt 65536 ]; then
	pass memory_budget_refuses_1g_x4
else
	fail memory_budget_refuses_1g_x4 "exit $rc, daemon peak RSS ${hwm} KiB: $(cat "$WS_TMP/mem.out")"
fi

# --- --max-duration 2 whatever the length says --------------------------------------------
start_daemon --max-duration 2 || { fail daemon_start "no daemon"; finish; }
P=$DAEMON_PORT
pids=()
for t in TCP_STREAM TCP_MAERTS UDP_STREAM; do
	( s=$(date +%s%N); "$WS_BIN" -H 127.0.0.1 -p "$P" -t $t -l -9000000000000000000 >"$WS_TMP/$t.out" 2>&1
	  echo "rc=$? ms=$(ms_since "$s")" >>"$WS_TMP/$t.out" ) &
	pids+=($!); WS_PIDS+=($!)
done
"$FORGE" tcp-trickle 127.0.0.1 "$P" 1 2000 >"$WS_TMP/trickle.out" 2>&1 &
pids+=($!); WS_PIDS+=($!)
for p in "${pids[@]}"; do wait "$p"; done
for t in TCP_STREAM TCP_MAERTS UDP_STREAM; do
	ms=$(sed -n 's/^rc=1 ms=\([0-9]*\)$/\1/p' "$WS_TMP/$t.out")
	if [ -n "$ms" ] && [ "$ms" -lt 3000 ] &&
	   grep -q "the test ran into this daemon's limit of 2 s per test, counted from START (warpspeed serve --max-duration): stopped by the time cap after" "$WS_TMP/$t.out"; then
		pass "max_duration_byte_count_$t"
	else
		fail "max_duration_byte_count_$t" "$(cat "$WS_TMP/$t.out")"
	fi
done
ms=$(sed -n 's/^answer ERROR after \([0-9]*\) ms from START.*--max-duration.*/\1/p' "$WS_TMP/trickle.out")
if [ -n "$ms" ] && [ "$ms" -lt 3000 ]; then pass max_duration_trickling_sender
else fail max_duration_trickling_sender "$(cat "$WS_TMP/trickle.out")"; fi
finish
