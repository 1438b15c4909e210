# SPDX-License-Identifier: BSD-2-Clause
# netperf 2.7.0's unmigrated tests TCP_MSS, TCP_CC, LOC_CPU and REM_CPU on loopback, in
# the three pairings: warpspeed's client against `warpspeed serve` (ws_*), against a stock
# netserver (ns_*), and a stock netperf against `warpspeed serve` (np_*). Layouts are
# compared with the goldens of the real netperf (tests/goldens/netperf, numbers masked,
# blanks squeezed, the banner's "()" as warpspeed fills it); figures that do not depend on
# timing must equal what the real netperf prints on this host this minute (the MSS, the
# CPU rate and count); TCP_CC counts -l -N connections exactly on both ends. TCP_CC runs
# by count against netserver, whose timer would add 4 s to a timed run.
source "$(dirname "$0")/../lib.sh"
: "${WS_ROOT:?WS_ROOT must point at the source tree}"
G=$WS_ROOT/tests/goldens/netperf
NETPERF=$(command -v netperf)
NETSERVER=$(command -v netserver || { [ -x /usr/sbin/netserver ] && echo /usr/sbin/netserver; })
if [ -z "$NETPERF" ] || [ -z "$NETSERVER" ]; then
	skip legacy_tests "netperf and netserver 2.7 are not installed"
	finish
fi
start_daemon -L 127.0.0.1 || { fail daemon_start "could not start warpspeed serve"; finish; }
WP=$DAEMON_PORT
NP=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$NETSERVER" -D -p "$NP" -L 127.0.0.1 >"$WS_TMP/netserver.log" 2>&1 &
WS_PIDS+=($!)
for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$NP") 2>/dev/null && break; sleep 0.05; done

# Numbers masked, blanks squeezed, trailing blanks dropped; netperf's empty parentheses
# hold the address in warpspeed's banner.
layout() { sed -E 's/ \(\) / (127.0.0.1) /; s/-?[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g; s/ $//' "$1"; }
# run PEER NAME ARGS...: PEER ws (warpspeed -> serve), ns (warpspeed -> netserver), np
# (netperf -> serve); stdout in NAME.out, stderr in NAME.err, exit status returned.
run() {
	local peer=$1 name=$2 bin=$WS_BIN port=$WP
	shift 2
	[ "$peer" = ns ] && port=$NP
	[ "$peer" = np ] && bin=$NETPERF
	timeout 30 "$bin" -H 127.0.0.1 -p "$port" "$@" >"$WS_TMP/$name.out" 2>"$WS_TMP/$name.err"
}
# like GOLDEN PEER NAME ARGS...: the run's layout equals the golden's (its first lines
# only when the golden is shorter: warpspeed's -v 2 adds its own lines after netperf's).
like() {
	local golden=$1 peer=$2 name=${2}_$3 n
	shift 3
	if ! run "$peer" "$name" "$@"; then
		fail "$name" "exit $?: $(head -c 300 "$WS_TMP/$name.err")"
		return
	fi
	n=$(wc -l <"$G/$golden.txt")
	if ! diff <(layout "$G/$golden.txt") <(layout "$WS_TMP/$name.out" | head -n "$n") >"$WS_TMP/$name.diff"; then
		fail "$name" "layout differs from netperf's ($golden.txt): $(head -c 400 "$WS_TMP/$name.diff")"
	else
		pass "$name"
	fi
}
# same NAME WANT_FILE PEER ARGS...: stdout byte for byte as WANT_FILE.
same() {
	local name=$3_$1 want=$2 peer=$3
	shift 3
	if ! run "$peer" "$name" "$@"; then
		fail "$name" "exit $?: $(head -c 300 "$WS_TMP/$name.err")"
	elif ! cmp -s "$want" "$WS_TMP/$name.out"; then
		fail "$name" "got [$(cat -A "$WS_TMP/$name.out")], the real netperf printed [$(cat -A "$want")]"
	else
		pass "$name"
	fi
}

# --- what the real netperf prints on this host now: the references for exact figures ---
"$NETPERF" -H 127.0.0.1 -p "$NP" -t TCP_MSS -P 0 -v 0 >"$WS_TMP/ref_mss" 2>&1 &&
	"$NETPERF" -H 127.0.0.1 -p "$NP" -t TCP_MSS -P 0 -v 0 -B brand >"$WS_TMP/ref_mss_brand" 2>&1 &&
	"$NETPERF" -H 127.0.0.1 -p "$NP" -t LOC_CPU -v 2 >"$WS_TMP/ref_loc" 2>&1 &&
	"$NETPERF" -H 127.0.0.1 -p "$NP" -t LOC_CPU >"$WS_TMP/ref_loc1" 2>&1 &&
	"$NETPERF" -H 127.0.0.1 -p "$NP" -t REM_CPU -v 2 >"$WS_TMP/ref_rem" 2>&1 ||
	{ fail reference "the real netperf failed: $(cat "$WS_TMP"/ref_*)"; finish; }

