# SPDX-License-Identifier: BSD-2-Clause
# -t RPM (responsiveness, docs/rpm.md) against a real `warpspeed serve` on loopback, runs of
# 2 s: the RPM figure is a positive number and agrees with the working latency; -P 0 -v 0
# prints it alone on one line; --json validates against docs/schema/result.schema.json;
# --rpm-direction up uses no download flow and at most --max-load-flows up; bad values are
# refused before any work (exit 2) with their exact messages; a stock netserver is refused
# at once (exit 2); a daemon at its session limit and a daemon that refuses the load
# flows' length each end the run (exit 1) with the reason and what was measured so far;
# the foreign probes run the engine asked with --engine (epoll, io_uring), as their I/O
# path in the JSON shows.
# Idle latency < working latency is not asserted: on loopback it need not hold.
source "$(dirname "$0")/../lib.sh"
: "${WS_ROOT:?WS_ROOT must point at the source tree}"
start_daemon || { fail daemon_start "could not start warpspeed serve"; finish; }
P=$DAEMON_PORT
ws() { "$WS_BIN" -H 127.0.0.1 -p "$P" -t RPM -l 2 "$@"; }

# --- the figure alone -----------------------------------------------------------------
ws -P 0 -v 0 >"$WS_TMP/fig.out" 2>"$WS_TMP/fig.err"
rc=$?
if [ $rc -ne 0 ]; then
	fail figure_alone "exit $rc: $(cat "$WS_TMP/fig.err")"
elif [ "$(wc -l <"$WS_TMP/fig.out")" -ne 1 ] || ! grep -qxE '[0-9]+\.[0-9]{2}' "$WS_TMP/fig.out"; then
	fail figure_alone "expected one line with one number, got: $(cat "$WS_TMP/fig.out")"
elif ! awk '{ exit !($1 > 0) }' "$WS_TMP/fig.out"; then
	fail figure_alone "RPM is not positive: $(cat "$WS_TMP/fig.out")"
else
	pass figure_alone
fi

# --- --json: the schema, and the figures agree with each other ---------------------------
ws --json >"$WS_TMP/rpm.json" 2>"$WS_TMP/json.err"
rc=$?
if [ $rc -ne 0 ]; then
	fail json "exit $rc: $(cat "$WS_TMP/json.err")"
elif ! command -v python3 >/dev/null || ! python3 -c 'import jsonschema' 2>/dev/null; then
	skip json "python3 with the jsonschema module (Debian python3-jsonschema) is not installed"
elif msg=$(python3 - "$WS_ROOT" "$WS_TMP/rpm.json" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1] + "/tests/integration")
import json_check as jc
v = jc.validator(sys.argv[1] + "/docs/schema/result.schema.json")
doc = jc.parse(open(sys.argv[2]).read(), "the RPM document")
jc.check(v, doc, "the RPM document")
f = doc["figures"]
def need(cond, what):
    if not cond:
        jc.die(what + ": " + json.dumps(f))
need(f["rpm"] > 0, "rpm not positive")
need(abs(f["rpm"] - 60000 / f["working_latency_ms"]) < 1e-6 * f["rpm"], "rpm != 60 s / working latency")
need(abs(f["working_latency_ms"] - (f["foreign_ms"] + f["self_ms"]) / 2) < 1e-9, "working != (foreign + self) / 2")
need(abs(f["foreign_connect_rr_ms"] - 2 * f["foreign_ms"]) < 1e-9, "a foreign probe is two round trips")
need(f["idle_latency_ms"] > 0 and f["idle_probes"] >= 5, "idle probes")
need(1 <= f["flows_up"] <= 4 and 1 <= f["flows_down"] <= 4, "flows (default: both ways, at most 4)")
need(f["intervals"] == 15 and abs(f["interval_s"] - 0.12) < 1e-9, "2 s: 15 intervals of 0.12 s")
need(f["goodput_up_mbps"] > 0 and f["goodput_down_mbps"] > 0, "goodput")
need(f["error"] is None, "error")
names = [s["name"] for s in doc["series"]]
need(names == ["TCP upload sum", "TCP download sum", "Foreign probe", "Self probe"], "series " + str(names))
need(len(doc["series"][0]["t"]) == 15, "15 goodput samples")
PY
); then
	pass json
else
	fail json "$msg"
fi

