/* SPDX-License-Identifier: BSD-2-Clause */
/* test_auth: the pre-shared-key handshake between a real in-process daemon and the
 * client library (right key, wrong key, no key, key on one side only), a fake daemon
 * whose proof is forged, and the pre-session refusals as a client sees them on a
 * socketpair served by ws_daemon_serve_fd. */
#include "harness.h"

#include <stdbool.h>

#include "ctl/channel.h"
#include "ctl/msg.h"
#include "net/addr.h"
#include "net/sock.h"
#include "session/auth.h"
#include "session/client.h"
#include "session/daemon.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/psk.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <warpspeed/version.h>

static void key(ws_psk *k, const char *pass)
{
	ws_err err;
	if (ws_psk_from_passphrase(pass, k, &err) != 0)
		abort();
}

static ws_daemon *daemon_with(const ws_psk *k)
{
	ws_daemon_config dc;
	ws_daemon_config_init(&dc);
	dc.bind_host = "127.0.0.1";
	dc.family = 4;
	dc.port = 0;
	dc.psk = k;
	ws_err err;
	ws_daemon *d = ws_daemon_new(&dc, &err);
	if (!d || ws_daemon_start_thread(d, &err) != 0)
		abort();
	return d;
}

struct notes {
	int n;
	char last[512];
};

static void on_note(void *ctx, const char *line)
{
	struct notes *nt = ctx;
	nt->n++;
	snprintf(nt->last, sizeof(nt->last), "%s", line);
}

/* One short TCP_STREAM (64 KiB) against port with the client key k (NULL: none). */
static int run_opt(uint16_t port, const ws_psk *k, bool allow_unauth, struct notes *nt, ws_err *err)
{
	ws_client_config c;
	ws_client_config_init(&c);
	c.allow_unauthenticated = allow_unauth;
	c.host = "127.0.0.1";
	c.host_family = 4;
	c.port = port;
	c.psk = k;
	c.note = on_note;
	c.note_ctx = nt;
	ws_test_spec spec;
	ws_test_spec_init(&spec);
	spec.end = WS_END_BYTES;
	spec.end_count = 65536;
	ws_test_result res;
	ws_err_clear(err);
	int rc = ws_client_run_test(&c, &spec, &res, err);
	ws_test_result_free(&res);
	return rc;
}

static int run(uint16_t port, const ws_psk *k, struct notes *nt, ws_err *err)
{
	return run_opt(port, k, false, nt, err);
}

static void test_handshake_cases(void)
{
	const char *t = "handshake_cases";
	ws_psk right, wrong;
	key(&right, "the lab key");
	key(&wrong, "not the lab key");
	ws_daemon *d = daemon_with(&right);
	uint16_t port = ws_daemon_port(d);
	struct notes nt = {0};
	ws_err err;

	CHECK_INT(t, run(port, &right, &nt, &err), 0);
	CHECK_INT(t, nt.n, 0);

	CHECK_INT(t, run(port, &wrong, &nt, &err), -WS_E_AUTH);
	CHECK(t, strncmp(err.msg, "127.0.0.1 (127.0.0.1:", 21) == 0);
	CHECK(t, strstr(err.msg, ") refused the key from -Z passphrase (authentication failed: the proof does not match this daemon's key)") != NULL);

	CHECK_INT(t, run(port, NULL, &nt, &err), -WS_E_AUTH);
	CHECK(t, strstr(err.msg, ") requires authentication: give --psk-file FILE (or WARPSPEED_PSK_FILE, or -Z)") != NULL);
	ws_daemon_free(d);

	/* A daemon without a key proves none: a client with a key file's key refuses it,
	 * unless told to allow that (then it proceeds and is told); netperf's -Z runs as in
	 * netperf, with the note. */
	d = daemon_with(NULL);
	ws_psk filed = right;
	filed.cleartext_ok = false;
	snprintf(filed.origin, sizeof(filed.origin), "key file lab.key");
	CHECK_INT(t, run(ws_daemon_port(d), &filed, &nt, &err), -WS_E_AUTH);
	CHECK(t, strstr(err.msg, ") did not ask for the key from key file lab.key, so it did not prove that it holds it; "
				 "refusing to run a test with it (--allow-unauthenticated runs it anyway)") != NULL);
	CHECK_INT(t, nt.n, 0);
	CHECK_INT(t, run_opt(ws_daemon_port(d), &filed, true, &nt, &err), 0);
	CHECK_INT(t, nt.n, 1);
	CHECK(t, strstr(nt.last, ") did not ask for authentication; the key from key file lab.key was not used") != NULL);
	nt.n = 0;
	CHECK_INT(t, run(ws_daemon_port(d), &right, &nt, &err), 0);
	CHECK_INT(t, nt.n, 1);
	CHECK(t, strstr(nt.last, ") did not ask for authentication; the key from -Z passphrase was not used") != NULL);
	CHECK_INT(t, run(ws_daemon_port(d), NULL, &nt, &err), 0);
	CHECK_INT(t, nt.n, 1);
	ws_daemon_free(d);
}

