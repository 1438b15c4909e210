# SPDX-License-Identifier: BSD-2-Clause
# --sweep NAME=V1,V2,... against a real `warpspeed serve` on loopback: the classic table
# with one banner and one row per value (and -P 0's bare rows), an RR sweep with -o and -k
# selectors, --json validated against docs/schema/sweep.schema.json (each point's result
# against result.schema.json) with exact x values, a point the daemon refuses (the sweep
# goes on, names it, exits 1), and the usage errors (exit 2, nothing on stdout). Byte and
# transaction counts (-l -N) keep every run short.
source "$(dirname "$0")/../lib.sh"
: "${WS_ROOT:?WS_ROOT must point at the source tree}"

start_daemon || { fail daemon_start "could not start warpspeed serve"; finish; }
P=$DAEMON_PORT
WS=("$WS_BIN" -H 127.0.0.1 -p "$P")

# TCP_STREAM, m sweep: the banner and headers of a single run, then exactly 3 rows whose
# send message size (third column) is each value in bytes.
"${WS[@]}" -l -2000000 -- -m 64 >"$WS_TMP/one.out" 2>/dev/null
if ! "${WS[@]}" -l -2000000 --sweep m=64,1K,16K >"$WS_TMP/m.out" 2>"$WS_TMP/m.err"; then
	fail sweep_classic "exit $?: $(cat "$WS_TMP/m.err")"
elif [ "$(wc -l <"$WS_TMP/m.out")" -ne 9 ] || ! diff <(head -n 6 "$WS_TMP/one.out") <(head -n 6 "$WS_TMP/m.out") >/dev/null; then
	fail sweep_classic "want the single run's 6 banner/header lines and 3 rows: $(cat "$WS_TMP/m.out")"
elif [ "$(tail -n 3 "$WS_TMP/m.out" | awk '{printf "%s ", $3}')" != "64 1024 16384 " ]; then
	fail sweep_classic "send sizes [$(tail -n 3 "$WS_TMP/m.out" | awk '{printf "%s ", $3}')], want 64 1024 16384"
else
	pass sweep_classic
fi

# -P 0: the rows alone.
if "${WS[@]}" -P 0 -l -1000000 --sweep m=1K,4K >"$WS_TMP/p0.out" 2>/dev/null &&
	[ "$(awk '{printf "%s:%s ", NF, $3}' "$WS_TMP/p0.out")" = "5:1024 5:4096 " ]; then
	pass sweep_p0_rows
else
	fail sweep_p0_rows "$(cat "$WS_TMP/p0.out")"
fi

# TCP_RR, r sweep with CSV selectors: the banner, the header line once, one line per value.
if ! "${WS[@]}" -t TCP_RR -l -300 --sweep r=1:1,64:64,1K:2K -- -o THROUGHPUT,REQUEST_SIZE,RESPONSE_SIZE \
	>"$WS_TMP/rr.out" 2>"$WS_TMP/rr.err"; then
	fail sweep_rr_csv "exit $?: $(cat "$WS_TMP/rr.err")"
elif [ "$(sed -n 2p "$WS_TMP/rr.out")" != "Throughput,Request Size Bytes,Response Size Bytes" ] ||
	[ "$(wc -l <"$WS_TMP/rr.out")" -ne 5 ] ||
	[ "$(tail -n 3 "$WS_TMP/rr.out" | cut -d, -f2,3 | tr '\n' ' ')" != "1,1 64,64 1024,2048 " ] ||
	! grep -q "^MIGRATED TCP REQUEST/RESPONSE TEST" "$WS_TMP/rr.out"; then
	fail sweep_rr_csv "$(cat "$WS_TMP/rr.out")"
else
	pass sweep_rr_csv
fi

# -k: one NAME=value block per value, a blank line between blocks; -P 0 drops the banner.
if "${WS[@]}" -P 0 -t TCP_RR -l -200 --sweep r=1,64 -- -k REQUEST_SIZE,RESPONSE_SIZE >"$WS_TMP/k.out" 2>/dev/null &&
	[ "$(cat "$WS_TMP/k.out")" = "$(printf 'REQUEST_SIZE=1\nRESPONSE_SIZE=1\n\nREQUEST_SIZE=64\nRESPONSE_SIZE=64')" ]; then
	pass sweep_rr_keyval
else
	fail sweep_rr_keyval "$(cat "$WS_TMP/k.out")"
fi

# --json: one sweep document per run, schema-valid, x exact, -i applied per point; and a
# point the daemon refuses (more streams than it allows): the others run, the failed one is
# named, the exit status is 1, and in JSON its result is null with the error. The documents
# are checked together at the end, by one python run.
JOBS=()
# json NAME CHECKS ARGS...: a --json sweep that must exit 0.
json() {
	local name=$1 checks=$2
	shift 2
	if "$@" --json >"$WS_TMP/$name.json" 2>"$WS_TMP/$name.err"; then
		JOBS+=("$name=$WS_TMP/$name.json,$checks")
	else
		fail "$name" "exit $?: $(cat "$WS_TMP/$name.err")"
	fi
}
json sweep_json_m m,TCP_STREAM,64:1024:16384 "${WS[@]}" -l -1000000 --sweep m=64,1K,16K
json sweep_json_rr r,TCP_RR,1:64,iterations=3,rsp=1:128 "${WS[@]}" -t TCP_RR -l -200 -i 3,3 --sweep r=1:1,64:128

