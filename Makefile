# warpspeed build: one object list becomes libwarpspeed.a, linked by the binary,
# the unit tests, the fuzzers and the benchmarks. Plain make, no autotools.
#
#   make                 build/warpspeed, build/libwarpspeed.a and build/libwarpspeed.so.*
#                        (the shared library only natively, not with STATIC=1 or a cross CC)
#   make test            unit + integration tests, ends with "N passed, N failed"; as root
#                        also the network-namespace tests, which NETNS=0 skips
#   make SANITIZE=1 test the same under ASan+UBSan (objects in build/san/)
#   make run             a loopback TCP_STREAM and IQ benchmark against built-in servers
#   make STATIC=1        static link; CC=... honoured; WERROR=1 turns warnings into errors
#   make install PREFIX=/usr/local DESTDIR=...   (make uninstall removes exactly that;
#                        also netperf and netserver symlinks to warpspeed unless NETPERF_LINKS=0,
#                        and the Python module unless PYTHON_MODULE=0)
#   make CC=powerpc-linux-gnu-gcc STATIC=1   a cross build, in build/<target>/ (target =
#                        $(CC) -dumpmachine); the native build in build/ is left alone
#   make cross           static builds for every compiler in CROSS_CCS (binary, tests, bench)
#   make cross-test      those builds' unit tests and a loopback test under qemu-user
#   make MPI=1           also $(BUILD)/mpi/warpspeed, the binary with the mesh role (mpicc,
#                        Debian's libopenmpi-dev); make MPI=1 test runs tests/integration/mesh.sh
#                        against it (without MPI=1 that test is skipped)

CC      ?= cc
AR      ?= ar
OPT     ?= -O2
PREFIX  ?= /usr/local
NETPERF_LINKS ?= 1
BINDIR  ?= $(PREFIX)/bin
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include
MANDIR  ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions

# One version everywhere (-V, JSON, peer_software, ws_version(), the MEX, Python, the man
# page, pkg-config): the release in the public header, plus the git description where the
# build has one ("0.1.0+fe1f833", "0.1.0+fe1f833-dirty"; a tarball builds "0.1.0").
RELEASE  := $(shell sed -n 's/^\#define WARPSPEED_VERSION_STRING "\(.*\)"/\1/p' include/warpspeed/version.h)
GIT_DESC := $(shell git describe --tags --always --dirty 2>/dev/null)
VERSION  := $(RELEASE)$(if $(GIT_DESC),+$(GIT_DESC))

# A compiler for another architecture builds into build/<target>/, so a cross build never
# overwrites the native one. Architectures are compared, not whole triples, so that
# CC=clang (x86_64-pc-linux-gnu) still builds natively in build/.
WS_TARGET := $(shell $(CC) -dumpmachine 2>/dev/null)
WS_HOST   := $(shell cc -dumpmachine 2>/dev/null || gcc -dumpmachine 2>/dev/null)
WS_CROSS  :=
ifneq ($(WS_TARGET),)
ifneq ($(firstword $(subst -, ,$(WS_TARGET))),$(firstword $(subst -, ,$(WS_HOST))))
WS_CROSS  := 1
BUILD     ?= build/$(WS_TARGET)
# The host's ar may not know the target's objects; use the toolchain's own when present.
ifeq ($(origin AR),default)
AR        := $(if $(shell command -v $(WS_TARGET)-ar 2>/dev/null),$(WS_TARGET)-ar,ar)
endif
endif
endif
BUILD   ?= build
ifeq ($(SANITIZE),1)
BUILD   := $(BUILD)/san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
OPT     := -O1 -g
endif

WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wvla
ifeq ($(WERROR),1)
WARN    += -Werror
endif

# 64-bit file offsets and inode numbers on 32-bit targets too: a PowerPC board's readdir()
# otherwise fails (EOVERFLOW) on a file system with 64-bit inodes, and IQ files pass 2 GiB.
CPPFLAGS += -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Iinclude -Isrc -DWS_VERSION='"$(VERSION)"'
ifneq ($(WS_TARGET),)
CPPFLAGS += -DWS_TARGET='"$(WS_TARGET)"'
endif
CFLAGS   ?=
CFLAGS   += -std=c11 $(OPT) -g $(WARN) $(SANFLAGS) -pthread -MMD -MP
LDFLAGS  += $(SANFLAGS) -pthread
LDLIBS   += -lm
ifeq ($(STATIC),1)
LDFLAGS  += -static
endif
# 64-bit atomics on 32-bit targets (PowerPC e300) are calls into libatomic; link it only
# where a 64-bit atomic does not link without it, so native binaries keep libc only.
ATOMIC_PROBE := printf '\043include <stdint.h>\nstatic _Atomic uint64_t x;\nint main(void) { x += 1; return (int)x; }\n' \
	| $(CC) -std=c11 -x c - -o /dev/null -pthread >/dev/null 2>&1 || echo -latomic
