/* SPDX-License-Identifier: BSD-2-Clause */
/* npmap: a warpspeed test spec as netperf's DO_OMNI request, and a netserver's response
 * and results as the remote half of a ws_test_result.
 *
 * Kept apart from the session that moves the messages (npclient) so that the mapping,
 * where netperf's conventions live (sizes of -1 for "the default", test lengths of -N
 * for counts, direction seen from the daemon, CPU fields valid only when the response
 * echoed the CPU flag), is pure and unit-tested. Everything from the peer is range-checked
 * here: a netserver that sends garbage gets its figures marked unavailable or refused with
 * a message, never believed. What netserver cannot report (its threads' CPU time,
 * TCP_INFO, host identity) is left unset, never invented. */
#ifndef WS_SESSION_NPMAP_H
#define WS_SESSION_NPMAP_H

#include "ctl/npmsg.h"
#include "model/result.h"
#include "net/addr.h"

#include <stdbool.h>

struct ws_err;

/* Refuse what a netserver cannot do: several TCP_CRR streams (its flows share one data
 * port, and each netserver child has its own), the daemon's CPUs, an
 * I/O path or mode on the daemon's side, UDP_RR open loop (netserver's replies carry no
 * tag), a count beyond netperf's 32-bit test length. -WS_E_PEER with a message naming the
 * option and saying it needs a warpspeed daemon. */
int ws_npmap_check(const ws_test_spec *spec, struct ws_err *err);

/* The DO_OMNI request for spec. family is the data connection's (4 or 6); client (may be
 * NULL) is the client's bound data address (UDP), data_host (may be NULL) test option
 * -H's address, which the daemon binds. */
void ws_npmap_request(const ws_test_spec *spec, int family, const ws_addr *client,
		      const ws_addr *data_host, ws_np_omni_req *r);

/* The daemon's setup from its OMNI response into *remote (socket sizes and message sizes
 * in effect), after checking serv_errno and the data port (1..65535): -WS_E_REMOTE
 * naming netserver's error, or -WS_E_PROTO. */
int ws_npmap_response(const ws_np_omni_rsp *rsp, const ws_test_spec *spec, ws_side_result *remote,
		      struct ws_err *err);

/* The omni results into *remote: counts, sizes at the end, elapsed time, congestion
 * control, and when cpu_echoed (the response carried WS_NP_F_MEASURE_CPU) the CPU
 * figures, which are marked unmeasured when out of range. -WS_E_REMOTE for a nonzero
 * serv_errno. */
int ws_npmap_results(const ws_np_omni_results *res, const ws_test_spec *spec, bool cpu_echoed,
		     ws_side_result *remote, struct ws_err *err);

/* --streams N against a netserver (netperf's super_netperf, built in): flow i's remote
 * side, from its own netserver child, into the aggregate. Flow 0 sets it up; the others add
 * their counts, the longest elapsed time is kept and the CPU figures (every child measures
 * the same host) are averaged, or unmeasured when any flow lacks them. into->flows, when
 * allocated with nflows entries, gets flow i's bytes, calls and elapsed time. */
void ws_npmap_merge(ws_side_result *into, const ws_side_result *flow, const ws_test_spec *s,
		    uint32_t i);

/* netperf's letter for a cpu_method number ('S' for /proc/stat), 'U' when unknown. */
char ws_npmap_cpu_method(uint32_t method);

#endif
