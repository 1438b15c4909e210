#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# iq_goals.sh: issue 33's line-rate goals as separate runs, because a goal that must hold
# "in each of 5 runs" needs 5 runs, each its own `iq bench` with its own figures and its own
# disturbance labels, rather than one long run's figure. One bed per case, named by the
# caller, nothing on the host paused or tuned. Per run it prints the load average before
# it, write and read Mb/s (10g: the median trial; star4: the aggregate's mean, as
# bench/iq_fast_bench.sh takes it), the goal's verdict, how many trials the bench labelled
# disturbed (all and the kept ones; a transferring thread off the CPU for more than 1 ms),
# the longest time off the CPU, the host thread's CPU per sample and direction, the node
# processes' and the machine's busy share of the run's wall time (/proc), re-requests and
# resends, and the packets the bed's qdiscs dropped (tc -s; read only):
#   10g    10gige-jumbo, node with --reply-rate off, `iq bench B --trials T --samples S`;
#          goal min(read, write) >= 95 % of 9915.6 Mb/s
#   star4  the star4 bed, `iq bench` to all four nodes at once, writes paced to 1000 Mb/s
#          per node; goal aggregate min(read, write) >= 3900 Mb/s
# Usage: bench/iq_goals.sh 10g|star4 [build-dir] [runs] [bed-name] [trials] [samples]
#   (defaults build, 5, ws-goals<pid>, 8, 4194304). Each run's JSON is kept in
#   $WS_GOALS_OUT when set (run-N.json). Needs root; exits 1 when a run misses the goal.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
what=${1:-}
build=${2:-build}
runs=${3:-5}
name=${4:-ws-goals$$}
trials=${5:-8}
samples=${6:-4194304}
ws=$root/$build/warpspeed
tb=$here/testbed
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
case $what in 10g | star4) ;; *)
	echo "usage: bench/iq_goals.sh 10g|star4 [build-dir] [runs] [bed-name] [trials] [samples]" >&2
	exit 2
	;;
esac
[ -x "$ws" ] || { echo "iq_goals.sh: $ws missing (make)" >&2; exit 2; }
keep=${WS_GOALS_OUT:-}
out=$(mktemp -d /tmp/ws-iqgoals.XXXXXX)
pids=() up=0
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	[ $up = 1 ] && "$tb" down "$name" >/dev/null 2>&1
	rm -rf "$out"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
load() { cut -d' ' -f1-3 /proc/loadavg; }
# drops: packets dropped by every qdisc of the bed's namespaces so far.
drops() {
	local side
	for side in $sides; do "$tb" exec "$side" tc -s qdisc show; done |
		awk '/dropped/ { s = $0; sub(/.*dropped /, "", s); sub(/,.*/, "", s); n += s } END { print n + 0 }'
}
ticks() { # the node processes' CPU ticks
	local p
	for p in "${pids[@]}"; do awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null; done | awk '{ n += $1 } END { print n + 0 }'
}
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }

env=$("$tb" up "${what/10g/10gige-jumbo}" --name "$name") || { echo "iq_goals.sh: bench/testbed up: $env" >&2; exit 1; }
up=1
eval "$env"
export WS_TESTBED_NAME=$name
targets='' extra=()
if [ "$what" = 10g ]; then
	"$tb" exec B "$ws" node --bind "$WS_B" --reply-rate off --quiet >"$out/n.log" 2>&1 &
	pids+=("$!")
	targets=$WS_B goal=$(awk 'BEGIN { print 0.95 * 9915.6 }') sides='A B'
	for _ in $(seq 1 50); do "$tb" exec A "$ws" iq ping "$targets" --count 1 >/dev/null 2>&1 && break; sleep 0.1; done
else
	ws_star4_nodes "$tb" "$ws" "$out"
	targets=$ws_star4_targets
	extra=(--write-rate 1000) goal=3900 sides='A NODE1 NODE2 NODE3 NODE4'
fi
echo "== $what: iq bench $targets --trials $trials --samples $samples ${extra[*]}; goal min(read, write) >= $goal Mb/s; $(nproc) CPUs"
fails=0
for r in $(seq 1 "$runs"); do
	l0=$(load) d0=$(drops) n0=$(ticks) b0=$(busy) t0=$(date +%s%N)
	rm -f "$out/r.json"
	if ! "$tb" exec A "$ws" iq bench "$targets" --trials "$trials" --samples "$samples" "${extra[@]}" \
		--json-file "$out/r.json" >"$out/r.txt" 2>"$out/r.err"; then
		fails=$((fails + 1))
		echo "run $r: FAIL, iq bench failed; load before $l0: $(tail -n 3 "$out/r.err" | tr '\n' ' ')"
		continue
	fi
	d1=$(drops) n1=$(ticks) b1=$(busy) t1=$(date +%s%N)
	[ -n "$keep" ] && cp "$out/r.json" "$keep/run-$r.json"
	line=$(python3 - "$out/r.json" "$what" "$goal" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
agg = d.get("aggregate")
fig = agg if sys.argv[2] == "star4" else d["rows"][0]
key = "avg_mbps" if sys.argv[2] == "star4" else "median_mbps"
w, r = fig["write"][key], fig["read"][key]
trials = [t for row in d["rows"] for k in ("write", "read") for t in row["per_trial"][k]]
kept = [t for t in trials if t["kept"]]
off = max((t["off_cpu_ms"] or 0) for t in kept) if kept else 0
rr = sum(t.get("rerequests", 0) for t in trials)
rs = sum(t.get("resends", 0) for t in trials)
m = min(w, r)
print("write %.1f read %.1f min %.1f %s | disturbed %d/%d trials, kept %d/%d, kept off-CPU max %.1f ms"
      " | host %.2f/%.2f ns/sample w/r | rerequests %d resends %d"
      % (w, r, m, "PASS" if m >= float(sys.argv[3]) else "FAIL",
         sum(t["disturbed"] for t in trials), len(trials), sum(t["disturbed"] for t in kept),
         len(kept), off, fig["write"]["cpu_us_per_mb"] / 250, fig["read"]["cpu_us_per_mb"] / 250,
         rr, rs))
PY
)
	case $line in *PASS*) ;; *) fails=$((fails + 1)) ;; esac
	wall=$(((t1 - t0) / 10000000)) # in 10 ms ticks
	printf 'run %d: %s | node %d%% busy %d%% of 2 CPUs | qdisc drops %d | load before %s\n' "$r" \
		"$line" "$((100 * (n1 - n0) / wall))" "$((100 * (b1 - b0) / wall / 2))" "$((d1 - d0))" "$l0"
done
echo "load after: $(load); $((runs - fails)) of $runs runs meet the goal"
echo "(min: min(write, read) Mb/s against the goal; disturbed: a transferring thread off the CPU"
echo " > 1 ms in the trial; kept: the trials after the 5 dropped; host ns/sample: the calling"
echo " thread's CPU per IQ sample; node: the node processes' CPU per the run's wall time, in % of"
echo " one CPU; busy: the machine's busy time, everyone's, in % of both CPUs)"
[ $fails = 0 ]
