/* SPDX-License-Identifier: BSD-2-Clause */
/* longopts: warpspeed's own --name options; see longopts.h. */
#include "cli/longopts.h"

#include "cli/harnessopts.h"
#include "cli/lul.h"
#include "cli/optvalue.h"
#include "model/rpm.h"
#include "cli/personality.h"
#include "cli/repeat.h"
#include "model/engine.h"
#include "report/charts.h"
#include "util/err.h"
#include "util/units.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include <stdio.h>
#include <string.h>

int ws_cli_opt_help(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)val;
	(void)err;
	o->help = true;
	return 0;
}

int ws_cli_opt_version(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)val;
	(void)err;
	o->version = true;
	return 0;
}

/* The key file; read (and its mode checked) when the test starts, not here. */
static int opt_psk_file(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)err;
	o->psk_file = val;
	return 0;
}

/* --allow-unauthenticated: run against a daemon that does not prove the key. */
static int opt_allow_unauth(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)val;
	(void)err;
	o->allow_unauthenticated = true;
	return 0;
}

/* --peer: which protocol the control port speaks; auto tells from the first answer. */
static int lopt_peer(ws_cli_options *o, const char *val, ws_err *err)
{
	static const struct {
		const char *name;
		enum ws_peer peer;
	} peers[] = {{"auto", WS_PEER_AUTO},
		     {"warpspeed", WS_PEER_WARPSPEED},
		     {"netserver", WS_PEER_NETSERVER}};
	for (size_t i = 0; i < sizeof(peers) / sizeof(peers[0]); i++)
		if (strcmp(val, peers[i].name) == 0) {
			o->peer = peers[i].peer;
			return 0;
		}
	return ws_err_set(err, WS_E_INVAL,
			  "'%s' is not a peer; expected warpspeed, netserver or auto", val);
}

struct long_def {
	const char *name;
	opt_fn fn;
	const char *form; /* NULL for a switch; else the value's form, for messages */
};

/* warpspeed's own switches, each naming an I/O path; the side that plays the role applies
 * it (the sender for --zerocopy/--gso, the receiver for --skip-rx-copy/--splice/--gro). */
#define LONG_FLAG(fn_name, member)                                        \
	static int fn_name(ws_cli_options *o, const char *v, ws_err *err) \
	{                                                                 \
		(void)v;                                                  \
		(void)err;                                                \
		o->spec.member = true;                                    \
		return 0;                                                 \
	}
LONG_FLAG(lopt_zerocopy, zerocopy)
LONG_FLAG(lopt_skip_rx_copy, skip_rx_copy)
LONG_FLAG(lopt_splice, splice)
LONG_FLAG(lopt_gso, gso)
LONG_FLAG(lopt_gro, gro)
LONG_FLAG(lopt_no_mmsg, no_batch)
LONG_FLAG(lopt_route, udp_route)
LONG_FLAG(lopt_mptcp, mptcp)

/* --busy-poll[=USECS]: spin on the receives of an RR test, and SO_BUSY_POLL of USECS
 * (default WS_BUSY_POLL_DEFAULT_US; 0 = the spin alone). */
static int lopt_busy_poll(ws_cli_options *o, const char *val, ws_err *err)
{
	long long v = WS_BUSY_POLL_DEFAULT_US;
	int rc = val ? ws_cli_parse_ranged(val, 0, WS_BUSY_POLL_MAX_US,
					   "a busy-poll time in microseconds", &v, err)
		     : 0;
	if (rc == 0) {
		o->spec.busy_poll = true;
		o->spec.busy_poll_us = (uint32_t)v;
	}
	return rc;
}

LONG_FLAG(lopt_sqpoll, sqpoll)

/* --engine auto|epoll|io_uring (model/engine.h); whether it can run is checked before the
 * test (cli/client.c). */
static int lopt_engine(ws_cli_options *o, const char *val, ws_err *err)
{
	return ws_engine_parse(val, &o->spec.engine, err);
}

/* --json / --json-lines: the result as JSON on stdout (report/json_result.h). */
static int lopt_json(ws_cli_options *o, const char *v, ws_err *err)
{
	(void)v;
	(void)err;
	o->json = 1;
	return 0;
}

static int lopt_json_lines(ws_cli_options *o, const char *v, ws_err *err)
{
	(void)v;
	(void)err;
	o->json = 2;
	return 0;
}

/* --json-file FILE: the JSON document into FILE, whatever stdout shows. */
static int lopt_json_file(ws_cli_options *o, const char *v, ws_err *err)
{
	(void)err;
	o->json_file = v;
	return 0;
}

/* --quiet: no progress line on the terminal (cli/progress.h). */
static int lopt_quiet(ws_cli_options *o, const char *v, ws_err *err)
{
	(void)v;
	(void)err;
	o->quiet = true;
	return 0;
}

/* --openmetrics FILE: the result as node_exporter textfile metrics (cli/outprint.h). */
static int lopt_openmetrics(ws_cli_options *o, const char *v, ws_err *err)
{
	(void)err;
	o->openmetrics = v;
	return 0;
}

