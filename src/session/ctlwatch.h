/* SPDX-License-Identifier: BSD-2-Clause */
/* ctlwatch: notice, during a test's data phase, that the client closed its control
 * connection, and end the test at once.
 *
 * While a test runs, the session thread is inside an engine that looks only at the data
 * sockets, and nothing reads the control connection until the result is due. A client
 * killed mid-test closes that connection, but a UDP receiver (or a responder) keeps
 * waiting for the test's full length: a 120 s UDP_STREAM whose client died after 1 s held
 * its session, its admission slot and a CLOSE-WAIT socket for 120 s. The watch is one
 * small thread per running test, asleep in poll on the control socket (POLLRDHUP, so the
 * client's frames are never consumed) and on a pipe that ends it; when the peer closes,
 * it calls on_close once, which shuts the data sockets down so that every engine ends.
 * Used by both protocols' sessions (daemon.c, npserve.c). */
#ifndef WS_SESSION_CTLWATCH_H
#define WS_SESSION_CTLWATCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

typedef struct ws_ctlwatch {
	pthread_t thread;
	int fd;      /* the control socket (not owned) */
	int stop[2]; /* pipe: readable when the watch should end */
	bool running;
	atomic_bool closed; /* the peer closed the control connection */
	void (*on_close)(void *ctx);
	void *ctx;
} ws_ctlwatch;

/* Start watching fd. Without a thread or a pipe (out of resources) the watch is simply
 * off: returns -1 and the test runs as before; 0 when it runs. */
int ws_ctlwatch_start(ws_ctlwatch *w, int fd, void (*on_close)(void *ctx), void *ctx);

/* End the watch (joins its thread). True when the peer closed the control connection
 * while it ran (on_close was called). Safe after a failed start. */
bool ws_ctlwatch_stop(ws_ctlwatch *w);

/* The watch of a session's running test (session/daemon_state.h): on a close, the
 * session's data sockets (those set with its data_fds, under d->mu) are shut down.
 * ws_session_watch_end stops it and, when the client closed, logs it and returns
 * -ECONNRESET with err saying so; otherwise it returns rc unchanged. */
struct ws_session;
struct ws_err;
void ws_session_watch_start(struct ws_session *s, ws_ctlwatch *w);
int ws_session_watch_end(struct ws_session *s, ws_ctlwatch *w, const char *test, int rc,
			 struct ws_err *err);

#endif
