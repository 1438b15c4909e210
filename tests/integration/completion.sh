#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# completion: the bash completion (packaging/bash-completion/warpspeed), sourced as is with
# no bash-completion package, and its function called as bash calls it (COMP_WORDS,
# COMP_CWORD). Every option each usage text names completes in its place (warpspeed -h:
# the global ones before --, the test ones after; each role's and iq command's -h;
# netperf's and netserver's under those names); every role and iq command completes as
# its word; -t completes the test table's names; options taking a file, a chart kind or
# a peer complete those; and every option offered is one its parser accepts (no "unknown
# option" when it is given), so the completion and the parsers cannot drift apart.
source "$(dirname "$0")/../lib.sh"
: "${WS_ROOT:?WS_ROOT must point at the source tree}"
T=$WS_TMP
mkdir -p "$T/bin" "$T/files"
for n in warpspeed netperf netserver; do ln -s "$WS_BIN" "$T/bin/$n"; done
PATH=$T/bin:$PATH
# shellcheck source=packaging/bash-completion/warpspeed
source "$WS_ROOT/packaging/bash-completion/warpspeed"

# COMPREPLY for the words given (the last is the one completed), one per line.
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	_warpspeed
	((${#COMPREPLY[@]} == 0)) || printf '%s\n' "${COMPREPLY[@]}"
}

# The options a usage text names: the option column of its option lines (a line that
# starts with one, up to the first gap of two spaces; not one marked refused), and the
# words of its synopsis after "warpspeed ROLE". With a section title, only the lines
# between that title and the next blank line; with -v, all lines but those.
usage_opts() { # FILE [TITLE [-v]]
	awk -v title="${2:-}" -v invert="${3:-}" '
		title != "" { if ($0 == title) { inside = 1; next } if ($0 == "") inside = 0
			if ((invert == "") != (inside == 1)) next }
		/refused/ { next }
		/^ +-/ { col = $0; sub(/^ +/, "", col); sub(/  .*/, "", col); print " " col; next }
		/^[Uu]sage:/ || /^ +\[/ { line = $0; sub(/.*warpspeed/, "", line); print line }' "$1" |
		grep -oE '(^|[][ ,/])--?[A-Za-z0-9][A-Za-z0-9-]*' | sed 's/^[^-]*//' | sort -u
}

# check_opts NAME PREFIX-WORDS... :: OPTIONS...: each option completes after the prefix.
check_opts() {
	local name=$1 pre=() missing= o
	shift
	while [ "$1" != :: ]; do pre+=("$1"); shift; done
	shift
	[ $# -gt 0 ] || { fail "$name" "no options found in the usage text"; return; }
	comp "${pre[@]}" - >"$T/offered" # every option starts with -
	local -A offered=()
	while IFS= read -r o; do [ -n "$o" ] && offered[$o]=1; done <"$T/offered"
	for o in "$@"; do
		[ -n "${offered[$o]:-}" ] || missing="$missing $o"
	done
	# and the word itself completes to itself
	[ "$(comp "${pre[@]}" "$1" | grep -cxF -- "$1")" = 1 ] || missing="$missing ($1 alone)"
	[ -z "$missing" ] && pass "$name ($# options)" || fail "$name" "do not complete:$missing"
}

# --- every option of every usage text ------------------------------------------------------
"$WS_BIN" -h >"$T/main.txt"
mapfile -t g < <(usage_opts "$T/main.txt" "Test options (after --):" -v)
mapfile -t t < <(usage_opts "$T/main.txt" "Test options (after --):")
check_opts completion_client_global warpspeed :: "${g[@]}"
check_opts completion_client_test warpspeed -l 1 -- :: "${t[@]}"
for role in serve node mesh plot compare; do
	"$WS_BIN" "$role" -h >"$T/$role.txt" 2>&1
	mapfile -t o < <(usage_opts "$T/$role.txt")
	check_opts "completion_$role" warpspeed "$role" :: "${o[@]}"
done
for cmd in info ping read write trigger bench; do
	"$WS_BIN" iq "$cmd" -h >"$T/iq-$cmd.txt" 2>&1
	mapfile -t o < <(usage_opts "$T/iq-$cmd.txt")
	check_opts "completion_iq_$cmd" warpspeed iq "$cmd" 127.0.0.1 :: "${o[@]}"
done
netperf -h 2>"$T/netperf.txt"
mapfile -t g < <(usage_opts "$T/netperf.txt" "Test options (after --):" -v)
mapfile -t t < <(usage_opts "$T/netperf.txt" "Test options (after --):")
check_opts completion_netperf_global netperf :: "${g[@]}"
check_opts completion_netperf_test netperf -- :: "${t[@]}"
netserver -h >"$T/netserver.txt" 2>&1
mapfile -t o < <(usage_opts "$T/netserver.txt")
check_opts completion_netserver netserver :: "${o[@]}"

# netperf's completion is netperf's: no roles, no --name options.
got=$(comp netperf ""; comp netperf --)
[ -z "$got" ] && pass completion_netperf_no_roles || fail completion_netperf_no_roles "offered: $got"

# --- roles and iq commands, as the usage texts name them ---------------------------------------
roles=$(sed -nE 's/^ +warpspeed ([a-z]+).*/\1/p' "$T/main.txt" | sort -u | tr '\n' ' ')
got=$(comp warpspeed "" | sort | tr '\n' ' ')
[ -n "$roles" ] && [ "$got" = "$roles" ] && pass completion_roles ||
	fail completion_roles "usage names [$roles], completed [$got]"
cmds=$(sed -nE 's/^ +warpspeed iq ([a-z|]+) .*/\1/p' "$T/main.txt" | tr '|' '\n' | sort | tr '\n' ' ')
got=$(comp warpspeed iq "" | sort | tr '\n' ' ')
[ -n "$cmds" ] && [ "$got" = "$cmds" ] && pass completion_iq_commands ||
	fail completion_iq_commands "usage names [$cmds], completed [$got]"

# --- values: tests, files, fixed words ---------------------------------------------------------
tests=$("$WS_BIN" -V | sed -n 's/^tests: //p')
want=$(printf '%s\n' $tests | grep '^T' | tr '\n' ' ')
got=$(comp warpspeed -t T | tr '\n' ' ')
[ -n "$want" ] && [ "$got" = "$want" ] && case " $got" in *" TCP_RR "*) true ;; *) false ;; esac &&
	pass "completion_test_names ($got)" || fail completion_test_names "-t T: [$got], the table's T*: [$want]"
got=$(comp warpspeed -P 0 -t "" | tr '\n' ' ')
[ "$got" = "$(printf '%s ' $tests omni)" ] && pass completion_test_names_all ||
	fail completion_test_names_all "-t: [$got]"
got=$(comp warpspeed -l 1 -t tcp_c | tr '\n' ' ')
[ "$got" = "TCP_CRR TCP_CC " ] && pass completion_test_names_any_case ||
	fail completion_test_names_any_case "-t tcp_c: [$got]"
got=$(comp warpspeed -tUDP_S)
[ "$got" = -tUDP_STREAM ] && pass completion_test_attached || fail completion_test_attached "-tUDP_S: [$got]"
got=$(comp warpspeed -- -t d)
[ "$got" = dgram ] && pass completion_test_option_t || fail completion_test_option_t "-- -t d: [$got]"

: >"$T/files/result.json"
: >"$T/files/run.sigmf-meta"
got=$(comp warpspeed --json-file "$T/files/res")
[ "$got" = "$T/files/result.json" ] && pass completion_file_json_file || fail completion_file_json_file "[$got]"
got=$(comp warpspeed iq read 127.0.0.1 : 9000 -o "$T/files/ru")
[ "$got" = "$T/files/run.sigmf-meta" ] && pass completion_file_iq_read_o || fail completion_file_iq_read_o "[$got]"
got=$(comp warpspeed plot "$T/files/r" | sort | tr '\n' ' ')
[ "$got" = "$T/files/result.json $T/files/run.sigmf-meta " ] && pass completion_file_plot_input ||
	fail completion_file_plot_input "[$got]"
got=$(comp warpspeed -F "$T/files/result.j")
[ "$got" = "$T/files/result.json" ] && pass completion_file_fill || fail completion_file_fill "[$got]"
got=$(comp warpspeed --svg-chart = h)
[ "$got" = histogram ] && pass completion_svg_chart_equals || fail completion_svg_chart_equals "[$got]"
got=$(comp warpspeed --peer n)
[ "$got" = netserver ] && pass completion_peer || fail completion_peer "[$got]"
got=$(comp warpspeed iq bench --format c | tr '\n' ' ')
[ "$got" = "ci16 cf32 " ] && pass completion_iq_format || fail completion_iq_format "[$got]"
got=$(comp warpspeed serve --max-s | sort | tr '\n' ' ')
[ "$got" = "--max-sessions --max-sessions-per-addr --max-streams " ] && pass completion_serve_prefix ||
	fail completion_serve_prefix "[$got]"

# A stock netperf is never run to complete its line: only a netperf that is warpspeed.
mkdir -p "$T/other"
printf '#!/bin/sh\necho ran >"%s/ran"\n' "$T" >"$T/other/netperf"
chmod +x "$T/other/netperf"
got=$(PATH=$T/other:$PATH comp netperf -)
[ -z "$got" ] && [ ! -e "$T/ran" ] && pass completion_foreign_netperf ||
	fail completion_foreign_netperf "completed [$got]; ran: $(cat "$T/ran" 2>/dev/null)"

# --- every option offered is accepted by its parser ---------------------------------------------
# Each offered option is given (with the value 1 when its form says it takes one) before -h,
# and the parser must not call it unknown (a bad value is fine: it was recognised). After
# --, -h is not a test option: the client's -h comes first there.
ACC_TAIL=(-h)
# Wall time: some 400 runs of a few milliseconds each, so two run at a time (each has its
# own stderr file) and their stderr is matched in the shell, not by a grep apiece.
UNKNOWN='unknown (test )?option|is unknown'
accepts() { # NAME COMPLETE-WORDS... -- RUN-PREFIX...
	local name=$1 cw=() bad= o form e i=0 k running=0 opts=()
	shift
	while [ "$1" != -- ]; do cw+=("$1"); shift; done
	shift
	while IFS=$'\t' read -r o form; do
		[ "$o" = -h ] || [ "$o" = --help ] || [ "$o" = -V ] && continue
		local args=("$o")
		[ -n "$form" ] && args+=(1)
		opts[i]=$o
		timeout 10 "$@" "${args[@]}" "${ACC_TAIL[@]}" >/dev/null 2>"$T/acc.$i.err" </dev/null &
		i=$((i + 1))
		if ((++running >= 2)); then wait -n; running=$((running - 1)); fi
	done < <("$WS_BIN" __complete "${cw[@]}" -)
	wait
	for ((k = 0; k < i; k++)); do
		e=
		read -r -d '' e <"$T/acc.$k.err"
		[[ $e =~ $UNKNOWN ]] && bad="$bad ${opts[k]}"
	done
	rm -f "$T"/acc.*.err
	[ -z "$bad" ] && pass "$name" || fail "$name" "offered but refused as unknown:$bad"
}
accepts completion_accepted_client warpspeed -- "$WS_BIN"
ACC_TAIL=()
accepts completion_accepted_client_test warpspeed -- -- "$WS_BIN" -h --
ACC_TAIL=(-h)
for role in serve node plot compare; do
	accepts "completion_accepted_$role" warpspeed "$role" -- "$WS_BIN" "$role"
done
for cmd in info ping read write trigger bench; do
	accepts "completion_accepted_iq_$cmd" warpspeed iq "$cmd" -- "$WS_BIN" iq "$cmd"
done
accepts completion_accepted_netserver netserver -- netserver
accepts completion_accepted_netperf netperf -- netperf
finish
