#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# iq_layers: the modules of src/iq/wire, src/iq/host and src/iq/node call each other one way
# only (issue 17, section 6; issue 28 split the folder by role).
# host.c once called into iqread.c / iqwrite.c and they back into it, node.c and
# node_stream.c likewise; shared pieces now live in modules below both (hostio, node_state).
# This reads the built objects' symbols (nm: each module's defined functions, ifuncs
# included, and undefined ones), draws an edge from every module to each module whose
# function it calls, and has tsort look for a circle. Across the folders, calls go from
# host/ or node/ down to wire/ only (layering.sh checks the same of the includes). A
# planted circle and a planted call from host/ into node/ must be found too, so the checks
# can fail.
source "$(dirname "$0")/../lib.sh"
obj="$WS_BUILD/obj/src/iq"
roles="wire host node"
if ! command -v nm >/dev/null || ! command -v tsort >/dev/null; then
	skip iq_layers "nm or tsort missing"
	finish
fi
for r in $roles; do
	if ! ls "$obj/$r"/*.o >/dev/null 2>&1; then
		fail iq_layers "no objects in $obj/$r"
		finish
	fi
done
objs=()
for r in $roles; do objs+=("$obj/$r"/*.o); done

# "caller callee" lines, one per module pair with a call, plus "m m" so every module is in.
edges() {
	local o m
	for o in "${objs[@]}"; do
		m=$(basename "$o" .o)
		nm "$o" | awk -v m="$m" 'NF == 3 && $2 ~ /^[TDBRi]$/ {print "D", m, $3}
					  NF == 2 && $1 == "U" {print "U", m, $2}'
	done | awk '$1 == "D" {def[$3] = $2; next} {use[++n] = $2 " " $3}
		    END {for (i = 1; i <= n; i++) {split(use[i], u, " ");
			   if (u[2] in def && def[u[2]] != u[1]) print u[1], def[u[2]]}}' | sort -u
	for o in "${objs[@]}"; do echo "$(basename "$o" .o) $(basename "$o" .o)"; done
}

# "module role" lines; module names are unique across the three folders.
declare -A role=()
for o in "${objs[@]}"; do
	m=$(basename "$o" .o)
	[ -z "${role[$m]:-}" ] || fail iq_layers_unique "module $m is in two folders"
	role[$m]=$(basename "$(dirname "$o")")
done

# Edges (on stdin) that cross folders other than down to wire/.
crossing() {
	local a b
	while read -r a b; do
		[ "${role[$a]}" = "${role[$b]}" ] || [ "${role[$b]}" = wire ] ||
			echo "$a (${role[$a]}) calls $b (${role[$b]})"
	done
}

e=$(edges)
out=$(echo "$e" | tsort 2>&1 >/dev/null)
if [ -n "$out" ]; then
	fail iq_modules_one_way "a circle among src/iq modules: $(echo "$out" | tr '\n' ' ')"
else
	pass iq_modules_one_way
fi
out=$(echo "$e" | crossing)
if [ -n "$out" ]; then
	fail iq_roles_down_to_wire "$(echo "$out" | head -n 5 | tr '\n' ';')"
else
	pass iq_roles_down_to_wire
fi
for pair in "host iqread" "host iqwrite" "node node_stream" "node node_cmd" "hostio wire" \
	"node_cmd wire" "iqread iqconv"; do
	set -- $pair
	if echo "$e" | grep -qx "$1 $2" && ! echo "$e" | grep -qx "$2 $1"; then
		pass "iq_layers_$1_over_$2"
	else
		fail "iq_layers_$1_over_$2" "expected $1 to call $2 and not the reverse"
	fi
done
# The checks themselves: a planted back edge is a circle tsort reports, and a planted call
# from the host into the node (and from wire/ up into the host) crosses the roles.
planted=$(printf '%s\nhostio host\n' "$e" | tsort 2>&1 >/dev/null)
if [ -n "$planted" ]; then pass iq_layers_check_can_fail
else fail iq_layers_check_can_fail "tsort found no circle with hostio -> host planted"; fi
planted=$(printf 'iqread node_state\nwire hostio\nnode_cmd wire\n' | crossing | wc -l)
if [ "$planted" -eq 2 ]; then pass iq_roles_check_can_fail
else fail iq_roles_check_can_fail "found $planted of 2 planted crossings"; fi
finish
