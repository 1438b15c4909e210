#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# testbed_star4: the many-node test bed and `warpspeed iq` over it (root only). Brings up
# bench/testbed's star4 profile (host A on 10 Gb/s, NODE1..NODE4 on 1 Gb/s jumbo behind a
# bridge), checks the exact WS_ lines of `up` and that `exec NODE2` runs in node 2's
# namespace; starts a `warpspeed node` in each node namespace, writes a different random
# file to each of the four at once (paced to the nodes' 1 Gb/s), triggers each, reads all
# four back at once and compares bit for bit; then tears the bed down and checks that no
# namespace of it is left.
# shellcheck source=tests/testbed_lib.sh
. "$(dirname "$0")/../testbed_lib.sh"
testbed_need star4_up star4_exec star4_many_bit_exact star4_no_leftovers
testbed_name ts4
T=$(mktemp -d /tmp/ws-star4.XXXXXX)
# shellcheck disable=SC2317 # called by the EXIT trap (tests/testbed_lib.sh)
testbed_cleanup() { rm -rf "$T"; }

testbed_up star4_up star4
want=$(printf 'WS_TESTBED_NAME=%s\nWS_A=198.18.0.1\nWS_NODE1=198.18.0.11\nWS_NODE2=198.18.0.12\nWS_NODE3=198.18.0.13\nWS_NODE4=198.18.0.14' "$name")
if [ "$TB_ENV" = "$want" ]; then pass star4_up; else fail star4_up "printed [$TB_ENV]"; fi
a2=$("$tb" exec NODE2 ip -o -4 addr show dev veth0 2>&1 | awk '{ print $4 }')
"$tb" exec B true >"$T/b.err" 2>&1
rcb=$?
if [ "$a2" = 198.18.0.12/24 ] && [ $rcb = 2 ] && grep -q "has no side B" "$T/b.err"; then
	pass star4_exec
else
	fail star4_exec "NODE2 has [$a2]; exec B: status $rcb $(head -c 200 "$T/b.err")"
fi

nodes=()
for k in 1 2 3 4; do
	v=WS_NODE$k
	"$tb" exec "NODE$k" "$ws_bin" node --bind "${!v}" --reply-rate off --tx-samples 2M \
		--rx-samples 2M --serial "$k" --quiet >"$T/node$k.log" 2>&1 &
	pids+=("$!")
	nodes+=("${!v}")
done
all=$(IFS=,; echo "${nodes[*]}")
for k in 1 2 3 4; do
	v=WS_NODE$k
	for _ in $(seq 1 50); do
		"$tb" exec A "$ws_bin" iq ping "${!v}" --count 1 >/dev/null 2>&1 && break
		sleep 0.1
	done
done
ins='' outs=''
for k in 1 2 3 4; do
	head -c 4194304 /dev/urandom >"$T/x$k.ci16" # 2^20 samples
	ins+=${ins:+,}$T/x$k.ci16
	outs+=${outs:+,}$T/y$k.ci16
done
ok=1
"$tb" exec A "$ws_bin" iq write "$all" --rf A -i "$ins" --write-rate 1000 >"$T/run.log" 2>&1 || ok=0
for k in 1 2 3 4; do
	v=WS_NODE$k
	[ $ok = 1 ] && { "$tb" exec A "$ws_bin" iq trigger "${!v}" >>"$T/run.log" 2>&1 || ok=0; }
done
[ $ok = 1 ] && { "$tb" exec A "$ws_bin" iq read "$all" --rf A --samples 1048576 -o "$outs" \
	>>"$T/run.log" 2>&1 || ok=0; }
for k in 1 2 3 4; do [ $ok = 1 ] && { cmp -s "$T/x$k.ci16" "$T/y$k.ci16" || ok=0; }; done
if [ $ok = 1 ]; then pass star4_many_bit_exact; else fail star4_many_bit_exact "$(tail -c 400 "$T/run.log")"; fi

for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
pids=()
"$tb" down "$name" >/dev/null 2>&1
testbed_no_leftovers star4_no_leftovers
exit $failed
