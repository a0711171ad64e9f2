/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_test_util.h - hand assembler and harness for the model's unit
 * tests. Instructions are encoded here from the RV32I formats (R, I, S,
 * B, U, J), poked into CODE through the library API and run on small
 * configurations; results are read back from DATA.
 */
#ifndef MODEL_TEST_UTIL_H
#define MODEL_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "simty_model.h"

/* ---- Encoders: one per format ---- */

static inline uint32_t enc_r(uint32_t f7, unsigned rs2, unsigned rs1,
                             uint32_t f3, unsigned rd, uint32_t opcode)
{
  return f7 << 25 | (uint32_t)rs2 << 20 | (uint32_t)rs1 << 15 | f3 << 12 |
         (uint32_t)rd << 7 | opcode;
}

static inline uint32_t enc_i(int32_t imm, unsigned rs1, uint32_t f3,
                             unsigned rd, uint32_t opcode)
{
  return ((uint32_t)imm & 0xfffu) << 20 | (uint32_t)rs1 << 15 | f3 << 12 |
         (uint32_t)rd << 7 | opcode;
}

static inline uint32_t enc_s(int32_t imm, unsigned rs2, unsigned rs1,
                             uint32_t f3, uint32_t opcode)
{
  uint32_t u = (uint32_t)imm;
  return ((u >> 5) & 0x7fu) << 25 | (uint32_t)rs2 << 20 |
         (uint32_t)rs1 << 15 | f3 << 12 | (u & 0x1fu) << 7 | opcode;
}

static inline uint32_t enc_b(int32_t imm, unsigned rs2, unsigned rs1,
                             uint32_t f3)
{
  uint32_t u = (uint32_t)imm;
  return ((u >> 12) & 1u) << 31 | ((u >> 5) & 0x3fu) << 25 |
         (uint32_t)rs2 << 20 | (uint32_t)rs1 << 15 | f3 << 12 |
         ((u >> 1) & 0xfu) << 8 | ((u >> 11) & 1u) << 7 | 0x63u;
}

static inline uint32_t enc_u(uint32_t imm, unsigned rd, uint32_t opcode)
{
  return (imm & 0xfffff000u) | (uint32_t)rd << 7 | opcode;
}

static inline uint32_t enc_j(int32_t imm, unsigned rd)
{
  uint32_t u = (uint32_t)imm;
  return ((u >> 20) & 1u) << 31 | ((u >> 1) & 0x3ffu) << 21 |
         ((u >> 11) & 1u) << 20 | ((u >> 12) & 0xffu) << 12 |
         (uint32_t)rd << 7 | 0x6fu;
}

/* ---- Mnemonics ---- */

