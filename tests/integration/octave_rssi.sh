#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# octave_rssi: issue 33, READ_RSSI of all four RF interfaces, bit-exact, by every reader a
# WARPLab user has. `warpspeed node --rf 4` on loopback keeps an RSSI buffer per interface,
# value k of RF rf (A = 0 .. D = 3) being (5k + 200 rf) mod 1024 (src/iq/node/node_mem.c).
#   - the host library, through `warpspeed iq rssi --rf C` and `--rf D` (iq_cli.sh reads A
#     and B), against the pattern;
#   - warpspeed's MEX (make mex) from Octave, as wl_baseband_buffers' readRSSI calls it
#     (tests/octave/test_wl_rssi.m): RF A, B, C, D one at a time and all four in one call;
#   - WARPLab 7.7.1's own MEX, the same Octave checks: built here with mkoctfile --mex from
#     its source when WS_WARPLAB_MEX_SRC names WARPLab's M_Code_Reference/mex/
#     wl_mex_udp_transport.c (it is not in this repository), else skipped with that reason.
# The Octave checks need octave and mkoctfile; without them they are skipped, saying so.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/iq_lib.sh
. "$(dirname "$0")/../iq_lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD_DIR=${WS_BUILD:-$(dirname "$WS_BIN")}

if ! start_node --rf 4 || [ -z "$NODE_PORT" ]; then
	fail octave_rssi_node "no banner: $(head -c 300 "$WS_TMP/node.err")"
	finish
fi

# The host library: RF C and D, 1001 values (an odd count: half of the last word).
for rf in C D; do
	k=$(( $(printf '%d' "'$rf") - 65 ))
	"$WS_BIN" iq rssi "127.0.0.1:$NODE_PORT" --rf "$rf" --samples 1001 >"$WS_TMP/rssi_$rf" \
		2>"$WS_TMP/rssi_$rf.err"
	if cmp -s "$WS_TMP/rssi_$rf" <(awk -v rf="$k" 'BEGIN { for (i = 0; i < 1001; i++) print (5 * i + 200 * rf) % 1024 }'); then
		pass "octave_rssi_library_rf_$rf"
	else
		fail "octave_rssi_library_rf_$rf" "$(head -c 300 "$WS_TMP/rssi_$rf.err"; head -3 "$WS_TMP/rssi_$rf")"
	fi
done

need_octave octave_rssi_mex "$BUILD_DIR"

# octave_rssi TAG DIR: test_wl_rssi with the MEX in DIR first on the path.
octave_rssi() {
	octave --no-gui --no-window-system --norc --quiet --eval "
	  addpath('$2'); addpath('$ROOT/tests/octave');
	  exit(test_wl_rssi($NODE_PORT, '$1') > 0);" >"$WS_TMP/$1.out" 2>"$WS_TMP/$1.err" &
	local pid=$! rc
	WS_PIDS+=("$pid")
	wait "$pid"
	rc=$?
	grep -E '^(PASS|FAIL) ' "$WS_TMP/$1.out"
	grep -q '^FAIL ' "$WS_TMP/$1.out" && WS_FAILED=1
	if [ "$(grep -c '^PASS ' "$WS_TMP/$1.out")" -ne 5 ] && ! grep -q '^FAIL ' "$WS_TMP/$1.out"; then
		fail "octave_rssi_$1" "octave exit $rc: $(grep -v '^#' "$WS_TMP/$1.err" | head -c 600)"
	fi
}

MEX=$BUILD_DIR/wl_mex_udp_transport.mex
if ! make -C "$ROOT" -s mex BUILD="${BUILD_DIR#"$ROOT"/}" >"$WS_TMP/make.log" 2>&1 || [ ! -f "$MEX" ]; then
	fail octave_rssi_build "$(tail -n 5 "$WS_TMP/make.log")"
	finish
fi
mkdir -p "$WS_TMP/ours" && cp "$MEX" "$WS_TMP/ours/"
octave_rssi ours "$WS_TMP/ours"

src=${WS_WARPLAB_MEX_SRC:-}
if [ -z "$src" ] || [ ! -f "$src" ]; then
	skip octave_rssi_warplab "WARPLab's own MEX: set WS_WARPLAB_MEX_SRC to WARPLab 7.7.1's M_Code_Reference/mex/wl_mex_udp_transport.c${src:+ (not a file: $src)}"
	finish
fi
# WARPLab's source includes MATLAB's matrix.h, which Octave's mex.h already covers.
mkdir -p "$WS_TMP/wl/inc" && echo '/* Octave: mex.h declares it all */' >"$WS_TMP/wl/inc/matrix.h"
if ! (cd "$WS_TMP/wl" && mkoctfile --mex -I"$WS_TMP/wl/inc" -o wl_mex_udp_transport.mex "$src") \
	>"$WS_TMP/wl.log" 2>&1; then
	fail octave_rssi_warplab_build "mkoctfile --mex $src: $(grep -m 3 error "$WS_TMP/wl.log")"
	finish
fi
octave_rssi warplab "$WS_TMP/wl"
finish
