# SPDX-License-Identifier: Apache-2.0
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
SOC_CPU_TRAPS := 1 2 3 4 5 6 7 8 9 10
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
# Included by the UART's receiver and transmitter.
SOC_RTL_INCS := $(SOC_RTL_DIR)/simty_uart_rate.vh
SOC_UART_RTL := $(addprefix $(SOC_RTL_DIR)/,simty_uart.v simty_uart_rx.v \
  simty_uart_tx.v simty_fifo.v)
SOC_UART_TB := $(SOC_OUT)/uart/Vsimty_uart_tb
# The same bench at 25 MHz / 3 Mbaud (8.33 cycles a bit), senders 2% off.
SOC_UART_TB_FRAC := $(SOC_OUT)/uart_frac/Vsimty_uart_tb

$(SOC_UART_TB): $(SOC_SIM_DIR)/simty_uart_tb.v $(SOC_UART_RTL) $(SOC_RTL_INCS) | $(SOC_OUT)/uart/
	$(VERILATOR) --binary --timing -Wno-fatal -Wno-WIDTH -Mdir $(SOC_OUT)/uart/obj \
	  -MAKEFLAGS "-s" --top-module simty_uart_tb -I$(SOC_RTL_DIR) -o $(abspath $@) $(filter %.v,$^) >/dev/null

$(SOC_UART_TB_FRAC): $(SOC_SIM_DIR)/simty_uart_tb.v $(SOC_UART_RTL) $(SOC_RTL_INCS) | $(SOC_OUT)/uart_frac/
	$(VERILATOR) --binary --timing -Wno-fatal -Wno-WIDTH -Mdir $(SOC_OUT)/uart_frac/obj \
	  -MAKEFLAGS "-s" --top-module simty_uart_tb -GCLK_HZ=25000000 -GBAUD=3000000 \
	  -GOFF_PERMILLE=20 -I$(SOC_RTL_DIR) -o $(abspath $@) $(filter %.v,$^) >/dev/null

.PHONY: soc-uart-test
soc-uart-test: $(SOC_UART_TB) $(SOC_UART_TB_FRAC)
	$(SOC_UART_TB)
	$(SOC_UART_TB_FRAC)

# ---- MMIO register block bench ----
SOC_MMIO_TB := $(SOC_OUT)/mmio/Vsimty_mmio_tb

$(SOC_MMIO_TB): $(SOC_SIM_DIR)/simty_mmio_tb.v $(SOC_RTL_DIR)/simty_mmio.v $(SOC_RTL_DIR)/simty_fifo.v | $(SOC_OUT)/mmio/
	$(VERILATOR) --binary --timing -Wno-fatal -Wno-WIDTH -Mdir $(SOC_OUT)/mmio/obj \
	  -MAKEFLAGS "-s" --top-module simty_mmio_tb -o $(abspath $@) $^ >/dev/null

.PHONY: soc-mmio-test
soc-mmio-test: $(SOC_MMIO_TB)
	$(SOC_MMIO_TB)

# ---- link engine bench (suite link-engine): C++ harness with the C codec
# of driver/link as the reference ----
SOC_LINK_OUT := $(SOC_OUT)/link
SOC_LINK_TB := $(SOC_LINK_OUT)/Vsimty_link_engine_tb
SOC_LINK_RTL := $(addprefix $(SOC_RTL_DIR)/,simty_link_engine.v simty_ram_be.v simty_uart.v \
  simty_uart_rx.v simty_uart_tx.v simty_fifo.v)

$(SOC_LINK_OUT)/simty_link.o: driver/link/simty_link.c driver/link/simty_link.h \
    driver/link/simty_proto.h | $(SOC_LINK_OUT)/
	$(CC) -std=c11 -O2 -Wall -Wextra -Werror -Idriver/link -c -o $@ $<

