#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Captures reference outputs ("goldens") from the real netperf 2.7.0 so that warpspeed's
# netperf-compatible client can later be compared against what netperf really prints.
# It starts its own netserver on free loopback ports (127.0.0.1 and ::1 only), runs the
# table of command lines below, one per line, and writes each stdout to
# netperf/<name>.txt, stderr to netperf/<name>.err (only when netperf wrote to stderr),
# and one line per command to netperf/MANIFEST (name, exact command line, exit status).
# Rerunnable: same names, same layout; the figures differ run to run.
# Usage: tests/goldens/capture-netperf.sh [OUTDIR]   (default: next to this script)
# CAPTURE_ONLY='name|name2' (an extended regex of names) runs only those cases; use it with
# a temporary OUTDIR and copy the new files and their MANIFEST lines over.
set -u
set -f                                  # the table holds no globs; keep '?' and ',' literal

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/netperf}
PER_CMD_TIMEOUT=${PER_CMD_TIMEOUT:-40}
me=capture-netperf
# shellcheck source=tests/goldens/capture-lib.sh
. "$here/capture-lib.sh"

P4=$(free_port 22865)
start_netserver "$P4" 127.0.0.1,inet
P6=$(free_port $((P4 + 1)))
start_netserver "$P6" ::1,inet6
CLOSED=$(free_port $((P6 + 1)))         # nothing listens here: the connection-refused case
DP1=$(free_port $((CLOSED + 1)))        # free data ports for the -- -P cases
DP2=$(free_port $((DP1 + 1))); DP3=$(free_port $((DP2 + 1)))
DP4=$(free_port $((DP3 + 1))); DP5=$(free_port $((DP4 + 1)))