/* A fake daemon that challenges and then answers with a proof made by `forge`. */
struct fake {
	int lfd;
	uint16_t port;
	int mode; /* 0 random bytes, 1 the client's own proof reflected, 2 right proof, other id */
	const ws_psk *k;
};

static void *fake_main(void *arg)
{
	struct fake *f = arg;
	ws_err err;
	int fd = ws_sock_accept(f->lfd, NULL, ws_clock_ns() + 5 * WS_NS_PER_SEC, -1, &err);
	if (fd < 0)
		return NULL;
	ws_channel ch;
	ws_channel_init(&ch, fd);
	ws_tlv_msg m;
	int64_t dl = ws_clock_ns() + 5 * WS_NS_PER_SEC;
	const uint8_t *p;
	uint16_t n;
	uint8_t nc[WS_NONCE_LEN], nd[WS_NONCE_LEN] = {7}, proof[WS_SHA256_LEN];
	if (ws_channel_recv(&ch, &m, dl, &err) == 0 && ws_tlv_get_bytes(&m, WS_F_NONCE, &p, &n) == 0 &&
	    n == WS_NONCE_LEN) {
		memcpy(nc, p, n);
		ws_tlv_begin(&ch.tx, WS_MSG_CHALLENGE);
		ws_tlv_put_bytes(&ch.tx, WS_F_NONCE, nd, sizeof(nd));
		ws_tlv_put_u64(&ch.tx, WS_F_SESSION_ID, 42);
		if (ws_channel_send(&ch, dl, &err) == 0 && ws_channel_recv(&ch, &m, dl, &err) == 0 &&
		    ws_tlv_get_bytes(&m, WS_F_PROOF, &p, &n) == 0 && n == WS_SHA256_LEN) {
			memcpy(proof, p, n);
			if (f->mode == 0)
				memset(proof, 0x5a, sizeof(proof));
			else if (f->mode == 2)
				ws_auth_prove(f->k, WS_AUTH_ROLE_DAEMON, nc, nd, 42, proof);
			ws_tlv_begin(&ch.tx, WS_MSG_HELLO_ACK);
			ws_tlv_put_u64(&ch.tx, WS_F_PROTO, WARPSPEED_CTL_PROTOCOL);
			ws_tlv_put_u64(&ch.tx, WS_F_SESSION_ID, f->mode == 2 ? 43 : 42);
			ws_tlv_put_bytes(&ch.tx, WS_F_PROOF, proof, sizeof(proof));
			ws_channel_send(&ch, dl, &err);
			ws_channel_recv(&ch, &m, ws_clock_ns() + WS_NS_PER_SEC, &err); /* until the client leaves */
		}
	}
	ws_channel_close(&ch);
	return NULL;
}

