#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# testbed_bucket: how much tbf's token bucket can flatter an IQ transfer on the gige-jumbo
# bed, and that no transfer gets more than that (issue 17, section 5).
# tbf starts each idle link with a full bucket of free bytes, so one Read IQ or Write IQ
# of 2^15 or 2^20 samples can beat the 991.6 Mb/s ceiling (a 2^20 read once showed
# 1005.6). A smaller bucket is no cure: on a loaded 2-vCPU guest tbf's timer slack then
# costs far more than the bucket gave (one or two frames: 893-950 Mb/s). So the bucket
# stays and its effect is bounded and reported: bench/lib.sh's ws_iq_bound_mbps gives the
# most one transfer can show with the bed's real bucket, every trial of `iq bench` must
# stay under it (+0.5 % for timing; load only slows a trial, so this is an upper bound,
# never a speed floor), and the bound's arithmetic is pinned to exact values.
source "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/testbed_lib.sh
. "$(dirname "$0")/../testbed_lib.sh"
# shellcheck source=tests/iq_lib.sh
. "$(dirname "$0")/../iq_lib.sh"

# The arithmetic: 2^15 samples are 15 packets of 76 + 4n wire bytes (132212), 2^25 are
# 15034 (2^25 * 4 + 76 * 15034); a 125000-byte bucket turns 2^20 into at most 1021.75.
for c in "0 32768 991.38" "0 33554432 991.56" "125000 1048576 1021.75" "125000 32768 18174.15" \
	 "200000 32768 inf"; do
	set -- $c
	got=$(ws_iq_bound_mbps 1000000000 "$2" 2232 "$1")
	if [ "$got" = "$3" ]; then pass "testbed_bucket_bound_${2}_$1"
	else fail "testbed_bucket_bound_${2}_$1" "ws_iq_bound_mbps gave $got, want $3"; fi
done

testbed_need testbed_bucket_trials
testbed_name tk
bed_up testbed_bucket_trials "$name"
json=$WS_TMP/bench.json
if ! "$tb" exec A "$WS_BIN" iq bench "$WS_B" --trials 6 --samples 32768,1048576 \
	--json-file "$json" >"$WS_TMP/bench.txt" 2>&1; then
	fail testbed_bucket_trials "iq bench failed: $(cat "$WS_TMP/bench.txt")"
	finish
fi
# write goes A -> B (A's veth), read B -> A (B's veth).
for d in write read; do
	[ $d = write ] && ns=$name-a || ns=$name-b
	burst=$(ws_tbf_burst "$ns" veth0)
	for s in 32768 1048576; do
		mx=$(ws_iq_json_field "$json" $d $s max_mbps)
		b=$(ws_iq_bound_mbps 1000000000 $s 2232 "$burst")
		c=$(ws_iq_bound_mbps 1000000000 $s 2232 0)
		echo "# $d $s: fastest trial $mx Mb/s, ceiling $c, bucket $burst bytes allows $b"
		if [ "$burst" -gt 0 ] && awk -v m="${mx:-x}" -v b="$b" 'BEGIN { exit !(m + 0 > 0 && m <= b * 1.005) }'; then
			pass "testbed_bucket_${d}_$s"
		else
			fail "testbed_bucket_${d}_$s" "fastest trial '$mx' Mb/s beyond what a $burst-byte bucket allows ($b)"
		fi
	done
done
finish
