// SPDX-License-Identifier: Apache-2.0
// simty_csr: the read-only CSRs of docs/architecture.md section 2 (operand-
// collect stage 2). Every CSR value is uniform across the warp except the
// low bits of the two per-lane ids: mhartid = warp * LANES + lane and
// simty_tid = base_tid + lane, where warp * LANES and base_tid are
// multiples of LANES (the dispatch interface requires an aligned base). So
// one 32-bit value is selected here for the whole warp and travels as the
// instruction's immediate; each lane ORs its index into the low bits
// (`lane_o`) and the ALU adds it to x0. No per-lane adder or multiplexer.
`default_nettype none

module simty_csr #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer WARP_BITS = 2
) (
  input  wire [2:0]           sel_i,
  input  wire [WARP_BITS-1:0] warp_i,
  input  wire [31:0]          base_tid_i,   // the warp's block, aligned
  input  wire [31:0]          nthreads_i,
  input  wire [31:0]          args_i,
  input  wire [31:0]          stack_top_i,
  input  wire [4:0]           stack_log2_i,
  output reg  [31:0]          value_o,      // the value of lane 0
  output wire                 lane_o        // lane l reads value_o | l
);

  localparam [31:0] NLANES = LANES;
  localparam [31:0] NWARPS = WARPS;
  wire [31:0] hart0 = {{(32-WARP_BITS){1'b0}}, warp_i} * NLANES;

  always @* begin
    case (sel_i)
      3'd0: value_o = hart0;
      3'd1: value_o = base_tid_i;
      3'd2: value_o = nthreads_i;
      3'd3: value_o = NLANES;
      3'd4: value_o = NWARPS;
      3'd5: value_o = args_i;
      3'd6: value_o = stack_top_i;
      default: value_o = {27'd0, stack_log2_i};
    endcase
  end
  assign lane_o = sel_i == 3'd0 || sel_i == 3'd1;

endmodule
