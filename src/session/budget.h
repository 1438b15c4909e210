/* SPDX-License-Identifier: BSD-2-Clause */
/* budget: the daemon-wide memory budget that every test's buffers are charged against.
 *
 * One request must not be able to take all of a shared daemon's memory, and neither may
 * many requests together: each test's buffer cost (ws_workload_cost_of) is charged before
 * anything is allocated and released when the test ends, on every path. A charge that
 * would pass the budget is refused with a message naming the request, its cost, the
 * budget, what other tests hold and the option that changes it. Thread-safe. */
#ifndef WS_SESSION_BUDGET_H
#define WS_SESSION_BUDGET_H

#include <pthread.h>
#include <stdint.h>

struct ws_err;

typedef struct ws_budget {
	pthread_mutex_t mu;
	uint64_t limit; /* bytes */
	uint64_t held;  /* charged by running tests */
} ws_budget;

void ws_budget_init(ws_budget *b, uint64_t limit);
void ws_budget_destroy(ws_budget *b);

/* Charge bytes; what describes the request ("TCP_STREAM with 4 flows ... needs 4 GiB of
 * buffers (...)"). Returns 0, or -WS_E_LIMIT with err saying "<what>, over this daemon's
 * memory budget of 512 MiB (0 B held by other tests) (warpspeed serve --max-memory)". */
int ws_budget_charge(ws_budget *b, uint64_t bytes, const char *what, struct ws_err *err);

/* Give back what a successful ws_budget_charge took. */
void ws_budget_release(ws_budget *b, uint64_t bytes);

/* Bytes held now (for tests and logs). */
uint64_t ws_budget_held(ws_budget *b);

#endif
