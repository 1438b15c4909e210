/* SPDX-License-Identifier: BSD-2-Clause */
/* node_thread: a node emulator in its own thread; see node_thread.h.
 *
 * The thread only runs ws_node_run and keeps its result: stopping is ws_node_stop (an
 * eventfd write) and a join, so a stop during start-up or after a socket failure is safe. */
#include "iq/node/node_thread.h"

#include "util/err.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct ws_node_thread {
	ws_node *node;
	pthread_t tid;
	int rc;
	ws_err err;
};

void ws_node_builtin_config(ws_node_config *c, int rf, uint32_t max_payload)
{
	ws_node_config_default(c);
	c->bind_addr = "127.0.0.1";
	c->port = 0;
	c->bcast_port = -1;
	c->rf = rf;
	c->max_payload = max_payload;
	c->reply_rate_bps = 0;
}

static void *thread_main(void *a)
{
	ws_node_thread *t = a;
	t->rc = ws_node_run(t->node, &t->err);
	return NULL;
}

int ws_node_thread_start(const ws_node_config *c, ws_node_thread **out, ws_err *err)
{
	*out = NULL;
	ws_node_thread *t = calloc(1, sizeof *t);
	if (!t)
		return ws_err_set(err, 12, "node thread: out of memory");
	int r = ws_node_create(c, &t->node, err);
	if (r < 0) {
		free(t);
		return r;
	}
	r = pthread_create(&t->tid, NULL, thread_main, t);
	if (r != 0) {
		ws_node_destroy(t->node);
		free(t);
		return ws_err_set(err, r, "node thread: cannot start a thread: %s", strerror(r));
	}
	*out = t;
	return 0;
}

ws_node *ws_node_thread_node(const ws_node_thread *t) { return t->node; }

int ws_node_thread_stop(ws_node_thread *t, ws_err *err)
{
	if (!t)
		return 0;
	ws_node_stop(t->node);
	pthread_join(t->tid, NULL);
	int rc = t->rc;
	if (rc < 0 && err)
		*err = t->err;
	ws_node_destroy(t->node);
	free(t);
	return rc;
}
