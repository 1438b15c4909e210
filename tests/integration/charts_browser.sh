#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# charts_browser: each chart kind rendered by headless Chromium (Debian's chromium), one
# launch per chart, and the screenshot checked with python3-pil: 900 x 600 pixels, not
# blank (at least 2% of the pixels not white) and drawn in several grey levels (at least 8
# distinct levels in its greyscale version, which is also how it prints). The charts come
# from the committed documents in tests/integration/charts/ (real loopback runs of TCP_RR,
# -D, --streams and iq bench, and the sweep and mesh fixtures) through `warpspeed plot`.
# Each launch's wall time is printed with its result. SKIPs with the reason when
# Chromium or PIL is missing.
source "$(dirname "$0")/../lib.sh"
: "${WS_ROOT:?WS_ROOT must point at the source tree}"
T=$WS_TMP
FIX=$WS_ROOT/tests/integration/charts
# The browser renders files; under SANITIZE=1 the same `plot` code is checked by charts.sh,
# and a second set of seven Chromium launches would only add time to CI.
if [ "$(basename "${WS_BUILD:-}")" = san ]; then
	skip charts_browser "the sanitized run: charts.sh checks the sanitized plot; Chromium's rendering is checked in the plain run"
	finish
fi
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	skip charts_browser "chromium is not installed (Debian: apt-get install chromium)"
	finish
fi
# Debian's python3-pil is in /usr/bin/python3's path, which may not be the first python3.
PY=
for p in python3 /usr/bin/python3; do
	command -v "$p" >/dev/null && "$p" -c 'import PIL' 2>/dev/null && PY=$p && break
done
if [ -z "$PY" ]; then
	skip charts_browser "python3 with PIL is not installed (Debian: apt-get install python3-pil)"
	finish
fi

# NAME ARGS...: plot FIX/ARGS into T/NAME.svg.
charts=()
draw() {
	local name=$1
	shift
	if "$WS_BIN" plot "$@" -o "$T/$name.svg" 2>"$T/$name.err"; then
		charts+=("$name")
	else
		fail "charts_browser_$name" "plot failed: $(cat "$T/$name.err")"
	fi
}
draw spectrum "$FIX/rr.json"
draw histogram "$FIX/rr.json" --chart histogram
draw interim "$FIX/interim.json"
draw streams "$FIX/streams.json"
draw iq "$FIX/iq.json" --reference warplab --link 10000
draw sweep "$FIX/sweep.json"
draw mesh "$FIX/mesh.json"

: >"$T/shots"
for name in "${charts[@]}"; do
	t0=$(date +%s.%N)
	timeout -k 5 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$T/profile" --screenshot="$T/$name.png" --window-size=900,600 \
		"file://$T/$name.svg" >"$T/$name.log" 2>&1 &
	pid=$!
	WS_PIDS+=("$pid")
	wait "$pid"
	rc=$?
	secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	if [ "$rc" -ne 0 ] || [ ! -s "$T/$name.png" ]; then
		fail "charts_browser_$name" "chromium exit $rc after $secs s: $(tail -n 3 "$T/$name.log")"
	else
		printf '%s\t%s\t%s\n' "$name" "$T/$name.png" "$secs" >>"$T/shots"
	fi
done

# One python3 for every screenshot.
[ -s "$T/shots" ] && "$PY" - "$T/shots" <<'PY' || WS_FAILED=1
import sys
from PIL import Image
bad = 0
for line in open(sys.argv[1]):
    name, path, secs = line.rstrip("\n").split("\t")
    im = Image.open(path)
    why = []
    if im.size != (900, 600):
        why.append(f"size {im.size}, not (900, 600)")
    grey = im.convert("L")
    hist = grey.histogram()
    total = sum(hist)
    ink = total - sum(hist[250:])
    levels = sum(1 for c in hist if c >= 20)
    if ink < 0.02 * total:
        why.append(f"blank: {ink} of {total} pixels are not white")
    if levels < 8:
        why.append(f"{levels} grey levels, expected at least 8")
    if why:
        bad = 1
        print(f"FAIL charts_browser_{name}: " + "; ".join(why))
    else:
        print(f"PASS charts_browser_{name} ({secs} s in chromium; {100 * ink / total:.1f}% ink, {levels} grey levels)")
sys.exit(bad)
PY
finish
