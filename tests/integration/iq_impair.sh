#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# iq_impair: `warpspeed iq` through bench/iq_proxy (fixed seeds) to a `warpspeed node`:
# 5 % and 20 % loss, duplication + reordering + forged answers (wrong seq, wrong node ID);
# every write -> trigger -> read must come back bit-exact. Triggers go through the proxy
# too, whose trigger counter (--trigger-counter count, the test double of the node's)
# confirms them: a lost one is sent again. A node that goes quiet
# mid-transfer must give exit 1 with "stopped answering" and leave no output file.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=tests/iq_lib.sh
. "$(dirname "$0")/../iq_lib.sh"
T=$WS_TMP
need_proxy iq_impair

start_node || { fail iq_impair_node "no banner: $(head -c 300 "$T/node.err")"; finish; }
head -c 800000 /dev/urandom >"$T/x.ci16" # 200000 samples, 90 packets
roundtrip() { # name, proxy args...
	local name=$1
	shift
	if ! start_proxy "$name" "$@"; then
		fail "$name" "proxy did not start"
		return
	fi
	local P=127.0.0.1:$PPORT o=(--timeout-ms 50)
	if "$WS_BIN" iq write "$P" --rf A -i "$T/x.ci16" "${o[@]}" >"$T/$name.log" 2>&1 &&
		"$WS_BIN" iq trigger "$P" "${o[@]}" >>"$T/$name.log" 2>&1 &&
		"$WS_BIN" iq read "$P" --rf A --samples 200000 -o "$T/$name.ci16" "${o[@]}" \
			>>"$T/$name.log" 2>&1 && cmp -s "$T/x.ci16" "$T/$name.ci16" &&
		grep -q "^trigger 0x1 sent to $P: seen" "$T/$name.log"; then
		pass "$name"
	else
		fail "$name" "$(tail -c 300 "$T/$name.log")"
	fi
}
roundtrip iq_loss_5 --loss 5 --seed 7 --trigger-counter count
roundtrip iq_loss_20 --loss 20 --seed 8 --trigger-counter count
roundtrip iq_dup_reorder_forged --dup 5 --reorder 5 --bad-seq 3 --bad-id 3 --seed 9 \
	--trigger-counter count

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
