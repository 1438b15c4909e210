/* SPDX-License-Identifier: BSD-2-Clause */
/* client: the netperf-compatible benchmark client (`warpspeed [options] [-- test options]`).
 *
 * Parses the command line, runs the test through the session library, starts an
 * in-process daemon when the default host has none, and prints netperf's classic table
 * on stdout. People-facing messages go to stderr; bad usage exits 2, failures exit 1. */
#include "cli/client.h"
#include "cli/conntest.h"
#include "cli/demo.h"
#include "cli/personality.h"

#include "cli/harnessopts.h"
#include "cli/lul.h"
#include "cli/outfiles.h"
#include "cli/options.h"
#include "cli/outprint.h"
#include "cli/repeat.h"
#include "cli/rpm.h"
#include "cli/testhelp.h"
#include "cli/svgout.h"
#include "cli/sweeprun.h"
#include "cli/usage.h"
#include "measure/cpu.h"
#include "measure/cpubound.h"
#include "model/testtype.h"
#include "report/classic.h"
#include "report/harness.h"
#include "report/json_result.h"
#include "report/streams.h"
#include "session/client.h"
#include "session/daemon.h"
#include "session/iterate.h"
#include "session/npmap.h"
#include "util/err.h"
#include "util/features.h"
#include "util/psk.h"
#include "workload/engines.h"
#include "workload/setup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/auxv.h>
#include <unistd.h>
#endif

#include <warpspeed/version.h>

static void print_version(void)
{
	printf("warpspeed %s (control protocol %d)\n", ws_version(), WARPSPEED_CTL_PROTOCOL);
	printf("build: %s, C%ld, %s-endian%s%s\n",
#ifdef __VERSION__
	       "cc " __VERSION__,
#else
	       "cc",
#endif
	       (long)(__STDC_VERSION__ / 100),
	       __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? "big" : "little",
#ifdef __SANITIZE_ADDRESS__
	       ", ASan",
#else
	       "",
#endif
#ifdef __OPTIMIZE__
	       ", optimised"
#else
	       ""
#endif
	);
#ifdef WS_TARGET
	printf("target: %s\n", WS_TARGET);
#endif
#ifdef __linux__
	/* No program interpreter (AT_BASE 0): a static binary, as cross builds are. */
	printf("linkage: %s\n", getauxval(AT_BASE) ? "dynamic" : "static");
#endif
	char fast[256];
	ws_features_list(fast, sizeof(fast));
	printf("fast paths: %s\n", fast);
	int gso = ws_features_probe_udp_gso();
	printf("run time: UDP GSO %s\n",
	       gso > 0            ? "works"
		       : gso == 0 ? "does not work"
				  : "not checked (no loopback)");
	/* every test of the test table, in the table's order (LOC_CPU runs no workload) */
	printf("tests:");
	for (unsigned i = 0; ws_test_type_at(i); i++)
		printf(" %s", ws_test_type_at(i)->name);
	printf("\n");
}

/* After the table, on stderr: stdout keeps netperf's layout for scripts, and -P 0 (bare
 * rows for scripts) gets no notice at all. */
static void print_cpu_bound(const ws_test_result *res)
{
	ws_cpubound v;
	ws_cpubound_judge(res, &v);
	char line[512];
	for (int remote = 0; remote <= 1; remote++)
		if (ws_cpubound_describe(&v, remote, line, sizeof(line)) > 0)
			ws_cli_eprintf("%s\n", line);
}

static void print_note(void *ctx, const char *line)
{
	(void)ctx;
	ws_cli_eprintf("note: %s\n", line);
}

/* The key from -Z, --psk-file or WARPSPEED_PSK_FILE, in that order; *k stays NULL when
 * none is given. -Z's argument is overwritten once read (it was visible to ps until then). */
