/* SPDX-License-Identifier: BSD-2-Clause */
/* test_compare: report/compare: finding documents in a file (braces and quotes inside
 * strings, JSON lines, documents one after another), the figures and context of a result,
 * the first context difference, and rows with verdicts and --fail-if-worse. */
#include "harness.h"

#include "report/compare.h"
#include "util/err.h"
#include "util/json_read.h"

#define DOC(v, test, ver)                                                                          \
	"{\"type\": \"result\", \"schema_version\": 1, \"warpspeed_version\": \"" ver "\", "        \
	"\"test\": \"" test "\", \"hosts\": {\"local_hostname\": \"a\", \"remote_host\": \"b\"}, "  \
	"\"spec\": {\"send_size\": 0, \"recv_size\": 0, \"req_size\": 1, \"rsp_size\": 1, "         \
	"\"streams\": 1}, \"throughput\": {\"value\": " v ", \"units\": \"Trans/s\", "              \
	"\"transaction_rate\": " v "}, \"local\": {\"cpu\": {\"util\": 0, \"service_demand\": 2, "  \
	"\"service_demand_units\": \"usec/Tran\"}}, \"remote\": {\"cpu\": null}, "                 \
	"\"latency\": {\"p50_us\": 10, \"p90_us\": null, \"p99_us\": 20, \"p99_9_us\": 30}}"

static void test_next_value(void)
{
	const char t[] = " {\"a\": \"}{\\\"]\"}\n{\"b\": [1, {\"c\": 2}]}\n\n  [3]  ";
	size_t pos = 0, start = 0, n;
	n = ws_cmp_next_value(t, sizeof t - 1, &pos, &start);
	CHECK_INT("first len", n, 14);
	CHECK_INT("first start", start, 1);
	n = ws_cmp_next_value(t, sizeof t - 1, &pos, &start);
	CHECK_INT("second", n, 20);
	CHECK("second text", !strncmp(t + start, "{\"b\"", 4));
	n = ws_cmp_next_value(t, sizeof t - 1, &pos, &start);
	CHECK_INT("third", n, 3);
	CHECK_INT("end", ws_cmp_next_value(t, sizeof t - 1, &pos, &start), 0);
}

static int add(ws_cmp_side *s, const char *text, ws_cmp_context *c)
{
	ws_jdoc d;
	ws_err e;
	ws_err_clear(&e);
	if (ws_json_read(text, strlen(text), NULL, &d, &e) < 0)
		return -1;
	int rc = ws_cmp_add_doc(s, &d, c, &e);
	ws_jdoc_free(&d);
	return rc;
}

static void test_figures(void)
{
	ws_cmp_side s = {0};
	ws_cmp_context c, c2;
	CHECK_INT("add", add(&s, DOC("100", "TCP_RR", "0.1.0+abc"), &c), 0);
	/* throughput (Trans/s, so no transaction_rate), service demand, p50, p99, p99.9; the
	 * 0% CPU is dropped, the null p90 is no sample */
	CHECK_INT("series", s.ns, 5);
	CHECK_STR("first", s.s[0].name, "throughput");
	CHECK_STR("units", s.s[0].units, "Trans/s");
	CHECK("higher", s.s[0].higher_better);
	CHECK_STR("p50", s.s[1].name, "latency_p50");
	CHECK("lower", !s.s[1].higher_better);
	CHECK_STR("sd", s.s[4].name, "local_service_demand");
	CHECK_INT("dropped", s.dropped, 1);
	CHECK_STR("test", c.test, "TCP_RR");
	CHECK_STR("sizes", c.sizes, "-m 0 -M 0 -r 1,1 --streams 1");
	CHECK_STR("host", c.host, "a -> b");
	CHECK_STR("version", c.version, "0.1.0 schema 1");
	CHECK_INT("same release", add(&s, DOC("101", "TCP_RR", "0.1.0+def-dirty"), &c2), 0);
	char msg[256];
	CHECK("no diff", ws_cmp_context_diff(&c, &c2, msg, sizeof msg) == NULL);
	CHECK_INT("other test", add(&s, DOC("99", "UDP_RR", "0.2.0"), &c2), 0);
	CHECK_STR("diff", ws_cmp_context_diff(&c, &c2, msg, sizeof msg), "test");
	CHECK_STR("msg", msg, "test: UDP_RR against TCP_RR");
	CHECK_INT("docs", s.docs, 3);
	CHECK_INT("samples", s.s[0].n, 3);
	ws_cmp_context c3;
	CHECK_INT("interval object", add(&s, "{\"type\": \"other\"}", &c3), -WS_E_INVAL);
	ws_cmp_side_free(&s);
}

static void test_rows(void)
{
	ws_cmp_side o = {0}, n = {0};
	ws_cmp_context c;
	const char *ov[] = {DOC("100", "TCP_RR", "0"), DOC("102", "TCP_RR", "0"), DOC("98", "TCP_RR", "0"),
			    DOC("101", "TCP_RR", "0"), DOC("99", "TCP_RR", "0")};
	const char *nv[] = {DOC("90", "TCP_RR", "0"), DOC("92", "TCP_RR", "0"), DOC("89", "TCP_RR", "0"),
			    DOC("91", "TCP_RR", "0"), DOC("93", "TCP_RR", "0")};
	for (int i = 0; i < 5; i++) {
		CHECK_INT("old", add(&o, ov[i], &c), 0);
		CHECK_INT("new", add(&n, nv[i], &c), 0);
	}
	ws_cmp_row *rows;
	size_t nr;
	ws_err e;
	CHECK_INT("run", ws_cmp_run(&o, &n, 5, &rows, &nr, &e), 0);
	CHECK_INT("rows", nr, 5);
	CHECK_STR("name", rows[0].name, "throughput");
	CHECK_DBL("ratio", rows[0].r.ratio, 0.91, 1e-12);
	CHECK_INT("verdict", rows[0].verdict, WS_VERDICT_SLOWER);
	CHECK("fails", rows[0].fails);
	CHECK_INT("p50 unchanged", rows[1].verdict, WS_VERDICT_SAME);
	CHECK("p50 passes", !rows[1].fails);
	free(rows);
	CHECK_INT("no threshold", ws_cmp_run(&o, &n, -1, &rows, &nr, &e), 0);
	CHECK("no fail", !rows[0].fails);
	free(rows);
	ws_cmp_side_free(&o);
	ws_cmp_side_free(&n);
}

int main(void)
{
	RUN(test_next_value);
	RUN(test_figures);
	RUN(test_rows);
	TEST_MAIN_END();
}
