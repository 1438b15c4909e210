/* SPDX-License-Identifier: BSD-2-Clause */
/* classic_rr: netperf's TCP_RR, UDP_RR and TCP_CRR layouts and warpspeed's additions; see
 * classic_rr.h.
 *
 * Every header string is copied from tests/goldens/netperf/ with its trailing blanks. The
 * row formats are netperf's (nettest_bsd.c's send_tcp_rr family): they cannot come from a
 * table because -Wformat=2 wants literal formats, so the table holds only what differs
 * between the three tests (separators and trailing blanks) and the printf calls are
 * shared. The banner (titles and first burst) and the CPU columns come from classic.c. */
#include "report/classic_rr.h"

#include "measure/hist.h"
#include "measure/latency.h"
#include "report/conf_warning.h"
#include "report/pathnotes.h"
#include "util/err.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

/* What netperf prints differently for each of the three tests. */
struct rr_layout {
	enum ws_test_type type;
	const char *cpu_sep;   /* between the rate and the local CPU column */
	const char *cpu_tail;  /* after the remote service demand */
	bool cpu_letters;      /* the CPU header names the method ("% S") */
	bool figure_brand;     /* -v 0 figure followed by " <brand>" (else bare) */
	int v2;                /* netperf's -v 2 block: 0 none, 1 RR's, 2 CRR's */
	const char *hist_what; /* "Histogram of <what> times" */
};

/* clang-format off */
static const struct rr_layout layouts[] = {
	{WS_TEST_TCP_RR, "  ", " \n", true, true, 1, "request/response"},
	{WS_TEST_UDP_RR, "   ", " \n", true, true, 0, "request/response"},
	{WS_TEST_TCP_CRR, "   ", "\n", false, false, 2, "connect/request/response/close"},
	{WS_TEST_TCP_CC, "   ", "\n", false, false, 3, "connect/close"},
};
/* clang-format on */

static const struct rr_layout *layout_of(enum ws_test_type t)
{
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (layouts[i].type == t)
			return &layouts[i];
	return NULL;
}

bool ws_classic_rr_handles(enum ws_test_type t) { return layout_of(t) != NULL; }

/* -f x (and no -f at all) is netperf's transaction layout; anything else is throughput. */
static bool is_trans_fmt(char fmt) { return fmt == 0 || fmt == 'x'; }

static double per_sec(uint64_t n, int64_t elapsed_ns)
{
	return elapsed_ns > 0 ? (double)n * 1e9 / (double)elapsed_ns : 0.0;
}

/* The bytes a side sent and received; for an engine that counts only transactions, the
 * sizes times the count as the wire carried them (the client sends requests, the server
 * responses). */
static void rr_bytes(const ws_test_result *r, const ws_side_result *s, uint64_t *out, uint64_t *in)
{
	uint64_t req = (uint64_t)r->spec.req_size * s->transactions;
	uint64_t rsp = (uint64_t)r->spec.rsp_size * s->transactions;
	bool client = s == &r->local;
	*out = s->bytes_sent ? s->bytes_sent : client ? req : rsp;
	*in = s->bytes_recv ? s->bytes_recv : client ? rsp : req;
}

/* The figure of merit: transactions per second, or both directions' bytes in the -f unit
 * (netperf's bytes_xferd). */
static double rr_rate(const ws_test_result *r, char fmt)
{
	const ws_side_result *l = &r->local;
	if (is_trans_fmt(fmt))
		return per_sec(l->transactions, l->elapsed_ns);
	uint64_t out, in;
	rr_bytes(r, l, &out, &in);
	return ws_classic_throughput(out + in, l->elapsed_ns, fmt);
}

/* Service demand over the side's own count and interval (netperf uses the client's count
 * for both): us per transaction for -f x; for another -f letter netperf takes the test as
 * a bidirectional bulk transfer and charges per KB of both directions' bytes (under the
 * same "us/Tr" header), and so does this. */