int ws_cli_load_key(const ws_cli_options *o, ws_psk **k, ws_err *err)
{
	const char *file = o->psk_file ? o->psk_file : getenv("WARPSPEED_PSK_FILE");
	*k = NULL;
	if (!o->psk_pass && (!file || !*file))
		return 0;
	if (!(*k = malloc(sizeof(**k))))
		return ws_err_set(err, ENOMEM, "no memory for the key");
	int rc;
	if (o->psk_pass) {
		rc = ws_psk_from_passphrase(o->psk_pass, *k, err);
		memset((char *)o->psk_pass, 'x', strlen(o->psk_pass));
	} else {
		rc = ws_psk_load_file(file, *k, err);
		if (rc < 0 && !o->psk_file)
			ws_err_prefix(err, "WARPSPEED_PSK_FILE");
	}
	if (rc < 0) {
		free(*k);
		*k = NULL;
	}
	return rc;
}

void ws_cli_key_free(ws_psk *key)
{
	if (key) {
		ws_psk_wipe(key);
		free(key);
	}
}

/* -F, before any connection: the file opens and can fill the buffers (or be sent). Under
 * warpspeed's name a file that cannot be used is a usage error (exit 2, before any work);
 * under netperf's the session finds it and the run fails with status 1: netperf 2.7.0
 * connects, prints its banner and then fails on the file (TCP_SENDFILE exits 1, the other
 * tests crash), so a netperf script never sees 2 for it. */
static int fill_file_check(const ws_cli_options *o, ws_err *err)
{
	if (!o->spec.fill_file[0])
		return 0;
	int fd = ws_workload_open_fill(&o->spec, err);
	if (fd >= 0)
		close(fd);
	return fd < 0 ? fd : 0;
}

/* Nothing listens on the default host: serve the test from this process, on loopback. */
ws_daemon *ws_cli_local_daemon(ws_err *err)
{
	ws_daemon_config dc;
	ws_daemon_config_init(&dc);
	dc.bind_host = "127.0.0.1";
	dc.family = 4;
	dc.port = 0;
	/* It serves this one process's test: its buffers and ports are the user's own business,
	 * as the client's are; the limits protect a shared daemon from other people. */
	dc.max_memory = UINT64_MAX;
	dc.allow_privileged_ports = true;
	ws_daemon *d = ws_daemon_new(&dc, err);
	if (d && ws_daemon_start_thread(d, err) < 0) {
		ws_daemon_free(d);
		d = NULL;
	}
	return d;
}

int ws_cli_run_with_local_daemon(const ws_client_config *cfg, const ws_test_spec *spec,
				 ws_test_result *res, bool note, ws_err *err)
{
	ws_daemon *d = ws_cli_local_daemon(err);
	if (!d)
		return -1;
	if (note)
		ws_cli_eprintf("no daemon answered on %s port %u; started one in this "
			       "process on 127.0.0.1 port %u\n",
			       cfg->host, cfg->port, ws_daemon_port(d));
	ws_client_config local = *cfg;
	local.psk = NULL; /* its daemon asks for none; no note that it did not */
	local.host = "127.0.0.1";
	local.host_family = 4;
	local.port = ws_daemon_port(d);
	int rc = ws_client_run_test(&local, spec, res, err);
	/* The banner names what the user typed. */
	snprintf(res->remote_host, sizeof(res->remote_host), "%s", cfg->host);
	ws_daemon_free(d);
	return rc;
}

/* One whole test for the iteration loop (session/iterate.h): -i/-I runs several. */
struct run_ctx {
	const ws_client_config *cfg;
	const ws_cli_options *o;
	ws_client *client; /* keeps a netserver's control connection between iterations */
	ws_test_spec run;  /* the spec run: o->spec, or its TCP_CRR form (cli/conntest.h) */
	bool local_noted;  /* the in-process daemon's notice is printed once */
};

