/* SPDX-License-Identifier: BSD-2-Clause */
/* node: `warpspeed node`, the command line around the iq/node emulator engine.
 *
 * The engine runs in its own thread so that this one can wait for signals with sigwait
 * instead of handlers: every signal is blocked before the thread starts, and the main
 * thread turns SIGINT/SIGTERM into ws_node_stop, SIGUSR1 (or the --stats interval) into a
 * counters line on stdout. Logs and the start banner go to stderr. With --metrics, a
 * net/metricsd.h endpoint serves the same counters (cli/nodemetrics.h) from its own thread. */
#include "cli/node.h"
#include "cli/nodemetrics.h"

#include "iq/node/node.h"
#include "iq/node/node_allow.h"
#include "iq/node/node_rate.h"
#include "iq/wire/wire.h"
#include "net/metricsd.h"
#include "util/err.h"
#include "util/units.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct node_opts {
	ws_node_config cfg;
	double stats_s; /* 0 = only on SIGUSR1 */
	int quiet;
	const char *metrics; /* --metrics as given, resolved into metrics_addr */
	ws_addr metrics_addr;
} node_opts;

typedef struct node_thread {
	ws_node *node;
	ws_err err;
	int rc;
	pthread_t main_tid;
} node_thread;

static const char usage[] =
	"usage: warpspeed node [options]\n"
	"  A WARP v3 board running WARPLab 7.7.1 (see docs/node.md).\n"
	"  --id N              node ID, 0..65534 (default 0)\n"
	"  --serial N          serial number, printed W3-a-%05d, 0..99999 (default 6)\n"
	"  --bind ADDR         IPv4 address of the sockets, 0.0.0.0 for all (default\n"
	"                      127.0.0.1)\n"
	"  --allow CIDR[,CIDR...]|any  sources answered (default: the networks of the\n"
	"                      interfaces holding the bound address)\n"
	"  --reply-rate RATE|off  reply cap per source in bit/s, k/m/g suffixes (default\n"
	"                      1g, the board's Ethernet)\n"
	"  --reply-burst SIZE  bytes a source may get at once beyond the rate (default 1M)\n"
	"  --reply-total RATE|off  reply cap on all sources together in bit/s (default:\n"
	"                      the --reply-rate)\n"
	"  --port P            unicast UDP port, 0 = ephemeral (default 9000)\n"
	"  --bcast-port P|off  broadcast UDP port (default 10000)\n"
	"  --rf 2|4            RF interfaces (default 2)\n"
	"  --max-payload N     bytes after the pad per datagram, 48..65505 (default 8964;\n"
	"                      1468 for a 1500 MTU)\n"
	"  --tx-samples N      samples per TX buffer, K/M suffixes (default 112M)\n"
	"  --rx-samples N      samples per RX buffer (default 128M)\n"
	"  --channel loopback|none  what a trigger does to the RX buffers (default loopback)\n"
	"  --pace-us N         gap between Read IQ packets (default 0)\n"
	"  --rx-slots N        board fidelity: receive slots, e.g. 5 (default unlimited)\n"
	"  --per-packet-us N   board fidelity: store time per Write IQ packet, e.g. 95\n"
	"  --not-ready         answer NOT_READY during a trigger's air time\n"
	"  --not-ready-us N    ... or for N us after a trigger (implies --not-ready)\n"
	"  --stats S           print counters every S seconds (also on SIGUSR1)\n"
	"  --sock-buf SIZE     socket buffer request (default 64M)\n"
	"  --max-memory SIZE   sample memory mapped at most, K/M/G suffixes (default: what\n"
	"                      the RF buffers can ever need, 1.9G for 2 RF at the defaults)\n"
	"  --no-gso            Read IQ without UDP GSO (one packet per message)\n"
	"  --metrics [ADDR:]PORT  serve the counters on GET /metrics (Prometheus text,\n"
	"                      OpenMetrics) on 127.0.0.1, or on ADDR; see docs/metrics.md\n"
	"  --quiet             no informational log lines\n";

