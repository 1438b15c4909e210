/* SPDX-License-Identifier: BSD-2-Clause */
/* wlmex_sock: the MEX transport's socket slots and their IQ handles; see wlmex_sock.h.
 *
 * The table is the MEX's own state (a MEX file is one process-wide module): it lives
 * until the MEX is cleared, when mexAtExit closes everything. */
#include "wlmex_sock.h"

#include "iq/host/host.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

static wlmex_slot slots[WLMEX_SLOTS];
static int slots_ready;

static void init_slots(void)
{
	if (slots_ready)
		return;
	for (int i = 0; i < WLMEX_SLOTS; i++)
		slots[i] = (wlmex_slot){.fd = -1};
	slots_ready = 1;
}

int wlmex_sock_open(void)
{
	init_slots();
	for (int i = 0; i < WLMEX_SLOTS; i++) {
		if (slots[i].fd >= 0)
			continue;
		int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -1;
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &one, sizeof one);
		slots[i] = (wlmex_slot){.fd = fd};
		return i;
	}
	errno = EMFILE;
	return -1;
}

wlmex_slot *wlmex_sock_get(int64_t h)
{
	init_slots();
	if (h < 0 || h >= WLMEX_SLOTS || slots[h].fd < 0)
		return NULL;
	return &slots[h];
}

static void drop_iq(wlmex_slot *s)
{
	ws_iq_close(s->iq);
	s->iq = NULL;
}

void wlmex_sock_close(int64_t h)
{
	wlmex_slot *s = wlmex_sock_get(h);
	if (!s)
		return;
	drop_iq(s);
	close(s->fd);
	*s = (wlmex_slot){.fd = -1};
}

void wlmex_sock_close_all(void)
{
	for (int i = 0; slots_ready && i < WLMEX_SLOTS; i++)
		wlmex_sock_close(i);
}

ws_iq_node *wlmex_sock_iq(wlmex_slot *s, struct in_addr ip, int port, uint16_t node_id,
			  uint16_t host_id, uint32_t spp, ws_iq_error *err)
{
	if (s->iq && s->iq_addr.s_addr == ip.s_addr && s->iq_port == port &&
	    s->iq_node_id == node_id && s->iq_host_id == host_id && s->iq_spp == spp)
		return s->iq;
	drop_iq(s);
	char text[INET_ADDRSTRLEN];
	inet_ntop(AF_INET, &ip, text, sizeof text);
	ws_iq_config c;
	ws_iq_config_default(&c);
	c.addr = text;
	c.port = port;
	c.node_id = node_id;
	c.host_id = host_id;
	if (ws_iq_open_raw(&c, spp, &s->iq, err) < 0)
		return NULL;
	s->iq_addr = ip;
	s->iq_port = port;
	s->iq_node_id = node_id;
	s->iq_host_id = host_id;
	s->iq_spp = spp;
	s->iq_window0 = s->iq->info.window;
	return s->iq;
}
