/* SPDX-License-Identifier: BSD-2-Clause */
/* addr: host names and numeric addresses for IPv4 and IPv6.
 *
 * One place resolves what the user typed (-H, -L, --bind) into socket addresses, so
 * the family rules (-4, -6, "host,6") and the error messages are the same everywhere. */
#ifndef WS_NET_ADDR_H
#define WS_NET_ADDR_H

#include <stdint.h>
#include <sys/socket.h>

struct ws_err;

typedef struct ws_addr {
	struct sockaddr_storage ss;
	socklen_t len;
} ws_addr;

/* Resolve host (NULL or "" = the wildcard address, for binding) and port. family is
 * 0 (any), 4 or 6. With passive set, a NULL host gives the wildcard. Returns the first
 * result; getaddrinfo errors are reported with the host named. */
int ws_addr_resolve(const char *host, uint16_t port, int family, int passive, ws_addr *out,
		    struct ws_err *err);

/* Resolve every address of host (up to max), for connecting with fallback. Returns the
 * count (>= 1) or a negative error. */
int ws_addr_resolve_all(const char *host, uint16_t port, int family, ws_addr *out, int max,
			struct ws_err *err);

/* Numeric form without the port ("127.0.0.1", "::1"); v4-mapped IPv6 prints as IPv4. */
void ws_addr_format(const ws_addr *a, char *buf, size_t bufsz);
/* "127.0.0.1:12865" or "[::1]:12865". */
void ws_addr_format_port(const ws_addr *a, char *buf, size_t bufsz);

uint16_t ws_addr_port(const ws_addr *a);
void ws_addr_set_port(ws_addr *a, uint16_t port);
int ws_addr_family(const ws_addr *a); /* AF_INET or AF_INET6 */
/* True for 127/8, ::1 and v4-mapped loopback. */
int ws_addr_is_loopback(const ws_addr *a);
/* One host: the same address (a v4-mapped IPv6 address is its IPv4 one; ports are not
 * compared), or both loopback. Binary, no formatting: cheap enough for every datagram. */
int ws_addr_same_host(const ws_addr *a, const ws_addr *b);
/* A v4-mapped IPv6 address (::ffff:a.b.c.d, what a dual-stack socket sees of an IPv4
 * peer) becomes the plain IPv4 one, for a socket bound to an IPv4 address; others stay. */
void ws_addr_unmap_v4(ws_addr *a);

#endif
