# SPDX-License-Identifier: BSD-2-Clause
# The TCP stream family's I/O paths against a real `warpspeed serve` on loopback: the role
# swap (TCP_MAERTS), sendfile from a file that wraps and one that shrinks, -F refused before
# any connection, MSG_ZEROCOPY, MSG_TRUNC and splice receivers, the receive wake threshold,
# a receiver that stops reading, and sizes of 0. Exact byte counts come from the -v 2
# detail block and the daemon's one log line per session.
source "$(dirname "$0")/../lib.sh"
start_daemon || { fail daemon_start "could not start warpspeed serve"; finish; }
P=$DAEMON_PORT LOG=$DAEMON_LOG
ws() { "$WS_BIN" -H 127.0.0.1 -p "$P" "$@"; }

log_lines() { wc -l <"$LOG"; }

# The daemon sends the result before it logs the session, so wait for line N to appear.
log_line() {
	for _ in $(seq 1 40); do
		[ "$(log_lines)" -ge "$1" ] && { sed -n "$1p" "$LOG"; return 0; }
		sleep 0.05
	done
	return 1
}

# The data row of netperf's -v 2 block: alignments, offsets, bytes, per send, sends, per
# recv, recvs (fields 5-9 are the ones that vary).
detail_row() { grep -E '^ +8 +8 +0 +0 [0-9]+ ' "$1"; }

# True when calls x avg (avg printed with two decimals) is bytes, to the printing's precision.
per_call_ok() {
	awk -v b="$1" -v n="$2" -v a="$3" 'BEGIN { d = n * a - b; if (d < 0) d = -d; exit !(n > 0 && d <= n * 0.005 + 0.5) }'
}

# The receiver's exact byte count from calls x avg: exact while calls < 200 (error < 1 byte).
exact_from_avg() { awk -v n="$1" -v a="$2" 'BEGIN { printf "%.0f", n * a }'; }

TCP_INFO_RE='retransmissions [0-9]+, RTT [0-9]+ us, rttvar [0-9]+ us, MSS [0-9]+, cwnd [0-9]+$'

# --- a peer that stops (started first: each then only sleeps in the background) -----------
# A daemon of its own per case, SIGSTOPped 0.3 s into a 1-s test: as the receiver
# (TCP_STREAM: the client's sender must notice that its data is not being read) and as the
# sender (TCP_MAERTS: the client's receiver must notice that nothing comes). A wrapper
# records the client's exit status and time to exit; the verdicts are read at the end.
D1_PID=$DAEMON_PID
stall_start() { # name, test
	local name=$1 test=$2
	if ! start_daemon; then
		DAEMON_PID=$D1_PID DAEMON_PORT=$P DAEMON_LOG=$LOG
		fail "$name" "could not start a daemon of its own"; return
	fi
	local pid=$DAEMON_PID port=$DAEMON_PORT
	DAEMON_PID=$D1_PID DAEMON_PORT=$P DAEMON_LOG=$LOG
	(
		t0=$(date +%s.%N)
		"$WS_BIN" -H 127.0.0.1 -p "$port" -l 1 -P 0 -t "$test" >"$WS_TMP/$name.out" 2>"$WS_TMP/$name.err" &
		echo $! >"$WS_TMP/$name.pid"
		wait $!
		rc=$?
		t1=$(date +%s.%N)
		echo "$rc $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')" >"$WS_TMP/$name.rc.tmp"
		mv "$WS_TMP/$name.rc.tmp" "$WS_TMP/$name.rc"
	) 2>/dev/null & # quiet: bash would report the client as "Killed" if it is killed below
	WS_PIDS+=($!)
	for _ in $(seq 1 40); do [ -s "$WS_TMP/$name.pid" ] && break; sleep 0.01; done
	[ -s "$WS_TMP/$name.pid" ] && WS_PIDS+=("$(cat "$WS_TMP/$name.pid")")
	sleep 0.3
	kill -STOP "$pid" && echo "$pid $(date +%s.%N)" >"$WS_TMP/$name.daemon"
}
# name, what the message must say: exit non-zero within 9 s of the start (1 s of test, up
# to 1 s of socket timeout, 3-4 s without progress, 2 s for the daemon's account).
stall_verdict() {
	local name=$1 want=$2 pid t0 rc el msg
	[ -s "$WS_TMP/$name.daemon" ] || return 0
	read -r pid t0 <"$WS_TMP/$name.daemon"
	while [ ! -s "$WS_TMP/$name.rc" ] && in_range "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')" 0 30; do
		sleep 0.1
	done
	if [ -s "$WS_TMP/$name.rc" ]; then
		read -r rc el <"$WS_TMP/$name.rc"
		msg=$(tr "\n" " " <"$WS_TMP/$name.err" | sed "s/ $//")
		if [ "$rc" -eq 0 ]; then fail "$name" "exit 0 after $el s with the peer stopped"
		elif [[ "$msg" != *"$want"* ]]; then fail "$name" "exit $rc after $el s, message lacks '$want': $msg"
		elif ! in_range "$el" 0 9; then fail "$name" "took $el s to exit (limit 9 s): exit $rc: $msg"
		else pass "$name ($el s, exit $rc: $msg)"; fi
	else
		kill -9 "$(cat "$WS_TMP/$name.pid")" 2>/dev/null
		fail "$name" "still running 30 s after a 1-s test whose peer stopped; killed"
	fi
	kill -CONT "$pid"
	kill -TERM "$pid"
	for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
}
stall_start stalled_receiver TCP_STREAM
stall_start stalled_sender TCP_MAERTS

