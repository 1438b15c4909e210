# SPDX-License-Identifier: BSD-2-Clause
# netperf_semantics: option values and output names that must mean what netperf 2.7.0
# means, checked against the real netperf and netserver on loopback: -s/-S with -1 (leave
# the default), 0 (the kernel's minimum) and the x, / ,y forms, shown by LSS_SIZE and
# friends as netperf shows them; -F filling the requests of the RR tests; -m / -M on the
# RR tests; UDP_STREAM's call counts; latency names on the stream tests; the banner at the
# start; -R 0|1 setting SO_DONTROUTE where netperf does (seen with strace). The first part
# compares with the goldens (tests/goldens/netperf) and runs without netperf installed.
# netserver runs in the foreground (-D) on a free port and is stopped by PID. Runs count transactions or bytes (-l -N), which ends each in
# milliseconds, except the banner checks (2 s each).
source "$(dirname "$0")/../lib.sh"
G=${WS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}/tests/goldens/netperf
start_daemon -L 127.0.0.1 || { fail daemon_start "could not start warpspeed serve"; finish; }
ws() { timeout 30 "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" "$@"; }

# --- against the goldens (netperf 2.7.0's output, captured): run without netperf too -------
# golden_args NAME: the golden's command line after "netperf -H 127.0.0.1 -p PORT"
golden_args() { awk -F'\t' -v n="$1" '$1 == n { sub(/^netperf -H [^ ]+ -p [0-9]+ /, "", $2); print $2 }' "$G/MANIFEST"; }
# keyval lines compared: same names in order; values equal where they do not depend on the
# host's sysctl defaults (the requests, the kernel's minimum, counts): all but >= 10000 sizes
kv_same() {
	awk -F= 'NR == FNR { w[FNR] = $0; n = FNR; next }
		{ split(w[FNR], a, "="); if (a[1] != $1) bad = 1
		  if (!(a[2] ~ /^[0-9]+$/ && a[2] + 0 >= 10000 && $2 ~ /^[0-9]+$/) && a[2] != $2) bad = 1 }
		END { exit bad || FNR != n }' "$1" "$2"
}
for name in tcp_rr_sizes_s0 tcp_rr_sizes_m1 tcp_rr_m1024; do
	# shellcheck disable=SC2046 # the golden's words, as netperf got them
	ws $(golden_args $name) >"$WS_TMP/$name.out" 2>"$WS_TMP/$name.err"
	if kv_same "$G/$name.txt" "$WS_TMP/$name.out"; then pass "golden_$name"
	else fail "golden_$name" "netperf [$(echo $(cat "$G/$name.txt"))] warpspeed [$(echo $(cat "$WS_TMP/$name.out" "$WS_TMP/$name.err"))]"; fi
done
# TCP_RR -s 0 -S 0 in the classic table: netperf's layout, the kernel's minimum in both rows
# shellcheck disable=SC2046
ws $(golden_args tcp_rr_s0) >"$WS_TMP/s0.out" 2>&1
layout() { sed -E '1s/127\.0\.0\.1 \(\)/127.0.0.1 (127.0.0.1)/; s/[0-9]+\.[0-9]+/N/g; s/ +$//' "$1"; }
if diff <(layout "$G/tcp_rr_s0.txt") <(layout "$WS_TMP/s0.out") >"$WS_TMP/s0.diff"; then pass golden_tcp_rr_s0
else fail golden_tcp_rr_s0 "$(cat "$WS_TMP/s0.diff")"; fi
# UDP_RR -D -0.2 -F /dev/urandom -- -e 2 -R 1 -k ...: runs, the same closing names
# shellcheck disable=SC2046
ws $(golden_args udp_rr_fill) >"$WS_TMP/fill.out" 2>"$WS_TMP/fill.err"; rc=$?
if [ $rc -eq 0 ] && diff <(tail -n 2 "$G/udp_rr_fill.txt" | cut -d= -f1) <(tail -n 2 "$WS_TMP/fill.out" | cut -d= -f1) >/dev/null &&
	[ "$(tail -n 1 "$WS_TMP/fill.out")" = "LOCAL_FILL_FILE=/dev/urandom" ]; then pass golden_udp_rr_fill
