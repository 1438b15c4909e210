/* SPDX-License-Identifier: BSD-2-Clause */
/* stream_uring: the TCP stream tests (TCP_STREAM, TCP_MAERTS) on the io_uring engine, for
 * one flow or many, over the same parameters as the epoll engine (multi.h), so run.c picks
 * one or the other by the side's engine and nothing else changes. */
#ifndef WS_WORKLOAD_STREAM_URING_H
#define WS_WORKLOAD_STREAM_URING_H

#include "model/result.h"
#include "workload/multi.h"

#include <stdbool.h>

struct ws_err;

/* Run the flows (p->io.tx and p->io.rx are ignored: the engine has its own path). Fills
 * res's totals, elapsed_ns, io_path ("io_uring"), engine and the worker threads' CPU times;
 * with arrays (several flows), also res->flows and res->threads as ws_multi_run does. */
int ws_stream_uring_run(const ws_multi_params *p, bool arrays, ws_side_result *res,
			struct ws_err *err);

#endif
