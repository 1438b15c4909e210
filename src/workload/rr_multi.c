/* rr_multi: the epoll request/response engine for many flows and open loop; see rr.h. */
#include "workload/rr.h"

#include "util/err.h"

int ws_rr_multi_run(const ws_rr_params *p, ws_side_result *res, ws_err *err)
{
	(void)p;
	(void)res;
	return ws_err_set(err, WS_E_INVAL, "the multi-flow request/response engine is not built yet");
}
