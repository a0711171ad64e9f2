#!/bin/sh
# core_area.sh - area of simty_core alone (`make core-area`): Yosys
# synth_ice40 and synth_ecp5 at each WARPSxLANES configuration, one table
# of LUT4s, flip-flops and block RAMs, and a warning for inferred latches.
#
#   scripts/core_area.sh OUT_DIR "4x4 8x8" "-Ihw/rtl/core -Ibuild/gen" FILE.v...
#
# Reference: the original VHDL Simty at 4x4 takes about 6,500 iCE40 LUT4s
# and 32 block RAMs; the aim is at most three quarters of that.
set -eu
out=$1
configs=$2
incs=$3
shift 3
mkdir -p "$out"

# Sum the counts of cells whose name matches a pattern in a `stat` report.
cells() {
  awk -v pat="$2" '$2 ~ pat && $1 ~ /^[0-9]+$/ { n += $1 } END { print n + 0 }' "$1"
}

status=0
rows=""
for cfg in $configs; do
  w=${cfg%x*}
  l=${cfg#*x}
  for arch in ice40 ecp5; do
    log="$out/core_${cfg}_${arch}.log"
    stat="$out/core_${cfg}_${arch}.stat"
    script="read_verilog -sv $incs $*; \
hierarchy -top simty_core -chparam WARPS $w -chparam LANES $l; \
synth_$arch -top simty_core; tee -o $stat stat"
    start=$(date +%s)
    if ! yosys -q -l "$log" -p "$script" >/dev/null 2>&1; then
      echo "core_area: yosys failed for $cfg $arch, see $log" >&2
      status=1
      continue
    fi
    secs=$(( $(date +%s) - start ))
    # Reformat the cell list as "count name" lines for cells().
    awk '/Number of cells/ {on = 1; next} on && NF == 2 { print $2, $1 }' \
      "$stat" > "$stat.cells"
    if [ "$arch" = ice40 ]; then
      luts=$(cells "$stat.cells" '^SB_LUT4$')
      ffs=$(cells "$stat.cells" '^SB_DFF')
      brams=$(cells "$stat.cells" '^SB_RAM40_4K')
      extra="carry=$(cells "$stat.cells" '^SB_CARRY$')"
    else
      luts=$(cells "$stat.cells" '^LUT4$')
      ffs=$(cells "$stat.cells" '^TRELLIS_FF$')
      brams=$(cells "$stat.cells" '^DP16KD$')
      extra="lutram=$(cells "$stat.cells" '^TRELLIS_DPR16X4$') ccu2=$(cells "$stat.cells" '^CCU2C$')"
    fi
    latches=$(grep -c "^Latch inferred for" "$log" || true)
    latch_cells=$(cells "$stat.cells" 'DLATCH|_DLATCH|LATCH')
    note=""
    if [ "$latches" -ne 0 ] || [ "$latch_cells" -ne 0 ]; then
      note=" LATCHES: $latches inferred (see $log)"
      status=1
    fi
    rows="$rows$(printf '%-6s %-6s %8s %8s %7s  %s (%ss)%s' "$cfg" "$arch" \
      "$luts" "$ffs" "$brams" "$extra" "$secs" "$note")
"
  done
done

printf '%-6s %-6s %8s %8s %7s  %s\n' config arch LUT4 FF BRAM "other"
printf '%s' "$rows"
echo "(BRAM: SB_RAM40_4K on ice40, DP16KD on ecp5; logs in $out)"
exit $status
