# SPDX-License-Identifier: BSD-2-Clause
# RRUL on loopback against warpspeed serve (issue 30, item 1): the summary's series by their
# exact Flent names and its layout; the marks read back at both ends (-v 2: each flow's
# socket here and at the daemon, each UDP probe's mark as the daemon's echo saw it arrive);
# -D lines per series; --json against the schema with every sample; RRUL_BE's names and
# unmarked sockets; --up/--down counts and names; the ICMP probe (run, or skipped with its
# reason printed once); a daemon that dies mid-run (the reason and what was measured);
# refusal against a stock netserver and with --peer netserver; bad values refused before
# any work (exit 2); -o/-k with RRUL's own output names (-o ? lists them, -k all agrees
# with the JSON's figures, an unknown name is refused before the run). Runs are 1-2 s, side by side. netserver is stopped by PID.
source "$(dirname "$0")/../lib.sh"
SCHEMA="$(dirname "$0")/../../docs/schema/result.schema.json"
CHECK="$(dirname "$0")/json_check.py"

start_daemon -L 127.0.0.1 || { fail rrul_daemon "did not start"; finish; }
ws() { timeout 30 "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" "$@"; }

bg_run summary ws -t RRUL -l 2 -v 2
bg_run interim ws -t RRUL -l 1 -D 0.5
bg_run json ws -t RRUL -l 1 --json
bg_run be ws -t RRUL_BE -l 1 --json
bg_run nup ws -t RRUL -l 1 --up 3 --down 0 --probes udp
bg_run bidir ws -t RRUL -l 1 --up 1 --down 1 --probes tcp,icmp
bg_run delay ws -t RRUL_BE -l 1 --delay 1 --up 1 --down 0 --probes udp --json
bg_run b2b ws -t RRUL -l 2 --up 1 --down 1 --probes udp,tcp --probe-interval 0 --json
bg_run files ws -t RRUL -l 1 --delay 1 --flent "$WS_TMP/run.flent.gz" --svg "$WS_TMP/run.svg"
bg_run outk ws -t RRUL -l 1 --delay 1 --json-file "$WS_TMP/outk.json" -- -k all
bg_run outo ws -t RRUL_BE -l 1 --up 1 --down 1 --probes udp -- -o RRUL_UPLOAD_SUM,RRUL_PING_UDP_BE1_AVG,RRUL_PING_UDP_BE_AVG,RRUL_LOST_PROBES
bg_wait

# --- the summary: every series, exact names, in Flent's sorted order and layout ---------
out=$WS_TMP/summary.out
want_names='Ping (ms) TCP BE
Ping (ms) UDP BE
Ping (ms) UDP BK
Ping (ms) UDP EF
Ping (ms) avg
TCP download BE
TCP download BK
TCP download CS5
TCP download EF
TCP download avg
TCP download sum
TCP totals
TCP upload BE
TCP upload BK
TCP upload CS5
TCP upload EF
TCP upload avg
TCP upload sum'
names=$(sed -n 's/^ \(.*[^ ]\) *: .*/\1/p' "$out")
if [ "$(cat "$WS_TMP/summary.rc")" = 0 ] && [ "$names" = "$want_names" ]; then
	pass rrul_summary_names
else
	fail rrul_summary_names "rc $(cat "$WS_TMP/summary.rc"), rows: $(echo "$names" | tr '\n' '|') $(cat "$WS_TMP/summary.err")"
fi
# Flent's header: 19 spaces (name width 16 + 3), then four right-aligned columns
hdr='                             avg       median       99th %          # data pts'
if grep -qx "Summary of rrul test run from [0-9-]* [0-9:.]*" "$out" && grep -qxF "$hdr" "$out" &&
	grep -Eq '^ TCP upload sum   : +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} Mbits/s +10$' "$out" &&
	grep -Eq '^ Ping \(ms\) UDP EF : +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} ms +10$' "$out"; then
	pass rrul_summary_layout
else
	fail rrul_summary_layout "$(head -8 "$out")"
fi

