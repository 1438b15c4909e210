/* SPDX-License-Identifier: BSD-2-Clause */
/* serve: `warpspeed serve`, the daemon's top level (netserver's place).
 *
 * Parses the daemon options, installs SIGINT/SIGTERM handlers that ask the daemon to
 * stop, and writes one log line per session to stderr; with --metrics, serves the
 * daemon's counters (session/dmetrics.h) on a net/metricsd.h endpoint. The daemon handle
 * is a global, as the signal handler needs it, and so are the counters (see g_metrics). */
#include "cli/serve.h"

#include "cli/personality.h"
#include "cli/words.h"

#include "net/metricsd.h"
#include "session/daemon.h"
#include "session/dmetrics.h"
#include "util/psk.h"
#include "util/err.h"
#include "util/units.h"

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static ws_daemon *g_daemon;
/* --metrics' counters, never freed: a session thread may outlive the daemon's free. */
static ws_dmetrics *g_metrics;

static void on_signal(int sig)
{
	(void)sig;
	if (g_daemon)
		ws_daemon_stop(g_daemon);
}

/* An error on stderr under the name the daemon was called by (netserver, or warpspeed serve). */
static void serve_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void serve_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", ws_cli_serve_prog());
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static void log_line(void *ctx, const char *line)
{
	(void)ctx;
	char ts[32];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%d %H:%M:%S", &tm);
	/* under the netserver personality its own name, as every message it prints */
	bool as_netserver = strcmp(ws_cli_prog(), "netserver") == 0;
	fprintf(stderr, "%s %s: %s\n", ts, as_netserver ? "netserver" : "warpspeed serve", line);
}

static const char usage[] =
	"usage: warpspeed serve [options]\n"
	"  Runs the benchmark daemon in the foreground (netserver's place).\n"
	"  -p PORT              control port (default 12865; 0 = any free port, logged)\n"
	"  -L ADDR              listen only on ADDR (default: all IPv4 and IPv6 addresses)\n"
	"  -4 / -6              IPv4 only / IPv6 only\n"
	"  --max-sessions N     concurrent sessions admitted (default 64)\n"
	"  --max-sessions-per-addr N  the same from one client address (default 16)\n"
	"  --max-streams N      flows one test may open (default 4096)\n"
	"  --max-threads N      worker threads one test may start here (default 64)\n"
	"  --max-duration SECS  longest test accepted; every test ends SECS + 0.5 after START,\n"
	"                       whatever its length (default 3600)\n"
	"  --max-memory SIZE    buffer memory all running tests may hold together, e.g. 512M,\n"
	"                       2G (default 512M); a test that would pass it is refused\n"
	"  --allow-privileged-ports  let clients name remote data ports below 1024 (-P ,PORT)\n"
	"  --hello-timeout SECS a new connection must finish HELLO (and authentication) in\n"
	"                       this time or is closed (default 2)\n"
	"  --idle-timeout SECS  end a session this long after its last test (or its start);\n"
	"                       only a test renews it, and a session's time outside tests\n"
	"                       is at most 4 times this in all (default 60)\n"
	"  --max-pending N      connections still in HELLO, in total (default 512; at most\n"
	"                       half of ulimit -n); past it the oldest one is closed\n"
	"  --max-pending-per-source N  the same per source address (default 8)\n"
	"  --psk-file FILE      require clients to prove this pre-shared key (the file must\n"
	"                       not be readable by group or others: chmod 600)\n"
	"  -Z PASSPHRASE        the key as a passphrase: a cleartext secret, visible in the\n"
	"                       process list (prefer --psk-file). A stock netperf client must\n"
	"                       send it with its own -Z (in clear text, as netserver wants it);\n"
	"                       with --psk-file, netperf clients are refused\n"
	"  --metrics [ADDR:]PORT  serve GET /metrics (Prometheus text, OpenMetrics) on\n"
	"                       127.0.0.1, or on ADDR ([IPV6]:PORT); see docs/metrics.md\n"
	"  -D, -f               accepted for netserver compatibility (always foreground)\n"
	"  -h, --help           this text\n"
	"Stop it with SIGINT or SIGTERM. Exit status: 0 stopped cleanly, 1 failure, 2 bad usage.\n";

static int need_value(int argc, char **argv, int i)
{
	if (i + 1 < argc)
		return 0;
	serve_err("option %s needs a value\n%s", argv[i], usage);
	return -1;
}

/* The whole-number limits, one row each. */
static const struct {
	const char *name;
	long long min, max;
	size_t off;
	/* clang-format off */
} counts[] = {
	{"--max-sessions", 1, 100000, offsetof(ws_daemon_config, max_sessions)},
	{"--max-sessions-per-addr", 1, 100000, offsetof(ws_daemon_config, max_sessions_per_addr)},
	{"--max-streams", 1, 10000, offsetof(ws_daemon_config, max_streams)},
	{"--max-threads", 1, 10000, offsetof(ws_daemon_config, max_threads)},
	{"--max-pending", 1, 1000000, offsetof(ws_daemon_config, max_pending)},
	{"--max-pending-per-source", 1, 1000000, offsetof(ws_daemon_config, max_pending_per_source)},
};
/* clang-format on */

