/* SPDX-License-Identifier: BSD-2-Clause */
/* dataaccept: the daemon's side of a test's TCP data connections, each of which must
 * prove that it belongs to the session before it costs anything.
 *
 * TEST_ACK gives the client a 16-byte cookie; each data connection starts with it and its
 * flow index. The daemon used to read that from one accepted connection at a time, with
 * a second's patience each, so 3-7 silent connections to the data port from the control
 * peer's address delayed a test's start by 2.9-6.9 s. Here every pending connection is
 * read in one poll loop, incrementally: a connection from another address is closed at
 * once, one whose first bytes are not the cookie as soon as they arrive, one silent for
 * WS_DATA_PROOF_NS when that passes, so squatters cost the real flows no time. At most
 * n + WS_DATA_MAX_PENDING are pending at once (the rest wait in the listen queue): room
 * for every flow of the test and as many squatters. */
#ifndef WS_SESSION_DATAACCEPT_H
#define WS_SESSION_DATAACCEPT_H

#include <stdint.h>

struct ws_err;

#define WS_DATA_PROOF_NS    (1000 * 1000000LL)
#define WS_DATA_MAX_PENDING 64

/* Accept n flows on listener lfd (made non-blocking here) from address want (as
 * ws_addr_format writes it), each proving cookie (WS_COOKIE_LEN bytes) and its index;
 * fds[0..n) (all -1 on entry) get them, blocking. Until deadline_ns; wake_fd (-1: none)
 * readable ends the wait (the daemon stops). *strangers counts the connections closed
 * without a proof. Returns 0, or a negative code with "K of N data connections
 * arrived ..." (the caller closes what fds holds). */
int ws_data_accept(int lfd, const char *want, const uint8_t *cookie, uint32_t n, int *fds,
		   int64_t deadline_ns, int wake_fd, unsigned *strangers, struct ws_err *err);

#endif
