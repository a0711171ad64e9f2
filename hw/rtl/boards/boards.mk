# SPDX-License-Identifier: Apache-2.0
# boards.mk - board tops, bitstreams and the FPGA scaling table.
#
#   make bitstream BOARD=hx8k|icebreaker|ulx3s [WARPS=W LANES=L] [BAUD=N]
#        [BOARD_MHZ=F (ULX3S)] [BOARD_ALLOW_TIMING_FAIL=1] [BOARD_VCLASS=0]
#        [BOARD_SYNTH_OPTS=... BOARD_PNR_OPTS=...]
#        firmware for the board's FW RAM, Yosys, nextpnr, icepack/ecppack:
#        build/boards/BOARD_WxL_Fmhz_BAUDbaud[_novclass][_optsHASH]/simty_board_BOARD.bin (iCE40)
#        or .bit (ECP5), with synth/pnr logs and summary.json (resources,
#        fit, Fmax). Fails (exit 2, no bitstream) when Fmax misses the
#        clock, unless BOARD_ALLOW_TIMING_FAIL=1 (then it says so).
#   make board-dir BOARD=...  prints that output folder
#   make prog BOARD=...     load it with openFPGALoader (iceprog for iCE40
#                           with PROG_TOOL=iceprog)
#   make board-report       the scaling table (scripts/board_report.py):
#                           core alone and whole SoC, iCE40 and ECP5
#   make test-boards-lint   Verilator -Wall and Yosys hierarchy -check on
#                           every board top, and the status LED testbench
#                           (hw/sim/board/simty_board_status_tb.v) (suite
#                           boards-lint)
#
# Place and route is a report, never part of `make test` (minutes per
# configuration). docs/boards.md has the per-board details.

BOARDS_DIR := hw/rtl/boards
BOARDS_OUT := $(BUILD)/boards
BOARDS_LIST := hx8k icebreaker ulx3s
BOARD ?= hx8k
PROG_TOOL ?= openFPGALoader
BOARD_FLOW := python3 $(BOARDS_DIR)/simty_board_flow.py
# Yosys's data directory (Debian's path; its ECP5 cell library declares
# EHXPLLL for the lint of the ULX3S top's PLL branch).
YOSYS_DATDIR ?= /usr/share/yosys

# ---- per-board settings ----
# FAMILY, nextpnr DEVICE options, clock (MHz), default WARPSxLANES, memory
# sizes (bytes; FW_SIZE is also the firmware's FW_RAM_SIZE), firmware
# build options, openFPGALoader board name.
# iCE40 boards: the reference firmware needs 16 KiB of FW RAM (8 KiB of
# code), i.e. 32 4-Kbit block RAMs: smaller payload buffers and console
# keep .bss small; CODE and DATA are as small as a useful kernel allows.
hx8k_FAMILY := ice40
hx8k_DEVICE := --hx8k --package ct256
hx8k_MHZ := 12
# The FT2232H's rate that a 12 MHz SoC samples reliably: 8 clocks a bit.
hx8k_BAUD := 1500000
hx8k_WARPS := 1
hx8k_LANES := 4
hx8k_FW_SIZE := 16384
hx8k_CODE_SIZE := 2048
hx8k_DATA_SIZE := 2048
hx8k_FW_DEFINES := -DFW_MAX_PAYLOAD=256 -DFW_CONSOLE_RECORDS=64
hx8k_LINK_FIFO := 512
hx8k_CONSOLE := 64
hx8k_PROG_BOARD := ice40_generic
hx8k_CONSTRAINTS := $(BOARDS_DIR)/hx8k/simty_board_hx8k.pcf

icebreaker_FAMILY := ice40
icebreaker_DEVICE := --up5k --package sg48
icebreaker_MHZ := 12
icebreaker_BAUD := 1500000
icebreaker_WARPS := 1
icebreaker_LANES := 4
icebreaker_FW_SIZE := 16384
icebreaker_CODE_SIZE := 2048
icebreaker_DATA_SIZE := 2048
icebreaker_FW_DEFINES := -DFW_MAX_PAYLOAD=256 -DFW_CONSOLE_RECORDS=64
icebreaker_LINK_FIFO := 512
icebreaker_CONSOLE := 64
icebreaker_PROG_BOARD := ice40_generic
icebreaker_CONSTRAINTS := $(BOARDS_DIR)/icebreaker/simty_board_icebreaker.pcf

