/* SPDX-License-Identifier: BSD-2-Clause */
/* client: the client half of a test session; see client.h. */
#include "session/client.h"
#include "util/version.h"

#include "ctl/channel.h"
#include "ctl/msg.h"
#include "net/addr.h"
#include "net/sock.h"
#include "net/sockopt.h"
#include "session/auth.h"
#include "session/datasock.h"
#include "session/echoports.h"
#include "session/npclient.h"
#include "session/npmap.h"
#include "session/probe.h"
#include "util/affinity.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/text.h"
#include "workload/lul_client.h"
#include "workload/run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <warpspeed/version.h>

#define MAX_ADDRS      8
#define CTL_TIMEOUT_NS (10 * WS_NS_PER_SEC)
/* The daemon's own stall timer is 10 s; the result must arrive after that at the latest. */
#define RESULT_GRACE_NS (15 * WS_NS_PER_SEC)
/* When this side has already failed, the daemon's account is worth only a short wait: a
 * daemon that is alive ends its role as soon as the data connections close. */
#define FAILED_RESULT_GRACE_NS (2 * WS_NS_PER_SEC)

void ws_client_config_init(ws_client_config *c)
{
	memset(c, 0, sizeof(*c));
	c->host = "localhost";
	c->port = WS_DEFAULT_CTL_PORT;
	c->connect_timeout_ns = 5 * WS_NS_PER_SEC;
	c->hello_timeout_ns = 3 * WS_NS_PER_SEC;
}

/* *connect_ns (may be NULL): how long the successful connect took, the round trip that
 * sizes --peer auto's wait (name resolution and failed addresses not counted). */
static int connect_control(const ws_client_config *c, int family, ws_addr *used,
			   int64_t *connect_ns, ws_err *err)
{
	ws_addr addrs[MAX_ADDRS], local, *lp = NULL;
	int n = ws_addr_resolve_all(c->host, c->port, family, addrs, MAX_ADDRS, err);
	if (n < 0)
		return n;
	int rc = -ECONNREFUSED;
	for (int i = 0; i < n; i++) {
		if (c->local_host || c->local_port) {
			rc = ws_addr_resolve(c->local_host, c->local_port,
					     ws_addr_family(&addrs[i]) == AF_INET6 ? 6 : 4, 1,
					     &local, err);
			if (rc < 0)
				return rc;
			lp = &local;
		}
		int64_t t0 = ws_clock_ns();
		rc = ws_sock_connect(&addrs[i], lp, 0, 0, NULL, NULL, t0 + c->connect_timeout_ns,
				     err);
		if (rc >= 0) {
			*used = addrs[i];
			if (connect_ns)
				*connect_ns = ws_clock_ns() - t0;
			return rc;
		}
	}
	return rc;
}

/* Turn what a foreign or silent peer did into one sentence that says so. */
static int not_a_daemon(int rc, const char *where, const ws_client_config *c, ws_err *err)
{
	char detail[WS_ERR_MSG_MAX];
	snprintf(detail, sizeof(detail), "%s", err ? err->msg : "");
	if (rc == -WS_E_NOTWS)
		return ws_err_set(err, WS_E_NOTWS, "%s is not a warpspeed daemon: %s", where,
				  detail);
	if (rc == -WS_E_TIMEDOUT)
		return ws_err_set(
			err, WS_E_NOTWS,
			"%s is not a warpspeed daemon: it accepted the connection but did not "
			"answer within %.0f s (a netserver or another silent service?)",
			where, (double)c->hello_timeout_ns / WS_NS_PER_SEC);
	if (rc == -ECONNRESET || rc == -EPIPE)
		return ws_err_set(
			err, WS_E_NOTWS,
			"%s is not a warpspeed daemon: it closed the connection without answering",
			where);
	ws_err_prefix(err, "%s", where);
	return rc;
}

