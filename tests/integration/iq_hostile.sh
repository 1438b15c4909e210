#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# iq_hostile: `warpspeed iq` against a hostile node (issue 27, D4): tests/integration/
# hostile_node.py answers PING, the payload test and NODE_INFO like a WARPLab node, then
# streams 40-byte junk, or one valid packet again and again, every 5 ms. Every operation
# must end within its budget (--budget-ms, 2000 ms by default) plus a little slack,
# exit 1, and say how much junk and how many duplicates came (the old host hung until
# killed: 58 s for a 64K read). -v prints the counters; nothing is written.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/iq_lib.sh
. "$(dirname "$0")/../iq_lib.sh"
T=$WS_TMP
SLACK_MS=1500 # process start, the handshake and a busy machine

# hostile MODE: a hostile node in the background; sets HPORT.
hostile() {
	python3 "$WS_ROOT/tests/integration/hostile_node.py" "$1" 120 2>"$T/$1.node" &
	WS_PIDS+=("$!")
	HPORT=
	local _
	for _ in $(seq 1 200); do # python may take a while to start on a busy machine
		HPORT=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$T/$1.node")
		[ -n "$HPORT" ] && return 0
		sleep 0.05
	done
	return 1
}

# timed NAME BUDGET_MS CMD...: runs CMD (stdout, stderr in NAME.out, NAME.err, a 30 s
# safety net), sets RC and MS; true when it exited 1 within BUDGET_MS + SLACK_MS.
timed() {
	local name=$1 budget=$2 s0
	shift 2
	s0=$(date +%s%N)
	timeout 30 "$@" >"$T/$name.out" 2>"$T/$name.err"
	RC=$?
	MS=$((($(date +%s%N) - s0) / 1000000))
	[ "$RC" -eq 1 ] && [ "$MS" -le $((budget + SLACK_MS)) ]
}

# count NAME WHAT: the number before WHAT in NAME.err ("120 junk datagrams"), or 0.
count() { sed -n "s/.* \([0-9][0-9]*\) $2.*/\1/p" "$T/$1.err" | head -n 1 | grep . || echo 0; }

if ! hostile junk; then
	fail iq_hostile_start "no banner: $(head -c 300 "$T/junk.node")"
	finish
fi
J=127.0.0.1:$HPORT

if timed rj 1000 "$WS_BIN" iq read "$J" --rf A --samples 64K --budget-ms 1000 -o "$T/rj.ci16" &&
	grep -q 'no progress for 1000 ms (--budget-ms): 0 of 30 packets; meanwhile' "$T/rj.err" &&
	[ "$(count rj 'junk datagrams')" -ge 20 ] && ! ls "$T"/rj.ci16 "$T"/.rj.ci16.* >/dev/null 2>&1; then
	pass "iq_hostile_junk_read_budget ($MS ms for 1000, $(count rj 'junk datagrams') junk)"
else
	fail iq_hostile_junk_read_budget "status $RC after $MS ms: $(head -c 400 "$T/rj.err")"
fi

# Random 40-byte junk is counted wrong_node when its header happens to parse, malformed
# otherwise (about 1 in 100): a run of ~350 with no malformed one happens (a CI run), so
# the -v counters must show junk of either kind.
if timed rd 2000 "$WS_BIN" iq read "$J" --rf A --samples 64K -o "$T/rd.ci16" -v &&
	grep -q 'no progress for 2000 ms' "$T/rd.err" && grep -Eq '(wrong_node|malformed)=[1-9]' "$T/rd.err"; then
	pass "iq_hostile_junk_read_default_budget ($MS ms for 2000)"
else
	fail iq_hostile_junk_read_default_budget "status $RC after $MS ms: $(head -c 400 "$T/rd.err")"
fi

head -c 40000 /dev/urandom >"$T/w.ci16"
if timed wj 1000 "$WS_BIN" iq write "$J" --rf A -i "$T/w.ci16" --budget-ms 1000 &&
	grep -q 'Write IQ to .*: no progress for 1000 ms (--budget-ms).*; meanwhile [1-9][0-9]* junk datagrams' "$T/wj.err"; then
	pass "iq_hostile_junk_write_budget ($MS ms for 1000, $(count wj 'junk datagrams') junk)"
else
	fail iq_hostile_junk_write_budget "status $RC after $MS ms: $(head -c 400 "$T/wj.err")"
fi

if timeout 30 "$WS_BIN" iq info "$J" >"$T/ij.out" 2>&1; then
	pass iq_hostile_junk_info
else
	fail iq_hostile_junk_info "$(head -c 300 "$T/ij.out")"
fi

if ! hostile dup; then
	fail iq_hostile_dup_start "no banner: $(head -c 300 "$T/dup.node")"
	finish
fi
D=127.0.0.1:$HPORT
if timed rdup 1000 "$WS_BIN" iq read "$D" --rf A --samples 64K --budget-ms 1000 -o "$T/rdup.ci16" &&
	grep -q 'no progress for 1000 ms (--budget-ms): 1 of 30 packets; meanwhile' "$T/rdup.err" &&
	[ "$(count rdup duplicates)" -ge 20 ]; then
	pass "iq_hostile_dup_read_budget ($MS ms for 1000, $(count rdup duplicates) duplicates)"
else
	fail iq_hostile_dup_read_budget "status $RC after $MS ms: $(head -c 400 "$T/rdup.err")"
fi
for r in 8 14 20; do
	if timed "rr$r" 500 "$WS_BIN" iq read "$D" --rf A --samples 64K --budget-ms 500 \
		--retries "$r" -o "$T/rr.ci16" && [ "$(count "rr$r" duplicates)" -ge 5 ]; then
		pass "iq_hostile_dup_read_retries_$r ($MS ms for 500)"
	else
		fail "iq_hostile_dup_read_retries_$r" "status $RC after $MS ms: $(head -c 400 "$T/rr$r.err")"
	fi
done
finish
