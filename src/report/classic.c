/* SPDX-License-Identifier: BSD-2-Clause */
/* classic: netperf's TCP STREAM family and UDP_STREAM layouts; see classic.h.
 *
 * Every header string below is netperf 2.7.0's (tests/goldens/netperf/) with its trailing
 * blanks; the row formats are those netperf prints. Only the sender/receiver mapping
 * differs between STREAM/SENDFILE and MAERTS, and it is decided once, in stream_roles().
 * UDP_STREAM always sends from the client, so its sender row is the local side. */
#include "report/classic.h"
#include "report/classic_probe.h"

#include "measure/confidence.h"
#include "measure/cpu.h"
#include "report/classic_rr.h"
#include "report/conf_warning.h"
#include "report/harness.h"
#include "report/pathnotes.h"
#include "util/err.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define KB 1024.0

/* Who sent and who received; every column is defined from these two. */
struct stream_roles {
	const ws_side_result *sender, *receiver;
};

void ws_classic_opts_init(ws_classic_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->print_headers = true;
	o->verbosity = 1;
	o->fmt = 'm';
}

/* Bytes per unit and whether the unit counts bits. */
static bool units_scale(char fmt, double *per_unit, bool *bits)
{
	switch (fmt ? fmt : 'm') {
	case 'g':
		*per_unit = 1e9;
		*bits = true;
		return true;
	case 'm':
		*per_unit = 1e6;
		*bits = true;
		return true;
	case 'k':
		*per_unit = 1e3;
		*bits = true;
		return true;
	case 'G':
		*per_unit = 1073741824.0;
		*bits = false;
		return true;
	case 'M':
		*per_unit = 1048576.0;
		*bits = false;
		return true;
	case 'K':
		*per_unit = 1024.0;
		*bits = false;
		return true;
	default:
		return false;
	}
}

double ws_classic_throughput(uint64_t bytes, int64_t elapsed_ns, char fmt)
{
	double per_unit;
	bool bits;
	if (elapsed_ns <= 0 || !units_scale(fmt, &per_unit, &bits))
		return 0.0;
	double amount = (double)bytes * (bits ? 8.0 : 1.0);
	return amount / per_unit / ((double)elapsed_ns / 1e9);
}

const char *ws_classic_units_label(char fmt)
{
	switch (fmt ? fmt : 'm') {
	case 'g':
		return "10^9bits";
	case 'm':
		return "10^6bits";
	case 'k':
		return "10^3bits";
	case 'G':
		return "GBytes";
	case 'M':
		return "MBytes";
	case 'K':
		return "KBytes";
	default:
		return NULL;
	}
}

static int stream_roles(const ws_test_result *r, struct stream_roles *roles, ws_err *err)
{
	if (!ws_test_type_stream(r->spec.type)) {
		const char *name = ws_test_type_name(r->spec.type);
		return ws_err_set(err, WS_E_INVAL,
				  "classic report: test %s (%d) has no stream layout; expected "
				  "TCP_STREAM, TCP_MAERTS, TCP_SENDFILE or UDP_STREAM",
				  name ? name : "unknown", (int)r->spec.type);
	}
	if (ws_test_type_role(r->spec.type, true) == WS_ROLE_SENDER)
		*roles = (struct stream_roles){&r->local, &r->remote};
	else
		*roles = (struct stream_roles){&r->remote, &r->local};
	return 0;
}

static bool is_unspecified(const char *addr)
{
	return !addr[0] || strcmp(addr, "0.0.0.0") == 0 || strcmp(addr, "::") == 0 ||
		strcmp(addr, "::0") == 0;
}

int ws_classic_banner_conf(const struct ws_confidence *conf, char *buf, size_t n)
{
	if (!n)
		return 0;
	buf[0] = 0;
	if (!conf || !conf->asked || conf->max_iterations <= 1)
		return 0;
	/* netperf's "%s" after "conf. " holds " on result only" under -r. */
	int len = snprintf(buf, n, " : +/-%.3f%% @ %2d%% conf. %s", conf->width / 2.0, conf->level,
			   conf->throughput_only ? " on result only" : "");
	return len < 0 ? 0 : ((size_t)len < n ? len : (int)n - 1);
}

