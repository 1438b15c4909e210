# SPDX-License-Identifier: BSD-2-Clause
# shellcheck shell=bash
# Shell helpers shared by bench/testbed, bench/run, bench/tcp_stream.sh and the testbed
# integration tests, so that rate parsing, the payload ceiling and the statistics are
# computed one way everywhere. Sourced, never executed; plain bash + awk (no python) so
# it runs on a bare Debian CI machine.

# ws_die MSG...: print to stderr and exit 1 (runtime failure).
ws_die() {
	echo "error: $*" >&2
	exit 1
}

# ws_usage_die MSG...: print to stderr and exit 2 (bad usage).
ws_usage_die() {
	echo "usage error: $*" >&2
	exit 2
}

# ws_rate_bps RATE: print RATE in bits/s. Accepts tc's spellings: 10mbit, 1gbit, 512kbit,
# 100000bit, and the bare suffixes k/m/g (decimal, as tc uses them for bits).
ws_rate_bps() {
	awk -v r="$1" 'BEGIN {
		s = tolower(r)
		if (s !~ /^[0-9]+(\.[0-9]+)?(bit|kbit|mbit|gbit|tbit|k|m|g|t)?$/) exit 1
		n = s; sub(/[a-z]+$/, "", n); u = s; sub(/^[0-9.]+/, "", u)
		m = 1
		if (u ~ /^k/) m = 1e3; else if (u ~ /^m/) m = 1e6
		else if (u ~ /^g/) m = 1e9; else if (u ~ /^t/) m = 1e12
		printf "%.0f\n", n * m
	}'
}

# ws_ceiling_mbps RATE_BPS MTU: TCP payload ceiling in 10^6 bits/s of a tbf-shaped veth.
# tbf charges every frame its length including the 14-byte Ethernet header (veth has no
# preamble, FCS or gap), and each full segment carries MTU - 20 (IPv4) - 20 (TCP) - 12
# (timestamp option) payload bytes, so the ceiling is rate * (MTU - 52) / (MTU + 14).
ws_ceiling_mbps() {
	awk -v r="$1" -v m="$2" 'BEGIN { printf "%.2f\n", r * (m - 52) / (m + 14) / 1e6 }'
}

# ws_stats: read numbers, one per line, print "median min max n" (median of an even count
# is the mean of the middle two). Prints "nan nan nan 0" for no input; callers check n.
ws_stats() {
	sort -g | awk '{ v[NR] = $1 }
	END {
		if (NR == 0) { print "nan nan nan 0"; exit }
		med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.6g %.6g %.6g %d\n", med, v[1], v[NR], NR
	}'
}

# ws_is_root: true when the caller can create namespaces and qdiscs.
ws_is_root() {
	[ "$(id -u)" -eq 0 ]
}

# ws_testbed_missing: print why bench/testbed cannot run here (empty and status 1 when it
# can). Tests turn a non-empty answer into a SKIP line.
ws_testbed_missing() {
	if [ "${WS_NETNS:-1}" = 0 ]; then echo "namespace tests off (make test NETNS=0)"; return 0; fi
	if ! ws_is_root; then echo "needs root (network namespaces and tc)"; return 0; fi
	local t
	for t in ip tc; do
		command -v "$t" >/dev/null 2>&1 || { echo "needs '$t' (Debian package iproute2)"; return 0; }
	done
	return 1
}

