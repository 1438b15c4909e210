#!/usr/bin/env bash
# layering: every #include "folder/x.h" in src/ points down the folders' layers, never up
# or sideways; docs/architecture.md draws the same layers. A folder may include its own
# headers and those of any folder on a lower layer. Today's layers, lowest first:
#   0 util | 1 model | 2 net | 3 ctl | 4 measure | 5 report, workload, iq | 6 session |
#   7 mesh | 8 cli
# model/ (the test spec, the results, the test-type table) sits under everything but util/,
# so measure/ and report/ depend on the data model and never on ctl/, the wire. A new
# folder fails here until its layer is written in this table. A planted upward include in
# a copy of the tree must be found, so the check can fail.
source "$(dirname "$0")/../lib.sh"
root=${WS_ROOT:?}
declare -A rank=([util]=0 [model]=1 [net]=2 [ctl]=3 [measure]=4 [report]=5 [workload]=5 [iq]=5
	[session]=6 [mesh]=7 [cli]=8)

# check SRC: one line "file: folder -> folder (ranks)" per include against the layers.
check() {
	local f d t
	for f in "$1"/*/*.[ch]; do
		d=$(basename "$(dirname "$f")")
		[ -n "${rank[$d]:-}" ] || { echo "$f: folder '$d' has no layer in layering.sh"; continue; }
		grep -oE '^#include "[a-z_]+/' "$f" | sed -E 's/^#include "//; s/\/$//' | sort -u |
			while read -r t; do
				[ "$t" = "$d" ] && continue
				if [ -z "${rank[$t]:-}" ]; then
					echo "$f: includes folder '$t', which has no layer"
				elif [ "${rank[$t]}" -ge "${rank[$d]}" ]; then
					echo "$f: $d (layer ${rank[$d]}) includes $t (layer ${rank[$t]})"
				fi
			done
	done
}

out=$(check "$root/src")
[ -z "$out" ] && pass layering_src || fail layering_src "$(echo "$out" | head -n 5 | tr '\n' ';')"

# The check itself: a copy with one upward and one sideways include must fail twice.
mkdir -p "$WS_TMP/src/util" "$WS_TMP/src/report" "$WS_TMP/src/iq"
printf '#include "session/client.h"\n' >"$WS_TMP/src/util/up.c"
printf '#include "workload/run.h"\n' >"$WS_TMP/src/report/side.c"
printf '#include "util/err.h"\n' >"$WS_TMP/src/iq/down.c"
planted=$(check "$WS_TMP/src" | wc -l)
[ "$planted" -eq 2 ] && pass layering_finds_planted ||
	fail layering_finds_planted "found $planted of 2 planted includes: $(check "$WS_TMP/src")"
finish
