/* SPDX-License-Identifier: BSD-2-Clause */
/* iqconv_bench: the IQ sample conversions alone (src/iq/wire/iqconv.c), per format and
 * direction, packet by packet as Read IQ and Write IQ call them (2232 samples per call),
 * best of 20 passes over N samples, in Gb/s of wire words. It exists to tell the cost of a
 * conversion from the cost of the transport around it: `iq bench --format` measures both.
 * The MEX's array layouts (iqmem.c: complex double, complex single, int16 and raw words,
 * interleaved as Octave and MATLAB R2018a hold them) follow, wire to memory, the way Read IQ
 * converts into them.
 * Usage: iqconv_bench [samples]   (default 65536: the data stays in cache; 1048576 and
 *        more measure memory, as a MEX read of that size does) */
#include "iq/wire/iqconv.h"
#include "iq/wire/iqmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SPP 2232 /* samples per jumbo packet */

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 65536;
	static const char *const name[3] = {"ci16", "cf32", "raw"};
	if (n < 1 || n > (1u << 26)) {
		fprintf(stderr, "iqconv_bench: samples must be 1..%u\n", 1u << 26);
		return 2;
	}
	uint8_t *wire = malloc((size_t)n * 4), *stage = malloc((size_t)SPP * 4 * 64);
	void *mem = malloc((size_t)n * 16);
	if (!wire || !stage || !mem)
		return 1;
	for (size_t i = 0; i < (size_t)n * 4; i++)
		wire[i] = (uint8_t)(i * 7 + (i >> 9));
	memset(mem, 0, (size_t)n * 16);
	printf("%u samples, %d per call\n%-5s %16s %16s\n", n, SPP, "fmt", "wire->mem Gb/s",
	       "mem->wire Gb/s");
	for (int f = 0; f < 3; f++) {
		double best[2] = {1e9, 1e9};
		for (int r = 0; r < 20; r++) {
			double t0 = now_s();
			for (uint32_t p = 0; p < n; p += SPP)
				ws_iqconv_from_wire(mem, (ws_iq_format)f, p, wire + (size_t)p * 4,
						    n - p < SPP ? n - p : SPP);
			double t1 = now_s();
			for (uint32_t p = 0, k = 0; p < n; p += SPP, k = (k + 1) % 64)
				ws_iqconv_to_wire(stage + (size_t)k * SPP * 4, (ws_iq_format)f, mem,
						  p, n - p < SPP ? n - p : SPP);
			double t2 = now_s();
			best[0] = t1 - t0 < best[0] ? t1 - t0 : best[0];
			best[1] = t2 - t1 < best[1] ? t2 - t1 : best[1];
		}
		printf("%-5s %16.1f %16.1f\n", name[f], (double)n * 32 / best[0] / 1e9,
		       (double)n * 32 / best[1] / 1e9);
	}
	/* The MEX layouts, wire to memory (Read IQ's direction), interleaved complex. */
	static const struct {
		const char *name;
		ws_iqmem_elem elem;
		size_t es; /* bytes of one element (I or Q) */
	} lay[4] = {{"f64", WS_IQMEM_F64, 8},
		    {"f32", WS_IQMEM_F32, 4},
		    {"i16", WS_IQMEM_I16, 2},
		    {"u32", WS_IQMEM_U32, 4}};
	printf("%-5s %16s   (MEX array layouts, iqmem)\n", "mem", "wire->mem Gb/s");
	for (int l = 0; l < 4; l++) {
		ws_iqmem m = {.elem = lay[l].elem, .re = mem, .stride = 2};
		if (lay[l].elem == WS_IQMEM_U32)
			m.stride = 1;
		else
			m.im = (uint8_t *)mem + lay[l].es;
		double best = 1e9;
		for (int r = 0; r < 20; r++) {
			double t0 = now_s();
			for (uint32_t p = 0; p < n; p += SPP)
				ws_iqmem_from_wire(&m, p, wire + (size_t)p * 4,
						   n - p < SPP ? n - p : SPP);
			double t1 = now_s();
			best = t1 - t0 < best ? t1 - t0 : best;
		}
		printf("%-5s %16.1f\n", lay[l].name, (double)n * 32 / best / 1e9);
	}
	free(wire);
	free(stage);
	free(mem);
	return 0;
}
