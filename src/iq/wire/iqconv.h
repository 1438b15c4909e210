/* SPDX-License-Identifier: BSD-2-Clause */
/* iqconv: sample conversions of the IQ host transport (ws_iq_format in include/warpspeed/iq.h).
 *
 * Read IQ places wire words into caller memory, Write IQ turns caller memory into wire
 * words, and the IQ file module does the same for files; one pair of functions keeps the
 * rounding and saturation rules (documented on ws_iq_format) in one place, tested against
 * exact values. The internal format WS_IQ_FMT_MEM (a ws_iqmem descriptor as dst/src, for
 * the MEX) is passed on to iqmem.c. */
#ifndef WS_IQ_IQCONV_H
#define WS_IQ_IQCONV_H

#include <warpspeed/iq.h>

#include <stddef.h>
#include <stdint.h>

/* cnt samples of caller memory src (format fmt) starting at sample idx, as big-endian wire
 * words at out (4 * cnt bytes); CF32 rounds to nearest and saturates, NaN gives 0. */
void ws_iqconv_to_wire(uint8_t *out, ws_iq_format fmt, const void *src, uint64_t idx, uint32_t cnt);

/* ws_iqconv_to_wire for a caller buffer of total samples (idx + cnt <= total): the loop may
 * read ahead (prefetch) up to its end. Write IQ converts packet by packet and passes the
 * whole buffer's length. */
void ws_iqconv_to_wire_ahead(uint8_t *out, ws_iq_format fmt, const void *src, uint64_t idx,
			     uint32_t cnt, uint64_t total);

/* cnt wire words at src into caller memory dst (format fmt) at sample idx. */
void ws_iqconv_from_wire(void *dst, ws_iq_format fmt, uint64_t idx, const uint8_t *src,
			 uint32_t cnt);

#endif
