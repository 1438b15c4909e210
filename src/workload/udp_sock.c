/* SPDX-License-Identifier: BSD-2-Clause */
/* udp_sock: what both UDP_STREAM roles share; see udp_sock.h. */
#include "workload/udp_sock.h"

#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>

int ws_udp_msg_size(const ws_test_spec *spec, uint32_t sndbuf_set, uint32_t *size, ws_err *err)
{
	uint32_t s = spec->send_size;
	if (s == 0)
		s = sndbuf_set > WS_UDP_MAX_MSG || sndbuf_set == 0 ? WS_UDP_MAX_MSG : sndbuf_set;
	if (s < WS_UDP_MIN_MSG || s > WS_UDP_MAX_MSG)
		return ws_err_set(
			err, WS_E_INVAL,
			"UDP_STREAM message size %u is out of range; expected %d to %d bytes "
			"(warpspeed's %d-byte sequence header up to the largest UDP payload)",
			s, WS_UDP_MIN_MSG, WS_UDP_MAX_MSG, WS_UDP_HDR_LEN);
	*size = s;
	return 0;
}

void ws_udp_note(ws_side_result *res, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(res->io_note, sizeof(res->io_note), fmt, ap);
	va_end(ap);
}