# ws_host_noise NAME: a line-rate benchmark measures the host as a user has it and never
# changes it (nothing written to /proc or /sys): instead it reads what may disturb the run
# and labels its tables with it. The kernel's DAMON monitors (kdamonds) are one such thing:
# a kdamond sampling physical memory (`paddr` with a pageout scheme, every 500 ms, on the
# development VM) holds a vCPU for 4-12 ms at a time, which on 2 vCPUs stalls a line-rate
# transfer (docs/iq.md has the trace). NAME prefixes the note on stderr; WS_DAMON_ROOT is
# the sysfs directory read (a test points it elsewhere).
ws_damon_root=${WS_DAMON_ROOT:-/sys/kernel/mm/damon/admin/kdamonds}
# ws_damon_running: the state files of the kdamonds that run now, one a line.
ws_damon_running() {
	local f
	for f in "$ws_damon_root"/[0-9]*/state; do
		[ -f "$f" ] && [ "$(cat "$f" 2>/dev/null)" = on ] && echo "$f"
	done
	return 0
}
ws_host_noise() {
	local n
	n=$(ws_damon_running | wc -l)
	[ "$n" -eq 0 ] ||
		echo "$1: $n DAMON kdamond(s) run on this host (left as they are): expect stalls of a few ms" >&2
}
# ws_host_label: what the tables say about the host: "DAMON running" (read, never changed)
# and the 1-minute load average, e.g. "DAMON running, load 0.42"; no DAMON, no mention.
ws_host_label() {
	local load label=
	[ -n "$(ws_damon_running)" ] && label="DAMON running"
	load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
	[ -n "$load" ] && label="${label:+$label, }load $load"
	echo "$label"
}

