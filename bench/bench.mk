# SPDX-License-Identifier: Apache-2.0
# bench.mk - benchmarks (they print numbers; they are not tests).
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
	python3 bench/board_time.py --bin-dir $(EXAMPLE_BIN_DIR) --clock-hz $(SIM_BOARD_CLK_HZ)

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
