# SPDX-License-Identifier: Apache-2.0
# model.mk - the reference SIMT model: library, CLI, unit tests, benchmark.
#
#   $(MODEL_LIB)    build/lib/libsimty_model.a (includes the ELF loader)
#   $(SIMTY_MODEL)  build/bin/simty-model, the kernel runner CLI
#   make test-model-unit   cmocka tests of every RV32I instruction, of
#                          the SIMT mechanics (paths, memory, dispatch) and
#                          of the extensions, the crossbar kinds; the CLI,
#                          the race checker and
#                          simty-cc's options
#   make bench-model       thread instructions per second (bench/bench.mk)

MODEL_DIR := hw/model
MODEL_OBJ_DIR := $(BUILD)/obj/model
MODEL_LIB := $(BUILD)/lib/libsimty_model.a
SIMTY_MODEL := $(BUILD)/bin/simty-model
MODEL_CFLAGS := $(HOST_CFLAGS) -Ihw/arch -Ihost_lib/src -I$(MODEL_DIR)
MODEL_HEADERS := $(MODEL_DIR)/simty_model.h $(MODEL_DIR)/simty_model_internal.h \
  hw/arch/simty_arch.h host_lib/src/simty_elf.h host_lib/src/simty_lines.h

MODEL_SRCS := $(MODEL_DIR)/simty_model.c $(MODEL_DIR)/simty_model_decode.c \
  $(MODEL_DIR)/simty_model_race.c $(MODEL_DIR)/simty_model_cfg.c \
  $(MODEL_DIR)/simty_model_exec.c host_lib/src/simty_elf.c \
  host_lib/src/simty_lines.c
MODEL_OBJS := $(patsubst %.c,$(MODEL_OBJ_DIR)/%.o,$(notdir $(MODEL_SRCS)))

$(MODEL_OBJ_DIR)/%.o: $(MODEL_DIR)/%.c $(MODEL_HEADERS) | $(MODEL_OBJ_DIR)/
	$(CC) $(MODEL_CFLAGS) -c -o $@ $<

# Shared with the host library, which takes them from this archive.
$(MODEL_OBJ_DIR)/%.o: host_lib/src/%.c $(MODEL_HEADERS) | $(MODEL_OBJ_DIR)/
	$(CC) $(MODEL_CFLAGS) -c -o $@ $<

$(MODEL_LIB): $(MODEL_OBJS) | $(BUILD)/lib/
	rm -f $@ && $(AR) rcs $@ $^

$(SIMTY_MODEL): $(MODEL_DIR)/simty_model_main.c $(MODEL_LIB) $(MODEL_HEADERS) | $(BUILD)/bin/
	$(CC) $(MODEL_CFLAGS) -o $@ $< $(MODEL_LIB)

.PHONY: model
model: $(MODEL_LIB) $(SIMTY_MODEL)

# ---- Unit tests (cmocka) ----
MODEL_TEST_DIR := $(MODEL_DIR)/tests
MODEL_TESTS := $(BUILD)/tests/model/test_model_isa $(BUILD)/tests/model/test_model_simt \
  $(BUILD)/tests/model/test_model_ext $(BUILD)/tests/model/test_model_policy \
  $(BUILD)/tests/model/test_model_xbar

$(BUILD)/tests/model/%: $(MODEL_TEST_DIR)/%.c $(MODEL_TEST_DIR)/model_test_util.h $(MODEL_LIB) | $(BUILD)/tests/model/
	$(CC) $(MODEL_CFLAGS) -I$(MODEL_TEST_DIR) -o $@ $< $(MODEL_LIB) -lcmocka

# The CLI test runs a kernel built with simty-cc against the runner
# contract (formats, exit codes).
MODEL_CLI_KERNEL := $(BUILD)/tests/model/cli_kernel.elf
MODEL_CLI_TRAP_KERNEL := $(BUILD)/tests/model/cli_kernel_trap.elf
$(MODEL_CLI_KERNEL): $(MODEL_TEST_DIR)/kernels/cli_kernel.c $(KERNEL_RUNTIME) | $(BUILD)/tests/model/
	$(SIMTY_CC) -o $@ $<
$(MODEL_CLI_TRAP_KERNEL): $(MODEL_TEST_DIR)/kernels/cli_kernel.c $(KERNEL_RUNTIME) | $(BUILD)/tests/model/
	$(SIMTY_CC) -DTRAP_TID=5 -o $@ $<

# The race checker's kernels: a racy one and its atomic, race-free twin.
MODEL_RACE_KERNEL := $(BUILD)/tests/model/race_kernel.elf
MODEL_RACE_FREE_KERNEL := $(BUILD)/tests/model/race_free_kernel.elf
$(MODEL_RACE_KERNEL): $(MODEL_TEST_DIR)/kernels/race_kernel.c $(KERNEL_RUNTIME) | $(BUILD)/tests/model/
	$(SIMTY_CC) -o $@ $<
$(MODEL_RACE_FREE_KERNEL): $(MODEL_TEST_DIR)/kernels/race_kernel.c $(KERNEL_RUNTIME) | $(BUILD)/tests/model/
	$(SIMTY_CC) --isa rv32ia -DRACE_FREE -o $@ $<

TEST_SUITES += model-unit
.PHONY: test-model-unit
test-model-unit: $(MODEL_TESTS) $(SIMTY_MODEL) $(MODEL_CLI_KERNEL) $(MODEL_CLI_TRAP_KERNEL) \
    $(MODEL_RACE_KERNEL) $(MODEL_RACE_FREE_KERNEL)
	@set -e; for t in $(MODEL_TESTS); do echo "--- $$t"; $$t; done
	@echo "--- $(MODEL_TEST_DIR)/test_cli.py"
	@python3 $(MODEL_TEST_DIR)/test_cli.py $(SIMTY_MODEL) $(MODEL_CLI_KERNEL) \
	  $(MODEL_CLI_TRAP_KERNEL) $(BUILD)/tests/model/cli \
	  $(MODEL_RACE_KERNEL) $(MODEL_RACE_FREE_KERNEL)
	@echo "--- $(MODEL_TEST_DIR)/test_simty_cc.py"
	@python3 $(MODEL_TEST_DIR)/test_simty_cc.py $(SIMTY_CC) $(SIMTY_MODEL) \
	  $(BUILD)/tests/model/simty_cc
