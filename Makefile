# Top-level entry points; the build itself is CMake's (CMakeLists.txt).
#
#   make deps    install the Debian 12 packages the build and tests need (as root)
#   make build   configure and compile into build/ (warnings are errors)
#   make run     encode the kernel corpus (or a small sample) and summarise the BTF
#   make check   build, then run the tests with ctest, then the sanitizer passes
#                (CHECK_SANITIZERS) and FUZZ_RUNS fuzzed inputs, the same every
#                run (fuzz-check)
#   make check-fast  build, then the tests labelled "fast" (the rules' tests)
#                with TEST_FAST=1: under a minute, the inner loop of a change
#   make fuzz-check  build the libFuzzer target with clang into build-fuzz/,
#                replay the regressions and FUZZ_RUNS inputs of a fixed seed
#   make fuzz    fuzz for FUZZ_TIME seconds, open-ended (a crash, leak or UB
#                report fails)
#   make clean   remove the build trees
#   make format  clang-format the C sources in place

SHELL := /bin/bash
BUILD_DIR ?= build
CMAKE_FLAGS ?= -DWERROR=ON
JOBS ?= $(shell nproc)
SHARED ?= ../shared
ifeq ($(origin CC),default)
CC := gcc
endif

PAHOLE := $(BUILD_DIR)/pahole
CORPUS_TOOL := $(SHARED)/tools/corpus
BTFCANON := python3 $(SHARED)/tools/btfcanon
CORPUS := $(BUILD_DIR)/corpus
VMLINUX := $(CORPUS)/vmlinux-6.1.0-57-cloud-amd64
TIME := /usr/bin/time -f 'wall time: %e s, peak RSS: %M KiB'

# Debian 12 packages: toolchain, libraries, and what the tests and `make run` use.
# libclang-rt-14-dev: clang's sanitizer and libFuzzer runtimes (only
# recommended by clang); llvm: llvm-symbolizer, for file:line in reports;
# dwarves: the pahole that tests/test_fallback.sh hands -C to.
DEB_PKGS := cmake gcc clang pkg-config make libdw-dev libelf-dev libbpf-dev zlib1g-dev libzstd-dev \
	bpftool python3 xz-utils binutils time libclang-rt-14-dev llvm valgrind dwz dwarves

.PHONY: all deps build run run-corpus run-sample check check-fast check-asan check-tsan fuzz-build fuzz-check fuzz clean format

all: build

