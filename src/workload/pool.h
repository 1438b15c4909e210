/* SPDX-License-Identifier: BSD-2-Clause */
/* pool: the worker threads of the multi-flow engines, started, pinned and released
 * together.
 *
 * Every multi-flow engine (streams in multi.c, request/response in rr_multi.c) runs the
 * same way: one thread per share of the flows, each pinned to its CPU, each setting up its
 * own sockets and epoll set, all released by one barrier, and each thread's CPU time
 * (RUSAGE_THREAD) taken over exactly its measured loop. A second barrier lets the main
 * thread see every start-up error before any data moves, so a half-started run never
 * sends; a thread that cannot be created shrinks the barrier instead of leaving the
 * started ones parked forever. */
#ifndef WS_WORKLOAD_POOL_H
#define WS_WORKLOAD_POOL_H

#include "util/err.h"

#include <pthread.h>
#include <stdint.h>

/* A barrier whose party count can shrink (pthread_barrier_t cannot). */
typedef struct ws_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned parties, arrived, generation;
} ws_gate;

void ws_gate_init(ws_gate *g, unsigned parties);
void ws_gate_shrink(ws_gate *g, unsigned parties);
void ws_gate_wait(ws_gate *g);
void ws_gate_destroy(ws_gate *g);

/* The calling thread's user and system CPU time so far, in ns. */
void ws_thread_cpu_ns(int64_t *user_ns, int64_t *sys_ns);

struct ws_pool;

typedef struct ws_pool_thread {
	uint32_t id;
	int cpu;                 /* pinned CPU, or -1 */
	int64_t t0;              /* this thread's start (monotonic), set just before run */
	int64_t user_ns, sys_ns; /* CPU time over run */
	ws_err err;              /* a start-up error of this thread (pinning, setup) */
	pthread_t thread;
	struct ws_pool *pool;
} ws_pool_thread;

typedef struct ws_pool_ops {
	/* In the thread, after pinning and before the start barrier: allocate, register the
	 * flows; a failure goes into t->err. Not called when pinning failed. */
	void (*setup)(void *ctx, ws_pool_thread *t);
	/* The measured loop; skipped in every thread when any thread failed to start. */
	void (*run)(void *ctx, ws_pool_thread *t);
	/* Always called last in the thread, also after a failed or skipped setup. */
	void (*teardown)(void *ctx, ws_pool_thread *t);
} ws_pool_ops;

/* Run n threads (thread t pinned to cpus[t % ncpus] when ncpus > 0) over th[0..n-1] and
 * join them. *t0 is the common start, taken between the barriers. Returns 0, or the first
 * start-up error (then no thread ran; *started says how many were created and joined). */
int ws_pool_run(uint32_t n, const int *cpus, uint32_t ncpus, const ws_pool_ops *ops, void *ctx,
		ws_pool_thread *th, uint32_t *started, int64_t *t0, ws_err *err);

#endif
