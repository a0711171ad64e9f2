/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_model_isa.c - RV32I semantics of the reference model, one
 * instruction group per test, edge cases included, plus every fault
 * cause of docs/architecture.md section 5 and the CSR values.
 */
#include "model_test_util.h"

/* One warp, one lane, one thread: plain RV32I semantics. */
static struct harness *run_single(const struct prog *p)
{
  struct harness *h = harness_new(1, 1);
  harness_run(h, p, 1);
  return h;
}

static void expect_done(struct harness *h)
{
  if (h->status != SIMTY_MODEL_DONE)
    fail_msg("status %d, fault cause %u pc 0x%08x addr 0x%08x", h->status,
             h->fault.cause, h->fault.pc, h->fault.addr);
}

static void test_lui_auipc(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit(&p, LUI(1, 0xfffff000u));
  emit(&p, LUI(2, 0x12345000u));
  uint32_t pc3 = emit(&p, AUIPC(3, 0));
  uint32_t pc4 = emit(&p, AUIPC(4, 0xfffff000u));
  uint32_t pc5 = emit(&p, AUIPC(5, 0x7ffff000u));
  for (unsigned r = 1; r <= 5; r++)
    emit(&p, SW(r, RES, 4 * (int)r));
  emit(&p, ECALL);
  struct harness *h = run_single(&p);
  expect_done(h);
  assert_int_equal(peek(h, OUT(1)), 0xfffff000u);
  assert_int_equal(peek(h, OUT(2)), 0x12345000u);
  assert_int_equal(peek(h, OUT(3)), pc3);
  assert_int_equal(peek(h, OUT(4)), pc4 - 0x1000u);
  assert_int_equal(peek(h, OUT(5)), pc5 + 0x7ffff000u);
  harness_free(h);
}

static void test_add_sub_addi(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit_li(&p, 1, 0x7fffffffu);
  emit(&p, ADDI(2, 1, 1));     /* wraps to 0x80000000 */
  emit(&p, ADDI(3, 0, -1));    /* sign-extended immediate */
  emit(&p, ADD(4, 3, 3));      /* 0xfffffffe */
  emit(&p, SUB(5, 0, 3));      /* 1 */
  emit(&p, SUB(6, 2, 3));      /* 0x80000001 */
  emit(&p, ADDI(7, 0, 2047));  /* largest immediate */
  emit(&p, ADDI(8, 0, -2048)); /* smallest immediate */
  emit(&p, ADD(9, 1, 2));      /* 0x7fffffff + 0x80000000 */
  for (unsigned r = 2; r <= 9; r++)
    emit(&p, SW(r, RES, 4 * (int)r));
  emit(&p, ECALL);
  struct harness *h = run_single(&p);
  expect_done(h);
  assert_int_equal(peek(h, OUT(2)), 0x80000000u);
  assert_int_equal(peek(h, OUT(3)), 0xffffffffu);
  assert_int_equal(peek(h, OUT(4)), 0xfffffffeu);
  assert_int_equal(peek(h, OUT(5)), 1);
  assert_int_equal(peek(h, OUT(6)), 0x80000001u);
  assert_int_equal(peek(h, OUT(7)), 2047);
  assert_int_equal(peek(h, OUT(8)), 0xfffff800u);
  assert_int_equal(peek(h, OUT(9)), 0xffffffffu);
  harness_free(h);
}

static void test_compares_signed_unsigned(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit(&p, ADDI(1, 0, -1));
  emit(&p, ADDI(2, 0, 1));
  emit(&p, LUI(14, 0x80000000u));
  emit(&p, SLT(3, 1, 2));     /* -1 < 1 signed: 1 */
  emit(&p, SLTU(4, 1, 2));    /* 0xffffffff < 1: 0 */
  emit(&p, SLT(5, 2, 1));     /* 0 */
  emit(&p, SLTU(6, 2, 1));    /* 1 */
  emit(&p, SLT(7, 2, 2));     /* equal: 0 */
  emit(&p, SLTI(8, 1, 0));    /* -1 < 0: 1 */
  emit(&p, SLTI(9, 2, -1));   /* 1 < -1: 0 */
  emit(&p, SLTIU(10, 2, -1)); /* 1 < 0xffffffff (sign-extended): 1 */
  emit(&p, SLTIU(11, 1, -1)); /* equal: 0 */
  emit(&p, SLTIU(12, 0, 1));  /* seqz of 0: 1 */
  emit(&p, SLTIU(13, 2, 1));  /* seqz of 1: 0 */
  emit(&p, SLT(15, 14, 2));   /* INT_MIN < 1: 1 */
  emit(&p, SLTU(16, 14, 2));  /* 0x80000000 < 1: 0 */
  emit(&p, SLTU(17, 0, 2));   /* snez: 1 */
  emit(&p, LUI(18, 0x1000));
  emit(&p, SLTIU(19, 18, -1));    /* 0x1000 < 0xffffffff: 1 */
  emit(&p, SLTIU(20, 14, -2048)); /* 0x80000000 < 0xfffff800: 1 */
  emit(&p, SLTI(21, 18, -2048));  /* 4096 < -2048: 0 */
  emit(&p, SLTI(22, 14, -2048));  /* INT_MIN < -2048: 1 */
  for (unsigned r = 3; r <= 22; r++)
    if (r != 14 && r != 18)
      emit(&p, SW(r, RES, 4 * (int)r));
  emit(&p, ECALL);
  struct harness *h = run_single(&p);
  expect_done(h);
  static const uint32_t want[23] = {
      [3] = 1,  [4] = 0,  [5] = 0,  [6] = 1,  [7] = 0,  [8] = 1,
      [9] = 0,  [10] = 1, [11] = 0, [12] = 1, [13] = 0, [15] = 1,
      [16] = 0, [17] = 1, [19] = 1, [20] = 1, [21] = 0, [22] = 1};
  for (unsigned r = 3; r <= 22; r++)
    if (r != 14 && r != 18)
      assert_int_equal(peek(h, OUT(r)), want[r]);
  harness_free(h);
}

