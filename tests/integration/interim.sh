# SPDX-License-Identifier: BSD-2-Clause
# -D interim results against a real `warpspeed serve` on loopback: the lines' form and
# place as netperf 2.7.0 prints them (tests/goldens/netperf/*_demo*.txt: the banner, then
# one line per interval while the test runs, then the table or the selected values), their
# count for -D 0.5 -l 2 (3 or 4), plausible figures (positive but one, their mean near the final
# throughput), intervals that add up to the test's length, epochs in order and near now;
# the -k groups (NETPERF_INTERIM_RESULT[n] ... from 0) and -o's CSV lines before the final
# keys; RR tests in Trans/s (TCP_RR, UDP_RR, TCP_CRR, several RR flows); -P 0; netperf's negative interval; --streams per-stream lines
# at -v 2; and no -D note on stderr.
source "$(dirname "$0")/../lib.sh"
: "${WS_ROOT:?WS_ROOT must point at the source tree}"
G=$WS_ROOT/tests/goldens/netperf
start_daemon || { fail daemon_start "could not start warpspeed serve"; finish; }
P=$DAEMON_PORT
NUM='[0-9]+\.[0-9]{2}'
END='[0-9]+\.[0-9]{3}'

# The runs go side by side against the one daemon, two at a time (bg_run: 13 s instead of
# 21 on a loaded 2-vCPU host; three at a time stalled one run's timer by 0.4 s there), and
# are checked once all have ended. start NAME ARGS...: starts the client with ARGS (its
# stdout in $WS_TMP/NAME.out).
WS_JOBS=2
start() {
	local name=$1
	shift
	bg_run "$name" "$WS_BIN" -H 127.0.0.1 -p "$P" "$@"
}
start stream -t TCP_STREAM -l 2 -D 0.5
start stream_fk -t TCP_STREAM -l 1 -D 0.3 -f k
start stream_neg -t TCP_STREAM -l 1 -D -0.25
start maerts -t TCP_MAERTS -l 1 -D 0.3
start udp -t UDP_STREAM -l 1 -D 0.3 -- -m 1472
for t in TCP_RR UDP_RR; do ws_served interim "$t" && start "${t,,}" -t "$t" -l 2 -D 0.5; done
ws_served interim TCP_CRR && start tcp_crr -t TCP_CRR -l 1 -D 0.3
start rr_streams -t TCP_RR -l 1 -D 0.3 --streams 2 -v 2
start keyval -t TCP_STREAM -l 2 -D 0.5 -- -k THROUGHPUT,THROUGHPUT_UNITS
start csv -t TCP_STREAM -l 1 -D 0.3 -- -o THROUGHPUT,THROUGHPUT_UNITS
start noheaders -t TCP_STREAM -l 1 -D 0.3 -P 0
start streams -t TCP_STREAM -l 1 -D 0.3 -v 2 --streams 2
start streams_v1 -t TCP_STREAM -l 1 -D 0.3 --streams 2
bg_wait

# run NAME: true when run NAME (started above) left its stdout in $WS_TMP/NAME.out; false
# (after a FAIL) when it failed or said anything about -D on stderr (the CPU-bound notice
# and UDP loss may stay).
run() {
	local name=$1 rc
	rc=$(cat "$WS_TMP/$name.rc")
	[ "$rc" -eq 0 ] || { fail "$name" "exit $rc: $(cat "$WS_TMP/$name.err")"; return 1; }
	grep -qiE 'interim|-D|not implemented' "$WS_TMP/$name.err" && { fail "$name" "stderr: $(cat "$WS_TMP/$name.err")"; return 1; }
	return 0
}

# golden_banner NAME: netperf's banner with the one documented substitution.
golden_banner() { sed -E -n '1s/127\.0\.0\.1 \(\)/127.0.0.1 (127.0.0.1)/p' "$G/$1.txt"; }

