# Sennight: `make` builds ./sennight; `make play`, `make gui` and `make test` also install what is missing
# (`make deps`); `make help` lists the targets.
MODE ?= release
BUILD ?= build/$(MODE)
CC ?= cc
# No built-in rules: make would otherwise try to link the directory eval/weights from eval/weights.c
# whenever that file is newer.
MAKEFLAGS += --no-builtin-rules
PKGS := libxxhash check

# -Wno-psabi: cell sets are vectors (movegen/cellset.h), passed among functions built with the same flags.
WARN := -std=c17 -Wall -Wextra -Wno-psabi -D_POSIX_C_SOURCE=200809L
# Warnings are errors in every build the tests use, whose targets are fixed (below). GCC's value-range
# warnings depend on the target processor, so the release build, made for this machine's, only reports them.
WERROR := -Werror
# The release build's target: this machine's processor where the compiler knows it, else the compiler's
# default; `make MARCH=x86-64-v3` builds for another (valgrind, for one, runs no AVX-512 code: engine.md).
MARCH ?= native
RELEASE_MARCH := $(shell $(CC) -march=$(MARCH) -x c -c /dev/null -o /dev/null 2>/dev/null && echo -march=$(MARCH))
# The test build's target: x86-64-v3 (AVX2, BMI2, FMA, ...) where this processor has it, so that the tests
# run the AVX2 code (cell sets, move picking, the net's layers), else the x86-64 baseline. The
# sanitizer builds take the baseline, so the tests run the portable code too.
V3_FEATURES := AVX2 BMI BMI2 F16C FMA LZCNT MOVBE XSAVE
HOST_V3 := $(shell $(CC) -march=native -dM -E -x c /dev/null 2>/dev/null \
                   | grep -cE '^\#define __($(subst $() ,|,$(V3_FEATURES)))__ ')
TEST_MARCH := $(if $(filter $(words $(V3_FEATURES)),$(HOST_V3)),x86-64-v3,x86-64)
# Sanitized code runs several times slower: longer time limits, shallower perft, a sample of the positions
# the random walks meet (tests/tests.h, test_sample).
SANITIZED_TEST_ENV := TEST_TIME_SCALE=10 PERFT_MAX_NODES=300000 TEST_SAMPLE=4
ifeq ($(MODE),release)
  OPT := -O3 $(RELEASE_MARCH) -DNDEBUG
  WERROR :=
else ifeq ($(MODE),asan)
  # Line tables only (-g1): enough for the sanitizers' stack traces, and half the compile time of -g
  # (engine/width/instance.c: 96 s -> 54 s a width).
  OPT := -O1 -g1 -march=x86-64 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
  TEST_ENV := $(SANITIZED_TEST_ENV)
else ifeq ($(MODE),tsan)
  # Data races between the search threads, the UCI input thread and the loop (make tsan).
  OPT := -O1 -g1 -march=x86-64 -fsanitize=thread -fno-omit-frame-pointer
  TEST_ENV := $(SANITIZED_TEST_ENV)
else ifeq ($(MODE),fuzz)
  # libFuzzer harnesses (tests/fuzz/, docs/fuzzing.md): clang, coverage hooks, ASan and UBSan. Line
  # tables are all a sanitizer's report needs (file and line of each frame); full debug information
  # made the two engine instances' compiles take half as long again.
  CC := clang
  OPT := -O1 -gline-tables-only -march=x86-64 -fsanitize=fuzzer-no-link,address,undefined \
         -fno-sanitize-recover=all -fno-omit-frame-pointer
else ifeq ($(MODE),cpu)
  # The release's optimisation for another processor (CPU), compiled only: make other-cpus.
  OPT := -O3 -march=$(CPU) -DNDEBUG
else
  OPT := -O2 -g -march=$(TEST_MARCH)
endif
CFLAGS := $(WARN) $(WERROR) $(OPT) $(shell pkg-config --cflags libxxhash libmicrohttpd jansson 2>/dev/null) \
          $(EXTRA_CFLAGS)