static void test_shifts(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit_li(&p, 1, 0x80000001u);
  emit(&p, ADDI(2, 0, 33));  /* amount 33 acts as 1 */
  emit(&p, ADDI(3, 0, 32));  /* amount 32 acts as 0 */
  emit(&p, ADDI(4, 0, -1));  /* amount 0xffffffff acts as 31 */
  emit(&p, SLL(5, 1, 2));
  emit(&p, SRL(6, 1, 2));
  emit(&p, SRA(7, 1, 2));
  emit(&p, SLL(8, 1, 3));
  emit(&p, SRA(9, 1, 4));
  emit(&p, SRL(10, 1, 4));
  emit(&p, SLLI(11, 1, 31));
  emit(&p, SRLI(12, 1, 4));
  emit(&p, SRAI(13, 1, 4));
  emit(&p, SRAI(14, 2, 1)); /* positive: like srl */
  emit(&p, SRAI(15, 1, 0));
  emit(&p, SLLI(16, 1, 0));
  for (unsigned r = 5; r <= 16; r++)
    emit(&p, SW(r, RES, 4 * (int)r));
  emit(&p, ECALL);
  struct harness *h = run_single(&p);
  expect_done(h);
  static const uint32_t want[17] = {
      [5] = 0x00000002u,  [6] = 0x40000000u,  [7] = 0xc0000000u,
      [8] = 0x80000001u,  [9] = 0xffffffffu,  [10] = 0x00000001u,
      [11] = 0x80000000u, [12] = 0x08000000u, [13] = 0xf8000000u,
      [14] = 16,          [15] = 0x80000001u, [16] = 0x80000001u};
  for (unsigned r = 5; r <= 16; r++)
    assert_int_equal(peek(h, OUT(r)), want[r]);
  harness_free(h);
}

static void test_logic(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit_li(&p, 1, 0xf0f0a5a5u);
  emit_li(&p, 2, 0x0ff0ffffu);
  emit(&p, XOR(3, 1, 2));
  emit(&p, OR(4, 1, 2));
  emit(&p, AND(5, 1, 2));
  emit(&p, XORI(6, 1, -1));    /* not */
  emit(&p, ORI(7, 0, -2048));  /* sign-extended */
  emit(&p, ANDI(8, 1, -256));  /* 0xffffff00 mask */
  emit(&p, ANDI(9, 1, 0x7ff));
  emit(&p, XORI(10, 1, 0x5a5));
  for (unsigned r = 3; r <= 10; r++)
    emit(&p, SW(r, RES, 4 * (int)r));
  emit(&p, ECALL);
  struct harness *h = run_single(&p);
  expect_done(h);
  assert_int_equal(peek(h, OUT(3)), 0xff005a5au);
  assert_int_equal(peek(h, OUT(4)), 0xfff0ffffu);
  assert_int_equal(peek(h, OUT(5)), 0x00f0a5a5u);
  assert_int_equal(peek(h, OUT(6)), 0x0f0f5a5au);
  assert_int_equal(peek(h, OUT(7)), 0xfffff800u);
  assert_int_equal(peek(h, OUT(8)), 0xf0f0a500u);
  assert_int_equal(peek(h, OUT(9)), 0x000005a5u);
  assert_int_equal(peek(h, OUT(10)), 0xf0f0a000u);
  harness_free(h);
}

static void test_loads_sign_extension(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit_li(&p, 1, SIMTY_DATA_BASE + 0x104);
  emit(&p, LB(2, 1, -4));  /* 0x80 */
  emit(&p, LBU(3, 1, -4));
  emit(&p, LB(4, 1, -3));  /* 0x7f */
  emit(&p, LH(5, 1, -2));  /* 0x8001 */
  emit(&p, LHU(6, 1, -2));
  emit(&p, LH(7, 1, -4));  /* 0x7f80 */
  emit(&p, LW(8, 1, 0));
  emit(&p, LW(9, 1, -4));
  emit(&p, LBU(10, 1, 3));
  emit(&p, LHU(11, 1, 2));
  emit(&p, LB(12, 1, 3));  /* 0x12, positive */
  for (unsigned r = 2; r <= 12; r++)
    emit(&p, SW(r, RES, 4 * (int)r));
  emit(&p, ECALL);
  struct harness *h = harness_new(1, 1);
  poke(h, SIMTY_DATA_BASE + 0x100, 0x80017f80u);
  poke(h, SIMTY_DATA_BASE + 0x104, 0x12345678u);
  harness_run(h, &p, 1);
  expect_done(h);
  assert_int_equal(peek(h, OUT(2)), 0xffffff80u);
  assert_int_equal(peek(h, OUT(3)), 0x80u);
  assert_int_equal(peek(h, OUT(4)), 0x7fu);
  assert_int_equal(peek(h, OUT(5)), 0xffff8001u);
  assert_int_equal(peek(h, OUT(6)), 0x8001u);
  assert_int_equal(peek(h, OUT(7)), 0x7f80u);
  assert_int_equal(peek(h, OUT(8)), 0x12345678u);
  assert_int_equal(peek(h, OUT(9)), 0x80017f80u);
  assert_int_equal(peek(h, OUT(10)), 0x12u);
  assert_int_equal(peek(h, OUT(11)), 0x1234u);
  assert_int_equal(peek(h, OUT(12)), 0x12u);
  harness_free(h);
}

static void test_stores_partial(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_li(&p, 1, SIMTY_DATA_BASE + 0x200);
  emit_li(&p, 2, 0x11223344u);
  emit(&p, SB(2, 1, 1));
  emit(&p, SH(2, 1, 6));
  emit(&p, SW(2, 1, 8));
  emit(&p, SB(2, 1, -1));
  emit(&p, SH(2, 1, -4));
  emit(&p, ECALL);
  struct harness *h = harness_new(1, 1);
  poke(h, SIMTY_DATA_BASE + 0x1fc, 0xccccccccu);
  poke(h, SIMTY_DATA_BASE + 0x200, 0xaaaaaaaau);
  poke(h, SIMTY_DATA_BASE + 0x204, 0xbbbbbbbbu);
  harness_run(h, &p, 1);
  expect_done(h);
  assert_int_equal(peek(h, SIMTY_DATA_BASE + 0x200), 0xaaaa44aau);
  assert_int_equal(peek(h, SIMTY_DATA_BASE + 0x204), 0x3344bbbbu);
  assert_int_equal(peek(h, SIMTY_DATA_BASE + 0x208), 0x11223344u);
  assert_int_equal(peek(h, SIMTY_DATA_BASE + 0x1fc), 0x44cc3344u);
  assert_int_equal(peek(h, SIMTY_DATA_BASE + 0x20c), 0);
  harness_free(h);
}

