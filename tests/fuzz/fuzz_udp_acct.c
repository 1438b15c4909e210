/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_udp_acct: a sequence of datagrams into the UDP_STREAM receiver's accounting, with
 * invariants checked after each one.
 *
 * The input is a list of records. Each starts with an op byte: most ops build a valid
 * header (so the fuzzer does not have to find the check) whose sequence number is either
 * taken whole from the input or placed relative to the current head (just behind, inside
 * the window, just past it, near the jump bound, near 2^64), with a fuzzed kind and length;
 * the rest feed raw bytes as junk. After every datagram: unique + dup never exceeds the
 * data datagrams fed, reordered never exceeds unique, the head only grows, never by the
 * more than the jump bound (which bounds the work of a call), stays below the sequence limit,
 * and lost never exceeds what the head or a believed END total says was expected. */
#include "workload/udp_acct.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TAG 0x0A1B2C3Du

static uint64_t take64(const uint8_t **p, size_t *n)
{
	uint64_t v = 0;
	for (int i = 0; i < 8 && *n; i++, (*p)++, (*n)--)
		v = v << 8 | **p;
	return v;
}

static uint64_t placed(const ws_udp_acct *a, uint8_t how, uint64_t raw)
{
	uint64_t small = raw % 8192;
	switch (how % 8) {
	case 0: return raw;
	case 1: return a->head + small;                      /* ahead, mostly inside the window */
	case 2: return a->head - 1 - small % (a->head ? a->head : 1); /* behind */
	case 3: return a->head + WS_UDP_JUMP_MAX - 4 + small % 8;    /* around the jump bound */
	case 4: return UINT64_MAX - small;                   /* near the wrap */
	case 5: return WS_UDP_SEQ_LIMIT - 4 + small % 8;     /* around the sequence limit */
	case 6: return a->head + WS_UDP_WINDOW - 4 + small % 8; /* around the window's edge */
	default: return small;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ws_udp_acct a;
	ws_udp_acct_init(&a, TAG);
	uint64_t fed_data = 0;
	uint8_t dgram[256];
	while (size > 0) {
		uint8_t op = *data++;
		size--;
		uint64_t head0 = a.head;
		size_t len;
		if (op < 0xE0) {
			uint64_t raw = take64(&data, &size);
			/* kinds 0..6 with a valid check: 4..6 are unknown and must be refused */
			uint8_t kind = op & 0x4 ? (uint8_t)(op >> 5) : WS_UDP_DATA;
			len = WS_UDP_HDR_LEN + (op >> 3) % 48;
			ws_udp_hdr h = {placed(&a, op, raw), op & 0x80 && op & 0x40 ? TAG ^ 1 : TAG, kind};
			memset(dgram, op, sizeof(dgram));
			ws_udp_hdr_encode(dgram, &h);
			fed_data += kind == WS_UDP_DATA;
		} else {
			len = (op & 0x1f) < size ? (op & 0x1f) : size;
			memcpy(dgram, data, len);
			data += len;
			size -= len;
			fed_data++; /* junk might decode as data: count it as fed */
		}
		ws_udp_acct_feed(&a, dgram, len);
		if (a.unique + a.dup > fed_data || a.reordered > a.unique)
			abort();
		if (a.head < head0 || a.head - head0 > WS_UDP_JUMP_MAX || a.head >= WS_UDP_SEQ_LIMIT)
			abort();
		uint64_t expected = a.end_seen && a.end_total ? a.end_total : a.head;
		if (ws_udp_acct_lost(&a) > expected || (a.end_seen && a.end_total >= WS_UDP_SEQ_LIMIT))
			abort();
	}
	return 0;
}
