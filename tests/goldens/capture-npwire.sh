#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Captures netperf 2.7.0's control messages on the wire ("npwire goldens") for the codec
# unit test (tests/unit/test_npmsg.c). It starts its own netservers on free loopback
# ports (127.0.0.1 and ::1 only; one of them with -Z), runs each netperf command of the
# table below through a small recording TCP relay (npwire_relay.py beside this script) and
# writes every 656-byte message to npwire/<name>.hex, one line each: "C <hex>" from netperf,
# "S <hex>" from netserver, in the order they completed. The probe cases send hand-built
# messages straight to netserver (unknown type, SYSINFO, CPU_CALIBRATE, a wrong passphrase).
# Rerunnable: same names and same message counts; the figures in results differ run to run.
# Usage: tests/goldens/capture-npwire.sh [OUTDIR]   (default: npwire/ next to this script)
set -u
set -f

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/npwire}
PYTHON=${PYTHON:-python3}
PER_CMD_TIMEOUT=${PER_CMD_TIMEOUT:-30}
relay=$here/npwire_relay.py
me=capture-npwire
# shellcheck source=tests/goldens/capture-lib.sh
. "$here/capture-lib.sh"
command -v "$PYTHON" >/dev/null || die "python3 not found"

N4=$(free_port 23865); start_netserver "$N4" 127.0.0.1,inet
N6=$(free_port $((N4 + 1))); start_netserver "$N6" ::1,inet6
NZ=$(free_port $((N6 + 1))); start_netserver "$NZ" 127.0.0.1,inet -Z sesame
R=$(free_port $((NZ + 1)))              # the relay's port
DP=$(free_port $((R + 1)))              # a free data port for the -P case

mkdir -p "$out" || die "cannot create $out"
rm -f "$out"/*.hex

# name<TAB>address<TAB>netserver port<TAB>arguments after "netperf -H ADDR -p RELAY"
TABLE=$(cat <<'TABLE_END'
tcp_stream	127.0.0.1	@N4@	-t TCP_STREAM -l 1
tcp_stream_cC	127.0.0.1	@N4@	-t TCP_STREAM -l 1 -c -C
tcp_stream_count	127.0.0.1	@N4@	-t TCP_STREAM -l -1000000 -- -m 16K
tcp_maerts	127.0.0.1	@N4@	-t TCP_MAERTS -l 1
tcp_sendfile	127.0.0.1	@N4@	-t TCP_SENDFILE -l 1
tcp_sendfile_cC	127.0.0.1	@N4@	-t TCP_SENDFILE -l 1 -c -C -- -m 32K -M 64K -s 96K -S 48K
tcp_rr	127.0.0.1	@N4@	-t TCP_RR -l 1
tcp_rr_T01_r	127.0.0.1	@N4@	-t TCP_RR -l 1 -T 0,1 -- -r 64,1024 -S 64K,32K -P ,@DP@ -D
tcp_rr_count	127.0.0.1	@N4@	-t TCP_RR -l -1000
tcp_crr	127.0.0.1	@N4@	-t TCP_CRR -l 1
udp_stream	127.0.0.1	@N4@	-t UDP_STREAM -l 1 -- -m 1472
udp_rr	127.0.0.1	@N4@	-t UDP_RR -l 1
udp_rr_cC	127.0.0.1	@N4@	-t UDP_RR -l 1 -c -C
tcp_rr_6	::1	@N6@	-t TCP_RR -l 1 -- -L ::1 -H ::1
tcp_rr_i3	127.0.0.1	@N4@	-t TCP_RR -l 1 -i 3,3
tcp_rr_Z	127.0.0.1	@NZ@	-t TCP_RR -l 1 -Z sesame
TABLE_END
)

fails=0
while IFS=$'\t' read -r name addr nport args; do
	[ -n "$name" ] || continue
	nport=${nport//@N4@/$N4}; nport=${nport//@N6@/$N6}; nport=${nport//@NZ@/$NZ}
	args=${args//@DP@/$DP}
	"$PYTHON" "$relay" relay "$addr" "$R" "$nport" "$out/$name.hex.tmp" "$PER_CMD_TIMEOUT" >"$tmp/relay.out" 2>"$tmp/relay.err" &
	rpid=$!
	for i in $(seq 50); do grep -q ready "$tmp/relay.out" 2>/dev/null && break; sleep 0.1; done
	# shellcheck disable=SC2086
	timeout "$PER_CMD_TIMEOUT" "$NETPERF" -H "$addr" -p "$R" $args >"$tmp/np.out" 2>&1
	rc=$?
	wait "$rpid"
	{ echo "# $name: netperf -H $addr -p RELAY $args (netperf exit $rc)"; cat "$out/$name.hex.tmp"; } >"$out/$name.hex"
	rm -f "$out/$name.hex.tmp"
	echo "$name: exit $rc, $(grep -c '^[CS] ' "$out/$name.hex") messages"
	[ "$rc" = 0 ] || { fails=$((fails + 1)); cat "$tmp/np.out" "$tmp/relay.err" >&2; }
done <<<"$TABLE"

# Probes: hand-built requests straight to netserver.
probe() {                               # probe NAME PORT MESSAGE...
	local name=$1 port=$2
	shift 2
	"$PYTHON" "$relay" probe 127.0.0.1 "$port" "$out/$name.hex.tmp" "$PER_CMD_TIMEOUT" "$@" || fails=$((fails + 1))
	{ echo "# $name: probe of netserver with types $*"; cat "$out/$name.hex.tmp"; } >"$out/$name.hex"
	rm -f "$out/$name.hex.tmp"
	echo "$name: $(grep -c '^[CS] ' "$out/$name.hex") messages"
}
probe misc "$N4" 4 600 5 1234
probe passphrase_wrong "$NZ" 6:wrong 4

{
	echo "netperf: $version"
	echo "package: $(dpkg-query -W -f '${Package} ${Version}' netperf 2>/dev/null || echo unknown)"
	echo "kernel: $(uname -srm)"
	echo "captured: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "ports: netserver $N4 (127.0.0.1) $N6 (::1) $NZ (-Z sesame), relay $R, data $DP"
} >"$out/VERSION"
[ "$fails" = 0 ] || die "$fails case(s) failed"