static ws_classic_cpu rr_cpu(const ws_test_result *r, const ws_side_result *s, bool requested,
			     char fmt)
{
	const ws_side_result *b = ws_classic_sd_basis(r, s); /* a netserver: the local counts */
	if (is_trans_fmt(fmt))
		return ws_classic_side_cpu_over(s, requested, b->transactions, 1.0, b->elapsed_ns);
	uint64_t out, in;
	rr_bytes(r, b, &out, &in);
	return ws_classic_side_cpu_over(s, requested, out + in, 1024.0, b->elapsed_ns);
}

static void print_headers(const struct rr_layout *L, const ws_classic_opts *o, bool cpu, char lm,
			  char rm, FILE *out)
{
	bool trans = is_trans_fmt(o->fmt);
	const char *label = trans ? "" : ws_classic_units_label(o->fmt);
	fputs("Local /Remote\n", out);
	if (!cpu) {
		if (trans)
			fputs("Socket Size   Request  Resp.   Elapsed  Trans.\n"
			      "Send   Recv   Size     Size    Time     Rate         \n"
			      "bytes  Bytes  bytes    bytes   secs.    per sec   \n\n",
			      out);
		else
			fprintf(out,
				"Socket Size   Request  Resp.   Elapsed  \n"
				"Send   Recv   Size     Size    Time     Throughput \n"
				"bytes  Bytes  bytes    bytes   secs.    %s/sec   \n\n",
				label);
		return;
	}
	if (trans)
		fputs("Socket Size   Request Resp.  Elapsed Trans.   CPU    CPU    S.dem   S.dem\n"
		      "Send   Recv   Size    Size   Time    Rate     local  remote local   "
		      "remote\n",
		      out);
	else
		fprintf(out,
			"Socket Size   Request Resp.  Elapsed Tput     CPU    CPU    S.dem   "
			"S.dem\n"
			"Send   Recv   Size    Size   Time    %-8.8s local  remote local   "
			"remote\n",
			label);
	if (L->cpu_letters)
		fprintf(out,
			"bytes  bytes  bytes   bytes  secs.   per sec  %% %c    %% %c    us/Tr   "
			"us/Tr\n\n",
			lm, rm);
	else
		fputs("bytes  bytes  bytes   bytes  secs.   per sec  %      %      us/Tr   "
		      "us/Tr\n\n",
		      out);
}

static void print_table(const ws_test_result *r, const struct rr_layout *L,
			const ws_classic_opts *o, FILE *out)
{
	const ws_side_result *l = &r->local, *m = &r->remote;
	bool cpu = o->local_cpu || o->remote_cpu;
	ws_classic_cpu lc = rr_cpu(r, l, o->local_cpu, o->fmt);
	ws_classic_cpu rc = rr_cpu(r, m, o->remote_cpu, o->fmt);
	if (o->print_headers)
		print_headers(L, o, cpu, lc.method, rc.method, out);
	double secs = (double)l->elapsed_ns / 1e9, rate = rr_rate(r, o->fmt);
	int lss = (int)l->sndbuf_set, lsr = (int)l->rcvbuf_set;
	int req = (int)r->spec.req_size, rsp = (int)r->spec.rsp_size;
	if (cpu) {
		fprintf(out, "%-6d %-6d %-6d  %-6d %-6.2f  %-6.2f", lss, lsr, req, rsp, secs, rate);
		fputs(L->cpu_sep, out);
		fprintf(out, "%-6.2f %-6.2f %-6.3f  %-6.3f", lc.util, rc.util, lc.sd, rc.sd);
		fputs(L->cpu_tail, out);
	} else {
		fprintf(out, "%-6d %-6d %-6d   %-6d  %-6.2f   %7.2f   \n", lss, lsr, req, rsp, secs,
			rate);
	}
	fprintf(out, "%-6d %-6d\n", (int)m->sndbuf_set, (int)m->rcvbuf_set);
}