void ws_classic_banner(const ws_test_result *r, const char *title, const char *suffix,
		       const ws_classic_opts *o, FILE *out)
{
	bool v6 = r->family_used == WS_FAMILY_INET6 ||
		(r->family_used == WS_FAMILY_ANY && strchr(r->remote_addr, ':'));
	const char *af = v6 ? "AF_INET6" : "AF_INET";
	/* netperf names the data connection's ends: test options -H and -L when given */
	const char *host = r->spec.data_host[0] ? r->spec.data_host : r->remote_host;
	if (!host[0])
		host = r->remote_addr;
	char conf[96];
	ws_classic_banner_conf(o->conf, conf, sizeof(conf));
	fprintf(out, "%s from ", title);
	if (r->spec.data_local[0])
		fprintf(out, "%s (%s)", r->spec.data_local, r->spec.data_local);
	else if (is_unspecified(r->local_addr))
		fputs(v6 ? "::0 (::)" : "0.0.0.0 (0.0.0.0)", out);
	else
		fprintf(out, "%s (%s)", r->local_addr, r->local_addr);
	/* netperf's order; " : demo" on every banner as Debian's netperf (built with demo
	 * support) prints it, so that scripts matching the whole line keep matching. */
	fprintf(out, " port %u %s to %s (%s) port %u %s%s%s : demo%s%s\n",
		(unsigned)r->spec.local.data_port, af, host, r->remote_addr,
		(unsigned)r->spec.remote.data_port, af, conf, r->spec.nodelay ? " : nodelay" : "",
		suffix ? suffix : "", o->cpu_bind ? " : cpu bind" : "");
}

void ws_classic_test_banner(const ws_test_result *r, const ws_classic_opts *o, FILE *out)
{
	if (o->banner_done)
		return;
	char suffix[48] = "";
	if (ws_test_type_rr(r->spec.type) &&
	    !o->omni) /* netperf's omni banner has no first burst */
		snprintf(suffix, sizeof(suffix), " : first burst %" PRIu32, r->spec.burst);
	const char *title = ws_classic_title(r, o);
	if (title) /* LOC_CPU and REM_CPU print no banner in netperf */
		ws_classic_banner(r, title, suffix, o, out);
}

const char *ws_classic_title(const ws_test_result *r, const ws_classic_opts *o)
{
	const ws_test_row *row = r ? ws_test_type_row(r->spec.type) : NULL;
	if (!row)
		return NULL;
	return o && o->omni ? row->omni_title : row->title;
}

const ws_side_result *ws_classic_sd_basis(const ws_test_result *r, const ws_side_result *side)
{
	return side->sd_local_basis ? &r->local : side;
}

ws_classic_cpu ws_classic_side_cpu(const ws_side_result *side, bool requested, uint64_t units,
				   double unit_bytes)
{
	return ws_classic_side_cpu_over(side, requested, units, unit_bytes, side->elapsed_ns);
}

ws_classic_cpu ws_classic_side_cpu_over(const ws_side_result *side, bool requested, uint64_t units,
					double unit_bytes, int64_t elapsed_ns)
{
	ws_classic_cpu c = {-1.0, -1.0, WS_CPU_METHOD_PROC_STAT};
	if (side->cpu_method)
		c.method = side->cpu_method;
	if (!requested)
		c.method = WS_CPU_METHOD_UNKNOWN; /* netperf: "% S  % U" with -c alone */
	if (!requested || !side->cpu_measured)
		return c;
	c.util = side->cpu_util;
	c.sd = ws_cpu_service_demand(side->cpu_util, side->ncpus, elapsed_ns, units, unit_bytes);
	return c;
}

/* A side's service demand counts the bytes it moved itself over its own interval; netperf
 * charges both sides with the local count instead, and so is a netserver charged here
 * (ws_classic_sd_basis: the local bytes, sent and received, over the local interval). */
