# SPDX-License-Identifier: Apache-2.0
# driver.mk - userspace transports and the framed link protocol.
#
# One section per part of driver/; each keeps its variables under its own
# prefix. Add new sections below, do not fold them into another's.

# ---------------------------------------------------------------------------
# Link layer (driver/link): CRC-32, COBS framing, frame decoder and the
# protocol constants (docs/protocol.md). Shared with the firmware, which
# compiles driver/link/simty_link.c itself for the controller.

LINK_DIR := driver/link
LINK_SRCS := $(LINK_DIR)/simty_link.c
LINK_HDRS := $(LINK_DIR)/simty_link.h $(LINK_DIR)/simty_proto.h
LINK_INCLUDES := -I$(LINK_DIR)
LINK_LIB := $(BUILD)/lib/libsimty_link.a
LINK_OBJ := $(BUILD)/obj/link/simty_link.o

# Tests run with the sanitizers: the fuzz loop must find no overrun.
LINK_TEST_CFLAGS := $(HOST_CFLAGS) -fsanitize=address,undefined \
  -fno-sanitize-recover=all

$(LINK_OBJ): $(LINK_SRCS) $(LINK_HDRS) | $(BUILD)/obj/link/
	$(CC) $(HOST_CFLAGS) $(LINK_INCLUDES) -c -o $@ $<

$(LINK_LIB): $(LINK_OBJ) | $(BUILD)/lib/
	rm -f $@ && ar rcs $@ $^

$(BUILD)/tests/test_link: $(LINK_DIR)/tests/test_link.c $(LINK_SRCS) $(LINK_HDRS) | $(BUILD)/tests/
	$(CC) $(LINK_TEST_CFLAGS) $(LINK_INCLUDES) -o $@ $(LINK_DIR)/tests/test_link.c $(LINK_SRCS) -lcmocka

.PHONY: link test-link
link: $(LINK_LIB)

TEST_SUITES += link
test-link: $(BUILD)/tests/test_link
	$(BUILD)/tests/test_link

# ---------------------------------------------------------------------------
# Transports and the host link layer (driver/transport): the session
# (retransmission, deadlines, resync) and the byte transports tcp, sim,
# ftdi (libftdi1) and usb (libusb-1.0). Linked into libsimty.a by
# host_lib/host_lib.mk; unit tests with the libraries mocked through
# -Wl,--wrap= are the host-transport suite.

TRANSPORT_DIR := driver/transport
TRANSPORT_OBJ_DIR := $(BUILD)/obj/transport
TRANSPORT_SRCS := $(TRANSPORT_DIR)/transport_common.c $(TRANSPORT_DIR)/simty_session.c $(TRANSPORT_DIR)/transport_fd.c \
  $(TRANSPORT_DIR)/transport_ftdi.c $(TRANSPORT_DIR)/transport_usb.c
TRANSPORT_HDRS := $(TRANSPORT_DIR)/simty_transport.h host_lib/include/simty.h $(LINK_HDRS)
TRANSPORT_OBJS := $(patsubst $(TRANSPORT_DIR)/%.c,$(TRANSPORT_OBJ_DIR)/%.o,$(TRANSPORT_SRCS))
TRANSPORT_CFLAGS := $(HOST_CFLAGS) -Ihost_lib/include -Ihw/arch $(LINK_INCLUDES) \
  -I$(TRANSPORT_DIR) $(shell pkg-config --cflags libftdi1 libusb-1.0 2>/dev/null)

$(TRANSPORT_OBJ_DIR)/%.o: $(TRANSPORT_DIR)/%.c $(TRANSPORT_HDRS) | $(TRANSPORT_OBJ_DIR)/
	$(CC) $(TRANSPORT_CFLAGS) -c -o $@ $<
