#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# run-suites.sh - run each test suite (`make test-NAME`), keep going after a
# failure, and close with one summary line; each suite's result line gives
# its time.
set -u
passed=0
failed=0
failed_names=""
for suite in "$@"; do
  echo "=== suite $suite"
  start=$(date +%s)
  if ${MAKE:-make} --no-print-directory "test-$suite"; then
    echo "=== suite $suite: PASS ($(($(date +%s) - start)) s)"
    passed=$((passed + 1))
  else
    echo "=== suite $suite: FAIL ($(($(date +%s) - start)) s)"
    failed=$((failed + 1))
    failed_names="$failed_names $suite"
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "failed suites:$failed_names"
fi
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
