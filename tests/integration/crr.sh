# SPDX-License-Identifier: BSD-2-Clause
# TCP_CRR against `warpspeed serve`: exact transaction counts (-l -N, checked in the
# daemon's own log), sizes, many flows, no descriptor left behind in the daemon, and in a
# network namespace of its own, a narrowed ephemeral port range: retried when short, and a
# failure naming net.ipv4.ip_local_port_range when there is none.
source "$(dirname "$0")/../lib.sh"
start_daemon || { fail daemon_start "no daemon"; finish; }
P=$DAEMON_PORT
ws() { "$WS_BIN" -H 127.0.0.1 -p "$P" -t TCP_CRR "$@"; }
fds() { find "/proc/$DAEMON_PID/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }
fds_before=$(fds)

# --- -l -500: exactly 500 transactions of 1 byte each way --------------------------------
if ws -l -500 -P 0 >"$WS_TMP/n500.out" 2>&1 && wait_log "TCP_CRR [0-9.]+ s, 500 bytes received, 500 sent, ok"; then
	pass crr_count_500
else fail crr_count_500 "$(cat "$WS_TMP/n500.out"; tail -n 1 "$DAEMON_LOG")"; fi

# --- -l 1: a timed run prints netperf's row with a rate ---------------------------------
if ws -l 1 -P 0 >"$WS_TMP/l1.out" 2>&1; then
	rate=$(head -n 1 "$WS_TMP/l1.out" | awk '{print $6}')
	if [ "$(wc -l <"$WS_TMP/l1.out")" -eq 2 ] && in_range "${rate:-0}" 1 1e9; then pass crr_timed
	else fail crr_timed "rate '$rate': $(cat "$WS_TMP/l1.out")"; fi
else fail crr_timed "exit $?: $(cat "$WS_TMP/l1.out")"; fi

# --- -r 64,1024: the sizes on the wire, counted by the daemon ----------------------------
if ws -l -100 -P 0 -- -r 64,1024 >"$WS_TMP/r.out" 2>&1 &&
	wait_log "TCP_CRR [0-9.]+ s, 6400 bytes received, 102400 sent, ok"; then
	pass crr_sizes
elif grep -q "test option -r is a netperf option that warpspeed does not support yet" "$WS_TMP/r.out"; then
	skip crr_sizes "this build's command line has no -r yet (branch rr)"
else fail crr_sizes "$(cat "$WS_TMP/r.out"; tail -n 1 "$DAEMON_LOG")"; fi

# --- test option -c (netperf's connection test): TCP_RR -c is a TCP_CRR under TCP_RR's
# banner; TCP_STREAM / TCP_MAERTS -c move one 16384-byte message per connection, so
# -l -65536 is 4 connections (netperf 2.7.0 counts 4 send and 4 receive calls)
if "$WS_BIN" -H 127.0.0.1 -p "$P" -t TCP_RR -l -50 -- -c >"$WS_TMP/c_rr.out" 2>&1 &&
	wait_log "TCP_CRR [0-9.]+ s, 50 bytes received, 50 sent, ok" &&
	head -n 1 "$WS_TMP/c_rr.out" | grep -q "^MIGRATED TCP REQUEST/RESPONSE TEST .* : first burst 0$"; then
	pass conn_test_rr
else fail conn_test_rr "$(cat "$WS_TMP/c_rr.out"; tail -n 1 "$DAEMON_LOG")"; fi
for t in TCP_STREAM TCP_MAERTS; do
	if [ $t = TCP_STREAM ]; then k=LOCAL_SEND_CALLS,REMOTE_RECV_CALLS,REMOTE_BYTES_RECVD
	else k=REMOTE_SEND_CALLS,LOCAL_RECV_CALLS,LOCAL_BYTES_RECVD; fi
	out=$("$WS_BIN" -H 127.0.0.1 -p "$P" -P 0 -t $t -l -65536 -- -c -k $k 2>&1)
	if [ "$(echo "$out" | cut -d= -f2 | tr '\n' ' ')" = "4 4 65536 " ]; then pass "conn_test_$t"
	else fail "conn_test_$t" "want 4 calls each side and 65536 bytes: $out"; fi
done

# --- many flows: an exact total over 4 flows on 2 threads each side, and a timed run ------
if ws -l -401 -P 0 --streams 4 --threads 2 >"$WS_TMP/s4.out" 2>&1 &&
	wait_log "TCP_CRR [0-9.]+ s, 401 bytes received, 401 sent, ok"; then
	pass crr_streams_count
else fail crr_streams_count "$(cat "$WS_TMP/s4.out"; tail -n 1 "$DAEMON_LOG")"; fi
if ws -l 1 -v 2 --streams 4 --threads 2 >"$WS_TMP/s4t.out" 2>&1; then
	rows=$(awk '/^Flow +Thread/{f=1; next} f && /^[0-9]+ +[0-9]+ +[0-9]+ /{n++} END{print n+0}' "$WS_TMP/s4t.out")
	if [ "$rows" -eq 4 ]; then pass crr_streams_timed
	else fail crr_streams_timed "$rows flow rows: $(cat "$WS_TMP/s4t.out")"; fi
else fail crr_streams_timed "exit $?: $(cat "$WS_TMP/s4t.out")"; fi

# --- the daemon is alive and holds the descriptors it held before -----------------------
sleep 0.2 # the last session's thread closes its control connection after the log line
fds_after=$(fds)
if kill -0 "$DAEMON_PID" 2>/dev/null && [ "$fds_after" -eq "$fds_before" ]; then pass crr_daemon_no_leak
else fail crr_daemon_no_leak "daemon fds $fds_before before, $fds_after after: $(ls -l "/proc/$DAEMON_PID/fd" 2>&1)"; fi

# --- a narrowed ephemeral port range in a namespace of our own ---------------------------
ns=ws-crr-$$
if [ "${WS_NETNS:-1}" = 0 ]; then
	skip crr_port_range "namespace tests off (make test NETNS=0)"
	finish
fi
if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null || ! command -v python3 >/dev/null; then
	skip crr_port_range "needs root, ip(8) and python3 for a network namespace"
	finish
fi
if ! ip netns add "$ns" 2>"$WS_TMP/ns.err"; then
	skip crr_port_range "cannot create a network namespace: $(cat "$WS_TMP/ns.err")"
	finish
fi
trap 'ws_cleanup; ip netns del "$ns" 2>/dev/null' EXIT
nsx() { ip netns exec "$ns" "$@"; }
nsx ip link set lo up
nsx sysctl -qw net.ipv4.ip_local_port_range="40000 40009"
# Not through nsx: a function in the background is a subshell, and its PID is not the
# daemon's (ip netns exec execs the command, so $! is the daemon itself).
ip netns exec "$ns" "$WS_BIN" serve -p 12865 2>"$WS_TMP/nsd.log" &
WS_PIDS+=($!)
for _ in $(seq 1 100); do grep -q listening "$WS_TMP/nsd.log" && break; sleep 0.05; done
# 8 flows, 10 ports (one taken by the control connection, one by the data listener): the
# connects that find no port are retried, counted, and the run completes.
if nsx "$WS_BIN" -H 127.0.0.1 -t TCP_CRR -l 1 -v 2 --streams 12 --threads 2 >"$WS_TMP/ns1.out" 2>"$WS_TMP/ns1.err"; then
	failed=$(sed -n 's/^TCP_CRR connections: made [0-9]*, failed \([0-9]*\);.*/\1/p' "$WS_TMP/ns1.out")
	if [ "${failed:-0}" -gt 0 ] && grep -q "connects failed" "$WS_TMP/ns1.err"; then pass crr_port_range_short
	else fail crr_port_range_short "failed connects '$failed': $(cat "$WS_TMP/ns1.out" "$WS_TMP/ns1.err")"; fi
else fail crr_port_range_short "exit $?: $(cat "$WS_TMP/ns1.out" "$WS_TMP/ns1.err")"; fi
# No port at all: every port of the range is held by bound sockets, the control
# connection and the data listener are on ports outside it (-p 12865,39000 and -P ,5000);
# the client names the setting after its bounded wait.
nsx sysctl -qw net.ipv4.ip_local_port_range="41000 41009" # ports the run above never used
ip netns exec "$ns" python3 -c '
import socket, time
held = []
for port in range(41000, 41010):
    for _ in range(40):
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", port))
            held.append(s)
            break
        except OSError:
            s.close()
            time.sleep(0.05)
print("held", len(held), flush=True)
time.sleep(30)
' >"$WS_TMP/hold.out" &
WS_PIDS+=($!)
for _ in $(seq 1 100); do grep -q held "$WS_TMP/hold.out" && break; sleep 0.05; done
if ! grep -q "held 10" "$WS_TMP/hold.out"; then
	skip crr_port_range_none "could not hold the 10 ports of the range: $(cat "$WS_TMP/hold.out")"
	finish
fi
t0=$(date +%s)
nsx "$WS_BIN" -H 127.0.0.1 -p 12865,39000 -t TCP_CRR -l 1 -P 0 -- -P ,5000 >"$WS_TMP/ns0.out" 2>&1
rc=$?
took=$(($(date +%s) - t0))
if [ $rc -ne 0 ] && grep -q "widen net.ipv4.ip_local_port_range (41000 41009) or set net.ipv4.tcp_tw_reuse" "$WS_TMP/ns0.out" && [ "$took" -le 15 ]; then
	pass crr_port_range_none
else fail crr_port_range_none "exit $rc after $took s: $(cat "$WS_TMP/ns0.out")"; fi
finish
