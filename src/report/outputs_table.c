/* outputs_table: the output names, their human headers, units, formats and getters; see
 * outputs.h.
 *
 * Names, headers and formats are netperf 2.7.0's (nettest_omni.c's table as its output
 * shows it: tests/goldens/netperf/tcp_rr_{o,O,k}_all.txt), in its order. Where netperf
 * prints a fixed sentinel for something it does not measure ("Deprecated", -1,
 * 0xfffffffe, a CPU method 'U', the remote swintr share "-nan" when remote CPU was not
 * measured), the getter returns that sentinel, because harnesses match those strings.
 * Per-test quirks netperf has (the local send and receive sizes of an RR test are 0, a
 * stream test's TRANSACTION_RATE is 1.000) are kept for the same reason; the goldens
 * *_k_all.txt show them. */
#include "report/outputs.h"

#include "measure/cpu.h"
#include "measure/streams.h"
#include "report/classic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- what kind of test ------------------------------------------------------------------ */

static enum ws_test_type type_of(const ws_report_ctx *c)
{
	return c->r->spec.type;
}

static bool is_rr(const ws_report_ctx *c)
{
	enum ws_test_type t = type_of(c);
	return t == WS_TEST_TCP_RR || t == WS_TEST_UDP_RR || t == WS_TEST_TCP_CRR;
}

static bool is_udp(const ws_report_ctx *c)
{
	return type_of(c) == WS_TEST_UDP_STREAM || type_of(c) == WS_TEST_UDP_RR;
}

static bool is_maerts(const ws_report_ctx *c)
{
	return type_of(c) == WS_TEST_TCP_MAERTS;
}

static const ws_side_result *loc(const ws_report_ctx *c)
{
	return &c->r->local;
}

static const ws_side_result *rem(const ws_report_ctx *c)
{
	return &c->r->remote;
}

/* ---- value constructors ----------------------------------------------------------------- */

static void v_int(ws_out_value *v, int64_t i)
{
	v->kind = WS_OUT_V_INT;
	v->i = i;
}

static void v_uint(ws_out_value *v, uint64_t u)
{
	v->kind = WS_OUT_V_UINT;
	v->u = u;
}

static void v_dbl(ws_out_value *v, double d)
{
	v->kind = WS_OUT_V_DOUBLE;
	v->d = d;
}

static void v_str(ws_out_value *v, const char *s)
{
	v->kind = WS_OUT_V_STR;
	v->s = s ? s : "";
}

static void v_chr(ws_out_value *v, char ch)
{
	v->kind = WS_OUT_V_CHAR;
	v->c = ch;
}

/* ---- shared figures --------------------------------------------------------------------- */

static double secs(int64_t ns)
{
	return (double)ns / 1e9;
}

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
	return is_maerts(c) ? loc(c) : rem(c);
}

static double throughput(const ws_report_ctx *c)
{
	if (is_rr(c))
		return trans_rate(c);
	const ws_side_result *rx = receiver(c);
	int64_t ns = type_of(c) == WS_TEST_UDP_STREAM ? rx->elapsed_ns : loc(c)->elapsed_ns;
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

static void g_none(const ws_report_ctx *c, ws_out_value *v)
{
	(void)c;
	v_str(v, " ");
}

static void g_socket_type(const ws_report_ctx *c, ws_out_value *v)
{
	v_str(v, is_udp(c) ? "Datagram" : "Stream");
}

static void g_protocol(const ws_report_ctx *c, ws_out_value *v)
{
	v_str(v, is_udp(c) ? "UDP" : "TCP");
}

static void g_direction(const ws_report_ctx *c, ws_out_value *v)
{
	const char *d = "Send";
	if (type_of(c) == WS_TEST_TCP_CRR)
		d = "Connect|Send|Recv";
	else if (is_rr(c))
		d = "Send|Recv";
	else if (is_maerts(c))
		d = "Receive";
	v_str(v, d);
}

static void g_elapsed(const ws_report_ctx *c, ws_out_value *v)
{
	v_dbl(v, secs(loc(c)->elapsed_ns));
}

static void g_throughput(const ws_report_ctx *c, ws_out_value *v)
{
	v_dbl(v, throughput(c));
}

static void g_throughput_units(const ws_report_ctx *c, ws_out_value *v)
{
	v_str(v, is_rr(c) ? "Trans" : ws_classic_units_label(byte_fmt(c)));
}

/* Socket sizes: requested (-1 = not asked, as netperf), initial, final. */
static int64_t req_or_unset(uint32_t req)
{
	return req ? (int64_t)req : -1;
}

static void g_lss_req(const ws_report_ctx *c, ws_out_value *v) { v_int(v, req_or_unset(loc(c)->sndbuf_req)); }
static void g_lss(const ws_report_ctx *c, ws_out_value *v) { v_int(v, loc(c)->sndbuf_set); }
static void g_lss_end(const ws_report_ctx *c, ws_out_value *v) { v_int(v, loc(c)->sndbuf_end); }
static void g_lsr_req(const ws_report_ctx *c, ws_out_value *v) { v_int(v, req_or_unset(loc(c)->rcvbuf_req)); }
static void g_lsr(const ws_report_ctx *c, ws_out_value *v) { v_int(v, loc(c)->rcvbuf_set); }
static void g_lsr_end(const ws_report_ctx *c, ws_out_value *v) { v_int(v, loc(c)->rcvbuf_end); }
static void g_rss_req(const ws_report_ctx *c, ws_out_value *v) { v_int(v, req_or_unset(rem(c)->sndbuf_req)); }
static void g_rss(const ws_report_ctx *c, ws_out_value *v) { v_int(v, rem(c)->sndbuf_set); }
static void g_rss_end(const ws_report_ctx *c, ws_out_value *v) { v_int(v, rem(c)->sndbuf_end); }
static void g_rsr_req(const ws_report_ctx *c, ws_out_value *v) { v_int(v, req_or_unset(rem(c)->rcvbuf_req)); }
static void g_rsr(const ws_report_ctx *c, ws_out_value *v) { v_int(v, rem(c)->rcvbuf_set); }
static void g_rsr_end(const ws_report_ctx *c, ws_out_value *v) { v_int(v, rem(c)->rcvbuf_end); }

/* Message sizes as netperf reports them: a side's unused direction is 0 locally and -1
 * remotely; an RR test's local sizes are 0 and its remote ones the request/response. */
static void g_local_send_size(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, is_rr(c) || is_maerts(c) ? 0 : (int64_t)loc(c)->send_size);
}