static void log_cb(void *ctx, int level, const char *msg)
{
	const node_opts *o = ctx;
	if (level < WS_NODE_LOG_INFO || (o->quiet && level < WS_NODE_LOG_WARN))
		return;
	fprintf(stderr, "warpspeed node: %s\n", msg);
}

static int bad(const char *opt, const char *val, const char *accepted)
{
	fprintf(stderr, "warpspeed node: %s '%s' is not valid (%s)\n", opt, val, accepted);
	return 2;
}

static int parse_num(const char *opt, const char *s, long long lo, long long hi, long long *v)
{
	ws_err e;
	if (ws_units_parse_int(s, lo, hi, v, &e) < 0) {
		fprintf(stderr, "warpspeed node: %s: %s\n", opt, e.msg);
		return 2;
	}
	return 0;
}

static int parse_samples(const char *opt, const char *s, uint32_t *out)
{
	uint64_t v;
	ws_err e;
	if (ws_units_parse_size(s, &v, &e) < 0) {
		fprintf(stderr, "warpspeed node: %s: %s\n", opt, e.msg);
		return 2;
	}
	if (v < 1 || v > WS_NODE_MAX_SAMPLES)
		return bad(opt, s, "1..1G samples, e.g. 32768 or 32M");
	*out = (uint32_t)v;
	return 0;
}

/* --reply-rate: "off", or bits/s with the size suffixes (k m g decimal, K M G binary). */
static int parse_rate(const char *opt, const char *s, uint64_t *out)
{
	uint64_t v;
	ws_err e;
	if (strcmp(s, "off") == 0) {
		*out = 0;
		return 0;
	}
	if (ws_units_parse_size(s, &v, &e) < 0 || v < WS_NODE_RATE_MIN_BPS ||
	    v > WS_NODE_RATE_MAX_BPS)
		return bad(opt, s, "bit/s from 1k to 1000g, e.g. 1g or 100m, or off");
	*out = v;
	return 0;
}

enum {
	O_ID = 256,
	O_SERIAL,
	O_BIND,
	O_ALLOW,
	O_RATE,
	O_BURST,
	O_TOTAL,
	O_PORT,
	O_BCAST,
	O_RF,
	O_PAYLOAD,
	O_TXS,
	O_RXS,
	O_CHANNEL,
	O_PACE,
	O_SLOTS,
	O_PERPKT,
	O_NOTREADY,
	O_NOTREADY_US,
	O_STATS,
	O_SOCKBUF,
	O_MAXMEM,
	O_QUIET,
	O_NOGSO,
	O_METRICS
};

/* clang-format off */
static const struct option longopts[] = {
	{"id", required_argument, NULL, O_ID},
	{"serial", required_argument, NULL, O_SERIAL},
	{"bind", required_argument, NULL, O_BIND},
	{"allow", required_argument, NULL, O_ALLOW},
	{"reply-rate", required_argument, NULL, O_RATE},
	{"reply-burst", required_argument, NULL, O_BURST},
	{"reply-total", required_argument, NULL, O_TOTAL},
	{"port", required_argument, NULL, O_PORT},
	{"bcast-port", required_argument, NULL, O_BCAST},
	{"rf", required_argument, NULL, O_RF},
	{"max-payload", required_argument, NULL, O_PAYLOAD},
	{"tx-samples", required_argument, NULL, O_TXS},
	{"rx-samples", required_argument, NULL, O_RXS},
	{"channel", required_argument, NULL, O_CHANNEL},
	{"pace-us", required_argument, NULL, O_PACE},
	{"rx-slots", required_argument, NULL, O_SLOTS},
	{"per-packet-us", required_argument, NULL, O_PERPKT},
	{"not-ready", no_argument, NULL, O_NOTREADY},
	{"not-ready-us", required_argument, NULL, O_NOTREADY_US},
	{"stats", required_argument, NULL, O_STATS},
	{"sock-buf", required_argument, NULL, O_SOCKBUF},
	{"max-memory", required_argument, NULL, O_MAXMEM},
	{"quiet", no_argument, NULL, O_QUIET},
	{"no-gso", no_argument, NULL, O_NOGSO},
	{"metrics", required_argument, NULL, O_METRICS},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};
