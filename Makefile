# Makefile — builds, tests, benchmarks and demos railsym.  docs/build.md explains
# the conventions; the short version:
#
#   make          build/railsym, build/librailsym_sym.a, build/librailsym_rt.a
#   make test     build, run every tests/test_* program, then rebuild everything
#                 in build-asan/ under AddressSanitizer + UBSan and run them again
#   make test-quick  the first pass of `make test` only (normal build)
#   make bench    run every tests/bench_* program (prints BENCH lines); first
#                 checks (as root: installs) the benchmark tools (bench-deps)
#   make demo     run scripts/demo.sh (every tests/demo_* program, and more)
#   make deps     check (as root: install) the Debian packages building and
#                 testing need; every target runs this step first
#   make runtime-lib  build/librailsym_core.a alone: what an embedded program links
#   make install  bin/railsym, the libraries, the abi/ runtime/core/
#                 runtime/contact/ headers (include/railsym/) and railsym.pc
#                 under PREFIX (default /usr/local), staged under DESTDIR
#   make clean    remove build/ and build-asan/
#
# Sources are found by wildcard, so new files need no Makefile edit:
#   modeler/*/*.cpp, codegen/*.cpp      -> librailsym_sym.a
#   runtime/*/*.c                       -> librailsym_rt.a
#   runtime/core/*.c, runtime/contact/*.c -> librailsym_core.a (what an embedded
#                                          program links: no libtcc, no libdl)
#   cli/*.cpp but cli/railsym.cpp       -> librailsym_cli.a
#   cli/railsym.cpp + the libraries     -> railsym
#   tests/*/{test,bench,demo}_*.cpp  C++ programs: + tests/support/*.cpp, the libs
#   tests/*/{test,bench,demo}_*.c    C programs:   + tests/support/*.c (but alloc_hook.c), runtime lib
# Each folder compiles with only the include paths its layer may use
# (INC_* below; docs/architecture.md), so an include across a forbidden
# boundary fails the build; scripts/check-layout.sh also checks the rules
# and that no include cycle exists.
# V=1 shows full command lines.

.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
.SUFFIXES:

# Parallel by default (one job per core), so that a plain `make test`, as CI
# runs it, stays well inside its time budget; a -j on the command line wins
# (`make -j1` for a serial build).  Sub-makes share the parent's jobserver.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(JOBS)
endif
# `make clean all`: never clean and build at the same time.
ifneq ($(filter clean,$(MAKECMDGOALS)),)
.NOTPARALLEL:
endif

BUILD      ?= build
ASAN_BUILD ?= build-asan
SANITIZE   ?= 0

# Make's built-in default for CC is `cc`; the conventions say gcc.
ifeq ($(origin CC),default)
CC := gcc
endif
ifeq ($(origin CXX),default)
CXX := g++
endif

# The sanitizer pass compiles the C++ (modeler, code generator, tests) at
# -Og: half the compile time of -O2 under ASan, and the C++ is not what the
# sanitizer tests spend their time in (the runtime's C stays at -O2).
ifeq ($(SANITIZE),1)
CXXFLAGS ?= -Og -g
endif
CFLAGS   ?= -O2 -g
CXXFLAGS ?= -O2 -g
LDFLAGS  ?=

SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ifeq ($(SANITIZE),1)
SAN := $(SAN_FLAGS)
endif

