/* SPDX-License-Identifier: BSD-2-Clause */
/* test_node_allow: the node's allow lists (parser, matcher, printer, default) and its
 * per-source reply caps (token buckets), with exact values. */
#include "harness.h"

#include "iq/node/node_allow.h"
#include "iq/node/node_rate.h"
#include "util/err.h"

#include <arpa/inet.h>

static uint32_t ip(const char *s)
{
	struct in_addr a;
	inet_pton(AF_INET, s, &a);
	return ntohl(a.s_addr);
}

static void parse_ok(const char *in, const char *printed)
{
	ws_node_allow a;
	ws_err e = {0};
	char buf[WS_NODE_ALLOW_MAX * 20];
	int r = ws_node_allow_parse(in, &a, &e);
	CHECK_INT(in, r, 0);
	if (r < 0)
		printf("  %s\n", e.msg);
	ws_node_allow_format(&a, buf, sizeof buf);
	CHECK_STR(in, buf, printed);
}

static void parse_bad(const char *in, const char *msg)
{
	ws_node_allow a;
	ws_err e = {0};
	CHECK_INT(in, ws_node_allow_parse(in, &a, &e), -WS_E_INVAL);
	CHECK_STR(in, e.msg, msg);
}

#define FORM "(a.b.c.d/n with n = 0..32, a.b.c.d, or any; comma-separated)"

static const struct {
	const char *in, *printed;
} good[] = {
	{"any", "any"},
	{"127.0.0.1/32", "127.0.0.1/32"},
	{"10.1.2.3/8", "10.0.0.0/8"},
	{"192.168.7.9", "192.168.7.9/32"},
	{"0.0.0.0/0", "0.0.0.0/0"},
	{"10.0.0.0/8,172.16.0.0/12,10.9.9.9/8", "10.0.0.0/8,172.16.0.0/12"},
	{"192.168.1.128/25", "192.168.1.128/25"},
};

static const struct {
	const char *in, *msg;
} bad[] = {
	{"", "allow: the list is empty " FORM},
	{"10.0.0.0/33", "allow: prefix length in '10.0.0.0/33' is not 0..32 " FORM},
	{"10.0.0.0/", "allow: prefix length in '10.0.0.0/' is not 0..32 " FORM},
	{"10.0.0.0/8x", "allow: prefix length in '10.0.0.0/8x' is not 0..32 " FORM},
	{"10.0.0.0/-1", "allow: prefix length in '10.0.0.0/-1' is not 0..32 " FORM},
	{"10.0.0/8", "allow: '10.0.0/8' is not an IPv4 address " FORM},
	{"host.example", "allow: 'host.example' is not an IPv4 address " FORM},
	{"::1/128", "allow: '::1/128' is not an IPv4 address " FORM},
	{"10.0.0.1,", "allow: entry '' is not a network " FORM},
	{"10.0.0.1,,10.0.0.2", "allow: entry '' is not a network " FORM},
	{"any,10.0.0.1", "allow: 'any' must stand alone, not in a list " FORM},
	{" 10.0.0.1", "allow: ' 10.0.0.1' is not an IPv4 address " FORM},
};

static void test_parse(void)
{
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		parse_ok(good[i].in, good[i].printed);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		parse_bad(bad[i].in, bad[i].msg);
	char many[40 * 16] = "";
	for (int i = 0; i <= WS_NODE_ALLOW_MAX; i++)
		snprintf(many + strlen(many), sizeof many - strlen(many), "%s10.0.%d.0/24",
			 i ? "," : "", i);
	parse_bad(many, "allow: more than 32 networks at '10.0.32.0/24'");
}

static void test_match(void)
{
	ws_node_allow a;
	ws_node_allow_parse("127.0.0.1/32,10.0.0.0/8,192.168.1.128/25", &a, NULL);
	CHECK_INT("127.0.0.1", ws_node_allow_match(&a, ip("127.0.0.1")), 1);
	CHECK_INT("127.0.0.77", ws_node_allow_match(&a, ip("127.0.0.77")), 0);
	CHECK_INT("10.255.255.255", ws_node_allow_match(&a, ip("10.255.255.255")), 1);
	CHECK_INT("11.0.0.0", ws_node_allow_match(&a, ip("11.0.0.0")), 0);
	CHECK_INT("192.168.1.127", ws_node_allow_match(&a, ip("192.168.1.127")), 0);
	CHECK_INT("192.168.1.128", ws_node_allow_match(&a, ip("192.168.1.128")), 1);
	CHECK_INT("192.168.1.255", ws_node_allow_match(&a, ip("192.168.1.255")), 1);
	ws_node_allow_parse("0.0.0.0/0", &a, NULL);
	CHECK_INT("/0 admits all", ws_node_allow_match(&a, ip("203.0.113.9")), 1);
	ws_node_allow_parse("any", &a, NULL);
	CHECK_INT("any admits all", ws_node_allow_match(&a, ip("198.51.100.1")), 1);
}

