/* SPDX-License-Identifier: BSD-2-Clause */
/* lul_serve: the daemon's half of an RRUL run, the echo of the probes; see lul_serve.h. */
#include "workload/lul_serve.h"

#include "model/lul.h"
#include "net/addr.h"
#include "net/sock.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/lul_load.h"
#include "workload/lul_probe.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Past the test's length the echo waits this long for the client to close the TCP probe. */
#define ECHO_GRACE_NS (20 * WS_NS_PER_SEC)
/* A blocked echo thread looks at the clock and the stop flag at least this often. */
#define ECHO_TICK_MS 100

/* What the echo threads share: when to end, the UDP sockets the TCP probe's end wakes,
 * and the client's address, the only one whose probes are echoed. */
struct echo_ctl {
	atomic_bool stop;
	int64_t end_ns;
	const int *udp;
	uint32_t nudp;
	ws_addr client;
};

/* One echo thread: a UDP probe's socket, or the TCP probe's connection. */
struct echo {
	struct echo_ctl *ctl;
	int fd;
	bool tcp;
	uint64_t echoed;  /* datagrams (UDP) or bytes (TCP) sent back */
	uint64_t refused; /* UDP: datagrams not echoed (not a probe, or not the client's) */
	pthread_t t;
	bool running;
};

/* A probe of the client's: the size and magic of lul_probe.c's, from the address whose
 * TCP connections (cookie and all) started the run. Anything else is refused, so the
 * echo reflects nothing toward an address that did not ask (a forged source). */
static bool is_probe(const struct echo *e, const unsigned char *b, ssize_t r,
		     const struct sockaddr_storage *from, socklen_t len)
{
	uint32_t magic;
	if (r != WS_LUL_UDP_PROBE_SZ)
		return false;
	memcpy(&magic, b, sizeof(magic));
	ws_addr src = {.len = len};
	memcpy(&src.ss, from, len <= sizeof(src.ss) ? len : sizeof(src.ss));
	return ntohl(magic) == WS_LUL_UDP_MAGIC && ws_addr_same_host(&src, &e->ctl->client);
}

/* One datagram back to its sender with the mark it came with, the mark in byte 9. */
static void echo_udp(struct echo *e, unsigned char *b, size_t bsz)
{
	struct sockaddr_storage from;
	char cbuf[CMSG_SPACE(sizeof(int)) * 2];
	struct iovec iov = {b, bsz};
	struct msghdr m = {.msg_name = &from,
			   .msg_namelen = sizeof(from),
			   .msg_iov = &iov,
			   .msg_iovlen = 1,
			   .msg_control = cbuf,
			   .msg_controllen = sizeof(cbuf)};
	ssize_t r = recvmsg(e->fd, &m, 0); /* blocks up to ECHO_TICK_MS */
	if (r <= 0)
		return;
	if (!is_probe(e, b, r, &from, m.msg_namelen)) {
		e->refused++;
		return;
	}
	int tos = 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
		if ((c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TOS) ||
		    (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_TCLASS)) {
			if (c->cmsg_len >= CMSG_LEN(sizeof(int)) && c->cmsg_level == IPPROTO_IPV6)
				memcpy(&tos, CMSG_DATA(c), sizeof(int));
			else
				tos = *(unsigned char *)CMSG_DATA(c);
		}
	}
	b[9] = (unsigned char)tos;
	char obuf[CMSG_SPACE(sizeof(int))];
	memset(obuf, 0, sizeof(obuf));
	struct msghdr o = {.msg_name = &from,
			   .msg_namelen = m.msg_namelen,
			   .msg_iov = &(struct iovec){b, (size_t)r},
			   .msg_iovlen = 1,
			   .msg_control = obuf,
			   .msg_controllen = sizeof(obuf)};
	struct cmsghdr *c = CMSG_FIRSTHDR(&o);
	bool v6 = from.ss_family == AF_INET6;
	c->cmsg_level = v6 ? IPPROTO_IPV6 : IPPROTO_IP;
	c->cmsg_type = v6 ? IPV6_TCLASS : IP_TOS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &tos, sizeof(int));
	ssize_t w = sendmsg(e->fd, &o, MSG_DONTWAIT);
	if (w < 0 && errno == EINVAL) { /* the mark refused (an emulator, say): echo unmarked */
		o.msg_control = NULL;
		o.msg_controllen = 0;
		w = sendmsg(e->fd, &o, MSG_DONTWAIT);
	}
	if (w == r)
		e->echoed++;
}

