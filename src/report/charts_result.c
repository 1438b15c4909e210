/* SPDX-License-Identifier: BSD-2-Clause */
/* charts_result: the charts of a --json result document: the latency spectrum and
 * histogram (RR), throughput over time (-D) and per-stream bars (--streams).
 *
 * Percentiles are read from the document's histogram buckets with the definition of
 * docs/latency.md (rank = ceil(p x n), rank 1 is min, rank n is max, otherwise the top
 * of the bucket holding the rank, clamped to [min, max]), so the spectrum agrees with the
 * p50_us .. p99_99_us members of the same document. */
#include "report/charts.h"

#include "report/chart.h"
#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPECTRUM_POINTS   201 /* 0 .. 5 nines in steps of 0.025 */
#define SPECTRUM_PER_NINE 40  /* points per nine: markers on 0%, 90%, 99%, ... */
#define HIST_BINS         60

double ws_chart_unit_bits(const char *u)
{
	static const struct {
		const char *name;
		double bits;
	} units[] = {
		{"10^3bits/s", 1e3},
		{"10^6bits/s", 1e6},
		{"10^9bits/s", 1e9},
		{"KBytes/s", 8.0 * 1024},
		{"MBytes/s", 8.0 * 1048576},
		{"GBytes/s", 8.0 * 1073741824},
		{"Trans/s", -1},
	};
	for (size_t i = 0; u && i < sizeof units / sizeof units[0]; i++)
		if (!strcmp(u, units[i].name))
			return units[i].bits;
	return 0;
}

/* A figure as a subtitle shows it, in every locale. */
static void fig(double v, char *buf, size_t n)
{
	ws_num_format(v, fabs(v) >= 100 ? 1 : 0.1, buf, n);
}

/* ---- latency -------------------------------------------------------------------------- */

struct lat {
	const ws_jdoc *d;
	const ws_jval *hist;
	double count, overflow, min_ns, max_ns;
};

static int lat_of(const ws_chart_input *in, struct lat *l, ws_err *err)
{
	const ws_jdoc *d = in->doc;
	const ws_jval *lat = ws_jget(d, ws_jroot(d), "latency");
	l->d = d;
	l->hist = ws_jget(d, lat, "histogram");
	l->count = ws_jnum(ws_jget(d, lat, "count"), 0);
	l->overflow = ws_jnum(ws_jget(d, lat, "overflow"), 0);
	l->min_ns = ws_jnum(ws_jget(d, lat, "min_us"), NAN) * 1e3;
	l->max_ns = ws_jnum(ws_jget(d, lat, "max_us"), NAN) * 1e3;
	if (!l->hist || l->hist->type != WS_J_ARR || !(l->count >= 1) || !isfinite(l->min_ns) ||
	    !isfinite(l->max_ns))
		return ws_err_set(err, WS_E_INVAL,
				  "%s has no latency samples (latency.histogram, "
				  "count, min_us and max_us come from TCP_RR, UDP_RR or TCP_CRR)",
				  in->label);
	return 0;
}

/* Bucket i's [low, high, count] (ns); false when it is not three numbers. */
static bool bucket(const ws_jdoc *d, const ws_jval *b, double *lo, double *hi, double *c)
{
	const ws_jval *a = ws_jfirst(d, b), *x = ws_jnext(d, a), *y = ws_jnext(d, x);
	*lo = ws_jnum(a, NAN);
	*hi = ws_jnum(x, NAN);
	*c = ws_jnum(y, NAN);
	return isfinite(*lo) && isfinite(*hi) && isfinite(*c) && *c >= 0 && *hi >= *lo;
}