$(SOC_LINK_TB): $(SOC_SIM_DIR)/simty_link_engine_tb.v $(SOC_SIM_DIR)/simty_link_engine_tb.cpp \
    $(SOC_LINK_RTL) $(SOC_RTL_INCS) $(SOC_LINK_OUT)/simty_link.o firmware/simty_mmio.h $(ARCH_VH)
	$(VERILATOR) --cc --exe --build -O3 --x-assign fast --x-initial fast -Wall \
	  -CFLAGS "-O2 -std=c++17 -Wall -Wextra -Werror -I$(CURDIR)/driver/link -I$(CURDIR)/firmware" \
	  -MAKEFLAGS "-s OPT_FAST=-O2" -I$(BUILD)/gen -I$(SOC_RTL_DIR) -Mdir $(SOC_LINK_OUT)/obj \
	  --top-module simty_link_engine_tb -o $(abspath $@) \
	  $(SOC_SIM_DIR)/simty_link_engine_tb.v $(SOC_LINK_RTL) \
	  $(abspath $(SOC_SIM_DIR)/simty_link_engine_tb.cpp) $(abspath $(SOC_LINK_OUT)/simty_link.o) >/dev/null

# The engine in the real SoC: a controller program (link_echo/echo.c)
# answers frames through the engine on the simulated board, byte bridge
# and UART PHY.
SOC_ECHO_DIR := $(SOC_SIM_DIR)/link_echo
SOC_ECHO_HEX := $(SOC_LINK_OUT)/echo.hex

$(SOC_LINK_OUT)/echo.elf: $(SOC_ECHO_DIR)/echo.c $(SOC_ECHO_DIR)/link.ld $(SOC_SIM_DIR)/cpu/start.S \
    firmware/simty_mmio.h hw/arch/simty_arch.h | $(SOC_LINK_OUT)/
	$(RISCV_CC) -march=rv32i -mabi=ilp32 -O2 -nostdlib -ffreestanding -Wall -Wextra -Werror \
	  -Wl,--no-warn-rwx-segments -T $(SOC_ECHO_DIR)/link.ld -Ihw/arch -Ifirmware \
	  -o $@ $(SOC_SIM_DIR)/cpu/start.S $(SOC_ECHO_DIR)/echo.c -lgcc

$(SOC_ECHO_HEX): $(SOC_LINK_OUT)/echo.elf
	$(call soc_hex,$<,$@)

.PHONY: test-link-engine link-echo-test
test-link-engine: $(SOC_LINK_TB) link-echo-test
	$(SOC_LINK_TB)

link-echo-test: simty-sim simty-sim-4x4-uart $(SOC_ECHO_HEX)
	python3 $(SOC_ECHO_DIR)/link_echo_test.py --sim $(SIMTY_SIM) --fw $(SOC_ECHO_HEX)
	python3 $(SOC_ECHO_DIR)/link_echo_test.py --sim $(SIMTY_SIM) --fw $(SOC_ECHO_HEX) --uart-phy

TEST_SUITES += link-engine

# ---- lint: every SoC module alone, verilator -Wall, no waiver file ----
SOC_LINT_TOPS := simty_ctrl_cpu simty_fifo simty_uart_rx simty_uart_tx simty_uart \
  simty_mmio simty_block_seq simty_ram_be simty_link_engine

.PHONY: soc-lint
soc-lint: $(ARCH_VH)
	@for top in $(SOC_LINT_TOPS); do \
	  $(VERILATOR) --lint-only -Wall -I$(SOC_RTL_DIR) -I$(BUILD)/gen --top-module $$top \
	    $(SOC_RTL_DIR)/$$top.v || exit 1; \
	done
	$(VERILATOR) --lint-only -Wall -I$(SOC_RTL_DIR) -GPHY=0 --top-module simty_uart \
	  $(SOC_RTL_DIR)/simty_uart.v
	@for params in "-GWARPS=1 -GLANES=1" "-GWARPS=8 -GLANES=8" "-GWARPS=32 -GLANES=32" \
	    "-GWARPS=3 -GLANES=2"; do \
	  $(VERILATOR) --lint-only -Wall --top-module simty_block_seq $$params \
	    $(SOC_RTL_DIR)/simty_block_seq.v || exit 1; \
	done
	@# The whole SoC with the core, in several shapes; soc_lint.vlt leaves
	@# the core's own files to the core's lint suite.
	@for params in "" "-GPHY=0" "-GWARPS=1 -GLANES=1" "-GWARPS=8 -GLANES=8" \
	    "-GWARPS=2 -GLANES=32" "-GLINK_ENGINE=0" "-GLINK_RX_SLOTS=3 -GLINK_TX_SLOTS=3"; do \
	  $(VERILATOR) --lint-only -Wall -I$(SOC_RTL_DIR) -Ihw/rtl/core -I$(BUILD)/gen \
	    --top-module simty_soc $$params $(SOC_RTL_DIR)/soc_lint.vlt \
	    $(SOC_RTL_DIR)/simty_soc.v || exit 1; \
	done
	@for top in simty_sim_top simty_sim_uart_top; do \
	  $(VERILATOR) --lint-only -Wall -I$(SOC_RTL_DIR) -Ihw/rtl/core -I$(BUILD)/gen \
	    --top-module $$top $(SOC_RTL_DIR)/soc_lint.vlt $(SIM_BOARD_DIR)/$$top.v || exit 1; \
	done
	@echo "soc lint: clean"

