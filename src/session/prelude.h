/* SPDX-License-Identifier: BSD-2-Clause */
/* prelude: the daemon's pre-session phase, every connection before it is a session.
 *
 * A connection that has not finished HELLO (and, with a pre-shared key, the
 * authentication exchange) costs no thread: all of them are served by one event loop
 * in the listener's thread, each with a small fixed state (an incremental frame reader
 * bounded to WS_PRELUDE_MAX_PAYLOAD bytes) and one deadline for the whole phase. Caps on
 * pending connections per source address and in total close the OLDEST one when a new
 * connection arrives, so a newcomer from the same address always gets its chance and a
 * slowloris cannot lock anybody out. The one closed is the oldest that stalled mid-frame
 * (a slowloris' signature), else the oldest silent one, else the oldest in
 * authentication; for the per-source cap a connection younger than 1 s (half the hello
 * timeout, if less) that has not stalled mid-frame is spared, so a host that starts many
 * clients at once is served. Only an admitted session is handed to the daemon (the
 * admit callback), which gives it a thread. Every refusal is answered with an
 * ERROR that says what happened and which option changes the limit, and is counted;
 * the log gets at most one summary line per WS_PRELUDE_LOG_EVERY_NS.
 *
 * A stock netperf on the same port is told apart by its first byte (netperf's messages
 * begin with a big-endian type below 2^24, so a 0 byte; warpspeed's magic begins "W")
 * and then read as 656-byte messages by the same loop, under the same deadline and caps:
 * with a netperf passphrase configured its PASSPHRASE must come first and match, else the
 * connection is closed without a reply as netserver does; the first other message admits
 * the session, which the daemon then serves with netperf's protocol (session/npserve.h).
 * Refusals of a netperf connection are 656-byte error replies carrying an errno. */
#ifndef WS_SESSION_PRELUDE_H
#define WS_SESSION_PRELUDE_H

#include "ctl/npmsg.h"
#include "net/addr.h"
#include "util/psk.h"

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ws_err;
struct ws_dmetrics;

#define WS_PRELUDE_MAX_PAYLOAD  1024
#define WS_PRELUDE_LOG_EVERY_NS (2 * 1000000000LL)

/* A connection that finished the pre-session phase, as the admit callback sees it. */
typedef struct ws_prelude_conn {
	int fd; /* blocking again; the callback takes it on success */
	ws_addr peer;
	char peer_text[80];           /* "ADDR port N" */
	uint64_t id;                  /* the session id (the proofs are bound to it) */
	bool authed;                  /* the client proved the key */
	uint8_t proof[WS_SHA256_LEN]; /* the daemon's proof, for HELLO_ACK, when authed */
	bool netperf;                 /* a netperf client: np_first is its first request */
	uint8_t np_first[WS_NP_MSG_LEN];
} ws_prelude_conn;

typedef struct ws_prelude_config {
	int64_t hello_timeout_ns;        /* accept → admitted */
	unsigned max_pending;            /* in total (also bounded by RLIMIT_NOFILE) */
	unsigned max_pending_per_source; /* per source address */
	const ws_psk *psk;               /* NULL: no authentication; must outlive the prelude */
	/* netperf -Z: the passphrase a netperf client must send first (NULL: none, and a
	 * PASSPHRASE is ignored). With a psk and no passphrase, netperf clients (which cannot
	 * prove a key) are refused. Must outlive the prelude. */
	const char *np_passphrase;
	/* 0: admitted, the session owns c->fd. Negative: refused (busy), with the reason in
	 * why, which the client gets as ERROR (WS_E_LIMIT). */
	int (*admit)(void *ctx, const ws_prelude_conn *c, char *why, size_t whysz);
	uint64_t (*new_id)(void *ctx);
	void (*log)(void *ctx, const char *line);
	void *ctx;
	struct ws_dmetrics *metrics; /* NULL, or where refusals are counted by reason */
} ws_prelude_config;

typedef struct ws_prelude ws_prelude;

ws_prelude *ws_prelude_new(const ws_prelude_config *c, struct ws_err *err);
/* Logs what is still uncounted, closes every pending connection. */
void ws_prelude_free(ws_prelude *p);

/* The pending connections actually allowed (max_pending bounded by RLIMIT_NOFILE). */
unsigned ws_prelude_capacity(const ws_prelude *p);
unsigned ws_prelude_pending(const ws_prelude *p);

/* Accept what listener lfd has queued (a bounded batch). Out of descriptors, it closes
 * the newest connection at once (a reserve descriptor makes room for that) or pauses
 * accepting briefly, so the loop never spins. */
void ws_prelude_accept(ws_prelude *p, int lfd);
/* Whether the listener should be left out of the next poll (EMFILE back-off). */
bool ws_prelude_accept_paused(const ws_prelude *p);
/* Take a connected socket (made non-blocking here); evicts as the caps say. */
void ws_prelude_add(ws_prelude *p, int fd, const ws_addr *peer);

/* The loop: fill pollfds for the pending connections (returns how many, at most max),
 * poll with ws_prelude_timeout_ms, then ws_prelude_step with the same entries, before
 * any ws_prelude_accept or ws_prelude_add. */
size_t ws_prelude_fill(ws_prelude *p, struct pollfd *pfd, size_t max);
int ws_prelude_timeout_ms(const ws_prelude *p);
void ws_prelude_step(ws_prelude *p, const struct pollfd *pfd, size_t n);

#endif