for peer in ws ns np; do
	# --- TCP_MSS: the layouts, and the MSS itself as netperf reads it ---
	like tcp_mss "$peer" tcp_mss -t TCP_MSS
	like tcp_mss_v0 "$peer" tcp_mss_v0 -t TCP_MSS -v 0
	like tcp_mss_nodelay "$peer" tcp_mss_nodelay -t TCP_MSS -- -D
	same tcp_mss_P0_v0 "$WS_TMP/ref_mss" "$peer" -t TCP_MSS -P 0 -v 0
	same tcp_mss_brand "$WS_TMP/ref_mss_brand" "$peer" -t tcp_mss -P 0 -v 0 -B brand
	# --- REM_CPU: the daemon's rate and CPU count ---
	same rem_cpu_v2 "$WS_TMP/ref_rem" "$peer" -t REM_CPU -v 2
	# --- TCP_CC: the layouts (by count: netserver's timer would add 4 s) ---
	like tcp_cc_count "$peer" tcp_cc_count -t TCP_CC -l -1000
	like tcp_cc_cC "$peer" tcp_cc_cC -t TCP_CC -l -1000 -c -C
	like tcp_cc_v2 "$peer" tcp_cc_v2 -t TCP_CC -l -1000 -v 2
	like tcp_cc_fk "$peer" tcp_cc_fk -t TCP_CC -l -1000 -f k
	like tcp_cc_conf "$peer" tcp_cc_conf -t TCP_CC -l -1000 -i 3
	name=${peer}_tcp_cc_P0_v0
	if ! run "$peer" "$name" -t TCP_CC -l -1000 -P 0 -v 0; then
		fail "$name" "exit $?: $(head -c 300 "$WS_TMP/$name.err")"
	elif [ "$(wc -l <"$WS_TMP/$name.out")" -ne 1 ] || ! grep -qxE '[0-9]+\.[0-9]{2}' "$WS_TMP/$name.out" ||
		! awk '{ exit !($1 > 0) }' "$WS_TMP/$name.out"; then
		fail "$name" "expected one positive rate: $(cat -A "$WS_TMP/$name.out")"
	else
		pass "$name"
	fi
done
# LOC_CPU needs no peer: byte for byte as netperf, with no newline after the figure
same loc_cpu "$WS_TMP/ref_loc1" ws -t LOC_CPU
same loc_cpu_v2 "$WS_TMP/ref_loc" ws -t LOC_CPU -v 2
same loc_cpu_opts "$WS_TMP/ref_loc1" ws -t LOC_CPU -P 0 -l 1

# --- TCP_CC counts: -l -N connections, made and accepted ---
for peer in ws ns; do
	name=${peer}_tcp_cc_counted
	run "$peer" "$name" -t TCP_CC -l -700 -v 2
	if ! grep -qxF 'TCP_CC connections: made 700, failed 0; the server accepted 700' "$WS_TMP/$name.out"; then
		fail "$name" "expected 700 connections on both ends: $(grep connections "$WS_TMP/$name.out") $(head -c 200 "$WS_TMP/$name.err")"
	else
		pass "$name"
	fi
done
name=np_tcp_cc_counted
if ! run np "$name" -t TCP_CC -l -700 -P 0; then
	fail "$name" "netperf failed: $(head -c 300 "$WS_TMP/$name.err")"
elif ! wait_log '\(netperf\): TCP_CC [0-9.]+ s'; then
	fail "$name" "no TCP_CC session in the daemon's log: $(tail -n 2 "$DAEMON_LOG")"
else
	pass "$name"
fi

# --- a timed TCP_CC from a stock netperf ends without netserver's 4 s pad ---
name=np_tcp_cc_timed
t0=$(date +%s%N)
if ! run np "$name" -t TCP_CC -l 1 -P 0; then
	fail "$name" "netperf failed: $(head -c 300 "$WS_TMP/$name.err")"
else
	ms=$((($(date +%s%N) - t0) / 1000000))
	rate=$(awk '{ print $6 }' "$WS_TMP/$name.out" | head -n 1)
	if [ "$ms" -gt 3500 ]; then
		fail "$name" "took $ms ms for -l 1"
	elif ! in_range "$rate" 1 10000000; then
		fail "$name" "rate '$rate': $(cat "$WS_TMP/$name.out")"
	else
		pass "$name"
	fi
fi
finish