static ws_classic_cpu side_cpu(const ws_test_result *r, const ws_side_result *side, bool requested,
			       bool is_sender)
{
	const ws_side_result *b = ws_classic_sd_basis(r, side);
	uint64_t units = b != side ? b->bytes_sent + b->bytes_recv
		: is_sender        ? side->bytes_sent
				   : side->bytes_recv;
	return ws_classic_side_cpu_over(side, requested, units, KB, b->elapsed_ns);
}

static void print_table(const ws_test_result *r, const struct stream_roles *roles,
			const ws_classic_opts *o, FILE *out)
{
	const char *label = ws_classic_units_label(o->fmt);
	double secs = (double)r->local.elapsed_ns / 1e9;
	double tput =
		ws_classic_throughput(roles->receiver->bytes_recv, r->local.elapsed_ns, o->fmt);
	int rcv_sock = (int)roles->receiver->rcvbuf_set;
	int snd_sock = (int)roles->sender->sndbuf_set;
	int msg = (int)roles->sender->send_size;
	char unit[32];
	if (o->local_cpu || o->remote_cpu) {
		bool local_sends = roles->sender == &r->local;
		ws_classic_cpu lc = side_cpu(r, &r->local, o->local_cpu, local_sends);
		ws_classic_cpu rc = side_cpu(r, &r->remote, o->remote_cpu, !local_sends);
		if (o->print_headers) {
			/* what each side did: MAERTS's local side receives, its remote sends */
			const char *l = local_sends ? "Send" : "Recv",
				   *rm = local_sends ? "Recv" : "Send";
			snprintf(unit, sizeof(unit), "%s/s", label);
			fputs("Recv   Send    Send                          Utilization       "
			      "Service Demand\n",
			      out);
			fprintf(out,
				"Socket Socket  Message  Elapsed              %s     %s     "
				"%s    %s\n",
				l, rm, l, rm);
			fputs("Size   Size    Size     Time     Throughput  local    remote   "
			      "local   remote\n",
			      out);
			fprintf(out,
				"bytes  bytes   bytes    secs.    %-10s  %% %c      %% %c      "
				"us/KB   us/KB\n\n",
				unit, lc.method, rc.method);
		}
		fprintf(out,
			"%6d %6d %6d    %-6.2f     %7.2f   %-6.2f   %-6.2f   %-6.3f  %-6.3f \n",
			rcv_sock, snd_sock, msg, secs, tput, lc.util, rc.util, lc.sd, rc.sd);
		return;
	}
	if (o->print_headers) {
		snprintf(unit, sizeof(unit), "%s/sec", label);
		fputs("Recv   Send    Send                          \n"
		      "Socket Socket  Message  Elapsed              \n"
		      "Size   Size    Size     Time     Throughput  \n",
		      out);
		fprintf(out, "bytes  bytes   bytes    secs.    %-12s  \n\n", unit);
	}
	fprintf(out, "%6d %6d %6d    %-6.2f   %7.2f   \n", rcv_sock, snd_sock, msg, secs, tput);
}

/* UDP_STREAM's two rows: the local sender (what it sent, at its own rate) and the remote
 * receiver (what arrived, over its own first-to-last datagram interval). */
