# SPDX-License-Identifier: Apache-2.0
# robust.mk - robustness suites (docs/reliability.md):
#
#   make test-host-asan   the host library, the CLI, the examples and the
#                         host tests rebuilt with ASan + UBSan in
#                         $(BUILD)/asan, then every host suite that needs no
#                         simulated board (host-api, host-link,
#                         host-transport, host-cli) run on that build
#   make test-fuzz        each libFuzzer target for FUZZ_TEST_SECONDS (20)
#   make fuzz FUZZ_SECONDS=N   each target for N seconds (default 300)
#   make test-fault-injection [FAULT_OPS=N]
#                         the host library against the simulated board
#                         through tests/board/fault_proxy.py (flipped,
#                         dropped, inserted, duplicated bytes, delayed
#                         chunks) at rates 0, 1e-4 and 1e-3 per byte, a
#                         host killed mid-transfer and one mid-launch at
#                         each; FAULT_OPS operations per rate (default 30:
#                         about a minute)
#
# Fuzz targets (tests/fuzz/, clang's libFuzzer with ASan + UBSan): the link
# decoder and encoder (driver/link/simty_link.c), and the kernel ELF loader
# through simty_kernel_load_bytes() on a fresh model device, the firmware's
# protocol engine on the mocked SoC (fw), and the host session against a
# scripted transport on a virtual clock (session). Seeds are in
# tests/fuzz/corpus/TARGET/ (small, in the repository) plus, for the ELF
# target, the host test kernels; what a run finds new is kept in
# $(BUILD)/fuzz/corpus/TARGET/, and a crash is written to
# $(BUILD)/fuzz/crash-TARGET-* (turn it into a regression test in the
# target's unit suite).

# ---- host-asan ----
ASAN_BUILD := $(BUILD)/asan
ASAN_HOST_CFLAGS := $(HOST_CFLAGS) -O1 -fno-omit-frame-pointer \
  -fsanitize=address,undefined -fno-sanitize-recover=all
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

TEST_SUITES += host-asan
.PHONY: test-host-asan
test-host-asan:
	$(ASAN_ENV) $(MAKE) -k --no-print-directory BUILD=$(ASAN_BUILD) \
	  HOST_CFLAGS='$(ASAN_HOST_CFLAGS)' \
	  test-host-api test-host-link test-host-transport test-host-cli

# ---- fuzz ----
FUZZ_CC ?= clang
FUZZ_DIR := tests/fuzz
FUZZ_OUT := $(BUILD)/fuzz
FUZZ_TARGETS := link elf fw session
FUZZ_TEST_SECONDS ?= 20
FUZZ_SECONDS ?= 300
FUZZ_CFLAGS := -std=c11 -g -O1 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
  -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=all
FUZZ_INCLUDES := -Ihost_lib/include -Ihost_lib/src -Ihw/arch -Ihw/model -Idriver/link \
  -Idriver/transport $(shell pkg-config --cflags libftdi1 libusb-1.0 2>/dev/null)
