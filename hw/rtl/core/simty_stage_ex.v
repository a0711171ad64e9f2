// SPDX-License-Identifier: Apache-2.0
// simty_stage_ex: stage 7, execute. Holds the EX pipeline registers
// (ex_*_q, loaded every cycle from RR2's decoded instruction and operand
// 1; operand 2 comes from simty_operand's EX read), and per lane the ALU,
// the memory address adder (rs1 + immediate, its own adder so that
// simty_mem_pre's checks do not wait for the ALU's multiplexers) and the
// multiplier's first half (simty_mul: partial products here, their sum in
// MB). simty_mem_pre's per-lane memory checks on the address adders' sums
// are computed here too, and registered by MB. EX has no control of its own:
// every instruction in RR2 moves to EX, and from EX to MB.
`default_nettype none

module simty_stage_ex #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer WARP_BITS = 2,
  parameter integer PCW = 15,
  parameter integer EPOCH_BITS = 3,
  parameter integer RSB = 2,
  parameter [31:0]  CODE_BASE = 32'h0,
  parameter [31:0]  CODE_SIZE = 32'h0001_0000,
  parameter [31:0]  DATA_SIZE = 32'h0010_0000,
  parameter integer EXT_M = 0,
  parameter integer EXT_A = 0,
  parameter integer LANE_BITS = 2,
  parameter integer XBAR = 0          // crossbar kind: 0 full, 1 rotate
) (
  input  wire                   clk_i,
  input  wire                   rst_i,
  input  wire [4:0]             stack_log2_i,   // launch constant

  // The instruction in RR2, decoded (the EX registers' next values)
  input  wire                   rr2_valid_i,
  input  wire [WARP_BITS-1:0]   rr2_warp_i,
  input  wire [PCW-1:0]         rr2_pc_i,
  input  wire [2:0]             rr2_f3_i,       // the word's funct3
  input  wire [6:0]             rr2_opcode_i,   // and its opcode
  input  wire                   rr2_oor_i,
  input  wire [EPOCH_BITS-1:0]  rr2_epoch_i,
  input  wire [PCW-1:0]         rr2_pnext_i,
  input  wire [RSB-1:0]         rr2_rsp_i,
  input  wire [4:0]             rr2_rd_i,
  input  wire                   rr2_wr_i,
  input  wire [32*LANES-1:0]    rr2_op1_i,
  input  wire [32*LANES-1:0]    rr2_op2_i,
  input  wire [31:0]            rr2_base_tid_i,
  input  wire [3:0]             d_alu_op_i,
  input  wire                   d_b_imm_i,
  input  wire                   d_lane_i,       // the uniform operand | lane id
  input  wire [31:0]            d_uimm_i,       // the uniform operand
  input  wire                   d_link_i,       // jal/jalr: rd = pc + 4
  input  wire                   d_branch_i, d_jal_i, d_jalr_i, d_load_i, d_store_i,
  input  wire                   d_uns_i,
  input  wire [1:0]             d_size_i,
  input  wire                   d_ecall_i, d_ebreak_i, d_illegal_i, d_call_i, d_ret_i,
  input  wire                   d_mul_i, d_div_i, d_instret_i, d_cnt_hi_i,
  input  wire                   d_amo_i,
  input  wire [3:0]             d_amo_op_i,

  // The EX registers
  output reg                    ex_valid_q,
  output reg  [WARP_BITS-1:0]   ex_warp_q,
  output reg  [PCW-1:0]         ex_pc_q,
  output reg  [2:0]             ex_f3_q,
  output reg                    ex_oor_q,
  output reg  [EPOCH_BITS-1:0]  ex_epoch_q,
  output reg  [PCW-1:0]         ex_pnext_q,
  output reg  [RSB-1:0]         ex_rsp_q,
  output reg  [4:0]             ex_rd_q,
  output reg                    ex_wr_q,
  output reg  [31:0]            ex_imm_q,
  output reg  [31:0]            ex_base_tid_q,
  output reg                    ex_link_q,
  output reg                    ex_branch_q, ex_jal_q, ex_jalr_q, ex_load_q, ex_store_q,
  output reg                    ex_uns_q,
  output reg  [1:0]             ex_size_q,
  output reg                    ex_ecall_q, ex_ebreak_q, ex_illegal_q, ex_call_q, ex_ret_q,
  output reg                    ex_mul_q, ex_div_q, ex_instret_q, ex_cnt_hi_q,
  output reg                    ex_amo_q,
  output reg                    ex_amoc_q,      // AMO opcode (legal or not)
  output reg  [3:0]             ex_amo_op_q,
  output reg  [32*LANES-1:0]    ex_op1_q,
  output reg  [32*LANES-1:0]    ex_op2_q,

  // Results
  output wire [32*LANES-1:0]    ex_res_o,       // the ALUs
  output wire [LANES-1:0]       ex_eq_o, ex_lt_o, ex_ltu_o,
  output wire [32*LANES-1:0]    mb_mul_res_o,   // M: the multiply, in MB
  // simty_mem_pre's checks on the address adders' sums (MB registers them)
  output wire [LANES-1:0]       ex_mis_o, ex_bad_o, ex_con_o, ex_ovf_o,
  output wire [LANES*LANES-1:0] ex_same_o,
  output wire [32*LANES-1:0]    ex_pline_o,
  output wire [LANE_BITS*LANES-1:0] ex_pword_o, ex_prot_o,
  // per lane its jump target (the address adder's sum, bit 0 dropped) as
  // {outside CODE, misaligned, word offset into CODE}: for a jalr, the
  // branch unit picks the leader's (MB registers them)
  output wire [(PCW+2)*LANES-1:0] ex_jt_o
);
  // The EX registers' next values that are not RR2's signals as they are
  wire       ex_amoc_d = EXT_A != 0 && rr2_opcode_i == 7'b0101111;
  reg  [3:0] ex_alu_op_q;
  reg        ex_b_imm_q, ex_lane_q;

  always @(posedge clk_i) begin
    if (rst_i) ex_valid_q <= 1'b0;
    else ex_valid_q <= rr2_valid_i;
    ex_warp_q     <= rr2_warp_i;
    ex_pc_q       <= rr2_pc_i;
    ex_f3_q       <= rr2_f3_i;
    ex_oor_q      <= rr2_oor_i;
    ex_epoch_q    <= rr2_epoch_i;
    ex_pnext_q    <= rr2_pnext_i;
    ex_rsp_q      <= rr2_rsp_i;
    ex_rd_q       <= rr2_rd_i;
    ex_wr_q       <= rr2_wr_i;
    ex_alu_op_q   <= d_alu_op_i;
    ex_b_imm_q    <= d_b_imm_i;
    ex_lane_q     <= d_lane_i;
    ex_imm_q      <= d_uimm_i;
    ex_base_tid_q <= rr2_base_tid_i;
    ex_link_q     <= d_link_i;
    ex_branch_q   <= d_branch_i;
    ex_jal_q      <= d_jal_i;
    ex_jalr_q     <= d_jalr_i;
    ex_load_q     <= d_load_i;
    ex_store_q    <= d_store_i;
    ex_size_q     <= d_size_i;
    ex_uns_q      <= d_uns_i;
    ex_ecall_q    <= d_ecall_i;
    ex_ebreak_q   <= d_ebreak_i;
    ex_illegal_q  <= d_illegal_i;
    ex_call_q     <= d_call_i;
    ex_ret_q      <= d_ret_i;
    ex_mul_q      <= d_mul_i;
    ex_div_q      <= d_div_i;
    ex_instret_q  <= d_instret_i;
    ex_cnt_hi_q   <= d_cnt_hi_i;
    ex_amo_q      <= d_amo_i;
    ex_amoc_q     <= ex_amoc_d;
    ex_amo_op_q   <= d_amo_op_i;
    ex_op1_q      <= rr2_op1_i;
    ex_op2_q      <= rr2_op2_i;
  end

  wire [32*LANES-1:0] ex_addr;          // the memory address adders
  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : gen_lane
      localparam [31:0] LID = l;
      wire [31:0] a = ex_op1_q[32*l +: 32];
      wire [31:0] b = ex_b_imm_q ? (ex_lane_q ? ex_imm_q | LID : ex_imm_q) : ex_op2_q[32*l +: 32];
      wire [31:0] r;
      simty_alu u_alu (
        .op_i  (ex_alu_op_q),
        .a_i   (a),
        .b_i   (b),
        .res_o (r),
        .eq_o  (ex_eq_o[l]),
        .lt_o  (ex_lt_o[l]),
        .ltu_o (ex_ltu_o[l])
      );
      assign ex_res_o[32*l +: 32] = r;
      // The memory address (loads, stores, atomics: rs1 + immediate, the
      // immediate 0 for an atomic). The ALU computes the same sum (ADD,
      // immediate operand), which MB keeps in mb_res_q for the arbiter's
      // offsets and fault address.
      assign ex_addr[32*l +: 32] = a + ex_imm_q;
      // For a jalr the same sum is the lane's target.
      wire [31:0] toff = (ex_addr[32*l +: 32] & 32'hffff_fffe) - CODE_BASE;
      assign ex_jt_o[(PCW+2)*l +: PCW+2] = {toff >= CODE_SIZE, toff[1], toff[PCW+1:2]};
      // M: multiply, partial products in EX, their sum in MB (simty_mul).
      // The operands are the registers (R-type), not the ALU's b input.
      if (EXT_M != 0) begin : gen_mul
        simty_mul u_mul (
          .clk_i (clk_i),
          .en_i  (ex_mul_q),
          .a_i   (a),
          .b_i   (ex_op2_q[32*l +: 32]),
          .f3_i  (ex_f3_q[1:0]),
          .res_o (mb_mul_res_o[32*l +: 32])
        );
      end else begin : gen_no_mul
        assign mb_mul_res_o[32*l +: 32] = 32'd0;
      end
    end
  endgenerate

`ifndef SYNTHESIS
  // The address adders and the ALUs agree on every memory instruction
  // and jalr (MB's mb_res_q, from the ALU, is the same address / target).
  always @(posedge clk_i)
    if (ex_valid_q && (ex_load_q || ex_store_q || ex_amo_q || ex_jalr_q) &&
        ex_addr != ex_res_o) begin
      $display("simty_core: address adder and ALU disagree at pc 0x%08x",
               CODE_BASE + ({{(32-PCW){1'b0}}, ex_pc_q} << 2));
      $finish;
    end
`endif

  // The memory arbiter's per-lane checks and lane-pair line compares, on
  // the memory address adders' sums.
  simty_mem_pre #(.WARPS(WARPS), .LANES(LANES), .WARP_BITS(WARP_BITS),
                  .DATA_SIZE(DATA_SIZE), .XBAR(XBAR),
                  .LANE_BITS(LANE_BITS)) u_mem_pre (
    .clk_i        (clk_i),
    .stack_log2_i (stack_log2_i),
    .warp_i       (ex_warp_q),
    .store_i      (ex_store_q),
    .jalr_i       (ex_jalr_q),
    .size_i       (ex_size_q),
    .addr_i       (ex_addr),
    .mis_o        (ex_mis_o),
    .bad_o        (ex_bad_o),
    .ovf_o        (ex_ovf_o),
    .con_o        (ex_con_o),
    .same_o       (ex_same_o),
    .pline_o      (ex_pline_o),
    .pword_o      (ex_pword_o),
    .prot_o       (ex_prot_o)
  );
endmodule
