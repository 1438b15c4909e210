/* SPDX-License-Identifier: BSD-2-Clause */
/* personality: the netperf and netserver names of the binary; see personality.h.
 *
 * Daemonizing follows netserver's order: the listener is opened while the terminal is
 * still attached, so that "address in use" reaches the user and the exit status; only then
 * does the process detach (fork, setsid, stdio to /dev/null, chdir /) and the parent exit 0.
 * Unlike netserver, nothing at all is written to the terminal on success. */
#include "cli/personality.h"

#include "cli/serve.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <warpspeed/version.h>

static const char *prog = "warpspeed";

void ws_cli_set_prog(const char *name) { prog = name && *name ? name : "warpspeed"; }

const char *ws_cli_prog(void) { return prog; }

const char *ws_cli_serve_prog(void)
{
	return strcmp(prog, "netserver") == 0 ? "netserver" : "warpspeed serve";
}

void ws_cli_eprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

const char *ws_cli_personality(const char *argv0)
{
	static const char *const names[] = {"netperf", "netserver"};
	if (!argv0)
		return NULL;
	const char *base = strrchr(argv0, '/');
	base = base ? base + 1 : argv0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(base, names[i]) == 0)
			return names[i];
	return NULL;
}

static const char netserver_usage[] =
	"\nUsage: netserver [options] \n"
	"\n"
	"Options:\n"
	"    -h                Display this text\n"
	"    -D                Do not daemonize\n"
	"    -d                Increase debugging output\n"
	"    -f                Do not spawn chilren for each test, run serially\n"
	"    -L name,family    Use name to pick listen address and family for family\n"
	"    -N                No debugging output, even if netperf asks\n"
	"    -p portnum        Listen for connect requests on portnum.\n"
	"    -4                Do IPv4\n"
	"    -6                Do IPv6\n"
	"    -v verbosity      Specify the verbosity level\n"
	"    -V                Display version information and exit\n"
	"    -Z passphrase     Expect passphrase as the first thing received\n"
	"\n"
	"(warpspeed as netserver: each session runs on its own thread; -f, -N, -d and -v are\n"
	"accepted and change nothing. `warpspeed serve -h` lists the daemon's own limits.)\n";

/* One netserver option: its letter, whether it takes a value, and the serve option it
 * becomes (NULL: accepted, nothing to pass on). */
static const struct ns_opt {
	char letter;
	bool value;
	const char *serve; /* "-p" etc.; "" for the ones handled below */
			   /* clang-format off */
} ns_opts[] = {
	{'D', false, ""}, {'d', false, NULL}, {'f', false, NULL}, {'N', false, NULL},
	{'4', false, "-4"}, {'6', false, "-6"}, {'p', true, "-p"}, {'L', true, ""},
	{'v', true, NULL}, {'Z', true, "-Z"}, {'h', false, ""}, {'V', false, ""},
};
/* clang-format on */

static const struct ns_opt *find_ns(char c)
{
	for (size_t i = 0; i < sizeof(ns_opts) / sizeof(ns_opts[0]); i++)
		if (ns_opts[i].letter == c)
			return &ns_opts[i];
	return NULL;
}

void ws_cli_netserver_words(ws_cli_word_fn fn, void *ctx)
{
	for (size_t i = 0; i < sizeof(ns_opts) / sizeof(ns_opts[0]); i++) {
		char w[3] = {'-', ns_opts[i].letter, 0};
		fn(ctx, w, ns_opts[i].value ? "VALUE" : NULL);
	}
}

/* -L name[,family]: the name, and the family as -4 or -6 (netserver's parse_address_family). */
static int split_listen(char *val, char **out, int *n)
{
	char *comma = strchr(val, ',');
	if (comma) {
		*comma = '\0';
		const char *fam = comma + 1;
		if (!strcmp(fam, "4") || !strcasecmp(fam, "inet") || !strcasecmp(fam, "af_inet"))
			out[(*n)++] = "-4";
		else if (!strcmp(fam, "6") || !strcasecmp(fam, "inet6") ||
			 !strcasecmp(fam, "af_inet6"))
			out[(*n)++] = "-6";
		else if (strcmp(fam, "0") && strcasecmp(fam, "unspec") &&
			 strcasecmp(fam, "af_unspec") && *fam) {
			fprintf(stderr,
				"netserver: option -L: '%s' is not an address family; expected 4, "
				"6, inet, inet6 or unspec\n",
				fam);
			return -1;
		}
	}
	if (*val) {
		out[(*n)++] = "-L";
		out[(*n)++] = val;
	}
	return 0;
}

