#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# spdx.sh: puts the licence's SPDX identifier (LICENSE: BSD-2-Clause) at the top of every
# tracked source file, or checks that it is there.
#
#   tests/tools/spdx.sh [--check] [DIR]      (DIR: a git checkout, default this one)
#
# Files: every tracked .c and .h gets `/* SPDX-License-Identifier: BSD-2-Clause */` as its
# first line; every tracked .sh and .py file, and every other tracked file that starts with
# `#!`, gets `# SPDX-License-Identifier: BSD-2-Clause` after its shebang (and after a Python
# coding line, which must stay within the first two lines), or as its first line when it has
# no shebang (a sourced library, a module). Other files (Octave .m, whose first comment is
# its help text, Makefile, data, docs) are left alone.
#
# Idempotent: a file that already names an SPDX-License-Identifier in its first three lines
# is not touched, so a second run changes nothing. A file is rewritten in place (same inode,
# so its mode and executable bit stay). --check changes nothing: it lists the files without
# the line and exits 1 if there is any, 0 otherwise. Exit status 2 on a usage error.
set -u
ID=BSD-2-Clause
check=0
dir=
for a in "$@"; do
	case $a in
	--check) check=1 ;;
	-h | --help)
		sed -n '3,18p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	-*)
		echo "spdx.sh: unknown option '$a'; --check and a directory are accepted" >&2
		exit 2
		;;
	*)
		[ -z "$dir" ] || {
			echo "spdx.sh: one directory at most, got '$dir' and '$a'" >&2
			exit 2
		}
		dir=$a
		;;
	esac
done
dir=${dir:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$dir" 2>/dev/null || {
	echo "spdx.sh: cannot enter '$dir'; a git checkout is expected" >&2
	exit 2
}
files=$(git ls-files 2>/dev/null) || {
	echo "spdx.sh: '$dir' is not a git checkout; its tracked files are what is licensed" >&2
	exit 2
}

# kind FILE: sets k to c, hash (a # comment) or nothing; bash builtins only, since it runs
# once per tracked file.
kind() {
	k=
	case $1 in
	*.c | *.h) k=c ;;
	*.sh | *.py) k=hash ;;
	*)
		local first=
		IFS= read -r -n 2 first <"$1" 2>/dev/null
		[ "$first" = '#!' ] && k=hash
		;;
	esac
	return 0
}

# The tracked files that already name an identifier in their first three lines: one awk
# over them all, not a process per file.
declare -A has=()
while IFS= read -r f; do
	has[$f]=1
done < <(git ls-files -z | xargs -0 awk 'FNR <= 3 && /SPDX-License-Identifier:/ { print FILENAME; nextfile } FNR > 3 { nextfile }' 2>/dev/null)
has_id() { [ -n "${has[$1]:-}" ]; }

# add FILE KIND: insert the line where it belongs, rewriting the file in place.
add() {
	local f=$1 k=$2 tmp after=0
	tmp=$(mktemp) || return 1
	if [ "$k" = c ]; then
		{ echo "/* SPDX-License-Identifier: $ID */"; cat "$f"; } >"$tmp"
	else
		[ "$(head -c 2 "$f")" = '#!' ] && after=1
		# A Python coding declaration must stay on line 1 or 2.
		if sed -n "$((after + 1))p" "$f" | grep -qE '^#.*coding[:=]'; then
			after=$((after + 1))
		fi
		{
			head -n "$after" "$f"
			echo "# SPDX-License-Identifier: $ID"
			tail -n +"$((after + 1))" "$f"
		} >"$tmp"
	fi
	cat "$tmp" >"$f" # same inode: mode and executable bit stay
	rm -f "$tmp"
}

missing=0 added=0
while IFS= read -r f; do
	[ -f "$f" ] || continue
	kind "$f"
	[ -n "$k" ] || continue
	has_id "$f" && continue
	if [ "$check" = 1 ]; then
		echo "$f: no SPDX-License-Identifier line"
		missing=$((missing + 1))
	else
		add "$f" "$k" || exit 1
		added=$((added + 1))
	fi
done <<<"$files"

if [ "$check" = 1 ]; then
	[ "$missing" -eq 0 ] || {
		echo "spdx.sh: $missing file(s) without the line (run tests/tools/spdx.sh to add it)" >&2
		exit 1
	}
	exit 0
fi
echo "spdx.sh: added the SPDX line to $added file(s)"
