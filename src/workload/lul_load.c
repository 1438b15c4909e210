/* SPDX-License-Identifier: BSD-2-Clause */
/* lul_load: greetings and the two directions' flows of an RRUL run; see lul_load.h. */
#include "workload/lul_load.h"

#include "net/sockopt.h"
#include "net/sock.h"
#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bulk flows: 64 KiB per send, 128 KiB per receive (netperf's defaults on Linux are the
 * buffer sizes, which autotuning makes moving targets). */
#define LUL_SEND_SIZE 65536
#define LUL_RECV_SIZE 131072
#define LUL_STALL_NS  (10 * WS_NS_PER_SEC)
/* Threads per direction at each end: one per flow, up to this many. */
#define LUL_MAX_THREADS 8

static int set_mark(int fd, int tos, int *readback, ws_err *err)
{
	ws_sockopt_req r = {.tos = tos, .tcp = true};
	ws_sockopt_applied a;
	int rc = tos > 0 ? ws_sockopt_apply(fd, &r, &a, err) : 0;
	if (rc < 0)
		return rc;
	r.tos = 1; /* read it back even when nothing was set (0 = BE) */
	ws_sockopt_read(fd, &r, &a);
	*readback = a.tos;
	return 0;
}

int ws_lul_greet(int fd, enum ws_lul_role role, int tos, uint32_t delay_s, int *tos_local,
		 int *tos_remote, ws_err *err)
{
	*tos_local = *tos_remote = -1;
	int rc = set_mark(fd, tos, tos_local, err);
	unsigned char g[WS_LUL_GREETING_LEN] = {'L', (unsigned char)role, (unsigned char)tos,
						(unsigned char)(delay_s > 255 ? 255 : delay_s)};
	int64_t deadline = ws_clock_ns() + WS_LUL_GREETING_NS;
	if (rc == 0)
		rc = ws_sock_write_all(fd, g, sizeof(g), deadline, err);
	if (rc == 0)
		rc = ws_sock_read_exact(fd, g, sizeof(g), deadline, err);
	if (rc < 0) {
		ws_err_prefix(err, "greeting the daemon on an RRUL connection");
		return rc;
	}
	if (g[0] != 'L' || g[1] != (unsigned char)role)
		return ws_err_set(
			err, WS_E_PROTO,
			"the daemon answered an RRUL connection's greeting with %02x %02x", g[0],
			g[1]);
	*tos_remote = g[3] ? -1 : g[2]; /* g[3] != 0: the daemon could not read it back */
	return 0;
}

int ws_lul_answer(int fd, enum ws_lul_role *role, int *tos, uint32_t *delay_s, ws_err *err)
{
	unsigned char g[WS_LUL_GREETING_LEN];
	int rc = ws_sock_read_exact(fd, g, sizeof(g), ws_clock_ns() + WS_LUL_GREETING_NS, err);
	if (rc < 0) {
		ws_err_prefix(err, "reading an RRUL connection's greeting");
		return rc;
	}
	if (g[0] != 'L' ||
	    (g[1] != WS_LUL_ROLE_UP && g[1] != WS_LUL_ROLE_DOWN && g[1] != WS_LUL_ROLE_PROBE))
		return ws_err_set(err, WS_E_PROTO,
				  "an RRUL connection opened with %02x %02x, not a greeting", g[0],
				  g[1]);
	*role = (enum ws_lul_role)g[1];
	*delay_s = g[3];
	int kept = -1;
	rc = set_mark(fd, g[2], &kept, err);
	if (rc < 0)
		return rc;
	*tos = kept;
	g[2] = (unsigned char)(kept < 0 ? 0 : kept);
	g[3] = kept < 0;
	return ws_sock_write_all(fd, g, sizeof(g), ws_clock_ns() + WS_LUL_GREETING_NS, err);
}

static void *load_main(void *arg)
{
	ws_lul_load *l = arg;
	l->rc = ws_multi_run(&l->p, &l->res, l->err_box);
	return NULL;
}