static void test_x0_is_zero(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit(&p, ADDI(0, 0, 5));
  emit(&p, LUI(0, 0x12345000u));
  emit(&p, LW(0, RES, 4));           /* OUT(1) holds 7 */
  emit(&p, CSRR(0, SIMTY_CSR_TID));  /* legal, writes nothing */
  emit(&p, SW(0, RES, 0));
  emit(&p, ADD(1, 0, 0));
  emit(&p, SW(1, RES, 8));
  uint32_t j = emit(&p, JAL(0, 8)); /* no link */
  emit(&p, ADDI(3, 0, 9));          /* skipped */
  emit(&p, SW(0, RES, 12));
  emit(&p, SW(3, RES, 16));
  emit(&p, ECALL);
  (void)j;
  struct harness *h = harness_new(1, 1);
  poke(h, OUT(0), 0xdeadbeefu);
  poke(h, OUT(1), 7);
  poke(h, OUT(2), 0xdeadbeefu);
  poke(h, OUT(3), 0xdeadbeefu);
  poke(h, OUT(4), 0xdeadbeefu);
  harness_run(h, &p, 1);
  expect_done(h);
  assert_int_equal(peek(h, OUT(0)), 0);
  assert_int_equal(peek(h, OUT(2)), 0);
  assert_int_equal(peek(h, OUT(3)), 0);
  assert_int_equal(peek(h, OUT(4)), 0); /* x3 never written: zero */
  /* Writes to x0 never count as register vectors (one lane anyway). */
  assert_int_equal(h->ctr[SIMTY_CTR_uniform_vectors], 0);
  harness_free(h);
}

static void test_jal_jalr(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  /* jal: link = pc + 4, lands on pc + 12 */
  uint32_t jal_pc = emit(&p, JAL(1, 12));
  emit(&p, ADDI(6, 0, 1));
  emit(&p, ADDI(6, 0, 2));
  emit(&p, SW(1, RES, 0));
  /* jalr to an odd address: bit 0 cleared */
  uint32_t li2 = here(&p);
  emit_li(&p, 2, 0); /* patched below */
  uint32_t jalr1 = emit(&p, JALR(3, 2, 0));
  emit(&p, ADDI(6, 0, 3));
  uint32_t t1 = emit(&p, SW(3, RES, 4));
  /* rd == rs1: the target uses the old value */
  uint32_t li7 = here(&p);
  emit_li(&p, 7, 0);
  uint32_t jalr2 = emit(&p, JALR(7, 7, 0));
  emit(&p, ADDI(6, 0, 4));
  emit(&p, ADDI(6, 0, 5));
  uint32_t t2 = emit(&p, SW(7, RES, 8));
  /* negative immediate */
  uint32_t li8 = here(&p);
  emit_li(&p, 8, 0);
  uint32_t jalr3 = emit(&p, JALR(9, 8, -8));
  emit(&p, ADDI(6, 0, 6));
  uint32_t t3 = emit(&p, SW(9, RES, 12));
  emit(&p, SW(6, RES, 16));
  /* backward jal */
  uint32_t fwd = emit(&p, JAL(0, 0)); /* patched: jump to the tail */
  uint32_t back = emit(&p, ADDI(10, 0, 77));
  emit(&p, SW(10, RES, 20));
  emit(&p, ECALL);
  uint32_t tail = emit(&p, JAL(0, (int32_t)(back - here(&p))));
  patch(&p, fwd, JAL(0, (int32_t)(tail - fwd)));

  struct prog tmp = {0};
  emit_li(&tmp, 2, t1 | 1u);
  patch(&p, li2, tmp.w[0]);
  patch(&p, li2 + 4, tmp.w[1]);
  tmp.n = 0;
  emit_li(&tmp, 7, t2);
  patch(&p, li7, tmp.w[0]);
  patch(&p, li7 + 4, tmp.w[1]);
  tmp.n = 0;
  emit_li(&tmp, 8, t3 + 8);
  patch(&p, li8, tmp.w[0]);
  patch(&p, li8 + 4, tmp.w[1]);

  struct harness *h = run_single(&p);
  expect_done(h);
  assert_int_equal(peek(h, OUT(0)), jal_pc + 4);
  assert_int_equal(peek(h, OUT(1)), jalr1 + 4);
  assert_int_equal(peek(h, OUT(2)), jalr2 + 4);
  assert_int_equal(peek(h, OUT(3)), jalr3 + 4);
  assert_int_equal(peek(h, OUT(4)), 0); /* no skipped instruction ran */
  assert_int_equal(peek(h, OUT(5)), 77);
  harness_free(h);
}

struct branch_case {
  uint32_t (*enc)(unsigned, unsigned, int32_t);
  unsigned a, b;
  uint32_t taken;
};

#define BR(name)                                                             \
  static uint32_t br_##name(unsigned a, unsigned b, int32_t off)             \
  {                                                                          \
    return name(a, b, off);                                                  \
  }
BR(BEQ)
BR(BNE)
BR(BLT)
BR(BGE)
BR(BLTU)
BR(BGEU)

static void test_branches_both_ways(void **state)
{
  (void)state;
  /* x1 = -1, x2 = 1, x3 = INT_MIN, x4 = INT_MAX, x5 = 1 */
  static const struct branch_case cases[] = {
      {br_BEQ, 2, 5, 1},  {br_BEQ, 1, 2, 0},  {br_BNE, 1, 2, 1},
      {br_BNE, 2, 5, 0},  {br_BLT, 1, 2, 1},  {br_BLT, 2, 1, 0},
      {br_BLT, 2, 5, 0},  {br_BLT, 3, 4, 1},  {br_BGE, 2, 1, 1},
      {br_BGE, 1, 2, 0},  {br_BGE, 2, 5, 1},  {br_BGE, 4, 3, 1},
      {br_BLTU, 2, 1, 1}, {br_BLTU, 1, 2, 0}, {br_BLTU, 2, 5, 0},
      {br_BLTU, 4, 3, 1}, {br_BGEU, 1, 2, 1}, {br_BGEU, 2, 1, 0},
      {br_BGEU, 2, 5, 1}, {br_BGEU, 3, 4, 1}, {br_BLT, 4, 3, 0},
      {br_BGE, 3, 4, 0},
  };
  const unsigned ncases = sizeof(cases) / sizeof(cases[0]);
  struct prog p = {0};
  emit_res_base(&p);
  emit(&p, ADDI(1, 0, -1));
  emit(&p, ADDI(2, 0, 1));
  emit(&p, LUI(3, 0x80000000u));
  emit_li(&p, 4, 0x7fffffffu);
  emit(&p, ADDI(5, 0, 1));
  for (unsigned k = 0; k < ncases; k++) {
    emit(&p, ADDI(10, 0, 1));
    emit(&p, cases[k].enc(cases[k].a, cases[k].b, 8));
    emit(&p, ADDI(10, 0, 0));
    emit(&p, SW(10, RES, 4 * (int)k));
  }
  /* backward branch: a 3-iteration loop */
  emit(&p, ADDI(6, 0, 3));
  emit(&p, ADDI(7, 7, 1));
  emit(&p, ADDI(6, 6, -1));
  emit(&p, BNE(6, 0, -8));
  emit(&p, SW(7, RES, 4 * (int)ncases));
  emit(&p, ECALL);
  struct harness *h = run_single(&p);
  expect_done(h);
  for (unsigned k = 0; k < ncases; k++)
    if (peek(h, OUT(k)) != cases[k].taken)
      fail_msg("branch case %u: taken=%u, expected %u", k, peek(h, OUT(k)),
               cases[k].taken);
  assert_int_equal(peek(h, OUT(ncases)), 3);
  assert_int_equal(h->ctr[SIMTY_CTR_divergent_branches], 0);
  harness_free(h);
}

