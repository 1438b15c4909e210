# SPDX-License-Identifier: BSD-2-Clause
# capture-lib.sh: what the golden capture scripts share (capture-netperf.sh, capture-npwire.sh):
# the netperf 2.7.0 checks, free loopback ports, netservers of their own started and stopped
# by PID, and a scratch folder. Sourced after `me` (the script's name, for messages) is set.
NETPERF=${NETPERF:-netperf}
NETSERVER=${NETSERVER:-netserver}

die() { echo "$me: $*" >&2; exit 1; }
command -v "$NETPERF" >/dev/null || die "netperf not found (Debian: add non-free, apt-get install netperf)"
command -v "$NETSERVER" >/dev/null || die "netserver not found"
version=$("$NETPERF" -V 2>&1 | head -1)
case $version in *2.7.0*) ;; *) echo "$me: warning: expected netperf 2.7.0, got: $version" >&2 ;; esac

port_busy() { ss -Htan "( sport = :$1 )" 2>/dev/null | grep -q .; }
free_port() {                           # first port from $1 up with no socket on it
	local p=$1
	while port_busy "$p"; do p=$((p + 1)); done
	echo "$p"
}

PIDS=()
cleanup() { local p; for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; }
tmp=$(mktemp -d) || die "mktemp failed"
trap 'cleanup; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

start_netserver() {                     # start_netserver PORT ADDR,FAMILY [netserver args]
	local port=$1 addr=$2
	shift 2
	"$NETSERVER" -D -p "$port" -L "$addr" "$@" >"$tmp/netserver-$port.log" 2>&1 &
	PIDS+=("$!")
	local i
	for i in $(seq 50); do
		ss -Hltn "( sport = :$port )" 2>/dev/null | grep -q . && return 0
		kill -0 "${PIDS[-1]}" 2>/dev/null || break
		sleep 0.1
	done
	cat "$tmp/netserver-$port.log" >&2
	die "netserver on port $port ($addr) did not start"
}
