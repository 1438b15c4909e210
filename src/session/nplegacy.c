/* SPDX-License-Identifier: BSD-2-Clause */
/* nplegacy: netperf 2.7.0's unmigrated exchanges, the client's side; see nplegacy.h. */
#include "session/nplegacy.h"

#include "ctl/npmsg.h"
#include "net/sock.h"
#include "session/npmap.h"
#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define SEND_TIMEOUT_NS (10 * WS_NS_PER_SEC)
/* netperf allows CPU_CALIBRATE 40 s more than a reply's usual wait; on Linux netserver
 * answers both at once, so 20 s is plenty. */
#define REPLY_TIMEOUT_NS (20 * WS_NS_PER_SEC)

bool ws_nplegacy_handles(enum ws_test_type t) { return ws_test_type_dataless(t); }

static int exchange(int fd, uint8_t *msg, bool send, int64_t deadline, const char *what,
		    ws_err *err)
{
	int rc = send
		? ws_sock_write_all(fd, msg, WS_NP_MSG_LEN, ws_clock_ns() + SEND_TIMEOUT_NS, err)
		: 0;
	if (rc == 0)
		rc = ws_sock_read_exact(fd, msg, WS_NP_MSG_LEN, deadline, err);
	if (rc == -ECONNRESET)
		return ws_err_set(
			err, ECONNRESET,
			"the netserver closed the control connection instead of sending %s", what);
	if (rc < 0)
		ws_err_prefix(err, "waiting for the netserver's %s", what);
	return rc;
}

int ws_nplegacy_calibrate(int fd, ws_side_result *remote, ws_err *err)
{
	uint8_t msg[WS_NP_MSG_LEN];
	/* the request is a header alone: type and word 1 (-1, no CPU to pin to), the same
	 * bytes as an error reply's */
	ws_np_encode_error(WS_NP_CPU_CALIBRATE, -1, msg);
	int rc = exchange(fd, msg, true, ws_clock_ns() + REPLY_TIMEOUT_NS, "CPU_CALIBRATE reply",
			  err);
	float rate;
	int32_t n;
	/* netserver never sets serv_errno here, nor clears it: word 1 holds what an earlier
	 * reply left (998, swapped twice, after --peer auto's probe) */
	if (rc == 0 && ws_np_type(msg) == WS_NP_CPU_CALIBRATE)
		memset(msg + 4, 0, 4);
	if (rc == 0)
		rc = ws_np_decode_calibrate_reply(msg, &rate, &n, err);
	if (rc < 0)
		return rc;
	remote->cpu_rate = rate;
	remote->ncpus = (uint32_t)n;
	return 0;
}

static int32_t size_or_default(uint32_t v) { return v && v <= INT32_MAX ? (int32_t)v : -1; }

/* netperf 2.7.0's legacy test length: seconds, or the count itself (CC: negated). */
static int32_t length(const ws_test_spec *s, bool negate_count)
{
	if (s->end != WS_END_TIME) {
		int32_t n = s->end_count > INT32_MAX ? INT32_MAX : (int32_t)s->end_count;
		return negate_count ? -n : n;
	}
	double len = ceil(s->duration_s);
	return len < 1 ? 1 : len > INT32_MAX ? INT32_MAX : (int32_t)len;
}

static int refused(int32_t serv_errno, const char *test, ws_err *err)
{
	return ws_err_set(err, WS_E_REMOTE, "the netserver refused %s: its error %d (%s)", test,
			  (int)serv_errno,
			  serv_errno > 0 && serv_errno < 4096 ? strerror(serv_errno)
							      : "not an errno");
}

static int check_port(uint32_t port, ws_err *err)
{
	if (port == 0 || port > 65535)
		return ws_err_set(
			err, WS_E_PROTO,
			"the netserver's response names data port %u; expected 1 to 65535",
			(unsigned)port);
	return (int)port;
}

