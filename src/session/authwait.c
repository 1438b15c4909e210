/* SPDX-License-Identifier: BSD-2-Clause */
/* authwait: per-address delay after failed key proofs; see authwait.h. */
#include "session/authwait.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
	char addr[64];
	unsigned long long fails;
	int64_t next_ns; /* the address's next turn */
	int64_t last_ns; /* its last failure */
} entry;

struct ws_authwait {
	entry e[WS_AUTHWAIT_ENTRIES];
	unsigned n;
};

ws_authwait *ws_authwait_new(void) { return calloc(1, sizeof(ws_authwait)); }

void ws_authwait_free(ws_authwait *w) { free(w); }

static entry *find(ws_authwait *w, const char *addr)
{
	for (unsigned i = 0; i < w->n; i++)
		if (strcmp(w->e[i].addr, addr) == 0)
			return &w->e[i];
	return NULL;
}

static int64_t delay_of(unsigned long long fails)
{
	int64_t d = WS_AUTHWAIT_BASE_NS;
	for (unsigned long long k = 1; k < fails && d < WS_AUTHWAIT_MAX_NS; k++)
		d *= 2;
	return d < WS_AUTHWAIT_MAX_NS ? d : WS_AUTHWAIT_MAX_NS;
}

int64_t ws_authwait_turn(ws_authwait *w, const char *addr, int64_t now_ns)
{
	entry *e = w ? find(w, addr) : NULL;
	if (!e)
		return 0;
	if (now_ns < e->next_ns)
		return e->next_ns;
	e->next_ns = now_ns + delay_of(e->fails);
	return 0;
}

unsigned long long ws_authwait_failed(ws_authwait *w, const char *addr, int64_t now_ns,
				      int64_t *delay_ns)
{
	*delay_ns = 0;
	if (!w)
		return 0;
	entry *e = find(w, addr);
	if (!e && w->n < WS_AUTHWAIT_ENTRIES) {
		e = &w->e[w->n++];
	} else if (!e) { /* full: the entry whose last failure is oldest makes room */
		e = &w->e[0];
		for (unsigned i = 1; i < w->n; i++)
			if (w->e[i].last_ns < e->last_ns)
				e = &w->e[i];
	}
	if (strcmp(e->addr, addr) != 0) {
		memset(e, 0, sizeof(*e));
		snprintf(e->addr, sizeof(e->addr), "%s", addr);
	}
	e->fails++;
	e->last_ns = now_ns;
	*delay_ns = delay_of(e->fails);
	if (e->next_ns < now_ns + *delay_ns)
		e->next_ns = now_ns + *delay_ns;
	return e->fails;
}

void ws_authwait_ok(ws_authwait *w, const char *addr)
{
	entry *e = w ? find(w, addr) : NULL;
	if (e)
		*e = w->e[--w->n];
}
