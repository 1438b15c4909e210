/* SPDX-License-Identifier: BSD-2-Clause */
/* lul: the client's RRUL run and its report; see lul.h. */
#include "cli/lul.h"

#include "cli/client.h"
#include "cli/longopts.h"
#include "cli/optvalue.h"
#include "cli/outprint.h"
#include "cli/personality.h"
#include "model/lul.h"
#include "report/figlist.h"
#include "report/flent.h"
#include "report/lul_outputs.h"
#include "report/lul_report.h"
#include "report/series_chart.h"
#include "session/client.h"
#include "util/err.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

static int flow_count(const char *val, uint32_t *out, ws_err *err)
{
	long long v;
	int rc = ws_cli_parse_ranged(val, 0, WS_LUL_MAX_FLOWS_EACH, "a number of flows", &v, err);
	if (rc == 0)
		*out = (uint32_t)v;
	return rc;
}

int ws_cli_lopt_up(ws_cli_options *o, const char *val, ws_err *err)
{
	o->spec.lul_counts = true;
	return flow_count(val, &o->spec.lul_up, err);
}

int ws_cli_lopt_down(ws_cli_options *o, const char *val, ws_err *err)
{
	o->spec.lul_counts = true;
	return flow_count(val, &o->spec.lul_down, err);
}

int ws_cli_lopt_probes(ws_cli_options *o, const char *val, ws_err *err)
{
	return ws_lul_parse_probes(val, &o->spec.lul_probes, err);
}

int ws_cli_lopt_probe_interval(ws_cli_options *o, const char *val, ws_err *err)
{
	char *end;
	errno = 0;
	double v = strtod(val, &end);
	if (errno || end == val || *end || !isfinite(v) ||
	    (v != 0 && (v < WS_LUL_MIN_INTERVAL_S || v > WS_LUL_MAX_INTERVAL_S)))
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is not a probe interval; expected 0 (back to back) or "
				  "%g to %g seconds, like 0.2",
				  val, WS_LUL_MIN_INTERVAL_S, WS_LUL_MAX_INTERVAL_S);
	o->spec.lul_interval_s = v;
	o->spec.lul_back_to_back = v == 0;
	return 0;
}

int ws_cli_lopt_delay(ws_cli_options *o, const char *val, ws_err *err)
{
	long long v;
	int rc = ws_cli_parse_ranged(val, 0, WS_LUL_MAX_DELAY_S, "a number of seconds", &v, err);
	if (rc == 0)
		o->spec.lul_delay_s = (uint32_t)v;
	return rc;
}

int ws_cli_lopt_flent(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)err;
	o->flent = val;
	return 0;
}

/* The Flent name of the run ("rrul", "rrul_be", "tcp_nup" ...): the summary's title and the
 * Flent file's NAME, which selects the plots Flent offers for it. */
static const char *flent_name(const ws_test_spec *s)
{
	if (!s->lul_counts)
		return s->type == WS_TEST_RRUL_BE ? "rrul_be" : "rrul";
	if (s->lul_up && s->lul_down)
		return "tcp_bidirectional";
	return s->lul_up ? "tcp_nup" : "tcp_ndown";
}

/* The Flent file's metadata for a run of o under Flent's test name (local: room for this
 * host's name). */
static void flent_meta(const ws_cli_options *o, const char *name, ws_flent_meta *m, char *local,
		       size_t len)
{
	struct utsname u;
	snprintf(local, len, "%s", uname(&u) == 0 ? u.nodename : "");
	*m = (ws_flent_meta){
		.name = name,
		.host = o->remote_host,
		.local_host = local[0] ? local : NULL,
		.ip_version =
			o->spec.family == WS_FAMILY_INET6 || strchr(o->remote_host, ':') ? 6 : 4,
	};
}

int ws_cli_flent_check(const ws_cli_options *o, const char *name, ws_err *err)
{
	if (!o->flent)
		return 0;
	ws_flent_meta m;
	char local[256];
	flent_meta(o, name, &m, local, sizeof local);
	int rc = ws_flent_check(&m, NULL, err); /* its file: cli/outfiles.h */
	if (rc < 0)
		ws_err_prefix(err, "--flent %s", o->flent);
	return rc;
}

