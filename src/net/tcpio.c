/* SPDX-License-Identifier: BSD-2-Clause */
/* tcpio: send/sendfile/MSG_ZEROCOPY and recv/MSG_TRUNC/splice paths; see tcpio.h. */
#include "net/tcpio.h"

#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/errqueue.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* Older libc headers (the PowerPC cross toolchain's among them) may lack these. */
#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif
#ifndef SO_EE_ORIGIN_ZEROCOPY
#define SO_EE_ORIGIN_ZEROCOPY 5
#endif
#ifndef SO_EE_CODE_ZEROCOPY_COPIED
#define SO_EE_CODE_ZEROCOPY_COPIED 1
#endif

int ws_tcpio_tx_open(ws_tcpio *io, int fd, enum ws_tcp_tx want, const char *buf, int file_fd,
		     ws_err *err)
{
	memset(io, 0, sizeof(*io));
	io->fd = fd;
	io->pipe_fd[0] = io->pipe_fd[1] = io->null_fd = io->file_fd = -1;
	io->tx = want;
	io->tx_buf = buf;
	if (want == WS_TX_SENDFILE) {
		struct stat st;
		if (file_fd < 0 || fstat(file_fd, &st) < 0 || !S_ISREG(st.st_mode) ||
		    st.st_size <= 0)
			return ws_err_set(err, WS_E_INVAL,
					  "sendfile needs a regular, non-empty file");
		io->file_fd = file_fd;
		io->file_size = st.st_size;
	} else if (want == WS_TX_ZEROCOPY) {
		int one = 1;
		if (setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)) < 0) {
			snprintf(io->note, sizeof(io->note),
				 "SO_ZEROCOPY refused (%s); plain send used", strerror(errno));
			io->tx = WS_TX_SEND;
		}
	}
	return 0;
}

