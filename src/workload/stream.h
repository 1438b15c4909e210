/* SPDX-License-Identifier: BSD-2-Clause */
/* stream: the bulk-transfer engine, written once as a sender role and a receiver role.
 *
 * TCP_STREAM runs the sender on the client and the receiver on the daemon; TCP_MAERTS
 * swaps them; TCP_SENDFILE is TCP_STREAM with the sendfile path. The sender stops at the
 * deadline (or byte count), half-closes, and waits for the receiver's close, so its
 * elapsed time includes the drain, as in netperf. Deadlines are checked on the monotonic
 * clock inside the loop; no signals. A peer that stops moving data for `stall_ns` ends
 * the role with an error instead of a hang, and a timed receiver ends at its duration +
 * WS_STREAM_END_STALL_NS however the sender trickles (the end-of-test stall limit). */
#ifndef WS_WORKLOAD_STREAM_H
#define WS_WORKLOAD_STREAM_H

#include "model/spec.h"
#include "net/tcpio.h"

#include <stdint.h>

struct ws_err;
struct ws_interim_counter;

/* Past the test's end, this long without progress ends a role with an error. */
#define WS_STREAM_END_STALL_NS (3 * 1000000000LL)

typedef struct ws_stream_params {
	int fd;               /* connected, blocking data socket */
	uint32_t send_size;   /* bytes per send call (sender) */
	uint32_t sndbuf;      /* the send socket buffer as set up (TCP_SENDFILE's span) */
	uint32_t recv_size;   /* bytes per recv call (receiver) */
	enum ws_end_kind end; /* WS_END_TIME or WS_END_BYTES */
	int64_t duration_ns;  /* WS_END_TIME: measured from the role's start */
	uint64_t byte_limit;  /* WS_END_BYTES */
	int64_t stall_ns;     /* no progress for this long is an error */
	enum ws_tcp_tx tx;    /* sender's path */
	int file_fd;          /* WS_TX_SENDFILE's source; on the other paths the -F file that
	                         * fills the send buffer; -1 for none */
	enum ws_tcp_rx rx;    /* receiver's path */
	uint32_t rcvlowat;    /* receiver's wake threshold (ws_tcpio_rx_wake), 0 = kernel's */
	int64_t cap_ns;       /* monotonic time at which the role ends whatever the peer does
	                         * (the daemon's --max-duration), 0 = none; see ws_stream_capped */
	/* -D: the flows' interim counters (measure/interim.h, ws_interim_at: flow i's is
	 * progress + i; one stream is flow 0), bumped by the bytes of this role's direction;
	 * NULL = none (the daemon, or no -D). */
	struct ws_interim_counter *progress;
	/* NULL, or where each send call's time (receive calls' on the receiver) goes, as
	 * netperf's latency outputs on the stream tests (spec->call_latency) */
	struct ws_hist *call_hist;
	/* NULL, or called with a data socket just before the sender half-closes it: the last
	 * moment all of an MPTCP connection's subflows are surely up (run.c reads them then) */
	void (*before_half_close)(void *arg, int fd);
	void *before_half_close_arg;
} ws_stream_params;

typedef struct ws_stream_counts {
	uint64_t bytes_sent, bytes_recv;
	uint64_t send_calls, recv_calls;
	int64_t elapsed_ns;
	const char *path; /* the I/O path that ran (static string) */
	char note[96];    /* why a requested path fell back, or "" */
	uint64_t zc_sends, zc_copied;
	uint32_t rcvlowat; /* receiver: the wake threshold the kernel kept */
} ws_stream_counts;

/* The error of a role ended by its time cap (cap_ns): -WS_E_LIMIT, with a message saying how
 * far the test got ("stopped by the time cap after 2.5 s, 1234 bytes received"), which the
 * daemon prefixes with the limit and its option. Shared by every engine. */
int ws_stream_capped(int64_t t0, uint64_t bytes, const char *moved, struct ws_err *err);

/* Fill buf with the file's bytes from its start, repeating the file when it is shorter than
 * n: netperf's -F, so that the data on the wire is the user's (compressible or not).
 * Returns 0, or -1 with errno set when the file cannot be read or is empty. */
int ws_stream_fill_from_file(void *buf, size_t n, int fd);

/* n bytes (at least 1) aligned to a page and filled with a fixed pattern, not zeros, so
 * that nothing on the path can shortcut the copy; NULL when out of memory. free() it. */
void *ws_stream_alloc_pattern(size_t n);

/* Send until the end condition, shut down the write side, then read until the peer
 * closes. Counts are filled even on error (what was moved before it). */
int ws_stream_send(const ws_stream_params *p, ws_stream_counts *c, struct ws_err *err);

/* Read until the peer half-closes; the caller then closes the socket, which ends the
 * sender's drain. */
int ws_stream_recv(const ws_stream_params *p, ws_stream_counts *c, struct ws_err *err);

#endif
