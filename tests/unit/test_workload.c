/* test_workload: the engine-independent choices of workload/run, with exact values. */
#include "harness.h"

#include "workload/run.h"
#include "workload/stream.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A temporary file holding `len` bytes of `data`; returns an open fd (already unlinked). */
static int temp_file(const char *data, size_t len)
{
	char path[] = "/tmp/ws-test-fill.XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	if (len && write(fd, data, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return fd;
}

static void test_fill_from_file(void)
{
	char buf[16];
	int fd = temp_file("abc", 3);
	CHECK("fill", fd >= 0);
	memset(buf, 0, sizeof(buf));
	CHECK_INT("fill", ws_stream_fill_from_file(buf, 8, fd), 0);
	CHECK_MEM("fill", buf, "abcabcab\0", 9); /* repeated, and nothing past n */
	CHECK_INT("fill", ws_stream_fill_from_file(buf, 1, fd), 0);
	CHECK_MEM("fill", buf, "a", 1);
	close(fd);
	fd = temp_file("0123456789abcdefXYZ", 19); /* longer than the buffer: its start */
	CHECK_INT("fill", ws_stream_fill_from_file(buf, 16, fd), 0);
	CHECK_MEM("fill", buf, "0123456789abcdef", 16);
	close(fd);
	fd = temp_file("", 0);
	CHECK_INT("fill_empty", ws_stream_fill_from_file(buf, 4, fd), -1);
	close(fd);
	CHECK_INT("fill_badfd", ws_stream_fill_from_file(buf, 4, -1), -1);
}

static void test_rcvlowat(void)
{
	/* Automatic: one receive size, at most 512 KiB. */
	CHECK_U64("auto", ws_workload_rcvlowat(0, 131072), 131072);
	CHECK_U64("auto", ws_workload_rcvlowat(0, 1024), 1024);
	CHECK_U64("auto", ws_workload_rcvlowat(0, 524288), 524288);
	CHECK_U64("auto", ws_workload_rcvlowat(0, 524289), 524288);
	CHECK_U64("auto", ws_workload_rcvlowat(0, 4u << 20), 524288); /* --skip-rx-copy's 4 MiB */
	CHECK_U64("auto", ws_workload_rcvlowat(0, 1u << 30), 524288);
	CHECK_U64("auto", ws_workload_rcvlowat(0, 1), 1);
	/* Asked for: used as given, 1 being the kernel's own default. */
	CHECK_U64("asked", ws_workload_rcvlowat(1, 131072), 1);
	CHECK_U64("asked", ws_workload_rcvlowat(3u << 20, 1024), 3u << 20);
}

int main(void)
{
	RUN(test_rcvlowat);
	RUN(test_fill_from_file);
	TEST_MAIN_END();
}