int ws_cli_flent_write(const ws_cli_options *o, const char *name, const ws_series_set *set,
		       const char *title, const char *note)
{
	ws_err err;
	ws_err_clear(&err);
	ws_flent_meta m;
	char local[256];
	flent_meta(o, name, &m, local, sizeof local);
	m.title = title;
	m.note = note;
	if (ws_flent_write(set, &m, o->flent, &err) < 0) {
		ws_cli_eprintf("--flent %s: %s\n", o->flent, err.msg);
		return -1;
	}
	return 0;
}

/* --flent and --svg, before any work: the files can be written and the chart can hold the
 * run's series. */
static int files_check(const ws_cli_options *o, const ws_lul_plan *plan, ws_err *err)
{
	int rc = ws_cli_flent_check(o, flent_name(&o->spec), err);
	if (rc < 0)
		return rc;
	uint32_t n = plan->nup + plan->ndown + plan->nprobes;
	if (o->svg && n > WS_SERIES_CHART_MAX)
		return ws_err_set(err, WS_E_INVAL,
				  "--svg %s: the chart draws at most %d flows and probes; this run "
				  "has %u (expected --up plus --down plus probes up to %d)",
				  o->svg, WS_SERIES_CHART_MAX, n, WS_SERIES_CHART_MAX);
	return 0;
}

int ws_cli_lul_check(const ws_cli_options *o, ws_err *err)
{
	static const char *const own[] = {"up",    "down", "probes", "probe-interval",
					  "delay", "flent"};
	bool lul = ws_test_type_lul(o->spec.type);
	for (size_t i = 0; !lul && i < sizeof(own) / sizeof(own[0]); i++) {
		bool flent = !strcmp(own[i], "flent");
		if (flent && o->spec.type == WS_TEST_RPM) /* cli/rpm.c writes its file */
			continue;
		if (flent && ws_cli_long_given(o, own[i]))
			return ws_err_set(
				err, WS_E_INVAL,
				"option --flent belongs to -t RRUL, -t RRUL_BE and -t RPM; "
				"the test is %s",
				ws_test_type_name(o->spec.type));
		if (ws_cli_long_given(o, own[i]))
			return ws_err_set(err, WS_E_INVAL,
					  "option --%s belongs to -t RRUL and -t RRUL_BE; the test "
					  "is %s",
					  own[i], ws_test_type_name(o->spec.type));
	}
	if (!lul)
		return 0;
	const char *bad = o->conf_args.i_given || o->conf_args.I_given ? "-i/-I (iterations)"
		: ws_cli_long_given(o, "streams") ? "--streams (use --up and --down)"
		: o->sweep                        ? "--sweep"
		: o->repeat > 1                   ? "--repeat"
		: o->spec.end != WS_END_TIME      ? "-l with a count (RRUL runs for a time)"
						  : NULL;
	if (bad)
		return ws_err_set(err, WS_E_INVAL,
				  "-t %s does not take %s; expected -l SECONDS, -D, --up, --down, "
				  "--probes, --probe-interval, --delay, -o/-O/-k, --json",
				  ws_test_type_name(o->spec.type), bad);
	if (o->peer == WS_PEER_NETSERVER)
		return ws_err_set(err, WS_E_INVAL,
				  "-t %s with --peer netserver: RRUL needs a warpspeed daemon "
				  "(`warpspeed serve`); expected --peer warpspeed or auto",
				  ws_test_type_name(o->spec.type));
	int rc = o->out_mode ? ws_lul_outputs_check(o->out_spec, err) : 0;
	if (rc < 0)
		return rc;
	ws_lul_plan plan;
	rc = ws_lul_plan_make(&o->spec, o->demo_interval_s, &plan, err);
	return rc < 0 ? rc : files_check(o, &plan, err);
}

struct tick_ctx {
	size_t printed[WS_LUL_MAX_ITEMS];
};

static void on_tick(void *ctx, const ws_lul_result *r)
{
	struct tick_ctx *t = ctx;
	ws_lul_interim_write(stdout, r, t->printed);
	fflush(stdout);
}

static void note(void *ctx, const char *line)
{
	(void)ctx;
	ws_cli_eprintf("note: %s\n", line);
}

/* -v 2: the mark each flow and probe asked for and what both ends' sockets kept. */
static void print_marks(const ws_lul_result *r)
{
	for (size_t i = 0; i < r->set.n; i++) {
		const ws_series *s = &r->set.s[i];
		if (r->skipped[i][0])
			continue;
		printf("%-22s IP_TOS 0x%02x: here 0x%02x, at the daemon ", s->name, s->tos,
		       (unsigned)(r->tos_local[i] < 0 ? 0 : r->tos_local[i]));
		if (r->tos_remote[i] < 0)
			printf("not reported\n");
		else
			printf("0x%02x\n", (unsigned)r->tos_remote[i]);
	}
}

