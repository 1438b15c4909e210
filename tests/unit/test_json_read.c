/* SPDX-License-Identifier: BSD-2-Clause */
/* test_json_read: the bounded JSON reader (util/json_read.h): values, escapes and
 * surrogates, exact error positions for broken documents, the size / depth / value
 * limits, nesting far past the limit without recursion, input without a NUL, and the
 * documents warpspeed's own writer produces read back. */
#include "harness.h"

#include "report/json.h"
#include "util/err.h"
#include "util/json_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int rd(const char *t, const ws_jlimits *lim, ws_jdoc *d, ws_err *e)
{
	return ws_json_read(t, strlen(t), lim, d, e);
}

static void test_values(void)
{
	ws_jdoc d;
	ws_err e;
	const char *t = " {\"a\": [1, 2.5, -3e2, true, false, null, \"x\\u00e9\\n\\\"\\/\"],"
			" \"b\": {\"c\": \"d\", \"e\": {}}, \"f\": [], \"a\": 9}\n";
	CHECK_INT("parse", rd(t, NULL, &d, &e), 0);
	const ws_jval *r = ws_jroot(&d), *a = ws_jget(&d, r, "a");
	CHECK_INT("root is an object of 4", r->n, 4);
	CHECK_INT("a is the first a", a->type, WS_J_ARR);
	CHECK_INT("a has 7", a->n, 7);
	const ws_jval *v = ws_jfirst(&d, a);
	CHECK_DBL("1", ws_jnum(v, 0), 1, 0);
	v = ws_jnext(&d, v);
	CHECK_DBL("2.5", ws_jnum(v, 0), 2.5, 0);
	v = ws_jnext(&d, v);
	CHECK_DBL("-3e2", ws_jnum(v, 0), -300, 0);
	v = ws_jnext(&d, v);
	CHECK_INT("true", v->type, WS_J_TRUE);
	v = ws_jnext(&d, ws_jnext(&d, v));
	CHECK_INT("null", v->type, WS_J_NULL);
	CHECK_DBL("not a number: default", ws_jnum(v, 7), 7, 0);
	v = ws_jnext(&d, v);
	CHECK_STR("escapes", ws_jstr(&d, v), "x\xc3\xa9\n\"/");
	CHECK("last", ws_jnext(&d, v) == NULL);
	CHECK_STR("path", ws_jstr(&d, ws_jpath(&d, r, "b.c")), "d");
	CHECK_INT("empty object", ws_jpath(&d, r, "b.e")->n, 0);
	CHECK("empty object has no child", ws_jfirst(&d, ws_jpath(&d, r, "b.e")) == NULL);
	CHECK_INT("empty array", ws_jget(&d, r, "f")->type, WS_J_ARR);
	CHECK("missing member", ws_jpath(&d, r, "b.x.y") == NULL);
	CHECK("member of a non-object", ws_jget(&d, a, "x") == NULL);
	CHECK_STR("key", ws_jkey(&d, ws_jget(&d, r, "f")), "f");
	ws_jdoc_free(&d);

	CHECK_INT("scalar root", rd("  42 ", NULL, &d, &e), 0);
	CHECK_DBL("42", ws_jnum(ws_jroot(&d), 0), 42, 0);
	ws_jdoc_free(&d);
	CHECK_INT("a BOM", rd("\xef\xbb\xbf[1]", NULL, &d, &e), 0);
	ws_jdoc_free(&d);
}

static void test_unicode(void)
{
	ws_jdoc d;
	ws_err e;
	CHECK_INT("pair", rd("\"\\ud83d\\ude00\"", NULL, &d, &e), 0);
	CHECK_STR("U+1F600", ws_jstr(&d, ws_jroot(&d)), "\xf0\x9f\x98\x80");
	ws_jdoc_free(&d);
	CHECK_INT("lone", rd("\"a\\ud800b\\udc00\\u0000\"", NULL, &d, &e), 0);
	CHECK_STR("lone surrogates and NUL are U+FFFD", ws_jstr(&d, ws_jroot(&d)),
		  "a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd");
	ws_jdoc_free(&d);
	CHECK_INT("high then not low", rd("\"\\ud800\\u0041\"", NULL, &d, &e), 0);
	CHECK_STR("U+FFFD then A", ws_jstr(&d, ws_jroot(&d)), "\xef\xbf\xbd" "A");
	ws_jdoc_free(&d);
}

