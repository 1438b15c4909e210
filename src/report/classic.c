/* classic: netperf's TCP STREAM family layouts; see classic.h.
 *
 * Every header string below is copied from reference/netperf-outputs.md with its trailing
 * blanks; the row formats are those netperf prints. Only the sender/receiver mapping
 * differs between STREAM/SENDFILE and MAERTS, and it is decided once, in stream_roles(). */
#include "report/classic.h"

#include "measure/cpu.h"
#include "util/err.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define KB 1024.0

/* Who sent and who received; every column is defined from these two. */
struct stream_roles {
	const char *banner; /* "TCP STREAM TEST" */
	const ws_side_result *sender, *receiver;
};

/* One side's CPU columns: -1 for a side not requested or not measured, as netperf. */
struct side_cpu {
	double util, sd;
	char method;
};

void ws_classic_opts_init(ws_classic_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->print_headers = true;
	o->verbosity = 1;
	o->fmt = 'm';
}

/* Bytes per unit and whether the unit counts bits. */
static bool units_scale(char fmt, double *per_unit, bool *bits)
{
	switch (fmt ? fmt : 'm') {
	case 'g': *per_unit = 1e9; *bits = true; return true;
	case 'm': *per_unit = 1e6; *bits = true; return true;
	case 'k': *per_unit = 1e3; *bits = true; return true;
	case 'G': *per_unit = 1073741824.0; *bits = false; return true;
	case 'M': *per_unit = 1048576.0; *bits = false; return true;
	case 'K': *per_unit = 1024.0; *bits = false; return true;
	default: return false;
	}
}

double ws_classic_throughput(uint64_t bytes, int64_t elapsed_ns, char fmt)
{
	double per_unit;
	bool bits;
	if (elapsed_ns <= 0 || !units_scale(fmt, &per_unit, &bits))
		return 0.0;
	double amount = (double)bytes * (bits ? 8.0 : 1.0);
	return amount / per_unit / ((double)elapsed_ns / 1e9);
}

const char *ws_classic_units_label(char fmt)
{
	switch (fmt ? fmt : 'm') {
	case 'g': return "10^9bits";
	case 'm': return "10^6bits";
	case 'k': return "10^3bits";
	case 'G': return "GBytes";
	case 'M': return "MBytes";
	case 'K': return "KBytes";
	default: return NULL;
	}
}

static int stream_roles(const ws_test_result *r, struct stream_roles *roles, ws_err *err)
{
	switch (r->spec.type) {
	case WS_TEST_TCP_STREAM:
		*roles = (struct stream_roles){"TCP STREAM TEST", &r->local, &r->remote};
		return 0;
	case WS_TEST_TCP_SENDFILE:
		*roles = (struct stream_roles){"TCP SENDFILE TEST", &r->local, &r->remote};
		return 0;
	case WS_TEST_TCP_MAERTS:
		*roles = (struct stream_roles){"TCP MAERTS TEST", &r->remote, &r->local};
		return 0;
	default: {
		const char *name = ws_test_type_name(r->spec.type);
		return ws_err_set(err, WS_E_INVAL,
				  "classic report: test %s (%d) has no TCP stream layout; expected "
				  "TCP_STREAM, TCP_MAERTS or TCP_SENDFILE",
				  name ? name : "unknown", (int)r->spec.type);
	}
	}
}

static bool is_unspecified(const char *addr)
{
	return !addr[0] || strcmp(addr, "0.0.0.0") == 0 || strcmp(addr, "::") == 0 ||
	       strcmp(addr, "::0") == 0;
}

static void print_banner(const ws_test_result *r, const struct stream_roles *roles,
			 const ws_classic_opts *o, FILE *out)
{
	bool v6 = r->family_used == WS_FAMILY_INET6 ||
		  (r->family_used == WS_FAMILY_ANY && strchr(r->remote_addr, ':'));
	const char *af = v6 ? "AF_INET6" : "AF_INET";
	const char *host = r->remote_host[0] ? r->remote_host : r->remote_addr;
	fprintf(out, "%s from ", roles->banner);
	if (is_unspecified(r->local_addr))
		fputs(v6 ? "::0 (::)" : "0.0.0.0 (0.0.0.0)", out);
	else
		fprintf(out, "%s (%s)", r->local_addr, r->local_addr);
	fprintf(out, " port 0 %s to %s (%s) port 0 %s%s\n", af, host, r->remote_addr, af,
		o->cpu_bind ? " : cpu bind" : "");
}

/* A side's service demand counts the bytes it moved itself over its own interval; netperf
 * charges both sides with the local count instead. */
static struct side_cpu side_cpu(const ws_side_result *side, bool requested, bool is_sender)
{
	struct side_cpu c = {-1.0, -1.0, WS_CPU_METHOD_PROC_STAT};
	if (side->cpu_method)
		c.method = side->cpu_method;
	if (!requested || !side->cpu_measured)
		return c;
	uint64_t bytes = is_sender ? side->bytes_sent : side->bytes_recv;
	c.util = side->cpu_util;
	c.sd = ws_cpu_service_demand(side->cpu_util, side->ncpus, side->elapsed_ns, bytes, KB);
	return c;
}