LDLIBS := $(shell pkg-config --libs libxxhash 2>/dev/null || echo -lxxhash) \
          $(shell pkg-config --libs libmicrohttpd jansson 2>/dev/null || echo -lmicrohttpd -ljansson) -lpthread -lm
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt)
LDFLAGS := $(OPT) $(EXTRA_LDFLAGS)

# Each folder's sources are compiled once; those under a width/ folder are compiled once
# per cell-set width through engine/width/instance.c, which includes them (docs/cellsets.md).
SRC_DIRS := util rules movegen eval engine bench client games protocol match books datagen tune gui cli
SRCS := $(filter-out cli/main.c,$(wildcard $(SRC_DIRS:%=%/*.c)))
INSTANCE := engine/width/instance.c
INSTANCE_OBJS := $(BUILD)/$(INSTANCE:.c=128.o) $(BUILD)/$(INSTANCE:.c=256.o)
TEST_SRCS ?= $(wildcard tests/*.c)

# Objects compiled from the sources, and those of the embedded data (below).
SRC_OBJS := $(SRCS:%.c=$(BUILD)/%.o) $(INSTANCE_OBJS)
DATA_OBJS := $(BUILD)/variants_ini.o $(BUILD)/www_files.o $(BUILD)/eval_weights.o $(BUILD)/nets.o
OBJS := $(SRC_OBJS) $(DATA_OBJS)
# Header and included-file dependencies, written by the compiler (-MMD -MP).
DEPFLAGS = -MMD -MP -MF $(@:.o=.d)
TEST_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(TEST_SRCS))

.PHONY: all help deps deps-test deps-fuzz apt-install demo play gui test test-builds test-run test-gui tsan fuzz \
        fuzz-build fuzz-smoke other-cpus cpu-objects perft-deep perft-speed bench-instructions \
        bench-instructions-check openings books clean compile_commands.json layers

# ./sennight is built profile-guided where the compiler is GCC (build/pgo/sennight.final below).
PGO ?= 1
IS_GCC := $(shell $(CC) -v 2>&1 | grep -q '^gcc version' && echo yes)
all: ## ./sennight, optimised for this machine (PGO=0: without the profile-guided second build)
	@pkg-config --exists libxxhash libmicrohttpd jansson 2>/dev/null \
	    || echo "note: pkg-config does not find libxxhash, libmicrohttpd or jansson; make deps installs them" >&2
ifeq ($(PGO)$(IS_GCC),1yes)
	@$(MAKE) -s --no-print-directory -j2 build/pgo/sennight.final
	@$(call install_exe,build/pgo/sennight.final,sennight)
else
	@$(MAKE) --no-print-directory MODE=release sennight
endif

# The targets with a `## ` note on their line, and the note.
help: ## this list
	@sed -n 's/^\([a-z_.-]*\):[^#]*## \(.*\)/\1|\2/p' Makefile | awk -F'|' '{ printf "  make %-12s %s\n", $$1, $$2 }'

# What the build needs (deps) and what the tests need besides (deps-test), installed with apt-get
# when missing; the browser tests' npm packages come from gui/tests/package-lock.json.
BUILD_PKGS := libxxhash-dev pkg-config libmicrohttpd-dev libjansson-dev
TEST_PKGS := check chromium parallel valgrind
deps: ## installs the build's libraries with apt-get where missing
	@$(MAKE) --no-print-directory apt-install APT_PKGS="$(BUILD_PKGS)"

# Node.js only from Debian when there is none at all (a machine may have its own with npm).
deps-test: deps ## installs the tests' packages too (Check, Chromium, GNU parallel, npm packages)
	@$(MAKE) --no-print-directory apt-install APT_PKGS="$(TEST_PKGS) $$(command -v npm >/dev/null || echo nodejs npm)"
	@if [ ! -d gui/tests/node_modules ]; then npm ci --silent --prefix gui/tests; fi

# clang and its libFuzzer runtime for `make fuzz`.
FUZZ_PKGS := clang libclang-rt-14-dev
deps-fuzz: deps ## installs clang and libFuzzer too
	@$(MAKE) --no-print-directory apt-install APT_PKGS="$(FUZZ_PKGS)"

apt-install:
	@missing=""; \
	for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$missing >/dev/null; \
	fi

# A copy renamed into place: a ./sennight that is running (the GUI in another terminal) keeps its
# file, where cp onto it fails with "Text file busy".
install_exe = cp $(1) $(2).new && mv -f $(2).new $(2)

sennight: $(BUILD)/sennight
	@$(call install_exe,$<,$@)

$(BUILD)/sennight: $(OBJS) $(BUILD)/cli/main.o
	@echo "  LD    $@"
	@$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/run_tests: $(OBJS) $(TEST_OBJS)
	@echo "  LD    $@"
	@$(CC) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)

# A toy UCI engine that misbehaves on request: the match runner's tests play against it.
$(BUILD)/toy_engine: $(OBJS) $(BUILD)/tests/fixtures/toy_engine.o
	@echo "  LD    $@"
	@$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The version from git, rebuilt into util/version.o whenever it changes: the stamp file is rewritten
# only then. Outside git the define is left out and util/version.c says "unversioned".
VERSION := $(shell git describe --always --dirty 2>/dev/null)
VERSION_STAMP := $(BUILD)/version.stamp
# Written when missing too: outside git the version is empty, and so is a missing file's text.
$(shell mkdir -p $(BUILD) && [ -f $(VERSION_STAMP) ] && [ "$$(cat $(VERSION_STAMP))" = "$(VERSION)" ] || echo "$(VERSION)" > $(VERSION_STAMP))
$(BUILD)/util/version.o: $(VERSION_STAMP)
$(BUILD)/util/version.o: CFLAGS += $(if $(VERSION),-DSENNIGHT_VERSION='"$(VERSION)"')

# The flags likewise: every object depends on their stamp, so that a build with others (MARCH=...,
# EXTRA_CFLAGS=...) remakes what was built with the former.
FLAGS_STAMP := $(BUILD)/flags.stamp
ifneq ($(file < $(FLAGS_STAMP)),$(CFLAGS) $(LDFLAGS))
  $(file > $(FLAGS_STAMP),$(CFLAGS) $(LDFLAGS))
endif

# ./sennight is built profile-guided (PGO=0 builds it without): an instrumented build searches the
# bench at depth 5 and counts perft briefly in every variant, then GCC builds again, inlining and
# laying out code by what that run did (about 7 % more nodes/s, engine.md; the perft run keeps the
# counting generator as fast as the search's). GCC ties a static function's profile to its object's
# path, so both builds use build/pgo, one after the other; any change to the sources or the version
# redoes both.
# Both builds inline differently from the plain ones (the second by the profile) and then warn of
# uninitialised reads and out-of-bounds indices on paths that cannot run; the plain builds, which
# every test build is, keep those warnings as errors.
PGO_DATA := $(abspath build/pgo/profile)
PGO_INPUTS := Makefile $(shell find util rules engine eval movegen protocol bench match books datagen tune gui cli \
                               -type f ! -path 'gui/tests/*' 2>/dev/null)
build/pgo/sennight.final: $(PGO_INPUTS) $(VERSION_STAMP) $(FLAGS_STAMP)
	@rm -rf build/pgo
	@echo "  PGO   instrumented build"
	@$(MAKE) --no-print-directory MODE=release BUILD=build/pgo EXTRA_LDFLAGS=-fprofile-generate \
	    EXTRA_CFLAGS="-fprofile-generate -fprofile-update=atomic -fprofile-dir=$(PGO_DATA) -Wno-maybe-uninitialized -Wno-array-bounds" \
	    build/pgo/sennight >/dev/null
	@echo "  PGO   training run: sennight bench 5, perft-speed 0.1"
	@build/pgo/sennight bench 5 >/dev/null
	@build/pgo/sennight perft-speed 0.1 >/dev/null
	@find build/pgo -name '*.o' -delete
	@rm build/pgo/sennight
	@echo "  PGO   optimised build"
	@$(MAKE) --no-print-directory MODE=release BUILD=build/pgo \
	    EXTRA_CFLAGS="-fprofile-use -fprofile-partial-training -fprofile-dir=$(PGO_DATA) -Wno-maybe-uninitialized -Wno-array-bounds" \
	    build/pgo/sennight >/dev/null
	@mv build/pgo/sennight $@

$(BUILD)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC    $< ($(MODE))"
	@$(CC) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(INSTANCE_OBJS): $(BUILD)/$(INSTANCE:.c=)%.o: $(INSTANCE) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  CC    $(INSTANCE), $*-bit cell sets ($(MODE))"
	@$(CC) $(CFLAGS) $(DEPFLAGS) -DCELLSET_WORDS=$$(($*/64)) -c -o $@ $(INSTANCE)

# clangd's compile commands: every source and header with the build's flags, 128-bit cell sets. A file
# under a width/ folder is no unit of its own: its command pre-includes what the instance includes
# before it (the instance's #include lines, in order), so it parses alone as it compiles there.
INSTANCE_INCLUDES = $(shell sed -n 's|^\#include "\(.*\)"|$(dir $(INSTANCE))\1|p' $(INSTANCE) \
                             | xargs realpath -m --relative-to=.)
CLANGD_FLAGS = $(WARN:-Werror=) -DCELLSET_WORDS=2 \
               $(shell pkg-config --cflags libxxhash libmicrohttpd jansson check 2>/dev/null)
CLANGD_SRCS = $(SRCS) cli/main.c $(TEST_SRCS) $(wildcard tests/*/*.c) $(INSTANCE)
CLANGD_HEADERS = $(wildcard $(SRC_DIRS:%=%/*.h) $(SRC_DIRS:%=%/width/*.h) tests/*.h tests/*/*.h)
compile_commands.json: Makefile $(INSTANCE) ## compile commands for clangd, the width/ sources included
	@echo "  GEN   $@"
	@entry() { printf '%s\n{"directory": "%s", "file": "%s", "command": "$(CC) %s -c %s"}' \
	             "$$sep" "$(CURDIR)" "$$1" "$$2" "$$1"; sep=','; }; \
	flags='$(CLANGD_FLAGS)'; sep='['; pre=; \
	{ for f in $(CLANGD_SRCS); do entry $$f "$$flags"; done; \
	  for f in $(CLANGD_HEADERS); do entry $$f "$$flags -x c-header"; done; \
	  for f in $(INSTANCE_INCLUDES); do \
	    case $$f in *.c) entry $$f "$$flags$$pre" ;; esac; pre="$$pre -include $$f"; \
	  done; echo; echo ']'; } > $@

