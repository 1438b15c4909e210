/* SPDX-License-Identifier: BSD-2-Clause */
/* pool: the shared worker-thread scaffolding of the multi-flow engines; see pool.h. */
#include "workload/pool.h"

#include "util/affinity.h"
#include "util/clock.h"

#include <errno.h>
#include <sys/resource.h>

struct ws_pool {
	const ws_pool_ops *ops;
	void *ctx;
	ws_gate gate;
};

void ws_gate_init(ws_gate *g, unsigned parties)
{
	*g = (ws_gate){.parties = parties};
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
}

void ws_gate_shrink(ws_gate *g, unsigned parties)
{
	pthread_mutex_lock(&g->mu);
	g->parties = parties;
	pthread_mutex_unlock(&g->mu);
}

void ws_gate_wait(ws_gate *g)
{
	pthread_mutex_lock(&g->mu);
	unsigned gen = g->generation;
	if (++g->arrived >= g->parties) {
		g->arrived = 0;
		g->generation++;
		pthread_cond_broadcast(&g->cv);
	} else {
		while (gen == g->generation)
			pthread_cond_wait(&g->cv, &g->mu);
	}
	pthread_mutex_unlock(&g->mu);
}

void ws_gate_destroy(ws_gate *g)
{
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->cv);
}

void ws_thread_cpu_ns(int64_t *user_ns, int64_t *sys_ns)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	*user_ns =
		(int64_t)ru.ru_utime.tv_sec * WS_NS_PER_SEC + (int64_t)ru.ru_utime.tv_usec * 1000;
	*sys_ns = (int64_t)ru.ru_stime.tv_sec * WS_NS_PER_SEC + (int64_t)ru.ru_stime.tv_usec * 1000;
}

static void *pool_main(void *arg)
{
	ws_pool_thread *t = arg;
	struct ws_pool *pool = t->pool;
	if (t->cpu >= 0)
		ws_affinity_pin_self(t->cpu, &t->err);
	if (t->err.code == 0)
		pool->ops->setup(pool->ctx, t);
	ws_gate_wait(&pool->gate);
	ws_gate_wait(&pool->gate); /* the main thread has looked at every start-up error */
	int64_t u0, s0, u1, s1;
	ws_thread_cpu_ns(&u0, &s0);
	t->t0 = ws_clock_ns();
	if (t->err.code == 0)
		pool->ops->run(pool->ctx, t);
	ws_thread_cpu_ns(&u1, &s1);
	t->user_ns = u1 - u0;
	t->sys_ns = s1 - s0;
	pool->ops->teardown(pool->ctx, t);
	return NULL;
}

int ws_pool_run(uint32_t n, const int *cpus, uint32_t ncpus, const ws_pool_ops *ops, void *ctx,
		ws_pool_thread *th, uint32_t *started, int64_t *t0, ws_err *err)
{
	struct ws_pool pool = {.ops = ops, .ctx = ctx};
	ws_gate_init(&pool.gate, n + 1);
	ws_err_clear(err);
	int rc = 0;
	uint32_t s = 0;
	for (; s < n; s++) {
		th[s] = (ws_pool_thread){
			.id = s, .pool = &pool, .cpu = ncpus > 0 ? cpus[s % ncpus] : -1};
		if (pthread_create(&th[s].thread, NULL, pool_main, &th[s]) != 0) {
			ws_gate_shrink(&pool.gate, s + 1);
			rc = ws_err_set(err, EAGAIN, "could not start worker thread %u of %u", s,
					n);
			break;
		}
	}
	ws_gate_wait(&pool.gate);
	for (uint32_t t = 0; t < s && rc == 0; t++)
		if (th[t].err.code) {
			if (err)
				*err = th[t].err;
			rc = th[t].err.code;
		}
	if (rc < 0) /* every worker skips its loop */
		for (uint32_t t = 0; t < s; t++)
			if (!th[t].err.code)
				th[t].err.code = rc;
	*t0 = ws_clock_ns();
	ws_gate_wait(&pool.gate);
	for (uint32_t t = 0; t < s; t++)
		pthread_join(th[t].thread, NULL);
	ws_gate_destroy(&pool.gate);
	*started = s;
	return rc;
}
