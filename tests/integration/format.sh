#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# format: every C file under src/, include/, bench/, octave/ and python/ is laid out as
# .clang-format says (clang-format --dry-run finds nothing to change). tests/ keeps its hand
# layout (see .clang-format). A copy of one file with a line joined past 100 columns must
# be found, so the check can fail. Skipped, with the reason, where clang-format is missing.
source "$(dirname "$0")/../lib.sh"
root=${WS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
if ! command -v clang-format >/dev/null; then
	skip format "clang-format is not installed (Debian package clang-format)"
	finish
fi
cd "$root" || exit 1
mapfile -t files < <(git ls-files 'src/*.[ch]' 'include/*.h' 'bench/*.[ch]' 'octave/*.[ch]' \
	'python/*.[ch]' 2>/dev/null)
if [ "${#files[@]}" -eq 0 ]; then
	skip format "not a git checkout: no file list"
	finish
fi
# One clang-format for all the files (one per file took a minute on a busy 2-CPU box); each
# finding is a "file:line:col: error:" line on stderr.
bad=$(clang-format --dry-run --Werror "${files[@]}" 2>&1 >/dev/null |
	sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error:.*/\1/p' | sort -u)
if [ -z "$bad" ]; then
	pass "format_clean (${#files[@]} files)"
else
	fail format_clean "not as .clang-format lays them out (make format): $(echo "$bad" | head -n 5 | tr '\n' ' ')"
fi
# The check itself: a long line planted in a copy must be reported.
cp .clang-format "$WS_TMP/" && printf 'int f(int a, int b) { return a + b + a + b + a + b + a + b + a + b + a + b + a + b + a + b + a + b + a; }\n' >"$WS_TMP/planted.c"
if (cd "$WS_TMP" && ! clang-format --dry-run --Werror planted.c >/dev/null 2>&1); then
	pass format_finds_planted
else
	fail format_finds_planted "a 120-column line was not reported"
fi
finish
