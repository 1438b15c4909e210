#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# warpspeed over an emulated jumbo-frame Gigabit link: brings bench/testbed up with the
# gige-jumbo profile, runs a 2 s TCP_STREAM from namespace A to a warpspeed daemon in B,
# checks the throughput lies between 90% and 100% of the link's TCP payload ceiling, tears
# the bed down and checks that no ws-* namespace of this run is left. The upper bound
# allows what tbf legitimately lets through above its rate: the token bucket starts full,
# so a run may carry one bucket (burst) more than rate * time; plus 0.5% for timing.
# shellcheck source=tests/testbed_lib.sh
. "$(dirname "$0")/../testbed_lib.sh"
secs=2
testbed_need testbed_gige_jumbo_stream testbed_gige_jumbo_no_leftovers
if ! "$ws_bin" -V >/dev/null 2>&1; then
	fail testbed_gige_jumbo_stream "warpspeed at $ws_bin does not run ('-V' failed)"
	exit 1
fi

before=$(ws_namespaces)
testbed_name tj
testbed_up testbed_gige_jumbo_stream gige-jumbo
ceiling=$("$tb" ceiling gige-jumbo)
burst=$(tc -n "$name-a" -j qdisc show dev veth0 2>/dev/null | tr ',{}' '\n' | awk -F: '$1 == "\"burst\"" { print $2; exit }')
[[ ${burst:-} =~ ^[0-9]+$ ]] || burst=0

ip netns exec "$name-b" "$ws_bin" serve -L "$WS_B" >/dev/null 2>&1 &
for _ in $(seq 1 50); do
	ip netns exec "$name-b" ss -Hltn 'sport = :12865' | grep -q . && break
	sleep 0.1
done
out=$(ip netns exec "$name-a" "$ws_bin" -H "$WS_B" -l "$secs" -P 0 -v 1 2>&1); rc=$?
mbps=$(echo "$out" | awk 'NF >= 5 { r = $5 } END { print r }')

if [ $rc -ne 0 ] || ! [[ $mbps =~ ^[0-9.]+$ ]]; then
	fail testbed_gige_jumbo_stream "warpspeed exited $rc, output: $out"
else
	verdict=$(awk -v m="$mbps" -v c="$ceiling" -v b="$burst" -v s="$secs" 'BEGIN {
		lo = 0.90 * c; hi = c + b * 8 / s / 1e6 + 0.005 * c
		printf "%s %.1f%% of the ceiling %s (accepted %.2f..%.2f)", (m >= lo && m <= hi) ? "ok" : "out", 100 * m / c, c, lo, hi }')
	if [[ $verdict == ok* ]]; then
		echo "# gige-jumbo TCP_STREAM: $mbps 10^6bits/s, ${verdict#ok }"
		pass testbed_gige_jumbo_stream
	else
		fail testbed_gige_jumbo_stream "$mbps 10^6bits/s is ${verdict#out }"
	fi
fi

"$tb" down "$name" >/dev/null 2>&1
testbed_no_leftovers testbed_gige_jumbo_no_leftovers "$before"
exit $failed
