/* SPDX-License-Identifier: BSD-2-Clause */
/* uring: io_uring through syscall(2); see uring.h.
 *
 * The submission and completion rings are shared memory with the kernel: the tails and
 * heads the other side writes are read with acquire loads, ours are published with release
 * stores, as the kernel's io_uring documentation asks. Everything is guarded by the
 * header's presence and the features the engines use (multishot receive, provided-buffer
 * rings, the timeout argument of io_uring_enter); without them the stubs at the end say
 * so through ws_uring_probe. */
#include "net/uring.h"

#include "util/err.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__) && defined(__has_include)
#if __has_include(<linux/io_uring.h>)
#include <linux/io_uring.h>
/* Headers of Linux 6.1 or later: multishot receive and provided-buffer rings (an enum, so
 * it is the 6.1 setup flag that tells the headers' age) */
#if defined(IORING_RECV_MULTISHOT) && defined(IORING_SETUP_DEFER_TASKRUN) && \
	defined(IORING_FEAT_EXT_ARG) && defined(IORING_ENTER_EXT_ARG)
#define WS_HAVE_IO_URING 1
#endif
#endif
#endif

#ifdef WS_HAVE_IO_URING

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#ifndef SPLICE_F_MOVE
#define SPLICE_F_MOVE 1 /* <fcntl.h> names it only for _GNU_SOURCE */
#endif

/* The ring's own file descriptor, a plain number for the system calls. */
static int sys_setup(unsigned entries, struct io_uring_params *p)
{
	return (int)syscall(__NR_io_uring_setup, entries, p);
}

static int sys_enter(int fd, unsigned submit, unsigned wait, unsigned flags, void *arg,
		     size_t argsz)
{
	return (int)syscall(__NR_io_uring_enter, fd, submit, wait, flags, arg, argsz);
}

static int sys_register(int fd, unsigned op, void *arg, unsigned n)
{
	return (int)syscall(__NR_io_uring_register, fd, op, arg, n);
}

