#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# install: `make install` into a temporary DESTDIR behaves like a Debian tool's install.
# Checks the exact file list and modes, the shared library's soname symlinks, the Python
# package (in the interpreter's site directory under PREFIX, loading the installed library;
# left out by PYTHON_MODULE=0), the pkg-config file (pkg-config --cflags --libs against the
# staged tree), a tiny C program built with it (with <warpspeed/iq.h> when that header
# exists: linked to the shared library and to the static one, and run against the
# installed `warpspeed node`), the systemd unit
# (filled in, not enabled), the bash completion (and its netperf/netserver links, which
# complete with the installed binary), the man page (renders without warnings, `man warpspeed` finds
# it, and every option each role's --help names is in it), and that `make uninstall` removes
# exactly what was installed and nothing else. Uses the build being tested (WS_BUILD) and
# never rebuilds it.
source "$(dirname "$0")/../lib.sh"
: "${WS_BUILD:?}" "${WS_ROOT:?}"
dest=$WS_TMP/dest
prefix=/usr/local
root=$dest$prefix

# The same build folder and variant (build/san is SANITIZE=1; BUILD given on the command
# line is used as is) as the binary under test; -o keeps make from relinking anything.
mk=(make -s -C "$WS_ROOT" PREFIX="$prefix" DESTDIR="$dest" BUILD="$WS_BUILD")
sanflags=()
if [ "$(basename "$WS_BUILD")" = san ]; then
	mk+=(SANITIZE=1)
	sanflags=(-fsanitize=address,undefined)
fi
mk+=(-o "$WS_BUILD/warpspeed" -o "$WS_BUILD/libwarpspeed.a")
# The shared library, when this build has one (not a static or cross build).
sover=$(sed -n 's/^#define WARPSPEED_VERSION_STRING "\(.*\)"/\1/p' "$WS_ROOT/include/warpspeed/version.h")
# The build's one version, as -V says (tests/integration/version.sh): ws_version(), the
# Python module, pkg-config and the man page carry it; sover is the release the soname has.
version=$(make -s -C "$WS_ROOT" version)
so=libwarpspeed.so.$sover soname=libwarpspeed.so.${sover%%.*}
[ -f "$WS_BUILD/$so" ] || so=
[ -z "$so" ] || mk+=(-o "$WS_BUILD/$so")
# The interpreter make install asks for its site directory (the Makefile's default).
py=$(command -v /usr/bin/python3 || command -v python3)
[ -z "$py" ] || mk+=(PYTHON3="$py")

if ! "${mk[@]}" install >"$WS_TMP/install.log" 2>&1; then
	fail install "make install failed: $(tail -n 5 "$WS_TMP/install.log")"
	finish
fi

# --- the file list and modes -------------------------------------------------------------
headers=$(cd "$WS_ROOT/include/warpspeed" && ls -- *.h)
pyfiles=$(cd "$WS_ROOT/python/warpspeed" && ls -- *.py)
# The package's folder: the one warpspeed/ folder installed under lib/python3*/.
pydir=
if [ -n "$so" ] && [ -n "$py" ]; then
	pydir=$(cd "$root" && find lib -path 'lib/python3*/*-packages/warpspeed' -type d)
	pydir=${pydir%/warpspeed}
fi
expect=$( {
	echo "bin/warpspeed 755"
	echo "lib/libwarpspeed.a 644"
	[ -z "$so" ] || echo "lib/$so 644"
	for f in $pyfiles; do [ -z "$pydir" ] || echo "$pydir/warpspeed/$f 644"; done
	for h in $headers; do echo "include/warpspeed/$h 644"; done
	echo "lib/pkgconfig/warpspeed.pc 644"
	echo "share/man/man1/warpspeed.1 644"
	echo "lib/systemd/system/warpspeed-serve.service 644"
	echo "share/bash-completion/completions/warpspeed 644"
} | sort)
got=$(cd "$dest" && find . -type f -printf '%P %m\n' | sed "s|^${prefix#/}/||" | sort)
if [ "$got" = "$expect" ]; then
	pass "install_file_list ($(echo "$got" | wc -l) files)"
else
	fail install_file_list "$(diff <(echo "$expect") <(echo "$got") | grep '^[<>]' | tr '\n' ' ')"
fi
if ! cmp -s "$root/bin/warpspeed" "$WS_BUILD/warpspeed"; then
	fail install_binary "the installed binary differs from $WS_BUILD/warpspeed"
