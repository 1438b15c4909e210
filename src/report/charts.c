/* SPDX-License-Identifier: BSD-2-Clause */
/* charts: which chart a document fits, and the sweep, mesh and IQ charts (from documents
 * and from plain arrays); see charts.h. The result charts are in charts_result.c. */
#include "report/charts.h"

#include "report/chart.h"
#include "report/warplab_ref.h"
#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {"auto",    "spectrum", "histogram", "interim",
					 "streams", "sweep",    "iq",        "mesh"};
#define NKINDS (sizeof kind_names / sizeof kind_names[0])

const char *ws_chart_kind_name(enum ws_chart_kind k)
{
	return (size_t)k < NKINDS ? kind_names[k] : "?";
}

int ws_chart_kind_parse(const char *name, enum ws_chart_kind *k, ws_err *err)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (!strcmp(name, kind_names[i])) {
			*k = (enum ws_chart_kind)i;
			return 0;
		}
	return ws_err_set(err, WS_E_INVAL,
			  "'%s' is not a chart; expected auto, spectrum, histogram, "
			  "interim, streams, sweep, iq or mesh",
			  name);
}

/* ---- sweep ---------------------------------------------------------------------------- */

/* The swept parameters: their axis label and whether they are sizes in bytes. */
static const struct {
	const char *name, *label;
	bool size;
	/* clang-format off */
} params[] = {
	{"m", "Send size, -m (bytes)", true},
	{"M", "Receive size, -M (bytes)", true},
	{"r", "Request size, -r (bytes)", true},
	{"s", "Local socket buffer, -s (bytes)", true},
	{"S", "Remote socket buffer, -S (bytes)", true},
	{"streams", "Streams (--streams)", false},
	{"threads", "Threads (--threads)", false},
	{"rate", "Rate (--rate, per second)", false},
};
/* clang-format on */

static bool pow2(double v)
{
	int e;
	return v > 0 && frexp(v, &e) == 0.5;
}

