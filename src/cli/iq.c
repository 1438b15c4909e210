/* iq: `warpspeed iq`, the command line of the IQ host transport (include/warpspeed/iq.h).
 *
 * WARPLab users script info / read / write / trigger and wl_benchmark from MATLAB; this
 * gives them the same operations from a shell, with IQ files (raw cf32 / ci16, SigMF) in
 * place of MATLAB arrays, and `bench` printing wl_benchmark's table. Without a NODE, bench
 * runs the node emulator in a thread on loopback so that `make run` needs nothing else.
 * Usage errors exit 2, runtime failures 1, each with one line naming the problem. */
#include "cli/iq.h"

#include "cli/iqopts.h"
#include "cli/progress.h"

#include <warpspeed/iq.h>

#include "iq/host/bench.h"
#include "report/charts.h"
#include "iq/host/iqfile.h"
#include "iq/node/node_thread.h"
#include "util/err.h"
#include "util/safefile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int open_node(const ws_cli_iq_opts *o, ws_iq_node **n)
{
	ws_iq_error e;
	if (ws_iq_open(&o->cfg, n, &e) < 0) {
		fprintf(stderr, "warpspeed iq: %s\n", e.msg);
		return 1;
	}
	return 0;
}

static int need_node(const ws_cli_iq_opts *o, const char *cmd)
{
	if (o->have_node &&
	    (o->nnodes == 1 || !strcmp(cmd, "read") || !strcmp(cmd, "write") ||
	     !strcmp(cmd, "bench")))
		return 0;
	fprintf(stderr, "warpspeed iq %s: %s is required\n", cmd,
		o->have_node ? "exactly one "
			       "NODE"
			     : "NODE (ADDR[:PORT])");
	return 2;
}

/* Opens every NODE of the list into n[0..nnodes); on failure none stays open. */
static int open_nodes(const ws_cli_iq_opts *o, ws_iq_node **n)
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
static int split_files(const char *opt, const char *s, size_t nn, int shared, char *buf, size_t cap,
		       const char **out)
{
	size_t k = 0;
	if (strlen(s) >= cap)
		return ws_cli_iq_bad(opt, s, "a shorter list of files");
	strcpy(buf, s);
	for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (k < nn)
			out[k++] = t;
		else
			return ws_cli_iq_bad(opt, s, "one file per NODE");
	if (k == 1 && shared)
		while (k < nn)
			out[k++] = out[0];
	if (k != nn)
		return ws_cli_iq_bad(opt, s,
				     shared ? "one file, or one per NODE"
					    : "one file per NODE, "
					      "separated by commas");
	return 0;
}

static int refuse_raw(const ws_cli_iq_opts *o, const char *cmd)
{
	if (!o->format || strcmp(o->format, "raw"))
		return 0;
	fprintf(stderr,
		"warpspeed iq %s: --format raw is for bench; files are cf32, ci16 or "
		"sigmf\n",
		cmd);
	return 2;
}

/* ---- info, ping ---- */

static int cmd_info(const ws_cli_iq_opts *o)
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
	       "RX length %u\n",
	       i.num_rf, i.max_tx_samples, i.max_rx_samples, i.tx_length, i.rx_length);
	printf("  payload %u bytes: %u samples per packet (%u-byte sample packets)\n",
	       i.max_payload, i.samples_per_packet, i.packet_size);
	printf("  host socket: SO_RCVBUF %d, SO_SNDBUF %d bytes granted; Read IQ window %u "
	       "bytes\n",
	       i.rcvbuf, i.sndbuf, i.window);
	ws_iq_close(n);
	return 0;
}

static int cmd_ping(const ws_cli_iq_opts *o)
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

