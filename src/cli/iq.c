/* iq: `warpspeed iq`, the command line of the IQ host transport (include/warpspeed/iq.h).
 *
 * WARPLab users script info / read / write / trigger and wl_benchmark from MATLAB; this
 * gives them the same operations from a shell, with IQ files (raw cf32 / ci16, SigMF) in
 * place of MATLAB arrays, and `bench` printing wl_benchmark's table. Without a NODE, bench
 * runs the node emulator in a thread on loopback so that `make run` needs nothing else.
 * Usage errors exit 2, runtime failures 1, each with one line naming the problem. */
#include "cli/iq.h"

#include <warpspeed/iq.h>

#include "iq/bench.h"
#include "report/charts.h"
#include "iq/iqfile.h"
#include "iq/node_thread.h"
#include "util/err.h"
#include "util/units.h"

#include <arpa/inet.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IQ_MAX_SIZES 64

typedef struct iq_opts {
	ws_iq_config cfg;
	char addr[64];             /* the first NODE's address (cfg.addr, cfg.port) */
	int have_node;
	size_t nnodes;             /* NODE,NODE,...: read, write and bench take several */
	char node_addr[WS_IQ_MANY_MAX][64];
	int node_port[WS_IQ_MANY_MAX];
	const char *format;        /* --format as given ("raw" only for bench) */
	unsigned rf;
	uint32_t samples, start;
	int have_samples;
	const char *out, *in, *bcast, *json_file;
	const char *svg;           /* bench --svg FILE: the chart (report/charts.h) */
	int reference_warplab;     /* bench --reference warplab */
	double link_mbps;          /* bench --link MBPS: the ceiling line; 0 = --write-rate's */
	ws_iqfile_kind kind;
	int sigmf_cf32;
	int trials, json, count, verbose;
	uint32_t sizes[IQ_MAX_SIZES];
	size_t nsizes;
	uint32_t ids;
	unsigned tx_en, rx_en;
} iq_opts;

static const char usage[] =
	"usage: warpspeed iq info|ping NODE [options]\n"
	"       warpspeed iq read NODE --rf A --samples N [--start S] -o FILE [--format F]\n"
	"       warpspeed iq write NODE --rf A[,B...] -i FILE [--start S] [--format F]\n"
	"       warpspeed iq trigger NODE [--ids MASK] [--tx-en A,B] [--rx-en A,B]\n"
	"       warpspeed iq trigger --broadcast ADDR[:PORT] [--ids MASK]\n"
	"       warpspeed iq bench [NODE[,NODE...]] --trials T --samples N[,N...] [--rf A[,B]]\n"
	"                 [--format raw|ci16|cf32] [--json]\n"
	"                 [--json-file PATH]   (the table, and the JSON rows into PATH)\n"
	"                 [--svg FILE [--reference warplab] [--link MBPS]]   (Write and Read\n"
	"                 Mb/s against samples as a chart; WARPLab 7.5.0's published series;\n"
	"                 the link's rate for the ceiling line, default --write-rate's)\n"
	"  NODE is ADDR[:PORT] (port 9000 by default); read, write and bench take several,\n"
	"  NODE,NODE,..., served at once (read: -o F1,F2,... one per node; write: -i one file\n"
	"  for all or one per node; bench: a row per node and an aggregate). Files: raw cf32\n"
	"  or ci16 (interleaved little-endian I, Q) or SigMF (.sigmf-meta + .sigmf-data,\n"
	"  cf32_le or ci16_le), from the extension or --format cf32|ci16|sigmf; --datatype\n"
	"  cf32_le|ci16_le for a SigMF recording written by read (default ci16_le, the node's\n"
	"  own samples).\n"
	"  bench without NODE runs a built-in node emulator on loopback.\n"
	"  Transport: --node-id N (0) --host-id N (250) --max-payload B (8964)\n"
	"    --timeout-ms MS (100: a command's first wait, doubling up to 200)\n"
	"    --retries N (20: most attempts of a command, and of a transfer's packet)\n"
	"    --budget-ms MS (2000: most time a command or a trigger's confirmation takes)\n"
	"    --idle-ms MS (10) --window SIZE\n"
	"    --rcvbuf SIZE (64M) --sndbuf SIZE (512K) --pace-us US (0)\n"
	"    --write-mode auto|fast|acked (auto) --trigger-port P (the node's port)\n"
	"    --write-rate MBPS (0: unpaced; the node's link rate, e.g. 1000, when the host's\n"
	"      link is faster, as a 10 GbE host with GbE nodes behind a switch)\n"
	"  ping: --count N (3); -v: the transport's counters on stderr at the end\n"
	"  trigger: confirmed by the node's trigger counter (re-sent while it stands still,\n"
	"    exit 1 when it never moves); unconfirmed, said on stderr, for a node without\n"
	"    one and for --broadcast\n";

static int bad(const char *what, const char *val, const char *accepted)
{
	fprintf(stderr, "warpspeed iq: %s '%s' is not valid (%s)\n", what, val, accepted);
	return 2;
}

