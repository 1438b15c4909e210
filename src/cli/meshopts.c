/* SPDX-License-Identifier: BSD-2-Clause */
/* meshopts: `warpspeed mesh`'s options, then the netperf part; see meshopts.h. */
#include "cli/meshopts.h"

#include "util/err.h"
#include "util/units.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: mpirun [-np N] [--host ...] warpspeed mesh [mesh and netperf options] [-- "
	"test options]\n"
	"  (the mesh's own options may come anywhere before --; needs the binary built with\n"
	"  make MPI=1, build/mpi/warpspeed)\n"
	"  Every rank serves tests on its data address; a schedule then tests pairs of ranks with\n"
	"  normal warpspeed tests (-t, -l, -f and the test options as for one test), and rank 0\n"
	"  prints the matrix: rows are sources, columns destinations.\n"
	"  --pairs all|ring|matching|all-to-all\n"
	"                       all: every ordered pair, one at a time (default; the quiet "
	"matrix)\n"
	"                       ring: rank i to i+1, all at once\n"
	"                       matching: rounds in which each rank is in one test, N/2 at once,\n"
	"                       until every ordered pair ran\n"
	"                       all-to-all: every ordered pair at once (the congested matrix)\n"
	"  --json FILE, --json-file FILE\n"
	"                       also write the matrix as JSON (docs/schema/mesh.schema.json);\n"
	"                       - writes it on stdout instead of the table\n"
	"  --svg FILE           also draw the matrix as a heatmap (SVG), failed cells marked\n"
	"  --bind-addr ADDR     this rank's data address; %r is the rank + 1 (127.0.0.%r on one\n"
	"                       machine gives 127.0.0.1, 127.0.0.2, ...)\n"
	"  --bind-if IFACE      the data address is IFACE's (the data network, apart from MPI's)\n"
	"                       default: the first interface that is up and not loopback\n"
	"  -4 / -6              IPv4 / IPv6 data addresses\n"
	"  --port PORT          every rank's daemon on this control port (default: any free\n"
	"                       port, told to the other ranks over MPI)\n"
	"  --max-sessions N, --max-duration SECS, --max-memory SIZE\n"
	"                       this rank's daemon's limits, as warpspeed serve's (ranks may\n"
	"                       differ with mpirun's A : B form)\n"
	"  -h, --help           this text\n"
	"Exit status: 0 every test ran, 1 a test failed (its cell says why) or a rank failed,\n"
	"2 bad usage or not built with MPI (make MPI=1).\n";

const char *ws_cli_mesh_usage(void) { return usage; }

static int opt_pairs(ws_cli_mesh_options *o, const char *v, ws_err *err)
{
	return ws_mesh_kind_from_name(v, &o->pairs, err);
}

static int opt_json(ws_cli_mesh_options *o, const char *v, ws_err *err)
{
	if (!*v)
		return ws_err_set(err, WS_E_INVAL,
				  "an empty file name; expected a file, or - for stdout");
	o->json_path = v;
	return 0;
}

static int opt_svg(ws_cli_mesh_options *o, const char *v, ws_err *err)
{
	if (!*v)
		return ws_err_set(err, WS_E_INVAL,
				  "an empty file name; expected the SVG file to write");
	o->svg_path = v;
	return 0;
}

static int opt_bind_addr(ws_cli_mesh_options *o, const char *v, ws_err *err)
{
	if (!*v)
		return ws_err_set(err, WS_E_INVAL,
				  "an empty address; expected an address such as 10.0.0.%%r");
	o->bind_addr = v;
	return 0;
}

static int opt_bind_if(ws_cli_mesh_options *o, const char *v, ws_err *err)
{
	if (!*v)
		return ws_err_set(err, WS_E_INVAL,
				  "an empty interface name; expected a name such as eth1");
	o->bind_if = v;
	return 0;
}

static int opt_port(ws_cli_mesh_options *o, const char *v, ws_err *err)
{
	long long p;
	int rc = ws_units_parse_int(v, 0, 65535, &p, err);
	o->port = (uint16_t)p;
	return rc;
}

static int opt_sessions(ws_cli_mesh_options *o, const char *v, ws_err *err)
{
	long long n;
	int rc = ws_units_parse_int(v, 1, 100000, &n, err);
	o->max_sessions = (unsigned)n;
	return rc;
}

