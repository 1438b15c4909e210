/* SPDX-License-Identifier: BSD-2-Clause */
/* mesh: `mpirun ... warpspeed mesh`, every rank a daemon and a client, rank 0 the printer.
 *
 * Each rank parses the same command line, finds its data address, starts an in-process
 * daemon there (session/daemon.h, as `warpspeed serve` and the client's fallback do) and
 * tells the other ranks where it listens; then the ranks walk the schedule round by round
 * (mesh/round.h runs this rank's tests of a round, a barrier ends it), and rank 0 gathers
 * every rank's cells and prints the matrix. A usage error is found by every rank alike and
 * printed once; a rank that cannot take part (no address, no daemon, no memory, a broken
 * record) prints why, naming its rank and host, and ends the job with MPI_Abort, so that
 * no rank is left waiting. MPI itself is reached only through mesh/comm.h. */
#include "cli/mesh.h"

#include "cli/meshopts.h"
#include "cli/svgout.h"
#include "mesh/comm.h"
#include "mesh/endpoint.h"
#include "mesh/matrix.h"
#include "mesh/round.h"
#include "mesh/schedule.h"
#include "report/charts.h"
#include "session/daemon.h"
#include "util/err.h"
#include "util/safefile.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rank and host of this process, for messages. */
typedef struct self {
	int rank, size;
	char host[WS_MESH_HOST_MAX];
} self;

/* A rank that cannot go on ends everyone. */
_Noreturn static void die(const self *me, const char *msg)
{
	fprintf(stderr, "warpspeed mesh: rank %d on %s: %s; ending the mesh\n", me->rank, me->host,
		msg);
	fflush(stderr);
	ws_mesh_comm_abort(1);
}

/* The lowest rank for which bad is true, or -1, on every rank: a fault every rank may
 * have found (a usage error) is printed once. */
static int first_bad(const self *me, bool bad)
{
	int v = 0;
	if (ws_mesh_comm_max(bad ? me->size - me->rank : 0, &v) < 0)
		die(me, "MPI_Allreduce failed");
	return v ? me->size - v : -1;
}

static void log_line(void *ctx, const char *line)
{
	const self *me = ctx;
	fprintf(stderr, "warpspeed mesh: rank %d daemon: %s\n", me->rank, line);
}

/* This rank's data address, from --bind-addr, --bind-if or the first interface up. */
static int pick_address(const ws_cli_mesh_options *o, const self *me, ws_mesh_peer *p, ws_err *err)
{
	char a[WS_MESH_ADDR_MAX];
	int fam = o->family, rc;
	if (o->bind_addr) {
		if ((rc = ws_mesh_addr_template(o->bind_addr, me->rank, a, sizeof(a), err)) < 0)
			return rc;
		if ((rc = ws_mesh_addr_numeric(a, o->family, p->addr, sizeof(p->addr), &fam, err)) <
		    0)
			return rc;
	} else {
		if ((rc = ws_mesh_addr_of_if(o->bind_if, o->family, p->addr, sizeof(p->addr),
					     err)) < 0)
			return rc;
		fam = strchr(p->addr, ':') ? 6 : 4;
	}
	p->family = (uint16_t)fam;
	return 0;
}

static ws_daemon *start_daemon(const ws_cli_mesh_options *o, self *me, ws_mesh_peer *p, ws_err *err)
{
	ws_daemon_config dc;
	ws_daemon_config_init(&dc);
	dc.bind_host = p->addr;
	dc.family = p->family;
	dc.port = o->port;
	/* all-to-all brings every other rank at once, maybe all from one address (::1): the
	 * daemon's default caps (64 sessions, 8 pending per source) must not refuse the mesh
	 * itself. */
	if ((unsigned)me->size > dc.max_sessions)
		dc.max_sessions = (unsigned)me->size;
	if ((unsigned)me->size > dc.max_pending_per_source)
		dc.max_pending_per_source = (unsigned)me->size;
	if (o->max_sessions)
		dc.max_sessions = o->max_sessions;
	if (o->max_duration_s > 0)
		dc.max_duration_s = o->max_duration_s;
	if (o->max_memory)
		dc.max_memory = o->max_memory;
	if (o->net.verbosity >= 2) {
		dc.log = log_line;
		dc.log_ctx = me;
	}
	ws_daemon *d = ws_daemon_new(&dc, err);
	if (!d)
		return NULL;
	if (ws_daemon_start_thread(d, err) < 0) {
		ws_daemon_free(d);
		return NULL;
	}
	p->port = ws_daemon_port(d);
	return d;
}

