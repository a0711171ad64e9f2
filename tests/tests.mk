# SPDX-License-Identifier: Apache-2.0
# tests.mk - kernel-level test suites (tests/kernels/): ISA, SIMT behaviour
# and bad input, run by tests/kernels/runner.py against any program that
# implements the kernel-runner CLI. Here: the reference model.
#
#   make test-isa         one self-checking program per RV32I group
#   make test-simt        reconvergence, replays, memory rule, counters
#   make test-bad-input   refused inputs (exit 1) and faults (exit 3)
#
# Reuse for another runner (see tests/README.md):
#   $(KERNEL_SUITE_RUN) --exe 'build/rtl/core_{W}x{L}/simty-rtl' \
#       --configs 1x4,4x4,8x8,2x32 --suite isa,simt,bad

KERNEL_SUITE_RUN := python3 tests/kernels/runner.py --cc $(SIMTY_CC) \
  --build-dir $(BUILD)/tests/kernels --keep-going
# The model has every optional extension; tests that need one (`isa:`)
# get it with --isa, the others run it as RV32I.
MODEL_SUITE_ISA := --isa rv32ima_zicntr
# Configurations the model runs every suite on (W x L).
KERNEL_SUITE_CONFIGS ?= 1x1,4x4,8x8,2x8,1x32

TEST_SUITES += isa simt bad-input

.PHONY: test-isa test-simt test-bad-input
test-isa: $(KERNEL_RUNTIME) $(SIMTY_MODEL)
	$(KERNEL_SUITE_RUN) --exe $(SIMTY_MODEL) $(MODEL_SUITE_ISA) --xbars rotate --configs $(KERNEL_SUITE_CONFIGS) --suite isa

# The simt suite also reruns every test under the model's other
# reconvergence policies and crossbar kinds: same memory, console and
# per-thread counters. Then it runs again on the rotate crossbar with its
# own expectations (XBAR = rotate: the counters a crossbar kind changes).
MODEL_SUITE_POLICIES := --policies pc,ipdom --xbars rotate

test-simt: $(KERNEL_RUNTIME) $(SIMTY_MODEL)
	$(KERNEL_SUITE_RUN) --exe $(SIMTY_MODEL) $(MODEL_SUITE_ISA) $(MODEL_SUITE_POLICIES) --configs $(KERNEL_SUITE_CONFIGS) --suite simt
	$(KERNEL_SUITE_RUN) --exe $(SIMTY_MODEL) $(MODEL_SUITE_ISA) --xbar rotate --configs $(KERNEL_SUITE_CONFIGS) --suite simt

test-bad-input: $(KERNEL_RUNTIME) $(SIMTY_MODEL)
	$(KERNEL_SUITE_RUN) --exe $(SIMTY_MODEL) $(MODEL_SUITE_ISA) --configs $(KERNEL_SUITE_CONFIGS) --suite bad
