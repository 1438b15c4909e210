/* SPDX-License-Identifier: BSD-2-Clause */
/* bench: the wl_benchmark runner and its table / JSON rendering; see bench.h. The public
 * ws_iq_bench (<warpspeed/iq.h>) is the runner for one node and one size.
 *
 * Trials are timed end to end with the monotonic clock around each library call, like
 * wl_benchmark's tic/toc around write_IQ / read_IQ, and the calling thread's CPU clock
 * gives the host cost. Reads are compared with the first read of their size outside the
 * timed region, so a benchmark never reports a speed for wrong samples. */
#include "iq/host/bench.h"

#include "util/clock.h"
#include "util/err.h"

#include <stdlib.h>
#include <string.h>

static const char *const col[12] = {
	"ID",
	"WLVER",
	"Serial #",
	"Transport",
	"Pkt Size (B)",
	"Num Samples",
	"TX/RX Time (ms)",
	"Num Trials",
	"Avg Write IQ Time (ms)",
	"Avg Transfer Speed (Mbps)",
	"Avg Read IQ Time (ms)",
	"Avg Transfer Speed (Mbps)",
};

void ws_iq_bench_head_from(ws_iq_bench_head *h, const ws_iq_info *info, unsigned id)
{
	memset(h, 0, sizeof *h);
	h->id = id;
	snprintf(h->wlver, sizeof h->wlver, "%u.%u.%u", info->wl_major % 1000,
		 info->wl_minor % 1000, info->wl_rev % 1000);
	snprintf(h->serial, sizeof h->serial, "W3-a-%05u", info->serial % 100000);
	h->transport = "warpspeed UDP";
	h->format = "raw";
	h->pkt_size = info->packet_size;
}

/* The sample formats of --format: the name shown and the caller-memory format measured
 * ("raw" is the node's own big-endian words, copied unchanged). */
static const struct {
	const char *name, *transport;
	ws_iq_format fmt;
	/* clang-format off */
} formats[] = {
	{"raw", "warpspeed UDP", WS_IQ_FMT_BE32},
	{"ci16", "warpspeed UDP ci16", WS_IQ_FMT_CI16},
	{"cf32", "warpspeed UDP cf32", WS_IQ_FMT_CF32},
};
/* clang-format on */

int ws_iq_bench_format_parse(const char *name, ws_iq_format *out)
{
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (!strcmp(name, formats[i].name)) {
			*out = formats[i].fmt;
			return 0;
		}
	return -WS_E_INVAL;
}

void ws_iq_bench_head_stats(ws_iq_bench_head *h, const ws_iq_stats *s)
{
	h->junk = s->malformed + s->wrong_node + s->wrong_seq + s->stale;
	h->duplicates = s->read_dup_packets;
}

