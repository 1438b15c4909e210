#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# A UDP test's data address must be the control connection's: with test option -L naming
# another address, the daemon would send datagrams (UDP_RR responses up to 64 KiB for 1-byte
# requests anyone can forge) toward an address that never connected to it. On the test bed
# (namespaces this test creates), a client in A whose control connection comes from WS_A
# asks for its UDP data from 127.0.0.1: refused by name; from WS_A itself: served. TCP data
# carries the session's cookie and keeps -L free. Needs root; skips otherwise.
set -u
root=${WS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
ws_bin=${WS_BIN:-$root/build/warpspeed}
tb=$root/bench/testbed
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
name=ws-up$$
failed=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failed=1; }

if why=$(ws_testbed_missing); then
	echo "SKIP udp_peer_refused: $why"
	echo "SKIP udp_peer_same: $why"
	exit 0
fi
dpid=""
cleanup() {
	[ -n "$dpid" ] && kill "$dpid" 2>/dev/null && wait "$dpid" 2>/dev/null
	"$tb" down "$name" >/dev/null 2>&1
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if ! env=$("$tb" up gige --name "$name" 2>&1); then
	fail udp_peer_refused "bench/testbed up gige failed: $env"
	exit 1
fi
eval "$env"
ip netns exec "$name-b" "$ws_bin" serve -L "$WS_B" >/dev/null 2>&1 &
dpid=$!
for _ in $(seq 1 50); do
	ip netns exec "$name-b" ss -Hltn 'sport = :12865' | grep -q . && break
	sleep 0.1
done

out=$(ip netns exec "$name-a" "$ws_bin" -H "$WS_B" -t UDP_RR -l 1 -P 0 -- -L 127.0.0.1 2>&1); rc=$?
want="test option -L 127.0.0.1: a UDP test's data must come from the control connection's address $WS_A"
if [ $rc -ne 0 ] && [[ $out == *"$want"* ]]; then pass udp_peer_refused
else fail udp_peer_refused "exit $rc: $out"; fi

out=$(ip netns exec "$name-a" "$ws_bin" -H "$WS_B" -t UDP_RR -l -200 -P 0 -- -L "$WS_A" -e 5 2>&1); rc=$?
if [ $rc -eq 0 ]; then pass udp_peer_same
else fail udp_peer_same "exit $rc: $out"; fi
exit $failed
