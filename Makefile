# SPDX-License-Identifier: Apache-2.0
# Simty: top-level build. `make` builds everything, `make run` runs a
# kernel, `make test` runs every test suite; all three install missing
# Debian packages first.
#
# Each part of the tree adds its rules in its own fragment (*.mk below) and
# registers its test suites in TEST_SUITES; `make test-NAME` runs one.

BUILD ?= build
CC ?= cc
HOST_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L
TEST_SUITES :=

.PHONY: all build-all run test deps clean
# The default goal: the packages, then everything a user runs (recursive so
# that the packages are there before any rule runs, as for `make run`).
all: deps
	@$(MAKE) --no-print-directory build-all

# Order-only directory creation: `| $(BUILD)/dir/`. Precious: a directory
# made by this pattern rule would otherwise be an intermediate target that
# make tries (and fails) to delete at the end ("unlink: ... Is a directory").
.PRECIOUS: %/
%/:
	@mkdir -p $@

include hw/arch/arch.mk
include host_lib/kernel/kernel.mk
-include hw/model/model.mk
-include tests/tests.mk
-include examples/catalog.mk
-include examples/examples.mk
-include hw/rtl/rtl.mk
-include hw/rtl/soc/soc.mk
-include hw/rtl/boards/boards.mk
-include firmware/firmware.mk
-include driver/driver.mk
-include host_lib/host_lib.mk
-include bench/bench.mk
-include tests/docs/docs.mk
# After every fragment: it names their variables in prerequisites.
-include tests/robust.mk
include scripts/release.mk

deps:
	@sh scripts/install-deps.sh

# Everything `make` builds: the reference model and its CLI, the kernel
# compiler and runtime, the host library and the simty CLI, the firmware
# and the simulated board (launcher + 4x4), and the examples.
build-all: model kernel-runtime host-lib simty-cli firmware simty-sim examples
	@:

# Checked once per make invocation before anything else builds.
.PHONY: deps-checked
deps-checked: deps

# The main job: vecadd on RUN_DEVICE (default: the simulated board), checked against the CPU, counters
# printed. Recursive so that the packages are there before any rule runs.
RUN_DEVICE ?= sim
run: deps
	@$(MAKE) --no-print-directory run-vecadd SIMTY_DEVICE=$(RUN_DEVICE)

# Goals that are up to date would say "Nothing to be done": prerequisites
# do not.
.PHONY: run-vecadd
run-vecadd: $(if $(filter sim,$(RUN_DEVICE)),simty-sim) run-example-vecadd
	@:

test: deps
	@sh scripts/run-suites.sh $(TEST_SUITES)

clean:
	rm -rf $(BUILD)
