/* SPDX-License-Identifier: BSD-2-Clause */
/* mptcp: MPTCP sockets and their state read back; see mptcp.h. */
#include "net/mptcp.h"

#include "net/addr.h"
#include "util/err.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* The kernel's UAPI values (linux/in.h, linux/mptcp.h, linux/tcp.h), for C libraries
 * whose headers predate them. */
#define WS_IPPROTO_MPTCP       262
#define WS_SOL_MPTCP           284
#define WS_MPTCP_INFO          1
#define WS_MPTCP_FULL_INFO     4
#define WS_TCP_IS_MPTCP        43
#define WS_MPTCP_FLAG_FALLBACK 1u

/* struct mptcp_info */
struct ws_k_mptcp_info {
	uint8_t subflows, add_addr_signal, add_addr_accepted, subflows_max;
	uint8_t add_addr_signal_max, add_addr_accepted_max;
	uint32_t flags, token;
	uint64_t write_seq, snd_una, rcv_nxt;
	uint8_t local_addr_used, local_addr_max, csum_enabled;
	uint8_t pad_[5]; /* later kernels append here; their size is read back */
	uint32_t more_[16];
};

/* struct mptcp_subflow_info: an id and the local and remote addresses. */
struct ws_k_subflow_info {
	uint32_t id;
	struct sockaddr_storage local, remote;
};

/* The prefix of struct tcp_info up to tcpi_bytes_received. */
struct ws_k_tcp_info {
	uint8_t head[8];
	uint32_t rto, ato, snd_mss, rcv_mss;
	uint32_t unacked, sacked, lost, retrans, fackets;
	uint32_t last_data_sent, last_ack_sent, last_data_recv, last_ack_recv;
	uint32_t pmtu, rcv_ssthresh, rtt, rttvar, snd_ssthresh, snd_cwnd, advmss, reordering;
	uint32_t rcv_rtt, rcv_space, total_retrans;
	uint64_t pacing_rate, max_pacing_rate, bytes_acked, bytes_received;
};

/* struct mptcp_full_info */
struct ws_k_full_info {
	uint32_t size_tcpinfo_kernel, size_tcpinfo_user;
	uint32_t size_sfinfo_kernel, size_sfinfo_user;
	uint32_t num_subflows, size_arrays_user;
	uint64_t subflow_info __attribute__((aligned(8)));
	uint64_t tcp_info __attribute__((aligned(8)));
	struct ws_k_mptcp_info mptcp_info;
};

int ws_mptcp_proto(bool mptcp) { return mptcp ? WS_IPPROTO_MPTCP : 0; }

int ws_mptcp_check(ws_err *err)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, WS_IPPROTO_MPTCP);
	if (fd < 0 && (errno == EPROTONOSUPPORT || errno == ENOPROTOOPT || errno == EINVAL))
		return ws_err_set(err, EPROTONOSUPPORT,
				  "this kernel makes no MPTCP sockets (socket IPPROTO_MPTCP: %s); "
				  "expected Linux 5.6 or later with net.mptcp.enabled = 1",
				  strerror(errno));
	if (fd < 0)
		return ws_err_errno(err, "socket IPPROTO_MPTCP");
	close(fd);
	return 0;
}

static void format_addr(const struct sockaddr_storage *ss, char *buf, size_t n)
{
	ws_addr a;
	memset(&a, 0, sizeof(a));
	memcpy(&a.ss, ss, sizeof(*ss));
	a.len = ss->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6)
					  : sizeof(struct sockaddr_in);
	if (ss->ss_family != AF_INET && ss->ss_family != AF_INET6)
		snprintf(buf, n, "-");
	else
		ws_addr_format_port(&a, buf, n);
}

