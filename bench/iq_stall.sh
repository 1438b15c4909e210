#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# iq_stall.sh: issue 33's long form of the stall test (tests/integration/testbed_iq_stall.sh
# is the short one). On the gige-jumbo bed, `iq bench` of 2^24 samples (TRIALS writes, then
# TRIALS reads, each checked by the bench: reads bit-exact against each other, writes by the
# node's checksum) runs in three modes, in turn within each round and in a rotating order:
#   quiet  undisturbed
#   host   the `iq bench` process stopped (SIGSTOP) for 10 ms every 200 ms while it runs
#   node   `warpspeed node` stopped the same way
# Per mode and direction it prints the median over the rounds of the time of all trials,
# the stalled/quiet ratio of those medians (the goal: at most 1.03), the median of the
# per-round ratios, the ratio of the fastest runs (a loaded host only adds time), the
# stops made and what they lasted, and the re-requests (reads) and resends (writes) summed
# over the rounds, next to the packets the node's egress qdisc dropped (tc -s, read only):
# an undisturbed read's re-requests are the window probing that 20 ms queue's edge (docs/iq.md,
# "Re-requests of undisturbed reads"), one dropped GSO send each. The host is shared: the
# heading says what may disturb it (ws_host_label) and a round's own noise shows in the
# spread of the per-round ratios.
# Usage: bench/iq_stall.sh [build-dir] [rounds] [trials]   (root; defaults build, 3, 6)
#   WS_STALL_BED=ws-NAME names the bed (default ws-iqstall<pid>).
# Exits 1 when a bench run fails (a read that differs, a write the node's checksum refutes),
# 0 otherwise: the ratios are reported, not judged, as this host's noise is several percent.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${1:-build}
rounds=${2:-3}
trials=${3:-6}
samples=16777216
ws=$root/$build/warpspeed
tb=$here/testbed
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || ws_usage_die "rounds must be a positive integer; got '$rounds'"
{ [[ $trials =~ ^[0-9]+$ ]] && [ "$trials" -gt 5 ]; } ||
	ws_usage_die "trials must be an integer above 5 (the bench drops the first 5); got '$trials'"
[ -x "$ws" ] || ws_die "$ws is not built (make)"
if why=$(ws_testbed_missing); then
	echo "iq_stall.sh: the test bed cannot run here: $why" >&2
	exit 4
fi
out=$(mktemp -d /tmp/ws-iqstall.XXXXXX)
name=${WS_STALL_BED:-ws-iqstall$$} # the bed, taken down by this name on exit
node=
cleanup() {
	[ -n "$node" ] && kill "$node" 2>/dev/null
	"$tb" down "$name" >/dev/null 2>&1
	rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

env=$("$tb" up gige-jumbo --name "$name" 2>&1) || ws_die "bench/testbed up gige-jumbo failed: $env"
eval "$env"
export WS_TESTBED_NAME
# bench/testbed and ip netns exec both exec: $! is the node itself.
"$tb" exec B "$ws" node --bind "$WS_B" --reply-rate off --quiet >"$out/node.log" 2>&1 &
node=$!
for _ in $(seq 1 50); do
	"$tb" exec A "$ws" iq ping "$WS_B" --count 1 >/dev/null 2>&1 && break
	sleep 0.1
done
[ "$(cat "/proc/$node/comm" 2>/dev/null)" = warpspeed ] || ws_die "the node did not start: $(cat "$out/node.log")"
ws_host_noise iq_stall.sh

# drops: what the node's egress tbf (B towards A: the reads' queue) dropped so far.
drops() {
	"$tb" exec B tc -s qdisc show | awk '/dropped/ { s = $0; sub(/.*dropped /, "", s)
		sub(/,.*/, "", s); n += s } END { print n + 0 }'
}

# run FILE MODE: one bench run into FILE.json, FILE.txt; the stops made and the ms they
# lasted in FILE.stops; the node's qdisc drops over the run in FILE.drops.
run() {
	local d0
	d0=$(drops)
	"$tb" exec A "$ws" iq bench "$WS_B" --trials "$trials" --samples "$samples" \
		--json-file "$1.json" >"$1.txt" 2>&1 &
	local pid=$! victim=''
	case $2 in host) victim=$pid ;; node) victim=$node ;; esac
	if [ -n "$victim" ]; then
		ws_iq_stopper "$pid" "$victim" 0 "$1.stops"
	else
		echo "0 0" >"$1.stops"
	fi
	wait "$pid"
	local rc=$?
	echo $(($(drops) - d0)) >"$1.drops"
	return $rc
}

