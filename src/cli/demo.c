/* SPDX-License-Identifier: BSD-2-Clause */
/* demo: -D's reporter callback and the banner printed as the test starts; see demo.h. */
#include "cli/demo.h"

#include "cli/conntest.h"
#include "cli/outprint.h"
#include "model/testtype.h"
#include "report/classic.h"
#include "report/interim.h"
#include "report/json_result.h"
#include "util/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Samples come one at a time (the reporter thread, then the stop after joining it), so
 * the array needs no lock. */
static void keep(ws_cli_demo *d, const ws_interim_sample *s)
{
	if (d->nkept == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 64;
		ws_interim_sample *k = realloc(d->kept, cap * sizeof(*k));
		if (!k)
			return;
		d->kept = k;
		d->cap = cap;
	}
	d->kept[d->nkept++] = *s;
}

/* A sample in json_result's terms; start_s/end_s count from the run's start (each run
 * of -i starts again at 0, as its indexes do). */
static void to_json(ws_cli_demo *d, const ws_interim_sample *s, ws_json_interim *j)
{
	const char *u;
	if (s->flow < 0)
		d->elapsed_s = s->index == 0 ? s->interval_s : d->elapsed_s + s->interval_s;
	*j = (ws_json_interim){
		.index = s->index,
		.stream = s->flow,
		.start_s = d->elapsed_s - s->interval_s,
		.end_s = d->elapsed_s,
		.throughput = ws_report_interim_value(s, d->fmt, &u),
		.units = d->units,
		.bytes = s->kind == WS_INTERIM_BYTES ? s->units : 0,
		.transactions = s->kind == WS_INTERIM_TRANSACTIONS ? s->units : 0,
		.ending_wall_ns = s->ending_wall_ns,
		.final = s->final,
	};
}

static void print_sample(void *ctx, const ws_interim_sample *s)
{
	ws_cli_demo *d = ctx;
	keep(d, s);
	if (d->o->json) {
		ws_json_interim j;
		to_json(d, s, &j);
		if (d->o->json == 2)
			ws_json_interval_write(d->out, &j);
	} else {
		ws_report_interim(s, (ws_out_mode)d->mode, d->fmt, d->out);
	}
	fflush(d->out); /* live, also through a pipe */
}

static void print_banner(void *ctx, const ws_test_result *r)
{
	ws_cli_demo *d = ctx;
	if (d->o->banner_done || !d->o->print_headers || d->o->json)
		return;
	ws_classic_opts co;
	ws_classic_opts_init(&co);
	co.cpu_bind = d->o->cpu_bind_given;
	co.omni = d->o->omni;
	co.conf = d->o->conf.asked ? &d->o->conf : NULL;
	ws_test_result named = *r; /* (a shallow copy, not freed) */
	ws_cli_conn_view(d->o, &named);
	ws_classic_test_banner(&named, &co, d->out);
	fflush(d->out); /* at once, also through a pipe */
	d->o->banner_done = true;
}

/* The progress line of one sample: where the run is and its rate over the last 250 ms.
 * The last (partial) sample of a run erases it: the results follow. */
static void progress_sample(void *ctx, const ws_interim_sample *s)
{
	ws_cli_demo *d = ctx;
	if (s->flow >= 0)
		return;
	if (s->index == 0) { /* a new run of -i */
		d->prog_s = 0;
		d->prog_units = 0;
		d->prog_run++;
	}
	d->prog_s += s->interval_s;
	d->prog_units += s->units;
	if (s->final) {
		ws_cli_progress_clear(&d->prog);
		return;
	}
	const ws_test_spec *sp = &d->o->spec;
	char where[96], run[32] = "";
	if (sp->end == WS_END_TIME)
		snprintf(where, sizeof where, "%.1f/%.0f s", d->prog_s, sp->duration_s);
	else if (d->prog_s < WS_CLI_PROGRESS_MIN_S)
		return;
	else
		snprintf(where, sizeof where, "%.1f s, %llu/%llu %s", d->prog_s,
			 (unsigned long long)d->prog_units, (unsigned long long)sp->end_count,
			 sp->end == WS_END_BYTES ? "bytes" : "transactions");
	if (d->o->conf.asked)
		snprintf(run, sizeof run, " run %d/%d", d->prog_run, d->o->conf.max_iterations);
	const char *u;
	double v = ws_report_interim_value(s, d->fmt, &u);
	if (s->kind == WS_INTERIM_TRANSACTIONS)
		ws_cli_progress_draw(&d->prog, true, "%s%s %s  %.0f trans/s",
				     ws_test_type_name(sp->type), run, where, v);
	else
		ws_cli_progress_draw(&d->prog, true, "%s%s %s  %.2f %s/s",
				     ws_test_type_name(sp->type), run, where, v, u);
}

