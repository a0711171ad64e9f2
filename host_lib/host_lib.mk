# SPDX-License-Identifier: Apache-2.0
# host_lib.mk - the host library (libsimty.a, simty.h), the simty CLI,
# its tests and `make install`.
#
#   $(HOSTLIB)      build/lib/libsimty.a: the API, every backend, the link
#                   client, the reference model and the ELF loader
#   $(SIMTY_CLI)    build/bin/simty
#   make install PREFIX=/opt/simty [DESTDIR=...]
#   make test-host-api   cmocka tests of the API on the model backend

HOSTLIB_DIR := host_lib
HOSTLIB_OBJ_DIR := $(BUILD)/obj/host_lib
HOSTLIB := $(BUILD)/lib/libsimty.a
HOSTLIB_HEADER := $(BUILD)/include/simty.h
SIMTY_CLI := $(BUILD)/bin/simty

HOSTLIB_DEPS_CFLAGS := $(shell pkg-config --cflags libftdi1 libusb-1.0 libdw 2>/dev/null)
HOSTLIB_DEPS_LIBS := $(shell pkg-config --libs libftdi1 libusb-1.0 libdw 2>/dev/null || echo -lftdi1 -lusb-1.0 -ldw -lelf)
HOSTLIB_CFLAGS := $(HOST_CFLAGS) -I$(HOSTLIB_DIR)/include -I$(HOSTLIB_DIR)/src \
  -Ihw/arch -Ihw/model -Idriver/link -Idriver/transport $(HOSTLIB_DEPS_CFLAGS)
# What a program linking libsimty.a needs after it.
HOSTLIB_LIBS := $(HOSTLIB_DEPS_LIBS) -lpthread

HOSTLIB_HDRS := $(HOSTLIB_DIR)/include/simty.h $(HOSTLIB_DIR)/src/simty_internal.h \
  $(HOSTLIB_DIR)/src/simty_elf.h hw/arch/simty_arch.h hw/model/simty_model.h
HOSTLIB_SRCS := $(HOSTLIB_DIR)/src/simty_device.c $(HOSTLIB_DIR)/src/simty_kernel.c \
  $(HOSTLIB_DIR)/src/simty_alloc.c $(HOSTLIB_DIR)/src/backend_model.c \
  $(HOSTLIB_DIR)/src/backend_link.c $(HOSTLIB_DIR)/src/simty_source.c \
  $(HOSTLIB_DIR)/src/simty_stream.c
HOSTLIB_OBJS := $(patsubst $(HOSTLIB_DIR)/src/%.c,$(HOSTLIB_OBJ_DIR)/%.o,$(HOSTLIB_SRCS))

$(HOSTLIB_OBJ_DIR)/%.o: $(HOSTLIB_DIR)/src/%.c $(HOSTLIB_HDRS) | $(HOSTLIB_OBJ_DIR)/
	$(CC) $(HOSTLIB_CFLAGS) -c -o $@ $<

# One archive users link: our objects, the transports and the link codec
# (driver/driver.mk), and the model library's objects (which carry the ELF
# loader).
HOSTLIB_ALL_OBJS := $(HOSTLIB_OBJS) $(TRANSPORT_OBJS) $(LINK_OBJ)
$(HOSTLIB_OBJ_DIR)/backend_link.o: $(TRANSPORT_HDRS)

