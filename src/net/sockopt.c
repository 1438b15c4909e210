/* SPDX-License-Identifier: BSD-2-Clause */
/* sockopt: apply and read back the harness options on data sockets; see sockopt.h. */
#include "net/sockopt.h"

#include "util/err.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#define CONG_AVAILABLE "/proc/sys/net/ipv4/tcp_available_congestion_control"
#define CONG_ALLOWED   "/proc/sys/net/ipv4/tcp_allowed_congestion_control"

/* netperf's table (dscp.c, from OpenSSH): DiffServ code points as TOS bytes. */
static const struct {
	const char *name;
	int value;
	/* clang-format off */
} tos_names[] = {
	{"af11", 0x28}, {"af12", 0x30}, {"af13", 0x38}, {"af21", 0x48}, {"af22", 0x50},
	{"af23", 0x58}, {"af31", 0x68}, {"af32", 0x70}, {"af33", 0x78}, {"af41", 0x88},
	{"af42", 0x90}, {"af43", 0x98}, {"cs0", 0x00}, {"cs1", 0x20}, {"cs2", 0x40},
	{"cs3", 0x60}, {"cs4", 0x80}, {"cs5", 0xa0}, {"cs6", 0xc0}, {"cs7", 0xe0},
	{"ef", 0xb8}, {"lowdelay", IPTOS_LOWDELAY}, {"throughput", IPTOS_THROUGHPUT},
	{"reliability", IPTOS_RELIABILITY},
};
/* clang-format on */

int ws_sockopt_parse_tos(const char *s)
{
	if (!s || !*s)
		return -1;
	for (size_t i = 0; i < sizeof(tos_names) / sizeof(tos_names[0]); i++)
		if (strcasecmp(s, tos_names[i].name) == 0)
			return tos_names[i].value;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 0);
	if (*end || errno || v < 0 || v > 255)
		return -1;
	return (int)v;
}

static void read_line(const char *path, char *buf, size_t bufsz)
{
	buf[0] = '\0';
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, (int)bufsz, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

void ws_sockopt_cong_available(char *buf, size_t bufsz) { read_line(CONG_AVAILABLE, buf, bufsz); }

static bool is_v6(int fd)
{
	struct sockaddr_storage ss;
	socklen_t l = sizeof(ss);
	return getsockname(fd, (struct sockaddr *)&ss, &l) == 0 && ss.ss_family == AF_INET6;
}

static int set_int(int fd, int level, int name, int v)
{
	return setsockopt(fd, level, name, &v, sizeof(v));
}

static int get_int(int fd, int level, int name)
{
	int v = -1;
	socklen_t l = sizeof(v);
	return getsockopt(fd, level, name, &v, &l) == 0 ? v : -1;
}

static int set_cong(int fd, const char *cong, ws_err *err)
{
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, cong, (socklen_t)strlen(cong)) == 0)
		return 0;
	int e = errno;
	char have[256];
	if (e == ENOENT) {
		ws_sockopt_cong_available(have, sizeof(have));
		return ws_err_set(err, WS_E_INVAL,
				  "TCP congestion control '%s' is not available on this host; "
				  "expected one of: %s (%s)",
				  cong, have[0] ? have : "(unknown)", CONG_AVAILABLE);
	}
	if (e == EPERM) {
		read_line(CONG_ALLOWED, have, sizeof(have));
		return ws_err_set(err, WS_E_INVAL,
				  "TCP congestion control '%s' is not allowed for unprivileged "
				  "users here; expected one of: %s (%s)",
				  cong, have[0] ? have : "(unknown)", CONG_ALLOWED);
	}
	errno = e;
	return ws_err_errno(err, "setsockopt TCP_CONGESTION %s", cong);
}

