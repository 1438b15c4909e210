/* SPDX-License-Identifier: BSD-2-Clause */
/* endpoint: where one rank of a mesh serves its tests, and how the ranks tell each other.
 *
 * The data network of a cluster is often not the network MPI itself runs over, so each rank
 * picks its data address on its own: from a template (--bind-addr, where %r stands for the
 * rank + 1, so that ranks on one machine get 127.0.0.1, 127.0.0.2, ...), from an interface
 * (--bind-if, read with getifaddrs), or by default the first address of an interface that
 * is up and not loopback. The ranks then swap one fixed-size record each (a byte copy over
 * MPI); the records come from other processes, so a received one is checked (terminated
 * strings, a numeric address, a port) before anything uses it. */
#ifndef WS_MESH_ENDPOINT_H
#define WS_MESH_ENDPOINT_H

#include <stddef.h>
#include <stdint.h>

struct ws_err;

#define WS_MESH_HOST_MAX 64 /* host names are cut to 63 bytes */
#define WS_MESH_ADDR_MAX 64 /* numeric IPv6 with a %scope fits */

/* One rank's endpoint, exchanged between the ranks as WS_MESH_PEER_BYTES bytes. */
typedef struct ws_mesh_peer {
	char host[WS_MESH_HOST_MAX]; /* gethostname() of the rank's machine */
	char addr[WS_MESH_ADDR_MAX]; /* the numeric data address its daemon listens on */
	uint16_t port;               /* its daemon's control port */
	uint16_t family;             /* 4 or 6 */
	int32_t status;              /* 0, or the negative code of why it has no daemon */
} ws_mesh_peer;

/* Expand --bind-addr's template for rank (from 0) into out: "%r" is rank + 1, "%%" a
 * percent sign; any other '%' is an error. Returns 0, or -WS_E_INVAL with err naming the
 * template and the accepted forms (also when the result does not fit in n bytes). */
int ws_mesh_addr_template(const char *tmpl, int rank, char *out, size_t n, struct ws_err *err);

/* The address of interface iface for family (4, 6, or 0: IPv4 when it has one, else IPv6)
 * in numeric form; an IPv6 address of global scope before a link-local one, which gets
 * "%iface" appended. iface NULL: the first interface that is up and not loopback.
 * Returns 0, or -ENODEV / -EADDRNOTAVAIL with err naming the interface and the
 * interfaces that have an address of that family. */
int ws_mesh_addr_of_if(const char *iface, int family, char *out, size_t n, struct ws_err *err);

/* A host name or numeric address as the numeric address the daemon binds (family 0, 4
 * or 6); *family_out is 4 or 6. Returns 0 or the resolver's error. */
int ws_mesh_addr_numeric(const char *host, int family, char *out, size_t n, int *family_out,
			 struct ws_err *err);

/* Check a record received from rank `rank` (after the copy: fixes nothing but may
 * terminate the strings): both strings terminated within their arrays, the address a
 * numeric address of the stated family, the port non-zero when status is 0.
 * Returns 0 or -WS_E_PROTO with err naming the rank and the fault. */
int ws_mesh_peer_check(ws_mesh_peer *p, int rank, struct ws_err *err);

#endif
