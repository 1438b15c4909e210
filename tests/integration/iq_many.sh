#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# iq_many: `warpspeed iq` to three `warpspeed node`s on loopback at once: one file written
# to all three, each triggered, all three read back at once into one file each and
# compared bit for bit; a different file per node the same way; `iq bench A,B,C` gives
# one row per node plus the aggregate row in the table, and "node" rows plus the
# "aggregate" object in the JSON, for --format cf32; wrong file lists and --format raw
# outside bench are usage errors (exit 2) that say what is accepted.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
T=$WS_TMP

ports=()
for k in 1 2 3; do
	"$WS_BIN" node --bind 127.0.0.1 --port 0 --bcast-port off --tx-samples 256K \
		--rx-samples 256K --serial "$k" >"$T/node$k.out" 2>"$T/node$k.err" &
	WS_PIDS+=("$!")
	p=
	for _ in $(seq 1 100); do
		p=$(sed -n 's/.*listening on [0-9.]*:\([0-9]*\),.*/\1/p' "$T/node$k.err")
		[ -n "$p" ] && break
		sleep 0.02
	done
	[ -n "$p" ] || { fail iq_many_nodes "node $k did not start: $(head -c 300 "$T/node$k.err")"; finish; }
	ports+=("$p")
done
N1=127.0.0.1:${ports[0]} N2=127.0.0.1:${ports[1]} N3=127.0.0.1:${ports[2]}
ALL=$N1,$N2,$N3

trigger_all() { # LOG [ARGS...]: trigger each node in turn
	local n log=$1
	shift
	for n in "$N1" "$N2" "$N3"; do "$WS_BIN" iq trigger "$n" "$@" >>"$T/$log.log" 2>&1 || return 1; done
}

head -c 1000000 /dev/urandom >"$T/x.ci16" # 250000 samples
if "$WS_BIN" iq write "$ALL" --rf A -i "$T/x.ci16" >"$T/same.log" 2>&1 && trigger_all same &&
	"$WS_BIN" iq read "$ALL" --rf A --samples 250000 -o "$T/y1.ci16,$T/y2.ci16,$T/y3.ci16" \
		>>"$T/same.log" 2>&1 &&
	cmp -s "$T/x.ci16" "$T/y1.ci16" && cmp -s "$T/x.ci16" "$T/y2.ci16" &&
	cmp -s "$T/x.ci16" "$T/y3.ci16" && [ "$(grep -c '^wrote 250000 samples' "$T/same.log")" = 3 ]; then
	pass iq_many_same_file
else
	fail iq_many_same_file "$(tail -c 300 "$T/same.log")"
fi

for k in 1 2 3; do head -c 400000 /dev/urandom >"$T/x$k.ci16"; done
if "$WS_BIN" iq write "$ALL" --rf B -i "$T/x1.ci16,$T/x2.ci16,$T/x3.ci16" >"$T/diff.log" 2>&1 &&
	trigger_all diff --tx-en B --rx-en B &&
	"$WS_BIN" iq read "$ALL" --rf B --samples 100000 -o "$T/z1.ci16,$T/z2.ci16,$T/z3.ci16" \
		>>"$T/diff.log" 2>&1 &&
	cmp -s "$T/x1.ci16" "$T/z1.ci16" && cmp -s "$T/x2.ci16" "$T/z2.ci16" &&
	cmp -s "$T/x3.ci16" "$T/z3.ci16"; then
	pass iq_many_file_per_node
else
	fail iq_many_file_per_node "$(tail -c 300 "$T/diff.log")"
fi

"$WS_BIN" iq bench "$ALL" --trials 6 --samples 65536 --format cf32 >"$T/b.txt" 2>&1
rc=$?
"$WS_BIN" iq bench "$ALL" --trials 6 --samples 65536 --format cf32 --json >"$T/b.json" 2>&1
rcj=$?
if [ $rc = 0 ] && [ $rcj = 0 ] &&
	[ "$(grep -c '| warpspeed UDP cf32 |' "$T/b.txt")" = 3 ] &&
	grep -q '^| all |     - |    3 nodes |          aggregate |         8962 |       65536 |' "$T/b.txt" &&
	[ "$(grep -c '"format": "cf32", "node": [123],' "$T/b.json")" = 3 ] &&
	grep -q '^  "aggregate": {$' "$T/b.json" &&
	grep -q '^    "nodes": 3, "samples": 65536, "format": "cf32",' "$T/b.json" &&
	grep -q '^    "read": {"avg_ms": [0-9.]*, "avg_mbps": [0-9.]*,' "$T/b.json"; then
	pass iq_many_bench
else
	fail iq_many_bench "status $rc/$rcj: $(head -c 400 "$T/b.txt") $(head -c 300 "$T/b.json")"
fi

"$WS_BIN" iq read "$ALL" --rf A --samples 10 -o "$T/only-two1.ci16,$T/only-two2.ci16" >"$T/e1" 2>&1
rc1=$?
"$WS_BIN" iq read "$N1" --rf A --samples 10 -o "$T/r.ci16" --format raw >"$T/e2" 2>&1
rc2=$?
"$WS_BIN" iq info "$ALL" >"$T/e3" 2>&1
rc3=$?
if [ $rc1 = 2 ] && grep -q "one file per NODE, separated by commas" "$T/e1" &&
	[ $rc2 = 2 ] && grep -q -- "--format raw is for bench" "$T/e2" &&
	[ $rc3 = 2 ] && grep -q "exactly one NODE is required" "$T/e3"; then
	pass iq_many_usage
else
	fail iq_many_usage "status $rc1/$rc2/$rc3: $(cat "$T/e1" "$T/e2" "$T/e3" | head -c 400)"
fi
finish
