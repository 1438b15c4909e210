/* SPDX-License-Identifier: BSD-2-Clause */
/* admission: the daemon's listener loop, its pre-session phase and who is admitted; see
 * admission.h. */
#include "session/admission.h"
#include "session/dmetrics.h"

#include "session/daemon_state.h"
#include "session/npserve.h"
#include "session/policy.h"
#include "session/slog.h"
#include "session/wsserve.h"
#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* --- admission ------------------------------------------------------------------- */

/* Who holds a busy daemon: the sessions' peers, tests and ages, at most four by name. */
static void busy_text(ws_daemon *d, char *why, size_t n)
{
	int64_t now = ws_clock_ns();
	size_t len = (size_t)snprintf(why, n,
				      "busy: its limit of %u session%s (warpspeed serve "
				      "--max-sessions) is reached; held by",
				      d->cfg.max_sessions, d->cfg.max_sessions == 1 ? "" : "s");
	unsigned shown = 0, more = 0;
	for (ws_session *s = d->sessions; s; s = s->next) {
		if (shown == 4 || len >= n) {
			more++;
			continue;
		}
		len += (size_t)snprintf(why + len, n - len, "%s %s (%s, connected %.1f s ago)",
					shown ? "," : "", s->peer_text,
					s->test ? s->test : "between tests",
					(double)(now - s->since_ns) / WS_NS_PER_SEC);
		shown++;
	}
	if (more && len < n)
		snprintf(why + len, n - len, " and %u more", more);
}

/* One address holds its share: its sessions, at most four by name. */
static void busy_addr_text(ws_daemon *d, const char *addr, unsigned held, char *why, size_t n)
{
	int64_t now = ws_clock_ns();
	size_t len = (size_t)snprintf(
		why, n,
		"busy: %s holds %u session%s, this daemon's limit per client address "
		"(warpspeed serve --max-sessions-per-addr %u):",
		addr, held, held == 1 ? "" : "s", d->cfg.max_sessions_per_addr);
	unsigned shown = 0;
	for (ws_session *s = d->sessions; s && shown < 4 && len < n; s = s->next) {
		if (strcmp(s->addr, addr) != 0)
			continue;
		len += (size_t)snprintf(why + len, n - len, "%s %s (%s, connected %.1f s ago)",
					shown ? "," : "", s->peer_text,
					s->test ? s->test : "between tests",
					(double)(now - s->since_ns) / WS_NS_PER_SEC);
		shown++;
	}
	if (held > shown && len < n)
		snprintf(why + len, n - len, " and %u more", held - shown);
}

/* Count a session against max_sessions and max_sessions_per_addr and register it; the
 * caller holds d->mu. NULL when the daemon or the address is full (why says by whom) or
 * out of memory. */
static ws_session *admit_locked(ws_daemon *d, const ws_prelude_conn *c, char *why, size_t n)
{
	if (d->admitted >= d->cfg.max_sessions) {
		busy_text(d, why, n);
		return NULL;
	}
	char addr[64];
	ws_addr_format(&c->peer, addr, sizeof(addr));
	unsigned same = 0;
	for (ws_session *o = d->sessions; o; o = o->next)
		same += strcmp(o->addr, addr) == 0;
	if (d->cfg.max_sessions_per_addr && same >= d->cfg.max_sessions_per_addr) {
		busy_addr_text(d, addr, same, why, n);
		return NULL;
	}
	ws_session *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(why, n, "the daemon is out of memory");
		return NULL;
	}
	s->d = d;
	s->id = c->id;
	s->peer = c->peer;
	s->since_ns = ws_clock_ns();
	s->idle_since = s->since_ns;
	snprintf(s->addr, sizeof(s->addr), "%s", addr);
	s->authed = c->authed;
	memcpy(s->proof, c->proof, sizeof(s->proof));
	s->netperf = c->netperf;
	if (c->netperf)
		memcpy(s->np_first, c->np_first, sizeof(s->np_first));
	snprintf(s->peer_text, sizeof(s->peer_text), "%s", c->peer_text);
	ws_slog_init(s);
	ws_channel_init(&s->ch, c->fd);
	s->next = d->sessions;
	d->sessions = s;
	d->admitted++;
	return s;
}

