/* SPDX-License-Identifier: BSD-2-Clause */
/* stream: bulk sender and receiver roles; see stream.h.
 *
 * The data socket is blocking with SO_SNDTIMEO/SO_RCVTIMEO set by the caller (about
 * a second), so a blocked call wakes up regularly to check the stall timer. Reading
 * the clock once per call costs tens of nanoseconds against microseconds per call.
 * Once the test's time is up, silence means something else than during it: a peer that
 * has moved nothing for WS_STREAM_END_STALL_NS past the end is stuck, not slow, so both
 * roles give up then instead of after the whole stall time. */
#include "workload/stream.h"

#include "measure/hist.h"
#include "measure/interim.h"
#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void *ws_stream_alloc_pattern(size_t n)
{
	void *p = NULL;
	if (posix_memalign(&p, 4096, n ? n : 1) != 0)
		return NULL;
	/* A fixed pattern, not zeros, so nothing on the path can shortcut the copy. */
	for (size_t i = 0; i < n; i++)
		((unsigned char *)p)[i] = (unsigned char)(i * 131u + 7u);
	return p;
}

int ws_stream_fill_from_file(void *buf, size_t n, int fd)
{
	size_t got = 0;
	bool stream = false; /* a pipe or socket: no offsets, read what comes (netperf reads too) */
	while (got < n) {
		ssize_t r = stream ? read(fd, (char *)buf + got, n - got)
				   : pread(fd, (char *)buf + got, n - got, 0);
		if (r < 0 && errno == ESPIPE && !stream) {
			stream = true;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0) {
			errno = EIO; /* empty (it shrank since it was checked) */
			return -1;
		}
		/* Whole copies of the file's first r bytes, then the rest of the buffer. */
		got += (size_t)r;
		while (got < n) {
			size_t k = got < n - got ? got : n - got;
			memcpy((char *)buf + got, buf, k);
			got += k;
		}
	}
	return 0;
}

/* A call returned EAGAIN from its socket timeout: an error once nothing moved for
 * stall_ns, or for WS_STREAM_END_STALL_NS when the test should have ended by then (end_ns,
 * 0 when the test ends by a byte count and no end time is known). */
static int check_stall(int64_t last_progress, int64_t stall_ns, int64_t end_ns, const char *who,
		       ws_err *err)
{
	int64_t now = ws_clock_ns(), quiet = now - last_progress;
	if (end_ns && now >= end_ns + WS_STREAM_END_STALL_NS && quiet >= WS_STREAM_END_STALL_NS)
		return ws_err_set(err, WS_E_TIMEDOUT,
				  "the %s moved no data for %.1f s, and the test should have ended "
				  "%.1f s ago",
				  who, (double)quiet / WS_NS_PER_SEC,
				  (double)(now - end_ns) / WS_NS_PER_SEC);
	if (quiet < stall_ns)
		return 0;
	return ws_err_set(err, WS_E_TIMEDOUT, "the %s moved no data for %.1f s", who,
			  (double)stall_ns / WS_NS_PER_SEC);
}

int ws_stream_capped(int64_t t0, uint64_t bytes, const char *moved, ws_err *err)
{
	return ws_err_set(err, WS_E_LIMIT, "stopped by the time cap after %.1f s, %llu bytes %s",
			  (double)(ws_clock_ns() - t0) / WS_NS_PER_SEC, (unsigned long long)bytes,
			  moved);
}

/* Past a timed test's end + WS_STREAM_END_STALL_NS a receiver stops whatever the sender
 * does: a sender that trickles a byte now and then would otherwise hold it for ever. */
static int check_overrun(int64_t now, int64_t end_ns, ws_err *err)
{
	if (!end_ns || now < end_ns + WS_STREAM_END_STALL_NS)
		return 0;
	return ws_err_set(err, WS_E_TIMEDOUT,
			  "the sender was still sending %.1f s after the test's end (the "
			  "end-of-test stall limit)",
			  (double)(now - end_ns) / WS_NS_PER_SEC);
}

/* One receive call's outcome, its bytes counted (and *last moved) when it read any: call
 * again, the peer's EOF, the socket timeout (the caller applies its stall rule), or an
 * error left in errno. -D's counter (progress, or NULL) gets the bytes too. */
enum rx_outcome { RX_AGAIN, RX_EOF, RX_TIMEOUT, RX_FAILED };

