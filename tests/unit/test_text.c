/* SPDX-License-Identifier: BSD-2-Clause */
/* test_text: peer strings cleaned for printing (util/text.h). */
#include "harness.h"

#include "util/text.h"

static void test_clean(void)
{
	char a[] = "b\x1b[31m\x07\n\"x,y\\z\x7f\xc3\xa9";
	CHECK_INT("replaced", (int)ws_text_clean(a, true), 9);
	CHECK_STR("field", a, "b?[31m???x?y?z???");
	char b[] = "said \"no\", twice\r\n";
	CHECK_INT("prose", (int)ws_text_clean(b, false), 2);
	CHECK_STR("prose keeps quotes and commas", b, "said \"no\", twice??");
	char c[] = "cubic";
	CHECK_INT("clean already", (int)ws_text_clean(c, true), 0);
	CHECK_INT("NULL", (int)ws_text_clean(NULL, true), 0);
}

int main(void)
{
	RUN(test_clean);
	TEST_MAIN_END();
}
