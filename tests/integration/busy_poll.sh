# SPDX-License-Identifier: BSD-2-Clause
# --busy-poll on loopback (issue 32, docs/mptcp.md): the cost is counted, the kernel's part
# is read back, bad values are refused.
#  - accounting: an open-loop TCP_RR at 200 trans/s leaves a plain requester asleep almost
#    all the time; with --busy-poll=0 it spins through every wait, and its own CPU time
#    (RUSAGE_THREAD, the figure the system-wide one cannot show on a host busy with other
#    work) must be several times the plain run's, with the same transactions done;
#  - TCP_RR, UDP_RR and --streams 4 at both ends: the I/O path says "busy poll",
#    SO_BUSY_POLL reads back as asked on both sides, loopback has no NAPI id (so the spin is
#    all there is), and the -v 1 line says so;
#  - bad values and tests it does not apply to exit 2 before any connection;
#  - against a stock netserver only the client spins (the remote's object is null).
source "$(dirname "$0")/../lib.sh"
start_daemon || { fail daemon_start "could not start warpspeed serve"; finish; }
ws() { timeout 30 "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" "$@"; }

# field NAME FILE EXPR: a python expression over the document d, printed
jq_py() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print($2)" "$1"; }

# --- accounting -------------------------------------------------------------------------
# A spinning thread gets only its share of a host loaded by other work (2 vCPUs shared by
# several builds gave it 12-21% of a CPU, against 2-3% asleep), and now and then much
# less: up to three pairs of runs, the first that shows the cost passes.
accounting() {
	ws -t TCP_RR -l 1 -c --json -- --rate 200 >"$WS_TMP/plain.json" 2>"$WS_TMP/plain.err" &&
		ws -t TCP_RR -l 1 -c --json -- --rate 200 --busy-poll=0 >"$WS_TMP/spin.json" 2>"$WS_TMP/spin.err" ||
		{ echo "a run failed: $(cat "$WS_TMP/plain.err" "$WS_TMP/spin.err")"; return 1; }
	plain=$(jq_py "$WS_TMP/plain.json" 'd["local"]["thread_cpu"]["percent_of_one_cpu"]')
	spin=$(jq_py "$WS_TMP/spin.json" 'd["local"]["thread_cpu"]["percent_of_one_cpu"]')
	tp=$(jq_py "$WS_TMP/plain.json" 'd["local"]["rr"]["transactions"]')
	tsp=$(jq_py "$WS_TMP/spin.json" 'd["local"]["rr"]["transactions"]')
	sd=$(jq_py "$WS_TMP/spin.json" 'd["local"]["cpu"]["service_demand"] > 0')
	echo "thread CPU plain $plain% spin $spin% of one CPU, transactions $tp / $tsp, service demand > 0: $sd"
	awk -v p="$plain" -v s="$spin" 'BEGIN { exit !(s >= 3 * p && s >= 5) }' &&
		[ "$tp" = 200 ] && [ "$tsp" = 200 ] && [ "$sd" = True ]
}
ok=
for try in 1 2 3; do
	if msg=$(accounting); then
		ok=yes
		break
	fi
	echo "busy_poll accounting, try $try: $msg"
done
echo "busy_poll accounting: $msg"
[ -n "$ok" ] && pass busy_poll_accounting || fail busy_poll_accounting "$msg"

