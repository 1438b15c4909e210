/* SPDX-License-Identifier: BSD-2-Clause */
/* outputs_get: the value getters of the output-name table (outputs_table.c); see
 * outputs.h.
 *
 * Where netperf prints a fixed sentinel for something it does not measure ("Deprecated",
 * -1, 0xfffffffe, a CPU method 'U', the remote swintr share "-nan" when remote CPU was not
 * measured), the getter returns that sentinel, because harnesses match those strings.
 * Per-test quirks netperf has (the local send and receive sizes of an RR test are 0, a
 * stream test's TRANSACTION_RATE is 1.000, -t omni's socket type is "Stream") are kept for
 * the same reason; the goldens *_k_all.txt show them. */
#include "report/outputs_get.h"

#include "measure/cpu.h"
#include "measure/streams.h"
#include "report/classic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- shared figures --------------------------------------------------------------------- */

static double secs(int64_t ns) { return (double)ns / 1e9; }

/* The -f letter for byte rates: RR tests default to 'x' (transactions), which has no byte
 * unit, so their per-direction rates use netperf's 10^6bits/s. */
static char byte_fmt(const ws_report_ctx *c)
{
	char f = c->fmt;
	return ws_classic_units_label(f) ? f : 'm';
}

static double rate_of(uint64_t bytes, int64_t ns, const ws_report_ctx *c)
{
	return ws_classic_throughput(bytes, ns, byte_fmt(c));
}

static double trans_rate(const ws_report_ctx *c)
{
	const ws_side_result *l = loc(c);
	return l->elapsed_ns > 0 ? (double)l->transactions * 1e9 / (double)l->elapsed_ns : 0.0;
}

/* The side whose received bytes are the test's throughput, and the interval they count. */
static const ws_side_result *receiver(const ws_report_ctx *c)
{
	return client_receives(c) ? loc(c) : rem(c);
}

static double throughput(const ws_report_ctx *c)
{
	if (is_rr(c) || is_cc(c))
		return trans_rate(c);
	const ws_side_result *rx = receiver(c);
	int64_t ns =
		ws_test_type_has(type_of(c), WS_TO_DGRAMS) ? rx->elapsed_ns : loc(c)->elapsed_ns;
	return rate_of(rx->bytes_recv, ns, c);
}

static const ws_latency_stats *lat(const ws_report_ctx *c, ws_latency_stats *tmp)
{
	if (c->lat)
		return c->lat;
	ws_latency_stats_of(loc(c)->latency, tmp);
	return tmp;
}

/* ---- getters: test, sizes ---------------------------------------------------------------- */

void ws_og_none(const ws_report_ctx *c, ws_out_value *v)
{
	(void)c;
	v_str(v, " ");
}

/* netperf's -t omni reports "Stream" whatever -T says (omni_udp_rr_k.txt). */
void ws_og_socket_type(const ws_report_ctx *c, ws_out_value *v)
{
	v_str(v, is_udp(c) && !c->omni ? "Datagram" : "Stream");
}

void ws_og_protocol(const ws_report_ctx *c, ws_out_value *v)
{
	v_str(v, is_udp(c) ? "UDP" : "TCP");
}

void ws_og_direction(const ws_report_ctx *c, ws_out_value *v)
{
	const ws_test_row *r = ws_test_type_row(type_of(c));
	v_str(v, r ? r->direction : "Send");
}

void ws_og_elapsed(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, secs(loc(c)->elapsed_ns)); }

void ws_og_throughput(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, throughput(c)); }

void ws_og_throughput_units(const ws_report_ctx *c, ws_out_value *v)
{
	v_str(v, is_rr(c) || is_cc(c) ? "Trans" : ws_classic_units_label(byte_fmt(c)));
}

/* Socket sizes: requested (-1 = not asked, as netperf), initial, final. */
/* netperf shows -1 for a buffer left at the system default and 0 for -s 0. */
static int64_t req_or_unset(uint32_t req)
{
	return req == WS_SOCKBUF_ZERO ? 0 : req ? (int64_t)req : -1;
}

