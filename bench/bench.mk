# SPDX-License-Identifier: Apache-2.0
# bench.mk - benchmarks (they print numbers) and the benchmark suite with
# its one test suite, bench-check (bench/README.md).
#
#   make bench-model        reference-model speed on bench/kernels/compute.c
#                      (figures recorded in docs/performance.md)

BENCH_MODEL := $(BUILD)/bin/simty-model-bench
BENCH_COMPUTE_ELF := $(BUILD)/kernels/bench/kernels/compute.elf
BENCH_ITERATIONS ?= 2000000

$(BENCH_MODEL): hw/model/bench_model.c $(MODEL_LIB) $(MODEL_HEADERS) | $(BUILD)/bin/
	$(CC) $(MODEL_CFLAGS) -o $@ $< $(MODEL_LIB)

.PHONY: bench-model
bench-model: $(BENCH_MODEL) $(BENCH_COMPUTE_ELF)
	$(BENCH_MODEL) $(BENCH_COMPUTE_ELF) $(BENCH_ITERATIONS)

# Board time of every example on the simulated board (link plus kernel,
# in board cycles and ms at the board's clock): docs/performance.md.
.PHONY: bench-board-time
bench-board-time: simty-sim examples
	python3 bench/board_time.py --bin-dir $(EXAMPLE_BIN_DIR)

# Link throughput on the simulated board at its default rate, with the
# UART PHY and the FTDI bridge's USB timing, 1 MiB each way through the
# host library (docs/performance.md, "Link throughput").
LINK_BENCH := $(BUILD)/bin/simty-bench-link
LINK_BENCH_BYTES ?= 1048576
$(LINK_BENCH): bench/link_bench.c $(BUILD)/lib/libsimty.a host_lib/include/simty.h | $(BUILD)/bin/
	$(CC) $(HOSTLIB_CFLAGS) -o $@ $< $(BUILD)/lib/libsimty.a $(HOSTLIB_LIBS)

.PHONY: bench-link
bench-link: simty-sim simty-sim-4x4-uart $(LINK_BENCH)
	python3 bench/bench_link.py --sim $(SIMTY_SIM) --bench $(LINK_BENCH) \
	  --clock-hz $(SIM_BOARD_CLK_HZ) --baud $(SIM_BOARD_BAUD) --bytes $(LINK_BENCH_BYTES)

# ---- The benchmark suite (issue 18; bench/README.md) ----
#
#   make bench                    every kernel of the catalog, small inputs:
#                                 model at 4x4, 8x8, 1x32 under every
#                                 reconvergence policy the model accepts,
#                                 simulated board at 4x4 and 8x8 (its own
#                                 policy: the RTL); prints the tables and
#                                 fails if a run fails its CPU check or the
#                                 model and the board disagree
#   make bench BENCH_SIZE=large   the same with the report's inputs
#   make bench-report             docs/bench.md and docs/bench/*.png from
#                                 the large run (needs python3-matplotlib)
#   make scaling-plot             docs/bench/scaling.png from the scaling
#                                 table of docs/performance.md (matplotlib)
#   make test-bench-check         (a test suite) every kernel, small inputs,
#                                 model 4x4, every policy: CPU checks pass;
#                                 then under the race checker: no race
#
# The catalog: NAME:DIR:SMALL:LARGE, DIR/NAME/host.c the host program
# (input generation, CPU check, launch configuration: the examples' shared
# examples/common/example.h), DIR/NAME/NAME.c its kernel, SMALL and LARGE
# its --n at the two sizes (what --n means: the host program's comment).
# Kernels of examples/ are used from there (one copy of each); their host
# programs are the ones `make examples` builds.
BENCH_CATALOG := \
  bfs:examples:256:2048 \
  nw:examples:24:96 \
  pathfinder:bench:128:512 \
  hotspot:bench:16:32 \
  srad:bench:16:32 \
  matmul:examples:12:24 \
  transpose:bench:32:128 \
  histogram:examples:1024:8192 \
  reduction:examples:1024:16384 \
  bitonic:examples:128:1024 \
  mandelbrot:examples:24:64 \
  fib:examples:32:128 \
  interp:examples:32:256 \
  treewalk:bench:256:4096

BENCH_NEW := $(foreach k,$(BENCH_CATALOG),$(if $(filter bench,$(word 2,$(subst :, ,$(k)))),$(word 1,$(subst :, ,$(k)))))
BENCH_BIN_DIR := $(BUILD)/bench/bin
BENCH_BINS := $(addprefix $(BENCH_BIN_DIR)/,$(BENCH_NEW))
BENCH_KERNELS := $(foreach e,$(BENCH_NEW),$(BUILD)/kernels/bench/$(e)/$(e).elf)
BENCH_SIZE ?= small
BENCH_OUT := $(BUILD)/bench/$(BENCH_SIZE)