/* The p-th percentile (p a fraction) in ns; docs/latency.md's rule. */
static double percentile(const struct lat *l, double p)
{
	double r = p * l->count, rank = floor(r);
	if (r - rank > 1e-12 * r)
		rank += 1;
	if (rank <= 1)
		return l->min_ns;
	if (rank >= l->count)
		return l->max_ns;
	double cum = 0, lo, hi, c;
	for (const ws_jval *b = ws_jfirst(l->d, l->hist); b; b = ws_jnext(l->d, b)) {
		if (!bucket(l->d, b, &lo, &hi, &c))
			continue;
		cum += c;
		if (cum >= rank)
			return fmin(fmax(hi, l->min_ns), l->max_ns);
	}
	return l->max_ns; /* in the overflow */
}

static int spectrum(FILE *out, const ws_chart_input *in, size_t n, const ws_chart_opts *o,
		    ws_err *err)
{
	double *xs = malloc(SPECTRUM_POINTS * sizeof *xs),
	       *ys = malloc(n * SPECTRUM_POINTS * sizeof *ys);
	ws_chart_series se[WS_CHART_MAX_SERIES];
	int rc = 0;
	double lo = INFINITY, hi = 0;
	char sub[256] = "";
	if (!xs || !ys)
		rc = ws_err_set(err, ENOMEM, "no memory for the spectrum");
	for (int i = 0; rc == 0 && i < SPECTRUM_POINTS; i++)
		xs[i] = 1 - pow(10, -0.025 * i);
	for (size_t k = 0; rc == 0 && k < n; k++) {
		struct lat l;
		if ((rc = lat_of(&in[k], &l, err)) < 0)
			break;
		for (int i = 0; i < SPECTRUM_POINTS; i++)
			ys[k * SPECTRUM_POINTS + i] = percentile(&l, xs[i]) / 1e3;
		lo = fmin(lo, l.min_ns / 1e3);
		hi = fmax(hi, l.max_ns / 1e3);
		se[k] = (ws_chart_series){.label = in[k].label,
					  .x = xs,
					  .y = ys + k * SPECTRUM_POINTS,
					  .n = SPECTRUM_POINTS,
					  .mark_every = SPECTRUM_PER_NINE,
					  .style = -1};
		if (n == 1) {
			char a[24], b[24], c[24], d[24];
			fig(percentile(&l, 0.5) / 1e3, a, sizeof a);
			fig(percentile(&l, 0.99) / 1e3, b, sizeof b);
			fig(percentile(&l, 0.9999) / 1e3, c, sizeof c);
			fig(l.max_ns / 1e3, d, sizeof d);
			const char *t = ws_jstr(l.d, ws_jget(l.d, ws_jroot(l.d), "test"));
			snprintf(sub, sizeof sub,
				 "%s%s%.0f round trips: P50 %s us, P99 %s us, P99.99 %s us, max %s "
				 "us",
				 t ? t : "", t ? ", " : "", l.count, a, b, c, d);
		}
	}
	if (rc == 0) {
		ws_chart c = {
			.title = o->title ? o->title : "Latency by percentile",
			.subtitle = n == 1
				? sub
				: "round-trip latency by percentile (HdrHistogram's nines axis)",
			.x = {WS_SCALE_NINES, WS_TICK_NINES, 0, 0.99999, false,
			      "Percentile (log scale of nines: 90%, 99%, 99.9%, ...)"},
			.y = {hi > 100 * lo && lo > 0 ? WS_SCALE_LOG10 : WS_SCALE_LINEAR,
			      WS_TICK_NUMBER, 0, 0, true, "Round-trip latency (us)"},
			.series = se,
			.nseries = n,
		};
		rc = ws_chart_line(out, &c, err);
	}
	free(xs);
	free(ys);
	return rc;
}