/* --- a session's life ---------------------------------------------------------- */

/* A session's protocol front end on its thread, then its accounting. */
static void session_serve(ws_session *s)
{
	ws_dmetrics_session(s->d->cfg.metrics, s->netperf, 1);
	if (s->netperf)
		ws_npserve_session(s);
	else
		ws_wsserve_session(s);
	ws_slog_end(s);
	ws_dmetrics_session(s->d->cfg.metrics, s->netperf, -1);
	pthread_mutex_lock(&s->d->mu);
	s->d->admitted--;
	pthread_mutex_unlock(&s->d->mu);
}

/* Unlink and free a session whose serve loop ended; the caller holds d->mu. */
static void session_end(ws_daemon *d, ws_session *s)
{
	for (ws_session **pp = &d->sessions; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	ws_channel_close(&s->ch);
	free(s);
	pthread_cond_broadcast(&d->cv);
}

static void *session_thread(void *arg)
{
	ws_session *s = arg;
	ws_daemon *d = s->d;
	session_serve(s);
	pthread_mutex_lock(&d->mu);
	session_end(d, s);
	d->threads--;
	pthread_mutex_unlock(&d->mu);
	return NULL;
}

/* The listener's admission: a thread per session. */
/* What the admit callbacks see: the daemon, and for ws_daemon_serve_fd the session
 * admitted (run in the caller's thread instead of a new one). */
struct admit_ctx {
	ws_daemon *d;
	ws_session *inline_session;
};

static int admit_thread(void *ctx, const ws_prelude_conn *c, char *why, size_t n)
{
	ws_daemon *d = ((struct admit_ctx *)ctx)->d;
	pthread_mutex_lock(&d->mu);
	ws_session *s = admit_locked(d, c, why, n);
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_t t;
	int rc = s ? pthread_create(&t, &attr, session_thread, s) : -1;
	pthread_attr_destroy(&attr);
	if (rc == 0) {
		d->threads++;
	} else if (s) {
		s->ch.fd = -1; /* the prelude still owns and closes it */
		d->admitted--;
		session_end(d, s);
		snprintf(why, n, "the daemon could not start a thread for the session");
	}
	pthread_mutex_unlock(&d->mu);
	return rc == 0 ? 0 : -1;
}

static int admit_inline(void *ctx, const ws_prelude_conn *c, char *why, size_t n)
{
	struct admit_ctx *a = ctx;
	pthread_mutex_lock(&a->d->mu);
	a->inline_session = admit_locked(a->d, c, why, n);
	pthread_mutex_unlock(&a->d->mu);
	return a->inline_session ? 0 : -1;
}

static uint64_t new_id(void *ctx)
{
	ws_daemon *d = ((struct admit_ctx *)ctx)->d;
	pthread_mutex_lock(&d->mu);
	uint64_t id = ++d->next_id;
	pthread_mutex_unlock(&d->mu);
	return id;
}

static void prelude_log(void *ctx, const char *line)
{
	ws_daemon *d = ((struct admit_ctx *)ctx)->d;
	if (d->cfg.log)
		d->cfg.log(d->cfg.log_ctx, line);
}

static ws_prelude *new_prelude(struct admit_ctx *a, unsigned max,
			       int (*admit_fn)(void *, const ws_prelude_conn *, char *, size_t),
			       ws_err *err)
{
	ws_daemon *d = a->d;
	ws_prelude_config pc = {
		.hello_timeout_ns = d->cfg.hello_timeout_ns,
		.max_pending = max,
		.max_pending_per_source = d->cfg.max_pending_per_source,
		.psk = d->psk,
		.np_passphrase = d->np_passphrase,
		.admit = admit_fn,
		.new_id = new_id,
		.log = prelude_log,
		.ctx = a,
		.metrics = d->cfg.metrics,
	};
	return ws_prelude_new(&pc, err);
}

static void shutdown_sessions(ws_daemon *d)
{
	pthread_mutex_lock(&d->mu);
	d->stopping = true;
	for (ws_session *s = d->sessions; s; s = s->next) {
		shutdown(s->ch.fd, SHUT_RDWR);
		for (uint32_t i = 0; i < s->ndata; i++)
			if (s->data_fds[i] >= 0)
				shutdown(s->data_fds[i], SHUT_RDWR);
	}
	int64_t deadline = ws_clock_ns() + 2 * WS_NS_PER_SEC;
	while (d->threads > 0 && ws_clock_ns() < deadline) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 50 * 1000 * 1000;
		if (ts.tv_nsec >= WS_NS_PER_SEC) {
			ts.tv_sec++;
			ts.tv_nsec -= WS_NS_PER_SEC;
		}
		pthread_cond_timedwait(&d->cv, &d->mu, &ts);
	}
	pthread_mutex_unlock(&d->mu);
}