# ws_report MD JSON META SAMPLES NOTES BLOCKS REF HEADER: aggregate the samples of one
# bench/run into a markdown table and a JSON file. SAMPLES lines are "scenario tool
# metric unit value" (tab-separated), META lines "scenario key value" (key ceiling or
# link). Per scenario, tool and metric: median, min, max over rounds, and the ratio of the
# median to REF's median for the same scenario and metric. Link scenarios also get the
# issue's checks (warpspeed >= 95% of the payload ceiling and within 2% of REF; only for
# scenarios META marks "checked", the links without loss or delay), written
# as "| PASS |" / "| FAIL |" / "| SKIP |" rows. Written for mawk and gawk alike.
ws_report() {
	awk -F'\t' -v md="$1" -v js="$2" -v notesf="$5" -v blocksf="$6" -v ref="$7" -v header="$8" '
	function jstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, " ", s); return "\"" s "\"" }
	function jnum(v) { return (v == "" ? "null" : v) }
	function sortn(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	}
	function fmt(v) { return (v == "" ? "-" : sprintf(v >= 1000 ? "%.0f" : v >= 1 ? "%.2f" : "%.4g", v)) }
	FILENAME == ARGV[1] { meta[$1, $2] = $3; next }
	{
		k = $1 SUBSEP $2 SUBSEP $3
		if (!(k in cnt)) { order[++nk] = k; unit[k] = $4 }
		cnt[k]++; val[k, cnt[k]] = $5 + 0
	}
	END {
		for (i = 1; i <= nk; i++) {
			k = order[i]; n = cnt[k]
			for (j = 1; j <= n; j++) v[j] = val[k, j]
			sortn(v, n)
			med[k] = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
			mn[k] = v[1]; mx[k] = v[n]
		}
		print "# warpspeed benchmarks" > md
		print "" > md; print header > md; print "" > md
		print "| scenario | tool | metric | unit | rounds | median | min | max | ratio to " ref " | link ceiling | % of ceiling |" > md
		print "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|" > md
		printf "{\n  \"header\": %s,\n  \"reference\": %s,\n  \"rows\": [", jstr(header), jstr(ref) > js
		for (i = 1; i <= nk; i++) {
			k = order[i]; split(k, p, SUBSEP)
			rk = p[1] SUBSEP ref SUBSEP p[3]
			ratio[k] = ((rk in med) && med[rk] > 0) ? med[k] / med[rk] : ""
			ceil = ((p[1], "ceiling") in meta) ? meta[p[1], "ceiling"] : ""
			pct = (ceil != "" && ceil > 0 && p[3] == "throughput") ? 100 * med[k] / ceil : ""
			printf "| %s | %s | %s | %s | %d | %s | %s | %s | %s | %s | %s |\n", p[1], p[2], p[3], unit[k], cnt[k],
				fmt(med[k]), fmt(mn[k]), fmt(mx[k]), (ratio[k] == "" ? "-" : sprintf("%.3f", ratio[k])),
				(ceil == "" ? "-" : ceil), (pct == "" ? "-" : sprintf("%.1f%%", pct)) > md
			printf "%s\n    {\"scenario\": %s, \"tool\": %s, \"metric\": %s, \"unit\": %s, \"rounds\": %d, \"median\": %s, \"min\": %s, \"max\": %s, \"reference\": %s, \"ratio\": %s, \"ceiling_mbps\": %s}", (i > 1 ? "," : ""),
				jstr(p[1]), jstr(p[2]), jstr(p[3]), jstr(unit[k]), cnt[k], med[k], mn[k], mx[k], jstr(ref),
				jnum(ratio[k]), jnum(ceil) > js
			if (p[1] ~ /^link_stream\// && p[3] == "throughput" && meta[p[1], "checked"] == 1) scen[++ns] = p[1]
		}
		printf "\n  ],\n  \"checks\": [" > js
		print "" > md; print "## Checks" > md; print "" > md
		print "| result | check |" > md; print "|---|---|" > md
		nc = 0
		for (si = 1; si <= ns; si++) {
			if (scen[si] in seen) continue
			s = scen[si]; seen[s] = 1
			wk = s SUBSEP "warpspeed" SUBSEP "throughput"; rk = s SUBSEP ref SUBSEP "throughput"
			c = meta[s, "ceiling"]
			if (!(wk in med)) {
				res = "SKIP"; what = s ": warpspeed >= 95% of the ceiling " c " and within 2% of " ref " (no warpspeed figures)"
			} else {
				res = (med[wk] >= 0.95 * c) ? "PASS" : "FAIL"
				what = sprintf("%s: warpspeed median %.2f >= 95%% of the ceiling %s (%.2f)", s, med[wk], c, 0.95 * c)
			}
			printf "| %s | %s |\n", res, what > md
			printf "%s\n    {\"result\": %s, \"check\": %s}", (nc++ ? "," : ""), jstr(res), jstr(what) > js
			if (!(wk in med)) continue
			if (rk in med) {
				d = med[wk] / med[rk] - 1; res = (d <= 0.02 && d >= -0.02) ? "PASS" : "FAIL"
				what = sprintf("%s: warpspeed within 2%% of %s (%.2f vs %.2f, %+.2f%%)", s, ref, med[wk], med[rk], 100 * d)
			} else {
				res = "SKIP"; what = s ": warpspeed within 2% of " ref " (no " ref " figures)"
			}
			printf "| %s | %s |\n", res, what > md
			printf ",\n    {\"result\": %s, \"check\": %s}", jstr(res), jstr(what) > js
		}
		if (nc == 0) print "| - | no link scenario in this run |" > md
		printf "\n  ],\n  \"notes\": [" > js
		print "" > md; print "## Notes" > md; print "" > md
		nn = 0
		while ((getline line < notesf) > 0) {
			print "- " line > md
			printf "%s\n    %s", (nn++ ? "," : ""), jstr(line) > js
		}
		if (nn == 0) print "- none" > md
		printf "\n  ]\n}\n" > js
		first = 1
		while ((getline line < blocksf) > 0) {
			if (first) { print "" > md; print "## Seed scenario: warpspeed -H B -c -C -- -s 128K -S 128K per link" > md; print "" > md; first = 0 }
			print line > md
		}
	}' "$3" "$4"
}

# The loopback benchmarks' common start: a work folder, and warpspeed serve and iperf3 -s
# on ports of their own (so a daemon already on 12865 or 5201, or a parallel run, is not
# used), all removed on exit or ^C. $1 is the script's port base (ports base..base+9999).
# Sets work, ws_port, ip3_port, ws_srv (the daemon's pid), ip3_srv, and the pids array.
ws_bench_loopback_servers() {
	local base=$1
	work=$(mktemp -d)
	pids=()
	trap ws_bench_cleanup EXIT
	trap 'exit 130' INT TERM
	ws_port=$((base + $$ % 5000))
	ip3_port=$((ws_port + 5000))
	"$ws_bin" serve -p "$ws_port" -L 127.0.0.1 >"$work/ws-serve.log" 2>&1 &
	ws_srv=$!
	pids+=($ws_srv)
	iperf3 -s -p "$ip3_port" -B 127.0.0.1 >"$work/ip3-serve.log" 2>&1 &
	ip3_srv=$!
	pids+=($ip3_srv)
	ws_wait_listen "$ws_port"
	ws_wait_listen "$ip3_port"
}