/* "A", "A,B", "a,c,d" or "all" into a buffer mask. */
static int parse_rf(const char *s, unsigned *mask)
{
	*mask = 0;
	if (!strcmp(s, "all")) {
		*mask = WS_IQ_RF_ALL;
		return 0;
	}
	for (const char *p = s; *p; p++) {
		char c = (char)(*p | 0x20);
		if (c >= 'a' && c <= 'd' && (p[1] == ',' || p[1] == 0))
			*mask |= 1u << (c - 'a');
		else if (*p != ',')
			return bad("--rf", s, "letters A..D separated by commas, e.g. A,B, or all");
	}
	return *mask ? 0 : bad("--rf", s, "at least one of A..D");
}

static int parse_one_node(const char *s, char addr[64], int *port)
{
	const char *colon = strrchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	struct in_addr a;
	if (n >= 64)
		return bad("NODE", s, "ADDR[:PORT] with an IPv4 address");
	memcpy(addr, s, n);
	addr[n] = 0;
	if (inet_pton(AF_INET, addr, &a) != 1)
		return bad("NODE", s, "ADDR[:PORT] with an IPv4 address, e.g. 10.0.0.1:9000");
	if (colon) {
		long long p;
		if (ws_units_parse_int(colon + 1, 1, 65535, &p, NULL) < 0)
			return bad("NODE port", colon + 1, "1..65535");
		*port = (int)p;
	}
	return 0;
}

/* NODE or NODE,NODE,... (at most WS_IQ_MANY_MAX); the first also into cfg. */
static int parse_node(const char *s, iq_opts *o)
{
	char buf[WS_IQ_MANY_MAX * 32];
	if (strlen(s) >= sizeof buf)
		return bad("NODE", s, "a shorter list of ADDR[:PORT]");
	strcpy(buf, s);
	o->nnodes = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (o->nnodes == WS_IQ_MANY_MAX)
			return bad("NODE", s, "at most 64 nodes");
		o->node_port[o->nnodes] = o->cfg.port;
		if (parse_one_node(t, o->node_addr[o->nnodes], &o->node_port[o->nnodes]))
			return 2;
		o->nnodes++;
	}
	if (!o->nnodes)
		return bad("NODE", s, "ADDR[:PORT][,ADDR[:PORT]...]");
	memcpy(o->addr, o->node_addr[0], sizeof o->addr);
	o->cfg.port = o->node_port[0];
	o->cfg.addr = o->addr;
	o->have_node = 1;
	return 0;
}

static int parse_u32(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint32_t *out,
		     int size)
{
	uint64_t v;
	long long ll;
	ws_err e;
	int r = size ? ws_units_parse_size(s, &v, &e)
		     : ws_units_parse_int(s, (long long)lo, (long long)hi, &ll, &e);
	if (!size)
		v = (uint64_t)ll;
	if (r < 0 || v < lo || v > hi) {
		char acc[96];
		snprintf(acc, sizeof acc, "%llu..%llu%s", (unsigned long long)lo,
			 (unsigned long long)hi, size ? ", K/M suffixes allowed" : "");
		return bad(opt, s, acc);
	}
	*out = (uint32_t)v;
	return 0;
}

static int parse_sizes(const char *s, iq_opts *o)
{
	char buf[1024];
	if (strlen(s) >= sizeof buf)
		return bad("--samples", s, "a shorter list");
	strcpy(buf, s);
	o->nsizes = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (o->nsizes == IQ_MAX_SIZES)
			return bad("--samples", s, "at most 64 sizes");
		if (parse_u32("--samples", t, 1, 1u << 30, &o->sizes[o->nsizes++], 1))
			return 2;
	}
	if (!o->nsizes)
		return bad("--samples", s, "N[,N...]");
	o->samples = o->sizes[0];
	o->have_samples = 1;
	return 0;
}

enum { O_RF = 256, O_SAMPLES, O_START, O_FORMAT, O_DATATYPE, O_TRIALS, O_JSON, O_NODEID,
       O_HOSTID, O_PAYLOAD, O_TIMEOUT, O_IDLE, O_RETRIES, O_WINDOW, O_RCVBUF, O_SNDBUF,
       O_PACE, O_WMODE, O_TPORT, O_IDS, O_TXEN, O_RXEN, O_BCAST, O_COUNT, O_JSONFILE,
       O_BUDGET, O_WRATE, O_SVG, O_REFERENCE, O_LINK };

