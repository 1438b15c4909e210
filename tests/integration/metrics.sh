#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# metrics: serve --metrics, node --metrics and the client's --openmetrics, with the real
# tools that read them (issue 31). A daemon and a node on loopback serve /metrics; three
# -l 1 TCP_STREAM runs and one Read IQ give exact counters (tests_total 3, sessions 3,
# read_iq 1..100, 100000 samples); promtool (Debian's prometheus package) checks every
# Prometheus-text exposition and the --openmetrics file; a real Prometheus server, on a
# free loopback port with its own storage in the test's folder, scrapes serve --metrics
# (it asks for OpenMetrics 1.0, so its parser checks that form) and its HTTP API must
# answer 3 for the test counter. The endpoint's refusals (405, 404, 400) and a slowloris
# (one byte a second) that neither delays another scrape nor outlives the 5 s limit are
# checked too. Then RRUL, RRUL_BE and RPM runs count under their own test names (RPM's
# flows and probes as RPM, not as TCP_STREAM or TCP_CRR). Without prometheus/promtool those checks are skipped with the reason.
# Every process is started by PID and killed by PID (tests/lib.sh).
source "$(dirname "$0")/../lib.sh"
W=$WS_BIN
PROMTOOL=$(command -v promtool || true)
PROMETHEUS=$(command -v prometheus || true)

# --- bad values are usage errors, before any work --------------------------------------
out=$("$W" serve -p 0 --metrics 127.0.0.1:99999 2>&1)
rc=$?
[ "$rc" -eq 2 ] && [[ "$out" == *"'127.0.0.1:99999' has no port 0..65535"* ]] &&
	pass metrics_bad_port || fail metrics_bad_port "exit $rc: $out"
out=$("$W" node --port 0 --metrics ::1:9100 2>&1)
rc=$?
[ "$rc" -eq 2 ] && [[ "$out" == *"IPv6 address goes in brackets"* ]] &&
	pass metrics_node_bad_addr || fail metrics_node_bad_addr "exit $rc: $out"
out=$("$W" -t TCP_STREAM -l 1 --openmetrics "$WS_TMP" 2>&1)
rc=$?
[ "$rc" -eq 2 ] && [[ "$out" == *"--openmetrics: '$WS_TMP' is a directory"* ]] &&
	pass openmetrics_dir_refused || fail openmetrics_dir_refused "exit $rc: $out"

# --- the daemon, the node and (when installed) Prometheus --------------------------------
start_daemon -L 127.0.0.1 --metrics 127.0.0.1:0 || { fail metrics_daemon "no daemon"; finish; }
for _ in $(seq 1 40); do
	MPORT=$(sed -n 's|.*metrics on http://127.0.0.1:\([0-9]*\)/metrics|\1|p' "$DAEMON_LOG")
	[ -n "$MPORT" ] && break
	sleep 0.05
done
"$W" node --port 0 --bcast-port off --metrics 0 --quiet >"$WS_TMP/node.out" 2>"$WS_TMP/node.err" &
WS_PIDS+=($!)
for _ in $(seq 1 100); do
	NPORT=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\),.*/\1/p' "$WS_TMP/node.err")
	NMPORT=$(sed -n 's|.*metrics on http://127.0.0.1:\([0-9]*\)/metrics|\1|p' "$WS_TMP/node.err")
	[ -n "$NPORT" ] && [ -n "$NMPORT" ] && break
	sleep 0.05
done

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PROM_PID=
if [ -n "$PROMETHEUS" ]; then
	PPORT=$(free_port)
	cat >"$WS_TMP/prometheus.yml" <<EOF
global:
  scrape_interval: 500ms
  scrape_timeout: 400ms
scrape_configs:
  - job_name: warpspeed_serve
    static_configs:
      - targets: ['127.0.0.1:$MPORT']
EOF
	"$PROMETHEUS" --config.file="$WS_TMP/prometheus.yml" --storage.tsdb.path="$WS_TMP/prom" \
		--web.listen-address="127.0.0.1:$PPORT" >"$WS_TMP/prometheus.log" 2>&1 &
	PROM_PID=$!
	WS_PIDS+=("$PROM_PID")
fi

