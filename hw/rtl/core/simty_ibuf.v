// SPDX-License-Identifier: Apache-2.0
// simty_ibuf: pipeline stage 3, the instruction buffer: DEPTH entries per
// warp (1 or 2), a FIFO in fetch order. The fields the scheduler checks
// for every warp at once (register numbers, their use bits, the caller's
// AUX predecode bits) live in flops, the head entry in slot 0, so the
// scheduler reads flops with no multiplexer; an issue shifts slot 1 into
// slot 0. The instruction word, pc and predicted next pc (read only for
// the issued warp) live in a 1R1W RAM of DEPTH x WARPS words, read in
// operand-collect stage 1, data in stage 2 (2 PCW + 32 bits and the
// caller's XW: 64 with 64 KiB of CODE and a 4-entry return stack's
// pointer, four 16-bit iCE40 block RAMs), addressed {warp, slot}
// through a write and a read pointer per warp. The fetch epoch and the
// out-of-range flag stay in flops beside the RAM, read with it.
//
// With two entries a warp's next fetch runs while its buffered
// instruction waits to issue: fetch steering needs only a free slot
// (full_next_o low), so one warp can issue every second cycle (the
// scheduler's limit) instead of every third (steer, fetch, issue, then
// steer again once the entry has left).
`default_nettype none

module simty_ibuf #(
  parameter integer WARPS = 4,
  parameter integer WARP_BITS = 2,
  parameter integer EPOCH_BITS = 3,
  parameter integer PCW = 15,
  parameter integer DEPTH = 2,     // entries per warp: 1 or 2
  parameter integer AUX = 1,       // caller's predecode bits per entry
  parameter integer XW = 1,        // caller's bits carried with the word
  parameter integer STYLE = 1      // the RAM's storage (simty_ram_1r1w BLOCK)
) (
  input  wire                  clk_i,
  input  wire                  rst_i,
  input  wire                  we_i,
  input  wire [WARP_BITS-1:0]  wwarp_i,
  input  wire [PCW-1:0]           pc_i,
  input  wire [31:0]           word_i,
  input  wire                  oor_i,
  input  wire [EPOCH_BITS-1:0] epoch_i,
  input  wire [4:0]            rs1_i,
  input  wire [4:0]            rs2_i,
  input  wire [4:0]            rd_i,
  input  wire                  use1_i,
  input  wire                  use2_i,
  input  wire                  wr_i,
  input  wire [AUX-1:0]        aux_i,
  input  wire [PCW-1:0]        pnext_i,    // predicted next pc
  input  wire [XW-1:0]         x_i,
  input  wire [WARPS-1:0]      flush_i,    // redirect / dispatch: drop all
  input  wire [WARPS-1:0]      issue_at_i,  // the issuing warp, one-hot
  input  wire [WARP_BITS-1:0]  rd_warp_i,   // the warp issued last cycle
  // Per-warp view for the scheduler (the head entry) and fetch steering
  output wire [WARPS-1:0]      valid_o,
  // No free slot next cycle unless this cycle's issue frees one: fetch
  // steering picks a cycle ahead, before the issue is known
  output wire [WARPS-1:0]      full_next_o,
  output wire [WARPS*5-1:0]    rs1_o,
  output wire [WARPS*5-1:0]    rs2_o,
  output wire [WARPS-1:0]      use1_o,
  output wire [WARPS-1:0]      use2_o,
  output wire [WARPS*AUX-1:0]  aux_o,
  // The issuing warp's head entry, selected by its one-hot
  output wire [4:0]            iss_rs1_o,
  output wire [4:0]            iss_rs2_o,
  output wire [4:0]            iss_rd_o,
  output wire                  iss_use1_o,
  output wire                  iss_use2_o,
  output wire                  iss_wr_o,
  // The issued entry, two cycles after issue (read in RR1, data in RR2)
  output wire [PCW-1:0]           rd_pc_o,
  output wire [31:0]           rd_word_o,
  output wire                  rd_oor_o,
  output wire [EPOCH_BITS-1:0] rd_epoch_o,
  output wire [PCW-1:0]        rd_pnext_o,
  output wire [XW-1:0]         rd_x_o
);

  localparam integer W  = PCW + 32 + PCW + XW; // RAM word: pc, word, pnext, x
  // An entry's scheduler fields, by bit position: the register numbers and
  // use bits the issue takes (below F_AUX), then the caller's predecode
  localparam integer F_RS1 = 0, F_RS2 = 5, F_RD = 10;   // 5 bits each
  localparam integer F_USE1 = 15, F_USE2 = 16, F_WR = 17, F_AUX = 18;
  localparam integer F  = F_AUX + AUX;        // scheduler fields per entry
  localparam integer SB = (DEPTH > 1) ? 1 : 0;  // slot bits
  localparam integer E  = 1 + EPOCH_BITS;     // {oor, epoch} per entry

  // The entry as the fill writes it, each field at its position
  wire [F-1:0] fin;
  assign fin[F_RS1 +: 5]   = rs1_i;
  assign fin[F_RS2 +: 5]   = rs2_i;
  assign fin[F_RD +: 5]    = rd_i;
  assign fin[F_USE1]       = use1_i;
  assign fin[F_USE2]       = use2_i;
  assign fin[F_WR]         = wr_i;
  assign fin[F_AUX +: AUX] = aux_i;

  reg  [WARPS-1:0] v0_q, v1_q;                // slot 0 (head), slot 1 valid
  reg  [F-1:0]     f0_q [0:WARPS-1];
  reg  [F-1:0]     f1_q [0:WARPS-1];
  reg  [WARPS-1:0] wp_q, rp_q;                // RAM slot pointers (DEPTH 2)
  reg  [E-1:0]     eo_q [0:DEPTH*WARPS-1];    // {oor, epoch} by {warp, slot}

  genvar w;
  generate
    for (w = 0; w < WARPS; w = w + 1) begin : gen_warp
      wire fill  = we_i && wwarp_i == w && !flush_i[w];
      wire iss   = issue_at_i[w];
      // after this cycle's issue, before its fill
      wire v0n   = iss ? v1_q[w] : v0_q[w];
      wire to0   = fill && !v0n;
      assign full_next_o[w] = !flush_i[w] &&
                              ((DEPTH > 1) ? (v1_q[w] || (fill && v0_q[w])) : (v0_q[w] || fill));
      always @(posedge clk_i) begin
        if (rst_i || flush_i[w]) begin
          v0_q[w] <= 1'b0;
          v1_q[w] <= 1'b0;
        end else begin
          v0_q[w] <= v0n || fill;
          v1_q[w] <= DEPTH > 1 && ((v1_q[w] && !iss) || (fill && v0n));
        end
        if (to0) f0_q[w] <= fin;
        else if (iss) f0_q[w] <= f1_q[w];
        if (fill) f1_q[w] <= fin;
        // RAM pointers: a flush empties the FIFO (read = write pointer)
        if (rst_i) begin
          wp_q[w] <= 1'b0;
          rp_q[w] <= 1'b0;
        end else if (DEPTH > 1) begin
          if (fill) wp_q[w] <= !wp_q[w];
          if (flush_i[w]) rp_q[w] <= wp_q[w];
          else if (iss) rp_q[w] <= !rp_q[w];
        end
        if (fill) eo_q[DEPTH*w + ((DEPTH > 1 && wp_q[w]) ? 1 : 0)] <= {oor_i, epoch_i};
      end
      assign aux_o[w*AUX +: AUX] = f0_q[w][F_AUX +: AUX];
      assign use2_o[w]           = f0_q[w][F_USE2];
      assign use1_o[w]           = f0_q[w][F_USE1];
      assign rs2_o[w*5 +: 5]     = f0_q[w][F_RS2 +: 5];
      assign rs1_o[w*5 +: 5]     = f0_q[w][F_RS1 +: 5];
    end
  endgenerate

  assign valid_o = v0_q;

  // The issue's one-hot selects its entry and shifts its FIFO directly,
  // with no warp number to decode: the pick reaches these flops through
  // an AND-OR rather than an encoder, a compare and a multiplexer.
  reg [F_AUX-1:0] iss_f;
  integer s;
  always @* begin
    iss_f = {F_AUX{1'b0}};
    for (s = 0; s < WARPS; s = s + 1)
      iss_f = iss_f | (f0_q[s][F_AUX-1:0] & {F_AUX{issue_at_i[s]}});
  end
  assign iss_rs1_o  = iss_f[F_RS1 +: 5];
  assign iss_rs2_o  = iss_f[F_RS2 +: 5];
  assign iss_rd_o   = iss_f[F_RD +: 5];
  assign iss_use1_o = iss_f[F_USE1];
  assign iss_use2_o = iss_f[F_USE2];
  assign iss_wr_o   = iss_f[F_WR];
`ifndef SYNTHESIS
  wire [WARPS-1:0] full = (DEPTH > 1) ? v1_q : v0_q;   // no free slot
  // Simulation only: fetch steering never fills a full buffer (not even
  // in the cycle its head issues: the fill would overwrite the issued
  // entry's RAM word before RR1 reads it).
  integer k;
  always @(posedge clk_i)
    for (k = 0; k < WARPS; k = k + 1)
      if (!rst_i && we_i && wwarp_i == k[WARP_BITS-1:0] && !flush_i[k] &&
          full[k]) begin
        $display("simty_ibuf: fill of warp %0d with its buffer full", k);
        $finish;
      end
