/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_node_allow: arbitrary text as a node --allow list, and arbitrary addresses against
 * the token-bucket table of the node's reply cap.
 *
 * The text is copied into an exactly-sized NUL-terminated heap block, so ASan reports any
 * read past its end; a list that parses is printed and every one of its networks must
 * admit its own address. The first bytes also drive a rate table (addresses, times and
 * charges from the input) whose invariants are checked: a bucket never holds more than
 * its burst, and the wait it reports is never negative. Build with `make fuzz`. */
#include "iq/node/node_allow.h"
#include "iq/node/node_rate.h"
#include "util/bytes.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void rate_walk(const uint8_t *data, size_t size)
{
	static ws_node_rate r;
	ws_node_rate_init(&r, 1000 + (uint64_t)(size ? data[0] : 0) * 1000000u, 1024 + 4096);
	int64_t now = 0;
	for (size_t i = 0; i + 8 <= size; i += 8) {
		uint32_t addr = ws_get_be32(data + i) & 0x0000FFFFu;
		now += ws_get_be16(data + i + 4) * 1000ll;
		ws_node_bucket *b = ws_node_rate_get(&r, addr, now);
		if (!b)
			continue;
		uint64_t allow = ws_node_rate_allowance(&r, b, now);
		if (allow > 1024 + 4096 || ws_node_rate_wait(&r, b, now) < 0)
			abort();
		if (data[i + 6] & 1)
			b->pinned = !b->pinned;
		if (allow || ws_node_rate_small_ok(&r, b, now))
			ws_node_rate_charge(b, (uint64_t)data[i + 7] * 64);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	ws_node_allow a;
	if (ws_node_allow_parse(s, &a, NULL) == 0) {
		char buf[700];
		ws_node_allow_format(&a, buf, sizeof buf);
		for (unsigned i = 0; i < a.n; i++)
			if (!ws_node_allow_match(&a, a.net[i].addr))
				abort();
	}
	free(s);
	rate_walk(data, size);
	return 0;
}
