// simty_ram_1r1w: generic 1-read/1-write synchronous RAM, the building block
// of every table in the core (register banks, ibuf, HCT, CCT); written so
// Yosys infers block RAM (SB_RAM40_4K / DP16KD) when the size warrants it.
`default_nettype none

module simty_ram_1r1w #(
  parameter integer WIDTH = 32,
  parameter integer DEPTH = 64,
  parameter integer ABITS = (DEPTH > 1) ? $clog2(DEPTH) : 1
) (
  input  wire             clk_i,
  // Read: data the cycle after re_i; the output holds while re_i is low.
  // A read of the address written in the same cycle returns the old data.
  input  wire             re_i,
  input  wire [ABITS-1:0] raddr_i,
  output reg  [WIDTH-1:0] rdata_o,
  input  wire             we_i,
  input  wire [ABITS-1:0] waddr_i,
  input  wire [WIDTH-1:0] wdata_i
);

  reg [WIDTH-1:0] mem_q [0:DEPTH-1];

`ifndef SYNTHESIS
  // Simulation only: a defined start so that X never leaks from unwritten
  // words that are read speculatively (their values are always discarded).
  integer i;
  initial begin
    for (i = 0; i < DEPTH; i = i + 1) mem_q[i] = {WIDTH{1'b0}};
    rdata_o = {WIDTH{1'b0}};
  end
`endif

  always @(posedge clk_i) begin
    if (we_i) mem_q[waddr_i] <= wdata_i;
    if (re_i) rdata_o <= mem_q[raddr_i];
  end

endmodule
