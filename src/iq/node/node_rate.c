/* SPDX-License-Identifier: BSD-2-Clause */
/* node_rate: per-source token buckets of the node emulator; see node_rate.h for the model
 * and why an entry is only reused once full. */
#include "iq/node/node_rate.h"

#include <string.h>

#define BITNS_PER_BYTE 8000000000ll /* 8 bits x 10^9 ns */

void ws_node_rate_init(ws_node_rate *r, uint64_t rate_bps, uint32_t burst)
{
	memset(r, 0, sizeof *r);
	r->rate_bps = rate_bps;
	r->full = (int64_t)burst * BITNS_PER_BYTE;
	r->floor = -(int64_t)WS_NODE_RATE_SLACK * BITNS_PER_BYTE;
}

static void refill_at(uint64_t rate, int64_t full, ws_node_bucket *b, int64_t now)
{
	int64_t dt = now - b->last_ns;
	b->last_ns = now;
	if (dt <= 0 || b->tokens >= full)
		return;
	int64_t need = full - b->tokens;
	/* Clamped first, so dt x rate stays below need + rate, far from 2^63. */
	if ((uint64_t)dt > (uint64_t)need / rate) {
		b->tokens = full;
		return;
	}
	b->tokens += dt * (int64_t)rate;
	if (b->tokens > full)
		b->tokens = full;
}

static void refill(const ws_node_rate *r, ws_node_bucket *b, int64_t now)
{
	refill_at(r->rate_bps, r->full, b, now);
}

void ws_node_rate_set_total(ws_node_rate *r, uint64_t total_bps)
{
	r->total_bps = total_bps;
	r->total = (ws_node_bucket){.used = 1, .tokens = r->full};
}

static unsigned set_of(uint32_t addr)
{
	return (unsigned)((addr * 2654435761u) >> 26) % WS_NODE_RATE_SETS;
}

ws_node_bucket *ws_node_rate_get(ws_node_rate *r, uint32_t addr, int64_t now)
{
	if (!r->rate_bps)
		return NULL;
	ws_node_bucket *set = r->b[set_of(addr)], *spare = NULL;
	for (unsigned i = 0; i < WS_NODE_RATE_WAYS; i++) {
		ws_node_bucket *b = &set[i];
		if (b->used && b->addr == addr) {
			refill(r, b, now);
			return b;
		}
		if (spare)
			continue;
		if (!b->used) {
			spare = b;
		} else if (!b->pinned) {
			refill(r, b, now);
			if (b->tokens >= r->full)
				spare = b;
		}
	}
	if (spare)
		*spare = (ws_node_bucket){
			.addr = addr, .used = 1, .tokens = r->full, .last_ns = now};
	return spare;
}

static int64_t wait_one(uint64_t rate, const ws_node_bucket *b, int64_t now)
{
	int64_t t = b->tokens;
	int64_t dt = now - b->last_ns;
	if (dt > 0 && t <= 0 && (uint64_t)dt <= (uint64_t)(-t) / rate)
		t += dt * (int64_t)rate;
	else if (dt > 0 && t <= 0)
		t = 1;
	return t > 0 ? 0 : -t / (int64_t)rate + 1;
}

int64_t ws_node_rate_wait(const ws_node_rate *r, const ws_node_bucket *b, int64_t now)
{
	int64_t w = b && r->rate_bps ? wait_one(r->rate_bps, b, now) : 0;
	int64_t wt = r->total_bps ? wait_one(r->total_bps, &r->total, now) : 0;
	return wt > w ? wt : w;
}

static uint64_t tokens_bytes(const ws_node_bucket *b)
{
	if (b->tokens <= 0)
		return 0;
	return (uint64_t)((b->tokens + BITNS_PER_BYTE - 1) / BITNS_PER_BYTE);
}

uint64_t ws_node_rate_allowance(ws_node_rate *r, ws_node_bucket *b, int64_t now)
{
	uint64_t a = UINT64_MAX;
	if (b && r->rate_bps) {
		refill(r, b, now);
		a = tokens_bytes(b);
	}
	if (r->total_bps) {
		refill_at(r->total_bps, r->full, &r->total, now);
		uint64_t t = tokens_bytes(&r->total);
		if (t < a)
			a = t;
	}
	return a;
}

void ws_node_rate_spent(ws_node_rate *r, uint64_t bytes)
{
	if (!r->total_bps)
		return;
	/* At most one burst of debt: small answers of many sources charge it too, and must
	 * not push the streams' next turn arbitrarily far. */
	r->total.tokens -= (int64_t)bytes * BITNS_PER_BYTE;
	if (r->total.tokens < -r->full)
		r->total.tokens = -r->full;
}

int ws_node_rate_small_ok(const ws_node_rate *r, ws_node_bucket *b, int64_t now)
{
	refill(r, b, now);
	return b->tokens > r->floor;
}

void ws_node_rate_charge(ws_node_bucket *b, uint64_t bytes)
{
	if (b)
		b->tokens -= (int64_t)bytes * BITNS_PER_BYTE;
}
