/* SPDX-License-Identifier: BSD-2-Clause */
/* tcpio: the TCP data paths a stream test can take, chosen once per test.
 *
 * Sending: send(), sendfile() from a file, or send() with MSG_ZEROCOPY (completions
 * reaped from the error queue, and counted when the kernel copied anyway). Receiving:
 * recv() into a buffer, recv() with MSG_TRUNC (the kernel discards the bytes, no copy),
 * or splice() through a pipe into /dev/null. A path the kernel refuses falls back to the
 * plain one with a note saying why, and the path that actually ran is reported, so a
 * result never claims a speed-up that did not happen. */
#ifndef WS_NET_TCPIO_H
#define WS_NET_TCPIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ws_err;

enum ws_tcp_tx { WS_TX_SEND, WS_TX_SENDFILE, WS_TX_ZEROCOPY };
enum ws_tcp_rx { WS_RX_RECV, WS_RX_TRUNC, WS_RX_SPLICE };

typedef struct ws_tcpio {
	int fd;
	enum ws_tcp_tx tx;
	enum ws_tcp_rx rx;
	const char *tx_buf; /* send / zerocopy source, never modified while in flight */
	int file_fd;        /* sendfile source */
	off_t file_size, file_off;
	off_t file_span;     /* where sendfile wraps (ws_tcpio_sendfile_span); 0: the file end */
	uint64_t zc_pending; /* zerocopy sends not yet completed */
	uint64_t zc_sends;   /* zerocopy sends completed */
	uint64_t zc_copied;  /* ... that the kernel copied anyway */
	char *rx_buf;
	int pipe_fd[2]; /* splice */
	int null_fd;
	char note[96]; /* why a requested path fell back */
} ws_tcpio;

/* Prepare the sending path. file_fd (for WS_TX_SENDFILE) must be a regular, non-empty
 * file; it is not closed here. Falls back to WS_TX_SEND with a note when the kernel
 * refuses SO_ZEROCOPY. */
int ws_tcpio_tx_open(ws_tcpio *io, int fd, enum ws_tcp_tx want, const char *buf, int file_fd,
		     struct ws_err *err);

/* Send up to n bytes. Returns bytes sent, or -1 with errno (EAGAIN when the socket
 * timeout expired: the caller checks its stall timer and calls again). sendfile wraps to
 * the start of the file at file_span; a file that shrank is an error (EIO, with a note). */
ssize_t ws_tcpio_send(ws_tcpio *io, size_t n);

/* How much of the file TCP_SENDFILE sends before it wraps to its start, as netperf 2.7
 * does: a ring of send_size pieces from the start of the file, as many as the send socket
 * buffer (sndbuf: its size when the socket was set up, netperf's "Send Socket Size") holds
 * plus one, at least two (16 KiB buffer, 16 KiB sends: offsets 0, 16384, 0, ...), at most
 * the file. Both tools then send the same few page-cache pages over and over. */
off_t ws_tcpio_sendfile_span(off_t file_size, uint64_t sndbuf, uint64_t send_size);

/* Wait for every outstanding zerocopy completion, up to deadline_ns. */
int ws_tcpio_tx_finish(ws_tcpio *io, int64_t deadline_ns, struct ws_err *err);

/* Prepare the receiving path (buf must hold the largest receive size). */
int ws_tcpio_rx_open(ws_tcpio *io, int fd, enum ws_tcp_rx want, char *buf, struct ws_err *err);

/* Ask the kernel to wake the receiver only once `bytes` are queued (SO_RCVLOWAT; the peer
 * half-closing, an error, a nearly closed receive window or memory pressure still wake
 * it, and a receive call whose socket timeout expires returns what it has). Each wake-up
 * of a sleeping receiver costs its sender's CPU a scheduler wake-up, often an
 * inter-processor interrupt; waking once per several calls' worth instead of once per
 * segment is the largest single saving on a fast path. 0 leaves the kernel's default.
 * Returns the threshold the kernel kept (it caps it at half of a fixed SO_RCVBUF), or 0
 * when it could not be read. */
uint32_t ws_tcpio_rx_wake(ws_tcpio *io, uint32_t bytes);

/* Receive up to n bytes: > 0 bytes, 0 at EOF, -1 with errno. */
ssize_t ws_tcpio_recv(ws_tcpio *io, size_t n);

void ws_tcpio_close(ws_tcpio *io);

/* "send", "sendfile", "send+MSG_ZEROCOPY", "recv", "recv+MSG_TRUNC", "splice". */
const char *ws_tcpio_tx_name(const ws_tcpio *io);
const char *ws_tcpio_rx_name(const ws_tcpio *io);

/* A draining sender's progress: true when the bytes written to fd that the peer has not
 * acknowledged yet (SIOCOUTQ) are fewer than *last, or are read for the first time
 * (*last < 0); *last then holds the new count. A queue that stops shrinking tells a stuck
 * receiver from a slow one. False, *last unchanged, when the count cannot be read. */
bool ws_tcpio_unacked_shrank(int fd, int *last);

/* What TCP_INFO says about a connection at the end of a test. */
typedef struct ws_tcp_info {
	uint32_t mss, rtt_us, rttvar_us, snd_cwnd;
	uint64_t total_retrans;
	/* the rest of netperf's DUMP_TCP_INFO fields */
	uint32_t rto_us, ato_us, pmtu, rcv_ssthresh, snd_ssthresh, reordering;
	/* the receiver's own estimate (Linux's tcpi_rcv_rtt; 0 until it has one): a
	 * receiving socket sends no data, so its rtt_us is not renewed */
	uint32_t rcv_rtt_us;
} ws_tcp_info;

/* 0 and *out filled, or -1 when TCP_INFO is not available. */
int ws_tcpio_info(int fd, ws_tcp_info *out);

#endif