static int histogram(FILE *out, const ws_chart_input *in, size_t n, const ws_chart_opts *o,
		     ws_err *err)
{
	struct lat l[WS_CHART_MAX_SERIES];
	double lo = INFINITY, hi = 0;
	int rc = 0;
	for (size_t k = 0; k < n; k++) {
		if ((rc = lat_of(&in[k], &l[k], err)) < 0)
			return rc;
		lo = fmin(lo, l[k].min_ns / 1e3);
		hi = fmax(hi, l[k].max_ns / 1e3);
	}
	bool logx = lo > 0 && hi > 10 * lo;
	if (!(hi > lo)) {
		lo = lo * 0.9;
		hi = hi * 1.1 + 1e-3;
	}
	double edge[HIST_BINS + 1];
	for (int i = 0; i <= HIST_BINS; i++)
		edge[i] = logx ? lo * pow(hi / lo, (double)i / HIST_BINS)
			       : lo + (hi - lo) * i / HIST_BINS;
	double *xy = malloc(n * 2 * HIST_BINS * 2 * sizeof *xy);
	if (!xy)
		return ws_err_set(err, ENOMEM, "no memory for the histogram");
	ws_chart_series se[WS_CHART_MAX_SERIES];
	for (size_t k = 0; k < n; k++) {
		double bins[HIST_BINS] = {0}, blo, bhi, c;
		for (const ws_jval *b = ws_jfirst(l[k].d, l[k].hist); b; b = ws_jnext(l[k].d, b)) {
			if (!bucket(l[k].d, b, &blo, &bhi, &c))
				continue;
			double mid = (blo + bhi) / 2e3;
			double f = logx ? log(mid / lo) / log(hi / lo) : (mid - lo) / (hi - lo);
			int i = (int)floor(f * HIST_BINS);
			bins[i < 0 ? 0 : i >= HIST_BINS ? HIST_BINS - 1 : i] += c;
		}
		double *x = xy + k * 4 * HIST_BINS, *y = x + 2 * HIST_BINS;
		for (int i = 0; i < HIST_BINS; i++) {
			x[2 * i] = edge[i];
			x[2 * i + 1] = edge[i + 1];
			y[2 * i] = y[2 * i + 1] = bins[i] * 100 / l[k].count;
		}
		se[k] = (ws_chart_series){.label = in[k].label,
					  .x = x,
					  .y = y,
					  .n = 2 * HIST_BINS,
					  .area = true,
					  .steps = true,
					  .style = -1};
	}
	ws_chart c = {
		.title = o->title ? o->title : "Latency histogram",
		.subtitle = logx
			? "share of round trips in each of 60 bins, equal widths on a log scale"
			: "share of round trips in each of 60 equal bins",
		.x = {logx ? WS_SCALE_LOG10 : WS_SCALE_LINEAR, WS_TICK_NUMBER, lo, hi, false,
		      "Round-trip latency (us)"},
		.y = {WS_SCALE_LINEAR, WS_TICK_NUMBER, 0, 0, true, "Round trips (% of samples)"},
		.series = se,
		.nseries = n,
	};
	if (!logx) {
		ws_scale_nice(&c.x.lo, &c.x.hi, 6);
	}
	rc = ws_chart_line(out, &c, err);
	free(xy);
	return rc;
}

/* ---- interim -------------------------------------------------------------------------- */

static const ws_jval *interim_of(const ws_jdoc *d) { return ws_jget(d, ws_jroot(d), "interim"); }