# ECP5-85F: 208 DP16KD (18 Kbit). The reference firmware as is (32 KiB),
# 16 KiB CODE, 128 KiB DATA.
ulx3s_FAMILY := ecp5
ulx3s_DEVICE := --85k --package CABGA381
# BOARD_MHZ: any frequency the EHXPLLL makes from the 25 MHz oscillator
# (the flow computes its settings and passes CLK_HZ, the frequency achieved).
# ULX3S_MHZ, the default, is a clock the flow has met timing at
# (docs/boards.md) and the PLL makes exactly: the simulated board runs at
# it too (soc.mk's SIM_BOARD_CLK_HZ).
ULX3S_MHZ := 50
ulx3s_MHZ = $(if $(BOARD_MHZ),$(BOARD_MHZ),$(ULX3S_MHZ))
ulx3s_PARAMS = --pll-in 25
# nextpnr options of the board's own: HeAP's timing weight at 50 (its
# default is 10) places the critical nets shorter; docs/performance.md,
# "Timing towards 50 MHz".
ulx3s_PNR_OPTS := --placer-heap-timingweight 50
# The FT231X's highest rate (the UART divides the clock fractionally).
ulx3s_BAUD := 3000000
ulx3s_WARPS := 8
ulx3s_LANES := 8
ulx3s_FW_SIZE := 32768
ulx3s_CODE_SIZE := 16384
ulx3s_DATA_SIZE := 131072
ulx3s_FW_DEFINES :=
ulx3s_LINK_FIFO := 512
ulx3s_CONSOLE := 512
ulx3s_PROG_BOARD := ulx3s
ulx3s_CONSTRAINTS := $(BOARDS_DIR)/ulx3s/simty_board_ulx3s.lpf

# Command-line overrides: WARPS, LANES, BAUD, BOARD_FW_SIZE, BOARD_CODE_SIZE,
# BOARD_DATA_SIZE, BOARD_FW_DEFINES, BOARD_SEED, BOARD_VCLASS; ULX3S only: BOARD_MHZ=F
# (an EHXPLLL clock instead of the 25 MHz oscillator). A run whose inputs
# (sources, firmware image, options) have not changed is not redone:
# BOARD_FORCE=1. The iCE40 boards run at their 12 MHz oscillator.
BOARD_W = $(if $(WARPS),$(WARPS),$($(BOARD)_WARPS))
BOARD_L = $(if $(LANES),$(LANES),$($(BOARD)_LANES))
BOARD_BAUD = $(if $(BAUD),$(BAUD),$($(BOARD)_BAUD))
BOARD_FW_SIZE ?= $($(BOARD)_FW_SIZE)
BOARD_CODE_SIZE ?= $($(BOARD)_CODE_SIZE)
BOARD_DATA_SIZE ?= $($(BOARD)_DATA_SIZE)
BOARD_FW_DEFINES ?= $($(BOARD)_FW_DEFINES)
BOARD_SEED ?= 1
# BOARD_VCLASS=0: the core without its value classifier (the uniform and
# affine vector counters read 0; docs/architecture.md, counters).
BOARD_VCLASS ?= 1
# Tool options beyond the flow's own, for experiments: BOARD_SYNTH_OPTS
# (synth_ice40 / synth_ecp5, e.g. -abc9), BOARD_PNR_OPTS (nextpnr, e.g.
# "--router router2").
BOARD_SYNTH_OPTS ?=
BOARD_PNR_OPTS ?=
# The folder names what changes the result: size, clock, link rate, the
# classifier when it is left out, and the tool options when any are given
# (the first 8 hex digits of their SHA-1).
BOARD_OPTS_TAG = $(if $(strip $(BOARD_SYNTH_OPTS)$(BOARD_PNR_OPTS)),_opts$(shell printf '%s|%s' '$(strip $(BOARD_SYNTH_OPTS))' '$(strip $(BOARD_PNR_OPTS))' | sha1sum | cut -c1-8))
BOARD_CFG_OUT = $(BOARDS_OUT)/$(BOARD)_$(BOARD_W)x$(BOARD_L)_$($(BOARD)_MHZ)mhz_$(BOARD_BAUD)baud$(if $(filter 0,$(BOARD_VCLASS)),_novclass)$(BOARD_OPTS_TAG)
BOARD_FW_OUT ?= $(BOARD_CFG_OUT)/fw
BOARD_FW_HEX = $(BOARD_FW_OUT)/firmware/firmware.hex
BOARD_EXT = $(if $(filter ecp5,$($(BOARD)_FAMILY)),bit,bin)
BOARD_BITSTREAM = $(BOARD_CFG_OUT)/simty_board_$(BOARD).$(BOARD_EXT)

