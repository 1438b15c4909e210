/* SPDX-License-Identifier: BSD-2-Clause */
/* npserve: a stock netperf 2.7 client's session on `warpspeed serve`, so that a board or
 * host that has only netperf can use a warpspeed daemon as its netserver.
 *
 * The pre-session loop (session/prelude.h) recognises netperf by its first byte, checks
 * the -Z passphrase and admits the session with its first request under the daemon's
 * usual limits; this module then serves that request and every following one on the
 * session's thread, with the codec of ctl/npmsg.h: DO_OMNI for TCP_STREAM, TCP_MAERTS,
 * TCP_RR, TCP_CRR, UDP_STREAM and UDP_RR, the legacy DO_TCP_STREAM that netperf 2.7.0
 * still sends for TCP_SENDFILE, CPU_CALIBRATE and DO_SYSINFO. Tests run on warpspeed's
 * own engines (src/workload) and CPU accounting, under the same limits as warpspeed's
 * clients: the test-length limit and time cap, privileged data ports, CPU numbers and the
 * memory budget. A refusal or a failure is a reply whose serv_errno netperf prints
 * ("netperf: remote error N"); the daemon's log says what it was. Other legacy requests
 * are refused with EOPNOTSUPP and an unknown type gets serv_errno 998, as from
 * netserver, and the connection stays usable; a malformed message (a short one before
 * EOF, a reply type sent as a request, an undecodable DO_OMNI) closes the connection and
 * is counted and logged. */
#ifndef WS_SESSION_NPSERVE_H
#define WS_SESSION_NPSERVE_H

struct ws_session;

/* Serve the session's netperf messages, its first request (s->np_first) first, until
 * the client closes, the idle timeout passes, the daemon stops or a message is malformed.
 * Releases every resource of a test before returning, whatever the client did. */
void ws_npserve_session(struct ws_session *s);

#endif