static const struct option longopts[] = {
	{"rf", 1, NULL, O_RF}, {"samples", 1, NULL, O_SAMPLES}, {"start", 1, NULL, O_START},
	{"format", 1, NULL, O_FORMAT}, {"datatype", 1, NULL, O_DATATYPE},
	{"trials", 1, NULL, O_TRIALS}, {"json", 0, NULL, O_JSON}, {"node-id", 1, NULL, O_NODEID},
	{"host-id", 1, NULL, O_HOSTID}, {"max-payload", 1, NULL, O_PAYLOAD},
	{"timeout-ms", 1, NULL, O_TIMEOUT}, {"idle-ms", 1, NULL, O_IDLE},
	{"budget-ms", 1, NULL, O_BUDGET}, {"write-rate", 1, NULL, O_WRATE},
	{"retries", 1, NULL, O_RETRIES}, {"window", 1, NULL, O_WINDOW},
	{"rcvbuf", 1, NULL, O_RCVBUF}, {"sndbuf", 1, NULL, O_SNDBUF}, {"pace-us", 1, NULL, O_PACE},
	{"write-mode", 1, NULL, O_WMODE}, {"trigger-port", 1, NULL, O_TPORT},
	{"ids", 1, NULL, O_IDS}, {"tx-en", 1, NULL, O_TXEN}, {"rx-en", 1, NULL, O_RXEN},
	{"svg", 1, NULL, O_SVG}, {"reference", 1, NULL, O_REFERENCE}, {"link", 1, NULL, O_LINK},
	{"broadcast", 1, NULL, O_BCAST}, {"json-file", 1, NULL, O_JSONFILE}, {"count", 1, NULL, O_COUNT}, {"output", 1, NULL, 'o'},
	{"input", 1, NULL, 'i'}, {"verbose", 0, NULL, 'v'}, {"help", 0, NULL, 'h'}, {NULL, 0, NULL, 0},
};

static int parse_transport(int c, const char *a, const char *name, ws_iq_config *cfg)
{
	uint32_t v = 0;
	int r = 0;
	switch (c) {
	case O_NODEID: r = parse_u32(name, a, 0, 65535, &v, 0); cfg->node_id = (uint16_t)v; break;
	case O_HOSTID: r = parse_u32(name, a, 0, 65535, &v, 0); cfg->host_id = (uint16_t)v; break;
	case O_PAYLOAD: r = parse_u32(name, a, 68, 65505, &cfg->max_payload, 0); break;
	case O_TIMEOUT: r = parse_u32(name, a, 1, 60000, &cfg->timeout_ms, 0); break;
	case O_IDLE: r = parse_u32(name, a, 1, 60000, &cfg->idle_ms, 0); break;
	case O_RETRIES: /* a transfer's retries and a command's attempts alike */
		r = parse_u32(name, a, 1, 255, &v, 0);
		cfg->retries = cfg->cmd_tries = (int)v;
		break;
	case O_BUDGET: r = parse_u32(name, a, 1, 600000, &cfg->budget_ms, 0); break;
	case O_WINDOW: r = parse_u32(name, a, 1, 1u << 30, &cfg->window, 1); break;
	case O_RCVBUF: r = parse_u32(name, a, 1, 1u << 30, &v, 1); cfg->rcvbuf = (int)v; break;
	case O_SNDBUF: r = parse_u32(name, a, 1, 1u << 30, &v, 1); cfg->sndbuf = (int)v; break;
	case O_PACE: r = parse_u32(name, a, 0, 1000000, &v, 0); cfg->pace_ns = v * 1000; break;
	case O_WRATE: { /* 10^6 bits/s of Ethernet frames */
		double mbps;
		if (ws_units_parse_double(a, 0, 1e6, &mbps, NULL) < 0)
			return bad(name, a, "Mb/s of frames, 0..1000000, e.g. 1000 for a GbE node");
		cfg->write_rate_bps = (uint64_t)(mbps * 1e6);
		break;
	}
	case O_TPORT: r = parse_u32(name, a, 0, 65535, &v, 0); cfg->trigger_port = (int)v; break;
	case O_WMODE:
		if (!strcmp(a, "auto"))
			cfg->write_mode = WS_IQ_WRITE_AUTO;
		else if (!strcmp(a, "fast"))
			cfg->write_mode = WS_IQ_WRITE_FAST;
		else if (!strcmp(a, "acked"))
			cfg->write_mode = WS_IQ_WRITE_ACKED;
		else
			return bad(name, a, "auto, fast or acked");
		break;
	default: return -1;
	}
	return r;
}

