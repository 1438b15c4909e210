#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# host_settings: no benchmark or test changes a setting of the host it runs on. A write to
# /proc or /sys is allowed only inside the test's own network namespaces: on a line that
# runs under `ip netns exec`, directly or through a one-line wrapper function defined in
# the same file (`nsx() { ip netns exec "$ns" "$@"; }`). Where the host is noisy, a
# benchmark says so in its result (bench/lib.sh: ws_host_noise, ws_host_label); it never
# changes the host (tests/integration/bench_host_noise.sh checks that at run time).
#
# Scanned: every tracked file under bench/ and tests/ except this script. Refused, outside
# comments and namespaces:
#   shell:  a redirection (> or >>) or tee into /proc/... or /sys/..., or into a variable
#           that holds such a path (assigned one, directly or through another such
#           variable, or a `for` over one: the shape of the DAMON pause this replaces);
#           sysctl -w, sysctl -p and sysctl KEY=VALUE
#   Python: open('/proc/...' or '/sys/...', 'w'|'a'|'r+'...)
#   C:      fopen("/proc/..." or "/sys/...", "w"|"a"|"r+"), open("/proc/...", O_WRONLY|O_RDWR)
# Reading (cat /proc/loadavg, sysctl KEY, fopen(..., "r")) is fine. The scan is per line
# and per file: a write split over lines, or a path built in another file, is not seen;
# keep such code out of bench/ and tests/. A variable name is tainted for its whole file,
# so reusing the name of a /proc or /sys path variable for an ordinary file is refused too
# (rename it).
#
# The check is checked: a planted tree with one write of each kind beside legitimate code
# must give exactly those lines, and where the history is at hand, bench/lib.sh as it was
# when it paused DAMON (commit 3c7e015) must be refused.
source "$(dirname "$0")/../lib.sh"
root=${WS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
self=tests/integration/host_settings.sh

if ! echo x | grep -qP 'x' 2>/dev/null; then
	skip host_settings "grep has no -P (GNU grep is needed for the patterns)"
	finish
fi

PROC_SYS='/(?:proc|sys)/'
ID='[A-Za-z_][A-Za-z0-9_]*'

# is_shell FILE: a shell script by name or by its shebang.
is_shell() {
	case $1 in
	*.sh) return 0 ;;
	*.c | *.h | *.py | *.m | *.md | *.txt | *.hex | *.json | *.svg) return 1 ;;
	esac
	head -n 1 "$1" 2>/dev/null | tr -d '\000' | grep -qE '^#!.*(ba|da|k|z)?sh\b'
}

# tainted FILE: the variables of a shell file that hold a /proc or /sys path, one a line.
tainted() {
	local f=$1 vars= prev=-1 n re line v
	while :; do
		re=$PROC_SYS
		[ -n "$vars" ] && re="$PROC_SYS|\\\$\\{?(?:$vars)\\b"
		# Assignments (also local/declare/readonly and +=) and for-loops whose value
		# names such a path or a tainted variable.
		vars=$(grep -vP '^\s*#' "$f" | grep -oP "(?:^|[\s;(])(?:(?:local|declare(?:\s+-\w+)?|readonly|export)\s+)?$ID\+?=[^;]*(?:$re)|\bfor\s+$ID\s+in\s[^;]*(?:$re)" |
			grep -oP "(?:^|[\s;(])\K$ID(?=\+?=)|\bfor\s+\K$ID" | sort -u | paste -sd'|')
		n=$(echo "$vars" | tr '|' '\n' | grep -c .)
		[ "$n" -eq "$prev" ] && break
		prev=$n
	done
	echo "$vars" | tr '|' '\n' | grep .
}