# --- the foreign probes run the engine asked (--engine): their I/O path, here/daemon ------------
# epoll: "send/-" (the daemon's epoll responder names no path); io_uring: "io_uring/io_uring",
# both ends. auto takes io_uring for TCP_CRR, so the epoll run fails if the probes drop
# --engine. Skipped with the reason when this host has no io_uring (as engines.sh).
# engine_run NAME ENGINE WANT: a run on --engine ENGINE whose probes' path is WANT
engine_run() {
	local got rc
	ws --json -- --engine "$2" >"$WS_TMP/$1.json" 2>"$WS_TMP/$1.err"
	rc=$?
	got=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["figures"]["probe_io_path"])' "$WS_TMP/$1.json" 2>&1)
	if [ $rc -eq 0 ] && [ "$got" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "exit $rc, probe_io_path $got: $(cat "$WS_TMP/$1.err")"
	fi
}
engine_run engine_epoll epoll "send/-"
if "$WS_BIN" -H 127.0.0.1 -p "$P" -t TCP_CRR -l -1 -- --engine io_uring -o IO_PATH >"$WS_TMP/uring.out" 2>&1; then
	engine_run engine_io_uring io_uring "io_uring/io_uring"
elif grep -q "cannot run here" "$WS_TMP/uring.out"; then
	skip engine_io_uring "no io_uring here: $(cat "$WS_TMP/uring.out")"
else
	fail engine_io_uring "the io_uring check failed: $(cat "$WS_TMP/uring.out")"
fi

# --- one direction, output names ------------------------------------------------------------
ws --rpm-direction up --max-load-flows 2 -- -k RPM,RPM_FLOWS_UP,RPM_FLOWS_DOWN,RPM_ERROR \
	>"$WS_TMP/k.out" 2>"$WS_TMP/k.err"
rc=$?
if [ $rc -ne 0 ]; then
	fail keyval_up "exit $rc: $(cat "$WS_TMP/k.err")"
elif ! grep -qxE 'RPM=[0-9]+\.[0-9]{3}' "$WS_TMP/k.out" ||
	! grep -qxE 'RPM_FLOWS_UP=[12]' "$WS_TMP/k.out" ||
	! grep -qx 'RPM_FLOWS_DOWN=0' "$WS_TMP/k.out" || ! grep -qx 'RPM_ERROR=' "$WS_TMP/k.out" ||
	[ "$(wc -l <"$WS_TMP/k.out")" -ne 4 ]; then
	fail keyval_up "$(cat "$WS_TMP/k.out")"
else
	pass keyval_up
fi