# pkg-config is asked lazily, once, and only by recipes: recipes run after the
# `deps` step, so on a fresh machine pkg-config exists by the time it is asked.
GINAC_CFLAGS = $(eval GINAC_CFLAGS := $$(shell pkg-config --cflags ginac))$(GINAC_CFLAGS)
GINAC_LIBS   = $(eval GINAC_LIBS := $$(shell pkg-config --libs ginac))$(GINAC_LIBS)
CHECK_CFLAGS = $(eval CHECK_CFLAGS := $$(shell pkg-config --cflags check))$(CHECK_CFLAGS)
CHECK_LIBS   = $(eval CHECK_LIBS := $$(shell pkg-config --libs check))$(CHECK_LIBS)
# MPI (issue 11, docs/sweeps.md): Debian 12's Open MPI is `ompi-c` to
# pkg-config.  Only runtime/app/rs_sweep_mpi.c and rs_coupled_mpi.c include
# <mpi.h> (flags below, on those objects); the railsym command and the C++
# tests (which reach cmd_run) link libmpi; MPI_Init runs only for `railsym
# sweep --mpi` and `railsym run --mpi` (docs/coupled.md).
MPI_CFLAGS   = $(eval MPI_CFLAGS := $$(shell pkg-config --cflags ompi-c))$(MPI_CFLAGS)
MPI_LIBS     = $(eval MPI_LIBS := $$(shell pkg-config --libs ompi-c))$(MPI_LIBS)
# Result files (docs/results.md): MAT through libmatio, HDF5 through libhdf5
# (Debian 12: `matio` and `hdf5`, the serial build).  Only the two writers
# include their headers (flags below, on those objects); every program that
# links the runtime library links both.
RESULTS_CFLAGS = $(eval RESULTS_CFLAGS := $$(shell pkg-config --cflags matio hdf5))$(RESULTS_CFLAGS)
RESULTS_LIBS   = $(eval RESULTS_LIBS := $$(shell pkg-config --libs matio hdf5))$(RESULTS_LIBS)
# Spectra (docs/analyses.md): FFTW 3 for the Welch PSD, the comfort weighting
# filters and the irregularity synthesis (runtime/app/rs_psd.c, rs_comfort.c,
# rs_irregularity.c, rs_spectral_filter.c); every program that links the runtime
# library links it.
FFTW_CFLAGS = $(eval FFTW_CFLAGS := $$(shell pkg-config --cflags fftw3))$(FFTW_CFLAGS)
FFTW_LIBS   = $(eval FFTW_LIBS := $$(shell pkg-config --libs fftw3))$(FFTW_LIBS)

WARN        := -Wall -Wextra
DEPFLAGS    := -MMD -MP
ALL_CXXFLAGS = -std=c++17 $(WARN) $(CXXFLAGS) $(SAN) $(DEPFLAGS) $(GINAC_CFLAGS) $(CHECK_CFLAGS)
ALL_CFLAGS   = -std=c11 $(WARN) $(CFLAGS) $(SAN) $(DEPFLAGS) $(CHECK_CFLAGS)
ALL_LDFLAGS  = $(LDFLAGS) $(SAN)
# LAPACK (Debian liblapack-dev, Fortran interface): the linear analysis
# (runtime/app/rs_linear*.c: SVD, LU, eigenvalues).
SYS_LIBS    := -ltcc -ldl -lklu -llapack -lm -lpthread

# ---------------------------------------------------------------- layers
# The include paths of each folder: a layer sees its own headers and those
# of the layers below it, nothing else (docs/architecture.md has the picture).
INC_abi        := -I abi
INC_common     := -I common
INC_core       := -I abi -I runtime/core
INC_contact    := $(INC_core) $(INC_common) -I runtime/contact
INC_load       := $(INC_core) -I runtime/load
INC_train      := $(INC_contact) -I runtime/train
INC_coupled    := $(INC_core) -I runtime/coupled
INC_app        := $(INC_train) -I runtime/load -I runtime/coupled -I runtime/app
INC_api        := $(INC_app) -I runtime/api
INC_algebra    := $(INC_common) -I modeler/algebra
INC_kinematics := $(INC_algebra) -I modeler/kinematics
INC_mechanics  := $(INC_kinematics) -I modeler/mechanics
INC_vdl        := $(INC_mechanics) -I modeler/vdl
INC_codegen    := $(INC_vdl) -I abi -I codegen
INC_cli        := $(INC_codegen) -I runtime/core -I runtime/contact -I runtime/train \
                  -I runtime/load -I runtime/coupled -I runtime/app -I runtime/api -I cli
