#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run-suites.sh - run each test suite (`make test-NAME`), keep going after a
# failure, and close with one summary line.
set -u
passed=0
failed=0
failed_names=""
for suite in "$@"; do
  echo "=== suite $suite"
  if ${MAKE:-make} --no-print-directory "test-$suite"; then
    echo "=== suite $suite: PASS"
    passed=$((passed + 1))
  else
    echo "=== suite $suite: FAIL"
    failed=$((failed + 1))
    failed_names="$failed_names $suite"
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "failed suites:$failed_names"
fi
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
