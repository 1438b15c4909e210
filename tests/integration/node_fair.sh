#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# node_fair: a shared `warpspeed node` stays usable while 16 hostile sources ask it for
# gigabytes (issue 27, D5). Sources 127.0.0.2 .. 127.0.0.17 each send a 42-byte Read IQ
# for 2^27 samples of RF_A (512 MiB) and repeat it every 0.5 s without reading anything;
# an honest `warpspeed iq read` of 1 Mi samples from 127.0.0.1 must then take at most
# twice its idle time plus 250 ms (the median of three runs each; before the fix it took
# 4 to 10 s, or failed, as the hogs held every stream slot), return the same samples, and
# the hogs' streams must have run (it is not a test of an idle node). About 6 s. The
# hogs are tests/integration/node_hostile.py; only 127.0.0.0/8 is addressed.
source "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../iq_lib.sh"
hostile="$(dirname "$0")/node_hostile.py"
if ! command -v python3 >/dev/null; then
	skip node_fair "python3 is not installed"
	finish
fi

if ! start_node --rx-samples 128M; then
	fail node_fair_start "node did not start: $(head -c 300 "$WS_TMP/node.err")"
	finish
fi
PORT=$NODE_PORT

# read_ms FILE: one honest read of 1 Mi samples into FILE; prints its wall time in ms,
# or "fail".
read_ms() {
	local t0 t1
	t0=$(date +%s%N)
	if timeout 20 "$WS_BIN" iq read "127.0.0.1:$PORT" --rf A --samples 1M -o "$1" \
		>>"$WS_TMP/read.log" 2>&1; then
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000000))
	else
		echo fail
	fi
}

median3() { printf '%s\n' "$@" | sort -n | sed -n 2p; }

i1=$(read_ms "$WS_TMP/idle.ci16")
i2=$(read_ms "$WS_TMP/idle.ci16")
i3=$(read_ms "$WS_TMP/idle.ci16")
python3 "$hostile" hogs "$PORT" 16 30 >"$WS_TMP/hogs.out" 2>"$WS_TMP/hogs.err" &
HOGS_PID=$!
WS_PIDS+=("$HOGS_PID")
for _ in $(seq 1 100); do
	grep -q ready "$WS_TMP/hogs.err" 2>/dev/null && break
	sleep 0.02
done
sleep 0.3
tx0=$(node_counter tx_bytes)
a1=$(read_ms "$WS_TMP/a1.ci16")
a2=$(read_ms "$WS_TMP/a2.ci16")
a3=$(read_ms "$WS_TMP/a3.ci16")
tx1=$(node_counter tx_bytes)
reqs=$(node_counter read_requests)
kill "$HOGS_PID" 2>/dev/null
idle=$(median3 "$i1" "$i2" "$i3")
busy=$(median3 "$a1" "$a2" "$a3")
echo "# idle ms: $i1 $i2 $i3 (median $idle); 16 hogs: $a1 $a2 $a3 (median $busy);" \
	"node sent $((tx1 - tx0)) bytes meanwhile, $reqs Read IQ requests in all"
if [[ "$idle$busy" =~ ^[0-9]+$ ]] && [ "$busy" -le $((2 * idle + 250)) ]; then
	pass node_fair_honest_read_time
else
	fail node_fair_honest_read_time "under 16 hogs $busy ms, idle $idle ms (at most 2 x idle + 250 ms wanted); $(tail -c 300 "$WS_TMP/read.log")"
fi
if [ "$a1$a2$a3" != "${a1//fail/}${a2//fail/}${a3//fail/}" ] ||
	! cmp -s "$WS_TMP/idle.ci16" "$WS_TMP/a1.ci16" || ! cmp -s "$WS_TMP/idle.ci16" "$WS_TMP/a3.ci16"; then
	fail node_fair_honest_read_data "a read under attack failed or differs from the idle read"
else
	pass node_fair_honest_read_data
fi
# The hogs were served meanwhile (at least 16 requests streamed something), so the node
# was not simply idle.
if [ -n "$reqs" ] && [ "$reqs" -ge 16 ] && [ $((tx1 - tx0)) -gt 1048576 ]; then
	pass node_fair_hogs_active
else
	fail node_fair_hogs_active "read_requests=$reqs, $((tx1 - tx0)) bytes sent during the reads"
fi
kill "$NODE_PID" 2>/dev/null
wait "$NODE_PID" 2>/dev/null
finish