$(HOSTLIB): $(HOSTLIB_ALL_OBJS) $(MODEL_LIB) | $(BUILD)/lib/
	rm -f $@ && rm -rf $(HOSTLIB_OBJ_DIR)/model-ar && mkdir -p $(HOSTLIB_OBJ_DIR)/model-ar \
	  && cd $(HOSTLIB_OBJ_DIR)/model-ar && $(AR) x $(abspath $(MODEL_LIB))
	$(AR) rcs $@ $(HOSTLIB_ALL_OBJS) $(HOSTLIB_OBJ_DIR)/model-ar/*.o

$(HOSTLIB_HEADER): $(HOSTLIB_DIR)/include/simty.h | $(BUILD)/include/
	cp $< $@

.PHONY: host-lib
host-lib: $(HOSTLIB) $(HOSTLIB_HEADER) $(BUILD)/include/simty_arch.h

# ---- The simty CLI, with the self-test kernel embedded ----
HOSTLIB_TOOLS := $(HOSTLIB_DIR)/tools
SELFTEST_ELF := $(BUILD)/kernels/$(HOSTLIB_TOOLS)/selftest_kernel.elf
BIN2C := $(BUILD)/tools/bin2c

$(SELFTEST_ELF): $(HOSTLIB_TOOLS)/selftest_kernel.h

$(BIN2C): $(HOSTLIB_TOOLS)/bin2c.c | $(BUILD)/tools/
	$(CC) $(HOST_CFLAGS) -o $@ $<

$(BUILD)/gen/simty_selftest_elf.c: $(SELFTEST_ELF) $(BIN2C) | $(BUILD)/gen/
	$(BIN2C) simty_selftest_elf $< $@

# One file per command (cmd_*.c), the option parser and command table in
# simty.c, the text/JSON output layer in cli_output.c.
SIMTY_CLI_SRCS := $(HOSTLIB_TOOLS)/simty.c $(HOSTLIB_TOOLS)/cli_output.c \
  $(HOSTLIB_TOOLS)/cmd_info.c $(HOSTLIB_TOOLS)/cmd_counters.c $(HOSTLIB_TOOLS)/cmd_run.c \
  $(HOSTLIB_TOOLS)/cmd_data.c $(HOSTLIB_TOOLS)/cmd_selftest.c
$(SIMTY_CLI): $(SIMTY_CLI_SRCS) $(HOSTLIB_TOOLS)/simty_cli.h $(HOSTLIB_TOOLS)/selftest_kernel.h \
    $(BUILD)/gen/simty_selftest_elf.c $(HOSTLIB) $(HOSTLIB_HDRS) | $(BUILD)/bin/
	$(CC) $(HOSTLIB_CFLAGS) -I$(HOSTLIB_TOOLS) -o $@ $(SIMTY_CLI_SRCS) \
	  $(BUILD)/gen/simty_selftest_elf.c $(HOSTLIB) $(HOSTLIB_LIBS)

.PHONY: simty-cli
simty-cli: $(SIMTY_CLI)

# ---- make install PREFIX=... [DESTDIR=...] ----
# Lays out bin/ (simty, simty-cc, simty-model, simty-sim with its boards
# in sim/board_WxL/ and the firmware in firmware/), lib/ (libsimty.a, the
# kernel runtime in lib/simty/, pkgconfig/simty.pc) and include/
# (simty.h, simty_kernel.h, simty_arch.h). simty-cc finds the runtime
# relative to itself, and the sim backend finds simty-sim next to the
# program's simty binary or through $SIMTY_SIM.
# The simulated boards installed: every configuration the README and docs
# use (sim, sim?warps=8&lanes=8); more with SIM_INSTALL_CONFIGS="4x4 8x8 2x8".
PREFIX ?= /usr/local
INSTALL_ROOT = $(DESTDIR)$(PREFIX)
SIM_INSTALL_CONFIGS ?= 4x4 8x8

.PHONY: install install-sim-boards
install: $(HOSTLIB) $(HOSTLIB_HEADER) $(SIMTY_CLI) $(SIMTY_MODEL) $(KERNEL_RUNTIME) \
    $(HOSTLIB_DIR)/simty.pc.in install-sim-boards
	mkdir -p $(INSTALL_ROOT)/bin $(INSTALL_ROOT)/lib/simty $(INSTALL_ROOT)/lib/pkgconfig \
	  $(INSTALL_ROOT)/include
	cp $(SIMTY_CLI) $(SIMTY_CC) $(SIMTY_MODEL) $(INSTALL_ROOT)/bin/
	# The simulated board in the layout its launcher expects
	# (PREFIX/sim/board_WxL/, PREFIX/firmware/firmware.hex): the
	# SIM_INSTALL_CONFIGS boards, and any other built in $(BUILD)/sim.
	cp $(BUILD)/bin/simty-sim $(INSTALL_ROOT)/bin/
	mkdir -p $(INSTALL_ROOT)/firmware
	cp $(BUILD)/firmware/firmware.hex $(INSTALL_ROOT)/firmware/
	for b in $(BUILD)/sim/board_*/simty-sim-bin*; do \
	  [ -f "$$b" ] && [ -x "$$b" ] || continue; \
	  d=$(INSTALL_ROOT)/sim/$$(basename $$(dirname $$b)); \
	  mkdir -p $$d && cp $$b $$d/ || exit 1; \
	done
	cp $(HOSTLIB) $(INSTALL_ROOT)/lib/
	cp $(BUILD)/lib/simty/crt0.o $(BUILD)/lib/simty/libsimty_rt.a \
	  $(BUILD)/lib/simty/simty_kernel.ld $(BUILD)/lib/simty/simty_memory.ld \
	  $(INSTALL_ROOT)/lib/simty/
	cp $(HOSTLIB_HEADER) $(BUILD)/include/simty_kernel.h $(BUILD)/include/simty_arch.h \
	  $(INSTALL_ROOT)/include/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(SIMTY_VERSION_STRING)|' $(HOSTLIB_DIR)/simty.pc.in > $(INSTALL_ROOT)/lib/pkgconfig/simty.pc

