/* SPDX-License-Identifier: BSD-2-Clause */
/* iqopts: `warpspeed iq`'s command line; see iqopts.h. */
#include "cli/iqopts.h"

#include "iq/host/bench.h"
#include "util/err.h"
#include "util/units.h"

#include <arpa/inet.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char iq_usage[] =
	"usage: warpspeed iq info|ping NODE [options]\n"
	"       warpspeed iq read NODE --rf A --samples N [--start S] -o FILE [--format F]\n"
	"       warpspeed iq rssi NODE --rf A --samples N [-o FILE]\n"
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
	"    --budget-ms MS (2000: most time a command or a trigger's confirmation takes,\n"
	"      and a read or write goes without progress, whatever else the node sends)\n"
	"    --idle-ms MS (10) --window SIZE\n"
	"    --rcvbuf SIZE (64M) --sndbuf SIZE (512K) --pace-us US (0)\n"
	"    --write-mode auto|fast|acked (auto) --trigger-port P (the node's port)\n"
	"    --write-rate MBPS (0: unpaced; the node's link rate, e.g. 1000, when the host's\n"
	"      link is faster, as a 10 GbE host with GbE nodes behind a switch)\n"
	"    --stall-budget MS (20: windows may hold the last rate x (RTT + MS), so the link\n"
	"      keeps draining while a thread is off the CPU that long)\n"
	"  ping: --count N (3); -v: the transport's counters on stderr at the end; -v 2:\n"
	"    also the congestion windows over time and what their bounds cost\n"
	"  trigger: confirmed by the node's trigger counter (re-sent while it stands still,\n"
	"    exit 1 when it never moves); unconfirmed, said on stderr, for a node without\n"
	"    one and for --broadcast\n"
	"  --quiet: no progress line on the terminal. Each command's own help, with ranges\n"
	"  and defaults: warpspeed iq CMD -h.\n";

/* "warpspeed iq" and, once the command is known, its name: every message's prefix. */
static char iq_prog[48] = "warpspeed iq";

const char *ws_cli_iq_prog(void) { return iq_prog; }

/* Each command's own text (iq CMD -h), then the transport options they share. */
static const char iq_transport[] =
	"Transport options (every command; defaults in parentheses):\n"
	"  --node-id N (0; 0..65535) --host-id N (250; 0..65535)\n"
	"  --max-payload B (8964; 68..65505: bytes of samples per packet)\n"
	"  --timeout-ms MS (100; 1..60000: a command's first wait, doubling up to 200)\n"
	"  --retries N (20; 1..255: most attempts of a command, and of a transfer's packet)\n"
	"  --budget-ms MS (2000; 1..600000: most time a command or a trigger's confirmation\n"
	"    takes, and a read or write goes without progress)\n"
	"  --idle-ms MS (10; 1..60000) --window SIZE (the receive buffer's; 1..1G)\n"
	"  --rcvbuf SIZE (64M) --sndbuf SIZE (512K) --pace-us US (0; 0..1000000)\n"
	"  --write-mode auto|fast|acked (auto) --trigger-port P (the node's port; 0..65535)\n"
	"  --write-rate MBPS (0: unpaced; 0..1000000, the node's link rate, e.g. 1000)\n"
	"  --stall-budget MS (20; 0..1000: windows may hold the last rate x (RTT + MS))\n"
	"  -v              the transport's counters on stderr at the end\n"
	"  -v 2            also the congestion windows over time and their bounds' memory\n"
	"  --quiet         no progress line on the terminal\n"
	"  -h, --help      this text\n"
	"NODE is ADDR[:PORT] (IPv4, port 9000 by default). Exit status: 0 done, 1 failed\n"
	"(the node, the network, a file), 2 bad usage.\n";

