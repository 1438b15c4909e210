#!/usr/bin/env bash
# iq_bench.sh: issue 5's IQ benchmarks. The node emulator runs in namespace B of the test
# bed, `warpspeed iq bench` in A, WARPLab's seed sizes 2^15 .. 2^25, medians of the kept
# trials (the first 5 of each size are dropped, as wl_benchmark does):
#   gige-jumbo        Read and Write >= 985 Mb/s at 2^25, >= 850 Mb/s at 2^15
#   lossy-gige-jumbo  (1 % loss) Read and Write >= 90 % of the lossless median, per size,
#                     and a write -> trigger -> read of 2^23 random samples bit-exact
#   loopback          (built-in node, no rate limit) Gb/s and host CPU time per MB
# Usage: bench/iq_bench.sh [build-dir] [trials]   (root; exits 1 when a check fails)
# Each bed is torn down on exit, also after a failure or ^C.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-build}
trials=${2:-10}
ws=$root/$build/warpspeed
tb=$here/testbed
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
sizes=32768,131072,1048576,8388608,33554432
out=$(mktemp -d /tmp/ws-iqbench.XXXXXX)
beds=()
cleanup() {
	local b
	for b in "${beds[@]}"; do "$tb" down "$b" >/dev/null 2>&1; done
	rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
rc=0
check() { # verdict text
	if [ "$1" = ok ]; then echo "PASS $2"; else echo "FAIL $2"; rc=1; fi
}
# median NAME DIR SAMPLES: median Mb/s of one JSON row's direction.
median() {
	awk -v s="\"samples\": $3," -v d="\"$2\":" '
		index($0, s) { row = 1; next }
		row && index($0, d) { match($0, /"median_mbps": [0-9.]+/);
			print substr($0, RSTART + 15, RLENGTH - 15); exit }' "$1"
}
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

if why=$(ws_testbed_missing); then
	echo "iq_bench.sh: the test bed cannot run here: $why" >&2
	exit 4
fi
[ -x "$ws" ] || { echo "iq_bench.sh: $ws missing (make)" >&2; exit 2; }

# bed PROFILE: bring a bed up, start the node in B, run the bench from A into $out/PROFILE.
bed() {
	local p=$1 name=ws-iq$$-${#beds[@]} env
	env=$("$tb" up "$p" --name "$name") || { echo "FAIL $p: bench/testbed up: $env"; rc=1; return 1; }
	beds+=("$name")
	eval "$env"
	# The link under test is the limit, not the node: no per-source reply cap (a node's
	# default, 1 Gb/s, would cap the 10 GbE profiles); the node's default allow list is
	# the test bed's own subnet.
	"$tb" exec B "$ws" node --bind "$WS_B" --reply-rate off --quiet >"$out/$p.node" 2>&1 &
	local i
	for i in $(seq 1 50); do
		"$tb" exec A "$ws" iq ping "$WS_B" --count 1 >/dev/null 2>&1 && break
		sleep 0.1
	done
	echo "== $p: warpspeed iq bench $WS_B --trials $trials --samples $sizes   (node: warpspeed node in B, --reply-rate off)"
	"$tb" exec A "$ws" iq bench "$WS_B" --trials "$trials" --samples "$sizes" -v \
		--json-file "$out/$p.json" 2>"$out/$p.err" | tee "$out/$p.txt"
	cat "$out/$p.err"
	[ -s "$out/$p.json" ] || { echo "FAIL $p: no results"; rc=1; return 1; }
	# Bit-exact under this link: write 2^23 random samples, trigger, read back, compare.
	head -c 33554432 /dev/urandom >"$out/x.ci16"
	if "$tb" exec A "$ws" iq write "$WS_B" --rf A -i "$out/x.ci16" >/dev/null &&
		"$tb" exec A "$ws" iq trigger "$WS_B" >/dev/null &&
		"$tb" exec A "$ws" iq read "$WS_B" --rf A --samples 8388608 -o "$out/y.ci16" >/dev/null &&
		cmp -s "$out/x.ci16" "$out/y.ci16"; then
		check ok "$p: write -> trigger -> read of 2^23 random samples is bit-exact"
	else
		check bad "$p: write -> trigger -> read of 2^23 random samples is bit-exact"
	fi
	"$tb" down "$name" >/dev/null 2>&1
}

bed gige-jumbo
bed lossy-gige-jumbo
g=$out/gige-jumbo.json l=$out/lossy-gige-jumbo.json
echo
echo "== checks (medians of the kept trials, Mb/s of IQ payload; tbf ceiling 991.6)"
if [ -s "$g" ]; then
	for d in read write; do
		m=$(median "$g" "$d" 33554432)
		ge "${m:-0}" 985 && v=ok || v=bad
		check $v "gige-jumbo 2^25 $d median $m >= 985 (WARPLab MEX: $([ $d = read ] && echo 976.47 || echo 751.38))"
		m=$(median "$g" "$d" 32768)
		ge "${m:-0}" 850 && v=ok || v=bad
		check $v "gige-jumbo 2^15 $d median $m >= 850 (WARPLab MEX: $([ $d = read ] && echo 564.20 || echo 450.28))"
	done
fi
if [ -s "$g" ] && [ -s "$l" ]; then
	for s in ${sizes//,/ }; do
		for d in read write; do
			a=$(median "$g" "$d" "$s") b=$(median "$l" "$d" "$s")
			pct=$(awk -v a="${a:-0}" -v b="${b:-0}" 'BEGIN { printf "%.1f", (a > 0 ? 100 * b / a : 0) }')
			ge "$pct" 90 && v=ok || v=bad
			check $v "lossy-gige-jumbo $s $d median $b = $pct% of lossless $a (>= 90%)"
		done
	done
fi

echo
echo "== loopback: built-in node, no rate limit"
"$ws" iq bench --trials "$trials" --samples 32768,1048576,33554432 --json-file "$out/lo.json"
awk '/"samples"/ { match($0, /"samples": [0-9]+/); s = substr($0, RSTART + 11, RLENGTH - 11) }
	/"write"|"read"/ { d = ($0 ~ /"write"/) ? "write" : "read"
		match($0, /"median_mbps": [0-9.]+/); m = substr($0, RSTART + 15, RLENGTH - 15)
		match($0, /"cpu_us_per_mb": [0-9.]+/); c = substr($0, RSTART + 17, RLENGTH - 17)
		printf "loopback %9s samples %-5s median %6.2f Gb/s, host CPU %7.1f us per MB\n", s, d, m / 1000, c }' \
	"$out/lo.json"
exit $rc