int ws_nplegacy_request(int fd, const ws_test_spec *s, int family, ws_side_result *remote,
			bool *cpu_echoed, ws_err *err)
{
	uint8_t msg[WS_NP_MSG_LEN];
	int32_t cpu = s->remote.cpu >= 0 ? s->remote.cpu : -1;
	uint32_t nf = family == 6 ? 6 : 4;
	if (s->type == WS_TEST_TCP_MSS) {
		ws_np_stream_req q = {
			.cpu = cpu,
			.send_buf_size = size_or_default(s->remote.sndbuf),
			.recv_buf_size = size_or_default(s->remote.rcvbuf),
			.receive_size = (int32_t)s->recv_size, /* 0: default */
			.recv_alignment = 8,
			.no_delay = s->nodelay,
			.measure_cpu = s->remote.measure_cpu,
			.test_length = length(s, false),
			.so_rcvavoid = -1,
			.so_sndavoid = -1,
			.data_port = s->remote.data_port,
			.ipfamily = nf,
		};
		ws_np_encode_stream_req(&q, msg);
	} else {
		/* clang-format off */
		ws_np_cc_req q = {
			.cpu = cpu, .recv_buf_size = size_or_default(s->remote.rcvbuf),
			.send_buf_size = size_or_default(s->remote.sndbuf), .recv_alignment = 8, .send_alignment = 8,
			.request_size = size_or_default(s->req_size), .response_size = size_or_default(s->rsp_size),
			.no_delay = s->nodelay, .measure_cpu = s->remote.measure_cpu, .test_length = length(s, true),
			.so_rcvavoid = -1, .so_sndavoid = -1, .data_port = s->remote.data_port, .ipfamily = nf,
		};
		/* clang-format on */
		ws_np_encode_cc_req(&q, msg);
	}
	const char *test = ws_test_type_name(s->type);
	int rc = exchange(fd, msg, true, ws_clock_ns() + REPLY_TIMEOUT_NS, "response", err);
	int32_t serv_errno = 0, rcv = 0, snd = 0, measured = 0;
	uint32_t port = 0;
	if (rc == 0 && s->type == WS_TEST_TCP_MSS) {
		ws_np_stream_rsp r;
		rc = ws_np_decode_stream_rsp(msg, &r, err);
		serv_errno = r.serv_errno, rcv = r.recv_buf_size, snd = r.send_buf_size;
		measured = r.measure_cpu, port = r.data_port;
	} else if (rc == 0) {
		ws_np_cc_rsp r;
		rc = ws_np_decode_cc_rsp(msg, &r, err);
		serv_errno = r.serv_errno, rcv = r.recv_buf_size, snd = r.send_buf_size;
		measured = r.measure_cpu, port = r.data_port;
	}
	if (rc < 0)
		return rc;
	if (serv_errno != 0)
		return refused(serv_errno, test, err);
	remote->sndbuf_req = s->remote.sndbuf;
	remote->rcvbuf_req = s->remote.rcvbuf;
	remote->rcvbuf_set = rcv > 0 ? (uint32_t)rcv : 0;
	remote->sndbuf_set = snd > 0 ? (uint32_t)snd : 0;
	remote->cpu_bound_to = s->remote.cpu;
	remote->sd_local_basis = true;
	remote->tos_set = remote->priority_set = -1;
	*cpu_echoed = s->remote.measure_cpu && measured;
	return check_port(port, err);
}

int ws_nplegacy_results(int fd, const ws_test_spec *s, bool cpu_echoed, int64_t deadline_ns,
			ws_side_result *remote, ws_err *err)
{
	uint8_t msg[WS_NP_MSG_LEN];
	int rc = exchange(fd, msg, false, deadline_ns, "results", err);
	if (rc < 0)
		return rc;
	int32_t serv_errno = ws_np_word1(msg);
	if (serv_errno != 0)
		return refused(serv_errno, ws_test_type_name(s->type), err);
	float el = 0, util = 0;
	uint32_t method = 0, ncpus = 0;
	if (s->type == WS_TEST_TCP_MSS) {
		ws_np_stream_results r;
		if ((rc = ws_np_decode_stream_results(msg, &r, err)) < 0)
			return rc;
		remote->bytes_recv = (uint64_t)r.bytes_received;
		remote->recv_calls = r.recv_calls;
		el = r.elapsed_time, util = r.cpu_util, method = r.cpu_method, ncpus = r.num_cpus;
	} else {
		ws_np_cc_results r;
		ws_np_decode_cc_results(msg, &r);
		remote->transactions = remote->connects = r.trans_received;
		el = r.elapsed_time, util = r.cpu_util, method = r.cpu_method, ncpus = r.num_cpus;
	}
	remote->elapsed_ns = isfinite(el) && el > 0 && el <= 1e7 ? (int64_t)((double)el * 1e9) : 0;
	remote->cpu_measured = false;
	remote->cpu_util = remote->cpu_user = remote->cpu_system = remote->cpu_softirq = -1.0;
	remote->cpu_method = ws_npmap_cpu_method(method);
	/* netserver's TCP_CC divides the CPU time of its padded interval by the unpadded one
	 * (a 1 s test reads about 500 %): a figure past 100 % is reported as not measured */
	if (cpu_echoed && isfinite(util) && util >= 0.0f && util <= 100.5f && ncpus >= 1 &&
	    ncpus <= 65536) {
		remote->cpu_measured = true;
		remote->cpu_util = util > 100.0f ? 100.0 : (double)util;
		remote->ncpus = ncpus;
	}
	return 0;
}
