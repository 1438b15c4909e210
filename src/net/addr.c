/* SPDX-License-Identifier: BSD-2-Clause */
/* addr: getaddrinfo wrappers and numeric formatting; see addr.h. */
#include "net/addr.h"

#include "util/err.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

static int to_af(int family) { return family == 4 ? AF_INET : family == 6 ? AF_INET6 : AF_UNSPEC; }

int ws_addr_resolve_all(const char *host, uint16_t port, int family, ws_addr *out, int max,
			ws_err *err)
{
	struct addrinfo hints, *res = NULL;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = to_af(family);
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV | AI_ADDRCONFIG;
	if (!host || !*host) {
		host = NULL;
		hints.ai_flags |= AI_PASSIVE;
		hints.ai_flags &= ~AI_ADDRCONFIG;
	}
	char portstr[8];
	snprintf(portstr, sizeof(portstr), "%u", port);
	int rc = getaddrinfo(host, portstr, &hints, &res);
	if (rc == EAI_ADDRFAMILY || (rc == EAI_NONAME && (hints.ai_flags & AI_ADDRCONFIG))) {
		/* AI_ADDRCONFIG hides ::1 on hosts with no global IPv6 address; retry without. */
		hints.ai_flags &= ~AI_ADDRCONFIG;
		rc = getaddrinfo(host, portstr, &hints, &res);
	}
	if (rc != 0)
		return ws_err_set(err, WS_E_INVAL, "cannot resolve '%s'%s: %s", host ? host : "*",
				  family == 4           ? " as IPv4"
					  : family == 6 ? " as IPv6"
							: "",
				  gai_strerror(rc));
	int n = 0;
	for (struct addrinfo *ai = res; ai && n < max; ai = ai->ai_next) {
		if (ai->ai_addrlen > sizeof(out[n].ss))
			continue;
		memset(&out[n], 0, sizeof(out[n]));
		memcpy(&out[n].ss, ai->ai_addr, ai->ai_addrlen);
		out[n].len = ai->ai_addrlen;
		n++;
	}
	freeaddrinfo(res);
	if (n == 0)
		return ws_err_set(err, WS_E_INVAL, "'%s' has no usable address", host ? host : "*");
	return n;
}

int ws_addr_resolve(const char *host, uint16_t port, int family, int passive, ws_addr *out,
		    ws_err *err)
{
	if (!passive && (!host || !*host))
		host = "localhost";
	int n = ws_addr_resolve_all(host, port, family, out, 1, err);
	return n < 0 ? n : 0;
}

static const void *in_addr_of(const ws_addr *a, int *af)
{
	if (a->ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&a->ss;
		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
			*af = AF_INET;
			return &s6->sin6_addr.s6_addr[12];
		}
		*af = AF_INET6;
		return &s6->sin6_addr;
	}
	*af = AF_INET;
	return &((const struct sockaddr_in *)&a->ss)->sin_addr;
}

void ws_addr_format(const ws_addr *a, char *buf, size_t bufsz)
{
	int af;
	const void *p = in_addr_of(a, &af);
	if (!inet_ntop(af, p, buf, (socklen_t)bufsz))
		snprintf(buf, bufsz, "?");
}

void ws_addr_format_port(const ws_addr *a, char *buf, size_t bufsz)
{
	char host[INET6_ADDRSTRLEN];
	int af;
	in_addr_of(a, &af);
	ws_addr_format(a, host, sizeof(host));
	if (af == AF_INET6)
		snprintf(buf, bufsz, "[%s]:%u", host, ws_addr_port(a));
	else
		snprintf(buf, bufsz, "%s:%u", host, ws_addr_port(a));
}

uint16_t ws_addr_port(const ws_addr *a)
{
	if (a->ss.ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)&a->ss)->sin6_port);
	return ntohs(((const struct sockaddr_in *)&a->ss)->sin_port);
}

void ws_addr_set_port(ws_addr *a, uint16_t port)
{
	if (a->ss.ss_family == AF_INET6)
		((struct sockaddr_in6 *)&a->ss)->sin6_port = htons(port);
	else
		((struct sockaddr_in *)&a->ss)->sin_port = htons(port);
}

int ws_addr_family(const ws_addr *a) { return a->ss.ss_family; }

int ws_addr_is_loopback(const ws_addr *a)
{
	int af;
	const unsigned char *p = in_addr_of(a, &af);
	if (af == AF_INET)
		return p[0] == 127;
	return IN6_IS_ADDR_LOOPBACK((const struct in6_addr *)p);
}

int ws_addr_same_host(const ws_addr *a, const ws_addr *b)
{
	int fa, fb;
	const void *pa = in_addr_of(a, &fa), *pb = in_addr_of(b, &fb);
	if (fa == fb && memcmp(pa, pb, fa == AF_INET ? 4 : 16) == 0)
		return 1;
	return ws_addr_is_loopback(a) && ws_addr_is_loopback(b);
}

void ws_addr_unmap_v4(ws_addr *a)
{
	if (a->ss.ss_family != AF_INET6)
		return;
	struct sockaddr_in6 s6;
	memcpy(&s6, &a->ss, sizeof(s6));
	if (!IN6_IS_ADDR_V4MAPPED(&s6.sin6_addr))
		return;
	struct sockaddr_in s4;
	memset(&s4, 0, sizeof(s4));
	s4.sin_family = AF_INET;
	s4.sin_port = s6.sin6_port;
	memcpy(&s4.sin_addr, &s6.sin6_addr.s6_addr[12], 4);
	memset(&a->ss, 0, sizeof(a->ss));
	memcpy(&a->ss, &s4, sizeof(s4));
	a->len = sizeof(s4);
}
