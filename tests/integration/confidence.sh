# SPDX-License-Identifier: BSD-2-Clause
# -i/-I against a real `warpspeed serve` on loopback: the client runs exactly the
# iterations asked for (counted in the daemon's log, one session line per whole test), and
# prints netperf 2.7.0's banner suffix and warning block, compared with the *_conf goldens
# of tests/goldens/netperf/: the banner byte for byte after warpspeed's documented
# difference (the address inside the parentheses), the lines without digits byte for
# byte, the value lines by shape (numbers replaced by N). The block appears only when the
# target was not met, so when a run happens to meet it the golden's block is dropped from
# the expectation and the run must print none. Wall time: the runs count bytes or
# transactions (-l -N), which ends each iteration in milliseconds; the iterations, banners
# and layouts checked here do not depend on the length (elapsed time is a number like any).
source "$(dirname "$0")/../lib.sh"
: "${WS_ROOT:?WS_ROOT must point at the source tree}"
G=$WS_ROOT/tests/goldens/netperf
start_daemon || { fail daemon_start "could not start warpspeed serve"; finish; }
P=$DAEMON_PORT
BYTES=-20000000 # TCP: 20 MB an iteration
UDP=-5000000    # UDP_STREAM: 5 MB sent
TRANS=-2000     # RR: 2000 transactions

shape() { sed -E 's/-?[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g'; }
sessions() { grep -c 'warpspeed serve: session [0-9]* from .*, ok$' "$DAEMON_LOG"; }

# wait_sessions N: until the daemon has logged N sessions (it logs a moment after the
# client prints), then a little longer so that an extra one would show.
wait_sessions() {
	wait_log "session $1 from" || true
	sleep 0.3
}

# check NAME SESSIONS_BEFORE ARGS...: the run against the golden NAME.txt.
check() {
	local name=$1 before=$2 out=$WS_TMP/$1.out err=$WS_TMP/$1.err want=$WS_TMP/$1.want rc
	shift 2
	"$WS_BIN" -H 127.0.0.1 -p "$P" "$@" >"$out" 2>"$err"
	rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name" "exit $rc: $(cat "$err")"; return
	fi
	wait_sessions $((before + 3))
	local n
	n=$(sessions)
	if [ "$n" -ne $((before + 3)) ]; then
		fail "${name}_iterations" "the daemon logged $((n - before)) tests for -i 3,3, expected 3: $(cat "$DAEMON_LOG")"
	else
		pass "${name}_iterations"
	fi
	sed -E '1s/127\.0\.0\.1 \(\)/127.0.0.1 (127.0.0.1)/' "$G/$name.txt" >"$want"
	if ! grep -q '^!!! WARNING$' "$out"; then
		sed -i '2,9d' "$want" # met: netperf prints no block either
	fi
	if [ "$(head -n 1 "$out")" != "$(head -n 1 "$want")" ]; then
		fail "${name}_banner" "$(head -n 1 "$out" | cat -A) != $(head -n 1 "$want" | cat -A)"; return
	fi
	pass "${name}_banner"
	if ! diff <(shape <"$out") <(shape <"$want") >"$WS_TMP/$name.diff"; then
		fail "$name" "differs from netperf's layout: $(cat -A "$WS_TMP/$name.diff")"; return
	fi
	if [ "$(grep -v '[0-9]' "$out")" != "$(grep -v '[0-9]' "$want")" ]; then
		fail "$name" "fixed lines differ: $(cat -A "$out")"; return
	fi
	pass "$name"
}

check tcp_stream_conf 0 -t TCP_STREAM -l $BYTES -i 3,3 -I 99,5
check tcp_maerts_conf 3 -t TCP_MAERTS -l $BYTES -i 3,3 -I 99,5
check udp_stream_conf 6 -t UDP_STREAM -l $UDP -i 3,3 -I 99,5 -- -m 1472

