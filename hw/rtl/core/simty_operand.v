// SPDX-License-Identifier: Apache-2.0
// simty_operand: pipeline stages 5-6, two-cycle operand collection. Stage
// RR1 reads the first source from the warp's bank, RR2 the second (an
// instruction with two sources holds its bank two cycles). The banks are
// written at the end of the write-back stage, from its registers
// (simty_writeback). A first operand read while its producer was in GA
// (distance 4) or writing from WB (distance 5: the read returns the old
// value) is patched per lane in RR2 from WB or WB2 (the write one cycle
// later), the newer last: the masked bypass, which keeps a lane's value
// when it did not write. A second operand read while its producer writes
// from WB (distance 4) is patched in EX from WB2, on a hit found in RR2;
// a producer still in GA then (distance 3) is kept out by the scheduler.
`default_nettype none

module simty_operand #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer WARP_BITS = 2
) (
  input  wire                   clk_i,
  input  wire                   rst_i,
  // Issue (from the scheduler and the ibuf flops)
  input  wire                   issue_i,
  input  wire [WARP_BITS-1:0]   issue_warp_i,
  input  wire [4:0]             issue_rs1_i,
  input  wire [4:0]             issue_rs2_i,
  input  wire [4:0]             issue_rd_i,
  input  wire                   issue_use1_i,
  input  wire                   issue_use2_i,
  input  wire                   issue_wr_i,
  // Stage views
  output reg                    rr1_valid_o,
  output reg  [WARP_BITS-1:0]   rr1_warp_o,
  output reg                    rr1_use2_o,
  output reg                    rr2_valid_o,
  output reg  [WARP_BITS-1:0]   rr2_warp_o,
  output reg  [4:0]             rr2_rd_o,
  output reg                    rr2_use2_o,
  output reg                    rr2_wr_o,
  output wire [32*LANES-1:0]    rr2_op1_o,   // first operand, patched
  // Second operand, read in RR2, delivered in EX
  input  wire [WARP_BITS-1:0]   ex_warp_i,
  input  wire                   ex_use2_i,
  output wire [32*LANES-1:0]    ex_op2_o,
  // Bank write port: the write-back stage's registers (written at the end
  // of WB), also the bypass source of distance 4
  input  wire                   wb_we_i,
  input  wire [WARP_BITS-1:0]   wb_warp_i,
  input  wire [4:0]             wb_rd_i,
  input  wire [LANES-1:0]       wb_mask_i,
  input  wire [32*LANES-1:0]    wb_data_i,
  // The same write one cycle later (WB2): the bypass source of the reads
  // that coincided with it
  input  wire                   wb2_we_i,
  input  wire [WARP_BITS-1:0]   wb2_warp_i,
  input  wire [4:0]             wb2_rd_i,
  input  wire [LANES-1:0]       wb2_mask_i,
  input  wire [32*LANES-1:0]    wb2_data_i
);

  localparam integer HI = (WARPS > 1) ? WARP_BITS - 1 : 0;  // warp >> 1 bits
  localparam integer BA = HI + 5;

  reg [4:0] rr1_rs1, rr1_rs2, rr1_rd;
  reg       rr1_use1, rr1_wr;
  reg [4:0] rr2_rs1, rr2_rs2;
  reg       rr2_use1;

  always @(posedge clk_i) begin
    if (rst_i) begin
      rr1_valid_o <= 1'b0;
      rr2_valid_o <= 1'b0;
    end else begin
      rr1_valid_o <= issue_i;
      rr2_valid_o <= rr1_valid_o;
    end
    rr1_warp_o  <= issue_warp_i;
    rr1_rs1     <= issue_rs1_i;
    rr1_rs2     <= issue_rs2_i;
    rr1_rd      <= issue_rd_i;
    rr1_use1    <= issue_use1_i && issue_i;
    rr1_use2_o  <= issue_use2_i && issue_i;
    rr1_wr      <= issue_wr_i;
    rr2_warp_o  <= rr1_warp_o;
    rr2_rs1     <= rr1_rs1;
    rr2_rs2     <= rr1_rs2;
    rr2_rd_o    <= rr1_rd;
    rr2_use1    <= rr1_use1 && rr1_valid_o;
    rr2_use2_o  <= rr1_use2_o && rr1_valid_o;
    rr2_wr_o    <= rr1_wr;
  end

  // Bank read addresses: RR1's first source in its bank; the other bank
  // (or the same one when RR1 does not read) serves RR2's second source.
  // A register's address in its warp's bank: {warp / 2, register}.
  wire [BA-1:0] a_rr1, a_rr2, waddr;
  generate
    if (WARPS > 2) begin : gen_baddr
      assign a_rr1 = {rr1_warp_o[WARP_BITS-1:1], rr1_rs1};
      assign a_rr2 = {rr2_warp_o[WARP_BITS-1:1], rr2_rs2};
      assign waddr = {wb_warp_i[WARP_BITS-1:1], wb_rd_i};
    end else begin : gen_baddr1
      assign a_rr1 = rr1_rs1;
      assign a_rr2 = rr2_rs2;
      assign waddr = wb_rd_i;
    end
  endgenerate

  wire rr1_par = (WARPS > 1) ? rr1_warp_o[0] : 1'b0;
  wire rr2_par = (WARPS > 1) ? rr2_warp_o[0] : 1'b0;
  wire ex_par  = (WARPS > 1) ? ex_warp_i[0]  : 1'b0;
  wire unused_ex_warp = &{1'b0, ex_warp_i};   // only its bank (parity)
  wire rr1_e = rr1_use1 && !rr1_par;
  wire rr1_o = rr1_use1 && rr1_par;
  wire [BA-1:0] raddr_e = rr1_e ? a_rr1 : a_rr2;
  wire [BA-1:0] raddr_o = rr1_o ? a_rr1 : a_rr2;
  wire          wpar = (WARPS > 1) ? wb_warp_i[0] : 1'b0;

  wire hit1_wb  = wb_we_i  && wb_warp_i  == rr2_warp_o && wb_rd_i  == rr2_rs1 && rr2_use1;
  wire hit1_wb2 = wb2_we_i && wb2_warp_i == rr2_warp_o && wb2_rd_i == rr2_rs1 && rr2_use1;
  // RR2's second-operand read meets WB's write: patched in EX from WB2
  reg  hit2_q;
  always @(posedge clk_i)
    hit2_q <= wb_we_i && wb_warp_i == rr2_warp_o && wb_rd_i == rr2_rs2 && rr2_use2_o;

  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : gen_lane
      wire [31:0] rd_e, rd_o;
      simty_regfile #(.WARPS(WARPS), .BA(BA)) u_rf (
        .clk_i     (clk_i),
        .raddr_e_i (raddr_e),
        .rdata_e_o (rd_e),
        .raddr_o_i (raddr_o),
        .rdata_o_o (rd_o),
        .we_i      (wb_we_i && wb_mask_i[l]),
        .wpar_i    (wpar),
        .waddr_i   (waddr),
        .wdata_i   (wb_data_i[32*l +: 32])
      );
      reg [31:0] op1, op2;
      always @* begin
        op1 = rr2_use1 ? (rr2_par ? rd_o : rd_e) : 32'd0;
        if (hit1_wb2 && wb2_mask_i[l]) op1 = wb2_data_i[32*l +: 32];
        if (hit1_wb && wb_mask_i[l])   op1 = wb_data_i[32*l +: 32];
        op2 = ex_use2_i ? (ex_par ? rd_o : rd_e) : 32'd0;
        if (hit2_q && wb2_mask_i[l])   op2 = wb2_data_i[32*l +: 32];
      end
      assign rr2_op1_o[32*l +: 32] = op1;
      assign ex_op2_o[32*l +: 32]  = op2;
    end
  endgenerate

endmodule