# --- bad values: refused before any connection, exit 2, exact text --------------------------
# refuse NAME 'EXPECTED STDERR LINE' ARGS...: against port 1, where nothing listens
refuse() {
	local name=$1 want=$2 got rc
	shift 2
	got=$("$WS_BIN" -H 127.0.0.1 -p 1 -t RPM "$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 2 ] || [ "$(head -n 1 <<<"$got")" != "$want" ]; then
		fail "refuse_$name" "exit $rc, got: $got"
	else
		pass "refuse_$name"
	fi
}
refuse direction "warpspeed: option --rpm-direction: 'sideways' is not a direction; expected up, down or both" --rpm-direction sideways
refuse flows0 "warpspeed: option --max-load-flows: '0' is not a flow count; expected a whole number from 1 to 16 (per direction)" --max-load-flows 0
refuse flows17 "warpspeed: option --max-load-flows: '17' is not a flow count; expected a whole number from 1 to 16 (per direction)" --max-load-flows 17
refuse rate "warpspeed: option --probe-rate: '101' is not a probe rate; expected probes per second from 1 to 100" --probe-rate 101
refuse rate_word "warpspeed: option --probe-rate: 'fast' is not a probe rate; expected probes per second from 1 to 100" --probe-rate fast
refuse length "warpspeed: -l 1: -t RPM needs a length in seconds of at least 2 (an idle phase, then 2 x 4 - 1 intervals of at least 0.1 s); the default is 10" -l 1
refuse output "warpspeed: 'FOO' is not an output of -t RPM; expected all, ? (the list) or RPM, RPM_IDLE_LATENCY, RPM_WORKING_LATENCY, RPM_FOREIGN_LATENCY, RPM_SELF_LATENCY, RPM_FOREIGN_CONNECT_RR, RPM_IDLE_PROBES, RPM_FOREIGN_PROBES, RPM_SELF_PROBES, RPM_FOREIGN_TOTAL, RPM_SELF_TOTAL, RPM_GOODPUT_UP, RPM_GOODPUT_DOWN, RPM_FLOWS_UP, RPM_FLOWS_DOWN, RPM_SATURATED, RPM_SATURATED_AT, RPM_STABLE ... (-o ? lists all 26)" -l 2 -- -k RPM,FOO
refuse peer "warpspeed: -t RPM needs a warpspeed daemon (warpspeed serve) at the other end; --peer netserver names a stock netserver, which runs one netperf test per connection and no probes beside it" --peer netserver

# -o ?: every output name, one a line, exit 1 (as netperf's -O ?), before any connection
"$WS_BIN" -H 127.0.0.1 -p 1 -t RPM -- -o '?' >"$WS_TMP/names.out" 2>"$WS_TMP/names.err"
rc=$?
if [ $rc = 1 ] && [ "$(wc -l <"$WS_TMP/names.out")" = 26 ] && [ "$(head -1 "$WS_TMP/names.out")" = RPM ] &&
	grep -qx RPM_WORKING_LATENCY "$WS_TMP/names.out" && [ ! -s "$WS_TMP/names.err" ]; then
	pass output_names
else
	fail output_names "exit $rc: $(head -3 "$WS_TMP/names.out") $(cat "$WS_TMP/names.err")"
fi
# --- a stock netserver: refused at once -------------------------------------------------------
NETSERVER=$(command -v netserver || { [ -x /usr/sbin/netserver ] && echo /usr/sbin/netserver; })
if [ -z "$NETSERVER" ]; then
	skip netserver "netserver (netperf 2.7) is not installed; .ci/run installs it from Debian non-free"
else
	NP=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$NETSERVER" -D -p "$NP" -L 127.0.0.1 >"$WS_TMP/netserver.log" 2>&1 &
	NS_PID=$!
	WS_PIDS+=("$NS_PID")
	for _ in $(seq 1 100); do
		(exec 3<>"/dev/tcp/127.0.0.1/$NP") 2>/dev/null && break
		sleep 0.05
	done
	# At once: within 1.5 s beyond the binary's own start (ws_quick, tests/lib.sh, up to
	# three tries), well under the 2 s idle phase or the 3 s HELLO timeout that a refusal
	# after work or after a wait would take every time.
	quick=yes
	ws_quick 1500 "$WS_TMP/ns.out" "$WS_TMP/ns.err" "$WS_BIN" -H 127.0.0.1 -p "$NP" -t RPM -l 2 || quick=
	rc=$WS_RC got=$(cat "$WS_TMP/ns.err")
	want="warpspeed: -t RPM needs a warpspeed daemon (warpspeed serve) at the other end; 127.0.0.1 (127.0.0.1:$NP) is a stock netserver, which runs one netperf test per connection and no probes beside it"
	if [ $rc -ne 2 ] || [ "$got" != "$want" ] || [ -s "$WS_TMP/ns.out" ]; then
		fail netserver "exit $rc, got: $got / $(cat "$WS_TMP/ns.out")"
	elif [ -z "$quick" ]; then
		fail netserver "took $WS_EXCESS_MS ms beyond the binary's start three times; expected a refusal at once"
	else
		pass netserver
	fi
	kill "$NS_PID" 2>/dev/null
fi

# --- a daemon at its limits: the reason and what was measured so far ---------------------------
start_daemon --max-sessions-per-addr 3 || { fail daemon_limit "could not start warpspeed serve"; finish; }
"$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -t RPM -l 2 >"$WS_TMP/lim.out" 2>"$WS_TMP/lim.err"
rc=$?
if [ $rc -ne 1 ] || ! grep -q '^warpspeed: -t RPM ended early: .*--max-sessions-per-addr 3' "$WS_TMP/lim.err" ||
	! grep -qE '^Idle latency: +[0-9.]+ ms' "$WS_TMP/lim.out" ||
	! grep -q 'so far: the run ended early' "$WS_TMP/lim.out"; then
	fail daemon_limit "exit $rc: $(cat "$WS_TMP/lim.err") / $(cat "$WS_TMP/lim.out")"
else
	pass daemon_limit
fi
kill "$DAEMON_PID" 2>/dev/null

# --- a load flow the daemon refuses: named, with the idle figures ---------------------------------
start_daemon --max-duration 1 || { fail flow_refused "could not start warpspeed serve"; finish; }
"$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -t RPM -l 3 --json >"$WS_TMP/dur.json" 2>"$WS_TMP/dur.err"
rc=$?
want="warpspeed: -t RPM ended early: load flow 1 (up) failed: the daemon reported: a 3 s test exceeds this daemon's limit of 1 s (warpspeed serve --max-duration)"
if [ $rc -ne 1 ] || [ "$(cat "$WS_TMP/dur.err")" != "$want" ] ||
	! python3 -c 'import json, sys; f = json.load(open(sys.argv[1]))["figures"]; sys.exit(not (f["error"] and f["idle_probes"] >= 5 and f["idle_latency_ms"] > 0))' "$WS_TMP/dur.json"; then
	fail flow_refused "exit $rc: $(cat "$WS_TMP/dur.err") / $(head -c 600 "$WS_TMP/dur.json")"
else
	pass flow_refused
fi
finish