void ws_og_lss_req(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, req_or_unset(loc(c)->sndbuf_req));
}
void ws_og_lsr_req(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, req_or_unset(loc(c)->rcvbuf_req));
}
void ws_og_rss_req(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, req_or_unset(rem(c)->sndbuf_req));
}
void ws_og_rsr_req(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, req_or_unset(rem(c)->rcvbuf_req));
}

/* Message sizes as netperf reports them: a side's unused direction is 0 locally and -1
 * remotely; an RR test's local sizes are 0 and its remote ones the request/response. */
/* On the RR tests netperf shows -m here (the requests keep -r's size): 0 when not given. */
void ws_og_local_send_size(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v,
	      is_rr(c)                     ? (int64_t)c->r->spec.send_size
		      : client_receives(c) ? 0
					   : (int64_t)loc(c)->send_size);
}

void ws_og_local_recv_size(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, client_receives(c) ? (int64_t)loc(c)->recv_size : 0);
}

void ws_og_remote_send_size(const ws_report_ctx *c, ws_out_value *v)
{
	if (is_rr(c))
		v_int(v, c->r->spec.rsp_size);
	else
		v_int(v, client_receives(c) ? (int64_t)rem(c)->send_size : -1);
}

void ws_og_remote_recv_size(const ws_report_ctx *c, ws_out_value *v)
{
	if (is_rr(c))
		v_int(v, c->r->spec.req_size);
	else
		v_int(v, client_receives(c) ? -1 : (int64_t)rem(c)->recv_size);
}

void ws_og_request_size(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, is_rr(c) ? (int64_t)c->r->spec.req_size : -1);
}

void ws_og_response_size(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, is_rr(c) ? (int64_t)c->r->spec.rsp_size : -1);
}

/* ---- getters: confidence ----------------------------------------------------------------- */

static bool conf_on(const ws_report_ctx *c) { return c->conf && c->conf->asked; }

void ws_og_conf_level(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, conf_on(c) ? c->conf->level : 0);
}
void ws_og_conf_interval(const ws_report_ctx *c, ws_out_value *v)
{
	v_dbl(v, conf_on(c) ? c->conf->width : -1.0);
}
void ws_og_conf_iter(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, conf_on(c) && c->conf->iterations > 0 ? c->conf->iterations : 1);
}
/* Under -i/-I netperf prints 100 * (interval - margin) for each figure, the width; a CPU
 * figure it did not measure is a constant -1 there, so its width is 0.000, as in the
 * warning block. Without -i/-I: -1. */
static double conf_width(const ws_report_ctx *c, double w)
{
	return conf_on(c) ? (w > 0.0 ? w : 0.0) : -1.0;
}
void ws_og_tput_confid(const ws_report_ctx *c, ws_out_value *v)
{
	v_dbl(v, conf_width(c, c->conf ? c->conf->throughput_width : -1.0));
}
void ws_og_loc_confid(const ws_report_ctx *c, ws_out_value *v)
{
	v_dbl(v, conf_width(c, c->conf ? c->conf->local_cpu_width : -1.0));
}
void ws_og_rem_confid(const ws_report_ctx *c, ws_out_value *v)
{
	v_dbl(v, conf_width(c, c->conf ? c->conf->remote_cpu_width : -1.0));
}

/* ---- getters: RR, transport ------------------------------------------------------------- */

void ws_og_trans_rate(const ws_report_ctx *c, ws_out_value *v)
{
	v_dbl(v, is_rr(c) ? trans_rate(c) : 1.0); /* netperf prints 1.000 for stream tests */
}

void ws_og_rt_latency(const ws_report_ctx *c, ws_out_value *v)
{
	double t = trans_rate(c);
	v_dbl(v, is_rr(c) && t > 0 ? 1e6 / t : -1.0);
}

static bool has_tcp_info(const ws_report_ctx *c, const ws_side_result *s)
{
	return has_tcp_socket(c) && s->tcp_info_valid;
}

void ws_og_loc_retrans(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, has_tcp_info(c, loc(c)) ? (int64_t)loc(c)->tcp_retrans : -1);
}
void ws_og_rem_retrans(const ws_report_ctx *c, ws_out_value *v)
{
	bool known = has_tcp_info(c, rem(c)) || (rem(c)->tcp_retrans_valid && has_tcp_socket(c));
	v_int(v, known ? (int64_t)rem(c)->tcp_retrans : -1);
}
void ws_og_mss(const ws_report_ctx *c, ws_out_value *v)
{
	if (is_udp(c))
		v_int(v, -1);
	else
		v_int(v, loc(c)->tcp_info_valid ? (int64_t)loc(c)->tcp_mss : -1);
}

