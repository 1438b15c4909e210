#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# iq_trigger: issue 13 item 9, a lost trigger never gives stale data silently. Through
# bench/iq_proxy, whose trigger counter (--trigger-counter count) is the test double of
# `warpspeed node`'s: the first trigger dropped is confirmed by a re-send and the 2^20
# samples read back are the ones written (5a0d583: exit 0 all along, 4,178,016 of 4,194,304
# bytes different); a node that never sees a trigger gives exit 1 and the message with
# the counter and the attempts; a node without the query (an empty acknowledgement, as
# WARPLab and older nodes answer) gets one trigger, exit 0, and a plain warning on stderr.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/iq_lib.sh
. "$(dirname "$0")/../iq_lib.sh"
T=$WS_TMP
need_proxy iq_trigger
start_node || { fail iq_trigger_node "no banner: $(head -c 300 "$T/node.err")"; finish; }

head -c 4194304 /dev/urandom >"$T/x.ci16" # 2^20 samples
if start_proxy lost1 --drop-triggers 1 --trigger-counter count; then
	P=127.0.0.1:$PPORT
	"$WS_BIN" iq write "$P" --rf A -i "$T/x.ci16" >"$T/lost1.log" 2>&1
	w=$?
	"$WS_BIN" iq trigger "$P" >"$T/lost1.trig" 2>&1
	t=$?
	"$WS_BIN" iq read "$P" --rf A --samples 1M -o "$T/y.ci16" >>"$T/lost1.log" 2>&1
	r=$?
	diff=$(cmp -l "$T/x.ci16" "$T/y.ci16" 2>/dev/null | wc -l)
	want="trigger 0x1 sent to $P: seen (the node's trigger counter went from 0 to 1; 2 triggers sent)"
	if [ "$w$t$r" = 000 ] && [ "$diff" -eq 0 ] && [ "$(cat "$T/lost1.trig")" = "$want" ]; then
		pass iq_lost_first_trigger_resent
	else
		fail iq_lost_first_trigger_resent "status write $w trigger $t read $r, $diff bytes \
			different: $(head -c 300 "$T/lost1.trig")"
	fi
else
	fail iq_lost_first_trigger_resent "proxy did not start"
fi

if start_proxy never --drop-triggers 1000000 --trigger-counter count; then
	"$WS_BIN" iq trigger "127.0.0.1:$PPORT" --budget-ms 500 >"$T/never.out" 2>"$T/never.err"
	rc=$?
	want="warpspeed iq: node 127.0.0.1:$PPORT did not see the trigger: its trigger counter stayed at 0 after 3 triggers over 0.5 s (waits 100, 200, 200 ms) (--timeout-ms, --retries, --budget-ms)"
	if [ "$rc" -eq 1 ] && [ "$(cat "$T/never.err")" = "$want" ] && [ ! -s "$T/never.out" ]; then
		pass iq_trigger_never_seen
	else
		fail iq_trigger_never_seen "status $rc: $(head -c 300 "$T/never.err")"
	fi
else
	fail iq_trigger_never_seen "proxy did not start"
fi

if start_proxy older --trigger-counter empty; then
	"$WS_BIN" iq trigger "127.0.0.1:$PPORT" >"$T/older.out" 2>"$T/older.err"
	rc=$?
	want="warpspeed iq: warning: node 127.0.0.1:$PPORT has no trigger counter (a WARPLab board or an older warpspeed node), so this trigger is unconfirmed: WARPLab triggers are not acknowledged, and a lost one leaves the RX buffers as they were"
	if [ "$rc" -eq 0 ] && [ "$(cat "$T/older.err")" = "$want" ] &&
		[ "$(cat "$T/older.out")" = "trigger 0x1 sent to 127.0.0.1:$PPORT, unconfirmed" ]; then
		pass iq_trigger_unconfirmed_warning
	else
		fail iq_trigger_unconfirmed_warning "status $rc: $(head -c 300 "$T/older.err")"
	fi
else
	fail iq_trigger_unconfirmed_warning "proxy did not start"
fi
finish
