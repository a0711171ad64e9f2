// SPDX-License-Identifier: Apache-2.0
// simty_operand: pipeline stages 5-6, operand collection. Stage RR1 reads
// both sources, each from its own copy of the lane's register file
// (simty_regfile), and RR2 holds them, so EX starts from registers. The
// copies are written at the end of the write-back stage, from its
// registers (simty_writeback). An operand read while its producer was in
// GA (distance 4) or writing from WB (distance 5: the read returns the
// old value) is patched per lane in RR2 from WB or WB2 (the write one
// cycle later), the newer last: the masked bypass, which keeps a lane's
// value when it did not write. A producer still in EX or MB then
// (distance 2 or 3) is kept out by the scheduler.
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
  output reg  [4:0]             rr1_rd_o,
  output reg                    rr1_wr_o,
  output reg                    rr2_valid_o,
  output reg  [WARP_BITS-1:0]   rr2_warp_o,
  output reg  [4:0]             rr2_rd_o,
  output reg                    rr2_wr_o,
  output wire [32*LANES-1:0]    rr2_op1_o,   // first operand, patched
  output wire [32*LANES-1:0]    rr2_op2_o,   // second operand, patched
  // Register file write port: the write-back stage's registers (written
  // at the end of WB), also the bypass source of distance 4
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

  localparam integer BA = (WARPS > 1) ? WARP_BITS + 5 : 5;  // {warp, reg}

  reg [4:0] rr1_rs1, rr1_rs2;
  reg       rr1_use1;
  reg [4:0] rr2_rs1, rr2_rs2;
  reg       rr1_use2, rr2_use1, rr2_use2;

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
    rr1_rd_o    <= issue_rd_i;
    rr1_use1    <= issue_use1_i && issue_i;
    rr1_use2    <= issue_use2_i && issue_i;
    rr1_wr_o    <= issue_wr_i;
    rr2_warp_o  <= rr1_warp_o;
    rr2_rs1     <= rr1_rs1;
    rr2_rs2     <= rr1_rs2;
    rr2_rd_o    <= rr1_rd_o;
    rr2_use1    <= rr1_use1 && rr1_valid_o;
    rr2_use2    <= rr1_use2 && rr1_valid_o;
    rr2_wr_o    <= rr1_wr_o;
  end

  // A register's address in the register file: {warp, register}. Both
  // sources are read at the end of RR1.
  wire [BA-1:0] a1_rr1, a2_rr1, waddr;
  generate
    if (WARPS > 1) begin : gen_addr
      assign a1_rr1 = {rr1_warp_o, rr1_rs1};
      assign a2_rr1 = {rr1_warp_o, rr1_rs2};
      assign waddr = {wb_warp_i, wb_rd_i};
    end else begin : gen_addr1
      wire unused_warps = &{1'b0, rr1_warp_o, wb_warp_i};
      assign a1_rr1 = rr1_rs1;
      assign a2_rr1 = rr1_rs2;
      assign waddr = wb_rd_i;
    end
  endgenerate

  // The writes of RR2's warp in WB and WB2, and which source each hits
  wire wb_own   = wb_we_i  && wb_warp_i  == rr2_warp_o;
  wire wb2_own  = wb2_we_i && wb2_warp_i == rr2_warp_o;
  wire hit1_wb  = wb_own  && wb_rd_i  == rr2_rs1 && rr2_use1;
  wire hit1_wb2 = wb2_own && wb2_rd_i == rr2_rs1 && rr2_use1;
  wire hit2_wb  = wb_own  && wb_rd_i  == rr2_rs2 && rr2_use2;
  wire hit2_wb2 = wb2_own && wb2_rd_i == rr2_rs2 && rr2_use2;

  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : gen_lane
      wire [31:0] rd1, rd2;
      simty_regfile #(.BA(BA)) u_rf (
        .clk_i    (clk_i),
        .raddr1_i (a1_rr1),
        .rdata1_o (rd1),
        .raddr2_i (a2_rr1),
        .rdata2_o (rd2),
        .we_i     (wb_we_i && wb_mask_i[l]),
        .waddr_i  (waddr),
        .wdata_i  (wb_data_i[32*l +: 32])
      );
      reg [31:0] op1, op2;
      always @* begin
        op1 = rr2_use1 ? rd1 : 32'd0;
        if (hit1_wb2 && wb2_mask_i[l]) op1 = wb2_data_i[32*l +: 32];
        if (hit1_wb && wb_mask_i[l])   op1 = wb_data_i[32*l +: 32];
        op2 = rr2_use2 ? rd2 : 32'd0;
        if (hit2_wb2 && wb2_mask_i[l]) op2 = wb2_data_i[32*l +: 32];
        if (hit2_wb && wb_mask_i[l])   op2 = wb_data_i[32*l +: 32];
      end
      assign rr2_op1_o[32*l +: 32] = op1;
      assign rr2_op2_o[32*l +: 32] = op2;
    end
  endgenerate

endmodule
