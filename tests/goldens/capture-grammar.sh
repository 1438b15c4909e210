#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Captures what the real netperf 2.7.0 does with several hundred command lines made from
# the grammar table (grammar/GRAMMAR), so that tests/integration/grammar.sh can hold
# warpspeed to the same command-line grammar: which lines are accepted, which refused,
# whether a result row comes, and the header lines. The option lists come from netperf
# itself: its help texts (`netperf -h`, `netperf -t T -- -h` per test), kept in
# grammar/help/, and grammar.py refuses a table that lacks an option they list.
# It starts its own netservers on one free port of 127.0.0.1 and ::1 (stopped by PID on
# exit), runs every line (GRAMMAR_JOBS side by side, each under GRAMMAR_TIMEOUT seconds)
# and writes grammar/EXPECT: one line per case with its name, arguments (placeholders
# kept), the text a refusal must name, exit status, data rows, stderr class and header
# lines with numbers masked (see grammar.py). Rerunnable; about two minutes.
# Usage: tests/goldens/capture-grammar.sh [OUTDIR]   (default: grammar/ beside this script)
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/grammar}
me=capture-grammar
# shellcheck source=tests/goldens/capture-lib.sh
. "$here/capture-lib.sh"
command -v python3 >/dev/null || die "python3 not found"
# A line netperf never ends (it hangs on a few) leaves a netserver child serving it: stop
# the children of our netservers too, by PID, before the netservers themselves.
cleanup() {
	local p c
	for p in "${PIDS[@]}"; do
		for c in $(pgrep -P "$p"); do kill "$c" 2>/dev/null; done
		kill "$p" 2>/dev/null; wait "$p" 2>/dev/null
	done
}
mkdir -p "$out/help" || die "cannot create $out/help"

# netperf's own option lists (LOC_CPU and REM_CPU take no test options: their -- -h runs
# the test against the default host instead of printing help, so it is not asked)
"$NETPERF" -h >"$out/help/global.txt" 2>&1
for t in TCP_STREAM TCP_MAERTS TCP_SENDFILE UDP_STREAM TCP_RR UDP_RR TCP_CRR TCP_CC TCP_MSS OMNI; do
	"$NETPERF" -t "$t" -- -h >"$out/help/test-$t.txt" 2>&1
done
python3 "$here/grammar.py" expand "$out/GRAMMAR" "$out/help" >"$tmp/cases" || die "the grammar table does not expand"
[ "$out" = "$here/grammar" ] || cp "$here/grammar/GRAMMAR" "$out/" 2>/dev/null

# one port on both loopback addresses: the -H ::1 and -6 lines find a netserver there too
P=22865
while port_busy "$P" || ss -Hluan "( sport = :$P )" 2>/dev/null | grep -q .; do P=$((P + 1)); done
start_netserver "$P" 127.0.0.1,inet
start_netserver "$P" ::1,inet6
head -c 1048576 /dev/urandom >"$tmp/fill" || die "cannot write the fill file"

# every line runs GRAMMAR_PASSES times (default 2): a line whose outcome differs between the
# passes is kept with every exit status seen, and the test asks no more of it than to end
t0=$SECONDS
passes=${GRAMMAR_PASSES:-2}
for pass in $(seq "$passes"); do
	mkdir "$tmp/run$pass"
	python3 "$here/grammar.py" run "$tmp/cases" "$tmp/run$pass" "$(command -v "$NETPERF")" "$P" "$tmp/fill" ||
		die "running the cases failed"
	python3 "$here/grammar.py" summarize "$tmp/cases" "$tmp/run$pass" >"$tmp/sum$pass" || die "summarizing failed"
done
{
	echo "# What netperf 2.7.0 did with each line of GRAMMAR; written by capture-grammar.sh, not by hand."
	echo "# netperf: $version; netserver: $("$NETSERVER" -V 2>&1 | head -1)"
	echo "# package: $(dpkg-query -W -f='${Package} ${Version}' netperf 2>/dev/null || echo unknown); kernel: $(uname -srm)"
	echo "# captured: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(wc -l <"$tmp/cases") lines, $passes passes, $((SECONDS - t0)) s"
	printf '# name\targs\tsubject\texit\trows\tstderr\theaders\n'
	python3 "$here/grammar.py" merge $(seq -f "$tmp/sum%g" "$passes")
} >"$out/EXPECT.new" || die "merging failed"
mv "$out/EXPECT.new" "$out/EXPECT"
echo "$me: $(wc -l <"$tmp/cases") lines in $((SECONDS - t0)) s -> $out/EXPECT"
awk -F'\t' '!/^#/ { n[$4]++ } END { for (k in n) printf "  exit %s: %d\n", k, n[k] }' "$out/EXPECT" | sort