# --- the marks: asked, kept here, kept at the daemon (flows), seen by the echo (UDP) -----
for row in "TCP upload BE:00" "TCP upload BK:20" "TCP upload CS5:a0" "TCP upload EF:b8" \
	"TCP download BE:00" "TCP download BK:20" "TCP download CS5:a0" "TCP download EF:b8" \
	"Ping (ms) UDP BE:00" "Ping (ms) UDP BK:20" "Ping (ms) UDP EF:b8" "Ping (ms) TCP BE:00"; do
	m=${row##*:}
	printf '%-22s IP_TOS 0x%s: here 0x%s, at the daemon 0x%s\n' "${row%:*}" "$m" "$m" "$m"
done >"$WS_TMP/marks.want"
missing=$(grep -vxF -f "$out" "$WS_TMP/marks.want")
[ -z "$missing" ] && pass rrul_marks || fail rrul_marks "not printed: $missing"

# --- -D: a line per flow per step, and the probes' samples as they come ----------------
out=$WS_TMP/interim.out
if [ "$(grep -c '^Interim result: TCP upload EF [0-9.]* Mbit/s at ' "$out")" = 2 ] &&
	grep -q '^Interim result: TCP download CS5 [0-9.]* Mbit/s at 1\.000 s$' "$out" &&
	grep -q '^Interim result: TCP upload BK [0-9.]* Mbit/s at 0\.500 s$' "$out" &&
	[ "$(grep -c '^Interim result: Ping (ms) UDP BK [0-9.]* ms at ' "$out")" = 5 ] &&
	grep -q '^Interim result: Ping (ms) TCP BE [0-9.]* ms at 0\.800 s$' "$out"; then
	pass rrul_interim
else
	fail rrul_interim "$(head -12 "$out")"
fi

# --- JSON: the schema, and every sample of every series -------------------------------
if python3 "$CHECK" have-jsonschema; then
	r=$(printf '%s\n' "rrul_json_schema doc $WS_TMP/json.out RRUL" \
		"rrul_b2b_json_schema doc $WS_TMP/b2b.out RRUL" \
		"rrul_be_json_schema doc $WS_TMP/be.out RRUL_BE" | python3 "$CHECK" batch "$SCHEMA")
	while read -r name verdict; do
		[ "$verdict" = ok ] && pass "$name" || fail "$name" "$verdict"
	done <<<"$r"
else
	skip rrul_json_schema "python3-jsonschema is not installed"
fi
r=$(python3 - "$WS_TMP/json.out" "$WS_TMP/be.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["rrul"]
names = [s["name"] for s in d["series"]]
assert names == ["TCP upload BE", "TCP upload BK", "TCP upload CS5", "TCP upload EF",
                 "TCP download BE", "TCP download BK", "TCP download CS5", "TCP download EF",
                 "Ping (ms) UDP BE", "Ping (ms) UDP BK", "Ping (ms) UDP EF", "Ping (ms) TCP BE"], names
for s in d["series"]:
    assert len(s["t"]) == len(s["v"]), s["name"]
    want = 5 if s["kind"] != "probe" else 5   # 1 s: 5 steps of 0.2 s, 5 probe rounds
    assert len(s["t"]) == want, (s["name"], len(s["t"]))
    assert s["samples"] + s["lost"] == len(s["v"]), s["name"]
    if s["kind"] == "probe":
        assert s["t"] == [round(0.2 * k, 10) for k in range(5)] or all(abs(a - 0.2 * k) < 1e-9 for k, a in enumerate(s["t"])), s["t"]
    else:
        assert sum(s["v"]) > 0, (s["name"], s["v"])  # a step may starve on a busy host
    assert s["tos_local"] == s["tos"] and s["tos_remote"] == s["tos"], s
agg = {a["name"]: a for a in d["aggregates"]}
assert sorted(agg) == ["Ping (ms) avg", "TCP download avg", "TCP download sum", "TCP totals", "TCP upload avg", "TCP upload sum"], sorted(agg)
up = [s for s in d["series"] if s["kind"] == "up"]
for k in range(5):
    assert abs(agg["TCP upload sum"]["v"][k] - sum(s["v"][k] for s in up)) < 1e-6
b = json.load(open(sys.argv[2]))["rrul"]
bn = [s["name"] for s in b["series"]]
assert bn == ["TCP upload BE", "TCP upload BE2", "TCP upload BE3", "TCP upload BE4",
              "TCP download BE", "TCP download BE2", "TCP download BE3", "TCP download BE4",
              "Ping (ms) UDP BE1", "Ping (ms) UDP BE2", "Ping (ms) UDP BE3", "Ping (ms) TCP BE"], bn
assert all(s["tos"] == 0 and s["tos_local"] == 0 and s["tos_remote"] == 0 for s in b["series"]), b["series"]
print("ok")
PY
)
[ "$r" = ok ] && pass rrul_json_samples || fail rrul_json_samples "$r"

# --- --probe-interval 0: back to back, each sample the mean of many transactions, a thread
# per probe at the client and an echo socket per UDP probe at the daemon -----------------
r=$(python3 - "$WS_TMP/b2b.out" "$WS_TMP/json.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["rrul"]
assert d["probe_mode"] == "back-to-back" and d["probe_interval_s"] == 0, (d["probe_mode"], d["probe_interval_s"])
probes = [s for s in d["series"] if s["kind"] == "probe"]
assert [s["name"] for s in probes] == ["Ping (ms) UDP BE", "Ping (ms) UDP BK", "Ping (ms) UDP EF", "Ping (ms) TCP BE"]
for s in probes:  # 2 s: 10 steps of 0.2 s, none lost on loopback; a step in which a loaded
    # host completed no transaction of a probe has no sample (as netperf's -D), so 9 or 10
    assert len(s["v"]) in (9, 10) and s["lost"] == 0, (s["name"], len(s["v"]), s["lost"])
    steps = [round(a / 0.2) for a in s["t"]]
    assert all(abs(a - 0.2 * k) < 1e-9 for k, a in zip(steps, s["t"])), s["t"]
    assert steps == sorted(set(steps)) and 0 <= steps[0] and steps[-1] <= 9, s["t"]
    assert all(0 < v < 100 for v in s["v"]), s["v"]
n = sum(len(s["v"]) for s in probes)
# back to back on loopback: thousands of transactions a second; paced: one a sample
assert d["probe_transactions"] >= 20 * n, (d["probe_transactions"], n)
# back to back, no probe waits for another's transaction: a client thread per probe, and
# a daemon echo socket (with its own thread) per UDP probe
assert d["probe_threads"] == 4 and d["echo_sockets"] == 3, (d["probe_threads"], d["echo_sockets"])
p = json.load(open(sys.argv[2]))["rrul"]
assert p["probe_mode"] == "paced" and p["probe_interval_s"] == 0.2, p["probe_mode"]
assert p["probe_threads"] == 1 and p["echo_sockets"] == 3, (p["probe_threads"], p["echo_sockets"])
# a load thread per flow at each end, as netperf has a process per flow: 4 up + 4 down
doc = json.load(open(sys.argv[2]))
assert len(doc["local"]["threads"]) == 8 and len(doc["remote"]["threads"]) == 8, (len(doc["local"]["threads"]), len(doc["remote"]["threads"]))
assert p["probe_transactions"] == sum(s["samples"] for s in p["series"] if s["kind"] == "probe"), p["probe_transactions"]
print("ok")
PY
)
[ "$(cat "$WS_TMP/b2b.rc")" = 0 ] && [ "$r" = ok ] && pass rrul_back_to_back ||
	fail rrul_back_to_back "rc $(cat "$WS_TMP/b2b.rc"): $(tail -n 1 <<<"$r") $(head -c 300 "$WS_TMP/b2b.err")"

# --- --delay 1: the probes alone 1 s before and 1 s after the flows ----------------------
r=$(python3 - "$WS_TMP/delay.out" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["rrul"]
up = d["series"][0]
assert up["name"] == "TCP upload::1" and up["t"] == [1.2, 1.4, 1.6, 1.8, 2.0], up["t"]
p = d["series"][1]
assert p["name"] == "Ping (ms) UDP BE1" and len(p["t"]) == 15 and p["t"][-1] == 2.8, \
    "probe times %s, stopped %s, lost %s" % (p["t"], d.get("stopped"), p.get("lost"))
print("ok")
PY
)
[ "$r" = ok ] && pass rrul_delay ||
	fail rrul_delay "exit $(cat "$WS_TMP/delay.rc"): $(tail -n 1 <<<"$r") $(head -c 300 "$WS_TMP/delay.err")"

# --- --flent: the real Flent reads the file back and prints what warpspeed printed -------
r=$(python3 - "$WS_TMP/run.flent.gz" <<'PY' 2>&1
import gzip, json, sys
m = json.load(gzip.open(sys.argv[1]))["metadata"]
assert (m["NAME"], m["LENGTH"], m["TOTAL_LENGTH"], m["STEP_SIZE"]) == ("rrul", 1, 3, 0.2), m
print("ok")
PY
)
[ "$(cat "$WS_TMP/files.rc")" = 0 ] && [ "$r" = ok ] && pass rrul_flent_metadata ||
	fail rrul_flent_metadata "rc $(cat "$WS_TMP/files.rc"): $r $(cat "$WS_TMP/files.err")"
if command -v flent >/dev/null; then
	# The measured series' rows, every figure; Flent leaves its computed rows' median and
	# 99th percentile as N/A, which warpspeed prints, so those rows are compared by mean.
	rows() { grep -E '^ (Ping|TCP) ' "$1" | sed -E '/(avg|sum|totals) +:/s/^( [^:]*: +[0-9.]+).*/\1/'; }
	flent -i "$WS_TMP/run.flent.gz" -f summary >"$WS_TMP/flent.sum" 2>"$WS_TMP/flent.err"
	if [ "$(rows "$WS_TMP/files.out" | wc -l)" = 18 ] &&
		[ "$(rows "$WS_TMP/files.out")" = "$(rows "$WS_TMP/flent.sum")" ]; then
		pass rrul_flent_summary_same
	else
		fail rrul_flent_summary_same "$(diff <(rows "$WS_TMP/files.out") <(rows "$WS_TMP/flent.sum") | head -6) $(tail -2 "$WS_TMP/flent.err")"
	fi
else
	skip rrul_flent_summary_same "flent is not installed (Debian package flent)"
fi
r=$(python3 - "$WS_TMP/run.svg" <<'PY' 2>&1
import sys, xml.etree.ElementTree as ET
svg = open(sys.argv[1]).read()
ET.fromstring(svg)
for name in ("TCP upload EF", "TCP download BK", "Ping (ms) UDP EF", "Ping (ms) TCP BE"):
    assert name in svg, name
print("ok")
PY
)
[ "$r" = ok ] && pass rrul_svg_all_chart || fail rrul_svg_all_chart "$r"

# --- --up/--down: Flent's tcp_nup and tcp_bidirectional names; the ICMP probe ----------
names=$(sed -n 's/^ \(.*[^ ]\) *: .*/\1/p' "$WS_TMP/nup.out" | tr '\n' '|')
# sorted byte by byte, as Flent sorts them: " avg" comes before "::1"
if [ "$names" = "Ping (ms) UDP BE|Ping (ms) UDP BK|Ping (ms) UDP EF|Ping (ms) avg|TCP totals|TCP upload avg|TCP upload sum|TCP upload::1|TCP upload::2|TCP upload::3|" ] &&
	grep -q "Summary of tcp_nup test run" "$WS_TMP/nup.out"; then
	pass rrul_up_down_counts
else
	fail rrul_up_down_counts "$names $(cat "$WS_TMP/nup.err")"
fi
names=$(sed -n 's/^ \(.*[^ ]\) *: .*/\1/p' "$WS_TMP/bidir.out" | tr '\n' '|')
read -r lo hi </proc/sys/net/ipv4/ping_group_range
if awk -v g="$(id -g)" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(g >= lo && g <= hi) }'; then
	want="Ping (ms) ICMP|Ping (ms) TCP BE|Ping (ms) avg|TCP download|TCP download avg|TCP download sum|TCP totals|TCP upload|TCP upload avg|TCP upload sum|"
	[ "$names" = "$want" ] && pass rrul_icmp || fail rrul_icmp "$names"
