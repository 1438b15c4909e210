/* SPDX-License-Identifier: BSD-2-Clause */
/* options: the netperf 2.7 command line turned into a ws_test_spec plus client settings.
 *
 * Existing netperf scripts must keep working with only the binary name changed, so the
 * parser accepts netperf's forms (attached or separate values, the "x,y" two-value syntax,
 * global options before `--` and test options after it) but checks every value, where
 * netperf silently reads garbage as 0. It never prints: errors come back in a ws_err that
 * names the option, the value and the accepted form, so it can be unit-tested; the caller
 * prints `warpspeed: <message>` and exits 2. */
#ifndef WS_CLI_OPTIONS_H
#define WS_CLI_OPTIONS_H

#include "cli/words.h"
#include "measure/confidence.h"
#include "model/spec.h"
#include "session/client.h"

#include <stdbool.h>
#include <stdint.h>

struct ws_err;

#define WS_CLI_PATH_MAX      4096
#define WS_CLI_BRAND_MAX     128
#define WS_CLI_DEFAULT_HOST  "localhost"
#define WS_CLI_DEFAULT_HOST6 "::1" /* netperf's default when IPv6 is asked for */
#define WS_CLI_UDP_MAX_MSG   65507 /* largest UDP payload over IPv4 */
#define WS_CLI_UDP_MIN_MSG   16    /* UDP_STREAM's sequence header (workload/udp_stream.h) */

