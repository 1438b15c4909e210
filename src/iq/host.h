/* host: internal helpers of the IQ host transport (the public API is include/warpspeed/iq.h).
 *
 * The sample conversions and WARPLab's NOT_READY wait are shared with the file module, the
 * benchmark and the unit tests, which check them against exact values; nothing here is
 * part of the installed interface. */
#ifndef WS_IQ_HOST_H
#define WS_IQ_HOST_H

#include <warpspeed/iq.h>

#include <stddef.h>
#include <stdint.h>

/* WARPLab's wait after NOT_READY, in ns: (remaining bytes / 160) us + 100 us, remaining
 * bytes = 4 * the larger of (TX length - TX pointer) and (RX length - RX pointer) from the
 * six status words w[0..5] (fewer than six words: just the 100 us). */
int64_t ws_iq_host_not_ready_wait_ns(const uint32_t *w, size_t nw);

/* cnt samples of caller memory src (format fmt) starting at sample idx, as big-endian wire
 * words at out (4 * cnt bytes); CF32 rounds to nearest and saturates, NaN gives 0. */
void ws_iq_host_to_wire(uint8_t *out, ws_iq_format fmt, const void *src, uint64_t idx,
			uint32_t cnt);

/* cnt wire words at src into caller memory dst (format fmt) at sample idx. */
void ws_iq_host_from_wire(void *dst, ws_iq_format fmt, uint64_t idx, const uint8_t *src,
			  uint32_t cnt);

#endif