INC_tests      := $(INC_cli) -I tests/support -I tests/tools

# ---------------------------------------------------------------- sources
MAIN_SRC    := cli/railsym.cpp
# common/: the C helpers every layer may use (in each library that needs them).
COMMON_SRCS := $(sort $(wildcard common/*.c))
SYM_SRCS    := $(sort $(wildcard modeler/*/*.cpp) $(wildcard codegen/*.cpp)) $(COMMON_SRCS)
CLI_SRCS    := $(sort $(filter-out $(MAIN_SRC),$(wildcard cli/*.cpp)))
RT_SRCS     := $(sort $(wildcard runtime/*/*.c)) $(COMMON_SRCS)
CORE_SRCS   := $(sort $(wildcard runtime/core/*.c runtime/contact/*.c)) $(COMMON_SRCS)
SUPPORT_CXX := $(sort $(wildcard tests/support/*.cpp))
# The malloc interposer replaces the allocator of the program it is linked
# into: only the programs listed below link it (tests/support/alloc_hook.h).
ALLOC_HOOK  := tests/support/alloc_hook.c
SUPPORT_C   := $(sort $(filter-out $(ALLOC_HOOK),$(wildcard tests/support/*.c)))

# Objects keep the source's path and extension: build/obj/modeler/atoms.cpp.o,
# so tests/unit/foo.c and tests/unit/foo.cpp never collide.
obj = $(patsubst %,$(BUILD)/obj/%.o,$(1))

SYM_OBJS         := $(call obj,$(SYM_SRCS))
CLI_OBJS         := $(call obj,$(CLI_SRCS))
RT_OBJS          := $(call obj,$(RT_SRCS))
CORE_OBJS        := $(call obj,$(CORE_SRCS))
MAIN_OBJ         := $(call obj,$(MAIN_SRC))
SUPPORT_CXX_OBJS := $(call obj,$(SUPPORT_CXX))
SUPPORT_C_OBJS   := $(call obj,$(SUPPORT_C))

LIBSYM  := $(BUILD)/librailsym_sym.a
LIBCLI  := $(BUILD)/librailsym_cli.a
LIBRT   := $(BUILD)/librailsym_rt.a
LIBCORE := $(BUILD)/librailsym_core.a
# The embedding API (runtime/api/railsym.h) with the runtime above the core:
# installed as librailsym.a, linked before librailsym_core.a (docs/api.md).
LIBAPI  := $(BUILD)/librailsym.a
RAILSYM := $(BUILD)/railsym

# Programs: tests/GROUP/KIND_NAME.cpp|c -> $(BUILD)/DIR/KIND_NAME, DIR per
# kind (tests, bench, demo), whatever the group (unit, physics, e2e, bench,
# demo): test names are unique across groups.
prog_srcs  = $(sort $(filter-out tests/support/% tests/tools/%,$(wildcard tests/*/$(1)_*.$(2))))
prog_of    = $(BUILD)/$(2)/$(basename $(notdir $(1)))
progs      = $(foreach f,$(call prog_srcs,$(1),$(2)),$(call prog_of,$(f),$(3)))
TESTS_CXX  := $(call progs,test,cpp,tests)
TESTS_C    := $(call progs,test,c,tests)
BENCH_CXX  := $(call progs,bench,cpp,bench)
BENCH_C    := $(call progs,bench,c,bench)
DEMO_CXX   := $(call progs,demo,cpp,demo)
DEMO_C     := $(call progs,demo,c,demo)
TESTS      := $(TESTS_CXX) $(TESTS_C)
BENCHES    := $(BENCH_CXX) $(BENCH_C)
DEMOS      := $(DEMO_CXX) $(DEMO_C)
PROG_SRCS  := $(foreach k,test bench demo,$(call prog_srcs,$(k),cpp) $(call prog_srcs,$(k),c))

