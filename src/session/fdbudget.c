/* SPDX-License-Identifier: BSD-2-Clause */
/* fdbudget: descriptors of running tests against what the daemon has; see fdbudget.h. */
#include "session/fdbudget.h"

#include "model/testtype.h"
#include "util/err.h"

#include <sys/resource.h>

void ws_fdbudget_init(ws_fdbudget *b, unsigned max_pending, unsigned max_sessions)
{
	pthread_mutex_init(&b->mu, NULL);
	struct rlimit rl;
	uint64_t nofile = 1024;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
		nofile = rl.rlim_cur == RLIM_INFINITY ? UINT64_C(1) << 20 : (uint64_t)rl.rlim_cur;
	uint64_t pending = max_pending < nofile / 2 ? max_pending : nofile / 2;
	uint64_t taken = pending + max_sessions + WS_FD_RESERVE;
	b->nofile = nofile;
	b->limit = nofile > taken ? nofile - taken : 0;
	b->held = 0;
}

void ws_fdbudget_destroy(ws_fdbudget *b) { pthread_mutex_destroy(&b->mu); }

uint64_t ws_fdbudget_cost(const ws_test_spec *spec, bool netperf)
{
	uint64_t flows = netperf ? 1 : spec->streams;
	if (ws_test_type_connects(spec->type)) /* the listener, a connection per worker */
		flows = 1 + (spec->remote_threads ? spec->remote_threads : 1);
	else if (!ws_test_type_udp(spec->type))
		flows += 1; /* the listener, open while the flows connect */
	return flows + 2;   /* the control watch's pipe */
}

int ws_fdbudget_charge(ws_fdbudget *b, const ws_test_spec *spec, uint64_t n, ws_err *err)
{
	pthread_mutex_lock(&b->mu);
	uint64_t held = b->held;
	bool ok = n <= b->limit && held <= b->limit - n;
	if (ok)
		b->held += n;
	pthread_mutex_unlock(&b->mu);
	if (ok)
		return 0;
	uint32_t flows = spec->streams ? spec->streams : 1;
	return ws_err_set(
		err, WS_E_LIMIT,
		"%s with %u flow%s needs %llu file descriptors, over this daemon's budget of %llu "
		"(%llu held by other tests; ulimit -n %llu less its pending connections, sessions "
		"and reserve) (raise warpspeed serve's ulimit -n, or lower --max-pending or "
		"--max-sessions)",
		ws_test_type_name(spec->type), flows, flows == 1 ? "" : "s", (unsigned long long)n,
		(unsigned long long)b->limit, (unsigned long long)held,
		(unsigned long long)b->nofile);
}

void ws_fdbudget_release(ws_fdbudget *b, uint64_t n)
{
	pthread_mutex_lock(&b->mu);
	b->held = n < b->held ? b->held - n : 0;
	pthread_mutex_unlock(&b->mu);
}