void ws_og_loc_send_tput(const ws_report_ctx *c, ws_out_value *v)
{
	v_dbl(v, rate_of(loc(c)->bytes_sent, loc(c)->elapsed_ns, c));
}
void ws_og_loc_recv_tput(const ws_report_ctx *c, ws_out_value *v)
{
	v_dbl(v, rate_of(loc(c)->bytes_recv, loc(c)->elapsed_ns, c));
}
void ws_og_rem_send_tput(const ws_report_ctx *c, ws_out_value *v)
{
	v_dbl(v, rate_of(rem(c)->bytes_sent, rem(c)->elapsed_ns, c));
}
void ws_og_rem_recv_tput(const ws_report_ctx *c, ws_out_value *v)
{
	v_dbl(v, rate_of(rem(c)->bytes_recv, rem(c)->elapsed_ns, c));
}

/* ---- getters: addresses ----------------------------------------------------------------- */

static bool unspecified(const char *a)
{
	return !a[0] || !strcmp(a, "0.0.0.0") || !strcmp(a, "::") || !strcmp(a, "::0");
}

static int af_number(const char *addr)
{
	return strchr(addr, ':') ? 10 : 2; /* Linux AF_INET6 / AF_INET, as netperf prints */
}

static void port_str(ws_out_value *v, uint16_t port)
{
	snprintf(v->buf, sizeof(v->buf), "%u", (unsigned)port);
	v_str(v, v->buf);
}

void ws_og_src_port(const ws_report_ctx *c, ws_out_value *v)
{
	port_str(v, c->r->spec.local.data_port);
}
void ws_og_dst_port(const ws_report_ctx *c, ws_out_value *v)
{
	port_str(v, c->r->spec.remote.data_port);
}
void ws_og_src_addr(const ws_report_ctx *c, ws_out_value *v)
{
	const char *a = c->r->local_addr;
	v_str(v, unspecified(a) ? (strchr(c->r->remote_addr, ':') ? "::" : "0.0.0.0") : a);
}
void ws_og_src_family(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, unspecified(c->r->local_addr) ? 0 : af_number(c->r->local_addr));
}
void ws_og_dst_addr(const ws_report_ctx *c, ws_out_value *v) { v_str(v, c->r->remote_addr); }
void ws_og_dst_family(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, af_number(c->r->remote_addr));
}

/* ---- getters: calls and bytes ----------------------------------------------------------- */

static double per_call(uint64_t bytes, uint64_t calls)
{
	return calls ? (double)bytes / (double)calls : 0.0;
}

/* netperf's "width": the ring of buffers, one more than fit in the socket buffer. */
static int64_t width(uint32_t buf, uint32_t size, bool used)
{
	if (!used)
		return 0;
	return size ? (int64_t)(buf / size) + 1 : 1;
}

/* The widths as netperf reports them: the local side's are 0 for a direction it does not
 * use; the remote's are always computed, from the test's send size and the remote's
 * receive buffer when the remote does not use that direction itself. */
void ws_og_loc_send_width(const ws_report_ctx *c, ws_out_value *v)
{
	const ws_side_result *s = loc(c);
	v_int(v, is_rr(c) ? 1 : width(s->sndbuf_set, s->send_size, s->send_calls > 0));
}

void ws_og_loc_recv_width(const ws_report_ctx *c, ws_out_value *v)
{
	const ws_side_result *s = loc(c);
	v_int(v, is_rr(c) ? 1 : width(s->rcvbuf_set, s->recv_size, s->recv_calls > 0));
}

void ws_og_rem_send_width(const ws_report_ctx *c, ws_out_value *v)
{
	const ws_side_result *s = rem(c);
	uint32_t size = s->send_size ? s->send_size : loc(c)->send_size;
	v_int(v, is_rr(c) ? 1 : width(s->sndbuf_set, size, true));
}

