/* SPDX-License-Identifier: BSD-2-Clause */
/* gzip: a gzip member (RFC 1952) around stored, uncompressed deflate blocks (RFC 1951
 * section 3.2.4), and the CRC-32 it carries.
 *
 * Some files warpspeed writes must be gzip because the program that reads them opens them
 * that way (Flent's .flent.gz data files), but the run time is libc only, so there is no
 * zlib. A stored block is valid deflate that any inflater reads back byte for byte; the
 * file is a little larger than its text (5 bytes per 65535 plus 18), which is the price
 * of needing no compressor. The member has no name, no extra fields and an mtime of 0
 * ("none"), so the same text always gives the same bytes. */
#ifndef WS_UTIL_GZIP_H
#define WS_UTIL_GZIP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The CRC-32 of ISO-HDLC / gzip / zlib (reflected polynomial 0xedb88320), continued from
 * crc (0 to start): ws_crc32(0, "123456789", 9) == 0xcbf43926. */
uint32_t ws_crc32(uint32_t crc, const void *data, size_t n);

/* The size of the gzip member ws_gzip_stored writes for n bytes of data. */
size_t ws_gzip_stored_size(size_t n);

/* Writes data[0..n) to out as one gzip member of stored blocks (at most 65535 bytes each;
 * an empty input is one empty final block). 0, or -EIO when a write failed. */
int ws_gzip_stored(FILE *out, const void *data, size_t n);

#endif
