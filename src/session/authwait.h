/* SPDX-License-Identifier: BSD-2-Clause */
/* authwait: failed key proofs from an address slow that address down.
 *
 * With a key (--psk-file, -Z), every connection is a guess at it, and nothing bounded how
 * fast guesses came: one address could try thousands of keys a second against
 * `serve -Z` (docs/benchmarks.md). This table remembers, per client address, how many
 * proofs (warpspeed AUTH or a netperf PASSPHRASE) failed in a row; an address with
 * failures gets one turn at a time to authenticate, the next WS_AUTHWAIT_BASE_NS x
 * 2^(failures-1) later (at most WS_AUTHWAIT_MAX_NS), however many connections it opens.
 * The pre-session event loop leaves a connection whose turn has not come unread (no
 * sleep: other addresses are served meanwhile), so a guessing address gets about one
 * guess a second, and a success clears its record. The table is bounded; the least
 * recently failed entry goes first. */
#ifndef WS_SESSION_AUTHWAIT_H
#define WS_SESSION_AUTHWAIT_H

#include <stdint.h>

#define WS_AUTHWAIT_BASE_NS (10 * 1000000LL)
#define WS_AUTHWAIT_MAX_NS  (1000 * 1000000LL)
#define WS_AUTHWAIT_ENTRIES 1024

typedef struct ws_authwait ws_authwait;

ws_authwait *ws_authwait_new(void);
void ws_authwait_free(ws_authwait *w);

/* May a connection from addr authenticate now? 0: yes (and the address's next turn is
 * reserved after its delay); else the monotonic time at which to ask again. */
int64_t ws_authwait_turn(ws_authwait *w, const char *addr, int64_t now_ns);

/* A proof from addr failed: returns the failures in a row; *delay_ns is the wait before
 * the address's next turn. */
unsigned long long ws_authwait_failed(ws_authwait *w, const char *addr, int64_t now_ns,
				      int64_t *delay_ns);

/* A proof from addr succeeded: forget its failures. */
void ws_authwait_ok(ws_authwait *w, const char *addr);

#endif
