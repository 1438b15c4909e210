/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_httpreq: arbitrary bytes as the request head the /metrics endpoint receives, fed
 * as the endpoint feeds them: a prefix at a time.
 *
 * The bytes are copied into an exactly-sized heap block, so ASan reports any read past
 * the bytes received. Invariants checked: a verdict is one of the statuses the endpoint
 * answers, with a reason unless it is 200; once a prefix gets a verdict other than 200
 * or 404/405 (which wait for the whole head), every longer prefix gets a verdict too
 * (junk is never un-refused by more bytes); a head of WS_HTTPREQ_MAX bytes always gets a
 * verdict (the endpoint never waits past its buffer). Build with `make fuzz`. */
#include "net/httpreq.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const ws_httpreq *r)
{
	switch (r->status) {
	case 200:
		if (r->why)
			abort();
		return;
	case 400:
	case 404:
	case 405:
	case 431:
	case 505:
		if (!r->why || !*r->why)
			abort();
		return;
	default:
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 2 * WS_HTTPREQ_MAX)
		return 0;
	char *buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	ws_httpreq r;
	bool refused = false;
	/* prefixes at the split points the first byte chooses, then the whole */
	size_t step = size ? (size_t)data[0] % 64 + 1 : 1;
	for (size_t n = step < size ? step : size;; n = n + step < size ? n + step : size) {
		int done = ws_httpreq_parse(buf, n, &r);
		if (done)
			check(&r);
		if (refused && !done)
			abort();
		if (done && r.status != 200 && r.status != 404 && r.status != 405)
			refused = true;
		if (n >= WS_HTTPREQ_MAX && !done)
			abort();
		if (n == size)
			break;
	}
	free(buf);
	return 0;
}