static enum rx_outcome count_recv(ssize_t r, ws_stream_counts *c, int64_t *last,
				  ws_interim_counter *progress)
{
	if (r > 0) {
		c->bytes_recv += (uint64_t)r;
		ws_interim_add(progress, (uint64_t)r);
		c->recv_calls++;
		*last = ws_clock_ns();
		return RX_AGAIN;
	}
	if (r == 0)
		return RX_EOF;
	if (errno == EINTR)
		return RX_AGAIN;
	return errno == EAGAIN || errno == EWOULDBLOCK ? RX_TIMEOUT : RX_FAILED;
}

/* The receiver's loop: read until EOF through io, or until the cap. */
static int read_to_eof(ws_tcpio *io, size_t n, ws_stream_counts *c, const ws_stream_params *p,
		       int64_t end_ns, ws_err *err)
{
	int64_t t0 = ws_clock_ns(), last = t0, stall_ns = p->stall_ns;
	for (;;) {
		int64_t before = p->call_hist ? ws_clock_ns() : 0;
		enum rx_outcome o = count_recv(ws_tcpio_recv(io, n), c, &last, p->progress);
		int64_t now = o == RX_AGAIN ? last : ws_clock_ns();
		if (p->call_hist && o == RX_AGAIN && last >= before)
			ws_hist_record(p->call_hist, (uint64_t)(last - before));
		if (p->cap_ns && now >= p->cap_ns)
			return ws_stream_capped(t0, c->bytes_recv, "received", err);
		if (o == RX_EOF)
			return 0;
		if (o == RX_FAILED)
			return ws_err_errno(err, "receive on the data connection (%s)",
					    ws_tcpio_rx_name(io));
		/* a silent sender gets the stall verdict; one still sending (data arrived on
		 * this call), the overrun one. A timeout is never an overrun: the sender sent
		 * nothing, and the stall rule ends the wait once it has been quiet long enough. */
		int rc = o == RX_TIMEOUT ? check_stall(last, stall_ns, end_ns, "sender", err)
					 : check_overrun(now, end_ns, err);
		if (rc < 0)
			return rc;
	}
}

/* The sender's drain after its half-close: wait for the receiver's close, reading (and
 * counting) anything it sends. Progress is the send queue shrinking as the receiver reads
 * and acknowledges; a queue that stays put for WS_STREAM_END_STALL_NS means the receiver
 * stopped reading, and no amount of waiting will deliver the rest. */
static int drain_to_eof(int fd, char *buf, size_t n, ws_stream_counts *c, int64_t t0,
			int64_t cap_ns, ws_err *err)
{
	int64_t last = ws_clock_ns();
	int queued = -1;
	for (;;) {
		enum rx_outcome o = count_recv(recv(fd, buf, n, 0), c, &last, NULL);
		if (cap_ns && ws_clock_ns() >= cap_ns)
			return ws_stream_capped(t0, c->bytes_sent, "sent", err);
		if (o == RX_AGAIN)
			continue;
		if (o == RX_EOF)
			return 0;
		if (o == RX_FAILED)
			return ws_err_errno(err, "receive on the data connection while draining");
		if (ws_tcpio_unacked_shrank(fd, &queued)) {
			last = ws_clock_ns();
			continue;
		}
		if (ws_clock_ns() - last < WS_STREAM_END_STALL_NS)
			continue;
		if (queued <= 0) /* all acknowledged, or no SIOCOUTQ: only the silence is known */
			return ws_err_set(err, WS_E_TIMEDOUT,
					  "the receiver did not close the connection within %.1f s",
					  (double)WS_STREAM_END_STALL_NS / WS_NS_PER_SEC);
		return ws_err_set(err, WS_E_TIMEDOUT,
				  "the receiver stopped reading: %d bytes sent were still "
				  "unacknowledged after %.1f s",
				  queued, (double)WS_STREAM_END_STALL_NS / WS_NS_PER_SEC);
	}
}

