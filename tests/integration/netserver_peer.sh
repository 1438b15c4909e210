# SPDX-License-Identifier: BSD-2-Clause
# warpspeed's client against a stock netserver 2.7 on loopback (issue 16, the client half):
# each of the seven tests plain, with -c -C, with -P 0 -v 0 and with an -o selector whose
# local and remote counts must agree (TCP: exactly); one -i 3,3 run on one control
# connection; --streams 3 (a netserver child per flow, merged); the --peer forms and the
# options a netserver cannot honour (exit 2); the
# cost of detection (auto against netserver within ~250 ms of --peer netserver, nothing
# measurable against warpspeed serve); --peer netserver against warpspeed serve (which
# speaks netperf's protocol too); a warpspeed daemon that answers only after the probe;
# -Z right, wrong and missing; IPv6; --json against the schema; a lying netserver (bad
# replies end the test at once, naming them). netserver runs in
# the foreground (-D) on private ports and is stopped by PID. SKIP when it is not installed.
# Wall time: only the checks that need a second of traffic run timed (-l 1), side by side;
# the others count bytes or transactions (-l -N), which ends a run in milliseconds.
source "$(dirname "$0")/../lib.sh"
NETSERVER=$(command -v netserver || { [ -x /usr/sbin/netserver ] && echo /usr/sbin/netserver; })
NETPERF=$(command -v netperf || true)
if [ -z "$NETSERVER" ]; then
	skip netserver_peer "netserver (netperf 2.7) is not installed; .ci/run installs it from Debian non-free"
	finish
fi

# Loopback TCP ports nobody listens on now, one for each netserver (one python3 start).
read -r -a FREE_PORTS < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(3)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
free_port() { echo "${FREE_PORTS[$1]}"; }

