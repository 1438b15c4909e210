/* SPDX-License-Identifier: BSD-2-Clause */
/* npclient: one test against a stock netserver, over netperf 2.7's own control protocol.
 *
 * The control connection is already open (and, when the peer was probed, already known
 * to be a netserver). Per test, on that same connection: DO_OMNI built from the spec, the
 * OMNI response (the data port and the daemon's sizes), the data connection, the client's
 * role run by the same engines as against a warpspeed daemon (with netperf's data
 * conventions, spec.netperf_peer), the end netserver expects (TCP: the half-close; UDP:
 * three empty datagrams; TCP_CRR: the daemon's own timer), then the omni results into
 * the remote half of the result. So -i iterations are several DO_OMNI on one connection,
 * as netperf sends them. */
#ifndef WS_SESSION_NPCLIENT_H
#define WS_SESSION_NPCLIENT_H

#include "model/result.h"
#include "net/addr.h"
#include "session/client.h"

struct ws_err;
struct ws_psk;

/* netperf's -Z: a PASSPHRASE message first (no answer on success; a netserver with
 * another passphrase closes the connection, which the next read reports). The key must
 * be text: at most 647 bytes without a NUL. */
int ws_np_send_passphrase(int fd, const struct ws_psk *psk, struct ws_err *err);

/* Run one test on netserver control connections ctl[0..spec->streams) (ctl_peer: their
 * address): --streams N is N netserver children, one flow each, started together and
 * merged into one remote side (netperf's super_netperf, built in). out has the identity
 * filled by the caller; this fills both sides. A failure that leaves the connections in an
 * unknown state returns a negative code; the caller then closes them. */
int ws_np_run_test(const ws_client_config *c, const int *ctl, const ws_addr *ctl_peer,
		   const ws_test_spec *spec, ws_test_result *out, struct ws_err *err);

/* End the session as netperf does: half-close, wait briefly for the daemon's close,
 * close. */
void ws_np_close(int fd);

#endif
