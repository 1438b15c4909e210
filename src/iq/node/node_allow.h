/* SPDX-License-Identifier: BSD-2-Clause */
/* node_allow: which source addresses the node emulator answers (IPv4 CIDR lists).
 *
 * A node that answers anyone is a reflector for anyone who can spoof a source address, so
 * `warpspeed node` answers only the sources of an allow list: the one given with --allow,
 * or by default the networks of the node's own interfaces that hold the bound address.
 * This module parses and prints such lists, matches addresses against them and computes
 * the default from getifaddrs; it holds no state of its own. Addresses are in host byte
 * order. */
#ifndef WS_IQ_NODE_ALLOW_H
#define WS_IQ_NODE_ALLOW_H

#include <stddef.h>
#include <stdint.h>

struct ws_err;

#define WS_NODE_ALLOW_MAX 32 /* networks in one list */

typedef struct ws_node_net {
	uint32_t addr, mask; /* host order; addr has no bits outside mask */
} ws_node_net;

typedef struct ws_node_allow {
	int any; /* every source */
	unsigned n;
	ws_node_net net[WS_NODE_ALLOW_MAX];
} ws_node_allow;

/* Parses "any" or "CIDR[,CIDR...]" where CIDR is a.b.c.d/n (n = 0..32) or a.b.c.d (= /32);
 * host bits are cleared (10.1.2.3/8 means 10.0.0.0/8). At most WS_NODE_ALLOW_MAX entries.
 * Returns 0, or -WS_E_INVAL with a message that names the bad entry and the accepted form;
 * *a is then unspecified. */
int ws_node_allow_parse(const char *s, ws_node_allow *a, struct ws_err *err);

/* The default list for a node bound to bind_addr: the network (address & netmask) of each
 * IPv4 interface whose network holds bind_addr, or of every IPv4 interface when bind_addr
 * is 0.0.0.0. A loopback address always admits 127.0.0.0/8, even when lo has no address.
 * Returns 0; -WS_E_INVAL when no interface holds bind_addr (an --allow list is needed), or
 * an errno code when getifaddrs fails. */
int ws_node_allow_default(uint32_t bind_addr, ws_node_allow *a, struct ws_err *err);

/* 1 when addr is admitted by a. */
int ws_node_allow_match(const ws_node_allow *a, uint32_t addr);

/* "any" or "a.b.c.d/n,..." into buf (always terminated, truncated with "..." if short). */
void ws_node_allow_format(const ws_node_allow *a, char *buf, size_t size);

#endif