# start_netserver VAR_PORT ADDR,FAMILY [ARGS...]: netserver in the foreground on a free
# port of ADDR, its PID kept for the cleanup; waits until it accepts.
NETSERVER_PORTS=()
start_netserver() {
	local var=$1 listen=$2 port pid _
	shift 2
	port=$(free_port ${#NETSERVER_PORTS[@]})
	NETSERVER_PORTS+=("$port")
	"$NETSERVER" -D -p "$port" -L "$listen" "$@" >"$WS_TMP/netserver.$port.log" 2>&1 &
	pid=$!
	WS_PIDS+=("$pid")
	for _ in $(seq 1 100); do
		if (exec 3<>"/dev/tcp/${listen%,*}/$port") 2>/dev/null; then
			printf -v "$var" '%s' "$port"
			return 0
		fi
		sleep 0.05
	done
	return 1
}

start_netserver NP 127.0.0.1,4 || { fail netserver_start "netserver did not start: $(cat "$WS_TMP"/netserver.*.log)"; finish; }
ws() { timeout 40 "$WS_BIN" -H 127.0.0.1 -p "$NP" "$@"; }

TESTS="TCP_STREAM TCP_MAERTS TCP_SENDFILE TCP_RR TCP_CRR UDP_STREAM UDP_RR"
is_rr() { case $1 in *_RR | TCP_CRR) return 0 ;; esac; return 1; }
gt0() { awk -v a="$1" 'BEGIN { exit !(a + 0 > 0) }'; }

# --- the timed runs: -l 1 where a check needs a second of traffic (the elapsed time, CPU
# figures, a JSON document with measured CPU), started side by side and checked below.
# netserver answers a timed TCP_CRR only when its own timer ends, 4 s later, so that run
# goes first and the others share the cores meanwhile; every other run counts (-l -N).
# --peer warpspeed against netserver waits 3 s for a HELLO reply: it waits beside the
# timed runs from the start (it uses no CPU meanwhile)
(
	start=$(date +%s%N)
	ws --peer warpspeed -t TCP_RR -l 1 >/dev/null 2>"$WS_TMP/peerw.err"; rc=$?
	echo "$rc $((($(date +%s%N) - start) / 1000000))" >"$WS_TMP/peerw.res"
) &
peerw=$!
WS_PIDS+=("$peerw")
# -Z's netserver (checked below): --peer auto against it waits as long, so it starts now too
NZ=
if start_netserver NZ 127.0.0.1,4 -Z s3cret; then
	timeout 20 "$WS_BIN" -H 127.0.0.1 -p "$NZ" -t TCP_RR -l -1000 -P 0 --peer auto \
		>"$WS_TMP/passphrase_missing.out" 2>"$WS_TMP/passphrase_missing.err" &
	pzm=$!
	WS_PIDS+=("$pzm")
fi
wsbg() { local n=$1; shift; bg_run "$n" timeout 40 "$WS_BIN" -H 127.0.0.1 -p "$NP" "$@"; }
WS_JOBS=4
wsbg plain_tcp_crr -t TCP_CRR -l 1
for t in $TESTS; do [ "$t" = TCP_CRR ] || wsbg "plain_${t,,}" -t "$t" -l 1; done
for t in $TESTS; do
	len=1; [ "$t" = TCP_CRR ] && len=-2000 # netserver's own timer would add 4 s
	# TCP_STREAM's run keeps the headers: its CPU columns and the header check share it
	p0=(-P 0); [ "$t" = TCP_STREAM ] && p0=()
	wsbg "cpu_${t,,}" -t "$t" -l $len -c -C "${p0[@]}"
done
CHECK=$WS_ROOT/tests/integration/json_check.py
SCHEMA=$WS_ROOT/docs/schema/result.schema.json
have_jsonschema=
if python3 "$CHECK" have-jsonschema 2>/dev/null; then
	have_jsonschema=1
	for t in TCP_STREAM UDP_STREAM TCP_RR; do wsbg "j.$t" -t $t -l 1 -C --json; done
fi
bg_wait
wait "$peerw"
# How much one counted run moves: bytes for a stream test, transactions for RR and CRR.
count_len() { if is_rr "$1"; then echo -1000; else echo -1000000; fi; }
# "exit N: stderr" of a background run that failed (NAME), or false when it succeeded.
bg_failed() { local rc; rc=$(cat "$WS_TMP/$1.rc"); [ "$rc" != 0 ] && echo "exit $rc: $(cat "$WS_TMP/$1.err")"; }

# --- plain: netperf's banner and table, a figure > 0, about 1 s --------------------------
for t in $TESTS; do
	name=plain_${t,,}
	out=$WS_TMP/$name.out
	if why=$(bg_failed "$name"); then
		fail "$name" "$why"
		continue
	fi
	banner=$(head -n 1 "$out")
	if is_rr "$t"; then row=$(sed -n 7p "$out"); fig=$(echo "$row" | awk '{print $6}'); secs=$(echo "$row" | awk '{print $5}')
	elif [ "$t" = UDP_STREAM ]; then row=$(sed -n 6p "$out"); fig=$(echo "$row" | awk '{print $6}'); secs=$(echo "$row" | awk '{print $3}')
	else row=$(sed -n 7p "$out"); fig=$(echo "$row" | awk '{print $5}'); secs=$(echo "$row" | awk '{print $4}'); fi
	want="${t//_/ } TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 (127.0.0.1) port 0 AF_INET"
	[ "$t" = TCP_RR ] || [ "$t" = UDP_RR ] && want="${t%_RR} REQUEST/RESPONSE TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 (127.0.0.1) port 0 AF_INET"
	[ "$t" = TCP_CRR ] && want="TCP Connect/Request/Response TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 127.0.0.1 (127.0.0.1) port 0 AF_INET"
	if [[ "$banner" != *"$want"* ]]; then
		fail "$name" "banner '$banner' lacks '$want'"
	elif ! gt0 "$fig" || ! in_range "$secs" 0.9 1.2; then
		fail "$name" "row '$row': want a figure > 0 over about 1 s"
	else
		pass "$name"
	fi
done

# --- -c -C: both CPU columns measured (method S, 0 < util <= 100, service demand > 0) ---
for t in $TESTS; do
	name=cpu_${t,,}
	out=$WS_TMP/$name.out
	if why=$(bg_failed "$name"); then
		fail "$name" "$why"
		continue
	fi
	rows=$out
	[ "$t" = TCP_STREAM ] && { rows=$WS_TMP/$name.rows; sed 1,6d "$out" >"$rows"; }
	if is_rr "$t"; then cols=$(head -n 1 "$rows" | awk '{print $7, $8, $9, $10}')
	elif [ "$t" = UDP_STREAM ]; then cols="$(head -n 1 "$rows" | awk '{print $7, $8}') $(sed -n 2p "$rows" | awk '{print $5, $6}')"
	else cols=$(head -n 1 "$rows" | awk '{print $6, $7, $8, $9}'); fi
	ok=1
	for v in $cols; do gt0 "$v" && in_range "$v" 0 1e9 || ok=0; done
	read -r lu ru _ <<<"$cols"
	[ "$t" = UDP_STREAM ] && ru=$(sed -n 2p "$rows" | awk '{print $5}')
	in_range "$lu" 0 100.01 && in_range "$ru" 0 100.01 || ok=0
	if [ $ok = 1 ] && [ "$(echo "$cols" | wc -w)" = 4 ]; then pass "$name"; else fail "$name" "CPU columns '$cols' of: $(cat "$out")"; fi
done
# netperf's header letters: both sides measured by /proc/stat (cpu_tcp_stream's run)
hdr=$WS_TMP/cpu_tcp_stream.out
if [ "$(sed -n 2,6p "$hdr")" = "$CLASSIC_TCP_CPU_HEADERS" ] && [ "$(wc -l <"$hdr")" = 7 ]; then
	pass cpu_headers
else
	fail cpu_headers "the -c -C layout differs from netperf's (method letters S S): $(cat -A "$hdr")"
fi

# --- the counted runs of -P 0 -v 0, -o and --streams 3, side by side (each check reads its
# own run's figures and counts) ----------------------------------------------------------
SEL=LOCAL_BYTES_SENT,REMOTE_BYTES_RECVD,LOCAL_BYTES_RECVD,REMOTE_BYTES_SENT,REMOTE_RECV_CALLS,REMOTE_SEND_CALLS
WS_JOBS=3
for t in $TESTS; do
	len=$(count_len "$t"); [ "$t" = TCP_CRR ] && len=-2000
	wsbg "terse_${t,,}" -t "$t" -l $len -P 0 -v 0
	[ "$t" = UDP_RR ] || wsbg "selector_${t,,}" -t "$t" -l $len -- -o "$SEL"
done
for t in TCP_STREAM TCP_MAERTS UDP_STREAM TCP_RR UDP_RR; do
	wsbg "streams_${t,,}" -t $t -l "$(count_len $t)" --streams 3 -v 2 -- -o LOCAL_BYTES_SENT,REMOTE_BYTES_RECVD,LOCAL_BYTES_RECVD,REMOTE_BYTES_SENT,STREAMS
done
bg_wait
# UDP_RR's -o alone: a reply late on a busy machine is retried, and netserver's count of
# replies may exceed the client's by only 3
wsbg selector_udp_rr -t UDP_RR -l "$(count_len UDP_RR)" -- -o "$SEL"
bg_wait

# --- -P 0 -v 0: the figure of merit alone --------------------------------------------------
for t in $TESTS; do
	name=terse_${t,,}
	out=$(cat "$WS_TMP/$name.out")
	if [ "$(echo "$out" | wc -l)" = 1 ] && [ "$(echo "$out" | wc -w)" = 1 ] && gt0 "$out"; then
		pass "$name"
	else
		fail "$name" "want one figure > 0, got '$out' $(cat "$WS_TMP/$name.err")"
	fi
done

# --- -o: netserver's counts against the client's ----------------------------------------
# TCP: what one side sent the other received, exactly (TCP_MAERTS: netserver counts a send
# a test's timer cut short as unsent, so up to one send size of 16 KiB more may arrive);
# UDP_STREAM: no more arrived than was sent; RR: the transactions on both sides.
for t in $TESTS; do
	name=selector_${t,,}
	if why=$(bg_failed "$name"); then
		fail "$name" "$why"
		continue
	fi
	out=$(cat "$WS_TMP/$name.out")
	hdr=$(echo "$out" | sed -n 2p)
	IFS=, read -r ls rr lr rs rc sc <<<"$(echo "$out" | sed -n 3p)"
	why=
	[ "$hdr" = "Local Bytes Sent,Remote Bytes Received,Local Bytes Received,Remote Bytes Sent,Remote Recv Calls,Remote Send Calls" ] ||
		why="header '$hdr'"
	case $t in
	TCP_STREAM | TCP_SENDFILE) [ "$ls" = "$rr" ] && gt0 "$rr" && gt0 "$rc" || why="sent $ls, netserver received $rr in $rc calls" ;;
	TCP_MAERTS) gt0 "$rs" && gt0 "$sc" && in_range $((lr - rs)) 0 16384 || why="netserver sent $rs in $sc calls, received $lr" ;;
	UDP_STREAM) gt0 "$rr" && in_range "$rr" 1 "$ls" || why="sent $ls, netserver received $rr" ;;
	TCP_RR | TCP_CRR) [ "$ls" = "$rr" ] && [ "$lr" = "$rs" ] && gt0 "$rc" || why="sent $ls/$lr received, netserver $rr/$rs" ;;
	UDP_RR) gt0 "$rr" && in_range "$rs" $((lr)) $((lr + 3)) || why="received $lr, netserver sent $rs" ;;
	esac
	if [ -z "$why" ]; then pass "$name"; else fail "$name" "$why"; fi
