/* test_workload: the engine-independent choices of workload/run, with exact values. */
#include "harness.h"

#include "workload/run.h"

static void test_rcvlowat(void)
{
	/* Automatic: four receive calls' worth, at most 512 KiB. */
	CHECK_U64("auto", ws_workload_rcvlowat(0, 131072), 524288);
	CHECK_U64("auto", ws_workload_rcvlowat(0, 1024), 4096);
	CHECK_U64("auto", ws_workload_rcvlowat(0, 131073), 524288);
	CHECK_U64("auto", ws_workload_rcvlowat(0, 4u << 20), 524288); /* --skip-rx-copy's 4 MiB */
	CHECK_U64("auto", ws_workload_rcvlowat(0, 1u << 30), 524288); /* no 32-bit overflow */
	CHECK_U64("auto", ws_workload_rcvlowat(0, 1), 4);
	/* Asked for: used as given, 1 being the kernel's own default. */
	CHECK_U64("asked", ws_workload_rcvlowat(1, 131072), 1);
	CHECK_U64("asked", ws_workload_rcvlowat(3u << 20, 1024), 3u << 20);
}

int main(void)
{
	RUN(test_rcvlowat);
	TEST_MAIN_END();
}
