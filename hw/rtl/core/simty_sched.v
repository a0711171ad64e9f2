// SPDX-License-Identifier: Apache-2.0
// simty_sched: pipeline stage 4, the scheduler. Qualifies the warps whose
// buffered instruction can issue (dependencies on older in-flight
// instructions of the same warp, a warp never in two adjacent stages) and
// selects one round robin. A hold (a cycle in which no warp issues)
// applies to the pick, not to the requests: the same warp would be picked
// either way, and the pick's long path does not wait for it.
`default_nettype none

module simty_sched #(
  parameter integer WARPS = 4,
  parameter integer WARP_BITS = 2
) (
  input  wire                  clk_i,
  input  wire                  rst_i,
  input  wire [WARPS-1:0]      ready_i,    // warp may run (not blocked)
  input  wire                  hold_i,     // no warp issues this cycle
  input  wire [WARPS-1:0]      ib_valid_i,
  input  wire [WARPS*5-1:0]    ib_rs1_i,
  input  wire [WARPS*5-1:0]    ib_rs2_i,
  input  wire [WARPS-1:0]      ib_use1_i,
  input  wire [WARPS-1:0]      ib_use2_i,
  // Instructions already issued: operand-collect 1 and 2, execute.
  input  wire                  rr1_valid_i,
  input  wire [WARP_BITS-1:0]  rr1_warp_i,
  input  wire                  rr2_valid_i,
  input  wire [WARP_BITS-1:0]  rr2_warp_i,
  input  wire                  rr2_wr_i,
  input  wire [4:0]            rr2_rd_i,
  input  wire                  ex_valid_i,
  input  wire [WARP_BITS-1:0]  ex_warp_i,
  input  wire                  ex_wr_i,
  input  wire [4:0]            ex_rd_i,
  output wire                  issue_o,
  output wire [WARPS-1:0]      issue_at_o, // the issuing warp, one-hot
  output wire [WARP_BITS-1:0]  issue_warp_o
);

  reg [WARP_BITS-1:0] last_q;

  // Results reach the operands from distance 4 on (the banks are written
  // at the end of WB; an operand read before the write lands is patched
  // from WB or WB2, simty_operand): a consumer waits while its producer is
  // in RR2 or EX.
  // Written as WARPS-wide vectors (one XOR of all buffered register
  // numbers against each producer, one-hot producer warps) rather than a
  // loop over warps: the same gates, and a fraction of the work for the
  // simulator (docs/performance.md, "Simulation speed").
`include "simty_warp_onehot.vh"
  wire [WARPS*5-1:0] x1_rr2 = ib_rs1_i ^ {WARPS{rr2_rd_i}};
  wire [WARPS*5-1:0] x2_rr2 = ib_rs2_i ^ {WARPS{rr2_rd_i}};
  wire [WARPS*5-1:0] x1_ex  = ib_rs1_i ^ {WARPS{ex_rd_i}};
  wire [WARPS*5-1:0] x2_ex  = ib_rs2_i ^ {WARPS{ex_rd_i}};
  reg  [WARPS-1:0] e1_rr2, e2_rr2, e1_ex, e2_ex;
  integer w;
  always @* begin
    for (w = 0; w < WARPS; w = w + 1) begin
      e1_rr2[w] = x1_rr2[w*5 +: 5] == 5'd0;
      e2_rr2[w] = x2_rr2[w*5 +: 5] == 5'd0;
      e1_ex[w]  = x1_ex[w*5 +: 5] == 5'd0;
      e2_ex[w]  = x2_ex[w*5 +: 5] == 5'd0;
    end
  end
  wire [WARPS-1:0] at_rr1 = `SIMTY_AT(rr1_valid_i, rr1_warp_i);
  wire [WARPS-1:0] at_rr2 = `SIMTY_AT(rr2_valid_i && rr2_wr_i, rr2_warp_i);
  wire [WARPS-1:0] at_ex  = `SIMTY_AT(ex_valid_i && ex_wr_i, ex_warp_i);
  wire [WARPS-1:0] dep =
    (at_rr2 & ((ib_use1_i & e1_rr2) | (ib_use2_i & e2_rr2))) |
    (at_ex  & ((ib_use1_i & e1_ex)  | (ib_use2_i & e2_ex)));
  wire [WARPS-1:0] can = ready_i & ib_valid_i & ~dep & ~at_rr1;

  wire             pick_v;
  wire [WARPS-1:0] pick_at;
  simty_rr_pick #(.N(WARPS), .B(WARP_BITS)) u_rr (
    .req_i (can), .last_i (last_q), .valid_o (pick_v), .grant_o (pick_at),
    .pick_o (issue_warp_o)
  );
  assign issue_o    = pick_v && !hold_i;
  assign issue_at_o = pick_at & {WARPS{!hold_i}};

  always @(posedge clk_i) begin
    if (rst_i) last_q <= {WARP_BITS{1'b0}};
    else if (issue_o) last_q <= issue_warp_o;
  end

endmodule
