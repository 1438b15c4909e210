# SPDX-License-Identifier: BSD-2-Clause
# A client that holds a key refuses a daemon that does not prove it (issue 27, D9):
# before, a daemon answering HELLO with HELLO_ACK and no CHALLENGE got the test request
# anyway (with -v 2 a note said the key was not used), so anyone answering on the port
# passed for the keyed daemon. Now that ends in one line and exit 1, as README says;
# --allow-unauthenticated opts out. A keyless `warpspeed serve` is such a daemon. 2 s.
source "$(dirname "$0")/../lib.sh"

printf 'lab key for the unauth test\n' >"$WS_TMP/key"
chmod 600 "$WS_TMP/key"
start_daemon -L 127.0.0.1 || { fail daemon_start "no daemon"; finish; }
"$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -l -100000 -P 0 --psk-file "$WS_TMP/key" >"$WS_TMP/out" 2>&1; rc=$?
want="warpspeed: 127.0.0.1 (127.0.0.1:$DAEMON_PORT) did not ask for the key from key file $WS_TMP/key, so it did not prove that it holds it; refusing to run a test with it (--allow-unauthenticated runs it anyway)"
if [ $rc -eq 1 ] && [ "$(cat "$WS_TMP/out")" = "$want" ]; then pass keyed_client_refuses_keyless_daemon
else fail keyed_client_refuses_keyless_daemon "exit $rc: $(cat "$WS_TMP/out")"; fi
sleep 0.2
if grep -q "TCP_STREAM" "$DAEMON_LOG"; then fail no_test_request_sent "$(cat "$DAEMON_LOG")"
else pass no_test_request_sent; fi
if "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -l -100000 -P 0 --psk-file "$WS_TMP/key" --allow-unauthenticated -v 2 \
	>"$WS_TMP/allow.out" 2>"$WS_TMP/allow.err" &&
   grep -q "note: .* did not ask for authentication; the key from key file $WS_TMP/key was not used" "$WS_TMP/allow.err"
then pass allow_unauthenticated_opts_out
else fail allow_unauthenticated_opts_out "$(cat "$WS_TMP/allow.err")"; fi
finish
