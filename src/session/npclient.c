/* SPDX-License-Identifier: BSD-2-Clause */
/* npclient: a test against a stock netserver over netperf's protocol; see npclient.h. */
#include "session/npclient.h"

#include "ctl/npmsg.h"
#include "net/sock.h"
#include "session/datasock.h"
#include "session/nplegacy.h"
#include "session/npmap.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/psk.h"
#include "workload/run.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define SEND_TIMEOUT_NS (10 * WS_NS_PER_SEC)
/* netserver answers DO_OMNI at once (on Linux its CPU "calibration" is a constant); the
 * wait is netperf's own bound on a reply, shortened: 20 s. */
#define RESPONSE_TIMEOUT_NS (20 * WS_NS_PER_SEC)
/* The results come when the daemon's side ends: at once for tests the client ends, after
 * netserver's own timer (the test's length + 4 s) for TCP_CRR. Past that, this margin. */
#define RESULTS_MARGIN_NS     (15 * WS_NS_PER_SEC)
#define NETSERVER_TIMER_PAD_S 4
#define CLOSE_WAIT_MS         1000

int ws_np_send_passphrase(int fd, const ws_psk *psk, ws_err *err)
{
	char text[WS_NP_PASSPHRASE_MAX + 1];
	if (psk && !psk->cleartext_ok) /* a stock netserver would get the key file in clear */
		return ws_err_set(err, WS_E_AUTH,
				  "the peer is a stock netserver, which takes its passphrase in "
				  "clear text; the key from %s is never sent in clear (give "
				  "netserver's passphrase with -Z)",
				  psk->origin);
	if (!psk || psk->len > WS_NP_PASSPHRASE_MAX || memchr(psk->key, 0, psk->len))
		return ws_err_set(err, WS_E_PEER,
				  "the key from %s cannot be netperf's -Z passphrase: expected "
				  "text of at most %d bytes without NUL bytes",
				  psk ? psk->origin : "nowhere", WS_NP_PASSPHRASE_MAX);
	memcpy(text, psk->key, psk->len);
	text[psk->len] = 0;
	uint8_t msg[WS_NP_MSG_LEN];
	int rc = ws_np_encode_passphrase(text, msg, err);
	memset(text, 0, sizeof(text));
	if (rc == 0)
		rc = ws_sock_write_all(fd, msg, sizeof(msg), ws_clock_ns() + SEND_TIMEOUT_NS, err);
	memset(msg, 0, sizeof(msg));
	return rc;
}

/* Read one 656-byte message; a close is named as netserver's refusal, which is what a
 * wrong passphrase looks like from here. */
static int read_msg(int fd, uint8_t *msg, int64_t deadline_ns, const char *what, ws_err *err)
{
	int rc = ws_sock_read_exact(fd, msg, WS_NP_MSG_LEN, deadline_ns, err);
	if (rc == -ECONNRESET)
		return ws_err_set(err, ECONNRESET,
				  "the netserver closed the control connection instead of sending "
				  "%s (not a netserver, or a wrong or missing -Z passphrase?)",
				  what);
	if (rc < 0)
		ws_err_prefix(err, "waiting for the netserver's %s", what);
	return rc;
}

/* Where the data go: test option -H's address (numeric, in the control connection's
 * family), else the control peer's. */
static int data_peer(const ws_test_spec *spec, const ws_addr *ctl_peer, ws_addr *out, bool *given,
		     ws_err *err)
{
	*out = *ctl_peer;
	*given = spec->data_host[0] != 0;
	if (!*given)
		return 0;
	int rc = ws_addr_resolve(spec->data_host, 0, ws_addr_family(ctl_peer) == AF_INET6 ? 6 : 4,
				 0, out, err);
	if (rc < 0)
		ws_err_prefix(err, "test option -H");
	return rc;
}

