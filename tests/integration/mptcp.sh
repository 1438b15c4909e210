# SPDX-License-Identifier: BSD-2-Clause
# --mptcp and omni -T mptcp on loopback (issue 32, docs/mptcp.md): TCP_STREAM, TCP_RR and
# TCP_CRR for 1 s against `warpspeed serve` run MPTCP at both ends with one subflow (the
# -v 1 line, the -v 2 subflow line with its addresses, and the JSON, each side read back
# from the kernel); against a stock netserver, which listens on plain TCP, the client's
# connection falls back and says so (-v 1, JSON; -v 2 adds a note on stderr); -t omni -T mptcp is
# --mptcp; UDP tests and bad spellings are refused with exit 2 before any connection.
source "$(dirname "$0")/../lib.sh"
if [ "$(cat /proc/sys/net/mptcp/enabled 2>/dev/null)" != 1 ]; then
	skip mptcp "this kernel has no MPTCP (net.mptcp.enabled is not 1)"
	finish
fi
start_daemon || { fail daemon_start "could not start warpspeed serve"; finish; }
ws() { timeout 30 "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" "$@"; }
CHECK="python3 $WS_ROOT/tests/integration/json_check.py"
ONE_SUBFLOW='^MPTCP: local MPTCP in use, 1 subflow; remote MPTCP in use, 1 subflow$'
SUBFLOW_RE='^MPTCP subflow [0-9]+ \(local\): 127\.0\.0\.1:[0-9]+ -> 127\.0\.0\.1:[0-9]+, bytes acked [0-9]+, received [0-9]+, RTT [0-9]+ us$'

# --- against warpspeed serve: MPTCP at both ends, one subflow --------------------------
for t in TCP_STREAM TCP_RR TCP_CRR; do
	bg_run "ws_$t" ws -t "$t" -l 1 -v 2 -- --mptcp
done
bg_wait
for t in TCP_STREAM TCP_RR TCP_CRR; do
	out=$WS_TMP/ws_$t.out
	if [ "$(cat "$WS_TMP/ws_$t.rc")" != 0 ]; then
		fail "mptcp_$t" "exit $(cat "$WS_TMP/ws_$t.rc"): $(cat "$WS_TMP/ws_$t.err")"
	elif ! grep -qE "$ONE_SUBFLOW" "$out"; then
		fail "mptcp_$t" "no one-subflow MPTCP line: $(grep MPTCP "$out")"
	else
		pass "mptcp_$t"
	fi
	# TCP_CRR's connections are gone by the report: no subflow detail there
	if [ "$t" != TCP_CRR ]; then
		n=$(grep -cE "$SUBFLOW_RE" "$out")
		[ "$n" = 1 ] && pass "mptcp_subflow_line_$t" ||
			fail "mptcp_subflow_line_$t" "$n subflow lines: $(grep subflow "$out")"
	fi