/* Rank 0: the matrix on stdout (unless --json -) and in the JSON file. Returns the exit
 * status. */
static int print_matrix(const ws_cli_mesh_options *o, const ws_mesh_matrix *m, ws_safefile *json)
{
	int status = 0;
	if (!(o->json_path && strcmp(o->json_path, "-") == 0) &&
	    ws_mesh_matrix_text(m, o->net.print_headers != 0, stdout) < 0) {
		fprintf(stderr, "warpspeed mesh: writing the matrix to stdout failed\n");
		status = 1;
	}
	if (json->f) {
		ws_err err;
		int rc = ws_mesh_matrix_json(m, json->f);
		if (rc < 0)
			fprintf(stderr, "warpspeed mesh: writing %s failed: %s\n", o->json_path,
				strerror(-rc));
		else if ((rc = ws_safefile_commit(json, &err)) < 0)
			fprintf(stderr, "warpspeed mesh: %s\n", err.msg);
		ws_safefile_abort(json);
		if (rc < 0)
			status = 1;
	}
	if (o->svg_path) { /* drawn from the JSON document, as `warpspeed plot` draws a saved one */
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len);
		int rc = mem ? ws_mesh_matrix_json(m, mem) : -ENOMEM;
		if (mem && fclose(mem) != 0 && rc == 0)
			rc = -ENOMEM;
		if (rc < 0) {
			fprintf(stderr,
				"warpspeed mesh: --svg %s: no memory for the matrix's document\n",
				o->svg_path);
			status = 1;
		} else if (ws_cli_svg_draw(o->svg_path, text, len, NULL, WS_CHART_MESH) != 0) {
			status = 1;
		}
		free(text);
	}
	size_t failed = ws_mesh_matrix_failed(m);
	if (failed) {
		fprintf(stderr, "warpspeed mesh: %zu of %zu tests failed; their cells say why\n",
			failed, m->s->npairs);
		status = status ? status : 1;
	}
	return status;
}

/* Every round of the schedule; this rank's cells go to cells (room for max). */
static void run_rounds(const self *me, const ws_mesh_round_config *rc, const ws_mesh_schedule *s,
		       ws_mesh_cell *cells, size_t max)
{
	size_t used = 0;
	for (int r = 0; r < s->nrounds; r++) {
		used += ws_mesh_round_run(rc, s, r, cells + used, max - used);
		if (ws_mesh_comm_barrier() < 0)
			die(me, "the barrier after a round failed");
	}
}