int ws_cli_netserver_args(int argc, char **argv, char **out, bool *foreground, int *exit_status)
{
	int n = 0;
	out[n++] = "serve";
	*foreground = false;
	*exit_status = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const struct ns_opt *o = a[0] == '-' && a[1] && !a[2] ? find_ns(a[1]) : NULL;
		if (!o && a[0] == '-' && a[1] && a[2] && find_ns(a[1]) && find_ns(a[1])->value)
			o = find_ns(a[1]); /* attached value: -p12866 */
		if (!o) {
			fprintf(stderr, "netserver: unknown option '%s'\n%s", a, netserver_usage);
			*exit_status = 2;
			return -1;
		}
		char *val = NULL;
		if (o->value) {
			val = a[2] ? argv[i] + 2 : i + 1 < argc ? argv[++i] : NULL;
			if (!val) {
				fprintf(stderr, "netserver: option -%c needs a value\n%s",
					o->letter, netserver_usage);
				*exit_status = 2;
				return -1;
			}
		}
		if (o->letter == 'h') {
			fputs(netserver_usage, stdout);
			return 0;
		}
		if (o->letter == 'V') { /* netserver's own line first, for scripts that read it */
			printf("Netperf version 2.7.0\nwarpspeed %s as netserver\n", ws_version());
			return 0;
		}
		if (o->letter == 'D')
			*foreground = true;
		if (o->letter == 'L' && split_listen(val, out, &n) < 0) {
			*exit_status = 2;
			return -1;
		}
		if (o->serve && o->serve[0]) {
			out[n++] = (char *)o->serve;
			if (val)
				out[n++] = val;
		}
	}
	out[n] = NULL;
	return n;
}

/* Runs in the child once the port listens: detach from the terminal, then tell the
 * waiting parent (the write end of its pipe) that the daemon is up. */
static int detach(void *ctx)
{
	int fd = *(int *)ctx;
	if (setsid() < 0)
		return -1;
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		if (null > 2)
			close(null);
	}
	if (chdir("/") < 0)
		return -1;
	ssize_t w = write(fd, "K", 1);
	close(fd);
	return w == 1 ? 0 : -1;
}

int ws_cli_netserver_main(int argc, char **argv)
{
	char **args = calloc((size_t)argc * 2 + 2, sizeof(*args));
	if (!args) {
		fprintf(stderr, "netserver: no memory\n");
		return 1;
	}
	bool fg;
	int status;
	int n = ws_cli_netserver_args(argc, argv, args, &fg, &status);
	if (n <= 0) {
		free(args);
		return n == 0 ? 0 : status ? status : 2;
	}
	if (fg) {
		status = ws_cli_serve_main(n, args);
		free(args);
		return status;
	}
	int p[2];
	if (pipe(p) < 0) {
		perror("netserver: pipe");
		free(args);
		return 1;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		perror("netserver: fork");
		free(args);
		return 1;
	}
	if (pid > 0) { /* the parent: exit 0 once the child listens, 1 if it could not */
		close(p[1]);
		char c = 0;
		ssize_t r;
		do
			r = read(p[0], &c, 1);
		while (r < 0 && errno == EINTR);
		close(p[0]);
		free(args);
		if (r == 1 && c == 'K')
			return 0;
		int ws;
		waitpid(pid, &ws, 0);
		return WIFEXITED(ws) && WEXITSTATUS(ws) ? WEXITSTATUS(ws) : 1;
	}
	close(p[0]);
	status = ws_cli_serve_main_ready(n, args, detach, &p[1]);
	free(args);
	return status;
}
