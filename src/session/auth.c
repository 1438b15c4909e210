/* SPDX-License-Identifier: BSD-2-Clause */
/* auth: proofs of the pre-shared key and the client's half of the exchange; see auth.h. */
#include "session/auth.h"

#include "ctl/msg.h"
#include "util/err.h"

#include <stdio.h>
#include <string.h>

void ws_auth_prove(const ws_psk *k, const char *role, const uint8_t nc[WS_NONCE_LEN],
		   const uint8_t nd[WS_NONCE_LEN], uint64_t id, uint8_t out[WS_SHA256_LEN])
{
	uint8_t bind[8];
	ws_put_be64(bind, id);
	ws_psk_proof(k, role, nc, nd, bind, sizeof(bind), out);
}

int ws_auth_check(const ws_psk *k, const char *role, const uint8_t nc[WS_NONCE_LEN],
		  const uint8_t nd[WS_NONCE_LEN], uint64_t id, const uint8_t *proof, size_t n)
{
	uint8_t want[WS_SHA256_LEN];
	ws_auth_prove(k, role, nc, nd, id, want);
	int ok = n == WS_SHA256_LEN && ws_ct_equal(want, proof, WS_SHA256_LEN);
	ws_wipe(want, sizeof(want));
	return ok;
}

/* A refusal from the daemon: an authentication one says whose key it refused. */
static int refused(const ws_tlv_msg *m, const ws_psk *k, const char *host, ws_err *err)
{
	char who[200];
	snprintf(who, sizeof(who), "%s refused the session", host);
	int rc = ws_msg_error_to_err(m, who, err);
	if (rc != -WS_E_AUTH)
		return rc;
	char text[WS_ERR_MSG_MAX] = "";
	ws_tlv_get_str(m, WS_F_ERR_MSG, text, sizeof(text));
	if (!k)
		return ws_err_set(err, WS_E_AUTH, "%s requires authentication: %s", host,
				  WS_AUTH_NEED_KEY);
	return ws_err_set(err, WS_E_AUTH, "%s refused the key from %s (%s)", host, k->origin, text);
}

int ws_auth_client(ws_channel *ch, const ws_psk *k, const uint8_t nc[WS_NONCE_LEN],
		   const char *host, int64_t deadline_ns, ws_tlv_msg *m, bool *challenged,
		   ws_err *err)
{
	*challenged = false;
	if (m->type == WS_MSG_ERROR)
		return refused(m, k, host, err);
	if (m->type != WS_MSG_CHALLENGE)
		return 0; /* HELLO_ACK (checked by the caller): the daemon has no key */
	*challenged = true;
	if (!k)
		return ws_err_set(err, WS_E_AUTH, "%s requires authentication: %s", host,
				  WS_AUTH_NEED_KEY);
	const uint8_t *p = NULL;
	uint16_t n = 0;
	uint64_t id = 0;
	if (ws_tlv_get_bytes(m, WS_F_NONCE, &p, &n) != 0 || n != WS_NONCE_LEN ||
	    ws_tlv_get_u64(m, WS_F_SESSION_ID, &id) != 0)
		return ws_err_set(err, WS_E_PROTO,
				  "%s sent a CHALLENGE without a %d-byte nonce (field %d) and a "
				  "session id (field %d)",
				  host, WS_NONCE_LEN, WS_F_NONCE, WS_F_SESSION_ID);
	uint8_t nd[WS_NONCE_LEN], proof[WS_SHA256_LEN];
	memcpy(nd, p, sizeof(nd));
	ws_auth_prove(k, WS_AUTH_ROLE_CLIENT, nc, nd, id, proof);
	ws_tlv_begin(&ch->tx, WS_MSG_AUTH);
	ws_tlv_put_bytes(&ch->tx, WS_F_PROOF, proof, sizeof(proof));
	int rc = ws_channel_send(ch, deadline_ns, err);
	if (rc == 0)
		rc = ws_channel_recv(ch, m, deadline_ns, err);
	if (rc < 0) {
		ws_err_prefix(err, "%s, after this client's proof of the key from %s", host,
			      k->origin);
		return rc;
	}
	if (m->type == WS_MSG_ERROR)
		return refused(m, k, host, err);
	if (m->type != WS_MSG_HELLO_ACK)
		return ws_err_set(err, WS_E_PROTO, "%s answered AUTH with %s", host,
				  ws_msg_type_name(m->type));
	uint64_t id2 = 0;
	if (ws_tlv_get_bytes(m, WS_F_PROOF, &p, &n) != 0 ||
	    ws_tlv_get_u64(m, WS_F_SESSION_ID, &id2) != 0 || id2 != id ||
	    !ws_auth_check(k, WS_AUTH_ROLE_DAEMON, nc, nd, id, p, n))
		return ws_err_set(
			err, WS_E_AUTH,
			"%s accepted this client's proof but did not prove that it holds the key "
			"from %s "
			"(its own proof is missing or wrong); refusing to run a test with it",
			host, k->origin);
	return 0;
}
