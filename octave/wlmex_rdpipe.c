/* SPDX-License-Identifier: BSD-2-Clause */
/* wlmex_rdpipe: a Read IQ that starts before its output array exists; see wlmex_rdpipe.h.
 *
 * Two threads share one state under one mutex. The read thread runs libwarpspeed's Read IQ
 * engine buffer after buffer; the first buffer starts with the stage as destination (wire
 * words) and the engine calls tick() before each wait for datagrams: once the MEX's thread
 * has given the destinations, tick() notes which packets are in the stage, points the rest
 * of the read at the caller's memory and says so. The MEX's thread then converts the noted
 * packets from the stage while the read goes on into other packets of the same buffer
 * (disjoint memory; a late duplicate of a staged packet is counted, never placed twice).
 * Later buffers wait for the destinations before they start. The staged packets are
 * converted in chunks that either thread claims: the read thread, once its read is over,
 * waits for the destinations and takes its share. On loopback a 2^20-sample complex
 * double read is over before Octave has made the array, and the whole stage (16 MiB of
 * doubles to write) was then converted by the MEX's thread alone while the other CPU idled. */
#include "wlmex_rdpipe.h"

#include "iq/host/iqread.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define UNSTAGE_CHUNK 16 /* packets per claim: 30 claims for 2^20 samples of jumbo packets */

struct wlmex_rdpipe {
	ws_iq_node *n;
	uint32_t *bufs;
	size_t nb;
	uint32_t start, N, spp, npkt;
	uint8_t *stage;   /* buffer 0's wire words until the destinations exist */
	uint64_t *staged; /* buffer 0's packets placed in the stage (npkt bits) */
	int staged_all;   /* the whole of buffer 0 went to the stage */
	int staging;      /* read thread only: buffer 0 is still going to the stage */
	int flowing_seen; /* read thread only: flowing was signalled */
	ws_iqmem *dst;    /* nb destinations, once given */
	wlmex_rdbuf *info;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	atomic_int given; /* the destinations are in dst */
	atomic_int cancel;
	atomic_uint next_chunk; /* the next chunk of buffer 0's packets to unstage */
	int stage_known;        /* under mu: staged / staged_all are final */
	int flowing;            /* under mu: packets have arrived, or the read ended */
	int finished;           /* under mu: the read thread is done */
	int rc;
	ws_err err;
};

