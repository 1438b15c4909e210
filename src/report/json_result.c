/* SPDX-License-Identifier: BSD-2-Clause */
/* json_result: the mapping from ws_test_result to the published JSON shape; see
 * json_result.h and docs/json.md. Every member listed in the schema is written on every
 * run (null when it does not apply), so a reader can tell "not measured" from "missing". */
#include "report/json_result.h"
#include "report/lul_report.h"
#include <warpspeed/version.h>

#include "measure/hist.h"
#include "measure/latency.h"
#include "model/fields.h"
#include "report/json.h"
#include "report/pathnotes.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* ---- figures read through the output-name table ------------------------------------------ */

static bool og(const ws_report_ctx *c, const char *name, ws_out_value *v)
{
	int i = ws_out_find(name);
	ws_out_value_of(i < 0 ? NULL : ws_out_at((size_t)i), c, v);
	return v->kind != WS_OUT_V_NONE;
}

/* The value as the selectors print it ("%s/s" makes "10^6bits/s"). */
static const char *og_text(const ws_report_ctx *c, const char *name, char *buf, size_t n)
{
	ws_out_value v;
	int i = ws_out_find(name);
	if (i < 0 || !og(c, name, &v))
		return NULL;
	ws_out_format_value(ws_out_at((size_t)i), &v, buf, n);
	return buf;
}

/* "LOCAL_SD" from ("LOCAL", "_SD"). */
static double side_dbl(const ws_report_ctx *c, bool local, const char *suffix)
{
	char name[64];
	snprintf(name, sizeof(name), "%s%s", local ? "LOCAL" : "REMOTE", suffix);
	return ws_out_number(c, name);
}

/* A netperf sentinel (negative: not known) becomes null. */
static void dbl_or_null(ws_json *j, const char *key, double v)
{
	if (v < 0)
		ws_json_null(j, key);
	else
		ws_json_double(j, key, v);
}

static void str_or_null(ws_json *j, const char *key, const char *s)
{
	ws_json_str(j, key, s && *s ? s : NULL);
}

/* ---- the spec ----------------------------------------------------------------------------- */

static const char *const end_names[] = {"time", "bytes", "transactions"};

static void family_member(ws_json *j, const char *key, enum ws_family f)
{
	if (f == WS_FAMILY_INET || f == WS_FAMILY_INET6)
		ws_json_int(j, key, (int64_t)f);
	else
		ws_json_null(j, key);
}

/* A requested buffer size: WS_SOCKBUF_ZERO (netperf's -s 0) is 0 here as it is on the
 * command line; the applied sizes tell it from the default. */
static uint64_t buf_req(uint32_t v) { return v == WS_SOCKBUF_ZERO ? 0 : v; }

/* One field, as its kind and json_as say (model/fields.h). */
static void json_field(ws_json *j, const ws_field *f, const void *obj)
{
	const char *p = (const char *)obj + f->off;
	int i = f->kind == WS_FK_INT || f->kind == WS_FK_ENUM ? *(const int *)p : 0;
	uint32_t u = f->kind == WS_FK_U32 ? *(const uint32_t *)p : 0;
	switch (f->json_as) {
	case WS_FJ_TEST:
		ws_json_str(j, f->json, ws_test_type_name((enum ws_test_type)i));
		return;
	case WS_FJ_END:
		ws_json_str(j, f->json, (unsigned)i < 3 ? end_names[i] : NULL);
		return;
	case WS_FJ_FAMILY:
		family_member(j, f->json, (enum ws_family)i);
		return;
	case WS_FJ_STR_OR_NULL:
		str_or_null(j, f->json, p);
		return;
	case WS_FJ_CPU:
		if (i >= 0)
			ws_json_int(j, f->json, i);
		else
			ws_json_null(j, f->json);
		return;
	case WS_FJ_BUF:
		ws_json_uint(j, f->json, buf_req(u));
		return;
	case WS_FJ_ENGINE:
		ws_json_str(j, f->json, ws_engine_name((enum ws_engine)i));
		return;
	case WS_FJ_AT_LEAST_1:
		ws_json_uint(j, f->json, u ? u : 1);
		return;
	case WS_FJ_PLAIN:
		break;
	}
	switch (f->kind) {
	case WS_FK_U16:
		ws_json_uint(j, f->json, *(const uint16_t *)p);
		break;
	case WS_FK_U32:
		ws_json_uint(j, f->json, u);
		break;
	case WS_FK_U64:
		ws_json_uint(j, f->json, *(const uint64_t *)p);
		break;
	case WS_FK_I64:
		ws_json_int(j, f->json, *(const int64_t *)p);
		break;
	case WS_FK_INT:
	case WS_FK_ENUM:
		ws_json_int(j, f->json, i);
		break;
	case WS_FK_F64:
		ws_json_double(j, f->json, *(const double *)p);
		break;
	case WS_FK_BOOL:
		ws_json_bool(j, f->json, *(const bool *)p);
		break;
	case WS_FK_CHAR: {
		char c[2] = {*p, 0};
		ws_json_str(j, f->json, c);
		break;
	}
	case WS_FK_STR:
		ws_json_str(j, f->json, p);
		break;
	}
}

