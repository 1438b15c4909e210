/* SPDX-License-Identifier: BSD-2-Clause */
/* test_units: the numbers a netperf command line carries. Sizes with both suffix families
 * are checked to the byte, every malformed or overflowing form must be refused with the
 * output left unchanged, and the two-value "x,y" splitter is checked for each shape
 * netperf accepts and each it does not. */
#include "harness.h"

#include "util/err.h"
#include "util/units.h"

static void size_ok(const char *t, const char *s, uint64_t want)
{
	uint64_t v = 12345;
	ws_err err = {0};
	int rc = ws_units_parse_size(s, &v, &err);
	if (rc != 0)
		printf("  '%s': %s\n", s, err.msg);
	CHECK_INT(t, rc, 0);
	CHECK_U64(t, v, want);
}

static void size_bad(const char *t, const char *s, const char *msg_part)
{
	uint64_t v = 777;
	ws_err err = {0};
	int rc = ws_units_parse_size(s, &v, &err);
	if (rc != -WS_E_INVAL)
		printf("  '%s' was not refused (rc %d, value %llu)\n", s ? s : "(null)", rc,
		       (unsigned long long)v);
	CHECK_INT(t, rc, -WS_E_INVAL);
	CHECK_INT(t, err.code, -WS_E_INVAL);
	CHECK_U64(t, v, 777);
	if (!strstr(err.msg, msg_part))
		printf("  '%s': message [%s] lacks [%s]\n", s ? s : "(null)", err.msg, msg_part);
	CHECK(t, strstr(err.msg, msg_part) != NULL);
}

static void test_sizes(void)
{
	const char *t = "sizes";
	size_ok(t, "0", 0);
	size_ok(t, "1", 1);
	size_ok(t, "131072", 131072);
	size_ok(t, "128K", 131072);
	size_ok(t, "10m", 10000000);
	size_ok(t, "1G", 1073741824);
	size_ok(t, "4g", 4000000000ULL);
	size_ok(t, "16k", 16000);
	size_ok(t, "3M", 3145728);
	size_ok(t, "0K", 0);
	size_ok(t, "007", 7);
	size_ok(t, "18446744073709551615", UINT64_MAX);
	size_ok(t, "17179869183G", 17179869183ULL << 30); /* largest G that fits */
	size_ok(t, "18446744073g", 18446744073000000000ULL); /* largest g that fits */
}

static void test_sizes_refused(void)
{
	const char *t = "sizes_refused";
	size_bad(t, "", "empty size");
	size_bad(t, NULL, "empty size");
	size_bad(t, "-1", "'-1' is not a size");
	size_bad(t, "12Q", "unknown suffix 'Q'");
	size_bad(t, "1KK", "unknown suffix 'KK'");
	size_bad(t, "K", "'K' is not a size");
	size_bad(t, " 12", "is not a size");
	size_bad(t, "+12", "is not a size");
	size_bad(t, "12 ", "unknown suffix");
	size_bad(t, "1.5M", "unknown suffix");
	size_bad(t, "0x10", "unknown suffix");
	size_bad(t, "99999999999999999999", "'99999999999999999999' is too large");
	size_bad(t, "18446744073709551616", "is too large");
	size_bad(t, "18446744073709551615K", "'18446744073709551615K' is too large");
	size_bad(t, "17179869184G", "is too large");
	size_bad(t, "18446744074g", "is too large");
	/* The message lists the accepted forms. */
	size_bad(t, "12Q", "e.g. 131072 or 128K");
}