else fail golden_udp_rr_fill "exit $rc: $(cat "$WS_TMP/fill.out" "$WS_TMP/fill.err")"; fi
# TCP_STREAM with latency names: each a measured number, as netperf's
# shellcheck disable=SC2046
ws $(golden_args tcp_stream_lat) >"$WS_TMP/lat.out" 2>/dev/null
if diff <(cut -d= -f1 "$G/tcp_stream_lat.txt") <(cut -d= -f1 "$WS_TMP/lat.out") >/dev/null &&
	! grep -q '=-' "$WS_TMP/lat.out"; then pass golden_tcp_stream_lat
else fail golden_tcp_stream_lat "$(cat "$WS_TMP/lat.out")"; fi

# --- against the real netperf and netserver, when installed ------------------------------
NETSERVER=$(command -v netserver || { [ -x /usr/sbin/netserver ] && echo /usr/sbin/netserver; })
NETPERF=$(command -v netperf || true)
if [ -z "$NETSERVER" ] || [ -z "$NETPERF" ]; then
	skip netperf_semantics_live "netperf/netserver 2.7 are not installed (the goldens above were checked)"
	finish
fi
NS_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$NETSERVER" -D -p "$NS_PORT" -L 127.0.0.1,4 >"$WS_TMP/netserver.log" 2>&1 &
WS_PIDS+=("$!")
for _ in $(seq 1 100); do
	(exec 3<>"/dev/tcp/127.0.0.1/$NS_PORT") 2>/dev/null && break
	sleep 0.05
done
np() { timeout 30 "$NETPERF" -H 127.0.0.1 -p "$NS_PORT" "$@"; }
ws_ns() { timeout 30 "$WS_BIN" -H 127.0.0.1 -p "$NS_PORT" "$@"; }

# --- -s / -S: -1, 0 and the one-sided forms ------------------------------------------------
SIZES=LSS_SIZE_REQ,LSS_SIZE,LSR_SIZE_REQ,LSR_SIZE,RSS_SIZE_REQ,RSS_SIZE,RSR_SIZE_REQ,RSR_SIZE
for opts in "-s -1" "-s 0" "-S 0" "-s 0,-1" "-S -1,0" "-s 8k," "-S ,8k"; do
	name="sockbuf_${opts// /}"
	want=$(np -P 0 -t TCP_RR -l -200 -- $opts -k $SIZES 2>&1)
	got=$(ws -P 0 -t TCP_RR -l -200 -- $opts -k $SIZES 2>&1)
	got_ns=$(ws_ns -P 0 -t TCP_RR -l -200 -- $opts -k $SIZES 2>&1)
	if [ "$got" = "$want" ] && [ "$got_ns" = "$want" ]; then pass "$name"
	else fail "$name" "netperf [$(echo $want)] warpspeed [$(echo $got)] against netserver [$(echo $got_ns)]"; fi
done

