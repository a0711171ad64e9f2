# soc.mk - the SoC around the Simty core (controller core, UART, memories,
# MMIO, SoC top), its unit benches (suite `soc`), and the simulated board.
#
# Unit benches live in hw/sim/soc/, the board in hw/sim/board/.

SOC_RTL_DIR := hw/rtl/soc
SOC_SIM_DIR := hw/sim/soc
SOC_OUT := $(BUILD)/sim/soc
RISCV_OBJCOPY ?= riscv64-unknown-elf-objcopy
VERILATOR ?= verilator
SOC_VFLAGS := -O3 --x-assign fast --x-initial fast --noassert -Wno-fatal \
  -CFLAGS "-O2 -std=c++17" -MAKEFLAGS "-s OPT_FAST=-O2"

# $(call soc_hex,ELF,HEX): flat image from address 0 as one 32-bit word a
# line for $readmemh (od prints host-order words: this host is little
# endian, like RISC-V; a trailing partial word is zero-padded).
define soc_hex
$(RISCV_OBJCOPY) -O binary $(1) $(2).bin
od -An -v -tx4 -w4 $(2).bin | tr -d ' ' > $(2).tmp && mv $(2).tmp $(2)
rm -f $(2).bin
endef

# ---- controller core bench ----
SOC_CPU_OUT := $(SOC_OUT)/cpu
SOC_CPU_TB := $(SOC_CPU_OUT)/Vsimty_ctrl_cpu_tb
SOC_CPU_CFLAGS := -march=rv32i -mabi=ilp32 -O2 -nostdlib -ffreestanding \
  -Wall -Wextra -Werror -Wl,--no-warn-rwx-segments -T $(SOC_SIM_DIR)/cpu/link.ld
SOC_CPU_TRAPS := 1 2 3 4 5 6 7 8 9
SOC_CPU_PROGS := $(SOC_CPU_OUT)/rv32i_all.hex $(SOC_CPU_OUT)/cprog.hex \
  $(SOC_CPU_OUT)/rv32i_all.elf $(SOC_CPU_OUT)/cprog.elf \
  $(foreach n,$(SOC_CPU_TRAPS),$(SOC_CPU_OUT)/trap$(n).elf) \
  $(SOC_CPU_OUT)/cprog_host.txt $(foreach n,$(SOC_CPU_TRAPS),$(SOC_CPU_OUT)/trap$(n).hex)

$(SOC_CPU_TB): $(SOC_RTL_DIR)/simty_ctrl_cpu.v $(SOC_SIM_DIR)/simty_ctrl_cpu_tb.v \
    $(SOC_SIM_DIR)/tb_main.cpp | $(SOC_CPU_OUT)/
	$(VERILATOR) --cc --exe --build $(SOC_VFLAGS) -Mdir $(SOC_CPU_OUT)/obj \
	  --top-module simty_ctrl_cpu_tb -CFLAGS '-DTB_HEADER=\"Vsimty_ctrl_cpu_tb.h\" -DTB_CLASS=Vsimty_ctrl_cpu_tb' \
	  -o $(abspath $@) $(filter %.v,$^) $(abspath $(filter %.cpp,$^)) >/dev/null

$(SOC_CPU_OUT)/rv32i_all.elf: $(SOC_SIM_DIR)/cpu/rv32i_all.S $(SOC_SIM_DIR)/cpu/link.ld | $(SOC_CPU_OUT)/
	$(RISCV_CC) $(SOC_CPU_CFLAGS) -o $@ $<

$(SOC_CPU_OUT)/trap%.elf: $(SOC_SIM_DIR)/cpu/trap.S $(SOC_SIM_DIR)/cpu/link.ld | $(SOC_CPU_OUT)/
	$(RISCV_CC) $(SOC_CPU_CFLAGS) -DCASE=$* -o $@ $<

$(SOC_CPU_OUT)/cprog.elf: $(SOC_SIM_DIR)/cpu/start.S $(SOC_SIM_DIR)/cpu/cprog.c $(SOC_SIM_DIR)/cpu/link.ld | $(SOC_CPU_OUT)/
	$(RISCV_CC) $(SOC_CPU_CFLAGS) -o $@ $(filter %.S %.c,$^) -lgcc

$(SOC_CPU_OUT)/cprog_host.txt: $(SOC_SIM_DIR)/cpu/cprog.c | $(SOC_CPU_OUT)/
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -DHOST -o $(SOC_CPU_OUT)/cprog_host $<
	$(SOC_CPU_OUT)/cprog_host > $@

$(SOC_CPU_OUT)/%.hex: $(SOC_CPU_OUT)/%.elf
	$(call soc_hex,$<,$@)

.PHONY: soc-cpu-test
soc-cpu-test: $(SOC_CPU_TB) $(SOC_CPU_PROGS)
	python3 $(SOC_SIM_DIR)/run_cpu_tests.py $(SOC_CPU_TB) $(SOC_CPU_OUT)

# ---- UART and FIFO bench (Verilog bench with delays: --timing) ----
SOC_UART_RTL := $(addprefix $(SOC_RTL_DIR)/,simty_uart.v simty_uart_rx.v \
  simty_uart_tx.v simty_fifo.v)
SOC_UART_TB := $(SOC_OUT)/uart/Vsimty_uart_tb

$(SOC_UART_TB): $(SOC_SIM_DIR)/simty_uart_tb.v $(SOC_UART_RTL) | $(SOC_OUT)/uart/
	$(VERILATOR) --binary --timing -Wno-fatal -Wno-WIDTH -Mdir $(SOC_OUT)/uart/obj \
	  -MAKEFLAGS "-s" --top-module simty_uart_tb -o $(abspath $@) $^ >/dev/null

.PHONY: soc-uart-test
soc-uart-test: $(SOC_UART_TB)
	$(SOC_UART_TB)

# ---- lint: every SoC module alone, verilator -Wall, no waiver file ----
SOC_LINT_TOPS := simty_ctrl_cpu simty_fifo simty_uart_rx simty_uart_tx simty_uart

.PHONY: soc-lint
soc-lint:
	@for top in $(SOC_LINT_TOPS); do \
	  $(VERILATOR) --lint-only -Wall -I$(SOC_RTL_DIR) -I$(BUILD)/gen --top-module $$top \
	    $(SOC_RTL_DIR)/$$top.v || exit 1; \
	done
	$(VERILATOR) --lint-only -Wall -I$(SOC_RTL_DIR) -GPHY=0 --top-module simty_uart \
	  $(SOC_RTL_DIR)/simty_uart.v
	@echo "soc lint: clean"

TEST_SUITES += soc
.PHONY: test-soc
test-soc: soc-lint soc-cpu-test soc-uart-test