/* -v: the transport's counters, junk and duplicates included, on stderr. */
static void print_stats(ws_iq_node *n)
{
	ws_iq_stats s;
	ws_iq_get_stats(n, &s);
	fprintf(stderr,
		"transport: commands=%llu command_retries=%llu read_calls=%llu "
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

/* ---- read, write ---- */

/* The read files' kind and the format read into memory ("-": raw, ci16 unless --format). */
static int read_kind(const ws_cli_iq_opts *o, const char *path, ws_iqfile_kind *kind,
		     ws_iq_format *fmt)
{
	*kind = o->kind ? o->kind : ws_iqfile_kind_of_path(path);
	if (!strcmp(path, "-") && *kind == WS_IQFILE_AUTO)
		*kind = WS_IQFILE_CI16;
	if (*kind == WS_IQFILE_AUTO)
		return ws_cli_iq_bad("-o", path,
				     "a name ending .cf32, .ci16 or .sigmf-meta/.sigmf-data, "
				     "or --format cf32|ci16|sigmf");
	if (!strcmp(path, "-") && *kind == WS_IQFILE_SIGMF)
		return ws_cli_iq_bad("-o", path,
				     "raw cf32 or ci16 on standard output; SigMF is two files");
	*fmt = *kind == WS_IQFILE_CF32 || (*kind == WS_IQFILE_SIGMF && o->sigmf_cf32)
		? WS_IQ_FMT_CF32
		: WS_IQ_FMT_CI16;
	return 0;
}

/* Writes node k's samples into its open file; says what was read (on stderr when the
 * samples themselves go to standard output). */
static int save_read(const ws_cli_iq_opts *o, size_t k, ws_iq_node *n, const char *path,
		     ws_iqfile_out *out, ws_iq_format fmt, const void *buf)
{
	ws_iq_info i;
	ws_err fe;
	char hw[96];
	ws_iq_get_info(n, &i);
	snprintf(hw, sizeof hw, "WARP v3 W3-a-%05u, WARPLab %u.%u.%u, RF_%c", i.serial, i.wl_major,
		 i.wl_minor, i.wl_rev, 'A' + __builtin_ctz(o->rf));
	int dash = !strcmp(path, "-");
	if (ws_iqfile_finish(out, fmt, buf, o->samples, WS_IQ_BENCH_RATE, hw, &fe) < 0) {
		fprintf(stderr, "warpspeed iq: %s\n", fe.msg);
		return 1;
	}
	fprintf(dash ? stderr : stdout, "read %u samples of RF_%c from %s:%d into %s\n", o->samples,
		'A' + __builtin_ctz(o->rf), o->node_addr[k], o->node_port[k],
		dash ? "standard output" : path);
	return 0;
}

/* One read or write of every node under the progress line (cli/progress.h): the library
 * call has no progress callback, so the line says what runs and for how long, from half
 * a second on (a quick transfer draws nothing). */
static int transfer_read(const ws_cli_iq_opts *o, ws_iq_many_item *it, size_t nn, ws_iq_format fmt,
			 ws_iq_error *e)
{
	ws_cli_progress p;
	char label[128];
	snprintf(label, sizeof label, "iq read: %u samples of RF_%c from %zu node%s", o->samples,
		 'A' + __builtin_ctz(o->rf), nn, nn == 1 ? "" : "s");
	ws_cli_progress_init(&p, ws_cli_progress_allowed(o->quiet));
	ws_cli_progress_tick_start(&p, 0.5, label);
	int r = ws_iq_read_many(it, nn, fmt, e);
	ws_cli_progress_tick_stop(&p);
	return r;
}

static int transfer_write(const ws_cli_iq_opts *o, ws_iq_many_item *it, size_t nn, ws_iq_format fmt,
			  uint32_t count, ws_iq_error *e)
{
	ws_cli_progress p;
	char label[128];
	snprintf(label, sizeof label, "iq write: %u samples to TX buffer mask 0x%x of %zu node%s",
		 count, o->rf, nn, nn == 1 ? "" : "s");
	ws_cli_progress_init(&p, ws_cli_progress_allowed(o->quiet));
	ws_cli_progress_tick_start(&p, 0.5, label);
	int r = ws_iq_write_many(it, nn, fmt, e);
	ws_cli_progress_tick_stop(&p);
	return r;
}

/* What read lacks, one thing at a time, each named: 0 or 2 after the message. */
static int read_needs(const ws_cli_iq_opts *o)
{
	char rf[16] = "";
	for (int b = 0; b < 4; b++)
		if (o->rf & (1u << b))
			snprintf(rf + strlen(rf), sizeof rf - strlen(rf), "%s%c", rf[0] ? "," : "",
				 'A' + b);
	const char *what = !o->rf     ? "needs --rf A|B|C|D (the one RF interface to read)"
		: o->rf & (o->rf - 1) ? NULL
		: !o->have_samples    ? "needs --samples N (how many samples to read)"
		: !o->out             ? "needs -o FILE (where the samples go; one per "
					"NODE, separated by commas)"
				      : "";
	if (!what)
		fprintf(stderr,
			"warpspeed iq read: --rf %s names %d interfaces; read takes one (A, B, C "
			"or D): run one read per interface\n",
			rf, __builtin_popcount(o->rf));
	else if (*what)
		fprintf(stderr, "warpspeed iq read: %s\n", what);
	return what && !*what ? 0 : 2;
}

static int cmd_read(const ws_cli_iq_opts *o)
{
	int r = need_node(o, "read");
	if (r || (r = refuse_raw(o, "read")))
		return r;
	if ((r = read_needs(o)))
		return r;
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
			return ws_cli_iq_bad("-o", o->out,
					     "files of one sample type (all cf32 or all ci16)");
	/* Every file is opened before any network work: a name that cannot be written
	 * costs no transfer. */
	ws_iqfile_out *out = calloc(nn, sizeof *out);
	if (!out) {
		fprintf(stderr, "warpspeed iq read: out of memory\n");
		return 1;
	}
	size_t opened = 0;
	for (; opened < nn && r == 0; opened++) {
		ws_err fe;
		if (ws_iqfile_create(&out[opened], path[opened], kind[opened], &fe) < 0) {
			fprintf(stderr, "warpspeed iq read: -o: %s\n", fe.msg);
			r = 2;
			break;
		}
	}
	ws_iq_node *n[WS_IQ_MANY_MAX];
	if (r == 0)
		r = open_nodes(o, n);
	if (r) {
		for (size_t k = 0; k < opened; k++)
			ws_iqfile_discard(&out[k]);
		free(out);
		return r;
	}
	void *buf[WS_IQ_MANY_MAX] = {0};
	ws_iq_many_item it[WS_IQ_MANY_MAX];
	for (size_t k = 0; k < nn; k++) {
		buf[k] = malloc((size_t)o->samples * ws_iq_format_size(fmt[0]));
		it[k] = (ws_iq_many_item){.node = n[k],
					  .rf_mask = o->rf,
					  .start = o->start,
					  .count = o->samples,
					  .dst = &buf[k]};
		if (!buf[k])
			r = 1;
	}
	ws_iq_error e;
	if (r)
		fprintf(stderr, "warpspeed iq read: out of memory for %u samples\n", o->samples);
	else if (transfer_read(o, it, nn, fmt[0], &e) < 0) {
		fprintf(stderr, "warpspeed iq: %s (no file written)\n",
			nn > 1 ? e.msg : it[0].err.msg);
		r = 1;
	}
	for (size_t k = 0; r == 0 && k < nn; k++)
		r = save_read(o, k, n[k], path[k], &out[k], fmt[0], buf[k]);
	for (size_t k = 0; k < nn; k++) {
		ws_iqfile_discard(&out[k]);
		free(buf[k]);
		if (o->verbose)
			print_stats(n[k]);
	}
	free(out);
	close_nodes(n, nn);
	return r;
}

static int cmd_write(const ws_cli_iq_opts *o)
{
	int r = need_node(o, "write");
	if (r || (r = refuse_raw(o, "write")))
		return r;
	if (!o->rf || !o->in) {
		fprintf(stderr, "warpspeed iq write: needs %s\n",
			!o->rf ? "--rf A[,B...] (the TX buffers to write)"
			       : "-i FILE (the samples; one for all NODEs, or one per NODE)");
		return 2;
	}
	size_t nn = o->nnodes;
	char names[4096];
	const char *path[WS_IQ_MANY_MAX];
	if ((r = split_files("-i", o->in, nn, 1, names, sizeof names, path)))
		return r;
	for (size_t k = 0; k < nn; k++) { /* a bad file costs no network work */
		ws_err fe;
		ws_iqfile_kind kind = o->kind ? o->kind : ws_iqfile_kind_of_path(path[k]);
		if (kind == WS_IQFILE_AUTO)
			return ws_cli_iq_bad(
				"-i", path[k],
				"a name ending .cf32, .ci16 or "
				".sigmf-meta/.sigmf-data, or --format cf32|ci16|sigmf");
		if (ws_iqfile_check_input(path[k], kind, &fe) < 0) {
			fprintf(stderr, "warpspeed iq write: -i: %s\n", fe.msg);
			return 2;
		}
	}
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
		if (ws_iqfile_load(path[k], kind, room, &d[k], &fe) < 0) {
			fprintf(stderr, "warpspeed iq: %s\n", fe.msg);
			r = 1;
		} else if (d[k].fmt != d[0].fmt || d[k].count != d[0].count) {
			r = ws_cli_iq_bad("-i", o->in, "files of one sample type and length");
		}
		for (int b = 0; b < 4; b++)
			src[k][b] = d[k].samples;
		it[k] = (ws_iq_many_item){.node = n[k],
					  .rf_mask = o->rf,
					  .start = o->start,
					  .count = d[k].count,
					  .src = src[k]};
	}
	ws_iq_error e;
	if (r == 0 && transfer_write(o, it, nn, d[0].fmt, d[0].count, &e) < 0) {
		fprintf(stderr, "warpspeed iq: %s\n", nn > 1 ? e.msg : it[0].err.msg);
		r = 1;
	}
	for (size_t k = 0; r == 0 && k < nn; k++)
		printf("wrote %u samples from %s to TX buffer mask 0x%x of %s:%d\n", d[k].count,
		       path[k], o->rf, o->node_addr[k], o->node_port[k]);
	for (size_t k = 0; k < nn; k++) {
		ws_iqfile_free(&d[k]);
		if (o->verbose)
			print_stats(n[k]);
	}
	close_nodes(n, nn);
	return r;
}

/* ---- trigger ---- */

static int cmd_trigger(const ws_cli_iq_opts *o)
{
	ws_iq_error e;
	if (o->bcast) {
		char a[64];
		const char *colon = strrchr(o->bcast, ':');
		size_t len = colon ? (size_t)(colon - o->bcast) : strlen(o->bcast);
		int port = colon ? atoi(colon + 1) : WS_NODE_DEFAULT_BCAST_PORT;
		if (len >= sizeof a)
			return ws_cli_iq_bad("--broadcast", o->bcast, "ADDR[:PORT]");
		memcpy(a, o->bcast, len);
		a[len] = 0;
		if (ws_iq_trigger_broadcast(a, port, o->cfg.host_id, o->ids, &e) < 0) {
			fprintf(stderr, "warpspeed iq: %s\n", e.msg);
			return e.code == -WS_E_INVAL ? 2 : 1;
		}
		printf("trigger 0x%x broadcast to %s:%d, unconfirmed\n", o->ids, a, port);
		fprintf(stderr,
			"warpspeed iq: warning: broadcast triggers are unconfirmed: WARPLab "
			"triggers are not acknowledged, and a lost one leaves the RX buffers as "
			"they "
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
		       "%llu to %llu; %d trigger%s sent)\n",
		       o->ids, o->addr, o->cfg.port, (unsigned long long)res.before,
		       (unsigned long long)res.after, res.sent, res.sent == 1 ? "" : "s");
	if (!r && res.status == WS_IQ_TRIGGER_UNCONFIRMED)
		fprintf(stderr,
			"warpspeed iq: warning: node %s:%d has no trigger counter (a WARPLab "
			"board or an older warpspeed node), so this trigger is unconfirmed: "
			"WARPLab "
			"triggers are not acknowledged, and a lost one leaves the RX buffers as "
			"they "
			"were\n",
			o->addr, o->cfg.port);
	ws_iq_close(n);
	return r;
}

/* ---- bench ---- */

/* The built-in node (no NODE given): the library runs it, this only says so. */
static int builtin_start(ws_node_thread **b, ws_cli_iq_opts *o, FILE *note)
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
	fprintf(note,
		"no NODE given: benchmarking a built-in node emulator (warpspeed node, "
		"%d RF) on 127.0.0.1:%d, loopback, no rate limit\n",
		c.rf, ni.port);
	return 0;
}

/* "1000 Mb/s" for the title (a static buffer: one chart per run). */
static const char *link_text(const ws_cli_iq_opts *o)
{
	static char t[32];
	snprintf(t, sizeof t, "%g Mb/s", o->link_mbps);
	return t;
}

/* --svg: node 1's rows (the aggregate of several nodes), mean Mb/s, as a chart into sf. */
static int bench_svg(const ws_cli_iq_opts *o, ws_safefile *sf, const ws_iq_bench_head *h,
		     const ws_iq_bench_row *rows, const ws_iq_bench_row *agg, bool builtin)
{
	size_t n = o->nsizes;
	double *v = malloc(3 * n * sizeof *v);
	if (!v) {
		fprintf(stderr, "warpspeed iq bench: cannot write %s (no memory)\n", o->svg);
		ws_safefile_abort(sf);
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
	/* The title says where it was measured: the built-in node on loopback, or the node
	 * named (and the link, when --link gives it). */
	char title[160];
	if (builtin)
		snprintf(title, sizeof title, "IQ transfer speed, built-in node on loopback");
	else
		snprintf(title, sizeof title, "IQ transfer speed, node %s:%d%s%s%s",
			 o->node_addr[0], o->node_port[0], o->nnodes > 1 ? " and others" : "",
			 o->link_mbps > 0 ? ", link " : "", o->link_mbps > 0 ? link_text(o) : "");
	ws_chart_opts co = {.title = title,
			    .reference_warplab = o->reference_warplab,
			    .link_mbps = o->link_mbps > 0 ? o->link_mbps
							  : (double)o->cfg.write_rate_bps / 1e6};
	ws_err e;
	int r = ws_chart_iq(sf->f, &s, 1, h[0].pkt_size, &co, &e);
	if (r == 0)
		r = ws_safefile_commit(sf, &e);
	ws_safefile_abort(sf);
	free(v);
	if (r < 0) {
		fprintf(stderr, "warpspeed iq bench: --svg %s: %s\n", o->svg, e.msg);
		return 1;
	}
	return 0;
}

/* The table or JSON to f; heads of every node. */
static void bench_print(FILE *f, const ws_cli_iq_opts *o, int json, const ws_iq_bench_head *h,
			const ws_iq_bench_row *rows, const ws_iq_bench_row *agg,
			const ws_iq_bench_trial *tr)
{
	const ws_iq_bench_row *a = o->nnodes > 1 ? agg : NULL;
	if (json)
		ws_iq_bench_json_many(f, h, o->nnodes, rows, a, o->nsizes, tr);
	else
		ws_iq_bench_table_many(f, h, o->nnodes, rows, a, o->nsizes);
}

/* Under the table: what Num Trials counts, beside the JSON's "trials" and "kept", and how
 * many trials the host disturbed (tr: every trial of the run). */
static void bench_note(const ws_cli_iq_opts *o, const ws_iq_bench_trial *tr)
{
	ws_iq_bench_disturb d;
	ws_iq_bench_disturb_of(&d, tr, o->nsizes * o->nnodes * 2 * (size_t)o->trials);
	printf("Num Trials: trials run per size and direction; the first %d are dropped, as "
	       "wl_benchmark does, so each average is over the last %d (JSON \"trials\": %d, "
	       "\"kept\": %d)\n",
	       WS_IQ_BENCH_DROP, o->trials - WS_IQ_BENCH_DROP, o->trials,
	       o->trials - WS_IQ_BENCH_DROP);
	ws_iq_bench_disturb_note(stdout, &d);
}

/* The progress line of a bench (cli/progress.h): where it is and the last call's rate. */
typedef struct bench_progress {
	ws_cli_progress p;
	const ws_cli_iq_opts *o;
	size_t size_i;  /* the size running, 0-based */
	long done, all; /* calls made and to make, over every size and direction */
	double bits;    /* bits per call, every node and buffer */
} bench_progress;

static void bench_trial(void *ctx, uint32_t samples, int write, int trial, int64_t ns)
{
	bench_progress *b = ctx;
	b->done++;
	ws_cli_progress_draw(&b->p, false,
			     "iq bench: %u samples (size %zu/%zu), %s trial %d/%d, %.0f Mb/s  "
			     "[%ld/%ld calls, %.1f s]",
			     samples, b->size_i + 1, b->o->nsizes, write ? "Write IQ" : "Read IQ",
			     trial, b->o->trials, ns > 0 ? b->bits * 1e3 / (double)ns : 0.0,
			     b->done, b->all, ws_cli_progress_elapsed(&b->p));
}

/* The table's rows of size i as soon as that size is done: the first size with the
 * header, later ones without it (the columns' widths come from the names and the heads,
 * which every size shares). */
static void bench_table_size(const ws_cli_iq_opts *o, const ws_iq_bench_head *h, size_t i,
			     const ws_iq_bench_row *rows, const ws_iq_bench_row *agg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return;
	ws_iq_bench_table_many(mem, h, o->nnodes, &rows[i * o->nnodes],
			       o->nnodes > 1 ? &agg[i] : NULL, 1);
	fclose(mem);
	const char *p = text;
	for (int skip = i ? 2 : 0; skip > 0 && p; skip--) /* the header and its rule */
		if ((p = strchr(p, '\n')))
			p++;
	if (p)
		fputs(p, stdout);
	fflush(stdout); /* at once, also through a pipe */
	free(text);
}

/* One run of every size, a size at a time so that each row prints when it is done; the
 * seed of size i is the one a single run of every size gives it (bench.c: seed + i). */
static int bench_sizes(ws_cli_iq_opts *o, ws_iq_node **n, ws_iq_format fmt, ws_iq_bench_head *h,
		       ws_iq_bench_row *rows, ws_iq_bench_row *agg, ws_iq_bench_trial *tr,
		       ws_err *e)
{
	size_t nn = o->nnodes;
	int nb = __builtin_popcount(o->rf);
	bench_progress bp = {.o = o, .all = (long)o->nsizes * 2 * o->trials};
	ws_cli_progress_init(&bp.p, ws_cli_progress_allowed(o->quiet));
	for (size_t k = 0; k < nn; k++) {
		ws_iq_info i;
		ws_iq_get_info(n[k], &i);
		ws_iq_bench_head_from(&h[k], &i, o->cfg.node_id);
		ws_iq_bench_head_format(&h[k], fmt);
	}
	int r = 0;
	for (size_t i = 0; r == 0 && i < o->nsizes; i++) {
		ws_iq_bench_config c = {.trials = o->trials,
					.sizes = &o->sizes[i],
					.nsizes = 1,
					.rf_mask = o->rf,
					.seed = 1 + (uint32_t)i,
					.fmt = fmt,
					.on_trial = bench_trial,
					.ctx = &bp,
					.trial_out = tr + i * nn * 2 * (size_t)o->trials};
		bp.size_i = i;
		bp.bits = (double)o->sizes[i] * nb * (double)nn * 32;
		ws_cli_progress_draw(&bp.p, true,
				     "iq bench: %u samples (size %zu/%zu), starting  "
				     "[%ld/%ld calls, %.1f s]",
				     o->sizes[i], i + 1, o->nsizes, bp.done, bp.all,
				     ws_cli_progress_elapsed(&bp.p));
		r = ws_iq_bench_run_many(n, nn, &c, &rows[i * nn], &agg[i], e);
		ws_cli_progress_clear(&bp.p);
		if (r == 0 && !o->json)
			bench_table_size(o, h, i, rows, agg);
	}
	for (size_t k = 0; r == 0 && k < nn; k++) {
		ws_iq_stats st;
		ws_iq_get_stats(n[k], &st);
		ws_iq_bench_head_stats(&h[k], &st);
	}
	return r;
}

/* Opens --json-file and --svg before any work (a name that cannot be written costs no
 * benchmark): 0, or 2 after the message. */
static int bench_files(const ws_cli_iq_opts *o, ws_safefile *jf, ws_safefile *svg)
{
	ws_err fe;
	if (o->json_file && ws_safefile_open(jf, o->json_file, 0, &fe) < 0) {
		fprintf(stderr, "warpspeed iq bench: --json-file: %s\n", fe.msg);
		return 2;
	}
	if (o->svg && ws_safefile_open(svg, o->svg, 0, &fe) < 0) {
		fprintf(stderr, "warpspeed iq bench: --svg: %s\n", fe.msg);
		ws_safefile_abort(jf);
		return 2;
	}
	return 0;
}

static int cmd_bench(ws_cli_iq_opts *o)
{
	ws_iq_format fmt = WS_IQ_FMT_BE32;
	if (!o->trials || !o->nsizes) {
		fprintf(stderr,
			"warpspeed iq bench: needs --trials T (%d..%d; the first %d are dropped) "
			"and --samples N[,N...]\n",
			WS_IQ_BENCH_DROP + 1, WS_IQ_BENCH_MAX_TRIALS, WS_IQ_BENCH_DROP);
		return 2;
	}
	if (o->format && ws_iq_bench_format_parse(o->format, &fmt) < 0)
		return ws_cli_iq_bad("--format", o->format, "raw, ci16 or cf32 for bench");
	if ((o->reference_warplab || o->link_mbps > 0) && !o->svg) {
		fprintf(stderr,
			"warpspeed iq bench: --reference and --link draw on the chart; add "
			"--svg FILE\n");
		return 2;
	}
	if (!o->rf)
		o->rf = WS_IQ_RF_A;
	ws_safefile jf = {0}, svg = {0};
	if (bench_files(o, &jf, &svg))
		return 2;
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
	ws_iq_bench_trial *tr = calloc(o->nsizes * nn * 2 * (size_t)o->trials, sizeof *tr);
	ws_iq_bench_head h[WS_IQ_MANY_MAX];
	ws_err e, fe;
	if (r == 0 && (!rows || !agg || !tr)) {
		fprintf(stderr, "warpspeed iq bench: out of memory\n");
		r = 1;
	} else if (r == 0 && bench_sizes(o, n, fmt, h, rows, agg, tr, &e) < 0) {
		/* the library's "bench: " would follow the program's own name */
		fprintf(stderr, "warpspeed iq bench: %s\n",
			strncmp(e.msg, "bench: ", 7) ? e.msg : e.msg + 7);
		r = e.code == WS_E_INVAL ? 2 : 1;
	}
	if (r == 0) {
		if (o->json)
			bench_print(stdout, o, 1, h, rows, agg, tr);
		else
			bench_note(o, tr);
		if (jf.f) {
			bench_print(jf.f, o, 1, h, rows, agg, tr);
			if (ws_safefile_commit(&jf, &fe) < 0) {
				fprintf(stderr, "warpspeed iq bench: --json-file: %s\n", fe.msg);
				r = 1;
			}
		}
		if (r == 0 && o->svg)
			r = bench_svg(o, &svg, h, rows, agg, b != NULL);
	}
	for (size_t k = 0; k < nn && o->verbose; k++)
		if (n[k])
			print_stats(n[k]);
	ws_safefile_abort(&jf);
	ws_safefile_abort(&svg);
	free(rows);
	free(agg);
	free(tr);
	close_nodes(n, nn);
	ws_node_thread_stop(b, NULL);
	return r;
}

int ws_cli_iq_main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(ws_cli_iq_usage(), argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	const char *cmd = argv[1];
	ws_cli_iq_opts o;
	int r = ws_cli_iq_parse(argc - 1, argv + 1, &o);
	if (r == 3) { /* iq CMD -h: that command's text */
		const char *u = ws_cli_iq_usage_of(cmd);
		fputs(u ? u : ws_cli_iq_usage(), stdout);
		if (u)
			fputs(ws_cli_iq_transport_usage(), stdout);
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
	fprintf(stderr,
		"warpspeed iq: unknown command '%s' (info, ping, read, write, trigger "
		"or bench)\n%s",
		cmd, ws_cli_iq_usage());
	return 2;
}
