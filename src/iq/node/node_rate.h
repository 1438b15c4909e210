/* SPDX-License-Identifier: BSD-2-Clause */
/* node_rate: per-source caps on the node emulator's reply bytes (token buckets).
 *
 * One small request can ask a node for a gigabyte, and the source address of a UDP request
 * proves nothing, so without a cap the node amplifies whatever an attacker sends toward
 * whomever the attacker names. Each source address gets a token bucket of `rate` bits/s and
 * `burst` bytes, in a fixed table (WS_NODE_RATE_SETS x WS_NODE_RATE_WAYS entries, hashed
 * by address, no allocation per source). An entry is reused for another address only once
 * its bucket has refilled completely, because a full bucket is exactly what a new source
 * would get: forgetting it changes nothing, so no sequence of sources can buy a fresh burst
 * for an address still in debt; entries holding an active stream are never reused. When
 * every entry of a set is busy a new source gets no bucket and is refused until one
 * refills. Tokens are kept in bit-nanoseconds (bytes x 8 x 10^9), so refilling is a
 * multiplication without division or rounding drift, and every product is bounded below
 * 2^63 (burst <= WS_NODE_RATE_MAX_BURST, elapsed time clamped to one full refill). One more
 * bucket, the total, caps all sources together (a board has one 1 Gb/s port, however many
 * addresses ask), so that many spoofed sources cannot multiply the node's output either.
 * The module sends nothing: the node asks how long to wait and charges what it sent. */
#ifndef WS_IQ_NODE_RATE_H
#define WS_IQ_NODE_RATE_H

#include <stdint.h>

#define WS_NODE_RATE_SETS      64
#define WS_NODE_RATE_WAYS      8
#define WS_NODE_RATE_MIN_BPS   1000ull          /* 1 kb/s */
#define WS_NODE_RATE_MAX_BPS   1000000000000ull /* 1 Tb/s */
#define WS_NODE_RATE_MIN_BURST 1024u
#define WS_NODE_RATE_MAX_BURST (256u << 20)
#define WS_NODE_RATE_SLACK     65536u /* debt that answers to small commands may run into */

typedef struct ws_node_bucket {
	uint32_t addr;
	uint8_t used;
	uint8_t pinned;  /* a stream is charging it: never reused */
	int64_t tokens;  /* bit-ns; may go negative by one packet, or WS_NODE_RATE_SLACK */
	int64_t last_ns; /* monotonic time of the last refill */
} ws_node_bucket;

typedef struct ws_node_rate {
	uint64_t rate_bps;  /* 0: no cap (every call admits at once) */
	int64_t full;       /* burst in bit-ns */
	int64_t floor;      /* -(slack) in bit-ns */
	uint64_t total_bps; /* all sources together; 0: no total cap */
	ws_node_bucket total;
	ws_node_bucket b[WS_NODE_RATE_SETS][WS_NODE_RATE_WAYS];
} ws_node_rate;

/* Sets up an empty table; rate_bps 0 turns the cap off, otherwise rate_bps must lie in
 * [WS_NODE_RATE_MIN_BPS, WS_NODE_RATE_MAX_BPS] and burst in [WS_NODE_RATE_MIN_BURST,
 * WS_NODE_RATE_MAX_BURST] (the caller validates). */
void ws_node_rate_init(ws_node_rate *r, uint64_t rate_bps, uint32_t burst);

/* Adds the cap on all sources together, total_bps (0: none, else within the bounds of
 * rate_bps), with the same burst. */
void ws_node_rate_set_total(ws_node_rate *r, uint64_t total_bps);

/* The bucket of addr, refilled to now: found, or a reusable entry taken over with a full
 * bucket. NULL when the cap is off, or when every entry of addr's set is still refilling
 * or pinned (the caller refuses the request and counts it). */
ws_node_bucket *ws_node_rate_get(ws_node_rate *r, uint32_t addr, int64_t now);

/* Nanoseconds from now until b, and the total, hold tokens (0: they do now). b NULL: the
 * total alone. */
int64_t ws_node_rate_wait(const ws_node_rate *r, const ws_node_bucket *b, int64_t now);

/* How many bytes b may send now toward a Read IQ stream: 0 when it or the total has no
 * tokens, else the smaller of their tokens in bytes rounded up (the last packet may take
 * a bucket below zero). b NULL: the total alone (UINT64_MAX without a total cap). */
uint64_t ws_node_rate_allowance(ws_node_rate *r, ws_node_bucket *b, int64_t now);

/* Takes bytes from the total (nothing without a total cap). */
void ws_node_rate_spent(ws_node_rate *r, uint64_t bytes);

/* 1 when a small answer of any size may go now: the bucket is above -WS_NODE_RATE_SLACK.
 * Call ws_node_rate_charge after sending it. */
int ws_node_rate_small_ok(const ws_node_rate *r, ws_node_bucket *b, int64_t now);

/* Takes bytes from b (NULL: nothing). */
void ws_node_rate_charge(ws_node_bucket *b, uint64_t bytes);

#endif