static const struct {
	const char *cmd, *text;
} iq_cmd_usage[] = {
	{"info",
	 "usage: warpspeed iq info NODE [transport options]\n"
	 "  The node's identity, RF interfaces, buffer sizes and packet size, and the\n"
	 "  host socket's granted buffers.\n"},
	{"ping",
	 "usage: warpspeed iq ping NODE [--count N] [transport options]\n"
	 "  PING round trips; --count N (3; 1..100000).\n"},
	{"read",
	 "usage: warpspeed iq read NODE[,NODE...] --rf A|B|C|D --samples N -o FILE[,FILE...]\n"
	 "                         [--start S] [--format cf32|ci16|sigmf] [--datatype T]\n"
	 "  Reads N samples (1..1G, K/M suffixes; at most the node's RX buffer) of one RF\n"
	 "  interface from sample S (0) into FILE: raw cf32 or ci16 (interleaved\n"
	 "  little-endian I, Q) or SigMF (.sigmf-meta + .sigmf-data), from the extension or\n"
	 "  --format; - is standard output (cf32 or ci16). --datatype cf32_le|ci16_le: a\n"
	 "  SigMF recording's type (ci16_le, the node's own samples). Several NODEs are read\n"
	 "  at once, one FILE each. Every FILE is checked before the network is used.\n"},
	{"rssi",
	 "usage: warpspeed iq rssi NODE --rf A|B|C|D --samples N [-o FILE]\n"
	 "  Reads the first N RSSI values (1..1G, K/M suffixes; at most the node's RX\n"
	 "  buffer, one value per RX sample) of one RF interface with READ_RSSI and prints\n"
	 "  them one a line (10-bit, 0..1023) on standard output, or into FILE with -o.\n"},
	{"write",
	 "usage: warpspeed iq write NODE[,NODE...] --rf A[,B...] -i FILE[,FILE...]\n"
	 "                          [--start S] [--format cf32|ci16|sigmf]\n"
	 "  Writes FILE's samples (raw cf32 / ci16 or SigMF, from the extension or\n"
	 "  --format) to the TX buffers named by --rf (letters A..D, or all), from sample\n"
	 "  S (0). One FILE for every NODE, or one per NODE.\n"},
	{"trigger",
	 "usage: warpspeed iq trigger NODE [--ids MASK] [--tx-en A,B] [--rx-en A,B]\n"
	 "       warpspeed iq trigger --broadcast ADDR[:PORT] [--ids MASK]\n"
	 "  Sends a trigger (--ids MASK, 1; 1..4294967295), after enabling the TX/RX\n"
	 "  buffers named. Confirmed by the node's trigger counter (re-sent while it\n"
	 "  stands still, exit 1 when it never moves); unconfirmed, said on stderr, for\n"
	 "  a node without one and for --broadcast.\n"},
	{"bench",
	 "usage: warpspeed iq bench [NODE[,NODE...]] --trials T --samples N[,N...]\n"
	 "                          [--rf A[,B...]] [--format raw|ci16|cf32] [--json]\n"
	 "                          [--json-file FILE] [--svg FILE [--reference warplab]\n"
	 "                          [--link MBPS]]\n"
	 "  WARPLab's wl_benchmark: per size, T Write IQ then T Read IQ calls, each timed\n"
	 "  whole; each size's row prints when that size is done.\n"
	 "  --trials T       6..100000 per size and direction; the first 5 are dropped, as\n"
	 "                   wl_benchmark does (Num Trials shows T; the JSON's \"trials\"\n"
	 "                   is T and \"kept\" T-5)\n"
	 "  --samples N,...  samples per buffer, 1..1G (K/M suffixes), at most 64 sizes\n"
	 "  --rf A[,B...]    buffers per call (default A)\n"
	 "  --format F       caller memory measured: raw (default, the node's words), ci16\n"
	 "                   or cf32\n"
	 "  --json           the rows as JSON on stdout instead of the table\n"
	 "  --json-file FILE the table on stdout and the JSON into FILE\n"
	 "  --svg FILE       Write and Read Mb/s against samples as a chart;\n"
	 "                   --reference warplab adds WARPLab 7.5.0's published series,\n"
	 "                   --link MBPS the link's ceiling line (1..10000000; default\n"
	 "                   --write-rate's)\n"
	 "  Without NODE, a built-in node emulator on loopback is measured.\n"},
};