/* -v 0: the rate, or the service demand of the local side (remote when only -C). */
static void print_figure(const ws_test_result *r, const struct rr_layout *L,
			 const ws_classic_opts *o, FILE *out)
{
	const char *brand = o->brand ? o->brand : "";
	if (o->local_cpu || o->remote_cpu) {
		ws_classic_cpu c = rr_cpu(r, o->local_cpu ? &r->local : &r->remote, true, o->fmt);
		if (L->figure_brand)
			fprintf(out, "%6.3f %c %s\n", c.sd, c.method, brand);
		else
			fprintf(out, "%6.3f\n", c.sd);
		return;
	}
	double rate = rr_rate(r, o->fmt);
	if (L->figure_brand)
		fprintf(out, "%7.2f %s\n", rate, brand);
	else
		fprintf(out, "%7.2f\n", rate);
}

/* netperf's -v 2 blocks as 2.7.0 prints them: TCP_RR's alignment/offset line with the
 * round trip (first burst included: N in flight over the rate), the rate and each
 * direction's throughput in 10^6bits/s (or the -f unit), no blank line before it; TCP_CRR's
 * alignment/offset alone after a blank line; UDP_RR nothing. warpspeed neither aligns nor
 * offsets buffers; the figures are netperf's defaults as its goldens show them. */
static void print_netperf_detail(const ws_test_result *r, const struct rr_layout *L,
				 const ws_classic_opts *o, FILE *out)
{
	if (L->v2 >= 2) { /* TCP_CC's (3) prints an offset where TCP_CRR's has the alignment */
		fputs("\nAlignment      Offset\n"
		      "Local  Remote  Local  Remote\n"
		      "Send   Recv    Send   Recv\n",
		      out);
		fprintf(out, "%5d  %5d   %5d  %5d\n", 8, L->v2 == 2 ? 8 : 0, 0, 0);
		return;
	}
	if (L->v2 != 1)
		return;
	const ws_side_result *l = &r->local;
	char fmt = is_trans_fmt(o->fmt) ? 'm' : o->fmt;
	double tps = per_sec(l->transactions, l->elapsed_ns);
	double rtt = tps > 0 ? 1e6 / tps * (1.0 + (double)r->spec.burst) : 0.0;
	uint64_t sent, recvd;
	rr_bytes(r, l, &sent, &recvd);
	fprintf(out,
		"Alignment      Offset         RoundTrip  Trans    Throughput\n"
		"Local  Remote  Local  Remote  Latency    Rate     %-8.8s/s\n"
		"Send   Recv    Send   Recv    usec/Tran  per sec  Outbound   Inbound\n",
		ws_classic_units_label(fmt));
	fprintf(out, "%5d  %5d   %5d  %5d   %-6.3f   %-6.3f %-6.3f    %-6.3f\n", 8, 0, 0, 0, rtt,
		tps, ws_classic_throughput(sent, l->elapsed_ns, fmt),
		ws_classic_throughput(recvd, l->elapsed_ns, fmt));
}

/* netperf's HIST_report layout (hist.c), which Debian's build leaves out. */
static void print_histogram(const struct ws_hist *h, const struct rr_layout *L, FILE *out)
{
	static const char *const rows[8] = {"UNIT_USEC", "TEN_USEC", "HUNDRED_USEC",
					    "UNIT_MSEC", "TEN_MSEC", "HUNDRED_MSEC",
					    "UNIT_SEC",  "TEN_SEC"};
	uint64_t dec[8][10], over = 0;
	if (h)
		ws_hist_decades(h, dec, &over);
	else
		memset(dec, 0, sizeof(dec));
	fprintf(out, "\nHistogram of %s times\n", L->hist_what);
	for (int i = 0; i < 8; i++) {
		fprintf(out, "%-14s", rows[i]);
		for (int c = 0; c < 10; c++)
			fprintf(out, ": %4" PRIu64, dec[i][c]);
		fputc('\n', out);
	}
	fprintf(out, ">100_SECS: %" PRIu64 "\n", over);
	fprintf(out, "HIST_TOTAL:      %" PRIu64 "\n", h ? ws_hist_count(h) : 0);
}

