/* SPDX-License-Identifier: BSD-2-Clause */
/* npwire: the netperf 2.7.0 captures of tests/goldens/npwire/ (made by
 * tests/goldens/capture-npwire.sh) for the unit tests that check bytes against them.
 * Header-only, like harness.h. */
#ifndef WS_TEST_NPWIRE_H
#define WS_TEST_NPWIRE_H

#include "ctl/npmsg.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXMSG 16

typedef struct capture {
	int n;
	char dir[MAXMSG];            /* 'C' netperf → netserver, 'S' back, 'E' EOF */
	uint8_t m[MAXMSG][WS_NP_MSG_LEN];
} capture;

static inline int npwire_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Load tests/goldens/npwire/<name>.hex below $WS_ROOT (or the working directory). */
static inline int load(const char *name, capture *c)
{
	const char *root = getenv("WS_ROOT");
	char path[1024], line[2 * WS_NP_MSG_LEN + 64];
	snprintf(path, sizeof(path), "%s%stests/goldens/npwire/%s.hex", root ? root : "",
		 root ? "/" : "", name);
	memset(c, 0, sizeof(*c));
	FILE *f = fopen(path, "r");
	if (!f) {
		printf("  cannot read %s\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f) && c->n < MAXMSG) {
		if (strncmp(line, "S-eof", 5) == 0) {
			c->dir[c->n++] = 'E';
			continue;
		}
		if ((line[0] != 'C' && line[0] != 'S') || line[1] != ' ')
			continue;
		for (int i = 0; i < WS_NP_MSG_LEN; i++) {
			int hi = npwire_hexval(line[2 + 2 * i]), lo = hi < 0 ? -1 : npwire_hexval(line[3 + 2 * i]);
			if (hi < 0 || lo < 0) {
				fclose(f);
				printf("  %s: short or bad message line %d\n", path, c->n + 1);
				return -1;
			}
			c->m[c->n][i] = (uint8_t)(hi << 4 | lo);
		}
		c->dir[c->n++] = line[0];
	}
	fclose(f);
	return 0;
}

#endif
