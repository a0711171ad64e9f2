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

HOSTLIB_DEPS_CFLAGS := $(shell pkg-config --cflags libftdi1 libusb-1.0 2>/dev/null)
HOSTLIB_DEPS_LIBS := $(shell pkg-config --libs libftdi1 libusb-1.0 2>/dev/null || echo -lftdi1 -lusb-1.0)
HOSTLIB_CFLAGS := $(HOST_CFLAGS) -I$(HOSTLIB_DIR)/include -I$(HOSTLIB_DIR)/src \
  -Ihw/arch -Ihw/model -Idriver/link -Idriver/transport $(HOSTLIB_DEPS_CFLAGS)
# What a program linking libsimty.a needs after it.
HOSTLIB_LIBS := $(HOSTLIB_DEPS_LIBS) -lpthread

HOSTLIB_HDRS := $(HOSTLIB_DIR)/include/simty.h $(HOSTLIB_DIR)/src/simty_internal.h \
  $(HOSTLIB_DIR)/src/simty_elf.h hw/arch/simty_arch.h hw/model/simty_model.h
HOSTLIB_SRCS := $(HOSTLIB_DIR)/src/simty_device.c $(HOSTLIB_DIR)/src/simty_kernel.c \
  $(HOSTLIB_DIR)/src/simty_alloc.c $(HOSTLIB_DIR)/src/backend_model.c \
  $(HOSTLIB_DIR)/src/backend_link.c
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

$(SIMTY_CLI): $(HOSTLIB_TOOLS)/simty.c $(HOSTLIB_TOOLS)/selftest_kernel.h \
    $(BUILD)/gen/simty_selftest_elf.c $(HOSTLIB) $(HOSTLIB_HDRS) | $(BUILD)/bin/
	$(CC) $(HOSTLIB_CFLAGS) -I$(HOSTLIB_TOOLS) -o $@ $< $(BUILD)/gen/simty_selftest_elf.c \
	  $(HOSTLIB) $(HOSTLIB_LIBS)

.PHONY: simty-cli
simty-cli: $(SIMTY_CLI)

# ---- make install PREFIX=... [DESTDIR=...] ----
# Lays out bin/ (simty, simty-cc, simty-sim when built), lib/ (libsimty.a,
# the kernel runtime in lib/simty/, pkgconfig/simty.pc) and include/
# (simty.h, simty_kernel.h, simty_arch.h). simty-cc finds the runtime
# relative to itself, and the sim backend finds simty-sim next to the
# program's simty binary or through $SIMTY_SIM.
PREFIX ?= /usr/local
INSTALL_ROOT = $(DESTDIR)$(PREFIX)

.PHONY: install
install: $(HOSTLIB) $(HOSTLIB_HEADER) $(SIMTY_CLI) $(KERNEL_RUNTIME) $(HOSTLIB_DIR)/simty.pc.in
	mkdir -p $(INSTALL_ROOT)/bin $(INSTALL_ROOT)/lib/simty $(INSTALL_ROOT)/lib/pkgconfig \
	  $(INSTALL_ROOT)/include
	cp $(SIMTY_CLI) $(SIMTY_CC) $(INSTALL_ROOT)/bin/
	if [ -x $(BUILD)/bin/simty-sim ]; then cp $(BUILD)/bin/simty-sim $(INSTALL_ROOT)/bin/; fi
	cp $(HOSTLIB) $(INSTALL_ROOT)/lib/
	cp $(BUILD)/lib/simty/crt0.o $(BUILD)/lib/simty/libsimty_rt.a \
	  $(BUILD)/lib/simty/simty_kernel.ld $(BUILD)/lib/simty/simty_memory.ld \
	  $(INSTALL_ROOT)/lib/simty/
	cp $(HOSTLIB_HEADER) $(BUILD)/include/simty_kernel.h $(BUILD)/include/simty_arch.h \
	  $(INSTALL_ROOT)/include/
	sed 's|@PREFIX@|$(PREFIX)|' $(HOSTLIB_DIR)/simty.pc.in > $(INSTALL_ROOT)/lib/pkgconfig/simty.pc

# ---- Tests (tests/host/) ----
HOST_TEST_DIR := tests/host
HOST_TEST_KDIR := $(BUILD)/kernels/$(HOST_TEST_DIR)/kernels
HOST_TEST_KERNELS := $(patsubst $(HOST_TEST_DIR)/kernels/%.c,$(HOST_TEST_KDIR)/%.elf,\
  $(wildcard $(HOST_TEST_DIR)/kernels/*.c))
HOST_TEST_CFLAGS := $(HOSTLIB_CFLAGS) -DTEST_KERNEL_DIR='"$(abspath $(HOST_TEST_KDIR))"'

$(BUILD)/tests/host/test_host_api: $(HOST_TEST_DIR)/test_host_api.c $(HOSTLIB) $(HOSTLIB_HDRS) | $(BUILD)/tests/host/
	$(CC) $(HOST_TEST_CFLAGS) -o $@ $< $(HOSTLIB) $(HOSTLIB_LIBS) -lcmocka

TEST_SUITES += host-api
.PHONY: test-host-api
test-host-api: $(BUILD)/tests/host/test_host_api $(HOST_TEST_KERNELS)
	$(BUILD)/tests/host/test_host_api

HOST_FAKE_SRCS := $(HOST_TEST_DIR)/fake_device.c
HOST_FAKE_HDRS := $(HOST_TEST_DIR)/fake_device.h
HOST_FAKE_SIM := $(BUILD)/tests/host/fake_sim

$(HOST_FAKE_SIM): $(HOST_TEST_DIR)/fake_sim.c $(HOST_FAKE_SRCS) $(HOST_FAKE_HDRS) $(HOSTLIB) | $(BUILD)/tests/host/
	$(CC) $(HOST_TEST_CFLAGS) -o $@ $< $(HOST_FAKE_SRCS) $(HOSTLIB) $(HOSTLIB_LIBS)

$(BUILD)/tests/host/test_transport: $(HOST_TEST_DIR)/test_transport.c $(HOST_FAKE_SRCS) \
    $(HOST_FAKE_HDRS) $(HOSTLIB) $(HOSTLIB_HDRS) $(TRANSPORT_HDRS) | $(BUILD)/tests/host/
	$(CC) $(HOST_TEST_CFLAGS) -DFAKE_SIM='"$(abspath $(HOST_FAKE_SIM))"' -o $@ $< \
	  $(HOST_FAKE_SRCS) $(HOSTLIB) $(HOSTLIB_LIBS) -lcmocka

TEST_SUITES += host-link
.PHONY: test-host-link
test-host-link: $(BUILD)/tests/host/test_transport $(HOST_FAKE_SIM) $(HOST_TEST_KERNELS)
	$(BUILD)/tests/host/test_transport
