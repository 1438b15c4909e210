/* SPDX-License-Identifier: BSD-2-Clause */
/* run: the engine of each test type and the CPU-bracketed side runner; see run.h. */
#include "workload/run.h"

#include "measure/cpu.h"
#include "measure/hist.h"
#include "measure/interim.h"
#include "net/busypoll.h"
#include "net/mptcp.h"
#include "net/sock.h"
#include "net/sockopt.h"
#include "util/affinity.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/features.h"
#include "util/units.h"
#include "workload/lul_serve.h"
#include "workload/engines.h"
#include "workload/multi.h"
#include "workload/rr.h"
#include "workload/rr_flow.h"
#include "workload/stream.h"
#include "workload/stream_uring.h"
#include "workload/udp_stream.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The receive size per call of --skip-rx-copy when -M does not set one. */
#define TRUNC_RECV_SIZE (4u << 20)

/* The TCP receiver's automatic wake threshold: one receive size, at most this (see
 * ws_workload_rcvlowat). */
#define AUTO_RCVLOWAT_MAX (512u << 10)

/* How long a data connection may sit without moving a byte before a side gives up. */
#define WS_STALL_NS (10 * WS_NS_PER_SEC)

/* The socket timeouts of a capped single-stream role: how late a blocked call may notice
 * the cap. */
#define CAP_TICK_NS (100 * WS_NS_PER_MS)

/* MPTCP's record of a sender, taken just before its half-close (ws_stream_params'
 * hook). Once both ends have closed, the kernel tears the subflows down: a record taken
 * after the drain alone can find one disconnected subflow (seen in CI: 0.0.0.0 ->
 * 198.18.0.2:0, nothing acknowledged, of a run that used both paths). The record after
 * the drain still replaces it while whole (ws_mptcp_update): it has every byte acked. */
typedef struct mptcp_early {
	ws_side_result *res;
	int fd; /* the flow whose record the result keeps (the first) */
	bool done;
} mptcp_early;

static void mptcp_before_half_close(void *arg, int fd)
{
	mptcp_early *m = arg;
	if (fd != m->fd || m->done)
		return;
	ws_mptcp_record(fd, m->res);
	m->done = true;
}

static void mptcp_early_hook(ws_stream_params *p, mptcp_early *m, int fd, ws_side_result *res)
{
	*m = (mptcp_early){.res = res, .fd = fd};
	p->before_half_close = mptcp_before_half_close;
	p->before_half_close_arg = m;
}

/* early: the sender's hook has recorded MPTCP's state already */
static void record_tcp_info(int fd, ws_side_result *res, bool early)
{
	if (early)
		ws_mptcp_update(fd, res);
	else /* "tcp" on a plain socket; what --mptcp got on an MPTCP one */
		ws_mptcp_record(fd, res);
	ws_tcp_info ti;
	if (ws_tcpio_info(fd, &ti) < 0)
		return;
	res->tcp_info_valid = true;
	res->tcp_mss = ti.mss;
	res->tcp_rtt_us = ti.rtt_us;
	res->tcp_rttvar_us = ti.rttvar_us;
	res->tcp_snd_cwnd = ti.snd_cwnd;
	res->tcp_retrans = ti.total_retrans;
	res->tcp_rto_us = ti.rto_us;
	res->tcp_ato_us = ti.ato_us;
	res->tcp_pmtu = ti.pmtu;
	res->tcp_rcv_ssthresh = ti.rcv_ssthresh;
	res->tcp_snd_ssthresh = ti.snd_ssthresh;
	res->tcp_reordering = ti.reordering;
}

uint32_t ws_workload_rcvlowat(uint32_t asked, uint32_t recv_size)
{
	if (asked)
		return asked;
	return recv_size < AUTO_RCVLOWAT_MAX ? recv_size : AUTO_RCVLOWAT_MAX;
}

