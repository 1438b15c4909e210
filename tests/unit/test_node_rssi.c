/* SPDX-License-Identifier: BSD-2-Clause */
/* test_node_rssi: READ_RSSI (0x3000000A) against a node on loopback (issue 33).
 *
 * The node keeps an RSSI buffer per interface filled with a fixed pattern and answers
 * READ_RSSI as it answers READ_IQ, with the READ_RSSI command word: one request, as
 * WARPLab 7.7.1's MEX sends it (command length 0, num_args 0, five words), answered byte
 * for byte; a read across a pattern block, every word checked; a start beyond the
 * buffer's words refused with IQ_ERROR; and the host library's ws_iq_read_rssi of two
 * interfaces, value for value, and its refusals of words beyond the buffer and of an
 * interface the node lacks. */
#include "harness.h"

#include "iq/node/node.h"
#include "iq/node/node_mem.h"
#include "iq/node/node_thread.h"
#include "iq/wire/wire.h"
#include "util/bytes.h"
#include "util/err.h"

#include <warpspeed/iq.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

static int port_of(ws_node_thread *t)
{
	ws_node_info in;
	ws_node_get_info(ws_node_thread_node(t), &in);
	return in.port;
}

static int sock_to(int port, struct sockaddr_in *to)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	bind(s, (struct sockaddr *)&a, sizeof a);
	*to = a;
	to->sin_port = htons((uint16_t)port);
	return s;
}

static int recv_ms(int s, uint8_t *b, size_t cap, int ms)
{
	struct pollfd p = {.fd = s, .events = POLLIN};
	return poll(&p, 1, ms) == 1 ? (int)recv(s, b, cap, 0) : -1;
}

/* The 42-byte request of the MEX: seq 0x4242, ROBUST clear, command length 0. */
static size_t rssi_req(uint8_t *b, uint32_t buf, uint32_t start, uint32_t n, uint32_t bpp)
{
	static const uint8_t head[] = {0, 0, 0, 0, 0, 0xFA, 0, 1, 0, 0x1C, 0x42, 0x42, 0, 0,
				       0x30, 0, 0, 0x0A, 0, 0, 0, 0};
	memcpy(b, head, sizeof head);
	uint32_t w[5] = {buf, start, n, bpp, (n * 4 + bpp - 1) / bpp};
	for (int i = 0; i < 5; i++)
		ws_put_be32(b + sizeof head + 4 * (size_t)i, w[i]);
	return sizeof head + 20;
}

