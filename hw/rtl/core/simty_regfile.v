// SPDX-License-Identifier: Apache-2.0
// simty_regfile: one lane's register file, every warp's registers, kept
// twice: one copy per source operand, each a 1-read/1-write RAM, both
// written with every write. Operand collection reads both sources in
// the same cycle (RR1), so both reach registers before EX; the
// write-back stage writes both copies.
`default_nettype none

module simty_regfile #(
  parameter integer BA = 7            // address: {warp, reg}
) (
  input  wire          clk_i,
  input  wire [BA-1:0] raddr1_i,
  output wire [31:0]   rdata1_o,
  input  wire [BA-1:0] raddr2_i,
  output wire [31:0]   rdata2_o,
  input  wire          we_i,
  input  wire [BA-1:0] waddr_i,
  input  wire [31:0]   wdata_i
);

  localparam integer DEPTH = 1 << BA;

  // The copies are declared here rather than with simty_ram_1r1w so that
  // they can waive the read/write collision check: a read at the address
  // written in the same cycle is an operand whose producer is in the
  // write-back stage, and the operand stage replaces the value read with
  // the written one (WB2's bypass covers exactly the lanes that wrote).
  // So the value read then is never used. Without the waiver Yosys wraps
  // every block RAM in a 32-bit collision register and comparator.
  (* no_rw_check *) reg [31:0] src1_q [0:DEPTH-1];
  (* no_rw_check *) reg [31:0] src2_q [0:DEPTH-1];
  reg [31:0] rd1_q, rd2_q;
  always @(posedge clk_i) begin
    if (we_i) begin
      src1_q[waddr_i] <= wdata_i;
      src2_q[waddr_i] <= wdata_i;
    end
    rd1_q <= src1_q[raddr1_i];
    rd2_q <= src2_q[raddr2_i];
  end
  assign rdata1_o = rd1_q;
  assign rdata2_o = rd2_q;

`ifndef SYNTHESIS
  // Simulation only: a defined start (values read before being written
  // are those of registers a thread never set; the model reads 0).
  integer i;
  initial begin
    for (i = 0; i < DEPTH; i = i + 1) begin
      src1_q[i] = 32'd0;
      src2_q[i] = 32'd0;
    end
    rd1_q = 32'd0;
    rd2_q = 32'd0;
  end
`endif

endmodule

`default_nettype wire
