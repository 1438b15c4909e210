/* SPDX-License-Identifier: BSD-2-Clause */
/* wlmex_args: argument checks of the MEX transport, each failing as a MATLAB/Octave error.
 *
 * WARPLab's M code passes scalars of any numeric class, uint8 and uint32 rows, dotted-quad
 * IP text and strings. Every entry point of wl_mex_udp_transport.c takes its arguments
 * through these helpers, so a wrong class, shape or range always ends in one
 * mexErrMsgIdAndTxt naming the function, the argument (its position in the call, NAME
 * being 1) and what is accepted, and never reaches a socket or a buffer. */
#ifndef WLMEX_ARGS_H
#define WLMEX_ARGS_H

#include "mex.h"

#include "wlmex_sock.h"

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#define WLMEX_ID_ARG "wl_mex_udp_transport:badArgument"
#define WLMEX_ID_IO  "wl_mex_udp_transport:io"
#define WLMEX_ID_IQ  "WARPLab:MEX_UDP_TRANSPORT"

/* The upper-cased NAME of the call being served, for messages. */
extern const char *wlmex_fn;

/* Raises the error id with "wl_mex_udp_transport: NAME: " and the formatted text (Octave
 * adds the first part itself). */
#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 2, 3)))
#endif
void wlmex_fail(const char *id, const char *fmt, ...);

/* "1x3 char", "2x2 double", "1x1 complex single" for messages. */
void wlmex_describe(const mxArray *a, char *out, size_t cap);

/* A real numeric (or logical) non-empty argument's first element, truncated toward zero,
 * within [lo, hi]; else an error naming argument argno (what) and the range. */
int64_t wlmex_int(const mxArray *a, int argno, const char *what, int64_t lo, int64_t hi);

/* A real uint8 row (or empty) argument: its bytes and count. */
const uint8_t *wlmex_u8row(const mxArray *a, int argno, const char *what, size_t *n);

/* A real uint32 row argument with at least min elements: its elements and count. */
uint32_t *wlmex_u32row(const mxArray *a, int argno, const char *what, size_t min, size_t *n);

/* A 1-row char argument as a C string in out (cap bytes); longer text is an error. */
void wlmex_text(const mxArray *a, int argno, const char *what, char *out, size_t cap);

/* A dotted-quad IPv4 address argument (1-row char, no names); text keeps it for messages. */
void wlmex_ip(const mxArray *a, int argno, struct in_addr *ip, char *text, size_t cap);

/* The open socket slot given as argument 2 (a handle from INIT_SOCKET), or an error that
 * says whether it is out of range or not open. */
wlmex_slot *wlmex_slot_arg(const mxArray *a);

#endif
