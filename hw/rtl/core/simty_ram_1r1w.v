// SPDX-License-Identifier: Apache-2.0
// simty_ram_1r1w: generic 1-read/1-write synchronous RAM, the building block
// of every table in the core (register banks, ibuf, HCT, CCT); written so
// Yosys infers block RAM (SB_RAM40_4K / DP16KD) when the size warrants it.
//
// BLOCK = 1 forces block RAM even for tables so small that Yosys would
// otherwise keep them in flip-flops (the per-warp tables at 4 warps): the
// issue wants every table out of the fabric's flip-flops and LUTs.
// BLOCK = 2 asks for LUT RAM (ECP5: TRELLIS_DPR16X4 and a register on its
// read data): for a table of a few words on a timing-critical path, the
// register's clock-to-out instead of a block RAM's (about 5 ns on the
// ECP5's DP16KD). The iCE40 has no LUT RAM: never BLOCK = 2 there.
// BLOCK = 3 asks for flip-flops and a read multiplexer (a table of a few
// words where a block RAM, set by its width rather than its depth, is
// the scarcer resource; docs/core.md "Table storage").
// SAME_CYCLE = 0 declares that the caller never uses the data of a read
// whose address is written in the same cycle (no_rw_check), so no
// collision register and comparator are wrapped around the RAM; with
// SAME_CYCLE = 1 such a read returns the old data.
`default_nettype none

module simty_ram_1r1w #(
  parameter integer WIDTH = 32,
  parameter integer DEPTH = 64,
  parameter integer ABITS = (DEPTH > 1) ? $clog2(DEPTH) : 1,
  parameter integer BLOCK = 0,
  parameter integer SAME_CYCLE = 1
) (
  input  wire             clk_i,
  // Read: data the cycle after re_i; the output holds while re_i is low.
  input  wire             re_i,
  input  wire [ABITS-1:0] raddr_i,
  output reg  [WIDTH-1:0] rdata_o,
  input  wire             we_i,
  input  wire [ABITS-1:0] waddr_i,
  input  wire [WIDTH-1:0] wdata_i
);

  // Yosys reads the attributes' values from these constants; Verilator
  // ignores both.
  // verilator lint_off UNUSEDPARAM
  localparam STYLE = (BLOCK == 3) ? "logic" : (BLOCK == 2) ? "distributed" :
                     (BLOCK != 0) ? "block" : "auto";
  localparam integer FREE = (SAME_CYCLE == 0) ? 1 : 0;
  // verilator lint_on UNUSEDPARAM
  (* ram_style = STYLE, no_rw_check = FREE *) reg [WIDTH-1:0] mem_q [0:DEPTH-1];

  always @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
    if (re_i) rdata_o <= mem_q[raddr_i];
  end

`ifndef SYNTHESIS
  // Simulation only: a defined start so that X never leaks from unwritten
  // words that are read speculatively (their values are always discarded).
  integer i;
  initial rdata_o = {WIDTH{1'b0}};
  initial for (i = 0; i < DEPTH; i = i + 1) mem_q[i] = {WIDTH{1'b0}};
`endif

endmodule
