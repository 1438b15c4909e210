/* SPDX-License-Identifier: BSD-2-Clause */
/* auth: the pre-shared-key handshake of the control protocol, both sides' proofs.
 *
 * A daemon with a key answers HELLO (which carries the client's nonce) with CHALLENGE
 * (its own nonce and the session id); the client answers AUTH with its proof; the
 * daemon checks it in constant time and sends HELLO_ACK with its own proof, which the
 * client checks. Each proof is ws_psk_proof over both nonces with the role ("client",
 * "daemon") and the session id as 8 big-endian bytes, so neither can be replayed into
 * another session or reflected back as the other side's. This module holds what both
 * sides compute and the client's half of the exchange; the daemon's half runs in its
 * pre-session event loop (session/prelude.h). */
#ifndef WS_SESSION_AUTH_H
#define WS_SESSION_AUTH_H

#include "ctl/channel.h"
#include "util/psk.h"

#include <stdbool.h>
#include <stdint.h>

struct ws_err;

#define WS_AUTH_ROLE_CLIENT "client"
#define WS_AUTH_ROLE_DAEMON "daemon"
#define WS_AUTH_NEED_KEY    "give --psk-file FILE (or WARPSPEED_PSK_FILE, or -Z)"

/* One side's proof for session `id`. */
void ws_auth_prove(const ws_psk *k, const char *role, const uint8_t nc[WS_NONCE_LEN],
		   const uint8_t nd[WS_NONCE_LEN], uint64_t id, uint8_t out[WS_SHA256_LEN]);

/* 1 when proof (n bytes) is role's proof for these nonces and id, else 0; the
 * comparison takes the same time wherever the bytes differ. */
int ws_auth_check(const ws_psk *k, const char *role, const uint8_t nc[WS_NONCE_LEN],
		  const uint8_t nd[WS_NONCE_LEN], uint64_t id, const uint8_t *proof, size_t n);

/* The client after sending HELLO with nonce nc: *m is the daemon's first answer. Runs
 * the exchange when it is a CHALLENGE (k may be NULL: then it fails with "HOST requires
 * authentication") and leaves the HELLO_ACK in *m. *challenged says whether the daemon
 * asked for the key. Errors: -WS_E_AUTH for a missing key, a key the daemon refused, or
 * a daemon whose proof is wrong; an ERROR from the daemon as ws_msg_error_to_err. */
int ws_auth_client(ws_channel *ch, const ws_psk *k, const uint8_t nc[WS_NONCE_LEN],
		   const char *host, int64_t deadline_ns, ws_tlv_msg *m, bool *challenged,
		   struct ws_err *err);

#endif