void ws_og_rem_recv_width(const ws_report_ctx *c, ws_out_value *v)
{
	const ws_side_result *s = rem(c);
	v_int(v,
	      is_rr(c) ? 1
		       : width(s->rcvbuf_set, s->recv_size ? s->recv_size : s->rcvbuf_set, true));
}

#define SIDE_GETTERS(side, S)                                              \
	void ws_og_##side##_bpr(const ws_report_ctx *c, ws_out_value *v)   \
	{                                                                  \
		v_dbl(v, per_call(S->bytes_recv, S->recv_calls));          \
	}                                                                  \
	void ws_og_##side##_bps(const ws_report_ctx *c, ws_out_value *v)   \
	{                                                                  \
		v_dbl(v, per_call(S->bytes_sent, S->send_calls));          \
	}                                                                  \
	void ws_og_##side##_xferd(const ws_report_ctx *c, ws_out_value *v) \
	{                                                                  \
		v_dbl(v, (double)S->bytes_sent + (double)S->bytes_recv);   \
	}
SIDE_GETTERS(loc, loc(c))
SIDE_GETTERS(rem, rem(c))

void ws_og_zero(const ws_report_ctx *c, ws_out_value *v)
{
	(void)c;
	v_int(v, 0);
}
void ws_og_minus1(const ws_report_ctx *c, ws_out_value *v)
{
	(void)c;
	v_int(v, -1);
}
void ws_og_align(const ws_report_ctx *c, ws_out_value *v)
{
	(void)c;
	v_int(v, 8);
}
void ws_og_nodelay(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, c->r->spec.nodelay ? 1 : 0);
}
void ws_og_deprecated(const ws_report_ctx *c, ws_out_value *v)
{
	(void)c;
	v_str(v, "Deprecated");
}
void ws_og_no_ifid(const ws_report_ctx *c, ws_out_value *v)
{
	(void)c;
	v_int(v, -2);
}

/* ---- getters: identity, latency, the rest ------------------------------------------------ */

void ws_og_brand(const ws_report_ctx *c, ws_out_value *v)
{
	if (c->brand && c->brand[0])
		v_str(v, c->brand);
}

void ws_og_uuid(const ws_report_ctx *c, ws_out_value *v) { v_str(v, c->uuid); }
void ws_og_command_line(const ws_report_ctx *c, ws_out_value *v) { v_str(v, c->command_line); }
void ws_og_rem_fill(const ws_report_ctx *c, ws_out_value *v)
{
	(void)c;
	v_str(v, "");
}
/* netperf reads the algorithm from the data socket at the end; UDP has none, and TCP_CRR's
 * last connection is closed by then, so both print "". */
static bool has_cong(const ws_report_ctx *c) { return has_tcp_socket(c); }

/* -y and -Y as asked (each end fails the test if its kernel refuses them; the client's
 * read-back value where it has one), netperf's -1 when not given. */
void ws_og_loc_prio(const ws_report_ctx *c, ws_out_value *v)
{
	int asked = c->r->spec.local.priority, got = c->r->local.priority_set;
	v_int(v, asked > 0 ? (got >= 0 ? got : asked) : -1);
}

void ws_og_rem_prio(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, c->r->spec.remote.priority > 0 ? c->r->spec.remote.priority : -1);
}

void ws_og_loc_tos(const ws_report_ctx *c, ws_out_value *v)
{
	int asked = c->r->spec.local.tos, got = c->r->local.tos_set;
	v_int(v, asked > 0 ? (got >= 0 ? got : asked) : -1);
}

void ws_og_rem_tos(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, c->r->spec.remote.tos > 0 ? c->r->spec.remote.tos : -1);
}

void ws_og_loc_cong(const ws_report_ctx *c, ws_out_value *v)
{
	v_str(v, has_cong(c) ? c->local_cong : "");
}
void ws_og_rem_cong(const ws_report_ctx *c, ws_out_value *v)
{
	v_str(v, has_cong(c) ? c->remote_cong : "");
}

/* Latency: whole microseconds for the percentiles and extremes ("%d", as netperf's
 * integer microseconds), two decimals for mean and stddev. Without statistics, or
 * without a histogram (stream tests time each send call only when a latency name was in
 * the list before the run: spec->call_latency; never with --streams), netperf's
 * "not computed" -1. */