elif ! "$root/bin/warpspeed" -V >"$WS_TMP/v.out" 2>&1 || ! grep -q '^fast paths: ' "$WS_TMP/v.out"; then
	fail install_binary "-V failed or lacks 'fast paths:': $(head -c 300 "$WS_TMP/v.out")"
else
	pass install_binary
fi

# --- the shared library's links and the Python package --------------------------------------
if [ -z "$so" ]; then
	skip install_shlib "$WS_BUILD has no $so (a static or cross build)"
elif [ "$(readlink "$root/lib/$soname")" = "$so" ] &&
	[ "$(readlink "$root/lib/libwarpspeed.so")" = "$soname" ] &&
	cmp -s "$root/lib/$so" "$WS_BUILD/$so"; then
	pass "install_shlib ($soname -> $so, libwarpspeed.so -> $soname)"
else
	fail install_shlib "$(ls -l "$root"/lib/libwarpspeed.so* 2>&1 | tr '\n' ' ')"
fi
if [ -n "$so" ] && [ -z "$py" ]; then
	skip install_python "no python3"
elif [ -n "$so" ]; then
	# In the interpreter's site directories under PREFIX or, when it has none there,
	# PREFIX/lib/python3.X/site-packages; recording LIBDIR; importable (numpy is only
	# needed for samples) with the staged library, which it reports; the import leaves a
	# __pycache__ (bytecode written) that uninstall must remove.
	site=$("$py" -c 'import site, sys; print(" ".join(site.getsitepackages())); print("lib/python%d.%d/site-packages" % sys.version_info[:2])')
	insite=$(echo "$site" | head -n 1 | tr ' ' '\n' | grep -Fx "$prefix/$pydir")
	under=$(echo "$site" | head -n 1 | tr ' ' '\n' | grep -c "^$prefix/lib/")
	if [ -z "$pydir" ]; then
		fail install_python "no warpspeed/ folder under $root/lib/python3*/"
	elif [ -z "$insite" ] && { [ "$under" != 0 ] || [ "$pydir" != "$(echo "$site" | tail -n 1)" ]; }; then
		fail install_python "$prefix/$pydir is not among $py's site directories: $(echo "$site" | head -n 1)"
	elif ! out=$(cd "$WS_TMP" && ws_san_preload && PYTHONPATH=$root/$pydir \
		WARPSPEED_LIB=$root/lib/$soname env -u PYTHONDONTWRITEBYTECODE "$py" -c \
		'import warpspeed, warpspeed._lib as l; del l.os.environ["WARPSPEED_LIB"]
print(warpspeed.__file__, warpspeed.library_path, warpspeed.library_version, l._candidates())' 2>&1) ||
		[ "$out" != "$root/$pydir/warpspeed/__init__.py $root/lib/$soname $version ['$prefix/lib/$soname', '$soname']" ]; then
		fail install_python "the installed module: $out"
	else
		pass "install_python ($prefix/$pydir/warpspeed, loads $prefix/lib/$soname)"
	fi
fi

# --- the netperf and netserver links (NETPERF_LINKS=0 leaves them out) ----------------------
links_ok=1
for n in netperf netserver; do
	if [ "$(readlink "$root/bin/$n")" != warpspeed ]; then
		fail install_links "bin/$n is not a symlink to warpspeed: $(ls -l "$root/bin/$n" 2>&1)"; links_ok=0
	fi
done
if [ $links_ok = 1 ]; then
	if "$root/bin/netserver" -V 2>&1 | grep -qx 'warpspeed .* as netserver' &&
		"$root/bin/netperf" -V 2>&1 | grep -qx 'warpspeed .* as netperf'; then
		pass install_links
	else
		fail install_links "the links do not run as netserver/netperf: $("$root/bin/netserver" -V 2>&1 | head -c 200)"
	fi
fi
# --- bash completion: installed where bash-completion loads it by command name, with the
# netperf and netserver names linked to it; sourced as is, it completes with the installed
# binary (and its links) found on PATH ------------------------------------------------------
comp=$root/share/bash-completion/completions
if ! cmp -s "$comp/warpspeed" "$WS_ROOT/packaging/bash-completion/warpspeed"; then
	fail install_bash_completion "$comp/warpspeed is missing or differs from packaging/bash-completion/warpspeed"
elif [ "$(readlink "$comp/netperf")" != warpspeed ] || [ "$(readlink "$comp/netserver")" != warpspeed ]; then
	fail install_bash_completion "completions/netperf and netserver are not links to warpspeed: $(ls -l "$comp" | tr '\n' ' ')"
else
	got=$(ws_san_preload; PATH=$root/bin:$PATH bash --norc --noprofile -c '
		source "$1"
		c() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _warpspeed; echo "${COMPREPLY[*]}"; }
		c warpspeed -t TCP_R; c netperf -t UDP_; c netserver -V; c warpspeed se' _ "$comp/warpspeed" 2>&1)
	if [ "$got" = $'TCP_RR\nUDP_STREAM UDP_RR\n-V\nserve' ]; then
		pass install_bash_completion
	else
		fail install_bash_completion "the installed script completed [$got]"
	fi
fi
dest0=$WS_TMP/dest0
mk0=("${mk[@]/#DESTDIR=*/DESTDIR=$dest0}" NETPERF_LINKS=0 PYTHON_MODULE=0)
if "${mk0[@]}" install >"$WS_TMP/install0.log" 2>&1; then
	if [ -e "$dest0$prefix/bin/netperf" ] || [ -L "$dest0$prefix/bin/netserver" ] ||
		[ -L "$dest0$prefix/share/bash-completion/completions/netperf" ]; then
		fail install_no_links "NETPERF_LINKS=0 still installed a link: $(ls -l "$dest0$prefix/bin")"
	else
		pass install_no_links
	fi
	if [ -n "$(find "$dest0" -name '*.py')" ]; then
		fail install_no_python "PYTHON_MODULE=0 still installed $(find "$dest0" -name '*.py' | head -n 3)"
	else
		pass install_no_python
	fi
else
	fail install_no_links "make install NETPERF_LINKS=0 PYTHON_MODULE=0 failed: $(tail -n 5 "$WS_TMP/install0.log")"
fi

# --- pkg-config ------------------------------------------------------------------------------
export PKG_CONFIG_PATH=$root/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest PKG_CONFIG_LIBDIR=
pcver=$version
if ! command -v pkg-config >/dev/null; then
	skip pkg_config "pkg-config is not installed (apt-get install pkg-config)"
	flags=("-I$root/include" "-L$root/lib" -lwarpspeed -pthread -lm)
elif ! pc=$(pkg-config --cflags --libs warpspeed 2>&1); then
	fail pkg_config "pkg-config --cflags --libs warpspeed: $pc"
	flags=()
elif [ "$(pkg-config --modversion warpspeed)" != "$pcver" ] || [[ "$pc" != *"-I$root/include"* ]] ||
	[[ "$pc" != *"-L$root/lib -lwarpspeed"* ]] || grep -qE '@[A-Z_]+@' "$root/lib/pkgconfig/warpspeed.pc"; then
	fail pkg_config "version $(pkg-config --modversion warpspeed) (want $pcver), flags '$pc'"
	flags=()
else
	pass "pkg_config ($pc)"
	read -ra flags <<<"$pc"
fi

# --- a tiny program against the installed headers and library -----------------------------
# -lwarpspeed links the shared library where there is one: it runs from the staged tree.
cc=${CC:-cc}
export LD_LIBRARY_PATH=$root/lib
cat >"$WS_TMP/ver.c" <<'C'
#include <stdio.h>
#include <warpspeed/version.h>
int main(void)
{
	printf("%s %d %s\n", WARPSPEED_VERSION_STRING, WARPSPEED_CTL_PROTOCOL, ws_version());
	return 0;
}
C
if [ ${#flags[@]} -eq 0 ]; then
	fail tiny_program_version_h "no compiler flags (pkg-config failed above)"
elif "$cc" -std=c11 -Wall -Werror "${sanflags[@]}" -o "$WS_TMP/ver" "$WS_TMP/ver.c" "${flags[@]}" \
	2>"$WS_TMP/ver.err" && [ "$("$WS_TMP/ver")" = "${pcver%%+*} 1 $pcver" ]; then
	pass tiny_program_version_h
else
	fail tiny_program_version_h "$(head -c 400 "$WS_TMP/ver.err")"
fi

if [ ! -f "$WS_ROOT/include/warpspeed/iq.h" ]; then
	skip tiny_program_iq_h "include/warpspeed/iq.h does not exist yet"
else
	cat >"$WS_TMP/iq.c" <<'C'
/* Uses only the installed header and library: open a node, ping it, read its info. */
#include <stdio.h>
#include <stdlib.h>
#include <warpspeed/iq.h>
int main(int argc, char **argv)
{
	if (ws_iq_format_size(WS_IQ_FMT_CI16) != 4)
		return 3;
	if (argc < 3)
		return 0; /* link check only */
	ws_iq_config c;
	ws_iq_config_default(&c);
	c.addr = argv[1];
	c.port = atoi(argv[2]);
	ws_iq_node *n;
	ws_iq_error e;
	if (ws_iq_open(&c, &n, &e) < 0) {
		fprintf(stderr, "open: %s\n", e.msg);
		return 1;
	}
	int64_t rtt = ws_iq_ping(n, &e);
	ws_iq_info in;
	ws_iq_get_info(n, &in);
	ws_iq_close(n);
	if (rtt < 0) {
		fprintf(stderr, "ping: %s\n", e.msg);
		return 1;
	}
	printf("serial W3-a-%05u WARPLab %u.%u.%u\n", (unsigned)in.serial, (unsigned)in.wl_major,
	       (unsigned)in.wl_minor, (unsigned)in.wl_rev);
	return 0;
}
C
	if [ ${#flags[@]} -eq 0 ]; then
		fail tiny_program_iq_h "no compiler flags (pkg-config failed above)"
	elif ! "$cc" -std=c11 -Wall -Werror "${sanflags[@]}" -o "$WS_TMP/iq" "$WS_TMP/iq.c" "${flags[@]}" \
		2>"$WS_TMP/iq.err" || ! "$WS_TMP/iq"; then
		fail tiny_program_iq_h "compile/link/run: $(head -c 600 "$WS_TMP/iq.err")"
	else
		pass tiny_program_iq_h_links
		# Which library it linked: the shared one where installed; the static one always links.
		needed=$(readelf -d "$WS_TMP/iq" | sed -n 's/.*Shared library: \[\(libwarpspeed[^]]*\)\]/\1/p')
		if [ "$needed" = "${so:+$soname}" ]; then
			pass "tiny_program_iq_h_shared (${needed:-static only})"
		else
			fail tiny_program_iq_h_shared "it needs '$needed', want '${so:+$soname}'"
		fi
		if "$cc" -std=c11 -Wall -Werror "${sanflags[@]}" -o "$WS_TMP/iq_static" "$WS_TMP/iq.c" \
			"-I$root/include" "$root/lib/libwarpspeed.a" -pthread -lm 2>"$WS_TMP/iqs.err" &&
			"$WS_TMP/iq_static" && ! readelf -d "$WS_TMP/iq_static" | grep -q libwarpspeed; then
			pass tiny_program_iq_h_static
		else
			fail tiny_program_iq_h_static "$(head -c 400 "$WS_TMP/iqs.err")"
		fi
		# ... and works, against the installed binary's node emulator.
		"$root/bin/warpspeed" node --bind 127.0.0.1 --port 0 --bcast-port off --quiet \
			--tx-samples 64K --rx-samples 64K >/dev/null 2>"$WS_TMP/node.err" &
		WS_PIDS+=("$!")
		nport=
		for _ in $(seq 1 100); do
			nport=$(sed -n 's/.*listening on [0-9.]*:\([0-9]*\),.*/\1/p' "$WS_TMP/node.err")
			[ -n "$nport" ] && break
			sleep 0.05
		done
		if [ -z "$nport" ]; then
			skip tiny_program_iq_h_node "the installed 'warpspeed node' did not start: $(head -c 200 "$WS_TMP/node.err")"
		elif out=$("$WS_TMP/iq" 127.0.0.1 "$nport" 2>&1) && [[ "$out" == "serial W3-a-"* ]]; then
			pass "tiny_program_iq_h_node ($out)"
		else
			fail tiny_program_iq_h_node "$out"
		fi
	fi
fi

# --- the systemd unit --------------------------------------------------------------------
unit=$root/lib/systemd/system/warpspeed-serve.service
if grep -q "^ExecStart=$prefix/bin/warpspeed serve" "$unit" && ! grep -qE '@[A-Z_]+@' "$unit" &&
	[ ! -e "$dest/etc" ]; then
	if command -v systemd-analyze >/dev/null; then
		# verify wants the binary at its final path; check a copy aimed at the staged one.
		sed "s|^ExecStart=$prefix|ExecStart=$root|" "$unit" >"$WS_TMP/warpspeed-serve.service"
		# (MANPATH: verify also checks that Documentation=man:warpspeed(1) exists.)
		if MANPATH=$root/share/man: systemd-analyze verify "$WS_TMP/warpspeed-serve.service" \
			>"$WS_TMP/verify.log" 2>&1; then
			pass systemd_unit
		else
			fail systemd_unit "systemd-analyze verify: $(head -c 400 "$WS_TMP/verify.log")"
		fi
	else
		pass "systemd_unit (systemd-analyze not installed: not verified)"
	fi
else
	fail systemd_unit "ExecStart not filled in, or something was enabled under $dest/etc"
fi

# --- the man page ------------------------------------------------------------------------
page=$root/share/man/man1/warpspeed.1
os=$(grep '^\.Os ' "$page")
[ "$os" = ".Os warpspeed $pcver" ] && pass man_page_version ||
	fail man_page_version "installed page says '$os'; expected '.Os warpspeed $pcver'"
if ! command -v man >/dev/null; then
	skip man_page "man is not installed"
else
	MANWIDTH=1000 man --warnings -E ascii -l "$page" 2>"$WS_TMP/man.err" | col -b >"$WS_TMP/man.txt"
	if [ -s "$WS_TMP/man.err" ] || ! grep -q '^EXIT STATUS' "$WS_TMP/man.txt"; then
		fail man_page_renders "$(head -c 400 "$WS_TMP/man.err")"
	else
		pass man_page_renders
	fi
	if MANPATH=$root/share/man man -w warpspeed 2>/dev/null | grep -qF "$page"; then
		pass man_warpspeed_found
	else
		fail man_warpspeed_found "MANPATH=$root/share/man man -w warpspeed does not find $page"
	fi
	# Every option a usage text names must be in the page.
	opts() { grep -oE '(^|[^A-Za-z0-9_-])--?[A-Za-z0-9][A-Za-z0-9_-]*' | sed 's/^[^-]*//' | sort -u; }
	opts <"$WS_TMP/man.txt" >"$WS_TMP/man.opts"
	for role in client serve node iq compare plot mesh iq_info iq_ping iq_read iq_write \
		iq_trigger iq_bench; do
		args=(--help)
		[ "$role" = client ] || args=(${role/_/ } --help)
		if ! "$WS_BIN" "${args[@]}" >"$WS_TMP/help.txt" 2>&1; then
			skip "man_covers_${role}_help" "'warpspeed ${args[*]}' exits non-zero"
			continue
		fi
		missing=$(opts <"$WS_TMP/help.txt" | comm -23 - "$WS_TMP/man.opts" | tr '\n' ' ')
		if [ -z "$missing" ]; then
			pass "man_covers_${role}_help"
		else
			fail "man_covers_${role}_help" "options in --help but not in warpspeed(1): $missing"
		fi
	done
fi

# --- uninstall: exactly what was installed ---------------------------------------------------
mkdir -p "$root/include/warpspeed"
echo keep >"$root/bin/someone-else"
echo keep >"$root/include/warpspeed/someone-else.h"
want="${prefix#/}/bin/someone-else ${prefix#/}/include/warpspeed/someone-else.h "
if [ -n "$pydir" ]; then # a module beside ours stays (ours also left a __pycache__ above)
	echo keep >"$root/$pydir/someone_else.py"
	want="$want${prefix#/}/$pydir/someone_else.py "
fi
if ! "${mk[@]}" uninstall >"$WS_TMP/uninstall.log" 2>&1; then
	fail uninstall "make uninstall failed: $(tail -n 5 "$WS_TMP/uninstall.log")"
else
	left=$(cd "$dest" && find . \( -type f -o -type l \) -printf '%P\n' | sort | tr '\n' ' ')
	if [ "$left" = "$want" ] && [ ! -L "$root/bin/netperf" ] && [ ! -L "$root/bin/netserver" ] &&
		[ ! -e "$comp/warpspeed" ] && [ ! -L "$comp/netperf" ] &&
		[ ! -e "$root/$pydir/warpspeed" ]; then
		pass uninstall_exact
	else
		fail uninstall_exact "left behind: $left (want only the foreign files: $want)"
	fi
	rm -f "$root/include/warpspeed/someone-else.h"
	"${mk[@]}" uninstall >/dev/null 2>&1
	if [ ! -e "$root/include/warpspeed" ]; then pass uninstall_removes_include_dir
	else fail uninstall_removes_include_dir "$root/include/warpspeed is still there"; fi
fi
finish