/* The published fields of one group, in the list's order. */
static void group(ws_json *j, const ws_field *f, size_t n, enum ws_field_group g, const void *obj)
{
	for (size_t i = 0; i < n; i++)
		if (f[i].group == g && f[i].json)
			json_field(j, &f[i], obj);
}

/* The spec's fields in the list's order; a run of io_options, local or remote fields is
 * that object. */
static void spec(ws_json *j, const ws_test_spec *s)
{
	static const char *const objects[] = {
		[WS_FG_IO_OPTIONS] = "io_options",
		[WS_FG_LOCAL] = "local",
		[WS_FG_REMOTE] = "remote",
	};
	enum ws_field_group open = WS_FG_SPEC;
	ws_json_object_begin(j, "spec");
	for (size_t i = 0; i < ws_spec_nfields; i++) {
		const ws_field *f = &ws_spec_fields[i];
		if (!f->json)
			continue;
		if (f->group != open && open != WS_FG_SPEC)
			ws_json_object_end(j);
		if (f->group != open && f->group != WS_FG_SPEC)
			ws_json_object_begin(j, objects[f->group]);
		open = f->group;
		json_field(j, f, s);
	}
	if (open != WS_FG_SPEC)
		ws_json_object_end(j);
	ws_json_object_end(j);
}

/* ---- one side ----------------------------------------------------------------------------- */

static void cpu(ws_json *j, const ws_report_ctx *c, bool local)
{
	const ws_side_result *s = local ? &c->r->local : &c->r->remote;
	if (!((local ? c->local_cpu : c->remote_cpu) && s->cpu_measured)) {
		ws_json_null(j, "cpu");
		return;
	}
	char method[2] = {s->cpu_method ? s->cpu_method : 'S', 0}, units[32];
	ws_json_object_begin(j, "cpu");
	ws_json_double(j, "util", side_dbl(c, local, "_CPU_UTIL"));
	ws_json_double(j, "user", side_dbl(c, local, "_CPU_PERCENT_USER"));
	ws_json_double(j, "system", side_dbl(c, local, "_CPU_PERCENT_SYSTEM"));
	ws_json_double(j, "softirq", side_dbl(c, local, "_CPU_PERCENT_SWINTR"));
	ws_json_str(j, "method", method);
	ws_json_uint(j, "ncpus", s->ncpus);
	dbl_or_null(j, "service_demand", side_dbl(c, local, "_SD"));
	ws_json_str(j, "service_demand_units", og_text(c, "SD_UNITS", units, sizeof(units)));
	ws_json_object_end(j);
}

static void thread_cpu(ws_json *j, const ws_report_ctx *c, bool local)
{
	const ws_side_result *s = local ? &c->r->local : &c->r->remote;
	ws_json_object_begin(j, "thread_cpu");
	ws_json_int(j, "user_ns", s->thread_user_ns);
	ws_json_int(j, "system_ns", s->thread_sys_ns);
	ws_json_double(j, "percent_of_one_cpu", side_dbl(c, local, "_THREAD_CPU"));
	ws_json_object_end(j);
}

/* An object of counters, or null when it does not apply to the test. */
static void block(ws_json *j, const char *key, bool applies, const ws_side_result *s,
		  enum ws_field_group g)
{
	if (!applies) {
		ws_json_null(j, key);
		return;
	}
	ws_json_object_begin(j, key);
	group(j, ws_side_fields, ws_side_nfields, g, s);
	ws_json_object_end(j);
}

