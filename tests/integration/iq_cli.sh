#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# iq_cli: `warpspeed iq` against a real `warpspeed node` process on loopback: info, ping,
# write -> trigger -> read bit-exact through ci16 and SigMF files, a broadcast trigger,
# bench with and without a NODE (exact table header), and the refusals: a file of the
# wrong size, a range beyond the buffer (no file left), a closed port, bad usage (exit 2).
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
T=$WS_TMP

"$WS_BIN" node --bind 127.0.0.1 --port 0 --bcast-port 0 --tx-samples 1M --rx-samples 1M \
	>"$T/node.out" 2>"$T/node.err" &
WS_PIDS+=("$!")
for _ in $(seq 1 100); do
	grep -q 'listening on' "$T/node.err" 2>/dev/null && break
	sleep 0.02
done
port=$(sed -n 's/.*listening on [0-9.]*:\([0-9]*\),.*/\1/p' "$T/node.err")
bport=$(sed -n 's/.*broadcast port \([0-9]*\),.*/\1/p' "$T/node.err")
if [ -z "$port" ]; then
	fail iq_node_start "no banner: $(head -c 300 "$T/node.err")"
	finish
fi
N=127.0.0.1:$port

if "$WS_BIN" iq info "$N" >"$T/info" 2>&1 && grep -q 'W3-a-00006' "$T/info" &&
	grep -q 'WARPLab 7.7.1' "$T/info" && grep -q '2232 samples per packet' "$T/info"; then
	pass iq_info
else
	fail iq_info "$(head -c 300 "$T/info")"
fi

if "$WS_BIN" iq ping "$N" --count 2 >"$T/ping" 2>&1 && [ "$(grep -c '^PING .*reply' "$T/ping")" -eq 2 ]; then
	pass iq_ping
else
	fail iq_ping "$(head -c 300 "$T/ping")"
fi

# 50000 random ci16 samples to RF_A and RF_B, trigger, read RF_B back.
head -c 200000 /dev/urandom >"$T/x.ci16"
if "$WS_BIN" iq write "$N" --rf A,B -i "$T/x.ci16" >"$T/w" 2>&1 &&
	"$WS_BIN" iq trigger "$N" >>"$T/w" 2>&1 &&
	"$WS_BIN" iq read "$N" --rf B --samples 50000 -o "$T/y.ci16" >>"$T/w" 2>&1 &&
	cmp -s "$T/x.ci16" "$T/y.ci16"; then
	pass iq_write_trigger_read_ci16
else
	fail iq_write_trigger_read_ci16 "$(tail -c 300 "$T/w")"
fi

# SigMF cf32_le recording of RF_A, written back from the .sigmf-data name, read as ci16.
if "$WS_BIN" iq read "$N" --rf A --samples 50000 -o "$T/rec.sigmf-meta" --datatype cf32_le \
	>"$T/s" 2>&1 && grep -q '"core:datatype": "cf32_le"' "$T/rec.sigmf-meta" &&
	[ "$(stat -c %s "$T/rec.sigmf-data")" -eq 400000 ] &&
	"$WS_BIN" iq write "$N" --rf A -i "$T/rec.sigmf-data" >>"$T/s" 2>&1 &&
	"$WS_BIN" iq trigger --broadcast "127.0.0.1:$bport" >>"$T/s" 2>&1 &&
	sleep 0.05 &&
	"$WS_BIN" iq read "$N" --rf A --samples 50000 -o "$T/z.ci16" >>"$T/s" 2>&1 &&
	cmp -s "$T/x.ci16" "$T/z.ci16" &&
	grep -q '^warpspeed iq: warning: broadcast triggers are unconfirmed' "$T/s"; then
	pass iq_sigmf_roundtrip_broadcast_trigger
else
	fail iq_sigmf_roundtrip_broadcast_trigger "$(tail -c 300 "$T/s")"
fi

head -c 7 /dev/zero >"$T/bad.cf32"
"$WS_BIN" iq write "$N" --rf A -i "$T/bad.cf32" >"$T/bad" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q 'not a whole number of cf32 samples' "$T/bad"; then
	pass iq_wrong_file_size
else
	fail iq_wrong_file_size "status $rc: $(head -c 300 "$T/bad")"
fi

"$WS_BIN" iq read "$N" --rf A --samples 2M -o "$T/big.ci16" >"$T/big" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q 'beyond the node' "$T/big" && ! ls "$T"/big.ci16* >/dev/null 2>&1; then
	pass iq_beyond_buffer_no_file
else
	fail iq_beyond_buffer_no_file "status $rc: $(head -c 300 "$T/big")"
fi

# A closed port: bind one, note it, close it (the shell's /dev/udp is not enough), use it.
closed=$(( (port + 1) % 64512 + 1024 ))
"$WS_BIN" iq ping "127.0.0.1:$closed" --timeout-ms 50 >"$T/cl" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -Eq 'refused|did not answer' "$T/cl"; then
	pass iq_unreachable
else
	fail iq_unreachable "status $rc: $(head -c 300 "$T/cl")"
fi