# --- three tests, one Read IQ ---------------------------------------------------------------
for i in 1 2 3; do
	extra=()
	[ "$i" -eq 3 ] && extra=(--openmetrics "$WS_TMP/result.prom")
	"$W" -H 127.0.0.1 -p "$DAEMON_PORT" -t TCP_STREAM -l 1 -P 0 "${extra[@]}" >/dev/null 2>"$WS_TMP/client.$i.err" ||
		fail metrics_client_$i "$(cat "$WS_TMP/client.$i.err")"
done
"$W" iq read "127.0.0.1:$NPORT" --rf A --samples 100000 -o "$WS_TMP/r.ci16" >/dev/null 2>&1 ||
	fail metrics_iq_read "iq read failed"
wait_log "session 3 .*ok" || fail metrics_sessions_logged "$(cat "$DAEMON_LOG")"
# a foreign protocol on the control port: one refusal, reason protocol
printf 'GET / HTTP/1.0\r\n\r\n' | timeout 3 python3 -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(sys.stdin.buffer.read()); s.settimeout(3)
try: s.recv(4096)
except Exception: pass' "$DAEMON_PORT"
sleep 0.2

scrape() { curl -s --max-time 3 "$@"; }
# value NAME{LABELS} FILE: the sample's value
value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

scrape "http://127.0.0.1:$MPORT/metrics" >"$WS_TMP/serve.txt"
expect_daemon() {
	local got
	got=$(value "$1" "$WS_TMP/serve.txt")
	[ "$got" = "$2" ] && pass "metrics_daemon_$3" || fail "metrics_daemon_$3" "$1 = '$got', want $2"
}
expect_daemon 'warpspeed_daemon_tests_total{test="TCP_STREAM",outcome="ok"}' 3 tests_ok
expect_daemon 'warpspeed_daemon_tests_total{test="TCP_STREAM",outcome="failed"}' 0 tests_failed
expect_daemon 'warpspeed_daemon_sessions_total{protocol="warpspeed"}' 3 sessions
expect_daemon 'warpspeed_daemon_sessions_active' 0 active
expect_daemon 'warpspeed_daemon_test_duration_seconds_count{test="TCP_STREAM"}' 3 durations
expect_daemon 'warpspeed_daemon_test_duration_seconds_bucket{test="TCP_STREAM",le="0.5"}' 0 short
expect_daemon 'warpspeed_daemon_refusals_total{reason="protocol"}' 1 refusal_protocol
expect_daemon 'warpspeed_daemon_refusals_total{reason="auth"}' 0 refusal_auth
rx=$(value 'warpspeed_daemon_received_bytes_total{test="TCP_STREAM"}' "$WS_TMP/serve.txt")
[ "${rx:-0}" -gt 1000000 ] && pass metrics_daemon_bytes || fail metrics_daemon_bytes "received $rx"

scrape "http://127.0.0.1:$NMPORT/metrics" >"$WS_TMP/node.txt"
expect_node() {
	local got
	got=$(value "$1" "$WS_TMP/node.txt")
	[ "$got" = "$2" ] && pass "metrics_node_$3" || fail "metrics_node_$3" "$1 = '$got', want $2"
}
# One READ_IQ per request: the read window (docs/iq.md) asks for a read in requests of a
# quarter window each, starting small, so one read is a handful of commands.
got=$(value 'warpspeed_node_commands_total{command="read_iq"}' "$WS_TMP/node.txt")
[ "${got:-0}" -ge 1 ] && [ "$got" -le 100 ] && pass "metrics_node_read_iq ($got commands)" ||
	fail metrics_node_read_iq "warpspeed_node_commands_total{command=\"read_iq\"} = '$got', want 1..100"
expect_node 'warpspeed_node_samples_total{direction="read"}' 100000 samples
expect_node 'warpspeed_node_denied_packets_total' 0 denied
expect_node 'warpspeed_node_reply_rate_cap_bytes_per_second{scope="source"}' 125000000 cap

# OpenMetrics when asked, as Prometheus asks
scrape -D "$WS_TMP/om.head" -H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' \
	"http://127.0.0.1:$MPORT/metrics" >"$WS_TMP/serve.om"