static void read_tcp(int fd, ws_sockopt_applied *out)
{
	int mss = get_int(fd, IPPROTO_TCP, TCP_MAXSEG);
	out->maxseg = mss > 0 ? (uint32_t)mss : 0;
	char name[16] = "";
	socklen_t l = sizeof(name);
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name, &l) == 0) {
		name[sizeof(name) - 1] = '\0';
		memcpy(out->cong, name, sizeof(out->cong));
	}
	out->keepalive = get_int(fd, SOL_SOCKET, SO_KEEPALIVE) > 0;
	out->cork = get_int(fd, IPPROTO_TCP, TCP_CORK) > 0;
}

void ws_sockopt_read(int fd, const ws_sockopt_req *r, ws_sockopt_applied *out)
{
	memset(out, 0, sizeof(*out));
	out->tos = out->priority = -1;
	bool v6 = is_v6(fd);
	if (r->tos > 0)
		out->tos = get_int(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? IPV6_TCLASS : IP_TOS);
	if (r->priority > 0)
		out->priority = get_int(fd, SOL_SOCKET, SO_PRIORITY);
	if (r->tcp)
		read_tcp(fd, out);
}

int ws_sockopt_apply(int fd, const ws_sockopt_req *r, ws_sockopt_applied *out, ws_err *err)
{
	bool v6 = is_v6(fd);
	if (r->tos > 0 &&
	    set_int(fd, v6 ? IPPROTO_IPV6 : IPPROTO_IP, v6 ? IPV6_TCLASS : IP_TOS, r->tos) < 0)
		return ws_err_errno(err, "setsockopt %s 0x%02x (-Y)", v6 ? "IPV6_TCLASS" : "IP_TOS",
				    r->tos);
	if (r->priority > 0 && set_int(fd, SOL_SOCKET, SO_PRIORITY, r->priority) < 0)
		return ws_err_errno(err,
				    "setsockopt SO_PRIORITY %d (-y; above 6 needs CAP_NET_ADMIN)",
				    r->priority);
	if (r->dontroute && set_int(fd, SOL_SOCKET, SO_DONTROUTE, 1) < 0)
		return ws_err_errno(err, "setsockopt SO_DONTROUTE (test option -R 0)");
	if (r->tcp && r->keepalive && set_int(fd, SOL_SOCKET, SO_KEEPALIVE, 1) < 0)
		return ws_err_errno(err, "setsockopt SO_KEEPALIVE (-S)");
	if (r->tcp && r->cork && set_int(fd, IPPROTO_TCP, TCP_CORK, 1) < 0)
		return ws_err_errno(err, "setsockopt TCP_CORK (test option -C)");
	if (r->tcp && r->maxseg && set_int(fd, IPPROTO_TCP, TCP_MAXSEG, (int)r->maxseg) < 0)
		return ws_err_errno(err, "setsockopt TCP_MAXSEG %u (test option -G)", r->maxseg);
	if (r->tcp && r->cong && r->cong[0]) {
		int rc = set_cong(fd, r->cong, err);
		if (rc < 0)
			return rc;
	}
	if (out)
		ws_sockopt_read(fd, r, out);
	return 0;
}

void ws_sockopt_describe(const ws_sockopt_applied *a, char *buf, size_t bufsz)
{
	size_t n = 0;
	buf[0] = '\0';
#define ADD(...) (n += (size_t)snprintf(buf + n, n < bufsz ? bufsz - n : 0, __VA_ARGS__))
	if (a->tos >= 0)
		ADD("%stos 0x%02x", n ? " " : "", a->tos);
	if (a->priority >= 0)
		ADD("%spriority %d", n ? " " : "", a->priority);
	if (a->keepalive)
		ADD("%skeepalive", n ? " " : "");
	if (a->cork)
		ADD("%scork", n ? " " : "");
	if (a->maxseg)
		ADD("%smaxseg %u", n ? " " : "", a->maxseg);
	if (a->cong[0])
		ADD("%scc %s", n ? " " : "", a->cong);
#undef ADD
	if (n >= bufsz && bufsz)
		buf[bufsz - 1] = '\0';
}
