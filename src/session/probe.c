/* SPDX-License-Identifier: BSD-2-Clause */
/* probe: warpspeed daemon or netserver, from the first answer; see probe.h. */
#include "session/probe.h"

#include "ctl/npmsg.h"
#include "ctl/tlv.h"
#include "net/sock.h"
#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#define PROBE_MIN_NS (100 * WS_NS_PER_MS)
#define PROBE_MAX_NS (200 * WS_NS_PER_MS)

int64_t ws_probe_wait_ns(int64_t connect_ns)
{
	if (connect_ns < 0 || connect_ns > PROBE_MAX_NS / 4)
		return PROBE_MAX_NS;
	int64_t w = 4 * connect_ns;
	return w < PROBE_MIN_NS ? PROBE_MIN_NS : w;
}

/* 1 when fd has something to read (or its end) within timeout_ns, 0 when not, <0 on error. */
static int readable(int fd, int64_t timeout_ns, ws_err *err)
{
	for (;;) {
		if (timeout_ns < 0)
			timeout_ns = 0;
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int ms = (int)((timeout_ns + WS_NS_PER_MS - 1) / WS_NS_PER_MS);
		int64_t t0 = ws_clock_ns();
		int n = poll(&p, 1, ms);
		if (n >= 0)
			return n > 0;
		if (errno != EINTR)
			return ws_err_errno(err, "poll on the control connection");
		timeout_ns -= ws_clock_ns() - t0;
	}
}

/* Peek at the first bytes of the answer (up to 4) before deadline_ns; *n = 0 at EOF. */
static int peek_start(int fd, uint8_t *b, size_t *n, int64_t deadline_ns, ws_err *err)
{
	for (;;) {
		ssize_t r = recv(fd, b, 4, MSG_PEEK | MSG_DONTWAIT);
		if (r == 4 || r == 0 || (r < 0 && errno == ECONNRESET)) {
			*n = r > 0 ? (size_t)r : 0;
			return 0;
		}
		if (r < 0 && errno != EAGAIN && errno != EINTR)
			return ws_err_errno(err, "reading the answer to the probe");
		int64_t left = deadline_ns - ws_clock_ns();
		if (left <= 0) {
			*n = r > 0 ? (size_t)r : 0;
			return r > 0 ? 0 : -WS_E_TIMEDOUT;
		}
		if (r > 0) { /* part of a header: the rest is on its way */
			ws_clock_sleep_ns(WS_NS_PER_MS);
			continue;
		}
		int rc = readable(fd, left, err);
		if (rc < 0)
			return rc;
	}
}

int ws_probe_peer(int fd, size_t hello_len, int64_t wait_ns, int64_t deadline_ns,
		  enum ws_probe_found *found, ws_err *err)
{
	*found = WS_PROBE_WARPSPEED;
	int rc = readable(fd, wait_ns, err);
	if (rc != 0 || hello_len >= WS_NP_MSG_LEN)
		return rc < 0 ? rc : 0;
	static const uint8_t pad[WS_NP_MSG_LEN];
	rc = ws_sock_write_all(fd, pad, WS_NP_MSG_LEN - hello_len, deadline_ns, err);
	if (rc == -EPIPE || rc == -ECONNRESET) {
		*found = WS_PROBE_CLOSED;
		return 0;
	}
	if (rc < 0)
		return rc;
	uint8_t start[4];
	size_t n = 0;
	rc = peek_start(fd, start, &n, deadline_ns, err);
	if (rc == -WS_E_TIMEDOUT)
		return ws_err_set(err, WS_E_TIMEDOUT,
				  "it accepted the connection but answered neither warpspeed's "
				  "HELLO nor, padded to 656 bytes, netperf's protocol");
	if (rc < 0)
		return rc;
	if (n == 0) {
		*found = WS_PROBE_CLOSED;
		return 0;
	}
	if (n == 4 &&
	    ((uint32_t)start[0] << 24 | (uint32_t)start[1] << 16 | (uint32_t)start[2] << 8 |
	     start[3]) == WS_TLV_MAGIC) {
		*found = WS_PROBE_LATE;
		return 0;
	}
	uint8_t msg[WS_NP_MSG_LEN];
	rc = ws_sock_read_exact(fd, msg, sizeof(msg), deadline_ns, err);
	if (rc == -ECONNRESET || rc == -WS_E_TIMEDOUT) { /* half an answer: not netserver's */
		char detail[WS_ERR_MSG_MAX];
		snprintf(detail, sizeof(detail), "%s", err ? err->msg : "");
		return ws_err_set(err, WS_E_NOTWS,
				  "its answer to the 656-byte netperf probe was cut short: %s",
				  detail);
	}
	if (rc < 0)
		return rc;
	int32_t e = ws_np_word1(msg);
	if (e != WS_NP_ERRNO_UNKNOWN)
		return ws_err_set(err, WS_E_NOTWS,
				  "it answered a 656-byte netperf message of unknown type with "
				  "type %d, error %d; a netserver 2.7 answers error %d",
				  (int)ws_np_type(msg), (int)e, WS_NP_ERRNO_UNKNOWN);
	*found = WS_PROBE_NETSERVER;
	return 0;
}
