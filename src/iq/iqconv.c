/* iqconv: IQ samples between caller memory and the node's wire words; see iqconv.h.
 *
 * The node's sample is one big-endian 32-bit word (I high, Q low, Fix16_15); callers hold
 * interleaved int16 or float. Read IQ, Write IQ and the file module convert through here,
 * byte by byte with the helpers of util/bytes.h, so the same code is right on big-endian
 * and strict-alignment targets. */
#include "iq/iqconv.h"

#include "util/bytes.h"

#include <math.h>
#include <string.h>

size_t ws_iq_format_size(ws_iq_format fmt)
{
	static const size_t size[3] = {4, 8, 4}; /* CI16, CF32, BE32 */
	return (unsigned)fmt < 3 ? size[fmt] : 0;
}

void ws_iqconv_from_wire(void *dst, ws_iq_format fmt, uint64_t idx, const uint8_t *src,
			  uint32_t cnt)
{
	if (fmt == WS_IQ_FMT_BE32) {
		memcpy((uint8_t *)dst + idx * 4, src, (size_t)cnt * 4);
	} else if (fmt == WS_IQ_FMT_CI16) {
		int16_t *o = (int16_t *)dst + 2 * idx;
		for (uint32_t i = 0; i < 2 * cnt; i++)
			o[i] = (int16_t)ws_get_be16(src + 2 * i);
	} else {
		float *o = (float *)dst + 2 * idx;
		for (uint32_t i = 0; i < 2 * cnt; i++)
			o[i] = (float)(int16_t)ws_get_be16(src + 2 * i) * (1.0f / 32768.0f);
	}
}

static int16_t sat16(float x)
{
	if (!(x == x))
		return 0;
	float v = x * 32768.0f;
	if (v >= 32767.0f)
		return 32767;
	if (v <= -32768.0f)
		return -32768;
	return (int16_t)lrintf(v);
}

/* cnt samples of caller memory from index idx as wire words at out. */
static void wire_samples(uint8_t *out, ws_iq_format fmt, const void *src, uint64_t idx,
			 uint32_t cnt)
{
	if (fmt == WS_IQ_FMT_CI16) {
		const int16_t *s = (const int16_t *)src + 2 * idx;
		for (uint32_t i = 0; i < 2 * cnt; i++)
			ws_put_be16(out + 2 * i, (uint16_t)s[i]);
	} else {
		const float *s = (const float *)src + 2 * idx;
		for (uint32_t i = 0; i < 2 * cnt; i++)
			ws_put_be16(out + 2 * i, (uint16_t)sat16(s[i]));
	}
}

void ws_iqconv_to_wire(uint8_t *out, ws_iq_format fmt, const void *src, uint64_t idx,
			uint32_t cnt)
{
	if (fmt == WS_IQ_FMT_BE32)
		memcpy(out, (const uint8_t *)src + idx * 4, (size_t)cnt * 4);
	else
		wire_samples(out, fmt, src, idx, cnt);
}
