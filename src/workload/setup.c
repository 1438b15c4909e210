/* SPDX-License-Identifier: BSD-2-Clause */
/* setup: what a side sets up before its run; see setup.h. */
#include "workload/setup.h"

#include "net/sockopt.h"
#include "util/clock.h"
#include "util/err.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* UDP receivers of --flow-control or --pace ask for this much when the user did not:
 * enough for a loopback run that keeps to the window. */
#define UDP_DEFAULT_RCVBUF (8u << 20)
#define UDP_DEFAULT_SNDBUF (1u << 20)

void ws_workload_buffers(const ws_test_spec *spec, bool is_client, uint32_t *sndbuf,
			 uint32_t *rcvbuf, int *force)
{
	const ws_side_spec *me = is_client ? &spec->local : &spec->remote;
	*sndbuf = me->sndbuf;
	*rcvbuf = me->rcvbuf;
	*force = 0;
	/* RR sockets hold a few requests at most: the system defaults, as netperf. And netperf's
	 * UDP_STREAM blasts on the system's default buffers, so its rows line up with netperf's;
	 * only the opt-in sending modes get the large ones they are tuned for. */
	if (!ws_test_type_udp(spec->type) || ws_test_type_transacts(spec->type) ||
	    !(spec->udp_flow_control || spec->udp_pace_bps > 0))
		return;
	enum ws_role role = ws_test_type_role(spec->type, is_client);
	if (role == WS_ROLE_RECEIVER && !*rcvbuf) {
		*rcvbuf = UDP_DEFAULT_RCVBUF;
		*force = 1;
	}
	if (role == WS_ROLE_SENDER && !*sndbuf) {
		*sndbuf = UDP_DEFAULT_SNDBUF;
		*force = 1;
	}
}

void ws_workload_sockopts(const ws_test_spec *spec, bool is_client, ws_sockopt_req *r)
{
	const ws_side_spec *me = is_client ? &spec->local : &spec->remote;
	bool sends = !ws_test_type_stream(spec->type) ||
		ws_test_type_role(spec->type, is_client) == WS_ROLE_SENDER;
	*r = (ws_sockopt_req){
		.tos = me->tos,
		.priority = me->priority,
		.cong = me->cong,
		.tcp = !ws_test_type_udp(spec->type),
	};
	r->keepalive = r->tcp && spec->keepalive;
	r->cork = r->tcp && spec->cork && sends;
	r->maxseg = r->tcp && is_client ? spec->maxseg : 0;
	/* UDP_STREAM's sender keeps its own SO_DONTROUTE (workload/udp_tx.c) */
	r->dontroute = spec->dontroute && spec->type != WS_TEST_UDP_STREAM;
}

/* TCP_SENDFILE's source: the -F file, or a temporary file of pseudo-random bytes that is
 * unlinked at once (so nothing is left behind even if the process dies). */
#define SENDFILE_TEMP_SIZE (16u << 20)

int ws_workload_open_fill(const ws_test_spec *spec, ws_err *err)
{
	if (spec->fill_file[0]) {
		/* TCP_SENDFILE sends the file itself, so it must have a size; a fill source only
		 * fills the buffers, so a device (/dev/urandom) or a pipe does, as in netperf. */
		bool sendfile = spec->type == WS_TEST_TCP_SENDFILE;
		const char *what =
			sendfile ? "the file to send" : "the file that fills the buffers";
		int fd = open(spec->fill_file, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return ws_err_errno(err, "cannot open %s (-F %s)", what, spec->fill_file);
		struct stat st;
		if (fstat(fd, &st) < 0) {
			int rc = ws_err_errno(err, "cannot stat %s (-F %s)", what, spec->fill_file);
			close(fd);
			return rc;
		}
		bool source = S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
		if ((!S_ISREG(st.st_mode) && (sendfile || !source)) ||
		    (S_ISREG(st.st_mode) && st.st_size == 0)) {
			close(fd);
			return ws_err_set(
				err, WS_E_INVAL, "the file %s (-F %s) is %s; expected %s",
				sendfile ? "to send" : "that fills the buffers", spec->fill_file,
				S_ISREG(st.st_mode)                        ? "empty"
					: S_ISDIR(st.st_mode) && !sendfile ? "a directory"
									   : "not a regular file",
				sendfile ? "a regular, non-empty file"
					 : "a non-empty file, a device such as /dev/urandom or a "
					   "pipe");
		}
		return fd;
	}
	const char *dir = getenv("TMPDIR");
	char path[512];
	snprintf(path, sizeof(path), "%s/warpspeed-sendfile.XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0)
		return ws_err_errno(err, "cannot create a temporary file to send in %s", path);
	unlink(path);
	uint64_t x = (uint64_t)ws_clock_ns() | 1;
	uint64_t block[8192];
	for (size_t done = 0; done < SENDFILE_TEMP_SIZE; done += sizeof(block)) {
		for (size_t i = 0; i < sizeof(block) / sizeof(block[0]); i++) {
			x ^= x << 13; /* xorshift64: cheap bytes that do not compress */
			x ^= x >> 7;
			x ^= x << 17;
			block[i] = x;
		}
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block)) {
			int rc = ws_err_errno(err, "cannot write the temporary file to send");
			close(fd);
			return rc;
		}
	}
	return fd;
}