int ws_lul_load_start(ws_lul_load *l, const int *fds, uint32_t n, bool sender,
		      const ws_test_spec *spec, int64_t cap_ns, struct ws_interim_counter *progress,
		      ws_err *err)
{
	memset(l, 0, sizeof(*l));
	if (n == 0)
		return 0;
	l->err_box = calloc(1, sizeof(*l->err_box));
	if (!l->err_box)
		return ws_err_set(err, ENOMEM, "no memory for a load thread");
	l->p = (ws_multi_params){
		.fds = fds,
		.nflows = n,
		/* a thread per flow, as netperf has a process per flow (docs/rrul.md) */
		.nthreads = n < LUL_MAX_THREADS ? n : LUL_MAX_THREADS,
		.sender = sender,
		.io =
			{
				.fd = -1,
				.send_size = spec->send_size ? spec->send_size : LUL_SEND_SIZE,
				.recv_size = spec->recv_size ? spec->recv_size : LUL_RECV_SIZE,
				.end = WS_END_TIME,
				.duration_ns = ws_test_spec_duration_ns(spec),
				.stall_ns = LUL_STALL_NS,
				.tx = WS_TX_SEND,
				.file_fd = -1,
				.rx = WS_RX_RECV,
				.cap_ns = cap_ns,
				.progress = progress,
			},
	};
	l->res.cpu_bound_to = -1;
	if (pthread_create(&l->thread, NULL, load_main, l) != 0) {
		free(l->err_box);
		l->err_box = NULL;
		return ws_err_set(err, EAGAIN, "could not start the %s thread",
				  sender ? "sending" : "receiving");
	}
	l->started = true;
	return 0;
}

int ws_lul_load_join(ws_lul_load *l, ws_err *err)
{
	if (!l->started)
		return 0;
	pthread_join(l->thread, NULL);
	l->started = false;
	if (l->rc < 0 && err)
		*err = *l->err_box;
	free(l->err_box);
	l->err_box = NULL;
	return l->rc;
}

int ws_lul_load_merge(ws_lul_load *up, ws_lul_load *down, ws_side_result *res)
{
	ws_side_result *a = &up->res, *b = &down->res;
	uint32_t nf = a->nflows + b->nflows, nt = a->nthreads + b->nthreads;
	ws_flow_result *flows = nf ? calloc(nf, sizeof(*flows)) : NULL;
	ws_thread_result *threads = nt ? calloc(nt, sizeof(*threads)) : NULL;
	if ((nf && !flows) || (nt && !threads)) {
		free(flows);
		free(threads);
		ws_side_result_free(a);
		ws_side_result_free(b);
		return -1;
	}
	if (a->nflows)
		memcpy(flows, a->flows, a->nflows * sizeof(*flows));
	if (b->nflows)
		memcpy(flows + a->nflows, b->flows, b->nflows * sizeof(*flows));
	if (a->nthreads)
		memcpy(threads, a->threads, a->nthreads * sizeof(*threads));
	if (b->nthreads)
		memcpy(threads + a->nthreads, b->threads, b->nthreads * sizeof(*threads));
	res->bytes_sent += a->bytes_sent + b->bytes_sent;
	res->bytes_recv += a->bytes_recv + b->bytes_recv;
	res->send_calls += a->send_calls + b->send_calls;
	res->recv_calls += a->recv_calls + b->recv_calls;
	res->thread_user_ns += a->thread_user_ns + b->thread_user_ns;
	res->thread_sys_ns += a->thread_sys_ns + b->thread_sys_ns;
	res->elapsed_ns = a->elapsed_ns > b->elapsed_ns ? a->elapsed_ns : b->elapsed_ns;
	res->send_size = a->send_size ? a->send_size : b->send_size;
	res->recv_size = b->recv_size ? b->recv_size : a->recv_size;
	snprintf(res->io_path, sizeof(res->io_path), "%s", a->io_path[0] ? a->io_path : b->io_path);
	free(res->flows);
	free(res->threads);
	res->flows = flows;
	res->nflows = nf;
	res->threads = threads;
	res->nthreads = nt;
	ws_side_result_free(a);
	ws_side_result_free(b);
	return 0;
}

void ws_lul_first_failure(const ws_side_result *res, uint32_t nup, char *buf, size_t bufsz)
{
	buf[0] = '\0';
	for (uint32_t i = 0; i < res->nflows; i++)
		if (res->flows[i].error) {
			bool up = i < nup;
			snprintf(buf, bufsz, "%s flow %u: %s", up ? "upload" : "download",
				 (up ? i : i - nup) + 1, res->flows[i].why);
			return;
		}
}
