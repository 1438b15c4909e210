#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# spdx: tests/tools/spdx.sh puts the SPDX line where it belongs, once, and its --check
# finds a file without it. Run on a planted git tree: a C file, a header, a shell script
# with a shebang, a sourced shell library without one, a Python script with a coding line,
# an extensionless script, an Octave .m file and a data file. Then the tree itself: once
# any source carries the line (the licence was applied), every one must; before that the
# tree is skipped with the reason.
source "$(dirname "$0")/../lib.sh"
root=${WS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
tool=$root/tests/tools/spdx.sh

expect() { # name, expected, got
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected '$2', got '$3'"; fi
}
if ! command -v git >/dev/null; then
	skip spdx "git is not installed"
	finish
fi

p=$WS_TMP/tree
mkdir -p "$p/src" "$p/tests"
printf '/* a: why. */\nint a;\n' >"$p/src/a.c"
printf '/* a: why. */\n#ifndef A_H\n#endif\n' >"$p/src/a.h"
printf '#!/usr/bin/env bash\n# t: why.\necho t\n' >"$p/tests/t.sh"
printf '# lib: sourced.\nx=1\n' >"$p/tests/lib.sh"
printf '#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n"""m: why."""\n' >"$p/tests/m.py"
printf '#!/bin/sh\necho run\n' >"$p/tests/run"
printf '%% wl: help text\nfunction wl\n' >"$p/tests/wl.m"
printf 'data\n' >"$p/tests/data.txt"
chmod +x "$p/tests/t.sh" "$p/tests/run"
git -C "$p" init -q && git -C "$p" add -A

"$tool" --check "$p" >"$WS_TMP/check1" 2>&1
expect check_finds_missing "1 6" "$? $(grep -c 'no SPDX' "$WS_TMP/check1")"
"$tool" "$p" >/dev/null 2>&1
expect add_status 0 "$?"
expect c_first_line "/* SPDX-License-Identifier: BSD-2-Clause */|/* a: why. */" \
	"$(head -n 2 "$p/src/a.c" | paste -sd'|')"
expect h_first_line "/* SPDX-License-Identifier: BSD-2-Clause */" "$(head -n 1 "$p/src/a.h")"
expect sh_after_shebang "#!/usr/bin/env bash|# SPDX-License-Identifier: BSD-2-Clause|# t: why." \
	"$(head -n 3 "$p/tests/t.sh" | paste -sd'|')"
expect lib_first_line "# SPDX-License-Identifier: BSD-2-Clause|# lib: sourced." \
	"$(head -n 2 "$p/tests/lib.sh" | paste -sd'|')"
expect py_after_coding "# -*- coding: utf-8 -*-|# SPDX-License-Identifier: BSD-2-Clause" \
	"$(sed -n '2,3p' "$p/tests/m.py" | paste -sd'|')"
expect shebang_script "#!/bin/sh|# SPDX-License-Identifier: BSD-2-Clause|echo run" \
	"$(paste -sd'|' "$p/tests/run")"
expect m_untouched "% wl: help text" "$(head -n 1 "$p/tests/wl.m")"
expect data_untouched "data" "$(cat "$p/tests/data.txt")"
expect mode_kept "yes" "$([ -x "$p/tests/t.sh" ] && [ -x "$p/tests/run" ] && echo yes)"
sum1=$(cat "$p"/src/* "$p"/tests/* | cksum)
"$tool" "$p" >/dev/null 2>&1
expect idempotent "$sum1" "$(cat "$p"/src/* "$p"/tests/* | cksum)"
"$tool" --check "$p" >/dev/null 2>&1
expect check_clean 0 "$?"
"$tool" --bogus "$p" >/dev/null 2>&1
expect usage_error 2 "$?"

# The tree: all or (until the lead applies the licence) none.
cd "$root" || exit 1
if ! git ls-files >/dev/null 2>&1; then
	skip spdx_tree "not a git checkout: no file list"
elif ! git grep -qI 'SPDX-License-Identifier: BSD-2-Clause' -- '*.c' '*.h' 2>/dev/null; then
	skip spdx_tree "no source carries the SPDX line yet (tests/tools/spdx.sh adds it)"
elif out=$("$tool" --check "$root" 2>&1); then
	pass spdx_tree
else
	fail spdx_tree "$(echo "$out" | head -n 5 | tr '\n' ' ')"
fi
finish