-include $(wildcard $(BUILD)/*.d $(BUILD)/*/*.d $(BUILD)/*/*/*.d)

# The built-in variant definitions are a text file embedded as a C string.
$(BUILD)/variants_ini.c: rules/variants.ini
	@mkdir -p $(dir $@)
	@{ echo 'const char variants_builtin_ini[] ='; sed 's/\\/\\\\/g; s/"/\\"/g; s/.*/"&\\n"/' $<; echo ';'; } > $@

$(BUILD)/variants_ini.o: $(BUILD)/variants_ini.c $(FLAGS_STAMP)
	@$(CC) $(CFLAGS) -c -o $@ $<

# The GUI's page (gui/www/**) embedded the same way: a table of {path, content type, bytes, length}
# (gui/www.h). The directories are prerequisites too, so that an added or removed file remakes it.
WWW_FILES := $(shell find gui/www -type f ! -name '.*' 2>/dev/null | LC_ALL=C sort)
WWW_DIRS := $(shell find gui/www -type d 2>/dev/null)
$(BUILD)/www_files.c: $(WWW_FILES) $(WWW_DIRS) gui/www_embed.sh
	@mkdir -p $(dir $@)
	@sh gui/www_embed.sh $(WWW_FILES) > $@

$(BUILD)/www_files.o: $(BUILD)/www_files.c $(FLAGS_STAMP)
	@$(CC) $(CFLAGS) -I. -c -o $@ $<

