#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# iq_fast_bench.sh: issue 17's transport benchmarks (sections 2-4), each short, each
# saying the conditions it ran under (load average before and after, rounds):
#   formats  loopback, built-in node, 2^20 samples: raw, ci16 and cf32 in alternating
#            runs (raw ci16 cf32 raw ci16 cf32 ...); medians over the runs of each run's
#            median; check cf32 >= 0.8 x raw, read and write
#   star4    the star4 bed (host 10 Gb/s, four nodes 1 Gb/s jumbo): `iq bench` to all four
#            at once at 2^22, writes paced to 1000 Mb/s per node; check aggregate read and
#            write >= 3900 Mb/s (98 % of 4 x 991.6), plus write -> trigger -> read of a
#            different 2^22 file per node, all at once, bit-exact
#   10g      10gige-jumbo: 2^20 .. 2^25, % of the 9915.6 Mb/s IQ ceiling, and where the
#            CPU goes: the host thread's CPU per sample per direction (from the JSON), the
#            node process's and the machine's busy time over the run (/proc)
# Usage: bench/iq_fast_bench.sh [formats|star4|10g|all] [build-dir] [rounds]
# (star4 and 10g need root; exits 1 when a check fails)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
what=${1:-all}
build=${2:-build}
rounds=${3:-5}
ws=$root/$build/warpspeed
tb=$here/testbed
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
out=$(mktemp -d /tmp/ws-iqfast.XXXXXX)
beds=() pids=()
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	local p b
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	for b in "${beds[@]}"; do "$tb" down "$b" >/dev/null 2>&1; done
	rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
rc=0
check() { if [ "$1" = ok ]; then echo "PASS $2"; else echo "FAIL $2"; rc=1; fi; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
# field FILE DIR KEY [after]: KEY of the first "DIR": object (after the line matching
# "after", e.g. "aggregate"), from `iq bench --json`.
field() {
	awk -v d="\"$2\": {" -v k="\"$3\": " -v a="${4:-}" '
		a != "" && !seen { if (index($0, a)) seen = 1; next }
		index($0, d) { s = substr($0, index($0, d)); i = index(s, k)
			s = substr(s, i + length(k)); sub(/[,}].*/, "", s); print s; exit }' "$1"
}
med() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
[ -x "$ws" ] || { echo "iq_fast_bench.sh: $ws missing (make)" >&2; exit 2; }

bench_formats() {
	local r f d
	declare -A got
	echo "== formats: loopback, built-in node, 2^20 samples, 15 trials per run, $rounds rounds of raw ci16 cf32; load $(load)"
	for r in $(seq 1 "$rounds"); do
		for f in raw ci16 cf32; do
			"$ws" iq bench --trials 15 --samples 1048576 --format "$f" --json >"$out/f.json" 2>/dev/null || { check fail "formats: iq bench --format $f"; return; }
			for d in write read; do got[$f.$d]+="$(field "$out/f.json" "$d" median_mbps) "; done
		done
	done
	printf '%-5s %12s %12s %10s %10s\n' format write_Mb/s read_Mb/s write/raw read/raw
	for f in raw ci16 cf32; do
		for d in write read; do got[$f.$d.m]=$(echo "${got[$f.$d]}" | med); done
		printf '%-5s %12.1f %12.1f %10.3f %10.3f\n' "$f" "${got[$f.write.m]}" "${got[$f.read.m]}" \
			"$(awk -v a="${got[$f.write.m]}" -v b="${got[raw.write.m]}" 'BEGIN { print a / b }')" \
			"$(awk -v a="${got[$f.read.m]}" -v b="${got[raw.read.m]}" 'BEGIN { print a / b }')"
	done
	echo "   load after: $(load)"
	for d in write read; do
		if ge "${got[cf32.$d.m]}" "$(awk -v b="${got[raw.$d.m]}" 'BEGIN { print 0.8 * b }')"; then
			check ok "formats: cf32 $d ${got[cf32.$d.m]} >= 0.8 x raw ${got[raw.$d.m]}"
		else
			check fail "formats: cf32 $d ${got[cf32.$d.m]} < 0.8 x raw ${got[raw.$d.m]}"
		fi
	done
}

