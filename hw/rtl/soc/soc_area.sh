#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# soc_area.sh - Yosys iCE40 area of the SoC blocks (and of the whole SoC
# when the core is there), then nextpnr-ice40 placement on an HX8K.
#
#   soc_area.sh OUTDIR "WxL ..." FW_SIZE CODE_SIZE DATA_SIZE [blocks|soc|pnr|ecp5]
#
# Prints one line per design: LUT4, flip-flops, SB_RAM40_4K, carry cells;
# logs and netlists stay in OUTDIR.
set -eu
out=$1
configs=$2
fw=$3
code=$4
data=$5
what=${6:-blocks}
rtl=hw/rtl/soc
mkdir -p "$out"

report() { # name log
  awk -v n="$1" '
    /SB_LUT4/ {l=$2} /SB_CARRY/ {c=$2} /SB_RAM40_4K/ {r=$2}
    /SB_DFF/ {f+=$2}
    END {printf "%-28s %6d LUT4 %6d FF %3d BRAM %5d CARRY\n", n, l, f, r, c}' "$2"
}

synth() { # name top files... ; parameters in $chparams
  name=$1
  top=$2
  shift 2
  yosys -q -l "$out/$name.log" -p "read_verilog -Ihw/rtl/soc -Ihw/rtl/core -I${BUILD_GEN:-build/gen} $*; \
    hierarchy -top $top $chparams; synth_ice40 -top $top -json $out/$name.json; \
    tee -o $out/$name.stat stat" >/dev/null
  report "$name" "$out/$name.stat"
}

if [ "$what" = blocks ]; then
  chparams=""
  synth ctrl_cpu simty_ctrl_cpu $rtl/simty_ctrl_cpu.v
  chparams="-chparam BAUD 1000000"
  synth uart_phy_and_fifos simty_uart $rtl/simty_uart.v $rtl/simty_uart_rx.v \
    $rtl/simty_uart_tx.v $rtl/simty_fifo.v
  chparams="-chparam CONSOLE_DEPTH 64"
  synth mmio_4x4 simty_mmio $rtl/simty_mmio.v $rtl/simty_fifo.v
  chparams=""
  synth block_seq_4x4 simty_block_seq $rtl/simty_block_seq.v
  synth link_engine simty_link_engine $rtl/simty_link_engine.v $rtl/simty_ram_be.v
  exit 0
fi

core_srcs=$(ls hw/rtl/core/*.v | grep -v '_tb\.v$' | tr '\n' ' ')
for c in $configs; do
  w=${c%x*}
  l=${c#*x}
  chparams="-chparam WARPS $w -chparam LANES $l -chparam FW_SIZE $fw \
    -chparam CODE_SIZE $code -chparam DATA_SIZE $data -chparam BAUD 1000000 \
    -chparam LINK_FIFO_DEPTH 256 -chparam CONSOLE_DEPTH 64"
  [ "$what" = ecp5 ] || synth "soc_$c" simty_soc $rtl/simty_soc.v $rtl/simty_ctrl_cpu.v $rtl/simty_mmio.v $rtl/simty_block_seq.v \
    $rtl/simty_ram_be.v $rtl/simty_fifo.v $rtl/simty_uart.v $rtl/simty_uart_rx.v \
    $rtl/simty_uart_tx.v $rtl/simty_link_engine.v $core_srcs
  if [ "$what" = ecp5 ]; then
    yosys -q -l "$out/soc_${c}_ecp5.log" -p "read_verilog -Ihw/rtl/soc -Ihw/rtl/core \
      -I${BUILD_GEN:-build/gen} $rtl/simty_soc.v $rtl/simty_ctrl_cpu.v $rtl/simty_mmio.v $rtl/simty_block_seq.v \
      $rtl/simty_ram_be.v $rtl/simty_fifo.v $rtl/simty_uart.v $rtl/simty_uart_rx.v \
      $rtl/simty_uart_tx.v $rtl/simty_link_engine.v $core_srcs; hierarchy -top simty_soc $chparams; \
      synth_ecp5 -top simty_soc; tee -o $out/soc_${c}_ecp5.stat stat" >/dev/null
    awk -v n="soc_${c} (ECP5)" '/LUT4/ {l=$2} /TRELLIS_FF/ {f=$2} /DP16KD/ {r=$2}
      END {printf "%-28s %6d LUT4 %6d FF %3d DP16KD\n", n, l, f, r}' "$out/soc_${c}_ecp5.stat"
    continue
  fi
  if [ "$what" = pnr ]; then
    if nextpnr-ice40 --hx8k --package ct256 --json "$out/soc_$c.json" \
        --freq 12 --timing-allow-fail > "$out/soc_$c.pnr.log" 2>&1; then
      grep -E "Max frequency|ICESTORM_LC:|ICESTORM_RAM:" "$out/soc_$c.pnr.log" | tail -4
    else
      echo "soc_$c: does not place on an HX8K:"
      grep -E "ERROR|ICESTORM_LC:|ICESTORM_RAM:" "$out/soc_$c.pnr.log" | head -4
    fi
  fi
done