/* The TCP probe's bytes back; false when the client closed it (the run is over). */
static bool echo_tcp(struct echo *e, unsigned char *b, size_t bsz)
{
	ssize_t r = recv(e->fd, b, bsz, 0); /* blocks up to ECHO_TICK_MS */
	if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
		return false;
	if (r > 0 && send(e->fd, b, (size_t)r, MSG_NOSIGNAL) == r)
		e->echoed += (uint64_t)r;
	return true;
}

/* An echo thread blocks in its socket's receive, as netserver's process per probe does:
 * no poll before it, and no thread shared with another probe, so a probe's transaction
 * never waits for another's (docs/rrul.md, "Idle latency"). The TCP probe's end (the
 * client closed it: the run is over) stops them all. */
static void *echo_main(void *arg)
{
	struct echo *e = arg;
	struct echo_ctl *ctl = e->ctl;
	int on = 1;
	struct timeval tick = {0, ECHO_TICK_MS * 1000};
	fcntl(e->fd, F_SETFL, fcntl(e->fd, F_GETFL) & ~O_NONBLOCK);
	setsockopt(e->fd, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof(tick));
	if (e->tcp) { /* one byte back at once, as the client's side sends it */
		setsockopt(e->fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
	} else {
		setsockopt(e->fd, IPPROTO_IP, IP_RECVTOS, &on, sizeof(on));
		setsockopt(e->fd, IPPROTO_IPV6, IPV6_RECVTCLASS, &on, sizeof(on));
	}
	unsigned char b[2048];
	while (!atomic_load(&ctl->stop) && ws_clock_ns() < ctl->end_ns) {
		if (!e->tcp) {
			echo_udp(e, b, sizeof(b));
			continue;
		}
		if (!echo_tcp(e, b, 256)) {
			atomic_store(&ctl->stop, true);
			for (uint32_t i = 0; i < ctl->nudp; i++) /* wakes a blocked receive */
				shutdown(ctl->udp[i], SHUT_RD);
		}
	}
	return NULL;
}

/* Start an echo thread per UDP socket and one for the TCP probe (probe < 0: none). */
static int echo_start(struct echo *e, struct echo_ctl *ctl, int probe, ws_err *err)
{
	uint32_t n = ctl->nudp + (probe >= 0);
	for (uint32_t i = 0; i < n; i++) {
		e[i] = (struct echo){.ctl = ctl,
				     .fd = i < ctl->nudp ? ctl->udp[i] : probe,
				     .tcp = i == ctl->nudp};
		e[i].running = pthread_create(&e[i].t, NULL, echo_main, &e[i]) == 0;
		if (!e[i].running)
			return ws_err_set(err, EAGAIN, "could not start the probes' echo threads");
	}
	return 0;
}

/* Joins the echo threads that run; returns the transactions they answered and adds the
 * datagrams they refused to *refused. */
static uint64_t echo_join(struct echo *e, uint32_t n, uint64_t *refused)
{
	uint64_t t = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (e[i].running)
			pthread_join(e[i].t, NULL);
		t += e[i].echoed;
		*refused += e[i].refused;
	}
	return t;
}

