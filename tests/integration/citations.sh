#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# citations: every path the repository cites resolves inside it, and no file names a place
# on a build machine. A clone must be able to follow every citation.
#
# Scanned: every tracked text file (git ls-files), except this script.
#
# Rule 1, no absolute path of a build machine. Refused: /work/..., /home/..., /root/...,
# /Users/..., and a path under a /tmp/ws-* (or /tmp/ws_*) directory that is not a mktemp
# template (a template has at least three X: mktemp -d /tmp/ws-it.XXXXXX is fine). An
# absolute path counts only where it starts a path (not src/work/ or a/home/b). System
# paths code and tests legitimately use (/proc/..., /sys/..., /dev/null, /usr/bin, /etc,
# /tmp/out) are not refused.
#
# Rule 2, no citation that does not resolve. A repo-relative path that starts a word and
# begins with one of these folders must exist in the tree (git ls-files):
#   docs/...     ending .md, or a folder ending /     reference/... ending .md
#   src/...      ending .c or .h, or a folder ending /
#   tests/... and bench/...  any file or folder
# Accepted as well: a program built from a tracked .c of the same name (bench/iq_proxy,
# tests/tools/ws_json_sample), a path git ignores (bench/results/, where benchmarks write),
# a glob that matches a tracked file (tests/goldens/npwire/tcp_sendfile*.hex). Templates
# are not paths: a token with <, >, $, %, { or // is skipped (tests/integration/<name>.sh,
# src/%.c, ${tests//,/ }). Trailing . , : ; are punctuation, not part of the path.
#
# Pending: paths that a parallel branch of the same issue creates are listed in PENDING
# below; a citation under one of them that does not resolve yet is reported in one SKIP
# line, not a failure. Empty the list once those branches are merged.
#
# A failure names file:line, the path, and, when a tracked file of the same name exists
# elsewhere (a file that moved), where it is now. The check itself is checked: a planted
# tree with one violation of each kind must give exactly those violations and nothing for
# the legitimate paths beside them.
source "$(dirname "$0")/../lib.sh"
root=${WS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
self=tests/integration/citations.sh

# Issue 28 creates src/model/ on another branch.
PENDING=()

if ! echo x | grep -qP 'x' 2>/dev/null; then
	skip citations "grep has no -P (GNU grep is needed for the path patterns)"
	finish
fi

ABS_RE='(?<![A-Za-z0-9_.~$/-])/(?:work|home|root|Users)/[^\s"'"'"'`)<>]*|(?<![A-Za-z0-9_.~$/-])/tmp/ws[-_.][A-Za-z0-9_./-]*'
CITE_RE='(?<![A-Za-z0-9_.~$/-])(?:docs|reference|src|tests|bench)/[A-Za-z0-9_][A-Za-z0-9_./*<>$%{},+-]*'

# scan DIR LISTFILE: prints "F:L: problem" lines for the files listed (paths relative to
# DIR), resolving citations against the same list. Pending citations go to $pending_out.
scan() {
	local dir=$1 list=$2 f line tok t rest base hint
	declare -A have=() dirs=() names=()
	while IFS= read -r f; do
		have[$f]=1
		rest=$f
		while [[ $rest == */* ]]; do rest=${rest%/*}; dirs[$rest/]=1; done
		base=${f##*/}
		names[$base]+="${names[$base]:+ }$f"
	done <"$list"
	(
		cd "$dir" || exit 1
		# Rule 1.
		tr '\n' '\0' <"$list" | xargs -0 grep -IHnoP "$ABS_RE" 2>/dev/null |
			while IFS= read -r line; do
				tok=${line#*:*:}
				t=$tok
				while [[ $t == *[.,:\;] ]]; do t=${t%?}; done
				[[ $t =~ XXX ]] && continue # a mktemp template
				echo "${line%:"$tok"}: absolute path of a build machine: $t"
			done
		# Rule 2.
		tr '\n' '\0' <"$list" | xargs -0 grep -IHnoP "$CITE_RE" 2>/dev/null |
			while IFS= read -r line; do
				tok=${line#*:*:}
				t=$tok
				while [[ $t == *[.,:\;] ]]; do t=${t%?}; done
				case $t in *'<'* | *'>'* | *'$'* | *'%'* | *'{'* | *'}'* | *//*) continue ;; esac
				case $t in
				docs/*/ | src/*/) ;;
				docs/*.md | reference/*.md | src/*.c | src/*.h | tests/* | bench/*) ;;
				*) continue ;;
				esac
				[ -n "${have[$t]:-}" ] && continue
				[ -n "${dirs[$t]:-}" ] || [ -n "${dirs[$t/]:-}" ] && continue
				[ -n "${have[$t.c]:-}" ] && continue # a program built from it
				if [[ $t == *'*'* ]]; then
					compgen -G "$t" >/dev/null && continue
				fi
				# Ignored output (a folder pattern matches only with its slash).
				git check-ignore -q "$t" 2>/dev/null && continue
				git check-ignore -q "${t%/}/" 2>/dev/null && continue
				local p pend=
				for p in "${PENDING[@]}"; do [[ $t == "$p"* ]] && pend=1; done
				if [ -n "$pend" ]; then
					echo "${line%:"$tok"}: $t" >>"$pending_out"
					continue
				fi
				base=${t%/}
				base=${base##*/}
				hint=${names[$base]:-}
				echo "${line%:"$tok"}: cites $t, which is not in the tree${hint:+ (a file of that name is at: $hint)}"
			done
	)
}

# --- the tree ------------------------------------------------------------------------------
cd "$root" || exit 1
if ! git ls-files >/dev/null 2>&1; then
	skip citations "not a git checkout: no file list"
	finish
fi
git ls-files | grep -vxF "$self" >"$WS_TMP/files"
pending_out=$WS_TMP/pending
: >"$pending_out"
found=$(scan "$root" "$WS_TMP/files")
n=$(wc -l <"$WS_TMP/files")
if [ -z "$found" ]; then
	pass "citations_resolve ($n files)"
else
	fail citations_resolve "$(echo "$found" | wc -l) problem(s):
$found"
fi
if [ -s "$pending_out" ]; then
	skip citations_pending "$(wc -l <"$pending_out") citation(s) under paths another branch creates (PENDING in $self): $(sort -u "$pending_out" | tr '\n' ';' | sed 's/;$//')"
fi

# --- the check itself: a planted tree -------------------------------------------------------
p=$WS_TMP/planted
mkdir -p "$p/docs" "$p/src/a" "$p/tests" "$p/bench"
cat >"$p/src/a/good.c" <<'EOF'
/* good: cites docs/real.md, src/a/good.h, tests/t.sh and bench/ (a folder), built bench/prog.
 * Legitimate paths: /proc/net/dev, /sys/class/net, /dev/null, /usr/bin/env, /etc/hosts,
 * /tmp/out, mktemp -d /tmp/ws-it.XXXXXX, cd a/work/b and a/home/b (relative),
 * tests/integration/<name>.sh, src/%.c, ${tests//,/ }, the src/dest field. */
EOF
printf 'x\n' >"$p/src/a/good.h"
printf '# docs/real.md cites src/a/good.c.\n' >"$p/docs/real.md"
printf '#!/bin/sh\n# tests/t.sh: fine\n' >"$p/tests/t.sh"
printf 'int main(void) { return 0; }\n' >"$p/bench/prog.c"
cat >"$p/docs/bad.md" <<'EOF'
The facts are in /work/shared/notes.md and reference/netperf-wire.md.
See docs/missing.md, src/a/gone.c and tests/nowhere.sh.
A user's file: /home/someone/key. A scratch tree: /tmp/ws-build.ab12/src/x.c.
Moved: src/old/good.h.
EOF
(cd "$p" && find . -type f | sed 's|^\./||' | sort) >"$WS_TMP/planted.list"
pending_out=$WS_TMP/planted.pending
: >"$pending_out"
got=$(scan "$p" "$WS_TMP/planted.list" | sort)
want=$(
	sort <<'EOF'
docs/bad.md:1: absolute path of a build machine: /work/shared/notes.md
docs/bad.md:1: cites reference/netperf-wire.md, which is not in the tree
docs/bad.md:2: cites docs/missing.md, which is not in the tree
docs/bad.md:2: cites src/a/gone.c, which is not in the tree
docs/bad.md:2: cites tests/nowhere.sh, which is not in the tree
docs/bad.md:3: absolute path of a build machine: /home/someone/key
docs/bad.md:3: absolute path of a build machine: /tmp/ws-build.ab12/src/x.c
docs/bad.md:4: cites src/old/good.h, which is not in the tree (a file of that name is at: src/a/good.h)
EOF
)
if [ "$got" = "$want" ]; then
	pass citations_finds_planted
else
	fail citations_finds_planted "expected:
$want
got:
$got"
fi
finish