int ws_daemon_run(ws_daemon *d)
{
	struct admit_ctx a = {.d = d};
	ws_prelude *pre = new_prelude(&a, d->cfg.max_pending, admit_thread, NULL);
	size_t cap = (pre ? ws_prelude_capacity(pre) : 0) + 3;
	struct pollfd *p = pre ? calloc(cap, sizeof(*p)) : NULL;
	for (int i = 0; i < d->nlfd; i++) /* accept in batches until the queue is empty */
		fcntl(d->lfd[i], F_SETFL, fcntl(d->lfd[i], F_GETFL) | O_NONBLOCK);
	for (; p;) {
		size_t n = 0, nl = 0;
		if (!ws_prelude_accept_paused(pre))
			for (int i = 0; i < d->nlfd; i++, nl++)
				p[n++] = (struct pollfd){.fd = d->lfd[i], .events = POLLIN};
		p[n++] = (struct pollfd){.fd = d->wake[0], .events = POLLIN};
		size_t base = n;
		n += ws_prelude_fill(pre, p + base, cap - base);
		if (poll(p, (nfds_t)n, ws_prelude_timeout_ms(pre)) < 0 && errno != EINTR)
			break;
		if (p[nl].revents)
			break;
		/* The pending connections first: accepting may evict some of them. */
		ws_prelude_step(pre, p + base, n - base);
		for (size_t i = 0; i < nl; i++)
			if (p[i].revents)
				ws_prelude_accept(pre, p[i].fd);
	}
	free(p);
	ws_prelude_free(pre);
	shutdown_sessions(d);
	return 0;
}

int ws_daemon_serve_fd(ws_daemon *d, int fd, const ws_addr *peer)
{
	ws_addr pa;
	if (!peer) {
		memset(&pa, 0, sizeof(pa));
		pa.len = sizeof(pa.ss);
		if (getpeername(fd, (struct sockaddr *)&pa.ss, &pa.len) < 0)
			pa.len = 0;
		peer = &pa;
	}
	struct admit_ctx a = {.d = d};
	ws_prelude *pre = new_prelude(&a, 1, admit_inline, NULL);
	if (!pre) {
		close(fd);
		return -ENOMEM;
	}
	ws_prelude_add(pre, fd, peer);
	while (ws_prelude_pending(pre)) {
		struct pollfd p;
		size_t n = ws_prelude_fill(pre, &p, 1);
		if (poll(&p, (nfds_t)n, ws_prelude_timeout_ms(pre)) < 0 && errno != EINTR)
			break;
		ws_prelude_step(pre, &p, n);
	}
	ws_prelude_free(pre);
	ws_session *s = a.inline_session;
	if (!s)
		return -WS_E_REFUSED;
	session_serve(s);
	pthread_mutex_lock(&d->mu);
	session_end(d, s);
	pthread_mutex_unlock(&d->mu);
	return 0;
}
