/* run: one side of one test, from the START barrier to its result.
 *
 * The registry of this module maps each test type to the role each side plays
 * (TCP_STREAM: client sends, daemon receives; TCP_MAERTS: the reverse), so the client
 * session and the daemon call the same function and only say which side they are.
 * CPU snapshots bracket the role here, once, for every workload. */
#ifndef WS_WORKLOAD_RUN_H
#define WS_WORKLOAD_RUN_H

#include "ctl/spec.h"

#include <stdbool.h>

struct ws_err;

enum ws_role { WS_ROLE_SENDER, WS_ROLE_RECEIVER };

/* True when this build can run the test type at all. */
bool ws_workload_supported(enum ws_test_type t);

/* Which role the client (is_client) or the daemon plays in a test type. */
enum ws_role ws_workload_role(enum ws_test_type t, bool is_client);

/* Run this side's role on the connected data socket. The caller has filled the socket
 * size fields of *res at setup; this fills the rest (bytes, calls, elapsed, CPU, sizes
 * at the end, host identity). The socket is left open for the caller to close. */
int ws_workload_run(const ws_test_spec *spec, bool is_client, int data_fd, ws_side_result *res,
		    struct ws_err *err);

#endif
