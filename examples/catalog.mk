# SPDX-License-Identifier: Apache-2.0
# catalog.mk - the examples beyond vecadd (examples/README.md lists them)
# and the targets that run every example. Included before examples.mk,
# which builds each name of $(EXAMPLES): refer to its variables only in
# recipes.
#
#   make test-examples-model        every example on the reference model
#                                   (4 warps x 4 lanes), checked on the CPU,
#                                   then again under the race checker with a
#                                   random schedule: no race allowed
#   make examples-hil DEVICE=URI    every example on a device: a simulated
#                                   board (sim, tcp://...) or a real one

EXAMPLES += saxpy matmul reduction histogram mandelbrot bfs nw fib interp bitonic \
  histogram_atomic reduction_atomic

# Kernels that need ISA extensions (their host programs print SKIP on a
# device without them: the iCE40 boards, a model without isa=).
$(BUILD)/kernels/examples/histogram_atomic/histogram_atomic.elf: \
    examples/histogram_atomic/histogram_atomic.c $(KERNEL_RUNTIME)
	@mkdir -p $(dir $@)
	$(SIMTY_CC) --isa rv32ia -o $@ $<
$(BUILD)/kernels/examples/reduction_atomic/reduction_atomic.elf: \
    examples/reduction_atomic/reduction_atomic.c $(KERNEL_RUNTIME)
	@mkdir -p $(dir $@)
	$(SIMTY_CC) --isa rv32ia -o $@ $<

# The model device the examples run on: every extension, so that the
# examples that need one run too (the others run as on RV32I).
EXAMPLES_MODEL_URI := model?isa=rv32ima_zicntr

TEST_SUITES += examples-model

# $(call EXAMPLES_RUN_ALL,URI,LOG_TAG): runs each example on URI, one line
# each (verdict, time, SIMD efficiency, IPC, coalescing), then
# "N passed, M failed"; fails if any example exits non-zero. Full output
# goes to build/examples/logs/NAME.LOG_TAG.log.
define EXAMPLES_RUN_ALL
	@mkdir -p $(EXAMPLE_BIN_DIR)/logs; \
	passed=0; failed=0; \
	for e in vecadd $(filter-out vecadd,$(EXAMPLES)); do \
	  log=$(EXAMPLE_BIN_DIR)/logs/$$e.$(2).log; \
	  start=$$(date +%s%N); rc=0; \
	  if $(EXAMPLE_BIN_DIR)/$$e --device '$(1)' >$$log 2>&1; then \
	    passed=$$((passed + 1)); verdict=PASS; \
	  else \
	    rc=$$?; failed=$$((failed + 1)); verdict=FAIL; \
	  fi; \
	  ms=$$((($$(date +%s%N) - start) / 1000000)); \
	  awk -v e=$$e -v v=$$verdict -v ms=$$ms -v rc=$${rc:-0} -v out=$$log ' \
	    $$2 == "=" { c[$$1] = $$3 } \
	    END { \
	      line = sprintf("%-4s %-10s %6.2f s", v, e, ms / 1000); \
	      if (v != "PASS") \
	        line = line sprintf("  exit status %d, output in %s", rc, out); \
	      else if (c["mem_transactions"] > 0) \
	        line = line sprintf("  simd_efficiency %.3f  ipc %.3f  coalescing %.2f", \
	          c["simd_efficiency"], c["ipc"], c["mem_requests"] / c["mem_transactions"]); \
	      print line }' $$log; \
	  if [ $$verdict != PASS ]; then sed 's/^/    | /' $$log | tail -n 8; fi; \
	done; \
	echo "$$passed passed, $$failed failed"; \
	[ $$failed -eq 0 ]
endef

.PHONY: test-examples-model examples-hil
test-examples-model: examples
	$(call EXAMPLES_RUN_ALL,$(EXAMPLES_MODEL_URI),model)
	@echo "--- again under the race checker, warps in a random order (seed 7)"
	$(call EXAMPLES_RUN_ALL,$(EXAMPLES_MODEL_URI)&racecheck=1&seed=7,racecheck)
	@if grep -l 'race on' $(EXAMPLE_BIN_DIR)/logs/*.racecheck.log; then \
	  grep -h 'race on' $(EXAMPLE_BIN_DIR)/logs/*.racecheck.log | head -n 20; \
	  echo "examples-model: the examples above have data races" >&2; exit 1; \
	fi; echo "no example has a data race"

examples-hil: examples
	@if [ -z '$(DEVICE)' ]; then \
	  echo "examples-hil: give the device, e.g. make examples-hil DEVICE=sim" >&2; \
	  exit 2; \
	fi
	$(call EXAMPLES_RUN_ALL,$(DEVICE),hil)