int ws_chart_sweep(FILE *out, const ws_chart_sweep_series *s, size_t n, const ws_chart_opts *o,
		   ws_err *err)
{
	if (!n || n > WS_CHART_MAX_SERIES)
		return ws_err_set(err, WS_E_INVAL, "a sweep chart takes 1 to %d sweeps; got %zu",
				  WS_CHART_MAX_SERIES, n);
	const char *param = s[0].parameter ? s[0].parameter : "?";
	const char *label = NULL;
	bool size = false;
	for (size_t i = 0; i < sizeof params / sizeof params[0]; i++)
		if (!strcmp(param, params[i].name)) {
			label = params[i].label;
			size = params[i].size;
		}
	if (!label)
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is not a swept parameter; expected m, M, r, s, S, "
				  "streams, threads or rate",
				  param);
	bool all_pow2 = true;
	double lo = INFINITY, hi = 0, unit = ws_chart_unit_bits(s[0].units);
	ws_chart_series se[WS_CHART_MAX_SERIES];
	double *ys = NULL;
	size_t total = 0;
	for (size_t k = 0; k < n; k++)
		total += s[k].n;
	if (!(ys = malloc((total ? total : 1) * sizeof *ys)))
		return ws_err_set(err, ENOMEM, "no memory for %zu sweep points", total);
	double *y = ys;
	for (size_t k = 0; k < n; k++) {
		if (!s[k].parameter || strcmp(s[k].parameter, param)) {
			free(ys);
			return ws_err_set(err, WS_E_INVAL,
					  "%s sweeps %s and the first sweeps %s; one chart "
					  "draws one parameter",
					  s[k].label ? s[k].label : "a sweep",
					  s[k].parameter ? s[k].parameter : "nothing", param);
		}
		double f = 1, u = ws_chart_unit_bits(s[k].units);
		if (s[k].units && s[0].units && strcmp(s[k].units, s[0].units)) {
			if (!(u > 0 && unit > 0)) {
				free(ys);
				return ws_err_set(err, WS_E_INVAL,
						  "%s is in %s and the first sweep in %s; "
						  "they cannot share an axis",
						  s[k].label ? s[k].label : "a sweep", s[k].units,
						  s[0].units);
			}
			f = u / unit;
		}
		for (size_t i = 0; i < s[k].n; i++) {
			y[i] = s[k].y[i] * f;
			if (!(s[k].x[i] > 0))
				continue;
			all_pow2 = all_pow2 && pow2(s[k].x[i]);
			lo = fmin(lo, s[k].x[i]);
			hi = fmax(hi, s[k].x[i]);
		}
		se[k] = (ws_chart_series){.label = s[k].label ? s[k].label : "throughput",
					  .x = s[k].x,
					  .y = y,
					  .n = s[k].n,
					  .markers = true,
					  .style = -1};
		y += s[k].n;
	}
	enum ws_scale_kind xk = WS_SCALE_LINEAR;
	if (size && all_pow2)
		xk = WS_SCALE_LOG2;
	else if (lo > 0 && (size || hi > 16 * lo))
		xk = all_pow2 ? WS_SCALE_LOG2 : WS_SCALE_LOG10;
	char ylabel[64], sub[128];
	snprintf(ylabel, sizeof ylabel, "Throughput (%s)", s[0].units ? s[0].units : "?");
	snprintf(sub, sizeof sub, "%s%sone run per value of %s%s", s[0].test ? s[0].test : "",
		 s[0].test ? ": " : "", param, xk == WS_SCALE_LINEAR ? "" : " (log scale)");
	ws_chart c = {
		.title = o && o->title ? o->title : "Throughput against the swept value",
		.subtitle = sub,
		.x = {xk, size && xk == WS_SCALE_LOG2 ? WS_TICK_BINARY : WS_TICK_NUMBER,
		      xk == WS_SCALE_LINEAR ? 0 : lo, xk == WS_SCALE_LINEAR ? 0 : hi, false, label,
		      strcmp(param, "rate") != 0},
		.y = {WS_SCALE_LINEAR, WS_TICK_NUMBER, 0, 0, true, ylabel},
		.series = se,
		.nseries = n,
	};
	int rc = ws_chart_line(out, &c, err);
	free(ys);
	return rc;
}

/* A sweep document's points as a series; x and y are malloc'd (the caller frees). */
static int sweep_of(const ws_chart_input *in, ws_chart_sweep_series *s, ws_err *err)
{
	const ws_jdoc *d = in->doc;
	const ws_jval *root = ws_jroot(d), *pts = ws_jget(d, root, "points");
	memset(s, 0, sizeof *s);
	s->label = in->label;
	s->parameter = ws_jstr(d, ws_jget(d, root, "parameter"));
	if (!s->parameter || !pts || pts->type != WS_J_ARR || pts->n == 0)
		return ws_err_set(err, WS_E_INVAL,
				  "%s is a sweep without \"parameter\" or \"points\"", in->label);
	double *x = malloc(pts->n * sizeof *x), *y = malloc(pts->n * sizeof *y);
	if (!x || !y) {
		free(x);
		free(y);
		return ws_err_set(err, ENOMEM, "no memory for %u sweep points", pts->n);
	}
	size_t i = 0;
	for (const ws_jval *p = ws_jfirst(d, pts); p; p = ws_jnext(d, p), i++) {
		const ws_jval *r = ws_jget(d, p, "result");
		const char *u = ws_jstr(d, ws_jpath(d, r, "throughput.units"));
		x[i] = ws_jnum(ws_jget(d, p, "x"), NAN);
		y[i] = ws_jnum(ws_jpath(d, r, "throughput.value"), NAN);
		if (u && !s->units)
			s->units = u;
		if (!s->test)
			s->test = ws_jstr(d, ws_jget(d, r, "test"));
	}
	s->x = x;
	s->y = y;
	s->n = i;
	return 0;
}

