# SPDX-License-Identifier: BSD-2-Clause
# The loop benchmark scripts run around netperf (tests/goldens/loops.sh: CPU rates from
# -t LOC_CPU / -t REM_CPU passed back as -c RATE -C RATE, then TCP_STREAM and TCP_RR x
# sizes x socket buffers with -i/-I, and UDP_STREAM x sizes), run with warpspeed as
# `netperf` against `warpspeed serve` and against a stock netserver (when installed): every
# line must give netperf 2.7.0's exit status, number and shape of result rows and header
# lines, as tests/goldens/capture-loops.sh recorded them in tests/goldens/loops/EXPECT.
# grammar.py masks and compares (one verdict per line and server).
source "$(dirname "$0")/../lib.sh"
ROOT=${WS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
G=$ROOT/tests/goldens
if ! command -v python3 >/dev/null 2>&1; then
	skip script_loops "python3 is not installed"
	finish
fi
# shellcheck source=tests/goldens/loops.sh
source "$G/loops.sh"
ln -s "$WS_BIN" "$WS_TMP/netperf"
: >"$WS_TMP/none"

# check_loops LABEL PORT: the loop against the server on PORT, compared with EXPECT
check_loops() {
	local label=$1 port=$2 dir=$WS_TMP/$1
	mkdir "$dir"
	run_loops "$WS_TMP/netperf" "$port" "$dir"
	if ! python3 "$G/grammar.py" summarize "$dir/cases" "$dir" >"$dir/got" ||
		! python3 "$G/grammar.py" compare "$G/loops/EXPECT" "$dir/got" "$WS_TMP/none" \
			"$WS_TMP/none" "$dir" >"$dir/verdicts"; then
		fail "loops_$label" "summarizing or comparing failed"
		return
	fi
	sed "s/ grammar_/ loops_${label}_/" "$dir/verdicts"
	grep -q '^FAIL' "$dir/verdicts" && WS_FAILED=1
	local n
	n=$(grep -c '^[A-Z]* grammar_' "$dir/verdicts")
	if [ "$n" = "$(grep -vc '^#' "$G/loops/EXPECT")" ]; then pass "loops_${label}_all_lines"
	else fail "loops_${label}_all_lines" "$n lines compared, EXPECT has $(grep -vc '^#' "$G/loops/EXPECT")"; fi
}

t0=$SECONDS
start_daemon || { fail script_loops_daemon "could not start warpspeed serve"; finish; }
check_loops serve "$DAEMON_PORT"

NETSERVER=${NETSERVER:-netserver}
if command -v "$NETSERVER" >/dev/null 2>&1; then
	NP=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$NETSERVER" -D -p "$NP" -L 127.0.0.1,4 >"$WS_TMP/netserver.log" 2>&1 &
	WS_PIDS+=("$!")
	for _ in $(seq 1 100); do
		(exec 3<>"/dev/tcp/127.0.0.1/$NP") 2>/dev/null && break
		sleep 0.05
	done
	check_loops netserver "$NP"
else
	skip loops_netserver "netserver is not installed"
fi
echo "script_loops: $((SECONDS - t0)) s"
finish
