/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_model_decode.c - RV32I (+ read-only CSR) decoding for the model,
 * plus the optional M, A and Zicntr extensions (model->isa).
 *
 * Decoding is strict: any field the ISA fixes (funct3, funct7, the SYSTEM
 * encodings) must match exactly, otherwise the word is OP_ILLEGAL, which
 * is what docs/architecture.md section 2 asks of the core too.
 */
#include "simty_model_internal.h"

static int32_t imm_i(uint32_t w)
{
  return (int32_t)w >> 20;
}

static int32_t imm_s(uint32_t w)
{
  return ((int32_t)w >> 25) * 32 + (int32_t)((w >> 7) & 0x1f);
}

static int32_t imm_b(uint32_t w)
{
  uint32_t v = ((w >> 8) & 0xf) << 1 | ((w >> 25) & 0x3f) << 5 |
               ((w >> 7) & 1) << 11;
  return ((int32_t)w >> 31) * 4096 + (int32_t)v;
}

static int32_t imm_j(uint32_t w)
{
  uint32_t v = ((w >> 21) & 0x3ff) << 1 | ((w >> 20) & 1) << 11 |
               ((w >> 12) & 0xff) << 12;
  return ((int32_t)w >> 31) * (1 << 20) + (int32_t)v;
}

static int csr_readable(uint32_t csr, unsigned isa)
{
  switch (csr) {
  case SIMTY_CSR_CYCLE:
  case SIMTY_CSR_TIME:
  case SIMTY_CSR_INSTRET:
  case SIMTY_CSR_CYCLEH:
  case SIMTY_CSR_TIMEH:
  case SIMTY_CSR_INSTRETH:
    return (isa & SIMTY_EXT_ZICNTR) != 0;
  case SIMTY_CSR_MHARTID:
  case SIMTY_CSR_TID:
  case SIMTY_CSR_NTHREADS:
  case SIMTY_CSR_LANES:
  case SIMTY_CSR_WARPS:
  case SIMTY_CSR_ARGS:
  case SIMTY_CSR_STACK_TOP:
  case SIMTY_CSR_STACK_LOG2:
    return 1;
  default:
    return 0;
  }
}

static enum simty_op decode_system(uint32_t w, uint32_t f3, uint32_t rs1,
                                   unsigned isa)
{
  if (w == 0x00000073u)
    return OP_ECALL;
  if (w == 0x00100073u)
    return OP_EBREAK;
  /* csrr forms only: csrrs/csrrc with rs1 = x0, csrrsi/csrrci with
   * uimm = 0 (the rs1 field). Anything that could write is illegal. */
  if ((f3 == 2 || f3 == 3 || f3 == 6 || f3 == 7) && rs1 == 0 &&
      csr_readable(w >> 20, isa))
    return OP_CSR;
  return OP_ILLEGAL;
}

static enum simty_op decode_op(uint32_t f3, uint32_t f7, unsigned isa)
{
  static const enum simty_op base[8] = {OP_ADD, OP_SLL, OP_SLT, OP_SLTU,
                                        OP_XOR, OP_SRL, OP_OR,  OP_AND};
  static const enum simty_op muldiv[8] = {OP_MUL, OP_MULH, OP_MULHSU,
                                          OP_MULHU, OP_DIV, OP_DIVU,
                                          OP_REM, OP_REMU};
  if (f7 == 0)
    return base[f3];
  if (f7 == 1)
    return (isa & SIMTY_EXT_M) ? muldiv[f3] : OP_ILLEGAL;
  if (f7 == 0x20 && f3 == 0)
    return OP_SUB;
  if (f7 == 0x20 && f3 == 5)
    return OP_SRA;
  return OP_ILLEGAL;
}