/* The engine parameters of one stream, shared by the single- and multi-stream paths. */
static ws_stream_params stream_params(const ws_test_spec *spec, enum ws_role role, int fd,
				      int file_fd, ws_side_result *res)
{
	ws_stream_params p = {
		.fd = fd,
		/* netperf's defaults: send the send buffer's size, receive the receive buffer's */
		.send_size = spec->send_size ? spec->send_size : res->sndbuf_set,
		.sndbuf = res->sndbuf_set,
		.recv_size = spec->recv_size ? spec->recv_size : res->rcvbuf_set,
		.end = spec->end == WS_END_BYTES ? WS_END_BYTES : WS_END_TIME,
		.duration_ns = ws_test_spec_duration_ns(spec),
		.byte_limit = spec->end_count,
		.stall_ns = WS_STALL_NS,
		.tx = spec->type == WS_TEST_TCP_SENDFILE && file_fd >= 0 ? WS_TX_SENDFILE
			: spec->zerocopy                                 ? WS_TX_ZEROCOPY
									 : WS_TX_SEND,
		.file_fd = file_fd,
		.rx = spec->splice           ? WS_RX_SPLICE
			: spec->skip_rx_copy ? WS_RX_TRUNC
					     : WS_RX_RECV,
	};
	if (!p.send_size) /* getsockopt failed: netperf's usual figures */
		p.send_size = 16384;
	if (!p.recv_size)
		p.recv_size = 131072;
	/* MSG_TRUNC copies nothing, so the size per call only bounds how much one call
	 * discards: without -M, take everything queued in one go. */
	if (p.rx == WS_RX_TRUNC && !spec->recv_size && p.recv_size < TRUNC_RECV_SIZE)
		p.recv_size = TRUNC_RECV_SIZE;
	/* The automatic threshold only where the kernel handles it (asked for, always). */
	if (role == WS_ROLE_RECEIVER && (spec->rcvlowat || ws_features_rcvlowat_safe()))
		p.rcvlowat = ws_workload_rcvlowat(spec->rcvlowat, p.recv_size);
	res->send_size = role == WS_ROLE_SENDER ? p.send_size : 0;
	res->recv_size = p.recv_size;
	return p;
}

void ws_workload_cost_of(const ws_test_spec *spec, bool is_client, const ws_side_result *setup,
			 ws_workload_cost *c)
{
	enum ws_role role = ws_test_type_role(spec->type, is_client);
	uint32_t threads = is_client ? spec->local_threads : spec->remote_threads;
	memset(c, 0, sizeof(*c));
	c->receive = role == WS_ROLE_RECEIVER;
	if (ws_test_type_transacts(spec->type)) {
		/* A request and a response buffer per flow, on either side (rr.c, rr_multi.c). */
		c->rr = true;
		c->each = (uint64_t)spec->req_size + spec->rsp_size;
		c->buffers = spec->streams;
		c->threads =
			spec->streams > 1 ? (threads < spec->streams ? threads : spec->streams) : 1;
		if (c->threads == 0)
			c->threads = 1;
	} else if (ws_test_type_udp(spec->type)) {
		c->threads = c->buffers = spec->streams;
		c->each = ws_udp_buffer_bytes(spec, !c->receive, setup->sndbuf_set);
	} else {
		ws_side_result sizes = *setup; /* stream_params records the sizes it chose */
		ws_stream_params p = stream_params(spec, role, -1, -1, &sizes);
		c->each = c->receive ? p.recv_size : p.send_size;
		c->threads = c->buffers =
			spec->streams > 1 ? (threads < spec->streams ? threads : spec->streams) : 1;
		if (c->threads == 0)
			c->threads = c->buffers = 1;
	}
	c->bytes = c->each * c->buffers;
}

void ws_workload_cost_describe(const ws_test_spec *spec, const ws_workload_cost *c, char *buf,
			       size_t bufsz)
{
	char total[32], each[32];
	ws_units_format_iec(c->bytes, total, sizeof(total));
	ws_units_format_iec(c->each, each, sizeof(each));
	const char *name = ws_test_type_name(spec->type);
	if (c->rr) {
		char req[32], rsp[32];
		ws_units_format_size(spec->req_size, req, sizeof(req));
		ws_units_format_size(spec->rsp_size, rsp, sizeof(rsp));
		snprintf(buf, bufsz,
			 "%s with %u flow%s needs %s of buffers (%u request+response buffer%s of "
			 "%s, -r %s,%s)",
			 name ? name : "the test", spec->streams, spec->streams == 1 ? "" : "s",
			 total, c->buffers, c->buffers == 1 ? "" : "s", each, req, rsp);
		return;
	}
	snprintf(buf, bufsz,
		 "%s with %u flow%s on %u thread%s needs %s of buffers (%u %s buffer%s of %s)",
		 name ? name : "the test", spec->streams, spec->streams == 1 ? "" : "s", c->threads,
		 c->threads == 1 ? "" : "s", total, c->buffers, c->receive ? "receive" : "send",
		 c->buffers == 1 ? "" : "s", each);
}

