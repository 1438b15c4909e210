/* SPDX-License-Identifier: BSD-2-Clause */
/* wlmex_iq: the MEX transport's IQ calls on libwarpspeed's engines; see wlmex_iq.h.
 *
 * What differs from WARPLab's MEX, on purpose: reads re-request only missing packets and
 * keep requests pipelined (WARPLab: stop and wait, go-back-N after 10^7 empty polls);
 * timeouts are times; a lost or reordered write packet costs one acknowledged resend, not
 * a checksum abort; only a reply from the node to the packet's own seq and IQ ID counts as
 * an ack; every packet is checked against the request it answers before it is placed, so
 * no argument or datagram can write outside the output array. Writes are verified even
 * with check 0. Each engine error becomes one MATLAB error with the engine's sentence. */
#include "wlmex_iq.h"

#include "wlmex_args.h"
#include "wlmex_rdpipe.h"
#include "wlmex_sock.h"

#include "iq/host/host.h"
#include "iq/wire/iqmem.h"
#include "iq/host/iqread.h"
#include "iq/host/iqwrite.h"
#include "util/bytes.h"
#include "util/clock.h"
#include "util/err.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#define WLMEX_MAX_SAMPLES     (1u << 27) /* a 2RF node's RX buffer */
#define WLMEX_READ_RSSI       0x3000000Au
#define WLMEX_FLOWING_WAIT_MS 20 /* the array is made once the read flows, or after this */

static long long pkt_wait_us = -1; /* WRITE_IQ_SET_PKT_WAIT_TIME, -1: the hardware rule */
static long long max_request;      /* READ_IQ_SET_MAX_REQUEST_SIZE, 0: our window */
static uint8_t write_id;           /* WARPLab's write IQ ID counter, +1 per buffer */
static int warnings_muted;         /* SUPPRESS_IQ_WARNINGS was called */

static const char *const type_names = "0 (double), 1 (single), 2 (int16) or 3 (raw uint32)";

/* The template's IDs and seq: pad, then transport dest, src, reserved, type, length, seq. */
typedef struct tmpl_ids {
	uint16_t dest, src, seq;
} tmpl_ids;

static tmpl_ids tmpl_arg(const mxArray *a, const mxArray *len_a, const char *len_what)
{
	size_t n;
	const uint8_t *t = wlmex_u8row(a, 3, "command template", &n);
	if (n < 22)
		wlmex_fail(WLMEX_ID_ARG,
			   "argument 3 (command template) has %zu bytes; it must "
			   "hold at least the pad, transport and command headers (22 bytes)",
			   n);
	wlmex_int(len_a, 4, len_what, 0, 0x7fffffff);
	return (tmpl_ids){ws_get_be16(t + 2), ws_get_be16(t + 4), ws_get_be16(t + 10)};
}

static ws_iq_node *iq_of(wlmex_slot *s, const mxArray *ip_a, const mxArray *port_a, tmpl_ids ids,
			 uint32_t spp)
{
	struct in_addr ip;
	char text[64];
	wlmex_ip(ip_a, 5, &ip, text, sizeof text);
	int port = (int)wlmex_int(port_a, 6, "port", 1, 65535);
	ws_iq_error e;
	ws_iq_node *n = wlmex_sock_iq(s, ip, port, ids.dest, ids.src, spp, &e);
	if (!n)
		wlmex_fail(WLMEX_ID_IO, "%s", e.msg);
	return n;
}

static void check_npkts(int64_t npkts, uint32_t count, uint32_t spp, int argno)
{
	uint64_t want = ((uint64_t)count + spp - 1) / spp;
	if ((uint64_t)npkts != want)
		wlmex_fail(WLMEX_ID_ARG,
			   "argument %d (number of packets) is %lld, but %u samples "
			   "at %u samples per packet take %llu packets",
			   argno, (long long)npkts, count, spp, (unsigned long long)want);
}

/* The memory of column b of an N x nb array x of element size es (planes: Octave's
 * int16, whose complex pages are I then Q). */
