/* SPDX-License-Identifier: BSD-2-Clause */
/* result: releasing a result's heap arrays; see result.h. */
#include "model/result.h"

#include "model/lul.h"

#include <stdlib.h>

void ws_side_result_free(ws_side_result *r)
{
	free(r->flows);
	free(r->threads);
	free(r->latency);
	r->flows = NULL;
	r->threads = NULL;
	r->latency = NULL;
	r->nflows = r->nthreads = 0;
}

void ws_test_result_free(ws_test_result *r)
{
	ws_side_result_free(&r->local);
	ws_side_result_free(&r->remote);
	if (r->lul) {
		ws_series_free(&r->lul->set);
		free(r->lul);
		r->lul = NULL;
	}
}