struct chart_run {
	const ws_cli_options *o;
	const ws_lul_result *r;
};

static int chart_body(FILE *f, const void *arg, ws_err *err)
{
	const ws_cli_options *o = ((const struct chart_run *)arg)->o;
	const ws_lul_result *r = ((const struct chart_run *)arg)->r;
	char title[WS_HOST_MAX + 32];
	snprintf(title, sizeof title, "%s to %s", flent_name(&o->spec), o->remote_host);
	return ws_series_chart_all(f, &r->set, title, err);
}

/* --svg: throughput up and down above latency, on one time axis (report/series_chart.h). */
static int write_chart(const ws_cli_options *o, const ws_lul_result *r)
{
	struct chart_run c = {o, r};
	return ws_cli_write_file("--svg", o->svg, chart_body, &c) ? -1 : 0;
}

static int report(const ws_cli_options *o, const ws_test_result *res, int argc, char **argv)
{
	const ws_lul_result *r = res->lul;
	for (size_t i = 0; i < r->set.n; i++) /* the reason a probe did not run, once */
		if (r->skipped[i][0])
			ws_cli_eprintf("note: %s skipped: %s\n", r->set.s[i].name, r->skipped[i]);
	int status = 0;
	if (o->json) {
		status = ws_cli_json_print(o, res, argc, argv, NULL, 0);
	} else if (o->out_mode) {
		if (ws_lul_render_outputs(r, o->out_spec, o->out_mode, o->print_headers != 0,
					  stdout) < 0)
			status = 1;
	} else {
		if (o->verbosity >= 2)
			print_marks(r);
		if (ws_lul_summary_write(stdout, r, flent_name(&res->spec)) < 0)
			status = 1;
	}
	if (status == 0 && o->json_file)
		status = ws_cli_json_file_write(o, res, argc, argv, NULL, 0);
	/* The files, with what was measured even when the run ended early. */
	if (o->flent && ws_cli_flent_write(o, flent_name(&o->spec), &r->set, NULL, NULL) < 0)
		status = 1;
	if (o->svg && write_chart(o, r) < 0)
		status = 1;
	fflush(stdout);
	return status;
}

int ws_cli_lul_main(ws_cli_options *o, int argc, char **argv)
{
	ws_err err;
	ws_err_clear(&err);
	if (o->out_mode && ws_figlist_asks_names(o->out_spec)) { /* -o ?, as netperf's -O ? */
		ws_lul_outputs_names(stdout);
		return 1;
	}
	ws_psk *key = NULL;
	if (ws_cli_load_key(o, &key, &err) < 0) {
		ws_cli_eprintf("%s\n", err.msg);
		return 1;
	}
	ws_client_config cfg;
	ws_cli_client_config(o, key, &cfg);
	cfg.note = o->verbosity >= 2 ? note : NULL;
	cfg.lul_step_s = o->demo_interval_s;
	struct tick_ctx *tc = calloc(1, sizeof(*tc));
	if (o->demo_interval_s > 0 && !o->json && tc) {
		cfg.lul_tick = on_tick;
		cfg.lul_ctx = tc;
	}
	ws_test_result res;
	int rc = ws_client_run_test(&cfg, &o->spec, &res, &err);
	if (rc == -ECONNREFUSED && !o->remote_host_given && o->ctl_port == WS_DEFAULT_CTL_PORT &&
	    o->peer != WS_PEER_NETSERVER) { /* as every test: a daemon in this process */
		ws_test_result_free(&res);
		rc = ws_cli_run_with_local_daemon(&cfg, &o->spec, &res, true, &err);
	}
	ws_cli_key_free(key);
	int status = 0;
	if (rc < 0)
		ws_cli_eprintf("%s\n", err.msg);
	/* what was measured is shown even when the run ended early */
	if (res.lul && res.lul->set.n && (rc == 0 || res.lul->stopped[0]))
		status = report(o, &res, argc, argv);
	ws_test_result_free(&res);
	free(tc);
	if (rc < 0)
		return rc == -WS_E_PEER ? 2 : 1;
	return status;
}