`endif

  // The issued entry is read in RR1, the cycle after issue, so that its
  // data arrives in RR2 straight from the RAM (no pipeline register of its
  // own: each would be a flop with no LUT, one iCE40 logic cell per bit).
  // Its slot cannot be written before then: fetch steering sees the slot
  // free the cycle after issue at the earliest, and that fetch writes a
  // cycle later still. The flop fields follow the RAM's timing.
  reg                  rd_slot_q;
  reg [E-1:0]          rd_eo_q;
  always @(posedge clk_i) begin
    rd_slot_q <= DEPTH > 1 && (rp_q & issue_at_i) != {WARPS{1'b0}};
    rd_eo_q   <= eo_q[DEPTH*rd_warp_i + (rd_slot_q ? 1 : 0)];
  end
  assign {rd_oor_o, rd_epoch_o} = rd_eo_q;

  // RAM address {warp, slot} (just the slot with one warp: WARP_BITS is 1)
  localparam integer AB = (DEPTH * WARPS > 1) ? $clog2(DEPTH * WARPS) : 1;
  wire [W-1:0] rdata;
  // verilator lint_off UNUSEDSIGNAL
  wire [WARP_BITS+SB-1:0] ra_full, wa_full;
  // verilator lint_on UNUSEDSIGNAL
  generate
    if (DEPTH > 1) begin : gen_a2
      assign ra_full = {rd_warp_i, rd_slot_q};
      assign wa_full = {wwarp_i, wp_q[wwarp_i]};
    end else begin : gen_a1
      assign ra_full = rd_warp_i;
      assign wa_full = wwarp_i;
      wire unused_slot = &{1'b0, wp_q, rp_q, f1_q[0]};
    end
  endgenerate
  wire [AB-1:0] ra = ra_full[AB-1:0];
  wire [AB-1:0] wa = wa_full[AB-1:0];
  simty_ram_1r1w #(.WIDTH(W), .DEPTH(DEPTH * WARPS), .ABITS(AB),
                   .BLOCK(STYLE), .SAME_CYCLE(0)) u_ram (
    .clk_i   (clk_i),
    .re_i    (1'b1),
    .raddr_i (ra),
    .rdata_o (rdata),
    .we_i    (we_i && !flush_i[wwarp_i]),
    .waddr_i (wa),
    .wdata_i ({pc_i, word_i, pnext_i, x_i})
  );
  assign {rd_pc_o, rd_word_o, rd_pnext_o, rd_x_o} = rdata;

endmodule
