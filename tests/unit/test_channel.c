/* SPDX-License-Identifier: BSD-2-Clause */
/* test_channel: control frames over a real socket pair. The peer side is played by hand
 * (raw bytes, a slow writer thread, an HTTP server's answer, silence, a close in the middle
 * of a frame), because the channel's purpose is to survive peers that are slow, foreign or
 * broken, and to say which one it met. */
#include "harness.h"

#include "ctl/channel.h"
#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#define MS WS_NS_PER_MS

/* A channel on one end of a socket pair; the raw peer end is returned in *peer. */
static int open_pair(ws_channel *c, int *peer)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	ws_channel_init(c, sv[0]);
	*peer = sv[1];
	return 0;
}

static void raw_send(int fd, const void *p, size_t n)
{
	ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
	if (w != (ssize_t)n)
		printf("  raw send of %zu bytes wrote %zd\n", n, w);
}

static void build_sample(ws_tlv_writer *w)
{
	ws_tlv_begin(w, 6);
	ws_tlv_put_u64(w, 1, 0xfeedfacecafebeefULL);
	ws_tlv_put_str(w, 2, "hello over the wire");
	ws_tlv_put_i64(w, 3, -5);
}

static void check_sample(const char *t, const ws_tlv_msg *m)
{
	CHECK_INT(t, m->type, 6);
	CHECK_INT(t, m->version, WS_TLV_VERSION);
	CHECK_U64(t, m->len, 14 + 25 + 14);
	uint64_t u = 0;
	int64_t s = 0;
	char buf[32] = "";
	CHECK_INT(t, ws_tlv_get_u64(m, 1, &u), 0);
	CHECK_U64(t, u, 0xfeedfacecafebeefULL);
	CHECK_INT(t, ws_tlv_get_str(m, 2, buf, sizeof(buf)), 0);
	CHECK_STR(t, buf, "hello over the wire");
	CHECK_INT(t, ws_tlv_get_i64(m, 3, &s), 0);
	CHECK_INT(t, s, -5);
}

static void test_send_recv(void)
{
	const char *t = "send_recv";
	ws_channel a, b;
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		CHECK(t, 0);
		return;
	}
	ws_channel_init(&a, sv[0]);
	ws_channel_init(&b, sv[1]);
	ws_err err = {0};
	ws_tlv_msg m;
	int64_t dl = ws_clock_ns() + 2000 * MS;

	build_sample(&a.tx);
	CHECK_INT(t, ws_channel_send(&a, dl, &err), 0);
	CHECK_INT(t, ws_channel_recv(&b, &m, dl, &err), 0);
	check_sample(t, &m);

	/* Two frames back to back, the first larger: each receive takes exactly one. */
	static uint8_t blob[3000];
	for (size_t i = 0; i < sizeof(blob); i++)
		blob[i] = (uint8_t)(i * 7);
	ws_tlv_begin(&a.tx, 8);
	ws_tlv_put_bytes(&a.tx, 9, blob, sizeof(blob));
	CHECK_INT(t, ws_channel_send(&a, dl, &err), 0);
	build_sample(&a.tx);
	CHECK_INT(t, ws_channel_send(&a, dl, &err), 0);
	CHECK_INT(t, ws_channel_recv(&b, &m, dl, &err), 0);
	CHECK_INT(t, m.type, 8);
	const uint8_t *p = NULL;
	uint16_t n = 0;
	CHECK_INT(t, ws_tlv_get_bytes(&m, 9, &p, &n), 0);
	CHECK_INT(t, n, sizeof(blob));
	if (p && n == sizeof(blob))
		CHECK_MEM(t, p, blob, sizeof(blob));
	CHECK_INT(t, ws_channel_recv(&b, &m, dl, &err), 0);
	check_sample(t, &m);

	/* An empty message, and the reverse direction. */
	ws_tlv_begin(&b.tx, 9);
	CHECK_INT(t, ws_channel_send(&b, dl, &err), 0);
	CHECK_INT(t, ws_channel_recv(&a, &m, dl, &err), 0);
	CHECK_INT(t, m.type, 9);
	CHECK_INT(t, m.len, 0);

	/* A writer that overflowed is not sent. */
	ws_tlv_begin(&a.tx, 1);
	a.tx.overflow = true;
	CHECK_INT(t, ws_channel_send(&a, dl, &err), -EMSGSIZE);
	ws_channel_close(&a);
	CHECK_INT(t, a.fd, -1);
	ws_channel_close(&b);
}