# iterations NAME SUFFIX_REGEX ARGS...: a run that is not compared with a golden: 3 tests
# logged, the banner with the suffix; skipped while the daemon does not serve the test.
iterations() {
	local name=$1 suffix=$2 out=$WS_TMP/$1.out err=$WS_TMP/$1.err before n
	shift 2
	before=$(sessions)
	if ! "$WS_BIN" -H 127.0.0.1 -p "$P" "$@" >"$out" 2>"$err"; then
		if grep -qE "not supported|not built" "$err"; then
			skip "$name" "not served yet: $(cat "$err")"
		else
			fail "$name" "$(cat "$err")"
		fi
		return
	fi
	wait_sessions $((before + 3))
	n=$(sessions)
	if [ "$n" -eq $((before + 3)) ] && head -n 1 "$out" | grep -qE "$suffix"; then
		pass "$name"
	else
		fail "$name" "$((n - before)) tests logged, output: $(cat "$out")"
	fi
}

# --streams: whole multi-stream tests are the iterations.
iterations streams_iterations ' : \+/-2\.500% @ 99% conf\.  : demo$' -l $BYTES -i 3,3 --streams 2
# TCP_RR (once the daemon serves it): the suffix comes before " : first burst".
iterations rr_iterations ' : \+/-2\.500% @ 95% conf\.  : demo' -t TCP_RR -l $TRANS -i 3,3 -I 95,5
iterations udp_rr_iterations ' : \+/-5\.000% @ 99% conf\.  : demo' -t UDP_RR -l $TRANS -i 3,3 -I 99,10
# -r: the throughput alone is judged, and the banner says so as netperf's does.
iterations r_iterations ' : \+/-2\.500% @ 99% conf\.  on result only : demo$' -l $BYTES -i 3,3 -r -c

# -k: the confidence names carry the run's figures; the banner keeps its suffix.
before=$(sessions)
if "$WS_BIN" -H 127.0.0.1 -p "$P" -l $BYTES -i 3,3 -- -k THROUGHPUT,CONFIDENCE_LEVEL,CONFIDENCE_ITERATION,THROUGHPUT_CONFID,LOCAL_CPU_CONFID \
	>"$WS_TMP/k.out" 2>"$WS_TMP/k.err"; then
	wait_sessions $((before + 3))
	if [ "$(sessions)" -eq $((before + 3)) ] && head -n 1 "$WS_TMP/k.out" | grep -q ' : +/-2.500% @ 99% conf.  : demo$' &&
		grep -qx 'CONFIDENCE_LEVEL=99' "$WS_TMP/k.out" && grep -qx 'CONFIDENCE_ITERATION=3' "$WS_TMP/k.out" &&
		grep -qE '^THROUGHPUT_CONFID=[0-9]+\.[0-9]{3}$' "$WS_TMP/k.out" && grep -qx 'LOCAL_CPU_CONFID=0.000' "$WS_TMP/k.out"; then
		pass keyval_confidence
	else
		fail keyval_confidence "$(cat "$WS_TMP/k.out")"
	fi
else
	fail keyval_confidence "$(cat "$WS_TMP/k.err")"
fi

# Bad values are refused before any test runs, naming the value and what is accepted.
before=$(sessions)
"$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -I 97,5 >"$WS_TMP/bad.out" 2>"$WS_TMP/bad.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "option -I: confidence level 97 is not supported; expected 95 or 99" "$WS_TMP/bad.err" &&
	[ "$(sessions)" -eq "$before" ]; then
	pass bad_level
else
	fail bad_level "exit $rc: $(cat "$WS_TMP/bad.err")"
fi
"$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -i x >"$WS_TMP/bad.out" 2>"$WS_TMP/bad.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "option -i: " "$WS_TMP/bad.err"; then
	pass bad_iterations
else
	fail bad_iterations "exit $rc: $(cat "$WS_TMP/bad.err")"
fi
finish