# --- TCP_MAERTS: the client receives; -M 128K sets its receive size ----------------------
out=$WS_TMP/maerts.out
n=$(log_lines)
if ws -l 1 -t TCP_MAERTS -v 2 -- -M 128K >"$out" 2>"$WS_TMP/maerts.err"; then
	set -- $(detail_row "$out")
	bytes=${5:-0} psend=${6:-0} sends=${7:-0} precv=${8:-0} recvs=${9:-0}
	row=$(sed -n 7p "$out")
	dline=$(log_line $((n + 1)))
	if ! grep -q '^MIGRATED TCP MAERTS TEST from ' "$out"; then fail maerts_time "banner: $(head -n 1 "$out")"
	elif ! grep -qx 'I/O path: local recv, remote send' "$out"; then fail maerts_time "path: $(grep '^I/O path' "$out")"
	elif ! grep -qx 'Receive wake threshold (local): 131072 bytes (SO_RCVLOWAT)' "$out" \
		|| grep -q '^Receive wake threshold (remote)' "$out"; then
		fail maerts_time "wake threshold lines: $(grep '^Receive wake' "$out")"
	elif ! grep -Eq "^TCP_INFO \(local\): $TCP_INFO_RE" "$out" || ! grep -Eq "^TCP_INFO \(remote\): $TCP_INFO_RE" "$out"; then
		fail maerts_time "TCP_INFO lines: $(grep '^TCP_INFO' "$out")"
	elif [ "$bytes" -le 0 ] || ! per_call_ok "$bytes" "$sends" "$psend" || ! per_call_ok "$bytes" "$recvs" "$precv"; then
		fail maerts_time "detail row inconsistent: $(detail_row "$out")"
	elif ! awk -v p="$precv" 'BEGIN { exit !(p > 0 && p <= 131072) }'; then
		fail maerts_time "receives of $precv bytes on average exceed -M 128K"
	elif ! [[ "$dline" =~ :\ TCP_MAERTS\ [0-9.]+\ s,\ 0\ bytes\ received,\ $bytes\ sent,\ ok$ ]]; then
		fail maerts_time "daemon log does not say $bytes sent: '$dline'"
	else
		set -- $row
		# Throughput is the receiver's bytes over the elapsed time printed with 2 decimals.
		if ! in_range "$4" 0.95 1.5; then fail maerts_time "elapsed $4 not about 1 s"
		elif ! awk -v t="$5" -v b="$bytes" -v e="$4" 'BEGIN { x = b * 8 / e / 1e6; exit !(t > x * 0.98 && t < x * 1.02) }'; then
			fail maerts_time "throughput $5 does not match $bytes bytes in $4 s"
		else pass maerts_time; fi
	fi
else
	fail maerts_time "exit $?: $(cat "$WS_TMP/maerts.err")"
fi

