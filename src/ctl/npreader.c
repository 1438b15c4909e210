/* SPDX-License-Identifier: BSD-2-Clause */
/* npreader: one netperf message at a time off a non-blocking socket; see npreader.h. */
#include "ctl/npreader.h"

#include "util/err.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

void ws_np_reader_init(ws_np_reader *rd)
{
	rd->got = 0;
	rd->full = 0;
}

void ws_np_reader_prime(ws_np_reader *rd, const uint8_t *p, size_t n)
{
	if (n > WS_NP_MSG_LEN)
		n = WS_NP_MSG_LEN;
	memcpy(rd->buf, p, n);
	rd->got = n;
	rd->full = n == WS_NP_MSG_LEN; /* a whole message: the next read starts another */
}

int ws_np_reader_read(ws_np_reader *rd, int fd, ws_err *err)
{
	if (rd->full) {
		rd->got = 0; /* the previous call returned a whole message */
		rd->full = 0;
	}
	while (rd->got < WS_NP_MSG_LEN) {
		ssize_t r = recv(fd, rd->buf + rd->got, WS_NP_MSG_LEN - rd->got, MSG_DONTWAIT);
		if (r > 0) {
			rd->got += (size_t)r;
			continue;
		}
		if (r == 0) {
			if (rd->got == 0)
				return ws_err_set(err, ECONNRESET,
						  "the netperf peer closed the connection");
			return ws_err_set(err, ECONNRESET,
					  "the netperf peer closed the connection after %zu bytes "
					  "of a %d-byte message",
					  rd->got, WS_NP_MSG_LEN);
		}
		if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
			return 0;
		return ws_err_errno(err, "receive a netperf message");
	}
	rd->full = 1;
	return 1;
}