done

# --- -i 3,3: three DO_OMNI on one control connection ------------------------------------
out=$WS_TMP/iter.out
if ws -t TCP_RR -l -500 -i 3,3 -P 1 >"$out" 2>"$WS_TMP/iter.err" && head -n 1 "$out" | grep -q '+/-2.500% @ 99% conf\.'; then
	pass iterations_3
else
	fail iterations_3 "exit or banner: $(head -n 1 "$out") $(cat "$WS_TMP/iter.err")"
fi
# (its own run: under strace a sanitized build's leak check cannot run and fails the exit)
if command -v strace >/dev/null; then
	strace -f -e trace=connect -o "$WS_TMP/iter.strace" "$WS_BIN" -H 127.0.0.1 -p "$NP" -t TCP_RR -l -500 -i 3,3 -P 0 >/dev/null 2>&1
	# netserver forks one child per control connection; one connection, one child
	n=$(grep -c "sin_port=htons($NP)" "$WS_TMP/iter.strace")
	if [ "$n" = 1 ]; then pass iterations_one_connection; else fail iterations_one_connection "$n control connections for -i 3,3; want 1"; fi
else
	skip iterations_one_connection "strace is not installed"
fi

# --- --peer ------------------------------------------------------------------------------
if ws --peer netserver -t TCP_RR -l -1000 -P 0 >/dev/null 2>"$WS_TMP/peer.err"; then pass peer_netserver; else fail peer_netserver "$(cat "$WS_TMP/peer.err")"; fi
read -r rc ms <"$WS_TMP/peerw.res"
if [ $rc = 1 ] && grep -q "is not a warpspeed daemon" "$WS_TMP/peerw.err" && [ $ms -lt 5000 ]; then
	pass peer_warpspeed_names_netserver
