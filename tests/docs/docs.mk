# SPDX-License-Identifier: Apache-2.0
# docs.mk - the `docs` suite: the code of README.md and docs/*.md works as
# written (tests/docs/test_docs.py; the block markers: docs/docs-tests.md).
# It installs into a scratch prefix and works outside the source tree,
# with that prefix alone: kernels built with its simty-cc, host programs
# with `pkg-config simty`, sessions with its bin/ first on PATH.

DOCS_TEST_OUT := $(BUILD)/tests/docs
DOCS_FILES := README.md $(sort $(wildcard docs/*.md))

TEST_SUITES += docs
.PHONY: test-docs
test-docs: $(HOSTLIB) $(HOSTLIB_HEADER) $(SIMTY_CLI) $(SIMTY_MODEL) $(KERNEL_RUNTIME)
	rm -rf $(DOCS_TEST_OUT)
	$(MAKE) --no-print-directory install PREFIX=$(abspath $(DOCS_TEST_OUT))/usr >/dev/null
	python3 tests/docs/test_docs.py --prefix $(DOCS_TEST_OUT)/usr \
	  --work $(DOCS_TEST_OUT)/work $(DOCS_FILES)
