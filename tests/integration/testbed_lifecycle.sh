#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# The link emulator's own contract, without traffic: the payload ceilings and profiles it
# prints, that 'up' builds two namespaces with the right addresses, MTU and qdiscs (and
# the bufferbloat profiles' tbf limits, rate x queue, on the middle hop's ports), that
# 'exec' runs in them, that 'down' and a failed 'up' leave no namespace behind, and that nothing named ws-* is left
# at the end. Needs root for everything past the ceilings; skips otherwise.
# shellcheck source=tests/testbed_lib.sh
. "$(dirname "$0")/../testbed_lib.sh"
testbed_name tl
testbed_beds+=("$name-f" "$name-l" "$name-w" "$name-q")
before=""

# The ceilings the issue asks for, computed as rate * (MTU - 52) / (MTU + 14).
c10=$("$tb" ceiling 10mbit) c100=$("$tb" ceiling 100mbit) cj=$("$tb" ceiling gige-jumbo)
c9k=$("$tb" ceiling 10gbit 9000)
if [ "$c10" = 9.56 ] && [ "$c100" = 95.64 ] && [ "$cj" = 992.68 ] && [ "$c9k" = 9926.78 ]; then
	pass testbed_ceiling
else
	fail testbed_ceiling "got 10mbit=$c10 100mbit=$c100 gige-jumbo=$cj 10gbit/9000=$c9k, want 9.56 95.64 992.68 9926.78"
fi

# The bufferbloat profiles and their queues, as 'profiles' prints them.
prof=$("$tb" profiles 2>&1)
if [[ $prof == *"gige-bloat        1500  1 Gb/s           100 ms "* ]] &&
	[[ $prof == *"gige-shallow      1500  1 Gb/s           5 ms "* ]] &&
	[[ $prof == *"gige              1500  1 Gb/s           20 ms "* ]]; then
	pass testbed_profiles_queue
else
	fail testbed_profiles_queue "bench/testbed profiles printed: $prof"
fi

out=$("$tb" up no-such-profile 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ $out == *"unknown profile 'no-such-profile'"* ]]; then
	pass testbed_bad_profile
else
	fail testbed_bad_profile "exit $rc, output: $out"
fi

testbed_need testbed_up testbed_exec testbed_qdiscs testbed_down testbed_failed_up testbed_loss \
	testbed_wan testbed_queue_bloat testbed_queue_shallow testbed_no_leftovers
before=$(ws_namespaces)

if env=$("$tb" up gige-jumbo --name "$name" 2>&1) && eval "$env" &&
	[ "${WS_A:-}" = 198.18.0.1 ] && [ "${WS_B:-}" = 198.18.0.2 ] && [ "${WS_TESTBED_NAME:-}" = "$name" ] &&
	ip netns list | grep -q "^$name-a" && ip netns list | grep -q "^$name-b"; then
	pass testbed_up
else
	fail testbed_up "output: $env; namespaces: $(ws_namespaces | tr '\n' ' ')"
fi

a_addr=$(WS_TESTBED_NAME=$name "$tb" exec A ip -o -4 addr show dev veth0 2>&1)
b_mtu=$("$tb" --name "$name" exec B cat /sys/class/net/veth0/mtu 2>&1)
if [[ $a_addr == *"198.18.0.1/24"* ]] && [ "$b_mtu" = 9000 ]; then
	pass testbed_exec
else
	fail testbed_exec "A's address: $a_addr; B's MTU: $b_mtu (want 198.18.0.1/24 and 9000)"
fi

qa=$(tc -n "$name-a" qdisc show dev veth0 2>&1) qb=$(tc -n "$name-b" qdisc show dev veth0 2>&1)
if [[ $qa == *"tbf 1: root"*"rate 1Gbit"* ]] && [[ $qb == *"tbf 1: root"*"rate 1Gbit"* ]]; then
	pass testbed_qdiscs
else
	fail testbed_qdiscs "A: $qa; B: $qb (want a 1Gbit tbf at the root of each side)"
fi

"$tb" down "$name" >/dev/null 2>&1
left=$(ip netns list | awk -v n="$name" '$1 == n "-a" || $1 == n "-b"')
if [ -z "$left" ] && [ ! -e "${WS_TESTBED_STATE:-${XDG_RUNTIME_DIR:-/tmp}/warpspeed-testbed}/$name.env" ]; then
	pass testbed_down
else
	fail testbed_down "left behind: $left"
fi