/* Read every connection's greeting and sort them by what they carry. */
static int sort_flows(const int *fds, uint32_t n, int *up, uint32_t *nup, int *down,
		      uint32_t *ndown, int *probe, uint32_t *delay_s, ws_err *err)
{
	*nup = *ndown = 0;
	*probe = -1;
	for (uint32_t i = 0; i < n; i++) {
		enum ws_lul_role role;
		int tos;
		int rc = ws_lul_answer(fds[i], &role, &tos, delay_s, err);
		if (rc < 0)
			return rc;
		if (role == WS_LUL_ROLE_UP)
			up[(*nup)++] = fds[i];
		else if (role == WS_LUL_ROLE_DOWN)
			down[(*ndown)++] = fds[i];
		else
			*probe = fds[i];
	}
	return 0;
}

int ws_lul_serve_run(const ws_test_spec *spec, const int *fds, uint32_t nfds, int64_t cap_ns,
		     ws_side_result *res, ws_err *err)
{
	if (nfds < WS_LUL_UDP_PROBES + 1)
		return ws_err_set(err, WS_E_INVAL,
				  "an RRUL run needs its connections and %d echo sockets",
				  WS_LUL_UDP_PROBES);
	uint32_t ntcp = nfds - WS_LUL_UDP_PROBES, nup, ndown;
	int *up = calloc(ntcp, sizeof(int)), *down = calloc(ntcp, sizeof(int)), probe;
	if (!up || !down) {
		free(up);
		free(down);
		return ws_err_set(err, ENOMEM, "no memory for %u connections", ntcp);
	}
	uint32_t delay_s = 0;
	int rc = sort_flows(fds, ntcp, up, &nup, down, &ndown, &probe, &delay_s, err);
	struct echo_ctl ctl = {.udp = fds + ntcp, .nudp = WS_LUL_UDP_PROBES};
	if (rc == 0 && ws_sock_peer_addr(fds[0], &ctl.client) < 0)
		rc = ws_err_set(err, errno, "the client's address: %s", strerror(errno));
	atomic_init(&ctl.stop, false);
	int64_t delay = (int64_t)delay_s * WS_NS_PER_SEC;
	ctl.end_ns = ws_clock_ns() + ws_test_spec_duration_ns(spec) + 2 * delay + ECHO_GRACE_NS;
	if (cap_ns && cap_ns < ctl.end_ns)
		ctl.end_ns = cap_ns;
	struct echo echo[WS_LUL_UDP_PROBES + 1];
	memset(echo, 0, sizeof(echo));
	uint32_t nechoes = rc == 0 ? WS_LUL_UDP_PROBES + (probe >= 0) : 0;
	if (rc == 0)
		rc = echo_start(echo, &ctl, probe, err);
	/* the client's uploads are received here, its downloads sent from here */
	ws_lul_load rx, tx;
	memset(&rx, 0, sizeof(rx));
	memset(&tx, 0, sizeof(tx));
	if (rc == 0 && delay) /* --delay: the probes alone first (the client waits as long) */
		ws_clock_sleep_ns(delay);
	if (rc == 0)
		rc = ws_lul_load_start(&rx, up, nup, false, spec, cap_ns, NULL, err);
	if (rc == 0)
		rc = ws_lul_load_start(&tx, down, ndown, true, spec, cap_ns, NULL, err);
	ws_err e1, e2;
	ws_err_clear(&e1);
	ws_err_clear(&e2);
	int r1 = ws_lul_load_join(&rx, &e1), r2 = ws_lul_load_join(&tx, &e2);
	if (rc < 0) /* the echo threads end at once (without a TCP probe, at end_ns) */
		atomic_store(&ctl.stop, true);
	res->transactions = echo_join(echo, nechoes, &res->bad_dgrams);
	if (rc == 0 && (r1 < 0 || r2 < 0)) {
		rc = r1 < 0 ? r1 : r2;
		if (err)
			*err = r1 < 0 ? e1 : e2;
	}
	if (ws_lul_load_merge(&rx, &tx, res) < 0 && rc == 0)
		rc = ws_err_set(err, ENOMEM, "no memory for the flows' results");
	free(up);
	free(down);
	return rc;
}