const char *ws_cli_iq_transport_usage(void) { return iq_transport; }

const char *ws_cli_iq_usage_of(const char *cmd)
{
	for (size_t k = 0; k < sizeof iq_cmd_usage / sizeof iq_cmd_usage[0]; k++)
		if (!strcmp(cmd, iq_cmd_usage[k].cmd))
			return iq_cmd_usage[k].text;
	return NULL;
}

int ws_cli_iq_bad(const char *what, const char *val, const char *accepted)
{
	fprintf(stderr, "%s: %s '%s' is not valid (%s)\n", iq_prog, what, val, accepted);
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
			return ws_cli_iq_bad("--rf", s,
					     "letters A..D separated by commas, e.g. A,B, or all");
	}
	return *mask ? 0 : ws_cli_iq_bad("--rf", s, "at least one of A..D");
}

static int parse_one_node(const char *s, char addr[64], int *port)
{
	const char *colon = strrchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	struct in_addr a;
	if (n >= 64)
		return ws_cli_iq_bad("NODE", s, "ADDR[:PORT] with an IPv4 address");
	memcpy(addr, s, n);
	addr[n] = 0;
	if (inet_pton(AF_INET, addr, &a) != 1)
		return ws_cli_iq_bad("NODE", s,
				     "ADDR[:PORT] with an IPv4 address, e.g. 10.0.0.1:9000");
	if (colon) {
		long long p;
		if (ws_units_parse_int(colon + 1, 1, 65535, &p, NULL) < 0)
			return ws_cli_iq_bad("NODE port", colon + 1, "1..65535");
		*port = (int)p;
	}
	return 0;
}

/* NODE or NODE,NODE,... (at most WS_IQ_MANY_MAX); the first also into cfg. */
static int parse_node(const char *s, ws_cli_iq_opts *o)
{
	char buf[WS_IQ_MANY_MAX * 32];
	if (strlen(s) >= sizeof buf)
		return ws_cli_iq_bad("NODE", s, "a shorter list of ADDR[:PORT]");
	strcpy(buf, s);
	o->nnodes = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (o->nnodes == WS_IQ_MANY_MAX)
			return ws_cli_iq_bad("NODE", s, "at most 64 nodes");
		o->node_port[o->nnodes] = o->cfg.port;
		if (parse_one_node(t, o->node_addr[o->nnodes], &o->node_port[o->nnodes]))
			return 2;
		o->nnodes++;
	}
	if (!o->nnodes)
		return ws_cli_iq_bad("NODE", s, "ADDR[:PORT][,ADDR[:PORT]...]");
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
		return ws_cli_iq_bad(opt, s, acc);
	}
	*out = (uint32_t)v;
	return 0;
}

static int parse_sizes(const char *s, ws_cli_iq_opts *o)
{
	char buf[1024];
	if (strlen(s) >= sizeof buf)
		return ws_cli_iq_bad("--samples", s, "a shorter list");
	strcpy(buf, s);
	o->nsizes = 0;
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (o->nsizes == WS_CLI_IQ_MAX_SIZES)
			return ws_cli_iq_bad("--samples", s, "at most 64 sizes");
		if (parse_u32("--samples", t, 1, 1u << 30, &o->sizes[o->nsizes++], 1))
			return 2;
	}
	if (!o->nsizes)
		return ws_cli_iq_bad("--samples", s, "N[,N...]");
	o->samples = o->sizes[0];
	o->have_samples = 1;
	return 0;
}

enum {
	O_RF = 256,
	O_SAMPLES,
	O_START,
	O_FORMAT,
	O_DATATYPE,
	O_TRIALS,
	O_JSON,
	O_NODEID,
	O_HOSTID,
	O_PAYLOAD,
	O_TIMEOUT,
	O_IDLE,
	O_RETRIES,
	O_WINDOW,
	O_RCVBUF,
	O_SNDBUF,
	O_PACE,
	O_WMODE,
	O_TPORT,
	O_IDS,
	O_TXEN,
	O_RXEN,
	O_BCAST,
	O_COUNT,
	O_JSONFILE,
	O_BUDGET,
	O_WRATE,
	O_SVG,
	O_REFERENCE,
	O_LINK,
	O_QUIET,
	O_STALL
};

