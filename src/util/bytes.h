/* SPDX-License-Identifier: BSD-2-Clause */
/* bytes: big-endian loads and stores, the byte order of every wire format here.
 *
 * The control protocol, the UDP_STREAM datagram header and the WARPLab packets are all
 * big-endian, and the two ends of a test may differ in byte order (the PowerPC board
 * case), so every codec goes through these shifts instead of casts or htonl. No bounds
 * checks: callers check lengths first. */
#ifndef WS_UTIL_BYTES_H
#define WS_UTIL_BYTES_H

#include <stdint.h>

static inline void ws_put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void ws_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void ws_put_be64(uint8_t *p, uint64_t v)
{
	ws_put_be32(p, (uint32_t)(v >> 32));
	ws_put_be32(p + 4, (uint32_t)v);
}

static inline uint16_t ws_get_be16(const uint8_t *p)
{
	return (uint16_t)((uint16_t)p[0] << 8 | p[1]);
}

static inline uint32_t ws_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t ws_get_be64(const uint8_t *p)
{
	return (uint64_t)ws_get_be32(p) << 32 | ws_get_be32(p + 4);
}

#endif
