/* SPDX-License-Identifier: BSD-2-Clause */
/* conntest: test option -c, a connection per message or transaction; see conntest.h. */
#include "cli/conntest.h"

#include "model/testtype.h"
#include "net/sock.h"
#include "util/err.h"

#include <sys/socket.h>
#include <unistd.h>

/* The Linux default of a TCP socket's send buffer, if no socket can be asked. */
#define FALLBACK_SNDBUF 16384u

int ws_cli_topt_conntest(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)o;
	(void)val;
	(void)err;
	return 0;
}

static bool asked(const ws_cli_options *o) { return ws_cli_given(o, true, 'c'); }

/* The tests that become a TCP_CRR; TCP_CRR and TCP_CC are connection tests already. */
static bool converts(enum ws_test_type t)
{
	return t == WS_TEST_TCP_RR || t == WS_TEST_TCP_STREAM || t == WS_TEST_TCP_MAERTS;
}

int ws_cli_conn_finalize(const ws_cli_options *o, ws_err *err)
{
	enum ws_test_type t = o->spec.type;
	if (!asked(o) || converts(t) || ws_test_type_connects(t))
		return 0;
	const char *name = ws_test_type_name(t);
	return ws_err_set(err, WS_E_INVAL,
			  "test option -c does not apply to %s; it applies to TCP_STREAM, "
			  "TCP_MAERTS and TCP_RR (a connection per message or transaction) and "
			  "-t omni (TCP_CRR and TCP_CC take it as they are connection tests)",
			  name ? name : "this test");
}

/* netperf's default message of a stream test is the sending socket's SO_SNDBUF once set:
 * what a fresh TCP socket of this host gets for the size asked (0: the default). */
static uint32_t default_message(uint32_t sndbuf)
{
	uint32_t got = 0;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		ws_sock_set_buffers(fd, sndbuf, 0, NULL);
		ws_sock_get_buffers(fd, &got, NULL);
		close(fd);
	}
	return got ? got : FALLBACK_SNDBUF;
}

bool ws_cli_conn_spec(const ws_cli_options *o, ws_test_spec *run)
{
	*run = o->spec;
	enum ws_test_type t = o->spec.type;
	if (!asked(o) || !converts(t))
		return false;
	run->type = WS_TEST_TCP_CRR;
	run->burst = 0; /* netperf sends no first burst on a connection test */
	if (t == WS_TEST_TCP_RR)
		return true;
	bool maerts = t == WS_TEST_TCP_MAERTS;
	uint32_t m = o->spec.send_size
		? o->spec.send_size
		: default_message(maerts ? o->spec.remote.sndbuf : o->spec.local.sndbuf);
	run->req_size = maerts ? 0 : m;
	run->rsp_size = maerts ? m : 0;
	run->call_latency = false;
	if (run->end == WS_END_BYTES) { /* -l -bytes: netperf counts messages until done */
		run->end = WS_END_TRANSACTIONS;
		run->end_count = (o->spec.end_count + m - 1) / m;
	}
	return true;
}

void ws_cli_conn_view(const ws_cli_options *o, ws_test_result *r)
{
	if (!asked(o) || !converts(o->spec.type) || r->spec.type != WS_TEST_TCP_CRR)
		return;
	ws_test_spec *s = &r->spec;
	s->type = o->spec.type;
	s->end = o->spec.end;
	s->end_count = o->spec.end_count;
	s->burst = o->spec.burst;
	s->req_size = o->spec.req_size;
	s->rsp_size = o->spec.rsp_size;
	s->send_size = o->spec.send_size;
	s->call_latency = o->spec.call_latency;
}
