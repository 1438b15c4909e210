/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit test of ws_version(): the version the library was built as, which the Python module
 * checks against the soname it loads and which -V, JSON and peer_software also carry: the
 * release of version.h (its three numbers) and, when the build had a git description,
 * "+" and that description, the same string as WS_VERSION. */
#include "harness.h"

#include <warpspeed/version.h>

#include <stdio.h>
#include <string.h>

static void test_version(void)
{
	char want[32];
	snprintf(want, sizeof want, "%d.%d.%d", WARPSPEED_VERSION_MAJOR, WARPSPEED_VERSION_MINOR,
		 WARPSPEED_VERSION_PATCH);
	CHECK_STR("release", want, WARPSPEED_VERSION_STRING);
	const char *v = ws_version();
	size_t n = strlen(want);
	CHECK("starts with the release", strncmp(v, want, n) == 0);
	CHECK("then nothing or +description", v[n] == '\0' || (v[n] == '+' && v[n + 1] != '\0'));
#ifdef WS_VERSION
	CHECK_STR("the build's version", v, WS_VERSION);
#endif
}

int main(void)
{
	RUN(test_version);
	TEST_MAIN_END();
}