static void print_flows(const ws_side_result *l, FILE *out)
{
	if (l->nflows == 0 || !l->flows)
		return;
	fputs("\nFlow   Thread Transactions     Trans/s      P50 us     P99 us     Lost\n", out);
	for (uint32_t i = 0; i < l->nflows; i++) {
		const ws_flow_result *f = &l->flows[i];
		fprintf(out, "%-6u %-6u %-16" PRIu64 " %-12.2f %-10.3f %-10.3f %" PRIu64 "%s%s\n",
			i, f->thread, f->transactions, per_sec(f->transactions, f->elapsed_ns),
			(double)f->lat_p50_ns / 1000.0, (double)f->lat_p99_ns / 1000.0,
			f->trans_lost, f->error ? "  FAILED: " : "", f->error ? f->why : "");
	}
}

/* warpspeed's -v 2 lines, after all of netperf's. */
static void print_ws_detail(const ws_test_result *r, const struct rr_layout *L, FILE *out)
{
	const ws_side_result *l = &r->local, *m = &r->remote;
	print_histogram(l->latency, L, out);
	ws_latency_stats s;
	ws_latency_stats_of(l->latency, &s);
	if (s.count == 0)
		fputs("\nRound trips (us): no samples\n", out);
	else
		fprintf(out,
			"\nRound trips (us): min %.3f mean %.3f p50 %.3f p90 %.3f p99 %.3f "
			"p99.9 %.3f p99.99 %.3f max %.3f stddev %.3f (%" PRIu64 " samples)\n",
			s.min_us, s.mean_us, s.p50_us, s.p90_us, s.p99_us, s.p999_us, s.p9999_us,
			s.max_us, s.stddev_us, s.count);
	if (r->spec.type == WS_TEST_UDP_RR)
		fprintf(out,
			"UDP_RR transactions: completed %" PRIu64 ", lost %" PRIu64
			", late replies discarded %" PRIu64 "; the server answered %" PRIu64 "\n",
			l->transactions, l->trans_lost, l->late_replies, m->transactions);
	if (ws_test_type_connects(r->spec.type))
		fprintf(out,
			"%s connections: made %" PRIu64 ", failed %" PRIu64
			"; the server accepted %" PRIu64 "\n",
			ws_test_type_name(r->spec.type), l->connects, l->connect_errors,
			m->connects);
	print_flows(l, out);
}

/* Lines after the table at any verbosity >= 1 (after the -v 2 blocks at -v 2), where a
 * parser of netperf's table has already read what it wants. */
static void print_after_table(const ws_test_result *r, FILE *out)
{
	const ws_side_result *l = &r->local;
	if (l->trans_lost > 0) {
		uint64_t tried = l->transactions + l->trans_lost;
		if (tried < l->transactions)
			tried = UINT64_MAX;
		fprintf(out,
			"%" PRIu64 " transactions lost (%.2f%% of %" PRIu64
			" attempted); they are in neither the rate nor the latency figures\n",
			l->trans_lost, 100.0 * (double)l->trans_lost / (double)tried, tried);
	}
	if (r->spec.rate > 0) {
		uint32_t flows = r->spec.streams ? r->spec.streams : 1;
		double interval_us = 1e6 / r->spec.rate, lag_us = (double)l->max_lag_ns / 1000.0;
		bool held = (double)l->max_lag_ns <= 1e9 / r->spec.rate;
		fprintf(out,
			"Open loop: asked %.2f trans/s (%.2f per flow, %u flow%s), achieved %.2f; "
			"%" PRIu64 " of %" PRIu64 " scheduled completed; schedule %s "
			"(max lag %.3f us, interval %.3f us)\n",
			r->spec.rate * flows, r->spec.rate, flows, flows == 1 ? "" : "s",
			per_sec(l->transactions, l->elapsed_ns), l->transactions,
			l->trans_scheduled, held ? "held" : "slipped", lag_us, interval_us);
	}
}