static void print_table(const ws_test_result *r, const struct stream_roles *roles,
			const ws_classic_opts *o, FILE *out)
{
	const char *label = ws_classic_units_label(o->fmt);
	double secs = (double)r->local.elapsed_ns / 1e9;
	double tput = ws_classic_throughput(roles->receiver->bytes_recv, r->local.elapsed_ns,
					    o->fmt);
	int rcv_sock = (int)roles->receiver->rcvbuf_set;
	int snd_sock = (int)roles->sender->sndbuf_set;
	int msg = (int)roles->sender->send_size;
	char unit[32];
	if (o->local_cpu || o->remote_cpu) {
		bool local_sends = roles->sender == &r->local;
		struct side_cpu lc = side_cpu(&r->local, o->local_cpu, local_sends);
		struct side_cpu rc = side_cpu(&r->remote, o->remote_cpu, !local_sends);
		if (o->print_headers) {
			snprintf(unit, sizeof(unit), "%s/s", label);
			fputs("Recv   Send    Send                          Utilization       "
			      "Service Demand\n"
			      "Socket Socket  Message  Elapsed              Send     Recv     "
			      "Send    Recv\n"
			      "Size   Size    Size     Time     Throughput  local    remote   "
			      "local   remote\n",
			      out);
			fprintf(out, "bytes  bytes   bytes    secs.    %-10s  %% %c      %% %c      "
				     "us/KB   us/KB\n\n",
				unit, lc.method, rc.method);
		}
		fprintf(out, "%6d %6d %6d    %-6.2f     %7.2f   %-6.2f   %-6.2f   %-6.3f  %-6.3f \n",
			rcv_sock, snd_sock, msg, secs, tput, lc.util, rc.util, lc.sd, rc.sd);
		return;
	}
	if (o->print_headers) {
		snprintf(unit, sizeof(unit), "%s/sec", label);
		fputs("Recv   Send    Send                          \n"
		      "Socket Socket  Message  Elapsed              \n"
		      "Size   Size    Size     Time     Throughput  \n",
		      out);
		fprintf(out, "bytes  bytes   bytes    secs.    %-12s  \n\n", unit);
	}
	fprintf(out, "%6d %6d %6d    %-6.2f   %7.2f   \n", rcv_sock, snd_sock, msg, secs, tput);
}

/* -v 0: the figure of merit alone, service demand when CPU was asked for. */
static void print_figure(const ws_test_result *r, const struct stream_roles *roles,
			 const ws_classic_opts *o, FILE *out)
{
	const char *brand = o->brand ? o->brand : "";
	if (o->local_cpu || o->remote_cpu) {
		bool local = o->local_cpu;
		const ws_side_result *side = local ? &r->local : &r->remote;
		struct side_cpu c = side_cpu(side, true, roles->sender == side);
		fprintf(out, "%6.3f %c %s\n", c.sd, c.method, brand);
		return;
	}
	double tput = ws_classic_throughput(roles->receiver->bytes_recv, r->local.elapsed_ns,
					    o->fmt);
	fprintf(out, "%7.2f %s\n", tput, brand);
}

/* -v 2 hook: netperf follows the table with the alignment/bytes-per-call block and the
 * send-time histogram. Not rendered yet; the table alone is a valid -v 2 prefix. */
static void print_detail(const ws_test_result *r, const struct stream_roles *roles,
			 const ws_classic_opts *o, FILE *out)
{
	(void)r;
	(void)roles;
	(void)o;
	(void)out;
}

int ws_classic_render(const ws_test_result *r, const ws_classic_opts *o, FILE *out,
		      ws_err *err)
{
	ws_classic_opts defaults;
	if (!o) {
		ws_classic_opts_init(&defaults);
		o = &defaults;
	}
	if (!r || !out)
		return ws_err_set(err, WS_E_INVAL, "classic report: no result or no output stream");
	struct stream_roles roles = {"", &r->local, &r->remote};
	int rc = stream_roles(r, &roles, err);
	if (rc)
		return rc;
	if (!ws_classic_units_label(o->fmt))
		return ws_err_set(err, WS_E_INVAL,
				  "classic report: -f '%c' is not a stream unit; expected one of "
				  "G M K (2^30/2^20/2^10 bytes/s) or g m k (10^9/10^6/10^3 bits/s)",
				  o->fmt);
	if (o->print_headers)
		print_banner(r, &roles, o, out);
	if (o->verbosity <= 0) {
		print_figure(r, &roles, o, out);
	} else {
		print_table(r, &roles, o, out);
		if (o->verbosity >= 2)
			print_detail(r, &roles, o, out);
	}
	if (fflush(out) != 0 || ferror(out))
		return ws_err_errno(err, "classic report: writing the result");
	return 0;
}

int ws_classic_render_string(const ws_test_result *r, const ws_classic_opts *o, char **text,
			     ws_err *err)
{
	if (!text)
		return ws_err_set(err, WS_E_INVAL, "classic report: no place for the text");
	*text = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return ws_err_errno(err, "classic report: open_memstream");
	int rc = ws_classic_render(r, o, f, err);
	if (fclose(f) != 0 && rc == 0)
		rc = ws_err_errno(err, "classic report: closing the memory stream");
	if (rc) {
		free(buf);
		return rc;
	}
	*text = buf;
	return 0;
}
