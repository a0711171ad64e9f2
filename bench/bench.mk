# SPDX-License-Identifier: Apache-2.0
# bench.mk - benchmarks (they print numbers; they are not tests).
#
#   make bench-model   reference-model speed on bench/kernels/compute.c
#                      (figures recorded in docs/performance.md)

BENCH_MODEL := $(BUILD)/bin/simty-model-bench
BENCH_COMPUTE_ELF := $(BUILD)/kernels/bench/kernels/compute.elf
BENCH_ITERATIONS ?= 2000000

$(BENCH_MODEL): hw/model/bench_model.c $(MODEL_LIB) $(MODEL_HEADERS) | $(BUILD)/bin/
	$(CC) $(MODEL_CFLAGS) -o $@ $< $(MODEL_LIB)

.PHONY: bench-model
bench-model: $(BENCH_MODEL) $(BENCH_COMPUTE_ELF)
	$(BENCH_MODEL) $(BENCH_COMPUTE_ELF) $(BENCH_ITERATIONS)
