/* SPDX-License-Identifier: BSD-2-Clause */
/* compare: samples and contexts from saved documents, and the comparison; see compare.h. */
#include "report/compare.h"

#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ws_cmp_side_free(ws_cmp_side *side)
{
	for (size_t i = 0; i < side->ns; i++)
		free(side->s[i].v);
	free(side->s);
	memset(side, 0, sizeof *side);
}

size_t ws_cmp_next_value(const char *t, size_t len, size_t *pos, size_t *start)
{
	size_t i = *pos;
	while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r' || t[i] == '\n'))
		i++;
	if (i >= len) {
		*pos = len;
		return 0;
	}
	*start = i;
	size_t depth = 0;
	bool str = false, esc = false;
	for (; i < len; i++) {
		char c = t[i];
		if (str) {
			if (esc)
				esc = false;
			else if (c == '\\')
				esc = true;
			else if (c == '"')
				str = false;
		} else if (c == '"') {
			str = true;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if ((c == '}' || c == ']') && depth && --depth == 0) {
			i++;
			break;
		} else if (depth == 0 && (c == '\n')) {
			break; /* not an object or array: the reader names what is wrong */
		}
	}
	*pos = i;
	return i - *start;
}

static const char *type_of(const ws_jdoc *d) { return ws_jstr(d, ws_jget(d, ws_jroot(d), "type")); }

bool ws_cmp_doc_counts(const ws_jdoc *doc)
{
	const char *t = type_of(doc);
	return !t || strcmp(t, "interval") != 0;
}

/* The series name on side, created on first use (NULL: no memory or too many). */
static ws_cmp_series *series(ws_cmp_side *side, const char *name, const char *units, bool higher)
{
	for (size_t i = 0; i < side->ns; i++)
		if (!strcmp(side->s[i].name, name) && !strcmp(side->s[i].units, units))
			return &side->s[i];
	if (side->ns == side->cap) {
		size_t cap = side->cap ? side->cap * 2 : 32;
		if (cap > WS_CMP_MAX_SERIES)
			return NULL;
		ws_cmp_series *s = realloc(side->s, cap * sizeof *s);
		if (!s)
			return NULL;
		side->s = s;
		side->cap = cap;
	}
	ws_cmp_series *s = &side->s[side->ns++];
	memset(s, 0, sizeof *s);
	snprintf(s->name, sizeof s->name, "%s", name);
	snprintf(s->units, sizeof s->units, "%s", units);
	s->higher_better = higher;
	return s;
}

/* One sample of a figure; NaN (null: not measured) is no sample, a value <= 0 is
 * counted as dropped (a ratio needs positive values). Returns 1 when added, 0 when not,
 * -ENOMEM. */
static int add(ws_cmp_side *side, const char *prefix, const char *name, const char *units,
	       bool higher, double v)
{
	if (isnan(v))
		return 0;
	if (!isfinite(v) || v <= 0) {
		side->dropped++;
		return 0;
	}
	char full[96];
	snprintf(full, sizeof full, "%s%s", prefix, name);
	ws_cmp_series *s = series(side, full, units ? units : "", higher);
	if (!s)
		return -ENOMEM;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		double *v2 = realloc(s->v, cap * sizeof *v2);
		if (!v2)
			return -ENOMEM;
		s->v = v2;
		s->cap = cap;
	}
	s->v[s->n++] = v;
	return 1;
}

static double num(const ws_jdoc *d, const ws_jval *o, const char *path)
{
	return ws_jnum(ws_jpath(d, o, path), NAN);
}

static const char *str(const ws_jdoc *d, const ws_jval *o, const char *path, const char *dflt)
{
	const char *s = ws_jstr(d, ws_jpath(d, o, path));
	return s ? s : dflt;
}

/* A string value, or "?". */
static const char *sval(const ws_jdoc *d, const ws_jval *v)
{
	const char *s = ws_jstr(d, v);
	return s ? s : "?";
}