static void tcp_info(ws_json *j, const ws_side_result *s, bool local)
{
	if (!s->tcp_info_valid) {
		ws_json_null(j, "tcp_info");
		return;
	}
	ws_json_object_begin(j, "tcp_info");
	group(j, ws_side_fields, ws_side_nfields, WS_FG_TCP_INFO, s);
	if (local)
		group(j, ws_side_fields, ws_side_nfields, WS_FG_TCP_INFO_CLIENT, s);
	for (size_t i = 0; !local && i < ws_side_nfields; i++)
		if (ws_side_fields[i].group == WS_FG_TCP_INFO_CLIENT)
			ws_json_null(j, ws_side_fields[i].json);
	ws_json_object_end(j);
}

/* The data-socket options as getsockopt read them back on the client's first data socket
 * after setup (net/sockopt.h: the harness options -Y -y -S, test -K -C -G), null where not
 * asked for or not read. The daemon applies its half but does not report it, and TCP_CRR
 * has no data socket at setup: null for both. */
static void socket_options(ws_json *j, const ws_side_result *s, bool local, enum ws_test_type t)
{
	if (!local || !ws_test_type_has(t, WS_TO_SOCKET)) {
		ws_json_null(j, "socket_options");
		return;
	}
	ws_json_object_begin(j, "socket_options");
	if (s->tos_set >= 0)
		ws_json_int(j, "ip_tos", s->tos_set);
	else
		ws_json_null(j, "ip_tos");
	if (s->priority_set >= 0)
		ws_json_int(j, "so_priority", s->priority_set);
	else
		ws_json_null(j, "so_priority");
	str_or_null(j, "tcp_congestion", s->cong_set);
	if (s->maxseg_set)
		ws_json_uint(j, "tcp_maxseg", s->maxseg_set);
	else
		ws_json_null(j, "tcp_maxseg");
	ws_json_bool(j, "so_keepalive", s->keepalive_set);
	ws_json_bool(j, "tcp_cork", s->cork_set);
	ws_json_object_end(j);
}

static void flows(ws_json *j, bool rr_test, const ws_side_result *s)
{
	ws_json_array_begin(j, "streams");
	for (uint32_t i = 0; s->flows && i < s->nflows; i++) {
		const ws_flow_result *f = &s->flows[i];
		ws_json_object_begin(j, NULL);
		ws_json_uint(j, "index", i);
		ws_json_uint(j, "thread", f->thread);
		ws_json_uint(j, "bytes", f->bytes);
		ws_json_uint(j, "calls", f->calls);
		ws_json_int(j, "elapsed_ns", f->elapsed_ns);
		ws_json_int(j, "error", f->error);
		str_or_null(j, "why", f->why);
		if (rr_test) {
			ws_json_uint(j, "transactions", f->transactions);
			ws_json_uint(j, "lost", f->trans_lost);
			ws_json_uint(j, "latency_p50_ns", f->lat_p50_ns);
			ws_json_uint(j, "latency_p99_ns", f->lat_p99_ns);
		} else {
			ws_json_null(j, "transactions");
			ws_json_null(j, "lost");
			ws_json_null(j, "latency_p50_ns");
			ws_json_null(j, "latency_p99_ns");
		}
		ws_json_object_end(j);
	}
	ws_json_array_end(j);
}

static void threads(ws_json *j, const ws_side_result *s)
{
	ws_json_array_begin(j, "threads");
	for (uint32_t i = 0; s->threads && i < s->nthreads; i++) {
		const ws_thread_result *t = &s->threads[i];
		ws_json_object_begin(j, NULL);
		ws_json_uint(j, "index", i);
		if (t->cpu >= 0)
			ws_json_int(j, "cpu", t->cpu);
		else
			ws_json_null(j, "cpu");
		ws_json_int(j, "user_ns", t->user_ns);
		ws_json_int(j, "system_ns", t->sys_ns);
		ws_json_uint(j, "flows", t->flows);
		ws_json_object_end(j);
	}
	ws_json_array_end(j);
}

