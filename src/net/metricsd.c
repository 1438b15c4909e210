/* SPDX-License-Identifier: BSD-2-Clause */
/* metricsd: the /metrics endpoint's thread, its connections and their bounds; see
 * metricsd.h. */
#include "net/metricsd.h"

#include "net/httpreq.h"
#include "net/sock.h"
#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define ACCEPT_BATCH 16
#define DRAIN_NS     (500 * 1000000LL) /* after the answer, at most this for the peer's FIN */

enum cstate { C_FREE, C_READ, C_WRITE, C_DRAIN };

typedef struct conn {
	enum cstate st;
	int fd;
	int64_t deadline;
	int64_t since; /* accepted at: the oldest goes first when all slots are taken */
	size_t got;
	char in[WS_HTTPREQ_MAX];
	char *out; /* the answer (head and body), sent from off */
	size_t len, off;
} conn;

struct ws_metricsd {
	ws_metricsd_config cfg;
	int lfd;
	int wake[2];
	pthread_t thread;
	conn *c;
};

int ws_metricsd_parse_addr(const char *text, ws_addr *out, ws_err *err)
{
	char host[256];
	const char *port = text;
	const char *forms = "expected PORT (on 127.0.0.1), ADDR:PORT or [IPV6]:PORT, e.g. "
			    "127.0.0.1:9101";
	if (!text || !*text)
		return ws_err_set(err, WS_E_INVAL, "an empty address; %s", forms);
	snprintf(host, sizeof(host), "127.0.0.1");
	const char *colon = strrchr(text, ':');
	if (colon) {
		const char *hs = text, *he = colon;
		if (*hs == '[' && he > hs && he[-1] == ']')
			hs++, he--;
		else if (strchr(text, ':') != colon) /* more than one ':' */
			return ws_err_set(err, WS_E_INVAL,
					  "'%s': an IPv6 address goes in brackets; %s", text,
					  forms);
		if (he <= hs || (size_t)(he - hs) >= sizeof(host))
			return ws_err_set(err, WS_E_INVAL, "'%s' names no address; %s", text,
					  forms);
		memcpy(host, hs, (size_t)(he - hs));
		host[he - hs] = '\0';
		port = colon + 1;
	}
	char *end;
	errno = 0;
	long p = strtol(port, &end, 10);
	if (!*port || *end || errno || p < 0 || p > 65535 || *port == '-' || *port == '+')
		return ws_err_set(err, WS_E_INVAL, "'%s' has no port 0..65535; %s", text, forms);
	int rc = ws_addr_resolve(host, (uint16_t)p, 0, 1, out, err);
	if (rc < 0)
		ws_err_prefix(err, "'%s'", text);
	return rc;
}

static void conn_close(conn *c)
{
	if (c->st == C_FREE)
		return;
	close(c->fd);
	free(c->out);
	c->out = NULL;
	c->st = C_FREE;
}

/* The answer to r: the metrics, or a short text saying what was refused. */
static void answer(ws_metricsd *m, conn *c, const ws_httpreq *r)
{
	ws_om w;
	ws_om_init(&w, r->openmetrics ? WS_OM_OPENMETRICS : WS_OM_PROMETHEUS);
	int status = r->status;
	const char *type = "text/plain; charset=utf-8";
	char text[160];
	const char *body = text;
	size_t blen;
	if (status == 200) {
		m->cfg.render(m->cfg.ctx, &w);
		if (ws_om_finish(&w, NULL) == 0) {
			type = ws_om_content_type(w.fmt);
			body = w.buf;
		} else {
			status = 503;
		}
	}
	if (body == text)
		snprintf(text, sizeof(text), "%d %s: %s\n", status, ws_httpreq_reason(status),
			 status == 503 ? "the metrics could not be rendered" : r->why);
	blen = strlen(body);
	char head[320];
	int hl = snprintf(head, sizeof(head),
			  "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s"
			  "Cache-Control: no-store\r\nConnection: close\r\n\r\n",
			  status, ws_httpreq_reason(status), type, blen,
			  status == 405 ? "Allow: GET, HEAD\r\n" : "");
	if (r->head)
		blen = 0;
	c->out = malloc((size_t)hl + blen);
	if (c->out) {
		memcpy(c->out, head, (size_t)hl);
		memcpy(c->out + hl, body, blen);
		c->len = (size_t)hl + blen;
		c->off = 0;
		c->st = C_WRITE;
	} else {
		conn_close(c);
	}
	ws_om_free(&w);
}

static void on_read(ws_metricsd *m, conn *c)
{
	ssize_t n = recv(c->fd, c->in + c->got, sizeof(c->in) - c->got, 0);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		conn_close(c);
		return;
	}
	if (n < 0)
		return;
	c->got += (size_t)n;
	ws_httpreq r;
	if (ws_httpreq_parse(c->in, c->got, &r))
		answer(m, c, &r);
}

static void on_write(conn *c)
{
	ssize_t n = send(c->fd, c->out + c->off, c->len - c->off, MSG_NOSIGNAL);
	if (n < 0 && errno != EAGAIN && errno != EINTR) {
		conn_close(c);
		return;
	}
	if (n > 0)
		c->off += (size_t)n;
	if (c->off < c->len)
		return;
	/* Done: half-close and read until the peer closes, so that bytes it sent after
	 * the head (a body, a pipelined request) do not make the kernel reset the answer. */
	shutdown(c->fd, SHUT_WR);
	c->st = C_DRAIN;
	int64_t d = ws_clock_ns() + DRAIN_NS;
	if (d < c->deadline)
		c->deadline = d;
}

static void on_drain(conn *c)
{
	char sink[512];
	ssize_t n = recv(c->fd, sink, sizeof(sink), 0);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		conn_close(c);
}