# scan DIR LISTFILE: "F:L: what" for every refused write in the listed files (only those
# that name a /proc or /sys path or sysctl at all are read line by line).
scan() {
	local dir=$1 list=$2 f wrappers vars skip_re hits
	(
		cd "$dir" || exit 1
		while IFS= read -r f; do
			[ -f "$f" ] || continue
			if is_shell "$f"; then
				wrappers=$(grep -oP "^\s*(?:function\s+)?\K$ID(?=\s*\(\)\s*\{\s*ip\s+netns\s+exec\b)" "$f" | paste -sd'|')
				vars=$(tainted "$f" | paste -sd'|')
				skip_re='\s*#|.*\bip\s+netns\s+exec\b'
				[ -n "$wrappers" ] && skip_re="$skip_re|\\s*(?:$wrappers)\\b"
				local w="(?:>>?|\\btee\\b[^|;]*\\s)\\s*[\"']?$PROC_SYS"
				[ -n "$vars" ] && w="$w|(?:>>?|\\btee\\b[^|;]*\\s)\\s*[\"']?\\\$\\{?(?:$vars)\\b"
				w="$w|\\bsysctl\\b[^#|;]*\\s(?:-[A-Za-z]*[wp]\\b|[A-Za-z0-9_.\\/-]+=)"
				grep -nP "$w" "$f" | grep -vP "^[0-9]+:(?:$skip_re)" |
					sed "s|^\([0-9]*\):.*|$f:\1: writes a host setting (/proc, /sys or sysctl) outside a namespace|"
			else
				case $f in
				*.py) hits=$(grep -nP "\bopen\(\s*(['\"])$PROC_SYS[^'\"]*\1\s*,\s*['\"](?:[wax]|r\+)" "$f") ;;
				*.c | *.h) hits=$(grep -nP "\bfopen\(\s*\"$PROC_SYS[^\"]*\"\s*,\s*\"(?:[wa]|r\+)|\bopen\(\s*\"$PROC_SYS[^\"]*\"\s*,[^)]*O_(?:WRONLY|RDWR)" "$f") ;;
				*) hits= ;;
				esac
				[ -n "$hits" ] && echo "$hits" |
					sed "s|^\([0-9]*\):.*|$f:\1: writes a host setting (/proc or /sys)|"
			fi
		done < <(tr '\n' '\0' <"$list" | xargs -0 grep -lIP "$PROC_SYS|\\bsysctl\\b" 2>/dev/null)
	)
}

# --- the tree ------------------------------------------------------------------------------
cd "$root" || exit 1
if ! git ls-files >/dev/null 2>&1; then
	skip host_settings "not a git checkout: no file list"
	finish
fi
git ls-files bench tests | grep -vxF "$self" >"$WS_TMP/files"
found=$(scan "$root" "$WS_TMP/files")
if [ -z "$found" ]; then
	pass "host_settings_untouched ($(wc -l <"$WS_TMP/files") files under bench/ and tests/)"
else
	fail host_settings_untouched "$(echo "$found" | wc -l) write(s) to the host's settings:
$found"
fi

# --- the check itself -----------------------------------------------------------------------
p=$WS_TMP/planted
mkdir -p "$p"
cat >"$p/bad.sh" <<'EOF'
echo 1 > /proc/sys/net/ipv4/ip_forward
sysctl -w net.core.rmem_max=67108864
echo 4 | tee -a /sys/kernel/mm/foo
root=${ROOT:-/sys/kernel/mm/damon/admin/kdamonds}
for f in "$root"/[0-9]*/state; do
	echo off 2>/dev/null >"$f"
done
sysctl net.core.wmem_max=4
EOF
cat >"$p/good.sh" <<'EOF'
#!/bin/bash
# echo off > /sys/kernel/mm/damon/admin/kdamonds/0/state   (a comment)
nsx() { ip netns exec "$ns" "$@"; }
nsx sysctl -qw net.ipv4.ip_local_port_range="40000 40009"
ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
ip netns exec "$1" sh -c "echo f >/sys/class/net/$2/queues/rx-0/rps_cpus"
load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
sysctl -n net.core.rmem_max
for g in "$WS_TMP"/*; do echo x >"$g"; done
echo done >"$WS_TMP/out" 2>/dev/null >&2
EOF
printf "open('/proc/sys/vm/drop_caches', 'w').write('3')\nopen('/proc/net/udp').read()\n" >"$p/bad.py"
printf 'FILE *f = fopen("/proc/sys/x", "w");\nFILE *g = fopen("/proc/stat", "r");\nint h = open("/sys/y", O_RDWR);\n' >"$p/bad.c"
printf '%s\n' bad.sh good.sh bad.py bad.c >"$WS_TMP/planted.list"
got=$(scan "$p" "$WS_TMP/planted.list" | cut -d: -f1,2 | paste -sd' ')
expect="bad.sh:1 bad.sh:2 bad.sh:3 bad.sh:6 bad.sh:8 bad.py:1 bad.c:1 bad.c:3"
if [ "$got" = "$expect" ]; then
	pass host_settings_finds_planted
else
	fail host_settings_finds_planted "expected '$expect', got '$got'"
fi
# The DAMON pause this check replaces, from the history when it is at hand.
if git cat-file -e 3c7e015:bench/lib.sh 2>/dev/null; then
	mkdir -p "$WS_TMP/old/bench"
	git show 3c7e015:bench/lib.sh >"$WS_TMP/old/bench/lib.sh"
	echo bench/lib.sh >"$WS_TMP/old.list"
	got=$(scan "$WS_TMP/old" "$WS_TMP/old.list" | cut -d: -f2 | paste -sd' ')
	if [ -n "$got" ]; then
		pass "host_settings_finds_damon_pause (bench/lib.sh at 3c7e015, lines $got)"
	else
		fail host_settings_finds_damon_pause "bench/lib.sh at 3c7e015 pauses DAMON and was not refused"
	fi
else
	skip host_settings_finds_damon_pause "commit 3c7e015 is not in this clone's history"
fi
finish
