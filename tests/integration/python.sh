#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# python: the warpspeed Python module (python/warpspeed, ctypes over libwarpspeed.so) with
# Debian's python3-numpy against a `warpspeed node` on loopback: structure layouts against
# the header, bit-exact write -> trigger -> read in complex64 and int16, info, ping, the
# library's errors as warpspeed.Error, TypeError/ValueError for wrong dtypes and shapes, and
# a small benchmark printing Mb/s (tests/python/test_warpspeed.py). Also the shared
# library itself: soname, symlinks, and exports exactly the functions the public headers
# mark WARPSPEED_API.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
T=$WS_TMP
ver=$(sed -n 's/^#define WARPSPEED_VERSION_STRING "\(.*\)"/\1/p' "$WS_ROOT/include/warpspeed/version.h")
so=$WS_BUILD/libwarpspeed.so.$ver soname=libwarpspeed.so.${ver%%.*}
# The library reports the build's one version (the release, "+", the git description).
full=$(make -s -C "$WS_ROOT" version)
if [ ! -f "$so" ]; then
	skip python "$so was not built (a static or cross build has no shared library)"
	finish
fi

# --- the shared library ----------------------------------------------------------------------
if [ "$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')" = "$soname" ] &&
	[ "$(readlink "$WS_BUILD/$soname")" = "$(basename "$so")" ] &&
	[ "$(readlink "$WS_BUILD/libwarpspeed.so")" = "$soname" ]; then
	pass "shlib_soname ($soname -> $(basename "$so"))"
else
	fail shlib_soname "$(readelf -d "$so" | grep SONAME); $(ls -l "$WS_BUILD"/libwarpspeed.so*)"
fi
# Every function marked WARPSPEED_API in include/warpspeed/*.h, and nothing else.
sed -n 's/^WARPSPEED_API [^(]*[ *]\([a-z_0-9]*\)(.*/\1/p' "$WS_ROOT"/include/warpspeed/*.h |
	sort >"$T/api"
nm -D --defined-only "$so" | awk '{print $3}' | sort >"$T/exports"
if [ -s "$T/api" ] && cmp -s "$T/api" "$T/exports"; then
	pass "shlib_exports ($(wc -l <"$T/api") functions, nothing else)"
else
	fail shlib_exports "$(diff "$T/api" "$T/exports" | grep '^[<>]' | tr '\n' ' ')"
fi

# --- the Python module -----------------------------------------------------------------------
# The first of these with numpy: WS_PYTHON, python3 on PATH, Debian's /usr/bin/python3.
py=
for p in ${WS_PYTHON:-} python3 /usr/bin/python3; do
	command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' 2>/dev/null && { py=$p; break; }
done
if [ -z "$py" ]; then
	if command -v python3 >/dev/null 2>&1; then
		skip python "numpy is missing (apt-get install python3-numpy)"
	else
		skip python "python3 is missing (apt-get install python3 python3-numpy)"
	fi
	finish
fi
ws_san_preload

"$WS_BIN" node --bind 127.0.0.1 --port 0 --bcast-port 0 --tx-samples 1M --rx-samples 1M \
	--reply-rate off --quiet >"$T/node.out" 2>"$T/node.err" &
WS_PIDS+=("$!")
port= bport=
for _ in $(seq 1 100); do
	port=$(sed -n 's/.*listening on [0-9.]*:\([0-9]*\),.*/\1/p' "$T/node.err")
	[ -n "$port" ] && break
	sleep 0.02
done
bport=$(sed -n 's/.*broadcast port \([0-9]*\),.*/\1/p' "$T/node.err")
if [ -z "$port" ]; then
	fail python_node_start "no banner: $(head -c 300 "$T/node.err")"
	finish
fi

WARPSPEED_LIB=$WS_BUILD/$soname PYTHONPATH=$WS_ROOT/python \
	timeout 60 "$py" "$WS_ROOT/tests/python/test_warpspeed.py" "$port" "$bport" "$full" "$so" \
	>"$T/py.out" 2>&1
rc=$?
cat "$T/py.out"
if [ $rc -ne 0 ] && ! grep -q '^FAIL' "$T/py.out"; then
	fail python "$py exited $rc: $(tail -n 5 "$T/py.out")"
fi
# From a source tree without WARPSPEED_LIB, the module finds build/'s library.
if [ "$WS_BUILD" = "$WS_ROOT/build" ]; then
	got=$(cd "$T" && PYTHONPATH=$WS_ROOT/python "$py" -c 'import warpspeed; print(warpspeed.library_path)' 2>&1)
	if [ "$got" = "$WS_ROOT/build/$soname" ]; then
		pass python_finds_build_folder
	else
		fail python_finds_build_folder "library_path $got, want $WS_ROOT/build/$soname"
	fi
fi
finish