static ws_iqmem mem_of(const mxArray *x, ws_iqmem_elem el, size_t es, size_t N, size_t nb, size_t b,
		       int planes)
{
	uint8_t *base = mxGetData(x);
	ws_iqmem m = {.elem = el, .stride = 1};
	if (planes) {
		m.re = base + b * N * es;
		m.im = base + (nb + b) * N * es;
	} else if (!mxIsComplex(x)) {
		m.re = base + b * N * es;
	} else {
#if MX_HAS_INTERLEAVED_COMPLEX
		m.re = base + 2 * b * N * es;
		m.im = (uint8_t *)m.re + es;
		m.stride = 2;
#else
		m.re = base + b * N * es;
		m.im = (uint8_t *)mxGetImagData(x) + b * N * es;
#endif
	}
	return m;
}

static const mxClassID type_class[4] = {mxDOUBLE_CLASS, mxSINGLE_CLASS, mxINT16_CLASS,
					mxUINT32_CLASS};
static const size_t type_size[4] = {8, 4, 2, 4};
static const char *const class_names[4] = {"double", "single", "int16", "uint32"};
static const ws_iqmem_elem type_elem[4] = {WS_IQMEM_F64, WS_IQMEM_F32, WS_IQMEM_I16, WS_IQMEM_U32};

#ifdef HAVE_OCTAVE
#define WLMEX_INT16_PLANES 1 /* Octave has no complex integers: I and Q as two pages */
#else
#define WLMEX_INT16_PLANES 0
#endif

/* The IQ-ID tracker: slot 2 * interface + rssi of the uint32 row, checked and updated in
 * place as WARPLab does (its M code keeps the array between calls). */
static void track(uint32_t *tracker, unsigned buf, int rssi, int iq_id, const char *sev,
		  const char *node, mxArray *x)
{
	unsigned i = 0;
	while ((1u << i) != buf)
		i++;
	uint32_t *slot = &tracker[2 * i + (unsigned)rssi];
	if (iq_id >= 0 && *slot == (uint32_t)iq_id && strcmp(sev, "ignore") != 0) {
		static char msg[512];
		snprintf(msg, sizeof msg,
			 "%s: %s of RF_%c returned IQ ID %d again: no new "
			 "capture since the last read",
			 node, rssi ? "Read RSSI" : "Read IQ", 'A' + (int)i, iq_id);
		if (strcmp(sev, "warning") == 0) {
			mexWarnMsgIdAndTxt(WLMEX_ID_IQ, "%s", msg);
		} else {
			mxDestroyArray(x);
			wlmex_fail(WLMEX_ID_IQ, "%s", msg);
		}
	}
	if (iq_id >= 0)
		*slot = (uint32_t)iq_id;
}

/* READ_RSSI words into rows 2k (high half) and 2k + 1 (low half), 10 bits each. */
static void rssi_expand(mxArray *x, int type, const uint32_t *w, size_t N, size_t b)
{
	uint8_t *o = (uint8_t *)mxGetData(x) + b * 2 * N * type_size[type];
	for (size_t k = 0; k < 2 * N; k++) {
		uint32_t v = (k & 1) ? w[k / 2] & 0x3FF : w[k / 2] >> 16 & 0x3FF;
		if (type == 0)
			((double *)o)[k] = v;
		else if (type == 1)
			((float *)o)[k] = (float)v;
		else
			((int16_t *)o)[k] = (int16_t)v;
	}
}

/* The output array of a read: N x nb (RSSI: 2N rows), of the type's class, complex for
 * double and single, with Octave's int16 as two pages (I, then Q). Under Octave it is made
 * by Octave through mexCallMATLABWithTrap: Octave returns such an array as it is, where it
 * copies one the MEX made (mxCreate*: 512 MiB made and then copied for a 2^25-sample
 * complex double read). Every element is overwritten by the read, so the cheapest fill
 * serves: zeros for real classes, and for complex ones repmat of 1i, one pass over the
 * memory where complex(zeros(...)) takes three (2^25 samples: 46 against 73 ms; zeros with
 * 'like', 1i gives a real array in Octave 7.3, and complex zeros made by a MEX turn real
 * on the way in). NULL, with why filled, when Octave could not make it; nothing here
 * raises, so a read thread may be running meanwhile. MATLAB returns MEX arrays as they
 * are: mxCreateUninitNumericMatrix, made before the read starts. */