out=$(WS_TESTBED_INJECT_FAILURE=after-veth "$tb" up 100mbit --name "$name-f" 2>&1); rc=$?
left=$(ip netns list | awk -v n="$name-f" '$1 == n "-a" || $1 == n "-b"')
if [ $rc -eq 1 ] && [ -z "$left" ]; then
	pass testbed_failed_up
else
	fail testbed_failed_up "exit $rc (want 1), left behind: $left; output: $out"
fi

# 1% loss: netem on A's egress when the kernel has it, else an nftables drop at B's ingress.
out=$("$tb" up lossy-gige-jumbo --name "$name-l" 2>&1); rc=$?
if [ $rc -ne 0 ]; then
	if [[ $out == *"needs 'nft'"* ]]; then skip testbed_loss "kernel lacks netem and nft is not installed: $out"
	else fail testbed_loss "up lossy-gige-jumbo exited $rc: $out"; fi
else
	qa=$(tc -n "$name-l-a" qdisc show dev veth0 2>&1)
	nb=$(ip netns exec "$name-l-b" nft list ruleset 2>/dev/null)
	if [[ $qa == *"netem"*"loss 1%"* ]] || [[ $nb == *"numgen random mod 1000000 < 10000"*drop* ]]; then
		pass testbed_loss
	else
		fail testbed_loss "no 1% loss found: A's qdiscs: $qa; B's nft: $nb"
	fi
fi
"$tb" down "$name-l" >/dev/null 2>&1

out=$("$tb" up wan --name "$name-w" 2>&1); rc=$?
if [ $rc -eq 0 ] && [[ $(tc -n "$name-w-a" qdisc show dev veth0) == *"netem"*"delay 25ms"*"loss 0.1%"* ]]; then
	pass testbed_wan
elif [ $rc -eq 1 ] && [[ $out == *"CONFIG_NET_SCH_NETEM"* ]]; then
	skip testbed_wan "this kernel has no netem qdisc (CONFIG_NET_SCH_NETEM), so no delay"
else
	fail testbed_wan "up wan exited $rc: $out; qdiscs: $(tc -n "$name-w-a" qdisc show dev veth0 2>&1)"
fi
"$tb" down "$name-w" >/dev/null 2>&1

# The bufferbloat profiles: tbf's limit is rate x queue, 1 Gb/s x 100 ms = 12,500,000
# bytes and x 5 ms = 625,000, in both directions on the middle hop <name>-sw (port pb
# towards B carries A->B, pa towards A carries B->A), with nothing shaping A's or B's own
# veth0 (TCP small queues would keep a queue there from filling), and TCP reno in A and B
# (tc prints tbf's limit only with -raw; its JSON gives it in bytes).
tbf_limit() { # NS DEV: the limit of the tbf on DEV, "" without one
	tc -raw -n "$1" -j qdisc show dev "$2" 2>/dev/null | python3 -c '
import json, sys
print(" ".join(str(q["options"]["limit"]) for q in json.load(sys.stdin) if q.get("kind") == "tbf"))'
}
for q in bloat:12500000 shallow:625000; do
	p=gige-${q%%:*} want=${q#*:}
	out=$("$tb" up "$p" --name "$name-q" 2>&1); rc=$?
	lab=$(tbf_limit "$name-q-sw" pb) lba=$(tbf_limit "$name-q-sw" pa)
	la=$(tbf_limit "$name-q-a" veth0) lb=$(tbf_limit "$name-q-b" veth0)
	cc=$(ip netns exec "$name-q-a" sysctl -n net.ipv4.tcp_congestion_control 2>&1)/$(ip netns exec "$name-q-b" sysctl -n net.ipv4.tcp_congestion_control 2>&1)
	sw=$("$tb" --name "$name-q" exec SW true 2>&1 && echo ok)
	if [ $rc -eq 0 ] && [ "$lab" = "$want" ] && [ "$lba" = "$want" ] && [ -z "$la$lb" ] &&
		[ "$cc" = reno/reno ] && [ "$sw" = ok ]; then
		pass "testbed_queue_${q%%:*}"
	else
		fail "testbed_queue_${q%%:*}" "up $p exited $rc ($out); tbf limits sw:pb=$lab sw:pa=$lba (want $want), A=$la B=$lb (want none); cc $cc (want reno/reno); exec SW: $sw; qdiscs: $(tc -n "$name-q-sw" qdisc show 2>&1)"
	fi
	"$tb" down "$name-q" >/dev/null 2>&1
done

testbed_exit
testbed_no_leftovers testbed_no_leftovers "$before"
exit $failed