static void test_fence_is_nop(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit(&p, ADDI(1, 0, 3));
  emit(&p, FENCE);
  emit(&p, FENCE_I);
  emit(&p, ADDI(1, 1, 4));
  emit(&p, SW(1, RES, 0));
  emit(&p, ECALL);
  struct harness *h = run_single(&p);
  expect_done(h);
  assert_int_equal(peek(h, OUT(0)), 7);
  assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], 7);
  assert_int_equal(h->ctr[SIMTY_CTR_thread_insts], 7);
  harness_free(h);
}

/* Each CSR read into OUT(k * 8 + tid), 2 warps x 2 lanes, 6 threads: the
 * third block goes to warp 0 (first to free), so mhartid != tid there. */
static void test_csr_values(void **state)
{
  (void)state;
  static const uint32_t csrs[] = {
      SIMTY_CSR_MHARTID,  SIMTY_CSR_TID,       SIMTY_CSR_NTHREADS,
      SIMTY_CSR_LANES,    SIMTY_CSR_WARPS,     SIMTY_CSR_ARGS,
      SIMTY_CSR_STACK_TOP, SIMTY_CSR_STACK_LOG2};
  struct prog p = {0};
  emit_res_base(&p);
  emit(&p, CSRR(30, SIMTY_CSR_TID));
  emit(&p, SLLI(30, 30, 2));
  emit(&p, ADD(30, 30, RES));
  for (unsigned k = 0; k < 8; k++) {
    emit(&p, CSRR(5, csrs[k]));
    emit(&p, SW(5, 30, 32 * (int)k));
  }
  /* the other read-only forms */
  emit(&p, CSRRC(5, SIMTY_CSR_MHARTID, 0));
  emit(&p, SW(5, 30, 32 * 8));
  emit(&p, CSRRSI(5, SIMTY_CSR_TID, 0));
  emit(&p, SW(5, 30, 32 * 9));
  emit(&p, CSRRCI(5, SIMTY_CSR_LANES, 0));
  emit(&p, SW(5, 30, 32 * 10));
  emit(&p, ECALL);
  struct harness *h = harness_new(2, 2);
  harness_load(h, &p);
  harness_launch(h, 6, 0x10000abcu, 0);
  expect_done(h);
  static const uint32_t hart_of[6] = {0, 1, 2, 3, 0, 1};
  for (uint32_t t = 0; t < 6; t++) {
    assert_int_equal(peek(h, OUT(0 * 8 + t)), hart_of[t]);
    assert_int_equal(peek(h, OUT(1 * 8 + t)), t);
    assert_int_equal(peek(h, OUT(2 * 8 + t)), 6);
    assert_int_equal(peek(h, OUT(3 * 8 + t)), 2);
    assert_int_equal(peek(h, OUT(4 * 8 + t)), 2);
    assert_int_equal(peek(h, OUT(5 * 8 + t)), 0x10000abcu);
    assert_int_equal(peek(h, OUT(6 * 8 + t)),
                     SIMTY_DATA_BASE + SIMTY_DEFAULT_DATA_SIZE);
    assert_int_equal(peek(h, OUT(7 * 8 + t)), 6);
    assert_int_equal(peek(h, OUT(8 * 8 + t)), hart_of[t]);
    assert_int_equal(peek(h, OUT(9 * 8 + t)), t);
    assert_int_equal(peek(h, OUT(10 * 8 + t)), 2);
  }
  assert_int_equal(peek(h, OUT(1 * 8 + 6)), 0); /* no seventh thread */
  harness_free(h);
}

/* ---- Faults ---- */

/* x6 = per-lane address DATA + 4*tid + (lane 3 ? 1 : 0) + offset in x7 */
static void test_misaligned_load_lowest_lane(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, ADD(6, RES, 5));              /* DATA + tid */
  emit(&p, LB(8, 6, 0));                 /* bytes: fine */
  uint32_t lh = emit(&p, LH(8, 6, 0));   /* lanes 1, 3 misaligned */
  emit(&p, ECALL);
  struct harness *h = harness_new(1, 4);
  harness_run(h, &p, 4);
  assert_fault(h, SIMTY_FAULT_MISALIGNED_LOAD, lh, 1, 1, SIMTY_DATA_BASE + 1);
  /* the faulting instruction does not retire */
  assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], 4);
  assert_int_equal(h->ctr[SIMTY_CTR_mem_transactions], 1);
  harness_free(h);

  /* A lane-2 word misaligned by 2 in a second warp: hart 6, tid 6. */
  p.n = 0;
  emit_res_base(&p);
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, ANDI(6, 5, 2));               /* 2 on lanes 2, 3 */
  emit(&p, SLLI(7, 5, 3));               /* 8 * tid */
  emit(&p, ADD(6, 6, 7));
  emit(&p, ADD(6, 6, RES));
  uint32_t lw = emit(&p, LW(8, 6, 0));
  emit(&p, ECALL);
  h = harness_new(2, 4);
  harness_load(h, &p);
  harness_launch(h, 8, 0, 0);
  /* warp 0 runs first and faults on its lane 2 */
  assert_fault(h, SIMTY_FAULT_MISALIGNED_LOAD, lw, 2, 2,
               SIMTY_DATA_BASE + 16 + 2);
  harness_free(h);
}