static void test_errors(void)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{"", "line 1, column 1: the document ends where a value was expected"},
		{"[1,]", "line 1, column 4: expected a value (an object, array, string, number, true, false or null)"},
		{"{\"a\" 1}", "line 1, column 6: expected ':' after a member name"},
		{"{\"a\":1,}", "line 1, column 8: expected a member name in double quotes"},
		{"{1:2}", "line 1, column 2: expected a member name in double quotes"},
		{"[1 2]", "line 1, column 4: expected ',' or ']' after an element"},
		{"{\"a\":1 \"b\"}", "line 1, column 8: expected ',' or '}' after a member"},
		{"01", "line 1, column 2: text after the end of the document"},
		{"1.", "line 1, column 1: expected a digit after the decimal point"},
		{"-", "line 1, column 1: expected a digit in a number"},
		{"1e+", "line 1, column 1: expected a digit in an exponent"},
		{"1e999", "line 1, column 1: a number too large for a double"},
		{"\"abc", "line 1, column 5: a string has no closing quote"},
		{"[\"a\x01\"]", "line 1, column 4: a control character inside a string (write it as \\u00XX)"},
		{"\"\\x\"", "line 1, column 3: an unknown escape in a string (expected \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX)"},
		{"\"\\u12g4\"", "line 1, column 7: a \\u escape needs four hex digits"},
		{"nul", "line 1, column 1: expected a value (an object, array, string, number, true, false or null)"},
		{"[1]]", "line 1, column 4: text after the end of the document"},
		{"[\n1,\n  ]", "line 3, column 3: expected a value (an object, array, string, number, true, false or null)"},
		{"[[[", "line 1, column 4: the document ends where a value was expected"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ws_jdoc d;
		ws_err e;
		ws_err_clear(&e);
		CHECK_INT(cases[i].text, rd(cases[i].text, NULL, &d, &e), -WS_E_INVAL);
		CHECK_STR(cases[i].text, e.msg, cases[i].msg);
		CHECK("freed", d.v == NULL && d.pool == NULL);
	}
}

static void test_limits(void)
{
	ws_jdoc d;
	ws_err e;
	ws_jlimits depth3 = {.max_depth = 3}, vals3 = {.max_values = 3}, bytes5 = {.max_bytes = 5};
	CHECK_INT("depth 3 of 3", rd("[[[]]]", &depth3, &d, &e), 0);
	ws_jdoc_free(&d);
	CHECK_INT("depth 4 of 3", rd("[[[[]]]]", &depth3, &d, &e), -E2BIG);
	CHECK_STR("depth message", e.msg, "nesting deeper than 3 (the reader's limit)");
	CHECK_INT("3 values of 3", rd("[1,2]", &vals3, &d, &e), 0);
	ws_jdoc_free(&d);
	CHECK_INT("4 values of 3", rd("[1,2,3]", &vals3, &d, &e), -E2BIG);
	CHECK_STR("values message", e.msg, "more than 3 values (the reader's limit)");
	CHECK_INT("7 bytes of 5", rd("[1,2,3]", &bytes5, &d, &e), -E2BIG);
	CHECK_STR("bytes message", e.msg, "7 bytes, more than the 5 the reader takes");

	/* A million opening brackets: refused at the default depth, no recursion to blow. */
	size_t n = 1000000;
	char *deep = malloc(n);
	memset(deep, '[', n);
	CHECK_INT("deep", ws_json_read(deep, n, NULL, &d, &e), -E2BIG);
	CHECK_STR("deep message", e.msg, "nesting deeper than 64 (the reader's limit)");
	ws_jlimits hard = {.max_depth = 100000};
	CHECK_INT("deep, the hard cap", ws_json_read(deep, n, &hard, &d, &e), -E2BIG);
	CHECK_STR("hard cap message", e.msg, "nesting deeper than 1024 (the reader's limit)");
	free(deep);

	/* Only len bytes are read: the text goes on past it. */
	CHECK_INT("length, not NUL", ws_json_read("[1] trailing", 3, NULL, &d, &e), 0);
	ws_jdoc_free(&d);
	CHECK_INT("cut inside a literal", ws_json_read("true", 3, NULL, &d, &e), -WS_E_INVAL);
}

