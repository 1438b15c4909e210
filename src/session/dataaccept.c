/* SPDX-License-Identifier: BSD-2-Clause */
/* dataaccept: a test's data connections, read in parallel; see dataaccept.h. */
#include "session/dataaccept.h"

#include "ctl/msg.h"
#include "net/addr.h"
#include "util/bytes.h"
#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define PROOF_LEN (WS_COOKIE_LEN + 4)

typedef struct pend {
	int fd;
	int64_t until;
	uint32_t got;
	uint8_t buf[PROOF_LEN];
} pend;

typedef struct accept_set {
	pend *p; /* oldest first */
	unsigned np, cap;
	unsigned strangers;
} accept_set;

static void drop(accept_set *a, unsigned i)
{
	close(a->p[i].fd);
	memmove(&a->p[i], &a->p[i + 1], (a->np - i - 1) * sizeof(a->p[0]));
	a->np--;
	a->strangers++;
}

/* Everything queued on the listener: strangers closed, the rest pending. */
static int take_new(accept_set *a, int lfd, const char *want, ws_err *err)
{
	for (;;) {
		ws_addr peer;
		memset(&peer, 0, sizeof(peer));
		peer.len = sizeof(peer.ss);
		int fd = accept4(lfd, (struct sockaddr *)&peer.ss, &peer.len,
				 SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 0;
			return ws_err_errno(err, "accept a data connection");
		}
		char addr[64];
		ws_addr_format(&peer, addr, sizeof(addr));
		if (strcmp(addr, want) != 0) {
			close(fd);
			a->strangers++;
			continue;
		}
		a->p[a->np++] = (pend){.fd = fd, .until = ws_clock_ns() + WS_DATA_PROOF_NS};
		if (a->np == a->cap)
			return 0; /* full: the rest wait in the listen queue */
	}
}

/* Read what pending connection i sent. 1: it proved flow *index; 0: not yet; -1: drop it. */
static int read_proof(pend *c, const uint8_t *cookie, uint32_t n, const int *fds, uint32_t *index)
{
	ssize_t r = recv(c->fd, c->buf + c->got, PROOF_LEN - c->got, 0);
	if (r < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
	if (r == 0)
		return -1;
	c->got += (uint32_t)r;
	if (c->got < PROOF_LEN)
		return memcmp(c->buf, cookie, c->got < WS_COOKIE_LEN ? c->got : WS_COOKIE_LEN) == 0
			? 0
			: -1;
	*index = ws_get_be32(c->buf + WS_COOKIE_LEN);
	if (memcmp(c->buf, cookie, WS_COOKIE_LEN) != 0 || *index >= n || fds[*index] >= 0)
		return -1;
	return 1;
}

int ws_data_accept(int lfd, const char *want, const uint8_t *cookie, uint32_t n, int *fds,
		   int64_t deadline_ns, int wake_fd, unsigned *strangers, ws_err *err)
{
	accept_set set = {.cap = n + WS_DATA_MAX_PENDING}, *a = &set;
	a->p = calloc(a->cap, sizeof(*a->p));
	struct pollfd *pfd = calloc(a->cap + 2, sizeof(*pfd));
	if (!a->p || !pfd) {
		free(a->p);
		free(pfd);
		return ws_err_set(err, ENOMEM, "no memory to accept %u data connections", n);
	}
	fcntl(lfd, F_SETFL, fcntl(lfd, F_GETFL) | O_NONBLOCK);
	uint32_t got = 0;
	int rc = 0;
	while (rc == 0 && got < n) {
		int64_t now = ws_clock_ns(), next = deadline_ns;
		for (unsigned i = a->np; i-- > 0;)
			if (now >= a->p[i].until)
				drop(a, i);
			else if (a->p[i].until < next)
				next = a->p[i].until;
		if (now >= deadline_ns) {
			rc = ws_err_set(err, WS_E_TIMEDOUT,
					"timed out waiting for the data connections");
			break;
		}
		nfds_t k = 0;
		pfd[k++] = (struct pollfd){.fd = lfd, .events = a->np < a->cap ? POLLIN : 0};
		pfd[k++] = (struct pollfd){.fd = wake_fd, .events = POLLIN};
		for (unsigned i = 0; i < a->np; i++)
			pfd[k++] = (struct pollfd){.fd = a->p[i].fd, .events = POLLIN};
		if (poll(pfd, k, ws_clock_ms_until(next) + 1) < 0 && errno != EINTR) {
			rc = ws_err_errno(err, "poll the data connections");
			break;
		}
		if (wake_fd >= 0 && pfd[1].revents) {
			rc = ws_err_set(err, ECANCELED, "the daemon is stopping");
			break;
		}
		/* pending ones first, from the end: taking new ones may drop the oldest */
		for (unsigned i = a->np; i-- > 0;) {
			if (!pfd[2 + i].revents)
				continue;
			uint32_t index = 0;
			int r = read_proof(&a->p[i], cookie, n, fds, &index);
			if (r < 0) {
				drop(a, i);
			} else if (r > 0) {
				int fd = a->p[i].fd;
				fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
				fds[index] = fd;
				got++;
				memmove(&a->p[i], &a->p[i + 1], (a->np - i - 1) * sizeof(a->p[0]));
				a->np--;
			}
		}
		if (got < n && (pfd[0].revents & POLLIN) && a->np < a->cap)
			rc = take_new(a, lfd, want, err);
	}
	if (rc < 0)
		ws_err_prefix(err, "%u of %u data connections arrived", got, n);
	while (a->np)
		drop(a, a->np - 1);
	if (strangers)
		*strangers = a->strangers;
	free(a->p);
	free(pfd);
	return rc;
}