static void print_udp_table(const ws_test_result *r, const ws_classic_opts *o, FILE *out)
{
	const ws_side_result *snd = &r->local, *rcv = &r->remote;
	double s_secs = (double)snd->elapsed_ns / 1e9, r_secs = (double)rcv->elapsed_ns / 1e9;
	double s_tput = ws_classic_throughput(snd->bytes_sent, snd->elapsed_ns, o->fmt);
	double r_tput = ws_classic_throughput(rcv->bytes_recv, rcv->elapsed_ns, o->fmt);
	const char *label = ws_classic_units_label(o->fmt);
	if (o->local_cpu || o->remote_cpu) {
		ws_classic_cpu lc = side_cpu(r, snd, o->local_cpu, true);
		ws_classic_cpu rc = side_cpu(r, rcv, o->remote_cpu, false);
		if (o->print_headers) {
			fputs("Socket  Message  Elapsed      Messages                   CPU      "
			      "Service\n"
			      "Size    Size     Time         Okay Errors   Throughput   Util     "
			      "Demand\n",
			      out);
			fprintf(out,
				"bytes   bytes    secs            #      #   %s/sec %% %c%c     "
				"us/KB\n\n",
				label, lc.method, rc.method);
		}
		fprintf(out,
			"%6d  %6d   %-7.2f   %7" PRIu64 " %6" PRIu64
			"    %7.1f     %-6.2f   %-6.3f\n",
			(int)snd->sndbuf_set, (int)snd->send_size, s_secs, snd->dgrams_sent,
			snd->send_errors, s_tput, lc.util, lc.sd);
		fprintf(out,
			"%6d           %-7.2f   %7" PRIu64
			"           %7.1f     %-6.2f   %-6.3f\n\n",
			(int)rcv->rcvbuf_set, r_secs, rcv->dgrams_recv, r_tput, rc.util, rc.sd);
		return;
	}
	if (o->print_headers) {
		fputs("Socket  Message  Elapsed      Messages                \n"
		      "Size    Size     Time         Okay Errors   Throughput\n",
		      out);
		fprintf(out, "bytes   bytes    secs            #      #   %s/sec\n\n", label);
	}
	fprintf(out, "%6d  %6d   %-7.2f   %7" PRIu64 " %6" PRIu64 "    %7.2f\n",
		(int)snd->sndbuf_set, (int)snd->send_size, s_secs, snd->dgrams_sent,
		snd->send_errors, s_tput);
	fprintf(out, "%6d           %-7.2f   %7" PRIu64 "           %7.2f\n\n",
		(int)rcv->rcvbuf_set, r_secs, rcv->dgrams_recv, r_tput);
}

/* -v 0: the figure of merit alone, service demand when CPU was asked for. The throughput
 * is what the receiver got (for UDP, over the receiver's own interval). */
static void print_figure(const ws_test_result *r, const struct stream_roles *roles,
			 const ws_classic_opts *o, FILE *out)
{
	const char *brand = o->brand ? o->brand : "";
	if (o->local_cpu || o->remote_cpu) {
		bool local = o->local_cpu;
		const ws_side_result *side = local ? &r->local : &r->remote;
		ws_classic_cpu c = side_cpu(r, side, true, roles->sender == side);
		fprintf(out, "%6.3f %c %s\n", c.sd, c.method, brand);
		return;
	}
	bool udp = ws_test_type_udp(r->spec.type);
	int64_t ns = udp ? roles->receiver->elapsed_ns : r->local.elapsed_ns;
	double tput = ws_classic_throughput(roles->receiver->bytes_recv, ns, o->fmt);
	fprintf(out, "%7.2f %s\n", tput, brand);
}

static double per_call(uint64_t bytes, uint64_t calls)
{
	return calls ? (double)bytes / (double)calls : 0.0;
}

/* netperf's -v 2 block for the TCP stream family: alignments and offsets (warpspeed
 * neither aligns nor offsets its buffers beyond netperf's defaults, 8 and 0), bytes and
 * calls on each end, then the local side's MSS as netperf prints it (for TCP_MAERTS the
 * receiver's, whose TCP_INFO gives the MSS of its own sending direction). The send-time
 * histogram is not rendered. */
static void print_netperf_detail(const ws_test_result *r, const struct stream_roles *roles,
				 FILE *out)
{
	const ws_side_result *snd = roles->sender, *rcv = roles->receiver;
	fputs("\nAlignment      Offset         Bytes    Bytes       Sends   Bytes    Recvs\n"
	      "Local  Remote  Local  Remote  Xfered   Per                 Per\n"
	      "Send   Recv    Send   Recv             Send (avg)          Recv (avg)\n",
	      out);
	fprintf(out, "%5d   %5d  %5d   %5d %6.0f  %6.2f    %6" PRIu64 "   %6.2f %6" PRIu64 "\n", 8,
		8, 0, 0, (double)snd->bytes_sent, per_call(snd->bytes_sent, snd->send_calls),
		snd->send_calls, per_call(rcv->bytes_recv, rcv->recv_calls), rcv->recv_calls);
	const ws_side_result *mss_side = r->local.tcp_info_valid ? &r->local : &r->remote;
	int mss = mss_side->tcp_info_valid ? (int)mss_side->tcp_mss : -1;
	fprintf(out, "\nMaximum\nSegment\nSize (bytes)\n%6d\n\n", mss);
}