static int opt_duration(ws_cli_mesh_options *o, const char *v, ws_err *err)
{
	return ws_units_parse_double(v, 0.001, 1e7, &o->max_duration_s, err);
}

static int opt_memory(ws_cli_mesh_options *o, const char *v, ws_err *err)
{
	int rc = ws_units_parse_size(v, &o->max_memory, err);
	if (rc == 0 && o->max_memory == 0)
		return ws_err_set(err, WS_E_INVAL,
				  "0 bytes would refuse every test; expected a size like 512M");
	return rc;
}

static int opt_inet4(ws_cli_mesh_options *o, const char *v, ws_err *err)
{
	(void)v, (void)err;
	o->family = 4;
	return 0;
}

static int opt_inet6(ws_cli_mesh_options *o, const char *v, ws_err *err)
{
	(void)v, (void)err;
	o->family = 6;
	return 0;
}

static int opt_help(ws_cli_mesh_options *o, const char *v, ws_err *err)
{
	(void)v, (void)err;
	o->help = true;
	return 0;
}

/* The mesh's options; a row is one option. */
static const struct mesh_opt {
	const char *name;
	const char *form; /* NULL: a switch */
	int (*fn)(ws_cli_mesh_options *o, const char *v, ws_err *err);
	/* clang-format off */
} mesh_opts[] = {
	{"--pairs", "all|ring|matching|all-to-all", opt_pairs},
	{"--json", "FILE", opt_json},
	{"--json-file", "FILE", opt_json},
	{"--svg", "FILE", opt_svg},
	{"--bind-addr", "ADDR", opt_bind_addr},
	{"--bind-if", "IFACE", opt_bind_if},
	{"--port", "PORT", opt_port},
	{"--max-sessions", "N", opt_sessions},
	{"--max-duration", "SECS", opt_duration},
	{"--max-memory", "SIZE", opt_memory},
	{"-4", NULL, opt_inet4},
	{"-6", NULL, opt_inet6},
	{"-h", NULL, opt_help},
	{"--help", NULL, opt_help},
};
/* clang-format on */
#define NMESH (sizeof(mesh_opts) / sizeof(mesh_opts[0]))

void ws_cli_mesh_words(ws_cli_word_fn fn, void *ctx)
{
	for (size_t k = 0; k < NMESH; k++)
		fn(ctx, mesh_opts[k].name, mesh_opts[k].form);
}

/* The mesh option at argv[*i] ("--name", "--name VALUE", "--name=VALUE"): 1 when taken
 * (*i advanced), 0 when the word is not one, or a negative code. */
static int mesh_option(ws_cli_mesh_options *o, int argc, char **argv, int *i, ws_err *err)
{
	const char *a = argv[*i];
	for (size_t k = 0; k < NMESH; k++) {
		const struct mesh_opt *m = &mesh_opts[k];
		size_t len = strlen(m->name);
		if (strncmp(a, m->name, len) != 0 || (a[len] && (a[len] != '=' || !m->form)))
			continue;
		const char *v = NULL;
		if (m->form && a[len] == '=') {
			v = a + len + 1;
		} else if (m->form) {
			if (*i + 1 >= argc)
				return ws_err_set(err, WS_E_INVAL,
						  "option %s needs a value; expected %s %s",
						  m->name, m->name, m->form);
			v = argv[++*i];
		}
		++*i;
		int rc = m->fn(o, v, err);
		if (rc < 0)
			ws_err_prefix(err, "option %s", m->name);
		return rc < 0 ? rc : 1;
	}
	return 0;
}

/* netperf options a mesh decides itself or cannot honour, one row each: given before
 * `--` (test false) or after it (test true). */
static const struct refused {
	char letter;
	bool test;
	const char *why;
	/* clang-format off */
} refused[] = {
	{'H', false, "the mesh tests every rank's daemon in turn"},
	{'L', false, "each rank sends from its own data address (--bind-addr, --bind-if)"},
	{'p', false, "every rank's daemon port is --port (or any free port, told over MPI)"},
	{'D', false, "interim results of parallel tests would interleave; a cell is one test's result"},
	{'i', false, "a cell is one test (run the mesh again for more samples)"},
	{'I', false, "a cell is one test (run the mesh again for more samples)"},
	{'Z', false, "the mesh's own daemons ask for no key"},
	{'H', true, "the data addresses are the ranks' (--bind-addr, --bind-if)"},
	{'L', true, "the data addresses are the ranks' (--bind-addr, --bind-if)"},
};
/* clang-format on */

