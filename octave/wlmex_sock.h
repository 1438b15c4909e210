/* SPDX-License-Identifier: BSD-2-Clause */
/* wlmex_sock: the MEX transport's socket table (WARPLab's 65 handles) and, per handle, the
 * libwarpspeed IQ handle its Read IQ and Write IQ calls run on.
 *
 * WARPLab's M code opens a socket with INIT_SOCKET and uses the number it gets for plain
 * datagrams (SEND, RECEIVE) and for the IQ transfers. The datagrams go out of that socket
 * as in WARPLab; the IQ transfers run on a second, connected socket owned by a
 * libwarpspeed handle for the node they address (created on first use, kept until the
 * node, its IDs or the packet geometry change, closed with the slot), so that late
 * answers of a transfer never reach the M code's RECEIVE and the kernel drops datagrams
 * from anyone else. Plain C: no MEX calls, so nothing here can raise. */
#ifndef WLMEX_SOCK_H
#define WLMEX_SOCK_H

#include <warpspeed/iq.h>

#include <netinet/in.h>
#include <stdint.h>

#define WLMEX_SLOTS 65

typedef struct wlmex_slot {
	int fd;             /* -1: closed */
	int timeout_ms;     /* SET_SO_TIMEOUT, stored as WARPLab does */
	int sndbuf, rcvbuf; /* last SET_*_BUF_SIZE as the kernel applied it */
	ws_iq_node *iq;     /* IQ handle for the node below, or NULL */
	struct in_addr iq_addr;
	int iq_port;
	uint16_t iq_node_id, iq_host_id;
	uint32_t iq_spp;
	uint32_t iq_window0; /* the IQ handle's own Read IQ window (bytes in flight) */
} wlmex_slot;

/* Opens a non-blocking IPv4 UDP socket (SO_REUSEADDR, SO_BROADCAST) in the first free
 * slot: its number, or -1 when all are taken (errno EMFILE) or socket() failed. */
int wlmex_sock_open(void);

/* The open slot h, or NULL when h is out of range or closed. */
wlmex_slot *wlmex_sock_get(int64_t h);

/* Closes slot h and its IQ handle; a closed or unknown slot is ignored. */
void wlmex_sock_close(int64_t h);

/* Closes every slot (the MEX's unload). */
void wlmex_sock_close_all(void);

/* The IQ handle of slot s for node ip:port, node ID and host ID, spp samples per packet
 * (opened, or reopened when any of them changed); NULL with err filled on failure. */
ws_iq_node *wlmex_sock_iq(wlmex_slot *s, struct in_addr ip, int port, uint16_t node_id,
			  uint16_t host_id, uint32_t spp, ws_iq_error *err);

#endif
