# SPDX-License-Identifier: BSD-2-Clause
# The differential grammar suite (issue 26): every command line of
# tests/goldens/grammar/EXPECT (several hundred, made from the grammar table GRAMMAR and run
# against the real netperf 2.7.0 by tests/goldens/capture-grammar.sh) runs here against
# warpspeed, under the name `netperf` as it is installed, and `warpspeed serve` on
# loopback. Per line: a line netperf accepted must be accepted (exit 0) and a line it
# refused must be refused (exit non-zero) with a message naming the value; the data rows
# (their field counts) and the header lines (numbers masked) must be netperf's. A line
# netperf hangs on, or does not do alike twice, must merely end. Every other difference is
# one FAIL line, unless tests/goldens/grammar/DIFFERS lists it (warpspeed differs on
# purpose, with the reason) or PENDING does (to be fixed by work not merged yet: SKIP).
# netperf is not needed here; python3 is (grammar.py runs, masks and compares).
source "$(dirname "$0")/../lib.sh"
ROOT=${WS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
G=$ROOT/tests/goldens/grammar
if ! command -v python3 >/dev/null 2>&1; then
	skip grammar "python3 is not installed"
	finish
fi
start_daemon || { fail grammar_daemon "could not start warpspeed serve"; finish; }
ln -s "$WS_BIN" "$WS_TMP/netperf"
head -c 1048576 /dev/urandom >"$WS_TMP/fill"
mkdir "$WS_TMP/run"
# Under the sanitizers (build/san, several times slower per process) one line in
# GRAMMAR_EVERY (default 3 there, else 1) runs, starting at GRAMMAR_OFFSET (default 0): the
# plain build covers every line, this run the memory checks of a third of them.
every=${GRAMMAR_EVERY:-1}
[ "$(basename "${WS_BUILD:-build}")" = san ] && every=${GRAMMAR_EVERY:-3}
awk -v n="$every" -v o="${GRAMMAR_OFFSET:-0}" '/^#/ { print; next } (i++ % n) == o' \
	"$G/EXPECT" >"$WS_TMP/expect"
t0=$SECONDS
# GRAMMAR_KEEP=DIR keeps every line's stdout, stderr and exit status there, for a look
[ -n "${GRAMMAR_KEEP:-}" ] && trap 'cp -r "$WS_TMP/run" "$GRAMMAR_KEEP"; ws_cleanup' EXIT
GRAMMAR_TIMEOUT=${GRAMMAR_TIMEOUT:-8} python3 "$ROOT/tests/goldens/grammar.py" run "$WS_TMP/expect" \
	"$WS_TMP/run" "$WS_TMP/netperf" "$DAEMON_PORT" "$WS_TMP/fill" ||
	{ fail grammar_run "running the lines failed"; finish; }
python3 "$ROOT/tests/goldens/grammar.py" summarize "$WS_TMP/expect" "$WS_TMP/run" >"$WS_TMP/got" ||
	{ fail grammar_summary "summarizing the runs failed"; finish; }
python3 "$ROOT/tests/goldens/grammar.py" compare "$WS_TMP/expect" "$WS_TMP/got" "$G/DIFFERS" \
	"$G/PENDING" "$WS_TMP/run" >"$WS_TMP/verdicts" ||
	{ fail grammar_compare "comparing failed"; finish; }
cat "$WS_TMP/verdicts"
grep -q '^FAIL' "$WS_TMP/verdicts" && WS_FAILED=1
echo "grammar: $(grep -c '^[A-Z]* grammar_' "$WS_TMP/verdicts") lines compared (one in $every) in $((SECONDS - t0)) s"
# netperf -t T -- -h: the test's options on stdout, exit 1, netperf's option letters in
# netperf's order for that test's family (grammar/help/ holds netperf's own texts; the
# words are warpspeed's, so only the letters are compared)
letters() { grep -oE '^    -[A-Za-z0-9]' "$1" | tr -d ' -' | tr -d '\n'; }
for h in "$G"/help/test-*.txt; do
	t=$(basename "$h" .txt)
	t=${t#test-}
	"$WS_TMP/netperf" -t "$t" -- -h >"$WS_TMP/th.out" 2>"$WS_TMP/th.err"
	rc=$?
	want=$(letters "$h") got=$(letters "$WS_TMP/th.out")
	if [ $rc = 1 ] && [ ! -s "$WS_TMP/th.err" ] && [ -n "$want" ] && [ "$got" = "$want" ]; then
		pass "grammar_test_help_$t"
	else
		fail "grammar_test_help_$t" "exit $rc (want 1), letters '$got', netperf's '$want'; stderr: $(head -c 200 "$WS_TMP/th.err")"
	fi
done
kill -0 "$DAEMON_PID" 2>/dev/null || fail grammar_daemon_alive "warpspeed serve died: $(tail -n 3 "$DAEMON_LOG")"
finish
