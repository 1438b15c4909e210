#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# One version: the build's (make -s version: version.h's release, then "+" and the git
# description when the tree has one) is what every face of warpspeed says: `-V`, the JSON
# result's warpspeed_version, the daemon's peer_software seen by a client, ws_version()
# through the Python module, and the installed man page and pkg-config file (install.sh
# checks those two). The MEX's VERSION is checked by octave_mex.sh against the same string.
source "$(dirname "$0")/../lib.sh"
root=${WS_ROOT:?}
want=$(make -s -C "$root" version)
release=$(sed -n 's/^#define WARPSPEED_VERSION_STRING "\(.*\)"/\1/p' "$root/include/warpspeed/version.h")
if [[ "$want" == "$release" || "$want" == "$release+"?* ]]; then
	pass "version_form ($want)"
else
	fail version_form "make version says '$want'; expected '$release' or '$release+<git description>'"
fi

got=$("$WS_BIN" -V 2>&1 | head -n 1)
[[ "$got" == "warpspeed $want "* || "$got" == "warpspeed $want" ]] && pass version_dash_V ||
	fail version_dash_V "first line of -V is '$got'; expected 'warpspeed $want ...'"

start_daemon || { fail version_daemon "no daemon"; finish; }
json=$("$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -t TCP_STREAM -l -65536 --json 2>"$WS_TMP/json.err")
jv=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["warpspeed_version"]); print(d["peer_software"])' <<<"$json" 2>&1)
expect_line() { # name, line number, wanted
	local line
	line=$(sed -n "$2p" <<<"$jv")
	[ "$line" = "$3" ] && pass "$1" || fail "$1" "got '$line'; expected '$3' ($(head -c 300 "$WS_TMP/json.err"))"
}
expect_line version_json 1 "$want"
expect_line version_peer_software 2 "warpspeed $want"

so=$(ls "$WS_BUILD"/libwarpspeed.so.* 2>/dev/null | head -n 1)
if [ -z "$so" ]; then
	skip version_python "no shared library in $WS_BUILD (a STATIC=1 or cross build has none)"
else
	pv=$(ws_san_preload && cd "$root/python" && WARPSPEED_LIB=$so python3 -c 'import warpspeed; print(warpspeed.__version__)' 2>&1)
	[ "$pv" = "$want" ] && pass version_python || fail version_python "warpspeed.__version__ is '$pv'; expected '$want'"
fi
finish