grep -qi '^Content-Type: application/openmetrics-text; version=1.0.0' "$WS_TMP/om.head" &&
	[ "$(tail -n 1 "$WS_TMP/serve.om")" = "# EOF" ] &&
	grep -q '^warpspeed_daemon_tests_total{test="TCP_STREAM",outcome="ok"} 3$' "$WS_TMP/serve.om" &&
	grep -q '^# TYPE warpspeed_daemon_tests counter$' "$WS_TMP/serve.om" &&
	pass metrics_openmetrics_negotiated || fail metrics_openmetrics_negotiated "$(cat "$WS_TMP/om.head")"

# --- promtool on every Prometheus-text exposition ------------------------------------------
if [ -n "$PROMTOOL" ]; then
	for f in serve.txt node.txt result.prom; do
		out=$("$PROMTOOL" check metrics <"$WS_TMP/$f" 2>&1)
		[ $? -eq 0 ] && [ -s "$WS_TMP/$f" ] && pass "promtool_${f%.*}" || fail "promtool_${f%.*}" "$out"
	done
else
	skip promtool "promtool is not installed (Debian package prometheus)"
fi

# --- RRUL, RRUL_BE and RPM count under their own names -------------------------------------
# RRUL is one session of type RRUL; RPM's load flows and foreign probes are sessions of
# TCP_STREAM / TCP_MAERTS / TCP_CRR that say they belong to an RPM run (spec run_type), so
# they count as RPM, one test each, and leave TCP_STREAM's and TCP_CRR's counts alone.
"$W" -H 127.0.0.1 -p "$DAEMON_PORT" -t RRUL -l 1 >/dev/null 2>"$WS_TMP/rrul.err" || fail metrics_rrul_run "$(cat "$WS_TMP/rrul.err")"
"$W" -H 127.0.0.1 -p "$DAEMON_PORT" -t RRUL_BE -l 1 >/dev/null 2>"$WS_TMP/rrulbe.err" || fail metrics_rrul_be_run "$(cat "$WS_TMP/rrulbe.err")"
"$W" -H 127.0.0.1 -p "$DAEMON_PORT" -t RPM -l 2 --max-load-flows 1 --json-file "$WS_TMP/rpm.json" >/dev/null 2>"$WS_TMP/rpm.err" ||
	fail metrics_rpm_run "$(cat "$WS_TMP/rpm.err")"
