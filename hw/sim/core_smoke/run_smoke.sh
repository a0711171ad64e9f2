#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# run_smoke.sh W L THREADS kernel... - run kernels on the smoke build and on
# simty-model; compare console/counters (except cycle counts) and traces.
W=$1; L=$2; N=$3; shift 3
B=build/core_smoke
fail=0
for k in "$@"; do
  $B/w${W}l${L}/Vsimty_core $B/$k.elf --threads $N --counters --trace $B/$k.$W.$L.rtl.trace > $B/$k.$W.$L.rtl.out 2>&1
  build/bin/simty-model --warps $W --lanes $L --threads $N --counters --trace $B/$k.$W.$L.model.trace $B/$k.elf > $B/$k.$W.$L.model.out 2>&1
  if grep -q "^fault:" $B/$k.$W.$L.model.out; then
    # After a fault, counters depend on how warps interleaved: compare the
    # fault record only (names aside).
    r=$(grep "^fault:" $B/$k.$W.$L.rtl.out | sed 's/.*(cause/(cause/')
    m=$(grep "^fault:" $B/$k.$W.$L.model.out | sed 's/.*(cause/(cause/')
    if [ -n "$r" ] && [ "$r" = "$m" ]; then echo "PASS $k ${W}x${L} fault $r"; else echo "FAIL $k ${W}x${L} fault: rtl '$r' model '$m'"; fail=1; fi
    continue
  fi
  if diff <(grep -v "cycles\|ipc\|simd" $B/$k.$W.$L.rtl.out | sort) <(grep -v "cycles\|ipc\|simd" $B/$k.$W.$L.model.out | sort) >/dev/null &&
     python3 hw/sim/core_smoke/cmp_trace.py $B/$k.$W.$L.rtl.trace $B/$k.$W.$L.model.trace >/dev/null; then
    echo "PASS $k ${W}x${L} ($(grep '^ipc' $B/$k.$W.$L.rtl.out))"
  else
    echo "FAIL $k ${W}x${L}"; fail=1
  fi
done
exit $fail