/* What the sysctl says: 0 enabled, 1 only for its group, 2 disabled; -1 when unreadable. */
static int disabled_sysctl(void)
{
	FILE *f = fopen("/proc/sys/kernel/io_uring_disabled", "r");
	int v = -1;
	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int ws_uring_probe(char *why, size_t whysz)
{
	const char *off = getenv(WS_URING_TEST_OFF_ENV);
	if (off && *off && strcmp(off, "0") != 0) {
		snprintf(why, whysz, "io_uring is switched off for this test (%s=%s)",
			 WS_URING_TEST_OFF_ENV, off);
		return -ENOSYS;
	}
	int sysctl = disabled_sysctl();
	if (sysctl == 2) {
		snprintf(why, whysz, "io_uring is disabled: kernel.io_uring_disabled is 2");
		return -EPERM;
	}
	struct io_uring_params p;
	memset(&p, 0, sizeof(p));
	int fd = sys_setup(4, &p);
	if (fd < 0) {
		int e = errno;
		if (e == ENOSYS)
			snprintf(why, whysz,
				 "this kernel has no io_uring (io_uring_setup: ENOSYS)");
		else if (e == EPERM && sysctl == 1)
			snprintf(why, whysz,
				 "io_uring is disabled for this user: kernel.io_uring_disabled "
				 "is 1 and the process is not in kernel.io_uring_group");
		else
			snprintf(why, whysz, "io_uring_setup failed: %s", strerror(e));
		return -e;
	}
	close(fd);
	if (!(p.features & IORING_FEAT_EXT_ARG) || !(p.features & IORING_FEAT_NODROP)) {
		snprintf(why, whysz, "this kernel's io_uring is too old (before Linux 5.11)");
		return -ENOTSUP;
	}
#ifdef IORING_FEAT_REG_REG_RING
	if (!(p.features & IORING_FEAT_REG_REG_RING)) {
		/* multishot receive and provided-buffer rings arrived by 6.0; this flag is 6.3 */
		snprintf(why, whysz, "this kernel's io_uring is too old (before Linux 6.3)");
		return -ENOTSUP;
	}
#endif
	why[0] = '\0';
	return 0;
}

static void unmap(ws_uring *r)
{
	if (r->sqes && r->sqes != MAP_FAILED)
		munmap(r->sqes, r->sqes_len);
	if (r->cq_map && r->cq_map != MAP_FAILED && r->cq_map != r->sq_map)
		munmap(r->cq_map, r->cq_len);
	if (r->sq_map && r->sq_map != MAP_FAILED)
		munmap(r->sq_map, r->sq_len);
	r->sqes = r->cq_map = r->sq_map = NULL;
}

/* Setup flags to try, best first: without the submission thread, completions' task work
 * runs only when this thread waits (fewer interruptions of a busy loop). */
static int setup_ring(unsigned entries, bool sqpoll, struct io_uring_params *p)
{
	unsigned tries[3] = {0, 0, 0};
	int n = 0;
	if (sqpoll) {
		tries[n++] = IORING_SETUP_SQPOLL;
	} else {
#if defined(IORING_SETUP_DEFER_TASKRUN) && defined(IORING_SETUP_SINGLE_ISSUER)
		tries[n++] = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
#endif
#ifdef IORING_SETUP_COOP_TASKRUN
		tries[n++] = IORING_SETUP_COOP_TASKRUN;
#endif
		tries[n++] = 0;
	}
	int fd = -1;
	for (int i = 0; i < n && fd < 0; i++) {
		memset(p, 0, sizeof(*p));
		p->flags = tries[i] | IORING_SETUP_CQSIZE;
		p->cq_entries = entries * 4;
		if (sqpoll)
			p->sq_thread_idle = 50; /* ms before the kernel thread sleeps */
		fd = sys_setup(entries, p);
	}
	return fd;
}

int ws_uring_open(ws_uring *r, unsigned entries, bool sqpoll, ws_err *err)
{
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->fixed_fd = -1;
	struct io_uring_params p;
	int fd = setup_ring(entries, sqpoll, &p);
	if (fd < 0)
		return ws_err_errno(err, "io_uring_setup of %u entries%s", entries,
				    sqpoll ? " with --sqpoll" : "");
	r->fd = fd;
	r->sqpoll = sqpoll;
	r->entries = p.sq_entries;
	r->sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	r->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP) {
		if (r->cq_len > r->sq_len)
			r->sq_len = r->cq_len;
		r->cq_len = r->sq_len;
	}
	r->sq_map = mmap(NULL, r->sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
			 IORING_OFF_SQ_RING);
	r->cq_map = p.features & IORING_FEAT_SINGLE_MMAP
		? r->sq_map
		: mmap(NULL, r->cq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
		       IORING_OFF_CQ_RING);
	r->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	r->sqes = mmap(NULL, r->sqes_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd,
		       IORING_OFF_SQES);
	if (r->sq_map == MAP_FAILED || r->cq_map == MAP_FAILED || r->sqes == MAP_FAILED) {
		int rc = ws_err_errno(err, "cannot map the io_uring rings");
		ws_uring_close(r);
		return rc;
	}
	char *sq = r->sq_map, *cq = r->cq_map;
	r->sq_head = (unsigned *)(sq + p.sq_off.head);
	r->sq_tail = (unsigned *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
	r->sq_flags = (unsigned *)(sq + p.sq_off.flags);
	r->sq_array = (unsigned *)(sq + p.sq_off.array);
	r->cq_head = (unsigned *)(cq + p.cq_off.head);
	r->cq_tail = (unsigned *)(cq + p.cq_off.tail);
	r->cq_mask = (unsigned *)(cq + p.cq_off.ring_mask);
	r->cqes = cq + p.cq_off.cqes;
	r->sq_local = *r->sq_tail;
	/* the array maps slot i to sqe i, once and for all */
	for (unsigned i = 0; i < p.sq_entries; i++)
		r->sq_array[i] = i;
	return 0;
}

void ws_uring_close(ws_uring *r)
{
	unmap(r);
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

int ws_uring_register_buffer(ws_uring *r, void *buf, size_t len, ws_err *err)
{
	struct iovec iov = {.iov_base = buf, .iov_len = len};
	if (sys_register(r->fd, IORING_REGISTER_BUFFERS, &iov, 1) < 0)
		return ws_err_errno(err, "cannot register a %zu-byte buffer with io_uring", len);
	r->registered = true;
	return 0;
}

int ws_uring_register_fd(ws_uring *r, int fd, ws_err *err)
{
	if (sys_register(r->fd, IORING_REGISTER_FILES, &fd, 1) < 0)
		return ws_err_errno(err, "cannot register descriptor %d with io_uring", fd);
	r->fixed_fd = fd;
	return 0;
}

/* Publish what is queued to the kernel's view of the submission tail. */
static void publish(ws_uring *r) { __atomic_store_n(r->sq_tail, r->sq_local, __ATOMIC_RELEASE); }

static int enter(ws_uring *r, unsigned wait_nr, int64_t timeout_ns)
{
	unsigned flags = 0, submit = r->queued;
	publish(r);
	r->queued = 0;
	if (r->sqpoll) {
		/* the kernel thread submits; wake it when it went to sleep */
		submit = 0;
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (__atomic_load_n(r->sq_flags, __ATOMIC_RELAXED) & IORING_SQ_NEED_WAKEUP)
			flags |= IORING_ENTER_SQ_WAKEUP;
		else if (wait_nr == 0)
			return 0;
	}
	if (wait_nr == 0 && submit == 0 && !(flags & IORING_ENTER_SQ_WAKEUP))
		return 0;
	if (wait_nr > 0)
		flags |= IORING_ENTER_GETEVENTS;
	struct __kernel_timespec ts;
	struct io_uring_getevents_arg arg;
	memset(&arg, 0, sizeof(arg));
	void *argp = NULL;
	size_t argsz = 0;
	if (wait_nr > 0 && timeout_ns > 0) {
		ts.tv_sec = timeout_ns / 1000000000;
		ts.tv_nsec = timeout_ns % 1000000000;
		arg.ts = (uint64_t)(uintptr_t)&ts;
		argp = &arg;
		argsz = sizeof(arg);
		flags |= IORING_ENTER_EXT_ARG;
	}
	if (sys_enter(r->fd, submit, wait_nr, flags, argp, argsz) < 0)
		return -errno;
	return 0;
}

int ws_uring_submit_wait(ws_uring *r, unsigned wait_nr, int64_t timeout_ns)
{
	return enter(r, wait_nr, timeout_ns);
}

/* The next free submission entry, cleared; submits what is queued when the ring is full. */
static struct io_uring_sqe *get_sqe(ws_uring *r)
{
	for (int tries = 0; tries < 2; tries++) {
		unsigned head = __atomic_load_n(r->sq_head, __ATOMIC_ACQUIRE);
		if (r->sq_local - head < r->entries) {
			struct io_uring_sqe *s =
				(struct io_uring_sqe *)r->sqes + (r->sq_local & *r->sq_mask);
			memset(s, 0, sizeof(*s));
			r->last = s;
			r->sq_local++;
			r->queued++;
			return s;
		}
		if (enter(r, 0, 0) < 0)
			return NULL;
	}
	return NULL;
}

static int prep(ws_uring *r, int op, int fd, const void *buf, uint32_t len, uint64_t data,
		struct io_uring_sqe **out)
{
	struct io_uring_sqe *s = get_sqe(r);
	if (!s)
		return -EBUSY;
	s->opcode = (uint8_t)op;
	s->fd = fd;
	if (fd >= 0 && fd == r->fixed_fd) { /* the registered descriptor: no lookup per call */
		s->fd = 0;
		s->flags = IOSQE_FIXED_FILE;
	}
	s->addr = (uint64_t)(uintptr_t)buf;
	s->len = len;
	s->user_data = data;
	*out = s;
	return 0;
}

int ws_uring_send(ws_uring *r, int fd, const void *buf, uint32_t len, uint64_t data)
{
	struct io_uring_sqe *s;
	int rc = prep(r, IORING_OP_SEND, fd, buf, len, data, &s);
	if (rc == 0)
		s->msg_flags = MSG_NOSIGNAL;
	return rc;
}

int ws_uring_send_all(ws_uring *r, int fd, const void *buf, uint32_t len, uint64_t data)
{
	struct io_uring_sqe *s;
	int rc = prep(r, IORING_OP_SEND, fd, buf, len, data, &s);
	if (rc == 0) {
		s->msg_flags = MSG_NOSIGNAL | MSG_WAITALL;
		s->flags |= IOSQE_CQE_SKIP_SUCCESS;
	}
	return rc;
}

int ws_uring_sendmsg(ws_uring *r, int fd, const void *msg, uint64_t data)
{
	struct io_uring_sqe *s;
	int rc = prep(r, IORING_OP_SENDMSG, fd, msg, 1, data, &s);
	if (rc == 0)
		s->msg_flags = MSG_NOSIGNAL;
	return rc;
}

/* A write on a socket has no MSG_NOSIGNAL: the caller blocks SIGPIPE in its thread (see
 * uring.h). */
int ws_uring_write_fixed(ws_uring *r, int fd, const void *buf, uint32_t len, uint64_t data)
{
	if (!r->registered)
		return ws_uring_send(r, fd, buf, len, data);
	struct io_uring_sqe *s;
	int rc = prep(r, IORING_OP_WRITE_FIXED, fd, buf, len, data, &s);
	if (rc == 0) {
		s->buf_index = 0;
		s->off = (uint64_t)-1; /* a socket has no file position */
	}
	return rc;
}

int ws_uring_recv(ws_uring *r, int fd, void *buf, uint32_t len, uint64_t data)
{
	struct io_uring_sqe *s;
	return prep(r, IORING_OP_RECV, fd, buf, len, data, &s);
}

int ws_uring_recv_multishot(ws_uring *r, int fd, const ws_uring_bufs *b, uint64_t data)
{
	struct io_uring_sqe *s;
	int rc = prep(r, IORING_OP_RECV, fd, NULL, 0, data, &s);
	if (rc == 0) {
		s->ioprio = IORING_RECV_MULTISHOT;
		s->flags |= IOSQE_BUFFER_SELECT;
		s->buf_group = b->bgid;
	}
	return rc;
}

int ws_uring_recv_all(ws_uring *r, int fd, void *buf, uint32_t len, uint64_t data)
{
	int rc = ws_uring_recv(r, fd, buf, len, data);
	if (rc == 0)
		((struct io_uring_sqe *)r->last)->msg_flags = MSG_WAITALL;
	return rc;
}

int ws_uring_connect(ws_uring *r, int fd, const void *addr, uint32_t addrlen, uint64_t data)
{
	struct io_uring_sqe *s;
	int rc = prep(r, IORING_OP_CONNECT, fd, addr, 0, data, &s);
	if (rc == 0)
		s->off = addrlen; /* the connect's address length rides in off */
	return rc;
}

int ws_uring_close_fd(ws_uring *r, int fd, uint64_t data)
{
	struct io_uring_sqe *s;
	return prep(r, IORING_OP_CLOSE, fd, NULL, 0, data, &s);
}

int ws_uring_accept(ws_uring *r, int fd, void *addr, uint32_t *addrlen, uint64_t data)
{
	struct io_uring_sqe *s;
	int rc = prep(r, IORING_OP_ACCEPT, fd, addr, 0, data, &s);
	if (rc == 0) {
		s->off = (uint64_t)(uintptr_t)addrlen; /* the address length's pointer */
		s->accept_flags = SOCK_CLOEXEC;        /* blocking: the ring waits for it */
	}
	return rc;
}

int ws_uring_poll(ws_uring *r, int fd, uint32_t events, uint64_t data)
{
	struct io_uring_sqe *s;
	int rc = prep(r, IORING_OP_POLL_ADD, fd, NULL, 0, data, &s);
	if (rc == 0)
		s->poll32_events = events;
	return rc;
}

int ws_uring_cancel(ws_uring *r, uint64_t target, uint64_t data)
{
	struct io_uring_sqe *s;
	return prep(r, IORING_OP_ASYNC_CANCEL, -1, (const void *)(uintptr_t)target, 0, data, &s);
}

int ws_uring_splice(ws_uring *r, int in, int64_t in_off, int out, uint32_t len, uint64_t data)
{
	struct io_uring_sqe *s;
	int rc = prep(r, IORING_OP_SPLICE, out, NULL, len, data, &s);
	if (rc == 0) {
		s->splice_fd_in = in;
		s->splice_off_in = (uint64_t)in_off; /* -1: the pipe's (no offset) */
		s->off = (uint64_t)-1;               /* out is a pipe or a socket */
		s->splice_flags = SPLICE_F_MOVE;
	}
	return rc;
}

void ws_uring_link(ws_uring *r, bool link, bool quiet)
{
	struct io_uring_sqe *s = r->last;
	if (!s)
		return;
	s->flags |= (uint8_t)((link ? IOSQE_IO_LINK : 0) | (quiet ? IOSQE_CQE_SKIP_SUCCESS : 0));
}

unsigned ws_uring_space(const ws_uring *r)
{
	return r->entries - (r->sq_local - __atomic_load_n(r->sq_head, __ATOMIC_ACQUIRE));
}

unsigned ws_uring_reap(ws_uring *r, ws_uring_cqe *out, unsigned max)
{
	unsigned head = *r->cq_head, n = 0;
	unsigned tail = __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE);
	const struct io_uring_cqe *cqes = r->cqes;
	while (head != tail && n < max) {
		const struct io_uring_cqe *c = &cqes[head & *r->cq_mask];
		out[n++] = (ws_uring_cqe){c->user_data, c->res, c->flags};
		head++;
	}
	__atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
	return n;
}

bool ws_uring_cqe_more(const ws_uring_cqe *c) { return c->flags & IORING_CQE_F_MORE; }

int ws_uring_cqe_buf(const ws_uring_cqe *c)
{
	return c->flags & IORING_CQE_F_BUFFER ? (int)(c->flags >> IORING_CQE_BUFFER_SHIFT) : -1;
}

int ws_uring_bufs_open(ws_uring *r, ws_uring_bufs *b, uint16_t bgid, uint32_t count, uint32_t size,
		       ws_err *err)
{
	memset(b, 0, sizeof(*b));
	if (count == 0 || (count & (count - 1)) || count > 32768)
		return ws_err_set(err, WS_E_INVAL, "%u provided buffers; expected a power of 2",
				  count);
	b->count = count;
	b->size = size;
	b->bgid = bgid;
	b->ring_len = count * sizeof(struct io_uring_buf);
	b->ring =
		mmap(NULL, b->ring_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	b->mem = malloc((size_t)count * size);
	if (b->ring == MAP_FAILED || !b->mem) {
		if (b->ring == MAP_FAILED)
			b->ring = NULL;
		ws_uring_bufs_close(r, b);
		return ws_err_set(err, ENOMEM, "no memory for %u receive buffers of %u bytes",
				  count, size);
	}
	struct io_uring_buf_reg reg;
	memset(&reg, 0, sizeof(reg));
	reg.ring_addr = (uint64_t)(uintptr_t)b->ring;
	reg.ring_entries = count;
	reg.bgid = bgid;
	if (sys_register(r->fd, IORING_REGISTER_PBUF_RING, &reg, 1) < 0) {
		int rc = ws_err_errno(err, "cannot register a provided-buffer ring");
		ws_uring_bufs_close(r, b);
		return rc;
	}
	for (uint32_t i = 0; i < count; i++)
		ws_uring_bufs_recycle(b, (int)i);
	return 0;
}

void *ws_uring_bufs_at(const ws_uring_bufs *b, int id)
{
	return b->mem + (size_t)(uint32_t)id * b->size;
}

void ws_uring_bufs_recycle(ws_uring_bufs *b, int id)
{
	struct io_uring_buf_ring *br = b->ring;
	struct io_uring_buf *e = &br->bufs[b->tail & (b->count - 1)];
	e->addr = (uint64_t)(uintptr_t)ws_uring_bufs_at(b, id);
	e->len = b->size;
	e->bid = (uint16_t)id;
	b->tail++;
	__atomic_store_n(&br->tail, b->tail, __ATOMIC_RELEASE);
}

void ws_uring_bufs_close(ws_uring *r, ws_uring_bufs *b)
{
	if (b->ring) {
		struct io_uring_buf_reg reg;
		memset(&reg, 0, sizeof(reg));
		reg.bgid = b->bgid;
		if (r && r->fd >= 0)
			sys_register(r->fd, IORING_UNREGISTER_PBUF_RING, &reg, 1);
		munmap(b->ring, b->ring_len);
	}
	free(b->mem);
	memset(b, 0, sizeof(*b));
}

#else /* no io_uring in this build */

int ws_uring_probe(char *why, size_t whysz)
{
	snprintf(why, whysz,
		 "this build has no io_uring (its kernel headers lack multishot receive "
		 "and provided-buffer rings)");
	return -ENOSYS;
}

int ws_uring_open(ws_uring *r, unsigned entries, bool sqpoll, ws_err *err)
{
	(void)entries;
	(void)sqpoll;
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	return ws_err_set(err, ENOSYS, "this build has no io_uring");
}

void ws_uring_close(ws_uring *r) { r->fd = -1; }

int ws_uring_register_buffer(ws_uring *r, void *buf, size_t len, ws_err *err)
{
	(void)r;
	(void)buf;
	(void)len;
	return ws_err_set(err, ENOSYS, "this build has no io_uring");
}

int ws_uring_register_fd(ws_uring *r, int fd, ws_err *err)
{
	(void)r, (void)fd;
	return ws_err_set(err, ENOSYS, "this build has no io_uring");
}

int ws_uring_send(ws_uring *r, int fd, const void *buf, uint32_t len, uint64_t data)
{
	(void)r, (void)fd, (void)buf, (void)len, (void)data;
	return -ENOSYS;
}

int ws_uring_write_fixed(ws_uring *r, int fd, const void *buf, uint32_t len, uint64_t data)
{
	(void)r, (void)fd, (void)buf, (void)len, (void)data;
	return -ENOSYS;
}

int ws_uring_send_all(ws_uring *r, int fd, const void *buf, uint32_t len, uint64_t data)
{
	(void)r, (void)fd, (void)buf, (void)len, (void)data;
	return -ENOSYS;
}

int ws_uring_recv(ws_uring *r, int fd, void *buf, uint32_t len, uint64_t data)
{
	(void)r, (void)fd, (void)buf, (void)len, (void)data;
	return -ENOSYS;
}

int ws_uring_sendmsg(ws_uring *r, int fd, const void *msg, uint64_t data)
{
	(void)r, (void)fd, (void)msg, (void)data;
	return -ENOSYS;
}

int ws_uring_recv_multishot(ws_uring *r, int fd, const ws_uring_bufs *b, uint64_t data)
{
	(void)r, (void)fd, (void)b, (void)data;
	return -ENOSYS;
}

int ws_uring_submit_wait(ws_uring *r, unsigned wait_nr, int64_t timeout_ns)
{
	(void)r, (void)wait_nr, (void)timeout_ns;
	return -ENOSYS;
}

unsigned ws_uring_reap(ws_uring *r, ws_uring_cqe *out, unsigned max)
{
	(void)r, (void)out, (void)max;
	return 0;
}

int ws_uring_recv_all(ws_uring *r, int fd, void *buf, uint32_t len, uint64_t data)
{
	(void)r, (void)fd, (void)buf, (void)len, (void)data;
	return -ENOSYS;
}

int ws_uring_connect(ws_uring *r, int fd, const void *addr, uint32_t addrlen, uint64_t data)
{
	(void)r, (void)fd, (void)addr, (void)addrlen, (void)data;
	return -ENOSYS;
}

int ws_uring_close_fd(ws_uring *r, int fd, uint64_t data)
{
	(void)r, (void)fd, (void)data;
	return -ENOSYS;
}

int ws_uring_accept(ws_uring *r, int fd, void *addr, uint32_t *addrlen, uint64_t data)
{
	(void)r, (void)fd, (void)addr, (void)addrlen, (void)data;
	return -ENOSYS;
}

int ws_uring_poll(ws_uring *r, int fd, uint32_t events, uint64_t data)
{
	(void)r, (void)fd, (void)events, (void)data;
	return -ENOSYS;
}

int ws_uring_cancel(ws_uring *r, uint64_t target, uint64_t data)
{
	(void)r, (void)target, (void)data;
	return -ENOSYS;
}

int ws_uring_splice(ws_uring *r, int in, int64_t in_off, int out, uint32_t len, uint64_t data)
{
	(void)r, (void)in, (void)in_off, (void)out, (void)len, (void)data;
	return -ENOSYS;
}

void ws_uring_link(ws_uring *r, bool link, bool quiet) { (void)r, (void)link, (void)quiet; }

unsigned ws_uring_space(const ws_uring *r)
{
	(void)r;
	return 0;
}

bool ws_uring_cqe_more(const ws_uring_cqe *c)
{
	(void)c;
	return false;
}

int ws_uring_cqe_buf(const ws_uring_cqe *c)
{
	(void)c;
	return -1;
}

int ws_uring_bufs_open(ws_uring *r, ws_uring_bufs *b, uint16_t bgid, uint32_t count, uint32_t size,
		       ws_err *err)
{
	(void)r, (void)bgid, (void)count, (void)size;
	memset(b, 0, sizeof(*b));
	return ws_err_set(err, ENOSYS, "this build has no io_uring");
}

void *ws_uring_bufs_at(const ws_uring_bufs *b, int id)
{
	(void)b, (void)id;
	return NULL;
}

void ws_uring_bufs_recycle(ws_uring_bufs *b, int id) { (void)b, (void)id; }

void ws_uring_bufs_close(ws_uring *r, ws_uring_bufs *b)
{
	(void)r;
	memset(b, 0, sizeof(*b));
}

#endif