/* The options of every command: the getopt table is built from these rows, and
 * completion (cli/complete.h) offers each command the ones its help text names. A row
 * whose val is a letter is also the short option -letter. */
static const struct iq_opt {
	const char *name;
	const char *form; /* NULL: a switch (cli/words.h) */
	int val;
	/* clang-format off */
} iq_opts[] = {
	{"rf", "A|B|C|D|all", O_RF}, {"samples", "N", O_SAMPLES}, {"start", "S", O_START},
	{"format", "raw|ci16|cf32|sigmf", O_FORMAT}, {"datatype", "cf32_le|ci16_le", O_DATATYPE},
	{"trials", "T", O_TRIALS}, {"json", NULL, O_JSON}, {"node-id", "N", O_NODEID},
	{"host-id", "N", O_HOSTID}, {"max-payload", "B", O_PAYLOAD},
	{"timeout-ms", "MS", O_TIMEOUT}, {"idle-ms", "MS", O_IDLE},
	{"budget-ms", "MS", O_BUDGET}, {"write-rate", "MBPS", O_WRATE},
	{"stall-budget", "MS", O_STALL},
	{"retries", "N", O_RETRIES}, {"window", "SIZE", O_WINDOW},
	{"rcvbuf", "SIZE", O_RCVBUF}, {"sndbuf", "SIZE", O_SNDBUF}, {"pace-us", "US", O_PACE},
	{"write-mode", "auto|fast|acked", O_WMODE}, {"trigger-port", "P", O_TPORT},
	{"ids", "MASK", O_IDS}, {"tx-en", "A,B", O_TXEN}, {"rx-en", "A,B", O_RXEN},
	{"svg", "FILE", O_SVG}, {"reference", "warplab", O_REFERENCE}, {"link", "MBPS", O_LINK},
	{"broadcast", "ADDR[:PORT]", O_BCAST}, {"json-file", "FILE", O_JSONFILE},
	{"count", "N", O_COUNT}, {"output", "FILE", 'o'}, {"input", "FILE", 'i'},
	{"verbose", NULL, 'v'}, {"quiet", NULL, O_QUIET}, {"help", NULL, 'h'},
};
/* clang-format on */
#define NIQ_OPTS (sizeof iq_opts / sizeof iq_opts[0])

const char *ws_cli_iq_command(size_t i)
{
	return i < sizeof iq_cmd_usage / sizeof iq_cmd_usage[0] ? iq_cmd_usage[i].cmd : NULL;
}

/* True when text names word as an option: "--rf" in "--rf A", not in "--rfx". */
static bool names(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
		char before = p == text ? ' ' : p[-1], after = p[n];
		if ((!after || !strchr("-abcdefghijklmnopqrstuvwxyz0123456789", after)) &&
		    (before == ' ' || before == '[' || before == ','))
			return true;
	}
	return false;
}

void ws_cli_iq_words(const char *cmd, ws_cli_word_fn fn, void *ctx)
{
	const char *text = ws_cli_iq_usage_of(cmd);
	for (size_t k = 0; text && k < NIQ_OPTS; k++) {
		char w[40];
		for (int pass = 0; pass < 2; pass++) {
			if (pass == 0)
				snprintf(w, sizeof w, "--%s", iq_opts[k].name);
			else if (iq_opts[k].val < 128)
				snprintf(w, sizeof w, "-%c", iq_opts[k].val);
			else
				break;
			if (names(text, w) || names(iq_transport, w))
				fn(ctx, w, iq_opts[k].form);
		}
	}
}