/* warpspeed's own -v 2 lines: what netperf cannot tell. */
static void print_ws_detail(const ws_test_result *r, FILE *out)
{
	const ws_side_result *sides[2] = {&r->local, &r->remote};
	const char *names[2] = {"local", "remote"};
	fprintf(out, "I/O path: local %s, remote %s\n",
		r->local.io_path[0] ? r->local.io_path : "-",
		r->remote.io_path[0] ? r->remote.io_path : "-");
	for (int i = 0; i < 2; i++) {
		const ws_side_result *s = sides[i];
		if (s->io_note[0])
			fprintf(out, "I/O note (%s): %s\n", names[i], s->io_note);
		if (s->rcvlowat > 0)
			fprintf(out, "Receive wake threshold (%s): %u byte%s (SO_RCVLOWAT)\n",
				names[i], s->rcvlowat, s->rcvlowat == 1 ? "" : "s");
		if (s->zc_sends > 0)
			fprintf(out,
				"Zerocopy sends (%s): %" PRIu64
				", of which the kernel copied %" PRIu64 "\n",
				names[i], s->zc_sends, s->zc_copied);
		if (s->tcp_info_valid)
			fprintf(out,
				"TCP_INFO (%s): retransmissions %" PRIu64
				", RTT %u us, rttvar %u us, "
				"MSS %u, cwnd %u\n",
				names[i], s->tcp_retrans, s->tcp_rtt_us, s->tcp_rttvar_us,
				s->tcp_mss, s->tcp_snd_cwnd);
	}
	if (ws_test_type_has(r->spec.type, WS_TO_DGRAMS) &&
	    r->spec.netperf_peer) /* no sequence accounting there */
		fprintf(out,
			"UDP datagrams: sent %" PRIu64 ", received %" PRIu64
			" (a netserver counts no loss, "
			"order or duplicates), send errors %" PRIu64 "\n",
			r->local.dgrams_sent, r->remote.dgrams_recv, r->local.send_errors);
	else if (ws_test_type_has(r->spec.type, WS_TO_DGRAMS))
		fprintf(out,
			"UDP datagrams: sent %" PRIu64 ", received %" PRIu64 ", lost %" PRIu64
			", reordered %" PRIu64 ", duplicated %" PRIu64 ", bad %" PRIu64
			", send errors %" PRIu64 ", jumps %" PRIu64 "\n",
			r->local.dgrams_sent, r->remote.dgrams_recv, r->remote.dgrams_lost,
			r->remote.dgrams_reordered, r->remote.dgrams_dup, r->remote.bad_dgrams,
			r->local.send_errors, r->remote.dgrams_jumps);
}

int ws_classic_render(const ws_test_result *r, const ws_classic_opts *o, FILE *out, ws_err *err)
{
	if (r && ws_classic_rr_handles(r->spec.type))
		return ws_classic_rr_render(r, o, out, err); /* its own defaults: -f x */
	if (r && o && ws_test_type_probe(r->spec.type))
		return ws_classic_probe_render(r, o, out, err);
	ws_classic_opts defaults;
	if (!o) {
		ws_classic_opts_init(&defaults);
		o = &defaults;
	}
	if (!r || !out)
		return ws_err_set(err, WS_E_INVAL, "classic report: no result or no output stream");
	struct stream_roles roles = {&r->local, &r->remote};
	int rc = stream_roles(r, &roles, err);
	if (rc)
		return rc;
	if (!ws_classic_units_label(o->fmt))
		return ws_err_set(err, WS_E_INVAL,
				  "classic report: -f '%c' is not a stream unit; expected one of "
				  "G M K (2^30/2^20/2^10 bytes/s) or g m k (10^9/10^6/10^3 bits/s)",
				  o->fmt);
	if (o->print_headers)
		ws_classic_test_banner(r, o, out);
	ws_conf_warning_print(o->conf, out); /* -i/-I not met: whatever -P says, as netperf */
	bool udp = ws_test_type_udp(r->spec.type);
	if (o->verbosity <= 0) {
		print_figure(r, &roles, o, out);
	} else {
		if (udp)
			print_udp_table(r, o, out);
		else
			print_table(r, &roles, o, out);
		if (o->verbosity >= 2 && !udp)
			print_netperf_detail(r, &roles, out);
		if (o->verbosity >= 2) {
			print_ws_detail(r, out);
			ws_report_harness_detail(r, out);
		}
		ws_pathnotes_print(r, o->verbosity, out);
	}
	if (fflush(out) != 0 || ferror(out))
		return ws_err_errno(err, "classic report: writing the result");
	return 0;
}