# The whole host library from its sources (the model and the ELF loader
# included), built with the fuzzer's instrumentation.
FUZZ_LIB_SRCS := $(wildcard host_lib/src/*.c driver/transport/*.c driver/link/*.c) \
  $(filter-out %_main.c,$(wildcard hw/model/simty_model*.c))
FUZZ_LIB_HDRS := $(wildcard host_lib/include/*.h host_lib/src/*.h driver/transport/*.h \
  driver/link/*.h hw/model/*.h hw/arch/*.h)
# Per-target options: libFuzzer's maximum input, extra read-only seeds.
FUZZ_OPTS_link := -max_len=12000
FUZZ_OPTS_elf := -max_len=65536
FUZZ_OPTS_fw := -max_len=16384
FUZZ_OPTS_session := -max_len=16384
FUZZ_SEEDS_elf = $(BUILD)/kernels/tests/host/kernels

$(FUZZ_OUT)/fuzz_link: $(FUZZ_DIR)/fuzz_link.c driver/link/simty_link.c $(LINK_HDRS) | $(FUZZ_OUT)/
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Idriver/link -o $@ $< driver/link/simty_link.c

$(FUZZ_OUT)/fuzz_elf: $(FUZZ_DIR)/fuzz_elf.c $(FUZZ_LIB_SRCS) $(FUZZ_LIB_HDRS) | $(FUZZ_OUT)/
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_INCLUDES) -o $@ $< $(FUZZ_LIB_SRCS) \
	  $(shell pkg-config --libs libftdi1 libusb-1.0 libdw 2>/dev/null || echo -lftdi1 -lusb-1.0 -ldw -lelf) \
	  -lpthread

# The firmware on the mocked SoC, as the firmware suite builds it.
$(FUZZ_OUT)/fuzz_fw: $(FUZZ_DIR)/fuzz_fw.c $(FW_LOGIC_SRCS) $(FW_MOCK_SRCS) $(FW_HDRS) \
  $(FW_MOCK_HDRS) | $(FUZZ_OUT)/
	$(FUZZ_CC) $(FUZZ_CFLAGS) -DFW_HOST $(FW_INCLUDES) -I$(FW_DIR)/tests -o $@ $< \
	  $(FW_LOGIC_SRCS) $(FW_MOCK_SRCS)

# The host session over a scripted transport: the session and link code only.
FUZZ_SESSION_SRCS := driver/transport/simty_session.c driver/transport/transport_common.c \
  driver/link/simty_link.c
$(FUZZ_OUT)/fuzz_session: $(FUZZ_DIR)/fuzz_session.c $(FUZZ_SESSION_SRCS) $(FUZZ_LIB_HDRS) | $(FUZZ_OUT)/
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_INCLUDES) -o $@ $< $(FUZZ_SESSION_SRCS) \
	  -Wl,--wrap=simty__transport_now_ns

FUZZ_BINS := $(addprefix $(FUZZ_OUT)/fuzz_,$(FUZZ_TARGETS))
.PHONY: fuzz-build
fuzz-build: $(FUZZ_BINS)

# $(call FUZZ_RUN,SECONDS): replays every saved regression input of each
# target, then fuzzes each for SECONDS; one summary line per target
# (executions, rate, corpus size); the full log is $(FUZZ_OUT)/TARGET.log.
define FUZZ_RUN
	@set -e; for t in $(FUZZ_TARGETS); do \
	  bin=$(FUZZ_OUT)/fuzz_$$t; log=$(FUZZ_OUT)/$$t.log; \
	  mkdir -p $(FUZZ_OUT)/corpus/$$t; \
	  regs=$$(ls $(FUZZ_DIR)/regressions/$$t/* 2>/dev/null || true); \
	  if [ -n "$$regs" ]; then \
	    $$bin $$regs >$$log.regressions 2>&1 || \
	      { tail -n 30 $$log.regressions; echo "fuzz $$t: a saved regression input fails"; exit 1; }; \
	  fi; \
	  seeds="$(FUZZ_DIR)/corpus/$$t"; \
	  [ $$t = elf ] && [ -d $(FUZZ_SEEDS_elf) ] && seeds="$$seeds $(FUZZ_SEEDS_elf)"; \
	  opts=$$(case $$t in link) echo '$(FUZZ_OPTS_link)';; elf) echo '$(FUZZ_OPTS_elf)';; \
	    fw) echo '$(FUZZ_OPTS_fw)';; session) echo '$(FUZZ_OPTS_session)';; esac); \
	  if ! $$bin $$opts -max_total_time=$(1) -timeout=20 -rss_limit_mb=2048 \
	      -print_final_stats=1 -artifact_prefix=$(FUZZ_OUT)/crash-$$t- \
	      $(FUZZ_OUT)/corpus/$$t $$seeds >$$log 2>&1; then \
	    tail -n 40 $$log; \
	    echo "fuzz $$t: FAILED (input saved as $(FUZZ_OUT)/crash-$$t-*; log $$log)"; \
	    exit 1; \
	  fi; \
	  execs=$$(sed -n 's/^stat::number_of_executed_units: *//p' $$log); \
	  rate=$$(sed -n 's/^stat::average_exec_per_sec: *//p' $$log); \
	  corpus=$$(ls $(FUZZ_OUT)/corpus/$$t | wc -l); \
	  echo "fuzz $$t: $$execs executions in $(1) s ($$rate/s), no crash; corpus $$corpus new inputs" \
	    "+ seeds$$( [ -n "$$regs" ] && echo ", $$(echo $$regs | wc -w) regression inputs replayed")"; \
	done
endef

TEST_SUITES += fuzz
.PHONY: test-fuzz fuzz
test-fuzz: $(FUZZ_BINS) $(HOST_TEST_KERNELS)
	$(call FUZZ_RUN,$(FUZZ_TEST_SECONDS))

fuzz: $(FUZZ_BINS) $(HOST_TEST_KERNELS)
	$(call FUZZ_RUN,$(FUZZ_SECONDS))

# ---- fault injection (tests/board/test_fault_injection.py) ----
FAULT_OPS ?= 30
FAULT_RATES ?= 0,1e-4,1e-3
FAULT_SEED ?= 15
FAULT_CLIENT := $(BOARD_TEST_OUT)/fault_client
FAULT_KERNEL := $(BOARD_TEST_OUT)/inc.elf

$(FAULT_CLIENT): $(BOARD_TEST_DIR)/fault_client.c $(HOSTLIB) | $(BOARD_TEST_OUT)/
	$(CC) $(HOST_CFLAGS) -I$(HOSTLIB_DIR)/include -Ihw/arch -o $@ $< $(HOSTLIB) $(HOSTLIB_LIBS)

TEST_SUITES += fault-injection
.PHONY: test-fault-injection
test-fault-injection: simty-sim $(FAULT_CLIENT) $(FAULT_KERNEL)
	python3 $(BOARD_TEST_DIR)/test_fault_injection.py --sim $(SIMTY_SIM) \
	  --client $(FAULT_CLIENT) --kernel $(FAULT_KERNEL) --ops $(FAULT_OPS) \
	  --rates $(FAULT_RATES) --seed $(FAULT_SEED)