static int over_time(FILE *out, const ws_chart_input *in, size_t n, const ws_chart_opts *o,
		     ws_err *err)
{
	const char *units = NULL;
	size_t most = 0;
	for (size_t k = 0; k < n; k++) {
		const ws_jval *iv = interim_of(in[k].doc);
		if (!iv || iv->type != WS_J_ARR || iv->n == 0)
			return ws_err_set(err, WS_E_INVAL,
					  "%s has no interim samples (run with -D SECONDS)",
					  in[k].label);
		most = iv->n > most ? iv->n : most;
	}
	double *xy = malloc(n * most * 4 * sizeof *xy);
	if (!xy)
		return ws_err_set(err, ENOMEM, "no memory for %zu interim samples", most);
	ws_chart_series se[WS_CHART_MAX_SERIES];
	int rc = 0;
	for (size_t k = 0; k < n && rc == 0; k++) {
		const ws_jdoc *d = in[k].doc;
		double *x = xy + k * most * 4, *y = x + most * 2;
		size_t m = 0;
		for (const ws_jval *s = ws_jfirst(d, interim_of(d)); s; s = ws_jnext(d, s)) {
			const ws_jval *stream = ws_jget(d, s, "stream");
			if (stream && stream->type != WS_J_NULL)
				continue; /* one flow's sample; the chart shows the aggregate */
			const char *u = ws_jstr(d, ws_jget(d, s, "units"));
			if (!units && u)
				units = u;
			double f = 1;
			if (u && units && strcmp(u, units)) {
				double a = ws_chart_unit_bits(u), b = ws_chart_unit_bits(units);
				if (!(a > 0 && b > 0)) {
					rc = ws_err_set(
						err, WS_E_INVAL,
						"%s is in %s and an earlier document in %s; "
						"they cannot share an axis",
						in[k].label, u, units);
					break;
				}
				f = a / b;
			}
			double v = ws_jnum(ws_jget(d, s, "throughput"), NAN) * f;
			x[2 * m] = ws_jnum(ws_jget(d, s, "start_s"), NAN);
			x[2 * m + 1] = ws_jnum(ws_jget(d, s, "end_s"), NAN);
			y[2 * m] = y[2 * m + 1] = v;
			m++;
		}
		se[k] = (ws_chart_series){.label = in[k].label,
					  .x = x,
					  .y = y,
					  .n = 2 * m,
					  .steps = true,
					  .style = -1};
	}
	char ylabel[64];
	snprintf(ylabel, sizeof ylabel, "Throughput (%s)", units ? units : "?");
	ws_chart c = {
		.title = o->title ? o->title : "Throughput over time",
		.subtitle = "interim results (-D), one step per interval",
		.x = {WS_SCALE_LINEAR, WS_TICK_NUMBER, 0, 0, true, "Time since the start (s)"},
		.y = {WS_SCALE_LINEAR, WS_TICK_NUMBER, 0, 0, true, ylabel},
		.series = se,
		.nseries = n,
	};
	if (rc == 0)
		rc = ws_chart_line(out, &c, err);
	free(xy);
	return rc;
}

/* ---- streams -------------------------------------------------------------------------- */

/* The side whose flows count: the client for RR (its transactions) and TCP_MAERTS
 * (direction "Receive"), else the daemon, which received. */
static const ws_jval *flows_of(const ws_jdoc *d, bool *rr)
{
	const ws_jval *root = ws_jroot(d);
	const char *dir = ws_jstr(d, ws_jget(d, root, "direction"));
	const char *units = ws_jstr(d, ws_jpath(d, root, "throughput.units"));
	*rr = units && !strcmp(units, "Trans/s");
	bool local = *rr || (dir && !strcmp(dir, "Receive"));
	return ws_jpath(d, root, local ? "local.streams" : "remote.streams");
}

