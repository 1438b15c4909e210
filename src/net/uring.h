/* SPDX-License-Identifier: BSD-2-Clause */
/* uring: a small io_uring ring over the raw system calls, for the io_uring engines.
 *
 * The engines need a handful of operations (send, write from a registered buffer, recv,
 * multishot recv into a provided-buffer ring) and a submit-and-wait with a timeout; this
 * module maps the submission and completion queues and speaks io_uring_setup,
 * io_uring_enter and io_uring_register through syscall(2), with <linux/io_uring.h> from
 * the kernel headers for the layout. No liburing: the binary keeps its libc-only runtime,
 * and a build whose headers lack what the engines use (or a non-Linux one) compiles the
 * stubs below, whose probe says why (docs/engines.md). The ring belongs to the thread that
 * opened it (the engines open one per worker thread). */
#ifndef WS_NET_URING_H
#define WS_NET_URING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ws_err;

/* The environment variable that makes the probe fail, for tests of the fallback only. */
#define WS_URING_TEST_OFF_ENV "WS_TEST_NO_IO_URING"

/* One completion, copied out of the ring. */
typedef struct ws_uring_cqe {
	uint64_t data; /* the submitter's tag */
	int32_t res;   /* bytes, or -errno */
	uint32_t flags;
} ws_uring_cqe;

typedef struct ws_uring {
	int fd;
	bool sqpoll;
	unsigned entries;  /* submission queue slots */
	unsigned queued;   /* prepared, not yet handed to the kernel */
	unsigned sq_local; /* our copy of the submission tail */
	unsigned *sq_head, *sq_tail, *sq_mask, *sq_flags, *sq_array;
	unsigned *cq_head, *cq_tail, *cq_mask;
	void *sqes, *cqes;
	void *sq_map, *cq_map;
	size_t sq_len, cq_len, sqes_len;
	bool registered; /* a fixed buffer (index 0) is registered */
	int fixed_fd;    /* the descriptor registered as fixed file 0, or -1 */
	void *last;      /* the submission entry queued last (ws_uring_link) */
} ws_uring;

/* A provided-buffer ring: count buffers of size bytes the kernel picks from for multishot
 * receives of group bgid; a buffer is given back (recycled) once its bytes are consumed. */
typedef struct ws_uring_bufs {
	void *ring;
	char *mem;
	uint32_t count, size;
	uint16_t bgid, tail;
	size_t ring_len;
} ws_uring_bufs;

/* Can this process run the engines? 0, or a negative errno with why filled ("io_uring is
 * disabled: kernel.io_uring_disabled is 2", "this build has no io_uring headers", ...).
 * Reads /proc/sys/kernel/io_uring_disabled and opens and closes a small ring. */
int ws_uring_probe(char *why, size_t whysz);

/* A ring of at least entries submission slots (completions: 4x), with the kernel's
 * submission thread when sqpoll. */
int ws_uring_open(ws_uring *r, unsigned entries, bool sqpoll, struct ws_err *err);
void ws_uring_close(ws_uring *r);

/* Register [buf, buf+len) as fixed buffer 0 (for ws_uring_write_fixed). */
int ws_uring_register_buffer(ws_uring *r, void *buf, size_t len, struct ws_err *err);

/* Register fd as fixed file 0: operations on fd then skip the kernel's descriptor lookup
 * (IOSQE_FIXED_FILE). Only io_uring's operations may use it so; fd stays the caller's. */
int ws_uring_register_fd(ws_uring *r, int fd, struct ws_err *err);

/* Queue one operation, tagged data; a full queue is submitted first. 0 or -errno. */
int ws_uring_send(ws_uring *r, int fd, const void *buf, uint32_t len, uint64_t data);
/* A write from fixed buffer 0 (a plain send when none is registered). A write has no
 * MSG_NOSIGNAL: the calling thread must block SIGPIPE, or a peer's reset kills the process;
 * with it blocked the completion carries -EPIPE. */
