/* SPDX-License-Identifier: BSD-2-Clause */
/* sock: deadline-bounded TCP helpers and option read-back; see sock.h. */
#include "net/sock.h"

#include "net/addr.h"
#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The value setsockopt gets for a requested size (see sock.h: UINT32_MAX asks for 0). */
static int buf_value(uint32_t want) { return want == UINT32_MAX ? 0 : (int)want; }

int ws_sock_set_buffers(int fd, uint32_t sndbuf, uint32_t rcvbuf, ws_err *err)
{
	int v;
	if (sndbuf) {
		v = buf_value(sndbuf);
		if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) < 0)
			return ws_err_errno(err, "setsockopt SO_SNDBUF %d", v);
	}
	if (rcvbuf) {
		v = buf_value(rcvbuf);
		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)) < 0)
			return ws_err_errno(err, "setsockopt SO_RCVBUF %d", v);
	}
	return 0;
}

void ws_sock_get_buffers(int fd, uint32_t *sndbuf, uint32_t *rcvbuf)
{
	int v = 0;
	socklen_t l = sizeof(v);
	if (sndbuf)
		*sndbuf = getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &l) == 0 && v > 0 ? (uint32_t)v
										      : 0;
	v = 0;
	l = sizeof(v);
	if (rcvbuf)
		*rcvbuf = getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, &l) == 0 && v > 0 ? (uint32_t)v
										      : 0;
}

int ws_sock_set_nodelay(int fd, int on, ws_err *err)
{
	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on)) < 0)
		return ws_err_errno(err, "setsockopt TCP_NODELAY");
	return 0;
}

int ws_sock_set_timeouts(int fd, int64_t timeout_ns, ws_err *err)
{
	struct timeval tv = {.tv_sec = timeout_ns / WS_NS_PER_SEC,
			     .tv_usec = (timeout_ns % WS_NS_PER_SEC) / 1000};
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		return ws_err_errno(err, "setsockopt SO_SNDTIMEO/SO_RCVTIMEO");
	return 0;
}

int ws_sock_listen(const ws_addr *addr, int v6only, uint32_t sndbuf, uint32_t rcvbuf, int backlog,
		   ws_err *err)
{
	return ws_sock_listen_proto(addr, v6only, sndbuf, rcvbuf, backlog, 0, err);
}

int ws_sock_listen_proto(const ws_addr *addr, int v6only, uint32_t sndbuf, uint32_t rcvbuf,
			 int backlog, int proto, ws_err *err)
{
	char where[80];
	ws_addr_format_port(addr, where, sizeof(where));
	int fd = socket(addr->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, proto);
	if (fd < 0)
		return ws_err_errno(err, "socket for %s", where);
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (addr->ss.ss_family == AF_INET6 && v6only >= 0)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only));
	int rc = ws_sock_set_buffers(fd, sndbuf, rcvbuf, err);
	if (rc == 0 && bind(fd, (const struct sockaddr *)&addr->ss, addr->len) < 0)
		rc = ws_err_errno(err, "bind %s", where);
	if (rc == 0 && listen(fd, backlog) < 0)
		rc = ws_err_errno(err, "listen on %s", where);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

