# SPDX-License-Identifier: BSD-2-Clause
# Guessing the daemon's key is slow (issue 27, D8): before, `serve -Z labpass1` took 7,199
# wrong guesses a second from one address, with no delay. Now each failure from an address
# doubles the wait before that address's next turn (10 ms up to 1 s), one turn at a time
# however many connections it opens, and the pre-session loop serves other addresses
# meanwhile (no sleep). Here 3 s of guesses from 127.0.0.2 on 4 connections at a time,
# warpspeed proofs and netperf passphrases alternating, while a client with the right key
# runs from 127.0.0.1. About 4 s.
source "$(dirname "$0")/../lib.sh"
PEER="$(dirname "$0")/hostile_peer.py"

python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.2", 0))' 2>/dev/null ||
	{ skip guess "127.0.0.2 cannot be bound here"; finish; }
start_daemon -Z labpass1 || { fail daemon_start "no daemon"; finish; }
python3 "$PEER" guess "$DAEMON_PORT" 3 4 127.0.0.2 >"$WS_TMP/guess.out" 2>&1 &
WS_PIDS+=($!)
g=$!
sleep 1.5
t0=$(date +%s%N)
if "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -Z labpass1 -l -1000000 -P 0 >"$WS_TMP/good.out" 2>&1 &&
   [ $(( ($(date +%s%N) - t0) / 1000000 )) -lt 1500 ]
then pass right_key_from_elsewhere_served
else fail right_key_from_elsewhere_served "$(cat "$WS_TMP/good.out")"; fi
wait "$g"
n=$(sed -n 's/^\([0-9]*\) wrong proofs refused.*/\1/p' "$WS_TMP/guess.out")
if [ -n "$n" ] && [ "$n" -ge 3 ] && [ "$n" -le 15 ]; then pass "guesses_slowed ($n in 3 s)"
else fail guesses_slowed "$(cat "$WS_TMP/guess.out")"; fi
if wait_log "authentication failed from 127\.0\.0\.2:[0-9]+: .* in a row from 127\.0\.0\.2, whose next attempt waits [0-9]+ ms"
then pass failures_counted_in_log; else fail failures_counted_in_log "$(tail -n 3 "$DAEMON_LOG")"; fi
finish