/* A result's figures under prefix; returns the number added or -ENOMEM. */
static int result_figures(ws_cmp_side *side, const ws_jdoc *d, const ws_jval *r, const char *p)
{
	static const struct {
		const char *path, *name, *units;
		/* clang-format off */
	} lower[] = {
		{"local.cpu.util", "local_cpu_util", "%"},
		{"remote.cpu.util", "remote_cpu_util", "%"},
		{"latency.p50_us", "latency_p50", "us"},
		{"latency.p90_us", "latency_p90", "us"},
		{"latency.p99_us", "latency_p99", "us"},
		{"latency.p99_9_us", "latency_p99.9", "us"},
	};
	/* clang-format on */
	int added = 0, rc;
	const char *units = str(d, r, "throughput.units", "");
	if ((rc = add(side, p, "throughput", units, true, num(d, r, "throughput.value"))) < 0)
		return rc;
	added += rc;
	if (strcmp(units, "Trans/s") != 0) { /* else the throughput is the transaction rate */
		if ((rc = add(side, p, "transaction_rate", "Trans/s", true,
			      num(d, r, "throughput.transaction_rate"))) < 0)
			return rc;
		added += rc;
	}
	for (size_t i = 0; i < sizeof lower / sizeof lower[0]; i++) {
		if ((rc = add(side, p, lower[i].name, lower[i].units, false,
			      num(d, r, lower[i].path))) < 0)
			return rc;
		added += rc;
	}
	const char *sides[] = {"local", "remote"};
	for (int k = 0; k < 2; k++) {
		char path[64], name[48], upath[64];
		snprintf(path, sizeof path, "%s.cpu.service_demand", sides[k]);
		snprintf(upath, sizeof upath, "%s.cpu.service_demand_units", sides[k]);
		snprintf(name, sizeof name, "%s_service_demand", sides[k]);
		if ((rc = add(side, p, name, str(d, r, upath, ""), false, num(d, r, path))) < 0)
			return rc;
		added += rc;
	}
	return added;
}

static void result_context(const ws_jdoc *d, const ws_jval *r, ws_cmp_context *c)
{
	snprintf(c->test, sizeof c->test, "%s", str(d, r, "test", "?"));
	snprintf(c->sizes, sizeof c->sizes, "-m %.0f -M %.0f -r %.0f,%.0f --streams %.0f",
		 num(d, r, "spec.send_size"), num(d, r, "spec.recv_size"),
		 num(d, r, "spec.req_size"), num(d, r, "spec.rsp_size"), num(d, r, "spec.streams"));
	snprintf(c->units, sizeof c->units, "%s", str(d, r, "throughput.units", ""));
	snprintf(c->host, sizeof c->host, "%.90s -> %.90s", str(d, r, "hosts.local_hostname", "?"),
		 str(d, r, "hosts.remote_host", "?"));
	const char *v = str(d, r, "warpspeed_version", "?");
	size_t vl = strcspn(v, "+");
	snprintf(c->version, sizeof c->version, "%.*s schema %.0f", (int)(vl < 40 ? vl : 40), v,
		 num(d, r, "schema_version"));
}

static int sweep_doc(ws_cmp_side *side, const ws_jdoc *d, ws_cmp_context *c)
{
	const ws_jval *root = ws_jroot(d), *pts = ws_jget(d, root, "points");
	const char *param = str(d, root, "parameter", "?");
	int added = 0;
	bool ctx = false;
	for (const ws_jval *p = ws_jfirst(d, pts); p; p = ws_jnext(d, p)) {
		const ws_jval *r = ws_jget(d, p, "result");
		if (!r || r->type != WS_J_OBJ)
			continue;
		char prefix[64];
		snprintf(prefix, sizeof prefix, "%.20s=%.30s ", param, str(d, p, "value", "?"));
		int rc = result_figures(side, d, r, prefix);
		if (rc < 0)
			return rc;
		added += rc;
		if (!ctx) {
			result_context(d, r, c);
			ctx = true;
		}
	}
	char vals[96] = "", sz[sizeof c->sizes];
	size_t vl = 0;
	for (const ws_jval *v = ws_jfirst(d, ws_jget(d, root, "values")); v; v = ws_jnext(d, v)) {
		int w = snprintf(vals + vl, sizeof vals - vl, "%s%s", vl ? "," : "", sval(d, v));
		if (w < 0 || (size_t)w >= sizeof vals - vl)
			break;
		vl += (size_t)w;
	}
	snprintf(sz, sizeof sz, "sweep %.20s=%.90s; %.70s", param, vals, c->sizes);
	memcpy(c->sizes, sz, sizeof sz);
	return added;
}