static int run_one(void *arg, int iteration, ws_test_result *res, ws_err *err)
{
	(void)iteration;
	struct run_ctx *c = arg;
	int rc = ws_client_test(c->client, &c->run, res, err);
	/* The in-process daemon has no key (it serves only this process, on loopback). */
	if (rc == -ECONNREFUSED && !c->o->remote_host_given &&
	    c->o->ctl_port == WS_DEFAULT_CTL_PORT && c->o->peer != WS_PEER_NETSERVER) {
		ws_test_result_free(res);
		memset(res, 0, sizeof(*res)); /* the free leaves the latency pointer behind */
		rc = ws_cli_run_with_local_daemon(c->cfg, &c->run, res, !c->local_noted, err);
		c->local_noted = true;
	}
	if (rc == 0)
		ws_cli_conn_view(c->o, res);
	if (rc < 0) {
		ws_test_result_free(res);
		memset(res, 0, sizeof(*res));
	}
	return rc;
}

void ws_cli_client_config(const ws_cli_options *o, const ws_psk *key, ws_client_config *cfg)
{
	ws_client_config_init(cfg);
	cfg->host = o->remote_host;
	cfg->host_family = o->remote_family;
	cfg->local_host = o->local_host[0] ? o->local_host : NULL;
	cfg->local_family = o->local_family;
	cfg->port = o->ctl_port;
	cfg->local_port = o->local_ctl_port;
	cfg->start_wait_s = o->start_wait_s;
	cfg->peer = o->peer;
	cfg->psk = key;
	cfg->allow_unauthenticated = o->allow_unauthenticated;
	if (o->verbosity >= 2)
		cfg->note = print_note;
}

int ws_cli_client_run(ws_cli_options *o, const ws_psk *key, bool *local_noted, ws_test_result *res,
		      ws_cli_demo *demo, ws_err *err)
{
	ws_client_config cfg;
	ws_cli_client_config(o, key, &cfg);
	memset(res, 0, sizeof(*res));
	if (o->spec.type == WS_TEST_LOC_CPU) { /* no connection at all, as netperf's */
		res->spec = o->spec;
		res->local.cpu_rate = ws_cpu_rate();
		res->local.ncpus = ws_cpu_online_count();
		res->local.cpu_bound_to = res->remote.cpu_bound_to = -1;
		memset(demo, 0, sizeof(*demo));
		return 0;
	}
	if (ws_cli_demo_setup(o, demo, &cfg, err) < 0)
		return -1;
	ws_client client;
	ws_client_init(&client, &cfg);
	struct run_ctx run = {&cfg, o, &client, {0}, *local_noted};
	ws_cli_conn_spec(o, &run.run);
	/* netperf 2.7.0 runs its unmigrated tests once whatever -i says (the banner still
	 * shows the asked confidence, and no warning follows) */
	bool once = ws_test_type_probe(o->spec.type) || ws_test_type_dataless(o->spec.type);
	ws_confidence single = o->conf;
	single.asked = false;
	int rc = ws_iterate_run(once ? &single : &o->conf, run_one, &run, res, err);
	ws_cli_progress_clear(&demo->prog); /* before anything else is printed */
	if (once && o->conf.asked)
		o->conf.met = true;
	*local_noted = run.local_noted;
	ws_client_close(&client);
	if (rc < 0) {
		ws_test_result_free(res);
		ws_cli_demo_free(demo);
	}
	return rc;
}