/* clang-format on */

void ws_cli_node_words(ws_cli_word_fn fn, void *ctx)
{
	for (const struct option *l = longopts; l->name; l++) {
		char w[40];
		snprintf(w, sizeof w, "--%s", l->name);
		fn(ctx, w, l->has_arg ? "VALUE" : NULL);
	}
	fn(ctx, "-h", NULL);
}

/* One option into o; returns 0 or the exit status 2. */
static int parse_one(int c, const char *arg, const char *name, node_opts *o)
{
	ws_node_config *cfg = &o->cfg;
	long long v = 0;
	uint64_t sz;
	ws_err e;
	int r = 0;
	switch (c) {
	case O_ID:
		r = parse_num(name, arg, 0, 65534, &v);
		cfg->id = (uint16_t)v;
		break;
	case O_SERIAL:
		r = parse_num(name, arg, 0, 99999, &v);
		cfg->serial = (uint32_t)v;
		break;
	case O_BIND: {
		struct in_addr a;
		if (inet_pton(AF_INET, arg, &a) != 1)
			return bad(name, arg, "an IPv4 address a.b.c.d, 0.0.0.0 for all");
		cfg->bind_addr = arg;
		break;
	}
	case O_ALLOW: {
		ws_node_allow al;
		if (ws_node_allow_parse(arg, &al, &e) < 0) {
			fprintf(stderr, "warpspeed node: --%s\n", e.msg);
			return 2;
		}
		cfg->allow = arg;
		break;
	}
	case O_RATE:
		return parse_rate(name, arg, &cfg->reply_rate_bps);
	case O_TOTAL:
		r = parse_rate(name, arg, &cfg->reply_total_bps);
		if (r == 0 && cfg->reply_total_bps == 0)
			cfg->reply_total_bps = WS_NODE_TOTAL_OFF;
		break;
	case O_BURST:
		if (ws_units_parse_size(arg, &sz, &e) < 0 || sz < WS_NODE_RATE_MIN_BURST ||
		    sz > WS_NODE_RATE_MAX_BURST)
			return bad(name, arg, "bytes, 1K..256M, e.g. 1M");
		cfg->reply_burst = (uint32_t)sz;
		break;
	case O_PORT:
		r = parse_num(name, arg, 0, 65535, &v);
		cfg->port = (int)v;
		break;
	case O_BCAST:
		if (strcmp(arg, "off") == 0)
			cfg->bcast_port = -1;
		else if ((r = parse_num(name, arg, 0, 65535, &v)) == 0)
			cfg->bcast_port = (int)v;
		break;
	case O_RF:
		if (strcmp(arg, "2") && strcmp(arg, "4"))
			return bad(name, arg, "2 or 4");
		cfg->rf = atoi(arg);
		break;
	case O_PAYLOAD:
		r = parse_num(name, arg, 48, 65505, &v);
		cfg->max_payload = (uint32_t)v;
		break;
	case O_TXS:
		r = parse_samples(name, arg, &cfg->tx_samples);
		break;
	case O_RXS:
		r = parse_samples(name, arg, &cfg->rx_samples);
		break;
	case O_CHANNEL:
		if (strcmp(arg, "loopback") == 0)
			cfg->channel = WS_NODE_CHANNEL_LOOPBACK;
		else if (strcmp(arg, "none") == 0)
			cfg->channel = WS_NODE_CHANNEL_NONE;
		else
			return bad(name, arg, "loopback or none");
		break;
	case O_PACE:
		r = parse_num(name, arg, 0, 1000000, &v);
		cfg->pace_us = (uint32_t)v;
		break;
	case O_SLOTS:
		r = parse_num(name, arg, 1, 4096, &v);
		cfg->rx_slots = (uint32_t)v;
		break;
	case O_PERPKT:
		r = parse_num(name, arg, 0, 1000000, &v);
		cfg->per_packet_us = (uint32_t)v;
		break;
	case O_NOTREADY:
		cfg->not_ready = 1;
		break;
	case O_NOTREADY_US:
		r = parse_num(name, arg, 1, 60000000, &v);
		cfg->not_ready = 1;
		cfg->not_ready_us = (uint32_t)v;
		break;
	case O_STATS:
		if (ws_units_parse_double(arg, 0.001, 86400, &o->stats_s, &e) < 0)
			return bad(name, arg, "seconds, 0.001..86400");
		break;
	case O_SOCKBUF:
		if (ws_units_parse_size(arg, &sz, &e) < 0 || sz > (1u << 30))
			return bad(name, arg, "a size up to 1G, e.g. 64M");
		cfg->sock_buf = (int)sz;
		break;
	case O_MAXMEM:
		if (ws_units_parse_size(arg, &sz, &e) < 0 || sz < (4u << 20) || sz > (1ull << 40))
			return bad(name, arg, "a size from 4M to 1024G, e.g. 512M or 2G");
		cfg->max_memory = sz;
		break;
	case O_QUIET:
		o->quiet = 1;
		break;
	case O_NOGSO:
		cfg->gso = 0;
		break;
	case O_METRICS:
		if (ws_metricsd_parse_addr(arg, &o->metrics_addr, &e) < 0) {
			fprintf(stderr, "warpspeed node: %s: %s\n", name, e.msg);
			return 2;
		}
		o->metrics = arg;
		break;
	default:
		return 2;
	}
	return r;
}

