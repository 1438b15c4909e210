#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# par: tests/par, which runs CI's cross tests and fuzzers side by side, really runs JOBS
# commands at once and no more (shown by marker files each command waits for or checks,
# not by timing), prints each command's output whole and in the order given even when a
# later one ends first, runs every command when one fails and then exits 1 naming it,
# refuses a bad JOBS with status 2, and stops a running command's children when it is
# itself stopped.
source "$(dirname "$0")/../lib.sh"
par=$WS_ROOT/tests/par
T=$WS_TMP

# Two at once: each waits (20 s at most) for the other's marker, so with one at a time
# the first would give up; the second ends first, yet the first one's lines come first.
out=$("$par" 2 "touch $T/a; for _ in \$(seq 200); do [ -e $T/b ] && break; sleep 0.1; done
	[ -e $T/b ] || exit 7; sleep 0.3; echo a1; echo a2" \
	"touch $T/b; for _ in \$(seq 200); do [ -e $T/a ] && break; sleep 0.1; done
	[ -e $T/a ] || exit 7; echo b1; echo b2" 2>"$T/two.err")
rc=$?
if [ $rc -eq 0 ] && [ "$out" = "$(printf 'a1\na2\nb1\nb2')" ] && [ ! -s "$T/two.err" ]; then
	pass par_side_by_side_in_order
else
	fail par_side_by_side_in_order "status $rc, output [$out], stderr [$(cat "$T/two.err")]"
fi

# One at a time: the second starts only once the first has ended.
out=$("$par" 1 "touch $T/c; sleep 0.3; [ ! -e $T/d ] && echo c; touch $T/c.done" \
	"[ -e $T/c.done ] && echo d; touch $T/d" 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ "$out" = "$(printf 'c\nd')" ]; then
	pass par_one_at_a_time
else
	fail par_one_at_a_time "status $rc, output [$out]"
fi

# A failure: the others still run and print, status 1, the failed command named once.
out=$("$par" 2 "echo x; echo oops >&2; exit 3" "echo y" "echo z" 2>"$T/fail.err")
rc=$?
if [ $rc -eq 1 ] && [ "$out" = "$(printf 'x\noops\ny\nz')" ] &&
	[ "$(cat "$T/fail.err")" = "par: failed (status 3): echo x; echo oops >&2; exit 3" ]; then
	pass par_failure_named
else
	fail par_failure_named "status $rc, output [$out], stderr [$(cat "$T/fail.err")]"
fi

for j in 0 x ""; do
	"$par" "$j" true >/dev/null 2>"$T/bad.err"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(cat "$T/bad.err")" = "tests/par: JOBS '$j' is not a whole number of at least 1" ]; then
		pass "par_bad_jobs_${j:-empty}"
	else
		fail "par_bad_jobs_${j:-empty}" "status $rc: $(cat "$T/bad.err")"
	fi
done

# Stopped: the grandchild (a sleep started by the command) goes with it.
"$par" 1 "sleep 300 & echo \$! >$T/sleep.pid; wait" >/dev/null 2>&1 &
ppid=$!
WS_PIDS+=("$ppid")
for _ in $(seq 100); do [ -s "$T/sleep.pid" ] && break; sleep 0.05; done
spid=$(cat "$T/sleep.pid" 2>/dev/null)
kill -TERM "$ppid"
wait "$ppid"
rc=$?
gone=no
for _ in $(seq 100); do
	kill -0 "$spid" 2>/dev/null || { gone=yes; break; }
	sleep 0.05
done
if [ -n "$spid" ] && [ $rc -eq 130 ] && [ $gone = yes ]; then
	pass par_stopped_with_children
else
	fail par_stopped_with_children "par status $rc, its command's sleep (pid ${spid:-none}) gone: $gone"
	[ -n "$spid" ] && kill -9 "$spid" 2>/dev/null
fi
finish