# ---- block sequencer bench: the sequencer against a stand-in core, in
# several shapes (WARPS x LANES) ----
SOC_SEQ_SHAPES := 4x4 1x1 8x8 3x2 2x32
SOC_SEQ_TBS := $(foreach s,$(SOC_SEQ_SHAPES),$(SOC_OUT)/seq_$(s)/Vsimty_block_seq_tb)

$(SOC_OUT)/seq_%/Vsimty_block_seq_tb: $(SOC_SIM_DIR)/simty_block_seq_tb.v $(SOC_RTL_DIR)/simty_block_seq.v
	@mkdir -p $(@D)
	$(VERILATOR) --binary --timing -Wno-fatal -Wno-WIDTH -Mdir $(@D)/obj \
	  -MAKEFLAGS "-s" --top-module simty_block_seq_tb \
	  -GWARPS=$(call sim_board_w,$*) -GLANES=$(call sim_board_l,$*) \
	  -o $(abspath $@) $^ >/dev/null

.PHONY: soc-seq-test
soc-seq-test: $(SOC_SEQ_TBS)
	@for tb in $(SOC_SEQ_TBS); do $$tb || exit 1; done

# ---- byte-enable RAM bench: direct and registered write port (WREG) ----
SOC_RAM_TBS := $(foreach w,0 1,$(SOC_OUT)/ram_wreg$(w)/Vsimty_ram_be_tb)

$(SOC_OUT)/ram_wreg%/Vsimty_ram_be_tb: $(SOC_SIM_DIR)/simty_ram_be_tb.v $(SOC_RTL_DIR)/simty_ram_be.v
	@mkdir -p $(@D)
	$(VERILATOR) --binary --timing -Wno-fatal -Wno-WIDTH -Mdir $(@D)/obj \
	  -MAKEFLAGS "-s" --top-module simty_ram_be_tb -GWREG=$* \
	  -o $(abspath $@) $^ >/dev/null

.PHONY: soc-ram-test
soc-ram-test: $(SOC_RAM_TBS)
	@for tb in $(SOC_RAM_TBS); do $$tb || exit 1; done

TEST_SUITES += soc
.PHONY: test-soc
test-soc: soc-lint soc-cpu-test soc-uart-test soc-mmio-test soc-seq-test soc-ram-test

# ---- the simulated board: build/bin/simty-sim ----
# One Verilated SoC per WARPSxLANES configuration and waveform kind:
#   make simty-sim            launcher + 4x4 + firmware (what the host uses)
#   make simty-sim-8x8        another configuration
#   make simty-sim-4x4-vcd    the 4x4 board with --vcd support (also -fst)
#   make simty-sim-4x4-uart   the 4x4 board with the real UART PHY (--uart-phy)
SIM_BOARD_DIR := hw/sim/board
SIM_BOARD_OUT := $(BUILD)/sim
# The ULX3S's clock (boards.mk's ULX3S_MHZ, its default bitstream's) and
# link rate (docs/boards.md): what users without a board see is what the
# flagship board does.
SIM_BOARD_CLK_HZ ?= $(ULX3S_MHZ)000000
SIM_BOARD_BAUD ?= 3000000
# The firmware's populated RAM (firmware.mk's FW_RAM_SIZE, read when a
# recipe runs: that fragment is included after this one).
SIM_BOARD_FW_SIZE ?= $(shell printf '%d' $(or $(FW_RAM_SIZE),32768))
SIM_BOARD_JOBS ?= 2
SOC_RTL_SRCS := $(addprefix $(SOC_RTL_DIR)/,simty_soc.v simty_ctrl_cpu.v simty_mmio.v \
  simty_block_seq.v simty_ram_be.v simty_fifo.v simty_uart.v simty_uart_rx.v simty_uart_tx.v \
  simty_link_engine.v)
