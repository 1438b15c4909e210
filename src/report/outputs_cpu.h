/* SPDX-License-Identifier: BSD-2-Clause */
/* outputs_cpu: the getters of the output names about CPU (LOCAL_CPU_UTIL ..
 * REMOTE_CPU_BIND, SD_UNITS, the peak CPU), for outputs_table.c; internal to report/
 * like outputs_get.h, whose value helpers they share. */
#ifndef WS_REPORT_OUTPUTS_CPU_H
#define WS_REPORT_OUTPUTS_CPU_H

#include "report/outputs.h"

/* clang-format off */
#define WS_OG(name) void ws_og_##name(const ws_report_ctx *c, ws_out_value *v);
WS_OG(sd_units)
WS_OG(loc_peak_util)
WS_OG(loc_peak_id)
WS_OG(rem_peak_util)
WS_OG(rem_peak_id)
WS_OG(loc_util)
WS_OG(loc_user)
WS_OG(loc_sys)
WS_OG(loc_iowait)
WS_OG(loc_irq)
WS_OG(loc_swintr)
WS_OG(loc_method)
WS_OG(loc_sd)
WS_OG(loc_count)
WS_OG(loc_bind)
WS_OG(rem_util)
WS_OG(rem_user)
WS_OG(rem_sys)
WS_OG(rem_iowait)
WS_OG(rem_irq)
WS_OG(rem_swintr)
WS_OG(rem_method)
WS_OG(rem_sd)
WS_OG(rem_count)
WS_OG(rem_bind)
/* clang-format on */
#undef WS_OG

#endif