ws_bench_cleanup() {
	local p
	for p in ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null; done
	for p in ${pids[@]+"${pids[@]}"}; do wait "$p" 2>/dev/null; done
	[ -n "${work:-}" ] && rm -rf "$work"
}

ws_wait_listen() { # PORT
	local _
	for _ in $(seq 1 50); do
		ss -Hltn "sport = :$1" 2>/dev/null | grep -q . && return 0
		sleep 0.1
	done
	ws_die "nothing listens on 127.0.0.1:$1 after 5 s"
}

# The loopback benchmarks' options: --rounds N and --secs S (positive integers, defaults 5
# and 3), --only NAME[,NAME...] (run only those scenarios; see ws_bench_wanted); -h prints
# the script's opening comment. Sets rounds, secs and only.
ws_bench_wanted() { # NAME: true when --only was not given or names NAME
	[ -z "$only" ] || [[ $only == *",$1,"* ]]
}

ws_bench_args() {
	rounds=5 secs=3 only=
	while [ $# -gt 0 ]; do
		case $1 in
		--only)
			[[ ${2:-} =~ ^[a-z0-9,-]+$ ]] || ws_usage_die "--only '${2:-}': expected scenario names separated by commas"
			only=,$2,
			shift 2 ;;
		--rounds | --secs)
			[[ ${2:-} =~ ^[1-9][0-9]*$ ]] || ws_usage_die "$1 '${2:-}': expected a positive integer"
			if [ "$1" = --rounds ]; then rounds=$2; else secs=$2; fi
			shift 2 ;;
		-h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
		*) ws_usage_die "unknown option '$1' (accepted: --rounds N, --secs S, --only NAME[,NAME...])" ;;
		esac
	done
}

# ws_tbf_burst NS DEV: the bucket (burst) in bytes of the tbf on DEV in namespace NS, or 0.
ws_tbf_burst() {
	local b
	b=$(tc -n "$1" -j qdisc show dev "$2" 2>/dev/null | tr ',{}' '\n' |
		awk -F: '$1 == "\"burst\"" { print $2; exit }')
	[[ ${b:-} =~ ^[0-9]+$ ]] && echo "$b" || echo 0
}

# ws_iq_bound_mbps RATE_BPS SAMPLES SPP BURST: the most Mb/s of IQ payload one transfer of
# SAMPLES samples, SPP to a packet, can show on a tbf link of RATE whose bucket holds BURST
# bytes when it starts. tbf charges a sample packet 76 + 4n bytes (pad and WARPLab headers
# 34, UDP 8, IPv4 20, Ethernet 14) and lets the first BURST of them through at once, so
# the transfer takes at least (wire bytes - BURST) / RATE. With BURST 0 this is the
# physical ceiling of that size (991.6 Mb/s for whole jumbo packets at 1 Gb/s).
ws_iq_bound_mbps() {
	awk -v r="$1" -v s="$2" -v spp="$3" -v b="$4" 'BEGIN {
		k = int((s + spp - 1) / spp); w = 76 * k + 4 * s - b
		if (w <= 0) { print "inf"; exit }
		printf "%.2f\n", r * 4 * s / w / 1e6 }'
}

