#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# run_all.sh [CONFIGS] - build the smoke harness for each WxL configuration
# (default: the set the issue requires) and run every smoke kernel on it
# against simty-model. Exit status non-zero if any run fails.
#   bash hw/sim/core_smoke/run_all.sh "1x1 4x4 2x32"
set -u
cd "$(dirname "$0")/../../.."
CONFIGS=${1:-"1x1 4x4 8x8 4x8 1x32 2x32 16x32"}
KERNELS="vadd diverge hello alu mix merge_dup fault trap"
mkdir -p build/core_smoke
for k in $KERNELS; do
  # merge_dup is the testbench's regression kernel (tests/rtl/repro/)
  src=$(ls hw/sim/core_smoke/kernels/$k.[cS] tests/rtl/repro/$k.S 2>/dev/null | head -1)
  if [ ! build/core_smoke/$k.elf -nt "$src" ]; then
    build/bin/simty-cc -o build/core_smoke/$k.elf "$src" || exit 1
  fi
done
fail=0
for c in $CONFIGS; do
  w=${c%x*}; l=${c#*x}
  make -s -f hw/sim/core_smoke/Makefile.smoke W=$w L=$l || { echo "FAIL build $c"; fail=1; continue; }
  # enough threads for several waves, at least 200 (the 2x32 diverge case)
  n=$(( w * l * 3 )); [ $n -lt 200 ] && n=200
  bash hw/sim/core_smoke/run_smoke.sh $w $l $n $KERNELS || fail=1
done
exit $fail