# The table: name<TAB>arguments after "netperf". @H4@ / @H6@ are the script's own
# netservers (IPv4 127.0.0.1 / IPv6 ::1), @CLOSED@ a loopback port nobody listens on,
# @DPn@ free data ports, @SEL@ the selection files in selectors/ beside this script (the
# commands run in this script's directory, so the MANIFEST holds a relative path).
TABLE=$(cat <<'TABLE_END'
tcp_rr	@H4@ -t TCP_RR -l 1
tcp_rr_cC	@H4@ -t TCP_RR -l 1 -c -C
tcp_rr_v2	@H4@ -t TCP_RR -l 1 -v 2
tcp_rr_P0	@H4@ -t TCP_RR -l 1 -P 0
tcp_rr_v0	@H4@ -t TCP_RR -l 1 -v 0
tcp_rr_P0_v0	@H4@ -t TCP_RR -l 1 -P 0 -v 0
tcp_rr_r64_1024	@H4@ -t TCP_RR -l 1 -- -r 64,1024
tcp_rr_burst4	@H4@ -t TCP_RR -l 1 -- -r 1,1 -b 4
tcp_rr_nodelay	@H4@ -t TCP_RR -l 1 -- -D
tcp_rr_count	@H4@ -t TCP_RR -l -1000
tcp_rr_fk	@H4@ -t TCP_RR -l 1 -f k
tcp_rr_fx	@H4@ -t TCP_RR -l 1 -f x
tcp_rr_4	@H4@ -4 -t TCP_RR -l 1
tcp_rr_6	@H6@ -t TCP_RR -l 1
tcp_rr_T00	@H4@ -t TCP_RR -l 1 -T 0,0
tcp_rr_j	@H4@ -t TCP_RR -l 1 -j
tcp_rr_o	@H4@ -t TCP_RR -l 1 -- -o
tcp_rr_O	@H4@ -t TCP_RR -l 1 -- -O
tcp_rr_k	@H4@ -t TCP_RR -l 1 -- -k
tcp_rr_j_o_lat	@H4@ -t TCP_RR -l 1 -j -- -o THROUGHPUT,THROUGHPUT_UNITS,P50_LATENCY,P90_LATENCY,P99_LATENCY,MEAN_LATENCY,STDDEV_LATENCY,MIN_LATENCY,MAX_LATENCY
tcp_rr_j_O_lat	@H4@ -t TCP_RR -l 1 -j -- -O THROUGHPUT,THROUGHPUT_UNITS,P50_LATENCY,P90_LATENCY,P99_LATENCY,MEAN_LATENCY,STDDEV_LATENCY,MIN_LATENCY,MAX_LATENCY
tcp_rr_j_k_lat	@H4@ -t TCP_RR -l 1 -j -- -k THROUGHPUT,THROUGHPUT_UNITS,P50_LATENCY,P90_LATENCY,P99_LATENCY,MEAN_LATENCY,STDDEV_LATENCY,MIN_LATENCY,MAX_LATENCY
tcp_rr_k_all	@H4@ -t TCP_RR -l 1 -- -k all
tcp_rr_O_all	@H4@ -t TCP_RR -l 1 -- -O all
tcp_rr_o_all	@H4@ -t TCP_RR -l 1 -- -o all
udp_rr	@H4@ -t UDP_RR -l 1
udp_rr_cC	@H4@ -t UDP_RR -l 1 -c -C
udp_rr_v2	@H4@ -t UDP_RR -l 1 -v 2
udp_rr_P0	@H4@ -t UDP_RR -l 1 -P 0
udp_rr_v0	@H4@ -t UDP_RR -l 1 -v 0
udp_rr_r64_1024	@H4@ -t UDP_RR -l 1 -- -r 64,1024
udp_rr_burst4	@H4@ -t UDP_RR -l 1 -- -r 1,1 -b 4
udp_rr_count	@H4@ -t UDP_RR -l -1000
udp_rr_fk	@H4@ -t UDP_RR -l 1 -f k
udp_rr_6	@H6@ -t UDP_RR -l 1
udp_rr_T00	@H4@ -t UDP_RR -l 1 -T 0,0
udp_rr_j_k_lat	@H4@ -t UDP_RR -l 1 -j -- -r 64,64 -k P50_LATENCY,P90_LATENCY,P99_LATENCY,MEAN_LATENCY,RT_LATENCY,TRANSACTION_RATE,REQUEST_SIZE,RESPONSE_SIZE
tcp_crr	@H4@ -t TCP_CRR -l 1
tcp_crr_cC	@H4@ -t TCP_CRR -l 1 -c -C
tcp_crr_v2	@H4@ -t TCP_CRR -l 1 -v 2
tcp_crr_P0	@H4@ -t TCP_CRR -l 1 -P 0
tcp_crr_v0	@H4@ -t TCP_CRR -l 1 -v 0
tcp_crr_r64_1024	@H4@ -t TCP_CRR -l 1 -- -r 64,1024
tcp_crr_nodelay	@H4@ -t TCP_CRR -l 1 -- -D
tcp_crr_count	@H4@ -t TCP_CRR -l -1000
tcp_crr_6	@H6@ -t TCP_CRR -l 1
tcp_crr_T00	@H4@ -t TCP_CRR -l 1 -T 0,0
tcp_stream	@H4@ -t TCP_STREAM -l 1
tcp_stream_cC	@H4@ -t TCP_STREAM -l 1 -c -C
tcp_stream_P0	@H4@ -t TCP_STREAM -l 1 -P 0
tcp_stream_v0	@H4@ -t TCP_STREAM -l 1 -v 0
tcp_stream_v2	@H4@ -t TCP_STREAM -l 1 -v 2
tcp_stream_fk	@H4@ -t TCP_STREAM -l 1 -f k
tcp_stream_fG	@H4@ -t TCP_STREAM -l 1 -f G
tcp_stream_conf	@H4@ -t TCP_STREAM -l 1 -i 3,2 -I 99,5
tcp_stream_demo	@H4@ -t TCP_STREAM -l 2 -D 0.5
tcp_stream_j	@H4@ -t TCP_STREAM -l 1 -j
tcp_stream_6	@H6@ -t TCP_STREAM -l 1
tcp_stream_T00	@H4@ -t TCP_STREAM -l 1 -T 0,0
tcp_stream_o	@H4@ -t TCP_STREAM -l 1 -- -o
tcp_stream_O	@H4@ -t TCP_STREAM -l 1 -- -O
tcp_stream_k	@H4@ -t TCP_STREAM -l 1 -- -k
tcp_maerts	@H4@ -t TCP_MAERTS -l 1
tcp_maerts_cC	@H4@ -t TCP_MAERTS -l 1 -c -C
tcp_maerts_P0	@H4@ -t TCP_MAERTS -l 1 -P 0
tcp_maerts_v2	@H4@ -t TCP_MAERTS -l 1 -v 2
tcp_maerts_conf	@H4@ -t TCP_MAERTS -l 1 -i 3,2 -I 99,5
tcp_maerts_demo	@H4@ -t TCP_MAERTS -l 2 -D 0.5
tcp_maerts_j	@H4@ -t TCP_MAERTS -l 1 -j
tcp_sendfile	@H4@ -t TCP_SENDFILE -l 1
tcp_sendfile_cC	@H4@ -t TCP_SENDFILE -l 1 -c -C
tcp_sendfile_P0	@H4@ -t TCP_SENDFILE -l 1 -P 0
tcp_sendfile_v2	@H4@ -t TCP_SENDFILE -l 1 -v 2
tcp_sendfile_conf	@H4@ -t TCP_SENDFILE -l 1 -i 3,2 -I 99,5
tcp_sendfile_demo	@H4@ -t TCP_SENDFILE -l 2 -D 0.5
tcp_sendfile_j	@H4@ -t TCP_SENDFILE -l 1 -j
udp_stream	@H4@ -t UDP_STREAM -l 1
udp_stream_cC	@H4@ -t UDP_STREAM -l 1 -c -C
udp_stream_P0	@H4@ -t UDP_STREAM -l 1 -P 0
udp_stream_v2	@H4@ -t UDP_STREAM -l 1 -v 2
udp_stream_m1472	@H4@ -t UDP_STREAM -l 1 -- -m 1472
udp_stream_conf	@H4@ -t UDP_STREAM -l 1 -i 3,2 -I 99,5 -- -m 1472
udp_stream_demo	@H4@ -t UDP_STREAM -l 2 -D 0.5 -- -m 1472
udp_stream_j	@H4@ -t UDP_STREAM -l 1 -j -- -m 1472
omni_send	@H4@ -t omni -l 1 -- -d send
omni_recv	@H4@ -t omni -l 1 -- -d recv
omni_rr	@H4@ -t omni -l 1 -- -d rr
omni_udp	@H4@ -t omni -l 1 -- -T udp
omni_udp_rr	@H4@ -t omni -l 1 -- -T udp -d rr
omni_O_names	-t omni -- -O ?
err_bad_option	@H4@ -t TCP_RR -l 1 -Q
err_bad_test	@H4@ -t NO_SUCH_TEST -l 1
err_closed_port	-H 127.0.0.1 -p @CLOSED@ -t TCP_RR -l 1
err_bad_test_option	@H4@ -t TCP_RR -l 1 -- -Q
err_bad_selector	@H4@ -t TCP_RR -l 1 -- -o NO_SUCH_SELECTOR
tcp_stream_k_all	@H4@ -t TCP_STREAM -l 1 -- -k all
tcp_stream_cC_k_all	@H4@ -t TCP_STREAM -l 1 -c -C -- -k all
tcp_maerts_k_all	@H4@ -t TCP_MAERTS -l 1 -- -k all
tcp_sendfile_k_all	@H4@ -t TCP_SENDFILE -l 1 -- -k all
udp_stream_k_all	@H4@ -t UDP_STREAM -l 1 -- -m 1472 -k all
udp_rr_k_all	@H4@ -t UDP_RR -l 1 -- -k all
tcp_crr_k_all	@H4@ -t TCP_CRR -l 1 -- -k all
tcp_rr_cC_o	@H4@ -t TCP_RR -l 1 -c -C -- -o
tcp_stream_cC_O	@H4@ -t TCP_STREAM -l 1 -c -C -- -O
tcp_maerts_o	@H4@ -t TCP_MAERTS -l 1 -- -o
tcp_maerts_O	@H4@ -t TCP_MAERTS -l 1 -- -O
tcp_rr_k_lat	@H4@ -t TCP_RR -l 1 -- -k MIN_LATENCY,MAX_LATENCY,P50_LATENCY,P90_LATENCY,P99_LATENCY,MEAN_LATENCY,STDDEV_LATENCY
tcp_stream_k_lat	@H4@ -t TCP_STREAM -l 1 -- -k THROUGHPUT,MIN_LATENCY,P50_LATENCY,MEAN_LATENCY,RT_LATENCY,TRANSACTION_RATE
tcp_rr_o_file	@H4@ -t TCP_RR -l 1 -- -o @SEL@/rr.sel
tcp_rr_O_file	@H4@ -t TCP_RR -l 1 -- -O @SEL@/rr.sel
tcp_rr_k_file	@H4@ -t TCP_RR -l 1 -- -k @SEL@/rr.sel
tcp_rr_O_blocks	@H4@ -t TCP_RR -l 1 -- -O THROUGHPUT,THROUGHPUT_UNITS;ELAPSED_TIME,REQUEST_SIZE
tcp_rr_k_mixed	@H4@ -t TCP_RR -l 1 -- -k throughput,NO_SUCH_NAME,Mean_Latency
tcp_rr_k_one	@H4@ -t TCP_RR -l 1 -- -k TRANSACTION_RATE
tcp_rr_P0_o	@H4@ -t TCP_RR -l 1 -P 0 -- -o
tcp_rr_P0_O	@H4@ -t TCP_RR -l 1 -P 0 -- -O THROUGHPUT,MEAN_LATENCY
tcp_rr_o_brand	@H4@ -t TCP_RR -l 1 -B mybrand -- -o RESULT_BRAND,THROUGHPUT
tcp_stream_ports	@H4@ -t TCP_STREAM -l 1 -- -P @DP1@,@DP2@
tcp_rr_ports	@H4@ -t TCP_RR -l 1 -- -P @DP3@,@DP4@
udp_rr_ports1	@H4@ -t UDP_RR -l 1 -- -P @DP5@
tcp_stream_nodelay	@H4@ -t TCP_STREAM -l 1 -- -D
tcp_stream_4	@H4@ -4 -t TCP_STREAM -l 1
udp_stream_6	@H6@ -t UDP_STREAM -l 1 -- -m 1472
tcp_maerts_6	@H6@ -t TCP_MAERTS -l 1
omni_send_k	@H4@ -t omni -l 1 -- -d send -k THROUGHPUT,PROTOCOL,DIRECTION,SOCKET_TYPE
omni_udp_rr_k	@H4@ -t omni -l 1 -- -T udp -d rr -k THROUGHPUT,PROTOCOL,DIRECTION,SOCKET_TYPE
tcp_stream_demo_k	@H4@ -t TCP_STREAM -l 2 -D 0.5 -- -k THROUGHPUT,THROUGHPUT_UNITS
tcp_stream_demo_o	@H4@ -t TCP_STREAM -l 2 -D 0.5 -- -o THROUGHPUT,THROUGHPUT_UNITS
tcp_stream_demo_fk	@H4@ -t TCP_STREAM -l 2 -D 0.5 -f k
tcp_stream_demo_neg	@H4@ -t TCP_STREAM -l 2 -D -0.5
tcp_rr_demo	@H4@ -t TCP_RR -l 2 -D 0.5
tcp_rr_demo_k	@H4@ -t TCP_RR -l 2 -D 0.5 -- -k THROUGHPUT,THROUGHPUT_UNITS
udp_rr_demo	@H4@ -t UDP_RR -l 2 -D 0.5
tcp_mss	@H4@ -t TCP_MSS -l 1
tcp_mss_P0	@H4@ -t TCP_MSS -l 1 -P 0
tcp_mss_v0	@H4@ -t TCP_MSS -l 1 -v 0
tcp_mss_v2	@H4@ -t TCP_MSS -l 1 -v 2
tcp_mss_P0_v0	@H4@ -t TCP_MSS -l 1 -P 0 -v 0
tcp_mss_P0_v0_brand	@H4@ -t TCP_MSS -l 1 -P 0 -v 0 -B brand
tcp_mss_nodelay	@H4@ -t TCP_MSS -l 1 -- -D
tcp_cc	@H4@ -t TCP_CC -l 1
tcp_cc_cC	@H4@ -t TCP_CC -l 1 -c -C
tcp_cc_v2	@H4@ -t TCP_CC -l 1 -v 2
tcp_cc_P0	@H4@ -t TCP_CC -l 1 -P 0
tcp_cc_v0	@H4@ -t TCP_CC -l 1 -v 0
tcp_cc_P0_v0	@H4@ -t TCP_CC -l 1 -P 0 -v 0
tcp_cc_count	@H4@ -t TCP_CC -l -1000
tcp_cc_fk	@H4@ -t TCP_CC -l -1000 -f k
tcp_cc_conf	@H4@ -t TCP_CC -l -1000 -i 3
loc_cpu	@H4@ -t LOC_CPU
loc_cpu_v2	@H4@ -t LOC_CPU -v 2
loc_cpu_P0_v0	@H4@ -t LOC_CPU -P 0 -v 0
rem_cpu	@H4@ -t REM_CPU
rem_cpu_v2	@H4@ -t REM_CPU -v 2
rem_cpu_P0_v0	@H4@ -t REM_CPU -P 0 -v 0
tcp_rr_s0	@H4@ -t TCP_RR -l 1 -- -s 0 -S 0
tcp_rr_sizes_s0	@H4@ -t TCP_RR -l -200 -P 0 -- -s 0,-1 -S -1,0 -k LSS_SIZE_REQ,LSS_SIZE,LSR_SIZE_REQ,LSR_SIZE,RSS_SIZE_REQ,RSS_SIZE,RSR_SIZE_REQ,RSR_SIZE
tcp_rr_sizes_m1	@H4@ -t TCP_RR -l -200 -P 0 -- -s -1 -S -1 -k LSS_SIZE_REQ,LSS_SIZE,LSR_SIZE_REQ,LSR_SIZE,RSS_SIZE_REQ,RSS_SIZE,RSR_SIZE_REQ,RSR_SIZE
tcp_rr_m1024	@H4@ -t TCP_RR -l -200 -P 0 -- -m 1024 -M 100 -k LOCAL_SEND_SIZE,LOCAL_RECV_SIZE,REMOTE_SEND_SIZE,REMOTE_RECV_SIZE,REQUEST_SIZE,RESPONSE_SIZE,LOCAL_BYTES_SENT
udp_rr_fill	@H4@ -D -0.2 -t UDP_RR -l -200 -F /dev/urandom -- -e 2 -R 1 -k TRANSACTION_RATE,LOCAL_FILL_FILE
tcp_stream_lat	@H4@ -t TCP_STREAM -l -20000000 -P 0 -- -k MIN_LATENCY,P50_LATENCY,P99_LATENCY,MAX_LATENCY,MEAN_LATENCY,STDDEV_LATENCY
TABLE_END
)

mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
cd "$here" || die "cannot enter $here"
rm -f "$out"/*.txt "$out"/*.err "$out"/MANIFEST "$out"/VERSION
{
	echo "netperf: $version"
	echo "netserver: $("$NETSERVER" -V 2>&1 | head -1)"
	echo "package: $(dpkg-query -W -f='${Package} ${Version}' netperf 2>/dev/null || echo unknown)"
	echo "kernel: $(uname -srm)"
	echo "captured: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "netserver ports: ipv4 127.0.0.1:$P4 ipv6 [::1]:$P6 closed $CLOSED"
} >"$out/VERSION"
printf '# name\tcommand line\texit status\n' >"$out/MANIFEST"

n=0 bad=0
while IFS=$'\t' read -r name args; do
	[ -n "$name" ] || continue
	args=${args//@H4@/-H 127.0.0.1 -p $P4}
	args=${args//@H6@/-H ::1 -p $P6 -6}
	args=${args//@CLOSED@/$CLOSED}
	args=${args//@SEL@/selectors}
	for d in 1 2 3 4 5; do v=DP$d; args=${args//@DP$d@/${!v}}; done
	if [ -n "${CAPTURE_ONLY:-}" ] && ! [[ $name =~ ^(${CAPTURE_ONLY})$ ]]; then continue; fi
	read -ra argv <<<"$args"
	timeout "$PER_CMD_TIMEOUT" "$NETPERF" "${argv[@]}" >"$out/$name.txt" 2>"$out/$name.err" </dev/null
	rc=$?
	[ -s "$out/$name.err" ] || rm -f "$out/$name.err"
	printf '%s\t%s\t%s\n' "$name" "netperf $args" "$rc" >>"$out/MANIFEST"
	n=$((n + 1))
	case $name in err_*) ;; *) [ "$rc" -eq 0 ] || { bad=$((bad + 1)); echo "capture-netperf: $name exited $rc" >&2; } ;; esac
done <<<"$TABLE"

echo "capture-netperf: $n commands captured in $out with $version ($bad non-error cases exited non-zero)"
