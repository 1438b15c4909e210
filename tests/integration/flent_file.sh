#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# flent_file: Flent data files written by report/flent.c (through tests/tools/
# ws_flent_sample, from hand-made rrul and tcp_nup series with known values) read back by
# the real flent 2.1.1: its summary prints every series, measured and computed, with the
# exact figures the values give; it plots all_scaled (rrul) and totals (tcp_nup); and the
# gzip member is exactly the JSON text with its CRC-32 and length, as python3's gzip and
# zlib read it. Then the "all" chart of the same rrul run (report/series_chart.c): it
# parses as XML with its three panels in order, every series' name in the legend and one
# cross for the lost probe, and headless Chromium renders it (not blank, several grey
# levels; skipped with the reason without Chromium or PIL, and in the sanitized run).
# Last, a real -t RPM run's --flent file read back by flent, and its --svg chart.
source "$(dirname "$0")/../lib.sh"
: "${WS_BUILD:?WS_BUILD must point at the build directory}"
T=$WS_TMP
SAMPLE=$WS_BUILD/tools/ws_flent_sample
if ! command -v flent >/dev/null; then
	skip flent_file "flent is not installed (Debian package flent; .ci/run installs it)"
	finish
fi

# The gzip framing: stored blocks around exactly the JSON text, CRC-32 and ISIZE.
"$SAMPLE" rrul "$T/sample.flent.gz" && "$SAMPLE" rrul -json >"$T/sample.json" ||
	fail flent_file_write "ws_flent_sample failed"
if python3 - "$T/sample.flent.gz" "$T/sample.json" <<'PY'; then
import gzip, json, struct, sys, zlib
raw = open(sys.argv[1], "rb").read()
text = open(sys.argv[2], "rb").read()
assert gzip.decompress(raw) == text, "gzip content differs from the JSON text"
crc, size = struct.unpack("<II", raw[-8:])
assert crc == zlib.crc32(text), "CRC-32 %08x, zlib says %08x" % (crc, zlib.crc32(text))
assert size == len(text), "ISIZE %d, text is %d bytes" % (size, len(text))
assert raw[:4] == b"\x1f\x8b\x08\x00", "gzip header %r" % raw[:4]
d = json.loads(text)
assert d["version"] == 4 and d["metadata"]["NAME"] == "rrul"
n = len(d["x_values"])
assert n == 11 and all(len(v) == n for v in d["results"].values()), "lists not aligned"
assert d["results"]["Ping (ms) UDP EF"][5] is None, "the lost probe is not null"
PY
	pass flent_file_gzip
else
	fail flent_file_gzip "python3's gzip/zlib disagree with the file (above)"
fi

# Flent's summary of the rrul file: every series, exact. Flows go 10(f+1)+k Mbit/s for
# k = 1..10 (downloads 100 more), probes (p+1)+k/10 ms for k = 0..10, one UDP EF lost.
flent -i "$T/sample.flent.gz" -f summary >"$T/summary.txt" 2>"$T/summary.err"
sed -n '/avg *median/,$p' "$T/summary.txt" | sed 's/ *$//' >"$T/summary.got"
cat >"$T/summary.want" <<'TXT'
                             avg       median       99th %          # data pts
 Ping (ms) ICMP   :         4.50         4.50         4.99 ms               11
 Ping (ms) UDP BE :         1.50         1.50         1.99 ms               11
 Ping (ms) UDP BK :         2.50         2.50         2.99 ms               11
 Ping (ms) UDP EF :         3.50         3.50         3.99 ms               10
 Ping (ms) avg    :         2.98          N/A          N/A ms               11
 TCP download BE  :       115.50       115.50       119.91 Mbits/s          10
 TCP download BK  :       125.50       125.50       129.91 Mbits/s          10
 TCP download CS5 :       135.50       135.50       139.91 Mbits/s          10
 TCP download EF  :       145.50       145.50       149.91 Mbits/s          10
 TCP download avg :       130.50          N/A          N/A Mbits/s          10
 TCP download sum :       522.00          N/A          N/A Mbits/s          10
 TCP totals       :       644.00          N/A          N/A Mbits/s          10
 TCP upload BE    :        15.50        15.50        19.91 Mbits/s          10
 TCP upload BK    :        25.50        25.50        29.91 Mbits/s          10
 TCP upload CS5   :        35.50        35.50        39.91 Mbits/s          10
 TCP upload EF    :        45.50        45.50        49.91 Mbits/s          10
 TCP upload avg   :        30.50          N/A          N/A Mbits/s          10
 TCP upload sum   :       122.00          N/A          N/A Mbits/s          10
