/* SPDX-License-Identifier: BSD-2-Clause */
/* features: which kernel fast paths this build can use, as one table.
 *
 * The fast paths (batched datagram calls, UDP segmentation offload, zero-copy sends,
 * splice, TCP_INFO) depend on the C library and kernel headers the binary was built
 * against, which differ between a desktop and a cross toolchain for a small board. The
 * answer is decided once, at compile time, by the headers' own macros; code that uses a
 * fast path asks this table (and still checks the call's result at run time, since an
 * older kernel can refuse what the headers promise), and `warpspeed -V` prints it. */
#ifndef WS_UTIL_FEATURES_H
#define WS_UTIL_FEATURES_H

#include <stdbool.h>
#include <stddef.h>

enum ws_feature {
	WS_FEAT_SENDMMSG = 0, /* sendmmsg(2): many datagrams per call */
	WS_FEAT_RECVMMSG,     /* recvmmsg(2) */
	WS_FEAT_UDP_SEGMENT,  /* UDP GSO: one send, many datagrams */
	WS_FEAT_UDP_GRO,      /* UDP GRO: one receive, many datagrams */
	WS_FEAT_MSG_ZEROCOPY, /* MSG_ZEROCOPY sends with completion notifications */
	WS_FEAT_SPLICE,       /* splice(2) */
	WS_FEAT_TCP_INFO,     /* getsockopt TCP_INFO */
	WS_FEAT_COUNT
};

/* True when this build was compiled with the feature; false for an unknown value. */
bool ws_features_built(enum ws_feature f);

/* The feature's short name as -V prints it ("sendmmsg", "UDP_SEGMENT"), or NULL for an
 * unknown value. */
const char *ws_features_name(enum ws_feature f);

/* Writes the names of the built features, space-separated, into buf (always
 * NUL-terminated when n > 0; "none" when there are none). Returns the length the full text
 * needs, as snprintf does, so a return >= n means it was truncated. */
size_t ws_features_list(char *buf, size_t n);

/* Run-time check that UDP GSO cuts datagrams where asked: sends 16 bytes as two 8-byte
 * segments (UDP_SEGMENT 8) from one loopback socket to another and expects two 8-byte
 * datagrams. Returns 1 when they arrive so, 0 when GSO is not built, refused by the kernel,
 * or cuts elsewhere (qemu-user hands a big-endian guest's UDP_SEGMENT value to the host
 * kernel unswapped), and -1 when it cannot tell (no loopback, no sockets). Two sockets and
 * a loopback round trip (docs/benchmarks.md): call it once when a socket is set up, not
 * per send. */
int ws_features_probe_udp_gso(void);

/* True when a kernel release string ("6.1.0-13-amd64", "4.19.94") is at least major.minor;
 * false for one that does not start with two numbers. */
bool ws_features_release_at_least(const char *release, int major, int minor);

/* True when the running kernel honours a TCP receive wake threshold (SO_RCVLOWAT) safely
 * for poll and autotuning: Linux 5.0 and later (the 4.18-5.0 series that made the
 * threshold grow the receive buffer and fixed its hangs). Older kernels, common on small
 * boards, can leave a threshold the buffer cannot hold never readable. */
bool ws_features_rcvlowat_safe(void);

#endif