static int run_stream(const ws_test_spec *spec, enum ws_role role, int fd, int file_fd,
		      int64_t cap_ns, ws_interim_counter *progress, ws_side_result *res,
		      ws_err *err)
{
	ws_stream_params p = stream_params(spec, role, fd, file_fd, res);
	mptcp_early early;
	mptcp_early_hook(&p, &early, fd, res);
	p.cap_ns = cap_ns;
	p.progress = progress;
	p.call_hist = spec->call_latency ? res->latency : NULL; /* run_side's, on the client */
	ws_stream_counts c;
	int rc = role == WS_ROLE_SENDER ? ws_stream_send(&p, &c, err) : ws_stream_recv(&p, &c, err);
	if (rc < 0 && p.tx == WS_TX_SENDFILE && c.note[0]) /* the file shrank: say which */
		ws_err_prefix(err, "-F %s",
			      spec->fill_file[0] ? spec->fill_file : "(the temporary file)");
	res->bytes_sent = c.bytes_sent;
	res->bytes_recv = c.bytes_recv;
	res->send_calls = c.send_calls;
	res->recv_calls = c.recv_calls;
	res->elapsed_ns = c.elapsed_ns;
	res->zc_sends = c.zc_sends;
	res->zc_copied = c.zc_copied;
	res->rcvlowat = c.rcvlowat;
	snprintf(res->io_path, sizeof(res->io_path), "%s", c.path ? c.path : "");
	snprintf(res->io_note, sizeof(res->io_note), "%s", c.note);
	record_tcp_info(fd, res, early.done);
	return rc;
}

/* TCP_MSS and REM_CPU: the connection carries nothing; the client closes it at once,
 * having read the MSS the kernel chose (TCP_MAXSEG, as netperf reads it: right after the
 * connect, which session/datasock.c recorded; here only when it did not). */
static int run_probe(int fd, ws_side_result *res)
{
	record_tcp_info(fd, res, false);
	int mss = 0;
	socklen_t len = sizeof(mss);
	if (!res->maxseg_set && getsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &mss, &len) == 0 && mss > 0)
		res->maxseg_set = (uint32_t)mss;
	snprintf(res->io_path, sizeof(res->io_path), "none");
	return 0;
}

/* The CPUs a side's threads are pinned to, in turn: --cpus/--remote-cpus, else -T's CPU
 * for every thread, else none (returns 0). */
static int thread_cpus(const ws_test_spec *spec, bool is_client, int *cpus, ws_err *err)
{
	const char *list = is_client ? spec->local_cpus : spec->remote_cpus;
	int ncpus = ws_cpu_list_parse(list, cpus, WS_MAX_CPU_LIST, err);
	int single = is_client ? spec->local.cpu : spec->remote.cpu;
	if (ncpus == 0 && single >= 0) {
		cpus[0] = single;
		ncpus = 1;
	}
	return ncpus;
}

int ws_workload_check_cpus(const ws_test_spec *spec, bool is_client, ws_err *err)
{
	int cpus[WS_MAX_CPU_LIST + 1];
	int n = thread_cpus(spec, is_client, cpus, err);
	int single = is_client ? spec->local.cpu : spec->remote.cpu;
	if (n > 0 && single >= 0) /* -T also pins the session's own thread */
		cpus[n++] = single;
	for (int i = 0; i < n; i++) {
		int rc = ws_affinity_check(cpus[i], err);
		if (rc < 0) {
			ws_err_prefix(err, "%s", is_client ? "local" : "remote");
			return rc;
		}
	}
	return n < 0 ? n : 0;
}

