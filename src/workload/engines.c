/* SPDX-License-Identifier: BSD-2-Clause */
/* engines: one side's choice of I/O engine; see engines.h. */
#include "workload/engines.h"

#include "model/testtype.h"
#include "net/uring.h"
#include "util/err.h"

#include <stdio.h>

int ws_engine_resolve(const ws_test_spec *s, enum ws_engine *out, char *note, size_t notesz,
		      ws_err *err)
{
	char why[320];
	*out = WS_ENGINE_EPOLL;
	if (note && notesz)
		note[0] = '\0';
	if (s->engine == WS_ENGINE_EPOLL)
		return 0;
	bool runs = ws_engine_uring_runs(s, why, sizeof(why));
	if (s->engine == WS_ENGINE_IO_URING && !runs)
		return ws_err_set(err, WS_E_INVAL, "--engine io_uring: %s", why);
	if (s->engine == WS_ENGINE_AUTO && (!runs || !ws_engine_uring_pays(s)))
		return 0;
	int rc = ws_uring_probe(why, sizeof(why));
	if (rc < 0) {
		if (s->engine == WS_ENGINE_IO_URING)
			return ws_err_set(err, -rc,
					  "--engine io_uring cannot run here: %s; use --engine "
					  "epoll or auto",
					  why);
		if (note && notesz)
			snprintf(note, notesz, "engine auto: epoll, as %s", why);
		return 0;
	}
	*out = WS_ENGINE_IO_URING;
	return 0;
}

int ws_engine_resolve_side(const ws_test_spec *s, bool is_client, enum ws_engine *out, ws_err *err)
{
	(void)is_client; /* both sides of every test the engine runs have an io_uring path */
	return ws_engine_resolve(s, out, NULL, 0, err);
}
