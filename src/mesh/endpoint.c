/* SPDX-License-Identifier: BSD-2-Clause */
/* endpoint: a rank's data address and the checks of exchanged records; see endpoint.h. */
#include "mesh/endpoint.h"

#include "net/addr.h"
#include "util/err.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int ws_mesh_addr_template(const char *tmpl, int rank, char *out, size_t n, ws_err *err)
{
	size_t o = 0;
	for (const char *p = tmpl; *p; p++) {
		char piece[16];
		if (*p != '%') {
			piece[0] = *p;
			piece[1] = 0;
		} else if (p[1] == 'r') {
			snprintf(piece, sizeof(piece), "%d", rank + 1);
			p++;
		} else if (p[1] == '%') {
			strcpy(piece, "%");
			p++;
		} else {
			return ws_err_set(err, WS_E_INVAL,
					  "--bind-addr '%s': '%%%c' is not a substitution; "
					  "expected %%r (the rank + 1) or %%%%",
					  tmpl, p[1] ? p[1] : ' ');
		}
		size_t k = strlen(piece);
		if (k >= n - o || n == 0)
			return ws_err_set(err, WS_E_INVAL,
					  "--bind-addr '%s' is longer than %zu bytes for rank %d",
					  tmpl, n ? n - 1 : 0, rank);
		memcpy(out + o, piece, k + 1);
		o += k;
	}
	if (o == 0)
		return ws_err_set(err, WS_E_INVAL,
				  "--bind-addr is empty; expected an address such as 10.0.0.%%r");
	return 0;
}

static int fam_of(int af) { return af == AF_INET ? 4 : af == AF_INET6 ? 6 : 0; }

/* A rank for an address: lower is better; -1 = not usable for family. */
static int score(const struct ifaddrs *ifa, const char *iface, int family)
{
	if (!ifa->ifa_addr || !fam_of(ifa->ifa_addr->sa_family))
		return -1;
	if (iface ? strcmp(ifa->ifa_name, iface) != 0
		  : (!(ifa->ifa_flags & IFF_UP) || (ifa->ifa_flags & IFF_LOOPBACK)))
		return -1;
	int f = fam_of(ifa->ifa_addr->sa_family);
	if (family && f != family)
		return -1;
	int s = f == 4 ? 0 : 2; /* family 0: IPv4 first */
	if (f == 6 &&
	    IN6_IS_ADDR_LINKLOCAL(
		    &((const struct sockaddr_in6 *)(const void *)ifa->ifa_addr)->sin6_addr))
		s++;
	return s;
}

int ws_mesh_addr_of_if(const char *iface, int family, char *out, size_t n, ws_err *err)
{
	struct ifaddrs *all;
	if (getifaddrs(&all) < 0)
		return ws_err_errno(err, "getifaddrs");
	const struct ifaddrs *best = NULL;
	int best_score = 99;
	bool named = false;
	char have[256] = "";
	size_t hl = 0;
	for (const struct ifaddrs *ifa = all; ifa; ifa = ifa->ifa_next) {
		if (iface && strcmp(ifa->ifa_name, iface) == 0)
			named = true;
		int s = score(ifa, iface, family);
		if (s >= 0 && s < best_score) {
			best = ifa;
			best_score = s;
		}
		/* Names with an address of the family, for the message. */
		if (ifa->ifa_addr && fam_of(ifa->ifa_addr->sa_family) &&
		    (!family || fam_of(ifa->ifa_addr->sa_family) == family) &&
		    !strstr(have, ifa->ifa_name) && hl < sizeof(have) - 1)
			hl += (size_t)snprintf(have + hl, sizeof(have) - hl, "%s%s", hl ? ", " : "",
					       ifa->ifa_name);
	}
	int rc = 0;
	const char *fam = family == 4 ? "IPv4 " : family == 6 ? "IPv6 " : "";
	if (!best && iface && !named) {
		rc = ws_err_set(err, ENODEV,
				"--bind-if %s: no such interface with an address; interfaces with "
				"an %saddress: %s",
				iface, fam, hl ? have : "none");
	} else if (!best) {
		rc = ws_err_set(err, EADDRNOTAVAIL,
				"%s%s has no %saddress; interfaces with one: %s",
				iface ? "--bind-if " : "",
				iface ? iface : "no interface that is up and not loopback", fam,
				hl ? have : "none");
	} else {
		char a[INET6_ADDRSTRLEN];
		const void *src = best->ifa_addr->sa_family == AF_INET
			? (const void *)&((const struct sockaddr_in *)(const void *)best->ifa_addr)
				  ->sin_addr
			: (const void *)&((const struct sockaddr_in6 *)(const void *)best->ifa_addr)
				  ->sin6_addr;
		inet_ntop(best->ifa_addr->sa_family, src, a, sizeof(a));
		int k = best_score == 3 ? snprintf(out, n, "%s%%%s", a, best->ifa_name)
					: snprintf(out, n, "%s", a);
		if (k < 0 || (size_t)k >= n)
			rc = ws_err_set(err, WS_E_INVAL,
					"the address %s of %s does not fit in %zu bytes", a,
					best->ifa_name, n);
	}
	freeifaddrs(all);
	return rc;
}

int ws_mesh_addr_numeric(const char *host, int family, char *out, size_t n, int *family_out,
			 ws_err *err)
{
	ws_addr a;
	int rc = ws_addr_resolve(host, 0, family, 1, &a, err);
	if (rc < 0)
		return rc;
	ws_addr_format(&a, out, n);
	*family_out = ws_addr_family(&a) == AF_INET6 ? 6 : 4;
	/* A v4-mapped address formats as IPv4, which the daemon would then bind as IPv4. */
	if (*family_out == 6 && !strchr(out, ':'))
		*family_out = 4;
	return 0;
}

static bool terminated(const char *s, size_t n) { return memchr(s, 0, n) != NULL; }

int ws_mesh_peer_check(ws_mesh_peer *p, int rank, ws_err *err)
{
	bool th = terminated(p->host, sizeof(p->host)), ta = terminated(p->addr, sizeof(p->addr));
	p->host[sizeof(p->host) - 1] = 0;
	p->addr[sizeof(p->addr) - 1] = 0;
	if (!th || !ta)
		return ws_err_set(err, WS_E_PROTO,
				  "rank %d sent an endpoint whose %s is not terminated", rank,
				  th ? "address" : "host name");
	if (p->status < 0)
		return 0; /* no daemon: its address may be anything */
	if (p->status > 0)
		return ws_err_set(err, WS_E_PROTO,
				  "rank %d sent an endpoint with status %d; expected 0 or negative",
				  rank, (int)p->status);
	if (p->family != 4 && p->family != 6)
		return ws_err_set(err, WS_E_PROTO,
				  "rank %d sent address family %u; expected 4 or 6", rank,
				  (unsigned)p->family);
	if (p->port == 0)
		return ws_err_set(err, WS_E_PROTO,
				  "rank %d sent port 0 for its daemon; expected 1 to 65535", rank);
	/* Only a numeric address of the stated family: nothing is resolved on another's word. */
	char plain[WS_MESH_ADDR_MAX];
	snprintf(plain, sizeof(plain), "%s", p->addr);
	char *scope = strchr(plain, '%');
	if (scope && p->family == 6)
		*scope = 0;
	unsigned char buf[sizeof(struct in6_addr)];
	if (inet_pton(p->family == 4 ? AF_INET : AF_INET6, plain, buf) != 1)
		return ws_err_set(err, WS_E_PROTO,
				  "rank %d sent '%.63s', which is not a numeric IPv%u address",
				  rank, p->addr, (unsigned)p->family);
	return 0;
}