static int parse_args(int argc, char **argv, node_opts *o)
{
	optind = 1;
	opterr = 0;
	for (;;) {
		int idx = -1;
		int c = getopt_long(argc, argv, ":h", longopts, &idx);
		if (c == -1)
			break;
		if (c == 'h') {
			fputs(usage, stdout);
			return -1;
		}
		if (c == '?' || c == ':') {
			const char *what = c == ':' ? "needs a value" : "is unknown";
			fprintf(stderr, "warpspeed node: option '%s' %s\n%s", argv[optind - 1],
				what, usage);
			return 2;
		}
		char name[32];
		snprintf(name, sizeof name, "--%s", idx >= 0 ? longopts[idx].name : "?");
		int r = parse_one(c, optarg, name, &o[0]);
		if (r)
			return r;
	}
	if (optind < argc) {
		fprintf(stderr, "warpspeed node: unexpected argument '%s' (options only)\n",
			argv[optind]);
		return 2;
	}
	if (o->cfg.per_packet_us && !o->cfg.rx_slots) {
		fprintf(stderr, "warpspeed node: --per-packet-us needs --rx-slots (e.g. 5)\n");
		return 2;
	}
	return 0;
}

static void print_counters(ws_node *n, const char *when)
{
	ws_node_counters c;
	ws_node_get_counters(n, &c);
	printf("counters (%s):", when);
	ws_cli_node_counters_print(stdout, &c);
	printf("\n");
	fflush(stdout);
}

static void *run_thread(void *arg)
{
	node_thread *t = arg;
	t->rc = ws_node_run(t->node, &t->err);
	pthread_kill(t->main_tid, SIGUSR2); /* wake the signal loop if we ended by ourselves */
	return NULL;
}

