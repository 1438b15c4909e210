/* SPDX-License-Identifier: BSD-2-Clause */
/* msg: the messages of the control protocol and how specs and results map onto fields.
 *
 * A session is: HELLO → HELLO_ACK (or ERROR), with CHALLENGE → AUTH between them when
 * the daemon has a pre-shared key (session/auth.h), then per test TEST_REQ → TEST_ACK (or
 * ERROR), the data connection with its cookie, START → STARTED (the barrier), and
 * RESULT from the daemon; BYE ends it. Field ids are stable: new fields get new ids,
 * and a receiver skips ids it does not know, so either side can grow without breaking
 * the other. Structs are mapped by tables of (id, offset, kind), never copied raw. */
#ifndef WS_CTL_MSG_H
#define WS_CTL_MSG_H

#include "ctl/tlv.h"
#include "model/result.h"

struct ws_err;

enum ws_msg_type {
	WS_MSG_HELLO = 1,
	WS_MSG_HELLO_ACK = 2,
	WS_MSG_ERROR = 3,
	WS_MSG_TEST_REQ = 4,
	WS_MSG_TEST_ACK = 5,
	WS_MSG_START = 6,
	WS_MSG_STARTED = 7,
	WS_MSG_RESULT = 8,
	WS_MSG_BYE = 9,
	WS_MSG_CHALLENGE = 10, /* daemon with a key → client: its nonce and the session id */
	WS_MSG_AUTH = 11,      /* client → daemon: the client's proof of the key */
};

/* Field ids outside the spec and result tables. */
enum ws_msg_field {
	WS_F_PROTO = 1,        /* u64 protocol version */
	WS_F_SOFTWARE = 2,     /* str "warpspeed 0.1.0" */
	WS_F_NCPUS = 3,        /* u64 */
	WS_F_MAX_DURATION = 4, /* f64 seconds */
	WS_F_ERR_CODE = 5,     /* i64 */
	WS_F_ERR_MSG = 6,      /* str */
	WS_F_DATA_PORT = 7,    /* u64, repeated once per flow for UDP */
	WS_F_COOKIE = 8,       /* bytes[WS_COOKIE_LEN] */
	WS_F_CLIENT_PORT = 9,  /* u64: the client's UDP data port, repeated once per flow */
	WS_F_NONCE = 10,       /* bytes[32]: HELLO (the client's), CHALLENGE (the daemon's) */
	WS_F_SESSION_ID = 11,  /* u64: CHALLENGE, HELLO_ACK; the proofs are bound to it */
	WS_F_PROOF = 12,       /* bytes[32]: AUTH (the client's), HELLO_ACK (the daemon's) */
	WS_F_PROBE_PORT = 13, /* u64, repeated: TEST_ACK of RRUL: one UDP echo port per UDP probe */
};

#define WS_COOKIE_LEN 16

const char *ws_msg_type_name(uint8_t type);

/* Append every spec field to a message being built. */
void ws_msg_put_spec(ws_tlv_writer *w, const ws_test_spec *s);
/* Read a spec: starts from ws_test_spec_init defaults, then the fields present; a field
 * of the wrong shape is an error. The caller still runs ws_test_spec_validate. */
int ws_msg_get_spec(const ws_tlv_msg *m, ws_test_spec *s, struct ws_err *err);

/* A side result, with its per-flow and per-thread records as repeated fields.
 * ws_msg_get_side allocates r->flows / r->threads (ws_side_result_free releases them);
 * on error nothing is left allocated. */
void ws_msg_put_side(ws_tlv_writer *w, const ws_side_result *r);
int ws_msg_get_side(const ws_tlv_msg *m, ws_side_result *r, struct ws_err *err);

/* Every occurrence of a repeated u64 port field (WS_F_CLIENT_PORT, WS_F_DATA_PORT: one
 * per flow, in flow order) into ports[0..max). Returns the count, or -WS_E_PROTO for a
 * malformed field, a port outside 1..65535 or more than max of them. */
int ws_msg_get_ports(const ws_tlv_msg *m, uint16_t id, uint16_t *ports, uint32_t max);

/* ERROR message helpers. The code may be given negated (as ws_err holds it); it travels
 * as a positive number. */
void ws_msg_put_error(ws_tlv_writer *w, int code, const char *text);
/* Turn a received ERROR into a ws_err ("<who>: <text>"): -WS_E_LIMIT for a limit,
 * -WS_E_AUTH for an authentication refusal, -WS_E_REMOTE for anything else. */
int ws_msg_error_to_err(const ws_tlv_msg *m, const char *who, struct ws_err *err);

#endif