static void g_local_recv_size(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, is_maerts(c) ? (int64_t)loc(c)->recv_size : 0);
}

static void g_remote_send_size(const ws_report_ctx *c, ws_out_value *v)
{
	if (is_rr(c))
		v_int(v, c->r->spec.rsp_size);
	else
		v_int(v, is_maerts(c) ? (int64_t)rem(c)->send_size : -1);
}

static void g_remote_recv_size(const ws_report_ctx *c, ws_out_value *v)
{
	if (is_rr(c))
		v_int(v, c->r->spec.req_size);
	else
		v_int(v, is_maerts(c) ? -1 : (int64_t)rem(c)->recv_size);
}

static void g_request_size(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, is_rr(c) ? (int64_t)c->r->spec.req_size : -1);
}

static void g_response_size(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, is_rr(c) ? (int64_t)c->r->spec.rsp_size : -1);
}

/* ---- getters: CPU ------------------------------------------------------------------------ */

static bool cpu_known(const ws_report_ctx *c, bool local)
{
	const ws_side_result *s = local ? loc(c) : rem(c);
	return (local ? c->local_cpu : c->remote_cpu) && s->cpu_measured;
}

static double cpu_part(const ws_report_ctx *c, bool local, int part)
{
	const ws_side_result *s = local ? loc(c) : rem(c);
	if (!cpu_known(c, local)) /* netperf: util -1, the parts 0 (remote swintr NaN) */
		return part < 0 ? -1.0 : (part == 5 && !local) ? -NAN : 0.0;
	switch (part) {
	case 1: return s->cpu_user;
	case 2: return s->cpu_system;
	case 5: return s->cpu_softirq;
	case 3: case 4: return 0.0; /* iowait and irq are not split out (inside system) */
	default: return s->cpu_util;
	}
}

static double sd_of(const ws_report_ctx *c, bool local)
{
	const ws_side_result *s = local ? loc(c) : rem(c);
	if (!cpu_known(c, local))
		return -1.0;
	if (is_rr(c))
		return ws_cpu_service_demand(s->cpu_util, s->ncpus, s->elapsed_ns, loc(c)->transactions, 1.0);
	uint64_t bytes = s->bytes_sent > s->bytes_recv ? s->bytes_sent : s->bytes_recv;
	return ws_cpu_service_demand(s->cpu_util, s->ncpus, s->elapsed_ns, bytes, 1024.0);
}

static char method_of(const ws_report_ctx *c, bool local)
{
	const ws_side_result *s = local ? loc(c) : rem(c);
	return cpu_known(c, local) ? (s->cpu_method ? s->cpu_method : 'S') : 'U';
}

#define CPU_GETTERS(side, local)                                                               \
	static void g_##side##_util(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, cpu_part(c, local, -1)); } \
	static void g_##side##_user(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, cpu_part(c, local, 1)); } \
	static void g_##side##_sys(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, cpu_part(c, local, 2)); } \
	static void g_##side##_iowait(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, cpu_part(c, local, 3)); } \
	static void g_##side##_irq(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, cpu_part(c, local, 4)); } \
	static void g_##side##_swintr(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, cpu_part(c, local, 5)); } \
	static void g_##side##_method(const ws_report_ctx *c, ws_out_value *v) { v_chr(v, method_of(c, local)); } \
	static void g_##side##_sd(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, sd_of(c, local)); } \
	static void g_##side##_count(const ws_report_ctx *c, ws_out_value *v)                 \
	{                                                                                      \
		v_int(v, cpu_known(c, local) ? (int64_t)(local ? loc(c) : rem(c))->ncpus : 0); \
	}                                                                                      \
	static void g_##side##_bind(const ws_report_ctx *c, ws_out_value *v)                  \
	{                                                                                      \
		v_int(v, (local ? loc(c) : rem(c))->cpu_bound_to);                             \
	}
CPU_GETTERS(loc, true)
CPU_GETTERS(rem, false)

static void g_sd_units(const ws_report_ctx *c, ws_out_value *v)
{
	v_str(v, is_rr(c) ? "usec/Tran" : "usec/KB");
}

