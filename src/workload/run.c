/* run: the role registry and the CPU-bracketed side runner; see run.h. */
#include "workload/run.h"

#include "measure/cpu.h"
#include "net/sock.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* How long a data connection may sit without moving a byte before a side gives up. */
#define WS_STALL_NS (10 * WS_NS_PER_SEC)

static const struct {
	enum ws_test_type type;
	enum ws_role client_role;
} registry[] = {
	{WS_TEST_TCP_STREAM, WS_ROLE_SENDER},
	{WS_TEST_TCP_MAERTS, WS_ROLE_RECEIVER},
};

bool ws_workload_supported(enum ws_test_type t)
{
	for (size_t i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
		if (registry[i].type == t)
			return true;
	return false;
}

enum ws_role ws_workload_role(enum ws_test_type t, bool is_client)
{
	enum ws_role r = WS_ROLE_SENDER;
	for (size_t i = 0; i < sizeof(registry) / sizeof(registry[0]); i++)
		if (registry[i].type == t)
			r = registry[i].client_role;
	if (is_client)
		return r;
	return r == WS_ROLE_SENDER ? WS_ROLE_RECEIVER : WS_ROLE_SENDER;
}

static int run_stream(const ws_test_spec *spec, enum ws_role role, int fd, ws_side_result *res,
		      ws_err *err)
{
	ws_stream_params p = {
		.fd = fd,
		/* netperf's defaults: send the send buffer's size, receive the receive buffer's */
		.send_size = spec->send_size ? spec->send_size : res->sndbuf_set,
		.recv_size = spec->recv_size ? spec->recv_size : res->rcvbuf_set,
		.end = spec->end == WS_END_BYTES ? WS_END_BYTES : WS_END_TIME,
		.duration_ns = (int64_t)(spec->duration_s * WS_NS_PER_SEC),
		.byte_limit = spec->end_count,
		.stall_ns = WS_STALL_NS,
	};
	ws_stream_counts c;
	int rc = role == WS_ROLE_SENDER ? ws_stream_send(&p, &c, err) : ws_stream_recv(&p, &c, err);
	res->send_size = role == WS_ROLE_SENDER ? (p.send_size ? p.send_size : 16384) : 0;
	res->recv_size = p.recv_size ? p.recv_size : 131072;
	res->bytes_sent = c.bytes_sent;
	res->bytes_recv = c.bytes_recv;
	res->send_calls = c.send_calls;
	res->recv_calls = c.recv_calls;
	res->elapsed_ns = c.elapsed_ns;
	return rc;
}

int ws_workload_run(const ws_test_spec *spec, bool is_client, int data_fd, ws_side_result *res,
		    ws_err *err)
{
	if (!ws_workload_supported(spec->type))
		return ws_err_set(err, WS_E_INVAL, "test %s is not implemented yet",
				  ws_test_type_name(spec->type));
	const ws_side_spec *me = is_client ? &spec->local : &spec->remote;
	ws_cpu_snapshot *snap = malloc(2 * sizeof(*snap));
	if (!snap)
		return ws_err_set(err, ENOMEM, "no memory for CPU snapshots");
	/* Socket timeouts let blocked calls wake up to check the stall timer. */
	int rc = ws_sock_set_timeouts(data_fd, WS_NS_PER_SEC, err);
	if (rc == 0)
		rc = ws_cpu_snapshot_take(&snap[0], err);
	if (rc == 0)
		rc = run_stream(spec, ws_workload_role(spec->type, is_client), data_fd, res, err);
	if (rc == 0)
		rc = ws_cpu_snapshot_take(&snap[1], err);
	if (rc == 0) {
		rc = ws_cpu_fill_side(res, &snap[0], &snap[1], err);
		if (!me->measure_cpu) {
			/* The system-wide figure was not asked for; thread times are always kept. */
			res->cpu_measured = false;
			res->cpu_util = res->cpu_user = res->cpu_system = res->cpu_softirq = -1.0;
		}
	}
	ws_sock_get_buffers(data_fd, &res->sndbuf_end, &res->rcvbuf_end);
	ws_cpu_identify_host(res);
	free(snap);
	return rc;
}
