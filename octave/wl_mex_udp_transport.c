/* SPDX-License-Identifier: BSD-2-Clause */
/* wl_mex_udp_transport: warpspeed's drop-in for WARPLab 7.7.1's MEX UDP transport.
 *
 * WARPLab's M code reaches the network through one MEX function of this name (interface
 * 1.0.4a, see docs/iq.md "From MATLAB/Octave"). Put this MEX first on the path and the
 * same M code runs on libwarpspeed's IQ engines: selective re-requests, pipelined reads,
 * time-based timeouts, acknowledged recovery of lost write packets, and only real
 * acknowledgements accepted. This file is the entry point: NAME is matched in a table that
 * also holds each function's argument and output counts, the socket functions (INIT_SOCKET,
 * buffer sizes, CLOSE, SEND, RECEIVE) are served here, and the IQ functions in wlmex_iq.c.
 * Every bad call ends in a MATLAB/Octave error naming the function, the argument and what
 * is accepted; sockets are closed when the MEX is cleared (mexAtExit).
 *
 * Octave:  make mex   (mkoctfile --mex -R2018a, see the Makefile)
 * MATLAB:  mex -R2018a -Iinclude -Isrc -Ioctave octave/wl_mex_udp_transport.c
 *          octave/wlmex_*.c build/pic/libwarpspeed_pic.a -lpthread   (see docs/iq.md) */
#include "mex.h"

#include "wlmex_args.h"
#include "wlmex_iq.h"
#include "wlmex_sock.h"

#include <warpspeed/version.h>

#include <arpa/inet.h>
#include <ctype.h>
#include <malloc.h>
#include <stdlib.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

/* WARPLab's checks parse VERSION with '%d.%d.%d%c' and want 1.0.4 with a letter >= 'a':
 * 'w' for warpspeed, then who we are. */
/* What VERSION returns: the transport version WARPLab checks (%d.%d.%d%c, letter >= a),
 * then the library's own, ws_version(). */
#define WLMEX_VERSION_PREFIX   "1.0.4w warpspeed "
#define WLMEX_SEND_PATIENCE_MS 2000 /* SEND waits this long for room (WARPLab: forever) */

/* Octave puts "wl_mex_udp_transport: " before a MEX's error; MATLAB does not. */
#ifdef HAVE_OCTAVE
#define WLMEX_PREFIX ""
#else
#define WLMEX_PREFIX "wl_mex_udp_transport: "
#endif

static int loaded;
static int banner_now; /* this call printed the first-call banner already */

static void unload(void) { wlmex_sock_close_all(); }

/* Octave turns each array a MEX returns into an array of its own, allocated and filled
 * after the call: a 2^20-sample complex double read is 16 MiB of fresh memory that glibc
 * maps and the kernel faults in page by page, then unmaps when the variable goes. On a VM
 * that fault path cost more than the transfer (2^20 samples read on loopback in 97 ms,
 * 347 Mb/s, 40 % of it in Octave's copy and 25 % in page faults). Keeping large blocks in
 * the heap, not mapped and unmapped per call, makes the second read of a size reuse
 * memory already faulted in (the same read in 5 ms, 6753 Mb/s; a 2^24-sample read from
 * 389 to 3586 Mb/s). The tuning is the process's: it lasts while Octave runs, and freed
 * blocks of up to 1 GiB stay with the process for reuse instead of going back to the
 * system at once. WARPSPEED_MEX_MALLOC=default leaves glibc's own settings alone. */
