/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of iqfile: kinds from names and options, exact bytes of cf32 / ci16 files,
 * SigMF metadata and data, round trips, and refusals (wrong size, unknown datatype, too
 * many samples, no format) that leave no file behind. */
#include "harness.h"

#include "iq/host/iqfile.h"
#include "util/err.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static const char *path(const char *name)
{
	static char p[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
	return p[k];
}

static int exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

static size_t slurp(const char *p, uint8_t *buf, size_t cap)
{
	FILE *f = fopen(p, "rb");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

static void spit(const char *p, const void *b, size_t n)
{
	FILE *f = fopen(p, "wb");
	fwrite(b, 1, n, f);
	fclose(f);
}

static void test_kinds(void)
{
	ws_iqfile_kind k;
	ws_err e;
	CHECK_INT("cf32", ws_iqfile_kind_of_path("a/b.cf32"), WS_IQFILE_CF32);
	CHECK_INT("fc32", ws_iqfile_kind_of_path("b.fc32"), WS_IQFILE_CF32);
	CHECK_INT("ci16", ws_iqfile_kind_of_path("b.ci16"), WS_IQFILE_CI16);
	CHECK_INT("sc16", ws_iqfile_kind_of_path("b.sc16"), WS_IQFILE_CI16);
	CHECK_INT("meta", ws_iqfile_kind_of_path("r.sigmf-meta"), WS_IQFILE_SIGMF);
	CHECK_INT("data", ws_iqfile_kind_of_path("r.sigmf-data"), WS_IQFILE_SIGMF);
	CHECK_INT("none", ws_iqfile_kind_of_path("r.bin"), WS_IQFILE_AUTO);
	CHECK_INT("parse", ws_iqfile_kind_parse("sigmf", &k, &e), 0);
	CHECK_INT("parsed", k, WS_IQFILE_SIGMF);
	CHECK_INT("bad", ws_iqfile_kind_parse("wav", &k, &e), -WS_E_INVAL);
	CHECK_STR("bad msg", e.msg, "file format 'wav' is not known (cf32, ci16 or sigmf)");
	char m[64], d[64];
	CHECK_INT("paths", ws_iqfile_sigmf_paths("x/rec.sigmf-data", m, d, sizeof m, &e), 0);
	CHECK_STR("meta", m, "x/rec.sigmf-meta");
	CHECK_STR("data", d, "x/rec.sigmf-data");
	CHECK_INT("paths2", ws_iqfile_sigmf_paths("rec", m, d, sizeof m, &e), 0);
	CHECK_STR("meta2", m, "rec.sigmf-meta");
}

static void test_ci16_bytes(void)
{
	int16_t s[4] = {1, -2, 32767, -32768};
	ws_err e;
	CHECK_INT("save", ws_iqfile_save(path("a.ci16"), WS_IQFILE_AUTO, WS_IQ_FMT_CI16, s, 2, 40e6,
					 NULL, &e), 0);
	uint8_t b[16];
	static const uint8_t want[8] = {0x01, 0x00, 0xFE, 0xFF, 0xFF, 0x7F, 0x00, 0x80};
	CHECK_INT("size", slurp(path("a.ci16"), b, sizeof b), 8);
	CHECK_MEM("bytes", b, want, 8);
	CHECK("no partial", !exists(path("a.ci16.partial")));
	ws_iqfile_data d;
	CHECK_INT("load", ws_iqfile_load(path("a.ci16"), WS_IQFILE_AUTO, 100, &d, &e), 0);
	CHECK_INT("count", d.count, 2);
	CHECK_INT("fmt", d.fmt, WS_IQ_FMT_CI16);
	CHECK_MEM("values", d.samples, s, 8);
	ws_iqfile_free(&d);
}

static void test_cf32_bytes(void)
{
	float f[4] = {0.5f, -1.0f, 0.25f, 2.0f};
	ws_err e;
	CHECK_INT("save", ws_iqfile_save(path("b.cf32"), WS_IQFILE_AUTO, WS_IQ_FMT_CF32, f, 2, 40e6,
					 NULL, &e), 0);
	uint8_t b[32];
	static const uint8_t want[16] = {0, 0, 0, 0x3F, 0, 0, 0x80, 0xBF,
					 0, 0, 0x80, 0x3E, 0, 0, 0, 0x40};
	CHECK_INT("size", slurp(path("b.cf32"), b, sizeof b), 16);
	CHECK_MEM("bytes", b, want, 16);
	/* ci16 samples into a cf32 file: value / 32768; and cf32 into ci16: saturated. */
	int16_t s[2] = {16384, -32768};
	CHECK_INT("save c", ws_iqfile_save(path("c.cf32"), WS_IQFILE_AUTO, WS_IQ_FMT_CI16, s, 1, 1,
					   NULL, &e), 0);
	CHECK_INT("size c", slurp(path("c.cf32"), b, sizeof b), 8);
	CHECK_MEM("c bytes", b, want, 4);
	CHECK_INT("save d", ws_iqfile_save(path("d.ci16"), WS_IQFILE_AUTO, WS_IQ_FMT_CF32, f + 2, 1,
					   1, NULL, &e), 0);
	static const uint8_t sat[4] = {0x00, 0x20, 0xFF, 0x7F};
	CHECK_INT("size d", slurp(path("d.ci16"), b, sizeof b), 4);
	CHECK_MEM("d bytes", b, sat, 4);
}

static void test_sigmf(void)
{
	int16_t s[6] = {1, 2, 3, 4, -5, -6};
	ws_err e;
	CHECK_INT("save", ws_iqfile_save(path("r.sigmf-meta"), WS_IQFILE_AUTO, WS_IQ_FMT_CI16, s,
					 3, 40e6, "WARP \"v3\"", &e), 0);
	char meta[2048] = {0};
	slurp(path("r.sigmf-meta"), (uint8_t *)meta, sizeof meta - 1);
	CHECK("datatype", strstr(meta, "\"core:datatype\": \"ci16_le\"") != NULL);
	CHECK("rate", strstr(meta, "\"core:sample_rate\": 40000000,") != NULL);
	CHECK("hw escaped", strstr(meta, "\"core:hw\": \"WARP v3\"") != NULL);
	CHECK("captures", strstr(meta, "\"core:sample_start\": 0") != NULL);
	uint8_t b[32];
	CHECK_INT("data size", slurp(path("r.sigmf-data"), b, sizeof b), 12);
	ws_iqfile_data d;
	CHECK_INT("load via data name", ws_iqfile_load(path("r.sigmf-data"), WS_IQFILE_AUTO, 3, &d,
						     &e), 0);
	CHECK_INT("count", d.count, 3);
	CHECK_MEM("values", d.samples, s, 12);
	ws_iqfile_free(&d);
	CHECK_INT("too many", ws_iqfile_load(path("r.sigmf-meta"), WS_IQFILE_AUTO, 2, &d, &e),
		  -WS_E_INVAL);
	CHECK("too many msg", strstr(e.msg, "more than the node's buffer holds") != NULL);
	spit(path("u.sigmf-meta"), "{\"global\": {\"core:datatype\" : \"ri8\"}}", 37);
	spit(path("u.sigmf-data"), "abcd", 4);
	CHECK_INT("ri8", ws_iqfile_load(path("u.sigmf-meta"), WS_IQFILE_AUTO, 9, &d, &e),
		  -WS_E_INVAL);
	CHECK("ri8 msg", strstr(e.msg, "datatype 'ri8' is not supported (cf32_le or ci16_le)") !=
				 NULL);
	spit(path("v.sigmf-meta"), "{}", 2);
	CHECK_INT("no datatype", ws_iqfile_load(path("v.sigmf-meta"), WS_IQFILE_AUTO, 9, &d, &e),
		  -WS_E_INVAL);
}

/* The metadata reader: global's member, not the name inside another string or elsewhere;
 * escapes; text without a NUL after it; values that are not a short plain string; and
 * strict JSON (issue 27): a cut object, a member given twice, text after the object, text
 * that is not JSON at all, each with its reason and byte. */
static void test_sigmf_datatype(void)
{
	char out[16];
	ws_err e;
	const char *ok = "{\"global\": {\"core:version\": \"1.0.0\", \"core:datatype\" :\n"
			 "  \"cf32_le\"}}";
	CHECK_INT("found", ws_iqfile_sigmf_datatype(ok, strlen(ok), out, sizeof out, &e), 0);
	CHECK_STR("value", out, "cf32_le");
	const char *inside = "{\"global\": {\"core:description\": \"has \\\"core:datatype\\\": "
			     "\\\"x\\\"\", \"core:datatype\": \"ci16_le\"}}";
	CHECK_INT("inside a string", ws_iqfile_sigmf_datatype(inside, strlen(inside), out,
							       sizeof out, &e), 0);
	CHECK_STR("the member's value", out, "ci16_le");
	const char *as_value = "{\"global\": {\"a\": \"core:datatype\", \"b\": 1}}";
	CHECK_INT("as a value", ws_iqfile_sigmf_datatype(as_value, strlen(as_value), out,
							  sizeof out, &e), WS_IQFILE_SIGMF_NO_DATATYPE);
	const char *outside = "{\"core:datatype\": \"ci16_le\", \"global\": {}}";
	CHECK_INT("outside global", ws_iqfile_sigmf_datatype(outside, strlen(outside), out,
							      sizeof out, &e), WS_IQFILE_SIGMF_NO_DATATYPE);
	const char *num = "{\"global\": {\"core:datatype\": 5}}";
	CHECK_INT("a number", ws_iqfile_sigmf_datatype(num, strlen(num), out, sizeof out, &e),
		  WS_IQFILE_SIGMF_BAD_DATATYPE);
	CHECK_INT("too long for out", ws_iqfile_sigmf_datatype(ok, strlen(ok), out, 7, &e),
		  WS_IQFILE_SIGMF_BAD_DATATYPE);
	CHECK_INT("an array", ws_iqfile_sigmf_datatype("[1]", 3, out, sizeof out, &e),
		  WS_IQFILE_SIGMF_NOT_OBJECT);
	static const struct {
		const char *name, *text, *why;
	} bad[] = {
		{"empty", "", "the document ends where a value was expected at byte 0"},
		{"cut in the middle", "{\"global\": {\"core:datatype\": \"ci16_le\"",
		 "expected ',' or '}' after a member at byte 38"},
		{"cut in a string", "{\"global\": {\"core:datatype\": \"ci1",
		 "a string has no closing quote at byte 33"},
		{"member twice", "{\"global\": {\"core:datatype\": \"ci16_le\", \"core:datatype\": "
		 "\"cf32_le\"}}",
		 "member name \"core:datatype\" given twice in one object at byte 40"},
		{"global twice", "{\"global\": {}, \"captures\": [], \"global\": "
		 "{\"core:datatype\": \"ci16_le\"}}",
		 "member name \"global\" given twice in one object at byte 31"},
		{"text after", "{\"global\": {\"core:datatype\": \"ci16_le\"}} {\"x\": 1}",
		 "text after the end of the document at byte 41"},
		{"not JSON", "core:datatype = ci16_le",
		 "expected a value (an object, array, string, number, true, false or null) at byte 0"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK_INT(bad[i].name, ws_iqfile_sigmf_datatype(bad[i].text, strlen(bad[i].text), out,
								sizeof out, &e),
			  WS_IQFILE_SIGMF_NOT_JSON);
		CHECK_STR(bad[i].name, e.msg, bad[i].why);
	}
	/* Through the loader: the messages users see. */
	ws_iqfile_data d;
	char want[512];
	spit(path("cut.sigmf-meta"), bad[1].text, strlen(bad[1].text));
	spit(path("cut.sigmf-data"), "abcd", 4);
	CHECK_INT("cut file", ws_iqfile_load(path("cut.sigmf-meta"), WS_IQFILE_AUTO, 9, &d, &e),
		  -WS_E_INVAL);
	snprintf(want, sizeof want, "SigMF metadata '%s' is not JSON: expected ',' or '}' after "
		 "a member at byte 38", path("cut.sigmf-meta"));
	CHECK_STR("cut file msg", e.msg, want);
	spit(path("txt.sigmf-meta"), "hello", 5);
	spit(path("txt.sigmf-data"), "abcd", 4);
	CHECK_INT("text file", ws_iqfile_load(path("txt.sigmf-meta"), WS_IQFILE_AUTO, 9, &d, &e),
		  -WS_E_INVAL);
	snprintf(want, sizeof want, "SigMF metadata '%s' is not JSON: expected a value (an "
		 "object, array, string, number, true, false or null) at byte 0",
		 path("txt.sigmf-meta"));
	CHECK_STR("text file msg", e.msg, want);
	spit(path("nd.sigmf-meta"), "{\"global\": {}}", 14);
	spit(path("nd.sigmf-data"), "abcd", 4);
	CHECK_INT("no datatype", ws_iqfile_load(path("nd.sigmf-meta"), WS_IQFILE_AUTO, 9, &d, &e),
		  -WS_E_INVAL);
	snprintf(want, sizeof want, "SigMF metadata '%s' has no \"core:datatype\" string in its "
		 "\"global\" object", path("nd.sigmf-meta"));
	CHECK_STR("no datatype msg", e.msg, want);
}

static void test_refusals(void)
{
	ws_iqfile_data d;
	ws_err e;
	spit(path("odd.ci16"), "abcdef", 6);
	CHECK_INT("odd", ws_iqfile_load(path("odd.ci16"), WS_IQFILE_AUTO, 100, &d, &e), -WS_E_INVAL);
	CHECK("odd msg", strstr(e.msg, "has 6 bytes: not a whole number of ci16 samples (4 bytes "
				       "each); wrong --format?") != NULL);
	spit(path("twelve.bin"), "abcdefghijkl", 12);
	CHECK_INT("no kind", ws_iqfile_load(path("twelve.bin"), WS_IQFILE_AUTO, 100, &d, &e),
		  -WS_E_INVAL);
	CHECK("no kind msg", strstr(e.msg, "give --format") != NULL);
	CHECK_INT("as cf32", ws_iqfile_load(path("twelve.bin"), WS_IQFILE_CF32, 100, &d, &e),
		  -WS_E_INVAL);
	CHECK_INT("as ci16", ws_iqfile_load(path("twelve.bin"), WS_IQFILE_CI16, 100, &d, &e), 0);
	CHECK_INT("3 samples", d.count, 3);
	ws_iqfile_free(&d);
	spit(path("empty.cf32"), "", 0);
	CHECK_INT("empty", ws_iqfile_load(path("empty.cf32"), WS_IQFILE_AUTO, 100, &d, &e),
		  -WS_E_INVAL);
	CHECK("missing", ws_iqfile_load(path("nope.cf32"), WS_IQFILE_AUTO, 100, &d, &e) < 0);
	int16_t s[2] = {0};
	CHECK("unwritable", ws_iqfile_save("/nonexistent-dir/x.ci16", WS_IQFILE_AUTO,
					   WS_IQ_FMT_CI16, s, 1, 1, NULL, &e) < 0);
	CHECK("nothing left", !exists("/nonexistent-dir/x.ci16.partial"));
	/* A FIFO with no writer: refused at once (it used to block in open()). */
	char want[512];
	CHECK_INT("fifo", mkfifo(path("f.ci16"), 0600), 0);
	CHECK_INT("fifo load", ws_iqfile_load(path("f.ci16"), WS_IQFILE_AUTO, 100, &d, &e),
		  -WS_E_INVAL);
	snprintf(want, sizeof want, "IQ file '%s' is a FIFO: warpspeed reads regular files only "
		 "(their size is checked before they are read)", path("f.ci16"));
	CHECK_STR("fifo msg", e.msg, want);
	CHECK_INT("fifo check", ws_iqfile_check_input(path("f.ci16"), WS_IQFILE_AUTO, &e),
		  -WS_E_INVAL);
	CHECK_STR("fifo check msg", e.msg, want);
}

int main(void)
{
	snprintf(dir, sizeof dir, "/tmp/ws-iqfile.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	RUN(test_kinds);
	RUN(test_ci16_bytes);
	RUN(test_cf32_bytes);
	RUN(test_sigmf);
	RUN(test_sigmf_datatype);
	RUN(test_refusals);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("  could not remove %s\n", dir);
	TEST_MAIN_END();
}