static enum simty_op decode_op_imm(uint32_t f3, uint32_t f7)
{
  switch (f3) {
  case 0: return OP_ADDI;
  case 2: return OP_SLTI;
  case 3: return OP_SLTIU;
  case 4: return OP_XORI;
  case 6: return OP_ORI;
  case 7: return OP_ANDI;
  case 1: return f7 == 0 ? OP_SLLI : OP_ILLEGAL;
  default: /* 5 */
    return f7 == 0 ? OP_SRLI : f7 == 0x20 ? OP_SRAI : OP_ILLEGAL;
  }
}

/* AMO major opcode: word-sized only, funct5 in bits 31:27, aq/rl (bits
 * 26:25) free; lr.w needs rs2 = x0. */
static enum simty_op decode_amo(uint32_t f3, uint32_t f7, uint32_t rs2,
                                unsigned isa)
{
  if (!(isa & SIMTY_EXT_A) || f3 != 2)
    return OP_ILLEGAL;
  switch (f7 >> 2) {
  case 0x02: return rs2 == 0 ? OP_LR : OP_ILLEGAL;
  case 0x03: return OP_SC;
  case 0x01: return OP_AMOSWAP;
  case 0x00: return OP_AMOADD;
  case 0x04: return OP_AMOXOR;
  case 0x0c: return OP_AMOAND;
  case 0x08: return OP_AMOOR;
  case 0x10: return OP_AMOMIN;
  case 0x14: return OP_AMOMAX;
  case 0x18: return OP_AMOMINU;
  case 0x1c: return OP_AMOMAXU;
  default: return OP_ILLEGAL;
  }
}

void simty__model_decode(uint32_t w, unsigned isa, struct simty_insn *out)
{
  uint32_t opcode = w & 0x7f, rd = (w >> 7) & 0x1f, f3 = (w >> 12) & 7;
  uint32_t rs1 = (w >> 15) & 0x1f, rs2 = (w >> 20) & 0x1f, f7 = w >> 25;
  static const enum simty_op branch[8] = {OP_BEQ, OP_BNE, OP_ILLEGAL,
                                          OP_ILLEGAL, OP_BLT, OP_BGE,
                                          OP_BLTU, OP_BGEU};
  static const enum simty_op load[8] = {OP_LB, OP_LH, OP_LW, OP_ILLEGAL,
                                        OP_LBU, OP_LHU, OP_ILLEGAL,
                                        OP_ILLEGAL};
  static const enum simty_op store[8] = {OP_SB, OP_SH, OP_SW, OP_ILLEGAL,
                                         OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL,
                                         OP_ILLEGAL};
  enum simty_op op = OP_ILLEGAL;
  int32_t imm = 0;

  switch (opcode) {
  case 0x37: op = OP_LUI; imm = (int32_t)(w & 0xfffff000u); break;
  case 0x17: op = OP_AUIPC; imm = (int32_t)(w & 0xfffff000u); break;
  case 0x6f: op = OP_JAL; imm = imm_j(w); break;
  case 0x67: op = f3 == 0 ? OP_JALR : OP_ILLEGAL; imm = imm_i(w); break;
  case 0x63: op = branch[f3]; imm = imm_b(w); break;
  case 0x03: op = load[f3]; imm = imm_i(w); break;
  case 0x23: op = store[f3]; imm = imm_s(w); break;
  case 0x13:
    op = decode_op_imm(f3, f7);
    imm = (f3 == 1 || f3 == 5) ? (int32_t)rs2 : imm_i(w);
    break;
  case 0x33: op = decode_op(f3, f7, isa); break;
  case 0x2f: op = decode_amo(f3, f7, rs2, isa); break;
  case 0x0f: op = f3 <= 1 ? OP_FENCE : OP_ILLEGAL; break;
  case 0x73:
    op = decode_system(w, f3, rs1, isa);
    imm = (int32_t)(w >> 20);
    break;
  default: break;
  }

  out->op = (uint8_t)op;
  out->rd = (uint8_t)(rd == 0 ? SIMTY_REG_SINK : rd);
  out->rs1 = (uint8_t)rs1;
  out->rs2 = (uint8_t)rs2;
  out->imm = imm;
  out->word = w;
}
