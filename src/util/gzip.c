/* SPDX-License-Identifier: BSD-2-Clause */
/* gzip: stored-block gzip members and CRC-32; see gzip.h. */
#include "util/gzip.h"

#include <errno.h>

#define STORED_MAX 65535u

uint32_t ws_crc32(uint32_t crc, const void *data, size_t n)
{
	/* Bit by bit: the files are small (a run's samples) and a table would be 1 KiB of
	 * state or a static table to keep in step with the polynomial. */
	const unsigned char *p = data;
	crc = ~crc;
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

size_t ws_gzip_stored_size(size_t n)
{
	size_t blocks = n ? (n + STORED_MAX - 1) / STORED_MAX : 1;
	return 10 + blocks * 5 + n + 8;
}

static void le32(unsigned char *b, uint32_t v)
{
	b[0] = (unsigned char)v;
	b[1] = (unsigned char)(v >> 8);
	b[2] = (unsigned char)(v >> 16);
	b[3] = (unsigned char)(v >> 24);
}

int ws_gzip_stored(FILE *out, const void *data, size_t n)
{
	/* ID1 ID2, CM = 8 (deflate), FLG = 0, MTIME = 0, XFL = 0, OS = 3 (Unix). */
	static const unsigned char head[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};
	const unsigned char *p = data;
	int bad = fwrite(head, 1, sizeof head, out) != sizeof head;
	size_t off = 0;
	do {
		size_t len = n - off > STORED_MAX ? STORED_MAX : n - off;
		/* BFINAL in bit 0, BTYPE 00 (stored); then LEN and its one's complement, LE. */
		unsigned char bh[5] = {off + len == n, (unsigned char)len,
				       (unsigned char)(len >> 8), (unsigned char)~len,
				       (unsigned char)(~len >> 8)};
		bad |= fwrite(bh, 1, sizeof bh, out) != sizeof bh;
		if (len)
			bad |= fwrite(p + off, 1, len, out) != len;
		off += len;
	} while (off < n);
	unsigned char tail[8];
	le32(tail, ws_crc32(0, data, n));
	le32(tail + 4, (uint32_t)n); /* ISIZE: the length modulo 2^32 */
	bad |= fwrite(tail, 1, sizeof tail, out) != sizeof tail;
	return bad ? -EIO : 0;
}
