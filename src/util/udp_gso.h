/* SPDX-License-Identifier: BSD-2-Clause */
/* udp_gso: the control message of a UDP GSO send (UDP_SEGMENT), for the node's Read IQ
 * streams and the host's Write IQ batches alike.
 *
 * Both ends send runs of equal-size WARPLab packets as one message that the kernel cuts
 * at the segment size; the cmsg is the same few lines each time, so it lives here once.
 * Header-only: no object, so it adds no dependency between the modules that use it. */
#ifndef WS_UTIL_UDP_GSO_H
#define WS_UTIL_UDP_GSO_H

#include <netinet/in.h>
#include <netinet/udp.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif

/* Sets h's control data to one UDP_SEGMENT of seg bytes, in ctl: CMSG_SPACE(2) bytes
 * (24 on LP64), aligned for a cmsghdr (an array of uint64_t does). */
static inline void ws_udp_gso_cmsg(struct msghdr *h, void *ctl, uint16_t seg)
{
	h->msg_control = ctl;
	h->msg_controllen = CMSG_SPACE(sizeof(uint16_t));
	struct cmsghdr *c = CMSG_FIRSTHDR(h);
	c->cmsg_level = SOL_UDP;
	c->cmsg_type = UDP_SEGMENT;
	c->cmsg_len = CMSG_LEN(sizeof(uint16_t));
	memcpy(CMSG_DATA(c), &seg, sizeof seg);
}

#endif
