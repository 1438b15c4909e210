# SPDX-License-Identifier: BSD-2-Clause
# harness_opts: the options benchmark harnesses pass, against a real `warpspeed serve` on
# loopback, with evidence from outside warpspeed (ss) as well as its own -v 2 line and the
# daemon's log: -Y (IP_TOS) and -y (SO_PRIORITY) on both ends' data sockets, -S
# (SO_KEEPALIVE), test options -K (TCP_CONGESTION, and the error naming the kernel's
# list), -C (TCP_CORK), -G (TCP_MAXSEG), -H/-L (data addresses other than the control
# connection's), DUMP_TCP_INFO=1 in netperf's form, -f x falling back to 10^6bits/s, -s
# (a wait before the test), and the options accepted with a note (-b -w -a).
source "$(dirname "$0")/../lib.sh"
start_daemon -L 127.0.0.1 || { fail daemon_start "could not start warpspeed serve"; finish; }
P=$DAEMON_PORT
ws() { "$WS_BIN" -H 127.0.0.1 -p "$P" "$@"; }
have_ss=1
command -v ss >/dev/null || have_ss=0

# Two congestion controls this kernel has (the same one twice if it has only one).
read -r -a ccs <"/proc/sys/net/ipv4/tcp_available_congestion_control"
lcc=${ccs[0]}; rcc=${ccs[1]:-${ccs[0]}}

# --- -Y -y -S and -K -C -G on both ends ------------------------------------------------
out=$WS_TMP/opts.out
"$WS_BIN" -H 127.0.0.1 -p "$P" -l 3 -v 2 -Y 0x10,af41 -y 3,4 -S -- -K "$lcc,$rcc" -C -G 1000 >"$out" 2>"$WS_TMP/opts.err" &
cpid=$!
WS_PIDS+=("$cpid")
sleep 1.5
[ $have_ss = 1 ] && ss -Htinpe --tos >"$WS_TMP/ss.txt" 2>&1
wait "$cpid"; rc=$?
line=$(grep '^Data socket options (local):' "$out")
if [ $rc -ne 0 ]; then
	fail opts_run "exit $rc: $(cat "$WS_TMP/opts.err")"
elif ! [[ "$line" =~ ^Data\ socket\ options\ \(local\):\ IP_TOS\ 0x10\ SO_PRIORITY\ 3\ SO_KEEPALIVE\ 1\ TCP_CORK\ 1\ TCP_MAXSEG\ ([0-9]+)\ TCP_CONGESTION\ $lcc$ ]] ||
	[ "${BASH_REMATCH[1]}" -gt 1000 ]; then
	fail opts_local_v2 "got '$line'"
else
	pass opts_local_v2
fi
if wait_log "data socket options: tos 0x88 priority 4 keepalive maxseg [0-9]+ cc $rcc$"; then
	pass opts_remote_log
else
	fail opts_remote_log "$(grep 'data socket options' "$DAEMON_LOG" || tail -n 3 "$DAEMON_LOG")"
fi
if [ $have_ss = 0 ]; then
	skip opts_ss "needs ss (iproute2)"
else
	# the client's data socket and the daemon's, each with its own TOS, priority and CC,
	# and the daemon's SO_KEEPALIVE as its keepalive timer
	client=$(grep -A1 "pid=$cpid," "$WS_TMP/ss.txt" | tr '\n' ' ')
	daemon=$(grep -A1 "pid=$DAEMON_PID," "$WS_TMP/ss.txt" | tr '\n' ' ')
	if [[ "$client" == *"tos:0x10 class_id:0x3"*" $lcc "*"mss:"* ]] &&
		[[ "$daemon" == *"timer:(keepalive"*"tos:0x88 class_id:0x4"*" $rcc "* ]]; then
		pass opts_ss
	else
		fail opts_ss "ss did not show the options: client [$client] daemon [$daemon]"
	fi
fi

# --- the output names netperf fills from these options (-k), as netperf 2.7.0 prints them --
ws -l 1 -P 0 -Y 0x10,0x20 -y 3,4 -- -K "$lcc,$rcc" \
	-k LOCAL_SOCKET_TOS,REMOTE_SOCKET_TOS,LOCAL_SOCKET_PRIO,REMOTE_SOCKET_PRIO,LOCAL_CONG_CONTROL,REMOTE_CONG_CONTROL \
	>"$WS_TMP/k.out" 2>"$WS_TMP/k.err"; rc=$?
