# SPDX-License-Identifier: BSD-2-Clause
# What one request may make a daemon do: data ports (no privileged ones unless allowed,
# no range past 65535) and buffer memory (a daemon-wide budget, charged before anything
# is allocated, released when a test ends). Each refusal is one clear line and exit 1.
source "$(dirname "$0")/../lib.sh"

# --- privileged data ports ------------------------------------------------------------
start_daemon || { fail daemon_start "no daemon"; finish; }
P=$DAEMON_PORT
priv=$((900 + RANDOM % 100))
"$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -- -P ,$priv >"$WS_TMP/tcp80.out" 2>&1; rc=$?
want="warpspeed: the daemon reported: remote data port $priv is privileged (below 1024), which this daemon refuses; expected 0 (any) or 1024 to 65535 (warpspeed serve --allow-privileged-ports)"
if [ $rc -eq 1 ] && [ "$(cat "$WS_TMP/tcp80.out")" = "$want" ]; then pass privileged_port_tcp_refused
else fail privileged_port_tcp_refused "exit $rc: $(cat "$WS_TMP/tcp80.out")"; fi
# UDP: one port per flow, so 1020 with 8 flows touches 1020..1023
"$WS_BIN" -H 127.0.0.1 -p "$P" -t UDP_STREAM --streams 8 -l 1 -- -P ,1020 >"$WS_TMP/udp.out" 2>&1; rc=$?
want="warpspeed: the daemon reported: remote data ports 1020 to 1023 are privileged (below 1024), which this daemon refuses; expected 0 (any) or 1024 to 65535 (warpspeed serve --allow-privileged-ports)"
if [ $rc -eq 1 ] && [ "$(cat "$WS_TMP/udp.out")" = "$want" ]; then pass privileged_port_udp_refused
else fail privileged_port_udp_refused "exit $rc: $(cat "$WS_TMP/udp.out")"; fi
"$WS_BIN" -H 127.0.0.1 -p "$P" -t UDP_STREAM --streams 8 -l 1 -- -P ,65530 >"$WS_TMP/wrap.out" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q "remote data ports 65530 to 65537 (-P ,65530 with 8 UDP flows, one port each) run past 65535; expected a first port of at most 65528" "$WS_TMP/wrap.out"
then pass port_range_past_65535_refused
else fail port_range_past_65535_refused "exit $rc: $(cat "$WS_TMP/wrap.out")"; fi
if "$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -- -P ,$((20000 + RANDOM % 20000)) >"$WS_TMP/high.out" 2>&1
then pass unprivileged_port_runs; else fail unprivileged_port_runs "$(cat "$WS_TMP/high.out")"; fi

if [ "$(id -u)" -eq 0 ]; then
	start_daemon --allow-privileged-ports || { fail daemon_start "no daemon"; finish; }
	if "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -l 1 -- -P ,$priv >"$WS_TMP/ok80.out" 2>&1
	then pass privileged_port_tcp_allowed; else fail privileged_port_tcp_allowed "$(cat "$WS_TMP/ok80.out")"; fi
	if "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -t UDP_STREAM --streams 2 -l 1 -- -P ,$((priv - 50)) >"$WS_TMP/oku.out" 2>&1
	then pass privileged_port_udp_allowed; else fail privileged_port_udp_allowed "$(cat "$WS_TMP/oku.out")"; fi
else
	skip privileged_port_allowed "binding a port below 1024 needs root"
fi

# --- the memory budget -----------------------------------------------------------------
start_daemon --max-memory 100M || { fail daemon_start "no daemon"; finish; }
P=$DAEMON_PORT
if "$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -- -M 64M >"$WS_TMP/fits.out" 2>&1
then pass budget_test_that_fits_runs; else fail budget_test_that_fits_runs "$(cat "$WS_TMP/fits.out")"; fi
"$WS_BIN" -H 127.0.0.1 -p "$P" -l 2 -- -M 64M >"$WS_TMP/first.out" 2>&1 &
first=$!
WS_PIDS+=("$first")
sleep 0.6
"$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -- -M 64M >"$WS_TMP/second.out" 2>&1; rc=$?
want="warpspeed: the daemon reported: TCP_STREAM with 1 flow on 1 thread needs 64 MiB of buffers (1 receive buffer of 64 MiB), over this daemon's memory budget of 100 MiB (64 MiB held by other tests) (warpspeed serve --max-memory)"
if [ $rc -eq 1 ] && [ "$(cat "$WS_TMP/second.out")" = "$want" ]; then pass budget_second_concurrent_refused
else fail budget_second_concurrent_refused "exit $rc: $(cat "$WS_TMP/second.out")"; fi
wait "$first" && pass budget_first_unaffected || fail budget_first_unaffected "$(cat "$WS_TMP/first.out")"
if "$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -- -M 64M >"$WS_TMP/again.out" 2>&1
then pass budget_free_again_after_the_test; else fail budget_free_again_after_the_test "$(cat "$WS_TMP/again.out")"; fi
# a test whose client dies mid-way gives its charge back too
"$WS_BIN" -H 127.0.0.1 -p "$P" -l 3 -- -M 64M >/dev/null 2>&1 &
victim=$!
WS_PIDS+=("$victim")
sleep 0.5
kill -9 "$victim" 2>/dev/null; wait "$victim" 2>/dev/null
sleep 0.3
if "$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -- -M 99M >"$WS_TMP/after.out" 2>&1
then pass budget_released_after_a_killed_client; else fail budget_released_after_a_killed_client "$(cat "$WS_TMP/after.out")"; fi
"$WS_BIN" serve --max-memory 0 >"$WS_TMP/zero.out" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -q "option --max-memory: 0 bytes would refuse every test" "$WS_TMP/zero.out"
then pass max_memory_zero_refused; else fail max_memory_zero_refused "exit $rc: $(cat "$WS_TMP/zero.out")"; fi
finish
