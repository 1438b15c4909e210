/* Unit test of ws_version(): the release the library was built as, which the Python module
 * checks against the soname it loads, equals version.h's string and its three numbers. */
#include "harness.h"

#include <warpspeed/version.h>

#include <stdio.h>

static void test_version(void)
{
	CHECK_STR("string", ws_version(), WARPSPEED_VERSION_STRING);
	char want[32];
	snprintf(want, sizeof want, "%d.%d.%d", WARPSPEED_VERSION_MAJOR, WARPSPEED_VERSION_MINOR,
		 WARPSPEED_VERSION_PATCH);
	CHECK_STR("numbers", ws_version(), want);
}

int main(void)
{
	RUN(test_version);
	TEST_MAIN_END();
}