sleep 0.2
scrape "http://127.0.0.1:$MPORT/metrics" >"$WS_TMP/serve.txt"
expect_daemon 'warpspeed_daemon_tests_total{test="RRUL",outcome="ok"}' 1 tests_rrul
expect_daemon 'warpspeed_daemon_tests_total{test="RRUL_BE",outcome="ok"}' 1 tests_rrul_be
expect_daemon 'warpspeed_daemon_tests_total{test="TCP_STREAM",outcome="ok"}' 3 tests_stream_not_rpm
crr=$(value 'warpspeed_daemon_tests_total{test="TCP_CRR",outcome="ok"}' "$WS_TMP/serve.txt")
[ "${crr:-0}" = 0 ] && pass metrics_daemon_tests_crr_not_rpm || fail metrics_daemon_tests_crr_not_rpm "TCP_CRR ok = $crr, want none"
rpm_want=$(python3 -c 'import json, sys; f = json.load(open(sys.argv[1]))["figures"]
print(f["flows_up"] + f["flows_down"] + f["idle_probes"] + f["foreign_total"])' "$WS_TMP/rpm.json")
rpm_got=$(value 'warpspeed_daemon_tests_total{test="RPM",outcome="ok"}' "$WS_TMP/serve.txt")
rpm_bad=$(value 'warpspeed_daemon_tests_total{test="RPM",outcome="failed"}' "$WS_TMP/serve.txt")
# a foreign probe still open when the run stops may end after the scrape or fail: the
# count is the flows and probes the client counted, give or take those
if [ -n "$rpm_got" ] && [ -n "$rpm_want" ] && [ "$rpm_got" -ge 4 ] &&
	[ $((rpm_got + ${rpm_bad:-0})) -ge "$rpm_want" ] && [ $((rpm_got + ${rpm_bad:-0})) -le $((rpm_want + 2)) ]; then
	pass "metrics_daemon_tests_rpm ($rpm_got ok, ${rpm_bad:-0} failed; the client counted $rpm_want)"
else
	fail metrics_daemon_tests_rpm "RPM ok '$rpm_got', failed '$rpm_bad'; the client counted $rpm_want flows and probes"
fi
if [ -n "$PROMTOOL" ]; then
	out=$("$PROMTOOL" check metrics <"$WS_TMP/serve.txt" 2>&1)
	[ $? -eq 0 ] && pass promtool_serve_rrul_rpm || fail promtool_serve_rrul_rpm "$out"
fi
grep -qE '^warpspeed_result_throughput_bytes_per_second\{test="TCP_STREAM",host="127.0.0.1",send_size="[0-9]+",recv_size="[0-9]+"\} [0-9.e+]+$' \
	"$WS_TMP/result.prom" && pass openmetrics_result_throughput ||
	fail openmetrics_result_throughput "$(cat "$WS_TMP/result.prom")"

# --- the endpoint's refusals ----------------------------------------------------------------
code() { curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$@"; }
[ "$(code -X POST "http://127.0.0.1:$MPORT/metrics")" = 405 ] && pass metrics_http_405 ||
	fail metrics_http_405 "POST was not 405"
[ "$(code "http://127.0.0.1:$MPORT/")" = 404 ] && pass metrics_http_404 || fail metrics_http_404 "/ was not 404"
junk=$(printf '\x16\x03\x01\x00\xa5junk\r\n\r\n' | timeout 3 python3 -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(sys.stdin.buffer.read()); s.settimeout(3)
print(s.recv(64).decode(errors="replace").splitlines()[0])' "$MPORT")
[ "$junk" = "HTTP/1.1 400 Bad Request" ] && pass metrics_http_400 || fail metrics_http_400 "got '$junk'"

# --- slowloris: a byte a second holds nothing and is closed at the limit --------------------
python3 - "$MPORT" >"$WS_TMP/slow.out" 2>&1 <<'EOF' &
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
t0 = time.time()
try:
    for b in b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 20:
        s.send(bytes([b]))
        time.sleep(1)
except OSError:
    pass
s.settimeout(10)
try:
    data = s.recv(100)
except OSError:
    data = b""
print("closed after %.1f s, got %r" % (time.time() - t0, data))
EOF
SLOW_PID=$!
WS_PIDS+=("$SLOW_PID")
sleep 1.5
t0=$(date +%s%N)
scrape "http://127.0.0.1:$MPORT/metrics" >"$WS_TMP/during.txt"
ms=$((($(date +%s%N) - t0) / 1000000))
grep -q '^warpspeed_daemon_sessions_active 0$' "$WS_TMP/during.txt" && [ "$ms" -lt 500 ] &&
	pass metrics_slowloris_scrape_served || fail metrics_slowloris_scrape_served "scrape took $ms ms"

# --- Prometheus' answer -------------------------------------------------------------------
if [ -n "$PROM_PID" ]; then
	q='warpspeed_daemon_tests_total{test="TCP_STREAM",outcome="ok"}'
	ans=
	for _ in $(seq 1 60); do
		ans=$(curl -s --max-time 2 -G "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode "query=$q" |
			python3 -c 'import json,sys
try:
    r = json.load(sys.stdin)["data"]["result"]
    print(r[0]["value"][1] if r else "")
except Exception:
    print("")')
		[ "$ans" = 3 ] && break
		sleep 0.25
	done
	[ "$ans" = 3 ] && pass prometheus_scrape_tests_total ||
		fail prometheus_scrape_tests_total "Prometheus answered '$ans': $(tail -n 5 "$WS_TMP/prometheus.log")"
	up=$(curl -s --max-time 2 -G "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode 'query=up{job="warpspeed_serve"}' |
		python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "")')
	[ "$up" = 1 ] && pass prometheus_target_up || fail prometheus_target_up "up = '$up'"
	kill "$PROM_PID"
	wait "$PROM_PID" 2>/dev/null
else
	skip prometheus_scrape "prometheus is not installed (Debian package prometheus)"
fi

wait "$SLOW_PID"
slow=$(cat "$WS_TMP/slow.out")
secs=$(sed -n 's/closed after \([0-9.]*\) s.*/\1/p' <<<"$slow")
[ -n "$secs" ] && in_range "$secs" 4.5 7 && [[ "$slow" == *"got b''"* ]] &&
	pass metrics_slowloris_closed || fail metrics_slowloris_closed "$slow"
finish