else
	fail peer_warpspeed_names_netserver "exit $rc after $ms ms: $(cat "$WS_TMP/peerw.err")"
fi
ws --peer bogus >/dev/null 2>"$WS_TMP/peerb.err"; rc=$?
if [ $rc = 2 ] && grep -q "'bogus' is not a peer; expected warpspeed, netserver or auto" "$WS_TMP/peerb.err"; then pass peer_bad_value; else fail peer_bad_value "exit $rc: $(cat "$WS_TMP/peerb.err")"; fi
# what only a warpspeed daemon does: exit 2 naming the option, forced or found
while IFS='|' read -r name args want; do
	# shellcheck disable=SC2086
	ws -l 1 $args >/dev/null 2>"$WS_TMP/$name.err"; rc=$?
	if [ $rc = 2 ] && grep -qF -- "$want needs a warpspeed daemon" "$WS_TMP/$name.err"; then pass "$name"; else fail "$name" "exit $rc: $(cat "$WS_TMP/$name.err")"; fi
done <<'EOF'
needs_ws_crr_streams_forced|--peer netserver -t TCP_CRR --streams 2|--streams with TCP_CRR or TCP_CC (one data port for all flows)
needs_ws_crr_streams_found|-t TCP_CRR --streams 2|--streams with TCP_CRR or TCP_CC (one data port for all flows)
needs_ws_zerocopy_maerts|-t TCP_MAERTS --zerocopy|--zerocopy on the daemon's (sending) side
needs_ws_flow_control|-t UDP_STREAM --flow-control|--flow-control (the receiver's reports)
needs_ws_remote_cpus|--peer netserver --remote-cpus 0|--remote-cpus
EOF

# --- --streams 3: three netserver children, started together, merged ---------------------
for t in TCP_STREAM TCP_MAERTS UDP_STREAM TCP_RR UDP_RR; do
	name=streams_${t,,}
	out=$WS_TMP/$name.out
	if why=$(bg_failed "$name"); then
		fail "$name" "$why"
		continue
	fi
	IFS=, read -r ls rr lr rs n <<<"$(sed -n 3p "$out")"
	why=
	case $t in
	TCP_STREAM) [ "$ls" = "$rr" ] && gt0 "$rr" || why="sent $ls, the netservers received $rr" ;;
	TCP_MAERTS) gt0 "$rs" && in_range $((lr - rs)) 0 $((3 * 16384)) || why="the netservers sent $rs, received $lr" ;;
	UDP_STREAM) gt0 "$rr" && in_range "$rr" 1 "$ls" || why="sent $ls, the netservers received $rr" ;;
	*) [ "$ls" = "$rr" ] || [ "$t" = UDP_RR ] && gt0 "$rr" || why="sent $ls, the netservers received $rr" ;;
	esac
	[ "$n" = 3 ] || why="$why; STREAMS is '$n'"
	if [ -z "$why" ]; then pass "$name"; else fail "$name" "$why"; fi
