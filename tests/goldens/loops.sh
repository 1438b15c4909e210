# SPDX-License-Identifier: BSD-2-Clause
# loops.sh: the loop that benchmark scripts run around netperf, written once for the capture
# (capture-loops.sh, against netperf 2.7.0) and the test (tests/integration/script_loops.sh,
# against warpspeed as `netperf`), so that both run the very same command lines. As scripts
# do: the CPU rates first (-t LOC_CPU, -t REM_CPU, their figure passed back as -c RATE -C
# RATE), then tests x message sizes x socket buffers with -i/-I confidence (TCP_STREAM,
# TCP_RR) and UDP_STREAM x sizes, the banner and headers on the first line of each test and
# -P 0 on the rest. Counts (-l -N) instead of seconds keep it short where netperf ends on one. Sourced; it defines one function:
#   run_loops BINARY PORT OUTDIR   writes OUTDIR/cases (name, arguments with @P@ @LOC@ @REM@
#       for the port and the rates, "-": grammar.py's case format) and per line
#       OUTDIR/NAME.out .err .rc, for `grammar.py summarize OUTDIR/cases OUTDIR`.
LOOPS_LOC= LOOPS_REM=
loops_one() { # loops_one BINARY PORT OUTDIR NAME ARGS (with placeholders)
	local bin=$1 port=$2 dir=$3 name=$4 args=$5 run rc
	run=${args//@P@/$port}
	run=${run//@LOC@/$LOOPS_LOC}
	run=${run//@REM@/$LOOPS_REM}
	printf '%s\t%s\t-\n' "$name" "$args" >>"$dir/cases"
	# shellcheck disable=SC2086 # the arguments are words, as a script writes them
	timeout 30 "$bin" $run </dev/null >"$dir/$name.out" 2>"$dir/$name.err"
	rc=$?
	echo "$rc" >"$dir/$name.rc"
}

run_loops() {
	local bin=$1 port=$2 dir=$3 hp="-H 127.0.0.1 -p @P@" t size buf first len sz
	: >"$dir/cases"
	loops_one "$bin" "$port" "$dir" loc_cpu "$hp -t LOC_CPU -P 0 -v 0"
	loops_one "$bin" "$port" "$dir" rem_cpu "$hp -t REM_CPU -P 0 -v 0"
	LOOPS_LOC=$(awk 'NF { print $1; exit }' "$dir/loc_cpu.out")
	LOOPS_REM=$(awk 'NF { print $1; exit }' "$dir/rem_cpu.out")
	for t in TCP_STREAM TCP_RR; do
		first=1
		for size in 64 1024; do
			for buf in 65536 131072; do
				case $t in
				TCP_RR) len=-200 sz="-r $size,$size" ;;
				*) len=-262144 sz="-m $size" ;;
				esac
				loops_one "$bin" "$port" "$dir" "loop_${t}_${size}_$buf" \
					"$hp -t $t -l $len -i 3,2 -I 99,10 -c @LOC@ -C @REM@ -P $first -- -s $buf -S $buf $sz"
				first=0
			done
		done
	done
	# UDP_STREAM by time: a byte count waits for datagrams that were lost (netperf hangs)
	first=1
	for size in 64 1024; do
		loops_one "$bin" "$port" "$dir" "loop_UDP_STREAM_$size" \
			"$hp -t UDP_STREAM -l 1 -c @LOC@ -C @REM@ -P $first -- -s 131072 -S 131072 -m $size"
		first=0
	done
}
