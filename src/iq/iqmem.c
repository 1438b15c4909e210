/* iqmem: conversions between wire words and MATLAB/Octave array memory; see iqmem.h.
 *
 * One loop per element type and direction, each with the stride as a parameter, so the
 * interleaved (stride 2) and planar (stride 1) layouts share the code. The read loops run
 * once per received packet and the write loops once per sent packet, inside the engines. */
#include "iq/iqmem.h"

#include "util/bytes.h"

int16_t ws_iqmem_trunc16(double x)
{
	if (x != x)
		return 0;
	if (x >= 1.0)
		return 32767;
	if (x < -1.0)
		return -32768;
	return (int16_t)(int32_t)(x * 32768.0); /* C truncates toward zero */
}

void ws_iqmem_from_wire(const ws_iqmem *m, uint64_t idx, const uint8_t *src, uint32_t cnt)
{
	size_t s = m->stride, k = (size_t)idx * s;
	if (m->elem == WS_IQMEM_U32) {
		uint32_t *o = (uint32_t *)m->re + k;
		for (uint32_t i = 0; i < cnt; i++)
			o[i * s] = ws_get_be32(src + 4 * (size_t)i);
		return;
	}
	for (uint32_t i = 0; i < cnt; i++) {
		int16_t I = (int16_t)ws_get_be16(src + 4 * (size_t)i);
		int16_t Q = (int16_t)ws_get_be16(src + 4 * (size_t)i + 2);
		size_t j = k + (size_t)i * s;
		if (m->elem == WS_IQMEM_F64) {
			((double *)m->re)[j] = I / 32768.0;
			if (m->im)
				((double *)m->im)[j] = Q / 32768.0;
		} else if (m->elem == WS_IQMEM_F32) {
			((float *)m->re)[j] = (float)I / 32768.0f;
			if (m->im)
				((float *)m->im)[j] = (float)Q / 32768.0f;
		} else {
			((int16_t *)m->re)[j] = I;
			if (m->im)
				((int16_t *)m->im)[j] = Q;
		}
	}
}

void ws_iqmem_to_wire(uint8_t *out, const ws_iqmem *m, uint64_t idx, uint32_t cnt)
{
	size_t s = m->stride, k = (size_t)idx * s;
	for (uint32_t i = 0; i < cnt; i++) {
		size_t j = k + (size_t)i * s;
		uint16_t I = 0, Q = 0;
		if (m->elem == WS_IQMEM_U32) {
			ws_put_be32(out + 4 * (size_t)i, ((const uint32_t *)m->re)[j]);
			continue;
		} else if (m->elem == WS_IQMEM_F64) {
			I = (uint16_t)ws_iqmem_trunc16(((const double *)m->re)[j]);
			if (m->im)
				Q = (uint16_t)ws_iqmem_trunc16(((const double *)m->im)[j]);
		} else if (m->elem == WS_IQMEM_F32) {
			I = (uint16_t)ws_iqmem_trunc16(((const float *)m->re)[j]);
			if (m->im)
				Q = (uint16_t)ws_iqmem_trunc16(((const float *)m->im)[j]);
		} else {
			I = (uint16_t)((const int16_t *)m->re)[j];
			if (m->im)
				Q = (uint16_t)((const int16_t *)m->im)[j];
		}
		ws_put_be16(out + 4 * (size_t)i, I);
		ws_put_be16(out + 4 * (size_t)i + 2, Q);
	}
}