static void test_default(void)
{
	ws_node_allow a;
	ws_err e = {0};
	char buf[64];
	CHECK_INT("loopback", ws_node_allow_default(ip("127.0.0.1"), &a, &e), 0);
	ws_node_allow_format(&a, buf, sizeof buf);
	CHECK_STR("loopback default", buf, "127.0.0.0/8");
	CHECK_INT("127.0.0.5 too", ws_node_allow_default(ip("127.0.0.5"), &a, &e), 0);
	CHECK_INT("127.0.0.77 admitted by a loopback node", ws_node_allow_match(&a, ip("127.0.0.77")), 1);
	CHECK_INT("all interfaces", ws_node_allow_default(0, &a, &e), 0);
	CHECK("0.0.0.0 admits loopback", ws_node_allow_match(&a, ip("127.0.0.1")));
	CHECK_INT("an address no interface holds",
		  ws_node_allow_default(ip("198.51.100.200"), &a, &e), -WS_E_INVAL);
	CHECK_STR("its message", e.msg,
		  "allow: no interface holds 198.51.100.200, so there is no default allow list "
		  "(give --allow CIDR[,CIDR...] or --allow any)");
}

/* ---- token buckets --------------------------------------------------------------------- */

#define US 1000ll
#define MS 1000000ll

static void test_bucket(void)
{
	static ws_node_rate r;
	ws_node_rate_init(&r, 8000000, 10000); /* 1 MB/s: one byte per us; burst 10000 */
	int64_t t = 1000 * MS;
	ws_node_bucket *b = ws_node_rate_get(&r, ip("127.0.0.77"), t);
	CHECK("an entry", b != NULL);
	if (!b)
		return;
	CHECK_U64("a new source has the burst", ws_node_rate_allowance(&r, b, t), 10000);
	CHECK("the same entry again", ws_node_rate_get(&r, ip("127.0.0.77"), t) == b);
	ws_node_rate_charge(b, 10000 + 8962);
	CHECK_U64("the last packet may take it below zero", ws_node_rate_allowance(&r, b, t), 0);
	CHECK_U64("wait for 8962 bytes at 1 MB/s", (uint64_t)ws_node_rate_wait(&r, b, t),
		  8962 * US + 1);
	CHECK_U64("4 ms later", (uint64_t)ws_node_rate_wait(&r, b, t + 4 * MS), 4962 * US + 1);
	CHECK_U64("9.962 ms later: 1000 bytes", ws_node_rate_allowance(&r, b, t + 9962 * US),
		  1000);
	CHECK_U64("refills to the burst, no more", ws_node_rate_allowance(&r, b, t + 3600000 * MS),
		  10000);
	t += 3600000 * MS;
	ws_node_rate_charge(b, 10000 + 65536);
	CHECK_INT("no small answers at the slack", ws_node_rate_small_ok(&r, b, t), 0);
	CHECK_INT("one byte later they go", ws_node_rate_small_ok(&r, b, t + 1 * US), 1);
	CHECK_U64("no stream bytes until above zero", ws_node_rate_allowance(&r, b, t + 1 * US), 0);
	ws_node_rate_init(&r, 0, 10000);
	CHECK("off: no buckets", ws_node_rate_get(&r, 1, t) == NULL);
	CHECK_U64("off: never wait", (uint64_t)ws_node_rate_wait(&r, NULL, t), 0);
	/* Bounded products: the largest burst and rate, a year idle. */
	ws_node_rate_init(&r, WS_NODE_RATE_MAX_BPS, WS_NODE_RATE_MAX_BURST);
	b = ws_node_rate_get(&r, 5, 0);
	ws_node_rate_charge(b, WS_NODE_RATE_MAX_BURST);
	CHECK_U64("max rate after a year", ws_node_rate_allowance(&r, b, 365ll * 86400 * 1000 * MS),
		  WS_NODE_RATE_MAX_BURST);
}

