/* SPDX-License-Identifier: BSD-2-Clause */
/* iq: `warpspeed iq`, the command line of the IQ host transport (include/warpspeed/iq.h).
 *
 * WARPLab users script info / read / write / trigger and wl_benchmark from MATLAB; this
 * gives them the same operations from a shell, with IQ files (raw cf32 / ci16, SigMF) in
 * place of MATLAB arrays, and `bench` printing wl_benchmark's table (cli/iqbench.c; the
 * nodes are opened by cli/iqnode.c). This module parses the role's command word and runs
 * the transfer commands. Usage errors exit 2, runtime failures 1, each with one line naming the problem. */
#include "cli/iq.h"

#include "cli/iqbench.h"
#include "cli/iqnode.h"
#include "cli/iqopts.h"
#include "cli/iqrssi.h"
#include "cli/progress.h"

#include <warpspeed/iq.h>

#include "iq/host/bench.h"
#include "iq/host/iqfile.h"
#include "iq/node/node.h"
#include "util/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	int r = ws_cli_iq_need_node(o, "info");
	if (r || (r = ws_cli_iq_open_node(o, &n)))
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
	int r = ws_cli_iq_need_node(o, "ping");
	if (r || (r = ws_cli_iq_open_node(o, &n)))
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
	int r = ws_cli_iq_need_node(o, "read");
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
		r = ws_cli_iq_open_nodes(o, n);
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
		if (o->verbose) {
			ws_cli_iq_print_stats(n[k]);
			if (o->verbose >= 2)
				ws_cli_iq_print_windows(n[k]);
		}
	}
	free(out);
	ws_cli_iq_close_nodes(n, nn);
	return r;
}

static int cmd_write(const ws_cli_iq_opts *o)
{
	int r = ws_cli_iq_need_node(o, "write");
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
	if ((r = ws_cli_iq_open_nodes(o, n)))
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
		if (o->verbose) {
			ws_cli_iq_print_stats(n[k]);
			if (o->verbose >= 2)
				ws_cli_iq_print_windows(n[k]);
		}
	}
	ws_cli_iq_close_nodes(n, nn);
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
	int r = ws_cli_iq_need_node(o, "trigger");
	if (r || (r = ws_cli_iq_open_node(o, &n)))
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
		return ws_cli_iq_bench(&o);
	if (!strcmp(cmd, "rssi"))
		return ws_cli_iq_rssi(&o);
	fprintf(stderr,
		"warpspeed iq: unknown command '%s' (info, ping, read, write, trigger, "
		"bench or rssi)\n%s",
		cmd, ws_cli_iq_usage());
	return 2;
}