start_daemon --max-streams 2 || { fail daemon2_start "could not start the second daemon"; finish; }
"$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -P 0 -l -200000 --sweep streams=1,4,2 >"$WS_TMP/f.out" 2>"$WS_TMP/f.err"
rc=$?
if [ "$rc" -eq 1 ] && [ "$(wc -l <"$WS_TMP/f.out")" -eq 2 ] &&
	grep -q "^warpspeed: --sweep streams=4 failed: .*--max-streams.*; going on with the next value$" "$WS_TMP/f.err" &&
	grep -qx "warpspeed: --sweep streams: 1 of 3 values failed (4)" "$WS_TMP/f.err"; then
	pass sweep_point_fails
else
	fail sweep_point_fails "exit $rc, stdout [$(cat "$WS_TMP/f.out")] stderr [$(cat "$WS_TMP/f.err")]"
fi
"$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -l -200000 --sweep streams=1,4 --json >"$WS_TMP/f.json" 2>/dev/null
rc=$?
if [ "$rc" -eq 1 ]; then
	JOBS+=("sweep_point_fails_json=$WS_TMP/f.json,streams,TCP_STREAM,1:4,failed=4")
else
	fail sweep_point_fails_json "exit $rc, want 1"
fi

if ! command -v python3 >/dev/null; then
	skip sweep_json "python3 is not installed"
elif [ "${#JOBS[@]}" -gt 0 ]; then
	python3 "$WS_ROOT/tests/integration/sweep_check.py" "$WS_ROOT/docs/schema" "${JOBS[@]}" >"$WS_TMP/check.out" 2>&1
	rc=$?
	if [ "$rc" -eq 77 ]; then
		skip sweep_json "python3's jsonschema module (Debian python3-jsonschema) is not installed"
	else
		while read -r verdict name why; do
			case $verdict in
			PASS) pass "$name" ;;
			FAIL) fail "${name%:}" "$why" ;;
			esac
		done <"$WS_TMP/check.out"
		[ "$rc" -eq 0 ] || fail sweep_check "sweep_check.py exit $rc: $(cat "$WS_TMP/check.out")"
	fi
fi

# --svg: one chart of the whole sweep (throughput against m, one point per value), the
# rows still printed; with a one-run chart named it is a usage error.
if "${WS[@]}" -P 0 -l -1000000 --sweep m=1K,4K,16K --svg "$WS_TMP/s.svg" >"$WS_TMP/svg.out" 2>"$WS_TMP/svg.err" &&
	[ "$(wc -l <"$WS_TMP/svg.out")" -eq 3 ] &&
	python3 -c '
import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot(); ns = "{http://www.w3.org/2000/svg}"
t = r.find(ns + "title").text; d = r.find(ns + "desc").text
sys.exit(0 if t == "Throughput against the swept value" and "Series throughput: 3 points" in d else 1)' "$WS_TMP/s.svg"; then
	pass sweep_svg
else
	fail sweep_svg "stdout [$(cat "$WS_TMP/svg.out")] stderr [$(cat "$WS_TMP/svg.err")] svg [$(head -c 400 "$WS_TMP/s.svg" 2>/dev/null)]"
fi

# Usage errors: exit 2, nothing on stdout, the message names the value and what is accepted.
usage() {
	local name=$1 want=$2
	shift 2
	"${WS[@]}" -l -1000 "$@" >"$WS_TMP/u.out" 2>"$WS_TMP/u.err"
	local rc=$?
	if [ "$rc" -eq 2 ] && [ ! -s "$WS_TMP/u.out" ] && [ "$(head -n 1 "$WS_TMP/u.err")" = "$want" ]; then
		pass "$name"
	else
		fail "$name" "exit $rc, stdout [$(cat "$WS_TMP/u.out")] stderr [$(cat "$WS_TMP/u.err")]"
	fi
}
usage sweep_err_name "warpspeed: option --sweep: 'size' is not a sweep parameter; expected one of m, M, r, s, S, streams, threads, rate" --sweep size=1
usage sweep_err_value "warpspeed: option --sweep: m value '1x' is not valid; expected send sizes from 1 to 1G bytes (K, M, G suffixes), e.g. m=64,1K,64K" --sweep m=64,1x
usage sweep_err_rr_m "warpspeed: option --sweep m does not apply to TCP_RR: test option -m changes nothing there (-r sizes the requests and responses); expected --sweep r=..." -t TCP_RR --sweep m=64
usage sweep_err_both "warpspeed: option --sweep m and test option -m both set the send size; expected one of them (the sweep gives each point its value)" --sweep m=64 -- -m 1K
usage sweep_err_svg_chart "warpspeed: with --sweep, --svg draws throughput against the swept value; --svg-chart spectrum draws one run" --sweep m=64 --svg "$WS_TMP/x.svg" --svg-chart spectrum
usage sweep_err_udp "warpspeed: option --sweep m=70000: test option -m: 70000 is not a UDP_STREAM message size; expected 16 to 65507 bytes (a sequence header, up to the largest UDP payload)" -t UDP_STREAM --sweep m=64,70000
finish