static int run_udp_multi(const ws_test_spec *spec, enum ws_role role, bool is_client,
			 const int *fds, uint32_t nfds, int fill_fd, int64_t cap_ns,
			 ws_interim_counter *progress, ws_side_result *res, ws_err *err)
{
	int cpus[WS_MAX_CPU_LIST];
	int ncpus = thread_cpus(spec, is_client, cpus, err);
	if (ncpus < 0)
		return ncpus;
	return ws_multi_run_udp(spec, role == WS_ROLE_SENDER, fds, nfds, fill_fd, cpus, ncpus,
				cap_ns, progress, res, err);
}

static int run_multi(const ws_test_spec *spec, enum ws_role role, bool is_client, const int *fds,
		     uint32_t nfds, int file_fd, int64_t cap_ns, ws_interim_counter *progress,
		     bool uring, ws_side_result *res, ws_err *err)
{
	int cpus[WS_MAX_CPU_LIST];
	int ncpus = thread_cpus(spec, is_client, cpus, err);
	if (ncpus < 0)
		return ncpus;
	uint32_t threads = is_client ? spec->local_threads : spec->remote_threads;
	ws_multi_params p = {
		.fds = fds,
		.nflows = nfds,
		.nthreads = threads > nfds ? nfds : threads,
		.cpus = cpus,
		.ncpus = ncpus,
		.sender = role == WS_ROLE_SENDER,
		.io = stream_params(spec, role, -1, file_fd, res),
	};
	p.io.cap_ns = cap_ns;
	p.io.progress = progress;
	mptcp_early early;
	mptcp_early_hook(&p.io, &early, fds[0], res);
	p.sqpoll = spec->sqpoll;
	if (p.nthreads == 0)
		p.nthreads = 1;
	/* io_uring: one flow keeps the single-stream result's shape (no per-flow arrays) */
	bool multi = nfds > 1 || spec->streams > 1;
	int rc = uring ? ws_stream_uring_run(&p, multi, res, err) : ws_multi_run(&p, res, err);
	if (rc == 0 || !multi) /* one flow's record, as the blocking engine's, even on failure */
		record_tcp_info(fds[0], res, early.done);
	return rc;
}

/* The CPU bracket of every role: cpu_begin takes the first snapshot; cpu_end (given the
 * role's rc) the second, fills the side's CPU fields, keeps the worker threads' own times
 * when `workers` ran the role (not the idle calling thread's), records the host identity
 * and frees the snapshots. */
static int cpu_begin(ws_cpu_snapshot **snap, ws_err *err)
{
	*snap = malloc(2 * sizeof(**snap));
	if (!*snap)
		return ws_err_set(err, ENOMEM, "no memory for CPU snapshots");
	return ws_cpu_snapshot_take(&(*snap)[0], err);
}

static int cpu_end(const ws_test_spec *spec, bool is_client, bool workers, ws_cpu_snapshot *snap,
		   int rc, ws_side_result *res, ws_err *err)
{
	const ws_side_spec *me = is_client ? &spec->local : &spec->remote;
	int64_t worker_user = res->thread_user_ns, worker_sys = res->thread_sys_ns;
	if (rc == 0)
		rc = ws_cpu_snapshot_take(&snap[1], err);
	if (rc == 0) {
		rc = ws_cpu_fill_side(res, &snap[0], &snap[1], err);
		if (workers) {
			res->thread_user_ns = worker_user;
			res->thread_sys_ns = worker_sys;
		}
		if (!me->measure_cpu) {
			/* The system-wide figure was not asked for; thread times are always kept. */
			res->cpu_measured = false;
			res->cpu_util = res->cpu_user = res->cpu_system = res->cpu_softirq = -1.0;
		}
	}
	ws_cpu_identify_host(res);
	res->cpu_rate = ws_cpu_rate();
	free(snap);
	return rc;
}

/* -F for the request/response tests: what one request needs of the file (at most the
 * engines' scratch), read once into *buf (NULL without a file: warpspeed's pattern). */