/* Every option word of the daemon: the parser refuses any other, completion offers these. */
/* clang-format off */
static const ws_cli_word serve_words[] = {
	{"-p", "PORT"}, {"--port", "PORT"}, {"-L", "ADDR"}, {"--bind", "ADDR"},
	{"-4", NULL}, {"-6", NULL},
	{"--max-sessions", "N"}, {"--max-sessions-per-addr", "N"}, {"--max-streams", "N"},
	{"--max-threads", "N"}, {"--max-duration", "SECS"}, {"--max-memory", "SIZE"},
	{"--allow-privileged-ports", NULL}, {"--hello-timeout", "SECS"},
	{"--idle-timeout", "SECS"}, {"--max-pending", "N"}, {"--max-pending-per-source", "N"},
	{"--psk-file", "FILE"}, {"--metrics", "[ADDR:]PORT"}, {"-Z", "PASSPHRASE"}, {"-D", NULL}, {"-f", NULL},
	{"-h", NULL}, {"--help", NULL}, {NULL, NULL},
};
/* clang-format on */

void ws_cli_serve_words(ws_cli_word_fn fn, void *ctx) { ws_cli_words_each(serve_words, fn, ctx); }

/* The key's two sources; parse only records them, as loading one can fail at run time.
 * The --metrics address, resolved while parsing. */
struct key_opts {
	const char *file;
	char *pass;
	const char *metrics;
	ws_addr metrics_addr;
};

static int parse(int argc, char **argv, ws_daemon_config *c, struct key_opts *k)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		long long v;
		double dv;
		ws_err err;
		const ws_cli_word *w = ws_cli_word_find(serve_words, a);
		if (!w) {
			serve_err("unknown option '%s'\n%s", a, usage);
			return -1;
		}
		if (w->form && need_value(argc, argv, i) < 0)
			return -1;
		size_t ci = 0;
		while (ci < sizeof(counts) / sizeof(counts[0]) && strcmp(a, counts[ci].name) != 0)
			ci++;
		if (ci < sizeof(counts) / sizeof(counts[0])) {
			if (ws_units_parse_int(argv[++i], counts[ci].min, counts[ci].max, &v,
					       &err) < 0)
				goto bad;
			*(unsigned *)((char *)c + counts[ci].off) = (unsigned)v;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return 1;
		} else if (!strcmp(a, "-4")) {
			c->family = 4;
		} else if (!strcmp(a, "-6")) {
			c->family = 6;
		} else if (!strcmp(a, "-D") || !strcmp(a, "-f")) {
			/* netserver: do not daemonize / do not fork; we never do either */
		} else if (!strcmp(a, "-p") || !strcmp(a, "--port")) {
			if (ws_units_parse_int(argv[++i], 0, 65535, &v, &err) < 0)
				goto bad;
			c->port = (uint16_t)v;
		} else if (!strcmp(a, "-L") || !strcmp(a, "--bind")) {
			c->bind_host = argv[++i];
		} else if (!strcmp(a, "--psk-file") || !strcmp(a, "-Z")) {
			if (k->file || k->pass) {
				serve_err("option %s: a key was already given; expected one of "
					  "--psk-file FILE or -Z PASSPHRASE\n",
					  a);
				return -1;
			}
			if (a[1] == 'Z')
				k->pass = argv[++i];
			else
				k->file = argv[++i];
		} else if (!strcmp(a, "--max-duration")) {
			if (ws_units_parse_double(argv[++i], 0.001, 1e7, &dv, &err) < 0)
				goto bad;
			c->max_duration_s = dv;
		} else if (!strcmp(a, "--max-memory")) {
			uint64_t sz;
			if (ws_units_parse_size(argv[++i], &sz, &err) < 0)
				goto bad;
			if (sz == 0) {
				ws_err_set(&err, WS_E_INVAL,
					   "0 bytes would refuse every test; expected a size like "
					   "512M");
				goto bad;
			}
			c->max_memory = sz;
		} else if (!strcmp(a, "--metrics")) {
			if (need_value(argc, argv, i) < 0)
				return -1;
			k->metrics = argv[++i];
			if (ws_metricsd_parse_addr(k->metrics, &k->metrics_addr, &err) < 0)
				goto bad;
		} else if (!strcmp(a, "--allow-privileged-ports")) {
			c->allow_privileged_ports = true;
		} else if (!strcmp(a, "--hello-timeout") || !strcmp(a, "--idle-timeout")) {
			if (ws_units_parse_double(argv[++i], 0.001, 86400, &dv, &err) < 0)
				goto bad;
			int64_t ns = (int64_t)(dv * 1e9);
			if (a[2] == 'h')
				c->hello_timeout_ns = ns;
			else
				c->idle_timeout_ns = ns;
		} else {
			serve_err("unknown option '%s'\n%s", a, usage);
			return -1;
		}
		continue;
	bad:
		serve_err("option %s: %s\n", a, err.msg);
		return -1;
	}
	return 0;
}

