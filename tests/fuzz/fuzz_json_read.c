/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_json_read: libFuzzer target for the JSON reader (util/json_read.c) and the charts
 * drawn from what it reads (report/charts.c).
 *
 * `warpspeed plot` reads files users hand it. The input is copied into an exactly-sized
 * heap block (no NUL after it, so ASan sees any read past its end) and parsed with small
 * limits and with the defaults. A parsed document must be walkable: every child index in
 * range, every string NUL-terminated inside the pool, the child counts matching the
 * links. Then every chart kind is drawn from it to /dev/null, which must either succeed
 * or fail with a message, never crash. */
#include "report/charts.h"
#include "util/err.h"
#include "util/json_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

static void walk(const ws_jdoc *d)
{
	for (size_t i = 0; i < d->nv; i++) {
		const ws_jval *v = &d->v[i];
		if (v->first >= d->nv || v->next >= d->nv)
			abort();
		if (v->type == WS_J_STR && ((size_t)v->str + v->n >= d->plen || d->pool[v->str + v->n] != 0))
			abort();
		if (v->key != UINT32_MAX && (v->key >= d->plen || !memchr(d->pool + v->key, 0, d->plen - v->key)))
			abort();
		if (v->type == WS_J_ARR || v->type == WS_J_OBJ) {
			uint32_t n = 0;
			for (const ws_jval *c = ws_jfirst(d, v); c && n <= d->nv; c = ws_jnext(d, c))
				n++;
			if (n != v->n)
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!sink)
		sink = fopen("/dev/null", "w");
	char *t = malloc(size ? size : 1);
	if (!t)
		abort();
	memcpy(t, data, size);
	ws_jlimits small = {.max_bytes = 4096, .max_depth = 8, .max_values = 64};
	ws_jdoc d;
	ws_err e;
	if (ws_json_read(t, size, &small, &d, &e) == 0) {
		walk(&d);
		ws_jdoc_free(&d);
	} else if (!e.msg[0]) {
		abort();
	}
	if (ws_json_read(t, size, NULL, &d, &e) == 0) {
		walk(&d);
		ws_chart_input in[2] = {{&d, "a"}, {&d, "b"}};
		for (int k = WS_CHART_AUTO; k <= WS_CHART_MESH; k++) {
			ws_chart_opts o = {.kind = (enum ws_chart_kind)k, .reference_warplab = k == WS_CHART_IQ,
					   .link_mbps = 1000};
			ws_err_clear(&e);
			if (ws_chart_docs(sink, in, 1 + (size & 1), &o, &e) < 0 && !e.msg[0])
				abort();
		}
		ws_jdoc_free(&d);
	}
	free(t);
	return 0;
}
