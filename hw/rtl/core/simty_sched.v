// SPDX-License-Identifier: Apache-2.0
// simty_sched: pipeline stage 4, the scheduler. Qualifies the warps whose
// buffered instruction can issue (dependencies on older in-flight
// instructions of the same warp, a warp never in two adjacent stages) and
// selects one round robin. A hold (a cycle in which no warp issues)
// applies to the pick, not to the requests: the same warp would be picked
// either way, and the pick's long path does not wait for it.
//
// Both qualifiers are registered, so the pick starts from flops. A warp's
// dependency in cycle t is on its producers in RR2 and EX, which were in
// RR1 and RR2 in cycle t - 1 (the stages between never stall), against
// its head entry in cycle t: the entry of t - 1, or the one the fetch
// writes into an empty head at the end of t - 1. A warp that issues in
// t - 1 shifts its head too, but sits in RR1 in cycle t and cannot issue
// then, so the shift needs no case of its own. The warp in RR1 is the one
// issued in t - 1, kept one-hot.
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
  // The fetch's write into the instruction buffer (simty_fetch)
  input  wire                  fill_i,
  input  wire [WARP_BITS-1:0]  fill_warp_i,
  input  wire [4:0]            fill_rs1_i,
  input  wire [4:0]            fill_rs2_i,
  input  wire                  fill_use1_i,
  input  wire                  fill_use2_i,
  // Instructions already issued: operand-collect 1 and 2, in RR2 and EX
  // next cycle
  input  wire                  rr1_valid_i,
  input  wire [WARP_BITS-1:0]  rr1_warp_i,
  input  wire                  rr1_wr_i,
  input  wire [4:0]            rr1_rd_i,
  input  wire                  rr2_valid_i,
  input  wire [WARP_BITS-1:0]  rr2_warp_i,
  input  wire                  rr2_wr_i,
  input  wire [4:0]            rr2_rd_i,
  output wire                  issue_o,
  output wire [WARPS-1:0]      issue_at_o, // the issuing warp, one-hot
  output wire [WARP_BITS-1:0]  issue_warp_o
);

  reg [WARP_BITS-1:0] last_q;
  reg [WARPS-1:0]     dep_q;       // waits for a producer in RR2 or EX
  reg [WARPS-1:0]     at_rr1_q;    // in RR1

  // Results reach the operands from distance 4 on (the banks are written
  // at the end of WB; an operand read before the write lands is patched
  // from WB or WB2, simty_operand): a consumer waits while its producer is
  // in RR2 or EX.
  // Written as WARPS-wide vectors (one XOR of all buffered register
  // numbers against each producer, one-hot producer warps) rather than a
  // loop over warps: the same gates, and a fraction of the work for the
  // simulator (docs/performance.md, "Simulation speed").
`include "simty_warp_onehot.vh"
  // next cycle's producers: RR1's warp goes to RR2, RR2's to EX
  wire [WARPS-1:0] to_rr2 = `SIMTY_AT(rr1_valid_i && rr1_wr_i, rr1_warp_i);
  wire [WARPS-1:0] to_ex  = `SIMTY_AT(rr2_valid_i && rr2_wr_i, rr2_warp_i);
  // the head entries as they are, against each producer
  wire [WARPS*5-1:0] x1_rr2 = ib_rs1_i ^ {WARPS{rr1_rd_i}};
  wire [WARPS*5-1:0] x2_rr2 = ib_rs2_i ^ {WARPS{rr1_rd_i}};
  wire [WARPS*5-1:0] x1_ex  = ib_rs1_i ^ {WARPS{rr2_rd_i}};
  wire [WARPS*5-1:0] x2_ex  = ib_rs2_i ^ {WARPS{rr2_rd_i}};
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
  wire [WARPS-1:0] dep_old =
    (to_rr2 & ((ib_use1_i & e1_rr2) | (ib_use2_i & e2_rr2))) |
    (to_ex  & ((ib_use1_i & e1_ex)  | (ib_use2_i & e2_ex)));
  // the entry being written, against each producer
  wire f_rr2 = (fill_use1_i && fill_rs1_i == rr1_rd_i) ||
               (fill_use2_i && fill_rs2_i == rr1_rd_i);
  wire f_ex  = (fill_use1_i && fill_rs1_i == rr2_rd_i) ||
               (fill_use2_i && fill_rs2_i == rr2_rd_i);
  wire [WARPS-1:0] dep_new = (to_rr2 & {WARPS{f_rr2}}) | (to_ex & {WARPS{f_ex}});
  // a write lands in the head when the head is empty
  wire [WARPS-1:0] to_head = `SIMTY_AT(fill_i, fill_warp_i) & ~ib_valid_i;

  always @(posedge clk_i) begin
    if (rst_i) begin
      dep_q    <= {WARPS{1'b0}};
      at_rr1_q <= {WARPS{1'b0}};
    end else begin
      dep_q    <= (to_head & dep_new) | (~to_head & dep_old);
      at_rr1_q <= issue_at_o;
    end
  end

  wire [WARPS-1:0] can = ready_i & ib_valid_i & ~dep_q & ~at_rr1_q;

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