#ifdef HAVE_OCTAVE
static mxArray *read_output(int type, int rssi, size_t N, size_t nb, char *why, size_t cap)
{
	int cplx = !rssi && type < 2, planes = !rssi && type == 2;
	size_t rows = rssi && type != 3 ? 2 * N : N;
	mxArray *in[4], *z = NULL;
	int nin = 0;
	if (cplx) { /* 1i of the class, on memory of our own: Octave 7.3's mxCreateNumericMatrix
		     * gives an interleaved complex array of n elements room for n / 2 (a heap
		     * overrun found by tests/octave) */
		in[nin] = mxCreateNumericMatrix(0, 0, type_class[type], mxCOMPLEX);
		if (type == 0) {
			mxComplexDouble *d = mxMalloc(sizeof *d);
			*d = (mxComplexDouble){0, 1};
			mxSetComplexDoubles(in[nin], d);
		} else {
			mxComplexSingle *d = mxMalloc(sizeof *d);
			*d = (mxComplexSingle){0, 1};
			mxSetComplexSingles(in[nin], d);
		}
		mxSetM(in[nin], 1);
		mxSetN(in[nin++], 1);
	}
	in[nin++] = mxCreateDoubleScalar((double)rows);
	in[nin++] = mxCreateDoubleScalar((double)nb);
	if (planes)
		in[nin++] = mxCreateDoubleScalar(2);
	if (!cplx)
		in[nin++] = mxCreateString(class_names[type]);
	mxArray *ex = mexCallMATLABWithTrap(1, &z, nin, in, cplx ? "repmat" : "zeros");
	for (int i = 0; i < nin; i++)
		mxDestroyArray(in[i]);
	if (!ex && (!z || mxGetClassID(z) != type_class[type] || (mxIsComplex(z) != 0) != cplx)) {
		if (z)
			mxDestroyArray(z);
		snprintf(why, cap,
			 "Octave made the output array of another class or complexity "
			 "than %s%s",
			 cplx ? "complex " : "", class_names[type]);
		return NULL;
	}
	if (ex) {
		mxDestroyArray(ex);
		snprintf(why, cap,
			 "Octave could not make the %zu x %zu%s %s%s output array (%.0f "
			 "MiB; out of memory?)",
			 rows, nb, planes ? " x 2" : "", cplx ? "complex " : "", class_names[type],
			 (double)rows * (double)nb * (cplx || planes ? 2 : 1) *
				 (double)type_size[type] / 1048576.0);
		return NULL;
	}
	return z;
}
#else
static mxArray *read_output(int type, int rssi, size_t N, size_t nb, char *why, size_t cap)
{
	(void)why;
	(void)cap;
	if (rssi && type != 3)
		return mxCreateUninitNumericMatrix(2 * N, nb, type_class[type], mxREAL);
	if (type == 3 || rssi)
		return mxCreateUninitNumericMatrix(N, nb, mxUINT32_CLASS, mxREAL);
	return mxCreateUninitNumericMatrix(N, nb, type_class[type],
					   type == 2 && WLMEX_INT16_PLANES ? mxREAL : mxCOMPLEX);
}
#endif

/* One warning for what a read or write of one buffer recovered from (before: the handle's
 * counters when it began), unless SUPPRESS_IQ_WARNINGS muted them. */
