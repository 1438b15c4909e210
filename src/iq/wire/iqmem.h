/* SPDX-License-Identifier: BSD-2-Clause */
/* iqmem: IQ samples in the memory layouts of a numeric environment (MATLAB/Octave MEX).
 *
 * The public formats (ws_iq_format) are the interleaved layouts a C or numpy caller holds.
 * WARPLab's MEX transport hands its samples in MATLAB arrays instead: double, single or
 * int16, complex either interleaved (R2018a API) or as separate real and imaginary planes,
 * real-only arrays whose Q is zero, and raw uint32 words; its float writes truncate toward
 * zero. Describing such memory once (ws_iqmem) lets the Read IQ and Write IQ engines
 * convert each packet as it passes, exactly as they do for the public formats, instead of
 * a second pass over the whole buffer. The descriptor travels as the engines' dst/src
 * pointer with the internal format WS_IQ_FMT_MEM; iqconv dispatches here. */
#ifndef WS_IQ_IQMEM_H
#define WS_IQ_IQMEM_H

#include <warpspeed/iq.h>

#include <stddef.h>
#include <stdint.h>

/* Internal format: dst/src points at a ws_iqmem. Not part of the installed interface. */
#define WS_IQ_FMT_MEM ((ws_iq_format)0x100)

typedef enum ws_iqmem_elem {
	WS_IQMEM_F64 = 0, /* I, Q = value / 32768 */
	WS_IQMEM_F32 = 1,
	WS_IQMEM_I16 = 2, /* the raw Fix16_15 values */
	WS_IQMEM_U32 = 3, /* the node's word as a host integer, I in bits 31..16; re only */
} ws_iqmem_elem;

typedef struct ws_iqmem {
	ws_iqmem_elem elem;
	void *re;      /* I of sample 0 (the word, for U32) */
	void *im;      /* Q of sample 0; NULL: real only (write sends Q = 0; read drops Q) */
	size_t stride; /* elements from one sample's I to the next one's: 2 interleaved, 1 */
} ws_iqmem;

/* cnt wire words at src into m at sample idx. */
void ws_iqmem_from_wire(const ws_iqmem *m, uint64_t idx, const uint8_t *src, uint32_t cnt);

/* cnt samples of m from sample idx as wire words at out. Floats: x * 32768 truncated
 * toward zero (WARPLab's MEX), x >= 1 gives 32767, x < -1 gives -32768, NaN gives 0. */
void ws_iqmem_to_wire(uint8_t *out, const ws_iqmem *m, uint64_t idx, uint32_t cnt);

/* The WARPLab MEX's float to Fix16_15 rule above, for one value. */
int16_t ws_iqmem_trunc16(double x);

#endif