static void side(ws_json *j, const ws_report_ctx *c, bool local)
{
	const ws_side_result *s = local ? &c->r->local : &c->r->remote;
	enum ws_test_type t = c->r->spec.type;
	ws_json_object_begin(j, local ? "local" : "remote");
	str_or_null(j, "hostname", s->hostname);
	block(j, "socket", true, s, WS_FG_SOCKET);
	group(j, ws_side_fields, ws_side_nfields, WS_FG_COUNTERS, s);
	cpu(j, c, local);
	/* A stock netserver reports no thread times, I/O path or datagram sequence
	 * accounting: unavailable, not zero. */
	bool netserver = !local && c->r->spec.netperf_peer;
	if (netserver)
		ws_json_null(j, "thread_cpu");
	else
		thread_cpu(j, c, local);
	if (s->cpu_bound_to >= 0)
		ws_json_int(j, "cpu_bound_to", s->cpu_bound_to);
	else
		ws_json_null(j, "cpu_bound_to");
	block(j, "io", !netserver, s, WS_FG_IO);
	/* UDP_STREAM's sequence-numbered datagrams; UDP_RR counts its losses under "rr". */
	block(j, "udp", ws_test_type_has(t, WS_TO_DGRAMS) && !netserver, s, WS_FG_UDP);
	block(j, "rr", ws_test_type_has(t, WS_TO_REQUESTS), s, WS_FG_RR);
	tcp_info(j, s, local);
	socket_options(j, s, local, t);
	flows(j, ws_test_type_has(t, WS_TO_REQUESTS), s);
	threads(j, s);
	ws_pathnotes_json(j, c->r, local);
	ws_json_object_end(j);
}

/* ---- the test-wide figures ---------------------------------------------------------------- */

static void throughput(ws_json *j, const ws_report_ctx *c)
{
	bool rr_test = ws_test_type_has(c->r->spec.type, WS_TO_REQUESTS);
	char units[48];
	ws_json_object_begin(j, "throughput");
	ws_json_double(j, "value", ws_out_number(c, "THROUGHPUT"));
	ws_json_str(j, "units", og_text(c, "THROUGHPUT_UNITS", units, sizeof(units)));
	ws_json_double(j, "elapsed_s", ws_out_number(c, "ELAPSED_TIME"));
	if (rr_test) {
		ws_json_double(j, "transaction_rate", ws_out_number(c, "TRANSACTION_RATE"));
		dbl_or_null(j, "mean_round_trip_us", ws_out_number(c, "RT_LATENCY"));
	} else {
		ws_json_null(j, "transaction_rate");
		ws_json_null(j, "mean_round_trip_us");
	}
	dbl_or_null(j, "fairness", ws_out_number(c, "FAIRNESS"));
	ws_json_object_end(j);
}

/* Statistics in microseconds (measure/latency.h) and the histogram's non-empty buckets as
 * [low_ns, high_ns, count]; overflow (above 100 s) is counted apart. */
static void latency(ws_json *j, const ws_report_ctx *c)
{
	const ws_hist *h = c->r->local.latency;
	if (!ws_test_type_has(c->r->spec.type, WS_TO_REQUESTS) || !h) {
		ws_json_null(j, "latency");
		return;
	}
	ws_latency_stats tmp;
	const ws_latency_stats *s = c->lat;
	if (!s) {
		ws_latency_stats_of(h, &tmp);
		s = &tmp;
	}
	const struct {
		const char *key;
		double v;
	} f[] = {{"min_us", s->min_us},    {"mean_us", s->mean_us},    {"stddev_us", s->stddev_us},
		 {"p50_us", s->p50_us},    {"p90_us", s->p90_us},      {"p99_us", s->p99_us},
		 {"p99_9_us", s->p999_us}, {"p99_99_us", s->p9999_us}, {"max_us", s->max_us}};
	ws_json_object_begin(j, "latency");
	ws_json_uint(j, "count", s->count);
	ws_json_uint(j, "overflow", s->overflow);
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (s->count)
			ws_json_double(j, f[i].key, f[i].v);
		else
			ws_json_null(j, f[i].key);
	ws_json_array_begin(j, "histogram");
	for (unsigned i = 0; i < WS_HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		ws_json_array_inline_begin(j, NULL);
		ws_json_uint(j, NULL, ws_hist_bucket_low(i));
		ws_json_uint(j, NULL, ws_hist_bucket_high(i));
		ws_json_uint(j, NULL, h->bucket[i]);
		ws_json_array_end(j);
	}
	ws_json_array_end(j);
	ws_json_object_end(j);
}