static void warn_recovered(const ws_iq_stats *before, const ws_iq_stats *after, const char *node,
			   const char *what, unsigned buf)
{
	if (warnings_muted)
		return;
	ws_iq_stats a = *after;
	unsigned long long rereq = a.read_rerequests - before->read_rerequests,
			   resend = a.write_resends - before->write_resends,
			   mismatch = a.checksum_mismatches - before->checksum_mismatches,
			   waits = a.timeouts - before->timeouts;
	if (!rereq && !resend && !mismatch && !waits)
		return;
	mexWarnMsgIdAndTxt(WLMEX_ID_IQ,
			   "%s: %s buffer 0x%x completed after recovery: %llu "
			   "re-requests, %llu acknowledged resends, %llu checksum mismatches, %llu "
			   "waits that timed out (wl_mex_udp_transport('suppress_iq_warnings') "
			   "mutes this)",
			   node, what, buf, rereq, resend, mismatch, waits);
}

/* READ_RSSI: each buffer's words read into a scratch row, then expanded into x. */
static void read_rssi(ws_iq_node *n, mxArray *x, int type, const uint32_t *bufs, size_t nb,
		      uint32_t start, uint32_t N, wlmex_rdbuf *info)
{
	if (!x)
		wlmex_fail(WLMEX_ID_IO,
			   "wl_mex_udp_transport('READ_RSSI'): out of memory for the "
			   "%u x %zu output",
			   N, nb);
	uint32_t *words = type != 3 ? mxMalloc((size_t)N * 4) : NULL;
	for (size_t b = 0; b < nb; b++) {
		ws_iqmem m;
		if (words)
			m = (ws_iqmem){.elem = WS_IQMEM_U32, .re = words, .stride = 1};
		else
			m = mem_of(x, WS_IQMEM_U32, 4, N, nb, b, 0);
		void *dst[1] = {&m};
		ws_err e = {0};
		n->last_iq_id = -1;
		ws_iq_get_stats(n, &info[b].before);
		if (ws_iqread_run(n, bufs[b], start, N, WS_IQ_FMT_MEM, dst, &e) < 0) {
			mxFree(words);
			mxDestroyArray(x);
			wlmex_fail(WLMEX_ID_IO, "%s", e.msg);
		}
		ws_iq_get_stats(n, &info[b].after);
		info[b].iq_id = n->last_iq_id;
		if (words)
			rssi_expand(x, type, words, N, b);
	}
	mxFree(words);
}

/* READ_IQ: the read starts on its own thread (wlmex_rdpipe) while Octave makes the output
 * array, then goes on straight into it. Until the pipe is finished or cancelled nothing
 * here may raise: the read thread is still running. */
static void read_iq(ws_iq_node *n, mxArray **out, int type, const uint32_t *bufs, size_t nb,
		    uint32_t start, uint32_t N, ws_iqmem *m, wlmex_rdbuf *info)
{
	char why[256];
	mxArray *x = NULL;
#ifndef HAVE_OCTAVE
	x = read_output(type, 0, N, nb, why, sizeof why); /* MATLAB: made at once, no fill */
#endif
	wlmex_rdpipe *pipe;
	ws_err e = {0};
	if (wlmex_rdpipe_start(&pipe, n, bufs, nb, start, N, &e) < 0) {
		if (x)
			mxDestroyArray(x);
		wlmex_fail(WLMEX_ID_IO, "%s", e.msg);
	}
	wlmex_rdpipe_wait_flowing(pipe, WLMEX_FLOWING_WAIT_MS);
	const char *delay = getenv("WARPSPEED_MEX_TEST_ARRAY_DELAY_MS");
	if (delay) /* tests: the array comes late, the read must not care */
		ws_clock_sleep_ns((int64_t)atoi(delay) * WS_NS_PER_MS);
	if (!x)
		x = read_output(type, 0, N, nb, why, sizeof why);
	if (!x) {
		wlmex_rdpipe_cancel(pipe);
		wlmex_fail(WLMEX_ID_IO, "wl_mex_udp_transport('READ_IQ'): %s", why);
	}
	for (size_t b = 0; b < nb; b++)
		m[b] = mem_of(x, type_elem[type], type_size[type], N, nb, b,
			      type == 2 && WLMEX_INT16_PLANES);
	if (wlmex_rdpipe_finish(pipe, m, info, &e) < 0) {
		mxDestroyArray(x);
		wlmex_fail(WLMEX_ID_IO, "%s", e.msg);
	}
	if (delay)
		mexPrintf("# wl_mex_udp_transport test: %u of %u packets staged\n", info[0].staged,
			  info[0].packets);
	*out = x;
}

