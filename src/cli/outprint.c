/* SPDX-License-Identifier: BSD-2-Clause */
/* outprint: output selectors in the client; see outprint.h. The figures a result lacks
 * (the test's UUID, the command line, the congestion control in use) are gathered here,
 * once, so that the report library stays free of I/O. */
#include "cli/outprint.h"

#include "cli/personality.h"
#include "report/classic.h"
#include "report/json_result.h"
#include "report/pathnotes.h"
#include "report/result_om.h"
#include "util/err.h"
#include "util/safefile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ws_cli_output_mode(const ws_cli_options *o)
{
	if (o->out_mode)
		return o->out_mode;
	return o->omni ? WS_OUT_MODE_HUMAN : WS_OUT_MODE_NONE;
}

bool ws_cli_output_prepare(const ws_cli_options *o, ws_out_selection *sel, int *status)
{
	memset(sel, 0, sizeof(*sel));
	if (!ws_cli_output_mode(o))
		return true;
	ws_err err;
	ws_err_clear(&err);
	if (o->out_spec && ws_out_parse_selection(o->out_spec, sel, &err) < 0) {
		printf("%s\n", err.msg); /* netperf's own line, where netperf prints it */
		fflush(stdout);
		*status = 255;
		return false;
	}
	if (sel->list_names) {
		ws_out_print_names(stdout, stderr);
		*status = 1;
		return false;
	}
	if (!o->out_spec) {
		bool cpu = o->spec.local.measure_cpu || o->spec.remote.measure_cpu;
		ws_out_select_default(&o->spec, cpu, sel);
	}
	return true;
}

/* One line of a /proc file without its newline; "" when unreadable. */
static void read_line(const char *path, char *buf, size_t n)
{
	buf[0] = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, (int)n, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
}

void ws_cli_join_argv(int argc, char **argv, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	for (int i = 0; i < argc && len + 1 < n; i++) {
		int w = snprintf(buf + len, n - len, "%s%s", i ? " " : "", argv[i]);
		if (w < 0)
			break;
		len += (size_t)w < n - len ? (size_t)w : n - len - 1;
	}
}

int ws_cli_file_put(const char *path, ws_cli_write_fn fn, const void *ctx, ws_err *err)
{
	ws_safefile sf;
	int rc = ws_safefile_open(&sf, path, 0, err);
	if (rc == 0)
		rc = fn(sf.f, ctx, err);
	if (rc == 0)
		rc = ws_safefile_commit(&sf, err);
	ws_safefile_abort(&sf);
	return rc;
}

int ws_cli_write_file(const char *option, const char *path, ws_cli_write_fn fn, const void *ctx)
{
	ws_err err;
	ws_err_clear(&err);
	if (ws_cli_file_put(path, fn, ctx, &err) < 0) {
		ws_cli_eprintf("%s %s: %s\n", option, path, err.msg);
		return 1;
	}
	return 0;
}

/* The figures a result lacks, gathered once for both the selectors and JSON. */
struct extras {
	char uuid[64], cong[64], cmd[1000];
};

static ws_report_ctx context(const ws_cli_options *o, const ws_test_result *res, int argc,
			     char **argv, struct extras *x)
{
	read_line("/proc/sys/kernel/random/uuid", x->uuid, sizeof(x->uuid));
	read_line("/proc/sys/net/ipv4/tcp_congestion_control", x->cong, sizeof(x->cong));
	ws_cli_join_argv(argc, argv, x->cmd, sizeof(x->cmd));
	ws_report_ctx c = {
		.r = res,
		.command_line = x->cmd,
		.brand = o->brand[0] ? o->brand : NULL,
		.uuid = o->uuid ? o->uuid : x->uuid, /* test option -u */
		/* The client's data socket as read back at setup (test option -K or the default). */
		.local_cong = res->local.cong_set[0] ? res->local.cong_set : x->cong,
		/* What the daemon reported (a netserver does, at the end), else test option -K's
		 * remote value (the daemon fails the test if it cannot set it), else on one host the
		 * same sysctl. */
		.remote_cong = res->remote.cong_set[0] ? res->remote.cong_set
			: res->spec.remote.cong[0]     ? res->spec.remote.cong
			: res->shared_host             ? x->cong
						       : "",
		.fmt = o->format,
		.local_cpu = o->spec.local.measure_cpu,
		.remote_cpu = o->spec.remote.measure_cpu,
		.omni = o->omni,
		.want_stats = o->histogram,
		.conf = o->conf.asked ? &o->conf : NULL,
	};
	return c;
}

int ws_cli_json_write(FILE *f, const ws_cli_options *o, const ws_test_result *res, int argc,
		      char **argv, const ws_json_interim *interim, size_t ninterim, bool summary)
{
	struct extras x;
	ws_report_ctx c = context(o, res, argc, argv, &x);
	c.want_stats = true;
	return ws_json_result_write(f, &c, interim, ninterim, summary);
}

/* Flushes stdout after a report was written to it: 0, or 1 after "writing WHAT to standard
 * output failed: <the reason>" (the system's words, "No space left on device", not a
 * number); rc is the writer's own status. */
