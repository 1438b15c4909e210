/* SPDX-License-Identifier: BSD-2-Clause */
/* node_allow: IPv4 allow lists of the node emulator; see node_allow.h.
 *
 * The parser is strict about form (four decimal octets, an optional /0../32, commas between
 * entries, nothing else) because a list that silently admitted more than its author meant
 * would defeat its purpose; every refusal quotes the entry and the accepted form. */
#include "iq/node/node_allow.h"

#include "util/err.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#define ALLOW_FORM "a.b.c.d/n with n = 0..32, a.b.c.d, or any; comma-separated"

static uint32_t mask_of(unsigned bits) { return bits ? 0xFFFFFFFFu << (32 - bits) : 0; }

static int add_net(ws_node_allow *a, uint32_t addr, uint32_t mask)
{
	ws_node_net net = {.addr = addr & mask, .mask = mask};
	for (unsigned i = 0; i < a->n; i++)
		if (a->net[i].addr == net.addr && a->net[i].mask == net.mask)
			return 0;
	if (a->n >= WS_NODE_ALLOW_MAX)
		return -1;
	a->net[a->n++] = net;
	return 0;
}

/* One entry of len bytes at s ("a.b.c.d" or "a.b.c.d/n"). */
static int parse_entry(const char *s, size_t len, ws_node_allow *a, ws_err *err)
{
	char buf[32], ip[20];
	if (len == 0 || len >= sizeof buf)
		return ws_err_set(err, WS_E_INVAL, "allow: entry '%.*s' is not a network (%s)",
				  (int)(len > 40 ? 40 : len), s, ALLOW_FORM);
	memcpy(buf, s, len);
	buf[len] = 0;
	char *slash = strchr(buf, '/');
	size_t iplen = slash ? (size_t)(slash - buf) : len;
	struct in_addr in;
	if (iplen >= sizeof ip)
		iplen = sizeof ip - 1;
	memcpy(ip, buf, iplen);
	ip[iplen] = 0;
	if (inet_pton(AF_INET, ip, &in) != 1)
		return ws_err_set(err, WS_E_INVAL, "allow: '%s' is not an IPv4 address (%s)", buf,
				  ALLOW_FORM);
	unsigned bits = 32;
	if (slash) {
		const char *end = slash + 1;
		unsigned long v = 0;
		int digits = 0;
		while (*end >= '0' && *end <= '9' && digits < 3)
			v = v * 10 + (unsigned long)(*end++ - '0'), digits++;
		if (!digits || *end || v > 32)
			return ws_err_set(err, WS_E_INVAL,
					  "allow: prefix length in '%s' is not 0..32 (%s)", buf,
					  ALLOW_FORM);
		bits = (unsigned)v;
	}
	if (add_net(a, ntohl(in.s_addr), mask_of(bits)) < 0)
		return ws_err_set(err, WS_E_INVAL, "allow: more than %d networks at '%s'",
				  WS_NODE_ALLOW_MAX, buf);
	return 0;
}

int ws_node_allow_parse(const char *s, ws_node_allow *a, ws_err *err)
{
	memset(a, 0, sizeof *a);
	if (strcmp(s, "any") == 0) {
		a->any = 1;
		return 0;
	}
	if (!*s)
		return ws_err_set(err, WS_E_INVAL, "allow: the list is empty (%s)", ALLOW_FORM);
	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		if (len == 3 && strncmp(s, "any", 3) == 0)
			return ws_err_set(err, WS_E_INVAL,
					  "allow: 'any' must stand alone, not in a list (%s)",
					  ALLOW_FORM);
		int r = parse_entry(s, len, a, err);
		if (r < 0)
			return r;
		if (!comma)
			return 0;
		s = comma + 1;
	}
}

int ws_node_allow_default(uint32_t bind_addr, ws_node_allow *a, ws_err *err)
{
	memset(a, 0, sizeof *a);
	if (bind_addr >> 24 == 127)
		add_net(a, 0x7F000000u, mask_of(8));
	struct ifaddrs *ifs;
	if (getifaddrs(&ifs) < 0)
		return a->n ? 0 : ws_err_errno(err, "allow: getifaddrs");
	for (const struct ifaddrs *i = ifs; i; i = i->ifa_next) {
		if (!i->ifa_addr || !i->ifa_netmask || i->ifa_addr->sa_family != AF_INET)
			continue;
		struct sockaddr_in sa, sm;
		memcpy(&sa, i->ifa_addr, sizeof sa);
		memcpy(&sm, i->ifa_netmask, sizeof sm);
		uint32_t addr = ntohl(sa.sin_addr.s_addr), mask = ntohl(sm.sin_addr.s_addr);
		if (bind_addr == 0 || (bind_addr & mask) == (addr & mask))
			add_net(a, addr,
				mask); /* beyond WS_NODE_ALLOW_MAX: the rest not admitted */
	}
	freeifaddrs(ifs);
	if (a->n == 0) {
		char b[INET_ADDRSTRLEN];
		struct in_addr in = {.s_addr = htonl(bind_addr)};
		inet_ntop(AF_INET, &in, b, sizeof b);
		return ws_err_set(err, WS_E_INVAL,
				  "allow: no interface holds %s, so there is no default allow list "
				  "(give --allow CIDR[,CIDR...] or --allow any)",
				  b);
	}
	return 0;
}

int ws_node_allow_match(const ws_node_allow *a, uint32_t addr)
{
	if (a->any)
		return 1;
	for (unsigned i = 0; i < a->n; i++)
		if ((addr & a->net[i].mask) == a->net[i].addr)
			return 1;
	return 0;
}

void ws_node_allow_format(const ws_node_allow *a, char *buf, size_t size)
{
	if (!size)
		return;
	buf[0] = 0;
	if (a->any) {
		snprintf(buf, size, "any");
		return;
	}
	size_t used = 0;
	for (unsigned i = 0; i < a->n; i++) {
		char ip[INET_ADDRSTRLEN];
		struct in_addr in = {.s_addr = htonl(a->net[i].addr)};
		inet_ntop(AF_INET, &in, ip, sizeof ip);
		unsigned bits = (unsigned)__builtin_popcount(a->net[i].mask);
		int w = snprintf(buf + used, size - used, "%s%s/%u", i ? "," : "", ip, bits);
		if (w < 0 || (size_t)w >= size - used) {
			if (size > 4)
				memcpy(buf + size - 4, "...", 4);
			return;
		}
		used += (size_t)w;
	}
}