# --- -F on the request/response tests: the requests carry the file's bytes -------------------
printf 'HELLOFILL' >"$WS_TMP/fill.txt"
np -D -0.2 -t UDP_RR -l -50 -F /dev/urandom -- -e 2 -k TRANSACTION_RATE >"$WS_TMP/np_fill.out" 2>&1
np_rc=$?
for t in TCP_RR UDP_RR TCP_CRR; do
	out=$(ws -P 0 -D -0.2 -t $t -l -50 -F /dev/urandom -- -k LOCAL_FILL_FILE 2>&1); rc=$?
	if [ $rc -eq 0 ] && [ $np_rc -eq 0 ] && grep -q "^LOCAL_FILL_FILE=/dev/urandom" <<<"$out"; then pass "fill_runs_$t"
	else fail "fill_runs_$t" "exit $rc (netperf UDP_RR: $np_rc): $out"; fi
	if command -v strace >/dev/null; then
		# UDP_RR's first request byte is warpspeed's sequence tag (loss matching). strace
		# sees the bytes of sendto only: the epoll engine (io_uring's sends are not system
		# calls; both engines send the one request buffer filled before either starts)
		n=$(ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -e trace=sendto -s 12 "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -P 0 -t $t -l -20 \
			-F "$WS_TMP/fill.txt" -- -r 20,1 --engine epoll 2>&1 >/dev/null | grep -c 'sendto(.*ELLOFILLHE')
		if [ "$n" -ge 20 ]; then pass "fill_bytes_$t"; else fail "fill_bytes_$t" "$n of 20 requests carried the file"; fi
	fi
done

# --- -m / -M on the RR tests: shown as LOCAL_SEND_SIZE, the data keep -r's sizes ------------
RRK=LOCAL_SEND_SIZE,LOCAL_RECV_SIZE,REMOTE_SEND_SIZE,REMOTE_RECV_SIZE,REQUEST_SIZE,RESPONSE_SIZE,LOCAL_BYTES_SENT
for t in TCP_RR UDP_RR TCP_CRR; do
	for a in "-m 1024" "-M 100" "-m 1K -r 64"; do
		name="rr_m_${t}_${a// /}"
		want=$(np -P 0 -t $t -l -100 -- $a -k $RRK 2>&1)
		got=$(ws -P 0 -t $t -l -100 -- $a -k $RRK 2>&1)
		if [ "$got" = "$want" ]; then pass "$name"; else fail "$name" "netperf [$(echo $want)] warpspeed [$(echo $got)]"; fi
	done
done

# --- UDP_STREAM: *_CALLS count datagrams whatever the batching; the syscalls have their own
# names. 100 - REMOTE_RECV_CALLS / LOCAL_SEND_CALLS * 100 is the loss, as with netperf.
UK=LOCAL_SEND_CALLS,REMOTE_RECV_CALLS,LOCAL_SEND_SYSCALLS,REMOTE_RECV_SYSCALLS,LOCAL_BYTES_PER_SEND,REMOTE_BYTES_PER_RECV,LOCAL_BYTES_SENT,REMOTE_BYTES_RECVD
for io in "" "--gso --gro" "--no-mmsg"; do
	name="udp_calls_${io// /}"
	ws -P 0 -t UDP_STREAM -l -60000000 $io -- -m 1000 -k $UK >"$WS_TMP/udp.out" 2>"$WS_TMP/udp.err"
	declare -A K=()
	while IFS== read -r k v; do K[$k]=$v; done <"$WS_TMP/udp.out"
	sc=${K[LOCAL_SEND_CALLS]:-0} rc=${K[REMOTE_RECV_CALLS]:-0} ss=${K[LOCAL_SEND_SYSCALLS]:-0} rs=${K[REMOTE_RECV_SYSCALLS]:-0}
	loss=$(awk -v s="$sc" -v r="$rc" 'BEGIN { if (s > 0) printf "%.3f", 100 - r / s * 100; else print "x" }')
	why=""
	[ "$sc" -gt 0 ] && in_range "$loss" 0 100 || why="loss $loss% from $rc of $sc"
	[ "${K[LOCAL_BYTES_PER_SEND]:-}" = "1000.00" ] || why="$why; bytes per send ${K[LOCAL_BYTES_PER_SEND]:-}"
	[ "$((sc * 1000))" = "${K[LOCAL_BYTES_SENT]:-}" ] || why="$why; $sc sends of 1000 bytes but ${K[LOCAL_BYTES_SENT]:-} bytes"
	[ "$((rc * 1000))" = "${K[REMOTE_BYTES_RECVD]:-}" ] || why="$why; $rc receives of 1000 bytes but ${K[REMOTE_BYTES_RECVD]:-} bytes"
	if [ "$io" = "--no-mmsg" ]; then
		[ "$ss" = "$sc" ] || why="$why; plain send: $ss syscalls for $sc sends"
	else
		[ "$ss" -gt 0 ] && [ "$ss" -lt "$sc" ] || why="$why; batched send: $ss syscalls for $sc sends"
		[ "$rs" -gt 0 ] && [ "$rs" -le "$rc" ] || why="$why; batched receive: $rs syscalls for $rc receives"
	fi
	if [ -z "$why" ]; then pass "$name"; else fail "$name" "${why#; }: $(cat "$WS_TMP/udp.out" "$WS_TMP/udp.err")"; fi
done

# --- latency names on the stream tests: each send call timed (TCP_MAERTS: each receive), as
# netperf does when one is asked for; -1 only where netperf has none either
LK=MIN_LATENCY,P50_LATENCY,P99_LATENCY,MAX_LATENCY,MEAN_LATENCY,STDDEV_LATENCY
for t in TCP_STREAM TCP_MAERTS UDP_STREAM; do
	want=$(np -P 0 -t $t -l -20000000 -- -k $LK 2>&1)
	got=$(ws -P 0 -t $t -l -20000000 -- -k $LK 2>/dev/null)
	# the same names in the same order, each a number >= 0 on both (netperf: -1 when absent)
	shape() { sed -E 's/=[0-9]+(\.[0-9]+)?$/=N/' <<<"$1"; }
	mn=$(grep -c '=-' <<<"$want$got")
	if [ "$(shape "$got")" = "$(shape "$want")" ] && [ "$mn" -eq 0 ] && [ "$(wc -l <<<"$got")" -eq 6 ]; then
		pass "stream_latency_$t"
	else
		fail "stream_latency_$t" "netperf [$(echo $want)] warpspeed [$(echo $got)]"
	fi
done

# --- the banner comes as the test starts, through a pipe too; the column headers come with
# the results, after -D's interim lines, in netperf's order (netperf on a terminal: banner
# at once, then the interim lines, then headers and row)
stamp() { local t0=$1 l; while IFS= read -r l; do echo "$(awk -v a="$EPOCHREALTIME" -v b="$t0" 'BEGIN { printf "%.3f", a - b }') $l"; done; }
t0=$EPOCHREALTIME
ws -l 2 -D 0.5 2>/dev/null | stamp "$t0" >"$WS_TMP/banner.out"
first=$(head -n 1 "$WS_TMP/banner.out")
last=$(tail -n 1 "$WS_TMP/banner.out")
order=$(awk '{ $1 = ""; sub(/^ /, "") } /^MIGRATED/ { print "B"; next } /^Interim/ { if (p != "I") print "I"; p = "I"; next } /^Recv/ { print "H" }' "$WS_TMP/banner.out" | tr -d '\n')
# the banner at least 1.5 s before the results of a 2 s test: at its start, not its end
early() { awk -v f="${1%% *}" -v l="${2%% *}" 'BEGIN { exit !(l - f >= 1.5) }'; }
if [[ "$first" == *"MIGRATED TCP STREAM TEST"* ]] && early "$first" "$last" && [ "$order" = BIH ]; then
	pass banner_at_start
else
	fail banner_at_start "order $order (want banner, interim lines, headers): $(cat "$WS_TMP/banner.out")"
fi
for t in TCP_RR UDP_STREAM; do
	t0=$EPOCHREALTIME
	ws -l 2 -t $t -- -k THROUGHPUT 2>/dev/null | stamp "$t0" >"$WS_TMP/banner_$t.out"
	first=$(head -n 1 "$WS_TMP/banner_$t.out")
	if [[ "$first" == *"MIGRATED"* ]] && early "$first" "$(tail -n 1 "$WS_TMP/banner_$t.out")"; then pass "banner_at_start_$t"
	else fail "banner_at_start_$t" "$(cat "$WS_TMP/banner_$t.out")"; fi
done

# --- -R 0|1: SO_DONTROUTE on the client's data socket as netperf sets it --------------------
if command -v strace >/dev/null; then
	# how many times SO_DONTROUTE was set, or "failed" when the run failed
	dontroute() {
		# LeakSanitizer cannot run under ptrace: the sanitizer build checks leaks elsewhere
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			strace -f -o "$WS_TMP/route.trace" -e trace=setsockopt "$@" >/dev/null 2>&1 || { echo failed; return; }
		grep -c 'SO_DONTROUTE, \[1\]' "$WS_TMP/route.trace"
	}
	for t in TCP_STREAM UDP_STREAM TCP_RR UDP_RR TCP_CRR; do
		for r in "" "-R 0" "-R 1"; do
			name="route_${t}_${r// /}"
			want=$(dontroute "$NETPERF" -H 127.0.0.1 -p "$NS_PORT" -P 0 -t $t -l -3 -- $r)
			got=$(dontroute "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -P 0 -t $t -l -3 -- $r)
			if [ "$got" = "$want" ]; then pass "$name"; else fail "$name" "SO_DONTROUTE set $got times, netperf $want"; fi
		done
	done
else
	skip route "needs strace"
fi

finish
