/* SPDX-License-Identifier: BSD-2-Clause */
/* engines: which I/O engine one side runs a test on, from --engine and what this host's
 * kernel allows.
 *
 * The client asks (the spec's engine, carried to the daemon); each side resolves it for
 * itself with ws_engine_resolve, before any data moves: `epoll` is always possible;
 * `io_uring` runs where the engine supports the test (model/engine.h) and the run-time
 * probe (net/uring.h) passes, and is refused with the reason otherwise; `auto` takes
 * io_uring where it pays and is available, else epoll with a note saying why. */
#ifndef WS_WORKLOAD_ENGINES_H
#define WS_WORKLOAD_ENGINES_H

#include "model/spec.h"

#include <stdbool.h>
#include <stddef.h>

struct ws_err;

/* *out becomes WS_ENGINE_EPOLL or WS_ENGINE_IO_URING. note (may be NULL) gets why auto
 * fell back to epoll, or "". Errors: -WS_E_INVAL when the io_uring engine does not run
 * this test, -ENOSYS/-EPERM/... when io_uring is unavailable here; the message names the
 * reason and what to use instead. */
int ws_engine_resolve(const ws_test_spec *s, enum ws_engine *out, char *note, size_t notesz,
		      struct ws_err *err);

/* The same for one side (the client, or the daemon for the client's request): every test
 * the io_uring engine runs has it on both sides, the connection tests' responder included
 * (crr_serve_uring.c), so the side does not change the answer. */
int ws_engine_resolve_side(const ws_test_spec *s, bool is_client, enum ws_engine *out,
			   struct ws_err *err);

#endif