static int load_rr_fill(const ws_test_spec *spec, int file_fd, unsigned char **buf, size_t *len,
			ws_err *err)
{
	*buf = NULL;
	*len = 0;
	if (file_fd < 0)
		return 0;
	size_t n = spec->req_size < WS_RR_SCRATCH ? spec->req_size : WS_RR_SCRATCH;
	unsigned char *b = malloc(n ? n : 1);
	if (!b)
		return ws_err_set(err, ENOMEM, "no memory for %zu bytes of -F %s", n,
				  spec->fill_file);
	if (ws_stream_fill_from_file(b, n, file_fd) < 0) {
		int rc = ws_err_errno(err, "cannot read the file that fills the requests (-F %s)",
				      spec->fill_file);
		free(b);
		return rc;
	}
	*buf = b;
	*len = n;
	return 0;
}

/* TCP_RR and UDP_RR: one flow in closed loop on the blocking engine, anything else on the
 * epoll one. The single-flow socket timeouts set by the caller are the engine's tick. */
static int run_rr(const ws_test_spec *spec, bool is_client, bool multi, const int *fds,
		  uint32_t nfds, int file_fd, int64_t cap_ns, ws_interim_counter *progress,
		  enum ws_engine engine, ws_side_result *res, ws_err *err)
{
	if (ws_test_type_connects(spec->type)) /* it has no data socket beforehand */
		return ws_err_set(err, WS_E_INVAL, "%s runs through ws_workload_run_crr",
				  ws_test_type_name(spec->type));
	int cpus[WS_MAX_CPU_LIST];
	int ncpus = thread_cpus(spec, is_client, cpus, err);
	if (ncpus < 0)
		return ncpus;
	uint32_t threads = is_client ? spec->local_threads : spec->remote_threads;
	int64_t start = ws_clock_ns();
	ws_rr_params p = {
		.spec = spec,
		.is_client = is_client,
		.udp = ws_test_type_udp(spec->type),
		.fds = fds,
		.nfds = nfds,
		.threads = threads > nfds ? nfds : (threads ? threads : 1),
		.cpus = ncpus ? cpus : NULL,
		.ncpus = (uint32_t)ncpus,
		.start_ns = start,
		.end_ns = ws_test_spec_deadline(spec, start),
		.end_count = spec->end == WS_END_TIME ? 0 : spec->end_count,
		.stall_ns = WS_STALL_NS,
		.cap_ns = cap_ns,
		.listen_fd = -1,
		.wake_fd = -1,
		.progress = progress,
		.engine = engine,
		.sqpoll = spec->sqpoll,
	};
	unsigned char *fill;
	int rc = load_rr_fill(spec, is_client ? file_fd : -1, &fill, &p.fill_len, err);
	p.fill = fill;
	char bp_note[sizeof(res->io_note)] = "";
	if (spec->busy_poll)
		for (uint32_t i = 0; i < nfds; i++) {
			char note[sizeof(res->io_note)];
			int64_t set =
				ws_busypoll_set(fds[i], spec->busy_poll_us, note, sizeof(note));
			if (i == 0) {
				res->busy_poll_set = set;
				memcpy(bp_note, note, sizeof(note));
			}
		}
	if (rc == 0)
		rc = multi || spec->rate > 0 || engine == WS_ENGINE_IO_URING
			? ws_rr_multi_run(&p, res, err)
			: ws_rr_run(&p, res, err);
	if (!multi && spec->rate <= 0 && engine == WS_ENGINE_IO_URING) {
		/* one flow keeps the single-flow result's shape: no per-flow, per-thread rows */
		free(res->flows);
		free(res->threads);
		res->flows = NULL;
		res->threads = NULL;
		res->nflows = res->nthreads = 0;
	}
	free(fill);
	if (spec->busy_poll) {
		res->busy_spin = true;
		res->napi_id = ws_busypoll_napi_id(fds[0]);
		if (bp_note[0] && !res->io_note[0])
			memcpy(res->io_note, bp_note, sizeof(bp_note));
	}
	if (!p.udp)
		record_tcp_info(fds[0], res, false);
	return rc;
}

/* One side's run as the engines see it (run_side fills it). */
typedef struct side_run {
	const ws_test_spec *spec;
	bool is_client, multi, time_calls;
	enum ws_role role;
	const int *fds;
	uint32_t nfds;
	int file_fd;
	int64_t cap_ns;
	ws_interim_counter *progress;
	ws_side_result *res;
	ws_err *err;
	enum ws_engine engine; /* resolved: epoll or io_uring */
} side_run;

