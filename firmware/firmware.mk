# SPDX-License-Identifier: Apache-2.0
# firmware.mk - the controller firmware: RV32I image for the SoC, the same
# engine and dispatcher built for the host against a mock SoC (cmocka
# tests), and the link protocol benchmark.
#
#   make firmware        build/firmware/firmware.{elf,bin,hex}
#   make test-firmware   host tests + target build (prints the image size)
#   make bench-link-mock protocol efficiency on the mock SoC (docs/performance.md)

FW_DIR := firmware
FW_OUT := $(BUILD)/firmware
FW_RISCV_CC ?= riscv64-unknown-elf-gcc
FW_RISCV_OBJCOPY ?= riscv64-unknown-elf-objcopy
FW_RISCV_SIZE ?= riscv64-unknown-elf-size
# Populated controller RAM at SIMTY_FW_BASE; the stack starts at its top.
FW_RAM_SIZE ?= 0x8000
# Build options of firmware/fw.h, e.g. "-DFW_MAX_PAYLOAD=1024
# -DFW_CONSOLE_RECORDS=256" (use a separate BUILD directory per set).
FW_DEFINES ?=

# driver.mk is read after this file: name the shared link layer here.
FW_LINK_DIR := driver/link
# The firmware itself has no COBS or CRC code (the link engine does both);
# the host builds link the codec for the mock SoC's engine.
FW_LOGIC_SRCS := $(FW_DIR)/fw_engine.c $(FW_DIR)/fw_dispatch.c
FW_CODEC_SRCS := $(FW_LINK_DIR)/simty_link.c
FW_HDRS := $(FW_DIR)/fw.h $(FW_DIR)/hal.h $(FW_DIR)/simty_mmio.h \
  $(FW_DIR)/fw_string.h hw/arch/simty_arch.h $(FW_LINK_DIR)/simty_link.h $(FW_LINK_DIR)/simty_proto.h
FW_INCLUDES := -I$(FW_DIR) -Ihw/arch -I$(FW_LINK_DIR)

# ---- Controller image ----
FW_TARGET_CFLAGS := -march=rv32i -mabi=ilp32 -std=c11 -Os -g -Wall -Wextra \
  -Werror -ffreestanding -fno-builtin -ffunction-sections -fdata-sections \
  $(FW_DEFINES) $(FW_INCLUDES)
FW_TARGET_SRCS := $(FW_LOGIC_SRCS) $(FW_DIR)/fw_main.c $(FW_DIR)/fw_libc.c
FW_TARGET_OBJS := $(FW_OUT)/obj/start.o \
  $(patsubst %.c,$(FW_OUT)/obj/%.o,$(notdir $(FW_TARGET_SRCS)))

$(FW_OUT)/obj/start.o: $(FW_DIR)/start.S | $(FW_OUT)/obj/
	$(FW_RISCV_CC) $(FW_TARGET_CFLAGS) -c -o $@ $<

$(FW_OUT)/obj/%.o: $(FW_DIR)/%.c $(FW_HDRS) | $(FW_OUT)/obj/
	$(FW_RISCV_CC) $(FW_TARGET_CFLAGS) -c -o $@ $<

# libgcc supplies the multiply and divide routines RV32I lacks.
$(FW_OUT)/firmware.elf: $(FW_TARGET_OBJS) $(FW_DIR)/firmware.ld $(ARCH_LD)
	$(FW_RISCV_CC) $(FW_TARGET_CFLAGS) -nostdlib -nostartfiles \
	  -T $(FW_DIR)/firmware.ld -L$(dir $(ARCH_LD)) \
	  -Wl,--defsym=__fw_ram_size=$(FW_RAM_SIZE) -Wl,--gc-sections \
	  -Wl,--no-warn-rwx-segments -Wl,-Map=$(FW_OUT)/firmware.map \
	  -o $@ $(FW_TARGET_OBJS) -lgcc

$(FW_OUT)/firmware.bin: $(FW_OUT)/firmware.elf
	$(FW_RISCV_OBJCOPY) -O binary $< $@

$(BUILD)/tools/bin2memh: $(FW_DIR)/tools/bin2memh.c | $(BUILD)/tools/
	$(CC) $(HOST_CFLAGS) -o $@ $<

# $readmemh image of a 32-bit wide RAM, word 0 at SIMTY_FW_BASE.
$(FW_OUT)/firmware.hex: $(FW_OUT)/firmware.bin $(BUILD)/tools/bin2memh
	$(BUILD)/tools/bin2memh $< $@

.PHONY: firmware
firmware: $(FW_OUT)/firmware.elf $(FW_OUT)/firmware.bin $(FW_OUT)/firmware.hex