# ws_iq_stopper PID VICTIM MAX FILE: while PID runs, stop VICTIM (SIGSTOP) for 10 ms every
# 200 ms, MAX times (0: no limit); writes "stops stopped_ms" to FILE (the stall tests:
# tests/integration/testbed_iq_stall.sh, bench/iq_stall.sh). The stopper runs as one bash
# at SCHED_FIFO 1 when chrt may, and waits with read -t on a silent pipe rather than a
# forked sleep: at load 8 on two vCPUs a stop made with sleep 0.01 at normal priority
# lasted 36-50 ms, past the transport's 20 ms stall budget. What each stop really lasted
# is measured and summed either way.
# shellcheck disable=SC2016 # the script is for bash -c, with its own $1 .. $4
ws_iq_stopper_script='k=0 us=0
	exec 9<> <(:)
	while read -rt 0.2 -u 9; [ $? -gt 128 ] && kill -0 "$1" 2>/dev/null &&
		{ [ "$3" = 0 ] || [ "$k" -lt "$3" ]; }; do
		t0=${EPOCHREALTIME/./}
		kill -STOP "$2" 2>/dev/null || break
		read -rt 0.01 -u 9
		kill -CONT "$2" 2>/dev/null
		us=$((us + ${EPOCHREALTIME/./} - t0))
		k=$((k + 1))
	done
	kill -CONT "$2" 2>/dev/null
	echo "$k $((us / 1000))" >"$4"'
ws_iq_stopper() {
	if chrt -f 1 true 2>/dev/null; then
		chrt -f 1 bash -c "$ws_iq_stopper_script" ws_iq_stopper "$@"
	else
		bash -c "$ws_iq_stopper_script" ws_iq_stopper "$@"
	fi
}
# ws_iq_stopper_how: how ws_iq_stopper runs here, for the tables.
ws_iq_stopper_how() { chrt -f 1 true 2>/dev/null && echo "at SCHED_FIFO 1" || echo "at normal priority"; }

# ws_iq_json_field FILE DIR SAMPLES KEY: KEY (median_mbps, max_mbps, ...) of direction DIR
# (read or write) in the row of SAMPLES of an `iq bench --json-file` result.
ws_iq_json_field() {
	awk -v s="\"samples\": $3," -v d="\"$2\":" -v k="\"$4\": " '
		index($0, s) { row = 1; next }
		row && index($0, d) { i = index($0, k); if (!i) exit
			v = substr($0, i + length(k)); sub(/[,}].*/, "", v); print v; exit }' "$1"
}

# --- bench/rr.sh's readers (here so that tests/integration/rr_bench.sh can check them) ------
# ws_rr_rate FILE: trans/s of a classic RR table, warpspeed's or netperf's (-P 0 or not):
# the 6th field of the first data row.
ws_rr_rate() { awk 'NF >= 6 && $1 ~ /^[0-9]+$/ { print $6; exit }' "$1"; }

# ws_sockperf_rtt FILE: the round trip of sockperf ping-pong's 50th percentile in usec.
# sockperf reports half round trips ("percentile 50.000 = 11.596"), so this is the double.
ws_sockperf_rtt() {
	sed 's/\x1b\[[0-9;]*m//g' "$1" | awk '{
		for (i = 1; i < NF - 1; i++)
			if ($i == "percentile" && $(i + 1) + 0 == 50 && $(i + 2) == "=") { printf "%.3f\n", 2 * $(i + 3); exit }
	}'
}

# ws_rr_p50 FILE: warpspeed's P50 round trip in usec, from its -v 2 latency line
# "Round trips (us): min 4.100 mean 13.000 p50 12.300 p90 ... (N samples)".
ws_rr_p50() {
	awk '/^Round trips \(us\):/ { for (i = 4; i < NF; i++) if ($i == "p50") { print $(i + 1); exit } }' "$1"
}

# ws_rr_busy ROUND: read thread samples "sample role tid cpu ticks" (/proc/PID/task/TID/stat
# fields 39 and 14+15, taken a moment apart), print "role ROUND.tid cpu ticks" for the CPU
# time each thread used between two samples, charged to the CPU the thread was on at the
# second (an approximation: a thread can move in between).
ws_rr_busy() {
	awk -v r="$1" '
	{ k = $2 " " $3 }
	(k in last) && $5 > last[k] { print $2, r "." $3, $4, $5 - last[k] }
	{ last[k] = $5 }'
}

