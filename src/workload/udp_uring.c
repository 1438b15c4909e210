/* SPDX-License-Identifier: BSD-2-Clause */
/* udp_uring: UDP_STREAM's datagrams through an io_uring; see udp_uring.h.
 *
 * One ring per role (a UDP_STREAM flow is one thread). The sender's slots live in one
 * registered buffer; a batch is waited for whole before its slots are written again, so
 * nothing the kernel may still read is overwritten. The receiver gives its provided
 * buffers back at the next call, once the caller has accounted for their bytes. */
#include "workload/udp_uring.h"

#include "net/uring.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/udp_hdr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define RX_BGID      1
#define RX_BUDGET    (2u << 20) /* provided receive buffers, in bytes */
#define RX_BUFS_MIN  16u
#define RX_BUFS_MAX  1024u
#define RX_CQE_MAX   256u
#define RX_NAP_NS    (250 * WS_NS_PER_US) /* while datagrams flow: wait this for a batch */
#define RX_NAP_BATCH 32u
#define RING_ENTRIES 64u
#define SEND_WAIT_NS (10 * WS_NS_PER_MS) /* a wait for a batch enters again this often */

struct ws_udp_uring {
	ws_uring ring;
	ws_uring_bufs bufs;
	int fd;
	uint32_t size, batch;
	uint8_t *slots; /* sender: batch datagrams of size bytes */
	bool armed;     /* receiver: its multishot receive is in the ring */
	unsigned nheld; /* receiver: buffers handed to the caller, given back next call */
	int held[RX_CQE_MAX];
	uint8_t empty[1];
	ws_uring_cqe cqe[RX_CQE_MAX];
};

static int open_ring(struct ws_udp_uring **out, int fd, unsigned entries, bool sqpoll, ws_err *err)
{
	struct ws_udp_uring *u = calloc(1, sizeof(*u));
	*out = u;
	if (!u)
		return ws_err_set(err, ENOMEM, "no memory for the UDP io_uring");
	u->fd = fd;
	u->ring.fd = -1;
	int rc = ws_uring_open(&u->ring, entries, sqpoll, err);
	return rc < 0 ? rc : ws_uring_register_fd(&u->ring, fd, err);
}

int ws_udp_uring_tx_open(struct ws_udp_uring **out, int fd, const uint8_t *payload, uint32_t size,
			 uint32_t batch, bool sqpoll, ws_err *err)
{
	int rc = open_ring(out, fd, batch < RING_ENTRIES ? RING_ENTRIES : batch, sqpoll, err);
	struct ws_udp_uring *u = *out;
	if (rc < 0)
		return rc;
	u->size = size;
	u->batch = batch;
	u->slots = malloc((size_t)batch * size);
	if (!u->slots)
		return ws_err_set(err, ENOMEM, "no memory for %u datagrams of %u bytes", batch,
				  size);
	for (uint32_t k = 0; k < batch; k++)
		memcpy(u->slots + (size_t)k * size, payload, size);
	return ws_uring_register_buffer(&u->ring, u->slots, (size_t)batch * size, err);
}

int ws_udp_uring_send(struct ws_udp_uring *u, uint64_t seq, uint32_t tag, uint32_t n,
		      uint32_t *refused, uint32_t *failed)
{
	if (n > u->batch)
		n = u->batch;
	for (uint32_t k = 0; k < n; k++) {
		uint8_t *slot = u->slots + (size_t)k * u->size;
		ws_udp_hdr h = {seq + k, tag, WS_UDP_DATA};
		ws_udp_hdr_encode(slot, &h);
		int rc = ws_uring_write_fixed(&u->ring, u->fd, slot, u->size, k);
		if (rc < 0) {
			errno = -rc;
			return -1;
		}
		/* linked, so they leave in order even when the socket is full, and a failure
		 * cancels the rest of the batch, as sendmmsg stops at its first */
		if (k + 1 < n)
			ws_uring_link(&u->ring, true, false);
	}
	/* every write of the batch completes before its slot is written again */
	uint32_t got = 0, ok = 0;
	int first_err = 0;
	while (got < n) {
		int rc = ws_uring_submit_wait(&u->ring, n - got, SEND_WAIT_NS);
		if (rc < 0 && rc != -EINTR && rc != -ETIME) {
			errno = -rc;
			return -1;
		}
		unsigned m;
		while ((m = ws_uring_reap(&u->ring, u->cqe, RX_CQE_MAX)) > 0)
			for (unsigned k = 0; k < m; k++, got++) {
				int32_t res = u->cqe[k].res;
				if (res >= 0)
					ok++;
				else if (res != -ECANCELED && !first_err)
					first_err = -res;
			}
	}
	if (ok == 0) {
		errno = first_err ? first_err : EIO;
		return -1;
	}
	/* the datagrams before the failure went out; the failed one goes again next call,
	 * and a refusal counts as the other paths count theirs */
	if (first_err == ECONNREFUSED)
		*refused += 1;
	else if (first_err)
		*failed += 1;
	return (int)ok;
}

