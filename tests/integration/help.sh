#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Issue 29, items 4 and 5: help for every role and iq command, each its own text with
# ranges and defaults; the main usage lists every role; iq bench's table and JSON agree
# on the trial counts (run and kept, both labelled); the in-process daemon's rule is the
# one the man page states.
source "$(dirname "$0")/../lib.sh"
T=$WS_TMP

"$WS_BIN" -h >"$T/main.txt"
missing=
for role in serve node iq mesh plot compare; do
	grep -qE "^ +warpspeed $role( |$)" "$T/main.txt" || missing="$missing $role"
done
[ -z "$missing" ] && pass help_main_lists_roles || fail help_main_lists_roles "missing:$missing"

# Each role's -h: status 0, its own first line.
for role in serve node plot compare mesh iq; do
	if "$WS_BIN" "$role" -h >"$T/$role.txt" 2>&1 &&
		head -n 1 "$T/$role.txt" | grep -qiE "^usage: .*warpspeed $role"; then
		pass "help_$role"
	else
		fail "help_$role" "$(head -n 3 "$T/$role.txt")"
	fi
done

# Each iq command's -h: its own text (not iq's), then the transport options.
for cmd in info ping read write trigger bench; do
	if "$WS_BIN" iq "$cmd" -h >"$T/iq-$cmd.txt" 2>&1 &&
		head -n 1 "$T/iq-$cmd.txt" | grep -q "^usage: warpspeed iq $cmd " &&
		grep -q -- '--budget-ms MS (2000; 1..600000' "$T/iq-$cmd.txt" &&
		! cmp -s "$T/iq-$cmd.txt" "$T/iq.txt"; then
		pass "help_iq_$cmd"
	else
		fail "help_iq_$cmd" "$(head -n 3 "$T/iq-$cmd.txt")"
	fi
done
if grep -q -- '--trials T       6..100000 per size and direction; the first 5 are dropped' "$T/iq-bench.txt" &&
	grep -q -- '--samples N,...  samples per buffer, 1..1G' "$T/iq-bench.txt"; then
	pass help_iq_bench_trials_range
else
	fail help_iq_bench_trials_range "$(cat "$T/iq-bench.txt")"
fi

# The table labels Num Trials as the JSON does: trials run and kept.
if "$WS_BIN" iq bench --trials 7 --samples 1024 --json-file "$T/b.json" >"$T/b.txt" 2>&1 &&
	grep -qxF 'Num Trials: trials run per size and direction; the first 5 are dropped, as wl_benchmark does, so each average is over the last 2 (JSON "trials": 7, "kept": 2)' "$T/b.txt" &&
	grep -qE '\| +7 \|' "$T/b.txt" &&
	grep -q '"trials": 7, "kept": 2' "$T/b.json"; then
	pass iq_bench_trials_labelled
else
	fail iq_bench_trials_labelled "$(cat "$T/b.txt")"
fi

# The in-process daemon starts only when both -H and -p are left at their defaults: a
# port given names the daemon meant, and the run fails when nothing answers there.
NOPORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$WS_BIN" -p "$NOPORT" -l 1 >"$T/p.out" 2>"$T/p.err"
rc=$?
if [ $rc -eq 1 ] && grep -q 'Connection refused' "$T/p.err" && ! grep -q 'started one' "$T/p.err" &&
	grep -q 'When both the host' "$WS_ROOT/docs/warpspeed.1"; then
	pass inprocess_daemon_rule
else
	fail inprocess_daemon_rule "status $rc: $(cat "$T/p.err")"
fi
finish
