# SPDX-License-Identifier: BSD-2-Clause
# --json and --json-lines against a real `warpspeed serve` on loopback, validated against
# docs/schema/result.schema.json with python3-jsonschema (skipped, with the reason, when it
# is not installed): one strict JSON document and nothing else on stdout per test type the
# daemon serves (TCP_STREAM, UDP_STREAM, TCP_RR, UDP_RR, TCP_CRR, and --streams 4), the
# --json-lines summary, the built documents of tests/tools/ws_json_sample (a latency
# histogram with overflow, streams and threads, confidence, interim samples, NaN figures),
# and the negative check: copies with a member removed, mistyped or added must fail.
source "$(dirname "$0")/../lib.sh"
: "${WS_ROOT:?WS_ROOT must point at the source tree}"
SCHEMA=$WS_ROOT/docs/schema/result.schema.json
CHECK="python3 $WS_ROOT/tests/integration/json_check.py"
SAMPLE=$WS_BUILD/tools/ws_json_sample

if ! command -v python3 >/dev/null || ! $CHECK have-jsonschema; then
	skip json "python3 with the jsonschema module (Debian python3-jsonschema) is not installed"
	finish
fi
start_daemon || { fail daemon_start "could not start warpspeed serve"; finish; }
P=$DAEMON_PORT

# The runs are timed (-l 1) and go side by side (bg_run): start NAME TEST ARGS... starts one,
# run NAME TEST ARGS... (the same arguments, after bg_wait) checks it.
RUNS=()
start() {
	local name=$1 t=$2
	shift 2
	ws_served json "$t" || return 0
	bg_run "$name" "$WS_BIN" -H 127.0.0.1 -p "$P" -t "$t" -l 1 "$@"
}
# run NAME TEST ARGS...: one --json run; stdout must be the document alone.
run() {
	local name=$1 t=$2 out=$WS_TMP/$1.json err=$WS_TMP/$1.err msg
	shift 2
	[ -f "$WS_TMP/$name.rc" ] || return 0 # not served: ws_served said SKIP
	mv "$WS_TMP/$name.out" "$out"
	local rc
	rc=$(cat "$WS_TMP/$name.rc")
	if [ "$rc" -ne 0 ] && grep -qE "not built|not supported" "$err"; then
		skip "$name" "not served yet: $(cat "$err")" # e.g. the multi-flow RR engine
		return
	elif [ "$rc" -ne 0 ]; then
		fail "$name" "exit $rc: $(cat "$err")"
		return
	fi
	local streams=0
	[[ " $* " == *" --streams 4 "* ]] && streams=4
	local mode=doc
	[[ " $* " == *" --json-lines "* ]] && mode=lines
	batch "$name" "$mode" "$out" "$t" "$streams"
}
# The schema checks go to one python3 (json_check.py batch): batch NAME MODE FILE [TEST]
# [STREAMS] queues one, batch_results runs them and says PASS or FAIL for each in turn.
BATCH=()
batch() { BATCH+=("$*"); }
batch_results() {
	local line name got
	printf '%s\n' "${BATCH[@]}" | $CHECK batch "$SCHEMA" >"$WS_TMP/batch.res" 2>&1
	for line in "${BATCH[@]}"; do
		name=${line%% *}
		got=$(grep -m 1 "^$name " "$WS_TMP/batch.res")
		got=${got#"$name "}
		if [ "$got" = ok ]; then pass "$name"; else fail "$name" "${got:-no answer: $(cat "$WS_TMP/batch.res")}"; fi
	done
	BATCH=()
}

while read -r -a r; do RUNS+=("${r[*]}"); done <<'EOF'
json_tcp_stream TCP_STREAM -c -C --json
json_udp_stream UDP_STREAM -c -C --json
json_tcp_rr TCP_RR -c -C --json
json_udp_rr UDP_RR --json
json_tcp_crr TCP_CRR --json
json_tcp_maerts TCP_MAERTS --json
json_streams4 TCP_STREAM --streams 4 --threads 2 --json
json_rr_streams4 TCP_RR --streams 4 --json
json_lines TCP_STREAM --json-lines
json_lines_rr TCP_RR --json-lines
json_lines_demo TCP_STREAM --json-lines -D 0.3
json_sockopts TCP_STREAM -Y 0x10 -S --json
EOF
WS_JOBS=3
for r in "${RUNS[@]}"; do start $r; done
bg_run d "$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 -D 0.3 --json
bg_wait
for r in "${RUNS[@]}"; do [ "${r%% *}" = json_sockopts ] || run $r; done

# -D: the interim samples go into the document (nothing else on stdout, no -D note on stderr),
# and --json-lines prints them as intervals before the summary (json_lines_demo above).
mv "$WS_TMP/d.out" "$WS_TMP/d.json"
if [ "$(cat "$WS_TMP/d.rc")" = 0 ] &&
	! grep -qiE 'interim|not implemented' "$WS_TMP/d.err" && msg=$($CHECK doc "$SCHEMA" "$WS_TMP/d.json" TCP_STREAM) &&
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not (len(d["interim"]) >= 2 and d["interim"][-1]["final"]))' "$WS_TMP/d.json"; then
	pass json_stderr_only