# --- both ends, each RR engine ------------------------------------------------------------
check_run() { # name, expected path, SO_BUSY_POLL, args...
	local name=$1 path=$2 us=$3
	shift 3
	ws -l 1 -v 1 --json-file "$WS_TMP/$name.json" "$@" >"$WS_TMP/$name.out" 2>"$WS_TMP/$name.err"
	local rc=$? r
	[ "$rc" = 0 ] || { fail "$name" "exit $rc: $(cat "$WS_TMP/$name.err")"; return; }
	r=$(jq_py "$WS_TMP/$name.json" "'ok' if all(d[s]['io']['path'] == '$path' and d[s]['busy_poll'] == {'spin': True, 'so_busy_poll_us': $us, 'napi_id': 0} for s in ('local', 'remote')) and d['spec']['io_options']['busy_poll'] and d['spec']['io_options']['busy_poll_us'] == $us else (d['local']['io'], d['local']['busy_poll'], d['remote']['io'], d['remote']['busy_poll'])")
	[ "$r" = ok ] || { fail "$name" "$r"; return; }
	local want="^Busy poll: local spinning receive, SO_BUSY_POLL $us us, no NAPI device \(the spin alone\); remote spinning receive, SO_BUSY_POLL $us us, no NAPI device \(the spin alone\)$"
	grep -qE "$want" "$WS_TMP/$name.out" && pass "$name" || fail "$name" "no busy-poll line: $(cat "$WS_TMP/$name.out")"
}
check_run busy_poll_tcp_rr "send/recv+busy-poll" 50 -t TCP_RR -- --busy-poll
check_run busy_poll_udp_rr "send/recv+busy-poll" 20 -t UDP_RR -- --busy-poll=20
check_run busy_poll_multi "epoll+busy-poll" 50 -t TCP_RR -- --busy-poll --streams 4 --threads 2
# without the option: no line, null objects
ws -t TCP_RR -l -2000 --json >"$WS_TMP/none.json" 2>&1
r=$(jq_py "$WS_TMP/none.json" 'd["local"]["busy_poll"] is None and d["remote"]["busy_poll"] is None and d["local"]["io"]["path"] == "send/recv"')
[ "$r" = True ] && pass busy_poll_off || fail busy_poll_off "$(head -c 300 "$WS_TMP/none.json")"

# --- refused, exit 2 ------------------------------------------------------------------------
refused() { # name, expected message regex, args...
	local name=$1 re=$2
	shift 2
	ws "$@" >"$WS_TMP/r.out" 2>"$WS_TMP/r.err"
	local rc=$?
	if [ "$rc" = 2 ] && grep -qE -- "$re" "$WS_TMP/r.err"; then pass "$name"; else
		fail "$name" "exit $rc: $(cat "$WS_TMP/r.err")"
	fi
}
EXPECT="expected a busy-poll time in microseconds"
refused busy_poll_word "'abc' is not valid; $EXPECT" -t TCP_RR -- --busy-poll=abc
refused busy_poll_negative "'-1' is not valid; $EXPECT" -t TCP_RR -- --busy-poll=-1
refused busy_poll_too_long "'1000001' is not valid; $EXPECT" -t TCP_RR -- --busy-poll=1000001
refused busy_poll_empty "option --busy-poll needs a value; expected --busy-poll\[=USECS\]" -t TCP_RR -- --busy-poll=
refused busy_poll_stream "--busy-poll does not apply to TCP_STREAM; it applies to TCP_RR and UDP_RR" -t TCP_STREAM -- --busy-poll
refused busy_poll_crr "--busy-poll does not apply to TCP_CRR" -t TCP_CRR -- --busy-poll
# the value is not the next word: "--busy-poll 30" leaves 30 as a stray argument
refused busy_poll_no_space "30" -t TCP_RR -- --busy-poll 30

# --- against a stock netserver: the client spins alone -------------------------------------
NETSERVER=$(command -v netserver || { [ -x /usr/sbin/netserver ] && echo /usr/sbin/netserver; })
if [ -z "$NETSERVER" ]; then
	skip busy_poll_netserver "netserver (netperf 2.7) is not installed"
	finish
fi
NP=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$NETSERVER" -D -p "$NP" -L 127.0.0.1,4 >"$WS_TMP/netserver.log" 2>&1 &
WS_PIDS+=($!)
for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$NP") 2>/dev/null && break; sleep 0.05; done
timeout 30 "$WS_BIN" -H 127.0.0.1 -p "$NP" -t TCP_RR -l 1 -v 2 --json-file "$WS_TMP/np.json" -- --busy-poll \
	>"$WS_TMP/np.out" 2>"$WS_TMP/np.err"
rc=$?
r=$(jq_py "$WS_TMP/np.json" 'd["local"]["busy_poll"]["spin"] and d["remote"]["busy_poll"] is None' 2>&1)
if [ "$rc" = 0 ] && [ "$r" = True ] && grep -q "only this client busy-polls" "$WS_TMP/np.err" &&
	grep -q "remote none (a stock netserver)" "$WS_TMP/np.out"; then
	pass busy_poll_netserver
else
	fail busy_poll_netserver "exit $rc, $r: $(cat "$WS_TMP/np.err") $(grep -i busy "$WS_TMP/np.out")"
fi
finish