/* TCP streams: one flow on the blocking engine, several on the epoll one. */
static int engine_tcp(const side_run *x)
{
	bool uring = x->engine == WS_ENGINE_IO_URING;
	if (x->multi || uring)
		return run_multi(x->spec, x->role, x->is_client, x->fds, x->nfds, x->file_fd,
				 x->cap_ns, x->progress, uring, x->res, x->err);
	return run_stream(x->spec, x->role, x->fds[0], x->file_fd, x->cap_ns, x->progress, x->res,
			  x->err);
}

static int engine_udp(const side_run *x)
{
	bool sender = x->role == WS_ROLE_SENDER;
	/* the roles read the engine this side resolved (epoll: the sendmmsg/recvmmsg paths) */
	ws_test_spec s = *x->spec;
	s.engine = x->engine;
	if (x->multi)
		return run_udp_multi(&s, x->role, x->is_client, x->fds, x->nfds, x->file_fd,
				     x->cap_ns, x->progress, x->res, x->err);
	if (x->time_calls) {
		/* one datagram per send call, as netperf, so that each timed call is one message */
		s.no_batch = true;
		s.gso = false;
	}
	return ws_udp_run_role_progress(&s, sender, x->fds[0], x->file_fd, x->cap_ns, x->progress,
					x->res, x->err);
}

static int engine_rr(const side_run *x)
{
	return run_rr(x->spec, x->is_client, x->multi, x->fds, x->nfds, x->file_fd, x->cap_ns,
		      x->progress, x->engine, x->res, x->err);
}

/* The client reads what it came for; the daemon's side receives until the client closes. */
static int engine_probe(const side_run *x)
{
	return x->role == WS_ROLE_SENDER ? run_probe(x->fds[0], x->res) : engine_tcp(x);
}

/* RRUL's daemon half: the last descriptor is the probes' UDP echo (session/wsserve.c). The
 * client's half runs from session/client.c, which hands it the series to fill. */
static int engine_lul(const side_run *x)
{
	if (x->is_client)
		return ws_err_set(x->err, WS_E_INVAL, "the client runs RRUL through its session");
	return ws_lul_serve_run(x->spec, x->fds, x->nfds, x->cap_ns, x->res, x->err);
}

/* The engine of each test type this build runs (what a test is, its family and roles, is
 * model/testtype.h; this says only which code runs it). TCP_CRR and TCP_CC make their own
 * connections and run through ws_workload_run_crr. own_syscalls: the engine counts its
 * system calls itself (count_syscalls). */
static const struct engine {
	enum ws_test_type type;
	int (*run)(const side_run *x);
	bool own_syscalls;
	/* clang-format off */
} engines[] = {
	{WS_TEST_TCP_STREAM, engine_tcp, false},
	{WS_TEST_TCP_MAERTS, engine_tcp, false},
	{WS_TEST_TCP_SENDFILE, engine_tcp, false},
	{WS_TEST_UDP_STREAM, engine_udp, true},
	{WS_TEST_TCP_RR, engine_rr, false},
	{WS_TEST_UDP_RR, engine_rr, false},
	{WS_TEST_TCP_CRR, engine_rr, false},
	{WS_TEST_TCP_CC, engine_rr, false},
	{WS_TEST_TCP_MSS, engine_probe, false},
	{WS_TEST_REM_CPU, engine_probe, false},
	{WS_TEST_RRUL, engine_lul, false},
	{WS_TEST_RRUL_BE, engine_lul, false},
};
/* clang-format on */

static const struct engine *engine_of(enum ws_test_type t)
{
	for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (engines[i].type == t)
			return &engines[i];
	return NULL;
}

bool ws_workload_supported(enum ws_test_type t) { return engine_of(t) != NULL; }

static int run_side(const ws_test_spec *spec, bool is_client, const int *fds, uint32_t nfds,
		    int64_t cap_ns, ws_interim *interim, ws_side_result *res, ws_err *err);
