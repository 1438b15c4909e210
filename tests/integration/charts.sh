#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# charts: every chart kind drawn from real runs on loopback and from the sweep and mesh
# fixtures (tests/integration/charts/), each checked as XML with python3 (charts_check.py:
# title, desc, legend, axis labels, no scripts or external references): the RR latency
# spectrum (--svg on the run, and plot of its --json byte for byte the same) and
# histogram, -D over time, --streams bars, iq bench --svg against `warpspeed node` with
# WARPLab's series, an overlay of two files, the sweep and the mesh; and the refusals:
# --svg on a run with nothing to chart and a histogram of a stream test (exit 2, before
# the test), --reference without --svg, a broken JSON file (exit 1, its line and
# column), plot without -o (exit 2).
source "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/iq_lib.sh
. "$(dirname "$0")/../iq_lib.sh"
: "${WS_ROOT:?WS_ROOT must point at the source tree}"
T=$WS_TMP
FIX=$WS_ROOT/tests/integration/charts
if ! command -v python3 >/dev/null; then
	skip charts "python3 is not installed (the charts are checked with its xml.etree)"
	finish
fi
check() { # NAME FILE TEXT...: checked at the end, all in one python3 (charts_check.py)
	if [ ! -s "$2" ]; then
		fail "$1" "no chart written at $2"
	else
		(IFS=$'\t'; echo "$*") >>"$T/manifest"
	fi
}
start_daemon || { fail charts_daemon "could not start warpspeed serve"; finish; }
C=(-H 127.0.0.1 -p "$DAEMON_PORT" -l 1)

# RR: --svg draws the spectrum while --json goes to stdout; plot of the JSON is the same file.
if "$WS_BIN" "${C[@]}" -t TCP_RR --json --svg "$T/rr.svg" >"$T/rr.json" 2>"$T/rr.err"; then
	check charts_rr_spectrum "$T/rr.svg" "Latency by percentile" "Round-trip latency (us)" \
		"99.999%" "99.9%" "TCP_RR"
	"$WS_BIN" plot "$T/rr.json" --label TCP_RR -o "$T/rr_plot.svg" 2>"$T/plot.err" &&
		cmp -s "$T/rr.svg" "$T/rr_plot.svg" && pass charts_plot_same_as_svg ||
		fail charts_plot_same_as_svg "plot of the run's JSON differs from its --svg: $(cat "$T/plot.err")"
	"$WS_BIN" plot "$T/rr.json" --chart histogram -o "$T/hist.svg" 2>"$T/hist.err"
	check charts_rr_histogram "$T/hist.svg" "Latency histogram" "Round trips (% of samples)" \
		"Round-trip latency (us)"
else
	fail charts_rr "exit $?: $(cat "$T/rr.err")"
fi

# -D: throughput over time; --streams: bars with the fairness index.
"$WS_BIN" "${C[@]}" -D 0.25 --json --svg "$T/demo.svg" >"$T/demo.json" 2>"$T/demo.err"
check charts_interim "$T/demo.svg" "Throughput over time" "Time since the start (s)"
# --json-lines output: plot takes its last line, the summary (here built from the document).
{ echo '{"type":"interval","schema_version":1}'; tr -d '\n' <"$T/demo.json" | sed 's/"type": "result"/"type": "summary"/'; echo; } >"$T/lines.json"
"$WS_BIN" plot "$T/lines.json" --label demo -o "$T/lines.svg" 2>"$T/lines.err"
"$WS_BIN" plot "$T/demo.json" --label demo -o "$T/demo_plot.svg" 2>>"$T/lines.err"
cmp -s "$T/lines.svg" "$T/demo_plot.svg" && pass charts_plot_json_lines ||
	fail charts_plot_json_lines "the summary line of --json-lines draws another chart: $(cat "$T/lines.err")"
"$WS_BIN" "${C[@]}" --streams 3 --svg "$T/streams.svg" >"$T/streams.out" 2>"$T/streams.err"
check charts_streams "$T/streams.svg" "Throughput per stream" "Stream (flow index; x = failed)" 0 1 2
grep -q "Jain&apos;s fairness index (1 = equal shares): [01]\.[0-9]\{4\}<" "$T/streams.svg" &&
	pass charts_streams_fairness || fail charts_streams_fairness "no fairness index in the subtitle"