ALL_OBJS  := $(SYM_OBJS) $(CLI_OBJS) $(RT_OBJS) $(MAIN_OBJ) $(SUPPORT_CXX_OBJS) $(SUPPORT_C_OBJS) \
             $(call obj,$(ALLOC_HOOK)) $(call obj,$(PROG_SRCS))

# ---------------------------------------------------------------- echo
ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = @printf '  %-6s %s\n' $(1) $(2);
endif

# ---------------------------------------------------------------- targets
.PHONY: all deps bench-deps check-layout fuzz test test-quick tests bench benches demo demos programs \
        runtime-lib install clean FORCE

# Every target runs the dependency step first, through `all`.
all: $(RAILSYM) $(LIBSYM) $(LIBRT) $(LIBCORE) $(LIBAPI) | deps

tests:   all $(TESTS)
benches: all $(BENCHES)
demos:   all $(DEMOS)
programs: all $(TESTS) $(BENCHES) $(DEMOS)

# The dependency step.  Phony, so it runs once per make invocation; the
# script keeps it cheap with its stamp.  Everything built depends on it
# order-only: it runs first but never makes a file out of date.
deps:
	@scripts/deps.sh $(BUILD)/.deps.stamp

# The benchmark tools (valgrind): `make bench`'s own step, so that building
# and testing never install them.
bench-deps:
	@scripts/deps.sh --bench $(BUILD)/.deps-bench.stamp

# The runtime-only library (runtime/core + runtime/contact): no C++, no
# GiNaC, no libtcc, no libdl.
runtime-lib: $(LIBCORE) | deps

# `make install PREFIX=/opt/railsym DESTDIR=/tmp/stage`: scripts/install.sh
# says what goes where; tests/e2e/test_install.c builds an embedded program
# against an installed tree through pkg-config.
PREFIX  ?= /usr/local
DESTDIR ?=
install: all
	@PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)' scripts/install.sh $(BUILD)

# Pass 1 runs the tests of the normal build; pass 2 rebuilds everything in
# $(ASAN_BUILD)/ with the sanitizers and runs them again.  Both passes always
# run; the target fails if either failed.
test: tests
	@echo "==> make test: pass 1 of 2: normal build ($(BUILD)/), layout rules"
	@scripts/check-layout.sh --self-test && scripts/run-tests.sh $(BUILD); pass1=$$?; \
	echo "==> make test: pass 2 of 2: AddressSanitizer + UBSan build ($(ASAN_BUILD)/)"; \
	$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) SANITIZE=1 tests \
	  && scripts/run-tests.sh $(ASAN_BUILD); pass2=$$?; \
	echo "==> make test: pass 3: fuzzing the .vdl parser for $(FUZZ_SECONDS) s, the file readers for $(FUZZ_INPUT_SECONDS) s"; \
	$(MAKE) --no-print-directory fuzz; pass3=$$?; \
	echo "==> make test: pass 1 (normal): $$( [ $$pass1 = 0 ] && echo ok || echo FAILED )," \
	     "pass 2 (sanitizers): $$( [ $$pass2 = 0 ] && echo ok || echo FAILED )," \
	     "pass 3 (fuzz): $$( [ $$pass3 = 0 ] && echo ok || echo FAILED )"; \
	[ $$pass1 = 0 ] && [ $$pass2 = 0 ] && [ $$pass3 = 0 ]

# Pass 1 only, for quick iterations; `make test` is what CI runs.
test-quick: tests
	@scripts/check-layout.sh --self-test && scripts/run-tests.sh $(BUILD)

# The folder rules and include cycles alone (docs/architecture.md).
check-layout:
	@scripts/check-layout.sh --self-test