int ws_cli_mesh_main(int argc, char **argv)
{
	ws_cli_mesh_options o;
	ws_err perr, err;
	ws_err_clear(&perr);
	ws_err_clear(&err);
	int prc = ws_cli_mesh_parse(argc, argv, &o, &perr);
	if (prc == 0 && o.help) { /* no MPI needed; under mpirun only the first rank prints */
		const char *r = getenv("OMPI_COMM_WORLD_RANK");
		if (!r || strcmp(r, "0") == 0)
			fputs(ws_cli_mesh_usage(), stdout);
		return 0;
	}
	self me = {0};
	if (ws_mesh_comm_init(&argc, &argv, &me.rank, &me.size) < 0) {
		fprintf(stderr, "warpspeed mesh: MPI did not start\n");
		return 1;
	}
	ws_mesh_comm_host(me.host, sizeof(me.host));
	signal(SIGPIPE, SIG_IGN);
	ws_mesh_schedule s;
	memset(&s, 0, sizeof(s));
	if (prc == 0)
		prc = ws_mesh_schedule_build(o.pairs, me.size, &s, &perr);
	int bad = first_bad(&me, prc < 0);
	if (bad >= 0) {
		if (bad == me.rank && me.rank == 0)
			fprintf(stderr,
				"warpspeed mesh: %s\n(run 'warpspeed mesh -h' for the options)\n",
				perr.msg);
		else if (bad == me.rank) /* only this rank's command line (mpirun's A : B form) */
			fprintf(stderr, "warpspeed mesh: rank %d on %s: %s\n", me.rank, me.host,
				perr.msg);
		ws_mesh_schedule_free(&s);
		ws_mesh_comm_finalize();
		return 2;
	}
	/* The JSON file is opened before any test, so that a typo costs no mesh run. */
	ws_safefile json = {0};
	ws_err jerr;
	int json_bad = me.rank == 0 && o.json_path &&
		ws_safefile_open(&json, o.json_path, WS_SAFEFILE_DASH, &jerr) < 0;
	bad = first_bad(&me, json_bad);
	if (bad >= 0) {
		if (me.rank == 0)
			fprintf(stderr, "warpspeed mesh: option --json: %s\n", jerr.msg);
		ws_mesh_schedule_free(&s);
		ws_mesh_comm_finalize();
		return 1;
	}

	ws_mesh_peer mine;
	memset(&mine, 0, sizeof(mine));
	snprintf(mine.host, sizeof(mine.host), "%s", me.host);
	ws_daemon *d = NULL;
	if (pick_address(&o, &me, &mine, &err) < 0 || !(d = start_daemon(&o, &me, &mine, &err)))
		die(&me, err.msg);
	ws_mesh_peer *peers = calloc((size_t)me.size, sizeof(*peers));
	size_t slots = (size_t)me.size - 1; /* no schedule has a rank send more than N-1 tests */
	ws_mesh_cell *cells = malloc(slots * sizeof(*cells));
	ws_mesh_cell *all = me.rank == 0 ? malloc((size_t)me.size * slots * sizeof(*all)) : NULL;
	if (!peers || !cells || (me.rank == 0 && !all))
		die(&me, "no memory for the mesh");
	if (ws_mesh_comm_allgather(&mine, sizeof(mine), peers) < 0)
		die(&me, "exchanging the endpoints failed");
	for (int k = 0; k < me.size; k++)
		if (ws_mesh_peer_check(&peers[k], k, &err) < 0)
			die(&me, err.msg);

	ws_mesh_round_config rc = {
		.spec = &o.net.spec, .fmt = o.net.format, .peers = peers, .self = me.rank};
	for (size_t i = 0; i < slots; i++)
		cells[i] = (ws_mesh_cell){.src = -1};
	run_rounds(&me, &rc, &s, cells, slots);
	if (ws_mesh_comm_gather(cells, slots * sizeof(*cells), all) < 0)
		die(&me, "gathering the results failed");
	ws_daemon_free(d); /* the last round's barrier: no test is left to serve */

	int status = 0;
	if (me.rank == 0) {
		ws_mesh_cell *matrix = NULL;
		if (ws_mesh_cells_collect(&s, all, slots, &matrix, &err) < 0)
			die(&me, err.msg);
		char units[32];
		ws_mesh_round_units(&rc, units, sizeof(units));
		ws_mesh_matrix m = {.test = ws_test_type_name(o.net.spec.type),
				    .s = &s,
				    .units = units,
				    .peers = peers,
				    .cells = matrix};
		if (!m.test)
			m.test = "?";
		status = print_matrix(&o, &m, &json);
		free(matrix);
	}
	ws_safefile_abort(&json);
	fflush(stdout);
	free(all);
	free(cells);
	free(peers);
	ws_mesh_schedule_free(&s);
	ws_mesh_comm_finalize();
	return status;
}