out=$WS_TMP/maerts_bytes.out
n=$(log_lines)
if ws -l -10000000 -t TCP_MAERTS -v 2 -- -M 128K >"$out" 2>"$WS_TMP/maerts_bytes.err"; then
	set -- $(detail_row "$out")
	bytes=${5:-0} recvs=${9:-0} got=$(exact_from_avg "${9:-0}" "${8:-0}")
	dline=$(log_line $((n + 1)))
	if [ "$bytes" != 10000000 ]; then fail maerts_bytes "the daemon sent $bytes bytes, not 10000000"
	elif [ "$recvs" -ge 200 ]; then fail maerts_bytes "$recvs receive calls: too many to recover the count from the average"
	elif [ "$got" != 10000000 ]; then fail maerts_bytes "the client received $got bytes ($(detail_row "$out"))"
	elif ! [[ "$dline" =~ :\ TCP_MAERTS\ [0-9.]+\ s,\ 0\ bytes\ received,\ 10000000\ sent,\ ok$ ]]; then
		fail maerts_bytes "daemon log: '$dline'"
	else pass maerts_bytes; fi
else
	fail maerts_bytes "exit $?: $(cat "$WS_TMP/maerts_bytes.err")"
fi

# --- TCP_SENDFILE: the seed form with -F, netperf's CPU table ----------------------------
FILE=$WS_TMP/random.1M
head -c 1048576 /dev/urandom >"$FILE"
out=$WS_TMP/sf.out
if ws -l 1 -c -C -tTCP_SENDFILE -F "$FILE" >"$out" 2>"$WS_TMP/sf.err"; then
	banner="TCP SENDFILE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 (127.0.0.1) port 0 AF_INET : demo"
	expect_hdr=$CLASSIC_TCP_CPU_HEADERS
	row=$(sed -n 7p "$out")
	if [ "$(sed -n 1p "$out")" != "$banner" ]; then fail sendfile_seed "banner: '$(sed -n 1p "$out")'"
	elif [ "$(sed -n 2,6p "$out")" != "$expect_hdr" ]; then fail sendfile_seed "headers: $(sed -n 2,6p "$out" | cat -A)"
	elif [ "$(wc -l <"$out")" -ne 7 ]; then fail sendfile_seed "expected 7 lines, got $(wc -l <"$out")"
	elif ! [[ "$row" =~ ^\ *[0-9]+\ +[0-9]+\ +[0-9]+\ \ \ \ [0-9]+\.[0-9]{2}\ +[0-9]+\.[0-9]{2}\ +[0-9.]+\ +[0-9.]+\ +[0-9]+\.[0-9]{3}\ +[0-9]+\.[0-9]{3}\ \ $ ]]; then
		fail sendfile_seed "row does not match netperf's format: '$row'"
	else
		set -- $row
		if ! in_range "$4" 0.95 1.5; then fail sendfile_seed "elapsed $4 not about 1 s"
		elif ! in_range "$5" 1 1000000; then fail sendfile_seed "throughput $5"
		elif ! in_range "$6" 0.01 100 || ! in_range "$7" 0.01 100; then fail sendfile_seed "util $6 $7 outside (0,100]"
		else pass sendfile_seed; fi
	fi
else
	fail sendfile_seed "exit $?: $(cat "$WS_TMP/sf.err")"
fi

# sendfile_path NAME ARGS...: -v 2 names sendfile, and the daemon received what was sent.
sendfile_path() {
	local name=$1 out=$WS_TMP/$1.out n dline bytes; shift
	n=$(log_lines)
	if ! ws -l 1 -tTCP_SENDFILE -v 2 "$@" >"$out" 2>"$WS_TMP/$name.err"; then
		fail "$name" "exit $?: $(cat "$WS_TMP/$name.err")"; return
	fi
	bytes=$(detail_row "$out" | awk '{print $5}')
	dline=$(log_line $((n + 1)))
	if ! grep -qx 'I/O path: local sendfile, remote recv' "$out"; then fail "$name" "path: $(grep '^I/O path' "$out")"
	elif [ -z "$bytes" ] || [ "$bytes" -le 0 ]; then fail "$name" "no bytes in the detail block: $(cat "$out")"
	elif ! [[ "$dline" =~ :\ TCP_SENDFILE\ [0-9.]+\ s,\ $bytes\ bytes\ received,\ 0\ sent,\ ok$ ]]; then
		fail "$name" "the client sent $bytes bytes; daemon log: '$dline'"
	else pass "$name"; fi
}
sendfile_path sendfile_file -F "$FILE"
sendfile_path sendfile_tempfile

