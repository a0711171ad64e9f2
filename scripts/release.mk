# SPDX-License-Identifier: Apache-2.0
# release.mk - what makes the project adoptable: the license check and
# the release tarball.
#
#   make test-license   every source file carries the SPDX line (LICENSE)

TEST_SUITES += license
.PHONY: test-license
test-license:
	sh scripts/check_license.sh

# ---- make dist: the release tarball ----
#   make dist         $(BUILD)/simty-VERSION.tar.gz from the committed tree
#   make test-dist    the tarball unpacks, builds and passes the fast suites
#                     outside the git checkout
DIST_NAME := simty-$(SIMTY_VERSION_STRING)
DIST_TARBALL := $(BUILD)/$(DIST_NAME).tar.gz
DIST_SUITES ?= license link host-api

.PHONY: dist test-dist
dist: | $(BUILD)/
	@git rev-parse --is-inside-work-tree >/dev/null 2>&1 || \
	  { echo "make dist: needs the git checkout (the tarball holds the committed files)"; exit 1; }
	@git diff --quiet HEAD -- || \
	  echo "make dist: warning: uncommitted changes are not in the tarball"
	git archive --format=tar.gz --prefix=$(DIST_NAME)/ -o $(DIST_TARBALL) HEAD
	@echo "dist: $(DIST_TARBALL) ($$(wc -c < $(DIST_TARBALL)) bytes)"

DIST_TEST_DIR := $(BUILD)/dist-test
TEST_SUITES += dist
test-dist: dist
	rm -rf $(DIST_TEST_DIR) && mkdir -p $(DIST_TEST_DIR)
	tar -xzf $(DIST_TARBALL) -C $(DIST_TEST_DIR)
	cd $(DIST_TEST_DIR)/$(DIST_NAME) && [ ! -e .git ] && \
	  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL sh scripts/run-suites.sh $(DIST_SUITES)

# ---- Compatibility: a host of this release and a device of another ----
# The firmware built to claim link protocol 1 stands for a board
# programmed with an older release; the host library must refuse it with
# SIMTY_EPROTO and say what to do, and work with the current firmware.
FW_OLD_PROTO := 1
FW_OLD_OUT := $(FW_OUT)/proto$(FW_OLD_PROTO)
$(FW_OLD_OUT)/firmware.elf: $(FW_DIR)/start.S $(FW_TARGET_SRCS) $(FW_HDRS) \
  $(FW_DIR)/firmware.ld $(ARCH_LD) | $(FW_OLD_OUT)/
	$(FW_RISCV_CC) $(FW_TARGET_CFLAGS) -DSIMTY_PROTO_VERSION=$(FW_OLD_PROTO)u \
	  -nostdlib -nostartfiles -T $(FW_DIR)/firmware.ld -L$(dir $(ARCH_LD)) \
	  -Wl,--defsym=__fw_ram_size=$(FW_RAM_SIZE) -Wl,--gc-sections \
	  -Wl,--no-warn-rwx-segments -o $@ $(FW_DIR)/start.S $(FW_TARGET_SRCS) -lgcc
$(FW_OLD_OUT)/firmware.hex: $(FW_OLD_OUT)/firmware.elf $(BUILD)/tools/bin2memh
	$(FW_RISCV_OBJCOPY) -O binary $< $(FW_OLD_OUT)/firmware.bin
	$(BUILD)/tools/bin2memh $(FW_OLD_OUT)/firmware.bin $@

TEST_SUITES += compat
.PHONY: test-compat
test-compat: simty-sim $(SIMTY_CLI) $(FW_OLD_OUT)/firmware.hex
	sh tests/host/test_compat.sh $(SIMTY_CLI) $(FW_OLD_OUT)/firmware.hex $(FW_OLD_PROTO)