/* ---- mesh ----------------------------------------------------------------------------- */

int ws_chart_mesh(FILE *out, const ws_chart_mesh_data *m, const ws_chart_opts *o, ws_err *err)
{
	if (m->ranks < 1 || m->ranks > 256)
		return ws_err_set(err, WS_E_INVAL, "a mesh of %d ranks; expected 1 to 256",
				  m->ranks);
	size_t r = (size_t)m->ranks;
	double *v = malloc(r * r * sizeof *v);
	const char **e = calloc(r * r, sizeof *e);
	char(*names)[48] = malloc(r * sizeof *names), (*nums)[24] = malloc(r * sizeof *nums);
	const char **labels = malloc(r * sizeof *labels), **cols = malloc(r * sizeof *cols);
	int rc = 0;
	if (!v || !e || !names || !labels || !nums || !cols) {
		rc = ws_err_set(err, ENOMEM, "no memory for a mesh of %zu ranks", r);
		goto out;
	}
	for (size_t i = 0; i < r * r; i++)
		v[i] = NAN;
	for (size_t i = 0; i < m->ncells; i++) {
		const ws_chart_mesh_cell *c = &m->cells[i];
		if (c->src < 0 || c->dst < 0 || c->src >= m->ranks || c->dst >= m->ranks) {
			rc = ws_err_set(err, WS_E_INVAL,
					"mesh cell %zu goes from rank %d to rank %d; the "
					"mesh has ranks 0 to %d",
					i, c->src, c->dst, m->ranks - 1);
			goto out;
		}
		size_t at = (size_t)c->src * r + (size_t)c->dst;
		v[at] = c->throughput;
		e[at] = c->error;
	}
	for (size_t i = 0; i < r; i++) {
		const char *h = m->hosts ? m->hosts[i] : NULL;
		snprintf(names[i], sizeof names[i], "%zu%s%.24s", i, h ? " " : "", h ? h : "");
		labels[i] = names[i];
		snprintf(nums[i], sizeof nums[i], "%zu",
			 i); /* columns: the rank (rows name the host) */
		cols[i] = nums[i];
	}
	char sub[160];
	snprintf(sub, sizeof sub, "%s, %d ranks%s%s", m->test ? m->test : "mesh", m->ranks,
		 m->schedule ? ", schedule " : "", m->schedule ? m->schedule : "");
	ws_chart_heat h = {
		.title = o && o->title ? o->title : "Throughput between ranks",
		.subtitle = sub,
		.row_label = "sender (src rank)",
		.col_label = "receiver (dst rank)",
		.units = m->units,
		.rows = labels,
		.cols = cols,
		.col_names = labels,
		.nrows = r,
		.ncols = r,
		.values = v,
		.errors = e,
	};
	rc = ws_chart_heatmap(out, &h, err);
out:
	free(v);
	free(e);
	free(names);
	free(labels);
	free(nums);
	free(cols);
	return rc;
}