static int stdout_done(int rc, const char *what)
{
	int e = errno; /* the writer's own failure (the caller cleared errno before it) */
	if (fflush(stdout) != 0)
		e = errno;
	if (ferror(stdout) || rc < 0) {
		if (!e)
			e = rc < 0 ? -rc : EIO;
		ws_cli_eprintf("writing %s to standard output failed: %s\n", what, strerror(e));
		return 1;
	}
	return 0;
}

int ws_cli_json_print(const ws_cli_options *o, const ws_test_result *res, int argc, char **argv,
		      const ws_json_interim *interim, size_t ninterim)
{
	/* -D's samples (cli/demo.h); --json-lines printed each as it came, too. */
	errno = 0;
	int rc = ws_cli_json_write(stdout, o, res, argc, argv, interim, ninterim, o->json == 2);
	return stdout_done(rc, "the JSON result");
}

struct json_file_ctx {
	const ws_cli_options *o;
	const ws_test_result *res;
	int argc;
	char **argv;
	const ws_json_interim *interim;
	size_t ninterim;
};

static int json_file_body(FILE *f, const void *arg, ws_err *err)
{
	const struct json_file_ctx *c = arg;
	if (ws_cli_json_write(f, c->o, c->res, c->argc, c->argv, c->interim, c->ninterim, false) <
	    0)
		return ws_err_set(err, WS_E_INVAL, "'%s': the JSON document could not be written",
				  c->o->json_file);
	return 0;
}

int ws_cli_json_file_write(const ws_cli_options *o, const ws_test_result *res, int argc,
			   char **argv, const ws_json_interim *interim, size_t ninterim)
{
	struct json_file_ctx c = {o, res, argc, argv, interim, ninterim};
	return ws_cli_write_file("--json-file", o->json_file, json_file_body, &c);
}

int ws_cli_output_print(const ws_cli_options *o, const ws_out_selection *sel,
			const ws_test_result *res, int argc, char **argv)
{
	struct extras x;
	ws_report_ctx c = context(o, res, argc, argv, &x);
	if (o->print_headers) {
		ws_classic_opts co;
		ws_classic_opts_init(&co);
		co.cpu_bind = o->cpu_bind_given;
		co.omni = o->omni;
		co.conf = o->conf.asked ? &o->conf : NULL; /* netperf's suffix, in every mode */
		co.banner_done = o->banner_done;
		ws_classic_test_banner(res, &co, stdout);
	}
	errno = 0;
	ws_out_mode mode = (ws_out_mode)ws_cli_output_mode(o);
	int rc = ws_out_print(sel, mode, o->print_headers != 0, &c, stdout);
	/* --mptcp / --busy-poll as they turned out: under the human table, on stderr beside
	 * the machine formats, which a line of prose would break */
	ws_pathnotes_print(res, o->verbosity, mode == WS_OUT_MODE_HUMAN ? stdout : stderr);
	return stdout_done(rc, "the selected output");
}

/* --openmetrics's rule beside the file's own check (cli/outfiles.h): one document. */
int ws_cli_openmetrics_rule(const ws_cli_options *o, ws_err *err)
{
	if (o->sweep)
		return ws_err_set(
			err, WS_E_INVAL,
			"--openmetrics %s with --sweep: a sweep's points are one JSON "
			"document (--json); use --openmetrics with one test or --repeat N",
			o->openmetrics);
	if (ws_test_type_lul(o->spec.type) || o->spec.type == WS_TEST_RPM)
		return ws_err_set(err, WS_E_INVAL,
				  "--openmetrics %s: writes one session's result; -t %s runs many "
				  "(its figures are in --json-file, -o and -k)",
				  o->openmetrics, ws_test_type_name(o->spec.type));
	return 0;
}

struct om_body {
	const ws_om *w;
	const char *path;
};

static int om_body(FILE *f, const void *arg, ws_err *err)
{
	const struct om_body *b = arg;
	if (fwrite(b->w->buf, 1, b->w->len, f) != b->w->len)
		return ws_err_set(err, EIO, "could not write %s", b->path);
	return 0;
}

int ws_cli_openmetrics_write(const ws_cli_options *o, const ws_test_result *res, size_t n, int argc,
			     char **argv)
{
	struct extras *x = calloc(n, sizeof(*x));
	ws_report_ctx *c = calloc(n, sizeof(*c));
	ws_err err;
	ws_err_clear(&err);
	ws_om w;
	ws_om_init(&w, WS_OM_PROMETHEUS); /* node_exporter's textfile collector reads 0.0.4 */
	int rc = x && c ? 0 : ws_err_set(&err, ENOMEM, "no memory for %zu results", n);
	for (size_t i = 0; rc == 0 && i < n; i++)
		c[i] = context(o, &res[i], argc, argv, &x[i]);
	if (rc == 0) {
		ws_result_om_render(&w, c, n);
		rc = ws_om_finish(&w, &err);
	}
	struct om_body b = {&w, o->openmetrics};
	if (rc == 0)
		rc = ws_cli_file_put(o->openmetrics, om_body, &b, &err);
	ws_om_free(&w);
	free(x);
	free(c);
	if (rc < 0)
		ws_cli_eprintf("--openmetrics: %s\n", err.msg);
	return rc < 0 ? 1 : 0;
}
