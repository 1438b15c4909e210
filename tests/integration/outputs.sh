# SPDX-License-Identifier: BSD-2-Clause
# Output selectors (-- -o / -O / -k) and -t omni against a real `warpspeed serve` on
# loopback, compared with netperf 2.7.0's goldens (tests/goldens/netperf/): the banner after
# the one documented substitution (the address inside the parentheses), names and header
# lines byte for byte, and value fields by format (integer, decimals with the same number
# of places, hex, UUID; any other text exactly), at the same columns for -O. Also `-O ?`
# (netperf's name list, exit 1) and an unknown selector (netperf's message, exit 255). A
# test the daemon does not serve yet is skipped (one SKIP line).
source "$(dirname "$0")/../lib.sh"
: "${WS_ROOT:?WS_ROOT must point at the source tree}"
G=$WS_ROOT/tests/goldens/netperf
start_daemon || { fail daemon_start "could not start warpspeed serve"; finish; }
P=$DAEMON_PORT

# One class per field: blanks kept in front, then I, D<places>, X, U or =text.
classes() { # mode: csv | kv | cols
	awk -v mode="$1" '
	function cls(t,   lead, a) {
		lead = ""
		while (substr(t, 1, 1) == " ") { lead = lead "_"; t = substr(t, 2) }
		if (t ~ /^-?[0-9]+$/) return lead "I"
		if (t ~ /^-?[0-9]+\.[0-9]+$/) { split(t, a, "."); return lead "D" length(a[2]) }
		if (t ~ /^0x[0-9a-f]+$/) return lead "X"
		if (t ~ /^[0-9a-f-]+$/ && length(t) == 36) return lead "U"
		return lead "=" t
	}
	mode == "csv" { n = split($0, f, ","); o = ""; for (i = 1; i <= n; i++) o = o cls(f[i]) "|"; print o; next }
	mode == "kv" { i = index($0, "="); print substr($0, 1, i) cls(substr($0, i + 1)); next }
	mode == "cols" {
		o = ""; s = $0; col = 0
		while (match(s, /[^ ]+/)) {
			col += RSTART - 1; o = o col ":" cls(substr(s, RSTART, RLENGTH)) " "
			col += RLENGTH; s = substr(s, RSTART + RLENGTH)
		}
		print o "width " length($0); next
	}'
}

# check NAME MODE TYPE ARGS...: run warpspeed with ARGS, compare with NAME's golden.
# MODE is the output form (csv, kv, cols) that decides how value lines are compared. The
# cases (below) are walked twice: first every run starts, three at a time side by side
# (bg_run: each is a second long and no check reads a figure, only its format), then, once
# all have ended, each output is compared (phase=check).
phase=start
check() {
	local name=$1 mode=$2 type=$3 out=$WS_TMP/$1.out err=$WS_TMP/$1.err rc i
	shift 3
	ws_served outputs "$type" || return 0
	if [ "$phase" = start ]; then
		bg_run "$name" "$WS_BIN" -H 127.0.0.1 -p "$P" "$@"
		return
	fi
	rc=$(cat "$WS_TMP/$name.rc")
	[ "$rc" -eq 0 ] || { fail "$name" "exit $rc: $(cat "$err")"; return; }
	local -a want got
	mapfile -t want < <(sed -E '1s/127\.0\.0\.1 \(\)/127.0.0.1 (127.0.0.1)/' "$G/$name.txt")
	mapfile -t got <"$out"
	[ "${#got[@]}" -eq "${#want[@]}" ] ||
		{ fail "$name" "${#got[@]} lines, netperf printed ${#want[@]}: $(cat -A "$out")"; return; }
	for ((i = 0; i < ${#want[@]}; i++)); do
		local w=${want[i]} g=${got[i]} fixed=0
		case $mode in
		csv) [ "$i" -le 1 ] && fixed=1 ;;
		kv) [ "$i" -eq 0 ] && fixed=1 ;;
		cols) { [ "$i" -eq 0 ] || [ -z "$w" ] || [ $(((i - 1) % 6)) -ne 4 ]; } && fixed=1 ;;
		esac
		if [ "$fixed" -eq 1 ]; then
			[ "$g" = "$w" ] || { fail "$name" "line $((i + 1)): [$g], netperf [$w]"; return; }
		elif [ "$(classes "$mode" <<<"$g")" != "$(classes "$mode" <<<"$w")" ]; then
			fail "$name" "line $((i + 1)) by format: [$g] ($(classes "$mode" <<<"$g")), netperf [$w] ($(classes "$mode" <<<"$w"))"
			return
		fi
	done
	pass "$name"
}