/* HELLO, and with probe_ns > 0 (--peer auto) the probe of a silent peer (session/probe.h):
 * *found says what answered; anything but WS_PROBE_WARPSPEED returns 0 at once and leaves
 * the connection to the caller. */
static int do_hello(ws_channel *ch, const char *where, const ws_client_config *c, int64_t probe_ns,
		    enum ws_probe_found *found, ws_test_result *out, ws_err *err)
{
	*found = WS_PROBE_WARPSPEED;
	uint8_t nc[WS_NONCE_LEN];
	int rc = ws_random_bytes(nc, sizeof(nc), err);
	if (rc < 0)
		return rc;
	ws_tlv_begin(&ch->tx, WS_MSG_HELLO);
	ws_tlv_put_u64(&ch->tx, WS_F_PROTO, WARPSPEED_CTL_PROTOCOL);
	ws_tlv_put_str(&ch->tx, WS_F_SOFTWARE, ws_version_software());
	ws_tlv_put_bytes(&ch->tx, WS_F_NONCE, nc, sizeof(nc));
	rc = ws_channel_send(ch, ws_clock_ns() + CTL_TIMEOUT_NS, err);
	if (rc < 0)
		return not_a_daemon(rc, where, c, err);
	ws_tlv_msg m;
	int64_t deadline = ws_clock_ns() + c->hello_timeout_ns;
	if (probe_ns > 0 &&
	    (rc = ws_probe_peer(ch->fd, ch->tx.len, probe_ns, deadline, found, err)) < 0) {
		if (rc != -WS_E_TIMEDOUT && rc != -WS_E_NOTWS)
			return not_a_daemon(rc, where, c, err);
		char detail[WS_ERR_MSG_MAX];
		snprintf(detail, sizeof(detail), "%s", err ? err->msg : "");
		return ws_err_set(err, WS_E_NOTWS,
				  "%s is not a warpspeed daemon, nor a netserver: %s", where,
				  detail);
	}
	if (*found != WS_PROBE_WARPSPEED)
		return 0;
	rc = ws_channel_recv(ch, &m, deadline, err);
	if (rc < 0)
		return not_a_daemon(rc, where, c, err);
	bool challenged = false;
	if ((rc = ws_auth_client(ch, c->psk, nc, where, deadline, &m, &challenged, err)) < 0)
		return rc;
	if (m.type != WS_MSG_HELLO_ACK)
		return ws_err_set(err, WS_E_PROTO, "%s answered HELLO with %s", where,
				  ws_msg_type_name(m.type));
	/* For the JSON report only; a missing or overlong string leaves it "". */
	if (ws_tlv_get_str(&m, WS_F_SOFTWARE, out->peer_software, sizeof(out->peer_software)) < 0)
		out->peer_software[0] = 0;
	ws_text_clean(out->peer_software, true);
	/* A daemon that asks for no key proves none: anyone could be answering. A key file's
	 * key is refused such a daemon; netperf's -Z, a cleartext secret that never proved a
	 * server in netperf either, runs as netperf runs it (the note below says so). */
	if (c->psk && !c->psk->cleartext_ok && !challenged && !c->allow_unauthenticated)
		return ws_err_set(
			err, WS_E_AUTH,
			"%s did not ask for the key from %s, so it did not prove that it holds it; "
			"refusing to run a test with it (--allow-unauthenticated runs it anyway)",
			where, c->psk->origin);
	if (c->psk && !challenged && c->note) {
		char t[400];
		snprintf(t, sizeof(t),
			 "%s did not ask for authentication; the key from %s was not used", where,
			 c->psk->origin);
		c->note(c->note_ctx, t);
	}
	return 0;
}

