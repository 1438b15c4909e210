# SPDX-License-Identifier: BSD-2-Clause
# TCP_RR, UDP_RR and TCP_CRR against a real `warpspeed serve` on loopback, printed as netperf
# 2.7.0 prints them: each case's output is compared with its golden from
# tests/goldens/netperf/ line for line, the banner after warpspeed's one documented
# substitution (the address inside the parentheses), the header lines byte
# for byte, and the value rows by shape (every number replaced by N, runs of blanks
# squeezed, so column order, separators and trailing blanks must match while the figures
# may differ). At -v 2 netperf's lines come first, then warpspeed's histogram and
# statistics. A test the daemon does not serve yet is skipped (one SKIP line).
source "$(dirname "$0")/../lib.sh"
: "${WS_ROOT:?WS_ROOT must point at the source tree}"
G=$WS_ROOT/tests/goldens/netperf
start_daemon || { fail daemon_start "could not start warpspeed serve"; finish; }
P=$DAEMON_PORT

# netperf's text as warpspeed must print it, shapes for the value lines.
expected() { # golden file
	sed -E '1{/^MIGRATED/{s/127\.0\.0\.1 \(\)/127.0.0.1 (127.0.0.1)/}}' "$1"
}
shape() { sed -E 's/-?[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g'; }

# check NAME (the golden's) then warpspeed's arguments; the first `head` lines of the output
# are netperf's (all of them unless -v 2). The cases (below) are walked twice: first every
# run starts, three at a time side by side (bg_run: none measures a rate, and each is a
# second long), then, once all have ended, each output is checked (phase=check).
phase=start
check() {
	local name=$1 out=$WS_TMP/$1.out err=$WS_TMP/$1.err want=$WS_TMP/$1.want n rc
	shift
	ws_served rr_classic "$(cut -d_ -f1,2 <<<"$name" | tr a-z A-Z)" || return 0
	if [ "$phase" = start ]; then
		bg_run "$name" "$WS_BIN" -p "$P" "$@"
		return
	fi
	rc=$(cat "$WS_TMP/$name.rc")
	if [ "$rc" -ne 0 ]; then
		fail "$name" "exit $rc: $(cat "$err")"; return
	fi
	expected "$G/$name.txt" >"$want"
	n=$(wc -l <"$want")
	# Lines without digits (banner aside) are fixed text: byte for byte, then the rest by shape.
	if ! diff <(head -n "$n" "$out" | shape) <(shape <"$want") >"$WS_TMP/$name.diff"; then
		fail "$name" "differs from netperf's layout: $(cat -A "$WS_TMP/$name.diff")"; return
	fi
	if [ "$(head -n "$n" "$out" | grep -v '[0-9]')" != "$(grep -v '[0-9]' "$want")" ]; then
		fail "$name" "fixed lines differ: $(head -n "$n" "$out" | cat -A)"; return
	fi
	case " $* " in
	*" -v 2 "*)
		if ! grep -q '^Histogram of .* times$' "$out" || ! grep -q '^HIST_TOTAL: ' "$out" ||
			! grep -q '^Round trips (us): min [0-9.]* mean .* (\([0-9]*\) samples)$' "$out"; then
			fail "$name" "no histogram or round-trip line after netperf's: $(cat "$out")"; return
		fi ;;
	*)
		if [ "$(wc -l <"$out")" -ne "$n" ]; then
			fail "$name" "extra lines after netperf's: $(cat "$out")"; return
		fi ;;
	esac
	pass "$name"
}

H4=(-H 127.0.0.1)
cases() {
	check tcp_rr "${H4[@]}" -t TCP_RR -l 1
	check tcp_rr_cC "${H4[@]}" -t TCP_RR -l 1 -c -C
	check tcp_rr_v0 "${H4[@]}" -t TCP_RR -l 1 -v 0
	check tcp_rr_P0 "${H4[@]}" -t TCP_RR -l 1 -P 0
	check tcp_rr_v2 "${H4[@]}" -t TCP_RR -l 1 -v 2
	check tcp_rr_burst4 "${H4[@]}" -t TCP_RR -l 1 -- -r 1,1 -b 4
	check tcp_rr_nodelay "${H4[@]}" -t TCP_RR -l 1 -- -D
	check tcp_rr_r64_1024 "${H4[@]}" -t TCP_RR -l 1 -- -r 64,1024
	check tcp_rr_fk "${H4[@]}" -t TCP_RR -l 1 -f k
	check tcp_rr_count "${H4[@]}" -t TCP_RR -l -1000
	# UDP_RR: a 5 s timeout, so that a loaded machine's scheduling stall is not a loss (a
	# loss line would follow netperf's table); the default 0.1 s is tested in rr.sh.
	check udp_rr "${H4[@]}" -t UDP_RR -l 1 -- -e 5
	check udp_rr_cC "${H4[@]}" -t UDP_RR -l 1 -c -C -- -e 5
	check udp_rr_v2 "${H4[@]}" -t UDP_RR -l 1 -v 2 -- -e 5
	check tcp_crr "${H4[@]}" -t TCP_CRR -l 1
	check tcp_crr_cC "${H4[@]}" -t TCP_CRR -l 1 -c -C
	check tcp_crr_v0 "${H4[@]}" -t TCP_CRR -l 1 -v 0
	check tcp_crr_v2 "${H4[@]}" -t TCP_CRR -l 1 -v 2
}
cases
bg_wait
phase=check
cases
finish
