/* SPDX-License-Identifier: BSD-2-Clause */
/* test_features: the fast-path table's names, bounds and list formatting. Which entries
 * are built depends on the toolchain, so the list is checked against the table itself. */
#include "harness.h"

#include "util/features.h"

#include <string.h>

static void names_and_bounds(void)
{
	const char *n = "names_and_bounds";
	CHECK_STR(n, ws_features_name(WS_FEAT_SENDMMSG), "sendmmsg");
	CHECK_STR(n, ws_features_name(WS_FEAT_UDP_SEGMENT), "UDP_SEGMENT");
	CHECK_STR(n, ws_features_name(WS_FEAT_TCP_INFO), "TCP_INFO");
	CHECK(n, ws_features_name(WS_FEAT_COUNT) == NULL);
	CHECK(n, ws_features_name((enum ws_feature)-1) == NULL);
	CHECK(n, !ws_features_built(WS_FEAT_COUNT));
#ifdef __linux__
	/* Every Linux C library this project supports has TCP_INFO. */
	CHECK(n, ws_features_built(WS_FEAT_TCP_INFO));
#endif
}

static void list_matches_table(void)
{
	const char *n = "list_matches_table";
	char want[256] = "", got[256];
	for (int f = 0; f < WS_FEAT_COUNT; f++) {
		if (!ws_features_built((enum ws_feature)f))
			continue;
		if (want[0])
			strcat(want, " ");
		strcat(want, ws_features_name((enum ws_feature)f));
	}
	if (!want[0])
		strcpy(want, "none");
	size_t len = ws_features_list(got, sizeof(got));
	CHECK_STR(n, got, want);
	CHECK_INT(n, len, strlen(want));
	/* Truncated: terminated, and the full length still reported. */
	char small[5];
	CHECK_INT(n, ws_features_list(small, sizeof(small)), strlen(want));
	CHECK_INT(n, strlen(small), strlen(want) < 4 ? strlen(want) : 4);
	CHECK(n, strncmp(small, want, strlen(small)) == 0);
	CHECK_INT(n, ws_features_list(NULL, 0), strlen(want));
}

static void probe_gso(void)
{
	const char *n = "probe_gso";
	int r = ws_features_probe_udp_gso();
	CHECK(n, r >= -1 && r <= 1);
	if (!ws_features_built(WS_FEAT_UDP_SEGMENT))
		CHECK_INT(n, r, 0);
#if defined(__linux__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* Kernels since 4.18 segment on loopback. Big-endian builds are exempt: under
	 * qemu-user (how they are tested) the probe rightly answers 0. */
	else
		CHECK_INT(n, r, 1);
#endif
	/* The same answer twice: the probe leaves nothing behind that changes it. */
	CHECK_INT(n, ws_features_probe_udp_gso(), r);
	printf("  (UDP GSO probe here: %d)\n", r);
}

static void kernel_release(void)
{
	CHECK("release", ws_features_release_at_least("6.18.44-fc-v669", 5, 0));
	CHECK("release", ws_features_release_at_least("5.0.0", 5, 0));
	CHECK("release", ws_features_release_at_least("5.10", 5, 0));
	CHECK("release", !ws_features_release_at_least("4.19.94-ti-r42", 5, 0));
	CHECK("release", !ws_features_release_at_least("4.9", 4, 18));
	CHECK("release", ws_features_release_at_least("4.18.0", 4, 18));
	CHECK("release", !ws_features_release_at_least("3.99", 4, 0));
	CHECK("release", !ws_features_release_at_least("", 5, 0));
	CHECK("release", !ws_features_release_at_least("6", 5, 0));
	CHECK("release", !ws_features_release_at_least("x.y", 0, 0));
	CHECK("release", !ws_features_release_at_least("6.", 5, 0));
}

int main(void)
{
	RUN(names_and_bounds);
	RUN(list_matches_table);
	RUN(probe_gso);
	RUN(kernel_release);
	TEST_MAIN_END();
}
