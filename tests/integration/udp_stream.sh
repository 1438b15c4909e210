# SPDX-License-Identifier: BSD-2-Clause
# UDP_STREAM against a real `warpspeed serve` on loopback: netperf's two-row layout, the
# receiver never counting more than the sender sent, the I/O paths that ran (-v 2) with
# and without --gso --gro, -P 0 / -v 0, and bad message sizes refused. By default the
# sender blasts as netperf's does (loss shows, socket sizes are the system defaults); loss
# 0 or tiny is asserted only for the opt-in --flow-control, and --pace keeps to its rate.
source "$(dirname "$0")/../lib.sh"
start_daemon || { fail daemon_start "could not start warpspeed serve"; finish; }
P=$DAEMON_PORT
ws() { "$WS_BIN" -H 127.0.0.1 -p "$P" -t UDP_STREAM -l 1 "$@"; }

# rows_ok FILE ROW1 ROW2 CASE [MAXLOSS]: both rows in netperf's format, receiver <= sender,
# loss at most MAXLOSS (a fraction; default 1: netperf's blast may lose any share).
rows_ok() {
	local r1=$2 r2=$3 name=$4 maxloss=${5:-1}
	if ! [[ "$r1" =~ ^\ *[0-9]+\ \ \ \ 1472\ \ \ [0-9]+\.[0-9]{2}\ +[0-9]+\ +[0-9]+\ +[0-9]+\.[0-9]{2}$ ]]; then
		fail "$name" "sender row does not match netperf's format: '$r1'"; return 1
	fi
	if ! [[ "$r2" =~ ^\ *[0-9]+\ {11}[0-9]+\.[0-9]{2}\ +[0-9]+\ {11}\ *[0-9]+\.[0-9]{2}$ ]]; then
		fail "$name" "receiver row does not match netperf's format: '$r2'"; return 1
	fi
	local sent recv
	sent=$(echo "$r1" | awk '{print $4}'); recv=$(echo "$r2" | awk '{print $3}')
	if [ "$recv" -gt "$sent" ]; then fail "$name" "received $recv > sent $sent"; return 1; fi
	if [ "$sent" -lt 1000 ]; then fail "$name" "only $sent datagrams sent in 1 s"; return 1; fi
	if ! awk -v s="$sent" -v r="$recv" -v m="$maxloss" 'BEGIN { exit !((s - r) <= s * m) }'; then
		fail "$name" "loss above $maxloss: sent $sent, received $recv"; return 1
	fi
	return 0
}

# --- default run, netperf's layout -----------------------------------------------------
out=$WS_TMP/udp.out
if ws -- -m 1472 >"$out" 2>"$WS_TMP/udp.err"; then
	banner="MIGRATED UDP STREAM TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 (127.0.0.1) port 0 AF_INET : demo"
	hdr=$(printf '%s\n' \
		"Socket  Message  Elapsed      Messages                " \
		"Size    Size     Time         Okay Errors   Throughput" \
		"bytes   bytes    secs            #      #   10^6bits/sec" "")
	if [ "$(sed -n 1p "$out")" != "$banner" ]; then fail udp_banner "got '$(sed -n 1p "$out")'"
	elif [ "$(sed -n 2,5p "$out")" != "$hdr" ]; then fail udp_headers "got: $(sed -n 2,5p "$out" | cat -A)"
	elif [ "$(wc -l <"$out")" -ne 8 ] || [ -n "$(sed -n 8p "$out")" ]; then
		fail udp_lines "expected 8 lines ending with a blank one, got: $(cat -A "$out")"
	elif rows_ok "$out" "$(sed -n 6p "$out")" "$(sed -n 7p "$out")" udp_default; then
		el=$(sed -n 6p "$out" | awk '{print $3}')
		if in_range "$el" 0.9 1.3; then pass udp_default; else fail udp_default "elapsed $el not about 1 s"; fi
	fi
else
	fail udp_default "exit $?: $(cat "$WS_TMP/udp.err")"
fi

# --- the sending modes: blast by default on the system's buffers, --flow-control without
# loss, --pace within its rate; each named on the -v 2 line --------------------------------
out=$WS_TMP/blast.out
wmem=$(cat /proc/sys/net/core/wmem_default); rmem=$(cat /proc/sys/net/core/rmem_default)
if ws -v 2 -- -m 1472 >"$out" 2>"$WS_TMP/blast.err"; then
	s_sock=$(sed -n 6p "$out" | awk '{print $1}'); r_sock=$(sed -n 7p "$out" | awk '{print $1}')
	if ! grep -qx "UDP sending: blast (netperf's: no flow control, no pacing)" "$out"; then
		fail udp_blast "no 'UDP sending: blast' line: $(cat "$out")"
	elif [ "$s_sock" != "$wmem" ] || [ "$r_sock" != "$rmem" ]; then
		fail udp_blast "socket sizes $s_sock/$r_sock, expected the system defaults $wmem/$rmem"
	elif rows_ok "$out" "$(sed -n 6p "$out")" "$(sed -n 7p "$out")" udp_blast; then
		pass udp_blast
	fi
else
	fail udp_blast "exit $?: $(cat "$WS_TMP/blast.err")"
fi
out=$WS_TMP/flow.out
if ws -v 2 -- -m 1472 --flow-control >"$out" 2>"$WS_TMP/flow.err"; then
	if ! grep -qx "UDP sending: flow control (the receiver's window, --flow-control)" "$out"; then
		fail udp_flow_control "no 'UDP sending: flow control' line: $(cat "$out")"
	elif rows_ok "$out" "$(sed -n 6p "$out")" "$(sed -n 7p "$out")" udp_flow_control 0.001; then
		pass udp_flow_control
	fi
