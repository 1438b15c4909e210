/* SPDX-License-Identifier: BSD-2-Clause */
/* ctlwatch: a closed control connection ends the running test; see ctlwatch.h. */
#include "session/ctlwatch.h"

#include "session/daemon_state.h"
#include "session/slog.h"
#include "util/err.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void *watch(void *arg)
{
	ws_ctlwatch *w = arg;
	for (;;) {
		struct pollfd p[2] = {
			{.fd = w->fd, .events = POLLRDHUP},
			{.fd = w->stop[0], .events = POLLIN},
		};
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return NULL;
		}
		if (p[1].revents)
			return NULL;
		if (p[0].revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) {
			atomic_store(&w->closed, true);
			w->on_close(w->ctx);
			return NULL;
		}
	}
}

int ws_ctlwatch_start(ws_ctlwatch *w, int fd, void (*on_close)(void *ctx), void *ctx)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->on_close = on_close;
	w->ctx = ctx;
	atomic_init(&w->closed, false);
	if (pipe2(w->stop, O_CLOEXEC) < 0) {
		w->stop[0] = w->stop[1] = -1;
		return -1;
	}
	if (pthread_create(&w->thread, NULL, watch, w) != 0) {
		close(w->stop[0]);
		close(w->stop[1]);
		w->stop[0] = w->stop[1] = -1;
		return -1;
	}
	w->running = true;
	return 0;
}

bool ws_ctlwatch_stop(ws_ctlwatch *w)
{
	if (!w->running)
		return false;
	ssize_t r = write(w->stop[1], "x", 1);
	(void)r;
	pthread_join(w->thread, NULL);
	close(w->stop[0]);
	close(w->stop[1]);
	w->running = false;
	return atomic_load(&w->closed);
}

/* --- a session's test --------------------------------------------------------------- */

/* The peer closed: shut the test's data sockets down (as a stopping daemon does), so
 * that the engine's next call returns. A UDP receiver notices on its next tick. */
static void shut_data(void *arg)
{
	ws_session *s = arg;
	pthread_mutex_lock(&s->d->mu);
	for (uint32_t i = 0; i < s->ndata; i++)
		if (s->data_fds[i] >= 0)
			shutdown(s->data_fds[i], SHUT_RDWR);
	pthread_mutex_unlock(&s->d->mu);
}

void ws_session_watch_start(ws_session *s, ws_ctlwatch *w)
{
	ws_ctlwatch_start(w, s->ch.fd, shut_data, s);
}

int ws_session_watch_end(ws_session *s, ws_ctlwatch *w, const char *test, int rc, ws_err *err)
{
	if (!ws_ctlwatch_stop(w))
		return rc;
	ws_slog(s, "the client closed the control connection during %s; the test was ended at once",
		test ? test : "the test");
	return ws_err_set(err, ECONNRESET,
			  "the client closed the control connection during the test");
}