static void test_misaligned_store_writes_nothing(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, SLLI(6, 5, 1));
  emit(&p, ADD(6, 6, RES));              /* DATA + 2*tid */
  emit(&p, ADDI(7, 0, 0x55));
  uint32_t sw = emit(&p, SW(7, 6, 0));   /* lanes 1, 3 misaligned */
  emit(&p, ECALL);
  struct harness *h = harness_new(1, 4);
  poke(h, OUT(0), 0x11111111u);
  harness_run(h, &p, 4);
  assert_fault(h, SIMTY_FAULT_MISALIGNED_STORE, sw, 1, 1,
               SIMTY_DATA_BASE + 2);
  assert_int_equal(peek(h, OUT(0)), 0x11111111u); /* lane 0 wrote nothing */
  harness_free(h);

  /* sh at an odd address */
  p.n = 0;
  emit_res_base(&p);
  uint32_t sh = emit(&p, SH(0, RES, 3));
  emit(&p, ECALL);
  h = run_single(&p);
  assert_fault(h, SIMTY_FAULT_MISALIGNED_STORE, sh, 0, 0,
               SIMTY_DATA_BASE + 3);
  harness_free(h);
}

/* A single-thread access to `addr` (in x6) with instruction `insn`. */
static struct harness *access_at(uint32_t addr, uint32_t insn, uint32_t *pc)
{
  struct prog p = {0};
  emit_li(&p, 6, addr);
  *pc = emit(&p, insn);
  emit(&p, ECALL);
  return run_single(&p);
}

static void test_access_out_of_range(void **state)
{
  (void)state;
  const uint32_t data_end = SIMTY_DATA_BASE + SIMTY_DEFAULT_DATA_SIZE;
  struct {
    uint32_t addr, insn, cause;
  } cases[] = {
      {data_end, LW(8, 6, 0), SIMTY_FAULT_LOAD_OUT_OF_RANGE},
      {data_end - 2, LW(8, 6, 0), SIMTY_FAULT_MISALIGNED_LOAD},
      {data_end - 1, LBU(8, 6, 0), 0},
      {data_end - 2, LH(8, 6, 0), 0},
      {data_end - 4, LW(8, 6, 0), 0},
      {data_end, LBU(8, 6, 0), SIMTY_FAULT_LOAD_OUT_OF_RANGE},
      {SIMTY_DATA_BASE - 4, LW(8, 6, 0), SIMTY_FAULT_LOAD_OUT_OF_RANGE},
      {SIMTY_CODE_BASE, LW(8, 6, 0), SIMTY_FAULT_LOAD_OUT_OF_RANGE},
      {0, LW(8, 6, 0), SIMTY_FAULT_LOAD_OUT_OF_RANGE},
      {SIMTY_CONSOLE_ADDR, LW(8, 6, 0), SIMTY_FAULT_LOAD_OUT_OF_RANGE},
      {SIMTY_CONSOLE_ADDR, LBU(8, 6, 0), SIMTY_FAULT_LOAD_OUT_OF_RANGE},
      /* alignment is checked before range */
      {SIMTY_CONSOLE_ADDR + 2, LW(8, 6, 0), SIMTY_FAULT_MISALIGNED_LOAD},
      {0xfffffffeu, LW(8, 6, 0), SIMTY_FAULT_MISALIGNED_LOAD},
      {data_end, SW(0, 6, 0), SIMTY_FAULT_STORE_OUT_OF_RANGE},
      {data_end - 4, SW(0, 6, 0), 0},
      {SIMTY_CODE_BASE, SW(0, 6, 0), SIMTY_FAULT_STORE_OUT_OF_RANGE},
      {SIMTY_MMIO_BASE, SW(0, 6, 0), SIMTY_FAULT_STORE_OUT_OF_RANGE},
      {SIMTY_CONSOLE_ADDR + 4, SB(0, 6, 0), SIMTY_FAULT_STORE_OUT_OF_RANGE},
      {SIMTY_CONSOLE_ADDR - 4, SW(0, 6, 0), SIMTY_FAULT_STORE_OUT_OF_RANGE},
      {SIMTY_CONSOLE_ADDR + 1, SH(0, 6, 0), SIMTY_FAULT_MISALIGNED_STORE},
      {SIMTY_CONSOLE_ADDR, SW(0, 6, 0), 0},
      {SIMTY_CONSOLE_ADDR + 2, SH(0, 6, 0), 0},
      {SIMTY_CONSOLE_ADDR + 3, SB(0, 6, 0), 0},
  };
  for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
    uint32_t pc;
    struct harness *h = access_at(cases[k].addr, cases[k].insn, &pc);
    if (cases[k].cause == 0) {
      if (h->status != SIMTY_MODEL_DONE)
        fail_msg("case %u (addr 0x%08x): unexpected fault %u", k,
                 cases[k].addr, h->fault.cause);
    } else {
      if (h->status != SIMTY_MODEL_FAULTED ||
          h->fault.cause != cases[k].cause)
        fail_msg("case %u (addr 0x%08x): status %d cause %u, expected %u",
                 k, cases[k].addr, h->status, h->fault.cause,
                 cases[k].cause);
      assert_fault(h, cases[k].cause, pc, 0, 0, cases[k].addr);
    }
    harness_free(h);
  }
}

/* Lanes 2 (out of range, aligned) and 3 (misaligned): lane 2 reports.
 * (Lanes 0 and 1 read the bottom of DATA: end-8 and end-4 would be in
 * hart 0's stack, a stack overflow for lane 1.) */
static void test_fault_lowest_lane_wins(void **state)
{
  (void)state;
  const uint32_t data_end = SIMTY_DATA_BASE + SIMTY_DEFAULT_DATA_SIZE;
  struct prog p = {0};
  emit_li(&p, 6, SIMTY_DATA_BASE);
  emit_li(&p, 10, SIMTY_DEFAULT_DATA_SIZE - 8);
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, SLLI(7, 5, 2));
  emit(&p, ADD(6, 6, 7));      /* base, base+4, base+8, base+12 */
  emit(&p, SRLI(8, 5, 1));
  emit(&p, SUB(8, 0, 8));      /* 0, 0, -1, -1 */
  emit(&p, AND(8, 8, 10));
  emit(&p, ADD(6, 6, 8));      /* base, base+4, end, end+4 */
  emit(&p, SRLI(8, 5, 1));
  emit(&p, AND(8, 8, 5));      /* 1 on lane 3 only */
  emit(&p, ADD(6, 6, 8));      /* lane 3: end+5, misaligned */
  uint32_t lw = emit(&p, LW(9, 6, 0));
  emit(&p, ECALL);
  struct harness *h = harness_new(1, 4);
  harness_run(h, &p, 4);
  assert_fault(h, SIMTY_FAULT_LOAD_OUT_OF_RANGE, lw, 2, 2, data_end);
  harness_free(h);
}