static void signal_state(wlmex_rdpipe *p, int *flag)
{
	pthread_mutex_lock(&p->mu);
	*flag = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

/* Before each wait of buffer 0's read while it goes to the stage: switch once given. */
static int tick(ws_iqread_op *o, void *ctx)
{
	wlmex_rdpipe *p = ctx;
	if (atomic_load_explicit(&p->cancel, memory_order_relaxed))
		return 1;
	if (!p->flowing_seen && ws_iqread_got(o) > 0) {
		p->flowing_seen = 1;
		signal_state(p, &p->flowing);
	}
	if (!p->staging || !atomic_load_explicit(&p->given, memory_order_acquire))
		return 0;
	for (uint32_t k = 0; k < p->npkt; k++)
		if (ws_iqread_placed(o, 0, k))
			p->staged[k / 64] |= 1ull << (k % 64);
	void *d[1] = {&p->dst[0]};
	ws_iqread_retarget(o, WS_IQ_FMT_MEM, d);
	p->staging = 0;
	signal_state(p, &p->stage_known);
	return 0;
}

/* Waits (under nothing) until the destinations are given or the read is cancelled. */
static int wait_given(wlmex_rdpipe *p)
{
	pthread_mutex_lock(&p->mu);
	while (!atomic_load(&p->given) && !atomic_load(&p->cancel))
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
	return atomic_load(&p->cancel) ? -1 : 0;
}

/* Converts packets [k0, k1) of buffer 0 from the stage into its destination. */
static void unstage(const wlmex_rdpipe *p, uint32_t k0, uint32_t k1)
{
	uint64_t first = (uint64_t)k0 * p->spp, end = (uint64_t)k1 * p->spp;
	if (end > p->N)
		end = p->N;
	ws_iqmem_from_wire(&p->dst[0], first, p->stage + first * 4, (uint32_t)(end - first));
}

static int is_staged(const wlmex_rdpipe *p, uint32_t k)
{
	return p->staged_all || (p->staged[k / 64] >> (k % 64) & 1);
}

/* Claims chunks of buffer 0's packets until none is left and converts the staged runs in
 * each; both threads run it once the destinations are given and the stage is final. */
static void unstage_chunks(wlmex_rdpipe *p)
{
	for (;;) {
		uint32_t c = atomic_fetch_add(&p->next_chunk, 1);
		if ((uint64_t)c * UNSTAGE_CHUNK >= p->npkt)
			return;
		uint32_t k = c * UNSTAGE_CHUNK, end = k + UNSTAGE_CHUNK;
		if (end > p->npkt)
			end = p->npkt;
		while (k < end) {
			if (!is_staged(p, k)) {
				k++;
				continue;
			}
			uint32_t e = k + 1;
			while (e < end && is_staged(p, e))
				e++;
			unstage(p, k, e);
			k = e;
		}
	}
}

static void *read_thread(void *arg)
{
	wlmex_rdpipe *p = arg;
	ws_iq_node *n = p->n;
	int rc = 0;
	for (size_t b = 0; b < p->nb && rc == 0; b++) {
		p->staging = b == 0 && !atomic_load_explicit(&p->given, memory_order_acquire);
		if (b > 0 && wait_given(p) < 0) {
			rc = ws_err_set(&p->err, ECANCELED, "Read IQ: stopped by the caller");
			break;
		}
		void *d[1];
		ws_iq_format fmt = WS_IQ_FMT_MEM;
		if (p->staging) {
			d[0] = p->stage;
			fmt = WS_IQ_FMT_BE32;
		} else {
			d[0] = &p->dst[b];
		}
		ws_iq_get_stats(n, &p->info[b].before);
		n->last_iq_id = -1;
		rc = ws_iqread_run_tick(n, p->bufs[b], p->start, p->N, fmt, d, b == 0 ? tick : NULL,
					p, &p->err);
		p->info[b].iq_id = n->last_iq_id;
		ws_iq_get_stats(n, &p->info[b].after);
		if (b == 0 && p->staging) { /* all of it staged, or stopped while staging */
			p->staged_all = rc == 0;
			p->staging = 0;
			signal_state(p, &p->stage_known);
		}
		if (!p->flowing_seen) { /* a short first buffer may end before a tick saw it */
			p->flowing_seen = 1;
			signal_state(p, &p->flowing);
		}
	}
	/* Its share of the stage, once the destinations exist (after the last buffer a wait
	 * for them holds nothing up). */
	int helps = rc == 0 && wait_given(p) == 0;
	pthread_mutex_lock(&p->mu);
	p->rc = rc;
	p->finished = 1;
	p->stage_known = 1;
	p->flowing = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	if (helps)
		unstage_chunks(p);
	return NULL;
}

static void pipe_free(wlmex_rdpipe *p)
{
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	free(p->stage);
	free(p->staged);
	free(p->bufs);
	free(p->dst);
	free(p->info);
	free(p);
}

int wlmex_rdpipe_start(wlmex_rdpipe **out, ws_iq_node *n, const uint32_t *bufs, size_t nb,
		       uint32_t start, uint32_t N, ws_err *err)
{
	*out = NULL;
	wlmex_rdpipe *p = calloc(1, sizeof *p);
	if (!p)
		return ws_err_set(err, ENOMEM, "Read IQ: out of memory");
	p->n = n;
	p->nb = nb;
	p->start = start;
	p->N = N;
	p->spp = n->info.samples_per_packet;
	p->npkt = (uint32_t)(((uint64_t)N + p->spp - 1) / p->spp);
	p->bufs = malloc(nb * sizeof *p->bufs);
	p->stage = malloc((size_t)N * 4);
	p->staged = calloc(((size_t)p->npkt + 63) / 64, 8);
	p->dst = calloc(nb, sizeof *p->dst);
	p->info = calloc(nb, sizeof *p->info);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC); /* wait_flowing's bound */
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (!p->bufs || !p->stage || !p->staged || !p->dst || !p->info) {
		pipe_free(p);
		return ws_err_set(err, ENOMEM, "Read IQ: out of memory for a stage of %u samples",
				  N);
	}
	memcpy(p->bufs, bufs, nb * sizeof *bufs);
	int e = pthread_create(&p->thread, NULL, read_thread, p);
	if (e != 0) {
		pipe_free(p);
		return ws_err_set(err, e, "Read IQ: no thread for the read: %s", strerror(e));
	}
	*out = p;
	return 0;
}

void wlmex_rdpipe_wait_flowing(wlmex_rdpipe *p, int wait_ms)
{
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_nsec += (long)wait_ms * 1000000L;
	until.tv_sec += until.tv_nsec / 1000000000L;
	until.tv_nsec %= 1000000000L;
	pthread_mutex_lock(&p->mu);
	while (!p->flowing && pthread_cond_timedwait(&p->cv, &p->mu, &until) == 0)
		;
	pthread_mutex_unlock(&p->mu);
}

int wlmex_rdpipe_finish(wlmex_rdpipe *p, const ws_iqmem *dst, wlmex_rdbuf *info, ws_err *err)
{
	memcpy(p->dst, dst, p->nb * sizeof *dst);
	pthread_mutex_lock(&p->mu);
	atomic_store_explicit(&p->given, 1, memory_order_release);
	pthread_cond_broadcast(&p->cv);
	while (!p->stage_known)
		pthread_cond_wait(&p->cv, &p->mu);
	int failed = p->finished && p->rc != 0;
	pthread_mutex_unlock(&p->mu);
	uint32_t staged = 0;
	for (uint32_t k = 0; k < p->npkt; k++)
		staged += (uint32_t)is_staged(p, k);
	if (!failed) /* converted while the read goes on, and shared once it is over */
		unstage_chunks(p);
	pthread_join(p->thread, NULL);
	int rc = p->rc;
	if (rc != 0)
		*err = p->err;
	for (size_t b = 0; b < p->nb; b++)
		p->info[b].packets = p->npkt;
	p->info[0].staged = staged;
	memcpy(info, p->info, p->nb * sizeof *info);
	pipe_free(p);
	return rc;
}

void wlmex_rdpipe_cancel(wlmex_rdpipe *p)
{
	pthread_mutex_lock(&p->mu);
	atomic_store(&p->cancel, 1);
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->thread, NULL);
	pipe_free(p);
}
