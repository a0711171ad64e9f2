# SPDX-License-Identifier: Apache-2.0
# docs.mk - the `docs` suite: the code of README.md and docs/*.md works as
# written (tests/docs/test_docs.py; the block markers: docs/docs-tests.md).
# It installs into a scratch prefix and works outside the source tree,
# with that prefix alone: kernels built with its simty-cc, host programs
# with `pkg-config simty`, sessions with its bin/ first on PATH.

DOCS_FILES := README.md $(sort $(wildcard docs/*.md))

# A scratch directory outside the checkout (kept when the suite fails).
TEST_SUITES += docs
.PHONY: test-docs
test-docs: $(HOSTLIB) $(HOSTLIB_HEADER) $(SIMTY_CLI) $(SIMTY_MODEL) $(KERNEL_RUNTIME)
	@tmp=$$(mktemp -d $${TMPDIR:-/tmp}/simty-docs.XXXXXX) && \
	  echo "docs: installing into $$tmp/usr" && \
	  $(MAKE) --no-print-directory install PREFIX=$$tmp/usr >/dev/null && \
	  python3 tests/docs/test_docs.py --prefix $$tmp/usr --work $$tmp/work \
	    $(DOCS_FILES) && rm -rf $$tmp