static int mesh_doc(FILE *out, const ws_chart_input *in, const ws_chart_opts *o, ws_err *err)
{
	const ws_jdoc *d = in->doc;
	const ws_jval *root = ws_jroot(d), *cells = ws_jget(d, root, "cells"),
		      *hosts = ws_jget(d, root, "hosts");
	double ranks = ws_jnum(ws_jget(d, root, "ranks"), 0);
	if (!(ranks >= 1 && ranks <= 256) || !cells || cells->type != WS_J_ARR)
		return ws_err_set(err, WS_E_INVAL,
				  "%s is a mesh without \"cells\" or with \"ranks\" "
				  "outside 1 to 256",
				  in->label);
	ws_chart_mesh_cell *c = calloc(cells->n ? cells->n : 1, sizeof *c);
	const char **h = calloc((size_t)ranks, sizeof *h);
	int rc = 0;
	if (!c || !h) {
		rc = ws_err_set(err, ENOMEM, "no memory for %u mesh cells", cells->n);
		goto out;
	}
	size_t i = 0;
	for (const ws_jval *x = ws_jfirst(d, hosts); x && i < (size_t)ranks; x = ws_jnext(d, x))
		h[i++] = ws_jstr(d, x);
	i = 0;
	for (const ws_jval *x = ws_jfirst(d, cells); x; x = ws_jnext(d, x), i++) {
		double s = ws_jnum(ws_jget(d, x, "src"), -1), t = ws_jnum(ws_jget(d, x, "dst"), -1);
		const ws_jval *ev = ws_jget(d, x, "error");
		c[i] = (ws_chart_mesh_cell){
			.src = s >= 0 && s < 1e6 ? (int)s : -1,
			.dst = t >= 0 && t < 1e6 ? (int)t : -1,
			.throughput = ws_jnum(ws_jget(d, x, "throughput"), NAN),
			.error = ev && ev->type != WS_J_NULL
				? (ws_jstr(d, ev) ? ws_jstr(d, ev) : "failed")
				: NULL,
		};
	}
	/* clang-format off */
	ws_chart_mesh_data m = {
		.test = ws_jstr(d, ws_jget(d, root, "test")),
		.schedule = ws_jstr(d, ws_jget(d, root, "schedule")),
		.ranks = (int)ranks,
		.hosts = h,
		.units = ws_jstr(d, ws_jget(d, root, "units")),
		.cells = c,
		.ncells = i,
	};
	/* clang-format on */
	rc = ws_chart_mesh(out, &m, o, err);
out:
	free(c);
	free(h);
	return rc;
}

/* ---- IQ bench ------------------------------------------------------------------------- */

double ws_chart_iq_ceiling(double link_mbps, uint32_t pkt_size)
{
	if (!(link_mbps > 0) || pkt_size <= 34)
		return 0;
	/* The sample packet's IQ bytes (UDP payload less pad, transport, command and sample
	 * headers) over its wire slot (UDP, IP, Ethernet headers, FCS, preamble, gap). */
	return link_mbps * (double)(pkt_size - 34) / (double)(pkt_size + 66);
}