# The .vdl parser's fuzz harness (tests/fuzz/fuzz_vdl.cpp), built with clang's
# libFuzzer + ASan + UBSan and run for FUZZ_SECONDS over a seed corpus of the
# shipped models and the error corpus; `make test` runs it as its last pass.
# Only the sources the front end reaches are linked: the modeler and the
# code generator's library part (not the CLI, which needs the C runtime).
FUZZ_SECONDS ?= 60
FUZZ_DIR  := $(BUILD)/fuzz
FUZZ_SRCS := $(SYM_SRCS)
FUZZ_OBJS := $(patsubst %.cpp,$(FUZZ_DIR)/obj/%.o,$(filter %.cpp,$(FUZZ_SRCS)) tests/fuzz/fuzz_vdl.cpp) \
             $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(filter %.c,$(FUZZ_SRCS)))
FUZZ_CXXFLAGS = -std=c++17 -g -O1 -fsanitize=fuzzer-no-link,address,undefined -MMD -MP \
                $(GINAC_CFLAGS) $(INC_codegen)
$(FUZZ_DIR)/obj/%.o: %.cpp | deps
	@mkdir -p $(@D)
	$(call say,FUZZCXX,$<)
	$(Q)clang++ $(FUZZ_CXXFLAGS) -c $< -o $@
$(FUZZ_DIR)/fuzz_vdl: $(FUZZ_OBJS)
	$(call say,LINK,$@)
	$(Q)clang++ -fsanitize=fuzzer,address,undefined $^ $(GINAC_LIBS) -o $@
-include $(FUZZ_OBJS:.o=.d)

# The runtime's readers of scenario, track, profile and train files
# (tests/fuzz/fuzz_inputs.c), built the same way over the runtime's C sources
# (all but the MPI one, which nothing here reaches), from an archive so
# only what the readers use is linked.
FUZZ_INPUT_SECONDS ?= 40
FUZZ_RT_SRCS := $(filter-out runtime/app/rs_sweep_mpi.c runtime/app/rs_coupled_mpi.c,$(RT_SRCS))
FUZZ_RT_OBJS := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(FUZZ_RT_SRCS))
FUZZ_CFLAGS   = -std=c11 -g -O1 -fsanitize=fuzzer-no-link,address,undefined -MMD -MP $(INC_api) $(RESULTS_CFLAGS)
$(FUZZ_DIR)/obj/%.o: %.c | deps
	@mkdir -p $(@D)
	$(call say,FUZZCC,$<)
	$(Q)clang $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_DIR)/librt_fuzz.a: $(FUZZ_RT_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^
$(FUZZ_DIR)/fuzz_inputs: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_inputs.o $(FUZZ_DIR)/librt_fuzz.a
	$(call say,LINK,$@)
	$(Q)clang -fsanitize=fuzzer,address,undefined $^ $(SYS_LIBS) $(RESULTS_LIBS) -o $@
-include $(FUZZ_RT_OBJS:.o=.d) $(FUZZ_DIR)/obj/tests/fuzz/fuzz_inputs.d

fuzz: $(FUZZ_DIR)/fuzz_vdl $(FUZZ_DIR)/fuzz_inputs
	@scripts/fuzz.sh $(FUZZ_DIR)/fuzz_vdl $(FUZZ_SECONDS)
	@scripts/fuzz.sh $(FUZZ_DIR)/fuzz_inputs $(FUZZ_INPUT_SECONDS)

bench: benches bench-deps
	@scripts/run-bench.sh $(BUILD)

demo: demos
	@scripts/demo.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)

# ---------------------------------------------------------------- flags files
# Each holds a compiler and its flags and is rewritten only when they change,
# so changing CFLAGS rebuilds the C objects, CXXFLAGS the C++ ones, LDFLAGS
# relinks, and nothing else is touched.
define flags_file
$(BUILD)/.$(1): FORCE | deps
	@mkdir -p $$(@D)
	@echo '$$($(2))' | cmp -s - $$@ || echo '$$($(2))' > $$@
