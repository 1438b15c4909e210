/* SPDX-License-Identifier: BSD-2-Clause */
/* sock: TCP sockets with deadlines, and socket options that report what took effect.
 *
 * Every blocking step (connect, accept, read, write) takes an absolute monotonic
 * deadline so that no state of a client or the daemon can hang. Buffer-size setters
 * read the value back with getsockopt, because the kernel doubles or clamps what was
 * asked and results must carry what was actually applied. */
#ifndef WS_NET_SOCK_H
#define WS_NET_SOCK_H

#include <stddef.h>
#include <stdint.h>

struct ws_err;
struct ws_addr;

/* A listening TCP socket on addr (SO_REUSEADDR; v6only as given for IPv6: -1 leave the
 * default, 0 dual-stack, 1 IPv6 only). sndbuf/rcvbuf (0 = default) are set before
 * listen so accepted sockets inherit them and the window scale fits. Returns fd or < 0. */
int ws_sock_listen(const struct ws_addr *addr, int v6only, uint32_t sndbuf, uint32_t rcvbuf,
		   int backlog, struct ws_err *err);
/* ws_sock_listen with socket()'s protocol (0, or IPPROTO_MPTCP: net/mptcp.h). */
int ws_sock_listen_proto(const struct ws_addr *addr, int v6only, uint32_t sndbuf, uint32_t rcvbuf,
			 int backlog, int proto, struct ws_err *err);

/* Connect a TCP socket to addr before deadline_ns. local (may be NULL) is bound first;
 * sndbuf/rcvbuf (0 = default) are applied before connecting, and the sizes in effect at
 * that moment are stored in *sndbuf_set / *rcvbuf_set (each may be NULL): netperf reports
 * these setup sizes, before TCP's autotuning grows them. Returns a blocking fd. */
int ws_sock_connect(const struct ws_addr *addr, const struct ws_addr *local, uint32_t sndbuf,
		    uint32_t rcvbuf, uint32_t *sndbuf_set, uint32_t *rcvbuf_set,
		    int64_t deadline_ns, struct ws_err *err);

/* ws_sock_connect with a hook: prep (may be NULL) runs on the new socket after the buffers
 * are set and before bind and connect, for options that only take effect before the SYN
 * (TCP_MAXSEG). A negative return from prep fails the connect with its error. proto is
 * socket()'s protocol: 0, or IPPROTO_MPTCP (net/mptcp.h). */
typedef int (*ws_sock_prep_fn)(int fd, void *ctx, struct ws_err *err);
int ws_sock_connect_prep(const struct ws_addr *addr, const struct ws_addr *local, uint32_t sndbuf,
			 uint32_t rcvbuf, uint32_t *sndbuf_set, uint32_t *rcvbuf_set,
			 int64_t deadline_ns, ws_sock_prep_fn prep, void *prep_ctx, int proto,
			 struct ws_err *err);

/* Accept one connection before deadline_ns (or a read on wake_fd, if >= 0, aborts it).
 * Returns a blocking fd and fills peer (may be NULL). */
int ws_sock_accept(int lfd, struct ws_addr *peer, int64_t deadline_ns, int wake_fd,
		   struct ws_err *err);

/* Write or read exactly n bytes before deadline_ns. A peer close during read is an error
 * naming how many bytes arrived. */
int ws_sock_write_all(int fd, const void *buf, size_t n, int64_t deadline_ns, struct ws_err *err);
int ws_sock_read_exact(int fd, void *buf, size_t n, int64_t deadline_ns, struct ws_err *err);

/* A UDP socket bound to bind_addr, with buffers applied (0 = default) and the sizes in
 * effect stored in *sndbuf_set / *rcvbuf_set (may be NULL). With force, a size that the
 * kernel clamped to net.core.[rw]mem_max is retried with SO_*BUFFORCE (root only);
 * *clamped (may be NULL) tells whether the final size is still below the request. */
int ws_sock_udp(const struct ws_addr *bind_addr, uint32_t sndbuf, uint32_t rcvbuf, int force,
		uint32_t *sndbuf_set, uint32_t *rcvbuf_set, int *clamped, struct ws_err *err);

/* connect() a datagram socket, so that it sends to and accepts only from addr. */
int ws_sock_udp_connect(int fd, const struct ws_addr *addr, struct ws_err *err);

/* Set SO_SNDBUF / SO_RCVBUF: skipped when 0 (the system default); UINT32_MAX (the spec's
 * WS_SOCKBUF_ZERO, netperf's -s 0) sets 0, which the kernel raises to its minimum. The same
 * rule holds for every size these helpers take. */
int ws_sock_set_buffers(int fd, uint32_t sndbuf, uint32_t rcvbuf, struct ws_err *err);
/* Read back the current SO_SNDBUF and SO_RCVBUF. */
void ws_sock_get_buffers(int fd, uint32_t *sndbuf, uint32_t *rcvbuf);
int ws_sock_set_nodelay(int fd, int on, struct ws_err *err);
/* SO_SNDTIMEO / SO_RCVTIMEO so blocking calls wake up to check their deadline. */
int ws_sock_set_timeouts(int fd, int64_t timeout_ns, struct ws_err *err);
/* The local and peer addresses of a connected socket. */
int ws_sock_local_addr(int fd, struct ws_addr *out);
int ws_sock_peer_addr(int fd, struct ws_addr *out);

#endif