static int wait_fd(int fd, short events, int64_t deadline_ns, int wake_fd, ws_err *err,
		   const char *what)
{
	for (;;) {
		struct pollfd p[2] = {{.fd = fd, .events = events},
				      {.fd = wake_fd, .events = POLLIN}};
		int ms = ws_clock_ms_until(deadline_ns);
		if (ms == 0 && ws_clock_ns() >= deadline_ns)
			return ws_err_set(err, WS_E_TIMEDOUT, "%s timed out", what);
		int n = poll(p, wake_fd >= 0 ? 2 : 1, ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ws_err_errno(err, "poll while %s", what);
		if (n == 0)
			continue;
		if (wake_fd >= 0 && p[1].revents)
			return ws_err_set(err, ECANCELED, "%s cancelled", what);
		return 0;
	}
}

int ws_sock_connect(const ws_addr *addr, const ws_addr *local, uint32_t sndbuf, uint32_t rcvbuf,
		    uint32_t *sndbuf_set, uint32_t *rcvbuf_set, int64_t deadline_ns, ws_err *err)
{
	return ws_sock_connect_prep(addr, local, sndbuf, rcvbuf, sndbuf_set, rcvbuf_set,
				    deadline_ns, NULL, NULL, 0, err);
}

int ws_sock_connect_prep(const ws_addr *addr, const ws_addr *local, uint32_t sndbuf,
			 uint32_t rcvbuf, uint32_t *sndbuf_set, uint32_t *rcvbuf_set,
			 int64_t deadline_ns, ws_sock_prep_fn prep, void *prep_ctx, int proto,
			 ws_err *err)
{
	char where[80];
	ws_addr_format_port(addr, where, sizeof(where));
	int fd = socket(addr->ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, proto);
	if (fd < 0)
		return ws_err_errno(err, "socket for %s", where);
	int rc = ws_sock_set_buffers(fd, sndbuf, rcvbuf, err);
	if (rc == 0 && prep)
		rc = prep(fd, prep_ctx, err);
	ws_sock_get_buffers(fd, sndbuf_set, rcvbuf_set);
	if (rc == 0 && local) {
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, (const struct sockaddr *)&local->ss, local->len) < 0) {
			char lw[80];
			ws_addr_format_port(local, lw, sizeof(lw));
			rc = ws_err_errno(err, "bind local address %s", lw);
		}
	}
	if (rc == 0 && connect(fd, (const struct sockaddr *)&addr->ss, addr->len) < 0) {
		if (errno != EINPROGRESS) {
			rc = ws_err_errno(err, "connect to %s", where);
		} else {
			char what[120];
			snprintf(what, sizeof(what), "connect to %s", where);
			rc = wait_fd(fd, POLLOUT, deadline_ns, -1, err, what);
			int soerr = 0;
			socklen_t l = sizeof(soerr);
			if (rc == 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &l) == 0 &&
			    soerr) {
				errno = soerr;
				rc = ws_err_errno(err, "connect to %s", where);
			}
		}
	}
	if (rc == 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		rc = ws_err_errno(err, "fcntl");
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

int ws_sock_accept(int lfd, ws_addr *peer, int64_t deadline_ns, int wake_fd, ws_err *err)
{
	for (;;) {
		int rc = wait_fd(lfd, POLLIN, deadline_ns, wake_fd, err,
				 "waiting for the data connection");
		if (rc < 0)
			return rc;
		ws_addr tmp;
		memset(&tmp, 0, sizeof(tmp));
		tmp.len = sizeof(tmp.ss);
		int fd = accept4(lfd, (struct sockaddr *)&tmp.ss, &tmp.len, SOCK_CLOEXEC);
		if (fd >= 0) {
			if (peer)
				*peer = tmp;
			return fd;
		}
		if (errno != EINTR && errno != EAGAIN && errno != ECONNABORTED)
			return ws_err_errno(err, "accept");
	}
}

int ws_sock_write_all(int fd, const void *buf, size_t n, int64_t deadline_ns, ws_err *err)
{
	const char *p = buf;
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (w > 0) {
			p += w;
			n -= (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno != EAGAIN)
			return ws_err_errno(err, "send");
		int rc = wait_fd(fd, POLLOUT, deadline_ns, -1, err, "sending a control message");
		if (rc < 0)
			return rc;
	}
	return 0;
}

int ws_sock_read_exact(int fd, void *buf, size_t n, int64_t deadline_ns, ws_err *err)
{
	char *p = buf;
	size_t got = 0;
	while (got < n) {
		ssize_t r = recv(fd, p + got, n - got, MSG_DONTWAIT);
		if (r > 0) {
			got += (size_t)r;
			continue;
		}
		if (r == 0)
			return ws_err_set(err, ECONNRESET,
					  "peer closed the connection after %zu of %zu bytes", got,
					  n);
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return ws_err_errno(err, "recv");
		int rc = wait_fd(fd, POLLIN, deadline_ns, -1, err, "waiting for the peer");
		if (rc < 0)
			return rc;
	}
	return 0;
}

int ws_sock_local_addr(int fd, ws_addr *out)
{
	memset(out, 0, sizeof(*out));
	out->len = sizeof(out->ss);
	return getsockname(fd, (struct sockaddr *)&out->ss, &out->len);
}

int ws_sock_peer_addr(int fd, ws_addr *out)
{
	memset(out, 0, sizeof(*out));
	out->len = sizeof(out->ss);
	return getpeername(fd, (struct sockaddr *)&out->ss, &out->len);
}

/* Linux reports twice what was asked; below the request means rmem_max/wmem_max clamped it. */
static int apply_forced(int fd, int opt, int force_opt, uint32_t want, int force, int *clamped)
{
	if (!want)
		return 0;
	int v = buf_value(want), got = 0;
	socklen_t l = sizeof(got);
	if (setsockopt(fd, SOL_SOCKET, opt, &v, sizeof(v)) < 0)
		return -1;
	if (want == UINT32_MAX)
		return 0; /* the kernel's minimum was asked for: nothing to force */
	getsockopt(fd, SOL_SOCKET, opt, &got, &l);
	if ((uint32_t)got < want && force)
		setsockopt(fd, SOL_SOCKET, force_opt, &v, sizeof(v));
	l = sizeof(got);
	getsockopt(fd, SOL_SOCKET, opt, &got, &l);
	if ((uint32_t)got < want && clamped)
		*clamped = 1;
	return 0;
}

int ws_sock_udp(const ws_addr *bind_addr, uint32_t sndbuf, uint32_t rcvbuf, int force,
		uint32_t *sndbuf_set, uint32_t *rcvbuf_set, int *clamped, ws_err *err)
{
	char where[80];
	ws_addr_format_port(bind_addr, where, sizeof(where));
	if (clamped)
		*clamped = 0;
	int fd = socket(bind_addr->ss.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return ws_err_errno(err, "UDP socket for %s", where);
	if (apply_forced(fd, SO_SNDBUF, SO_SNDBUFFORCE, sndbuf, force, clamped) < 0 ||
	    apply_forced(fd, SO_RCVBUF, SO_RCVBUFFORCE, rcvbuf, force, clamped) < 0) {
		int rc = ws_err_errno(err, "setsockopt SO_SNDBUF/SO_RCVBUF (%d/%d) on UDP",
				      buf_value(sndbuf), buf_value(rcvbuf));
		close(fd);
		return rc;
	}
	ws_sock_get_buffers(fd, sndbuf_set, rcvbuf_set);
	if (bind(fd, (const struct sockaddr *)&bind_addr->ss, bind_addr->len) < 0) {
		int rc = ws_err_errno(err, "bind UDP %s", where);
		close(fd);
		return rc;
	}
	return fd;
}

int ws_sock_udp_connect(int fd, const ws_addr *addr, ws_err *err)
{
	if (connect(fd, (const struct sockaddr *)&addr->ss, addr->len) < 0) {
		char where[80];
		ws_addr_format_port(addr, where, sizeof(where));
		return ws_err_errno(err, "connect UDP to %s", where);
	}
	return 0;
}