static int check_netperf_part(const ws_cli_mesh_options *o, ws_err *err)
{
	const ws_cli_options *n = &o->net;
	for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++)
		if (ws_cli_given(n, refused[k].test, refused[k].letter))
			return ws_err_set(err, WS_E_INVAL,
					  "%soption -%c does not apply to warpspeed mesh: %s",
					  refused[k].test ? "test " : "", refused[k].letter,
					  refused[k].why);
	if (n->out_mode)
		return ws_err_set(
			err, WS_E_INVAL,
			"the output selectors (-o/-O/-k) do not apply to warpspeed mesh: "
			"it prints a matrix; expected --json FILE for every figure of it");
	if (n->json)
		return ws_err_set(err, WS_E_INVAL,
				  "option --json%s does not apply to warpspeed mesh: it writes one "
				  "matrix; expected --json FILE or --json-file FILE (- for stdout) "
				  "before --",
				  n->json == 2 ? "-lines" : "");
	if (n->psk_file)
		return ws_err_set(err, WS_E_INVAL,
				  "option --psk-file does not apply to warpspeed mesh: the mesh's "
				  "own daemons ask for no key");
	if (n->peer != WS_PEER_AUTO)
		return ws_err_set(err, WS_E_INVAL,
				  "option --peer does not apply to warpspeed mesh: every rank runs "
				  "a warpspeed daemon");
	if (n->version)
		return ws_err_set(
			err, WS_E_INVAL,
			"option -V does not apply to warpspeed mesh; expected warpspeed -V");
	return 0;
}

int ws_cli_mesh_parse(int argc, char **argv, ws_cli_mesh_options *o, ws_err *err)
{
	memset(o, 0, sizeof(*o));
	o->pairs = WS_MESH_ALL;
	/* Options in any order, as getopt users expect: the mesh's --name options are taken
	 * wherever they stand before `--`, and every other word, in its order, is the netperf
	 * part (with a program name of its own in argv[0]'s place). The switches -4, -6 and
	 * -h are the mesh's only in front: later they are netperf's (same meaning), and a
	 * word such as "-4" may be a netperf value (-l -4: four bytes). */
	char **np = malloc((size_t)(argc + 1) * sizeof(*np));
	if (!np)
		return ws_err_set(err, ENOMEM, "no memory for the command line");
	int nn = 0, i = 1, rc = 0;
	bool front = true, tail = false;
	np[nn++] = argv[0];
	while (i < argc && rc >= 0) {
		if (!tail && !strcmp(argv[i], "--"))
			tail = true;
		if (!tail && (front || !strncmp(argv[i], "--", 2)) &&
		    (rc = mesh_option(o, argc, argv, &i, err)) != 0) {
			if (o->help)
				break;
			continue;
		}
		front = false;
		np[nn++] = argv[i++];
	}
	np[nn] = NULL;
	if (rc < 0 || o->help) {
		free(np);
		return rc < 0 ? rc : 0;
	}
	if (o->bind_addr && o->bind_if) {
		free(np);
		return ws_err_set(err, WS_E_INVAL,
				  "options --bind-addr and --bind-if both choose the data address; "
				  "expected one of them");
	}
	rc = ws_cli_parse(nn, np, &o->net, err);
	free(np);
	if (rc < 0)
		return rc;
	if (o->net.help) {
		o->help = true;
		return 0;
	}
	if ((rc = check_netperf_part(o, err)) < 0)
		return rc;
	if (!o->family)
		o->family = (int)o->net.spec.family;
	else if (o->net.spec.family && (int)o->net.spec.family != o->family)
		return ws_err_set(err, WS_E_INVAL,
				  "the mesh's -%d and the netperf part's -%d disagree; expected "
				  "one address family",
				  o->family, (int)o->net.spec.family);
	o->net.spec.family = (enum ws_family)o->family;
	return 0;
}
