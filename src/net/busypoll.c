/* SPDX-License-Identifier: BSD-2-Clause */
/* busypoll: SO_BUSY_POLL set and read back; see busypoll.h. */
#include "net/busypoll.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

/* asm-generic/socket.h, for C libraries that predate them */
#ifndef SO_BUSY_POLL
#define SO_BUSY_POLL 46
#endif
#ifndef SO_INCOMING_NAPI_ID
#define SO_INCOMING_NAPI_ID 56
#endif

int64_t ws_busypoll_set(int fd, uint32_t usecs, char *note, size_t n)
{
	if (n)
		note[0] = 0;
	if (usecs == 0)
		return 0;
	int v = (int)usecs;
	if (setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &v, sizeof(v)) < 0) {
		int e = errno;
		snprintf(note, n, "SO_BUSY_POLL %u refused: %s%s; the receive spins only", usecs,
			 strerror(e),
			 e == EPERM ? " (above net.core.busy_read needs CAP_NET_ADMIN)" : "");
		return -1;
	}
	v = 0;
	socklen_t l = sizeof(v);
	if (getsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &v, &l) < 0)
		return (int64_t)usecs;
	return v;
}

uint32_t ws_busypoll_napi_id(int fd)
{
	unsigned int id = 0;
	socklen_t l = sizeof(id);
	if (getsockopt(fd, SOL_SOCKET, SO_INCOMING_NAPI_ID, &id, &l) < 0)
		return 0;
	return id;
}
