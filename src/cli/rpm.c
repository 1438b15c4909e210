/* SPDX-License-Identifier: BSD-2-Clause */
/* rpm: the -t RPM command; see rpm.h. */
#include "cli/rpm.h"

#include "cli/client.h"
#include "cli/lul.h"
#include "cli/outfiles.h"
#include "cli/outprint.h"
#include "cli/personality.h"
#include "cli/svgout.h"
#include "report/figlist.h"
#include "report/rpm.h"
#include "report/series_chart.h"
#include "session/daemon.h"
#include "session/rpm.h"
#include "util/err.h"
#include "util/safefile.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* What -t RPM cannot take, before any work: exit 2. */
static int check(const ws_cli_options *o, ws_err *err)
{
	if (o->peer == WS_PEER_NETSERVER)
		return ws_err_set(err, WS_E_INVAL,
				  "-t RPM needs a warpspeed daemon (warpspeed serve) at the other "
				  "end; --peer netserver names a stock netserver, which runs one "
				  "netperf test per connection and no probes beside it");
	if (o->sweep || o->repeat > 1)
		return ws_err_set(err, WS_E_INVAL,
				  "-t RPM runs once; %s is for the one-session tests",
				  o->sweep ? "--sweep" : "--repeat");
	if (o->spec.end != WS_END_TIME || o->spec.duration_s < WS_RPM_MIN_DURATION_S)
		return ws_err_set(
			err, WS_E_INVAL,
			"-l %g: -t RPM needs a length in seconds of at least %g (an idle "
			"phase, then 2 x 4 - 1 intervals of at least 0.1 s); the default is "
			"10",
			o->spec.end == WS_END_TIME ? o->spec.duration_s
						   : -(double)o->spec.end_count,
			WS_RPM_MIN_DURATION_S);
	if (ws_cli_output_mode(o) && ws_rpm_outputs_check(o->out_spec, err) < 0)
		return err->code;
	if (ws_cli_out_files_check(o, err) < 0) /* every output file's path and rule */
		return err->code;
	return ws_cli_flent_check(o, WS_RPM_FLENT_NAME, err);
}

struct json_doc {
	const ws_rpm_result *r;
	const char *cmd;
};

static int json_body(FILE *f, const void *arg, ws_err *err)
{
	const struct json_doc *d = arg;
	return ws_rpm_json_write(d->r, d->cmd, f) < 0
		? ws_err_set(err, WS_E_INVAL, "the JSON document could not be written")
		: 0;
}

static int json_file(const ws_cli_options *o, const ws_rpm_result *r, const char *cmd)
{
	struct json_doc d = {r, cmd};
	return ws_cli_write_file("--json-file", o->json_file, json_body, &d);
}

static int write_flent(const ws_cli_options *o, const ws_rpm_result *r)
{
	char note[160];
	snprintf(note, sizeof note,
		 "warpspeed -t RPM: RPM %.0f, idle latency %.3f ms, working latency %.3f ms%s",
		 r->rpm, r->idle_latency_ms, r->working_latency_ms,
		 r->error[0] ? " (so far: the run ended early)" : "");
	ws_series buf[WS_RPM_FLENT_SERIES];
	ws_series_set set;
	ws_rpm_flent_view(r, buf, &set);
	return ws_cli_flent_write(o, WS_RPM_FLENT_NAME, &set, "warpspeed -t RPM", note);
}

struct chart_run {
	const ws_rpm_result *r;
	const char *host;
};

static int chart_body(FILE *f, const void *arg, ws_err *err)
{
	const struct chart_run *c = arg;
	char title[WS_HOST_MAX + 32];
	snprintf(title, sizeof title, "RPM %.0f to %s", c->r->rpm, c->host);
	return ws_series_chart_all(f, &c->r->series, title, err);
}

