# SPDX-License-Identifier: Apache-2.0
# release.mk - what makes the project adoptable: the license check.
#
#   make test-license   every source file carries the SPDX line (LICENSE)

TEST_SUITES += license
.PHONY: test-license
test-license:
	sh scripts/check_license.sh
