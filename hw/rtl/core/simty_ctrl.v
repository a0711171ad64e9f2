// SPDX-License-Identifier: Apache-2.0
// simty_ctrl: the core's warp and issue control. Per warp: busy from
// dispatch until its threads have ended and its instructions drained
// (busy_q, ended_q); which warps fetch (fetch_live_o, fetch_elig_o) and
// may issue (sched_ready_o) and the cycles in which none does
// (sched_hold_o); the instruction buffer flush (a redirect or
// a dispatch). The issue rules of the divide (M) and the atomic unit (A),
// with their tokens, and the cycles in which their results take GA. The
// core is idle when no stage holds an instruction and no unit works.
// MB's own decision (hold, commit, fault, redirect) is in simty_stage_mb.
`default_nettype none

module simty_ctrl #(
  parameter integer WARPS = 4,
  parameter integer WARP_BITS = 2,
  parameter integer EXT_M = 0,
  parameter integer EXT_A = 0
) (
  input  wire                  clk_i,
  input  wire                  rst_i,
  input  wire                  halt_i,
  input  wire                  fault_i,       // a fault was raised: stop

  // Dispatch (simty_stage_mb's handshake)
  input  wire                  disp_go_i,
  input  wire [WARP_BITS-1:0]  disp_warp_i,
  input  wire                  disp_bubble_i,

  // Where each warp's instructions are
  input  wire                  fe_busy_i,
  input  wire [WARP_BITS-1:0]  fe_warp_i,
  input  wire [WARPS-1:0]      ib_full_next_i,
  input  wire                  rr1_valid_i,
  input  wire [WARP_BITS-1:0]  rr1_warp_i,
  input  wire                  rr2_valid_i,
  input  wire [WARP_BITS-1:0]  rr2_warp_i,
  input  wire                  ex_valid_i,
  input  wire [WARP_BITS-1:0]  ex_warp_i,
  input  wire                  mb_valid_i,
  input  wire [WARP_BITS-1:0]  mb_warp_i,
  input  wire                  ga_any_i,
  input  wire [WARP_BITS-1:0]  ga_warp_i,
  input  wire                  wb_any_i,
  input  wire [WARP_BITS-1:0]  wb_warp_i,

  // Issue
  input  wire [WARPS-1:0]      issue_at_i,    // the issuing warp, one-hot
  input  wire [WARPS-1:0]      ib_isdiv_i,    // the buffered instruction divides
  input  wire [WARPS-1:0]      ib_isamo_i,    // ... is an atomic

  // MB's outcome
  input  wire                  exec_ok_i,
  input  wire                  mb_div_i,
  input  wire                  mb_amoc_i,
  input  wire                  ended_now_i,   // the MB warp's last path ended
  input  wire [WARPS-1:0]      blocked_i,     // sorter jobs
  input  wire                  redir_q_i,
  input  wire [WARP_BITS-1:0]  redir_warp_i,

  // The divide and atomic units
  input  wire                  dv_done_i,
  input  wire                  am_done_i,
  output wire                  dv_inject_o,   // the divide's result takes GA
  output wire                  am_inject_o,   // the atomic's results take GA

  // Busy units, for idle
  input  wire                  sorter_busy_i,
  input  wire                  vclass_busy_i,
  input  wire                  dv_busy_i,
  input  wire                  am_active_i,

  output reg  [WARPS-1:0]      busy_q,
  output wire [WARPS-1:0]      fetch_live_o,
  output wire [WARPS-1:0]      fetch_elig_o,
  output wire [WARPS-1:0]      ib_flush_o,
  output wire [WARPS-1:0]      sched_ready_o,
  output wire                  sched_hold_o,
  output wire                  idle_o
);
  // Per-warp flags as WARPS-wide vectors: a stage holding warp x
  // contributes the one-hot of x.
`include "simty_warp_onehot.vh"

  // ------------------------------------------------------------------
  // Warp lifetime
  // ------------------------------------------------------------------
  reg  [WARPS-1:0] ended_q;
  wire [WARPS-1:0] inflight = `SIMTY_AT(rr1_valid_i, rr1_warp_i) | `SIMTY_AT(rr2_valid_i, rr2_warp_i) |
                              `SIMTY_AT(ex_valid_i, ex_warp_i) | `SIMTY_AT(mb_valid_i, mb_warp_i) |
                              `SIMTY_AT(ga_any_i, ga_warp_i) | `SIMTY_AT(wb_any_i, wb_warp_i) |
                              `SIMTY_AT(fe_busy_i, fe_warp_i);
  wire [WARPS-1:0] run = {WARPS{!fault_i && !halt_i}};
  assign fetch_live_o = busy_q & ~ended_q & run;
  wire [WARPS-1:0] disp_at = `SIMTY_AT(disp_go_i, disp_warp_i);
  // Fetch steering picks a cycle ahead: the warps that may fetch in the
  // next cycle, as far as this cycle knows. A warp dispatched now is live
  // then with an empty buffer; one that ends, faults or halts is dropped
  // by steering's check of fetch_live_o; a slot freed by this cycle's
  // issue counts a cycle later; steering leaves out the warp it fetches
  // now (in stage 2 next cycle).
  assign fetch_elig_o = ((busy_q & ~ended_q) | disp_at) & run & ~ib_full_next_i;
  assign ib_flush_o = `SIMTY_AT(redir_q_i, redir_warp_i) | disp_at;
  // A dispatch (re)starts its warp; otherwise the warp ends when its
  // last path does and stops being busy once it has drained.
  always @(posedge clk_i) begin
    if (rst_i) begin
      busy_q  <= {WARPS{1'b0}};
      ended_q <= {WARPS{1'b0}};
    end else begin
      busy_q  <= disp_at | (busy_q & ~(ended_q & ~inflight));
      ended_q <= ~disp_at & (ended_q | `SIMTY_AT(ended_now_i, mb_warp_i));
    end
  end

  // Per warp rules go to the scheduler's requests; the cycles in which
  // no warp issues (a fault, a halt, a dispatch bubble, a result slot for
  // the divide or the atomic unit) to its hold.
  wire [WARPS-1:0] div_block;    // M: divide issue rule
  wire [WARPS-1:0] amo_block;    // A: atomic issue rule
  wire             div_hold, amo_hold;
  assign sched_ready_o = busy_q & ~ended_q & ~blocked_i & ~div_block & ~amo_block;
  assign sched_hold_o  = fault_i || halt_i || disp_bubble_i || div_hold || amo_hold;

  assign idle_o = !rr1_valid_i && !rr2_valid_i && !ex_valid_i && !mb_valid_i &&
                  !ga_any_i && !wb_any_i && !sorter_busy_i && !vclass_busy_i &&
                  !dv_busy_i && !am_active_i;

  // ------------------------------------------------------------------
  // Divide (M). One divide unit (simty_div) serves one warp instruction at
  // a time; a divide holds a token from its issue until its result is
  // written back, and while it does:
  //   - its warp issues nothing (the next instruction may use the result,
  //     and none of the warp's later instructions may overtake it);
  //   - no other warp issues a divide (predecoded from the fetched word,
  //     per warp like the ibuf's fields); other instructions issue.
  // So a divide never waits in the pipeline for the unit: it is not
  // issued, which counts neither as an instruction nor as a replay. The
  // divide in EX loads its operands; when it commits in MB it retires
  // (counters, trace, instret, path: like an ALU instruction) and the unit
  // starts; a divide that does not commit (stale, lost, fault) releases
  // the token and its warp fetches it again. When the unit is done, the
  // scheduler skips one issue cycle, so that MB is empty at the latest
  // four cycles later, and the result takes GA in the first cycle in which
  // MB is empty (dv_inject_o); the token is released there.
  // ------------------------------------------------------------------
  generate
    if (EXT_M != 0) begin : gen_div
      wire                issue_div = (issue_at_i & ib_isdiv_i) != {WARPS{1'b0}};
      reg                 dv_tok_q;
      reg [WARPS-1:0]     dv_tok_at_q;   // the token's warp, one-hot
      reg                 dv_done_q;
      always @(posedge clk_i) begin
        if (rst_i) begin
          dv_tok_q  <= 1'b0;
          dv_done_q <= 1'b0;
        end else begin
          if (issue_div) dv_tok_q <= 1'b1;
          else if ((mb_valid_i && mb_div_i && !exec_ok_i) || dv_inject_o) dv_tok_q <= 1'b0;
          dv_done_q <= dv_done_i;
        end
        if (issue_div) dv_tok_at_q <= issue_at_i;
      end
      assign div_block = dv_tok_q ? (ib_isdiv_i | dv_tok_at_q) :
                                    {WARPS{1'b0}};
      assign div_hold  = dv_done_i && !dv_done_q;
      assign dv_inject_o = dv_done_i && !mb_valid_i;
    end else begin : gen_no_div
      assign div_block   = {WARPS{1'b0}};
      assign div_hold    = 1'b0;
      assign dv_inject_o = 1'b0;
      wire unused_div = &{1'b0, mb_div_i, ib_isdiv_i, dv_done_i};
    end
  endgenerate

  // ------------------------------------------------------------------
  // Atomics (A). One atomic unit (simty_amo) serves one warp instruction
  // at a time, with the same issue rule as the divide: an atomic holds a
  // token from its issue until its results are written back, and while it
  // does its warp issues nothing and no other warp issues an atomic. The
  // atomic in MB is checked, coalesced, counted and retired like a load,
  // and reads its line; when it commits, the unit applies its lanes one per
  // cycle and writes the line back, and until that write (its busy) every
  // memory instruction reaching MB replays (hold, simty_stage_mb), so that
  // no access of another warp falls inside the atomic. The results then
  // take GA in the first cycle in which MB is empty and no divide result
  // does; while they wait, no warp issues. An atomic that does not commit
  // releases the token and its warp fetches it again.
  // ------------------------------------------------------------------
  generate
    if (EXT_A != 0) begin : gen_amo
      wire                issue_amo = (issue_at_i & ib_isamo_i) != {WARPS{1'b0}};
      reg                 am_tok_q;
      reg [WARPS-1:0]     am_tok_at_q;   // the token's warp, one-hot
      always @(posedge clk_i) begin
        if (rst_i) am_tok_q <= 1'b0;
        else if (issue_amo) am_tok_q <= 1'b1;
        else if ((mb_valid_i && mb_amoc_i && !exec_ok_i) || am_inject_o) am_tok_q <= 1'b0;
        if (issue_amo) am_tok_at_q <= issue_at_i;
      end
      assign amo_block = am_tok_q ? (ib_isamo_i | am_tok_at_q) :
                                    {WARPS{1'b0}};
      assign amo_hold  = am_done_i;
      assign am_inject_o = am_done_i && !mb_valid_i && !dv_inject_o;
    end else begin : gen_no_amo
      assign amo_block   = {WARPS{1'b0}};
      assign amo_hold    = 1'b0;
      assign am_inject_o = 1'b0;
      wire unused_amo = &{1'b0, mb_amoc_i, ib_isamo_i, am_done_i};
    end
  endgenerate
  generate
    if (EXT_M == 0 && EXT_A == 0) begin : gen_no_tok
      wire unused_issue = &{1'b0, issue_at_i, exec_ok_i};
    end
  endgenerate
endmodule
