#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# iq_retry: issue 13 item 8, commands back off to a time budget. Through bench/iq_proxy at
# 20 % loss in both directions (fixed seeds), 20 runs each of `iq info`, `iq ping` and a
# small `iq read` all succeed (5a0d583, three attempts per command, failed about half of
# them); a node that never answers fails after the 2 s budget, not much later, with the
# message that names the command, the attempts, their waits and the options. The waits
# start at 20 ms here (loopback): the odds per attempt are the same in a fifth of the time.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/iq_lib.sh
. "$(dirname "$0")/../iq_lib.sh"
T=$WS_TMP
need_proxy iq_retry
start_node --tx-samples 64K --rx-samples 64K ||
	{ fail iq_retry_node "no banner: $(head -c 300 "$T/node.err")"; finish; }

# twenty NAME SEED CMD ARGS...: 20 runs one after another through one 20 % proxy.
twenty() {
	local name=$1 failed=0 run
	if ! start_proxy "$name" --loss 20 --seed "$2"; then
		fail "$name" "proxy did not start"
		return
	fi
	shift 2
	for run in $(seq 1 20); do
		"$WS_BIN" iq "$1" "127.0.0.1:$PPORT" "${@:2}" --timeout-ms 20 \
			>"$T/$name.$run.log" 2>&1 || failed=$((failed + 1))
	done
	if [ "$failed" -eq 0 ]; then
		pass "$name"
	else
		fail "$name" "$failed of 20 runs failed: $(grep -h 'warpspeed iq:' "$T/$name".*.log |
			head -n 2)"
	fi
}
twenty iq_info_20pct_loss 1 info
twenty iq_ping_20pct_loss 2 ping --count 1
twenty iq_read_20pct_loss 3 read --rf A --samples 8192 -o "$T/r.ci16"

# A node that never answers: a proxy that drops everything.
if start_proxy silent --loss 100; then
	t0=$(date +%s%N)
	"$WS_BIN" iq info "127.0.0.1:$PPORT" >"$T/silent.out" 2>"$T/silent.err"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	want="warpspeed iq: node 127.0.0.1:$PPORT did not answer PING (0x10000001): 11 attempts over 2.0 s (waits 100, 200, 200, 200, 200, 200, 200, 200, 200, 200, 100 ms) (--timeout-ms, --retries, --budget-ms)"
	if [ "$rc" -eq 1 ] && [ "$(cat "$T/silent.err")" = "$want" ] && [ "$ms" -ge 2000 ] &&
		[ "$ms" -le 2300 ]; then
		pass iq_silent_node_budget
	else
		fail iq_silent_node_budget "status $rc after $ms ms: $(head -c 400 "$T/silent.err")"
	fi
else
	fail iq_silent_node_budget "proxy did not start"
fi
finish