void wlmex_read(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[], int rssi)
{
	(void)nlhs;
	(void)nrhs;
	wlmex_slot *s = wlmex_slot_arg(prhs[1]);
	tmpl_ids ids = tmpl_arg(prhs[2], prhs[3], "bytes to send");
	uint32_t N = (uint32_t)wlmex_int(prhs[6], 7, "number of samples", 0, WLMEX_MAX_SAMPLES);
	size_t nb;
	const uint32_t *bufs = wlmex_u32row(prhs[7], 8, "buffers", 1, &nb);
	for (size_t i = 0; i < nb; i++)
		if (bufs[i] != 1 && bufs[i] != 2 && bufs[i] != 4 && bufs[i] != 8)
			wlmex_fail(
				WLMEX_ID_ARG,
				"argument 8 (buffers) element %zu is %u; each "
				"must be one interface: 1 (RF_A), 2 (RF_B), 4 (RF_C) or 8 (RF_D)",
				i + 1, bufs[i]);
	uint32_t start =
		(uint32_t)wlmex_int(prhs[8], 9, "start sample", 0, (int64_t)UINT32_MAX - N);
	int64_t bpp = wlmex_int(prhs[9], 10, "bytes per packet", 4, 4 * (int64_t)WS_IQ_RAW_MAX_SPP);
	if (bpp % 4)
		wlmex_fail(WLMEX_ID_ARG,
			   "argument 10 (bytes per packet) %lld must be a multiple "
			   "of 4 (4 bytes per sample)",
			   (long long)bpp);
	uint32_t spp = (uint32_t)bpp / 4;
	check_npkts(wlmex_int(prhs[10], 11, "number of packets", 0, INT32_MAX), N, spp, 11);
	int type = (int)wlmex_int(prhs[11], 12, type_names, 0, 3);
	size_t nt;
	uint32_t *tracker = wlmex_u32row(prhs[12], 13, "IQ ID tracker", 8, &nt);
	char sev[32], node[256];
	wlmex_text(prhs[13], 14, "severity", sev, sizeof sev);
	wlmex_text(prhs[14], 15, "node description", node, sizeof node);
	if (N == 0) {
		plhs[0] = mxCreateDoubleScalar(0);
		plhs[1] = mxCreateDoubleScalar(0);
		plhs[2] = mxCreateDoubleMatrix(0, 0, mxREAL);
		return;
	}
	ws_iq_node *n = iq_of(s, prhs[4], prhs[5], ids, spp);
	n->read_cmd = rssi ? WLMEX_READ_RSSI : 0;
	n->info.window = s->iq_window0;
	if (max_request > 0)
		n->info.window = max_request < n->info.packet_size ? n->info.packet_size
								   : (uint32_t)max_request;
	n->seq = ids.seq;
	wlmex_rdbuf *info = mxCalloc(nb, sizeof *info);
	ws_iqmem *m = mxCalloc(nb, sizeof *m);
	char why[256];
	mxArray *x = rssi ? read_output(type, rssi, N, nb, why, sizeof why) : NULL;
	if (rssi)
		read_rssi(n, x, type, bufs, nb, start, N, info);
	else
		read_iq(n, &x, type, bufs, nb, start, N, m, info);
	/* WARPLab checks each buffer's IQ ID after reading it and stops at an error; the
	 * buffers are read first here (while Octave makes the array), then checked in turn. */
	for (size_t b = 0; b < nb; b++) {
		warn_recovered(&info[b].before, &info[b].after, node,
			       rssi ? "Read RSSI of" : "Read IQ of", bufs[b]);
		track(tracker, bufs[b], rssi, info[b].iq_id, sev, node, x);
	}
	mxFree(info);
	mxFree(m);
	plhs[0] = mxCreateDoubleScalar(N);
	plhs[1] = mxCreateDoubleScalar((uint16_t)(n->seq - ids.seq));
	plhs[2] = x;
}

