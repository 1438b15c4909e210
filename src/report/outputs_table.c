/* SPDX-License-Identifier: BSD-2-Clause */
/* outputs_table: the output names, their human headers, units and formats, in netperf
 * 2.7.0's order, with the getter of each (outputs_get.c); see outputs.h.
 *
 * Names, headers and formats are netperf's (nettest_omni.c's table as its output shows it:
 * tests/goldens/netperf/tcp_rr_o_all.txt, tcp_rr_O_all.txt, tcp_rr_k_all.txt). */
#include "report/outputs_get.h"

#include "model/fields.h"
#include "report/outputs_cpu.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---- names that print a model field as it is (model/fields.h) ----------------------------- */

/* The getter of such names: a marker, as the value is read by the name (field_value). */
static void og_field(const ws_report_ctx *c, ws_out_value *v)
{
	(void)c;
	(void)v;
}

static void field_value(const char *name, const ws_report_ctx *c, ws_out_value *v)
{
	int side;
	bool spec;
	const ws_field *f = ws_field_by_output(name, &side, &spec);
	if (!f)
		return;
	const ws_side_result *s = side ? &c->r->remote : &c->r->local;
	const char *p = (spec ? (const char *)&c->r->spec : (const char *)s) + f->off;
	v->kind = WS_OUT_V_INT;
	switch (f->kind) {
	case WS_FK_U16:
		v->i = *(const uint16_t *)p;
		break;
	case WS_FK_U32:
		v->i = *(const uint32_t *)p;
		break;
	case WS_FK_I64:
		v->i = *(const int64_t *)p;
		break;
	case WS_FK_INT:
	case WS_FK_ENUM:
		v->i = *(const int *)p;
		break;
	case WS_FK_BOOL:
		v->i = *(const bool *)p;
		break;
	case WS_FK_CHAR:
		v->i = *p;
		break;
	case WS_FK_U64:
		v->kind = WS_OUT_V_UINT;
		v->u = *(const uint64_t *)p;
		break;
	case WS_FK_F64:
		v->kind = WS_OUT_V_DOUBLE;
		v->d = *(const double *)p;
		break;
	case WS_FK_STR:
		v->kind = WS_OUT_V_STR;
		v->s = p;
		break;
	}
}

/* ---- the table --------------------------------------------------------------------------- */

#define N(name, l0, l1, l2, l3, unit, fmt, get)               \
	{                                                     \
		name, {l0, l1, l2, l3}, unit, fmt, get, false \
	}
#define W(name, l0, l1, l2, l3, unit, fmt, get)              \
	{                                                    \
		name, {l0, l1, l2, l3}, unit, fmt, get, true \
	}
