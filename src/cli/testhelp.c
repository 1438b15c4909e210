/* SPDX-License-Identifier: BSD-2-Clause */
/* testhelp: the test options of one test for `-t T -- -h`; see testhelp.h. */
#include "cli/testhelp.h"

#include "cli/personality.h"
#include "model/testtype.h"

/* The families: netperf's omni help lists every row, its BSD-sockets help the rows marked. */
enum { OMNI_ONLY = 0, BOTH = 1 };

/* clang-format off */
static const struct {
	const char *form; /* the option and its value, as the help shows it */
	int family;
	const char *text; /* lines after the first start with blanks up to the text column */
} rows[] = {
	{"-b count", BOTH, "RR tests: count more requests in flight at the start"},
	{"-c", OMNI_ONLY, "A connection per transaction or message (TCP_RR becomes\n"
	 "                      TCP_CRR; -t omni without -d: TCP_CC)"},
	{"-C", BOTH, "TCP_CORK on the sending side's data connection"},
	{"-d send|recv|rr", OMNI_ONLY, "-t omni: the direction (also 0x2, 0x4, 0x6); default send"},
	{"-D [L][,R]", BOTH, "TCP_NODELAY on the data connection (TCP tests)"},
	{"-h", BOTH, "Show this text"},
	{"-H host[,family]", BOTH, "The daemon's address of the data connection"},
	{"-k [list|file|?]", OMNI_ONLY, "NAME=value output lines (? lists the names)"},
	{"-K cc[,rcc]", OMNI_ONLY, "TCP congestion control, local and remote"},
	{"-L host[,family]", BOTH, "The local address of the data connection"},
	{"-m local[,remote]", BOTH, "Stream tests: bytes per send call"},
	{"-M remote[,local]", BOTH, "Stream tests: bytes per receive call"},
	{"-n", BOTH, "Connected UDP socket, local (always so)"},
	{"-N", BOTH, "Connected UDP socket, remote (always so)"},
	{"-o [list|file|?]", OMNI_ONLY, "CSV output (? lists the names)"},
	{"-O [list|file|?]", OMNI_ONLY, "Column output (? lists the names)"},
	{"-p min[,max]", BOTH, "Connection tests: the local port range of the connections"},
	{"-P lport[,rport]", BOTH, "The data ports, local and remote"},
	{"-r req[,rsp]", BOTH, "RR tests: request and response sizes"},
	{"-R 0|1", OMNI_ONLY, "0: the data may not be routed (UDP_STREAM's default);\n"
	 "                      1: routing allowed (the others' default)"},
	{"-s send[,recv]", BOTH, "Local socket buffers (-1: the default, 0: the minimum)"},
	{"-S send[,recv]", BOTH, "Remote socket buffers (-1: the default, 0: the minimum)"},
	{"-t stream|dgram", OMNI_ONLY, "The socket type (must be the test's own)"},
	{"-T tcp|udp", OMNI_ONLY, "-t omni: the protocol; default tcp"},
	{"-u uuid", OMNI_ONLY, "The test UUID the outputs name"},
	{"-4", BOTH, "IPv4 for the data connection, both ends"},
	{"-6", BOTH, "IPv6 for the data connection, both ends"},
};
/* clang-format on */

int ws_cli_topt_help(ws_cli_options *o, const char *val, struct ws_err *err)
{
	(void)val;
	(void)err;
	o->help = true;
	o->test_help = true;
	return 0;
}

/* netperf 2.7.0 answers TCP_SENDFILE, TCP_CC and TCP_MSS from its BSD-sockets tests. */
static bool bsd_family(const ws_cli_options *o)
{
	enum ws_test_type t = o->spec.type;
	return !o->omni &&
		(t == WS_TEST_TCP_SENDFILE || t == WS_TEST_TCP_CC || t == WS_TEST_TCP_MSS);
}

void ws_cli_print_test_usage(const ws_cli_options *o, FILE *out)
{
	const char *name = o->omni ? "omni" : ws_test_type_name(o->spec.type);
	if (ws_test_type_family(o->spec.type) == WS_TF_CPU) {
		fprintf(out, "%s takes no test options.\n", name);
		return;
	}
	bool bsd = bsd_family(o);
	fprintf(out, "Usage: %s [global options] -- [test options]\n", ws_cli_prog());
	fprintf(out, "Test options of %s (%s):\n", name ? name : "this test",
		bsd ? "the BSD-sockets tests TCP_SENDFILE, TCP_CC and TCP_MSS"
		    : "-t omni and the tests it runs");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!bsd || rows[i].family == BOTH)
			fprintf(out, "    %-17s %s\n", rows[i].form, rows[i].text);
	fputs("A two-value option takes x,y, x, or ,y; a single x sets both values (-D, -H, -L\n"
	      "and -p: the first only). Sizes take K, M, G (2^10, 2^20, 2^30) or k, m, g (10^3,\n"
	      "10^6, 10^9).\n",
	      out);
}
