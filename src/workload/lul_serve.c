/* SPDX-License-Identifier: BSD-2-Clause */
/* lul_serve: the daemon's half of an RRUL run, the echo of the probes; see lul_serve.h. */
#include "workload/lul_serve.h"

#include "util/clock.h"
#include "util/err.h"
#include "workload/lul_load.h"

#include <errno.h>
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

struct echo {
	int udp, tcp; /* tcp: the TCP probe's connection, -1 = none */
	bool v6;
	int64_t end_ns;
	uint64_t udp_echoed, tcp_echoed;
};

/* One datagram back to its sender with the mark it came with, the mark in byte 9. */
static void echo_udp(struct echo *e)
{
	unsigned char b[2048];
	for (;;) {
		struct sockaddr_storage from;
		char cbuf[CMSG_SPACE(sizeof(int)) * 2];
		struct iovec iov = {b, sizeof(b)};
		struct msghdr m = {.msg_name = &from,
				   .msg_namelen = sizeof(from),
				   .msg_iov = &iov,
				   .msg_iovlen = 1,
				   .msg_control = cbuf,
				   .msg_controllen = sizeof(cbuf)};
		ssize_t r = recvmsg(e->udp, &m, MSG_DONTWAIT);
		if (r < 0)
			return;
		int tos = 0;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			if ((c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_TOS) ||
			    (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_TCLASS)) {
				if (c->cmsg_len >= CMSG_LEN(sizeof(int)) &&
				    c->cmsg_level == IPPROTO_IPV6)
					memcpy(&tos, CMSG_DATA(c), sizeof(int));
				else
					tos = *(unsigned char *)CMSG_DATA(c);
			}
		}
		if (r >= 10)
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
		if (sendmsg(e->udp, &o, MSG_DONTWAIT) == r)
			e->udp_echoed++;
	}
}

/* The TCP probe's bytes back; false when the client closed it (the run is over). */
static bool echo_tcp(struct echo *e)
{
	unsigned char b[256];
	ssize_t r = recv(e->tcp, b, sizeof(b), MSG_DONTWAIT);
	if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
		return false;
	if (r > 0 && send(e->tcp, b, (size_t)r, MSG_NOSIGNAL) == r)
		e->tcp_echoed += (uint64_t)r;
	return true;
}

static void *echo_main(void *arg)
{
	struct echo *e = arg;
	int on = 1;
	if (e->tcp >= 0) /* one byte back at once, as the client's side sends it */
		setsockopt(e->tcp, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
	setsockopt(e->udp, IPPROTO_IP, IP_RECVTOS, &on, sizeof(on));
	setsockopt(e->udp, IPPROTO_IPV6, IPV6_RECVTCLASS, &on, sizeof(on));
	for (;;) {
		int64_t now = ws_clock_ns();
		if (now >= e->end_ns)
			break;
		struct pollfd pf[2] = {{.fd = e->udp, .events = POLLIN},
				       {.fd = e->tcp, .events = POLLIN}};
		int left = ws_clock_ms_until(e->end_ns);
		int n = poll(pf, e->tcp >= 0 ? 2 : 1, left > 100 ? 100 : left);
		if (n > 0 && pf[0].revents)
			echo_udp(e);
		if (n > 0 && e->tcp >= 0 && pf[1].revents && !echo_tcp(e))
			break;
	}
	return NULL;
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
	if (nfds < 2)
		return ws_err_set(err, WS_E_INVAL,
				  "an RRUL run needs its connections and its echo");
	uint32_t ntcp = nfds - 1, nup, ndown;
	int *up = calloc(ntcp, sizeof(int)), *down = calloc(ntcp, sizeof(int)), probe;
	if (!up || !down) {
		free(up);
		free(down);
		return ws_err_set(err, ENOMEM, "no memory for %u connections", ntcp);
	}
	uint32_t delay_s = 0;
	int rc = sort_flows(fds, ntcp, up, &nup, down, &ndown, &probe, &delay_s, err);
	struct echo e = {.udp = fds[nfds - 1], .tcp = probe};
	int64_t delay = (int64_t)delay_s * WS_NS_PER_SEC;
	e.end_ns = ws_clock_ns() + ws_test_spec_duration_ns(spec) + 2 * delay + ECHO_GRACE_NS;
	if (cap_ns && cap_ns < e.end_ns)
		e.end_ns = cap_ns;
	pthread_t et;
	bool echo_on = rc == 0 && pthread_create(&et, NULL, echo_main, &e) == 0;
	if (rc == 0 && !echo_on)
		rc = ws_err_set(err, EAGAIN, "could not start the probes' echo thread");
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
	if (echo_on)
		pthread_join(et, NULL);
	if (rc == 0 && (r1 < 0 || r2 < 0)) {
		rc = r1 < 0 ? r1 : r2;
		if (err)
			*err = r1 < 0 ? e1 : e2;
	}
	if (ws_lul_load_merge(&rx, &tx, res) < 0 && rc == 0)
		rc = ws_err_set(err, ENOMEM, "no memory for the flows' results");
	res->transactions = e.udp_echoed + e.tcp_echoed;
	free(up);
	free(down);
	return rc;
}