done

# --- detection time: the fastest of 3 alternating runs each (the cost is what remains when
# the machine's other work is out of the way; a sanitized build under load varies by 100 ms)
fastest() { printf '%s\n' "$@" | sort -n | sed -n 1p; }
time_ms() { local s; s=$(date +%s%N); "$@" >/dev/null 2>&1 || echo "FAILED: $*" >&2; echo $((($(date +%s%N) - s) / 1000000)); }
a=() f=()
for _ in 1 2 3; do
	a+=("$(time_ms ws -t TCP_RR -l -2000 -P 0)")
	f+=("$(time_ms ws --peer netserver -t TCP_RR -l -2000 -P 0)")
done
ma=$(fastest "${a[@]}"); mf=$(fastest "${f[@]}")
if [ $((ma - mf)) -le 250 ]; then pass detect_netserver_cost; else fail detect_netserver_cost "auto took $ma ms, --peer netserver $mf ms (runs ${a[*]} / ${f[*]}); want at most 250 ms more"; fi
start_daemon || fail daemon_start "could not start warpspeed serve"
a=() f=()
for _ in 1 2 3; do
	a+=("$(time_ms "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -t TCP_RR -l -2000 -P 0)")
	f+=("$(time_ms "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" --peer warpspeed -t TCP_RR -l -2000 -P 0)")
done
ma=$(fastest "${a[@]}"); mf=$(fastest "${f[@]}")
if [ $((ma - mf)) -le 60 ]; then pass detect_warpspeed_cost; else fail detect_warpspeed_cost "auto took $ma ms, --peer warpspeed $mf ms (runs ${a[*]} / ${f[*]}); want no measurable difference"; fi

# --- --peer netserver against warpspeed serve, which answers netperf's protocol too -------
for t in $TESTS; do
	name=ws_serve_as_netserver_${t,,}
	len=$(count_len "$t"); [ "$t" = TCP_CRR ] && len=-2000
	if out=$(timeout 30 "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" --peer netserver -t "$t" -l $len -P 0 -v 0 2>"$WS_TMP/$name.err") && gt0 "$out"; then
		pass "$name"
	else
		fail "$name" "got '$out': $(cat "$WS_TMP/$name.err")"
	fi
done

# --- a warpspeed daemon that answers only after the probe: reconnected, test runs --------
kill -STOP "$DAEMON_PID"
(sleep 0.5; kill -CONT "$DAEMON_PID") &
WS_PIDS+=($!)
if timeout 20 "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -t TCP_RR -l -1000 -P 0 -v 2 >/dev/null 2>"$WS_TMP/late.err" &&
	grep -q "answered only after the probe; reconnecting" "$WS_TMP/late.err"; then
	pass late_warpspeed_daemon
else
	kill -CONT "$DAEMON_PID" 2>/dev/null
	fail late_warpspeed_daemon "$(cat "$WS_TMP/late.err")"
fi

