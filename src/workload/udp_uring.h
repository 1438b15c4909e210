/* SPDX-License-Identifier: BSD-2-Clause */
/* udp_uring: UDP_STREAM's I/O on io_uring (--engine io_uring), for the sender (udp_tx.c)
 * and the receiver (udp_rx.c), which keep all their bookkeeping (sequence numbers, window,
 * pace, END phase, accounting, reports) and call these in place of sendmmsg and recvmmsg.
 *
 * The sender queues a batch of datagrams as one write each from a buffer registered with
 * the ring (IORING_OP_WRITE_FIXED: the kernel does not map the user pages per call),
 * linked so that they leave in order, and hands them to the kernel in one io_uring_enter,
 * which also collects their completions.
 * The receiver keeps one multishot receive armed for the whole test, taking buffers from a
 * provided-buffer ring, so the kernel fills buffers as datagrams come without a request per
 * call; it waits for a batch of completions at a time (the ring defers its completion work
 * to the wait: a busy sender does not pay a wakeup per datagram). No UDP_SEGMENT and no
 * UDP_GRO here: the engine table refuses --gso and --gro with io_uring. */
#ifndef WS_WORKLOAD_UDP_URING_H
#define WS_WORKLOAD_UDP_URING_H

#include <stdbool.h>
#include <stdint.h>

struct ws_err;
struct ws_udp_uring;

/* The sender's ring for datagrams of size bytes on connected socket fd: batch slots of
 * size bytes, each filled from payload (the header is written per send). */
int ws_udp_uring_tx_open(struct ws_udp_uring **u, int fd, const uint8_t *payload, uint32_t size,
			 uint32_t batch, bool sqpoll, struct ws_err *err);

/* Send n (<= batch) datagrams numbered from seq with tag, in order; as sendmmsg, returns
 * how many went out before the first that failed, or -1 with errno set when none did. A
 * failure after some went out is added to *refused (ECONNREFUSED) or *failed (any other
 * error); the failed datagram is the caller's next. */
int ws_udp_uring_send(struct ws_udp_uring *u, uint64_t seq, uint32_t tag, uint32_t n,
		      uint32_t *refused, uint32_t *failed);

/* The receiver's ring on connected socket fd for datagrams up to size bytes (a longer one
 * comes back with length size + 1: the caller counts it as truncated). */
int ws_udp_uring_rx_open(struct ws_udp_uring **u, int fd, uint32_t size, bool sqpoll,
			 struct ws_err *err);

/* The receiver's provided buffers for datagrams up to size bytes, in bytes (at most 2 MiB,
 * as the epoll receiver's batch). */
uint64_t ws_udp_uring_rx_bytes(uint32_t size);

/* Up to max datagrams: their bytes and lengths, valid until the next call. wait: block up
 * to timeout_ns for the first (else for a batch, up to a short nap, as a receiver does while
 * datagrams flow). Returns how many, or -1 with errno (EAGAIN: none in time). */
int ws_udp_uring_recv(struct ws_udp_uring *u, const uint8_t **bufs, unsigned *lens, unsigned max,
		      bool wait, int64_t timeout_ns);

void ws_udp_uring_close(struct ws_udp_uring *u);

#endif