/* warpspeed does not sample per-CPU peaks: netperf's "not measured" values. */
static void g_loc_peak_util(const ws_report_ctx *c, ws_out_value *v) { (void)c; v_dbl(v, -1.0); }
static void g_loc_peak_id(const ws_report_ctx *c, ws_out_value *v) { (void)c; v_int(v, -1); }
static void g_rem_peak_util(const ws_report_ctx *c, ws_out_value *v) { (void)c; v_dbl(v, 0.0); }
static void g_rem_peak_id(const ws_report_ctx *c, ws_out_value *v) { (void)c; v_int(v, 0); }

/* ---- getters: confidence ----------------------------------------------------------------- */

static bool conf_on(const ws_report_ctx *c)
{
	return c->conf && c->conf->asked;
}

static void g_conf_level(const ws_report_ctx *c, ws_out_value *v) { v_int(v, conf_on(c) ? c->conf->level : 0); }
static void g_conf_interval(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, conf_on(c) ? c->conf->width : -1.0); }
static void g_conf_iter(const ws_report_ctx *c, ws_out_value *v) { v_int(v, conf_on(c) && c->conf->iterations > 0 ? c->conf->iterations : 1); }
static void g_tput_confid(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, conf_on(c) ? c->conf->throughput_width : -1.0); }
static void g_loc_confid(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, conf_on(c) ? c->conf->local_cpu_width : -1.0); }
static void g_rem_confid(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, conf_on(c) ? c->conf->remote_cpu_width : -1.0); }

/* ---- getters: RR, transport ------------------------------------------------------------- */

static void g_trans_rate(const ws_report_ctx *c, ws_out_value *v)
{
	v_dbl(v, is_rr(c) ? trans_rate(c) : 1.0); /* netperf prints 1.000 for stream tests */
}

static void g_rt_latency(const ws_report_ctx *c, ws_out_value *v)
{
	double t = trans_rate(c);
	v_dbl(v, is_rr(c) && t > 0 ? 1e6 / t : -1.0);
}

static void g_burst(const ws_report_ctx *c, ws_out_value *v) { v_int(v, c->r->spec.burst); }

static bool has_tcp_info(const ws_report_ctx *c, const ws_side_result *s)
{
	return !is_udp(c) && type_of(c) != WS_TEST_TCP_CRR && s->tcp_info_valid;
}

static void g_loc_retrans(const ws_report_ctx *c, ws_out_value *v) { v_int(v, has_tcp_info(c, loc(c)) ? (int64_t)loc(c)->tcp_retrans : -1); }
static void g_rem_retrans(const ws_report_ctx *c, ws_out_value *v) { v_int(v, has_tcp_info(c, rem(c)) ? (int64_t)rem(c)->tcp_retrans : -1); }
static void g_mss(const ws_report_ctx *c, ws_out_value *v)
{
	if (is_udp(c))
		v_int(v, -1);
	else
		v_int(v, loc(c)->tcp_info_valid ? (int64_t)loc(c)->tcp_mss : -1);
}

static void g_loc_send_tput(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, rate_of(loc(c)->bytes_sent, loc(c)->elapsed_ns, c)); }
static void g_loc_recv_tput(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, rate_of(loc(c)->bytes_recv, loc(c)->elapsed_ns, c)); }
static void g_rem_send_tput(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, rate_of(rem(c)->bytes_sent, rem(c)->elapsed_ns, c)); }
static void g_rem_recv_tput(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, rate_of(rem(c)->bytes_recv, rem(c)->elapsed_ns, c)); }

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

static void g_src_port(const ws_report_ctx *c, ws_out_value *v) { port_str(v, c->r->spec.local.data_port); }
static void g_dst_port(const ws_report_ctx *c, ws_out_value *v) { port_str(v, c->r->spec.remote.data_port); }
static void g_src_addr(const ws_report_ctx *c, ws_out_value *v)
{
	const char *a = c->r->local_addr;
	v_str(v, unspecified(a) ? (strchr(c->r->remote_addr, ':') ? "::" : "0.0.0.0") : a);
}
static void g_src_family(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, unspecified(c->r->local_addr) ? 0 : af_number(c->r->local_addr));
}
static void g_dst_addr(const ws_report_ctx *c, ws_out_value *v) { v_str(v, c->r->remote_addr); }
static void g_dst_family(const ws_report_ctx *c, ws_out_value *v) { v_int(v, af_number(c->r->remote_addr)); }

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

#define SIDE_GETTERS(side, S)                                                                  \
	static void g_##side##_send_calls(const ws_report_ctx *c, ws_out_value *v) { v_uint(v, S->send_calls); } \
	static void g_##side##_recv_calls(const ws_report_ctx *c, ws_out_value *v) { v_uint(v, S->recv_calls); } \
	static void g_##side##_bpr(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, per_call(S->bytes_recv, S->recv_calls)); } \
	static void g_##side##_bps(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, per_call(S->bytes_sent, S->send_calls)); } \
	static void g_##side##_sent(const ws_report_ctx *c, ws_out_value *v) { v_uint(v, S->bytes_sent); } \
	static void g_##side##_recvd(const ws_report_ctx *c, ws_out_value *v) { v_uint(v, S->bytes_recv); } \
	static void g_##side##_xferd(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, (double)S->bytes_sent + (double)S->bytes_recv); } \
	static void g_##side##_send_width(const ws_report_ctx *c, ws_out_value *v)            \
	{                                                                                      \
		v_int(v, is_rr(c) ? 1 : width(S->sndbuf_set, S->send_size, S->send_calls > 0)); \
	}                                                                                      \
	static void g_##side##_recv_width(const ws_report_ctx *c, ws_out_value *v)            \
	{                                                                                      \
		v_int(v, is_rr(c) ? 1 : width(S->rcvbuf_set, S->recv_size, S->recv_calls > 0)); \
	}
