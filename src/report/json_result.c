/* json_result: the mapping from ws_test_result to the published JSON shape; see
 * json_result.h and docs/json.md. Every member listed in the schema is written on every
 * run (null when it does not apply), so a reader can tell "not measured" from "missing". */
#include "report/json_result.h"
#include <warpspeed/version.h>

#include "measure/hist.h"
#include "measure/latency.h"
#include "report/json.h"

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

static double og_dbl(const ws_report_ctx *c, const char *name)
{
	ws_out_value v;
	if (!og(c, name, &v))
		return NAN;
	switch (v.kind) {
	case WS_OUT_V_INT:
		return (double)v.i;
	case WS_OUT_V_UINT:
		return (double)v.u;
	case WS_OUT_V_DOUBLE:
		return v.d;
	default:
		return NAN;
	}
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
	return og_dbl(c, name);
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

static void side_spec(ws_json *j, const char *key, const ws_side_spec *s)
{
	ws_json_object_begin(j, key);
	ws_json_uint(j, "sndbuf", buf_req(s->sndbuf));
	ws_json_uint(j, "rcvbuf", buf_req(s->rcvbuf));
	if (s->cpu >= 0)
		ws_json_int(j, "cpu", s->cpu);
	else
		ws_json_null(j, "cpu");
	ws_json_bool(j, "measure_cpu", s->measure_cpu);
	ws_json_uint(j, "data_port", s->data_port);
	ws_json_object_end(j);
}

static void spec(ws_json *j, const ws_test_spec *s)
{
	ws_json_object_begin(j, "spec");
	ws_json_str(j, "test", ws_test_type_name(s->type));
	ws_json_str(j, "end", (unsigned)s->end < 3 ? end_names[s->end] : NULL);
	ws_json_double(j, "duration_s", s->duration_s);
	ws_json_uint(j, "end_count", s->end_count);
	ws_json_uint(j, "send_size", s->send_size);
	ws_json_uint(j, "recv_size", s->recv_size);
	ws_json_uint(j, "req_size", s->req_size);
	ws_json_uint(j, "rsp_size", s->rsp_size);
	ws_json_uint(j, "burst", s->burst);
	ws_json_int(j, "rr_timeout_ns", s->rr_timeout_ns);
	ws_json_double(j, "rate", s->rate);
	ws_json_bool(j, "nodelay", s->nodelay);
	family_member(j, "family", s->family);
	ws_json_object_begin(j, "io_options");
	ws_json_bool(j, "zerocopy", s->zerocopy);
	ws_json_bool(j, "skip_rx_copy", s->skip_rx_copy);
	ws_json_bool(j, "splice", s->splice);
	ws_json_uint(j, "rcvlowat", s->rcvlowat);
	ws_json_bool(j, "gso", s->gso);
	ws_json_bool(j, "gro", s->gro);
	ws_json_bool(j, "no_mmsg", s->no_batch);
	ws_json_bool(j, "route", s->udp_route);
	ws_json_object_end(j);
	ws_json_uint(j, "streams", s->streams ? s->streams : 1);
	ws_json_uint(j, "local_threads", s->local_threads);
	ws_json_uint(j, "remote_threads", s->remote_threads);
	ws_json_str(j, "local_cpus", s->local_cpus);
	ws_json_str(j, "remote_cpus", s->remote_cpus);
	side_spec(j, "local", &s->local);
	side_spec(j, "remote", &s->remote);
	str_or_null(j, "fill_file", s->fill_file);
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

static void io(ws_json *j, const ws_side_result *s)
{
	ws_json_object_begin(j, "io");
	str_or_null(j, "path", s->io_path);
	str_or_null(j, "note", s->io_note);
	ws_json_uint(j, "zerocopy_sends", s->zc_sends);
	ws_json_uint(j, "zerocopy_copied", s->zc_copied);
	ws_json_uint(j, "rcvlowat", s->rcvlowat);
	ws_json_object_end(j);
}

/* Counter blocks of a side as tables: member name, field, width. */
/* F_BUF: a requested buffer size, where netperf's "set 0" (WS_SOCKBUF_ZERO) shows as 0. */
enum fkind { F_U32, F_U64, F_I64, F_BUF };
struct field {
	const char *key;
	size_t off;
	enum fkind kind;
};
#define FLD(key, member, kind)                              \
	{                                                   \
		key, offsetof(ws_side_result, member), kind \
	}

/* clang-format off */
static const struct field udp_fields[] = {
	FLD("datagrams_sent", dgrams_sent, F_U64), FLD("datagrams_received", dgrams_recv, F_U64),
	FLD("lost", dgrams_lost, F_U64),           FLD("reordered", dgrams_reordered, F_U64),
	FLD("duplicated", dgrams_dup, F_U64),      FLD("send_errors", send_errors, F_U64),
	FLD("bad", bad_dgrams, F_U64),             FLD("sequence_jumps", dgrams_jumps, F_U64),
};
/* clang-format on */
/* clang-format off */
static const struct field rr_fields[] = {
	FLD("transactions", transactions, F_U64), FLD("lost", trans_lost, F_U64),
	FLD("late", late_replies, F_U64),         FLD("scheduled", trans_scheduled, F_U64),
	FLD("max_lag_ns", max_lag_ns, F_I64),     FLD("connects", connects, F_U64),
	FLD("connect_errors", connect_errors, F_U64),
};
/* clang-format on */
/* clang-format off */
static const struct field tcp_info_fields[] = {
	FLD("mss", tcp_mss, F_U32),           FLD("rtt_us", tcp_rtt_us, F_U32),
	FLD("rttvar_us", tcp_rttvar_us, F_U32), FLD("snd_cwnd", tcp_snd_cwnd, F_U32),
	FLD("retrans", tcp_retrans, F_U64),
};
/* clang-format on */
/* The rest of TCP_INFO (what netperf's DUMP_TCP_INFO prints): the client reads it, the
 * daemon does not send it, so the remote side has null there. */
/* clang-format off */
static const struct field tcp_info_client_fields[] = {
	FLD("rto_us", tcp_rto_us, F_U32),           FLD("ato_us", tcp_ato_us, F_U32),
	FLD("pmtu", tcp_pmtu, F_U32),               FLD("rcv_ssthresh", tcp_rcv_ssthresh, F_U32),
	FLD("snd_ssthresh", tcp_snd_ssthresh, F_U32), FLD("reordering", tcp_reordering, F_U32),
};
/* clang-format on */
/* clang-format off */
static const struct field socket_fields[] = {
	FLD("sndbuf_requested", sndbuf_req, F_BUF), FLD("rcvbuf_requested", rcvbuf_req, F_BUF),
	FLD("sndbuf_initial", sndbuf_set, F_U32),   FLD("rcvbuf_initial", rcvbuf_set, F_U32),
	FLD("sndbuf_final", sndbuf_end, F_U32),     FLD("rcvbuf_final", rcvbuf_end, F_U32),
};
/* clang-format on */
/* clang-format off */
static const struct field counter_fields[] = {
	FLD("send_size", send_size, F_U32),     FLD("recv_size", recv_size, F_U32),
	FLD("bytes_sent", bytes_sent, F_U64),   FLD("bytes_received", bytes_recv, F_U64),
	FLD("send_calls", send_calls, F_U64),   FLD("recv_calls", recv_calls, F_U64),
	FLD("send_syscalls", send_syscalls, F_U64), FLD("recv_syscalls", recv_syscalls, F_U64),
	FLD("elapsed_ns", elapsed_ns, F_I64),
};
/* clang-format on */
#undef FLD
#define NF(t) (sizeof(t) / sizeof((t)[0]))

static void fields(ws_json *j, const ws_side_result *s, const struct field *f, size_t n)
{
	const char *base = (const char *)s;
	for (size_t i = 0; i < n; i++) {
		const void *p = base + f[i].off;
		if (f[i].kind == F_U32)
			ws_json_uint(j, f[i].key, *(const uint32_t *)p);
		else if (f[i].kind == F_BUF)
			ws_json_uint(j, f[i].key, buf_req(*(const uint32_t *)p));
		else if (f[i].kind == F_U64)
			ws_json_uint(j, f[i].key, *(const uint64_t *)p);
		else
			ws_json_int(j, f[i].key, *(const int64_t *)p);
	}
}

/* An object of counters, or null when it does not apply to the test. */
static void block(ws_json *j, const char *key, bool applies, const ws_side_result *s,
		  const struct field *f, size_t n)
{
	if (!applies) {
		ws_json_null(j, key);
		return;
	}
	ws_json_object_begin(j, key);
	fields(j, s, f, n);
	ws_json_object_end(j);
}

static void tcp_info(ws_json *j, const ws_side_result *s, bool local)
{
	if (!s->tcp_info_valid) {
		ws_json_null(j, "tcp_info");
		return;
	}
	ws_json_object_begin(j, "tcp_info");
	fields(j, s, tcp_info_fields, NF(tcp_info_fields));
	if (local)
		fields(j, s, tcp_info_client_fields, NF(tcp_info_client_fields));
	for (size_t i = 0; !local && i < NF(tcp_info_client_fields); i++)
		ws_json_null(j, tcp_info_client_fields[i].key);
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
	block(j, "socket", true, s, socket_fields, NF(socket_fields));
	fields(j, s, counter_fields, NF(counter_fields));
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
	if (netserver)
		ws_json_null(j, "io");
	else
		io(j, s);
	/* UDP_STREAM's sequence-numbered datagrams; UDP_RR counts its losses under "rr". */
	block(j, "udp", ws_test_type_has(t, WS_TO_DGRAMS) && !netserver, s, udp_fields,
	      NF(udp_fields));
	block(j, "rr", ws_test_type_has(t, WS_TO_REQUESTS), s, rr_fields, NF(rr_fields));
	tcp_info(j, s, local);
	socket_options(j, s, local, t);
	flows(j, ws_test_type_has(t, WS_TO_REQUESTS), s);
	threads(j, s);
	ws_json_object_end(j);
}

/* ---- the test-wide figures ---------------------------------------------------------------- */

static void throughput(ws_json *j, const ws_report_ctx *c)
{
	bool rr_test = ws_test_type_has(c->r->spec.type, WS_TO_REQUESTS);
	char units[48];
	ws_json_object_begin(j, "throughput");
	ws_json_double(j, "value", og_dbl(c, "THROUGHPUT"));
	ws_json_str(j, "units", og_text(c, "THROUGHPUT_UNITS", units, sizeof(units)));
	ws_json_double(j, "elapsed_s", og_dbl(c, "ELAPSED_TIME"));
	if (rr_test) {
		ws_json_double(j, "transaction_rate", og_dbl(c, "TRANSACTION_RATE"));
		dbl_or_null(j, "mean_round_trip_us", og_dbl(c, "RT_LATENCY"));
	} else {
		ws_json_null(j, "transaction_rate");
		ws_json_null(j, "mean_round_trip_us");
	}
	dbl_or_null(j, "fairness", og_dbl(c, "FAIRNESS"));
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
