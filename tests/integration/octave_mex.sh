#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# octave_mex: issue 18, warpspeed's wl_mex_udp_transport (make mex) driven from Octave
# exactly as WARPLab 7.7.1's M classes call it (tests/octave/test_wl_mex.m), against
# `warpspeed node` on loopback: sockets and buffer sizes, PING / NODE_INFO / payload size
# test through SEND and RECEIVE, write_iq with the node's checksum, a trigger to the
# broadcast port, read_iq bit-exact at 1, 2233 (a packet and one), 2^15 and 2^20 samples in all four data types
# (2^24 in raw: the double conversions at 2^24 take seconds in Octave on a loaded two-core
# machine), the IQ-ID tracker, and the error paths; then, through bench/iq_proxy dropping
# 20 % of the datagrams, a write and a read that recover and warn, and no warning after
# SUPPRESS_IQ_WARNINGS; and reads whose output array comes late on purpose (all, part or
# none of the samples staged as wire words first). Every check is one PASS/FAIL line printed by the Octave script.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/iq_lib.sh
. "$(dirname "$0")/../iq_lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD_DIR=${WS_BUILD:-$(dirname "$WS_BIN")}

# The sanitized run is by hand (57 checks passed clean), not in CI's time.
need_octave octave_mex "$BUILD_DIR"
MEX=$BUILD_DIR/wl_mex_udp_transport.mex
if ! make -C "$ROOT" -s mex BUILD="${BUILD_DIR#"$ROOT"/}" >"$WS_TMP/make.log" 2>&1 || [ ! -f "$MEX" ]; then
	fail octave_mex_build "$(tail -n 5 "$WS_TMP/make.log")"
	finish
fi

# mex_node NAME RATE: a node on ephemeral unicast and broadcast ports with reply cap
# RATE; its ports in NAME_PORT and NAME_BCAST, or the test ends.
mex_node() {
	"$WS_BIN" node --bind 127.0.0.1 --port 0 --bcast-port 0 --reply-rate "$2" \
		>"$WS_TMP/$1.out" 2>"$WS_TMP/$1.err" &
	WS_PIDS+=("$!")
	wait_banner "$1_PORT" "$WS_TMP/$1.err" 's/.*listening on [0-9.]*:\([0-9]*\),.*/\1/p'
	wait_banner "$1_BCAST" "$WS_TMP/$1.err" 's/.*broadcast port \([0-9]*\),.*/\1/p'
	local p=$1_PORT b=$1_BCAST
	if [ -z "${!p:-}" ] || [ -z "${!b:-}" ]; then
		fail "octave_mex_$1" "no banner: $(head -c 300 "$WS_TMP/$1.err")"
		finish
	fi
}
mex_node NODE off
# A second node whose replies are capped at 1 Gb/s, as a board's Ethernet: a read of 2^22
# samples then takes about 135 ms, so an array made 3 ms late (the MEX's test hook) finds
# part of the read staged and part still to come (tests/octave/test_wl_mex_stage.m).
mex_node NODE2 1g

# The same node behind bench/iq_proxy dropping 20 % of the datagrams, for the recovery
# warnings and SUPPRESS_IQ_WARNINGS (tests/octave/test_wl_mex_loss.m).
PPORT=0
if [ ! -x "$WS_BUILD/bench/iq_proxy" ]; then
	skip octave_mex_loss "$WS_BUILD/bench/iq_proxy not built (make bench-bins)"
elif ! start_proxy loss --loss 20 --seed 5; then
	fail octave_mex_loss "the proxy did not start: $(head -c 300 "$WS_TMP/loss.px")"
	PPORT=0
fi

# A copy of the MEX in a folder of its own, first on the path, as a WARPLab user does.
mkdir -p "$WS_TMP/mex" && cp "$MEX" "$WS_TMP/mex/"
# VERSION must say the build's one version (the MEX's library is the same build).
WS_VERSION=$(make -s -C "$ROOT" version) octave --no-gui --no-window-system --norc --quiet --eval "
  addpath('$WS_TMP/mex'); addpath('$ROOT/tests/octave');
  rand('seed', 18); randn('seed', 18);
  nfail = test_wl_mex($NODE_PORT, $NODE_BCAST, [1 2233 2^15 2^20], 2^24, 3);
  nfail = nfail + test_wl_mex_stage($NODE2_PORT, $NODE2_BCAST, 2^22);
  if ${PPORT:-0} > 0, nfail = nfail + test_wl_mex_loss($NODE_PORT, $NODE_BCAST, $PPORT); end
  exit(nfail > 0);" >"$WS_TMP/octave.out" 2>"$WS_TMP/octave.err" &
OPID=$!
WS_PIDS+=("$OPID")
wait "$OPID"
rc=$?
grep -E '^(PASS|FAIL|SKIP) ' "$WS_TMP/octave.out"
npass=$(grep -c '^PASS ' "$WS_TMP/octave.out")
if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$WS_TMP/octave.out"; then
	fail octave_mex_script "octave exit $rc: $(grep -v '^#' "$WS_TMP/octave.err" | head -c 600)"
elif [ "$npass" -lt 40 ]; then
	fail octave_mex_count "only $npass checks passed (40 or more expected)"
fi
grep -q '^FAIL ' "$WS_TMP/octave.out" && WS_FAILED=1
finish