static int parse_one(int c, const char *a, const char *name, iq_opts *o)
{
	ws_err e;
	int r = parse_transport(c, a, name, &o->cfg);
	if (r >= 0)
		return r;
	switch (c) {
	case O_RF: return parse_rf(a, &o->rf);
	case O_SAMPLES: return parse_sizes(a, o);
	case O_START: return parse_u32(name, a, 0, 1u << 30, &o->start, 1);
	case O_FORMAT:
		o->format = a;
		if (strcmp(a, "raw") && ws_iqfile_kind_parse(a, &o->kind, &e) < 0)
			return bad(name, a, "cf32, ci16 or sigmf (files); raw, ci16 or cf32 (bench)");
		return 0;
	case O_DATATYPE:
		if (strcmp(a, "cf32_le") && strcmp(a, "ci16_le"))
			return bad(name, a, "cf32_le or ci16_le");
		o->sigmf_cf32 = a[1] == 'f';
		return 0;
	case O_TRIALS: {
		uint32_t v;
		r = parse_u32(name, a, WS_IQ_BENCH_DROP + 1, WS_IQ_BENCH_MAX_TRIALS, &v, 0);
		o->trials = (int)v;
		return r;
	}
	case O_JSON: o->json = 1; return 0;
	case O_IDS: return parse_u32(name, a, 1, UINT32_MAX, &o->ids, 0);
	case O_TXEN: return parse_rf(a, &o->tx_en);
	case O_RXEN: return parse_rf(a, &o->rx_en);
	case O_BCAST: o->bcast = a; return 0;
	case O_JSONFILE: o->json_file = a; return 0;
	case O_SVG: o->svg = a; return 0;
	case O_REFERENCE:
		if (strcmp(a, "warplab"))
			return bad(name, a, "warplab (WARPLab 7.5.0's published wl_benchmark figures)");
		o->reference_warplab = 1;
		return 0;
	case O_LINK:
		if (ws_units_parse_double(a, 1, 1e7, &o->link_mbps, NULL) < 0)
			return bad(name, a, "the link's rate in 10^6 bits/s, 1..10000000, e.g. 1000");
		return 0;
	case O_COUNT: {
		uint32_t v;
		r = parse_u32(name, a, 1, 100000, &v, 0);
		o->count = (int)v;
		return r;
	}
	case 'o': o->out = a; return 0;
	case 'i': o->in = a; return 0;
	case 'v': o->verbose = 1; return 0;
	default: return 2;
	}
}

