/* test_workload: the engine-independent choices of workload/run, with exact values. */
#include "harness.h"

#include "util/err.h"
#include "workload/run.h"
#include "workload/stream.h"

#include <fcntl.h>
#include <pthread.h>
#include <sys/socket.h>
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

struct send_arg {
	ws_stream_params p;
	ws_stream_counts c;
	ws_err err;
	int rc;
};

static void *sender(void *v)
{
	struct send_arg *a = v;
	a->rc = ws_stream_send(&a->p, &a->c, &a->err);
	return NULL;
}

/* -F with TCP_STREAM: the bytes on the connection are the file's, repeated. */
static void test_send_fills_from_file(void)
{
	uint8_t file[1000];
	for (size_t i = 0; i < sizeof(file); i++)
		file[i] = (uint8_t)(i * 13 + 5);
	int ffd = temp_file((const char *)file, sizeof(file));
	int sv[2];
	CHECK("fill fd", ffd >= 0);
	CHECK_INT("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	struct send_arg a = {.p = {.fd = sv[0], .send_size = 4096, .end = WS_END_BYTES,
				   .byte_limit = 10000, .stall_ns = 5000000000LL, .tx = WS_TX_SEND,
				   .file_fd = ffd}};
	pthread_t t;
	pthread_create(&t, NULL, sender, &a);
	uint8_t got[10000];
	size_t n = 0;
	while (n < sizeof(got)) {
		ssize_t r = recv(sv[1], got + n, sizeof(got) - n, 0);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(sv[1]); /* the sender's drain sees EOF */
	pthread_join(t, NULL);
	CHECK_U64("bytes", n, 10000);
	/* Each 4096-byte send is the file from its start, repeated: offset i of a send is
	 * file[i % 1000]. */
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += got[i] != file[(i % 4096) % sizeof(file)];
	CHECK_U64("bytes not from the file", bad, 0);
	CHECK_INT("sender rc", a.rc, 0);
	CHECK_U64("sent", a.c.bytes_sent, 10000);
	close(sv[0]);
	close(ffd);
}

int main(void)
{
	RUN(test_rcvlowat);
	RUN(test_fill_from_file);
	RUN(test_send_fills_from_file);
	TEST_MAIN_END();
}