typedef struct ws_cli_options {
	ws_test_spec spec;

	/* Control connection. */
	char remote_host[WS_HOST_MAX]; /* -H; "localhost" (or "::1" with IPv6) by default */
	char local_host[WS_HOST_MAX];  /* -L; "" = any local address */
	enum ws_family remote_family;  /* -H host,family / -4 / -6 */
	enum ws_family local_family;   /* -L host,family / -4 / -6 */
	uint16_t ctl_port;             /* -p port; 12865 by default */
	uint16_t local_ctl_port;       /* -p ,lport; 0 = ephemeral */
	enum ws_peer peer;             /* --peer warpspeed|netserver|auto; auto by default */

	/* Output. */
	int print_headers;            /* -P 0|1, default 1 */
	int verbosity;                /* -v 0|1|2, default 1 */
	char format;                  /* -f; 'm', or 'x' for RR tests when not given */
	char brand[WS_CLI_BRAND_MAX]; /* -B; "" when not given */

	/* Workload and measurement extras. */
	char fill_file[WS_CLI_PATH_MAX];        /* -F file; "" when not given */
	char remote_fill_file[WS_CLI_PATH_MAX]; /* -F ,rfile (netperf passes it to the daemon) */
	int ncpus;                              /* -n; 0 = count the online CPUs */
	double demo_interval_s;                 /* -D [+|-][secs[,units]]; 0 = no interim results */
	bool demo_precise;                      /* -D -secs: netperf's "precise timing" (warpspeed's
	                                  * timing is always precise: measure/interim.h) */
	uint64_t demo_units;                    /* -D ,units: netperf's guess of units per interval,
	                                  * which only tunes netperf's clock reads; unused */
	bool banner_done;                       /* not an option: the client printed the banner
	                                  * before the test (-D), the reports skip it */
	ws_confidence_args conf_args;           /* -i max[,min], -I level[,width], -r as given */
	ws_confidence conf;                     /* netperf's rules applied (asked false: one run) */

	/* The pre-shared key's source (pointers into argv; NULL when not given). The client
	 * also reads WARPSPEED_PSK_FILE when neither is given. */
	const char *psk_file;       /* --psk-file FILE */
	const char *psk_pass;       /* -Z passphrase (cleartext: visible in ps) */
	bool allow_unauthenticated; /* --allow-unauthenticated: a daemon that does not ask
	                                  * for the key is used anyway (with a note) */

	/* Output forms (cli/outopts.h, report/outputs.h). */
	int out_mode;                    /* ws_out_mode of -o/-O/-k; 0 = the classic table */
	const char *out_spec;            /* their list, "all", "?" or file (points into argv);
	                                  * NULL = the test's default list */
	bool omni;                       /* -t omni: the test comes from -d and -T */
	char omni_dir;                   /* -d: 's' send, 'r' recv, 'b' rr; 0 = not given */
	bool omni_udp, omni_proto_given; /* -T udp / -T given */
	char sock_type;                  /* test option -t: 's' stream, 'd' dgram; 0 = not given */
	/* -m and -M given as netperf's pairs (-m local,remote; -M remote,local): the sizes of
	 * the halves given (bit 0: the first, bit 1: the second), resolved by
	 * ws_cli_topt_finalize once the test is known (cli/testopts.h) */
	uint32_t m_pair[2], M_pair[2];
	unsigned m_pair_has, M_pair_has;
	uint16_t port_range[2];  /* test option -p min[,max] (0 = that half not given) */
	bool histogram;          /* -j: keep latency statistics for the selectors */
	const char *uuid;        /* test option -u: the UUID the outputs name (into
	                                  * argv); NULL = a fresh one per run */
	int json;                /* 1 --json, 2 --json-lines (report/json_result.h); 0 none */
	const char *json_file;   /* --json-file FILE: the --json document into FILE as well */
	const char *svg;         /* --svg FILE: the run's chart (cli/svgout.h); NULL none */
	int svg_chart;           /* --svg-chart KIND (enum ws_chart_kind); 0 = auto */
	const char *openmetrics; /* --openmetrics FILE: the results as metrics; NULL none */
	const char *flent;       /* --flent FILE: an RRUL run as a Flent data file; NULL none */

	/* Options harnesses pass (cli/harnessopts.h). */
	double start_wait_s;        /* -s secs: wait between setup and start; 0 = none */
	enum ws_family data_family; /* test options -H/-L host,family */
	char notes[1024];           /* options accepted without effect: one line each, for
	                                  * the CLI to print on stderr (ws_cli_print_notes) */

	bool quiet;    /* --quiet: no progress line (cli/progress.h) */
	bool progress; /* not an option: the CLI may draw the progress line (a terminal,
	                * neither --quiet nor -P 0); set by the client's main */

	/* -t RPM (session/rpm.h): --rpm-direction, --max-load-flows, --probe-rate */
	struct {
		int dir;            /* enum ws_rpm_dir, default both */
		uint32_t max_flows; /* per direction */
		double probe_rate;  /* probes/s */
	} rpm;

	bool help;              /* -h / --help: the caller prints ws_cli_usage() (cli/usage.h) */
	bool test_help;         /* -- -h: the test's options instead (cli/testhelp.h) */
	bool version;           /* -V / --version */
	bool cpu_bind_given;    /* -T was given: the banner adds " : cpu bind" */
	bool format_given;      /* -f was given */
	bool remote_host_given; /* -H named a host */

	/* Every option letter given, one bit per letter (see ws_cli_given); the named flags
	 * above are the ones the renderers need by name. */
	uint64_t global_given;
	uint64_t test_given;
	uint64_t long_given; /* by the long options' table row (ws_cli_long_given) */

	/* --sweep NAME=V1,...: its value (points into argv); NULL = one test (cli/sweep.h). */
	const char *sweep;
	/* --repeat N: the test N times, each result reported (cli/repeat.h); 0 = once. */
	unsigned repeat;
} ws_cli_options;

/* Fill *o with netperf's defaults: TCP_STREAM for 10 s to localhost:12865, headers on,
 * verbosity 1, format 'm', no CPU measurement, no pinning. */
void ws_cli_options_init(ws_cli_options *o);

/* Parse a netperf 2.7 command line; argv[0] is the program name and is skipped. *o is
 * initialised first, so it holds defaults for everything not given. Parsing stops with
 * success at -h/--help or -V/--version (o->help / o->version set; the rest of the line is
 * not checked). Returns 0, or a negative code with err naming the option, the value and
 * the accepted form; the caller then prints it and exits 2. *o is unspecified on error. */
int ws_cli_parse(int argc, char **argv, ws_cli_options *o, struct ws_err *err);

/* True when option `letter` was given: before `--` when test_option is false, after it
 * when true. Letters other than [0-9A-Za-z] are never given. */
bool ws_cli_given(const ws_cli_options *o, bool test_option, char letter);

/* The netperf option words (the global ones, or with test the ones after --) that the
 * parser accepts, for completion (cli/words.h); --name options: ws_cli_long_words. */
void ws_cli_option_words(bool test, ws_cli_word_fn fn, void *ctx);

#endif
