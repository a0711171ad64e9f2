// SPDX-License-Identifier: Apache-2.0
// simty_stage_rr: stages 5 and 6, operand collection and decode. Holds
// simty_operand (the RR1 and RR2 registers, the register file and the
// write-back bypass: both operands are registered for EX), and in RR2 the
// decoder, each warp's base thread id (read in RR1), the CSRs and the
// Zicntr cycle and time counters: the instruction's uniform operand (the
// immediate, auipc's pc + immediate or a CSR's value) is selected here,
// so that EX's ALUs take it like an immediate. RR has no control of its
// own: every issued instruction moves through RR1 and RR2 to EX.
`default_nettype none

module simty_stage_rr #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer WARP_BITS = 2,
  parameter integer PCW = 15,
  parameter [31:0]  CODE_BASE = 32'h0,
  parameter integer SMALL_TABLES = 1,
  parameter integer EXT_M = 0,
  parameter integer EXT_A = 0,
  parameter integer EXT_ZICNTR = 0
) (
  input  wire                   clk_i,
  input  wire                   rst_i,

  // Issue (the scheduler's pick, the buffered instruction's fields)
  input  wire                   issue_i,
  input  wire [WARP_BITS-1:0]   issue_warp_i,
  input  wire [4:0]             issue_rs1_i, issue_rs2_i, issue_rd_i,
  input  wire                   issue_use1_i, issue_use2_i, issue_wr_i,

  // RR1, RR2
  output wire                   rr1_valid_o,
  output wire [WARP_BITS-1:0]   rr1_warp_o,
  output wire [4:0]             rr1_rd_o,
  output wire                   rr1_wr_o,
  output wire                   rr2_valid_o,
  output wire [WARP_BITS-1:0]   rr2_warp_o,
  output wire [4:0]             rr2_rd_o,
  output wire                   rr2_wr_o,
  output wire [32*LANES-1:0]    rr2_op1_o,
  output wire [32*LANES-1:0]    rr2_op2_o,
  output wire [31:0]            rr2_base_tid_o,
  // The instruction in RR2, from the instruction buffer (read in RR1)
  input  wire [PCW-1:0]         rr2_pc_i,
  input  wire [31:0]            rr2_word_i,

  // Decoded in RR2
  output wire [3:0]             d_alu_op_o,
  output wire                   d_b_imm_o,
  output wire                   d_lane_o,       // the uniform operand | lane id
  output wire [31:0]            d_uimm_o,       // the uniform operand
  output wire                   d_link_o,       // jal/jalr: rd = pc + 4
  output wire                   d_branch_o, d_jal_o, d_jalr_o, d_load_o, d_store_o,
  output wire                   d_uns_o,
  output wire [1:0]             d_size_o,
  output wire                   d_ecall_o, d_ebreak_o, d_illegal_o, d_call_o, d_ret_o,
  output wire                   d_mul_o, d_div_o, d_instret_o, d_cnt_hi_o,
  output wire                   d_amo_o,
  output wire [3:0]             d_amo_op_o,

  // Register file writes: WB's (the write and a bypass), and WB2's (the
  // same write a cycle later, a bypass)
  input  wire                   wb_we_i,
  input  wire [WARP_BITS-1:0]   wb_warp_i,
  input  wire [4:0]             wb_rd_i,
  input  wire [LANES-1:0]       wb_mask_i,
  input  wire [32*LANES-1:0]    wb_data_i,
  input  wire                   wb2_we_i,
  input  wire [WARP_BITS-1:0]   wb2_warp_i,
  input  wire [4:0]             wb2_rd_i,
  input  wire [LANES-1:0]       wb2_mask_i,
  input  wire [32*LANES-1:0]    wb2_data_i,

  // Dispatch writes its warp's base thread id
  input  wire                   disp_go_i,
  input  wire [WARP_BITS-1:0]   disp_warp_i,
  input  wire [31:0]            disp_base_tid_i,

  // Launch constants (CSRs), the counters' clear, any warp busy (cycle)
  input  wire [31:0]            nthreads_i,
  input  wire [31:0]            args_i,
  input  wire [31:0]            stack_top_i,
  input  wire [4:0]             stack_log2_i,
  input  wire                   ctr_clear_i,
  input  wire                   busy_i
);

  simty_operand #(.WARPS(WARPS), .LANES(LANES), .WARP_BITS(WARP_BITS)) u_operand (
    .clk_i        (clk_i),
    .rst_i        (rst_i),
    .issue_i      (issue_i),
    .issue_warp_i (issue_warp_i),
    .issue_rs1_i  (issue_rs1_i),
    .issue_rs2_i  (issue_rs2_i),
    .issue_rd_i   (issue_rd_i),
    .issue_use1_i (issue_use1_i),
    .issue_use2_i (issue_use2_i),
    .issue_wr_i   (issue_wr_i),
    .rr1_valid_o  (rr1_valid_o),
    .rr1_warp_o   (rr1_warp_o),
    .rr1_rd_o     (rr1_rd_o),
    .rr1_wr_o     (rr1_wr_o),
    .rr2_valid_o  (rr2_valid_o),
    .rr2_warp_o   (rr2_warp_o),
    .rr2_rd_o     (rr2_rd_o),
    .rr2_wr_o     (rr2_wr_o),
    .rr2_op1_o    (rr2_op1_o),
    .rr2_op2_o    (rr2_op2_o),
    .wb_we_i      (wb_we_i),
    .wb_warp_i    (wb_warp_i),
    .wb_rd_i      (wb_rd_i),
    .wb_mask_i    (wb_mask_i),
    .wb_data_i    (wb_data_i),
    .wb2_we_i     (wb2_we_i),
    .wb2_warp_i   (wb2_warp_i),
    .wb2_rd_i     (wb2_rd_i),
    .wb2_mask_i   (wb2_mask_i),
    .wb2_data_i   (wb2_data_i)
  );

  wire        d_a_pc;
  wire [31:0] d_imm;
  wire [1:0]  d_res_sel;
  wire [2:0]  d_csr_sel;
  wire        d_cnt, d_cnt_time;

  simty_decode #(.EXT_M(EXT_M), .EXT_A(EXT_A), .EXT_ZICNTR(EXT_ZICNTR)) u_decode (
    .word_i    (rr2_word_i),
    .alu_op_o  (d_alu_op_o),
    .a_pc_o    (d_a_pc),
    .b_imm_o   (d_b_imm_o),
    .imm_o     (d_imm),
    .res_sel_o (d_res_sel),
    .csr_sel_o (d_csr_sel),
    .branch_o  (d_branch_o),
    .jal_o     (d_jal_o),
    .jalr_o    (d_jalr_o),
    .load_o    (d_load_o),
    .store_o   (d_store_o),
    .size_o    (d_size_o),
    .uns_o     (d_uns_o),
    .ecall_o   (d_ecall_o),
    .ebreak_o  (d_ebreak_o),
    .illegal_o (d_illegal_o),
    .call_o    (d_call_o),
    .ret_o     (d_ret_o),
    .mul_o     (d_mul_o),
    .div_o     (d_div_o),
    .cnt_o     (d_cnt),
    .instret_o (d_instret_o),
    .cnt_time_o(d_cnt_time),
    .cnt_hi_o  (d_cnt_hi_o),
    .amo_o     (d_amo_o),
    .amo_op_o  (d_amo_op_o)
  );

  // Base logical thread id of each warp's block, read in RR1 for RR2 (the
  // CSR value is selected there). A warp is written only at dispatch,
  // while it has nothing in flight, so a same-cycle read of it is never
  // used (SAME_CYCLE 0). The base is a multiple of LANES (interface rule):
  // its low bits are not stored, so lane l's id is base | l.
  localparam [31:0] LANE_LOW = LANES - 1;
  simty_ram_1r1w #(.WIDTH(32), .DEPTH(WARPS), .ABITS(WARP_BITS),
                   .BLOCK(SMALL_TABLES), .SAME_CYCLE(0)) u_base_tid (
    .clk_i   (clk_i),
    .re_i    (1'b1),
    .raddr_i (rr1_warp_o),
    .rdata_o (rr2_base_tid_o),
    .we_i    (disp_go_i),
    .waddr_i (disp_warp_i),
    .wdata_i (disp_base_tid_i & ~LANE_LOW)
  );
`ifndef SYNTHESIS
  always @(posedge clk_i)
    if (disp_go_i && (disp_base_tid_i & LANE_LOW) != 32'd0) begin
      $display("simty_core: dispatch_base_tid_i 0x%08x is not a multiple of LANES",
               disp_base_tid_i);
      $finish;
    end
`endif

  // The uniform operand of the instruction, selected in RR2: the decoded
  // immediate, or for auipc pc + immediate (uniform, so one adder instead
  // of a pc input on every lane's ALU), or for a CSR read the CSR's value
  // (lane 0's, see simty_csr). The ALU then adds it to x0 (operand 1 of
  // auipc and of the CSR forms is never a register), so neither needs a
  // path of its own through the lanes.
  wire [31:0] csr_val;
  wire        csr_lane;
  simty_csr #(.WARPS(WARPS), .LANES(LANES), .WARP_BITS(WARP_BITS)) u_csr (
    .sel_i        (d_csr_sel),
    .warp_i       (rr2_warp_o),
    .base_tid_i   (rr2_base_tid_o),
    .nthreads_i   (nthreads_i),
    .args_i       (args_i),
    .stack_top_i  (stack_top_i),
    .stack_log2_i (stack_log2_i),
    .value_o      (csr_val),
    .lane_o       (csr_lane)
  );
  wire        d_csr    = d_res_sel == 2'd2;
  wire [31:0] rr2_pcf  = CODE_BASE + ({{(32-PCW){1'b0}}, rr2_pc_i} << 2);
  // auipc's immediate is the word's bits 31:12 (U format): the adder
  // takes them from the word, not from the decoded immediate, so that it
  // runs in parallel with the decode
  wire [19:0] auipc_hi = rr2_pcf[31:12] + rr2_word_i[31:12];
  wire [31:0] cnt_val;                  // Zicntr cycle / time, see below
  assign      d_uimm_o = d_csr  ? (d_cnt ? cnt_val : csr_val) :
                         d_a_pc ? {auipc_hi, rr2_pcf[11:0]} : d_imm;

  // Zicntr's uniform counters, read in RR2 like the other CSRs (two cycles
  // after issue): cycle counts the cycles in which a warp is busy since the
  // counters were last cleared (the `cycles` counter, cleared at each
  // launch); time counts every cycle since reset.
  generate
    if (EXT_ZICNTR != 0) begin : gen_cnt
      reg  [63:0] cycle_q, time_q;
      always @(posedge clk_i) begin
        if (rst_i) time_q <= 64'd0;
        else time_q <= time_q + 64'd1;
        if (rst_i || ctr_clear_i) cycle_q <= 64'd0;
        else if (busy_i) cycle_q <= cycle_q + 64'd1;
      end
      wire [63:0] src = d_cnt_time ? time_q : cycle_q;
      assign cnt_val = d_cnt_hi_o ? src[63:32] : src[31:0];
    end else begin : gen_no_cnt
      assign cnt_val = 32'd0;
      wire unused_cnt = &{1'b0, d_cnt_time, d_cnt_hi_o, busy_i, ctr_clear_i};
    end
  endgenerate

  assign d_lane_o = d_csr && csr_lane;
  assign d_link_o = d_res_sel == 2'd1;
endmodule