else
	want="Ping (ms) TCP BE|Ping (ms) avg|TCP download|TCP download avg|TCP download sum|TCP totals|TCP upload|TCP upload avg|TCP upload sum|"
	n=$(grep -c "^warpspeed: note: Ping (ms) ICMP skipped: unprivileged ICMP sockets are off for this process's groups" "$WS_TMP/bidir.err")
	if [ "$names" = "$want" ] && [ "$n" = 1 ] && ! grep -q ICMP "$WS_TMP/bidir.out"; then
		pass rrul_icmp_skipped
	else
		fail rrul_icmp_skipped "$names; $n notes: $(cat "$WS_TMP/bidir.err")"
	fi
fi
grep -q "Summary of tcp_bidirectional test run" "$WS_TMP/bidir.out" &&
	pass rrul_bidirectional_title || fail rrul_bidirectional_title "$(head -3 "$WS_TMP/bidir.out")"

# --- a daemon that dies mid-run: the reason, and what was measured until then ----------
P1=$DAEMON_PORT
start_daemon -L 127.0.0.1 || fail rrul_daemon2 "did not start"
D2=$DAEMON_PID P2=$DAEMON_PORT DAEMON_PORT=$P1
timeout 30 "$WS_BIN" -H 127.0.0.1 -p "$P2" -t RRUL -l 3 >"$WS_TMP/dies.out" 2>"$WS_TMP/dies.err" &
C=$!
WS_PIDS+=("$C")
sleep 1.2
{ kill -9 "$D2" && wait "$D2"; } 2>/dev/null
wait "$C"
rc=$?
pts=$(sed -n 's/^ TCP upload EF *: .* \([0-9]*\)$/\1/p' "$WS_TMP/dies.out")
if [ "$rc" = 1 ] && grep -q "The run stopped early: " "$WS_TMP/dies.out" &&
	[ -n "$pts" ] && [ "$pts" -ge 4 ] && [ "$pts" -le 8 ] && grep -q "^warpspeed: " "$WS_TMP/dies.err"; then
	pass rrul_daemon_dies