/* ---- Interleaved stacks and the stack guard (architecture.md 3) ---- */

/* x6 = this thread's sp: stack_top - (mhartid << 6) (the harness
 * launches with stack_log2 = 6), x5 = mhartid. */
static void emit_sp(struct prog *p)
{
  emit(p, CSRR(5, SIMTY_CSR_MHARTID));
  emit(p, CSRR(6, SIMTY_CSR_STACK_TOP));
  emit(p, SLLI(7, 5, 6));
  emit(p, SUB(6, 6, 7));
}

/* 16 harts of 64-byte stacks: each stores hart * 16 + k at sp - 4(k+1)
 * and a byte at its stack's lowest word + 1, then reads two of them back
 * through the same pointers. Physically, logical word w of hart h's
 * stack (w counted from the stack's bottom) is word w * 16 + h of the
 * area, so every access of a warp is one transaction. */
static void test_stack_interleaved(void **state)
{
  (void)state;
  const uint32_t top = SIMTY_DATA_BASE + SIMTY_DEFAULT_DATA_SIZE;
  const uint32_t N = 16, base = top - (N << 6);
  struct prog p = {0};
  emit_res_base(&p);
  emit_sp(&p);
  emit(&p, SLLI(8, 5, 4));
  for (int k = 0; k < 4; k++) {
    emit(&p, ADDI(9, 8, k));
    emit(&p, SW(9, 6, -4 * (k + 1)));
  }
  emit(&p, SB(5, 6, -64 + 1));
  emit(&p, LW(10, 6, -8));         /* hart * 16 + 1 */
  emit(&p, LBU(11, 6, -63));       /* hart */
  emit(&p, SLLI(12, 5, 2));
  emit(&p, ADD(12, 12, RES));
  emit(&p, SW(10, 12, 0));         /* OUT(hart) */
  emit(&p, SW(11, 12, 64));        /* OUT(16 + hart) */
  emit(&p, ECALL);
  struct harness *h = harness_new(4, 4);
  assert_int_equal(harness_run(h, &p, N), SIMTY_MODEL_DONE);
  for (uint32_t hart = 0; hart < N; hart++) {
    for (uint32_t k = 0; k < 4; k++) {
      uint32_t w = 15 - k; /* sp - 4(k+1) is word 15 - k of the stack */
      assert_int_equal(peek(h, base + 4 * (w * N + hart)), hart * 16 + k);
    }
    assert_int_equal(peek(h, base + 4 * hart), hart << 8);
    assert_int_equal(peek(h, OUT(hart)), hart * 16 + 1);
    assert_int_equal(peek(h, OUT(16 + hart)), hart);
  }
  /* 4 warps x 9 memory instructions, each one full transaction */
  assert_int_equal(h->ctr[SIMTY_CTR_mem_transactions], 4 * 9);
  assert_int_equal(h->ctr[SIMTY_CTR_mem_requests], 4 * 9 * 4);
  assert_int_equal(h->ctr[SIMTY_CTR_replays_mem], 0);
  harness_free(h);
}

/* A lane whose access lands in another hart's stack faults
 * STACK_OVERFLOW (lowest such lane, logical address), after misaligned
 * and out-of-range lanes; nothing is written; the next launch runs. */
static void test_stack_guard(void **state)
{
  (void)state;
  const uint32_t top = SIMTY_DATA_BASE + SIMTY_DEFAULT_DATA_SIZE;
  struct harness *h = harness_new(1, 4);
  /* Every lane stores just below its own stack: lanes 0-2 into harts
   * 1-3's stacks, lane 3 (the lowest stack) below the area, into kernel
   * data, which the guard does not cover. */
  struct prog p = {0};
  emit_sp(&p);
  uint32_t sw = emit(&p, SW(5, 6, -64 - 4));
  emit(&p, ECALL);
  harness_run(h, &p, 4);
  assert_fault(h, SIMTY_FAULT_STACK_OVERFLOW, sw, 0, 0, top - 64 - 4);
  for (uint32_t a = top - 4 * 64 - 4; a < top; a += 4)
    assert_int_equal(peek(h, a), 0);
  /* Only lane 2 strays, with a load at sp + 4 (hart 1's stack). */
  p.n = 0;
  emit_sp(&p);
  emit(&p, ADDI(8, 5, -2));
  emit(&p, SLTIU(8, 8, 1));         /* 1 on lane 2 */
  emit(&p, SLLI(8, 8, 3));
  emit(&p, ADDI(6, 6, -4));
  emit(&p, ADD(6, 6, 8));           /* sp - 4, lane 2: sp + 4 */
  uint32_t lw = emit(&p, LW(9, 6, 0));
  emit(&p, ECALL);
  harness_run(h, &p, 4);
  assert_fault(h, SIMTY_FAULT_STACK_OVERFLOW, lw, 2, 2, top - 2 * 64 + 4);
  /* Lane 1 misaligned in its own stack, lane 0 in hart 1's: lane 0, the
   * lowest, reports stack_overflow; lane 1 alone reports misaligned. */
  p.n = 0;
  emit_sp(&p);
  emit(&p, ADDI(8, 5, -1));
  emit(&p, SLTIU(8, 8, 1));         /* 1 on lane 1 */
  emit(&p, ADD(6, 6, 8));
  emit(&p, ADDI(6, 6, -8));         /* sp - 8, lane 1: sp - 7 */
  emit(&p, SLTIU(9, 5, 1));         /* 1 on lane 0 */
  emit(&p, SUB(9, 0, 9));
  emit(&p, ANDI(9, 9, -64));
  emit(&p, ADD(6, 6, 9));           /* lane 0: sp - 72 */
  uint32_t lh = emit(&p, LH(10, 6, 0));
  emit(&p, ECALL);
  harness_run(h, &p, 4);
  assert_fault(h, SIMTY_FAULT_STACK_OVERFLOW, lh, 0, 0, top - 72);
  /* The device runs the next launch: every lane within its own stack. */
  p.n = 0;
  emit_sp(&p);
  emit(&p, SW(5, 6, -64));
  emit(&p, SW(5, 6, -4));
  emit(&p, LW(9, 6, -64));
  emit(&p, ECALL);
  assert_int_equal(harness_run(h, &p, 4), SIMTY_MODEL_DONE);
  assert_int_equal(h->ctr[SIMTY_CTR_mem_transactions], 3);
  harness_free(h);
}

/* Lane 1 alone strays, misaligned, into hart 0's stack: misaligned is
 * checked first. */