# Byte mode, 3158073 bytes with -m 100000. As netperf, the sends walk a ring of send-size
# pieces at the file's start (max(2, socket buffer / send size + 1) of them, a multiple of
# 100000 below the 1 MiB file: ws_tcpio_sendfile_span), so every call but the last is a
# whole 100000 bytes: 31 calls and one of 58073, 32. (Walking the whole file, as before
# netperf's span, cut a call at each end of the file: 34.)
out=$WS_TMP/sf_bytes.out
n=$(log_lines)
if ws -l -3158073 -tTCP_SENDFILE -F "$FILE" -v 2 -- -m 100000 >"$out" 2>"$WS_TMP/sf_bytes.err"; then
	set -- $(detail_row "$out")
	dline=$(log_line $((n + 1)))
	if [ "${5:-}" != 3158073 ]; then fail sendfile_bytes "sent ${5:-?} bytes, not 3158073"
	elif [ "${7:-}" != 32 ]; then fail sendfile_bytes "${7:-?} sendfile calls, expected 32 (whole sends over netperf's span of the file)"
	elif ! [[ "$dline" =~ :\ TCP_SENDFILE\ [0-9.]+\ s,\ 3158073\ bytes\ received,\ 0\ sent,\ ok$ ]]; then
		fail sendfile_bytes "daemon log: '$dline'"
	else pass sendfile_bytes; fi
else
	fail sendfile_bytes "exit $?: $(cat "$WS_TMP/sf_bytes.err")"
fi

# --- -F refused before any connection: missing, empty, a directory (usage errors: exit 2;
# under the netperf name the same check fails the run with 1, personality.sh) ----------
: >"$WS_TMP/empty"
mkdir "$WS_TMP/dir"
n=$(log_lines)
fill_bad() { # name, file, expected message[, test]
	local name=$1 f=$2 msg=$3 rc
	ws -l 1 -t"${4:-TCP_SENDFILE}" -F "$f" >"$WS_TMP/$name.out" 2>"$WS_TMP/$name.err"
	rc=$?
	if [ $rc -eq 2 ] && grep -qxF "warpspeed: $msg" "$WS_TMP/$name.err" && [ ! -s "$WS_TMP/$name.out" ]; then pass "$name"
	else fail "$name" "exit $rc: $(cat "$WS_TMP/$name.err" "$WS_TMP/$name.out")"; fi
}
fill_bad fill_missing "$WS_TMP/missing" "cannot open the file to send (-F $WS_TMP/missing): No such file or directory"
fill_bad fill_empty "$WS_TMP/empty" "the file to send (-F $WS_TMP/empty) is empty; expected a regular, non-empty file"
fill_bad fill_directory "$WS_TMP/dir" "the file to send (-F $WS_TMP/dir) is not a regular file; expected a regular, non-empty file"
# -F fills the send buffers of every test the client sends in, so it is checked for all.
fill_bad fill_missing_stream "$WS_TMP/missing" "cannot open the file that fills the buffers (-F $WS_TMP/missing): No such file or directory" TCP_STREAM
fill_bad fill_empty_udp "$WS_TMP/empty" "the file that fills the buffers (-F $WS_TMP/empty) is empty; expected a non-empty file, a device such as /dev/urandom or a pipe" UDP_STREAM
fill_bad fill_directory_stream "$WS_TMP/dir" "the file that fills the buffers (-F $WS_TMP/dir) is a directory; expected a non-empty file, a device such as /dev/urandom or a pipe" TCP_STREAM
fill_bad fill_device_sendfile /dev/urandom "the file to send (-F /dev/urandom) is not a regular file; expected a regular, non-empty file"
sleep 0.2 # a connection that was made and dropped would be logged by now
if [ "$(log_lines)" -eq "$n" ]; then pass fill_no_session
else fail fill_no_session "the daemon logged: $(sed -n "$((n + 1)),\$p" "$LOG")"; fi