TXT
if diff -u "$T/summary.want" "$T/summary.got" >"$T/summary.diff"; then
	pass flent_file_summary_rrul
else
	fail flent_file_summary_rrul "flent's summary differs: $(cat "$T/summary.diff" "$T/summary.err")"
fi
grep -q "Summary of rrul test run from 2026-12-06 12:00:00.123456" "$T/summary.txt" &&
	grep -q "Title: 'synthetic'" "$T/summary.txt" && pass flent_file_metadata ||
	fail flent_file_metadata "no name, time or title in: $(head -5 "$T/summary.txt")"

# tcp_nup: numbered uploads (TCP upload::N), the upload_streams parameter, an ICMP probe.
"$SAMPLE" tcp_nup "$T/nup.flent.gz" || fail flent_file_write_nup "ws_flent_sample tcp_nup failed"
flent -i "$T/nup.flent.gz" -f summary 2>"$T/nup.err" | sed -n '/avg *median/,$p' |
	sed 's/ *$//' >"$T/nup.got"
cat >"$T/nup.want" <<'TXT'
                           avg       median       99th %          # data pts
 Ping (ms) ICMP :         1.50         1.50         1.99 ms               11
 TCP upload avg :        25.50          N/A          N/A Mbits/s          10
 TCP upload sum :        76.50          N/A          N/A Mbits/s          10
 TCP upload::1  :        15.50        15.50        19.91 Mbits/s          10
 TCP upload::2  :        25.50        25.50        29.91 Mbits/s          10
 TCP upload::3  :        35.50        35.50        39.91 Mbits/s          10
TXT
diff -u "$T/nup.want" "$T/nup.got" >"$T/nup.diff" && pass flent_file_summary_tcp_nup ||
	fail flent_file_summary_tcp_nup "flent's summary differs: $(cat "$T/nup.diff" "$T/nup.err")"

# Plots: flent draws the file's own test plots (it needs matplotlib, which .ci/run installs).
if flent -i "$T/sample.flent.gz" -p all_scaled -o "$T/all.png" >"$T/plot.out" 2>&1 &&
	[ "$(head -c 8 "$T/all.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
	[ "$(stat -c %s "$T/all.png")" -gt 10000 ]; then
	pass flent_file_plot_all_scaled
else
	fail flent_file_plot_all_scaled "no PNG from flent -p all_scaled: $(cat "$T/plot.out")"
fi
if flent -i "$T/nup.flent.gz" -p totals -o "$T/totals.svg" >"$T/plot2.out" 2>&1 &&
	python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); assert r.tag.endswith("svg")' "$T/totals.svg" 2>>"$T/plot2.out"; then
	pass flent_file_plot_tcp_nup
else
	fail flent_file_plot_tcp_nup "no SVG from flent -p totals: $(cat "$T/plot2.out")"
fi

# The "all" chart: XML, panels, legend, the lost probe.
if "$SAMPLE" -svg "$T/all.svg" && python3 - "$T/all.svg" <<'PY'; then
import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == NS + "svg", root.tag
assert root.find(NS + "title").text == "RRUL (synthetic)"
assert "Latency (ms)" in root.find(NS + "desc").text
panels = [g.get("class") for g in root.iter(NS + "g") if (g.get("class") or "").startswith("panel-")]
assert panels == ["panel-upload", "panel-download", "panel-latency"], panels
legend = [g for g in root.iter(NS + "g") if g.get("class") == "legend"][0]
names = {"".join(t.itertext()) for t in legend.iter(NS + "text")}
want = {"TCP %s %s" % (d, m) for d in ("upload", "download") for m in ("BE", "BK", "CS5", "EF")}
want |= {"TCP upload sum", "TCP download sum", "Ping (ms) ICMP"}
want |= {"Ping (ms) UDP " + m for m in ("BE", "BK", "EF")}
assert names == want, names ^ want
lost = [g for g in root.iter(NS + "g") if g.get("class") == "lost"]
assert len(lost) == 1 and lost[0].find(NS + "title").text == "Ping (ms) UDP EF: probe lost at 1 s"
assert not list(root.iter(NS + "script"))
PY
	pass flent_file_all_chart
else
	fail flent_file_all_chart "the all chart is not as expected (above)"
fi
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ "$(basename "${WS_BUILD}")" = san ]; then
	skip flent_file_all_chart_browser "the sanitized run: the chart's code is checked above; Chromium renders it in the plain run"
elif [ -z "$CHROMIUM" ] || ! /usr/bin/python3 -c 'import PIL' 2>/dev/null; then
	skip flent_file_all_chart_browser "chromium or python3-pil is not installed (.ci/run installs both)"