/* WARPLab's wait after each Write IQ packet, in us (see the reference). */
static long long write_wait_us(int64_t hw, uint32_t maxs, uint32_t buf)
{
	if (pkt_wait_us >= 0)
		return pkt_wait_us;
	if (hw == 3)
		return maxs >= 2048 ? 0 : buf == 0xF ? 50 : 40;
	if (hw == 2)
		return 80 + 80 * __builtin_popcount(buf);
	mexWarnMsgIdAndTxt(WLMEX_ID_IQ,
			   "wl_mex_udp_transport('WRITE_IQ'): hardware version "
			   "%lld is not 2 or 3: packets are sent without a wait",
			   (long long)hw);
	return 0;
}

/* WARPLab's checksum of a whole buffer as one write: per packet its start & 0xFFFF, then
 * I XOR Q of its last sample. */
static double host_checksum(const ws_iqmem *m, uint32_t start, uint32_t N, uint32_t maxs)
{
	ws_wire_csum cs;
	ws_wire_csum_reset(&cs);
	for (uint64_t first = 0; first < N; first += maxs) {
		uint64_t last = first + maxs < N ? first + maxs - 1 : N - 1;
		uint8_t w[4];
		ws_iqmem_to_wire(w, m, last, 1);
		ws_wire_csum_packet(&cs, (uint32_t)(start + first), ws_get_be32(w));
	}
	return ws_wire_csum_value(&cs);
}

static void check_samples(const mxArray *a, int type, uint32_t N, size_t nb)
{
	const mwSize *d = mxGetDimensions(a);
	mwSize nd = mxGetNumberOfDimensions(a);
	int planes = type == 2 && WLMEX_INT16_PLANES && nd == 3;
	char got[96];
	wlmex_describe(a, got, sizeof got);
	if (mxGetClassID(a) != type_class[type] || mxIsSparse(a))
		wlmex_fail(WLMEX_ID_ARG,
			   "argument 8 (samples) must be of class %s for type %d; "
			   "got %s",
			   class_names[type], type, got);
	if (type == 3 && mxIsComplex(a))
		wlmex_fail(WLMEX_ID_ARG,
			   "argument 8 (samples) of type 3 (raw) must be real uint32 "
			   "words; got %s",
			   got);
	if ((size_t)d[0] != N || (size_t)d[1] != nb || (nd > 2 && !(planes && d[2] == 2)))
		wlmex_fail(WLMEX_ID_ARG,
			   "argument 8 (samples) must be %u x %zu (samples x "
			   "buffers)%s; got %s",
			   N, nb,
			   WLMEX_INT16_PLANES && type == 2
				   ? ", or for int16 I and Q as two pages, N x buffers x 2"
				   : "",
			   got);
}