/* Expect a message of one type; an ERROR becomes the daemon's own sentence. */
static int expect(ws_channel *ch, uint8_t type, int64_t deadline, ws_tlv_msg *m, ws_err *err)
{
	int rc = ws_channel_recv(ch, m, deadline, err);
	if (rc < 0) {
		ws_err_prefix(err, "waiting for %s from the daemon", ws_msg_type_name(type));
		return rc;
	}
	if (m->type == WS_MSG_ERROR)
		return ws_msg_error_to_err(m, "the daemon reported", err);
	if (m->type != type)
		return ws_err_set(err, WS_E_PROTO, "expected %s from the daemon, got %s",
				  ws_msg_type_name(type), ws_msg_type_name(m->type));
	return 0;
}

/* TCP: connect flow `index` and present the cookie and the index, all before the
 * measured interval. */
static int connect_tcp(const ws_client_config *c, const ws_test_spec *spec, const ws_addr *data,
		       const uint8_t *cookie, uint32_t index, ws_test_result *out, ws_err *err)
{
	int fd = ws_ds_connect_tcp(c, spec, data, index, out, err);
	if (fd < 0)
		return fd;
	uint8_t hello[WS_COOKIE_LEN + 4];
	memcpy(hello, cookie, WS_COOKIE_LEN);
	ws_put_be32(hello + WS_COOKIE_LEN, index);
	int rc = ws_sock_write_all(fd, hello, sizeof(hello), ws_clock_ns() + CTL_TIMEOUT_NS, err);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

/* UDP: connect flow i's socket to the daemon's port i, from TEST_ACK. */
static int connect_udp(const ws_test_spec *spec, const ws_tlv_msg *ack, const ws_addr *ctl_peer,
		       int *fds, ws_err *err)
{
	uint16_t *ports = calloc(spec->streams, sizeof(*ports));
	if (!ports)
		return ws_err_set(err, ENOMEM, "no memory for %u ports", spec->streams);
	int n = ws_msg_get_ports(ack, WS_F_DATA_PORT, ports, spec->streams);
	int rc = n == (int)spec->streams
		? 0
		: ws_err_set(err, WS_E_PROTO,
			     "the daemon's TEST_ACK has %d UDP ports for %u streams", n,
			     spec->streams);
	for (uint32_t i = 0; rc == 0 && i < spec->streams; i++) {
		ws_addr data = *ctl_peer;
		ws_addr_set_port(&data, ports[i]);
		rc = ws_sock_udp_connect(fds[i], &data, err);
	}
	free(ports);
	return rc;
}

/* TEST_REQ → TEST_ACK, then the data sockets, fds[0..spec->streams), or for TCP_CRR the
 * endpoints of its connections in *crr. The data go to the control peer's address, or to
 * test option -H's. */
static int setup_data(ws_channel *ch, const ws_test_spec *spec, const ws_addr *ctl_addr,
		      const ws_client_config *c, ws_test_result *out, int *fds, ws_rr_params *crr,
		      ws_lul_echo *echo, ws_err *err)
{
	ws_addr data_peer = *ctl_addr;
	const ws_addr *ctl_peer = &data_peer;
	if (spec->data_host[0]) {
		int drc = ws_addr_resolve(spec->data_host, 0,
					  ws_addr_family(ctl_addr) == AF_INET6 ? 6 : 4, 0,
					  &data_peer, err);
		if (drc < 0)
			return drc;
	}
	bool udp = ws_test_type_udp(spec->type);
	ws_tlv_begin(&ch->tx, WS_MSG_TEST_REQ);
	ws_msg_put_spec(&ch->tx, spec);
	if (udp) {
		uint16_t *ports = calloc(spec->streams, sizeof(*ports));
		int rc = ports ? ws_ds_open_udp(c, spec, ctl_peer, out, fds, ports, err)
			       : ws_err_set(err, ENOMEM, "no memory for %u ports", spec->streams);
		for (uint32_t i = 0; rc == 0 && i < spec->streams; i++)
			ws_tlv_put_u64(&ch->tx, WS_F_CLIENT_PORT, ports[i]);
		free(ports);
		if (rc < 0)
			return rc;
	}
	int rc = ws_channel_send(ch, ws_clock_ns() + CTL_TIMEOUT_NS, err);
	ws_tlv_msg m;
	if (rc == 0)
		rc = expect(ch, WS_MSG_TEST_ACK, ws_clock_ns() + CTL_TIMEOUT_NS, &m, err);
	uint64_t port = 0;
	const uint8_t *cookie = NULL;
	uint16_t cookie_len = 0;
	if (rc == 0 &&
	    (ws_tlv_get_u64(&m, WS_F_DATA_PORT, &port) != 0 || port == 0 || port > 65535 ||
	     ws_tlv_get_bytes(&m, WS_F_COOKIE, &cookie, &cookie_len) != 0 ||
	     cookie_len != WS_COOKIE_LEN))
		rc = ws_err_set(err, WS_E_PROTO,
				"the daemon's TEST_ACK lacks a data port or cookie");
	uint8_t cookie_copy[WS_COOKIE_LEN] = {0};
	if (rc == 0) {
		memcpy(cookie_copy, cookie, WS_COOKIE_LEN);
		rc = ws_msg_get_side(&m, &out->remote, err);
	}
	if (udp) {
		if (rc == 0)
			rc = connect_udp(spec, &m, ctl_peer, fds, err);
		if (rc < 0)
			ws_ds_close_all(fds, spec->streams);
		return rc;
	}
	/* RRUL: an echo port per UDP probe (a daemon before that: one for all of them) */
	if (rc == 0 && ws_test_type_lul(spec->type))
		rc = ws_echoports_get(&m, ctl_peer, ws_test_type_name(spec->type), echo, err);
	if (rc < 0)
		return rc;
	ws_addr data = *ctl_peer;
	ws_addr_set_port(&data, (uint16_t)port);
	if (ws_test_type_connects(spec->type))
		return ws_ds_crr_endpoints(c, spec, &data, out, crr, err);
	for (uint32_t i = 0; i < spec->streams; i++) {
		fds[i] = connect_tcp(c, spec, &data, cookie_copy, i, out, err);
		if (fds[i] < 0) {
			rc = fds[i];
			ws_ds_close_all(fds, i);
			return rc;
		}
	}
	return 0;
}

/* Test options -H and -L name the data addresses; the daemon gets them numeric, in the
 * control connection's family, so that it binds and checks the same addresses. */
static int numeric_data_addrs(ws_test_spec *s, const ws_addr *ctl_peer, ws_err *err)
{
	char *names[2] = {s->data_host, s->data_local};
	int fam = ws_addr_family(ctl_peer) == AF_INET6 ? 6 : 4;
	for (int i = 0; i < 2; i++) {
		ws_addr a;
		if (!names[i][0])
			continue;
		int rc = ws_addr_resolve(names[i], 0, fam, 0, &a, err);
		if (rc < 0) {
			ws_err_prefix(err, "test option %s", i ? "-L" : "-H");
			return rc;
		}
		ws_addr_format(&a, names[i], WS_DATA_ADDR_MAX);
	}
	return 0;
}

static void fill_identity(ws_test_result *out, const ws_client_config *c, int ctl_fd,
			  const ws_addr *peer)
{
	snprintf(out->remote_host, sizeof(out->remote_host), "%s", c->host);
	ws_addr_format(peer, out->remote_addr, sizeof(out->remote_addr));
	out->family_used = ws_addr_family(peer) == AF_INET6 && !strchr(out->remote_addr, '.')
		? WS_FAMILY_INET6
		: WS_FAMILY_INET;
	if (c->local_host) {
		ws_addr local;
		ws_sock_local_addr(ctl_fd, &local);
		ws_addr_format(&local, out->local_addr, sizeof(out->local_addr));
	} else {
		snprintf(out->local_addr, sizeof(out->local_addr), "%s",
			 out->family_used == WS_FAMILY_INET6 ? "::" : "0.0.0.0");
	}
}

/* RRUL: the client's half fills out->lul (made by warpspeed_test). */
static int run_lul(const ws_client_config *c, const int *fds, const ws_lul_echo *echo,
		   const ws_test_spec *spec, ws_test_result *out, ws_err *err)
{
	ws_lul_client_params p = {.spec = spec,
				  .fds = fds,
				  .echo = *echo,
				  .tick = c->lul_tick,
				  .tick_ctx = c->lul_ctx};
	return ws_lul_client_run(&p, out->lul, &out->local, err);
}

static int run_local(ws_channel *ch, int *fds, const ws_rr_params *crr, const ws_test_spec *spec,
		     const ws_client_config *c, const ws_lul_echo *echo, ws_test_result *out,
		     ws_err *err)
{
	double wait_s = c->start_wait_s;
	struct ws_interim *interim = c->interim;
	if (wait_s > 0) /* -s: the data connections stand, nothing moves yet */
		ws_clock_sleep_ns((int64_t)(wait_s * WS_NS_PER_SEC));
	ws_tlv_begin(&ch->tx, WS_MSG_START);
	int rc = ws_channel_send(ch, ws_clock_ns() + CTL_TIMEOUT_NS, err);
	ws_tlv_msg m;
	if (rc == 0)
		rc = expect(ch, WS_MSG_STARTED, ws_clock_ns() + CTL_TIMEOUT_NS, &m, err);
	if (rc < 0)
		return rc;
	if (c->on_data)
		c->on_data(c->data_ctx, fds, spec->streams, true);
	rc = ws_test_type_lul(spec->type)
		? run_lul(c, fds, echo, spec, out, err)
		: ws_workload_run_interim(spec, fds, spec->streams, crr, interim, &out->local, err);
	if (c->on_data)
		c->on_data(c->data_ctx, fds, spec->streams, false);
	ws_ds_close_all(fds, spec->streams);
	int64_t grace = rc < 0 ? FAILED_RESULT_GRACE_NS : RESULT_GRACE_NS;
	ws_err rerr;
	ws_err_clear(&rerr);
	int rrc = expect(ch, WS_MSG_RESULT, ws_clock_ns() + grace, &m, &rerr);
	if (rrc == 0)
		rrc = ws_msg_get_side(&m, &out->remote, &rerr);
	/* The daemon's account of a failure is usually the more telling one. */
	if (rrc < 0 && (rc == 0 || rerr.code == -WS_E_REMOTE || rerr.code == -WS_E_LIMIT)) {
		if (err)
			*err = rerr;
		return rrc;
	}
	return rc;
}

void ws_client_init(ws_client *cl, const ws_client_config *c)
{
	memset(cl, 0, sizeof(*cl));
	cl->cfg = c;
	cl->np_fd = -1;
	cl->found = WS_PEER_AUTO;
}

void ws_client_close(ws_client *cl)
{
	ws_np_close(cl->np_fd);
	cl->np_fd = -1;
}

/* What every test checks and sets before it connects. */
static int prepare(const ws_test_spec *spec, ws_test_result *out, ws_err *err)
{
	memset(out, 0, sizeof(*out));
	out->spec = *spec;
	out->local.cpu_bound_to = out->remote.cpu_bound_to = -1;
	int rc = ws_test_spec_validate(spec, err);
	if (rc < 0)
		return rc;
	if (spec->fill_file[0]) {
		/* A missing or empty file is found before any connection is made. */
		int ffd = ws_workload_open_fill(spec, err);
		if (ffd < 0)
			return ffd;
		close(ffd);
	}
	if ((rc = ws_workload_check_cpus(spec, true, err)) < 0)
		return rc;
	if (spec->local.cpu >= 0 && (rc = ws_affinity_pin_self(spec->local.cpu, err)) < 0)
		return rc;
	out->local.cpu_bound_to = spec->local.cpu;
	uint32_t snd, rcv;
	int force;
	ws_workload_buffers(spec, true, &snd, &rcv, &force);
	out->local.sndbuf_req = snd;
	out->local.rcvbuf_req = rcv;
	return 0;
}

/* One more control connection to the netserver at peer, for --streams (from -L's address,
 * never -p's local port, which the first connection holds), with the passphrase (-Z). */
static int connect_more(const ws_client_config *c, const ws_addr *peer, ws_err *err)
{
	ws_addr local, *lp = NULL;
	if (c->local_host) {
		int rc = ws_addr_resolve(c->local_host, 0, ws_addr_family(peer) == AF_INET6 ? 6 : 4,
					 1, &local, err);
		if (rc < 0)
			return rc;
		lp = &local;
	}
	int fd = ws_sock_connect(peer, lp, 0, 0, NULL, NULL, ws_clock_ns() + c->connect_timeout_ns,
				 err);
	int rc = fd >= 0 && c->psk ? ws_np_send_passphrase(fd, c->psk, err) : 0;
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

/* A netserver on fd: the passphrase first (-Z), then the test; the connection is kept
 * for the next test (-i), or closed when this one failed. --streams N adds N - 1 control
 * connections (a netserver child each) for this test only. */
static int netserver_test(ws_client *cl, int fd, const ws_addr *peer, const ws_test_spec *spec,
			  bool passphrase, ws_test_result *out, ws_err *err)
{
	const ws_client_config *c = cl->cfg;
	cl->found = WS_PEER_NETSERVER;
	if (ws_test_type_lul(spec->type)) {
		char pt[80];
		ws_addr_format_port(peer, pt, sizeof(pt));
		ws_np_close(fd);
		cl->np_fd = -1;
		return ws_err_set(err, WS_E_PEER,
				  "%s (%s) is a netserver; -t %s needs a warpspeed daemon (start "
				  "`warpspeed serve` there): its flows, probes and echo run over "
				  "warpspeed's own protocol",
				  c->host, pt, ws_test_type_name(spec->type));
	}
	if (c->needs_warpspeed) {
		char pt[80];
		ws_addr_format_port(peer, pt, sizeof(pt));
		close(fd);
		return ws_err_set(err, WS_E_PEER,
				  "%s needs a warpspeed daemon (warpspeed serve) at the other end; "
				  "%s (%s) is a stock netserver, which runs one netperf test per "
				  "connection and no probes beside it",
				  c->needs_warpspeed, c->host, pt);
	}
	int rc = passphrase && c->psk ? ws_np_send_passphrase(fd, c->psk, err) : 0;
	cl->np_fd = fd;
	cl->np_peer = *peer;
	fill_identity(out, c, fd, peer);
	snprintf(out->peer_software, sizeof(out->peer_software), "netserver");
	uint32_t n = spec->streams > 0 ? spec->streams : 1;
	int *ctl = rc == 0 ? calloc(n, sizeof(*ctl)) : NULL;
	if (rc == 0 && !ctl)
		rc = ws_err_set(err, ENOMEM, "no memory for %u control connections", n);
	for (uint32_t i = 0; ctl && i < n; i++)
		ctl[i] = i == 0 ? fd : -1;
	if (rc == 0)
		rc = ws_npmap_check(spec, err); /* before connections it would refuse */
	for (uint32_t i = 1; rc == 0 && i < n; i++)
		if ((ctl[i] = connect_more(c, peer, err)) < 0) {
			rc = ctl[i];
			ws_err_prefix(err, "control connection %u of %u", i + 1, n);
		}
	if (rc == 0)
		rc = ws_np_run_test(c, ctl, peer, spec, out, err);
	for (uint32_t i = 1; ctl && i < n; i++)
		if (ctl[i] >= 0)
			ws_np_close(ctl[i]);
	free(ctl);
	if (rc < 0) {
		char pt[80];
		ws_addr_format_port(peer, pt, sizeof(pt));
		ws_err_prefix(err, "netserver %s (%s)", c->host, pt);
		ws_client_close(cl);
	}
	return rc;
}

/* RRUL: the plan (its flows and probes) and the result it fills; the spec asks for one TCP
 * connection per flow and the TCP probe's. */
static int lul_prepare(ws_test_spec *wire, const ws_client_config *c, ws_test_result *out,
		       ws_err *err)
{
	if (!out->lul)
		out->lul = calloc(1, sizeof(*out->lul));
	if (!out->lul)
		return ws_err_set(err, ENOMEM, "no memory for the RRUL result");
	int rc = ws_lul_plan_make(wire, c->lul_step_s, &out->lul->plan, err);
	if (rc == 0)
		wire->streams = ws_lul_connections(&out->lul->plan);
	out->spec.streams = wire->streams;
	return rc;
}

/* The warpspeed session from HELLO on; *found reports a netserver (or a late daemon, or
 * a close after the probe) instead, with the connection left open in *ctl_fd. */
static int warpspeed_test(ws_client *cl, int fd, const ws_addr *peer, int64_t probe_ns,
			  const ws_test_spec *spec, enum ws_probe_found *found, int *ctl_fd,
			  ws_test_result *out, ws_err *err)
{
	const ws_client_config *c = cl->cfg;
	char where[160];
	char pt[80];
	ws_addr_format_port(peer, pt, sizeof(pt));
	snprintf(where, sizeof(where), "%s (%s)", c->host, pt);
	ws_channel ch;
	ws_channel_init(&ch, fd);
	fill_identity(out, c, fd, peer);
	int rc = do_hello(&ch, where, c, probe_ns, found, out, err);
	if (rc == 0 && *found != WS_PROBE_WARPSPEED) {
		*ctl_fd = ch.fd;
		ch.fd = -1; /* the caller's now */
		ws_channel_close(&ch);
		return 0;
	}
	if (rc == 0)
		cl->found = WS_PEER_WARPSPEED;
	ws_test_spec wire = *spec;
	if (rc == 0)
		rc = numeric_data_addrs(&wire, peer, err);
	if (rc == 0 && ws_test_type_lul(wire.type)) /* the series this run fills */
		rc = lul_prepare(&wire, c, out, err);
	spec = &wire;
	int *fds = rc < 0 ? NULL : malloc(spec->streams * sizeof(int));
	if (rc == 0 && !fds)
		rc = ws_err_set(err, ENOMEM, "no memory for %u data sockets", spec->streams);
	for (uint32_t i = 0; fds && i < spec->streams; i++)
		fds[i] = -1;
	ws_rr_params crr;
	ws_lul_echo echo;
	memset(&echo, 0, sizeof(echo));
	if (rc == 0)
		rc = setup_data(&ch, spec, peer, c, out, fds, &crr, &echo, err);
	if (rc == 0 && c->on_start)
		c->on_start(c->start_ctx, out);
	if (rc == 0)
		rc = run_local(&ch, fds, &crr, spec, c, &echo, out, err);
	free(fds);
	if (rc == 0) {
		ws_tlv_begin(&ch.tx, WS_MSG_BYE);
		ws_channel_send(&ch, ws_clock_ns() + WS_NS_PER_SEC, NULL);
		out->shared_host = out->local.boot_id[0] &&
			strcmp(out->local.boot_id, out->remote.boot_id) == 0;
	}
	ws_channel_close(&ch);
	return rc;
}

int ws_client_test(ws_client *cl, const ws_test_spec *spec, ws_test_result *out, ws_err *err)
{
	const ws_client_config *c = cl->cfg;
	int rc = prepare(spec, out, err);
	if (rc < 0)
		return rc;
	if (cl->np_fd >= 0) /* -i: the next DO_OMNI on the same connection */
		return netserver_test(cl, cl->np_fd, &cl->np_peer, spec, false, out, err);
	enum ws_peer mode = c->peer != WS_PEER_AUTO ? c->peer : cl->found;
	int family = c->host_family ? c->host_family : (int)spec->family;
	ws_addr peer;
	int64_t connect_ns = 0;
	int fd = connect_control(c, family, &peer, &connect_ns, err);
	if (fd < 0)
		return fd;
	if (mode == WS_PEER_NETSERVER)
		return netserver_test(cl, fd, &peer, spec, true, out, err);
	enum ws_probe_found found;
	int64_t probe_ns = mode == WS_PEER_AUTO ? ws_probe_wait_ns(connect_ns) : 0;
	int ctl_fd = -1;
	rc = warpspeed_test(cl, fd, &peer, probe_ns, spec, &found, &ctl_fd, out, err);
	if (rc < 0 || found == WS_PROBE_WARPSPEED)
		return rc;
	if (c->note) {
		static const char *const what[] = {
			[WS_PROBE_NETSERVER] =
				"is a netserver (it answered the padded HELLO with netperf's error "
				"998); the test runs over netperf's protocol",
			[WS_PROBE_LATE] = "is a warpspeed daemon that answered only after the "
					  "probe; reconnecting without it",
			[WS_PROBE_CLOSED] = "closed the connection on the probe (a netserver that "
					    "wants -Z first); reconnecting with the passphrase",
		};
		char t[300];
		snprintf(t, sizeof(t), "%s port %u %s", c->host, (unsigned)c->port,
			 found == WS_PROBE_CLOSED && !c->psk
				 ? "closed the connection on the probe; asking once more with a "
				   "HELLO alone (a netserver that wants -Z stays silent)"
				 : what[found]);
		c->note(c->note_ctx, t);
	}
	if (found == WS_PROBE_NETSERVER)
		return netserver_test(cl, ctl_fd, &peer, spec, true, out, err);
	close(ctl_fd);
	if (found == WS_PROBE_CLOSED && !c->psk) {
		/* To the probe, a daemon whose answer was lost looks like a netserver that wants
		 * -Z: TCP sends the answer again after 200 ms or more, by when the probe has padded
		 * the HELLO, and the daemon closes on the padding (1 % loss: a UDP_RR test failed
		 * this way once in a CI run). A HELLO alone tells them apart: a daemon answers, with
		 * TCP's resends, within the HELLO's deadline; a netserver waits for the rest of its
		 * 656 bytes. */
		if ((fd = connect_control(c, family, &peer, NULL, err)) < 0)
			return fd;
		rc = warpspeed_test(cl, fd, &peer, 0, spec, &found, &ctl_fd, out, err);
		if (rc == -WS_E_NOTWS)
			return ws_err_set(
				err, WS_E_NOTWS,
				"%s port %u closed the connection without answering the probe, and "
				"answered no HELLO alone: a netserver started with -Z closes "
				"unless netperf's passphrase comes first (give -Z)",
				c->host, (unsigned)c->port);
		return rc;
	}
	/* a late warpspeed daemon has the probe's padding in its stream; a netserver that
	 * wants the passphrase closed on it: either way a fresh connection, without probe */
	if ((fd = connect_control(c, family, &peer, NULL, err)) < 0)
		return fd;
	if (found == WS_PROBE_CLOSED)
		return netserver_test(cl, fd, &peer, spec, true, out, err);
	rc = warpspeed_test(cl, fd, &peer, 0, spec, &found, &ctl_fd, out, err);
	return rc;
}

int ws_client_run_test(const ws_client_config *c, const ws_test_spec *spec, ws_test_result *out,
		       ws_err *err)
{
	ws_client cl;
	ws_client_init(&cl, c);
	int rc = ws_client_test(&cl, spec, out, err);
	ws_client_close(&cl);
	return rc;
}