/* The subflows, from MPTCP_FULL_INFO (Linux 6.5); nothing on older kernels. */
static void read_subflows(int fd, ws_side_result *res)
{
	struct ws_k_subflow_info sf[WS_MPTCP_MAX_SUBFLOWS];
	struct ws_k_tcp_info ti[WS_MPTCP_MAX_SUBFLOWS];
	struct ws_k_full_info fi;
	memset(sf, 0, sizeof(sf));
	memset(ti, 0, sizeof(ti));
	memset(&fi, 0, sizeof(fi));
	fi.size_tcpinfo_user = sizeof(ti[0]);
	fi.size_sfinfo_user = sizeof(sf[0]);
	fi.size_arrays_user = WS_MPTCP_MAX_SUBFLOWS;
	fi.subflow_info = (uint64_t)(uintptr_t)sf;
	fi.tcp_info = (uint64_t)(uintptr_t)ti;
	socklen_t len = sizeof(fi);
	if (getsockopt(fd, WS_SOL_MPTCP, WS_MPTCP_FULL_INFO, &fi, &len) < 0)
		return;
	uint32_t n =
		fi.num_subflows < WS_MPTCP_MAX_SUBFLOWS ? fi.num_subflows : WS_MPTCP_MAX_SUBFLOWS;
	for (uint32_t i = 0; i < n; i++) {
		ws_mptcp_subflow *o = &res->mptcp_sf[i];
		o->id = sf[i].id;
		format_addr(&sf[i].local, o->local, sizeof(o->local));
		format_addr(&sf[i].remote, o->remote, sizeof(o->remote));
		o->bytes_acked = ti[i].bytes_acked;
		o->bytes_recv = ti[i].bytes_received;
		o->rtt_us = ti[i].rtt;
	}
	res->mptcp_nsf = n;
	if (fi.num_subflows)
		res->mptcp_subflows = fi.num_subflows; /* the real count, the initial included */
}

const char *ws_mptcp_state(int fd, uint32_t *subflows)
{
	uint32_t n = 0;
	const char *st = "";
	int proto = 0;
	socklen_t l = sizeof(proto);
	if (getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &l) < 0)
		proto = -1;
	if (proto == IPPROTO_TCP) {
		st = "tcp";
		n = 1;
	} else if (proto == WS_IPPROTO_MPTCP) {
		/* A connection that fell back passes these to its one TCP socket, which says 0
		 * and knows no SOL_MPTCP; newer kernels also flag the fallback in MPTCP_INFO. */
		int is_mptcp = 0;
		l = sizeof(is_mptcp);
		if (getsockopt(fd, IPPROTO_TCP, WS_TCP_IS_MPTCP, &is_mptcp, &l) < 0)
			is_mptcp = 0;
		struct ws_k_mptcp_info mi;
		memset(&mi, 0, sizeof(mi));
		l = sizeof(mi);
		bool info = getsockopt(fd, WS_SOL_MPTCP, WS_MPTCP_INFO, &mi, &l) == 0;
		bool active = is_mptcp == 1 && info && !(mi.flags & WS_MPTCP_FLAG_FALLBACK);
		st = active ? "mptcp" : "fallback";
		/* mptcpi_subflows counts the subflows beside the initial one */
		n = active ? (uint32_t)mi.subflows + 1 : 1;
	}
	if (subflows)
		*subflows = n;
	return st;
}

/* A subflow the kernel has disconnected reads back with remote port 0. */
static bool disconnected(const ws_mptcp_subflow *sf)
{
	size_t n = strlen(sf->remote);
	return n < 2 || strcmp(sf->remote + n - 2, ":0") == 0;
}

bool ws_mptcp_whole(const ws_side_result *earlier, const ws_side_result *later)
{
	if (strcmp(earlier->mptcp_state, later->mptcp_state) != 0 ||
	    later->mptcp_subflows < earlier->mptcp_subflows ||
	    later->mptcp_nsf < earlier->mptcp_nsf)
		return false;
	for (uint32_t i = 0; i < later->mptcp_nsf; i++)
		if (disconnected(&later->mptcp_sf[i]))
			return false;
	return true;
}

void ws_mptcp_update(int fd, ws_side_result *res)
{
	ws_side_result later = *res; /* a shallow copy: only its MPTCP fields are written */
	ws_mptcp_record(fd, &later);
	if (!ws_mptcp_whole(res, &later))
		return;
	memcpy(res->mptcp_state, later.mptcp_state, sizeof(res->mptcp_state));
	memcpy(res->mptcp_sf, later.mptcp_sf, sizeof(res->mptcp_sf));
	res->mptcp_subflows = later.mptcp_subflows;
	res->mptcp_nsf = later.mptcp_nsf;
}

void ws_mptcp_record(int fd, ws_side_result *res)
{
	const char *st = ws_mptcp_state(fd, &res->mptcp_subflows);
	if (!*st)
		return;
	snprintf(res->mptcp_state, sizeof(res->mptcp_state), "%s", st);
	res->mptcp_nsf = 0;
	if (strcmp(st, "mptcp") == 0)
		read_subflows(fd, res);
}
