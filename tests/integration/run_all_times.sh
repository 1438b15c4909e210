#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/run-all itself, on a made-up build folder of three unit "binaries" (scripts) and
# no integration script (WS_ONLY names none): its last lines stay what other tools parse
# ("slowest: ...", "N passed, N failed"), a crash without FAIL counts as one failure, and
# WS_TIMES=FILE receives every binary's time, slowest first, one "seconds kind name" each
# (CI keeps the whole budget there); a WS_TIMES that cannot be written is a failure.
source "$(dirname "$0")/../lib.sh"
root=${WS_ROOT:?}
b=$WS_TMP/build
mkdir -p "$b/tests"
printf '#!/bin/sh\nsleep 1.2\necho "PASS slow_one"\n' >"$b/tests/test_a"
printf '#!/bin/sh\necho "PASS quick_one"\necho "PASS quick_two"\n' >"$b/tests/test_b"
printf '#!/bin/sh\nexit 3\n' >"$b/tests/test_c"
chmod +x "$b/tests/test_a" "$b/tests/test_b" "$b/tests/test_c"
run() { WS_ONLY=__no_such_script__ "$root/tests/run-all" "$b" >"$WS_TMP/out" 2>&1; }

WS_TIMES=$WS_TMP/times run; rc=$?
if [ $rc -eq 1 ] && [ "$(tail -n 1 "$WS_TMP/out")" = "3 passed, 1 failed" ] &&
	grep -qx "FAIL test_c: exited with status 3" "$WS_TMP/out" &&
	grep -qE "^slowest: test_a [12] s, test_[bc] 0 s, test_[bc] 0 s$" "$WS_TMP/out"; then
	pass run_all_last_lines
else fail run_all_last_lines "exit $rc: $(tail -n 4 "$WS_TMP/out")"; fi
# test_a sleeps 1.2 s; the others end at once (well under a second, even on a loaded host)
got=$(cat "$WS_TMP/times" 2>&1)
if [ "$(wc -l <<<"$got")" -eq 3 ] &&
	awk 'NR == 1 { ok = $1 >= 1.2 && $1 < 30 && $2 $3 == "unittest_a" }
	     NR > 1 { ok = ok && $1 < 1 && $2 == "unit" && $3 ~ /^test_[bc]$/ && $3 != prev; prev = $3 }
	     { ok = ok && $1 ~ /^[0-9]+\.[0-9]$/ } END { exit !ok }' <<<"$got"; then
	pass run_all_ws_times
else fail run_all_ws_times "got '$got', expected '1.2'+' unit test_a' then test_b and test_c under 1 s, seconds to a tenth"; fi

rm "$b/tests/test_a" "$b/tests/test_c" # the rest needs no slow test, nor a crash
WS_TIMES=$WS_TMP/no/such/dir/times run; rc=$?
if [ $rc -eq 1 ] && [ "$(tail -n 1 "$WS_TMP/out")" = "2 passed, 1 failed" ] &&
	grep -q "^FAIL run-all: cannot write the times to WS_TIMES=$WS_TMP/no/such/dir/times" "$WS_TMP/out"; then
	pass run_all_ws_times_unwritable
else fail run_all_ws_times_unwritable "exit $rc: $(tail -n 4 "$WS_TMP/out")"; fi
run; rc=$?
if [ $rc -eq 0 ] && [ "$(tail -n 1 "$WS_TMP/out")" = "2 passed, 0 failed" ]; then
	pass run_all_without_ws_times
else fail run_all_without_ws_times "exit $rc: $(tail -n 4 "$WS_TMP/out")"; fi
finish
