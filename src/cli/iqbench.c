/* SPDX-License-Identifier: BSD-2-Clause */
/* iqbench: `warpspeed iq bench`, wl_benchmark's table from a shell.
 *
 * The benchmark is the largest IQ command by far: it starts the built-in node when no NODE
 * is given, runs every size under a progress line, prints each size's rows as soon as they
 * are measured, and writes the JSON and the SVG chart through util/safefile. Kept apart from
 * the transfer commands of cli/iq.c, so that each module holds one command's concern and
 * stays short. Usage errors exit 2, runtime failures 1, each with one line naming it. */
#include "cli/iqbench.h"

#include "cli/iqnode.h"
#include "cli/outprint.h"
#include "cli/progress.h"

#include "iq/host/bench.h"
#include "iq/node/node_thread.h"
#include "report/charts.h"
#include "util/err.h"
#include "util/safefile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The built-in node (no NODE given): the library runs it, this only says so. */
static int builtin_start(ws_node_thread **b, ws_cli_iq_opts *o, FILE *note)
{
	ws_node_config c;
	ws_err e;
	ws_node_builtin_config(&c, o->rf & (WS_IQ_RF_C | WS_IQ_RF_D) ? 4 : 2, o->cfg.max_payload);
	if (ws_node_thread_start(&c, b, &e) < 0) {
		fprintf(stderr, "warpspeed iq: built-in node: %s\n", e.msg);
		return 1;
	}
	ws_node_info ni;
	ws_node_get_info(ws_node_thread_node(*b), &ni);
	snprintf(o->addr, sizeof o->addr, "127.0.0.1");
	o->cfg.addr = o->addr;
	o->cfg.port = ni.port;
	o->have_node = 1;
	fprintf(note,
		"no NODE given: benchmarking a built-in node emulator (warpspeed node, "
		"%d RF) on 127.0.0.1:%d, loopback, no rate limit\n",
		c.rf, ni.port);
	return 0;
}

/* "1000 Mb/s" for the title (a static buffer: one chart per run). */
static const char *link_text(const ws_cli_iq_opts *o)
{
	static char t[32];
	snprintf(t, sizeof t, "%g Mb/s", o->link_mbps);
	return t;
}

struct iq_chart {
	const ws_chart_iq_series *s;
	uint32_t pkt_size;
	const ws_chart_opts *co;
};

static int iq_chart_body(FILE *f, const void *arg, ws_err *err)
{
	const struct iq_chart *c = arg;
	return ws_chart_iq(f, c->s, 1, c->pkt_size, c->co, err);
}

/* --svg: node 1's rows (the aggregate of several nodes), mean Mb/s, as a chart. */
static int bench_svg(const ws_cli_iq_opts *o, const ws_iq_bench_head *h,
		     const ws_iq_bench_row *rows, const ws_iq_bench_row *agg, bool builtin)
{
	size_t n = o->nsizes;
	double *v = malloc(3 * n * sizeof *v);
	if (!v) {
		fprintf(stderr, "warpspeed iq bench: cannot write %s (no memory)\n", o->svg);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		const ws_iq_bench_row *r = o->nnodes > 1 ? &agg[i] : &rows[i * o->nnodes];
		v[i] = r->samples;
		v[n + i] = r->write.avg_mbps;
		v[2 * n + i] = r->read.avg_mbps;
	}
	char label[64];
	snprintf(label, sizeof label, "%s%s", o->nnodes > 1 ? "aggregate, " : "", h[0].transport);
	ws_chart_iq_series s = {label, v, v + n, v + 2 * n, n};
	/* The title says where it was measured: the built-in node on loopback, or the node
	 * named (and the link, when --link gives it). */
	char title[160];
	if (builtin)
		snprintf(title, sizeof title, "IQ transfer speed, built-in node on loopback");
	else
		snprintf(title, sizeof title, "IQ transfer speed, node %s:%d%s%s%s",
			 o->node_addr[0], o->node_port[0], o->nnodes > 1 ? " and others" : "",
			 o->link_mbps > 0 ? ", link " : "", o->link_mbps > 0 ? link_text(o) : "");
	ws_chart_opts co = {.title = title,
			    .reference_warplab = o->reference_warplab,
			    .link_mbps = o->link_mbps > 0 ? o->link_mbps
							  : (double)o->cfg.write_rate_bps / 1e6};
	ws_err e;
	struct iq_chart c = {&s, h[0].pkt_size, &co};
	int r = ws_cli_file_put(o->svg, iq_chart_body, &c, &e);
	free(v);
	if (r < 0) {
		fprintf(stderr, "warpspeed iq bench: --svg %s: %s\n", o->svg, e.msg);
		return 1;
	}
	return 0;
}

/* The table or JSON to f; heads of every node. */
static void bench_print(FILE *f, const ws_cli_iq_opts *o, int json, const ws_iq_bench_head *h,
			const ws_iq_bench_row *rows, const ws_iq_bench_row *agg,
			const ws_iq_bench_trial *tr)
{
	const ws_iq_bench_row *a = o->nnodes > 1 ? agg : NULL;
	if (json)
		ws_iq_bench_json_many(f, h, o->nnodes, rows, a, o->nsizes, tr);
	else
		ws_iq_bench_table_many(f, h, o->nnodes, rows, a, o->nsizes);
}