#define LUI(rd, imm) enc_u((uint32_t)(imm), rd, 0x37)
#define AUIPC(rd, imm) enc_u((uint32_t)(imm), rd, 0x17)
#define JAL(rd, off) enc_j(off, rd)
#define JALR(rd, rs1, imm) enc_i(imm, rs1, 0, rd, 0x67)
#define BEQ(a, b, off) enc_b(off, b, a, 0)
#define BNE(a, b, off) enc_b(off, b, a, 1)
#define BLT(a, b, off) enc_b(off, b, a, 4)
#define BGE(a, b, off) enc_b(off, b, a, 5)
#define BLTU(a, b, off) enc_b(off, b, a, 6)
#define BGEU(a, b, off) enc_b(off, b, a, 7)
#define LB(rd, rs1, imm) enc_i(imm, rs1, 0, rd, 0x03)
#define LH(rd, rs1, imm) enc_i(imm, rs1, 1, rd, 0x03)
#define LW(rd, rs1, imm) enc_i(imm, rs1, 2, rd, 0x03)
#define LBU(rd, rs1, imm) enc_i(imm, rs1, 4, rd, 0x03)
#define LHU(rd, rs1, imm) enc_i(imm, rs1, 5, rd, 0x03)
#define SB(rs2, rs1, imm) enc_s(imm, rs2, rs1, 0, 0x23)
#define SH(rs2, rs1, imm) enc_s(imm, rs2, rs1, 1, 0x23)
#define SW(rs2, rs1, imm) enc_s(imm, rs2, rs1, 2, 0x23)
#define ADDI(rd, rs1, imm) enc_i(imm, rs1, 0, rd, 0x13)
#define SLTI(rd, rs1, imm) enc_i(imm, rs1, 2, rd, 0x13)
#define SLTIU(rd, rs1, imm) enc_i(imm, rs1, 3, rd, 0x13)
#define XORI(rd, rs1, imm) enc_i(imm, rs1, 4, rd, 0x13)
#define ORI(rd, rs1, imm) enc_i(imm, rs1, 6, rd, 0x13)
#define ANDI(rd, rs1, imm) enc_i(imm, rs1, 7, rd, 0x13)
#define SLLI(rd, rs1, sh) enc_r(0, sh, rs1, 1, rd, 0x13)
#define SRLI(rd, rs1, sh) enc_r(0, sh, rs1, 5, rd, 0x13)
#define SRAI(rd, rs1, sh) enc_r(0x20, sh, rs1, 5, rd, 0x13)
#define ADD(rd, a, b) enc_r(0, b, a, 0, rd, 0x33)
#define SUB(rd, a, b) enc_r(0x20, b, a, 0, rd, 0x33)
#define SLL(rd, a, b) enc_r(0, b, a, 1, rd, 0x33)
#define SLT(rd, a, b) enc_r(0, b, a, 2, rd, 0x33)
#define SLTU(rd, a, b) enc_r(0, b, a, 3, rd, 0x33)
#define XOR(rd, a, b) enc_r(0, b, a, 4, rd, 0x33)
#define SRL(rd, a, b) enc_r(0, b, a, 5, rd, 0x33)
#define SRA(rd, a, b) enc_r(0x20, b, a, 5, rd, 0x33)
#define OR(rd, a, b) enc_r(0, b, a, 6, rd, 0x33)
#define AND(rd, a, b) enc_r(0, b, a, 7, rd, 0x33)
#define CSRRS(rd, csr, rs1) enc_i(csr, rs1, 2, rd, 0x73)
#define CSRRC(rd, csr, rs1) enc_i(csr, rs1, 3, rd, 0x73)
#define CSRRSI(rd, csr, uimm) enc_i(csr, uimm, 6, rd, 0x73)
#define CSRRCI(rd, csr, uimm) enc_i(csr, uimm, 7, rd, 0x73)
#define CSRRW(rd, csr, rs1) enc_i(csr, rs1, 1, rd, 0x73)
#define CSRR(rd, csr) CSRRS(rd, csr, 0)
#define FENCE 0x0ff0000fu
#define FENCE_I 0x0000100fu
#define ECALL 0x00000073u
#define EBREAK 0x00100073u
#define NOP ADDI(0, 0, 0)

/* ---- Programs ---- */

struct prog {
  uint32_t w[2048];
  unsigned n;
};

/* Append a word; returns its address. */
static inline uint32_t emit(struct prog *p, uint32_t word)
{
  assert_true(p->n < sizeof(p->w) / sizeof(p->w[0]));
  p->w[p->n] = word;
  return SIMTY_CODE_BASE + 4 * p->n++;
}

/* Address of the next word. */
static inline uint32_t here(const struct prog *p)
{
  return SIMTY_CODE_BASE + 4 * p->n;
}

/* Overwrite the word at `addr` (for forward branches). */
static inline void patch(struct prog *p, uint32_t addr, uint32_t word)
{
  p->w[(addr - SIMTY_CODE_BASE) / 4] = word;
}

/* rd = value, always two instructions (lui + addi). */
static inline void emit_li(struct prog *p, unsigned rd, uint32_t value)
{
  uint32_t hi = (value + 0x800u) & 0xfffff000u;
  emit(p, LUI(rd, hi));
  emit(p, ADDI(rd, rd, (int32_t)(value - hi)));
}

/* x31 = DATA base: results are stored at OUT(k) = DATA base + 4k. */
#define RES 31
#define OUT(k) (SIMTY_DATA_BASE + 4u * (k))
static inline void emit_res_base(struct prog *p)
{
  emit(p, LUI(RES, SIMTY_DATA_BASE));
}

/* ---- Harness ---- */

struct trace_entry {
  uint32_t base_tid, pc;
  uint64_t mask;
};

struct console_entry {
  uint32_t tid;
  uint8_t byte;
};

