#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# node_memory: what hosts write cannot grow a shared `warpspeed node` without bound, nor
# its log (issue 27, D6). A host writes one sample into every 64 KiB chunk of RF_A and
# RF_B, triggers, and does it again (4096 Write IQ packets, 155 KB, on 32 Mi-sample
# buffers; before the fix the second round's copy-on-write grew the node by 256 MiB):
# with --max-memory 64M the node's RSS (/proc/PID/status) grows by at most 64 MiB + 16,
# the refusals are counted (mem_refused), a ROBUST Write IQ into a chunk it cannot map
# is answered IQ_ERROR, and the log says it in at most a few lines a second with a
# "... N more like this" summary. The same under an address-space limit (ulimit -v, the
# "1 GB limit" of the issue, where each failed mmap used to log one line: 2685 lines).
# The banner states the default budget, what the buffers can ever need. About 5 s.
source "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../iq_lib.sh"
hostile="$(dirname "$0")/node_hostile.py"
if ! command -v python3 >/dev/null; then
	skip node_memory "python3 is not installed"
	finish
fi
vmrss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }
BUF=(--tx-samples 32M --rx-samples 32M --bcast-port 0)
bport() { sed -n 's/.*broadcast port \([0-9]*\),.*/\1/p' "$WS_TMP/node.err"; }

# log_ok LINES SECONDS: at most the banner, then 3 lines and a summary per started second.
log_ok() { [ "$1" -le $((1 + 4 * ($2 + 1))) ]; }

# --- the default budget: every RF buffer's chunks distinct, plus the shared ones ----------
if start_node --tx-samples 112M --rx-samples 128M; then
	if grep -q 'max memory 1925.0 MiB' "$WS_TMP/node.err"; then
		pass node_memory_default_budget
	else
		fail node_memory_default_budget "$(head -c 500 "$WS_TMP/node.err")"
	fi
	kill "$NODE_PID"
	wait "$NODE_PID" 2>/dev/null
else
	fail node_memory_default_budget "node did not start: $(head -c 300 "$WS_TMP/node.err")"
fi

# --- --max-memory 64M: RSS, counters, the error reply, the log ----------------------------
if start_node "${BUF[@]}" --max-memory 64M; then
	before=$(vmrss_kb "$NODE_PID")
	t0=$SECONDS
	r=$(python3 "$hostile" sparse "$NODE_PORT" "$(bport)" 33554432 2)
	secs=$((SECONDS - t0))
	after=$(vmrss_kb "$NODE_PID")
	refused=$(node_counter mem_refused)
	kill "$NODE_PID" # the summary of what was left out is written at the latest on exit
	wait "$NODE_PID" 2>/dev/null
	lines=$(wc -l <"$WS_TMP/node.err")
	echo "# --max-memory 64M: $r rss_kb_before=$before rss_kb_after=$after mem_refused=$refused log_lines=$lines in ${secs}s"
	if [ -n "$after" ] && [ $((after - before)) -le $((80 * 1024)) ] && [ "${refused:-0}" -gt 0 ]; then
		pass node_memory_budget_rss
	else
		fail node_memory_budget_rss "RSS grew $((after - before)) KiB (at most 81920), mem_refused=$refused"
	fi
	if [ "$(field "$r" robust_status)" = 1 ]; then
		pass node_memory_budget_error_reply
	else
		fail node_memory_budget_error_reply "$r (status 1, IQ_ERROR, wanted)"
	fi
	if log_ok "$lines" "$secs" && grep -q '\.\.\. [0-9]* more like this in .*sample memory full' "$WS_TMP/node.err"; then
		pass node_memory_budget_log
	else
		fail node_memory_budget_log "$lines lines in $secs s: $(tail -n 3 "$WS_TMP/node.err" | cut -c1-160)"
	fi
else
	fail node_memory_budget_rss "node did not start: $(head -c 300 "$WS_TMP/node.err")"
fi

# --- an address-space limit: failed mappings are logged in a bounded number of lines ------
# (Sanitizer runtimes reserve terabytes of address space: not under them.)
if ldd "$WS_BIN" 2>/dev/null | grep -q 'libasan\|libtsan'; then
	skip node_memory_ulimit_log "a sanitized build cannot run under ulimit -v"
	finish
fi
(
	ulimit -v 262144
	exec "$WS_BIN" node --bind 127.0.0.1 --port 0 "${BUF[@]}" >"$WS_TMP/node.out" 2>"$WS_TMP/node.err"
) &
NODE_PID=$!
WS_PIDS+=("$NODE_PID")
NODE_PORT=
if wait_banner NODE_PORT "$WS_TMP/node.err" 's/.*listening on [0-9.]*:\([0-9]*\),.*/\1/p'; then
	t0=$SECONDS
	r=$(python3 "$hostile" sparse "$NODE_PORT" "$(bport)" 33554432 2)
	secs=$((SECONDS - t0))
	failures=$(node_counter alloc_failures)
	kill "$NODE_PID"
	wait "$NODE_PID" 2>/dev/null
	lines=$(wc -l <"$WS_TMP/node.err")
	echo "# ulimit -v 256 MiB: $r alloc_failures=$failures log_lines=$lines in ${secs}s"
	if [ "${failures:-0}" -gt 0 ] && log_ok "$lines" "$secs" &&
		grep -q '\.\.\. [0-9]* more like this in .*cannot map' "$WS_TMP/node.err" &&
		[ "$(field "$r" robust_status)" = 1 ]; then
		pass node_memory_ulimit_log
	else
		fail node_memory_ulimit_log "$lines log lines in $secs s, alloc_failures=$failures, $r"
	fi
else
	fail node_memory_ulimit_log "node did not start: $(head -c 300 "$WS_TMP/node.err")"
fi
finish