BOARD_SOC_SRCS = $(if $(SOC_RTL_SRCS),$(SOC_RTL_SRCS),$(addprefix hw/rtl/soc/,simty_soc.v \
  simty_ctrl_cpu.v simty_mmio.v simty_block_seq.v simty_ram_be.v simty_fifo.v simty_uart.v simty_uart_rx.v \
  simty_uart_tx.v simty_link_engine.v))
BOARD_CORE_SRCS = $(if $(RTL_CORE_SRCS),$(RTL_CORE_SRCS),$(sort $(wildcard hw/rtl/core/*.v)))
BOARD_COMMON_SRCS := $(BOARDS_DIR)/common/simty_board_por.v \
  $(BOARDS_DIR)/common/simty_board_soc.v $(BOARDS_DIR)/common/simty_board_status.v
board_top_src = $(BOARDS_DIR)/$(1)/simty_board_$(1).v
# The bitstream's build identifier (the SoC's HW_BUILD register): the
# first 28 bits of the SHA-1 of its sources and firmware image, as a
# decimal number (for Yosys and Verilator alike).
BOARD_BUILD_DIGEST = sha1sum | { read h _; echo $$((0x$$(echo $$h | cut -c1-7))); }

.PHONY: board-check board-firmware bitstream board-dir prog board-report test-boards-lint

board-dir: board-check
	@echo $(BOARD_CFG_OUT)

board-check:
	@case " $(BOARDS_LIST) " in *" $(BOARD) "*) ;; \
	  *) echo "boards: unknown BOARD='$(BOARD)' (one of: $(BOARDS_LIST))" >&2; exit 1;; esac

# The firmware linked for this board's FW RAM size and options, built by
# firmware.mk's own rules in a private BUILD directory (so the default
# build/firmware image is untouched). Always rebuilt (-B, a few seconds):
# the objects do not depend on FW_DEFINES.
board-firmware: board-check
	@echo "BOARD FIRMWARE $(BOARD) FW_RAM_SIZE=$(BOARD_FW_SIZE) $(BOARD_FW_DEFINES)"
	@$(MAKE) --no-print-directory -B BUILD=$(BOARD_FW_OUT) \
	  FW_RAM_SIZE=$(BOARD_FW_SIZE) FW_DEFINES="$(BOARD_FW_DEFINES)" firmware >/dev/null

bitstream: board-firmware $(ARCH_VH)
	$(BOARD_FLOW) --family $($(BOARD)_FAMILY) --device "$($(BOARD)_DEVICE)" \
	  --top simty_board_$(BOARD) --out $(BOARD_CFG_OUT) \
	  --constraints $($(BOARD)_CONSTRAINTS) --freq $($(BOARD)_MHZ) --seed $(BOARD_SEED) \
	  --build $(BUILD) --pack --label $(notdir $(BOARD_CFG_OUT)) $(if $(BOARD_FORCE),,--reuse) \
	  --require-timing $(if $(filter-out 0,$(BOARD_ALLOW_TIMING_FAIL)),--allow-timing-fail) \
	  $(foreach o,$(BOARD_SYNTH_OPTS),--synth-opt=$(o)) $(foreach o,$($(BOARD)_PNR_OPTS) $(BOARD_PNR_OPTS),--pnr-opt=$(o)) \
	  --inc hw/rtl/soc --inc hw/rtl/core --inc $(BUILD)/gen \
	  --param WARPS=$(BOARD_W) --param LANES=$(BOARD_L) \
	  --param FW_SIZE=$(BOARD_FW_SIZE) --param CODE_SIZE=$(BOARD_CODE_SIZE) \
	  --param DATA_SIZE=$(BOARD_DATA_SIZE) --param FW_IMAGE=$(BOARD_FW_HEX) \
	  --param BAUD=$(BOARD_BAUD) --param LINK_FIFO_DEPTH=$($(BOARD)_LINK_FIFO) \
	  --param CONSOLE_DEPTH=$($(BOARD)_CONSOLE) --param VCLASS=$(BOARD_VCLASS) $($(BOARD)_PARAMS) \
	  --param HW_BUILD=$$(cat $(call board_top_src,$(BOARD)) $(BOARD_COMMON_SRCS) $(BOARD_SOC_SRCS) \
	    hw/rtl/soc/simty_uart_rate.vh $(BOARD_CORE_SRCS) $(BOARD_FW_HEX) | $(BOARD_BUILD_DIGEST)) \
	  $(call board_top_src,$(BOARD)) $(BOARD_COMMON_SRCS) $(BOARD_SOC_SRCS) $(BOARD_CORE_SRCS)

# Loads what `make bitstream` left for the same BOARD/WARPS/LANES.
# iCE40 boards: openFPGALoader writes the SPI flash through channel A of
# the FT2232H (the FPGA boots from it); PROG_TOOL=iceprog does the same.
# ULX3S: openFPGALoader loads the ECP5's SRAM over the FT231X's JTAG
# pins (add PROG_FLAGS=-f to write the flash instead).
PROG_FLAGS ?=
prog: board-check
	@test -f $(BOARD_BITSTREAM) || { echo "boards: no $(BOARD_BITSTREAM): run" \
	  "make bitstream BOARD=$(BOARD) WARPS=$(BOARD_W) LANES=$(BOARD_L) first" >&2; exit 1; }
ifeq ($(PROG_TOOL),iceprog)
	@test "$($(BOARD)_FAMILY)" = ice40 || { echo "boards: iceprog programs iCE40 boards only" >&2; exit 1; }
	iceprog $(PROG_FLAGS) $(BOARD_BITSTREAM)
else
	openFPGALoader -b $($(BOARD)_PROG_BOARD) $(PROG_FLAGS) $(BOARD_BITSTREAM)
endif

# ---- scaling table ----
# BOARD_REPORT_CONFIGS: family:what:WxL items (what = core or soc);
# BOARD_REPORT_JOBS: place-and-route runs in parallel.
BOARD_REPORT_CONFIGS ?= ice40:core:1x1 ice40:core:1x4 ice40:soc:1x4 ice40:core:2x4 ice40:soc:2x4 \
  ice40:core:4x4 ice40:soc:4x4 ecp5:core:4x4 ecp5:soc:4x4 ecp5:core:8x8 ecp5:soc:8x8 \
  ecp5:core:16x8 ecp5:soc:16x8
BOARD_REPORT_JOBS ?= 1
BOARD_REPORT_OUT := $(BOARDS_OUT)/report
board-report: $(ARCH_VH)
	MAKE="$(MAKE)" python3 scripts/board_report.py --out $(BOARD_REPORT_OUT) --build $(BUILD) \
	  --jobs $(BOARD_REPORT_JOBS) $(if $(BOARD_FORCE),--force,) \
	  --ice40-mem $(hx8k_CODE_SIZE),$(hx8k_DATA_SIZE) \
	  --ecp5-mem $(ulx3s_CODE_SIZE),$(ulx3s_DATA_SIZE) \
	  --core-srcs "$(BOARD_CORE_SRCS)" $(BOARD_REPORT_CONFIGS)

# ---- lint suite: the board tops never rot ----
# Verilator -Wall on each top with the SoC and core, then Yosys reads and
# elaborates it (hierarchy -check) with the board's default WARPS and LANES
# and small memories (Yosys unrolls their zero-fill: full sizes take
# minutes here and are exercised by `make bitstream`).
TEST_SUITES += boards-lint
# The 50 MHz settings of the ULX3S's PLL, as the flow computes them.
BOARD_LINT_PLL := CLK_HZ=50000000 PLL_CLKI_DIV=1 PLL_CLKFB_DIV=2 PLL_CLKOP_DIV=12 \
  PLL_CLKOP_CPHASE=11
test-boards-lint: $(ARCH_VH) | $(BOARDS_OUT)/
	@set -e; for b in $(BOARDS_LIST); do \
	  echo "LINT simty_board_$$b"; \
	  verilator --lint-only -Wall -Ihw/rtl/soc -Ihw/rtl/core -I$(BUILD)/gen $(BOARDS_DIR)/boards_lint.vlt \
	    --top-module simty_board_$$b $(BOARDS_DIR)/$$b/simty_board_$$b.v \
	    $(BOARD_COMMON_SRCS) $(BOARD_SOC_SRCS) $(BOARD_CORE_SRCS); \
	  yosys -q -p "read_verilog -defer -DSYNTHESIS -Ihw/rtl/soc -Ihw/rtl/core -I$(BUILD)/gen \
	    $(BOARDS_DIR)/$$b/simty_board_$$b.v $(BOARD_COMMON_SRCS) $(BOARD_SOC_SRCS) \
	    $(BOARD_CORE_SRCS); hierarchy -check -top simty_board_$$b -chparam FW_SIZE 4096 \
	    -chparam CODE_SIZE 2048 -chparam DATA_SIZE 4096" > $(BOARDS_OUT)/lint_$$b.log 2>&1 \
	    || { cat $(BOARDS_OUT)/lint_$$b.log; exit 1; }; \
	done
	@echo "LINT simty_board_ulx3s at 50 MHz (EHXPLLL from Yosys's ECP5 cell library)"
	@verilator --lint-only -Wall -Ihw/rtl/soc -Ihw/rtl/core -I$(BUILD)/gen $(BOARDS_DIR)/boards_lint.vlt \
	  --top-module simty_board_ulx3s $(BOARD_LINT_PLL:%=-G%) -v $(YOSYS_DATDIR)/ecp5/cells_bb.v \
	  $(BOARDS_DIR)/ulx3s/simty_board_ulx3s.v $(BOARD_COMMON_SRCS) $(BOARD_SOC_SRCS) $(BOARD_CORE_SRCS)
	@yosys -q -p "read_verilog -lib +/ecp5/cells_bb.v; read_verilog -defer -DSYNTHESIS \
	  -Ihw/rtl/soc -Ihw/rtl/core -I$(BUILD)/gen $(BOARDS_DIR)/ulx3s/simty_board_ulx3s.v \
	  $(BOARD_COMMON_SRCS) $(BOARD_SOC_SRCS) $(BOARD_CORE_SRCS); chparam $(subst =, ,$(BOARD_LINT_PLL:%=-set %)) \
	  -set FW_SIZE 4096 -set CODE_SIZE 2048 -set DATA_SIZE 4096 simty_board_ulx3s; \
	  hierarchy -check -top simty_board_ulx3s" > $(BOARDS_OUT)/lint_ulx3s_pll.log 2>&1 \
	  || { cat $(BOARDS_OUT)/lint_ulx3s_pll.log; exit 1; }
	@echo "LINT simty_board_ulx3s refuses a CLK_HZ that its PLL settings do not make"
	@! yosys -q -p "read_verilog -lib +/ecp5/cells_bb.v; read_verilog -defer -DSYNTHESIS \
	  -Ihw/rtl/soc -Ihw/rtl/core -I$(BUILD)/gen $(BOARDS_DIR)/ulx3s/simty_board_ulx3s.v \
	  $(BOARD_COMMON_SRCS) $(BOARD_SOC_SRCS) $(BOARD_CORE_SRCS); chparam $(subst =, ,$(BOARD_LINT_PLL:%=-set %)) \
	  -set CLK_HZ 49000000 -set FW_SIZE 4096 -set CODE_SIZE 2048 -set DATA_SIZE 4096 \
	  simty_board_ulx3s; hierarchy -check -top simty_board_ulx3s" \
	  > $(BOARDS_OUT)/lint_ulx3s_badclk.log 2>&1 \
	  || { echo "simty_board_ulx3s took CLK_HZ=49000000 at 50 MHz settings" >&2; exit 1; }
	@grep -q clk_hz_does_not_match $(BOARDS_OUT)/lint_ulx3s_badclk.log \
	  || { cat $(BOARDS_OUT)/lint_ulx3s_badclk.log; exit 1; }
	@echo "LINT simty_board_core_shell"
	@verilator --lint-only -Wall -Ihw/rtl/core -I$(BUILD)/gen $(BOARDS_DIR)/boards_lint.vlt --top-module simty_board_core_shell \
	  $(BOARDS_DIR)/common/simty_board_core_shell.v $(BOARD_CORE_SRCS)
	@python3 -m py_compile $(BOARDS_DIR)/simty_board_flow.py scripts/board_report.py
	@echo "TEST simty_board_flow.py (PLL settings, timing verdict, paths, output folders)"
	@MAKE="$(MAKE)" BUILD="$(BUILD)" ULX3S_MHZ=$(ULX3S_MHZ) python3 $(BOARDS_DIR)/test_board_flow.py
	@echo "boards lint: clean"
	@echo "TB simty_board_status (LED stretch, fault, trap, activity, heartbeat)"
	@verilator --binary --timing -Wall -Mdir $(BOARDS_OUT)/status_tb --top-module simty_board_status_tb \
	  -o Vsimty_board_status_tb hw/sim/board/simty_board_status_tb.v \
	  $(BOARDS_DIR)/common/simty_board_status.v > $(BOARDS_OUT)/status_tb.log 2>&1 \
	  || { cat $(BOARDS_OUT)/status_tb.log; exit 1; }
	@$(BOARDS_OUT)/status_tb/Vsimty_board_status_tb