#define CPU_ROWS(P, S, side)                                                                       \
	N(P "_CPU_UTIL", S, "CPU", "Util", "%", "%", "%.2f", ws_og_##side##_util),                 \
		N(P "_CPU_PERCENT_USER", S, "CPU", "User", "%", "%", "%.2f", ws_og_##side##_user), \
		N(P "_CPU_PERCENT_SYSTEM", S, "CPU", "System", "%", "%", "%.2f",                   \
		  ws_og_##side##_sys),                                                             \
		N(P "_CPU_PERCENT_IOWAIT", S, "CPU", "I/O", "%", "%", "%.2f",                      \
		  ws_og_##side##_iowait),                                                          \
		N(P "_CPU_PERCENT_IRQ", S, "CPU", "IRQ", "%", "%", "%.2f", ws_og_##side##_irq),    \
		N(P "_CPU_PERCENT_SWINTR", S, "CPU", "swintr", "%", "%", "%.2f",                   \
		  ws_og_##side##_swintr),                                                          \
		N(P "_CPU_METHOD", S, "CPU", "Util", "Method", "", "%c", ws_og_##side##_method),   \
		N(P "_SD", S, "Service", "Demand", "", "", "%.3f", ws_og_##side##_sd)
#define CPU_INFO_ROWS(P, S, side)                                                                  \
	N(P "_CPU_BIND", S, "CPU", "Bind", "", "", "%d", ws_og_##side##_bind),                     \
		N(P "_CPU_COUNT", S, "CPU", "Count", "", "", "%d", ws_og_##side##_count),          \
		N(P "_CPU_PEAK_UTIL", S, "Peak", "Per CPU", "Util %", "%", "%.2f",                 \
		  ws_og_##side##_peak_util),                                                       \
		N(P "_CPU_PEAK_ID", S, "Peak", "Per CPU", "ID", "", "%d", ws_og_##side##_peak_id), \
		N(P "_CPU_MODEL", S, "CPU", "Model", "", "", "%s", ws_og_deprecated),              \
		N(P "_CPU_FREQUENCY", S, "CPU", "Frequency", "MHz", "MHz", "%d", ws_og_zero)
#define CALL_ROWS(P, S, side)                                                                    \
	N(P "_SEND_CALLS", S, "Send", "Calls", "", "", "%llu", og_field),                        \
		N(P "_RECV_CALLS", S, "Recv", "Calls", "", "", "%llu", og_field),                \
		N(P "_BYTES_PER_RECV", S, "Bytes", "Per", "Recv", "bytes", "%.2f",               \
		  ws_og_##side##_bpr),                                                           \
		N(P "_BYTES_PER_SEND", S, "Bytes", "Per", "Send", "bytes", "%.2f",               \
		  ws_og_##side##_bps),                                                           \
		N(P "_BYTES_SENT", S, "Bytes", "Sent", "", "bytes", "%llu", og_field),           \
		N(P "_BYTES_RECVD", S, "Bytes", "Received", "", "bytes", "%llu", og_field),      \
		N(P "_BYTES_XFERD", S, "Bytes", "Xferred", "", "bytes", "%.0f",                  \
		  ws_og_##side##_xferd),                                                         \
		N(P "_SEND_OFFSET", S, "Send", "Offset", "", "bytes", "%d", ws_og_zero),         \
		N(P "_RECV_OFFSET", S, "Recv", "Offset", "", "bytes", "%d", ws_og_zero),         \
		N(P "_SEND_ALIGN", S, "Send", "Alignment", "", "bytes", "%d", ws_og_align),      \
		N(P "_RECV_ALIGN", S, "Recv", "Alignment", "", "bytes", "%d", ws_og_align),      \
		N(P "_SEND_WIDTH", S, "Send", "Width", "", "", "%d", ws_og_##side##_send_width), \
		N(P "_RECV_WIDTH", S, "Recv", "Width", "", "", "%d", ws_og_##side##_recv_width), \
		N(P "_SEND_DIRTY_COUNT", S, "Send", "Dirty", "Count", "", "%d", ws_og_minus1),   \
		N(P "_RECV_DIRTY_COUNT", S, "Recv", "Dirty", "Count", "", "%d", ws_og_minus1),   \
		N(P "_RECV_CLEAN_COUNT", S, "Recv", "Clean", "Count", "", "%d", ws_og_minus1),   \
		N(P "_NODELAY", S, "NODELAY", "", "", "", "%d", ws_og_nodelay),                  \
		N(P "_CORK", S, "Cork", "", "", "", "%d", ws_og_zero)
#define SYS_ROWS(P, S)                                                                      \
	N(P "_SYSNAME", S, "Sysname", "", "", "", "%s", ws_og_deprecated),                  \
		N(P "_SYSTEM_MODEL", S, "System", "Model", "", "", "%s", ws_og_deprecated), \
		N(P "_RELEASE", S, "Release", "", "", "", "%s", ws_og_deprecated),          \
		N(P "_VERSION", S, "Version", "", "", "", "%s", ws_og_deprecated),          \
		N(P "_MACHINE", S, "Machine", "", "", "", "%s", ws_og_deprecated)
#define IF_ROWS(P, S)                                                                             \
	N(P "_INTERFACE_NAME", S, "Interface", "Name", "", "", "%s", ws_og_deprecated),           \
		N(P "_INTERFACE_VENDOR", S, "Interface", "Vendor", "", "", "0x%.4x",              \
		  ws_og_no_ifid),                                                                 \
		N(P "_INTERFACE_DEVICE", S, "Interface", "Device", "", "", "0x%.4x",              \
		  ws_og_no_ifid),                                                                 \
		N(P "_INTERFACE_SUBVENDOR", S, "Interface", "Subvendor", "", "", "0x%.4x",        \
		  ws_og_no_ifid),                                                                 \
		N(P "_INTERFACE_SUBDEVICE", S, "Interface", "Subdevice", "", "", "0x%.4x",        \
		  ws_og_no_ifid),                                                                 \
		N(P "_DRIVER_NAME", S, "Driver", "Name", "", "", "%s", ws_og_deprecated),         \
		N(P "_DRIVER_VERSION", S, "Driver", "Version", "", "", "%s", ws_og_deprecated),   \
		N(P "_DRIVER_FIRMWARE", S, "Driver", "Firmware", "", "", "%s", ws_og_deprecated), \
		N(P "_DRIVER_BUS", S, "Driver", "Bus", "", "", "%s", ws_og_deprecated),           \
		N(P "_INTERFACE_SLOT", S, "Interface", "Slot", "", "", "%s", ws_og_deprecated)

/* clang-format off */
static const ws_out_name table[] = {
	N("OUTPUT_NONE", " ", "", "", "", "", "%s", ws_og_none),
	N("SOCKET_TYPE", "Socket", "Type", "", "", "", "%s", ws_og_socket_type),
	N("PROTOCOL", "Protocol", "", "", "", "", "%s", ws_og_protocol),
	N("DIRECTION", "Direction", "", "", "", "", "%s", ws_og_direction),
	N("ELAPSED_TIME", "Elapsed", "Time", "(sec)", "", "s", "%.2f", ws_og_elapsed),
	N("THROUGHPUT", "Throughput", "", "", "", "", "%.2f", ws_og_throughput),
	N("THROUGHPUT_UNITS", "Throughput", "Units", "", "", "", "%s/s", ws_og_throughput_units),
	N("LSS_SIZE_REQ", "Local", "Send Socket", "Size", "Requested", "bytes", "%d", ws_og_lss_req),
	N("LSS_SIZE", "Local", "Send Socket", "Size", "Initial", "bytes", "%d", og_field),
	N("LSS_SIZE_END", "Local", "Send Socket", "Size", "Final", "bytes", "%d", og_field),
	N("LSR_SIZE_REQ", "Local", "Recv Socket", "Size", "Requested", "bytes", "%d", ws_og_lsr_req),
	N("LSR_SIZE", "Local", "Recv Socket", "Size", "Initial", "bytes", "%d", og_field),
	N("LSR_SIZE_END", "Local", "Recv Socket", "Size", "Final", "bytes", "%d", og_field),
	N("RSS_SIZE_REQ", "Remote", "Send Socket", "Size", "Requested", "bytes", "%d", ws_og_rss_req),
	N("RSS_SIZE", "Remote", "Send Socket", "Size", "Initial", "bytes", "%d", og_field),
	N("RSS_SIZE_END", "Remote", "Send Socket", "Size", "Final", "bytes", "%d", og_field),
	N("RSR_SIZE_REQ", "Remote", "Recv Socket", "Size", "Requested", "bytes", "%d", ws_og_rsr_req),
	N("RSR_SIZE", "Remote", "Recv Socket", "Size", "Initial", "bytes", "%d", og_field),
	N("RSR_SIZE_END", "Remote", "Recv Socket", "Size", "Final", "bytes", "%d", og_field),
	N("LOCAL_SEND_SIZE", "Local", "Send", "Size", "", "bytes", "%d", ws_og_local_send_size),
	N("LOCAL_RECV_SIZE", "Local", "Recv", "Size", "", "bytes", "%d", ws_og_local_recv_size),
	N("REMOTE_SEND_SIZE", "Remote", "Send", "Size", "", "bytes", "%d", ws_og_remote_send_size),
	N("REMOTE_RECV_SIZE", "Remote", "Recv", "Size", "", "bytes", "%d", ws_og_remote_recv_size),
	N("REQUEST_SIZE", "Request", "Size", "Bytes", "", "bytes", "%d", ws_og_request_size),
	N("RESPONSE_SIZE", "Response", "Size", "Bytes", "", "bytes", "%d", ws_og_response_size),
	CPU_ROWS("LOCAL", "Local", loc),
	CPU_ROWS("REMOTE", "Remote", rem),
	N("SD_UNITS", "Service", "Demand", "Units", "", "", "%s", ws_og_sd_units),
	N("CONFIDENCE_LEVEL", "Confidence", "Level", "Percent", "", "%", "%d", ws_og_conf_level),
	N("CONFIDENCE_INTERVAL", "Confidence", "Width", "Target", "", "%", "%f", ws_og_conf_interval),
	N("CONFIDENCE_ITERATION", "Confidence", "Iterations", "Run", "", "", "%d", ws_og_conf_iter),
	N("THROUGHPUT_CONFID", "Throughput", "Confidence", "Width (%)", "", "%", "%.3f", ws_og_tput_confid),
	N("LOCAL_CPU_CONFID", "Local", "CPU", "Confidence", "Width (%)", "%", "%.3f", ws_og_loc_confid),
	N("REMOTE_CPU_CONFID", "Remote", "CPU", "Confidence", "Width (%)", "%", "%.3f", ws_og_rem_confid),
	N("TRANSACTION_RATE", "Transaction", "Rate", "Tran/s", "", "1/s", "%.3f", ws_og_trans_rate),
	N("RT_LATENCY", "Round", "Trip", "Latency", "usec/tran", "us", "%.3f", ws_og_rt_latency),
	N("BURST_SIZE", "Initial", "Burst", "Requests", "", "", "%d", og_field),
	N("LOCAL_TRANSPORT_RETRANS", "Local", "Transport", "Retransmissions", "", "", "%d", ws_og_loc_retrans),
	N("REMOTE_TRANSPORT_RETRANS", "Remote", "Transport", "Retransmissions", "", "", "%d", ws_og_rem_retrans),
	N("TRANSPORT_MSS", "Transport", "MSS", "bytes", "", "bytes", "%d", ws_og_mss),
	N("LOCAL_SEND_THROUGHPUT", "Local", "Send", "Throughput", "", "", "%.2f", ws_og_loc_send_tput),
	N("LOCAL_RECV_THROUGHPUT", "Local", "Recv", "Throughput", "", "", "%.2f", ws_og_loc_recv_tput),
	N("REMOTE_SEND_THROUGHPUT", "Remote", "Send", "Throughput", "", "", "%.2f", ws_og_rem_send_tput),
	N("REMOTE_RECV_THROUGHPUT", "Remote", "Recv", "Throughput", "", "", "%.2f", ws_og_rem_recv_tput),
	CPU_INFO_ROWS("LOCAL", "Local", loc),
	CPU_INFO_ROWS("REMOTE", "Remote", rem),
	N("SOURCE_PORT", "Source", "Port", "", "", "", "%s", ws_og_src_port),
	N("SOURCE_ADDR", "Source", "Address", "", "", "", "%s", ws_og_src_addr),
	N("SOURCE_FAMILY", "Source", "Family", "", "", "", "%d", ws_og_src_family),
	N("DEST_PORT", "Destination", "Port", "", "", "", "%s", ws_og_dst_port),
	N("DEST_ADDR", "Destination", "Address", "", "", "", "%s", ws_og_dst_addr),
	N("DEST_FAMILY", "Destination", "Family", "", "", "", "%d", ws_og_dst_family),
	CALL_ROWS("LOCAL", "Local", loc),
	CALL_ROWS("REMOTE", "Remote", rem),
	SYS_ROWS("LOCAL", "Local"),
	SYS_ROWS("REMOTE", "Remote"),
	IF_ROWS("LOCAL", "Local"),
	IF_ROWS("REMOTE", "Remote"),
	N("LOCAL_INTERVAL_USECS", "Local", "Interval", "Usecs", "", "us", "%d", ws_og_zero),
	N("LOCAL_INTERVAL_BURST", "Local", "Interval", "Burst", "", "", "%d", ws_og_zero),
	N("REMOTE_INTERVAL_USECS", "Remote", "Interval", "Usecs", "", "us", "%d", ws_og_zero),
	N("REMOTE_INTERVAL_BURST", "Remote", "Interval", "Burst", "", "", "%d", ws_og_zero),
	N("LOCAL_SECURITY_TYPE_ID", "Local", "OS", "Security", "Type ID", "", "%d", ws_og_zero),
	N("LOCAL_SECURITY_TYPE", "Local", "OS", "Security", "Type", "", "%s", ws_og_deprecated),
	N("LOCAL_SECURITY_ENABLED_NUM", "Local", "OS", "Security", "Enabled Num", "", "%d", ws_og_zero),
	N("LOCAL_SECURITY_ENABLED", "Local", "OS", "Security", "Enabled", "", "%s", ws_og_deprecated),
	N("LOCAL_SECURITY_SPECIFIC", "Local", "OS", "Security", "Specific", "", "%s", ws_og_deprecated),
	/* netperf's headers for the remote ID and number lack their last word. */
	N("REMOTE_SECURITY_TYPE_ID", "Remote", "OS", "Security", "Type", "", "%d", ws_og_zero),
	N("REMOTE_SECURITY_TYPE", "Remote", "OS", "Security", "Type", "", "%s", ws_og_deprecated),
	N("REMOTE_SECURITY_ENABLED_NUM", "Remote", "OS", "Security", "Enabled", "", "%d", ws_og_zero),
	N("REMOTE_SECURITY_ENABLED", "Remote", "OS", "Security", "Enabled", "", "%s", ws_og_deprecated),
	N("REMOTE_SECURITY_SPECIFIC", "Remote", "OS", "Security", "Specific", "", "%s", ws_og_deprecated),
	N("RESULT_BRAND", "Result", "Tag", "", "", "", "\"%s\"", ws_og_brand),
	N("UUID", "Test", "UUID", "", "", "", "%s", ws_og_uuid),
	N("MIN_LATENCY", "Minimum", "Latency", "Microseconds", "", "us", "%d", ws_og_min_lat),
	N("MAX_LATENCY", "Maximum", "Latency", "Microseconds", "", "us", "%d", ws_og_max_lat),
	N("P50_LATENCY", "50th", "Percentile", "Latency", "Microseconds", "us", "%d", ws_og_p50_lat),
	N("P90_LATENCY", "90th", "Percentile", "Latency", "Microseconds", "us", "%d", ws_og_p90_lat),
	N("P99_LATENCY", "99th", "Percentile", "Latency", "Microseconds", "us", "%d", ws_og_p99_lat),
	N("MEAN_LATENCY", "Mean", "Latency", "Microseconds", "", "us", "%.2f", ws_og_mean_lat),
	N("STDDEV_LATENCY", "Stddev", "Latency", "Microseconds", "", "us", "%.2f", ws_og_stddev_lat),
	N("LOCAL_SOCKET_PRIO", "Local", "Socket", "Priority", "", "", "%d", ws_og_loc_prio),
	N("REMOTE_SOCKET_PRIO", "Remote", "Socket", "Priority", "", "", "%d", ws_og_rem_prio),
	N("LOCAL_SOCKET_TOS", "Local", "Socket", "TOS", "", "", "0x%.2x", ws_og_loc_tos),
	N("REMOTE_SOCKET_TOS", "Remote", "Socket", "TOS", "", "", "0x%.2x", ws_og_rem_tos),
	N("LOCAL_CONG_CONTROL", "Local", "Congestion", "Control", "Algorithm", "", "%s", ws_og_loc_cong),
	N("REMOTE_CONG_CONTROL", "Remote", "Congestion", "Control", "Algorithm", "", "%s", ws_og_rem_cong),
	N("LOCAL_FILL_FILE", "Local", "Fill", "File", "", "", "%s", og_field),
	N("REMOTE_FILL_FILE", "Remote", "Fill", "File", "", "", "%s", ws_og_rem_fill),
	N("COMMAND_LINE", "Command", "Line", "", "", "", "\"%s\"", ws_og_command_line),
	N("OUTPUT_END", "This", "Is", "The", "End", "", "%s", NULL),
	/* warpspeed's additions. */
	W("P99_9_LATENCY", "99.9th", "Percentile", "Latency", "Microseconds", "us", "%d", ws_og_p999_lat),
	W("P99_99_LATENCY", "99.99th", "Percentile", "Latency", "Microseconds", "us", "%d", ws_og_p9999_lat),
	W("STREAMS", "Streams", "", "", "", "", "%d", ws_og_streams),
	W("FAIRNESS", "Jain", "Fairness", "Index", "", "", "%.4f", ws_og_fairness),
	W("IO_PATH", "I/O", "Path", "Local/", "Remote", "", "%s", ws_og_io),
	W("LOCAL_IO_PATH", "Local", "I/O", "Path", "", "", "%s", og_field),
	W("REMOTE_IO_PATH", "Remote", "I/O", "Path", "", "", "%s", og_field),
	W("LOCAL_THREAD_CPU", "Local", "Thread", "CPU", "% of 1", "%", "%.2f", ws_og_loc_thr),
	W("LOCAL_THREAD_CPU_USER", "Local", "Thread", "CPU User", "% of 1", "%", "%.2f", ws_og_loc_thr_user),
	W("LOCAL_THREAD_CPU_SYSTEM", "Local", "Thread", "CPU System", "% of 1", "%", "%.2f", ws_og_loc_thr_sys),
	W("REMOTE_THREAD_CPU", "Remote", "Thread", "CPU", "% of 1", "%", "%.2f", ws_og_rem_thr),
	W("REMOTE_THREAD_CPU_USER", "Remote", "Thread", "CPU User", "% of 1", "%", "%.2f", ws_og_rem_thr_user),
	W("REMOTE_THREAD_CPU_SYSTEM", "Remote", "Thread", "CPU System", "% of 1", "%", "%.2f", ws_og_rem_thr_sys),
	/* The system calls behind *_SEND_CALLS / *_RECV_CALLS, which count messages as netperf
	 * does: fewer when sendmmsg, UDP_SEGMENT, recvmmsg or UDP_GRO batch them. */
	W("LOCAL_SEND_SYSCALLS", "Local", "Send", "System", "Calls", "", "%llu", og_field),
	W("LOCAL_RECV_SYSCALLS", "Local", "Recv", "System", "Calls", "", "%llu", og_field),
	W("REMOTE_SEND_SYSCALLS", "Remote", "Send", "System", "Calls", "", "%llu", og_field),
	W("REMOTE_RECV_SYSCALLS", "Remote", "Recv", "System", "Calls", "", "%llu", og_field),
};
/* clang-format on */

size_t ws_out_count(void) { return sizeof(table) / sizeof(table[0]); }

const ws_out_name *ws_out_at(size_t i) { return i < ws_out_count() ? &table[i] : NULL; }

int ws_out_find(const char *name)
{
	for (size_t i = 0; name && i < ws_out_count(); i++)
		if (!strcasecmp(name, table[i].name))
			return (int)i;
	return -1;
}

/* netperf's match_string_to_output: the name, or the header lines joined by one blank. */
int ws_out_find_name_or_header(const char *text)
{
	int i = ws_out_find(text);
	if (i >= 0 || !text)
		return i;
	for (size_t k = 0; k < ws_out_count(); k++) {
		char joined[128];
		size_t len = 0;
		for (int l = 0; l < 4 && table[k].line[l][0]; l++)
			len += (size_t)snprintf(joined + len, sizeof(joined) - len, "%s%s",
						l ? " " : "", table[k].line[l]);
		if (len < sizeof(joined) && !strcasecmp(text, joined))
			return (int)k;
	}
	return -1;
}

void ws_out_value_of(const ws_out_name *e, const ws_report_ctx *c, ws_out_value *v)
{
	memset(v, 0, sizeof(*v));
	v->kind = WS_OUT_V_NONE;
	if (e && e->get == og_field && c && c->r)
		field_value(e->name, c, v);
	else if (e && e->get && c && c->r)
		e->get(c, v);
}

/* The formats are the table's own constants, each paired with its value kind above. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
int ws_out_format_value(const ws_out_name *e, const ws_out_value *v, char *buf, size_t n)
{
	int len = 0;
	if (!n)
		return 0;
	buf[0] = 0;
	switch (v->kind) {
	case WS_OUT_V_INT:
		len = snprintf(buf, n, e->format, (int)v->i);
		break;
	case WS_OUT_V_UINT:
		len = snprintf(buf, n, e->format, (unsigned long long)v->u);
		break;
	case WS_OUT_V_DOUBLE:
		len = snprintf(buf, n, e->format, v->d);
		break;
	case WS_OUT_V_STR:
		len = snprintf(buf, n, e->format, v->s ? v->s : "");
		break;
	case WS_OUT_V_CHAR:
		len = snprintf(buf, n, e->format, v->c);
		break;
	case WS_OUT_V_NONE:
		break;
	}
	if (len < 0)
		len = 0;
	return (size_t)len < n ? len : (int)n - 1;
}
#pragma GCC diagnostic pop
