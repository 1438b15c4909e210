/* SPDX-License-Identifier: BSD-2-Clause */
/* echoports: the RRUL probes' UDP echo ports in TEST_ACK; see echoports.h. */
#include "session/echoports.h"

#include "ctl/msg.h"
#include "net/sock.h"
#include "util/err.h"

#include <string.h>

/* More ports than this are not counted, only refused. */
#define COUNT_MAX 64

void ws_echoports_put(ws_tlv_writer *w, const int *fds, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		ws_addr bound;
		ws_sock_local_addr(fds[i], &bound);
		ws_tlv_put_u64(w, WS_F_PROBE_PORT, ws_addr_port(&bound));
	}
}

int ws_echoports_get(const ws_tlv_msg *ack, const ws_addr *peer, const char *test,
		     ws_lul_echo *echo, ws_err *err)
{
	uint16_t ports[COUNT_MAX];
	int n = ws_msg_get_ports(ack, WS_F_PROBE_PORT, ports, COUNT_MAX);
	if (n < 0)
		return ws_err_set(err, WS_E_PROTO,
				  "the daemon's TEST_ACK of %s has a probe port (field %d) that is "
				  "not a port from 1 to 65535, or more than %d of them",
				  test, WS_F_PROBE_PORT, COUNT_MAX);
	if (n == 0 || n > WS_LUL_UDP_PROBES)
		return ws_err_set(err, WS_E_PROTO,
				  "the daemon's TEST_ACK of %s has %d probe ports (field %d); "
				  "expected 1 (one echo for all UDP probes) to %d (one per UDP "
				  "probe)",
				  test, n, WS_F_PROBE_PORT, WS_LUL_UDP_PROBES);
	memset(echo, 0, sizeof(*echo));
	echo->addr = *peer;
	memcpy(echo->port, ports, (size_t)n * sizeof(ports[0]));
	echo->n = (uint32_t)n;
	return 0;
}
