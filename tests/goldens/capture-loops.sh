#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Captures what the real netperf 2.7.0 prints for the loop that benchmark scripts run
# (loops.sh: CPU rates from LOC_CPU/REM_CPU passed back as -c/-C, then tests x sizes x
# socket buffers with -i/-I), so that tests/integration/script_loops.sh can hold warpspeed,
# run as `netperf`, to the same number of result rows and the same header lines. It starts
# its own netserver on a free port of 127.0.0.1 (stopped by PID on exit), runs the loop
# LOOPS_PASSES times (default 2; a line that differs between passes keeps every exit status
# seen) and writes loops/EXPECT in grammar.py's record format. Rerunnable; about 15 s.
# Usage: tests/goldens/capture-loops.sh [OUTDIR]   (default: loops/ beside this script)
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/loops}
me=capture-loops
# shellcheck source=tests/goldens/capture-lib.sh
. "$here/capture-lib.sh"
# shellcheck source=tests/goldens/loops.sh
. "$here/loops.sh"
command -v python3 >/dev/null || die "python3 not found"
mkdir -p "$out" || die "cannot create $out"
P=$(free_port 22965)
start_netserver "$P" 127.0.0.1,inet
t0=$SECONDS
passes=${LOOPS_PASSES:-2}
for pass in $(seq "$passes"); do
	mkdir "$tmp/run$pass"
	run_loops "$(command -v "$NETPERF")" "$P" "$tmp/run$pass"
	python3 "$here/grammar.py" summarize "$tmp/run$pass/cases" "$tmp/run$pass" >"$tmp/sum$pass" ||
		die "summarizing failed"
done
{
	echo "# What netperf 2.7.0 did with each line of the script loop (loops.sh); written by capture-loops.sh, not by hand."
	echo "# netperf: $version; netserver: $("$NETSERVER" -V 2>&1 | head -1)"
	echo "# package: $(dpkg-query -W -f='${Package} ${Version}' netperf 2>/dev/null || echo unknown); kernel: $(uname -srm)"
	echo "# captured: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(wc -l <"$tmp/run1/cases") lines, $passes passes, $((SECONDS - t0)) s"
	printf '# name\targs\tsubject\texit\trows\tstderr\theaders\n'
	python3 "$here/grammar.py" merge $(seq -f "$tmp/sum%g" "$passes")
} >"$out/EXPECT.new" || die "merging failed"
mv "$out/EXPECT.new" "$out/EXPECT"
echo "$me: $(wc -l <"$tmp/run1/cases") lines in $((SECONDS - t0)) s -> $out/EXPECT"