bench_star4() {
	local name=ws-iqs$$ env k v all='' ins='' outs='' ok=1 d agg
	env=$("$tb" up star4 --name "$name") || { check fail "star4: bench/testbed up: $env"; return; }
	beds+=("$name")
	eval "$env"
	export WS_TESTBED_NAME=$name
	ws_star4_nodes "$tb" "$ws" "$out"
	all=$ws_star4_targets
	echo "== star4: warpspeed iq bench $all --trials $((rounds + 5)) --samples 4194304 --write-rate 1000; load $(load)"
	"$tb" exec A "$ws" iq bench "$all" --trials "$((rounds + 5))" --samples 4194304 --write-rate 1000 -v \
		--json-file "$out/s.json" 2>"$out/s.err" | tee "$out/s.txt"
	grep -o 'write_fallbacks=[0-9]*\|checksum_mismatches=[0-9]*\|timeouts=[0-9]*' "$out/s.err" | tr '\n' ' '
	echo
	echo "   load after: $(load)"
	for d in write read; do
		agg=$(field "$out/s.json" "$d" avg_mbps aggregate)
		if [ -n "$agg" ] && ge "$agg" 3900; then
			check ok "star4: aggregate $d $agg Mb/s >= 3900 (median $(field "$out/s.json" "$d" median_mbps aggregate))"
		else
			check fail "star4: aggregate $d ${agg:-none} Mb/s < 3900"
		fi
	done
	for k in 1 2 3 4; do
		head -c 16777216 /dev/urandom >"$out/x$k.ci16"
		ins+=${ins:+,}$out/x$k.ci16
		outs+=${outs:+,}$out/y$k.ci16
	done
	"$tb" exec A "$ws" iq write "$all" --rf A -i "$ins" --write-rate 1000 >/dev/null || ok=0
	for k in 1 2 3 4; do
		v=WS_NODE$k
		[ $ok = 1 ] && { "$tb" exec A "$ws" iq trigger "${!v}" >/dev/null || ok=0; }
	done
	[ $ok = 1 ] && { "$tb" exec A "$ws" iq read "$all" --rf A --samples 4194304 -o "$outs" >/dev/null || ok=0; }
	for k in 1 2 3 4; do [ $ok = 1 ] && { cmp -s "$out/x$k.ci16" "$out/y$k.ci16" || ok=0; }; done
	if [ $ok = 1 ]; then check ok "star4: 4 nodes at once, 2^22 each, write -> trigger -> read bit-exact"
	else check fail "star4: 4-node roundtrip not bit-exact"; fi
}

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
softirq_ticks() { awk '/^cpu / { print $8 }' /proc/stat; }

bench_10g() {
	local name=ws-iqt$$ env node s d n0 n1 b0 b1 ceiling=9915.6 q0 q1 t0 t1
	env=$("$tb" up 10gige-jumbo --name "$name") || { check fail "10g: bench/testbed up: $env"; return; }
	beds+=("$name")
	eval "$env"
	export WS_TESTBED_NAME=$name
	"$tb" exec B "$ws" node --bind "$WS_B" --reply-rate off --quiet >"$out/n.log" 2>&1 &
	node=$!
	pids+=("$node")
	for _ in $(seq 1 50); do "$tb" exec A "$ws" iq ping "$WS_B" --count 1 >/dev/null 2>&1 && break; sleep 0.1; done
	echo "== 10gige-jumbo: iq bench $WS_B --trials $((rounds + 5)) per size; ceiling $ceiling Mb/s; load $(load); $(nproc) CPUs"
	printf '%9s %10s %6s %10s %6s %9s %9s %9s %9s %9s\n' samples write %ceil read %ceil \
		host_w host_r node softirq busy
	printf '%9s %10s %6s %10s %6s %9s %9s %9s %9s %9s\n' "" Mb/s "" Mb/s "" ns/smp ns/smp \
		"%core" "%core" "%cores"
	for s in 1048576 2097152 4194304 8388608 16777216 33554432; do
		n0=$(cpu_ticks "$node") b0=$(busy_ticks) q0=$(softirq_ticks) t0=$(date +%s%N)
		"$tb" exec A "$ws" iq bench "$WS_B" --trials "$((rounds + 5))" --samples "$s" --json \
			>"$out/t.json" 2>/dev/null || { check fail "10g: iq bench at $s"; continue; }
		n1=$(cpu_ticks "$node") b1=$(busy_ticks) q1=$(softirq_ticks) t1=$(date +%s%N)
		local w r hw hr wm rm
		w=$(field "$out/t.json" write median_mbps) r=$(field "$out/t.json" read median_mbps)
		hw=$(field "$out/t.json" write cpu_us_per_mb) hr=$(field "$out/t.json" read cpu_us_per_mb)
		wm=$(field "$out/t.json" write avg_ms) rm=$(field "$out/t.json" read avg_ms)
		# node: share of the calls' own time (trials x (write + read) mean); softirq and
		# busy: of the whole run's wall time; in 10 ms ticks.
		awk -v s="$s" -v w="$w" -v r="$r" -v c="$ceiling" -v hw="$hw" -v hr="$hr" \
			-v n="$((n1 - n0))" -v q="$((q1 - q0))" -v b="$((b1 - b0))" -v wall="$(( (t1 - t0) / 10000000 ))" \
			-v t="$(awk -v k="$((rounds + 5))" -v a="$wm" -v b="$rm" 'BEGIN { print k * (a + b) / 10 }')" 'BEGIN {
			printf "%9d %10.1f %6.1f %10.1f %6.1f %9.2f %9.2f %9.0f %9.0f %9.0f\n", s, w,
				100 * w / c, r, 100 * r / c, hw / 250, hr / 250, 100 * n / t, 100 * q / wall,
				100 * b / wall }'
		for d in w r; do
			v=$w; [ $d = r ] && v=$r
			ge "$v" "$(awk -v c="$ceiling" 'BEGIN { print 0.95 * c }')" ||
				echo "   below 95 %: $([ $d = w ] && echo write || echo read) at $s"
		done
	done
	echo "   (host ns/smp: the calling thread's CPU per IQ sample, per direction; node: the node"
	echo "    process per the calls' own time; softirq and busy: the machine's softirq and all"
	echo "    its busy time (other users' too) per the run's wall time; /proc; load after: $(load))"
}

case $what in
formats) bench_formats ;;
star4) bench_star4 ;;
10g) bench_10g ;;
all) bench_formats; bench_star4; bench_10g ;;
*) echo "usage: bench/iq_fast_bench.sh [formats|star4|10g|all] [build-dir] [rounds]" >&2; exit 2 ;;
esac
exit $rc