/* DO_OMNI → OMNI response into *remote; returns the data port, or a negative code. */
static int request(int fd, const ws_test_spec *spec, const ws_addr *data, bool data_given,
		   const ws_addr *client, ws_side_result *remote, bool *cpu_echoed, ws_err *err)
{
	ws_np_omni_req req;
	ws_npmap_request(spec, ws_addr_family(data) == AF_INET6 ? 6 : 4, client,
			 data_given ? data : NULL, &req);
	uint8_t msg[WS_NP_MSG_LEN];
	ws_np_encode_omni_req(&req, msg);
	int rc = ws_sock_write_all(fd, msg, sizeof(msg), ws_clock_ns() + SEND_TIMEOUT_NS, err);
	if (rc < 0) {
		ws_err_prefix(err, "sending DO_OMNI to the netserver");
		return rc;
	}
	if ((rc = read_msg(fd, msg, ws_clock_ns() + RESPONSE_TIMEOUT_NS, "OMNI response", err)) < 0)
		return rc;
	ws_np_omni_rsp rsp;
	if ((rc = ws_np_decode_omni_rsp(msg, &rsp, err)) < 0 ||
	    (rc = ws_npmap_response(&rsp, spec, remote, err)) < 0)
		return rc;
	*cpu_echoed = spec->remote.measure_cpu && (rsp.flags & WS_NP_F_MEASURE_CPU);
	return (int)rsp.data_port;
}

static int64_t results_deadline(const ws_test_spec *spec)
{
	int64_t wait = RESULTS_MARGIN_NS;
	if (ws_test_type_connects(spec->type) && spec->end == WS_END_TIME)
		wait += (int64_t)((spec->duration_s + NETSERVER_TIMER_PAD_S) * WS_NS_PER_SEC);
	return ws_clock_ns() + wait;
}

static int read_results(int fd, const ws_test_spec *spec, bool cpu_echoed, ws_side_result *remote,
			ws_err *err)
{
	if (ws_nplegacy_handles(spec->type))
		return ws_nplegacy_results(fd, spec, cpu_echoed, results_deadline(spec), remote,
					   err);
	uint8_t msg[WS_NP_MSG_LEN];
	int rc = read_msg(fd, msg, results_deadline(spec), "omni results", err);
	ws_np_omni_results res;
	if (rc == 0)
		rc = ws_np_decode_omni_results(msg, &res, err);
	if (rc == 0)
		rc = ws_npmap_results(&res, spec, cpu_echoed, remote, err);
	return rc;
}

/* One flow's netserver child: its control connection, its data socket, its view. */
struct np_flow {
	int ctl, fd;
	bool cpu_echoed;
	ws_side_result remote;
};

/* Before the measured interval, every flow: DO_OMNI, the response, the data connection
 * (UDP: the sockets were bound before, so that each request names its port), or for
 * TCP_CRR the endpoints of its connections in *crr. */
static int setup_flows(const ws_client_config *c, const ws_test_spec *spec, const ws_addr *data_in,
		       bool data_given, struct np_flow *fl, ws_test_result *out, ws_rr_params *crr,
		       ws_err *err)
{
	bool udp = ws_test_type_udp(spec->type);
	for (uint32_t i = 0; i < spec->streams; i++) {
		ws_addr client, data = *data_in;
		if (udp)
			ws_sock_local_addr(fl[i].fd, &client);
		int rc = ws_nplegacy_handles(spec->type)
			? ws_nplegacy_request(fl[i].ctl, spec,
					      ws_addr_family(&data) == AF_INET6 ? 6 : 4,
					      &fl[i].remote, &fl[i].cpu_echoed, err)
			: request(fl[i].ctl, spec, &data, data_given, udp ? &client : NULL,
				  &fl[i].remote, &fl[i].cpu_echoed, err);
		if (rc < 0)
			return rc;
		ws_addr_set_port(&data, (uint16_t)rc);
		if (udp)
			rc = ws_sock_udp_connect(fl[i].fd, &data, err);
		else if (ws_test_type_connects(spec->type))
			rc = ws_ds_crr_endpoints(c, spec, &data, out, crr, err);
		else
			rc = fl[i].fd = ws_ds_connect_tcp(c, spec, &data, i, out, err);
		if (rc < 0)
			return rc;
	}
	out->remote = fl[0].remote; /* the setup sizes, for the banner and -v 2 */
	return 0;
}

