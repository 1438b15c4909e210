# SPDX-License-Identifier: BSD-2-Clause
# warpspeed compare: verdicts and exit statuses on synthetic result files written here
# (exact ratios and intervals, worked in tests/unit/test_ratio.c), refusals of runs that
# measured something else (test, sizes, version; --force), files that hold JSON lines or
# documents one after another, usage errors (exit 2, naming the value), the JSON document
# against docs/schema/compare.schema.json (python3-jsonschema; a mutated copy must fail),
# the SVG parsed as XML, the power benches' usage errors, and one real run:
# --repeat 3 -l 1 TCP_RR against a daemon, compared with itself.
source "$(dirname "$0")/../lib.sh"
: "${WS_ROOT:?WS_ROOT must point at the source tree}"
SCHEMA=$WS_ROOT/docs/schema/compare.schema.json
T=$WS_TMP

# mk FILE THROUGHPUT [TEST] [SEND_SIZE] [VERSION] [P99_US]: a --json result with the members
# compare reads (the rest of a real document is ignored).
mk() {
	local p99=${6:-null} lat=null
	[ "$p99" != null ] && lat="{\"p50_us\": 20, \"p90_us\": null, \"p99_us\": $p99, \"p99_9_us\": null}"
	cat >"$1" <<EOF
{"type": "result", "schema_version": 1, "warpspeed_version": "${5:-0.1.0+abc}",
 "test": "${3:-TCP_STREAM}",
 "hosts": {"local_hostname": "a", "remote_host": "b"},
 "spec": {"send_size": ${4:-0}, "recv_size": 0, "req_size": 1, "rsp_size": 1, "streams": 1},
 "throughput": {"value": $2, "units": "10^6bits/s", "transaction_rate": null},
 "local": {"cpu": null}, "remote": {"cpu": null}, "latency": $lat}
EOF
}
# set DIR V1 V2 ...: a directory of one file per value.
set_of() {
	local d=$T/$1 i=0 v
	shift
	mkdir -p "$d"
	for v in "$@"; do mk "$d/r$i.json" "$v" TCP_STREAM 0 0.1.0+abc "$v"; i=$((i + 1)); done
}
# The real run goes first, in the background, while the synthetic checks run.
start_daemon || { fail daemon_start "could not start warpspeed serve"; finish; }
bg_run real "$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -t TCP_RR -l 1 --repeat 3 --json

set_of old 100 102 98 101 99
set_of slow 90 92 89 91 93
set_of same 101.5 99.5 103 100.5 98.5
set_of fast 110 112 108 111 109

C="$WS_BIN compare"
# expect NAME RC PATTERN CMD...: CMD's exit status is RC and its stdout+stderr match PATTERN.
expect() {
	local name=$1 want=$2 pat=$3 rc
	shift 3
	"$@" >"$T/$name.out" 2>&1
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$name" "exit $rc, want $want: $(head -c 600 "$T/$name.out")"
	elif ! grep -qE -- "$pat" "$T/$name.out"; then
		fail "$name" "no /$pat/ in: $(head -c 600 "$T/$name.out")"
	else
		pass "$name"
	fi
}
row='^throughput +10\^6bits/s +100 +5 +'
expect compare_slower 0 "${row}91 +5 +0\.9100  \[0\.8824, 0\.9388\] +slower \(9\.0% worse\)$" $C "$T/old" "$T/slow"
expect compare_latency 0 '^latency_p99 +us .* 0\.9100  \[0\.8824, 0\.9388\] +faster \(9\.0% better\)$' $C "$T/old" "$T/slow"
expect compare_same 0 "${row}100\.5 +5 +1\.0051  \[0\.9755, 1\.0357\] +no change$" $C "$T/old" "$T/same"
expect compare_faster 0 "${row}110 +5 +1\.1000  \[1\.0693, 1\.1313\] +faster" $C "$T/old" "$T/fast"
expect compare_fail_5 1 'slower \(9\.0% worse\)  FAIL$' $C "$T/old" "$T/slow" --fail-if-worse 5
expect compare_fail_10 0 '^--fail-if-worse 10: 0 figures' $C "$T/old" "$T/slow" --fail-if-worse 10
expect compare_fail_same 0 'no change$' $C "$T/old" "$T/same" --fail-if-worse 0
# latency got worse by 10%: lower is better, so slower, and it fails a 5% gate
expect compare_fail_latency 1 '^latency_p99 .* 1\.1000  \[1\.0693, 1\.1313\] +slower \(10\.0% worse\)  FAIL' \
	$C "$T/old" "$T/fast" --fail-if-worse 5
