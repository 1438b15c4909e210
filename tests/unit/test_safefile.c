/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of safefile, the one rule for files warpspeed writes (issue 27): a symbolic
 * link, a directory and a socket are refused with exact messages and left alone; a link
 * planted at the old predictable temporary name is not followed; a regular file keeps its
 * mode; a new one gets 0666 less the umask; a FIFO with no reader is refused at once, one
 * with a reader and a null device are written in place and stay what they were; an aborted or
 * failed write leaves the directory as it was. */
#include "harness.h"

#include "util/clock.h"
#include "util/err.h"
#include "util/safefile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

static char dir[64];

static const char *path(const char *name)
{
	static char p[4][256];
	static int k;
	k = (k + 1) % 4;
	snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
	return p[k];
}

static void spit(const char *p, const char *s)
{
	FILE *f = fopen(p, "wb");
	fputs(s, f);
	fclose(f);
}

static const char *slurp(const char *p)
{
	static char buf[256];
	FILE *f = fopen(p, "rb");
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = 0;
	return buf;
}

static int entries(void)
{
	DIR *d = opendir(dir);
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static int save(const char *p, const char *text, ws_err *e)
{
	ws_safefile sf;
	int r = ws_safefile_open(&sf, p, 0, e);
	if (r < 0)
		return r;
	fputs(text, sf.f);
	return ws_safefile_commit(&sf, e);
}

static void test_regular(void)
{
	ws_err e;
	mode_t old = umask(022);
	CHECK_INT("new", save(path("new.txt"), "one", &e), 0);
	struct stat st;
	CHECK_INT("stat", stat(path("new.txt"), &st), 0);
	CHECK_INT("new mode 0644", (int)(st.st_mode & 0777), 0644);
	CHECK_STR("new text", slurp(path("new.txt")), "one");
	spit(path("priv.txt"), "old");
	chmod(path("priv.txt"), 0600);
	CHECK_INT("replace", save(path("priv.txt"), "fresh", &e), 0);
	CHECK_INT("stat priv", stat(path("priv.txt"), &st), 0);
	CHECK_INT("mode 0600 kept", (int)(st.st_mode & 0777), 0600);
	CHECK_STR("priv text", slurp(path("priv.txt")), "fresh");
	CHECK_INT("only the two files", entries(), 2);
	umask(old);
	ws_safefile sf;
	CHECK_INT("open", ws_safefile_open(&sf, path("priv.txt"), 0, &e), 0);
	fputs("never", sf.f);
	ws_safefile_abort(&sf);
	CHECK_STR("aborted: old text", slurp(path("priv.txt")), "fresh");
	CHECK_INT("aborted: no temporary file", entries(), 2);
}

static void test_links(void)
{
	ws_err e;
	char want[512];
	spit(path("victim"), "secret");
	CHECK_INT("link", symlink(path("victim"), path("lnk.ci16")), 0);
	CHECK_INT("link refused", save(path("lnk.ci16"), "x", &e), -WS_E_INVAL);
	snprintf(want, sizeof want, "'%s' is a symbolic link: warpspeed does not write through "
		 "links it did not make (name the file itself)", path("lnk.ci16"));
	CHECK_STR("link message", e.msg, want);
	ws_safefile sf;
	CHECK_INT("dash link", ws_safefile_open(&sf, path("lnk.ci16"), WS_SAFEFILE_DASH, &e),
		  -WS_E_INVAL);
	snprintf(want, sizeof want, "'%s' is a symbolic link: warpspeed does not write through "
		 "links it did not make (name the file itself, or - for standard output)",
		 path("lnk.ci16"));
	CHECK_STR("dash link message", e.msg, want);
	/* The old writer's predictable name, planted: not followed, not replaced. */
	CHECK_INT("plant", symlink(path("victim"), path("t.ci16.partial")), 0);
	CHECK_INT("planted temp name", save(path("t.ci16"), "samples", &e), 0);
	CHECK_STR("victim intact", slurp(path("victim")), "secret");
	struct stat st;
	CHECK_INT("still a link", lstat(path("t.ci16.partial"), &st), 0);
	CHECK("still a link", S_ISLNK(st.st_mode));
	CHECK_STR("written", slurp(path("t.ci16")), "samples");
}

static void test_refusals(void)
{
	ws_err e;
	char want[512];
	int before = entries();
	CHECK_INT("directory", save(dir, "x", &e), -WS_E_INVAL);
	snprintf(want, sizeof want, "'%s' is a directory: give a file name (a new or regular "
		 "file, a FIFO or a character device)", dir);
	CHECK_STR("directory message", e.msg, want);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	snprintf(a.sun_path, sizeof a.sun_path, "%s", path("sock"));
	CHECK_INT("bind", bind(s, (struct sockaddr *)&a, sizeof a), 0);
	CHECK_INT("socket", save(path("sock"), "x", &e), -WS_E_INVAL);
	snprintf(want, sizeof want, "'%s' is a socket: warpspeed writes a new or regular file, "
		 "or a FIFO or character device in place", path("sock"));
	CHECK_STR("socket message", e.msg, want);
	close(s);
	unlink(path("sock"));
	CHECK("missing directory", save("/nonexistent-dir/x.ci16", "x", &e) < 0);
	CHECK_STR("missing directory message", e.msg, "cannot create a file in directory "
		  "'/nonexistent-dir' (for '/nonexistent-dir/x.ci16'): No such file or directory");
	CHECK_INT("nothing left", entries(), before);
}

static void test_streams(void)
{
	ws_err e;
	char want[512];
	CHECK_INT("mkfifo", mkfifo(path("ff"), 0600), 0);
	int64_t t0 = ws_clock_ns();
	CHECK_INT("no reader", save(path("ff"), "x", &e), -ENXIO);
	CHECK("no reader: at once", ws_clock_ns() - t0 < 1000000000LL);
	snprintf(want, sizeof want, "'%s' is a FIFO with no reader: warpspeed writes a FIFO in "
		 "place and does not wait for one (start the reader first)", path("ff"));
	CHECK_STR("no reader message", e.msg, want);
	int rd = open(path("ff"), O_RDONLY | O_NONBLOCK);
	CHECK("reader", rd >= 0);
	CHECK_INT("to the reader", save(path("ff"), "through", &e), 0);
	char buf[16] = {0};
	CHECK_INT("read back", (int)read(rd, buf, sizeof buf - 1), 7);
	CHECK_STR("bytes", buf, "through");
	close(rd);
	struct stat st;
	CHECK("still a FIFO", lstat(path("ff"), &st) == 0 && S_ISFIFO(st.st_mode));
	/* A /dev/null twin of our own when we may make one; /dev/null itself otherwise. */
	const char *null = mknod(path("null"), S_IFCHR | 0666, makedev(1, 3)) == 0 ? path("null")
										   : "/dev/null";
	CHECK_INT("null device", save(null, "gone", &e), 0);
	CHECK("null device stays", stat(null, &st) == 0 && S_ISCHR(st.st_mode));
	unlink(path("ff"));
}

/* ws_safefile_check: the verdict of ws_safefile_open, before any work, leaving nothing. */
static void test_check(void)
{
	ws_err e;
	int before = entries();
	CHECK_INT("new name", ws_safefile_check(path("new.svg"), 0, &e), 0);
	CHECK("new name not created", access(path("new.svg"), F_OK) < 0);
	spit(path("old.json"), "kept");
	CHECK_INT("regular file", ws_safefile_check(path("old.json"), 0, &e), 0);
	CHECK_STR("regular file untouched", slurp(path("old.json")), "kept");
	unlink(path("old.json"));
	CHECK("missing directory", ws_safefile_check("/nonexistent/dir/out.svg", 0, &e) < 0);
	CHECK_STR("missing directory message", e.msg, "cannot create a file in directory "
		  "'/nonexistent/dir' (for '/nonexistent/dir/out.svg'): No such file or directory");
	CHECK_INT("directory", ws_safefile_check(dir, 0, &e), -WS_E_INVAL);
	CHECK_INT("dash", ws_safefile_check("-", WS_SAFEFILE_DASH, &e), 0);
	/* a FIFO without a reader: checked, not opened (its reader would see a writer leave) */
	CHECK_INT("mkfifo", mkfifo(path("cf"), 0600), 0);
	CHECK_INT("FIFO", ws_safefile_check(path("cf"), 0, &e), 0);
	unlink(path("cf"));
	CHECK_INT("nothing left", entries(), before);
}

int main(void)
{
	snprintf(dir, sizeof dir, "/tmp/ws-safefile.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	RUN(test_regular);
	RUN(test_links);
	RUN(test_refusals);
	RUN(test_streams);
	RUN(test_check);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("  could not remove %s\n", dir);
	TEST_MAIN_END();
}
