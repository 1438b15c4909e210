#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# testbed_iq_stall: IQ transfers while the host process is stopped now and then, as a busy
# host's kernel threads, interrupts and other users' daemons take its CPU for milliseconds.
# On the gige-jumbo bed, `iq bench` of 2^20 samples (12 writes, then 12 reads) runs twice
# undisturbed (the faster run is the reference: this host is shared) and once with the
# host process stopped (SIGSTOP) for 10 ms every 200 ms, 3 times. The windows and the send buffer hold the last rate x (RTT + the 20 ms stall
# budget), so the link keeps draining while the host is stopped, and a late burst is no
# loss (docs/iq.md, "The congestion window"). The disturbed run must finish with every read
# returning the same samples and every write verified by the node's checksum (the bench
# checks both), and its time over all 24 transfers must stay within 15 % of the undisturbed
# reference (the short form of the issue's 3 % over 2^24; this 2-vCPU host is shared, so
# run to run noise alone is several percent); the re-requests and resends are printed.
source "$(dirname "$0")/../lib.sh"
. "$WS_ROOT/bench/lib.sh"
# shellcheck source=tests/iq_lib.sh
. "$(dirname "$0")/../iq_lib.sh"
tb=$WS_ROOT/bench/testbed

if why=$(ws_testbed_missing); then
	skip testbed_iq_stall "$why"
	finish
fi
name=ws-tst$$
trap '"$tb" down "$name" >/dev/null 2>&1; ws_cleanup' EXIT
bed_up testbed_iq_stall "$name"

# bench NAME [STALLS]: iq bench into $WS_TMP/NAME.json; with STALLS, the host process is
# stopped for 10 ms every 200 ms, STALLS times, while it runs.
bench() {
	"$tb" exec A "$WS_BIN" iq bench "$WS_B" --trials 12 --samples 1048576 \
		--json-file "$WS_TMP/$1.json" >"$WS_TMP/$1.txt" 2>&1 &
	local pid=$! k
	WS_PIDS+=("$pid")
	for ((k = 0; k < ${2:-0}; k++)); do
		sleep 0.2
		kill -STOP "$pid" 2>/dev/null || break
		sleep 0.01
		kill -CONT "$pid" 2>/dev/null
	done
	wait "$pid"
}

# figures FILE: "total_ms rerequests resends" over every trial of the first row.
figures() {
	python3 - "$1" <<'PY'
import json, sys
row = json.load(open(sys.argv[1]))["rows"][0]
pt = row["per_trial"]
ms = sum(t["ms"] for t in pt["write"] + pt["read"])
print("%.3f %d %d" % (ms, sum(t["rerequests"] for t in pt["read"]),
                      sum(t["resends"] for t in pt["write"])))
PY
}

for run in quiet quiet2; do
	if ! bench $run; then
		fail testbed_iq_stall "undisturbed iq bench failed: $(tail -c 400 "$WS_TMP/$run.txt")"
		finish
	fi
done
if ! bench stalled 3; then
	fail testbed_iq_stall "iq bench with 3 stalls failed: $(tail -c 400 "$WS_TMP/stalled.txt")"
	finish
fi
pass testbed_iq_stall
read -r q_ms q_rr q_rs <<<"$(figures "$WS_TMP/quiet.json")"
read -r q2_ms q2_rr q2_rs <<<"$(figures "$WS_TMP/quiet2.json")"
echo "# undisturbed runs: $q_ms ms ($q_rr re-requests, $q_rs resends), $q2_ms ms ($q2_rr, $q2_rs)"
if awk -v a="$q2_ms" -v b="$q_ms" 'BEGIN { exit !(a < b) }'; then
	q_ms=$q2_ms q_rr=$q2_rr q_rs=$q2_rs
fi
read -r s_ms s_rr s_rs <<<"$(figures "$WS_TMP/stalled.json")"
echo "# 2^20 x 12 writes + 12 reads: undisturbed (faster) $q_ms ms ($q_rr re-requests, $q_rs resends)," \
	"3 stalls of 10 ms $s_ms ms ($s_rr re-requests, $s_rs resends)"
echo "# stalled/undisturbed time: $(awk -v s="$s_ms" -v q="$q_ms" 'BEGIN { printf "%.3f", s / q }')"
if awk -v s="$s_ms" -v q="$q_ms" 'BEGIN { exit !(s > 0 && q > 0 && s <= 1.15 * q) }'; then
	pass testbed_iq_stall_time
else
	fail testbed_iq_stall_time "with 3 stalls $s_ms ms against $q_ms undisturbed (want at most 115 %)"
fi
finish