static int stream_bars(FILE *out, const ws_chart_input *in, size_t n, const ws_chart_opts *o,
		       ws_err *err)
{
	size_t ncat = 0;
	const char *units = NULL;
	for (size_t k = 0; k < n; k++) {
		bool rr;
		const ws_jval *f = flows_of(in[k].doc, &rr);
		if (!f || f->type != WS_J_ARR || f->n < 1)
			return ws_err_set(err, WS_E_INVAL,
					  "%s has no per-stream rows (run with --streams N)",
					  in[k].label);
		ncat = f->n > ncat ? f->n : ncat;
		const char *u = ws_jstr(
			in[k].doc, ws_jpath(in[k].doc, ws_jroot(in[k].doc), "throughput.units"));
		if (!units)
			units = u ? u : "10^6bits/s";
		else if (u && strcmp(u, units) &&
			 !(ws_chart_unit_bits(u) > 0 && ws_chart_unit_bits(units) > 0))
			return ws_err_set(err, WS_E_INVAL,
					  "%s is in %s and an earlier document in %s; "
					  "they cannot share an axis",
					  in[k].label, u, units);
	}
	if (ncat > 256)
		ncat = 256;
	double *vals = malloc(n * ncat * sizeof *vals);
	char(*cat)[12] = malloc(ncat * sizeof *cat);
	const char **cats = malloc(ncat * sizeof *cats);
	const char *labels[WS_CHART_MAX_SERIES];
	char sub[512];
	size_t sl = (size_t)snprintf(sub, sizeof sub, "Jain's fairness index (1 = equal shares):");
	int rc = 0;
	if (!vals || !cat || !cats) {
		rc = ws_err_set(err, ENOMEM, "no memory for %zu streams", ncat);
		goto out;
	}
	double per = ws_chart_unit_bits(units);
	for (size_t c = 0; c < ncat; c++) {
		snprintf(cat[c], sizeof cat[c], "%zu", c);
		cats[c] = cat[c];
	}
	for (size_t k = 0; k < n; k++) {
		bool rr;
		const ws_jdoc *d = in[k].doc;
		const ws_jval *f = flows_of(d, &rr);
		size_t c = 0;
		double sum = 0, sq = 0;
		size_t ok = 0;
		for (const ws_jval *s = ws_jfirst(d, f); s && c < ncat; s = ws_jnext(d, s), c++) {
			double ns = ws_jnum(ws_jget(d, s, "elapsed_ns"), 0);
			double amount = rr ? ws_jnum(ws_jget(d, s, "transactions"), NAN)
					   : ws_jnum(ws_jget(d, s, "bytes"), NAN) * 8;
			double v = ns > 0 ? amount / (ns / 1e9) / (rr || per <= 0 ? 1 : per) : NAN;
			if (ws_jnum(ws_jget(d, s, "error"), 0) != 0)
				v = NAN;
			vals[k * ncat + c] = v;
			if (isfinite(v)) {
				sum += v;
				sq += v * v;
				ok++;
			}
		}
		for (; c < ncat; c++)
			vals[k * ncat + c] = NAN;
		labels[k] = in[k].label;
		/* The document's own index when it has one (the same figure the text prints). */
		double jain = ws_jnum(ws_jpath(d, ws_jroot(d), "throughput.fairness"),
				      sq > 0 ? sum * sum / ((double)ok * sq) : NAN);
		char j[24];
		ws_num_format(jain, 0.0001, j, sizeof j);
		if (sl < sizeof sub)
			sl += (size_t)snprintf(sub + sl, sizeof sub - sl, "%s %s%s%s", k ? "," : "",
					       n > 1 ? in[k].label : "", n > 1 ? " " : "",
					       isfinite(jain) ? j : "n/a");
	}
	char ylabel[64];
	snprintf(ylabel, sizeof ylabel, "Throughput per stream (%s)", units);
	ws_chart_bars b = {
		.title = o->title ? o->title : "Throughput per stream",
		.subtitle = sub,
		.x_label = "Stream (flow index; x = failed)",
		.y_label = ylabel,
		.categories = cats,
		.ncat = ncat,
		.series = labels,
		.nseries = n,
		.values = vals,
	};
	rc = ws_chart_bar(out, &b, err);
out:
	free(vals);
	free(cat);
	free(cats);
	return rc;
}

int ws_chart_result(FILE *out, enum ws_chart_kind k, const ws_chart_input *in, size_t n,
		    const ws_chart_opts *o, ws_err *err)
{
	switch (k) {
	case WS_CHART_SPECTRUM:
		return spectrum(out, in, n, o, err);
	case WS_CHART_HISTOGRAM:
		return histogram(out, in, n, o, err);
	case WS_CHART_INTERIM:
		return over_time(out, in, n, o, err);
	case WS_CHART_STREAMS:
		return stream_bars(out, in, n, o, err);
	default:
		return ws_err_set(err, WS_E_INVAL,
				  "a result document draws spectrum, histogram, "
				  "interim or streams, not %s",
				  ws_chart_kind_name(k));
	}
}