/* Options into o; the positional NODE, if any, too. Returns 0, 2 (usage) or 3 (help). */
static int parse_args(int argc, char **argv, iq_opts *o)
{
	memset(o, 0, sizeof *o);
	ws_iq_config_default(&o->cfg);
	o->ids = 1;
	o->count = 3;
	optind = 1;
	opterr = 0;
	for (;;) {
		int idx = -1, c = getopt_long(argc, argv, ":ho:i:v", longopts, &idx);
		if (c == -1)
			break;
		const char *name = idx >= 0 ? longopts[idx].name : "option";
		if (c == 'h')
			return 3;
		if (c == '?' || c == ':') {
			fprintf(stderr, "warpspeed iq: %s option '%s'\n%s",
				c == '?' ? "unknown" : "missing value for", argv[optind - 1], usage);
			return 2;
		}
		int r = parse_one(c, optarg, name, o);
		if (r)
			return r;
	}
	if (optind < argc && parse_node(argv[optind++], o))
		return 2;
	if (optind < argc) {
		fprintf(stderr, "warpspeed iq: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	return 0;
}

static int open_node(const iq_opts *o, ws_iq_node **n)
{
	ws_iq_error e;
	if (ws_iq_open(&o->cfg, n, &e) < 0) {
		fprintf(stderr, "warpspeed iq: %s\n", e.msg);
		return 1;
	}
	return 0;
}

static int need_node(const iq_opts *o, const char *cmd)
{
	if (o->have_node && (o->nnodes == 1 || !strcmp(cmd, "read") || !strcmp(cmd, "write") ||
			     !strcmp(cmd, "bench")))
		return 0;
	fprintf(stderr, "warpspeed iq %s: %s is required\n", cmd, o->have_node ? "exactly one "
		"NODE" : "NODE (ADDR[:PORT])");
	return 2;
}

/* Opens every NODE of the list into n[0..nnodes); on failure none stays open. */
static int open_nodes(const iq_opts *o, ws_iq_node **n)
{
	for (size_t k = 0; k < o->nnodes; k++) {
		ws_iq_config c = o->cfg;
		c.addr = o->node_addr[k];
		c.port = o->node_port[k];
		ws_iq_error e;
		if (ws_iq_open(&c, &n[k], &e) < 0) {
			fprintf(stderr, "warpspeed iq: %s\n", e.msg);
			while (k-- > 0)
				ws_iq_close(n[k]);
			return 1;
		}
	}
	return 0;
}

static void close_nodes(ws_iq_node **n, size_t nn)
{
	for (size_t k = 0; k < nn; k++)
		ws_iq_close(n[k]);
}

/* A file list "F" or "F1,F2,..." for nn nodes: one per node, or (shared) one for all. */
static int split_files(const char *opt, const char *s, size_t nn, int shared, char *buf,
		       size_t cap, const char **out)
{
	size_t k = 0;
	if (strlen(s) >= cap)
		return bad(opt, s, "a shorter list of files");
	strcpy(buf, s);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (k < nn)
			out[k++] = t;
		else
			return bad(opt, s, "one file per NODE");
	if (k == 1 && shared)
		while (k < nn)
			out[k++] = out[0];
	if (k != nn)
		return bad(opt, s, shared ? "one file, or one per NODE" : "one file per NODE, "
			   "separated by commas");
	return 0;
}

static int refuse_raw(const iq_opts *o, const char *cmd)
{
	if (!o->format || strcmp(o->format, "raw"))
		return 0;
	fprintf(stderr, "warpspeed iq %s: --format raw is for bench; files are cf32, ci16 or "
		"sigmf\n", cmd);
	return 2;
}

/* ---- info, ping ---- */

static int cmd_info(const iq_opts *o)
{
	ws_iq_node *n;
	int r = need_node(o, "info");
	if (r || (r = open_node(o, &n)))
		return r;
	ws_iq_info i;
	ws_iq_get_info(n, &i);
	printf("node %s:%d (ID %u): WARP v%u, WARPLab %u.%u.%u, serial W3-a-%05u\n", o->addr,
	       o->cfg.port, o->cfg.node_id, i.hw_version, i.wl_major, i.wl_minor, i.wl_rev,
	       i.serial);
	printf("  MAC %02x:%02x:%02x:%02x:%02x:%02x, FPGA DNA 0x%08x%08x\n", i.mac[0], i.mac[1],
	       i.mac[2], i.mac[3], i.mac[4], i.mac[5], i.dna_msb, i.dna_lsb);
	printf("  RF interfaces %u; TX buffer %u samples, RX buffer %u samples; TX length %u, "
	       "RX length %u\n", i.num_rf, i.max_tx_samples, i.max_rx_samples, i.tx_length,
	       i.rx_length);
	printf("  payload %u bytes: %u samples per packet (%u-byte sample packets)\n",
	       i.max_payload, i.samples_per_packet, i.packet_size);
	printf("  host socket: SO_RCVBUF %d, SO_SNDBUF %d bytes granted; Read IQ window %u "
	       "bytes\n", i.rcvbuf, i.sndbuf, i.window);
	ws_iq_close(n);
	return 0;
}

static int cmd_ping(const iq_opts *o)
{
	ws_iq_node *n;
	int r = need_node(o, "ping");
	if (r || (r = open_node(o, &n)))
		return r;
	for (int k = 0; k < o->count; k++) {
		ws_iq_error e;
		int64_t ns = ws_iq_ping(n, &e);
		if (ns < 0) {
			fprintf(stderr, "warpspeed iq: %s\n", e.msg);
			r = 1;
			break;
		}
		printf("PING %s:%d: reply %d, time %.1f us\n", o->addr, o->cfg.port, k + 1,
		       (double)ns / 1e3);
	}
	ws_iq_close(n);
	return r;
}

/* ---- read, write ---- */

/* The read files' kind and the format read into memory. */
static int read_kind(const iq_opts *o, const char *path, ws_iqfile_kind *kind,
		     ws_iq_format *fmt)
{
	*kind = o->kind ? o->kind : ws_iqfile_kind_of_path(path);
	if (*kind == WS_IQFILE_AUTO)
		return bad("-o", path, "a name ending .cf32, .ci16 or .sigmf-meta/.sigmf-data, "
			   "or --format cf32|ci16|sigmf");
	*fmt = *kind == WS_IQFILE_CF32 || (*kind == WS_IQFILE_SIGMF && o->sigmf_cf32)
		       ? WS_IQ_FMT_CF32 : WS_IQ_FMT_CI16;
	return 0;
}

/* Saves node k's samples into its file; prints what was read. */
static int save_read(const iq_opts *o, size_t k, ws_iq_node *n, const char *path,
		     ws_iqfile_kind kind, ws_iq_format fmt, const void *buf)
{
	ws_iq_info i;
	ws_err fe;
	char hw[96];
	ws_iq_get_info(n, &i);
	snprintf(hw, sizeof hw, "WARP v3 W3-a-%05u, WARPLab %u.%u.%u, RF_%c", i.serial,
		 i.wl_major, i.wl_minor, i.wl_rev, 'A' + __builtin_ctz(o->rf));
	if (ws_iqfile_save(path, kind, fmt, buf, o->samples, WS_IQ_BENCH_RATE, hw, &fe) < 0) {
		fprintf(stderr, "warpspeed iq: %s\n", fe.msg);
		return 1;
	}
	printf("read %u samples of RF_%c from %s:%d into %s\n", o->samples,
	       'A' + __builtin_ctz(o->rf), o->node_addr[k], o->node_port[k], path);
	return 0;
}

static int cmd_read(const iq_opts *o)
{
	int r = need_node(o, "read");
	if (r || (r = refuse_raw(o, "read")))
		return r;
	if (!o->rf || (o->rf & (o->rf - 1)) || !o->have_samples || !o->out) {
		fprintf(stderr, "warpspeed iq read: needs --rf with one interface, --samples N and "
				"-o FILE (one per NODE, separated by commas)\n");
		return 2;
	}
	size_t nn = o->nnodes;
	char names[4096];
	const char *path[WS_IQ_MANY_MAX];
	ws_iqfile_kind kind[WS_IQ_MANY_MAX];
	ws_iq_format fmt[WS_IQ_MANY_MAX] = {WS_IQ_FMT_CI16};
	if ((r = split_files("-o", o->out, nn, 0, names, sizeof names, path)))
		return r;
	for (size_t k = 0; k < nn; k++)
		if ((r = read_kind(o, path[k], &kind[k], &fmt[k])))
			return r;
	for (size_t k = 1; k < nn; k++)
		if (fmt[k] != fmt[0])
			return bad("-o", o->out, "files of one sample type (all cf32 or all ci16)");
	ws_iq_node *n[WS_IQ_MANY_MAX];
	if ((r = open_nodes(o, n)))
		return r;
	void *buf[WS_IQ_MANY_MAX] = {0};
	ws_iq_many_item it[WS_IQ_MANY_MAX];
	for (size_t k = 0; k < nn; k++) {
		buf[k] = malloc((size_t)o->samples * ws_iq_format_size(fmt[0]));
		it[k] = (ws_iq_many_item){.node = n[k], .rf_mask = o->rf, .start = o->start,
					  .count = o->samples, .dst = &buf[k]};
		if (!buf[k])
			r = 1;
	}
	ws_iq_error e;
	if (r)
		fprintf(stderr, "warpspeed iq read: out of memory for %u samples\n", o->samples);
	else if (ws_iq_read_many(it, nn, fmt[0], &e) < 0) {
		fprintf(stderr, "warpspeed iq: %s (no file written)\n", nn > 1 ? e.msg : it[0].err.msg);
		r = 1;
	}
	for (size_t k = 0; r == 0 && k < nn; k++)
		r = save_read(o, k, n[k], path[k], kind[k], fmt[0], buf[k]);
	for (size_t k = 0; k < nn; k++)
		free(buf[k]);
	close_nodes(n, nn);
	return r;
}

static int cmd_write(const iq_opts *o)
{
	int r = need_node(o, "write");
	if (r || (r = refuse_raw(o, "write")))
		return r;
	if (!o->rf || !o->in) {
		fprintf(stderr, "warpspeed iq write: needs --rf A[,B...] and -i FILE (one for all "
				"NODEs, or one per NODE)\n");
		return 2;
	}
	size_t nn = o->nnodes;
	char names[4096];
	const char *path[WS_IQ_MANY_MAX];
	if ((r = split_files("-i", o->in, nn, 1, names, sizeof names, path)))
		return r;
	ws_iq_node *n[WS_IQ_MANY_MAX];
	if ((r = open_nodes(o, n)))
		return r;
	ws_iqfile_data d[WS_IQ_MANY_MAX] = {0};
	const void *src[WS_IQ_MANY_MAX][4];
	ws_iq_many_item it[WS_IQ_MANY_MAX];
	for (size_t k = 0; r == 0 && k < nn; k++) {
		ws_iqfile_kind kind = o->kind ? o->kind : ws_iqfile_kind_of_path(path[k]);
		ws_iq_info i;
		ws_err fe;
		ws_iq_get_info(n[k], &i);
		uint32_t room = o->start < i.max_tx_samples ? i.max_tx_samples - o->start : 0;
		if (kind == WS_IQFILE_AUTO)
			r = bad("-i", path[k], "a name ending .cf32, .ci16 or .sigmf-meta/.sigmf-data, "
				"or --format cf32|ci16|sigmf");
		else if (ws_iqfile_load(path[k], kind, room, &d[k], &fe) < 0) {
			fprintf(stderr, "warpspeed iq: %s\n", fe.msg);
			r = 1;
		} else if (d[k].fmt != d[0].fmt || d[k].count != d[0].count) {
			r = bad("-i", o->in, "files of one sample type and length");
		}
		for (int b = 0; b < 4; b++)
			src[k][b] = d[k].samples;
		it[k] = (ws_iq_many_item){.node = n[k], .rf_mask = o->rf, .start = o->start,
					  .count = d[k].count, .src = src[k]};
	}
	ws_iq_error e;
	if (r == 0 && ws_iq_write_many(it, nn, d[0].fmt, &e) < 0) {
		fprintf(stderr, "warpspeed iq: %s\n", nn > 1 ? e.msg : it[0].err.msg);
		r = 1;
	}
	for (size_t k = 0; r == 0 && k < nn; k++)
		printf("wrote %u samples from %s to TX buffer mask 0x%x of %s:%d\n", d[k].count,
		       path[k], o->rf, o->node_addr[k], o->node_port[k]);
	for (size_t k = 0; k < nn; k++)
		ws_iqfile_free(&d[k]);
	close_nodes(n, nn);
	return r;
}

/* ---- trigger ---- */

static int cmd_trigger(const iq_opts *o)
{
	ws_iq_error e;
	if (o->bcast) {
		char a[64];
		const char *colon = strrchr(o->bcast, ':');
		size_t len = colon ? (size_t)(colon - o->bcast) : strlen(o->bcast);
		int port = colon ? atoi(colon + 1) : WS_NODE_DEFAULT_BCAST_PORT;
		if (len >= sizeof a)
			return bad("--broadcast", o->bcast, "ADDR[:PORT]");
		memcpy(a, o->bcast, len);
		a[len] = 0;
		if (ws_iq_trigger_broadcast(a, port, o->cfg.host_id, o->ids, &e) < 0) {
			fprintf(stderr, "warpspeed iq: %s\n", e.msg);
			return e.code == -WS_E_INVAL ? 2 : 1;
		}
		printf("trigger 0x%x broadcast to %s:%d, unconfirmed\n", o->ids, a, port);
		fprintf(stderr, "warpspeed iq: warning: broadcast triggers are unconfirmed: WARPLab "
			"triggers are not acknowledged, and a lost one leaves the RX buffers as they "
			"were (trigger each node with `iq trigger NODE` to confirm)\n");
		return 0;
	}
	ws_iq_node *n;
	ws_iq_trigger_result res;
	int r = need_node(o, "trigger");
	if (r || (r = open_node(o, &n)))
		return r;
	if ((o->tx_en || o->rx_en) && ws_iq_enable(n, o->tx_en, o->rx_en, &e) < 0)
		r = 1;
	else if (ws_iq_trigger_ex(n, o->ids, &res, &e) < 0)
		r = 1;
	if (r)
		fprintf(stderr, "warpspeed iq: %s\n", e.msg);
	else if (res.status == WS_IQ_TRIGGER_UNCONFIRMED)
		printf("trigger 0x%x sent to %s:%d, unconfirmed\n", o->ids, o->addr, o->cfg.port);
	else
		printf("trigger 0x%x sent to %s:%d: seen (the node's trigger counter went from "
		       "%llu to %llu; %d trigger%s sent)\n", o->ids, o->addr, o->cfg.port,
		       (unsigned long long)res.before, (unsigned long long)res.after, res.sent,
		       res.sent == 1 ? "" : "s");
	if (!r && res.status == WS_IQ_TRIGGER_UNCONFIRMED)
		fprintf(stderr, "warpspeed iq: warning: node %s:%d has no trigger counter (a WARPLab "
			"board or an older warpspeed node), so this trigger is unconfirmed: WARPLab "
			"triggers are not acknowledged, and a lost one leaves the RX buffers as they "
			"were\n", o->addr,
			o->cfg.port);
	ws_iq_close(n);
	return r;
}

/* ---- bench ---- */

static void print_stats(ws_iq_node *n)
{
	ws_iq_stats s;
	ws_iq_get_stats(n, &s);
	fprintf(stderr, "transport: commands=%llu command_retries=%llu read_calls=%llu "
		"read_requests=%llu read_rerequests=%llu read_packets=%llu read_dup_packets=%llu "
		"write_calls=%llu write_packets=%llu write_resends=%llu write_fallbacks=%llu "
		"checksum_mismatches=%llu timeouts=%llu not_ready=%llu wrong_seq=%llu "
		"wrong_node=%llu malformed=%llu stale=%llu triggers=%llu trigger_resends=%llu "
		"triggers_unconfirmed=%llu\n",
		(unsigned long long)s.commands, (unsigned long long)s.command_retries,
		(unsigned long long)s.read_calls, (unsigned long long)s.read_requests,
		(unsigned long long)s.read_rerequests, (unsigned long long)s.read_packets,
		(unsigned long long)s.read_dup_packets, (unsigned long long)s.write_calls,
		(unsigned long long)s.write_packets, (unsigned long long)s.write_resends,
		(unsigned long long)s.write_fallbacks, (unsigned long long)s.checksum_mismatches,
		(unsigned long long)s.timeouts, (unsigned long long)s.not_ready,
		(unsigned long long)s.wrong_seq, (unsigned long long)s.wrong_node,
		(unsigned long long)s.malformed, (unsigned long long)s.stale,
		(unsigned long long)s.triggers, (unsigned long long)s.trigger_resends,
		(unsigned long long)s.triggers_unconfirmed);
}

/* The built-in node (no NODE given): the library runs it, this only says so. */
static int builtin_start(ws_node_thread **b, iq_opts *o, FILE *note)
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
	fprintf(note, "no NODE given: benchmarking a built-in node emulator (warpspeed node, "
		"%d RF) on 127.0.0.1:%d, loopback, no rate limit\n", c.rf, ni.port);
	return 0;
}

/* --svg: node 1's rows (the aggregate of several nodes), mean Mb/s, as a chart. */
static int bench_svg(const iq_opts *o, const ws_iq_bench_head *h, const ws_iq_bench_row *rows,
		     const ws_iq_bench_row *agg, bool builtin)
{
	size_t n = o->nsizes;
	double *v = malloc(3 * n * sizeof *v);
	FILE *f = v ? fopen(o->svg, "w") : NULL;
	if (!f) {
		fprintf(stderr, "warpspeed iq bench: cannot write %s%s\n", o->svg, v ? "" : " (no memory)");
		free(v);
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
	ws_chart_opts co = {.title = builtin ? "IQ transfer speed, built-in node on loopback" : NULL,
			    .reference_warplab = o->reference_warplab,
			    .link_mbps = o->link_mbps > 0 ? o->link_mbps : (double)o->cfg.write_rate_bps / 1e6};
	ws_err e;
	int r = ws_chart_iq(f, &s, 1, h[0].pkt_size, &co, &e);
	if (fclose(f) != 0 && r == 0)
		r = ws_err_errno(&e, "writing %s failed", o->svg);
	free(v);
	if (r < 0) {
		fprintf(stderr, "warpspeed iq bench: --svg %s: %s\n", o->svg, e.msg);
		remove(o->svg);
		return 1;
	}
	return 0;
}

/* The table or JSON to f; heads of every node. */
static void bench_print(FILE *f, const iq_opts *o, int json, const ws_iq_bench_head *h,
			const ws_iq_bench_row *rows, const ws_iq_bench_row *agg)
{
	const ws_iq_bench_row *a = o->nnodes > 1 ? agg : NULL;
	if (json)
		ws_iq_bench_json_many(f, h, o->nnodes, rows, a, o->nsizes);
	else
		ws_iq_bench_table_many(f, h, o->nnodes, rows, a, o->nsizes);
}

static int cmd_bench(iq_opts *o)
{
	ws_iq_format fmt = WS_IQ_FMT_BE32;
	if (!o->trials || !o->nsizes) {
		fprintf(stderr, "warpspeed iq bench: needs --trials T (> %d) and --samples "
				"N[,N...]\n", WS_IQ_BENCH_DROP);
		return 2;
	}
	if (o->format && ws_iq_bench_format_parse(o->format, &fmt) < 0)
		return bad("--format", o->format, "raw, ci16 or cf32 for bench");
	if ((o->reference_warplab || o->link_mbps > 0) && !o->svg) {
		fprintf(stderr, "warpspeed iq bench: --reference and --link draw on the chart; add "
				"--svg FILE\n");
		return 2;
	}
	if (!o->rf)
		o->rf = WS_IQ_RF_A;
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
		r = open_nodes(o, n);
	ws_iq_bench_row *rows = calloc(o->nsizes * nn, sizeof *rows);
	ws_iq_bench_row *agg = calloc(o->nsizes, sizeof *agg);
	ws_iq_bench_config c = {.trials = o->trials, .sizes = o->sizes, .nsizes = o->nsizes,
				.rf_mask = o->rf, .seed = 1, .fmt = fmt};
	ws_err e;
	if (r == 0 && (!rows || !agg)) {
		fprintf(stderr, "warpspeed iq bench: out of memory\n");
		r = 1;
	} else if (r == 0 && ws_iq_bench_run_many(n, nn, &c, rows, agg, &e) < 0) {
		fprintf(stderr, "warpspeed iq: %s\n", e.msg);
		r = e.code == WS_E_INVAL ? 2 : 1;
	}
	if (r == 0) {
		ws_iq_bench_head h[WS_IQ_MANY_MAX];
		for (size_t k = 0; k < nn; k++) {
			ws_iq_info i;
			ws_iq_get_info(n[k], &i);
			ws_iq_bench_head_from(&h[k], &i, o->cfg.node_id);
			ws_iq_bench_head_format(&h[k], fmt);
		}
		bench_print(stdout, o, o->json, h, rows, agg);
		FILE *jf = o->json_file ? fopen(o->json_file, "w") : NULL;
		if (o->json_file && !jf) {
			perror(o->json_file);
			r = 1;
		} else if (jf) {
			bench_print(jf, o, 1, h, rows, agg);
			r = fclose(jf) == 0 ? 0 : 1;
		}
		if (r == 0 && o->svg)
			r = bench_svg(o, h, rows, agg, b != NULL);
	}
	for (size_t k = 0; k < nn && o->verbose; k++)
		if (n[k])
			print_stats(n[k]);
	free(rows);
	free(agg);
	close_nodes(n, nn);
	ws_node_thread_stop(b, NULL);
	return r;
}

int ws_cli_iq_main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	const char *cmd = argv[1];
	iq_opts o;
	int r = parse_args(argc - 1, argv + 1, &o);
	if (r == 3) {
		fputs(usage, stdout);
		return 0;
	}
	if (r)
		return r;
	if (!strcmp(cmd, "info"))
		return cmd_info(&o);
	if (!strcmp(cmd, "ping"))
		return cmd_ping(&o);
	if (!strcmp(cmd, "read"))
		return cmd_read(&o);
	if (!strcmp(cmd, "write"))
		return cmd_write(&o);
	if (!strcmp(cmd, "trigger"))
		return cmd_trigger(&o);
	if (!strcmp(cmd, "bench"))
		return cmd_bench(&o);
	fprintf(stderr, "warpspeed iq: unknown command '%s' (info, ping, read, write, trigger "
			"or bench)\n%s", cmd, usage);
	return 2;
}
