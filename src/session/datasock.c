/* SPDX-License-Identifier: BSD-2-Clause */
/* datasock: the client's data sockets for either control protocol; see datasock.h. */
#include "session/datasock.h"

#include "net/mptcp.h"
#include "net/sock.h"
#include "net/sockopt.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/run.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* The local data address: test option -L, else -L, and test option -P, or the wildcard of
 * the peer's family. */
int ws_ds_local_addr(const ws_client_config *c, const ws_test_spec *spec, const ws_addr *peer,
		     ws_addr *local, ws_err *err)
{
	const char *host = spec->data_local[0] ? spec->data_local : c->local_host;
	return ws_addr_resolve(host, spec->local.data_port,
			       ws_addr_family(peer) == AF_INET6 ? 6 : 4, 1, local, err);
}

/* The harness options on a client data socket before it connects (TCP_MAXSEG must be set
 * before the SYN); what took effect is read back after the connect. */
static int prep_data_socket(int fd, void *ctx, ws_err *err)
{
	ws_sockopt_req r;
	ws_workload_sockopts(ctx, true, &r);
	int rc = ws_sockopt_apply(fd, &r, NULL, err);
	if (rc < 0)
		ws_err_prefix(err, "local data socket");
	return rc;
}

/* Record what the first data socket carries, for the -v 2 line. */
static void record_sockopts(int fd, const ws_test_spec *spec, ws_side_result *res)
{
	ws_sockopt_req r;
	ws_sockopt_applied a;
	ws_workload_sockopts(spec, true, &r);
	ws_sockopt_read(fd, &r, &a);
	res->tos_set = a.tos;
	res->priority_set = a.priority;
	memcpy(res->cong_set, a.cong, sizeof(res->cong_set));
	res->maxseg_set = a.maxseg;
	res->keepalive_set = a.keepalive;
	res->cork_set = a.cork;
}

void ws_ds_close_all(int *fds, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
}

/* UDP: the client's sockets exist before TEST_REQ so that the daemon can connect its own
 * to them; each pair then accepts datagrams only from each other. One socket per flow,
 * on -P's port + flow index when -P was given. */
int ws_ds_open_udp(const ws_client_config *c, const ws_test_spec *spec, const ws_addr *peer,
		   ws_test_result *out, int *fds, uint16_t *ports, ws_err *err)
{
	uint32_t snd, rcv;
	int force;
	ws_workload_buffers(spec, true, &snd, &rcv, &force);
	for (uint32_t i = 0; i < spec->streams; i++) {
		ws_test_spec one = *spec;
		if (spec->local.data_port)
			one.local.data_port = (uint16_t)(spec->local.data_port + i);
		ws_addr local, bound;
		int rc = ws_ds_local_addr(c, &one, peer, &local, err);
		int fd = rc < 0
			? rc
			: ws_sock_udp(&local, snd, rcv, force, i ? NULL : &out->local.sndbuf_set,
				      i ? NULL : &out->local.rcvbuf_set, NULL, err);
		if (fd >= 0) {
			ws_sockopt_req r;
			ws_workload_sockopts(spec, true, &r);
			rc = ws_sockopt_apply(fd, &r, NULL, err);
			if (rc < 0) {
				ws_err_prefix(err, "local data socket");
				close(fd);
				fd = rc;
			} else if (i == 0) {
				record_sockopts(fd, spec, &out->local);
			}
		}
		if (fd < 0) {
			ws_ds_close_all(fds, i);
			return fd;
		}
		fds[i] = fd;
		ws_sock_local_addr(fd, &bound);
		ports[i] = ws_addr_port(&bound);
	}
	return 0;
}

int ws_ds_connect_tcp(const ws_client_config *c, const ws_test_spec *spec, const ws_addr *data,
		      uint32_t index, ws_test_result *out, ws_err *err)
{
	ws_addr local, *lp = NULL;
	if (c->local_host || spec->local.data_port || spec->data_local[0]) {
		ws_test_spec one = *spec;
		if (spec->local.data_port) /* one port per flow: -P is the first */
			one.local.data_port = (uint16_t)(spec->local.data_port + index);
		int rc = ws_ds_local_addr(c, &one, data, &local, err);
		if (rc < 0)
			return rc;
		lp = &local;
	}
	uint32_t snd, rcv, snd_set, rcv_set;
	int force;
	ws_workload_buffers(spec, true, &snd, &rcv, &force);
	int fd = ws_sock_connect_prep(data, lp, snd, rcv, &snd_set, &rcv_set,
				      ws_clock_ns() + c->connect_timeout_ns, prep_data_socket,
				      (void *)spec, ws_mptcp_proto(spec->mptcp), err);
	if (fd < 0) {
		ws_err_prefix(err, "data connection %u of %u", index + 1, spec->streams);
		return fd;
	}
	if (index == 0) {
		out->local.sndbuf_set = snd_set;
		out->local.rcvbuf_set = rcv_set;
		record_sockopts(fd, spec, &out->local);
	}
	if (spec->nodelay)
		ws_sock_set_nodelay(fd, 1, NULL);
	return fd;
}

/* TCP_CRR makes its connections during the test: the setup only says where they go
 * (the data port of TEST_ACK) and from where (-L, -P lport), and records the socket sizes
 * that -s/-S give each of them, from a socket that is never connected. */
int ws_ds_crr_endpoints(const ws_client_config *c, const ws_test_spec *spec, const ws_addr *data,
			ws_test_result *out, ws_rr_params *ep, ws_err *err)
{
	memset(ep, 0, sizeof(*ep));
	ep->listen_fd = -1;
	ep->wake_fd = -1;
	ep->remote = *data;
	if (c->local_host || spec->local.data_port || spec->data_local[0]) {
		int rc = ws_ds_local_addr(c, spec, data, &ep->local, err);
		if (rc < 0)
			return rc;
		ep->bind_local = true;
		ep->local_port_max = spec->local_port_max;
	}
	uint32_t snd, rcv;
	int force;
	ws_workload_buffers(spec, true, &snd, &rcv, &force);
	int fd =
		socket(data->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, ws_mptcp_proto(spec->mptcp));
	if (fd < 0)
		return ws_err_errno(err, "socket for the TCP_CRR connections");
	int rc = ws_sock_set_buffers(fd, snd, rcv, err);
	ws_sock_get_buffers(fd, &out->local.sndbuf_set, &out->local.rcvbuf_set);
	close(fd);
	return rc;
}