static void test_stack_guard_misaligned_first(void **state)
{
  (void)state;
  const uint32_t top = SIMTY_DATA_BASE + SIMTY_DEFAULT_DATA_SIZE;
  struct harness *h = harness_new(1, 4);
  struct prog p = {0};
  emit_sp(&p);
  emit(&p, ADDI(8, 5, -1));
  emit(&p, SLTIU(8, 8, 1));            /* 1 on lane 1 */
  emit(&p, ADDI(9, 0, 5));
  emit(&p, SUB(8, 0, 8));
  emit(&p, AND(8, 8, 9));              /* 5 on lane 1 */
  emit(&p, ADDI(6, 6, -4));
  emit(&p, ADD(6, 6, 8));              /* sp - 4, lane 1: sp + 1 */
  uint32_t sh = emit(&p, SH(5, 6, 0));
  emit(&p, ECALL);
  harness_run(h, &p, 4);
  assert_fault(h, SIMTY_FAULT_MISALIGNED_STORE, sh, 1, 1, top - 64 + 1);
  harness_free(h);
}

/* The area must be aligned to its size: 20 KiB of DATA holds 16 stacks of
 * 256 bytes (4 KiB divides it) but not of 1 KiB. */
static void test_stack_area_alignment(void **state)
{
  (void)state;
  simty_model *m = NULL;
  struct simty_model_config cfg = {4, 4, 0x4000, 0x5000, 0};
  assert_int_equal(simty_model_create(&cfg, &m), 0);
  const uint32_t ecall = ECALL;
  assert_int_equal(simty_model_write(m, SIMTY_CODE_BASE, &ecall, 4), 0);
  struct simty_model_launch_params lp = {.entry = SIMTY_CODE_BASE,
                                         .nthreads = 16,
                                         .stack_log2 = 10,
                                         .data_end = SIMTY_DATA_BASE};
  assert_int_equal(simty_model_launch(m, &lp), SIMTY_MODEL_INVALID);
  assert_non_null(strstr(simty_model_last_error(m), "aligned"));
  lp.stack_log2 = 8;
  assert_int_equal(simty_model_launch(m, &lp), 0);
  assert_int_equal(simty_model_run(m, 0), SIMTY_MODEL_DONE);
  simty_model_destroy(m);
}

static void test_console_store(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, LUI(6, SIMTY_CONSOLE_ADDR));
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, ADDI(7, 5, 'a' + 0x100)); /* only the low byte reaches it */
  emit(&p, SB(7, 6, 0));
  emit(&p, SW(7, 6, 0));
  emit(&p, ECALL);
  struct harness *h = harness_new(1, 4);
  harness_run(h, &p, 4);
  expect_done(h);
  assert_int_equal(h->nconsole, 8);
  for (unsigned i = 0; i < 8; i++) {
    assert_int_equal(h->console[i].tid, i % 4);
    assert_int_equal(h->console[i].byte, 'a' + i % 4);
  }
  assert_int_equal(h->ctr[SIMTY_CTR_mem_requests], 8);
  assert_int_equal(h->ctr[SIMTY_CTR_mem_transactions], 2);
  assert_int_equal(h->ctr[SIMTY_CTR_replays_mem], 0);
  harness_free(h);
}

static void test_ebreak(void **state)
{
  (void)state;
  struct prog p = {0};
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, ADDI(6, 0, 2));
  emit(&p, BLTU(5, 6, 8));       /* tids 0, 1 skip the ebreak */
  uint32_t eb = emit(&p, EBREAK);
  emit(&p, ECALL);
  struct harness *h = harness_new(2, 2);
  harness_load(h, &p);
  harness_launch(h, 4, 0, 0);
  assert_fault(h, SIMTY_FAULT_EBREAK, eb, 2, 2, 0);
  harness_free(h);
}

static void test_illegal_encodings(void **state)
{
  (void)state;
  const uint32_t illegal[] = {
      0x00000000u,                       /* all zeros */
      0xffffffffu,                       /* all ones */
      0x00004501u,                       /* compressed (c.li) */
      CSRRW(1, SIMTY_CSR_MHARTID, 0),    /* write form */
      enc_i(SIMTY_CSR_TID, 0, 5, 1, 0x73), /* csrrwi */
      CSRRS(1, SIMTY_CSR_MHARTID, 2),    /* csrrs with rs1 != x0 writes */
      CSRRC(1, SIMTY_CSR_TID, 1),
      CSRRSI(1, SIMTY_CSR_TID, 1),       /* uimm != 0 */
      CSRRCI(1, SIMTY_CSR_TID, 31),
      CSRR(1, 0x300),                    /* mstatus: not ours */
      CSRR(1, 0xc00),                    /* cycle: not provided */
      CSRR(1, 0xfc7),                    /* past the Simty CSRs */
      enc_i(SIMTY_CSR_TID, 0, 4, 1, 0x73), /* funct3 4 */
      0x30200073u,                       /* mret */
      0x10500073u,                       /* wfi */
      0x00200073u,                       /* uret */
      0x000000f3u,                       /* ecall with rd != 0 */
      enc_r(1, 2, 1, 0, 3, 0x33),        /* mul (M extension) */
      enc_r(1, 2, 1, 4, 3, 0x33),        /* div */
      enc_r(0x20, 2, 1, 1, 3, 0x33),     /* sll with funct7 0x20 */
      enc_r(0x20, 2, 1, 7, 3, 0x33),     /* and with funct7 0x20 */
      enc_r(0x20, 3, 1, 1, 2, 0x13),     /* slli with funct7 0x20 */
      enc_r(0x01, 3, 1, 5, 2, 0x13),     /* srli with funct7 1 */
      enc_r(0x00, 3, 1, 5, 2, 0x13) | (1u << 25), /* shamt bit 5 (RV64) */
      enc_i(0, 1, 1, 2, 0x67),           /* jalr funct3 1 */
      enc_b(8, 2, 1, 2),                 /* branch funct3 2 */
      enc_b(8, 2, 1, 3),                 /* branch funct3 3 */
      enc_i(0, 1, 3, 2, 0x03),           /* ld (RV64) */
      enc_i(0, 1, 6, 2, 0x03),           /* lwu (RV64) */
      enc_s(0, 2, 1, 3, 0x23),           /* sd (RV64) */
      enc_i(0, 1, 2, 0, 0x0f),           /* misc-mem funct3 2 */
      0x0000000bu,                       /* custom-0 */
      0x0000001bu,                       /* OP-IMM-32 (RV64) */
      0x00000007u,                       /* flw */
  };
  for (unsigned k = 0; k < sizeof(illegal) / sizeof(illegal[0]); k++) {
    struct prog p = {0};
    emit(&p, NOP);
    uint32_t pc = emit(&p, illegal[k]);
    emit(&p, ECALL);
    struct harness *h = run_single(&p);
    if (h->status != SIMTY_MODEL_FAULTED ||
        h->fault.cause != SIMTY_FAULT_ILLEGAL_INSTRUCTION)
      fail_msg("word 0x%08x (case %u) was accepted (status %d cause %u)",
               illegal[k], k, h->status, h->fault.cause);
    assert_fault(h, SIMTY_FAULT_ILLEGAL_INSTRUCTION, pc, 0, 0, illegal[k]);
    harness_free(h);
  }
}