# check_lines NAME UNITS MIN MAX SECS FIGURE: the interim lines of NAME.out (classic form):
# MIN..MAX of them, in UNITS, intervals adding up to SECS (+-10%), epochs ascending and
# within a minute of now, figures positive (one may be 0: a loaded machine can stall the
# peer for an interval, or leave a sliver of a last one) with a mean within 3x of FIGURE.
check_lines() {
	local name=$1 units=$2 min=$3 max=$4 secs=$5 figure=$6 f=$WS_TMP/$1.out
	local n bad
	n=$(grep -c '^Interim result:' "$f")
	bad=$(grep '^Interim result:' "$f" | grep -Evc "^Interim result: +$NUM ${units//^/\\^}/s over $END seconds ending at $END\$")
	[ "$bad" -eq 0 ] || { fail "$name" "$bad interim lines not in netperf's form: $(grep -m3 '^Interim' "$f")"; return 1; }
	[ "$n" -ge "$min" ] && [ "$n" -le "$max" ] ||
		{ fail "$name" "$n interim lines, want $min to $max: $(cat "$f")"; return 1; }
	grep '^Interim result:' "$f" | awk -v secs="$secs" -v fig="$figure" -v now="$(date +%s)" '
		{ v = $3; iv = $6; e = $10; sum += iv; tot += v; n++
		  if (v < 0) { print "figure " v " negative"; bad = 1 }
		  if (v > 0) pos++
		  if (e < last) { print "ending " e " before " last; bad = 1 }
		  if (e < now - 60 || e > now + 60) { print "ending " e " far from now " now; bad = 1 }
		  last = e }
		END {
		  if (sum < secs * 0.9 || sum > secs * 1.1) { print "intervals add up to " sum " s, want " secs; bad = 1 }
		  if (pos < n - 1) { print n - pos " intervals moved nothing"; bad = 1 }
		  m = tot / n
		  if (fig > 0 && (m < fig / 3 || m > fig * 3)) { print "mean figure " m " far from the final " fig; bad = 1 }
		  exit bad }' >"$WS_TMP/$name.why" ||
		{ fail "$name" "$(cat "$WS_TMP/$name.why"): $(cat "$f")"; return 1; }
	return 0
}

# stream: -D 0.5 -l 2, as tests/goldens/netperf/tcp_stream_demo.txt
if run stream; then
	f=$WS_TMP/stream.out
	fig=$(last_row_field "$f" 5)
	if [ "$(head -1 "$f")" != "$(golden_banner tcp_stream_demo)" ]; then
		fail stream "banner [$(head -1 "$f")], netperf's [$(golden_banner tcp_stream_demo)]"
	elif ! sed -n '2p' "$f" | grep -q '^Interim result:'; then
		fail stream "line 2 is not an interim line: $(cat "$f")"
	elif [ "$(grep -vc '^Interim result:' "$f")" -ne "$(grep -vc '^Interim result:' "$G/tcp_stream_demo.txt")" ]; then
		fail stream "the lines other than the interim ones differ in number from netperf's: $(cat "$f")"
	elif check_lines stream 10^6bits 3 4 2 "$fig"; then
		pass stream
	fi
fi

# -f k: the units follow -f, as tcp_stream_demo_fk.txt
if run stream_fk; then
	check_lines stream_fk 10^3bits 2 4 1 "$(last_row_field "$WS_TMP/stream_fk.out" 5)" && pass stream_fk
fi

# netperf's negative interval (precise timing): the same lines
if run stream_neg; then
	check_lines stream_neg 10^6bits 3 4 1 "$(last_row_field "$WS_TMP/stream_neg.out" 5)" && pass stream_neg
fi

# TCP_MAERTS (the client receives) and UDP_STREAM
if run maerts; then
	check_lines maerts 10^6bits 2 4 1 "$(last_row_field "$WS_TMP/maerts.out" 5)" && pass maerts
fi
if run udp; then
	f=$WS_TMP/udp.out
	check_lines udp 10^6bits 2 4 1 "$(grep -E '^[0-9]+ +1472 ' "$f" | awk '{print $6}')" && pass udp
fi

# RR: Trans/s, as tcp_rr_demo.txt / udp_rr_demo.txt
for t in TCP_RR UDP_RR; do
	n=${t,,}
	ws_served interim "$t" || continue
	if run "$n"; then
		f=$WS_TMP/$n.out
		fig=$(awk 'NF == 6 && $1 ~ /^[0-9]+$/ {print $6; exit}' "$f")
		if [ "$(head -1 "$f")" != "$(golden_banner "${n}_demo")" ]; then
			fail "$n" "banner [$(head -1 "$f")], netperf's [$(golden_banner "${n}_demo")]"
		elif check_lines "$n" Trans 3 4 2 "$fig"; then
			pass "$n"
		fi
	fi
done

# TCP_CRR, and RR over several flows (the epoll engine): Trans/s, per stream at -v 2
if ws_served interim TCP_CRR && run tcp_crr; then
	check_lines tcp_crr Trans 2 4 1 "$(awk 'NF == 6 && $1 ~ /^[0-9]+$/ {print $6; exit}' "$WS_TMP/tcp_crr.out")" &&
		pass tcp_crr