/* --svg FILE / --svg-chart KIND: the run drawn as a chart (cli/svgout.h). */
static int lopt_svg(ws_cli_options *o, const char *v, ws_err *err)
{
	(void)err;
	o->svg = v;
	return 0;
}

static int lopt_svg_chart(ws_cli_options *o, const char *v, ws_err *err)
{
	enum ws_chart_kind k;
	int rc = ws_chart_kind_parse(v, &k, err);
	if (rc == 0 && k > WS_CHART_STREAMS)
		rc = ws_err_set(err, WS_E_INVAL,
				"'%s' is not a chart of one run; expected auto, spectrum, "
				"histogram, interim or streams (sweep, iq and mesh have their own "
				"commands)",
				v);
	if (rc == 0)
		o->svg_chart = (int)k;
	return rc;
}

static int lopt_rcvlowat(ws_cli_options *o, const char *val, ws_err *err)
{
	return ws_cli_parse_size32(val, 1, &o->spec.rcvlowat, err);
}

static int lopt_streams(ws_cli_options *o, const char *val, ws_err *err)
{
	long long v;
	int rc = ws_cli_parse_ranged(val, 1, WS_MAX_STREAMS, "a number of streams", &v, err);
	if (rc == 0)
		o->spec.streams = (uint32_t)v;
	return rc;
}

static int lopt_threads(ws_cli_options *o, const char *val, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX]; /* split2's buffer size */
	int ha, hb, rc = ws_cli_split2(val, true, a, b, &ha, &hb, err);
	long long v;
	if (rc == 0 && ha &&
	    (rc = ws_cli_parse_ranged(a, 1, WS_MAX_STREAMS, "a number of threads", &v, err)) == 0)
		o->spec.local_threads = (uint32_t)v;
	if (rc == 0 && hb &&
	    (rc = ws_cli_parse_ranged(b, 1, WS_MAX_STREAMS, "a number of threads", &v, err)) == 0)
		o->spec.remote_threads = (uint32_t)v;
	return rc;
}

static int cpu_list(char *dst, size_t dsz, const char *val, ws_err *err)
{
	int cpus[WS_MAX_CPU_LIST];
	int rc = ws_cpu_list_parse(val, cpus, WS_MAX_CPU_LIST, err);
	if (rc < 0)
		return rc;
	if (rc == 0 || strlen(val) >= dsz)
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is not a CPU list; expected CPU numbers like 0,1", val);
	memcpy(dst, val, strlen(val) + 1);
	return 0;
}

static int lopt_cpus(ws_cli_options *o, const char *val, ws_err *err)
{
	return cpu_list(o->spec.local_cpus, sizeof(o->spec.local_cpus), val, err);
}

static int lopt_remote_cpus(ws_cli_options *o, const char *val, ws_err *err)
{
	return cpu_list(o->spec.remote_cpus, sizeof(o->spec.remote_cpus), val, err);
}

/* --rate R: transactions/s per flow (optvalue.h). */
static int lopt_rate(ws_cli_options *o, const char *val, ws_err *err)
{
	return ws_cli_parse_rate(val, &o->spec.rate, err);
}

/* --sweep NAME=V1,...: kept as given (a pointer into argv, by which the sweep also finds
 * its words to drop from each point's command line); checked in the final checks. */
static int lopt_sweep(ws_cli_options *o, const char *val, ws_err *err)
{
	if (o->sweep)
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is a second sweep; expected one --sweep per run", val);
	o->sweep = val;
	return 0;
}

/* --rpm-direction up|down|both: which way -t RPM's load flows go. */
static int lopt_rpm_dir(ws_cli_options *o, const char *val, ws_err *err)
{
	for (int d = WS_RPM_UP; d <= WS_RPM_BOTH; d++)
		if (strcmp(val, ws_rpm_dir_name(d)) == 0) {
			o->rpm.dir = d;
			return 0;
		}
	return ws_err_set(err, WS_E_INVAL, "'%s' is not a direction; expected up, down or both",
			  val);
}

/* --max-load-flows N: -t RPM's most load flows per direction. */
static int lopt_rpm_flows(ws_cli_options *o, const char *val, ws_err *err)
{
	char *end;
	errno = 0;
	unsigned long n = strtoul(val, &end, 10);
	if (errno || *end || end == val || val[0] == '-' || n < 1 || n > WS_RPM_MAX_FLOWS)
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is not a flow count; expected a whole number from 1 to %d "
				  "(per direction)",
				  val, WS_RPM_MAX_FLOWS);
	o->rpm.max_flows = (uint32_t)n;
	return 0;
}

/* --probe-rate R: -t RPM's probes per second. */
static int lopt_probe_rate(ws_cli_options *o, const char *val, ws_err *err)
{
	char *end;
	errno = 0;
	double r = strtod(val, &end);
	if (errno || *end || end == val || !(r >= 1 && r <= WS_RPM_MAX_PROBE_RATE))
		return ws_err_set(
			err, WS_E_INVAL,
			"'%s' is not a probe rate; expected probes per second from 1 to %g", val,
			WS_RPM_MAX_PROBE_RATE);
	o->rpm.probe_rate = r;
	return 0;
}