int ws_chart_iq(FILE *out, const ws_chart_iq_series *s, size_t n, uint32_t pkt_size,
		const ws_chart_opts *o, ws_err *err)
{
	bool ref = o && o->reference_warplab;
	if (!n || 2 * n + (ref ? 4 : 0) > WS_CHART_MAX_SERIES)
		return ws_err_set(err, WS_E_INVAL,
				  "an IQ chart takes 1 to %d benchmarks (%d with "
				  "--reference warplab); got %zu",
				  WS_CHART_MAX_SERIES / 2, (WS_CHART_MAX_SERIES - 4) / 2, n);
	ws_chart_series se[WS_CHART_MAX_SERIES];
	char lab[WS_CHART_MAX_SERIES][96];
	size_t ns = 0;
	double lo = INFINITY, hi = 0;
	for (size_t k = 0; k < n; k++)
		for (int dir = 0; dir < 2; dir++) {
			snprintf(lab[ns], sizeof lab[ns], "%s %s",
				 s[k].label ? s[k].label : "warpspeed", dir ? "Read" : "Write");
			se[ns] = (ws_chart_series){.label = lab[ns],
						   .x = s[k].samples,
						   .y = dir ? s[k].read_mbps : s[k].write_mbps,
						   .n = s[k].n,
						   .markers = true,
						   .style = (int)ns};
			ns++;
		}
	size_t nref = 0;
	const ws_warplab_ref_row *rows = ws_warplab_ref(&nref);
	double rx[16], ry[4][16];
	if (ref) {
		static const char *const names[4] = {"WARPLab MEX Write", "WARPLab MEX Read",
						     "WARPLab Java Write", "WARPLab Java Read"};
		for (size_t i = 0; i < nref && i < 16; i++) {
			rx[i] = rows[i].samples;
			ry[0][i] = rows[i].mex_write;
			ry[1][i] = rows[i].mex_read;
			ry[2][i] = rows[i].java_write;
			ry[3][i] = rows[i].java_read;
		}
		for (int j = 0; j < 4; j++)
			se[ns++] = (ws_chart_series){.label = names[j],
						     .x = rx,
						     .y = ry[j],
						     .n = nref,
						     .markers = true,
						     .style = (int)(2 * n) + j};
	}
	for (size_t k = 0; k < ns; k++)
		for (size_t i = 0; i < se[k].n; i++) {
			if (se[k].y[i] > 0) {
				lo = fmin(lo, se[k].y[i]);
				hi = fmax(hi, se[k].y[i]);
			}
		}
	ws_chart_hline hl[2];
	char hlab[2][160];
	size_t nh = 0;
	double ceil_own = ws_chart_iq_ceiling(o ? o->link_mbps : 0, pkt_size);
	if (ceil_own > 0) {
		char v[24], l[24];
		ws_num_format(ceil_own, 0.1, v, sizeof v);
		ws_num_format(o->link_mbps, 1, l, sizeof l);
		snprintf(hlab[nh], sizeof hlab[nh],
			 "ceiling %s Mb/s (%s Mb/s link, %u-byte packets)", v, l, pkt_size);
		hl[nh] = (ws_chart_hline){ceil_own, hlab[nh]};
		nh++;
	}
	double ceil_ref = ws_chart_iq_ceiling(WS_WARPLAB_REF_LINK_MBPS, WS_WARPLAB_REF_PKT_SIZE);
	if (ref && fabs(ceil_ref - ceil_own) > 0.05) {
		snprintf(hlab[nh], sizeof hlab[nh], "WARPLab's GbE ceiling 988.9 Mb/s");
		hl[nh] = (ws_chart_hline){ceil_ref, hlab[nh]};
		nh++;
	}
	for (size_t i = 0; i < nh; i++)
		hi = fmax(hi, hl[i].y), lo = fmin(lo, hl[i].y);
	char desc[4096];
	size_t dl = (size_t)snprintf(
		desc, sizeof desc,
		"Line chart: IQ transfer speed (Mb/s, mean over the "
		"kept trials, IQ payload only) against the number of samples per buffer.");
	for (size_t k = 0; k < ns && dl < sizeof desc; k++) {
		dl += (size_t)snprintf(desc + dl, sizeof desc - dl, " %s:", se[k].label);
		for (size_t i = 0; i < se[k].n && dl < sizeof desc; i++) {
			char a[24];
			ws_num_format(se[k].y[i], 0.01, a, sizeof a);
			dl += (size_t)snprintf(desc + dl, sizeof desc - dl, " %.0f samples %s%s",
					       se[k].x[i], a, i + 1 < se[k].n ? "," : ".");
		}
	}
	if (ref && dl < sizeof desc)
		snprintf(desc + dl, sizeof desc - dl, " WARPLab series: %s.",
			 ws_warplab_ref_source);
	ws_chart c = {
		.title = o && o->title ? o->title : "IQ transfer speed (Write IQ, Read IQ)",
		.subtitle = ref
			? "wl_benchmark's Avg Transfer Speed; WARPLab 7.5.0 as published (GbE, "
			  "jumbo frames)"
			: "wl_benchmark's Avg Transfer Speed (IQ payload bits / mean call time)",
		.desc = desc,
		.x = {WS_SCALE_LOG2, WS_TICK_POW2, 0, 0, false, "Samples per buffer (log scale)"},
		.y = {lo > 0 && hi > 100 * lo ? WS_SCALE_LOG10 : WS_SCALE_LINEAR, WS_TICK_NUMBER, 0,
		      0, true, "Transfer speed (Mb/s)"},
		.series = se,
		.nseries = ns,
		.hlines = hl,
		.nhlines = nh,
	};
	return ws_chart_line(out, &c, err);
}