else
	fail rrul_daemon_dies "rc $rc, $pts points: $(tail -2 "$WS_TMP/dies.out") $(cat "$WS_TMP/dies.err")"
fi

# --- bad values: refused before any work, exit 2, naming the value ---------------------
bad() { # NAME EXPECTED-TEXT ARGS...
	local name=$1 text=$2
	shift 2
	local t0=$SECONDS
	"$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" "$@" >"$WS_TMP/bad.out" 2>"$WS_TMP/bad.err"
	local rc=$?
	if [ "$rc" = 2 ] && grep -qF -- "$text" "$WS_TMP/bad.err" && [ ! -s "$WS_TMP/bad.out" ] &&
		[ $((SECONDS - t0)) -le 1 ]; then
		pass "rrul_bad_$name"
	else
		fail "rrul_bad_$name" "rc $rc: $(cat "$WS_TMP/bad.err")"
	fi
}
bad up_big "option --up: " -t RRUL --up 65
bad up_word "option --up: " -t RRUL --up x
bad no_flows "--up 0 --down 0 leaves no load" -t RRUL --up 0 --down 0
bad probes "'ping' in 'udp,ping' is not a probe; expected a list of udp, tcp and icmp" -t RRUL --probes udp,ping
bad interval_small "'0.0001' is not a probe interval; expected 0 (back to back) or 0.001 to 10 seconds" -t RRUL --probe-interval 0.0001
bad interval_big "'11' is not a probe interval" -t RRUL --probe-interval 11
bad not_rrul "option --up belongs to -t RRUL and -t RRUL_BE; the test is TCP_STREAM" -t TCP_STREAM --up 1
bad iterations "-t RRUL does not take -i/-I (iterations)" -t RRUL -i 3
bad streams "-t RRUL_BE does not take --streams" -t RRUL_BE --streams 2
bad peer "-t RRUL with --peer netserver: RRUL needs a warpspeed daemon" -t RRUL --peer netserver
bad delay "option --delay: " -t RRUL --delay 61
bad flent_other_test "option --flent belongs to -t RRUL, -t RRUL_BE and -t RPM; the test is TCP_RR" -t TCP_RR --flent "$WS_TMP/x.flent.gz"
bad flent_dir "--flent $WS_TMP: '$WS_TMP' is a directory" -t RRUL --flent "$WS_TMP"
bad svg_chart "--svg-chart spectrum is not for it" -t RRUL --svg "$WS_TMP/x.svg" --svg-chart spectrum
bad output "'FOO' is not an output of -t RRUL and RRUL_BE; expected all, ? (the list) or RRUL_UPLOAD_SUM, RRUL_UPLOAD_SUM_MEDIAN, RRUL_DOWNLOAD_SUM," -t RRUL -l 1 -- -k RRUL_UPLOAD_SUM,FOO