/* The sending loop proper: until the deadline or the byte count. */
static int send_loop(const ws_stream_params *p, ws_tcpio *io, size_t size, ws_stream_counts *c,
		     ws_err *err)
{
	int64_t t0 = ws_clock_ns(), last = t0;
	int64_t deadline = t0 + p->duration_ns;
	for (int64_t now = t0;;) {
		size_t n = size;
		if (p->cap_ns && now >= p->cap_ns)
			return ws_stream_capped(t0, c->bytes_sent, "sent", err);
		if (p->end == WS_END_TIME) {
			if (now >= deadline)
				return 0;
		} else {
			if (c->bytes_sent >= p->byte_limit)
				return 0;
			if (p->byte_limit - c->bytes_sent < n)
				n = (size_t)(p->byte_limit - c->bytes_sent);
		}
		int64_t before = p->call_hist ? ws_clock_ns() : 0;
		ssize_t w = ws_tcpio_send(io, n);
		now = ws_clock_ns();
		if (w > 0) {
			if (p->call_hist)
				ws_hist_record(p->call_hist, (uint64_t)(now - before));
			c->bytes_sent += (uint64_t)w;
			ws_interim_add(p->progress, (uint64_t)w);
			c->send_calls++;
			last = now;
			continue;
		}
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			int rc = check_stall(last, p->stall_ns, 0, "receiver", err);
			if (rc < 0)
				return rc;
			continue;
		}
		if (io->note[0])
			return ws_err_set(err, EIO, "%s", io->note);
		return ws_err_errno(err, "%s on the data connection", ws_tcpio_tx_name(io));
	}
}

int ws_stream_send(const ws_stream_params *p, ws_stream_counts *c, ws_err *err)
{
	memset(c, 0, sizeof(*c));
	size_t size = p->send_size ? p->send_size : 16384;
	char *buf = ws_stream_alloc_pattern(size);
	if (!buf)
		return ws_err_set(err, ENOMEM, "no memory for a %zu-byte send buffer", size);
	if (p->file_fd >= 0 && p->tx != WS_TX_SENDFILE &&
	    ws_stream_fill_from_file(buf, size, p->file_fd) < 0) {
		int rc = ws_err_errno(err, "cannot read the file that fills the send buffer (-F)");
		free(buf);
		return rc;
	}
	ws_tcpio io;
	int64_t t0 = ws_clock_ns();
	int rc = ws_tcpio_tx_open(&io, p->fd, p->tx, buf, p->file_fd, err);
	io.file_span = ws_tcpio_sendfile_span(io.file_size, p->sndbuf, p->send_size);
	if (rc == 0)
		rc = send_loop(p, &io, size, c, err);
	if (rc == 0)
		rc = ws_tcpio_tx_finish(&io, ws_clock_ns() + p->stall_ns, err);
	if (rc == 0 && p->before_half_close)
		p->before_half_close(p->before_half_close_arg, p->fd);
	if (rc == 0 && shutdown(p->fd, SHUT_WR) < 0)
		rc = ws_err_errno(err, "shutdown of the data connection");
	if (rc == 0)
		rc = drain_to_eof(p->fd, buf, size, c, t0, p->cap_ns, err);
	c->elapsed_ns = ws_clock_ns() - t0;
	c->path = ws_tcpio_tx_name(&io);
	snprintf(c->note, sizeof(c->note), "%s", io.note);
	c->zc_sends = io.zc_sends;
	c->zc_copied = io.zc_copied;
	ws_tcpio_close(&io);
	free(buf);
	return rc;
}

int ws_stream_recv(const ws_stream_params *p, ws_stream_counts *c, ws_err *err)
{
	memset(c, 0, sizeof(*c));
	size_t size = p->recv_size ? p->recv_size : 131072;
	char *buf = ws_stream_alloc_pattern(size);
	if (!buf)
		return ws_err_set(err, ENOMEM, "no memory for a %zu-byte receive buffer", size);
	ws_tcpio io;
	int64_t t0 = ws_clock_ns();
	int rc = ws_tcpio_rx_open(&io, p->fd, p->rx, buf, err);
	if (rc == 0) {
		c->rcvlowat = ws_tcpio_rx_wake(&io, p->rcvlowat);
		rc = read_to_eof(&io, size, c, p, p->end == WS_END_TIME ? t0 + p->duration_ns : 0,
				 err);
	}
	c->elapsed_ns = ws_clock_ns() - t0;
	c->path = ws_tcpio_rx_name(&io);
	snprintf(c->note, sizeof(c->note), "%s", io.note);
	ws_tcpio_close(&io);
	free(buf);
	return rc;
}