int ws_classic_rr_render(const ws_test_result *r, const ws_classic_opts *o, FILE *out, ws_err *err)
{
	ws_classic_opts defaults;
	if (!o) {
		ws_classic_opts_init(&defaults);
		defaults.fmt = 'x';
		o = &defaults;
	}
	if (!r || !out)
		return ws_err_set(err, WS_E_INVAL, "classic report: no result or no output stream");
	const struct rr_layout *L = layout_of(r->spec.type);
	if (!L) {
		const char *name = ws_test_type_name(r->spec.type);
		return ws_err_set(err, WS_E_INVAL,
				  "classic report: test %s (%d) has no request/response layout; "
				  "expected TCP_RR, UDP_RR, TCP_CRR or TCP_CC",
				  name ? name : "unknown", (int)r->spec.type);
	}
	ws_classic_opts cc;
	if (r->spec.type == WS_TEST_TCP_CC) { /* netperf 2.7.0's TCP_CC ignores -f */
		cc = *o;
		cc.fmt = 'x';
		o = &cc;
	}
	if (!is_trans_fmt(o->fmt) && !ws_classic_units_label(o->fmt))
		return ws_err_set(
			err, WS_E_INVAL,
			"classic report: -f '%c' is not a request/response unit; expected "
			"x (transactions/s), G M K (2^30/2^20/2^10 bytes/s) or g m k "
			"(10^9/10^6/10^3 bits/s)",
			o->fmt);
	if (o->print_headers)
		ws_classic_test_banner(r, o, out);
	ws_conf_warning_print(o->conf, out); /* -i/-I not met: whatever -P says, as netperf */
	if (o->verbosity <= 0) {
		print_figure(r, L, o, out);
	} else {
		print_table(r, L, o, out);
		if (o->verbosity >= 2) {
			print_netperf_detail(r, L, o, out);
			print_ws_detail(r, L, out);
		}
		print_after_table(r, out);
		ws_pathnotes_print(r, o->verbosity, out);
	}
	if (fflush(out) != 0 || ferror(out))
		return ws_err_errno(err, "classic report: writing the result");
	return 0;
}

int ws_classic_rr_warnings(const ws_test_result *r, const char *prog, FILE *out)
{
	if (!r || !out)
		return -EINVAL;
	const ws_side_result *l = &r->local;
	int n = 0;
	if (l->trans_lost > 0) {
		fprintf(out,
			"%s: warning: %s lost %" PRIu64 " transactions (no reply within "
			"the timeout; each was retried)%s\n",
			prog, ws_test_type_name(r->spec.type), l->trans_lost,
			l->late_replies ? ", and discarded late replies" : "");
		n++;
	} else if (l->late_replies > 0) {
		fprintf(out, "%s: warning: %" PRIu64 " late replies were discarded\n", prog,
			l->late_replies);
		n++;
	}
	if (l->connect_errors > 0) {
		fprintf(out,
			"%s: warning: %" PRIu64 " of %" PRIu64 " connects failed "
			"(ephemeral ports exhausted, or refused)\n",
			prog, l->connect_errors, l->connects + l->connect_errors);
		n++;
	}
	if (l->latency && ws_hist_overflow(l->latency) > 0) {
		fprintf(out,
			"%s: warning: %" PRIu64 " round trips took over 100 s: they are in "
			"the count, mean and max, and every percentile that falls on them reads "
			"the max\n",
			prog, ws_hist_overflow(l->latency));
		n++;
	}
	if (r->spec.rate > 0 && (double)l->max_lag_ns > 1e9 / r->spec.rate) {
		fprintf(out,
			"%s: warning: the open-loop schedule slipped: a request went out "
			"%.3f us late, more than the %.3f us between requests; the latency figures "
			"count from the intended send times\n",
			prog, (double)l->max_lag_ns / 1000.0, 1e6 / r->spec.rate);
		n++;
	}
	if (fflush(out) != 0 || ferror(out))
		return -(errno ? errno : EIO);
	return n;
}