struct slow_writer {
	int fd;
	const uint8_t *buf;
	size_t len;
};

static void *slow_write(void *arg)
{
	struct slow_writer *s = arg;
	for (size_t i = 0; i < s->len; i++) {
		ws_clock_sleep_ns(500 * WS_NS_PER_US);
		if (send(s->fd, s->buf + i, 1, MSG_NOSIGNAL) != 1)
			break;
	}
	return NULL;
}

static void test_byte_at_a_time(void)
{
	const char *t = "byte_at_a_time";
	ws_channel c;
	int peer;
	if (open_pair(&c, &peer) < 0) {
		CHECK(t, 0);
		return;
	}
	ws_tlv_writer w = {0};
	build_sample(&w);
	CHECK_INT(t, ws_tlv_finish(&w, NULL), 0);
	struct slow_writer s = {peer, w.buf, w.len};
	pthread_t th;
	CHECK_INT(t, pthread_create(&th, NULL, slow_write, &s), 0);
	ws_err err = {0};
	ws_tlv_msg m;
	int rc = ws_channel_recv(&c, &m, ws_clock_ns() + 5000 * MS, &err);
	if (rc < 0)
		printf("  %s\n", err.msg);
	CHECK_INT(t, rc, 0);
	if (rc == 0)
		check_sample(t, &m);
	pthread_join(th, NULL);
	ws_tlv_writer_free(&w);
	close(peer);
	ws_channel_close(&c);
}

/* Send raw bytes from the peer, then receive with a 2 s deadline. */
static int recv_after(const void *bytes, size_t n, int close_peer, ws_err *err, int *peer_out)
{
	ws_channel c;
	int peer;
	if (open_pair(&c, &peer) < 0)
		return -9999;
	raw_send(peer, bytes, n);
	if (close_peer)
		close(peer);
	ws_tlv_msg m;
	int rc = ws_channel_recv(&c, &m, ws_clock_ns() + 2000 * MS, err);
	if (peer_out) { /* the caller inspects what is left unread */
		*peer_out = c.fd;
		c.fd = -1;
	}
	if (!close_peer)
		close(peer);
	ws_channel_close(&c);
	return rc;
}

static void test_foreign_peer(void)
{
	const char *t = "foreign_peer";
	ws_err err = {0};
	const char http[] = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
	CHECK_INT(t, recv_after(http, sizeof(http) - 1, 0, &err, NULL), -WS_E_NOTWS);
	CHECK_INT(t, err.code, -WS_E_NOTWS);
	CHECK_STR(t, err.msg,
		  "the peer is not speaking the warpspeed protocol (it sent 'HTTP/1.1 400 Bad Request')");

	/* Binary garbage is shown as hex, the first 8 bytes. */
	static const uint8_t junk[] = {0x00, 0x01, 0x02, 0xff, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60};
	err.code = 0;
	CHECK_INT(t, recv_after(junk, sizeof(junk), 0, &err, NULL), -WS_E_NOTWS);
	CHECK_STR(t, err.msg,
		  "the peer is not speaking the warpspeed protocol (it sent '00 01 02 ff 10 20 30 40')");

	/* Printable text that turns binary is shown as hex too. */
	static const uint8_t mixed[] = {'S', 'S', 'H', '-', 0x01};
	CHECK_INT(t, recv_after(mixed, sizeof(mixed), 1, &err, NULL), -WS_E_NOTWS);
	CHECK(t, strstr(err.msg, "'53 53 48 2d 01'") != NULL);

	/* The right magic with another version is a protocol error, not a foreign peer. */
	uint8_t v2[WS_TLV_HDR_LEN] = {0x57, 0x53, 0x50, 0x44, 0x02, 0x01, 0, 0, 0, 0, 0, 0};
	CHECK_INT(t, recv_after(v2, sizeof(v2), 0, &err, NULL), -WS_E_PROTO);
	CHECK(t, strstr(err.msg, "version 2") && strstr(err.msg, "version 1"));
}

