/* SPDX-License-Identifier: BSD-2-Clause */
/* test_echoports: RRUL's probe ports in TEST_ACK across versions, without an old build.
 * The daemon names one echo socket per UDP probe and the client reads them back in order;
 * a TEST_ACK with one port (a daemon from before the echo thread per probe) sends all
 * three UDP probes to it and every series gets its samples, against the real echo of
 * ws_lul_serve_run; none, four or a bad port is refused with a message naming it; and the
 * daemon's first echo socket alone answers an older client's datagrams for every probe,
 * byte for byte (the wire as that client sends it: "WSLP", sequence, tag), tag and
 * sequence kept and each mark written back; and it answers nothing but the client's
 * probes. All on loopback. */
#include "harness.h"
#include "lul_bed.h"
#include "tlv_frame.h"

#include "ctl/msg.h"
#include "model/lul.h"
#include "net/addr.h"
#include "session/echoports.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/lul_load.h"
#include "workload/lul_probe.h"
#include "workload/lul_serve.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void loopback(ws_addr *a, uint16_t port)
{
	struct sockaddr_in in = {.sin_family = AF_INET,
				 .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	memset(a, 0, sizeof(*a));
	memcpy(&a->ss, &in, sizeof(in));
	a->len = sizeof(in);
}

/* A UDP socket on 127.0.0.1, any port. */
static int udp_bound(void)
{
	ws_addr a;
	loopback(&a, 0);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a.ss, a.len) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static uint16_t port_of(int fd)
{
	struct sockaddr_in in;
	socklen_t l = sizeof(in);
	getsockname(fd, (struct sockaddr *)&in, &l);
	return ntohs(in.sin_port);
}

/* The daemon's side of an RRUL run with no load flows: fds[0] the TCP probe's accepted
 * connection, fds[1..3] the echo sockets; it ends when the client closes the probe. */
struct daemon {
	int fds[1 + WS_LUL_UDP_PROBES];
	int client_probe;
	ws_test_spec spec;
	ws_side_result res;
	int rc;
	pthread_t t;
};

static void *daemon_main(void *arg)
{
	struct daemon *d = arg;
	ws_err e;
	d->rc = ws_lul_serve_run(&d->spec, d->fds, 1 + WS_LUL_UDP_PROBES, 0, &d->res, &e);
	return NULL;
}

/* Start it: the TCP probe's connection over loopback, greeted as the client does. */
static int daemon_start(struct daemon *d)
{
	memset(d, 0, sizeof(*d));
	ws_test_spec_init(&d->spec);
	d->spec.type = WS_TEST_RRUL;
	ws_addr a;
	loopback(&a, 0);
	int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	socklen_t al = a.len;
	if (l < 0 || bind(l, (struct sockaddr *)&a.ss, a.len) < 0 || listen(l, 1) < 0 ||
	    getsockname(l, (struct sockaddr *)&a.ss, &al) < 0)
		return -1;
	d->client_probe = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (connect(d->client_probe, (struct sockaddr *)&a.ss, a.len) < 0)
		return -1;
	d->fds[0] = accept(l, NULL, NULL);
	close(l);
	for (int i = 1; i <= WS_LUL_UDP_PROBES; i++)
		d->fds[i] = udp_bound();
	if (pthread_create(&d->t, NULL, daemon_main, d) != 0)
		return -1;
	int tl, tr;
	ws_err e;
	return ws_lul_greet(d->client_probe, WS_LUL_ROLE_PROBE, 0, 0, &tl, &tr, &e);
}

/* The client closes the TCP probe: the run is over and the daemon's echo ends. */
static void daemon_stop(struct daemon *d)
{
	close(d->client_probe);
	pthread_join(d->t, NULL);
	for (int i = 0; i <= WS_LUL_UDP_PROBES; i++)
		close(d->fds[i]);
	ws_side_result_free(&d->res);
}

/* The daemon names its three echo sockets in order; the client reads them back. */
static void three_ports(void)
{
	const char *n = "three_ports";
	int fds[WS_LUL_UDP_PROBES];
	for (int i = 0; i < WS_LUL_UDP_PROBES; i++)
		fds[i] = udp_bound();
	ws_tlv_writer w = {0};
	ws_tlv_msg m;
	ws_err e;
	ws_tlv_begin(&w, WS_MSG_TEST_ACK);
	ws_tlv_put_u64(&w, WS_F_DATA_PORT, 5001);
	ws_echoports_put(&w, fds, WS_LUL_UDP_PROBES);
	CHECK_INT(n, as_msg(&w, &m, &e), 0);
	ws_addr peer;
	loopback(&peer, 9);
	ws_lul_echo echo;
	CHECK_INT(n, ws_echoports_get(&m, &peer, "RRUL", &echo, &e), 0);
	CHECK_INT(n, echo.n, 3);
	for (int i = 0; i < WS_LUL_UDP_PROBES; i++)
		CHECK_INT(n, echo.port[i], port_of(fds[i]));
	CHECK(n, echo.port[0] != echo.port[1] && echo.port[1] != echo.port[2]);
	CHECK_INT(n, ws_addr_port(&echo.addr), 9);
	for (int i = 0; i < WS_LUL_UDP_PROBES; i++)
		close(fds[i]);
	ws_tlv_writer_free(&w);
}

/* get with n ports (values from ports[]); returns its result, the message in e. */
static int get_n(const uint64_t *ports, int np, ws_lul_echo *echo, ws_err *e)
{
	ws_tlv_writer w = {0};
	ws_tlv_msg m;
	ws_tlv_begin(&w, WS_MSG_TEST_ACK);
	for (int i = 0; i < np; i++)
		ws_tlv_put_u64(&w, WS_F_PROBE_PORT, ports[i]);
	ws_addr peer;
	loopback(&peer, 0);
	int rc = as_msg(&w, &m, e);
	if (rc == 0)
		rc = ws_echoports_get(&m, &peer, "RRUL", echo, e);
	ws_tlv_writer_free(&w);
	return rc;
}

/* None, four, or a field that is no port: refused, the count and the range named. */
static void refusals(void)
{
	const char *n = "refusals";
	uint64_t p[] = {5001, 5002, 5003, 5004};
	ws_lul_echo echo;
	ws_err e;
	CHECK_INT(n, get_n(p, 0, &echo, &e), -WS_E_PROTO);
	CHECK_STR(n, e.msg,
		  "the daemon's TEST_ACK of RRUL has 0 probe ports (field 13); expected 1 (one "
		  "echo for all UDP probes) to 3 (one per UDP probe)");
	CHECK_INT(n, get_n(p, 4, &echo, &e), -WS_E_PROTO);
	CHECK_STR(n, e.msg,
		  "the daemon's TEST_ACK of RRUL has 4 probe ports (field 13); expected 1 (one "
		  "echo for all UDP probes) to 3 (one per UDP probe)");
	uint64_t bad[] = {5001, 70000};
	CHECK_INT(n, get_n(bad, 2, &echo, &e), -WS_E_PROTO);
	CHECK_STR(n, e.msg,
		  "the daemon's TEST_ACK of RRUL has a probe port (field 13) that is not a port "
		  "from 1 to 65535, or more than 64 of them");
	CHECK_INT(n, get_n(p, 2, &echo, &e), 0);
	CHECK_INT(n, echo.n, 2);
}

/* A new client and a daemon that names one echo port: the three UDP probes all go to
 * it, and the daemon's echo (ws_lul_serve_run) answers each: 15 rounds of 20 ms, every
 * one answered, each probe's mark seen, 45 datagrams echoed. */
static void one_port(void)
{
	const char *n = "one_port";
	struct daemon d;
	CHECK_INT(n, daemon_start(&d), 0);
	uint64_t only = port_of(d.fds[1]); /* as an older daemon: one for all */
	ws_lul_echo echo;
	ws_err e;
	CHECK_INT(n, get_n(&only, 1, &echo, &e), 0);
	CHECK_INT(n, echo.n, 1);
	ws_test_spec s;
	ws_test_spec_init(&s);
	s.type = WS_TEST_RRUL;
	s.lul_probes = WS_LUL_UDP;
	s.lul_interval_s = 0.02;
	static ws_lul_result out;
	memset(&out, 0, sizeof(out));
	CHECK_INT(n, ws_lul_plan_make(&s, 0, &out.plan, &e), 0);
	uint32_t first = out.plan.nup + out.plan.ndown;
	lul_bed_series(&out);
	ws_lul_probes ps;
	int rc = ws_lul_probes_open(&ps, &out.plan, &out, -1, &echo, &e);
	CHECK_INT(n, rc, 0);
	CHECK_INT(n, out.echo_sockets, 1);
	if (rc == 0) {
		lul_bed_run(&ps, 300 * WS_NS_PER_MS);
		CHECK_STR(n, ps.why, "");
	}
	daemon_stop(&d);
	CHECK_INT(n, d.rc, 0);
	CHECK_INT(n, out.plan.nprobes, 3);
	for (uint32_t i = first; i < first + out.plan.nprobes; i++) {
		const ws_series *sr = &out.set.s[i];
		CHECK_INT(n, sr->n, 15);
		CHECK_INT(n, sr->lost, 0);
		CHECK_INT(n, out.tos_remote[i], out.plan.item[i].tos);
	}
	CHECK_INT(n, out.plan.item[first + 2].tos, 0xb8); /* the marks differ: EF last */
	CHECK_U64(n, d.res.transactions, 45);
	ws_series_free(&out.set);
}

/* An older client and this daemon: the older client reads only the first probe port
 * and sends every probe there, each from its own marked socket with its plan index as
 * the tag. The first echo socket answers them all: magic, sequence and tag as sent, the
 * mark it saw in byte 9. */
static void first_socket_answers_all(void)
{
	const char *n = "first_socket_answers_all";
	struct daemon d;
	CHECK_INT(n, daemon_start(&d), 0);
	static const int marks[WS_LUL_UDP_PROBES] = {0x00, 0x20, 0xb8}; /* BE, BK, EF */
	int c[WS_LUL_UDP_PROBES];
	ws_addr to;
	loopback(&to, port_of(d.fds[1]));
	for (int i = 0; i < WS_LUL_UDP_PROBES; i++) {
		c[i] = udp_bound();
		setsockopt(c[i], IPPROTO_IP, IP_TOS, &marks[i], sizeof(marks[i]));
		CHECK_INT(n, connect(c[i], (struct sockaddr *)&to.ss, to.len), 0);
	}
	int answered = 0;
	for (uint32_t seq = 0; seq < 5; seq++)
		for (int i = 0; i < WS_LUL_UDP_PROBES; i++) {
			unsigned char q[12] = {'W', 'S', 'L', 'P'}, r[64];
			uint32_t be = htonl(seq);
			memcpy(q + 4, &be, 4);
			q[8] = (unsigned char)(8 + i); /* the probes' plan indexes */
			CHECK_INT(n, send(c[i], q, sizeof(q), 0), 12);
			struct pollfd pf = {.fd = c[i], .events = POLLIN};
			ssize_t got = poll(&pf, 1, 1000) == 1 ? recv(c[i], r, sizeof(r), 0) : -1;
			CHECK_INT(n, got, 12);
			if (got != 12)
				continue;
			CHECK_MEM(n, r, q, 9);
			CHECK_INT(n, r[9], marks[i]);
			answered++;
		}
	CHECK_INT(n, answered, 15);
	for (int i = 0; i < WS_LUL_UDP_PROBES; i++)
		close(c[i]);
	daemon_stop(&d);
	CHECK_INT(n, d.rc, 0);
	CHECK_U64(n, d.res.transactions, 15);
}

static void addr_of(ws_addr *a, const char *text)
{
	memset(a, 0, sizeof(*a));
	struct sockaddr_in *in = (struct sockaddr_in *)&a->ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&a->ss;
	if (inet_pton(AF_INET, text, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		a->len = sizeof(*in);
	} else if (inet_pton(AF_INET6, text, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		a->len = sizeof(*in6);
	}
}

/* The echo answers the client's probes only: the address rule (ws_addr_same_host, ports
 * not compared, a v4-mapped address is its IPv4 one, loopback is one host), and on the
 * real echo, datagrams from the client that are not probes (size, magic) are refused,
 * counted in bad_dgrams, and a probe after them still comes back. */
static void client_only(void)
{
	const char *n = "client_only";
	static const struct {
		const char *a, *b;
		int same;
	} hosts[] = {
		{"198.18.0.1", "198.18.0.1", 1},     {"198.18.0.1", "198.18.0.2", 0},
		{"::ffff:198.18.0.1", "198.18.0.1", 1}, {"::ffff:198.18.0.3", "198.18.0.1", 0},
		{"2001:db8::1", "2001:db8::1", 1},   {"2001:db8::1", "2001:db8::2", 0},
		{"127.0.0.1", "::1", 1},             {"127.0.0.2", "127.0.0.1", 1},
		{"127.0.0.1", "198.18.0.1", 0},      {"2001:db8::1", "198.18.0.1", 0},
	};
	for (size_t i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++) {
		ws_addr a, b;
		addr_of(&a, hosts[i].a);
		addr_of(&b, hosts[i].b);
		ws_addr_set_port(&a, 1000);
		ws_addr_set_port(&b, 2000);
		CHECK_INT(hosts[i].a, ws_addr_same_host(&a, &b), hosts[i].same);
	}
	struct daemon d;
	CHECK_INT(n, daemon_start(&d), 0);
	ws_addr to;
	loopback(&to, port_of(d.fds[1]));
	int c = udp_bound();
	CHECK_INT(n, connect(c, (struct sockaddr *)&to.ss, to.len), 0);
	unsigned char probe[12] = {'W', 'S', 'L', 'P'}, big[64] = {'W', 'S', 'L', 'P'}, r[64];
	unsigned char bad[12] = {'W', 'S', 'L', 'Q'};
	CHECK_INT(n, send(c, big, 13, 0), 13);
	CHECK_INT(n, send(c, bad, sizeof(bad), 0), 12);
	CHECK_INT(n, send(c, big, sizeof(big), 0), 64);
	CHECK_INT(n, send(c, probe, 11, 0), 11);
	CHECK_INT(n, send(c, probe, sizeof(probe), 0), 12);
	struct pollfd pf = {.fd = c, .events = POLLIN};
	ssize_t got = poll(&pf, 1, 1000) == 1 ? recv(c, r, sizeof(r), 0) : -1;
	CHECK_INT(n, got, 12); /* the probe, and nothing before it */
	CHECK_MEM(n, r, probe, 9);
	CHECK_INT(n, poll(&pf, 1, 100), 0);
	close(c);
	daemon_stop(&d);
	CHECK_INT(n, d.rc, 0);
	CHECK_U64(n, d.res.transactions, 1);
	CHECK_U64(n, d.res.bad_dgrams, 4);
}

int main(void)
{
	RUN(three_ports);
	RUN(refusals);
	RUN(one_port);
	RUN(first_socket_answers_all);
	RUN(client_only);
	TEST_MAIN_END();
}
