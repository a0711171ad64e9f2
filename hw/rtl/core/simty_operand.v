// simty_operand: pipeline stages 5-6, two-cycle operand collection. Stage
// RR1 reads the first source from the warp's bank, RR2 the second (an
// instruction with two sources holds its bank two cycles). Values are
// patched per lane from the write-back port (the first operand from this
// cycle's write, the second from the last cycle's: the scheduler keeps
// every other case out), the masked bypass that keeps a lane's value when
// it did not write.
`default_nettype none

module simty_operand #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer WARP_BITS = 2,
  parameter integer EPOCH_BITS = 3,
  parameter integer PCW = 15
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
  // ibuf RAM data, valid in RR1
  input  wire [PCW-1:0]            ib_pc_i,
  input  wire [31:0]            ib_word_i,
  input  wire                   ib_oor_i,
  input  wire [EPOCH_BITS-1:0]  ib_epoch_i,
  input  wire                   ib_pred_i,
  // Stage views
  output reg                    rr1_valid_o,
  output reg  [WARP_BITS-1:0]   rr1_warp_o,
  output reg                    rr1_use2_o,
  output reg                    rr2_valid_o,
  output reg  [WARP_BITS-1:0]   rr2_warp_o,
  output wire [PCW-1:0]         rr2_pc_o,    // the ibuf entry, read in RR1
  output wire [31:0]            rr2_word_o,
  output wire                   rr2_oor_o,
  output wire [EPOCH_BITS-1:0]  rr2_epoch_o,
  output wire                   rr2_pred_o,
  output reg  [4:0]             rr2_rs2_o,
  output reg  [4:0]             rr2_rd_o,
  output reg                    rr2_use2_o,
  output reg                    rr2_wr_o,
  output wire [32*LANES-1:0]    rr2_op1_o,   // first operand, patched
  // Second operand, read in RR2, delivered in EX
  input  wire [WARP_BITS-1:0]   ex_warp_i,
  input  wire [4:0]             ex_rs2_i,
  input  wire                   ex_use2_i,
  output wire [32*LANES-1:0]    ex_op2_o,
  // Write-back port (this cycle) and its copy from the last cycle
  input  wire                   wb_we_i,
  input  wire [WARP_BITS-1:0]   wb_warp_i,
  input  wire [4:0]             wb_rd_i,
  input  wire [LANES-1:0]       wb_mask_i,
  input  wire [32*LANES-1:0]    wb_data_i,
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
  reg [4:0] rr2_rs1;
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
    rr2_rs2_o   <= rr1_rs2;
    rr2_rd_o    <= rr1_rd;
    rr2_use1    <= rr1_use1 && rr1_valid_o;
    rr2_use2_o  <= rr1_use2_o && rr1_valid_o;
    rr2_wr_o    <= rr1_wr;
  end

  assign rr2_pc_o    = ib_pc_i;
  assign rr2_word_o  = ib_word_i;
  assign rr2_oor_o   = ib_oor_i;
  assign rr2_epoch_o = ib_epoch_i;
  assign rr2_pred_o  = ib_pred_i;

  // Bank read addresses: RR1's first source in its bank; the other bank
  // (or the same one when RR1 does not read) serves RR2's second source.
  // verilator lint_off UNUSEDSIGNAL
  function [BA-1:0] baddr(input [WARP_BITS-1:0] w, input [4:0] r);
    reg [BA+WARP_BITS-1:0] hi;
    reg [BA-1:0]           lo;
    begin
      hi = {{BA{1'b0}}, w} >> 1;
      lo = {BA{1'b0}};
      lo[4:0] = r;
      baddr = (hi[BA-1:0] << 5) | lo;
    end
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  wire rr1_par = (WARPS > 1) ? rr1_warp_o[0] : 1'b0;
  wire rr2_par = (WARPS > 1) ? rr2_warp_o[0] : 1'b0;
  wire ex_par  = (WARPS > 1) ? ex_warp_i[0]  : 1'b0;
  wire [BA-1:0] a_rr1 = baddr(rr1_warp_o, rr1_rs1);
  wire [BA-1:0] a_rr2 = baddr(rr2_warp_o, rr2_rs2_o);
  wire rr1_e = rr1_use1 && !rr1_par;
  wire rr1_o = rr1_use1 && rr1_par;
  wire [BA-1:0] raddr_e = rr1_e ? a_rr1 : a_rr2;
  wire [BA-1:0] raddr_o = rr1_o ? a_rr1 : a_rr2;
  wire          wpar = (WARPS > 1) ? wb_warp_i[0] : 1'b0;
  wire [BA-1:0] waddr = baddr(wb_warp_i, wb_rd_i);

  wire hit1_wb  = wb_we_i  && wb_warp_i  == rr2_warp_o && wb_rd_i  == rr2_rs1 && rr2_use1;
  wire hit2_wb2 = wb2_we_i && wb2_warp_i == ex_warp_i  && wb2_rd_i == ex_rs2_i && ex_use2_i;

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
        if (hit1_wb && wb_mask_i[l])   op1 = wb_data_i[32*l +: 32];
        op2 = ex_use2_i ? (ex_par ? rd_o : rd_e) : 32'd0;
        if (hit2_wb2 && wb2_mask_i[l]) op2 = wb2_data_i[32*l +: 32];
      end
      assign rr2_op1_o[32*l +: 32] = op1;
      assign ex_op2_o[32*l +: 32]  = op2;
    end
  endgenerate

endmodule