# figures FILE: "write_ms read_ms resends rerequests disturbed_trials" over every trial.
figures() {
	python3 - "$1" <<'PY'
import json, sys
pt = json.load(open(sys.argv[1]))["rows"][0]["per_trial"]
print("%.3f %.3f %d %d %d" % (sum(t["ms"] for t in pt["write"]), sum(t["ms"] for t in pt["read"]),
      sum(t["resends"] for t in pt["write"]), sum(t["rerequests"] for t in pt["read"]),
      sum(t["disturbed"] for t in pt["write"] + pt["read"])))
PY
}

modes=(quiet host node)
rc=0
for ((r = 1; r <= rounds; r++)); do
	for ((i = 0; i < 3; i++)); do
		m=${modes[$(((r - 1 + i) % 3))]}
		f=$out/$m.$r
		if ! run "$f" "$m"; then
			echo "iq_stall.sh: round $r, $m: iq bench failed: $(tail -c 400 "$f.txt")" >&2
			rc=1
			continue
		fi
		echo "$r $m $(figures "$f.json") $(cat "$f.stops") $(cat "$f.drops")" >>"$out/rows"
	done
done
[ -s "$out/rows" ] || exit 1

echo "== iq_stall.sh: gige-jumbo, 2^24 samples, $trials writes + $trials reads per run, $rounds rounds" \
	"(modes in rotating order; stopper $(ws_iq_stopper_how)) [$(ws_host_label)]"
echo "# round mode write_ms read_ms resends rerequests disturbed_trials stops stopped_ms drops"
sed 's/^/# /' "$out/rows"
awk -v rounds="$rounds" '
	function median(a, n,   i, j, t) {
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	{ w[$2, $1] = $3; rd[$2, $1] = $4; rs[$2] += $5; rr[$2] += $6; st[$2] += $8; sm[$2] += $9; dr[$2] += $10
		tot[$2, $1] = $3 + $4; have[$2, $1] = 1 }
	END {
		split("quiet host node", M, " ")
		for (k = 1; k <= 3; k++) { m = M[k]; nw = 0
			for (r = 1; r <= rounds; r++) if (have[m, r]) { nw++; a[nw] = w[m, r]; b[nw] = rd[m, r] }
			mw[m] = nw ? median(a, nw) : 0; mr[m] = nw ? median(b, nw) : 0; n[m] = nw
			bw[m] = nw ? a[1] : 0; br[m] = nw ? b[1] : 0 } # median() left a, b sorted
		printf "%-6s | %6s | %11s %7s %7s %7s | %11s %7s %7s %7s | %7s %11s %5s %6s %5s\n", "mode",
			"rounds", "write ms", "ratio", "rd-med", "best", "read ms", "ratio", "rd-med", "best",
			"resends", "rerequests", "stops", "lost", "drops"
		for (k = 1; k <= 3; k++) { m = M[k]; np = 0
			nl = 0
			for (r = 1; r <= rounds; r++) if (have[m, r] && have["quiet", r]) { np++
				pw[np] = w[m, r] / w["quiet", r]; pr[np] = rd[m, r] / rd["quiet", r] }
			for (r = 1; r <= rounds; r++) if (have[m, r]) nl += tot[m, r]
			printf "%-6s | %6d | %11.1f %7.3f %7.3f %7.3f | %11.1f %7.3f %7.3f %7.3f | %7d %11d %5d %6.3f %5d\n",
				m, n[m], mw[m], mw["quiet"] ? mw[m] / mw["quiet"] : 0, np ? median(pw, np) : 0,
				bw["quiet"] ? bw[m] / bw["quiet"] : 0, mr[m], mr["quiet"] ? mr[m] / mr["quiet"] : 0,
				np ? median(pr, np) : 0, br["quiet"] ? br[m] / br["quiet"] : 0,
				rs[m], rr[m], st[m], nl ? 1 + sm[m] / nl : 1, dr[m] }
		print "# ratio: the mode'"'"'s median time over the quiet median; rd-med: the median of the" \
			" per-round ratios (goal: at most 1.03, bit-exact, re-requests counted); best: the fastest" \
			" run over the fastest quiet one (noise only adds time); lost: the ratio" \
			" if the link stood still for every stop (1 + stopped time / the mode'"'"'s time); drops: what" \
			" the node'"'"'s egress qdisc dropped" }' "$out/rows"
exit "$rc"
