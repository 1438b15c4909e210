/* SPDX-License-Identifier: BSD-2-Clause */
/* features: the compile-time table of fast paths. Each entry is decided by a macro the
 * C library's own headers define next to the facility, so a toolchain whose headers lack
 * it yields a build that never tries it. See features.h. */
#include "util/features.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <stdio.h>
#include <poll.h>
#include <string.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

/* glibc and musl declare sendmmsg/recvmmsg in the same release that defines
 * MSG_WAITFORONE, the flag made for recvmmsg. */
#if defined(__linux__) && defined(MSG_WAITFORONE)
#define HAVE_MMSG 1
#else
#define HAVE_MMSG 0
#endif

#if defined(__linux__) && defined(UDP_SEGMENT)
#define HAVE_UDP_SEGMENT 1
#else
#define HAVE_UDP_SEGMENT 0
#endif

#if defined(__linux__) && defined(UDP_GRO)
#define HAVE_UDP_GRO 1
#else
#define HAVE_UDP_GRO 0
#endif

#if defined(__linux__) && defined(MSG_ZEROCOPY)
#define HAVE_MSG_ZEROCOPY 1
#else
#define HAVE_MSG_ZEROCOPY 0
#endif

#if defined(__linux__) && defined(SPLICE_F_MOVE)
#define HAVE_SPLICE 1
#else
#define HAVE_SPLICE 0
#endif

#if defined(TCP_INFO)
#define HAVE_TCP_INFO 1
#else
#define HAVE_TCP_INFO 0
#endif

static const struct {
	const char *name;
	bool built;
} table[WS_FEAT_COUNT] = {
	[WS_FEAT_SENDMMSG] = {"sendmmsg", HAVE_MMSG},
	[WS_FEAT_RECVMMSG] = {"recvmmsg", HAVE_MMSG},
	[WS_FEAT_UDP_SEGMENT] = {"UDP_SEGMENT", HAVE_UDP_SEGMENT},
	[WS_FEAT_UDP_GRO] = {"UDP_GRO", HAVE_UDP_GRO},
	[WS_FEAT_MSG_ZEROCOPY] = {"MSG_ZEROCOPY", HAVE_MSG_ZEROCOPY},
	[WS_FEAT_SPLICE] = {"splice", HAVE_SPLICE},
	[WS_FEAT_TCP_INFO] = {"TCP_INFO", HAVE_TCP_INFO},
};

bool ws_features_built(enum ws_feature f) { return (unsigned)f < WS_FEAT_COUNT && table[f].built; }

const char *ws_features_name(enum ws_feature f)
{
	return (unsigned)f < WS_FEAT_COUNT ? table[f].name : NULL;
}

size_t ws_features_list(char *buf, size_t n)
{
	size_t len = 0;
	for (int f = 0; f < WS_FEAT_COUNT; f++) {
		if (!table[f].built)
			continue;
		int w = snprintf(len < n ? buf + len : NULL, len < n ? n - len : 0, "%s%s",
				 len ? " " : "", table[f].name);
		len += w > 0 ? (size_t)w : 0;
	}
	if (len == 0) {
		int w = snprintf(buf, n, "none");
		return w > 0 ? (size_t)w : 0;
	}
	return len;
}

#if HAVE_UDP_SEGMENT
/* Sends the two-segment datagram from s to r; 1 sent, 0 refused, -1 cannot tell. */
static int probe_send(int s, int r)
{
	struct sockaddr_in to;
	socklen_t tl = sizeof(to);
	if (getsockname(r, (struct sockaddr *)&to, &tl) < 0)
		return -1;
	char payload[16] = "0123456789abcdef";
	struct iovec iov = {.iov_base = payload, .iov_len = sizeof(payload)};
	union {
		char buf[CMSG_SPACE(sizeof(uint16_t))];
		struct cmsghdr align;
	} ctl;
	memset(&ctl, 0, sizeof(ctl));
	struct msghdr m = {.msg_name = &to,
			   .msg_namelen = sizeof(to),
			   .msg_iov = &iov,
			   .msg_iovlen = 1,
			   .msg_control = ctl.buf,
			   .msg_controllen = sizeof(ctl.buf)};
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = IPPROTO_UDP;
	c->cmsg_type = UDP_SEGMENT;
	c->cmsg_len = CMSG_LEN(sizeof(uint16_t));
	uint16_t seg = 8;
	memcpy(CMSG_DATA(c), &seg, sizeof(seg));
	return sendmsg(s, &m, 0) == (ssize_t)sizeof(payload) ? 1 : 0;
}

/* The next datagram's length on r, waiting up to 100 ms; -1 when none came. */
static ssize_t probe_recv(int r)
{
	char buf[64];
	struct pollfd p = {.fd = r, .events = POLLIN};
	if (poll(&p, 1, 100) != 1)
		return -1;
	return recv(r, buf, sizeof(buf), MSG_DONTWAIT);
}
#endif

int ws_features_probe_udp_gso(void)
{
#if HAVE_UDP_SEGMENT
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int r = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int rc = -1;
	struct sockaddr_in lo = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	if (s >= 0 && r >= 0 && bind(r, (struct sockaddr *)&lo, sizeof(lo)) == 0) {
		rc = probe_send(s, r);
		if (rc == 1) {
			ssize_t a = probe_recv(r), b = a == 8 ? probe_recv(r) : -1;
			rc = a < 0 ? -1 : (a == 8 && b == 8) ? 1 : 0;
		}
	}
	if (s >= 0)
		close(s);
	if (r >= 0)
		close(r);
	return rc;
#else
	return 0;
#endif
}

bool ws_features_release_at_least(const char *release, int major, int minor)
{
	char *end;
	long ma = strtol(release, &end, 10);
	if (end == release || *end != '.')
		return false;
	const char *p = end + 1;
	long mi = strtol(p, &end, 10);
	if (end == p)
		return false;
	return ma > major || (ma == major && mi >= minor);
}

bool ws_features_rcvlowat_safe(void)
{
	struct utsname u;
	return uname(&u) == 0 && ws_features_release_at_least(u.release, 5, 0);
}