done
# the subflow's bytes: TCP_STREAM sent what the client counted as sent
sent=$(ws -t TCP_STREAM -l 1 --json -- --mptcp 2>"$WS_TMP/js.err" | tee "$WS_TMP/js.json" |
	python3 -c '
import json, sys
d = json.load(sys.stdin)
l, r = d["local"]["mptcp"], d["remote"]["mptcp"]
assert l["state"] == "mptcp" and not l["fallback"] and l["subflows"] == 1, l
assert r["state"] == "mptcp" and r["subflows"] == 1, r
assert d["spec"]["io_options"]["mptcp"] is True
sf = l["subflow_list"]
assert len(sf) == 1 and sf[0]["local"].startswith("127.0.0.1:"), sf
# every byte the client sent is on its one subflow, acknowledged by the end
assert sf[0]["bytes_acked"] >= d["local"]["bytes_sent"] > 0, (sf, d["local"]["bytes_sent"])
print("ok")' 2>&1)
[ "$sent" = ok ] && pass mptcp_json || fail mptcp_json "$sent $(cat "$WS_TMP/js.err")"
if $CHECK have-jsonschema 2>/dev/null; then
	r=$($CHECK doc "$WS_ROOT/docs/schema/result.schema.json" "$WS_TMP/js.json" TCP_STREAM 2>&1) &&
		pass mptcp_json_schema || fail mptcp_json_schema "$r"
fi
# without --mptcp: plain TCP, and no MPTCP line or object
out=$(ws -t TCP_STREAM -l -1000000 -v 2 2>&1)
grep -q MPTCP <<<"$out" && fail mptcp_plain_silent "an MPTCP line without --mptcp" || pass mptcp_plain_silent

# --- omni -T mptcp is --mptcp; -T accepts netperf's spellings of tcp and udp -------------
out=$(ws -t omni -l 1 -- -d rr -T mptcp 2>&1)
grep -qE "$ONE_SUBFLOW" <<<"$out" && pass mptcp_omni_rr || fail mptcp_omni_rr "$out"
out=$(ws -t omni -l -1000000 -- -T MPTCP 2>&1)
grep -qE "$ONE_SUBFLOW" <<<"$out" && pass mptcp_omni_upper || fail mptcp_omni_upper "$out"
# a machine format (-o) keeps stdout for the values: the MPTCP line goes to stderr
ws -t omni -l -1000000 -- -T mptcp -o THROUGHPUT >"$WS_TMP/o.out" 2>"$WS_TMP/o.err"
if grep -q MPTCP "$WS_TMP/o.out" || ! grep -qE "$ONE_SUBFLOW" "$WS_TMP/o.err"; then
	fail mptcp_omni_csv "stdout: $(cat "$WS_TMP/o.out") stderr: $(cat "$WS_TMP/o.err")"
else
	pass mptcp_omni_csv
fi

# --- refused before any work, exit 2 ------------------------------------------------------
refused() { # name, expected message regex, args...
	local name=$1 re=$2
	shift 2
	ws "$@" >"$WS_TMP/r.out" 2>"$WS_TMP/r.err"
	local rc=$?
	if [ "$rc" = 2 ] && grep -qE -- "$re" "$WS_TMP/r.err"; then pass "$name"; else
		fail "$name" "exit $rc: $(cat "$WS_TMP/r.err")"
	fi
}
refused mptcp_udp_stream "--mptcp does not apply to UDP_STREAM; it applies to the TCP tests" -t UDP_STREAM -l 1 -- --mptcp
refused mptcp_udp_rr "--mptcp does not apply to UDP_RR" -t UDP_RR -l 1 -- --mptcp
refused mptcp_switch "unknown option '--mptcp=1'" -t TCP_STREAM -l 1 -- --mptcp=1
refused mptcp_omni_bad "'sctp' is not a protocol warpspeed runs; expected tcp, udp or mptcp" -t omni -l 1 -- -T sctp

# --- against a stock netserver: the client's side falls back, reported ------------------
NETSERVER=$(command -v netserver || { [ -x /usr/sbin/netserver ] && echo /usr/sbin/netserver; })
if [ -z "$NETSERVER" ]; then
	skip mptcp_netserver "netserver (netperf 2.7) is not installed"
	finish
fi
NP=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$NETSERVER" -D -p "$NP" -L 127.0.0.1,4 >"$WS_TMP/netserver.log" 2>&1 &
WS_PIDS+=($!)
for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$NP") 2>/dev/null && break; sleep 0.05; done
np() { timeout 30 "$WS_BIN" -H 127.0.0.1 -p "$NP" "$@"; }
np -t TCP_STREAM -l 1 -- --mptcp >"$WS_TMP/np.out" 2>"$WS_TMP/np.err"
rc=$?
want='^MPTCP: local FELL BACK to plain TCP \(the peer did not take MPTCP\), 1 subflow; remote plain TCP \(a stock netserver\)$'
if [ "$rc" = 0 ] && grep -qE "$want" "$WS_TMP/np.out"; then
	pass mptcp_netserver_fallback
else
	fail mptcp_netserver_fallback "exit $rc: $(cat "$WS_TMP/np.out" "$WS_TMP/np.err")"
fi
r=$(np -t TCP_RR -l 1 --json -- --mptcp 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
l, r = d["local"]["mptcp"], d["remote"]["mptcp"]
assert l["state"] == "fallback" and l["fallback"] is True and l["subflow_list"] == [], l
assert r["state"] is None and r["fallback"] is None, r
print("ok")' 2>&1)
[ "$r" = ok ] && pass mptcp_netserver_json || fail mptcp_netserver_json "$r"
finish
