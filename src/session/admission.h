/* SPDX-License-Identifier: BSD-2-Clause */
/* admission: the part of the daemon that decides who becomes a session.
 *
 * admission.c owns the listener's event loop (ws_daemon_run), where every connection
 * spends its pre-session phase (session/prelude.h) without a thread, admits sessions
 * against --max-sessions (a busy refusal names who holds the daemon), starts their
 * threads and, when a session's front end (session/wsserve.h or npserve.h) returns,
 * unlinks and frees it; ws_daemon_serve_fd runs the same phase for one socket in the
 * caller's thread. Its entry points are the public ones of session/daemon.h; the state
 * it shares with the rest of the daemon is session/daemon_state.h. */
#ifndef WS_SESSION_ADMISSION_H
#define WS_SESSION_ADMISSION_H

#include "session/daemon.h"

#endif
