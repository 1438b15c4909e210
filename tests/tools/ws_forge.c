/* SPDX-License-Identifier: BSD-2-Clause */
/* ws_forge: a hostile client for the integration tests. It speaks the control protocol
 * as src/session/client.c does, then does on the data path what a real client never
 * would, and reports when (and whether) the daemon's answer arrived:
 *
 *   ws_forge udp-wrap HOST PORT SECS     a SECS-long UDP_STREAM whose data are 10 normal
 *                                        datagrams, then seq 2^64-10 and 2^64-1, no END
 *   ws_forge tcp-trickle HOST PORT SECS GAP_MS
 *                                        a SECS-long TCP_STREAM that sends 1 byte every
 *                                        GAP_MS after START
 *
 * Prints one line "answer TYPE after N ms from START: ..." and exits 0 when RESULT or ERROR
 * arrived within SECS + 10 s, or "no answer ..." and exits 1. */
#include "ctl/channel.h"
#include "ctl/msg.h"
#include "net/addr.h"
#include "net/sock.h"
#include "util/bytes.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/udp_stream.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <warpspeed/version.h>

#define F_DGRAMS_JUMPS 243 /* side-result field (ctl/msg.c); absent from older daemons */

static int die(const char *what, const ws_err *err)
{
	printf("forge: %s: %s\n", what, err ? err->msg : "");
	return 2;
}

static int roundtrip(ws_channel *ch, uint8_t want, ws_tlv_msg *m, ws_err *err)
{
	int rc = ws_channel_send(ch, ws_clock_ns() + 5 * WS_NS_PER_SEC, err);
	if (rc == 0)
		rc = ws_channel_recv(ch, m, ws_clock_ns() + 5 * WS_NS_PER_SEC, err);
	if (rc == 0 && m->type != want) {
		char t[WS_ERR_MSG_MAX] = "";
		ws_tlv_get_str(m, WS_F_ERR_MSG, t, sizeof(t));
		return ws_err_set(err, WS_E_PROTO, "got %s instead of %s: %s", ws_msg_type_name(m->type),
				  ws_msg_type_name(want), t);
	}
	return rc;
}

/* Wait for RESULT or ERROR until deadline, doing tick() every gap_ms meanwhile. */
static int await_answer(ws_channel *ch, int64_t start, int64_t deadline, int gap_ms,
			void (*tick)(void *), void *ctx)
{
	for (;;) {
		int64_t now = ws_clock_ns();
		if (now >= deadline)
			break;
		struct pollfd p = {.fd = ch->fd, .events = POLLIN};
		int ms = gap_ms > 0 ? gap_ms : 100;
		if (poll(&p, 1, ms) == 0) {
			if (tick)
				tick(ctx);
			continue;
		}
		ws_tlv_msg m;
		ws_err err;
		if (ws_channel_recv(ch, &m, deadline, &err) < 0) {
			printf("no answer: the control connection failed after %lld ms: %s\n",
			       (long long)((ws_clock_ns() - start) / WS_NS_PER_MS), err.msg);
			return 1;
		}
		char text[WS_ERR_MSG_MAX] = "";
		uint64_t recv = 0, jumps = 0, lost = 0;
		ws_tlv_get_str(&m, WS_F_ERR_MSG, text, sizeof(text));
		ws_tlv_get_u64(&m, 230, &recv); /* dgrams_recv */
		ws_tlv_get_u64(&m, 231, &lost); /* dgrams_lost */
		int has_jumps = ws_tlv_get_u64(&m, F_DGRAMS_JUMPS, &jumps) == 0;
		printf("answer %s after %lld ms from START: received %llu, lost %llu, jumps %s%llu%s%s\n",
		       ws_msg_type_name(m.type), (long long)((ws_clock_ns() - start) / WS_NS_PER_MS),
		       (unsigned long long)recv, (unsigned long long)lost, has_jumps ? "" : "(absent) ",
		       (unsigned long long)jumps, text[0] ? ": " : "", text);
		return 0;
	}
	printf("no answer within %lld ms of START\n", (long long)((deadline - start) / WS_NS_PER_MS));
	return 1;
}

static void send_dgram(int fd, uint32_t tag, uint64_t seq)
{
	uint8_t d[64];
	memset(d, 0x42, sizeof(d));
	ws_udp_hdr h = {seq, tag, WS_UDP_DATA};
	ws_udp_hdr_encode(d, &h);
	if (send(fd, d, sizeof(d), 0) < 0)
		perror("forge: send");
}

static void trickle(void *ctx)
{
	int fd = *(int *)ctx;
	if (send(fd, "x", 1, MSG_NOSIGNAL) < 0) {
		/* the daemon closed the data connection: keep waiting for its answer */
	}
}

