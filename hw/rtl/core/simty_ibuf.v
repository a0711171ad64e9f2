// SPDX-License-Identifier: Apache-2.0
// simty_ibuf: pipeline stage 3, the instruction buffer, one entry per warp.
// The register fields the scheduler checks for every warp at once live in
// flops; the instruction word, pc and prediction bit (read only for the
// issued warp) live in a 1R1W block RAM read in operand-collect stage 1,
// data in stage 2 (PCW + 33 bits: 48, three 16-bit iCE40 block RAMs, with
// 64 KiB of CODE). The fetch epoch and the out-of-range flag stay in
// flops, read alongside the RAM.
`default_nettype none

module simty_ibuf #(
  parameter integer WARPS = 4,
  parameter integer WARP_BITS = 2,
  parameter integer EPOCH_BITS = 3,
  parameter integer PCW = 15,
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
  input  wire                  pred_i,
  input  wire [WARPS-1:0]      flush_i,    // redirect / end: drop entry
  input  wire                  issue_i,
  input  wire [WARP_BITS-1:0]  issue_warp_i,
  input  wire [WARP_BITS-1:0]  rd_warp_i,   // the warp issued last cycle
  // Per-warp view for the scheduler
  output wire [WARPS-1:0]      valid_o,
  output wire [WARPS*5-1:0]    rs1_o,
  output wire [WARPS*5-1:0]    rs2_o,
  output wire [WARPS*5-1:0]    rd_o,
  output wire [WARPS-1:0]      use1_o,
  output wire [WARPS-1:0]      use2_o,
  output wire [WARPS-1:0]      wr_o,
  // The issued entry, two cycles after issue (read in RR1, data in RR2)
  output wire [PCW-1:0]           rd_pc_o,
  output wire [31:0]           rd_word_o,
  output wire                  rd_oor_o,
  output wire [EPOCH_BITS-1:0] rd_epoch_o,
  output wire                  rd_pred_o
);

  localparam integer W = PCW + 32 + 1;

  reg [WARPS-1:0] valid_q;
  reg [4:0]       rs1_q [0:WARPS-1];
  reg [4:0]       rs2_q [0:WARPS-1];
  reg [4:0]       rd_q  [0:WARPS-1];
  reg [WARPS-1:0] use1_q, use2_q, wr_q;
  reg [WARPS-1:0] oor_q;
  reg [EPOCH_BITS-1:0] epoch_q [0:WARPS-1];

  genvar w;
  generate
    for (w = 0; w < WARPS; w = w + 1) begin : gen_warp
      wire fill = we_i && wwarp_i == w;
      always @(posedge clk_i) begin
        if (rst_i) begin
          valid_q[w] <= 1'b0;
        end else if (flush_i[w] || (issue_i && issue_warp_i == w)) begin
          valid_q[w] <= 1'b0;
        end else if (fill) begin
          valid_q[w] <= 1'b1;
        end
        if (fill) begin
          rs1_q[w]  <= rs1_i;
          rs2_q[w]  <= rs2_i;
          rd_q[w]   <= rd_i;
          use1_q[w] <= use1_i;
          use2_q[w] <= use2_i;
          wr_q[w]   <= wr_i;
          oor_q[w]  <= oor_i;
          epoch_q[w] <= epoch_i;
        end
      end
      assign rs1_o[w*5 +: 5] = rs1_q[w];
      assign rs2_o[w*5 +: 5] = rs2_q[w];
      assign rd_o[w*5 +: 5]  = rd_q[w];
    end
  endgenerate

  assign valid_o = valid_q;
  assign use1_o  = use1_q;
  assign use2_o  = use2_q;
  assign wr_o    = wr_q;

  // The entry is read in RR1, the cycle after issue, so that its data
  // arrives in RR2 straight from the RAM (no pipeline register of its own:
  // each would be a flop with no LUT, one iCE40 logic cell per bit). It
  // cannot have changed: a warp's next fetch is steered at the earliest
  // in the cycle after issue and writes the entry a cycle later. The
  // flop fields follow the RAM's timing.
  reg                  rd_oor_q;
  reg [EPOCH_BITS-1:0] rd_epoch_q;
  always @(posedge clk_i) begin
    rd_oor_q   <= oor_q[rd_warp_i];
    rd_epoch_q <= epoch_q[rd_warp_i];
  end
  assign rd_oor_o   = rd_oor_q;
  assign rd_epoch_o = rd_epoch_q;

  wire [W-1:0] rdata;
  simty_ram_1r1w #(.WIDTH(W), .DEPTH(WARPS), .ABITS(WARP_BITS), .BLOCK(STYLE),
                   .SAME_CYCLE(0)) u_ram (
    .clk_i   (clk_i),
    .re_i    (1'b1),
    .raddr_i (rd_warp_i),
    .rdata_o (rdata),
    .we_i    (we_i),
    .waddr_i (wwarp_i),
    .wdata_i ({pc_i, word_i, pred_i})
  );
  assign {rd_pc_o, rd_word_o, rd_pred_o} = rdata;

endmodule
