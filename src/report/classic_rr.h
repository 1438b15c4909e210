/* SPDX-License-Identifier: BSD-2-Clause */
/* classic_rr: netperf's classic output for TCP_RR, UDP_RR and TCP_CRR, and what warpspeed
 * adds to it where no parser of netperf's table can trip on it.
 *
 * The layouts are those of netperf 2.7.0 as tests/goldens/netperf/{tcp,udp}_rr*.txt and
 * tcp_crr*.txt captured them, trailing blanks included: the banner ("MIGRATED TCP
 * REQUEST/RESPONSE TEST ... : first burst N", UDP the same, "MIGRATED TCP
 * Connect/Request/Response TEST" without the burst), the "Local /Remote" block whose first
 * row is the local socket sizes, request and response sizes, elapsed time and the rate
 * (transactions per second for -f x, the default, else request plus response bytes in
 * the -f unit), with CPU and service demand in us/Tr for -c/-C (per KB, as netperf, for
 * an -f letter other than x), and whose second row is
 * the remote socket sizes. The three tests differ in small ways netperf has (separators,
 * trailing blanks, CRR's CPU header without method letters, the -v 2 blocks), kept as data
 * in one table. warpspeed's own lines come after netperf's: at -v 2 the decade histogram
 * netperf prints when built with --enable-histogram, the round-trip statistics
 * (measure/latency.h), connection and loss counts and per-flow rows; at -v >= 1 a
 * lost-transaction line and the open-loop schedule line. */
#ifndef WS_REPORT_CLASSIC_RR_H
#define WS_REPORT_CLASSIC_RR_H

#include <stdbool.h>
#include <stdio.h>

#include "model/result.h"
#include "report/classic.h"

struct ws_err;

/* True for TCP_RR, UDP_RR and TCP_CRR. */
bool ws_classic_rr_handles(enum ws_test_type t);

/* Render r (an RR-family result) as netperf's classic output to out; o NULL = defaults.
 * fmt 'x' or 0 gives transactions per second; G M K g m k give the throughput layout.
 * Returns 0; -WS_E_INVAL with err naming the problem for another test type or fmt letter
 * (nothing is written then); or a negative errno when writing fails. */
int ws_classic_rr_render(const ws_test_result *r, const ws_classic_opts *o, FILE *out,
			 struct ws_err *err);

/* The RR family's warnings for people (stderr), one line each, "PROG: warning: ..." (prog: the name it was called by):
 * transactions lost (UDP_RR) and late replies, failed connects (TCP_CRR), round trips
 * beyond the histogram's 100 s range, an open-loop schedule that did not hold. Returns
 * how many lines were written, or a negative errno when writing fails. */
int ws_classic_rr_warnings(const ws_test_result *r, const char *prog, FILE *out);

#endif
