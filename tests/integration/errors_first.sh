#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Issue 29, items 2 and 3: every output path is checked before any connection or benchmark
# (exit 2 at once, naming the path and the reason), and error texts give the reason, not a
# number, with one hint line, and name the one thing that is wrong. The client runs
# against a port where nothing listens: a check that came after the connection would
# fail with "Connection refused" and exit 1 instead.
source "$(dirname "$0")/../lib.sh"
T=$WS_TMP
# A loopback port with no listener: one the kernel just gave out and took back (port 1
# may be some other test's netserver on a shared machine).
NOPORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# expect NAME STATUS TEXT CMD...: CMD exits STATUS within 2 s beyond the binary's own
# start (ws_quick, tests/lib.sh: up to three tries, so a loaded host's pause is not taken
# for work; a refusal after a timeout or a transfer is slow every time) and its stderr
# holds TEXT (a fixed string) and no "Connection refused" and no "built-in node" (no work
# was done).
expect() {
	local name=$1 want=$2 text=$3 quick=yes
	shift 3
	ws_quick 2000 "$T/$name.out" "$T/$name.err" "$@" || quick=
	if [ "$WS_RC" -eq "$want" ] && grep -qF -- "$text" "$T/$name.err" &&
		! grep -qE 'Connection refused|built-in node' "$T/$name.err" "$T/$name.out" &&
		[ -n "$quick" ]; then
		pass "$name"
	else
		fail "$name" "status $WS_RC (want $want), $WS_EXCESS_MS ms beyond the start: $(head -c 400 "$T/$name.err")"
	fi
}
C=("$WS_BIN" -H 127.0.0.1 -p "$NOPORT" -l 1)
missing="cannot create a file in directory '/nonexistent/dir' (for '/nonexistent/dir/out"
expect early_svg 2 "warpspeed: --svg /nonexistent/dir/out.svg: $missing.svg'): No such file or directory" \
	"${C[@]}" -t TCP_RR --svg /nonexistent/dir/out.svg
expect early_svg_dir 2 "--svg $T: '$T' is a directory" "${C[@]}" -t TCP_RR --svg "$T"
# RRUL and RPM run many sessions: --openmetrics (one session's result) is refused, not ignored
expect early_openmetrics_rrul 2 "warpspeed: --openmetrics $T/r.prom: writes one session's result; -t RRUL runs many" \
	"${C[@]}" -t RRUL --openmetrics "$T/r.prom"
expect early_openmetrics_rpm 2 "warpspeed: --openmetrics $T/r.prom: writes one session's result; -t RPM runs many" \
	"${C[@]}" -t RPM -l 2 --openmetrics "$T/r.prom"
expect early_json_file 2 "warpspeed: --json-file /nonexistent/dir/out.json: $missing.json')" \
	"${C[@]}" -t TCP_RR --json-file /nonexistent/dir/out.json
expect early_json_file_sweep 2 "--json-file $T/s.json: writes one test's document; with --sweep" \
	"${C[@]}" --sweep m=1,2 --json-file "$T/s.json"
expect early_sweep_svg 2 "--svg /nonexistent/dir/out.svg: $missing" \
	"${C[@]}" --sweep m=1,2 --svg /nonexistent/dir/out.svg
expect early_iq_json_file 2 "warpspeed iq bench: --json-file: $missing.json')" \
	"$WS_BIN" iq bench --trials 6 --samples 1024 --json-file /nonexistent/dir/out.json
expect early_iq_svg 2 "warpspeed iq bench: --svg: $missing.svg')" \
	"$WS_BIN" iq bench --trials 6 --samples 1024 --svg /nonexistent/dir/out.svg
expect early_iq_read_out 2 "warpspeed iq read: -o: $missing.ci16')" \
	"$WS_BIN" iq read 127.0.0.1:"$NOPORT" --rf A --samples 16 -o /nonexistent/dir/out.ci16
echo '{"type": "result"}' >"$T/in.json"
expect early_plot 2 "warpspeed plot: -o /nonexistent/dir/out.svg: $missing.svg')" \
	"$WS_BIN" plot "$T/in.json" -o /nonexistent/dir/out.svg

# Item 3: the reason, not a number (a daemon of our own, so the write is what fails).
start_daemon || { fail early_daemon "no daemon"; finish; }
D=("$WS_BIN" -H 127.0.0.1 -p "$DAEMON_PORT" -l 1 -t TCP_RR)
if [ -w /dev/full ]; then
	"${D[@]}" --json >/dev/full 2>"$T/full.err"
	rc=$?
	if [ $rc -eq 1 ] && grep -qxF "warpspeed: writing the JSON result to standard output failed: No space left on device" "$T/full.err"; then
		pass error_reason_dev_full
	else
		fail error_reason_dev_full "status $rc: $(cat "$T/full.err")"
	fi
else
	skip error_reason_dev_full "no writable /dev/full"
fi

# --json-file: the document in the file, the table on stdout.
if "${D[@]}" --json-file "$T/r.json" >"$T/r.out" 2>"$T/r.err" &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["type"] != "result")' "$T/r.json" &&
	grep -q 'Trans\.' "$T/r.out"; then
	pass json_file_written
else
	fail json_file_written "$(cat "$T/r.err")"
fi

# One hint line, not two.
"$WS_BIN" --bogus >/dev/null 2>"$T/hint.err"
rc=$?
if [ $rc -eq 2 ] && [ "$(grep -c -- "-h'" "$T/hint.err")" -eq 1 ]; then
	pass error_one_hint
else
	fail error_one_hint "status $rc: $(cat "$T/hint.err")"
fi
"$WS_BIN" -l x >/dev/null 2>"$T/hint2.err"
if [ "$(grep -c -- "-h'" "$T/hint2.err")" -eq 1 ]; then
	pass error_one_hint_value
else
	fail error_one_hint_value "$(cat "$T/hint2.err")"
fi

# iq read: the one thing that is wrong, each its own message.
expect iq_read_no_out 2 "warpspeed iq read: needs -o FILE" \
	"$WS_BIN" iq read 127.0.0.1:"$NOPORT" --rf A --samples 16
expect iq_read_two_rf 2 "warpspeed iq read: --rf A,B names 2 interfaces; read takes one" \
	"$WS_BIN" iq read 127.0.0.1:"$NOPORT" --rf A,B --samples 16 -o "$T/x.ci16"
expect iq_read_no_samples 2 "warpspeed iq read: needs --samples N" \
	"$WS_BIN" iq read 127.0.0.1:"$NOPORT" --rf A -o "$T/x.ci16"
if ! grep -q 'needs -o' "$T/iq_read_two_rf.err" && ! grep -q 'names 2' "$T/iq_read_no_out.err"; then
	pass iq_read_distinct
else
	fail iq_read_distinct "the two messages are not distinct"
fi
# SigMF metadata that is not JSON at all gets the JSON reason.
echo 'not json' >"$T/bad.sigmf-meta"
: >"$T/bad.sigmf-data"
expect iq_sigmf_not_json 2 "SigMF metadata '$T/bad.sigmf-meta' is not JSON: expected a value" \
	"$WS_BIN" iq write 127.0.0.1:"$NOPORT" --rf A -i "$T/bad.sigmf-meta"
# iq bench's messages carry the program and the command.
expect iq_bench_prefix 2 "warpspeed iq bench: --trials '5' is not valid (6..100000; the first 5 are dropped" \
	"$WS_BIN" iq bench --trials 5 --samples 1024
finish
