#!/usr/bin/env bash
# iq_impair: `warpspeed iq` through bench/iq_proxy (fixed seeds) to a `warpspeed node`:
# 5 % and 20 % loss, duplication + reordering + forged answers (wrong seq, wrong node ID);
# every write -> trigger -> read must come back bit-exact. Triggers go straight to the node
# (--trigger-port) because they are never acknowledged. A node that goes quiet
# mid-transfer must give exit 1 with "stopped answering" and leave no output file.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
T=$WS_TMP
proxy=$WS_BUILD/bench/iq_proxy
if [ ! -x "$proxy" ]; then
	skip iq_impair "$proxy not built (make bench-bins)"
	finish
fi

"$WS_BIN" node --bind 127.0.0.1 --port 0 --bcast-port off --tx-samples 1M --rx-samples 1M \
	>"$T/node.out" 2>"$T/node.err" &
WS_PIDS+=("$!")
for _ in $(seq 1 100); do
	grep -q 'listening on' "$T/node.err" 2>/dev/null && break
	sleep 0.02
done
port=$(sed -n 's/.*listening on [0-9.]*:\([0-9]*\),.*/\1/p' "$T/node.err")
[ -n "$port" ] || { fail iq_impair_node "no banner: $(head -c 300 "$T/node.err")"; finish; }

# start_proxy NAME ARGS...: sets PPORT.
start_proxy() {
	local name=$1
	shift
	"$proxy" --node "127.0.0.1:$port" "$@" 2>"$T/$name.px" &
	WS_PIDS+=("$!")
	PPORT=
	for _ in $(seq 1 100); do
		PPORT=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$T/$name.px")
		[ -n "$PPORT" ] && return 0
		sleep 0.02
	done
	return 1
}

head -c 800000 /dev/urandom >"$T/x.ci16" # 200000 samples, 90 packets
roundtrip() { # name, proxy args...
	local name=$1
	shift
	if ! start_proxy "$name" "$@"; then
		fail "$name" "proxy did not start"
		return
	fi
	local P=127.0.0.1:$PPORT o=(--trigger-port "$port" --timeout-ms 50)
	if "$WS_BIN" iq write "$P" --rf A -i "$T/x.ci16" "${o[@]}" >"$T/$name.log" 2>&1 &&
		"$WS_BIN" iq trigger "$P" "${o[@]}" >>"$T/$name.log" 2>&1 &&
		"$WS_BIN" iq read "$P" --rf A --samples 200000 -o "$T/$name.ci16" "${o[@]}" \
			>>"$T/$name.log" 2>&1 && cmp -s "$T/x.ci16" "$T/$name.ci16"; then
		pass "$name"
	else
		fail "$name" "$(tail -c 300 "$T/$name.log")"
	fi
}
roundtrip iq_loss_5 --loss 5 --seed 7
roundtrip iq_loss_20 --loss 20 --seed 8
roundtrip iq_dup_reorder_forged --dup 5 --reorder 5 --bad-seq 3 --bad-id 3 --seed 9

if start_proxy mute --mute-after 30; then
	"$WS_BIN" iq read "127.0.0.1:$PPORT" --rf A --samples 1M -o "$T/mute.ci16" \
		--idle-ms 5 --retries 4 >"$T/mute.log" 2>&1
	rc=$?
	if [ $rc -eq 1 ] && grep -q 'stopped answering' "$T/mute.log" &&
		! ls "$T"/mute.ci16* >/dev/null 2>&1; then
		pass iq_node_goes_quiet
	else
		fail iq_node_goes_quiet "status $rc: $(head -c 300 "$T/mute.log")"
	fi
fi
finish