void wlmex_write(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	(void)nlhs;
	(void)nrhs;
	wlmex_slot *s = wlmex_slot_arg(prhs[1]);
	tmpl_ids ids = tmpl_arg(prhs[2], prhs[3], "send buffer bytes");
	int64_t maxlen = wlmex_int(prhs[3], 4, "send buffer bytes", 0, 0x7fffffff);
	uint32_t N = (uint32_t)wlmex_int(prhs[6], 7, "number of samples", 0, WLMEX_MAX_SAMPLES);
	size_t nb;
	const uint32_t *bufs = wlmex_u32row(prhs[8], 9, "buffers", 1, &nb);
	for (size_t i = 0; i < nb; i++)
		if (bufs[i] < 1 || bufs[i] > 15)
			wlmex_fail(WLMEX_ID_ARG,
				   "argument 9 (buffers) element %zu is %u; each must "
				   "be an interface mask 1..15 (RF_A 1, RF_B 2, RF_C 4, RF_D 8)",
				   i + 1, bufs[i]);
	uint32_t start =
		(uint32_t)wlmex_int(prhs[9], 10, "start sample", 0, (int64_t)UINT32_MAX - N);
	int64_t npkts = wlmex_int(prhs[10], 11, "number of packets", 0, INT32_MAX);
	uint32_t maxs =
		(uint32_t)wlmex_int(prhs[11], 12, "samples per packet", 1, WS_IQ_RAW_MAX_SPP);
	check_npkts(npkts, N, maxs, 11);
	if ((uint64_t)maxlen < 32 + 4 * (uint64_t)maxs)
		wlmex_fail(WLMEX_ID_ARG,
			   "argument 4 (send buffer bytes) %lld is too small for "
			   "packets of %u samples: it must be at least %llu (32 header bytes + 4 "
			   "per sample)",
			   (long long)maxlen, maxs, (unsigned long long)(32 + 4 * (uint64_t)maxs));
	int64_t hw = wlmex_int(prhs[12], 13, "hardware version", INT32_MIN, INT32_MAX);
	wlmex_int(prhs[13], 14, "check (1 fast with checksum, 0 none)", 0, 1);
	int type = (int)wlmex_int(prhs[14], 15, type_names, 0, 3);
	check_samples(prhs[7], type, N, nb);
	plhs[1] = mxCreateDoubleMatrix(1, nb, mxREAL);
	if (N == 0) {
		plhs[0] = mxCreateDoubleScalar(0);
		return;
	}
	ws_iq_node *n = iq_of(s, prhs[4], prhs[5], ids, maxs);
	n->seq = ids.seq;
	char ip[64], where[96]; /* the node, for a warning (WRITE_IQ has no node description) */
	if (mxGetString(prhs[4], ip, sizeof ip) != 0)
		snprintf(ip, sizeof ip, "?");
	snprintf(where, sizeof where, "node %s:%d", ip, n->cfg.port);
	double *chk = mxGetPr(plhs[1]);
	const mxArray *x = prhs[7];
	int planes = mxGetNumberOfDimensions(x) == 3;
	for (size_t b = 0; b < nb; b++) {
		ws_iqmem m = mem_of(x, type_elem[type], type_size[type], N, nb, b, planes);
		n->cfg.pace_ns = (uint32_t)(write_wait_us(hw, maxs, bufs[b]) * 1000);
		n->write_id = write_id;
		ws_err e = {0};
		ws_iq_stats before, after;
		ws_iq_get_stats(n, &before);
		if (ws_iqwrite_run(n, bufs[b], start, N, WS_IQ_FMT_MEM, &m, &e) < 0) {
			mxDestroyArray(plhs[1]);
			wlmex_fail(WLMEX_ID_IO, "%s", e.msg);
		}
		write_id = n->write_id;
		ws_iq_get_stats(n, &after);
		warn_recovered(&before, &after, where, "Write IQ to", bufs[b]);
		chk[b] = host_checksum(&m, start, N, maxs);
	}
	plhs[0] = mxCreateDoubleScalar((uint16_t)(n->seq - ids.seq));
}

void wlmex_set_pkt_wait(const mxArray *prhs[])
{
	pkt_wait_us = wlmex_int(prhs[1], 2, "wait in microseconds", 0, 1000000);
}

void wlmex_set_max_request(const mxArray *prhs[])
{
	max_request = wlmex_int(prhs[1], 2, "bytes per request", 0, 0x7fffffff);
}

/* WARPLab warns when a read timed out or found packets out of place and when a write's
 * checksum failed, and SUPPRESS_IQ_WARNINGS mutes those warnings. This transport recovers
 * from the same events (re-requests, acknowledged resends); it says so in one warning per
 * buffer, which the same call mutes. */
void wlmex_suppress_warnings(void) { warnings_muted = 1; }