else
	fail json_stderr_only "${msg:-exit or stderr: $(cat "$WS_TMP/d.err")}"
fi

# --json with an output selector is refused before the test runs.
if "$WS_BIN" -H 127.0.0.1 -p "$P" -l 1 --json -- -k THROUGHPUT >"$WS_TMP/k.out" 2>"$WS_TMP/k.err"; then
	fail json_with_selector "accepted: $(cat "$WS_TMP/k.out")"
elif [ -s "$WS_TMP/k.out" ] || ! grep -q -- "--json and the output selectors" "$WS_TMP/k.err"; then
	fail json_with_selector "stdout [$(cat "$WS_TMP/k.out")] stderr [$(cat "$WS_TMP/k.err")]"
else
	pass json_with_selector
fi

# Built documents: every optional part filled in.
for m in rr stream lines; do
	f=$WS_TMP/sample_$m.json
	if ! "$SAMPLE" "$m" >"$f"; then
		fail "json_sample_$m" "ws_json_sample $m exited $?"
		continue
	fi
	mode=doc
	[ "$m" = lines ] && mode=lines
	t=""
	[ "$m" = stream ] && t=UDP_STREAM
	batch "json_sample_$m" "$mode" "$f" "${t:--}"
done

# The harness options as read back: -Y 0x10 and -S show in the client's socket_options,
# and the DUMP_TCP_INFO fields in its tcp_info; the remote side has null for both.
run json_sockopts TCP_STREAM -Y 0x10 -S --json # its run above
if [ -s "$WS_TMP/json_sockopts.json" ]; then
	if msg=$(python3 - "$WS_TMP/json_sockopts.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
o, r = d["local"]["socket_options"], d["remote"]
assert o["ip_tos"] == 16 and o["so_keepalive"] is True and o["tcp_cork"] is False, o
assert o["so_priority"] is None and o["tcp_congestion"], o
assert d["local"]["tcp_info"]["rto_us"] > 0, d["local"]["tcp_info"]
assert r["socket_options"] is None and r["tcp_info"]["rto_us"] is None, r
PY
	2>&1); then pass json_sockopts_values; else fail json_sockopts_values "$msg"; fi
fi

# The schema is strict: a member removed, mistyped or unknown fails; so do NaN and a
# second document. On a real run's document and on the fullest built one.
for f in "$WS_TMP/json_tcp_stream.json" "$WS_TMP/sample_rr.json"; do
	[ -s "$f" ] || continue
	batch "json_negative_$(basename "$f" .json)" negative "$f"
done
batch_results
finish