/* Under the table: what Num Trials counts, beside the JSON's "trials" and "kept", and how
 * many trials the host disturbed (tr: every trial of the run). */
static void bench_note(const ws_cli_iq_opts *o, const ws_iq_bench_trial *tr)
{
	ws_iq_bench_disturb d;
	ws_iq_bench_disturb_of(&d, tr, o->nsizes * o->nnodes * 2 * (size_t)o->trials);
	printf("Num Trials: trials run per size and direction; the first %d are dropped, as "
	       "wl_benchmark does, so each average is over the last %d (JSON \"trials\": %d, "
	       "\"kept\": %d)\n",
	       WS_IQ_BENCH_DROP, o->trials - WS_IQ_BENCH_DROP, o->trials,
	       o->trials - WS_IQ_BENCH_DROP);
	ws_iq_bench_disturb_note(stdout, &d);
}

/* The progress line of a bench (cli/progress.h): where it is and the last call's rate. */
typedef struct bench_progress {
	ws_cli_progress p;
	const ws_cli_iq_opts *o;
	size_t size_i;  /* the size running, 0-based */
	long done, all; /* calls made and to make, over every size and direction */
	double bits;    /* bits per call, every node and buffer */
} bench_progress;

static void bench_trial(void *ctx, uint32_t samples, int write, int trial, int64_t ns)
{
	bench_progress *b = ctx;
	b->done++;
	ws_cli_progress_draw(&b->p, false,
			     "iq bench: %u samples (size %zu/%zu), %s trial %d/%d, %.0f Mb/s  "
			     "[%ld/%ld calls, %.1f s]",
			     samples, b->size_i + 1, b->o->nsizes, write ? "Write IQ" : "Read IQ",
			     trial, b->o->trials, ns > 0 ? b->bits * 1e3 / (double)ns : 0.0,
			     b->done, b->all, ws_cli_progress_elapsed(&b->p));
}

/* The table's rows of size i as soon as that size is done: the first size with the
 * header, later ones without it (the columns' widths come from the names and the heads,
 * which every size shares). */
static void bench_table_size(const ws_cli_iq_opts *o, const ws_iq_bench_head *h, size_t i,
			     const ws_iq_bench_row *rows, const ws_iq_bench_row *agg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return;
	ws_iq_bench_table_many(mem, h, o->nnodes, &rows[i * o->nnodes],
			       o->nnodes > 1 ? &agg[i] : NULL, 1);
	fclose(mem);
	const char *p = text;
	for (int skip = i ? 2 : 0; skip > 0 && p; skip--) /* the header and its rule */
		if ((p = strchr(p, '\n')))
			p++;
	if (p)
		fputs(p, stdout);
	fflush(stdout); /* at once, also through a pipe */
	free(text);
}

/* One run of every size, a size at a time so that each row prints when it is done; the
 * seed of size i is the one a single run of every size gives it (bench.c: seed + i). */
static int bench_sizes(ws_cli_iq_opts *o, ws_iq_node **n, ws_iq_format fmt, ws_iq_bench_head *h,
		       ws_iq_bench_row *rows, ws_iq_bench_row *agg, ws_iq_bench_trial *tr,
		       ws_err *e)
{
	size_t nn = o->nnodes;
	int nb = __builtin_popcount(o->rf);
	bench_progress bp = {.o = o, .all = (long)o->nsizes * 2 * o->trials};
	ws_cli_progress_init(&bp.p, ws_cli_progress_allowed(o->quiet));
	for (size_t k = 0; k < nn; k++) {
		ws_iq_info i;
		ws_iq_get_info(n[k], &i);
		ws_iq_bench_head_from(&h[k], &i, o->cfg.node_id);
		ws_iq_bench_head_format(&h[k], fmt);
	}
	int r = 0;
	for (size_t i = 0; r == 0 && i < o->nsizes; i++) {
		ws_iq_bench_config c = {.trials = o->trials,
					.sizes = &o->sizes[i],
					.nsizes = 1,
					.rf_mask = o->rf,
					.seed = 1 + (uint32_t)i,
					.fmt = fmt,
					.on_trial = bench_trial,
					.ctx = &bp,
					.trial_out = tr + i * nn * 2 * (size_t)o->trials};
		bp.size_i = i;
		bp.bits = (double)o->sizes[i] * nb * (double)nn * 32;
		ws_cli_progress_draw(&bp.p, true,
				     "iq bench: %u samples (size %zu/%zu), starting  "
				     "[%ld/%ld calls, %.1f s]",
				     o->sizes[i], i + 1, o->nsizes, bp.done, bp.all,
				     ws_cli_progress_elapsed(&bp.p));
		r = ws_iq_bench_run_many(n, nn, &c, &rows[i * nn], &agg[i], e);
		ws_cli_progress_clear(&bp.p);
		if (r == 0 && !o->json)
			bench_table_size(o, h, i, rows, agg);
	}
	for (size_t k = 0; r == 0 && k < nn; k++) {
		ws_iq_stats st;
		ws_iq_get_stats(n[k], &st);
		ws_iq_bench_head_stats(&h[k], &st);
		ws_iq_bench_head_windows(&h[k], n[k]);
	}
	return r;
}

