/* SPDX-License-Identifier: BSD-2-Clause */
/* host: the IQ host transport's internal interface, as one include for its users.
 *
 * host.c implements include/warpspeed/iq.h on top of the modules below it: the handle and
 * its socket (hostio.h), commands with backoff (hostcmd.h) and sample conversions
 * (iqconv.h). The unit tests and the fuzzers that look inside the transport include this
 * header; the Read IQ, Write IQ and trigger engines include only what they use, so that
 * every dependency points down to hostio. Nothing here is part of the installed
 * interface. */
#ifndef WS_IQ_HOST_H
#define WS_IQ_HOST_H

#include <warpspeed/iq.h>

#include "iq/host/hostcmd.h"
#include "iq/host/hostio.h"
#include "iq/wire/iqconv.h"

/* Most samples per packet of ws_iq_open_raw: a 65507-byte UDP payload. */
#define WS_IQ_RAW_MAX_SPP ((65507u - WS_WIRE_SAMPLE_PKT_HDR) / 4)

/* A handle on the node c->addr:c->port (with c's IDs, buffers and patience) that sends
 * and expects sample packets of spp samples, without PING, payload size test or
 * NODE_INFO: for callers that learned the geometry themselves (the MEX transport). The
 * engines' entry points (ws_iqread_run, ws_iqwrite_run) then drive it directly. */
int ws_iq_open_raw(const ws_iq_config *c, uint32_t spp, ws_iq_node **out, ws_iq_error *err);

#endif