/* An iq bench --json document: its node-1 rows (or the aggregate by_size of several
 * nodes), mean Mb/s. x, w, r are malloc'd in one block at *x. */
static int iq_of(const ws_chart_input *in, ws_chart_iq_series *s, uint32_t *pkt, ws_err *err)
{
	const ws_jdoc *d = in->doc;
	const ws_jval *rows = ws_jget(d, ws_jroot(d), "rows");
	const ws_jval *agg = ws_jpath(d, ws_jroot(d), "aggregate.by_size");
	const ws_jval *src = agg && agg->type == WS_J_ARR && agg->n ? agg : rows;
	if (!src || src->type != WS_J_ARR || src->n == 0)
		return ws_err_set(err, WS_E_INVAL, "%s is not an iq bench document (no \"rows\")",
				  in->label);
	double *x = malloc(3 * (size_t)src->n * sizeof *x);
	if (!x)
		return ws_err_set(err, ENOMEM, "no memory for %u rows", src->n);
	size_t m = 0;
	for (const ws_jval *r = ws_jfirst(d, src); r; r = ws_jnext(d, r)) {
		if (src == rows && ws_jnum(ws_jget(d, r, "node"), 1) != 1)
			continue;
		x[m] = ws_jnum(ws_jget(d, r, "samples"), NAN);
		x[src->n + m] = ws_jnum(ws_jpath(d, r, "write.avg_mbps"), NAN);
		x[2 * (size_t)src->n + m] = ws_jnum(ws_jpath(d, r, "read.avg_mbps"), NAN);
		double p = ws_jnum(ws_jget(d, r, "pkt_size"), 0);
		if (p > 34 && p < 1e6 && !*pkt)
			*pkt = (uint32_t)p;
		m++;
	}
	*s = (ws_chart_iq_series){.label = in->label,
				  .samples = x,
				  .write_mbps = x + src->n,
				  .read_mbps = x + 2 * (size_t)src->n,
				  .n = m};
	return 0;
}

/* ---- dispatch ------------------------------------------------------------------------- */

static const char *type_of(const ws_jdoc *d)
{
	const ws_jval *root = ws_jroot(d);
	const char *t = ws_jstr(d, ws_jget(d, root, "type"));
	if (!t && ws_jget(d, root, "rows"))
		return "iq_bench";
	return t;
}

int ws_chart_kind_of(const ws_jdoc *d, enum ws_chart_kind *k, ws_err *err)
{
	const char *t = type_of(d);
	const ws_jval *root = ws_jroot(d);
	if (!root || root->type != WS_J_OBJ || !t)
		return ws_err_set(err, WS_E_INVAL,
				  "not a warpspeed document (an object with \"type\" "
				  "result, summary, sweep or mesh, or iq bench --json's \"rows\")");
	if (!strcmp(t, "sweep"))
		*k = WS_CHART_SWEEP;
	else if (!strcmp(t, "mesh"))
		*k = WS_CHART_MESH;
	else if (!strcmp(t, "iq_bench"))
		*k = WS_CHART_IQ;
	else if (strcmp(t, "result") && strcmp(t, "summary"))
		return ws_err_set(err, WS_E_INVAL,
				  "a document of type \"%.40s\"; charts are drawn from "
				  "result, summary, sweep, mesh and iq bench documents",
				  t);
	else {
		const ws_jval *iv = ws_jget(d, root, "interim"), *f;
		bool rr;
		f = ws_jpath(d, root, "remote.streams");
		const char *u = ws_jstr(d, ws_jpath(d, root, "throughput.units"));
		rr = u && !strcmp(u, "Trans/s");
		if (rr)
			f = ws_jpath(d, root, "local.streams");
		const ws_jval *lat = ws_jget(d, root, "latency");
		if (iv && iv->type == WS_J_ARR && iv->n > 0)
			*k = WS_CHART_INTERIM;
		else if (f && f->type == WS_J_ARR && f->n > 1)
			*k = WS_CHART_STREAMS;
		else if (lat && lat->type == WS_J_OBJ && ws_jnum(ws_jget(d, lat, "count"), 0) >= 1)
			*k = WS_CHART_SPECTRUM;
		else
			return ws_err_set(err, WS_E_INVAL,
					  "this %s result has nothing to chart: charts "
					  "show latency percentiles (TCP_RR, UDP_RR, TCP_CRR), "
					  "throughput over time "
					  "(-D) or per-stream throughput (--streams N); for "
					  "throughput against "
					  "a size use --sweep",
					  ws_jstr(d, ws_jget(d, root, "test"))
						  ? ws_jstr(d, ws_jget(d, root, "test"))
						  : "");
	}
	return 0;
}