else
	fail udp_flow_control "exit $?: $(cat "$WS_TMP/flow.err")"
fi
out=$WS_TMP/pace.out
if ws -v 2 -- -m 1472 --pace 100m >"$out" 2>"$WS_TMP/pace.err"; then
	tput=$(sed -n 6p "$out" | awk '{print $6}')
	if ! grep -qx "UDP sending: paced to 100.00 10^6bits/s (--pace)" "$out"; then
		fail udp_pace "no 'UDP sending: paced' line: $(cat "$out")"
	elif ! in_range "$tput" 1 105; then
		fail udp_pace "sent $tput 10^6bits/s, above the 100m pace: $(cat "$out")"
	else
		pass udp_pace
	fi
else
	fail udp_pace "exit $?: $(cat "$WS_TMP/pace.err")"
fi
"$WS_BIN" -H 127.0.0.1 -p "$P" -t TCP_STREAM -l 1 -- --pace 1g >"$WS_TMP/pace_tcp.out" 2>&1
rc=$?
if [ "$rc" -eq 2 ] && grep -q -- '--pace does not apply to TCP_STREAM; it applies to UDP_STREAM' "$WS_TMP/pace_tcp.out"; then
	pass udp_pace_tcp_refused
else
	fail udp_pace_tcp_refused "exit $rc (want 2): $(cat "$WS_TMP/pace_tcp.out")"
fi

# --- --gso --gro with -v 2 and CPU: the paths that ran, the datagram counts ---------------
out=$WS_TMP/gso.out
if ws -c -C -v 2 --gso --gro -- -m 1472 >"$out" 2>"$WS_TMP/gso.err"; then
	if ! grep -qx 'I/O path: local sendmsg+UDP_SEGMENT, remote recvmmsg+UDP_GRO' "$out"; then
		fail udp_gso_gro "no I/O path line for GSO/GRO: $(cat "$out")"
	elif ! grep -q '^UDP datagrams: sent [0-9]*, received [0-9]*, lost [0-9]*, reordered' "$out"; then
		fail udp_gso_gro "no UDP datagrams line: $(cat "$out")"
	elif ! [ "$(sed -n 2p "$out")" = "Socket  Message  Elapsed      Messages                   CPU      Service" ]; then
		fail udp_gso_gro "CPU header: $(sed -n 2p "$out" | cat -A)"
	else
		sent=$(sed -n 's/^UDP datagrams: sent \([0-9]*\), received \([0-9]*\), lost \([0-9]*\),.*/\1/p' "$out")
		recv=$(sed -n 's/^UDP datagrams: sent \([0-9]*\), received \([0-9]*\), lost \([0-9]*\),.*/\2/p' "$out")
		lost=$(sed -n 's/^UDP datagrams: sent \([0-9]*\), received \([0-9]*\), lost \([0-9]*\),.*/\3/p' "$out")
		if [ "$recv" -gt "$sent" ] || [ $((recv + lost)) -ne "$sent" ]; then
			fail udp_gso_gro "counts do not add up: sent $sent received $recv lost $lost"
		else pass udp_gso_gro; fi
	fi
else
	fail udp_gso_gro "exit $?: $(cat "$WS_TMP/gso.err")"
fi

# --- --no-mmsg: plain calls on both ends -------------------------------------------------
out=$WS_TMP/plain.out
if ws -v 2 --no-mmsg -- -m 1472 >"$out" 2>&1 && grep -qx 'I/O path: local send, remote recv' "$out"; then
	pass udp_no_mmsg
else
	fail udp_no_mmsg "$(cat "$out")"
fi

# --- -P 0 (two rows and netperf's blank line) and -v 0 (one figure) ---------------------
out=$WS_TMP/p0.out
if ws -P 0 -- -m 1472 >"$out" 2>"$WS_TMP/p0.err" && [ "$(wc -l <"$out")" -eq 3 ] &&
	rows_ok "$out" "$(sed -n 1p "$out")" "$(sed -n 2p "$out")" udp_p0; then
	pass udp_p0
elif [ "$(wc -l <"$out")" -ne 3 ]; then
	fail udp_p0 "expected 3 lines: $(cat -A "$out")"
fi
out=$WS_TMP/v0.out
if ws -P 0 -v 0 -- -m 1472 >"$out" 2>/dev/null && grep -Eqx '[ 0-9]+\.[0-9]{2} ' "$out"; then
	pass udp_v0
else
	fail udp_v0 "$(cat -A "$out")"
fi

# --- message sizes outside 16..65507 are refused ----------------------------------------
"$WS_BIN" -H 127.0.0.1 -p "$P" -t UDP_STREAM -l 1 -- -m 70000 >"$WS_TMP/big.out" 2>&1
rc=$?
if [ "$rc" -eq 2 ] && grep -q '65507' "$WS_TMP/big.out"; then pass udp_m_70000
else fail udp_m_70000 "exit $rc (want 2): $(cat "$WS_TMP/big.out")"; fi
"$WS_BIN" -H 127.0.0.1 -p "$P" -t UDP_STREAM -l 1 -- -m 8 >"$WS_TMP/small.out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] && grep -q '16' "$WS_TMP/small.out"; then pass udp_m_8
else fail udp_m_8 "exit $rc (want non-zero, naming the 16-byte minimum): $(cat "$WS_TMP/small.out")"; fi

# The daemon survived all of it.
if kill -0 "$DAEMON_PID" 2>/dev/null; then pass udp_daemon_alive; else fail udp_daemon_alive "daemon exited: $(cat "$DAEMON_LOG")"; fi
finish
