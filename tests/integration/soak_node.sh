#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# soak_node: `warpspeed node` is no amplifier (issue 13 item 7). A default node (no --bind,
# no --allow) is bound to 127.0.0.1 only; an oversize Read IQ (RF_A|RF_B, 2^27 samples,
# 1.07 GB asked for by 42 bytes) from 127.0.0.77 gets at most the documented per-source cap
# (burst + rate x time + 64 KiB of small-answer slack + one packet) while a host on
# 127.0.0.1 keeps getting PING answers within 100 ms; with --allow 127.0.0.1/32 that source
# gets nothing and every datagram it sent is counted `denied`; a 66-byte Write IQ at the
# end of TX and one trigger commit almost no memory and leave the node answering within
# 50 ms; the warpspeed-only trigger counter query answers byte-exactly. About 4 s. The
# hosts are tests/integration/soak_node.py; only 127.0.0.0/8 is addressed.
source "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../iq_lib.sh"
probe="$(dirname "$0")/soak_node.py"
if ! command -v python3 >/dev/null; then
	skip soak_node "python3 is not installed"
	finish
fi

# start_node NAME ARGS...: a node on ephemeral ports; sets NODE_PID NODE_PORT NODE_BPORT.
start_node() {
	local name=$1
	shift
	NODE_OUT=$WS_TMP/$name.out
	NODE_ERR=$WS_TMP/$name.err
	"$WS_BIN" node --port 0 --bcast-port 0 "$@" >"$NODE_OUT" 2>"$NODE_ERR" &
	NODE_PID=$!
	WS_PIDS+=("$NODE_PID")
	for _ in $(seq 1 100); do
		grep -q 'listening on' "$NODE_ERR" 2>/dev/null && break
		sleep 0.02
	done
	NODE_PORT=$(sed -n 's/.*listening on [0-9.]*:\([0-9]*\),.*/\1/p' "$NODE_ERR")
	NODE_BPORT=$(sed -n 's/.*broadcast port \([0-9]*\),.*/\1/p' "$NODE_ERR")
	[ -n "$NODE_PORT" ] && [ -n "$NODE_BPORT" ]
}

field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }

stop_node() {
	kill "$NODE_PID" 2>/dev/null
	wait "$NODE_PID" 2>/dev/null
}

vmrss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

# --- default bind: 127.0.0.1 for both sockets, said in the banner ------------------------
if start_node default; then
	want=$(printf '0100007F:%04X\n0100007F:%04X\n' "$NODE_PORT" "$NODE_BPORT" | sort |
		tr '\n' ' ' | sed 's/ $//')
	got=$(awk -v a="$(printf ':%04X' "$NODE_PORT")" -v b="$(printf ':%04X' "$NODE_BPORT")" \
		'NR > 1 && (substr($2, 9) == a || substr($2, 9) == b) { print $2 }' /proc/net/udp |
		sort | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" = "$want" ]; then
		pass soak_node_default_bind_loopback
	else
		fail soak_node_default_bind_loopback "bound '$got' in /proc/net/udp, want '$want'"
	fi
	if grep -q "listening on 127.0.0.1:$NODE_PORT, .* allow 127.0.0.0/8, reply rate 1000 Mb/s per source, burst 1048576 bytes" "$NODE_ERR"; then
		pass soak_node_banner
	else
		fail soak_node_banner "$(head -c 400 "$NODE_ERR")"
	fi

	# --- oversize Read IQ from a spoofable 127.0.0.77 (inside the default allow list) ---
	t0=$(date +%s.%N)
	r=$(python3 "$probe" amplify "$NODE_PORT" 2)
	tx=$(node_counter tx_bytes)
	t1=$(date +%s.%N)
	recv=$(field "$r" recv_bytes)
	req=$(field "$r" req_bytes)
	# The documented bound: burst + rate x t + 64 KiB slack + one 8962-byte packet.
	limit=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", 1048576 + 125e6 * (b - a) + 65536 + 8962 }')
	echo "# amplify: $r node_tx_bytes=$tx limit=$limit ratio=$(awk -v r="$recv" -v q="$req" 'BEGIN { printf "%.0f", r / q }')"
	if [ -n "$tx" ] && [ "$tx" -le "$limit" ] && [ "$recv" -le "$limit" ]; then
		pass soak_node_spoofed_read_capped
	else
		fail soak_node_spoofed_read_capped "node sent $tx bytes, 127.0.0.77 got $recv, cap allows $limit"
	fi
	if [ "$(field "$r" pings)" -ge 50 ] &&
		[ "$(field "$r" answered)" = "$(field "$r" pings)" ] &&
		in_range "$(field "$r" max_rtt_ms)" 0 100; then
		pass soak_node_honest_host_served
	else
		fail soak_node_honest_host_served "$r (every PING within 100 ms wanted)"
	fi
	stop_node
else
	fail soak_node_default_bind_loopback "node did not start: $(head -c 300 "$NODE_ERR")"
fi

# --- --allow 127.0.0.1/32: the other source is denied, counted, never answered ------------
if start_node allow --allow 127.0.0.1/32; then
	r=$(python3 "$probe" denied "$NODE_PORT" "$NODE_BPORT" 30)
	denied=$(node_counter denied)
	if [ "$(field "$r" recv_bytes)" = 0 ] && [ "$denied" = 30 ]; then
		pass soak_node_allow_denies
	else
		fail soak_node_allow_denies "$r, denied=$denied (want 0 bytes back and denied=30)"
	fi
	# The trigger counter query from the allowed host: magic WSPD, 0 triggers (the
	# 127.0.0.77 triggers were denied), seq 0x1234 echoed, byte for byte.
	r=$(python3 "$probe" trigcount "$NODE_PORT")
	want=000000fa0000000200221234000050575301000c0003575350440000000000000000
	if [ "$(field "$r" rsp)" = "$want" ]; then
		pass soak_node_trigger_count_query
	else
		fail soak_node_trigger_count_query "$r, want rsp=$want"
	fi
	stop_node
else
	fail soak_node_allow_denies "node did not start: $(head -c 300 "$NODE_ERR")"
fi

# --- a 66-byte Write IQ at the end of TX, one trigger: lazy memory, a live node ----------
if start_node lazy; then
	before=$(vmrss_kb "$NODE_PID")
	r=$(python3 "$probe" bigwrite "$NODE_PORT" "$NODE_BPORT" 117440512)
	trig=$(node_counter triggers)
	after=$(vmrss_kb "$NODE_PID")
	echo "# lazy: $r triggers=$trig rss_kb_before=$before rss_kb_after=$after"
	if [ "$trig" = 1 ] && [ $((after - before)) -lt 65536 ]; then
		pass soak_node_write_trigger_rss
	else
		fail soak_node_write_trigger_rss "RSS grew $((after - before)) KiB (limit 65536), triggers=$trig"
	fi
	if in_range "$(field "$r" ping_after_trigger_ms)" 0 50; then
		pass soak_node_write_trigger_answers
	else
		fail soak_node_write_trigger_answers "$r (an answer within 50 ms wanted)"
	fi
	stop_node
else
	fail soak_node_write_trigger_rss "node did not start: $(head -c 300 "$NODE_ERR")"
fi
finish
