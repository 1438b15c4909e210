/* SPDX-License-Identifier: BSD-2-Clause */
/* sockopt: the data-socket options that benchmark harnesses pass to netperf (-Y IP_TOS,
 * -y SO_PRIORITY, -S SO_KEEPALIVE, test options -K TCP_CONGESTION, -C TCP_CORK, -G
 * TCP_MAXSEG), applied in one place for the client and the daemon and read back with
 * getsockopt, because the kernel may refuse or adjust them and a result must say what was in
 * effect. A refusal is an error that names the option, the value and, for a congestion
 * control the kernel lacks, the names it has (/proc/sys/net/ipv4/
 * tcp_available_congestion_control). */
#ifndef WS_NET_SOCKOPT_H
#define WS_NET_SOCKOPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ws_err;

/* What to apply to one data socket; 0 / "" / false leave the default. */
typedef struct ws_sockopt_req {
	int tos;          /* IP_TOS, or IPV6_TCLASS on an IPv6 socket */
	int priority;     /* SO_PRIORITY */
	const char *cong; /* TCP_CONGESTION (TCP only) */
	bool keepalive;   /* SO_KEEPALIVE (TCP only) */
	bool cork;        /* TCP_CORK (TCP only) */
	uint32_t maxseg;  /* TCP_MAXSEG (TCP only; takes effect when set before connect) */
	bool dontroute;   /* SO_DONTROUTE (netperf's test option -R 0) */
	bool tcp;
} ws_sockopt_req;

/* What getsockopt read back after applying (for the -v 2 line and the daemon's log). */
typedef struct ws_sockopt_applied {
	int tos, priority; /* -1 when not asked for */
	char cong[16];     /* "" when not read (not TCP) */
	uint32_t maxseg;   /* 0 when not read */
	bool keepalive, cork;
} ws_sockopt_applied;

/* Apply r to fd and read the values back into *out (may be NULL). Returns 0, or a negative
 * error naming the option and value the kernel refused. */
int ws_sockopt_apply(int fd, const ws_sockopt_req *r, ws_sockopt_applied *out, struct ws_err *err);

/* Read back what r asked for (tos, priority) and, on TCP, TCP_MAXSEG, TCP_CONGESTION,
 * SO_KEEPALIVE and TCP_CORK, without setting anything. */
void ws_sockopt_read(int fd, const ws_sockopt_req *r, ws_sockopt_applied *out);

/* The kernel's available congestion controls, space-separated ("" when unreadable). */
void ws_sockopt_cong_available(char *buf, size_t bufsz);

/* "tos 0x10 priority 3 keepalive cork maxseg 1000 cc reno": what *a holds (the fields
 * that were read), for the -v 2 line and the daemon's log. */
void ws_sockopt_describe(const ws_sockopt_applied *a, char *buf, size_t bufsz);

/* netperf's -Y value as its parse_ipqos reads it: a DiffServ or TOS name (af11..af43,
 * cs0..cs7, ef, lowdelay, throughput, reliability; any case), or a number in C notation
 * (0x10, 020, 16) from 0 to 255. Returns the TOS byte, or -1 when it is neither. */
int ws_sockopt_parse_tos(const char *s);

#endif
