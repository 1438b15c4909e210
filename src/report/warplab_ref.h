/* SPDX-License-Identifier: BSD-2-Clause */
/* warplab_ref: WARPLab's published wl_benchmark figures, the series `--reference warplab`
 * draws beside warpspeed's.
 *
 * Source: the WARPLab 7.5.0 benchmark table published by the WARP project (Mango
 * Communications / Rice University, warpproject.org, "WARPLab Benchmarks"): WARP v3,
 * Gigabit Ethernet with 9014-byte jumbo frames (8962-byte sample packets), a Dell
 * Optiplex i7-2600 host on Windows 7, wl_benchmark's "Avg Transfer Speed (Mbps)" (IQ
 * payload bits over the mean call time) for the MEX UDP transport and the Java
 * transport, all 11 sizes 2^15 .. 2^25 samples; what the columns mean is in
 * docs/wire/warplab.md ("wl_benchmark, and WARPLab's published figures"). The
 * figures are data, not measurements of ours: they are drawn as published. */
#ifndef WS_REPORT_WARPLAB_REF_H
#define WS_REPORT_WARPLAB_REF_H

#include <stddef.h>
#include <stdint.h>

typedef struct ws_warplab_ref_row {
	uint32_t samples;
	double mex_write, mex_read;   /* Mb/s, WARPLab 7.5.0 MEX UDP transport */
	double java_write, java_read; /* Mb/s, WARPLab 7.5.0 Java transport */
} ws_warplab_ref_row;

/* The published rows, in increasing size; *n gets their count (11). */
const ws_warplab_ref_row *ws_warplab_ref(size_t *n);

/* The benchmark's conditions in one line, for a chart's description. */
extern const char ws_warplab_ref_source[];

/* The IQ payload ceiling of WARPLab's link: Gigabit Ethernet, 8928 bytes of IQ per
 * 9028-byte wire slot (frame, preamble, gap): 988.9 Mb/s. */
#define WS_WARPLAB_REF_LINK_MBPS 1000.0
#define WS_WARPLAB_REF_PKT_SIZE  8962u

#endif