static void confidence(ws_json *j, const ws_confidence *k)
{
	if (!k || !k->asked) {
		ws_json_null(j, "confidence");
		return;
	}
	ws_json_object_begin(j, "confidence");
	ws_json_int(j, "level", k->level);
	ws_json_double(j, "width", k->width);
	ws_json_int(j, "min_iterations", k->min_iterations);
	ws_json_int(j, "max_iterations", k->max_iterations);
	ws_json_int(j, "iterations", k->iterations);
	ws_json_bool(j, "met", k->met);
	dbl_or_null(j, "throughput_width", k->throughput_width);
	dbl_or_null(j, "local_cpu_width", k->local_cpu_width);
	dbl_or_null(j, "remote_cpu_width", k->remote_cpu_width);
	ws_json_object_end(j);
}

static void interim_members(ws_json *j, const ws_json_interim *iv)
{
	ws_json_uint(j, "index", iv->index);
	if (iv->stream >= 0)
		ws_json_int(j, "stream", iv->stream);
	else
		ws_json_null(j, "stream");
	ws_json_double(j, "start_s", iv->start_s);
	ws_json_double(j, "end_s", iv->end_s);
	ws_json_double(j, "throughput", iv->throughput);
	ws_json_str(j, "units", iv->units ? iv->units : "");
	ws_json_uint(j, "bytes", iv->bytes);
	ws_json_uint(j, "transactions", iv->transactions);
	ws_json_int(j, "ending_unix_ns", iv->ending_wall_ns);
	ws_json_bool(j, "final", iv->final);
}

static void hosts(ws_json *j, const ws_test_result *r)
{
	ws_json_object_begin(j, "hosts");
	str_or_null(j, "local_hostname", r->local.hostname);
	str_or_null(j, "remote_hostname", r->remote.hostname);
	ws_json_str(j, "remote_host", r->remote_host);
	ws_json_str(j, "remote_addr", r->remote_addr);
	ws_json_str(j, "local_addr", r->local_addr);
	family_member(j, "family", r->family_used);
	ws_json_bool(j, "shared_host", r->shared_host);
	ws_json_object_end(j);
}

int ws_json_result_write(FILE *out, const ws_report_ctx *c, const ws_json_interim *interim,
			 size_t ninterim, bool summary)
{
	ws_json j;
	ws_json_init(&j, out, summary ? 0 : 2);
	const ws_test_result *r = c->r;
	char proto[32], dir[32];
	ws_json_object_begin(&j, NULL);
	ws_json_str(&j, "type", summary ? "summary" : "result");
	ws_json_int(&j, "schema_version", WS_JSON_SCHEMA_VERSION);
	ws_json_str(&j, "warpspeed_version", ws_version());
	str_or_null(&j, "peer_software", r->peer_software);
	str_or_null(&j, "command_line", c->command_line);
	ws_json_str(&j, "test", ws_test_type_name(r->spec.type));
	ws_json_str(&j, "protocol", og_text(c, "PROTOCOL", proto, sizeof(proto)));
	ws_json_str(&j, "direction", og_text(c, "DIRECTION", dir, sizeof(dir)));
	hosts(&j, r);
	spec(&j, &r->spec);
	throughput(&j, c);
	side(&j, c, true);
	side(&j, c, false);
	latency(&j, c);
	confidence(&j, c->conf);
	if (r->lul) /* RRUL: every series, every sample */
		ws_lul_json(&j, r->lul);
	ws_json_array_begin(&j, "interim");
	for (size_t i = 0; interim && i < ninterim; i++) {
		ws_json_object_begin(&j, NULL);
		interim_members(&j, &interim[i]);
		ws_json_object_end(&j);
	}
	ws_json_array_end(&j);
	ws_json_object_end(&j);
	return ws_json_finish(&j);
}

int ws_json_interval_write(FILE *out, const ws_json_interim *iv)
{
	ws_json j;
	ws_json_init(&j, out, 0);
	ws_json_object_begin(&j, NULL);
	ws_json_str(&j, "type", "interval");
	ws_json_int(&j, "schema_version", WS_JSON_SCHEMA_VERSION);
	interim_members(&j, iv);
	ws_json_object_end(&j);
	return ws_json_finish(&j);
}