# --- non-regular fill sources fill the buffers, as netperf's fill file: a device, a pipe ---
if ws -l 1 -P 0 -F /dev/urandom >"$WS_TMP/fu.out" 2>"$WS_TMP/fu.err" && [ -s "$WS_TMP/fu.out" ] &&
	ws -l 1 -P 0 -t UDP_STREAM -F /dev/urandom -- -m 1472 >"$WS_TMP/fuu.out" 2>/dev/null && [ -s "$WS_TMP/fuu.out" ]; then
	pass fill_dev_urandom
else fail fill_dev_urandom "$(cat "$WS_TMP/fu.err" "$WS_TMP/fu.out")"; fi
if ws -l 1 -P 0 -F <(head -c 100000 /dev/urandom) >"$WS_TMP/fp.out" 2>"$WS_TMP/fp.err" && [ -s "$WS_TMP/fp.out" ]; then
	pass fill_pipe
else fail fill_pipe "$(cat "$WS_TMP/fp.err")"; fi

# --- a file that shrinks during the test --------------------------------------------------
BIG=$WS_TMP/random.64M
head -c 64M /dev/urandom >"$BIG"
n=$(log_lines)
t0=$(date +%s.%N)
ws -l 3 -tTCP_SENDFILE -F "$BIG" >"$WS_TMP/shrink.out" 2>"$WS_TMP/shrink.err" &
client=$!
WS_PIDS+=("$client")
sleep 0.5
truncate -s 4096 "$BIG"
for _ in $(seq 1 160); do kill -0 "$client" 2>/dev/null || break; sleep 0.05; done
el=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
if kill -0 "$client" 2>/dev/null; then
	kill -9 "$client"; wait "$client" 2>/dev/null
	fail file_shrank "the client was still running ${el} s after it started"
else
	wait "$client"; rc=$?
	if [ $rc -eq 1 ] && grep -qF "warpspeed: -F $BIG: the file shrank below 67108864 bytes during the test" "$WS_TMP/shrink.err" \
		&& in_range "$el" 0 2.5 \
		&& [[ "$(log_line $((n + 1)))" =~ :\ TCP_SENDFILE\ .*,\ the\ client\ left\ without\ confirming\ \(its\ side\ of\ the\ test\ failed\)$ ]]; then
		pass "file_shrank (${el} s)"
	else fail file_shrank "exit $rc after $el s: $(cat "$WS_TMP/shrink.err"); daemon: $(log_line $((n + 1)))"; fi
fi
n=$(log_lines)
if ws -l 1 -P 0 >"$WS_TMP/after.out" 2>"$WS_TMP/after.err" && [ "$(wc -l <"$WS_TMP/after.out")" -eq 1 ] \
	&& in_range "$(last_row_field "$WS_TMP/after.out" 4)" 0.95 1.5 \
	&& [[ "$(log_line $((n + 1)))" =~ :\ TCP_STREAM\ [0-9.]+\ s,\ [1-9][0-9]*\ bytes\ received,\ 0\ sent,\ ok$ ]]; then
	pass after_shrink
else fail after_shrink "$(cat "$WS_TMP/after.out" "$WS_TMP/after.err"; tail -n 1 "$LOG")"; fi

# --- -F fills TCP_STREAM's and UDP_STREAM's send buffers; TCP_MAERTS says it is unused -----
head -c 100000 /dev/urandom >"$WS_TMP/fill.100k"
n=$(log_lines)
if ws -l -1000003 -P 0 -F "$WS_TMP/fill.100k" -- -m 64K >"$WS_TMP/fill_stream.out" 2>"$WS_TMP/fill_stream.err" \
	&& [[ "$(log_line $((n + 1)))" =~ :\ TCP_STREAM\ [0-9.]+\ s,\ 1000003\ bytes\ received,\ 0\ sent,\ ok$ ]]; then
	pass fill_stream
else fail fill_stream "$(cat "$WS_TMP/fill_stream.out" "$WS_TMP/fill_stream.err"; log_line $((n + 1)))"; fi
if ws -l 1 -P 0 -t UDP_STREAM --flow-control -F "$WS_TMP/fill.100k" -- -m 1472 >"$WS_TMP/fill_udp.out" 2>"$WS_TMP/fill_udp.err" \
	&& [ "$(grep -c . "$WS_TMP/fill_udp.out")" -eq 2 ] && [ ! -s "$WS_TMP/fill_udp.err" ]; then
	pass fill_udp
