#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# check_license.sh - every source file carries the project's SPDX line
# (`SPDX-License-Identifier: Apache-2.0`) in its first three lines, and the
# LICENSE file is there. Sources are the tracked files in a git checkout,
# or every file under the tree in an unpacked release tarball (even one
# unpacked inside another checkout). Prints each
# offender and exits 1 if there is one.
set -u
cd "$(dirname "$0")/.."
tag='SPDX-License-Identifier: Apache-2.0'
top=$(git rev-parse --show-toplevel 2>/dev/null || true)
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(pwd -P)" ]; then
  list() { git ls-files; }
else
  list() { find . -path ./build -prune -o -type f -print | sed 's|^\./||'; }
fi
checked=0
missing=0
[ -f LICENSE ] || { echo "LICENSE: missing"; missing=1; }
for f in $(list); do
  case "$f" in
    *.c|*.h|*.cpp|*.S|*.ld|*.v|*.vh|*.vlt|*.py|*.sh|*.mk|*.in|*.pcf|*.lpf|*.smoke|Makefile|*/Makefile) ;;
    *) continue ;;
  esac
  checked=$((checked + 1))
  if ! head -n 3 "$f" | grep -q "$tag"; then
    echo "$f: no '$tag' line in its first three lines"
    missing=$((missing + 1))
  fi
done
echo "license: $checked source files checked, $missing without the SPDX line"
[ "$missing" -eq 0 ] && [ "$checked" -gt 0 ]