SIM_BOARD_CORE_SRCS = $(if $(RTL_CORE_SRCS),$(RTL_CORE_SRCS),$(filter-out %_tb.v,$(wildcard hw/rtl/core/*.v)))
SIM_BOARD_C_OBJS := $(SIM_BOARD_OUT)/board_obj/simty_sim_link.o $(SIM_BOARD_OUT)/board_obj/simty_sim_opts.o \
  $(SIM_BOARD_OUT)/board_obj/simty_sim_usb.o

# Built by a pattern rule and used by pattern rules: keep them.
.SECONDARY: $(SIM_BOARD_C_OBJS) $(SIM_BOARD_OUT)/board_obj/
$(SIM_BOARD_OUT)/board_obj/%.o: $(SIM_BOARD_DIR)/%.c $(SIM_BOARD_DIR)/%.h \
  $(SIM_BOARD_DIR)/simty_sim_usb.h | $(SIM_BOARD_OUT)/board_obj/
	$(CC) $(HOST_CFLAGS) -c -o $@ $<

sim_board_w = $(word 1,$(subst x, ,$(1)))
sim_board_l = $(word 2,$(subst x, ,$(1)))
# $(1) = WxL, $(2) = output binary, $(3) = trace kind (0, 1 VCD, 2 FST),
# $(4) = 1 for the board with the real UART PHY (simty_sim_uart_top).
# Builds in a directory of its own (shell pid) and moves the binary in
# place at the end, so that two makes sharing build/ cannot clobber each
# other's half-built objects.
sim_board_verilate = tmp=$(abspath $(2)).tmp$$$$ && rm -rf $$tmp.obj && \
  $(VERILATOR) --cc --exe --build -j $(SIM_BOARD_JOBS) \
  -O3 --x-assign fast --x-initial fast --noassert -Wno-fatal -Wno-lint -Wno-style \
  $(if $(filter 1,$(3)),--trace,)$(if $(filter 2,$(3)),--trace-fst,) \
  --top-module $(if $(4),simty_sim_uart_top,simty_sim_top) --prefix Vsimty_sim_top \
  -Mdir $$tmp.obj \
  -GWARPS=$(call sim_board_w,$(1)) -GLANES=$(call sim_board_l,$(1)) \
  -GFW_SIZE=$(SIM_BOARD_FW_SIZE) -GCLK_HZ=$(SIM_BOARD_CLK_HZ) -GBAUD=$(SIM_BOARD_BAUD) $(5) \
  -GHW_BUILD=$$(cat $(SOC_RTL_SRCS) $(SOC_RTL_INCS) $(SIM_BOARD_CORE_SRCS) | $(BOARD_BUILD_DIGEST)) \
  -MAKEFLAGS "OPT_FAST=-O2 OPT_GLOBAL=-O2 OPT_SLOW=-O1" \
  -CFLAGS "-O2 -DSIM_WARPS=$(call sim_board_w,$(1)) -DSIM_LANES=$(call sim_board_l,$(1)) \
    -DSIM_CLK_HZ=$(SIM_BOARD_CLK_HZ)ull -DSIM_BAUD=$(SIM_BOARD_BAUD)ull -DSIM_TRACE=$(3) \
    -DSIM_FW_WORDS=$(SIM_BOARD_FW_SIZE)/4 -DSIM_UART_PHY=$(if $(4),1,0) \
    -I$(CURDIR)/$(SIM_BOARD_DIR)" \
  -I$(SOC_RTL_DIR) -Ihw/rtl/core -I$(BUILD)/gen \
  $(SIM_BOARD_DIR)/$(if $(4),simty_sim_uart_top,simty_sim_top).v $(SOC_RTL_SRCS) \
  $(SIM_BOARD_CORE_SRCS) \
  $(CURDIR)/$(SIM_BOARD_DIR)/simty_sim_main.cpp $(abspath $(SIM_BOARD_C_OBJS)) \
  -o $$tmp > $$tmp.log 2>&1 || { cat $$tmp.log; rm -rf $$tmp.obj $$tmp.log; exit 1; }; \
  mv -f $$tmp $(2) && rm -rf $$tmp.obj $$tmp.log

# What the boards are built for beyond their sources: a change of clock,
# link rate or firmware size rebuilds them (the stamp is rewritten only
# when its contents change).
SIM_BOARD_STAMP := $(SIM_BOARD_OUT)/board_config.stamp
SIM_BOARD_CONFIG = CLK_HZ=$(SIM_BOARD_CLK_HZ) BAUD=$(SIM_BOARD_BAUD) FW_SIZE=$(SIM_BOARD_FW_SIZE)
$(SIM_BOARD_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(SIM_BOARD_CONFIG)' | cmp -s - $@ || echo '$(SIM_BOARD_CONFIG)' > $@
.PHONY: FORCE
FORCE:

SIM_BOARD_DEPS = $(SIM_BOARD_STAMP) $(SIM_BOARD_DIR)/simty_sim_top.v $(SIM_BOARD_DIR)/simty_sim_uart_top.v $(SOC_RTL_SRCS) $(SOC_RTL_INCS) $(SIM_BOARD_CORE_SRCS) \
  $(if $(RTL_CORE_INCS),$(RTL_CORE_INCS),$(wildcard hw/rtl/core/*.vh)) \
  $(ARCH_VH) $(SIM_BOARD_C_OBJS) $(SIM_BOARD_DIR)/simty_sim_main.cpp \
  $(SIM_BOARD_DIR)/simty_sim_link.h $(SIM_BOARD_DIR)/simty_sim_opts.h $(SIM_BOARD_DIR)/simty_sim_usb.h

$(SIM_BOARD_OUT)/board_%/simty-sim-bin: $(SIM_BOARD_DEPS)
	@mkdir -p $(@D)
	@echo "VERILATE $@"
	@$(call sim_board_verilate,$*,$@,0)

# The board whose core has the rotate crossbar (XBAR=1, INFO's extensions
# bit 8): make simty-sim-4x4_rotate, run with `simty-sim --xbar rotate`.
$(SIM_BOARD_OUT)/board_%_rotate/simty-sim-bin: $(SIM_BOARD_DEPS)
	@mkdir -p $(@D)
	@echo "VERILATE $@ (XBAR=1)"
	@$(call sim_board_verilate,$*,$@,0,,-GXBAR=1)

$(SIM_BOARD_OUT)/board_%/simty-sim-bin-vcd: $(SIM_BOARD_DEPS)
	@mkdir -p $(@D)
	@echo "VERILATE $@"
	@$(call sim_board_verilate,$*,$@,1)

$(SIM_BOARD_OUT)/board_%/simty-sim-bin-fst: $(SIM_BOARD_DEPS)
	@mkdir -p $(@D)
	@echo "VERILATE $@"
	@$(call sim_board_verilate,$*,$@,2)

$(SIM_BOARD_OUT)/board_%/simty-sim-bin-uart: $(SIM_BOARD_DEPS)
	@mkdir -p $(@D)
	@echo "VERILATE $@"
	@$(call sim_board_verilate,$*,$@,0,1)

# The per-configuration binaries are reached through pattern rules only:
# keep them (make would delete them as intermediates).
.PRECIOUS: $(SIM_BOARD_OUT)/board_%/simty-sim-bin $(SIM_BOARD_OUT)/board_%_rotate/simty-sim-bin \
  $(SIM_BOARD_OUT)/board_%/simty-sim-bin-vcd \
  $(SIM_BOARD_OUT)/board_%/simty-sim-bin-fst $(SIM_BOARD_OUT)/board_%/simty-sim-bin-uart

$(BUILD)/bin/simty-sim: $(SIM_BOARD_DIR)/simty-sim.in | $(BUILD)/bin/
	cp $< $@ && chmod +x $@

SIMTY_SIM := $(BUILD)/bin/simty-sim
SIMTY_SIM_4X4 := $(SIM_BOARD_OUT)/board_4x4/simty-sim-bin

.PHONY: simty-sim
simty-sim: $(SIMTY_SIM) $(SIMTY_SIM_4X4) firmware

simty-sim-%-vcd: $(SIMTY_SIM) $(SIM_BOARD_OUT)/board_%/simty-sim-bin-vcd firmware ;
simty-sim-%-fst: $(SIMTY_SIM) $(SIM_BOARD_OUT)/board_%/simty-sim-bin-fst firmware ;
simty-sim-%-uart: $(SIMTY_SIM) $(SIM_BOARD_OUT)/board_%/simty-sim-bin-uart firmware ;
simty-sim-%: $(SIMTY_SIM) $(SIM_BOARD_OUT)/board_%/simty-sim-bin firmware ;

# ---- end-to-end test of the simulated board (suite board-e2e) ----
BOARD_TEST_DIR := tests/board
BOARD_TEST_OUT := $(BUILD)/tests/board
BOARD_KERNELS := $(BOARD_TEST_OUT)/fill.elf $(BOARD_TEST_OUT)/spin.elf $(BOARD_TEST_OUT)/fault.elf \
  $(BOARD_TEST_OUT)/chatty.elf
.SECONDARY: $(BOARD_TEST_OUT)/

$(BOARD_TEST_OUT)/%.elf: $(BOARD_TEST_DIR)/kernels/%.c $(KERNEL_RUNTIME) | $(BOARD_TEST_OUT)/
	$(SIMTY_CC) -o $@ $<

$(BOARD_TEST_OUT)/%.elf: $(BOARD_TEST_DIR)/kernels/%.S $(KERNEL_RUNTIME) | $(BOARD_TEST_OUT)/
	$(SIMTY_CC) -o $@ $<

# The 4x4 board (with waveforms), the 4x4 board with the real UART PHY
# (the SoC as the FPGA boards build it, bytes as bits at the baud rate, RTS
# flow control), and a 1x1 board (one lane: one DATA bank).
.PHONY: test-board-e2e
BOARD_E2E_CLOCK = --clock-hz $(SIM_BOARD_CLK_HZ) --baud $(SIM_BOARD_BAUD)
test-board-e2e: simty-sim simty-sim-4x4-vcd simty-sim-4x4-uart simty-sim-1x1 $(BOARD_KERNELS)
	python3 $(BOARD_TEST_DIR)/test_board_e2e.py --sim $(SIMTY_SIM) $(BOARD_E2E_CLOCK) \
	  --kernels $(BOARD_TEST_OUT) --vcd
	python3 $(BOARD_TEST_DIR)/test_board_e2e.py --sim $(SIMTY_SIM) $(BOARD_E2E_CLOCK) \
	  --kernels $(BOARD_TEST_OUT) --uart-phy
	python3 $(BOARD_TEST_DIR)/test_board_e2e.py --sim $(SIMTY_SIM) $(BOARD_E2E_CLOCK) \
	  --kernels $(BOARD_TEST_OUT) --config 1x1

TEST_SUITES += board-e2e

# ---- reports (not tests) ----
# Link throughput and simulation speed of the simulated board.
.PHONY: bench-board soc-area soc-area-full sim-board
bench-board: simty-sim simty-sim-4x4-uart $(BOARD_KERNELS)
	python3 $(BOARD_TEST_DIR)/bench_board.py --sim $(SIMTY_SIM) \
	  --kernels $(BOARD_TEST_OUT) --baud $(SIM_BOARD_BAUD) --uart-phy

# Yosys iCE40 area of the controller, UART and MMIO blocks.
soc-area: $(ARCH_VH)
	sh $(SOC_RTL_DIR)/soc_area.sh $(BUILD)/soc-area "" 0 0 0 blocks

# The whole SoC (core included) with iCE40-sized memories, then
# nextpnr-ice40 on an HX8K (reports whether it fits).
SOC_AREA_CONFIGS ?= 4x4
soc-area-full: $(ARCH_VH)
	BUILD_GEN=$(BUILD)/gen sh $(SOC_RTL_DIR)/soc_area.sh $(BUILD)/soc-area "$(SOC_AREA_CONFIGS)" \
	  16384 4096 8192 pnr

# The whole SoC on ECP5 (ULX3S 85F: 84k LUT4s, 208 DP16KD), Yosys only:
# FW 32 KiB, CODE 32 KiB, DATA 128 KiB.
SOC_AREA_ECP5_CONFIGS ?= 8x8
.PHONY: soc-area-ecp5
soc-area-ecp5: $(ARCH_VH)
	BUILD_GEN=$(BUILD)/gen sh $(SOC_RTL_DIR)/soc_area.sh $(BUILD)/soc-area \
	  "$(SOC_AREA_ECP5_CONFIGS)" 32768 32768 131072 ecp5

# The name the host library's error message gives.
sim-board: simty-sim