static void test_silent_peer(void)
{
	const char *t = "silent_peer";
	ws_channel c;
	int peer;
	if (open_pair(&c, &peer) < 0) {
		CHECK(t, 0);
		return;
	}
	ws_err err = {0};
	ws_tlv_msg m;
	int64_t t0 = ws_clock_ns();
	int rc = ws_channel_recv(&c, &m, t0 + 200 * MS, &err);
	int64_t took = ws_clock_ns() - t0;
	CHECK_INT(t, rc, -WS_E_TIMEDOUT);
	CHECK_INT(t, err.code, -WS_E_TIMEDOUT);
	CHECK(t, strstr(err.msg, "timed out") != NULL);
	CHECK(t, took >= 200 * MS);
	CHECK(t, took < 1000 * MS);

	/* Half a header, then silence: the deadline still holds. */
	static const uint8_t half[] = {0x57, 0x53, 0x50, 0x44, 0x01, 0x01};
	raw_send(peer, half, sizeof(half));
	t0 = ws_clock_ns();
	rc = ws_channel_recv(&c, &m, t0 + 200 * MS, &err);
	took = ws_clock_ns() - t0;
	CHECK_INT(t, rc, -WS_E_TIMEDOUT);
	CHECK(t, took >= 200 * MS && took < 1000 * MS);
	close(peer);
	ws_channel_close(&c);
}

static void test_peer_closes(void)
{
	const char *t = "peer_closes";
	ws_err err = {0};
	/* A header announcing 100 bytes, then 10 of them and a close. */
	uint8_t f[WS_TLV_HDR_LEN + 10] = {0x57, 0x53, 0x50, 0x44, 0x01, 0x04, 0, 0, 0, 0, 0, 100};
	CHECK_INT(t, recv_after(f, sizeof(f), 1, &err, NULL), -ECONNRESET);
	CHECK_INT(t, err.code, -ECONNRESET);
	CHECK(t, strstr(err.msg, "after 10 of 100 bytes") != NULL);

	/* Closed inside the header. */
	CHECK_INT(t, recv_after(f, 7, 1, &err, NULL), -ECONNRESET);
	CHECK(t, strstr(err.msg, "after 3 of 8 bytes") != NULL);

	/* Closed before sending anything. */
	CHECK_INT(t, recv_after(f, 0, 1, &err, NULL), -ECONNRESET);
	CHECK_STR(t, err.msg, "the peer closed the connection");
}

static void test_bad_frames(void)
{
	const char *t = "bad_frames";
	ws_err err = {0};

	/* 2 MiB announced: refused at once, the bytes after the header are left unread. */
	uint8_t f[WS_TLV_HDR_LEN + 16] = {0x57, 0x53, 0x50, 0x44, 0x01, 0x04, 0, 0, 0x00, 0x20, 0, 0};
	int fd = -1;
	int64_t t0 = ws_clock_ns();
	CHECK_INT(t, recv_after(f, sizeof(f), 0, &err, &fd), -WS_E_PROTO);
	CHECK(t, ws_clock_ns() - t0 < 1000 * MS);
	CHECK(t, strstr(err.msg, "2097152") != NULL);
	if (fd >= 0) {
		uint8_t rest[64];
		CHECK_INT(t, recv(fd, rest, sizeof(rest), MSG_PEEK | MSG_DONTWAIT), 16);
		close(fd);
	}

	/* A complete frame whose field overruns the payload fails validation. */
	uint8_t g[WS_TLV_HDR_LEN + 8] = {0x57, 0x53, 0x50, 0x44, 0x01, 0x04, 0, 0, 0, 0, 0, 8,
					 0x00, 0x01, 0x04, 0x00, 0x00, 0x05, 'a', 'b'};
	CHECK_INT(t, recv_after(g, sizeof(g), 0, &err, NULL), -WS_E_PROTO);
	CHECK(t, strstr(err.msg, "field 1 claims 5 bytes but only 2 remain") != NULL);
}

int main(void)
{
	RUN(test_send_recv);
	RUN(test_byte_at_a_time);
	RUN(test_foreign_peer);
	RUN(test_silent_peer);
	RUN(test_peer_closes);
	RUN(test_bad_frames);
	TEST_MAIN_END();
}