int ws_chart_docs(FILE *out, const ws_chart_input *in, size_t n, const ws_chart_opts *o,
		  ws_err *err)
{
	if (!n || n > WS_CHART_MAX_SERIES)
		return ws_err_set(err, WS_E_INVAL, "a chart overlays 1 to %d documents; got %zu",
				  WS_CHART_MAX_SERIES, n);
	enum ws_chart_kind first;
	int rc = ws_chart_kind_of(in[0].doc, &first, err);
	if (rc < 0) {
		ws_err_prefix(err, "%s", in[0].label);
		return rc;
	}
	const char *t0 = type_of(in[0].doc);
	bool result0 = !strcmp(t0, "result") || !strcmp(t0, "summary");
	for (size_t i = 1; i < n; i++) {
		const char *t = type_of(in[i].doc);
		bool result = t && (!strcmp(t, "result") || !strcmp(t, "summary"));
		if (!t || (result != result0) || (!result && strcmp(t, t0)))
			return ws_err_set(err, WS_E_INVAL,
					  "%s is a %s document and %s a %s one; "
					  "overlaid documents must be of one kind",
					  in[i].label, t ? t : "non-warpspeed", in[0].label, t0);
	}
	enum ws_chart_kind k = o->kind == WS_CHART_AUTO ? first : o->kind;
	bool fits = result0 ? (k >= WS_CHART_SPECTRUM && k <= WS_CHART_STREAMS) : k == first;
	if (!fits)
		return ws_err_set(err, WS_E_INVAL, "%s is a %s document, which draws %s, not %s",
				  in[0].label, t0,
				  result0 ? "spectrum, histogram, interim or streams"
					  : ws_chart_kind_name(first),
				  ws_chart_kind_name(k));
	if (k == WS_CHART_MESH) {
		if (n > 1)
			return ws_err_set(err, WS_E_INVAL,
					  "a mesh heatmap draws one document; got %zu", n);
		return mesh_doc(out, &in[0], o, err);
	}
	if (k == WS_CHART_SWEEP || k == WS_CHART_IQ) {
		ws_chart_sweep_series sw[WS_CHART_MAX_SERIES];
		ws_chart_iq_series iq[WS_CHART_MAX_SERIES];
		uint32_t pkt = 0;
		size_t done = 0; /* documents read (their arrays to free) */
		while (done < n && rc == 0) {
			rc = k == WS_CHART_SWEEP ? sweep_of(&in[done], &sw[done], err)
						 : iq_of(&in[done], &iq[done], &pkt, err);
			if (rc == 0)
				done++;
		}
		if (rc == 0)
			rc = k == WS_CHART_SWEEP ? ws_chart_sweep(out, sw, n, o, err)
						 : ws_chart_iq(out, iq, n, pkt, o, err);
		for (size_t i = 0; i < done; i++) {
			if (k == WS_CHART_SWEEP) {
				free((double *)sw[i].x);
				free((double *)sw[i].y);
			} else {
				free((double *)iq[i].samples);
			}
		}
		return rc;
	}
	return ws_chart_result(out, k, in, n, o, err);
}
