# SPDX-License-Identifier: BSD-2-Clause
# personality: the binary run as `netserver` and `netperf` (symlinks in a temp dir, as
# `make install` makes them). `netserver -D -p PORT` serves a `netperf` client in the
# foreground; without -D it daemonizes, writes nothing to the terminal, exits 0 and is
# found (and stopped) by the PID that listens on its port; a port in use is still reported
# with status 1; netserver's -h, -V and a bad option; `netperf` has no warpspeed roles;
# -F with a missing file fails a netperf run (1) and is a usage error for warpspeed (2).
source "$(dirname "$0")/../lib.sh"
bin=$WS_TMP/bin
mkdir -p "$bin"
ln -s "$WS_BIN" "$bin/netserver"
ln -s "$WS_BIN" "$bin/netperf"

# A loopback port no socket uses, below the ephemeral range so that no connection takes it
# meanwhile (the daemonized netserver cannot report port 0's pick).
free_port() {
	local p lo
	read -r lo _ </proc/sys/net/ipv4/ip_local_port_range
	for _ in $(seq 1 50); do
		p=$((10000 + RANDOM % (lo - 10000)))
		[ -z "$(ss -Htan "sport = :$p" 2>/dev/null)" ] && { echo "$p"; return 0; }
	done
	return 1
}
listener_pid() { ss -Hltnp "sport = :$1" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\),.*/\1/p' | head -n 1; }
wait_listen() { # port -> 0 once something listens
	for _ in $(seq 1 100); do [ -n "$(ss -Hltn "sport = :$1")" ] && return 0; sleep 0.05; done
	return 1
}
row_ok() { [[ "$1" =~ ^\ *[0-9]+\ +[0-9]+\ +[0-9]+\ +[0-9]+\.[0-9]{2}\ +[0-9]+\.[0-9]{2}\ *$ ]]; }

if ! command -v ss >/dev/null; then skip personality "needs ss (iproute2)"; finish; fi

# --- netserver -D: foreground, serving a netperf-personality client -----------------------
P=$(free_port) || { fail personality_port "no free port"; finish; }
"$bin/netserver" -D -p "$P" -L 127.0.0.1,4 >"$WS_TMP/fg.out" 2>"$WS_TMP/fg.err" &
fg=$!
WS_PIDS+=("$fg")
if ! wait_listen "$P"; then
	fail netserver_foreground "nothing listens on $P: $(cat "$WS_TMP/fg.err")"
else
	"$bin/netperf" -H 127.0.0.1 -p "$P" -l 1 -P 0 >"$WS_TMP/np.out" 2>"$WS_TMP/np.err"; rc=$?
	if [ $rc -eq 0 ] && row_ok "$(head -n 1 "$WS_TMP/np.out")" && [ "$(listener_pid "$P")" = "$fg" ]; then
		pass netserver_foreground
	else
		fail netserver_foreground "exit $rc: $(cat "$WS_TMP/np.out" "$WS_TMP/np.err")"
	fi
	if grep -q " netserver: listening on 127.0.0.1 port $P" "$WS_TMP/fg.err" && ! grep -q "warpspeed" "$WS_TMP/fg.err"; then pass netserver_foreground_log
	else fail netserver_foreground_log "$(cat "$WS_TMP/fg.err")"; fi
	# -F a missing file: netperf 2.7.0 connects, prints its banner, says "Could not open
	# requested fill file" and dies (SIGSEGV; TCP_SENDFILE exits 1), never exit 2; as
	# netperf the run fails with 1, the file and the reason named, before any connection.
	# Under warpspeed's own name it is a usage error: exit 2, nothing on stdout.
	"$bin/netperf" -H 127.0.0.1 -p "$P" -t TCP_STREAM -l 1 -F "$WS_TMP/nofile" >"$WS_TMP/npf.out" 2>"$WS_TMP/npf.err"; rc=$?
	if [ $rc -eq 1 ] && grep -qxF "netperf: cannot open the file that fills the buffers (-F $WS_TMP/nofile): No such file or directory" "$WS_TMP/npf.err"; then
		pass netperf_fill_missing
	else fail netperf_fill_missing "exit $rc: $(cat "$WS_TMP/npf.out" "$WS_TMP/npf.err")"; fi
	"$WS_BIN" -H 127.0.0.1 -p "$P" -t TCP_STREAM -l 1 -F "$WS_TMP/nofile" >"$WS_TMP/wsf.out" 2>"$WS_TMP/wsf.err"; rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$WS_TMP/wsf.out" ] &&
		grep -qxF "warpspeed: cannot open the file that fills the buffers (-F $WS_TMP/nofile): No such file or directory" "$WS_TMP/wsf.err"; then
		pass warpspeed_fill_missing_usage
	else fail warpspeed_fill_missing_usage "exit $rc: $(cat "$WS_TMP/wsf.out" "$WS_TMP/wsf.err")"; fi
