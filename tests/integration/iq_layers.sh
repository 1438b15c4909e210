#!/usr/bin/env bash
# iq_layers: the modules of src/iq call each other one way only (issue 17, section 6).
# host.c once called into iqread.c / iqwrite.c and they back into it, node.c and
# node_stream.c likewise; shared pieces now live in modules below both (hostio, node_state).
# This reads the built objects' symbols (nm: each module's defined and undefined
# functions), draws an edge from every module to each module whose function it calls, and
# has tsort look for a circle. A planted circle must be found too, so the check can fail.
source "$(dirname "$0")/../lib.sh"
obj="$WS_BUILD/obj/src/iq"
if ! command -v nm >/dev/null || ! command -v tsort >/dev/null; then
	skip iq_layers "nm or tsort missing"
	finish
fi
if ! ls "$obj"/*.o >/dev/null 2>&1; then
	fail iq_layers "no objects in $obj"
	finish
fi

# "caller callee" lines, one per module pair with a call, plus "m m" so every module is in.
edges() {
	local o m
	for o in "$obj"/*.o; do
		m=$(basename "$o" .o)
		nm "$o" | awk -v m="$m" 'NF == 3 && $2 ~ /^[TDBR]$/ {print "D", m, $3}
					  NF == 2 && $1 == "U" {print "U", m, $2}'
	done | awk '$1 == "D" {def[$3] = $2; next} {use[++n] = $2 " " $3}
		    END {for (i = 1; i <= n; i++) {split(use[i], u, " ");
			   if (u[2] in def && def[u[2]] != u[1]) print u[1], def[u[2]]}}' | sort -u
	for o in "$obj"/*.o; do echo "$(basename "$o" .o) $(basename "$o" .o)"; done
}

e=$(edges)
out=$(echo "$e" | tsort 2>&1 >/dev/null)
if [ -n "$out" ]; then
	fail iq_modules_one_way "a circle among src/iq modules: $(echo "$out" | tr '\n' ' ')"
else
	pass iq_modules_one_way
fi
for pair in "host iqread" "host iqwrite" "node node_stream" "node node_cmd"; do
	set -- $pair
	if echo "$e" | grep -qx "$1 $2" && ! echo "$e" | grep -qx "$2 $1"; then
		pass "iq_layers_$1_over_$2"
	else
		fail "iq_layers_$1_over_$2" "expected $1 to call $2 and not the reverse"
	fi
done
# The check itself: a planted back edge is a circle tsort reports.
planted=$(printf '%s\nhostio host\n' "$e" | tsort 2>&1 >/dev/null)
if [ -n "$planted" ]; then pass iq_layers_check_can_fail
else fail iq_layers_check_can_fail "tsort found no circle with hostio -> host planted"; fi
finish