# --- -o/-k: RRUL's own output names (report/lul_outputs.c), the same figures as the JSON --
"$WS_BIN" -t RRUL -- -o '?' >"$WS_TMP/names.out" 2>"$WS_TMP/names.err"
rc=$?
if [ "$rc" = 1 ] && [ "$(wc -l <"$WS_TMP/names.out")" = 43 ] &&
	[ "$(head -1 "$WS_TMP/names.out")" = RRUL_UPLOAD_SUM ] && grep -qx RRUL_PING_UDP_BE1_P99 "$WS_TMP/names.out" &&
	[ "$(tail -1 "$WS_TMP/names.out")" = RRUL_STOPPED ]; then
	pass rrul_output_names
else
	fail rrul_output_names "rc $rc: $(head -3 "$WS_TMP/names.out") $(cat "$WS_TMP/names.err")"
fi
if [ "$(cat "$WS_TMP/outk.rc")" != 0 ]; then
	fail rrul_k_all "exit $(cat "$WS_TMP/outk.rc"): $(cat "$WS_TMP/outk.err")"
elif ! diff <(cut -d= -f1 "$WS_TMP/outk.out") "$WS_TMP/names.out" >"$WS_TMP/outk.diff"; then
	fail rrul_k_all "-k all does not print every name in order: $(cat "$WS_TMP/outk.diff")"