static uint32_t pow2_at_most(uint32_t n)
{
	uint32_t v = 1;
	while (v * 2 <= n)
		v <<= 1;
	return v;
}

static uint32_t rx_count(uint32_t bufsize)
{
	uint32_t count = pow2_at_most(RX_BUDGET / bufsize);
	return count < RX_BUFS_MIN ? RX_BUFS_MIN : count > RX_BUFS_MAX ? RX_BUFS_MAX : count;
}

uint64_t ws_udp_uring_rx_bytes(uint32_t size) { return (uint64_t)rx_count(size + 1) * (size + 1); }

int ws_udp_uring_rx_open(struct ws_udp_uring **out, int fd, uint32_t size, bool sqpoll, ws_err *err)
{
	int rc = open_ring(out, fd, RING_ENTRIES, sqpoll, err);
	struct ws_udp_uring *u = *out;
	if (rc < 0)
		return rc;
	u->size = size + 1; /* a longer datagram shows as size + 1 bytes */
	return ws_uring_bufs_open(&u->ring, &u->bufs, RX_BGID, rx_count(u->size), u->size, err);
}

int ws_udp_uring_recv(struct ws_udp_uring *u, const uint8_t **bufs, unsigned *lens, unsigned max,
		      bool wait, int64_t timeout_ns)
{
	for (unsigned k = 0; k < u->nheld; k++)
		ws_uring_bufs_recycle(&u->bufs, u->held[k]);
	u->nheld = 0;
	if (!u->armed) {
		int rc = ws_uring_recv_multishot(&u->ring, u->fd, &u->bufs, 0);
		if (rc < 0) {
			errno = -rc;
			return -1;
		}
		u->armed = true;
	}
	if (max > RX_CQE_MAX)
		max = RX_CQE_MAX;
	unsigned want = wait ? 1 : RX_NAP_BATCH < max ? RX_NAP_BATCH : max;
	int rc = ws_uring_submit_wait(&u->ring, want, wait ? timeout_ns : RX_NAP_NS);
	if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EBUSY) {
		errno = -rc;
		return -1;
	}
	unsigned m = ws_uring_reap(&u->ring, u->cqe, max), n = 0;
	int first_err = 0;
	for (unsigned k = 0; k < m; k++) {
		const ws_uring_cqe *c = &u->cqe[k];
		int buf = ws_uring_cqe_buf(c);
		if (!ws_uring_cqe_more(c))
			u->armed =
				false; /* ended (out of buffers, an error): armed again next call */
		if (buf >= 0)
			u->held[u->nheld++] = buf;
		if (c->res >= 0) {
			bufs[n] = buf >= 0 ? ws_uring_bufs_at(&u->bufs, buf) : u->empty;
			lens[n++] = (unsigned)c->res;
		} else if (c->res != -ENOBUFS && !first_err) {
			first_err = -c->res;
		}
	}
	if (n == 0) {
		errno = first_err ? first_err : EAGAIN;
		return -1;
	}
	return (int)n;
}

void ws_udp_uring_close(struct ws_udp_uring *u)
{
	if (!u)
		return;
	ws_uring_bufs_close(&u->ring, &u->bufs);
	ws_uring_close(&u->ring);
	free(u->slots);
	free(u);
}
