/* SPDX-License-Identifier: BSD-2-Clause */
/* spec: names, defaults and validation of ws_test_spec; see spec.h. */
#include "model/spec.h"

#include "util/clock.h"
#include "util/err.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ws_test_spec_init(ws_test_spec *s)
{
	memset(s, 0, sizeof(*s));
	s->type = WS_TEST_TCP_STREAM;
	s->end = WS_END_TIME;
	s->duration_s = WS_DEFAULT_DURATION_S;
	s->family = WS_FAMILY_ANY;
	s->local.cpu = -1;
	s->remote.cpu = -1;
	s->streams = 1;
	s->local_threads = 1;
	s->remote_threads = 1;
	s->req_size = 1;
	s->rsp_size = 1;
}

int64_t ws_test_spec_duration_ns(const ws_test_spec *s)
{
	return (int64_t)(s->duration_s * WS_NS_PER_SEC);
}

int64_t ws_test_spec_deadline(const ws_test_spec *s, int64_t start_ns)
{
	return s->end == WS_END_TIME ? start_ns + ws_test_spec_duration_ns(s) : 0;
}

uint32_t ws_local_port_last(uint32_t first, uint32_t max) { return max >= first ? max : 65535u; }

int ws_cpu_list_parse(const char *s, int *cpus, int max, ws_err *err)
{
	int n = 0;
	const char *p = s;
	while (*p) {
		char *end;
		errno = 0;
		long v = strtol(p, &end, 10);
		if (end == p || !isdigit((unsigned char)*p) || errno || v > 65535 ||
		    (*end && *end != ','))
			return ws_err_set(err, WS_E_INVAL,
					  "'%s' is not a CPU list; expected CPU numbers like 0,1,3",
					  s);
		if (n == max)
			return ws_err_set(err, WS_E_INVAL, "CPU list '%s' has more than %d entries",
					  s, max);
		cpus[n++] = (int)v;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return ws_err_set(err, WS_E_INVAL,
					  "'%s' ends with a comma; expected CPU numbers like 0,1,3",
					  s);
	}
	return n;
}

/* Larger than any kernel grants (net.core.*mem_max is an int): keeps later arithmetic in range. */
#define WS_MAX_SOCKBUF (1U << 30)
#define WS_MAX_MSG     (1U << 30)

/* The request/response fields, checked for every test (a stream test carries the
 * defaults), so that no engine sees a size of 0 or a rate that is not a number. */
static int validate_rr(const ws_test_spec *s, ws_err *err)
{
	uint32_t max = s->type == WS_TEST_UDP_RR ? WS_RR_MAX_UDP : WS_MAX_MSG;
	/* a TCP_CRR that moves data one way (netperf's -c on a stream test: a connection per
	 * message) has an empty request or response, never both */
	uint32_t one_way = s->type == WS_TEST_TCP_CRR && (s->req_size || s->rsp_size) ? 0 : 1;
	if (s->req_size < one_way || s->req_size > max || s->rsp_size < one_way ||
	    s->rsp_size > max)
		return ws_err_set(
			err, WS_E_INVAL,
			"request,response sizes %u,%u are invalid; expected 1 to %u bytes each%s",
			s->req_size, s->rsp_size, max,
			s->type == WS_TEST_UDP_RR            ? " for UDP"
				: s->type == WS_TEST_TCP_CRR ? " (TCP_CRR: or 0 for one of them)"
							     : "");
	if (s->burst > WS_RR_MAX_BURST)
		return ws_err_set(err, WS_E_INVAL,
				  "a first burst of %u is invalid; expected 0 to %u", s->burst,
				  WS_RR_MAX_BURST);
	if (s->rr_timeout_ns < 0 || s->rr_timeout_ns > WS_RR_MAX_TIMEOUT_NS)
		return ws_err_set(err, WS_E_INVAL,
				  "a receive timeout of %lld ns is invalid; expected 0 to %lld",
				  (long long)s->rr_timeout_ns, (long long)WS_RR_MAX_TIMEOUT_NS);
	if (!isfinite(s->rate) || s->rate < 0 || s->rate > WS_RR_MAX_RATE)
		return ws_err_set(err, WS_E_INVAL,
				  "a rate of %g transactions/s is invalid; expected 0 (closed "
				  "loop) or a positive rate of at most %g",
				  s->rate, WS_RR_MAX_RATE);
	return 0;
}