fi
kill "$fg" 2>/dev/null; wait "$fg" 2>/dev/null

# --- netserver without -D: daemonized ------------------------------------------------------
P=$(free_port) || { fail personality_port "no free port"; finish; }
"$bin/netserver" -p "$P" -L 127.0.0.1 >"$WS_TMP/d.out" 2>"$WS_TMP/d.err"; rc=$?
dpid=$(listener_pid "$P")
[ -n "$dpid" ] && WS_PIDS+=("$dpid")
if [ $rc -ne 0 ] || [ -s "$WS_TMP/d.out" ] || [ -s "$WS_TMP/d.err" ]; then
	fail netserver_daemon_quiet "exit $rc, stdout [$(cat "$WS_TMP/d.out")], stderr [$(cat "$WS_TMP/d.err")]"
elif [ -z "$dpid" ]; then
	fail netserver_daemon_quiet "exit 0 but nothing listens on $P"
elif [ "$(ps -o sess= -p "$dpid" | tr -d ' ')" != "$dpid" ]; then
	fail netserver_daemon_quiet "pid $dpid is not a session leader (no setsid): $(ps -o pid,sess,cmd -p "$dpid")"
else
	pass netserver_daemon_quiet
fi
if [ -n "$dpid" ]; then
	if "$bin/netperf" -H 127.0.0.1 -p "$P" -l 1 -P 0 >"$WS_TMP/np2.out" 2>&1 && row_ok "$(head -n 1 "$WS_TMP/np2.out")"; then
		pass netserver_daemon_serves
	else
		fail netserver_daemon_serves "$(cat "$WS_TMP/np2.out")"
	fi
	# a second one on the same port: the error reaches the terminal, status 1
	"$bin/netserver" -p "$P" -L 127.0.0.1 >"$WS_TMP/d2.out" 2>"$WS_TMP/d2.err"; rc=$?
	if [ $rc -eq 1 ] && grep -q "Address already in use" "$WS_TMP/d2.err"; then pass netserver_port_in_use
	else fail netserver_port_in_use "exit $rc: $(cat "$WS_TMP/d2.out" "$WS_TMP/d2.err")"; fi
	kill "$dpid"
	for _ in $(seq 1 100); do kill -0 "$dpid" 2>/dev/null || break; sleep 0.05; done
	if kill -0 "$dpid" 2>/dev/null; then fail netserver_daemon_stops "pid $dpid survived SIGTERM"
	elif [ -n "$(ss -Hltn "sport = :$P")" ]; then fail netserver_daemon_stops "port $P still listens"
	else pass netserver_daemon_stops; fi
fi

# --- netserver's -h, -V and a bad option --------------------------------------------------
"$bin/netserver" -h >"$WS_TMP/h.out" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q '^Usage: netserver \[options\]' "$WS_TMP/h.out" &&
	grep -q -- '-D                Do not daemonize' "$WS_TMP/h.out"; then pass netserver_help
else fail netserver_help "exit $rc: $(cat "$WS_TMP/h.out")"; fi
"$bin/netserver" -V >"$WS_TMP/v.out" 2>&1
if [ "$(sed -n 1p "$WS_TMP/v.out")" = "Netperf version 2.7.0" ] &&
	grep -qx "warpspeed .* as netserver" <(sed -n 2p "$WS_TMP/v.out"); then pass netserver_version
else fail netserver_version "$(cat "$WS_TMP/v.out")"; fi
"$bin/netserver" -x >"$WS_TMP/x.out" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -q "netserver: unknown option '-x'" "$WS_TMP/x.out"; then pass netserver_bad_option
else fail netserver_bad_option "exit $rc: $(cat "$WS_TMP/x.out")"; fi