deps:
	@missing=$$(for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${db:Status-Abbrev}' "$$p" 2>/dev/null | grep -q '^ii' || echo "$$p"; \
	done | xargs); \
	if [ -z "$$missing" ]; then \
		echo "deps: all needed Debian packages are installed"; \
	elif [ "$$(id -u)" -eq 0 ]; then \
		echo "deps: installing $$missing"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	else \
		echo "deps: missing Debian packages: $$missing" >&2; \
		echo "deps: install them as root: apt-get update && apt-get install -y $$missing" >&2; \
		exit 1; \
	fi

build: deps
	cmake -B $(BUILD_DIR) -S . $(CMAKE_FLAGS)
	cmake --build $(BUILD_DIR) -j$(JOBS)

# The real kernel when ../shared is there, else a small sample object.
run: build
	@if [ -e $(CORPUS_TOOL) ]; then \
		$(MAKE) --no-print-directory run-corpus; \
	else \
		echo "run: $(CORPUS_TOOL) not found; encoding tests/fixtures/sample.c instead"; \
		$(MAKE) --no-print-directory run-sample; \
	fi

run-corpus:
	flock $(BUILD_DIR)/.corpus.lock bash $(CORPUS_TOOL) $(CORPUS)
	$(TIME) $(PAHOLE) -J -j --btf_features=default \
		--btf_encode_detached=$(BUILD_DIR)/vmlinux.btf $(VMLINUX)
	@echo "== $(BUILD_DIR)/vmlinux.btf:"
	@$(BTFCANON) summary $(BUILD_DIR)/vmlinux.btf
	@echo "== against pahole v1.31 (A = reference, B = ours):"
	@$(BTFCANON) diff $(CORPUS)/reference/vmlinux.default.btf $(BUILD_DIR)/vmlinux.btf --max 3 || \
		echo "(the encoding differs from pahole v1.31's)"

run-sample:
	@mkdir -p $(BUILD_DIR)
	$(CC) -g -O2 -c tests/fixtures/sample.c -o $(BUILD_DIR)/sample.o
	$(TIME) $(PAHOLE) -J -j --btf_features=default \
		--btf_encode_detached=$(BUILD_DIR)/sample.btf $(BUILD_DIR)/sample.o
	@echo "== types per kind in $(BUILD_DIR)/sample.btf:"
	@set -o pipefail; bpftool btf dump file $(BUILD_DIR)/sample.btf | \
		awk '/^\[/ { print $$2 }' | sort | uniq -c

# Sanitizer builds go to build-asan/ and build-tsan/ and run the same tests,
# in their fast form (TEST_FAST=1, tests/lib.sh): the plain pass runs them whole.
# `make check` (and so CI) runs those listed in CHECK_SANITIZERS after the
# plain tests: ThreadSanitizer, then AddressSanitizer with UBSan and
# LeakSanitizer (any report fails the test; see tests/CMakeLists.txt);
# e.g. `make check CHECK_SANITIZERS=` for none.
CHECK_SANITIZERS ?= tsan asan
SAN_FLAGS_asan := -DSANITIZE_ADDRESS=ON
SAN_FLAGS_tsan := -DSANITIZE_THREAD=ON
# TSan makes pahole ~10x slower: its pass runs the tests labelled "threads",
# those that run several workers (tests/CMakeLists.txt); SAN_CTEST_tsan= runs all.
SAN_CTEST_tsan ?= -L '^threads$$'
# ASan+UBSan makes pahole ~2-3x slower: its pass runs the tests labelled
# "asan" (types, functions, bad input, claim_stress, fuzz regressions and the
# corpus: modules and vmlinux); SAN_CTEST_asan= runs all.
SAN_CTEST_asan ?= -L '^asan$$'
# GCC 12's TSan can fail to map its shadow memory ("unexpected memory
# mapping") when the kernel randomizes mmap with 32 bits (vm.mmap_rnd_bits on
# recent kernels): run its tests without ASLR where the system lets us.
SAN_RUN_tsan = $(shell setarch $$(uname -m) -R true 2>/dev/null && echo setarch $$(uname -m) -R)

check: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j2
	@for s in $(CHECK_SANITIZERS); do $(MAKE) --no-print-directory check-$$s || exit; done
	@if [ "$(FUZZ_RUNS)" != 0 ]; then $(MAKE) --no-print-directory fuzz-check; fi

# Three at a time on two cores: test_bad_input and test_fallback spend
# seconds waiting (on strace, on signals), not computing.
check-fast: build
	TEST_FAST=1 ctest --test-dir $(BUILD_DIR) --output-on-failure -j3 -L '^fast$$'

check-asan check-tsan: check-%: deps
	cmake -B build-$* -S . $(CMAKE_FLAGS) $(SAN_FLAGS_$*)
	cmake --build build-$* -j$(JOBS)
	TEST_FAST=1 $(SAN_RUN_$*) ctest --test-dir build-$* --output-on-failure -j2 $(SAN_CTEST_$*)

# libFuzzer (tests/fuzz/fuzz_encode.c): clang, ASan+UBSan, in build-fuzz/.
# `make fuzz-check` (part of `make check`, deterministic): the reproducers of
# tests/fixtures/fuzz_regress/ once each, then FUZZ_RUNS inputs mutated from
# the seeds (the fixtures compiled) with libFuzzer's seed FUZZ_SEED, into an
# empty corpus: the same inputs on every run, so that CI fails on a change,
# not at random.  `make fuzz`: open-ended, FUZZ_TIME seconds from the seeds
# and what earlier runs found (build-fuzz/fuzz-corpus), a new seed each run.
# A crash, a leak, a UBSan report, a timeout (FUZZ_TIMEOUT s on one input) or
# RSS over FUZZ_RSS_MB fails either; the input is saved in
# build-fuzz/fuzz-artifacts/.  -close_fd_mask=2 silences pahole's one-line
# errors on the mutated inputs (sanitizer reports still go to stderr).
# `make check FUZZ_RUNS=0` leaves the fuzzing out.
FUZZ_DIR ?= build-fuzz
FUZZ_RUNS ?= 60000
FUZZ_SEED ?= 1
FUZZ_TIME ?= 600
FUZZ_TIMEOUT ?= 20
FUZZ_RSS_MB ?= 4096
FUZZ_BIN := $(FUZZ_DIR)/tests/fuzz/fuzz_encode
FUZZ_ENV := UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:detect_stack_use_after_return=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0
FUZZ_OPTS = -rss_limit_mb=$(FUZZ_RSS_MB) -timeout=$(FUZZ_TIMEOUT) -print_final_stats=1 \
	-close_fd_mask=2 -artifact_prefix=$(FUZZ_DIR)/fuzz-artifacts/
FUZZ_QUIET = grep -v -e '^\#[0-9]*[[:space:]]*\(NEW\|REDUCE\|pulse\)' -e '^[[:space:]]*"'

fuzz-build: deps
	CC=clang cmake -B $(FUZZ_DIR) -S . $(CMAKE_FLAGS) -DBUILD_FUZZER=ON
	cmake --build $(FUZZ_DIR) -j$(JOBS) --target fuzz_encode fuzz_seeds
	mkdir -p $(FUZZ_DIR)/fuzz-corpus $(FUZZ_DIR)/fuzz-artifacts

fuzz-check: fuzz-build
	@regress=$$(find tests/fixtures/fuzz_regress -type f 2>/dev/null | sort); \
	if [ -n "$$regress" ]; then \
		echo "fuzz-check: the $$(echo "$$regress" | wc -l) reproducers in tests/fixtures/fuzz_regress"; \
		$(FUZZ_ENV) $(FUZZ_BIN) -rss_limit_mb=$(FUZZ_RSS_MB) -timeout=$(FUZZ_TIMEOUT) \
			$$regress 2>&1 | tail -n 40; \
		[ "$${PIPESTATUS[0]}" -eq 0 ] || exit 1; \
	fi
	@if [ "$(FUZZ_RUNS)" = 0 ]; then exit 0; fi; \
	echo "fuzz-check: $(FUZZ_RUNS) inputs from the seeds, libFuzzer seed $(FUZZ_SEED)"; \
	rm -rf $(FUZZ_DIR)/fuzz-replay && mkdir $(FUZZ_DIR)/fuzz-replay; \
	$(FUZZ_ENV) $(FUZZ_BIN) -seed=$(FUZZ_SEED) -runs=$(FUZZ_RUNS) $(FUZZ_OPTS) \
		$(FUZZ_DIR)/fuzz-replay $(FUZZ_DIR)/tests/fuzz/seeds 2>&1 | $(FUZZ_QUIET); \
	rc=$${PIPESTATUS[0]}; [ $$rc -eq 0 ] || echo "fuzz-check: FAILED (exit $$rc); the input is in $(FUZZ_DIR)/fuzz-artifacts/" >&2; exit $$rc

fuzz: fuzz-build
	$(FUZZ_ENV) $(FUZZ_BIN) -max_total_time=$(FUZZ_TIME) $(FUZZ_OPTS) \
		$(FUZZ_DIR)/fuzz-corpus $(FUZZ_DIR)/tests/fuzz/seeds 2>&1 | $(FUZZ_QUIET); \
		rc=$${PIPESTATUS[0]}; [ $$rc -eq 0 ] || echo "fuzz: FAILED (exit $$rc); the input is in $(FUZZ_DIR)/fuzz-artifacts/" >&2; exit $$rc

clean:
	rm -rf $(BUILD_DIR) build-asan build-tsan $(FUZZ_DIR)

FORMAT_SRCS = $(wildcard *.c *.h lib/*.c lib/*.h tests/*.c tests/fuzz/*.c)

format:
	@command -v clang-format >/dev/null || { echo "format: apt-get install clang-format" >&2; exit 1; }
	$(if $(FORMAT_SRCS),clang-format -i $(FORMAT_SRCS),@echo "format: no sources")
