/* SPDX-License-Identifier: BSD-2-Clause */
/* pathnotes: what became of --mptcp and --busy-poll, in the classic report and the JSON.
 *
 * Both options ask for something the kernel may not give: an MPTCP connection falls back
 * to plain TCP when the peer does not answer MP_CAPABLE, and SO_BUSY_POLL polls nothing on
 * a device without NAPI (loopback) or is refused without CAP_NET_ADMIN. The result carries
 * what each side read back (model/result.h); this module says it, on a line after the
 * classic table at -v 1 (each MPTCP subflow at -v 2) and as the "mptcp" and "busy_poll"
 * objects of each side of the JSON (null when the option was not given). Nothing here is
 * printed for a run without the options, so netperf's output stays as it is. */
#ifndef WS_REPORT_PATHNOTES_H
#define WS_REPORT_PATHNOTES_H

#include "model/result.h"
#include "report/json.h"

#include <stdbool.h>
#include <stdio.h>

/* The lines after the table (verbosity >= 1; subflows at >= 2). */
void ws_pathnotes_print(const ws_test_result *r, int verbosity, FILE *out);

/* The "mptcp" and "busy_poll" members of the local or the remote side's object. */
void ws_pathnotes_json(ws_json *j, const ws_test_result *r, bool local);

#endif