/* A congestion control name: terminated, and only the characters kernel names use. */
static bool cong_name_ok(const char *c, size_t size)
{
	if (!memchr(c, 0, size))
		return false;
	for (; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
			return false;
	return true;
}

/* The options harnesses pass (-Y -y -K -G -H -L, --pace): every value a kernel could be
 * handed is bounded here, so a daemon never applies what the CLI would have refused. */
static int validate_harness(const ws_test_spec *s, ws_err *err)
{
	const ws_side_spec *sides[2] = {&s->local, &s->remote};
	for (int i = 0; i < 2; i++) {
		const ws_side_spec *d = sides[i];
		const char *who = i ? "remote" : "local";
		if (d->tos < 0 || d->tos > 255)
			return ws_err_set(err, WS_E_INVAL,
					  "%s IP_TOS %d is invalid; expected 0 to 255", who,
					  d->tos);
		if (d->priority < 0)
			return ws_err_set(err, WS_E_INVAL,
					  "%s SO_PRIORITY %d is invalid; expected 0 to %d", who,
					  d->priority, WS_MAX_PRIORITY);
		if (!cong_name_ok(d->cong, sizeof(d->cong)))
			return ws_err_set(err, WS_E_INVAL,
					  "%s congestion control name is invalid; expected "
					  "letters, digits, '_' or '-', at most %zu",
					  who, sizeof(d->cong) - 1);
	}
	if (s->maxseg && (s->maxseg < WS_MIN_MAXSEG || s->maxseg > WS_MAX_MAXSEG))
		return ws_err_set(err, WS_E_INVAL,
				  "TCP_MAXSEG %u is invalid; expected %d to %d bytes", s->maxseg,
				  WS_MIN_MAXSEG, WS_MAX_MAXSEG);
	if (!isfinite(s->udp_pace_bps) || s->udp_pace_bps < 0 || s->udp_pace_bps > WS_MAX_PACE_BPS)
		return ws_err_set(err, WS_E_INVAL,
				  "a pace of %g bits/s is invalid; expected 0 (none) to %g",
				  s->udp_pace_bps, WS_MAX_PACE_BPS);
	if (!memchr(s->data_host, 0, sizeof(s->data_host)) ||
	    !memchr(s->data_local, 0, sizeof(s->data_local)))
		return ws_err_set(err, WS_E_INVAL, "data address is not terminated");
	return 0;
}

int ws_test_spec_validate(const ws_test_spec *s, ws_err *err)
{
	if (!ws_test_type_name(s->type))
		return ws_err_set(err, WS_E_INVAL, "unknown test type %d", (int)s->type);
	if (s->run_type && !ws_test_type_name(s->run_type)) /* 0: the session is its own run */
		return ws_err_set(err, WS_E_INVAL,
				  "unknown run type %d (the run this session is a part of); "
				  "expected 0 or a test type",
				  (int)s->run_type);
	switch (s->end) {
	case WS_END_TIME:
		if (!(s->duration_s > 0) || !isfinite(s->duration_s) || s->duration_s > 1e7)
			return ws_err_set(err, WS_E_INVAL,
					  "test length %g s is invalid; expected more than 0 s",
					  s->duration_s);
		break;
	case WS_END_BYTES:
	case WS_END_TRANSACTIONS:
		if (s->end_count == 0)
			return ws_err_set(err, WS_E_INVAL,
					  "an end count of 0 is invalid; expected at least 1");
		break;
	default:
		return ws_err_set(err, WS_E_INVAL, "unknown end kind %d", (int)s->end);
	}
	if (!ws_engine_name(s->engine))
		return ws_err_set(err, WS_E_INVAL, "unknown engine %d", (int)s->engine);
	if (s->family != WS_FAMILY_ANY && s->family != WS_FAMILY_INET &&
	    s->family != WS_FAMILY_INET6)
		return ws_err_set(err, WS_E_INVAL, "unknown address family %d", (int)s->family);
	const ws_side_spec *sides[2] = {&s->local, &s->remote};
	for (int i = 0; i < 2; i++) {
		const ws_side_spec *d = sides[i];
		const char *who = i ? "remote" : "local";
		if ((d->sndbuf > WS_MAX_SOCKBUF && d->sndbuf != WS_SOCKBUF_ZERO) ||
		    (d->rcvbuf > WS_MAX_SOCKBUF && d->rcvbuf != WS_SOCKBUF_ZERO))
			return ws_err_set(err, WS_E_INVAL,
					  "%s socket buffer %u is too large; expected at most %u",
					  who, d->sndbuf > d->rcvbuf ? d->sndbuf : d->rcvbuf,
					  WS_MAX_SOCKBUF);
		if (d->cpu < -1 || d->cpu > 65535)
			return ws_err_set(err, WS_E_INVAL,
					  "%s CPU %d is invalid; expected 0 to 65535", who, d->cpu);
	}
	if (s->rcvlowat > WS_MAX_SOCKBUF)
		return ws_err_set(err, WS_E_INVAL,
				  "receive wake threshold %u is too large; expected at most %u",
				  s->rcvlowat, WS_MAX_SOCKBUF);
	if (s->busy_poll_us > WS_BUSY_POLL_MAX_US)
		return ws_err_set(err, WS_E_INVAL,
				  "busy-poll time %u us is too long; expected 0 to %u microseconds",
				  s->busy_poll_us, WS_BUSY_POLL_MAX_US);
	if (s->busy_poll && !ws_test_type_rr(s->type))
		return ws_err_set(err, WS_E_INVAL,
				  "busy polling applies to TCP_RR and UDP_RR, not to %s",
				  ws_test_type_name(s->type));
	if (s->mptcp && ws_test_type_udp(s->type))
		return ws_err_set(err, WS_E_INVAL, "MPTCP applies to the TCP tests, not to %s",
				  ws_test_type_name(s->type));
	if (s->streams < 1 || s->streams > WS_MAX_STREAMS)
		return ws_err_set(err, WS_E_INVAL, "%u streams is invalid; expected 1 to %u",
				  s->streams, WS_MAX_STREAMS);
	if (s->local_threads < 1 || s->local_threads > s->streams || s->remote_threads < 1 ||
	    s->remote_threads > s->streams)
		return ws_err_set(err, WS_E_INVAL,
				  "%u,%u threads for %u streams is invalid; expected 1 to %u "
				  "threads per side (no more threads than streams)",
				  s->local_threads, s->remote_threads, s->streams, s->streams);
	if (memchr(s->local_cpus, 0, sizeof(s->local_cpus)) == NULL ||
	    memchr(s->remote_cpus, 0, sizeof(s->remote_cpus)) == NULL)
		return ws_err_set(err, WS_E_INVAL, "CPU list is not terminated");
	int cpus[WS_MAX_CPU_LIST];
	int rc = ws_cpu_list_parse(s->local_cpus, cpus, WS_MAX_CPU_LIST, err);
	if (rc >= 0)
		rc = ws_cpu_list_parse(s->remote_cpus, cpus, WS_MAX_CPU_LIST, err);
	if (rc < 0)
		return rc;
	if (s->send_size > WS_MAX_MSG || s->recv_size > WS_MAX_MSG)
		return ws_err_set(
			err, WS_E_INVAL, "message size %u is too large; expected at most %u",
			s->send_size > s->recv_size ? s->send_size : s->recv_size, WS_MAX_MSG);
	int hrc = validate_harness(s, err);
	return hrc < 0 ? hrc : validate_rr(s, err);
}
