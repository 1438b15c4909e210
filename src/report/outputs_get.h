/* SPDX-License-Identifier: BSD-2-Clause */
/* outputs_get: the getters behind the output-name table, shared by outputs_table.c (which
 * points at them) and outputs_get.c (which defines them; the CPU ones are outputs_cpu.h),
 * and the small helpers every getter file uses (what kind of test, the sides, the value
 * constructors). Internal to report/: callers read values through ws_out_value_of
 * (outputs.h). */
#ifndef WS_REPORT_OUTPUTS_GET_H
#define WS_REPORT_OUTPUTS_GET_H

#include "report/outputs.h"

/* ---- what kind of test ------------------------------------------------------------------ */

static inline enum ws_test_type type_of(const ws_report_ctx *c) { return c->r->spec.type; }

/* Each answered by the test-type table (model/testtype.h). */
static inline bool is_rr(const ws_report_ctx *c)
{
	return ws_test_type_has(type_of(c), WS_TO_REQUESTS);
}

/* TCP_CC (in the outputs only as -t omni -- -c): transactions, but no request or response */
static inline bool is_cc(const ws_report_ctx *c)
{
	return ws_test_type_family(type_of(c)) == WS_TF_CC;
}

static inline bool is_udp(const ws_report_ctx *c) { return ws_test_type_udp(type_of(c)); }

static inline bool client_receives(const ws_report_ctx *c)
{
	return ws_test_type_role(type_of(c), true) == WS_ROLE_RECEIVER;
}

/* What netperf reads from the data socket at the end (TCP_INFO, congestion control). */
static inline bool has_tcp_socket(const ws_report_ctx *c)
{
	return !is_udp(c) && ws_test_type_has(type_of(c), WS_TO_SOCKET);
}

static inline const ws_side_result *loc(const ws_report_ctx *c) { return &c->r->local; }

static inline const ws_side_result *rem(const ws_report_ctx *c) { return &c->r->remote; }

/* ---- value constructors ----------------------------------------------------------------- */

static inline void v_int(ws_out_value *v, int64_t i)
{
	v->kind = WS_OUT_V_INT;
	v->i = i;
}

static inline void v_dbl(ws_out_value *v, double d)
{
	v->kind = WS_OUT_V_DOUBLE;
	v->d = d;
}

static inline void v_str(ws_out_value *v, const char *s)
{
	v->kind = WS_OUT_V_STR;
	v->s = s ? s : "";
}

static inline void v_chr(ws_out_value *v, char ch)
{
	v->kind = WS_OUT_V_CHAR;
	v->c = ch;
}

/* clang-format off */
/* Names that print a spec or result field as it is have no getter here: the table gives
 * them og_field (outputs_table.c), which reads the field of that output name in
 * model/fields.h. */
#define WS_OG(name) void ws_og_##name(const ws_report_ctx *c, ws_out_value *v);
WS_OG(none)
WS_OG(socket_type)
WS_OG(protocol)
WS_OG(direction)
WS_OG(elapsed)
WS_OG(throughput)
WS_OG(throughput_units)
WS_OG(lss_req)
WS_OG(lsr_req)
WS_OG(rss_req)
WS_OG(rsr_req)
WS_OG(local_send_size)
WS_OG(local_recv_size)
WS_OG(remote_send_size)
WS_OG(remote_recv_size)
WS_OG(request_size)
WS_OG(response_size)
WS_OG(conf_level)
WS_OG(conf_interval)
WS_OG(conf_iter)
WS_OG(tput_confid)
WS_OG(loc_confid)
WS_OG(rem_confid)
WS_OG(trans_rate)
WS_OG(rt_latency)
WS_OG(loc_retrans)
WS_OG(rem_retrans)
WS_OG(mss)
WS_OG(loc_send_tput)
WS_OG(loc_recv_tput)
WS_OG(rem_send_tput)
WS_OG(rem_recv_tput)
WS_OG(src_port)
WS_OG(dst_port)
WS_OG(src_addr)
WS_OG(src_family)
WS_OG(dst_addr)
WS_OG(dst_family)
WS_OG(loc_send_width)
WS_OG(loc_recv_width)
WS_OG(rem_send_width)
WS_OG(rem_recv_width)
WS_OG(zero)
WS_OG(minus1)
WS_OG(align)
WS_OG(nodelay)
WS_OG(deprecated)
WS_OG(no_ifid)
WS_OG(brand)
WS_OG(uuid)
WS_OG(command_line)
WS_OG(rem_fill)
WS_OG(loc_prio) WS_OG(rem_prio) WS_OG(loc_tos) WS_OG(rem_tos)
WS_OG(loc_cong)
WS_OG(rem_cong)
WS_OG(min_lat)
WS_OG(max_lat)
WS_OG(p50_lat)
WS_OG(p90_lat)
WS_OG(p99_lat)
WS_OG(p999_lat)
WS_OG(p9999_lat)
WS_OG(mean_lat)
WS_OG(stddev_lat)
WS_OG(streams)
WS_OG(fairness)
WS_OG(io)
WS_OG(loc_bpr)
WS_OG(loc_bps)
WS_OG(loc_xferd)
WS_OG(loc_thr)
WS_OG(loc_thr_user)
WS_OG(loc_thr_sys)
WS_OG(rem_bpr)
WS_OG(rem_bps)
WS_OG(rem_xferd)
WS_OG(rem_thr)
WS_OG(rem_thr_user)
WS_OG(rem_thr_sys)
/* clang-format on */
#undef WS_OG

#endif