want=$(printf '%s\n' LOCAL_SOCKET_TOS=0x10 REMOTE_SOCKET_TOS=0x20 LOCAL_SOCKET_PRIO=3 REMOTE_SOCKET_PRIO=4 \
	"LOCAL_CONG_CONTROL=$lcc" "REMOTE_CONG_CONTROL=$rcc")
if [ $rc -eq 0 ] && [ "$(cat "$WS_TMP/k.out")" = "$want" ]; then pass opts_output_names
else fail opts_output_names "exit $rc: $(cat "$WS_TMP/k.out" "$WS_TMP/k.err")"; fi
ws -l 1 -P 0 -- -k LOCAL_SOCKET_TOS,REMOTE_SOCKET_PRIO >"$WS_TMP/k0.out" 2>&1
if [ "$(cat "$WS_TMP/k0.out")" = "$(printf '%s\n' LOCAL_SOCKET_TOS=0xffffffff REMOTE_SOCKET_PRIO=-1)" ]; then pass opts_output_names_unset
else fail opts_output_names_unset "$(cat "$WS_TMP/k0.out")"; fi

# --- a congestion control the kernel lacks: the error names the ones it has ---------------
ws -l 1 -- -K nosuchcc >"$WS_TMP/cc.out" 2>&1; rc=$?
want="warpspeed: data connection 1 of 1: local data socket: TCP congestion control 'nosuchcc' is not available on this host; expected one of: ${ccs[*]} (/proc/sys/net/ipv4/tcp_available_congestion_control)"
if [ $rc -eq 1 ] && [ "$(head -n 1 "$WS_TMP/cc.out")" = "$want" ]; then pass opts_cc_missing_local
else fail opts_cc_missing_local "exit $rc: $(cat "$WS_TMP/cc.out") (want: $want)"; fi
ws -l 1 -- -K ",nosuchcc" >"$WS_TMP/rcc.out" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q "^warpspeed: the daemon reported: remote data socket: TCP congestion control 'nosuchcc' is not available on this host; expected one of: ${ccs[*]} " "$WS_TMP/rcc.out"; then
	pass opts_cc_missing_remote
else fail opts_cc_missing_remote "exit $rc: $(cat "$WS_TMP/rcc.out")"; fi

# --- DUMP_TCP_INFO=1: netperf's three lines on stderr, nothing without it ------------------
DUMP_TCP_INFO=1 ws -l 1 -P 0 >"$WS_TMP/ti.out" 2>"$WS_TMP/ti.err"; rc=$?
re1='^tcpi_rto [0-9]+ tcpi_ato [0-9]+ tcpi_pmtu [0-9]+ tcpi_rcv_ssthresh [0-9]+$'
re2='^tcpi_rtt [0-9]+ tcpi_rttvar [0-9]+ tcpi_snd_ssthresh [0-9]+ tpci_snd_cwnd [0-9]+$'
re3='^tcpi_reordering [0-9]+ tcpi_total_retrans [0-9]+$'
if [ $rc -eq 0 ] && [ "$(wc -l <"$WS_TMP/ti.err")" -eq 3 ] && [[ "$(sed -n 1p "$WS_TMP/ti.err")" =~ $re1 ]] &&
	[[ "$(sed -n 2p "$WS_TMP/ti.err")" =~ $re2 ]] && [[ "$(sed -n 3p "$WS_TMP/ti.err")" =~ $re3 ]] &&
	! grep -q tcpi "$WS_TMP/ti.out"; then
	pass dump_tcp_info
else
	fail dump_tcp_info "exit $rc, stderr: $(cat -A "$WS_TMP/ti.err")"
fi
DUMP_TCP_INFO= ws -l 1 -P 0 -t TCP_MAERTS >/dev/null 2>"$WS_TMP/ti2.err" # set but empty: netperf dumps too
ws -l 1 -P 0 >/dev/null 2>"$WS_TMP/ti3.err"
if [ "$(grep -c '^tcpi_' "$WS_TMP/ti2.err")" -eq 3 ] && ! grep -q tcpi "$WS_TMP/ti3.err"; then pass dump_tcp_info_env
else fail dump_tcp_info_env "empty value: $(cat "$WS_TMP/ti2.err"); unset: $(cat "$WS_TMP/ti3.err")"; fi

