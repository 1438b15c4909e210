#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# mex_bench.sh: issue 18's MEX benchmark. warpspeed's wl_mex_udp_transport (make mex),
# called from Octave as WARPLab's wl_benchmark times it (bench/mex_bench.m: tic/toc around
# each whole MEX call, 5 warm-up trials dropped, Mb/s = N * 32 / mean / 1e6, writes of real
# zeros(N, 1), reads as complex double, and also as raw words), against `warpspeed node`:
#   loopback    the node on 127.0.0.1 without a reply cap (host and Octave cost)
#   gige-jumbo  the node in namespace B of bench/testbed, Octave in A (root; tbf ceiling
#               991.6 Mb/s of IQ payload), next to WARPLab 7.5.0's published MEX figures
# Usage: bench/mex_bench.sh [build-dir] [trials] [loopback|gige-jumbo|all] [sizes]
#   sizes: comma-separated sample counts (default 2^15 .. 2^25, WARPLab's table)
# WS_WARPLAB_MEX=DIR: DIR holds WARPLab's own wl_mex_udp_transport.mex built for this Octave
#   (docs/iq.md says how). The loopback run then also times it against the same node in
#   WS_MEX_ROUNDS (default 5) rounds alternating with ours, each in an Octave of its own,
#   and prints the median of the rounds and their ratios, each round's figures (lines
#   starting '#'), and the host library's raw read alone (`warpspeed iq bench`, no Octave)
#   timed in the same rounds against WARPLab's raw read. Octave runs WARPLab's MEX with
#   the heap settings our MEX gives itself (GLIBC_TUNABLES: large blocks stay in the heap),
#   so the figures compare the transports, not glibc's mmap threshold.
# Nothing on the host is changed: the tables' headings say what may disturb the run
# (ws_host_label in bench/lib.sh: DAMON monitors running, the load average).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-build}
trials=${2:-10}
which=${3:-all}
sizes=${4:-32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,33554432}
ws=$root/$build/warpspeed
tb=$here/testbed
theirs=${WS_WARPLAB_MEX:-}
rounds=${WS_MEX_ROUNDS:-5}
if [ -n "$theirs" ] && [ ! -f "$theirs/wl_mex_udp_transport.mex" ]; then
	echo "mex_bench.sh: WS_WARPLAB_MEX is '$theirs', which holds no wl_mex_udp_transport.mex;" \
		"give the folder of WARPLab's own MEX built with mkoctfile --mex" >&2
	exit 2
