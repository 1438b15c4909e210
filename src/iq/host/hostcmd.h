/* SPDX-License-Identifier: BSD-2-Clause */
/* hostcmd: acknowledged commands of the IQ host transport, retried with backoff to a budget.
 *
 * WARPLab's host tries a command a fixed number of times at a fixed timeout, which on a
 * lossy path fails start-ups often (docs/benchmarks.md). Every acknowledged
 * command here (PING, the payload size test, NODE_INFO, buffer enables, the trigger
 * counter query) instead re-sends with the same transport seq, so that a late answer to
 * any attempt still counts, after waits that grow from timeout_ms, until the handle's
 * budget is spent or cmd_tries attempts were made; the error then names the command, the
 * node, the attempts and their waits and the options that change them. The schedule is a
 * pure function so that tests check its exact values. */
#ifndef WS_IQ_HOSTCMD_H
#define WS_IQ_HOSTCMD_H

#include "iq/host/hostio.h"

#include <stddef.h>
#include <stdint.h>

#define WS_IQ_CMD_MAX_WORDS    64 /* reply words kept */
#define WS_IQ_BACKOFF_MAX      64 /* attempts one schedule holds */
#define WS_IQ_BACKOFF_GROWTH   2  /* waits double up to this many times timeout_ms */
#define WS_IQ_PAYLOAD_MISSES   8  /* payload test rounds with only smaller answers */
#define WS_IQ_PAYLOAD_GRACE_MS 2  /* wait for a reordered larger answer after a smaller */

/* The waits of one command's attempts: wait_ms[0] = timeout_ms, each next one doubled up
 * to WS_IQ_BACKOFF_GROWTH * timeout_ms, the last one cut to what is left of budget_ms; at
 * most tries (and WS_IQ_BACKOFF_MAX) attempts, at least one. total_ms is their sum. */
typedef struct ws_iq_backoff {
	uint32_t wait_ms[WS_IQ_BACKOFF_MAX];
	int n;
	uint32_t total_ms;
} ws_iq_backoff;

void ws_iq_backoff_plan(uint32_t timeout_ms, int tries, uint32_t budget_ms, ws_iq_backoff *b);

/* The handle's schedule: cfg.timeout_ms, cfg.cmd_tries, cfg.budget_ms (0 = default). */
void ws_iq_backoff_of(const ws_iq_node *n, ws_iq_backoff *b);

/* "waits 100, 200, 200 ms" for messages. */
void ws_iq_backoff_text(const ws_iq_backoff *b, char *out, size_t cap);

/* The words of a command's answer. */
typedef struct ws_iq_reply {
	uint32_t w[WS_IQ_CMD_MAX_WORDS];
	size_t nw;
	uint16_t flags;
	int64_t rtt_ns; /* from the last attempt's send to the answer */
} ws_iq_reply;

/* The reply to (seq, cmd) among datagram b[0..len): 1 and rep filled when it is one, 0 when
 * it is something else (counted as wrong_node, malformed or wrong_seq). Pure: no I/O. */
int ws_iq_cmd_match(ws_iq_node *n, const uint8_t *b, size_t len, int trunc, uint16_t seq,
		    uint32_t cmd, ws_iq_reply *rep);

/* A ROBUST command with nargs argument words on the schedule b (one seq for every
 * attempt). 0 with rep filled, -WS_E_TIMEDOUT with the attempts named, or another error. */
int ws_iq_cmd_sched(ws_iq_node *n, uint32_t cmd, const uint32_t *args, size_t nargs,
		    const ws_iq_backoff *b, ws_iq_reply *rep, ws_err *err);

/* ws_iq_cmd_sched on the handle's own schedule (ws_iq_backoff_of). */
int ws_iq_cmd(ws_iq_node *n, uint32_t cmd, const uint32_t *args, size_t nargs, ws_iq_reply *rep,
	      ws_err *err);

/* NODE_INFO into n->info (checks the word count and the RF count). */
int ws_iq_cmd_node_info(ws_iq_node *n, ws_err *err);

/* PAYLOAD_SIZE_TEST: the largest of cfg.max_payload, 1468 and 548 that the node answers,
 * every candidate in each round on the handle's schedule; sets n->info's max_payload,
 * samples_per_packet and packet_size. */
int ws_iq_cmd_payload_test(ws_iq_node *n, ws_err *err);

/* The node's answer to the trigger counter query (WS_IQ_CMD_TRIGGER_COUNTER): 1 with the
 * 64-bit count when it is [WS_IQ_TRIGGER_COUNTER_MAGIC, high, low], 0 when it is anything
 * else (an older node's empty acknowledgement). Pure. */
int ws_iq_cmd_trigger_count_of(const ws_iq_reply *rep, uint64_t *count);

#endif
