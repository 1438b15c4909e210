/* SPDX-License-Identifier: BSD-2-Clause */
/* tcp_pairs: connected TCP socket pairs over a loopback listener, for the unit tests that
 * run both ends of an engine in one process (test_rr_multi.c, test_workload.c).
 * Header-only. */
#ifndef WS_TEST_TCP_PAIRS_H
#define WS_TEST_TCP_PAIRS_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>

/* n connected TCP pairs, Nagle off: cli[i] talks to srv[i]. 0, or -1 on any failure. */
static int tcp_pairs(uint32_t n, int *cli, int *srv)
{
	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t al = sizeof a;
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof a) < 0 || listen(l, 64) < 0 ||
	    getsockname(l, (struct sockaddr *)&a, &al) < 0)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		cli[i] = socket(AF_INET, SOCK_STREAM, 0);
		if (connect(cli[i], (struct sockaddr *)&a, sizeof a) < 0)
			return -1;
		srv[i] = accept(l, NULL, NULL);
		int one = 1;
		setsockopt(cli[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		setsockopt(srv[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	}
	close(l);
	return 0;
}

#endif
