#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# layering: every #include "folder/x.h" in src/ points down the folders' layers, never up
# or sideways. The layers are written once, in the ```layers block of docs/architecture.md
# ("layer N: folder folder ..."), and read from there, so the document and this test cannot
# disagree. Every folder of src/ that holds a .c or .h file, nested ones included (iq/wire,
# iq/host, iq/node), must have a layer: a new folder fails here until its line is in the
# block. A folder may include its own headers and those of any folder on a lower layer.
# The checks themselves: a copy of the document without the block must be refused, and a
# copy of the tree with planted upward and sideways includes (host -> node among them) and
# a folder without a layer must give exactly those findings.
source "$(dirname "$0")/../lib.sh"
root=${WS_ROOT:?}
doc=$root/docs/architecture.md

# layers DOC: "folder rank" per folder of DOC's ```layers block; a malformed line or a
# folder named twice is a line "error: ...". Nothing at all when there is no block.
layers() {
	awk '/^```layers[[:space:]]*$/ {on = 1; next}
	     on && /^```/ {exit}
	     !on || NF == 0 {next}
	     $1 != "layer" || $2 !~ /^[0-9]+:$/ || NF < 3 {print "error: malformed line: " $0; next}
	     {n = $2 + 0; for (i = 3; i <= NF; i++) {
		     if ($i in seen) print "error: folder " $i " is on two layers"
		     seen[$i] = 1; print $i, n}}' "$1"
}

# load DOC: rank[] from DOC's block; prints what is wrong and fails when it cannot be used.
declare -A rank=()
load() {
	local lines
	rank=()
	lines=$(layers "$1")
	if [ -z "$lines" ]; then
		echo "no \`\`\`layers block in $1"
		return 1
	fi
	if grep -q '^error: ' <<<"$lines"; then
		grep '^error: ' <<<"$lines"
		return 1
	fi
	local f n
	while read -r f n; do rank[$f]=$n; done <<<"$lines"
}

# check SRC: one line "file: ..." per include against the layers and per file whose folder
# has none. The folder of a file is its directory below SRC; that of an include is the
# included path's directory ("iq/wire/wire.h" -> iq/wire).
check() {
	local f d t
	while read -r f; do
		d=$(dirname "${f#"$1"/}")
		[ -n "${rank[$d]:-}" ] || { echo "$f: folder '$d' has no layer in docs/architecture.md"; continue; }
		sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)\/[^/"]+".*/\1/p' "$f" |
			sort -u | while read -r t; do
				[ "$t" = "$d" ] && continue
				if [ -z "${rank[$t]:-}" ]; then
					echo "$f: includes folder '$t', which has no layer"
				elif [ "${rank[$t]}" -ge "${rank[$d]}" ]; then
					echo "$f: $d (layer ${rank[$d]}) includes $t (layer ${rank[$t]})"
				fi
			done
	done < <(find "$1" -type f -name '*.[ch]' | sort)
}

if ! load "$doc" >"$WS_TMP/load.out"; then
	fail layering_table "$(tr '\n' ';' <"$WS_TMP/load.out")"
	finish
fi
pass layering_table
n=$(find "$root/src" -type f -name '*.[ch]' -printf '%h\n' | sort -u | wc -l)
out=$(check "$root/src")
[ -z "$out" ] && pass layering_src ||
	fail layering_src "$(echo "$out" | head -n 5 | tr '\n' ';') (of $n folders)"

# The checks themselves. A document without the block, or with a bad line, is refused.
sed '/^```layers/,/^```$/d' "$doc" >"$WS_TMP/no-block.md"
printf '```layers\nlayer 0: util\nlayer one: net\n```\n' >"$WS_TMP/bad-line.md"
printf '```layers\nlayer 0: util\nlayer 1: net util\n```\n' >"$WS_TMP/twice.md"
refused=0
for d in no-block bad-line twice; do (load "$WS_TMP/$d.md" >/dev/null) || refused=$((refused + 1)); done
[ "$refused" -eq 3 ] && pass layering_table_refused ||
	fail layering_table_refused "refused $refused of 3 broken tables"

# A tree with upward and sideways includes, a folder without a layer, and allowed includes
# (down, own folder, model/ which may not exist yet) gives exactly the planted findings.
t=$WS_TMP/src
plant() { mkdir -p "$(dirname "$t/$1")" && printf '#include "%s"\n' "$2" >"$t/$1"; }
plant util/up.c session/client.h
plant report/side.c workload/run.h
plant iq/host/side.c iq/node/node.h
plant iq/node/side.c iq/host/hostio.h
plant iq/wire/up.c iq/host/hostio.h
plant iq/stray.c iq/wire/wire.h
plant cli/unknown.c nowhere/x.h
plant iq/host/down.c iq/wire/wire.h
plant iq/node/own.c iq/node/node.h
plant net/model.c model/spec.h
plant model/down.c util/err.h
plant ctl/down.c util/err.h
want="cli/unknown.c iq/host/side.c iq/node/side.c iq/stray.c iq/wire/up.c report/side.c util/up.c"
got=$(check "$t" | sed -E "s|^$t/||; s|:.*||" | sort | tr '\n' ' ')
[ "$got" = "$want " ] && pass layering_finds_planted ||
	fail layering_finds_planted "want findings in $want, got: $(check "$t" | tr '\n' ';')"
finish