static int parse_transport(int c, const char *a, const char *name, ws_iq_config *cfg)
{
	uint32_t v = 0;
	int r = 0;
	switch (c) {
	case O_NODEID:
		r = parse_u32(name, a, 0, 65535, &v, 0);
		cfg->node_id = (uint16_t)v;
		break;
	case O_HOSTID:
		r = parse_u32(name, a, 0, 65535, &v, 0);
		cfg->host_id = (uint16_t)v;
		break;
	case O_PAYLOAD:
		r = parse_u32(name, a, 68, 65505, &cfg->max_payload, 0);
		break;
	case O_TIMEOUT:
		r = parse_u32(name, a, 1, 60000, &cfg->timeout_ms, 0);
		break;
	case O_IDLE:
		r = parse_u32(name, a, 1, 60000, &cfg->idle_ms, 0);
		break;
	case O_RETRIES: /* a transfer's retries and a command's attempts alike */
		r = parse_u32(name, a, 1, 255, &v, 0);
		cfg->retries = cfg->cmd_tries = (int)v;
		break;
	case O_BUDGET:
		r = parse_u32(name, a, 1, 600000, &cfg->budget_ms, 0);
		break;
	case O_STALL:
		r = parse_u32(name, a, 0, WS_IQ_STALL_BUDGET_MAX_MS, &cfg->stall_budget_ms, 0);
		break;
	case O_WINDOW:
		r = parse_u32(name, a, 1, 1u << 30, &cfg->window, 1);
		break;
	case O_RCVBUF:
		r = parse_u32(name, a, 1, 1u << 30, &v, 1);
		cfg->rcvbuf = (int)v;
		break;
	case O_SNDBUF:
		r = parse_u32(name, a, 1, 1u << 30, &v, 1);
		cfg->sndbuf = (int)v;
		break;
	case O_PACE:
		r = parse_u32(name, a, 0, 1000000, &v, 0);
		cfg->pace_ns = v * 1000;
		break;
	case O_WRATE: { /* 10^6 bits/s of Ethernet frames */
		double mbps;
		if (ws_units_parse_double(a, 0, 1e6, &mbps, NULL) < 0)
			return ws_cli_iq_bad(
				name, a, "Mb/s of frames, 0..1000000, e.g. 1000 for a GbE node");
		cfg->write_rate_bps = (uint64_t)(mbps * 1e6);
		break;
	}
	case O_TPORT:
		r = parse_u32(name, a, 0, 65535, &v, 0);
		cfg->trigger_port = (int)v;
		break;
	case O_WMODE:
		if (!strcmp(a, "auto"))
			cfg->write_mode = WS_IQ_WRITE_AUTO;
		else if (!strcmp(a, "fast"))
			cfg->write_mode = WS_IQ_WRITE_FAST;
		else if (!strcmp(a, "acked"))
			cfg->write_mode = WS_IQ_WRITE_ACKED;
		else
			return ws_cli_iq_bad(name, a, "auto, fast or acked");
		break;
	default:
		return -1;
	}
	return r;
}