else
	timeout -k 5 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$T/profile" --screenshot="$T/all.png" --window-size=800,820 \
		"file://$T/all.svg" >"$T/chromium.log" 2>&1 &
	WS_PIDS+=("$!")
	wait "$!"
	if /usr/bin/python3 - "$T/all.png" <<'PY'; then
import sys
from PIL import Image
im = Image.open(sys.argv[1])
assert im.size == (800, 820), im.size
hist = im.convert("L").histogram()
ink = sum(hist) - sum(hist[250:])
levels = sum(1 for c in hist if c >= 20)
assert ink > 0.02 * sum(hist), "blank: %d pixels not white" % ink
assert levels >= 8, "%d grey levels" % levels
PY
		pass flent_file_all_chart_browser
	else
		fail flent_file_all_chart_browser "chromium's rendering: $(tail -n 3 "$T/chromium.log")"
	fi
fi
# -t RPM --flent and --svg (cli/rpm.c): a real 2 s run against warpspeed serve on loopback.
# Flent 2.1.1 has no responsiveness test, so the file is named rrul_be with the goodput sums
# and the probes as "Ping (ms) Foreign" / "Ping (ms) Self" (docs/flent.md); flent's summary
# of it lists those series with as many data points as the same run's JSON holds.
if start_daemon -L 127.0.0.1; then
	timeout 60 "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -t RPM -l 2 --flent "$T/rpm.flent.gz" \
		--svg "$T/rpm.svg" --json-file "$T/rpm.json" -P 0 -v 0 >"$T/rpm.out" 2>"$T/rpm.err"
	rc=$?
	flent -i "$T/rpm.flent.gz" -f summary >"$T/rpm_summary.txt" 2>"$T/rpm_summary.err"
	frc=$?
	if [ "$rc" != 0 ]; then
		fail flent_file_rpm "the RPM run: exit $rc: $(cat "$T/rpm.err")"
	elif [ "$frc" != 0 ]; then
		fail flent_file_rpm "flent -i: exit $frc: $(tail -3 "$T/rpm_summary.err")"
	elif msg=$(python3 - "$T/rpm_summary.txt" "$T/rpm.json" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
doc = json.load(open(sys.argv[2]))
if not re.search(r"^Summary of rrul_be test run from 20\d\d-", text, re.M):
    sys.exit("no 'Summary of rrul_be test run from <date>' line:\n" + text)
if "Title: 'warpspeed -t RPM'" not in text:
    sys.exit("no title line:\n" + text)
rows = {m.group(1).strip(): m.group(2) for m in re.finditer(r"^ (.+?) : (.*)$", text, re.M)}
want = {"Ping (ms) Foreign": "Foreign probe", "Ping (ms) Self": "Self probe",
        "TCP upload sum": "TCP upload sum", "TCP download sum": "TCP download sum"}
series = {s["name"]: s for s in doc["series"]}
for flent_name, ws_name in want.items():
    if flent_name not in rows:
        sys.exit("flent lists no %r: %s" % (flent_name, sorted(rows)))
    n = sum(v is not None for v in series[ws_name]["v"])
    got = rows[flent_name].split()
    if not n or got[-1] != str(n):
        sys.exit("%s: flent counts %s data points, the JSON %d" % (flent_name, got[-1], n))
PY
	); then
		pass flent_file_rpm
	else
		fail flent_file_rpm "$msg"
	fi
	if [ "$rc" = 0 ] && grep -q "Upload (Mbit/s)" "$T/rpm.svg" && grep -q "Latency (ms)" "$T/rpm.svg" &&
		grep -q ">Foreign probe<" "$T/rpm.svg" && grep -q ">TCP download sum<" "$T/rpm.svg" &&
		python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$T/rpm.svg"; then
		pass flent_file_rpm_svg
	else
		fail flent_file_rpm_svg "exit $rc; the chart lacks its panels or series: $(head -c 300 "$T/rpm.svg")"
	fi
	"$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -t RPM -l 2 --flent "$T" >"$T/bad.out" 2>"$T/bad.err"
	rc=$?
	if [ "$rc" = 2 ] && grep -qF -- "--flent $T: '$T' is a directory" "$T/bad.err" && [ ! -s "$T/bad.out" ]; then
		pass flent_file_rpm_bad_path
	else
		fail flent_file_rpm_bad_path "exit $rc: $(cat "$T/bad.err")"
	fi
else
	fail flent_file_rpm "warpspeed serve did not start"
fi
finish