# --- -Z: netserver -Z wants netperf's PASSPHRASE first ------------------------------------
if [ -n "$NZ" ]; then
	wait "$pzm"
	echo $? >"$WS_TMP/passphrase_missing.rc"
	# a key file holding netserver's passphrase: proven to warpspeed daemons, never sent in
	# clear, so this netserver is refused before anything is sent
	printf 's3cret\n' >"$WS_TMP/key"; chmod 600 "$WS_TMP/key"
	wz() { timeout 20 "$WS_BIN" -H 127.0.0.1 -p "$NZ" -t TCP_RR -l -1000 -P 0 "$@"; }
	while IFS='|' read -r name args want_rc want; do
		args=${args//@KEY@/$WS_TMP/key} want=${want//@KEY@/$WS_TMP/key}
		if [ "$name" = passphrase_missing ]; then # run beside the timed runs above
			rc=$(cat "$WS_TMP/$name.rc")
		else
			# shellcheck disable=SC2086
			wz $args >"$WS_TMP/$name.out" 2>"$WS_TMP/$name.err"; rc=$?
		fi
		if [ "$rc" = "$want_rc" ] && { [ -z "$want" ] || grep -qF -- "$want" "$WS_TMP/$name.err"; }; then
			pass "$name"
		else
			fail "$name" "exit $rc (want $want_rc): $(cat "$WS_TMP/$name.err")"
		fi
	done <<'EOF'
passphrase_right|-Z s3cret|0|
passphrase_right_forced|--peer netserver -Z s3cret|0|
passphrase_wrong|-Z wrong|1|closed the control connection instead of sending OMNI response
passphrase_missing|--peer auto|1|a netserver started with -Z closes unless netperf's passphrase comes first (give -Z)
passphrase_keyfile_not_sent|--peer netserver --psk-file @KEY@|1|the key from key file @KEY@ is never sent in clear
EOF
else
	fail passphrase "netserver -Z did not start"
fi

# --- IPv6 ---------------------------------------------------------------------------------
if (exec 3<>/dev/tcp/::1/1) 2>&1 | grep -q "Cannot assign\|not supported"; then
	skip ipv6 "no IPv6 loopback"
elif start_netserver N6 ::1,6; then
	for t in TCP_STREAM UDP_RR; do
		out=$(timeout 20 "$WS_BIN" -H ::1 -6 -p "$N6" -t $t -l "$(count_len $t)" 2>"$WS_TMP/v6.err" | head -n 1)
		if [[ "$out" == *"to ::1 (::1) port 0 AF_INET6"* ]]; then pass "ipv6_$t"; else fail "ipv6_$t" "$out $(cat "$WS_TMP/v6.err")"; fi
	done
else
	skip ipv6 "netserver does not listen on ::1 here"
fi

# --- --json: the schema holds; netserver's unknowns are null (the timed runs above) -------
if [ -z "$have_jsonschema" ]; then
	skip json "python3-jsonschema is not installed"
else
	# one python3 for the three documents: json_check.py's doc check, then netserver's nulls
	python3 - "$CHECK" "$SCHEMA" "$WS_TMP" >"$WS_TMP/json.res" 2>&1 <<'PY'
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("json_check", sys.argv[1])
jc = importlib.util.module_from_spec(spec); spec.loader.exec_module(jc)
v = jc.validator(sys.argv[2])
for t in ("TCP_STREAM", "UDP_STREAM", "TCP_RR"):
    path = "%s/j.%s.out" % (sys.argv[3], t)
    try:
        with open(path) as f:
            d = jc.parse(f.read(), path)
        jc.check(v, d, path)
        if d["type"] != "result":
            jc.die("%s: type %s, expected result" % (path, d["type"]))
        jc.semantic(d, path, t, 0)
        r = d["remote"]
        ok = d["peer_software"] == "netserver" and r["thread_cpu"] is None and r["io"] is None and r["cpu"]["ncpus"] > 0
        print(t, "ok" if ok else "peer_software, remote thread_cpu, io or cpu.ncpus: %s %s" % (d["peer_software"], r))
    except SystemExit:  # jc.die printed the reason on stdout
        print(t, "failed", flush=True)
    except Exception as e:
        print(t, "%s: %r" % (path, e))
PY
	for t in TCP_STREAM UDP_STREAM TCP_RR; do
		if grep -qx "$t ok" "$WS_TMP/json.res"; then
			pass "json_$t"
		else
			fail "json_$t" "$(cat "$WS_TMP/json.res") $(cat "$WS_TMP/j.$t.err")"
		fi
	done
fi

# --- a lying netserver: bad replies end the test at once with the reason, never a hang ----
# (one fake, for the three runs in turn, that answers the probe with 998 and DO_OMNI with
# MODE: a data port of 0, an errno, or a close)
if command -v python3 >/dev/null; then
	python3 - port0 errno close >"$WS_TMP/liar.port" <<'PY' &
import socket, struct, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
print(s.getsockname()[1], flush=True)
for mode in sys.argv[1:]:
    c, _ = s.accept()
    def msg():
        d = b""
        while len(d) < 656:
            m = c.recv(656 - len(d))
            if not m:
                return None
            d += m
        return d
    if msg() is not None:
        c.sendall(struct.pack(">II", 0, 998) + bytes(648))          # the probe
        if msg() is not None:                                       # DO_OMNI
            if mode == "port0":
                c.sendall(struct.pack(">II", 98, 0) + bytes(648))
            elif mode == "errno":
                c.sendall(struct.pack(">II", 98, 98) + bytes(648))
    c.close()
PY
	lpid=$!
	WS_PIDS+=("$lpid")
	lport=
	for _ in $(seq 1 100); do lport=$(head -n 1 "$WS_TMP/liar.port"); [ -n "$lport" ] && break; sleep 0.05; done
	while IFS='|' read -r mode want; do
		start=$(date +%s%N)
		timeout 20 "$WS_BIN" -H 127.0.0.1 -p "$lport" -t TCP_RR -l 1 >/dev/null 2>"$WS_TMP/liar.err"; rc=$?
		ms=$((($(date +%s%N) - start) / 1000000))
		if [ $rc = 1 ] && grep -qF -- "$want" "$WS_TMP/liar.err" && [ $ms -lt 3000 ]; then
			pass "lying_netserver_$mode"
		else
			fail "lying_netserver_$mode" "exit $rc after $ms ms: $(cat "$WS_TMP/liar.err")"
		fi
	done <<'EOF'
port0|names data port 0; expected 1 to 65535
errno|the netserver refused the test: its error 98 (Address already in use)
close|closed the control connection instead of sending OMNI response
EOF
	kill -9 "$lpid" 2>/dev/null; wait "$lpid" 2>/dev/null
fi

# --- test option -c against netserver: one message per connection, as netperf sends it ---
# (the netserver counts what it received; netperf 2.7.0 gives 4 and 4 for -l -65536)
for t in TCP_STREAM TCP_MAERTS; do
	if [ $t = TCP_STREAM ]; then k=LOCAL_SEND_CALLS,REMOTE_RECV_CALLS,REMOTE_BYTES_RECVD
	else k=REMOTE_SEND_CALLS,LOCAL_RECV_CALLS,LOCAL_BYTES_RECVD; fi
	out=$(ws -P 0 -t $t -l -65536 -- -c -k $k 2>&1)
	if [ "$(echo "$out" | cut -d= -f2 | tr '\n' ' ')" = "4 4 65536 " ]; then pass "conn_test_$t"
	else fail "conn_test_$t" "want 4 calls each side and 65536 bytes: $out"; fi
done
out=$(ws -t omni -l -100 -- -c 2>&1)
if [[ "$out" == "OMNI Connection TEST from "* ]] && [ "$(echo "$out" | tail -n 1 | awk '{print $5, $6, $9}')" = "-1 -1 Trans/s" ]; then
	pass conn_test_omni
else fail conn_test_omni "$out"; fi

# --- against stock netperf on the same netserver: the same order of magnitude --------------
# (timed, one after the other: side by side, a UDP_RR that retries a late reply falls behind)
if [ -n "$NETPERF" ]; then
	for t in TCP_RR UDP_RR; do
		w=$(ws -t $t -l 1 -P 0 -v 0 2>/dev/null)
		n=$(timeout 20 "$NETPERF" -H 127.0.0.1 -p "$NP" -t $t -l 1 -P 0 -v 0 2>/dev/null | awk 'NF {print $1; exit}')
		if gt0 "$w" && gt0 "$n" && awk -v w="$w" -v n="$n" 'BEGIN { exit !(w > n / 4 && w < n * 4) }'; then
			pass "vs_netperf_$t"
		else
			fail "vs_netperf_$t" "warpspeed $w, netperf $n transactions/s: want within a factor of 4 on one host"
		fi
	done
else
	skip vs_netperf "netperf is not installed"
fi
finish
