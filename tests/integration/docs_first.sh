#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Issue 29, items 6 and 8: a README that starts small (at most 150 lines, the two set-up
# commands, an index from which every topic of the old README is reachable), `make test
# NETNS=0` skipping the namespace tests, and the IQ figure saying where it was measured
# (the chart's title, and docs/charts.md agreeing with the committed figure).
source "$(dirname "$0")/../lib.sh"
T=$WS_TMP
R=$WS_ROOT/README.md

n=$(wc -l <"$R")
[ "$n" -le 150 ] && pass readme_short || fail readme_short "README.md has $n lines (at most 150)"
if grep -qx 'make run    # build, then a loopback benchmark against a daemon it starts itself' "$R" &&
	grep -qx 'make test   # build, then unit and integration tests; ends with "N passed, N failed"' "$R" &&
	grep -q 'make test NETNS=0' "$R" && grep -q 'Run as root, it also builds network namespaces' "$R"; then
	pass readme_setup
else
	fail readme_setup "the two set-up commands, or NETNS=0 beside them, are missing"
fi
# Every section of the long tour (the old README's topics) is linked from the index, and
# every docs/ link of the README names a file that exists (architecture.md may come later,
# from another branch).
missing=
while IFS= read -r h; do
	a=$(printf '%s' "$h" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9 -]//g; s/ /-/g')
	grep -qF "docs/usage.md#$a)" "$R" || missing="$missing #$a"
done < <(sed -n 's/^## //p' "$WS_ROOT/docs/usage.md")
[ -z "$missing" ] && pass readme_index_reaches_topics || fail readme_index_reaches_topics "not linked:$missing"
broken=
for f in $(grep -oE '\]\((docs|bench)/[^)#]*' "$R" | sed 's/^](//' | sort -u); do
	[ -e "$WS_ROOT/$f" ] || [ "$f" = docs/architecture.md ] || broken="$broken $f"
done
[ -z "$broken" ] && pass readme_links || fail readme_links "missing:$broken"

# NETNS=0: a namespace test says why it skips, at once.
out=$(WS_NETNS=0 timeout 20 bash "$WS_ROOT/tests/integration/udp_peer.sh" 2>&1)
if grep -q '^SKIP udp_peer.*namespace tests off (make test NETNS=0)' <<<"$out" &&
	! grep -q '^FAIL' <<<"$out" && grep -q 'WS_NETNS=$(NETNS)' "$WS_ROOT/Makefile"; then
	pass netns_off_skips
else
	fail netns_off_skips "$out"
fi

# The committed IQ figure and docs/charts.md say the same place: the gige-jumbo test bed.
if grep -q '<title id="title">IQ transfer speed, gige-jumbo test bed' "$WS_ROOT/docs/img/iq-bench.svg" &&
	grep -q 'was measured on the `gige-jumbo` test bed' "$WS_ROOT/docs/charts.md" &&
	! grep -q 'iq-bench.svg` was made on loopback' "$WS_ROOT/docs/charts.md"; then
	pass iq_figure_docs_agree
else
	fail iq_figure_docs_agree "docs/charts.md and docs/img/iq-bench.svg disagree on where it was measured"
fi

# The chart's title names where it was measured: a named node (and --link's rate).
"$WS_BIN" node --bind 127.0.0.1 --port 0 --bcast-port 0 >"$T/node.out" 2>"$T/node.err" &
WS_PIDS+=($!)
for _ in $(seq 1 100); do grep -q 'listening on' "$T/node.err" 2>/dev/null && break; sleep 0.05; done
port=$(sed -n 's/.*listening on [0-9.]*:\([0-9]*\),.*/\1/p' "$T/node.err")
if [ -n "$port" ] &&
	"$WS_BIN" iq bench "127.0.0.1:$port" --trials 6 --samples 1024,2048 --svg "$T/n.svg" --link 1000 >/dev/null 2>&1 &&
	grep -q "<title id=\"title\">IQ transfer speed, node 127.0.0.1:$port, link 1000 Mb/s</title>" "$T/n.svg" &&
	"$WS_BIN" iq bench --trials 6 --samples 1024 --svg "$T/b.svg" >/dev/null 2>&1 &&
	grep -q '<title id="title">IQ transfer speed, built-in node on loopback</title>' "$T/b.svg"; then
	pass iq_figure_title_place
else
	fail iq_figure_title_place "$(grep -o '<title id="title">[^<]*' "$T/n.svg" "$T/b.svg" 2>&1)"
fi
finish
