# SPDX-License-Identifier: Apache-2.0
# kernel.mk - the kernel runtime: crt0, linker script, device header,
# console stdio and the simty-cc wrapper, staged under $(BUILD) the way
# `make install` lays them out.

KRT_DIR := host_lib/kernel
KRT_OUT := $(BUILD)/lib/simty
RISCV_CC ?= riscv64-unknown-elf-gcc
KRT_CFLAGS := -march=rv32i -mabi=ilp32 -std=gnu11 -O2 -g -Wall -Wextra -Werror \
  -ffunction-sections -fdata-sections --specs=picolibc.specs \
  -I$(KRT_DIR) -Ihw/arch

SIMTY_CC := $(BUILD)/bin/simty-cc
KERNEL_RUNTIME := $(SIMTY_CC) $(KRT_OUT)/crt0.o $(KRT_OUT)/libsimty_rt.a \
  $(KRT_OUT)/simty_kernel.ld $(KRT_OUT)/simty_memory.ld \
  $(BUILD)/include/simty_kernel.h $(BUILD)/include/simty_arch.h

$(KRT_OUT)/crt0.o: $(KRT_DIR)/crt0.S hw/arch/simty_arch.h | $(KRT_OUT)/
	$(RISCV_CC) $(KRT_CFLAGS) -c -o $@ $<

$(KRT_OUT)/simty_stdio.o: $(KRT_DIR)/simty_stdio.c $(KRT_DIR)/simty_kernel.h hw/arch/simty_arch.h | $(KRT_OUT)/
	$(RISCV_CC) $(KRT_CFLAGS) -c -o $@ $<

$(KRT_OUT)/libsimty_rt.a: $(KRT_OUT)/simty_stdio.o
	rm -f $@ && riscv64-unknown-elf-ar rcs $@ $^

$(KRT_OUT)/simty_kernel.ld: $(KRT_DIR)/simty_kernel.ld | $(KRT_OUT)/
	cp $< $@

$(KRT_OUT)/simty_memory.ld: $(ARCH_LD) | $(KRT_OUT)/
	cp $< $@

$(BUILD)/include/%.h: $(KRT_DIR)/%.h | $(BUILD)/include/
	cp $< $@

$(BUILD)/include/simty_arch.h: hw/arch/simty_arch.h | $(BUILD)/include/
	cp $< $@

$(SIMTY_CC): $(KRT_DIR)/simty-cc.in | $(BUILD)/bin/
	cp $< $@ && chmod +x $@

.PHONY: kernel-runtime
kernel-runtime: $(KERNEL_RUNTIME)

# Build a kernel ELF from one C file with simty-cc.
$(BUILD)/kernels/%.elf: %.c $(KERNEL_RUNTIME)
	@mkdir -p $(dir $@)
	$(SIMTY_CC) -o $@ $<
