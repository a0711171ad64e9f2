// SPDX-License-Identifier: Apache-2.0
// simty_fetch_steer: pipeline stage 1, fetch steering. Picks a warp round
// robin and reads its speculative pc. The next pc is predicted by fetch /
// predecode (pc + 4, or the target of a backward branch, a jal or a
// return), which writes it back: a warp is not fetched again before that.
// The membership stage redirects a warp when its hot path goes elsewhere;
// the redirect (registered) is fetched in the cycle it arrives, ahead of
// the round robin, with the new pc and epoch it writes here.
//
// The round robin picks a cycle ahead (pick_q), so the instruction
// memory's address comes from registers through two multiplexers (the
// warp's pc, then the redirect's). The pick is among the warps that may
// fetch in the next cycle as far as this one knows (elig_i), less the
// warp fetched now; in its cycle it only checks that its warp is still
// live (live_i).
`default_nettype none

module simty_fetch_steer #(
  parameter integer WARPS = 4,
  parameter integer WARP_BITS = 2,
  parameter integer EPOCH_BITS = 3,
  parameter integer PCW = 15            // code word offset bits
) (
  input  wire                  clk_i,
  input  wire                  rst_i,
  input  wire [WARPS-1:0]      elig_i,        // may fetch next cycle
  input  wire [WARPS-1:0]      live_i,        // may fetch (buffer aside)
  // Redirect from membership, registered (a busy warp), and dispatch (an
  // idle warp): never in the same cycle (the core holds dispatch back).
  input  wire                  redir_valid_i,
  input  wire [WARP_BITS-1:0]  redir_warp_i,
  input  wire [PCW-1:0]           redir_pc_i,
  input  wire                  disp_valid_i,
  input  wire [WARP_BITS-1:0]  disp_warp_i,
  input  wire [PCW-1:0]           disp_pc_i,
  // Fetch / predecode advances the warp it just fetched to its predicted
  // next pc (pc + 4, or a predicted jump target)
  input  wire                  adv_valid_i,
  input  wire [WARP_BITS-1:0]  adv_warp_i,
  input  wire [PCW-1:0]           adv_pc_i,
  output wire                  fs_valid_o,
  output wire [WARP_BITS-1:0]  fs_warp_o,
  output wire [PCW-1:0]        fs_pc_o,       // word offset into CODE
  output wire [EPOCH_BITS-1:0] fs_epoch_o,    // the fetch's epoch
  output wire [WARPS*EPOCH_BITS-1:0] epoch_o  // current fetch epoch per warp
);

`include "simty_warp_onehot.vh"

  reg [PCW-1:0]        spc_q   [0:WARPS-1];
  reg [EPOCH_BITS-1:0] epoch_q [0:WARPS-1];
  reg [WARP_BITS-1:0]  last_q;
  reg                  pick_valid_q;
  reg [WARP_BITS-1:0]  pick_q;

  // A redirect takes the slot: its warp is fetched at its new pc now (its
  // buffer is flushed and any fetch of it in stage 2 killed in this same
  // cycle), with the epoch it gets at the end of the cycle. Otherwise the
  // warp picked last cycle, if still live.
  assign fs_valid_o = redir_valid_i ? live_i[redir_warp_i] : pick_valid_q && live_i[pick_q];
  assign fs_warp_o  = redir_valid_i ? redir_warp_i : pick_q;
  assign fs_pc_o    = redir_valid_i ? redir_pc_i : spc_q[pick_q];
  assign fs_epoch_o = redir_valid_i ? epoch_q[redir_warp_i] + 1'b1 : epoch_q[pick_q];

  // Next cycle's pick: the first eligible warp after the last one fetched,
  // the one fetched now left out (it is in stage 2 then).
  wire [WARP_BITS-1:0] last_d = fs_valid_o ? fs_warp_o : last_q;
  wire [WARPS-1:0]     fs_at  = `SIMTY_AT(fs_valid_o, fs_warp_o);
  wire                 rr_valid;
  wire [WARP_BITS-1:0] rr_warp;
  wire [WARPS-1:0] unused_rr_at;   // the pick as an index only
  simty_rr_pick #(.N(WARPS), .B(WARP_BITS)) u_rr (
    .req_i (elig_i & ~fs_at), .last_i (last_d), .valid_o (rr_valid), .grant_o (unused_rr_at), .pick_o (rr_warp)
  );

  wire [PCW-1:0] new_pc    = disp_valid_i ? disp_pc_i : redir_pc_i;

  genvar w;
  generate
    for (w = 0; w < WARPS; w = w + 1) begin : gen_warp
      wire redir_here = redir_valid_i && redir_warp_i == w;
      wire disp_here  = disp_valid_i && disp_warp_i == w;
      wire adv_here   = adv_valid_i && adv_warp_i == w;
      // One shared incrementer: only the fetched warp advances.
      always @(posedge clk_i) begin
        if (rst_i) begin
          spc_q[w]   <= {PCW{1'b0}};
          epoch_q[w] <= {EPOCH_BITS{1'b0}};
        end else begin
          if (disp_here || redir_here) spc_q[w] <= new_pc;
          else if (adv_here) spc_q[w] <= adv_pc_i;
          if (disp_here || redir_here) epoch_q[w] <= epoch_q[w] + 1'b1;
        end
      end
      assign epoch_o[w*EPOCH_BITS +: EPOCH_BITS] = epoch_q[w];
    end
  endgenerate

  always @(posedge clk_i) begin
    if (rst_i) begin
      last_q       <= {WARP_BITS{1'b0}};
      pick_valid_q <= 1'b0;
    end else begin
      last_q       <= last_d;
      pick_valid_q <= rr_valid;
    end
    pick_q <= rr_warp;
  end

endmodule
