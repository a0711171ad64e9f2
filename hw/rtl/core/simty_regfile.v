// SPDX-License-Identifier: Apache-2.0
// simty_regfile: one lane's register file, split into an even-warp and an
// odd-warp bank, each a 1-read/1-write RAM. Operand collection reads one
// bank per cycle per instruction; the write-back stage writes one bank.
`default_nettype none

module simty_regfile #(
  parameter integer WARPS = 4,
  parameter integer BA = 6            // bank address: {warp >> 1, reg}
) (
  input  wire          clk_i,
  input  wire [BA-1:0] raddr_e_i,
  output wire [31:0]   rdata_e_o,
  input  wire [BA-1:0] raddr_o_i,
  output wire [31:0]   rdata_o_o,
  input  wire          we_i,
  input  wire          wpar_i,        // bank: warp parity
  input  wire [BA-1:0] waddr_i,
  input  wire [31:0]   wdata_i
);

  localparam integer DEPTH = 1 << BA;

  // The banks are declared here rather than with simty_ram_1r1w so that
  // they can waive the read/write collision check: a bank read at the
  // address written in the same cycle is an operand whose producer is in
  // the write-back stage, and the operand stage replaces the value read
  // with the written one (WB2's bypass covers exactly the lanes that
  // wrote). So the value read then is never used. Without the
  // waiver Yosys wraps every block RAM in a 32-bit collision register and
  // comparator.
  (* no_rw_check *) reg [31:0] even_q [0:DEPTH-1];
  reg [31:0] rd_e_q;
  always @(posedge clk_i) begin
    if (we_i && !wpar_i) even_q[waddr_i] <= wdata_i;
    rd_e_q <= even_q[raddr_e_i];
  end
  assign rdata_e_o = rd_e_q;

  generate
    if (WARPS > 1) begin : gen_odd
      (* no_rw_check *) reg [31:0] odd_q [0:DEPTH-1];
      reg [31:0] rd_o_q;
      always @(posedge clk_i) begin
        if (we_i && wpar_i) odd_q[waddr_i] <= wdata_i;
        rd_o_q <= odd_q[raddr_o_i];
      end
      assign rdata_o_o = rd_o_q;
`ifndef SYNTHESIS
      integer j;
      initial begin
        for (j = 0; j < DEPTH; j = j + 1) odd_q[j] = 32'd0;
        rd_o_q = 32'd0;
      end
`endif
    end else begin : gen_no_odd
      // One warp: every warp is even. The odd port reads as zero.
      wire unused = &{1'b0, raddr_o_i, wpar_i};
      assign rdata_o_o = 32'd0;
    end
  endgenerate

`ifndef SYNTHESIS
  // Simulation only: a defined start (values read before being written
  // are those of registers a thread never set; the model reads 0).
  integer i;
  initial begin
    for (i = 0; i < DEPTH; i = i + 1) even_q[i] = 32'd0;
    rd_e_q = 32'd0;
  end
`endif

endmodule