fi
case $rounds in
[1-9] | [1-9][0-9]) ;;
*) echo "mex_bench.sh: WS_MEX_ROUNDS is '$rounds'; accepted: 1..99" >&2; exit 2 ;;
esac
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
# WARPLab 7.5.0's MEX figures (write, read Mb/s; WARP v3, GbE, jumbo frames)
warplab='32768 450.28 564.20
65536 539.55 710.59
131072 657.33 830.45
262144 703.65 891.63
524288 721.23 923.57
1048576 734.87 946.78
2097152 745.78 963.22
4194304 748.88 969.03
8388608 754.35 972.94
16777216 754.59 975.18
33554432 751.38 976.47'
out=$(mktemp -d /tmp/ws-mexbench.XXXXXX)
pids=() beds=()
cleanup() {
	local p b
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for b in "${beds[@]}"; do "$tb" down "$b" >/dev/null 2>&1; done
	rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

command -v octave >/dev/null 2>&1 || { echo "mex_bench.sh: octave is not installed" >&2; exit 4; }
make -C "$root" -s mex BUILD="$build" >"$out/make.log" 2>&1 ||
	{ echo "mex_bench.sh: make mex failed: $(tail -n 3 "$out/make.log")" >&2; exit 2; }
mkdir -p "$out/mex" && cp "$root/$build/wl_mex_udp_transport.mex" "$out/mex/"
if [ -n "$theirs" ]; then
	mkdir -p "$out/wl" && cp "$theirs/wl_mex_udp_transport.mex" "$out/wl/"
fi
# What WARPLab's MEX runs with: our MEX's mallopt (M_MMAP_THRESHOLD, M_TRIM_THRESHOLD 1 GiB)
wl_env="env GLIBC_TUNABLES=glibc.malloc.mmap_threshold=1073741824:glibc.malloc.trim_threshold=1073741824"
msizes="[${sizes//,/ }]"
ws_host_noise mex_bench.sh
host=$(ws_host_label)

# run NAME PREFIX IP PORT TYPE [MEXDIR]: the .m bench through PREFIX (empty, testbed exec
# A, or an env command) with the MEX in MEXDIR (default ours), result lines "N write_ms
# write_mbps read_ms read_mbps" in $out/NAME.
run() {
	$2 octave --no-gui --no-window-system --norc --quiet --eval "
	  addpath('${6:-$out/mex}'); addpath('$root/tests/octave'); addpath('$here');
	  mex_bench('$3', $4, $msizes, $trials, $5);" 2>"$out/$1.err" |
		grep -E '^[0-9]+ ' >"$out/$1"
	[ -s "$out/$1" ] || echo "mex_bench.sh: $1 gave nothing: $(grep -v execution_exception "$out/$1.err" | head -c 400)" >&2
}

# table NAME TITLE CEILING: the results next to WARPLab's MEX figures.
table() {
	echo "== $2${host:+ [$host]}"
	printf '%9s | %9s %8s %6s %6s | %9s %8s %6s %6s\n' samples "write ms" "Mb/s" "%ceil" \
		"xMEX" "read ms" "Mb/s" "%ceil" "xMEX"
	while read -r n wms wm rms rm; do
		ref=$(awk -v n="$n" '$1 == n { print $2, $3 }' <<<"$warplab")
		awk -v n="$n" -v wms="$wms" -v wm="$wm" -v rms="$rms" -v rm="$rm" -v c="$3" \
			-v ref="$ref" 'BEGIN { split(ref, r, " ")
			cw = c ? sprintf("%5.1f%%", 100 * wm / c) : "     -"
			cr = c ? sprintf("%5.1f%%", 100 * rm / c) : "     -"
			xw = r[1] ? sprintf("%6.2f", wm / r[1]) : "     -"
			xr = r[2] ? sprintf("%6.2f", rm / r[2]) : "     -"
			printf "%9d | %9.3f %8.1f %6s %6s | %9.3f %8.1f %6s %6s\n", n, wms, wm, cw, xw,
				rms, rm, cr, xr }'
	done <"$out/$1"
	echo
}

