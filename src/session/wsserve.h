/* SPDX-License-Identifier: BSD-2-Clause */
/* wsserve: a warpspeed client's session on `warpspeed serve`: HELLO_ACK, then each
 * TEST_REQ as one test (its data sockets opened and announced in TEST_ACK, the START
 * barrier, the daemon's side of the workload under the time cap, its result sent back)
 * until BYE, a close or the idle timeout.
 *
 * The counterpart of session/npserve.c for warpspeed's own protocol (ctl/msg.h); both
 * apply the daemon's one policy (session/policy.h). The listener (session/admission.c)
 * admits the session and calls this on the session's thread. */
#ifndef WS_SESSION_WSSERVE_H
#define WS_SESSION_WSSERVE_H

struct ws_session;

/* Serve the session's messages until BYE, a close or the idle timeout; every resource of
 * a test is released before it returns. */
void ws_wsserve_session(struct ws_session *s);

#endif