/* A free slot, or the oldest connection's, closed. */
static conn *slot(ws_metricsd *m)
{
	conn *oldest = NULL;
	for (unsigned i = 0; i < m->cfg.max_conns; i++) {
		if (m->c[i].st == C_FREE)
			return &m->c[i];
		if (!oldest || m->c[i].since < oldest->since)
			oldest = &m->c[i];
	}
	conn_close(oldest);
	return oldest;
}

static void accept_some(ws_metricsd *m)
{
	for (int k = 0; k < ACCEPT_BATCH; k++) {
		int fd = accept4(m->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		conn *c = slot(m);
		int64_t now = ws_clock_ns();
		*c = (conn){.st = C_READ,
			    .fd = fd,
			    .since = now,
			    .deadline = now + m->cfg.conn_timeout_ns};
	}
}

static int timeout_ms(const ws_metricsd *m)
{
	int64_t now = ws_clock_ns(), next = INT64_MAX;
	for (unsigned i = 0; i < m->cfg.max_conns; i++)
		if (m->c[i].st != C_FREE && m->c[i].deadline < next)
			next = m->c[i].deadline;
	if (next == INT64_MAX)
		return -1;
	return next <= now ? 0 : (int)((next - now) / 1000000 + 1);
}

static void *loop(void *arg)
{
	ws_metricsd *m = arg;
	unsigned n = m->cfg.max_conns;
	struct pollfd *p = calloc(n + 2, sizeof(*p));
	conn **who = calloc(n + 2, sizeof(*who));
	while (p && who) {
		size_t k = 0;
		p[k++] = (struct pollfd){.fd = m->wake[0], .events = POLLIN};
		p[k++] = (struct pollfd){.fd = m->lfd, .events = POLLIN};
		for (unsigned i = 0; i < n; i++) {
			conn *c = &m->c[i];
			if (c->st == C_FREE)
				continue;
			who[k] = c;
			p[k++] = (struct pollfd){.fd = c->fd,
						 .events = c->st == C_WRITE ? POLLOUT : POLLIN};
		}
		if (poll(p, (nfds_t)k, timeout_ms(m)) < 0 && errno != EINTR)
			break;
		if (p[0].revents)
			break;
		for (size_t i = 2; i < k; i++) {
			conn *c = who[i];
			if (!p[i].revents || c->st == C_FREE)
				continue;
			if (c->st == C_READ)
				on_read(m, c);
			else if (c->st == C_WRITE)
				on_write(c);
			else
				on_drain(c);
		}
		int64_t now = ws_clock_ns();
		for (unsigned i = 0; i < n; i++)
			if (m->c[i].st != C_FREE && now >= m->c[i].deadline)
				conn_close(&m->c[i]); /* slow or silent: its time is up */
		if (p[1].revents)
			accept_some(m);
	}
	free(p);
	free(who);
	return NULL;
}

ws_metricsd *ws_metricsd_start(const ws_metricsd_config *c, ws_err *err)
{
	ws_metricsd *m = calloc(1, sizeof(*m));
	if (!m) {
		ws_err_set(err, ENOMEM, "no memory for the metrics endpoint");
		return NULL;
	}
	m->cfg = *c;
	if (!m->cfg.max_conns)
		m->cfg.max_conns = WS_METRICSD_DEFAULT_CONNS;
	if (m->cfg.conn_timeout_ns <= 0)
		m->cfg.conn_timeout_ns = WS_METRICSD_DEFAULT_TIMEOUT;
	m->wake[0] = m->wake[1] = -1;
	m->c = calloc(m->cfg.max_conns, sizeof(*m->c));
	m->lfd = m->c ? ws_sock_listen(&c->addr, -1, 0, 0, 64, err) : -1;
	if (!m->c)
		ws_err_set(err, ENOMEM, "no memory for the metrics endpoint");
	int rc = m->lfd >= 0 ? 0 : -1;
	if (rc == 0 &&
	    (fcntl(m->lfd, F_SETFL, fcntl(m->lfd, F_GETFL) | O_NONBLOCK) < 0 ||
	     pipe2(m->wake, O_CLOEXEC | O_NONBLOCK) < 0))
		rc = ws_err_errno(err, "metrics endpoint");
	if (rc == 0 && (rc = pthread_create(&m->thread, NULL, loop, m)) != 0) {
		errno = rc;
		rc = ws_err_errno(err, "start the metrics thread");
	}
	if (rc == 0)
		return m;
	ws_err_prefix(err, "--metrics");
	if (m->lfd >= 0)
		close(m->lfd);
	if (m->wake[0] >= 0) {
		close(m->wake[0]);
		close(m->wake[1]);
	}
	free(m->c);
	free(m);
	return NULL;
}

void ws_metricsd_describe(const ws_metricsd *m, char *buf, size_t n)
{
	ws_addr a;
	char host[64];
	ws_sock_local_addr(m->lfd, &a);
	ws_addr_format(&a, host, sizeof(host));
	bool v6 = strchr(host, ':') != NULL;
	snprintf(buf, n, "%s%s%s:%u", v6 ? "[" : "", host, v6 ? "]" : "", ws_addr_port(&a));
}

void ws_metricsd_stop(ws_metricsd *m)
{
	if (!m)
		return;
	ssize_t r = write(m->wake[1], "x", 1);
	(void)r;
	pthread_join(m->thread, NULL);
	for (unsigned i = 0; i < m->cfg.max_conns; i++)
		conn_close(&m->c[i]);
	close(m->lfd);
	close(m->wake[0]);
	close(m->wake[1]);
	free(m->c);
	free(m);
}
