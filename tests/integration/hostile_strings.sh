# SPDX-License-Identifier: BSD-2-Clause
# A peer's strings cannot break our output (issue 27, D11): before, a netserver whose
# results named the congestion control "b<ESC>[31m<BEL><LF>"x,y" had it printed as it came
# by `-- -o REMOTE_CONG_CONTROL`: the escape reached the terminal and the newline and comma
# broke the CSV. Every string from a peer is now cleaned where it is decoded: bytes that
# are not printable ASCII, and , " \ in values, become '?'. (netperf 2.7.0 prints such
# strings as they are and quotes only its own COMMAND_LINE, so values carry no comma.)
# A fake netserver serves -o, -O, -k and the classic -v 2 output (which shows no remote
# congestion control, so it only guards). About 2 s.
source "$(dirname "$0")/../lib.sh"
PEER="$(dirname "$0")/hostile_peer.py"

python3 "$PEER" evil-netserver 4 >"$WS_TMP/evil.port" 2>&1 &
WS_PIDS+=($!)
port=
for _ in $(seq 1 100); do port=$(head -n 1 "$WS_TMP/evil.port"); [ -n "$port" ] && break; sleep 0.05; done
clean="b?[31m???x?y" # ESC, BEL, LF, " and , each one ?
ws() { timeout 20 "$WS_BIN" -H 127.0.0.1 -p "$port" --peer netserver -l -100000 "$@"; }

check() { # NAME FILE LINES GREP
	local f=$2 bad
	bad=$(LC_ALL=C grep -c $'[\x01-\x08\x0b-\x1f\x7f]' "$f")
	if [ "$bad" -eq 0 ] && [ "$(wc -l <"$f")" -eq "$3" ] && grep -qF -- "$4" "$f"
	then pass "$1"; else fail "$1" "$(cat -A "$f")"; fi
}
ws -P 0 -- -o REMOTE_CONG_CONTROL,THROUGHPUT >"$WS_TMP/o.out" 2>&1
check csv_one_line_two_fields "$WS_TMP/o.out" 1 "$clean,"
if [ "$(awk -F, '{print NF}' "$WS_TMP/o.out")" = 2 ]; then pass csv_two_fields
else fail csv_two_fields "$(cat -A "$WS_TMP/o.out")"; fi
ws -P 0 -- -O REMOTE_CONG_CONTROL,THROUGHPUT >"$WS_TMP/O.out" 2>&1
check columns_one_line "$WS_TMP/O.out" 1 "$clean"
ws -P 0 -- -k REMOTE_CONG_CONTROL,THROUGHPUT >"$WS_TMP/k.out" 2>&1
check keyval_two_lines "$WS_TMP/k.out" 2 "REMOTE_CONG_CONTROL=$clean"
ws -v 2 >"$WS_TMP/v2.out" 2>&1
if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$WS_TMP/v2.out" # the classic table (a guard)
then fail classic_v2_clean "$(cat -A "$WS_TMP/v2.out")"; else pass classic_v2_clean; fi
finish