/* The progress reporter (no -D): every 250 ms, the aggregate only. */
static int progress_setup(ws_cli_options *o, ws_cli_demo *d, ws_client_config *cfg, ws_err *err)
{
	const ws_test_spec *sp = &o->spec;
	if (!o->progress || (sp->end == WS_END_TIME && sp->duration_s < WS_CLI_PROGRESS_MIN_S))
		return 0;
	d->fmt = o->format;
	ws_cli_progress_init(&d->prog, true);
	ws_interim_config ic = {
		.interval_s = 0.25,
		.nflows = sp->streams ? sp->streams : 1,
		.kind = ws_test_type_transacts(sp->type) ? WS_INTERIM_TRANSACTIONS
							 : WS_INTERIM_BYTES,
		.cb = progress_sample,
		.ctx = d,
	};
	int rc = ws_interim_create(&ic, &d->ip, err);
	if (rc == 0)
		cfg->interim = d->ip;
	return rc;
}

int ws_cli_demo_setup(ws_cli_options *o, ws_cli_demo *d, ws_client_config *cfg, ws_err *err)
{
	memset(d, 0, sizeof(*d));
	d->o = o;
	d->out = stdout;
	/* netperf prints its banner when the test starts, with or without -D; the column
	 * headers come with the results (after any interim lines), as there. */
	cfg->on_start = print_banner;
	cfg->start_ctx = d;
	if (!(o->demo_interval_s > 0))
		return progress_setup(o, d, cfg, err);
	d->mode = ws_cli_output_mode(o);
	d->fmt = o->format;
	bool rr = ws_test_type_transacts(o->spec.type);
	ws_interim_config ic = {
		.interval_s = o->demo_interval_s,
		.precise = o->demo_precise,
		.nflows = o->spec.streams ? o->spec.streams : 1,
		.per_flow = o->verbosity >= 2 && o->spec.streams > 1,
		.kind = rr ? WS_INTERIM_TRANSACTIONS : WS_INTERIM_BYTES,
		.cb = print_sample,
		.ctx = d,
	};
	const char *u;
	ws_interim_sample unit = {.kind = ic.kind};
	ws_report_interim_value(&unit, d->fmt, &u);
	snprintf(d->units, sizeof(d->units), "%s/s", u);
	int rc = ws_interim_create(&ic, &d->ip, err);
	if (rc < 0)
		return rc;
	cfg->interim = d->ip;
	return 0;
}

size_t ws_cli_demo_json(const ws_cli_demo *d, ws_json_interim **out)
{
	*out = d->nkept ? malloc(d->nkept * sizeof(**out)) : NULL;
	if (!*out)
		return 0;
	ws_cli_demo tmp = *d; /* to_json's running sum, not the caller's */
	tmp.elapsed_s = 0;
	for (size_t i = 0; i < d->nkept; i++) {
		to_json(&tmp, &d->kept[i], &(*out)[i]);
		(*out)[i].units = d->units; /* the caller's, which outlives tmp */
	}
	return d->nkept;
}

void ws_cli_demo_free(ws_cli_demo *d)
{
	ws_cli_progress_clear(&d->prog);
	ws_interim_free(d->ip);
	d->ip = NULL;
	free(d->kept);
	d->kept = NULL;
	d->nkept = d->cap = 0;
}