/* After the data phase: every flow's results, merged into the remote side. */
static int collect(const ws_test_spec *spec, struct np_flow *fl, ws_side_result *remote,
		   ws_err *err)
{
	uint32_t n = spec->streams;
	if (n > 1 && !(remote->flows = calloc(n, sizeof(*remote->flows))))
		return ws_err_set(err, ENOMEM, "no memory for %u flow results", n);
	remote->nflows = n > 1 ? n : 0;
	for (uint32_t i = 0; i < n; i++) {
		int rc = read_results(fl[i].ctl, spec, fl[i].cpu_echoed, &fl[i].remote, err);
		if (rc < 0) {
			if (n > 1)
				ws_err_prefix(err, "flow %u of %u", i + 1, n);
			return rc;
		}
		ws_npmap_merge(remote, &fl[i].remote, spec, i);
	}
	return 0;
}

int ws_np_run_test(const ws_client_config *c, const int *ctl, const ws_addr *ctl_peer,
		   const ws_test_spec *spec_in, ws_test_result *out, ws_err *err)
{
	int rc = ws_npmap_check(spec_in, err);
	if (rc < 0)
		return rc;
	ws_test_spec spec = *spec_in;
	spec.netperf_peer = true;
	out->spec.netperf_peer = true;
	/* Issue 32's options run on this side only: netserver knows neither. */
	if (spec.busy_poll && c->note)
		c->note(c->note_ctx,
			"--busy-poll: a stock netserver neither spins nor sets "
			"SO_BUSY_POLL; only this client busy-polls");
	if (spec.mptcp && c->note)
		c->note(c->note_ctx,
			"--mptcp: a stock netserver listens on plain TCP, so the "
			"client's MPTCP connection falls back to TCP");
	if (spec.type == WS_TEST_REM_CPU) /* no data: one message and its reply */
		return ws_nplegacy_calibrate(ctl[0], &out->remote, err);
	ws_addr data;
	bool data_given;
	if ((rc = data_peer(&spec, ctl_peer, &data, &data_given, err)) < 0)
		return rc;
	uint32_t n = spec.streams;
	struct np_flow *fl = calloc(n, sizeof(*fl));
	int *fds = calloc(n, sizeof(*fds));
	uint16_t *ports = calloc(n, sizeof(*ports));
	if (!fl || !fds || !ports)
		rc = ws_err_set(err, ENOMEM, "no memory for %u flows", n);
	for (uint32_t i = 0; rc == 0 && i < n; i++) {
		fl[i].ctl = ctl[i];
		fl[i].fd = fds[i] = -1;
	}
	if (rc == 0 && ws_test_type_udp(spec.type) &&
	    (rc = ws_ds_open_udp(c, &spec, &data, out, fds, ports, err)) == 0)
		for (uint32_t i = 0; i < n; i++)
			fl[i].fd = fds[i];
	ws_rr_params crr;
	if (rc == 0)
		rc = setup_flows(c, &spec, &data, data_given, fl, out, &crr, err);
	for (uint32_t i = 0; fl && fds && i < n; i++)
		fds[i] = fl[i].fd;
	if (rc == 0 && c->on_start)
		c->on_start(c->start_ctx, out);
	if (rc == 0 && c->start_wait_s > 0)
		ws_clock_sleep_ns((int64_t)(c->start_wait_s * WS_NS_PER_SEC));
	if (rc == 0)
		rc = ws_workload_run_interim(&spec, fds, n, &crr, c->interim, &out->local, err);
	if (fds)
		ws_ds_close_all(fds, n);
	if (rc == 0)
		rc = collect(&spec, fl, &out->remote, err);
	free(fl);
	free(fds);
	free(ports);
	return rc;
}

void ws_np_close(int fd)
{
	if (fd < 0)
		return;
	shutdown(fd, SHUT_WR);
	struct pollfd p = {.fd = fd, .events = POLLIN};
	int64_t end = ws_clock_ns() + CLOSE_WAIT_MS * WS_NS_PER_MS;
	char sink[WS_NP_MSG_LEN];
	while (ws_clock_ns() < end &&
	       poll(&p, 1, (int)((end - ws_clock_ns()) / WS_NS_PER_MS) + 1) > 0)
		if (recv(fd, sink, sizeof(sink), MSG_DONTWAIT) <= 0)
			break;
	close(fd);
}
