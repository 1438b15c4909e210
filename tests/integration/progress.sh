#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Issue 29: the live progress line. In a real terminal (a tmux pane) a client run of 3 s
# and `iq bench` show one line on stderr while they run, redrawn in place, and erased
# before the results; iq bench prints each size's row when that size is done. A pipe or a
# file never gets a byte of it, and --quiet and -P 0 turn it off on a terminal too.
source "$(dirname "$0")/../lib.sh"
T=$WS_TMP
if ! command -v tmux >/dev/null; then
	skip progress_tmux "tmux is not installed (apt-get install tmux)"
	finish
fi
SOCK="ws-progress-$$"
tm() { tmux -L "$SOCK" "$@"; }
trap 'tm kill-server 2>/dev/null; ws_cleanup' EXIT

# run_pane NAME CMD: runs CMD in a fresh 160x40 pane and captures it every 0.2 s until CMD
# has ended (it then prints the marker), each capture in $T/NAME.cap.N; the last is
# $T/NAME.end. Fails (returns 1) when CMD takes over 60 s.
run_pane() {
	local name=$1 cmd=$2 i=0
	tm kill-server 2>/dev/null
	tm -f /dev/null new-session -d -x 160 -y 40 "bash --norc --noprofile" || return 1
	tm send-keys "cd '$T' && $cmd; echo WS-DONE-\$?" Enter
	while [ $i -lt 300 ]; do
		sleep 0.2
		i=$((i + 1))
		tm capture-pane -p >"$T/$name.cap.$i"
		if grep -qE '^WS-DONE-[0-9]+$' "$T/$name.cap.$i"; then
			cp "$T/$name.cap.$i" "$T/$name.end"
			tm kill-server 2>/dev/null
			return 0
		fi
	done
	tm kill-server 2>/dev/null
	return 1
}
# seen NAME REGEX: some capture of NAME before the end matches REGEX
seen() { cat "$T/$1".cap.* | grep -qE "$2"; }

start_daemon || {
	fail progress_daemon "no daemon"
	finish
}

# A 3 s TCP_RR: mid-run the line, at the end gone.
line='^TCP_RR [0-9.]+/3 s  [0-9]+ trans/s$'
if run_pane rr "'$WS_BIN' -t TCP_RR -l 3 -H 127.0.0.1 -p $DAEMON_PORT" &&
	grep -q '^WS-DONE-0$' "$T/rr.end" && seen rr "$line" &&
	! grep -qE 'trans/s$' "$T/rr.end" && grep -qE '^16384 +131072 +1 +1 +[23]\.[0-9][0-9] ' "$T/rr.end"; then
	pass progress_tmux_rr
else
	fail progress_tmux_rr "no progress line mid-run or one left at the end: $(cat "$T/rr.end" 2>/dev/null)"
fi

# A stream test shows its rate in -f's units.
if run_pane st "'$WS_BIN' -t TCP_STREAM -l 3 -H 127.0.0.1 -p $DAEMON_PORT -f g" &&
	seen st '^TCP_STREAM [0-9.]+/3 s  [0-9.]+ 10\^9bits/s$' && ! grep -q 'bits/s$' "$T/st.end"; then
	pass progress_tmux_stream
else
	fail progress_tmux_stream "$(cat "$T/st.end" 2>/dev/null)"
fi

# iq bench: the progress line, and the first size's row before the second's.
if run_pane iq "'$WS_BIN' iq bench --trials 6 --samples 32768,16777216" &&
	grep -q '^WS-DONE-0$' "$T/iq.end" && seen iq '^iq bench: [0-9]+ samples \(size [12]/2\)' &&
	! grep -q '^iq bench:' "$T/iq.end" &&
	for c in "$T"/iq.cap.*; do
		grep -q '|       32768 |' "$c" && ! grep -q '|    16777216 |' "$c" && break
	done && [ -n "${c:-}" ] && grep -q '|       32768 |' "$c" && ! grep -q '|    16777216 |' "$c"; then
	pass progress_tmux_iq_bench
else
	fail progress_tmux_iq_bench "$(cat "$T/iq.end" 2>/dev/null)"
fi

# Off on a terminal with --quiet and with -P 0 (and -P 0's row still comes).
if run_pane q "'$WS_BIN' -t TCP_RR -l 3 -H 127.0.0.1 -p $DAEMON_PORT --quiet" && ! seen q 'trans/s$' &&
	run_pane p0 "'$WS_BIN' -t TCP_RR -l 3 -H 127.0.0.1 -p $DAEMON_PORT -P 0" && ! seen p0 'trans/s$' &&
	grep -qE '^16384 +131072 +1 +1 +[23]\.[0-9][0-9] ' "$T/p0.end"; then
	pass progress_tmux_off
else
	fail progress_tmux_off "a progress line with --quiet or -P 0"
fi

# A pipe and a file get no progress bytes (no carriage return, no escape), even when the
# run is on a terminal: stdout into a pipe, stderr into a file.
if run_pane pipe "'$WS_BIN' -t TCP_RR -l 3 -H 127.0.0.1 -p $DAEMON_PORT 2>'$T/err.txt' | cat >'$T/out.txt'" &&
	[ -s "$T/out.txt" ] && ! grep -q $'[\r\033]' "$T/out.txt" "$T/err.txt" &&
	! seen pipe 'trans/s$'; then
	pass progress_pipe
else
	fail progress_pipe "progress bytes reached a pipe or a file: $(od -c "$T/err.txt" | head -5)"
fi
finish