endef
C_SIG   = $(CC) $(ALL_CFLAGS)
CXX_SIG = $(CXX) $(ALL_CXXFLAGS)
LD_SIG  = $(CC) $(CXX) $(ALL_LDFLAGS) $(GINAC_LIBS) $(CHECK_LIBS) $(SYS_LIBS) $(MPI_LIBS) $(RESULTS_LIBS) $(FFTW_LIBS)
$(eval $(call flags_file,cflags,C_SIG))
$(eval $(call flags_file,cxxflags,CXX_SIG))
$(eval $(call flags_file,ldflags,LD_SIG))

# ---------------------------------------------------------------- compile
# Each folder's include paths (the layers above).  Tests, benchmarks and
# demos see everything, and include their shared helpers by bare name.
$(BUILD)/obj/abi/%.o:                LAYER_INC := $(INC_abi)
$(BUILD)/obj/common/%.o:             LAYER_INC := $(INC_common)
$(BUILD)/obj/runtime/core/%.o:       LAYER_INC := $(INC_core)
$(BUILD)/obj/runtime/contact/%.o:    LAYER_INC := $(INC_contact)
$(BUILD)/obj/runtime/load/%.o:       LAYER_INC := $(INC_load)
$(BUILD)/obj/runtime/train/%.o:      LAYER_INC := $(INC_train)
$(BUILD)/obj/runtime/coupled/%.o:    LAYER_INC := $(INC_coupled)
$(BUILD)/obj/runtime/app/%.o:        LAYER_INC := $(INC_app)
$(BUILD)/obj/runtime/api/%.o:        LAYER_INC := $(INC_api)
$(BUILD)/obj/modeler/algebra/%.o:    LAYER_INC := $(INC_algebra)
$(BUILD)/obj/modeler/kinematics/%.o: LAYER_INC := $(INC_kinematics)
$(BUILD)/obj/modeler/mechanics/%.o:  LAYER_INC := $(INC_mechanics)
$(BUILD)/obj/modeler/vdl/%.o:        LAYER_INC := $(INC_vdl)
$(BUILD)/obj/codegen/%.o:            LAYER_INC := $(INC_codegen)
$(BUILD)/obj/cli/%.o:                LAYER_INC := $(INC_cli)
$(BUILD)/obj/tests/%.o:              LAYER_INC := $(INC_tests)

# The MPI headers for the one file that uses them (`private`: not passed on
# to the object's prerequisites, so the shared .cflags file never sees them).
$(BUILD)/obj/runtime/app/rs_sweep_mpi.c.o: private ALL_CFLAGS += $(MPI_CFLAGS)
$(BUILD)/obj/runtime/app/rs_coupled_mpi.c.o: private ALL_CFLAGS += $(MPI_CFLAGS)
$(BUILD)/obj/runtime/app/rs_results_mat.c.o $(BUILD)/obj/runtime/app/rs_results_h5.c.o \
    $(BUILD)/obj/tests/e2e/test_results_files.c.o: private ALL_CFLAGS += $(RESULTS_CFLAGS)
$(BUILD)/obj/runtime/app/rs_psd.c.o $(BUILD)/obj/runtime/app/rs_comfort.c.o \
    $(BUILD)/obj/runtime/app/rs_irregularity.c.o $(BUILD)/obj/runtime/app/rs_spectral_filter.c.o: \
    private ALL_CFLAGS += $(FFTW_CFLAGS)

$(BUILD)/obj/%.cpp.o: %.cpp $(BUILD)/.cxxflags | deps
	$(call say,CXX,$<)
	@mkdir -p $(@D)
	$(Q)$(CXX) $(ALL_CXXFLAGS) $(LAYER_INC) -c -o $@ $<

$(BUILD)/obj/%.c.o: %.c $(BUILD)/.cflags | deps
	$(call say,CC,$<)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) $(LAYER_INC) -c -o $@ $<