static void test_forged_daemon_proof(void)
{
	const char *t = "forged_daemon_proof";
	ws_psk k;
	key(&k, "the lab key");
	for (int mode = 0; mode < 3; mode++) {
		struct fake f = {.mode = mode, .k = &k};
		ws_addr a;
		ws_err err;
		if (ws_addr_resolve("127.0.0.1", 0, 4, 1, &a, &err) != 0)
			abort();
		f.lfd = ws_sock_listen(&a, -1, 0, 0, 4, &err);
		ws_sock_local_addr(f.lfd, &a);
		pthread_t th;
		pthread_create(&th, NULL, fake_main, &f);
		struct notes nt = {0};
		CHECK_INT(t, run(ws_addr_port(&a), &k, &nt, &err), -WS_E_AUTH);
		CHECK(t, strstr(err.msg, ") accepted this client's proof but did not prove that it holds the key from -Z passphrase (its own proof is missing or wrong); refusing to run a test with it") != NULL);
		pthread_join(th, NULL);
		close(f.lfd);
	}
}

struct served {
	ws_daemon *d;
	int fd;
	int rc;
};

static void *serve_main(void *arg)
{
	struct served *s = arg;
	s->rc = ws_daemon_serve_fd(s->d, s->fd, NULL);
	return NULL;
}

/* Send one frame of type `type` with the fields given to a daemon serving a socketpair and
 * return the text of its ERROR answer. */
static void refusal(const ws_psk *k, uint8_t type, bool proto, char *text, size_t n)
{
	ws_daemon_config dc;
	ws_daemon_config_init(&dc);
	dc.no_listen = true;
	dc.psk = k;
	dc.hello_timeout_ns = WS_NS_PER_SEC;
	ws_err err;
	struct served s = {.d = ws_daemon_new(&dc, &err)};
	int sv[2];
	if (!s.d || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		abort();
	s.fd = sv[1];
	pthread_t th;
	pthread_create(&th, NULL, serve_main, &s);
	ws_channel ch;
	ws_channel_init(&ch, sv[0]);
	ws_tlv_begin(&ch.tx, type);
	if (proto)
		ws_tlv_put_u64(&ch.tx, WS_F_PROTO, WARPSPEED_CTL_PROTOCOL);
	ws_tlv_put_str(&ch.tx, WS_F_SOFTWARE, "test");
	ws_tlv_msg m;
	text[0] = '\0';
	if (ws_channel_send(&ch, ws_clock_ns() + WS_NS_PER_SEC, &err) == 0 &&
	    ws_channel_recv(&ch, &m, ws_clock_ns() + 2 * WS_NS_PER_SEC, &err) == 0 && m.type == WS_MSG_ERROR)
		ws_tlv_get_str(&m, WS_F_ERR_MSG, text, n);
	ws_channel_close(&ch);
	pthread_join(th, NULL);
	ws_daemon_free(s.d);
}

static void test_pre_session_refusals(void)
{
	const char *t = "pre_session_refusals";
	char text[512];
	refusal(NULL, WS_MSG_HELLO, false, text, sizeof(text));
	CHECK_STR(t, text, "HELLO without its protocol version (field 1)");
	refusal(NULL, WS_MSG_TEST_REQ, true, text, sizeof(text));
	CHECK_STR(t, text, "expected HELLO as the first message, got TEST_REQ (type 4)");
	ws_psk k;
	key(&k, "the lab key");
	/* An old client's HELLO (no nonce) at a daemon with a key. */
	refusal(&k, WS_MSG_HELLO, true, text, sizeof(text));
	CHECK_STR(t, text, "this daemon requires authentication with a pre-shared key and the HELLO offered none "
			   "(no 32-byte nonce, field 10): give --psk-file FILE (or WARPSPEED_PSK_FILE, or -Z)");
}

int main(void)
{
	RUN(test_handshake_cases);
	RUN(test_forged_daemon_proof);
	RUN(test_pre_session_refusals);
	TEST_MAIN_END();
}