usage_case() { # name, expected text, args...
	local name=$1 text=$2
	shift 2
	"$WS_BIN" iq "$@" >/dev/null 2>"$T/u"
	local rc=$?
	if [ $rc -eq 2 ] && grep -q -- "$text" "$T/u"; then
		pass "$name"
	else
		fail "$name" "status $rc: $(head -c 300 "$T/u")"
	fi
}
usage_case iq_usage_read "needs --rf" read "$N" --samples 10 -o "$T/q.ci16"
usage_case iq_usage_rf "letters A..D" read "$N" --rf Z --samples 10 -o "$T/q.ci16"
usage_case iq_usage_node "IPv4 address" info nosuchhost
usage_case iq_usage_cmd "unknown command" frobnicate
usage_case iq_usage_trials "6..100000" bench --trials 5 --samples 100
usage_case iq_usage_ext "a name ending" read "$N" --rf A --samples 10 -o "$T/q.bin"
usage_case iq_usage_stall "--stall-budget '1001' is not valid (0..1000)" read "$N" --rf A \
	--samples 10 -o "$T/q.ci16" --stall-budget 1001
usage_case iq_usage_stall_word "--stall-budget 'soon' is not valid (0..1000)" write "$N" --rf A \
	-i "$T/q.ci16" --stall-budget soon

header='| ID | WLVER | Serial #   | Transport     | Pkt Size (B) | Num Samples | TX/RX Time (ms) | Num Trials | Avg Write IQ Time (ms) | Avg Transfer Speed (Mbps) | Avg Read IQ Time (ms) | Avg Transfer Speed (Mbps) |'
if "$WS_BIN" iq bench "$N" --trials 6 --samples 32768,65536 >"$T/b" 2>&1 &&
	grep -qxF -- "$header" "$T/b" && grep -q 'warpspeed UDP |         8962 |       65536 |' "$T/b"; then
	pass iq_bench_node
else
	fail iq_bench_node "$(head -c 600 "$T/b")"
fi
# Every trial labelled: the note under the table counts all 24 (2 sizes, 2 directions, 6).
if grep -qE '^disturbed trials: [0-9]+ of 24 \(' "$T/b"; then
	pass iq_bench_disturbed_note
else
	fail iq_bench_disturbed_note "$(tail -c 400 "$T/b")"
fi
if "$WS_BIN" iq bench --trials 6 --samples 32768 --json >"$T/j" 2>"$T/je" &&
	grep -q 'built-in node emulator' "$T/je" && grep -q '"median_mbps"' "$T/j"; then
	pass iq_bench_builtin_json
else
	fail iq_bench_builtin_json "$(head -c 300 "$T/je") $(head -c 300 "$T/j")"
fi
# The JSON carries each of the 12 trials with its host figures, its re-requests (resends)
# and its congestion window (a read always runs one; a fast write none), and the row's
# summary, bounds and windows.
if python3 - "$T/j" <<'PY'; then
import json, sys
row = json.load(open(sys.argv[1]))["rows"][0]
pt, d = row["per_trial"], row["disturbed"]
assert [len(pt["write"]), len(pt["read"])] == [6, 6], pt
base = {"trial", "kept", "ms", "nivcsw", "off_cpu_ms", "disturbed", "window"}
for t in pt["write"]:
    assert set(t) == base | {"resends"}, t
for t in pt["read"]:
    assert set(t) == base | {"rerequests"}, t
    w = t["window"]
    assert 4 <= w["least"] <= w["start"] and w["least"] <= w["end"] <= w["most"], w
assert row["window_bounds"]["stall_budget_ms"] == 20, row["window_bounds"]
assert row["read_window"]["end"] == pt["read"][-1]["window"]["end"], row["read_window"]
for t in pt["write"] + pt["read"]:
    assert t["ms"] > 0 and t["nivcsw"] >= 0 and t["off_cpu_ms"] >= 0, t
    assert t["disturbed"] == (t["off_cpu_ms"] > 1.0), t
    assert t["kept"] == (t["trial"] > 5), t
assert d["trials"] == 12 and d["threshold_ms"] == 1.0, d
assert d["disturbed"] == sum(t["disturbed"] for t in pt["write"] + pt["read"]), d
PY
	pass iq_bench_json_per_trial
else
	fail iq_bench_json_per_trial "$(head -c 600 "$T/j")"
fi
# rssi: the built-in node's READ_RSSI pattern, value k of RF rf is (5k + 200 rf) mod 1024
# (src/iq/node/node_mem.c); an odd N ends inside a word, -o writes the same values.
exp_rssi() { awk -v n="$1" -v rf="$2" 'BEGIN { for (k = 0; k < n; k++) print (5 * k + 200 * rf) % 1024 }'; }
"$WS_BIN" iq rssi "127.0.0.1:$port" --rf A --samples 1001 >"$T/rssi_a" 2>"$T/rssi.err"
"$WS_BIN" iq rssi "127.0.0.1:$port" --rf B --samples 333 -o "$T/rssi_b" 2>>"$T/rssi.err" >/dev/null
if cmp -s "$T/rssi_a" <(exp_rssi 1001 0) && cmp -s "$T/rssi_b" <(exp_rssi 333 1); then
	pass iq_rssi_pattern
else
	fail iq_rssi_pattern "$(head -c 300 "$T/rssi.err"; head -3 "$T/rssi_a" "$T/rssi_b" 2>&1)"
fi
"$WS_BIN" iq rssi "127.0.0.1:$port" --rf A,B --samples 4 >"$T/rssi_x" 2>"$T/rssi_x.err"
rc=$?
if [ "$rc" = 2 ] && [ ! -s "$T/rssi_x" ] && grep -q 'rssi reads one' "$T/rssi_x.err"; then
	pass iq_rssi_one_rf
else
	fail iq_rssi_one_rf "rc=$rc $(cat "$T/rssi_x.err")"
fi

finish
