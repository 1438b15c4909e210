/* SPDX-License-Identifier: BSD-2-Clause */
/* matrix: gathered cells into a checked matrix, printed as text or JSON; see matrix.h. */
#include "mesh/matrix.h"

#include "report/json.h"
#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool number_ok(double v) { return isfinite(v) && v >= 0; }

/* One slot of rank k: 0 (empty or taken into out), or -WS_E_PROTO. idx maps src*N+dst to
 * the pair's place in out, or -1 when the schedule does not test it. */
static int take(const ws_mesh_schedule *s, const long *idx, const ws_mesh_cell *c, int k,
		ws_mesh_cell *out, bool *seen, ws_err *err)
{
	int n = s->ranks;
	if (c->src == -1)
		return 0;
	if (c->src != k)
		return ws_err_set(err, WS_E_PROTO, "rank %d sent a result for source rank %ld", k,
				  (long)c->src);
	if (c->dst < 0 || c->dst >= n || c->dst == k)
		return ws_err_set(
			err, WS_E_PROTO,
			"rank %d sent a result for destination %ld; expected another of 0 to %d", k,
			(long)c->dst, n - 1);
	long at = idx[(size_t)k * (size_t)n + (size_t)c->dst];
	if (at < 0)
		return ws_err_set(
			err, WS_E_PROTO,
			"rank %d sent a result for %d -> %d, which schedule %s does not test", k, k,
			(int)c->dst, ws_mesh_kind_name(s->kind));
	if (seen[at])
		return ws_err_set(err, WS_E_PROTO, "rank %d sent two results for %d -> %d", k, k,
				  (int)c->dst);
	if (!memchr(c->error, 0, sizeof(c->error)))
		return ws_err_set(err, WS_E_PROTO,
				  "rank %d sent an unterminated error text for %d -> %d", k, k,
				  (int)c->dst);
	if (!number_ok(c->throughput) || !number_ok(c->elapsed_s))
		return ws_err_set(err, WS_E_PROTO,
				  "rank %d sent throughput %g over %g s for %d -> %d; expected "
				  "finite, not negative",
				  k, c->throughput, c->elapsed_s, k, (int)c->dst);
	if (c->status > 0 || (c->status == 0) != (c->error[0] == 0))
		return ws_err_set(
			err, WS_E_PROTO, "rank %d sent status %ld %s an error text for %d -> %d", k,
			(long)c->status, c->error[0] ? "with" : "without", k, (int)c->dst);
	if (c->round != out[at].round)
		return ws_err_set(
			err, WS_E_PROTO,
			"rank %d sent %d -> %d as round %ld; the schedule runs it in round %ld", k,
			k, (int)c->dst, (long)c->round, (long)out[at].round);
	out[at] = *c;
	seen[at] = true;
	return 0;
}

static int by_pair(const void *a, const void *b)
{
	const ws_mesh_cell *x = a, *y = b;
	return x->src != y->src ? (x->src > y->src) - (x->src < y->src)
				: (x->dst > y->dst) - (x->dst < y->dst);
}

int ws_mesh_cells_collect(const ws_mesh_schedule *s, const ws_mesh_cell *slots, size_t per_rank,
			  ws_mesh_cell **out, ws_err *err)
{
	size_t n = (size_t)s->ranks, np = s->npairs;
	*out = NULL;
	ws_mesh_cell *cells = calloc(np ? np : 1, sizeof(*cells));
	long *idx = malloc(n * n * sizeof(*idx));
	bool *seen = calloc(np ? np : 1, sizeof(*seen));
	if (!cells || !idx || !seen) {
		free(cells);
		free(idx);
		free(seen);
		return ws_err_set(err, ENOMEM, "no memory for a matrix of %zu ranks", n);
	}
	/* The expected cells in pair order; each starts as "nothing reported". */
	for (int r = 0; r < s->nrounds; r++)
		for (size_t i = s->round_start[r]; i < s->round_start[r + 1]; i++)
			cells[i] = (ws_mesh_cell){
				.src = s->pairs[i].src, .dst = s->pairs[i].dst, .round = r};
	qsort(cells, np, sizeof(*cells), by_pair);
	for (size_t i = 0; i < n * n; i++)
		idx[i] = -1;
	for (size_t i = 0; i < np; i++)
		idx[(size_t)cells[i].src * n + (size_t)cells[i].dst] = (long)i;
	int rc = 0;
	for (size_t k = 0; k < n && rc == 0; k++)
		for (size_t j = 0; j < per_rank && rc == 0; j++)
			rc = take(s, idx, &slots[k * per_rank + j], (int)k, cells, seen, err);
	for (size_t i = 0; i < np && rc == 0; i++)
		if (!seen[i]) {
			cells[i].status = -WS_E_PROTO;
			snprintf(cells[i].error, sizeof(cells[i].error),
				 "rank %d reported no result for this pair", (int)cells[i].src);
		}
	free(idx);
	free(seen);
	if (rc < 0) {
		free(cells);
		return rc;
	}
	*out = cells;
	return 0;
}

size_t ws_mesh_matrix_failed(const ws_mesh_matrix *m)
{
	size_t k = 0;
	for (size_t i = 0; i < m->s->npairs; i++)
		k += m->cells[i].status != 0;
	return k;
}