fi
if run rr_streams; then
	f=$WS_TMP/rr_streams.out
	n0=$(grep -Ec "^Interim result, stream 0: +$NUM Trans/s over $END seconds ending at $END\$" "$f")
	n1=$(grep -c '^Interim result, stream 1:' "$f")
	na=$(grep -c '^Interim result:' "$f")
	{ [ "$na" -ge 2 ] && [ "$n0" -eq "$na" ] && [ "$n1" -eq "$na" ]; } && pass rr_streams ||
		fail rr_streams "$na aggregate, $n0 and $n1 stream lines: $(cat "$f")"
fi

# -k: groups of four keys numbered from 0, then the selected keys (tcp_stream_demo_k.txt)
if run keyval; then
	f=$WS_TMP/keyval.out
	why=$(awk -v banner="$(golden_banner tcp_stream_demo_k)" '
		NR == 1 { if ($0 != banner) { print "banner [" $0 "]"; exit 1 }; next }
		/^NETPERF_/ { want = sprintf("%s[%d]=", k[q % 4], int(q / 4))
			if (index($0, want) != 1) { print "line " NR " [" $0 "], want " want "..."; exit 1 }
			v = substr($0, length(want) + 1)
			if (q % 4 == 0 && v !~ /^[0-9]+\.[0-9][0-9]$/) { print "result [" v "]"; exit 1 }
			if (q % 4 == 1 && v != "10^6bits/s") { print "units [" v "]"; exit 1 }
			if (q % 4 >= 2 && v !~ /^[0-9]+\.[0-9][0-9][0-9]$/) { print "[" $0 "]"; exit 1 }
			q++; next }
		{ rest = rest $0 "|" }
		END { if (q < 12 || q > 16 || q % 4) { print q " interim keys, want 3 or 4 groups of 4"; exit 1 }
		      if (rest !~ /^THROUGHPUT=[0-9]+\.[0-9][0-9]\|THROUGHPUT_UNITS=10\^6bits\/s\|$/) { print "final keys [" rest "]"; exit 1 } }
		BEGIN { k[0] = "NETPERF_INTERIM_RESULT"; k[1] = "NETPERF_UNITS"; k[2] = "NETPERF_INTERVAL"; k[3] = "NETPERF_ENDING" }
		' "$f") && pass keyval || fail keyval "$why: $(cat "$f")"
fi

# -o: CSV interim lines before the header and the values (tcp_stream_demo_o.txt)
if run csv; then
	f=$WS_TMP/csv.out
	n=$(grep -Ec "^ *$NUM,10\^6bits/s,$END,$END\$" "$f")
	if [ "$(sed -n 1p "$f")" != "$(golden_banner tcp_stream_demo_o)" ]; then
		fail csv "banner [$(sed -n 1p "$f")]"
	elif [ "$n" -lt 2 ] || [ "$n" -gt 4 ] || [ "$(wc -l <"$f")" -ne $((n + 3)) ] ||
		[ "$(sed -n "$((n + 2))p" "$f")" != "Throughput,Throughput Units" ]; then
		fail csv "$n CSV interim lines, then not netperf's header and values: $(cat "$f")"
	else
		pass csv
	fi
fi

# -P 0: no banner, the interim lines first
if run noheaders; then
	sed -n 1p "$WS_TMP/noheaders.out" | grep -q '^Interim result:' && pass noheaders ||
		fail noheaders "first line is not an interim line: $(cat "$WS_TMP/noheaders.out")"
fi

# --streams 2 -v 2: each aggregate line, then one per stream adding up to it
if run streams; then
	f=$WS_TMP/streams.out
	why=$(awk '
		/^Interim result:/ { if (n > 0 && s != 2) { print "aggregate at line " NR " after " s " stream lines"; exit 1 }
			agg = $3; s = 0; sum = 0; n++; next }
		/^Interim result, stream [01]:/ { s++; sum += $5
			if ($4 != (s - 1) ":") { print "stream line [" $0 "] out of order"; exit 1 }
			if (s == 2 && (sum - agg > 0.02 || agg - sum > 0.02)) { print "streams add up to " sum ", aggregate " agg; exit 1 } }
		END { if (n < 2 || s != 2) { print n " aggregate lines, " s " stream lines after the last"; exit 1 } }' "$f") &&
		pass streams || fail streams "$why: $(cat "$f")"
	# without -v 2, the aggregate alone
	if run streams_v1; then
		grep -q 'stream [0-9]:' "$WS_TMP/streams_v1.out" && fail streams_v1 "stream lines at -v 1" ||
			check_lines streams_v1 10^6bits 2 4 1 0 && pass streams_v1
	fi
fi

finish