# Two runs overlaid: one series per file, each file's name in the legend.
cp "$T/rr.json" "$T/second.json"
"$WS_BIN" plot "$T/rr.json" "$T/second.json" -o "$T/overlay.svg" 2>"$T/ov.err"
check charts_overlay "$T/overlay.svg" rr second

# iq bench against a node process, with WARPLab's published series and a GbE ceiling.
port=
start_node && port=$NODE_PORT
if [ -n "$port" ] && "$WS_BIN" iq bench "127.0.0.1:$port" --trials 6 --samples 32768,65536 \
	--json-file "$T/iq.json" --svg "$T/iq.svg" --reference warplab --link 1000 >"$T/iq.out" 2>"$T/iq.err"; then
	check charts_iq "$T/iq.svg" "Samples per buffer (log scale)" "Transfer speed (Mb/s)" \
		"warpspeed UDP Write" "warpspeed UDP Read" "WARPLab MEX Write" "WARPLab Java Read" \
		"ceiling 988.9 Mb/s (1000 Mb/s link, 8962-byte packets)"
	"$WS_BIN" plot "$T/iq.json" -o "$T/iq_plot.svg" 2>"$T/iqp.err"
	check charts_iq_plot "$T/iq_plot.svg" "iq Write" "iq Read"
else
	fail charts_iq "node port ${port:-none}: $(cat "$T/iq.err" "$WS_TMP/node.err" 2>/dev/null | head -c 300)"
fi

# The fixtures of the sweep and mesh documents.
"$WS_BIN" plot "$FIX/sweep.json" -o "$T/sweep.svg" 2>"$T/sw.err"
check charts_sweep "$T/sweep.svg" "Send size, -m (bytes)" "64" "1K" "64K" "Throughput against the swept value"
"$WS_BIN" plot "$FIX/mesh.json" -o "$T/mesh.svg" 2>"$T/mesh.err"
check charts_mesh "$T/mesh.svg" "sender (src rank)" "receiver (dst rank)" "941" "3 h3 <&>"
grep -q '<title>sender (src rank) 1 h1 to receiver (dst rank) 2 h2: failed: connect to h2 port 12865: Connection refused</title>' \
	"$T/mesh.svg" && pass charts_mesh_failed_cell || fail charts_mesh_failed_cell "no tooltip with the error"

# Refusals.
"$WS_BIN" "${C[@]}" --svg "$T/no.svg" >"$T/no.out" 2>"$T/no.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "this run has none of them" "$T/no.err" && [ ! -s "$T/no.out" ] && [ ! -e "$T/no.svg" ] &&
	pass charts_refuse_stream || fail charts_refuse_stream "exit $rc: $(cat "$T/no.err")"
"$WS_BIN" "${C[@]}" --svg "$T/no.svg" --svg-chart histogram >"$T/no.out" 2>"$T/no.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "histogram draw round-trip latency" "$T/no.err" && pass charts_refuse_histogram ||
	fail charts_refuse_histogram "exit $rc: $(cat "$T/no.err")"
"$WS_BIN" iq bench --trials 6 --samples 32768 --reference warplab >"$T/no.out" 2>"$T/no.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "add --svg FILE" "$T/no.err" && pass charts_refuse_reference ||
	fail charts_refuse_reference "exit $rc: $(cat "$T/no.err")"
printf '{"type": "result",\n  "test": tru}\n' >"$T/bad.json"
"$WS_BIN" plot "$T/bad.json" -o "$T/bad.svg" 2>"$T/bad.err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "bad.json is not valid JSON: line 2, column 11: expected a value" "$T/bad.err" &&
	[ ! -e "$T/bad.svg" ] && pass charts_refuse_bad_json || fail charts_refuse_bad_json "exit $rc: $(cat "$T/bad.err")"
"$WS_BIN" plot "$T/rr.json" >"$T/u.out" 2>"$T/u.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "no output given; expected -o OUT.svg" "$T/u.err" && pass charts_plot_usage ||
	fail charts_plot_usage "exit $rc: $(cat "$T/u.err")"
if [ -s "$T/manifest" ]; then
	python3 "$WS_ROOT/tests/integration/charts_check.py" "$T/manifest" || WS_FAILED=1
fi
# Keep the charts for the browser test when it asks (charts_browser.sh).
[ -n "${WS_CHARTS_KEEP:-}" ] && cp "$T"/*.svg "$WS_CHARTS_KEEP"/
finish
