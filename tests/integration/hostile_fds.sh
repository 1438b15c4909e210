# SPDX-License-Identifier: BSD-2-Clause
# A daemon's descriptors are a budget (issue 27, D13): before, six clients asking for
# --streams 4096 took a daemon to 19,915 of its 20,000 descriptors; clients saw resets
# and a stock netperf got a warpspeed ERROR frame. Now a test's descriptors (a flow each,
# the listener, the control watch's pipe) are charged before anything is opened, against
# ulimit -n less the pending connections, sessions and a reserve, and a request past it
# is refused up front with its cost in the client's own protocol (netperf: remote error
# 24, "Too many open files"). Here ulimit -n 512, --max-pending 16 --max-sessions 8:
# a budget of 512 - 16 - 8 - 32 = 456. About 4 s.
source "$(dirname "$0")/../lib.sh"

# the daemon alone runs under ulimit -n 512: start_daemon runs this wrapper as WS_BIN
printf '#!/bin/sh\nulimit -n 512 && exec "%s" "$@"\n' "$WS_BIN" >"$WS_TMP/ws512"
chmod +x "$WS_TMP/ws512"
WS_BIN="$WS_TMP/ws512" start_daemon -L 127.0.0.1 --max-pending 16 --max-sessions 8 ||
	{ fail daemon_start "no daemon"; finish; }
P=$DAEMON_PORT

"$WS_BIN" -H 127.0.0.1 -p "$P" -P 0 --streams 600 -l 1 >"$WS_TMP/big.out" 2>&1; rc=$?
want="warpspeed: the daemon reported: TCP_STREAM with 600 flows needs 603 file descriptors, over this daemon's budget of 456 (0 held by other tests; ulimit -n 512 less its pending connections, sessions and reserve) (raise warpspeed serve's ulimit -n, or lower --max-pending or --max-sessions)"
if [ $rc -eq 1 ] && [ "$(cat "$WS_TMP/big.out")" = "$want" ]; then pass over_budget_refused_with_cost
else fail over_budget_refused_with_cost "exit $rc: $(head -c 600 "$WS_TMP/big.out")"; fi

# one test holds 453 of 456 for 2 s; a netperf (4) meanwhile is refused, then served
"$WS_BIN" -H 127.0.0.1 -p "$P" -P 0 --streams 450 -l 2 >"$WS_TMP/hold.out" 2>&1 &
hold=$!
WS_PIDS+=($!)
sleep 1
if command -v netperf >/dev/null; then
	netperf -H 127.0.0.1 -p "$P" -t TCP_RR -l 1 -P 0 >"$WS_TMP/np.out" 2>&1; rc=$?
	if [ $rc -ne 0 ] && grep -q "remote error 24" "$WS_TMP/np.out"; then pass netperf_refused_errno_24
	else fail netperf_refused_errno_24 "exit $rc: $(cat "$WS_TMP/np.out")"; fi
else
	skip netperf_refused_errno_24 "netperf is not installed"
fi
wait "$hold"; rc=$?
if [ $rc -eq 0 ]; then pass holder_ran; else fail holder_ran "exit $rc: $(head -c 600 "$WS_TMP/hold.out")"; fi
if "$WS_BIN" -H 127.0.0.1 -p "$P" -P 0 -t TCP_RR -l 1 >"$WS_TMP/after.out" 2>&1; then pass released_after
else fail released_after "$(cat "$WS_TMP/after.out")"; fi
finish