else fail fill_udp "$(cat "$WS_TMP/fill_udp.out" "$WS_TMP/fill_udp.err")"; fi
if ws -l 1 -P 0 -t TCP_MAERTS -F "$WS_TMP/fill.100k" >"$WS_TMP/fill_maerts.out" 2>"$WS_TMP/fill_maerts.err" \
	&& grep -qxF "warpspeed: note: -F fills what the client sends; in TCP_MAERTS the client only receives, so $WS_TMP/fill.100k is checked but not used" "$WS_TMP/fill_maerts.err"; then
	pass fill_maerts_note
else fail fill_maerts_note "$(cat "$WS_TMP/fill_maerts.out" "$WS_TMP/fill_maerts.err")"; fi

# --- an I/O path the test does not use is refused, not ignored ----------------------------
ws -l 1 -t TCP_SENDFILE -- --zerocopy >"$WS_TMP/zc_sf.out" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -qF "warpspeed: --zerocopy does not apply to TCP_SENDFILE; it applies to TCP_STREAM and TCP_MAERTS (sendfile never copies)" "$WS_TMP/zc_sf.out"; then
	pass zerocopy_sendfile_refused
else fail zerocopy_sendfile_refused "exit $rc: $(cat "$WS_TMP/zc_sf.out")"; fi

# --- MSG_ZEROCOPY: every send call is a zerocopy send, counted with the kernel's copies ----
zerocopy_case() { # name, side that sends, args...
	local name=$1 side=$2 out=$WS_TMP/$1.out zl nz nc sends; shift 2
	if ! ws -l 1 -v 2 "$@" >"$out" 2>"$WS_TMP/$name.err"; then
		fail "$name" "exit $?: $(cat "$WS_TMP/$name.err")"; return
	fi
	zl=$(grep "^Zerocopy sends ($side): " "$out")
	nz=$(echo "$zl" | sed -n 's/^Zerocopy sends ([a-z]*): \([0-9]*\), of which the kernel copied \([0-9]*\)$/\1/p')
	nc=$(echo "$zl" | sed -n 's/^Zerocopy sends ([a-z]*): \([0-9]*\), of which the kernel copied \([0-9]*\)$/\2/p')
	sends=$(detail_row "$out" | awk '{print $7}')
	local path='local send+MSG_ZEROCOPY, remote recv'
	[ "$side" = remote ] && path='local recv, remote send+MSG_ZEROCOPY'
	if ! grep -qx "I/O path: $path" "$out"; then fail "$name" "path: $(grep '^I/O path' "$out")"
	elif [ -z "$nz" ] || [ -z "$nc" ]; then fail "$name" "no zerocopy line for the $side side: $(cat "$out")"
	elif [ "$nz" -le 0 ] || [ "$nc" -gt "$nz" ]; then fail "$name" "$zl"
	elif [ "$nz" != "$sends" ]; then fail "$name" "$nz zerocopy sends but $sends send calls"
	else pass "$name ($nz sends, $nc copied)"; fi
}
zerocopy_case zerocopy local --zerocopy
zerocopy_case zerocopy_maerts remote -t TCP_MAERTS --zerocopy

# --- receivers that do not copy: MSG_TRUNC and splice, exact byte counts --------------------
rx_path() { # name, option, path name
	local name=$1 opt=$2 path=$3 out=$WS_TMP/$1.out n dline
	n=$(log_lines)
	if ! ws -l -200000007 -v 2 -- "$opt" >"$out" 2>"$WS_TMP/$name.err"; then
		fail "$name" "exit $?: $(cat "$WS_TMP/$name.err")"; return
	fi
	dline=$(log_line $((n + 1)))
	if ! grep -qx "I/O path: local send, remote $path" "$out"; then fail "$name" "path: $(grep '^I/O path' "$out")"
	elif [ "$(detail_row "$out" | awk '{print $5}')" != 200000007 ]; then fail "$name" "detail: $(detail_row "$out")"
	elif ! [[ "$dline" =~ :\ TCP_STREAM\ [0-9.]+\ s,\ 200000007\ bytes\ received,\ 0\ sent,\ ok$ ]]; then
		fail "$name" "daemon log: '$dline'"
	else pass "$name"; fi
}
rx_path skip_rx_copy --skip-rx-copy "recv+MSG_TRUNC"
rx_path splice --splice splice