struct harness {
  simty_model *m;
  unsigned warps, lanes;
  int status;
  struct simty_model_fault fault;
  uint64_t ctr[SIMTY_CTR_COUNT];
  struct trace_entry trace[8192];
  unsigned ntrace;
  struct console_entry console[1024];
  unsigned nconsole;
};

static inline void harness_trace(void *user, uint32_t base_tid, uint32_t pc,
                                 uint64_t mask)
{
  struct harness *h = user;
  if (h->ntrace < sizeof(h->trace) / sizeof(h->trace[0]))
    h->trace[h->ntrace] = (struct trace_entry){base_tid, pc, mask};
  h->ntrace++;
}

static inline void harness_console(void *user, uint32_t tid, uint8_t byte)
{
  struct harness *h = user;
  if (h->nconsole < sizeof(h->console) / sizeof(h->console[0]))
    h->console[h->nconsole] = (struct console_entry){tid, byte};
  h->nconsole++;
}

/* A harness on a model with the given crossbar kind (enum
 * simty_model_xbar). */
static inline struct harness *harness_new_xbar(unsigned warps, unsigned lanes,
                                               unsigned xbar)
{
  struct harness *h = calloc(1, sizeof(*h));
  assert_non_null(h);
  /* 16 KiB of CODE, the default 1 MiB of DATA */
  struct simty_model_config cfg = {warps, lanes, 0x4000, 0, xbar};
  assert_int_equal(simty_model_create(&cfg, &h->m), 0);
  h->warps = warps;
  h->lanes = lanes;
  simty_model_set_trace(h->m, harness_trace, h);
  simty_model_set_console(h->m, harness_console, h);
  return h;
}

static inline struct harness *harness_new(unsigned warps, unsigned lanes)
{
  return harness_new_xbar(warps, lanes, SIMTY_XBAR_FULL);
}

static inline void harness_free(struct harness *h)
{
  simty_model_destroy(h->m);
  free(h);
}

static inline void harness_load(struct harness *h, const struct prog *p)
{
  assert_int_equal(simty_model_write(h->m, SIMTY_CODE_BASE, p->w, 4 * p->n),
                   0);
}

/* Launch at the start of CODE and run to the end (or max_cycles). */
static inline int harness_launch(struct harness *h, uint32_t nthreads,
                                 uint32_t args, uint64_t max_cycles)
{
  struct simty_model_launch_params lp = {.entry = SIMTY_CODE_BASE,
                                         .nthreads = nthreads,
                                         .args = args,
                                         .stack_log2 = 6,
                                         .max_cycles = max_cycles};
  h->ntrace = h->nconsole = 0;
  assert_int_equal(simty_model_launch(h->m, &lp), 0);
  h->status = simty_model_run(h->m, 0);
  simty_model_get_fault(h->m, &h->fault);
  simty_model_counters(h->m, h->ctr);
  return h->status;
}

/* Load and run `p`; returns the final status. */
static inline int harness_run(struct harness *h, const struct prog *p,
                              uint32_t nthreads)
{
  harness_load(h, p);
  return harness_launch(h, nthreads, 0, 1000000);
}

static inline uint32_t peek(struct harness *h, uint32_t addr)
{
  uint8_t b[4];
  assert_int_equal(simty_model_read(h->m, addr, b, 4), 0);
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
         (uint32_t)b[3] << 24;
}

static inline void poke(struct harness *h, uint32_t addr, uint32_t value)
{
  uint8_t b[4] = {(uint8_t)value, (uint8_t)(value >> 8),
                  (uint8_t)(value >> 16), (uint8_t)(value >> 24)};
  assert_int_equal(simty_model_write(h->m, addr, b, 4), 0);
}

#define assert_fault(h, cause_, pc_, hart_, tid_, addr_)                     \
  do {                                                                       \
    assert_int_equal((h)->status, SIMTY_MODEL_FAULTED);                      \
    assert_int_equal((h)->fault.cause, (cause_));                            \
    assert_int_equal((h)->fault.pc, (pc_));                                  \
    assert_int_equal((h)->fault.hart, (hart_));                              \
    assert_int_equal((h)->fault.tid, (tid_));                                \
    assert_int_equal((h)->fault.addr, (addr_));                              \
  } while (0)

#endif /* MODEL_TEST_UTIL_H */
