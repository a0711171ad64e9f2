# SPDX-License-Identifier: Apache-2.0
# rtl.mk - Simty RTL: the core (hw/rtl/core/) and its Verilator testbench.
#
# The core section (RTL_CORE_SRCS, RTL_INC, lint, ...) belongs above the
# testbench section; it is owned by the core's author.

# ---- core (hw/rtl/core/) ----
# RTL_CORE_SRCS  the core's Verilog files (one module per file)
# RTL_CORE_INCS  its shared include files (.vh)
# RTL_INC        include directories (the generated contract include)
#   make lint-core       verilator --lint-only -Wall at 4x4 (CORE_LINT_CONFIG)
#   make test-rtl-lint   lint at 1x1, 4x4, 8x8, 2x32, 4x8, 16x32 (and the rotate
#                        crossbar, XBAR=1, at 1x1, 8x8, 2x32; the LUT RAM hot
#                        tables, HOT_LUTRAM=1, at 1x1, 4x4, 8x8) + Yosys: no
#                        latch at 4x4

RTL_CORE_SRCS := $(sort $(wildcard hw/rtl/core/*.v))
RTL_CORE_INCS := $(wildcard hw/rtl/core/*.vh)
RTL_INC := -Ihw/rtl/core -I$(BUILD)/gen
CORE_LINT_CONFIG ?= 4x4
CORE_LINT_CONFIGS ?= 1x1 4x4 8x8 2x32 4x8 16x32
# Variants linted with M, A and Zicntr on, as WxL:PARAMETER=VALUE: the
# rotate crossbar and the boards' LUT RAM hot tables.
CORE_LINT_VARIANTS ?= 1x1:XBAR=1 8x8:XBAR=1 2x32:XBAR=1 \
  1x1:HOT_LUTRAM=1 4x4:HOT_LUTRAM=1 8x8:HOT_LUTRAM=1
YOSYS ?= yosys

core_lint = verilator --lint-only -Wall $(RTL_INC) $(RTL_CORE_SRCS) \
  --top-module simty_core -GWARPS=$(word 1,$(subst x, ,$(1))) \
  -GLANES=$(word 2,$(subst x, ,$(1)))

.PHONY: lint-core test-rtl-lint
lint-core: $(RTL_CORE_SRCS) $(RTL_CORE_INCS) $(ARCH_VH)
	$(call core_lint,$(CORE_LINT_CONFIG))

# Latches would show up as $$dlatch cells after proc: assert there are none.
# The fetch steering and the instruction buffer keep small per-warp arrays
# that Yosys turns into registers on purpose (each entry is read in
# parallel): that one expected warning is logged as a message, any other
# still shows.
RTL_LINT_YOSYS_EXPECTED := Replacing memory .* with list of registers. See hw/rtl/core/simty_(fetch_steer|ibuf)[.]v
TEST_SUITES += rtl-lint
test-rtl-lint: $(RTL_CORE_SRCS) $(RTL_CORE_INCS) $(ARCH_VH) | $(BUILD)/rtl/
	@set -e; for c in $(CORE_LINT_CONFIGS); do \
	  for x in 0 1; do \
	  echo "LINT simty_core $$c EXT_M=EXT_A=EXT_ZICNTR=$$x"; \
	  verilator --lint-only -Wall $(RTL_INC) $(RTL_CORE_SRCS) \
	    --top-module simty_core -GWARPS=$${c%x*} -GLANES=$${c#*x} \
	    -GEXT_M=$$x -GEXT_A=$$x -GEXT_ZICNTR=$$x; \
	  done; \
	done
	@set -e; for v in $(CORE_LINT_VARIANTS); do \
	  c=$${v%%:*}; p=$${v#*:}; \
	  echo "LINT simty_core $$c $$p EXT_M=EXT_A=EXT_ZICNTR=1"; \
	  verilator --lint-only -Wall $(RTL_INC) $(RTL_CORE_SRCS) \
	    --top-module simty_core -GWARPS=$${c%x*} -GLANES=$${c#*x} \
	    -GEXT_M=1 -GEXT_A=1 -GEXT_ZICNTR=1 -G$$p; \
	done
	@set -e; for x in 0 1; do \
	  echo "YOSYS simty_core 4x4 with M, A and Zicntr, XBAR=$$x: no latch"; \
	  $(YOSYS) -q -l $(BUILD)/rtl/core_latch_check.log \
	  -p 'logger -nowarn "$(RTL_LINT_YOSYS_EXPECTED)"' -p "read_verilog -DSYNTHESIS \
	  $(RTL_INC) $(RTL_CORE_SRCS); chparam -set WARPS 4 -set LANES 4 \
	  -set EXT_M 1 -set EXT_A 1 -set EXT_ZICNTR 1 -set XBAR $$x simty_core; \
	  hierarchy -check -top simty_core; proc; flatten; opt_clean; \
	  select -assert-none t:\$$dlatch t:\$$adlatch t:\$$dlatchsr t:\$$_DLATCH_*"; \
	done

# simty_counters alone against a 64-bit reference (hw/sim/core/
# simty_counters_tb.v) at LANES 1, 4 and 32.
TEST_SUITES += rtl-counters
RTL_CTR_TB_OUT := $(BUILD)/rtl/counters_tb
.PHONY: test-rtl-counters
test-rtl-counters: hw/sim/core/simty_counters_tb.v hw/rtl/core/simty_counters.v \
    hw/rtl/core/simty_ram_1r1w.v $(ARCH_VH) | $(BUILD)/rtl/
	@set -e; mkdir -p $(RTL_CTR_TB_OUT); for lb in 0 2 5; do \
	  verilator --binary --timing -Wno-fatal -Wno-WIDTH $(RTL_INC) \
	    -Mdir $(RTL_CTR_TB_OUT)/obj$$lb -MAKEFLAGS "-s" \
	    --top-module simty_counters_tb -GLANE_BITS=$$lb \
	    -o $(abspath $(RTL_CTR_TB_OUT))/tb$$lb hw/sim/core/simty_counters_tb.v \
	    hw/rtl/core/simty_counters.v hw/rtl/core/simty_ram_1r1w.v >/dev/null; \
	  $(RTL_CTR_TB_OUT)/tb$$lb > $(RTL_CTR_TB_OUT)/tb$$lb.log 2>&1 || \
	    { cat $(RTL_CTR_TB_OUT)/tb$$lb.log; exit 1; }; \
	  grep '^simty_counters_tb' $(RTL_CTR_TB_OUT)/tb$$lb.log; \
	done

# simty_instret alone against a 64-bit counter per thread (hw/sim/core/
# simty_instret_tb.v: the registered write and its bypass) at 1x4, 4x4,
# 8x8 and 2x32.
TEST_SUITES += rtl-instret
RTL_IR_TB_OUT := $(BUILD)/rtl/instret_tb
.PHONY: test-rtl-instret
test-rtl-instret: hw/sim/core/simty_instret_tb.v hw/rtl/core/simty_instret.v | $(BUILD)/rtl/
	@set -e; mkdir -p $(RTL_IR_TB_OUT); for c in 1x4 4x4 8x8 2x32; do \
	  verilator --binary --timing -Wno-fatal -Wno-WIDTH \
	    -Mdir $(RTL_IR_TB_OUT)/obj$$c -MAKEFLAGS "-s" \
	    --top-module simty_instret_tb -GWARPS=$${c%x*} -GLANES=$${c#*x} \
	    -o $(abspath $(RTL_IR_TB_OUT))/tb$$c hw/sim/core/simty_instret_tb.v \
	    hw/rtl/core/simty_instret.v >/dev/null; \
	  $(RTL_IR_TB_OUT)/tb$$c > $(RTL_IR_TB_OUT)/tb$$c.log 2>&1 || \
	    { cat $(RTL_IR_TB_OUT)/tb$$c.log; exit 1; }; \
	  grep '^simty_instret_tb' $(RTL_IR_TB_OUT)/tb$$c.log; \
	done

# ---- testbench ----
# Verilator testbench of simty_core (C in hw/sim/core/, thin C++ glue),
# one binary per WARPS x LANES configuration:
#
#   build/rtl/core_WxL/simty-rtl       kernel runner (CLI of simty-model)
#   build/rtl/core_WxL/simty-rtl-wave  the same with waveforms
#                                      (+vcd[=FILE] / --vcd FILE; FST with
#                                      RTL_WAVE_FORMAT=fst)
#   make rtl-sims          the configurations the RTL suites use
#   make test-rtl-kernels  ISA + SIMT + bad-input suites on the RTL (also
#                          on the rotate crossbar, RTL_ROTATE_CONFIGS)
#   make test-rtl-diff     RTL vs model: memory, traces, counters
#   make test-rtl-random   random programs, RTL vs model (SEEDS=N)
#   make test-rtl-tb-unit  the testbench's C side alone (cmocka)
#   make test-rtl-random-model  the random program generator on the model
#   make core-area         Yosys area of the core alone (report)
#   make bench-core        IPC and simulation speed (report)

RTL_TB_DIR := hw/sim/core
RTL_TB_OUT := $(BUILD)/rtl
RTL_TB_CORE_SRCS = $(if $(RTL_CORE_SRCS),$(RTL_CORE_SRCS),$(wildcard hw/rtl/core/*.v))
RTL_TB_INC = $(addprefix -I,$(patsubst -I%,%,$(if $(RTL_INC),$(RTL_INC),hw/rtl/core $(BUILD)/gen)))
RTL_TB_CONFIGS := 1x4 4x4 8x8 2x32
RTL_TB_CODE_SIZE := 65536
RTL_TB_DATA_SIZE := 1048576
RTL_TB_JOBS ?= 2
RTL_WAVE_FORMAT ?= vcd
VERILATOR ?= verilator

# Verilator's own optimisations plus -O2 for the generated C++: its default
# -Os simulates about a third slower, -O3 no faster than -O2 (measured at
# 4x4). Lint warnings stay fatal; RTL_TB_WARN=-Wno-fatal to try a core
# that is not lint clean yet.
RTL_TB_WARN ?=
RTL_TB_OPT = OPT_FAST=-O2 OPT_GLOBAL=-O2 OPT_SLOW=-O1
RTL_TB_VFLAGS = --cc --exe --build -j $(RTL_TB_JOBS) -O3 --x-assign fast $(RTL_TB_WARN) \
  --x-initial fast --top-module simty_tb_top

# Profile-guided optimisation of the kernel runner (not of the wave
# build): compile instrumented, run the training kernel once, compile
# again with the profile: 4% fewer host instructions and about 8% more
# cycles per second at 4x4, for one more C++ build per configuration
# (docs/performance.md, "Simulation speed"). The training kernel is the
# streaming benchmark; the speed benchmark runs the ALU one.
# RTL_TB_PGO=0 builds without.
RTL_TB_PGO ?= 1
RTL_TB_TRAIN_ELF := $(BUILD)/kernels/bench/kernels/stream.elf
RTL_TB_TRAIN = $(if $(filter 1,$(RTL_TB_PGO)),$(RTL_TB_TRAIN_ELF))
RTL_TB_PGO_USE = -fprofile-use -fprofile-partial-training -Wno-missing-profile \
  -Wno-coverage-mismatch
RTL_TB_C_OBJS := $(RTL_TB_OUT)/tb/simty_tb.o $(RTL_TB_OUT)/tb/simty_elf.o \
  $(RTL_TB_OUT)/tb/simty_lines.o
RTL_TB_CFLAGS := $(HOST_CFLAGS) -Ihw/arch -Ihost_lib/src -I$(RTL_TB_DIR)

$(RTL_TB_OUT)/tb/simty_tb.o: $(RTL_TB_DIR)/simty_tb.c $(RTL_TB_DIR)/simty_tb.h \
    host_lib/src/simty_elf.h host_lib/src/simty_lines.h hw/arch/simty_arch.h | $(RTL_TB_OUT)/tb/
	$(CC) $(RTL_TB_CFLAGS) -c -o $@ $<

$(RTL_TB_OUT)/tb/simty_lines.o: host_lib/src/simty_lines.c host_lib/src/simty_lines.h \
    | $(RTL_TB_OUT)/tb/
	$(CC) $(RTL_TB_CFLAGS) -c -o $@ $<

$(RTL_TB_OUT)/tb/simty_elf.o: host_lib/src/simty_elf.c host_lib/src/simty_elf.h \
    hw/arch/simty_arch.h | $(RTL_TB_OUT)/tb/
	$(CC) $(RTL_TB_CFLAGS) -c -o $@ $<

rtl_tb_w = $(word 1,$(subst x, ,$(1)))
rtl_tb_l = $(word 2,$(subst x, ,$(1)))

# $(1) = WxL, $(2) = output binary, $(3) = object dir name, $(4) = flags,
# $(5) = training kernel for profile-guided optimisation (empty: none).
# Each build verilates into its own directory and renames the binary into
# place, so that two makes building the same configuration at once (two
# engineers' test runs) cannot mix their objects; the log stays. The
# profile (.gcda files) is written beside the instrumented objects; the
# second compile, in the same directory, reads it. A training run that
# fails only leaves the profile partial: the test suites report the core.
rtl_tb_verilate = tmp=$(dir $(2))$(3).$$$$; rm -rf $$tmp && \
  { $(VERILATOR) $(RTL_TB_VFLAGS) $(4) -Mdir $$tmp \
  -MAKEFLAGS "$(RTL_TB_OPT)$(if $(5), USER_CPPFLAGS=-fprofile-generate USER_LDFLAGS=-fprofile-generate)" \
  -GWARPS=$(call rtl_tb_w,$(1)) -GLANES=$(call rtl_tb_l,$(1)) \
  -GCODE_SIZE=$(RTL_TB_CODE_SIZE) -GDATA_SIZE=$(RTL_TB_DATA_SIZE) \
  -CFLAGS "-DSIMTY_TB_WARPS=$(call rtl_tb_w,$(1)) \
    -DSIMTY_TB_LANES=$(call rtl_tb_l,$(1)) \
    -DSIMTY_TB_CODE_SIZE=$(RTL_TB_CODE_SIZE)u \
    -DSIMTY_TB_DATA_SIZE=$(RTL_TB_DATA_SIZE)u \
    -I$(CURDIR)/hw/arch -I$(CURDIR)/$(RTL_TB_DIR)" \
  $(RTL_TB_INC) -I$(RTL_TB_DIR) $(RTL_TB_CORE_SRCS) $(RTL_TB_DIR)/simty_tb_top.v \
  $(CURDIR)/$(RTL_TB_DIR)/simty_tb_main.cpp \
  $(abspath $(RTL_TB_C_OBJS)) -o $(abspath $(2)).$$$$ > $$tmp.log 2>&1 && \
  $(if $(5),{ echo "PGO: training on $(5)"; \
    $(2).$$$$ --warps $(call rtl_tb_w,$(1)) --lanes $(call rtl_tb_l,$(1)) \
      --threads $$((4 * $(call rtl_tb_w,$(1)) * $(call rtl_tb_l,$(1)))) --quiet $(5) \
    || echo "PGO: training run failed (exit $$?); profile partial"; } >> $$tmp.log 2>&1 && \
  rm -f $$tmp/*.o $$tmp/*.a $(2).$$$$ && \
  $(MAKE) -C $$tmp -f Vsimty_tb_top.mk -j $(RTL_TB_JOBS) $(RTL_TB_OPT) \
    USER_CPPFLAGS="$(RTL_TB_PGO_USE)" >> $$tmp.log 2>&1 && ) \
  mv -f $(2).$$$$ $(2); } ; rc=$$?; mv -f $$tmp.log $(dir $(2))$(3).log; \
  rm -rf $$tmp $(2).$$$$; \
  if [ $$rc -ne 0 ]; then cat $(dir $(2))$(3).log; exit 1; fi

# The configurations built with the hot tables in LUT RAM (HOT_LUTRAM=1),
# as the ULX3S and the simulated board build their 8x8 core (MB then
# takes the leader's picks registered from EX); the others keep block RAM.
RTL_TB_LUTRAM_CONFIGS ?= 8x8
rtl_tb_lutram = $(if $(filter $(1),$(RTL_TB_LUTRAM_CONFIGS)),-GHOT_LUTRAM=1)

RTL_TB_DEPS = $(RTL_TB_CORE_SRCS) $(RTL_CORE_INCS) $(ARCH_VH) $(RTL_TB_C_OBJS) \
  $(RTL_TB_DIR)/simty_tb_top.v $(RTL_TB_DIR)/simty_tb_main.cpp $(RTL_TB_DIR)/simty_tb.h

$(RTL_TB_OUT)/core_%/simty-rtl: $(RTL_TB_DEPS) $(RTL_TB_TRAIN)
	@mkdir -p $(@D)
	@echo "VERILATE $@$(if $(RTL_TB_TRAIN), (PGO))$(if $(call rtl_tb_lutram,$*), (HOT_LUTRAM=1))"
	@$(call rtl_tb_verilate,$*,$@,obj,$(call rtl_tb_lutram,$*),$(RTL_TB_TRAIN))

$(RTL_TB_OUT)/core_%/simty-rtl-wave: $(RTL_TB_DEPS)
	@mkdir -p $(@D)
	@echo "VERILATE $@ ($(RTL_WAVE_FORMAT))"
	@$(call rtl_tb_verilate,$*,$@,obj-wave,$(call rtl_tb_lutram,$*) $(if $(filter fst,$(RTL_WAVE_FORMAT)),--trace-fst,--trace))

# The rotate crossbar (simty_core XBAR=1): core_WxL_rotate/simty-rtl,
# built without profile-guided optimisation (only the rotate rtl-diff
# and rtl-kernels run it). `--xbar rotate` is its only accepted --xbar.
$(RTL_TB_OUT)/core_%_rotate/simty-rtl: $(RTL_TB_DEPS)
	@mkdir -p $(@D)
	@echo "VERILATE $@ (XBAR=1)$(if $(call rtl_tb_lutram,$*), (HOT_LUTRAM=1))"
	@$(call rtl_tb_verilate,$*,$@,obj,$(call rtl_tb_lutram,$*) -GXBAR=1 -CFLAGS -DSIMTY_TB_XBAR=1,)

RTL_SIMS := $(foreach c,$(RTL_TB_CONFIGS),$(RTL_TB_OUT)/core_$(c)/simty-rtl)

.PHONY: rtl-sims
rtl-sims: $(RTL_SIMS)

# ---- RTL test suites ----
# Registered in TEST_SUITES while they pass on the current core; a suite
# the core cannot pass is taken out of TEST_SUITES (not deleted) and the
# failure written up in tests/rtl/FINDINGS.md.
RTL_SUITE_CONFIGS ?= 1x4,4x4,8x8,2x32
RTL_RANDOM_CONFIGS ?= 1x4,4x4,8x8,2x32
# The rotate crossbar's configurations: rtl-diff (core_WxL_rotate against
# the model's --xbar rotate) and rtl-kernels (the kernel suites'
# expectations for XBAR = rotate)
RTL_ROTATE_CONFIGS ?= 8x8,2x32
RTL_ROTATE_SUITE ?= isa,simt
SEEDS ?= 20
FIRST_SEED ?= 1
RTL_TEST_JOBS ?= 2
RTL_TEST_PATHS = --rtl '$(RTL_TB_OUT)/core_{W}x{L}/simty-rtl' --cc $(SIMTY_CC)
rtl_sims_for = $(foreach c,$(subst $(comma), ,$(1)),$(RTL_TB_OUT)/core_$(c)/simty-rtl)
comma := ,

.PHONY: test-rtl-kernels test-rtl-diff test-rtl-random test-rtl-random-model
TEST_SUITES += rtl-kernels
test-rtl-kernels: $(call rtl_sims_for,$(RTL_SUITE_CONFIGS)) $(KERNEL_RUNTIME) \
    $(foreach c,$(subst $(comma), ,$(RTL_ROTATE_CONFIGS)),$(RTL_TB_OUT)/core_$(c)_rotate/simty-rtl)
	python3 tests/rtl/run_kernels.py --configs $(RTL_SUITE_CONFIGS) \
	  --jobs $(RTL_TEST_JOBS) $(RTL_TEST_PATHS) --build-dir $(BUILD)/tests/rtl-kernels
	python3 tests/rtl/run_kernels.py --configs $(RTL_ROTATE_CONFIGS) --xbar rotate \
	  --jobs $(RTL_TEST_JOBS) --rtl '$(RTL_TB_OUT)/core_{W}x{L}_rotate/simty-rtl' \
	  --cc $(SIMTY_CC) --build-dir $(BUILD)/tests/rtl-kernels

# Minimal kernels of the bugs in tests/rtl/FINDINGS.md, kept as
# regressions: one block of 8 threads (more than 4 lanes fill the CCT).
RTL_REPRO_ELFS := $(patsubst tests/rtl/repro/%.S,$(BUILD)/tests/rtl/repro/%.elf,\
  $(wildcard tests/rtl/repro/*.S))
$(BUILD)/tests/rtl/repro/%.elf: tests/rtl/repro/%.S $(KERNEL_RUNTIME)
	@mkdir -p $(@D)
	$(SIMTY_CC) -o $@ $<

TEST_SUITES += rtl-diff
test-rtl-diff: $(call rtl_sims_for,$(RTL_SUITE_CONFIGS)) $(KERNEL_RUNTIME) \
    $(SIMTY_MODEL) $(RTL_REPRO_ELFS) \
    $(foreach c,$(subst $(comma), ,$(RTL_ROTATE_CONFIGS)),$(RTL_TB_OUT)/core_$(c)_rotate/simty-rtl)
	python3 tests/rtl/rtl_diff.py --configs $(RTL_SUITE_CONFIGS) \
	  --suite isa,simt --jobs $(RTL_TEST_JOBS) --keep-going $(RTL_TEST_PATHS) \
	  --model $(SIMTY_MODEL) --build-dir $(BUILD)/tests/rtl-diff
	python3 tests/rtl/rtl_diff.py --configs $(RTL_SUITE_CONFIGS) --threads 8 \
	  --jobs $(RTL_TEST_JOBS) --keep-going $(RTL_TEST_PATHS) \
	  --model $(SIMTY_MODEL) $(RTL_REPRO_ELFS)
	python3 tests/rtl/rtl_diff.py --configs $(RTL_ROTATE_CONFIGS) --xbar rotate \
	  --suite $(RTL_ROTATE_SUITE) --jobs $(RTL_TEST_JOBS) --keep-going \
	  --rtl '$(RTL_TB_OUT)/core_{W}x{L}_rotate/simty-rtl' --cc $(SIMTY_CC) \
	  --model $(SIMTY_MODEL) --build-dir $(BUILD)/tests/rtl-diff

TEST_SUITES += rtl-random
test-rtl-random: $(call rtl_sims_for,$(RTL_RANDOM_CONFIGS)) $(KERNEL_RUNTIME) $(SIMTY_MODEL)
	python3 tests/rtl/random_diff.py --seeds $(SEEDS) --first-seed $(FIRST_SEED) \
	  --configs $(RTL_RANDOM_CONFIGS) --jobs $(RTL_TEST_JOBS) $(RTL_TEST_PATHS) \
	  --model $(SIMTY_MODEL) --build-dir $(BUILD)/tests/rtl-random

# The testbench's C side without a core (CLI, dispatcher, formats).
TEST_SUITES += rtl-tb-unit
RTL_TB_UNIT := $(RTL_TB_OUT)/tests/test_tb
$(RTL_TB_UNIT): tests/rtl/test_tb.c $(RTL_TB_C_OBJS) $(RTL_TB_DIR)/simty_tb.h | $(RTL_TB_OUT)/tests/
	$(CC) $(RTL_TB_CFLAGS) -o $@ $< $(RTL_TB_C_OBJS) -lcmocka

.PHONY: test-rtl-tb-unit
test-rtl-tb-unit: $(RTL_TB_UNIT) $(BUILD)/kernels/bench/kernels/alu.elf
	$(RTL_TB_UNIT) $(BUILD)/kernels/bench/kernels/alu.elf

# The generator's own check, no RTL needed: its kernels end without a
# fault on the model and every thread stores its results.
TEST_SUITES += rtl-random-model
test-rtl-random-model: $(KERNEL_RUNTIME) $(SIMTY_MODEL)
	python3 tests/rtl/random_diff.py --model-only --seeds 60 \
	  --configs 1x1,1x4,4x4,8x8,2x32 --jobs $(RTL_TEST_JOBS) \
	  --cc $(SIMTY_CC) --model $(SIMTY_MODEL) \
	  --build-dir $(BUILD)/tests/rtl-random-model

# ---- reports (not tests) ----
CORE_AREA_CONFIGS ?= 4x4 8x8
# CORE_AREA_PARAMS="VCLASS=0" (or AREA_PARAMS in the environment): more
# simty_core parameters (scripts/core_area.sh)
CORE_AREA_PARAMS ?= $(AREA_PARAMS)
.PHONY: core-area bench-core
core-area: $(RTL_TB_CORE_SRCS) $(ARCH_VH)
	AREA_PARAMS="$(CORE_AREA_PARAMS)" sh scripts/core_area.sh $(BUILD)/rtl/area "$(CORE_AREA_CONFIGS)" \
	  "$(RTL_TB_INC)" $(RTL_TB_CORE_SRCS)

BENCH_CORE_CONFIGS ?= 4x4,8x8
bench-core: $(call rtl_sims_for,$(BENCH_CORE_CONFIGS)) \
    $(BUILD)/kernels/bench/kernels/alu.elf $(BUILD)/kernels/bench/kernels/stream.elf
	python3 scripts/bench_core.py --configs $(BENCH_CORE_CONFIGS) \
	  --rtl '$(RTL_TB_OUT)/core_{W}x{L}/simty-rtl' \
	  --alu $(BUILD)/kernels/bench/kernels/alu.elf \
	  --stream $(BUILD)/kernels/bench/kernels/stream.elf