int ws_cli_client_report(const ws_cli_options *o, const ws_out_selection *sel,
			 const ws_test_result *res, const ws_cli_demo *demo, bool headers, int argc,
			 char **argv)
{
	ws_err err;
	ws_err_clear(&err);
	ws_classic_opts co;
	ws_classic_opts_init(&co);
	co.print_headers = headers && o->print_headers != 0;
	co.verbosity = o->verbosity;
	co.fmt = o->format;
	co.local_cpu = o->spec.local.measure_cpu;
	co.remote_cpu = o->spec.remote.measure_cpu;
	co.brand = o->brand[0] ? o->brand : NULL;
	co.cpu_bind = o->cpu_bind_given;
	co.conf = o->conf.asked ? &o->conf : NULL;
	co.banner_done = o->banner_done;
	int status = 0;
	ws_json_interim *iv = NULL;
	size_t niv = o->json || o->svg || o->json_file ? ws_cli_demo_json(demo, &iv) : 0;
	if (o->json) {
		status = ws_cli_json_print(o, res, argc, argv, iv, niv);
	} else if (ws_cli_output_mode(o)) {
		ws_cli_options quiet = *o;
		quiet.print_headers = co.print_headers; /* the banner and headers once per sweep */
		status = ws_cli_output_print(&quiet, sel, res, argc, argv);
	} else if (ws_classic_render(res, &co, stdout, &err) < 0) {
		ws_cli_eprintf("%s\n", err.msg);
		status = 1;
	}
	if (status == 0 && o->verbosity >= 2 && !ws_cli_output_mode(o) && !o->json)
		ws_streams_render(res, co.fmt, stdout);
	if (status == 0 && o->json_file)
		status = ws_cli_json_file_write(o, res, argc, argv, iv, niv);
	if (status == 0 && o->svg)
		status = ws_cli_svg_write(o, res, argc, argv, iv, niv);
	free(iv);
	fflush(stdout);
	ws_cli_client_warn(o, res, status == 0);
	return status;
}

void ws_cli_client_warn(const ws_cli_options *o, const ws_test_result *res, bool reported)
{
	if (reported && getenv("DUMP_TCP_INFO")) /* netperf: set at all, whatever the value */
		ws_report_tcp_info_dump(res, stderr);
	ws_streams_warn(res, ws_cli_prog(), stderr);
	if (reported)
		ws_classic_warnings(res, ws_cli_prog(), stderr);
	if (reported && o->print_headers != 0 && !ws_test_type_probe(res->spec.type))
		print_cpu_bound(res);
}

/* --engine, before any connection: io_uring where this test or this host cannot run it is
 * refused (a test the engine does not run: a usage error, 2; a host without io_uring: 1);
 * auto's fall-back to epoll is a note at -v 1. Returns the exit status, or -1 to go on. */
static int engine_check(const ws_cli_options *o)
{
	ws_err err;
	ws_err_clear(&err);
	if (o->spec.sqpoll && o->spec.engine == WS_ENGINE_EPOLL) {
		ws_cli_eprintf("--sqpoll is an io_uring option; expected --engine io_uring or auto "
			       "with it, not epoll\n");
		return 2;
	}
	enum ws_engine e;
	char note[160];
	int rc = ws_engine_resolve(&o->spec, &e, note, sizeof(note), &err);
	if (rc < 0) {
		ws_cli_eprintf("%s\n", err.msg);
		return rc == -WS_E_INVAL ? 2 : 1;
	}
	if (note[0] && o->verbosity >= 1)
		ws_cli_eprintf("note: --%s\n", note);
	return -1;
}