int main(int argc, char **argv)
{
	if (argc < 5 || (strcmp(argv[1], "udp-wrap") && strcmp(argv[1], "tcp-trickle")) ||
	    (!strcmp(argv[1], "tcp-trickle") && argc < 6)) {
		fprintf(stderr, "usage: ws_forge udp-wrap HOST PORT SECS | tcp-trickle HOST PORT SECS GAP_MS\n");
		return 2;
	}
	bool udp = !strcmp(argv[1], "udp-wrap");
	double secs = atof(argv[4]);
	int gap_ms = udp ? 0 : atoi(argv[5]);
	ws_err err;
	ws_addr ctl;
	if (ws_addr_resolve(argv[2], (uint16_t)atoi(argv[3]), 4, 0, &ctl, &err) < 0)
		return die("resolve", &err);
	int cfd = ws_sock_connect(&ctl, NULL, 0, 0, NULL, NULL, ws_clock_ns() + 5 * WS_NS_PER_SEC, &err);
	if (cfd < 0)
		return die("connect", &err);
	ws_channel ch;
	ws_channel_init(&ch, cfd);
	ws_tlv_msg m;
	ws_tlv_begin(&ch.tx, WS_MSG_HELLO);
	ws_tlv_put_u64(&ch.tx, WS_F_PROTO, WARPSPEED_CTL_PROTOCOL);
	if (roundtrip(&ch, WS_MSG_HELLO_ACK, &m, &err) < 0)
		return die("HELLO", &err);

	ws_test_spec spec;
	ws_test_spec_init(&spec);
	spec.type = udp ? WS_TEST_UDP_STREAM : WS_TEST_TCP_STREAM;
	spec.duration_s = secs;
	int ufd = -1;
	ws_tlv_begin(&ch.tx, WS_MSG_TEST_REQ);
	ws_msg_put_spec(&ch.tx, &spec);
	ws_addr local, bound;
	if (udp) {
		ws_addr_resolve("127.0.0.1", 0, 4, 1, &local, &err);
		ufd = ws_sock_udp(&local, 0, 0, 0, NULL, NULL, NULL, &err);
		if (ufd < 0)
			return die("UDP socket", &err);
		ws_sock_local_addr(ufd, &bound);
		ws_tlv_put_u64(&ch.tx, WS_F_CLIENT_PORT, ws_addr_port(&bound));
	}
	if (roundtrip(&ch, WS_MSG_TEST_ACK, &m, &err) < 0)
		return die("TEST_REQ", &err);
	uint64_t port = 0;
	const uint8_t *cookie = NULL;
	uint16_t clen = 0;
	ws_tlv_get_u64(&m, WS_F_DATA_PORT, &port);
	ws_tlv_get_bytes(&m, WS_F_COOKIE, &cookie, &clen);
	ws_addr data = ctl;
	ws_addr_set_port(&data, (uint16_t)port);
	int dfd = -1;
	uint32_t tag = 0;
	if (udp) {
		if (ws_sock_udp_connect(ufd, &data, &err) < 0)
			return die("UDP connect", &err);
		tag = ws_udp_tag(ws_addr_port(&bound), (uint16_t)port);
	} else {
		dfd = ws_sock_connect(&data, NULL, 0, 0, NULL, NULL, ws_clock_ns() + 5 * WS_NS_PER_SEC, &err);
		if (dfd < 0 || clen != WS_COOKIE_LEN)
			return die("data connect", &err);
		uint8_t hello[WS_COOKIE_LEN + 4];
		memcpy(hello, cookie, WS_COOKIE_LEN);
		ws_put_be32(hello + WS_COOKIE_LEN, 0);
		if (ws_sock_write_all(dfd, hello, sizeof(hello), ws_clock_ns() + WS_NS_PER_SEC, &err) < 0)
			return die("data hello", &err);
	}
	ws_tlv_begin(&ch.tx, WS_MSG_START);
	if (roundtrip(&ch, WS_MSG_STARTED, &m, &err) < 0)
		return die("START", &err);
	int64_t start = ws_clock_ns();
	if (udp) {
		for (uint64_t s = 0; s < 10; s++)
			send_dgram(ufd, tag, s);
		send_dgram(ufd, tag, UINT64_MAX - 9);
		send_dgram(ufd, tag, UINT64_MAX);
	}
	int rc = await_answer(&ch, start, start + (int64_t)((secs + 10) * WS_NS_PER_SEC), gap_ms,
			      udp ? NULL : trickle, &dfd);
	if (dfd >= 0)
		close(dfd);
	if (ufd >= 0)
		close(ufd);
	ws_channel_close(&ch);
	return rc;
}