void ws_iq_bench_head_format(ws_iq_bench_head *h, ws_iq_format fmt)
{
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (formats[i].fmt == fmt) {
			h->format = formats[i].name;
			h->transport = formats[i].transport;
		}
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void ws_iq_bench_stat_of(ws_iq_bench_stat *s, const int64_t *ns, const int64_t *cpu_ns, int trials,
			 uint32_t samples, int buffers)
{
	int kept = trials - WS_IQ_BENCH_DROP;
	double bits = (double)samples * buffers * 32;
	double *ms = malloc(sizeof *ms * (size_t)kept), sum = 0, cpu = 0;
	memset(s, 0, sizeof *s);
	if (!ms || kept < 1) {
		free(ms);
		return;
	}
	for (int i = 0; i < kept; i++) {
		ms[i] = (double)ns[WS_IQ_BENCH_DROP + i] / 1e6;
		sum += ms[i];
		cpu += (double)cpu_ns[WS_IQ_BENCH_DROP + i];
	}
	double avg = sum / kept;
	s->median_ms = median_of(ms, kept) / buffers;
	s->min_ms = ms[0] / buffers;
	s->max_ms = ms[kept - 1] / buffers;
	s->avg_ms = avg / buffers;
	/* Mb/s = bits / (ms * 1000): the mean's speed as wl_benchmark prints it. */
	s->avg_mbps = bits / (avg * 1e3);
	s->median_mbps = bits / (s->median_ms * buffers * 1e3);
	s->min_mbps = bits / (ms[kept - 1] * 1e3);
	s->max_mbps = bits / (ms[0] * 1e3);
	s->cpu_us_per_mb = cpu / 1e3 / ((double)samples * buffers * 4 * kept / 1e6);
	free(ms);
}

static int check_config(ws_iq_node *n, const ws_iq_bench_config *c, ws_err *err)
{
	ws_iq_info in;
	ws_iq_get_info(n, &in);
	if (c->trials <= WS_IQ_BENCH_DROP || c->trials > WS_IQ_BENCH_MAX_TRIALS)
		return ws_err_set(err, WS_E_INVAL,
				  "bench: %d trials: need %d..%d (the first %d are "
				  "dropped, as wl_benchmark does)",
				  c->trials, WS_IQ_BENCH_DROP + 1, WS_IQ_BENCH_MAX_TRIALS,
				  WS_IQ_BENCH_DROP);
	if (c->nsizes == 0)
		return ws_err_set(err, WS_E_INVAL, "bench: no sample counts given");
	uint32_t max =
		in.max_tx_samples < in.max_rx_samples ? in.max_tx_samples : in.max_rx_samples;
	for (size_t i = 0; i < c->nsizes; i++)
		if (c->sizes[i] == 0 || c->sizes[i] > max)
			return ws_err_set(err, WS_E_INVAL,
					  "bench: %u samples: the node's buffers "
					  "hold 1..%u (TX %u, RX %u)",
					  c->sizes[i], max, in.max_tx_samples, in.max_rx_samples);
	return 0;
}

typedef struct bench_mem {
	uint8_t *w[4], *r[4], *first[4];
	int64_t *ns, *cpu;
} bench_mem;

static void mem_free(bench_mem *m)
{
	for (int i = 0; i < 4; i++) {
		free(m->w[i]);
		free(m->r[i]);
		free(m->first[i]);
	}
	free(m->ns);
	free(m->cpu);
}

/* Write data: xorshift samples, the same wire words whatever the format (CF32 holds the
 * int16 values / 32768, exact in a float, so what is read back compares bit for bit). */
static void fill_pattern(uint8_t *p, ws_iq_format fmt, uint32_t samples, uint32_t s)
{
	size_t halves = (size_t)samples * 2;
	for (size_t i = 0; i < halves; i++) {
		s ^= s << 13;
		s ^= s >> 17;
		s ^= s << 5;
		int16_t v = (int16_t)(uint16_t)s;
		if (fmt == WS_IQ_FMT_CF32) {
			float f = (float)v / 32768.0f;
			memcpy(p + 4 * i, &f, 4);
		} else {
			memcpy(p + 2 * i, &v, 2);
		}
	}
}

static int mem_alloc(bench_mem *m, int nb, uint32_t samples, int trials, uint32_t seed,
		     ws_iq_format fmt)
{
	memset(m, 0, sizeof *m);
	size_t bytes = (size_t)samples * ws_iq_format_size(fmt);
	m->ns = malloc(sizeof *m->ns * (size_t)trials);
	m->cpu = malloc(sizeof *m->cpu * (size_t)trials);
	int ok = m->ns && m->cpu;
	for (int b = 0; b < nb && ok; b++) {
		m->w[b] = malloc(bytes);
		m->r[b] = malloc(bytes);
		m->first[b] = malloc(bytes);
		ok = m->w[b] && m->r[b] && m->first[b];
		if (ok)
			fill_pattern(m->w[b], fmt, samples, seed * 2654435761u + (uint32_t)b + 1);
	}
	return ok ? 0 : -1;
}

/* One size on nn nodes: m[0..nn) per node, m[nn] the aggregate's times. */
typedef struct bench_size {
	ws_iq_node *const *nodes;
	size_t nn;
	const ws_iq_bench_config *c;
	uint32_t samples;
	int nb;
	bench_mem *m;
	ws_iq_bench_trial *tr; /* this size's part of trial_out, or NULL */
} bench_size;

int ws_iq_bench_disturbed(int64_t nivcsw, int64_t wait_ns)
{
	return wait_ns >= 0 ? wait_ns > WS_IQ_BENCH_DISTURB_NS : nivcsw > 0;
}

/* What a trial's window report is told apart by: the windows' transfers begun and the
 * retry counters, before the call. */
typedef struct win_snap {
	uint64_t marks, retries;
} win_snap;

static win_snap win_snap_of(ws_iq_node *n, int write)
{
	ws_iq_win w;
	ws_iq_win_get(n, &w);
	return write ? (win_snap){w.write.marks, w.write_resends}
		     : (win_snap){w.read.marks, w.read_rerequests};
}

static void put_trial(const bench_size *z, size_t k, int write, int t, const ws_iq_many_item *it,
		      win_snap before)
{
	if (!z->tr)
		return;
	ws_iq_bench_trial *p = &z->tr[(k * 2 + (write ? 0 : 1)) * (size_t)z->c->trials + (size_t)t];
	*p = (ws_iq_bench_trial){.ns = it->elapsed_ns,
				 .nivcsw = it->nivcsw,
				 .wait_ns = it->wait_ns,
				 .disturbed = ws_iq_bench_disturbed(it->nivcsw, it->wait_ns)};
	ws_iq_win w;
	ws_iq_win_get(z->nodes[k], &w);
	const ws_iqcc *c = write ? &w.write : &w.read;
	p->retries = (write ? w.write_resends : w.read_rerequests) - before.retries;
	p->win_used = c->marks != before.marks;
	if (p->win_used)
		*p = (ws_iq_bench_trial){.ns = p->ns,
					 .nivcsw = p->nivcsw,
					 .wait_ns = p->wait_ns,
					 .disturbed = p->disturbed,
					 .retries = p->retries,
					 .win_used = 1,
					 .win_start = c->nhist ? c->hist[0].to : c->win,
					 .win_least = c->least,
					 .win_most = c->most,
					 .win_end = c->win,
					 .win_cuts = c->cuts};
}

void ws_iq_bench_head_windows(ws_iq_bench_head *h, ws_iq_node *n)
{
	ws_iq_win_get(n, &h->win);
	h->have_win = 1;
}

/* trials calls of one direction over every node at once; fills each m->ns / m->cpu. */
static int run_dir(const bench_size *z, int write, ws_err *err)
{
	ws_iq_error e;
	ws_iq_many_item it[WS_IQ_MANY_MAX];
	const void *src[WS_IQ_MANY_MAX][4];
	void *dst[WS_IQ_MANY_MAX][4];
	size_t bytes = (size_t)z->samples * ws_iq_format_size(z->c->fmt);
	for (size_t k = 0; k < z->nn; k++)
		for (int b = 0; b < 4; b++) {
			src[k][b] = z->m[k].w[b];
			dst[k][b] = z->m[k].r[b];
		}
	win_snap before[WS_IQ_MANY_MAX];
	for (int t = 0; t < z->c->trials; t++) {
		for (size_t k = 0; k < z->nn; k++)
			before[k] = win_snap_of(z->nodes[k], write);
		for (size_t k = 0; k < z->nn; k++)
			it[k] = (ws_iq_many_item){.node = z->nodes[k],
						  .rf_mask = z->c->rf_mask,
						  .count = z->samples,
						  .src = src[k],
						  .dst = dst[k]};
		int64_t t0 = ws_clock_ns(), cpu = 0;
		int r = write ? ws_iq_write_many(it, z->nn, z->c->fmt, &e)
			      : ws_iq_read_many(it, z->nn, z->c->fmt, &e);
		z->m[z->nn].ns[t] = ws_clock_ns() - t0;
		for (size_t k = 0; k < z->nn; k++) {
			z->m[k].ns[t] = it[k].elapsed_ns;
			z->m[k].cpu[t] = it[k].cpu_ns;
			cpu += it[k].cpu_ns;
			put_trial(z, k, write, t, &it[k], before[k]);
		}
		z->m[z->nn].cpu[t] = cpu;
		if (z->c->on_trial)
			z->c->on_trial(z->c->ctx, z->samples, write, t + 1, z->m[z->nn].ns[t]);
		if (r < 0)
			return ws_err_set(err, -r, "bench: %s of %u samples, trial %d: %s",
					  write ? "Write IQ" : "Read IQ", z->samples, t + 1, e.msg);
		for (size_t k = 0; !write && k < z->nn; k++)
			for (int b = 0; b < z->nb; b++) {
				bench_mem *m = &z->m[k];
				if (t == 0)
					memcpy(m->first[b], m->r[b], bytes);
				else if (memcmp(m->first[b], m->r[b], bytes) != 0)
					return ws_err_set(err, WS_E_PROTO,
							  "bench: Read IQ of %u samples "
							  "from node %zu, trial %d returned other "
							  "samples than trial 1",
							  z->samples, k + 1, t + 1);
			}
	}
	return 0;
}

/* Aggregate times per buffer of one node, like the node rows (stat_of divided by all). */
static void scale_ms(ws_iq_bench_stat *s, int nodes)
{
	s->avg_ms *= nodes;
	s->min_ms *= nodes;
	s->median_ms *= nodes;
	s->max_ms *= nodes;
}

/* Both directions of one size; rows[0..nn) per node, *agg the whole calls. */
static int run_size(bench_size *z, ws_iq_bench_row *rows, ws_iq_bench_row *agg, ws_err *err)
{
	int r = 0, trials = z->c->trials;
	for (size_t k = 0; k <= z->nn; k++) {
		ws_iq_bench_row *w = k < z->nn ? &rows[k] : agg;
		*w = (ws_iq_bench_row){.samples = z->samples,
				       .trials = trials,
				       .kept = trials - WS_IQ_BENCH_DROP,
				       .buffers = z->nb,
				       .nodes = k < z->nn ? 1 : (int)z->nn};
	}
	for (int write = 1; r == 0 && write >= 0; write--) {
		r = run_dir(z, write, err);
		for (size_t k = 0; r == 0 && k <= z->nn; k++) {
			ws_iq_bench_row *w = k < z->nn ? &rows[k] : agg;
			ws_iq_bench_stat_of(write ? &w->write : &w->read, z->m[k].ns, z->m[k].cpu,
					    trials, z->samples, z->nb * w->nodes);
			if (k == z->nn) /* per buffer of one node, as the node rows */
				scale_ms(write ? &w->write : &w->read, w->nodes);
		}
	}
	return r;
}

int ws_iq_bench_run_many(ws_iq_node *const *nodes, size_t nn, const ws_iq_bench_config *c,
			 ws_iq_bench_row *rows, ws_iq_bench_row *agg, ws_err *err)
{
	if (nn < 1 || nn > WS_IQ_MANY_MAX)
		return ws_err_set(err, WS_E_INVAL, "bench: %zu nodes: need 1..%d", nn,
				  WS_IQ_MANY_MAX);
	if (ws_iq_format_size(c->fmt) == 0)
		return ws_err_set(err, WS_E_INVAL,
				  "bench: sample format %d: need raw, ci16 or "
				  "cf32",
				  (int)c->fmt);
	int r = 0, nb = 0;
	for (size_t k = 0; r == 0 && k < nn; k++)
		r = check_config(nodes[k], c, err);
	if (r < 0)
		return r;
	for (unsigned bit = 1; bit <= 8; bit <<= 1)
		nb += (c->rf_mask & bit) != 0;
	bench_mem *m = calloc(nn + 1, sizeof *m);
	if (!m)
		return ws_err_set(err, WS_E_INVAL, "bench: out of memory for %zu nodes", nn);
	for (size_t i = 0; r == 0 && i < c->nsizes; i++) {
		uint32_t s = c->sizes[i];
		bench_size z = {.nodes = nodes,
				.nn = nn,
				.c = c,
				.samples = s,
				.nb = nb,
				.m = m,
				.tr = c->trial_out ? c->trial_out + i * nn * 2 * (size_t)c->trials
						   : NULL};
		int ok = 1;
		for (size_t k = 0; k <= nn; k++)
			ok &= mem_alloc(&m[k], k < nn ? nb : 0, s, c->trials,
					c->seed + (uint32_t)i + (uint32_t)k * 7919u, c->fmt) == 0;
		ws_iq_bench_row spare;
		r = ok ? run_size(&z, &rows[i * nn], agg ? &agg[i] : &spare, err)
		       : ws_err_set(err, WS_E_INVAL, "bench: out of memory for %u samples", s);
		for (size_t k = 0; k <= nn; k++)
			mem_free(&m[k]);
	}
	free(m);
	return r;
}

int ws_iq_bench_run(ws_iq_node *n, const ws_iq_bench_config *c, ws_iq_bench_row *rows, ws_err *err)
{
	return ws_iq_bench_run_many(&n, 1, c, rows, NULL, err);
}

int ws_iq_bench(ws_iq_node *n, unsigned rf_mask, uint32_t samples, int trials, ws_iq_format fmt,
		ws_iq_bench_row *out, ws_iq_error *perr)
{
	ws_err e = {0};
	/* The seed `iq bench` uses, so both measure the same data. */
	ws_iq_bench_config c = {.trials = trials,
				.sizes = &samples,
				.nsizes = 1,
				.rf_mask = rf_mask,
				.seed = 1,
				.fmt = fmt};
	int r = ws_iq_bench_run(n, &c, out, &e);
	if (perr) {
		perr->code = r < 0 ? r : 0;
		snprintf(perr->msg, sizeof perr->msg, "%s", r < 0 ? e.msg : "");
	}
	return r < 0 ? r : 0;
}

/* The twelve cells of one row as text; h is NULL for an aggregate row. */
static void row_cells(char cell[12][32], const ws_iq_bench_head *h, const ws_iq_bench_row *w,
		      uint32_t pkt_size)
{
	snprintf(cell[0], 32, h ? "%u" : "all", h ? h->id : 0);
	snprintf(cell[1], 32, "%s", h ? h->wlver : "-");
	if (h)
		snprintf(cell[2], 32, "%s", h->serial);
	else
		snprintf(cell[2], 32, "%d nodes", w->nodes);
	snprintf(cell[3], 32, "%.31s", h ? h->transport : "aggregate");
	snprintf(cell[4], 32, "%u", pkt_size);
	snprintf(cell[5], 32, "%u", w->samples);
	snprintf(cell[6], 32, "%.2f", (double)w->samples / WS_IQ_BENCH_RATE * 1e3);
	snprintf(cell[7], 32, "%d", w->trials);
	snprintf(cell[8], 32, "%.2f", w->write.avg_ms);
	snprintf(cell[9], 32, "%.2f", w->write.avg_mbps);
	snprintf(cell[10], 32, "%.2f", w->read.avg_ms);
	snprintf(cell[11], 32, "%.2f", w->read.avg_mbps);
}

/* Row r of the table in order: per size, the nn node rows, then the aggregate (nn > 1). */
static int table_row(const ws_iq_bench_head *h, size_t nn, const ws_iq_bench_row *rows,
		     const ws_iq_bench_row *agg, size_t r, char cell[12][32])
{
	size_t per = nn + (agg && nn > 1), i = r / per, k = r % per;
	if (k < nn)
		row_cells(cell, &h[k], &rows[i * nn + k], h[k].pkt_size);
	else
		row_cells(cell, NULL, &agg[i], h[0].pkt_size);
	return 0;
}

void ws_iq_bench_table_many(FILE *f, const ws_iq_bench_head *h, size_t nn,
			    const ws_iq_bench_row *rows, const ws_iq_bench_row *agg, size_t nsizes)
{
	int wd[12], total = 1;
	char cell[12][32];
	size_t nrows = nsizes * (nn + (agg && nn > 1));
	for (int i = 0; i < 12; i++)
		wd[i] = (int)strlen(col[i]);
	for (size_t r = 0; r < nrows; r++) {
		table_row(h, nn, rows, agg, r, cell);
		for (int i = 0; i < 12; i++)
			if ((int)strlen(cell[i]) > wd[i])
				wd[i] = (int)strlen(cell[i]);
	}
	for (int i = 0; i < 12; i++) {
		fprintf(f, "| %-*s ", wd[i], col[i]);
		total += wd[i] + 3;
	}
	fprintf(f, "|\n");
	for (int i = 0; i < total; i++)
		fputc(i == 0 || i == total - 1 ? '|' : '-', f);
	fputc('\n', f);
	for (size_t r = 0; r < nrows; r++) {
		table_row(h, nn, rows, agg, r, cell);
		for (int i = 0; i < 12; i++)
			fprintf(f, "| %*s ", wd[i], cell[i]);
		fprintf(f, "|\n");
	}
}

void ws_iq_bench_table(FILE *f, const ws_iq_bench_head *h, const ws_iq_bench_row *rows, size_t n)
{
	ws_iq_bench_table_many(f, h, 1, rows, NULL, n);
}

static void json_stat(FILE *f, const char *ind, const char *name, const ws_iq_bench_stat *s,
		      int comma)
{
	fprintf(f,
		"%s\"%s\": {\"avg_ms\": %.4f, \"avg_mbps\": %.2f, \"min_ms\": %.4f, "
		"\"median_ms\": %.4f, \"max_ms\": %.4f, \"min_mbps\": %.2f, \"median_mbps\": %.2f, "
		"\"max_mbps\": %.2f, \"cpu_us_per_mb\": %.2f}%s\n",
		ind, name, s->avg_ms, s->avg_mbps, s->min_ms, s->median_ms, s->max_ms, s->min_mbps,
		s->median_mbps, s->max_mbps, s->cpu_us_per_mb, comma ? "," : "");
}

/* The aggregate of one size as a JSON object's members (write, read, and what they cover). */
static void json_agg(FILE *f, const char *ind, const ws_iq_bench_row *a, const char *fmt, int comma)
{
	fprintf(f,
		"%s\"nodes\": %d, \"samples\": %u, \"format\": \"%s\", \"trials\": %d, "
		"\"kept\": %d, \"buffers\": %d,\n",
		ind, a->nodes, a->samples, fmt, a->trials, a->kept, a->buffers);
	json_stat(f, ind, "write", &a->write, 1);
	json_stat(f, ind, "read", &a->read, comma);
}

void ws_iq_bench_disturb_of(ws_iq_bench_disturb *d, const ws_iq_bench_trial *t, size_t n)
{
	*d = (ws_iq_bench_disturb){.trials = (long)n, .max_wait_ns = -1};
	for (size_t i = 0; i < n; i++) {
		d->disturbed += t[i].disturbed != 0;
		if (t[i].wait_ns > d->max_wait_ns)
			d->max_wait_ns = t[i].wait_ns;
		if (t[i].nivcsw > 0)
			d->nivcsw += t[i].nivcsw;
	}
}

void ws_iq_bench_disturb_note(FILE *f, const ws_iq_bench_disturb *d)
{
	fprintf(f, "disturbed trials: %ld of %ld (", d->disturbed, d->trials);
	if (d->max_wait_ns >= 0)
		fprintf(f, "off CPU up to %.2f ms, ", (double)d->max_wait_ns / 1e6);
	fprintf(f,
		"involuntary context switches: %lld; disturbed = a transferring thread waited "
		"over %.0f ms for a CPU)\n",
		(long long)d->nivcsw, WS_IQ_BENCH_DISTURB_NS / 1e6);
}

/* A count, or null when unknown (-1). */
static void json_count(FILE *f, const char *name, int64_t v, double scale, int decimals)
{
	fprintf(f, "\"%s\": ", name);
	if (v < 0)
		fputs("null", f);
	else
		fprintf(f, "%.*f", decimals, (double)v / scale);
}

/* One row's trials (write then read) and their summary, as members after "read". */
static void json_trials(FILE *f, const ws_iq_bench_trial *t, int trials)
{
	fprintf(f, "      \"per_trial\": {");
	for (int dir = 0; dir < 2; dir++) {
		fprintf(f, "%s\"%s\": [", dir ? ", " : "", dir ? "read" : "write");
		for (int i = 0; i < trials; i++) {
			const ws_iq_bench_trial *p = &t[dir * trials + i];
			fprintf(f, "%s{\"trial\": %d, \"kept\": %s, \"ms\": %.4f, ", i ? ", " : "",
				i + 1, i >= WS_IQ_BENCH_DROP ? "true" : "false",
				(double)p->ns / 1e6);
			json_count(f, "nivcsw", p->nivcsw, 1, 0);
			fputs(", ", f);
			json_count(f, "off_cpu_ms", p->wait_ns, 1e6, 4);
			fprintf(f, ", \"disturbed\": %s, \"%s\": %llu, \"window\": ",
				p->disturbed ? "true" : "false", dir ? "rerequests" : "resends",
				(unsigned long long)p->retries);
			if (p->win_used)
				fprintf(f,
					"{\"start\": %u, \"least\": %u, \"most\": %u, \"end\": "
					"%u, \"cuts\": %llu}}",
					p->win_start, p->win_least, p->win_most, p->win_end,
					(unsigned long long)p->win_cuts);
			else
				fputs("null}", f);
		}
		fputc(']', f);
	}
	ws_iq_bench_disturb d;
	ws_iq_bench_disturb_of(&d, t, 2 * (size_t)trials);
	fprintf(f, "},\n      \"disturbed\": {\"trials\": %ld, \"disturbed\": %ld, ", d.trials,
		d.disturbed);
	json_count(f, "max_off_cpu_ms", d.max_wait_ns, 1e6, 4);
	fprintf(f, ", \"nivcsw\": %lld, \"threshold_ms\": %.3f}\n", (long long)d.nivcsw,
		WS_IQ_BENCH_DISTURB_NS / 1e6);
}

void ws_iq_bench_json_many(FILE *f, const ws_iq_bench_head *h, size_t nn,
			   const ws_iq_bench_row *rows, const ws_iq_bench_row *agg, size_t nsizes,
			   const ws_iq_bench_trial *trials)
{
	size_t n = nsizes * nn;
	fprintf(f, "{\n  \"rows\": [\n");
	for (size_t r = 0; r < n; r++) {
		const ws_iq_bench_row *w = &rows[r];
		const ws_iq_bench_head *hd = &h[r % nn];
		fprintf(f,
			"    {\"id\": %u, \"wlver\": \"%s\", \"serial\": \"%s\", \"transport\": "
			"\"%s\", \"pkt_size\": %u, \"samples\": %u, \"txrx_time_ms\": %.4f, "
			"\"trials\": %d, \"kept\": %d, \"buffers\": %d, \"format\": \"%s\", "
			"\"node\": %zu, \"junk\": %llu, \"duplicates\": %llu,\n",
			hd->id, hd->wlver, hd->serial, hd->transport, hd->pkt_size, w->samples,
			(double)w->samples / WS_IQ_BENCH_RATE * 1e3, w->trials, w->kept, w->buffers,
			hd->format, r % nn + 1, (unsigned long long)hd->junk,
			(unsigned long long)hd->duplicates);
		if (hd->have_win) {
			fputs("      \"window_bounds\": ", f);
			ws_iq_win_memory_json(f, &hd->win);
			fputs(",\n      \"read_window\": {", f);
			ws_iq_win_json(f, &hd->win.read);
			fputs("},\n      \"write_window\": {", f);
			ws_iq_win_json(f, &hd->win.write);
			fputs("},\n", f);
		}
		json_stat(f, "      ", "write", &w->write, 1);
		json_stat(f, "      ", "read", &w->read, trials != NULL);
		if (trials)
			json_trials(f, trials + r * 2 * (size_t)w->trials, w->trials);
		fprintf(f, "    }%s\n", r + 1 < n ? "," : "");
	}
	fprintf(f, "  ]");
	if (agg && nsizes) {
		/* The first size's aggregate, and every size's in by_size. */
		fprintf(f, ",\n  \"aggregate\": {\n");
		json_agg(f, "    ", &agg[0], h[0].format, 1);
		fprintf(f, "    \"by_size\": [\n");
		for (size_t i = 0; i < nsizes; i++) {
			fprintf(f, "      {\n");
			json_agg(f, "        ", &agg[i], h[0].format, 0);
			fprintf(f, "      }%s\n", i + 1 < nsizes ? "," : "");
		}
		fprintf(f, "    ]\n  }");
	}
	fprintf(f, "\n}\n");
}

void ws_iq_bench_json(FILE *f, const ws_iq_bench_head *h, const ws_iq_bench_row *rows, size_t n,
		      const ws_iq_bench_trial *trials)
{
	ws_iq_bench_json_many(f, h, 1, rows, NULL, n, trials);
}
