/* SPDX-License-Identifier: BSD-2-Clause */
/* budget: the daemon-wide memory budget; see budget.h. */
#include "session/budget.h"

#include "util/err.h"
#include "util/units.h"

#include <stdbool.h>

void ws_budget_init(ws_budget *b, uint64_t limit)
{
	pthread_mutex_init(&b->mu, NULL);
	b->limit = limit;
	b->held = 0;
}

void ws_budget_destroy(ws_budget *b) { pthread_mutex_destroy(&b->mu); }

int ws_budget_charge(ws_budget *b, uint64_t bytes, const char *what, ws_err *err)
{
	pthread_mutex_lock(&b->mu);
	uint64_t held = b->held;
	/* held <= limit always, so limit - held cannot wrap */
	bool fits = bytes <= b->limit - held;
	if (fits)
		b->held += bytes;
	pthread_mutex_unlock(&b->mu);
	if (fits)
		return 0;
	char limit[32], others[32];
	ws_units_format_iec(b->limit, limit, sizeof(limit));
	ws_units_format_iec(held, others, sizeof(others));
	return ws_err_set(err, WS_E_LIMIT,
			  "%s, over this daemon's memory budget of %s (%s held by other tests) "
			  "(warpspeed serve --max-memory)",
			  what, limit, others);
}

void ws_budget_release(ws_budget *b, uint64_t bytes)
{
	pthread_mutex_lock(&b->mu);
	b->held = bytes > b->held ? 0 : b->held - bytes;
	pthread_mutex_unlock(&b->mu);
}

uint64_t ws_budget_held(ws_budget *b)
{
	pthread_mutex_lock(&b->mu);
	uint64_t h = b->held;
	pthread_mutex_unlock(&b->mu);
	return h;
}