# The evaluation's built-in weights (eval/weights/*.txt) as C strings (weights_builtin, eval/weights.h);
# the directory too, so that a removed file remakes it.
WEIGHTS_FILES := $(shell find eval/weights -name '*.txt' 2>/dev/null | LC_ALL=C sort)
$(BUILD)/eval_weights.c: $(WEIGHTS_FILES) $(wildcard eval/weights) eval/weights_embed.sh
	@mkdir -p $(dir $@)
	@sh eval/weights_embed.sh $(WEIGHTS_FILES) > $@

$(BUILD)/eval_weights.o: $(BUILD)/eval_weights.c $(FLAGS_STAMP)
	@$(CC) $(CFLAGS) -I. -c -o $@ $<

# The shipped nets (eval/nets/<variant>.nnue, docs/nnue.md) embedded the same way (eval/nets.h).
NET_FILES := $(sort $(wildcard eval/nets/*.nnue))
$(BUILD)/nets.c: $(NET_FILES) $(wildcard eval/nets) eval/nets_embed.sh
	@mkdir -p $(dir $@)
	@sh eval/nets_embed.sh $(NET_FILES) > $@

$(BUILD)/nets.o: $(BUILD)/nets.c $(FLAGS_STAMP)
	@$(CC) $(CFLAGS) -I. -c -o $@ $<

demo: deps ## draws the Glinski board and runs a perft divide
	@$(MAKE) --no-print-directory all
	@printf 'uci\nvariants\nd\ngo perft 2\n' | ./sennight | grep -v '^option\|^id '

# A game against the engine in the terminal: `make play`, `VARIANT=mccooey make play`.
VARIANT ?= glinski
play: deps ## a game against the engine in the terminal (VARIANT=mccooey make play)
	@$(MAKE) --no-print-directory all
	@./sennight play --variant $(VARIANT)

# The browser GUI (docs/gui.md): `make gui`, `make gui GUI_ARGS="--port 8080"`.
gui: deps ## the board in the browser (GUI_ARGS="--port 8080")
	@$(MAKE) --no-print-directory all
	@./sennight gui $(GUI_ARGS)

# Everything, side by side after the builds: the include check between folders (tests/layers.sh); the
# Check suites in three groups of about equal time,
# each group one process, optimised and under address and undefined-behaviour sanitizers; the
# ThreadSanitizer run over UCI; the page's browser tests; a short run of every fuzzer. TEST_JOBS parts at a time, each logged to
# build/<part>.log; the report at the end gives every part's status and wall time, and the failures' logs.
TEST_JOBS ?= 4
CHECK_GROUPS := 1 2 3
CHECK_GROUP_1 := reference-games reference search san
CHECK_GROUP_2 := reference-placements books match datagen
CHECK_GROUP_3 := --except $(CHECK_GROUP_1) $(CHECK_GROUP_2)
# The fuzz part first, its own build being the longest chain; the optimised groups beside it, as their
# time limits are unscaled. Four parts on two cores: parts that wait on engines and the browser leave a
# core idle otherwise (three parts kept the two cores about half busy).
TEST_PARTS := fuzz layers $(CHECK_GROUPS:%=check-%) $(CHECK_GROUPS:%=asan-%) browser tsan other-cpus
# What the suites need from a build directory.
suite_env = SENNIGHT=$(1)/sennight TOY_ENGINE=$(1)/toy_engine PERFT_DIR=tests/perft

test: deps-test ## every test, side by side, with a report of each part's status and time
	@rm -rf build/parts
	@sh tests/parts.sh run build $(MAKE) --no-print-directory -j2 test-builds || { sh tests/parts.sh report build; exit 1; }
	@$(MAKE) --no-print-directory -k -j$(TEST_JOBS) $(TEST_PARTS:%=part-%) || true
	@sh tests/parts.sh report build $(TEST_PARTS)

test-builds: build-test build-asan build-tsan
build-%:
	@$(MAKE) --no-print-directory MODE=$* build/$*/run_tests build/$*/sennight build/$*/toy_engine
build-tsan:
	@$(MAKE) --no-print-directory MODE=tsan build/tsan/sennight

part-layers:
	@sh tests/parts.sh run layers sh tests/layers.sh
part-check-%:
	@sh tests/parts.sh run check-$* env $(call suite_env,build/test) build/test/run_tests $(CHECK_GROUP_$*)
part-asan-%:
	@sh tests/parts.sh run asan-$* env $(call suite_env,build/asan) $(SANITIZED_TEST_ENV) build/asan/run_tests $(CHECK_GROUP_$*)
part-browser:
	@sh tests/parts.sh run browser $(MAKE) --no-print-directory MODE=test test-gui
part-tsan:
	@sh tests/parts.sh run tsan sh tests/tsan_uci.sh build/tsan/sennight
part-fuzz:
	@sh tests/parts.sh run fuzz $(MAKE) --no-print-directory fuzz-smoke
part-other-cpus:
	@sh tests/parts.sh run other-cpus $(MAKE) --no-print-directory other-cpus

# Every C file of the executables and tests compiled, not linked, at the release's -O3 for processors
# other than this one, warnings as errors: the x86-64 baseline and AVX-512 (Ice Lake, Zen 4). GCC's
# value-range warnings follow the target, so the build is known clean on those hosts too.
OTHER_CPUS := x86-64 x86-64-v4
other-cpus: ## the sources built warning-free at -O3 for x86-64 and x86-64-v4
	@for cpu in $(OTHER_CPUS); do \
	  $(MAKE) --no-print-directory MODE=cpu CPU=$$cpu BUILD=build/cpu-$$cpu cpu-objects || exit 1; \
	done
cpu-objects: $(SRC_OBJS) $(BUILD)/cli/main.o $(TEST_OBJS) $(BUILD)/tests/fixtures/toy_engine.o

# Every #include between folders against the allowed edges of docs/layers.txt (docs/architecture.md).
layers: ## every #include between folders checked against docs/layers.txt
	@sh tests/layers.sh

# A 4-thread search driven over UCI through stop, ponderhit, isready, option changes and quit under
# ThreadSanitizer: any report fails (tests/tsan_uci.sh).
tsan: build-tsan ## a 4-thread search over UCI under ThreadSanitizer
	sh tests/tsan_uci.sh build/tsan/sennight

# The page's tests in a headless browser against the real server (gui/tests/run.mjs).
test-gui: deps-test $(BUILD)/sennight $(BUILD)/toy_engine ## the page's browser tests
	SENNIGHT=$(BUILD)/sennight TOY_ENGINE=$(BUILD)/toy_engine node gui/tests/run.mjs

test-run: $(BUILD)/run_tests $(BUILD)/sennight $(BUILD)/toy_engine ## the Check suites of one build (MODE=test, asan)
	$(call suite_env,$(BUILD)) $(TEST_ENV) $(BUILD)/run_tests

# Coverage-guided fuzzing (docs/fuzzing.md): one libFuzzer harness per reader, in build/fuzz/fuzz_<target>.
FUZZ_TARGETS := fen variant book epd uci
FUZZ_SMOKE_SECONDS ?= 15

fuzz: deps-fuzz ## builds the libFuzzer harnesses into build/fuzz
	@$(MAKE) --no-print-directory MODE=fuzz fuzz-build

# The harnesses reach the readers through the UCI server and the layers under it (docs/layers.txt):
# only those folders' objects are compiled and linked, not the applications' (gui, match, ...).
FUZZ_DIRS := util rules eval engine bench client games protocol
FUZZ_OBJS := $(filter $(FUZZ_DIRS:%=$(BUILD)/%/%),$(SRC_OBJS)) $(filter-out $(BUILD)/www_files.o,$(DATA_OBJS))

fuzz-build: $(FUZZ_TARGETS:%=$(BUILD)/fuzz_%)
.SECONDARY: $(FUZZ_TARGETS:%=$(BUILD)/tests/fuzz/fuzz_%.o) $(BUILD)/tests/fuzz/fuzz.o

$(BUILD)/fuzz_%: $(FUZZ_OBJS) $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/fuzz.o $(BUILD)/tests/perft_epd.o
	@echo "  LD    $@"
	@$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

# Each target a few seconds from its seeds (tests/fuzz/<target>/); what it finds goes to build/fuzz/corpus/,
# a crash fails the run and leaves its input in build/fuzz/.
fuzz-smoke: fuzz ## runs every harness for FUZZ_SMOKE_SECONDS
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p build/fuzz/corpus/$$t; \
	  dict=; if [ -f tests/fuzz/$$t.dict ]; then dict=-dict=tests/fuzz/$$t.dict; fi; \
	  echo "  FUZZ  $$t ($(FUZZ_SMOKE_SECONDS) s)"; \
	  build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SMOKE_SECONDS) -print_final_stats=1 $$dict \
	    -artifact_prefix=build/fuzz/$$t- build/fuzz/corpus/$$t tests/fuzz/$$t 2>build/fuzz/$$t.log \
	    || { tail -40 build/fuzz/$$t.log; exit 1; }; \
	  grep -h '^#.*DONE\|stat::number_of_executed_units' build/fuzz/$$t.log; \
	done

# Every depth of every perft suite, outside CI.
perft-deep: deps-test ## every depth of every perft suite
	@$(MAKE) --no-print-directory MODE=test build/test/run_tests
	CK_RUN_SUITE=perft CK_DEFAULT_TIMEOUT=0 TEST_TIME_SCALE=1000 PERFT_MAX_NODES=0 build/test/run_tests

perft-speed: all ## perft's leaf nodes per second in every variant
	./sennight perft-speed

# Instructions per node of the bench's searches under callgrind, this tree against REF (default: where
# the branch left main, or HEAD~1 on main) at bench depth DEPTH, with the shipped nets if NNUE=1
# (engine.md, Measurements).
DEPTH ?= 5
bench-instructions: deps ## instructions per node per variant group, this tree against REF (callgrind)
	@sh bench/instructions.sh -d $(DEPTH) $(if $(filter 1,$(NNUE)),-n) $(REF)

# The script at depth 1, one build against itself: five rows of whole numbers and no change.
ICOUNT_BUILD := build/icount/tree
ICOUNT_ENGINE = $(ICOUNT_BUILD)/sennight
bench-instructions-check: deps
	@$(MAKE) --no-print-directory -j2 MODE=release BUILD=$(ICOUNT_BUILD) EXTRA_CFLAGS=-mno-avx512f $(ICOUNT_ENGINE)
	@sh bench/instructions.sh -d 1 -e $(ICOUNT_ENGINE) -E $(ICOUNT_ENGINE) | awk ' \
	    NR > 2 && /^[A-Za-z][A-Za-z0-9 -]*[a-z0-9] +[1-9][0-9]* +[1-9][0-9]* +[1-9][0-9]* +[1-9][0-9]* +\+0\.0%$$/ \
	        { rows++; last = $$1 " " $$2 } \
	    END { if (NR != 7 || rows != 5 || last != "whole bench") { print "bench-instructions-check: bad output"; exit 1 } \
	          print "bench-instructions-check: ok" }'

# The shipped opening suites and books (docs/books.md): one thread, node limits, a fixed seed, so the
# same executable remakes the same bytes. Every variant the executable lists gets a suite; some only:
# `make openings SUITE_VARIANTS="wellisch nd-foo"`.
SUITE_VARIANTS ?= $(shell printf 'variants\nquit\n' | $(BUILD)/sennight | cut -d' ' -f1)
SUITE_ARGS := --count 300 --min-plies 4 --max-plies 8 --max-score 50 --nodes 10000 --seed 1 --hash 4
BOOK_VARIANTS ?= glinski mccooey full-house
BOOK_ARGS := --expand --plies 8 --width 3 --margin 15 --nodes 50000 --hash 4

openings: $(BUILD)/sennight ## remakes the shipped opening suites (SUITE_VARIANTS=...)
	@mkdir -p books/openings
	@for v in $(SUITE_VARIANTS); do \
	  $(BUILD)/sennight book openings --variant $$v --out books/openings/$$v.epd $(SUITE_ARGS) || exit 1; \
	done

books: $(BUILD)/sennight ## remakes the shipped opening books (BOOK_VARIANTS=...)
	@for v in $(BOOK_VARIANTS); do \
	  $(BUILD)/sennight book build --variant $$v --out books/$$v.bin $(BOOK_ARGS) || exit 1; \
	done

clean: ## removes build/ and ./sennight
	rm -rf build sennight sennight.new
