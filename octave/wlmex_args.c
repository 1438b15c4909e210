/* SPDX-License-Identifier: BSD-2-Clause */
/* wlmex_args: the MEX transport's argument checks; see wlmex_args.h.
 *
 * mexErrMsgIdAndTxt does not return (it unwinds to the interpreter), so a helper that
 * fails leaves nothing half done as long as callers take every argument before they
 * allocate or touch a socket, which wl_mex_udp_transport.c and wlmex_iq.c do. */
#include "wlmex_args.h"

#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *wlmex_fn = "";

void wlmex_fail(const char *id, const char *fmt, ...)
{
	static char msg[1024];
	/* Octave puts "wl_mex_udp_transport: " before a MEX's error; MATLAB does not. */
#ifdef HAVE_OCTAVE
	int k = snprintf(msg, sizeof msg, "%s: ", wlmex_fn);
#else
	int k = snprintf(msg, sizeof msg, "wl_mex_udp_transport: %s: ", wlmex_fn);
#endif
	va_list ap;
	va_start(ap, fmt);
	if (k > 0 && (size_t)k < sizeof msg)
		vsnprintf(msg + k, sizeof msg - (size_t)k, fmt, ap);
	va_end(ap);
	mexErrMsgIdAndTxt(id, "%s", msg);
#if defined(__GNUC__)
	__builtin_unreachable();
#endif
}

void wlmex_describe(const mxArray *a, char *out, size_t cap)
{
	if (!a) {
		snprintf(out, cap, "nothing");
		return;
	}
	const mwSize *d = mxGetDimensions(a);
	mwSize nd = mxGetNumberOfDimensions(a);
	size_t k = 0;
	out[0] = 0;
	for (mwSize i = 0; i < nd && k < cap; i++) {
		int w = snprintf(out + k, cap - k, i ? "x%zu" : "%zu", (size_t)d[i]);
		if (w < 0)
			return;
		k += (size_t)w;
	}
	if (k < cap)
		snprintf(out + k, cap - k, " %s%s", mxIsComplex(a) ? "complex " : "",
			 mxGetClassName(a));
}

static void bad(const mxArray *a, int argno, const char *what, const char *want)
{
	char got[96];
	wlmex_describe(a, got, sizeof got);
	wlmex_fail(WLMEX_ID_ARG, "argument %d (%s) must be %s; got %s", argno, what, want, got);
}

int64_t wlmex_int(const mxArray *a, int argno, const char *what, int64_t lo, int64_t hi)
{
	char want[128];
	snprintf(want, sizeof want, "a real numeric scalar %lld..%lld", (long long)lo,
		 (long long)hi);
	if (!(mxIsNumeric(a) || mxIsLogical(a)) || mxIsComplex(a) || mxIsEmpty(a) || mxIsSparse(a))
		bad(a, argno, what, want);
	double v = mxGetScalar(a);
	if (!(v >= (double)lo && v < (double)hi + 1.0)) {
		wlmex_fail(WLMEX_ID_ARG, "argument %d (%s) must be %s; got %.17g", argno, what,
			   want, v);
	}
	return (int64_t)v; /* truncated toward zero, as WARPLab's MEX casts */
}

const uint8_t *wlmex_u8row(const mxArray *a, int argno, const char *what, size_t *n)
{
	if (!mxIsUint8(a) || mxIsComplex(a) || (mxGetM(a) > 1 && !mxIsEmpty(a)) ||
	    mxGetNumberOfDimensions(a) > 2)
		bad(a, argno, what, "a uint8 row vector");
	*n = mxGetNumberOfElements(a);
	return (const uint8_t *)mxGetData(a);
}

uint32_t *wlmex_u32row(const mxArray *a, int argno, const char *what, size_t min, size_t *n)
{
	char want[96];
	snprintf(want, sizeof want, "a uint32 row vector of at least %zu element%s", min,
		 min == 1 ? "" : "s");
	if (!mxIsUint32(a) || mxIsComplex(a) || mxGetM(a) != 1 || mxGetNumberOfDimensions(a) > 2 ||
	    mxGetNumberOfElements(a) < min)
		bad(a, argno, what, want);
	*n = mxGetNumberOfElements(a);
	return (uint32_t *)mxGetData(a);
}

void wlmex_text(const mxArray *a, int argno, const char *what, char *out, size_t cap)
{
	if (!mxIsChar(a) || (mxGetM(a) != 1 && !mxIsEmpty(a)) || mxGetNumberOfDimensions(a) > 2)
		bad(a, argno, what, "a 1-row char array (text)");
	if (mxGetNumberOfElements(a) >= cap || mxGetString(a, out, cap) != 0) {
		char want[64];
		snprintf(want, sizeof want, "text of at most %zu characters", cap - 1);
		bad(a, argno, what, want);
	}
}

void wlmex_ip(const mxArray *a, int argno, struct in_addr *ip, char *text, size_t cap)
{
	wlmex_text(a, argno, "IP address", text, cap);
	if (inet_pton(AF_INET, text, ip) != 1)
		wlmex_fail(WLMEX_ID_ARG,
			   "argument %d (IP address) must be a dotted-quad IPv4 "
			   "address such as '10.0.0.1' (no host names); got '%s'",
			   argno, text);
}

wlmex_slot *wlmex_slot_arg(const mxArray *a)
{
	int64_t h = wlmex_int(a, 2, "socket handle", 0, WLMEX_SLOTS - 1);
	wlmex_slot *s = wlmex_sock_get(h);
	if (!s)
		wlmex_fail(WLMEX_ID_ARG,
			   "argument 2 (socket handle) %lld is not an open socket "
			   "(INIT_SOCKET gives one; CLOSE ends it)",
			   (long long)h);
	return s;
}
