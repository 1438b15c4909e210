/* SPDX-License-Identifier: BSD-2-Clause */
/* test_mesh_endpoint: a rank's data address (the --bind-addr template, an interface's
 * address) and the checks of an endpoint record received from another rank. */
#include "harness.h"

#include "mesh/endpoint.h"
#include "util/err.h"

#include <errno.h>

static void test_template(void)
{
	char a[WS_MESH_ADDR_MAX];
	ws_err err;
	CHECK_INT("rank 0", ws_mesh_addr_template("127.0.0.%r", 0, a, sizeof(a), &err), 0);
	CHECK_STR("rank 0", a, "127.0.0.1");
	CHECK_INT("rank 41", ws_mesh_addr_template("10.%r.%r.9", 41, a, sizeof(a), &err), 0);
	CHECK_STR("rank 41", a, "10.42.42.9");
	CHECK_INT("percent", ws_mesh_addr_template("fe80::%r%%eth0", 2, a, sizeof(a), &err), 0);
	CHECK_STR("percent", a, "fe80::3%eth0");
	CHECK_INT("plain", ws_mesh_addr_template("host7", 5, a, sizeof(a), &err), 0);
	CHECK_STR("plain", a, "host7");
	CHECK_INT("bad", ws_mesh_addr_template("10.0.0.%d", 0, a, sizeof(a), &err), -WS_E_INVAL);
	CHECK_STR("bad", err.msg, "--bind-addr '10.0.0.%d': '%d' is not a substitution; expected %r (the rank + 1) or %%");
	CHECK_INT("trailing", ws_mesh_addr_template("10.0.0.%", 0, a, sizeof(a), &err), -WS_E_INVAL);
	CHECK_INT("long", ws_mesh_addr_template("123456789.%r", 99, a, 12, &err), -WS_E_INVAL);
	CHECK_STR("long", err.msg, "--bind-addr '123456789.%r' is longer than 11 bytes for rank 99");
	CHECK_INT("fits", ws_mesh_addr_template("123456789.%r", 8, a, 12, &err), 0);
	CHECK_STR("fits", a, "123456789.9");
}

static void test_interfaces(void)
{
	char a[WS_MESH_ADDR_MAX];
	ws_err err;
	CHECK_INT("lo", ws_mesh_addr_of_if("lo", 4, a, sizeof(a), &err), 0);
	CHECK_STR("lo", a, "127.0.0.1");
	CHECK_INT("lo any", ws_mesh_addr_of_if("lo", 0, a, sizeof(a), &err), 0);
	CHECK_STR("lo any: IPv4 first", a, "127.0.0.1");
	CHECK_INT("no such", ws_mesh_addr_of_if("nosuch0", 4, a, sizeof(a), &err), -ENODEV);
	CHECK("no such names lo", strncmp(err.msg, "--bind-if nosuch0: no such interface with an address; interfaces with an IPv4 address: ", 87) == 0 &&
				      strstr(err.msg, "lo") != NULL);
	int fam = 0;
	CHECK_INT("numeric", ws_mesh_addr_numeric("127.0.0.3", 0, a, sizeof(a), &fam, &err), 0);
	CHECK_STR("numeric", a, "127.0.0.3");
	CHECK_INT("numeric family", fam, 4);
	CHECK_INT("v6", ws_mesh_addr_numeric("::1", 6, a, sizeof(a), &fam, &err), 0);
	CHECK_STR("v6", a, "::1");
	CHECK_INT("v6 family", fam, 6);
}

static void test_peer_check(void)
{
	ws_err err;
	ws_mesh_peer p = {"h", "10.1.2.3", 5000, 4, 0};
	CHECK_INT("good", ws_mesh_peer_check(&p, 3, &err), 0);
	p = (ws_mesh_peer){"h", "fe80::1%eth0", 5000, 6, 0};
	CHECK_INT("scoped v6", ws_mesh_peer_check(&p, 3, &err), 0);
	p = (ws_mesh_peer){"h", "host.example", 5000, 4, 0};
	CHECK_INT("a name", ws_mesh_peer_check(&p, 3, &err), -WS_E_PROTO);
	CHECK_STR("a name", err.msg, "rank 3 sent 'host.example', which is not a numeric IPv4 address");
	p = (ws_mesh_peer){"h", "::1", 5000, 4, 0};
	CHECK_INT("family", ws_mesh_peer_check(&p, 3, &err), -WS_E_PROTO);
	p = (ws_mesh_peer){"h", "::1", 5000, 5, 0};
	CHECK_INT("family 5", ws_mesh_peer_check(&p, 3, &err), -WS_E_PROTO);
	CHECK_STR("family 5", err.msg, "rank 3 sent address family 5; expected 4 or 6");
	p = (ws_mesh_peer){"h", "10.1.2.3", 0, 4, 0};
	CHECK_INT("port 0", ws_mesh_peer_check(&p, 1, &err), -WS_E_PROTO);
	CHECK_STR("port 0", err.msg, "rank 1 sent port 0 for its daemon; expected 1 to 65535");
	p = (ws_mesh_peer){"h", "10.1.2.3", 1, 4, 7};
	CHECK_INT("status", ws_mesh_peer_check(&p, 1, &err), -WS_E_PROTO);
	memset(&p, 'x', sizeof(p));
	CHECK_INT("unterminated", ws_mesh_peer_check(&p, 2, &err), -WS_E_PROTO);
	CHECK_STR("unterminated", err.msg, "rank 2 sent an endpoint whose host name is not terminated");
	CHECK(("terminated after"), p.host[WS_MESH_HOST_MAX - 1] == 0 && p.addr[WS_MESH_ADDR_MAX - 1] == 0);
}

int main(void)
{
	RUN(test_template);
	RUN(test_interfaces);
	RUN(test_peer_check);
	TEST_MAIN_END();
}