# --- -f x on a stream test: 10^6bits/s, as netperf ---------------------------------------
ws -l 1 -f x >"$WS_TMP/fx.out" 2>&1; rc=$?
if [ $rc -eq 0 ] && [ "$(sed -n 5p "$WS_TMP/fx.out")" = "bytes  bytes   bytes    secs.    10^6bits/sec  " ]; then pass format_x_stream
else fail format_x_stream "exit $rc: $(cat -A "$WS_TMP/fx.out")"; fi

# --- -s: the wait comes before the test (the run takes it longer, the result does not) ----
t0=$(date +%s.%N)
ws -l 1 -s 2 -P 0 >"$WS_TMP/s.out" 2>&1; rc=$?
t1=$(date +%s.%N)
el=$(awk '{print $4}' "$WS_TMP/s.out" | head -n 1)
if [ $rc -eq 0 ] && awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a >= 3.0) }' && in_range "$el" 0.9 1.5; then
	pass wait_before_test
else
	fail wait_before_test "exit $rc, wall $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') s, elapsed '$el': $(cat "$WS_TMP/s.out")"
fi

# --- accepted with a note: -b, -w (Debian's netperf lacks intervals), -a --------------------
ws -l 1 -P 0 -b 4 -w 10 -a 8 >"$WS_TMP/n.out" 2>"$WS_TMP/n.err"; rc=$?
if [ $rc -eq 0 ] &&
	grep -qx "warpspeed: note: -b 4: packet burst size is not compiled in, as in Debian's netperf 2.7.0 (built without --enable-intervals); ignored (netperf's packets per -w interval; the first burst of TCP_RR and UDP_RR is the test option -b, after --). For paced UDP_STREAM use --pace RATE" "$WS_TMP/n.err" &&
	grep -qx "warpspeed: note: -w 10: packet rate control is not compiled in, as in Debian's netperf 2.7.0 (built without --enable-intervals); ignored. For paced UDP_STREAM use --pace RATE" "$WS_TMP/n.err" &&
	grep -q "^warpspeed: note: -a/-A 8: " "$WS_TMP/n.err" && ! grep -q note "$WS_TMP/n.out"; then
	pass notes_on_stderr
else
	fail notes_on_stderr "exit $rc: $(cat "$WS_TMP/n.err")"
fi

# --- test options -H/-L: data on other loopback addresses than the control connection -----
"$WS_BIN" -H 127.0.0.1 -p "$P" -l 2 -P 0 -- -H 127.0.0.2 -L 127.0.0.3 >"$WS_TMP/hl.out" 2>"$WS_TMP/hl.err" &
cpid=$!
WS_PIDS+=("$cpid")
sleep 1
[ $have_ss = 1 ] && ss -Htnp >"$WS_TMP/ss2.txt" 2>&1
wait "$cpid"; rc=$?
if [ $rc -ne 0 ]; then
	fail data_addresses "exit $rc: $(cat "$WS_TMP/hl.err")"
elif [ $have_ss = 1 ] && ! grep "pid=$cpid," "$WS_TMP/ss2.txt" | grep -q '127\.0\.0\.3:[0-9]* *127\.0\.0\.2:[0-9]*'; then
	fail data_addresses "no 127.0.0.3 -> 127.0.0.2 connection: $(grep "pid=$cpid," "$WS_TMP/ss2.txt")"
else
	pass data_addresses
fi
ws -t UDP_STREAM -l 1 -P 0 -- -m 1472 -H 127.0.0.2 -L 127.0.0.3 >"$WS_TMP/hlu.out" 2>"$WS_TMP/hlu.err"; rc=$?
got=$(sed -n 2p "$WS_TMP/hlu.out" | awk '{print $3}')
if [ $rc -eq 0 ] && [ "${got:-0}" -gt 0 ]; then pass data_addresses_udp
else fail data_addresses_udp "exit $rc: $(cat "$WS_TMP/hlu.out" "$WS_TMP/hlu.err")"; fi

if kill -0 "$DAEMON_PID" 2>/dev/null; then pass harness_daemon_alive; else fail harness_daemon_alive "$(cat "$DAEMON_LOG")"; fi
finish
