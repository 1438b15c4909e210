/* crr: TCP_CRR, a connection per transaction; see rr.h. */
#include "workload/rr.h"

#include "util/err.h"

int ws_crr_run(const ws_rr_params *p, ws_side_result *res, ws_err *err)
{
	(void)p;
	(void)res;
	return ws_err_set(err, WS_E_INVAL, "the TCP_CRR engine is not built yet");
}