# ---------------------------------------------------------------- libraries
# Rebuilt from scratch so a deleted source leaves no stale member.  With no
# sources yet, ar writes a valid empty archive, which links fine.
$(LIBSYM): $(SYM_OBJS) | deps
	$(call say,AR,$@)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

$(LIBRT): $(RT_OBJS) | deps
	$(call say,AR,$@)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

$(LIBCORE): $(CORE_OBJS) | deps
	$(call say,AR,$@)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

$(LIBAPI): $(filter-out $(CORE_OBJS),$(RT_OBJS)) | deps
	$(call say,AR,$@)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

$(LIBCLI): $(CLI_OBJS) | deps
	$(call say,AR,$@)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

# ---------------------------------------------------------------- link
# Library order matters for static archives: cli uses sym and rt; sym and
# rt never use each other.
# MPI: the command library's `run --mpi` (cmd_run.cpp) reaches rs_coupled_mpi.c,
# and C++ tests call cmd_run.
CXX_LINK_LIBS = $(LIBCLI) $(LIBSYM) $(LIBRT) $(RESULTS_LIBS) $(FFTW_LIBS) $(GINAC_LIBS) $(CHECK_LIBS) $(SYS_LIBS) $(MPI_LIBS)
C_LINK_LIBS   = $(LIBRT) $(RESULTS_LIBS) $(FFTW_LIBS) $(CHECK_LIBS) $(SYS_LIBS)

$(RAILSYM): $(MAIN_OBJ) $(LIBCLI) $(LIBSYM) $(LIBRT) $(BUILD)/.ldflags | deps
	$(call say,LINK,$@)
	$(Q)$(CXX) $(ALL_LDFLAGS) -o $@ $(MAIN_OBJ) $(LIBCLI) $(LIBSYM) $(LIBRT) $(RESULTS_LIBS) $(FFTW_LIBS) $(GINAC_LIBS) $(SYS_LIBS) $(MPI_LIBS)

define link_cxx
	$(call say,LINK,$@)
	@mkdir -p $(@D)
	$(Q)$(CXX) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(CXX_LINK_LIBS)
endef
define link_c
	$(call say,LINK,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(filter %.o,$^) $(C_LINK_LIBS)
endef

CXX_PROG_DEPS := $(SUPPORT_CXX_OBJS) $(LIBCLI) $(LIBSYM) $(LIBRT) $(BUILD)/.ldflags
C_PROG_DEPS   := $(SUPPORT_C_OBJS) $(LIBRT) $(BUILD)/.ldflags

# One rule per program: SOURCE, output folder.
define prog_rule
$(call prog_of,$(1),$(2)): $(call obj,$(1)) $(if $(filter %.cpp,$(1)),$$(CXX_PROG_DEPS),$$(C_PROG_DEPS)) | deps
	$(if $(filter %.cpp,$(1)),$$(link_cxx),$$(link_c))
endef
$(foreach k,test:tests bench:bench demo:demo,\
  $(foreach f,$(call prog_srcs,$(word 1,$(subst :, ,$(k))),cpp) $(call prog_srcs,$(word 1,$(subst :, ,$(k))),c),\
    $(eval $(call prog_rule,$(f),$(word 2,$(subst :, ,$(k)))))))

# Per-program extra libraries go here as target-specific variables, e.g.
#   $(BUILD)/tests/test_mpi_sweep: C_LINK_LIBS += $(shell pkg-config --libs ompi-c)

# The programs that interpose malloc (their objects come first on the link
# line, so their malloc is the program's).
$(BUILD)/tests/test_rt_alloc $(BUILD)/tests/test_train_alloc $(BUILD)/tests/test_patch: $(call obj,$(ALLOC_HOOK))

# ---------------------------------------------------------------- header deps
-include $(ALL_OBJS:.o=.d)
