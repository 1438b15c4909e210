# SPDX-License-Identifier: BSD-2-Clause
# bench/rr.sh, the RR benchmark: its readers against real netperf 2.7.0 and sockperf output
# (exact figures; sockperf's half round trip doubled), the placement summary from known
# thread samples, bad options, and, when netperf and sockperf are installed, a short
# pinned run whose table has the rows and placements expected and which leaves no server
# behind, also when it is interrupted.
source "$(dirname "$0")/../lib.sh"
root=${WS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
G=$root/tests/goldens/netperf

# --- readers ------------------------------------------------------------------------------
expect() { # name, expected, got
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected '$2', got '$3'"; fi
}
expect rate_tcp_rr "164550.07" "$(ws_rr_rate "$G/tcp_rr.txt")"
expect rate_tcp_rr_P0 "171999.69" "$(ws_rr_rate "$G/tcp_rr_P0.txt")"
expect rate_tcp_rr_cC "177665.33" "$(ws_rr_rate "$G/tcp_rr_cC.txt")"
expect rate_udp_rr "206088.13" "$(ws_rr_rate "$G/udp_rr.txt")"
expect rate_tcp_crr_v2 "44722.58" "$(ws_rr_rate "$G/tcp_crr_v2.txt")"

# sockperf 3.7's ping-pong report, colour codes included: 11.596 us is half a round trip.
e=$'\e'
cat >"$WS_TMP/sockperf.out" <<EOF
sockperf: [Total Run] RunTime=2.000 sec; Warm up time=400 msec; SentMessages=82509; ReceivedMessages=82508
sockperf: ========= Printing statistics for Server No: 0
sockperf: ${e}[2;35m====> avg-latency=12.333 (std-dev=9.581)${e}[0m
sockperf: Summary: Latency is 12.333 usec
sockperf: ${e}[2;35mTotal 62716 observations${e}[0m; each percentile contains 627.16 observations
sockperf: ---> <MAX> observation = 1043.426
sockperf: ---> percentile 99.999 =  949.175
sockperf: ---> percentile 90.000 =   13.800
sockperf: ---> percentile 50.000 =   11.596
sockperf: ---> percentile 25.000 =   10.995
sockperf: ---> <MIN> observation =    6.837
EOF
expect sockperf_rtt_doubled "23.192" "$(ws_sockperf_rtt "$WS_TMP/sockperf.out")"

p50() { printf '%s\n' "$@" >"$WS_TMP/p50.out"; ws_rr_p50 "$WS_TMP/p50.out"; }
expect p50_line "12.300" "$(p50 "16384  131072 1        1       1.00     1000.00" "" \
	"Round trips (us): min 4.100 mean 13.000 p50 12.300 p90 20.100 p99 40.200 p99.9 50.000 p99.99 60.000 max 70.000 stddev 3.000 (1000 samples)" \
	"" "Flow   Thread Transactions     Trans/s      P50 us     P99 us     Lost" "0      0      500              500.00       11.000     12.000     0")"
expect p50_no_samples "" "$(p50 "Round trips (us): no samples" "Flow   Thread Transactions     Trans/s      P50 us     P99 us     Lost")"

# Thread samples "sample role tid cpu ticks": client thread 7 runs on CPU 0 (30 ticks),
# server thread 9 on CPU 1 (20) then CPU 0 (10); server thread 8 is nearly idle (1 tick,
# under 10% of 9's) and is not counted; a second round adds a client thread on CPU 1.
printf '%s\n' "1 client 7 0 100" "1 server 9 1 50" "1 server 8 0 3" \
	"2 client 7 0 120" "2 server 9 1 70" "2 server 8 0 4" \
	"3 client 7 0 130" "3 server 9 0 80" >"$WS_TMP/r1.raw"
printf '%s\n' "1 client 7 1 10" "2 client 7 1 40" >"$WS_TMP/r2.raw"
{ ws_rr_busy 1 <"$WS_TMP/r1.raw"; ws_rr_busy 2 <"$WS_TMP/r2.raw"; } >"$WS_TMP/busy"
expect busy_lines "client 1.7 0 20|server 1.9 1 20|server 1.8 0 1|client 1.7 0 10|server 1.9 0 10|client 2.7 1 30" \
	"$(paste -sd'|' "$WS_TMP/busy")"
expect where_summary "client 1 thr: cpu0 50% cpu1 50%; server 1 thr: cpu0 33% cpu1 67%" "$(ws_rr_where <"$WS_TMP/busy")"
expect where_empty "-" "$(ws_rr_where </dev/null)"

# --- bad options --------------------------------------------------------------------------
bad() { # name, expected text, args...
	local name=$1 text=$2
	shift 2
	"$root/bench/rr.sh" "$@" >"$WS_TMP/bad.out" 2>&1
	local rc=$?
	if [ $rc -eq 2 ] && grep -qF -- "$text" "$WS_TMP/bad.out"; then pass "$name"
	else fail "$name" "exit $rc: $(cat "$WS_TMP/bad.out")"; fi
}
bad bad_rounds "--rounds '0': expected a positive integer" --rounds 0
bad bad_seconds "--seconds 'x': expected a positive integer" --seconds x
bad bad_only "--only: unknown scenario 'tcp_stream' (known: tcp_rr,udp_rr,tcp_crr,p50_udp,p50_tcp,multi,clock)" --only tcp_rr,tcp_stream
bad bad_pin "--pin 'some': expected both, pinned or unpinned" --pin some

# --- rr_clock: every timed transaction is in its histogram, bad counts refused ------------
clock=${WS_BUILD:-$root/build}/bench/rr_clock
if [ -x "$clock" ]; then
	if "$clock" -n 1000 -r 3 >"$WS_TMP/clock.out" 2>&1 && [ "$(grep -c '^rr_clock: ' "$WS_TMP/clock.out")" -eq 4 ] &&
		grep -q ' 1000 transactions x 3 rounds each way, alternating by 1000: .*, 3000 samples$' "$WS_TMP/clock.out" &&
		grep -qE '^rr_clock: estimated cost \(2 x [0-9.]+ \+ [0-9.]+ ns\) / [0-9.]+ us = [0-9.]+% of a transaction \(goal < 2%\): (PASS|MISS)$' "$WS_TMP/clock.out"; then
		pass rr_clock_run
	else fail rr_clock_run "$(cat "$WS_TMP/clock.out")"; fi
	"$clock" -n 999 >"$WS_TMP/clock.out" 2>&1
	rc=$?
	if [ $rc -eq 2 ] && grep -qF "rr_clock: -n '999': expected an integer from 1000 to 100000000" "$WS_TMP/clock.out"; then
		pass rr_clock_bad_count
	else fail rr_clock_bad_count "exit $rc: $(cat "$WS_TMP/clock.out")"; fi
else
	skip rr_clock "$clock is not built (make bench-bins)"
fi

# --- a short real run ----------------------------------------------------------------------
missing=
for t in netperf netserver sockperf taskset; do command -v "$t" >/dev/null 2>&1 || missing="$missing $t"; done
[ "$(nproc)" -ge 2 ] || missing="$missing (a second CPU)"
if [ -n "$missing" ]; then
	skip rr_bench_run "needs$missing (Debian netperf from non-free, sockperf)"
	finish
fi
out=$WS_TMP/run.out res=$WS_TMP/results
WS_BIN=$WS_BIN "$root/bench/rr.sh" --rounds 1 --seconds 1 --only tcp_rr,p50_udp --pin pinned --out "$res" >"$out" 2>&1
rc=$?
md=$(ls "$res"/*-rr.md 2>/dev/null | head -1)
if [ $rc -ne 0 ] || [ -z "$md" ]; then
	fail rr_bench_run "exit $rc, report '$md': $(tail -c 600 "$out")"
	finish
fi
row() { grep -F "| $1 | $2 |" "$md"; }
if row tcp_rr/pinned netperf | grep -qE '^\| tcp_rr/pinned \| netperf \| transactions \| trans/s \| 1 \| [0-9.]+ \|'; then
	pass rr_bench_netperf_row
else fail rr_bench_netperf_row "$(cat "$md")"; fi
# sockperf runs under taskset from exec on: every tick of it is on the CPU it was given.
if row p50_udp/pinned sockperf | grep -qE '^\| p50_udp/pinned \| sockperf \| p50_rtt \| usec \| 1 \| [0-9.]+ \| .* \| client 1 thr: cpu0 100%; server 1 thr: cpu1 100% \|$'; then
	pass rr_bench_sockperf_pinned
else fail rr_bench_sockperf_pinned "$(row p50_udp/pinned sockperf || cat "$md")"; fi
if grep -q "^sockperf reports half round trips: its figures here are doubled" "$md" &&
	grep -qE '^p50_udp/pinned sockperf +taskset -c 0 sockperf pp -i 127.0.0.1 -p [0-9]+ -t 1 -m 14$' "$md" &&
	grep -qE '^server netserver +netserver -D -4 -L 127.0.0.1 -p [0-9]+$' "$md"; then
	pass rr_bench_commands
else fail rr_bench_commands "$(sed -n '/## Commands/,$p' "$md")"; fi
# warpspeed's half: a row with a ratio and a verdict once the daemon serves TCP_RR, else
# a note that says why it was skipped.
if "$WS_BIN" -V >/dev/null 2>&1 && start_daemon && "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -t TCP_RR -l 1 -P 0 >/dev/null 2>&1; then
	if row tcp_rr/pinned warpspeed | grep -qE '\| [0-9]+\.[0-9]{3} \| ratio >=1.0 \| (PASS|MISS) \| [0-9.]+ \| client 1 thr: cpu0 100%; server'; then
		pass rr_bench_warpspeed_row
	else fail rr_bench_warpspeed_row "$(cat "$md")"; fi
elif grep -q "^- warpspeed skipped in tcp_rr: " "$md"; then
	pass rr_bench_warpspeed_skipped
else fail rr_bench_warpspeed_skipped "$(cat "$md")"; fi
if command -v python3 >/dev/null 2>&1; then
	if python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not d["rows"])' "${md%.md}.json" 2>"$WS_TMP/json.err"; then
		pass rr_bench_json
	else fail rr_bench_json "$(cat "$WS_TMP/json.err")"; fi
fi
ports=$(sed -n 's/^server .* -p \([0-9]*\).*/\1/p' "$md")
left=
for p in $ports; do ss -Hltun "sport = :$p" | grep -q . && left="$left $p"; done
if [ -n "$ports" ] && [ -z "$left" ]; then pass rr_bench_servers_gone
else fail rr_bench_servers_gone "ports '$ports', still listening:$left"; fi

# Interrupted mid-run: every server it started, and what they forked, ends with it.
"$root/bench/rr.sh" --rounds 3 --seconds 2 --only tcp_rr --pin unpinned --out "$res" >"$WS_TMP/int.out" 2>&1 &
rr=$!
WS_PIDS+=("$rr")
kids=
for _ in $(seq 1 100); do
	kids=$(pgrep -P "$rr" -x netserver)
	[ -n "$kids" ] && grep -q "netperf" "$WS_TMP/int.out" && break
	sleep 0.1
done
all=$(pgrep -P "$rr" | tr '\n' ' ')
for p in $all; do all="$all $(pgrep -P "$p" | tr '\n' ' ')"; done # netserver's test children too
kill -TERM "$rr"
wait "$rr" 2>/dev/null
alive=
for p in $all; do # a zombie has ended (this container's init may not reap orphans)
	st=$(awk '{ sub(/^.*\) /, ""); print $1 }' "/proc/$p/stat" 2>/dev/null)
	[ -n "$st" ] && [ "$st" != Z ] && alive="$alive $p($st)"
done
if [ -n "$kids" ] && [ -z "$alive" ]; then pass rr_bench_interrupted
else fail rr_bench_interrupted "children '$all' (netserver '$kids'), alive after TERM:$alive; $(cat "$WS_TMP/int.out")"; fi
finish
