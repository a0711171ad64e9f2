# SPDX-License-Identifier: Apache-2.0
# examples.mk - example programs: each examples/NAME/ holds host.c (the
# host program, using simty.h) and NAME.c (its kernel), plus headers they
# share. The host checks the device result against the CPU.
#
#   make run-example-NAME [SIMTY_DEVICE=URI]   build and run one example
#   make examples                              build them all

EXAMPLES += vecadd
SIMTY_DEVICE ?= model

EXAMPLE_BIN_DIR := $(BUILD)/examples
# host_lib.mk comes after this file: refer to its variables lazily (in
# recipes and `=` variables) or by path.
EXAMPLE_CFLAGS = $(HOSTLIB_CFLAGS) -Iexamples/common
EXAMPLE_BINS := $(addprefix $(EXAMPLE_BIN_DIR)/,$(EXAMPLES))
EXAMPLE_KERNELS := $(foreach e,$(EXAMPLES),$(BUILD)/kernels/examples/$(e)/$(e).elf)

# Kernels are built by the kernel.mk pattern rule; they also depend on the
# headers they share with their host program.
$(foreach e,$(EXAMPLES),$(eval $(BUILD)/kernels/examples/$(e)/$(e).elf: $(wildcard examples/$(e)/*.h)))

$(EXAMPLE_BIN_DIR)/%: examples/%/host.c examples/common/example.c examples/common/example.h \
    $(BUILD)/lib/libsimty.a host_lib/include/simty.h | $(EXAMPLE_BIN_DIR)/
	$(CC) $(EXAMPLE_CFLAGS) -Iexamples/$* \
	  -DEXAMPLE_KERNEL='"$(abspath $(BUILD)/kernels/examples/$*/$*.elf)"' \
	  -o $@ examples/$*/host.c examples/common/example.c $(BUILD)/lib/libsimty.a $(HOSTLIB_LIBS)

.PHONY: examples
examples: $(EXAMPLE_BINS) $(EXAMPLE_KERNELS)

define EXAMPLE_RUN_RULE
.PHONY: run-example-$(1)
run-example-$(1): $(EXAMPLE_BIN_DIR)/$(1) $(BUILD)/kernels/examples/$(1)/$(1).elf
	SIMTY_DEVICE=$$(SIMTY_DEVICE) $(EXAMPLE_BIN_DIR)/$(1)
endef
$(foreach e,$(EXAMPLES),$(eval $(call EXAMPLE_RUN_RULE,$(e))))

# ---- Hardware in the loop: every example (examples/catalog.mk) and the
# board bring-up self-test on one device ----
#   make hil DEVICE=URI
.PHONY: hil
hil: examples-hil $(BUILD)/bin/simty
	$(BUILD)/bin/simty --device '$(DEVICE)' selftest

# The hardware-in-the-loop run against the simulated board, in `make test`
# (examples-model covers the model backend).
TEST_SUITES += hil-sim
.PHONY: test-hil-sim
test-hil-sim:
	@$(MAKE) --no-print-directory simty-sim
	@$(MAKE) --no-print-directory hil DEVICE=sim