int ws_classic_render_string(const ws_test_result *r, const ws_classic_opts *o, char **text,
			     ws_err *err)
{
	if (!text)
		return ws_err_set(err, WS_E_INVAL, "classic report: no place for the text");
	*text = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return ws_err_errno(err, "classic report: open_memstream");
	int rc = ws_classic_render(r, o, f, err);
	if (fclose(f) != 0 && rc == 0)
		rc = ws_err_errno(err, "classic report: closing the memory stream");
	if (rc) {
		free(buf);
		return rc;
	}
	*text = buf;
	return 0;
}

/* Linux reports twice the size it was asked for, so a figure below the request itself
 * means the sysctl ceiling cut it (at least) in half. */
static int clamp_warning(const char *prog, const char *side, const char *what, const char *sysctl,
			 uint32_t req, uint32_t set, FILE *out)
{
	if (req == 0 || req == WS_SOCKBUF_ZERO || set == 0 || set >= req)
		return 0;
	fprintf(out,
		"%s: warning: the %s %s buffer was clamped to %u bytes (asked %u); raise "
		"%s\n",
		prog, side, what, set, req, sysctl);
	return 1;
}

int ws_classic_warnings(const ws_test_result *r, const char *prog, FILE *out)
{
	if (!r || !out)
		return -EINVAL;
	int n = 0;
	const ws_side_result *sides[2] = {&r->local, &r->remote};
	const char *names[2] = {"local", "remote"};
	for (int i = 0; i < 2; i++) {
		const ws_side_result *s = sides[i];
		n += clamp_warning(prog, names[i], "receive", "net.core.rmem_max", s->rcvbuf_req,
				   s->rcvbuf_set, out);
		n += clamp_warning(prog, names[i], "send", "net.core.wmem_max", s->sndbuf_req,
				   s->sndbuf_set, out);
	}
	if (ws_classic_rr_handles(r->spec.type)) {
		int m = ws_classic_rr_warnings(r, prog, out);
		if (m < 0)
			return m;
		n += m;
	}
	if (ws_test_type_has(r->spec.type, WS_TO_DGRAMS)) {
		const ws_side_result *rcv = &r->remote;
		uint64_t expected = rcv->dgrams_recv + rcv->dgrams_lost;
		if (rcv->dgrams_lost > 0) {
			fprintf(out,
				"%s: warning: UDP_STREAM lost %" PRIu64 " of %" PRIu64
				" datagrams (%.3f%%); reordered %" PRIu64 ", duplicated %" PRIu64
				"\n",
				prog, rcv->dgrams_lost, expected,
				100.0 * (double)rcv->dgrams_lost / (double)expected,
				rcv->dgrams_reordered, rcv->dgrams_dup);
			n++;
		}
		if (rcv->bad_dgrams > 0) {
			fprintf(out,
				"%s: warning: the receiver ignored %" PRIu64
				" datagrams that were malformed or not from this test\n",
				prog, rcv->bad_dgrams);
			n++;
		}
		if (rcv->dgrams_jumps > 0) {
			fprintf(out,
				"%s: warning: the receiver ignored %" PRIu64
				" datagrams whose sequence numbers were implausibly far ahead "
				"(jumps)\n",
				prog, rcv->dgrams_jumps);
			n++;
		}
	}
	if (fflush(out) != 0 || ferror(out))
		return -(errno ? errno : EIO);
	return n;
}