static int mesh_doc(ws_cmp_side *side, const ws_jdoc *d, ws_cmp_context *c)
{
	const ws_jval *root = ws_jroot(d);
	int added = 0;
	for (const ws_jval *cell = ws_jfirst(d, ws_jget(d, root, "cells")); cell;
	     cell = ws_jnext(d, cell)) {
		char name[48];
		snprintf(name, sizeof name, "cell %.0f->%.0f", num(d, cell, "src"),
			 num(d, cell, "dst"));
		double v = num(d, cell, "throughput");
		int rc = add(side, "", name, str(d, cell, "units", ""), true, isnan(v) ? 0 : v);
		if (rc < 0)
			return rc;
		added += rc;
	}
	snprintf(c->test, sizeof c->test, "%s", str(d, root, "test", "?"));
	snprintf(c->sizes, sizeof c->sizes, "ranks %.0f schedule %s", num(d, root, "ranks"),
		 str(d, root, "schedule", "?"));
	snprintf(c->units, sizeof c->units, "%s", str(d, root, "units", ""));
	size_t hl = 0;
	for (const ws_jval *h = ws_jfirst(d, ws_jget(d, root, "hosts")); h; h = ws_jnext(d, h)) {
		int w = snprintf(c->host + hl, sizeof c->host - hl, "%s%s", hl ? "," : "",
				 sval(d, h));
		if (w < 0 || (size_t)w >= sizeof c->host - hl)
			break;
		hl += (size_t)w;
	}
	snprintf(c->version, sizeof c->version, "schema %.0f", num(d, root, "schema_version"));
	return added;
}

/* iq bench: node 1's rows (or the aggregate of several nodes), mean Mb/s per size, as
 * `warpspeed plot` draws them. */
static int iq_doc(ws_cmp_side *side, const ws_jdoc *d, ws_cmp_context *c)
{
	const ws_jval *root = ws_jroot(d), *rows = ws_jget(d, root, "rows");
	const ws_jval *agg = ws_jpath(d, root, "aggregate.by_size");
	const ws_jval *src = agg && agg->type == WS_J_ARR && agg->n ? agg : rows;
	int added = 0;
	const ws_jval *first = NULL;
	for (const ws_jval *r = ws_jfirst(d, src); r; r = ws_jnext(d, r)) {
		if (src == rows && ws_jnum(ws_jget(d, r, "node"), 1) != 1)
			continue;
		first = first ? first : r;
		char w[48], rd[48];
		snprintf(w, sizeof w, "iq write %.0f", num(d, r, "samples"));
		snprintf(rd, sizeof rd, "iq read %.0f", num(d, r, "samples"));
		int rc = add(side, "", w, "Mb/s", true, num(d, r, "write.avg_mbps"));
		if (rc >= 0) {
			added += rc;
			rc = add(side, "", rd, "Mb/s", true, num(d, r, "read.avg_mbps"));
		}
		if (rc < 0)
			return rc;
		added += rc;
	}
	const ws_jval *r0 = rows ? ws_jfirst(d, rows) : NULL;
	snprintf(c->test, sizeof c->test, "iq bench");
	snprintf(c->sizes, sizeof c->sizes, "format %.20s pkt_size %.0f", str(d, r0, "format", "?"),
		 num(d, r0, "pkt_size"));
	snprintf(c->units, sizeof c->units, "Mb/s");
	snprintf(c->host, sizeof c->host, "%s", str(d, r0, "serial", "?"));
	snprintf(c->version, sizeof c->version, "%s", str(d, r0, "wlver", "?"));
	return added;
}