expect compare_too_few 0 "too few samples$" $C "$T/old/r0.json" "$T/slow/r0.json" --fail-if-worse 0
expect compare_3v3 0 "too few samples$" $C "$T/old/r0.json" "$T/old/r1.json" "$T/slow" --fail-if-worse 0
# several NEW paths pool: 5 old against 2 + 3 new files
expect compare_new_paths 0 "${row}91 +5 +0\.9100  \[0\.8824, 0\.9388\] +slower" \
	$C "$T/old" "$T/slow/r0.json" "$T/slow/r1.json" "$T/slow/r2.json" "$T/slow/r3.json" "$T/slow/r4.json"

# One file with several documents: JSON lines (interval objects are skipped) and
# pretty-printed documents one after another (--repeat N --json).
for f in "$T"/slow/*.json; do
	printf '{"type":"interval","schema_version":1}\n'
	tr -d '\n' <"$f" | sed 's/"result"/"summary"/'
	echo
done >"$T/slow.jsonl"
cat "$T"/old/*.json >"$T/old_concat.json"
expect compare_files_of_many 0 "${row}91 +5 +0\.9100  \[0\.8824, 0\.9388\] +slower" $C "$T/old_concat.json" "$T/slow.jsonl"

# A sweep's points, a mesh's cells and an iq bench document's sizes are figures of their own.
# kinds DIR KIND V1 V2 ...: one document of KIND per value.
kinds() {
	local d=$T/$1 k=$2 i=0 v
	shift 2
	mkdir -p "$d"
	for v in "$@"; do
		case $k in
		sweep) mk "$T/pt.json" "$v"
			printf '{"type": "sweep", "schema_version": 1, "parameter": "m", "values": ["64", "1K"],
 "points": [{"value": "64", "x": 64, "result": %s}, {"value": "1K", "x": 1024, "result": null, "error": "x"}]}\n' \
				"$(cat "$T/pt.json")" >"$d/s$i.json" ;;
		mesh) printf '{"type": "mesh", "schema_version": 1, "test": "TCP_STREAM", "schedule": "all", "ranks": 2,
 "hosts": ["h0", "h1"], "units": "10^6bits/s", "cells": [{"src": 0, "dst": 1, "throughput": %s, "units": "10^6bits/s"},
 {"src": 1, "dst": 0, "throughput": null, "units": "10^6bits/s", "error": "refused"}]}\n' "$v" >"$d/m$i.json" ;;
		iq) printf '{"rows": [{"id": 1, "wlver": "7.7.1", "serial": "W3-a", "pkt_size": 8990, "samples": 32768,
 "format": "ci16", "node": 1, "write": {"avg_mbps": %s}, "read": {"avg_mbps": %s}}]}\n' "$v" "$v" >"$d/q$i.json" ;;
		esac
		i=$((i + 1))
	done
}
for k in sweep mesh iq; do
	kinds "${k}_old" $k 100 102 98 101 99
	kinds "${k}_new" $k 90 92 89 91 93
done
expect compare_sweep 0 '^m=64 throughput +10\^6bits/s +100 +5 +91 +5 +0\.9100  \[0\.8824, 0\.9388\] +slower' $C "$T/sweep_old" "$T/sweep_new"
expect compare_mesh 0 '^cell 0->1 +10\^6bits/s +100 +5 +91 +5 +0\.9100  \[0\.8824, 0\.9388\] +slower' $C "$T/mesh_old" "$T/mesh_new"
expect compare_iq 0 '^iq read 32768 +Mb/s +100 +5 +91 +5 +0\.9100  \[0\.8824, 0\.9388\] +slower' $C "$T/iq_old" "$T/iq_new"
expect compare_refuse_kind 2 'kind: sweep against result' $C "$T/old" "$T/sweep_new"

# Runs that measured something else are refused (exit 2), naming the difference.
mk "$T/rr.json" 95 TCP_RR
mk "$T/m64.json" 95 TCP_STREAM 64
mk "$T/v2.json" 95 TCP_STREAM 0 0.2.0+abc
mk "$T/git.json" 95 TCP_STREAM 0 0.1.0+def-dirty
expect compare_refuse_test 2 'rr.json is not comparable with .*: test: TCP_RR against TCP_STREAM' $C "$T/old" "$T/rr.json"
expect compare_refuse_sizes 2 'sizes: -m 64 -M 0 -r 1,1 --streams 1 against -m 0 ' $C "$T/old" "$T/m64.json"
expect compare_refuse_version 2 'version: 0\.2\.0 schema 1 against 0\.1\.0 schema 1' $C "$T/old" "$T/v2.json"
expect compare_refuse_in_old 2 'not comparable' $C "$T/rr.json" "$T/old/r0.json"
expect compare_same_release 0 'too few samples' $C "$T/old/r0.json" "$T/git.json"
expect compare_force 0 'note: .*v2.json differs from .* in version: 0\.2\.0' $C "$T/old" "$T/v2.json" --force

# Usage errors: exit 2, naming the value and what is accepted.
printf '{"type": "result", ' >"$T/broken.json"
echo '{"type": "other"}' >"$T/other.json"
mkdir -p "$T/empty"
expect compare_usage_pct 2 "'abc'.*a percentage, 0 to 1000" $C "$T/old" "$T/slow" --fail-if-worse abc
expect compare_usage_neg 2 "--fail-if-worse: .*-5" $C "$T/old" "$T/slow" --fail-if-worse -5
expect compare_usage_one 2 'no NEW results given' $C "$T/old"
expect compare_usage_opt 2 "unknown option '--bogus'" $C "$T/old" "$T/slow" --bogus
expect compare_usage_missing 2 "cannot read $T/nope" $C "$T/old" "$T/nope"
expect compare_usage_broken 2 'broken.json, document 1, is not valid JSON: line 1' $C "$T/old" "$T/broken.json"
expect compare_usage_type 2 "type 'other'; expected a --json result" $C "$T/old" "$T/other.json"
expect compare_usage_empty 2 'empty holds no \*.json' $C "$T/old" "$T/empty"
expect compare_help 0 '^usage: warpspeed compare OLD NEW' $C --help
# bench/compare_power.sh, rr_spread.sh and power_model.sh refuse bad options before any work.
# (WS_BIN points nowhere: a check that let a value through would exit 1, not run the bench.)
P="env WS_BIN=/nonexistent $WS_ROOT/bench/compare_power.sh"
expect power_usage_pin 2 "--pin '0,x': expected LCPU,RCPU, two CPU numbers from 0 to" $P --pin 0,x
expect power_usage_pin_cpu 2 "--pin '0,100000': expected LCPU,RCPU" $P --pin 0,100000
expect power_usage_iter 2 "--iterations 2: expected 1 \\(a plain run\\) or 3 to 30" $P --iterations 2
expect power_usage_opt 2 "unknown argument '--bogus'; expected --runs, .*--pin or --iterations" $P --bogus
S="env WS_BIN=/nonexistent $WS_ROOT/bench/rr_spread.sh"
expect spread_usage_runs 2 "--runs 1: expected at least 2" $S --runs 1
expect spread_usage_opt 2 "unknown option '--bogus'; expected --runs, --seconds or CONFIG" $S --bogus
M=$WS_ROOT/bench/power_model.sh
expect model_usage_runs 2 "--runs 3: expected 4 to 50" $M --runs 3
expect model_usage_sd 2 "'x': expected --runs, --shift, --trials or an sd" $M x
# The model applies compare's k for 10 vs 10 (R's qwilcox(0.025, 10, 10) = 24), and a
# noiseless 10% shift is always found.
expect model_k 0 "^10 vs 10 runs, shift 10%, k = 24, 50 trials" $M --trials 50 0
expect model_noiseless 0 "^0% +100% +100%" $M --trials 50 0

# JSON against the schema; the --json-file copy equals --json; the SVG is XML with one
# figure (one python3: importing jsonschema takes seconds on a busy machine).
$C "$T/old" "$T/slow" --json --fail-if-worse 5 >"$T/c.json" 2>"$T/c.err"
rc=$?
$C "$T/old" "$T/v2.json" --force --json-file "$T/forced.json" --svg "$T/c.svg" >"$T/table.txt" 2>&1
rc2=$?
$C "$T/old" "$T/slow" --json-file "$T/c2.json" --fail-if-worse 5 >/dev/null 2>&1
if [ "$rc" -eq 1 ] && [ "$rc2" -eq 0 ] && cmp -s "$T/c.json" "$T/c2.json"; then pass compare_json_file; else
	fail compare_json_file "exits $rc, $rc2 (want 1, 0), or --json-file differs from --json"; fi
if ! command -v python3 >/dev/null; then
	skip compare_schema_and_svg "python3 is not installed"
else
	out=$(python3 - "$SCHEMA" "$T/c.svg" "$T/c.json" "$T/forced.json" <<'EOF' 2>&1
import copy, json, sys, xml.dom.minidom
svg = xml.dom.minidom.parse(sys.argv[2])
assert svg.documentElement.tagName == "svg", "the SVG's root is not <svg>"
assert len([g for g in svg.getElementsByTagName("g") if g.getAttribute("class") == "figure"]) == 1
try:
    import jsonschema
except ImportError:
    print("skip")
    sys.exit(0)
def strict(path):
    return json.load(open(path), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
docs = [strict(p) for p in sys.argv[3:]]
for d in docs:
    v.validate(d)
d = docs[0]
t = [f for f in d["figures"] if f["name"] == "throughput"][0]
assert d["failed"] is True and t["verdict"] == "slower" and t["fails"] is True, t
assert abs(t["ratio"] - 0.91) < 1e-12 and abs(t["ratio_low"] - 0.8823529411764709) < 1e-12, t
assert t["method"] == "exact" and t["old"] == {"n": 5, "median": 100}, t
f = docs[1]
assert f["forced"] == ["version: 0.2.0 schema 1 against 0.1.0 schema 1"], f["forced"]
assert f["figures"][0]["verdict"] == "too_few_samples" and f["figures"][0]["ratio_low"] is None
bad = 0
for mutate in (lambda x: x.pop("figures"), lambda x: x.update(extra=1),
               lambda x: x["figures"][0].update(verdict="worse"),
               lambda x: x["figures"][0].update(ratio_low=None)):
    m = copy.deepcopy(d)
    mutate(m)
    bad += not v.is_valid(m)
assert bad == 4, "only %d of 4 mutated copies fail the schema" % bad
print("ok")
EOF
)
	if [ "$out" = skip ]; then
		pass compare_svg
		skip compare_schema "python3's jsonschema module (Debian python3-jsonschema) is not installed"
	elif [ "$out" = ok ]; then
		pass compare_schema_and_svg
	else
		fail compare_schema_and_svg "$out"
	fi
fi

# The real run: --repeat 3 wrote three documents one after another; compared with itself
# (3 vs 3: too few samples) and with itself twice (3 vs 6: the same runs, no change).
bg_wait
mv "$T/real.out" "$T/real.json"
rc=$(cat "$T/real.rc")
n=$(grep -c '^  "type": "result"' "$T/real.json")
if [ "$rc" -eq 0 ] && [ "$n" -eq 3 ]; then pass compare_repeat_writes_3; else
	fail compare_repeat_writes_3 "exit $rc, $n documents: $(head -c 300 "$T/real.err")"; fi
expect compare_real_self 0 '^throughput +Trans/s .* 3 .* 3 +1\.0000  - +too few samples$' $C "$T/real.json" "$T/real.json" --fail-if-worse 0
expect compare_real_6 0 '^throughput +Trans/s .* 3 .* 6 +1\.0000  \[[0-9.]+, [0-9.]+\] +no change$' \
	$C "$T/real.json" "$T/real.json" "$T/real.json" --fail-if-worse 0
expect compare_repeat_range 2 "option --repeat: '0' .*1 to 1000" "$WS_BIN" --repeat 0
expect compare_repeat_sweep 2 '--repeat 2 with --sweep' "$WS_BIN" --repeat 2 --sweep m=1K,2K
finish