int ws_uring_write_fixed(ws_uring *r, int fd, const void *buf, uint32_t len, uint64_t data);
int ws_uring_recv(ws_uring *r, int fd, void *buf, uint32_t len, uint64_t data);
/* A send of all len bytes (MSG_WAITALL: the kernel retries a short one) that posts no
 * completion when it succeeds (IOSQE_CQE_SKIP_SUCCESS): a completion tagged data means it
 * failed or ended short. */
int ws_uring_send_all(ws_uring *r, int fd, const void *buf, uint32_t len, uint64_t data);
/* A sendmsg of msg (a datagram of its iovecs), which with its iovecs must stay as it is
 * until the operation completes. */
int ws_uring_sendmsg(ws_uring *r, int fd, const void *msg, uint64_t data);
int ws_uring_recv_multishot(ws_uring *r, int fd, const ws_uring_bufs *b, uint64_t data);
/* A recv of all len bytes (MSG_WAITALL): a shorter result (EOF first) fails the operation,
 * which breaks a link chain (ws_uring_link). */
int ws_uring_recv_all(ws_uring *r, int fd, void *buf, uint32_t len, uint64_t data);
/* A connect of fd (a blocking socket: the kernel waits, the caller does not) to addr. */
int ws_uring_connect(ws_uring *r, int fd, const void *addr, uint32_t addrlen, uint64_t data);
/* A close of fd. */
int ws_uring_close_fd(ws_uring *r, int fd, uint64_t data);
/* An accept on the listener fd (blocking or not: the ring waits for a connection); the
 * peer's address lands in addr, *addrlen its size in and its length out (both must live
 * until the completion, whose res is the new descriptor, close-on-exec). */
int ws_uring_accept(ws_uring *r, int fd, void *addr, uint32_t *addrlen, uint64_t data);
/* A one-shot poll of fd for events (POLLIN, ...): a completion once it is ready. */
int ws_uring_poll(ws_uring *r, int fd, uint32_t events, uint64_t data);
/* Cancel the operation tagged target (its completion says -ECANCELED, or its result if it
 * ended first); this one's completion says 0, -ENOENT or -EALREADY. */
int ws_uring_cancel(ws_uring *r, uint64_t target, uint64_t data);
/* A splice of up to len bytes from in (at in_off, or -1 for a pipe) to out; one side must
 * be a pipe. res: bytes moved, 0 at the end of in, or -errno. */
int ws_uring_splice(ws_uring *r, int in, int64_t in_off, int out, uint32_t len, uint64_t data);
/* Flags of the operation queued last: link (the next one starts when it succeeds, and is
 * cancelled with -ECANCELED when it fails) and quiet (no completion when it succeeds). A
 * chain must be queued whole: see ws_uring_space. */
void ws_uring_link(ws_uring *r, bool link, bool quiet);
/* Submission slots free now (a chain longer than this is submitted first). */
unsigned ws_uring_space(const ws_uring *r);

/* Hand what is queued to the kernel and wait for at least wait_nr completions or until
 * timeout_ns (relative; <= 0 with wait_nr > 0: no limit) passes. 0 or -errno (-ETIME is
 * a timeout, -EINTR an interruption: both harmless). */
int ws_uring_submit_wait(ws_uring *r, unsigned wait_nr, int64_t timeout_ns);

/* Copy out up to max completions; returns how many. */
unsigned ws_uring_reap(ws_uring *r, ws_uring_cqe *out, unsigned max);

/* The completion will be followed by more of the same multishot operation. */
bool ws_uring_cqe_more(const ws_uring_cqe *c);
/* The provided buffer a completion used, or -1. */
int ws_uring_cqe_buf(const ws_uring_cqe *c);

int ws_uring_bufs_open(ws_uring *r, ws_uring_bufs *b, uint16_t bgid, uint32_t count, uint32_t size,
		       struct ws_err *err);
void *ws_uring_bufs_at(const ws_uring_bufs *b, int id);
void ws_uring_bufs_recycle(ws_uring_bufs *b, int id);
void ws_uring_bufs_close(ws_uring *r, ws_uring_bufs *b);

#endif
