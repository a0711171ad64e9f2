// SPDX-License-Identifier: Apache-2.0
// simty_decode: full decode (operand-collect stage 2). Strict RV32I plus the
// read-only CSR forms of docs/architecture.md section 2, and with EXT_M /
// EXT_A / EXT_ZICNTR the M extension, the A extension's word atomics and
// the Zicntr counters: every other encoding is illegal and faults if a path
// executes it.
`default_nettype none

module simty_decode #(
  parameter integer EXT_M = 0,
  parameter integer EXT_A = 0,
  parameter integer EXT_ZICNTR = 0
) (
  input  wire [31:0] word_i,
  output reg  [3:0]  alu_op_o,    // SIMTY ALU operation (simty_alu)
  output reg         a_pc_o,      // first ALU operand is the pc (auipc)
  output reg         b_imm_o,     // second ALU operand is the immediate
  output reg  [31:0] imm_o,
  output reg  [1:0]  res_sel_o,   // 0 ALU, 1 pc + 4 (link), 2 CSR
  output reg  [2:0]  csr_sel_o,
  output reg         branch_o,
  output reg         jal_o,
  output reg         jalr_o,
  output reg         load_o,
  output reg         store_o,
  output reg  [1:0]  size_o,      // 0 byte, 1 half, 2 word
  output reg         uns_o,       // zero-extending load
  output reg         ecall_o,
  output reg         ebreak_o,
  output reg         illegal_o,
  output reg         call_o,      // jal/jalr with rd = ra
  output reg         ret_o,       // jalr x0, 0(ra) family: rd = x0, rs1 = ra
  output reg         mul_o,       // M: mul, mulh, mulhsu, mulhu (f3 1:0)
  output reg         div_o,       // M: div, divu, rem, remu (f3 1:0)
  output reg         cnt_o,       // Zicntr cycle or time: uniform value
  output reg         instret_o,   // Zicntr instret: per-lane value
  output reg         cnt_time_o,  // cnt_o: time (else cycle)
  output reg         cnt_hi_o,    // the high word (cycleh, timeh, instreth)
  output reg         amo_o,       // A: lr.w, sc.w or amo*.w (legal)
  output reg  [3:0]  amo_op_o     // A: the operation (simty_amo)
);
// The contract include declares every constant; each block uses a few.
// verilator lint_off UNUSEDPARAM
`include "simty_arch.vh"
// verilator lint_on UNUSEDPARAM

  localparam [3:0] ADD = 4'd0, SUB = 4'd1, SLL = 4'd2, SLT = 4'd3,
                   SLTU = 4'd4, XOR = 4'd5, SRL = 4'd6, SRA = 4'd7,
                   OR = 4'd8, AND = 4'd9;

  wire [6:0]  opc = word_i[6:0];
  wire [2:0]  f3  = word_i[14:12];
  wire [6:0]  f7  = word_i[31:25];
  wire [4:0]  rd  = word_i[11:7];
  wire [4:0]  rs1 = word_i[19:15];
  wire [11:0] csr = word_i[31:20];

  wire [31:0] imm_i = {{20{word_i[31]}}, word_i[31:20]};
  wire [31:0] imm_s = {{20{word_i[31]}}, word_i[31:25], word_i[11:7]};
  wire [31:0] imm_b = {{19{word_i[31]}}, word_i[31], word_i[7],
                       word_i[30:25], word_i[11:8], 1'b0};
  wire [31:0] imm_u = {word_i[31:12], 12'd0};
  wire [31:0] imm_j = {{11{word_i[31]}}, word_i[31], word_i[19:12],
                       word_i[20], word_i[30:21], 1'b0};

  reg [3:0] op_f3;
  always @* begin
    case (f3)
      3'd0: op_f3 = ADD;
      3'd1: op_f3 = SLL;
      3'd2: op_f3 = SLT;
      3'd3: op_f3 = SLTU;
      3'd4: op_f3 = XOR;
      3'd5: op_f3 = SRL;
      3'd6: op_f3 = OR;
      default: op_f3 = AND;
    endcase
  end

  reg csr_ok, cnt_c, instret_c;
  always @* begin
    csr_ok    = 1'b1;
    csr_sel_o = 3'd0;
    case (csr)
      SIMTY_CSR_MHARTID:    csr_sel_o = 3'd0;
      SIMTY_CSR_TID:        csr_sel_o = 3'd1;
      SIMTY_CSR_NTHREADS:   csr_sel_o = 3'd2;
      SIMTY_CSR_LANES:      csr_sel_o = 3'd3;
      SIMTY_CSR_WARPS:      csr_sel_o = 3'd4;
      SIMTY_CSR_ARGS:       csr_sel_o = 3'd5;
      SIMTY_CSR_STACK_TOP:  csr_sel_o = 3'd6;
      SIMTY_CSR_STACK_LOG2: csr_sel_o = 3'd7;
      default:              csr_ok = 1'b0;
    endcase
    // Zicntr: 0xC00-0xC02 and 0xC80-0xC82. csr_sel 2 (no lane index)
    // stands in; the core replaces the value.
    cnt_c      = 1'b0;
    instret_c  = 1'b0;
    cnt_time_o = csr[0];
    cnt_hi_o   = csr[7];
    if (EXT_ZICNTR != 0 && csr[11:8] == 4'hC && csr[6:2] == 5'd0 &&
        csr[1:0] != 2'd3) begin
      csr_ok    = 1'b1;
      csr_sel_o = 3'd2;
      cnt_c     = csr[1:0] != 2'd2;
      instret_c = csr[1:0] == 2'd2;
    end
  end

  always @* begin
    alu_op_o  = ADD;
    a_pc_o    = 1'b0;
    b_imm_o   = 1'b1;
    imm_o     = imm_i;
    res_sel_o = 2'd0;
    branch_o  = 1'b0;
    jal_o     = 1'b0;
    jalr_o    = 1'b0;
    load_o    = 1'b0;
    store_o   = 1'b0;
    size_o    = f3[1:0];
    uns_o     = f3[2];
    ecall_o   = 1'b0;
    ebreak_o  = 1'b0;
    illegal_o = 1'b0;
    mul_o     = 1'b0;
    div_o     = 1'b0;
    amo_o     = 1'b0;
    amo_op_o  = 4'd0;
    case (opc)
      7'b0110111: imm_o = imm_u;                           // LUI: 0 + imm
      7'b0010111: begin a_pc_o = 1'b1; imm_o = imm_u; end  // AUIPC
      7'b1101111: begin jal_o = 1'b1; imm_o = imm_j; res_sel_o = 2'd1; end
      7'b1100111: begin
        jalr_o = 1'b1;
        res_sel_o = 2'd1;
        illegal_o = f3 != 3'd0;
      end
      7'b1100011: begin
        branch_o  = 1'b1;
        imm_o     = imm_b;
        b_imm_o   = 1'b0;
        alu_op_o  = SUB;
        illegal_o = f3 == 3'd2 || f3 == 3'd3;
      end
      7'b0000011: begin
        load_o    = 1'b1;
        illegal_o = f3 == 3'd3 || f3 == 3'd6 || f3 == 3'd7;
      end
      7'b0100011: begin
        store_o   = 1'b1;
        imm_o     = imm_s;
        illegal_o = f3 > 3'd2;
      end
      7'b0010011: begin
        alu_op_o = op_f3;
        if (f3 == 3'd1) illegal_o = f7 != 7'd0;
        if (f3 == 3'd5) begin
          alu_op_o  = f7[5] ? SRA : SRL;
          illegal_o = f7 != 7'd0 && f7 != 7'h20;
        end
      end
      7'b0110011: begin
        b_imm_o  = 1'b0;
        alu_op_o = op_f3;
        if (f7 == 7'h20 && f3 == 3'd0) alu_op_o = SUB;
        else if (f7 == 7'h20 && f3 == 3'd5) alu_op_o = SRA;
        else if (f7 == 7'h01 && EXT_M != 0) begin
          mul_o = !f3[2];
          div_o = f3[2];
        end
        else if (f7 != 7'd0) illegal_o = 1'b1;
      end
      7'b0101111: begin                                    // AMO (A)
        // the address is rs1 (ALU: rs1 + 0), rs2 the operand; word only,
        // aq / rl (bits 26:25) ignored; lr.w needs rs2 = x0
        imm_o = 32'd0;
        amo_op_o = 4'd15;                                  // not an AMO
        case (f7[6:2])
          5'h02: amo_op_o = word_i[24:20] == 5'd0 ? 4'd0 : 4'd15;  // lr.w
          5'h03: amo_op_o = 4'd1;                          // sc.w
          5'h01: amo_op_o = 4'd2;                          // amoswap.w
          5'h00: amo_op_o = 4'd3;                          // amoadd.w
          5'h04: amo_op_o = 4'd4;                          // amoxor.w
          5'h0c: amo_op_o = 4'd5;                          // amoand.w
          5'h08: amo_op_o = 4'd6;                          // amoor.w
          5'h10: amo_op_o = 4'd7;                          // amomin.w
          5'h14: amo_op_o = 4'd8;                          // amomax.w
          5'h18: amo_op_o = 4'd9;                          // amominu.w
          5'h1c: amo_op_o = 4'd10;                         // amomaxu.w
          default: ;
        endcase
        illegal_o = EXT_A == 0 || f3 != 3'd2 || amo_op_o == 4'd15;
        amo_o     = !illegal_o;
      end
      7'b0001111: illegal_o = f3 > 3'd1;                   // FENCE(.I): nop
      7'b1110011: begin
        res_sel_o = 2'd2;
        if (word_i == 32'h0000_0073) ecall_o = 1'b1;
        else if (word_i == 32'h0010_0073) ebreak_o = 1'b1;
        else illegal_o = !(f3 == 3'd2 || f3 == 3'd3 || f3 == 3'd6 ||
                           f3 == 3'd7) || rs1 != 5'd0 || !csr_ok;
      end
      default: illegal_o = 1'b1;
    endcase
    // the CSR fields of any other instruction are immediate bits
    cnt_o     = opc == 7'b1110011 && cnt_c;
    instret_o = opc == 7'b1110011 && instret_c;
    call_o = (jal_o || jalr_o) && rd == 5'd1;
    ret_o  = jalr_o && rd == 5'd0 && rs1 == 5'd1;
  end

endmodule