static void test_parse_int(void)
{
	const char *t = "parse_int";
	ws_err err = {0};
	long long v = 5;
	CHECK_INT(t, ws_units_parse_int("0", -1, 10, &v, &err), 0);
	CHECK_INT(t, v, 0);
	CHECK_INT(t, ws_units_parse_int("-1", -1, 10, &v, &err), 0);
	CHECK_INT(t, v, -1);
	CHECK_INT(t, ws_units_parse_int("10", -1, 10, &v, &err), 0);
	CHECK_INT(t, v, 10);
	CHECK_INT(t, ws_units_parse_int("-9223372036854775808", INT64_MIN, INT64_MAX, &v, &err), 0);
	CHECK(t, v == INT64_MIN);

	v = 99;
	CHECK_INT(t, ws_units_parse_int("11", -1, 10, &v, &err), -WS_E_INVAL);
	CHECK_STR(t, err.msg, "11 is out of range; expected -1 to 10");
	CHECK_INT(t, ws_units_parse_int("-2", -1, 10, &v, &err), -WS_E_INVAL);
	CHECK_STR(t, err.msg, "-2 is out of range; expected -1 to 10");
	CHECK_INT(t, ws_units_parse_int("9223372036854775808", INT64_MIN, INT64_MAX, &v, &err),
		  -WS_E_INVAL);
	CHECK(t, strstr(err.msg, "out of range") != NULL);
	CHECK_INT(t, ws_units_parse_int("", 0, 10, &v, &err), -WS_E_INVAL);
	CHECK_STR(t, err.msg, "empty value; expected an integer from 0 to 10");
	CHECK_INT(t, ws_units_parse_int(NULL, 0, 10, &v, &err), -WS_E_INVAL);
	CHECK_INT(t, ws_units_parse_int("12abc", 0, 100, &v, &err), -WS_E_INVAL);
	CHECK_STR(t, err.msg, "'12abc' is not an integer; expected 0 to 100");
	CHECK_INT(t, ws_units_parse_int(" 12", 0, 100, &v, &err), -WS_E_INVAL);
	CHECK_INT(t, ws_units_parse_int("12 ", 0, 100, &v, &err), -WS_E_INVAL);
	CHECK_INT(t, ws_units_parse_int("-", 0, 100, &v, &err), -WS_E_INVAL);
	CHECK_INT(t, ws_units_parse_int("1K", 0, 10000, &v, &err), -WS_E_INVAL);
	CHECK_INT(t, ws_units_parse_int("1.0", 0, 10, &v, &err), -WS_E_INVAL);
	CHECK_INT(t, v, 99);
}

static void test_parse_double(void)
{
	const char *t = "parse_double";
	ws_err err = {0};
	double v = 5;
	CHECK_INT(t, ws_units_parse_double("2.5", 0, 10, &v, &err), 0);
	CHECK(t, v == 2.5);
	CHECK_INT(t, ws_units_parse_double("-1e-3", -1, 1, &v, &err), 0);
	CHECK(t, v == -1e-3);
	CHECK_INT(t, ws_units_parse_double("10", 0, 10, &v, &err), 0);
	CHECK(t, v == 10.0);
	CHECK_INT(t, ws_units_parse_double("0", 0, 10, &v, &err), 0);
	CHECK(t, v == 0.0);

	v = 42;
	CHECK_INT(t, ws_units_parse_double("10.5", 0, 10, &v, &err), -WS_E_INVAL);
	CHECK_STR(t, err.msg, "10.5 is out of range; expected 0 to 10");
	CHECK_INT(t, ws_units_parse_double("-0.1", 0, 10, &v, &err), -WS_E_INVAL);
	CHECK_INT(t, ws_units_parse_double("", 0, 10, &v, &err), -WS_E_INVAL);
	CHECK_STR(t, err.msg, "empty value; expected a number from 0 to 10");
	CHECK_INT(t, ws_units_parse_double("abc", 0, 10, &v, &err), -WS_E_INVAL);
	CHECK_STR(t, err.msg, "'abc' is not a number; expected 0 to 10");
	CHECK_INT(t, ws_units_parse_double("1.5s", 0, 10, &v, &err), -WS_E_INVAL);
	CHECK_INT(t, ws_units_parse_double(" 1", 0, 10, &v, &err), -WS_E_INVAL);
	CHECK_INT(t, ws_units_parse_double("nan", -1e308, 1e308, &v, &err), -WS_E_INVAL);
	CHECK_INT(t, ws_units_parse_double("inf", -1e308, 1e308, &v, &err), -WS_E_INVAL);
	CHECK_INT(t, ws_units_parse_double("1e999", -1e308, 1e308, &v, &err), -WS_E_INVAL);
	CHECK(t, v == 42);
}

/* Split s and compare both halves and the three flags. */
static void pair_ok(const char *t, const char *s, const char *wa, const char *wb, int ha,
		    int hb, int single)
{
	char a[16] = "junk", b[16] = "junk";
	int have_a = 9, have_b = 9, one = 9;
	ws_err err = {0};
	CHECK_INT(t, ws_units_split_pair(s, a, sizeof(a), b, sizeof(b), &have_a, &have_b, &one, &err),
		  0);
	CHECK_STR(t, a, wa);
	CHECK_STR(t, b, wb);
	CHECK_INT(t, have_a, ha);
	CHECK_INT(t, have_b, hb);
	CHECK_INT(t, one, single);
}