int ws_cmp_add_doc(ws_cmp_side *side, const ws_jdoc *d, ws_cmp_context *c, ws_err *err)
{
	memset(c, 0, sizeof *c);
	const ws_jval *root = ws_jroot(d);
	const char *t = type_of(d);
	int rc;
	if (root->type != WS_J_OBJ) {
		return ws_err_set(err, WS_E_INVAL, "not a warpspeed document (not a JSON object)");
	} else if (t && (!strcmp(t, "result") || !strcmp(t, "summary"))) {
		snprintf(c->kind, sizeof c->kind, "result");
		result_context(d, root, c);
		rc = result_figures(side, d, root, "");
	} else if (t && !strcmp(t, "sweep")) {
		snprintf(c->kind, sizeof c->kind, "sweep");
		rc = sweep_doc(side, d, c);
	} else if (t && !strcmp(t, "mesh")) {
		snprintf(c->kind, sizeof c->kind, "mesh");
		rc = mesh_doc(side, d, c);
	} else if (!t && ws_jget(d, root, "rows")) {
		snprintf(c->kind, sizeof c->kind, "iq");
		rc = iq_doc(side, d, c);
	} else {
		return ws_err_set(err, WS_E_INVAL,
				  "a document of type '%s'; expected a --json result or "
				  "summary, a sweep, a mesh or an iq bench document",
				  t ? t : "(none)");
	}
	if (rc < 0)
		return ws_err_set(err, ENOMEM, "no memory for the samples (at most %d figures)",
				  WS_CMP_MAX_SERIES);
	if (rc == 0)
		return ws_err_set(err, WS_E_INVAL, "a %s document with no measured figure",
				  c->kind);
	side->docs++;
	return 0;
}

const char *ws_cmp_context_diff(const ws_cmp_context *a, const ws_cmp_context *b, char *msg,
				size_t n)
{
	static const struct {
		const char *name;
		size_t off;
		/* clang-format off */
	} f[] = {
		{"kind", offsetof(ws_cmp_context, kind)},   {"test", offsetof(ws_cmp_context, test)},
		{"sizes", offsetof(ws_cmp_context, sizes)}, {"units", offsetof(ws_cmp_context, units)},
		{"host", offsetof(ws_cmp_context, host)},   {"version", offsetof(ws_cmp_context, version)},
	};
	/* clang-format on */
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
		const char *x = (const char *)a + f[i].off, *y = (const char *)b + f[i].off;
		if (strcmp(x, y) != 0) {
			snprintf(msg, n, "%s: %s against %s", f[i].name, y, x);
			return f[i].name;
		}
	}
	return NULL;
}

int ws_cmp_run(const ws_cmp_side *old, const ws_cmp_side *nw, double fail_pct, ws_cmp_row **rows,
	       size_t *n, ws_err *err)
{
	*rows = NULL;
	*n = 0;
	ws_cmp_row *out = old->ns ? calloc(old->ns, sizeof *out) : NULL;
	if (old->ns && !out)
		return ws_err_set(err, ENOMEM, "no memory for %zu figures", old->ns);
	size_t k = 0;
	for (size_t i = 0; i < old->ns; i++) {
		const ws_cmp_series *a = &old->s[i], *b = NULL;
		for (size_t j = 0; j < nw->ns && !b; j++)
			if (!strcmp(nw->s[j].name, a->name) && !strcmp(nw->s[j].units, a->units))
				b = &nw->s[j];
		if (!b)
			continue;
		ws_cmp_row *r = &out[k];
		memcpy(r->name, a->name, sizeof r->name);
		memcpy(r->units, a->units, sizeof r->units);
		r->higher_better = a->higher_better;
		int rc = ws_ratio_compute(a->v, a->n, b->v, b->n, &r->r, err);
		if (rc < 0) {
			ws_err_prefix(err, "%s", a->name);
			free(out);
			return rc;
		}
		r->verdict = ws_ratio_verdict(&r->r, r->higher_better);
		r->worse_pct = ws_ratio_worse_pct(&r->r, r->higher_better);
		r->fails = fail_pct >= 0 && ws_ratio_fails(&r->r, r->higher_better, fail_pct);
		k++;
	}
	*rows = out;
	*n = k;
	return 0;
}
