#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# RRUL and RPM on the bufferbloat beds (issue 30): on gige-bloat (100 ms queue in the
# middle hop) and gige-shallow (5 ms), a short 'warpspeed -t RRUL' against 'warpspeed
# serve' in B, its summary and JSON structure, its Flent file read back by the real flent,
# and that the loaded UDP latency of the bloat bed exceeds the shallow bed's by more than
# 20 ms (the old beds, shaped on the senders' own veths under BBR, measured 5.7 and 5.6 ms:
# this fails on them); then a short 'warpspeed -t RPM' on each, and that the shallow
# bed's RPM is more than twice the bloat bed's. Prints the figures.
# shellcheck source=tests/testbed_lib.sh
. "$(dirname "$0")/../testbed_lib.sh"
tests="summary flent rpm"

# shellcheck disable=SC2046 # check names without spaces
testbed_need $(for b in bloat shallow; do for t in $tests; do echo "testbed_rrul_${b}_$t"; done; done) \
	testbed_rrul_bloat_vs_shallow testbed_rpm_bloat_lower testbed_rrul_no_leftovers
testbed_name tr
tmp=$(mktemp -d)
serve=
cleanup() {
	[ -z "$serve" ] || { kill "$serve" 2>/dev/null; wait "$serve" 2>/dev/null; }
	serve=
	"$tb" down "$name" >/dev/null 2>&1
}
# shellcheck disable=SC2317 # called by the EXIT trap (tests/testbed_lib.sh)
testbed_cleanup() { cleanup; rm -rf "$tmp"; }

# The Flent names of every series a 4-up 4-down RRUL run with UDP and TCP probes carries.
series="TCP upload BE|TCP upload BK|TCP upload CS5|TCP upload EF|TCP download BE|TCP download BK|TCP download CS5|TCP download EF|Ping (ms) UDP BE|Ping (ms) UDP BK|Ping (ms) UDP EF|Ping (ms) TCP BE"

# bed B: RRUL and RPM on gige-B; leaves the loaded UDP median in loaded_B. flent reads the
# RRUL run's file while RPM runs (it needs no bed), so the two overlap.
bed() {
	local b=$1 out rc j f r
	if ! out=$("$tb" up "gige-$b" --name "$name" 2>&1); then
		for t in $tests; do fail "testbed_rrul_${b}_$t" "bench/testbed up gige-$b failed: $out"; done
		return
	fi
	ip netns exec "$name-b" "$ws_bin" serve -p 40000 -L 198.18.0.2 >"$tmp/serve.log" 2>&1 &
	serve=$!
	for _ in $(seq 1 50); do
		ip netns exec "$name-b" ss -Hltn 'sport = :40000' | grep -q . && break
		sleep 0.1
	done
	j=$tmp/$b.json f=$tmp/$b.flent.gz
	out=$(ip netns exec "$name-a" "$ws_bin" -H 198.18.0.2 -p 40000 -t RRUL -l 2 --delay 1 \
		--flent "$f" --json-file "$j" 2>&1)
	rc=$?
	r=$(python3 - "$j" "$series" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))["rrul"]
names = sorted(s["name"] for s in d["series"])
want = sorted(sys.argv[2].split("|"))
assert d["up"] == 4 and d["down"] == 4, (d["up"], d["down"])
assert names == want, names
assert all(s["samples"] >= 10 and len(s["v"]) == s["samples"] for s in d["series"]), [s["samples"] for s in d["series"]]
print("ok")
PY
	)
	local missing="" s
	while IFS= read -r s; do
		[[ $out == *"$s "* ]] || missing+="'$s' "
	done < <(printf '%s\n' "$series" | tr '|' '\n'; echo "TCP upload sum"; echo "TCP download sum")
	if [ $rc -eq 0 ] && [ "$r" = ok ] && [ -z "$missing" ]; then
		pass "testbed_rrul_${b}_summary"
	else
		fail "testbed_rrul_${b}_summary" "rc $rc, JSON: $r, summary lacks: ${missing:-nothing}; output: $(echo "$out" | tail -5)"
	fi
	local fl=
	if command -v flent >/dev/null 2>&1; then
		flent -i "$f" -f summary >"$tmp/$b.sum" 2>"$tmp/$b.err" &
		fl=$!
	fi
	# idle_ms loaded_udp_ms up_mbps down_mbps lost, read from the Flent file.
	r=$("$root/bench/rrul_figures.py" "$f" 2>&1) || r="nan nan nan nan nan"
	echo "# gige-$b RRUL (-l 2 --delay 1): idle $(echo "$r" | awk '{ print $1 }') ms, loaded UDP $(echo "$r" | awk '{ print $2 }') ms, up $(echo "$r" | awk '{ print $3 }') Mb/s, down $(echo "$r" | awk '{ print $4 }') Mb/s"
	printf -v "loaded_$b" %s "$(echo "$r" | awk '{ print $2 }')"
	out=$(ip netns exec "$name-a" "$ws_bin" -H 198.18.0.2 -p 40000 -t RPM -l 3 -P 0 -v 0 2>&1)
	rc=$?
	printf -v "rpm_$b" %s "$out"
	echo "# gige-$b RPM (-l 3): $out"
	if [ $rc -eq 0 ] && [[ $out =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
		pass "testbed_rrul_${b}_rpm"
	else
		fail "testbed_rrul_${b}_rpm" "rc $rc, output: $out (want one number)"
	fi
	if [ -z "$fl" ]; then
		skip "testbed_rrul_${b}_flent" "flent is not installed (Debian package flent)"
	elif wait "$fl" && grep -q '^ *Ping (ms) UDP EF *:' "$tmp/$b.sum" &&
		grep -q '^ *TCP download sum *:' "$tmp/$b.sum"; then
		pass "testbed_rrul_${b}_flent"
	else
		fail "testbed_rrul_${b}_flent" "flent -i read: $(head -c 300 "$tmp/$b.sum") $(tail -2 "$tmp/$b.err")"
	fi
	cleanup
}

loaded_bloat=nan loaded_shallow=nan rpm_bloat=nan rpm_shallow=nan
bed bloat
bed shallow
if awk -v a="$loaded_bloat" -v b="$loaded_shallow" 'BEGIN { exit !(a - b > 20) }'; then
	echo "# loaded UDP latency, bloat - shallow: $(awk -v a="$loaded_bloat" -v b="$loaded_shallow" 'BEGIN { printf "%.1f", a - b }') ms; RPM bloat $rpm_bloat, shallow $rpm_shallow"
	pass testbed_rrul_bloat_vs_shallow
else
	fail testbed_rrul_bloat_vs_shallow "loaded UDP latency bloat $loaded_bloat ms, shallow $loaded_shallow ms: want bloat more than 20 ms above shallow"
fi

# RPM: measured 736 and 908 on gige-bloat against 12895 and 13321 on gige-shallow (and
# medians 813 and 12771 in bench/rrul.sh), so a factor of 2 is a wide margin.
if awk -v a="$rpm_bloat" -v b="$rpm_shallow" 'BEGIN { exit !(a > 0 && b > 2 * a) }'; then
	pass testbed_rpm_bloat_lower
else
	fail testbed_rpm_bloat_lower "RPM bloat $rpm_bloat, shallow $rpm_shallow: want shallow more than twice bloat"
fi

# Only this run's namespaces: other runs may build and remove beds meanwhile.
new=$(ws_namespaces | grep "^$name-")
if [ -z "$new" ]; then
	pass testbed_rrul_no_leftovers
else
	fail testbed_rrul_no_leftovers "ws-* namespaces left: $(echo "$new" | tr "\n" " ")"
fi
exit $failed
