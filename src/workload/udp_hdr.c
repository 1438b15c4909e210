/* SPDX-License-Identifier: BSD-2-Clause */
/* udp_hdr: the UDP_STREAM datagram header codec; see udp_hdr.h. */
#include "workload/udp_hdr.h"

#include "util/bytes.h"

#define HDR_VERSION 1
#define CHECK_SALT  0x5753u

/* A ones'-complement sum of the first 14 bytes, salted: catches stray and torn datagrams. */
static uint16_t hdr_check(const uint8_t *p)
{
	uint32_t sum = 0;
	for (int i = 0; i < 14; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)(sum ^ CHECK_SALT);
}

void ws_udp_hdr_encode(uint8_t *p, const ws_udp_hdr *h)
{
	ws_put_be64(p, h->seq);
	ws_put_be32(p + 8, h->tag);
	p[12] = h->kind;
	p[13] = HDR_VERSION;
	uint16_t c = hdr_check(p);
	p[14] = (uint8_t)(c >> 8);
	p[15] = (uint8_t)c;
}

int ws_udp_hdr_decode(const uint8_t *p, size_t len, uint32_t tag, ws_udp_hdr *h)
{
	if (len < WS_UDP_HDR_LEN || p[13] != HDR_VERSION || p[12] > WS_UDP_END_ACK)
		return -1;
	if (hdr_check(p) != (uint16_t)(p[14] << 8 | p[15]))
		return -1;
	uint32_t t = ws_get_be32(p + 8);
	if (t != tag)
		return -1;
	h->seq = ws_get_be64(p);
	h->tag = t;
	h->kind = p[12];
	return 0;
}

uint32_t ws_udp_tag(uint16_t sender_port, uint16_t receiver_port)
{
	uint32_t x = ((uint32_t)sender_port << 16 | receiver_port) ^ 0x57535544u; /* "WSUD" */
	x *= 2654435761u;
	return x ^ (x >> 15);
}
