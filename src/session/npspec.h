/* SPDX-License-Identifier: BSD-2-Clause */
/* npspec: a stock netperf client's test request as the spec of the daemon's side.
 *
 * netperf describes a test in its own terms (direction bits, socket type and protocol,
 * 0xffffffff for a default size, a negative length for a count, addresses as words);
 * warpspeed's engines take a ws_test_spec. This module maps one onto the other and keeps
 * what the replies must echo, apart from the session loop (npserve) that serves the test,
 * so the mapping can be read and tested on its own. It does not apply the daemon's limits
 * (npserve does, as for a warpspeed client). */
#ifndef WS_SESSION_NPSPEC_H
#define WS_SESSION_NPSPEC_H

#include "ctl/npmsg.h"
#include "model/spec.h"
#include "util/err.h"

#include <stdbool.h>
#include <stdint.h>

/* One netperf test as this daemon runs it: the spec of its side and what the replies
 * need from the request. */
typedef struct ws_np_test {
	ws_test_spec spec;
	bool legacy;    /* DO_TCP_STREAM (TCP_SENDFILE, TCP_MSS): legacy replies */
	bool cc;        /* DO_TCP_CC: TCP_CC's legacy replies */
	uint32_t flags; /* omni request flags */
	float cpu_rate; /* as asked (0: this daemon's rate) */
	uint32_t send_width, recv_width;
	uint32_t send_size_asked, recv_size_asked; /* echoed where this side does not use them */
	uint16_t client_port;                      /* UDP: the client's data port */
	char client_ip[64]; /* netperf_ip, numeric; "" = the control peer's */
} ws_np_test;

/* A DO_OMNI request into *t: 0, or a negative code with err naming what is not supported
 * (RDS, a socket type or protocol other than TCP and UDP, RR sizes below 1, a direction
 * with no warpspeed test). */
int ws_npspec_from_omni(const ws_np_omni_req *r, ws_np_test *t, ws_err *err);

/* The legacy DO_TCP_STREAM request (netperf 2.7.0's TCP_SENDFILE) into *t, received until the
 * sender closes whatever its length word says (see npspec.c); always 0. */
int ws_npspec_from_legacy(const ws_np_stream_req *r, ws_np_test *t);

/* The legacy DO_TCP_CC request into *t: TCP_CC for the length asked (-l -N: N
 * connections); always 0. */
int ws_npspec_from_cc(const ws_np_cc_req *r, ws_np_test *t);

#endif
