#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# iq_impair: `warpspeed iq` through bench/iq_proxy (fixed seeds) to a `warpspeed node`:
# 5 % and 20 % loss, duplication + reordering + forged answers (wrong seq, wrong node ID);
# every write -> trigger -> read must come back bit-exact. Triggers go through the proxy
# too, whose trigger counter (--trigger-counter count, the test double of the node's)
# confirms them: a lost one is sent again. Through a queue far smaller than the read window
# (the proxy shaping node->host to 300 Mb/s with a 60 kB queue, the loopback stand-in of
# testbed_iq_shallow) a 2^20 read must come back bit-exact, with `-v 2` showing the read
# window cut below its bound and the bounds' memory, and `iq bench --json-file` carrying
# the windows per row and per trial. A node that goes quiet
# mid-transfer must give exit 1 with "stopped answering" and leave no output file.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/iq_lib.sh
. "$(dirname "$0")/../iq_lib.sh"
T=$WS_TMP
need_proxy iq_impair

start_node || { fail iq_impair_node "no banner: $(head -c 300 "$T/node.err")"; finish; }
head -c 800000 /dev/urandom >"$T/x.ci16" # 200000 samples, 90 packets
roundtrip() { # name, proxy args...
	local name=$1
	shift
	if ! start_proxy "$name" "$@"; then
		fail "$name" "proxy did not start"
		return
	fi
	local P=127.0.0.1:$PPORT o=(--timeout-ms 50)
	if "$WS_BIN" iq write "$P" --rf A -i "$T/x.ci16" "${o[@]}" >"$T/$name.log" 2>&1 &&
		"$WS_BIN" iq trigger "$P" "${o[@]}" >>"$T/$name.log" 2>&1 &&
		"$WS_BIN" iq read "$P" --rf A --samples 200000 -o "$T/$name.ci16" "${o[@]}" \
			>>"$T/$name.log" 2>&1 && cmp -s "$T/x.ci16" "$T/$name.ci16" &&
		grep -q "^trigger 0x1 sent to $P: seen" "$T/$name.log"; then
		pass "$name"
	else
		fail "$name" "$(tail -c 300 "$T/$name.log")"
	fi
}
roundtrip iq_loss_5 --loss 5 --seed 7 --trigger-counter count
roundtrip iq_loss_20 --loss 20 --seed 8 --trigger-counter count
roundtrip iq_dup_reorder_forged --dup 5 --reorder 5 --bad-seq 3 --bad-id 3 --seed 9 \
	--trigger-counter count

head -c 4194304 /dev/urandom >"$T/big.ci16" # 2^20 samples, 470 jumbo packets
if start_proxy shallow --rate 300 --queue 60000 --burst 30000 --trigger-counter count; then
	P=127.0.0.1:$PPORT
	if "$WS_BIN" iq write "$P" --rf A -i "$T/big.ci16" >"$T/shallow.log" 2>&1 &&
		"$WS_BIN" iq trigger "$P" >>"$T/shallow.log" 2>&1 &&
		"$WS_BIN" iq read "$P" --rf A --samples 1M -o "$T/shallow.ci16" -v 2 \
			>>"$T/shallow.log" 2>&1 && cmp -s "$T/big.ci16" "$T/shallow.ci16"; then
		pass iq_shallow_read
	else
		fail iq_shallow_read "$(tail -c 400 "$T/shallow.log")"
	fi
	# "read window (packets): 8 at 0 ms; 23 -> 16 at 3.10 ms; ...; now N (least L, most M,
	# C cuts, bounds 4..H)": cut at least once, and never up to its bound.
	w=$(grep 'transport: read window (packets):' "$T/shallow.log")
	echo "# ${w#transport: }"
	if [[ $w =~ most\ ([0-9]+),\ ([0-9]+)\ cuts,\ bounds\ 4\.\.([0-9]+)\) ]] &&
		[ "${BASH_REMATCH[2]}" -ge 1 ] && [ "${BASH_REMATCH[1]}" -lt "${BASH_REMATCH[3]}" ] &&
		grep -q 'transport: stall budget 20 ms, RTT .* read window at most .* of SO_RCVBUF' \
			"$T/shallow.log"; then
		pass iq_shallow_window_shown
	else
		fail iq_shallow_window_shown "no cut read window or memory line in: $(grep transport: "$T/shallow.log")"
	fi
	if "$WS_BIN" iq bench "$P" --trials 6 --samples 262144 --json-file "$T/shallow.json" \
		>"$T/shallow_bench.log" 2>&1 && python3 - "$T/shallow.json" <<'PY'; then
import json, sys
row = json.load(open(sys.argv[1]))["rows"][0]
assert row["window_bounds"]["stall_budget_ms"] == 20, row["window_bounds"]
assert row["read_window"]["cuts"] >= 0 and row["read_window"]["least"] >= 4, row["read_window"]
reads = row["per_trial"]["read"]
assert all(t["window"] and t["window"]["least"] >= 4 for t in reads), reads
assert all("rerequests" in t for t in reads) and all("resends" in t for t in row["per_trial"]["write"])
PY
		pass iq_shallow_bench_json
	else
		fail iq_shallow_bench_json "$(tail -c 400 "$T/shallow_bench.log")"
	fi
fi

if start_proxy mute --mute-after 30; then
	"$WS_BIN" iq read "127.0.0.1:$PPORT" --rf A --samples 1M -o "$T/mute.ci16" \
		--idle-ms 5 --retries 4 >"$T/mute.log" 2>&1
	rc=$?
	if [ $rc -eq 1 ] && grep -q 'stopped answering' "$T/mute.log" &&
		! ls "$T"/mute.ci16* >/dev/null 2>&1; then
		pass iq_node_goes_quiet
	else
		fail iq_node_goes_quiet "status $rc: $(head -c 300 "$T/mute.log")"
	fi
fi
finish