/* The cell of src -> dst, or NULL when the schedule does not test it (cells are sorted). */
static const ws_mesh_cell *cell_at(const ws_mesh_matrix *m, int src, int dst)
{
	ws_mesh_cell key = {.src = src, .dst = dst};
	return bsearch(&key, m->cells, m->s->npairs, sizeof(key), by_pair);
}

/* The text of a cell; failures are numbered in row order from 1. */
static void cell_text(const ws_mesh_matrix *m, int src, int dst, size_t *nfail, char *buf, size_t n)
{
	const ws_mesh_cell *c = src == dst ? NULL : cell_at(m, src, dst);
	if (src == dst)
		snprintf(buf, n, "-");
	else if (!c)
		snprintf(buf, n, ".");
	else if (c->status != 0)
		snprintf(buf, n, "failed[%zu]", ++*nfail);
	else
		snprintf(buf, n, "%.2f", c->throughput);
}

int ws_mesh_matrix_text(const ws_mesh_matrix *m, bool headers, FILE *out)
{
	int n = m->s->ranks;
	char t[48];
	size_t nfail = 0;
	int w = 9; /* the widest cell, at least "from\to" and a throughput of 9 digits */
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			cell_text(m, i, j, &nfail, t, sizeof(t));
			if ((int)strlen(t) > w)
				w = (int)strlen(t);
		}
	if (headers) {
		fprintf(out, "MESH %s TEST: %d ranks, schedule %s (%s): %zu tests in %d round%s\n",
			m->test, n, ws_mesh_kind_name(m->s->kind),
			ws_mesh_kind_describe(m->s->kind), m->s->npairs, m->s->nrounds,
			m->s->nrounds == 1 ? "" : "s");
		fprintf(out, "Throughput in %s; rows are sources, columns destinations\n\n",
			m->units);
		fprintf(out, "Rank  Host                              Address\n");
		for (int i = 0; i < n; i++)
			fprintf(out, "%-4d  %-32s  %s\n", i, m->peers[i].host, m->peers[i].addr);
		fprintf(out, "\n%-7s", "from\\to");
		for (int j = 0; j < n; j++)
			fprintf(out, "  %*d", w, j);
		fputc('\n', out);
	}
	nfail = 0;
	for (int i = 0; i < n; i++) {
		fprintf(out, "%7d", i);
		for (int j = 0; j < n; j++) {
			cell_text(m, i, j, &nfail, t, sizeof(t));
			fprintf(out, "  %*s", w, t);
		}
		fputc('\n', out);
	}
	if (nfail)
		fprintf(out, "\nfailed tests:\n");
	size_t k = 0;
	for (size_t i = 0; i < m->s->npairs; i++) {
		const ws_mesh_cell *c = &m->cells[i];
		if (c->status == 0)
			continue;
		const ws_mesh_peer *a = &m->peers[c->src], *b = &m->peers[c->dst];
		fprintf(out, "[%zu] %d -> %d (%s %s -> %s %s), round %d: %s\n", ++k, (int)c->src,
			(int)c->dst, a->host, a->addr, b->host, b->addr, (int)c->round, c->error);
	}
	fflush(out);
	return ferror(out) ? -EIO : 0;
}

int ws_mesh_matrix_json(const ws_mesh_matrix *m, FILE *out)
{
	ws_json j;
	ws_json_init(&j, out, 2);
	int n = m->s->ranks;
	ws_json_object_begin(&j, NULL);
	ws_json_str(&j, "type", "mesh");
	ws_json_int(&j, "schema_version", WS_MESH_SCHEMA_VERSION);
	ws_json_str(&j, "test", m->test);
	ws_json_str(&j, "schedule", ws_mesh_kind_name(m->s->kind));
	ws_json_int(&j, "ranks", n);
	ws_json_int(&j, "rounds", m->s->nrounds);
	ws_json_array_begin(&j, "hosts");
	for (int i = 0; i < n; i++)
		ws_json_str(&j, NULL, m->peers[i].host);
	ws_json_array_end(&j);
	ws_json_array_begin(&j, "addresses");
	for (int i = 0; i < n; i++)
		ws_json_str(&j, NULL, m->peers[i].addr);
	ws_json_array_end(&j);
	ws_json_str(&j, "units", m->units);
	ws_json_array_begin(&j, "cells");
	for (size_t i = 0; i < m->s->npairs; i++) {
		const ws_mesh_cell *c = &m->cells[i];
		bool ok = c->status == 0;
		ws_json_object_begin(&j, NULL);
		ws_json_int(&j, "src", c->src);
		ws_json_int(&j, "dst", c->dst);
		ws_json_str(&j, "src_host", m->peers[c->src].host);
		ws_json_str(&j, "dst_host", m->peers[c->dst].host);
		ws_json_str(&j, "src_addr", m->peers[c->src].addr);
		ws_json_str(&j, "dst_addr", m->peers[c->dst].addr);
		ws_json_int(&j, "round", c->round);
		if (ok) {
			ws_json_double(&j, "throughput", c->throughput);
			ws_json_str(&j, "units", m->units);
			ws_json_double(&j, "elapsed", c->elapsed_s);
			ws_json_null(&j, "error");
		} else {
			ws_json_null(&j, "throughput");
			ws_json_str(&j, "units", m->units);
			ws_json_null(&j, "elapsed");
			ws_json_str(&j, "error", c->error);
		}
		ws_json_object_end(&j);
	}
	ws_json_array_end(&j);
	ws_json_object_end(&j);
	return ws_json_finish(&j);
}