LIBATOMIC := $(shell $(ATOMIC_PROBE))
LDLIBS   += $(LIBATOMIC)
# The IQ sample conversions (src/iq/wire/iqconv.c, iqmem.c) are written for the vectorizer;
# gcc -O2 vectorizes only loops without an epilogue and keeps FP compares that could trap,
# so those files get these flags where the compiler takes them (check: make iqconv-vec-report).
VEC_PROBE := for f in -ftree-vectorize -fvect-cost-model=dynamic -fno-trapping-math; do \
	echo 'int x;' | $(CC) -Werror $$f -x c -c - -o /dev/null >/dev/null 2>&1 && printf '%s ' $$f; done
VEC_FLAGS := $(shell $(VEC_PROBE))

# The two files that include <mpi.h>: the mesh role and its MPI glue. They are compiled
# only with MPI=1 and linked only into $(BUILD)/mpi/warpspeed, never into libwarpspeed.a
# (the mesh's MPI-free modules, src/mesh/*, are in the library like any other).
# Library sources are every folder of src/ but cli/, and their sub-folders (src/iq/wire/,
# src/iq/host/, src/iq/node/); objects keep the source's path under $(BUILD)/obj/.
MPI_SRC  := src/cli/mesh.c src/mesh/comm.c
LIB_SRC  := $(sort $(filter-out src/cli/% $(MPI_SRC),$(wildcard src/*/*.c src/*/*/*.c)))
CLI_SRC  := $(sort $(filter-out $(MPI_SRC),$(wildcard src/cli/*.c)))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))

LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

LIB := $(BUILD)/libwarpspeed.a
BIN := $(BUILD)/warpspeed

Q := @
ifeq ($(V),1)
Q :=
endif

.PHONY: format format-check version all test unit-tests bench-bins fuzz-run fuzz-long run bench install uninstall clean fuzz \
	cross cross-test man iqconv-vec-report FORCE
all: $(BIN) $(LIB)

# Linked files depend on the link command, so STATIC=1 after a dynamic build relinks.
LINK_STAMP := $(BUILD)/link.flags
LINK_CMD   := $(CC) $(LDFLAGS) $(LDLIBS)
$(LINK_STAMP): FORCE
	@mkdir -p $(dir $@)
	@[ "$$(cat $@ 2>/dev/null)" = '$(LINK_CMD)' ] || echo '$(LINK_CMD)' >$@

# Only util/version.c (and test_version, which checks it) sees WS_VERSION; they depend on
# a stamp holding the version, so a new commit rebuilds them and nothing else.
VERSION_STAMP := $(BUILD)/version.txt
$(VERSION_STAMP): FORCE
	@mkdir -p $(dir $@)
	@[ "$$(cat $@ 2>/dev/null)" = '$(VERSION)' ] || echo '$(VERSION)' >$@
$(BUILD)/obj/src/util/version.o $(BUILD)/pic/obj/src/util/version.o: $(VERSION_STAMP)
$(BUILD)/tests/test_version: $(VERSION_STAMP)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/src/iq/wire/iqconv.o: CFLAGS += $(VEC_FLAGS)
$(BUILD)/obj/src/iq/wire/iqmem.o: CFLAGS += $(VEC_FLAGS)

# The vectorizer's report on the IQ conversions, for $(CC) and each cross compiler present.
iqconv-vec-report:
	@for cc in $(CC) $(CROSS_CCS); do command -v $$cc >/dev/null 2>&1 || continue; \
	  echo "== $$cc"; $$cc $(CPPFLAGS) -std=c11 $(OPT) $(VEC_FLAGS) -fopt-info-vec-optimized \
	    -c src/iq/wire/iqconv.c -o /dev/null 2>&1 | grep 'loop vectorized using 16' ; \
	  $$cc $(CPPFLAGS) -std=c11 $(OPT) $(VEC_FLAGS) -fopt-info-vec-optimized \
	    -c src/iq/wire/iqmem.c -o /dev/null 2>&1 | grep 'loop vectorized using 16' ; done

# The build's one version (VERSION above), for scripts and tests: make -s version
version:
	@echo '$(VERSION)'

$(LIB): $(LIB_OBJ)
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# --- libwarpspeed.so (issue 18) -----------------------------------------------------------
# The library as a shared object, for ctypes (python/) and programs that load it at run
# time. Position-independent objects of their own (PIC_OBJ, also what a MEX links), built
# with hidden visibility: only what include/warpspeed/ marks WARPSPEED_API is exported.
# soname libwarpspeed.so.MAJOR, file .so.MAJOR.MINOR.PATCH, from version.h. Native dynamic
# builds only: STATIC=1 and cross builds leave SHLIB_ALL empty and never build it.
ws_ver      = $(shell sed -n 's/^\#define WARPSPEED_VERSION_$(1)  *\([0-9]*\)$$/\1/p' include/warpspeed/version.h)
SO_MAJOR    := $(call ws_ver,MAJOR)
SO_VERSION  := $(SO_MAJOR).$(call ws_ver,MINOR).$(call ws_ver,PATCH)
SONAME      := libwarpspeed.so.$(SO_MAJOR)
SHLIB       := $(BUILD)/libwarpspeed.so.$(SO_VERSION)
PIC_OBJ     := $(LIB_SRC:%.c=$(BUILD)/pic/obj/%.o)
SHLIB_MAP   := packaging/libwarpspeed.map
SHLIB_ALL   :=
ifneq ($(STATIC),1)
ifeq ($(WS_CROSS),)
SHLIB_ALL   := $(SHLIB) $(BUILD)/$(SONAME) $(BUILD)/libwarpspeed.so
endif
endif
$(BUILD)/pic/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (pic)"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@
$(BUILD)/pic/obj/src/iq/wire/iqconv.o: CFLAGS += $(VEC_FLAGS)
$(BUILD)/pic/obj/src/iq/wire/iqmem.o: CFLAGS += $(VEC_FLAGS)
$(SHLIB): $(PIC_OBJ) $(SHLIB_MAP) $(LINK_STAMP)
	@echo "  LINK    $@"
	$(Q)$(CC) -shared -Wl,-soname,$(SONAME) -Wl,-z,defs -Wl,--version-script,$(SHLIB_MAP) \
	  $(LDFLAGS) -o $@ $(PIC_OBJ) $(LDLIBS)
$(BUILD)/$(SONAME): $(SHLIB)
	$(Q)ln -sfn $(notdir $<) $@
$(BUILD)/libwarpspeed.so: $(BUILD)/$(SONAME)
	$(Q)ln -sfn $(notdir $<) $@
all: $(SHLIB_ALL)
-include $(PIC_OBJ:.o=.d)

$(BIN): $(CLI_OBJ) $(LIB) $(LINK_STAMP)
	@echo "  LINK    $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS)

# Unit tests link the CLI's modules too (all but main.o), so cli/ parsers are testable;
# they rebuild when any of the tests' shared headers changes.
CLI_MOD_OBJ := $(filter-out %/main.o,$(CLI_OBJ))
$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(LIB) $(CLI_MOD_OBJ) $(LINK_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit -o $@ $< $(CLI_MOD_OBJ) $(LIB) $(LDFLAGS) $(LDLIBS)

# The MPI binary: main.c again with WS_MPI (it dispatches `mesh`), the two MPI files, and
# the same CLI objects and library as $(BIN), linked by mpicc. It lives in $(BUILD)/mpi/ so
# the default binary stays MPI-free; the test target hands it to tests/run-all as
# WS_MPI_BIN (empty without MPI=1, which makes tests/integration/mesh.sh skip).
MPICC   ?= mpicc
MPI_BIN := $(BUILD)/mpi/warpspeed
MPI_OBJ := $(MPI_SRC:%.c=$(BUILD)/mpi/obj/%.o) $(BUILD)/mpi/obj/src/cli/main.o
ifeq ($(MPI),1)
ifneq ($(WS_CROSS),)
$(error MPI=1 builds the mesh role natively only; drop MPI=1 for CC=$(CC))
endif
ifeq ($(STATIC),1)
$(error MPI=1 links OpenMPI's shared library; drop STATIC=1)
endif
ifeq ($(shell command -v $(MPICC) 2>/dev/null),)
$(error MPI=1 needs $(MPICC) (Debian: apt-get install libopenmpi-dev openmpi-bin))
endif
all: $(MPI_BIN)
endif
$(BUILD)/mpi/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  MPICC   $<"
	$(Q)$(MPICC) $(CPPFLAGS) -DWS_MPI $(CFLAGS) -c $< -o $@
$(MPI_BIN): $(MPI_OBJ) $(CLI_MOD_OBJ) $(LIB) $(LINK_STAMP)
	@echo "  LINK    $@"
	$(Q)$(MPICC) $(LDFLAGS) -o $@ $(MPI_OBJ) $(CLI_MOD_OBJ) $(LIB) $(LDLIBS)

# Helper programs of the integration scripts (tests/tools/*.c), e.g. a forged client.
TOOL_SRC := $(sort $(wildcard tests/tools/*.c))
TOOL_BIN := $(TOOL_SRC:tests/tools/%.c=$(BUILD)/tools/%)
$(BUILD)/tools/%: tests/tools/%.c $(LIB) $(LINK_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LIB) $(LDFLAGS) $(LDLIBS)

unit-tests: $(UNIT_BIN) $(TOOL_BIN)

# C helpers of the benchmarks (bench/*.c), linked against the library like the tests.
BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
$(BUILD)/bench/%: bench/%.c $(LIB) $(LINK_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LIB) $(LDFLAGS) $(LDLIBS)
bench-bins: $(BENCH_BIN)

# NETNS=0 skips the tests that build network namespaces (root only; see tests/lib.sh).
NETNS ?= 1
test: $(BIN) $(UNIT_BIN) $(TOOL_BIN) $(BENCH_BIN) $(SHLIB_ALL) $(if $(filter 1,$(MPI)),$(MPI_BIN))
	@WS_NETNS=$(NETNS) WS_MPI_BIN=$(if $(filter 1,$(MPI)),$(abspath $(MPI_BIN))) tests/run-all $(BUILD)

run: $(BIN)
	@tests/main-job $(BUILD)

bench: $(BIN) $(BENCH_BIN)
	@bench/run $(BENCH)

# The C layout (.clang-format): `format` rewrites the files, `format-check` lists the files it
# would change and fails (tests/integration/format.sh runs the same check in make test).
FORMAT_FILES = $(shell git ls-files 'src/*.[ch]' 'include/*.h' 'bench/*.[ch]' 'octave/*.[ch]' 'python/*.[ch]' 2>/dev/null)
format:
	clang-format -i $(FORMAT_FILES)
format-check:
	@WS_BIN=$(abspath $(BIN)) WS_ROOT=$(CURDIR) tests/integration/format.sh

FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
# The CLI's modules except main.c, so that the client's option parser can be fuzzed too.
FUZZ_CLI_SRC := $(filter-out src/cli/main.c,$(CLI_SRC))
# The library and CLI objects are compiled once (instrumented, not linked with libFuzzer's
# main) and shared by every fuzzer; a fuzzer is then one compile and one link.
FUZZ_FLAGS := -std=c11 -g -O1 $(CPPFLAGS) -pthread
FUZZ_OBJ := $(patsubst %.c,build/fuzz/obj/%.o,$(LIB_SRC) $(FUZZ_CLI_SRC))
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build/fuzz/%)
fuzz: $(FUZZ_BIN)
build/fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	$(Q)clang $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link,address,undefined -MMD -MP -c $< -o $@
build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)
	@echo "  FUZZ    $(@F)"
	$(Q)clang $(FUZZ_FLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< $(FUZZ_OBJ) -lm
.SECONDARY: $(FUZZ_OBJ)
-include $(FUZZ_OBJ:.o=.d)

# Each fuzzer for a bounded time over its corpus folder (tests/fuzz/corpus_<name>, if any),
# FUZZ_JOBS at a time (each still for its whole FUZZ_SECONDS; its output printed whole,
# tests/par), a failure printed with the end of its log (tests/fuzz/run).
FUZZ_SECONDS ?= 30
FUZZ_JOBS ?= 2
fuzz-run: fuzz
	$(Q)tests/par $(FUZZ_JOBS) $(foreach f,$(FUZZ_BIN),"tests/fuzz/run $f $(FUZZ_SECONDS)")

# Outside CI: each fuzzer (or those named in FUZZ_TARGETS, e.g. "fuzz_udp_acct") for
# FUZZ_RUNS executions over its corpus, then one summary line per target with the
# executions done; the summary is also left in build/fuzz/long-summary.txt.
FUZZ_RUNS ?= 10000000
# ASan keeps a little bookkeeping for every thread that ever ran (about 230 bytes), and
# fuzz_session starts one per input, so 10^7 inputs pass libFuzzer's default 2 GiB limit
# without any leak in the code (the same run without ASan stays at 28 MB).
FUZZ_RSS_MB ?= 6144
FUZZ_TARGETS ?=
fuzz-long: fuzz
	$(Q)rm -f build/fuzz/long-summary.txt; \
	for f in $(if $(FUZZ_TARGETS),$(addprefix build/fuzz/,$(FUZZ_TARGETS)),build/fuzz/fuzz_*); do \
	  n=$$(basename $$f); c=tests/fuzz/corpus_$${n#fuzz_}; \
	  w=$$(mktemp -d); [ -d $$c ] && cp -r $$c/. $$w/; \
	  echo "  RUN     $$n for $(FUZZ_RUNS) executions"; s=$$(date +%s); \
	  $$f -runs=$(FUZZ_RUNS) -rss_limit_mb=$(FUZZ_RSS_MB) -print_final_stats=1 $$w >build/fuzz/$$n.long.log 2>&1; rc=$$?; \
	  e=$$(sed -n 's/^stat::number_of_executed_units: *//p' build/fuzz/$$n.long.log); \
	  echo "$$n: $${e:-?} executions in $$(( $$(date +%s) - s )) s, exit $$rc" | tee -a build/fuzz/long-summary.txt; \
	  rm -rf $$w; [ $$rc -eq 0 ] || { tail -n 40 build/fuzz/$$n.long.log; exit 1; }; done

# Cross builds: each compiler's static binary, unit tests and bench helpers in
# build/<target>/; cross-test runs them under qemu-user next to the native binary (see
# tests/cross-test). Sanitizers do not link statically, so SANITIZE is dropped there.
CROSS_CCS ?= powerpc-linux-gnu-gcc aarch64-linux-gnu-gcc
# Static glibc warns at every link that getaddrinfo would need glibc's shared NSS modules
# at run time; numeric addresses and /etc/hosts work without them (glibc >= 2.34 has
# files and dns inside libc), so that one warning is filtered out of the output.
cross:
	$(Q)for cc in $(CROSS_CCS); do \
	  t=$$($$cc -dumpmachine) || { echo "cross: $$cc not found (apt-get install gcc-$${cc%-gcc})" >&2; exit 1; }; \
	  echo "  CROSS   $$t"; mkdir -p build/$$t; \
	  { $(MAKE) --no-print-directory CC=$$cc STATIC=1 SANITIZE= MPI= BUILD=build/$$t \
	    all unit-tests bench-bins 2>&1; echo $$? >build/$$t/make.status; } \
	  | grep -v -e "Using 'getaddrinfo' in statically linked" -e "in function .ws_addr_resolve_all.:$$"; \
	  [ "$$(cat build/$$t/make.status)" = 0 ] || exit 1; done

# The targets' runs side by side, CROSS_JOBS at a time (qemu-user is CPU-bound; each run's
# output is printed whole, in CROSS_CCS order, by tests/par).
CROSS_JOBS ?= 2
cross-test: cross $(BIN)
	$(Q)tests/par $(CROSS_JOBS) $(foreach cc,$(CROSS_CCS),"tests/cross-test build/$$($(cc) -dumpmachine) $(BIN)")

# Installs like a Debian tool: binary, static library and headers, pkg-config file, man
# page, bash completion (with netperf/netserver links beside it when those names are
# installed) and a systemd unit for `warpspeed serve` (installed, not enabled). Every file is
# named, so uninstall removes exactly these and only directories of our own.
HEADERS := $(notdir $(wildcard include/warpspeed/*.h))
# Names under which the binary behaves as netperf's programs (cli/personality.h): relative
# symlinks beside it; uninstall removes only links that still point at warpspeed.
PERSONALITIES := netperf netserver
PC_LIBS := -pthread -lm $(LIBATOMIC)

$(BUILD)/warpspeed.pc: packaging/warpspeed.pc.in include/warpspeed/version.h FORCE
	@mkdir -p $(dir $@)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	  -e 's|@INCDIR@|$(INCDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	  -e 's|@LIBS@|$(PC_LIBS)|g' $< >$@.tmp && mv $@.tmp $@

$(BUILD)/warpspeed-serve.service: packaging/warpspeed-serve.service FORCE
	@mkdir -p $(dir $@)
	$(Q)sed -e 's|@BINDIR@|$(BINDIR)|g' $< >$@.tmp && mv $@.tmp $@

# Render the man page as text: catches mdoc mistakes (warnings fail) and shows the result.
man: docs/warpspeed.1
	@mkdir -p $(BUILD)
	$(Q)MANWIDTH=80 man --warnings -E UTF-8 -l docs/warpspeed.1 2>$(BUILD)/man.warnings | col -b; \
	  if [ -s $(BUILD)/man.warnings ]; then cat $(BUILD)/man.warnings >&2; exit 1; fi

# libwarpspeed.so (when this build has one, with its soname and dev symlinks) and the
# Python package python/warpspeed (needs the .so), into $(PYTHON3)'s site directory under
# PREFIX (packaging/pythondir.py: Debian's dist-packages); the installed copy records LIBDIR
# so it loads the library installed with it. PYTHON_MODULE=0 leaves the package out;
# PYTHONDIR=... puts it elsewhere. Without DESTDIR, ldconfig refreshes the loader's cache.
PYTHON_MODULE ?= 1
PYTHON3   ?= $(firstword $(wildcard /usr/bin/python3) python3)
PYTHONDIR ?= $(shell $(PYTHON3) packaging/pythondir.py $(PREFIX) 2>/dev/null)
PY_FILES  := $(notdir $(wildcard python/warpspeed/*.py))
LDCONFIG  ?= ldconfig
WS_LDCONFIG = [ -n "$(DESTDIR)" ] || ! command -v $(LDCONFIG) >/dev/null || $(LDCONFIG) || true

install: $(BIN) $(LIB) $(BUILD)/warpspeed.pc $(BUILD)/warpspeed-serve.service $(SHLIB_ALL)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/warpspeed \
	  $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(SYSTEMDUNITDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/warpspeed
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libwarpspeed.a
	install -m 644 $(addprefix include/warpspeed/,$(HEADERS)) $(DESTDIR)$(INCDIR)/warpspeed/
	install -m 644 $(BUILD)/warpspeed.pc $(DESTDIR)$(PKGCONFIGDIR)/warpspeed.pc
	sed -e 's|^\.Os warpspeed .*|.Os warpspeed $(VERSION)|' docs/warpspeed.1 \
	  >$(DESTDIR)$(MANDIR)/man1/warpspeed.1 && chmod 644 $(DESTDIR)$(MANDIR)/man1/warpspeed.1
	install -m 644 $(BUILD)/warpspeed-serve.service \
	  $(DESTDIR)$(SYSTEMDUNITDIR)/warpspeed-serve.service
	install -d $(DESTDIR)$(BASHCOMPDIR)
	install -m 644 packaging/bash-completion/warpspeed $(DESTDIR)$(BASHCOMPDIR)/warpspeed
	$(Q)if [ "$(NETPERF_LINKS)" != 0 ]; then for n in $(PERSONALITIES); do \
	  ln -sfn warpspeed $(DESTDIR)$(BINDIR)/$$n; \
	  ln -sfn warpspeed $(DESTDIR)$(BASHCOMPDIR)/$$n; done; fi
ifneq ($(SHLIB_ALL),)
	install -m 644 $(SHLIB) $(DESTDIR)$(LIBDIR)/$(notdir $(SHLIB))
	ln -sfn $(notdir $(SHLIB)) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sfn $(SONAME) $(DESTDIR)$(LIBDIR)/libwarpspeed.so
	$(Q)$(WS_LDCONFIG)
	$(Q)if [ "$(PYTHON_MODULE)" != 0 ]; then d='$(PYTHONDIR)'; \
	  if [ -z "$$d" ]; then echo "install: $(PYTHON3) not found: the Python module is not" \
	    "installed (PYTHON_MODULE=0 to skip it, PYTHONDIR=... to place it)" >&2; else \
	  echo "install python/warpspeed -> $(DESTDIR)$$d/warpspeed"; \
	  install -d $(DESTDIR)$$d/warpspeed && \
	  install -m 644 $(addprefix python/warpspeed/,$(PY_FILES)) $(DESTDIR)$$d/warpspeed/ && \
	  sed -i 's|^INSTALLED_LIBDIR = None$$|INSTALLED_LIBDIR = "$(LIBDIR)"|' \
	    $(DESTDIR)$$d/warpspeed/_lib.py || exit 1; fi; fi
endif

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/warpspeed $(DESTDIR)$(LIBDIR)/libwarpspeed.a \
	  $(addprefix $(DESTDIR)$(INCDIR)/warpspeed/,$(HEADERS)) \
	  $(DESTDIR)$(PKGCONFIGDIR)/warpspeed.pc $(DESTDIR)$(MANDIR)/man1/warpspeed.1 \
	  $(DESTDIR)$(SYSTEMDUNITDIR)/warpspeed-serve.service \
	  $(DESTDIR)$(BASHCOMPDIR)/warpspeed
	$(Q)for n in $(PERSONALITIES); do for d in $(DESTDIR)$(BINDIR) $(DESTDIR)$(BASHCOMPDIR); do \
	  [ "$$(readlink $$d/$$n)" != warpspeed ] || rm -f $$d/$$n; done; done
	rmdir $(DESTDIR)$(INCDIR)/warpspeed 2>/dev/null || true
	rm -f $(DESTDIR)$(LIBDIR)/libwarpspeed.so.$(SO_VERSION)
	$(Q)for l in $(SONAME):libwarpspeed.so.$(SO_VERSION) libwarpspeed.so:$(SONAME); do \
	  [ "$$(readlink $(DESTDIR)$(LIBDIR)/$${l%%:*})" != "$${l#*:}" ] || \
	  rm -f $(DESTDIR)$(LIBDIR)/$${l%%:*}; done
	$(Q)$(WS_LDCONFIG)
	$(Q)d='$(PYTHONDIR)'; p=$(DESTDIR)$$d/warpspeed; if [ -n "$$d" ] && [ -d "$$p" ]; then \
	  echo "uninstall $$p"; rm -f $(addprefix $$p/,$(PY_FILES)) \
	    $(foreach f,$(PY_FILES:.py=),$$p/__pycache__/$(f).*.pyc); \
	  rmdir $$p/__pycache__ 2>/dev/null; rmdir $$p 2>/dev/null || true; fi

# ---- MEX drop-in for WARPLab (Octave / MATLAB): make mex -----------------------------------
# The MEX is a shared object, so it links position-independent copies of the library's
# objects (their own folder, so the static library stays as it is). MATLAB users build
# the same sources with `mex` (docs/iq.md, "From MATLAB/Octave"). With SANITIZE=1 the MEX
# is built with the sanitizers and loads only into an Octave started with
# LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)".
# It links the shared library's PIC objects (PIC_OBJ above, hidden visibility: the MEX
# exports only its entry point) as an archive of their own.
PIC_LIB := $(BUILD)/pic/libwarpspeed_pic.a
MEX_SRC := $(sort $(wildcard octave/*.c))
MEX     := $(BUILD)/wl_mex_udp_transport.mex
MKOCTFILE ?= mkoctfile

$(PIC_LIB): $(PIC_OBJ)
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $^

.PHONY: mex
mex: $(MEX)

$(MEX): $(MEX_SRC) $(wildcard octave/*.h) $(PIC_LIB)
	@command -v $(MKOCTFILE) >/dev/null 2>&1 || { echo "make mex: $(MKOCTFILE) not found;" \
	  "install Octave's development files (Debian: apt-get install octave liboctave-dev)," \
	  "or build with MATLAB's mex as docs/iq.md says" >&2; exit 1; }
	@echo "  MEX     $@"
	$(Q)CFLAGS="-std=gnu11 -O2 -g -Wall -Wextra -fPIC -pthread $(SANFLAGS)" \
	  LDFLAGS="$(SANFLAGS)" $(MKOCTFILE) --mex -R2018a \
	  -D_GNU_SOURCE -Iinclude -Isrc -Ioctave -o $@ $(MEX_SRC) $(PIC_LIB) -lpthread

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(MPI_OBJ:.o=.d)