static int crr_side(const ws_test_spec *spec, bool is_client, const ws_rr_params *endpoints,
		    int64_t cap_ns, ws_interim *interim, ws_side_result *res, ws_err *err);

int ws_workload_run(const ws_test_spec *spec, bool is_client, const int *fds, uint32_t nfds,
		    ws_side_result *res, ws_err *err)
{
	return ws_workload_run_capped(spec, is_client, fds, nfds, 0, res, err);
}

int ws_workload_run_capped(const ws_test_spec *spec, bool is_client, const int *fds, uint32_t nfds,
			   int64_t cap_ns, ws_side_result *res, ws_err *err)
{
	return run_side(spec, is_client, fds, nfds, cap_ns, NULL, res, err);
}

int ws_workload_run_interim(const ws_test_spec *spec, const int *fds, uint32_t nfds,
			    const ws_rr_params *crr, struct ws_interim *interim,
			    ws_side_result *res, ws_err *err)
{
	if (ws_test_type_connects(spec->type))
		return crr_side(spec, true, crr, 0, interim, res, err);
	return run_side(spec, true, fds, nfds, 0, interim, res, err);
}

/* Every engine but UDP_STREAM's moves one message per system call, so there the calls
 * netperf counts are the system calls; UDP_STREAM's engines count both themselves. */
static void count_syscalls(const ws_test_spec *spec, ws_side_result *res)
{
	const struct engine *e = engine_of(spec->type);
	if (e && e->own_syscalls)
		return;
	res->send_syscalls = res->send_calls;
	res->recv_syscalls = res->recv_calls;
}

/* -D's last interval ends at a timed test's nominal end (ws_interim_stop). */
static int64_t interim_until(const ws_test_spec *spec, int64_t begin)
{
	return ws_test_spec_deadline(spec, begin);
}

static int run_side(const ws_test_spec *spec, bool is_client, const int *fds, uint32_t nfds,
		    int64_t cap_ns, ws_interim *interim, ws_side_result *res, ws_err *err)
{
	if (!ws_workload_supported(spec->type))
		return ws_err_set(err, WS_E_INVAL, "test %s is not implemented yet",
				  ws_test_type_name(spec->type));
	if (nfds < 1)
		return ws_err_set(err, WS_E_INVAL, "no data socket");
	bool multi = nfds > 1 || spec->streams > 1;
	enum ws_engine engine;
	char engine_note[160];
	int erc = ws_engine_resolve(spec, &engine, engine_note, sizeof(engine_note), err);
	if (erc < 0)
		return erc;
	/* Socket timeouts let blocked calls wake up to check the stall timer. */
	/* With a cap, a finer tick: a blocked call must notice the cap soon after it passed. */
	int rc = multi || spec->rate > 0
		? 0
		: ws_sock_set_timeouts(fds[0], cap_ns ? CAP_TICK_NS : WS_NS_PER_SEC, err);
	enum ws_role role = ws_test_type_role(spec->type, is_client);
	int file_fd = -1;
	if (rc == 0 && role == WS_ROLE_SENDER &&
	    (spec->type == WS_TEST_TCP_SENDFILE || spec->fill_file[0])) {
		/* Opened before the first snapshot, so the temporary file's writing is not charged.
		 * Only the client ever has a -F file: fill_file is not sent to the daemon. */
		file_fd = ws_workload_open_fill(spec, err);
		rc = file_fd < 0 ? file_fd : 0;
	}
	/* netperf's latency outputs on a stream test: each send (MAERTS: receive) call timed */
	bool time_calls =
		is_client && spec->call_latency && !multi && !ws_test_type_transacts(spec->type);
	if (rc == 0 && time_calls) {
		free(res->latency);
		res->latency = malloc(sizeof(*res->latency));
		if (!res->latency)
			rc = ws_err_set(err, ENOMEM, "no memory for the send calls' histogram");
		else
			ws_hist_init(res->latency);
	}
	ws_cpu_snapshot *snap = NULL;
	if (rc == 0)
		rc = cpu_begin(&snap, err);
	/* -D: the interim counters, one per flow, and the reporter over this role's span. */
	ws_interim_counter *prog = ws_interim_flow(interim, 0);
	int64_t begin = ws_clock_ns();
	if (rc == 0)
		rc = ws_interim_begin(interim, begin, ws_clock_wall_ns(), err);
	side_run x = {spec,    is_client, multi, time_calls, role, fds,   nfds,
		      file_fd, cap_ns,    prog,  res,        err,  engine};
	if (rc == 0)
		rc = engine_of(spec->type)->run(&x);
	ws_interim_stop(interim, interim_until(spec, begin));
	count_syscalls(spec, res);
	if (!res->engine[0])
		snprintf(res->engine, sizeof(res->engine), "%s", ws_engine_name(engine));
	if (engine_note[0] && !res->io_note[0])
		snprintf(res->io_note, sizeof(res->io_note), "%.95s", engine_note);
	if (file_fd >= 0)
		close(file_fd);
	/* the workers' time, not the idle main thread's, where workers ran the role */
	/* (one UDP_STREAM flow runs on this thread whatever the engine) */
	bool workers = multi || spec->rate > 0 ||
		(engine == WS_ENGINE_IO_URING && spec->type != WS_TEST_UDP_STREAM);
	rc = cpu_end(spec, is_client, workers, snap, rc, res, err);
	ws_sock_get_buffers(fds[0], &res->sndbuf_end, &res->rcvbuf_end);
	return rc;
}