static void banner(ws_node *n, const node_opts *o)
{
	const ws_node_config *c = &o->cfg;
	ws_node_info in;
	ws_node_get_info(n, &in);
	char bport[16] = "off", rate[64] = "off (no reply cap)", total[48] = "off";
	if (in.bcast_port >= 0)
		snprintf(bport, sizeof bport, "%d", in.bcast_port);
	if (in.reply_rate_bps)
		snprintf(rate, sizeof rate, "%.6g Mb/s per source, burst %u bytes",
			 (double)in.reply_rate_bps / 1e6, in.reply_burst);
	if (in.reply_total_bps)
		snprintf(total, sizeof total, "%.6g Mb/s", (double)in.reply_total_bps / 1e6);
	fprintf(stderr,
		"warpspeed node: WARP v3 W3-a-%05u ID %u, WARPLab %u.%u.%u, %d RF, listening on "
		"%s:%d, broadcast port %s, allow %s, reply rate %s, in total %s, max payload %u "
		"(%u samples/packet), %u TX / %u RX samples per buffer, max memory %.1f MiB, "
		"channel %s, socket "
		"buffers %d/%d, Read IQ GSO %s\n",
		c->serial, c->id, WS_WIRE_WL_MAJOR, WS_WIRE_WL_MINOR, WS_WIRE_WL_REV, c->rf,
		in.bind_addr, in.port, bport, in.allow, rate, total, c->max_payload,
		ws_wire_samples_per_packet(c->max_payload), c->tx_samples, c->rx_samples,
		(double)in.max_memory / 1048576.0,
		c->channel == WS_NODE_CHANNEL_LOOPBACK ? "loopback" : "none", in.rcvbuf, in.sndbuf,
		in.gso ? "on" : "off");
}

/* Waits for signals until a stop; returns when the node thread should be joined. */
static void signal_loop(ws_node *n, const node_opts *o, const sigset_t *set)
{
	for (;;) {
		int sig;
		if (o->stats_s > 0) {
			struct timespec ts = {
				.tv_sec = (time_t)o->stats_s,
				.tv_nsec = (long)((o->stats_s - (time_t)o->stats_s) * 1e9)};
			sig = sigtimedwait(set, NULL, &ts);
			if (sig < 0 && errno == EAGAIN) {
				print_counters(n, "interval");
				continue;
			}
		} else if (sigwait(set, &sig) != 0) {
			sig = -1;
		}
		if (sig == SIGUSR1)
			print_counters(n, "SIGUSR1");
		else if (sig == SIGINT || sig == SIGTERM || sig == SIGUSR2)
			return;
	}
}

int ws_cli_node_main(int argc, char **argv)
{
	node_opts o = {0};
	ws_node_config_default(&o.cfg);
	int r = parse_args(argc, argv, &o);
	if (r)
		return r < 0 ? 0 : r;
	o.cfg.log = log_cb;
	o.cfg.log_ctx = &o;

	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, NULL);

	node_thread t = {.main_tid = pthread_self()};
	ws_err err;
	if (ws_node_create(&o.cfg, &t.node, &err) < 0) {
		fprintf(stderr, "warpspeed %s\n", err.msg);
		return 1;
	}
	banner(t.node, &o);
	ws_metricsd *md = NULL;
	if (o.metrics) {
		ws_metricsd_config mc = {.addr = o.metrics_addr,
					 .render = ws_cli_node_metrics_render,
					 .ctx = t.node};
		if (!(md = ws_metricsd_start(&mc, &err))) {
			fprintf(stderr, "warpspeed node: %s\n", err.msg);
			ws_node_destroy(t.node);
			return 1;
		}
		char where[96];
		ws_metricsd_describe(md, where, sizeof where);
		fprintf(stderr, "warpspeed node: metrics on http://%s/metrics\n", where);
	}
	pthread_t tid;
	if (pthread_create(&tid, NULL, run_thread, &t) != 0) {
		fprintf(stderr, "warpspeed node: cannot start the node thread\n");
		ws_metricsd_stop(md);
		ws_node_destroy(t.node);
		return 1;
	}
	signal_loop(t.node, &o, &set);
	ws_node_stop(t.node);
	pthread_join(tid, NULL);
	ws_metricsd_stop(md);
	print_counters(t.node, "exit");
	ws_node_destroy(t.node);
	if (t.rc < 0) {
		fprintf(stderr, "warpspeed %s\n", t.err.msg);
		return 1;
	}
	return 0;
}
