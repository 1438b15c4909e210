/* SPDX-License-Identifier: BSD-2-Clause */
/* engine: the I/O engines a side may run a test on (--engine), their names, and which
 * tests each can run.
 *
 * `epoll` is the engine every test has always had (one system call per message: blocking
 * for one flow, an epoll loop for several); `io_uring` batches the operations of all a
 * thread's flows into its ring (workload/rr_uring.c, workload/stream_uring.c); `auto`
 * takes io_uring where it is available and measured to pay, else epoll. The table of which
 * tests io_uring runs is here, once: the CLI's refusal, the daemon's and the engines'
 * choice all read it. */
#ifndef WS_MODEL_ENGINE_H
#define WS_MODEL_ENGINE_H

#include "model/testtype.h"

#include <stdbool.h>
#include <stddef.h>

/* On the wire as an int; 0 (auto) is what a client that never heard of engines sends. */
enum ws_engine { WS_ENGINE_AUTO = 0, WS_ENGINE_EPOLL = 1, WS_ENGINE_IO_URING = 2 };

struct ws_err;
struct ws_test_spec;

/* "auto", "epoll", "io_uring"; NULL for a value out of range. */
const char *ws_engine_name(enum ws_engine e);

/* --engine's value; the error names the value and the accepted ones. */
int ws_engine_parse(const char *s, enum ws_engine *e, struct ws_err *err);

/* Can the io_uring engine run this test as specified? When not, why says so and names
 * what it runs ("io_uring runs TCP_STREAM, TCP_MAERTS and TCP_RR (closed loop); not
 * UDP_RR"). */
bool ws_engine_uring_runs(const struct ws_test_spec *s, char *why, size_t whysz);

/* Does auto pick io_uring for this test (where it is available)? Only where the engine was
 * measured to pay (docs/engines.md). */
bool ws_engine_uring_pays(const struct ws_test_spec *s);

#endif
