/* SPDX-License-Identifier: BSD-2-Clause */
/* compare: the samples that `warpspeed compare` weighs, taken from saved JSON documents,
 * grouped by figure, and compared side against side (measure/ratio.h).
 *
 * A regression check is only as good as its grouping: every saved document (a --json
 * result or --json-lines summary, a sweep, a mesh, an iq bench document) becomes one
 * sample of each figure it carries (throughput, transaction rate, each side's CPU
 * utilisation and service demand, P50/P90/P99/P99.9 latency, each sweep point's figures,
 * each mesh cell, IQ Write and Read Mb/s per size), and a context (kind, test, sizes,
 * units, hosts, version) that says what was measured, so that runs that measured
 * something else are named instead of silently pooled. Files can hold several documents
 * (`--repeat N` writes N); ws_cmp_next_value finds them. Nothing here prints or reads
 * files: the CLI role (cli/compare.c) does, and decides what a context difference means. */
#ifndef WS_REPORT_COMPARE_H
#define WS_REPORT_COMPARE_H

#include "measure/ratio.h"
#include "util/json_read.h"

#include <stdbool.h>
#include <stddef.h>

struct ws_err;

#define WS_CMP_MAX_SERIES 4096

/* What a document measured; two documents are comparable when every field is equal. */
typedef struct ws_cmp_context {
	char kind[16];    /* result, sweep, mesh, iq */
	char test[32];    /* TCP_RR, ..., "iq bench" */
	char sizes[192];  /* -m -M -r --streams (a sweep: also its values; iq: format, packet) */
	char units[32];   /* the throughput's units (-f) */
	char host[192];   /* local host name -> remote host as typed (mesh: the hosts) */
	char version[64]; /* warpspeed's release (without the +git part) and schema_version */
} ws_cmp_context;

/* One figure's samples on one side. */
typedef struct ws_cmp_series {
	char name[96]; /* "throughput", "latency_p99", "m=64 throughput", "cell 0->1" */
	char units[32];
	bool higher_better;
	double *v;
	size_t n, cap;
} ws_cmp_series;

typedef struct ws_cmp_side {
	ws_cmp_series *s;
	size_t ns, cap;
	size_t docs;    /* documents added: the number of runs */
	size_t dropped; /* values left out: not positive (a 0% CPU, a failed cell) */
} ws_cmp_side;

void ws_cmp_side_free(ws_cmp_side *side);

/* The next top-level JSON value of text[*pos..len) (an object or array, balanced outside
 * strings): its start in *start and its length; *pos moves past it. 0 when only blanks
 * remain. A file holds one document, JSON lines, or documents one after another. */
size_t ws_cmp_next_value(const char *text, size_t len, size_t *pos, size_t *start);

/* True when doc is a document compare reads (false for --json-lines "interval" objects,
 * which carry no figure of their own). */
bool ws_cmp_doc_counts(const ws_jdoc *doc);

/* Adds doc's figures to side as one sample each and fills ctx. -WS_E_INVAL with err when
 * doc is not a result, summary, sweep, mesh or iq bench document, or has no figure. */
int ws_cmp_add_doc(ws_cmp_side *side, const ws_jdoc *doc, ws_cmp_context *ctx, struct ws_err *err);

/* The first field in which a and b differ ("test", "sizes", ...) with both values in msg
 * ("test: TCP_RR against TCP_STREAM"), or NULL when they agree. */
const char *ws_cmp_context_diff(const ws_cmp_context *a, const ws_cmp_context *b, char *msg,
				size_t n);

/* One figure present on both sides. */
typedef struct ws_cmp_row {
	char name[96], units[32];
	bool higher_better;
	ws_ratio r;
	enum ws_ratio_verdict verdict;
	double worse_pct; /* ws_ratio_worse_pct */
	bool fails;       /* --fail-if-worse (fail_pct >= 0) */
} ws_cmp_row;

/* The rows of every figure both sides have, in old's order (malloc'd; *n may be 0).
 * fail_pct < 0: no threshold. */
int ws_cmp_run(const ws_cmp_side *old, const ws_cmp_side *nw, double fail_pct, ws_cmp_row **rows,
	       size_t *n, struct ws_err *err);

#endif
