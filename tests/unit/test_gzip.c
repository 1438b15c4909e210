/* SPDX-License-Identifier: BSD-2-Clause */
/* test_gzip: the CRC-32 against its published check values, and the exact bytes of
 * stored-block gzip members: an empty input, a short text, and inputs that end exactly at
 * and one byte past a block's 65535 bytes (block headers, BFINAL, trailer). */
#include "harness.h"

#include "util/gzip.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void crc_values(void)
{
	const char *n = "crc_values";
	CHECK_U64(n, ws_crc32(0, "123456789", 9), 0xcbf43926u); /* the CRC-32 check value */
	CHECK_U64(n, ws_crc32(0, "", 0), 0);
	CHECK_U64(n, ws_crc32(0, "a", 1), 0xe8b7be43u);
	/* zlib.crc32(b"The quick brown fox jumps over the lazy dog") */
	const char *fox = "The quick brown fox jumps over the lazy dog";
	CHECK_U64(n, ws_crc32(0, fox, strlen(fox)), 0x414fa339u);
	/* continued in two pieces: the same */
	CHECK_U64(n, ws_crc32(ws_crc32(0, fox, 10), fox + 10, strlen(fox) - 10), 0x414fa339u);
}

/* The member of data[0..len) in memory; *out_len its size. */
static unsigned char *member(const void *data, size_t len, size_t *out_len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	if (!f || ws_gzip_stored(f, data, len) != 0) {
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	*out_len = n;
	return (unsigned char *)buf;
}

static void small_members(void)
{
	const char *n = "small_members";
	size_t len = 0;
	unsigned char *m = member("", 0, &len);
	/* header, one final empty stored block (LEN 0, NLEN ffff), CRC 0, ISIZE 0 */
	static const unsigned char empty[] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3,   1, 0,
					      0,    0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0};
	CHECK_INT(n, (int)len, (int)sizeof empty);
	CHECK(n, m && len == sizeof empty && !memcmp(m, empty, len));
	CHECK_INT(n, (int)ws_gzip_stored_size(0), (int)sizeof empty);
	free(m);

	m = member("abc", 3, &len);
	/* crc32("abc") = 0x352441c2 */
	static const unsigned char abc[] = {0x1f, 0x8b, 8,    0,    0,   0,   0,   0,
					    0,    3,    1,    3,    0,   0xfc, 0xff, 'a',
					    'b',  'c',  0xc2, 0x41, 0x24, 0x35, 3,  0,
					    0,    0};
	CHECK_INT(n, (int)len, (int)sizeof abc);
	CHECK(n, m && len == sizeof abc && !memcmp(m, abc, len));
	CHECK_INT(n, (int)ws_gzip_stored_size(3), (int)sizeof abc);
	free(m);
}

static void block_boundaries(void)
{
	const char *n = "block_boundaries";
	size_t big = 65536;
	unsigned char *data = malloc(big);
	for (size_t i = 0; i < big; i++)
		data[i] = (unsigned char)(i * 7 + 3);
	size_t len = 0;
	/* exactly one full block: final, LEN ffff, NLEN 0000 */
	unsigned char *m = member(data, 65535, &len);
	CHECK_INT(n, (int)len, 10 + 5 + 65535 + 8);
	CHECK_INT(n, (int)ws_gzip_stored_size(65535), (int)len);
	CHECK(n, m && m[10] == 1 && m[11] == 0xff && m[12] == 0xff && m[13] == 0 && m[14] == 0);
	CHECK(n, m && !memcmp(m + 15, data, 65535));
	free(m);
	/* one byte more: a full non-final block, then a final block of 1 */
	m = member(data, big, &len);
	CHECK_INT(n, (int)len, 10 + 5 + 65535 + 5 + 1 + 8);
	CHECK_INT(n, (int)ws_gzip_stored_size(big), (int)len);
	CHECK(n, m && m[10] == 0 && m[11] == 0xff && m[12] == 0xff);
	size_t b2 = 15 + 65535;
	CHECK(n, m && m[b2] == 1 && m[b2 + 1] == 1 && m[b2 + 2] == 0 && m[b2 + 3] == 0xfe &&
			 m[b2 + 4] == 0xff && m[b2 + 5] == data[65535]);
	uint32_t crc = ws_crc32(0, data, big);
	CHECK(n, m && m[len - 8] == (crc & 0xff) && m[len - 5] == crc >> 24);
	CHECK(n, m && m[len - 4] == 0 && m[len - 3] == 0 && m[len - 2] == 1 && m[len - 1] == 0);
	free(m);
	free(data);
}

int main(void)
{
	RUN(crc_values);
	RUN(small_members);
	RUN(block_boundaries);
	TEST_MAIN_END();
}