static void test_misaligned_jump_targets(void **state)
{
  (void)state;
  /* jal to pc + 6 */
  struct prog p = {0};
  uint32_t jal = emit(&p, JAL(1, 6));
  emit(&p, ECALL);
  emit(&p, ECALL);
  struct harness *h = run_single(&p);
  assert_fault(h, SIMTY_FAULT_MISALIGNED_FETCH, jal, 0, 0, jal + 6);
  harness_free(h);

  /* jalr to a 2-mod-4 address (bit 0 set too: cleared first) */
  p.n = 0;
  emit_li(&p, 5, SIMTY_CODE_BASE + 0x103);
  uint32_t jalr = emit(&p, JALR(0, 5, 0));
  emit(&p, ECALL);
  h = run_single(&p);
  assert_fault(h, SIMTY_FAULT_MISALIGNED_FETCH, jalr, 0, 0,
               SIMTY_CODE_BASE + 0x102);
  harness_free(h);

  /* a taken branch faults, a not-taken one does not */
  p.n = 0;
  emit(&p, ADDI(5, 0, 1));
  emit(&p, BEQ(5, 0, 6));       /* not taken: fine */
  uint32_t br = emit(&p, BNE(5, 0, -6));
  emit(&p, ECALL);
  h = run_single(&p);
  assert_fault(h, SIMTY_FAULT_MISALIGNED_FETCH, br, 0, 0, br - 6);
  harness_free(h);

  /* only lane 3 takes the branch: lane 3 reports */
  p.n = 0;
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, ADDI(6, 0, 3));
  br = emit(&p, BEQ(5, 6, 10));
  emit(&p, ECALL);
  h = harness_new(1, 4);
  harness_run(h, &p, 4);
  assert_fault(h, SIMTY_FAULT_MISALIGNED_FETCH, br, 3, 3, br + 10);
  harness_free(h);
}

static void test_fetch_out_of_range(void **state)
{
  (void)state;
  const uint32_t code_end = SIMTY_CODE_BASE + 0x4000; /* harness CODE */
  uint32_t targets[] = {code_end, 0, SIMTY_DATA_BASE, code_end + 0x10000};
  for (unsigned k = 0; k < 4; k++) {
    struct prog p = {0};
    emit_li(&p, 5, targets[k]);
    emit(&p, JALR(0, 5, 0));
    emit(&p, ECALL);
    struct harness *h = run_single(&p);
    assert_fault(h, SIMTY_FAULT_FETCH_OUT_OF_RANGE, targets[k], 0, 0,
                 targets[k]);
    /* the jump faults before it retires, like a misaligned target */
    assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], 2);
    harness_free(h);
  }
  /* falling off the end of CODE */
  struct harness *h = harness_new(1, 1);
  struct prog p = {0};
  emit_li(&p, 5, code_end - 4);
  emit(&p, JALR(0, 5, 0));
  harness_load(h, &p);
  poke(h, code_end - 4, NOP);
  harness_launch(h, 1, 0, 0);
  assert_fault(h, SIMTY_FAULT_FETCH_OUT_OF_RANGE, code_end, 0, 0, code_end);
  harness_free(h);
}

static void test_ecall_ends_threads(void **state)
{
  (void)state;
  struct prog p = {0};
  emit_res_base(&p);
  emit(&p, CSRR(5, SIMTY_CSR_TID));
  emit(&p, ANDI(6, 5, 1));
  emit(&p, BEQ(6, 0, 8));        /* even tids skip the ecall */
  emit(&p, ECALL);               /* odd tids end here */
  emit(&p, SLLI(7, 5, 2));
  emit(&p, ADD(7, 7, RES));
  emit(&p, ADDI(8, 0, 1));
  emit(&p, SW(8, 7, 0));
  emit(&p, ECALL);
  struct harness *h = harness_new(1, 4);
  harness_run(h, &p, 4);
  expect_done(h);
  for (uint32_t t = 0; t < 4; t++)
    assert_int_equal(peek(h, OUT(t)), t % 2 == 0);
  /* 4 common instructions x 4 lanes, ecall x 2, tail 5 x 2 */
  assert_int_equal(h->ctr[SIMTY_CTR_thread_insts], 16 + 2 + 10);
  assert_int_equal(h->ctr[SIMTY_CTR_warp_insts], 4 + 1 + 5);
  assert_int_equal(h->ctr[SIMTY_CTR_divergent_branches], 1);
  harness_free(h);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lui_auipc),
      cmocka_unit_test(test_add_sub_addi),
      cmocka_unit_test(test_compares_signed_unsigned),
      cmocka_unit_test(test_shifts),
      cmocka_unit_test(test_logic),
      cmocka_unit_test(test_loads_sign_extension),
      cmocka_unit_test(test_stores_partial),
      cmocka_unit_test(test_x0_is_zero),
      cmocka_unit_test(test_jal_jalr),
      cmocka_unit_test(test_branches_both_ways),
      cmocka_unit_test(test_fence_is_nop),
      cmocka_unit_test(test_csr_values),
      cmocka_unit_test(test_misaligned_load_lowest_lane),
      cmocka_unit_test(test_misaligned_store_writes_nothing),
      cmocka_unit_test(test_access_out_of_range),
      cmocka_unit_test(test_fault_lowest_lane_wins),
      cmocka_unit_test(test_stack_interleaved),
      cmocka_unit_test(test_stack_guard),
      cmocka_unit_test(test_stack_guard_misaligned_first),
      cmocka_unit_test(test_stack_area_alignment),
      cmocka_unit_test(test_console_store),
      cmocka_unit_test(test_ebreak),
      cmocka_unit_test(test_illegal_encodings),
      cmocka_unit_test(test_misaligned_jump_targets),
      cmocka_unit_test(test_fetch_out_of_range),
      cmocka_unit_test(test_ecall_ends_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