# A small configuration (1 KiB payloads, 256 console records, a window of
# 2, 16 KiB RAM), built by the suite so the build options stay valid.
FW_SMALL_DEFINES := -DFW_MAX_PAYLOAD=1024 -DFW_CONSOLE_RECORDS=256 -DFW_MAX_WINDOW=2
$(FW_OUT)/small/firmware.elf: $(FW_DIR)/start.S $(FW_TARGET_SRCS) $(FW_HDRS) \
  $(FW_DIR)/firmware.ld $(ARCH_LD) | $(FW_OUT)/small/
	$(FW_RISCV_CC) $(FW_TARGET_CFLAGS) $(FW_SMALL_DEFINES) -nostdlib -nostartfiles \
	  -T $(FW_DIR)/firmware.ld -L$(dir $(ARCH_LD)) \
	  -Wl,--defsym=__fw_ram_size=0x4000 -Wl,--gc-sections \
	  -Wl,--no-warn-rwx-segments -o $@ $(FW_DIR)/start.S $(FW_TARGET_SRCS) -lgcc

# ---- Host build against the mock SoC ----
FW_HOST_CFLAGS := $(HOST_CFLAGS) -DFW_HOST $(FW_INCLUDES) -I$(FW_DIR)/tests
FW_MOCK_SRCS := $(FW_DIR)/tests/mock_hal.c $(FW_DIR)/tests/fw_host.c $(FW_CODEC_SRCS)
FW_MOCK_HDRS := $(FW_DIR)/tests/mock_hal.h $(FW_DIR)/tests/fw_host.h

$(BUILD)/tests/test_firmware: $(FW_DIR)/tests/test_firmware.c $(FW_LOGIC_SRCS) \
  $(FW_MOCK_SRCS) $(FW_HDRS) $(FW_MOCK_HDRS) | $(BUILD)/tests/
	$(CC) $(FW_HOST_CFLAGS) -fsanitize=address,undefined -fno-sanitize-recover=all \
	  -o $@ $(FW_DIR)/tests/test_firmware.c $(FW_LOGIC_SRCS) $(FW_MOCK_SRCS) -lcmocka

# The same tests on the small configuration (window 2 on the mock's 4 TX
# slots: the nak slot is a spare one; 1 KiB payloads).
$(BUILD)/tests/test_firmware_small: $(FW_DIR)/tests/test_firmware.c $(FW_LOGIC_SRCS) \
  $(FW_MOCK_SRCS) $(FW_HDRS) $(FW_MOCK_HDRS) | $(BUILD)/tests/
	$(CC) $(FW_HOST_CFLAGS) $(FW_SMALL_DEFINES) -fsanitize=address,undefined \
	  -fno-sanitize-recover=all -o $@ $(FW_DIR)/tests/test_firmware.c $(FW_LOGIC_SRCS) \
	  $(FW_MOCK_SRCS) -lcmocka

TEST_SUITES += firmware
.PHONY: test-firmware
test-firmware: $(BUILD)/tests/test_firmware $(BUILD)/tests/test_firmware_small firmware \
  $(FW_OUT)/small/firmware.elf
	$(BUILD)/tests/test_firmware
	$(BUILD)/tests/test_firmware_small
	@$(FW_RISCV_SIZE) $(FW_OUT)/firmware.elf $(FW_OUT)/small/firmware.elf
	@echo "firmware image: $$(wc -l < $(FW_OUT)/firmware.hex) words in $(FW_OUT)/firmware.hex, FW RAM $(FW_RAM_SIZE) bytes"

# The firmware on the mock SoC behind a socket, as simty-sim --fd serves
# it (checks host-side link code before the RTL engine exists; not a test):
#   python3 tests/board/test_board_e2e.py --sim build/bin/simty-mock-board \
#     --kernels build/tests/board --only test_engine_frames,test_window
$(BUILD)/bin/simty-mock-board: $(FW_DIR)/tests/mock_board.c $(FW_LOGIC_SRCS) \
  $(FW_MOCK_SRCS) $(FW_HDRS) $(FW_MOCK_HDRS) | $(BUILD)/bin/
	$(CC) $(FW_HOST_CFLAGS) -o $@ $(FW_DIR)/tests/mock_board.c $(FW_LOGIC_SRCS) $(FW_MOCK_SRCS)

.PHONY: mock-board
mock-board: $(BUILD)/bin/simty-mock-board

# ---- Benchmark (not a test) ----
$(BUILD)/bin/simty-link-bench: $(FW_DIR)/bench_link.c $(FW_LOGIC_SRCS) \
  $(FW_MOCK_SRCS) $(FW_HDRS) $(FW_MOCK_HDRS) | $(BUILD)/bin/
	$(CC) $(FW_HOST_CFLAGS) -o $@ $(FW_DIR)/bench_link.c $(FW_LOGIC_SRCS) $(FW_MOCK_SRCS)

.PHONY: bench-link-mock
bench-link-mock: $(BUILD)/bin/simty-link-bench
	$(BUILD)/bin/simty-link-bench