install-sim-boards: simty-sim $(foreach c,$(SIM_INSTALL_CONFIGS),simty-sim-$(c))

# ---- Tests (tests/host/) ----
HOST_TEST_DIR := tests/host
HOST_TEST_KDIR := $(BUILD)/kernels/$(HOST_TEST_DIR)/kernels
HOST_TEST_KERNELS := $(patsubst $(HOST_TEST_DIR)/kernels/%.c,$(HOST_TEST_KDIR)/%.elf,\
  $(wildcard $(HOST_TEST_DIR)/kernels/*.c))
HOST_TEST_CFLAGS := $(HOSTLIB_CFLAGS) -DTEST_KERNEL_DIR='"$(abspath $(HOST_TEST_KDIR))"'

$(BUILD)/tests/host/test_host_api: $(HOST_TEST_DIR)/test_host_api.c $(HOSTLIB) $(HOSTLIB_HDRS) | $(BUILD)/tests/host/
	$(CC) $(HOST_TEST_CFLAGS) -o $@ $< $(HOSTLIB) $(HOSTLIB_LIBS) -lcmocka

# The model device's ISA option and the loader's extension check.
$(BUILD)/tests/host/test_host_isa: $(HOST_TEST_DIR)/test_host_isa.c $(HOSTLIB) $(HOSTLIB_HDRS) | $(BUILD)/tests/host/
	$(CC) $(HOST_TEST_CFLAGS) -o $@ $< $(HOSTLIB) $(HOSTLIB_LIBS) -lcmocka

TEST_SUITES += host-api
.PHONY: test-host-api
test-host-api: $(BUILD)/tests/host/test_host_api $(BUILD)/tests/host/test_host_isa $(HOST_TEST_KERNELS)
	$(BUILD)/tests/host/test_host_api
	$(BUILD)/tests/host/test_host_isa

HOST_FAKE_SRCS := $(HOST_TEST_DIR)/fake_device.c
HOST_FAKE_HDRS := $(HOST_TEST_DIR)/fake_device.h
HOST_FAKE_SIM := $(BUILD)/tests/host/fake_sim

$(HOST_FAKE_SIM): $(HOST_TEST_DIR)/fake_sim.c $(HOST_FAKE_SRCS) $(HOST_FAKE_HDRS) $(HOSTLIB) | $(BUILD)/tests/host/
	$(CC) $(HOST_TEST_CFLAGS) -o $@ $< $(HOST_FAKE_SRCS) $(HOSTLIB) $(HOSTLIB_LIBS)

$(BUILD)/tests/host/test_transport: $(HOST_TEST_DIR)/test_transport.c $(HOST_FAKE_SRCS) \
    $(HOST_FAKE_HDRS) $(HOSTLIB) $(HOSTLIB_HDRS) $(TRANSPORT_HDRS) | $(BUILD)/tests/host/
	$(CC) $(HOST_TEST_CFLAGS) -DFAKE_SIM='"$(abspath $(HOST_FAKE_SIM))"' \
	  -DSIMTY_CLI_PATH='"$(abspath $(SIMTY_CLI))"' -o $@ $< \
	  $(HOST_FAKE_SRCS) $(HOSTLIB) $(HOSTLIB_LIBS) -lcmocka

TEST_SUITES += host-link
.PHONY: test-host-link
test-host-link: $(BUILD)/tests/host/test_transport $(HOST_FAKE_SIM) $(HOST_TEST_KERNELS) $(SIMTY_CLI)
	$(BUILD)/tests/host/test_transport

# libftdi1 and libusb-1.0 replaced by the test's mocks.
HOST_HW_WRAPS := ftdi_new ftdi_free ftdi_set_interface ftdi_usb_open_desc_index \
  ftdi_set_baudrate ftdi_set_latency_timer ftdi_setflowctrl ftdi_set_line_property \
  ftdi_usb_reset ftdi_tcioflush ftdi_usb_close ftdi_get_error_string \
  ftdi_write_data ftdi_read_data \
  libusb_init libusb_exit libusb_open_device_with_vid_pid libusb_close \
  libusb_set_auto_detach_kernel_driver libusb_claim_interface libusb_release_interface \
  libusb_get_device libusb_get_active_config_descriptor libusb_free_config_descriptor \
  libusb_clear_halt libusb_error_name libusb_bulk_transfer
HOST_HW_LDFLAGS := $(foreach f,$(HOST_HW_WRAPS),-Wl,--wrap=$(f))

$(BUILD)/tests/host/test_transport_hw: $(HOST_TEST_DIR)/test_transport_hw.c $(HOST_FAKE_SRCS) \
    $(HOST_FAKE_HDRS) $(HOSTLIB) $(HOSTLIB_HDRS) $(TRANSPORT_HDRS) | $(BUILD)/tests/host/
	$(CC) $(HOST_TEST_CFLAGS) -o $@ $< $(HOST_FAKE_SRCS) $(HOST_HW_LDFLAGS) $(HOSTLIB) \
	  -lpthread -lcmocka

TEST_SUITES += host-transport
.PHONY: test-host-transport
test-host-transport: $(BUILD)/tests/host/test_transport_hw $(HOST_TEST_KERNELS)
	$(BUILD)/tests/host/test_transport_hw

# ---- CLI and install tests ----
# Source lines and traces (the library's, which the CLI prints), on
# globals.elf with and without its debug sections and symbols.
HOST_SOURCE_NODEBUG := $(HOST_TEST_KDIR)/globals-nodebug.elf
HOST_SOURCE_STRIPPED := $(HOST_TEST_KDIR)/globals-stripped.elf
$(HOST_SOURCE_NODEBUG): $(HOST_TEST_KDIR)/globals.elf
	riscv64-unknown-elf-objcopy --strip-debug $< $@
$(HOST_SOURCE_STRIPPED): $(HOST_TEST_KDIR)/globals.elf
	riscv64-unknown-elf-objcopy --strip-all $< $@
$(BUILD)/tests/host/test_source: $(HOST_TEST_DIR)/test_source.c $(HOSTLIB) $(HOSTLIB_HDRS) | $(BUILD)/tests/host/
	$(CC) $(HOST_TEST_CFLAGS) -DTEST_NODEBUG_ELF='"$(abspath $(HOST_SOURCE_NODEBUG))"' \
	  -DTEST_STRIPPED_ELF='"$(abspath $(HOST_SOURCE_STRIPPED))"' -o $@ $< \
	  $(HOSTLIB) $(HOSTLIB_LIBS) -lcmocka

TEST_SUITES += host-cli
.PHONY: test-host-cli
test-host-cli: $(SIMTY_CLI) $(SIMTY_MODEL) $(HOST_TEST_KERNELS) $(BUILD)/examples/vecadd \
    $(BUILD)/kernels/examples/vecadd/vecadd.elf $(BUILD)/tests/host/test_source \
    $(HOST_SOURCE_NODEBUG) $(HOST_SOURCE_STRIPPED)
	$(BUILD)/tests/host/test_source
	python3 $(HOST_TEST_DIR)/test_cli.py $(BUILD)
	python3 $(HOST_TEST_DIR)/test_cli_data.py $(BUILD)

# Installs into a scratch prefix, then builds a kernel with the installed
# simty-cc and a host program with pkg-config, and runs both on the model.
HOST_INSTALL_DIR := $(BUILD)/tests/host/install
TEST_SUITES += host-install
.PHONY: test-host-install
test-host-install: $(HOSTLIB) $(HOSTLIB_HEADER) $(SIMTY_CLI) $(KERNEL_RUNTIME)
	rm -rf $(HOST_INSTALL_DIR)
	$(MAKE) --no-print-directory install PREFIX=$(abspath $(HOST_INSTALL_DIR))/usr >/dev/null
	sh $(HOST_TEST_DIR)/test_install.sh $(abspath $(HOST_INSTALL_DIR))

$(BUILD)/tests/host/test_stream: $(HOST_TEST_DIR)/test_stream.c $(HOSTLIB) $(HOSTLIB_HDRS) | $(BUILD)/tests/host/
	$(CC) $(HOST_TEST_CFLAGS) -o $@ $< $(HOSTLIB) $(HOSTLIB_LIBS)

# The library, the CLI and an example against the simulated board (and
# sim?xbar=rotate against the rotate board, one more Verilated SoC).
TEST_SUITES += host-sim
.PHONY: test-host-sim
test-host-sim: simty-sim simty-sim-4x4_rotate $(SIMTY_CLI) $(SIMTY_MODEL) $(HOST_TEST_KERNELS) $(BUILD)/examples/vecadd \
    $(BUILD)/tests/host/test_stream \
    $(BUILD)/kernels/examples/vecadd/vecadd.elf
	python3 $(HOST_TEST_DIR)/test_sim.py $(BUILD)
	python3 $(HOST_TEST_DIR)/test_sim_serve.py $(BUILD)