cases() {
	check tcp_stream_o csv TCP_STREAM -t TCP_STREAM -l 1 -- -o
	check tcp_stream_O cols TCP_STREAM -t TCP_STREAM -l 1 -- -O
	check tcp_stream_k kv TCP_STREAM -t TCP_STREAM -l 1 -- -k
	check tcp_maerts_o csv TCP_MAERTS -t TCP_MAERTS -l 1 -- -o
	check omni_send cols TCP_STREAM -t omni -l 1 -- -d send
	check omni_recv cols TCP_MAERTS -t omni -l 1 -- -d recv
	check omni_send_k kv TCP_STREAM -t omni -l 1 -- -d send -k THROUGHPUT,PROTOCOL,DIRECTION,SOCKET_TYPE
	check tcp_rr_o csv TCP_RR -t TCP_RR -l 1 -- -o
	check tcp_rr_O cols TCP_RR -t TCP_RR -l 1 -- -O
	check tcp_rr_k kv TCP_RR -t TCP_RR -l 1 -- -k
	check tcp_rr_j_k_lat kv TCP_RR -t TCP_RR -l 1 -j -- -k THROUGHPUT,THROUGHPUT_UNITS,P50_LATENCY,P90_LATENCY,P99_LATENCY,MEAN_LATENCY,STDDEV_LATENCY,MIN_LATENCY,MAX_LATENCY
	check tcp_rr_O_blocks cols TCP_RR -t TCP_RR -l 1 -- -O 'THROUGHPUT,THROUGHPUT_UNITS;ELAPSED_TIME,REQUEST_SIZE'
}
cases
bg_wait
phase=check
cases

# -k all names netperf's names, in netperf's order (values differ with the host).
if "$WS_BIN" -H 127.0.0.1 -p "$P" -t TCP_STREAM -l 1 -- -k all >"$WS_TMP/kall.out" 2>"$WS_TMP/kall.err"; then
	if diff <(sed 1d "$WS_TMP/kall.out" | cut -d= -f1) <(sed 1d "$G/tcp_stream_k_all.txt" | cut -d= -f1) >"$WS_TMP/kall.diff"; then
		pass tcp_stream_k_all_names
	else
		fail tcp_stream_k_all_names "$(cat "$WS_TMP/kall.diff")"
	fi
else
	fail tcp_stream_k_all_names "exit $?: $(cat "$WS_TMP/kall.err")"
fi

# -O ? lists netperf's names exactly (warpspeed's additions go to stderr) and exits 1.
"$WS_BIN" -t omni -- -O '?' >"$WS_TMP/names.out" 2>"$WS_TMP/names.err"
rc=$?
if [ "$rc" -eq 1 ] && cmp -s "$WS_TMP/names.out" "$G/omni_O_names.txt" && grep -qx P99_9_LATENCY "$WS_TMP/names.err"; then
	pass names_list
else
	fail names_list "exit $rc, $(diff "$WS_TMP/names.out" "$G/omni_O_names.txt" | head -5)"
fi

# An unknown selector is read as a file name, as netperf does: its message, exit 255.
"$WS_BIN" -H 127.0.0.1 -p "$P" -t TCP_STREAM -l 1 -- -o NO_SUCH_SELECTOR >"$WS_TMP/bad.out" 2>&1
rc=$?
if [ "$rc" -eq 255 ] && cmp -s "$WS_TMP/bad.out" "$G/err_bad_selector.txt"; then
	pass bad_selector
else
	fail bad_selector "exit $rc: $(cat "$WS_TMP/bad.out")"
fi
finish