# --- netperf's -V, -h and messages under the name it was called by --------------------------
"$bin/netperf" -V >"$WS_TMP/npv.out" 2>&1; rc=$?
want_v="Netperf version 2.7.0"
command -v netperf >/dev/null && [ "$(command -v netperf)" != "$bin/netperf" ] && want_v=$(netperf -V 2>&1 | head -n 1)
if [ $rc -eq 0 ] && [ "$(sed -n 1p "$WS_TMP/npv.out")" = "$want_v" ] &&
	grep -qx "warpspeed .* as netperf" <(sed -n 2p "$WS_TMP/npv.out"); then pass netperf_version
else fail netperf_version "exit $rc, want first line [$want_v]: $(cat "$WS_TMP/npv.out")"; fi
"$bin/netperf" -h >"$WS_TMP/nph.out" 2>"$WS_TMP/nph.err"; rc=$?
# netperf's letters in netperf's order (as netperf 2.7.0's -h lists them), nothing of warpspeed's
letters=$(grep -oE '^    -[A-Za-z0-9]' "$WS_TMP/nph.err" | tr -d ' -' | tr -d '\n')
if [ $rc -eq 1 ] && [ ! -s "$WS_TMP/nph.out" ] && grep -q '^Usage: netperf \[global options\] -- \[test options\]' "$WS_TMP/nph.err" &&
	[ "$letters" = "aABcCdDfFhHiIjlLoOnNpPrsStTvWVyYZbCdDHkKLmMnoOpPrRsStTu4ch" ] &&
	! grep -qE -- '--[a-z]|warpspeed (serve|node|plot|iq)' "$WS_TMP/nph.err"; then
	pass netperf_help
else
	fail netperf_help "exit $rc, letters $letters: $(cat "$WS_TMP/nph.out" "$WS_TMP/nph.err")"
fi
"$bin/netperf" -l abc >"$WS_TMP/npe.out" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -q "^netperf: option -l: 'abc'" "$WS_TMP/npe.out" && grep -q "run 'netperf -h'" "$WS_TMP/npe.out" &&
	! grep -q warpspeed "$WS_TMP/npe.out"; then pass netperf_error_prefix
else fail netperf_error_prefix "exit $rc: $(cat "$WS_TMP/npe.out")"; fi
"$bin/netserver" -p 1 -Z >"$WS_TMP/nse.out" 2>&1
if grep -q "^netserver: option -Z needs a value" "$WS_TMP/nse.out"; then pass netserver_error_prefix
else fail netserver_error_prefix "$(cat "$WS_TMP/nse.out")"; fi

# --- warnings printed by the client under the netperf name carry that name: a buffer the
# kernel clamps (64 MiB asked, above net.core.wmem_max/rmem_max) ------------------------------
if start_daemon; then
	"$bin/netperf" -H 127.0.0.1 -p "$DAEMON_PORT" -t TCP_STREAM -l -100000 -P 0 -- -s 64M >/dev/null 2>"$WS_TMP/npw.err"; rc=$?
	if [ "$(cat /proc/sys/net/core/wmem_max)" -ge $((128 << 20)) ]; then
		skip netperf_warning_prefix "net.core.wmem_max is 128 MiB or more: no clamp to warn about"
	elif [ $rc -eq 0 ] && grep -q "^netperf: warning: the local send buffer was clamped" "$WS_TMP/npw.err" &&
		! grep -q warpspeed "$WS_TMP/npw.err"; then pass netperf_warning_prefix
	else fail netperf_warning_prefix "exit $rc: $(cat "$WS_TMP/npw.err")"; fi
else
	fail netperf_warning_prefix_daemon "could not start warpspeed serve"
fi

# --- warpspeed -V names every test of the test table (the same list -t checks) -------------
names=$("$WS_BIN" -t NOSUCH 2>&1 | sed -n 's/.*expected one of \(.*\) or omni.*/\1/p' | tr -d ',')
tests=$("$WS_BIN" -V | sed -n 's/^tests: //p')
if [ -n "$tests" ] && [ "$tests" = "$names" ]; then pass version_lists_tests
else fail version_lists_tests "-V [$tests], the table [$names]"; fi

# --- netperf: the client only ---------------------------------------------------------------
"$bin/netperf" serve >"$WS_TMP/ns.out" 2>&1; rc=$?
if [ $rc -eq 2 ] && grep -q "unexpected argument 'serve'" "$WS_TMP/ns.out"; then pass netperf_no_roles
else fail netperf_no_roles "exit $rc: $(cat "$WS_TMP/ns.out")"; fi
finish
