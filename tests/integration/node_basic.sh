#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# node_basic: the real `warpspeed node` process on loopback. Starts it on ephemeral ports,
# drives a PING / NODE_INFO / Write IQ / trigger / Read IQ round trip with the bench host
# (jumbo and 1500-MTU payloads, RF_A|RF_B), checks SIGUSR1 counters, a clean SIGTERM exit,
# a refused bind (exit 1) and bad usage (exit 2). Every process started is killed on exit.
set -u
: "${WS_BIN:?}" "${WS_BUILD:?}"
tmp=$(mktemp -d)
pids=()
ns=wsnode$$
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	ip netns del "$ns" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
pass() { echo "PASS $1"; }
bad() { echo "FAIL $1: $2"; fail=1; }

# start_node NAME ARGS...: runs the node, waits for its banner, sets $port $bport $pid.
start_node() {
	local name=$1
	shift
	"$WS_BIN" node --bind 127.0.0.1 --port 0 --bcast-port 0 "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err" &
	pid=$!
	pids+=("$pid")
	for _ in $(seq 1 100); do
		grep -q 'listening on' "$tmp/$name.err" 2>/dev/null && break
		sleep 0.02
	done
	port=$(sed -n 's/.*listening on [0-9.]*:\([0-9]*\),.*/\1/p' "$tmp/$name.err")
	bport=$(sed -n 's/.*broadcast port \([0-9]*\),.*/\1/p' "$tmp/$name.err")
	[ -n "$port" ] && [ -n "$bport" ]
}

bench=$WS_BUILD/bench/iq_node_bench
if [ ! -x "$bench" ]; then
	echo "SKIP node_roundtrip: $bench not built (make bench-bins)"
else
	if start_node jumbo --tx-samples 1M --rx-samples 1M; then
		"$bench" --connect "127.0.0.1:$port" --bcast-port "$bport" --check \
			--samples 32768 --mask 3 | sed 's/^\(PASS\|FAIL\) /\1 node_jumbo_/'
		[ "${PIPESTATUS[0]}" -eq 0 ] || fail=1
		kill -USR1 "$pid"
		sleep 0.2
		if grep -q 'counters (SIGUSR1):.* read_packets=[1-9]' "$tmp/jumbo.out"; then
			pass node_sigusr1_counters
		else
			bad node_sigusr1_counters "no counters line with read packets on stdout"
		fi
		# A second node on the same unicast port must fail to bind: exit status 1.
		"$WS_BIN" node --bind 127.0.0.1 --port "$port" --bcast-port off \
			>/dev/null 2>"$tmp/busy.err" &
		bpid=$!
		pids+=("$bpid")
		wait "$bpid"
		rc=$?
		if [ "$rc" -eq 1 ] && grep -q 'bind' "$tmp/busy.err"; then
			pass node_bind_busy_exit_1
		else
			bad node_bind_busy_exit_1 "status $rc, stderr: $(head -c 200 "$tmp/busy.err")"
		fi
		kill -TERM "$pid"
		wait "$pid"
		rc=$?
		if [ "$rc" -eq 0 ] && grep -q 'counters (exit)' "$tmp/jumbo.out"; then
			pass node_sigterm_clean_exit
		else
			bad node_sigterm_clean_exit "status $rc after SIGTERM"
		fi
	else
		bad node_start "no banner: $(head -c 300 "$tmp/jumbo.err")"
	fi
	if start_node mtu1500 --max-payload 1468 --tx-samples 64K --rx-samples 64K; then
		"$bench" --connect "127.0.0.1:$port" --bcast-port "$bport" --check \
			--samples 32768 --mask 3 --max-payload 1468 | sed 's/^\(PASS\|FAIL\) /\1 node_1500_/'
		[ "${PIPESTATUS[0]}" -eq 0 ] || fail=1
		kill -TERM "$pid"
	else
		bad node_start_1500 "no banner: $(head -c 300 "$tmp/mtu1500.err")"
	fi
fi

# Jumbo Read IQ over a 1500-byte MTU: the node's UDP GSO send is refused (EMSGSIZE) and it
# must fall back to one packet per message without losing the stream.
if [ ! -x "$bench" ]; then
	:
elif [ "${WS_NETNS:-1}" = 0 ]; then
	echo "SKIP node_gso_fallback: namespace tests off (make test NETNS=0)"
elif ! ip netns add "$ns" 2>/dev/null; then
	echo "SKIP node_gso_fallback: cannot create a network namespace"
else
	ip -n "$ns" link set lo up && ip -n "$ns" link set lo mtu 1500
	ip netns exec "$ns" "$WS_BIN" node --bind 127.0.0.1 --port 0 --bcast-port 0 \
		>/dev/null 2>"$tmp/gso.err" &
	pids+=("$!")
	for _ in $(seq 1 100); do
		grep -q 'listening on' "$tmp/gso.err" 2>/dev/null && break
		sleep 0.02
	done
	port=$(sed -n 's/.*listening on [0-9.]*:\([0-9]*\),.*/\1/p' "$tmp/gso.err")
	bport=$(sed -n 's/.*broadcast port \([0-9]*\),.*/\1/p' "$tmp/gso.err")
	if ip netns exec "$ns" "$bench" --connect "127.0.0.1:$port" --bcast-port "$bport" \
		--check --samples 65536 >"$tmp/gso.out" && grep -q 'GSO refused' "$tmp/gso.err"; then
		pass node_gso_fallback
	else
		bad node_gso_fallback "$(grep FAIL "$tmp/gso.out" | head -1) $(tail -1 "$tmp/gso.err")"
	fi
fi

usage_case() { # name, expected text, args...
	local name=$1 text=$2
	shift 2
	"$WS_BIN" node "$@" >/dev/null 2>"$tmp/usage.err"
	local rc=$?
	if [ "$rc" -eq 2 ] && grep -q -- "$text" "$tmp/usage.err"; then
		pass "$name"
	else
		bad "$name" "status $rc, stderr: $(head -c 200 "$tmp/usage.err")"
	fi
}
usage_case node_usage_rf "--rf '3'" --rf 3
usage_case node_usage_channel "loopback or none" --channel air
usage_case node_usage_unknown "unknown" --frobnicate
usage_case node_usage_port "--port" --port 70000
usage_case node_usage_samples "--rx-samples" --rx-samples 0
usage_case node_usage_allow "--allow: prefix length in '10.0.0.0/40' is not 0..32 (a.b.c.d/n" \
	--allow 10.0.0.0/40
usage_case node_usage_allow_any "'any' must stand alone" --allow any,127.0.0.1
usage_case node_usage_reply_rate "--reply-rate '10x' is not valid (bit/s from 1k to 1000g" \
	--reply-rate 10x
usage_case node_usage_reply_burst "--reply-burst '100' is not valid (bytes, 1K..256M" \
	--reply-burst 100
usage_case node_usage_bind "--bind 'localhost' is not valid (an IPv4 address a.b.c.d, 0.0.0.0" \
	--bind localhost
exit $fail
