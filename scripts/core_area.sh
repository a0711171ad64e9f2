#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# core_area.sh - area of simty_core alone (`make core-area`): Yosys
# synth_ice40 and synth_ecp5 at each WARPSxLANES configuration, one table
# of LUT4s, flip-flops and block RAMs, and a warning for inferred latches.
#
#   scripts/core_area.sh OUT_DIR "4x4 8x8" "-Ihw/rtl/core -Ibuild/gen" FILE.v...
#
# The two architectures of one configuration synthesize in parallel
# (AREA_JOBS=1 for one at a time). AREA_HIER=1 keeps the hierarchy
# (-noflatten) and prints LUT4s per module too, to see where area goes
# (slightly more cells than the flattened figures). AREA_PARAMS="NAME=V
# ..." sets more of simty_core's parameters (e.g. VCLASS=0, the core
# without its value classifier); their logs go to OUT_DIR/NAME=V.../.
# AREA_ARCHS="ice40" (or "ecp5") synthesizes for one architecture only. Reference: the original VHDL Simty at
# 4x4 takes about 6,500 iCE40 LUT4s and 32 block RAMs; the aim is at most
# three quarters of that.
# With EXT_M=1 in AREA_PARAMS (the optional extensions, e.g.
# AREA_PARAMS="EXT_M=1 EXT_ZICNTR=1"), synth_ice40 gets -dsp (multipliers
# in SB_MAC16); the last column counts the hardware multipliers.
set -eu
out=$1
configs=$2
incs=$3
shift 3
jobs=${AREA_JOBS:-2}
hier=${AREA_HIER:-0}
chparams=""
ice40_dsp=""
for p in ${AREA_PARAMS:-}; do
  chparams="$chparams -chparam ${p%%=*} ${p#*=}"
  [ "$p" = EXT_M=1 ] && ice40_dsp=-dsp
done
noflatten=""
[ "$hier" = 1 ] && noflatten=-noflatten
if [ -n "${AREA_PARAMS:-}" ]; then
  out="$out/$(echo "$AREA_PARAMS" | tr ' ' '_')"
  echo "simty_core parameters: $AREA_PARAMS"
fi
mkdir -p "$out"

# Sum the counts of cells whose name matches a pattern.
cells() {
  awk -v pat="$2" '$2 ~ pat && $1 ~ /^[0-9]+$/ { n += $1 } END { print n + 0 }' "$1"
}

# synth CFG ARCH: run Yosys, leave the stat and a result line in $out.
synth() {
  cfg=$1
  arch=$2
  shift 2
  w=${cfg%x*}
  l=${cfg#*x}
  base="$out/core_${cfg}_${arch}"
  start=$(date +%s)
  rm -f "$base.row"
  if ! yosys -q -l "$base.log" -p "read_verilog -sv $incs $*; \
hierarchy -top simty_core -chparam WARPS $w -chparam LANES $l $chparams; \
synth_$arch -top simty_core $noflatten $([ "$arch" = ice40 ] && echo "$ice40_dsp"); \
tee -o $base.stat stat" \
      >/dev/null 2>&1; then
    echo "FAILED (see $base.log)" > "$base.row"
    return
  fi
  secs=$(( $(date +%s) - start ))
  # "count name" lines of the cell list
  # With the hierarchy kept, the totals are those after "design hierarchy".
  awk -v hier="$hier" '
    /design hierarchy/ { top = 1 }
    hier && !top { next }
    /Number of cells/ { on = 1; next }
    on && NF == 2 { print $2, $1 }' "$base.stat" > "$base.cells"
  if [ "$arch" = ice40 ]; then
    luts=$(cells "$base.cells" '^SB_LUT4$')
    ffs=$(cells "$base.cells" '^SB_DFF')
    brams=$(cells "$base.cells" '^SB_RAM40_4K')
    extra="carry=$(cells "$base.cells" '^SB_CARRY$') mac16=$(cells "$base.cells" '^SB_MAC16$')"
  else
    luts=$(cells "$base.cells" '^LUT4$')
    ffs=$(cells "$base.cells" '^TRELLIS_FF$')
    brams=$(cells "$base.cells" '^DP16KD$')
    extra="lutram=$(cells "$base.cells" '^TRELLIS_DPR16X4$') ccu2=$(cells "$base.cells" '^CCU2C$') mult18=$(cells "$base.cells" '^MULT18X18D$')"
  fi
  latches=$(grep -c "^Latch inferred for" "$base.log" || true)
  note=""
  if [ "$latches" -ne 0 ]; then
    note=" LATCHES: $latches inferred (see $base.log)"
  fi
  printf '%8s %8s %7s  %s (%ss)%s\n' "$luts" "$ffs" "$brams" "$extra" \
    "$secs" "$note" > "$base.row"
}

archs=${AREA_ARCHS:-ice40 ecp5}
for cfg in $configs; do
  for arch in $archs; do
    if [ "$jobs" -gt 1 ]; then
      synth "$cfg" "$arch" "$@" &
    else
      synth "$cfg" "$arch" "$@"
    fi
  done
  wait
done

status=0
printf '%-6s %-6s %8s %8s %7s  %s\n' config arch LUT4 FF BRAM "other"
for cfg in $configs; do
  for arch in $archs; do
    row=$(cat "$out/core_${cfg}_${arch}.row" 2>/dev/null || echo "FAILED")
    printf '%-6s %-6s %s\n' "$cfg" "$arch" "$row"
    case "$row" in *FAILED*|*LATCHES*) status=1 ;; esac
  done
done
echo "(BRAM: SB_RAM40_4K on ice40, DP16KD on ecp5; logs in $out)"
if [ "$hier" = 1 ]; then
  for cfg in $configs; do
    for arch in $archs; do
      echo "LUT4s per module (all instances), $cfg $arch:"
      # Per-module LUT4s, times the instances from the hierarchy tree
      # (indentation gives the nesting).
      awk '
        function short(m) { sub(/^\$paramod(\$[0-9a-f]+)?\\/, "", m);
                            sub(/\\.*/, "", m); return m }
        /^=== design hierarchy/ { tree = 1; after = 1; next }
        /^=== / { mod = $2; next }
        !after && $1 ~ /^(SB_LUT4|LUT4)$/ { luts[mod] = $2 }
        tree && /Number of/ { tree = 0 }
        tree && NF == 2 {
          match($0, /^ */); d = (RLENGTH - 3) / 2
          mult[d] = $2 * (d > 0 ? mult[d - 1] : 1)
          inst[$1] += mult[d]
        }
        END { for (m in luts) printf "  %-20s x%-3d %7d\n", short(m),
                inst[m], luts[m] * inst[m] }' \
        "$out/core_${cfg}_${arch}.stat" | sort -k3 -n -r
    done
  done
fi
exit $status