static void test_split_pair(void)
{
	const char *t = "split_pair";
	pair_ok(t, "x", "x", "", 1, 0, 1);
	pair_ok(t, "128K,64K", "128K", "64K", 1, 1, 0);
	pair_ok(t, "x,", "x", "", 1, 0, 0);
	pair_ok(t, ",y", "", "y", 0, 1, 0);

	char a[16], b[16];
	int ha, hb, one;
	ws_err err = {0};
	CHECK_INT(t, ws_units_split_pair("", a, sizeof(a), b, sizeof(b), &ha, &hb, &one, &err),
		  -WS_E_INVAL);
	CHECK(t, strstr(err.msg, "empty value") != NULL);
	CHECK_INT(t, ws_units_split_pair(",", a, sizeof(a), b, sizeof(b), &ha, &hb, &one, &err),
		  -WS_E_INVAL);
	CHECK(t, strstr(err.msg, "',' has no value") != NULL);
	CHECK_INT(t, ws_units_split_pair("a,b,c", a, sizeof(a), b, sizeof(b), &ha, &hb, &one, &err),
		  -WS_E_INVAL);
	CHECK(t, strstr(err.msg, "'a,b,c' has more than two values") != NULL);
	CHECK_INT(t, ws_units_split_pair(",,", a, sizeof(a), b, sizeof(b), &ha, &hb, &one, &err),
		  -WS_E_INVAL);
	CHECK(t, ha == 0 && hb == 0 && one == 0);

	/* Halves longer than the buffers are truncated, still NUL-terminated. */
	char sa[4], sb[3];
	CHECK_INT(t, ws_units_split_pair("abcdef,ghij", sa, sizeof(sa), sb, sizeof(sb), &ha, &hb,
					 &one, &err),
		  0);
	CHECK_STR(t, sa, "abc");
	CHECK_STR(t, sb, "gh");
}

static void test_format_size(void)
{
	const char *t = "format_size";
	static const struct {
		uint64_t v;
		const char *want;
	} cases[] = {
		{0, "0"},          {1, "1"},          {1000, "1000"},      {1023, "1023"},
		{1024, "1K"},      {1536, "1536"},    {131072, "128K"},    {1048576, "1M"},
		{3145728, "3M"},   {1049600, "1025K"}, {1073741824, "1G"}, {10737418240ULL, "10G"},
		{16000, "16000"},  {UINT64_MAX, "18446744073709551615"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[32] = "junk";
		ws_units_format_size(cases[i].v, buf, sizeof(buf));
		CHECK_STR(t, buf, cases[i].want);
	}
	/* A short buffer truncates safely. */
	char small[3];
	ws_units_format_size(131072, small, sizeof(small));
	CHECK_STR(t, small, "12");

	/* What format prints, parse reads back. */
	uint64_t back = 0;
	char buf[32];
	ws_units_format_size(3ULL << 30, buf, sizeof(buf));
	CHECK_INT(t, ws_units_parse_size(buf, &back, NULL), 0);
	CHECK_U64(t, back, 3ULL << 30);
}

static void test_format_iec(void)
{
	const char *t = "format_iec";
	static const struct {
		uint64_t v;
		const char *want;
	} cases[] = {
		{0, "0 B"},           {1023, "1023 B"},      {1024, "1 KiB"},       {1536, "1.5 KiB"},
		{512u << 20, "512 MiB"}, {1ull << 30, "1 GiB"}, {4ull << 30, "4 GiB"},
		{(5ull << 30) / 2, "2.5 GiB"}, {UINT64_MAX, "17179869184.0 GiB"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[32] = "junk";
		ws_units_format_iec(cases[i].v, buf, sizeof(buf));
		CHECK_STR(t, buf, cases[i].want);
	}
}

int main(void)
{
	RUN(test_sizes);
	RUN(test_sizes_refused);
	RUN(test_parse_int);
	RUN(test_parse_double);
	RUN(test_split_pair);
	RUN(test_format_size);
	RUN(test_format_iec);
	TEST_MAIN_END();
}
