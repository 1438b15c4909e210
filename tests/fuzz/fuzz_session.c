/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_session: the daemon's session state machine, frames in any order and at any time.
 *
 * Each input is split into chunks (a 2-byte big-endian length, then that many bytes, at
 * most 64 chunks). A chunk whose first byte has the top bit clear becomes a well-formed
 * frame (that byte is the message type, the rest its payload), so the fuzzer reaches
 * every state past the header checks; any other chunk is written raw. The frames go
 * through a socketpair to ws_daemon_serve_fd, which runs the pre-session phase (HELLO,
 * with a key when the first input byte is odd: then an empty AUTH is answered with the
 * right proof, so that the session states behind authentication are reached too) and
 * the session itself, in a thread of this process. Everything the daemon sends back
 * must be a valid frame. The daemon is stopped before it starts, so that waiting for
 * data connections after TEST_ACK ends at once, and its timeouts are tiny, so an
 * exec takes milliseconds; each input gets a fresh daemon, which frees everything it
 * opened (data listeners included) when the session ends. */
#include "ctl/framer.h"
#include "ctl/msg.h"
#include "ctl/tlv.h"
#include "session/auth.h"
#include "session/daemon.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/psk.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_CHUNKS 64

struct served {
	ws_daemon *d;
	int fd;
};

static void *serve_main(void *arg)
{
	struct served *s = arg;
	ws_daemon_serve_fd(s->d, s->fd, NULL);
	return NULL;
}

/* What the daemon said so far: every frame must parse; a CHALLENGE is remembered. */
struct replies {
	ws_framer fr;
	uint8_t buf[WS_TLV_MAX_PAYLOAD];
	bool challenged;
	uint8_t nd[WS_NONCE_LEN];
	uint64_t id;
};

static int read_replies(int fd, struct replies *r, int wait_ms)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	for (;;) {
		if (poll(&p, 1, wait_ms) <= 0)
			return 0;
		wait_ms = 0;
		for (;;) {
			ws_tlv_msg m;
			ws_err err;
			int rc = ws_framer_read(&r->fr, fd, &m, &err);
			if (rc == 0)
				break;
			if (rc == -ECONNRESET)
				return -1;
			if (rc < 0)
				abort(); /* the daemon sent something that is not a valid frame */
			const uint8_t *nd;
			uint16_t n;
			if (m.type == WS_MSG_CHALLENGE && ws_tlv_get_bytes(&m, WS_F_NONCE, &nd, &n) == 0 &&
			    n == WS_NONCE_LEN && ws_tlv_get_u64(&m, WS_F_SESSION_ID, &r->id) == 0) {
				memcpy(r->nd, nd, WS_NONCE_LEN);
				r->challenged = true;
			}
		}
	}
}

/* A well-formed frame of this type around payload p[0..n) into out (returns its length);
 * with a key, an empty HELLO carries the protocol version and a fixed client nonce, and
 * an empty AUTH after a CHALLENGE carries the right proof. */
static size_t frame(uint8_t *out, uint8_t type, const uint8_t *p, size_t n, const ws_psk *k,
		    const uint8_t *nc, const struct replies *r)
{
	ws_tlv_writer w = {0};
	ws_tlv_begin(&w, type);
	if (k && type == WS_MSG_HELLO && n == 0) {
		ws_tlv_put_u64(&w, WS_F_PROTO, 1);
		ws_tlv_put_bytes(&w, WS_F_NONCE, nc, WS_NONCE_LEN);
	}
	if (k && type == WS_MSG_AUTH && n == 0 && r->challenged) {
		uint8_t proof[WS_SHA256_LEN];
		ws_auth_prove(k, WS_AUTH_ROLE_CLIENT, nc, r->nd, r->id, proof);
		ws_tlv_put_bytes(&w, WS_F_PROOF, proof, sizeof(proof));
	}
	size_t len = w.len;
	memcpy(out, w.buf, len);
	ws_tlv_writer_free(&w);
	memcpy(out + len, p, n); /* the payload bytes as they are: the daemon walks the fields */
	len += n;
	ws_put_be32(out + 8, (uint32_t)(len - WS_TLV_HDR_LEN));
	return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct replies r;
	static ws_psk key;
	static const uint8_t nc[WS_NONCE_LEN] = {1, 2, 3};
	if (size == 0)
		return 0;
	if (!key.len)
		ws_psk_from_passphrase("fuzz key", &key, NULL);
	bool with_key = data[0] & 1;
	data++;
	size--;

	ws_daemon_config dc;
	ws_daemon_config_init(&dc);
	dc.no_listen = true;
	dc.psk = with_key ? &key : NULL;
	dc.hello_timeout_ns = 20 * WS_NS_PER_MS;
	dc.idle_timeout_ns = 20 * WS_NS_PER_MS;
	dc.max_duration_s = 1;
	dc.max_streams = 4;
	dc.max_threads = 2;
	struct served s = {.d = ws_daemon_new(&dc, NULL)};
	int sv[2];
	if (!s.d || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		abort();
	ws_daemon_stop(s.d);
	s.fd = sv[1];
	pthread_t th;
	if (pthread_create(&th, NULL, serve_main, &s) != 0)
		abort();

	memset(&r.fr, 0, sizeof(r.fr));
	ws_framer_init(&r.fr, r.buf, sizeof(r.buf));
	r.challenged = false;
	static uint8_t fbuf[WS_TLV_HDR_LEN + 128 + 65536];
	bool open = true;
	for (int c = 0; c < MAX_CHUNKS && size >= 2 && open; c++) {
		size_t n = ((size_t)data[0] << 8 | data[1]);
		data += 2;
		size -= 2;
		if (n > size)
			n = size;
		const uint8_t *chunk = data;
		data += n;
		size -= n;
		const uint8_t *out = chunk;
		size_t outn = n;
		if (n && !(chunk[0] & 0x80)) {
			outn = frame(fbuf, chunk[0], chunk + 1, n - 1, with_key ? &key : NULL, nc, &r);
			out = fbuf;
		}
		if (outn && send(sv[0], out, outn, MSG_NOSIGNAL) < 0)
			open = false;
		/* With a key, HELLO is answered by CHALLENGE before AUTH can be proven. */
		if (open && read_replies(sv[0], &r, with_key && !r.challenged ? 5 : 0) < 0)
			open = false;
	}
	shutdown(sv[0], SHUT_WR);
	/* Until the daemon closes its end (the session ended on our EOF or a timeout). */
	for (int i = 0; i < 200 && read_replies(sv[0], &r, 10) == 0; i++) {
		char probe;
		if (recv(sv[0], &probe, 1, MSG_PEEK | MSG_DONTWAIT) == 0)
			break;
	}
	pthread_join(th, NULL);
	close(sv[0]);
	ws_daemon_free(s.d);
	return 0;
}