/* The key, if one was given; -Z's argument is overwritten once read, which shortens
 * (but does not end) the time it is visible to ps. */
static int load_key(struct key_opts *k, ws_psk *psk, ws_err *err)
{
	if (k->file)
		return ws_psk_load_file(k->file, psk, err);
	int rc = ws_psk_from_passphrase(k->pass, psk, err);
	memset(k->pass, 'x', strlen(k->pass));
	return rc;
}

int ws_cli_serve_main(int argc, char **argv)
{
	return ws_cli_serve_main_ready(argc, argv, NULL, NULL);
}

int ws_cli_serve_main_ready(int argc, char **argv, int (*ready)(void *ctx), void *ctx)
{
	ws_daemon_config c;
	ws_daemon_config_init(&c);
	c.log = log_line;
	struct key_opts k = {0};
	int rc = parse(argc, argv, &c, &k);
	if (rc != 0)
		return rc > 0 ? 0 : 2;
	ws_err err;
	ws_err_clear(&err);
	ws_psk *psk = NULL;
	if ((k.file || k.pass) && !(psk = malloc(sizeof(*psk)))) {
		serve_err("no memory for the key\n");
		return 1;
	}
	/* netperf's -Z travels as text: keep it before load_key overwrites the argument */
	char *np_pass = k.pass ? strdup(k.pass) : NULL;
	if (k.pass && !np_pass) {
		serve_err("no memory for the passphrase\n");
		free(psk);
		return 1;
	}
	if (psk && load_key(&k, psk, &err) < 0) {
		if (np_pass) {
			memset(np_pass, 0, strlen(np_pass));
			free(np_pass);
		}
		serve_err("%s\n", err.msg);
		free(psk);
		return 1;
	}
	c.psk = psk;
	c.np_passphrase = np_pass;
	if (k.metrics && !g_metrics)
		g_metrics = ws_dmetrics_new();
	c.metrics = k.metrics ? g_metrics : NULL;
	if (k.metrics && !c.metrics) {
		serve_err("no memory for the metrics\n");
		return 1;
	}
	g_daemon = ws_daemon_new(&c, &err);
	if (np_pass) { /* the daemon keeps its own copy */
		memset(np_pass, 0, strlen(np_pass));
		free(np_pass);
	}
	if (psk) { /* the daemon keeps its own copy */
		ws_psk_wipe(psk);
		free(psk);
	}
	ws_metricsd *md = NULL;
	if (g_daemon && k.metrics) {
		ws_metricsd_config mc = {
			.addr = k.metrics_addr, .render = ws_dmetrics_render, .ctx = c.metrics};
		if (!(md = ws_metricsd_start(&mc, &err))) {
			ws_daemon_free(g_daemon);
			g_daemon = NULL;
		}
	}
	if (!g_daemon) {
		serve_err("%s\n", err.msg);
		return 1;
	}
	if (ready && ready(ctx) < 0) {
		ws_metricsd_stop(md);
		ws_daemon_free(g_daemon);
		return 1;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	char line[480], mem[32];
	ws_units_format_iec(c.max_memory, mem, sizeof(mem));
	snprintf(line, sizeof(line),
		 "listening on %s port %u (max %u sessions, %u per client address, tests up to %g "
		 "s, %s of buffers%s, %u connections "
		 "pending, %u per source, %.3g s to finish HELLO, %s)",
		 c.bind_host             ? c.bind_host
			 : c.family == 4 ? "0.0.0.0"
			 : c.family == 6 ? "::"
					 : "all addresses",
		 ws_daemon_port(g_daemon), c.max_sessions, c.max_sessions_per_addr,
		 c.max_duration_s, mem,
		 c.allow_privileged_ports ? ", privileged data ports allowed" : "", c.max_pending,
		 c.max_pending_per_source, (double)c.hello_timeout_ns / 1e9,
		 k.file           ? "clients must prove the key from --psk-file"
			 : k.pass ? "clients must prove the -Z passphrase"
				  : "no authentication");
	log_line(NULL, line);
	if (md) {
		char where[96];
		ws_metricsd_describe(md, where, sizeof(where));
		snprintf(line, sizeof(line), "metrics on http://%s/metrics", where);
		log_line(NULL, line);
	}
	ws_daemon_run(g_daemon);
	log_line(NULL, "stopped");
	ws_daemon *d = g_daemon;
	g_daemon = NULL;
	ws_metricsd_stop(md);
	ws_daemon_free(d);
	/* g_metrics stays: a session thread that outlives ws_daemon_free may still count */
	return 0;
}