static void tune_malloc(void)
{
#ifdef M_MMAP_THRESHOLD
	const char *v = getenv("WARPSPEED_MEX_MALLOC");
	if (v && strcmp(v, "default") == 0)
		return;
	mallopt(M_MMAP_THRESHOLD, 1 << 30);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

static void banner(void)
{
	mexPrintf("wl_mex_udp_transport %s%s: WARPLab 7.7.1 MEX UDP transport interface 1.0.4a "
		  "on libwarpspeed\n",
		  WLMEX_VERSION_PREFIX, ws_version());
}

static void io_fail(const char *what)
{
	int e = errno;
	wlmex_fail(WLMEX_ID_IO, "%s failed: %s (errno %d)", what, strerror(e), e);
}

/* ---- the functions; prhs[0] is NAME ---- */

static void f_version(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	(void)nrhs;
	(void)prhs;
	if (nlhs == 0 && !banner_now)
		banner();
	else {
		char v[96];
		snprintf(v, sizeof v, "%s%s", WLMEX_VERSION_PREFIX, ws_version());
		plhs[0] = mxCreateString(v);
	}
}

static void f_init_socket(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	(void)nlhs;
	(void)nrhs;
	(void)prhs;
	int h = wlmex_sock_open();
	if (h < 0) {
		if (errno == EMFILE)
			wlmex_fail(WLMEX_ID_IO, "all %d sockets are open; CLOSE one first",
				   WLMEX_SLOTS);
		io_fail("socket()");
	}
	plhs[0] = mxCreateDoubleScalar(h);
}

static void f_set_so_timeout(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	(void)nlhs;
	(void)plhs;
	(void)nrhs;
	wlmex_slot *s = wlmex_slot_arg(prhs[1]);
	s->timeout_ms = (int)wlmex_int(prhs[2], 3, "timeout in ms", 0, 0x7fffffff);
}

static void set_buf(const mxArray *prhs[], int opt)
{
	wlmex_slot *s = wlmex_slot_arg(prhs[1]);
	int v = (int)wlmex_int(prhs[2], 3, "size in bytes", 0, 0x7fffffff);
	if (setsockopt(s->fd, SOL_SOCKET, opt, &v, sizeof v) < 0)
		io_fail(opt == SO_SNDBUF ? "setsockopt(SO_SNDBUF)" : "setsockopt(SO_RCVBUF)");
	socklen_t sl = sizeof v;
	getsockopt(s->fd, SOL_SOCKET, opt, &v, &sl);
	*(opt == SO_SNDBUF ? &s->sndbuf : &s->rcvbuf) = v;
}

static void get_buf(mxArray *plhs[], const mxArray *prhs[], int opt)
{
	wlmex_slot *s = wlmex_slot_arg(prhs[1]);
	int v = 0;
	socklen_t sl = sizeof v;
	if (getsockopt(s->fd, SOL_SOCKET, opt, &v, &sl) < 0)
		io_fail(opt == SO_SNDBUF ? "getsockopt(SO_SNDBUF)" : "getsockopt(SO_RCVBUF)");
	plhs[0] = mxCreateDoubleScalar(v);
}

static void f_set_send(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	(void)nlhs, (void)plhs, (void)nrhs;
	set_buf(prhs, SO_SNDBUF);
}

static void f_get_send(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	(void)nlhs, (void)nrhs;
	get_buf(plhs, prhs, SO_SNDBUF);
}

static void f_set_rcvd(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	(void)nlhs, (void)plhs, (void)nrhs;
	set_buf(prhs, SO_RCVBUF);
}

static void f_get_rcvd(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	(void)nlhs, (void)nrhs;
	get_buf(plhs, prhs, SO_RCVBUF);
}

static void f_close(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	(void)nlhs, (void)plhs, (void)nrhs;
	wlmex_sock_close(wlmex_int(prhs[1], 2, "socket handle", 0, WLMEX_SLOTS - 1));
}

static void f_send(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	(void)nlhs, (void)nrhs;
	wlmex_slot *s = wlmex_slot_arg(prhs[1]);
	size_t have;
	const uint8_t *data = wlmex_u8row(prhs[2], 3, "datagram", &have);
	int64_t len = wlmex_int(prhs[3], 4, "bytes to send", 0, 65507);
	if ((uint64_t)len > have)
		wlmex_fail(WLMEX_ID_ARG,
			   "argument 4 (bytes to send) is %lld but the datagram "
			   "(argument 3) holds only %zu bytes",
			   (long long)len, have);
	struct sockaddr_in sa = {.sin_family = AF_INET};
	char text[64];
	wlmex_ip(prhs[4], 5, &sa.sin_addr, text, sizeof text);
	sa.sin_port = htons((uint16_t)wlmex_int(prhs[5], 6, "port", 1, 65535));
	for (int waited = 0;; waited += 10) {
		ssize_t r = sendto(s->fd, data, (size_t)len, 0, (struct sockaddr *)&sa, sizeof sa);
		if (r >= 0) {
			plhs[0] = mxCreateDoubleScalar((double)r);
			return;
		}
		if ((errno != EAGAIN && errno != EWOULDBLOCK && errno != ENOBUFS) ||
		    waited >= WLMEX_SEND_PATIENCE_MS) {
			char what[128];
			snprintf(what, sizeof what, "sending %lld bytes to %s:%u", (long long)len,
				 text, ntohs(sa.sin_port));
			io_fail(what);
		}
		nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
	}
}

static void f_receive(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	(void)nlhs, (void)nrhs;
	wlmex_slot *s = wlmex_slot_arg(prhs[1]);
	size_t max = (size_t)wlmex_int(prhs[2], 3, "most bytes to receive", 1, 65536);
	uint8_t *buf = mxMalloc(max);
	ssize_t r = recv(s->fd, buf, max, MSG_DONTWAIT);
	if (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != ECONNREFUSED) {
		mxFree(buf);
		io_fail("recv()");
	}
	if (r <= 0) {
		mxFree(buf);
		plhs[0] = mxCreateDoubleScalar(0);
		plhs[1] = mxCreateNumericMatrix(0, 0, mxUINT8_CLASS, mxREAL);
		return;
	}
	plhs[0] = mxCreateDoubleScalar((double)r);
	plhs[1] = mxCreateNumericMatrix((size_t)r, 1, mxUINT8_CLASS, mxREAL);
	memcpy(mxGetData(plhs[1]), buf, (size_t)r);
	mxFree(buf);
}

static void f_read_iq(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	wlmex_read(nlhs, plhs, nrhs, prhs, 0);
}

static void f_read_rssi(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	wlmex_read(nlhs, plhs, nrhs, prhs, 1);
}

static void f_write_iq(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	wlmex_write(nlhs, plhs, nrhs, prhs);
}

static void f_pkt_wait(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	(void)nlhs, (void)plhs, (void)nrhs;
	wlmex_set_pkt_wait(prhs);
}

static void f_max_request(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	(void)nlhs, (void)plhs, (void)nrhs;
	wlmex_set_max_request(prhs);
}

static void f_suppress(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	(void)nlhs, (void)plhs, (void)nrhs, (void)prhs;
	wlmex_suppress_warnings();
}

/* One line per function: NAME, inputs after NAME, outputs (-1: 0 or 1), usage. */
typedef struct wlmex_fn_def {
	const char *name;
	int nin, nout;
	void (*fn)(int, mxArray *[], int, const mxArray *[]);
	const char *usage;
} wlmex_fn_def;

#define IQ_ARGS                                                                     \
	"(h, template, len, ip, port, N, bufs, start, bytes_per_pkt, npkts, type, " \
	"tracker, severity, node)"
/* clang-format off */
static const wlmex_fn_def fns[] = {
	{"VERSION", 0, -1, f_version, "wl_mex_udp_transport('version') or "
	 "v = wl_mex_udp_transport('version')"},
	{"INIT_SOCKET", 0, 1, f_init_socket, "h = wl_mex_udp_transport('init_socket')"},
	{"SET_SO_TIMEOUT", 2, 0, f_set_so_timeout,
	 "wl_mex_udp_transport('set_so_timeout', h, ms)"},
	{"SET_SEND_BUF_SIZE", 2, 0, f_set_send,
	 "wl_mex_udp_transport('set_send_buf_size', h, bytes)"},
	{"GET_SEND_BUF_SIZE", 1, 1, f_get_send,
	 "bytes = wl_mex_udp_transport('get_send_buf_size', h)"},
	{"SET_RCVD_BUF_SIZE", 2, 0, f_set_rcvd,
	 "wl_mex_udp_transport('set_rcvd_buf_size', h, bytes)"},
	{"GET_RCVD_BUF_SIZE", 1, 1, f_get_rcvd,
	 "bytes = wl_mex_udp_transport('get_rcvd_buf_size', h)"},
	{"CLOSE", 1, 0, f_close, "wl_mex_udp_transport('close', h)"},
	{"SEND", 5, 1, f_send, "sent = wl_mex_udp_transport('send', h, uint8_row, nbytes, ip, "
	 "port)"},
	{"RECEIVE", 2, 2, f_receive, "[len, data] = wl_mex_udp_transport('receive', h, "
	 "max_bytes)"},
	{"READ_IQ", 14, 3, f_read_iq, "[n, cmds, x] = wl_mex_udp_transport('read_iq', "
	 IQ_ARGS ")"},
	{"READ_RSSI", 14, 3, f_read_rssi, "[n, cmds, x] = wl_mex_udp_transport('read_rssi', "
	 IQ_ARGS ")"},
	{"WRITE_IQ", 14, 2, f_write_iq, "[cmds, chk] = wl_mex_udp_transport('write_iq', h, "
	 "template, maxlen, ip, port, N, samples, bufs, start, npkts, samples_per_pkt, hw, "
	 "check, type)"},
	{"WRITE_IQ_SET_PKT_WAIT_TIME", 1, 0, f_pkt_wait,
	 "wl_mex_udp_transport('write_iq_set_pkt_wait_time', us)"},
	{"READ_IQ_SET_MAX_REQUEST_SIZE", 1, 0, f_max_request,
	 "wl_mex_udp_transport('read_iq_set_max_request_size', bytes)"},
	{"SUPPRESS_IQ_WARNINGS", 0, 0, f_suppress,
	 "wl_mex_udp_transport('suppress_iq_warnings')"},
};
/* clang-format on */

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
	banner_now = !loaded;
	if (!loaded) {
		loaded = 1;
		tune_malloc();
		mexAtExit(unload);
		banner();
	}
	wlmex_fn = "";
	char name[64], got[96];
	if (nrhs < 1 || !mxIsChar(prhs[0]) || mxGetM(prhs[0]) != 1 ||
	    mxGetNumberOfElements(prhs[0]) >= sizeof name) {
		wlmex_describe(nrhs ? prhs[0] : NULL, got, sizeof got);
		mexErrMsgIdAndTxt(WLMEX_ID_ARG,
				  WLMEX_PREFIX "argument 1 must be the function "
					       "name as text, e.g. 'version' or 'read_iq'; got %s",
				  got);
	}
	mxGetString(prhs[0], name, sizeof name);
	for (char *c = name; *c; c++)
		*c = (char)toupper((unsigned char)*c);
	const wlmex_fn_def *f = NULL;
	for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
		if (strcmp(fns[i].name, name) == 0)
			f = &fns[i];
	if (!f) {
		char list[768] = "";
		for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
			snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
				 i ? ", " : "", fns[i].name);
		mexErrMsgIdAndTxt(WLMEX_ID_ARG,
				  WLMEX_PREFIX "unknown function '%s'; "
					       "accepted (any case): %s",
				  name, list);
	}
	wlmex_fn = f->name;
	int nout_ok = f->nout < 0 ? nlhs <= 1 : nlhs == f->nout;
	if (nrhs - 1 != f->nin || !nout_ok)
		wlmex_fail(WLMEX_ID_ARG,
			   "takes %d input%s after the name and gives %s output%s; "
			   "got %d input%s and %d output%s. Usage: %s",
			   f->nin, f->nin == 1 ? "" : "s",
			   f->nout < 0 ? "0 or 1" : (const char *[]){"0", "1", "2", "3"}[f->nout],
			   f->nout == 1 ? "" : "s", nrhs - 1, nrhs - 1 == 1 ? "" : "s", nlhs,
			   nlhs == 1 ? "" : "s", f->usage);
	f->fn(nlhs, plhs, nrhs, prhs);
}