# Kernels: the kernel.mk pattern rule; kernels and host programs also
# depend on the headers they share.
$(foreach e,$(BENCH_NEW),$(eval $(BUILD)/kernels/bench/$(e)/$(e).elf $(BENCH_BIN_DIR)/$(e): \
  $(wildcard bench/$(e)/*.h)))

$(BENCH_BIN_DIR)/%: bench/%/host.c examples/common/example.c examples/common/example.h \
    $(BUILD)/lib/libsimty.a host_lib/include/simty.h | $(BENCH_BIN_DIR)/
	$(CC) $(EXAMPLE_CFLAGS) -Ibench/$* \
	  -DEXAMPLE_KERNEL='"$(abspath $(BUILD)/kernels/bench/$*/$*.elf)"' \
	  -o $@ bench/$*/host.c examples/common/example.c $(BUILD)/lib/libsimty.a $(HOSTLIB_LIBS)

$(BENCH_BIN_DIR)/:
	mkdir -p $@

.PHONY: bench-kernels
bench-kernels: examples $(BENCH_BINS) $(BENCH_KERNELS)

# The runner's catalog arguments: NAME=HOST_BINARY:SMALL:LARGE.
BENCH_RUN_ARGS = $(foreach k,$(BENCH_CATALOG),--kernel $(word 1,$(subst :, ,$(k)))=$(if \
  $(filter bench,$(word 2,$(subst :, ,$(k)))),$(BENCH_BIN_DIR),$(EXAMPLE_BIN_DIR))/$(word \
  1,$(subst :, ,$(k))):$(word 3,$(subst :, ,$(k))):$(word 4,$(subst :, ,$(k))))
BENCH_RUN := python3 bench/run_bench.py $(BENCH_RUN_ARGS)

# Configurations (warps x lanes) of the model and of the simulated board.
BENCH_MODEL_CONFIGS ?= 4x4 8x8 1x32
BENCH_SIM_CONFIGS ?= 4x4 8x8
bench_comma := ,
bench_list = $(subst $(eval) ,$(bench_comma),$(strip $(1)))

.PHONY: bench bench-report
bench: bench-kernels simty-sim $(foreach c,$(BENCH_SIM_CONFIGS),simty-sim-$(c))
	$(BENCH_RUN) --size $(BENCH_SIZE) --out $(BENCH_OUT) \
	  --model-configs '$(call bench_list,$(BENCH_MODEL_CONFIGS))' \
	  --sim-configs '$(call bench_list,$(BENCH_SIM_CONFIGS))'

# What the `rotate` memory crossbar costs on the model (docs/performance.md,
# "The crossbars"): the catalog at its small sizes, and the examples
# outside it (their default sizes), under xbar=full and xbar=rotate.
BENCH_XBAR_CONFIGS ?= 1x32 2x32 8x8
BENCH_XBAR_EXTRA := vecadd saxpy reduction_atomic histogram_atomic
.PHONY: bench-xbar
bench-xbar: bench-kernels
	python3 bench/xbar_cost.py $(BENCH_RUN_ARGS) \
	  $(foreach e,$(BENCH_XBAR_EXTRA),--kernel $(e)=$(EXAMPLE_BIN_DIR)/$(e):) \
	  --configs '$(call bench_list,$(BENCH_XBAR_CONFIGS))'

# The report's Python: Debian's (python3-matplotlib), whatever else is first
# on PATH.
BENCH_PYTHON ?= $(if $(wildcard /usr/bin/python3),/usr/bin/python3,python3)
bench-report:
	@$(BENCH_PYTHON) -c 'import matplotlib' 2>/dev/null || sh scripts/install-deps.sh --bench-report
	@rc=0; $(MAKE) --no-print-directory bench BENCH_SIZE=large || rc=$$?; \
	$(BENCH_PYTHON) bench/report.py --results $(BUILD)/bench/large/results.json \
	  --out docs/bench.md --plots docs/bench && exit $$rc

# docs/bench/scaling.png: the ECP5 SoC rows of docs/performance.md's scaling table.
.PHONY: scaling-plot
scaling-plot:
	@$(BENCH_PYTHON) -c 'import matplotlib' 2>/dev/null || sh scripts/install-deps.sh --bench-report
	$(BENCH_PYTHON) scripts/scaling_plot.py --out docs/bench/scaling.png

# Its parser (scripts/test_scaling_plot.py), and the table as it is now parses.
TEST_SUITES += scaling-plot
.PHONY: test-scaling-plot
test-scaling-plot:
	python3 scripts/test_scaling_plot.py
	python3 scripts/scaling_plot.py --check

TEST_SUITES += bench-check
.PHONY: test-bench-check
test-bench-check: bench-kernels
	python3 bench/test_run_bench.py
	$(BENCH_RUN) --size small --out $(BUILD)/bench/check --model-configs 4x4 --sim-configs '' \
	  --racecheck --check-only