/* clang-format off */
static const struct long_def long_opts[] = {
	{"help", ws_cli_opt_help, NULL},
	{"version", ws_cli_opt_version, NULL},
	{"psk-file", opt_psk_file, "FILE"},
	{"allow-unauthenticated", opt_allow_unauth, NULL},
	{"zerocopy", lopt_zerocopy, NULL},
	{"skip-rx-copy", lopt_skip_rx_copy, NULL},
	{"splice", lopt_splice, NULL},
	{"rcvlowat", lopt_rcvlowat, "bytes"},
	{"gso", lopt_gso, NULL},
	{"gro", lopt_gro, NULL},
	{"no-mmsg", lopt_no_mmsg, NULL},
	{"route", lopt_route, NULL},
	{"streams", lopt_streams, "N"},
	{"threads", lopt_threads, "T[,remoteT]"},
	{"cpus", lopt_cpus, "cpu[,cpu...]"},
	{"remote-cpus", lopt_remote_cpus, "cpu[,cpu...]"},
	{"rate", lopt_rate, "R"},
	{"json", lopt_json, NULL},
	{"json-lines", lopt_json_lines, NULL},
	{"json-file", lopt_json_file, "FILE"},
	{"quiet", lopt_quiet, NULL},
	{"svg", lopt_svg, "FILE"},
	{"openmetrics", lopt_openmetrics, "FILE"},
	{"svg-chart", lopt_svg_chart, "auto|spectrum|histogram|interim|streams"},
	{"pace", ws_cli_lopt_pace, "RATE"},
	{"flow-control", ws_cli_lopt_flow_control, NULL},
	{"peer", lopt_peer, "warpspeed|netserver|auto"},
	{"sweep", lopt_sweep, "NAME=V1,V2,..."},
	{"repeat", ws_cli_lopt_repeat, "N"},
	{"up", ws_cli_lopt_up, "N"},
	{"down", ws_cli_lopt_down, "N"},
	{"probes", ws_cli_lopt_probes, "udp,tcp,icmp"},
	{"probe-interval", ws_cli_lopt_probe_interval, "SECONDS"},
	{"delay", ws_cli_lopt_delay, "SECONDS"},
	{"flent", ws_cli_lopt_flent, "FILE"},
	{"mptcp", lopt_mptcp, NULL},
	{"busy-poll", lopt_busy_poll, "[=USECS]"},
	{"engine", lopt_engine, "auto|epoll|io_uring"},
	{"sqpoll", lopt_sqpoll, NULL},
	{"rpm-direction", lopt_rpm_dir, "up|down|both"},
	{"max-load-flows", lopt_rpm_flows, "N"},
	{"probe-rate", lopt_probe_rate, "R"},
	{NULL, NULL, NULL},
};
/* clang-format on */
/* ws_cli_options.long_given has a bit per row. */
_Static_assert(sizeof(long_opts) / sizeof(long_opts[0]) <= 64, "long_given has 64 bits");

void ws_cli_long_words(ws_cli_word_fn fn, void *ctx)
{
	for (const struct long_def *l = long_opts; l->name; l++) {
		char w[40];
		snprintf(w, sizeof w, "--%s", l->name);
		fn(ctx, w, l->form);
	}
}

bool ws_cli_long_given(const ws_cli_options *o, const char *name)
{
	for (const struct long_def *l = long_opts; l->name; l++)
		if (strcmp(l->name, name) == 0)
			return (o->long_given >> (l - long_opts)) & 1;
	return false;
}

/* --name, --name VALUE or --name=VALUE; *i is advanced past what was used. */
int ws_cli_parse_long(ws_cli_options *o, int argc, char **argv, int *i, ws_err *err)
{
	const char *word = argv[*i], *eq = strchr(word, '=');
	size_t nlen = eq ? (size_t)(eq - word - 2) : strlen(word + 2);
	for (const struct long_def *l = long_opts; l->name; l++) {
		if (strlen(l->name) != nlen || strncmp(word + 2, l->name, nlen) != 0)
			continue;
		(*i)++;
		o->long_given |= 1ULL << (l - long_opts);
		if (!l->form) {
			if (eq)
				break; /* a switch takes no value */
			return l->fn(o, NULL, err);
		}
		const char *val = eq ? eq + 1 : NULL;
		if (l->form[0] == '[' && !eq) /* an optional value comes only after '=' */
			return l->fn(o, NULL, err);
		if (!val && *i < argc && argv[*i][0] != '-')
			val = argv[(*i)++];
		if (!val || !*val)
			return ws_err_set(err, WS_E_INVAL,
					  "option --%s needs a value; expected --%s%s%s", l->name,
					  l->name, l->form[0] == '[' ? "" : " ", l->form);
		int rc = l->fn(o, val, err);
		if (rc < 0)
			ws_err_prefix(err, "option --%s", l->name);
		return rc;
	}
	return ws_err_set(err, WS_E_INVAL,
			  "unknown option '%s'; run '%s -h' for the accepted options", word,
			  ws_cli_prog());
}