SIDE_GETTERS(loc, loc(c))
SIDE_GETTERS(rem, rem(c))

static void g_zero(const ws_report_ctx *c, ws_out_value *v) { (void)c; v_int(v, 0); }
static void g_minus1(const ws_report_ctx *c, ws_out_value *v) { (void)c; v_int(v, -1); }
static void g_align(const ws_report_ctx *c, ws_out_value *v) { (void)c; v_int(v, 8); }
static void g_nodelay(const ws_report_ctx *c, ws_out_value *v) { v_int(v, c->r->spec.nodelay ? 1 : 0); }
static void g_deprecated(const ws_report_ctx *c, ws_out_value *v) { (void)c; v_str(v, "Deprecated"); }
static void g_no_ifid(const ws_report_ctx *c, ws_out_value *v) { (void)c; v_int(v, -2); }

/* ---- getters: identity, latency, the rest ------------------------------------------------ */

static void g_brand(const ws_report_ctx *c, ws_out_value *v)
{
	if (c->brand && c->brand[0])
		v_str(v, c->brand);
}

static void g_uuid(const ws_report_ctx *c, ws_out_value *v) { v_str(v, c->uuid); }
static void g_command_line(const ws_report_ctx *c, ws_out_value *v) { v_str(v, c->command_line); }
static void g_loc_fill(const ws_report_ctx *c, ws_out_value *v) { v_str(v, c->r->spec.fill_file); }
static void g_rem_fill(const ws_report_ctx *c, ws_out_value *v) { (void)c; v_str(v, ""); }
static void g_loc_cong(const ws_report_ctx *c, ws_out_value *v) { v_str(v, is_udp(c) ? "" : c->local_cong); }
static void g_rem_cong(const ws_report_ctx *c, ws_out_value *v) { v_str(v, is_udp(c) ? "" : c->remote_cong); }

/* Latency: whole microseconds for the percentiles and extremes ("%d", as netperf's
 * integer microseconds), two decimals for mean and stddev. Without statistics, or
 * without a histogram (stream tests: warpspeed does not time each send call), netperf's
 * "not computed" -1. */
enum lat_field { L_MIN, L_MAX, L_P50, L_P90, L_P99, L_P999, L_P9999, L_MEAN, L_STDDEV };

static void latency(const ws_report_ctx *c, ws_out_value *v, enum lat_field f)
{
	ws_latency_stats tmp;
	const ws_latency_stats *s = c->want_stats ? lat(c, &tmp) : NULL;
	bool have = s && s->count > 0;
	const double x[] = {have ? s->min_us : 0, have ? s->max_us : 0, have ? s->p50_us : 0,
			    have ? s->p90_us : 0, have ? s->p99_us : 0, have ? s->p999_us : 0,
			    have ? s->p9999_us : 0, have ? s->mean_us : 0, have ? s->stddev_us : 0};
	if (f == L_MEAN || f == L_STDDEV)
		v_dbl(v, have ? x[f] : -1.0);
	else
		v_int(v, have ? (int64_t)floor(x[f]) : -1);
}

static void g_min_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_MIN); }
static void g_max_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_MAX); }
static void g_p50_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_P50); }
static void g_p90_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_P90); }
static void g_p99_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_P99); }
static void g_p999_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_P999); }
static void g_p9999_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_P9999); }
static void g_mean_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_MEAN); }
static void g_stddev_lat(const ws_report_ctx *c, ws_out_value *v) { latency(c, v, L_STDDEV); }

static void g_streams(const ws_report_ctx *c, ws_out_value *v)
{
	v_int(v, c->r->spec.streams ? c->r->spec.streams : 1);
}

/* Jain's index over the receiving side's per-flow rates (RR: per-flow transactions);
 * 1 for a single flow. */
static void g_fairness(const ws_report_ctx *c, ws_out_value *v)
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
				x[n++] = (double)s->flows[i].transactions / secs(s->flows[i].elapsed_ns);
	} else {
		n = ws_stream_rates(s, x, &failed);
	}
	ws_stream_stats st;
	ws_stream_stats_of(x, n, &st);
	free(x);
	v_dbl(v, n ? st.jain : -1.0);
}

static void g_loc_io(const ws_report_ctx *c, ws_out_value *v) { v_str(v, loc(c)->io_path); }
static void g_rem_io(const ws_report_ctx *c, ws_out_value *v) { v_str(v, rem(c)->io_path); }

/* The test threads' own CPU time (RUSAGE_THREAD) as a percentage of one CPU over the side's
 * interval: what the benchmark itself cost, apart from the rest of the machine. */
static double thread_pct(const ws_side_result *s, int64_t ns)
{
	return s->elapsed_ns > 0 ? (double)ns * 100.0 / (double)s->elapsed_ns : 0.0;
}

#define THREAD_GETTERS(side, S)                                                                \
	static void g_##side##_thr(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, thread_pct(S, S->thread_user_ns + S->thread_sys_ns)); } \
	static void g_##side##_thr_user(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, thread_pct(S, S->thread_user_ns)); } \
	static void g_##side##_thr_sys(const ws_report_ctx *c, ws_out_value *v) { v_dbl(v, thread_pct(S, S->thread_sys_ns)); }
