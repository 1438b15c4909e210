/* SPDX-License-Identifier: BSD-2-Clause */
/* busypoll: SO_BUSY_POLL on a data socket, and whether it can do anything there.
 *
 * --busy-poll makes the request/response engines spin on non-blocking receives instead of
 * sleeping in the kernel (workload/rr.c, rr_multi.c), and asks the kernel to busy-poll the
 * device queue for up to USECS on each receive. The kernel busy-polls only a socket whose
 * last packet came through a NAPI device (SO_INCOMING_NAPI_ID non-zero); loopback has no
 * NAPI, so there the spin is all there is. Raising SO_BUSY_POLL above net.core.busy_read
 * needs CAP_NET_ADMIN (socket(7)); the value read back, or the refusal, goes into the
 * result, never hidden. */
#ifndef WS_NET_BUSYPOLL_H
#define WS_NET_BUSYPOLL_H

#include <stddef.h>
#include <stdint.h>

/* Set SO_BUSY_POLL to usecs on fd (nothing for 0). Returns the value read back, or -1 when
 * the kernel refused it, with why (errno's text and the rule) in note[0..n). */
int64_t ws_busypoll_set(int fd, uint32_t usecs, char *note, size_t n);

/* The NAPI id of the device fd last received from (SO_INCOMING_NAPI_ID); 0 for none. */
uint32_t ws_busypoll_napi_id(int fd);

#endif
