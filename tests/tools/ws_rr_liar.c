/* SPDX-License-Identifier: BSD-2-Clause */
/* ws_rr_liar: a daemon for the integration tests whose RR responses are the wrong size.
 * It speaks the control protocol as src/session/daemon.c does for one session and one
 * TCP_RR or UDP_RR test (no key, one flow), then answers every request with the spec's
 * response size plus DELTA bytes (DELTA may be negative), so the client must fail with a
 * message naming the sizes instead of hanging.
 *
 *   ws_rr_liar DELTA      prints "port N" (its control port on 127.0.0.1), serves one
 *                         test, exits 0 when the data path ended, 1 on a setup failure
 *
 * It exits by itself 20 s after starting whatever happens, so a test never leaves it. */
#include "ctl/channel.h"
#include "ctl/msg.h"
#include "net/addr.h"
#include "net/sock.h"
#include "util/clock.h"
#include "util/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <warpspeed/version.h>

#define STEP_NS (5 * WS_NS_PER_SEC)

static int die(const char *what, const ws_err *err)
{
	fprintf(stderr, "liar: %s: %s\n", what, err ? err->msg : "");
	return 1;
}

static int expect(ws_channel *ch, uint8_t type, ws_tlv_msg *m, ws_err *err)
{
	int rc = ws_channel_recv(ch, m, ws_clock_ns() + STEP_NS, err);
	if (rc == 0 && m->type != type)
		rc = ws_err_set(err, WS_E_PROTO, "got %s, expected %s", ws_msg_type_name(m->type),
				ws_msg_type_name(type));
	return rc;
}

/* Answer requests with rsp bytes each until EOF (TCP) or the end marker (UDP). */
static void serve_data(int fd, bool udp, size_t req, size_t rsp)
{
	char *in = calloc(1, req + 1), *out = calloc(1, rsp + 1);
	if (!in || !out)
		goto done;
	for (;;) {
		ssize_t k;
		if (udp) {
			k = recv(fd, in, req, 0);
			if (k <= 0)
				break;
			memcpy(out, in, (size_t)k < 8 ? (size_t)k : 8);
			(void)send(fd, out, rsp, 0);
			continue;
		}
		if (ws_sock_read_exact(fd, in, req, ws_clock_ns() + STEP_NS, NULL) < 0)
			break;
		if (ws_sock_write_all(fd, out, rsp, ws_clock_ns() + STEP_NS, NULL) < 0)
			break;
	}
done:
	free(in);
	free(out);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: ws_rr_liar DELTA\n");
		return 2;
	}
	long delta = atol(argv[1]);
	alarm(20);
	ws_err err;
	ws_addr any;
	if (ws_addr_resolve("127.0.0.1", 0, 4, 1, &any, &err) < 0)
		return die("resolve", &err);
	int lfd = ws_sock_listen(&any, -1, 0, 0, 4, &err);
	if (lfd < 0)
		return die("listen", &err);
	ws_addr bound;
	ws_sock_local_addr(lfd, &bound);
	printf("port %u\n", ws_addr_port(&bound));
	fflush(stdout);
	int cfd = ws_sock_accept(lfd, NULL, ws_clock_ns() + 15 * WS_NS_PER_SEC, -1, &err);
	if (cfd < 0)
		return die("accept", &err);
	ws_channel ch;
	ws_channel_init(&ch, cfd);
	ws_tlv_msg m;
	if (expect(&ch, WS_MSG_HELLO, &m, &err) < 0)
		return die("HELLO", &err);
	ws_tlv_begin(&ch.tx, WS_MSG_HELLO_ACK);
	ws_tlv_put_u64(&ch.tx, WS_F_PROTO, WARPSPEED_CTL_PROTOCOL);
	ws_tlv_put_str(&ch.tx, WS_F_SOFTWARE, "ws_rr_liar");
	ws_tlv_put_u64(&ch.tx, WS_F_NCPUS, 1);
	ws_tlv_put_f64(&ch.tx, WS_F_MAX_DURATION, 3600);
	ws_tlv_put_u64(&ch.tx, WS_F_SESSION_ID, 1);
	ws_test_spec spec;
	int rc = ws_channel_send(&ch, ws_clock_ns() + STEP_NS, &err);
	if (rc == 0)
		rc = expect(&ch, WS_MSG_TEST_REQ, &m, &err);
	if (rc == 0)
		rc = ws_msg_get_spec(&m, &spec, &err);
	if (rc < 0)
		return die("TEST_REQ", &err);
	bool udp = spec.type == WS_TEST_UDP_RR;
	long rsp = (long)spec.rsp_size + delta;
	if (rsp < 0)
		rsp = 0;
	int dfd;
	ws_side_result res;
	memset(&res, 0, sizeof(res));
	uint8_t cookie[WS_COOKIE_LEN] = {0};
	if (udp) {
		uint16_t port = 0;
		ws_addr peer;
		ws_sock_peer_addr(cfd, &peer);
		if (ws_msg_get_ports(&m, WS_F_CLIENT_PORT, &port, 1) != 1)
			return die("TEST_REQ without a client port", NULL);
		ws_addr_set_port(&peer, port);
		dfd = ws_sock_udp(&any, 0, 0, 0, NULL, NULL, NULL, &err);
		if (dfd < 0 || ws_sock_udp_connect(dfd, &peer, &err) < 0)
			return die("UDP socket", &err);
	} else {
		dfd = ws_sock_listen(&any, -1, 0, 0, 4, &err);
		if (dfd < 0)
			return die("data listen", &err);
	}
	ws_sock_local_addr(dfd, &bound);
	ws_tlv_begin(&ch.tx, WS_MSG_TEST_ACK);
	ws_tlv_put_u64(&ch.tx, WS_F_DATA_PORT, ws_addr_port(&bound));
	ws_tlv_put_bytes(&ch.tx, WS_F_COOKIE, cookie, sizeof(cookie));
	ws_msg_put_side(&ch.tx, &res);
	if (ws_channel_send(&ch, ws_clock_ns() + STEP_NS, &err) < 0)
		return die("TEST_ACK", &err);
	if (!udp) {
		int afd = ws_sock_accept(dfd, NULL, ws_clock_ns() + STEP_NS, -1, &err);
		uint8_t hello[WS_COOKIE_LEN + 4];
		if (afd < 0 || ws_sock_read_exact(afd, hello, sizeof(hello), ws_clock_ns() + STEP_NS, &err) < 0)
			return die("data connection", &err);
		close(dfd);
		dfd = afd;
	}
	if (expect(&ch, WS_MSG_START, &m, &err) < 0)
		return die("START", &err);
	ws_tlv_begin(&ch.tx, WS_MSG_STARTED);
	if (ws_channel_send(&ch, ws_clock_ns() + STEP_NS, &err) < 0)
		return die("STARTED", &err);
	serve_data(dfd, udp, spec.req_size, (size_t)rsp);
	close(dfd);
	ws_tlv_begin(&ch.tx, WS_MSG_RESULT);
	ws_msg_put_side(&ch.tx, &res);
	(void)ws_channel_send(&ch, ws_clock_ns() + STEP_NS, NULL);
	ws_channel_close(&ch);
	close(lfd);
	return 0;
}