# compare PORT: ours and WARPLab's own MEX against the node on 127.0.0.1:PORT, rounds
# alternating, then per size the median over rounds of each figure (ms of one call, the
# mean of its trials as wl_benchmark takes it) and the ratio WARPLab's / ours of the
# medians, with the lowest and highest ratio of one round.
compare() {
	local r
	for r in $(seq 1 "$rounds"); do
		run "o$r.0" "" 127.0.0.1 "$1" 0
		run "o$r.3" "" 127.0.0.1 "$1" 3
		run "w$r.0" "$wl_env" 127.0.0.1 "$1" 0 "$out/wl"
		run "w$r.3" "$wl_env" 127.0.0.1 "$1" 3 "$out/wl"
		for f in "o$r.0" "o$r.3" "w$r.0" "w$r.3"; do
			awk -v r="$r" -v f="${f#?*.}" -v who="${f%%[0-9]*}" \
				'f == 0 { print who, r, $1, "write", $2 } { print who, r, $1, "read" f, $4 }' \
				"$out/$f"
		done
		# the host library alone, raw words into C memory (no Octave), the same trials
		"$ws" iq bench "127.0.0.1:$1" --trials "$((trials + 5))" --samples "$sizes" --json \
			2>/dev/null | awk -v r="$r" '
			/"samples": / { n = $0; sub(/.*"samples": /, "", n); sub(/,.*/, "", n) }
			/^ *"read": \{"avg_ms": / { v = $0; sub(/.*"avg_ms": /, "", v); sub(/,.*/, "", v)
				print "l", r, n, "read3", v }'
	done >"$out/cmp"
	echo "== loopback: ours against WARPLab's own MEX (WS_WARPLAB_MEX), $rounds rounds" \
		"alternating, $trials trials + 5 dropped each${host:+ [$host]}"
	printf '%9s %-7s | %9s %9s | %6s %13s\n' samples what "ours ms" "WL ms" "xWL" "rounds' x"
	awk '{ k = $3 " " $4; v[$1, k, $2] = $5; keys[k] = 1; n[$1, k]++ }
	function med(who, k,   a, i, m, t, j) {
		m = 0
		for (i = 1; i <= n[who, k]; i++) a[++m] = v[who, k, i]
		for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
		return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
	}
	END {
		for (k in keys) {
			split(k, p, " "); lo = 1e9; hi = 0
			for (i = 1; i <= n["o", k]; i++) if (v["o", k, i] > 0 && v["w", k, i] > 0) {
				x = v["w", k, i] / v["o", k, i]; lo = x < lo ? x : lo; hi = x > hi ? x : hi }
			o = med("o", k); w = med("w", k)
			printf "%9d %-7s | %9.3f %9.3f | %6.2f %6.2f-%-6.2f\n", p[1], p[2], o, w, (o > 0 ? w / o : 0), lo, hi
			if (n["l", k] == 0) continue
			lo = 1e9; hi = 0
			for (i = 1; i <= n["l", k]; i++) if (v["l", k, i] > 0 && v["w", k, i] > 0) {
				x = v["w", k, i] / v["l", k, i]; lo = x < lo ? x : lo; hi = x > hi ? x : hi }
			o = med("l", k)
			printf "%9d %-7s | %9.3f %9.3f | %6.2f %6.2f-%-6.2f\n", p[1], "lib-rd3", o, w, (o > 0 ? w / o : 0), lo, hi
		}
	}' "$out/cmp" | sort -k1,1n -k2,2
	echo "(what: write, read0 = complex double, read3 = raw words; lib-rd3 = the host library's"
	echo " raw read, warpspeed iq bench, no Octave; xWL = WARPLab's ms / ours)"
	echo "# per round, ms of one call: round samples what ours WL [library]"
	awk '{ v[$2 " " $3 " " $4, $1] = $5; k[$2 " " $3 " " $4] = 1 }
	END { for (x in k) printf "# %s %.3f %.3f%s\n", x, v[x, "o"], v[x, "w"],
		(x, "l") in v ? sprintf(" %.3f", v[x, "l"]) : "" }' "$out/cmp" | sort -k2,2n -k3,3n -k4,4
	echo
}

if [ "$which" = loopback ] || [ "$which" = all ]; then
	"$ws" node --bind 127.0.0.1 --port 0 --bcast-port off --reply-rate off \
		>/dev/null 2>"$out/node.err" &
	pids+=("$!")
	port=
	for _ in $(seq 1 100); do
		port=$(sed -n 's/.*listening on [0-9.]*:\([0-9]*\),.*/\1/p' "$out/node.err")
		[ -n "$port" ] && break
		sleep 0.02
	done
	run loop0 "" 127.0.0.1 "$port" 0
	run loop3 "" 127.0.0.1 "$port" 3
	table loop0 "loopback, reads as complex double (type 0), $trials trials + 5 dropped" 0
	table loop3 "loopback, reads as raw uint32 words (type 3)" 0
	[ -n "$theirs" ] && compare "$port"
fi

if [ "$which" = gige-jumbo ] || [ "$which" = all ]; then
	if why=$(ws_testbed_missing); then
		echo "mex_bench.sh: gige-jumbo skipped: the test bed cannot run here: $why" >&2
	else
		name=ws-mex$$
		env=$("$tb" up gige-jumbo --name "$name") || { echo "bench/testbed up: $env" >&2; exit 1; }
		beds+=("$name")
		eval "$env"
		export WS_TESTBED_NAME
		"$tb" exec B "$ws" node --bind "$WS_B" --reply-rate off --quiet >"$out/bed.node" 2>&1 &
		pids+=("$!")
		for _ in $(seq 1 50); do
			"$tb" exec A "$ws" iq ping "$WS_B" --count 1 >/dev/null 2>&1 && break
			sleep 0.1
		done
		run bed0 "$tb exec A" "$WS_B" 9000 0
		run bed3 "$tb exec A" "$WS_B" 9000 3
		table bed0 "gige-jumbo (tbf 1 Gb/s, ceiling 991.6 Mb/s of IQ), reads as complex double" 991.6
		table bed3 "gige-jumbo, reads as raw uint32 words" 991.6
	fi
fi