/* The set addr falls in (the hash is the table's own: asked of a scratch table). */
static long set_of(uint32_t addr)
{
	static ws_node_rate scratch;
	ws_node_rate_init(&scratch, 8000000, 10000);
	ws_node_bucket *b = ws_node_rate_get(&scratch, addr, 0);
	return (long)((b - &scratch.b[0][0]) / WS_NODE_RATE_WAYS);
}

/* Entries are reused only once full and never while pinned. */
static void test_bucket_table(void)
{
	static ws_node_rate r;
	enum { N = WS_NODE_RATE_WAYS + 2 };
	uint32_t same[N];
	long set = set_of(ip("10.0.0.1"));
	unsigned found = 0;
	for (uint32_t a = ip("10.0.0.1"); found < N; a++)
		if (set_of(a) == set)
			same[found++] = a;
	ws_node_rate_init(&r, 8000000, 10000);
	int64_t t = 1000 * MS;
	for (unsigned i = 0; i < WS_NODE_RATE_WAYS; i++)
		ws_node_rate_charge(ws_node_rate_get(&r, same[i], t), 5000);
	uint32_t ninth = same[WS_NODE_RATE_WAYS], tenth = same[WS_NODE_RATE_WAYS + 1];
	CHECK("a ninth source of a set in debt gets no entry", !ws_node_rate_get(&r, ninth, t));
	CHECK("still none 4.9 ms later", !ws_node_rate_get(&r, ninth, t + 4900 * US));
	ws_node_bucket *b = ws_node_rate_get(&r, ninth, t + 5 * MS);
	CHECK("once they refilled, one is reused", b != NULL);
	if (b)
		CHECK_U64("with a full bucket", ws_node_rate_allowance(&r, b, t + 5 * MS), 10000);
	for (unsigned i = 0; i < WS_NODE_RATE_WAYS; i++)
		r.b[set][i].pinned = 1;
	CHECK("pinned entries are never reused", !ws_node_rate_get(&r, tenth, t + 3600000 * MS));
	r.b[set][3].pinned = 0;
	CHECK("an unpinned full one is", ws_node_rate_get(&r, tenth, t + 3600000 * MS) == &r.b[set][3]);
}

/* The total caps all sources together: two sources with full buckets share its burst,
 * each may wait for it, and its debt is bounded by one burst. */
static void test_bucket_total(void)
{
	static ws_node_rate r;
	ws_node_rate_init(&r, 8000000, 10000);
	ws_node_rate_set_total(&r, 8000000);
	int64_t t = 1000 * MS;
	ws_node_bucket *a = ws_node_rate_get(&r, ip("127.0.0.2"), t);
	ws_node_bucket *b = ws_node_rate_get(&r, ip("127.0.0.3"), t);
	CHECK("two entries", a && b && a != b);
	if (!a || !b)
		return;
	CHECK_U64("the first has the burst", ws_node_rate_allowance(&r, a, t), 10000);
	ws_node_rate_charge(a, 10000);
	ws_node_rate_spent(&r, 10000);
	CHECK_U64("the second's bucket is full, the total is not", ws_node_rate_allowance(&r, b, t),
		  0);
	CHECK_U64("it waits for the total", (uint64_t)ws_node_rate_wait(&r, b, t), 1);
	CHECK_U64("3 ms later: 3000 bytes", ws_node_rate_allowance(&r, b, t + 3 * MS), 3000);
	CHECK_U64("NULL: the total alone", ws_node_rate_allowance(&r, NULL, t + 3 * MS), 3000);
	ws_node_rate_spent(&r, 1000000);
	CHECK_U64("debt at most one burst", (uint64_t)ws_node_rate_wait(&r, NULL, t + 3 * MS),
		  10000 * US + 1);
	ws_node_rate_set_total(&r, 0);
	CHECK_U64("no total: the source alone", ws_node_rate_allowance(&r, b, t + 3 * MS), 10000);
}

int main(void)
{
	RUN(test_parse);
	RUN(test_match);
	RUN(test_default);
	RUN(test_bucket);
	RUN(test_bucket_table);
	RUN(test_bucket_total);
	TEST_MAIN_END();
}