enum lat_field { L_MIN, L_MAX, L_P50, L_P90, L_P99, L_P999, L_P9999, L_MEAN, L_STDDEV };

static void latency(const ws_report_ctx *c, ws_out_value *v, enum lat_field f)
{
	ws_latency_stats tmp;
	const ws_latency_stats *s = c->want_stats ? lat(c, &tmp) : NULL;
	bool have = s && s->count > 0;
	const double x[] = {have ? s->min_us : 0,   have ? s->max_us : 0,  have ? s->p50_us : 0,
			    have ? s->p90_us : 0,   have ? s->p99_us : 0,  have ? s->p999_us : 0,
			    have ? s->p9999_us : 0, have ? s->mean_us : 0, have ? s->stddev_us : 0};
	if (f == L_MEAN || f == L_STDDEV)
		v_dbl(v, have ? x[f] : -1.0);
	else
		v_int(v, have ? (int64_t)floor(x[f]) : -1);
}

void ws_og_min_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_MIN); }
void ws_og_max_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_MAX); }
void ws_og_p50_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_P50); }
void ws_og_p90_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_P90); }
void ws_og_p99_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_P99); }
void ws_og_p999_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_P999); }
void ws_og_p9999_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_P9999); }
void ws_og_mean_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_MEAN); }
void ws_og_stddev_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_STDDEV); }

void ws_og_streams(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, c->r->spec.streams ? c->r->spec.streams : 1);
}

/* Jain's index over the receiving side's per-flow rates (RR: per-flow transactions);
 * 1 for a single flow. */
void ws_og_fairness(const ws_report_ctx *c, ws_out_value *v)
{
	const ws_side_result *s = is_rr(c) ? loc(c) : receiver(c);
	if (s->nflows < 2 || !s->flows) {
		v_dbl(v, 1.0);
		return;
	}
	double *x = calloc(s->nflows, sizeof(*x));
	if (!x) {
		v_dbl(v, -1.0);
		return;
	}
	uint32_t n = 0, failed = 0;
	if (is_rr(c)) {
		for (uint32_t i = 0; i < s->nflows; i++)
			if (!s->flows[i].error && s->flows[i].elapsed_ns > 0)
				x[n++] = (double)s->flows[i].transactions /
					secs(s->flows[i].elapsed_ns);
	} else {
		n = ws_stream_rates(s, x, &failed);
	}
	ws_stream_stats st;
	ws_stream_stats_of(x, n, &st);
	free(x);
	v_dbl(v, n ? st.jain : -1.0);
}

void ws_og_io(const ws_report_ctx *c, ws_out_value *v)
{
	snprintf(v->buf, sizeof(v->buf), "%s/%s", loc(c)->io_path[0] ? loc(c)->io_path : "-",
		 rem(c)->io_path[0] ? rem(c)->io_path : "-");
	v_str(v, v->buf);
}

/* The test threads' own CPU time (RUSAGE_THREAD) as a percentage of one CPU over the side's
 * interval: what the benchmark itself cost, apart from the rest of the machine. */
static double thread_pct(const ws_side_result *s, int64_t ns)
{
	return s->elapsed_ns > 0 ? (double)ns * 100.0 / (double)s->elapsed_ns : 0.0;
}

#define THREAD_GETTERS(side, S)                                                \
	void ws_og_##side##_thr(const ws_report_ctx *c, ws_out_value *v)       \
	{                                                                      \
		v_dbl(v, thread_pct(S, S->thread_user_ns + S->thread_sys_ns)); \
	}                                                                      \
	void ws_og_##side##_thr_user(const ws_report_ctx *c, ws_out_value *v)  \
	{                                                                      \
		v_dbl(v, thread_pct(S, S->thread_user_ns));                    \
	}                                                                      \
	void ws_og_##side##_thr_sys(const ws_report_ctx *c, ws_out_value *v)   \
	{                                                                      \
		v_dbl(v, thread_pct(S, S->thread_sys_ns));                     \
	}
THREAD_GETTERS(loc, loc(c))
THREAD_GETTERS(rem, rem(c))
