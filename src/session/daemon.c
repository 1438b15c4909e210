/* SPDX-License-Identifier: BSD-2-Clause */
/* daemon: the daemon object, its configuration, listeners and lifetime; the listener
 * loop and the admission of sessions are in admission.c, the warpspeed protocol's
 * sessions in wsserve.c and netperf's in npserve.c, over the rules of policy.c. See
 * daemon.h. */
#include "session/daemon.h"

#include "net/addr.h"
#include "net/sock.h"
#include "session/admission.h"
#include "session/daemon_state.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/psk.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A deep accept queue: under a connection flood a SYN dropped for a full queue costs a
 * real client a 1 s retransmit; the pre-session loop drains the queue in batches. */
#define LISTEN_BACKLOG 1024

void ws_daemon_config_init(ws_daemon_config *c)
{
	memset(c, 0, sizeof(*c));
	c->port = 12865;
	c->max_sessions = 64;
	c->max_sessions_per_addr = 16;
	c->max_streams = 4096;
	c->max_threads = 64;
	c->max_duration_s = 3600;
	c->max_memory = 512ull << 20;
	c->hello_timeout_ns = 2 * WS_NS_PER_SEC;
	c->idle_timeout_ns = 60 * WS_NS_PER_SEC;
	c->max_pending = 512;
	c->max_pending_per_source = 8;
}

/* --- listener -------------------------------------------------------------------- */

static int open_listeners(ws_daemon *d, ws_err *err)
{
	const ws_daemon_config *c = &d->cfg;
	ws_addr a;
	int rc;
	if (c->bind_host && *c->bind_host) {
		rc = ws_addr_resolve(c->bind_host, c->port, c->family, 1, &a, err);
		if (rc < 0)
			return rc;
		d->lfd[0] = ws_sock_listen(&a, c->family == 6 ? 1 : -1, 0, 0, LISTEN_BACKLOG, err);
		return d->lfd[0] < 0 ? d->lfd[0] : (d->nlfd = 1, 0);
	}
	/* All addresses: one dual-stack IPv6 socket, or IPv4 alone where IPv6 is absent. */
	if (c->family != 4 && ws_addr_resolve("::", c->port, 6, 1, &a, NULL) == 0) {
		d->lfd[0] = ws_sock_listen(&a, c->family == 6 ? 1 : 0, 0, 0, LISTEN_BACKLOG, err);
		if (d->lfd[0] >= 0 || c->family == 6)
			return d->lfd[0] < 0 ? d->lfd[0] : (d->nlfd = 1, 0);
	}
	if ((rc = ws_addr_resolve("0.0.0.0", c->port, 4, 1, &a, err)) < 0)
		return rc;
	d->lfd[0] = ws_sock_listen(&a, -1, 0, 0, LISTEN_BACKLOG, err);
	return d->lfd[0] < 0 ? d->lfd[0] : (d->nlfd = 1, 0);
}

static void wipe_passphrase(ws_daemon *d)
{
	if (!d->np_passphrase)
		return;
	volatile char *p = d->np_passphrase;
	while (*p)
		*p++ = 0;
	free(d->np_passphrase);
	d->np_passphrase = NULL;
}

ws_daemon *ws_daemon_new(const ws_daemon_config *c, ws_err *err)
{
	ws_daemon *d = calloc(1, sizeof(*d));
	if (!d) {
		ws_err_set(err, ENOMEM, "no memory for the daemon");
		return NULL;
	}
	d->cfg = *c;
	d->lfd[0] = d->lfd[1] = -1;
	pthread_mutex_init(&d->mu, NULL);
	pthread_cond_init(&d->cv, NULL);
	ws_budget_init(&d->budget, c->max_memory);
	ws_fdbudget_init(&d->fds, c->max_pending, c->max_sessions);
	if (pipe2(d->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		ws_err_errno(err, "pipe");
		free(d);
		return NULL;
	}
	if (c->psk && !(d->psk = malloc(sizeof(*d->psk)))) {
		ws_err_set(err, ENOMEM, "no memory for the key");
	} else if (c->psk) {
		*d->psk = *c->psk;
		d->cfg.psk = d->psk;
	}
	if (c->np_passphrase && !(d->np_passphrase = strdup(c->np_passphrase)))
		ws_err_set(err, ENOMEM, "no memory for the netperf passphrase");
	d->cfg.np_passphrase = d->np_passphrase;
	if ((c->psk && !d->psk) || (c->np_passphrase && !d->np_passphrase) ||
	    (!c->no_listen && open_listeners(d, err) < 0)) {
		wipe_passphrase(d);
		close(d->wake[0]);
		close(d->wake[1]);
		if (d->psk) {
			ws_psk_wipe(d->psk);
			free(d->psk);
		}
		free(d);
		return NULL;
	}
	if (d->nlfd) {
		ws_addr bound;
		ws_sock_local_addr(d->lfd[0], &bound);
		d->port = ws_addr_port(&bound);
	}
	return d;
}

uint16_t ws_daemon_port(const ws_daemon *d) { return d->port; }

void ws_daemon_stop(ws_daemon *d)
{
	ssize_t r = write(d->wake[1], "x", 1);
	(void)r;
}

static void *bg_main(void *arg)
{
	ws_daemon_run(arg);
	return NULL;
}

int ws_daemon_start_thread(ws_daemon *d, ws_err *err)
{
	int rc = pthread_create(&d->bg, NULL, bg_main, d);
	if (rc != 0) {
		errno = rc;
		return ws_err_errno(err, "start the daemon thread");
	}
	d->bg_running = true;
	return 0;
}

void ws_daemon_free(ws_daemon *d)
{
	if (!d)
		return;
	if (d->bg_running) {
		ws_daemon_stop(d);
		pthread_join(d->bg, NULL);
	}
	for (int i = 0; i < d->nlfd; i++)
		close(d->lfd[i]);
	d->nlfd = 0;
	pthread_mutex_lock(&d->mu);
	unsigned left = d->threads;
	pthread_mutex_unlock(&d->mu);
	if (left)
		return; /* a session thread still holds d: leave it to process exit */
	close(d->wake[0]);
	close(d->wake[1]);
	pthread_mutex_destroy(&d->mu);
	pthread_cond_destroy(&d->cv);
	ws_budget_destroy(&d->budget);
	ws_fdbudget_destroy(&d->fds);
	if (d->psk) {
		ws_psk_wipe(d->psk);
		free(d->psk);
	}
	wipe_passphrase(d);
	free(d);
}