/* --flent and --svg, with what was measured even when the run ended early. */
static int write_files(const ws_cli_options *o, const ws_rpm_result *r)
{
	int status = 0;
	if (o->flent && r->series.n && write_flent(o, r) < 0)
		status = 1;
	struct chart_run c = {r, o->remote_host};
	if (o->svg && r->series.n && ws_cli_write_file("--svg", o->svg, chart_body, &c))
		status = 1;
	return status;
}

/* Print what was measured (all of it, or so far) as o asks. */
static int report(const ws_cli_options *o, const ws_rpm_result *r, bool complete, int argc,
		  char **argv)
{
	char cmd[2048];
	ws_cli_join_argv(argc, argv, cmd, sizeof(cmd));
	int mode = ws_cli_output_mode(o);
	if (o->json)
		ws_rpm_json_write(r, cmd, stdout);
	else if (mode)
		ws_rpm_render_outputs(r, o->out_spec, mode, o->print_headers != 0, stdout);
	else if (o->verbosity == 0 && complete)
		ws_rpm_render_figure(r, stdout);
	else if (o->verbosity > 0 && (complete || r->idle_probes || r->intervals))
		ws_rpm_render(r, stdout);
	fflush(stdout);
	int status = o->json_file ? json_file(o, r, cmd) : 0;
	return write_files(o, r) ? 1 : status;
}

static int run(const ws_cli_options *o, const ws_client_config *cfg, ws_rpm_result *r, ws_err *err)
{
	ws_rpm_config c = {cfg,
			   &o->spec,
			   (enum ws_rpm_dir)o->rpm.dir,
			   o->rpm.max_flows,
			   o->rpm.probe_rate,
			   o->spec.duration_s};
	return ws_rpm_run(&c, r, err);
}

int ws_cli_rpm_main(const ws_cli_options *o, int argc, char **argv)
{
	ws_err err;
	ws_err_clear(&err);
	if (check(o, &err) < 0) {
		ws_cli_eprintf("%s\n", err.msg);
		return 2;
	}
	if (ws_cli_output_mode(o) && ws_figlist_asks_names(o->out_spec)) { /* -o ? */
		ws_rpm_outputs_names(stdout);
		return 1;
	}
	ws_psk *key = NULL;
	if (ws_cli_load_key(o, &key, &err) < 0) {
		ws_cli_eprintf("%s\n", err.msg);
		return 1;
	}
	ws_client_config cfg;
	ws_cli_client_config(o, key, &cfg);
	cfg.needs_warpspeed = "-t RPM";
	ws_rpm_result r;
	int rc = run(o, &cfg, &r, &err);
	ws_daemon *d = NULL;
	if (rc == -ECONNREFUSED && !o->remote_host_given && o->ctl_port == WS_DEFAULT_CTL_PORT &&
	    r.idle_probes == 0 && (d = ws_cli_local_daemon(&err)) != NULL) {
		ws_cli_eprintf("no daemon answered on %s port %u; started one in this process on "
			       "127.0.0.1 port %u\n",
			       cfg.host, cfg.port, ws_daemon_port(d));
		ws_rpm_result_free(&r);
		cfg.psk = NULL;
		cfg.host = "127.0.0.1";
		cfg.host_family = 4;
		cfg.port = ws_daemon_port(d);
		ws_err_clear(&err);
		rc = run(o, &cfg, &r, &err);
	}
	/* a netserver was refused before anything was measured: nothing to report */
	int status = rc == -WS_E_PEER ? 0 : report(o, &r, rc == 0, argc, argv);
	char notes[512], *save = NULL;
	if (rc == 0 && ws_rpm_notes(&r, notes, sizeof(notes)) > 0)
		for (char *l = strtok_r(notes, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			ws_cli_eprintf("%s\n", l);
	if (rc == -WS_E_PEER)
		ws_cli_eprintf("%s\n", err.msg);
	else if (rc < 0)
		ws_cli_eprintf("-t RPM ended early: %s\n", err.msg);
	if (rc < 0)
		status = rc == -WS_E_PEER ? 2 : 1;
	ws_rpm_result_free(&r);
	ws_daemon_free(d);
	ws_cli_key_free(key);
	return status;
}