/* What report/json.h writes, read back. */
/* ws_json_read_strict: member names unique per object (at any depth, the same name in two
 * objects is fine), errors by byte; the lenient reader keeps taking the first of two. */
static void test_strict(void)
{
	ws_jdoc d;
	ws_err e;
	const char *t = "{\"a\": {\"x\": 1, \"y\": 2}, \"b\": {\"x\": 3}}";
	CHECK_INT("unique", ws_json_read_strict(t, strlen(t), NULL, &d, &e), 0);
	CHECK_DBL("b.x", ws_jnum(ws_jpath(&d, ws_jroot(&d), "b.x"), 0), 3, 0);
	ws_jdoc_free(&d);
	const char *dup = "{\"a\": {\"x\": 1, \"y\": 2, \"x\": 3}, \"b\": 1}";
	CHECK_INT("nested twice", ws_json_read_strict(dup, strlen(dup), NULL, &d, &e), -WS_E_INVAL);
	CHECK_STR("nested twice msg", e.msg, "member name \"x\" given twice in one object at byte 23");
	CHECK_INT("lenient takes it", rd(dup, NULL, &d, &e), 0);
	CHECK_DBL("the first x", ws_jnum(ws_jpath(&d, ws_jroot(&d), "a.x"), 0), 1, 0);
	ws_jdoc_free(&d);
	const char *cut = "{\"a\": [1, 2";
	CHECK_INT("cut", ws_json_read_strict(cut, strlen(cut), NULL, &d, &e), -WS_E_INVAL);
	CHECK_STR("cut msg", e.msg, "expected ',' or ']' after an element at byte 11");
	CHECK_INT("cut lenient", rd(cut, NULL, &d, &e), -WS_E_INVAL);
	CHECK_STR("cut lenient msg", e.msg, "line 1, column 12: expected ',' or ']' after an element");
}

static void test_round_trip(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ws_json j;
	ws_json_init(&j, f, 2);
	ws_json_object_begin(&j, NULL);
	ws_json_str(&j, "type", "result");
	ws_json_double(&j, "pi", 3.141592653589793);
	ws_json_double(&j, "nan", 0.0 / 0.0);
	ws_json_str(&j, "ctl", "a\tb\x01");
	ws_json_array_inline_begin(&j, "h");
	ws_json_uint(&j, NULL, 18446744073709551615ULL);
	ws_json_array_end(&j);
	ws_json_object_end(&j);
	ws_json_finish(&j);
	fclose(f);
	ws_jdoc d;
	ws_err e;
	CHECK_INT("read back", ws_json_read(buf, len, NULL, &d, &e), 0);
	const ws_jval *r = ws_jroot(&d);
	CHECK_DBL("pi exact", ws_jnum(ws_jget(&d, r, "pi"), 0), 3.141592653589793, 0);
	CHECK_INT("nan is null", ws_jget(&d, r, "nan")->type, WS_J_NULL);
	CHECK_STR("control characters", ws_jstr(&d, ws_jget(&d, r, "ctl")), "a\tb\x01");
	CHECK_DBL("2^64-1 as a double", ws_jnum(ws_jfirst(&d, ws_jget(&d, r, "h")), 0), 18446744073709551616.0, 0);
	ws_jdoc_free(&d);
	free(buf);
}

int main(void)
{
	RUN(test_values);
	RUN(test_unicode);
	RUN(test_errors);
	RUN(test_limits);
	RUN(test_strict);
	RUN(test_round_trip);
	TEST_MAIN_END();
}