# ws_rr_where: read ws_rr_busy lines (of any number of rounds), print where the busy threads
# ran: "client 1 thr: cpu0 100%; server 1 thr: cpu1 97% cpu0 3%", the share of each side's
# CPU time per CPU. A thread is busy when its CPU time is at least 10% of its side's busiest
# thread's; the thread count is that of the round with the most. "-" for no input.
ws_rr_where() {
	awk '
	{ t[$1, $2] += $4; c[$1, $2, $3] += $4; if (t[$1, $2] > top[$1]) top[$1] = t[$1, $2] }
	END {
		for (k in t) {
			split(k, p, SUBSEP)
			if (t[k] < 0.1 * top[p[1]]) continue
			busy[k] = 1; split(p[2], q, "."); nr[p[1], q[1]]++
			if (nr[p[1], q[1]] > thr[p[1]]) thr[p[1]] = nr[p[1], q[1]]
		}
		for (k in c) { split(k, p, SUBSEP); if ((p[1], p[2]) in busy) { on[p[1], p[3]] += c[k]; all[p[1]] += c[k] } }
		n = 0
		for (ri = 1; ri <= 2; ri++) {
			role = ri == 1 ? "client" : "server"
			if (!(role in all)) continue
			line = line (n++ ? "; " : "") role " " thr[role] " thr:"
			for (cpu = 0; cpu < 4096; cpu++)
				if ((role, cpu) in on) line = line sprintf(" cpu%d %.0f%%", cpu, 100 * on[role, cpu] / all[role])
		}
		print (n ? line : "-")
	}'
}

# ws_bench_serve BIN: the common start of a loopback bench against its own daemon: a work
# folder ($work), `BIN serve` on an ephemeral loopback port ($port, its pid in pids), both
# removed on exit or ^C (ws_bench_cleanup); dies when the daemon does not start.
ws_bench_serve() {
	work=$(mktemp -d)
	pids=()
	trap ws_bench_cleanup EXIT
	trap 'exit 130' INT TERM
	ws_serve_loopback "$1" "$work/serve.log"
	pids+=("$ws_serve_pid")
	port=$ws_serve_port
	[ -n "$port" ] || ws_die "warpspeed serve did not start: $(cat "$work/serve.log")"
}

# ws_serve_loopback BIN LOG: start `BIN serve` on an ephemeral loopback port in the
# background, its stderr to LOG, and wait up to 5 s for its "listening on" line. Sets
# ws_serve_pid (the caller kills it by PID) and ws_serve_port (empty: it did not start).
ws_serve_loopback() {
	"$1" serve -p 0 -L 127.0.0.1 2>"$2" &
	ws_serve_pid=$!
	ws_serve_port=
	local _
	for _ in $(seq 1 100); do
		ws_serve_port=$(sed -n 's/.*listening on .* port \([0-9]*\) .*/\1/p' "$2")
		[ -n "$ws_serve_port" ] && return 0
		sleep 0.05
	done
	return 1
}

# ws_star4_nodes TB WS OUT: on a star4 bed (its WS_NODE1..4 in the environment), start
# `WS node` in each node's namespace (--reply-rate off, serials 1-4, logs OUT/nK.log),
# their pids appended to pids, and wait until each answers a ping from A (5 s each at
# most). Sets ws_star4_targets to the four addresses, comma-separated.
ws_star4_nodes() {
	local k v _
	ws_star4_targets=
	for k in 1 2 3 4; do
		v=WS_NODE$k
		"$1" exec "NODE$k" "$2" node --bind "${!v}" --reply-rate off --serial "$k" --quiet >"$3/n$k.log" 2>&1 &
		pids+=("$!")
		ws_star4_targets+=${ws_star4_targets:+,}${!v}
	done
	for v in ${ws_star4_targets//,/ }; do
		for _ in $(seq 1 50); do "$1" exec A "$2" iq ping "$v" --count 1 >/dev/null 2>&1 && break; sleep 0.1; done
	done
}
