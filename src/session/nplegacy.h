/* SPDX-License-Identifier: BSD-2-Clause */
/* nplegacy: the client's side of the netperf exchanges that netperf 2.7.0 never migrated
 * to DO_OMNI, for the tests that use them against a stock netserver.
 *
 * TCP_MSS sends the old DO_TCP_STREAM request (the data connection is made, its MSS read,
 * and closed at once), TCP_CC sends DO_TCP_CC (connections that the netserver accepts and
 * closes, counted on both ends), and REM_CPU sends CPU_CALIBRATE alone (its reply holds
 * the netserver's CPU rate and count). This module builds those requests from the spec,
 * reads the replies and maps them onto the remote side of the result, as npmap.c does for
 * the omni messages; npclient.c runs the data phase between them. */
#ifndef WS_SESSION_NPLEGACY_H
#define WS_SESSION_NPLEGACY_H

#include "model/result.h"

#include <stdbool.h>
#include <stdint.h>

struct ws_err;

/* Whether the test runs over a legacy request (TCP_MSS, TCP_CC) rather than DO_OMNI. */
bool ws_nplegacy_handles(enum ws_test_type t);

/* REM_CPU: CPU_CALIBRATE on fd; fills remote->cpu_rate and remote->ncpus. */
int ws_nplegacy_calibrate(int fd, ws_side_result *remote, struct ws_err *err);

/* The legacy request for the spec on fd (family 4 or 6: the data connection's), its
 * response into *remote; returns the data port, or a negative code. *cpu_echoed says
 * whether the netserver measures its CPU. */
int ws_nplegacy_request(int fd, const ws_test_spec *spec, int family, ws_side_result *remote,
			bool *cpu_echoed, struct ws_err *err);

/* The results that follow the data phase, read by deadline_ns, into *remote. */
int ws_nplegacy_results(int fd, const ws_test_spec *spec, bool cpu_echoed, int64_t deadline_ns,
			ws_side_result *remote, struct ws_err *err);

#endif