static int parse_one(int c, const char *a, const char *name, ws_cli_iq_opts *o)
{
	ws_err e;
	int r = parse_transport(c, a, name, &o->cfg);
	if (r >= 0)
		return r;
	switch (c) {
	case O_RF:
		return parse_rf(a, &o->rf);
	case O_SAMPLES:
		return parse_sizes(a, o);
	case O_START:
		return parse_u32(name, a, 0, 1u << 30, &o->start, 1);
	case O_FORMAT:
		o->format = a;
		if (strcmp(a, "raw") && ws_iqfile_kind_parse(a, &o->kind, &e) < 0)
			return ws_cli_iq_bad(
				name, a, "cf32, ci16 or sigmf (files); raw, ci16 or cf32 (bench)");
		return 0;
	case O_DATATYPE:
		if (strcmp(a, "cf32_le") && strcmp(a, "ci16_le"))
			return ws_cli_iq_bad(name, a, "cf32_le or ci16_le");
		o->sigmf_cf32 = a[1] == 'f';
		return 0;
	case O_TRIALS: {
		char acc[96];
		snprintf(acc, sizeof acc, "%d..%d; the first %d are dropped, as wl_benchmark does",
			 WS_IQ_BENCH_DROP + 1, WS_IQ_BENCH_MAX_TRIALS, WS_IQ_BENCH_DROP);
		long long ll;
		if (ws_units_parse_int(a, WS_IQ_BENCH_DROP + 1, WS_IQ_BENCH_MAX_TRIALS, &ll, NULL) <
		    0)
			return ws_cli_iq_bad(name, a, acc);
		o->trials = (int)ll;
		return 0;
	}
	case O_JSON:
		o->json = 1;
		return 0;
	case O_IDS:
		return parse_u32(name, a, 1, UINT32_MAX, &o->ids, 0);
	case O_TXEN:
		return parse_rf(a, &o->tx_en);
	case O_RXEN:
		return parse_rf(a, &o->rx_en);
	case O_BCAST:
		o->bcast = a;
		return 0;
	case O_JSONFILE:
		o->json_file = a;
		return 0;
	case O_SVG:
		o->svg = a;
		return 0;
	case O_REFERENCE:
		if (strcmp(a, "warplab"))
			return ws_cli_iq_bad(
				name, a,
				"warplab (WARPLab 7.5.0's published wl_benchmark figures)");
		o->reference_warplab = 1;
		return 0;
	case O_LINK:
		if (ws_units_parse_double(a, 1, 1e7, &o->link_mbps, NULL) < 0)
			return ws_cli_iq_bad(
				name, a, "the link's rate in 10^6 bits/s, 1..10000000, e.g. 1000");
		return 0;
	case O_COUNT: {
		uint32_t v;
		r = parse_u32(name, a, 1, 100000, &v, 0);
		o->count = (int)v;
		return r;
	}
	case 'o':
		o->out = a;
		return 0;
	case 'i':
		o->in = a;
		return 0;
	case 'v':
		o->verbose = 1;
		return 0;
	case O_QUIET:
		o->quiet = 1;
		return 0;
	default:
		return 2;
	}
}

/* Options into o; the positional NODE, if any, too. Returns 0, 2 (usage) or 3 (help). */
int ws_cli_iq_parse(int argc, char **argv, ws_cli_iq_opts *o)
{
	memset(o, 0, sizeof *o);
	ws_iq_config_default(&o->cfg);
	o->ids = 1;
	o->count = 3;
	optind = 1;
	opterr = 0;
	static const char *const cmds[] = {"info",    "ping",  "read", "write",
					   "trigger", "bench", "rssi"};
	for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++)
		if (argc > 0 && !strcmp(argv[0], cmds[k]))
			snprintf(iq_prog, sizeof iq_prog, "warpspeed iq %s", cmds[k]);
	struct option longopts[NIQ_OPTS + 1];
	for (size_t k = 0; k < NIQ_OPTS; k++)
		longopts[k] = (struct option){iq_opts[k].name,
					      iq_opts[k].form ? required_argument : no_argument,
					      NULL, iq_opts[k].val};
	longopts[NIQ_OPTS] = (struct option){NULL, 0, NULL, 0};
	for (;;) {
		int idx = -1, c = getopt_long(argc, argv, ":ho:i:v", longopts, &idx);
		if (c == -1)
			break;
		char name[40];
		if (idx >= 0)
			snprintf(name, sizeof name, "--%s", longopts[idx].name);
		else
			snprintf(name, sizeof name, "-%c", c);
		if (c == 'h')
			return 3;
		if (c == '?' || c == ':') {
			fprintf(stderr, "%s: %s option '%s'\n%s", iq_prog,
				c == '?' ? "unknown" : "missing value for", argv[optind - 1],
				iq_usage);
			return 2;
		}
		int r = parse_one(c, optarg, name, o);
		if (r)
			return r;
		/* -v 2 (the level as a word of its own: no NODE is a bare digit) */
		if (c == 'v' && optind < argc && strlen(argv[optind]) == 1 &&
		    argv[optind][0] >= '0' && argv[optind][0] <= '2')
			o->verbose = argv[optind++][0] - '0';
	}
	if (optind < argc && parse_node(argv[optind++], o))
		return 2;
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n", iq_prog, argv[optind]);
		return 2;
	}
	return 0;
}

const char *ws_cli_iq_usage(void) { return iq_usage; }
