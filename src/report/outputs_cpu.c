/* SPDX-License-Identifier: BSD-2-Clause */
/* outputs_cpu: the CPU getters of the output-name table (utilisation and its parts, the
 * method, service demand, CPU count and binding, the peak CPU); see outputs_cpu.h. */
#include "report/outputs_cpu.h"

#include "measure/cpu.h"
#include "report/outputs_get.h"

#include <math.h>

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
	case 1:
		return s->cpu_user;
	case 2:
		return s->cpu_system;
	case 5:
		return s->cpu_softirq;
	case 3:
	case 4:
		return 0.0; /* iowait and irq are not split out (inside system) */
	default:
		return s->cpu_util;
	}
}

static double sd_of(const ws_report_ctx *c, bool local)
{
	const ws_side_result *s = local ? loc(c) : rem(c);
	if (!cpu_known(c, local))
		return -1.0;
	/* a netserver is charged with the local counts over the local interval, as netperf does */
	const ws_side_result *b = s->sd_local_basis ? loc(c) : s;
	if (is_rr(c))
		return ws_cpu_service_demand(s->cpu_util, s->ncpus, b->elapsed_ns,
					     loc(c)->transactions, 1.0);
	uint64_t bytes = b != s                 ? b->bytes_sent + b->bytes_recv
		: s->bytes_sent > s->bytes_recv ? s->bytes_sent
						: s->bytes_recv;
	return ws_cpu_service_demand(s->cpu_util, s->ncpus, b->elapsed_ns, bytes, 1024.0);
}

static char method_of(const ws_report_ctx *c, bool local)
{
	const ws_side_result *s = local ? loc(c) : rem(c);
	return cpu_known(c, local) ? (s->cpu_method ? s->cpu_method : 'S') : 'U';
}

#define CPU_GETTERS(side, local)                                                               \
	void ws_og_##side##_util(const ws_report_ctx *c, ws_out_value *v)                      \
	{                                                                                      \
		v_dbl(v, cpu_part(c, local, -1));                                              \
	}                                                                                      \
	void ws_og_##side##_user(const ws_report_ctx *c, ws_out_value *v)                      \
	{                                                                                      \
		v_dbl(v, cpu_part(c, local, 1));                                               \
	}                                                                                      \
	void ws_og_##side##_sys(const ws_report_ctx *c, ws_out_value *v)                       \
	{                                                                                      \
		v_dbl(v, cpu_part(c, local, 2));                                               \
	}                                                                                      \
	void ws_og_##side##_iowait(const ws_report_ctx *c, ws_out_value *v)                    \
	{                                                                                      \
		v_dbl(v, cpu_part(c, local, 3));                                               \
	}                                                                                      \
	void ws_og_##side##_irq(const ws_report_ctx *c, ws_out_value *v)                       \
	{                                                                                      \
		v_dbl(v, cpu_part(c, local, 4));                                               \
	}                                                                                      \
	void ws_og_##side##_swintr(const ws_report_ctx *c, ws_out_value *v)                    \
	{                                                                                      \
		v_dbl(v, cpu_part(c, local, 5));                                               \
	}                                                                                      \
	void ws_og_##side##_method(const ws_report_ctx *c, ws_out_value *v)                    \
	{                                                                                      \
		v_chr(v, method_of(c, local));                                                 \
	}                                                                                      \
	void ws_og_##side##_sd(const ws_report_ctx *c, ws_out_value *v)                        \
	{                                                                                      \
		v_dbl(v, sd_of(c, local));                                                     \
	}                                                                                      \
	void ws_og_##side##_count(const ws_report_ctx *c, ws_out_value *v)                     \
	{                                                                                      \
		v_int(v, cpu_known(c, local) ? (int64_t)(local ? loc(c) : rem(c))->ncpus : 0); \
	}                                                                                      \
	void ws_og_##side##_bind(const ws_report_ctx *c, ws_out_value *v)                      \
	{                                                                                      \
		v_int(v, (local ? loc(c) : rem(c))->cpu_bound_to);                             \
	}
CPU_GETTERS(loc, true)
CPU_GETTERS(rem, false)

void ws_og_sd_units(const ws_report_ctx *c, ws_out_value *v)
{
	v_str(v, is_rr(c) ? "usec/Tran" : "usec/KB");
}

/* warpspeed does not sample per-CPU peaks: netperf's "not measured" values. */
void ws_og_loc_peak_util(const ws_report_ctx *c, ws_out_value *v)
{
	(void)c;
	v_dbl(v, -1.0);
}
void ws_og_loc_peak_id(const ws_report_ctx *c, ws_out_value *v)
{
	(void)c;
	v_int(v, -1);
}
void ws_og_rem_peak_util(const ws_report_ctx *c, ws_out_value *v)
{
	(void)c;
	v_dbl(v, 0.0);
}
void ws_og_rem_peak_id(const ws_report_ctx *c, ws_out_value *v)
{
	(void)c;
	v_int(v, 0);
}