elif msg=$(python3 - "$WS_TMP/outk.out" "$WS_TMP/outk.json" <<'PY'
import json, math, sys
k = dict(l.rstrip("\n").split("=", 1) for l in open(sys.argv[1]))
r = json.load(open(sys.argv[2]))["rrul"]
ser = {s["name"]: s for s in r["series"] + r["aggregates"]}
def f3(v):
    return "" if v is None else "%.3f" % v
want = {
    "RRUL_UPLOAD_SUM": f3(ser["TCP upload sum"]["mean"]),
    "RRUL_DOWNLOAD_SUM_MEDIAN": f3(ser["TCP download sum"]["median"]),
    "RRUL_TOTALS": f3(ser["TCP totals"]["mean"]),
    "RRUL_PING_P99": f3(ser["Ping (ms) avg"]["p99"]),
    "RRUL_PING_UDP_EF_MEDIAN": f3(ser["Ping (ms) UDP EF"]["median"]),
    "RRUL_PING_TCP_BE_AVG": f3(ser["Ping (ms) TCP BE"]["mean"]),
    "RRUL_PING_UDP_BK_LOST": str(ser["Ping (ms) UDP BK"]["lost"]),
    "RRUL_LOST_PROBES": str(sum(s["lost"] for s in r["series"] if s["kind"] == "probe")),
    "RRUL_PING_UDP_BE1_AVG": "", "RRUL_PING_ICMP_LOST": "", "RRUL_STOPPED": "",
}
idle = [v for s in r["series"] if s["kind"] == "probe"
        for t, v in zip(s["t"], s["v"]) if t < 1 and v is not None]
want["RRUL_IDLE_LATENCY"] = f3(sum(idle) / len(idle)) if idle else ""
bad = ["%s=%s, expected %s" % (n, k.get(n), v) for n, v in want.items() if k.get(n) != v]
if not idle or float(k["RRUL_UPLOAD_SUM"]) <= 0:
    bad.append("no idle probes or no upload: " + repr(k))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
); then
	pass rrul_k_all
else
	fail rrul_k_all "$msg"
fi
if [ "$(cat "$WS_TMP/outo.rc")" = 0 ] &&
	[ "$(head -1 "$WS_TMP/outo.out")" = RRUL_UPLOAD_SUM,RRUL_PING_UDP_BE1_AVG,RRUL_PING_UDP_BE_AVG,RRUL_LOST_PROBES ] &&
	[ "$(wc -l <"$WS_TMP/outo.out")" = 2 ] &&
	tail -1 "$WS_TMP/outo.out" | grep -qE '^[0-9]+\.[0-9]{3},[0-9]+\.[0-9]{3},,[0-9]+$'; then
	pass rrul_o_csv
else
	fail rrul_o_csv "exit $(cat "$WS_TMP/outo.rc"): $(cat "$WS_TMP/outo.out" "$WS_TMP/outo.err")"
fi

# --- a stock netserver: refused at once, naming warpspeed serve -----------------------
NETSERVER=$(command -v netserver || { [ -x /usr/sbin/netserver ] && echo /usr/sbin/netserver; })
if [ -z "$NETSERVER" ]; then
	skip rrul_netserver "netserver (netperf 2.7) is not installed"
else
	NP=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$NETSERVER" -D -p "$NP" -L 127.0.0.1 >"$WS_TMP/netserver.log" 2>&1 &
	NSPID=$!
	WS_PIDS+=("$NSPID")
	for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$NP") 2>/dev/null && break; sleep 0.05; done
	t0=$(date +%s%N)
	"$WS_BIN" -H 127.0.0.1 -p "$NP" -t RRUL -l 2 >"$WS_TMP/ns.out" 2>"$WS_TMP/ns.err"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	if [ "$rc" = 2 ] && grep -q "is a netserver; -t RRUL needs a warpspeed daemon (start \`warpspeed serve\` there)" "$WS_TMP/ns.err" &&
		[ ! -s "$WS_TMP/ns.out" ] && [ "$ms" -lt 1500 ]; then
		pass rrul_netserver_refused
	else
		fail rrul_netserver_refused "rc $rc in $ms ms: $(cat "$WS_TMP/ns.err")"
	fi
	kill "$NSPID"
fi
finish