# --- the receive wake threshold ----------------------------------------------------------
rcvlowat_case() { # name, expected line, test options...
	local name=$1 want=$2; shift 2
	if ws -l -100000000 -v 2 -- "$@" >"$WS_TMP/$name.out" 2>"$WS_TMP/$name.err"; then
		if grep -qxF "$want" "$WS_TMP/$name.out"; then pass "$name"
		else fail "$name" "expected '$want', got '$(grep '^Receive wake' "$WS_TMP/$name.out")'"; fi
	else fail "$name" "exit $?: $(cat "$WS_TMP/$name.err")"; fi
}
rcvlowat_case rcvlowat_1 "Receive wake threshold (remote): 1 byte (SO_RCVLOWAT)" --rcvlowat 1
rcvlowat_case rcvlowat_256K "Receive wake threshold (remote): 262144 bytes (SO_RCVLOWAT)" --rcvlowat 256K

ws -l 1 -- --rcvlowat 0 >"$WS_TMP/lowat0.out" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -qxF "warpspeed: option --rcvlowat: '0' is too small: must be at least 1" "$WS_TMP/lowat0.out"; then
	pass rcvlowat_zero
else fail rcvlowat_zero "exit $rc: $(cat "$WS_TMP/lowat0.out")"; fi

# With the receive buffer set (-S), the kernel keeps the threshold at half of it; Linux
# doubles the size asked, so 64K gives 131072 and a threshold of 65536, 32K gives 32768.
for s in 64K:131072 32K:65536; do
	name=rcvlowat_S${s%%:*}
	out=$WS_TMP/$name.out
	if ws -l 1 -v 2 -- -S "${s%%:*}" >"$out" 2>"$WS_TMP/$name.err"; then
		rbuf=$(sed -n 7p "$out" | awk '{print $1}')
		got=$(sed -n 's/^Receive wake threshold (remote): \([0-9]*\) bytes (SO_RCVLOWAT)$/\1/p' "$out")
		if [ "$rbuf" != "${s#*:}" ]; then fail "$name" "remote receive socket $rbuf, expected ${s#*:}"
		elif [ -z "$got" ] || [ "$got" -ne $((rbuf / 2)) ]; then fail "$name" "threshold '$got', expected $((rbuf / 2)) (half of $rbuf)"
		else pass "$name"; fi
	else fail "$name" "exit $?: $(cat "$WS_TMP/$name.err")"; fi
done

# --- sizes of 0 -----------------------------------------------------------------------------
# -m 0 is netperf's default send size (netperf 2.7.0 runs `-- -m 0` with the send buffer's
# size); -M 0 is refused.
ws -l -65536 -P 0 -- -m 0 -k LOCAL_SEND_SIZE,LSS_SIZE >"$WS_TMP/size0.out" 2>&1; rc=$?
m0=$(sed -n 's/^LOCAL_SEND_SIZE=//p' "$WS_TMP/size0.out"); lss=$(sed -n 's/^LSS_SIZE=//p' "$WS_TMP/size0.out")
if [ $rc -eq 0 ] && [ -n "$m0" ] && [ "$m0" = "$lss" ]; then pass size_zero_m
else fail size_zero_m "exit $rc, want LOCAL_SEND_SIZE = LSS_SIZE: $(cat "$WS_TMP/size0.out")"; fi
ws -l 1 -- -M 0 >"$WS_TMP/size0.out" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -qxF "warpspeed: test option -M: '0' is too small: must be at least 1" "$WS_TMP/size0.out"; then
	pass size_zero_M
else fail size_zero_M "exit $rc: $(cat "$WS_TMP/size0.out")"; fi

# --- the stopped peers' verdicts -------------------------------------------------------------
stall_verdict stalled_receiver "the receiver stopped reading"
stall_verdict stalled_sender "the sender moved no data"
finish