THREAD_GETTERS(loc, loc(c))
THREAD_GETTERS(rem, rem(c))

/* ---- the table --------------------------------------------------------------------------- */

#define N(name, l0, l1, l2, l3, unit, fmt, get) {name, {l0, l1, l2, l3}, unit, fmt, get, false}
#define W(name, l0, l1, l2, l3, unit, fmt, get) {name, {l0, l1, l2, l3}, unit, fmt, get, true}
#define CPU_ROWS(P, S, side)                                                                   \
	N(P "_CPU_UTIL", S, "CPU", "Util", "%", "%", "%.2f", g_##side##_util),                 \
	N(P "_CPU_PERCENT_USER", S, "CPU", "User", "%", "%", "%.2f", g_##side##_user),         \
	N(P "_CPU_PERCENT_SYSTEM", S, "CPU", "System", "%", "%", "%.2f", g_##side##_sys),      \
	N(P "_CPU_PERCENT_IOWAIT", S, "CPU", "I/O", "%", "%", "%.2f", g_##side##_iowait),      \
	N(P "_CPU_PERCENT_IRQ", S, "CPU", "IRQ", "%", "%", "%.2f", g_##side##_irq),            \
	N(P "_CPU_PERCENT_SWINTR", S, "CPU", "swintr", "%", "%", "%.2f", g_##side##_swintr),   \
	N(P "_CPU_METHOD", S, "CPU", "Util", "Method", "", "%c", g_##side##_method),            \
	N(P "_SD", S, "Service", "Demand", "", "", "%.3f", g_##side##_sd)
#define CPU_INFO_ROWS(P, S, side)                                                              \
	N(P "_CPU_BIND", S, "CPU", "Bind", "", "", "%d", g_##side##_bind),                     \
	N(P "_CPU_COUNT", S, "CPU", "Count", "", "", "%d", g_##side##_count),                  \
	N(P "_CPU_PEAK_UTIL", S, "Peak", "Per CPU", "Util %", "%", "%.2f", g_##side##_peak_util), \
	N(P "_CPU_PEAK_ID", S, "Peak", "Per CPU", "ID", "", "%d", g_##side##_peak_id),         \
	N(P "_CPU_MODEL", S, "CPU", "Model", "", "", "%s", g_deprecated),                     \
	N(P "_CPU_FREQUENCY", S, "CPU", "Frequency", "MHz", "MHz", "%d", g_zero)
#define CALL_ROWS(P, S, side)                                                                  \
	N(P "_SEND_CALLS", S, "Send", "Calls", "", "", "%llu", g_##side##_send_calls),         \
	N(P "_RECV_CALLS", S, "Recv", "Calls", "", "", "%llu", g_##side##_recv_calls),         \
	N(P "_BYTES_PER_RECV", S, "Bytes", "Per", "Recv", "bytes", "%.2f", g_##side##_bpr),    \
	N(P "_BYTES_PER_SEND", S, "Bytes", "Per", "Send", "bytes", "%.2f", g_##side##_bps),    \
	N(P "_BYTES_SENT", S, "Bytes", "Sent", "", "bytes", "%llu", g_##side##_sent),          \
	N(P "_BYTES_RECVD", S, "Bytes", "Received", "", "bytes", "%llu", g_##side##_recvd),    \
	N(P "_BYTES_XFERD", S, "Bytes", "Xferred", "", "bytes", "%.0f", g_##side##_xferd),     \
	N(P "_SEND_OFFSET", S, "Send", "Offset", "", "bytes", "%d", g_zero),                   \
	N(P "_RECV_OFFSET", S, "Recv", "Offset", "", "bytes", "%d", g_zero),                   \
	N(P "_SEND_ALIGN", S, "Send", "Alignment", "", "bytes", "%d", g_align),                \
	N(P "_RECV_ALIGN", S, "Recv", "Alignment", "", "bytes", "%d", g_align),                \
	N(P "_SEND_WIDTH", S, "Send", "Width", "", "", "%d", g_##side##_send_width),           \
	N(P "_RECV_WIDTH", S, "Recv", "Width", "", "", "%d", g_##side##_recv_width),           \
	N(P "_SEND_DIRTY_COUNT", S, "Send", "Dirty", "Count", "", "%d", g_minus1),             \
	N(P "_RECV_DIRTY_COUNT", S, "Recv", "Dirty", "Count", "", "%d", g_minus1),             \
	N(P "_RECV_CLEAN_COUNT", S, "Recv", "Clean", "Count", "", "%d", g_minus1),             \
	N(P "_NODELAY", S, "NODELAY", "", "", "", "%d", g_nodelay),                            \
	N(P "_CORK", S, "Cork", "", "", "", "%d", g_zero)
#define SYS_ROWS(P, S)                                                                         \
	N(P "_SYSNAME", S, "Sysname", "", "", "", "%s", g_deprecated),                        \
	N(P "_SYSTEM_MODEL", S, "System", "Model", "", "", "%s", g_deprecated),               \
	N(P "_RELEASE", S, "Release", "", "", "", "%s", g_deprecated),                        \
	N(P "_VERSION", S, "Version", "", "", "", "%s", g_deprecated),                        \
	N(P "_MACHINE", S, "Machine", "", "", "", "%s", g_deprecated)
#define IF_ROWS(P, S)                                                                          \
	N(P "_INTERFACE_NAME", S, "Interface", "Name", "", "", "%s", g_deprecated),           \
	N(P "_INTERFACE_VENDOR", S, "Interface", "Vendor", "", "", "0x%.4x", g_no_ifid),      \
	N(P "_INTERFACE_DEVICE", S, "Interface", "Device", "", "", "0x%.4x", g_no_ifid),      \
	N(P "_INTERFACE_SUBVENDOR", S, "Interface", "Subvendor", "", "", "0x%.4x", g_no_ifid), \
	N(P "_INTERFACE_SUBDEVICE", S, "Interface", "Subdevice", "", "", "0x%.4x", g_no_ifid), \
	N(P "_DRIVER_NAME", S, "Driver", "Name", "", "", "%s", g_deprecated),                 \
	N(P "_DRIVER_VERSION", S, "Driver", "Version", "", "", "%s", g_deprecated),           \
	N(P "_DRIVER_FIRMWARE", S, "Driver", "Firmware", "", "", "%s", g_deprecated),         \
	N(P "_DRIVER_BUS", S, "Driver", "Bus", "", "", "%s", g_deprecated),                   \
	N(P "_INTERFACE_SLOT", S, "Interface", "Slot", "", "", "%s", g_deprecated)

static const ws_out_name table[] = {
	N("OUTPUT_NONE", " ", "", "", "", "", "%s", g_none),
	N("SOCKET_TYPE", "Socket", "Type", "", "", "", "%s", g_socket_type),
	N("PROTOCOL", "Protocol", "", "", "", "", "%s", g_protocol),
	N("DIRECTION", "Direction", "", "", "", "", "%s", g_direction),
	N("ELAPSED_TIME", "Elapsed", "Time", "(sec)", "", "s", "%.2f", g_elapsed),
	N("THROUGHPUT", "Throughput", "", "", "", "", "%.2f", g_throughput),
	N("THROUGHPUT_UNITS", "Throughput", "Units", "", "", "", "%s/s", g_throughput_units),
	N("LSS_SIZE_REQ", "Local", "Send Socket", "Size", "Requested", "bytes", "%d", g_lss_req),
	N("LSS_SIZE", "Local", "Send Socket", "Size", "Initial", "bytes", "%d", g_lss),
	N("LSS_SIZE_END", "Local", "Send Socket", "Size", "Final", "bytes", "%d", g_lss_end),
	N("LSR_SIZE_REQ", "Local", "Recv Socket", "Size", "Requested", "bytes", "%d", g_lsr_req),
	N("LSR_SIZE", "Local", "Recv Socket", "Size", "Initial", "bytes", "%d", g_lsr),
	N("LSR_SIZE_END", "Local", "Recv Socket", "Size", "Final", "bytes", "%d", g_lsr_end),
	N("RSS_SIZE_REQ", "Remote", "Send Socket", "Size", "Requested", "bytes", "%d", g_rss_req),
	N("RSS_SIZE", "Remote", "Send Socket", "Size", "Initial", "bytes", "%d", g_rss),
	N("RSS_SIZE_END", "Remote", "Send Socket", "Size", "Final", "bytes", "%d", g_rss_end),
	N("RSR_SIZE_REQ", "Remote", "Recv Socket", "Size", "Requested", "bytes", "%d", g_rsr_req),
	N("RSR_SIZE", "Remote", "Recv Socket", "Size", "Initial", "bytes", "%d", g_rsr),
	N("RSR_SIZE_END", "Remote", "Recv Socket", "Size", "Final", "bytes", "%d", g_rsr_end),
	N("LOCAL_SEND_SIZE", "Local", "Send", "Size", "", "bytes", "%d", g_local_send_size),
	N("LOCAL_RECV_SIZE", "Local", "Recv", "Size", "", "bytes", "%d", g_local_recv_size),
	N("REMOTE_SEND_SIZE", "Remote", "Send", "Size", "", "bytes", "%d", g_remote_send_size),
	N("REMOTE_RECV_SIZE", "Remote", "Recv", "Size", "", "bytes", "%d", g_remote_recv_size),
	N("REQUEST_SIZE", "Request", "Size", "Bytes", "", "bytes", "%d", g_request_size),
	N("RESPONSE_SIZE", "Response", "Size", "Bytes", "", "bytes", "%d", g_response_size),
	CPU_ROWS("LOCAL", "Local", loc),
	CPU_ROWS("REMOTE", "Remote", rem),
	N("SD_UNITS", "Service", "Demand", "Units", "", "", "%s", g_sd_units),
	N("CONFIDENCE_LEVEL", "Confidence", "Level", "Percent", "", "%", "%d", g_conf_level),
	N("CONFIDENCE_INTERVAL", "Confidence", "Width", "Target", "", "%", "%f", g_conf_interval),
	N("CONFIDENCE_ITERATION", "Confidence", "Iterations", "Run", "", "", "%d", g_conf_iter),
	N("THROUGHPUT_CONFID", "Throughput", "Confidence", "Width (%)", "", "%", "%.3f", g_tput_confid),
	N("LOCAL_CPU_CONFID", "Local", "CPU", "Confidence", "Width (%)", "%", "%.3f", g_loc_confid),
	N("REMOTE_CPU_CONFID", "Remote", "CPU", "Confidence", "Width (%)", "%", "%.3f", g_rem_confid),
	N("TRANSACTION_RATE", "Transaction", "Rate", "Tran/s", "", "1/s", "%.3f", g_trans_rate),
	N("RT_LATENCY", "Round", "Trip", "Latency", "usec/tran", "us", "%.3f", g_rt_latency),
	N("BURST_SIZE", "Initial", "Burst", "Requests", "", "", "%d", g_burst),
	N("LOCAL_TRANSPORT_RETRANS", "Local", "Transport", "Retransmissions", "", "", "%d", g_loc_retrans),
	N("REMOTE_TRANSPORT_RETRANS", "Remote", "Transport", "Retransmissions", "", "", "%d", g_rem_retrans),
	N("TRANSPORT_MSS", "Transport", "MSS", "bytes", "", "bytes", "%d", g_mss),
	N("LOCAL_SEND_THROUGHPUT", "Local", "Send", "Throughput", "", "", "%.2f", g_loc_send_tput),
	N("LOCAL_RECV_THROUGHPUT", "Local", "Recv", "Throughput", "", "", "%.2f", g_loc_recv_tput),
	N("REMOTE_SEND_THROUGHPUT", "Remote", "Send", "Throughput", "", "", "%.2f", g_rem_send_tput),
	N("REMOTE_RECV_THROUGHPUT", "Remote", "Recv", "Throughput", "", "", "%.2f", g_rem_recv_tput),
	CPU_INFO_ROWS("LOCAL", "Local", loc),
	CPU_INFO_ROWS("REMOTE", "Remote", rem),
	N("SOURCE_PORT", "Source", "Port", "", "", "", "%s", g_src_port),
	N("SOURCE_ADDR", "Source", "Address", "", "", "", "%s", g_src_addr),
	N("SOURCE_FAMILY", "Source", "Family", "", "", "", "%d", g_src_family),
	N("DEST_PORT", "Destination", "Port", "", "", "", "%s", g_dst_port),
	N("DEST_ADDR", "Destination", "Address", "", "", "", "%s", g_dst_addr),
	N("DEST_FAMILY", "Destination", "Family", "", "", "", "%d", g_dst_family),
	CALL_ROWS("LOCAL", "Local", loc),
	CALL_ROWS("REMOTE", "Remote", rem),
	SYS_ROWS("LOCAL", "Local"),
	SYS_ROWS("REMOTE", "Remote"),
	IF_ROWS("LOCAL", "Local"),
	IF_ROWS("REMOTE", "Remote"),
	N("LOCAL_INTERVAL_USECS", "Local", "Interval", "Usecs", "", "us", "%d", g_zero),
	N("LOCAL_INTERVAL_BURST", "Local", "Interval", "Burst", "", "", "%d", g_zero),
	N("REMOTE_INTERVAL_USECS", "Remote", "Interval", "Usecs", "", "us", "%d", g_zero),
	N("REMOTE_INTERVAL_BURST", "Remote", "Interval", "Burst", "", "", "%d", g_zero),
	N("LOCAL_SECURITY_TYPE_ID", "Local", "OS", "Security", "Type ID", "", "%d", g_zero),
	N("LOCAL_SECURITY_TYPE", "Local", "OS", "Security", "Type", "", "%s", g_deprecated),
	N("LOCAL_SECURITY_ENABLED_NUM", "Local", "OS", "Security", "Enabled Num", "", "%d", g_zero),
	N("LOCAL_SECURITY_ENABLED", "Local", "OS", "Security", "Enabled", "", "%s", g_deprecated),
	N("LOCAL_SECURITY_SPECIFIC", "Local", "OS", "Security", "Specific", "", "%s", g_deprecated),
	/* netperf's headers for the remote ID and number lack their last word. */
	N("REMOTE_SECURITY_TYPE_ID", "Remote", "OS", "Security", "Type", "", "%d", g_zero),
	N("REMOTE_SECURITY_TYPE", "Remote", "OS", "Security", "Type", "", "%s", g_deprecated),
	N("REMOTE_SECURITY_ENABLED_NUM", "Remote", "OS", "Security", "Enabled", "", "%d", g_zero),
	N("REMOTE_SECURITY_ENABLED", "Remote", "OS", "Security", "Enabled", "", "%s", g_deprecated),
	N("REMOTE_SECURITY_SPECIFIC", "Remote", "OS", "Security", "Specific", "", "%s", g_deprecated),
	N("RESULT_BRAND", "Result", "Tag", "", "", "", "\"%s\"", g_brand),
	N("UUID", "Test", "UUID", "", "", "", "%s", g_uuid),
	N("MIN_LATENCY", "Minimum", "Latency", "Microseconds", "", "us", "%d", g_min_lat),
	N("MAX_LATENCY", "Maximum", "Latency", "Microseconds", "", "us", "%d", g_max_lat),
	N("P50_LATENCY", "50th", "Percentile", "Latency", "Microseconds", "us", "%d", g_p50_lat),
	N("P90_LATENCY", "90th", "Percentile", "Latency", "Microseconds", "us", "%d", g_p90_lat),
	N("P99_LATENCY", "99th", "Percentile", "Latency", "Microseconds", "us", "%d", g_p99_lat),
	N("MEAN_LATENCY", "Mean", "Latency", "Microseconds", "", "us", "%.2f", g_mean_lat),
	N("STDDEV_LATENCY", "Stddev", "Latency", "Microseconds", "", "us", "%.2f", g_stddev_lat),
	N("LOCAL_SOCKET_PRIO", "Local", "Socket", "Priority", "", "", "%d", g_minus1),
	N("REMOTE_SOCKET_PRIO", "Remote", "Socket", "Priority", "", "", "%d", g_minus1),
	N("LOCAL_SOCKET_TOS", "Local", "Socket", "TOS", "", "", "0x%.2x", g_minus1),
	N("REMOTE_SOCKET_TOS", "Remote", "Socket", "TOS", "", "", "0x%.2x", g_minus1),
	N("LOCAL_CONG_CONTROL", "Local", "Congestion", "Control", "Algorithm", "", "%s", g_loc_cong),
	N("REMOTE_CONG_CONTROL", "Remote", "Congestion", "Control", "Algorithm", "", "%s", g_rem_cong),
	N("LOCAL_FILL_FILE", "Local", "Fill", "File", "", "", "%s", g_loc_fill),
	N("REMOTE_FILL_FILE", "Remote", "Fill", "File", "", "", "%s", g_rem_fill),
	N("COMMAND_LINE", "Command", "Line", "", "", "", "\"%s\"", g_command_line),
	N("OUTPUT_END", "This", "Is", "The", "End", "", "%s", NULL),
	/* warpspeed's additions. */
	W("P99_9_LATENCY", "99.9th", "Percentile", "Latency", "Microseconds", "us", "%d", g_p999_lat),
	W("P99_99_LATENCY", "99.99th", "Percentile", "Latency", "Microseconds", "us", "%d", g_p9999_lat),
	W("STREAMS", "Streams", "", "", "", "", "%d", g_streams),
	W("FAIRNESS", "Jain", "Fairness", "Index", "", "", "%.4f", g_fairness),
	W("LOCAL_IO_PATH", "Local", "I/O", "Path", "", "", "%s", g_loc_io),
	W("REMOTE_IO_PATH", "Remote", "I/O", "Path", "", "", "%s", g_rem_io),
	W("LOCAL_THREAD_CPU", "Local", "Thread", "CPU", "% of 1", "%", "%.2f", g_loc_thr),
	W("LOCAL_THREAD_CPU_USER", "Local", "Thread", "CPU User", "% of 1", "%", "%.2f", g_loc_thr_user),
	W("LOCAL_THREAD_CPU_SYSTEM", "Local", "Thread", "CPU System", "% of 1", "%", "%.2f", g_loc_thr_sys),
	W("REMOTE_THREAD_CPU", "Remote", "Thread", "CPU", "% of 1", "%", "%.2f", g_rem_thr),
	W("REMOTE_THREAD_CPU_USER", "Remote", "Thread", "CPU User", "% of 1", "%", "%.2f", g_rem_thr_user),
	W("REMOTE_THREAD_CPU_SYSTEM", "Remote", "Thread", "CPU System", "% of 1", "%", "%.2f", g_rem_thr_sys),
};

size_t ws_out_count(void)
{
	return sizeof(table) / sizeof(table[0]);
}

const ws_out_name *ws_out_at(size_t i)
{
	return i < ws_out_count() ? &table[i] : NULL;
}

int ws_out_find(const char *name)
{
	for (size_t i = 0; name && i < ws_out_count(); i++)
		if (!strcasecmp(name, table[i].name))
			return (int)i;
	return -1;
}

/* netperf's match_string_to_output: the name, or the header lines joined by one blank. */
int ws_out_find_name_or_header(const char *text)
{
	int i = ws_out_find(text);
	if (i >= 0 || !text)
		return i;
	for (size_t k = 0; k < ws_out_count(); k++) {
		char joined[128];
		size_t len = 0;
		for (int l = 0; l < 4 && table[k].line[l][0]; l++)
			len += (size_t)snprintf(joined + len, sizeof(joined) - len, "%s%s", l ? " " : "",
						table[k].line[l]);
		if (len < sizeof(joined) && !strcasecmp(text, joined))
			return (int)k;
	}
	return -1;
}

void ws_out_value_of(const ws_out_name *e, const ws_report_ctx *c, ws_out_value *v)
{
	memset(v, 0, sizeof(*v));
	v->kind = WS_OUT_V_NONE;
	if (e && e->get && c && c->r)
		e->get(c, v);
}

/* The formats are the table's own constants, each paired with its value kind above. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
int ws_out_format_value(const ws_out_name *e, const ws_out_value *v, char *buf, size_t n)
{
	int len = 0;
	if (!n)
		return 0;
	buf[0] = 0;
	switch (v->kind) {
	case WS_OUT_V_INT: len = snprintf(buf, n, e->format, (int)v->i); break;
	case WS_OUT_V_UINT: len = snprintf(buf, n, e->format, (unsigned long long)v->u); break;
	case WS_OUT_V_DOUBLE: len = snprintf(buf, n, e->format, v->d); break;
	case WS_OUT_V_STR: len = snprintf(buf, n, e->format, v->s ? v->s : ""); break;
	case WS_OUT_V_CHAR: len = snprintf(buf, n, e->format, v->c); break;
	case WS_OUT_V_NONE: break;
	}
	if (len < 0)
		len = 0;
	return (size_t)len < n ? len : (int)n - 1;
}
#pragma GCC diagnostic pop
