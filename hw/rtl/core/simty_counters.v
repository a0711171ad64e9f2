// SPDX-License-Identifier: Apache-2.0
// simty_counters: the performance counters of docs/architecture.md section
// 6, 64-bit each, indexed as SIMTY_COUNTER_MAP. The read port is
// registered: value_o holds the counter named by sel_i when valid_o is 1
// (at most SIMTY_CTR_COUNT cycles after sel_i changes, see below).
//
// Area: each counter is split into a short low part that takes the
// increments (LO bits, in flip-flops) and a high part (HI bits). A carry
// out of the low part only sets a pending flag. The high parts live in one
// 1-read/1-write block RAM walked by a rotating index: every cycle the walk
// reads entry r and writes back entry r - 1 (read the cycle before) plus
// that counter's pending carry, clearing the flag. Read and write
// addresses differ (N >= 2), so the RAM needs no collision logic.
//
// Exactness. A carry set by the low part in cycle t is visible from t + 1
// and is taken by the walk within N cycles; a carry in the same cycle as
// the walk takes the flag wins (the flag stays set), so each carry is
// added exactly once. The low part cannot carry twice before the walk
// takes the first: the largest increment per cycle is max(LANES, 4)
// (thread_insts and mem_requests up to LANES, path_merges up to 3 + 1),
// so two carries are at least (2^LO - max) / max >= 15 cycles apart with
// LO = LANE_BITS + 6 (2^LO = 64 LANES), more than N = 13.
//
// Clear. rst_i or clear_i zero the low parts and flags and drop the
// per-entry `written` bits: an entry whose bit is 0 reads as zero, and the
// walk's write-back sets the bit, so after a clear every high part is zero
// at once although the RAM is rewritten over the next N cycles.
//
// Events. The inputs are registered (ev_q) before they reach the low
// parts' adders, so nothing in the core's memory and branch stages ends at
// a counter adder. An event of cycle t is in the register during t + 1;
// clear_i drops the register with the rest, and the read port adds the
// registered increment (below), so what a read sees is the same as if the
// events were added in their own cycle.
//
// Read. When the walk is at the selected counter, {high + pending carry +
// the carry of this cycle's sum, low part + registered increment} (all of
// the same cycle) is latched into value_o and the latched
// index is remembered; valid_o is 1 while that index equals sel_i, and the
// latch is dropped in the first cycle it does not (so a selection that
// returns to the latched index waits for a fresh visit). The latch is
// refreshed at every visit: a valid value is the counter as it was at most
// N cycles ago. cct_peak (a max, not
// a sum) is its own register read in place of that counter's low part (its
// high part stays zero); an index >= N latches zero in one cycle.
`default_nettype none

module simty_counters #(
  parameter integer LANE_BITS = 2,
  parameter integer STYLE = 1      // high parts' storage (simty_ram_1r1w BLOCK)
) (
  input  wire               clk_i,
  input  wire               rst_i,
  input  wire               clear_i,
  input  wire [3:0]         sel_i,
  output reg  [63:0]        value_o,
  output wire               valid_o,       // value_o is counter sel_i
  input  wire               busy_i,        // a warp is busy: count cycles
  input  wire               issue_i,
  input  wire               exec_i,        // a warp instruction executed
  input  wire [LANE_BITS:0] threads_i,     // lanes that retired it
  input  wire               divergent_i,
  input  wire [1:0]         merges_i,
  input  wire               smerge_i,
  input  wire               replay_mem_i,
  input  wire               replay_ind_i,
  input  wire               mem_i,         // a memory transaction
  input  wire [LANE_BITS:0] requests_i,
  input  wire               peak_valid_i,
  input  wire [LANE_BITS:0] peak_i,
  input  wire               uniform_i,
  input  wire               affine_i
);
// The contract include declares every constant; each block uses a few.
// verilator lint_off UNUSEDPARAM
`include "simty_arch.vh"
// verilator lint_on UNUSEDPARAM

  localparam integer N  = SIMTY_CTR_COUNT;
  localparam integer LO = LANE_BITS + 6;   // >= 15 cycles between carries
  localparam integer HI = 64 - LO;
  localparam integer RB = 4;               // walk index bits (N <= 16)
  localparam [31:0]   NL32  = N - 1;
  localparam [RB-1:0] NLAST = NL32[RB-1:0];
  localparam integer  PEAK  = SIMTY_CTR_cct_peak;
  localparam [31:0]   N32   = N;
  localparam [RB:0]   NSEL  = N32[RB:0];

  wire clr = rst_i || clear_i;

  // ---- Events, registered ----
  reg               busy_q, issue_q, exec_q, divergent_q, smerge_q;
  reg               replay_mem_q, replay_ind_q, mem_q, peak_valid_q;
  reg               uniform_q, affine_q;
  reg [1:0]         merges_q;
  reg [LANE_BITS:0] threads_q, requests_q, peak_in_q;
  always @(posedge clk_i) begin
    if (clr) begin
      busy_q <= 1'b0; issue_q <= 1'b0; exec_q <= 1'b0;
      divergent_q <= 1'b0; smerge_q <= 1'b0; merges_q <= 2'd0;
      replay_mem_q <= 1'b0; replay_ind_q <= 1'b0; mem_q <= 1'b0;
      peak_valid_q <= 1'b0; uniform_q <= 1'b0; affine_q <= 1'b0;
      threads_q <= {(LANE_BITS+1){1'b0}};
      requests_q <= {(LANE_BITS+1){1'b0}};
    end else begin
      busy_q <= busy_i; issue_q <= issue_i; exec_q <= exec_i;
      divergent_q <= divergent_i; smerge_q <= smerge_i; merges_q <= merges_i;
      replay_mem_q <= replay_mem_i; replay_ind_q <= replay_ind_i;
      mem_q <= mem_i; peak_valid_q <= peak_valid_i;
      uniform_q <= uniform_i; affine_q <= affine_i;
      threads_q <= threads_i; requests_q <= requests_i;
    end
    peak_in_q <= peak_i;
  end

  // Increment of each counter this cycle, one wire per counter, read by
  // its generate block with a constant index: no table for synthesis,
  // and no function call for Verilator (which evaluates those through
  // stored temporaries). cct_peak's is zero and unused (a max, not a sum).
  wire [LO-1:0] inc_v [0:N-1];
  assign inc_v[SIMTY_CTR_cycles]             = {{(LO-1){1'b0}}, busy_q};
  assign inc_v[SIMTY_CTR_warp_insts]         = {{(LO-1){1'b0}}, exec_q};
  assign inc_v[SIMTY_CTR_thread_insts]       = {{(LO-LANE_BITS-1){1'b0}}, threads_q};
  assign inc_v[SIMTY_CTR_divergent_branches] = {{(LO-1){1'b0}}, divergent_q};
  assign inc_v[SIMTY_CTR_path_merges]        = {{(LO-2){1'b0}}, merges_q} +
                                               {{(LO-1){1'b0}}, smerge_q};
  assign inc_v[SIMTY_CTR_replays_mem]        = {{(LO-1){1'b0}}, replay_mem_q};
  assign inc_v[SIMTY_CTR_replays_indirect]   = {{(LO-1){1'b0}}, replay_ind_q};
  assign inc_v[SIMTY_CTR_mem_requests]       = {{(LO-LANE_BITS-1){1'b0}}, requests_q};
  assign inc_v[SIMTY_CTR_mem_transactions]   = {{(LO-1){1'b0}}, mem_q};
  assign inc_v[SIMTY_CTR_sched_idle_cycles]  = {{(LO-1){1'b0}}, busy_q && !issue_q};
  assign inc_v[SIMTY_CTR_cct_peak]           = {LO{1'b0}};
  assign inc_v[SIMTY_CTR_uniform_vectors]    = {{(LO-1){1'b0}}, uniform_q};
  assign inc_v[SIMTY_CTR_affine_vectors]     = {{(LO-1){1'b0}}, affine_q};

  // ---- Walk: read entry rd_q, write back entry wr_q (read last cycle) ----
  reg  [RB-1:0] rd_q, wr_q;
  wire [RB-1:0] rd_next = (rd_q == NLAST) ? {RB{1'b0}} : rd_q + 1'b1;
  always @(posedge clk_i) begin
    if (rst_i) begin
      rd_q <= {RB{1'b0}};
      wr_q <= NLAST;
    end else begin
      rd_q <= rd_next;
      wr_q <= rd_q;
    end
  end

  // ---- Low parts, pending carries, written bits (per counter) ----
  // lo_v is the low part as read: with the registered increment added
  // (cct_peak: the peak register, or the registered peak if larger); cy_v
  // is that sum's carry, which the flag takes at the end of the cycle.
  wire [LO-1:0] lo_v [0:N-1];
  wire [N-1:0]  cp_v, cy_v;
  reg  [N-1:0]  wrt_q;
  reg  [LANE_BITS:0] peak_q;

  genvar c;
  generate
    for (c = 0; c < N; c = c + 1) begin : gen_ctr
      if (c == PEAK) begin : gen_peak
        wire [LANE_BITS:0] peak_now =
          (peak_valid_q && peak_in_q > peak_q) ? peak_in_q : peak_q;
        assign lo_v[c] = {{(LO-LANE_BITS-1){1'b0}}, peak_now};
        assign cp_v[c] = 1'b0;
        assign cy_v[c] = 1'b0;
        always @(posedge clk_i) begin
          if (clr) peak_q <= {(LANE_BITS+1){1'b0}};
          else peak_q <= peak_now;
        end
      end else begin : gen_sum
        reg [LO-1:0] lo_q;
        reg          cp_q;
        wire [LO:0]  sum = {1'b0, lo_q} + {1'b0, inc_v[c]};
        always @(posedge clk_i) begin
          if (clr) begin
            lo_q <= {LO{1'b0}};
            cp_q <= 1'b0;
          end else begin
            lo_q <= sum[LO-1:0];
            // a new carry wins over the one the walk takes this cycle
            if (sum[LO]) cp_q <= 1'b1;
            else if (wr_q == c) cp_q <= 1'b0;
          end
        end
        assign lo_v[c] = sum[LO-1:0];
        assign cp_v[c] = cp_q;
        assign cy_v[c] = sum[LO];
      end
      always @(posedge clk_i) begin
        if (clr) wrt_q[c] <= 1'b0;
        else if (wr_q == c) wrt_q[c] <= 1'b1;
      end
    end
  endgenerate

  // ---- High parts: block RAM ----
  wire [HI-1:0] hi_rd;
  wire [HI-1:0] hi_sum = hi_rd + {{(HI-1){1'b0}}, cp_v[wr_q]};
  wire [HI-1:0] hi_new = wrt_q[wr_q] ? hi_sum :
                         {{(HI-1){1'b0}}, cp_v[wr_q]};

  simty_ram_1r1w #(
    .WIDTH(HI), .DEPTH(N), .ABITS(RB), .BLOCK(STYLE), .SAME_CYCLE(0)
  ) u_hi (
    .clk_i   (clk_i),
    .re_i    (1'b1),
    .raddr_i (rd_q),
    .rdata_o (hi_rd),
    .we_i    (1'b1),
    .waddr_i (wr_q),
    .wdata_i (hi_new)
  );

  // ---- Read port ----
  // The high part as of this cycle's sum: the walk's write-back value plus
  // the carry the low part produces now (never both a pending flag and a
  // new carry, see "Exactness"; the sum covers it anyway).
  wire [HI-1:0] hi_rd_now = hi_new + {{(HI-1){1'b0}}, cy_v[wr_q]};
  wire       in_range = {1'b0, sel_i} < NSEL;
  reg  [3:0] vsel_q;
  reg        vok_q;
  always @(posedge clk_i) begin
    if (clr) begin
      vok_q <= 1'b0;
    end else if (!in_range || wr_q == sel_i) begin
      vok_q <= 1'b1;
      vsel_q <= sel_i;
      value_o <= in_range ? {hi_rd_now, lo_v[wr_q]} : 64'd0;
    end else if (vsel_q != sel_i) begin
      vok_q <= 1'b0;   // never valid again on a latch gone stale
    end
  end
  assign valid_o = vok_q && vsel_q == sel_i;

endmodule