/* --json-file and --svg before any work (a name that cannot be written costs no
 * benchmark; the files are written once it is done): 0, or 2 after the message. */
static int bench_files(const ws_cli_iq_opts *o)
{
	ws_err fe;
	if (o->json_file && ws_safefile_check(o->json_file, 0, &fe) < 0) {
		fprintf(stderr, "warpspeed iq bench: --json-file: %s\n", fe.msg);
		return 2;
	}
	if (o->svg && ws_safefile_check(o->svg, 0, &fe) < 0) {
		fprintf(stderr, "warpspeed iq bench: --svg: %s\n", fe.msg);
		return 2;
	}
	return 0;
}

struct bench_doc {
	const ws_cli_iq_opts *o;
	const ws_iq_bench_head *h;
	const ws_iq_bench_row *rows, *agg;
	const ws_iq_bench_trial *tr;
};

static int bench_doc_body(FILE *f, const void *arg, ws_err *err)
{
	(void)err;
	const struct bench_doc *d = arg;
	bench_print(f, d->o, 1, d->h, d->rows, d->agg, d->tr);
	return 0;
}

int ws_cli_iq_bench(ws_cli_iq_opts *o)
{
	ws_iq_format fmt = WS_IQ_FMT_BE32;
	if (!o->trials || !o->nsizes) {
		fprintf(stderr,
			"warpspeed iq bench: needs --trials T (%d..%d; the first %d are dropped) "
			"and --samples N[,N...]\n",
			WS_IQ_BENCH_DROP + 1, WS_IQ_BENCH_MAX_TRIALS, WS_IQ_BENCH_DROP);
		return 2;
	}
	if (o->format && ws_iq_bench_format_parse(o->format, &fmt) < 0)
		return ws_cli_iq_bad("--format", o->format, "raw, ci16 or cf32 for bench");
	if ((o->reference_warplab || o->link_mbps > 0) && !o->svg) {
		fprintf(stderr,
			"warpspeed iq bench: --reference and --link draw on the chart; add "
			"--svg FILE\n");
		return 2;
	}
	if (!o->rf)
		o->rf = WS_IQ_RF_A;
	if (bench_files(o))
		return 2;
	ws_node_thread *b = NULL;
	ws_iq_node *n[WS_IQ_MANY_MAX] = {0};
	int r = o->have_node ? 0 : builtin_start(&b, o, o->json ? stderr : stdout);
	if (!o->nnodes) { /* the built-in node */
		o->nnodes = 1;
		memcpy(o->node_addr[0], o->addr, sizeof o->addr);
		o->node_port[0] = o->cfg.port;
	}
	size_t nn = o->nnodes;
	if (r == 0)
		r = ws_cli_iq_open_nodes(o, n);
	ws_iq_bench_row *rows = calloc(o->nsizes * nn, sizeof *rows);
	ws_iq_bench_row *agg = calloc(o->nsizes, sizeof *agg);
	ws_iq_bench_trial *tr = calloc(o->nsizes * nn * 2 * (size_t)o->trials, sizeof *tr);
	ws_iq_bench_head h[WS_IQ_MANY_MAX];
	ws_err e, fe;
	if (r == 0 && (!rows || !agg || !tr)) {
		fprintf(stderr, "warpspeed iq bench: out of memory\n");
		r = 1;
	} else if (r == 0 && bench_sizes(o, n, fmt, h, rows, agg, tr, &e) < 0) {
		/* the library's "bench: " would follow the program's own name */
		fprintf(stderr, "warpspeed iq bench: %s\n",
			strncmp(e.msg, "bench: ", 7) ? e.msg : e.msg + 7);
		r = e.code == WS_E_INVAL ? 2 : 1;
	}
	if (r == 0) {
		if (o->json)
			bench_print(stdout, o, 1, h, rows, agg, tr);
		else
			bench_note(o, tr);
		struct bench_doc d = {o, h, rows, agg, tr};
		if (o->json_file && ws_cli_file_put(o->json_file, bench_doc_body, &d, &fe) < 0) {
			fprintf(stderr, "warpspeed iq bench: --json-file: %s\n", fe.msg);
			r = 1;
		}
		if (r == 0 && o->svg)
			r = bench_svg(o, h, rows, agg, b != NULL);
	}
	for (size_t k = 0; k < nn && o->verbose; k++)
		if (n[k]) {
			ws_cli_iq_print_stats(n[k]);
			if (o->verbose >= 2)
				ws_cli_iq_print_windows(n[k]);
		}
	free(rows);
	free(agg);
	free(tr);
	ws_cli_iq_close_nodes(n, nn);
	ws_node_thread_stop(b, NULL);
	return r;
}