static void test_rssi(void)
{
	ws_node_config c;
	ws_node_builtin_config(&c, 2, 8964);
	c.rx_samples = 1u << 16; /* 32768 RSSI words per interface */
	ws_node_thread *t;
	ws_err err;
	if (ws_node_thread_start(&c, &t, &err) < 0) {
		CHECK("start", 0);
		return;
	}
	struct sockaddr_in to;
	int s = sock_to(port_of(t), &to);
	uint8_t req[64], got[9000];
	size_t rl = rssi_req(req, 2, 10, 4, 16);
	sendto(s, req, rl, 0, (struct sockaddr *)&to, sizeof to);
	static const uint8_t want[] = {
		0, 0, 0, 0xFA, 0, 0, 0, 2, 0, 0x32, 0x42, 0x42, 0, 0, /* 50 bytes, seq 0x4242 */
		0x30, 0, 0, 0x0A, 0, 0x1C, 0, 1,                        /* READ_RSSI, 28, 1 arg */
		0, 2, 0, 0, 0, 0, 0, 10, 0, 0, 0, 4,                    /* RF_B, iq_id 0, 10, 4 */
		0x01, 0x2C, 0x01, 0x31, 0x01, 0x36, 0x01, 0x3B,         /* 300 305, 310 315 */
		0x01, 0x40, 0x01, 0x45, 0x01, 0x4A, 0x01, 0x4F,         /* 320 325, 330 335 */
	};
	int n = recv_ms(s, got, sizeof got, 2000);
	CHECK_INT("one packet of 50 bytes", n, (int)sizeof want);
	if (n == (int)sizeof want)
		CHECK_MEM("byte for byte", got, want, sizeof want);
	CHECK_U64("word 10 of RF_B", ws_node_mem_rssi_word(1, 10), 0x012C0131);

	/* 20000 words of RF_A from 10000: across the pattern block, every word. */
	rl = rssi_req(req, 1, 10000, 20000, 2232 * 4);
	sendto(s, req, rl, 0, (struct sockaddr *)&to, sizeof to);
	uint32_t words = 0, bad = 0;
	while (words < 20000 && (n = recv_ms(s, got, sizeof got, 2000)) > 34) {
		ws_wire_sample_hdr sh;
		ws_wire_get_sample_hdr(got + WS_WIRE_OFF_ARGS, 12, &sh);
		bad += ws_get_be32(got + WS_WIRE_OFF_CMD) != WS_WIRE_CMD_READ_RSSI ||
		       (size_t)n != WS_WIRE_SAMPLE_PKT_HDR + 4 * (size_t)sh.count;
		for (uint32_t i = 0; i < sh.count && (size_t)n >= 34 + 4 * (size_t)(i + 1); i++)
			bad += ws_get_be32(got + 34 + 4 * i) != ws_node_mem_rssi_word(0, sh.start + i);
		words += sh.count;
	}
	CHECK_INT("every word arrived", (int)words, 20000);
	CHECK_INT("every word and packet right", (int)bad, 0);

	/* Beyond the 32768 words: IQ_ERROR, one sample packet without samples. */
	rl = rssi_req(req, 1, 32768, 1, 16);
	sendto(s, req, rl, 0, (struct sockaddr *)&to, sizeof to);
	n = recv_ms(s, got, sizeof got, 2000);
	CHECK_INT("a refusal", n, 34);
	if (n == 34) {
		CHECK_U64("with READ_RSSI", ws_get_be32(got + WS_WIRE_OFF_CMD), WS_WIRE_CMD_READ_RSSI);
		CHECK_INT("and IQ_ERROR", got[WS_WIRE_OFF_ARGS + 2], WS_WIRE_SFLAG_IQ_ERROR);
	}

	/* The host library: 300 words of RF_A and RF_B from 16300, 600 values each. */
	ws_iq_config hc;
	ws_iq_config_default(&hc);
	hc.addr = "127.0.0.1";
	hc.port = port_of(t);
	ws_iq_node *h = NULL;
	ws_iq_error e;
	static uint16_t va[600], vb[600];
	uint16_t *dst[2] = {va, vb};
	int r = ws_iq_open(&hc, &h, &e);
	CHECK_INT("open", r, 0);
	if (r == 0) {
		r = ws_iq_read_rssi(h, WS_IQ_RF_A | WS_IQ_RF_B, 16300, 300, dst, &e);
		CHECK_INT("ws_iq_read_rssi", r, 0);
		unsigned wrong = 0;
		for (uint32_t k = 0; k < 600; k++) {
			uint32_t k0 = 2 * 16300 + k;
			wrong += va[k] != ((5 * k0) & 0x3FF) || vb[k] != ((5 * k0 + 200) & 0x3FF);
		}
		CHECK_INT("every value", (int)wrong, 0);
		/* Refused before any request, naming RSSI and its words, not Read IQ's samples. */
		r = ws_iq_read_rssi(h, WS_IQ_RF_A, 32768, 1, dst, &e);
		CHECK_INT("beyond the words", r, -WS_E_INVAL);
		CHECK_STR("beyond msg", e.msg,
			  "Read RSSI: words [32768, 32768 + 1) are beyond the node's RSSI buffer "
			  "of 32768 words");
		r = ws_iq_read_rssi(h, WS_IQ_RF_C, 0, 1, dst, &e);
		CHECK_INT("rf C of 2", r, -WS_E_INVAL);
		CHECK_STR("rf C msg", e.msg,
			  "Read RSSI: buffer mask 0x4 names interfaces the node lacks (it has 2: "
			  "mask within 0x3)");
		ws_iq_close(h);
	}
	close(s);
	ws_node_thread_stop(t, NULL);
}

int main(void)
{
	RUN(test_rssi);
	TEST_MAIN_END();
}