int ws_cli_client_main(int argc, char **argv)
{
	ws_cli_options o;
	ws_err err;
	ws_err_clear(&err);
	if (ws_cli_parse(argc, argv, &o, &err) < 0) {
		/* one hint: some messages end with it already */
		if (strstr(err.msg, " -h' "))
			ws_cli_eprintf("%s\n", err.msg);
		else
			ws_cli_eprintf("%s\n(run '%s -h' for the options)\n", err.msg,
				       ws_cli_prog());
		return 2;
	}
	bool as_netperf = strcmp(ws_cli_prog(), "netperf") == 0;
	if (o.test_help) { /* netperf: the test's options on stdout, status 1 */
		ws_cli_print_test_usage(&o, stdout);
		return as_netperf ? 1 : 0;
	}
	if (o.help && as_netperf) { /* netperf's -h: on stderr, status 1, netperf's options only */
		fputs(ws_cli_netperf_usage(), stderr);
		return 1;
	}
	if (o.help) {
		fputs(ws_cli_usage(), stdout);
		return 0;
	}
	if (o.version && as_netperf) /* netperf's own line first, for scripts that read it */
		printf("Netperf version 2.7.0\nwarpspeed %s as netperf\n", ws_version());
	if (o.version && !as_netperf)
		print_version();
	if (o.version)
		return 0;
	if (o.spec.type == WS_TEST_RPM) /* many sessions, its own outputs (cli/rpm.h) */
		return ws_cli_rpm_main(&o, argc, argv);
	ws_out_selection sel;
	int early = 0;
	memset(&sel, 0, sizeof(sel));
	/* RRUL's -o/-k names are its own (report/lul_outputs.h), checked by ws_cli_lul_check */
	if (!ws_test_type_lul(o.spec.type) && !ws_cli_output_prepare(&o, &sel, &early))
		return early;
	/* netperf times each send call of a stream test when a latency output is asked for */
	o.spec.call_latency = sel.want_stats && !ws_test_type_transacts(o.spec.type);
	/* Known before any connection: what a netserver cannot do is a usage error. */
	if (o.peer == WS_PEER_NETSERVER && ws_npmap_check(&o.spec, &err) < 0) {
		ws_cli_eprintf("%s\n", err.msg);
		return 2;
	}
	if (ws_cli_out_files_check(&o, &err) < 0 ||
	    (!as_netperf && fill_file_check(&o, &err) < 0)) {
		ws_cli_eprintf("%s\n", err.msg);
		return 2;
	}
	int engine_status = engine_check(&o);
	if (engine_status >= 0)
		return engine_status;
	ws_cli_print_notes(&o, stderr);
	/* A terminal sees a progress line on stderr during a long run; -P 0 (rows for
	 * scripts) and --quiet do not. */
	o.progress = o.print_headers != 0 && ws_cli_progress_allowed(o.quiet);
	if (o.spec.fill_file[0] && o.spec.type == WS_TEST_TCP_MAERTS)
		ws_cli_eprintf(
			"note: -F fills what the client sends; in TCP_MAERTS the client only "
			"receives, so %s is checked but not used\n",
			o.spec.fill_file);
	if (o.remote_fill_file[0])
		ws_cli_eprintf(
			"note: the daemon's fill file (-F ,%s) is not used: a daemon that read "
			"files named by its clients would send any file it can read to whoever "
			"asks; "
			"it sends its own pattern\n",
			o.remote_fill_file);
	if (ws_test_type_lul(o.spec.type)) /* RRUL: its own run and report (cli/lul.h) */
		return ws_cli_lul_main(&o, argc, argv);
	if (o.repeat > 1 || (o.repeat && o.sweep))
		return ws_cli_repeat_main(&o, &sel, argc, argv);
	if (o.sweep)
		return ws_cli_sweep_main(&o, &sel, argc, argv);

	ws_psk *key = NULL;
	if (ws_cli_load_key(&o, &key, &err) < 0) {
		ws_cli_eprintf("%s\n", err.msg);
		return 1;
	}
	ws_test_result res;
	ws_cli_demo demo;
	bool noted = false;
	int rc = ws_cli_client_run(&o, key, &noted, &res, &demo, &err);
	ws_cli_key_free(key);
	if (rc < 0) {
		ws_cli_eprintf("%s\n", err.msg);
		return rc == -WS_E_PEER ? 2 : 1; /* an option the netserver found cannot honour */
	}
	int status = ws_cli_client_report(&o, &sel, &res, &demo, true, argc, argv);
	if (status == 0 && o.openmetrics)
		status = ws_cli_openmetrics_write(&o, &res, 1, argc, argv);
	ws_test_result_free(&res);
	ws_cli_demo_free(&demo); /* after the reports: demo.kept holds the samples */
	return status;
}
