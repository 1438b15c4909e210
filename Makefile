# warpspeed build: one object list becomes libwarpspeed.a, linked by the binary,
# the unit tests, the fuzzers and the benchmarks. Plain make, no autotools.
#
#   make                 build/warpspeed and build/libwarpspeed.a
#   make test            unit + integration tests, ends with "N passed, N failed"
#   make SANITIZE=1 test the same under ASan+UBSan (objects in build/san/)
#   make run             a loopback TCP_STREAM and IQ benchmark against built-in servers
#   make STATIC=1        static link; CC=... honoured; WERROR=1 turns warnings into errors
#   make install PREFIX=/usr/local DESTDIR=...

CC      ?= cc
AR      ?= ar
OPT     ?= -O2
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include

VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo 0.1.0)

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

CPPFLAGS += -D_GNU_SOURCE -Iinclude -Isrc -DWS_VERSION='"$(VERSION)"'
CFLAGS   ?=
CFLAGS   += -std=c11 $(OPT) -g $(WARN) $(SANFLAGS) -pthread -MMD -MP
LDFLAGS  += $(SANFLAGS) -pthread
LDLIBS   += -lm
ifeq ($(STATIC),1)
LDFLAGS  += -static
endif

LIB_SRC  := $(sort $(filter-out src/cli/%,$(wildcard src/*/*.c)))
CLI_SRC  := $(sort $(wildcard src/cli/*.c))
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

.PHONY: all test unit-tests bench-bins fuzz-run run bench install uninstall clean fuzz
all: $(BIN) $(LIB)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIB)
	@echo "  LINK    $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(LDLIBS)

# Unit tests link the CLI's modules too (all but main.o), so cli/ parsers are testable.
CLI_MOD_OBJ := $(filter-out %/main.o,$(CLI_OBJ))
$(BUILD)/tests/%: tests/unit/%.c tests/unit/harness.h $(LIB) $(CLI_MOD_OBJ)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit -o $@ $< $(CLI_MOD_OBJ) $(LIB) $(LDFLAGS) $(LDLIBS)

unit-tests: $(UNIT_BIN)

# C helpers of the benchmarks (bench/*.c), linked against the library like the tests.
BENCH_SRC := $(sort $(wildcard bench/*.c))
BENCH_BIN := $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
$(BUILD)/bench/%: bench/%.c $(LIB)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LIB) $(LDFLAGS) $(LDLIBS)
bench-bins: $(BENCH_BIN)

test: $(BIN) $(UNIT_BIN) $(BENCH_BIN)
	@tests/run-all $(BUILD)

run: $(BIN)
	@tests/main-job $(BUILD)

bench: $(BIN) $(BENCH_BIN)
	@bench/run $(BENCH)

FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
fuzz: $(LIB_SRC) $(FUZZ_SRC)
	@mkdir -p build/fuzz
	$(Q)for f in $(FUZZ_SRC); do n=$$(basename $$f .c); \
	  echo "  FUZZ    $$n"; \
	  clang -std=c11 -g -O1 $(CPPFLAGS) -fsanitize=fuzzer,address,undefined \
	    -o build/fuzz/$$n $$f $(LIB_SRC) -pthread -lm || exit 1; done

# Each fuzzer for a bounded time over its corpus folder (tests/fuzz/corpus_<name>, if any).
FUZZ_SECONDS ?= 30
fuzz-run: fuzz
	$(Q)for f in build/fuzz/fuzz_*; do n=$$(basename $$f); c=tests/fuzz/corpus_$${n#fuzz_}; \
	  w=$$(mktemp -d); [ -d $$c ] && cp -r $$c/. $$w/; \
	  echo "  RUN     $$n for $(FUZZ_SECONDS) s"; \
	  $$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=0 $$w >build/fuzz/$$n.log 2>&1 \
	    || { tail -n 40 build/fuzz/$$n.log; rm -rf $$w; exit 1; }; rm -rf $$w; done

install: $(BIN) $(LIB)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCDIR)/warpspeed
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/warpspeed
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libwarpspeed.a
	install -m 644 include/warpspeed/*.h $(DESTDIR)$(INCDIR)/warpspeed/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/warpspeed $(DESTDIR)$(LIBDIR)/libwarpspeed.a
	rm -rf $(DESTDIR)$(INCDIR)/warpspeed

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