/* Read every completion notification queued so far. Each covers a range of send ids. */
static void reap_zerocopy(ws_tcpio *io)
{
	for (;;) {
		char control[128];
		struct msghdr msg = {.msg_control = control, .msg_controllen = sizeof(control)};
		if (recvmsg(io->fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return;
		for (struct cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
			if (!((cm->cmsg_level == SOL_IP && cm->cmsg_type == IP_RECVERR) ||
			      (cm->cmsg_level == SOL_IPV6 && cm->cmsg_type == IPV6_RECVERR)))
				continue;
			struct sock_extended_err ee;
			memcpy(&ee, CMSG_DATA(cm), sizeof(ee));
			if (ee.ee_origin != SO_EE_ORIGIN_ZEROCOPY)
				continue;
			uint64_t n = (uint64_t)(uint32_t)(ee.ee_data - ee.ee_info) + 1;
			if (n > io->zc_pending)
				n = io->zc_pending;
			io->zc_pending -= n;
			io->zc_sends += n;
			if (ee.ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
				io->zc_copied += n;
		}
	}
}

off_t ws_tcpio_sendfile_span(off_t file_size, uint64_t sndbuf, uint64_t send_size)
{
	if (send_size == 0)
		return file_size;
	uint64_t width = sndbuf / send_size + 1;
	uint64_t span = (width < 2 ? 2 : width) * send_size;
	return span < (uint64_t)file_size ? (off_t)span : file_size;
}

ssize_t ws_tcpio_send(ws_tcpio *io, size_t n)
{
	switch (io->tx) {
	case WS_TX_SENDFILE: {
		off_t end = io->file_span > 0 ? io->file_span : io->file_size;
		if (io->file_off >= end)
			io->file_off = 0;
		if ((off_t)n > end - io->file_off)
			n = (size_t)(end - io->file_off);
		ssize_t w = sendfile(io->fd, io->file_fd, &io->file_off, n);
		if (w == 0) {
			snprintf(io->note, sizeof(io->note),
				 "the file shrank below %lld bytes during the test",
				 (long long)io->file_size);
			errno = EIO;
			return -1;
		}
		return w;
	}
	case WS_TX_ZEROCOPY: {
		ssize_t w = send(io->fd, io->tx_buf, n, MSG_NOSIGNAL | MSG_ZEROCOPY);
		if (w >= 0)
			io->zc_pending++;
		/* ENOBUFS: too many notifications pending; reaping frees them, then retry. */
		if (io->zc_pending > 64 || (w < 0 && errno == ENOBUFS)) {
			reap_zerocopy(io);
			if (w < 0)
				errno = EAGAIN;
		}
		return w;
	}
	case WS_TX_SEND:
	default:
		return send(io->fd, io->tx_buf, n, MSG_NOSIGNAL);
	}
}

int ws_tcpio_tx_finish(ws_tcpio *io, int64_t deadline_ns, ws_err *err)
{
	while (io->tx == WS_TX_ZEROCOPY && io->zc_pending > 0) {
		reap_zerocopy(io);
		if (!io->zc_pending)
			break;
		if (ws_clock_ns() >= deadline_ns)
			return ws_err_set(err, WS_E_TIMEDOUT,
					  "%llu zerocopy completions never arrived",
					  (unsigned long long)io->zc_pending);
		struct pollfd p = {.fd = io->fd, .events = 0};
		poll(&p, 1, 10); /* POLLERR is always reported */
	}
	return 0;
}

int ws_tcpio_rx_open(ws_tcpio *io, int fd, enum ws_tcp_rx want, char *buf, ws_err *err)
{
	memset(io, 0, sizeof(*io));
	io->fd = fd;
	io->file_fd = -1;
	io->pipe_fd[0] = io->pipe_fd[1] = io->null_fd = -1;
	io->rx = want;
	io->rx_buf = buf;
	if (want == WS_RX_SPLICE) {
		if (pipe2(io->pipe_fd, O_CLOEXEC) < 0)
			return ws_err_errno(err, "pipe for splice");
		fcntl(io->pipe_fd[1], F_SETPIPE_SZ,
		      1 << 20); /* fewer, larger splices when allowed */
		io->null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (io->null_fd < 0)
			return ws_err_errno(err, "open /dev/null for splice");
	}
	return 0;
}

uint32_t ws_tcpio_rx_wake(ws_tcpio *io, uint32_t bytes)
{
	if (bytes > INT32_MAX)
		bytes = INT32_MAX;
	int v = (int)bytes;
	if (bytes > 0)
		setsockopt(io->fd, SOL_SOCKET, SO_RCVLOWAT, &v, sizeof(v));
	socklen_t l = sizeof(v);
	if (getsockopt(io->fd, SOL_SOCKET, SO_RCVLOWAT, &v, &l) < 0 || v < 0)
		return 0;
	return (uint32_t)v;
}

static ssize_t splice_recv(ws_tcpio *io, size_t n)
{
	ssize_t r = splice(io->fd, NULL, io->pipe_fd[1], NULL, n, SPLICE_F_MOVE);
	if (r <= 0)
		return r;
	for (ssize_t left = r; left > 0;) {
		ssize_t w = splice(io->pipe_fd[0], NULL, io->null_fd, NULL, (size_t)left,
				   SPLICE_F_MOVE);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		left -= w;
	}
	return r;
}

ssize_t ws_tcpio_recv(ws_tcpio *io, size_t n)
{
	switch (io->rx) {
	case WS_RX_TRUNC: {
		ssize_t r = recv(io->fd, io->rx_buf, n, MSG_TRUNC);
		if (r < 0 && (errno == EINVAL || errno == EOPNOTSUPP)) {
			snprintf(io->note, sizeof(io->note),
				 "MSG_TRUNC refused (%s); plain recv used", strerror(errno));
			io->rx = WS_RX_RECV;
			return recv(io->fd, io->rx_buf, n, 0);
		}
		return r;
	}
	case WS_RX_SPLICE: {
		ssize_t r = splice_recv(io, n);
		if (r < 0 && (errno == EINVAL || errno == ENOSYS)) {
			snprintf(io->note, sizeof(io->note), "splice refused (%s); plain recv used",
				 strerror(errno));
			io->rx = WS_RX_RECV;
			return recv(io->fd, io->rx_buf, n, 0);
		}
		return r;
	}
	case WS_RX_RECV:
	default:
		return recv(io->fd, io->rx_buf, n, 0);
	}
}

void ws_tcpio_close(ws_tcpio *io)
{
	for (int i = 0; i < 2; i++)
		if (io->pipe_fd[i] >= 0)
			close(io->pipe_fd[i]);
	if (io->null_fd >= 0)
		close(io->null_fd);
	io->pipe_fd[0] = io->pipe_fd[1] = io->null_fd = -1;
}

const char *ws_tcpio_tx_name(const ws_tcpio *io)
{
	return io->tx == WS_TX_SENDFILE    ? "sendfile"
		: io->tx == WS_TX_ZEROCOPY ? "send+MSG_ZEROCOPY"
					   : "send";
}

const char *ws_tcpio_rx_name(const ws_tcpio *io)
{
	return io->rx == WS_RX_TRUNC     ? "recv+MSG_TRUNC"
		: io->rx == WS_RX_SPLICE ? "splice"
					 : "recv";
}

bool ws_tcpio_unacked_shrank(int fd, int *last)
{
	int n;
	if (ioctl(fd, SIOCOUTQ, &n) < 0 || n < 0 || (*last >= 0 && n >= *last))
		return false;
	*last = n;
	return true;
}

int ws_tcpio_info(int fd, ws_tcp_info *out)
{
	struct tcp_info ti;
	socklen_t l = sizeof(ti);
	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &l) < 0)
		return -1;
	out->mss = ti.tcpi_snd_mss;
	out->rtt_us = ti.tcpi_rtt;
	out->rttvar_us = ti.tcpi_rttvar;
	out->snd_cwnd = ti.tcpi_snd_cwnd;
	out->total_retrans = ti.tcpi_total_retrans;
	out->rto_us = ti.tcpi_rto;
	out->ato_us = ti.tcpi_ato;
	out->pmtu = ti.tcpi_pmtu;
	out->rcv_ssthresh = ti.tcpi_rcv_ssthresh;
	out->snd_ssthresh = ti.tcpi_snd_ssthresh;
	out->reordering = ti.tcpi_reordering;
	out->rcv_rtt_us = ti.tcpi_rcv_rtt;
	return 0;
}
