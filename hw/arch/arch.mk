# SPDX-License-Identifier: Apache-2.0
# arch.mk - derived forms of the one architectural contract, simty_arch.h.

ARCH_GEN := $(BUILD)/tools/gen_arch
ARCH_VH := $(BUILD)/gen/simty_arch.vh
ARCH_LD := $(BUILD)/gen/simty_memory.ld

$(ARCH_GEN): hw/arch/gen_arch.c hw/arch/simty_arch.h | $(BUILD)/tools/
	$(CC) $(HOST_CFLAGS) -Ihw/arch -o $@ $<

$(ARCH_VH): $(ARCH_GEN) | $(BUILD)/gen/
	$(ARCH_GEN) vh > $@.tmp && mv $@.tmp $@

$(ARCH_LD): $(ARCH_GEN) | $(BUILD)/gen/
	$(ARCH_GEN) ld > $@.tmp && mv $@.tmp $@

# The release version (major.minor.patch), read from simty_arch.h.
SIMTY_VERSION_STRING := $(shell awk '/^\#define SIMTY_VERSION_(MAJOR|MINOR|PATCH) /{v = v (v == "" ? "" : ".") $$3} END {print v}' hw/arch/simty_arch.h)