int ws_workload_run_crr(const ws_test_spec *spec, bool is_client, const ws_rr_params *endpoints,
			int64_t cap_ns, ws_side_result *res, ws_err *err)
{
	return crr_side(spec, is_client, endpoints, cap_ns, NULL, res, err);
}

static int crr_side(const ws_test_spec *spec, bool is_client, const ws_rr_params *endpoints,
		    int64_t cap_ns, ws_interim *interim, ws_side_result *res, ws_err *err)
{
	int cpus[WS_MAX_CPU_LIST];
	int ncpus = thread_cpus(spec, is_client, cpus, err);
	if (ncpus < 0)
		return ncpus;
	enum ws_engine engine;
	int erc = ws_engine_resolve_side(spec, is_client, &engine, err);
	if (erc < 0)
		return erc;
	snprintf(res->engine, sizeof(res->engine), "%s", ws_engine_name(engine));
	ws_rr_params p = *endpoints;
	p.engine = engine;
	p.sqpoll = spec->sqpoll;
	uint32_t threads = is_client ? spec->local_threads : spec->remote_threads;
	p.spec = spec;
	p.is_client = is_client;
	p.udp = false;
	p.fds = NULL;
	p.nfds = 0;
	p.threads = threads < 1 ? 1 : threads > spec->streams ? spec->streams : threads;
	p.cpus = ncpus > 0 ? cpus : NULL;
	p.ncpus = ncpus > 0 ? (uint32_t)ncpus : 0;
	p.end_count = spec->end == WS_END_TRANSACTIONS ? spec->end_count : 0;
	p.stall_ns = WS_STALL_NS;
	p.cap_ns = cap_ns;
	/* -F: the client's requests come from the file (opened before the first snapshot) */
	unsigned char *fill = NULL;
	int rc = 0,
	    file_fd = is_client && spec->fill_file[0] ? ws_workload_open_fill(spec, err) : -1;
	if (file_fd < 0 && is_client && spec->fill_file[0])
		return file_fd;
	rc = load_rr_fill(spec, file_fd, &fill, &p.fill_len, err);
	p.fill = fill;
	if (file_fd >= 0)
		close(file_fd);
	ws_cpu_snapshot *snap = NULL;
	if (rc == 0)
		rc = cpu_begin(&snap, err);
	p.start_ns = ws_clock_ns();
	p.end_ns = p.end_count ? 0 : p.start_ns + ws_test_spec_duration_ns(spec);
	p.progress = ws_interim_flow(interim, 0);
	if (rc == 0)
		rc = ws_interim_begin(interim, p.start_ns, ws_clock_wall_ns(), err);
	if (rc == 0)
		rc = ws_crr_run(&p, res, err);
	ws_interim_stop(interim, interim_until(spec, p.start_ns));
	count_syscalls(spec, res);
	free(fill);
	return cpu_end(spec, is_client, true, snap, rc, res, err);
}
